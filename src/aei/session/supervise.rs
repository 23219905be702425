//! Supervising a search: `go` and `go ponder` start one on a thread of
//! its own (which takes the searcher with it and hands it back with the
//! result), `stop` and a change of game end it, and the loop's timers keep
//! the time: the stop flag raised just after the hard limit, and an answer
//! sent for a search that has not given one by the safety point before
//! the deadline. Every answer is checked against the rules, and a
//! `bestmove` ends our turn on the clock.

use super::game::{checked_notation, fallback_turn};
use super::lines::Event;
use super::report::{Reporter, summary};
use super::{Engine, SearchBackend};
use crate::aei::protocol::{Command, parse_command, reply};
use crate::board::{Game, Phase, Turn};
use crate::search::{Limits, Report, SearchResult};
use crate::timeman::{TurnPlan, schedule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long `stop` waits for the search to return before answering for it.
const STOP_WAIT: Duration = Duration::from_millis(250);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum SearchKind {
    Go,
    Ponder,
}

/// What a search thread hands back.
pub(super) struct Finished<S> {
    id: u64,
    searcher: S,
    result: Option<SearchResult>,
}

/// A search under way (or stopped and not yet back).
pub(super) struct Running {
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

impl<S: SearchBackend> Engine<S> {
    pub(super) fn next_timer(&self) -> Option<Instant> {
        let r = self.running.as_ref().filter(|r| !r.silent)?;
        match (r.stop_at, r.answer_by) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub(super) fn on_timer(&mut self) {
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

    pub(super) fn on_go(&mut self, ponder: bool, at: Instant) {
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

    pub(super) fn on_stop(&mut self) {
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

    /// `moveused` while a `go` runs: an update for the turn being searched
    /// (gameroom sends one), which can only bring the loop's deadlines
    /// forward. False when no `go` runs: the clock takes it for the next
    /// turn.
    pub(super) fn on_moveused(&mut self, used: Duration, at: Instant) -> bool {
        let Some(r) = self.running.as_mut().filter(|r| r.kind == SearchKind::Go) else {
            return false;
        };
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
        true
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
    pub(super) fn abandon_search(&mut self, command: &str) {
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

    pub(super) fn stop_search(&mut self) {
        if let Some(r) = self.running.as_ref() {
            r.stop.store(true, Ordering::Relaxed);
        }
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
        let mut reporter = Reporter::new(
            self.out.clone(),
            game.position().clone(),
            best_so_far.clone(),
        );
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

    pub(super) fn on_finished(&mut self, f: Finished<S>) {
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
            self.out.log(&summary(res, elapsed));
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

    pub(super) fn send_bestmove(
        &mut self,
        mv: Option<String>,
        game: &Game,
        plan: Option<&TurnPlan>,
    ) {
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

#[cfg(test)]
mod tests {
    use crate::aei::session::testkit::*;
    use std::time::Duration;

    /// A session searching the opening (`go`, or `go ponder`) that has
    /// just been sent a move, and the move.
    fn makemove_while(go: &str) -> (Live, String) {
        let mut s = Live::start::<Endless>();
        s.send(OPENING);
        s.send(go);
        s.until("info depth", 5.0);
        let (mv, _) = first_legal(&opening_game());
        s.send(&format!("makemove {mv}"));
        (s, mv)
    }

    /// `stop` gets no `bestmove`, only the warning that no search runs.
    fn stop_finds_no_search(s: &mut Live) {
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
    fn makemove_during_ponder_gives_no_bestmove() {
        let (mut s, mv) = makemove_while("go ponder");
        s.send("isready");
        let got = s.until("readyok", 5.0);
        assert!(Live::bestmoves(&got).is_empty(), "{got:?}");
        // The ponder is over: nothing left for `stop` to answer.
        stop_finds_no_search(&mut s);
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
        let (mut s, _) = makemove_while("go");
        stop_finds_no_search(&mut s);
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
}
