//! Elephant blockades: an elephant that cannot move is a piece the enemy
//! no longer has to fear, and a few weak enemy pieces can hold it for the
//! rest of the game.
//!
//! The elephant moves by stepping to an empty neighbour, by pushing an
//! enemy neighbour that has an empty square beside it, or once a friend
//! next to it steps away. So it is **blockaded** when none of its
//! neighbours is empty and none of them has an empty square of its own;
//! it is **half blockaded** when it has no empty neighbour and exactly one
//! neighbour that could make room (one enemy step closes it).

use crate::board::bitboard::adjacent;
use crate::board::{Color, Kind, Position};

/// Centi-rabbits `c` loses to a blockade of its elephant: `weight` when
/// it is shut in, a quarter when only one way out is left, else 0.
pub fn elephant_blockade(pos: &Position, c: Color, weight: i32) -> i32 {
    if weight == 0 {
        return 0;
    }
    let empty = pos.empty_squares();
    let mut loss = 0;
    for sq in pos.kind_bb(c, Kind::Elephant) {
        let around = adjacent(sq);
        if (around & empty).any() {
            continue;
        }
        let exits = around.filter(|&n| (adjacent(n) & empty).any()).count();
        loss += match exits {
            0 => weight,
            1 => weight / 4,
            _ => 0,
        };
    }
    loss
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
}
