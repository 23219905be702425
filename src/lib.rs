//! aamir: an Arimaa engine.
//!
//! - [`aei`]: the Arimaa Engine Interface session controllers talk to.
//! - [`arena`]: matches between AEI engines (`aamir match`).
//! - [`board`]: the rules, exact to the letter: positions, steps, turns,
//!   game end, notation and records.
//! - [`eval`]: static evaluation in centi-rabbits.
//! - [`search`]: finding the best turn within time and depth limits.
//! - [`settings`]: the declarative tables every engine option, search
//!   parameter and evaluation weight is declared in (lowest layer).
//! - [`timeman`]: time management below both the protocol and the search:
//!   time controls, the turn's budget, the clock across a game, and the
//!   policy the search asks at each iteration.
//! - [`tools`]: the command-line tools built on them (move counting,
//!   record replay).
//! - [`tune`]: fitting the evaluation weights to game results (`aamir gen`,
//!   `aamir tune`).

pub mod aei;
pub mod arena;
pub mod board;
pub mod eval;
pub mod search;
pub mod settings;
pub mod timeman;
pub mod tools;
pub mod tune;
