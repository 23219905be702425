//! The time manager's settings a user may change (AEI `setoption`,
//! `--params`, listed by `aamir params` among the engine options), and the
//! one place they become the [`TimeParams`] every search runs with.
//!
//! Adding a time setting is one edit here: a line in the table and its use
//! in [`TimeSettings::params`]. The rest of [`TimeParams`] are constants,
//! fixed below.

use super::TimeParams;
use crate::settings::table;
use std::time::Duration;

table! {
    /// Time settings (AEI `setoption` names, CLI `--params` names).
    pub struct TimeSettings {
        /// Turns the time reserve is spread over: a turn's normal spend is
        /// most of `tcmove` plus the reserve divided by this.
        time_horizon: u32 = 20, 1..=1000;
        /// An unstable turn may dig into the reserve divided by this at
        /// most (its hard limit past `tcmove`).
        time_hard_div: u32 = 3, 1..=1000;
        /// Percent of `tcmove` a normal turn aims at; below 100 the rest
        /// of the move time goes to the reserve for the turns that need it.
        time_move_pct: u32 = 90, 1..=100;
        /// Percent of the soft limit added when the best turn changed, and
        /// again when the score fell.
        time_extend_pct: u32 = 60, 0..=1000;
    }
}

impl TimeSettings {
    /// The time manager's constants with these settings.
    pub fn params(&self) -> TimeParams {
        TimeParams {
            margin_base: Duration::from_millis(150),
            margin_share: 0.03,
            margin_cap: Duration::from_secs(2),
            move_share: f64::from(self.time_move_pct) / 100.0,
            horizon: self.time_horizon,
            reserve_hard_share: 1.0 / f64::from(self.time_hard_div),
            stop_grace: Duration::from_millis(20),
            unstable_extend: f64::from(self.time_extend_pct) / 100.0,
            fall_extend: f64::from(self.time_extend_pct) / 100.0,
            score_drop: 30,
            next_iteration_share: 0.6,
            single_move_depth: 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_documented_constants() {
        // `TimeParams::default()` is built from the settings' defaults: the
        // values the module docs and the README describe.
        let p = TimeParams::default();
        assert_eq!(p.horizon, 20);
        assert_eq!(p.reserve_hard_share, 1.0 / 3.0);
        assert_eq!(p.move_share, 0.9);
        assert_eq!((p.unstable_extend, p.fall_extend), (0.6, 0.6));
    }
}
