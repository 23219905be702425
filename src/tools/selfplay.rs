//! `aamir selfplay`: a quick in-process match between two search settings,
//! for measuring a search change during development. Both sides run in this
//! process, so there is no protocol overhead; openings are the setups of
//! real games from an archive, each played with both colours. Real matches
//! between engine processes are `aamir match`.

use crate::board::record::parse_archive;
use crate::board::{Color, Game};
use crate::outln;
use crate::search::{EngineConfig, Limits, Searcher};
use anyhow::{Context, Result, bail};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How one side searches each turn.
#[derive(Clone, Debug)]
pub struct Side {
    pub config: EngineConfig,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Result of one game for side A.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum GameResult {
    AWins,
    BWins,
}

/// Plays one game; `a_gold` says which side A plays.
fn play_game(
    setups: &(String, String),
    a: &Side,
    b: &Side,
    a_gold: bool,
    max_turns: u32,
) -> Result<(GameResult, u32, String)> {
    let mut game = Game::new();
    game.play(&setups.0)
        .with_context(|| format!("opening setup {}", setups.0))?;
    game.play(&setups.1)
        .with_context(|| format!("opening setup {}", setups.1))?;
    let stop = AtomicBool::new(false);
    let mut sa = Searcher::new(&a.config);
    let mut sb = Searcher::new(&b.config);
    let mut turns = 0;
    while game.outcome().is_none() {
        let gold_to_move = game.side() == Color::Gold;
        let (searcher, side) = if gold_to_move == a_gold {
            (&mut sa, a)
        } else {
            (&mut sb, b)
        };
        let limits = Limits {
            soft: side.movetime,
            hard: side.movetime.map(|t| t * 3),
            depth: side.depth,
            nodes: side.nodes,
            ..Limits::default()
        };
        let result = searcher.search(&game, &limits, &stop, &mut |_| {});
        let Some(r) = result else {
            // No legal turn although the rules did not end the game: cannot
            // happen, since immobilisation ends it.
            bail!("no move in a running game at {}", game.label());
        };
        game.play_turn(&r.best)
            .with_context(|| format!("search answered an illegal move {:?}", r.best))?;
        turns += 1;
        if turns >= max_turns {
            // Adjudicate long games by the evaluation of the side to move.
            let e = crate::eval::Evaluator::default().evaluate(game.position());
            let mover_better = e >= 0;
            let mover_is_a = (game.side() == Color::Gold) == a_gold;
            let a_wins = mover_better == mover_is_a;
            return Ok((
                if a_wins {
                    GameResult::AWins
                } else {
                    GameResult::BWins
                },
                turns,
                "adjudicated".into(),
            ));
        }
    }
    let o = game.outcome().expect("loop ends on an outcome");
    let a_color = if a_gold { Color::Gold } else { Color::Silver };
    let res = if o.winner == a_color {
        GameResult::AWins
    } else {
        GameResult::BWins
    };
    Ok((res, turns, o.reason.name().to_string()))
}

/// Reads distinct opening setup pairs from an archive.
pub fn openings(path: &str) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut out: Vec<(String, String)> = Vec::new();
    for g in parse_archive(&text)? {
        if g.moves.len() >= 2 {
            let pair = (g.moves[0].1.clone(), g.moves[1].1.clone());
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    if out.is_empty() {
        bail!("no openings in {path}");
    }
    Ok(out)
}

/// Plays `games` games (openings in order, colours alternating) on
/// `concurrency` threads and prints the score of A.
pub fn run(
    a: &Side,
    b: &Side,
    games: usize,
    concurrency: usize,
    openings_path: &str,
    max_turns: u32,
) -> Result<()> {
    let ops = openings(openings_path)?;
    let next = Mutex::new(0usize);
    let tally = Mutex::new((0usize, 0usize));
    let t0 = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let mut handles = Vec::new();
        for _ in 0..concurrency.max(1) {
            handles.push(s.spawn(|| -> Result<()> {
                loop {
                    let i = {
                        let mut n = next.lock().expect("no panics hold this lock");
                        if *n >= games {
                            return Ok(());
                        }
                        *n += 1;
                        *n - 1
                    };
                    let op = &ops[(i / 2) % ops.len()];
                    let a_gold = i % 2 == 0;
                    let (res, turns, how) = play_game(op, a, b, a_gold, max_turns)?;
                    let mut t = tally.lock().expect("no panics hold this lock");
                    match res {
                        GameResult::AWins => t.0 += 1,
                        GameResult::BWins => t.1 += 1,
                    }
                    eprintln!(
                        "game {:3}: A as {} {} in {} turns ({how})  A {} - B {}",
                        i + 1,
                        if a_gold { "gold" } else { "silver" },
                        if res == GameResult::AWins {
                            "wins"
                        } else {
                            "loses"
                        },
                        turns,
                        t.0,
                        t.1
                    );
                }
            }));
        }
        for h in handles {
            h.join()
                .map_err(|_| anyhow::anyhow!("a game thread panicked"))??;
        }
        Ok(())
    })?;
    let (wa, wb) = *tally.lock().expect("threads are done");
    let n = (wa + wb) as f64;
    let p = wa as f64 / n;
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    let se = (p * (1.0 - p) / n).sqrt();
    outln!(
        "A {wa} - B {wb} ({:.1}%), Elo {:+.0} [{:+.0}, {:+.0}] (95%), {:.0}s",
        100.0 * p,
        elo(p),
        elo(p - 1.96 * se),
        elo(p + 1.96 * se),
        t0.elapsed().as_secs_f64()
    )?;
    Ok(())
}
