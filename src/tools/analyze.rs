//! `aamir analyze`: search one position and print the search's progress
//! (depth, score, nodes, speed, PV) and the best move; or take the
//! position from a game record (an arimaa.com archive or a movelist file,
//! before a given move, with the game's history for repetitions); or go
//! through a whole record (`--all`), setting aamir's choice and score next
//! to each move played and listing the moves that lost the most.

use crate::board::notation::long_diagram;
use crate::board::record::{ReplayError, Replayer, parse_archive, parse_movelist};
use crate::board::{Game, Phase, Position, pv_notation};
use crate::out::OutputError;
use crate::outln;
use crate::search::tt::WIN_BOUND;
use crate::search::{EngineConfig, Limits, Report, SearchResult, Searcher};
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
/// Scores are capped at this for the drops of `--all` (30 rabbits, more
/// than any material): a missed win counts as a large drop, not 30,000.
const SCORE_CAP: i32 = 3000;
/// A drop of at least a rabbit is marked `?`, of three rabbits `??`; the
/// blunder list holds the largest drops of at least a rabbit.
const MISTAKE: i32 = 100;
const BLUNDER: i32 = 300;
/// Longest blunder list.
const BLUNDER_LIST: usize = 5;

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
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap_or("");
    if first.contains('\t') {
        let games = parse_archive(&text).with_context(|| format!("reading archive {path}"))?;
        let game = match (id, games.as_slice()) {
            (Some(id), _) => games
                .iter()
                .find(|g| g.id() == id)
                .with_context(|| format!("{path} has no game with id {id}"))?,
            (None, [only]) => only,
            (None, _) => bail!(
                "{path} holds {} games: pick one with --id GAMEID",
                games.len()
            ),
        };
        return Ok(game.moves.clone());
    }
    if id.is_some() {
        bail!("--id picks a game of an archive; {path} is a movelist");
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with(|c: char| c.is_ascii_digit()))
        .take_while(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    if lines.is_empty() {
        bail!("{path}: no moves (lines like `1g Ra1 Rb1 ...` or `12s Ed7s ...`)");
    }
    parse_movelist(&lines.join("\\n")).with_context(|| format!("reading movelist {path}"))
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

/// One searched position: its score for the side to move, and its best
/// move in notation.
struct Verdict {
    score: i32,
    best: String,
    /// The position after the best move, to tell whether the move played
    /// was the same turn written differently.
    after: Position,
}

fn search_one(searcher: &mut Searcher, game: &Game, limits: &Limits) -> Option<Verdict> {
    let stop = AtomicBool::new(false);
    let r: SearchResult = searcher.search(game, limits, &stop, &mut |_| {})?;
    let mut next = game.clone();
    let played = next.play_turn(&r.best).ok()?;
    Some(Verdict {
        score: r.score,
        best: played.notation,
        after: next.position().clone(),
    })
}

/// One line of `--all`.
struct MoveLine {
    label: String,
    played: String,
    /// Score before the move (aamir's best) and after the move played,
    /// both for the player of the move.
    best_score: i32,
    after_score: i32,
    drop: i32,
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
    let mut walk = walk(&moves);
    // The verdict on the position before the next move, searched when the
    // last move's "after" score was needed.
    let mut pending: Option<Verdict> = None;
    let mut lines = Vec::new();
    for i in 0.. {
        let verdict = match (pending.take(), walk.game().phase()) {
            (_, Phase::Setup(_)) => None,
            (Some(v), _) => Some(v),
            (None, _) => search_one(&mut searcher, walk.game(), &limits),
        };
        let Some(m) = walk.next() else {
            break;
        };
        let m = m.map_err(refused)?;
        let (mover, played, game) = (m.side(), m.played, walk.game());
        let Some(verdict) = verdict else {
            continue;
        };
        // The position after the move played, for its player: the game's
        // verdict if it ended, else minus the opponent's score there.
        let after_score = match game.outcome() {
            Some(o) if o.winner == mover => WIN_BOUND,
            Some(_) => -WIN_BOUND,
            None if game.phase() == Phase::Play => {
                let next = search_one(&mut searcher, game, &limits);
                // No move there: the opponent has none, which loses.
                let s = next.as_ref().map_or(WIN_BOUND, |v| -v.score);
                if i + 1 < moves.len() {
                    pending = next;
                }
                s
            }
            None => 0,
        };
        let same = verdict.after == *game.position();
        let capped = |s: i32| s.clamp(-SCORE_CAP, SCORE_CAP);
        let drop = if same {
            0
        } else {
            (capped(verdict.score) - capped(after_score)).max(0)
        };
        let mark = match drop {
            d if d >= BLUNDER => "??",
            d if d >= MISTAKE => "?",
            _ => "",
        };
        outln!(
            "{:<5} {:<28} {:>6}  {:<28} {:>6}  {:>5} {mark}",
            played.label,
            played.notation,
            show_score(after_score),
            if same { "=" } else { verdict.best.as_str() },
            show_score(verdict.score),
            drop
        )?;
        lines.push(MoveLine {
            label: played.label,
            played: played.notation,
            best_score: verdict.score,
            after_score,
            drop,
        });
    }
    if let Some(o) = walk.game().outcome() {
        outln!("game over: {}", o.describe())?;
    }
    let mut worst: Vec<&MoveLine> = lines.iter().filter(|l| l.drop >= MISTAKE).collect();
    worst.sort_by_key(|l| std::cmp::Reverse(l.drop));
    worst.truncate(BLUNDER_LIST);
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
