//! Exact capture detection: which enemy pieces a side can capture within a
//! number of steps, in how few, and with which first action.
//!
//! An enemy piece dies only when one of the enemy's own steps leaves it on a
//! trap with no friend next to it, and the side moving makes enemy pieces
//! step only by pushing or pulling them. So every capture is a push or pull
//! of either the victim onto a trap, or of the victim's last guard away from
//! the trap it stands on. That gives a lower bound per victim and trap that
//! is never too high: two steps for each square the victim must travel and
//! for each other enemy piece next to (or on) the trap, since each push or
//! pull displaces exactly one enemy piece. [`capture_candidates`] (in
//! [`super::threats`], with the other cheap filters) adds the distance of
//! the nearest attacker strong enough (a frozen one counting one square
//! farther). Most pieces fail these tests.
//!
//! For a piece that passes, the method is the one of goal detection
//! ([`super::goal`]): the victim's obstacles name the actions that matter
//! (displacing the victim or a guard, an attacker arriving next to them, a
//! friend leaving the trap or the victim's way), their preconditions are
//! expanded level by level within the slack the lower bound leaves, and the
//! few resulting plans are played out on the board, following the victim as
//! it is pushed and pulled, so trap captures and freezes are judged by the
//! rules themselves. The plan machinery is shared with goal detection
//! (the private `tactics::plan`). `capture_threats_brute` (`tactics::oracle`, for tests
//! and the `dev` feature) is the reference: a search over every action
//! sequence.

use super::plan::{ActionParts, FailTable, Needs};
use super::threats::{capture_bound, capture_candidates, manhattan, trap_bound};
use crate::board::STEPS_PER_TURN;
use crate::board::bitboard::adjacent;
use crate::board::stepgen::generate_actions_of;
use crate::board::{Action, ActionList, Bitboard, Color, Position, Square};

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

    pub(super) fn record(&mut self, sq: Square, steps: u8, first: Action) {
        if !self.squares.contains(sq) || steps < self.steps[sq.index()] {
            self.squares |= Bitboard::from_square(sq);
            self.steps[sq.index()] = steps;
            self.first[sq.index()] = first;
        }
    }
}

/// The steps `attacker` has on `pos` when asked about `steps`: its steps
/// left when it is already to move, otherwise a fresh turn.
pub fn attacker_budget(pos: &Position, attacker: Color, steps: u8) -> u8 {
    if attacker == pos.side() {
        steps.min(pos.steps_left())
    } else {
        steps.min(STEPS_PER_TURN)
    }
}

/// `pos` with `attacker` to move and its [`attacker_budget`] as the steps
/// left: the position every capture question is answered on.
pub fn attacker_view(pos: &Position, attacker: Color, steps: u8) -> Position {
    let mut p = pos.clone();
    p.set_side(attacker);
    p.set_steps_left(attacker_budget(pos, attacker, steps));
    p
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
    line: [Action; STEPS_PER_TURN as usize],
    /// (position, budget, victim) queries known to fail.
    failed: FailTable<256>,
}

impl CaptureSearch {
    fn new(us: Color) -> CaptureSearch {
        CaptureSearch {
            us,
            line: [Action::NONE; STEPS_PER_TURN as usize],
            failed: FailTable::new(),
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
        let salt = (v.raw() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let key = FailTable::<256>::key(pos, n, salt);
        if self.failed.failed(key) {
            return false;
        }

        let mut core = Bitboard::EMPTY;
        let mut allow = [Needs::default(); 3];
        for t in Bitboard::TRAPS {
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

        // Only pieces that can make a relevant action move: one next to a
        // piece it may displace, one leaving `vacate`, one next to an
        // `arrive` square. Generating the others' actions only to drop
        // them was most of this search's cost: it fell from 11% of
        // `aamir bench`'s time to 5% (docs/experiments.md, stop 39).
        let mut near = core;
        let mut movers = Bitboard::EMPTY;
        for need in &allow[1..] {
            near |= need.displace | need.arrive;
            movers |= need.vacate;
        }
        let movers = movers | near.neighbors();
        let mut list = ActionList::new();
        generate_actions_of(pos, movers, &mut list);
        for pass in 0..2 {
            for &a in list.as_slice() {
                let cost = a.cost();
                if cost > n {
                    continue;
                }
                let victim = ActionParts::of(a).victim;
                let is_core = victim.is_some_and(|(s, _)| core.contains(s));
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
                // Follow the victim if this action moves it.
                let nv = match victim {
                    Some((from, to)) if from == v => to,
                    _ => v,
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
        self.failed.mark_failed(key);
        false
    }
}

/// The enemy pieces `attacker` can capture within `steps` steps, each with
/// its fewest steps and a first action. When `attacker` is the side to move
/// it has at most its steps left; otherwise it is given a fresh turn, which
/// is how the search sees what the opponent threatens next turn.
pub fn capture_threats(pos: &Position, attacker: Color, steps: u8) -> CaptureSet {
    let budget = attacker_budget(pos, attacker, steps);
    let mut set = CaptureSet::default();
    // The filter reads only the board, so most queries end here without a
    // copy of the position.
    let cands = capture_candidates(pos, attacker, budget);
    if cands.is_empty() {
        return set;
    }
    let p = attacker_view(pos, attacker, steps);
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
    capture_threats(pos, pos.side().opp(), STEPS_PER_TURN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::diagram as pos;
    use crate::tactics::oracle::capture_threats_brute;

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
