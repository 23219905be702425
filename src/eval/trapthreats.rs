//! Trap threats by distance: every piece within three steps of a trap the
//! enemy holds or contests, charged by how many enemy steps its capture
//! there would take.
//!
//! [`super::trapcontrol::trap_danger`] sees only pieces already next to a
//! trap. Games against Sharp are lost earlier than that: a camel or horse
//! walks two or three squares from a trap with the enemy elephant nearby,
//! and the capture follows a turn or two later, beyond a short search.
//! This term counts, for each such piece, the steps an enemy needs:
//!
//! - to bring a stronger unfrozen piece next to it (the attacker's walk);
//! - two for each square it must be pushed or pulled towards the trap;
//! - two for each other friendly guard of the trap, which must be driven
//!   off before a piece on the trap dies (the piece's own guarding does not
//!   count: it leaves the square as it is dragged in);
//! - one more when an enemy piece stands on the trap, two when a friend
//!   does, and four for the detour round its own elephant standing
//!   straight in the way.
//!
//! The charge falls with those steps: a capture within one enemy turn (four
//! steps) costs most of the share, one that takes two turns much less,
//! none past eight. It is scaled by how firmly the enemy holds the trap.
//! The elephant is never charged: nothing captures it.

use super::geometry::{Context, TRAP_SQUARES, disk, dist, piece_value};
use super::trapcontrol::saturate;
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position, Square};

/// Sixty-fourths of the share by the enemy's steps to the capture (0 to 8).
const BY_STEPS: [i32; 9] = [64, 64, 60, 56, 50, 34, 26, 18, 10];
/// The most steps charged; beyond this the threat is two turns away.
const MAX_STEPS: u32 = 8;
/// The divisor of the enemy's share of a trap. The share runs from 0 (the
/// owner of the pieces holds it at a quarter of full control or more) to
/// 320 at full enemy control, so a trap the enemy holds fully charges five
/// sixths of the table (the weight's SPRT was run with these figures).
const SHARE_FULL: i32 = 384;

/// What a trap's surroundings add to every capture on it for one side:
/// computed once per trap and side.
struct TrapSide {
    tsq: Square,
    /// Two steps for each friendly guard of the trap.
    guards: u32,
    /// Steps to clear the trap square for a piece dragged onto it.
    occupant: u32,
    /// The side's elephant, which the enemy cannot move out of the way.
    elephant: Bitboard,
}

impl TrapSide {
    fn new(pos: &Position, c: Color, tsq: Square) -> TrapSide {
        // A friend on the trap must go first (and is itself the first
        // victim); an enemy piece there must step off.
        let occupant = match pos.piece_at(tsq) {
            Some(q) if q.color() == c => 2,
            Some(_) => 1,
            None => 0,
        };
        TrapSide {
            tsq,
            guards: 2 * (adjacent(tsq) & pos.occupied_by(c)).count(),
            occupant,
            elephant: pos.kind_bb(c, Kind::Elephant),
        }
    }

    /// Enemy steps to capture the piece of `c` of `kind` on `sq` on this
    /// trap, or `None` beyond [`MAX_STEPS`] or with no stronger unfrozen
    /// enemy within four steps.
    #[inline]
    fn steps(&self, ctx: &Context, c: Color, kind: Kind, sq: Square) -> Option<u32> {
        // Steps for the nearest attacker to come next to the piece: the
        // smallest disk round it that holds one, less one.
        let attackers = ctx.free_stronger_enemies(c, kind);
        let walk = (1..=4usize).find(|&r| (disk(r, sq) & attackers).any())? as u32 - 1;
        let tsq = self.tsq;
        let d = dist(sq, tsq);
        let mut steps = walk + 2 * d + self.guards;
        match d {
            0 => {}
            // Its own guarding does not count: it leaves as it is dragged.
            1 => steps = steps - 2 + self.occupant,
            _ => {
                steps += self.occupant;
                if d == 2 && (sq.file() == tsq.file() || sq.rank() == tsq.rank()) {
                    // The square between is next to the trap, so a friend
                    // there is already counted as a guard; but the enemy
                    // cannot move an elephant, and the piece must be
                    // dragged round it.
                    let mid = Square::new((sq.index() + tsq.index()) as u8 / 2);
                    if self.elephant.contains(mid) {
                        steps += 4;
                    }
                }
            }
        }
        (steps <= MAX_STEPS).then_some(steps)
    }
}

/// Centi-rabbits `c` stands to lose through its pieces near traps the enemy
/// holds or contests: for each, `pct` percent of its value, times the
/// falloff by the enemy's steps to the capture (a table), times the
/// enemy's share of the trap.
pub fn trap_threats(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let targets = pos.occupied_by(c).and_not(pos.kind_bb(c, Kind::Elephant));
    let mut loss = 0i64;
    for (i, &t) in TRAP_SQUARES.iter().enumerate() {
        // saturate() is -256 (the enemy holds it fully) to 256 (c does).
        let share = (64 - saturate(ctx.trap_for(c, i))).clamp(0, SHARE_FULL);
        let near = disk(3, Square::new(t)) & targets;
        if share == 0 || near.is_empty() {
            continue;
        }
        let trap = TrapSide::new(pos, c, Square::new(t));
        let mut weighed = 0i64;
        for sq in near {
            let Some(p) = pos.piece_at(sq) else { continue };
            if let Some(steps) = trap.steps(ctx, c, p.kind(), sq) {
                weighed += i64::from(piece_value(ctx, c, p.kind()) * BY_STEPS[steps as usize]);
            }
        }
        loss += weighed * i64::from(share);
    }
    (loss * i64::from(pct) / (100 * 64 * i64::from(SHARE_FULL))) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_ctx as ctx_of;
    use crate::eval::test_pos as pos;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Enemy steps to capture gold's piece of `kind` on `at` on `trap`,
    /// in the position of `rows`.
    fn capture_steps(rows: [&str; 8], kind: Kind, at: &str, trap: &str) -> Option<u32> {
        let p = pos(rows);
        TrapSide::new(&p, Color::Gold, sq(trap)).steps(&ctx_of(&p), Color::Gold, kind, sq(at))
    }

    #[test]
    fn steps_count_the_walk_the_drag_and_the_guards() {
        // Gold camel d5 (two steps from c6 on a bent path), silver elephant
        // e5 next to it: 0 to walk, 4 to drag, no other guards.
        let next_to = [
            "       r", "        ", "        ", "   Me   ", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(next_to, Kind::Camel, "d5", "c6"), Some(4));
        // A gold dog guarding c6 from b6 adds two steps.
        let guarded = [
            "       r", "        ", " D      ", "   Me   ", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(guarded, Kind::Camel, "d5", "c6"), Some(6));
        // The elephant three squares off (h5): two more steps of walk.
        let walk = [
            "       r", "        ", "        ", "   M   e", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(walk, Kind::Camel, "d5", "c6"), Some(7));
        // Only a silver dog near: nothing there outranks the camel.
        let weaker = [
            "       r", "        ", "        ", "   Md   ", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(weaker, Kind::Camel, "d5", "c6"), None);
    }

    #[test]
    fn a_friend_in_the_way_or_on_the_trap_adds_steps() {
        // Gold horse c4 two squares below c6, gold cat c5 between them,
        // silver camel d4 beside the horse: 0 walk + 4 drag + 2 for the
        // cat, in the way and guarding c6.
        let cat = [
            "       r", "        ", "        ", "  C     ", "  Hm    ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(cat, Kind::Horse, "c4", "c6"), Some(6));
        // The gold elephant in the way instead: beyond reach.
        let elephant = [
            "       r", "        ", "        ", "  E     ", "  Hm    ", "        ", "        ",
            "R       ",
        ];
        assert_eq!(capture_steps(elephant, Kind::Horse, "c4", "c6"), None);
        // Gold horse d6 next to c6, silver camel e6 beside it: 0 walk + 2
        // drag, its own guarding not counted...
        let beside = [
            "       r", "        ", "   Hm   ", "        ", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(beside, Kind::Horse, "d6", "c6"), Some(2));
        // ...and two more with a gold cat on the trap, which goes first.
        let occupied = [
            "       r", "        ", "  CHm   ", "        ", "        ", "        ", "      E ",
            "R       ",
        ];
        assert_eq!(capture_steps(occupied, Kind::Horse, "d6", "c6"), Some(4));
    }

    #[test]
    fn a_camel_beside_the_enemy_elephant_near_its_trap_is_charged() {
        // The early-game loss against Sharp: the gold camel on d5 beside
        // silver's elephant on e5, next to silver's c6 trap, gold's
        // elephant far away on g2.
        let p = pos([
            "       r", "  r d   ", "        ", "   Me   ", "        ", "        ", "      E ",
            "R       ",
        ]);
        let ctx = ctx_of(&p);
        let gold = trap_threats(&p, &ctx, Color::Gold, 30);
        assert!(gold > 30, "{gold}");
        // Silver's pieces sit by their own trap, which silver holds: no
        // charge for them.
        assert_eq!(trap_threats(&p, &ctx, Color::Silver, 30), 0);
        // The gold elephant beside the camel: gold contests the trap and
        // the charge falls.
        let q = pos([
            "       r", "  r d   ", "        ", "  EMe   ", "        ", "        ", "        ",
            "R       ",
        ]);
        let ctx_q = ctx_of(&q);
        let guarded = trap_threats(&q, &ctx_q, Color::Gold, 30);
        assert!(guarded < gold, "{guarded} !< {gold}");
        // The term is off at 0.
        assert_eq!(trap_threats(&p, &ctx, Color::Gold, 0), 0);
    }

    #[test]
    fn the_charge_falls_with_distance_and_the_elephant_is_never_charged() {
        // Gold horse d5 next to the silver elephant e5 (capture four steps
        // away), and the same horse on e4 with the elephant on f4 (three
        // squares from c6: out of reach of that trap, and f3 is gold's).
        let near = pos([
            "       r", "        ", "        ", "   He   ", "        ", "        ", "       E",
            "R       ",
        ]);
        let far = pos([
            "       r", "        ", "        ", "        ", "    He  ", "        ", "       E",
            "R       ",
        ]);
        let a = trap_threats(&near, &ctx_of(&near), Color::Gold, 30);
        let b = trap_threats(&far, &ctx_of(&far), Color::Gold, 30);
        assert!(a > b, "{a} !> {b}");
        // A gold elephant alone beside the silver elephant: nothing.
        let e = pos([
            "       r", "        ", "        ", "   Ee   ", "        ", "        ", "        ",
            "R       ",
        ]);
        assert_eq!(trap_threats(&e, &ctx_of(&e), Color::Gold, 30), 0);
    }
}
