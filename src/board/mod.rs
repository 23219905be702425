//! The rules of Arimaa: squares and pieces, positions, steps, pushes and
//! pulls, turns and setups (typed: [`Turn`], [`Setup`]), the end of the
//! game (by the rules, or by score under a referee: [`Judge`]), notation
//! and game records.

pub mod bitboard;
pub mod error;
pub mod game;
pub mod judge;
pub mod legality;
pub mod notation;
pub mod position;
pub mod record;
pub mod setup;
pub mod stepgen;
pub mod turn;
pub mod turngen;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use error::{IllegalReason, MoveError, NotationError};
pub use game::{Game, Move, Phase, Played};
pub use judge::{Judge, ScoreVerdict};
pub use position::{Capture, EndReason, Outcome, Position, STEPS_PER_TURN};
pub use setup::Setup;
pub use stepgen::{Action, ActionKind, ActionList, Step, Undo};
pub use turn::{Turn, TurnActions, pv_notation};
pub use turngen::TurnCount;
pub use types::{Color, Dir, Kind, Piece, Square};
