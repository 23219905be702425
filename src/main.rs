//! The `aamir` binary: argument parsing only; the work is in the library.
//! With no arguments (or `aei`) it runs an AEI session on stdin/stdout.

use aamir::{aei, tools};
use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "aamir", version, about = "An Arimaa engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Search a position and print the progress and the best move.
    Analyze {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        position: String,
        /// Seconds to think (default 5 when no depth is given).
        #[arg(long, value_parser = parse_seconds)]
        time: Option<f64>,
        /// Depth in steps (1-120).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
        depth: Option<u32>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Search parameters to change, `name=value,...`.
        #[arg(long, default_value = "")]
        params: String,
    },
    /// Search fixed positions to a fixed depth; prints speed and a
    /// deterministic node total.
    Bench {
        /// Depth in steps (1-120).
        #[arg(long, default_value_t = tools::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=120))]
        depth: u32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Search parameters to change, `name=value,...`.
        #[arg(long, default_value = "")]
        params: String,
        /// Compare minimax, alpha-beta, fail-soft, alpha-beta with a table
        /// and the engine at depths 1..=depth instead.
        #[arg(long)]
        variants: bool,
        /// With --variants: how many of the bench positions (1-13).
        #[arg(long, default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=13))]
        positions: usize,
        /// With --variants: node cap per search (deeper depths are skipped).
        #[arg(long, default_value_t = 20_000_000)]
        node_cap: u64,
    },
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
    /// Play a match between AEI engines (gauntlet or round robin), or
    /// `match merge` the summaries of its shards.
    Match(Box<aamir::arena::cli::MatchArgs>),
}

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

/// The default search parameters with a `--params name=value,...` spec
/// applied.
fn search_params(spec: &str) -> Result<aamir::search::Params> {
    let mut p = aamir::search::Params::default();
    p.apply(spec).map_err(anyhow::Error::msg)?;
    Ok(p)
}

fn main() -> Result<()> {
    env_logger::init();
    let cli = Cli::parse();
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
            time,
            depth,
            hash,
            threads,
            params,
        }) => {
            let p = search_params(&params)?;
            tools::analyze::run(
                &position,
                &tools::analyze::AnalyzeOptions {
                    time,
                    depth,
                    hash_mb: hash,
                    threads,
                    params: p,
                },
            )
        }
        Some(Command::Bench {
            depth,
            variants: true,
            positions,
            node_cap,
            ..
        }) => tools::bench::run_variants(depth, positions, node_cap),
        Some(Command::Bench {
            depth,
            hash,
            params,
            ..
        }) => {
            let p = search_params(&params)?;
            tools::bench::run(depth, hash, &p, true).map(|_| ())
        }
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
        Some(Command::Match(args)) => aamir::arena::cli::main(*args),
        Some(Command::Aei) | None => match aei::run_stdio() {
            aei::Exit::Quit | aei::Exit::EndOfInput => Ok(()),
            // Already reported on stdout (`log Error: ...`) and stderr.
            aei::Exit::Unrecognised(_) => std::process::exit(1),
        },
    }
}
