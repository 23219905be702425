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
    /// Fewest steps to goal this turn (`goal N` / `goal none`), or check a
    /// suite file, or compare with the brute force on random-play positions.
    Goal {
        /// `g [board]` / `s [board]`, or a file with that or a long diagram.
        position: Option<String>,
        /// A TSV of side, board, expected (steps or `none`) rows to check.
        #[arg(long, conflicts_with_all = ["position", "random"])]
        suite: Option<String>,
        /// Compare with the brute force on this many random-play positions.
        #[arg(long, conflicts_with = "position")]
        random: Option<usize>,
        /// With --random: positions crowded around goal instead of random play.
        #[arg(long, requires = "random")]
        near: bool,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also print the first action of a shortest goal.
        #[arg(long)]
        first: bool,
        /// Use the brute-force search instead (for speed comparisons).
        #[arg(long)]
        brute: bool,
        /// Run the suite this many times (steadier timing).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
    /// Replay an arimaa.com archive and check every move and ending.
    Replay {
        /// The archive TSV file.
        file: String,
    },
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
        Some(Command::Goal {
            position,
            suite,
            random,
            seed,
            near,
            first,
            brute,
            repeat,
        }) => match (position, suite, random) {
            (_, Some(s), _) => tools::goal::run_suite(&s, repeat, brute),
            (_, _, Some(n)) => tools::goal::run_random(n, seed, near),
            (Some(p), None, None) => tools::goal::run_one(&p, first),
            (None, None, None) => anyhow::bail!("give a position, --suite FILE or --random N"),
        },
        Some(Command::Replay { file }) => tools::replay::run(&file),
        None => anyhow::bail!("the AEI session is not built yet"),
    }
}
