//! Board geometry and per-position facts shared by the knowledge terms
//! (trap control, hostages, dominance, runners, wings, alignment):
//! step distances, disks around squares, and a [`Context`] computed once per
//! evaluation so that each term does not recompute frozen pieces, how many
//! enemy pieces outrank each kind, or who controls each trap.

use crate::board::bitboard::Bitboard;
use crate::board::{Color, Kind, Position, Square};

/// The traps c3, f3 (gold's home) and c6, f6 (silver's home).
pub const TRAP_SQUARES: [u8; 4] = [18, 21, 42, 45];

/// Whose home trap trap `i` of [`TRAP_SQUARES`] is.
#[inline(always)]
pub const fn trap_owner(i: usize) -> Color {
    if i < 2 { Color::Gold } else { Color::Silver }
}

const fn make_dist() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            t[a][b] = (df + dr) as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

/// `DIST[a][b]`: steps between two squares on an empty board.
pub static DIST: [[u8; 64]; 64] = make_dist();

/// Steps between `a` and `b` on an empty board.
#[inline(always)]
pub fn dist(a: Square, b: Square) -> u32 {
    DIST[a.index()][b.index()] as u32
}

const fn make_disks() -> [[Bitboard; 64]; 5] {
    let d = make_dist();
    let mut t = [[Bitboard::EMPTY; 64]; 5];
    let mut r = 0;
    while r < 5 {
        let mut a = 0;
        while a < 64 {
            let mut bits = 0u64;
            let mut b = 0;
            while b < 64 {
                if d[a][b] as usize <= r {
                    bits |= 1u64 << b;
                }
                b += 1;
            }
            t[r][a] = Bitboard(bits);
            a += 1;
        }
        r += 1;
    }
    t
}

static DISKS: [[Bitboard; 64]; 5] = make_disks();

/// Squares at most `r` (0-4) steps from `sq`, `sq` included.
#[inline(always)]
pub fn disk(r: usize, sq: Square) -> Bitboard {
    DISKS[r][sq.index()]
}

/// Rank counted from `c`'s home rank (0) towards its goal (7).
#[inline(always)]
pub const fn rel_rank(c: Color, sq: Square) -> u8 {
    match c {
        Color::Gold => sq.rank(),
        Color::Silver => 7 - sq.rank(),
    }
}

/// `sq` seen from gold's side: the square itself for gold, mirrored
/// rank for silver. Tables written for gold index with it.
#[inline(always)]
pub const fn gold_view(c: Color, sq: Square) -> usize {
    match c {
        Color::Gold => sq.index(),
        Color::Silver => sq.index() ^ 56,
    }
}

/// Bitboard of the ranks `c` counts as `lo..=hi` from its home rank.
#[inline]
pub fn rel_ranks(c: Color, lo: u8, hi: u8) -> Bitboard {
    let mut b = 0u64;
    let mut r = lo;
    while r <= hi && r < 8 {
        let abs = if c == Color::Gold { r } else { 7 - r };
        b |= 0xFFu64 << (8 * abs);
        r += 1;
    }
    Bitboard(b)
}

/// Bitboard of files `lo..=hi` (clamped to the board).
#[inline]
pub fn files(lo: i32, hi: i32) -> Bitboard {
    let mut b = 0u64;
    let mut f = lo.max(0);
    while f <= hi.min(7) {
        b |= Bitboard::FILE_A.0 << f;
        f += 1;
    }
    Bitboard(b)
}

/// Facts about a position that several terms need, computed once.
pub struct Context {
    /// Frozen pieces per colour.
    pub frozen: [Bitboard; 2],
    /// Unfrozen pieces per colour.
    pub free: [Bitboard; 2],
    /// `stronger[c][k]`: how many enemy pieces outrank a piece of kind `k`
    /// of colour `c`.
    pub stronger: [[u8; 6]; 2],
    /// `free_stronger[c][k]`: the unfrozen enemy pieces that outrank a
    /// piece of kind `k` of colour `c` (the ones that can push, pull or
    /// freeze it now).
    pub free_stronger: [[Bitboard; 6]; 2],
    /// Piece values by colour and kind ([`piece_value`]).
    values: Values,
    /// Trap control per trap, gold minus silver (raw units of
    /// [`super::trapcontrol`]); filled by the trap-control term.
    pub trap: [i32; 4],
}

impl Context {
    /// Everything but trap control, which [`super::trapcontrol::raw_control`]
    /// adds.
    pub fn new(pos: &Position) -> Context {
        let frozen = [pos.frozen(Color::Gold), pos.frozen(Color::Silver)];
        let free = [
            pos.occupied_by(Color::Gold).and_not(frozen[0]),
            pos.occupied_by(Color::Silver).and_not(frozen[1]),
        ];
        let mut counts = [[0u32; 6]; 2];
        for c in Color::BOTH {
            for k in Kind::ALL {
                counts[c.index()][k.index()] = pos.count(c, k);
            }
        }
        let mut stronger = [[0u8; 6]; 2];
        let mut free_stronger = [[Bitboard::EMPTY; 6]; 2];
        for c in Color::BOTH {
            let e = c.opp();
            let mut above = 0u8;
            let mut above_free = Bitboard::EMPTY;
            for k in Kind::ALL.into_iter().rev() {
                stronger[c.index()][k.index()] = above;
                free_stronger[c.index()][k.index()] = above_free;
                above += counts[e.index()][k.index()] as u8;
                above_free |= pos.kind_bb(e, k) & free[e.index()];
            }
        }
        Context {
            frozen,
            free,
            stronger,
            free_stronger,
            values: values_of(&counts),
            trap: [0; 4],
        }
    }

    /// Trap control of trap `i` from `c`'s point of view (positive: `c`
    /// holds it).
    #[inline(always)]
    pub fn trap_for(&self, c: Color, i: usize) -> i32 {
        if c == Color::Gold {
            self.trap[i]
        } else {
            -self.trap[i]
        }
    }

    /// Unfrozen pieces of `c`'s opponent stronger than `kind`.
    #[inline(always)]
    pub fn free_stronger_enemies(&self, c: Color, kind: Kind) -> Bitboard {
        self.free_stronger[c.index()][kind.index()]
    }
}

/// What `c` loses if its piece of `kind` is captured (HarLog, centi-rabbits).
#[inline(always)]
pub fn piece_value(ctx: &Context, c: Color, kind: Kind) -> i32 {
    ctx.values[c.index()][kind.index()]
}

/// Piece values by colour and kind for one pair of piece counts.
type Values = [[i32; 6]; 2];

/// Slots of the per-thread piece-value cache (a power of two).
const VALUE_SLOTS: usize = 16;

thread_local! {
    /// Piece values of recently seen piece counts, by a hash of the counts.
    /// A search sees few distinct counts, while each value costs two
    /// lookups in the large material table (cache misses, several percent
    /// of a search's time when every evaluation paid them).
    static VALUE_CACHE: std::cell::RefCell<[(u64, Values); VALUE_SLOTS]> =
        const { std::cell::RefCell::new([(u64::MAX, [[0; 6]; 2]); VALUE_SLOTS]) };
}

/// [`compute_value`] for every colour and kind, through the cache.
fn values_of(counts: &[super::material::Counts; 2]) -> Values {
    // Four bits a count (at most 8 rabbits, 2 of a kind otherwise): a key
    // below 2^48, so never the empty slot's u64::MAX.
    let mut key = 0u64;
    for n in counts.iter().flatten() {
        key = key << 4 | u64::from(*n & 15);
    }
    let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize % VALUE_SLOTS;
    VALUE_CACHE.with_borrow_mut(|cache| {
        if cache[slot].0 != key {
            let mut v = [[0; 6]; 2];
            for c in Color::BOTH {
                for k in Kind::ALL {
                    v[c.index()][k.index()] = compute_value(counts, c, k);
                }
            }
            cache[slot] = (key, v);
        }
        cache[slot].1
    })
}

fn compute_value(counts: &[super::material::Counts; 2], c: Color, kind: Kind) -> i32 {
    use super::material::material_of;
    let [g, s] = *counts;
    let before = material_of(&g, &s);
    let mut after = [g, s];
    let n = &mut after[c.index()][kind.index()];
    *n = n.saturating_sub(1);
    let after = material_of(&after[0], &after[1]);
    if c == Color::Gold {
        before - after
    } else {
        after - before
    }
}

/// Index of the trap nearest `sq` and its distance.
#[inline]
pub fn nearest_trap(sq: Square) -> (usize, u32) {
    let f = sq.file();
    let r = sq.rank();
    let i = (if f < 4 { 0 } else { 1 }) + (if r < 4 { 0 } else { 2 });
    (i, DIST[sq.index()][TRAP_SQUARES[i] as usize] as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn distances_and_disks() {
        assert_eq!(dist(sq("a1"), sq("h8")), 14);
        assert_eq!(dist(sq("c3"), sq("d4")), 2);
        assert_eq!(disk(1, sq("a1")).count(), 3);
        assert_eq!(disk(2, sq("d4")).count(), 13);
        assert!(!disk(2, sq("d4")).contains(sq("f5")));
    }

    #[test]
    fn nearest_trap_is_the_quadrants_trap() {
        assert_eq!(nearest_trap(sq("b2")), (0, 2));
        assert_eq!(nearest_trap(sq("g7")), (3, 2));
        assert_eq!(nearest_trap(sq("e4")), (1, 2));
        assert_eq!(trap_owner(2), Color::Silver);
    }

    #[test]
    fn relative_ranks_mirror() {
        assert_eq!(rel_rank(Color::Silver, sq("a8")), 0);
        assert_eq!(rel_ranks(Color::Silver, 0, 0), Bitboard::RANK_8);
        assert_eq!(rel_ranks(Color::Gold, 1, 1), Bitboard::RANK_2);
        assert_eq!(files(-1, 0), Bitboard::FILE_A);
        assert_eq!(gold_view(Color::Silver, sq("c6")), sq("c3").index());
    }
}
