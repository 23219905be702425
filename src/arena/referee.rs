//! Plays one game between two engine processes, the way AEI's own
//! controller does, with every move checked by the rules core:
//!
//! - before the game: the `tc*` options, `opponent`, `newgame`, `isready`,
//!   then the opening moves (if any) as `makemove` to both;
//! - each turn: `greserve`, `sreserve`, `moveused 0`, then `go`; the clock
//!   runs from just before `go` to the arrival of `bestmove`; an engine
//!   without a leading `protocol-version` line first gets the pre-2009
//!   names `wreserve`, `breserve`, `tcmoveused 0` too, as roundrobin sends;
//! - the deadline is `tcmove` + reserve, capped by `tcturntime` and by what
//!   is left of `tctotal`; past it plus the lag margin the side loses on
//!   time (or, if the game total was what ran out, the game is decided by
//!   score as arimaa.com does);
//! - after a move (not a setup) the reserve changes by `tcmove - used`,
//!   gains scaled by `tcpercent`, capped at `tcmax`;
//! - the move goes through `Game::play`: an illegal move, a third
//!   repetition or an unchanged board loses; a legal one is sent to both
//!   engines as `makemove` in canonical notation;
//! - a crash, a hang, garbage or a protocol error loses, with the engine's
//!   stderr and the last lines of the exchange kept; that process is
//!   killed and the runner starts a fresh one for the next game.
//!
//! Turn limit and game total: the arimaa.com match rule decides ("the
//! player who currently has or most recently had more pieces left after
//! the completion of a turn wins; otherwise silver wins"), as the rules'
//! [`Judge`] keeps it.

use super::process::{EngineProcess, Failure, Fault, FaultKind};
use super::result::{FaultRecord, MatchGame, MoveRecord, Side, Termination};
use super::spec::EngineSpec;
use crate::board::{Judge, Phase};
use crate::timeman::TimeControl;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How the referee runs a game.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Time control of gold and silver (the same unless time odds).
    pub tcs: [TimeControl; 2],
    /// Turn limit by record move number (the setup is move 1): the game is
    /// decided by score once silver has completed this move.
    pub turn_limit: Option<u32>,
    /// Lag allowed past a deadline before a time loss.
    pub margin: Duration,
    /// Limit for `aeiok` and `readyok`.
    pub ready_timeout: Duration,
    /// Folder of the games in progress (`DIR/live`): each game keeps its
    /// moves there as a movelist file, rewritten after every move and
    /// removed when the game ends, so that `aamir serve` can show it.
    pub live: Option<PathBuf>,
}

/// One game to play.
pub struct Task<'a> {
    pub id: u32,
    pub round: u32,
    pub pairing: usize,
    pub opening_index: Option<usize>,
    /// Moves (in notation) played before the engines take over.
    pub opening: &'a [String],
    /// Gold's and silver's engines.
    pub specs: [&'a EngineSpec; 2],
}

/// Starts an engine and gets it ready: handshake, its options, `isready`.
/// On failure, the failure with the process's stderr and exchange.
pub fn start_engine(
    spec: &EngineSpec,
    ready_timeout: Duration,
    abort: &AtomicBool,
) -> Result<EngineProcess, (Failure, Vec<String>, Vec<String>)> {
    let mut p = EngineProcess::spawn(spec).map_err(|f| (f.into(), vec![], vec![]))?;
    let r = (|| {
        p.handshake(ready_timeout, abort)?;
        // A sync point first, so that what the engine says after `aeiok`
        // is not taken for an answer to the first option.
        p.isready(ready_timeout, abort)?;
        for (k, v) in &spec.options {
            p.setoption(k, v)?;
            // One option per sync point: the engine's complaint, if any,
            // is about this option and no other.
            for l in p.isready_logs(ready_timeout, abort)? {
                if is_complaint(&l) {
                    p.option_notes
                        .push(format!("option.{k}={v}: the engine answered `log {l}`"));
                }
            }
        }
        Ok(())
    })();
    match r {
        Ok(()) => Ok(p),
        Err(f) => {
            p.kill();
            let (e, x) = p.tails();
            Err((f, e, x))
        }
    }
}

/// A `log` line that reports a problem: AEI's `log Error: ...` and
/// `log Warning: ...` (any case, with or without the colon).
pub fn is_complaint(log: &str) -> bool {
    let head: String = log
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    head == "error" || head == "warning"
}

/// Seconds as AEI options carry them: whole numbers when the time control
/// is in whole seconds (AEI's controller sends integers, and some engines
/// parse only those), else up to millisecond precision.
pub fn fmt_secs(d: Duration, whole: bool) -> String {
    if whole {
        return d.as_secs().to_string();
    }
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn whole_seconds(tc: &TimeControl) -> bool {
    [
        tc.per_move,
        tc.reserve,
        tc.max_reserve,
        tc.total,
        tc.turn_time,
    ]
    .iter()
    .all(|d| d.subsec_nanos() == 0)
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The game in progress and what the record needs.
struct Referee<'a> {
    task: &'a Task<'a>,
    rules: &'a Rules,
    procs: [Option<EngineProcess>; 2],
    /// The game under the rules (the same judge `aamir gen` plays through).
    judge: Judge,
    moves: Vec<MoveRecord>,
    start_unix: u64,
    started: Instant,
}

/// How the loop ended.
struct End {
    winner: Side,
    termination: Termination,
    detail: String,
    attempted: Option<String>,
    fault: Option<FaultRecord>,
}

impl<'a> Referee<'a> {
    fn name(&self, side: Side) -> &str {
        &self.task.specs[side.index()].name
    }

    /// `side` loses for `fault`; its process is killed and dropped.
    fn forfeit(
        &mut self,
        side: Side,
        termination: Termination,
        fault: Fault,
        attempted: Option<String>,
    ) -> End {
        let (stderr, exchange) = match self.procs[side.index()].take() {
            Some(mut p) => {
                if termination != Termination::Illegal {
                    p.kill();
                } else {
                    // An engine that sent an illegal move is still sound;
                    // keep it for the next game.
                    let t = p.tails();
                    self.procs[side.index()] = Some(p);
                    return self.end_with(side, termination, fault, attempted, t.0, t.1);
                }
                p.tails()
            }
            None => (vec![], vec![]),
        };
        self.end_with(side, termination, fault, attempted, stderr, exchange)
    }

    fn end_with(
        &self,
        side: Side,
        termination: Termination,
        fault: Fault,
        attempted: Option<String>,
        stderr: Vec<String>,
        exchange: Vec<String>,
    ) -> End {
        let detail = format!(
            "{} ({}) {}: {}",
            self.name(side),
            side.name(),
            fault.kind.name(),
            fault.detail
        );
        End {
            winner: side.other(),
            termination,
            detail,
            attempted,
            fault: Some(FaultRecord {
                engine: self.name(side).to_string(),
                side,
                kind: fault.kind,
                detail: fault.detail,
                stderr,
                exchange,
            }),
        }
    }

    /// The game decided by the arimaa.com scoring rule.
    fn by_score(&self, why: String) -> End {
        let v = self.judge.by_score();
        let (winner, g, s) = (Side::from(v.winner), v.gold, v.silver);
        End {
            winner,
            termination: Termination::Score,
            detail: format!(
                "{why}; pieces gold {g}, silver {s}; {} wins by score",
                winner.name()
            ),
            attempted: None,
            fault: None,
        }
    }

    /// Options and `newgame` for both, then the opening.
    fn prepare(&mut self, abort: &AtomicBool) -> Result<(), (Side, Failure)> {
        for side in [Side::Gold, Side::Silver] {
            let tc = self.rules.tcs[side.index()];
            let whole = whole_seconds(&tc);
            let turns = match (tc.turns, self.rules.turn_limit) {
                (0, None) => 0,
                (0, Some(l)) => l,
                (t, None) => t,
                (t, Some(l)) => t.min(l),
            };
            let opponent = self.name(side.other()).to_string();
            let p = self.procs[side.index()].as_mut().expect("engine started");
            let r = (|| {
                p.drain()?;
                p.setoption("tcmove", &fmt_secs(tc.per_move, whole))?;
                p.setoption("tcreserve", &fmt_secs(tc.reserve, whole))?;
                p.setoption("tcpercent", &tc.percent.to_string())?;
                p.setoption("tcmax", &fmt_secs(tc.max_reserve, whole))?;
                p.setoption("tctotal", &fmt_secs(tc.total, whole))?;
                p.setoption("tcturns", &turns.to_string())?;
                p.setoption("tcturntime", &fmt_secs(tc.turn_time, whole))?;
                p.setoption("opponent", &opponent)?;
                p.send("newgame")
            })();
            r.map_err(|f: Fault| (side, f.into()))?;
        }
        for side in [Side::Gold, Side::Silver] {
            let p = self.procs[side.index()].as_mut().expect("engine started");
            p.isready(self.rules.ready_timeout, abort)
                .map_err(|f| (side, f))?;
        }
        for text in self.task.opening {
            let label = self.judge.game().label();
            // The openings were checked when the file was read.
            let played = self.judge.play(text).map_err(|e| {
                (
                    Side::Gold,
                    Fault::new(FaultKind::Protocol, format!("opening move {label}: {e}")).into(),
                )
            })?;
            self.moves.push(MoveRecord {
                label,
                text: played.notation.clone(),
                used: None,
                reserve: None,
            });
            self.write_live();
            for side in [Side::Gold, Side::Silver] {
                let p = self.procs[side.index()].as_mut().expect("engine started");
                p.send(&format!("makemove {}", played.notation))
                    .map_err(|f| (side, f.into()))?;
            }
        }
        Ok(())
    }

    /// Plays turns until the game ends. `None` when aborted.
    fn play_turns(&mut self, abort: &AtomicBool) -> Option<End> {
        let mut reserves = [self.rules.tcs[0].reserve, self.rules.tcs[1].reserve];
        let game_start = Instant::now();
        loop {
            let game = self.judge.game();
            if let Some(o) = game.outcome() {
                return Some(End {
                    winner: o.winner.into(),
                    termination: o.reason.into(),
                    detail: format!("{} wins by {}", o.winner.name(), o.reason.name()),
                    attempted: None,
                    fault: None,
                });
            }
            let playing = game.phase() == Phase::Play;
            if let Some(limit) = self.effective_turn_limit()
                && playing
                && game.move_number() > limit
            {
                return Some(self.by_score(format!("turn limit {limit} reached")));
            }
            let side = Side::from(game.side());
            let tc = self.rules.tcs[side.index()];
            let elapsed = game_start.elapsed();
            if !tc.total.is_zero() && elapsed >= tc.total {
                return Some(self.by_score("game time total reached".into()));
            }
            let full = tc
                .turn_deadline(reserves[side.index()], elapsed)
                .unwrap_or(Duration::MAX);
            let own = TimeControl {
                total: Duration::ZERO,
                ..tc
            }
            .turn_deadline(reserves[side.index()], elapsed)
            .unwrap_or(Duration::MAX);
            let total_binds = full < own;
            let whole = whole_seconds(&tc);
            let label = game.label();
            let ready = self.rules.ready_timeout;
            let p = self.procs[side.index()].as_mut().expect("engine started");
            // `isready` before each turn (off the clock) is a sync point: a
            // second `bestmove` for the last `go` is always seen before
            // `readyok` and never taken for the answer to the next `go`.
            let sent = (|| {
                p.isready(ready, abort)?;
                if p.legacy {
                    // What AEI's roundrobin sends a pre-2009 engine, in
                    // its order and, as it does, in whole seconds.
                    p.setoption("wreserve", &reserves[0].as_secs().to_string())?;
                    p.setoption("breserve", &reserves[1].as_secs().to_string())?;
                    p.setoption("tcmoveused", "0")?;
                }
                p.setoption("greserve", &fmt_secs(reserves[0], whole))?;
                p.setoption("sreserve", &fmt_secs(reserves[1], whole))?;
                p.setoption("moveused", "0")?;
                Ok(())
            })();
            match sent {
                Ok(()) => {}
                Err(Failure::Aborted) => return None,
                Err(Failure::Fault(f)) => {
                    return Some(self.forfeit(side, Termination::Crash, f, None));
                }
                Err(Failure::Timeout) => {
                    let f = Fault::new(FaultKind::Hang, "no `readyok` before its turn");
                    return Some(self.forfeit(side, Termination::Crash, f, None));
                }
            }
            let p = self.procs[side.index()].as_mut().expect("engine started");
            let start = Instant::now();
            let limit = full.saturating_add(self.rules.margin);
            let deadline = start
                .checked_add(limit)
                .unwrap_or(start + Duration::from_secs(1 << 40));
            let answer = p.go(deadline, abort);
            let (text, at) = match answer {
                Err(Failure::Aborted) => return None,
                Err(Failure::Timeout) => {
                    if total_binds {
                        // The game's total ran out, not the side's clock.
                        if let Some(mut p) = self.procs[side.index()].take() {
                            p.kill();
                        }
                        return Some(self.by_score("game time total reached".into()));
                    }
                    let f = Fault::new(
                        FaultKind::Time,
                        format!(
                            "no bestmove for {label} within {:.3}s (deadline {:.3}s + lag margin {:.3}s)",
                            limit.as_secs_f64(),
                            full.as_secs_f64(),
                            self.rules.margin.as_secs_f64()
                        ),
                    );
                    return Some(self.forfeit(side, Termination::Time, f, None));
                }
                Err(Failure::Fault(f)) => {
                    return Some(self.forfeit(side, Termination::Crash, f, None));
                }
                Ok(x) => x,
            };
            let used = at.saturating_duration_since(start);
            if used > limit {
                let f = Fault::new(
                    FaultKind::Time,
                    format!(
                        "bestmove for {label} after {:.3}s, limit {:.3}s",
                        used.as_secs_f64(),
                        limit.as_secs_f64()
                    ),
                );
                return Some(self.forfeit(side, Termination::Time, f, None));
            }
            if text.trim().eq_ignore_ascii_case("resign") {
                return Some(End {
                    winner: side.other(),
                    termination: Termination::Resign,
                    detail: format!("{} ({}) resigned at {label}", self.name(side), side.name()),
                    attempted: None,
                    fault: None,
                });
            }
            let was_setup = matches!(self.judge.game().phase(), Phase::Setup(_));
            let played = match self.judge.play(&text) {
                Ok(p) => p,
                Err(e) => {
                    let f = Fault::new(FaultKind::Illegal, format!("{label} `{text}`: {e}"));
                    return Some(self.forfeit(side, Termination::Illegal, f, Some(text)));
                }
            };
            if !was_setup {
                reserves[side.index()] = tc.reserve_after(reserves[side.index()], used);
            }
            self.moves.push(MoveRecord {
                label,
                text: played.notation.clone(),
                used: Some(used.as_secs_f64()),
                reserve: Some(reserves[side.index()].as_secs_f64()),
            });
            self.write_live();
            if self.judge.game().outcome().is_none() {
                for s in [side, side.other()] {
                    let p = self.procs[s.index()].as_mut().expect("engine started");
                    if let Err(f) = p.send(&format!("makemove {}", played.notation)) {
                        return Some(self.forfeit(s, Termination::Crash, f, None));
                    }
                }
            }
        }
    }

    /// This game's file among the games in progress.
    fn live_path(&self) -> Option<PathBuf> {
        let dir = self.rules.live.as_ref()?;
        Some(dir.join(format!("game-{}.txt", self.task.id)))
    }

    /// Rewrites the game's live file: the players as comment lines, then
    /// the moves one a line, a movelist file `aamir analyze --game` reads.
    /// Written beside and renamed, so that a reader never sees half a
    /// file. A failure only costs the live view, never the game.
    fn write_live(&self) {
        let Some(path) = self.live_path() else {
            return;
        };
        let mut text = format!(
            "# game {}\n# gold {}\n# silver {}\n",
            self.task.id,
            self.name(Side::Gold),
            self.name(Side::Silver)
        );
        for m in &self.moves {
            text.push_str(&format!("{} {}\n", m.label, m.text));
        }
        let part = path.with_extension("part");
        let written = std::fs::write(&part, text).and_then(|()| std::fs::rename(&part, &path));
        if let Err(e) = written {
            log::warn!("live file {}: {e}", path.display());
        }
    }

    fn effective_turn_limit(&self) -> Option<u32> {
        let from_tc = self
            .rules
            .tcs
            .iter()
            .map(|t| t.turns)
            .filter(|&t| t > 0)
            .min();
        match (from_tc, self.rules.turn_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Plays one game. `slots` hold gold's and silver's processes: an empty
/// slot is filled with a fresh process, a process at fault is killed and
/// its slot left empty. Returns `None` if `abort` was raised meanwhile.
pub fn play_game(
    task: &Task,
    rules: &Rules,
    slots: [&mut Option<EngineProcess>; 2],
    abort: &AtomicBool,
) -> Option<MatchGame> {
    let [gold_slot, silver_slot] = slots;
    let mut r = Referee {
        task,
        rules,
        procs: [gold_slot.take(), silver_slot.take()],
        judge: Judge::new(),
        moves: Vec::new(),
        start_unix: unix_now(),
        started: Instant::now(),
    };
    let mut end = None;
    for side in [Side::Gold, Side::Silver] {
        if end.is_some() {
            break;
        }
        if r.procs[side.index()].is_none() {
            match start_engine(task.specs[side.index()], rules.ready_timeout, abort) {
                Ok(p) => r.procs[side.index()] = Some(p),
                Err((Failure::Aborted, _, _)) => end = Some(None),
                Err((Failure::Fault(f), e, x)) => {
                    end = Some(Some(r.end_with(side, Termination::Crash, f, None, e, x)));
                }
                Err((Failure::Timeout, e, x)) => {
                    let f = Fault::new(FaultKind::Hang, "no answer at start");
                    end = Some(Some(r.end_with(side, Termination::Crash, f, None, e, x)));
                }
            }
        }
    }
    let end = match end {
        Some(e) => e,
        None => match r.prepare(abort) {
            Err((_, Failure::Aborted)) => None,
            Err((side, Failure::Fault(f))) => Some(r.forfeit(side, Termination::Crash, f, None)),
            Err((side, Failure::Timeout)) => {
                let f = Fault::new(FaultKind::Hang, "no answer before the game");
                Some(r.forfeit(side, Termination::Crash, f, None))
            }
            Ok(()) => r.play_turns(abort),
        },
    };
    if let Some(path) = r.live_path() {
        // The game is over (or abandoned): it is no longer in progress.
        let _ = std::fs::remove_file(path);
    }
    let Some(end) = end else {
        // Aborted: the engines may be mid-search; do not reuse them.
        for p in r.procs.iter_mut().flatten() {
            p.kill();
        }
        return None;
    };
    let tc_text = if rules.tcs[0] == rules.tcs[1] {
        rules.tcs[0].to_string()
    } else {
        format!("{};{}", rules.tcs[0], rules.tcs[1])
    };
    let record = MatchGame {
        id: task.id,
        round: task.round,
        pairing: task.pairing,
        opening: task.opening_index,
        gold: task.specs[0].name.clone(),
        silver: task.specs[1].name.clone(),
        winner: end.winner,
        termination: end.termination,
        detail: end.detail,
        moves: std::mem::take(&mut r.moves),
        final_label: r.judge.game().label(),
        attempted: end.attempted,
        timecontrol: tc_text,
        start_unix: r.start_unix,
        end_unix: unix_now(),
        seconds: r.started.elapsed().as_secs_f64(),
        fault: end.fault,
    };
    let [g, s] = std::mem::take(&mut r.procs);
    *gold_slot = g;
    *silver_slot = s;
    Some(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_for_options() {
        assert_eq!(fmt_secs(Duration::from_millis(29_734), true), "29");
        assert_eq!(fmt_secs(Duration::from_millis(29_734), false), "29.734");
        assert_eq!(fmt_secs(Duration::from_millis(250), false), "0.25");
        assert_eq!(fmt_secs(Duration::from_secs(2), false), "2");
        assert_eq!(fmt_secs(Duration::ZERO, false), "0");
    }

    #[test]
    fn complaints_are_errors_and_warnings() {
        for yes in [
            "Error: bad",
            "Warning: unknown option x",
            "warning x",
            " ERROR",
        ] {
            assert!(is_complaint(yes), "{yes}");
        }
        for no in ["Debug: x", "Errorless", "info", "", "starting up"] {
            assert!(!is_complaint(no), "{no}");
        }
    }
}
