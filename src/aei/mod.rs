//! The Arimaa Engine Interface: how controllers (AEI's `roundrobin`,
//! `analyze`, `gameroom`, GUIs) talk to aamir over stdin/stdout.
//!
//! - [`protocol`]: each controller line parsed into a typed command (pure).
//! - [`options`]: `setoption` values, standard and engine-specific (pure).
//! - [`time`]: how long to think, from the clock options (pure arithmetic
//!   plus the per-game clock state).
//! - [`session`]: the running engine: a reader thread, the engine loop
//!   that owns the game, a search thread, and one writer for stdout.
//! - [`exit`]: the way out after `quit`, without waiting for a large
//!   table's memory to be freed;
//! - [`cli`]: the `aamir aei` command.

pub mod cli;
pub mod exit;
pub mod options;
pub mod protocol;
pub mod session;
pub mod time;

pub use session::{Exit, run, run_stdio};
