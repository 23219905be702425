//! `aamir goal`: fewest steps to goal for one position, a suite file checked
//! against its expected values, or a differential check against the brute
//! force on random-play positions; with speeds, for benchmarks.

use crate::board::notation::format_steps;
use crate::board::stepgen::generate_actions;
use crate::board::{ActionList, Color, Kind, Piece, Position, Square};
use crate::outln;
use crate::search::goal::{goal_distance_brute, goal_plan, goal_plan_counted};
use crate::tools::movecount::load_position;
use anyhow::{Context, Result, bail};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
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

fn show(v: Option<u8>) -> String {
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

/// Checks every row with the static routine (or the brute force), `repeat`
/// times for a steadier timing.
pub fn check_goal_suite(rows: &[GoalRow], repeat: u32, brute: bool) -> GoalSuiteResult {
    let mut r = GoalSuiteResult::default();
    let t0 = Instant::now();
    for pass in 0..repeat.max(1) {
        for row in rows {
            let got = if brute {
                goal_distance_brute(&row.position)
            } else {
                let (plan, nodes) = goal_plan_counted(&row.position);
                if pass == 0 {
                    r.nodes += nodes;
                    r.max_nodes = r.max_nodes.max(nodes);
                }
                plan.map(|p| p.steps)
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
pub fn run_suite(path: &str, repeat: u32, brute: bool) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let rows = read_goal_suite(&text)?;
    let r = check_goal_suite(&rows, repeat, brute);
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
        if brute {
            "brute force"
        } else {
            "static routine"
        },
        r.mismatches.len(),
        r.seconds,
        r.positions as f64 / r.seconds.max(1e-9)
    )?;
    if !brute {
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

/// Positions from random play: games from the usual opening where each turn
/// is a random number of random actions (steps, pushes, pulls), sampled at
/// turn starts and, one time in four, in the middle of a turn. Games stop at
/// a goal, an elimination, a position with no step, or after 400 turns.
/// Deterministic for a seed.
pub fn random_play_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut list = ActionList::new();
    while out.len() < count {
        let mut pos = Position::standard_opening();
        if rng.random_range(0..2) == 1 {
            pos.set_side(Color::Silver);
        }
        for _turn in 0..400 {
            if out.len() >= count {
                break;
            }
            // Sample the turn start, or a point inside the turn.
            let mid = rng.random_range(0..4) == 0;
            let stop_at = if mid { rng.random_range(1..4u8) } else { 4 };
            if !mid {
                out.push(pos.clone());
            }
            let steps = rng.random_range(1..=4u8);
            let mut progress = false;
            while pos.steps_left() > 4 - steps {
                if mid && pos.steps_left() == stop_at {
                    out.push(pos.clone());
                }
                list.clear();
                generate_actions(&pos, &mut list);
                let acts = list.as_slice();
                if acts.is_empty() {
                    break;
                }
                let a = acts[rng.random_range(0..acts.len())];
                pos.apply_action(a);
                progress = true;
            }
            if !progress
                || pos.has_goal(Color::Gold)
                || pos.has_goal(Color::Silver)
                || pos.rabbits(Color::Gold).is_empty()
                || pos.rabbits(Color::Silver).is_empty()
            {
                break;
            }
            pos.pass_turn();
        }
    }
    out.truncate(count);
    out
}

/// Random positions crowded around goal: the side to move (either colour)
/// has one to three rabbits within four ranks of goal and a few other
/// pieces, the opponent up to a dozen pieces mostly on the mover's goal
/// side; one position in three is mid-turn. Pieces left alone on a trap are
/// removed, as a real game would have. Deterministic for a seed. These are
/// far harder for goal detection than random play.
pub fn random_near_goal_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let kinds = [
        Kind::Cat,
        Kind::Dog,
        Kind::Horse,
        Kind::Camel,
        Kind::Elephant,
    ];
    while out.len() < count {
        let us = if rng.random_range(0..2) == 0 {
            Color::Gold
        } else {
            Color::Silver
        };
        let mut pos = Position::empty(us);
        // Squares in gold's frame; silver's are mirrored north-south.
        let sq = |file: u8, rank: u8| match us {
            Color::Gold => Square::from_coords(file, rank),
            Color::Silver => Square::from_coords(file, 7 - rank),
        };
        let place = |pos: &mut Position, piece: Piece, s: Square| {
            if pos.piece_at(s).is_none()
                && pos.count(piece.color(), piece.kind()) < piece.kind().full_count()
            {
                pos.put(piece, s);
            }
        };
        for _ in 0..rng.random_range(1..=3) {
            let s = sq(rng.random_range(0..8), rng.random_range(3..7));
            place(&mut pos, Piece::new(us, Kind::Rabbit), s);
        }
        for _ in 0..rng.random_range(0..=8) {
            let k = kinds[rng.random_range(0..kinds.len())];
            let s = sq(rng.random_range(0..8), rng.random_range(3..8));
            place(&mut pos, Piece::new(us, k), s);
        }
        for _ in 0..rng.random_range(1..=16) {
            let k = if rng.random_range(0..4) == 0 {
                Kind::Rabbit
            } else {
                kinds[rng.random_range(0..kinds.len())]
            };
            let s = sq(rng.random_range(0..8), rng.random_range(3..8));
            place(&mut pos, Piece::new(us.opp(), k), s);
        }
        for t in crate::board::Bitboard::TRAPS {
            if let Some(p) = pos.piece_at(t)
                && (crate::board::bitboard::adjacent(t) & pos.occupied_by(p.color())).is_empty()
            {
                pos.remove(t);
            }
        }
        if pos.rabbits(us).is_empty() || pos.has_goal(us) || pos.has_goal(us.opp()) {
            continue;
        }
        if rng.random_range(0..3) == 0 {
            pos.set_steps_left(rng.random_range(1..4));
        }
        out.push(pos);
    }
    out
}

/// Random near-goal positions ([`random_near_goal_positions`]) each changed
/// by one to eleven random edits within a few squares of one of the side to
/// move's rabbits (or, with `around_traps`, of a trap): a piece of either
/// colour added, or a piece removed. Crowding the squares that matter turns
/// up rare patterns that plain random positions almost never show.
/// Deterministic for a seed.
pub fn random_mutated_positions(seed: u64, count: usize, around_traps: bool) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5EED_0FAA);
    let bases = random_near_goal_positions(seed, 2000);
    let mut out = Vec::with_capacity(count);
    let mut i = 0;
    while out.len() < count {
        let mut p = bases[i % bases.len()].clone();
        i += 1;
        let us = p.side();
        let steps = p.steps_left();
        let center = if around_traps {
            Square::new([18u8, 21, 42, 45][rng.random_range(0..4)])
        } else {
            let rabbits: Vec<Square> = p.rabbits(us).collect();
            rabbits[rng.random_range(0..rabbits.len())]
        };
        for _ in 0..rng.random_range(1..12) {
            let f = center.file() as i32 + rng.random_range(-3i32..=3);
            let dr = rng.random_range(-2i32..=3);
            let r = center.rank() as i32 + if us == Color::Gold { dr } else { -dr };
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                continue;
            }
            let sq = Square::from_coords(f as u8, r as u8);
            if p.piece_at(sq).is_some() {
                if rng.random_range(0..3) == 0 {
                    p.remove(sq);
                }
                continue;
            }
            let c = if rng.random_range(0..2) == 0 {
                us
            } else {
                us.opp()
            };
            let k = Kind::ALL[rng.random_range(0..6)];
            let on_goal = k == Kind::Rabbit && crate::board::Bitboard::goal(c).contains(sq);
            if p.count(c, k) < k.full_count() && !on_goal {
                p.put(Piece::new(c, k), sq);
            }
        }
        for t in crate::board::Bitboard::TRAPS {
            if let Some(pc) = p.piece_at(t)
                && (crate::board::bitboard::adjacent(t) & p.occupied_by(pc.color())).is_empty()
            {
                p.remove(t);
            }
        }
        p.set_steps_left(steps);
        if p.rabbits(us).any() && !p.has_goal(us) {
            out.push(p);
        }
    }
    out
}

/// Which random positions a differential check uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RandomKind {
    /// [`random_play_positions`]
    Play,
    /// [`random_near_goal_positions`]
    Near,
    /// [`random_mutated_positions`] around rabbits (goal) or traps (capture)
    Mutated,
}

impl RandomKind {
    pub fn name(self) -> &'static str {
        match self {
            RandomKind::Play => "random-play",
            RandomKind::Near => "near-goal",
            RandomKind::Mutated => "mutated",
        }
    }
}

/// `aamir goal --random N`: compares the static routine with the brute
/// force on `n` random-play positions, prints agreement and both speeds;
/// fails on any disagreement.
pub fn run_random(n: usize, seed: u64, kind: RandomKind) -> Result<()> {
    let positions = match kind {
        RandomKind::Play => random_play_positions(seed, n),
        RandomKind::Near => random_near_goal_positions(seed, n),
        RandomKind::Mutated => random_mutated_positions(seed, n, false),
    };
    let t0 = Instant::now();
    let fast: Vec<Option<u8>> = positions
        .iter()
        .map(|p| goal_plan(p).map(|g| g.steps))
        .collect();
    let t_fast = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let slow: Vec<Option<u8>> = positions.iter().map(goal_distance_brute).collect();
    let t_slow = t1.elapsed().as_secs_f64();
    let mut hist = [0usize; 6];
    // Goals longer than the nearest rabbit's straight run: the ones that
    // need sideways steps or preparation, by how many extra steps.
    let mut extra = [0usize; 4];
    let mut bad = 0;
    for (i, (f, s)) in fast.iter().zip(&slow).enumerate() {
        hist[s.map_or(5, |v| v as usize)] += 1;
        if let Some(v) = *s {
            let p = &positions[i];
            let us = p.side();
            let straight = p
                .rabbits(us)
                .map(|r| match us {
                    Color::Gold => 7 - r.rank(),
                    Color::Silver => r.rank(),
                })
                .min()
                .unwrap_or(0);
            extra[(v.saturating_sub(straight) as usize).min(3)] += 1;
        }
        if f != s {
            bad += 1;
            let p = &positions[i];
            outln!(
                "MISMATCH {} {} steps_left {}: static {}, brute {}",
                p.side().to_char(),
                crate::board::notation::board_string(p),
                p.steps_left(),
                show(*f),
                show(*s)
            )?;
        }
    }
    outln!(
        "{} {} positions (seed {seed}): brute force says 0:{} 1:{} 2:{} 3:{} 4:{} none:{}",
        positions.len(),
        kind.name(),
        hist[0],
        hist[1],
        hist[2],
        hist[3],
        hist[4],
        hist[5]
    )?;
    outln!(
        "goals needing 0/1/2/3 steps beyond the nearest rabbit's straight run: {}/{}/{}/{}",
        extra[0],
        extra[1],
        extra[2],
        extra[3]
    )?;
    outln!(
        "{} disagree; static {:.0} positions/s, brute force {:.0} positions/s",
        bad,
        positions.len() as f64 / t_fast.max(1e-9),
        positions.len() as f64 / t_slow.max(1e-9)
    )?;
    if bad > 0 {
        bail!("{bad} of {} positions disagree", positions.len());
    }
    Ok(())
}
