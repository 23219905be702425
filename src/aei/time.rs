//! Time management: how long to think on a turn, from every clock option a
//! controller may send, counted exactly as the controllers enforce it.
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

use super::options::AeiOption;
use crate::board::Color;
use crate::timecontrol::TimeControl;
use std::time::{Duration, Instant};

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
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            margin_base: Duration::from_millis(150),
            margin_share: 0.03,
            margin_cap: Duration::from_secs(2),
            move_share: 0.9,
            horizon: 20,
            reserve_hard_share: 1.0 / 3.0,
            stop_grace: Duration::from_millis(20),
        }
    }
}

/// What the time manager knows at the start of a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnInputs {
    pub tc: TimeControl,
    /// True when a per-move time or a reserve applies: then `tcmove` +
    /// reserve is a limit even when both are zero (reserve used up).
    pub timed: bool,
    /// Our reserve now.
    pub reserve: Duration,
    /// Game time gone when the turn began (for `tctotal`).
    pub game_elapsed: Duration,
    /// Our turns left before `tcturns` ends the game, if it is set.
    pub turns_left: Option<u32>,
}

/// A turn's time plan, every field counted from the start of the turn.
/// `None` everywhere means untimed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// Past this the controller scores a loss.
    pub deadline: Option<Duration>,
    /// Don't start a new iteration after this.
    pub soft: Option<Duration>,
    /// Never search past this.
    pub hard: Option<Duration>,
}

/// The safety margin kept back from a deadline.
pub fn margin(deadline: Duration, p: &TimeParams) -> Duration {
    p.margin_base
        .saturating_add(deadline.mul_f64(p.margin_share))
        .min(p.margin_cap)
}

/// Plans a turn (pure: all inputs given).
pub fn budget(inp: &TurnInputs, p: &TimeParams) -> Budget {
    let tc = &inp.tc;
    let deadline = if inp.timed && tc.per_move.saturating_add(inp.reserve).is_zero() {
        // Timed, with nothing left: the turn is already due.
        Some(Duration::ZERO)
    } else {
        tc.turn_deadline(inp.reserve, inp.game_elapsed)
    };
    let Some(deadline) = deadline else {
        return Budget::default();
    };
    let m = margin(deadline, p);
    // Tiny deadlines: keep at least half for thinking rather than nothing.
    let usable = deadline.saturating_sub(m).max(deadline / 2);

    let horizon = inp
        .turns_left
        .map_or(p.horizon, |n| n.clamp(1, p.horizon.max(1)))
        .max(1);
    let mut target;
    let extra;
    if inp.timed {
        let per_move = tc.per_move;
        target = per_move
            .mul_f64(p.move_share)
            .saturating_add(inp.reserve / horizon);
        // Unused move time that would be lost is better spent.
        let must_spend = if tc.percent == 0 {
            per_move
        } else if !tc.max_reserve.is_zero() {
            let room = tc.max_reserve.saturating_sub(inp.reserve);
            per_move.saturating_sub(room.mul_f64(100.0 / tc.percent as f64))
        } else {
            Duration::ZERO
        };
        target = target.max(must_spend);
        extra = per_move.saturating_add(inp.reserve.mul_f64(p.reserve_hard_share));
    } else {
        // Only a turn-time cap or a game total: no reserve to save up.
        target = usable.mul_f64(p.move_share);
        extra = usable;
    }
    if !tc.total.is_zero() {
        // Both sides' turns come out of the game total.
        let left = tc.total.saturating_sub(inp.game_elapsed);
        target = target.min(left / horizon.saturating_mul(2));
    }
    let soft = target.min(usable);
    let hard = extra.max(soft).min(usable);
    Budget {
        deadline: Some(deadline),
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// A turn's limits counted from the moment the search starts, `spent`
/// into the turn.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Schedule {
    /// For the search: don't start a new iteration after this.
    pub soft: Option<Duration>,
    /// For the search: never pass this.
    pub hard: Option<Duration>,
    /// The session raises the stop flag itself here, in case the search
    /// overruns its hard limit.
    pub stop_at: Option<Duration>,
    /// If the search has not answered by now, the session answers for it
    /// with the best move known: halfway from the hard limit to the
    /// deadline.
    pub answer_by: Option<Duration>,
}

/// Schedules a planned turn from now. Past the hard limit already (a
/// controller that reports much `moveused`), the search gets half of what
/// is left before the deadline.
pub fn schedule(b: &Budget, spent: Duration, p: &TimeParams) -> Schedule {
    let (Some(deadline), Some(hard), Some(soft)) = (b.deadline, b.hard, b.soft) else {
        return Schedule::default();
    };
    let left = deadline.saturating_sub(spent);
    let mut hard_now = hard.saturating_sub(spent);
    if hard_now.is_zero() {
        hard_now = left / 2;
    }
    let soft_now = soft.saturating_sub(spent).min(hard_now);
    let answer_by = hard_now.saturating_add(left.saturating_sub(hard_now) / 2);
    let stop_at = hard_now.saturating_add(p.stop_grace).min(answer_by);
    Schedule {
        soft: Some(soft_now),
        hard: Some(hard_now),
        stop_at: Some(stop_at),
        answer_by: Some(answer_by),
    }
}

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

    /// Takes a clock option; returns false for options that are not the
    /// clock's.
    pub fn apply(&mut self, opt: &AeiOption) -> bool {
        match *opt {
            AeiOption::TcMove(d) => self.tc.per_move = d,
            AeiOption::TcReserve(d) => self.tc.reserve = d,
            AeiOption::TcPercent(p) => self.tc.percent = p,
            AeiOption::TcMax(d) => self.tc.max_reserve = d,
            AeiOption::TcTotal(d) => self.tc.total = d,
            AeiOption::TcTurns(n) => self.tc.turns = n,
            AeiOption::TcTurnTime(d) => self.tc.turn_time = d,
            AeiOption::Reserve(c, d) => self.reserve[c.index()] = Some(d),
            AeiOption::Used(c, d) => self.fresh_used[c.index()] = Some(d),
            AeiOption::LastMoveUsed(d) => self.last_move_used = Some(d),
            AeiOption::MoveUsed(d) => self.move_used = d,
            _ => return false,
        }
        true
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

    /// Equal to within a microsecond (the budget multiplies by shares).
    fn approx(a: Option<Duration>, b: f64) {
        let a = a.expect("a limit").as_secs_f64();
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    fn inputs(tc: &str, reserve: f64) -> TurnInputs {
        let tc = TimeControl::parse(tc).unwrap();
        TurnInputs {
            tc,
            timed: true,
            reserve: s(reserve),
            game_elapsed: Duration::ZERO,
            turns_left: None,
        }
    }

    fn check_invariants(b: &Budget) {
        let p = TimeParams::default();
        let (Some(d), Some(soft), Some(hard)) = (b.deadline, b.soft, b.hard) else {
            panic!("untimed: {b:?}");
        };
        assert!(soft <= hard && hard <= d, "{b:?}");
        if d > s(1.0) {
            assert!(hard + p.margin_base <= d, "{b:?}");
        }
        for spent in [0.0, 0.1, 1.0, 5.0, 50.0, 500.0] {
            let spent = s(spent);
            let sc = schedule(b, spent, &p);
            let (soft, hard) = (sc.soft.unwrap(), sc.hard.unwrap());
            let (stop, by) = (sc.stop_at.unwrap(), sc.answer_by.unwrap());
            assert!(soft <= hard && hard <= stop && stop <= by, "{sc:?}");
            assert!(spent + by <= d || by.is_zero(), "{sc:?}");
        }
    }

    #[test]
    fn untimed_is_unlimited() {
        let mut i = inputs("0/0", 0.0);
        i.timed = false;
        let b = budget(&i, &TimeParams::default());
        assert_eq!(b, Budget::default());
        assert_eq!(
            schedule(&b, s(3.0), &TimeParams::default()),
            Schedule::default()
        );
    }

    #[test]
    fn normal_turn_uses_most_of_the_move_and_a_share_of_the_reserve() {
        let p = TimeParams::default();
        let b = budget(&inputs("15s/2m/100", 120.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(135.0)));
        // 0.9 * 15 + 120 / 20
        approx(b.soft, 19.5);
        // 15 + 120 / 3
        approx(b.hard, 55.0);
        // Never within the margin of the deadline.
        assert!(b.hard.unwrap() <= s(135.0) - margin(s(135.0), &p));
    }

    #[test]
    fn fast_control_keeps_a_margin() {
        let p = TimeParams::default();
        let b = budget(&inputs("1s/5s/100", 5.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(6.0)));
        approx(b.soft, 0.9 + 0.25);
        assert!(b.hard.unwrap() <= s(6.0) - p.margin_base);
    }

    #[test]
    fn zero_reserve() {
        let p = TimeParams::default();
        let b = budget(&inputs("8s/0/0", 0.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(8.0)));
        let usable = s(8.0) - margin(s(8.0), &p);
        // percent 0: unused move time is lost, so all of it is the target.
        assert_eq!(b.soft, Some(usable));
        assert_eq!(b.hard, Some(usable));
    }

    #[test]
    fn zero_per_move_time_lives_on_the_reserve() {
        let p = TimeParams::default();
        let b = budget(&inputs("0/60s", 60.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(60.0)));
        approx(b.soft, 3.0);
        approx(b.hard, 20.0);
        // Reserve used up: due at once, yet the search gets a moment.
        let b = budget(&inputs("0/60s", 0.0), &p);
        assert_eq!(b.deadline, Some(Duration::ZERO));
        assert_eq!(b.hard, Some(Duration::ZERO));
        let sc = schedule(&b, Duration::ZERO, &p);
        assert_eq!(sc.hard, Some(Duration::ZERO));
        assert_eq!(sc.answer_by, Some(Duration::ZERO));
    }

    #[test]
    fn tiny_deadline_keeps_half() {
        let p = TimeParams::default();
        let b = budget(&inputs("0.2s/0", 0.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(0.2)));
        approx(b.hard, 0.1);
    }

    #[test]
    fn turn_time_and_game_total_cap_the_deadline() {
        let p = TimeParams::default();
        let b = budget(&inputs("15s/2m/100/0/0/30s", 120.0), &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(30.0)));
        assert!(b.hard.unwrap() <= s(30.0) - margin(s(30.0), &p));

        let mut i = inputs("15s/2m/100/0/10m", 120.0);
        i.game_elapsed = s(590.0);
        let b = budget(&i, &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(10.0)));
        // Ten seconds left for both sides' remaining turns: little each.
        approx(b.soft, 10.0 / 40.0);
        assert!(b.hard.unwrap() <= s(10.0) - p.margin_base);
    }

    #[test]
    fn turn_time_only_is_timed_by_the_cap() {
        let p = TimeParams::default();
        let mut i = inputs("0/0/100/0/0/20s", 0.0);
        i.timed = false;
        let b = budget(&i, &p);
        check_invariants(&b);
        assert_eq!(b.deadline, Some(s(20.0)));
        let usable = s(20.0) - margin(s(20.0), &p);
        assert_eq!(b.hard, Some(usable));
        approx(b.soft, usable.as_secs_f64() * 0.9);
    }

    #[test]
    fn full_reserve_spends_what_would_be_wasted() {
        let p = TimeParams::default();
        // The reserve is at its 10 s cap: unused move time is lost, so the
        // whole minute is the target rather than 0.9 of it.
        let b = budget(&inputs("60s/10s/100/10s", 10.0), &p);
        check_invariants(&b);
        approx(b.soft, 60.0);
        // Room for 2 s more at 50%: only 4 s of the move may go unused.
        let b = budget(&inputs("60s/10s/50/12s", 10.0), &p);
        approx(b.soft, 56.0);
        // Plenty of room: the normal target.
        let b = budget(&inputs("60s/10s/50/60s", 10.0), &p);
        approx(b.soft, 0.9 * 60.0 + 10.0 / 20.0);
    }

    #[test]
    fn few_turns_left_spend_the_reserve() {
        let p = TimeParams::default();
        let mut i = inputs("10s/60s", 60.0);
        i.turns_left = Some(2);
        let b = budget(&i, &p);
        check_invariants(&b);
        // 0.9 * 10 + 60 / 2: the hard limit rises to meet it.
        approx(b.soft, 39.0);
        approx(b.hard, 39.0);
    }

    #[test]
    fn schedule_subtracts_time_spent() {
        let p = TimeParams::default();
        let b = Budget {
            deadline: Some(s(10.0)),
            soft: Some(s(4.0)),
            hard: Some(s(8.0)),
        };
        let sc = schedule(&b, s(1.0), &p);
        assert_eq!((sc.soft, sc.hard), (Some(s(3.0)), Some(s(7.0))));
        // Halfway from the hard limit (7 s) to the deadline (9 s).
        assert_eq!(sc.answer_by, Some(s(8.0)));
        approx(sc.stop_at, 7.02);
        let sc = schedule(&b, s(5.0), &p);
        assert_eq!((sc.soft, sc.hard), (Some(s(0.0)), Some(s(3.0))));
        // Past the hard limit: half of what is left to the deadline.
        let sc = schedule(&b, s(9.0), &p);
        assert_eq!((sc.soft, sc.hard), (Some(s(0.0)), Some(s(0.5))));
        assert_eq!(sc.answer_by, Some(s(0.75)));
        let sc = schedule(&b, s(30.0), &p);
        assert_eq!(sc.hard, Some(Duration::ZERO));
        assert_eq!(sc.answer_by, Some(Duration::ZERO));
    }

    #[test]
    fn clock_takes_options_and_counts_moveused() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        for o in [
            AeiOption::TcMove(s(15.0)),
            AeiOption::TcReserve(s(90.0)),
            AeiOption::TcMax(s(120.0)),
        ] {
            assert!(c.apply(&o));
        }
        assert!(!c.apply(&AeiOption::Setting("hash".into(), "4".into())));
        assert!(c.timed(Color::Gold));
        assert_eq!(c.reserve(Color::Silver), s(90.0));
        c.apply(&AeiOption::Reserve(Color::Gold, s(30.0)));
        c.apply(&AeiOption::MoveUsed(s(2.0)));
        let go_at = t0 + s(5.0);
        let plan = c.start_turn(Color::Gold, 10, go_at);
        assert_eq!(plan.reserve, s(30.0));
        assert_eq!(plan.spent(go_at + s(1.0)), s(3.0));
        assert_eq!(plan.budget.deadline, Some(s(45.0)));
        // moveused applies to one turn only.
        let plan = c.start_turn(Color::Gold, 11, go_at);
        assert_eq!(plan.spent(go_at + s(1.0)), s(1.0));
    }

    #[test]
    fn later_moveused_only_adds_time() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        c.apply(&AeiOption::TcMove(s(30.0)));
        c.apply(&AeiOption::MoveUsed(s(2.0)));
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
        c.apply(&AeiOption::TcMove(s(5.0)));
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
        c.apply(&AeiOption::Reserve(Color::Silver, s(20.0)));
        assert!(c.timed(Color::Silver) && !c.timed(Color::Gold));
        let plan = c.start_turn(Color::Silver, 2, t0);
        assert_eq!(plan.budget.deadline, Some(s(20.0)));
    }

    #[test]
    fn clock_tracks_reserve_and_game_total() {
        let t0 = Instant::now();
        let mut c = Clock::new(t0);
        c.apply(&AeiOption::TcMove(s(10.0)));
        c.apply(&AeiOption::TcReserve(s(60.0)));
        c.apply(&AeiOption::TcTotal(s(600.0)));
        c.end_turn(Color::Gold, s(4.0), false);
        assert_eq!(c.reserve(Color::Gold), s(66.0));
        c.end_turn(Color::Gold, s(4.0), true);
        assert_eq!(c.reserve(Color::Gold), s(66.0));
        c.end_turn(Color::Gold, s(30.0), true);
        assert_eq!(c.reserve(Color::Gold), s(46.0));
        // Reported turn times count towards the game total.
        c.apply(&AeiOption::Used(Color::Gold, s(270.0)));
        c.apply(&AeiOption::Used(Color::Silver, s(300.0)));
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
