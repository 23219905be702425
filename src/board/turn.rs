//! One turn as the engine handles it: the actions (single steps, whole
//! pushes and pulls) that play it, and the hash of the position it leaves.
//!
//! This is the typed form that flows from the generator through the search
//! to the protocol; notation is only written at the edges
//! ([`Turn::notation`], [`pv_notation`]) and read at the edges
//! ([`Game::play`](super::Game::play) takes text). A turn is only
//! meaningful from the position it was made for:
//! [`Game::play_turn`](super::Game::play_turn) checks it against the rules.

use super::bitboard::Bitboard;
use super::error::MoveError;
use super::notation::format_steps;
use super::position::{Position, STEPS_PER_TURN};
use super::stepgen::{Action, ActionList, Step, generate_actions};
use super::zobrist;

/// A legal turn: the actions that play it and the hash of the position it
/// leaves, with the other side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub actions: TurnActions,
    pub hash: u64,
}

/// The actions of one turn, held inline: every action takes at least one
/// of the turn's four steps, so there are at most four. Root lists hold
/// tens of thousands of turns; with one heap block each, `malloc` and
/// `free` took about 8% of `aamir gen`'s time (perf).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TurnActions {
    /// The actions in playing order, then `Action::NONE` in every unused
    /// slot (so the derived equality compares only the actions).
    items: [Action; STEPS_PER_TURN as usize],
    len: u8,
}

impl TurnActions {
    /// `None` when there are more actions than a turn can hold.
    pub fn from_slice(actions: &[Action]) -> Option<TurnActions> {
        let mut t = TurnActions::default();
        for &a in actions {
            t.push(a)?;
        }
        Some(t)
    }

    /// Appends an action; `None` (and no change) when the turn is full.
    pub fn push(&mut self, a: Action) -> Option<()> {
        let slot = self.items.get_mut(self.len as usize)?;
        *slot = a;
        self.len += 1;
        Some(())
    }
}

impl std::ops::Deref for TurnActions {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        &self.items[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a TurnActions {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for TurnActions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Turn {
    /// The turn of `actions` played from `pos`, with the hash it leaves;
    /// `None` unless each action is one the generator makes at its point
    /// (so a stale or foreign action list is refused, never played).
    pub fn from_actions(pos: &Position, actions: Vec<Action>) -> Option<Turn> {
        let actions = TurnActions::from_slice(&actions)?;
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

    /// The turn that plays exactly `steps` from `pos` (a turn the rules
    /// checker accepted, read from notation), written as the generator's
    /// actions; `None` when no sequence of generated actions plays them.
    /// Steps that read as either a pull or a single step and a push give
    /// the first reading in generation order, so one list of steps always
    /// gives one turn.
    pub fn from_steps(pos: &Position, steps: &[Step]) -> Option<Turn> {
        fn cover(p: &Position, steps: &[Step], out: &mut TurnActions) -> bool {
            if steps.is_empty() {
                return true;
            }
            let mut list = ActionList::new();
            generate_actions(p, &mut list);
            for &a in list.as_slice() {
                let n = a.cost() as usize;
                if n > steps.len() || !a.steps().eq(steps[..n].iter().copied()) {
                    continue;
                }
                let mut next = p.clone();
                next.apply_action(a);
                let before = *out;
                if out.push(a).is_some() && cover(&next, &steps[n..], out) {
                    return true;
                }
                *out = before;
            }
            false
        }
        let mut actions = TurnActions::default();
        if !cover(pos, steps, &mut actions) {
            return None;
        }
        let mut p = pos.clone();
        for &a in &actions {
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

    /// Every square a step of the turn leaves or enters (captures add
    /// none: a captured piece leaves from a square a step entered).
    pub fn squares(&self) -> Bitboard {
        self.actions
            .iter()
            .fold(Bitboard::EMPTY, |b, a| b | a.squares())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use crate::board::{Game, Square};

    /// Gold to move: an elephant on e2, a silver dog on d7 next to the
    /// empty trap c6, a rabbit in a corner each.
    fn game() -> Game {
        let rows = [
            "r       ", "   d    ", "        ", "        ", "        ", "        ", "    E   ",
            "R       ",
        ];
        Game::from_position(
            parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap(),
            2,
        )
    }

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, s| {
            b | Bitboard::from_square(Square::parse(s).unwrap())
        })
    }

    #[test]
    fn from_steps_gives_the_turn_the_game_plays() {
        let g = game();
        for t in g.legal_turns().iter().step_by(13) {
            let u = Turn::from_steps(g.position(), &t.steps()).expect("a generated turn");
            assert_eq!(u.steps(), t.steps());
            assert_eq!(u.hash, t.hash);
        }
        let stray = [Step::new(
            Square::parse("d4").unwrap(),
            Square::parse("d5").unwrap(),
        )];
        assert_eq!(Turn::from_steps(g.position(), &stray), None);
    }

    #[test]
    fn squares_are_the_steps_ends_and_skip_captures() {
        let mut g = game();
        g.play("Ee2n Ee3n Ee4n Ee5n").unwrap();
        // Silver's dog steps onto the trap c6 and is lost there.
        let played = g.play("dd7w dc7s dc6x").unwrap();
        let t = played.mv.turn().expect("a turn");
        assert_eq!(t.squares(), squares(&["d7", "c7", "c6"]));
        assert_eq!(t.squares().count(), 3);
    }
}
