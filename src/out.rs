//! Checked writes to standard output for the front ends (the command-line
//! tools, `aamir match`, `aamir gen` and the tuners); it sits at the bottom
//! beside `lineio` so that no front end imports another to print.
//!
//! `println!` panics when a write fails, and the binary turns every panic
//! into an abort: `aamir replay FILE | head -1` died with status 134 once
//! `head` closed the pipe, and `> /dev/full` did the same. The tools write
//! through [`outln!`](crate::outln) / [`out!`](crate::out!) instead, which
//! return an [`OutputError`] for `?` to carry up to `main`, where
//! [`WriteFailure`] decides what to say: nothing on a closed pipe (as Unix
//! tools end), one line for any other failure (a full disk).

use std::fmt;
use std::io::{self, Write};

/// Writes formatted text and a newline to stdout; evaluates to
/// `Result<(), OutputError>`.
#[macro_export]
macro_rules! outln {
    () => { $crate::out::write_line(format_args!("")) };
    ($($arg:tt)*) => { $crate::out::write_line(format_args!($($arg)*)) };
}

/// Writes formatted text to stdout (no newline); evaluates to
/// `Result<(), OutputError>`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `text` then a newline, as one write to the locked stdout.
pub fn write_line(text: fmt::Arguments) -> Result<(), OutputError> {
    let mut o = io::stdout().lock();
    o.write_fmt(text)?;
    Ok(o.write_all(b"\n")?)
}

/// `text` to the locked stdout.
pub fn write(text: fmt::Arguments) -> Result<(), OutputError> {
    Ok(io::stdout().lock().write_fmt(text)?)
}

/// Flushes stdout, so that a failure shows before the process ends (the
/// standard library's flush at exit ignores errors).
pub fn flush() -> Result<(), OutputError> {
    Ok(io::stdout().lock().flush()?)
}

/// How a failed run should end, judged from its error chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteFailure {
    /// The reader of our output went away: end quietly.
    ClosedPipe,
    /// Writing the output failed otherwise (a full disk): one line.
    Other,
    /// Not an output failure.
    None,
}

/// An error that says the output could not be written, so that `main` can
/// tell it from a user error.
#[derive(Debug, thiserror::Error)]
#[error("writing the output failed: {0}")]
pub struct OutputError(#[from] pub io::Error);

impl WriteFailure {
    /// Looks through `err`'s chain for an [`OutputError`].
    pub fn of(err: &anyhow::Error) -> WriteFailure {
        for cause in err.chain() {
            if let Some(OutputError(e)) = cause.downcast_ref::<OutputError>() {
                return if e.kind() == io::ErrorKind::BrokenPipe {
                    WriteFailure::ClosedPipe
                } else {
                    WriteFailure::Other
                };
            }
        }
        WriteFailure::None
    }
}
