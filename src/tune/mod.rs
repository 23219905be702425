//! Fitting the evaluation weights to game results (Texel's method).
//!
//! - [`datagen`]: the reproducible self-play generator of training positions
//!   (`aamir gen`).
//! - [`data`]: reading positions with their game results (generator files,
//!   arimaa.com archives, `aamir match` records), keeping the quiet ones and
//!   splitting off a held-out set.
//! - [`fit`]: the logistic fit: `k` of `sigmoid(k * eval)` first, then the
//!   weights, and the writer of the Rust table the defaults are built from.
//! - [`label`]: labels from a fixed-depth search instead of the result.
//! - [`order`]: the fit of the turn-ordering model (`aamir tune-order`).
//! - [`moves`]: the evaluation weights fitted to the turns winners chose
//!   (`aamir tune-moves`).
//! - [`cli`]: the command line of `gen`, `tune`, `tune-order` and
//!   `tune-moves`.
//!
//! The tuner sees the evaluation only through [`Tunable`], implemented here
//! for [`Evaluator`] on top of the weights' settings table: a weight added
//! to the table is tuned with no change here.

pub mod auc;
pub mod cli;
pub mod data;
pub mod datagen;
pub mod fit;
pub mod label;
pub mod moves;
pub mod order;
pub mod pack;
pub mod terms;
pub mod train;

use crate::board::Position;
use crate::eval::{Evaluator, Weights};
use crate::settings::Table;

/// What the tuner needs of an evaluation: its weights as whole numbers by
/// flat index (array elements one by one), with names, and a score for a
/// position with the current values.
pub trait Tunable: Clone + Send + Sync {
    /// Number of single weights.
    fn len(&self) -> usize;
    /// Name of weight `i`.
    fn name(&self, i: usize) -> String;
    /// Weight `i`.
    fn get(&self, i: usize) -> i32;
    /// Sets weight `i`; false when the value is out of the weight's range.
    fn set(&mut self, i: usize, v: i32) -> bool;
    /// Score of `pos` for its side to move, in centi-rabbits.
    fn score(&self, pos: &Position) -> i32;

    /// Whether there is nothing to tune.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Every weight, flattened.
    fn values(&self) -> Vec<i32> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// The evaluation's weights through their settings table, which names every
/// one: new weights need nothing here.
impl Tunable for Evaluator {
    fn len(&self) -> usize {
        Weights::len()
    }
    fn name(&self, i: usize) -> String {
        Weights::name(i).unwrap_or_else(|| format!("#{i}"))
    }
    fn get(&self, i: usize) -> i32 {
        self.w.get(i).unwrap_or(0) as i32
    }
    fn set(&mut self, i: usize, v: i32) -> bool {
        self.w.set(i, v as i64).is_ok()
    }
    fn score(&self, pos: &Position) -> i32 {
        self.evaluate(pos)
    }
}

/// Whether a position is quiet enough to label with the game's result: the
/// side to move has no capture this turn and neither side can reach goal
/// within a turn. The only place the tuner calls the tactical detectors.
pub fn is_quiet(pos: &Position) -> bool {
    use crate::tactics::{capture, goal};
    let me = pos.side();
    goal::goal_threat(pos, me).is_none()
        && goal::goal_threat(pos, me.opp()).is_none()
        && capture::capture_threats(pos, me, pos.steps_left()).is_empty()
}

/// FNV-1a: a stable hash of text (game ids for the held-out split).
pub fn fnv1a(text: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;

    #[test]
    fn every_weight_is_reachable_by_index() {
        // Zero every weight through the interface: a weight it missed would
        // keep its (non-zero) default in the struct's debug text.
        let mut e = Evaluator::default();
        for i in 0..e.len() {
            assert!(e.set(i, 0), "{}", e.name(i));
        }
        let text = format!("{:?}", e.w);
        let nonzero: Vec<&str> = text
            .split(|c: char| !c.is_ascii_digit() && c != '-')
            .filter(|t| !t.is_empty() && *t != "0")
            .collect();
        assert!(nonzero.is_empty(), "not reachable: {text}");
        assert!(Evaluator::default().values().iter().any(|&v| v != 0));
    }

    #[test]
    fn names_and_indices_agree() {
        let mut e = Evaluator::default();
        assert_eq!(e.name(0), "rabbit_rank_0");
        let t = (0..e.len()).find(|&i| e.name(i) == "tempo").unwrap();
        assert_eq!(e.get(t), e.w.tempo);
        assert!(e.set(t, 77));
        assert_eq!(e.w.tempo, 77);
        let f = (0..e.len()).find(|&i| e.name(i) == "frozen_2").unwrap();
        assert!(e.set(f, -5));
        assert_eq!(e.w.frozen[2], -5);
        assert!(!e.set(f, 1_000_000), "out of range");
        assert_eq!(e.values().len(), e.len());
    }

    #[test]
    fn quiet_filter_drops_a_capture_and_keeps_a_quiet_position() {
        // A silver cat on c4 beside the empty, unguarded trap c3 with a gold
        // dog above it on c5: gold pushes it in this turn.
        let rows = [
            "       r", "        ", "        ", "  D     ", "  c     ", "        ", "R       ",
            "E       ",
        ];
        let capture = parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap();
        assert!(!is_quiet(&capture));
        // The same pieces with the cat far from every trap.
        let rows = [
            "       r", "        ", "        ", "  D     ", "        ", "        ", "R       ",
            "E   c   ",
        ];
        let quiet = parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap();
        assert!(is_quiet(&quiet));
        assert!(is_quiet(&crate::board::Position::standard_opening()));
        // A silver rabbit on a2 with nothing in front: a goal threat.
        let rows = [
            "        ", "        ", "        ", "        ", "        ", "        ", "r       ",
            "    E  R",
        ];
        let goal = parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap();
        assert!(!is_quiet(&goal));
    }
}
