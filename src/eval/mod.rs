//! Static evaluation in centi-rabbits, from the side to move's view.
//!
//! The score is the sum of the terms in [`TERMS`], one list that
//! [`Evaluator::evaluate`], [`Evaluator::explain`] (`aamir eval`),
//! `aamir bench --eval` and the tuners all read. Material comes first
//! ([`material`], HarLog form); then the positional knowledge the strong
//! bots found to matter in Arimaa: rabbit advancement, frozen pieces,
//! centrality, elephant mobility, trap control and danger at traps,
//! hostages and frames, dominance, rabbit runners, wing balance, attack
//! alignment, captures one push or pull away, and last the runners read
//! as odds ([`variance`]).
//!
//! # Adding a term
//!
//! One file holds the wiring, this one: write the term's function in a
//! module of its own (declare it below), add its weights to [`Weights`]
//! and one [`Term`] line to [`TERMS`]. The function gets the position's
//! [`Facts`]: the shared per-position facts ([`geometry::Context`], trap
//! control included) are computed on first use, once per evaluation, so
//! a term switched off (its weights at 0) costs nothing if it returns
//! before asking for them.

pub mod alignment;
pub mod basics;
pub mod dominance;
mod evaluator;
pub mod geometry;
pub mod hostages;
pub mod material;
pub mod mobility;
pub mod nnue;
pub mod runners;
pub mod trapcontrol;
pub mod trapthreats;
pub mod variance;
pub mod wings;

pub use evaluator::{Evaluator, Facts, Score, Term, TermLine};

use crate::board::Color;
#[cfg(test)]
use crate::board::Position;

crate::settings::table! {
    /// Every tunable weight of the evaluation: one line each (name, type,
    /// default, range). Each element has a flat index and a name (arrays:
    /// `rabbit_rank_0` ...), so a tuner can read and write them as numbers
    /// through [`crate::settings::Table`]. The comments say what each
    /// weight means; `aamir params` prints them, and `docs/status.md` what
    /// each one measured.
    pub struct Weights {
        /// Per relative rank (0 = own home rank) for a rabbit.
        rabbit_rank: [i32; 8] = [0, 0, 3, 6, 12, 22, 40, 0], WEIGHT_RANGE;
        /// Rabbit advancement grows by this percentage per enemy officer gone
        /// (fewer defenders make runners dangerous).
        rabbit_scale_pct: i32 = 12, WEIGHT_RANGE;
        /// Crowding: rabbit advancement falls by this percentage per unit of
        /// enemy force above `rabbit_crowd_knee`, where the force is twice
        /// the enemy officers plus the enemy rabbits (24 at the start). With
        /// the board full, a rabbit that walks forward alone is a target and
        /// leaves a hole at home; strong bots score it below zero (0 = off).
        rabbit_crowd_pct: i32 = 25, WEIGHT_RANGE;
        /// The enemy force at and below which advancement counts in full.
        rabbit_crowd_knee: i32 = 11, 0..=24;
        /// Per kind, for each frozen piece.
        frozen: [i32; 6] = [3, 6, 8, 12, 18, 0], WEIGHT_RANGE;
        /// Elephant: bonus per square of centrality (0-6).
        elephant_center: i32 = 4, WEIGHT_RANGE;
        /// Camel and horses: centrality bonus per square.
        officer_center: i32 = 2, WEIGHT_RANGE;
        /// Elephant mobility: per empty square next to the elephant.
        elephant_mobility: i32 = 2, WEIGHT_RANGE;
        /// Elephant mobility: the charge for an elephant that reaches no
        /// square at all in four steps, falling with the square of the
        /// shortfall to 0 at full reach (see `mobility`).
        elephant_cramp: i32 = 100, WEIGHT_RANGE;
        /// An officer no enemy piece can dominate: bonus per square of
        /// centrality (it is free to roam and attack).
        dominant_center: i32 = 2, WEIGHT_RANGE;
        /// An officer that stronger enemies remain for, standing in the enemy
        /// half: penalty per rank past the middle, per stronger enemy (up to 3).
        exposed: i32 = 3, WEIGHT_RANGE;
        /// Trap control by guards: per trap, having 2+ pieces next to it.
        trap_two_guards: i32 = 14, WEIGHT_RANGE;
        /// Trap control by guards: per trap, having the strongest piece next
        /// to it.
        trap_strongest: i32 = 10, WEIGHT_RANGE;
        /// Trap control by guards over the opponent's home traps (attack),
        /// in percent of the guards' weights.
        trap_enemy_home_pct: i32 = 120, WEIGHT_RANGE;
        /// Trap control by reach: centi-rabbits per home trap at full
        /// control (see `trapcontrol`).
        tc_scale: i32 = 30, WEIGHT_RANGE;
        /// Trap control by reach, percent, for a home trap the enemy holds
        /// (its attack).
        tc_attack_pct: i32 = 130, WEIGHT_RANGE;
        /// For a piece on a trap guarded by a single friend, per kind.
        on_trap_weak: [i32; 6] = [4, 8, 12, 18, 28, 30], WEIGHT_RANGE;
        /// Per step left in the turn of the side to move.
        tempo: i32 = 3, WEIGHT_RANGE;
        /// Pieces next to a trap the enemy controls with an attacker in
        /// reach: percent of the piece's value at full control.
        trap_danger_pct: i32 = 20, WEIGHT_RANGE;
        /// Trap threats by distance: pieces within three steps of a trap
        /// the enemy holds or contests, percent of their value when the
        /// enemy needs at most a step to take them (see `trapthreats`).
        trap_threat_pct: i32 = 25, WEIGHT_RANGE;
        /// Hostages: percent of the hostage's value at full control.
        hostage_pct: i32 = 20, WEIGHT_RANGE;
        /// Framed pieces: percent of their value.
        frame_pct: i32 = 15, WEIGHT_RANGE;
        /// Dominated officers far from support: percent of their value.
        dominance_pct: i32 = 15, WEIGHT_RANGE;
        /// Rabbit runners by the shape of the board ahead of them
        /// (blockers in a cone, the strongest pieces near the goal corner,
        /// control of the wing's enemy trap; see `runners`), percent.
        rabbit_run_pct: i32 = 100, WEIGHT_RANGE;
        /// Thin wings: a side charged for a wing its elephant and three
        /// strongest kinds reach poorly, percent (see `wings`; 0 = off).
        wing_pct: i32 = 200, WEIGHT_RANGE;
        /// Attack alignment: the three strongest kinds paid for standing
        /// near the strongest enemy kind each outranks, percent (see
        /// `alignment`; 0 = off).
        align_pct: i32 = 200, WEIGHT_RANGE;
        /// Share (percent) of the best piece the side to move can capture
        /// with one push or pull, counted as if won.
        capture_now_pct: i32 = 60, WEIGHT_RANGE;
        /// Share of the most valuable of our pieces the opponent threatens to
        /// take with one push or pull (saving it costs steps, and it is not
        /// always possible).
        threat_first_pct: i32 = 40, WEIGHT_RANGE;
        /// Share of the second most valuable of our pieces the opponent
        /// threatens to take with one push or pull (we can usually save only
        /// one).
        threat_second_pct: i32 = 30, WEIGHT_RANGE;
        /// Percent of each side's rabbit runners counted as odds of an
        /// early end rather than as points: worth more to the side behind,
        /// less to the side ahead, and capping a lead (see `variance`;
        /// 0 = off).
        rabbit_var_pct: i32 = 30, 0..=100;
    }
}

/// Every term of the evaluation, in the order `aamir eval` prints them.
/// The score is their sum for the side to move, clamped to
/// [`EVAL_LIMIT`]; see [`Term`] and [`Score`] for what each line holds.
pub const TERMS: &[Term] = &[
    Term {
        name: "material",
        weights: &[],
        score: Score::Gold(|f, _| material::material(f.pos, Color::Gold)),
    },
    Term {
        name: "rabbit advancement",
        weights: &[
            "rabbit_rank",
            "rabbit_scale_pct",
            "rabbit_crowd_pct",
            "rabbit_crowd_knee",
        ],
        score: Score::Sides(|f, c, w| basics::rabbit_advancement(f.pos, c, w)),
    },
    Term {
        name: "frozen pieces",
        weights: &["frozen"],
        score: Score::Sides(|f, c, w| -basics::frozen(f.pos, c, &w.frozen)),
    },
    Term {
        name: "centrality",
        weights: &["elephant_center", "officer_center"],
        score: Score::Sides(|f, c, w| {
            basics::centrality(f.pos, c, w.elephant_center, w.officer_center)
        }),
    },
    Term {
        name: "elephant mobility",
        weights: &["elephant_mobility", "elephant_cramp"],
        score: Score::Sides(|f, c, w| {
            mobility::elephant_room(f.pos, c, w.elephant_mobility)
                - mobility::elephant_cramp(f.pos, c, w.elephant_cramp)
        }),
    },
    Term {
        name: "officers by stronger enemies",
        weights: &["dominant_center", "exposed"],
        score: Score::Sides(|f, c, w| {
            basics::officers_by_stronger(f.pos, c, w.dominant_center, w.exposed)
        }),
    },
    Term {
        name: "trap control",
        weights: &[
            "trap_two_guards",
            "trap_strongest",
            "trap_enemy_home_pct",
            "tc_scale",
            "tc_attack_pct",
        ],
        score: Score::Sides(|f, c, w| {
            trapcontrol::by_guards(
                f.pos,
                c,
                w.trap_two_guards,
                w.trap_strongest,
                w.trap_enemy_home_pct,
            ) + on(w.tc_scale, || {
                trapcontrol::by_reach(f.ctx(), c, w.tc_scale, w.tc_attack_pct)
            })
        }),
    },
    Term {
        name: "pieces on weak traps",
        weights: &["on_trap_weak"],
        score: Score::Sides(|f, c, w| -trapcontrol::on_weak_traps(f.pos, c, &w.on_trap_weak)),
    },
    Term {
        name: "tempo",
        weights: &["tempo"],
        score: Score::Mover(|f, w| w.tempo * f.pos.steps_left() as i32),
    },
    Term {
        name: "pieces in danger at traps",
        weights: &["trap_danger_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.trap_danger_pct, || {
                -trapcontrol::trap_danger(f.pos, f.ctx(), c, w.trap_danger_pct)
            })
        }),
    },
    Term {
        name: "trap threats by distance",
        weights: &["trap_threat_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.trap_threat_pct, || {
                -trapthreats::trap_threats(f.pos, f.ctx(), c, w.trap_threat_pct)
            })
        }),
    },
    Term {
        name: "hostages",
        weights: &["hostage_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.hostage_pct, || {
                -hostages::hostages(f.pos, f.ctx(), c, w.hostage_pct)
            })
        }),
    },
    Term {
        name: "frames",
        weights: &["frame_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.frame_pct, || {
                -hostages::frames(f.pos, f.ctx(), c, w.frame_pct)
            })
        }),
    },
    Term {
        name: "dominance",
        weights: &["dominance_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.dominance_pct, || {
                -dominance::dominance(f.pos, f.ctx(), c, w.dominance_pct)
            })
        }),
    },
    Term {
        name: "rabbit runners",
        weights: &["rabbit_run_pct"],
        score: Score::Runners(|f, c, w| {
            on(w.rabbit_run_pct, || {
                runners::rabbit_runners(f.pos, f.ctx(), c, w.rabbit_run_pct)
            })
        }),
    },
    Term {
        name: "wing balance",
        weights: &["wing_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.wing_pct, || {
                -wings::wing_balance(f.pos, f.ctx(), c, w.wing_pct)
            })
        }),
    },
    Term {
        name: "attack alignment",
        weights: &["align_pct"],
        score: Score::Sides(|f, c, w| {
            on(w.align_pct, || {
                alignment::alignment(f.pos, f.ctx(), c, w.align_pct)
            })
        }),
    },
    Term {
        name: "capture now (side to move)",
        weights: &["capture_now_pct"],
        score: Score::Mover(|f, w| basics::capture_now(f.pos, w.capture_now_pct)),
    },
    Term {
        name: "threatened (side to move)",
        weights: &["threat_first_pct", "threat_second_pct"],
        score: Score::Mover(|f, w| {
            -basics::threatened(f.pos, w.threat_first_pct, w.threat_second_pct)
        }),
    },
    Term {
        name: "runners as odds (side to move)",
        weights: &["rabbit_var_pct"],
        score: Score::Odds(|before, run, w| variance::odds_part(before, run, w.rabbit_var_pct)),
    },
];

/// `term()` when its weight is on, else 0 without asking for anything: a
/// term switched off costs nothing, the shared facts included.
#[inline(always)]
fn on(weight: i32, term: impl FnOnce() -> i32) -> i32 {
    if weight == 0 { 0 } else { term() }
}

/// Every weight's range: wide enough for any sensible tuning, narrow enough
/// that no sum of terms can overflow an `i32` or reach the win scores.
const WEIGHT_RANGE: std::ops::RangeInclusive<i32> = -10_000..=10_000;

/// Every static score lies within plus or minus this: below the search's
/// win scores whatever the weights (each may be set to +-10,000, and the
/// tempo term alone times four steps would reach them), so that no static
/// score is ever taken for a won or lost game. The search checks at compile
/// time that this stays below its win band.
pub const EVAL_LIMIT: i32 = 25_000;

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

    /// The lines of `explain` add up to the score, with the default
    /// weights and with the knowledge terms at other strengths, for
    /// either side to move and mid-turn; and a term that is off prints 0.
    #[test]
    fn the_explained_terms_add_up_to_the_score() {
        use crate::settings::Table;
        let mut on = Evaluator::default();
        for (name, v) in [
            ("tc_scale", 60),
            ("trap_danger_pct", 60),
            ("trap_threat_pct", 30),
            ("hostage_pct", 40),
            ("frame_pct", 30),
            ("elephant_cramp", 60),
            ("dominance_pct", 30),
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
        off.w.elephant_cramp = 0;
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
    fn crowding_scales_the_whole_table() {
        // One gold rabbit on d6 (relative rank 5) or d4 (3), the others at
        // home, against silver's whole army: the crowded scale is -225%.
        let at = |r6: &str, r4: &str| {
            test_pos([
                "rrrrrrrr", "hdcemcdh", r6, "        ", r4, "        ", "        ", "RRRDDCCR",
            ])
        };
        let runner = at("   R    ", "        ");
        let walker = at("        ", "   R    ");
        let w = Weights::default();
        let adv = |p: &Position| basics::rabbit_advancement(p, Color::Gold, &w);
        assert_eq!(adv(&runner), 22 * -225 / 100);
        assert_eq!(adv(&walker), 6 * -225 / 100);
        // The same for silver's runner on d3 against gold's whole army.
        let mirrored = test_pos([
            "rrrddccr", "        ", "        ", "        ", "        ", "   r    ", "HDCEMCDH",
            "RRRRRRRR",
        ]);
        assert_eq!(
            basics::rabbit_advancement(&mirrored, Color::Silver, &w),
            adv(&runner)
        );
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
