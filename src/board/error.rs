//! Typed errors for everything that comes from outside: notation, board
//! strings, diagrams, records, and moves that break the rules. Each names the
//! offending token and says why, so a controller log or a test failure reads
//! like "step 3 `Ed2n`: no gold elephant on d2".

use super::types::{Color, Dir, Kind, Piece, Square};
use thiserror::Error;

/// A token or text that is not valid notation at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("`{token}`: `{letter}` is not a piece letter (one of EMHDCR emhdcr)")]
    BadPiece { token: String, letter: char },
    #[error("`{token}`: `{text}` is not a square (a1 to h8)")]
    BadSquare { token: String, text: String },
    #[error("`{token}`: `{letter}` is not a direction (n, s, e, w) or capture mark (x)")]
    BadDirection { token: String, letter: char },
    #[error("`{token}`: a step is 4 characters (`Ed2n`), a capture `rc3x`, a placement `Ra1`")]
    BadLength { token: String },
    #[error("the move is empty")]
    EmptyMove,
    #[error("`{token}`: a move mixes setup placements and steps")]
    MixedSetupAndSteps { token: String },
    #[error("board string: {0}")]
    BadBoard(String),
    #[error("position: {0}")]
    BadPosition(String),
    #[error("diagram line {line}: {reason}")]
    BadDiagram { line: usize, reason: String },
    #[error("`{token}`: not a side (g, s, or the old w, b)")]
    BadSide { token: String },
    #[error("record: {0}")]
    BadRecord(String),
    #[error("`{token}`: {} is to move here", expected.name())]
    WrongSide { token: String, expected: Color },
}

/// Why a step, move or setup is not legal here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalReason {
    #[error("there is no piece on {square}")]
    EmptySquare { square: Square },
    #[error("no {} on {square}", piece.describe())]
    NoPiece { piece: Piece, square: Square },
    #[error("{square} holds a {}, not a {}", found.describe(), piece.describe())]
    WrongPiece {
        piece: Piece,
        found: Piece,
        square: Square,
    },
    #[error("cannot step {} off the board from {square}", dir.name())]
    OffBoard { square: Square, dir: Dir },
    #[error("{square} is occupied by a {}", by.describe())]
    Occupied { square: Square, by: Piece },
    #[error("a {} rabbit cannot step {}", color.name(), dir.name())]
    RabbitBackward { color: Color, dir: Dir },
    #[error("the {} on {square} is frozen", piece.kind().name())]
    Frozen { piece: Piece, square: Square },
    #[error("no unfrozen {} piece stronger than the {} on {square} stands next to it, so it cannot be pushed", side.name(), victim.describe())]
    NoPusher {
        side: Color,
        victim: Piece,
        square: Square,
    },
    #[error("a push needs two steps and this is the last step of the turn")]
    PushOnLastStep,
    #[error(
        "the push that emptied {square} must be finished by a stronger piece stepping into {square}"
    )]
    PushNotFinished { square: Square },
    #[error("the {} is not stronger than the {} it would push", pusher.describe(), victim.describe())]
    PushTooWeak { pusher: Piece, victim: Piece },
    #[error("too many steps: at most {allowed} in this turn")]
    TooManySteps { allowed: u8 },
    #[error("no {} was captured on {square} by the step before", piece.describe())]
    CaptureMismatch { piece: Piece, square: Square },
    #[error("a turn needs at least one step")]
    NoSteps,
    #[error("the turn leaves the board unchanged")]
    Unchanged,
    #[error("the turn would make this position occur for the third time")]
    ThirdRepetition,
    #[error("it is {expected}'s turn to set up, not {}'s", got.name())]
    SetupWrongColor { expected: &'static str, got: Color },
    #[error("{square} is outside {}'s setup area ({})", color.name(), if *color == Color::Gold { "ranks 1-2" } else { "ranks 7-8" })]
    OutsideSetupArea { color: Color, square: Square },
    #[error("{square} already has a piece")]
    SetupSquareTaken { square: Square },
    #[error("too many {}s: a side has {} at most", kind.name(), kind.full_count())]
    SetupTooMany { kind: Kind },
    #[error("a setup must place at least one rabbit")]
    SetupNoRabbit,
    #[error(
        "the setup places {placed} pieces; a full setup has 16 and only a controller-given handicap may have fewer"
    )]
    SetupIncomplete { placed: u32 },
    #[error("a setup is expected here, not steps")]
    StepsDuringSetup,
    #[error("placements are only allowed during the setup phase")]
    PlacementDuringPlay,
    #[error("the game is over")]
    GameOver,
    #[error(
        "the rules accept this turn but the turn generator does not make it (a bug: please report it)"
    )]
    NotGenerated,
}

/// An illegal move, with where in the move it went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// 1-based index among the move's steps (or placements), and the token.
    #[error("step {index} `{token}`: {reason}")]
    AtStep {
        index: usize,
        token: String,
        reason: IllegalReason,
    },
    #[error("`{token}`: {reason}")]
    AtToken {
        token: String,
        reason: IllegalReason,
    },
    #[error("{0}")]
    Whole(IllegalReason),
}

impl MoveError {
    /// The underlying rule, if the move was well-formed but illegal.
    pub fn reason(&self) -> Option<&IllegalReason> {
        match self {
            MoveError::Notation(_) => None,
            MoveError::AtStep { reason, .. }
            | MoveError::AtToken { reason, .. }
            | MoveError::Whole(reason) => Some(reason),
        }
    }
}
