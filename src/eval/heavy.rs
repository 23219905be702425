//! Heavy pieces far forward: a camel (or a horse with only one enemy piece
//! above it) that has walked towards the enemy's home traps, with a
//! stronger enemy piece in reach and the trap on its wing not held by its
//! own side.
//!
//! This is how an elephant takes the enemy's second-best piece: it meets it
//! in its own half, next to its own traps, where its friends guard, and
//! drags it in. Unlike dominance ([`super::dominance`]) the risk has no
//! part for the distance to the own elephant (it falls only as far as the
//! elephant changes who holds the trap): the cure this term asks for is
//! keeping the heavy piece back, not pulling the elephant away from its
//! attack. It is charged as a small share of the piece's value, growing
//! with how deep the piece stands, how firmly the enemy holds the trap on
//! its wing, and how close the attacker is; friends weaker than it standing
//! just ahead of it (which the attacker must get past) lower it.

use super::geometry::{Context, dist, piece_value, rel_rank};
use super::trapcontrol::saturate;
use crate::board::{Color, Kind, Position, Square};

/// Percent of the risk by relative rank (0 = own home rank): already on
/// its own third and fourth rank the piece is within a turn of the enemy's
/// traps.
const BY_RANK: [i32; 8] = [0, 5, 25, 47, 80, 90, 92, 80];

/// Percent by the attacker's distance less one (0: next to it).
const BY_ATTACKER: [i32; 5] = [160, 100, 90, 50, 40];

/// The enemy's home traps from `c`'s point of view, left wing then right
/// (indices of `geometry::TRAP_SQUARES`: c3, f3, c6, f6).
fn enemy_traps(c: Color) -> [usize; 2] {
    if c == Color::Gold { [2, 3] } else { [0, 1] }
}

/// How exposed a piece on `file` is, in 256ths, from the control each wing's
/// enemy trap gives (`tc`: positive when `c` holds it): a third where the
/// trap is contested, all of it where the enemy holds it firmly, none where
/// `c` holds it. A piece on the d or e file shares both wings.
fn exposure(ctx: &Context, c: Color, file: u8) -> i32 {
    let [l, r] = enemy_traps(c);
    let one = |i: usize| (90 - saturate(ctx.trap_for(c, i)) * 6 / 5).clamp(0, 256);
    match file {
        0..=2 => one(l),
        3 => (2 * one(l) + one(r)) / 3,
        4 => (one(l) + 2 * one(r)) / 3,
        _ => one(r),
    }
}

/// Centi-rabbits `c` stands to lose through its heavy pieces far forward,
/// at `pct` percent of a piece's value in the worst case (before the
/// attacker-next-to-it bonus).
pub fn heavy_forward(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let mut loss = 0;
    for k in [Kind::Horse, Kind::Camel] {
        if ctx.stronger[c.index()][k.index()] != 1 {
            continue;
        }
        let attackers = ctx.free_stronger_enemies(pos, c, k);
        for sq in pos.kind_bb(c, k) {
            let rank = BY_RANK[rel_rank(c, sq) as usize];
            if rank == 0 {
                continue;
            }
            let Some(d) = attackers.map(|a| dist(sq, a)).min() else {
                continue;
            };
            let Some(&near) = BY_ATTACKER.get(d.saturating_sub(1) as usize) else {
                continue;
            };
            let wing = exposure(ctx, c, sq.file());
            if wing == 0 {
                continue;
            }
            let mut share = rank * near / 100 * wing / 256;
            if ctx.frozen[c.index()].contains(sq) {
                share = share * 11 / 10;
            }
            share = share * shield(pos, c, sq, k) / 100;
            loss += piece_value(ctx, c, k) * pct / 100 * share / 100;
        }
    }
    loss
}

/// Percent left of the risk after the weaker friends just ahead of `sq`
/// (towards the enemy), which stand between the piece and an attacker
/// coming from the enemy's side: 40% for one straight ahead, 70% for each
/// one diagonally ahead.
fn shield(pos: &Position, c: Color, sq: Square, k: Kind) -> i32 {
    let ahead = if c == Color::Gold { 1 } else { -1 };
    let r = sq.rank() as i32 + ahead;
    if !(0..8).contains(&r) {
        return 100;
    }
    let mut pct = 100;
    for df in -1..=1 {
        let f = sq.file() as i32 + df;
        if !(0..8).contains(&f) {
            continue;
        }
        let s = Square::new((r * 8 + f) as u8);
        if let Some(p) = pos.piece_at(s)
            && p.color() == c
            && p.kind() < k
        {
            pct = pct * if df == 0 { 40 } else { 70 } / 100;
        }
    }
    pct
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use crate::eval::trapcontrol::raw_control;

    fn side_loss(rows: [&str; 8], c: Color) -> i32 {
        let p = parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap();
        let mut ctx = Context::new(&p);
        ctx.trap = raw_control(&p, &ctx);
        heavy_forward(&p, &ctx, c, 10)
    }

    #[test]
    fn a_camel_deep_in_the_enemy_half_beside_its_elephant_is_at_risk() {
        // Gold camel on d6 next to silver's elephant on d7, silver's dogs
        // guarding c6; gold's elephant far off on e2.
        let deep = side_loss(
            [
                "r  e   r", "  d     ", " dM     ", "        ", "        ", "        ", "    E   ",
                "R      R",
            ],
            Color::Gold,
        );
        // The same camel back on d2, the rest as it was.
        let home = side_loss(
            [
                "r  e   r", "  d     ", " d      ", "        ", "        ", "        ", "   ME   ",
                "R      R",
            ],
            Color::Gold,
        );
        assert!(deep > 20, "{deep}");
        assert_eq!(
            home, 0,
            "a camel on its second rank two ranks from the elephant"
        );
    }

    #[test]
    fn no_stronger_enemy_in_reach_or_a_held_trap_is_no_risk() {
        // Silver's elephant far away on h8: more than five steps off.
        let far = side_loss(
            [
                "r      e", "        ", "   M    ", "        ", "        ", "        ", "    E   ",
                "R      R",
            ],
            Color::Gold,
        );
        assert_eq!(far, 0);
        // Gold's camel on b5 beside silver's elephant on a5: first with
        // c6 left to silver's dog, then with gold's elephant and two dogs
        // around it.
        let open = side_loss(
            [
                "r      r", "  d     ", "        ", "eM      ", "        ", "        ", "    E   ",
                "R      R",
            ],
            Color::Gold,
        );
        let held = side_loss(
            [
                "r      r", "  E     ", " D D    ", "eM      ", "        ", "        ", "        ",
                "R      R",
            ],
            Color::Gold,
        );
        assert!(open > 20, "{open}");
        assert!(held * 3 < open, "{held} vs {open}");
        // The elephant itself is never charged, nor a horse with the camel
        // and elephant both above it.
        let e = side_loss(
            [
                "r   m  r", "  d     ", " dE     ", "        ", "        ", "        ", "        ",
                "R  H   R",
            ],
            Color::Silver,
        );
        assert_eq!(e, 0);
    }

    #[test]
    fn a_weaker_friend_ahead_shields_it_and_the_sides_mirror() {
        let open = side_loss(
            [
                "r  e   r", "  d     ", "        ", "   M    ", "        ", "        ", "    E   ",
                "R      R",
            ],
            Color::Gold,
        );
        let shielded = side_loss(
            [
                "r  e   r", "  d     ", "   D    ", "   M    ", "        ", "        ", "    E   ",
                "R      R",
            ],
            Color::Gold,
        );
        assert!(open > 0);
        assert!(shielded * 2 < open, "{shielded} vs {open}");
        // Silver's mirror image of the open position costs silver the same.
        let mirrored = side_loss(
            [
                "r      r", "    e   ", "        ", "        ", "   m    ", "        ", "  D     ",
                "R  E   R",
            ],
            Color::Silver,
        );
        assert_eq!(mirrored, open);
    }
}
