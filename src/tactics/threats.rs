//! Cheap capture filters: bitboards around the four traps, cheap enough for
//! every leaf of the search, with no plan search behind them.
//!
//! - [`two_step_captures`]: exactly the enemy pieces one push or pull (two
//!   steps) captures. That is every capture two steps can make, since a
//!   single step never removes an enemy piece: either the pushed or pulled
//!   piece lands on a trap no other friend of it guards, or it was the last
//!   guard of a friend standing on a trap.
//! - [`capture_candidates`]: a superset of the enemy pieces capturable
//!   within any number of steps, the filter in front of the exact detector
//!   of [`super::capture`].
//!
//! Both rest on the same facts: an enemy piece dies only on a trap, it moves
//! only when a stronger attacker that can move now pushes or pulls it, and
//! each push or pull displaces one enemy piece, so every other enemy next to
//! or on the trap costs two more steps (`trap_bound`). The exact detector
//! is the reference both are tested against.

use crate::board::bitboard::adjacent;
use crate::board::stepgen::mobile_by_kind;
use crate::board::{Bitboard, Color, Kind, Position, Square};

/// Steps from `a` to `b` along files and ranks (the Manhattan distance).
#[inline(always)]
pub(crate) fn manhattan(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

/// The enemy pieces of `en` other than `v` next to or on trap `t`: each
/// must be displaced before `v` dies there.
#[inline(always)]
fn other_guards(en: Bitboard, v: Square, t: Square) -> Bitboard {
    (adjacent(t) | Bitboard::from_square(t)) & en & !Bitboard::from_square(v)
}

/// Lower bound in steps to capture the enemy piece on `v` on trap `t`: two
/// per square it must travel and two per other enemy piece next to or on
/// the trap.
#[inline(always)]
pub(super) fn trap_bound(en: Bitboard, v: Square, t: Square) -> u8 {
    2 * (manhattan(v, t) + other_guards(en, v, t).count() as u8)
}

/// The best [`trap_bound`] over the four traps.
#[inline(always)]
pub(super) fn capture_bound(en: Bitboard, v: Square) -> u8 {
    Bitboard::TRAPS
        .map(|t| trap_bound(en, v, t))
        .min()
        .unwrap_or(u8::MAX)
}

/// The attacker's pieces that can displace enemy pieces of each kind.
struct Attackers<'a> {
    pos: &'a Position,
    us: Color,
    /// The attacker's pieces by kind that can move now (not frozen).
    mobile: [Bitboard; 6],
}

impl<'a> Attackers<'a> {
    fn new(pos: &'a Position, us: Color) -> Attackers<'a> {
        Attackers {
            pos,
            us,
            mobile: mobile_by_kind(pos, us),
        }
    }

    /// Pieces stronger than an enemy `kind`.
    #[inline(always)]
    fn stronger(&self, kind: Kind) -> Bitboard {
        self.pos.stronger_enemies(self.us.opp(), kind)
    }

    /// Pieces stronger than an enemy `kind` that can move now.
    #[inline(always)]
    fn mobile_stronger(&self, kind: Kind) -> Bitboard {
        self.mobile[kind.index() + 1..]
            .iter()
            .fold(Bitboard::EMPTY, |b, &m| b | m)
    }

    /// Whether one of them next to the enemy on `v` can push or pull it now
    /// (given room).
    #[inline(always)]
    fn next_to(&self, v: Square) -> bool {
        (adjacent(v) & self.mobile_stronger(self.pos.kind_at(v))).any()
    }

    /// Whether one of them can move the enemy on `v` off its square with one
    /// push or pull: room next to `v` (push) or next to the attacker (pull).
    #[inline(always)]
    fn can_displace(&self, v: Square) -> bool {
        let empty = self.pos.empty_squares();
        let mut pushers = adjacent(v) & self.mobile_stronger(self.pos.kind_at(v));
        if pushers.is_empty() {
            return false;
        }
        (adjacent(v) & empty).any()
            || Iterator::any(&mut pushers, |sq| (adjacent(sq) & empty).any())
    }

    /// Steps' worth of distance from the nearest attacker strong enough for
    /// an enemy `kind` to `x`; a frozen one needs at least one more step (a
    /// friend arriving, or its freezer displaced) before it can act.
    #[inline(always)]
    fn reach(&self, x: Square, kind: Kind) -> u8 {
        let strong = self.stronger(kind);
        let free = strong & self.mobile_stronger(kind);
        nearest(free, x).min(nearest(strong.and_not(free), x).saturating_add(1))
    }
}

/// Distance from `sq` to the nearest square of `set` (255 if empty).
#[inline(always)]
fn nearest(set: Bitboard, sq: Square) -> u8 {
    set.map(|s| manhattan(s, sq)).min().unwrap_or(255)
}

/// Squares of the enemy pieces `attacker` can capture with one push or
/// pull, as if it had at least two steps now.
pub fn two_step_captures(pos: &Position, attacker: Color) -> Bitboard {
    let d = attacker.opp();
    let own = pos.occupied_by(d);
    let att = Attackers::new(pos, attacker);
    let mut out = Bitboard::EMPTY;
    for t in Bitboard::TRAPS {
        let around = adjacent(t);
        let guards = around & own;
        match pos.piece_at(t) {
            Some(p) if p.color() == d => {
                // Its only guard moved away leaves it alone on the trap.
                if guards.count() == 1 && att.can_displace(guards.first()) {
                    out |= Bitboard::from_square(t);
                }
            }
            Some(p) => {
                // Our piece on the trap steps off and pulls a weaker enemy
                // onto it, where no other enemy guards it.
                let mobile = att.mobile[p.kind().index()];
                if mobile.contains(t) && (around & pos.empty_squares()).any() {
                    for v in guards {
                        if (guards & !Bitboard::from_square(v)).is_empty()
                            && pos.kind_at(v) < p.kind()
                        {
                            out |= Bitboard::from_square(v);
                        }
                    }
                }
            }
            None => {
                // An enemy next to the empty trap pushed onto it, with no
                // other enemy next to the trap.
                for v in guards {
                    if (guards & !Bitboard::from_square(v)).is_empty() && att.next_to(v) {
                        out |= Bitboard::from_square(v);
                    }
                }
            }
        }
    }
    out
}

/// A cheap superset of the enemy pieces `attacker` could capture within
/// `steps` steps (the caller's budget: see
/// [`attacker_view`](super::capture::attacker_view)), for use at every leaf
/// of the search: pieces whose lower bound fits and that have an attacker
/// strong enough within reach. Never misses a capturable piece; how often it
/// names one that is not capturable is measured by the `dev` study
/// `aamir capture --random`.
pub fn capture_candidates(pos: &Position, attacker: Color, steps: u8) -> Bitboard {
    let en = pos.occupied_by(attacker.opp());
    // Pieces more than `steps / 2` squares from every trap cannot get there.
    let reach = match steps / 2 {
        0 => return Bitboard::EMPTY,
        1 => Bitboard::TRAPS | Bitboard::TRAPS.neighbors(),
        _ => {
            let n1 = Bitboard::TRAPS | Bitboard::TRAPS.neighbors();
            n1 | n1.neighbors()
        }
    };
    let att = Attackers::new(pos, attacker);
    let mut out = Bitboard::EMPTY;
    for v in en & reach {
        let kind = pos.kind_at(v);
        for t in Bitboard::TRAPS {
            let lb = trap_bound(en, v, t);
            if lb > steps {
                continue;
            }
            let slack = steps - lb;
            let guards = other_guards(en, v, t);
            // Each push or pull can also bring its attacker one square
            // closer, so the approach may use the slack and one square per
            // guard displaced.
            let approach = 1 + slack + guards.count() as u8;
            // Every guard must be displaced, so each needs an attacker in
            // reach; so does the victim if it has to travel.
            let mut gs = guards;
            let reachable = gs.all(|g| att.reach(g, pos.kind_at(g)) <= approach)
                && (v == t || att.reach(v, kind) <= approach);
            // With no slack the first action already displaces the victim or
            // a guard: an attacker able to move must stand next to one now.
            let ok = reachable
                && (slack > 0
                    || (v != t && att.next_to(v))
                    || Iterator::any(&mut guards.clone(), |g| att.next_to(g)));
            if ok {
                out |= Bitboard::from_square(v);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;
    use crate::tactics::capture::capture_threats;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn two_step_captures_agree_with_the_exact_detector_on_random_play() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        let mut checked = 0;
        let mut found = 0;
        for _ in 0..30 {
            let mut game = Game::from_position(Position::standard_opening(), 1);
            for _ in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                let pos = game.position().clone();
                for a in Color::BOTH {
                    let exact = capture_threats(&pos, a, 2).squares();
                    let cheap = two_step_captures(&pos, a);
                    assert_eq!(
                        cheap,
                        exact,
                        "{a:?} on {}",
                        crate::board::notation::board_string(&pos)
                    );
                    checked += 1;
                    found += exact.count();
                }
                let turns = game.legal_turns();
                let t = &turns[rng.random_range(0..turns.len())];
                game.play(&crate::board::notation::format_steps(&pos, &t.steps()).unwrap())
                    .unwrap();
            }
        }
        assert!(
            checked > 1000 && found > 20,
            "checked {checked}, found {found}"
        );
    }
}
