//! One turn as the engine handles it: the actions (single steps, whole
//! pushes and pulls) that play it, and the hash of the position it leaves.
//!
//! This is the typed form that flows from the generator through the search
//! to the protocol; notation is only written at the edges
//! ([`Turn::notation`], [`pv_notation`]) and read at the edges
//! ([`Game::play`](super::Game::play) takes text). A turn is only
//! meaningful from the position it was made for:
//! [`Game::play_turn`](super::Game::play_turn) checks it against the rules.

use super::error::MoveError;
use super::notation::format_steps;
use super::position::Position;
use super::stepgen::{Action, ActionList, Step, generate_actions};
use super::zobrist;

/// A legal turn: the actions that play it and the hash of the position it
/// leaves, with the other side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub actions: Vec<Action>,
    pub hash: u64,
}

impl Turn {
    /// The turn of `actions` played from `pos`, with the hash it leaves;
    /// `None` unless each action is one the generator makes at its point
    /// (so a stale or foreign action list is refused, never played).
    pub fn from_actions(pos: &Position, actions: Vec<Action>) -> Option<Turn> {
        let mut p = pos.clone();
        let mut list = ActionList::new();
        for &a in &actions {
            list.clear();
            generate_actions(&p, &mut list);
            if !list.as_slice().contains(&a) {
                return None;
            }
            p.apply_action(a);
        }
        Some(Turn {
            actions,
            hash: p.hash() ^ zobrist::SIDE,
        })
    }

    /// The turn as single steps, in playing order.
    pub fn steps(&self) -> Vec<Step> {
        self.actions.iter().flat_map(|a| a.steps()).collect()
    }

    /// Plays the turn on `pos` (which it was generated for) and passes.
    pub fn apply(&self, pos: &Position) -> Position {
        let mut p = pos.clone();
        for &a in &self.actions {
            p.apply_action(a);
        }
        p.pass_turn();
        p
    }

    /// The turn in AEI / record notation as played from `pos`, with
    /// capture tokens. Fails only when a step does not start on a piece,
    /// i.e. the turn was made for another position.
    pub fn notation(&self, pos: &Position) -> Result<String, MoveError> {
        format_steps(pos, &self.steps())
    }
}

/// A line of turns from `start` in AEI PV form: the first turn bare, later
/// turns prefixed by their side (`Ed2n Ed3n s ee7s ee6s g Ed4n`).
pub fn pv_notation(start: &Position, pv: &[Turn]) -> Result<String, MoveError> {
    let steps: Vec<Vec<Step>> = pv.iter().map(Turn::steps).collect();
    super::notation::format_pv(start, &steps)
}
