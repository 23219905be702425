//! A whole game next to the search's choices: each move played, the
//! turn the search prefers there, both scores and how much the move lost.
//! `aamir analyze --game --all` prints it as a table and `aamir serve`
//! draws it as a score graph, so both front ends read it from here.

use crate::board::record::{ReplayError, Replayer};
use crate::board::{Game, Outcome, Phase, Position};
use crate::search::tt::WIN_BOUND;
use crate::search::{Limits, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};

/// Scores are capped at this for the drops (30 rabbits, more than any
/// material): a missed win counts as a large drop, not 30,000.
pub const SCORE_CAP: i32 = 3000;
/// A drop of at least a rabbit is marked `?`, of three rabbits `??`; the
/// blunder list holds the largest drops of at least a rabbit.
pub const MISTAKE: i32 = 100;
pub const BLUNDER: i32 = 300;
/// Longest blunder list.
pub const BLUNDER_LIST: usize = 5;

/// One searched position: its score for the side to move, and its best
/// move in notation.
struct Verdict {
    score: i32,
    best: String,
    /// The position after the best move, to tell whether the move played
    /// was the same turn written differently.
    after: Position,
}

fn search_one(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Verdict> {
    let r: SearchResult = searcher.search(game, limits, stop, &mut |_| {})?;
    let mut next = game.clone();
    let played = next.play_turn(&r.best).ok()?;
    Some(Verdict {
        score: r.score,
        best: played.notation,
        after: next.position().clone(),
    })
}

/// One move of a game next to aamir's choice: a line of `--all`, and a
/// point of `aamir serve`'s score graph.
#[derive(Clone, Debug)]
pub struct MoveLine {
    pub label: String,
    pub played: String,
    /// aamir's choice, `None` when it is the move played.
    pub best: Option<String>,
    /// Score before the move (aamir's best) and after the move played,
    /// both for the player of the move.
    pub best_score: i32,
    pub after_score: i32,
    /// How much the move played lost against aamir's choice (0 or more,
    /// scores capped at 30 rabbits).
    pub drop: i32,
}

impl MoveLine {
    /// `??` for a blunder, `?` for a mistake, else empty.
    pub fn mark(&self) -> &'static str {
        match self.drop {
            d if d >= BLUNDER => "??",
            d if d >= MISTAKE => "?",
            _ => "",
        }
    }
}

/// What going through a whole game found.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// One line per turn (setups have none).
    pub lines: Vec<MoveLine>,
    /// The rules' ending, if the game ended by rule.
    pub outcome: Option<Outcome>,
}

impl GameAnalysis {
    /// The largest drops of at least a rabbit, largest first.
    pub fn blunders(&self) -> Vec<&MoveLine> {
        let mut worst: Vec<&MoveLine> = self.lines.iter().filter(|l| l.drop >= MISTAKE).collect();
        worst.sort_by_key(|l| std::cmp::Reverse(l.drop));
        worst.truncate(BLUNDER_LIST);
        worst
    }
}

/// Goes through every move of `moves` (a record's `(label, move)`
/// pairs), searching each position of play within `limits`, and calls
/// `on_move` after each move with its 0-based index and its line (none
/// for a setup): `--all` prints from it, `aamir serve` shows progress.
/// Raising `stop`, or `on_move` answering false, ends the walk early with
/// the lines so far; a move the rules refuse ends it with that error.
pub fn analyse_moves(
    moves: &[(String, String)],
    searcher: &mut Searcher,
    limits: &Limits,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(usize, Option<&MoveLine>) -> bool,
) -> Result<GameAnalysis, ReplayError> {
    let mut walk = Replayer::new(moves.iter().map(|(l, m)| (l.as_str(), m.as_str())));
    // The verdict on the position before the next move, searched when the
    // last move's "after" score was needed.
    let mut pending: Option<Verdict> = None;
    let mut lines = Vec::new();
    for i in 0.. {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let verdict = match (pending.take(), walk.game().phase()) {
            (_, Phase::Setup(_)) => None,
            (Some(v), _) => Some(v),
            (None, _) => search_one(searcher, walk.game(), limits, stop),
        };
        let Some(m) = walk.next() else {
            break;
        };
        let m = m?;
        let (mover, played, game) = (m.side(), m.played, walk.game());
        let Some(verdict) = verdict else {
            if !on_move(i, None) {
                break;
            }
            continue;
        };
        // The position after the move played, for its player: the game's
        // verdict if it ended, else minus the opponent's score there.
        let after_score = match game.outcome() {
            Some(o) if o.winner == mover => WIN_BOUND,
            Some(_) => -WIN_BOUND,
            None if game.phase() == Phase::Play => {
                let next = search_one(searcher, game, limits, stop);
                // No move there: the opponent has none, which loses.
                let s = next.as_ref().map_or(WIN_BOUND, |v| -v.score);
                if i + 1 < moves.len() {
                    pending = next;
                }
                s
            }
            None => 0,
        };
        let same = verdict.after == *game.position();
        let capped = |s: i32| s.clamp(-SCORE_CAP, SCORE_CAP);
        let drop = if same {
            0
        } else {
            (capped(verdict.score) - capped(after_score)).max(0)
        };
        let line = MoveLine {
            label: played.label,
            played: played.notation,
            best: (!same).then_some(verdict.best),
            best_score: verdict.score,
            after_score,
            drop,
        };
        let go_on = on_move(i, Some(&line));
        lines.push(line);
        if !go_on {
            break;
        }
    }
    Ok(GameAnalysis {
        lines,
        outcome: walk.game().outcome(),
    })
}
