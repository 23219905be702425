//! Brute-force reference answers for goal and capture detection: plain
//! searches over every action, slow and obviously right, that the tests and
//! the `dev` studies (`aamir goal --brute`, `--random`) compare the real
//! detectors with. Not part of the product: built only for tests and with
//! the `dev` cargo feature.

use super::capture::{CaptureSet, attacker_view};
use crate::board::stepgen::generate_actions;
use crate::board::{Action, ActionList, Color, Position, Square};
use std::collections::HashMap;

/// Reference answer for [`goal_distance`](super::goal::goal_distance): a depth-first search over every
/// legal action (single steps, pushes, pulls) for the fewest steps until a
/// rabbit of the side to move is on goal. Its only pruning is that a rabbit
/// moves at most one rank per step, plus a table of positions already known
/// to fail with at least the same budget. Slow; for tests and benchmarks.
pub fn goal_distance_brute(pos: &Position) -> Option<u8> {
    let us = pos.side();
    if pos.has_goal(us) {
        return Some(0);
    }
    let mut failed = HashMap::new();
    (1..=pos.steps_left()).find(|&n| goal_dfs(pos, us, n, &mut failed))
}

fn goal_dfs(pos: &Position, us: Color, n: u8, failed: &mut HashMap<u64, u8>) -> bool {
    if pos.has_goal(us) {
        return true;
    }
    if n == 0 {
        return false;
    }
    let near = Iterator::any(&mut pos.rabbits(us), |r| match us {
        Color::Gold => 7 - r.rank() <= n,
        Color::Silver => r.rank() <= n,
    });
    if !near || failed.get(&pos.hash()).is_some_and(|&m| m >= n) {
        return false;
    }
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    for &a in list.as_slice() {
        if a.cost() > n {
            continue;
        }
        let mut child = pos.clone();
        child.apply_action(a);
        if goal_dfs(&child, us, n - a.cost(), failed) {
            return true;
        }
    }
    let e = failed.entry(pos.hash()).or_insert(0);
    *e = (*e).max(n);
    false
}

/// Reference answer for
/// [`capture_threats`](super::capture::capture_threats): a search over every sequence
/// of actions within the steps, following each enemy piece by identity
/// through pushes and pulls, with a table of states already searched with at
/// least as many steps. Slow; for tests and benchmarks. First actions are
/// not kept (`Action::NONE`).
pub fn capture_threats_brute(pos: &Position, attacker: Color, steps: u8) -> CaptureSet {
    let p = attacker_view(pos, attacker, steps);
    // ids[sq]: the square the enemy piece now on sq started on (64 = none).
    let mut ids = [64u8; 64];
    for s in p.occupied_by(attacker.opp()) {
        ids[s.index()] = s.raw();
    }
    let mut set = CaptureSet::default();
    let mut seen = HashMap::new();
    let budget = p.steps_left();
    capture_dfs(&p, &ids, budget, budget, &mut seen, &mut set);
    set
}

fn ids_key(pos: &Position, ids: &[u8; 64]) -> u64 {
    let mut h = pos.hash();
    for s in pos.occupied() {
        let id = ids[s.index()];
        if id != 64 && id != s.raw() {
            let x = (s.raw() as u64) << 8 | id as u64;
            h ^= x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23) ^ x;
        }
    }
    h
}

fn capture_dfs(
    pos: &Position,
    ids: &[u8; 64],
    budget: u8,
    left: u8,
    seen: &mut HashMap<u64, u8>,
    set: &mut CaptureSet,
) {
    if left < 2 {
        return;
    }
    let key = ids_key(pos, ids);
    match seen.get(&key) {
        Some(&m) if m >= left => return,
        _ => {
            seen.insert(key, left);
        }
    }
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    for &a in list.as_slice() {
        let mut child = pos.clone();
        let mut cids = *ids;
        for s in a.steps() {
            // Follow enemy pieces as they are pushed and pulled.
            if ids[s.from.index()] != 64
                && pos.piece_at(s.from).map(|p| p.color()) != Some(pos.side())
            {
                cids[s.to.index()] = cids[s.from.index()];
                cids[s.from.index()] = 64;
            }
        }
        let caps = child.apply_action(a);
        let used = budget - child.steps_left();
        for c in caps.iter().flatten() {
            if c.piece.color() != pos.side() {
                let id = cids[c.square.index()];
                debug_assert!(id != 64);
                set.record(Square::new(id), used, Action::NONE);
                cids[c.square.index()] = 64;
            }
        }
        capture_dfs(&child, &cids, budget, child.steps_left(), seen, set);
    }
}
