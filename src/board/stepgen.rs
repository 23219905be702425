//! Steps and actions, and their generation for the side to move.
//!
//! An *action* is what the search and the turn generator branch on: a single
//! step (cost 1) or a whole push or pull (cost 2). Treating a push or pull
//! as one unit means no position ever has a half-done push pending, which
//! keeps the position small and the search simple; every legal turn is a
//! sequence of such actions.

use super::bitboard::{Bitboard, NEAR_TRAP, NO_TRAP, adjacent, behind};
use super::position::{Capture, Position};
use super::types::{Color, Dir, Kind, Square};
use super::zobrist;
use std::fmt;

/// One piece moving to an adjacent square. Which piece it is follows from
/// the position it is played in.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    pub from: Square,
    pub to: Square,
}

impl Step {
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Step {
        Step { from, to }
    }

    pub fn dir(self) -> Dir {
        self.from
            .dir_to(self.to)
            .expect("a step joins adjacent squares")
    }
}

/// What an action is, for ordering and notation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ActionKind {
    Single,
    Push,
    Pull,
}

/// A single step, or a push or pull as its two steps in playing order,
/// packed into 32 bits so tables and killer slots can hold it:
/// bits 0-5 first from, 6-11 first to, 12-17 second from, 18-23 second to,
/// 24-25 the kind (0 single, 1 push, 2 pull). The value 0 is never a legal
/// action (a1 to a1), so it serves as "none".
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Action(u32);

impl Action {
    pub const NONE: Action = Action(0);

    #[inline(always)]
    pub const fn single(from: Square, to: Square) -> Action {
        Action(from.raw() as u32 | (to.raw() as u32) << 6)
    }

    /// The victim steps `victim -> dest`, then the pusher `pusher -> victim`.
    #[inline(always)]
    pub const fn push(pusher: Square, victim: Square, dest: Square) -> Action {
        Action(
            victim.raw() as u32
                | (dest.raw() as u32) << 6
                | (pusher.raw() as u32) << 12
                | (victim.raw() as u32) << 18
                | 1 << 24,
        )
    }

    /// The puller steps `puller -> dest`, then the victim `victim -> puller`.
    #[inline(always)]
    pub const fn pull(puller: Square, dest: Square, victim: Square) -> Action {
        Action(
            puller.raw() as u32
                | (dest.raw() as u32) << 6
                | (victim.raw() as u32) << 12
                | (puller.raw() as u32) << 18
                | 2 << 24,
        )
    }

    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Action {
        Action(raw)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub fn kind(self) -> ActionKind {
        match self.0 >> 24 {
            0 => ActionKind::Single,
            1 => ActionKind::Push,
            _ => ActionKind::Pull,
        }
    }

    /// Steps this action uses: 1 or 2.
    #[inline(always)]
    pub const fn cost(self) -> u8 {
        if self.0 >> 24 == 0 { 1 } else { 2 }
    }

    #[inline(always)]
    pub const fn first(self) -> Step {
        Step::new(
            Square::new((self.0 & 63) as u8),
            Square::new((self.0 >> 6 & 63) as u8),
        )
    }

    #[inline(always)]
    pub const fn second(self) -> Option<Step> {
        if self.0 >> 24 == 0 {
            None
        } else {
            Some(Step::new(
                Square::new((self.0 >> 12 & 63) as u8),
                Square::new((self.0 >> 18 & 63) as u8),
            ))
        }
    }

    /// The friendly piece's origin: the square the side to move moves from.
    #[inline(always)]
    pub fn mover_from(self) -> Square {
        match self.kind() {
            ActionKind::Push => Square::new((self.0 >> 12 & 63) as u8),
            _ => Square::new((self.0 & 63) as u8),
        }
    }

    /// The steps in order.
    pub fn steps(self) -> impl Iterator<Item = Step> {
        std::iter::once(self.first()).chain(self.second())
    }

    /// Every square a step of this action leaves or enters.
    #[inline]
    pub fn squares(self) -> Bitboard {
        self.steps().fold(Bitboard::EMPTY, |b, st| {
            b | Bitboard::from_square(st.from) | Bitboard::from_square(st.to)
        })
    }

    /// What [`Footprint::commutes_with`] needs of `self`, computed once
    /// for testing many actions against it.
    #[inline]
    pub fn footprint(self) -> Footprint {
        let squares = self.squares();
        Footprint {
            squares,
            reach: reach(squares),
        }
    }
}

/// An action's squares and the squares it can change or depend on.
#[derive(Copy, Clone, Debug)]
pub struct Footprint {
    squares: Bitboard,
    reach: Bitboard,
}

impl Footprint {
    /// Whether playing the action this came from then `other` in one
    /// turn, or `other` then it, are both legal when either is and reach
    /// the same position. Conservative: true only when neither touches a
    /// square the other could change or depend on (its squares, their
    /// neighbours, and each trap near them with the trap's neighbours).
    /// Then neither changes what the other moves, whether its mover is
    /// frozen, whether its destination is free, or which pieces a trap
    /// takes (a trap's verdict depends only on its square and its
    /// neighbours).
    #[inline]
    pub fn commutes_with(&self, other: Action) -> bool {
        let b = other.squares();
        (b & self.reach).is_empty() && (self.squares & reach(b)).is_empty()
    }
}

/// The squares whose contents an action touching `t` can change or depend
/// on: `t`, its neighbours, and each trap near `t` with its neighbours.
#[inline]
fn reach(t: Bitboard) -> Bitboard {
    let mut r = t | t.neighbors();
    for trap in Bitboard::TRAPS & r {
        r |= Bitboard::from_square(trap) | adjacent(trap);
    }
    r
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for s in self.steps() {
            write!(f, "{sep}{}{}", s.from, s.dir().to_char())?;
            sep = " ";
        }
        Ok(())
    }
}

/// Upper bound on actions in a position: at most 64 single steps (16 pieces,
/// 4 directions), and pushes and pulls are each bounded by 16 pieces times
/// the best split of 4 neighbours into victims and empty squares (2 x 2).
pub const MAX_ACTIONS: usize = 192;

/// A fixed-capacity list of actions, on the stack.
pub struct ActionList {
    items: [Action; MAX_ACTIONS],
    len: usize,
}

impl Default for ActionList {
    fn default() -> Self {
        Self::new()
    }
}

impl ActionList {
    #[inline(always)]
    pub fn new() -> ActionList {
        ActionList {
            items: [Action::NONE; MAX_ACTIONS],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, a: Action) {
        // The bound in `MAX_ACTIONS` makes overflow impossible; indexing
        // still checks it.
        self.items[self.len] = a;
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the actions `keep` accepts, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Action) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(&self.items[i]) {
                self.items[n] = self.items[i];
                n += 1;
            }
        }
        self.len = n;
    }

    /// Keeps only the actions `keep` accepts, or all of them when it
    /// accepts none. One pass: `retain` writes only accepted actions, so
    /// when it accepts none the items are untouched and the old length
    /// brings them back.
    pub fn retain_if_any(&mut self, keep: impl FnMut(&Action) -> bool) {
        let len = self.len;
        self.retain(keep);
        if self.len == 0 {
            self.len = len;
        }
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Action] {
        &mut self.items[..self.len]
    }
}

/// The side to move's pieces that may move, per kind (not frozen).
#[inline(always)]
pub fn mobile_by_kind(pos: &Position, color: Color) -> [Bitboard; 6] {
    let own = pos.occupied_by(color);
    let own_nb = own.neighbors();
    let mut stronger = pos.occupied_by(color.opp());
    let mut out = [Bitboard::EMPTY; 6];
    for k in Kind::ALL {
        stronger = stronger.and_not(pos.kind_bb(color.opp(), k));
        out[k.index()] = pos.kind_bb(color, k) & (own_nb | !stronger.neighbors());
    }
    out
}

/// Appends every action of the side to move that fits in its steps left:
/// single steps, and pushes and pulls when two steps remain.
pub fn generate_actions(pos: &Position, list: &mut ActionList) {
    generate_actions_of(pos, Bitboard::ALL, list);
}

/// [`generate_actions`] for the pieces standing on `movers` only, in the
/// same order: the tactical detectors, which play only actions of a few
/// pieces, skip generating the rest.
#[inline]
pub fn generate_actions_of(pos: &Position, movers: Bitboard, list: &mut ActionList) {
    let c = pos.side();
    let steps = pos.steps_left();
    if steps == 0 {
        return;
    }
    let empty = pos.empty_squares();
    let mut mobile = mobile_by_kind(pos, c);
    for m in &mut mobile {
        *m &= movers;
    }
    let two = steps >= 2;
    let mut weaker = Bitboard::EMPTY;
    for k in Kind::ALL {
        let movers = mobile[k.index()];
        if k == Kind::Rabbit {
            // Rabbits never push or pull (nothing is weaker) and never step
            // backward by themselves.
            for sq in movers {
                for to in adjacent(sq) & empty & !behind(c, sq) {
                    list.push(Action::single(sq, to));
                }
            }
        } else {
            for sq in movers {
                let adj = adjacent(sq);
                let dests = adj & empty;
                for to in dests {
                    list.push(Action::single(sq, to));
                }
                if two {
                    let victims = adj & weaker;
                    for v in victims {
                        for d in adjacent(v) & empty {
                            list.push(Action::push(sq, v, d));
                        }
                        for d in dests {
                            list.push(Action::pull(sq, d, v));
                        }
                    }
                }
            }
        }
        weaker |= pos.kind_bb(c.opp(), k);
    }
}

/// What [`Position::make_action`] changed, so that
/// [`Position::unmake_action`] can restore the position exactly.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Undo {
    action: Action,
    captures: [Option<Capture>; 2],
}

impl Undo {
    /// The action that was made.
    pub fn action(&self) -> Action {
        self.action
    }

    /// The captures it caused, in order.
    pub fn captures(&self) -> [Option<Capture>; 2] {
        self.captures
    }
}

impl Position {
    /// Plays an action in place and returns what undoes it: the
    /// make/unmake alternative to copying the position.
    #[inline(always)]
    pub fn make_action(&mut self, a: Action) -> Undo {
        Undo {
            action: a,
            captures: self.apply_action(a),
        }
    }

    /// Takes back the action of `undo`, which must be the last one made.
    #[inline(always)]
    pub fn unmake_action(&mut self, undo: Undo) {
        let a = undo.action;
        self.unspend_steps(a.cost());
        if let Some(s2) = a.second() {
            self.unmove_piece(s2.from, s2.to, undo.captures[1]);
        }
        let s1 = a.first();
        self.unmove_piece(s1.from, s1.to, undo.captures[0]);
    }

    /// The hash after playing `a` (generated for this position), without
    /// playing it: what the turn counter needs at the last step of a turn,
    /// where building the child position would be wasted work.
    #[inline(always)]
    pub fn hash_after_action(&self, a: Action) -> u64 {
        let s1 = a.first();
        match a.second() {
            None => self.hash() ^ self.step_delta(s1.from, s1.to, self.occupied_by(self.side())),
            // The two steps of a push or pull move pieces of different
            // colours, and a step can only capture its mover's colour, so
            // each step's capture depends only on its own colour's squares,
            // which the other step does not touch.
            Some(s2) => {
                let c1 = self.piece_at(s1.from).map_or(self.side(), |p| p.color());
                self.hash()
                    ^ self.step_delta(s1.from, s1.to, self.occupied_by(c1))
                    ^ self.step_delta(s2.from, s2.to, self.occupied_by(c1.opp()))
            }
        }
    }

    /// The hash change of moving the piece on `from` to `to`, captures
    /// included; `own` is the squares of the mover's colour before the step.
    #[inline(always)]
    fn step_delta(&self, from: Square, to: Square, own: Bitboard) -> u64 {
        let p = match self.piece_at(from) {
            Some(p) => p,
            None => return 0,
        };
        let mut d = zobrist::PIECE[p.index()][from.index()] ^ zobrist::PIECE[p.index()][to.index()];
        let t = NEAR_TRAP[from.index()];
        if t != NO_TRAP {
            let own = Bitboard(own.0 ^ from.bit() ^ to.bit());
            let tsq = Square::new(t);
            if own.contains(tsq) && (adjacent(tsq) & own).is_empty() {
                let victim = if tsq == to {
                    p
                } else {
                    match self.piece_at(tsq) {
                        Some(v) => v,
                        None => return d,
                    }
                };
                d ^= zobrist::PIECE[victim.index()][t as usize];
            }
        }
        d
    }

    /// Plays an action generated for this position, spending its steps.
    /// Returns the captures it caused, in order (at most two).
    #[inline(always)]
    pub fn apply_action(&mut self, a: Action) -> [Option<Capture>; 2] {
        let s1 = a.first();
        let c1 = self.move_piece(s1.from, s1.to);
        let c2 = match a.second() {
            Some(s2) => self.move_piece(s2.from, s2.to),
            None => None,
        };
        self.spend_steps(a.cost());
        [c1, c2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_of(n: u8) -> ActionList {
        let mut l = ActionList::new();
        for i in 0..n {
            l.push(Action::single(Square::new(i), Square::new(i + 8)));
        }
        l
    }

    #[test]
    fn retain_if_any_keeps_the_accepted_or_the_whole_list() {
        let whole = list_of(6);
        let mut l = list_of(6);
        l.retain_if_any(|a| a.steps().next().unwrap().from.index() % 2 == 1);
        let odd: Vec<_> = whole
            .as_slice()
            .iter()
            .skip(1)
            .step_by(2)
            .copied()
            .collect();
        assert_eq!(l.as_slice(), &odd[..]);
        let mut l = list_of(6);
        l.retain_if_any(|_| false);
        assert_eq!(l.as_slice(), whole.as_slice());
    }
}
