//! A game from setup to end: whose turn it is, the history that repetition
//! is judged against, the record so far, and the rules' verdict after each
//! turn. Every move is checked before it touches the state, so an illegal
//! one leaves the game exactly as it was.

use super::error::{IllegalReason, MoveError};
use super::legality::{check_move, check_setup};
use super::notation::{format_setup, parse_move};
use super::position::{Outcome, Position};
use super::turngen::{History, Turn, generate_turns};
use super::types::Color;

/// Where the game stands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Phase {
    /// `color` places its pieces next.
    Setup(Color),
    /// Turns of steps.
    Play,
}

/// A move the game accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Record label, `12g`.
    pub label: String,
    /// Canonical notation: capture tokens included, setups sorted by square.
    pub notation: String,
}

/// A game and its history. Equality compares everything, so tests can
/// check that a refused move left the game exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pos: Position,
    phase: Phase,
    move_number: u32,
    counts: History,
    record: Vec<Played>,
    outcome: Option<Outcome>,
    allow_handicap: bool,
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

impl Game {
    /// A new game: empty board, gold to set up.
    pub fn new() -> Game {
        Game {
            pos: Position::empty(Color::Gold),
            phase: Phase::Setup(Color::Gold),
            move_number: 1,
            counts: History::new(),
            record: Vec::new(),
            outcome: None,
            allow_handicap: false,
        }
    }

    /// A game continuing from `pos` (AEI `setposition`). A side with no
    /// pieces on the board is taken to be still setting up, so a position
    /// with only gold's setup has silver set up next.
    pub fn from_position(pos: Position, move_number: u32) -> Game {
        let side = pos.side();
        let mut g = Game::new();
        g.move_number = move_number.max(1);
        let empty_side = |c: Color| pos.occupied_by(c).is_empty();
        g.phase = if empty_side(Color::Gold) && empty_side(Color::Silver) {
            Phase::Setup(Color::Gold)
        } else if side == Color::Silver && empty_side(Color::Silver) {
            Phase::Setup(Color::Silver)
        } else {
            Phase::Play
        };
        g.pos = pos;
        if g.phase == Phase::Play {
            g.counts.insert(g.pos.hash(), 1);
            g.outcome = g.compute_outcome();
        }
        g
    }

    /// Accept handicap setups (fewer than 16 pieces) from now on: a
    /// controller may send them; the engine never makes one.
    pub fn set_allow_handicap(&mut self, allow: bool) {
        self.allow_handicap = allow;
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The side to move or set up.
    pub fn side(&self) -> Color {
        match self.phase {
            Phase::Setup(c) => c,
            Phase::Play => self.pos.side(),
        }
    }

    /// The rules' verdict on the finished game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The moves so far.
    pub fn record(&self) -> &[Played] {
        &self.record
    }

    /// How often the position with this hash (board and side to move) has
    /// stood at a turn start.
    pub fn occurrences(&self, hash: u64) -> u8 {
        self.counts.get(&hash).copied().unwrap_or(0)
    }

    /// The turn-start occurrence counts, for the search's repetition checks.
    pub fn history(&self) -> &History {
        &self.counts
    }

    /// The current record label, `12g`.
    pub fn label(&self) -> String {
        format!("{}{}", self.move_number, self.side().to_char())
    }

    /// Every legal turn now, third repetitions excluded.
    pub fn legal_turns(&self) -> Vec<Turn> {
        if self.phase != Phase::Play || self.outcome.is_some() {
            return Vec::new();
        }
        generate_turns(&self.pos, |h| self.occurrences(h) >= 2)
    }

    /// Checks and plays a setup or a move given in notation. On error the
    /// game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<Played, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::Whole(IllegalReason::GameOver));
        }
        let parsed = parse_move(text)?;
        let label = self.label();
        match self.phase {
            Phase::Setup(color) => {
                let (next, placed) = check_setup(&self.pos, color, &parsed, self.allow_handicap)?;
                self.pos = next;
                let played = Played {
                    label,
                    notation: format_setup(&placed),
                };
                if color == Color::Gold {
                    self.phase = Phase::Setup(Color::Silver);
                } else {
                    self.phase = Phase::Play;
                    self.move_number += 1;
                    *self.counts.entry(self.pos.hash()).or_insert(0) += 1;
                    self.outcome = self.compute_outcome();
                }
                self.record.push(played.clone());
                Ok(played)
            }
            Phase::Play => {
                if parsed.is_setup() {
                    return Err(MoveError::Whole(IllegalReason::PlacementDuringPlay));
                }
                let turn = check_move(&self.pos, &parsed)?;
                if self.occurrences(turn.end.hash()) >= 2 {
                    return Err(MoveError::Whole(IllegalReason::ThirdRepetition));
                }
                let mover = self.pos.side();
                self.pos = turn.end;
                *self.counts.entry(self.pos.hash()).or_insert(0) += 1;
                if mover == Color::Silver {
                    self.move_number += 1;
                }
                let played = Played {
                    label,
                    notation: turn.notation,
                };
                self.record.push(played.clone());
                self.outcome = self.compute_outcome();
                Ok(played)
            }
        }
    }

    /// The end-of-turn rules on the current position, with immobilisation
    /// that counts "every turn would be a third repetition".
    fn compute_outcome(&self) -> Option<Outcome> {
        self.pos.outcome_with(|p| {
            if !p.has_any_step() {
                return true;
            }
            // Only generate every turn when some position has already
            // occurred twice: otherwise no turn can be a third repetition.
            if !self.counts.values().any(|&n| n >= 2) {
                return false;
            }
            generate_turns(p, |h| self.occurrences(h) >= 2).is_empty()
        })
    }
}
