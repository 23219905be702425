//! Material through an Arimaa-specific function in the HarLog form: an
//! officer is worth more the fewer enemy pieces are stronger than it, and
//! rabbits (with the total count) enter through a logarithm, so losing
//! rabbits hurts more as they run out and losing the last one is fatal.
//!
//! HarLog (a published evaluator fitted to game results) scores a side as
//! `G * ln(R * P) + sum over officers of 1 / (Q + stronger enemies)`. Here
//! the whole function is tabulated per side from piece counts, and scaled so
//! that the first rabbit captured from the opening is worth 100.

use crate::board::{Color, Kind, Position};
use std::sync::OnceLock;

const Q: f64 = 1.447530126;
const G: f64 = 0.6314442034;

/// Piece counts of one side: rabbits, cats, dogs, horses, camel, elephant.
pub type Counts = [u32; 6];

fn counts(pos: &Position, c: Color) -> Counts {
    let mut n = [0; 6];
    for k in Kind::ALL {
        n[k.index()] = pos.count(c, k);
    }
    n
}

/// Raw HarLog-style value of `own` facing `enemy` (officer terms only; the
/// logarithmic rabbit term is added by [`raw_score`], which sees both).
fn officer_value(own: &Counts, enemy: &Counts) -> f64 {
    let mut v = 0.0;
    for k in 1..6 {
        let stronger: u32 = enemy[k + 1..].iter().sum();
        v += own[k] as f64 / (Q + stronger as f64);
    }
    v
}

/// Gold-minus-silver in HarLog units. Infinite when a side has no rabbits.
pub fn raw_score(gold: &Counts, silver: &Counts) -> f64 {
    let gr = gold[0] as f64;
    let sr = silver[0] as f64;
    let gp: f64 = gold.iter().sum::<u32>() as f64;
    let sp: f64 = silver.iter().sum::<u32>() as f64;
    let log_term = if gr == 0.0 && sr == 0.0 {
        0.0
    } else if gr == 0.0 {
        f64::NEG_INFINITY
    } else if sr == 0.0 {
        f64::INFINITY
    } else {
        G * ((gr * gp) / (sr * sp)).ln()
    };
    log_term + officer_value(gold, silver) - officer_value(silver, gold)
}

/// Centi-rabbits per HarLog unit: the first rabbit lost from a full army.
fn scale() -> f64 {
    static SCALE: OnceLock<f64> = OnceLock::new();
    *SCALE.get_or_init(|| {
        let full = [8, 2, 2, 2, 1, 1];
        let mut less = full;
        less[0] = 7;
        100.0 / (raw_score(&full, &full) - raw_score(&less, &full))
    })
}

/// Bound for material in centi-rabbits, so that "no rabbits left" stays a
/// finite score below win scores.
pub const MATERIAL_CAP: i32 = 20_000;

/// A table of material scores indexed by both sides' counts. 9*3*3*3*2*2
/// entries per side, about 94k pairs of i16: small and computed once.
struct Table {
    scores: Vec<i16>,
}

const SIDE_STATES: usize = 9 * 3 * 3 * 3 * 2 * 2;

fn side_index(n: &Counts) -> usize {
    ((((n[0] as usize * 3 + n[1] as usize) * 3 + n[2] as usize) * 3 + n[3] as usize) * 2
        + n[4] as usize)
        * 2
        + n[5] as usize
}

static TABLE: OnceLock<Table> = OnceLock::new();

fn table() -> &'static Table {
    TABLE.get_or_init(|| {
        let mut scores = vec![0i16; SIDE_STATES * SIDE_STATES];
        let s = scale();
        let all = || {
            (0..9u32).flat_map(move |r| {
                (0..3u32).flat_map(move |c| {
                    (0..3u32).flat_map(move |d| {
                        (0..3u32).flat_map(move |h| {
                            (0..2u32).flat_map(move |m| (0..2u32).map(move |e| [r, c, d, h, m, e]))
                        })
                    })
                })
            })
        };
        for g in all() {
            for sv in all() {
                let v = (raw_score(&g, &sv) * s).clamp(-(MATERIAL_CAP as f64), MATERIAL_CAP as f64);
                scores[side_index(&g) * SIDE_STATES + side_index(&sv)] = v.round() as i16;
            }
        }
        Table { scores }
    })
}

/// Material in centi-rabbits from `side`'s point of view.
#[inline]
pub fn material(pos: &Position, side: Color) -> i32 {
    let g = counts(pos, Color::Gold);
    let s = counts(pos, Color::Silver);
    let v = table().scores[side_index(&g) * SIDE_STATES + side_index(&s)] as i32;
    if side == Color::Gold { v } else { -v }
}

/// Centi-rabbits `side` gains if the enemy piece of `kind` disappears.
#[inline]
pub fn gain_of_capture(pos: &Position, side: Color, kind: Kind) -> i32 {
    let mut g = counts(pos, Color::Gold);
    let mut s = counts(pos, Color::Silver);
    let before = material_of(&g, &s);
    match side {
        Color::Gold => s[kind.index()] = s[kind.index()].saturating_sub(1),
        Color::Silver => g[kind.index()] = g[kind.index()].saturating_sub(1),
    }
    let after = material_of(&g, &s);
    if side == Color::Gold {
        after - before
    } else {
        before - after
    }
}

/// Material from counts, for tests and tools.
pub fn material_of(gold: &Counts, silver: &Counts) -> i32 {
    table().scores[side_index(gold) * SIDE_STATES + side_index(silver)] as i32
}

/// Forces the table to be built (so the first search does not pay for it).
pub fn warm_up() {
    let _ = table();
}

/// Builds the table on a thread of its own unless it is built: it takes
/// tens of milliseconds, which the AEI loop must not spend between `aeiok`
/// and `readyok`. A search that comes before it is done waits for it
/// ([`OnceLock`] builds it once), so nothing sees half a table.
pub fn warm_up_in_background() {
    if TABLE.get().is_some() {
        return;
    }
    // With no thread to be had, the first evaluation builds it.
    let _ = std::thread::Builder::new()
        .name("material-table".into())
        .spawn(warm_up);
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: Counts = [8, 2, 2, 2, 1, 1];

    fn without(k: usize) -> Counts {
        let mut c = FULL;
        c[k] -= 1;
        c
    }

    #[test]
    fn first_rabbit_is_worth_100_and_order_is_by_strength() {
        let lost = |k| -material_of(&without(k), &FULL);
        assert_eq!(lost(0), 100);
        // Each officer is worth more than the next weaker one, and a cat
        // more than a rabbit.
        for k in 0..5 {
            assert!(
                lost(k + 1) > lost(k),
                "kind {} vs {}: {} <= {}",
                k + 1,
                k,
                lost(k + 1),
                lost(k)
            );
        }
        assert_eq!(material_of(&FULL, &FULL), 0);
    }

    #[test]
    fn rabbits_grow_dearer_as_they_run_out() {
        let mut prev = 0;
        for r in (1..8).rev() {
            let mut a = FULL;
            a[0] = r;
            let mut b = a;
            b[0] = r - 1;
            let drop = material_of(&a, &FULL) - material_of(&b, &FULL);
            assert!(drop > prev, "losing rabbit {r}: {drop} <= {prev}");
            prev = drop;
        }
    }

    #[test]
    fn no_rabbits_is_capped_not_infinite() {
        let mut none = FULL;
        none[0] = 0;
        assert_eq!(material_of(&none, &FULL), -MATERIAL_CAP);
        assert_eq!(material_of(&FULL, &none), MATERIAL_CAP);
    }

    #[test]
    fn antisymmetric() {
        let a = [5, 1, 2, 0, 1, 1];
        let b = [7, 2, 1, 2, 0, 1];
        assert_eq!(material_of(&a, &b), -material_of(&b, &a));
    }
}
