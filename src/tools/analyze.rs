//! `aamir analyze`: search one position and print the search's progress
//! (depth, score, nodes, speed, PV) and the best move.

use crate::board::Game;
use crate::search::{Limits, Report, Searcher};
use crate::tools::movecount::load_position;
use anyhow::{Context, Result};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Options of one analysis.
pub struct AnalyzeOptions {
    pub time: Option<f64>,
    pub depth: Option<u32>,
    pub hash_mb: usize,
    pub threads: usize,
}

fn print_report(r: &Report) {
    let secs = r.elapsed.as_secs_f64();
    println!(
        "depth {}{} score {} nodes {} time {:.2} nps {:.0} pv {}",
        r.depth,
        if r.in_progress { "+" } else { "" },
        r.score,
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-6),
        r.pv
    );
}

pub fn run(position: &str, opts: &AnalyzeOptions) -> Result<()> {
    let pos = load_position(position)?;
    let game = Game::from_position(pos, 1);
    if let Some(o) = game.outcome() {
        println!("game over: {} wins by {}", o.winner.name(), o.reason.name());
        return Ok(());
    }
    let mut searcher = Searcher::new(opts.hash_mb, opts.threads);
    let limits = Limits {
        soft: opts.time.map(Duration::from_secs_f64),
        hard: opts.time.map(|t| Duration::from_secs_f64(t * 1.5)),
        depth: opts.depth,
        nodes: None,
    };
    let limits = if limits.soft.is_none() && limits.depth.is_none() {
        Limits {
            soft: Some(Duration::from_secs(5)),
            hard: Some(Duration::from_secs(8)),
            ..limits
        }
    } else {
        limits
    };
    let stop = AtomicBool::new(false);
    let result = searcher
        .search(&game, &limits, &stop, &mut print_report)
        .context("no legal move in this position")?;
    println!("bestmove {}", result.best);
    Ok(())
}
