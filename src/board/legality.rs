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
use super::types::{Color, Dir, Kind, Piece, Square};

/// A legal turn: its steps, the canonical notation (with capture tokens) and
/// the position after it, with the other side to move.
#[derive(Clone, Debug)]
pub struct CheckedTurn {
    pub steps: Vec<Step>,
    pub notation: String,
    pub end: Position,
}

/// What the previous step leaves open.
#[derive(Copy, Clone, Debug)]
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

/// Checks a turn one step at a time, as a controller or a user plays it:
/// each step is judged against the rules given the steps before it (a
/// pending push must be finished, a pull may follow), and a refused step
/// leaves the checker unchanged. [`check_move`] is built on it; the tests
/// use it to confirm that the generator's first steps are exactly the steps
/// the rules accept.
#[derive(Clone, Debug)]
pub struct StepChecker {
    start: Position,
    pos: Position,
    steps: Vec<Step>,
    pending: Pending,
}

impl StepChecker {
    /// A checker for the side to move of `start`, which may be mid-turn (its
    /// steps left are the budget).
    pub fn new(start: &Position) -> StepChecker {
        StepChecker {
            start: start.clone(),
            pos: start.clone(),
            steps: Vec::new(),
            pending: Pending::Nothing,
        }
    }

    /// The position after the steps so far (captures applied, same side to
    /// move).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The steps accepted so far.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether the last step started a push that the next step must finish.
    pub fn push_pending(&self) -> bool {
        matches!(self.pending, Pending::Push { .. })
    }

    /// Checks moving whatever stands on `from` one square towards `dir` and
    /// plays it if legal, returning the capture it caused.
    pub fn step(&mut self, from: Square, dir: Dir) -> Result<Option<Capture>, IllegalReason> {
        use IllegalReason as R;
        let side = self.pos.side();
        let budget = self.start.steps_left() as usize;
        let index = self.steps.len() + 1;
        if index > budget {
            return Err(R::TooManySteps {
                allowed: budget as u8,
            });
        }
        let pos = &self.pos;
        let piece = pos.piece_at(from).ok_or(R::EmptySquare { square: from })?;
        let to = from.step(dir).ok_or(R::OffBoard { square: from, dir })?;
        if let Some(by) = pos.piece_at(to) {
            return Err(R::Occupied { square: to, by });
        }
        let pending = if piece.color() == side {
            match self.pending {
                Pending::Push { vacated, victim } => {
                    if to != vacated {
                        return Err(R::PushNotFinished { square: vacated });
                    }
                    if piece.kind() <= victim.kind() {
                        return Err(R::PushTooWeak {
                            pusher: piece,
                            victim,
                        });
                    }
                    if pos.is_frozen(from) {
                        return Err(R::Frozen {
                            piece,
                            square: from,
                        });
                    }
                    // A piece that has just pushed cannot also pull.
                    Pending::Nothing
                }
                _ => {
                    if pos.is_frozen(from) {
                        return Err(R::Frozen {
                            piece,
                            square: from,
                        });
                    }
                    if piece.kind() == Kind::Rabbit && dir == side.backward() {
                        return Err(R::RabbitBackward { color: side, dir });
                    }
                    Pending::Pull {
                        vacated: from,
                        puller: piece,
                    }
                }
            }
        } else {
            match self.pending {
                Pending::Push { vacated, .. } => {
                    return Err(R::PushNotFinished { square: vacated });
                }
                // Following a stronger friendly piece into the square it
                // left is a pull; a pull stays possible even when the
                // puller was captured by its own step.
                Pending::Pull { vacated, puller }
                    if to == vacated && piece.kind() < puller.kind() =>
                {
                    Pending::Nothing
                }
                _ => {
                    if pushers(pos, side, piece.kind(), from).is_empty() {
                        return Err(R::NoPusher {
                            side,
                            victim: piece,
                            square: from,
                        });
                    }
                    if index == budget {
                        return Err(R::PushOnLastStep);
                    }
                    Pending::Push {
                        vacated: from,
                        victim: piece,
                    }
                }
            }
        };
        self.pending = pending;
        self.steps.push(Step::new(from, to));
        Ok(self.pos.move_piece(from, to))
    }

    /// Whether the turn may end here: at least one step, no push half done,
    /// and the board changed.
    pub fn can_finish(&self) -> Result<(), IllegalReason> {
        if let Pending::Push { vacated, .. } = self.pending {
            return Err(IllegalReason::PushNotFinished { square: vacated });
        }
        if self.steps.is_empty() {
            return Err(IllegalReason::NoSteps);
        }
        if self.pos.same_board(&self.start) {
            return Err(IllegalReason::Unchanged);
        }
        Ok(())
    }

    /// Ends the turn: the position after it, the other side to move.
    pub fn finish(&self) -> Result<Position, IllegalReason> {
        self.can_finish()?;
        let mut end = self.pos.clone();
        end.pass_turn();
        Ok(end)
    }
}

/// Checks a move (steps, optional capture tokens) for the side to move of
/// `start`, which may be mid-turn (its steps left are the budget). The board
/// must change; repetition is the game's concern.
pub fn check_move(start: &Position, mv: &ParsedMove) -> Result<CheckedTurn, MoveError> {
    use IllegalReason as R;
    let mut checker = StepChecker::new(start);
    let mut notation: Vec<String> = Vec::new();
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
        let index = checker.steps().len() + 1;
        let err = |reason| MoveError::AtStep {
            index,
            token: text.clone(),
            reason,
        };
        if index > start.steps_left() as usize {
            return Err(err(R::TooManySteps {
                allowed: start.steps_left(),
            }));
        }
        // The token names the piece; the checker only knows the square.
        match checker.position().piece_at(from) {
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
        let cap = checker.step(from, dir).map_err(err)?;
        notation.push(format!("{piece}{from}{}", dir.to_char()));
        if let Some(c) = cap {
            notation.push(format!("{}{}x", c.piece, c.square));
        }
        unmatched = cap;
        last_step_token = text.clone();
    }
    finish_checked(checker, notation, &last_step_token)
}

/// Checks a turn given as steps (a typed [`Turn`](super::Turn)'s) exactly
/// as [`check_move`] checks written ones: the same step-by-step rules, the
/// same reasons. Cheap (at most four steps), so typed turns are always
/// checked, never trusted.
pub fn check_steps(start: &Position, steps: &[Step]) -> Result<CheckedTurn, MoveError> {
    use IllegalReason as R;
    let mut checker = StepChecker::new(start);
    let mut notation: Vec<String> = Vec::new();
    let mut last_step_token = String::new();
    for (i, s) in steps.iter().enumerate() {
        let index = i + 1;
        let piece = checker.position().piece_at(s.from);
        let dir = s.from.dir_to(s.to);
        let token = match (piece, dir) {
            (Some(p), Some(d)) => format!("{p}{}{}", s.from, d.to_char()),
            _ => format!("{}-{}", s.from, s.to),
        };
        let err = |reason| MoveError::AtStep {
            index,
            token: token.clone(),
            reason,
        };
        if index > start.steps_left() as usize {
            return Err(err(R::TooManySteps {
                allowed: start.steps_left(),
            }));
        }
        let Some(piece) = piece else {
            return Err(err(R::EmptySquare { square: s.from }));
        };
        let Some(dir) = dir else {
            return Err(MoveError::Notation(NotationError::BadPosition(format!(
                "step {index}: {} and {} are not adjacent",
                s.from, s.to
            ))));
        };
        let cap = checker.step(s.from, dir).map_err(err)?;
        notation.push(format!("{piece}{}{}", s.from, dir.to_char()));
        if let Some(c) = cap {
            notation.push(format!("{}{}x", c.piece, c.square));
        }
        last_step_token = token;
    }
    finish_checked(checker, notation, &last_step_token)
}

/// The end of both checks: at least one step, and a turn that may end here.
fn finish_checked(
    checker: StepChecker,
    notation: Vec<String>,
    last_step_token: &str,
) -> Result<CheckedTurn, MoveError> {
    use IllegalReason as R;
    if checker.steps().is_empty() {
        return Err(MoveError::Notation(NotationError::EmptyMove));
    }
    let end = checker.finish().map_err(|reason| match reason {
        R::PushNotFinished { .. } => MoveError::AtStep {
            index: checker.steps().len(),
            token: last_step_token.to_string(),
            reason,
        },
        _ => MoveError::Whole(reason),
    })?;
    Ok(CheckedTurn {
        steps: checker.steps().to_vec(),
        notation: notation.join(" "),
        end,
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
