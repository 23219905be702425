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
//! This file holds the loop, the dispatch of each message and the options;
//! the rest is split by job:
//! - `lines`: the reader and writer threads (line I/O);
//! - `game`: the game as the controller sets it, and the rules checks of
//!   every answer;
//! - `supervise`: starting, timing, stopping and answering for searches;
//! - `report`: the search's progress as `info` lines.
//!
//! A panic anywhere ends the process: the release build aborts on panic,
//! and the binary makes every other build do the same (`main`), so a
//! controller sees the engine exit (stdout closed, a failure status)
//! rather than a session that carries on in an unknown state. A panic is a
//! bug; nothing here tries to recover from one.

mod game;
mod lines;
mod report;
mod supervise;
#[cfg(test)]
mod testkit;

use super::options::{AeiOption, parse_option};
use super::protocol::{Command, ParseError, parse_command};
use super::time::apply_clock_option;
use crate::board::{Game, Turn};
use crate::search::{EngineConfig, Limits, Report, SearchResult, Searcher};
use crate::timeman::Clock;
use game::new_game;
use lines::{Event, MAX_LINE, Output};
use rand::rngs::StdRng;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};
use supervise::Running;

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
    let (ev_tx, ev_rx) = mpsc::channel();
    let out = match lines::start(input, output, ev_tx.clone()) {
        Ok(out) => out,
        Err(e) => {
            log::error!("cannot start the session's threads: {e}");
            return Exit::EndOfInput;
        }
    };
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

/// The engine loop's state: everything the session knows, owned by the
/// loop's thread alone.
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
    /// Table size, threads, depth limit, time settings, search parameters,
    /// weights: the options' one home; the searcher gets a copy whenever it changes.
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
            && self.on_moveused(used, at)
        {
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
                self.clock.params = self.config.time.params();
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
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use std::time::Duration;

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
}
