//! What the search asks the time manager during a search: stop the running
//! iteration now? start another one? It extends the soft limit for an
//! unsettled search (the best turn just changed, or its score fell) and
//! stops early on a single legal turn. The hard limit is never passed: the
//! search's workers check [`TimeManager::hard_deadline`] themselves.

use super::TimeParams;
use std::time::{Duration, Instant};

/// One search's time policy, asked at each iteration.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    params: TimeParams,
    /// With room between the soft and the hard limit (a reserve to save),
    /// the soft limit also governs the iteration in progress: an iteration
    /// takes several times as long as the last one, so one started late or
    /// left to run would spend the reserve on every turn rather than on the
    /// turns that need it.
    soft_governs: bool,
    /// The soft limit's multiplier earned by the last iterations.
    extend: f64,
    prev_best: Option<u64>,
    prev_score: i32,
    iterations: u32,
}

impl TimeManager {
    /// A search started at `start` with these limits (both optional:
    /// without them only the single-turn stop applies).
    pub fn new(
        start: Instant,
        soft: Option<Duration>,
        hard: Option<Duration>,
        params: &TimeParams,
    ) -> TimeManager {
        TimeManager {
            start,
            soft,
            hard,
            params: params.clone(),
            soft_governs: matches!((soft, hard), (Some(s), Some(h)) if h > s),
            extend: 1.0,
            prev_best: None,
            prev_score: 0,
            iterations: 0,
        }
    }

    /// The instant the search must never pass, if any (`None` also when it
    /// is too far ahead to represent).
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.and_then(|h| self.start.checked_add(h))
    }

    /// Within an iteration, after a root turn was searched: stop now?
    /// `previous_best_leads` says the previous iteration's best turn is
    /// still this one's best; otherwise (a new best, or the first turn
    /// failed low) the search is unsettled and earns the extension a
    /// changed best earns.
    pub fn stop_in_iteration(&self, previous_best_leads: bool) -> bool {
        if !self.soft_governs || self.iterations == 0 {
            return false;
        }
        let factor = if previous_best_leads {
            self.extend
        } else {
            self.extend + self.params.unstable_extend
        };
        self.past_soft(factor)
    }

    /// An iteration finished with `best` (any identity of the best turn,
    /// e.g. the hash it leaves) scoring `score`: updates the extension
    /// from how the best turn and its score moved since the last one.
    pub fn iteration_done(&mut self, best: u64, score: i32) {
        if self.iterations > 0 {
            let p = &self.params;
            let changed = self.prev_best != Some(best);
            let fell = score < self.prev_score.saturating_sub(p.score_drop);
            self.extend = 1.0
                + if changed { p.unstable_extend } else { 0.0 }
                + if fell { p.fall_extend } else { 0.0 };
        }
        self.prev_best = Some(best);
        self.prev_score = score;
        self.iterations += 1;
    }

    /// After an iteration `depth` steps deep over `root_turns` turns:
    /// start another one?
    pub fn start_another(&self, depth: u32, root_turns: usize) -> bool {
        if root_turns == 1 && depth >= self.params.single_move_depth {
            return false;
        }
        let share = if self.soft_governs {
            self.params.next_iteration_share
        } else {
            1.0
        };
        !self.past_soft(self.extend * share)
    }

    fn past_soft(&self, factor: f64) -> bool {
        self.soft
            .is_some_and(|s| self.start.elapsed() >= s.mul_f64(factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A manager whose search started `ago` ms before now.
    fn started(ago: u64, soft: Option<u64>, hard: Option<u64>) -> TimeManager {
        let start = Instant::now() - ms(ago);
        TimeManager::new(start, soft.map(ms), hard.map(ms), &TimeParams::default())
    }

    #[test]
    fn untimed_runs_on_except_on_a_single_turn() {
        let mut m = started(10_000, None, None);
        assert_eq!(m.hard_deadline(), None);
        m.iteration_done(1, 0);
        assert!(!m.stop_in_iteration(false));
        assert!(m.start_another(7, 1));
        assert!(!m.start_another(8, 1));
        assert!(m.start_another(40, 2));
    }

    #[test]
    fn fixed_time_uses_all_of_it() {
        // soft == hard (an analysis): nothing stops an iteration early,
        // and a new one starts until the whole time is gone.
        let mut m = started(900, Some(1000), Some(1000));
        m.iteration_done(1, 0);
        assert!(!m.stop_in_iteration(true));
        assert!(m.start_another(6, 20));
        let mut m = started(1000, Some(1000), Some(1000));
        m.iteration_done(1, 0);
        assert!(!m.start_another(6, 20));
    }

    #[test]
    fn with_a_reserve_the_soft_limit_governs_the_iteration() {
        // 700 ms into a 1 s soft limit: past 0.6 of it, so no new
        // iteration; the running one goes on while under the soft limit.
        let mut m = started(700, Some(1000), Some(3000));
        assert!(!m.stop_in_iteration(true), "never before a first iteration");
        m.iteration_done(1, 0);
        assert!(!m.start_another(6, 20));
        assert!(!m.stop_in_iteration(true));
        let mut m = started(1100, Some(1000), Some(3000));
        m.iteration_done(1, 0);
        assert!(m.stop_in_iteration(true));
        // Unsettled: 1.6 times the soft limit.
        assert!(!m.stop_in_iteration(false));
        let mut m = started(1700, Some(1000), Some(3000));
        m.iteration_done(1, 0);
        assert!(m.stop_in_iteration(false));
    }

    #[test]
    fn a_changed_best_or_a_fall_extends() {
        let mut m = started(1100, Some(1000), Some(5000));
        m.iteration_done(1, 50);
        m.iteration_done(1, 40);
        assert!(m.stop_in_iteration(true), "settled: no extension");
        m.iteration_done(2, 40);
        assert!(!m.stop_in_iteration(true), "changed best: 1.6");
        m.iteration_done(2, 0);
        assert!(!m.stop_in_iteration(true), "score fell by 40: 1.6");
        m.iteration_done(3, -100);
        // Both: 2.2 times, and 0.6 of that (1.32 s) to start another.
        assert!(!m.stop_in_iteration(true));
        assert!(m.start_another(9, 20));
    }

    #[test]
    fn hard_deadline_counts_from_the_start() {
        let start = Instant::now();
        let m = TimeManager::new(start, None, Some(ms(250)), &TimeParams::default());
        assert_eq!(m.hard_deadline(), Some(start + ms(250)));
        let m = TimeManager::new(start, None, Some(Duration::MAX), &TimeParams::default());
        assert_eq!(m.hard_deadline(), None);
    }
}
