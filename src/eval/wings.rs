//! Wing balance: a side whose strong pieces all stand on one wing leaves
//! the other wing to the enemy's attackers and rabbits.
//!
//! Every game aamir loses to Sharp ends by goal, and twelve plies before
//! the goal the goal's wing usually holds fewer of aamir's camel and horses
//! than the other wing. Strong bots charge a side for this (Sharp's
//! "imbalance" term is one such); this is aamir's own version.
//!
//! Each wing (files a-b and g-h at full weight, fading towards the other
//! side) gets a strength from the elephant and the three strongest kinds
//! below it: each piece's weight by its kind's place (and how many of the
//! kind there are), times how well it reaches the wing. Reach falls with
//! the files between the piece and the wing, and a piece counts as if it
//! stood farther away when it is on its home rank (it must first come
//! out), far forward (it is attacking, not guarding), frozen, or when the
//! enemy elephant stands between it and the wing. A weak wing is charged
//! steeply, a strong one nothing.

use super::geometry::{Context, rel_rank};
use crate::board::{Color, Kind, Position, Square};

/// Weight of one piece by its kind's place among the side's kinds below
/// the elephant (strongest first), for one or for two pieces of the kind.
const WEIGHT: [[i32; 2]; 3] = [[28, 18], [20, 14], [6, 4]];
/// Weight of the elephant: it goes anywhere fast, so it guards a wing
/// less than its strength says.
const ELEPHANT: i32 = 8;
/// Reach of a piece for a wing, in 64ths, by its files from the wing's
/// edge plus its handicap (below).
const REACH: [i32; 8] = [64, 64, 52, 36, 22, 10, 4, 0];
/// Handicap by relative rank (0 = own home rank): home-rank pieces must
/// come out first, pieces past the middle are away attacking.
const RANK_HANDICAP: [usize; 8] = [2, 1, 0, 0, 0, 1, 2, 3];
/// Strength at and above which a wing is charged nothing.
const ENOUGH: i32 = 32;
/// The charge for a wing with no strength at all, in centi-rabbits.
const EMPTY_WING: i32 = 50;

/// Centi-rabbits `c` is charged for thin wings, at `pct` percent.
pub fn wing_balance(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let Some(own_e) = pos.kind_bb(c, Kind::Elephant).into_iter().next() else {
        return 0;
    };
    let enemy_e = pos.kind_bb(c.opp(), Kind::Elephant).into_iter().next();
    let frozen = ctx.frozen[c.index()];
    let mut strength = [0i32; 2];
    let mut add = |sq: Square, weight: i32, blockable: bool| {
        let mut handicap = RANK_HANDICAP[rel_rank(c, sq) as usize];
        if frozen.contains(sq) {
            handicap += 1;
        }
        let f = sq.file() as i32;
        for (wing, s) in strength.iter_mut().enumerate() {
            let mut h = handicap;
            if blockable && let Some(e) = enemy_e {
                h += elephant_in_the_way(sq, e, wing);
            }
            let files = if wing == 0 { f } else { 7 - f } as usize;
            *s += weight * REACH[(files + h).min(7)];
        }
    };
    add(own_e, ELEPHANT, false);
    let mut place = 0;
    for k in [Kind::Camel, Kind::Horse, Kind::Dog, Kind::Cat] {
        let bb = pos.kind_bb(c, k);
        let n = bb.count();
        if n == 0 {
            continue;
        }
        let w = WEIGHT[place][(n as usize).min(2) - 1];
        for sq in bb {
            add(sq, w, true);
        }
        place += 1;
        if place == WEIGHT.len() {
            break;
        }
    }
    let charge: i32 = strength.iter().map(|&s| thin(s / 64)).sum();
    charge * pct / 100
}

/// The charge for one wing of strength `s`: steep near nothing, zero at
/// [`ENOUGH`].
fn thin(s: i32) -> i32 {
    let short = (ENOUGH - s).max(0);
    EMPTY_WING * short * short / (ENOUGH * ENOUGH)
}

/// Extra handicap when the enemy elephant on `e` stands between a piece
/// on `sq` and `wing`'s edge file: two on the piece's own rank, one a
/// rank off.
fn elephant_in_the_way(sq: Square, e: Square, wing: usize) -> usize {
    let target = if wing == 0 { 0 } else { 7 };
    let (ef, pf) = (e.file() as i32, sq.file() as i32);
    if (ef - target) * (ef - pf) >= 0 {
        return 0;
    }
    match (e.rank() as i32 - sq.rank() as i32).abs() {
        0 => 2,
        1 => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_pos as pos;

    fn charge(p: &Position, c: Color) -> i32 {
        wing_balance(p, &Context::new(p), c, 100)
    }

    #[test]
    fn strength_on_both_wings_is_charged_less_than_on_one() {
        // Gold's camel and horses on the b-file side, or split over both.
        let one = pos([
            "rrrrrrrr", "hdcemcdh", "        ", "        ", "        ", "HM      ", " H  E   ",
            "RRRRRRRR",
        ]);
        let both = pos([
            "rrrrrrrr", "hdcemcdh", "        ", "        ", "        ", "H     M ", "    E  H",
            "RRRRRRRR",
        ]);
        assert!(charge(&one, Color::Gold) > charge(&both, Color::Gold) + 10);
        // Silver, untouched, is charged the same in both.
        assert_eq!(charge(&one, Color::Silver), charge(&both, Color::Silver));
        // Off at 0, and nothing without an elephant.
        assert_eq!(wing_balance(&one, &Context::new(&one), Color::Gold, 0), 0);
        let no_e = pos([
            "rrrrrrrr", "hdc mcdh", "        ", "        ", "        ", "HM      ", " H  E   ",
            "RRRRRRRR",
        ]);
        assert_eq!(charge(&no_e, Color::Silver), 0);
    }

    #[test]
    fn a_piece_far_forward_or_behind_the_enemy_elephant_guards_less() {
        // Gold's camel on g3 guards the h-side; on g7 it is away attacking;
        // on f4 with silver's elephant on g5 it is cut off from it.
        let home = pos([
            "rrrrrrrr", "hdc mcdh", "        ", "        ", "    e   ", "      M ", "HH  E   ",
            "RRRRRRRR",
        ]);
        let away = pos([
            "rrrrrrrr", "hdc mcMh", "        ", "        ", "    e   ", "        ", "HH  E   ",
            "RRRRRRRR",
        ]);
        let cut = pos([
            "rrrrrrrr", "hdc mcdh", "        ", "      e ", "     M  ", "        ", "HH  E   ",
            "RRRRRRRR",
        ]);
        let open = pos([
            "rrrrrrrr", "hdc mcdh", "        ", "e       ", "     M  ", "        ", "HH  E   ",
            "RRRRRRRR",
        ]);
        assert!(charge(&away, Color::Gold) > charge(&home, Color::Gold));
        assert!(charge(&cut, Color::Gold) > charge(&open, Color::Gold));
    }

    #[test]
    fn silver_mirrors_gold() {
        let g = pos([
            "rrrrrrrr", "hdcemcdh", "        ", "        ", "        ", "HM      ", " H  E   ",
            "RRRRRRRR",
        ]);
        // Mirror the ranks of `s` by hand: silver's pieces on its 2nd and
        // 3rd ranks as gold's were on its own.
        let s = pos([
            "rrrrrrrr", " h  e   ", "hm      ", "        ", "        ", "        ", "HDCEMCDH",
            "RRRRRRRR",
        ]);
        assert_eq!(charge(&g, Color::Gold), charge(&s, Color::Silver));
        assert!(charge(&g, Color::Gold) > 0);
    }
}
