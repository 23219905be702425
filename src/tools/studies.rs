//! Development studies: the goal and capture detectors compared with the
//! brute-force oracles on random positions, with agreement, recall,
//! precision and speeds (`aamir goal --random`, `aamir capture --random`).
//! Not part of the product: built only for tests and with the `dev` cargo
//! feature (`cargo build --release --features dev`).

use crate::board::notation::board_string;
use crate::board::{Color, Position, Square};
use crate::outln;
use crate::tactics::capture::{CaptureSet, attacker_budget, capture_threats};
use crate::tactics::goal::goal_plan;
use crate::tactics::oracle::{capture_threats_brute, goal_distance_brute};
use crate::tactics::random::RandomKind;
use crate::tactics::threats::capture_candidates;
use crate::tools::goal::show;
use anyhow::{Result, bail};
use std::time::Instant;

/// `aamir goal --random N`: compares the static routine with the brute
/// force on `n` random-play positions, prints agreement and both speeds;
/// fails on any disagreement.
pub fn goal_random(n: usize, seed: u64, kind: RandomKind) -> Result<()> {
    let positions = kind.positions(seed, n, false);
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
pub fn capture_random(n: usize, seed: u64, steps: u8, kind: RandomKind) -> Result<()> {
    let positions = kind.positions(seed, n, true);
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
            let b = capture_candidates(p, *c, attacker_budget(p, *c, steps));
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

fn named(e: &[(Square, u8)]) -> Vec<String> {
    e.iter().map(|(s, n)| format!("{s}:{n}")).collect()
}
