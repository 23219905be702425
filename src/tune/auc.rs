//! `aamir auc`: how well a static evaluation sees who will win.
//!
//! Over the positions of finished games (archives, `games.tsv` of
//! `aamir match`, generator files), the static score of the side to move
//! is read as a prediction that the side to move wins, and graded by the
//! area under the ROC curve (AUC): the chance that a position whose mover
//! went on to win scores above one whose mover lost (ties count half).
//! 0.5 is blind, 1 sees every result. Early positions are where it
//! matters: an evaluation that cannot tell a lost opening from an even one
//! steers into the first. Another labeller's scores of the same positions
//! (`--scores`, in the order `--posfile` wrote them) are graded beside
//! aamir's on the same positions.

use super::data::{Raw, read_all};
use crate::board::Color;
use crate::board::Position;
use crate::eval::Evaluator;
use crate::outln;
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;

/// What `aamir auc` reads and writes.
#[derive(Clone, Debug)]
pub struct AucOptions {
    pub files: Vec<String>,
    /// Positions of the first this many plies (turns of either side,
    /// setups not counted) are graded.
    pub plies: u32,
    /// Write the graded positions in the position-file format of
    /// [`write_posfile`].
    pub posfile: Option<String>,
    /// Another labeller's score of each graded position, one a line in
    /// posfile order (the last number on each line), for the side to move.
    pub scores: Option<String>,
}

/// The area under the ROC curve of `scores` (a score and whether the
/// prediction came true); `None` without both kinds.
pub fn auc(scores: &[(f64, bool)]) -> Option<f64> {
    let pos = scores.iter().filter(|s| s.1).count();
    let neg = scores.len() - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    let mut sorted: Vec<(f64, bool)> = scores.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Mann-Whitney: the ranks of the positives, ties at their mean rank.
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j].0 == sorted[i].0 {
            j += 1;
        }
        // Ranks i+1 ..= j share their mean.
        let mean = (i + 1 + j) as f64 / 2.0;
        rank_sum += mean * sorted[i..j].iter().filter(|s| s.1).count() as f64;
        i = j;
    }
    let pos = pos as f64;
    Some((rank_sum - pos * (pos + 1.0) / 2.0) / (pos * neg as f64))
}

/// Writes `positions` as a position file: entries separated by `;`
/// lines, each a side line (`2g`, `7s`: the move number and the side to
/// move) and the eight ranks from 8 down to 1, eight characters each
/// (`.` empty, `RCDHME` gold, `rcdhme` silver).
pub fn write_posfile(positions: &[(Position, u32)]) -> String {
    let mut out = String::new();
    for (i, (pos, ply)) in positions.iter().enumerate() {
        if i > 0 {
            out.push_str(";\n");
        }
        let side = if pos.side() == Color::Gold { 'g' } else { 's' };
        let _ = writeln!(out, "{}{side}", ply / 2 + 2);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = crate::board::Square::from_coords(file, rank);
                out.push(pos.piece_at(sq).map_or('.', |p| p.to_char()));
            }
            out.push('\n');
        }
    }
    out
}

/// Reads one score a line (the last number on each non-empty line), as
/// an evaluator's output gives them (`Final Score: -12`).
pub fn read_scores(path: &str) -> Result<Vec<f64>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            l.split_whitespace()
                .last()
                .and_then(|t| t.parse::<f64>().ok())
                .with_context(|| format!("{path} line {}: no number at its end: `{l}`", n + 1))
        })
        .collect()
}

/// `aamir auc`.
pub fn run(opts: &AucOptions, eval: &Evaluator) -> Result<()> {
    let mut raw = read_all(&opts.files)?;
    raw.retain(|r| r.turn < opts.plies);
    if raw.is_empty() {
        bail!(
            "no position of a finished game within the first {} plies in {}",
            opts.plies,
            opts.files.join(", ")
        );
    }
    let games = raw
        .iter()
        .map(|r| r.game.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len();
    let won = |r: &Raw| r.sample.result > 0.5;
    let ours: Vec<(f64, bool)> = raw
        .iter()
        .map(|r| (f64::from(eval.evaluate(&r.sample.pos)), won(r)))
        .collect();
    let theirs = match &opts.scores {
        Some(path) => {
            let s = read_scores(path)?;
            if s.len() != raw.len() {
                bail!(
                    "{path}: {} scores for {} positions (write the positions with --posfile and score them in that order)",
                    s.len(),
                    raw.len()
                );
            }
            Some(s.into_iter().zip(raw.iter().map(won)).collect::<Vec<_>>())
        }
        None => None,
    };
    if let Some(path) = &opts.posfile {
        let list: Vec<(Position, u32)> =
            raw.iter().map(|r| (r.sample.pos.clone(), r.turn)).collect();
        std::fs::write(path, write_posfile(&list)).with_context(|| format!("writing {path}"))?;
    }
    let fmt = |a: Option<f64>| a.map_or("-".to_string(), |v| format!("{v:.3}"));
    outln!(
        "{} positions of {games} games, the first {} plies; the side to move won {} of them",
        raw.len(),
        opts.plies,
        ours.iter().filter(|s| s.1).count()
    )?;
    outln!(
        "{:<12} {:>7} {:>8}{}",
        "plies",
        "count",
        "aamir",
        if theirs.is_some() { "    other" } else { "" }
    )?;
    // Bands of ten plies, then all together.
    let mut bands: Vec<(String, Vec<usize>)> = (0..opts.plies.div_ceil(10))
        .map(|b| {
            let (lo, hi) = (b * 10, ((b + 1) * 10).min(opts.plies));
            let idx = (0..raw.len())
                .filter(|&i| raw[i].turn >= lo && raw[i].turn < hi)
                .collect();
            (format!("{lo}-{}", hi - 1), idx)
        })
        .collect();
    bands.push(("all".to_string(), (0..raw.len()).collect()));
    // Bands with no position (past the games' end) are left out.
    for (name, idx) in bands.iter().filter(|(_, idx)| !idx.is_empty()) {
        let pick = |v: &[(f64, bool)]| idx.iter().map(|&i| v[i]).collect::<Vec<_>>();
        let other = theirs
            .as_ref()
            .map_or(String::new(), |t| format!(" {:>8}", fmt(auc(&pick(t)))));
        outln!(
            "{name:<12} {:>7} {:>8}{other}",
            idx.len(),
            fmt(auc(&pick(&ours)))
        )?;
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let mut lost: Vec<f64> = ours.iter().filter(|s| !s.1).map(|s| s.0).collect();
    let mut win: Vec<f64> = ours.iter().filter(|s| s.1).map(|s| s.0).collect();
    outln!(
        "median score for the side to move: {} where it went on to win, {} where it lost",
        median(&mut win).map_or("-".into(), |v| format!("{v:.0}")),
        median(&mut lost).map_or("-".into(), |v| format!("{v:.0}"))
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auc_counts_ordered_pairs_and_halves_ties() {
        // Every winner above every loser: 1; below: 0.
        let perfect = [(3.0, true), (2.0, true), (1.0, false), (0.0, false)];
        assert_eq!(auc(&perfect), Some(1.0));
        let backwards = [(0.0, true), (1.0, true), (2.0, false), (3.0, false)];
        assert_eq!(auc(&backwards), Some(0.0));
        // One score for all: every pair a tie.
        let flat = [(5.0, true), (5.0, false), (5.0, false)];
        assert_eq!(auc(&flat), Some(0.5));
        // Pairs (winner, loser): (2,1) yes, (2,3) no, (2,2) half,
        // (4,1) (4,3) (4,2) yes: 4.5 of 6.
        let mixed = [
            (2.0, true),
            (4.0, true),
            (1.0, false),
            (3.0, false),
            (2.0, false),
        ];
        assert!((auc(&mixed).unwrap() - 4.5 / 6.0).abs() < 1e-12);
        assert_eq!(auc(&[(1.0, true)]), None);
        assert_eq!(auc(&[]), None);
    }

    #[test]
    fn the_posfile_holds_the_side_and_eight_ranks() {
        let pos = crate::board::notation::parse_side_and_board(
            "s [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]",
        )
        .unwrap();
        let text = write_posfile(&[(pos.clone(), 1), (pos, 2)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 19);
        assert_eq!(lines[0], "2s");
        assert_eq!(lines[1], "rrrrrrrr");
        assert_eq!(lines[2], "hdcemcdh");
        assert_eq!(lines[3], "........");
        assert_eq!(lines[7], "HDCMECDH");
        assert_eq!(lines[8], "RRRRRRRR");
        assert_eq!(lines[9], ";");
        assert_eq!(lines[10], "3s");
    }
}
