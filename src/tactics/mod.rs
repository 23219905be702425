//! Tactics: exact answers to the short questions the evaluation and the
//! search ask at their leaves, built on the rules of [`crate::board`] alone.
//!
//! - [`goal`]: can the side to move have a rabbit on goal this turn, in how
//!   few steps, with which first action; and the opponent's goal threat.
//! - Captures, from cheapest to exact, all with the attacker's budget of
//!   [`capture::attacker_budget`] (its steps left when it is to move, else a
//!   fresh turn):
//!   - [`threats::two_step_captures`]: exactly the pieces one push or pull
//!     captures (the evaluation's capture terms);
//!   - [`threats::capture_candidates`]: a superset of the pieces capturable
//!     within any budget (the filter in front of the exact detector);
//!   - [`capture::capture_threats`]: exactly which pieces, in how few steps,
//!     with which first action (the search's move ordering and the
//!     evaluation's capture gain).
//!
//! Goal and exact capture detection share one plan search (a private
//! module): obstacles name the preparatory actions that could matter, these
//! are expanded level by level into what they need first, and the few plans
//! that result are played out on the board so the rules judge every side
//! effect.
//!
//! Built only for tests and with the `dev` cargo feature: `oracle` (the
//! brute-force reference answers) and `random` (random positions for the
//! differential studies).

pub mod capture;
pub mod goal;
#[cfg(any(test, feature = "dev"))]
pub mod oracle;
mod plan;
#[cfg(any(test, feature = "dev"))]
pub mod random;
pub mod threats;

/// Builds a position for the unit tests from rows a8..h8 down to a1..h1
/// (`.` empty).
#[cfg(test)]
fn diagram(side: &str, rows: [&str; 8]) -> crate::board::Position {
    let board: String = rows.concat().replace('.', " ");
    crate::board::notation::parse_side_and_board(&format!("{side} [{board}]")).unwrap()
}
