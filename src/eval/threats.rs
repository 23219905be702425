//! Cheap capture threats for the evaluation: which enemy pieces a side can
//! capture with a single push or pull (two steps). That is every capture
//! two steps can make, since a single step never removes an enemy piece:
//! either the pushed or pulled piece lands on a trap no other friend of it
//! guards, or it was the last guard of a friend standing on a trap.
//!
//! Bitboards around the four traps only, so it is cheap enough for every
//! leaf; the exact detector in `search::capture` (any number of steps) is
//! the reference it is tested against.

use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position, Square};

const TRAPS: [u8; 4] = [18, 21, 42, 45];

/// Pieces of `a` that may push or pull now: not frozen.
#[inline]
fn movers(pos: &Position, a: Color) -> Bitboard {
    pos.occupied_by(a) & !pos.frozen(a)
}

/// The kind of the piece on `sq` (which must be occupied).
#[inline]
fn kind_at(pos: &Position, sq: Square) -> Kind {
    pos.piece_at(sq).map_or(Kind::Rabbit, |p| p.kind())
}

/// Whether an unfrozen piece of `a` stronger than the enemy on `v` stands
/// next to it (so it can push `v`, given room, or pull it).
#[inline]
fn has_displacer(pos: &Position, a: Color, free: Bitboard, v: Square) -> bool {
    let k = kind_at(pos, v);
    (adjacent(v) & free & pos.stronger_enemies(a.opp(), k)).any()
}

/// Whether `a` can move the enemy on `v` off its square with one push or
/// pull: a stronger unfrozen neighbour with an empty square next to `v`
/// (push) or next to itself (pull).
#[inline]
fn can_displace(pos: &Position, a: Color, free: Bitboard, v: Square) -> bool {
    let k = kind_at(pos, v);
    let empty = pos.empty_squares();
    let pushers = adjacent(v) & free & pos.stronger_enemies(a.opp(), k);
    if pushers.is_empty() {
        return false;
    }
    if (adjacent(v) & empty).any() {
        return true;
    }
    let mut p = pushers;
    Iterator::any(&mut p, |sq| (adjacent(sq) & empty).any())
}

/// Squares of the enemy pieces `a` can capture with one push or pull,
/// as if `a` had at least two steps now.
pub fn two_step_captures(pos: &Position, a: Color) -> Bitboard {
    let d = a.opp();
    let own = pos.occupied_by(d);
    let free = movers(pos, a);
    let mut out = Bitboard::EMPTY;
    for &t in &TRAPS {
        let tsq = Square::new(t);
        let around = adjacent(tsq);
        let guards = around & own;
        match pos.piece_at(tsq) {
            Some(p) if p.color() == d => {
                // Its only guard moved away leaves it alone on the trap.
                if guards.count() == 1 && can_displace(pos, a, free, guards.first()) {
                    out |= Bitboard::from_square(tsq);
                }
            }
            Some(p) => {
                // Our piece on the trap steps off and pulls a weaker enemy
                // onto it, where no other enemy guards it.
                if free.contains(tsq) && (around & pos.empty_squares()).any() {
                    for v in guards {
                        if (guards & !Bitboard::from_square(v)).is_empty()
                            && kind_at(pos, v) < p.kind()
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
                    if (guards & !Bitboard::from_square(v)).is_empty()
                        && has_displacer(pos, a, free, v)
                    {
                        out |= Bitboard::from_square(v);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;
    use crate::search::capture::capture_threats;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn agrees_with_the_exact_detector_on_random_play() {
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
