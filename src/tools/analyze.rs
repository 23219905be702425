//! `aamir analyze`: search one position and print the search's progress
//! (depth, score, nodes, speed, PV) and the best move.

use crate::board::{Game, Position, pv_notation};
use crate::outln;
use crate::search::{EngineConfig, Limits, Report, Searcher};
use crate::timeman::{Schedule, TimeParams};
use crate::tools::movecount::load_position;
use crate::tools::out::OutputError;
use anyhow::{Context, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Options of one analysis: a thinking time, and the engine's
/// configuration (its `depth` option is the depth limit).
pub struct AnalyzeOptions {
    pub time: Option<f64>,
    pub config: EngineConfig,
}

/// Thinking time when neither a time nor a depth is given.
const DEFAULT_TIME: Duration = Duration::from_secs(5);

fn print_report(root: &Position, r: &Report) -> Result<(), OutputError> {
    let pv = pv_notation(root, &r.pv).unwrap_or_else(|e| format!("(unwritable: {e})"));
    let secs = r.elapsed.as_secs_f64();
    outln!(
        "depth {}{} score {} nodes {} time {:.2} nps {:.0} pv {}",
        r.depth,
        if r.in_progress { "+" } else { "" },
        r.score,
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-6),
        pv
    )
}

pub fn run(position: &str, opts: &AnalyzeOptions) -> Result<()> {
    let pos = load_position(position)?;
    let game = Game::from_position(pos, 1);
    if let Some(o) = game.outcome() {
        outln!("game over: {} wins by {}", o.winner.name(), o.reason.name())?;
        return Ok(());
    }
    let mut searcher = Searcher::new(&opts.config);
    let depth = opts.config.engine.depth_limit();
    // An analysis is asked for a fixed time: it thinks that long (starting
    // iterations until then and cutting the last one), with no reserve to
    // save and no reason to stop early.
    let time = match (opts.time, depth) {
        (Some(t), _) => Some(
            Duration::try_from_secs_f64(t)
                .with_context(|| format!("--time {t}: not a time in seconds"))?,
        ),
        (None, None) => Some(DEFAULT_TIME),
        (None, Some(_)) => None,
    };
    let sched = time.map(Schedule::fixed).unwrap_or_default();
    let limits = Limits {
        soft: sched.soft,
        hard: sched.hard,
        depth,
        nodes: None,
        time_params: TimeParams::default(),
    };
    let stop = AtomicBool::new(false);
    let root = game.position().clone();
    // A report that cannot be written stops the search: its reader is gone.
    let mut failed = None;
    let result = searcher.search(&game, &limits, &stop, &mut |r| {
        if failed.is_none()
            && let Err(e) = print_report(&root, r)
        {
            failed = Some(e);
            stop.store(true, Ordering::Relaxed);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let result = result.context("no legal move in this position")?;
    outln!("bestmove {}", result.best.notation(&root)?)?;
    Ok(())
}
