//! Capture detection: which enemy pieces a side can capture within a number
//! of steps, in how few, and with which first action; and a cheap bitboard
//! filter for the evaluation.
//!
//! An enemy piece dies only when one of the enemy's own steps leaves it on a
//! trap with no friend next to it, and the side moving makes enemy pieces
//! step only by pushing or pulling them. So every capture is a push or pull
//! of either the victim onto a trap, or of the victim's last guard away from
//! the trap it stands on. That gives a lower bound per victim and trap that
//! is never too high: two steps for each square the victim must travel and
//! for each other enemy piece next to (or on) the trap, since each push or
//! pull displaces exactly one enemy piece. [`capture_candidates`] adds the
//! distance of the nearest attacker strong enough (a frozen one counting one
//! square farther). Most pieces fail these tests.
//!
//! For a piece that passes, the method is the one of goal detection
//! ([`super::goal`]): the victim's obstacles name the actions that matter
//! (displacing the victim or a guard, an attacker arriving next to them, a
//! friend leaving the trap or the victim's way), their preconditions are
//! expanded level by level within the slack the lower bound leaves, and the
//! few resulting plans are played out on the board, following the victim as
//! it is pushed and pulled, so trap captures and freezes are judged by the
//! rules themselves. [`capture_threats_brute`] is the reference: a search
//! over every action sequence.

use super::goal::{Needs, action_parts};
use crate::board::bitboard::adjacent;
use crate::board::stepgen::{generate_actions, mobile_by_kind};
use crate::board::{Action, ActionList, Bitboard, Color, Kind, Position, Square};
use std::collections::HashMap;

/// Enemy pieces a side can capture, each with the fewest steps and the
/// first action of a shortest capture. Pieces are named by the square they
/// stand on in the position asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureSet {
    squares: Bitboard,
    steps: [u8; 64],
    first: [Action; 64],
}

impl Default for CaptureSet {
    fn default() -> Self {
        CaptureSet {
            squares: Bitboard::EMPTY,
            steps: [0; 64],
            first: [Action::NONE; 64],
        }
    }
}

impl CaptureSet {
    /// The capturable pieces.
    pub fn squares(&self) -> Bitboard {
        self.squares
    }

    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Fewest steps to capture the piece on `sq`, if it can be captured.
    pub fn steps(&self, sq: Square) -> Option<u8> {
        self.squares.contains(sq).then(|| self.steps[sq.index()])
    }

    /// The first action of a shortest capture of the piece on `sq`
    /// (`Action::NONE` from the brute force, which does not keep them).
    pub fn first_action(&self, sq: Square) -> Option<Action> {
        self.squares.contains(sq).then(|| self.first[sq.index()])
    }

    /// Fewest steps to capture anything.
    pub fn min_steps(&self) -> Option<u8> {
        self.squares.map(|s| self.steps[s.index()]).min()
    }

    /// `(square, steps)` pairs, by square.
    pub fn entries(&self) -> Vec<(Square, u8)> {
        self.squares.map(|s| (s, self.steps[s.index()])).collect()
    }

    fn record(&mut self, sq: Square, steps: u8, first: Action) {
        if !self.squares.contains(sq) || steps < self.steps[sq.index()] {
            self.squares |= Bitboard::from_square(sq);
            self.steps[sq.index()] = steps;
            self.first[sq.index()] = first;
        }
    }
}

/// `pos` with `attacker` to move and `steps` steps: the attacker keeps its
/// steps left when it is already to move, otherwise gets a fresh turn.
fn attacker_view(pos: &Position, attacker: Color, steps: u8) -> Position {
    let mut p = pos.clone();
    let budget = if attacker == pos.side() {
        steps.min(pos.steps_left())
    } else {
        steps.min(4)
    };
    p.set_side(attacker);
    p.set_steps_left(budget);
    p
}

#[inline(always)]
fn manhattan(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

const TRAP_SQUARES: [u8; 4] = [18, 21, 42, 45];

/// Lower bound in steps to capture the enemy piece on `v` on trap `t`: two
/// per square it must travel and two per other enemy piece next to or on
/// the trap. `None` if it is out of the question (no attacker could ever
/// displace it).
#[inline(always)]
fn trap_bound(en: Bitboard, v: Square, t: Square) -> u8 {
    let others = (adjacent(t) | Bitboard::from_square(t)) & en & !Bitboard::from_square(v);
    2 * (manhattan(v, t) + others.count() as u8)
}

/// The best lower bound over the four traps.
#[inline(always)]
fn capture_bound(en: Bitboard, v: Square) -> u8 {
    TRAP_SQUARES
        .iter()
        .map(|&t| trap_bound(en, v, Square::new(t)))
        .min()
        .unwrap_or(u8::MAX)
}

/// Own pieces of `us` stronger than an enemy piece of `kind`.
#[inline(always)]
fn stronger_own(pos: &Position, us: Color, kind: Kind) -> Bitboard {
    pos.stronger_enemies(us.opp(), kind)
}

/// Distance from `sq` to the nearest square of `set` (255 if empty).
#[inline(always)]
fn nearest(set: Bitboard, sq: Square) -> u8 {
    set.map(|s| manhattan(s, sq)).min().unwrap_or(255)
}

/// A cheap superset of the enemy pieces `attacker` could capture within
/// `steps` steps (fresh turn if it is not to move), for use at every leaf
/// of the search: pieces whose lower bound fits and that have an attacker
/// strong enough within reach. Never misses a capturable piece; how often it
/// names one that is not capturable is measured by `aamir capture --random`.
pub fn capture_candidates(pos: &Position, attacker: Color, steps: u8) -> Bitboard {
    let us = attacker;
    let en = pos.occupied_by(us.opp());
    // Pieces more than `steps / 2` squares from every trap cannot get there.
    let reach = match steps / 2 {
        0 => return Bitboard::EMPTY,
        1 => Bitboard::TRAPS | Bitboard::TRAPS.neighbors(),
        _ => {
            let n1 = Bitboard::TRAPS | Bitboard::TRAPS.neighbors();
            n1 | n1.neighbors()
        }
    };
    let mobile = mobile_by_kind(pos, us);
    // Own pieces that can move now and are stronger than an enemy `kind`.
    let mobile_stronger = |kind: Kind| {
        mobile[kind.index() + 1..]
            .iter()
            .fold(Bitboard::EMPTY, |b, &m| b | m)
    };
    let kind_at = |sq: Square| pos.piece_at(sq).map_or(Kind::Rabbit, |p| p.kind());
    let mut out = Bitboard::EMPTY;
    for v in en & reach {
        let kind = kind_at(v);
        for &t in &TRAP_SQUARES {
            let t = Square::new(t);
            let lb = trap_bound(en, v, t);
            if lb > steps {
                continue;
            }
            let slack = steps - lb;
            let guards = (adjacent(t) | Bitboard::from_square(t)) & en & !Bitboard::from_square(v);
            // Each push or pull can also bring its attacker one square
            // closer, so the approach may use the slack and one square per
            // guard displaced.
            let approach = 1 + slack + guards.count() as u8;
            // Every guard must be displaced, so each needs an attacker in
            // reach; so does the victim if it has to travel.
            // A frozen attacker needs at least one more step (a friend
            // arriving, or its freezer displaced) before it can act.
            let reach_of = |x: Square, k: Kind| {
                let strong = stronger_own(pos, us, k);
                let free = strong & mobile_stronger(k);
                nearest(free, x).min(nearest(strong.and_not(free), x).saturating_add(1))
            };
            let mut gs = guards;
            let reachable = gs.all(|g| reach_of(g, kind_at(g)) <= approach)
                && (v == t || reach_of(v, kind) <= approach);
            // With no slack the first action already displaces the victim or
            // a guard: an attacker able to move must stand next to one now.
            let ok = reachable
                && (slack > 0
                    || (v != t && (adjacent(v) & mobile_stronger(kind)).any())
                    || Iterator::any(&mut guards.clone(), |g| {
                        (adjacent(g) & mobile_stronger(kind_at(g))).any()
                    }));
            if ok {
                out |= Bitboard::from_square(v);
                break;
            }
        }
    }
    out
}

/// What capturing the piece on `v` on trap `t` needs done directly.
fn victim_needs(pos: &Position, us: Color, v: Square, t: Square) -> (Bitboard, Needs) {
    let own = pos.occupied_by(us);
    let en = pos.occupied_by(us.opp());
    let vb = Bitboard::from_square(v);
    let tb = Bitboard::from_square(t);
    let core = vb | ((adjacent(t) | tb) & en);
    // Squares the victim may pass on its way to the trap.
    let way = if manhattan(v, t) == 2 {
        adjacent(v) & adjacent(t)
    } else {
        Bitboard::EMPTY
    };
    let mut needs = Needs {
        vacate: own & (tb | way),
        displace: core,
        arrive: core.neighbors() | way,
    };
    // The pushes and pulls of the victim and its guards are the captures
    // themselves; their preconditions (an attacker unfrozen, room to push or
    // pull into) are what the first preparatory level must see.
    let direct = Needs {
        displace: core,
        ..Needs::default()
    };
    needs.union(&direct.expand(pos, us));
    (core, needs)
}

/// Capture search for one victim within one query.
struct CaptureSearch {
    us: Color,
    line: [Action; 4],
    failed: [u64; 1 << FAIL_BITS],
}

const FAIL_BITS: u32 = 8;

impl CaptureSearch {
    fn new(us: Color) -> CaptureSearch {
        CaptureSearch {
            us,
            line: [Action::NONE; 4],
            failed: [0; 1 << FAIL_BITS],
        }
    }

    /// Whether the enemy piece now on `v` can be captured within `n` steps.
    fn can_capture(&mut self, pos: &Position, v: Square, n: u8, ply: usize) -> bool {
        if n < 2 {
            return false;
        }
        let us = self.us;
        let en = pos.occupied_by(us.opp());
        let lb = capture_bound(en, v);
        if lb > n {
            return false;
        }
        let key = (pos.hash()
            ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (v.raw() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93))
            | 1;
        let slot = (key >> (64 - FAIL_BITS)) as usize;
        if self.failed[slot] == key {
            return false;
        }

        let mut core = Bitboard::EMPTY;
        let mut allow = [Needs::default(); 3];
        for &t in &TRAP_SQUARES {
            let t = Square::new(t);
            let lbt = trap_bound(en, v, t);
            if lbt > n {
                continue;
            }
            let (c, mut level) = victim_needs(pos, us, v, t);
            core |= c;
            let slack = n - lbt;
            for k in 0..slack {
                for cost in 1..=2u8 {
                    if cost + k <= slack {
                        allow[cost as usize].union(&level);
                    }
                }
                if k + 1 < slack {
                    level = level.expand(pos, us);
                }
            }
        }

        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        for pass in 0..2 {
            for &a in list.as_slice() {
                let cost = a.cost();
                if cost > n {
                    continue;
                }
                let (_, _, victim) = action_parts(a);
                let is_core = victim.is_some_and(|s| core.contains(s));
                let relevant = if pass == 0 {
                    is_core
                } else {
                    !is_core && allow[cost as usize].matches(a)
                };
                if !relevant {
                    continue;
                }
                let mut child = pos.clone();
                let caps = child.apply_action(a);
                let nv = if victim == Some(v) {
                    victim_destination(a)
                } else {
                    v
                };
                let captured = caps
                    .iter()
                    .flatten()
                    .any(|c| c.square == nv && c.piece.color() != us);
                if captured || self.can_capture(&child, nv, n - cost, ply + 1) {
                    self.line[ply] = a;
                    return true;
                }
            }
        }
        self.failed[slot] = key;
        false
    }
}

/// Where the enemy piece a push or pull displaces ends up.
#[inline(always)]
fn victim_destination(a: Action) -> Square {
    let s1 = a.first();
    match a.kind() {
        crate::board::ActionKind::Push => s1.to,
        _ => a.second().expect("a pull has two steps").to,
    }
}

/// The enemy pieces `attacker` can capture within `steps` steps, each with
/// its fewest steps and a first action. When `attacker` is the side to move
/// it has at most its steps left; otherwise it is given a fresh turn, which
/// is how the search sees what the opponent threatens next turn.
pub fn capture_threats(pos: &Position, attacker: Color, steps: u8) -> CaptureSet {
    let p = attacker_view(pos, attacker, steps);
    let budget = p.steps_left();
    let mut set = CaptureSet::default();
    let cands = capture_candidates(&p, attacker, budget);
    if cands.is_empty() {
        return set;
    }
    // One failure table for all victims: its keys name the victim's square.
    let mut search = CaptureSearch::new(attacker);
    for v in cands {
        let lb = capture_bound(p.occupied_by(attacker.opp()), v);
        for n in lb.max(2)..=budget {
            if search.can_capture(&p, v, n, 0) {
                set.record(v, n, search.line[0]);
                break;
            }
        }
    }
    set
}

/// The side to move's pieces the opponent could capture on its next turn.
pub fn opponent_threats(pos: &Position) -> CaptureSet {
    capture_threats(pos, pos.side().opp(), 4)
}

/// Reference answer for [`capture_threats`]: a search over every sequence
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
    brute_dfs(&p, &ids, budget, budget, &mut seen, &mut set);
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

fn brute_dfs(
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
        brute_dfs(&child, &cids, budget, child.steps_left(), seen, set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;

    /// Builds a position from rows a8..h8 down to a1..h1 (`.` empty).
    fn pos(side: &str, rows: [&str; 8]) -> Position {
        let board: String = rows.concat().replace('.', " ");
        parse_side_and_board(&format!("{side} [{board}]")).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn check(p: &Position, attacker: Color, steps: u8) -> CaptureSet {
        let got = capture_threats(p, attacker, steps);
        assert_eq!(
            got.entries(),
            capture_threats_brute(p, attacker, steps).entries()
        );
        assert!(
            got.squares()
                .and_not(capture_candidates(p, attacker, steps))
                .is_empty()
        );
        got
    }

    #[test]
    fn push_and_pull_onto_a_trap() {
        // Silver cat d3 next to trap c3: the gold dog e3 pushes it (2 steps).
        // Silver rabbit f4 above trap f3: the dog first steps next to it.
        let p = pos(
            "g",
            [
                "r.......", "........", "........", "........", ".....r..", "...cD...", "........",
                ".......R",
            ],
        );
        let set = check(&p, Color::Gold, 4);
        assert_eq!(set.steps(sq("d3")), Some(2));
        assert_eq!(set.first_action(sq("d3")).unwrap().to_string(), "d3w e3w");
        // The dog steps e3-e4 next to the rabbit and pushes it to f3: 3.
        assert_eq!(set.steps(sq("f4")), Some(3));
        assert_eq!(set.steps(sq("a8")), None);
        // Within two steps only the cat.
        assert_eq!(check(&p, Color::Gold, 2).entries(), vec![(sq("d3"), 2)]);
    }

    #[test]
    fn a_second_guard_costs_two_more_steps() {
        // Silver cat d3 next to c3, a silver rabbit on b3 also guards the
        // trap: the gold camel b2 pulls it away first, then the elephant d2
        // pushes the cat onto the trap.
        let p = pos(
            "g",
            [
                "........", "........", "........", "........", "........", ".r.c....", ".M.E....",
                ".......R",
            ],
        );
        let set = check(&p, Color::Gold, 4);
        assert!(set.steps(sq("d3")).is_some_and(|n| n == 4));
    }

    #[test]
    fn the_opponent_threatens_with_a_fresh_turn() {
        // Gold to move with one step left; silver's elephant next to a gold
        // cat beside an empty trap threatens it next turn.
        let mut p = pos(
            "g",
            [
                "r.......", "........", "........", "........", "........", "...Ce...", "........",
                ".......R",
            ],
        );
        p.set_steps_left(1);
        let set = opponent_threats(&p);
        assert_eq!(set.steps(sq("d3")), Some(2));
        assert_eq!(
            set.entries(),
            capture_threats_brute(&p, Color::Silver, 4).entries()
        );
        // Gold itself has no captures.
        assert!(check(&p, Color::Gold, 4).is_empty());
    }
}
