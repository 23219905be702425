//! `aamir movecount`: distinct-turn counts for one position or a suite file,
//! with the speed of the generator.

use crate::board::Position;
use crate::board::notation::{parse_long_diagram, parse_side_and_board};
use crate::board::turngen::{SeenTable, count_turns};
use crate::outln;
use anyhow::{Context, Result, bail};
use std::time::Instant;

/// Reads a position given as `g [board]` text, or as a file holding either
/// that or a long diagram.
pub fn load_position(arg: &str) -> Result<Position> {
    let path = std::path::Path::new(arg);
    // Text with a board in it is a position, whatever its side letter
    // (a bad one is then reported as such, not as a missing file).
    let text = if !arg.contains('[') || path.is_file() {
        std::fs::read_to_string(path).with_context(|| format!("reading position file {arg}"))?
    } else {
        arg.to_string()
    };
    let t = text.trim();
    if t.starts_with('[') {
        bail!("a board string needs the side to move first: `g {t}`");
    }
    let first = t.lines().next().unwrap_or("");
    if first.contains('[') {
        Ok(parse_side_and_board(first)?)
    } else {
        Ok(parse_long_diagram(t)?.position)
    }
}

/// One row of a suite file.
#[derive(Clone, Debug)]
pub struct SuiteRow {
    pub label: String,
    pub position: Position,
    pub expected: u64,
}

/// Reads `label<TAB>side<TAB>board<TAB>count` rows; `#` lines are comments.
pub fn read_suite(text: &str) -> Result<Vec<SuiteRow>> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 4 {
            bail!(
                "line {}: expected 4 tab-separated columns, got {}",
                n + 1,
                cols.len()
            );
        }
        let position = parse_side_and_board(&format!("{} {}", cols[1], cols[2]))
            .with_context(|| format!("line {} ({})", n + 1, cols[0]))?;
        let expected = cols[3]
            .trim()
            .parse()
            .with_context(|| format!("line {}: count `{}`", n + 1, cols[3]))?;
        rows.push(SuiteRow {
            label: cols[0].to_string(),
            position,
            expected,
        });
    }
    Ok(rows)
}

/// Counts one position and prints turns, nodes and time.
pub fn run_one(arg: &str) -> Result<()> {
    let pos = load_position(arg)?;
    let mut table = SeenTable::new();
    let t0 = Instant::now();
    let c = count_turns(&pos, &mut table);
    let dt = t0.elapsed().as_secs_f64();
    outln!("turns {}", c.turns)?;
    outln!("nodes {}", c.nodes)?;
    outln!("time {dt:.6}s")?;
    Ok(())
}

/// Totals over a suite run.
#[derive(Clone, Debug, Default)]
pub struct SuiteResult {
    pub positions: usize,
    pub mismatches: Vec<(String, u64, u64)>,
    pub turns: u64,
    pub nodes: u64,
    pub seconds: f64,
}

/// Checks every row; `repeat` runs the whole suite that many times for a
/// steadier timing.
pub fn check_suite(rows: &[SuiteRow], repeat: u32) -> SuiteResult {
    let mut table = SeenTable::new();
    let mut r = SuiteResult::default();
    let t0 = Instant::now();
    for pass in 0..repeat.max(1) {
        for row in rows {
            let c = count_turns(&row.position, &mut table);
            if pass == 0 && c.turns != row.expected {
                r.mismatches
                    .push((row.label.clone(), row.expected, c.turns));
            }
            r.positions += 1;
            r.turns += c.turns;
            r.nodes += c.nodes;
        }
    }
    r.seconds = t0.elapsed().as_secs_f64();
    r
}

/// `movecount --suite FILE`: prints mismatches and speed; fails on any
/// mismatch.
pub fn run_suite(path: &str, repeat: u32) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let rows = read_suite(&text)?;
    let r = check_suite(&rows, repeat);
    for (label, want, got) in &r.mismatches {
        outln!("MISMATCH {label}: expected {want}, got {got}")?;
    }
    let s = r.seconds.max(1e-9);
    outln!(
        "{} positions ({} rows x {}), {} mismatches, {} turns, {} nodes in {:.3}s",
        r.positions,
        rows.len(),
        repeat.max(1),
        r.mismatches.len(),
        r.turns,
        r.nodes,
        r.seconds
    )?;
    outln!(
        "{:.1} positions/s, {:.0} turns/s, {:.0} nodes/s",
        r.positions as f64 / s,
        r.turns as f64 / s,
        r.nodes as f64 / s
    )?;
    if !r.mismatches.is_empty() {
        bail!(
            "{} of {} positions disagree",
            r.mismatches.len(),
            rows.len()
        );
    }
    Ok(())
}
