//! Labels from a deeper look: each position's game result is replaced by
//! (or mixed with) the win probability a fixed-depth search gives it.
//!
//! A fit to game results finds what goes with winning the games in the
//! data, and the search then chases it (docs/experiments.md, stops 9, 21
//! and 48: every such fit lost its match). A fit to the engine's own
//! deeper search asks a narrower question: what the static score should
//! have said about a quiet position, given what a search a turn or more
//! deep finds there (a camel that cannot get away, a trap that falls).
//! Its labels carry no noise from moves played much later.

use super::data::Sample;
use super::fit::sigmoid;
use crate::board::Game;
use crate::search::tt::WIN_BOUND;
use crate::search::{EngineConfig, Limits, Searcher};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How positions are relabelled.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// Search depth in steps.
    pub depth: u32,
    /// Percent of the label that stays the game result (0: the search's
    /// probability alone).
    pub result_pct: u32,
    /// Transposition table per thread, MB (cleared for every position, so
    /// a label does not depend on the positions searched before it).
    pub hash_mb: usize,
    /// A file of search scores kept between runs (`depth<TAB>score<TAB>g
    /// [board]` lines): positions found there at this depth are not
    /// searched again, and new scores are added to it. Searching is most
    /// of a labelled fit's time, and the scores do not depend on `k` or
    /// the mix. The searches use the engine's default settings and weights
    /// (not `--start`), so a cache is stale once those change: delete it.
    pub cache: Option<String>,
}

/// The cache's key for a position: its side and board as text, written as
/// the generator writes positions (`g [board]`).
fn key(pos: &crate::board::Position) -> String {
    format!(
        "{} {}",
        pos.side().to_char(),
        crate::board::notation::board_string(pos)
    )
}

/// The scores `path` holds for `depth` (none when it does not exist yet).
fn read_cache(path: &str, depth: u32) -> Result<HashMap<String, i32>> {
    let mut map = HashMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(map),
        Err(e) => return Err(e).with_context(|| format!("reading {path}")),
    };
    for (i, line) in text.lines().enumerate() {
        let mut f = line.splitn(3, '\t');
        let (Some(d), Some(score), Some(pos)) = (f.next(), f.next(), f.next()) else {
            bail!("{path}:{}: expected depth, score and position", i + 1);
        };
        let d: u32 = d
            .parse()
            .with_context(|| format!("{path}:{}: depth {d:?}", i + 1))?;
        let score: i32 = score
            .parse()
            .with_context(|| format!("{path}:{}: score {score:?}", i + 1))?;
        if d == depth {
            map.insert(pos.to_string(), score);
        }
    }
    Ok(map)
}

/// The score of a `depth`-step search of `sample`'s position for its side
/// to move, or `None` when there is nothing to search (no legal turn).
fn search_score(searcher: &mut Searcher, sample: &Sample, depth: u32) -> Option<i32> {
    searcher.new_game();
    let game = Game::from_position(sample.pos.clone(), 2);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    searcher
        .search(&game, &limits, &stop, &mut |_| {})
        .map(|r| r.score)
}

/// The label for a search score: a decided game is a 1 or a 0, anything
/// else `sigmoid(k * score)`, mixed with the game result.
pub fn label(result: f64, score: i32, k: f64, result_pct: u32) -> f64 {
    let p = if score >= WIN_BOUND {
        1.0
    } else if score <= -WIN_BOUND {
        0.0
    } else {
        sigmoid(k * score as f64)
    };
    let w = f64::from(result_pct.min(100)) / 100.0;
    w * result + (1.0 - w) * p
}

/// Relabels every sample of `set` from a search of `opts.depth` steps,
/// `threads` at once; `progress` hears the count done now and then.
pub fn relabel(
    set: &mut [Sample],
    k: f64,
    opts: &LabelOptions,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<()> {
    if opts.depth == 0 {
        bail!("a label depth of 0 searches nothing");
    }
    let cached = match &opts.cache {
        Some(path) => read_cache(path, opts.depth)?,
        None => HashMap::new(),
    };
    let mut scores: Vec<Option<i32>> = set
        .iter()
        .map(|s| cached.get(&key(&s.pos)).copied())
        .collect();
    let todo: Vec<usize> = (0..set.len()).filter(|&i| scores[i].is_none()).collect();
    let todo_set: Vec<Sample> = todo.iter().map(|&i| set[i].clone()).collect();
    let found = search_scores(&todo_set, opts.depth, opts.hash_mb, threads, progress)?;
    let found = todo.iter().copied().zip(found);
    let mut added = String::new();
    for (i, score) in found {
        scores[i] = Some(score);
        added.push_str(&format!("{}\t{score}\t{}\n", opts.depth, key(&set[i].pos)));
    }
    if let Some(path) = &opts.cache
        && !added.is_empty()
    {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(added.as_bytes()))
            .with_context(|| format!("writing {path}"))?;
    }
    for (sample, score) in set.iter_mut().zip(scores) {
        let score = score.expect("every position searched or cached");
        sample.result = label(sample.result, score, k, opts.result_pct);
    }
    Ok(())
}

/// `aamir label`: the search score of every position of `files` at
/// `depth` steps, for its side to move, written one a line to `out` in
/// the files' order (a position with no legal turn scores as lost).
pub fn run_scores(
    files: &[String],
    depth: u32,
    hash_mb: usize,
    threads: usize,
    out: &str,
) -> Result<()> {
    let t0 = std::time::Instant::now();
    let raw = super::data::read_all(files)?;
    let samples: Vec<Sample> = raw.into_iter().map(|r| r.sample).collect();
    let scores = search_scores(&samples, depth, hash_mb, threads, &|n| {
        let secs = t0.elapsed().as_secs_f64();
        eprintln!("{n} positions, {:.0} a second", n as f64 / secs);
    })?;
    let mut text = String::with_capacity(scores.len() * 6);
    for s in &scores {
        text.push_str(&format!("{s}\n"));
    }
    std::fs::write(out, text).with_context(|| format!("writing {out}"))?;
    let secs = t0.elapsed().as_secs_f64();
    crate::outln!(
        "{} positions searched to {depth} steps in {secs:.1} s ({:.0} a second, {threads} threads): {out}",
        scores.len(),
        scores.len() as f64 / secs
    )?;
    Ok(())
}

/// The search score of each sample's position at `depth` steps, `threads`
/// at once, in order.
pub fn search_scores(
    set: &[Sample],
    depth: u32,
    hash_mb: usize,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<i32>> {
    if depth == 0 {
        bail!("a label depth of 0 searches nothing");
    }
    let done = AtomicUsize::new(0);
    let next = AtomicUsize::new(0);
    const BLOCK: usize = 256;
    let found: Vec<Vec<(usize, i32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (done, next) = (&done, &next);
                s.spawn(move || {
                    let mut config = EngineConfig::default();
                    config.engine.hash = hash_mb.max(1);
                    config.engine.threads = 1;
                    let mut searcher = Searcher::new(&config);
                    let mut out = Vec::new();
                    loop {
                        // Blocks handed out in turn keep both threads busy
                        // to the end whatever the positions cost.
                        let start = next.fetch_add(BLOCK, Ordering::Relaxed);
                        if start >= set.len() {
                            return out;
                        }
                        for (i, sample) in set.iter().enumerate().skip(start).take(BLOCK) {
                            let score =
                                search_score(&mut searcher, sample, depth).unwrap_or(-WIN_BOUND);
                            out.push((i, score));
                        }
                        let n = done.fetch_add(BLOCK, Ordering::Relaxed) + BLOCK;
                        if n / 5_000 != (n - BLOCK) / 5_000 {
                            progress(n.min(set.len()));
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a labelling thread panicked"))
            .collect()
    });
    let mut scores = vec![0; set.len()];
    for (i, score) in found.into_iter().flatten() {
        scores[i] = score;
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;

    #[test]
    fn labels_mix_the_result_with_the_search() {
        let k = 0.01;
        assert_eq!(label(1.0, 0, k, 0), 0.5);
        assert_eq!(label(1.0, 0, k, 100), 1.0);
        assert!((label(0.0, 0, k, 50) - 0.25).abs() < 1e-12);
        assert_eq!(label(0.0, WIN_BOUND, k, 0), 1.0);
        assert_eq!(label(1.0, -WIN_BOUND - 5, k, 0), 0.0);
        assert!(label(0.0, 200, k, 0) > 0.85);
    }

    fn board(rows: [&str; 8], side: &str) -> crate::board::Position {
        parse_side_and_board(&format!("{side} [{}]", rows.concat())).unwrap()
    }

    /// Gold to move with a rabbit on a7 and a8 empty: a goal this turn.
    fn goal_in_one() -> crate::board::Position {
        board(
            [
                "       r", "R       ", "        ", "        ", "        ", "        ", "        ",
                "       E",
            ],
            "g",
        )
    }

    #[test]
    fn a_search_label_is_the_search_score_whatever_the_result() {
        // A goal this turn: the label is a win although the game's result
        // says lost.
        let won = goal_in_one();
        // The usual opening: a search scores it near even.
        let open = crate::board::Position::standard_opening();
        let opts = LabelOptions {
            depth: 5,
            result_pct: 0,
            hash_mb: 1,
            cache: None,
        };
        let mut set = vec![
            Sample {
                pos: won.clone(),
                result: 0.0,
            },
            Sample {
                pos: open.clone(),
                result: 1.0,
            },
        ];
        relabel(&mut set, 0.01, &opts, 2, &|_| {}).unwrap();
        assert_eq!(set[0].result, 1.0);
        let mut config = EngineConfig::default();
        config.engine.hash = 1;
        let mut searcher = Searcher::new(&config);
        let direct = search_score(&mut searcher, &set[1], 5).unwrap();
        assert!(direct.abs() < WIN_BOUND, "{direct}");
        assert_eq!(set[1].result, label(1.0, direct, 0.01, 0));
        assert!(set[1].result < 1.0);
        // One thread gives the same labels as two (each position is
        // searched from a cleared table).
        let mut one = vec![
            Sample {
                pos: won,
                result: 0.0,
            },
            Sample {
                pos: open,
                result: 1.0,
            },
        ];
        relabel(&mut one, 0.01, &opts, 1, &|_| {}).unwrap();
        assert_eq!(one[0].result, set[0].result);
        assert_eq!(one[1].result, set[1].result);
        let zero = LabelOptions { depth: 0, ..opts };
        assert!(relabel(&mut one, 0.01, &zero, 1, &|_| {}).is_err());
    }

    #[test]
    fn the_label_command_writes_each_positions_search_score_in_order() {
        let won = goal_in_one();
        let open = crate::board::Position::standard_opening();
        let dir = std::env::temp_dir().join(format!("aamir-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("gen.tsv");
        let line = |p: &crate::board::Position| {
            format!(
                "0\t1\t0\t{} {}\n",
                p.side().to_char(),
                crate::board::notation::board_string(p)
            )
        };
        std::fs::write(
            &file,
            format!("{}{}{}", line(&open), line(&won), line(&open)),
        )
        .unwrap();
        let out = dir.join("scores.txt");
        let files = vec![file.to_string_lossy().to_string()];
        run_scores(&files, 3, 1, 2, &out.to_string_lossy()).unwrap();
        let scores: Vec<i32> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(scores.len(), 3);
        assert!(scores[1] >= WIN_BOUND, "a goal this turn: {}", scores[1]);
        let mut config = EngineConfig::default();
        config.engine.hash = 1;
        let direct = search_score(
            &mut Searcher::new(&config),
            &Sample {
                pos: open,
                result: 1.0,
            },
            3,
        )
        .unwrap();
        assert_eq!(scores[0], direct);
        assert_eq!(scores[2], direct);
        assert!(run_scores(&files, 0, 1, 1, &out.to_string_lossy()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_cache_keeps_scores_and_is_read_back() {
        let dir = std::env::temp_dir().join(format!("aamir-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("scores.tsv");
        let _ = std::fs::remove_file(&path);
        let open = crate::board::Position::standard_opening();
        let opts = LabelOptions {
            depth: 4,
            result_pct: 0,
            hash_mb: 1,
            cache: Some(path.to_string_lossy().into_owned()),
        };
        let mut set = vec![Sample {
            pos: open.clone(),
            result: 1.0,
        }];
        relabel(&mut set, 0.01, &opts, 1, &|_| {}).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("4\t"), "{text}");
        assert!(
            text.trim_end().ends_with(&format!(
                "\tg {}",
                crate::board::notation::board_string(&open)
            )),
            "{text}"
        );
        // A score planted in the cache is used instead of a search, and a
        // score of another depth is not.
        let planted = format!("4\t777\t{}\n3\t-5\t{}\n", key(&open), key(&open));
        std::fs::write(&path, planted).unwrap();
        let mut set = vec![Sample {
            pos: open.clone(),
            result: 0.0,
        }];
        relabel(&mut set, 0.01, &opts, 1, &|_| {}).unwrap();
        assert_eq!(set[0].result, label(0.0, 777, 0.01, 0));
        std::fs::write(&path, "4\tx\tg [..]\n").unwrap();
        let err = relabel(&mut set, 0.01, &opts, 1, &|_| {}).unwrap_err();
        assert!(format!("{err:#}").contains("score"), "{err:#}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
