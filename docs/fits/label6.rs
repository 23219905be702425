//! Evaluation weights fitted by `aamir tune`.
//!
//! Fitted by `aamir tune` (Texel's method: quiet positions, the
//! mean squared error of `sigmoid(k * eval)` against the label).
//!
//! Command: `aamir tune /work/tune/g50.tsv tests/data/games-2026-02.tsv tests/data/games-2011-extra.tsv --label-depth 6 --label-cache /work/tune/scores6.tsv --max-passes 6 --threads 2 --bound 1000 --freeze threat_reach,capture_reach --out /work/tune/fit6b.rs`
//! Data `/work/tune/g50.tsv`: `aamir gen --seed 50 --games 1500 --depth 4 --max-turns 200 --random-turns 4 --random-top 6 --hash 16`,
//! stopped by hand after games 0-380 (378 of them written, 34,789 positions).
//! Kept outside the build as the record of stop 50 (docs/experiments.md;
//! dropped in stop 51: 181-190 against main in 371 self-play games);
//! the option string for a match is `option.eval_<name>=<value>` per line.
//! Positions: 537 games, 45678 positions read: 4272 in the opening, 1090 duplicates, 16172 not quiet left out; 22064 train, 2080 held out
//! k 0.002025; loss train 0.004443 -> 0.001517, held out 0.004570 -> 0.001377

/// Every weight by its name in the weights' settings table.
pub const WEIGHTS: &[(&str, i32)] = &[
    ("rabbit_rank_0", 1),
    ("rabbit_rank_1", 1),
    ("rabbit_rank_2", 6),
    ("rabbit_rank_3", 8),
    ("rabbit_rank_4", 18),
    ("rabbit_rank_5", 33),
    ("rabbit_rank_6", 54),
    ("rabbit_rank_7", 0),
    ("frozen_0", 0),
    ("frozen_1", 7),
    ("frozen_2", 7),
    ("frozen_3", 6),
    ("frozen_4", 4),
    ("frozen_5", 0),
    ("on_trap_weak_0", 14),
    ("on_trap_weak_1", -6),
    ("on_trap_weak_2", 6),
    ("on_trap_weak_3", 8),
    ("on_trap_weak_4", 7),
    ("on_trap_weak_5", 0),
    ("trap_two_guards", 8),
    ("trap_strongest", 1),
    ("trap_home_pct", 88),
    ("trap_enemy_home_pct", 135),
    ("elephant_center", 7),
    ("officer_center", 1),
    ("tempo", 13),
    ("dominant_center", 2),
    ("exposed", 2),
    ("elephant_mobility", 10),
    ("rabbit_scale_pct", 6),
    ("rabbit_crowd_pct", 24),
    ("rabbit_crowd_knee", 12),
    ("rabbit_crowd_top", 7),
    ("capture_now_pct", 60),
    ("threat_second_pct", 29),
    ("threat_first_pct", 4),
    ("capture_reach", 2),
    ("threat_reach", 2),
    ("tc_scale", 37),
    ("tc_defence_pct", 115),
    ("tc_attack_pct", 42),
    ("trap_danger_pct", 15),
    ("hostage_pct", 21),
    ("hostage_holder", 14),
    ("frame_pct", 15),
    ("dominance_pct", 18),
    ("blockade", 20),
    ("rabbit_goal_pct", 200),
    ("goal_line", -1),
    ("placement_pct", 0),
    ("ele_mobility", 0),
];
