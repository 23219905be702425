//! Bot-vs-bot matches (`aamir match`): AEI engine processes, a referee that
//! plays each game under the rules core and the AEI controllers' clock,
//! the schedule (gauntlet or round robin, alternating colours, shared
//! openings, shards), statistics (Elo, LOS, SPRT), and the records
//! (arimaa.com archive TSV, roundrobin-style PGN, JSON summary, an HTML
//! report), paired comparisons of candidates, and ratings over several
//! matches on one scale.

pub mod cli;
pub mod html;
pub mod output;
pub mod process;
pub mod protocol;
pub mod rate;
pub mod referee;
pub mod result;
pub mod runner;
pub mod schedule;
pub mod spec;
pub mod stats;
pub mod summary;

pub use result::{MatchGame, Side, Termination};
pub use runner::{RunOptions, run};
pub use summary::{MatchConfig, Summary};
