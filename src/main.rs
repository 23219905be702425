//! The `aamir` binary: argument parsing only; the work is in the library.
//! With no arguments (or `aei`) it runs an AEI session on stdin/stdout.

use aamir::out::{self, WriteFailure};
use aamir::search::{EngineConfig, EngineOptions, MAX_DEPTH};
use aamir::{aei, outln, tools};
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "aamir", version, about = "An Arimaa engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// A position taken from a game record (`analyze`, `eval`).
#[derive(clap::Args)]
struct GameRecord {
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

impl GameRecord {
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

#[derive(Subcommand)]
enum Command {
    /// Speak AEI on stdin/stdout (the default with no arguments).
    Aei,
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
        record: GameRecord,
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
        #[arg(long, help = setting_help("depth"), value_parser = setting("depth"))]
        depth: Option<String>,
        #[arg(long, help = setting_help("hash"), value_parser = setting("hash"))]
        hash: Option<String>,
        #[arg(long, help = setting_help("threads"), value_parser = setting("threads"))]
        threads: Option<String>,
        /// Settings to change, `name=value,...` (any `aamir params` lists).
        #[arg(long, default_value = "")]
        params: String,
    },
    /// Search fixed positions to a fixed depth; prints speed and a
    /// deterministic node total.
    Bench {
        /// Depth in steps (1-120).
        #[arg(long, default_value_t = tools::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
        depth: u32,
        #[arg(long, help = setting_help("hash"), value_parser = setting("hash"))]
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
        record: GameRecord,
        /// A whole move to play on top first (`Ra2n Ra3n ...`; repeat the
        /// flag for more moves, each checked by the rules).
        #[arg(long, value_name = "MOVE")]
        then: Vec<String>,
        /// Weights to change, `eval_name=value,...` (any `aamir params`
        /// lists).
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
        attacker: Option<aamir::board::Color>,
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
    /// Training positions for `aamir tune`: aamir plays itself at a fixed
    /// depth from varied setups; the same seed and settings give the same
    /// file.
    Gen {
        /// Seed of the setups and the random opening turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Search depth in steps.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Games still running after this many turns are dropped.
        #[arg(long, default_value_t = 200)]
        max_turns: u32,
        /// Random turns at the start of each game (among the best by a
        /// static look)...
        #[arg(long, default_value_t = 4)]
        random_turns: u32,
        /// ...chosen among this many.
        #[arg(long, default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
        random_top: usize,
        /// Transposition table per game thread, MB (16 by default here: one
        /// table per game played at once); the same limits as the engine's
        /// `hash` option.
        #[arg(long, default_value = "16", value_parser = setting("hash"))]
        hash: String,
        /// Games played at once (one thread each); does not change the file.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// The file to write.
        #[arg(long)]
        out: String,
    },
    /// Fit the evaluation weights to game results (Texel's method) and
    /// write them as the Rust table the defaults are built from.
    Tune {
        /// Position files from `aamir gen`, archives (`tests/data/*.tsv`)
        /// or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Positions of the first this many turns of each game are left out.
        #[arg(long, default_value_t = 8)]
        skip_turns: u32,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=90))]
        test_pct: u64,
        /// Use this k of sigmoid(k * eval) instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Passes over all weights at most.
        #[arg(long, default_value_t = 30)]
        max_passes: usize,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Write the fitted weights here as a Rust table.
        #[arg(long)]
        out: Option<String>,
        /// Start from these weights instead of the defaults
        /// (`name=value,...`, names as `aamir params` lists them without
        /// `eval.`): a weight that is 0 by default starts with a step of 1,
        /// too small to leave 0 on a noisy loss.
        #[arg(long, default_value = "")]
        start: String,
        /// Weights left at their start values: names separated by commas,
        /// a name ending in `*` standing for every weight it begins
        /// (`rabbit_rank_*`).
        #[arg(long, default_value = "")]
        freeze: String,
        /// A weight the fit moves stays within plus or minus this. A rarely seen term
        /// can run far on a loss it barely moves, and the search then meets
        /// it in positions the data hardly had.
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(i32).range(1..=10_000))]
        bound: i32,
        /// Label each position with `sigmoid(k * score)` of a search this
        /// many steps deep (k fitted to the results first) instead of its
        /// game's result: the static score learns what the search finds
        /// there (0 = the results).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=16))]
        label_depth: u32,
        /// With --label-depth: percent of each label left to the game result.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
        label_result_pct: u32,
        /// With --label-depth: a file of search scores kept between runs;
        /// positions it has at this depth are not searched again, and new
        /// scores are added to it.
        #[arg(long)]
        label_cache: Option<String>,
    },
    /// Fit the turn-ordering model to the turns winners played (archives
    /// or `games.tsv` of `aamir match`), report how it ranks the played
    /// turn on held-out games, and write its weights as a Rust table
    #[command(name = "tune-order")]
    TuneOrder {
        /// Archives (`tests/data/*.tsv`) or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Other legal turns sampled per training position.
        #[arg(long, default_value_t = 127, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
        negatives: usize,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=90))]
        test_pct: u64,
        /// Seed of the sampled turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Gradient steps of the fit.
        #[arg(long, default_value_t = 300)]
        iterations: usize,
        /// Held-out positions ranked among all their legal turns, at most.
        #[arg(long, default_value_t = 400)]
        rank_positions: usize,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Start from the static score alone instead of the checked-in
        /// weights.
        #[arg(long)]
        from_static: bool,
        /// Write the fitted weights here as a Rust table
        /// (`src/search/order_weights.rs`).
        #[arg(long)]
        out: Option<String>,
    },
    /// Fit the evaluation weights to the turns winners played (archives
    /// or `games.tsv` of `aamir match`): the board after the played turn
    /// against the boards after the turns the weights like best and a
    /// sample of the rest, in a softmax of the static score; report how the
    /// played turn ranks on held-out games and write the weights as a Rust
    /// table.
    #[command(name = "tune-moves")]
    TuneMoves {
        /// Archives (`tests/data/*.tsv`) or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Best-scored other turns each played turn competes with.
        #[arg(long, default_value_t = 24, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
        hard: usize,
        /// Other turns drawn at random besides.
        #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=10_000))]
        random: usize,
        /// Rounds of choosing the competitors with the current weights and
        /// fitting.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100))]
        rounds: usize,
        /// Each position's loss counts up to this many nats (0 = no cap):
        /// a played turn far behind by the static score (a sacrifice, a
        /// deep plan) then stops steering the fit.
        #[arg(long, default_value_t = 0.0)]
        cap: f64,
        /// Passes over all weights at most, each round.
        #[arg(long, default_value_t = 4)]
        max_passes: usize,
        /// Positions of the first this many turns of each game are left out.
        #[arg(long, default_value_t = 2)]
        skip_turns: u32,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=90))]
        test_pct: u64,
        /// Seed of the sampled turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Use this k of the softmax instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Held-out positions ranked among all their legal turns, at most.
        #[arg(long, default_value_t = 400)]
        rank_positions: usize,
        /// Start from these weights instead of the defaults (as for `tune`).
        #[arg(long, default_value = "")]
        start: String,
        /// Weights left at their start values (as for `tune`).
        #[arg(long, default_value = "")]
        freeze: String,
        /// A weight the fit moves stays within plus or minus this.
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(i32).range(1..=10_000))]
        bound: i32,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Write the fitted weights here as a Rust table.
        #[arg(long)]
        out: Option<String>,
    },
    /// Play a match between AEI engines (gauntlet or round robin), or
    /// `match merge` the summaries of its shards.
    Match(Box<aamir::arena::cli::MatchArgs>),
}

/// `aamir suite FILE ...` and `aamir suite make ...`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct SuiteArgs {
    #[command(subcommand)]
    make: Option<SuiteCommand>,
    /// The suite file (tab-separated; see `src/tools/suite.rs` or the
    /// README for the columns and the grading).
    #[arg(required = true)]
    file: Option<String>,
    /// Seconds per position (default 1 when no depth is given).
    #[arg(long, value_parser = parse_seconds)]
    time: Option<f64>,
    #[arg(long, help = setting_help("depth"), value_parser = setting("depth"))]
    depth: Option<String>,
    #[arg(long, help = setting_help("hash"), value_parser = setting("hash"))]
    hash: Option<String>,
    #[arg(long, help = setting_help("threads"), value_parser = setting("threads"))]
    threads: Option<String>,
    /// Settings to change, `name=value,...` (any `aamir params` lists).
    #[arg(long, default_value = "")]
    params: String,
    /// Only positions of this kind: capture, capture-defence, goal,
    /// goal-defence.
    #[arg(long, value_parser = parse_kind)]
    kind: Option<tools::suite::TacticKind>,
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
struct SplitChoice(Option<tools::suite::Split>);

#[derive(Subcommand)]
enum SuiteCommand {
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

fn parse_kind(s: &str) -> Result<tools::suite::TacticKind, String> {
    tools::suite::TacticKind::parse(s).ok_or_else(|| {
        format!("`{s}` is not a kind: use capture, capture-defence, goal or goal-defence")
    })
}

fn parse_split(s: &str) -> Result<SplitChoice, String> {
    match s {
        "all" => Ok(SplitChoice(None)),
        _ => tools::suite::Split::parse(s)
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
struct RandomStudy {
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
    fn kind(&self) -> aamir::tactics::random::RandomKind {
        use aamir::tactics::random::RandomKind;
        match (self.near, self.mutated) {
            (true, _) => RandomKind::Near,
            (_, true) => RandomKind::Mutated,
            _ => RandomKind::Play,
        }
    }
}

/// `g`/`s` (or `w`/`b`) for a colour argument.
fn parse_color(s: &str) -> Result<aamir::board::Color, String> {
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => aamir::board::Color::from_char(c),
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

/// A clap value parser for the engine setting `name`: the same check,
/// range and error as AEI's `setoption` and `--params`.
fn setting(name: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |v: &str| {
        EngineConfig::default()
            .set(name, v)
            .map(|()| v.to_string())
            .map_err(|e| e.to_string())
    }
}

/// A flag's help, from the setting's table line.
fn setting_help(name: &str) -> String {
    use aamir::settings::Table;
    let i = EngineOptions::index_of(name).expect("an engine option");
    let spec = EngineOptions::spec(i).expect("index in range");
    let default = EngineOptions::default().get(i).unwrap_or_default();
    format!(
        "{} [default {default}; {}]",
        spec.doc_line(),
        spec.range_text()
    )
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
    outln!("AEI also takes `seed` and the standard time options (see the README).")?;
    Ok(())
}

/// Status of a tool whose output pipe closed: what a shell reports for a
/// Unix tool ended by `SIGPIPE` (128 + 13).
const CLOSED_PIPE_STATUS: i32 = 141;

fn main() {
    env_logger::init();
    // A panic ends the process in every build, as the release profile's
    // `panic = "abort"` does: a search thread that died would otherwise
    // leave an AEI session running without its searcher.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        std::process::abort();
    }));
    let cli = Cli::parse();
    let result = run(cli).and_then(|()| Ok(out::flush()?));
    if let Err(e) = result {
        match WriteFailure::of(&e) {
            // The reader went away (`| head`): nothing to say, and no one
            // to say it to on stdout.
            WriteFailure::ClosedPipe => std::process::exit(CLOSED_PIPE_STATUS),
            WriteFailure::Other => eprintln!("aamir: {e}"),
            // The error and its causes, never a backtrace: these are the
            // user's mistakes (a missing file, a bad value), not bugs.
            WriteFailure::None => {
                eprintln!("Error: {e}");
                let causes: Vec<_> = e.chain().skip(1).collect();
                if !causes.is_empty() {
                    eprintln!("\nCaused by:");
                    for (i, c) in causes.iter().enumerate() {
                        match causes.len() {
                            1 => eprintln!("    {c}"),
                            _ => eprintln!("    {i}: {c}"),
                        }
                    }
                }
            }
        }
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Some(Command::Movecount {
            position,
            suite,
            repeat,
        }) => match (position, suite) {
            (_, Some(s)) => tools::movecount::run_suite(&s, repeat),
            (Some(p), None) => tools::movecount::run_one(&p),
            (None, None) => anyhow::bail!("give a position or --suite FILE"),
        },
        Some(Command::Analyze {
            position,
            record,
            all,
            time,
            depth,
            hash,
            threads,
            params,
        }) => {
            record.check(all)?;
            let GameRecord {
                game,
                id,
                move_label,
            } = record;
            let config = config(
                &params,
                &[("depth", depth), ("hash", hash), ("threads", threads)],
            )?;
            let opts = tools::analyze::AnalyzeOptions { time, config };
            match (position, game) {
                (_, Some(g)) if all => tools::analyze::run_all(&g, id.as_deref(), &opts),
                (_, Some(g)) => {
                    tools::analyze::run_game(&g, id.as_deref(), move_label.as_deref(), &opts)
                }
                (Some(p), None) => tools::analyze::run(&p, &opts),
                (None, None) => anyhow::bail!("give a position or --game FILE"),
            }
        }
        Some(Command::Bench {
            depth,
            variants: true,
            positions,
            node_cap,
            ..
        }) => tools::bench::run_variants(depth, positions, node_cap),
        Some(Command::Bench {
            eval: true, params, ..
        }) => tools::bench::run_eval(&config(&params, &[])?),
        Some(Command::Bench {
            depth,
            hash,
            params,
            ..
        }) => {
            let config = config(&params, &[("hash", hash)])?;
            tools::bench::run(depth, &config, true).map(|_| ())
        }
        Some(Command::Suite(SuiteArgs {
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
        })) => {
            let command = std::env::args().collect::<Vec<_>>().join(" ");
            let opts = tools::suite::MakeOptions {
                games,
                players,
                sharp,
                sharp_depths,
                deep_time,
                check: tools::analyze::AnalyzeOptions {
                    time: Some(time),
                    config: config("", &[])?,
                },
                per_game,
                scratch,
                out,
                command,
                add_to,
            };
            tools::suite::make(&opts)
        }
        Some(Command::Suite(SuiteArgs {
            make: None,
            file,
            time,
            depth,
            hash,
            threads,
            params,
            kind,
            split,
            json,
            check,
        })) => {
            let file = file.context("give the suite FILE")?;
            let config = config(
                &params,
                &[("depth", depth), ("hash", hash), ("threads", threads)],
            )?;
            let opts = tools::suite::SuiteOptions {
                analyze: tools::analyze::AnalyzeOptions { time, config },
                kind,
                split: split.0,
                json,
                check_only: check,
            };
            tools::suite::run(&file, &opts)
        }
        Some(Command::Params) => print_params(),
        #[cfg(feature = "dev")]
        Some(Command::Goal {
            study: study @ RandomStudy {
                random: Some(n), ..
            },
            ..
        }) => tools::studies::goal_random(n, study.seed, study.kind()),
        #[cfg(feature = "dev")]
        Some(Command::Capture {
            steps,
            study: study @ RandomStudy {
                random: Some(n), ..
            },
            ..
        }) => tools::studies::capture_random(n, study.seed, steps, study.kind()),
        Some(Command::Goal {
            position,
            suite,
            first,
            repeat,
            #[cfg(feature = "dev")]
            brute,
            ..
        }) => {
            #[cfg(feature = "dev")]
            let solver = match brute {
                true => tools::goal::Solver::Brute,
                false => tools::goal::Solver::Static,
            };
            #[cfg(not(feature = "dev"))]
            let solver = tools::goal::Solver::Static;
            match (position, suite) {
                (_, Some(s)) => tools::goal::run_suite(&s, repeat, solver),
                (Some(p), None) => tools::goal::run_one(&p, first),
                (None, None) => anyhow::bail!("give a position or --suite FILE"),
            }
        }
        Some(Command::Capture {
            position,
            attacker,
            steps,
            ..
        }) => match position {
            Some(p) => tools::capture::run_one(&p, attacker, steps),
            None => anyhow::bail!("give a position"),
        },
        Some(Command::Replay { file }) => tools::replay::run(&file),
        Some(Command::Eval {
            position,
            record,
            then,
            params,
        }) => {
            record.check(false)?;
            let GameRecord {
                game,
                id,
                move_label,
            } = record;
            let config = config(&params, &[])?;
            let eval = aamir::eval::Evaluator { w: config.eval };
            let source = match (&position, &game) {
                (_, Some(g)) => tools::evalcmd::Source::Game {
                    path: g,
                    id: id.as_deref(),
                    before: move_label.as_deref(),
                },
                (Some(p), None) => tools::evalcmd::Source::Position(p),
                (None, None) => anyhow::bail!("give a position or --game FILE"),
            };
            tools::evalcmd::run(source, &then, &eval)
        }
        Some(Command::Gen {
            seed,
            games,
            depth,
            max_turns,
            random_turns,
            random_top,
            hash,
            threads,
            out,
        }) => {
            let opts = aamir::tune::datagen::GenOptions {
                seed,
                games,
                depth,
                max_turns,
                random_turns,
                random_top,
                // Checked by the `hash` setting's own parser above.
                hash_mb: hash.trim().parse()?,
            };
            aamir::tune::datagen::run(&opts, threads, &out)
        }
        Some(Command::Tune {
            files,
            skip_turns,
            test_pct,
            k,
            max_passes,
            threads,
            out,
            start,
            freeze,
            bound,
            label_depth,
            label_result_pct,
            label_cache,
        }) => {
            let w = start_weights(&start, k)?;
            let sel = aamir::tune::data::Selection {
                skip_turns,
                test_pct,
                threads,
            };
            // Checked before the data, which takes a while to read.
            let frozen = frozen_weights(&freeze)?;
            let data = aamir::tune::data::load(&files, &sel)?;
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = aamir::tune::fit::TuneOptions {
                fit: aamir::tune::fit::FitOptions {
                    max_passes,
                    threads,
                    bound,
                    frozen,
                },
                k,
                out,
                command: format!("aamir {}", args.join(" ")),
                label: (label_depth > 0).then_some(aamir::tune::label::LabelOptions {
                    depth: label_depth,
                    result_pct: label_result_pct,
                    hash_mb: 4,
                    cache: label_cache,
                }),
            };
            let start = aamir::eval::Evaluator { w };
            aamir::tune::fit::run(start, &data, &files, &opts).map(|_| ())
        }
        Some(Command::TuneOrder {
            files,
            negatives,
            test_pct,
            seed,
            iterations,
            rank_positions,
            threads,
            from_static,
            out,
        }) => {
            let start = if from_static {
                let mut w = [0f32; aamir::search::ordering::N_FEATURES];
                w[0] = 1.0;
                w
            } else {
                aamir::search::order_weights::ORDER_WEIGHTS
            };
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = aamir::tune::order::OrderOptions {
                negatives,
                test_pct,
                seed,
                threads,
                iterations,
                rank_positions,
                out,
                command: format!("aamir {}", args.join(" ")),
            };
            aamir::tune::order::run(&files, start, &opts).map(|_| ())
        }
        Some(Command::TuneMoves {
            files,
            hard,
            random,
            rounds,
            cap,
            max_passes,
            skip_turns,
            test_pct,
            seed,
            k,
            rank_positions,
            start,
            freeze,
            bound,
            threads,
            out,
        }) => {
            let w = start_weights(&start, k)?;
            anyhow::ensure!(
                cap.is_finite() && cap >= 0.0,
                "--cap {cap}: give a number of nats, 0 or more"
            );
            let frozen = frozen_weights(&freeze)?;
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = aamir::tune::moves::MoveOptions {
                fit: aamir::tune::fit::FitOptions {
                    max_passes,
                    threads,
                    bound,
                    frozen,
                },
                hard,
                random,
                rounds,
                cap,
                skip_turns,
                test_pct,
                seed,
                k,
                rank_positions,
                out,
                command: format!("aamir {}", args.join(" ")),
            };
            let start = aamir::eval::Evaluator { w };
            aamir::tune::moves::run(start, &files, &opts).map(|_| ())
        }
        Some(Command::Match(args)) => aamir::arena::cli::main(*args),
        Some(Command::Aei) | None => match aei::run_stdio() {
            // Output is flushed: leave without freeing the table first.
            aei::Exit::Quit | aei::Exit::EndOfInput => aei::exit::exit_now(0),
            // Already reported on stdout (`log Error: ...`) and stderr.
            aei::Exit::Unrecognised(_) => std::process::exit(1),
        },
    }
}

/// The weights a fit starts from (`--start name=value,...` over the
/// defaults), after checking `--k` when one is given: shared by `tune` and
/// `tune-moves`.
fn start_weights(start: &str, k: Option<f64>) -> Result<aamir::eval::Weights> {
    let mut w = aamir::eval::Weights::default();
    aamir::settings::apply(start, |n, v| {
        aamir::settings::Table::set_named(&mut w, n, v)
    })
    .with_context(|| format!("--start {start}"))?;
    if let Some(k) = k {
        anyhow::ensure!(k.is_finite() && k > 0.0, "--k {k}: give a number above 0");
    }
    Ok(w)
}

/// The flat indices of the weights `spec` names (`a,b,prefix*`).
fn frozen_weights(spec: &str) -> Result<Vec<usize>> {
    use aamir::settings::Table;
    let names: Vec<String> = (0..aamir::eval::Weights::len())
        .filter_map(aamir::eval::Weights::name)
        .collect();
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let hits: Vec<usize> = match part.strip_suffix('*') {
            Some(prefix) => (0..names.len())
                .filter(|&i| names[i].starts_with(prefix))
                .collect(),
            None => (0..names.len()).filter(|&i| names[i] == part).collect(),
        };
        anyhow::ensure!(
            !hits.is_empty(),
            "--freeze: no weight `{part}` (`aamir params` lists them, as `eval.NAME`)"
        );
        out.extend(hits);
    }
    Ok(out)
}
