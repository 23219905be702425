//! `aamir analyze`: search one position and print the search's progress
//! (depth, score, nodes, speed, PV) and the best move; or take the
//! position from a game record (an arimaa.com archive or a movelist file,
//! before a given move, with the game's history for repetitions); or go
//! through a whole record (`--all`), setting aamir's choice and score next
//! to each move played and listing the moves that lost the most.

use crate::board::notation::long_diagram;
use crate::board::record::{ReplayError, Replayer, record_moves};
use crate::board::{Game, Phase, Position, pv_notation};
use crate::out::OutputError;
use crate::outln;
use crate::search::review::{MISTAKE, analyse_moves};
use crate::search::tt::WIN_BOUND;
use crate::search::{EngineConfig, Limits, Report, Searcher};
use crate::timeman::Schedule;
use crate::tools::movecount::load_position;
use anyhow::{Context, Result, bail};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Options of one analysis: a thinking time, and the engine's
/// configuration (its `depth` option is the depth limit).
pub struct AnalyzeOptions {
    pub time: Option<f64>,
    pub config: EngineConfig,
}

/// Thinking time when neither a time nor a depth is given.
const DEFAULT_TIME: Duration = Duration::from_secs(5);
/// Thinking time per move of `--all` when neither is given: a 60-move
/// game takes a couple of minutes.
pub const DEFAULT_TIME_PER_MOVE: Duration = Duration::from_secs(1);

fn print_report(root: &Position, r: &Report) -> Result<(), OutputError> {
    let pv = pv_notation(root, &r.pv).unwrap_or_else(|e| format!("(unwritable: {e})"));
    let secs = r.elapsed.as_secs_f64();
    outln!(
        "depth {}{} score {} nodes {} time {:.2} nps {:.0} pv {}",
        r.depth,
        if r.in_progress { "+" } else { "" },
        r.score,
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-6),
        pv
    )
}

/// The limits of one search: `--time` if given, else the `depth` option
/// if set, else `default`.
pub(crate) fn limits(opts: &AnalyzeOptions, default: Duration) -> Result<Limits> {
    let depth = opts.config.engine.depth_limit();
    // An analysis is asked for a fixed time: it thinks that long (starting
    // iterations until then and cutting the last one), with no reserve to
    // save and no reason to stop early.
    let time = match (opts.time, depth) {
        (Some(t), _) => Some(
            Duration::try_from_secs_f64(t)
                .with_context(|| format!("--time {t}: not a time in seconds"))?,
        ),
        (None, None) => Some(default),
        (None, Some(_)) => None,
    };
    let sched = time.map(Schedule::fixed).unwrap_or_default();
    Ok(Limits {
        soft: sched.soft,
        hard: sched.hard,
        depth,
        nodes: None,
        time_params: opts.config.time.params(),
    })
}

/// Analyses a position given as text or a position file.
pub fn run(position: &str, opts: &AnalyzeOptions) -> Result<()> {
    let pos = load_position(position)?;
    let game = Game::from_position(pos, 1);
    analyse_game(&game, opts)
}

/// Searches `game`'s position, printing the progress and the best move.
fn analyse_game(game: &Game, opts: &AnalyzeOptions) -> Result<()> {
    if let Some(o) = game.outcome() {
        outln!("game over: {}", o.describe())?;
        return Ok(());
    }
    if let Phase::Setup(c) = game.phase() {
        bail!(
            "{} is still to set up here: analyze searches moves, not setups \
             (a position needs both sides' pieces, or gold's with silver to set up)",
            c.name()
        );
    }
    let mut searcher = Searcher::new(&opts.config);
    let limits = limits(opts, DEFAULT_TIME)?;
    let stop = AtomicBool::new(false);
    let root = game.position().clone();
    // A report that cannot be written stops the search: its reader is gone.
    let mut failed = None;
    let result = searcher.search(game, &limits, &stop, &mut |r| {
        if failed.is_none()
            && let Err(e) = print_report(&root, r)
        {
            failed = Some(e);
            stop.store(true, Ordering::Relaxed);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let result = result.context("no legal move in this position")?;
    outln!("bestmove {}", result.best.notation(&root)?)?;
    Ok(())
}

/// A game record's moves, `(label, move)`, from an arimaa.com archive
/// (the game `id`, which may be left out when the file holds one game) or
/// a movelist file (`1g ...` / `1w ...` lines, as AEI's `analyze` and
/// other bots' analysis tools read them: lines before the first move are
/// skipped, the moves end at the first line that is not one).
pub fn load_record(path: &str, id: Option<&str>) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    record_moves(&text, id).with_context(|| format!("reading {path}"))
}

/// A label in the current spelling: `12w` is `12g`, `12b` is `12s`.
fn normal_label(label: &str) -> String {
    label.trim().replace('w', "g").replace('b', "s")
}

/// Plays `moves` up to (not including) the one labelled `stop`, or all of
/// them; the game keeps its history, so repetitions count as in the game.
pub(crate) fn play_until(moves: &[(String, String)], stop: Option<&str>) -> Result<Game> {
    let stop = stop.map(normal_label);
    let mut walk = walk(moves);
    while stop.as_deref() != Some(walk.game().label().as_str()) {
        match walk.next() {
            Some(m) => {
                m.map_err(refused)?;
            }
            // The move after the last one recorded: the position the
            // record ends on.
            None => match stop {
                Some(s) => bail!(
                    "the game has no move {s}: its moves run from 1g to {}",
                    moves
                        .last()
                        .map_or("1g".to_string(), |(l, _)| normal_label(l))
                ),
                None => break,
            },
        }
    }
    Ok(walk.into_game())
}

/// The walk through `moves`, each checked by the rules.
fn walk(moves: &[(String, String)]) -> Replayer<impl Iterator<Item = (&str, &str)>> {
    Replayer::new(moves.iter().map(|(l, m)| (l.as_str(), m.as_str())))
}

/// A refused move as the error `analyze` reports: the rules' reason, in
/// the context of the move.
fn refused(e: ReplayError) -> anyhow::Error {
    anyhow::Error::new(e.error).context(format!("move {} `{}`", e.label, e.text))
}

/// `aamir analyze --game FILE [--id ID] [--move LABEL]`: the position
/// before that move (by default, after the last move), searched.
pub fn run_game(
    path: &str,
    id: Option<&str>,
    before: Option<&str>,
    opts: &AnalyzeOptions,
) -> Result<()> {
    let moves = load_record(path, id)?;
    let game = play_until(&moves, before)?;
    outln!("position before {}:", game.label())?;
    outln!(
        "{}",
        long_diagram(game.position(), game.move_number()).trim_end()
    )?;
    analyse_game(&game, opts)
}

/// A score for the table: `win`/`loss` for scores of a won/lost game.
fn show_score(s: i32) -> String {
    if s >= WIN_BOUND {
        "win".into()
    } else if s <= -WIN_BOUND {
        "loss".into()
    } else {
        s.to_string()
    }
}

/// `aamir analyze --game FILE --all`: every move of the game next to
/// aamir's choice, each position searched within the per-move budget,
/// then the moves that lost the most.
pub fn run_all(path: &str, id: Option<&str>, opts: &AnalyzeOptions) -> Result<()> {
    let moves = load_record(path, id)?;
    let limits = limits(opts, DEFAULT_TIME_PER_MOVE)?;
    let mut searcher = Searcher::new(&opts.config);
    let budget = match (limits.hard, limits.depth) {
        (Some(t), _) => format!("{:.1} s", t.as_secs_f64()),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => "no limit".into(),
    };
    outln!(
        "{} moves; each position searched for {budget}; scores in centi-rabbits for the player of the move",
        moves.len()
    )?;
    outln!(
        "{:<5} {:<28} {:>6}  {:<28} {:>6}  {:>5}",
        "move",
        "played",
        "after",
        "aamir",
        "score",
        "drop"
    )?;
    let stop = AtomicBool::new(false);
    // A line that cannot be written ends the walk: its reader is gone.
    let mut failed = None;
    let analysis = analyse_moves(&moves, &mut searcher, &limits, &stop, &mut |_, line| {
        if let Some(l) = line {
            let written = outln!(
                "{:<5} {:<28} {:>6}  {:<28} {:>6}  {:>5} {}",
                l.label,
                l.played,
                show_score(l.after_score),
                l.best.as_deref().unwrap_or("="),
                show_score(l.best_score),
                l.drop,
                l.mark()
            );
            if let Err(e) = written {
                failed = Some(e);
                return false;
            }
        }
        true
    })
    .map_err(refused)?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if let Some(o) = analysis.outcome {
        outln!("game over: {}", o.describe())?;
    }
    let worst = analysis.blunders();
    if worst.is_empty() {
        outln!("blunders: none (no move lost {MISTAKE} or more)")?;
    } else {
        outln!("blunders (largest drops):")?;
        for l in worst {
            outln!(
                "  {:<5} {}  drop {} ({} -> {})",
                l.label,
                l.played,
                l.drop,
                show_score(l.best_score),
                show_score(l.after_score)
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_old_and_new() {
        assert_eq!(normal_label("12w"), "12g");
        assert_eq!(normal_label("3b"), "3s");
        assert_eq!(normal_label("40s"), "40s");
    }

    #[test]
    fn play_until_stops_before_the_move_and_refuses_a_missing_one() {
        let moves: Vec<(String, String)> = [
            (
                "1g",
                "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",
            ),
            (
                "1s",
                "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7",
            ),
            ("2g", "Ee2n Ee3n Ee4n Ee5n"),
        ]
        .iter()
        .map(|(l, m)| (l.to_string(), m.to_string()))
        .collect();
        let g = play_until(&moves, Some("2w")).unwrap();
        assert_eq!(g.label(), "2g");
        assert_eq!(g.phase(), Phase::Play);
        assert_eq!(play_until(&moves, None).unwrap().label(), "2s");
        assert_eq!(play_until(&moves, Some("2s")).unwrap().label(), "2s");
        let e = play_until(&moves, Some("9g")).unwrap_err().to_string();
        assert!(e.contains("no move 9g") && e.contains("to 2g"), "{e}");
    }
}
