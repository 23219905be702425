//! Placement tables for officers, indexed by how many enemy pieces outrank
//! the piece rather than by its kind: a horse with only the elephant above
//! it plays like a camel, and a camel facing nothing stronger plays like an
//! elephant.
//!
//! Four tables, written from gold's side (silver reads them mirrored):
//! nothing stronger (central, forward, next to the enemy traps), one
//! stronger (central, in the middle ranks, not too deep), two stronger
//! (near its own traps, kept out of the enemy half) and three or more
//! (trap guards at home). Rabbits are left to the advancement term.

use super::geometry::{Context, gold_view};
use crate::board::{Color, Kind, Position};

const fn centrality(f: i32, r: i32) -> i32 {
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df + dr
}

const fn trap_dist(f: i32, r: i32, home: bool) -> i32 {
    let tr = if home { 2 } else { 5 };
    let a = (f - 2).abs() + (r - tr).abs();
    let b = (f - 5).abs() + (r - tr).abs();
    if a < b { a } else { b }
}

const fn table_value(class: usize, f: i32, r: i32) -> i32 {
    let cent = centrality(f, r);
    let enemy = trap_dist(f, r, false);
    let home = trap_dist(f, r, true);
    match class {
        0 => {
            let mut v = 2 * cent;
            if r >= 2 && r <= 5 {
                v += 4;
            }
            v += match enemy {
                1 => 6,
                2 => 3,
                _ => 0,
            };
            if r == 7 {
                v -= 6;
            }
            v
        }
        1 => {
            let mut v = cent;
            if r >= 2 && r <= 4 {
                v += 3;
            }
            if enemy == 1 {
                v += 2;
            }
            if r >= 6 {
                v -= 8;
            }
            v
        }
        2 => {
            let mut v = cent / 2;
            v += match home {
                1 => 4,
                2 => 2,
                _ => 0,
            };
            if r >= 5 {
                v -= 6 * (r - 4);
            }
            v
        }
        _ => {
            let mut v = match home {
                1 => 6,
                2 => 3,
                _ => 0,
            };
            if r >= 4 {
                v -= 4 * (r - 3);
            }
            if r == 0 {
                v -= 2;
            }
            v
        }
    }
}

const fn make_tables() -> [[i32; 64]; 4] {
    let mut t = [[0; 64]; 4];
    let mut c = 0;
    while c < 4 {
        let mut i = 0;
        while i < 64 {
            t[c][i] = table_value(c, (i % 8) as i32, (i / 8) as i32);
            i += 1;
        }
        c += 1;
    }
    t
}

/// `TABLES[class][square]`, gold's view; class = stronger enemies, 3 = 3+.
static TABLES: [[i32; 64]; 4] = make_tables();

/// Placement score of `c`'s officers and elephant at `pct` percent.
pub fn placement(pos: &Position, ctx: &Context, c: Color, pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    let mut s = 0;
    for k in [
        Kind::Cat,
        Kind::Dog,
        Kind::Horse,
        Kind::Camel,
        Kind::Elephant,
    ] {
        let class = (ctx.stronger[c.index()][k.index()] as usize).min(3);
        let t = &TABLES[class];
        for sq in pos.kind_bb(c, k) {
            s += t[gold_view(c, sq)];
        }
    }
    s * pct / 100
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::notation::parse_side_and_board;

    fn score(rows: [&str; 8], c: Color) -> i32 {
        let p = parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap();
        placement(&p, &Context::new(&p), c, 100)
    }

    #[test]
    fn a_horse_with_only_the_elephant_above_it_plays_like_a_camel() {
        // A gold horse on d5: with silver's camel and elephant on the board
        // it is a two-stronger piece out of place; with the camel gone it
        // uses the one-stronger table.
        let with_camel = score(
            [
                "   me  r", "        ", "        ", "   H    ", "        ", "        ", "        ",
                "R       ",
            ],
            Color::Gold,
        );
        let no_camel = score(
            [
                "    e  r", "        ", "        ", "   H    ", "        ", "        ", "        ",
                "R       ",
            ],
            Color::Gold,
        );
        let d5 = Square::parse("d5").unwrap().index();
        assert_eq!(no_camel, TABLES[1][d5]);
        assert_eq!(with_camel, TABLES[2][d5]);
        assert!(no_camel > with_camel);
    }

    #[test]
    fn weak_pieces_belong_by_their_home_traps_and_mirror_for_silver() {
        let c2 = Square::parse("c2").unwrap().index();
        let c6 = Square::parse("c6").unwrap().index();
        let d1 = Square::parse("d1").unwrap().index();
        assert!(TABLES[3][c2] > TABLES[3][c6]);
        // Silver's cat on c7 and elephant on d8 score like gold's on c2
        // and d1 facing the same army.
        let g = score(
            [
                "   e   r", "        ", "        ", "        ", "        ", "        ", "  C     ",
                "R  E    ",
            ],
            Color::Gold,
        );
        let s = score(
            [
                "   e   r", "  c     ", "        ", "        ", "        ", "        ", "        ",
                "R  E    ",
            ],
            Color::Silver,
        );
        assert_eq!(g, s);
        assert_eq!(g, TABLES[0][d1] + TABLES[1][c2]);
        // The dominant piece wants the centre ahead, not the back rank.
        let d5 = Square::parse("d5").unwrap().index();
        assert!(TABLES[0][d5] > TABLES[0][d1] + 8);
    }
}
