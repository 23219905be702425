//! `aamir capture`: which enemy pieces a side can capture within its steps,
//! for one position, or compared with the brute force on random-play
//! positions with agreement, recall, precision and speeds.

use crate::board::notation::{board_string, format_steps};
use crate::board::{Action, Color, Position, Square};
use crate::outln;
use crate::search::capture::{
    CaptureSet, capture_candidates, capture_threats, capture_threats_brute,
};
use crate::tools::goal::{
    RandomKind, random_mutated_positions, random_near_goal_positions, random_play_positions,
};
use crate::tools::movecount::load_position;
use anyhow::{Result, bail};
use std::time::Instant;

/// `aamir capture POSITION`: one line per capturable enemy piece of the side
/// to move (or of `attacker` with a fresh turn), `capture none` if none.
pub fn run_one(arg: &str, attacker: Option<Color>, steps: u8) -> Result<()> {
    let pos = load_position(arg)?;
    let who = attacker.unwrap_or(pos.side());
    let set = capture_threats(&pos, who, steps);
    if set.is_empty() {
        outln!("capture none")?;
    }
    let view = {
        let mut p = pos.clone();
        if who != pos.side() {
            p.set_side(who);
        }
        p
    };
    for (sq, n) in set.entries() {
        let piece = pos.piece_at(sq).map_or('?', |p| p.to_char());
        let first = set.first_action(sq).unwrap_or(Action::NONE);
        let steps: Vec<_> = first.steps().collect();
        outln!(
            "capture {piece}{sq} {n} first {}",
            format_steps(&view, &steps)?
        )?;
    }
    Ok(())
}

/// Agreement counts between two capture sets over many positions.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    /// Pieces the brute force can capture.
    pub truth: usize,
    /// Of those, found by the static routine.
    pub found: usize,
    /// Of those found, with the same fewest steps.
    pub same_steps: usize,
    /// Pieces the static routine names that the brute force cannot capture.
    pub false_alarms: usize,
    /// Positions with any difference (set or steps).
    pub positions_differing: usize,
}

impl Agreement {
    pub fn add(&mut self, exact: &CaptureSet, got: &CaptureSet) {
        let t = exact.squares();
        let g = got.squares();
        self.truth += t.count() as usize;
        self.found += (t & g).count() as usize;
        self.false_alarms += g.and_not(t).count() as usize;
        let same = (t & g).filter(|&s| exact.steps(s) == got.steps(s)).count();
        self.same_steps += same;
        if t != g || same != (t & g).count() as usize {
            self.positions_differing += 1;
        }
    }

    pub fn exact(&self) -> bool {
        self.positions_differing == 0
    }
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// `aamir capture --random N`: for each random-play position, the side to
/// move with its steps left (capped at `steps`) and the opponent with a
/// fresh turn of `steps`, static routine against brute force. Prints
/// agreement, the filter's precision, and speeds; fails on any difference.
pub fn run_random(n: usize, seed: u64, steps: u8, kind: RandomKind) -> Result<()> {
    let positions = match kind {
        RandomKind::Play => random_play_positions(seed, n),
        RandomKind::Near => random_near_goal_positions(seed, n),
        RandomKind::Mutated => random_mutated_positions(seed, n, true),
    };
    let cases: Vec<(Position, Color)> = positions
        .iter()
        .flat_map(|p| [(p.clone(), p.side()), (p.clone(), p.side().opp())])
        .collect();
    let t0 = Instant::now();
    let fast: Vec<CaptureSet> = cases
        .iter()
        .map(|(p, c)| capture_threats(p, *c, steps))
        .collect();
    let t_fast = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let mut cand_count = 0usize;
    let cands: Vec<_> = cases
        .iter()
        .map(|(p, c)| {
            let b = capture_candidates(p, *c, budget_of(p, *c, steps));
            cand_count += b.count() as usize;
            b
        })
        .collect();
    let t_cand = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let slow: Vec<CaptureSet> = cases
        .iter()
        .map(|(p, c)| capture_threats_brute(p, *c, steps))
        .collect();
    let t_slow = t2.elapsed().as_secs_f64();

    let mut agree = Agreement::default();
    let mut cand_hits = 0usize;
    let mut cand_missed = 0usize;
    for (i, (exact, got)) in slow.iter().zip(&fast).enumerate() {
        agree.add(exact, got);
        cand_hits += (cands[i] & exact.squares()).count() as usize;
        cand_missed += exact.squares().and_not(cands[i]).count() as usize;
        if exact.squares() != got.squares()
            || Iterator::any(&mut exact.squares(), |s| exact.steps(s) != got.steps(s))
        {
            let (p, c) = &cases[i];
            outln!(
                "DIFF {} {} steps_left {} attacker {}: brute {:?}, static {:?}",
                p.side().to_char(),
                board_string(p),
                p.steps_left(),
                c.to_char(),
                named(&exact.entries()),
                named(&got.entries())
            )?;
        }
    }
    let k = cases.len() as f64;
    outln!(
        "{} cases ({} {} positions x both attackers, seed {seed}, up to {steps} steps)",
        cases.len(),
        positions.len(),
        kind.name()
    )?;
    outln!(
        "brute force: {} capturable pieces; static: {} found (recall {:.2}%), {} with the same fewest steps, {} false alarms, {} cases differ",
        agree.truth,
        agree.found,
        pct(agree.found, agree.truth),
        agree.same_steps,
        agree.false_alarms,
        agree.positions_differing
    )?;
    outln!(
        "candidate filter: {} named, {} capturable among them (precision {:.1}%), {} capturable missed",
        cand_count,
        cand_hits,
        pct(cand_hits, cand_count),
        cand_missed
    )?;
    outln!(
        "speed: static {:.0} cases/s, filter {:.0} cases/s, brute force {:.0} cases/s",
        k / t_fast.max(1e-9),
        k / t_cand.max(1e-9),
        k / t_slow.max(1e-9)
    )?;
    if !agree.exact() || cand_missed > 0 {
        bail!(
            "{} of {} cases differ, {} capturable pieces missed by the filter",
            agree.positions_differing,
            cases.len(),
            cand_missed
        );
    }
    Ok(())
}

fn budget_of(p: &Position, c: Color, steps: u8) -> u8 {
    if c == p.side() {
        steps.min(p.steps_left())
    } else {
        steps.min(4)
    }
}

fn named(e: &[(Square, u8)]) -> Vec<String> {
    e.iter().map(|(s, n)| format!("{s}:{n}")).collect()
}
