//! Distinct legal turns: every position reachable by 1-4 steps that changes
//! the board, each counted once however many step orders reach it.
//!
//! A depth-first walk over actions (single steps, whole pushes and pulls)
//! with one hash table that serves twice: it deduplicates end positions, and
//! it prunes transpositions, because a mid-turn position already expanded
//! with at least as many steps left has nothing new below it. Every position
//! reached mid-turn is itself a legal end of turn (actions never leave a
//! push half done), so each new entry is one distinct turn.

use super::bitboard::{Bitboard, NEAR_TRAP, NO_TRAP, adjacent};
use super::position::Position;
use super::stepgen::{ActionList, generate_actions, mobile_by_kind};
use super::turn::{Turn, TurnActions};
use super::types::{Color, Kind, Piece, Square};
use super::zobrist;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;

/// An open-addressing set of position hashes, each with the most steps left
/// it has been expanded with. Entries pack the hash's upper 61 bits with
/// `steps_left + 1` in the low 3 bits, so 0 marks an empty slot.
pub struct SeenTable {
    slots: Vec<u64>,
    shift: u32,
    len: usize,
}

/// What [`SeenTable::visit`] found.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Visit {
    /// Never seen: a new distinct position, to expand.
    New,
    /// Seen with fewer steps left: expand again, but count nothing.
    MoreSteps,
    /// Seen with as many steps left or more: nothing to do.
    Known,
}

impl Default for SeenTable {
    fn default() -> Self {
        Self::new()
    }
}

impl SeenTable {
    const MIN_BITS: u32 = 12;

    pub fn new() -> SeenTable {
        SeenTable {
            slots: vec![0; 1 << Self::MIN_BITS],
            shift: 64 - Self::MIN_BITS,
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the table, keeping its memory unless it grew far beyond the
    /// last use (so one huge position does not slow every later clear).
    pub fn clear(&mut self) {
        let want = (self.len * 4).next_power_of_two().max(1 << Self::MIN_BITS);
        if self.slots.len() > want * 4 {
            self.slots = vec![0; want];
            self.shift = 64 - want.trailing_zeros();
        } else {
            self.slots.fill(0);
        }
        self.len = 0;
    }

    #[inline(always)]
    pub fn visit(&mut self, hash: u64, steps_left: u8) -> Visit {
        let key = hash & !7;
        let val = steps_left as u64 + 1;
        let mask = self.slots.len() - 1;
        let mut i = (hash >> self.shift) as usize;
        loop {
            let e = self.slots[i];
            if e == 0 {
                self.slots[i] = key | val;
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return Visit::New;
            }
            if e & !7 == key {
                if e & 7 >= val {
                    return Visit::Known;
                }
                self.slots[i] = key | val;
                return Visit::MoreSteps;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let n = old.len() * 2;
        self.slots = vec![0; n];
        self.shift = 64 - n.trailing_zeros();
        let mask = n - 1;
        for e in old.into_iter().filter(|&e| e != 0) {
            // The index comes from the top bits, which the packing keeps.
            let mut i = (e >> self.shift) as usize;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = e;
        }
    }
}

/// Counts of a turn enumeration.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnCount {
    /// Distinct positions reachable by a legal turn.
    pub turns: u64,
    /// Actions applied (a push or pull counts once).
    pub nodes: u64,
}

/// Counts the distinct turns of the side to move (no game history).
///
/// The walk of [`count_turns_make_unmake`] (measured faster than copy-make,
/// see `bench/crate-compare`), except at the last step of a turn: there the
/// children are only looked up in the table, so their hashes are computed
/// from the parent without building them, and the single steps are
/// enumerated straight from the mobile pieces without an action list.
pub fn count_turns(pos: &Position, table: &mut SeenTable) -> TurnCount {
    table.clear();
    table.visit(pos.hash(), pos.steps_left());
    let mut nodes = 0;
    let mut work = pos.clone();
    if work.steps_left() > 0 {
        fast_dfs(&mut work, table, &mut nodes);
    }
    TurnCount {
        turns: table.len() as u64 - 1,
        nodes,
    }
}

fn fast_dfs(pos: &mut Position, table: &mut SeenTable, nodes: &mut u64) {
    let steps = pos.steps_left();
    if steps == 1 {
        *nodes += last_steps(pos, table);
        return;
    }
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    *nodes += list.len() as u64;
    for &a in list.as_slice() {
        if a.cost() == steps {
            // A push or pull with the last two steps: a leaf.
            table.visit(pos.hash_after_action(a), 0);
            continue;
        }
        let undo = pos.make_action(a);
        if table.visit(pos.hash(), pos.steps_left()) != Visit::Known {
            fast_dfs(pos, table, nodes);
        }
        pos.unmake_action(undo);
    }
}

/// Visits every position one single step away (the last step of the turn)
/// and returns how many steps there were.
#[inline(always)]
fn last_steps(pos: &Position, table: &mut SeenTable) -> u64 {
    let c = pos.side();
    let empty = pos.empty_squares();
    let mobile = mobile_by_kind(pos, c);
    let own = pos.occupied_by(c);
    let base = pos.hash();
    let mut n = 0;
    for k in Kind::ALL {
        let piece = Piece::new(c, k);
        let keys = &zobrist::PIECE[piece.index()];
        for from in mobile[k.index()] {
            let mut dests = adjacent(from) & empty;
            if k == Kind::Rabbit {
                let behind = match c {
                    Color::Gold => Bitboard::from_square(from).south(),
                    Color::Silver => Bitboard::from_square(from).north(),
                };
                dests = dests.and_not(behind);
            }
            let h_from = base ^ keys[from.index()];
            let trap = NEAR_TRAP[from.index()];
            for to in dests {
                let mut h = h_from ^ keys[to.index()];
                if trap != NO_TRAP {
                    let tsq = Square::new(trap);
                    let own_after = Bitboard(own.0 ^ from.bit() ^ to.bit());
                    if own_after.contains(tsq) && (adjacent(tsq) & own_after).is_empty() {
                        let victim = if tsq == to {
                            piece
                        } else {
                            pos.piece_at(tsq).unwrap_or(piece)
                        };
                        h ^= zobrist::PIECE[victim.index()][trap as usize];
                    }
                }
                table.visit(h, 0);
                n += 1;
            }
        }
    }
    n
}

/// The plain walk: every action generated into a list, each child a copy.
fn count_dfs(pos: &Position, table: &mut SeenTable, nodes: &mut u64) {
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    *nodes += list.len() as u64;
    for &a in list.as_slice() {
        let mut child = pos.clone();
        child.apply_action(a);
        let k = child.steps_left();
        if table.visit(child.hash(), k) != Visit::Known && k > 0 {
            count_dfs(&child, table, nodes);
        }
    }
}

/// The plain walk (no last-step shortcut) done by copy-make at every node:
/// each child is a copy of its parent with one action applied. Kept to
/// measure against [`count_turns_make_unmake`] (`bench/crate-compare`) and
/// as a reference for [`count_turns`] in the tests.
pub fn count_turns_copy_make(pos: &Position, table: &mut SeenTable) -> TurnCount {
    table.clear();
    table.visit(pos.hash(), pos.steps_left());
    let mut nodes = 0;
    count_dfs(pos, table, &mut nodes);
    TurnCount {
        turns: table.len() as u64 - 1,
        nodes,
    }
}

/// The same plain walk by make/unmake: one position, each action made and
/// taken back in place.
pub fn count_turns_make_unmake(pos: &Position, table: &mut SeenTable) -> TurnCount {
    table.clear();
    table.visit(pos.hash(), pos.steps_left());
    let mut nodes = 0;
    let mut work = pos.clone();
    count_dfs_unmake(&mut work, table, &mut nodes);
    TurnCount {
        turns: table.len() as u64 - 1,
        nodes,
    }
}

fn count_dfs_unmake(pos: &mut Position, table: &mut SeenTable, nodes: &mut u64) {
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    *nodes += list.len() as u64;
    for &a in list.as_slice() {
        let undo = pos.make_action(a);
        let k = pos.steps_left();
        if table.visit(pos.hash(), k) != Visit::Known && k > 0 {
            count_dfs_unmake(pos, table, nodes);
        }
        pos.unmake_action(undo);
    }
}

/// Every distinct legal turn of the side to move, one step sequence each.
/// `repeated` says whether a resulting position (hash with the opponent to
/// move) would be a third occurrence; such turns are left out.
pub fn generate_turns(pos: &Position, repeated: impl Fn(u64) -> bool) -> Vec<Turn> {
    let mut out = Vec::new();
    let _ = walk_turns(pos, &mut |actions, hash| {
        if !repeated(hash) {
            out.push(Turn { actions, hash });
        }
        ControlFlow::Continue(())
    });
    out
}

/// Whether the side to move has a legal turn whose result `repeated` does
/// not refuse: [`generate_turns`] not empty, but stopping at the first such
/// turn (the end-of-game check asks this after every turn of a game in
/// which some position has occurred twice).
pub fn has_turn(pos: &Position, repeated: impl Fn(u64) -> bool) -> bool {
    walk_turns(pos, &mut |_, hash| {
        if repeated(hash) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .is_break()
}

/// Calls `visit` once for each distinct turn, in the generator's order,
/// with its actions and the hash it leaves (opponent to move), until
/// `visit` breaks.
fn walk_turns(
    pos: &Position,
    visit: &mut impl FnMut(TurnActions, u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    with_table(|table| {
        table.visit(pos.hash(), pos.steps_left());
        walk_dfs(&mut pos.clone(), table, TurnActions::default(), visit)
    })
}

/// Runs `f` with this thread's turn table, cleared. Turn generation runs at
/// every root and after every turn of a game; a table grown once and kept
/// saves allocating, zeroing and regrowing tens of thousands of slots each
/// time.
fn with_table<R>(f: impl FnOnce(&mut SeenTable) -> R) -> R {
    thread_local! {
        static TABLE: std::cell::RefCell<SeenTable> = std::cell::RefCell::new(SeenTable::new());
    }
    TABLE.with(|t| match t.try_borrow_mut() {
        Ok(mut table) => {
            table.clear();
            f(&mut table)
        }
        // Only a generation nested inside another (a `repeated` that
        // generates turns itself) gets here: it gets a table of its own.
        Err(_) => f(&mut SeenTable::new()),
    })
}

fn walk_dfs(
    pos: &mut Position,
    table: &mut SeenTable,
    path: TurnActions,
    visit: &mut impl FnMut(TurnActions, u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Make and unmake on one board, as the counting walk does: cheaper than
    // copying the board for every child.
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    for &a in list.as_slice() {
        let undo = pos.make_action(a);
        let k = pos.steps_left();
        let v = table.visit(pos.hash(), k);
        let mut flow = ControlFlow::Continue(());
        if v != Visit::Known {
            // Never full: each action takes a step and `k` counts those left.
            let mut next = path;
            next.push(a).expect("at most four actions in a turn");
            if v == Visit::New {
                flow = visit(next, pos.hash() ^ zobrist::SIDE);
            }
            if flow.is_continue() && k > 0 {
                flow = walk_dfs(pos, table, next, visit);
            }
        }
        pos.unmake_action(undo);
        flow?;
    }
    ControlFlow::Continue(())
}

/// Occurrence counts of turn-start positions (board and side to move),
/// by Zobrist hash.
pub type History = HashMap<u64, u8, BuildHasherDefault<KeyHasher>>;

/// The hasher of [`History`]: its keys are Zobrist hashes, already
/// uniformly random bits, so a key is its own hash. The search asks the
/// history at the end of every turn it tries (third repetitions), and the
/// standard SipHash cost about 1.5% of `aamir bench`'s time.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Any other key type would still spread, if poorly; `History` only
    /// hashes `u64`s, which take `write_u64`.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Zobrist key is its own hash, and the history still counts every
    /// key apart, however alike their low or high bits.
    #[test]
    fn the_history_hashes_a_key_as_itself_and_counts_each_apart() {
        use std::hash::BuildHasher;
        let b = BuildHasherDefault::<KeyHasher>::default();
        for key in [0u64, 1, 0xDEAD_BEEF_0000_0001, u64::MAX] {
            assert_eq!(b.hash_one(key), key);
        }
        // Keys alike in their low bits (i << 40), in their high bits (i)
        // and spread (i times an odd constant); each seen i % 3 + 1 times.
        let mut h = History::default();
        for i in 1..2000u64 {
            for k in [i, i << 40, i.wrapping_mul(0x9E37_79B9_7F4A_7C15)] {
                for _ in 0..=i % 3 {
                    *h.entry(k).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(h.len(), 3 * 1999);
        assert_eq!(h[&5], 3);
        assert_eq!(h[&(6 << 40)], 1);
        assert_eq!(h[&1999u64.wrapping_mul(0x9E37_79B9_7F4A_7C15)], 2);
        assert!(!h.contains_key(&(2000 << 40)));
    }

    /// `has_turn` answers as "does `generate_turns` find one" does, however
    /// many of the turns `repeated` refuses: none, all, all but one.
    #[test]
    fn has_turn_agrees_with_generating_every_turn() {
        let mut pos = Position::standard_opening();
        let mut state = 11u64;
        for ply in 0..24 {
            let turns = generate_turns(&pos, |_| false);
            assert!(!turns.is_empty());
            assert!(has_turn(&pos, |_| false));
            assert!(!has_turn(&pos, |_| true), "ply {ply}: every turn refused");
            for keep in [0, turns.len() / 2, turns.len() - 1] {
                let only = turns[keep].hash;
                assert!(has_turn(&pos, |h| h != only), "ply {ply}: turn {keep} left");
                assert_eq!(generate_turns(&pos, |h| h != only).len(), 1);
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = turns[(state >> 33) as usize % turns.len()].apply(&pos);
        }
    }
}
