//! Static evaluation in centi-rabbits, from the side to move's view.
//!
//! Material comes from [`material`] (HarLog form). The positional terms are
//! the ones the strong bots found to matter most in Arimaa: trap control,
//! frozen pieces, pieces standing on traps, the elephant's centrality,
//! officers' placement and rabbit advancement. Their weights live in one
//! table, [`Weights`]: a new weight is one line there.

pub mod alignment;
pub mod blockades;
pub mod dominance;
pub mod geometry;
pub mod hostages;
pub mod knowledge;
pub mod material;
pub mod mobility;
pub mod placement;
pub mod rabgoal;
pub mod runners;
pub mod trapcontrol;
pub mod trapthreats;
pub mod variance;
pub mod wings;

use crate::board::STEPS_PER_TURN;
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::{Color, Kind, Position};
use crate::tactics::{capture, threats};

crate::settings::table! {
    /// Every tunable weight of the evaluation: one line each (name, type,
    /// default, range). Each element has a flat index and a name (arrays:
    /// `rabbit_rank_0` ...), so a tuner can read and write them as numbers
    /// through [`crate::settings::Table`].
    pub struct Weights {
        /// Per relative rank (0 = own home rank) for a rabbit.
        rabbit_rank: [i32; 8] = [0, 0, 3, 6, 12, 22, 40, 0], WEIGHT_RANGE;
        /// Per kind, for each frozen piece.
        frozen: [i32; 6] = [3, 6, 8, 12, 18, 0], WEIGHT_RANGE;
        /// For a piece on a trap guarded by a single friend, per kind.
        on_trap_weak: [i32; 6] = [4, 8, 12, 18, 28, 30], WEIGHT_RANGE;
        /// Trap control: per trap, having 2+ pieces next to it.
        trap_two_guards: i32 = 14, WEIGHT_RANGE;
        /// Trap control: per trap, having the strongest piece next to it.
        trap_strongest: i32 = 10, WEIGHT_RANGE;
        /// Weight of trap control over one's own home traps (defence), in
        /// percent of the base.
        trap_home_pct: i32 = 100, WEIGHT_RANGE;
        /// Weight of trap control over the opponent's home traps (attack),
        /// in percent of the base.
        trap_enemy_home_pct: i32 = 120, WEIGHT_RANGE;
        /// Elephant: bonus per square of centrality (0-6).
        elephant_center: i32 = 4, WEIGHT_RANGE;
        /// Camel and horses: centrality bonus per square.
        officer_center: i32 = 2, WEIGHT_RANGE;
        /// Per step left in the turn of the side to move.
        tempo: i32 = 3, WEIGHT_RANGE;
        /// An officer no enemy piece can dominate: bonus per square of
        /// centrality (it is free to roam and attack).
        dominant_center: i32 = 2, WEIGHT_RANGE;
        /// An officer that stronger enemies remain for, standing in the enemy
        /// half: penalty per rank past the middle, per stronger enemy (up to 3).
        exposed: i32 = 3, WEIGHT_RANGE;
        /// Per empty square next to the elephant.
        elephant_mobility: i32 = 2, WEIGHT_RANGE;
        /// Rabbit advancement grows by this percentage per enemy officer gone
        /// (fewer defenders make runners dangerous).
        rabbit_scale_pct: i32 = 12, WEIGHT_RANGE;
        /// Crowding: rabbit advancement falls by this percentage per unit of
        /// enemy force above `rabbit_crowd_knee`, where the force is twice
        /// the enemy officers plus the enemy rabbits (24 at the start). With
        /// the board full, a rabbit that walks forward alone is a target and
        /// leaves a hole at home; strong bots score it below zero (0 = off).
        /// 25 against 0 won its SPRT, 44-15, +186.9 Elo [+86.5, +287.3],
        /// and scored 11-39 against main's 5-45 against Sharp at its fastest
        /// (docs/experiments.md, stop 26).
        rabbit_crowd_pct: i32 = 25, WEIGHT_RANGE;
        /// The enemy force at and below which advancement counts in full.
        rabbit_crowd_knee: i32 = 11, 0..=24;
        /// Crowding scales a rabbit's advancement only up to this relative
        /// rank (0 = own home rank); what the table adds beyond it counts at
        /// the uncrowded scale. At the start crowding makes every advance
        /// negative, so a rabbit on its 7th rank scored -90: aamir saw
        /// Sharp's runners on its own 2nd rank as Sharp's weakness, just
        /// before they scored. 7 = crowding over the whole table (the goal
        /// rank's entry is never used in a live position).
        rabbit_crowd_top: i32 = 7, 0..=7;
        /// Share (percent) of the best piece the side to move can capture
        /// with one push or pull, counted as if won.
        capture_now_pct: i32 = 60, WEIGHT_RANGE;
        /// Share of the second most valuable of our pieces the opponent
        /// threatens to take with one push or pull (we can usually save only
        /// one). 30 (was 50) with the null move and root reductions won
        /// their SPRT together (docs/experiments.md, stops 34-35).
        threat_second_pct: i32 = 30, WEIGHT_RANGE;
        /// Share of the most valuable of our pieces the opponent threatens to
        /// take with one push or pull (saving it costs steps, and it is not
        /// always possible). At 10 a leaf charged only a tenth of a piece
        /// it could not save, so the search gave rabbits away to push the
        /// capture past its horizon; 40 against 10 scored 75-52 in 127
        /// games, +63.6 Elo [+2.5, +124.7] (docs/experiments.md, stop 18).
        threat_first_pct: i32 = 40, WEIGHT_RANGE;
        /// Steps the side to move's capture term looks ahead: 2 (or less)
        /// is one push or pull (a cheap exact test); 3 or 4 asks the full
        /// capture detector (`tactics::capture`) for captures within that
        /// many of its steps left.
        capture_reach: i32 = 2, 0..=4;
        /// The same for the two threat terms: the opponent's captures on its
        /// next turn within this many steps, so a piece left where the enemy
        /// takes it with a whole turn counts too.
        threat_reach: i32 = 2, 0..=4;

        // --- Knowledge terms (see `knowledge`); each is off at 0. ---
        // Trap control, danger at traps, hostages, frames and dominance are
        // on at half the hand-set weights that lost (trap control 60,
        // danger 40, hostages 40, dominance 30, frames 30: 10-30 at an
        // equal depth of 8). At full weight they guard the officers with
        // the rabbits; at half they won at an equal depth of 6 and then
        // their SPRT (docs/experiments.md, stop 37). Blockades, goal-line
        // defence and placement stay off.
        /// Trap control by reach: centi-rabbits per trap at full control.
        tc_scale: i32 = 30, WEIGHT_RANGE;
        /// Trap control, percent, when the owner holds its home trap (defence).
        tc_defence_pct: i32 = 100, WEIGHT_RANGE;
        /// Trap control, percent, when the enemy holds it (attack).
        tc_attack_pct: i32 = 130, WEIGHT_RANGE;
        /// Pieces next to a trap the enemy controls with an attacker in
        /// reach: percent of the piece's value at full control.
        trap_danger_pct: i32 = 20, WEIGHT_RANGE;
        /// Trap threats by distance: pieces within three steps of a trap
        /// the enemy holds or contests, percent of their value when the
        /// enemy needs at most a step to take them (see `trapthreats`).
        /// 25 against 0 won its SPRT, 94-59, +80.9 Elo [+24.6, +137.2]
        /// (docs/experiments.md, stop 56).
        trap_threat_pct: i32 = 25, WEIGHT_RANGE;
        /// Hostages: percent of the hostage's value at full control.
        hostage_pct: i32 = 20, WEIGHT_RANGE;
        /// Hostages: what the holder pays for each one its elephant holds.
        hostage_holder: i32 = 0, WEIGHT_RANGE;
        /// Framed pieces: percent of their value.
        frame_pct: i32 = 15, WEIGHT_RANGE;
        /// Dominated officers far from support: percent of their value.
        dominance_pct: i32 = 15, WEIGHT_RANGE;
        /// A blockaded elephant (a quarter when one way out is left).
        blockade: i32 = 0, WEIGHT_RANGE;
        /// Rabbit goal threats by steps to goal, percent of the base table.
        /// 200 against 0 won its SPRT in stop 23, 108-72, +70.4 Elo; off
        /// since stop 64, when `rabbit_run_pct` took its place (below).
        rabbit_goal_pct: i32 = 0, WEIGHT_RANGE;
        /// Rabbit runners by the shape of the board ahead of them
        /// (blockers in a cone, the strongest pieces near the goal corner,
        /// control of the wing's enemy trap; see `runners`), percent. 100
        /// in place of `rabbit_goal_pct` 200 won its SPRT, 86-52, +87.4 Elo
        /// [+27.9, +146.9] (docs/experiments.md, stop 64).
        rabbit_run_pct: i32 = 100, WEIGHT_RANGE;
        /// Percent of each side's rabbit runners counted as odds of an
        /// early end rather than as points: worth more to the side behind,
        /// less to the side ahead, and capping a lead (see `variance`;
        /// 0 = off). 30 against 0 won its SPRT, 135-96, +59.2 Elo [+13.9,
        /// +104.6] (docs/experiments.md, stop 65).
        rabbit_var_pct: i32 = 30, 0..=100;
        /// Per open home file near an advanced enemy rabbit, per rank.
        goal_line: i32 = 0, WEIGHT_RANGE;
        /// Placement tables by stronger enemies, percent.
        placement_pct: i32 = 0, WEIGHT_RANGE;
        /// A cramped elephant (few squares within four steps): the charge
        /// at no reach at all (see `mobility`). 100, with `wing_pct` 200
        /// and `align_pct` 200, against 0, 0 and 100 won its SPRT, 197-151,
        /// +46.2 Elo [+9.4, +83.0] (docs/experiments.md, stop 74).
        ele_mobility: i32 = 100, WEIGHT_RANGE;
        /// Thin wings: a side charged for a wing its elephant and three
        /// strongest kinds reach poorly, percent (see `wings`; 0 = off;
        /// 200 adopted with the stop 74 bundle, see `ele_mobility`).
        wing_pct: i32 = 200, WEIGHT_RANGE;
        /// Attack alignment: the three strongest kinds paid for standing
        /// near the strongest enemy kind each outranks, percent (see
        /// `alignment`; 0 = off; 100 adopted at stop 73 by SPRT, 200 with
        /// the stop 74 bundle, see `ele_mobility`).
        align_pct: i32 = 200, WEIGHT_RANGE;
    }
}

/// Every weight's range: wide enough for any sensible tuning, narrow enough
/// that no sum of terms can overflow an `i32` or reach the win scores.
const WEIGHT_RANGE: std::ops::RangeInclusive<i32> = -10_000..=10_000;

/// Centrality: 0 on the edge files/ranks, up to 6 in the middle four.
const fn make_center() -> [i32; 64] {
    let mut t = [0i32; 64];
    let mut i = 0;
    while i < 64 {
        let f = (i % 8) as i32;
        let r = (i / 8) as i32;
        let df = if f < 4 { f } else { 7 - f };
        let dr = if r < 4 { r } else { 7 - r };
        t[i] = df + dr;
        i += 1;
    }
    t
}
static CENTER: [i32; 64] = make_center();

/// Every static score lies within plus or minus this: below the search's
/// win scores whatever the weights (each may be set to +-10,000, and the
/// tempo term alone times four steps would reach them), so that no static
/// score is ever taken for a won or lost game. The search checks at compile
/// time that this stays below its win band.
pub const EVAL_LIMIT: i32 = 25_000;

/// The evaluator: weights plus nothing else, so it can be shared freely.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    pub w: Weights,
}

impl Evaluator {
    /// Score of `pos` for its side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let me = pos.side();
        let mut s = material::material(pos, me);
        s += self.side_terms(pos, me) - self.side_terms(pos, me.opp());
        s += self.w.tempo * pos.steps_left() as i32;
        let (k, run) = knowledge::knowledge(pos, &self.w);
        s += if me == Color::Gold { k } else { -k };
        s += self.capture_terms(pos);
        s += self.variance_part(s, run, me);
        s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// What reading `rabbit_var_pct` of each side's runners (`run`, by
    /// colour) as odds adds to `score`, the side to move's (`me`) score
    /// with all of them counted as points.
    #[inline]
    fn variance_part(&self, score: i32, run: [i32; 2], me: Color) -> i32 {
        let pct = self.w.rabbit_var_pct;
        if pct == 0 {
            return 0;
        }
        // `adjust` reads negative points as none.
        let mine = run[me.index()] * pct / 100;
        let theirs = run[me.opp().index()] * pct / 100;
        variance::adjust(score, mine, theirs) - score
    }

    /// Captures one push or pull away: the side to move will likely take
    /// its best one; of the opponent's threats it can usually parry one.
    fn capture_terms(&self, pos: &Position) -> i32 {
        let [now, threat] = self.capture_parts(pos);
        now - threat
    }

    /// The side to move's capture gain and the loss it is threatened with
    /// (both in its favour as signed here: the gain, then the loss).
    #[inline]
    fn capture_parts(&self, pos: &Position) -> [i32; 2] {
        let me = pos.side();
        let w = &self.w;
        let reach = w.capture_reach.clamp(2, STEPS_PER_TURN as i32) as u8;
        let threat_reach = w.threat_reach.clamp(2, STEPS_PER_TURN as i32) as u8;
        let mut now = 0;
        if pos.steps_left() >= 2 {
            let best = capturable(pos, me, reach)
                .filter_map(|sq| pos.piece_at(sq))
                .map(|p| material::gain_of_capture(pos, me, p.kind()))
                .max()
                .unwrap_or(0);
            now = best * w.capture_now_pct / 100;
        }
        // The two largest losses threatened.
        let (mut first, mut second) = (0, 0);
        for sq in capturable(pos, me.opp(), threat_reach) {
            if let Some(p) = pos.piece_at(sq) {
                let loss = material::gain_of_capture(pos, me.opp(), p.kind());
                if loss > first {
                    second = first;
                    first = loss;
                } else if loss > second {
                    second = loss;
                }
            }
        }
        [
            now,
            first * w.threat_first_pct / 100 + second * w.threat_second_pct / 100,
        ]
    }

    /// The static score of `pos` term by term, as `aamir eval` prints it:
    /// each line's score for gold (gold's part minus silver's), with each
    /// side's own part where the term has one. The lines add up to
    /// [`Evaluator::evaluate`] seen from gold, before the clamp.
    pub fn explain(&self, pos: &Position) -> Vec<TermLine> {
        let me = pos.side();
        let sign = |c: Color| if c == Color::Gold { 1 } else { -1 };
        let mut lines = vec![TermLine::net(
            "material",
            material::material(pos, Color::Gold),
        )];
        let (g, s) = (
            self.side_parts(pos, Color::Gold),
            self.side_parts(pos, Color::Silver),
        );
        for (i, name) in SIDE_PARTS.iter().enumerate() {
            lines.push(TermLine::sides(name, g[i], s[i]));
        }
        let mut tempo = [0, 0];
        tempo[me.index()] = self.w.tempo * pos.steps_left() as i32;
        lines.push(TermLine::by_color("tempo", tempo));
        for (name, by_side) in knowledge::parts(pos, &self.w) {
            lines.push(match by_side {
                knowledge::Part::Sides(g, s) => TermLine::sides(name, g, s),
                knowledge::Part::Net(v) => TermLine::net(name, v),
            });
        }
        let [now, threat] = self.capture_parts(pos);
        let mut gain = [0, 0];
        gain[me.index()] = now;
        lines.push(TermLine::by_color("capture now (side to move)", gain));
        let mut loss = [0, 0];
        loss[me.index()] = -threat;
        lines.push(TermLine::by_color("threatened (side to move)", loss));
        let before = lines.iter().map(|l| l.net).sum::<i32>() * sign(me);
        let (_, run) = knowledge::knowledge(pos, &self.w);
        let mut odds = [0, 0];
        odds[me.index()] = self.variance_part(before, run, me);
        lines.push(TermLine::by_color("runners as odds (side to move)", odds));
        debug_assert_eq!(
            (lines.iter().map(|l| l.net).sum::<i32>() * sign(me)).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            self.evaluate(pos),
        );
        lines
    }

    fn side_terms(&self, pos: &Position, c: Color) -> i32 {
        self.side_parts(pos, c).iter().sum()
    }

    /// `c`'s own positional terms, good for `c` when positive, in the order
    /// of [`SIDE_PARTS`]: the sum is [`Evaluator::side_terms`], the parts
    /// are what `aamir eval` prints.
    #[inline]
    fn side_parts(&self, pos: &Position, c: Color) -> [i32; 5] {
        let w = &self.w;
        let mut parts = [0; 5];
        let enemy_officers = (pos.occupied_by(c.opp()) & !pos.rabbits(c.opp())).count() as i32;
        // Rabbits: advancement, worth more as enemy officers disappear.
        let plain = 100 + w.rabbit_scale_pct * (8 - enemy_officers).max(0);
        let mut scale = plain;
        if w.rabbit_crowd_pct != 0 {
            let force = 2 * enemy_officers + pos.rabbits(c.opp()).count() as i32;
            scale = scale * (100 - w.rabbit_crowd_pct * (force - w.rabbit_crowd_knee).max(0)) / 100;
        }
        // `adv` is the table up to `rabbit_crowd_top`, crowded; `free` the
        // rest, at the plain scale.
        let top = w.rabbit_crowd_top as usize;
        let (mut adv, mut free) = (0, 0);
        for sq in pos.rabbits(c) {
            let rel = if c == Color::Gold {
                sq.rank()
            } else {
                7 - sq.rank()
            } as usize;
            let capped = w.rabbit_rank[rel.min(top)];
            adv += capped;
            free += w.rabbit_rank[rel] - capped;
        }
        parts[0] = adv * scale / 100;
        if free != 0 {
            parts[0] += free * plain / 100;
        }
        let mut s = 0;
        // Frozen pieces.
        let frozen = pos.frozen(c);
        for k in Kind::ALL {
            s -= w.frozen[k.index()] * (pos.kind_bb(c, k) & frozen).count() as i32;
        }
        parts[1] = s;
        let mut s = 0;
        // Elephant and officers' centrality.
        for sq in pos.kind_bb(c, Kind::Elephant) {
            s += w.elephant_center * CENTER[sq.index()];
            s += w.elephant_mobility * (adjacent(sq) & pos.empty_squares()).count() as i32;
        }
        for sq in pos.kind_bb(c, Kind::Camel) | pos.kind_bb(c, Kind::Horse) {
            s += w.officer_center * CENTER[sq.index()];
        }
        parts[2] = s;
        let mut s = 0;
        // Officers by how many enemy pieces are stronger: a dominant one
        // wants the centre; a dominated one is in danger in the enemy half.
        let mut stronger = pos.occupied_by(c.opp());
        for k in Kind::ALL {
            stronger = stronger.and_not(pos.kind_bb(c.opp(), k));
            if k == Kind::Rabbit {
                continue;
            }
            let n = stronger.count() as i32;
            for sq in pos.kind_bb(c, k) {
                if n == 0 {
                    s += w.dominant_center * CENTER[sq.index()];
                } else {
                    let rel = if c == Color::Gold {
                        sq.rank()
                    } else {
                        7 - sq.rank()
                    } as i32;
                    if rel >= 4 {
                        s -= w.exposed * (rel - 3) * n.min(3);
                    }
                }
            }
        }
        parts[3] = s;
        let mut s = 0;
        // Traps: control and pieces standing on them.
        let own = pos.occupied_by(c);
        let opp = pos.occupied_by(c.opp());
        for tsq in Bitboard::TRAPS {
            let adj = adjacent(tsq);
            let mine = adj & own;
            let theirs = adj & opp;
            let mut ctl = 0;
            if mine.count() >= 2 {
                ctl += w.trap_two_guards;
            }
            if strongest(pos, c, mine) > strongest(pos, c.opp(), theirs) {
                ctl += w.trap_strongest;
            }
            let home = (tsq.rank() < 4) == (c == Color::Gold);
            let pct = if home {
                w.trap_home_pct
            } else {
                w.trap_enemy_home_pct
            };
            s += ctl * pct / 100;
            if own.contains(tsq)
                && mine.count() <= 1
                && let Some(p) = pos.piece_at(tsq)
            {
                s -= w.on_trap_weak[p.kind().index()];
            }
        }
        parts[4] = s;
        parts
    }
}

/// Names of [`Evaluator::side_parts`], in order.
const SIDE_PARTS: [&str; 5] = [
    "rabbit advancement",
    "frozen pieces",
    "centrality and elephant mobility",
    "officers by stronger enemies",
    "traps (guards, pieces on them)",
];

/// One line of [`Evaluator::explain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    pub name: &'static str,
    /// Gold's and silver's own parts, each good for its side when
    /// positive; `None` for a term scored for both at once.
    pub sides: Option<(i32, i32)>,
    /// The term's score for gold.
    pub net: i32,
}

impl TermLine {
    fn sides(name: &'static str, gold: i32, silver: i32) -> TermLine {
        TermLine {
            name,
            sides: Some((gold, silver)),
            net: gold - silver,
        }
    }

    fn by_color(name: &'static str, v: [i32; 2]) -> TermLine {
        TermLine::sides(name, v[Color::Gold.index()], v[Color::Silver.index()])
    }

    fn net(name: &'static str, net: i32) -> TermLine {
        TermLine {
            name,
            sides: None,
            net,
        }
    }
}

/// The enemy pieces `attacker` can capture within `reach` steps (its steps
/// left when it is to move, a whole turn otherwise): the exact two-step
/// test at 2, the full capture detector beyond.
fn capturable(pos: &Position, attacker: Color, reach: u8) -> Bitboard {
    if reach <= 2 {
        threats::two_step_captures(pos, attacker)
    } else {
        capture::capture_threats(pos, attacker, reach).squares()
    }
}

/// Strength (kind index + 1) of the strongest piece of `c` in `set`, 0 if none.
#[inline]
fn strongest(pos: &Position, c: Color, set: Bitboard) -> i32 {
    for k in Kind::ALL.iter().rev() {
        if (pos.kind_bb(c, *k) & set).any() {
            return k.index() as i32 + 1;
        }
    }
    0
}

/// A gold-to-move position from eight rank strings (rank 8 first), for the
/// terms' unit tests.
#[cfg(test)]
pub(crate) fn test_pos(rows: [&str; 8]) -> Position {
    crate::board::notation::parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap()
}

/// The shared facts of `p` with trap control filled in, as the knowledge
/// terms see them, for their unit tests.
#[cfg(test)]
pub(crate) fn test_ctx(p: &Position) -> geometry::Context {
    let mut ctx = geometry::Context::new(p);
    ctx.trap = trapcontrol::raw_control(p, &ctx);
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::notation::parse_side_and_board;

    /// The lines of `explain` add up to the score, with every knowledge
    /// term switched on, for either side to move and mid-turn; and a term
    /// that is off prints 0.
    #[test]
    fn the_explained_terms_add_up_to_the_score() {
        use crate::settings::Table;
        let mut on = Evaluator::default();
        for (name, v) in [
            ("tc_scale", 60),
            ("trap_danger_pct", 60),
            ("trap_threat_pct", 30),
            ("hostage_pct", 40),
            ("hostage_holder", 10),
            ("frame_pct", 30),
            ("ele_mobility", 60),
            ("dominance_pct", 30),
            ("blockade", 80),
            ("goal_line", 5),
            ("placement_pct", 100),
            ("rabbit_var_pct", 60),
            ("wing_pct", 100),
            ("align_pct", 100),
        ] {
            on.w.set_named(name, &v.to_string()).unwrap();
        }
        // The camel of game 1 of a Sharp match: frozen beside the enemy
        // elephant, next to the c6 trap.
        let board = [
            "rcrrrrcr", "  rddr h", " h M   R", "R Ee    ", "      Rm", "    R   ", "  RD R H",
            "D CRR CH",
        ]
        .concat();
        for side in ["g", "s"] {
            let mut pos = parse_side_and_board(&format!("{side} [{board}]")).unwrap();
            for eval in [&on, &Evaluator::default()] {
                for _ in 0..2 {
                    let lines = eval.explain(&pos);
                    let sum: i32 = lines.iter().map(|l| l.net).sum();
                    let for_mover = if pos.side() == Color::Gold { sum } else { -sum };
                    assert_eq!(for_mover, eval.evaluate(&pos), "{side} to move");
                    pos.set_steps_left(2);
                }
                pos.set_steps_left(4);
            }
            let lines = on.explain(&pos);
            let hostages = lines.iter().find(|l| l.name == "hostages").unwrap();
            assert!(hostages.sides.unwrap().0 < 0, "the gold camel is a hostage");
            // Gold's h6 rabbit is a runner, so reading it as odds moves
            // the score.
            let odds = lines
                .iter()
                .find(|l| l.name.starts_with("runners as odds"))
                .unwrap();
            assert_ne!(odds.net, 0);
            // Switched off, the term charges nothing.
            let mut off = Evaluator::default();
            off.w.set_named("hostage_pct", "0").unwrap();
            let off = off.explain(&pos);
            let hostages = off.iter().find(|l| l.name == "hostages").unwrap();
            assert_eq!(hostages.net, 0);
        }
        // Beyond the evaluation's limit the lines still add up to what was
        // computed; the score is their clamped sum.
        let mut huge = Evaluator::default();
        huge.w.tempo = 10_000;
        let pos = parse_side_and_board(&format!("g [{board}]")).unwrap();
        let sum: i32 = huge.explain(&pos).iter().map(|l| l.net).sum();
        assert!(sum > EVAL_LIMIT);
        assert_eq!(huge.evaluate(&pos), EVAL_LIMIT);
    }

    #[test]
    fn symmetric_opening_is_even_apart_from_tempo() {
        let e = Evaluator::default();
        let pos = Position::standard_opening();
        assert_eq!(e.evaluate(&pos), 4 * e.w.tempo);
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_mover() {
        let e = Evaluator::default();
        let a = parse_side_and_board(concat!(
            "g [", "r rr rrr", "dh emchd", "  c     ", "        ", "     R  ", "   RDH  ",
            "CMEC D  ", "RRR RR  ", "]"
        ))
        .unwrap();
        // Mirror ranks and swap colours.
        let mut b = Position::empty(Color::Silver);
        for sq in a.occupied() {
            let p = a.piece_at(sq).unwrap();
            let flipped = crate::board::Piece::new(p.color().opp(), p.kind());
            b.put(flipped, Square::from_coords(sq.file(), 7 - sq.rank()));
        }
        assert_eq!(e.evaluate(&a), e.evaluate(&b));
        assert_ne!(e.evaluate(&a), 4 * e.w.tempo);
    }
}

#[cfg(test)]
mod weight_tests {
    use super::*;

    #[test]
    fn every_weight_can_be_set_by_index_and_by_name() {
        use crate::settings::Table;
        for i in 0..Weights::len() {
            let name = Weights::name(i).unwrap();
            // 1234, or the top of a narrower range; the bottom when the
            // default already stands at the top (`rabbit_crowd_top`).
            let spec = Weights::spec(i).unwrap();
            let mut x = 1234.min(spec.max);
            if Weights::default().get(i) == Some(x) {
                x = spec.min;
            }
            let mut w = Weights::default();
            w.set_named(&name, &x.to_string()).unwrap();
            assert_ne!(w, Weights::default(), "{name}");
            assert_eq!(w.get(i), Some(x), "{name}");
            let mut v = Weights::default();
            v.set(i, x).unwrap();
            assert_eq!(v, w, "{name}");
        }
        let mut w = Weights::default();
        w.set_named("rabbit_rank_6", "41").unwrap();
        assert_eq!(w.rabbit_rank[6], 41);
        assert!(w.set_named("tempo", "x").is_err());
        assert!(w.set_named("tempo", "10001").is_err());
        assert!(w.set_named("nope", "1").is_err());
        assert!(w.set_named("rabbit_rank_8", "1").is_err());
    }

    /// A silver cat on d4 below a gold elephant: two pushes (four steps)
    /// take it to the empty trap c3, one push does not.
    const FOUR_STEP_CAPTURE: [&str; 8] = [
        "r      r", "        ", "        ", "   E    ", "   c    ", "        ", "        ",
        "R      R",
    ];

    #[test]
    fn the_capture_reach_decides_whether_a_whole_turn_capture_counts() {
        use crate::board::notation::parse_side_and_board;
        let gold = parse_side_and_board(&format!("g [{}]", FOUR_STEP_CAPTURE.concat())).unwrap();
        let silver = parse_side_and_board(&format!("s [{}]", FOUR_STEP_CAPTURE.concat())).unwrap();
        let near = Evaluator::default();
        let mut far = Evaluator::default();
        far.w.capture_reach = 4;
        far.w.threat_reach = 4;
        // Gold to move takes the cat with its four steps: a gain only the
        // longer reach sees.
        let gain = far.evaluate(&gold) - near.evaluate(&gold);
        assert!(gain > 50, "gain {gain}");
        // Silver to move has the cat threatened: a loss only the longer
        // threat reach sees.
        assert!(far.evaluate(&silver) < near.evaluate(&silver));
        // Gold with only three steps left cannot make the capture.
        let mut short = gold.clone();
        short.set_steps_left(3);
        assert_eq!(far.evaluate(&short), near.evaluate(&short));
    }

    #[test]
    fn no_weight_setting_lifts_a_static_score_into_the_win_band() {
        let pos = test_pos([
            " m  rhr ", "  e  hC ", "Mrrc   c", "R  d R r", "       R", "R    RCR", "D R H  E",
            "D  RH   ",
        ]);
        for (name, v) in [
            ("tempo", "10000"),
            ("tempo", "-10000"),
            ("elephant_center", "10000"),
        ] {
            use crate::settings::Table;
            let mut e = Evaluator::default();
            e.w.set_named(name, v).unwrap();
            let s = e.evaluate(&pos);
            assert!(s.abs() <= EVAL_LIMIT, "{name}={v}: {s}");
        }
        assert!(Evaluator::default().evaluate(&pos).abs() < 1000);
    }

    #[test]
    fn crowding_makes_an_early_lone_rabbit_advance_a_minus() {
        // A gold rabbit on d5 or at home on d2, against silver's whole army
        // and against silver's rabbits alone.
        let full = |r5: &str, r2: &str| {
            test_pos([
                "rrrrrrrr", "hdcemcdh", "        ", "        ", r5, "        ", r2, "RRRDDCCR",
            ])
        };
        let bare = |r5: &str, r2: &str| {
            test_pos([
                "rrrrrrrr", "        ", "        ", "        ", r5, "        ", r2, "RRRDDCCR",
            ])
        };
        // Runners read as odds rescale the whole score by how far ahead a
        // side is (gold leads by a whole army against rabbits alone), so
        // they are off here: this is about crowding's points.
        // Elephant mobility is off too: a rabbit on d4 cramps silver's
        // elephant, a gain of its own that is not crowding's business.
        let mut off = Evaluator::default();
        off.w.rabbit_crowd_pct = 0;
        off.w.rabbit_var_pct = 0;
        off.w.ele_mobility = 0;
        let mut on = off.clone();
        on.w.rabbit_crowd_pct = 13;
        let adv = |e: &Evaluator, f: &dyn Fn(&str, &str) -> Position| {
            e.evaluate(&f("   R    ", "        ")) - e.evaluate(&f("        ", "   R    "))
        };
        assert!(adv(&off, &full) > 0, "{}", adv(&off, &full));
        assert!(adv(&on, &full) < 0, "{}", adv(&on, &full));
        // Against rabbits only the advance counts as before.
        assert_eq!(adv(&on, &bare), adv(&off, &bare));
        assert!(adv(&on, &bare) > 0);
        // The default (25) is crowding on.
        let mut default = Evaluator::default();
        default.w.rabbit_var_pct = 0;
        assert!(adv(&default, &full) < 0);
        // With runners read as odds, a side this far behind (gold has no
        // elephant, camel or horses) prizes its runner above the charge.
        assert!(adv(&Evaluator::default(), &full) > adv(&default, &full));
    }

    #[test]
    fn crowding_can_stop_below_the_runners_ranks() {
        // One gold rabbit on d6 (relative rank 5) or d4 (3), the others at
        // home, against silver's whole army: the crowded scale is -225%.
        let at = |r6: &str, r4: &str| {
            test_pos([
                "rrrrrrrr", "hdcemcdh", r6, "        ", r4, "        ", "        ", "RRRDDCCR",
            ])
        };
        let runner = at("   R    ", "        ");
        let walker = at("        ", "   R    ");
        let adv = |e: &Evaluator, p: &Position| e.side_parts(p, Color::Gold)[0];
        let whole = Evaluator::default();
        let mut top4 = Evaluator::default();
        top4.w.rabbit_crowd_top = 4;
        // The default crowds the whole table: 22 at -225%.
        assert_eq!(adv(&whole, &runner), 22 * -225 / 100);
        // Capped at rank 4: its 12 crowded, the 10 beyond at the plain
        // scale (all eight silver officers left: 100%).
        assert_eq!(adv(&top4, &runner), 12 * -225 / 100 + 10);
        // Below the cap nothing changes.
        assert_eq!(adv(&top4, &walker), adv(&whole, &walker));
        assert_eq!(adv(&whole, &walker), 6 * -225 / 100);
        // The same for silver's runner on d3 against gold's whole army.
        let mirrored = test_pos([
            "rrrddccr", "        ", "        ", "        ", "        ", "   r    ", "HDCEMCDH",
            "RRRRRRRR",
        ]);
        let silver = |e: &Evaluator| e.side_parts(&mirrored, Color::Silver)[0];
        assert_eq!(silver(&whole), adv(&whole, &runner));
        assert_eq!(silver(&top4), adv(&top4, &runner));
    }

    #[test]
    fn a_capture_one_push_away_counts_for_the_side_to_move() {
        use crate::board::notation::parse_side_and_board;
        // A silver cat on c4 next to the empty, unguarded trap c3, a gold
        // dog on c5 above it: gold can push it in.
        let rows = [
            "        ", "        ", "        ", "  D     ", "  c     ", "        ", "R       ",
            "E      r",
        ];
        let text = format!("g [{}]", rows.concat());
        let pos = parse_side_and_board(&text).unwrap();
        let e = Evaluator::default();
        let mut off = Evaluator::default();
        off.w.capture_now_pct = 0;
        off.w.threat_first_pct = 0;
        off.w.threat_second_pct = 0;
        let gain = e.evaluate(&pos) - off.evaluate(&pos);
        assert!(gain > 50, "gain {gain}");
        // With silver to move the threat is against silver, not a gain.
        let text = format!("s [{}]", rows.concat());
        let pos = parse_side_and_board(&text).unwrap();
        assert!(e.evaluate(&pos) < off.evaluate(&pos));
    }
}
