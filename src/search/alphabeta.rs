//! The step-based alpha-beta search below the root.
//!
//! Depth counts steps. A node is a position part way through a turn; its
//! children are the actions that fit in the steps left (a push or pull uses
//! two) and, once the board has changed, ending the turn ("pass"), which
//! forfeits the unused steps. The score changes sign only when the turn
//! passes to the other side. Rules that end the game are applied at every
//! turn start, and a side that reaches goal or takes the last enemy rabbit
//! mid-turn is scored as winning at once, because it may end its turn there.
//!
//! A leaf part way through a turn is scored for the side still to move,
//! with its steps left (`midturn_eval`): ending the turn there instead
//! would forfeit them, so an opponent's reply at depths 5-7 could never be
//! more than a push or pull. When the other side threatens goal the turn
//! ends there after all, so that the threat is judged at a turn start.

use super::bigtable::ZeroedTable;
use super::params::Params;
use super::tt::{Bound, PASS, TranspositionTable, WIN, WIN_BOUND, entry_action};
use crate::board::stepgen::{ActionList, generate_actions};
use crate::board::turngen::History;
use crate::board::{Action, ActionKind, Bitboard, Color, Position, STEPS_PER_TURN, Undo};
use crate::eval::nnue::Accumulators;
use crate::eval::{Evaluator, material};
use crate::tactics::goal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod horizon;
mod quiesce;

pub use horizon::TurnSteps;

/// Larger than any score: marks "no legal continuation" inside a turn.
pub const INF: i32 = 32_000;

/// Per-thread search state.
pub struct Worker<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a Evaluator,
    pub params: &'a Params,
    /// Turn-start occurrence counts of the game before the root.
    pub history: &'a History,
    /// Turn-start hashes on the current search path (below the root).
    pub path: Vec<u64>,
    pub nodes: u64,
    pub stop: &'a AtomicBool,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub aborted: bool,
    /// Node total shared by all threads, for reports; this worker adds its
    /// count every 1024 nodes.
    pub shared_nodes: Option<&'a std::sync::atomic::AtomicU64>,
    flushed: u64,
    /// Goal-detection answers by turn-start hash: the same leaves recur
    /// across root turns and iterations, and the detector is costly where
    /// many rabbits are near goal.
    goal_cache: ZeroedTable<u64>,
    /// Cut-off statistics by colour and first step (from * 64 + to).
    hist: Vec<i32>,
    /// A position's hash and its static score, known to the caller: the
    /// root's ordering pass has evaluated every root turn, and a search one
    /// turn deep would otherwise evaluate each of them again at its leaf.
    pub known_eval: Option<(u64, i32)>,
    /// Static scores by search key: one turn-start position is reached by
    /// many orders of the same steps, and each order ends in the same leaf,
    /// which the table cannot answer because leaves are scored before it
    /// is probed. Direct-mapped, replaced on collision; a slot holds the
    /// key (0 = empty) and the score.
    eval_cache: ZeroedTable<(u64, i32)>,
    /// Killer actions by ply (`killers`), the newest first.
    killers: Vec<[u32; 4]>,
    /// The learned evaluation's accumulators along the path, when the
    /// evaluator has a net: every action made and unmade below the root
    /// goes through [`Worker::make`] and [`Worker::unmake`] to keep them.
    nn: Option<Accumulators>,
    /// The root of [`Worker::set_root_child`] and its accumulators.
    nn_root: Option<(Position, crate::eval::nnue::Accumulator)>,
}

/// Slots of the per-thread static-score cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

/// What a node needs beyond its position.
#[derive(Copy, Clone)]
pub struct NodeCtx {
    /// Hash of the position this turn began in (ending the turn on the
    /// same board is illegal).
    pub turn_start: u64,
    pub depth: i32,
    /// Steps from the root, for win distances and per-ply tables.
    pub ply: i32,
    /// Goal-threat extensions still allowed on this path.
    pub ext_left: u32,
    /// A null move may be tried here: false for the turn that follows one,
    /// so that no side passes twice in a row.
    pub null_ok: bool,
    /// In a turn searched to defend against a goal threat (`goal_def_area`):
    /// the squares whose contents decide whether the attacker's goal line
    /// still works. Empty everywhere else.
    pub defend: Bitboard,
    /// A quiet step of this turn was searched shallower already
    /// (`quiet_reduce`): a turn is reduced once, not step by step.
    pub reduced: bool,
    /// The action that led here within this turn (raw; 0 at a turn start),
    /// for searching commuting actions in one order (`commute`).
    pub prev: u32,
    /// The steps of this turn so far.
    pub cur: TurnSteps,
    /// The steps of the turn before this one (empty for the root's turn
    /// and after a null move), which began on the board hashed
    /// `last_start`: what the horizon pruning of needless turns judges.
    pub last: TurnSteps,
    pub last_start: u64,
}

impl NodeCtx {
    /// A turn start on `pos` (its hash the turn's start), nothing known of
    /// the turn before.
    pub fn new_turn(pos: &Position, depth: i32, ply: i32, ext_left: u32) -> NodeCtx {
        NodeCtx {
            turn_start: pos.hash(),
            depth,
            ply,
            ext_left,
            null_ok: true,
            defend: Bitboard::EMPTY,
            reduced: false,
            prev: 0,
            cur: TurnSteps::begin(pos),
            last: TurnSteps::default(),
            last_start: 0,
        }
    }
}

/// What became of a node out of depth.
enum Leaf {
    Score(i32),
    /// Searched one more turn, `ctx` set for it.
    Extend,
}

impl<'a> Worker<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a TranspositionTable,
        eval: &'a Evaluator,
        params: &'a Params,
        history: &'a History,
        stop: &'a AtomicBool,
        hard_deadline: Option<Instant>,
        node_limit: Option<u64>,
    ) -> Worker<'a> {
        Worker {
            tt,
            eval,
            params,
            history,
            path: Vec::with_capacity(64),
            nodes: 0,
            stop,
            hard_deadline,
            node_limit,
            aborted: false,
            shared_nodes: None,
            flushed: 0,
            goal_cache: ZeroedTable::zeroed(GOAL_CACHE_SIZE),
            hist: vec![0; 2 * 64 * 64],
            known_eval: None,
            eval_cache: ZeroedTable::zeroed(EVAL_CACHE_SIZE),
            killers: vec![[0; 4]; MAX_KILLER_PLY],
            nn: eval
                .net
                .clone()
                .map(|net| Accumulators::new(net, &Position::empty(Color::Gold))),
            nn_root: None,
        }
    }

    /// Sets the position the next [`Worker::search`] starts from, `child`
    /// a turn away from `root`: the accumulators come from `root`'s (kept
    /// while the root stays the same) by the pieces that differ, not
    /// afresh; the root's turns are searched one after another this way
    /// at every depth.
    #[inline]
    pub fn set_root_child(&mut self, root: &Position, child: &Position) {
        if let Some(nn) = &mut self.nn {
            let fresh = self
                .nn_root
                .as_ref()
                .is_none_or(|(p, _)| p.hash() != root.hash() || p != root);
            if fresh {
                self.nn_root = Some((root.clone(), nn.net().refresh(root)));
            }
            let (p, acc) = self.nn_root.as_ref().expect("set above");
            let child_acc = nn.net().update_from(p, acc, child);
            nn.reset_to(child_acc);
        }
    }

    /// Plays `a` on `pos`, keeping the accumulators in step.
    #[inline(always)]
    pub(super) fn make(&mut self, pos: &mut Position, a: Action) -> Undo {
        match &mut self.nn {
            Some(nn) => nn.make(pos, a),
            None => pos.make_action(a),
        }
    }

    /// Takes back [`Worker::make`].
    #[inline(always)]
    pub(super) fn unmake(&mut self, pos: &mut Position, undo: Undo) {
        match &mut self.nn {
            Some(nn) => nn.unmake(pos, undo),
            None => pos.unmake_action(undo),
        }
    }

    /// The static score of `pos`, the position the search stands on.
    #[inline]
    fn eval_now(&self, pos: &Position) -> i32 {
        match &self.nn {
            Some(nn) => {
                let e = self.eval.evaluate_net(nn, pos);
                debug_assert_eq!(e, self.eval.evaluate(pos), "accumulators out of step");
                e
            }
            None => self.eval.evaluate(pos),
        }
    }

    /// The static score of `pos`, from [`Worker::known_eval`] when it is
    /// that position.
    #[inline]
    fn static_eval(&mut self, pos: &Position) -> i32 {
        match self.known_eval {
            Some((hash, e)) if hash == pos.hash() => e,
            _ => {
                let key = pos.search_key();
                let i = key as usize & (EVAL_CACHE_SIZE - 1);
                let slot = self.eval_cache[i];
                if slot.0 == key && key != 0 {
                    return slot.1;
                }
                let e = self.eval_now(pos);
                self.eval_cache[i] = (key, e);
                e
            }
        }
    }

    /// Checks the stop flag, the clock and the node budget.
    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        self.flush_nodes();
        if self.stop.load(Ordering::Relaxed)
            || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// Fewest steps to goal for the side to move of a turn-start `pos`.
    #[inline]
    fn goal_in(&mut self, pos: &Position) -> Option<u8> {
        // Most positions have no rabbit in reach: settled without the cache.
        if goal::rabbits_in_reach(pos, pos.side(), pos.steps_left()).is_empty() {
            return None;
        }
        self.cached_goal(pos.search_key(), || goal::goal_distance(pos))
    }

    /// Fewest steps to goal for `color` with a fresh turn on `pos`'s board.
    #[inline]
    fn threat_of(&mut self, pos: &Position, color: Color) -> Option<u8> {
        if goal::rabbits_in_reach(pos, color, STEPS_PER_TURN).is_empty() {
            return None;
        }
        // The same board with `color` to move: its hash is the key.
        let key = if color == pos.side() {
            pos.hash()
        } else {
            pos.hash() ^ crate::board::zobrist::SIDE
        };
        self.cached_goal(key, || goal::goal_threat(pos, color))
    }

    #[inline]
    fn cached_goal(&mut self, key: u64, compute: impl FnOnce() -> Option<u8>) -> Option<u8> {
        // Entry: the key's upper 61 bits, then the answer + 1 (0-4 steps,
        // 7 for none), so an empty slot (0) never matches.
        let slot = (key as usize) & (GOAL_CACHE_SIZE - 1);
        let e = self.goal_cache[slot];
        if e != 0 && e & !7 == key & !7 {
            let v = (e & 7) as u8;
            return if v == 7 { None } else { Some(v - 1) };
        }
        let r = compute();
        self.goal_cache[slot] = (key & !7) | r.map_or(7, |n| n as u64 + 1);
        r
    }

    /// Adds the nodes counted since the last flush to the shared total.
    pub fn flush_nodes(&mut self) {
        if let Some(n) = self.shared_nodes {
            n.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Nodes of every thread so far (this one's unflushed ones included).
    pub fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(n) => n.load(Ordering::Relaxed) + (self.nodes - self.flushed),
            None => self.nodes,
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

    /// Ends the turn of `pos` and searches the opponent's turn; `None` when
    /// ending the turn here is illegal (repetition).
    #[inline]
    fn search_pass(
        &mut self,
        pos: &mut Position,
        ctx: NodeCtx,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (side, steps) = (pos.side(), pos.steps_left());
        pos.pass_turn();
        let h = pos.hash();
        let s = if self.pass_allowed(h) {
            self.path.push(h);
            let c = NodeCtx {
                last: ctx.cur,
                last_start: ctx.turn_start,
                ..NodeCtx::new_turn(
                    pos,
                    ctx.depth - steps as i32,
                    ctx.ply + steps as i32,
                    ctx.ext_left,
                )
            };
            let s = -self.search(pos, c, -beta, -alpha);
            self.path.pop();
            Some(s)
        } else {
            None
        };
        unpass(pos, side, steps);
        s
    }

    /// Searches `pos` with the window (`alpha`, `beta`).
    pub fn search(&mut self, pos: &mut Position, ctx: NodeCtx, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if let Some(s) = self.decided(pos, &ctx) {
            return s;
        }
        // The opponent's last turn was needless (`undo_prune`,
        // `freecap_prune`): it fails, whatever lies below.
        if pos.at_turn_start()
            && !ctx.last.is_empty()
            && beta.abs() < WIN_BOUND
            && self.needless_last_turn(pos, &ctx.last, ctx.last_start, ctx.depth)
        {
            return beta;
        }
        let mut ctx = ctx;
        if ctx.depth <= 0 {
            match self.leaf(pos, &mut ctx, alpha, beta) {
                Leaf::Score(s) => return s,
                // A goal threat above beta: one more turn to defend.
                Leaf::Extend => {}
            }
        }
        let (ply, depth) = (ctx.ply, ctx.depth);
        let me = pos.side();
        let at_start = pos.at_turn_start();
        let pv_node = beta - alpha > 1;

        let key = pos.search_key();
        let mut hash_action = 0;
        if let Some(e) = self.tt.probe(key, ply) {
            hash_action = e.action;
            if !pv_node && e.cuts(depth, alpha, beta) {
                return e.score;
            }
        }

        if at_start
            && ctx.null_ok
            && !pv_node
            && let Some(s) = self.null_move(pos, &ctx, beta)
        {
            return s;
        }
        // Under a goal threat the turn is owed to the defence: only the
        // actions near the threat's goal line, and none means the loss.
        let mut threat_steps = None;
        if at_start && self.params.threat_defend && ctx.defend.is_empty() {
            threat_steps = self.threat_of(pos, me.opp());
            if threat_steps.is_some()
                && let Some(plan) = goal::threat_plan(pos, me.opp())
            {
                ctx.defend = goal::defence_area(&plan);
            }
        }

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_action = 0u32;
        let can_pass = !at_start && pos.hash() != ctx.turn_start;
        let mut passed = !can_pass;
        let mut searched = 0usize;

        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        if list.is_empty() && at_start {
            // No legal step at all: immobilised, a loss.
            return -(WIN - ply);
        }
        if ctx.defend.any() {
            let strict = self.params.threat_defend;
            self.keep_defences(pos, &mut list, ctx.defend, strict);
            if list.is_empty() && at_start {
                // Every turn leaves the goal line as it is.
                let n = threat_steps.unwrap_or(STEPS_PER_TURN) as i32;
                return -(WIN - (ply + STEPS_PER_TURN as i32 + n));
            }
        }
        let n = list.len();
        let mut scores = [0i32; crate::board::stepgen::MAX_ACTIONS];
        self.order(
            pos,
            list.as_slice(),
            &mut scores[..n],
            hash_action,
            depth,
            ply,
        );
        let pass_first = hash_action == PASS;
        // The action that led here, for `commute` (0 at a turn start).
        let prev =
            (self.params.commute && ctx.prev != 0).then(|| Action::from_raw(ctx.prev).footprint());
        let mut tried: [u32; 64] = [0; 64];
        let mut ntried = 0usize;

        let mut i = 0usize;
        loop {
            // The pass goes first when the table says so, else second.
            let is_pass = !passed && (pass_first || searched == 1 || i >= n);
            let first = searched == 0 || !self.params.pvs;
            let (action, s) = if is_pass {
                passed = true;
                match self.pvs_pass(pos, ctx, alpha, beta, first) {
                    Some(s) => (PASS, s),
                    None => continue,
                }
            } else {
                if i >= n {
                    break;
                }
                let a = pick_best(list.as_mut_slice(), &mut scores[..n], i);
                // Two actions that commute reach one position in either
                // order: only the order with the larger second is searched.
                if let Some(fp) = &prev
                    && a.raw() < ctx.prev
                    && fp.commutes_with(a)
                {
                    i += 1;
                    continue;
                }
                let how = if first {
                    Try::Full
                } else if scores[i] < QUIET_BELOW
                    && depth >= self.params.quiet_reduce_from
                    && ctx.defend.is_empty()
                    && !ctx.reduced
                {
                    Try::Null {
                        reduce: self.params.quiet_reduce,
                    }
                } else {
                    Try::Null { reduce: 0 }
                };
                i += 1;
                (a.raw(), self.pvs_action(pos, a, ctx, alpha, beta, how))
            };
            if self.aborted {
                return 0;
            }
            searched += 1;
            if s > best {
                best = s;
                best_action = action;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        if !is_pass {
                            self.reward(Action::from_raw(action), &tried[..ntried], me, depth);
                            self.remember_killer(action, ply);
                        }
                        return self.finish(key, ply, depth, best, alpha0, beta, best_action);
                    }
                }
            }
            if !is_pass && ntried < tried.len() {
                tried[ntried] = action;
                ntried += 1;
            }
        }
        if best == -INF {
            // Nothing legal follows. At a turn start that means every turn
            // would be a third repetition: the side to move has lost.
            return if at_start { -(WIN - ply) } else { -INF };
        }
        self.finish(key, ply, depth, best, alpha0, beta, best_action)
    }

    /// Null move at a turn start (`null_reduction`): the side to move gives
    /// its whole turn away and the opponent's reply is searched
    /// `null_reduction` steps shallower than a real turn would allow. When
    /// even that stays at or above beta, a real turn would too (Arimaa has
    /// almost no positions where every turn hurts), so the node fails high
    /// at a fraction of its cost. Not tried when the static score is below
    /// beta (the pass would rarely hold), near a decided score, or when the
    /// opponent threatens goal (passing would lose at once and teach
    /// nothing).
    #[inline]
    fn null_move(&mut self, pos: &mut Position, ctx: &NodeCtx, beta: i32) -> Option<i32> {
        let r = self.params.null_reduction;
        if r == 0 || ctx.depth < self.params.null_min_depth || beta.abs() >= WIN_BOUND {
            return None;
        }
        let me = pos.side();
        if self.static_eval(pos) < beta || self.threat_of(pos, me.opp()).is_some() {
            return None;
        }
        let steps = pos.steps_left();
        pos.pass_turn();
        let c = NodeCtx {
            null_ok: false,
            ..NodeCtx::new_turn(
                pos,
                (ctx.depth - STEPS_PER_TURN as i32 - r).max(0),
                ctx.ply + steps as i32,
                ctx.ext_left,
            )
        };
        let s = -self.search(pos, c, -beta, -beta + 1);
        unpass(pos, me, steps);
        // A win seen only after a free turn proves nothing: keep to beta.
        (!self.aborted && s >= beta).then(|| s.min(WIN_BOUND - 1))
    }

    /// The score of a node the rules (or goal detection) settle before any
    /// search: a goal reached or to come this turn, the last rabbit gone.
    #[inline]
    fn decided(&mut self, pos: &Position, ctx: &NodeCtx) -> Option<i32> {
        let ply = ctx.ply;
        let me = pos.side();
        let opp = me.opp();
        if pos.at_turn_start() {
            // The end-of-game rules, the side that just moved first.
            if pos.has_goal(opp) || pos.rabbits(me).is_empty() {
                return Some(-(WIN - ply));
            }
            if pos.has_goal(me) || pos.rabbits(opp).is_empty() {
                return Some(WIN - ply);
            }
        } else if pos.has_goal(me) || (pos.rabbits(opp).is_empty() && !pos.has_goal(opp)) {
            // Ending the turn now wins (the board has changed, and such a
            // position cannot have occurred before).
            return Some(WIN - ply);
        }
        // A goal this turn (with the steps left) wins, whatever else the
        // position holds. (At leaves this waits until the static score
        // says it matters.)
        if ctx.depth > 0
            && self.params.goal_detection
            && let Some(n) = self.goal_in(pos)
        {
            return Some(WIN - (ply + n as i32));
        }
        None
    }

    /// A node out of depth. Mid-turn the side to move keeps its steps
    /// (`midturn_eval`): a goal within them wins, else its static score
    /// stands, unless the other side threatens goal; then, or with the
    /// option off, the turn ends here, if it may. At a
    /// turn start the static score stands, except that a goal this turn
    /// wins, and a goal threat of the opponent makes a score above beta
    /// untrustworthy: then the side to move gets one whole turn to defend
    /// (the opponent's goal is seen at its next turn start) and `ctx` is
    /// set for it. Below alpha neither threat nor defence can lift the
    /// score, and above beta a goal of our own adds nothing.
    /// Below beta a capture still can: the quiescence search (`qsearch`)
    /// resolves them.
    #[inline]
    fn leaf(&mut self, pos: &mut Position, ctx: &mut NodeCtx, alpha: i32, beta: i32) -> Leaf {
        let ply = ctx.ply;
        if !pos.at_turn_start() {
            // The mover keeps its steps: ending the turn here would forfeit
            // them, and a capture it has half made would go unseen.
            if self.params.midturn_eval && pos.steps_left() > 0 {
                if self.params.goal_detection
                    && let Some(n) = self.goal_in(pos)
                {
                    return Leaf::Score(WIN - (ply + n as i32));
                }
                match self.threat_of(pos, pos.side().opp()) {
                    None => {
                        let e = self.static_eval(pos);
                        let turns = self.params.midturn_qsearch;
                        let start = ctx.turn_start;
                        return Leaf::Score(
                            self.quiesce_midturn(pos, start, ply, e, alpha, beta, turns),
                        );
                    }
                    Some(n) if u32::from(pos.steps_left()) <= self.params.midturn_defend => {
                        if let Some(leaf) = self.midturn_defence(pos, ctx, n) {
                            return leaf;
                        }
                    }
                    Some(_) => {}
                }
            }
            if pos.hash() != ctx.turn_start
                && let Some(s) = self.search_pass(pos, NodeCtx { depth: 0, ..*ctx }, alpha, beta)
            {
                return Leaf::Score(s);
            }
            // A turn that used every step to come back to its start board
            // is illegal; with steps left the side could still change it.
            if pos.steps_left() == 0 {
                return Leaf::Score(-INF);
            }
            return Leaf::Score(self.eval_now(pos));
        }
        let e = self.static_eval(pos);
        // Where a threat could pull the score below what the window asks.
        let extend =
            e >= beta && ctx.ext_left > 0 && self.threat_of(pos, pos.side().opp()).is_some();
        if e >= beta && !extend {
            return Leaf::Score(e);
        }
        if self.params.goal_detection
            && let Some(n) = self.goal_in(pos)
        {
            return Leaf::Score(WIN - (ply + n as i32));
        }
        if !extend {
            return Leaf::Score(self.quiesce(pos, ply, e, alpha, beta, self.params.qsearch));
        }
        ctx.depth = STEPS_PER_TURN as i32;
        ctx.ext_left -= 1;
        if self.params.goal_def_area
            && let Some(plan) = goal::threat_plan(pos, pos.side().opp())
        {
            ctx.defend = goal::defence_area(&plan);
        }
        Leaf::Extend
    }

    /// A mid-turn leaf of the side to move, which the other side threatens
    /// to goal in `n` steps (`midturn_defend`): lost when no action within
    /// the steps left comes near the threat's goal line (passing now lets
    /// it be played), else, while the path allows an extension, the rest
    /// of the turn is searched among those actions. `None` leaves the leaf
    /// to end the turn as before.
    fn midturn_defence(&mut self, pos: &Position, ctx: &mut NodeCtx, n: u8) -> Option<Leaf> {
        let me = pos.side();
        let plan = goal::threat_plan(pos, me.opp())?;
        let area = goal::defence_area(&plan);
        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        self.keep_defences(pos, &mut list, area, true);
        let steps = pos.steps_left() as i32;
        if list.is_empty() {
            return Some(Leaf::Score(-(WIN - (ctx.ply + steps + n as i32))));
        }
        if ctx.ext_left == 0 {
            return None;
        }
        ctx.ext_left -= 1;
        ctx.depth = steps;
        ctx.defend = area;
        Some(Leaf::Extend)
    }

    /// In a turn that must stop a goal line (`ctx.defend`), keeps only the
    /// actions that touch the line's squares or come near enough to them
    /// that the steps left could still reach them (`goal_def_slack` more
    /// squares allowed for a step that frees another piece's way). A turn
    /// that leaves every one of those squares as it found them lets the
    /// line be played, and loses. When nothing is left the list stays
    /// empty if `strict`, else the full list stays, so the node is
    /// searched as before.
    #[inline]
    fn keep_defences(&self, pos: &Position, list: &mut ActionList, defend: Bitboard, strict: bool) {
        let steps = pos.steps_left() as usize;
        // zone[k]: the squares at most k steps from the area.
        let mut zone = [defend; STEPS_PER_TURN as usize + 5];
        for k in 1..zone.len() {
            zone[k] = zone[k - 1] | zone[k - 1].neighbors();
        }
        let slack = self.params.goal_def_slack as usize;
        let near = |a: &Action| {
            let reach = (steps - a.cost() as usize + slack).min(zone.len() - 1);
            (a.squares() & zone[reach]).any()
        };
        if strict {
            list.retain(near);
        } else {
            list.retain_if_any(near);
        }
    }

    /// Ordering scores: hash move, captures near the root, pushes and
    /// pulls and the tactical single steps, then history. The quiet steps
    /// (for `quiet_reduce`) are those scored below [`QUIET_BELOW`].
    #[inline]
    fn order(
        &self,
        pos: &Position,
        list: &[Action],
        scores: &mut [i32],
        hash_action: u32,
        depth: i32,
        ply: i32,
    ) {
        let me = pos.side();
        let hash = entry_action(hash_action);
        let killers =
            &self.killers[(ply as usize).min(MAX_KILLER_PLY - 1)][..self.params.killers as usize];
        let tactical = if self.params.quiet_reduce > 0 && depth >= self.params.quiet_reduce_from {
            tactical_zone(pos)
        } else {
            TacticalZone::ALL
        };
        for (a, s) in list.iter().zip(scores.iter_mut()) {
            *s = if Some(*a) == hash {
                HASH_SCORE
            } else if let Some(k) = killers.iter().position(|&k| k == a.raw()) {
                KILLER_SCORE - k as i32
            } else {
                let base = if a.kind() != ActionKind::Single || tactical.covers(pos, *a) {
                    PUSH_SCORE
                } else {
                    0
                };
                let h = if self.params.history {
                    self.hist[hist_index(*a, me)]
                } else {
                    0
                };
                base + h
            };
        }
        // Near the root, first actions of captures found by the detector go
        // right after the hash move (the detector costs a few microseconds,
        // small beside the subtree of such a node).
        if self.params.capture_order > 0
            && depth >= self.params.capture_order
            && pos.steps_left() >= 2
        {
            let caps = crate::tactics::capture::capture_threats(pos, me, pos.steps_left());
            for sq in caps.squares() {
                if let Some(first) = caps.first_action(sq)
                    && let Some(i) = list.iter().position(|&a| a == first)
                    && scores[i] < HASH_SCORE
                {
                    scores[i] = CAPTURE_SCORE + material::gain_of_capture(pos, me, pos.kind_at(sq));
                }
            }
        }
    }

    /// Ends the turn and searches on: the full window for the first child
    /// (or without PVS), else a null window first.
    #[inline]
    fn pvs_pass(
        &mut self,
        pos: &mut Position,
        ctx: NodeCtx,
        alpha: i32,
        beta: i32,
        first: bool,
    ) -> Option<i32> {
        if first {
            return self.search_pass(pos, ctx, alpha, beta);
        }
        match self.search_pass(pos, ctx, alpha, alpha + 1) {
            Some(s) if s > alpha && s < beta => self.search_pass(pos, ctx, alpha, beta),
            other => other,
        }
    }

    /// Plays `a` and searches on: the full window for the first child (or
    /// without PVS), else a null window first; with `reduce`, a null
    /// window that many steps shallower before all that, which settles
    /// the action when it does not beat alpha.
    #[inline]
    fn pvs_action(
        &mut self,
        pos: &mut Position,
        a: Action,
        ctx: NodeCtx,
        alpha: i32,
        beta: i32,
        how: Try,
    ) -> i32 {
        let undo = self.make(pos, a);
        let cost = a.cost() as i32;
        let c = NodeCtx {
            depth: ctx.depth - cost,
            ply: ctx.ply + cost,
            prev: a.raw(),
            cur: ctx.cur.with(a),
            ..ctx
        };
        if let Try::Null { reduce } = how
            && reduce > 0
        {
            let r = NodeCtx {
                depth: c.depth - reduce,
                reduced: true,
                ..c
            };
            let s = self.search(pos, r, alpha, alpha + 1);
            if s <= alpha || self.aborted {
                self.unmake(pos, undo);
                return s;
            }
        }
        let s = if how == Try::Full {
            self.search(pos, c, alpha, beta)
        } else {
            let s = self.search(pos, c, alpha, alpha + 1);
            if s > alpha && s < beta && !self.aborted {
                self.search(pos, c, alpha, beta)
            } else {
                s
            }
        };
        self.unmake(pos, undo);
        s
    }

    /// Credits the action that cut off, and debits the quiet ones tried
    /// before it.
    fn reward(&mut self, a: Action, tried: &[u32], me: Color, depth: i32) {
        if self.params.history {
            let bonus = (depth * depth).min(400);
            let h = &mut self.hist[hist_index(a, me)];
            *h += bonus - *h * bonus / HIST_MAX;
            for &t in tried {
                let h = &mut self.hist[hist_index(Action::from_raw(t), me)];
                *h -= bonus + *h * bonus / HIST_MAX;
            }
        }
    }

    /// Makes `action`, which cut off at `ply`, that ply's first killer.
    #[inline]
    fn remember_killer(&mut self, action: u32, ply: i32) {
        let n = self.params.killers as usize;
        if n > 0 {
            let k = &mut self.killers[(ply as usize).min(MAX_KILLER_PLY - 1)];
            if let Some(at) = k[..n].iter().position(|&x| x == action) {
                k[..=at].rotate_right(1);
            } else {
                k[..n].rotate_right(1);
                k[0] = action;
            }
        }
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
            self.tt
                .store(key, ply, action, best, depth, Bound::of(best, alpha0, beta));
        }
        best
    }
}

/// Entries of the goal cache (a power of two; 2 MB).
const GOAL_CACHE_SIZE: usize = 1 << 18;

const HASH_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 29;
/// Killers (`killers`), the newest highest: below the captures, above
/// every push, pull and tactical step.
const KILLER_SCORE: i32 = 1 << 25;
const PUSH_SCORE: i32 = 1 << 20;
/// Plies with their own killer slots (deeper ones share the last).
const MAX_KILLER_PLY: usize = 128;
/// History values stay within +-HIST_MAX (gravity in `reward`).
const HIST_MAX: i32 = 1 << 13;
/// Ordering scores below this are the quiet actions (history only).
const QUIET_BELOW: i32 = PUSH_SCORE / 2;

/// Where a single step counts as tactical (`quiet_reduce` spares it): the
/// side to move's pieces the opponent could capture next turn and the
/// squares two steps around them (where their trap's guards stand), and
/// the far half, where a rabbit's advance builds goal threats.
#[derive(Copy, Clone)]
struct TacticalZone {
    threatened: Bitboard,
    guard: Bitboard,
    far_half: Bitboard,
}

impl TacticalZone {
    /// Every step is tactical (the zone where none is reduced).
    const ALL: TacticalZone = TacticalZone {
        threatened: Bitboard::ALL,
        guard: Bitboard::ALL,
        far_half: Bitboard::ALL,
    };

    /// Whether the single step `a` escapes a threatened piece, steps
    /// where it may guard one, or advances a rabbit in the far half.
    #[inline]
    fn covers(&self, pos: &Position, a: Action) -> bool {
        let st = a.first();
        if self.threatened.contains(st.from) || self.guard.contains(st.to) {
            return true;
        }
        let me = pos.side();
        self.far_half.contains(st.to)
            && pos.kind_at(st.from) == crate::board::Kind::Rabbit
            && st.to.rank().abs_diff(me.goal_rank()) < st.from.rank().abs_diff(me.goal_rank())
    }
}

/// The [`TacticalZone`] of the side to move of `pos`.
fn tactical_zone(pos: &Position) -> TacticalZone {
    let me = pos.side();
    let threatened =
        crate::tactics::capture::capture_threats(pos, me.opp(), STEPS_PER_TURN).squares();
    let near = threatened | threatened.neighbors();
    let far_half = if me == Color::Gold {
        Bitboard(0xFFFF_FFFF_0000_0000)
    } else {
        Bitboard(0x0000_0000_FFFF_FFFF)
    };
    TacticalZone {
        threatened,
        guard: near | near.neighbors(),
        far_half,
    }
}

/// How [`Worker::pvs_action`] searches its child.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Try {
    /// The full window at once (the first child, or without PVS).
    Full,
    /// A null window first (`reduce` steps shallower, then at full depth,
    /// while it beats alpha), the full window when that lands inside it.
    Null { reduce: i32 },
}

/// Takes back `pass_turn` on a position that was `side` to move with
/// `steps` left.
#[inline]
fn unpass(pos: &mut Position, side: Color, steps: u8) {
    pos.set_side(side);
    pos.set_steps_left(steps);
}

/// Moves the best-scored of the actions from `i` on to `i` and returns it
/// (selection: most nodes cut off after a few).
#[inline]
fn pick_best(list: &mut [Action], scores: &mut [i32], i: usize) -> Action {
    let mut bi = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[bi] {
            bi = j;
        }
    }
    list.swap(i, bi);
    scores.swap(i, bi);
    list[i]
}

#[inline]
fn hist_index(a: Action, me: Color) -> usize {
    let s = a.first();
    me.index() * 4096 + s.from.index() * 64 + s.to.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;

    /// The score of `pos` searched to depth 0 with `params` and the full
    /// window, its turn begun on the board hashed `turn_start`, and the
    /// nodes it took (shared with the quiescence tests).
    pub(super) fn depth0(pos: &Position, params: &Params, turn_start: u64) -> (i32, u64) {
        out_of_depth(pos, params, turn_start, 0, -INF, INF)
    }

    /// [`depth0`] with `ext_left` goal-threat extensions allowed.
    fn out_of_depth(
        pos: &Position,
        params: &Params,
        turn_start: u64,
        ext_left: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, u64) {
        let tt = TranspositionTable::new(1);
        let eval = Evaluator::default();
        let history = History::default();
        let stop = AtomicBool::new(false);
        let mut w = Worker::new(&tt, &eval, params, &history, &stop, None, None);
        let mut p = pos.clone();
        let ctx = NodeCtx {
            turn_start,
            ..NodeCtx::new_turn(pos, 0, 0, ext_left)
        };
        let s = w.search(&mut p, ctx, alpha, beta);
        assert_eq!(p, *pos, "the search left the position changed");
        (s, w.nodes)
    }

    /// The score of the turn-start `pos` searched `depth` steps with
    /// `params` and the full window, and the nodes it took.
    fn searched(pos: &Position, params: &Params, depth: i32) -> (i32, u64) {
        let tt = TranspositionTable::new(1);
        let eval = Evaluator::default();
        let history = History::default();
        let stop = AtomicBool::new(false);
        let mut w = Worker::new(&tt, &eval, params, &history, &stop, None, None);
        let mut p = pos.clone();
        let ctx = NodeCtx {
            null_ok: false,
            ..NodeCtx::new_turn(pos, depth, 0, 0)
        };
        let s = w.search(&mut p, ctx, -INF, INF);
        assert_eq!(p, *pos, "the search left the position changed");
        (s, w.nodes)
    }

    #[test]
    fn killers_go_after_captures_newest_first_and_escape_the_quiet_reduction() {
        let params = Params {
            killers: 2,
            ..Params::default()
        };
        let tt = TranspositionTable::new(1);
        let eval = Evaluator::default();
        let history = History::default();
        let stop = AtomicBool::new(false);
        let mut w = Worker::new(&tt, &eval, &params, &history, &stop, None, None);
        let pos = Position::standard_opening();
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        let (a, b, c) = (list.as_slice()[0], list.as_slice()[1], list.as_slice()[2]);
        for k in [a, b, a, c] {
            w.remember_killer(k.raw(), 5);
        }
        // The slots hold c then a (a came back to the front, then c).
        let mut scores = vec![0; list.len()];
        w.order(&pos, list.as_slice(), &mut scores, 0, 8, 5);
        let at = |x: Action| list.as_slice().iter().position(|&y| y == x).unwrap();
        let rank = |x: Action| scores[at(x)];
        assert!(rank(c) > rank(a), "the newest killer first");
        assert!(rank(a) > rank(b), "b fell out of the two slots");
        assert!(rank(a) >= QUIET_BELOW, "a killer is not a quiet step");
        let best_other = list
            .as_slice()
            .iter()
            .filter(|&&x| x != a && x != c)
            .map(|&x| rank(x))
            .max()
            .unwrap();
        assert!(rank(a) > best_other);
        // Another ply keeps its own killers.
        let mut other = vec![0; list.len()];
        w.order(&pos, list.as_slice(), &mut other, 0, 8, 6);
        assert!(other[at(a)] < KILLER_SCORE - 2 && other[at(c)] < KILLER_SCORE - 2);
    }

    fn board(side: char, rows: [&str; 8]) -> Position {
        parse_side_and_board(&format!("{side} [{}]", rows.concat())).unwrap()
    }

    /// [`searched`] to depth 4 with `threat_defend` on, then off.
    /// (Every order of a turn's actions is searched, so that the node
    /// counts do not depend on `commute`.)
    fn threat_defend_on_and_off(pos: &Position) -> ((i32, u64), (i32, u64)) {
        let on = Params {
            commute: false,
            ..Params::default()
        };
        let off = Params {
            threat_defend: false,
            ..on.clone()
        };
        (searched(pos, &on, 4), searched(pos, &off, 4))
    }

    #[test]
    fn a_turn_with_no_defence_against_goal_is_lost_unsearched() {
        // Gold's rabbit on h7 steps to h8; silver's rabbits on a8 and a7
        // are too far from the line to stop it. Without `threat_defend`
        // the search tries every silver turn before gold's goal shows.
        let pos = board(
            's',
            [
                "r       ", "r      R", "        ", "        ", "        ", "        ", "        ",
                "E       ",
            ],
        );
        let ((s_on, n_on), (s_off, n_off)) = threat_defend_on_and_off(&pos);
        assert!(s_on <= -WIN_BOUND && s_off <= -WIN_BOUND, "{s_on} {s_off}");
        assert!(n_on == 1 && n_off > 100, "{n_on} against {n_off} nodes");
    }

    #[test]
    fn a_threatened_turn_still_finds_its_defence() {
        // The dog on e8 stops the rabbit on h6 (see the test below): with
        // only defences searched, silver still escapes the loss, in fewer
        // nodes.
        let pos = board(
            's',
            [
                "rr  d   ", "        ", "       R", " m      ", "        ", "        ", "   E    ",
                "R       ",
            ],
        );
        let ((s_on, n_on), (s_off, n_off)) = threat_defend_on_and_off(&pos);
        assert!(s_on > -WIN_BOUND && s_off > -WIN_BOUND, "{s_on} {s_off}");
        assert!(n_on * 2 < n_off, "{n_on} against {n_off} nodes");
    }

    #[test]
    fn tactical_steps_are_those_near_threatened_pieces_and_far_rabbits() {
        // Gold to move. Silver's elephant on c5 can push gold's cat on c4
        // into c3: the cat's escape and a step guarding c3 are tactical; a
        // rabbit step on the far wing is quiet; a rabbit advancing in
        // silver's half is tactical, one stepping sideways is not.
        let pos = board(
            'g',
            [
                "        ", "        ", "R       ", "  e     ", "  CD    ", "        ", "        ",
                "     RRR",
            ],
        );
        let zone = tactical_zone(&pos);
        let step = |s: &str| {
            let mut list = ActionList::new();
            generate_actions(&pos, &mut list);
            *list
                .as_slice()
                .iter()
                .find(|a| a.to_string() == s)
                .unwrap_or_else(|| panic!("{s} not generated"))
        };
        assert!(
            zone.threatened
                .contains(crate::board::Square::parse("c4").unwrap())
        );
        assert!(zone.covers(&pos, step("c4w")), "the cat escapes");
        assert!(zone.covers(&pos, step("a6n")), "the rabbit advances");
        assert!(!zone.covers(&pos, step("a6e")), "sideways is quiet");
        assert!(!zone.covers(&pos, step("h1n")), "far from it all");
    }

    #[test]
    fn quiet_steps_are_reduced_but_the_capture_is_still_found() {
        // Gold's elephant on e1 walks e2, d2 and pushes silver's unguarded
        // cat from d3 into the trap on c3: four steps, the first two quiet
        // by kind. With quiet steps reduced the capture is still found.
        let pos = board(
            'g',
            [
                "rrrr    ", "        ", "        ", "        ", "        ", "   c    ", "        ",
                "R   E   ",
            ],
        );
        let with = |quiet_reduce: i32| {
            let params = Params {
                quiet_reduce,
                ..Params::default()
            };
            searched(&pos, &params, 6).0
        };
        let (full, reduced) = (with(0), with(1));
        let static_score = Evaluator::default().evaluate(&pos);
        assert!(full > static_score + 300, "{full} against {static_score}");
        assert!(
            reduced > static_score + 300,
            "{reduced} against {static_score}"
        );
    }

    /// The score of the mid-turn `pos` as a leaf, without the mid-turn
    /// quiescence (its static score with the steps left).
    fn midturn_leaf(pos: &Position, midturn_eval: bool) -> i32 {
        let params = Params {
            midturn_eval,
            midturn_qsearch: 0,
            ..Params::default()
        };
        // Any other hash: the board has changed since the turn began.
        depth0(pos, &params, pos.hash() ^ 1).0
    }

    #[test]
    fn a_midturn_leaf_keeps_the_steps_left() {
        // Gold, two steps into its turn, can still push the dog on c5 onto
        // the unguarded c6 with its elephant. Ending the turn forfeits that
        // push: silver moves next and the dog is only threatened.
        let mut pos = parse_side_and_board(&format!(
            "g [{}]",
            [
                "rrrrrrrr", "        ", "        ", "  dE    ", "        ", "        ", "        ",
                "RRRRRRRR",
            ]
            .concat()
        ))
        .unwrap();
        pos.set_steps_left(2);
        let eval = Evaluator::default();
        let kept = midturn_leaf(&pos, true);
        assert_eq!(kept, eval.evaluate(&pos), "the mover's static score");
        let mut passed = pos.clone();
        passed.pass_turn();
        let ended = midturn_leaf(&pos, false);
        assert_eq!(ended, -eval.evaluate(&passed), "the turn ends at the leaf");
        assert!(
            kept > ended,
            "the push in hand should count: {kept} against {ended}"
        );
    }

    #[test]
    fn a_midturn_leaf_finishes_its_capture() {
        // Gold, one step into its turn, takes the dog on d6 with its three
        // steps left (Ed5, then push the dog onto c6): beyond the static
        // score's one push or pull, seen only by the mid-turn quiescence.
        let mut pos = board(
            'g',
            [
                "rrrrrrrr", "        ", "   d    ", "        ", "   E    ", "        ", "        ",
                "RRRRRRRR",
            ],
        );
        pos.set_steps_left(3);
        let e = Evaluator::default().evaluate(&pos);
        let gain = material::gain_of_capture(&pos, Color::Gold, crate::board::Kind::Dog);
        let leaf = |turns: u32| {
            let params = Params {
                midturn_qsearch: turns,
                ..Params::default()
            };
            depth0(&pos, &params, pos.hash() ^ 1)
        };
        assert_eq!(leaf(0).0, e, "without it the static score stands");
        let (q, nodes) = leaf(2);
        assert!(q >= e + gain / 2, "the dog should fall: {q} against {e}");
        assert!(nodes > 1, "no capture was played");
        // With one step left the capture is out of reach.
        pos.set_steps_left(1);
        let e = Evaluator::default().evaluate(&pos);
        assert_eq!(depth0(&pos, &Params::default(), pos.hash() ^ 1).0, e);
    }

    /// Silver, with one step left, faces gold's rabbit on h6 two steps
    /// from goal; with `dog_near` its dog on f6 can still freeze the
    /// rabbit from g6, else the dog stands on a7, out of reach.
    fn one_step_to_defend(dog_near: bool) -> Position {
        let (r7, r6) = if dog_near {
            ("        ", "     d R")
        } else {
            ("d       ", "       R")
        };
        let mut pos = board(
            's',
            [
                "rr      ", r7, r6, "        ", "        ", "        ", "   E    ", "R       ",
            ],
        );
        pos.set_steps_left(1);
        pos
    }

    #[test]
    fn a_midturn_leaf_under_a_goal_threat_looks_for_its_defence() {
        let run = |pos: &Position, midturn_defend: u32| {
            let params = Params {
                midturn_defend,
                ..Params::default()
            };
            out_of_depth(pos, &params, pos.hash() ^ 1, 1, -INF, INF)
        };
        let near = one_step_to_defend(true);
        let (defended, _) = run(&near, 1);
        assert!(
            defended > -WIN_BOUND,
            "the dog's step was missed: {defended}"
        );
        // Off, the turn ends at the leaf and gold's rabbit walks in.
        let (ended, _) = run(&near, 0);
        assert!(ended < -WIN_BOUND, "the leaf should end the turn: {ended}");
        // No defence within the step left: lost at once, nothing searched.
        let far = one_step_to_defend(false);
        let (lost, nodes) = run(&far, 1);
        assert_eq!(lost, -(WIN - 3), "one step, then gold's two");
        assert_eq!(nodes, 1);
    }

    #[test]
    fn a_defending_turn_keeps_to_the_goal_line() {
        // Gold's rabbit on h6 walks to h8 in two steps. Silver's one
        // defence is its dog on e8, three or four steps from freezing the
        // rabbit (g7, h7); its rabbits and camel on the a and b files are
        // too far from the line to matter. The extension gives silver one
        // turn to defend: with `goal_def_area` it finds the dog's defence
        // among far fewer turns. The threat is extended at a leaf whose
        // static score reaches beta, so the window asks whether silver
        // escapes the loss: a score above it says it does.
        let pos = parse_side_and_board(&format!(
            "s [{}]",
            [
                "rr  d   ", "        ", "       R", " m      ", "        ", "        ", "   E    ",
                "R       ",
            ]
            .concat()
        ))
        .unwrap();
        let threat = crate::tactics::goal::threat_plan(&pos, Color::Gold).expect("gold threatens");
        assert_eq!(threat.steps, 2);
        let (alpha, beta) = (-WIN_BOUND, -WIN_BOUND + 1);
        let run = |area: bool| {
            let params = Params {
                goal_def_area: area,
                threat_defend: false,
                ..Params::default()
            };
            out_of_depth(&pos, &params, pos.hash(), 1, alpha, beta)
        };
        let (full, full_nodes) = run(false);
        let (kept, kept_nodes) = run(true);
        assert!(full > -WIN_BOUND, "the dog defends: {full}");
        assert!(kept > -WIN_BOUND, "the defence was pruned: {kept}");
        assert!(
            kept_nodes * 2 < full_nodes,
            "the area should prune: {kept_nodes} nodes against {full_nodes}"
        );
        // Without the extension the threat lies past the horizon.
        let (_, plain_nodes) = out_of_depth(&pos, &Params::default(), pos.hash(), 0, alpha, beta);
        assert!(plain_nodes < kept_nodes);
    }
}
