//! The plain positional terms every Arimaa evaluation starts from: rabbit
//! advancement (crowded while the enemy army is whole), frozen pieces,
//! centrality, officers by how many enemy pieces outrank them, and the
//! captures one push or pull away for the side to move and against it.
//! Each reads the position alone; none needs the shared facts.

use super::Weights;
use super::material;
use crate::board::bitboard::Bitboard;
use crate::board::{Color, Kind, Position};
use crate::tactics::threats;

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

/// Rank of `sq` counted from `c`'s home rank (0) towards its goal (7).
#[inline(always)]
fn rel_rank(c: Color, sq: crate::board::Square) -> usize {
    if c == Color::Gold {
        sq.rank() as usize
    } else {
        7 - sq.rank() as usize
    }
}

/// `c`'s rabbits by how far they have come (`rabbit_rank`), worth more as
/// enemy officers disappear (`rabbit_scale_pct` per officer gone) and less
/// while the enemy force stands above `rabbit_crowd_knee`
/// (`rabbit_crowd_pct` per unit of force, where an officer counts two and
/// a rabbit one): with the board full, a lone rabbit that walks forward
/// is a target and leaves a hole at home.
pub fn rabbit_advancement(pos: &Position, c: Color, w: &Weights) -> i32 {
    let enemy_officers = (pos.occupied_by(c.opp()) & !pos.rabbits(c.opp())).count() as i32;
    let mut scale = 100 + w.rabbit_scale_pct * (8 - enemy_officers).max(0);
    if w.rabbit_crowd_pct != 0 {
        let force = 2 * enemy_officers + pos.rabbits(c.opp()).count() as i32;
        scale = scale * (100 - w.rabbit_crowd_pct * (force - w.rabbit_crowd_knee).max(0)) / 100;
    }
    let adv: i32 = pos
        .rabbits(c)
        .into_iter()
        .map(|sq| w.rabbit_rank[rel_rank(c, sq)])
        .sum();
    adv * scale / 100
}

/// What `c`'s frozen pieces cost it: `per_kind` for each.
pub fn frozen(pos: &Position, c: Color, per_kind: &[i32; 6]) -> i32 {
    let frozen = pos.frozen(c);
    Kind::ALL
        .iter()
        .map(|&k| per_kind[k.index()] * (pos.kind_bb(c, k) & frozen).count() as i32)
        .sum()
}

/// The centrality (0 to 6) of `c`'s elephant, times `elephant`, and of its
/// camel and horses, times `officer`.
pub fn centrality(pos: &Position, c: Color, elephant: i32, officer: i32) -> i32 {
    let mut s = 0;
    for sq in pos.kind_bb(c, Kind::Elephant) {
        s += elephant * CENTER[sq.index()];
    }
    for sq in pos.kind_bb(c, Kind::Camel) | pos.kind_bb(c, Kind::Horse) {
        s += officer * CENTER[sq.index()];
    }
    s
}

/// `c`'s officers by how many enemy pieces outrank them: one that nothing
/// outranks wants the centre (`dominant_center` per square of
/// centrality); one that is outranked is in danger in the enemy half
/// (`exposed` per rank past the middle, per stronger enemy up to 3).
pub fn officers_by_stronger(pos: &Position, c: Color, dominant_center: i32, exposed: i32) -> i32 {
    let mut s = 0;
    let mut stronger = pos.occupied_by(c.opp());
    for k in Kind::ALL {
        stronger = stronger.and_not(pos.kind_bb(c.opp(), k));
        if k == Kind::Rabbit {
            continue;
        }
        let n = stronger.count() as i32;
        for sq in pos.kind_bb(c, k) {
            if n == 0 {
                s += dominant_center * CENTER[sq.index()];
            } else {
                let rel = rel_rank(c, sq) as i32;
                if rel >= 4 {
                    s -= exposed * (rel - 3) * n.min(3);
                }
            }
        }
    }
    s
}

/// `pct` percent of the best piece the side to move can capture with one
/// push or pull (it will likely take it), if it has the two steps.
pub fn capture_now(pos: &Position, pct: i32) -> i32 {
    if pct == 0 || pos.steps_left() < 2 {
        return 0;
    }
    let me = pos.side();
    let best = threats::two_step_captures(pos, me)
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| material::gain_of_capture(pos, me, p.kind()))
        .max()
        .unwrap_or(0);
    best * pct / 100
}

/// What the side to move stands to lose to the opponent's captures one
/// push or pull away: `first_pct` percent of the most valuable piece
/// threatened (saving it costs steps, and may not be possible) and
/// `second_pct` of the second (usually only one can be saved).
pub fn threatened(pos: &Position, first_pct: i32, second_pct: i32) -> i32 {
    if first_pct == 0 && second_pct == 0 {
        return 0;
    }
    let them = pos.side().opp();
    let (mut first, mut second) = (0, 0);
    for sq in threats::two_step_captures(pos, them) {
        if let Some(p) = pos.piece_at(sq) {
            let loss = material::gain_of_capture(pos, them, p.kind());
            if loss > first {
                second = first;
                first = loss;
            } else if loss > second {
                second = loss;
            }
        }
    }
    first * first_pct / 100 + second * second_pct / 100
}

/// Strength (kind index + 1) of the strongest piece of `c` in `set`, 0 if
/// none.
#[inline]
pub fn strongest(pos: &Position, c: Color, set: Bitboard) -> i32 {
    for k in Kind::ALL.iter().rev() {
        if (pos.kind_bb(c, *k) & set).any() {
            return k.index() as i32 + 1;
        }
    }
    0
}
