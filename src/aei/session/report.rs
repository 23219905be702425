//! Reporting a search to the controller: its progress as `info` lines
//! (unfinished iterations no more often than [`PROGRESS_INTERVAL`]), and
//! the `log` line that sums a finished search up.

use super::lines::Output;
use crate::aei::protocol::reply;
use crate::board::{Position, Turn, pv_notation};
use crate::search::{Report, SearchResult};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Progress lines for an unfinished iteration are sent at most this often.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// Turns the search's reports into `info` lines, unfinished iterations
/// no more often than [`PROGRESS_INTERVAL`].
pub(super) struct Reporter {
    out: Output,
    /// The searched position, which the PV's notation starts from.
    root: Position,
    best_so_far: Arc<Mutex<Option<Turn>>>,
    last_progress: Option<Instant>,
}

impl Reporter {
    /// Reports on a search of `root` through `out`, keeping the first turn
    /// of each PV in `best_so_far` (the loop's answer should the search
    /// not give one in time).
    pub(super) fn new(out: Output, root: Position, best_so_far: Arc<Mutex<Option<Turn>>>) -> Self {
        Reporter {
            out,
            root,
            best_so_far,
            last_progress: None,
        }
    }

    pub(super) fn report(&mut self, r: &Report) {
        if let Some(first) = r.pv.first()
            && let Ok(mut b) = self.best_so_far.lock()
        {
            *b = Some(first.clone());
        }
        if r.in_progress {
            let now = Instant::now();
            if self
                .last_progress
                .is_some_and(|t| now.saturating_duration_since(t) < PROGRESS_INTERVAL)
            {
                return;
            }
            self.last_progress = Some(now);
        }
        let depth = if r.in_progress {
            format!("{}+", r.depth)
        } else {
            r.depth.to_string()
        };
        self.out.line(reply::info("depth", depth));
        self.out.line(reply::info("score", r.score));
        self.out.line(reply::info("nodes", r.nodes));
        match pv_notation(&self.root, &r.pv) {
            Ok(pv) if !pv.is_empty() => self.out.line(reply::info("pv", pv)),
            Ok(_) => {}
            Err(e) => log::warn!("a PV the rules refuse, not sent: {e}"),
        }
        self.out.line(reply::info("time", r.elapsed.as_secs()));
        if let Some(n) = r.current_move {
            self.out.line(reply::info("currmovenumber", n));
        }
    }
}

/// The `log` text that sums up a search that took `elapsed`.
pub(super) fn summary(res: &SearchResult, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    format!(
        "Searched {} nodes in {:.3} s ({:.0} nodes/s), depth {}, score {}",
        res.nodes,
        secs,
        res.nodes as f64 / secs.max(1e-6),
        res.depth,
        res.score
    )
}
