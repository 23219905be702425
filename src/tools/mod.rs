//! Command-line tools around the engine, kept out of `main.rs` so that tests
//! and other front ends can call them; [`cli`] holds their command line.

pub mod analyze;
pub mod bench;
pub mod capture;
pub mod cli;
pub mod evalcmd;
pub mod goal;
pub mod movecount;
pub mod replay;
#[cfg(any(test, feature = "dev"))]
pub mod studies;
pub mod suite;
