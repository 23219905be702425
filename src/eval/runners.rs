//! Rabbit runners: how dangerous each rabbit is as a goal threat, scored
//! from the shape of the board around it rather than from a path count.
//!
//! Counting the steps a rabbit needs down a file and cutting the threat by
//! the defenders on its wing makes one defender in front of a rabbit two
//! steps from goal look harmless; in the games aamir loses, such a rabbit
//! camps there for ten plies and the goal comes once the defenders are
//! pulled away. This term keeps a rabbit near goal
//! dangerous until the way ahead is truly crowded, in the spirit of the
//! rabbit evaluation of the strong bots (Sharp's among them):
//!
//! - a base value that grows steeply as the rabbit nears goal;
//! - times a *blocker* factor: enemy pieces in a cone ahead of it, weighed
//!   by how squarely they stand in its way (rabbits less, the board's edge
//!   helps the defender);
//! - times a *support* factor: who has the strongest pieces around the
//!   goal-side corner of its wing, ring by ring (a runner without strong
//!   friends near the enemy's back rank is no threat);
//! - plus a share that grows with its side's control of the enemy's home
//!   trap on that wing (a rabbit beside a trap its side holds is the usual
//!   way a goal starts);
//! - a frozen runner counts a little less.
//!
//! The runners of one side are combined over files so that two rabbits on
//! one file count about 1.4 times one, and rabbits on far wings add up:
//! each rabbit's score is spread over nearby files as squares, and each
//! file contributes the root of its sum.

use super::geometry::{Context, rel_rank, rel_ranks, trap_owner};
use super::trapcontrol::saturate;
use crate::board::bitboard::Bitboard;
use crate::board::{Color, Kind, Position, Square};

/// Centi-rabbits by steps to goal (index 1-5), at blocker and support 1.
const BASE: [i32; 6] = [0, 320, 250, 190, 120, 65];
/// Centi-rabbits by steps to goal at full control of the wing's enemy trap.
const TC_BASE: [i32; 6] = [0, 90, 60, 45, 30, 15];
/// Blocker weight of an enemy officer ahead, by rows ahead (0 = level with
/// the rabbit, up to 4+) and files aside (0-4).
const AHEAD: [[i32; 5]; 5] = [
    [0, 7, 3, 2, 1],
    [10, 7, 4, 2, 1],
    [8, 6, 4, 2, 1],
    [7, 5, 3, 2, 1],
    [6, 5, 3, 2, 1],
];
/// The same for an enemy piece one or two rows behind the rabbit (it can
/// still step in front of it).
const BEHIND: [[i32; 5]; 2] = [[4, 3, 2, 1, 0], [1, 1, 1, 0, 0]];
/// The same for enemy rabbits ahead (they block but cannot push).
const RABBIT_AHEAD: [[i32; 3]; 5] = [[0, 3, 1], [6, 2, 1], [5, 2, 1], [4, 2, 1], [4, 2, 1]];
/// Blocker weight the board's edge adds, by the rabbit's distance to the
/// nearer side (files a-d).
const EDGE: [i32; 4] = [10, 5, 2, 0];
/// Spread of a rabbit's score over files, as squares: it threatens its
/// own file most and the neighbouring ones less (the weights sum to 1).
const SPREAD: [f64; 7] = [0.07, 0.13, 0.19, 0.22, 0.19, 0.13, 0.07];

/// Per-mille factor for a blockedness total: near 1.44 when the way is
/// open, falling fast between 14 and 34, near 0.1 when it is shut.
const fn blocker_factor(b: i32) -> i32 {
    if b <= 14 {
        1440 - 10 * b
    } else if b <= 34 {
        1300 - (b - 14) * 55
    } else if b <= 60 {
        200 - (b - 34) * 4
    } else {
        96
    }
}

/// Per-mille factor for a support balance (negative: the enemy has the
/// stronger pieces near the wing's goal corner).
const fn support_factor(s: i32) -> i32 {
    let s = if s < -40 {
        -40
    } else if s > 40 {
        40
    } else {
        s
    };
    if s <= 20 {
        200 + (s + 40) * 800 / 60
    } else {
        1000 + (s - 20) * 150 / 20
    }
}

/// Ring points for the strongest three kinds found in each ring around the
/// wing's goal corner, held by one side only (nearest ring first).
const RING_POINTS: [[i32; 3]; 5] = [[8, 4, 2], [24, 12, 6], [24, 12, 6], [16, 8, 4], [8, 4, 2]];
/// Per-piece points of the piece count in rings 2-4 (officers twice).
const RING_COUNT: [i32; 5] = [0, 3, 2, 1, 0];

const fn make_rings() -> [[[Bitboard; 5]; 3]; 2] {
    let mut t = [[[Bitboard::EMPTY; 5]; 3]; 2];
    let mut ci = 0;
    while ci < 2 {
        // The enemy's second rank: rank 7 for gold's runners, 2 for silver's.
        let row = if ci == 0 { 6 } else { 1 };
        let centres = [
            1u64 << (row * 8 + 1),
            (3u64 << (row * 8 + 3)),
            1u64 << (row * 8 + 6),
        ];
        let mut j = 0;
        while j < 3 {
            let mut area = Bitboard(centres[j]);
            let mut ring = 0;
            while ring < 5 {
                area = Bitboard(area.0 | area.neighbors().0);
                t[ci][j][ring] = area;
                ring += 1;
            }
            j += 1;
        }
        ci += 1;
    }
    t
}

/// `RINGS[colour of the runners][corner][ring]`: the squares within
/// `ring + 1` steps of the left (b), centre (d-e) and right (g) goal
/// corners, on the enemy's second rank.
static RINGS: [[[Bitboard; 5]; 3]; 2] = make_rings();

/// Support balance for `c` in the rings around goal corner `corner`.
fn support(pos: &Position, c: Color, corner: usize) -> i32 {
    let e = c.opp();
    let mut points = 0;
    for (ring, &area) in RINGS[c.index()][corner].iter().enumerate() {
        let mut found = 0;
        for k in [
            Kind::Elephant,
            Kind::Camel,
            Kind::Horse,
            Kind::Dog,
            Kind::Cat,
        ] {
            if found == 3 {
                break;
            }
            let mine = (pos.kind_bb(c, k) & area).any();
            let theirs = (pos.kind_bb(e, k) & area).any();
            if !mine && !theirs {
                continue;
            }
            if mine && !theirs {
                points += RING_POINTS[ring][found];
            } else if theirs && !mine {
                points -= RING_POINTS[ring][found];
            }
            found += 1;
        }
        if RING_COUNT[ring] != 0 {
            let count = |col: Color| {
                let all = pos.occupied_by(col) & area;
                (all.count() + all.and_not(pos.rabbits(col)).count()) as i32
            };
            points += RING_COUNT[ring] * (count(c) - count(e));
        }
    }
    points / 2
}

/// `c`'s control of the enemy's home trap on the wing of file `f`, as a
/// per-mille share (0 = the enemy holds it fully, 1000 = `c` does).
fn wing_control(ctx: &Context, c: Color, f: i32) -> i32 {
    // The enemy's home traps: indices 2, 3 for silver's, 0, 1 for gold's.
    let base = if trap_owner(0) == c.opp() { 0 } else { 2 };
    let left = saturate(ctx.trap_for(c, base));
    let right = saturate(ctx.trap_for(c, base + 1));
    let t = match f {
        0..=2 => left,
        3 => (2 * left + right) / 3,
        4 => (2 * right + left) / 3,
        _ => right,
    };
    (t + 256) * 1000 / 512
}

/// Blocker weight of an enemy piece on `o` against `c`'s rabbit on `r`
/// (`rabbit`: the blocker is a rabbit), from [`AHEAD`], [`BEHIND`] and
/// [`RABBIT_AHEAD`], plus one on the rabbit's goal row (the last wall).
const fn blocker_weight(c: Color, r: usize, o: usize, rabbit: bool) -> i32 {
    let (rf, rr, of, or) = (
        (r % 8) as i32,
        (r / 8) as i32,
        (o % 8) as i32,
        (o / 8) as i32,
    );
    let dx = if of > rf { of - rf } else { rf - of };
    if dx > 4 {
        return 0;
    }
    let dx = dx as usize;
    let dy = if matches!(c, Color::Gold) {
        or - rr
    } else {
        rr - or
    };
    let w = if rabbit {
        if dy < 0 || dx > 2 {
            0
        } else {
            RABBIT_AHEAD[if dy > 4 { 4 } else { dy as usize }][dx]
        }
    } else if dy >= 0 {
        AHEAD[if dy > 4 { 4 } else { dy as usize }][dx]
    } else if dy >= -2 {
        BEHIND[(-dy - 1) as usize][dx]
    } else {
        0
    };
    let goal_row = if matches!(c, Color::Gold) { 7 } else { 0 };
    if w > 0 && or == goal_row { w + 1 } else { w }
}

const fn make_blockers() -> [[[[i8; 64]; 64]; 2]; 2] {
    let mut t = [[[[0i8; 64]; 64]; 2]; 2];
    let mut ci = 0;
    while ci < 2 {
        let c = if ci == 0 { Color::Gold } else { Color::Silver };
        let mut r = 0;
        while r < 64 {
            let mut o = 0;
            while o < 64 {
                t[ci][0][r][o] = blocker_weight(c, r, o, false) as i8;
                t[ci][1][r][o] = blocker_weight(c, r, o, true) as i8;
                o += 1;
            }
            r += 1;
        }
        ci += 1;
    }
    t
}

/// `BLOCKERS[colour of the rabbit][blocker is a rabbit][rabbit square]
/// [blocker square]`: [`blocker_weight`] precomputed (16 KB), so that a
/// rabbit's blockedness is one lookup per enemy piece.
static BLOCKERS: [[[[i8; 64]; 64]; 2]; 2] = make_blockers();

/// Blockedness of `c`'s rabbit on `sq` from the enemy pieces around it.
fn blockedness(pos: &Position, c: Color, sq: Square) -> i32 {
    let e = c.opp();
    let f = sq.file() as usize;
    let mut b = EDGE[f.min(7 - f)];
    let enemy_rabbits = pos.rabbits(e);
    let t = &BLOCKERS[c.index()];
    for osq in pos.occupied_by(e).and_not(enemy_rabbits) {
        b += t[0][sq.index()][osq.index()] as i32;
    }
    for osq in enemy_rabbits {
        b += t[1][sq.index()][osq.index()] as i32;
    }
    b
}

/// Centi-rabbits of goal threat from `c`'s runners, at `pct` percent.
pub fn rabbit_runners(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    // Only rabbits past their second rank run: the ones on their second
    // rank are most of a side's rabbits for most of a game, and their
    // share was small (it halves this term's cost to skip them).
    let runners = pos.rabbits(c) & rel_ranks(c, 2, 6);
    if runners.is_empty() {
        return 0;
    }
    // Each goal corner's support, computed only when a runner needs it.
    let mut corner = [None::<i32>; 3];
    let frozen = ctx.frozen[c.index()];
    let mut spread = [0f64; 8 + SPREAD.len() - 1];
    for sq in runners {
        let d = 7 - rel_rank(c, sq) as usize;
        let f = sq.file() as usize;
        let mut side = |j: usize| *corner[j].get_or_insert_with(|| support(pos, c, j));
        let sup = match f {
            0 | 1 => side(0),
            2 => (side(0) + side(1)) / 2,
            3 | 4 => side(1),
            5 => (side(2) + side(1)) / 2,
            _ => side(2),
        };
        let goal = BASE[d] as i64
            * blocker_factor(blockedness(pos, c, sq)) as i64
            * support_factor(sup) as i64
            / 1_000_000;
        let tc = TC_BASE[d] as i64 * wing_control(ctx, c, f as i32) as i64 / 1000;
        let mut score = (goal + tc) as f64;
        if frozen.contains(sq) {
            score *= 0.93;
        }
        let sq2 = score * score;
        for (i, w) in SPREAD.iter().enumerate() {
            spread[f + i] += sq2 * w * w;
        }
    }
    let total: f64 = spread.iter().filter(|&&v| v > 0.0).map(|v| v.sqrt()).sum();
    (total * pct as f64 / 100.0).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::test_pos as pos;
    use crate::eval::trapcontrol::raw_control;

    fn run(p: &Position, c: Color) -> i32 {
        let mut ctx = Context::new(p);
        ctx.trap = raw_control(p, &ctx);
        rabbit_runners(p, &ctx, c, 100)
    }

    #[test]
    fn nearer_goal_is_worth_more() {
        let far = pos([
            "       r", "        ", "        ", "        ", "R       ", "        ", "  E     ",
            "       e",
        ]);
        let near = pos([
            "       r", "R       ", "        ", "        ", "        ", "        ", "  E     ",
            "       e",
        ]);
        assert!(run(&near, Color::Gold) > run(&far, Color::Gold) * 2);
        // A rabbit on its home rank is no runner at all.
        let home = pos([
            "       r", "        ", "        ", "        ", "        ", "        ", "  E     ",
            "R      e",
        ]);
        assert_eq!(run(&home, Color::Gold), 0);
    }

    #[test]
    fn blockers_ahead_shut_it_down_and_one_is_not_enough() {
        let open = pos([
            "       r", "        ", "   R    ", "        ", "        ", "   E    ", "        ",
            "       e",
        ]);
        let one = pos([
            "       r", "   d    ", "   R    ", "        ", "        ", "   E    ", "        ",
            "       e",
        ]);
        let wall = pos([
            "  ccd  r", "  hdm   ", "   R    ", "        ", "        ", "   E    ", "        ",
            "       e",
        ]);
        let (o, n, w) = (
            run(&open, Color::Gold),
            run(&one, Color::Gold),
            run(&wall, Color::Gold),
        );
        assert!(n < o, "{n} vs {o}");
        assert!(w * 4 < o, "{w} vs {o}");
        // One blocker in front, on its own, leaves a rabbit two steps out
        // a real threat (the dog also counts against gold's support).
        let d6 = Square::parse("d6").unwrap();
        let factor = |p: &Position| blocker_factor(blockedness(p, Color::Gold, d6));
        assert!(factor(&one) * 10 > factor(&open) * 9);
        assert!(factor(&wall) * 4 < factor(&open));
    }

    #[test]
    fn enemy_strength_near_the_corner_cuts_the_threat() {
        // A gold rabbit on b6; silver's elephant and camel near b7 in the
        // second position, gold's elephant there in the first.
        let supported = pos([
            "       r", " E      ", " R      ", "        ", "        ", "        ", "        ",
            "     e m",
        ]);
        let opposed = pos([
            "       r", "  e     ", " R  m   ", "        ", "        ", "        ", "        ",
            "     E  ",
        ]);
        let (s, o) = (run(&supported, Color::Gold), run(&opposed, Color::Gold));
        assert!(s > o * 2, "{s} vs {o}");
    }

    #[test]
    fn two_runners_on_one_file_count_less_than_on_two_wings() {
        let same = pos([
            "       r", "R       ", "R       ", "        ", "        ", "   E    ", "        ",
            "       e",
        ]);
        let apart = pos([
            "       r", "R      R", "        ", "        ", "        ", "   E    ", "        ",
            "    e   ",
        ]);
        let one = pos([
            "       r", "R       ", "        ", "        ", "        ", "   E    ", "        ",
            "       e",
        ]);
        let (s, a, o) = (
            run(&same, Color::Gold),
            run(&apart, Color::Gold),
            run(&one, Color::Gold),
        );
        assert!(s > o && s < a, "{s} {a} {o}");
    }

    #[test]
    fn silver_mirrors_gold() {
        let g = pos([
            "       r", "        ", "   R    ", "  d     ", "        ", "   E    ", "        ",
            "  m    e",
        ]);
        // The same board turned round, colours swapped.
        let s = pos([
            "  M    E", "        ", "   e    ", "        ", "  D     ", "   r    ", "        ",
            "       R",
        ]);
        assert_eq!(run(&g, Color::Gold), run(&s, Color::Silver));
    }
}
