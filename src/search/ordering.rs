//! Learned ordering of whole turns: a linear model over cheap features of a
//! turn (what it captures and leaves capturable, the static score it
//! reaches, pushes and pulls, which pieces move, how far from the
//! opponent's last move, rabbit progress, trap squares taken), fitted to the
//! moves winners played (`aamir tune-order`, [`crate::tune::order`]). The
//! search uses it to decide which root turns it may search shallower
//! (`root_reduce`, `mark_reducible`).
//!
//! Features are in units that keep them within a few tens (material in
//! rabbits, counts of steps), so that one fit's weights are readable. The
//! score is only used to rank turns of one position, so a per-position
//! constant (the static score before the turn) is left out.

use super::RootMove;
use super::order_weights::ORDER_WEIGHTS;
use crate::board::bitboard::{Bitboard, adjacent};
use crate::board::stepgen::ActionKind;
use crate::board::{Color, Game, Kind, Position, Square, Turn};
use crate::eval::material;
use crate::tactics::threats;

/// Number of features of a turn.
pub const N_FEATURES: usize = 24;

/// Names of the features, in order, for the fit's report and the table.
pub const FEATURE_NAMES: [&str; N_FEATURES] = [
    "static_score",
    "captured",
    "lost",
    "enemy_threat_after",
    "own_threat_after",
    "pushes",
    "pulls",
    "steps_unused",
    "rabbit_steps",
    "cat_steps",
    "dog_steps",
    "horse_steps",
    "camel_steps",
    "elephant_steps",
    "rabbit_progress",
    "pieces_moved",
    "near_last_1",
    "near_last_2",
    "near_last_4",
    "enemy_traps_taken",
    "home_traps_left",
    "own_frozen_change",
    "enemy_frozen_change",
    "onto_trap_square",
];

/// The features of one turn. Those read from the steps (kinds, pushes,
/// steps unused) describe the step order the turn generator kept for the
/// resulting position, which is the one the search plays.
pub type Features = [f32; N_FEATURES];

/// Manhattan distance between two squares.
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs()
}

/// The most valuable piece `attacker` could take with one push or pull in
/// `pos`, in rabbits (0 if none).
fn best_two_step(pos: &Position, attacker: Color) -> f32 {
    threats::two_step_captures(pos, attacker)
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| material::gain_of_capture(pos, attacker, p.kind()))
        .max()
        .unwrap_or(0) as f32
        / 100.0
}

/// Relative rank of `sq` for `c` (0 = home rank).
fn rel_rank(sq: Square, c: Color) -> i32 {
    if c == Color::Gold {
        sq.rank() as i32
    } else {
        7 - sq.rank() as i32
    }
}

/// Features of `turn` played from `before` (which it was made for),
/// reaching `after` (the opponent to move), whose static score for the
/// opponent is `after_eval`. `last` is the footprint of the opponent's
/// last move (empty when unknown).
pub fn features(
    before: &Position,
    turn: &Turn,
    after: &Position,
    after_eval: i32,
    last: Bitboard,
) -> Features {
    let me = before.side();
    let opp = me.opp();
    let mut f = [0f32; N_FEATURES];
    f[0] = -after_eval as f32 / 100.0;
    let mat_before = material::material(before, me);
    let mat_after = material::material(after, me);
    // Captured and lost, from piece counts (a turn may do both).
    let count = |p: &Position, c: Color| p.occupied_by(c).count() as i32;
    let took = count(before, opp) - count(after, opp);
    let gave = count(before, me) - count(after, me);
    let delta = (mat_after - mat_before) as f32 / 100.0;
    if took > 0 {
        f[1] = delta.max(0.0);
    }
    if gave > 0 {
        f[2] = (-delta).max(0.0);
    }
    f[3] = best_two_step(after, opp);
    f[4] = best_two_step(after, me);
    let mut pieces = Bitboard::EMPTY;
    let mut steps = 0;
    let mut near = i32::MAX;
    // The board as the turn goes, to know which piece each step moves.
    let mut p = before.clone();
    for &a in &turn.actions {
        match a.kind() {
            ActionKind::Push => f[5] += 1.0,
            ActionKind::Pull => f[6] += 1.0,
            ActionKind::Single => {}
        }
        for s in a.steps() {
            steps += 1;
            if let Some(pc) = p.piece_at(s.from)
                && pc.color() == me
            {
                f[8 + pc.kind().index()] += 1.0;
                if pc.kind() == Kind::Rabbit {
                    f[14] += (rel_rank(s.to, me) - rel_rank(s.from, me)) as f32;
                }
                // A piece is named by where it started the turn: follow it.
                if !pieces.contains(s.from) {
                    pieces |= Bitboard::from_square(s.to);
                } else {
                    pieces =
                        pieces.and_not(Bitboard::from_square(s.from)) | Bitboard::from_square(s.to);
                }
                if s.to.is_trap() {
                    f[23] += 1.0;
                }
            }
            for l in last {
                near = near.min(manhattan(s.from, l));
            }
        }
        p.apply_action(a);
    }
    f[7] = (4 - steps).max(0) as f32;
    f[15] = pieces.count() as f32;
    if near <= 1 {
        f[16] = 1.0;
    } else if near == 2 {
        f[17] = 1.0;
    } else if near <= 4 {
        f[18] = 1.0;
    }
    // Squares next to the enemy's home traps held, and next to our own
    // home traps left, by our pieces.
    let (enemy_traps, home_traps) = trap_neighbourhoods(me);
    let own_b = before.occupied_by(me);
    let own_a = after.occupied_by(me);
    f[19] = ((own_a & enemy_traps).count() as f32) - ((own_b & enemy_traps).count() as f32);
    f[20] = ((own_b & home_traps).count() as f32) - ((own_a & home_traps).count() as f32);
    f[21] = after.frozen(me).count() as f32 - before.frozen(me).count() as f32;
    f[22] = after.frozen(opp).count() as f32 - before.frozen(opp).count() as f32;
    f
}

/// The squares next to the enemy's two home traps and next to our own.
fn trap_neighbourhoods(me: Color) -> (Bitboard, Bitboard) {
    let mut enemy = Bitboard::EMPTY;
    let mut home = Bitboard::EMPTY;
    for t in Bitboard::TRAPS {
        let ours = (t.rank() < 4) == (me == Color::Gold);
        if ours {
            home |= adjacent(t);
        } else {
            enemy |= adjacent(t);
        }
    }
    (enemy, home)
}

/// The model's score of a turn with features `f` and `weights`.
pub fn score_with(weights: &Features, f: &Features) -> f32 {
    weights.iter().zip(f).map(|(w, x)| w * x).sum()
}

/// The checked-in model's score.
pub fn score(f: &Features) -> f32 {
    score_with(&ORDER_WEIGHTS, f)
}

/// Ranks the root list by the learned ordering model and marks the turns
/// below its top `pct` percent reducible; the list's order is
/// left alone.
pub(super) fn mark_reducible(root: &Position, game: &Game, moves: &mut [RootMove], pct: i32) {
    let last = game
        .record()
        .last()
        .and_then(|p| p.mv.turn())
        .map_or(Bitboard::EMPTY, Turn::squares);
    let model: Vec<f32> = moves
        .iter()
        .map(|m| {
            let after = m.turn.apply(root);
            score(&features(root, &m.turn, &after, m.eval, last))
        })
        .collect();
    // Rank by the model; ties keep the generator's order.
    let mut idx: Vec<usize> = (0..moves.len()).collect();
    idx.sort_by(|&a, &b| model[b].total_cmp(&model[a]).then(a.cmp(&b)));
    let keep = (moves.len() * pct as usize).div_ceil(100);
    for (r, &i) in idx.iter().enumerate() {
        moves[i].reducible = r >= keep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;

    fn game_after(moves: &[&str]) -> Game {
        let mut g = Game::new();
        for m in moves {
            g.play(m).unwrap();
        }
        g
    }

    fn feats(g: &Game, text: &str, last: Bitboard) -> Features {
        let before = g.position().clone();
        let mut next = g.clone();
        next.play(text).unwrap();
        let turn = g
            .legal_turns()
            .into_iter()
            .find(|t| t.hash == next.position().hash())
            .expect("the move is legal");
        let after = turn.apply(&before);
        let ev = crate::eval::Evaluator::default().evaluate(&after);
        features(&before, &turn, &after, ev, last)
    }

    const SETUP_G: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
    const SETUP_S: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7";

    #[test]
    fn kinds_progress_and_pieces_moved() {
        let g = game_after(&[SETUP_G, SETUP_S]);
        let f = feats(&g, "Ee2n Ee3n Ee4n Md2e", Bitboard::EMPTY);
        assert_eq!(
            (f[13], f[12], f[8]),
            (3.0, 1.0, 0.0),
            "elephant, camel, rabbit steps"
        );
        assert_eq!((f[14], f[15], f[7]), (0.0, 2.0, 0.0));
        let f = feats(&g, "Ee2n Ee3n Re1n Re2n", Bitboard::EMPTY);
        assert_eq!(
            (f[8], f[14], f[15]),
            (2.0, 2.0, 2.0),
            "a rabbit two ranks up"
        );
        // (A one-step turn is not checked for its unused steps: the
        // generator keeps one step order per resulting position, and may
        // keep `Ee2n Md2e Me2w` for `Ee2n`.)
    }

    #[test]
    fn nearness_to_the_last_enemy_move() {
        let g = game_after(&[SETUP_G, SETUP_S]);
        // The squares of the last move `Ee2n`, then of `Hh2n`.
        let on = |a: &str, b: &str| {
            Bitboard::from_square(Square::parse(a).unwrap())
                | Bitboard::from_square(Square::parse(b).unwrap())
        };
        let last = on("e2", "e3");
        let near = feats(&g, "Ee2n Ee3n Re1n Re2n", last);
        assert_eq!((near[16], near[17], near[18]), (1.0, 0.0, 0.0));
        let far = feats(&g, "Ha2n Ha3n Ha4n Ha5n", on("h2", "h3"));
        assert_eq!((far[16], far[17], far[18]), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_capture_is_counted_and_the_threat_it_leaves_too() {
        // Gold's elephant on d5 pushes the silver cat on c5 onto the
        // unguarded c6 trap.
        let rows = [
            "       e", "       r", "        ", "  cE    ", "        ", "        ", "R       ",
            "        ",
        ];
        let pos = crate::board::notation::parse_side_and_board(&format!("g [{}]", rows.concat()))
            .unwrap();
        let g = Game::from_position(pos, 10);
        let take = feats(&g, "cc5n Ed5w", Bitboard::EMPTY);
        assert!(
            take[1] > 1.0,
            "a cat is worth more than a rabbit: {}",
            take[1]
        );
        assert_eq!(take[2], 0.0);
        let quiet = feats(&g, "Ed5s", Bitboard::EMPTY);
        assert_eq!(quiet[1], 0.0);
        // Stepping next to the cat leaves it for a push next turn.
        assert!(quiet[4] == 0.0 && take[3] == 0.0);
    }
    #[test]
    fn the_model_marks_the_bottom_share_reducible() {
        let game = crate::search::tests::after_setups();
        let root = game.position().clone();
        let eval = crate::eval::Evaluator::default();
        let mut moves: Vec<RootMove> = game
            .legal_turns()
            .into_iter()
            .map(|turn| {
                let e = eval.evaluate(&turn.apply(&root));
                RootMove {
                    turn,
                    eval: e,
                    may_win: false,
                    score: -e,
                    reducible: false,
                }
            })
            .collect();
        let before: Vec<u64> = moves.iter().map(|m| m.turn.hash).collect();
        mark_reducible(&root, &game, &mut moves, 10);
        let n = moves.len();
        let full = moves.iter().filter(|m| !m.reducible).count();
        assert_eq!(full, n.div_ceil(10), "{n} turns");
        // The order is left alone.
        let after: Vec<u64> = moves.iter().map(|m| m.turn.hash).collect();
        assert_eq!(before, after);
        let model = |m: &RootMove| {
            let after = m.turn.apply(&root);
            score(&features(
                &root,
                &m.turn,
                &after,
                m.eval,
                crate::board::Bitboard::EMPTY,
            ))
        };
        // The model ranks every turn searched in full at or above every
        // reducible one.
        let low = moves
            .iter()
            .filter(|m| !m.reducible)
            .map(model)
            .fold(f32::INFINITY, f32::min);
        let high = moves
            .iter()
            .filter(|m| m.reducible)
            .map(model)
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(low >= high, "{low} < {high}");
    }
}
