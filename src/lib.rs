//! aamir: an Arimaa engine.
//!
//! # Layers
//!
//! The modules form layers, each built only on the ones below it:
//!
//! ```text
//! aei, arena, serve, tools, tune (+ CLI)   front ends
//!          search                            finding the best turn
//!          eval                              scoring a position
//!          tactics                           goal and capture questions
//!          board                             the rules
//! ```
//!
//! Imports only go downward: `tactics` uses `board` and nothing above it,
//! `eval` uses `tactics` and `board`, `search` uses `eval`, `tactics` and
//! `board`, and the front ends use whatever they need below them, never
//! each other. There are no import cycles between folders. Small helpers
//! sit at the bottom beside `board`: `settings` (the tables the layers
//! above declare their options in), `timeman` (time controls and the time
//! policy, used by the search and the front ends), and for the front ends
//! `lineio`, `out` (checked printing), `linalg` (a linear solver) and
//! `rng` (a reproducible random stream). What two front ends share goes
//! down there, so that they never import each other.
//!
//! # Modules
//!
//! - [`board`]: the rules, exact to the letter: positions, steps, turns,
//!   game end, notation and records.
//! - [`tactics`]: goal detection and capture detection (exact and cheap),
//!   sharing one plan search; the brute-force oracles and random positions
//!   that check them are built only for tests and the `dev` feature.
//! - [`eval`]: static evaluation in centi-rabbits.
//! - [`search`]: finding the best turn within time and depth limits.
//! - [`aei`]: the Arimaa Engine Interface session controllers talk to.
//! - [`arena`]: matches between AEI engines (`aamir match`).
//! - [`serve`]: `aamir serve`, the local web page to play the engine,
//!   review games and watch matches.
//! - [`tools`]: the command-line tools built on them (move counting, record
//!   replay, benchmarks, goal and capture queries; with `dev`, the studies
//!   against the oracles).
//! - [`settings`]: the declarative tables every engine option, search
//!   parameter and evaluation weight is declared in (lowest layer).
//! - [`timeman`]: time management below both the protocol and the search:
//!   time controls, the turn's budget, the clock across a game, and the
//!   policy the search asks at each iteration.
//! - [`tune`]: fitting the evaluation weights to game results (`aamir gen`,
//!   `aamir tune`); a front end beside `tools`.
//! - [`lineio`]: reading lines of bounded length from a peer.
//! - [`mod@out`]: checked writes to standard output ([`outln!`]).
//! - [`rng`]: SplitMix64, a seeded generator fixed by this code alone.
//! - [`linalg`]: a dense linear solver for the fits (match ratings, term
//!   fits).
//!
//! # Features
//!
//! `dev` adds the development studies (brute-force oracles, random
//! positions, `aamir goal --random/--brute`, `aamir capture --random`). A
//! plain `cargo test` turns it on for the tests by itself.

pub mod aei;
pub mod arena;
pub mod board;
pub mod eval;
pub mod linalg;
pub mod lineio;
pub mod out;
pub mod rng;
pub mod search;
pub mod serve;
pub mod settings;
pub mod tactics;
pub mod timeman;
pub mod tools;
pub mod tune;
