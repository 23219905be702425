//! The `aamir` binary: a thin dispatcher. Each front end owns its
//! command line (`aei::cli`, `tools::cli`, `tune::cli`, `arena::cli`,
//! `serve::cli`);
//! this file joins them into one and reports errors. With no arguments (or
//! `aei`) it runs an AEI session on stdin/stdout.

use aamir::out::{self, WriteFailure};
use aamir::{aei, arena, serve, tools, tune};
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
    Aei(aei::cli::AeiArgs),
    #[command(flatten)]
    Tool(tools::cli::ToolCommand),
    #[command(flatten)]
    Tune(tune::cli::TuneCommand),
    /// Play a match between AEI engines (gauntlet or round robin), or
    /// `match merge` the summaries of its shards.
    Match(Box<arena::cli::MatchArgs>),
    /// Show aamir on a local web page: play it, review games with its
    /// analysis, watch matches live.
    Serve(serve::cli::ServeArgs),
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
        Some(Command::Tool(c)) => tools::cli::run(c),
        Some(Command::Tune(c)) => tune::cli::run(c),
        Some(Command::Match(args)) => arena::cli::main(*args),
        Some(Command::Aei(args)) => aei::cli::main(args),
        Some(Command::Serve(args)) => serve::cli::main(args),
        None => aei::cli::main(aei::cli::AeiArgs::default()),
    }
}
