//! Elephant mobility: the room next to the elephant ([`elephant_room`])
//! and how much of the board it can reach in one turn
//! ([`elephant_cramp`]).
//!
//! An elephant is the only piece nothing can freeze or push, so its worth
//! is where it can go: to defend a home trap, to attack an enemy one, to
//! meet an enemy piece that wanders off. One that has dived deep into the
//! enemy camp, or is hemmed in by its own pieces, reaches few squares in
//! four steps even when it is not blockaded outright. Strong bots charge
//! a cramped elephant a penalty that grows quickly as its reach shrinks.
//!
//! The reach is a flood fill on bitboards, counted in steps:
//! - an empty square next to a reached one costs one step;
//! - a square held by an enemy piece other than the elephant, with an
//!   empty neighbour to push it into, costs two (push it, step in);
//! - a square held by a friend with an empty neighbour costs two (the
//!   friend steps aside, the elephant steps in);
//! - a trap with no other friend beside it is never entered (the elephant
//!   would die there), nor is the enemy elephant's square.
//!
//! Squares in the middle of the board count twice: from there the
//! elephant reaches all four traps.

use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position};

/// Files c-f on ranks 3-6: from these squares every trap is near.
const MIDDLE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);

/// Mobility at and above which the elephant pays nothing.
pub const FREE_MOBILITY: i32 = 40;

/// Squares `c`'s elephant can reach within `0..=4` steps (index = steps),
/// each set including the smaller ones. Empty sets when `c` has no
/// elephant.
pub fn elephant_reach(pos: &Position, c: Color) -> [Bitboard; 5] {
    let ele = pos.kind_bb(c, Kind::Elephant);
    if ele.is_empty() {
        return [Bitboard::EMPTY; 5];
    }
    let friends = pos.occupied_by(c).and_not(ele);
    let enemies = pos.occupied_by(c.opp());
    let enemy_ele = pos.kind_bb(c.opp(), Kind::Elephant);
    // The elephant leaves its square, so the flood treats it as empty.
    let empty = pos.empty_squares() | ele;
    // Room to push into or step aside to: empty now (the elephant's own
    // square is not room for a piece next to it before it leaves).
    let room = pos.empty_squares().neighbors();
    let deadly = Bitboard::TRAPS.and_not(friends.neighbors());
    let one_step = empty.and_not(deadly);
    let two_steps = ((enemies.and_not(enemy_ele) | friends) & room).and_not(deadly);
    let mut reach = [ele; 5];
    for k in 0..4 {
        let near = reach[k].neighbors();
        let by_one = reach[k] | (near & one_step);
        for r in reach.iter_mut().skip(k + 1) {
            *r |= by_one;
        }
        if k + 2 <= 4 {
            let by_two = near & two_steps;
            for r in reach.iter_mut().skip(k + 2) {
                *r |= by_two;
            }
        }
    }
    reach
}

/// The mobility score of `c`'s elephant: squares reachable in four steps,
/// those in the middle counted twice (0 without an elephant).
pub fn elephant_mobility_count(pos: &Position, c: Color) -> i32 {
    let r4 = elephant_reach(pos, c)[4];
    (r4.count() + (r4 & MIDDLE).count()) as i32
}

/// `per_square` for each empty square next to `c`'s elephant.
pub fn elephant_room(pos: &Position, c: Color, per_square: i32) -> i32 {
    pos.kind_bb(c, Kind::Elephant)
        .into_iter()
        .map(|sq| per_square * (adjacent(sq) & pos.empty_squares()).count() as i32)
        .sum()
}

/// Centi-rabbits `c` loses to a cramped elephant: `weight` at no mobility,
/// falling with the square of the shortfall below [`FREE_MOBILITY`] to 0
/// there. A side without an elephant pays nothing here (material says it).
pub fn elephant_cramp(pos: &Position, c: Color, weight: i32) -> i32 {
    if weight == 0 || pos.kind_bb(c, Kind::Elephant).is_empty() {
        return 0;
    }
    let short = (FREE_MOBILITY - elephant_mobility_count(pos, c)).max(0);
    weight * short * short / (FREE_MOBILITY * FREE_MOBILITY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::eval::test_pos as pos;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn a_lone_elephant_reaches_the_diamond_of_four_steps() {
        // Gold elephant d4 alone with a rabbit each (the rabbits far away).
        let p = pos([
            "r       ", "        ", "        ", "        ", "   E    ", "        ", "        ",
            "       R",
        ]);
        let r = elephant_reach(&p, Color::Gold);
        assert_eq!(r[0], Bitboard::from_square(sq("d4")));
        assert_eq!(r[1].count(), 5);
        // Traps c3 and f3 (and c6 beside d6) have no friend beside them:
        // never entered.
        assert!(!r[4].contains(sq("c3")));
        assert!(!r[4].contains(sq("c6")));
        assert!(r[2].contains(sq("d6")));
        assert!(!r[2].contains(sq("d7")));
        assert!(r[3].contains(sq("d7")));
        // Each set holds the smaller ones.
        for k in 0..4 {
            assert_eq!(r[k] & r[k + 1], r[k]);
        }
    }

    #[test]
    fn pieces_cost_two_steps_and_the_enemy_elephant_none() {
        // Gold elephant a1; silver cat b1 (can be pushed to c1), silver
        // elephant a2.
        let p = pos([
            "r       ", "        ", "        ", "        ", "        ", "        ", "e       ",
            "Ec     R",
        ]);
        let r = elephant_reach(&p, Color::Gold);
        assert!(!r[1].contains(sq("b1")));
        assert!(r[2].contains(sq("b1")));
        assert!(r[3].contains(sq("c1")));
        assert!(!r[4].contains(sq("a2")));
        // A cat with no room cannot be pushed: b1 boxed in by c1 and b2.
        let boxed = pos([
            "r       ", "        ", "        ", "        ", "        ", "        ", "er      ",
            "Ecr    R",
        ]);
        assert_eq!(
            elephant_reach(&boxed, Color::Gold)[4],
            Bitboard::from_square(sq("a1"))
        );
    }

    #[test]
    fn a_guarded_trap_can_be_entered() {
        // Gold elephant c4, gold dog b3 beside the c3 trap.
        let p = pos([
            "r       ", "        ", "        ", "        ", "  E     ", " D      ", "        ",
            "       R",
        ]);
        assert!(elephant_reach(&p, Color::Gold)[1].contains(sq("c3")));
    }

    #[test]
    fn a_deep_hemmed_elephant_pays_and_a_central_free_one_does_not() {
        // Gold elephant a7 in silver's camp among silver pieces.
        let deep = pos([
            "rrd     ", "Ehr     ", "cr      ", "        ", "        ", "        ", "        ",
            "RRRR    ",
        ]);
        let central = pos([
            "rrd     ", " hr     ", "cr      ", "        ", "   E    ", "        ", "        ",
            "RRRR    ",
        ]);
        let m_deep = elephant_mobility_count(&deep, Color::Gold);
        let m_central = elephant_mobility_count(&central, Color::Gold);
        assert!(m_deep <= 12, "deep mobility {m_deep}");
        assert!(m_central >= FREE_MOBILITY, "central mobility {m_central}");
        assert!(elephant_cramp(&deep, Color::Gold, 50) > 20);
        assert_eq!(elephant_cramp(&central, Color::Gold, 50), 0);
        // Off at weight 0; no charge for a side without an elephant.
        assert_eq!(elephant_cramp(&deep, Color::Gold, 0), 0);
        assert_eq!(elephant_cramp(&deep, Color::Silver, 50), 0);
    }

    #[test]
    fn colours_mirror() {
        let g = pos([
            "r       ", "        ", "        ", "        ", "        ", " C      ", "DE      ",
            "RR     r",
        ]);
        let s = pos([
            "rr     R", "de      ", " c      ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        assert_eq!(
            elephant_mobility_count(&g, Color::Gold),
            elephant_mobility_count(&s, Color::Silver)
        );
    }
}
