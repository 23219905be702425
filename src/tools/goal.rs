//! `aamir goal`: fewest steps to goal for one position, or a suite file
//! checked against its expected values, with speeds, for benchmarks. The
//! comparisons with the brute force are `dev` studies (`tools::studies`).

use crate::board::notation::format_steps;
use crate::board::{Color, Position};
use crate::outln;
use crate::tactics::goal::{goal_plan, goal_plan_counted};
use crate::tools::movecount::load_position;
use anyhow::{Context, Result, bail};
use std::time::Instant;

/// One row of a goal suite.
#[derive(Clone, Debug)]
pub struct GoalRow {
    /// 1-based line number in the file, for messages.
    pub line: usize,
    pub position: Position,
    /// Fewest steps to goal, `None` for "cannot".
    pub expected: Option<u8>,
    /// The rest of the line after the expected value (steps left, notes).
    pub note: String,
}

/// Parses `none` or a step count 0-4.
fn parse_expected(s: &str) -> Option<Option<u8>> {
    match s.trim() {
        "none" => Some(None),
        t => t.parse::<u8>().ok().filter(|&n| n <= 4).map(Some),
    }
}

/// Reads `side<TAB>board<TAB>expected[<TAB>steps_left[<TAB>note]]` rows;
/// `expected` is a step count or `none`, `steps_left` (default 4) lets a
/// row stand for a position in the middle of a turn. `#` lines are comments.
pub fn read_goal_suite(text: &str) -> Result<Vec<GoalRow>> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 3 {
            bail!(
                "line {n}: expected at least 3 tab-separated columns (side, board, expected), got {}",
                cols.len()
            );
        }
        let mut position = parse_board_any_counts(cols[0], cols[1])
            .with_context(|| format!("line {n}: bad side or board"))?;
        let expected = parse_expected(cols[2]).with_context(|| {
            format!(
                "line {n}: expected value `{}` is neither a step count 0-4 nor `none`",
                cols[2]
            )
        })?;
        if let Some(sl) = cols.get(3) {
            let steps: u8 = sl
                .trim()
                .parse()
                .ok()
                .filter(|s| (1..=4).contains(s))
                .with_context(|| format!("line {n}: steps left `{sl}` is not 1-4"))?;
            position.set_steps_left(steps);
        }
        rows.push(GoalRow {
            line: n,
            position,
            expected,
            note: cols[3..].join("\t"),
        });
    }
    Ok(rows)
}

/// Parses a side letter and an AEI board string without the piece-count
/// check of [`crate::board::notation::parse_board_string`]: 32 rows of the
/// goal suite (taken from another bot's tests) give a side three dogs or
/// similar, and the goal question is still well defined for them.
pub fn parse_board_any_counts(side: &str, board: &str) -> Result<Position> {
    let mut cs = side.trim().chars();
    let color = match (cs.next(), cs.next()) {
        (Some(c), None) => Color::from_char(c),
        _ => None,
    }
    .with_context(|| format!("side `{side}` is not g, s, w or b"))?;
    Ok(crate::board::notation::parse_board_cells(
        color,
        board.trim(),
    )?)
}

pub(crate) fn show(v: Option<u8>) -> String {
    v.map_or("none".to_string(), |n| n.to_string())
}

/// `aamir goal POSITION`: prints `goal N` or `goal none`; with `first`, also
/// the first action of a shortest goal and the whole goal, in notation.
pub fn run_one(arg: &str, first: bool) -> Result<()> {
    let pos = load_position(arg)?;
    let plan = goal_plan(&pos);
    outln!("goal {}", show(plan.map(|p| p.steps)))?;
    if first && let Some(p) = plan.filter(|p| !p.first.is_none()) {
        let steps: Vec<_> = p.first.steps().collect();
        outln!("first {}", format_steps(&pos, &steps)?)?;
        let all: Vec<_> = p
            .line
            .iter()
            .take_while(|a| !a.is_none())
            .flat_map(|a| a.steps())
            .collect();
        outln!("line {}", format_steps(&pos, &all)?)?;
    }
    Ok(())
}

/// Totals of a suite run.
#[derive(Clone, Debug, Default)]
pub struct GoalSuiteResult {
    pub positions: usize,
    /// (line, expected, got)
    pub mismatches: Vec<(usize, Option<u8>, Option<u8>)>,
    /// Positions the plan search expanded over one pass (static only).
    pub nodes: u64,
    /// The most any one row needed.
    pub max_nodes: u64,
    pub seconds: f64,
}

/// What answers the rows of a suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Solver {
    /// The goal detector of [`crate::tactics::goal`].
    Static,
    /// The brute-force oracle (a `dev` study, for speed comparisons).
    #[cfg(any(test, feature = "dev"))]
    Brute,
}

impl Solver {
    fn name(self) -> &'static str {
        match self {
            Solver::Static => "static routine",
            #[cfg(any(test, feature = "dev"))]
            Solver::Brute => "brute force",
        }
    }
}

/// Checks every row with `solver`, `repeat` times for a steadier timing.
pub fn check_goal_suite(rows: &[GoalRow], repeat: u32, solver: Solver) -> GoalSuiteResult {
    let mut r = GoalSuiteResult::default();
    let t0 = Instant::now();
    for pass in 0..repeat.max(1) {
        for row in rows {
            let got = match solver {
                Solver::Static => {
                    let (plan, nodes) = goal_plan_counted(&row.position);
                    if pass == 0 {
                        r.nodes += nodes;
                        r.max_nodes = r.max_nodes.max(nodes);
                    }
                    plan.map(|p| p.steps)
                }
                #[cfg(any(test, feature = "dev"))]
                Solver::Brute => crate::tactics::oracle::goal_distance_brute(&row.position),
            };
            if pass == 0 && got != row.expected {
                r.mismatches.push((row.line, row.expected, got));
            }
            r.positions += 1;
        }
    }
    r.seconds = t0.elapsed().as_secs_f64();
    r
}

/// `aamir goal --suite FILE`: prints mismatches and speed; fails on any
/// mismatch.
pub fn run_suite(path: &str, repeat: u32, solver: Solver) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let rows = read_goal_suite(&text)?;
    let r = check_goal_suite(&rows, repeat, solver);
    for (line, want, got) in &r.mismatches {
        outln!(
            "MISMATCH line {line}: expected {}, got {}",
            show(*want),
            show(*got)
        )?;
    }
    outln!(
        "{} positions ({} rows x {}) with the {}, {} mismatches in {:.3}s, {:.0} positions/s",
        r.positions,
        rows.len(),
        repeat.max(1),
        solver.name(),
        r.mismatches.len(),
        r.seconds,
        r.positions as f64 / r.seconds.max(1e-9)
    )?;
    if solver == Solver::Static {
        outln!(
            "plan search: {} positions expanded over the {} rows ({:.1} per row, at most {})",
            r.nodes,
            rows.len(),
            r.nodes as f64 / rows.len().max(1) as f64,
            r.max_nodes
        )?;
    }
    if !r.mismatches.is_empty() {
        bail!(
            "{} of {} positions disagree",
            r.mismatches.len(),
            rows.len()
        );
    }
    Ok(())
}
