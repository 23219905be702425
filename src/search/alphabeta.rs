//! The step-based alpha-beta search below the root.
//!
//! Depth counts steps. A node is a position part way through a turn; its
//! children are the actions that fit in the steps left (a push or pull uses
//! two) and, once the board has changed, ending the turn ("pass"), which
//! forfeits the unused steps. The score changes sign only when the turn
//! passes to the other side. Rules that end the game are applied at every
//! turn start, and a side that reaches goal or takes the last enemy rabbit
//! mid-turn is scored as winning at once, because it may end its turn there.

use super::tt::{Bound, PASS, TranspositionTable, WIN, entry_action};
use crate::board::stepgen::{ActionList, generate_actions};
use crate::board::turngen::History;
use crate::board::{Action, ActionKind, Position};
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Larger than any score: marks "no legal continuation" inside a turn.
pub const INF: i32 = 32_000;

/// Per-thread search state.
pub struct Worker<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a Evaluator,
    /// Turn-start occurrence counts of the game before the root.
    pub history: &'a History,
    /// Turn-start hashes on the current search path (below the root).
    pub path: Vec<u64>,
    pub nodes: u64,
    pub stop: &'a AtomicBool,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub aborted: bool,
}

impl<'a> Worker<'a> {
    /// Checks the stop flag, the clock and the node budget.
    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        if self.stop.load(Ordering::Relaxed)
            || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// Whether ending the turn into the position with hash `h` (opponent to
    /// move) is allowed: not a third occurrence, counting the game and the
    /// search path.
    #[inline]
    pub fn pass_allowed(&self, h: u64) -> bool {
        let mut n = self.history.get(&h).copied().unwrap_or(0) as usize;
        n += self.path.iter().filter(|&&x| x == h).count();
        n < 2
    }

    /// Searches `pos` to `depth` steps. `turn_start` is the hash of the
    /// position this turn began in (ending the turn on the same board is
    /// illegal). `ply` counts steps from the root, for win distances.
    pub fn search(
        &mut self,
        pos: &Position,
        turn_start: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let me = pos.side();
        let opp = me.opp();
        if pos.at_turn_start() {
            // The end-of-game rules, the side that just moved first.
            if pos.has_goal(opp) {
                return -(WIN - ply);
            }
            if pos.has_goal(me) {
                return WIN - ply;
            }
            if pos.rabbits(me).is_empty() {
                return -(WIN - ply);
            }
            if pos.rabbits(opp).is_empty() {
                return WIN - ply;
            }
        } else if pos.has_goal(me) || (pos.rabbits(opp).is_empty() && !pos.has_goal(opp)) {
            // Ending the turn now wins (the board has changed, and such a
            // position cannot have occurred before).
            return WIN - ply;
        }
        if depth <= 0 {
            return self.eval.evaluate(pos);
        }

        let key = pos.search_key();
        let mut hash_action = 0;
        if let Some(e) = self.tt.probe(key, ply) {
            hash_action = e.action;
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cut {
                    return e.score;
                }
            }
        }

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_action = 0u32;

        // Ending the turn, when the board has changed.
        let can_pass = !pos.at_turn_start() && pos.hash() != turn_start;
        let mut passed = false;
        let try_pass =
            |w: &mut Self, alpha: &mut i32, best: &mut i32, best_action: &mut u32| -> bool {
                let mut child = pos.clone();
                child.pass_turn();
                if !w.pass_allowed(child.hash()) {
                    return false;
                }
                let steps = pos.steps_left() as i32;
                w.path.push(child.hash());
                let s = -w.search(
                    &child,
                    child.hash(),
                    depth - steps,
                    -beta,
                    -*alpha,
                    ply + steps,
                );
                w.path.pop();
                if s > *best {
                    *best = s;
                    *best_action = PASS;
                    if s > *alpha {
                        *alpha = s;
                    }
                }
                *alpha >= beta
            };
        if can_pass && hash_action == PASS {
            passed = true;
            if try_pass(self, &mut alpha, &mut best, &mut best_action) {
                return self.finish(key, ply, depth, best, alpha0, beta, best_action);
            }
            if self.aborted {
                return 0;
            }
        }

        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        if list.is_empty() && pos.at_turn_start() {
            // No legal step at all: immobilised, a loss.
            return -(WIN - ply);
        }
        order(list.as_mut_slice(), entry_action(hash_action));

        for (i, &a) in list.as_slice().iter().enumerate() {
            // Try ending the turn after the hash move, before the rest.
            if i == 1 && can_pass && !passed {
                passed = true;
                if try_pass(self, &mut alpha, &mut best, &mut best_action) {
                    return self.finish(key, ply, depth, best, alpha0, beta, best_action);
                }
                if self.aborted {
                    return 0;
                }
            }
            let mut child = pos.clone();
            child.apply_action(a);
            let cost = a.cost() as i32;
            let s = self.search(&child, turn_start, depth - cost, alpha, beta, ply + cost);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_action = a.raw();
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        return self.finish(key, ply, depth, best, alpha0, beta, best_action);
                    }
                }
            }
        }
        if can_pass && !passed {
            try_pass(self, &mut alpha, &mut best, &mut best_action);
            if self.aborted {
                return 0;
            }
        }
        if best == -INF {
            // Nothing legal follows. At a turn start that means every turn
            // would be a third repetition: the side to move has lost.
            return if pos.at_turn_start() {
                -(WIN - ply)
            } else {
                -INF
            };
        }
        self.finish(key, ply, depth, best, alpha0, beta, best_action)
    }

    /// Stores the node's result and returns its score.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn finish(
        &self,
        key: u64,
        ply: i32,
        depth: i32,
        best: i32,
        alpha0: i32,
        beta: i32,
        action: u32,
    ) -> i32 {
        if best.abs() < INF {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, ply, action, best, depth, bound);
        }
        best
    }
}

/// Hash move first, then pushes and pulls (they can capture and dislodge),
/// then single steps.
fn order(list: &mut [Action], hash: Option<Action>) {
    let rank = |a: &Action| -> u8 {
        if Some(*a) == hash {
            0
        } else if a.kind() != ActionKind::Single {
            1
        } else {
            2
        }
    };
    list.sort_by_key(rank);
}
