//! One engine process: started in its own process group (so a Ctrl-C at the
//! terminal reaches the match runner, not the engines), spoken to over
//! stdin/stdout, its stderr and the last lines of the exchange kept for the
//! failure report. A reader thread stamps every line with the moment it
//! arrived, so move times do not depend on when the referee looks.

use super::protocol::{EngineLine, parse_engine_line};
use super::spec::EngineSpec;
use crate::lineio::read_line_bounded;
use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Calls `each` with every line of `r` (cut at [`MAX_LINE`], a trailing `\r`
/// dropped) and the moment it arrived, until the end of the output or a
/// read error (true) or until `each` returns false (false).
fn for_each_line(r: impl Read, mut each: impl FnMut(String, Instant) -> bool) -> bool {
    let mut r = BufReader::new(r);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line_bounded(&mut r, &mut buf, MAX_LINE) {
            Ok(None) | Err(_) => return true,
            Ok(Some(_)) => {
                let at = Instant::now();
                let text = String::from_utf8_lossy(&buf)
                    .trim_end_matches('\r')
                    .to_string();
                if !each(text, at) {
                    return false;
                }
            }
        }
    }
}

/// Lines of stderr and of the exchange kept for a failure report.
const TAIL_LINES: usize = 40;
/// Longer lines are cut (and such a line is garbage anyway).
const MAX_LINE: usize = 64 * 1024;
/// How often waits look at the abort flag.
const POLL: Duration = Duration::from_millis(50);
/// The pre-2009 names of the clock options AEI's roundrobin sends to an
/// engine without a leading `protocol-version` line (`pyrimaa/game.py`).
pub const LEGACY_CLOCK_OPTIONS: [&str; 3] = ["wreserve", "breserve", "tcmoveused"];

/// What went wrong with an engine, as the referee scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// The program could not be started.
    Spawn,
    /// The process exited or closed its output.
    Exited,
    /// No answer to `aei` or `isready` in time.
    Hang,
    /// A line that is not an AEI message.
    Garbage,
    /// A valid message at the wrong time (e.g. `bestmove` without `go`).
    Protocol,
    /// No `bestmove` before the deadline plus the lag margin (a time loss,
    /// kept with the exchange like a fault).
    Time,
    /// A move the rules refuse.
    Illegal,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Spawn => "could not start",
            FaultKind::Exited => "crashed",
            FaultKind::Hang => "hung",
            FaultKind::Garbage => "garbage output",
            FaultKind::Protocol => "protocol error",
            FaultKind::Time => "out of time",
            FaultKind::Illegal => "illegal move",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// Why a wait ended without what it waited for.
#[derive(Clone, Debug)]
pub enum Failure {
    Fault(Fault),
    /// The deadline passed (only `go` has a deadline that is a time loss).
    Timeout,
    /// The match is being stopped.
    Aborted,
}

impl From<Fault> for Failure {
    fn from(f: Fault) -> Failure {
        Failure::Fault(f)
    }
}

enum Event {
    Line(String, Instant),
    Closed,
}

pub struct EngineProcess {
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The thread reading stderr: after a kill it is given a moment to
    /// take the last lines, which a crashing engine writes just before it
    /// exits, so that the failure report shows them.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    transcript: VecDeque<String>,
    started: Instant,
    closed: bool,
    reaped: bool,
    /// `id` lines from the handshake.
    pub ident: Vec<(String, String)>,
    /// The engine did not open its answer to `aei` with `protocol-version`:
    /// AEI's controllers then speak the pre-2009 dialect to it, which for
    /// a match means also sending the old clock options (`wreserve`,
    /// `breserve`, `tcmoveused`).
    pub legacy: bool,
    /// What the engine did in the handshake that the AEI specification
    /// does not allow but AEI's controllers put up with.
    pub notes: Vec<String>,
    /// The user's options (`option.KEY=VALUE`) the engine answered with
    /// `log Error` or `log Warning`, with that answer.
    pub option_notes: Vec<String>,
}

fn push_tail(q: &mut VecDeque<String>, line: String) {
    if q.len() == TAIL_LINES {
        q.pop_front();
    }
    q.push_back(line);
}

fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// The program path: one with a `/` is taken relative to the runner's
/// directory, not the engine's `dir`, so `cmd=target/release/aamir` means
/// the same whatever `dir` is.
fn resolve_program(p: &str) -> PathBuf {
    let path = PathBuf::from(p);
    if p.contains('/')
        && path.is_relative()
        && let Ok(cwd) = std::env::current_dir()
    {
        return cwd.join(path);
    }
    path
}

impl EngineProcess {
    /// Starts the program of `spec`.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, Fault> {
        let program = resolve_program(&spec.command[0]);
        let mut cmd = Command::new(&program);
        cmd.args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| {
            Fault::new(
                FaultKind::Spawn,
                format!(
                    "could not start `{}`{}: {e}",
                    spec.command.join(" "),
                    spec.dir
                        .as_ref()
                        .map(|d| format!(" in {}", d.display()))
                        .unwrap_or_default()
                ),
            )
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, rx) = channel();
        if let Some(out) = stdout {
            std::thread::spawn(move || {
                if for_each_line(out, |text, at| tx.send(Event::Line(text, at)).is_ok()) {
                    let _ = tx.send(Event::Closed);
                }
            });
        }
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let mut stderr_reader = None;
        if let Some(err) = stderr {
            let tail = Arc::clone(&stderr_tail);
            stderr_reader = Some(std::thread::spawn(move || {
                for_each_line(err, |text, _| {
                    if let Ok(mut q) = tail.lock() {
                        push_tail(&mut q, clip(&text, 500));
                    }
                    true
                });
            }));
        }
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            rx,
            stderr_tail,
            stderr_reader,
            transcript: VecDeque::new(),
            started: Instant::now(),
            closed: false,
            reaped: false,
            ident: Vec::new(),
            legacy: false,
            notes: Vec::new(),
            option_notes: Vec::new(),
        })
    }

    fn note(&mut self, dir: &str, line: &str) {
        let t = self.started.elapsed().as_secs_f64();
        push_tail(
            &mut self.transcript,
            format!("{t:9.3}s {dir} {}", clip(line, 300)),
        );
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.note(">", line);
        let ok = match self.stdin.as_mut() {
            Some(w) => w
                .write_all(line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .and_then(|_| w.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Fault::new(
                FaultKind::Exited,
                format!(
                    "could not send `{line}`: the engine has closed its input{}",
                    self.exit_status()
                ),
            ))
        }
    }

    pub fn setoption(&mut self, name: &str, value: &str) -> Result<(), Fault> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `, exit status 3` when the process has ended, else empty.
    fn exit_status(&mut self) -> String {
        // A process that closed its output is usually about to end.
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(st)) => {
                    self.reaped = true;
                    return match st.code() {
                        Some(c) => format!(" (exit status {c})"),
                        None => {
                            #[cfg(unix)]
                            {
                                use std::os::unix::process::ExitStatusExt;
                                if let Some(s) = st.signal() {
                                    return format!(" (killed by signal {s})");
                                }
                            }
                            " (ended)".to_string()
                        }
                    };
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        String::new()
    }

    /// The next line before `deadline`, stamped with its arrival.
    fn next_line(
        &mut self,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<(EngineLine, String, Instant), Failure> {
        loop {
            if self.closed {
                let st = self.exit_status();
                return Err(Fault::new(
                    FaultKind::Exited,
                    format!("the engine closed its output{st}"),
                )
                .into());
            }
            if abort.load(Ordering::Relaxed) {
                return Err(Failure::Aborted);
            }
            let now = Instant::now();
            let event = if now >= deadline {
                // A line stamped before the deadline still counts even if
                // it is only looked at now.
                match self.rx.try_recv() {
                    Ok(Event::Line(text, at)) if at <= deadline => Ok(Event::Line(text, at)),
                    Ok(Event::Closed) | Err(TryRecvError::Disconnected) => Ok(Event::Closed),
                    _ => return Err(Failure::Timeout),
                }
            } else {
                self.rx.recv_timeout((deadline - now).min(POLL))
            };
            match event {
                Ok(Event::Line(text, at)) => {
                    self.note("<", &text);
                    let parsed = parse_engine_line(&text);
                    if parsed != EngineLine::Blank {
                        return Ok((parsed, text, at));
                    }
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// `aei` and the answers up to `aeiok`, taken as AEI's own
    /// controllers (`pyrimaa.aei.EngineController`) take them: every line
    /// before `aeiok` is read, `protocol-version` counts only as the very
    /// first line (otherwise the engine speaks the pre-2009 dialect, as
    /// akimot does with no such line and Yeti with a `log` line before it),
    /// and `id`, `info`, `log` may come in any order. What a strict reading
    /// of the specification would refuse is kept in `notes`.
    pub fn handshake(&mut self, timeout: Duration, abort: &AtomicBool) -> Result<(), Failure> {
        self.send("aei")?;
        let deadline = Instant::now() + timeout;
        let mut first = true;
        let mut seen_version = false;
        loop {
            let (line, text, _) = self.next_line(deadline, abort).map_err(|f| match f {
                Failure::Timeout => Fault::new(
                    FaultKind::Hang,
                    format!("no `aeiok` within {:.1}s of `aei`", timeout.as_secs_f64()),
                )
                .into(),
                f => f,
            })?;
            let was_first = std::mem::replace(&mut first, false);
            if was_first && !matches!(line, EngineLine::ProtocolVersion(_)) {
                self.legacy = true;
            }
            match line {
                EngineLine::ProtocolVersion(v) => {
                    if v != "1" {
                        self.notes.push(format!(
                            "announced `protocol-version {}`; only version 1 exists, spoken to it as version 1",
                            clip(&v, 60)
                        ));
                    }
                    if !was_first && !seen_version {
                        self.notes.push(format!(
                            "`protocol-version` is not the first line after `aei`: AEI's controllers take such an engine for the pre-2009 dialect, so the old clock options ({}) are sent too",
                            LEGACY_CLOCK_OPTIONS.join(", ")
                        ));
                    }
                    seen_version = true;
                }
                EngineLine::Id { key, value } => self.ident.push((key, value)),
                EngineLine::AeiOk => break,
                EngineLine::Info(_) | EngineLine::Log(_) => {}
                EngineLine::Garbage(g) if g.trim().to_ascii_lowercase().starts_with("aeiok") => {
                    // AEI's controllers match the start of the line, in any case.
                    self.notes.push(format!(
                        "ended its handshake with `{}` instead of `aeiok`",
                        clip(g.trim(), 60)
                    ));
                    break;
                }
                _ => {
                    // AEI's controllers read past anything before `aeiok`.
                    self.notes.push(format!(
                        "`{}` before `aeiok` is not a handshake message; ignored, as AEI's controllers do",
                        clip(&text, 120)
                    ));
                }
            }
        }
        if !seen_version {
            self.notes.push(format!(
                "no `protocol-version 1` line: a pre-2009 engine; the old clock options ({}) are sent next to the new ones, as AEI's roundrobin does",
                LEGACY_CLOCK_OPTIONS.join(", ")
            ));
        }
        if !self.ident.iter().any(|(k, _)| k == "name") {
            self.notes
                .push("no `id name` line (AEI's roundrobin needs one to log the game)".into());
        }
        Ok(())
    }

    /// `isready` and wait for `readyok`.
    pub fn isready(&mut self, timeout: Duration, abort: &AtomicBool) -> Result<(), Failure> {
        self.isready_logs(timeout, abort).map(|_| ())
    }

    /// `isready`, returning the `log` lines (their text after `log`) that
    /// came before `readyok`: what the engine said about the commands
    /// sent since the last sync point.
    pub fn isready_logs(
        &mut self,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<Vec<String>, Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut logs = Vec::new();
        loop {
            let (line, text, _) = self.next_line(deadline, abort).map_err(|f| match f {
                Failure::Timeout => Fault::new(
                    FaultKind::Hang,
                    format!(
                        "no `readyok` within {:.1}s of `isready`",
                        timeout.as_secs_f64()
                    ),
                )
                .into(),
                f => f,
            })?;
            match line {
                EngineLine::ReadyOk => return Ok(logs),
                EngineLine::Log(l) => logs.push(l),
                EngineLine::Info(_) => {}
                other => {
                    return Err(self
                        .unexpected(other, &text, "while not asked to move (before `readyok`)")
                        .into());
                }
            }
        }
    }

    fn unexpected(&self, line: EngineLine, text: &str, when: &str) -> Fault {
        match line {
            EngineLine::Garbage(g) => {
                Fault::new(FaultKind::Garbage, format!("`{}` {when}", clip(&g, 200)))
            }
            _ => Fault::new(FaultKind::Protocol, format!("`{text}` {when}")),
        }
    }

    /// Reads what the engine said since the last wait (between turns only
    /// `info` and `log` are acceptable).
    pub fn drain(&mut self) -> Result<(), Fault> {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Line(text, _) => {
                    self.note("<", &text);
                    match parse_engine_line(&text) {
                        EngineLine::Info(_) | EngineLine::Log(_) | EngineLine::Blank => {}
                        other => {
                            return Err(self.unexpected(other, &text, "while not asked to move"));
                        }
                    }
                }
                Event::Closed => {
                    self.closed = true;
                    let st = self.exit_status();
                    return Err(Fault::new(
                        FaultKind::Exited,
                        format!("the engine closed its output{st}"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `go`, then wait for `bestmove` until `deadline`. Returns the move
    /// text and when it arrived.
    pub fn go(
        &mut self,
        deadline: Instant,
        abort: &AtomicBool,
    ) -> Result<(String, Instant), Failure> {
        self.send("go")?;
        loop {
            let (line, text, at) = self.next_line(deadline, abort)?;
            match line {
                EngineLine::BestMove(m) => return Ok((m, at)),
                EngineLine::Info(_) | EngineLine::Log(_) => {}
                other => return Err(self.unexpected(other, &text, "while searching").into()),
            }
        }
    }

    /// The last lines of stderr and of the exchange.
    pub fn tails(&self) -> (Vec<String>, Vec<String>) {
        let err = self
            .stderr_tail
            .lock()
            .map(|q| q.iter().cloned().collect())
            .unwrap_or_default();
        (err, self.transcript.iter().cloned().collect())
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reaped = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the engine's whole process group and reaps it.
    pub fn kill(&mut self) {
        if !self.reaped {
            self.end_process();
        }
        // The pipe ends with the process group; wait a little for the
        // reader to reach its end (bounded: a stray holder of the pipe
        // must not stall the match).
        if let Some(h) = self.stderr_reader.take() {
            let until = Instant::now() + Duration::from_millis(300);
            while !h.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
    }

    /// Kills the process and its group, and reaps it.
    fn end_process(&mut self) {
        #[cfg(unix)]
        {
            // The group id is the child's pid (process_group(0)); killing the
            // group also ends anything a wrapper script started.
            let pid = self.child.id() as libc::pid_t;
            // SAFETY: killpg has no memory effects; a stale id at worst
            // fails with ESRCH.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
