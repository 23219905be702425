//! The game's vocabulary as small copyable types: colours, piece kinds,
//! pieces, squares and directions, with their letters in Arimaa notation.

use std::fmt;

/// The two sides. Gold sets up first and moves first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Gold = 0,
    Silver = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Gold, Color::Silver];

    #[inline(always)]
    pub const fn opp(self) -> Color {
        match self {
            Color::Gold => Color::Silver,
            Color::Silver => Color::Gold,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `g`/`s`, and the pre-2009 `w`/`b` some controllers and old records still use.
    pub fn from_char(c: char) -> Option<Color> {
        match c {
            'g' | 'w' => Some(Color::Gold),
            's' | 'b' => Some(Color::Silver),
            _ => None,
        }
    }

    pub const fn to_char(self) -> char {
        match self {
            Color::Gold => 'g',
            Color::Silver => 's',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Gold => "gold",
            Color::Silver => "silver",
        }
    }

    /// The rank a rabbit of this colour wins on (0-based).
    #[inline(always)]
    pub const fn goal_rank(self) -> u8 {
        match self {
            Color::Gold => 7,
            Color::Silver => 0,
        }
    }

    /// The direction this colour's rabbits may not take by themselves.
    #[inline(always)]
    pub const fn backward(self) -> Dir {
        match self {
            Color::Gold => Dir::South,
            Color::Silver => Dir::North,
        }
    }
}

/// Piece kinds, weakest first, so that `a > b` means `a` can push `b`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Rabbit = 0,
    Cat = 1,
    Dog = 2,
    Horse = 3,
    Camel = 4,
    Elephant = 5,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Rabbit,
        Kind::Cat,
        Kind::Dog,
        Kind::Horse,
        Kind::Camel,
        Kind::Elephant,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// How many of this kind each side has in a full setup.
    pub const fn full_count(self) -> u32 {
        match self {
            Kind::Rabbit => 8,
            Kind::Cat | Kind::Dog | Kind::Horse => 2,
            Kind::Camel | Kind::Elephant => 1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Rabbit => "rabbit",
            Kind::Cat => "cat",
            Kind::Dog => "dog",
            Kind::Horse => "horse",
            Kind::Camel => "camel",
            Kind::Elephant => "elephant",
        }
    }

    /// Upper-case letter (gold's).
    pub const fn letter(self) -> char {
        match self {
            Kind::Rabbit => 'R',
            Kind::Cat => 'C',
            Kind::Dog => 'D',
            Kind::Horse => 'H',
            Kind::Camel => 'M',
            Kind::Elephant => 'E',
        }
    }
}

/// A coloured piece; the discriminant is `color * 6 + kind`, so tables can be
/// indexed by it and `Option<Piece>` stays one byte.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    GRabbit = 0,
    GCat,
    GDog,
    GHorse,
    GCamel,
    GElephant,
    SRabbit,
    SCat,
    SDog,
    SHorse,
    SCamel,
    SElephant,
}

impl Piece {
    pub const ALL: [Piece; 12] = [
        Piece::GRabbit,
        Piece::GCat,
        Piece::GDog,
        Piece::GHorse,
        Piece::GCamel,
        Piece::GElephant,
        Piece::SRabbit,
        Piece::SCat,
        Piece::SDog,
        Piece::SHorse,
        Piece::SCamel,
        Piece::SElephant,
    ];

    #[inline(always)]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece::ALL[color as usize * 6 + kind as usize]
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 {
            Color::Gold
        } else {
            Color::Silver
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind::ALL[(self as usize) % 6]
    }

    pub const fn to_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Gold => c,
            Color::Silver => c.to_ascii_lowercase(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Gold
        } else {
            Color::Silver
        };
        let kind = match c.to_ascii_uppercase() {
            'R' => Kind::Rabbit,
            'C' => Kind::Cat,
            'D' => Kind::Dog,
            'H' => Kind::Horse,
            'M' => Kind::Camel,
            'E' => Kind::Elephant,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }

    /// "gold rabbit", for error messages.
    pub fn describe(self) -> String {
        format!("{} {}", self.color().name(), self.kind().name())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// A square, `a1 = 0`, `h1 = 7`, `a8 = 56`: north is `+8`, east is `+1`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// 0 = file a.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The neighbour in `dir`, if it is on the board.
    #[inline(always)]
    pub const fn step(self, dir: Dir) -> Option<Square> {
        match dir {
            Dir::North if self.rank() < 7 => Some(Square(self.0 + 8)),
            Dir::South if self.rank() > 0 => Some(Square(self.0 - 8)),
            Dir::East if self.file() < 7 => Some(Square(self.0 + 1)),
            Dir::West if self.file() > 0 => Some(Square(self.0 - 1)),
            _ => None,
        }
    }

    /// The direction from `self` to an orthogonally adjacent `to`.
    #[inline]
    pub const fn dir_to(self, to: Square) -> Option<Dir> {
        let d = to.0 as i16 - self.0 as i16;
        match d {
            8 => Some(Dir::North),
            -8 => Some(Dir::South),
            1 if self.file() < 7 => Some(Dir::East),
            -1 if self.file() > 0 => Some(Dir::West),
            _ => None,
        }
    }

    /// Parses `a1`..`h8`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }

    pub const fn is_trap(self) -> bool {
        matches!(self.0, 18 | 21 | 42 | 45)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// The four step directions.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Dir {
    North = 0,
    South = 1,
    East = 2,
    West = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    pub const fn to_char(self) -> char {
        match self {
            Dir::North => 'n',
            Dir::South => 's',
            Dir::East => 'e',
            Dir::West => 'w',
        }
    }

    pub fn from_char(c: char) -> Option<Dir> {
        match c {
            'n' => Some(Dir::North),
            's' => Some(Dir::South),
            'e' => Some(Dir::East),
            'w' => Some(Dir::West),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::South => "south",
            Dir::East => "east",
            Dir::West => "west",
        }
    }
}
