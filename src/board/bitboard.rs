//! 64-bit square sets (`a1` = bit 0) and the fixed geometry of the board:
//! neighbours, traps, ranks and files.

use super::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit each.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    pub const RANK_2: Bitboard = Bitboard(0xFF00);
    pub const RANK_7: Bitboard = Bitboard(0x00FF_0000_0000_0000);
    pub const RANK_8: Bitboard = Bitboard(0xFF00_0000_0000_0000);
    /// c3, f3, c6, f6.
    pub const TRAPS: Bitboard = Bitboard((1 << 18) | (1 << 21) | (1 << 42) | (1 << 45));

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn first(self) -> Square {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.first();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }

    /// Every square orthogonally adjacent to some square of the set.
    #[inline(always)]
    pub const fn neighbors(self) -> Bitboard {
        Bitboard(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }

    /// The goal rank of `color`'s rabbits.
    #[inline(always)]
    pub const fn goal(color: Color) -> Bitboard {
        match color {
            Color::Gold => Self::RANK_8,
            Color::Silver => Self::RANK_1,
        }
    }

    /// Squares `color` may place pieces on during its setup.
    pub const fn setup_area(color: Color) -> Bitboard {
        match color {
            Color::Gold => Bitboard(Self::RANK_1.0 | Self::RANK_2.0),
            Color::Silver => Bitboard(Self::RANK_7.0 | Self::RANK_8.0),
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

const fn make_adjacent() -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = Bitboard(1u64 << i).neighbors();
        i += 1;
    }
    t
}

/// `ADJACENT[sq]`: the squares next to `sq`.
pub static ADJACENT: [Bitboard; 64] = make_adjacent();

#[inline(always)]
pub fn adjacent(sq: Square) -> Bitboard {
    ADJACENT[sq.index()]
}

/// The square behind `sq` for `color`'s rabbits (towards its home rank),
/// the one neighbour they never step to; empty off the board.
#[inline(always)]
pub const fn behind(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::Gold => Bitboard::from_square(sq).south(),
        Color::Silver => Bitboard::from_square(sq).north(),
    }
}

const fn make_near_trap() -> [u8; 64] {
    let mut t = [NO_TRAP; 64];
    let traps = [18u8, 21, 42, 45];
    let mut i = 0;
    while i < 4 {
        let n = Bitboard(1u64 << traps[i]).neighbors().0;
        let mut s = 0;
        while s < 64 {
            if n & (1u64 << s) != 0 {
                t[s] = traps[i];
            }
            s += 1;
        }
        i += 1;
    }
    t
}

/// Marks "no trap next to this square" in [`NEAR_TRAP`].
pub const NO_TRAP: u8 = 64;

/// `NEAR_TRAP[sq]`: the one trap adjacent to `sq`, or [`NO_TRAP`]. Traps are
/// three files or ranks apart, so no square touches two of them; this is what
/// lets a step check a single trap for captures.
pub static NEAR_TRAP: [u8; 64] = make_near_trap();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap() {
        let a1 = Square::parse("a1").unwrap();
        let h4 = Square::parse("h4").unwrap();
        let names = |b: Bitboard| b.map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(adjacent(a1)), vec!["b1", "a2"]);
        assert_eq!(names(adjacent(h4)), vec!["h3", "g4", "h5"]);
    }

    #[test]
    fn near_trap_table() {
        let t = |s: &str| NEAR_TRAP[Square::parse(s).unwrap().index()];
        assert_eq!(t("c2"), 18);
        assert_eq!(t("d3"), 18);
        assert_eq!(t("e3"), 21);
        assert_eq!(t("f7"), 45);
        assert_eq!(t("d4"), NO_TRAP);
        assert_eq!(t("c3"), NO_TRAP);
    }
}
