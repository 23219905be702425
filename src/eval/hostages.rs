//! Hostages and frames: pieces that are not lost yet but cannot get away.
//!
//! A **hostage** is a piece held near a trap the enemy controls by a
//! stronger enemy piece that freezes it: the holder can drag it in when it
//! likes, and the owner must keep defending the trap.
//!
//! A **frame** is a piece on a trap kept alive only by its guards: every
//! square around the trap is taken and the framed piece cannot push its
//! way out, so its guards cannot leave either.

use super::geometry::{Context, nearest_trap, piece_value};
use super::trapcontrol::saturate;
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Position};

/// Centi-rabbits `c` loses to its hostages: `pct` of each hostage's
/// value at full enemy control of the trap it is held at.
pub fn hostages(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let held = ctx.frozen[c.index()].and_not(pos.rabbits(c));
    let mut loss = 0;
    for sq in held {
        let (t, d) = nearest_trap(sq);
        if d > 2 {
            continue;
        }
        let x = ctx.trap_for(c, t);
        if x >= 0 {
            continue;
        }
        let Some(p) = pos.piece_at(sq) else { continue };
        let control = (-saturate(x)).min(256);
        loss += piece_value(ctx, c, p.kind()) * pct / 100 * control / 256;
    }
    loss
}

/// Centi-rabbits `c` loses to its framed pieces: `pct` of the value of
/// each piece of `c` on a trap with every neighbouring square taken,
/// at least one enemy among them, and no weaker enemy neighbour it could
/// push aside.
pub fn frames(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let mut loss = 0;
    let empty = pos.empty_squares();
    for sq in pos.occupied_by(c) & Bitboard::TRAPS {
        let around = adjacent(sq);
        if (around & empty).any() || (around & pos.occupied_by(c.opp())).is_empty() {
            continue;
        }
        let Some(p) = pos.piece_at(sq) else { continue };
        let pushable = around & pos.weaker_enemies(c, p.kind());
        let mut escape = false;
        for v in pushable {
            if (adjacent(v) & empty).any() {
                escape = true;
            }
        }
        if !escape {
            loss += piece_value(ctx, c, p.kind()) * pct / 100;
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::eval::test_ctx as ctx_of;
    use crate::eval::test_pos as pos;

    #[test]
    fn camel_frozen_by_the_enemy_elephant_next_to_its_trap_is_a_hostage() {
        // Gold camel b6, silver elephant b5 freezes it; silver dog d6 and
        // the elephant hold c6. Gold's elephant is far away on g2.
        let p = pos([
            "       r", "        ", " M dr   ", " e      ", "        ", "        ", "      E ",
            "R       ",
        ]);
        let ctx = ctx_of(&p);
        assert!(ctx.frozen[0].contains(Square::parse("b6").unwrap()));
        let h = hostages(&p, &ctx, Color::Gold, 30);
        assert!(h > 50, "{h}");
        // Silver has no hostage.
        assert_eq!(hostages(&p, &ctx, Color::Silver, 30), 0);
    }

    #[test]
    fn no_hostage_when_a_friend_unfreezes_it_or_far_from_traps() {
        // A gold cat next to the camel unfreezes it.
        let p = pos([
            "       r", " C      ", " M dr   ", " e      ", "        ", "        ", "      E ",
            "R       ",
        ]);
        assert_eq!(hostages(&p, &ctx_of(&p), Color::Gold, 30), 0);
        // Frozen, but three steps from the nearest trap (c3).
        let p = pos([
            "       r", "        ", "        ", "        ", "        ", "        ", "   e  E ",
            "R  M    ",
        ]);
        let ctx = ctx_of(&p);
        assert!(ctx.frozen[0].contains(Square::parse("d1").unwrap()));
        assert_eq!(hostages(&p, &ctx, Color::Gold, 30), 0);
    }

    #[test]
    fn a_piece_on_a_trap_boxed_in_is_framed() {
        // Gold horse on c6 guarded by a rabbit on b6; silver camel c7,
        // silver dog d6 and rabbit c5 (weaker, but with no room behind
        // them).
        let p = pos([
            "       r", "  mr    ", " RHdr   ", " rrd    ", "  r     ", "        ", "        ",
            "E       ",
        ]);
        let f = frames(&p, &ctx_of(&p), Color::Gold, 40);
        assert!(f > 50, "{f}");
        // Free d5: the horse pushes the dog there and gets out.
        let p = pos([
            "       r", "  mr    ", " RHdr   ", " rr     ", "  r     ", "        ", "        ",
            "E       ",
        ]);
        assert_eq!(frames(&p, &ctx_of(&p), Color::Gold, 40), 0);
    }
}
