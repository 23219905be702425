//! Rabbit goal threats and the defence of one's own goal line.
//!
//! For each advanced rabbit, [`goal_steps`] estimates the steps it needs to
//! reach goal down its own file or a neighbouring one: the distance, plus
//! the steps to clear each blocker (a friend steps aside; an enemy has to
//! be pushed away by someone else, which costs more), an unguarded trap on
//! the way, squares where a stronger enemy would freeze it, and getting
//! unfrozen first. The threat that estimate stands for is then scaled down
//! by the enemy officers that can still defend that wing, since a lone
//! runner against four defenders rarely gets through.
//!
//! [`goal_line_defence`] charges a side for each file of its two home ranks
//! left without any of its pieces near an advanced enemy rabbit: the open
//! files rabbits walk down.

use super::geometry::{Context, files, rel_rank, rel_ranks};
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Position, Square};

/// Centi-rabbits of a goal threat by the estimated steps to goal.
const BY_STEPS: [i32; 13] = [100, 90, 80, 70, 60, 40, 26, 16, 9, 5, 2, 1, 0];
/// Percent of the threat left by the number of defenders of the wing.
const BY_DEFENDERS: [i32; 7] = [100, 60, 35, 20, 12, 8, 5];

/// Estimated steps for `c`'s rabbit on `sq` to reach goal (at most 12).
pub fn goal_steps(pos: &Position, ctx: &Context, c: Color, sq: Square) -> u32 {
    goal_steps_with(ctx, c, sq, &Blockers::new(pos, ctx, c))
}

/// The squares [`goal_steps`] asks about, computed once for all of a
/// side's rabbits.
struct Blockers {
    own: Bitboard,
    enemy: Bitboard,
    /// Squares next to an unfrozen enemy officer and to none of `c`'s
    /// pieces: a rabbit stepping there is frozen.
    freezing: Bitboard,
}

impl Blockers {
    fn new(pos: &Position, ctx: &Context, c: Color) -> Blockers {
        let own = pos.occupied_by(c);
        let freezers = ctx.free[c.opp().index()].and_not(pos.rabbits(c.opp()));
        Blockers {
            own,
            enemy: pos.occupied_by(c.opp()),
            freezing: freezers.neighbors().and_not(own.neighbors()),
        }
    }
}

fn goal_steps_with(ctx: &Context, c: Color, sq: Square, b: &Blockers) -> u32 {
    let own = b.own;
    let enemy = b.enemy;
    let rr = rel_rank(c, sq) as i32;
    let f = sq.file() as i32;
    let forward = |r: i32| if c == Color::Gold { r } else { 7 - r };
    let mut best = 12u32;
    for pf in (f - 1).max(0)..=(f + 1).min(7) {
        let mut cost = (pf - f).unsigned_abs() + (7 - rr) as u32;
        let mut freeze = 0;
        let start = if pf == f { rr + 1 } else { rr };
        for r in start..=7 {
            let s = Square::from_coords(pf as u8, forward(r) as u8);
            if own.contains(s) {
                cost += 1;
            } else if enemy.contains(s) {
                cost += 2;
            } else {
                let around = adjacent(s);
                if s.is_trap() && (around & own).count() <= u32::from(around.contains(sq)) {
                    cost += 2;
                } else if freeze < 2 && b.freezing.contains(s) {
                    freeze += 1;
                }
            }
            if cost >= best {
                break;
            }
        }
        best = best.min(cost + freeze);
    }
    if ctx.frozen[c.index()].contains(sq) {
        best += 2;
    }
    best.min(12)
}

/// Centi-rabbits of goal threat `c`'s rabbits make, at `pct` percent.
/// Only rabbits at least three ranks up are looked at.
pub fn rabbit_goal_threats(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let runners = pos.rabbits(c) & rel_ranks(c, 3, 6);
    if runners.is_empty() {
        return 0;
    }
    let defenders_all = ctx.free[c.opp().index()].and_not(pos.rabbits(c.opp()));
    let mut s = 0;
    let blockers = Blockers::new(pos, ctx, c);
    for sq in runners {
        let steps = goal_steps_with(ctx, c, sq, &blockers) as usize;
        let threat = BY_STEPS[steps];
        if threat == 0 {
            continue;
        }
        let f = sq.file() as i32;
        let wing = files(f - 2, f + 2) & rel_ranks(c, rel_rank(c, sq), 7);
        let n = (defenders_all & wing).count() as usize;
        s += threat * BY_DEFENDERS[n.min(6)] / 100;
    }
    s * pct / 100
}

/// Centi-rabbits `c` loses for open files on its two home ranks: `weight`
/// per file within one of an enemy rabbit at least three ranks up, per
/// rank that rabbit has gone beyond its third.
pub fn goal_line_defence(pos: &Position, c: Color, weight: i32) -> i32 {
    if weight == 0 {
        return 0;
    }
    let e = c.opp();
    let runners = pos.rabbits(e) & rel_ranks(e, 3, 6);
    if runners.is_empty() {
        return 0;
    }
    let home = rel_ranks(c, 0, 1) & pos.occupied_by(c);
    let mut loss = 0;
    for sq in runners {
        let f = sq.file() as i32;
        let adv = rel_rank(e, sq) as i32 - 2;
        for pf in (f - 1).max(0)..=(f + 1).min(7) {
            if (home & Bitboard(Bitboard::FILE_A.0 << pf)).is_empty() {
                loss += weight * adv;
            }
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_pos as pos;

    fn steps(p: &Position, c: Color, s: &str) -> u32 {
        goal_steps(p, &Context::new(p), c, Square::parse(s).unwrap())
    }

    #[test]
    fn open_file_is_distance_and_blockers_add_steps() {
        let open = pos([
            "       r", "        ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        assert_eq!(steps(&open, Color::Gold, "a6"), 2);
        // Silver rabbits on a8 and b8: going round costs more, and an
        // enemy in the way costs more than a friend.
        let blocked = pos([
            "rr     r", "        ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        assert_eq!(steps(&blocked, Color::Gold, "a6"), 4);
        let own = pos([
            "Cr     r", "        ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        assert_eq!(steps(&own, Color::Gold, "a6"), 3);
        // Silver mirrors gold.
        let s = pos([
            "e       ", "        ", "        ", "        ", "        ", "r       ", "        ",
            "    R  R",
        ]);
        assert_eq!(steps(&s, Color::Silver, "a3"), 2);
    }

    #[test]
    fn frozen_runner_and_unguarded_trap_cost_steps() {
        // Gold rabbit c5 heading for c8 through c6 (a trap with no gold
        // guard); b-file and d-file open but one step aside.
        let p = pos([
            "       r", "        ", "        ", "  R     ", "        ", "        ", "        ",
            "       E",
        ]);
        // Straight up would cross the trap (+2); aside is 1 + 3 = 4.
        assert_eq!(steps(&p, Color::Gold, "c5"), 4);
        // A silver dog beside it freezes it: +2.
        let f = pos([
            "       r", "        ", "        ", " dR     ", "        ", "        ", "        ",
            "       E",
        ]);
        assert!(
            steps(&f, Color::Gold, "c5") >= 6,
            "{}",
            steps(&f, Color::Gold, "c5")
        );
    }

    #[test]
    fn defenders_on_the_wing_shrink_the_threat() {
        let lone = pos([
            "       r", "        ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        let guarded = pos([
            "  d    r", " c      ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        let far = pos([
            "      dr", "      c ", "R       ", "        ", "        ", "        ", "        ",
            "       E",
        ]);
        let t = |p: &Position| rabbit_goal_threats(p, &Context::new(p), Color::Gold, 100);
        assert!(t(&lone) >= 70, "{}", t(&lone));
        assert!(
            t(&guarded) * 2 < t(&lone),
            "{} vs {}",
            t(&guarded),
            t(&lone)
        );
        // Defenders on the other wing do not defend this one.
        assert_eq!(t(&far), t(&lone));
        // No runner three ranks up, no threat.
        let home = pos([
            "       r", "        ", "        ", "        ", "        ", "R       ", "        ",
            "       E",
        ]);
        assert_eq!(t(&home), 0);
    }

    #[test]
    fn goal_line_open_files_near_an_enemy_runner() {
        // Silver rabbit on b3 (its sixth rank); gold has nothing on a-c of
        // ranks 1-2 in the first position, a cat on b2 in the second.
        let open = pos([
            "       r", "        ", "        ", "        ", "        ", " r      ", "        ",
            "       E",
        ]);
        let guarded = pos([
            "       r", "        ", "        ", "        ", "        ", " r      ", " C      ",
            "       E",
        ]);
        let a = goal_line_defence(&open, Color::Gold, 3);
        let b = goal_line_defence(&guarded, Color::Gold, 3);
        assert_eq!(a, 3 * 3 * 3);
        assert_eq!(b, 2 * 3 * 3);
        assert_eq!(goal_line_defence(&open, Color::Silver, 3), 0);
    }
}
