//! Goal detection: can the side to move get one of its rabbits onto its goal
//! rank with the steps it has left this turn, in how few steps, and with
//! which first action.
//!
//! Only the mover's own single steps move its rabbits, and the goal rank has
//! no traps, so the first time one of its rabbits stands on goal the turn
//! can end there and wins. The question is therefore "fewest steps until a
//! rabbit of the mover is on goal", never a question about whole turns.
//!
//! The method works rabbit by rabbit and never enumerates turns:
//!
//! 1. Bitboard rejection. A rabbit moves at most one rank per step and only
//!    by its own steps, so only rabbits within `n` ranks of goal can score in
//!    `n` steps ([`rabbits_in_reach`]). In most positions there are none and
//!    the answer costs a few instructions.
//! 2. A lower bound ([`lower_bound`]): the shortest path of each rabbit to
//!    goal over the board as it stands, each square it enters or leaves
//!    charged the fewest other steps that could clear it (a friend in the
//!    way, an enemy in the way and how far its nearest possible pusher is,
//!    a freeze, an unguarded trap). It is applied at every node of the plan
//!    search below, and settles most misses at the root: on a sample of the
//!    search's leaves (`tests/data/goal-leaves.tsv`), 85% of the misses
//!    that have a rabbit in reach, leaving 0.14 plan-search nodes per query.
//!    Where a goal exists the bound is nearly always its exact length (98%
//!    on random near-goal positions), so that budget is searched first.
//! 3. For each rabbit that is in reach, its *slack* `s = n - ranks to go` is
//!    what the rest of the turn may spend on sideways steps and preparation.
//!    With no slack only its straight run counts. Otherwise the rabbit's
//!    possible path squares (the box of files within `s` of it, from its rank
//!    to goal) give the obstacles: pieces standing on the path (a friend that
//!    must step aside, an enemy that must be pushed or pulled away, or either
//!    one removed from a trap by moving its guard), squares where the rabbit
//!    would be frozen (a friend must arrive next to it, or the freezer be
//!    displaced or captured), traps on the path (a friend must stand next to
//!    the trap when the rabbit steps on it).
//! 4. Each obstacle names the preparatory actions that could remove it, as
//!    three square sets (`Needs`, shared with capture detection): friends
//!    that should move off a square,
//!    enemies that should be displaced, squares a friend should arrive on.
//!    Preparations can need preparing themselves (the pusher is frozen, the
//!    blocker has nowhere to go, the helper is two squares away, the helper's
//!    leaving would strand a friend on a trap), so the sets are expanded
//!    level by level; an action at level `k` must be followed by at least `k`
//!    more preparatory steps, which the slack bounds (at most two levels,
//!    since the rabbit needs at least one of the four steps).
//! 5. The candidate plans are then played out on the board, a few actions
//!    each, so that every side effect (a trap capture, a freeze caused by a
//!    friend leaving, a rabbit left alone on a trap) is judged by the rules
//!    themselves rather than by a model of them. Failed (position, budget)
//!    pairs are remembered so transposed preparations are tried once. On the
//!    485-position suite this expands 5.7 positions per query on average (47
//!    at most) where the brute force expands 755 (5,743 at most).
//!
//! That the bound is never too high is argued in its documentation. The sets
//! are deliberately generous, so a wrong guess costs time, not exactness;
//! that they are complete is argued case by case above, not proved. Both are
//! checked against `goal_distance_brute` (`tactics::oracle`, a plain search
//! over every action, built for tests and the `dev` feature): on the
//! 485-position suite, a fixture of 3,100 positions whose values come from
//! `pyrimaa.board`, the sample of search leaves, and random and mutated
//! positions (see `tests/goal_*.rs` and `docs/detectors.md`).

use super::plan::{FailTable, Needs, trap_guards};
use crate::board::STEPS_PER_TURN;
use crate::board::bitboard::adjacent;
use crate::board::stepgen::generate_actions_of;
use crate::board::{Action, ActionList, Bitboard, Color, Kind, Position, Square};

/// Squares of `color` rabbits that could reach goal within `n` steps.
#[inline(always)]
fn reach_mask(color: Color, n: u8) -> Bitboard {
    let n = n.min(7) as u32;
    match color {
        Color::Gold => Bitboard(!0u64 << (8 * (7 - n))),
        Color::Silver => Bitboard(if n == 7 {
            !0
        } else {
            (1u64 << (8 * (n + 1))) - 1
        }),
    }
}

/// `color`'s rabbits within `n` ranks of their goal: the only ones that
/// could score in `n` steps.
#[inline(always)]
pub fn rabbits_in_reach(pos: &Position, color: Color, n: u8) -> Bitboard {
    pos.rabbits(color) & reach_mask(color, n)
}

/// Ranks a `color` rabbit on `sq` still has to go.
#[inline(always)]
fn ranks_to_goal(color: Color, sq: Square) -> u8 {
    match color {
        Color::Gold => 7 - sq.rank(),
        Color::Silver => sq.rank(),
    }
}

/// The squares a `color` rabbit on `sq` may visit on its way to goal when it
/// can spend `slack` steps beyond its straight run: files within `slack`,
/// ranks from its own to goal.
fn path_box(color: Color, sq: Square, slack: u8) -> Bitboard {
    let f = sq.file() as i32;
    let mut files = 0u64;
    for df in -(slack as i32)..=slack as i32 {
        let ff = f + df;
        if (0..8).contains(&ff) {
            files |= Bitboard::FILE_A.0 << ff;
        }
    }
    let r = sq.rank() as u32;
    let ranks = match color {
        Color::Gold => !0u64 << (8 * r),
        Color::Silver => {
            if r == 7 {
                !0
            } else {
                (1u64 << (8 * (r + 1))) - 1
            }
        }
    };
    Bitboard(files & ranks)
}

/// What a rabbit on `r0` with `slack` spare steps needs done directly
/// (level 0): its path cleared, its freezes broken, its traps supported.
fn rabbit_needs(pos: &Position, us: Color, r0: Square, slack: u8) -> Needs {
    let them = us.opp();
    let own = pos.occupied_by(us);
    let en = pos.occupied_by(them);
    let path = path_box(us, r0, slack);
    let ahead = path.and_not(Bitboard::from_square(r0));
    let mut nd = Needs {
        vacate: own & ahead,
        displace: en & ahead,
        arrive: Bitboard::EMPTY,
    };
    for t in ahead & Bitboard::TRAPS {
        nd.arrive |= adjacent(t);
        if own.contains(t) {
            nd.vacate |= adjacent(t) & own;
        }
        if en.contains(t) {
            nd.displace |= adjacent(t) & en;
        }
    }
    // Every enemy piece but a rabbit freezes a lone rabbit. Squares are
    // counted whether or not a friend is next to them now, since that friend
    // may be the one that has to step aside.
    let freezers = en.and_not(pos.rabbits(them));
    let cold = path.and_not(Bitboard::goal(us)) & freezers.neighbors();
    nd.arrive |= cold.neighbors();
    let near = freezers & cold.neighbors();
    nd.displace |= near | trap_guards(near, en);
    nd
}

/// A lower bound on the steps `us` (to move) needs to have a rabbit on goal,
/// never too high; values above `n` come back as `n + 1` ("not within `n`").
///
/// Every step of the turn is either one of the scoring rabbit's own steps
/// or another piece's (a friend's step, or half of a push or pull), so for
/// the rabbit's actual path `P` the steps are at least `|P|` plus, for each
/// obstacle on `P`, the fewest other steps that can remove that obstacle;
/// one step can remove several, so the bound takes the largest, not the sum.
/// The obstacles, judged on the board as it is (the scoring rabbit itself
/// never counts as a friend, since it has moved on):
/// - a friend on a square of the path: it steps away (1), or it is on a
///   trap and the rabbit is its only guard, whose leaving captures it (0);
/// - an enemy on a square of the path: a push or pull (2) by a friend
///   stronger than it, which must first stand next to it (enemies move only
///   when pushed or pulled): 2 if one does, 3 if one can step next to it,
///   more otherwise; or, on a trap, its guards are displaced (2);
/// - a square the rabbit leaves where it would be frozen: a friend arrives
///   next to it (1 if one can step there, else 2) or the freezers are
///   displaced (2);
/// - a trap the rabbit enters: a friend arrives next to it (likewise).
///
/// "Can step there" means onto a square that is empty, or that the rabbit
/// itself may empty: the squares of rabbits in reach, and friends on traps
/// (which die when their last guard, perhaps the rabbit, leaves). A friend
/// anywhere else, or an enemy, on that square costs at least one more step.
///
/// The bound is the smallest `|P| + max` over paths, found by a bitboard
/// breadth-first search of the rabbit's squares for each threshold of the
/// obstacle cost; 0 if a rabbit of `us` already stands on goal.
pub fn lower_bound(pos: &Position, us: Color, n: u8) -> u8 {
    let cands = rabbits_in_reach(pos, us, n);
    if cands.is_empty() {
        return n + 1;
    }
    if (cands & Bitboard::goal(us)).any() {
        return 0;
    }
    let mut board = BoundBoard::new(pos, us, cands);
    cands.fold(n + 1, |best, q| board.rabbit(q, best))
}

/// Whether [`lower_bound`] allows a goal within `n`, stopping at the first
/// rabbit that does. No rabbit stands on goal.
#[inline]
fn may_goal(pos: &Position, us: Color, n: u8) -> bool {
    let cands = rabbits_in_reach(pos, us, n);
    if cands.is_empty() {
        return false;
    }
    let mut board = BoundBoard::new(pos, us, cands);
    let mut cands = cands;
    Iterator::any(&mut cands, |q| board.rabbit(q, n + 1) <= n)
}

/// What [`lower_bound`] needs of the board, shared by the rabbits.
struct BoundBoard<'a> {
    pos: &'a Position,
    us: Color,
    own: Bitboard,
    empty: Bitboard,
    /// Squares a friend may step onto with no other step first.
    room: Bitboard,
    /// Squares next to an enemy stronger than a rabbit.
    cold: Bitboard,
    /// Enemies removable with 2 extra steps (a stronger friend next to
    /// them, or on a trap) and with 3 (a stronger friend can step next to
    /// them), computed when a path first needs them.
    enemy_costs: Option<(Bitboard, Bitboard)>,
}

impl<'a> BoundBoard<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, us: Color, cands: Bitboard) -> BoundBoard<'a> {
        let own = pos.occupied_by(us);
        let en = pos.occupied_by(us.opp());
        let empty = !(own | en);
        BoundBoard {
            pos,
            us,
            own,
            empty,
            room: empty | cands | (own & Bitboard::TRAPS),
            cold: en.and_not(pos.rabbits(us.opp())).neighbors(),
            enemy_costs: None,
        }
    }

    fn enemy_costs(&mut self) -> (Bitboard, Bitboard) {
        if let Some(c) = self.enemy_costs {
            return c;
        }
        let (pos, us, them) = (self.pos, self.us, self.us.opp());
        let mut en2 = pos.occupied_by(them) & Bitboard::TRAPS;
        let mut en3 = Bitboard::EMPTY;
        let mut stronger = Bitboard::EMPTY;
        for k in Kind::ALL.into_iter().rev() {
            let e = pos.kind_bb(them, k);
            if e.any() {
                let adj = stronger.neighbors();
                en2 |= e & adj;
                en3 |= e & (adj & self.room).neighbors();
            }
            stronger |= pos.kind_bb(us, k);
        }
        let c = (en2, en3 | en2);
        self.enemy_costs = Some(c);
        c
    }

    /// The bound of the rabbit on `q` (not on goal) if it is below `best`,
    /// else `best`.
    fn rabbit(&mut self, q: Square, best: u8) -> u8 {
        let us = self.us;
        let d = ranks_to_goal(us, q);
        if d >= best {
            return best;
        }
        // Paths of at most `best - 1 - k` steps with every obstacle at most
        // `k`, for k = 0 to 3 while they could still improve the bound.
        let mut best = best;
        let own_r = self.own.and_not(Bitboard::from_square(q));
        let s1 = own_r.neighbors();
        let e0 = self.empty | (own_r & Bitboard::TRAPS).and_not(s1);
        let a0 = e0 & (s1 | !Bitboard::TRAPS);
        if let Some(len) = rabbit_bfs(us, q, a0, !self.cold | s1, best - 1) {
            best = len;
        }
        if d + 1 >= best {
            return best;
        }
        let s2 = s1 | (s1 & self.room).neighbors();
        let e1 = e0 | own_r;
        let a1 = e1 & (s2 | !Bitboard::TRAPS);
        if let Some(len) = rabbit_bfs(us, q, a1, !self.cold | s2, best - 2) {
            best = len + 1;
        }
        for k in 2..4u8 {
            if d + k >= best {
                break;
            }
            let (en2, en3) = self.enemy_costs();
            let a = e1 | if k == 2 { en2 } else { en3 };
            if let Some(len) = rabbit_bfs(us, q, a, Bitboard::ALL, best - 1 - k) {
                best = len + k;
            }
        }
        best
    }
}

/// Fewest steps (at most `lim`) for a `us` rabbit on `q` to reach goal,
/// stepping only from squares of `leave` onto squares of `enter`.
#[inline(always)]
fn rabbit_bfs(us: Color, q: Square, enter: Bitboard, leave: Bitboard, lim: u8) -> Option<u8> {
    let goal = Bitboard::goal(us);
    let mut reach = Bitboard::from_square(q);
    for step in 1..=lim {
        let from = reach & leave;
        let fwd = match us {
            Color::Gold => from.north(),
            Color::Silver => from.south(),
        };
        // Only squares from which goal is still within the steps left.
        let window = reach_mask(us, lim - step);
        let next = (fwd | from.east() | from.west()).and_not(reach) & enter & window;
        if next.is_empty() {
            return None;
        }
        if (next & goal).any() {
            return Some(step);
        }
        reach |= next;
    }
    None
}

/// The side to move's goal search within one query.
struct GoalSearch {
    us: Color,
    /// Principal line found, by ply.
    line: [Action; STEPS_PER_TURN as usize],
    /// (position, budget) queries known to fail.
    failed: FailTable<32>,
    nodes: u64,
    /// Budget left unused when the last success reached goal.
    left: u8,
}

impl GoalSearch {
    fn new(us: Color) -> GoalSearch {
        GoalSearch {
            us,
            line: [Action::NONE; STEPS_PER_TURN as usize],
            failed: FailTable::new(),
            nodes: 0,
            left: 0,
        }
    }

    /// Whether a rabbit can stand on goal within `n` steps (`n` at most the
    /// steps left), recording the line from `ply` on.
    fn can_goal(&mut self, pos: &Position, n: u8, ply: usize) -> bool {
        let us = self.us;
        if pos.has_goal(us) {
            self.left = n;
            return true;
        }
        if n == 0 {
            return false;
        }
        let cands = rabbits_in_reach(pos, us, n);
        if cands.is_empty() {
            return false;
        }
        if n == 1 {
            return match one_step_goal(pos, us) {
                Some(a) => {
                    self.line[ply] = a;
                    self.left = 0;
                    true
                }
                None => false,
            };
        }
        if ply > 0 && !may_goal(pos, us, n) {
            return false;
        }
        let key = FailTable::<32>::key(pos, n, 0);
        if self.failed.failed(key) {
            return false;
        }
        self.nodes += 1;

        // Straight steps of rabbits in reach first: the likeliest to
        // succeed, and they need no action list.
        for r in cands & !pos.frozen(us) {
            let to = forward(us, r);
            if pos.piece_at(to).is_none() {
                let a = Action::single(r, to);
                let mut child = pos.clone();
                child.apply_action(a);
                if self.can_goal(&child, n - 1, ply + 1) {
                    self.line[ply] = a;
                    return true;
                }
            }
        }

        // Allowed preparations by cost (index 1 and 2), and the rabbits whose
        // own sideways steps may be part of a path.
        //
        // A rabbit with slack `s` names its needs at level 0, and each level
        // `k` below `s - 1` is expanded into level `k + 1`; an action at
        // level `k` is followed by at least `k` more preparatory steps and
        // the rabbit's own, so it may cost at most `s - k`. Expansion is a
        // union over the squares of a set, so the rabbits' levels are
        // merged by that remaining allowance `s - k` (`by_left`) and each
        // merged set is expanded once.
        let mut by_left = [Needs::default(); STEPS_PER_TURN as usize];
        let mut sideways = Bitboard::EMPTY;
        for r in cands {
            let slack = n - ranks_to_goal(us, r);
            if slack == 0 {
                continue;
            }
            sideways |= Bitboard::from_square(r);
            by_left[slack as usize].union(&rabbit_needs(pos, us, r, slack));
        }
        let mut allow = [Needs::default(); 3];
        for left in (1..4).rev() {
            if left < 3 && by_left[left + 1] != Needs::default() {
                let deeper = by_left[left + 1].expand(pos, us);
                by_left[left].union(&deeper);
            }
            allow[1].union(&by_left[left]);
            if left >= 2 {
                allow[2].union(&by_left[left]);
            }
        }

        if sideways.is_empty() {
            // Every rabbit in reach needs all the steps for its straight run.
            self.failed.mark_failed(key);
            return false;
        }
        // Only pieces that can make a relevant action move (the rabbits in
        // reach, and the movers `allow` can match: see
        // `Needs::matches`); the others' actions would all be dropped.
        let mut near = Bitboard::EMPTY;
        let mut movers = cands;
        for need in &allow[1..] {
            near |= need.displace | need.arrive;
            movers |= need.vacate;
        }
        let movers = movers | near.neighbors();
        let mut list = ActionList::new();
        generate_actions_of(pos, movers, &mut list);
        for &a in list.as_slice() {
            let cost = a.cost();
            if cost > n {
                continue;
            }
            let s = a.first();
            let relevant = if cost == 1 && cands.contains(s.from) {
                // A rabbit in reach: its straight step was tried above; a
                // sideways step needs slack, unless it clears the way or
                // helps another rabbit.
                s.to != forward(us, s.from) && (sideways.contains(s.from) || allow[1].matches(a))
            } else {
                allow[cost as usize].matches(a)
            };
            if !relevant {
                continue;
            }
            let mut child = pos.clone();
            child.apply_action(a);
            if self.can_goal(&child, n - cost, ply + 1) {
                self.line[ply] = a;
                return true;
            }
        }
        self.failed.mark_failed(key);
        false
    }
}

/// The square in front of a `color` rabbit on `sq` (not on its goal rank).
#[inline(always)]
fn forward(color: Color, sq: Square) -> Square {
    match color {
        Color::Gold => Square::new(sq.raw() + 8),
        Color::Silver => Square::new(sq.raw() - 8),
    }
}

/// A rabbit step onto goal, if one is available now.
fn one_step_goal(pos: &Position, us: Color) -> Option<Action> {
    let goal = Bitboard::goal(us);
    let last = match us {
        Color::Gold => goal.south(),
        Color::Silver => goal.north(),
    };
    let movers = pos.rabbits(us) & last & !pos.frozen(us);
    for r in movers {
        let to = forward(us, r);
        if pos.piece_at(to).is_none() {
            return Some(Action::single(r, to));
        }
    }
    None
}

/// A shortest way to goal: how many steps, the action that starts it, and
/// the whole line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GoalPlan {
    /// Fewest steps (0 when a rabbit of the mover already stands on goal).
    pub steps: u8,
    /// The first action of a shortest goal (`Action::NONE` when `steps` is 0).
    pub first: Action,
    /// The actions of that goal in order, `Action::NONE` after the last:
    /// playing them puts a rabbit on goal in `steps` steps.
    pub line: [Action; STEPS_PER_TURN as usize],
    /// Nodes (positions expanded) the search used, for benchmarks.
    pub nodes: u64,
}

/// The fewest steps in which the side to move can have one of its rabbits on
/// its goal rank this turn, with the first action of such a goal. `None`
/// when it cannot within its steps left.
pub fn goal_plan(pos: &Position) -> Option<GoalPlan> {
    goal_plan_counted(pos).0
}

/// [`goal_plan`], plus the number of positions the plan search expanded
/// whatever the answer (for benchmarks).
pub fn goal_plan_counted(pos: &Position) -> (Option<GoalPlan>, u64) {
    let us = pos.side();
    if pos.has_goal(us) {
        let plan = GoalPlan {
            steps: 0,
            first: Action::NONE,
            line: [Action::NONE; STEPS_PER_TURN as usize],
            nodes: 0,
        };
        return (Some(plan), 0);
    }
    let budget = pos.steps_left();
    let cands = rabbits_in_reach(pos, us, budget);
    if cands.is_empty() {
        return (None, 0);
    }
    let lower = lower_bound(pos, us, budget);
    if lower > budget {
        return (None, 0);
    }
    let mut search = GoalSearch::new(us);
    // The bound itself first: where a goal exists it is nearly always
    // exact, and then this one shallow search settles the query.
    if lower < budget && search.can_goal(pos, lower, 0) {
        let plan = GoalPlan {
            steps: lower - search.left,
            first: search.line[0],
            line: search.line,
            nodes: search.nodes,
        };
        return (Some(plan), search.nodes);
    }
    // Then the full budget, which settles most of the rest; shorter budgets
    // are tried upward, below the length found.
    search.line = [Action::NONE; STEPS_PER_TURN as usize];
    if !search.can_goal(pos, budget, 0) {
        return (None, search.nodes);
    }
    let found = budget - search.left;
    let mut best = GoalPlan {
        steps: found,
        first: search.line[0],
        line: search.line,
        nodes: 0,
    };
    for n in lower + 1..found {
        search.line = [Action::NONE; STEPS_PER_TURN as usize];
        if search.can_goal(pos, n, 0) {
            best.steps = n - search.left;
            best.first = search.line[0];
            best.line = search.line;
            break;
        }
    }
    best.nodes = search.nodes;
    (Some(best), search.nodes)
}

/// Fewest steps (1 to the steps left) in which the side to move can have
/// one of its rabbits on its goal rank this turn; `None` if it cannot. A
/// rabbit already on goal (possible only mid-turn) gives `Some(0)`.
pub fn goal_distance(pos: &Position) -> Option<u8> {
    goal_plan(pos).map(|p| p.steps)
}

/// The first action of a shortest goal, so the root can play it at once and
/// the search can try it first. `None` when there is no goal this turn or a
/// rabbit already stands on goal.
pub fn goal_action(pos: &Position) -> Option<Action> {
    goal_plan(pos).and_then(|p| (!p.first.is_none()).then_some(p.first))
}

/// [`goal_distance`] for `color` as if it were to move now with a fresh
/// four-step turn: how the search sees the opponent's goal threats.
pub fn goal_threat(pos: &Position, color: Color) -> Option<u8> {
    threat_plan(pos, color).map(|p| p.steps)
}

/// [`goal_plan`] for `color` as if it were to move now with a fresh
/// four-step turn: the line behind [`goal_threat`].
pub fn threat_plan(pos: &Position, color: Color) -> Option<GoalPlan> {
    if rabbits_in_reach(pos, color, STEPS_PER_TURN).is_empty() {
        return None;
    }
    let mut p = pos.clone();
    p.set_side(color);
    goal_plan(&p)
}

/// The squares whose contents decide whether `plan`'s line can still be
/// played: every square its steps leave or enter, their neighbours (a
/// piece there freezes or unfreezes the movers, or blocks them), and the
/// neighbours of any trap among those (they decide what a trap takes). A
/// defence that leaves all of them as they were leaves the line intact.
pub fn defence_area(plan: &GoalPlan) -> Bitboard {
    let mut line = Bitboard::EMPTY;
    for a in plan.line.iter().take_while(|a| !a.is_none()) {
        for st in a.steps() {
            line |= Bitboard::from_square(st.from) | Bitboard::from_square(st.to);
        }
    }
    let area = line | line.neighbors();
    area | (area & Bitboard::TRAPS).neighbors()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::diagram as pos;
    use crate::tactics::oracle::goal_distance_brute;

    #[test]
    fn reach_masks() {
        assert_eq!(reach_mask(Color::Gold, 0), Bitboard::RANK_8);
        assert_eq!(reach_mask(Color::Silver, 0), Bitboard::RANK_1);
        assert_eq!(reach_mask(Color::Gold, 4).count(), 40);
        assert_eq!(reach_mask(Color::Silver, 4).count(), 40);
        assert_eq!(reach_mask(Color::Silver, 7), Bitboard::ALL);
    }

    #[test]
    fn straight_run_and_blocked_run() {
        let open = pos(
            "g",
            [
                "........", "........", "........", "........", "R.......", "........", "........",
                "r......E",
            ],
        );
        assert_eq!(goal_distance(&open), Some(4));
        assert_eq!(goal_distance_brute(&open), Some(4));
        // A silver cat on a8 blocks the file: no goal in four steps.
        let mut blocked = open.clone();
        blocked.put(crate::board::Piece::SCat, Square::parse("a8").unwrap());
        assert_eq!(goal_distance(&blocked), None);
        assert_eq!(goal_distance_brute(&blocked), None);
    }

    #[test]
    fn defence_area_covers_the_line_and_its_traps() {
        let squares = |names: &str| {
            names
                .split(' ')
                .map(|n| Bitboard::from_square(Square::parse(n).unwrap()))
                .fold(Bitboard::EMPTY, |a, b| a | b)
        };
        // The area of the threat `color` makes on a board of `rows`, `side`
        // to move, and the steps of its line.
        let area_of = |side: &str, rows: [&str; 8], color: Color| {
            let plan = threat_plan(&pos(side, rows), color).expect("a threat");
            (plan.steps, defence_area(&plan))
        };
        // Silver's rabbit on a5 runs a4-a3-a2-a1: the line, its neighbours
        // on the b file and a6 behind it. No trap is near.
        let mut rows = ["........"; 8];
        rows[3] = "r.......";
        rows[7] = ".......E";
        assert_eq!(
            area_of("g", rows, Color::Silver),
            (4, squares("a6 a5 a4 a3 a2 a1 b5 b4 b3 b2 b1"))
        );
        // Gold's rabbit on b5 runs b6-b7-b8 past trap c6: the trap's own
        // neighbours (d6, c5, c7) decide whether a piece on it lives, so
        // they are in too; c3, a trap two files from the line, is not.
        rows[3] = ".R......";
        rows[7] = ".......e";
        let (steps, area) = area_of("s", rows, Color::Gold);
        assert_eq!(steps, 3);
        assert_eq!(area, squares("a5 a6 a7 a8 b4 b5 b6 b7 b8 c5 c6 c7 c8 d6"));
        assert!(!area.contains(Square::parse("c3").unwrap()));
        // No threat, no plan.
        assert_eq!(threat_plan(&pos("s", rows), Color::Silver), None);
    }

    #[test]
    fn pull_clears_the_goal_square() {
        // Gold rabbit d7, silver cat d8 in the way, gold dog e8 pulls it.
        let p = pos(
            "g",
            [
                "...cD...", "...R....", "........", "........", "........", "........", "........",
                "r.......",
            ],
        );
        assert_eq!(goal_distance_brute(&p), Some(3));
        assert_eq!(goal_distance(&p), Some(3));
        let a = goal_action(&p).unwrap();
        let mut after = p.clone();
        after.apply_action(a);
        assert_eq!(goal_distance_brute(&after), Some(3 - a.cost()));
    }

    #[test]
    fn a_guard_is_brought_before_the_rabbits_guard_leaves() {
        // Found by the mutation fuzzer: the gold rabbit on trap c6 is kept
        // alive by the cat on c7, which blocks its way. The camel steps
        // c4-c5 to guard the trap first, then the cat steps aside and the
        // rabbit runs c6-c7-c8: four steps, and no other way.
        let p = pos(
            "g",
            [
                ".D.cEC..", ".DC.....", ".rR....R", ".....R.d", "..M..c..", "........", "........",
                "........",
            ],
        );
        assert_eq!(goal_distance_brute(&p), Some(4));
        assert_eq!(goal_distance(&p), Some(4));
    }

    #[test]
    fn pulling_the_last_guard_captures_the_freezer() {
        // The gold rabbit on c7 is frozen by the silver dog on trap c6, whose
        // only guard is the cat on d6. The elephant on d5 pulls the cat to d5
        // (two steps), the dog dies, the rabbit steps to c8: three steps.
        let p = pos(
            "g",
            [
                "........", "..R.....", "..dc....", "...E....", "........", "........", "........",
                "r.......",
            ],
        );
        assert_eq!(goal_distance_brute(&p), Some(3));
        assert_eq!(goal_distance(&p), Some(3));
    }

    #[test]
    fn push_clears_the_goal_square_and_the_pusher_steps_back() {
        // Silver rabbits on b7, d7 and e8 leave the gold dog on d8 no room to
        // pull the cat off c8, so it pushes it to b8 (landing on c8), steps
        // back to d8, and the rabbit on c7 scores: four steps.
        let p = pos(
            "g",
            [
                "..cDr...", ".rRr....", "........", "........", "........", "........", "........",
                "........",
            ],
        );
        assert_eq!(goal_distance_brute(&p), Some(4));
        assert_eq!(goal_distance(&p), Some(4));
        let a = goal_action(&p).unwrap();
        assert_eq!(a.to_string(), "c8w d8w");
    }

    #[test]
    fn threat_uses_a_fresh_turn() {
        let mut p = pos(
            "g",
            [
                "........", "........", "........", "........", "........", "........", ".r......",
                "R.......",
            ],
        );
        p.set_steps_left(1);
        assert_eq!(goal_distance(&p), None);
        assert_eq!(goal_threat(&p, Color::Silver), Some(1));
        assert_eq!(goal_threat(&p, Color::Gold), None);
    }
}
