//! The running AEI session.
//!
//! Four parts, so that no message ever waits on the search:
//! - a **reader** thread turns input lines into events, stamped with the
//!   time they arrived (the clock counts from then, not from when the
//!   engine got round to them); end of input is an event too;
//! - the **engine loop** owns the game, the options and the clock, and
//!   handles events one at a time in arrival order, so `isready` is
//!   answered as soon as everything before it is done, searching or not;
//! - a **search** thread per `go`: it takes the [`Searcher`] (and its
//!   tables) with it and hands it back with the result, so the loop never
//!   shares the searcher; the loop stops it through an atomic flag;
//! - one **writer** thread owns stdout: every line goes through it whole,
//!   so lines never interleave, and nobody blocks on a slow reader.
//!
//! The loop also keeps the time: it raises the stop flag itself just after
//! the search's hard limit, and if the search still has not answered by
//! the safety point before the deadline, it answers with the best move
//! reported so far. Every answer is checked against the rules before it
//! goes out; a `bestmove` never changes the game (the controller sends it
//! back with `makemove`).
//!
//! A panic anywhere ends the process: the release build aborts on panic,
//! and the binary makes every other build do the same (`main`), so a
//! controller sees the engine exit (stdout closed, a failure status)
//! rather than a session that carries on in an unknown state. A panic is a
//! bug; nothing here tries to recover from one.

use super::options::{AeiOption, parse_option};
use super::protocol::{Command, ParseError, parse_command, reply};
use super::time::apply_clock_option;
use crate::board::{Color, Game, Phase, Position, Turn, pv_notation};
use crate::eval::Evaluator;
use crate::lineio::read_line_bounded;
use crate::search::setup::choose_setup;
use crate::search::{EngineConfig, Limits, Report, SearchResult, Searcher, static_best_turn};
use crate::timeman::{Clock, TurnPlan, schedule};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest input line kept; the rest of a longer one is dropped and the
/// line reported as malformed (no controller sends anything near this).
const MAX_LINE: usize = 64 * 1024;
/// Progress lines for an unfinished iteration are sent at most this often.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);
/// How long `stop` waits for the search to return before answering for it.
const STOP_WAIT: Duration = Duration::from_millis(250);
/// How long `quit` waits for pending output to be written.
const FLUSH_WAIT: Duration = Duration::from_millis(500);

/// What the session needs of a search: [`Searcher`]'s interface. The
/// session is generic over it so that its tests can drive it with
/// stand-ins (a search that never ends by itself, one that ignores `stop`).
pub trait SearchBackend: Send + 'static {
    fn create(config: &EngineConfig) -> Self;
    /// Takes the session's whole configuration (after any option changed).
    fn configure(&mut self, config: &EngineConfig);
    /// The table size actually allocated, in MB (stand-ins have none).
    fn hash_mb(&self) -> usize {
        usize::MAX
    }
    fn new_game(&mut self);
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult>;
}

impl SearchBackend for Searcher {
    fn create(config: &EngineConfig) -> Self {
        Searcher::new(config)
    }
    fn configure(&mut self, config: &EngineConfig) {
        Searcher::configure(self, config)
    }
    fn hash_mb(&self) -> usize {
        Searcher::hash_mb(self)
    }
    fn new_game(&mut self) {
        Searcher::new_game(self)
    }
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        Searcher::search(self, game, limits, stop, report)
    }
}

/// How the session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `quit`.
    Quit,
    /// The input ended.
    EndOfInput,
    /// An unrecognised message: the spec asks the engine to exit.
    Unrecognised(String),
}

/// Runs a session on stdin/stdout.
///
/// The caller is expected to end the process next (by
/// [`super::exit::exit_now`]): the table is left to the exit to free.
pub fn run_stdio() -> Exit {
    run_session::<Searcher, _, _>(
        io::BufReader::new(io::stdin()),
        io::stdout(),
        Leftover::LeaveToExit,
    )
}

/// What a session does with its searcher (and table) when it ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leftover {
    /// Frees it on a thread of its own: freeing a large table the search
    /// has filled takes a while, and `quit` is answered by exiting.
    FreeInBackground,
    /// Keeps it: the process is about to exit, and a thread still
    /// returning pages to the system would hold the exit up until done.
    LeaveToExit,
}

/// Runs a session reading `input` and writing `output` until `quit`, end
/// of input or an unrecognised message.
pub fn run<R, W>(input: R, output: W) -> Exit
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_with::<Searcher, R, W>(input, output)
}

/// [`run`] with any search behind it.
pub fn run_with<S, R, W>(input: R, output: W) -> Exit
where
    S: SearchBackend,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_session::<S, R, W>(input, output, Leftover::FreeInBackground)
}

fn run_session<S, R, W>(input: R, output: W, leftover: Leftover) -> Exit
where
    S: SearchBackend,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (out_tx, out_rx) = mpsc::channel();
    let writer = thread::Builder::new()
        .name("aei-writer".into())
        .spawn(move || write_lines(output, out_rx));
    let (ev_tx, ev_rx) = mpsc::channel();
    let reader_tx = ev_tx.clone();
    let reader = thread::Builder::new()
        .name("aei-reader".into())
        .spawn(move || read_lines(input, reader_tx));
    if let Err(e) = writer.as_ref().and(reader.as_ref()) {
        log::error!("cannot start the session's threads: {e}");
        return Exit::EndOfInput;
    }
    let out = Output { tx: out_tx };
    let mut engine = Engine::<S>::new(out.clone(), ev_rx, ev_tx);
    let exit = engine.run();
    if let Some(s) = engine.searcher.take() {
        match leftover {
            Leftover::FreeInBackground => {
                let _ = thread::Builder::new()
                    .name("free-searcher".into())
                    .spawn(move || drop(s));
            }
            Leftover::LeaveToExit => std::mem::forget(s),
        }
    }
    drop(engine);
    out.close(FLUSH_WAIT);
    exit
}

// ---------------------------------------------------------------- output

enum OutMsg {
    Line(String),
    /// Write everything before this, then acknowledge and stop.
    Close(Sender<()>),
}

/// The handle every part of the session writes through.
#[derive(Clone)]
struct Output {
    tx: Sender<OutMsg>,
}

impl Output {
    fn line(&self, line: String) {
        log::trace!("> {line}");
        // Fails only once the writer has stopped (the session is ending).
        let _ = self.tx.send(OutMsg::Line(line));
    }

    fn log(&self, text: &str) {
        self.line(reply::log(text));
    }

    fn error(&self, text: &str) {
        log::error!("{text}");
        self.log(&format!("Error: {text}"));
    }

    fn warning(&self, text: &str) {
        log::warn!("{text}");
        self.log(&format!("Warning: {text}"));
    }

    /// Flushes what was sent before, waiting at most `wait` (stdout may be
    /// a pipe nobody reads any more).
    fn close(&self, wait: Duration) {
        let (ack_tx, ack_rx) = mpsc::channel();
        if self.tx.send(OutMsg::Close(ack_tx)).is_ok() {
            let _ = ack_rx.recv_timeout(wait);
        }
    }
}

fn write_lines<W: Write>(mut w: W, rx: Receiver<OutMsg>) {
    let mut broken = false;
    let mut write = |w: &mut W, line: &str| {
        if !broken && writeln!(w, "{line}").is_err() {
            log::warn!("output closed; discarding further lines");
            broken = true;
        }
    };
    while let Ok(msg) = rx.recv() {
        let mut next = Some(msg);
        // Write everything queued, then flush once.
        while let Some(msg) = next.take() {
            match msg {
                OutMsg::Line(l) => write(&mut w, &l),
                OutMsg::Close(ack) => {
                    let _ = w.flush();
                    let _ = ack.send(());
                    return;
                }
            }
            next = rx.try_recv().ok();
        }
        let _ = w.flush();
    }
    let _ = w.flush();
}

// ----------------------------------------------------------------- input

enum Event<S> {
    Line { text: String, at: Instant },
    LineTooLong,
    EndOfInput,
    SearchDone(Box<Finished<S>>),
}

fn read_lines<R: BufRead, S>(mut input: R, tx: Sender<Event<S>>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let ev = match read_line_bounded(&mut input, &mut buf, MAX_LINE) {
            Ok(None) => Event::EndOfInput,
            Ok(Some(false)) => Event::Line {
                // Invalid UTF-8 becomes U+FFFD and fails to parse, with a
                // message, instead of ending the session.
                text: String::from_utf8_lossy(&buf).into_owned(),
                at: Instant::now(),
            },
            Ok(Some(true)) => Event::LineTooLong,
            Err(e) => {
                log::warn!("reading input failed: {e}; treating it as end of input");
                Event::EndOfInput
            }
        };
        let end = matches!(ev, Event::EndOfInput);
        if tx.send(ev).is_err() || end {
            return;
        }
    }
}

// ---------------------------------------------------------------- search

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SearchKind {
    Go,
    Ponder,
}

/// What a search thread hands back.
struct Finished<S> {
    id: u64,
    searcher: S,
    result: Option<SearchResult>,
}

/// A search under way (or stopped and not yet back).
struct Running {
    id: u64,
    kind: SearchKind,
    stop: Arc<AtomicBool>,
    /// No `bestmove` is owed any more: interrupted by the game changing,
    /// or already answered by the loop.
    silent: bool,
    /// A ponder that `stop` asked to answer.
    answer_ponder: bool,
    /// The game as searched, to check the answer against.
    game: Game,
    started: Instant,
    /// `go` only: the clock plan, and the loop's own deadlines.
    plan: Option<TurnPlan>,
    stop_at: Option<Instant>,
    answer_by: Option<Instant>,
    /// The first turn of the latest reported PV.
    best_so_far: Arc<Mutex<Option<Turn>>>,
}

/// Turns the search's reports into `info` lines, unfinished iterations
/// no more often than [`PROGRESS_INTERVAL`].
struct Reporter {
    out: Output,
    /// The searched position, which the PV's notation starts from.
    root: Position,
    best_so_far: Arc<Mutex<Option<Turn>>>,
    last_progress: Option<Instant>,
}

impl Reporter {
    fn report(&mut self, r: &Report) {
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

// ---------------------------------------------------------------- engine

/// Settings the searcher takes once it is back from a search.
#[derive(Default)]
struct Pending {
    /// The configuration changed.
    config: bool,
    /// `hash` changed: check what the system granted.
    hash: bool,
    new_game: bool,
}

/// What the controller told us about the game; logged, not used to play.
#[derive(Default, Debug)]
struct GameInfo {
    opponent: String,
    opponent_rating: Option<f64>,
    rating: Option<f64>,
    rated: bool,
    event: String,
}

struct Engine<S: SearchBackend> {
    out: Output,
    events: Receiver<Event<S>>,
    events_tx: Sender<Event<S>>,
    /// Events that arrived while the loop waited for a searcher; handled
    /// next, in order.
    deferred: VecDeque<Event<S>>,
    opened: bool,
    /// Whether `newgame` or `setposition` has begun a game: a controller
    /// that sends `makemove` or `go` first is told that it gets the start.
    in_game: bool,
    game: Game,
    /// `None` while a search thread has it.
    searcher: Option<S>,
    /// Table size, threads, depth limit, search parameters, weights: the
    /// options' one home; the searcher gets a copy whenever it changes.
    config: EngineConfig,
    pending: Pending,
    running: Option<Running>,
    /// The answer of a ponder that ended by itself, for a later `stop`.
    ponder_answer: Option<Turn>,
    seed: Option<u64>,
    /// `debug_panic`: the next search panics (debug builds, for tests).
    #[cfg(debug_assertions)]
    panic_next_search: bool,
    rng: Option<StdRng>,
    clock: Clock,
    info: GameInfo,
    next_id: u64,
}

impl<S: SearchBackend> Engine<S> {
    fn new(out: Output, events: Receiver<Event<S>>, events_tx: Sender<Event<S>>) -> Engine<S> {
        Engine {
            out,
            events,
            events_tx,
            deferred: VecDeque::new(),
            opened: false,
            in_game: false,
            game: new_game(),
            searcher: None,
            config: EngineConfig::default(),
            pending: Pending::default(),
            running: None,
            ponder_answer: None,
            seed: None,
            #[cfg(debug_assertions)]
            panic_next_search: false,
            rng: None,
            clock: Clock::new(Instant::now()),
            info: GameInfo {
                rated: true,
                ..GameInfo::default()
            },
            next_id: 0,
        }
    }

    fn run(&mut self) -> Exit {
        loop {
            let Some(ev) = self.next_event() else {
                self.on_timer();
                continue;
            };
            match ev {
                Event::Line { text, at } => {
                    log::debug!("< {text}");
                    if let Some(exit) = self.on_line(&text, at) {
                        self.stop_search();
                        return exit;
                    }
                }
                Event::LineTooLong => self
                    .out
                    .error(&format!("a line longer than {MAX_LINE} bytes was ignored")),
                Event::EndOfInput => {
                    log::info!("end of input: exiting");
                    self.stop_search();
                    return Exit::EndOfInput;
                }
                Event::SearchDone(f) => self.on_finished(*f),
            }
        }
    }

    /// The next event, or `None` when a timer is due.
    fn next_event(&mut self) -> Option<Event<S>> {
        if let Some(ev) = self.deferred.pop_front() {
            return Some(ev);
        }
        let ev = match self.next_timer() {
            Some(t) => {
                let now = Instant::now();
                if t <= now {
                    return None;
                }
                match self.events.recv_timeout(t - now) {
                    Ok(ev) => ev,
                    Err(RecvTimeoutError::Timeout) => return None,
                    Err(RecvTimeoutError::Disconnected) => Event::EndOfInput,
                }
            }
            None => self.events.recv().unwrap_or(Event::EndOfInput),
        };
        Some(ev)
    }

    fn next_timer(&self) -> Option<Instant> {
        let r = self.running.as_ref().filter(|r| !r.silent)?;
        match (r.stop_at, r.answer_by) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_timer(&mut self) {
        let now = Instant::now();
        let Some(r) = self.running.as_mut() else {
            return;
        };
        if r.stop_at.is_some_and(|t| t <= now) {
            r.stop_at = None;
            r.stop.store(true, Ordering::Relaxed);
            log::debug!("hard limit passed: stop flag raised");
        }
        if r.answer_by.is_some_and(|t| t <= now) {
            self.answer_for_search("the search overran its time");
        }
    }

    /// Answers for the running search, which has not: the first turn of
    /// its latest PV if that is legal, else any legal turn.
    fn answer_for_search(&mut self, why: &str) {
        let Some(r) = self.running.as_mut().filter(|r| !r.silent) else {
            return;
        };
        r.answer_by = None;
        r.silent = true;
        r.stop.store(true, Ordering::Relaxed);
        let known = r.best_so_far.lock().ok().and_then(|b| b.clone());
        let game = r.game.clone();
        let plan = r.plan.clone();
        self.out
            .warning(&format!("{why}; answering with the best move known"));
        let mv = known
            .and_then(|t| checked_notation(&game, &t))
            .or_else(|| fallback_turn(&game));
        self.send_bestmove(mv, &game, plan.as_ref());
    }

    fn on_line(&mut self, text: &str, at: Instant) -> Option<Exit> {
        let cmd = match parse_command(text) {
            Ok(cmd) => cmd,
            Err(ParseError::Empty) => return None,
            Err(e) if e.is_fatal() => {
                self.out.error(&format!("{e}; exiting"));
                return Some(Exit::Unrecognised(text.trim().to_string()));
            }
            Err(e) => {
                self.out.error(&format!("{e}; ignored"));
                return None;
            }
        };
        if !self.opened && !matches!(cmd, Command::Aei | Command::Quit) {
            self.out.error(&format!(
                "`{}` before `aei`: the session opens with `aei`; ignored",
                text.trim()
            ));
            return None;
        }
        match cmd {
            Command::Aei => self.on_aei(),
            Command::IsReady => self.out.line("readyok".into()),
            Command::NewGame => self.on_newgame(),
            Command::SetPosition(pos) => self.on_setposition(pos),
            Command::SetOption { name, value } => self.on_setoption(&name, value.as_deref(), at),
            Command::MakeMove(mv) => self.on_makemove(&mv),
            Command::Go { ponder } => self.on_go(ponder, at),
            Command::Stop => self.on_stop(),
            Command::Quit => {
                log::info!("quit");
                return Some(Exit::Quit);
            }
        }
        None
    }

    /// A fresh searcher with the session's settings.
    fn make_searcher(&self) -> S {
        let s = S::create(&self.config);
        self.check_hash(&s);
        s
    }

    /// Warns when the system gave the table less memory than `hash` asked.
    fn check_hash(&self, s: &S) {
        let got = s.hash_mb();
        let asked = self.config.engine.hash;
        if got < asked {
            self.out.warning(&format!(
                "`hash`: the system refused {asked} MB for the table; using {got} MB"
            ));
        }
    }

    fn on_aei(&mut self) {
        if self.opened {
            self.out
                .error("`aei`: the session is already open; ignored");
            return;
        }
        self.opened = true;
        self.out.line("protocol-version 1".into());
        self.out.line("id name aamir".into());
        self.out.line("id author the aamir developers".into());
        self.out
            .line(format!("id version {}", env!("CARGO_PKG_VERSION")));
        self.out.line("aeiok".into());
        // Only now the heavy part: the tables.
        self.searcher = Some(self.make_searcher());
    }

    fn on_newgame(&mut self) {
        self.abandon_search("newgame");
        self.in_game = true;
        self.game = new_game();
        self.clock.new_game(Instant::now());
        self.ponder_answer = None;
        match self.searcher.as_mut() {
            Some(s) => s.new_game(),
            None => self.pending.new_game = true,
        }
    }

    fn on_setposition(&mut self, pos: Position) {
        if pos.side() == Color::Silver
            && pos.occupied_by(Color::Gold).is_empty()
            && pos.occupied_by(Color::Silver).is_empty()
        {
            // Silver sets up only after gold has: taken as a setup
            // position, it would be answered with a gold setup.
            self.out.error(
                "`setposition`: silver to move on an empty board: no game reaches that \
                 (gold sets up first; give `g` for gold's setup, or gold's pieces for \
                 silver's); ignored",
            );
            return;
        }
        self.abandon_search("setposition");
        let both_set_up =
            !pos.occupied_by(Color::Gold).is_empty() && !pos.occupied_by(Color::Silver).is_empty();
        let mut g = Game::from_position(pos, if both_set_up { 2 } else { 1 });
        g.set_allow_handicap(true);
        if let Some(o) = g.outcome() {
            self.out.warning(&format!(
                "setposition: the game is already over: {}; `go` will get no bestmove",
                o.describe()
            ));
        }
        self.game = g;
        self.in_game = true;
        self.ponder_answer = None;
    }

    /// Warns once when a game is played before `newgame` or `setposition`
    /// began one: the message is answered in a new game from the start.
    fn check_in_game(&mut self, what: &str) {
        if !self.in_game {
            self.in_game = true;
            self.out.warning(&format!(
                "`{what}` before `newgame`: taken as part of a new game from the start"
            ));
        }
    }

    fn on_setoption(&mut self, name: &str, value: Option<&str>, at: Instant) {
        let parsed = match parse_option(name, value) {
            Ok(p) => p,
            Err(e) if e.is_warning() => {
                self.out.warning(&e.to_string());
                return;
            }
            Err(e) => {
                self.out.error(&format!("{e}; ignored"));
                return;
            }
        };
        if let Some(w) = &parsed.warning {
            self.out.warning(w);
        }
        let opt = parsed.option;
        if let AeiOption::MoveUsed(used) = opt
            && let Some(r) = self.running.as_mut().filter(|r| r.kind == SearchKind::Go)
        {
            // An update for the turn being searched (gameroom sends one):
            // it can only bring the loop's deadlines forward.
            if let Some(plan) = r.plan.as_mut() {
                let shift = plan.update_used(used, at);
                if !shift.is_zero() {
                    let now = Instant::now();
                    let earlier = |t: Instant| t.checked_sub(shift).unwrap_or(now);
                    r.stop_at = r.stop_at.map(earlier);
                    r.answer_by = r.answer_by.map(earlier);
                    log::debug!("moveused {used:?}: deadlines brought forward by {shift:?}");
                }
            }
            return;
        }
        if apply_clock_option(&mut self.clock, &opt) {
            return;
        }
        match opt {
            AeiOption::Setting(name, value) => {
                // Checked when parsed; a failure here would be a bug.
                if let Err(e) = self.config.set(&name, &value) {
                    self.out.error(&format!("{e}; ignored"));
                    return;
                }
                let hash = name == "hash";
                self.clock.params = self.config.engine.time_params(&self.clock.params);
                match self.searcher.as_mut() {
                    Some(s) => {
                        s.configure(&self.config);
                        if hash {
                            self.check_hash(self.searcher.as_ref().expect("present"));
                        }
                    }
                    None => {
                        self.pending.config = true;
                        self.pending.hash |= hash;
                    }
                }
                log::info!("{name} set to {value}");
            }
            #[cfg(debug_assertions)]
            AeiOption::DebugPanic => self.panic_next_search = true,
            AeiOption::Seed(s) => {
                self.seed = s;
                self.rng = None;
            }
            AeiOption::Opponent(s) => self.info.opponent = s,
            AeiOption::OpponentRating(r) => self.info.opponent_rating = Some(r),
            AeiOption::Rating(r) => self.info.rating = Some(r),
            AeiOption::Rated(b) => self.info.rated = b,
            AeiOption::Event(s) => self.info.event = s,
            // Clock options were taken above.
            _ => {}
        }
        log::debug!("game info: {:?}", self.info);
    }

    fn on_makemove(&mut self, mv: &str) {
        self.check_in_game("makemove");
        // Checked first: an illegal move changes nothing, not even a
        // search under way.
        let mut next = self.game.clone();
        match next.play(mv) {
            Ok(played) => {
                self.abandon_search("makemove");
                self.game = next;
                self.ponder_answer = None;
                log::debug!("played {} {}", played.label, played.notation);
            }
            Err(e) => self.out.error(&format!(
                "makemove `{mv}`: {e}; the game is unchanged ({} to move)",
                self.game.label()
            )),
        }
    }

    fn on_go(&mut self, ponder: bool, at: Instant) {
        self.check_in_game(if ponder { "go ponder" } else { "go" });
        if let Some(r) = self.running.as_ref().filter(|r| !r.silent) {
            if r.kind == SearchKind::Go || ponder {
                self.out.error(&format!(
                    "`go{}`: already {}; send `stop` or a move first; ignored",
                    if ponder { " ponder" } else { "" },
                    if r.kind == SearchKind::Go {
                        "searching"
                    } else {
                        "pondering"
                    }
                ));
                return;
            }
            // `go` while pondering: think for real on this position.
            self.interrupt_search();
        }
        if let Some(o) = self.game.outcome() {
            // No bestmove, as the spec has it: there is no move to make.
            self.out.error(&format!(
                "`go`: the game is over: {}; no move to make, so no bestmove is sent",
                o.describe()
            ));
            return;
        }
        if let Phase::Setup(color) = self.game.phase() {
            if ponder {
                log::debug!("nothing to ponder in the setup phase");
            } else {
                self.answer_setup(color, at);
            }
            return;
        }
        self.ponder_answer = None;
        self.start_search(
            if ponder {
                SearchKind::Ponder
            } else {
                SearchKind::Go
            },
            at,
        );
    }

    fn on_stop(&mut self) {
        if let Some(r) = self.running.as_mut().filter(|r| !r.silent) {
            r.stop.store(true, Ordering::Relaxed);
            if r.kind == SearchKind::Ponder {
                r.answer_ponder = true;
            }
            let id = r.id;
            self.await_answer(id);
            return;
        }
        if let Some(t) = self.ponder_answer.take() {
            // Kept only while the game stays as pondered; checked anyway.
            if let Some(mv) = checked_notation(&self.game, &t) {
                self.out.line(reply::bestmove(&mv));
                return;
            }
        }
        // Usually a race: the answer crossed the controller's `stop`.
        self.out.warning("`stop`: no search is running; ignored");
    }

    /// Waits for the stopped search `id` to answer, so that the `bestmove`
    /// comes before anything sent after `stop` is handled (a `makemove`
    /// would otherwise silence it). A search slower than [`STOP_WAIT`] to
    /// return is answered for.
    fn await_answer(&mut self, id: u64) {
        let give_up = Instant::now() + STOP_WAIT;
        let owed = |e: &Self| e.running.as_ref().is_some_and(|r| r.id == id && !r.silent);
        while owed(self) {
            let now = Instant::now();
            if now >= give_up {
                self.answer_for_search("the search did not stop in time");
                break;
            }
            let until = self.next_timer().map_or(give_up, |t| t.min(give_up));
            match self
                .events
                .recv_timeout(until.saturating_duration_since(now))
            {
                Ok(Event::SearchDone(f)) => self.on_finished(*f),
                Ok(ev) => self.deferred.push_back(ev),
                Err(RecvTimeoutError::Timeout) => self.on_timer(),
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Stops the search because `command` changed the game it was for: a
    /// `bestmove` for the old game would be stale, so none is sent. A `go`
    /// owed one, and the controller is told (a ponder owes nothing: its
    /// end at the opponent's move is the normal case).
    fn abandon_search(&mut self, command: &str) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| !r.silent && r.kind == SearchKind::Go)
        {
            self.out.warning(&format!(
                "`{command}` during a search: the search was abandoned, as the game it was \
                 searching changed; no bestmove will be sent for it"
            ));
        }
        self.interrupt_search();
    }

    /// Stops the search, owing no `bestmove` for it any more.
    fn interrupt_search(&mut self) {
        if let Some(r) = self.running.as_mut() {
            r.stop.store(true, Ordering::Relaxed);
            r.silent = true;
        }
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.running.as_ref() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    fn answer_setup(&mut self, color: Color, at: Instant) {
        let plan = self.clock.start_turn(color, self.game.move_number(), at);
        let setup = match self.seed {
            // A fixed seed: the same setup for the same position.
            Some(seed) => {
                let mut rng = StdRng::seed_from_u64(seed ^ (color.index() as u64 + 1));
                choose_setup(self.game.position(), color, &mut rng)
            }
            None => {
                let rng = self.rng.get_or_insert_with(rand::make_rng::<StdRng>);
                choose_setup(self.game.position(), color, rng)
            }
        };
        let game = self.game.clone();
        if let Err(e) = game.clone().play(&setup) {
            // Cannot happen for a proper setup phase; say so rather than
            // send a move the controller would score as illegal.
            self.out
                .error(&format!("no legal setup found (`{setup}`: {e})"));
            return;
        }
        self.out.line(reply::bestmove(&setup));
        self.clock.end_turn(color, plan.spent(Instant::now()), true);
    }

    /// Waits for an interrupted search to hand the searcher back; its
    /// stop flag is already up, so this is the search's stop latency.
    /// Past [`STOP_WAIT`], a waiting `quit` or end of input ends the wait
    /// ([`Reclaim::Gone`]) rather than be held up by a search that does not
    /// stop; past `answer_at` (a `go`'s answer deadline) it ends too
    /// ([`Reclaim::Late`]), so that the answer owed goes out in time.
    fn reclaim_searcher(&mut self, answer_at: Option<Instant>) -> Reclaim {
        let start = Instant::now();
        let mut quitting = false;
        while self.searcher.is_none() {
            if self.running.is_none() {
                // Lost (a thread that could not start): make a new one.
                self.searcher = Some(self.make_searcher());
                break;
            }
            let now = Instant::now();
            let waited = now - start;
            if quitting && waited >= STOP_WAIT {
                return Reclaim::Gone;
            }
            if answer_at.is_some_and(|t| now >= t) {
                return Reclaim::Late;
            }
            let mut wait = if quitting {
                STOP_WAIT - waited
            } else {
                Duration::from_secs(1)
            };
            if let Some(t) = answer_at {
                wait = wait.min(t - now);
            }
            match self.events.recv_timeout(wait) {
                Ok(Event::SearchDone(f)) => self.on_finished(*f),
                Ok(ev) => {
                    quitting |= ends_session(&ev);
                    self.deferred.push_back(ev);
                }
                Err(RecvTimeoutError::Timeout) => {
                    log::warn!(
                        "still waiting for the stopped search after {:?}",
                        start.elapsed()
                    );
                }
                Err(RecvTimeoutError::Disconnected) => return Reclaim::Gone,
            }
        }
        log::debug!("searcher back after {:?}", start.elapsed());
        Reclaim::Ready
    }

    fn start_search(&mut self, kind: SearchKind, at: Instant) {
        if kind == SearchKind::Ponder && self.searcher.is_none() {
            // Pondering is optional: not worth waiting for a stopped search.
            log::debug!("the last search is still stopping: not pondering");
            return;
        }
        let side = self.game.side();
        let plan = (kind == SearchKind::Go)
            .then(|| self.clock.start_turn(side, self.game.move_number(), at));
        // A `go` owes its answer by its deadline even while a stopped
        // search still holds the searcher.
        let answer_at = plan.as_ref().and_then(|p| {
            let now = Instant::now();
            let sched = schedule(&p.budget, p.spent(now), &self.clock.params);
            sched.answer_by.and_then(|d| now.checked_add(d))
        });
        match self.reclaim_searcher(answer_at) {
            Reclaim::Ready => {}
            Reclaim::Gone => return,
            Reclaim::Late => {
                self.out.warning(
                    "the last search has not stopped by this move's deadline; \
                     answering with the best turn by a static look",
                );
                let game = self.game.clone();
                self.send_bestmove(fallback_turn(&game), &game, plan.as_ref());
                return;
            }
        }
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let now = Instant::now();
        let (plan, sched) = match plan {
            Some(plan) => {
                let spent = plan.spent(now);
                let sched = schedule(&plan.budget, spent, &self.clock.params);
                log::debug!(
                    "{} {}: reserve {:?}, budget {:?}, from now {:?}",
                    self.game.label(),
                    side.name(),
                    plan.reserve,
                    plan.budget,
                    sched
                );
                (Some(plan), sched)
            }
            None => (None, Default::default()),
        };
        let limits = Limits {
            soft: sched.soft,
            hard: sched.hard,
            depth: self.config.engine.depth_limit(),
            nodes: None,
            time_params: self.clock.params.clone(),
        };
        self.next_id += 1;
        let id = self.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let best_so_far = Arc::new(Mutex::new(None));
        let game = self.game.clone();
        let mut reporter = Reporter {
            out: self.out.clone(),
            root: game.position().clone(),
            best_so_far: best_so_far.clone(),
            last_progress: None,
        };
        let thread_stop = stop.clone();
        let thread_game = game.clone();
        let tx = self.events_tx.clone();
        #[cfg(debug_assertions)]
        let panic_now = std::mem::take(&mut self.panic_next_search);
        let spawned = thread::Builder::new().name("search".into()).spawn(move || {
            #[cfg(debug_assertions)]
            if panic_now {
                panic!("debug_panic: the test-only panic in the search thread");
            }
            // No guard: a panic here ends the process (see the module docs).
            let result = searcher.search(&thread_game, &limits, &thread_stop, &mut |r: &Report| {
                reporter.report(r)
            });
            let _ = tx.send(Event::SearchDone(Box::new(Finished {
                id,
                searcher,
                result,
            })));
        });
        if let Err(e) = spawned {
            self.out
                .error(&format!("cannot start a search thread: {e}"));
            if kind == SearchKind::Go {
                self.send_bestmove(fallback_turn(&game), &game, plan.as_ref());
            }
            return;
        }
        self.running = Some(Running {
            id,
            kind,
            stop,
            silent: false,
            answer_ponder: false,
            game,
            started: now,
            // Too far ahead to represent: no timer.
            stop_at: sched.stop_at.and_then(|d| now.checked_add(d)),
            answer_by: sched.answer_by.and_then(|d| now.checked_add(d)),
            plan,
            best_so_far,
        });
    }

    fn on_finished(&mut self, f: Finished<S>) {
        let mut searcher = f.searcher;
        if std::mem::take(&mut self.pending.config) {
            searcher.configure(&self.config);
        }
        if std::mem::take(&mut self.pending.hash) {
            self.check_hash(&searcher);
        }
        if std::mem::take(&mut self.pending.new_game) {
            searcher.new_game();
        }
        self.searcher = Some(searcher);
        let Some(r) = self.running.take_if(|r| r.id == f.id) else {
            return;
        };
        let elapsed = r.started.elapsed();
        if let Some(res) = &f.result {
            let secs = elapsed.as_secs_f64();
            self.out.log(&format!(
                "Searched {} nodes in {:.3} s ({:.0} nodes/s), depth {}, score {}",
                res.nodes,
                secs,
                res.nodes as f64 / secs.max(1e-6),
                res.depth,
                res.score
            ));
        }
        let owed = match r.kind {
            SearchKind::Go => !r.silent,
            SearchKind::Ponder => r.answer_ponder,
        };
        // Every answer is checked against the rules, once, before it goes
        // out.
        let answer = f
            .result
            .and_then(|res| checked_notation(&r.game, &res.best).map(|mv| (res.best, mv)));
        if owed {
            let mv = answer.map(|(_, mv)| mv).or_else(|| {
                log::warn!("the search gave no legal move; answering with a legal turn");
                fallback_turn(&r.game)
            });
            self.send_bestmove(mv, &r.game, r.plan.as_ref());
        } else if r.kind == SearchKind::Ponder && !r.silent {
            self.ponder_answer = answer.map(|(t, _)| t);
        }
    }

    fn send_bestmove(&mut self, mv: Option<String>, game: &Game, plan: Option<&TurnPlan>) {
        let Some(mv) = mv else {
            self.out
                .error("no legal move in this position; no bestmove sent");
            return;
        };
        self.out.line(reply::bestmove(&mv));
        if let Some(plan) = plan {
            self.clock
                .end_turn(game.side(), plan.spent(Instant::now()), false);
        }
    }
}

/// How a wait for the searcher ended.
enum Reclaim {
    /// The searcher is back.
    Ready,
    /// The answer deadline came first.
    Late,
    /// `quit`, end of input, or the search thread is gone.
    Gone,
}

/// `quit` or end of input: a wait must not hold them up.
fn ends_session<S>(ev: &Event<S>) -> bool {
    match ev {
        Event::EndOfInput => true,
        Event::Line { text, .. } => matches!(parse_command(text), Ok(Command::Quit)),
        _ => false,
    }
}

fn new_game() -> Game {
    let mut g = Game::new();
    // A controller may give handicap setups; the engine never makes one.
    g.set_allow_handicap(true);
    g
}

/// The turn's notation if the rules accept it in `game` (which stays as
/// it is: the controller sends the move back with `makemove`).
fn checked_notation(game: &Game, turn: &Turn) -> Option<String> {
    game.clone()
        .play_turn(turn)
        .ok()
        .map(|played| played.notation)
}

/// A legal turn for when the search gave none in time: the best by a
/// one-turn static look, so that even this answer does not hand the
/// opponent a piece or miss a goal. The default evaluation stands in for
/// the configured one, which lives with the search.
fn fallback_turn(game: &Game) -> Option<String> {
    let turn = static_best_turn(game, &Evaluator::default())?;
    checked_notation(game, &turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session driven in-process: lines in, lines out.
    fn session(input: &str) -> (Exit, Vec<String>) {
        let (out_r, out_w) = io::pipe().unwrap();
        let input = io::Cursor::new(input.as_bytes().to_vec());
        let h = thread::spawn(move || run(input, out_w));
        let lines: Vec<String> = io::BufReader::new(out_r)
            .lines()
            .map(|l| l.unwrap())
            .collect();
        (h.join().unwrap(), lines)
    }

    /// A live session: send lines, wait for answers.
    struct Live {
        input: Option<io::PipeWriter>,
        lines: Receiver<(Instant, String)>,
        exit: Receiver<Exit>,
    }

    impl Live {
        fn start<S: SearchBackend>() -> Live {
            let (in_r, in_w) = io::pipe().unwrap();
            let (out_r, out_w) = io::pipe().unwrap();
            let (exit_tx, exit) = mpsc::channel();
            thread::spawn(move || {
                let _ = exit_tx.send(run_with::<S, _, _>(io::BufReader::new(in_r), out_w));
            });
            let (tx, lines) = mpsc::channel();
            thread::spawn(move || {
                for l in io::BufReader::new(out_r).lines() {
                    let Ok(l) = l else { return };
                    if tx.send((Instant::now(), l)).is_err() {
                        return;
                    }
                }
            });
            let mut live = Live {
                input: Some(in_w),
                lines,
                exit,
            };
            live.send("aei");
            live.until("aeiok", 5.0);
            live
        }

        fn send(&mut self, line: &str) -> Instant {
            let w = self.input.as_mut().expect("input open");
            writeln!(w, "{line}").unwrap();
            w.flush().unwrap();
            Instant::now()
        }

        /// Lines up to and including the first starting with `prefix`.
        fn until(&mut self, prefix: &str, secs: f64) -> Vec<(Instant, String)> {
            let end = Instant::now() + Duration::from_secs_f64(secs);
            let mut seen = Vec::new();
            loop {
                let left = end.saturating_duration_since(Instant::now());
                match self.lines.recv_timeout(left) {
                    Ok((t, l)) => {
                        let hit = l.starts_with(prefix);
                        seen.push((t, l));
                        if hit {
                            return seen;
                        }
                    }
                    Err(_) => panic!("no `{prefix}` within {secs} s; got {seen:?}"),
                }
            }
        }

        /// Whatever arrives within `secs`.
        fn quiet(&mut self, secs: f64) -> Vec<String> {
            let end = Instant::now() + Duration::from_secs_f64(secs);
            let mut seen = Vec::new();
            while let Ok((_, l)) = self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                seen.push(l);
            }
            seen
        }

        fn bestmoves(lines: &[(Instant, String)]) -> Vec<String> {
            lines
                .iter()
                .filter_map(|(_, l)| l.strip_prefix("bestmove ").map(str::to_string))
                .collect()
        }
    }

    const OPENING: &str =
        "setposition g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";

    fn opening_game() -> Game {
        let mut g = new_game();
        g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
            .unwrap();
        g.play("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7")
            .unwrap();
        g
    }

    #[test]
    fn fallback_takes_a_goal_and_otherwise_the_best_static_turn() {
        // Gold's rabbit on b6 walks to b8.
        let rows = [
            " r  r  r", "  d  d  ", " R  e   ", "        ", "   E    ", "        ", "        ",
            "        ",
        ];
        let pos = crate::board::notation::parse_side_and_board(&format!("g [{}]", rows.concat()))
            .unwrap();
        let game = Game::from_position(pos, 10);
        let mut g = game.clone();
        g.play(&fallback_turn(&game).unwrap()).unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(Color::Gold));
        // From the opening: the turn scores best of all, and the first
        // legal turn (the old stand-in) scores lower.
        let game = opening_game();
        let eval = Evaluator::default();
        let score = |g: &Game| -eval.evaluate(g.position());
        let best = game
            .legal_turns()
            .iter()
            .map(|t| -eval.evaluate(&t.apply(game.position())))
            .max()
            .unwrap();
        let mut g = game.clone();
        g.play(&fallback_turn(&game).unwrap()).unwrap();
        assert_eq!(score(&g), best);
        let mut g = game.clone();
        g.play(&first_legal(&game).0).unwrap();
        assert!(score(&g) < best, "the test cannot tell the two apart");
    }

    fn first_legal(game: &Game) -> (String, Turn) {
        let t = game.legal_turns().into_iter().next().expect("a legal turn");
        (t.notation(game.position()).unwrap(), t)
    }

    fn result(game: &Game, depth: u32) -> SearchResult {
        let (_, best) = first_legal(game);
        SearchResult {
            best: best.clone(),
            score: 0,
            depth,
            nodes: 1,
            pv: vec![best],
        }
    }

    /// Searches until stopped (or its hard limit or depth), reporting an
    /// unfinished iteration every few milliseconds.
    struct Endless;

    impl SearchBackend for Endless {
        fn create(_: &EngineConfig) -> Self {
            Endless
        }
        fn configure(&mut self, _: &EngineConfig) {}
        fn new_game(&mut self) {}
        fn search(
            &mut self,
            game: &Game,
            limits: &Limits,
            stop: &AtomicBool,
            report: &mut dyn FnMut(&Report),
        ) -> Option<SearchResult> {
            let start = Instant::now();
            let res = result(game, 1);
            let mut depth = 1;
            while !stop.load(Ordering::Relaxed)
                && limits.hard.is_none_or(|h| start.elapsed() < h)
                && limits.depth.is_none_or(|d| depth <= d)
            {
                report(&Report {
                    depth,
                    in_progress: true,
                    score: 0,
                    nodes: depth as u64,
                    elapsed: start.elapsed(),
                    pv: res.pv.clone(),
                    current_move: Some(1),
                });
                depth += 1;
                thread::sleep(Duration::from_millis(2));
            }
            Some(res)
        }
    }

    /// Reports a move, then ignores `stop` and every limit for two seconds.
    struct Stubborn;

    impl SearchBackend for Stubborn {
        fn create(_: &EngineConfig) -> Self {
            Stubborn
        }
        fn configure(&mut self, _: &EngineConfig) {}
        fn new_game(&mut self) {}
        fn search(
            &mut self,
            game: &Game,
            _: &Limits,
            _: &AtomicBool,
            report: &mut dyn FnMut(&Report),
        ) -> Option<SearchResult> {
            // The last legal turn, so that it differs from the fallback.
            let t = game.legal_turns().pop()?;
            // A PV of two turns: the session answers with the first.
            let mut after = game.clone();
            after.play_turn(&t).ok()?;
            let reply = after.legal_turns().into_iter().next()?;
            report(&Report {
                depth: 1,
                in_progress: false,
                score: 0,
                nodes: 1,
                elapsed: Duration::ZERO,
                pv: vec![t, reply],
                current_move: None,
            });
            thread::sleep(Duration::from_secs(2));
            Some(result(game, 1))
        }
    }

    #[test]
    fn isready_and_setoption_while_searching_then_stop() {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("go");
        s.until("info depth", 5.0);
        s.send("setoption name hash value 8");
        s.send("setoption name greserve value 30");
        s.send("isready");
        let got = s.until("readyok", 5.0);
        assert!(Live::bestmoves(&got).is_empty(), "{got:?}");
        // Still searching: nothing but progress.
        let more = s.quiet(0.3);
        assert!(more.iter().all(|l| l.starts_with("info")), "{more:?}");
        assert!(
            more.iter()
                .any(|l| l == "info depth 1+" || l.ends_with('+'))
        );
        let sent = s.send("stop");
        s.send("isready");
        // The answer to `stop` comes before the `readyok` sent after it.
        let got = s.until("readyok", 5.0);
        let best = Live::bestmoves(&got);
        assert_eq!(best.len(), 1, "{got:?}");
        let at = got
            .iter()
            .find(|(_, l)| l.starts_with("bestmove"))
            .unwrap()
            .0;
        eprintln!("stop latency with a stand-in search: {:?}", at - sent);
        let mut g = opening_game();
        g.play(&best[0]).unwrap();
        s.send("quit");
        assert_eq!(s.exit.recv_timeout(Duration::from_secs(5)), Ok(Exit::Quit));
    }

    #[test]
    fn makemove_during_ponder_gives_no_bestmove() {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("go ponder");
        s.until("info depth", 5.0);
        let (mv, _) = first_legal(&opening_game());
        s.send(&format!("makemove {mv}"));
        s.send("isready");
        let got = s.until("readyok", 5.0);
        assert!(Live::bestmoves(&got).is_empty(), "{got:?}");
        // The ponder is over: nothing left for `stop` to answer.
        s.send("stop");
        s.send("isready");
        let got = s.until("readyok", 5.0);
        assert!(Live::bestmoves(&got).is_empty(), "{got:?}");
        assert!(
            got.iter()
                .any(|(_, l)| l.starts_with("log Warning: `stop`")),
            "{got:?}"
        );
        // Now silver's turn, searched for real.
        s.send("go");
        s.send("stop");
        let got = s.until("bestmove", 5.0);
        let mut g = opening_game();
        g.play(&mv).unwrap();
        g.play(&Live::bestmoves(&got)[0]).unwrap();
        let rest = s.quiet(0.2);
        assert!(rest.iter().all(|l| !l.starts_with("bestmove")), "{rest:?}");
    }

    #[test]
    fn makemove_during_go_gives_no_bestmove() {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("go");
        s.until("info depth", 5.0);
        let (mv, _) = first_legal(&opening_game());
        s.send(&format!("makemove {mv}"));
        s.send("stop");
        s.send("isready");
        let got = s.until("readyok", 5.0);
        assert!(Live::bestmoves(&got).is_empty(), "{got:?}");
        assert!(
            got.iter()
                .any(|(_, l)| l.starts_with("log Warning: `stop`")),
            "{got:?}"
        );
    }

    #[test]
    fn stop_answers_a_ponder_even_one_that_ended() {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("go ponder");
        s.until("info depth", 5.0);
        s.send("stop");
        let got = s.until("bestmove", 5.0);
        opening_game().play(&Live::bestmoves(&got)[0]).unwrap();
        // A depth-limited ponder ends by itself, silently; `stop` then
        // gets its answer.
        s.send("setoption name depth value 3");
        s.send("go ponder");
        let quiet = s.quiet(0.3);
        assert!(
            quiet.iter().all(|l| !l.starts_with("bestmove")),
            "{quiet:?}"
        );
        s.send("stop");
        let got = s.until("bestmove", 5.0);
        opening_game().play(&Live::bestmoves(&got)[0]).unwrap();
        s.send("stop");
        s.until("log Warning: `stop`: no search", 5.0);
    }

    #[test]
    fn overrunning_search_is_answered_for_in_time() {
        let mut s = Live::start::<Stubborn>();
        s.send(OPENING);
        s.send("setoption name tcmove value 0.5");
        s.send("setoption name tcreserve value 0");
        let sent = s.send("go");
        let got = s.until("bestmove", 5.0);
        let took = got.last().unwrap().0 - sent;
        eprintln!("answer for an overrunning search after {took:?} (deadline 0.5 s)");
        // The search returns after 2 s; the answer came well before.
        assert!(took < Duration::from_millis(1500), "{took:?}");
        // It is the move the search reported, not a stand-in.
        let game = opening_game();
        let reported = game.legal_turns().pop().unwrap();
        let expected = reported.notation(game.position()).unwrap();
        assert_eq!(Live::bestmoves(&got), [expected]);
        // When the search does return, no second answer.
        let rest = s.quiet(2.2);
        assert!(rest.iter().all(|l| !l.starts_with("bestmove")), "{rest:?}");
    }

    #[test]
    fn a_go_behind_an_overrunning_search_is_answered_in_time() {
        // The first search overruns and is answered for at its deadline,
        // but its thread runs on for 2 s holding the searcher; the next
        // `go` must not wait for it past its own deadline.
        let mut s = Live::start::<Stubborn>();
        s.send(OPENING);
        s.send("setoption name tcmove value 0.5");
        s.send("setoption name tcreserve value 0");
        s.send("go");
        let got = s.until("bestmove", 5.0);
        let first = Live::bestmoves(&got)[0].clone();
        s.send(&format!("makemove {first}"));
        let sent = s.send("go");
        let got = s.until("bestmove", 5.0);
        let took = got.last().unwrap().0 - sent;
        eprintln!("answer behind an overrunning search after {took:?} (deadline 0.5 s)");
        assert!(took < Duration::from_millis(1200), "{took:?}");
        let mut g = opening_game();
        g.play(&first).unwrap();
        g.play(&Live::bestmoves(&got)[0]).unwrap();
    }

    #[test]
    fn stop_then_makemove_keeps_the_answer() {
        // All at once, as a piped transcript sends them: the `makemove`
        // must not silence the answer to `stop`.
        let mut s = Live::start::<Endless>();
        let (mv, _) = first_legal(&opening_game());
        s.send(&format!(
            "{OPENING}\ngo\nstop\nmakemove {mv}\ngo\nstop\nisready"
        ));
        let got = s.until("readyok", 5.0);
        let best = Live::bestmoves(&got);
        assert_eq!(best.len(), 2, "{got:?}");
        let mut g = opening_game();
        g.play(&best[0]).unwrap();
        let mut g = opening_game();
        g.play(&mv).unwrap();
        g.play(&best[1]).unwrap();
    }

    #[test]
    fn stop_is_answered_even_if_the_search_ignores_it() {
        let mut s = Live::start::<Stubborn>();
        s.send(OPENING);
        s.send("go");
        s.until("info depth", 5.0);
        let sent = s.send("stop");
        let got = s.until("bestmove", 5.0);
        let took = got.last().unwrap().0 - sent;
        assert!(took < Duration::from_millis(1500), "{took:?}");
        let game = opening_game();
        let reported = game.legal_turns().pop().unwrap();
        let expected = reported.notation(game.position()).unwrap();
        assert_eq!(Live::bestmoves(&got), [expected]);
        // `quit` is not held up by the search that is still running.
        let sent = s.send("quit");
        assert_eq!(s.exit.recv_timeout(Duration::from_secs(5)), Ok(Exit::Quit));
        assert!(sent.elapsed() < Duration::from_millis(1500));
    }

    #[test]
    fn time_options_reach_the_clock() {
        // An endless search runs to its hard limit: `tcmove` plus the
        // reserve over `time_hard_div` (2.1 s here with the default 3).
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("setoption name tcmove value 0.1");
        s.send("setoption name tcreserve value 6");
        s.send("setoption name time_hard_div value 30");
        let sent = s.send("go");
        let got = s.until("bestmove", 5.0);
        let took = got.last().unwrap().0 - sent;
        assert!(took < Duration::from_millis(1000), "took {took:?}");
    }

    #[test]
    fn moveused_during_search_brings_the_deadline_forward() {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send("setoption name tcmove value 30");
        let sent = s.send("go");
        s.until("info depth", 5.0);
        // The controller says 29.5 s of the turn are already gone.
        s.send("setoption name moveused value 29.5");
        let got = s.until("bestmove", 5.0);
        assert!(got.last().unwrap().0 - sent < Duration::from_secs(5));
        opening_game().play(&Live::bestmoves(&got)[0]).unwrap();
    }

    #[test]
    fn random_input_never_panics() {
        use rand::RngExt;
        use rand::seq::IndexedRandom;
        // Known message words (an unknown one would end the session) with
        // arguments drawn from pieces of real messages and random bytes.
        let words = [
            "isready",
            "newgame",
            "setposition",
            "setoption",
            "makemove",
            "go",
            "stop",
            "aei",
        ];
        let pieces = [
            "name",
            "value",
            "ponder",
            "g",
            "s",
            "w",
            "b",
            "[",
            "]",
            "tcmove",
            "hash",
            "depth",
            "greserve",
            "moveused",
            "seed",
            "threads",
            "-1",
            "0",
            "1e9",
            "NaN",
            "3.5",
            "Ee2n",
            "Ra1",
            "rc6x",
            "ed7s",
            "Hh2",
            "x",
            "Ed2q",
            "[rrrrrrrrhdcemcdh",
            "HDCMECDHRRRRRRRR]",
            "\u{0}",
            "é",
            "   ",
        ];
        let mut rng = StdRng::seed_from_u64(5);
        let mut input = String::from("aei\nnewgame\n");
        for i in 0..3000 {
            if i % 400 == 0 {
                input.push_str(&format!("{OPENING}\n"));
            }
            let mut line = words.choose(&mut rng).unwrap().to_string();
            for _ in 0..rng.random_range(0..5) {
                line.push(' ');
                if rng.random_bool(0.2) {
                    let len = rng.random_range(1..6);
                    line.extend((0..len).map(|_| rng.random_range(' '..='~')));
                } else {
                    line.push_str(pieces.choose(&mut rng).unwrap());
                }
            }
            // `go` with no limits would search until stopped.
            if line.starts_with("go") {
                line.push_str("\nstop");
            }
            input.push_str(&line);
            input.push('\n');
        }
        let (exit, lines) = session(&input);
        assert_eq!(exit, Exit::EndOfInput);
        let known = [
            "protocol-version",
            "id",
            "aeiok",
            "readyok",
            "bestmove",
            "info",
            "log",
        ];
        for l in &lines {
            let word = l.split(' ').next().unwrap_or("");
            assert!(known.contains(&word), "{l:?}");
        }
        assert!(lines.iter().filter(|l| l.starts_with("readyok")).count() > 30);
    }

    #[test]
    fn handshake_then_quit() {
        let (exit, lines) = session("aei\nisready\nquit\nquit\n");
        assert_eq!(exit, Exit::Quit);
        assert_eq!(
            lines,
            [
                "protocol-version 1",
                "id name aamir",
                "id author the aamir developers",
                &format!("id version {}", env!("CARGO_PKG_VERSION")),
                "aeiok",
                "readyok"
            ]
        );
    }

    #[test]
    fn setups_in_process() {
        let (exit, lines) = session(
            "aei\nsetoption name seed value 3\nnewgame\ngo\nmakemove Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\ngo\n",
        );
        assert_eq!(exit, Exit::EndOfInput);
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{lines:?}");
        let mut g = new_game();
        g.play(&best[0]["bestmove ".len()..]).unwrap();
        let mut g = new_game();
        g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
            .unwrap();
        g.play(&best[1]["bestmove ".len()..]).unwrap();
        assert_eq!(g.phase(), Phase::Play);
    }
}
