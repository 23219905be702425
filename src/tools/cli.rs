//! The command line of the tools: `movecount`, `analyze`, `bench`,
//! `suite`, `params`, `goal`, `eval`, `capture` and `replay`, their clap
//! arguments and how each becomes a call into its module.

use super::{analyze, bench, capture, evalcmd, goal, movecount, replay, suite};
use crate::board::Color;
use crate::outln;
use crate::search::{EngineConfig, EngineOptions, MAX_DEPTH};
use crate::settings::{flag_check, flag_help};
use anyhow::{Context, Result};

/// A position taken from a game record (`analyze`, `eval`).
#[derive(clap::Args)]
pub struct RecordArgs {
    /// A game record: an arimaa.com archive TSV (pick the game with --id)
    /// or a movelist file (`1g Ra1 ...` lines, one move a line).
    #[arg(long, value_name = "FILE")]
    game: Option<String>,
    /// With --game: the id of the archive's game.
    #[arg(long, value_name = "GAMEID", requires = "game")]
    id: Option<String>,
    /// With --game: the position before this move (`12s`, the old `12b`
    /// too), with the game's history for repetitions. Default: the
    /// position after the last move.
    #[arg(long = "move", value_name = "LABEL", requires = "game")]
    move_label: Option<String>,
}

impl RecordArgs {
    /// Refuses `--id` or `--move` without `--game`. Clap's `requires`
    /// does not do it here: with a position given, `--game` conflicts
    /// with it, and clap then skips the requirement, so the flag would be
    /// dropped without a word.
    fn check(&self, all: bool) -> Result<()> {
        if self.game.is_none() {
            for (given, flag) in [
                (self.id.is_some(), "--id"),
                (self.move_label.is_some(), "--move"),
                (all, "--all"),
            ] {
                if given {
                    anyhow::bail!("{flag} needs --game FILE: it picks from a game record");
                }
            }
        }
        Ok(())
    }
}

/// The engine settings of a search (`analyze`, `suite`).
#[derive(clap::Args)]
pub struct SearchArgs {
    #[arg(long, help = flag_help::<EngineOptions>("depth"), value_parser = flag_check::<EngineOptions>("depth"))]
    depth: Option<String>,
    #[arg(long, help = flag_help::<EngineOptions>("hash"), value_parser = flag_check::<EngineOptions>("hash"))]
    hash: Option<String>,
    #[arg(long, help = flag_help::<EngineOptions>("threads"), value_parser = flag_check::<EngineOptions>("threads"))]
    threads: Option<String>,
    /// Settings to change, `name=value,...` (any `aamir params` lists).
    #[arg(long, default_value = "")]
    params: String,
    /// Evaluate with the learned evaluation loaded from this net file
    /// (`builtin`: the net in the binary); sets `evalnet=1`.
    #[arg(long)]
    evalfile: Option<String>,
}

impl SearchArgs {
    /// The configuration these flags ask for.
    fn config(self) -> Result<EngineConfig> {
        let net = self.evalfile.is_some().then(|| "1".to_string());
        config(
            &self.params,
            &[
                ("depth", self.depth),
                ("hash", self.hash),
                ("threads", self.threads),
                ("evalnet", net),
                (crate::search::config::EVALFILE, self.evalfile),
            ],
        )
    }
}

/// The tools' subcommands.
#[derive(clap::Subcommand)]
pub enum ToolCommand {
    /// Count the distinct legal turns of a position, or check a suite file.
    Movecount {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        position: Option<String>,
        /// A TSV of label, side, board, count rows to check.
        #[arg(long, conflicts_with = "position")]
        suite: Option<String>,
        /// Run the suite this many times (steadier timing).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
    /// Search a position and print the progress and the best move; or a
    /// position of a game record (`--game`, `--move`); or every move of a
    /// game next to aamir's choice, with the blunders (`--game --all`).
    #[command(after_help = POSITION_HELP)]
    Analyze {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram
        /// (see below).
        #[arg(required_unless_present = "game", conflicts_with = "game")]
        position: Option<String>,
        #[command(flatten)]
        record: RecordArgs,
        /// With --game: every move of the game, aamir's choice and score
        /// next to the move played and the score after it, then the moves
        /// that lost the most. --time and --depth apply to each move
        /// (default 1 s a move).
        #[arg(long, requires = "game", conflicts_with = "move_label")]
        all: bool,
        /// Seconds to think (default 5 when no depth is given; with --all,
        /// per move, default 1).
        #[arg(long, value_parser = parse_seconds)]
        time: Option<f64>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Search fixed positions to a fixed depth; prints speed and a
    /// deterministic node total.
    Bench {
        /// Depth in steps (1-120).
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
        depth: u32,
        #[arg(long, help = flag_help::<EngineOptions>("hash"), value_parser = flag_check::<EngineOptions>("hash"))]
        hash: Option<String>,
        /// Settings to change, `name=value,...` (any `aamir params` lists).
        #[arg(long, default_value = "")]
        params: String,
        /// Compare minimax, alpha-beta, fail-soft, alpha-beta with a table
        /// and the engine at depths 1..=depth instead.
        #[arg(long)]
        variants: bool,
        /// Time the static evaluation instead: nanoseconds per evaluation,
        /// with and without the knowledge terms, and each term's cost.
        #[arg(long, conflicts_with = "variants")]
        eval: bool,
        /// With --variants: how many of the bench positions (1-13).
        #[arg(long, default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=13))]
        positions: usize,
        /// With --variants: node cap per search (deeper depths are skipped).
        #[arg(long, default_value_t = 20_000_000)]
        node_cap: u64,
    },
    /// Run aamir's search on every position of a tactics suite (see
    /// tests/data/tactics.tsv) and count the solved ones by kind; or check
    /// the file (--check); or build one from lost games (`suite make`).
    Suite(SuiteArgs),
    /// List every engine option, search parameter and evaluation weight
    /// with its default, range and meaning (all settable by AEI `setoption`
    /// and by `--params name=value,...`).
    Params,
    /// Fewest steps to goal this turn (`goal N` / `goal none`), or check a
    /// suite file.
    Goal {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        position: Option<String>,
        /// A TSV of side, board, expected (steps or `none`) rows to check.
        #[arg(long, conflicts_with = "position")]
        #[cfg_attr(feature = "dev", arg(conflicts_with = "random"))]
        suite: Option<String>,
        /// Also print the first action of a shortest goal, and the goal.
        #[arg(long)]
        first: bool,
        /// Run the suite this many times (steadier timing).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
        /// Use the brute-force search instead (for speed comparisons).
        #[cfg(feature = "dev")]
        #[arg(long)]
        brute: bool,
        #[cfg(feature = "dev")]
        #[command(flatten)]
        study: RandomStudy,
    },
    /// The static score of a position term by term: material, rabbit
    /// advancement, traps, captures and each knowledge term, for gold and
    /// silver, and the total for the side to move.
    Eval {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        #[arg(required_unless_present = "game", conflicts_with = "game")]
        position: Option<String>,
        #[command(flatten)]
        record: RecordArgs,
        /// A whole move to play on top first (`Ra2n Ra3n ...`; repeat the
        /// flag for more moves, each checked by the rules).
        #[arg(long, value_name = "MOVE")]
        then: Vec<String>,
        /// Weights to change, `eval_NAME=value,...` as `aamir params` lists
        /// them (`eval_tempo=5`).
        #[arg(long, default_value = "")]
        params: String,
    },
    /// Enemy pieces the side to move (or --attacker with a fresh turn) can
    /// capture within its steps.
    Capture {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        position: Option<String>,
        /// The capturing side, `g` or `s` (default: the side to move).
        #[arg(long, value_parser = parse_color)]
        attacker: Option<Color>,
        /// Most steps the attacker may use.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=4))]
        steps: u8,
        #[cfg(feature = "dev")]
        #[command(flatten)]
        study: RandomStudy,
    },
    /// Replay an arimaa.com archive and check every move and ending.
    Replay {
        /// The archive TSV file.
        file: String,
    },
}

/// `aamir suite FILE ...` and `aamir suite make ...`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SuiteArgs {
    #[command(subcommand)]
    make: Option<SuiteCommand>,
    /// The suite file (tab-separated; see `docs/tactics-suite.md` for the
    /// columns and the grading).
    #[arg(required = true)]
    file: Option<String>,
    /// Seconds per position (default 1 when no depth is given).
    #[arg(long, value_parser = parse_seconds)]
    time: Option<f64>,
    #[command(flatten)]
    search: SearchArgs,
    /// Only positions of this kind: capture, capture-defence, goal,
    /// goal-defence.
    #[arg(long, value_parser = parse_kind)]
    kind: Option<suite::TacticKind>,
    /// Which rows: all, tune or holdout.
    #[arg(long, default_value = "all", value_parser = parse_split)]
    split: SplitChoice,
    /// Also write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Only check the file, no search: every solution legal and meeting
    /// its kind's criterion, no move played solving its position.
    #[arg(long, conflicts_with_all = ["time", "depth", "json"])]
    check: bool,
}

#[derive(Clone, Copy)]
struct SplitChoice(Option<suite::Split>);

#[derive(clap::Subcommand)]
pub enum SuiteCommand {
    /// Build a suite file from `aamir match` games aamir lost: positions
    /// where a deeper search (Sharp's developer command, or aamir's own at
    /// --deep-time) beats the move played by the grading criteria and
    /// aamir at --time does not solve.
    Make {
        /// `games.tsv` files of `aamir match` (arimaa.com archive columns).
        #[arg(required = true)]
        games: Vec<String>,
        /// aamir's engine name in the games (wusername/busername); repeat
        /// for more.
        #[arg(long = "player", value_name = "NAME", required = true)]
        players: Vec<String>,
        /// Sharp's developer command (`sharp-dev`, built by
        /// ../shared/tools/build-sharp.sh): `PATH searchPos FILE -d DEPTH`.
        #[arg(long, value_name = "PATH")]
        sharp: Option<String>,
        /// Depth of Sharp's search; repeat for more searches, each a deep
        /// opinion (the best-graded move counts).
        #[arg(long = "sharp-depth", value_name = "D", default_values_t = [6])]
        sharp_depths: Vec<u32>,
        /// Without --sharp: seconds of aamir's own deep search.
        #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
        deep_time: f64,
        /// Seconds of aamir's check search (a kept position is one it does
        /// not solve in this time).
        #[arg(long, default_value_t = 1.0, value_parser = parse_seconds)]
        time: f64,
        /// At most this many positions from one game.
        #[arg(long, default_value_t = 6)]
        per_game: usize,
        /// Folder for the position file given to Sharp.
        #[arg(long, default_value = "target/suite-make")]
        scratch: String,
        /// The suite file to write.
        #[arg(long)]
        out: String,
        /// Add to this suite: its rows stay, its positions are skipped,
        /// new ids follow its last (may be the same file as --out).
        #[arg(long, value_name = "FILE")]
        add_to: Option<String>,
    },
}

fn parse_kind(s: &str) -> Result<suite::TacticKind, String> {
    suite::TacticKind::parse(s).ok_or_else(|| {
        format!("`{s}` is not a kind: use capture, capture-defence, goal or goal-defence")
    })
}

fn parse_split(s: &str) -> Result<SplitChoice, String> {
    match s {
        "all" => Ok(SplitChoice(None)),
        _ => suite::Split::parse(s)
            .map(|x| SplitChoice(Some(x)))
            .ok_or_else(|| format!("`{s}` is not a split: use all, tune or holdout")),
    }
}

/// How to write a position, shown under `aamir analyze --help`.
const POSITION_HELP: &str = "\
Positions: `g [BOARD]` (gold to move) or `s [BOARD]` (silver to move; `w`
and `b` are the old names). BOARD is 64 characters between the brackets,
one per square, rank 8 first: a8 b8 ... h8, then a7 ... h7, down to
a1 ... h1. Gold pieces are upper case, silver lower case: E elephant,
M camel, H horse, D dog, C cat, R rabbit; a space is an empty square.
Gold's goal is rank 8, silver's rank 1.

From a diagram: read it top row first (rank 8), each row left to right
(file a to h), writing the piece letters and a space for every empty
square (a `.`, an `x` on a trap or a blank). The usual opening, gold to
move, is silver's two ranks, 32 spaces for ranks 6 to 3, gold's two ranks:

  aamir analyze 'g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]'

A file holding that line, or a long diagram (`12g` then the board framed
by `+---+` lines, as arimaa.com and AEI's tools print it), works too.
Games: `--game FILE` takes an arimaa.com archive TSV (with `--id GAMEID`)
or a movelist file, one move a line: `1g Ra1 Rb1 ...`, `1s ra8 ...`,
`2g Ee2n Ee3n ...`.";

/// The `dev` studies' comparison with the brute force on random positions.
#[cfg(feature = "dev")]
#[derive(clap::Args)]
pub struct RandomStudy {
    /// Compare with the brute force on this many random-play positions.
    #[arg(long, conflicts_with = "position")]
    random: Option<usize>,
    /// With --random: positions crowded around goal instead of random play.
    #[arg(long, requires = "random")]
    near: bool,
    /// With --random: near-goal positions with random pieces added and
    /// removed around a rabbit (goal) or a trap (capture).
    #[arg(long, requires = "random", conflicts_with = "near")]
    mutated: bool,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[cfg(feature = "dev")]
impl RandomStudy {
    /// The random positions `--random` checks use.
    fn kind(&self) -> crate::tactics::random::RandomKind {
        use crate::tactics::random::RandomKind;
        match (self.near, self.mutated) {
            (true, _) => RandomKind::Near,
            (_, true) => RandomKind::Mutated,
            _ => RandomKind::Play,
        }
    }
}

/// `g`/`s` (or `w`/`b`) for a colour argument.
fn parse_color(s: &str) -> Result<Color, String> {
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Color::from_char(c),
        _ => None,
    }
    .ok_or_else(|| format!("`{s}` is not a side: use g or s"))
}

/// A thinking time in seconds: a finite number above 0 and at most a day
/// (a `Duration` cannot hold NaN, infinity or a negative time).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 86_400.0 => Ok(x),
        Ok(_) => Err(format!("`{s}`: give seconds above 0 and at most 86400")),
        Err(_) => Err(format!("`{s}` is not a number of seconds")),
    }
}

/// The default configuration with a `--params name=value,...` spec
/// applied, then the settings given as their own flags (already checked
/// by [`setting`]).
fn config(spec: &str, flags: &[(&str, Option<String>)]) -> Result<EngineConfig> {
    let mut c = EngineConfig::from_spec(spec).context("--params")?;
    for (name, value) in flags {
        if let Some(v) = value {
            c.set(name, v)?;
        }
    }
    Ok(c)
}

/// `aamir params`: every setting as a table.
fn print_params() -> Result<()> {
    for (title, rows) in EngineConfig::listing() {
        outln!("{title}:")?;
        let w0 = rows.iter().map(|r| r[0].len()).max().unwrap_or(0);
        let w1 = rows.iter().map(|r| r[1].len()).max().unwrap_or(0);
        let w2 = rows.iter().map(|r| r[2].len()).max().unwrap_or(0);
        for [name, default, range, doc] in rows {
            outln!("  {name:<w0$}  {default:<w1$}  {range:<w2$}  {doc}")?;
        }
        outln!()?;
    }
    outln!("Set with AEI `setoption name NAME value V` or `--params NAME=V,...`;")?;
    outln!("AEI also takes `seed` and the standard time options (see docs/protocol.md).")?;
    Ok(())
}

/// Runs a tool's subcommand.
pub fn run(command: ToolCommand) -> Result<()> {
    match command {
        ToolCommand::Movecount {
            position,
            suite,
            repeat,
        } => match (position, suite) {
            (_, Some(s)) => movecount::run_suite(&s, repeat),
            (Some(p), None) => movecount::run_one(&p),
            (None, None) => anyhow::bail!("give a position or --suite FILE"),
        },
        ToolCommand::Analyze {
            position,
            record,
            all,
            time,
            search,
        } => {
            record.check(all)?;
            let RecordArgs {
                game,
                id,
                move_label,
            } = record;
            let config = search.config()?;
            let opts = analyze::AnalyzeOptions { time, config };
            match (position, game) {
                (_, Some(g)) if all => analyze::run_all(&g, id.as_deref(), &opts),
                (_, Some(g)) => analyze::run_game(&g, id.as_deref(), move_label.as_deref(), &opts),
                (Some(p), None) => analyze::run(&p, &opts),
                (None, None) => anyhow::bail!("give a position or --game FILE"),
            }
        }
        ToolCommand::Bench {
            depth,
            variants: true,
            positions,
            node_cap,
            ..
        } => bench::run_variants(depth, positions, node_cap),
        ToolCommand::Bench {
            eval: true, params, ..
        } => bench::run_eval(&config(&params, &[])?),
        ToolCommand::Bench {
            depth,
            hash,
            params,
            ..
        } => {
            let config = config(&params, &[("hash", hash)])?;
            bench::run(depth, &config, true).map(|_| ())
        }
        ToolCommand::Suite(SuiteArgs {
            make:
                Some(SuiteCommand::Make {
                    games,
                    players,
                    sharp,
                    sharp_depths,
                    deep_time,
                    time,
                    per_game,
                    scratch,
                    out,
                    add_to,
                }),
            ..
        }) => {
            let command = std::env::args().collect::<Vec<_>>().join(" ");
            let opts = suite::MakeOptions {
                games,
                players,
                sharp,
                sharp_depths,
                deep_time,
                check: analyze::AnalyzeOptions {
                    time: Some(time),
                    config: config("", &[])?,
                },
                per_game,
                scratch,
                out,
                command,
                add_to,
            };
            suite::make(&opts)
        }
        ToolCommand::Suite(SuiteArgs {
            make: None,
            file,
            time,
            search,
            kind,
            split,
            json,
            check,
        }) => {
            let file = file.context("give the suite FILE")?;
            let config = search.config()?;
            let opts = suite::SuiteOptions {
                analyze: analyze::AnalyzeOptions { time, config },
                kind,
                split: split.0,
                json,
                check_only: check,
            };
            suite::run(&file, &opts)
        }
        ToolCommand::Params => print_params(),
        #[cfg(feature = "dev")]
        ToolCommand::Goal {
            study: study @ RandomStudy {
                random: Some(n), ..
            },
            ..
        } => super::studies::goal_random(n, study.seed, study.kind()),
        #[cfg(feature = "dev")]
        ToolCommand::Capture {
            steps,
            study: study @ RandomStudy {
                random: Some(n), ..
            },
            ..
        } => super::studies::capture_random(n, study.seed, steps, study.kind()),
        ToolCommand::Goal {
            position,
            suite,
            first,
            repeat,
            #[cfg(feature = "dev")]
            brute,
            ..
        } => {
            #[cfg(feature = "dev")]
            let solver = match brute {
                true => goal::Solver::Brute,
                false => goal::Solver::Static,
            };
            #[cfg(not(feature = "dev"))]
            let solver = goal::Solver::Static;
            match (position, suite) {
                (_, Some(s)) => goal::run_suite(&s, repeat, solver),
                (Some(p), None) => goal::run_one(&p, first),
                (None, None) => anyhow::bail!("give a position or --suite FILE"),
            }
        }
        ToolCommand::Capture {
            position,
            attacker,
            steps,
            ..
        } => match position {
            Some(p) => capture::run_one(&p, attacker, steps),
            None => anyhow::bail!("give a position"),
        },
        ToolCommand::Replay { file } => replay::run(&file),
        ToolCommand::Eval {
            position,
            record,
            then,
            params,
        } => {
            record.check(false)?;
            let RecordArgs {
                game,
                id,
                move_label,
            } = record;
            let config = config(&params, &[])?;
            let eval = config.evaluator();
            let source = match (&position, &game) {
                (_, Some(g)) => evalcmd::Source::Game {
                    path: g,
                    id: id.as_deref(),
                    before: move_label.as_deref(),
                },
                (Some(p), None) => evalcmd::Source::Position(p),
                (None, None) => anyhow::bail!("give a position or --game FILE"),
            };
            evalcmd::run(source, &then, &eval)
        }
    }
}
