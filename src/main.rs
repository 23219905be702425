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
        }) => tools::analyze::run(
            &position,
            &tools::analyze::AnalyzeOptions {
                time,
                depth,
                hash_mb: hash,
                threads,
            },
        ),
        Some(Command::Replay { file }) => tools::replay::run(&file),
        Some(Command::Match(args)) => aamir::arena::cli::main(*args),
        Some(Command::Aei) | None => match aei::run_stdio() {
            aei::Exit::Quit | aei::Exit::EndOfInput => Ok(()),
            // Already reported on stdout (`log Error: ...`) and stderr.
            aei::Exit::Unrecognised(_) => std::process::exit(1),
        },
    }
}
