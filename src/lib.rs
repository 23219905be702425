//! aamir: an Arimaa engine.
//!
//! - [`board`]: the rules, exact to the letter: positions, steps, turns,
//!   game end, notation and records.
//! - [`tools`]: the command-line tools built on them (move counting,
//!   record replay).

pub mod board;
pub mod tools;
