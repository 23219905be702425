//! The learned turn-ordering weights ([`super::ordering`]), written by
//! `aamir tune-order tests/data/games-2026-02.tsv tests/data/games-2011-extra.tsv --out src/search/order_weights.rs`.
//! Loss on sampled turns: train 4.2575 -> 2.3811, held out 4.2034 -> 2.4807.
//! Held-out ranking of the played turn (400 positions), start -> fitted:
//! first 4.0% -> 4.5%, top 5% 44.5% -> 72.2%, top 20% 70.0% -> 91.2%.

use super::ordering::N_FEATURES;

/// One weight per feature, in the order of [`super::ordering::FEATURE_NAMES`].
pub const ORDER_WEIGHTS: [f32; N_FEATURES] = [
    1.949932,     // static_score
    -1.4982487,   // captured
    1.1346583,    // lost
    0.2838319,    // enemy_threat_after
    -0.18212,     // own_threat_after
    1.0050932,    // pushes
    0.61946046,   // pulls
    -1.876381,    // steps_unused
    -0.44812608,  // rabbit_steps
    -0.28608844,  // cat_steps
    -0.059918422, // dog_steps
    0.06857597,   // horse_steps
    0.13822225,   // camel_steps
    0.18678054,   // elephant_steps
    0.45631632,   // rabbit_progress
    -1.5487125,   // pieces_moved
    0.5746612,    // near_last_1
    -0.2341636,   // near_last_2
    -0.22919545,  // near_last_4
    0.70545053,   // enemy_traps_taken
    -0.7179713,   // home_traps_left
    -0.6593261,   // own_frozen_change
    0.6350427,    // enemy_frozen_change
    -0.2120845,   // onto_trap_square
];
