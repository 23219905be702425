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
    let total = |n: &Counts| n.iter().sum::<u32>();
    log_term(gold[0], total(gold), silver[0], total(silver)) + officer_value(gold, silver)
        - officer_value(silver, gold)
}

/// The rabbit term of [`raw_score`] from each side's rabbits and pieces.
fn log_term(gold_rabbits: u32, gold_pieces: u32, silver_rabbits: u32, silver_pieces: u32) -> f64 {
    let gr = gold_rabbits as f64;
    let sr = silver_rabbits as f64;
    let gp = gold_pieces as f64;
    let sp = silver_pieces as f64;
    if gr == 0.0 && sr == 0.0 {
        0.0
    } else if gr == 0.0 {
        f64::NEG_INFINITY
    } else if sr == 0.0 {
        f64::INFINITY
    } else {
        G * ((gr * gp) / (sr * sp)).ln()
    }
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

/// Officer counts (cats to elephant) of one side: 3 * 3 * 3 * 2 * 2.
const OFFICER_STATES: usize = SIDE_STATES / 9;

/// Side counts in [`side_index`] order: rabbits outermost, then officers.
fn side_states() -> Vec<Counts> {
    let mut all = Vec::with_capacity(SIDE_STATES);
    for r in 0..9 {
        for c in 0..3 {
            for d in 0..3 {
                for h in 0..3 {
                    for m in 0..2 {
                        for e in 0..2 {
                            all.push([r, c, d, h, m, e]);
                        }
                    }
                }
            }
        }
    }
    all
}

/// Built from the parts of [`raw_score`], each computed once for the
/// counts it depends on (the rabbit term from both sides' rabbits and
/// totals, the officer terms from both sides' officers), and added in
/// `raw_score`'s order, so every entry is exactly `raw_score` scaled:
/// the 944k calls of it this replaces took about 70 ms in a test build,
/// long enough that a game's first search waited on it past a `stop`.
fn table() -> &'static Table {
    TABLE.get_or_init(|| {
        let s = scale();
        let states = side_states();
        let officers = |i: usize| i % OFFICER_STATES;
        // Rabbits 0..=8 and officers 0..=8: the rabbit term's inputs.
        let keys: Vec<usize> = states
            .iter()
            .map(|n| (n[0] * 9 + n[1..].iter().sum::<u32>()) as usize)
            .collect();
        let mut logs = vec![0.0; 81 * 81];
        for (g, lg) in logs.chunks_mut(81).enumerate() {
            for (sv, l) in lg.iter_mut().enumerate() {
                let (gr, go, sr, so) = (g / 9, g % 9, sv / 9, sv % 9);
                *l = log_term(gr as u32, (gr + go) as u32, sr as u32, (sr + so) as u32);
            }
        }
        let mut offs = vec![0.0; OFFICER_STATES * OFFICER_STATES];
        for (own, row) in offs.chunks_mut(OFFICER_STATES).enumerate() {
            for (enemy, o) in row.iter_mut().enumerate() {
                *o = officer_value(&states[own], &states[enemy]);
            }
        }
        let mut scores = Vec::with_capacity(SIDE_STATES * SIDE_STATES);
        for gi in 0..SIDE_STATES {
            for si in 0..SIDE_STATES {
                let (go, so) = (officers(gi), officers(si));
                let raw = logs[keys[gi] * 81 + keys[si]] + offs[go * OFFICER_STATES + so]
                    - offs[so * OFFICER_STATES + go];
                let v = (raw * s).clamp(-(MATERIAL_CAP as f64), MATERIAL_CAP as f64);
                scores.push(v.round() as i16);
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
/// a few milliseconds (tens before it was built from its parts), which
/// the AEI loop need not spend between `aeiok` and `readyok`. A search
/// that comes before it is done waits for it ([`OnceLock`] builds it
/// once), so nothing sees half a table.
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
    fn the_table_is_raw_score_scaled_for_every_pair_of_armies() {
        let states = side_states();
        assert_eq!(states.len(), SIDE_STATES);
        let s = scale();
        for (i, g) in states.iter().enumerate() {
            assert_eq!(side_index(g), i);
            for sv in &states {
                let v = (raw_score(g, sv) * s).clamp(-(MATERIAL_CAP as f64), MATERIAL_CAP as f64);
                assert_eq!(material_of(g, sv), v.round() as i32, "{g:?} against {sv:?}");
            }
        }
    }

    #[test]
    fn antisymmetric() {
        let a = [5, 1, 2, 0, 1, 1];
        let b = [7, 2, 1, 2, 0, 1];
        assert_eq!(material_of(&a, &b), -material_of(&b, &a));
    }
}
