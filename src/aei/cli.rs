//! The `aamir aei` command (also what `aamir` runs with no arguments): an
//! AEI session on stdin/stdout, then the end of the process.

use super::Exit;
use super::exit::exit_now;

/// `aamir aei` takes no arguments: a controller sets everything through
/// `setoption`.
#[derive(clap::Args, Default)]
pub struct AeiArgs {}

/// Runs a session on stdin/stdout and ends the process.
pub fn main(_: AeiArgs) -> ! {
    match super::run_stdio() {
        // Output is flushed: leave without freeing the table first.
        Exit::Quit | Exit::EndOfInput => exit_now(0),
        // Already reported on stdout (`log Error: ...`) and stderr.
        Exit::Unrecognised(_) => std::process::exit(1),
    }
}
