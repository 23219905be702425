//! The clock options of AEI, translated into the time manager's inputs
//! ([`crate::timeman`] does all the arithmetic).

use super::options::AeiOption;
use crate::timeman::Clock;

/// Takes a clock option; returns false for options that are not the
/// clock's.
pub fn apply_clock_option(clock: &mut Clock, opt: &AeiOption) -> bool {
    match *opt {
        AeiOption::TcMove(d) => clock.tc.per_move = d,
        AeiOption::TcReserve(d) => clock.tc.reserve = d,
        AeiOption::TcPercent(p) => clock.tc.percent = p,
        AeiOption::TcMax(d) => clock.tc.max_reserve = d,
        AeiOption::TcTotal(d) => clock.tc.total = d,
        AeiOption::TcTurns(n) => clock.tc.turns = n,
        AeiOption::TcTurnTime(d) => clock.tc.turn_time = d,
        AeiOption::Reserve(c, d) => clock.set_reserve(c, d),
        AeiOption::Used(c, d) => clock.set_used(c, d),
        AeiOption::LastMoveUsed(d) => clock.set_last_move_used(d),
        AeiOption::MoveUsed(d) => clock.set_move_used(d),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use std::time::{Duration, Instant};

    fn s(x: f64) -> Duration {
        Duration::from_secs_f64(x)
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
            assert!(apply_clock_option(&mut c, &o));
        }
        assert!(!apply_clock_option(
            &mut c,
            &AeiOption::Setting("hash".into(), "4".into())
        ));
        assert!(c.timed(Color::Gold));
        assert_eq!(c.reserve(Color::Silver), s(90.0));
        apply_clock_option(&mut c, &AeiOption::Reserve(Color::Gold, s(30.0)));
        apply_clock_option(&mut c, &AeiOption::MoveUsed(s(2.0)));
        let go_at = t0 + s(5.0);
        let plan = c.start_turn(Color::Gold, 10, go_at);
        assert_eq!(plan.reserve, s(30.0));
        assert_eq!(plan.spent(go_at + s(1.0)), s(3.0));
        assert_eq!(plan.budget.deadline, Some(s(45.0)));
        // moveused applies to one turn only.
        let plan = c.start_turn(Color::Gold, 11, go_at);
        assert_eq!(plan.spent(go_at + s(1.0)), s(1.0));
    }
}
