//! Running a match: checks every engine starts, plays the schedule on
//! `concurrency` worker threads (each keeps its own engine processes
//! between games and replaces any that failed), collects the results on
//! the calling thread (records appended as games finish, progress on
//! stderr, SPRT checked after every game), and stops cleanly on Ctrl-C or
//! an SPRT decision: games in progress are abandoned, everything finished
//! is written. The summary is also rewritten after every game, so that a
//! run that is killed can be continued (`--resume`): a resumed run starts
//! from the earlier summary's games and plays only the rest.

use super::output::{Appender, write_all, write_summary};
use super::process::{EngineProcess, Failure};
use super::referee::{Rules, Task, play_game, start_engine};
use super::result::MatchGame;
use super::schedule::{Mode, Scheduled, Shard, schedule};
use super::stats::{SprtDecision, estimate, fmt_elo};
use super::summary::{
    EngineNote, FORMAT, MatchConfig, NoteKind, Status, Summary, figures, paired_figures, report,
};
use crate::timeman::TimeControl;
use crate::{out, outln};
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// A match to run.
pub struct RunOptions {
    pub config: MatchConfig,
    /// The openings' moves (empty: engines set up themselves).
    pub openings: Vec<Vec<String>>,
    pub concurrency: u32,
    pub shard: Option<Shard>,
    pub out: PathBuf,
    /// Replace an earlier result in `out`.
    pub overwrite: bool,
    /// The summary of the interrupted run of this match to continue
    /// (`--resume`): its finished games count and are not played again.
    pub resume: Option<Summary>,
}

/// Flags the Ctrl-C handler raises. A process has one handler, so they
/// are global; `run` clears them when it starts.
struct Interrupt {
    presses: AtomicU32,
    flag: Arc<AtomicBool>,
}

static INTERRUPT: OnceLock<Interrupt> = OnceLock::new();

fn interrupt_flag() -> Arc<AtomicBool> {
    let i = INTERRUPT.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = Arc::clone(&flag);
        let handler = ctrlc::set_handler(move || {
            let Some(i) = INTERRUPT.get() else { return };
            let n = i.presses.fetch_add(1, Ordering::SeqCst) + 1;
            f.store(true, Ordering::SeqCst);
            if n == 1 {
                eprintln!("\nstopping: abandoning games in progress, writing results (Ctrl-C twice more to exit at once)");
            } else if n >= 3 {
                std::process::exit(130);
            }
        });
        if let Err(e) = handler {
            log::warn!("Ctrl-C will not stop the match cleanly: {e}");
        }
        Interrupt {
            presses: AtomicU32::new(0),
            flag,
        }
    });
    i.flag.store(false, Ordering::SeqCst);
    i.presses.store(0, Ordering::SeqCst);
    Arc::clone(&i.flag)
}

/// Each engine's time control: its own `tc=` or the match's. Every one
/// must limit a turn somehow, or a hung engine would stall the match.
pub fn engine_tcs(config: &MatchConfig) -> Result<Vec<TimeControl>> {
    let base = TimeControl::parse(&config.tc)?;
    let mut out = Vec::new();
    for e in &config.engines {
        let tc = match &e.tc {
            Some(t) => TimeControl::parse(t)?,
            None => base,
        };
        if tc.turn_deadline(tc.reserve, Duration::ZERO).is_none() {
            bail!(
                "time control `{}` of {} sets no limit on a turn (move, reserve, turn time and total are all 0): a hung engine would stall the match",
                e.tc.as_deref().unwrap_or(&config.tc),
                e.name
            );
        }
        out.push(tc);
    }
    Ok(out)
}

enum Msg {
    Done(Box<MatchGame>),
    Aborted,
}

/// The progress line: games done, score, Elo, LOS, SPRT.
struct Progress {
    tty: bool,
    start: Instant,
    width: usize,
}

impl Progress {
    fn draw(&mut self, line: &str, finished_game: Option<&MatchGame>) {
        let mut err = std::io::stderr().lock();
        if self.tty {
            // A line longer than the terminal would wrap and break the
            // redraw.
            let max = terminal_width().saturating_sub(1);
            let line: String = line.chars().take(max).collect();
            let line = line.as_str();
            let pad = self.width.saturating_sub(line.len());
            let _ = write!(err, "\r{line}{}", " ".repeat(pad));
            self.width = line.len();
        } else if let Some(g) = finished_game {
            let _ = writeln!(
                err,
                "game {}: {} beat {} by {} as {} | {line}",
                g.id,
                g.winner_name(),
                g.loser_name(),
                g.termination.name(),
                g.winner.name()
            );
        }
        let _ = err.flush();
    }

    fn finish(&mut self) {
        if self.tty && self.width > 0 {
            eprintln!();
        }
    }
}

/// Columns of the terminal on stderr (80 if unknown).
fn terminal_width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ only writes the winsize struct passed in.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut ws) };
        if r == 0 && ws.ws_col > 0 {
            return ws.ws_col as usize;
        }
    }
    80
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Starts each engine once and shuts it down, so a wrong command or a
/// broken engine stops the match before any game instead of losing them
/// all. Returns what the engines did that a strict controller would
/// refuse and the options they complained about, each already told on
/// stderr.
fn preflight(config: &MatchConfig, ready: Duration, abort: &AtomicBool) -> Result<Vec<EngineNote>> {
    let mut notes = Vec::new();
    for e in &config.engines {
        match start_engine(e, ready, abort) {
            Ok(p) => {
                let found = p
                    .notes
                    .iter()
                    .map(|t| (NoteKind::Handshake, t))
                    .chain(p.option_notes.iter().map(|t| (NoteKind::Option, t)));
                for (kind, text) in found {
                    eprintln!("warning: engine {}: {text}", e.name);
                    notes.push(EngineNote {
                        engine: e.name.clone(),
                        kind,
                        text: text.clone(),
                    });
                }
                p.quit();
            }
            Err((f, stderr, exchange)) => {
                let why = match f {
                    Failure::Fault(f) => format!("{}: {}", f.kind.name(), f.detail),
                    Failure::Timeout => "no answer".into(),
                    Failure::Aborted => bail!("interrupted"),
                };
                let mut msg = format!("engine {} is not ready: {why}", e.name);
                if !stderr.is_empty() {
                    msg.push_str("\nits stderr ends with:\n  ");
                    msg.push_str(&stderr.join("\n  "));
                }
                if !exchange.is_empty() {
                    msg.push_str("\nthe exchange ends with:\n  ");
                    msg.push_str(&exchange.join("\n  "));
                }
                bail!(msg);
            }
        }
    }
    Ok(notes)
}

/// Refuses settings no match can be played with: fewer than two engines,
/// two of one name, a time control that limits nothing, an SPRT over
/// several pairings, no worker.
pub fn check(config: &MatchConfig, concurrency: u32) -> Result<()> {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    if names.len() < 2 {
        bail!("a match needs at least two engines (--engine twice or more)");
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            bail!("two engines are named `{n}`: names must be unique");
        }
    }
    engine_tcs(config)?;
    let refs = config.references as usize;
    if refs == 0 || (refs > 1 && config.mode != Mode::Gauntlet) {
        bail!("--references must be at least 1, and more than 1 only in a gauntlet");
    }
    if config.mode == Mode::Gauntlet && names.len() <= refs {
        bail!(
            "a gauntlet with {refs} reference(s) needs at least one more engine (it has {})",
            names.len()
        );
    }
    if config.sprt.is_some() && config.pairs().len() != 1 && !config.sprt_is_paired() {
        bail!(
            "--sprt needs two engines, or a gauntlet with exactly two candidates (the SPRT then tests their paired difference)"
        );
    }
    if concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    Ok(())
}

/// Runs the match and writes its files; returns the summary.
pub fn run(opts: RunOptions) -> Result<Summary> {
    let config = &opts.config;
    check(config, opts.concurrency)?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let tcs = engine_tcs(config)?;
    let pairs = config.pairs();
    let mut games = schedule(
        &pairs,
        config.games,
        opts.openings.len(),
        opts.shard,
        config.mode == Mode::Gauntlet,
    );
    let scheduled = games.len() as u32;
    let prior = opts.resume.as_ref();
    if let Some(p) = prior {
        // The schedule depends only on the settings, so a game's id names
        // the same game in both runs.
        games.retain(|g| !p.games.iter().any(|d| d.id == g.id));
    }
    let margin = Duration::from_secs_f64(config.margin);
    let ready = Duration::from_secs_f64(config.ready_timeout);

    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("creating {}", opts.out.display()))?;
    if opts.out.join("summary.json").exists() && !opts.overwrite && prior.is_none() {
        bail!(
            "{} already holds a match (summary.json); pass --overwrite to replace it, --resume (alone) to continue it, or choose another --out",
            opts.out.display()
        );
    }

    // The games in progress (`aamir serve` shows them); files left by a
    // runner that was killed are not in progress any more.
    let live = opts.out.join("live");
    let _ = std::fs::remove_dir_all(&live);
    std::fs::create_dir_all(&live).with_context(|| format!("creating {}", live.display()))?;
    let live = &live;
    let interrupted = interrupt_flag();
    let abort = Arc::new(AtomicBool::new(false));
    let mut notes = preflight(config, ready, &interrupted)?;
    let mut appender = Appender::create(&opts.out, names.clone(), config.event.clone())?;
    let mut done: Vec<MatchGame> = Vec::new();
    let mut aborted = 0u32;
    let mut wins = vec![(0u32, 0u32); pairs.len()];
    let mut earlier_seconds = 0.0;
    if let Some(p) = prior {
        // The earlier games go back into the files first, so that the
        // records stay whole if this run is stopped too.
        for g in &p.games {
            appender.add(g)?;
            count_win(&mut wins, g, config, &pairs);
        }
        done.extend(p.games.iter().cloned());
        aborted = p.aborted;
        earlier_seconds = p.wall_seconds;
        notes.extend(p.notes.iter().cloned());
        notes.sort();
        notes.dedup();
    }

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<Msg>();
    let sprt_stops = config.sprt.is_some() && opts.shard.is_none();
    if config.sprt.is_some() && opts.shard.is_some() {
        eprintln!(
            "note: with --shard the SPRT does not stop this shard; `aamir match merge` reports it on all games"
        );
    }
    let mut status = Status::Complete;
    let mut progress = Progress {
        tty: std::io::stderr().is_terminal(),
        start: started,
        width: 0,
    };

    std::thread::scope(|scope| {
        for _ in 0..opts.concurrency.min(games.len().max(1) as u32) {
            let tx = tx.clone();
            let (next, games, abort) = (&next, &games, &abort);
            let (tcs, openings) = (&tcs, &opts.openings);
            scope.spawn(move || {
                let mut cache: Vec<Option<EngineProcess>> =
                    (0..config.engines.len()).map(|_| None).collect();
                loop {
                    if abort.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(g): Option<&Scheduled> = games.get(i) else {
                        break;
                    };
                    // Keep only this game's engines running.
                    for (k, slot) in cache.iter_mut().enumerate() {
                        if k != g.gold
                            && k != g.silver
                            && let Some(p) = slot.take()
                        {
                            p.quit();
                        }
                    }
                    let task = Task {
                        id: g.id,
                        round: g.round,
                        pairing: g.pairing,
                        opening_index: g.opening,
                        opening: g.opening.map_or(&[][..], |o| &openings[o][..]),
                        specs: [&config.engines[g.gold], &config.engines[g.silver]],
                    };
                    let rules = Rules {
                        tcs: [tcs[g.gold], tcs[g.silver]],
                        turn_limit: config.turn_limit,
                        margin,
                        ready_timeout: ready,
                        live: Some(live.clone()),
                    };
                    let (mut gs, mut ss) = (cache[g.gold].take(), cache[g.silver].take());
                    let r = play_game(&task, &rules, [&mut gs, &mut ss], abort);
                    cache[g.gold] = gs;
                    cache[g.silver] = ss;
                    let msg = match r {
                        Some(rec) => Msg::Done(Box::new(rec)),
                        None => Msg::Aborted,
                    };
                    if tx.send(msg).is_err() {
                        break;
                    }
                }
                for p in cache.into_iter().flatten() {
                    p.quit();
                }
            });
        }
        drop(tx);

        let total = scheduled as usize;
        let mut paired_text = String::new();
        let mut paired_sprt = None;
        loop {
            // Ctrl-C raises a global flag; passing it on from here keeps
            // the workers' view to one flag.
            if interrupted.load(Ordering::SeqCst) {
                abort.store(true, Ordering::SeqCst);
            }
            let msg = rx.recv_timeout(Duration::from_millis(100));
            let finished = match msg {
                Ok(Msg::Done(_)) if status == Status::Sprt => {
                    // Finished after the test decided: not part of it.
                    aborted += 1;
                    false
                }
                Ok(Msg::Done(rec)) => {
                    if let Err(e) = appender.add(&rec) {
                        eprintln!("\nwriting the records failed: {e:#}");
                    }
                    count_win(&mut wins, &rec, config, &pairs);
                    done.push(*rec);
                    // A snapshot after every game, so that a runner that is
                    // killed (not stopped with Ctrl-C) can still be resumed.
                    let snap = snapshot(
                        &opts,
                        &pairs,
                        Status::Interrupted,
                        scheduled,
                        &done,
                        aborted,
                        earlier_seconds + started.elapsed().as_secs_f64(),
                        &notes,
                    );
                    if let Err(e) = write_summary(&opts.out, &snap) {
                        eprintln!("\nwriting the summary failed: {e:#}");
                    }
                    true
                }
                Ok(Msg::Aborted) => {
                    aborted += 1;
                    false
                }
                Err(RecvTimeoutError::Timeout) => false,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if interrupted.load(Ordering::SeqCst) && status == Status::Complete {
                status = Status::Interrupted;
            }
            let mut line = format!(
                "[{}/{}] {}",
                done.len(),
                total,
                clock(progress.start.elapsed())
            );
            if pairs.len() > 1 {
                // Many pairings: each engine's total keeps the line short.
                for (k, n) in names.iter().enumerate() {
                    let (mut w, mut g) = (0, 0);
                    for (p, &(a, b)) in pairs.iter().enumerate() {
                        if a == k {
                            w += wins[p].0;
                        } else if b == k {
                            w += wins[p].1;
                        } else {
                            continue;
                        }
                        g += wins[p].0 + wins[p].1;
                    }
                    line.push_str(&format!(" | {n} {w}/{g}"));
                }
            }
            if finished && !config.candidates().is_empty() {
                // The first two candidates' pairs over every reference.
                paired_text.clear();
                paired_sprt = None;
                if let Some(t) = paired_figures(config, &done)
                    .into_iter()
                    .find(|t| config.references == 1 || t.reference == "all")
                {
                    let c = t.counts;
                    paired_text = format!(
                        " | paired {} +{} -{} {}: Elo {} z {:.2}",
                        t.first, c.first_only, c.second_only, t.second, t.elo_text, t.z
                    );
                    paired_sprt = t.sprt;
                }
            }
            line.push_str(&paired_text);
            let mut sprt_state = paired_sprt;
            for (p, &(a, b)) in pairs.iter().enumerate().filter(|_| pairs.len() == 1) {
                let sprt = config.sprt.filter(|_| !config.sprt_is_paired());
                let (wa, wb) = wins[p];
                let e = estimate(wa, wa + wb);
                line.push_str(&format!(
                    " | {} {}-{} {}: Elo {} [{}, {}] LOS {:.1}%",
                    names[a],
                    wa,
                    wb,
                    names[b],
                    fmt_elo(e.elo),
                    fmt_elo(e.elo_low),
                    fmt_elo(e.elo_high),
                    100.0 * e.los
                ));
                if let Some(s) = sprt {
                    sprt_state = Some(s.state(wa, wb));
                }
            }
            // One test at most: a single pairing's, or the candidates'
            // paired difference.
            if let Some(st) = sprt_state {
                line.push_str(&format!(
                    " LLR {:.2} [{:.2}, {:.2}]",
                    st.llr, st.lower, st.upper
                ));
                if sprt_stops && st.decision != SprtDecision::Continue && status == Status::Complete
                {
                    status = Status::Sprt;
                    abort.store(true, Ordering::SeqCst);
                }
            }
            progress.draw(&line, if finished { done.last() } else { None });
        }
    });
    progress.finish();

    // Interrupted or stopped games that never started count for nothing;
    // report the ones cut off in play.
    let status = if status == Status::Complete && done.len() < scheduled as usize {
        Status::Interrupted
    } else {
        status
    };
    let summary = snapshot(
        &opts,
        &pairs,
        status,
        scheduled,
        &done,
        aborted,
        earlier_seconds + started.elapsed().as_secs_f64(),
        &notes,
    );
    write_all(&opts.out, &summary)?;
    out!("{}", report(&summary))?;
    outln!("results in {}", opts.out.display())?;
    Ok(summary)
}

/// Adds a finished game to its pairing's wins (first engine, second).
fn count_win(
    wins: &mut [(u32, u32)],
    g: &MatchGame,
    config: &MatchConfig,
    pairs: &[(usize, usize)],
) {
    let w = &mut wins[g.pairing];
    if g.winner_name() == config.engines[pairs[g.pairing].0].name {
        w.0 += 1;
    } else {
        w.1 += 1;
    }
}

/// The match's summary with the games finished so far.
#[allow(clippy::too_many_arguments)]
fn snapshot(
    opts: &RunOptions,
    pairs: &[(usize, usize)],
    status: Status,
    scheduled: u32,
    done: &[MatchGame],
    aborted: u32,
    wall_seconds: f64,
    notes: &[EngineNote],
) -> Summary {
    let mut games = done.to_vec();
    games.sort_by_key(|g| g.id);
    let (p, e) = figures(&opts.config, pairs, &games);
    Summary {
        format: FORMAT,
        config: opts.config.clone(),
        shards: opts.shard.into_iter().collect(),
        status,
        scheduled,
        played: games.len() as u32,
        aborted,
        concurrency: opts.concurrency,
        wall_seconds,
        pairings: p,
        engines: e,
        paired: paired_figures(&opts.config, &games),
        notes: notes.to_vec(),
        games,
    }
}
