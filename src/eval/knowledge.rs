//! The knowledge terms together: trap control ([`super::trapcontrol`]),
//! pieces in danger at enemy traps, trap threats by distance
//! ([`super::trapthreats`]), hostages and frames
//! ([`super::hostages`]), dominance ([`super::dominance`]), elephant
//! blockades ([`super::blockades`]), elephant mobility
//! ([`super::mobility`]), rabbit goal threats and goal-line
//! defence ([`super::rabgoal`]), rabbit runners ([`super::runners`]),
//! placement by rank ([`super::placement`]), wing balance
//! ([`super::wings`]) and attack alignment ([`super::alignment`]).
//!
//! They share one [`Context`] (frozen pieces, how many enemy pieces outrank
//! each kind, trap control), built once per evaluation. Every term is
//! switched off by setting its weight to 0, which also skips its work, so
//! each one's cost and worth can be measured on its own.

use super::Weights;
use super::geometry::Context;
use super::{
    alignment, blockades, dominance, hostages, mobility, placement, rabgoal, runners, trapcontrol,
    trapthreats, wings,
};
use crate::board::{Color, Position};

/// The knowledge terms in centi-rabbits, gold minus silver, and each
/// side's rabbit runners among them (by colour index; the evaluation may
/// weigh those as odds, [`super::variance`]).
pub fn knowledge(pos: &Position, w: &Weights) -> (i32, [i32; 2]) {
    // All off (the default until the weights are fitted): no shared facts
    // to compute, so the evaluation costs what it did before these terms.
    if !any_on(w) {
        return (0, [0, 0]);
    }
    let mut ctx = Context::new(pos);
    let need_tc = w.tc_scale != 0
        || w.trap_danger_pct != 0
        || w.trap_threat_pct != 0
        || w.hostage_pct != 0
        || w.hostage_holder != 0
        || w.dominance_pct != 0
        || w.rabbit_run_pct != 0;
    if need_tc {
        ctx.trap = trapcontrol::raw_control(pos, &ctx);
    }
    let mut s = 0;
    if w.tc_scale != 0 {
        s += trapcontrol::trap_control_score(&ctx, w.tc_scale, w.tc_defence_pct, w.tc_attack_pct);
    }
    let mut run = [0, 0];
    for c in Color::BOTH {
        let parts = side_parts(pos, &ctx, c, w);
        run[c.index()] = parts[RUNNERS];
        let v: i32 = parts.iter().sum();
        s += if c == Color::Gold { v } else { -v };
    }
    (s, run)
}

/// Whether any knowledge term has a weight that switches it on.
fn any_on(w: &Weights) -> bool {
    [
        w.tc_scale,
        w.trap_danger_pct,
        w.trap_threat_pct,
        w.hostage_pct,
        w.hostage_holder,
        w.frame_pct,
        w.dominance_pct,
        w.blockade,
        w.rabbit_goal_pct,
        w.rabbit_run_pct,
        w.goal_line,
        w.placement_pct,
        w.ele_mobility,
        w.wing_pct,
        w.align_pct,
    ]
    .iter()
    .any(|&v| v != 0)
}

/// Names of [`side_parts`], in order.
const SIDE_PARTS: [&str; 13] = [
    "pieces in danger at traps",
    "trap threats by distance",
    "hostages",
    "frames",
    "dominance",
    "elephant blockade",
    "rabbit goal threats",
    "rabbit runners",
    "goal-line defence",
    "placement",
    "elephant mobility",
    "wing balance",
    "attack alignment",
];

/// Where the rabbit runners sit in [`side_parts`].
const RUNNERS: usize = 7;

/// Each per-side term of `c`, good for `c` when positive, in the order of
/// [`SIDE_PARTS`].
#[inline]
fn side_parts(pos: &Position, ctx: &Context, c: Color, w: &Weights) -> [i32; 13] {
    [
        -trapcontrol::trap_danger(pos, ctx, c, w.trap_danger_pct),
        -trapthreats::trap_threats(pos, ctx, c, w.trap_threat_pct),
        -hostages::hostages(pos, ctx, c, w.hostage_pct, w.hostage_holder),
        -hostages::frames(pos, ctx, c, w.frame_pct),
        -dominance::dominance(pos, ctx, c, w.dominance_pct),
        -blockades::elephant_blockade(pos, c, w.blockade),
        rabgoal::rabbit_goal_threats(pos, ctx, c, w.rabbit_goal_pct),
        runners::rabbit_runners(pos, ctx, c, w.rabbit_run_pct),
        -rabgoal::goal_line_defence(pos, c, w.goal_line),
        placement::placement(pos, ctx, c, w.placement_pct),
        -mobility::elephant_mobility(pos, c, w.ele_mobility),
        -wings::wing_balance(pos, ctx, c, w.wing_pct),
        alignment::alignment(pos, ctx, c, w.align_pct),
    ]
}

/// How one knowledge term is scored: each side's own part, or one score
/// for gold (trap control, scored per trap for its owner).
pub enum Part {
    Sides(i32, i32),
    Net(i32),
}

/// Every knowledge term of `pos` by name, for `aamir eval`; they add up
/// to [`knowledge`]. Terms switched off score 0.
pub fn parts(pos: &Position, w: &Weights) -> Vec<(&'static str, Part)> {
    let mut ctx = Context::new(pos);
    ctx.trap = trapcontrol::raw_control(pos, &ctx);
    let mut out = vec![(
        "trap control by reach",
        Part::Net(trapcontrol::trap_control_score(
            &ctx,
            w.tc_scale,
            w.tc_defence_pct,
            w.tc_attack_pct,
        )),
    )];
    let g = side_parts(pos, &ctx, Color::Gold, w);
    let s = side_parts(pos, &ctx, Color::Silver, w);
    for (i, name) in SIDE_PARTS.iter().enumerate() {
        out.push((name, Part::Sides(g[i], s[i])));
    }
    out
}
