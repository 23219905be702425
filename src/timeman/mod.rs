//! Time management, in one place below both the protocol and the search:
//!
//! - [`control`]: time controls (the arimaa.com `move/reserve/...` form)
//!   and the clock arithmetic the controllers enforce, shared with the
//!   match runner;
//! - [`budget`](mod@budget): the pure plan of one turn (deadline, soft and hard
//!   limits) and its schedule from the moment the search starts;
//! - [`clock`]: what is known across a game (time control, reserves, time
//!   used), turned into a turn's plan;
//! - [`manager`]: what the search asks at each iteration (start another?
//!   stop now? extend because the best turn changed or its score fell?);
//! - [`settings`](mod@settings): the settings a user may change, and the
//!   one place they become [`TimeParams`].
//!
//! Every constant is in [`TimeParams`]. The AEI layer only translates its
//! options into [`Clock`] inputs; `aamir analyze` asks for a fixed time
//! through [`Schedule::fixed`].
//!
//! A turn's **deadline** (from the moment the turn began on the
//! controller's clock, i.e. `go` minus `moveused`) is `tcmove` plus our
//! reserve, capped by `tcturntime` and by what is left of `tctotal`
//! ([`TimeControl::turn_deadline`]). Past it the game is lost, so:
//!
//! - a **safety margin** (a fixed part for process and pipe lag plus a
//!   share of the deadline, capped) is kept back: what remains is *usable*;
//! - the **soft** target (don't start another iteration after it) is the
//!   normal spend: most of `tcmove` plus an even share of the reserve over
//!   the turns ahead, raised when not spending would waste time (`tcpercent`
//!   below 100 loses unused move time; a reserve at `tcmax` cannot grow) and
//!   lowered when the game total runs short;
//! - the **hard** limit (never pass it) lets an unstable search go on to
//!   `tcmove` plus a third of the reserve, never past the usable time;
//! - the session raises the stop flag itself just after the hard limit, and
//!   answers by itself with the best move known at **answer_by**, halfway
//!   from the hard limit to the deadline, should the search not have
//!   answered by then ([`schedule`]).
//!
//! With no clock options at all a turn is untimed: the search runs until
//! `stop` (or its depth). All arithmetic is on `Duration` with saturating
//! operations.

pub mod budget;
pub mod clock;
pub mod control;
pub mod manager;
pub mod settings;

pub use budget::{Budget, Schedule, TurnInputs, budget, margin, schedule};
pub use clock::{Clock, TurnPlan};
pub use control::{TimeControl, TimeControlError};
pub use manager::TimeManager;
pub use settings::TimeSettings;

use std::time::Duration;

/// The time manager's tuning, in one place.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeParams {
    /// Fixed part of the safety margin: pipe, scheduling and controller
    /// polling lag on a loaded machine.
    pub margin_base: Duration,
    /// Share of the deadline added to the margin (long turns drift more).
    pub margin_share: f64,
    /// Largest margin.
    pub margin_cap: Duration,
    /// Share of `tcmove` a normal turn aims at.
    pub move_share: f64,
    /// Turns the reserve is spread over, unless `tcturns` says fewer remain.
    pub horizon: u32,
    /// Share of the reserve one turn may dig into at most (hard limit).
    pub reserve_hard_share: f64,
    /// How long past its hard limit the search may run before the session
    /// raises the stop flag itself.
    pub stop_grace: Duration,
    /// Share of the soft limit added when the best turn changed in the
    /// last iteration, or while the running one has not confirmed it.
    pub unstable_extend: f64,
    /// Share of the soft limit added when the best score fell.
    pub fall_extend: f64,
    /// A fall of more than this many centi-rabbits earns `fall_extend`.
    pub score_drop: i32,
    /// With a reserve to save (hard past soft), no new iteration starts
    /// past this share of the (extended) soft limit: the next iteration's
    /// first turn alone usually outlasts what is left.
    pub next_iteration_share: f64,
    /// With a single legal turn, stop after an iteration this deep (steps):
    /// there is nothing to choose, only a score to show.
    pub single_move_depth: u32,
}

impl Default for TimeParams {
    /// The constants with every [`TimeSettings`] at its default.
    fn default() -> Self {
        TimeSettings::default().params()
    }
}
