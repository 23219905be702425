//! The search: given a game, find the best turn within limits, reporting
//! progress as it goes.
//!
//! This is the interface the AEI session and the tools use. The current body
//! is a placeholder (one-turn lookahead on material) that the real
//! iterative-deepening search replaces without changing the interface.

pub mod capture;
pub mod goal;

use crate::board::notation::format_steps;
use crate::board::{Color, Game, Kind, Phase, Position, Step};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long and how deep to search. All fields optional; with none set the
/// search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Time after which no new iteration should start (the normal budget).
    pub soft: Option<Duration>,
    /// Time the search must never pass, whatever it is doing.
    pub hard: Option<Duration>,
    /// Deepest iteration, in steps.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
}

/// Progress, sent after each finished iteration and while one runs.
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth in steps.
    pub depth: u32,
    /// True while iteration `depth` is still running (AEI `depth N+`).
    pub in_progress: bool,
    /// Centi-rabbits, from the side to move's view.
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation in AEI form (later turns side-prefixed).
    pub pv: String,
    /// 1-based index of the root turn being searched, if known.
    pub current_move: Option<u32>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The turn to play, in notation (with capture tokens).
    pub best: String,
    pub steps: Vec<Step>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: String,
}

/// A search engine with its tables; reused across moves of a game.
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            hash_mb,
            threads: threads.max(1),
        }
    }

    /// Resizes the transposition table (AEI `hash`, in MB).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Search threads (AEI `threads`).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learned (AEI `newgame`).
    pub fn new_game(&mut self) {}

    /// Searches the side to move's turn. `None` when the game is over, in
    /// the setup phase, or the side to move has no legal turn.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        if game.phase() != Phase::Play || game.outcome().is_some() {
            return None;
        }
        let start = Instant::now();
        let pos = game.position();
        let turns = game.legal_turns();
        let mut best: Option<(i32, usize)> = None;
        for (i, t) in turns.iter().enumerate() {
            if i % 256 == 0 && stop.load(Ordering::Relaxed) && best.is_some() {
                break;
            }
            if let Some(h) = limits.hard
                && best.is_some()
                && start.elapsed() >= h
            {
                break;
            }
            let after = t.apply(pos);
            let s = material(&after, pos.side());
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
        let (score, i) = best?;
        let steps = turns[i].steps();
        let best = format_steps(pos, &steps).ok()?;
        let r = Report {
            depth: 4,
            in_progress: false,
            score,
            nodes: turns.len() as u64,
            elapsed: start.elapsed(),
            pv: best.clone(),
            current_move: None,
        };
        report(&r);
        Some(SearchResult {
            best: best.clone(),
            steps,
            score,
            depth: 4,
            nodes: turns.len() as u64,
            pv: best,
        })
    }
}

fn material(pos: &Position, me: Color) -> i32 {
    let value = |c: Color| -> i32 {
        Kind::ALL
            .iter()
            .map(|&k| pos.count(c, k) as i32 * [100, 150, 200, 300, 500, 800][k.index()])
            .sum()
    };
    let mut s = value(me) - value(me.opp());
    if pos.has_goal(me) {
        s += 100_000;
    }
    s
}
