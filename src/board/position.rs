//! The position: bitboards per piece, a mailbox for constant-time lookup,
//! the side to move, the steps left in its turn and an incrementally kept
//! Zobrist hash. Moving a piece applies trap captures at once, as the rules
//! require after every step.

use super::bitboard::{Bitboard, NEAR_TRAP, NO_TRAP, adjacent};
use super::types::{Color, Kind, Piece, Square};
use super::zobrist;

/// Steps in a turn: a side moves up to this many steps (a push or pull
/// uses two) before the turn passes.
pub const STEPS_PER_TURN: u8 = 4;

/// A piece removed from a trap by a step.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Capture {
    pub piece: Piece,
    pub square: Square,
}

/// A position, possibly in the middle of a turn.
///
/// Children can be made two ways: copy-make ([`Position::apply_action`] on a
/// clone; under 200 bytes) or make/unmake ([`Position::make_action`] and
/// [`Position::unmake_action`], which puts captured pieces back). The turn
/// counter uses make/unmake, measured faster on the move-count suite.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    bb: [Bitboard; 12],
    occ: [Bitboard; 2],
    board: [Option<Piece>; 64],
    /// Pieces and side to move; steps left are not part of it, so it is the
    /// key for repetition and for "did the turn change the board".
    hash: u64,
    side: Color,
    steps_left: u8,
}

/// Why the rules end a game, checked at the end of a complete turn.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum EndReason {
    Goal,
    Elimination,
    Immobilization,
}

impl EndReason {
    /// The archive's `termination` letter.
    pub fn letter(self) -> char {
        match self {
            EndReason::Goal => 'g',
            EndReason::Elimination => 'e',
            EndReason::Immobilization => 'm',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Elimination => "elimination",
            EndReason::Immobilization => "immobilization",
        }
    }
}

/// A finished game: who won and by which rule.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Color,
    pub reason: EndReason,
}

impl Outcome {
    /// The winner and the rule in words, for messages: `gold won by goal
    /// (a gold rabbit reached rank 8)`.
    pub fn describe(&self) -> String {
        let loser = self.winner.opp().name();
        let rule = match self.reason {
            EndReason::Goal => format!(
                "a {} rabbit reached rank {}",
                self.winner.name(),
                if self.winner == Color::Gold { 8 } else { 1 }
            ),
            EndReason::Elimination => format!("{loser} has no rabbits left"),
            EndReason::Immobilization => format!("{loser}, to move, has no legal move"),
        };
        format!(
            "{} won by {} ({rule})",
            self.winner.name(),
            self.reason.name()
        )
    }
}

impl Position {
    /// An empty board, `side` to move with a fresh turn.
    pub fn empty(side: Color) -> Position {
        Position {
            bb: [Bitboard::EMPTY; 12],
            occ: [Bitboard::EMPTY; 2],
            board: [None; 64],
            hash: if side == Color::Silver {
                zobrist::SIDE
            } else {
                0
            },
            side,
            steps_left: STEPS_PER_TURN,
        }
    }

    /// The usual opening position used by the suites: both sides set up,
    /// the camel and elephant as in `basic_setup_g`.
    pub fn standard_opening() -> Position {
        super::notation::parse_board_string(
            Color::Gold,
            "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]",
        )
        .expect("the built-in opening position parses")
    }

    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Steps the side to move still has in this turn (1-4; 0 once it has used
    /// all four and only ending the turn remains).
    #[inline(always)]
    pub fn steps_left(&self) -> u8 {
        self.steps_left
    }

    /// True before the first step of a turn.
    #[inline(always)]
    pub fn at_turn_start(&self) -> bool {
        self.steps_left == STEPS_PER_TURN
    }

    /// Board plus side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash with the steps left mixed in: what the search keys its table
    /// on, so that mid-turn nodes never share an entry with turn starts.
    #[inline(always)]
    pub fn search_key(&self) -> u64 {
        self.hash ^ zobrist::STEPS_LEFT[self.steps_left as usize]
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The kind of the piece on `sq`, for squares known to be occupied
    /// (an empty square reads as a rabbit, the weakest kind, so a caller's
    /// slip never makes a piece look stronger than it is).
    #[inline(always)]
    pub fn kind_at(&self, sq: Square) -> Kind {
        self.board[sq.index()].map_or(Kind::Rabbit, |p| p.kind())
    }

    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.bb[piece.index()]
    }

    #[inline(always)]
    pub fn kind_bb(&self, color: Color, kind: Kind) -> Bitboard {
        self.bb[color.index() * 6 + kind.index()]
    }

    #[inline(always)]
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        self.occ[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    #[inline(always)]
    pub fn empty_squares(&self) -> Bitboard {
        !(self.occ[0] | self.occ[1])
    }

    #[inline(always)]
    pub fn rabbits(&self, color: Color) -> Bitboard {
        self.kind_bb(color, Kind::Rabbit)
    }

    /// Enemy pieces of `color`'s opponent strictly stronger than `kind`.
    #[inline(always)]
    pub fn stronger_enemies(&self, color: Color, kind: Kind) -> Bitboard {
        let o = color.opp().index() * 6;
        let mut b = Bitboard::EMPTY;
        for k in kind.index() + 1..6 {
            b |= self.bb[o + k];
        }
        b
    }

    /// Pieces of `color`'s opponent strictly weaker than `kind`.
    #[inline(always)]
    pub fn weaker_enemies(&self, color: Color, kind: Kind) -> Bitboard {
        let o = color.opp().index() * 6;
        let mut b = Bitboard::EMPTY;
        for k in 0..kind.index() {
            b |= self.bb[o + k];
        }
        b
    }

    /// Places a piece on an empty square (setups, parsing, tests).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.bb[piece.index()] |= Bitboard::from_square(sq);
        self.occ[piece.color().index()] |= Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.hash ^= zobrist::PIECE[piece.index()][sq.index()];
    }

    /// Removes whatever stands on `sq`.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()]?;
        self.bb[piece.index()] ^= Bitboard::from_square(sq);
        self.occ[piece.color().index()] ^= Bitboard::from_square(sq);
        self.board[sq.index()] = None;
        self.hash ^= zobrist::PIECE[piece.index()][sq.index()];
        Some(piece)
    }

    /// Sets who is to move, with a fresh turn.
    pub fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.hash ^= zobrist::SIDE;
            self.side = side;
        }
        self.steps_left = STEPS_PER_TURN;
    }

    /// Sets the steps left in the current turn (positions given mid-turn).
    pub fn set_steps_left(&mut self, steps: u8) {
        debug_assert!(steps <= STEPS_PER_TURN);
        self.steps_left = steps;
    }

    /// The hash computed from nothing, to check the incremental one.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Silver {
            zobrist::SIDE
        } else {
            0
        };
        for sq in self.occupied() {
            let p = self.board[sq.index()].expect("occupied square has a piece");
            h ^= zobrist::PIECE[p.index()][sq.index()];
        }
        h
    }

    /// Checks every redundant field against the bitboards (tests, debugging).
    pub fn is_consistent(&self) -> bool {
        let mut occ = [Bitboard::EMPTY; 2];
        for p in Piece::ALL {
            occ[p.color().index()] |= self.bb[p.index()];
            for sq in self.bb[p.index()] {
                if self.board[sq.index()] != Some(p) {
                    return false;
                }
            }
        }
        let total: u32 = self.bb.iter().map(|b| b.count()).sum();
        total == (occ[0] | occ[1]).count()
            && occ == self.occ
            && (occ[0] & occ[1]).is_empty()
            && self.board.iter().filter(|p| p.is_some()).count() as u32 == total
            && self.hash == self.compute_hash()
    }

    /// Whether the piece on `sq` is frozen: next to a stronger enemy and to no
    /// friend. Empty squares are not frozen.
    #[inline]
    pub fn is_frozen(&self, sq: Square) -> bool {
        let Some(p) = self.board[sq.index()] else {
            return false;
        };
        let c = p.color();
        let adj = adjacent(sq);
        (adj & self.occ[c.index()]).is_empty() && (adj & self.stronger_enemies(c, p.kind())).any()
    }

    /// Every frozen piece of `color`.
    #[inline]
    pub fn frozen(&self, color: Color) -> Bitboard {
        let own = self.occ[color.index()];
        let lonely = own.and_not(own.neighbors());
        let o = color.opp().index() * 6;
        let mut stronger = self.occ[color.opp().index()];
        let mut frozen = Bitboard::EMPTY;
        for k in 0..5 {
            stronger = stronger.and_not(self.bb[o + k]);
            frozen |= self.bb[color.index() * 6 + k] & lonely & stronger.neighbors();
        }
        frozen
    }

    /// Moves the piece on `from` to the empty `to` (adjacency is the
    /// caller's concern) and removes a piece of the mover's colour left
    /// unguarded on a trap. Does not count steps.
    #[inline(always)]
    pub fn move_piece(&mut self, from: Square, to: Square) -> Option<Capture> {
        let p = match self.board[from.index()] {
            Some(p) => p,
            None => unreachable_empty(from),
        };
        let c = p.color().index();
        let ft = Bitboard(from.bit() | to.bit());
        self.bb[p.index()] ^= ft;
        self.occ[c] ^= ft;
        self.board[to.index()] = Some(p);
        self.board[from.index()] = None;
        self.hash ^=
            zobrist::PIECE[p.index()][from.index()] ^ zobrist::PIECE[p.index()][to.index()];
        // Only a trap next to `from` can lose its guard or receive the mover
        // (`to` is next to `from`), and only the mover's colour can be hit.
        let t = NEAR_TRAP[from.index()];
        if t != NO_TRAP {
            let tsq = Square::new(t);
            if self.occ[c].contains(tsq) && (adjacent(tsq) & self.occ[c]).is_empty() {
                let victim = self.board[t as usize].expect("trap square is occupied");
                self.bb[victim.index()] ^= Bitboard::from_square(tsq);
                self.occ[c] ^= Bitboard::from_square(tsq);
                self.board[t as usize] = None;
                self.hash ^= zobrist::PIECE[victim.index()][t as usize];
                return Some(Capture {
                    piece: victim,
                    square: tsq,
                });
            }
        }
        None
    }

    /// Takes back a [`Position::move_piece`] from `from` to `to` that
    /// caused `capture`: the captured piece returns first (it may be the
    /// mover itself, taken on `to`), then the mover steps back.
    #[inline(always)]
    pub(crate) fn unmove_piece(&mut self, from: Square, to: Square, capture: Option<Capture>) {
        if let Some(c) = capture {
            self.put(c.piece, c.square);
        }
        let p = match self.board[to.index()] {
            Some(p) => p,
            None => unreachable_empty(to),
        };
        let ft = Bitboard(from.bit() | to.bit());
        self.bb[p.index()] ^= ft;
        self.occ[p.color().index()] ^= ft;
        self.board[from.index()] = Some(p);
        self.board[to.index()] = None;
        self.hash ^=
            zobrist::PIECE[p.index()][from.index()] ^ zobrist::PIECE[p.index()][to.index()];
    }

    /// Gives back `n` steps (unmaking an action).
    #[inline(always)]
    pub(crate) fn unspend_steps(&mut self, n: u8) {
        debug_assert!(self.steps_left + n <= STEPS_PER_TURN);
        self.steps_left += n;
    }

    /// Uses up `n` steps of the current turn.
    #[inline(always)]
    pub fn spend_steps(&mut self, n: u8) {
        debug_assert!(self.steps_left >= n);
        self.steps_left -= n;
    }

    /// Ends the turn: the other side moves next with four steps.
    #[inline(always)]
    pub fn pass_turn(&mut self) {
        self.side = self.side.opp();
        self.hash ^= zobrist::SIDE;
        self.steps_left = STEPS_PER_TURN;
    }

    /// Whether `color` has a rabbit on its goal rank.
    #[inline(always)]
    pub fn has_goal(&self, color: Color) -> bool {
        (self.rabbits(color) & Bitboard::goal(color)).any()
    }

    /// Whether the side to move has any legal step (pushes count: their
    /// first step is a step). Without one it has no legal turn at all.
    pub fn has_any_step(&self) -> bool {
        if self.steps_left == 0 {
            return false;
        }
        let mut list = super::stepgen::ActionList::new();
        super::stepgen::generate_actions(self, &mut list);
        !list.is_empty()
    }

    /// The rules' verdict at the start of a turn, in the official order:
    /// the player is the side that just moved, the opponent the side to move.
    /// `opponent_stuck` answers step 5 (no legal turn for the side to move);
    /// it is only asked when steps 1-4 found nothing, because deciding it
    /// can be expensive once repetitions count.
    pub fn outcome_with(&self, opponent_stuck: impl FnOnce(&Position) -> bool) -> Option<Outcome> {
        let opponent = self.side;
        let player = opponent.opp();
        let win = |winner, reason| Some(Outcome { winner, reason });
        if self.has_goal(player) {
            return win(player, EndReason::Goal);
        }
        if self.has_goal(opponent) {
            return win(opponent, EndReason::Goal);
        }
        if self.rabbits(opponent).is_empty() {
            return win(player, EndReason::Elimination);
        }
        if self.rabbits(player).is_empty() {
            return win(opponent, EndReason::Elimination);
        }
        if opponent_stuck(self) {
            return win(player, EndReason::Immobilization);
        }
        None
    }

    /// [`Position::outcome_with`] ignoring repetitions: the side to move is
    /// stuck only when it has no step at all.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_with(|p| !p.has_any_step())
    }

    /// Number of pieces of each kind `color` has.
    pub fn count(&self, color: Color, kind: Kind) -> u32 {
        self.kind_bb(color, kind).count()
    }
}

#[cold]
#[inline(never)]
fn unreachable_empty(sq: Square) -> ! {
    panic!("internal error: move from empty square {sq}")
}
