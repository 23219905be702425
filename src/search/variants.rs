//! Textbook search variants for the side-by-side study `aamir bench
//! --variants`: plain minimax, fail-hard alpha-beta, fail-soft alpha-beta
//! and fail-soft alpha-beta with a transposition table, all over the same
//! step tree with the same rules and evaluation, so the first three must
//! return the same value at every depth and differ only in nodes visited.
//!
//! The tree is the engine's: depth counts steps, children are actions plus
//! ending the turn once the board has changed, the sign changes only when
//! the turn passes. Unlike the engine's root, the root here is a step node
//! too, so depths 1-3 are partial turns.

use super::alphabeta::INF;
use super::tt::{Bound, PASS, TranspositionTable, WIN, entry_action};
use crate::board::Position;
use crate::board::stepgen::{ActionList, generate_actions};
use crate::eval::Evaluator;

/// Which algorithm.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Variant {
    Minimax,
    AlphaBeta,
    FailSoft,
    FailSoftTt,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Minimax,
        Variant::AlphaBeta,
        Variant::FailSoft,
        Variant::FailSoftTt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Minimax => "minimax",
            Variant::AlphaBeta => "alpha-beta",
            Variant::FailSoft => "fail-soft",
            Variant::FailSoftTt => "fail-soft+TT",
        }
    }
}

/// One variant's search state.
pub struct VariantSearch<'a> {
    pub variant: Variant,
    pub eval: &'a Evaluator,
    pub tt: Option<&'a TranspositionTable>,
    pub nodes: u64,
    /// Turn-start hashes on the path, for the repetition rule.
    path: Vec<u64>,
    /// Stop counting past this many nodes (the result is then void).
    pub node_cap: u64,
    pub capped: bool,
}

impl<'a> VariantSearch<'a> {
    pub fn new(
        variant: Variant,
        eval: &'a Evaluator,
        tt: Option<&'a TranspositionTable>,
        node_cap: u64,
    ) -> Self {
        VariantSearch {
            variant,
            eval,
            tt,
            nodes: 0,
            path: Vec::new(),
            node_cap,
            capped: false,
        }
    }

    /// The value of `pos` (a turn start) searched `depth` steps deep.
    pub fn root(&mut self, pos: &Position, depth: i32) -> i32 {
        self.path.clear();
        self.path.push(pos.hash());
        self.search(pos, pos.hash(), depth, -INF, INF, 0)
    }

    fn search(
        &mut self,
        pos: &Position,
        turn_start: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            self.capped = true;
            return 0;
        }
        let me = pos.side();
        let opp = me.opp();
        if pos.at_turn_start() {
            if pos.has_goal(opp) || pos.rabbits(me).is_empty() {
                return -(WIN - ply);
            }
            if pos.has_goal(me) || pos.rabbits(opp).is_empty() {
                return WIN - ply;
            }
        } else if pos.has_goal(me) || (pos.rabbits(opp).is_empty() && !pos.has_goal(opp)) {
            return WIN - ply;
        }
        if depth <= 0 {
            return self.eval.evaluate(pos);
        }
        let key = pos.search_key();
        let mut hash_action = 0;
        if self.variant == Variant::FailSoftTt
            && let Some(tt) = self.tt
            && let Some(e) = tt.probe(key, ply)
        {
            hash_action = e.action;
            if e.cuts(depth, alpha, beta) {
                return e.score;
            }
        }
        let alpha0 = alpha;
        let pruning = self.variant != Variant::Minimax;
        let mut best = -INF;
        let mut best_action = 0;
        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        if list.is_empty() && pos.at_turn_start() {
            return -(WIN - ply);
        }
        if let Some(h) = entry_action(hash_action)
            && let Some(i) = list.as_slice().iter().position(|&a| a == h)
        {
            list.as_mut_slice().swap(0, i);
        }
        let can_pass = !pos.at_turn_start() && pos.hash() != turn_start;
        // Ending the turn is tried after the actions (or first when the
        // table says so), in the same order for every variant.
        let pass_first = hash_action == PASS;
        let n = list.len();
        for k in 0..=n {
            let is_pass = if pass_first { k == 0 } else { k == n };
            let s = if is_pass {
                if !can_pass {
                    continue;
                }
                let mut child = pos.clone();
                child.pass_turn();
                let h = child.hash();
                if self.path.iter().filter(|&&x| x == h).count() >= 2 {
                    continue;
                }
                let steps = pos.steps_left() as i32;
                self.path.push(h);
                let (a, b) = if pruning {
                    (-beta, -alpha)
                } else {
                    (-INF, INF)
                };
                let s = -self.search(&child, h, depth - steps, a, b, ply + steps);
                self.path.pop();
                s
            } else {
                let idx = if pass_first { k - 1 } else { k };
                let a = list.as_slice()[idx];
                let mut child = pos.clone();
                child.apply_action(a);
                let cost = a.cost() as i32;
                let (lo, hi) = if pruning { (alpha, beta) } else { (-INF, INF) };
                self.search(&child, turn_start, depth - cost, lo, hi, ply + cost)
            };
            if self.capped {
                return 0;
            }
            if s > best {
                best = s;
                best_action = if is_pass {
                    PASS
                } else {
                    list.as_slice()[if pass_first { k - 1 } else { k }].raw()
                };
            }
            if pruning && best > alpha {
                alpha = best;
                if alpha >= beta {
                    break;
                }
            }
        }
        if best == -INF {
            return if pos.at_turn_start() {
                -(WIN - ply)
            } else {
                -INF
            };
        }
        if self.variant == Variant::FailSoftTt
            && let Some(tt) = self.tt
        {
            tt.store(
                key,
                ply,
                best_action,
                best,
                depth,
                Bound::of(best, alpha0, beta),
            );
        }
        if self.variant == Variant::AlphaBeta {
            // Fail-hard: never report beyond the window.
            best.clamp(alpha0, beta)
        } else {
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;

    #[test]
    fn minimax_alphabeta_and_fail_soft_agree() {
        let eval = Evaluator::default();
        let positions = [
            "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]",
            "s [rrrc  rr           ch d  Dr    d m     r    e  E      hR    R   ]",
            "g [       r   HdM c    rhrR r  CDRC D   RR  E      Rre  R   RR     ]",
        ];
        for text in positions {
            let pos = parse_side_and_board(text).unwrap();
            for depth in 1..=3 {
                let mut values = Vec::new();
                let mut nodes = Vec::new();
                for v in [Variant::Minimax, Variant::AlphaBeta, Variant::FailSoft] {
                    let mut s = VariantSearch::new(v, &eval, None, u64::MAX);
                    values.push(s.root(&pos, depth));
                    nodes.push(s.nodes);
                }
                assert!(
                    values.iter().all(|&x| x == values[0]),
                    "{text} depth {depth}: {values:?}"
                );
                // Pruning never visits more nodes than minimax.
                assert!(nodes[1] <= nodes[0] && nodes[2] <= nodes[0], "{nodes:?}");
            }
        }
    }

    #[test]
    fn fail_hard_stays_in_window_fail_soft_may_not() {
        let eval = Evaluator::default();
        let pos = parse_side_and_board(
            "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]",
        )
        .unwrap();
        let mut hard = VariantSearch::new(Variant::AlphaBeta, &eval, None, u64::MAX);
        let v = hard.search(&pos, pos.hash(), 2, 5000, 5001, 0);
        assert_eq!(v, 5000);
        let mut soft = VariantSearch::new(Variant::FailSoft, &eval, None, u64::MAX);
        let v = soft.search(&pos, pos.hash(), 2, 5000, 5001, 0);
        assert!(v < 5000);
    }
}
