//! A game from setup to end: whose turn it is, the history that repetition
//! is judged against, the record so far, and the rules' verdict after each
//! turn. Every move is checked before it touches the state, so an illegal
//! one leaves the game exactly as it was: a move in notation
//! ([`Game::play`], for the edges: controllers, records, the command line)
//! and a typed [`Turn`] ([`Game::play_turn`], for the engine's own turns)
//! go through the same step-by-step rules check.

use super::error::{IllegalReason, MoveError};
use super::legality::{CheckedTurn, check_move, check_setup, check_steps};
use super::notation::parse_move;
use super::position::{Outcome, Position};
use super::setup::Setup;
use super::turn::Turn;
use super::turngen::{History, generate_turns, has_turn};
use super::types::Color;

/// Where the game stands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Phase {
    /// `color` places its pieces next.
    Setup(Color),
    /// Turns of steps.
    Play,
}

/// A move in its typed form: a setup, or a turn of steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Setup(Setup),
    Turn(Turn),
}

impl Move {
    /// The turn, unless this is a setup.
    pub fn turn(&self) -> Option<&Turn> {
        match self {
            Move::Turn(t) => Some(t),
            Move::Setup(_) => None,
        }
    }
}

/// A move the game accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Record label, `12g`.
    pub label: String,
    /// Canonical notation: capture tokens included, setups sorted by square.
    pub notation: String,
    /// The move as the rules read it, so that no reader parses the
    /// notation again.
    pub mv: Move,
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
            counts: History::default(),
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

    /// Whether some turn-start position has stood twice: until one has, no
    /// turn can be a third repetition.
    fn any_position_twice(&self) -> bool {
        self.counts.values().any(|&n| n >= 2)
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
        // Until then the tens of thousands of lookups are skipped.
        let any_twice = self.any_position_twice();
        generate_turns(&self.pos, |h| any_twice && self.occurrences(h) >= 2)
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
                let setup = Setup::new(color, placed);
                let played = Played {
                    label,
                    notation: setup.notation(),
                    mv: Move::Setup(setup),
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
                self.commit_turn(turn)
            }
        }
    }

    /// Checks and plays a typed turn (one the generator or the search
    /// made). It is checked against the rules like a written move, which
    /// costs next to nothing (at most four steps), so a turn made for
    /// another position is refused with a reason rather than corrupting
    /// the game. On error the game is unchanged.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<Played, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::Whole(IllegalReason::GameOver));
        }
        if self.phase != Phase::Play {
            return Err(MoveError::Whole(IllegalReason::StepsDuringSetup));
        }
        let checked = check_steps(&self.pos, &turn.steps())?;
        self.commit_turn(checked)
    }

    /// Plays a turn the rules accepted, unless it repeats a position a
    /// third time.
    fn commit_turn(&mut self, turn: CheckedTurn) -> Result<Played, MoveError> {
        if self.occurrences(turn.end.hash()) >= 2 {
            return Err(MoveError::Whole(IllegalReason::ThirdRepetition));
        }
        // The checker and the generator agree on every turn (the legality
        // tests hold them to it); a disagreement is refused, not played.
        let typed = Turn::from_steps(&self.pos, &turn.steps)
            .ok_or(MoveError::Whole(IllegalReason::NotGenerated))?;
        let label = self.label();
        let mover = self.pos.side();
        self.pos = turn.end;
        *self.counts.entry(self.pos.hash()).or_insert(0) += 1;
        if mover == Color::Silver {
            self.move_number += 1;
        }
        let played = Played {
            label,
            notation: turn.notation,
            mv: Move::Turn(typed),
        };
        self.record.push(played.clone());
        self.outcome = self.compute_outcome();
        Ok(played)
    }

    /// The end-of-turn rules on the current position, with immobilisation
    /// that counts "every turn would be a third repetition".
    fn compute_outcome(&self) -> Option<Outcome> {
        self.pos.outcome_with(|p| {
            if !p.has_any_step() {
                return true;
            }
            // Only look for a turn that is not a third repetition when
            // some position has already occurred twice.
            if !self.any_position_twice() {
                return false;
            }
            !has_turn(p, |h| self.occurrences(h) >= 2)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::stepgen::Action;
    use crate::board::turn::TurnActions;
    use crate::board::types::Square;

    fn opening() -> Game {
        Game::from_position(Position::standard_opening(), 2)
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn play_turn_matches_play_in_notation() {
        let game = opening();
        for t in game.legal_turns().iter().step_by(97) {
            let text = t.notation(game.position()).unwrap();
            let (mut by_text, mut typed) = (game.clone(), game.clone());
            let a = by_text.play(&text).unwrap();
            let b = typed.play_turn(t).unwrap();
            assert_eq!(a, b);
            assert_eq!(by_text, typed);
        }
    }

    #[test]
    fn play_turn_refuses_a_turn_for_another_position() {
        let game = opening();
        // A rabbit step from a square that is empty at the opening.
        let stray = Turn {
            actions: TurnActions::from_slice(&[Action::single(sq("d4"), sq("d5"))]).unwrap(),
            hash: 0,
        };
        assert_eq!(
            Turn::from_actions(game.position(), stray.actions.to_vec()),
            None
        );
        let mut g = game.clone();
        let err = g.play_turn(&stray).unwrap_err();
        assert!(err.to_string().contains("d4"), "{err}");
        assert_eq!(g, game, "a refused turn changes nothing");
        // Silver's turn offered to gold: the piece is not gold's.
        let silver = Game::from_position(
            {
                let mut p = Position::standard_opening();
                p.pass_turn();
                p
            },
            2,
        );
        let theirs = silver.legal_turns().into_iter().next().unwrap();
        assert!(g.clone().play_turn(&theirs).is_err());
        // During the setup no turn is accepted.
        let t = game.legal_turns().into_iter().next().unwrap();
        let err = Game::new().play_turn(&t).unwrap_err();
        assert_eq!(err, MoveError::Whole(IllegalReason::StepsDuringSetup));
    }
}
