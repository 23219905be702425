//! Attack alignment: a strong piece standing near the strongest enemy
//! piece it outranks keeps that piece under pressure, and that piece's
//! side must spend steps and guards on it.
//!
//! aamir's danger terms (dominance, hostages, trap threats) charge a piece
//! once a stronger enemy is already on it. Nothing rewarded bringing the
//! elephant over to the enemy camel, or the camel over to the enemy horses,
//! before a threat exists; Sharp, which beats aamir, scores that
//! ("alignment" in its placement evaluation). This is aamir's own version:
//! the attackers are the side's three strongest kinds (cats attack nothing
//! worth the steps), each aimed at the strongest enemy kind below it other
//! than rabbits, scored by a rough step distance and by how far the target
//! has come forward (a target deep in its own camp is hard to reach and
//! drag to a trap). The distance score is centred, so that a side is not
//! simply paid for keeping its pieces back: far from its target an
//! attacker is charged a little.

use super::geometry::{Context, dist, rel_rank};
use crate::board::{Color, Kind, Position, Square};

/// Centi-rabbits for a perfectly placed attacker by its kind's place among
/// the side's kinds (elephant first); the camel's place counts most, since
/// the piece it aims at (usually a horse) is the one it can take.
const BASE: [i32; 3] = [24, 40, 16];
/// Closeness at half-step distance 0; each half-step takes [`FALL`] off.
const CLOSE: i32 = 64;
const FALL: i32 = 3;
/// Closeness at which an attacker scores nothing: nearer is paid, farther
/// charged (up to `SHIFT / (CLOSE - SHIFT)` of its base).
const SHIFT: i32 = 22;
/// Weight (in 64ths) of a target by its relative rank for its own side
/// (0 = its home rank): the farther it has come, the more it is worth
/// aiming at.
const ADVANCE: [i32; 8] = [18, 24, 34, 46, 58, 64, 64, 60];

/// The alignment score of `c`'s attackers, good for `c`, at `pct`
/// percent (0 = off).
pub fn alignment(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let enemy = c.opp();
    let Some(enemy_e) = pos.kind_bb(enemy, Kind::Elephant).into_iter().next() else {
        return 0;
    };
    if pos.kind_bb(c, Kind::Elephant).is_empty() {
        return 0;
    }
    let frozen = ctx.frozen[c.index()];
    let mut total = 0;
    let mut place = 0;
    for kind in [Kind::Elephant, Kind::Camel, Kind::Horse] {
        let attackers = pos.kind_bb(c, kind);
        if attackers.is_empty() {
            continue;
        }
        let Some(target_kind) = strongest_below(pos, enemy, kind) else {
            break;
        };
        let targets = pos.kind_bb(enemy, target_kind);
        // Two attackers on two targets do not each earn the full score:
        // the pairs share it.
        let pairs = (attackers.count() * targets.count()) as i32;
        let base = BASE[place] * 2 / (1 + pairs);
        for a in attackers {
            let extra = if frozen.contains(a) { 2 } else { 0 };
            for t in targets {
                let d = half_steps(a, t, kind, enemy_e) + extra;
                let close = (CLOSE - FALL * d as i32).max(0);
                let adv = ADVANCE[rel_rank(enemy, t) as usize];
                total += base * adv * (close - SHIFT) / (64 * (CLOSE - SHIFT));
            }
        }
        place += 1;
    }
    total * pct / 100
}

/// The strongest kind below `kind` that `side` has, rabbits excluded.
fn strongest_below(pos: &Position, side: Color, kind: Kind) -> Option<Kind> {
    [Kind::Camel, Kind::Horse, Kind::Dog, Kind::Cat]
        .into_iter()
        .filter(|&k| k < kind)
        .find(|&k| !pos.kind_bb(side, k).is_empty())
}

/// A rough distance in half steps from an attacker of `kind` on `a` to its
/// target on `t`: twice the steps, more when the enemy elephant on `e`
/// stands across the way of an attacker it outranks.
fn half_steps(a: Square, t: Square, kind: Kind, e: Square) -> u32 {
    let mut d = 2 * dist(a, t);
    if kind != Kind::Elephant {
        let (af, tf, ef) = (a.file() as i32, t.file() as i32, e.file() as i32);
        let between = (ef - af) * (ef - tf) < 0;
        if between && (e.rank() as i32 - a.rank() as i32).abs() <= 1 {
            d += 3;
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_pos as pos;

    fn score(p: &Position, c: Color) -> i32 {
        alignment(p, &Context::new(p), c, 100)
    }

    #[test]
    fn an_elephant_near_the_enemy_camel_scores_more_than_far_from_it() {
        // Silver's camel has come to c5; gold's elephant beside it on d4,
        // or far away on h2.
        let near = pos([
            "rrrrrrrr", "hdc ecdh", "        ", "  m     ", "   E    ", "        ", "HDCMHCD ",
            "RRRRRRRR",
        ]);
        let far = pos([
            "rrrrrrrr", "hdc ecdh", "        ", "  m     ", "        ", "        ", "HDCMHCDE",
            "RRRRRRRR",
        ]);
        assert!(score(&near, Color::Gold) > score(&far, Color::Gold) + 10);
        // Far away it is charged, not merely unpaid: the score is centred.
        assert!(score(&far, Color::Gold) < 0);
        // Gold's elephant on d4 also stands between silver's camel and
        // gold's horse on e2; on h2 it does not.
        assert!(score(&near, Color::Silver) < score(&far, Color::Silver));
        // Off at 0, and nothing without both elephants.
        assert_eq!(alignment(&near, &Context::new(&near), Color::Gold, 0), 0);
        let no_e = pos([
            "rrrrrrrr", "hdc  cdh", "        ", "  m     ", "   E    ", "        ", "HDCMHCD ",
            "RRRRRRRR",
        ]);
        assert_eq!(score(&no_e, Color::Gold), 0);
    }

    #[test]
    fn an_advanced_target_is_worth_more_and_the_enemy_elephant_screens() {
        // Gold's camel three steps from a silver horse: on silver's 5th
        // rank (advanced, f4 from e2) or on its 2nd (at home, h7 from g5).
        let advanced = pos([
            "rrrrrrrr", "hdce cd ", "  m     ", "        ", "     h  ", "        ", "HDC MCDH",
            "RRRRRRRE",
        ]);
        let home = pos([
            "rrrrrrrr", "hdce cdh", "  m     ", "      M ", "        ", "        ", "HDC  CDH",
            "RRRRRRRE",
        ]);
        assert!(score(&advanced, Color::Gold) > score(&home, Color::Gold));
        // The camel on b4 aims at the horse on f4 with silver's elephant
        // between them on d4, or with the elephant away on d8.
        let screened = pos([
            "rrrrrrrr", "hdc  cd ", "  m     ", "        ", " M e h  ", "        ", "HDC  CDH",
            "RRRRRRRE",
        ]);
        let open = pos([
            "rrrerrrr", "hdc  cd ", "  m     ", "        ", " M   h  ", "        ", "HDC  CDH",
            "RRRRRRRE",
        ]);
        assert!(score(&open, Color::Gold) > score(&screened, Color::Gold));
    }

    #[test]
    fn silver_mirrors_gold() {
        let g = pos([
            "rrrrrrrr", "hdc ecdh", "        ", "  m     ", "   E    ", "        ", "HDCMHCD ",
            "RRRRRRRR",
        ]);
        // The same with the ranks and colours swapped by hand.
        let s = pos([
            "rrrrrrrr", "hdcmhcd ", "        ", "   e    ", "  M     ", "        ", "HDC ECDH",
            "RRRRRRRR",
        ]);
        assert_eq!(score(&g, Color::Gold), score(&s, Color::Silver));
        assert!(score(&g, Color::Gold) != 0);
    }
}
