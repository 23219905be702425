//! Driving the real `aamir` binary over AEI from the integration tests:
//! spawn it, send lines, wait for answers (each stamped with the time it
//! arrived), and check moves against the rules.

#![allow(dead_code)]

use aamir::board::Game;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

pub const OPENING: &str =
    "setposition g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";

/// The game `OPENING` sets up, gold to move.
pub fn opening_game() -> Game {
    let mut g = new_game();
    g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
        .unwrap();
    g.play("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7")
        .unwrap();
    g
}

pub fn new_game() -> Game {
    let mut g = Game::new();
    g.set_allow_handicap(true);
    g
}

/// A running engine process.
pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    pub started: Instant,
}

impl Engine {
    /// Starts `aamir` with `args` (none: the default AEI session).
    pub fn spawn(args: &[&str]) -> Engine {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_aamir"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the aamir binary starts");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { return };
                if tx.send((Instant::now(), l)).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            started,
        }
    }

    /// Spawns and completes the handshake.
    pub fn opened() -> Engine {
        let mut e = Engine::spawn(&[]);
        e.send("aei");
        e.until("aeiok", 10.0);
        e
    }

    pub fn send(&mut self, line: &str) -> Instant {
        let w = self.stdin.as_mut().expect("stdin still open");
        writeln!(w, "{line}").expect("the engine reads its input");
        w.flush().unwrap();
        Instant::now()
    }

    /// Sends raw bytes (and a newline): for input that is not UTF-8.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let w = self.stdin.as_mut().expect("stdin still open");
        w.write_all(bytes).unwrap();
        w.write_all(b"\n").unwrap();
        w.flush().unwrap();
    }

    pub fn close_input(&mut self) -> Instant {
        self.stdin = None;
        Instant::now()
    }

    /// Lines up to and including the first starting with `prefix`.
    pub fn until(&mut self, prefix: &str, secs: f64) -> Vec<(Instant, String)> {
        let end = Instant::now() + Duration::from_secs_f64(secs);
        let mut seen = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
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

    /// Everything that arrives within `secs` (or until the output ends).
    pub fn quiet(&mut self, secs: f64) -> Vec<String> {
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

    /// Waits up to `secs` for the process to end.
    pub fn wait_exit(&mut self, secs: f64) -> Option<ExitStatus> {
        let end = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The moves of `bestmove` lines.
pub fn bestmoves<'a>(lines: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    lines
        .into_iter()
        .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
        .collect()
}

pub fn texts(lines: &[(Instant, String)]) -> Vec<String> {
    lines.iter().map(|(_, l)| l.clone()).collect()
}

/// Checks `mv` is legal in `game` (on a copy), naming both on failure.
pub fn assert_legal(game: &Game, mv: &str) {
    if let Err(e) = game.clone().play(mv) {
        panic!("`{mv}` is illegal at {}: {e}", game.label());
    }
}
