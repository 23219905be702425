//! The clock across a game: the time control, each side's reserve, the
//! time reported used, turned into each turn's [`TurnPlan`].

use super::TimeParams;
use super::budget::{Budget, TurnInputs, budget};
use super::control::TimeControl;
use crate::board::Color;
use std::time::{Duration, Instant};

/// The clock options and what the session measured, across a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    /// Latest reserve per side, as sent or tracked; `None` = `tcreserve`.
    reserve: [Option<Duration>; 2],
    /// `gused` / `sused` received since the last `go`.
    fresh_used: [Option<Duration>; 2],
    /// Sum of reported turn times this game.
    reported_total: Duration,
    last_move_used: Option<Duration>,
    /// `moveused` for the coming turn; consumed by `go`.
    move_used: Duration,
    game_started: Instant,
    pub params: TimeParams,
}

/// A planned turn.
#[derive(Clone, Debug)]
pub struct TurnPlan {
    /// When `go` arrived.
    pub go_at: Instant,
    /// Time the turn had already used by then (`moveused`).
    pub used_before: Duration,
    pub budget: Budget,
    pub reserve: Duration,
}

impl TurnPlan {
    /// Time the turn has used at `now`, on the controller's clock.
    pub fn spent(&self, now: Instant) -> Duration {
        self.used_before
            .saturating_add(now.saturating_duration_since(self.go_at))
    }

    /// A later `moveused`, received at `at`: keeps whichever count says
    /// more time is gone, and returns by how much this one added.
    pub fn update_used(&mut self, used: Duration, at: Instant) -> Duration {
        let before = self.spent(at);
        let behind = used.saturating_sub(before);
        self.used_before = self.used_before.saturating_add(behind);
        behind
    }
}

impl Clock {
    pub fn new(now: Instant) -> Clock {
        Clock {
            tc: TimeControl::UNLIMITED,
            reserve: [None; 2],
            fresh_used: [None; 2],
            reported_total: Duration::ZERO,
            last_move_used: None,
            move_used: Duration::ZERO,
            game_started: now,
            params: TimeParams::default(),
        }
    }

    /// `newgame`: time control kept, reserves back to the start.
    pub fn new_game(&mut self, now: Instant) {
        self.reserve = [None; 2];
        self.fresh_used = [None; 2];
        self.reported_total = Duration::ZERO;
        self.last_move_used = None;
        self.move_used = Duration::ZERO;
        self.game_started = now;
    }

    /// `side`'s reserve now, as the controller counts it.
    pub fn set_reserve(&mut self, side: Color, d: Duration) {
        self.reserve[side.index()] = Some(d);
    }

    /// `side`'s last turn took `d`; counted towards the game total at the
    /// next turn's start.
    pub fn set_used(&mut self, side: Color, d: Duration) {
        self.fresh_used[side.index()] = Some(d);
    }

    /// The opponent's last turn took `d` (informative).
    pub fn set_last_move_used(&mut self, d: Duration) {
        self.last_move_used = Some(d);
    }

    /// Time the coming turn has already used when `go` arrives.
    pub fn set_move_used(&mut self, d: Duration) {
        self.move_used = d;
    }

    pub fn reserve(&self, side: Color) -> Duration {
        self.reserve[side.index()].unwrap_or(self.tc.reserve)
    }

    /// A per-move time or a reserve applies to `side`.
    pub fn timed(&self, side: Color) -> bool {
        !self.tc.per_move.is_zero() || !self.tc.reserve.is_zero() || !self.reserve(side).is_zero()
    }

    pub fn last_move_used(&self) -> Option<Duration> {
        self.last_move_used
    }

    /// Game time gone at `at`: the wall clock since `newgame`, or the sum
    /// of turn times the controller reported if that is more (a game taken
    /// up midway).
    pub fn game_elapsed(&self, at: Instant) -> Duration {
        at.saturating_duration_since(self.game_started)
            .max(self.reported_total)
    }

    /// Plans `side`'s turn, `go` having arrived at `go_at`; `move_number`
    /// counts turns as the record does (2 = first move after the setups).
    pub fn start_turn(&mut self, side: Color, move_number: u32, go_at: Instant) -> TurnPlan {
        for u in self.fresh_used.iter_mut() {
            if let Some(d) = u.take() {
                self.reported_total = self.reported_total.saturating_add(d);
            }
        }
        let used = std::mem::take(&mut self.move_used);
        let reserve = self.reserve(side);
        let turns_left = (self.tc.turns > 0)
            .then(|| self.tc.turns.saturating_sub(move_number).saturating_add(1));
        let inputs = TurnInputs {
            tc: self.tc,
            timed: self.timed(side),
            reserve,
            // At `go`, not at the turn's start: counts the turn's own
            // `moveused` twice against `tctotal`, the safe side.
            game_elapsed: self.game_elapsed(go_at),
            turns_left,
        };
        TurnPlan {
            go_at,
            used_before: used,
            budget: budget(&inputs, &self.params),
            reserve,
        }
    }

    /// Our turn took `used` (from its start to `bestmove`): keep our own
    /// count of the reserve, for controllers that never send it. A setup
    /// only ever loses reserve (controllers differ on whether it gains).
    pub fn end_turn(&mut self, side: Color, used: Duration, setup: bool) {
        if !self.timed(side) {
            return;
        }
        let before = self.reserve(side);
        let after = self.tc.reserve_after(before, used);
        self.reserve[side.index()] = Some(if setup { after.min(before) } else { after });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    #[test]
    fn later_moveused_only_adds_time() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        c.tc.per_move = s(30.0);
        c.set_move_used(s(2.0));
        let mut plan = c.start_turn(Color::Gold, 5, t0);
        // 1 s after `go` the controller counts 10 s gone: 7 s more than us.
        assert_eq!(plan.update_used(s(10.0), t0 + s(1.0)), s(7.0));
        assert_eq!(plan.spent(t0 + s(1.0)), s(10.0));
        // One that counts less changes nothing.
        assert_eq!(plan.update_used(s(1.0), t0 + s(2.0)), Duration::ZERO);
        assert_eq!(plan.spent(t0 + s(2.0)), s(11.0));
        // A huge one does not overflow.
        plan.update_used(Duration::MAX, t0 + s(2.0));
        assert_eq!(plan.spent(t0 + s(3.0)), Duration::MAX);
    }

    #[test]
    fn only_tcmove_sent() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        c.tc.per_move = s(5.0);
        let plan = c.start_turn(Color::Silver, 3, t0);
        assert_eq!(plan.budget.deadline, Some(s(5.0)));
        assert!(plan.budget.hard.unwrap() < s(5.0));
    }

    #[test]
    fn clock_without_options_is_untimed() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        assert!(!c.timed(Color::Gold));
        let plan = c.start_turn(Color::Gold, 2, t0);
        assert_eq!(plan.budget, Budget::default());
        // Only a reserve sent: timed by it.
        c.set_reserve(Color::Silver, s(20.0));
        assert!(c.timed(Color::Silver) && !c.timed(Color::Gold));
        let plan = c.start_turn(Color::Silver, 2, t0);
        assert_eq!(plan.budget.deadline, Some(s(20.0)));
    }

    #[test]
    fn clock_tracks_reserve_and_game_total() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        c.tc.per_move = s(10.0);
        c.tc.reserve = s(60.0);
        c.tc.total = s(600.0);
        c.end_turn(Color::Gold, s(4.0), false);
        assert_eq!(c.reserve(Color::Gold), s(66.0));
        c.end_turn(Color::Gold, s(4.0), true);
        assert_eq!(c.reserve(Color::Gold), s(66.0));
        c.end_turn(Color::Gold, s(30.0), true);
        assert_eq!(c.reserve(Color::Gold), s(46.0));
        // Reported turn times count towards the game total.
        c.set_used(Color::Gold, s(270.0));
        c.set_used(Color::Silver, s(300.0));
        let plan = c.start_turn(Color::Gold, 5, t0 + s(1.0));
        assert_eq!(c.game_elapsed(t0), s(570.0));
        // 10 s + 46 s of reserve, but only 30 s of the game are left.
        assert_eq!(plan.budget.deadline, Some(s(30.0)));
        // Counted once, not again at the next turn.
        c.start_turn(Color::Gold, 6, t0 + s(1.0));
        assert_eq!(c.game_elapsed(t0), s(570.0));
        c.new_game(t0);
        assert_eq!(c.reserve(Color::Gold), s(60.0));
        assert_eq!(c.game_elapsed(t0), Duration::ZERO);
    }
}
