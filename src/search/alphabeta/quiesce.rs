//! Quiescence at the horizon: a turn-start leaf below beta is not judged
//! by its static score while the side to move can still take a piece.
//!
//! The static score sees only captures one push or pull away; a capture
//! that needs three or four steps is invisible to it, so a line that ends
//! with such a capture pending (for either side: the side to move at the
//! leaf is whoever's turn the horizon falls on) is misjudged by a piece.
//! Here the side to move may play the captures the capture detector finds,
//! one action at a time (its first action, then the detector again on the
//! steps left), or stand pat on the static score; after a capture turn the
//! reply gets the same choice, for `qsearch` turns in all. Each node costs
//! little where nothing can be taken: the cheap candidate filter settles
//! most leaves before the exact detector runs, and a leaf whose static
//! score plus the largest gain the candidates could bring stays below
//! alpha is not searched at all (delta pruning).
//!
//! When the opponent threatens goal the stand-pat is no lower bound (the
//! turn is owed to the defence), so the static score stands, as without
//! quiescence; a goal of the side to move wins at every quiescence turn
//! start, since capture steps can open a lane.

use super::{INF, Worker, unpass};
use crate::board::{Action, Position};
use crate::eval::material;
use crate::search::tt::WIN;
use crate::tactics::{capture, threats};

/// Most capture first-actions tried at one quiescence node.
const MAX_CAPTURES: usize = 16;

impl Worker<'_> {
    /// The quiet score of a turn-start leaf: static score `e` (below
    /// `beta`, the side to move unable to goal), `turns` quiescence turns
    /// left. Never below `e`: the side to move may always stand pat.
    pub(super) fn quiesce(
        &mut self,
        pos: &mut Position,
        ply: i32,
        e: i32,
        alpha: i32,
        beta: i32,
        turns: u32,
    ) -> i32 {
        let me = pos.side();
        if turns == 0 {
            return e;
        }
        if self.nothing_to_take(pos, e, alpha) {
            return e;
        }
        if self.threat_of(pos, me.opp()).is_some() {
            return e;
        }
        let turn_start = pos.hash();
        self.q_captures(pos, turn_start, ply, alpha, beta, turns, e)
    }

    /// The quiet score of a mid-turn leaf (`midturn_qsearch`): static score
    /// `e` with the steps left, the other side not threatening goal. The
    /// side to move finishes its turn with the captures the detector finds
    /// or stands pat on `e`; after a capture the reply gets `turns - 1`
    /// turns of quiescence. Never below `e`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiesce_midturn(
        &mut self,
        pos: &mut Position,
        turn_start: u64,
        ply: i32,
        e: i32,
        alpha: i32,
        beta: i32,
        turns: u32,
    ) -> i32 {
        if turns == 0 || e >= beta || pos.steps_left() < 2 || self.nothing_to_take(pos, e, alpha) {
            return e;
        }
        self.q_captures(pos, turn_start, ply, alpha, beta, turns, e)
    }

    /// No capture the cheap candidate filter allows with the steps left,
    /// or none whose largest gain could lift `e` above `alpha` (delta
    /// pruning).
    fn nothing_to_take(&self, pos: &Position, e: i32, alpha: i32) -> bool {
        let me = pos.side();
        let cands = threats::capture_candidates(pos, me, pos.steps_left());
        if cands.is_empty() {
            return true;
        }
        let gain = cands
            .map(|sq| material::gain_of_capture(pos, me, pos.kind_at(sq)))
            .max()
            .unwrap_or(0);
        e.saturating_add(gain + self.params.qsearch_margin) <= alpha
    }

    /// Inside a quiescence turn: `best` is what the side to move already
    /// has (the stand-pat at the turn start, ending the turn mid-turn);
    /// tries each capture the detector finds with the steps left.
    #[allow(clippy::too_many_arguments)]
    fn q_captures(
        &mut self,
        pos: &mut Position,
        turn_start: u64,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        turns: u32,
        mut best: i32,
    ) -> i32 {
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let me = pos.side();
        let steps = pos.steps_left();
        if steps < 2 || threats::capture_candidates(pos, me, steps).is_empty() {
            return best;
        }
        let caps = capture::capture_threats(pos, me, steps);
        // (gain, first action), best gain first, one entry per action.
        let mut moves = [(0i32, Action::NONE); MAX_CAPTURES];
        let mut n = 0usize;
        for sq in caps.squares() {
            let Some(a) = caps.first_action(sq) else {
                continue;
            };
            let g = material::gain_of_capture(pos, me, pos.kind_at(sq));
            if let Some(m) = moves[..n].iter_mut().find(|m| m.1 == a) {
                m.0 = m.0.max(g);
            } else if n < MAX_CAPTURES {
                moves[n] = (g, a);
                n += 1;
            }
        }
        moves[..n].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        for &(_, a) in &moves[..n] {
            self.nodes += 1;
            self.poll();
            if self.aborted {
                return 0;
            }
            let undo = self.make(pos, a);
            let cost = a.cost() as i32;
            // Ending the turn here is the stand-pat of the next node.
            let stand = if pos.hash() == turn_start {
                -INF
            } else {
                self.q_pass(pos, ply + cost, alpha, beta, turns)
                    .unwrap_or(-INF)
            };
            let s = if self.aborted {
                0
            } else {
                self.q_captures(pos, turn_start, ply + cost, alpha, beta, turns, stand)
            };
            self.unmake(pos, undo);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Ends a quiescence turn; `None` when that would repeat a position a
    /// third time.
    fn q_pass(
        &mut self,
        pos: &mut Position,
        ply: i32,
        alpha: i32,
        beta: i32,
        turns: u32,
    ) -> Option<i32> {
        let (side, steps) = (pos.side(), pos.steps_left());
        pos.pass_turn();
        let h = pos.hash();
        let r = if self.pass_allowed(h) {
            self.path.push(h);
            let s = -self.q_start(pos, ply + steps as i32, -beta, -alpha, turns - 1);
            self.path.pop();
            Some(s)
        } else {
            None
        };
        unpass(pos, side, steps);
        r
    }

    /// A turn start inside the quiescence: the rules that end the game,
    /// the stand-pat, a goal this turn, then the captures.
    fn q_start(&mut self, pos: &mut Position, ply: i32, alpha: i32, beta: i32, turns: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let me = pos.side();
        let opp = me.opp();
        if pos.has_goal(opp) || pos.rabbits(me).is_empty() {
            return -(WIN - ply);
        }
        if pos.has_goal(me) || pos.rabbits(opp).is_empty() {
            return WIN - ply;
        }
        let e = self.eval_now(pos);
        if e >= beta {
            return e;
        }
        if self.params.goal_detection
            && let Some(n) = self.goal_in(pos)
        {
            return WIN - (ply + n as i32);
        }
        self.quiesce(pos, ply, e, alpha, beta, turns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use crate::board::{Color, Kind};
    use crate::eval::Evaluator;
    use crate::search::Params;

    fn board(side: char, rows: [&str; 8]) -> Position {
        let text = format!("{side} [{}]", rows.concat());
        parse_side_and_board(&text).unwrap()
    }

    /// The score of `pos` as a turn-start leaf (depth 0, full window) and
    /// the nodes it took.
    fn leaf(pos: &Position, qsearch: u32) -> (i32, u64) {
        let params = Params {
            qsearch,
            ..Params::default()
        };
        super::super::tests::depth0(pos, &params, pos.hash())
    }

    /// Gold's elephant on d4 takes the dog on d6 in three steps (d5, then
    /// push it onto c6): beyond the static score's one push or pull.
    fn dog_hangs(guarded: bool) -> Position {
        let row7 = if guarded { "  c     " } else { "        " };
        board(
            'g',
            [
                "rrrrrrrr", row7, "   d    ", "        ", "   E    ", "        ", "        ",
                "RRRRRRRR",
            ],
        )
    }

    #[test]
    fn takes_a_capture_at_the_horizon() {
        let pos = dog_hangs(false);
        let e = Evaluator::default().evaluate(&pos);
        let gain = material::gain_of_capture(&pos, Color::Gold, Kind::Dog);
        let (plain, _) = leaf(&pos, 0);
        assert_eq!(plain, e, "without quiescence the static score stands");
        let (q, nodes) = leaf(&pos, 1);
        assert!(
            q >= e + gain / 2,
            "quiescence should see the dog fall: {q} against static {e}, gain {gain}"
        );
        assert!(nodes > 1, "no capture was played");
        // With a second guard on c7 the dog cannot be taken in one turn:
        // the quiescence adds nothing and the static score stands.
        let pos = dog_hangs(true);
        let e = Evaluator::default().evaluate(&pos);
        assert_eq!(leaf(&pos, 2).0, e);
    }

    #[test]
    fn sees_the_threat_a_plain_leaf_misses() {
        // Gold has just moved and left its dog on d3 where silver's
        // elephant takes it in three steps (d4, then push it onto c3): a
        // one-turn search ends here, at silver's turn start, and only the
        // quiescence sees the dog fall. Seen from gold's side of the tree
        // that is the threat gold's turn failed to parry.
        let pos = board(
            's',
            [
                "rrrrrrrr", "        ", "        ", "   e    ", "        ", "   D    ", "        ",
                "RRRRRRRR",
            ],
        );
        let e = Evaluator::default().evaluate(&pos);
        let gain = material::gain_of_capture(&pos, Color::Silver, Kind::Dog);
        assert_eq!(leaf(&pos, 0).0, e);
        let (q, _) = leaf(&pos, 2);
        assert!(
            q >= e + gain / 2,
            "silver's capture was missed: {q} against static {e}, gain {gain}"
        );
    }

    #[test]
    fn a_reply_turn_never_raises_the_score() {
        // After gold's capture turn silver may capture in turn or stand pat
        // on its static score, so a second turn can only lower gold's score.
        let pos = dog_hangs(false);
        let (one, _) = leaf(&pos, 1);
        let (two, _) = leaf(&pos, 2);
        assert!(two <= one, "a reply turn raised the score: {two} > {one}");
    }
}
