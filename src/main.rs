//! The `aamir` binary: argument parsing only; the work is in the library.

use aamir::tools;
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
        Some(Command::Replay { file }) => tools::replay::run(&file),
        Some(Command::Match(args)) => aamir::arena::cli::main(*args),
        None => anyhow::bail!("the AEI session is not built yet"),
    }
}
