//! The session's line I/O: a reader thread that turns input lines into
//! [`Event`]s stamped with their arrival, and one writer thread that owns
//! the output, so that lines never interleave and nobody blocks on a slow
//! reader.

use super::SearchBackend;
use super::supervise::Finished;
use crate::aei::protocol::reply;
use crate::lineio::read_line_bounded;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Longest input line kept; the rest of a longer one is dropped and the
/// line reported as malformed (no controller sends anything near this).
pub(super) const MAX_LINE: usize = 64 * 1024;

/// Starts the writer thread on `output` and the reader thread on `input`,
/// which sends its events to `events`: the handle to write through.
pub(super) fn start<S, R, W>(input: R, output: W, events: Sender<Event<S>>) -> io::Result<Output>
where
    S: SearchBackend,
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (out_tx, out_rx) = mpsc::channel();
    let writer = thread::Builder::new()
        .name("aei-writer".into())
        .spawn(move || write_lines(output, out_rx));
    let reader = thread::Builder::new()
        .name("aei-reader".into())
        .spawn(move || read_lines(input, events));
    writer.and(reader)?;
    Ok(Output { tx: out_tx })
}

// ---------------------------------------------------------------- output

enum OutMsg {
    Line(String),
    /// Write everything before this, then acknowledge and stop.
    Close(Sender<()>),
}

/// The handle every part of the session writes through.
#[derive(Clone)]
pub(super) struct Output {
    tx: Sender<OutMsg>,
}

impl Output {
    pub(super) fn line(&self, line: String) {
        log::trace!("> {line}");
        // Fails only once the writer has stopped (the session is ending).
        let _ = self.tx.send(OutMsg::Line(line));
    }

    pub(super) fn log(&self, text: &str) {
        self.line(reply::log(text));
    }

    pub(super) fn error(&self, text: &str) {
        log::error!("{text}");
        self.log(&format!("Error: {text}"));
    }

    pub(super) fn warning(&self, text: &str) {
        log::warn!("{text}");
        self.log(&format!("Warning: {text}"));
    }

    /// Flushes what was sent before, waiting at most `wait` (stdout may be
    /// a pipe nobody reads any more).
    pub(super) fn close(&self, wait: Duration) {
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

pub(super) enum Event<S> {
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
