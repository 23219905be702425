//! Dominance: officers (cat to camel) near enemy pieces that outrank them,
//! far from the friends that could chase those pieces away.
//!
//! A camel or horse next to the enemy elephant, with its own elephant far
//! off, is how hostages and captures start: the stronger piece pushes and
//! pulls it towards a trap while nothing interferes. The danger grows with
//! how close the strongest unfrozen attacker is (one or two steps), with
//! the distance to the nearest own piece at least as strong as that
//! attacker (its support), and when a trap the enemy controls is within two
//! steps of the piece. It is charged as a share of the piece's value.

use super::geometry::{Context, disk, dist, nearest_trap, piece_value};
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position};

/// Eighths of the danger by the attacker's distance (1 or 2 steps).
const BY_ATTACKER: [i32; 3] = [0, 8, 4];
/// Eighths by the steps to the nearest supporter (7 or more: none near).
const BY_SUPPORT: [i32; 8] = [0, 1, 2, 4, 6, 7, 8, 8];

/// Centi-rabbits `c` stands to lose through its dominated officers, at
/// `pct` percent of a piece's value in the worst case.
pub fn dominance(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let enemy = c.opp();
    // at_least[k]: own pieces of kind k or stronger, the support against
    // an attacker of kind k.
    let mut at_least = [Bitboard::EMPTY; 6];
    let mut acc = Bitboard::EMPTY;
    for k in Kind::ALL.into_iter().rev() {
        acc |= pos.kind_bb(c, k);
        at_least[k.index()] = acc;
    }
    let mut loss = 0;
    for k in [Kind::Cat, Kind::Dog, Kind::Horse, Kind::Camel] {
        let threats = ctx.free_stronger_enemies(c, k);
        if threats.is_empty() {
            continue;
        }
        for sq in pos.kind_bb(c, k) {
            let near = threats & disk(2, sq);
            if near.is_empty() {
                continue;
            }
            // The strongest attacker in reach, and how close the nearest
            // of its kind is (1 or 2 steps: the square itself is ours).
            let mut top = Kind::Elephant;
            let mut attackers = Bitboard::EMPTY;
            for kk in Kind::ALL.into_iter().rev() {
                attackers = near & pos.kind_bb(enemy, kk);
                if attackers.any() {
                    top = kk;
                    break;
                }
            }
            let top_d = if (attackers & adjacent(sq)).any() {
                1
            } else {
                2
            };
            let mut sd = 7;
            for s in at_least[top.index()] {
                sd = sd.min(dist(sq, s));
            }
            let (t, td) = nearest_trap(sq);
            let trap = if td <= 2 && ctx.trap_for(c, t) < 0 {
                8
            } else {
                3
            };
            // A friend next to it at least unfreezes it: a little less.
            let friends = if (adjacent(sq) & pos.occupied_by(c)).any() {
                6
            } else {
                8
            };
            let share = BY_ATTACKER[top_d] * BY_SUPPORT[sd as usize] * trap * friends;
            loss += piece_value(ctx, c, k) * pct / 100 * share / 4096;
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{test_ctx, test_pos};

    fn eval_side(rows: [&str; 8], c: Color) -> i32 {
        let p = test_pos(rows);
        dominance(&p, &test_ctx(&p), c, 40)
    }

    #[test]
    fn camel_next_to_the_enemy_elephant_far_from_its_own_is_in_danger() {
        // Gold camel d6 beside silver elephant d7, gold elephant on e2.
        let far = eval_side(
            [
                "       r", "   e    ", "   M    ", "        ", "        ", "        ", "    E   ",
                "R       ",
            ],
            Color::Gold,
        );
        // Same, with gold's elephant on e6 right beside the camel.
        let near = eval_side(
            [
                "       r", "   e    ", "   ME   ", "        ", "        ", "        ", "        ",
                "R       ",
            ],
            Color::Gold,
        );
        assert!(far > 60, "{far}");
        assert!(near * 3 < far, "{near} vs {far}");
    }

    #[test]
    fn nothing_stronger_in_reach_is_no_danger() {
        // Silver elephant three steps away; silver cat next to the camel.
        let d = eval_side(
            [
                "  e    r", "        ", "   Mc   ", "        ", "        ", "        ", "    E   ",
                "R       ",
            ],
            Color::Gold,
        );
        assert_eq!(d, 0);
        // And the elephant itself is never charged.
        let d = eval_side(
            [
                "       r", "   m    ", "   E    ", "        ", "        ", "        ", "        ",
                "R       ",
            ],
            Color::Gold,
        );
        assert_eq!(d, 0);
    }
}
