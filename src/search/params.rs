//! Search parameters: every selective technique can be switched off or
//! tuned here, so each one's effect can be measured (bench node counts,
//! self-play matches) and so AEI options can set them. One line of the
//! table below is all a new parameter needs; `aamir params` lists them.
//!
//! Techniques measured without gain were removed; `docs/experiments.md`
//! records what they measured.

use crate::settings::{Table, table};

table! {
    /// All tunable search settings in one place.
    pub struct Params {
        /// Principal variation search (null windows after the first child).
        pvs: bool = true, 0..=1;
        /// History heuristic by first step.
        history: bool = true, 0..=1;
        /// Aspiration window half-width at the root in centi-rabbits (0 = off).
        aspiration: i32 = 40, 0..=10_000;
        /// Static goal detection at turn starts.
        goal_detection: bool = true, 0..=1;
        /// Extend the search by a turn when the opponent threatens goal at a
        /// leaf (at most this many times on one path; 0 = off).
        goal_extensions: u32 = 1, 0..=8;
        /// Also extend at leaves of PV nodes whose static score lies inside
        /// the window (not only above beta): there a goal threat can turn
        /// an exact score into a loss.
        goal_ext_pv: bool = false, 0..=1;
        /// In the turn a goal-threat extension gives the defender, search
        /// only the actions near the squares of the attacker's goal line
        /// (any turn that leaves them all unchanged lets that line be
        /// played). On against off: 245-207 in 452 games, +29.3 Elo
        /// [-2.8, +61.4], LOS 96.3%, the SPRT undecided; against Sharp at
        /// its fastest 34 and 37 of 100 (off: 28 and 27), at depth 5 13 of
        /// 100 (off: 10) (docs/experiments.md, stops 58-59).
        goal_def_area: bool = true, 0..=1;
        /// How many squares farther than its steps left could carry it an
        /// action may start or end and still count as a defence under
        /// `goal_def_area` (room for a step that clears or unfreezes
        /// another piece's way).
        goal_def_slack: i32 = 1, 0..=4;
        /// Under `goal_def_area`, free the rest of a defending turn once
        /// one of its actions has touched the goal line's squares (else
        /// every action of the turn must stay near them). Off: against
        /// Sharp at its fastest 39 of 100, against 34 and 37 without it;
        /// its SPRT undecided at 39-36 (docs/experiments.md, stop 59).
        goal_def_free: bool = false, 0..=1;
        /// A leaf part way through a turn gets the static score of the side
        /// still to move, with its steps left (its captures within them and
        /// its goal counted), instead of ending the turn there; the turn
        /// still ends there when the other side threatens goal. On against
        /// off won its SPRT, 125-87, +63.0 Elo [+15.6, +110.3]
        /// (docs/experiments.md, stop 27).
        midturn_eval: bool = true, 0..=1;
        /// Null move at turn starts: the side to move passes its whole turn
        /// and the reply is searched this many steps shallower than a real
        /// turn allows; a score still at or above beta cuts the node off
        /// (0 = off). On at 2 with `root_reduce` 4 and
        /// `eval_threat_second_pct` 30: the three together won their SPRT
        /// at 1 s a move, 105-69, +72.9 Elo [+20.4, +125.5]
        /// (docs/experiments.md, stops 34-35).
        null_reduction: i32 = 2, 0..=8;
        /// The least depth (in steps) at which the null move is tried; below
        /// a turn plus `null_reduction` the reply is the static score.
        null_min_depth: i32 = 6, 1..=120;
        /// Order first actions of captures (from the capture detector) right
        /// after the hash move at nodes with at least this many steps of
        /// depth left (0 = off).
        capture_order: i32 = 4, 0..=100;
        /// Quiescence at turn-start leaves below beta: turns in which the
        /// side to move, then the reply, may play the captures the capture
        /// detector finds or stand pat (0 = off, the static score stands).
        /// On at 2 against off won its SPRT at 0.3 s a move
        /// (docs/experiments.md, stop 36).
        qsearch: u32 = 2, 0..=4;
        /// Quiescence delta pruning: a leaf is not searched when its static
        /// score plus the largest capture gain plus this margin
        /// (in centi-rabbits) stays at or below alpha.
        qsearch_margin: i32 = 100, 0..=10_000;
        /// Order the root list before the first iteration by the learned
        /// turn-ordering model (`search::ordering`) instead of the static
        /// score alone.
        root_order: bool = false, 0..=1;
        /// Root turns the model ranks below the top `root_reduce_pct`
        /// percent are searched this many steps shallower, and again at
        /// full depth when they beat the best so far (0 = off). On at 4 with
        /// the null move (see `null_reduction`).
        root_reduce: i32 = 4, 0..=8;
        /// The share of the root list, best ranked first, searched at full
        /// depth when `root_reduce` is on.
        root_reduce_pct: i32 = 20, 1..=100;
        /// `root_reduce` applies from this depth (in steps) on.
        root_reduce_from: i32 = 8, 1..=120;
    }
}

impl Params {
    /// The plain baseline: alpha-beta with a table and nothing selective
    /// (every parameter at the bottom of its range, which is "off").
    pub fn baseline() -> Params {
        let mut p = Params::default();
        for i in 0..Params::len() {
            let min = Params::spec(i).expect("index in range").min;
            p.set(i, min).expect("the minimum is in range");
        }
        p
    }
}

impl std::fmt::Display for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_spec_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::apply;

    #[test]
    fn round_trips_and_rejects() {
        let mut p = Params::baseline();
        assert!(!p.pvs && !p.history && !p.goal_detection);
        assert_eq!(
            (p.aspiration, p.goal_extensions, p.capture_order),
            (0, 0, 0)
        );
        apply("aspiration=25, history=1,goal_detection=1", |n, v| {
            p.set_named(n, v)
        })
        .unwrap();
        assert_eq!(p.aspiration, 25);
        assert!(p.history && p.goal_detection);
        let mut q = Params::default();
        apply(&p.to_string(), |n, v| q.set_named(n, v)).unwrap();
        assert_eq!(p, q);
        assert!(p.set_named("aspiration", "-1").is_err());
        assert!(p.set_named("goal_extensions", "9").is_err());
        assert!(p.set_named("pvs", "maybe").is_err());
        assert!(p.set_named("nope", "1").is_err());
    }
}
