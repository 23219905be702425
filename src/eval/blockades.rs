//! Elephant blockades: an elephant that cannot move is a piece the enemy
//! no longer has to fear, and a few weak enemy pieces can hold it for the
//! rest of the game.
//!
//! The elephant moves by stepping to an empty neighbour, by pushing an
//! enemy neighbour that has an empty square beside it, or once a friend
//! next to it steps away (`ways_out`; the other elephant cannot be
//! pushed, and a rabbit cannot step back to make room). So it is
//! **blockaded** when it has no way out at all; it is **half blockaded**
//! when it has exactly one (one enemy step closes it).

use crate::board::bitboard::{adjacent, behind};
use crate::board::{Color, Kind, Position, Square};

/// Centi-rabbits `c` loses to a blockade of its elephant: `weight` when
/// it is shut in, a quarter when only one way out is left, else 0.
pub fn elephant_blockade(pos: &Position, c: Color, weight: i32) -> i32 {
    if weight == 0 {
        return 0;
    }
    let empty = pos.empty_squares();
    let mut loss = 0;
    for sq in pos.kind_bb(c, Kind::Elephant) {
        if (adjacent(sq) & empty).any() {
            continue;
        }
        loss += match ways_out(pos, c, sq) {
            0 => weight,
            1 => weight / 4,
            _ => 0,
        };
    }
    loss
}

/// How many of its neighbours an elephant of `c` on `sq` could move into
/// with at most one other step first: an empty square, a friend that can
/// step aside, or an enemy (never the other elephant) with room to be
/// pushed into.
fn ways_out(pos: &Position, c: Color, sq: Square) -> u32 {
    let empty = pos.empty_squares();
    let mut n = 0;
    for v in adjacent(sq) {
        let room = adjacent(v) & empty;
        let out = match pos.piece_at(v) {
            None => true,
            Some(p) if p.color() == c => {
                // A rabbit never steps back towards its own home rank.
                if p.kind() == Kind::Rabbit {
                    room.and_not(behind(c, v)).any()
                } else {
                    room.any()
                }
            }
            Some(p) => p.kind() != Kind::Elephant && room.any(),
        };
        n += u32::from(out);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_pos as pos;

    #[test]
    fn corner_elephant_shut_in_by_pieces_that_cannot_move_aside() {
        // Gold elephant a8; silver b8 and a7 each boxed by more pieces.
        let shut = pos([
            "Ehr     ", "hcr     ", "rr      ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        assert_eq!(elephant_blockade(&shut, Color::Gold, 80), 80);
        // c8 empty: the elephant can push the horse on b8 there, one way out.
        let one = pos([
            "Eh      ", "hcr     ", "rr      ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        assert_eq!(elephant_blockade(&one, Color::Gold, 80), 20);
        let free = pos([
            "E r     ", "hcr     ", "rr      ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        assert_eq!(elephant_blockade(&free, Color::Gold, 80), 0);
        assert_eq!(elephant_blockade(&free, Color::Silver, 80), 0);
    }

    #[test]
    fn the_other_elephant_and_a_rabbit_that_cannot_step_back_are_no_way_out() {
        // Silver elephant b3 (a game of Sharp's against aamir): gold camel
        // a3 and cat b2 have no room, the gold elephant b4 cannot be
        // pushed, and silver's own rabbit c3 can only step back to c4.
        let p = pos([
            "       r", "        ", "        ", "d       ", "mE      ", "MerR    ", "RCD     ",
            "RR      ",
        ]);
        let b3 = Square::parse("b3").unwrap();
        assert_eq!(ways_out(&p, Color::Silver, b3), 0);
        assert_eq!(elephant_blockade(&p, Color::Silver, 80), 80);
        // A gold rabbit on c3 instead can be pushed to c4: one way out.
        let q = pos([
            "       r", "        ", "        ", "d       ", "mE      ", "MeRR    ", "RCD     ",
            "RR      ",
        ]);
        assert_eq!(ways_out(&q, Color::Silver, b3), 1);
        assert_eq!(elephant_blockade(&q, Color::Silver, 80), 20);
        // Colours and ranks swapped: the gold elephant on b6 is shut in.
        let m = pos([
            "rr      ", "rcd     ", "mERr    ", "Me      ", "D       ", "        ", "        ",
            "       R",
        ]);
        assert_eq!(elephant_blockade(&m, Color::Gold, 80), 80);
        assert_eq!(elephant_blockade(&m, Color::Silver, 80), 0);
    }
}
