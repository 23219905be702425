//! Games against the engine, one session per browser tab.
//!
//! The rules are the engine's: a setup goes through [`Game::play`], each
//! step the player drags through a [`StepChecker`] (so a push must be
//! finished, a pull may follow, a frozen piece stays put), and the turn
//! through [`Game::play_turn`] (third repetitions). The page only shows
//! what the session answers: the board, the steps taken and left, the
//! legal next steps.
//!
//! The engine thinks on a thread of its own with the real [`Searcher`],
//! reporting depth, score and principal variation into the session as
//! it goes. Every session carries a stop flag and a generation: taking a
//! turn back or closing the tab raises the flag and bumps the
//! generation, so a search that ends afterwards changes nothing. A tab
//! that stops asking (closed without a word, a crashed browser) is
//! closed by [`Sessions::reap`] after the idle time.

use super::http::ApiError;
use crate::board::legality::StepChecker;
use crate::board::notation::{board_string, format_steps};
use crate::board::{Color, Dir, Game, Move, Phase, Position, Square, Step, Turn, pv_notation};
use crate::search::setup::choose_setup;
use crate::search::{EngineConfig, Limits, MAX_DEPTH, Report, SearchResult, Searcher};
use crate::timeman::Schedule;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Longest thinking time a page may ask for a move.
const MAX_SECONDS: f64 = 600.0;

/// What every session shares: the engine's configuration and the count
/// of searches running (shown by `/api/info`, so a test can see a closed
/// tab's search end).
#[derive(Debug)]
pub struct Shared {
    pub config: EngineConfig,
    pub searching: AtomicUsize,
}

/// A new game as the page asks for it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The player's colour: `gold` or `silver`.
    pub color: String,
    /// The engine's strength: a depth in steps, or seconds a move.
    pub depth: Option<u32>,
    pub time: Option<f64>,
}

/// The engine's search as the page shows it.
#[derive(Clone, Debug, Default)]
struct EngineView {
    thinking: bool,
    depth: u32,
    in_progress: bool,
    score: i32,
    nodes: u64,
    seconds: f64,
    pv: String,
    /// The first turns of the principal variation as `[from, to]` steps.
    pv_turns: Vec<Vec<[String; 2]>>,
    error: Option<String>,
}

struct State {
    human: Color,
    limits: Limits,
    strength: String,
    game: Game,
    /// The player's turn in progress, when it is the player's turn.
    checker: Option<StepChecker>,
    engine: EngineView,
    /// Bumped by a take-back or a close: a search of an older generation
    /// has nothing to say any more.
    generation: u64,
    stop: Arc<AtomicBool>,
    /// The engine's searcher between searches (a search has it on its
    /// thread; a fresh one is made if a new search starts meanwhile).
    searcher: Option<Searcher>,
    /// Bumped on every change, for the page's long poll.
    version: u64,
    last_seen: Instant,
    /// Long polls waiting: a tab waiting is a tab that is open.
    waiting: u32,
    closed: bool,
    setup_default: Option<String>,
    rng: StdRng,
}

/// One game against the engine.
pub struct Session {
    pub id: String,
    shared: Arc<Shared>,
    state: Mutex<State>,
    changed: Condvar,
}

/// The sessions of the server.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<Session>>>,
    next: AtomicU64,
    pub shared: Arc<Shared>,
    /// A session not asked about for this long is closed.
    pub idle: Duration,
    /// Most sessions at once: each holds a transposition table.
    pub max: usize,
}

/// Locks, taking over a lock a panicking thread left: the state is
/// checked before every change, so it is whole even then.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn square(text: &str) -> Result<Square, ApiError> {
    Square::parse(text.trim())
        .ok_or_else(|| ApiError::bad(format!("`{text}` is not a square (a1 to h8)")))
}

fn step_pair(s: Step) -> [String; 2] {
    [s.from.to_string(), s.to.to_string()]
}

/// The limits of the engine's search for a strength: a depth, or a fixed
/// time a move; neither is 3 seconds.
pub fn strength_limits(
    config: &EngineConfig,
    depth: Option<u32>,
    time: Option<f64>,
) -> Result<(Limits, String), ApiError> {
    if let Some(d) = depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(ApiError::bad(format!(
            "depth {d}: a depth is 1 to {MAX_DEPTH} steps"
        )));
    }
    if let Some(t) = time
        && !(t > 0.0 && t <= MAX_SECONDS)
    {
        return Err(ApiError::bad(format!(
            "time {t}: a time is more than 0 and at most {MAX_SECONDS} seconds"
        )));
    }
    let time = match (time, depth) {
        (None, None) => Some(3.0),
        (t, _) => t,
    };
    let sched = time
        .map(|t| Schedule::fixed(Duration::from_secs_f64(t)))
        .unwrap_or_default();
    let text = match (depth, time) {
        (Some(d), Some(t)) => format!("depth {d}, {t} s"),
        (Some(d), None) => format!("depth {d}"),
        (None, Some(t)) => format!("{t} s a move"),
        (None, None) => String::new(),
    };
    Ok((
        Limits {
            soft: sched.soft,
            hard: sched.hard,
            depth,
            nodes: None,
            time_params: config.time.params(),
        },
        text,
    ))
}

/// Every step the side to move may take next after the checker's steps.
fn legal_steps(checker: &StepChecker) -> Vec<[String; 2]> {
    let pos = checker.position();
    let mut out = Vec::new();
    for sq in Square::all() {
        if pos.piece_at(sq).is_none() {
            continue;
        }
        for dir in Dir::ALL {
            let mut c = checker.clone();
            if c.step(sq, dir).is_ok()
                && let Some(to) = sq.step(dir)
            {
                out.push([sq.to_string(), to.to_string()]);
            }
        }
    }
    out
}

/// A new checker for `start` that has taken `steps` (all legal: they were
/// taken before).
fn replay_steps(start: &Position, steps: &[Step]) -> Option<StepChecker> {
    let mut c = StepChecker::new(start);
    for s in steps {
        c.step(s.from, s.from.dir_to(s.to)?).ok()?;
    }
    Some(c)
}

impl Sessions {
    pub fn new(config: EngineConfig, idle: Duration, max: usize) -> Sessions {
        Sessions {
            map: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            shared: Arc::new(Shared {
                config,
                searching: AtomicUsize::new(0),
            }),
            idle,
            max,
        }
    }

    /// Starts a game: the engine sets up at once if it is gold.
    pub fn create(&self, req: &NewGame) -> Result<Arc<Session>, ApiError> {
        let human = match req.color.as_str() {
            "gold" | "g" => Color::Gold,
            "silver" | "s" => Color::Silver,
            c => {
                return Err(ApiError::bad(format!(
                    "color `{c}`: choose `gold` or `silver`"
                )));
            }
        };
        let (limits, strength) = strength_limits(&self.shared.config, req.depth, req.time)?;
        let mut map = lock(&self.map);
        if map.len() >= self.max {
            return Err(ApiError::new(
                503,
                format!(
                    "{} games are open, the most this server keeps: close one first",
                    self.max
                ),
            ));
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        // A counter makes the id unique; the clock makes it unguessable
        // enough that one tab does not stumble into another's game.
        let id = format!("g{n}-{nanos:08x}");
        let session = Arc::new(Session {
            id: id.clone(),
            shared: Arc::clone(&self.shared),
            state: Mutex::new(State {
                human,
                limits,
                strength,
                game: Game::new(),
                checker: None,
                engine: EngineView::default(),
                generation: 0,
                stop: Arc::new(AtomicBool::new(false)),
                searcher: None,
                version: 1,
                last_seen: Instant::now(),
                waiting: 0,
                closed: false,
                setup_default: None,
                rng: StdRng::seed_from_u64(u64::from(nanos) ^ n),
            }),
            changed: Condvar::new(),
        });
        {
            let mut st = lock(&session.state);
            session.advance(&mut st);
        }
        map.insert(id, Arc::clone(&session));
        Ok(session)
    }

    /// The session `id`, marked as seen.
    pub fn get(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let s = lock(&self.map).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!("no game `{id}` (closed, or never started)"))
        })?;
        lock(&s.state).last_seen = Instant::now();
        Ok(s)
    }

    /// Closes `id`: its search stops and it is forgotten.
    pub fn close(&self, id: &str) -> Result<(), ApiError> {
        let s = lock(&self.map).remove(id).ok_or_else(|| {
            ApiError::not_found(format!("no game `{id}` (closed, or never started)"))
        })?;
        s.shut();
        Ok(())
    }

    /// Closes the sessions no tab has asked about for the idle time.
    pub fn reap(&self) {
        let mut map = lock(&self.map);
        let idle = self.idle;
        map.retain(|_, s| {
            let stale = {
                let st = lock(&s.state);
                st.waiting == 0 && st.last_seen.elapsed() > idle
            };
            if stale {
                log::info!("game {} closed: its page stopped asking", s.id);
                s.shut();
            }
            !stale
        });
    }

    pub fn count(&self) -> usize {
        lock(&self.map).len()
    }
}

impl Session {
    fn shut(&self) {
        let mut st = lock(&self.state);
        st.closed = true;
        st.generation += 1;
        st.stop.store(true, Ordering::Relaxed);
        st.version += 1;
        self.changed.notify_all();
    }

    /// The state as the page draws it.
    pub fn view(&self) -> Value {
        let st = lock(&self.state);
        self.view_of(&st)
    }

    /// The state once it differs from version `since`, or after `max`.
    pub fn wait(&self, since: u64, max: Duration) -> Value {
        let start = Instant::now();
        let mut st = lock(&self.state);
        st.waiting += 1;
        while st.version == since && !st.closed {
            let left = max.saturating_sub(start.elapsed());
            if left.is_zero() {
                break;
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        st.waiting -= 1;
        st.last_seen = Instant::now();
        self.view_of(&st)
    }

    fn view_of(&self, st: &State) -> Value {
        let game = &st.game;
        let start = game.position();
        let pos = st.checker.as_ref().map_or(start, |c| c.position());
        let board = board_string(pos);
        let phase = match (game.outcome(), game.phase()) {
            (Some(_), _) => "over",
            (None, Phase::Setup(_)) => "setup",
            (None, Phase::Play) => "play",
        };
        let (steps, legal, can_end, end_error, steps_left) = match &st.checker {
            Some(c) => {
                let text = if c.steps().is_empty() {
                    String::new()
                } else {
                    format_steps(start, c.steps()).unwrap_or_default()
                };
                let end = c.can_finish();
                (
                    text,
                    legal_steps(c),
                    end.is_ok(),
                    end.err().map(|e| e.to_string()),
                    start.steps_left() as usize - c.steps().len(),
                )
            }
            None => (String::new(), Vec::new(), false, None, 0),
        };
        let last_move: Vec<[String; 2]> = game
            .record()
            .last()
            .and_then(|p| p.mv.turn())
            .map(|t| t.steps().into_iter().map(step_pair).collect())
            .unwrap_or_default();
        let record: Vec<Value> = game
            .record()
            .iter()
            .map(|p| json!({ "label": p.label, "text": p.notation }))
            .collect();
        let human = st.human.to_char();
        let can_takeback = game
            .record()
            .iter()
            .any(|p| matches!(p.mv, Move::Turn(_)) && p.label.ends_with(human));
        let e = &st.engine;
        json!({
            "id": self.id,
            "version": st.version,
            "human": st.human.name(),
            "strength": st.strength,
            "phase": phase,
            "to_move": game.side().name(),
            "label": game.label(),
            "your_turn": phase != "over" && game.side() == st.human && !e.thinking,
            "board": &board[1..board.len() - 1],
            "steps": steps,
            "steps_left": steps_left,
            "legal": legal,
            "can_end": can_end,
            "end_error": end_error,
            "last_move": last_move,
            "record": record,
            "can_takeback": can_takeback,
            "outcome": game.outcome().map(|o| o.describe()),
            "setup_default": st.setup_default,
            "engine": {
                "thinking": e.thinking,
                "depth": e.depth,
                "in_progress": e.in_progress,
                "score": e.score,
                "nodes": e.nodes,
                "seconds": e.seconds,
                "pv": e.pv,
                "pv_turns": e.pv_turns,
                "error": e.error,
            },
        })
    }

    /// Marks a change and wakes the long polls.
    fn touch(&self, st: &mut State) {
        st.version += 1;
        self.changed.notify_all();
    }

    /// Moves the game on to the next decision: the engine sets up or
    /// starts thinking if it is its turn; the player gets a fresh turn
    /// (or a default setup to start from) if it is theirs.
    fn advance(self: &Arc<Self>, st: &mut State) {
        loop {
            if st.game.outcome().is_some() || st.closed {
                st.checker = None;
                return;
            }
            let side = st.game.side();
            match st.game.phase() {
                Phase::Setup(c) if c != st.human => {
                    let eval = self.shared.config.evaluator();
                    let net = eval.net.is_some().then_some(&eval);
                    let setup = choose_setup(st.game.position(), c, &mut st.rng, net);
                    if let Err(e) = st.game.play(&setup) {
                        st.engine.error = Some(format!("the engine's setup was refused: {e}"));
                        return;
                    }
                }
                Phase::Setup(c) => {
                    st.setup_default = Some(choose_setup(st.game.position(), c, &mut st.rng, None));
                    return;
                }
                Phase::Play if side == st.human => {
                    st.setup_default = None;
                    st.checker = Some(StepChecker::new(st.game.position()));
                    return;
                }
                Phase::Play => {
                    self.start_search(st);
                    return;
                }
            }
        }
    }

    fn start_search(self: &Arc<Self>, st: &mut State) {
        st.checker = None;
        let shared = &self.shared;
        let mut searcher = st
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(&shared.config));
        let game = st.game.clone();
        let limits = st.limits.clone();
        let generation = st.generation;
        let stop = Arc::new(AtomicBool::new(false));
        st.stop = Arc::clone(&stop);
        st.engine = EngineView {
            thinking: true,
            ..EngineView::default()
        };
        let me = Arc::clone(self);
        shared.searching.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name(format!("search {}", self.id))
            .spawn(move || {
                let root = game.position().clone();
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    searcher.search(&game, &limits, &stop, &mut |r| {
                        me.report(generation, &root, r)
                    })
                }));
                me.shared.searching.fetch_sub(1, Ordering::SeqCst);
                // A searcher that panicked may be half-updated: not reused.
                let searcher = result.is_ok().then_some(searcher);
                me.finish_search(generation, searcher, result.ok());
            });
        if let Err(e) = spawned {
            shared.searching.fetch_sub(1, Ordering::SeqCst);
            st.engine.thinking = false;
            st.engine.error = Some(format!("could not start the search: {e}"));
        }
    }

    /// A search's progress, kept if the search is still the current one.
    fn report(&self, generation: u64, root: &Position, r: &Report) {
        let mut st = lock(&self.state);
        if st.generation != generation {
            return;
        }
        let mut pos = root.clone();
        let mut pv_turns = Vec::new();
        for t in r.pv.iter().take(2) {
            pv_turns.push(t.steps().into_iter().map(step_pair).collect());
            pos = t.apply(&pos);
        }
        st.engine = EngineView {
            thinking: true,
            depth: r.depth,
            in_progress: r.in_progress,
            score: r.score,
            nodes: r.nodes,
            seconds: r.elapsed.as_secs_f64(),
            pv: pv_notation(root, &r.pv).unwrap_or_default(),
            pv_turns,
            error: None,
        };
        self.touch(&mut st);
    }

    /// A search ended: its move is played if it is still wanted.
    fn finish_search(
        self: &Arc<Self>,
        generation: u64,
        searcher: Option<Searcher>,
        result: Option<Option<SearchResult>>,
    ) {
        let mut st = lock(&self.state);
        if st.searcher.is_none() {
            st.searcher = searcher;
        }
        if st.closed || st.generation != generation {
            return;
        }
        st.engine.thinking = false;
        match result {
            Some(Some(r)) => {
                if let Err(e) = st.game.play_turn(&r.best) {
                    st.engine.error = Some(format!("the engine's move was refused: {e}"));
                }
            }
            Some(None) => st.engine.error = Some("the engine found no move to play".into()),
            None => st.engine.error = Some("the search failed (see the server's log)".into()),
        }
        self.advance(&mut st);
        self.touch(&mut st);
    }

    /// The player's setup, in notation (`Ra1 Rb1 ...`).
    pub fn setup(self: &Arc<Self>, text: &str) -> Result<Value, ApiError> {
        let mut st = lock(&self.state);
        if st.game.phase() != Phase::Setup(st.human) {
            return Err(ApiError::conflict("it is not your setup now"));
        }
        st.game
            .play(text)
            .map_err(|e| ApiError::bad(format!("setup refused: {e}")))?;
        self.advance(&mut st);
        self.touch(&mut st);
        Ok(self.view_of(&st))
    }

    fn checker<'a>(&self, st: &'a mut State) -> Result<&'a mut StepChecker, ApiError> {
        if st.game.outcome().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        st.checker
            .as_mut()
            .ok_or_else(|| ApiError::conflict("it is not your turn to move"))
    }

    /// One step of the player's turn, `from` to the adjacent `to`.
    pub fn step(self: &Arc<Self>, from: &str, to: &str) -> Result<Value, ApiError> {
        let (from, to) = (square(from)?, square(to)?);
        let dir = from
            .dir_to(to)
            .ok_or_else(|| ApiError::bad(format!("{from} and {to} are not next to each other")))?;
        let mut st = lock(&self.state);
        let checker = self.checker(&mut st)?;
        checker
            .step(from, dir)
            .map_err(|e| ApiError::bad(format!("illegal step {from}-{to}: {e}")))?;
        self.touch(&mut st);
        Ok(self.view_of(&st))
    }

    /// Takes back the last step of the turn in progress.
    pub fn undo(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut st = lock(&self.state);
        let start = st.game.position().clone();
        let checker = self.checker(&mut st)?;
        let steps = checker.steps().to_vec();
        if steps.is_empty() {
            return Err(ApiError::conflict("no step to undo in this turn"));
        }
        let redone = replay_steps(&start, &steps[..steps.len() - 1])
            .ok_or_else(|| ApiError::new(500, "the steps before could not be replayed"))?;
        *checker = redone;
        self.touch(&mut st);
        Ok(self.view_of(&st))
    }

    /// Ends the player's turn; the engine starts thinking.
    pub fn end_turn(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut st = lock(&self.state);
        let start = st.game.position().clone();
        let checker = self.checker(&mut st)?;
        checker
            .can_finish()
            .map_err(|e| ApiError::bad(format!("the turn cannot end here: {e}")))?;
        let turn = Turn::from_steps(&start, checker.steps())
            .ok_or_else(|| ApiError::bad("these steps do not make a turn"))?;
        st.game
            .play_turn(&turn)
            .map_err(|e| ApiError::bad(format!("the turn is refused: {e}")))?;
        st.checker = None;
        self.advance(&mut st);
        self.touch(&mut st);
        Ok(self.view_of(&st))
    }

    /// Takes back the player's last turn and whatever came after it (the
    /// engine's answer, or its search).
    pub fn takeback(self: &Arc<Self>) -> Result<Value, ApiError> {
        let mut st = lock(&self.state);
        let human = st.human.to_char();
        let record = st.game.record();
        let Some(k) = record
            .iter()
            .rposition(|p| matches!(p.mv, Move::Turn(_)) && p.label.ends_with(human))
        else {
            return Err(ApiError::conflict("you have no turn to take back"));
        };
        let mut game = Game::new();
        for p in &record[..k] {
            game.play(&p.notation)
                .map_err(|e| ApiError::new(500, format!("replaying {}: {e}", p.label)))?;
        }
        st.stop.store(true, Ordering::Relaxed);
        st.generation += 1;
        st.game = game;
        st.engine = EngineView::default();
        self.advance(&mut st);
        self.touch(&mut st);
        Ok(self.view_of(&st))
    }

    /// The game so far as a movelist file, which `aamir analyze --game`
    /// reads.
    pub fn record_text(&self) -> String {
        let st = lock(&self.state);
        let (gold, silver) = match st.human {
            Color::Gold => ("you", "aamir"),
            Color::Silver => ("aamir", "you"),
        };
        let mut text = format!(
            "# aamir serve game {}: gold {gold}, silver {silver}, aamir at {}\n",
            self.id, st.strength
        );
        if let Some(o) = st.game.outcome() {
            text.push_str(&format!("# {}\n", o.describe()));
        }
        for p in st.game.record() {
            text.push_str(&format!("{} {}\n", p.label, p.notation));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sessions() -> Sessions {
        let mut config = EngineConfig::default();
        config.engine.hash = 1;
        Sessions::new(config, Duration::from_secs(60), 4)
    }

    fn wait_for(s: &Session, what: impl Fn(&Value) -> bool) -> Value {
        let mut v = s.view();
        let start = Instant::now();
        while !what(&v) {
            assert!(start.elapsed() < Duration::from_secs(60), "timed out: {v}");
            v = s.wait(v["version"].as_u64().unwrap(), Duration::from_secs(5));
        }
        v
    }

    #[test]
    fn a_game_goes_setup_steps_engine_takeback() {
        let all = sessions();
        let req = NewGame {
            color: "gold".into(),
            depth: Some(2),
            time: None,
        };
        let s = all.create(&req).unwrap();
        let v = s.view();
        assert_eq!(v["phase"], "setup");
        let setup = v["setup_default"].as_str().unwrap().to_string();
        // A refused setup changes nothing.
        let e = s.setup("Ra1").unwrap_err();
        assert_eq!(e.status, 400, "{}", e.message);
        assert_eq!(s.view()["version"], v["version"]);
        s.setup(&setup).unwrap();
        let v = wait_for(&s, |v| v["your_turn"] == true);
        assert_eq!(
            v["board"]
                .as_str()
                .unwrap()
                .chars()
                .filter(|c| *c != ' ')
                .count(),
            32
        );
        // An illegal step (a rabbit backward) is refused and names why.
        let rabbit = v["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0].as_str().unwrap().ends_with('2'))
            .unwrap()
            .clone();
        let from = rabbit[0].as_str().unwrap().to_string();
        let e = s.step(&from, "a9").unwrap_err();
        assert!(e.message.contains("a9"), "{}", e.message);
        let e = s.step("d4", "d5").unwrap_err();
        assert!(e.message.contains("no piece on d4"), "{}", e.message);
        let before = s.view();
        s.step(&from, rabbit[1].as_str().unwrap()).unwrap();
        let v = s.view();
        assert_eq!(v["steps_left"], 3);
        assert_ne!(v["board"], before["board"]);
        s.undo().unwrap();
        assert_eq!(s.view()["board"], before["board"]);
        assert_eq!(s.undo().unwrap_err().status, 409);
        assert_eq!(s.end_turn().unwrap_err().status, 400, "no step yet");
        s.step(&from, rabbit[1].as_str().unwrap()).unwrap();
        s.end_turn().unwrap();
        let v = wait_for(&s, |v| v["your_turn"] == true);
        assert_eq!(v["record"].as_array().unwrap().len(), 4);
        assert!(v["engine"]["depth"].as_u64().unwrap() >= 1, "{v}");
        let text = s.record_text();
        assert!(text.contains("\n2g ") && text.contains("\n2s "), "{text}");
        assert_eq!(s.view()["can_takeback"], true);
        let v = s.takeback().unwrap();
        assert_eq!(v["record"].as_array().unwrap().len(), 2);
        assert_eq!(v["can_takeback"], false);
        assert_eq!(v["your_turn"], true);
        assert_eq!(s.takeback().unwrap_err().status, 409);
        all.close(&s.id).unwrap();
        assert_eq!(all.get(&s.id).err().map(|e| e.status), Some(404));
    }

    #[test]
    fn the_end_of_the_game_is_shown_with_its_reason() {
        let all = sessions();
        let req = NewGame {
            color: "gold".into(),
            depth: Some(1),
            time: None,
        };
        let s = all.create(&req).unwrap();
        {
            // Gold's rabbit one step from goal, gold to move.
            let pos = crate::board::notation::parse_board_string(
                Color::Gold,
                "[ r      R      e                   E                            ]",
            )
            .unwrap();
            let mut st = lock(&s.state);
            st.game = Game::from_position(pos, 10);
            st.setup_default = None;
            s.advance(&mut st);
        }
        let v = s.step("a7", "a8").unwrap();
        assert_eq!(v["can_end"], true);
        let v = s.end_turn().unwrap();
        assert_eq!(v["phase"], "over");
        assert_eq!(v["your_turn"], false);
        let why = v["outcome"].as_str().unwrap();
        assert!(why.contains("gold won by goal"), "{why}");
        assert_eq!(s.step("b8", "c8").unwrap_err().status, 409);
        assert_eq!(s.end_turn().unwrap_err().message, "the game is over");
    }

    #[test]
    fn bad_new_games_are_refused_and_closed_tabs_stop_their_search() {
        let all = sessions();
        let bad = |color: &str, depth, time| {
            all.create(&NewGame {
                color: color.into(),
                depth,
                time,
            })
            .err()
            .map(|e| e.message)
        };
        assert!(bad("red", None, None).unwrap().contains("red"));
        assert!(bad("gold", Some(0), None).unwrap().contains("depth 0"));
        assert!(bad("gold", None, Some(-1.0)).unwrap().contains("time -1"));
        assert_eq!(all.count(), 0);
        // Silver: the engine sets up at once, and the player sets up.
        let s = all
            .create(&NewGame {
                color: "silver".into(),
                depth: None,
                time: Some(60.0),
            })
            .unwrap();
        let setup = s.view()["setup_default"].as_str().unwrap().to_string();
        s.setup(&setup).unwrap();
        let v = wait_for(&s, |v| v["engine"]["thinking"] == true);
        assert_eq!(v["your_turn"], false);
        assert_eq!(s.step("a7", "a6").unwrap_err().status, 409);
        assert_eq!(all.shared.searching.load(Ordering::SeqCst), 1);
        all.close(&s.id).unwrap();
        let start = Instant::now();
        while all.shared.searching.load(Ordering::SeqCst) > 0 {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the search went on"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
