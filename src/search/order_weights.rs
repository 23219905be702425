//! The learned turn-ordering weights ([`super::ordering`]), written by
//! `aamir tune-order tests/data/games-2026-02.tsv tests/data/games-2011-extra.tsv tests/data/sharp-matches.tsv --out src/search/order_weights.rs`.
//! Loss on sampled turns: train 2.2628 -> 1.9639, held out 2.1820 -> 1.8761.
//! Held-out ranking of the played turn (400 positions), start -> fitted:
//! first 6.2% -> 10.2%, top 5% 83.0% -> 86.5%, top 20% 95.2% -> 96.5%.

use super::ordering::N_FEATURES;

/// One weight per feature, in the order of [`super::ordering::FEATURE_NAMES`].
pub const ORDER_WEIGHTS: [f32; N_FEATURES] = [
    1.9899857,     // static_score
    0.069987684,   // captured
    0.09379649,    // lost
    -0.0015576864, // enemy_threat_after
    -0.16288316,   // own_threat_after
    0.6063931,     // pushes
    0.45140502,    // pulls
    -2.0561106,    // steps_unused
    -0.42506167,   // rabbit_steps
    -0.07689066,   // cat_steps
    0.028210426,   // dog_steps
    0.1483836,     // horse_steps
    0.19891357,    // camel_steps
    0.20020515,    // elephant_steps
    0.60875946,    // rabbit_progress
    -1.3911579,    // pieces_moved
    0.94942737,    // near_last_1
    0.14830837,    // near_last_2
    -0.086712025,  // near_last_4
    0.59684086,    // enemy_traps_taken
    -0.8903928,    // home_traps_left
    -0.40673536,   // own_frozen_change
    0.57044977,    // enemy_frozen_change
    -0.2154119,    // onto_trap_square
];
