//! One turn's time plan: the pure budget from what is known at the turn's
//! start, and its schedule counted from the moment the search starts.

use super::TimeParams;
use super::control::TimeControl;
use std::time::Duration;

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

impl Schedule {
    /// Think exactly `think` (an analysis): iterations start until then
    /// and the last one is cut there; with no reserve to save there is no
    /// reason to stop early, and nobody else keeps a deadline.
    pub fn fixed(think: Duration) -> Schedule {
        Schedule {
            soft: Some(think),
            hard: Some(think),
            stop_at: None,
            answer_by: None,
        }
    }
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
}
