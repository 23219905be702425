//! The learned evaluation: an efficiently updatable network (NNUE).
//!
//! # Inputs
//!
//! Each side sees the board from its own point of view (silver's board
//! mirrored rank for rank, colours swapped), as one input per piece: its
//! owner (own or enemy), its *class* and its square, 2 x 6 x 64 = 768
//! inputs ([`feature`]). The class is the rabbit, or an officer by how
//! many stronger enemy pieces remain (none, one, two or three, four or
//! five, six or more): a horse with only the elephant above it plays
//! like a camel, and the network sees it as one. A capture of an officer
//! can change the class of every weaker enemy piece, so the accumulators
//! are rebuilt after one ([`Accumulators::apply`]); captures are rare
//! among the search's steps.
//!
//! # Layers
//!
//! ```text
//! 768 inputs -> 256 (per side, shared weights) -> [mover, other] 512
//!   -> clipped ReLU -> 16 -> clipped ReLU -> 32 -> clipped ReLU -> 1
//! ```
//!
//! The first layer's outputs for both sides are the accumulators: sums
//! of the weight rows of the active inputs, kept up to date step by step
//! in the search ([`Accumulators`]) rather than recomputed. The output is
//! the side to move's winning chance as a logit; the file's `scale` turns
//! it into centi-rabbits. Part way through a turn the score leans toward
//! the board with the turn passed ([`Network::score`]). A net may be a residual ([`Base::Terms`]): its
//! score is added to the hand-weighted terms', and it was trained on what
//! they miss.
//!
//! # Integers
//!
//! Inference is integer only, so that every build gives the same score:
//! the first layer's weights are `round(w * 127)` in 16 bits and its
//! activations clip to 0..=127 (1.0 = 127); the later layers' weights are
//! `round(w * 512)`, their sums are divided by 512 (an arithmetic shift)
//! and clipped to 0..=127 again. The float network the trainer fits
//! ([`float::FloatNet`]) gives the same score within the rounding.
//!
//! The hot loops (accumulator updates and the later layers' dot
//! products) use SSE2 on x86-64 and portable loops on other targets;
//! both compute the same integer sums ([`simd`]).

pub mod file;
pub mod float;
pub mod simd;

use crate::board::{Action, Color, Kind, Piece, Position, STEPS_PER_TURN, Square, Undo};
use std::sync::{Arc, OnceLock};

/// Inputs per side: own/enemy x 6 classes x 64 squares.
pub const INPUTS: usize = 2 * CLASSES * 64;
/// Piece classes (see the module doc).
pub const CLASSES: usize = 6;
/// First-layer outputs per side.
pub const L1: usize = 256;
/// Second-layer outputs.
pub const L2: usize = 16;
/// Third-layer outputs.
pub const L3: usize = 32;
// The SIMD loops take rows of whole 8-lane blocks.
const _: () = assert!(L1.is_multiple_of(8) && L2.is_multiple_of(8));
/// Scale of the first layer's weights and of every activation (1.0).
pub const QA: i32 = 127;
/// Scale of the later layers' weights: `1 << QB_SHIFT`.
pub const QB: i32 = 1 << QB_SHIFT;
/// The shift that divides a later layer's sum by [`QB`]. 512 keeps the
/// weights' rounding small while no sum of 512 activations of 127 can
/// leave 32 bits.
pub const QB_SHIFT: u32 = 9;
/// The most pieces a board holds: the inputs active for one side.
pub const MAX_ACTIVE: usize = 32;

/// The class of a piece of `kind` when `stronger` enemy pieces (of
/// greater kinds) remain: 0 for a rabbit, else 5 (no stronger enemy) down
/// to 1 (six or more).
#[inline(always)]
pub const fn class(kind: Kind, stronger: u32) -> usize {
    if matches!(kind, Kind::Rabbit) {
        return 0;
    }
    match stronger {
        0 => 5,
        1 => 4,
        2 | 3 => 3,
        4 | 5 => 2,
        _ => 1,
    }
}

/// The input for a piece of colour `owner` and class `class` on `sq`,
/// seen by `view`.
#[inline(always)]
pub const fn feature(view: Color, owner: Color, class: usize, sq: Square) -> usize {
    let own = (view as usize) ^ (owner as usize);
    // Silver sees the board upside down: its home rank is its rank 1.
    let s = match view {
        Color::Gold => sq.index(),
        Color::Silver => sq.index() ^ 56,
    };
    (own * CLASSES + class) * 64 + s
}

/// How many pieces of `color` are stronger than `kind`, for each kind.
#[inline]
fn stronger_counts(pos: &Position, color: Color) -> [u32; 6] {
    let mut out = [0; 6];
    let mut above = 0;
    for k in (0..6).rev() {
        out[k] = above;
        above += pos.count(color, Kind::from_index(k));
    }
    out
}

/// The active inputs of `pos` as `view` sees them, in square order.
pub fn active_features(pos: &Position, view: Color) -> ([u16; MAX_ACTIVE], usize) {
    let stronger = [
        stronger_counts(pos, Color::Gold),
        stronger_counts(pos, Color::Silver),
    ];
    let mut out = [0u16; MAX_ACTIVE];
    let mut n = 0;
    let mut occ = pos.occupied();
    while let Some(sq) = occ.pop() {
        let p = pos.piece_at(sq).expect("occupied");
        let cl = class(
            p.kind(),
            stronger[p.color().opp().index()][p.kind().index()],
        );
        if n < MAX_ACTIVE {
            out[n] = feature(view, p.color(), cl, sq) as u16;
            n += 1;
        }
    }
    (out, n)
}

/// Up to [`MAX_ACTIVE`] inputs on the stack: the inputs in which two
/// positions differ, listed without a heap allocation.
struct Vec16 {
    v: [u16; MAX_ACTIVE],
    n: usize,
}

impl Vec16 {
    fn new() -> Vec16 {
        Vec16 {
            v: [0; MAX_ACTIVE],
            n: 0,
        }
    }

    fn push(&mut self, x: u16) {
        self.v[self.n] = x;
        self.n += 1;
    }

    fn as_slice(&self) -> &[u16] {
        &self.v[..self.n]
    }
}

/// A quantized network, as a net file holds it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer, one row of [`L1`] per input.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    /// Second layer, one row of `2 * L1` per output.
    pub w2: Vec<i16>,
    pub b2: Vec<i32>,
    /// Third layer, one row of [`L2`] per output.
    pub w3: Vec<i16>,
    pub b3: Vec<i32>,
    /// Output, one weight per third-layer output.
    pub w4: Vec<i16>,
    pub b4: i32,
    /// Centi-rabbits per unit of the output's logit.
    pub scale: i32,
    /// What the net's score is added to.
    pub base: Base,
    /// Free text: what data and labels made it.
    pub about: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:?}, scale {})", self.about, self.scale)
    }
}

/// What a net's score is added to: nothing (the net is the whole
/// evaluation), or the hand-weighted terms (the net learned what they
/// miss: a residual).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[repr(u32)]
pub enum Base {
    #[default]
    None = 0,
    Terms = 1,
}

/// The first layer's sums for both points of view, indexed by colour.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Accumulator {
    pub v: [[i16; L1]; 2],
}

impl Network {
    /// The first layer's sums for `pos`, computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { v: [[0; L1]; 2] };
        for view in Color::BOTH {
            let a = &mut acc.v[view.index()];
            a.copy_from_slice(&self.b1);
            let (f, n) = active_features(pos, view);
            for &i in &f[..n] {
                simd::add_row(a, self.row(i as usize));
            }
        }
        acc
    }

    /// The first layer's sums for `pos` from those of `base` (`base_acc`),
    /// a position a few steps away: only the inputs that differ are
    /// subtracted and added (captures and the classes they change
    /// included). The same sums as [`Network::refresh`], at a fraction of
    /// its cost when few pieces differ.
    pub fn update_from(
        &self,
        base: &Position,
        base_acc: &Accumulator,
        pos: &Position,
    ) -> Accumulator {
        // What subtracts a row alone: the row taken off, this one put on.
        static ZERO: [i16; L1] = [0; L1];
        let mut acc = base_acc.clone();
        for view in Color::BOTH {
            let (mut old, n) = active_features(base, view);
            let (mut new, m) = active_features(pos, view);
            let (old, new) = (&mut old[..n], &mut new[..m]);
            old.sort_unstable();
            new.sort_unstable();
            // The inputs only one side has, in both sorted lists at once.
            let (mut off, mut on) = (Vec16::new(), Vec16::new());
            let (mut i, mut j) = (0, 0);
            while i < old.len() || j < new.len() {
                if j == new.len() || (i < old.len() && old[i] < new[j]) {
                    off.push(old[i]);
                    i += 1;
                } else if i == old.len() || new[j] < old[i] {
                    on.push(new[j]);
                    j += 1;
                } else {
                    i += 1;
                    j += 1;
                }
            }
            // In pairs, then what is left of either (captures leave more
            // off than on).
            let (off, on) = (off.as_slice(), on.as_slice());
            let a = &mut acc.v[view.index()];
            for (k, &f) in off.iter().enumerate() {
                let put = on.get(k).map_or(&ZERO, |&g| self.row(g as usize));
                simd::sub_add_row(a, self.row(f as usize), put);
            }
            for &g in on.iter().skip(off.len()) {
                simd::add_row(a, self.row(g as usize));
            }
        }
        acc
    }

    #[inline(always)]
    fn row(&self, input: usize) -> &[i16; L1] {
        self.w1[input * L1..(input + 1) * L1]
            .try_into()
            .expect("rows are L1 long")
    }

    /// The score in centi-rabbits for `side` to move, from accumulators.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let mut a1 = [0i16; 2 * L1];
        simd::clip_into(&mut a1[..L1], &acc.v[side.index()]);
        simd::clip_into(&mut a1[L1..], &acc.v[side.opp().index()]);
        // The activations stay in 16 bits (they are 0..=QA), so the third
        // layer is the same multiply-add of 16-bit lanes as the second
        // rather than a scalar loop.
        let mut a2 = [0i16; L2];
        for (k, out) in a2.iter_mut().enumerate() {
            let z = self.b2[k] + simd::dot(&a1, &self.w2[k * 2 * L1..(k + 1) * 2 * L1]);
            *out = (z >> QB_SHIFT).clamp(0, QA) as i16;
        }
        let mut z4 = self.b4;
        for (k, (&b3, &w4)) in self.b3.iter().zip(&self.w4).enumerate() {
            let z = b3 + simd::dot(&a2, &self.w3[k * L2..(k + 1) * L2]);
            z4 += (z >> QB_SHIFT).clamp(0, QA) * i32::from(w4);
        }
        // z4 is the logit times QA * QB.
        (i64::from(z4) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The score for `side` to move with `steps` left in its turn. The
    /// net learned turn starts, where the mover has all four steps; part
    /// way through a turn the mover can no longer do all a whole turn
    /// could (a capture it threatens may need more steps than it has), so
    /// the score moves toward the board seen with the turn passed (the
    /// opponent to move) in proportion to the steps spent.
    #[inline]
    pub fn score(&self, acc: &Accumulator, side: Color, steps: u8) -> i32 {
        let full = self.output(acc, side);
        let s = i32::from(steps.min(STEPS_PER_TURN));
        if s == i32::from(STEPS_PER_TURN) {
            return full;
        }
        let passed = -self.output(acc, side.opp());
        let n = i32::from(STEPS_PER_TURN);
        (full * s + passed * (n - s)) / n
    }

    /// The score of `pos` for its side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(&self.refresh(pos), pos.side(), pos.steps_left())
    }

    /// The network built into the binary.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(file::from_bytes(EMBEDDED).expect("the embedded network file is well formed"))
        })
        .clone()
    }
}

/// The net file built into the binary (`docs/nnue.md` says what made it).
pub const EMBEDDED: &[u8] = include_bytes!("default.nnue");

/// A stack of accumulators along the search's path: [`Accumulators::apply`]
/// pushes the child's, [`Accumulators::pop`] restores the parent's.
#[derive(Clone, Debug)]
pub struct Accumulators {
    net: Arc<Network>,
    stack: Vec<Accumulator>,
}

impl Accumulators {
    /// The stack with `pos`'s accumulators at its root.
    pub fn new(net: Arc<Network>, pos: &Position) -> Accumulators {
        let root = net.refresh(pos);
        let mut stack = Vec::with_capacity(256);
        stack.push(root);
        Accumulators { net, stack }
    }

    /// Starts again from `pos`.
    pub fn reset(&mut self, pos: &Position) {
        self.stack.clear();
        self.stack.push(self.net.refresh(pos));
    }

    /// Starts again from `pos`, whose accumulators are `acc`.
    pub fn reset_to(&mut self, acc: Accumulator) {
        self.stack.clear();
        self.stack.push(acc);
    }

    pub fn net(&self) -> &Network {
        &self.net
    }

    /// The accumulators of the current position.
    #[inline(always)]
    pub fn top(&self) -> &Accumulator {
        self.stack.last().expect("the root is never popped")
    }

    /// Pushes the accumulators of `pos`, the child of the top one by the
    /// step or steps `moves` (pieces that moved, `None` past the last),
    /// `captured` telling whether any piece was taken. Only the moved
    /// pieces' rows change, unless a capture changed the classes.
    #[inline]
    pub fn apply(
        &mut self,
        pos: &Position,
        moves: [Option<(Piece, Square, Square)>; 2],
        captured: bool,
    ) {
        if captured {
            let acc = self.net.refresh(pos);
            self.stack.push(acc);
            return;
        }
        let mut acc = self.top().clone();
        for (piece, from, to) in moves.into_iter().flatten() {
            let cl = class(
                piece.kind(),
                stronger_counts(pos, piece.color().opp())[piece.kind().index()],
            );
            for view in Color::BOTH {
                let a = &mut acc.v[view.index()];
                let off = feature(view, piece.color(), cl, from);
                let on = feature(view, piece.color(), cl, to);
                simd::sub_add_row(a, self.net.row(off), self.net.row(on));
            }
        }
        self.stack.push(acc);
    }

    /// Plays `a` on `pos` and pushes the child's accumulators.
    #[inline]
    pub fn make(&mut self, pos: &mut Position, a: Action) -> Undo {
        let s1 = a.first();
        let p1 = pos.piece_at(s1.from);
        let m2 = a
            .second()
            .and_then(|s2| pos.piece_at(s2.from).map(|p| (p, s2.from, s2.to)));
        let undo = pos.make_action(a);
        let captured = undo.captures().iter().any(Option::is_some);
        self.apply(pos, [p1.map(|p| (p, s1.from, s1.to)), m2], captured);
        undo
    }

    /// Takes back [`Accumulators::make`].
    #[inline]
    pub fn unmake(&mut self, pos: &mut Position, undo: Undo) {
        pos.unmake_action(undo);
        self.pop();
    }

    /// Pushes the top again (a pass: the board is unchanged).
    #[inline]
    pub fn push_same(&mut self) {
        let acc = self.top().clone();
        self.stack.push(acc);
    }

    /// Back to the parent's accumulators.
    #[inline(always)]
    pub fn pop(&mut self) {
        debug_assert!(self.stack.len() > 1);
        self.stack.pop();
    }

    /// Depth of the stack (1 at the root).
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// The score of the top position, `side` to move with `steps` left
    /// ([`Network::score`]).
    #[inline]
    pub fn evaluate(&self, side: Color, steps: u8) -> i32 {
        self.net.score(self.top(), side, steps)
    }
}

#[cfg(test)]
mod tests;
