//! Reviewing a record: its positions move by move, a search of the
//! position at one move, and the whole game next to the engine's choices
//! (what `aamir analyze --all` prints), run as a job on its own thread
//! with its progress for the page's bar and score graph.

use super::files::Roots;
use super::http::ApiError;
use super::play::strength_limits;
use crate::board::notation::board_string;
use crate::board::record::{Replayer, record_moves};
use crate::board::{Game, Phase, pv_notation};
use crate::search::review::{GameAnalysis, MoveLine, analyse_moves};
use crate::search::{EngineConfig, Searcher};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Longest search of one position asked by the page.
const POSITION_CAP: Duration = Duration::from_secs(30);

/// A record's moves, read from an allowed file.
pub fn load(
    roots: &Roots,
    path: &str,
    id: Option<&str>,
) -> Result<Vec<(String, String)>, ApiError> {
    let (_, text) = roots.read(path)?;
    let id = id.filter(|i| !i.is_empty());
    record_moves(&text, id).map_err(|e| ApiError::bad(format!("{path}: {e}")))
}

fn board_of(game: &Game) -> String {
    let b = board_string(game.position());
    b[1..b.len() - 1].to_string()
}

/// The record as the page steps through it: the board before the first
/// move and after each, each move's steps for drawing, and where the
/// rules stopped it if they refused a move.
pub fn record_view(moves: &[(String, String)]) -> Value {
    let mut walk = Replayer::new(moves.iter().map(|(l, m)| (l.as_str(), m.as_str())));
    let mut boards = vec![board_of(walk.game())];
    let mut rows = Vec::new();
    let mut refused = None;
    while let Some(m) = walk.next() {
        match m {
            Ok(m) => {
                let steps: Vec<[String; 2]> = m
                    .turn()
                    .map(|t| {
                        t.steps()
                            .into_iter()
                            .map(|s| [s.from.to_string(), s.to.to_string()])
                            .collect()
                    })
                    .unwrap_or_default();
                rows.push(json!({
                    "label": m.played.label,
                    "text": m.played.notation,
                    "steps": steps,
                }));
            }
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
        boards.push(board_of(walk.game()));
    }
    let game = walk.game();
    json!({
        "moves": rows,
        "boards": boards,
        "refused": refused,
        "outcome": game.outcome().map(|o| o.describe()),
    })
}

/// The game before move `ply` (0: before the first; the number of moves:
/// after the last), with its history.
fn game_at(moves: &[(String, String)], ply: usize) -> Result<Game, ApiError> {
    if ply > moves.len() {
        return Err(ApiError::bad(format!(
            "ply {ply}: the record has {} moves",
            moves.len()
        )));
    }
    let mut walk = Replayer::new(moves[..ply].iter().map(|(l, m)| (l.as_str(), m.as_str())));
    for m in walk.by_ref() {
        m.map_err(|e| ApiError::bad(format!("the record's move {}: {}", e.label, e.error)))?;
    }
    Ok(walk.into_game())
}

/// A search of the position before move `ply`: depth, score for the side
/// to move, and the principal variation (as text and as steps).
pub fn analyse_position(
    config: &EngineConfig,
    moves: &[(String, String)],
    ply: usize,
    depth: Option<u32>,
    time: Option<f64>,
) -> Result<Value, ApiError> {
    let time = match (depth, time) {
        (None, None) => Some(1.0),
        (_, t) => t,
    };
    let (mut limits, _) = strength_limits(config, depth, time)?;
    // The answer holds a request thread: never longer than this, whatever
    // depth was asked.
    let cap = Some(limits.hard.map_or(POSITION_CAP, |h| h.min(POSITION_CAP)));
    limits.hard = cap;
    limits.soft = limits.soft.map(|s| s.min(POSITION_CAP));
    let game = game_at(moves, ply)?;
    if let Some(o) = game.outcome() {
        return Ok(json!({ "note": format!("game over: {}", o.describe()) }));
    }
    if let Phase::Setup(c) = game.phase() {
        return Ok(json!({ "note": format!("{} sets up here", c.name()) }));
    }
    let mut searcher = Searcher::new(config);
    let stop = AtomicBool::new(false);
    let root = game.position().clone();
    let r = searcher
        .search(&game, &limits, &stop, &mut |_| {})
        .ok_or_else(|| ApiError::conflict("no legal move in this position"))?;
    let turns: Vec<Vec<[String; 2]>> =
        r.pv.iter()
            .take(2)
            .map(|t| {
                t.steps()
                    .into_iter()
                    .map(|s| [s.from.to_string(), s.to.to_string()])
                    .collect()
            })
            .collect();
    Ok(json!({
        "side": root.side().name(),
        "depth": r.depth,
        "score": r.score,
        "nodes": r.nodes,
        "pv": pv_notation(&root, &r.pv).unwrap_or_default(),
        "pv_turns": turns,
    }))
}

/// One analysis of a whole game.
struct Job {
    total: usize,
    done: usize,
    lines: Vec<MoveLine>,
    result: Option<Result<GameAnalysis, String>>,
    stop: Arc<AtomicBool>,
    last_seen: Instant,
}

/// The analyses running or finished, by id.
pub struct Jobs {
    map: Mutex<HashMap<String, Arc<Mutex<Job>>>>,
    next: AtomicU64,
    /// Most analyses running at once: each takes a core.
    pub max_running: usize,
    pub idle: Duration,
}

fn line_json(l: &MoveLine) -> Value {
    json!({
        "label": l.label,
        "played": l.played,
        "best": l.best,
        "best_score": l.best_score,
        "after_score": l.after_score,
        "drop": l.drop,
        "mark": l.mark(),
    })
}

impl Jobs {
    pub fn new(max_running: usize, idle: Duration) -> Jobs {
        Jobs {
            map: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            max_running,
            idle,
        }
    }

    fn running(map: &HashMap<String, Arc<Mutex<Job>>>) -> usize {
        map.values().filter(|j| lock(j).result.is_none()).count()
    }

    /// Starts analysing `moves` within the strength given.
    pub fn start(
        &self,
        config: &EngineConfig,
        moves: Vec<(String, String)>,
        depth: Option<u32>,
        time: Option<f64>,
    ) -> Result<String, ApiError> {
        let (limits, _) = strength_limits(config, depth, time)?;
        // Refuse a record the rules refuse before a thread is spent on it.
        game_at(&moves, moves.len())?;
        let mut map = lock(&self.map);
        if Self::running(&map) >= self.max_running {
            return Err(ApiError::new(
                503,
                format!(
                    "{} analyses are running, the most at once: wait for one to finish",
                    self.max_running
                ),
            ));
        }
        let id = format!("a{}", self.next.fetch_add(1, Ordering::Relaxed));
        let stop = Arc::new(AtomicBool::new(false));
        let job = Arc::new(Mutex::new(Job {
            total: moves.len(),
            done: 0,
            lines: Vec::new(),
            result: None,
            stop: Arc::clone(&stop),
            last_seen: Instant::now(),
        }));
        let mine = Arc::clone(&job);
        let config = config.clone();
        std::thread::Builder::new()
            .name(format!("analysis {id}"))
            .spawn(move || {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut searcher = Searcher::new(&config);
                    analyse_moves(&moves, &mut searcher, &limits, &stop, &mut |i, line| {
                        let mut j = lock(&mine);
                        j.done = i + 1;
                        if let Some(l) = line {
                            j.lines.push(l.clone());
                        }
                        true
                    })
                }));
                lock(&mine).result = Some(match run {
                    Ok(Ok(a)) => Ok(a),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(_) => Err("the analysis failed (see the server's log)".into()),
                });
            })
            .map_err(|e| ApiError::new(500, format!("could not start the analysis: {e}")))?;
        map.insert(id.clone(), job);
        Ok(id)
    }

    /// A job's progress, and its blunders once finished.
    pub fn view(&self, id: &str) -> Result<Value, ApiError> {
        let job = lock(&self.map)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no analysis `{id}`")))?;
        let mut j = lock(&job);
        j.last_seen = Instant::now();
        let lines: Vec<Value> = j.lines.iter().map(line_json).collect();
        let (finished, error, blunders) = match &j.result {
            None => (false, None, Vec::new()),
            Some(Ok(a)) => (
                true,
                None,
                a.blunders().into_iter().map(line_json).collect(),
            ),
            Some(Err(e)) => (true, Some(e.clone()), Vec::new()),
        };
        Ok(json!({
            "id": id,
            "total": j.total,
            "done": j.done,
            "finished": finished,
            "error": error,
            "lines": lines,
            "blunders": blunders,
        }))
    }

    /// Stops and forgets the analyses no page has asked about lately.
    pub fn reap(&self) {
        let idle = self.idle;
        lock(&self.map).retain(|_, j| {
            let j = lock(j);
            let stale = j.last_seen.elapsed() > idle;
            if stale {
                j.stop.store(true, Ordering::Relaxed);
            }
            !stale
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short_game() -> Vec<(String, String)> {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/aei-examples/short-game.txt"
        ))
        .unwrap();
        record_moves(&text, None).unwrap()
    }

    #[test]
    fn a_record_steps_through_with_a_board_per_move() {
        let moves = short_game();
        let v = record_view(&moves);
        let boards = v["boards"].as_array().unwrap();
        assert_eq!(boards.len(), moves.len() + 1);
        assert_eq!(boards[0].as_str().unwrap().trim(), "");
        assert_eq!(
            boards[2]
                .as_str()
                .unwrap()
                .chars()
                .filter(|c| *c != ' ')
                .count(),
            32
        );
        assert!(v["refused"].is_null());
        // A bad move stops the walk there and says why.
        let mut bad = moves.clone();
        bad[2].1 = "Ra1n".into();
        let v = record_view(&bad);
        assert_eq!(v["boards"].as_array().unwrap().len(), 3);
        assert!(v["refused"].as_str().unwrap().contains("Ra1n"), "{v}");
        assert_eq!(game_at(&moves, moves.len() + 1).unwrap_err().status, 400);
    }

    #[test]
    fn an_analysis_job_reports_every_move() {
        let mut config = EngineConfig::default();
        config.engine.hash = 1;
        let jobs = Jobs::new(1, Duration::from_secs(60));
        let moves = short_game();
        let id = jobs.start(&config, moves.clone(), Some(1), None).unwrap();
        let e = jobs
            .start(&config, moves.clone(), Some(1), None)
            .unwrap_err();
        assert_eq!(e.status, 503, "one at a time here");
        let start = Instant::now();
        let v = loop {
            let v = jobs.view(&id).unwrap();
            if v["finished"] == true {
                break v;
            }
            assert!(start.elapsed() < Duration::from_secs(60));
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(v["done"], moves.len());
        assert_eq!(
            v["lines"].as_array().unwrap().len(),
            moves.len() - 2,
            "setups have none"
        );
        assert!(v["error"].is_null());
        assert_eq!(jobs.view("a99").unwrap_err().status, 404);
        let p = analyse_position(&config, &moves, 2, Some(2), None).unwrap();
        assert_eq!(p["side"], "gold");
        assert!(!p["pv"].as_str().unwrap().is_empty());
        let p = analyse_position(&config, &moves, 0, Some(2), None).unwrap();
        assert!(p["note"].as_str().unwrap().contains("sets up"));
    }
}
