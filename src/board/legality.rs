//! Checking a move that comes from outside (a controller, a record, a user)
//! step by step, exactly as the rules define a turn, with the reason when it
//! is illegal. The generator works with whole pushes and pulls; this checker
//! works with single steps and a pending push or pull, which is how moves
//! are written. Tests check that the two agree.

use super::bitboard::{Bitboard, adjacent};
use super::error::{IllegalReason, MoveError, NotationError};
use super::notation::{ParsedMove, Token};
use super::position::{Capture, Position};
use super::stepgen::Step;
use super::types::{Color, Kind, Piece, Square};

/// A legal turn: its steps, the canonical notation (with capture tokens) and
/// the position after it, with the other side to move.
#[derive(Clone, Debug)]
pub struct CheckedTurn {
    pub steps: Vec<Step>,
    pub notation: String,
    pub end: Position,
}

/// What the previous step leaves open.
#[derive(Copy, Clone)]
enum Pending {
    Nothing,
    /// An enemy piece was pushed off `vacated`: a stronger friendly piece must
    /// step in next.
    Push {
        vacated: Square,
        victim: Piece,
    },
    /// A friendly piece left `vacated`: a weaker enemy piece next to it may
    /// follow (a pull).
    Pull {
        vacated: Square,
        puller: Piece,
    },
}

/// Checks a move (steps, optional capture tokens) for the side to move of
/// `start`, which may be mid-turn (its steps left are the budget). The board
/// must change; repetition is the game's concern.
pub fn check_move(start: &Position, mv: &ParsedMove) -> Result<CheckedTurn, MoveError> {
    use IllegalReason as R;
    let side = start.side();
    let budget = start.steps_left();
    let mut pos = start.clone();
    let mut steps = Vec::new();
    let mut notation: Vec<String> = Vec::new();
    let mut pending = Pending::Nothing;
    let mut unmatched: Option<Capture> = None;
    let mut last_step_token = String::new();
    for (tok, text) in &mv.tokens {
        let (piece, from, dir) = match *tok {
            Token::Place { .. } => {
                return Err(MoveError::AtToken {
                    token: text.clone(),
                    reason: R::PlacementDuringPlay,
                });
            }
            Token::Capture { piece, square } => {
                if unmatched == Some(Capture { piece, square }) {
                    unmatched = None;
                    continue;
                }
                return Err(MoveError::AtToken {
                    token: text.clone(),
                    reason: R::CaptureMismatch { piece, square },
                });
            }
            Token::Step { piece, from, dir } => (piece, from, dir),
        };
        let index = steps.len() + 1;
        let err = |reason| MoveError::AtStep {
            index,
            token: text.clone(),
            reason,
        };
        if index > budget as usize {
            return Err(err(R::TooManySteps { allowed: budget }));
        }
        match pos.piece_at(from) {
            None => {
                return Err(err(R::NoPiece {
                    piece,
                    square: from,
                }));
            }
            Some(found) if found != piece => {
                return Err(err(R::WrongPiece {
                    piece,
                    found,
                    square: from,
                }));
            }
            _ => {}
        }
        let to = from
            .step(dir)
            .ok_or_else(|| err(R::OffBoard { square: from, dir }))?;
        if let Some(by) = pos.piece_at(to) {
            return Err(err(R::Occupied { square: to, by }));
        }
        if piece.color() == side {
            match pending {
                Pending::Push { vacated, victim } => {
                    if to != vacated {
                        return Err(err(R::PushNotFinished { square: vacated }));
                    }
                    if piece.kind() <= victim.kind() {
                        return Err(err(R::PushTooWeak {
                            pusher: piece,
                            victim,
                        }));
                    }
                    if pos.is_frozen(from) {
                        return Err(err(R::Frozen {
                            piece,
                            square: from,
                        }));
                    }
                    // A piece that has just pushed cannot also pull.
                    pending = Pending::Nothing;
                }
                _ => {
                    if pos.is_frozen(from) {
                        return Err(err(R::Frozen {
                            piece,
                            square: from,
                        }));
                    }
                    if piece.kind() == Kind::Rabbit && dir == side.backward() {
                        return Err(err(R::RabbitBackward { color: side, dir }));
                    }
                    pending = Pending::Pull {
                        vacated: from,
                        puller: piece,
                    };
                }
            }
        } else {
            match pending {
                Pending::Push { vacated, .. } => {
                    return Err(err(R::PushNotFinished { square: vacated }));
                }
                // Following a stronger friendly piece into the square it
                // left is a pull; a pull stays possible even when the
                // puller was captured by its own step.
                Pending::Pull { vacated, puller }
                    if to == vacated && piece.kind() < puller.kind() =>
                {
                    pending = Pending::Nothing;
                }
                _ => {
                    if pushers(&pos, side, piece.kind(), from).is_empty() {
                        return Err(err(R::NoPusher {
                            side,
                            victim: piece,
                            square: from,
                        }));
                    }
                    if index == budget as usize {
                        return Err(err(R::PushOnLastStep));
                    }
                    pending = Pending::Push {
                        vacated: from,
                        victim: piece,
                    };
                }
            }
        }
        let cap = pos.move_piece(from, to);
        steps.push(Step::new(from, to));
        notation.push(format!("{piece}{from}{}", dir.to_char()));
        if let Some(c) = cap {
            notation.push(format!("{}{}x", c.piece, c.square));
        }
        unmatched = cap;
        last_step_token = text.clone();
    }
    if steps.is_empty() {
        return Err(MoveError::Notation(NotationError::EmptyMove));
    }
    if let Pending::Push { vacated, .. } = pending {
        return Err(MoveError::AtStep {
            index: steps.len(),
            token: last_step_token,
            reason: R::PushNotFinished { square: vacated },
        });
    }
    if pos.same_board(start) {
        return Err(MoveError::Whole(R::Unchanged));
    }
    pos.spend_steps(steps.len() as u8);
    pos.pass_turn();
    Ok(CheckedTurn {
        steps,
        notation: notation.join(" "),
        end: pos,
    })
}

/// Unfrozen pieces of `side` stronger than `kind` next to `sq`.
fn pushers(pos: &Position, side: Color, kind: Kind, sq: Square) -> Bitboard {
    let mut stronger = Bitboard::EMPTY;
    for k in Kind::ALL.iter().filter(|&&k| k > kind) {
        stronger |= pos.kind_bb(side, *k);
    }
    adjacent(sq) & stronger & !pos.frozen(side)
}

/// Checks a setup for `color` on `pos` (empty setup area expected) and
/// returns the position with the pieces placed, the other side to move.
/// A full setup has all 16 pieces; `allow_handicap` accepts fewer (a
/// controller-given handicap), still with at least one rabbit.
pub fn check_setup(
    pos: &Position,
    color: Color,
    mv: &ParsedMove,
    allow_handicap: bool,
) -> Result<(Position, Vec<(Piece, Square)>), MoveError> {
    use IllegalReason as R;
    let mut out = pos.clone();
    let mut placed = Vec::new();
    let area = Bitboard::setup_area(color);
    for (i, (tok, text)) in mv.tokens.iter().enumerate() {
        let err = |reason| MoveError::AtStep {
            index: i + 1,
            token: text.clone(),
            reason,
        };
        let Token::Place { piece, square } = *tok else {
            return Err(err(R::StepsDuringSetup));
        };
        if piece.color() != color {
            return Err(err(R::SetupWrongColor {
                expected: color.name(),
                got: piece.color(),
            }));
        }
        if !area.contains(square) {
            return Err(err(R::OutsideSetupArea { color, square }));
        }
        if out.piece_at(square).is_some() {
            return Err(err(R::SetupSquareTaken { square }));
        }
        if out.count(color, piece.kind()) >= piece.kind().full_count() {
            return Err(err(R::SetupTooMany { kind: piece.kind() }));
        }
        out.put(piece, square);
        placed.push((piece, square));
    }
    let total = out.occupied_by(color).count();
    if total < 16 && !allow_handicap {
        return Err(MoveError::Whole(R::SetupIncomplete { placed: total }));
    }
    if out.rabbits(color).is_empty() {
        return Err(MoveError::Whole(R::SetupNoRabbit));
    }
    out.pass_turn();
    Ok((out, placed))
}

impl Position {
    /// Same pieces on the same squares (side to move and steps ignored).
    pub fn same_board(&self, other: &Position) -> bool {
        (0..12).all(|i| self.pieces(Piece::ALL[i]) == other.pieces(Piece::ALL[i]))
    }
}
