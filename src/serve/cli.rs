//! The command line of `aamir serve`.

use super::{Options, run};
use anyhow::Result;
use std::net::IpAddr;
use std::path::PathBuf;

/// Show aamir on a local web page: play it, review games with its
/// analysis, watch matches live.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8642)]
    port: u16,
    /// Address to listen on. Anything but a loopback address lets other
    /// machines play on this one and read the --games files.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Records to review and matches to watch: archive TSVs (a match's
    /// games.tsv), movelist files, or folders holding them (a match's
    /// --out folder, or a folder of those). Nothing else is readable.
    #[arg(long, value_name = "DIR_OR_FILE", num_args = 1..)]
    games: Vec<PathBuf>,
    /// Transposition table of each game's engine and each analysis, MB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Most games open at once (each tab playing is one).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=64))]
    max_games: u64,
    /// Seconds after which a game whose page stopped asking is closed
    /// and its search stopped.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86400))]
    idle: u64,
}

pub fn main(args: ServeArgs) -> Result<()> {
    run(Options {
        bind: args.bind,
        port: args.port,
        games: args.games,
        hash_mb: args.hash as usize,
        max_games: args.max_games as usize,
        idle: std::time::Duration::from_secs(args.idle),
    })
}
