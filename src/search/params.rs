//! Search parameters: every selective technique can be switched off or
//! tuned here, so each one's effect can be measured (bench node counts,
//! self-play matches) and so AEI options can set them. One line of the
//! table below is all a new parameter needs; `aamir params` lists them.
//!
//! Techniques measured without gain were removed; `docs/status.md` lists
//! what each one measured and the commit that holds its code.

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
        /// In the turn a goal-threat extension gives the defender, search
        /// only the actions near the squares of the attacker's goal line
        /// (any turn that leaves them all unchanged lets that line be
        /// played).
        goal_def_area: bool = true, 0..=1;
        /// How many squares farther than its steps left could carry it an
        /// action may start or end and still count as a defence under
        /// `goal_def_area` (room for a step that clears or unfreezes
        /// another piece's way).
        goal_def_slack: i32 = 1, 0..=4;
        /// A leaf part way through a turn gets the static score of the side
        /// still to move, with its steps left (its captures within them and
        /// its goal counted), instead of ending the turn there; the turn
        /// still ends there when the other side threatens goal.
        midturn_eval: bool = true, 0..=1;
        /// With `midturn_eval`, a mid-turn leaf with at most this many
        /// steps left where the other side threatens goal is checked for
        /// defences within them: none loses at once; else the rest of the
        /// turn is searched among the defences (one goal extension of the
        /// path's allowance). 0 = off: the turn ends at the leaf.
        midturn_defend: u32 = 1, 0..=3;
        /// With `midturn_eval`, a mid-turn leaf below beta finishes its turn
        /// with the captures the capture detector finds or stands pat, then
        /// the reply gets that many more turns of the same (0 = off: the
        /// static score stands).
        midturn_qsearch: u32 = 2, 0..=4;
        /// Null move at turn starts: the side to move passes its whole turn
        /// and the reply is searched this many steps shallower than a real
        /// turn allows; a score still at or above beta cuts the node off
        /// (0 = off).
        null_reduction: i32 = 2, 0..=8;
        /// The least depth (in steps) at which the null move is tried; below
        /// a turn plus `null_reduction` the reply is the static score.
        null_min_depth: i32 = 6, 1..=120;
        /// Order first actions of captures (from the capture detector) right
        /// after the hash move at nodes with at least this many steps of
        /// depth left (0 = off).
        capture_order: i32 = 4, 0..=100;
        /// At every turn start with depth left where the opponent threatens
        /// goal, search only the defences (the actions near the threat's
        /// goal line, as `goal_def_area` keeps them in the extension turn);
        /// a turn start with none loses without further search.
        threat_defend: bool = true, 0..=1;
        /// Quiet steps (single steps that are no capture, no push or pull,
        /// do not touch the squares around a threatened piece and are no
        /// rabbit advance in the far half) after the first child are
        /// searched this many steps shallower with a null window, and again
        /// at full depth when they beat alpha (0 = off).
        quiet_reduce: i32 = 1, 0..=4;
        /// `quiet_reduce` applies at nodes with at least this many steps of
        /// depth left.
        quiet_reduce_from: i32 = 3, 1..=120;
        /// Quiescence at turn-start leaves below beta: turns in which the
        /// side to move, then the reply, may play the captures the capture
        /// detector finds or stand pat (0 = off, the static score stands).
        qsearch: u32 = 2, 0..=4;
        /// Quiescence delta pruning: a leaf is not searched when its static
        /// score plus the largest capture gain plus this margin
        /// (in centi-rabbits) stays at or below alpha.
        qsearch_margin: i32 = 100, 0..=10_000;
        /// Root turns the model ranks below the top `root_reduce_pct`
        /// percent are searched this many steps shallower, and again at
        /// full depth when they beat the best so far (0 = off).
        root_reduce: i32 = 4, 0..=8;
        /// The share of the root list, best ranked first, searched at full
        /// depth when `root_reduce` is on.
        root_reduce_pct: i32 = 20, 1..=100;
        /// `root_reduce` applies from this depth (in steps) on.
        root_reduce_from: i32 = 8, 1..=120;
        /// Killer actions per ply (steps from the root): the latest actions
        /// that cut off there, tried after the table's move and captures and
        /// spared by `quiet_reduce` (0 = off).
        killers: u32 = 2, 0..=4;
        /// Two actions of one turn that commute (`Footprint::commutes_with`:
        /// neither touches what the other moves, frees or guards) searched
        /// in one order only; exact.
        commute: bool = true, 0..=1;
        /// At a turn start inside the tree, the opponent's last turn fails
        /// when nothing was taken and the side to move can put the board
        /// back within two steps (it gave away a turn and two steps).
        undo_prune: bool = true, 0..=1;
        /// At a turn start with at most this many steps of depth left, the
        /// opponent's last turn fails when nothing was taken, all its steps
        /// but at most one moved one of its pieces, and the side to move
        /// can now take that piece (0 = off).
        freecap_prune: i32 = 4, 0..=16;
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
