//! What the session's tests share: a session driven in-process, a live
//! one to send lines to and wait on, and stand-in searches that misbehave
//! on purpose.

pub(super) use super::game::new_game;
pub(super) use super::{Exit, SearchBackend, run, run_with};
pub(super) use crate::board::{Game, Turn};
use crate::search::{EngineConfig, Limits, Report, SearchResult};
pub(super) use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
pub(super) use std::sync::mpsc::{self, Receiver};
pub(super) use std::thread;
use std::time::Duration;
pub(super) use std::time::Instant;

/// A session driven in-process: lines in, lines out.
pub(super) fn session(input: &str) -> (Exit, Vec<String>) {
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
pub(super) struct Live {
    input: Option<io::PipeWriter>,
    lines: Receiver<(Instant, String)>,
    pub(super) exit: Receiver<Exit>,
}

impl Live {
    pub(super) fn start<S: SearchBackend>() -> Live {
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

    pub(super) fn send(&mut self, line: &str) -> Instant {
        let w = self.input.as_mut().expect("input open");
        writeln!(w, "{line}").unwrap();
        w.flush().unwrap();
        Instant::now()
    }

    /// Lines up to and including the first starting with `prefix`.
    pub(super) fn until(&mut self, prefix: &str, secs: f64) -> Vec<(Instant, String)> {
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
    pub(super) fn quiet(&mut self, secs: f64) -> Vec<String> {
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

    pub(super) fn bestmoves(lines: &[(Instant, String)]) -> Vec<String> {
        lines
            .iter()
            .filter_map(|(_, l)| l.strip_prefix("bestmove ").map(str::to_string))
            .collect()
    }
}

pub(super) const OPENING: &str =
    "setposition g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";

pub(super) fn opening_game() -> Game {
    let mut g = new_game();
    g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
        .unwrap();
    g.play("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7")
        .unwrap();
    g
}

pub(super) fn first_legal(game: &Game) -> (String, Turn) {
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

/// A stand-in search: [`Endless`] or, with `STUBBORN`, [`Stubborn`].
pub(super) struct StandIn<const STUBBORN: bool>;

/// Searches until stopped (or its hard limit or depth), reporting an
/// unfinished iteration every few milliseconds.
pub(super) type Endless = StandIn<false>;

/// Reports a move, then ignores `stop` and every limit for two seconds.
pub(super) type Stubborn = StandIn<true>;

impl<const STUBBORN: bool> SearchBackend for StandIn<STUBBORN> {
    fn create(_: &EngineConfig) -> Self {
        StandIn
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
        if STUBBORN {
            return stubborn(game, report);
        }
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

/// [`Stubborn`]'s search.
fn stubborn(game: &Game, report: &mut dyn FnMut(&Report)) -> Option<SearchResult> {
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
