//! Trap control: who owns each of the four traps, measured from every piece
//! that can reach it, not only from what stands next to it.
//!
//! A piece adds to a trap by its strength (how few enemy pieces outrank it)
//! times a falloff with its distance in steps. Pieces nothing outranks (the
//! elephant, or a camel once the enemy elephant is gone) keep most of their
//! weight two and three steps away: they reach the trap within a turn and
//! nothing can push them off it. A frozen piece counts half, a piece
//! standing next to a stronger unfrozen enemy three quarters.
//!
//! The score saturates (owning a trap twice over is not twice as good) and
//! is weighed per trap by its owner: a home trap held is defence, a home
//! trap the enemy holds is its attack ([`by_reach`]). Beside it stands the
//! simple count of who guards each trap from next to it ([`by_guards`]);
//! the two together are the evaluation's trap control term, and
//! [`on_weak_traps`] charges the pieces standing on a trap with a single
//! guard. [`trap_danger`] then charges each piece that
//! stands next to (or on) a trap the enemy controls, with an enemy piece
//! strong enough to push or pull it close by: this is how a bot walks cats
//! and rabbits into enemy traps one after another.

use super::basics::strongest;
use super::geometry::{Context, TRAP_SQUARES, disk, piece_value, trap_owner};
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position, Square};

/// Strength by the number of enemy pieces that outrank the piece.
const STRENGTH: [i32; 9] = [20, 14, 11, 9, 8, 7, 6, 6, 6];
/// Distance falloff (0 = on the trap) for pieces nothing outranks...
const REACH_DOMINANT: [i32; 5] = [6, 8, 7, 5, 3];
/// ...and for the others, which mostly guard from next to the trap.
const REACH: [i32; 5] = [5, 8, 4, 2, 1];
/// Half-saturation of the control difference (raw units).
const SATURATION: i32 = 200;

const fn make_reach(profile: &[i32; 5]) -> [[i32; 4]; 64] {
    let mut t = [[0i32; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            let tr = TRAP_SQUARES[i] as i32;
            let df = (sq as i32 % 8 - tr % 8).abs();
            let dr = (sq as i32 / 8 - tr / 8).abs();
            let d = (df + dr) as usize;
            if d <= 4 {
                t[sq][i] = profile[d];
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// `[profile][square][trap]`: the falloff of a piece on `square` for each
/// trap (0 beyond four steps); profile 0 for pieces nothing outranks.
static REACH_TABLE: [[[i32; 4]; 64]; 2] = [make_reach(&REACH_DOMINANT), make_reach(&REACH)];

/// Raw control of the four traps, gold minus silver.
pub fn raw_control(pos: &Position, ctx: &Context) -> [i32; 4] {
    let mut tc = [0i32; 4];
    for c in Color::BOTH {
        let sign = if c == Color::Gold { 1 } else { -1 };
        let frozen = ctx.frozen[c.index()];
        for k in Kind::ALL {
            let ns = ctx.stronger[c.index()][k.index()] as usize;
            let base = sign * STRENGTH[ns.min(8)];
            let reach = &REACH_TABLE[usize::from(ns != 0)];
            let dominated = ctx.free_stronger_enemies(c, k).neighbors();
            for sq in pos.kind_bb(c, k) {
                // Frozen: half; dominated but free: three quarters.
                let s = if frozen.contains(sq) {
                    base * 2
                } else if dominated.contains(sq) {
                    base * 3
                } else {
                    base * 4
                };
                let r = &reach[sq.index()];
                for i in 0..4 {
                    tc[i] += s * r[i];
                }
            }
        }
    }
    // Keep the raw figure in the units of one strength point per step.
    for v in &mut tc {
        *v /= 4;
    }
    tc
}

/// Saturating map of a raw control difference onto -256..256.
#[inline]
pub fn saturate(x: i32) -> i32 {
    x * 256 / (x.abs() + SATURATION)
}

/// Trap control by reach over `c`'s two home traps, good for `c`:
/// `scale` centi-rabbits per trap at full control, times `attack_pct`
/// percent where the enemy holds it.
pub fn by_reach(ctx: &Context, c: Color, scale: i32, attack_pct: i32) -> i32 {
    let mut s = 0;
    for i in (0..4).filter(|&i| trap_owner(i) == c) {
        let x = ctx.trap_for(c, i);
        let v = saturate(x) * scale / 256;
        s += if x >= 0 { v } else { v * attack_pct / 100 };
    }
    s
}

/// Trap control by guards, good for `c`: per trap, `two_guards` for two or
/// more of `c`'s pieces next to it and `strongest` when the strongest piece
/// next to it is `c`'s; over the enemy's home traps times
/// `enemy_home_pct` percent.
pub fn by_guards(
    pos: &Position,
    c: Color,
    two_guards: i32,
    strongest_guard: i32,
    enemy_home_pct: i32,
) -> i32 {
    let own = pos.occupied_by(c);
    let opp = pos.occupied_by(c.opp());
    let mut s = 0;
    for tsq in Bitboard::TRAPS {
        let adj = adjacent(tsq);
        let mine = adj & own;
        let mut ctl = 0;
        if mine.count() >= 2 {
            ctl += two_guards;
        }
        if strongest(pos, c, mine) > strongest(pos, c.opp(), adj & opp) {
            ctl += strongest_guard;
        }
        let home = (tsq.rank() < 4) == (c == Color::Gold);
        s += if home {
            ctl
        } else {
            ctl * enemy_home_pct / 100
        };
    }
    s
}

/// What `c` pays for its pieces standing on a trap with at most one friend
/// next to it: `per_kind` for each (one guard less and it is gone).
pub fn on_weak_traps(pos: &Position, c: Color, per_kind: &[i32; 6]) -> i32 {
    let own = pos.occupied_by(c);
    let mut s = 0;
    for tsq in Bitboard::TRAPS {
        if own.contains(tsq)
            && (adjacent(tsq) & own).count() <= 1
            && let Some(p) = pos.piece_at(tsq)
        {
            s += per_kind[p.kind().index()];
        }
    }
    s
}

/// Centi-rabbits `c` stands to lose from its pieces next to or on traps
/// the enemy controls, where an unfrozen enemy piece that outranks it is
/// within two steps (so it can be pushed or pulled in). `pct` of the
/// piece's value at full enemy control; the elephant cannot be captured.
pub fn trap_danger(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let mut loss = 0;
    for (i, &t) in TRAP_SQUARES.iter().enumerate() {
        let x = ctx.trap_for(c, i);
        if x >= 0 {
            continue;
        }
        let tsq = Square::new(t);
        let near = (adjacent(tsq) | Bitboard::from_square(tsq))
            & pos.occupied_by(c)
            & !pos.kind_bb(c, Kind::Elephant);
        for sq in near {
            let Some(p) = pos.piece_at(sq) else { continue };
            let attackers = ctx.free_stronger_enemies(c, p.kind()) & disk(2, sq);
            if attackers.is_empty() {
                continue;
            }
            let control = (-saturate(x)).min(256);
            // Standing on the trap itself: one guard less and it is gone.
            let on_trap = if sq == tsq { 2 } else { 1 };
            loss += piece_value(ctx, c, p.kind()) * pct / 100 * control / 256 * on_trap;
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{test_ctx, test_pos as pos};

    #[test]
    fn elephant_two_steps_away_controls_a_trap_that_a_cat_next_to_it_does_not() {
        // Gold elephant on d5 (two steps from c6), silver cat on c7 next to c6.
        let p = pos([
            "       r", "  c     ", "        ", "   E    ", "        ", "        ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&p);
        assert!(ctx.trap_for(Color::Gold, 2) > 0, "{:?}", ctx.trap);
        // Out of reach (five steps away on g3) the cat holds c6 for silver.
        let p = pos([
            "       r", "  c     ", "        ", "        ", "        ", "      E ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&p);
        assert!(ctx.trap_for(Color::Gold, 2) < 0, "{:?}", ctx.trap);
    }

    #[test]
    fn frozen_guards_count_less() {
        // Silver dog on c7 guards c6; in the second position a gold camel
        // freezes it from b7.
        let free = pos([
            "       r", "  d     ", "        ", "        ", "        ", "        ", "        ",
            "R    M  ",
        ]);
        let held = pos([
            "       r", " Md     ", "        ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        let c = |p: &Position| test_ctx(p).trap_for(Color::Silver, 2);
        // The camel's own contribution at b7 (2 steps) is added too; the
        // dog's share must drop enough that silver's hold weakens.
        assert!(c(&held) < c(&free), "{} vs {}", c(&held), c(&free));
    }

    #[test]
    fn home_trap_lost_costs_more_than_attack_pct_zero() {
        // Silver elephant next to gold's c3 with nothing of gold's near.
        let p = pos([
            "       r", "        ", "        ", "        ", "        ", "  e     ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&p);
        let net = |attack| {
            by_reach(&ctx, Color::Gold, 60, attack) - by_reach(&ctx, Color::Silver, 60, attack)
        };
        let full = net(130);
        let no_attack = net(0);
        assert!(full < -20, "{full}");
        assert!(no_attack > full);
    }

    #[test]
    fn danger_needs_enemy_control_and_an_attacker_in_reach() {
        // Gold cat on c7 next to silver's trap c6; silver dog on d8 two
        // steps away; silver holds c6 with its elephant on b6.
        let exposed = pos([
            "   d   r", "  C     ", " e      ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&exposed);
        let d = trap_danger(&exposed, &ctx, Color::Gold, 50);
        assert!(d > 20, "{d}");
        // The gold elephant next to it instead: gold holds c6, no danger.
        let held = pos([
            "   d   r", "  C     ", "  E     ", "        ", "        ", "        ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&held);
        assert_eq!(trap_danger(&held, &ctx, Color::Gold, 50), 0);
        // Nobody that outranks the cat within two steps: no danger either.
        let alone = pos([
            "       r", "  C     ", " r  r   ", "  r     ", "        ", "        ", "        ",
            "R       ",
        ]);
        let ctx = test_ctx(&alone);
        assert!(ctx.trap_for(Color::Gold, 2) < 0, "{:?}", ctx.trap);
        assert_eq!(trap_danger(&alone, &ctx, Color::Gold, 50), 0);
    }
}
