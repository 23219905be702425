//! Horizon pruning of needless turns, Sharp's kind: at a turn start inside
//! the tree the side to move looks back at the turn its opponent just made
//! and fails it (the node returns beta, so the opponent's turn fails low)
//! when that turn was wasted:
//!
//! - **Undoable** (`undo_prune`): nothing was taken, and the side to move
//!   can put the board back as that turn found it within two steps. The
//!   opponent then gave away a turn and two steps besides; such turns are
//!   the bulk of the quiet tree (shuffles whose steps cancel or that the
//!   reply pushes back), and one of them near the horizon can hide a threat
//!   for a turn.
//! - **Free capture** (`freecap_prune`): near the horizon, nothing was
//!   taken, the turn spent all its steps but at most one on one piece, and
//!   the side to move can now take that piece. The search would otherwise
//!   see the piece's walk and not its loss when the horizon falls between.
//!
//! Both look only at the steps of the last turn ([`TurnSteps`], kept in
//! the node context) and at the board: exact about what they claim, a
//! heuristic in what they conclude (a turn that looks wasted can still be
//! the only way out of a bind), which is why each is switchable.

use super::Worker;
use crate::board::stepgen::{ActionList, generate_actions};
use crate::board::{Action, Bitboard, Position, Square, zobrist};
use crate::tactics::capture;
use crate::tactics::threats::manhattan;

/// The steps of one turn (its own and the pieces it pushed or pulled) in
/// the order made, and how many pieces were on the board when it began.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct TurnSteps {
    /// (from, to) square indices.
    steps: [(u8, u8); 4],
    len: u8,
    /// Pieces on the board at the turn's start: fewer now means a capture.
    pieces: u8,
}

impl TurnSteps {
    /// A turn about to begin on `pos`.
    #[inline]
    pub fn begin(pos: &Position) -> TurnSteps {
        TurnSteps {
            pieces: pos.occupied().count() as u8,
            ..TurnSteps::default()
        }
    }

    /// No step recorded: the root's turn, or a turn given away by the null
    /// move, about which nothing is claimed.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// This turn with the steps of `a` added.
    #[inline]
    pub fn with(mut self, a: Action) -> TurnSteps {
        for s in a.steps() {
            if (self.len as usize) < self.steps.len() {
                self.steps[self.len as usize] = (s.from.raw(), s.to.raw());
                self.len += 1;
            }
        }
        self
    }

    /// Where each piece the turn moved came from and where it stands now,
    /// pieces back on their own square left out, with the number of steps
    /// spent on each; `None` when something was taken (`pos` is the board
    /// after the turn).
    fn net_moves(&self, pos: &Position) -> Option<NetMoves> {
        if pos.occupied().count() as u8 != self.pieces {
            return None;
        }
        let mut net = NetMoves::default();
        for &(from, to) in &self.steps[..self.len as usize] {
            match net.moves[..net.len].iter().position(|m| m.now == from) {
                Some(i) => {
                    net.moves[i].now = to;
                    net.moves[i].steps += 1;
                }
                None => {
                    net.moves[net.len] = NetMove {
                        was: from,
                        now: to,
                        steps: 1,
                    };
                    net.len += 1;
                }
            }
        }
        Some(net)
    }
}

/// One piece's journey in a turn.
#[derive(Copy, Clone, Default)]
struct NetMove {
    was: u8,
    now: u8,
    steps: u8,
}

/// Every piece's journey in a turn (at most four pieces move in one).
#[derive(Copy, Clone, Default)]
struct NetMoves {
    moves: [NetMove; 4],
    len: usize,
}

impl NetMoves {
    fn iter(&self) -> impl Iterator<Item = &NetMove> {
        self.moves[..self.len].iter()
    }
}

impl Worker<'_> {
    /// Whether the opponent's last turn `last`, begun on the board hashed
    /// `last_start` (opponent to move), should fail at this turn start of
    /// `pos` with `depth` steps left (see the module doc).
    pub(super) fn needless_last_turn(
        &mut self,
        pos: &mut Position,
        last: &TurnSteps,
        last_start: u64,
        depth: i32,
    ) -> bool {
        let undo = self.params.undo_prune;
        let freecap = self.params.freecap_prune > 0 && depth <= self.params.freecap_prune;
        if last.is_empty() || !(undo || freecap) {
            return false;
        }
        let Some(net) = last.net_moves(pos) else {
            return false;
        };
        (undo && undoable(pos, &net, last_start)) || (freecap && freely_taken(pos, last, &net))
    }
}

/// Whether the side to move of the turn-start `pos` can bring back the
/// board of `start` (the hash of the previous turn's start, the other side
/// to move) within two steps, the previous turn's journeys being `net`.
fn undoable(pos: &mut Position, net: &NetMoves, start: u64) -> bool {
    let moved: u32 = net
        .iter()
        .map(|m| u32::from(manhattan(Square::new(m.was), Square::new(m.now))))
        .sum();
    // Every step moves one piece one square: more than two squares of
    // journeys cannot be walked back in two steps.
    if moved == 0 || moved > 2 {
        return false;
    }
    // The side to move moves its own pieces, and a push or pull moves one
    // of them too: unless the turn displaced one of its pieces, walking
    // back would leave one displaced.
    let me = pos.side();
    if !net.iter().any(|m| {
        m.was != m.now
            && pos
                .piece_at(Square::new(m.now))
                .is_some_and(|p| p.color() == me)
    }) {
        return false;
    }
    let mut changed = Bitboard::EMPTY;
    for m in net.iter() {
        changed |=
            Bitboard::from_square(Square::new(m.was)) | Bitboard::from_square(Square::new(m.now));
    }
    // The same board with the side to move the other one.
    let target = start ^ zobrist::SIDE;
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    for &a in list.as_slice() {
        if a.cost() > 2 || (a.squares() & changed).is_empty() {
            continue;
        }
        if pos.hash_after_action(a) == target {
            return true;
        }
        if a.cost() == 1 && moved == 2 {
            let undo = pos.make_action(a);
            let mut next = ActionList::new();
            generate_actions(pos, &mut next);
            let found = next.as_slice().iter().any(|&b| {
                b.cost() == 1 && (b.squares() & changed).any() && pos.hash_after_action(b) == target
            });
            pos.unmake_action(undo);
            if found {
                return true;
            }
        }
    }
    false
}

/// Whether the previous turn `last` spent all its steps but at most one on
/// one of its own pieces, which the side to move of `pos` can now take.
fn freely_taken(pos: &Position, last: &TurnSteps, net: &NetMoves) -> bool {
    let me = pos.side();
    let total = last.len;
    let Some(walker) = net.iter().find(|m| {
        m.steps + 1 >= total
            && m.was != m.now
            && pos
                .piece_at(Square::new(m.now))
                .is_some_and(|p| p.color() == me.opp())
    }) else {
        return false;
    };
    capture::capture_threats(pos, me, crate::board::STEPS_PER_TURN)
        .squares()
        .contains(Square::new(walker.now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use crate::board::turngen::History;
    use crate::eval::Evaluator;
    use crate::search::params::Params;
    use crate::search::tt::TranspositionTable;
    use crate::settings::Table;
    use std::sync::atomic::AtomicBool;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn board(side: char, rows: [&str; 8]) -> Position {
        parse_side_and_board(&format!("{side} [{}]", rows.concat())).unwrap()
    }

    /// Plays `turn` on the turn start `start`, ends the turn, and asks a
    /// worker with `params` whether the turn was needless at a turn start
    /// `depth` steps from the horizon.
    fn judged(start: &Position, turn: &[Action], params: &Params, depth: i32) -> bool {
        let (mut pos, steps) = played(start, turn);
        pos.pass_turn();
        let tt = TranspositionTable::new(1);
        let eval = Evaluator::default();
        let history = History::default();
        let stop = AtomicBool::new(false);
        let mut w = Worker::new(&tt, &eval, params, &history, &stop, None, None);
        let before = pos.clone();
        let r = w.needless_last_turn(&mut pos, &steps, start.hash(), depth);
        assert_eq!(pos, before, "the check left the position changed");
        r
    }

    /// `turn` played on `start` (the turn not ended), and its steps.
    fn played(start: &Position, turn: &[Action]) -> (Position, TurnSteps) {
        let mut pos = start.clone();
        let mut steps = TurnSteps::begin(&pos);
        for &a in turn {
            pos.make_action(a);
            steps = steps.with(a);
        }
        (pos, steps)
    }

    fn with(spec: &str) -> Params {
        let mut p = Params::default();
        crate::settings::apply(spec, |n, v| p.set_named(n, v)).unwrap();
        p
    }

    /// Gold's elephant pushes the silver rabbit on d5 up to d6 and steps
    /// back: only the rabbit moved, and it may step back down unless a
    /// gold piece beside it freezes it.
    #[test]
    fn a_turn_the_reply_walks_back_in_two_steps_is_needless() {
        let rows = |e6: &str| {
            [
                "rrrrrrr ",
                "        ",
                if e6 == "C" { "    C   " } else { "        " },
                "   r    ",
                "   E    ",
                "        ",
                "        ",
                "RRRRRRRR",
            ]
        };
        let turn = [
            Action::push(sq("d4"), sq("d5"), sq("d6")),
            Action::single(sq("d5"), sq("d4")),
        ];
        let on = with("undo_prune=1");
        let free = board('g', rows(""));
        assert!(judged(&free, &turn, &on, 8));
        assert!(!judged(&free, &turn, &with("undo_prune=0"), 8));
        // A gold cat on e6 freezes the rabbit where it now stands.
        let frozen = board('g', rows("C"));
        assert!(!judged(&frozen, &turn, &on, 8));
        // A turn that moves gold's own pieces cannot be walked back by
        // silver, which moves only its own (and pushes or pulls).
        let own = [
            Action::single(sq("a1"), sq("a2")),
            Action::single(sq("b1"), sq("b2")),
        ];
        assert!(!judged(&free, &own, &on, 8));
    }

    /// Gold's horse walks four steps to d6, where silver's elephant on e6
    /// pushes it onto the unguarded c6 trap.
    #[test]
    fn a_walk_into_a_free_capture_near_the_horizon_is_needless() {
        // Silver's `piece` on e6 beside the horse's way.
        let beside = |piece: &'static str| {
            board(
                'g',
                [
                    "r r r  r", "        ", piece, "        ", "        ", "        ", "   H    ",
                    "R      R",
                ],
            )
        };
        let start = beside("    e   ");
        let walk = [
            Action::single(sq("d2"), sq("d3")),
            Action::single(sq("d3"), sq("d4")),
            Action::single(sq("d4"), sq("d5")),
            Action::single(sq("d5"), sq("d6")),
        ];
        let on = with("freecap_prune=4");
        assert!(judged(&start, &walk, &on, 4));
        // Far from the horizon, or with the option off, the turn stands.
        assert!(!judged(&start, &walk, &on, 5));
        assert!(!judged(&start, &walk, &with("freecap_prune=0"), 4));
        // Two steps of the horse and two of a rabbit: not spent on the
        // horse alone.
        let split = [
            Action::single(sq("d4"), sq("d5")),
            Action::single(sq("d5"), sq("d6")),
            Action::single(sq("a1"), sq("a2")),
            Action::single(sq("a2"), sq("a3")),
        ];
        let mut nearer = start.clone();
        nearer.make_action(Action::single(sq("d2"), sq("d3")));
        nearer.make_action(Action::single(sq("d3"), sq("d4")));
        nearer.pass_turn();
        nearer.pass_turn();
        assert!(!judged(&nearer, &split, &on, 4));
        // The same walk beside a silver dog, which cannot push a horse.
        assert!(!judged(&beside("    d   "), &walk, &on, 4));
    }

    #[test]
    fn net_moves_follow_each_piece_and_see_captures() {
        let start = board(
            'g',
            [
                "rrrrrrr ", "        ", "        ", "   r    ", "   E    ", "        ", "        ",
                "RRRRRRRR",
            ],
        );
        let (pos, t) = played(
            &start,
            &[
                Action::push(sq("d4"), sq("d5"), sq("d6")),
                Action::single(sq("d5"), sq("e5")),
                Action::single(sq("e5"), sq("e4")),
            ],
        );
        let net = t.net_moves(&pos).unwrap();
        let mut moves: Vec<_> = net.iter().map(|m| (m.was, m.now, m.steps)).collect();
        moves.sort();
        let r = |s: &str| sq(s).raw();
        let mut want = vec![(r("d5"), r("d6"), 1), (r("d4"), r("e4"), 3)];
        want.sort();
        assert_eq!(moves, want);
        // A rabbit stepped onto the empty c3 trap is gone: no claim made.
        let (pos, t) = played(
            &start,
            &[
                Action::single(sq("c1"), sq("c2")),
                Action::single(sq("c2"), sq("c3")),
            ],
        );
        assert!(t.net_moves(&pos).is_none());
    }
}
