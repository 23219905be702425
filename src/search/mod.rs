//! The search: given a game, find the best turn within limits, reporting
//! progress as it goes.
//!
//! Iterative deepening over depths counted in steps. The root is the list of
//! every distinct legal turn (third repetitions already excluded), each
//! searched with the step-based alpha-beta of [`alphabeta`] below it.
//! [`setup`] answers the setup phase without searching (the engine's
//! choice of layout, used by the AEI session and the data generator).

pub mod alphabeta;
pub mod bigtable;
pub mod config;
pub mod order_weights;
pub mod ordering;
pub mod params;
pub mod review;
pub mod setup;
pub mod tt;
pub mod variants;

use crate::board::stepgen::{Action, ActionList, generate_actions};
use crate::board::{Game, Phase, Position, STEPS_PER_TURN, Turn};
use crate::eval::Evaluator;
use crate::timeman::{TimeManager, TimeParams};
use alphabeta::{INF, NodeCtx, Worker};
pub use config::{EngineConfig, EngineOptions, MAX_DEPTH};
pub use params::Params;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{KeptTable, PASS, TranspositionTable, WIN, WIN_BOUND};

/// How long and how deep to search. All fields optional; with none set the
/// search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Time after which no new iteration should start (the normal budget).
    pub soft: Option<Duration>,
    /// Time the search must never pass, whatever it is doing.
    pub hard: Option<Duration>,
    /// Deepest iteration, in steps.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// The time manager's constants for this search.
    pub time_params: TimeParams,
}

impl Limits {
    /// The time manager of a search that started at `start`: the one
    /// place these limits become a [`TimeManager`].
    pub fn time_manager(&self, start: Instant) -> TimeManager {
        TimeManager::new(start, self.soft, self.hard, &self.time_params)
    }
}

/// Progress, sent after each finished iteration and while one runs.
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth in steps.
    pub depth: u32,
    /// True while iteration `depth` is still running (AEI `depth N+`).
    pub in_progress: bool,
    /// Centi-rabbits, from the side to move's view.
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, from the searched position (written out
    /// by [`crate::board::pv_notation`]).
    pub pv: Vec<Turn>,
    /// 1-based index of the root turn being searched, if known.
    pub current_move: Option<u32>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The turn to play.
    pub best: Turn,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// The principal variation, `best` first.
    pub pv: Vec<Turn>,
}

/// A search engine with its tables; reused across moves of a game.
pub struct Searcher {
    config: EngineConfig,
    tt: KeptTable,
    eval: Evaluator,
}

/// A whole turn in steps, as depths and plies count them.
const TURN: i32 = STEPS_PER_TURN as i32;

/// One root turn and what the last iteration learnt of it.
#[derive(Clone)]
pub(crate) struct RootMove {
    turn: Turn,
    /// The static score of the position after the turn, for the
    /// opponent, as the leaf of a one-turn search would compute it. (The
    /// position itself is made again when searched: a list of tens of
    /// thousands of turns each carrying a board is slow to sort.)
    eval: i32,
    /// The turn reaches goal or takes the last enemy rabbit: it may win.
    may_win: bool,
    score: i32,
    /// The turn may be searched shallower (`root_reduce`): the ordering
    /// model ranks it below the share searched in full.
    reducible: bool,
}

/// Sorts the root list best score first, keeping the order of equal
/// scores, with `first` (when given) ahead of all. Root lists run to tens
/// of thousands of turns, each carrying a position: sorting small keys and
/// moving each turn once is far cheaper than a sort that moves the turns.
fn sort_root(moves: &mut Vec<RootMove>, first: Option<usize>) {
    // One integer per turn: not-`first` in the top bit, then the negated
    // score offset to be non-negative, then the index (root lists stay far
    // below 2^31 turns), which makes every key distinct, so an unstable sort
    // is stable. Integer keys sort faster than tuples, and the root list,
    // tens of thousands of turns, is sorted at least twice a search.
    let key = |i: usize, m: &RootMove| -> u64 {
        // 2^31 - 1 - score: 0 for the best score an i32 can hold.
        let score = ((1i64 << 31) - 1 - i64::from(m.score)) as u64;
        (u64::from(Some(i) != first) << 63) | (score << 31) | i as u64
    };
    let mut keys: Vec<u64> = moves.iter().enumerate().map(|(i, m)| key(i, m)).collect();
    keys.sort_unstable();
    let mut slots: Vec<Option<RootMove>> = moves.drain(..).map(Some).collect();
    moves.extend(keys.iter().map(|&k| {
        slots[(k & ((1 << 31) - 1)) as usize]
            .take()
            .expect("each index once")
    }));
}

impl Searcher {
    /// A searcher with its table allocated, configured by `config` whole.
    pub fn new(config: &EngineConfig) -> Searcher {
        // Tables built once per process, now rather than on the first
        // move, and off the caller's thread (the AEI loop).
        crate::eval::material::warm_up_in_background();
        Searcher {
            tt: KeptTable::new(config.engine.hash.max(1)),
            eval: config.evaluator(),
            config: config.clone(),
        }
    }

    /// Takes a new configuration; a new `hash` size replaces the table at
    /// once ([`KeptTable::resize`]).
    pub fn configure(&mut self, config: &EngineConfig) {
        if config.engine.hash != self.config.engine.hash {
            self.tt.resize(config.engine.hash.max(1));
        }
        self.eval = config.evaluator();
        self.config = config.clone();
    }

    /// The configuration in use.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The table's size in MB as allocated: less than asked for when the
    /// system refused the memory.
    pub fn hash_mb(&self) -> usize {
        self.tt.table().megabytes()
    }

    /// Forgets everything learned (AEI `newgame`; see
    /// [`KeptTable::new_game`]).
    pub fn new_game(&mut self) {
        self.tt.new_game();
    }

    /// Searches the side to move's turn. `None` when the game is over, in
    /// the setup phase, or the side to move has no legal turn.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<SearchResult> {
        let start = Instant::now();
        if game.phase() != Phase::Play || game.outcome().is_some() {
            return None;
        }
        let root = game.position().clone();
        let me = root.side();
        let turns = game.legal_turns();
        if turns.is_empty() {
            return None;
        }
        crate::eval::material::warm_up();
        // Ordered by a static look at each turn's result, so that even a
        // search stopped before its first iteration answers sensibly.
        // Scoring tens of thousands of turns takes long with a costly
        // evaluation: a stop or the hard deadline ends it, and the turns
        // scored so far stand (an overrun search must give its searcher
        // back quickly, or the session's next `go` waits for it).
        let hard = limits.time_manager(start).hard_deadline();
        let mut moves: Vec<RootMove> = Vec::with_capacity(turns.len());
        // With a net, each turn's sums come from the root's.
        let root_acc = self.eval.net.as_ref().map(|n| n.refresh(&root));
        for (i, turn) in turns.into_iter().enumerate() {
            if i % ROOT_POLL == ROOT_POLL - 1
                && (stop.load(Ordering::Relaxed) || hard.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            let after = turn.apply(&root);
            let acc = (self.eval.net.as_ref().zip(root_acc.as_ref()))
                .map(|(n, a)| n.update_from(&root, a, &after));
            let eval = self.eval.evaluate_with(acc.as_ref(), &after);
            let may_win = after.has_goal(me) || after.rabbits(me.opp()).is_empty();
            moves.push(RootMove {
                turn,
                eval,
                may_win,
                score: -eval,
                reducible: false,
            });
        }
        let params = &self.config.search;
        if params.root_reduce > 0 {
            ordering::mark_reducible(&root, game, &mut moves, params.root_reduce_pct);
        }
        sort_root(&mut moves, None);
        // A turn that wins by the rules (a goal, or the last enemy rabbit
        // taken without giving the opponent a goal) is played at once:
        // no search can improve on it and none should delay it.
        for m in moves.iter().filter(|m| m.may_win) {
            let mut after = game.clone();
            if after.play_turn(&m.turn).is_ok() && after.outcome().is_some_and(|o| o.winner == me) {
                return Some(SearchResult {
                    pv: vec![m.turn.clone()],
                    best: m.turn.clone(),
                    score: WIN - TURN,
                    depth: 0,
                    nodes: 0,
                });
            }
        }
        let tt = self.tt.for_search();
        // A fresh table's memory first, where a `stop` can still be heard
        // (see `prepare`); stopped there, the static ordering answers.
        let ready =
            tt.prepare(|| !stop.load(Ordering::Relaxed) && hard.is_none_or(|d| Instant::now() < d));
        tt.new_search();
        let params = &self.config.search;
        let threads = self.config.engine.threads;
        let eval = &self.eval;
        let helpers_stop = AtomicBool::new(false);
        let total_nodes = AtomicU64::new(0);
        let (best_idx, best_score, done_depth) = std::thread::scope(|s| {
            // Stopped already (while the root list was scored, or before
            // the search began): the static pick answers. Whether a table
            // prepared in the background is ready by now must not decide
            // what a stopped search answers.
            if !ready || stop.load(Ordering::Relaxed) {
                return (0, -INF, 0);
            }
            // Helper threads (lazy SMP): the same iterative deepening on
            // their own copy of the root list, every other one a step
            // deeper, filling the shared table for the main thread.
            for k in 1..threads {
                let mut their_moves: Vec<RootMove> = moves.clone();
                let (helpers_stop, total_nodes, root) = (&helpers_stop, &total_nodes, &root);
                s.spawn(move || {
                    let mut w =
                        Worker::new(tt, eval, params, game.history(), helpers_stop, None, None);
                    w.shared_nodes = Some(total_nodes);
                    let unlimited = Limits {
                        depth: limits.depth,
                        time_params: limits.time_params.clone(),
                        ..Limits::default()
                    };
                    iterate(
                        &mut w,
                        tt,
                        root,
                        &mut their_moves,
                        &unlimited,
                        start,
                        TURN as u32 + (k as u32 & 1),
                        &mut |_| {},
                    );
                    w.flush_nodes();
                });
            }
            let mut w = Worker::new(
                tt,
                eval,
                params,
                game.history(),
                stop,
                limits.time_manager(start).hard_deadline(),
                limits.nodes,
            );
            w.shared_nodes = Some(&total_nodes);
            let r = iterate(
                &mut w,
                tt,
                &root,
                &mut moves,
                limits,
                start,
                TURN as u32,
                report,
            );
            w.flush_nodes();
            helpers_stop.store(true, Ordering::Relaxed);
            r
        });
        let nodes = total_nodes.load(Ordering::Relaxed);
        let chosen = &moves[best_idx];
        // Stopped before any score was proven: the static ordering chose,
        // so its score is the one to show.
        let best_score = if best_score == -INF {
            chosen.score
        } else {
            best_score
        };
        Some(SearchResult {
            best: chosen.turn.clone(),
            score: best_score.clamp(-INF + 1, INF - 1),
            depth: done_depth,
            nodes,
            pv: principal_variation(tt, &root, chosen),
        })
    }
}

/// Root turns scored between checks of the stop flag and the clock.
const ROOT_POLL: usize = 256;

/// The legal turn a one-turn static look prefers, for an answer that cannot
/// wait for a search: one that wins by the rules, else the one whose result
/// `eval` scores best for the mover (the first such in the generator's
/// order). The search's root list starts from the same look.
pub fn static_best_turn(game: &Game, eval: &Evaluator) -> Option<Turn> {
    let root = game.position();
    let me = root.side();
    let mut best: Option<(i32, Turn)> = None;
    for turn in game.legal_turns() {
        let after = turn.apply(root);
        if after.has_goal(me) || after.rabbits(me.opp()).is_empty() {
            let mut g = game.clone();
            if g.play_turn(&turn).is_ok() && g.outcome().is_some_and(|o| o.winner == me) {
                return Some(turn);
            }
        }
        let score = -eval.evaluate(&after);
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, turn));
        }
    }
    best.map(|(_, turn)| turn)
}

/// Iterative deepening over the root list from `first_depth`; returns the
/// best move's index, its score and the last completed depth. Runs on every
/// search thread; only the main thread's `report` prints anything.
#[allow(clippy::too_many_arguments)]
fn iterate(
    w: &mut Worker,
    tt: &TranspositionTable,
    root: &Position,
    moves: &mut Vec<RootMove>,
    limits: &Limits,
    start: Instant,
    first_depth: u32,
    report: &mut dyn FnMut(&Report),
) -> (usize, i32, u32) {
    let params = w.params;
    let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
    let mut best_idx = 0usize;
    let mut best_score = -INF;
    let mut done_depth = 0u32;
    let mut last_progress = Instant::now();
    let mut depth = first_depth.min(max_depth);
    let mut time = limits.time_manager(start);
    let mut soft_stop = false;
    loop {
        // Aspiration: a window around the last score, widened to the full
        // range when the result falls outside it.
        let (mut lo, mut hi) =
            if params.aspiration > 0 && done_depth > 0 && best_score.abs() < WIN_BOUND {
                (
                    best_score - params.aspiration,
                    best_score + params.aspiration,
                )
            } else {
                (-INF, INF)
            };
        let mut iter_best: Option<usize>;
        loop {
            iter_best = None;
            let mut alpha = lo;
            for i in 0..moves.len() {
                let mut child = moves[i].turn.apply(root);
                let child = &mut child;
                w.set_root_child(root, child);
                w.path.clear();
                w.path.push(child.hash());
                w.known_eval = Some((child.hash(), moves[i].eval));
                let ctx =
                    NodeCtx::new_turn(child, depth as i32 - TURN, TURN, params.goal_extensions);
                // A turn the model ranks low is tried shallower first and
                // searched in full only when it beats the best so far.
                let reduce = if i > 0
                    && params.root_reduce > 0
                    && moves[i].reducible
                    && depth as i32 >= params.root_reduce_from
                    && alpha > -INF
                {
                    params.root_reduce
                } else {
                    0
                };
                let s = if reduce > 0 {
                    let short = NodeCtx {
                        depth: (ctx.depth - reduce).max(0),
                        ..ctx
                    };
                    let s = -w.search(child, short, -alpha - 1, -alpha);
                    if s > alpha && !w.aborted {
                        let s = -w.search(child, ctx, -alpha - 1, -alpha);
                        if s > alpha && s < hi && !w.aborted {
                            -w.search(child, ctx, -hi, -alpha)
                        } else {
                            s
                        }
                    } else {
                        s
                    }
                } else if i == 0 || !params.pvs {
                    -w.search(child, ctx, -hi, -alpha)
                } else {
                    let s = -w.search(child, ctx, -alpha - 1, -alpha);
                    if s > alpha && s < hi && !w.aborted {
                        -w.search(child, ctx, -hi, -alpha)
                    } else {
                        s
                    }
                };
                if w.aborted {
                    break;
                }
                moves[i].score = s;
                if s > alpha {
                    alpha = s;
                    iter_best = Some(i);
                    if s >= hi {
                        break;
                    }
                }
                // The root list starts with the previous best: it leads
                // while nothing has beaten it.
                if time.stop_in_iteration(iter_best == Some(0)) {
                    soft_stop = true;
                    break;
                }
                // The clock is read every few turns only: a shallow
                // iteration spends about a microsecond on each.
                if i % 64 == 63 && last_progress.elapsed() >= Duration::from_secs(1) {
                    last_progress = Instant::now();
                    let (bi, bs) = match iter_best {
                        Some(b) => (b, moves[b].score),
                        None => (best_idx, best_score),
                    };
                    report(&Report {
                        depth,
                        in_progress: true,
                        score: bs,
                        nodes: w.total_nodes(),
                        elapsed: start.elapsed(),
                        pv: principal_variation(tt, root, &moves[bi]),
                        current_move: Some(i as u32 + 1),
                    });
                }
            }
            if w.aborted || soft_stop {
                break;
            }
            // Outside the aspiration window: search again, full width.
            let failed_low = iter_best.is_none() && lo > -INF;
            let failed_high = iter_best.is_some_and(|b| moves[b].score >= hi) && hi < INF;
            if failed_low || failed_high {
                lo = -INF;
                hi = INF;
                continue;
            }
            break;
        }
        // A move proven better than the previous best during an aborted
        // iteration is kept: the previous best was searched first.
        let cut = w.aborted || soft_stop;
        if let Some(b) = iter_best
            && (!cut || b != 0)
        {
            best_idx = b;
            best_score = moves[b].score;
            // The last line a user reads must name the move that is played:
            // without this, a better move found after the last progress
            // line was answered under an older line's PV.
            if cut && b != 0 {
                report(&Report {
                    depth,
                    in_progress: true,
                    score: best_score,
                    nodes: w.total_nodes(),
                    elapsed: start.elapsed(),
                    pv: principal_variation(tt, root, &moves[b]),
                    current_move: None,
                });
            }
        }
        if cut {
            break;
        }
        done_depth = depth;
        // Best first, the rest by this iteration's (bound) scores.
        sort_root(moves, Some(best_idx));
        best_idx = 0;
        best_score = moves[0].score;
        // Root turns are distinct positions: the hash names the turn.
        time.iteration_done(moves[0].turn.hash, best_score);
        report(&Report {
            depth,
            in_progress: false,
            score: best_score,
            nodes: w.total_nodes(),
            elapsed: start.elapsed(),
            pv: principal_variation(tt, root, &moves[0]),
            current_move: None,
        });
        // A win or loss within the depth searched will not change.
        let decided = best_score.abs() >= WIN_BOUND && (WIN - best_score.abs()) as u32 <= depth;
        if depth >= max_depth || decided || !time.start_another(depth, moves.len()) {
            break;
        }
        depth += 1;
    }
    (best_idx, best_score, done_depth)
}

/// The principal variation: the root turn, then turns read from the table.
fn principal_variation(tt: &TranspositionTable, root: &Position, m: &RootMove) -> Vec<Turn> {
    let mut turns = vec![m.turn.clone()];
    let mut pos = m.turn.apply(root);
    let mut start = pos.clone();
    let mut current: Vec<Action> = Vec::new();
    for _ in 0..40 {
        let Some(e) = tt.probe(pos.search_key(), 0) else {
            break;
        };
        if e.action == PASS {
            if current.is_empty() {
                break;
            }
            let Some(t) = Turn::from_actions(&start, std::mem::take(&mut current)) else {
                break;
            };
            turns.push(t);
            pos.pass_turn();
            start = pos.clone();
            continue;
        }
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        let Some(&a) = list.as_slice().iter().find(|a| a.raw() == e.action) else {
            break;
        };
        current.push(a);
        pos.apply_action(a);
        if pos.steps_left() == 0 {
            let Some(t) = Turn::from_actions(&start, std::mem::take(&mut current)) else {
                break;
            };
            turns.push(t);
            pos.pass_turn();
            start = pos.clone();
        }
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use std::sync::atomic::Ordering;

    fn board(side: char, rows: [&str; 8]) -> Position {
        let text = format!("{side} [{}]", rows.concat());
        parse_side_and_board(&text).unwrap()
    }

    /// A one-thread searcher with a table of `mb` MB.
    fn sized(mb: usize) -> Searcher {
        let mut c = EngineConfig::default();
        c.engine.hash = mb;
        Searcher::new(&c)
    }

    /// Waits up to 10 s for the searcher's table to be prepared.
    fn prepared_soon(s: &Searcher) -> bool {
        let tt = s.tt.table();
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if tt.is_prepared() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// Each new table (the first, a new game's, a new size's) has its
    /// memory brought in without a search asking for it.
    #[test]
    fn new_tables_are_prepared_in_the_background() {
        let mut s = sized(8);
        assert!(prepared_soon(&s), "the first table");
        let first: *const TranspositionTable = s.tt.table();
        s.new_game();
        assert_eq!(s.tt.table() as *const _, first, "an unused table is kept");
        s.tt.for_search();
        s.new_game();
        assert_ne!(s.tt.table() as *const _, first, "a new table");
        assert!(prepared_soon(&s), "a new game's table");
        let mut c = s.config().clone();
        c.engine.hash = 4;
        s.configure(&c);
        assert_eq!(s.hash_mb(), 4);
        assert!(prepared_soon(&s), "a new size's table");
    }

    fn run(game: &Game, limits: Limits) -> SearchResult {
        let mut s = sized(16);
        let stop = AtomicBool::new(false);
        s.search(game, &limits, &stop, &mut |_| {}).unwrap()
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn a_huge_tempo_weight_does_not_stall_a_fixed_depth_search() {
        // With `eval_tempo` 8000 four steps of tempo used to reach the win
        // scores, and a depth-3 search of this position never finished (the
        // AEI fuzz harness found it). A node budget keeps a regression from
        // hanging the test: the search must end by depth, not by budget.
        let pos = board(
            'g',
            [
                " m  rhr ", "  e  hC ", "Mrrc   c", "R  d R r", "       R", "R    RCR", "D R H  E",
                "D  RH   ",
            ],
        );
        let game = Game::from_position(pos, 10);
        let mut c = EngineConfig::default();
        c.engine.hash = 16;
        c.set("eval_tempo", "8000").unwrap();
        let mut s = Searcher::new(&c);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(3),
            nodes: Some(20_000_000),
            ..Limits::default()
        };
        let r = s.search(&game, &limits, &stop, &mut |_| {}).unwrap();
        assert!(r.nodes < 20_000_000, "nodes {}", r.nodes);
        assert!(r.score.abs() < WIN_BOUND, "score {}", r.score);
    }

    #[test]
    fn takes_an_immediate_goal() {
        // Gold's rabbit on b6 reaches b8 in two steps; nothing stops it.
        let pos = board(
            'g',
            [
                " r  r  r", "  d  d  ", " R  e   ", "        ", "   E    ", "        ", "        ",
                "        ",
            ],
        );
        let game = Game::from_position(pos, 10);
        let r = run(&game, depth(12));
        assert!(r.score >= WIN_BOUND, "score {}", r.score);
        let mut g = game.clone();
        g.play_turn(&r.best).unwrap();
        let o = g.outcome().expect("the move ends the game");
        assert_eq!(o.winner, crate::board::Color::Gold);
    }

    #[test]
    fn plays_a_winning_turn_without_searching() {
        // A goal (b6 to b8) and, on another board, the last silver rabbit
        // pushed into the c3 trap: both are played before any search.
        let goal = board(
            'g',
            [
                " r  r  r", "  d  d  ", " R  e   ", "        ", "   E    ", "        ", "        ",
                "        ",
            ],
        );
        let last_rabbit = board(
            'g',
            [
                "       e", "        ", "        ", "        ", "        ", "   rE   ", "        ",
                "R       ",
            ],
        );
        for pos in [goal, last_rabbit] {
            let game = Game::from_position(pos, 10);
            let r = run(&game, depth(12));
            assert_eq!(r.nodes, 0, "searched before playing the win {:?}", r.best);
            assert!(r.score >= WIN_BOUND, "score {}", r.score);
            assert_eq!(r.pv, std::slice::from_ref(&r.best));
            let mut g = game.clone();
            g.play_turn(&r.best).unwrap();
            let o = g.outcome().expect("the move ends the game");
            assert_eq!(o.winner, crate::board::Color::Gold, "{:?}", r.best);
        }
    }

    /// Gold to play its first turn after both sides' setups.
    pub(super) fn after_setups() -> Game {
        let mut game = Game::new();
        game.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
            .unwrap();
        game.play("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7")
            .unwrap();
        game
    }

    /// Silver's rabbit on a3 would goal next turn unless gold blocks a2 or
    /// a1 or takes it.
    fn goal_threatened() -> Game {
        let pos = board(
            'g',
            [
                "       r", "        ", "        ", "        ", "        ", "r       ", "  D     ",
                "   E  RR",
            ],
        );
        Game::from_position(pos, 10)
    }

    #[test]
    fn root_sort_is_a_stable_sort_by_score_with_first_ahead() {
        let game = after_setups();
        let turns = game.legal_turns();
        // Scores with many ties and the extremes an i32 holds.
        let mut state = 7u64;
        let mut scores: Vec<i32> = (0..turns.len())
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % 9) as i32 * 250 - 1000
            })
            .collect();
        scores[3] = i32::MIN;
        scores[4] = i32::MAX;
        let moves: Vec<RootMove> = turns
            .into_iter()
            .zip(&scores)
            .map(|(turn, &score)| RootMove {
                turn,
                eval: 0,
                may_win: false,
                score,
                reducible: false,
            })
            .collect();
        for first in [None, Some(5), Some(3)] {
            let mut sorted = moves.clone();
            sort_root(&mut sorted, first);
            let mut want: Vec<usize> = (0..moves.len()).collect();
            want.sort_by_key(|&i| (Some(i) != first, std::cmp::Reverse(scores[i])));
            let got: Vec<u64> = sorted.iter().map(|m| m.turn.hash).collect();
            let want: Vec<u64> = want.iter().map(|&i| moves[i].turn.hash).collect();
            assert_eq!(got, want, "first {first:?}");
        }
    }

    /// Checks a selective setting: with `threat_spec` gold still holds
    /// `goal_threatened()` at `threat_depth`, and with `on` the opening
    /// searched to depth 10 takes under 90% of the nodes it takes with
    /// `off`.
    fn holds_a_goal_threat_and_saves_nodes(
        threat_depth: u32,
        threat_spec: &str,
        off: &str,
        on: &str,
    ) {
        let r = run_with(&goal_threatened(), threat_depth, threat_spec);
        assert!(
            r.score > -WIN_BOUND,
            "gold should hold with {threat_spec}: {} {:?}",
            r.score,
            r.best
        );
        let opening = after_setups();
        let full = run_with(&opening, 10, off);
        let reduced = run_with(&opening, 10, on);
        assert!(
            reduced.nodes * 10 < full.nodes * 9,
            "{on}: {} nodes, {off}: {}",
            reduced.nodes,
            full.nodes
        );
    }

    #[test]
    fn root_reduction_saves_nodes_and_still_stops_a_goal_threat() {
        // A whole turn shallower keeps the leaves on the same side to move
        // (two steps may not: at depth 9 the re-searches cost more than
        // the reductions save). The null move is off on both sides so the
        // saving measured is the reductions' own.
        holds_a_goal_threat_and_saves_nodes(
            9,
            "root_reduce=4,root_reduce_pct=1,root_reduce_from=8,null_reduction=0",
            "root_reduce=0,null_reduction=0",
            "root_reduce=4,root_reduce_pct=20,null_reduction=0",
        );
    }

    #[test]
    fn null_move_saves_nodes_and_still_stops_a_goal_threat() {
        // Under a goal threat the pass is never tried, so gold still finds
        // its defence; from the opening a free turn rarely changes the
        // verdict, so many turn starts two turns deep fail high on it.
        // Root reductions (on by default) are off on both sides: they
        // already cut most of the subtrees the null move would.
        holds_a_goal_threat_and_saves_nodes(
            10,
            "null_reduction=2,root_reduce=0",
            "null_reduction=0,root_reduce=0",
            "null_reduction=2,root_reduce=0",
        );
    }

    #[test]
    fn commuting_actions_in_one_order_find_the_same_turn_with_fewer_nodes() {
        // Two actions that commute reach one position in either order, so
        // searching one order only changes no score of plain alpha-beta
        // with a table at a fixed depth.
        let midgame = |i: usize| {
            let pos = parse_side_and_board(crate::tools::bench::POSITIONS[i]).unwrap();
            Game::from_position(pos, 1)
        };
        let plain = "pvs=0,history=0,aspiration=0,null_reduction=0,capture_order=0,\
                     threat_defend=0,quiet_reduce=0,qsearch=0,midturn_qsearch=0,\
                     midturn_defend=0,root_reduce=0,goal_extensions=0,killers=0,\
                     undo_prune=0,freecap_prune=0";
        for (game, d) in [(midgame(3), 6), (midgame(8), 6), (goal_threatened(), 8)] {
            let all = run_with(&game, d, &format!("{plain},commute=0"));
            let one = run_with(&game, d, &format!("{plain},commute=1"));
            assert_eq!(one.score, all.score);
        }
        // In the engine two whole turns deep in a middlegame, where most
        // steps are far apart, it saves a tenth of the nodes at least.
        let all = run_with(&midgame(3), 8, "commute=0");
        let one = run_with(&midgame(3), 8, "commute=1");
        assert!(
            one.nodes * 10 < all.nodes * 9,
            "one order {} all orders {}",
            one.nodes,
            all.nodes
        );
    }

    #[test]
    fn stops_a_goal_threat() {
        // Gold must not lose within its own horizon.
        let game = goal_threatened();
        let r = run(&game, depth(8));
        assert!(
            r.score > -WIN_BOUND,
            "gold should hold: {} {:?}",
            r.score,
            r.best
        );
    }

    /// A search of `game` to `d` steps with the search parameters `spec`.
    fn run_with(game: &Game, d: u32, spec: &str) -> SearchResult {
        let mut c = EngineConfig::from_spec(spec).unwrap();
        c.engine.hash = 16;
        let mut s = Searcher::new(&c);
        let stop = AtomicBool::new(false);
        s.search(game, &depth(d), &stop, &mut |_| {}).unwrap()
    }

    /// With the learned evaluation every static score of a search comes
    /// from accumulators kept step by step; the test profile keeps debug
    /// assertions, under which each is checked against a refresh
    /// (`Worker::eval_now`), through pushes, pulls, captures and passes.
    #[test]
    fn a_search_with_the_net_keeps_its_accumulators_in_step() {
        let pos = board(
            'g',
            [
                "r r  rrr", " d hc rd", "  Ee  c ", " r mM  h", "   H  r ", " D  C   ", "RRR  DRR",
                "   C  HR",
            ],
        );
        let game = Game::from_position(pos, 10);
        let net = run_with(&game, 6, "evalnet=1");
        let hand = run_with(&game, 6, "evalnet=0");
        // Both searched the same tree shape to the same depth; the net's
        // scores differ from the terms', so its tree differs too.
        assert_eq!((net.depth, hand.depth), (6, 6));
        assert!(net.nodes > 1000);
        assert_ne!(net.nodes, hand.nodes, "the net was not used");
    }

    #[test]
    fn extension_sees_a_goal_threat_past_the_horizon() {
        // Gold's rabbit on a3 walks to a7 this turn; nothing of silver's can
        // reach a8 or the rabbit in one turn, so it goals the turn after.
        // In a one-turn search that goal lies past the horizon: only the
        // goal-threat extension at silver's leaf sees the win.
        let pos = board(
            'g',
            [
                "        ", "      rr", "        ", "        ", "        ", "R       ", "        ",
                "    mehh",
            ],
        );
        let game = Game::from_position(pos, 10);
        let ext = run_with(&game, 4, "goal_extensions=1");
        assert!(
            ext.score >= WIN_BOUND,
            "no win seen: {} {:?}",
            ext.score,
            ext.best
        );
        let off = run_with(&game, 4, "goal_extensions=0");
        assert!(
            off.score < WIN_BOUND,
            "win seen without extension: {}",
            off.score
        );
    }

    #[test]
    fn every_answer_is_legal_over_random_games() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut searcher = sized(8);
        let stop = AtomicBool::new(false);
        for _ in 0..4 {
            let mut game = Game::from_position(Position::standard_opening(), 1);
            for _ in 0..12 {
                if game.outcome().is_some() {
                    break;
                }
                let turns = game.legal_turns();
                let t = &turns[rng.random_range(0..turns.len())];
                game.play_turn(t).unwrap();
                if game.outcome().is_some() {
                    break;
                }
                let r = searcher
                    .search(&game, &depth(6), &stop, &mut |_| {})
                    .unwrap();
                let mut g = game.clone();
                g.play_turn(&r.best)
                    .unwrap_or_else(|e| panic!("illegal answer {:?}: {e}", r.best));
                // The PV starts with the answer and is a legal line.
                assert_eq!(r.pv.first(), Some(&r.best));
                let mut line = game.clone();
                for t in &r.pv {
                    if line.outcome().is_some() {
                        break;
                    }
                    line.play_turn(t)
                        .unwrap_or_else(|e| panic!("illegal PV turn {t:?}: {e}"));
                }
            }
        }
    }

    #[test]
    fn stop_flag_ends_an_unlimited_search() {
        let game = Game::from_position(Position::standard_opening(), 1);
        let stop = AtomicBool::new(false);
        let mut s = sized(8);
        let t0 = Instant::now();
        std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
            });
            let r = s.search(&game, &Limits::default(), &stop, &mut |_| {});
            assert!(r.is_some());
        });
        // Generous: the point is that it ends at all.
        assert!(t0.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_stop_before_the_search_ends_the_root_scoring_early() {
        // Stopped before it starts: only the first `ROOT_POLL - 1` turns
        // are scored, and the answer is the best of those, not of all.
        let game = after_setups();
        let turns = game.legal_turns();
        let eval = Evaluator::default();
        let root = game.position();
        let score = |t: &Turn| -eval.evaluate(&t.apply(root));
        let early = turns[..ROOT_POLL - 1].iter().map(score).max().unwrap();
        let all = turns.iter().map(score).max().unwrap();
        assert!(all > early, "the test cannot tell the two apart");
        let stop = AtomicBool::new(true);
        let r = sized(8)
            .search(&game, &Limits::default(), &stop, &mut |_| {})
            .unwrap();
        assert!(turns[..ROOT_POLL - 1].contains(&r.best), "{:?}", r.best);
        assert_eq!(score(&r.best), early);
    }

    #[test]
    fn the_last_report_names_the_answer() {
        // Node budgets that stop searches part way through an iteration,
        // in positions ten random turns from the opening (seeds 0-3); many
        // of them stop after a new best turn was found there, which must
        // then be reported before it is answered.
        use rand::{RngExt, SeedableRng};
        let stop = AtomicBool::new(false);
        let mut changed_in_a_cut = 0;
        for seed in 0..4u64 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let mut game = Game::from_position(Position::standard_opening(), 1);
            for _ in 0..10 {
                let turns = game.legal_turns();
                game.play_turn(&turns[rng.random_range(0..turns.len())])
                    .unwrap();
            }
            if game.outcome().is_some() {
                continue;
            }
            for k in 1..=20u64 {
                let mut s = sized(8);
                let mut last: Option<Report> = None;
                let limits = Limits {
                    nodes: Some(k * 5_000),
                    ..Limits::default()
                };
                let r = s
                    .search(&game, &limits, &stop, &mut |rep| last = Some(rep.clone()))
                    .unwrap();
                // Stopped before the first iteration ended: nothing reported.
                let Some(last) = last else { continue };
                let budget = k * 5_000;
                assert_eq!(
                    last.pv.first(),
                    Some(&r.best),
                    "seed {seed}, budget {budget}"
                );
                if last.in_progress {
                    changed_in_a_cut += 1;
                }
            }
        }
        assert!(changed_in_a_cut > 0, "no budget tested the cut iteration");
    }

    #[test]
    fn no_answer_without_a_game_to_play() {
        let game = Game::new();
        let stop = AtomicBool::new(false);
        let mut s = sized(1);
        assert!(s.search(&game, &depth(4), &stop, &mut |_| {}).is_none());
    }
}
