//! The evaluation weights [`super::Weights::default`] returns.
//!
//! Hand-set, not yet replaced by a fitted set: `aamir tune` rewrites this
//! file (with the command, data and losses that produced the weights) when
//! a fitted set has won a match against these.

use super::Weights;

/// The default weights (see the module's header for their origin).
pub fn weights() -> Weights {
    Weights {
        rabbit_rank: [0, 0, 3, 6, 12, 22, 40, 0],
        frozen: [3, 6, 8, 12, 18, 0],
        on_trap_weak: [4, 8, 12, 18, 28, 30],
        trap_two_guards: 14,
        trap_strongest: 10,
        trap_home_pct: 100,
        trap_enemy_home_pct: 120,
        elephant_center: 4,
        officer_center: 2,
        tempo: 3,
        dominant_center: 2,
        exposed: 3,
        elephant_mobility: 2,
        rabbit_scale_pct: 12,
        capture_now_pct: 60,
        threat_second_pct: 50,
        threat_first_pct: 10,
    }
}
