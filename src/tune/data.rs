//! Training positions with their game results, from generator files
//! (`aamir gen`), arimaa.com archives and `aamir match` records (the same
//! archive format, replayed through the rules), reduced to the quiet,
//! distinct positions past the opening and split by game into a training
//! and a held-out set.

use super::{fnv1a, is_quiet};
use crate::board::notation::parse_side_and_board;
use crate::board::record::parse_archive;
use crate::board::{Phase, Position};
use anyhow::{Context, Result, bail};
use std::collections::HashSet;

/// A position labelled with its game's result for the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    pub pos: Position,
    /// 1 won, 0 lost.
    pub result: f64,
}

/// One position as read, before the filters.
#[derive(Clone, Debug)]
pub struct Raw {
    /// Names the game across files, for the split.
    pub game: String,
    /// Turns since the setups, from 0.
    pub turn: u32,
    pub sample: Sample,
}

/// How the samples are chosen.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Positions of the first this many turns of a game are left out.
    pub skip_turns: u32,
    /// Share of the games, in percent, held out.
    pub test_pct: u64,
    /// Threads for the quiet filter.
    pub threads: usize,
}

/// The chosen samples and what the filters removed.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    pub train: Vec<Sample>,
    pub test: Vec<Sample>,
    pub games: usize,
    pub read: usize,
    pub opening: usize,
    pub duplicates: usize,
    pub not_quiet: usize,
}

impl DataSet {
    /// One line on what was read and kept.
    pub fn summary(&self) -> String {
        format!(
            "{} games, {} positions read: {} in the opening, {} duplicates, {} not quiet left out; {} train, {} held out",
            self.games,
            self.read,
            self.opening,
            self.duplicates,
            self.not_quiet,
            self.train.len(),
            self.test.len()
        )
    }
}

/// The name each file's games go by (`<name>:<game id>`, which the split
/// hashes): the file's base name, so that a recorded split does not depend
/// on where the file lies, unless two of the files share it. Every run of
/// `aamir match` writes a `games.tsv` numbered from 1, so those get their
/// path as given; otherwise game 7 of one run and game 7 of another would
/// count as one game.
pub fn game_labels(paths: &[String]) -> Vec<String> {
    let base = |p: &String| {
        std::path::Path::new(p)
            .file_name()
            .map_or(p.clone(), |n| n.to_string_lossy().into_owned())
    };
    paths
        .iter()
        .map(|p| {
            let b = base(p);
            if paths.iter().filter(|q| base(q) == b).count() > 1 {
                p.clone()
            } else {
                b
            }
        })
        .collect()
}

/// Reads one file: a generator file, or an archive (a header row naming a
/// `movelist` column).
pub fn read_file(path: &str) -> Result<Vec<Raw>> {
    read_file_as(path, &game_labels(&[path.to_string()])[0])
}

/// Every position of every file, in order, each game named by
/// [`game_labels`].
pub fn read_all(paths: &[String]) -> Result<Vec<Raw>> {
    let mut raw = Vec::new();
    for (p, name) in paths.iter().zip(game_labels(paths)) {
        raw.extend(read_file_as(p, &name)?);
    }
    Ok(raw)
}

/// [`read_file`], naming its games `<name>:<game id>`.
fn read_file_as(path: &str, name: &str) -> Result<Vec<Raw>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty());
    match first {
        None => Ok(Vec::new()),
        Some(l) if l.split('\t').any(|c| c == "movelist") => read_archive(name, &text),
        Some(_) => read_positions(name, &text).with_context(|| format!("reading {path}")),
    }
}

/// Generator lines: game, result, turn, `g [board]`.
fn read_positions(name: &str, text: &str) -> Result<Vec<Raw>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let bad = |why: String| anyhow::anyhow!("line {}: {why}", n + 1);
        if cols.len() != 4 {
            return Err(bad(format!(
                "{} columns; expected game, result, turn, position",
                cols.len()
            )));
        }
        let result = match cols[1] {
            "1" => 1.0,
            "0" => 0.0,
            r => return Err(bad(format!("result `{r}` is not 1 or 0"))),
        };
        let turn = cols[2]
            .parse()
            .map_err(|_| bad(format!("turn `{}` is not a whole number", cols[2])))?;
        let pos = parse_side_and_board(cols[3]).map_err(|e| bad(format!("position: {e}")))?;
        out.push(Raw {
            game: format!("{name}:{}", cols[0]),
            turn,
            sample: Sample { pos, result },
        });
    }
    Ok(out)
}

/// Archive games with a winner, replayed through the rules; a game stops
/// at a move the rules refuse (its positions before it are kept).
fn read_archive(name: &str, text: &str) -> Result<Vec<Raw>> {
    let mut out = Vec::new();
    for g in parse_archive(text)? {
        let Some(winner) = g.winner() else {
            continue;
        };
        let game = format!("{name}:{}", g.id());
        let mut sample = |pos: &Position, turn: u32| {
            let result = if pos.side() == winner { 1.0 } else { 0.0 };
            out.push(Raw {
                game: game.clone(),
                turn,
                sample: Sample {
                    pos: pos.clone(),
                    result,
                },
            });
        };
        let mut moves = g.positions();
        while let Some(m) = moves.next() {
            match m {
                Ok(m) => {
                    if let Some(turn) = m.turn_index {
                        sample(&m.before, turn);
                    }
                }
                Err(_) => {
                    // The position the refused move was played from counts;
                    // nothing after it does.
                    let at = moves.game();
                    if at.phase() == Phase::Play && at.outcome().is_none() {
                        sample(at.position(), moves.turns());
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Whether a game belongs to the held-out share (by a stable hash of its
/// name, so the split does not depend on the order of the files).
pub fn held_out(game: &str, test_pct: u64) -> bool {
    fnv1a(game) % 100 < test_pct
}

/// Reads every file and keeps the quiet, distinct positions past the
/// opening, split by game.
pub fn load(paths: &[String], sel: &Selection) -> Result<DataSet> {
    let raw = read_all(paths)?;
    if raw.is_empty() {
        bail!("no positions in {}", paths.join(", "));
    }
    select(raw, sel)
}

/// The filters and the split over positions already read.
pub fn select(raw: Vec<Raw>, sel: &Selection) -> Result<DataSet> {
    let mut ds = DataSet {
        read: raw.len(),
        games: raw
            .iter()
            .map(|r| r.game.as_str())
            .collect::<HashSet<_>>()
            .len(),
        ..DataSet::default()
    };
    let mut seen = HashSet::new();
    let mut kept = Vec::with_capacity(raw.len());
    for r in raw {
        if r.turn < sel.skip_turns {
            ds.opening += 1;
        } else if !seen.insert(r.sample.pos.hash()) {
            ds.duplicates += 1;
        } else {
            kept.push(r);
        }
    }
    let quiet = par_map(&kept, sel.threads, |r| is_quiet(&r.sample.pos));
    for (r, q) in kept.into_iter().zip(quiet) {
        if !q {
            ds.not_quiet += 1;
        } else if held_out(&r.game, sel.test_pct) {
            ds.test.push(r.sample);
        } else {
            ds.train.push(r.sample);
        }
    }
    Ok(ds)
}

/// `f` over `items` on `threads` threads, results in order.
pub fn par_map<T: Sync, U: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    if items.is_empty() {
        return Vec::new();
    }
    let chunk = items.len().div_ceil(threads.max(1));
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| {
                let f = &f;
                s.spawn(move || c.iter().map(f).collect::<Vec<U>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("the mapped function does not panic"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_positions_carry_the_winner_and_the_split_is_stable() {
        let raw = read_file("tests/data/games-2026-02.tsv").unwrap();
        assert!(raw.len() > 1000, "{}", raw.len());
        // Both labels occur, and both sides of one game disagree.
        let first = &raw[0].game;
        let game: Vec<&Raw> = raw.iter().filter(|r| &r.game == first).collect();
        assert!(game.len() > 4);
        assert_ne!(game[0].sample.result, game[1].sample.result);
        assert_eq!(game[0].turn, 0);
        let sel = Selection {
            skip_turns: 4,
            test_pct: 10,
            threads: 2,
        };
        let ds = select(raw.clone(), &sel).unwrap();
        assert!(ds.opening > 0 && ds.not_quiet > 0, "{}", ds.summary());
        assert!(!ds.test.is_empty() && ds.train.len() > ds.test.len());
        assert_eq!(
            ds.train.len() + ds.test.len() + ds.opening + ds.duplicates + ds.not_quiet,
            ds.read
        );
        let again = select(raw, &sel).unwrap();
        assert_eq!(again.test.len(), ds.test.len());
    }

    #[test]
    fn match_files_of_one_name_keep_their_games_apart() {
        // Two runs of `aamir match` both write `games.tsv` with games
        // numbered from 1: read together they hold twice the games.
        let dir = std::env::temp_dir().join(format!("aamir-labels-{}", std::process::id()));
        let text = std::fs::read_to_string("tests/data/games-2011-extra.tsv").unwrap();
        let mut paths = Vec::new();
        for run in ["a", "b"] {
            std::fs::create_dir_all(dir.join(run)).unwrap();
            let p = dir.join(run).join("games.tsv");
            std::fs::write(&p, &text).unwrap();
            paths.push(p.to_string_lossy().into_owned());
        }
        let sel = Selection {
            skip_turns: 4,
            test_pct: 10,
            threads: 2,
        };
        let one = load(&paths[..1], &sel).unwrap();
        let both = load(&paths, &sel).unwrap();
        assert!(one.games > 1, "{}", one.summary());
        assert_eq!(both.games, 2 * one.games, "{}", both.summary());
        // A file alone, or two of distinct names, keep their base names,
        // so recorded splits stay as they were.
        assert_eq!(game_labels(&paths[..1]), ["games.tsv"]);
        let archives = [
            "x/games-2026-02.tsv".to_string(),
            "games-2011-extra.tsv".to_string(),
        ];
        assert_eq!(
            game_labels(&archives),
            ["games-2026-02.tsv", "games-2011-extra.tsv"]
        );
        assert_eq!(game_labels(&paths), paths);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_generator_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("aamir-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.txt");
        std::fs::write(&p, "# x\n0\t2\t5\tg [xx]\n").unwrap();
        let e = read_file(p.to_str().unwrap()).unwrap_err();
        assert!(format!("{e:#}").contains("line 2"), "{e:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
