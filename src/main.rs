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
        #[arg(long)]
        time: Option<f64>,
        /// Depth in steps.
        #[arg(long)]
        depth: Option<u32>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Search parameters to change, `name=value,...`.
        #[arg(long, default_value = "")]
        params: String,
    },
    /// Search fixed positions to a fixed depth; prints speed and a
    /// deterministic node total.
    Bench {
        /// Depth in steps.
        #[arg(long, default_value_t = tools::bench::DEFAULT_DEPTH)]
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
        /// With --variants: how many of the bench positions.
        #[arg(long, default_value_t = 6)]
        positions: usize,
        /// With --variants: node cap per search (deeper depths are skipped).
        #[arg(long, default_value_t = 20_000_000)]
        node_cap: u64,
    },
    /// Development: an in-process match between two search settings.
    #[command(hide = true)]
    Selfplay {
        /// Search parameters of A, `name=value,...`.
        #[arg(long, default_value = "")]
        a: String,
        /// Search parameters of B.
        #[arg(long, default_value = "")]
        b: String,
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Milliseconds per move (both sides).
        #[arg(long)]
        movetime: Option<u64>,
        /// Fixed depth in steps (both sides).
        #[arg(long)]
        depth: Option<u32>,
        /// Node budget per move (both sides): load-independent.
        #[arg(long)]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Archive whose games' setups are the openings.
        #[arg(long, default_value = "tests/data/games-2026-02.tsv")]
        openings: String,
        #[arg(long, default_value_t = 300)]
        max_turns: u32,
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
            let mut p = aamir::search::Params::default();
            p.apply(&params).map_err(anyhow::Error::msg)?;
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
            let mut p = aamir::search::Params::default();
            p.apply(&params).map_err(anyhow::Error::msg)?;
            tools::bench::run(depth, hash, &p, true).map(|_| ())
        }
        Some(Command::Selfplay {
            a,
            b,
            games,
            movetime,
            depth,
            nodes,
            concurrency,
            openings,
            max_turns,
        }) => {
            let side = |spec: &str| -> Result<tools::selfplay::Side> {
                let mut p = aamir::search::Params::default();
                p.apply(spec).map_err(anyhow::Error::msg)?;
                Ok(tools::selfplay::Side {
                    params: p,
                    movetime: movetime.map(std::time::Duration::from_millis),
                    depth,
                    nodes,
                })
            };
            tools::selfplay::run(
                &side(&a)?,
                &side(&b)?,
                games,
                concurrency,
                &openings,
                max_turns,
            )
        }
        Some(Command::Replay { file }) => tools::replay::run(&file),
        Some(Command::Match(args)) => aamir::arena::cli::main(*args),
        Some(Command::Aei) | None => match aei::run_stdio() {
            aei::Exit::Quit | aei::Exit::EndOfInput => Ok(()),
            // Already reported on stdout (`log Error: ...`) and stderr.
            aei::Exit::Unrecognised(_) => std::process::exit(1),
        },
    }
}
