//! `aamir midturn`: positions part way through a turn, labelled by a
//! one-turn lookahead, for a net with one output per steps spent
//! (`aamir train --buckets 4`).
//!
//! Turn starts are what a teacher such as Sharp's static evaluation
//! scores; the search also scores leaves after one, two or three steps of
//! a turn, where the mover can still do what its remaining steps allow.
//! Such a position's label is the best, over every way to finish the turn
//! (passing the rest included), of the evaluation at the opponent's turn
//! start: what the mover can still get, as seen by the evaluation the net
//! is trained beside. Each position comes from a sampled turn start of a
//! packed file by random legal steps, keeps that position's game (its
//! held-out bucket and result) and is written as a packed record whose
//! score is the label as a logit in thousandths (the evaluation's score
//! over its net's scale, or over 760 for the hand terms alone: the
//! hand terms' own scale against the teacher), so that `aamir train`
//! reads it as it is rather than on the teacher's scale.

use super::is_quiet;
use super::pack::{self, Record, TEACHER_CAP};
use crate::board::stepgen::generate_actions;
use crate::board::{ActionList, Position, STEPS_PER_TURN};
use crate::eval::Evaluator;
use crate::eval::nnue::Accumulators;
use crate::outln;
use crate::rng::SplitMix;
use anyhow::{Result, bail};
use std::collections::HashMap;

/// What `aamir midturn` does.
#[derive(Clone, Debug)]
pub struct MidturnOptions {
    pub files: Vec<String>,
    /// One turn start in this many is taken.
    pub every: usize,
    pub seed: u64,
    /// A net file (`builtin`: the embedded one) for the labels' evaluation.
    pub net: Option<String>,
    pub threads: usize,
    pub out: String,
}

/// The best score the side to move can reach by the end of its turn from
/// `pos` (part way through it, at least one step spent), as `eval` scores
/// the opponent's turn start, negated; a turn that ends the game scores
/// [`TEACHER_CAP`] for its winner. `acc` holds the net's accumulators of
/// `pos` when `eval` has a net.
pub fn lookahead(pos: &mut Position, eval: &Evaluator, acc: Option<&mut Accumulators>) -> i32 {
    let mut seen = HashMap::new();
    let mut best = -TEACHER_CAP;
    let mut acc = acc;
    visit(pos, eval, &mut acc, &mut seen, &mut best);
    best
}

/// One node of [`lookahead`]: the turn passed here, then every action the
/// steps left allow. A board already visited with as many steps left adds
/// nothing; one visited with fewer is expanded again but not rescored.
fn visit(
    pos: &mut Position,
    eval: &Evaluator,
    acc: &mut Option<&mut Accumulators>,
    seen: &mut HashMap<u64, u8>,
    best: &mut i32,
) {
    let steps = pos.steps_left();
    let first = match seen.get(&pos.hash()) {
        Some(&s) if s >= steps => return,
        Some(_) => false,
        None => true,
    };
    seen.insert(pos.hash(), steps);
    if first {
        let me = pos.side();
        let mut after = pos.clone();
        after.pass_turn();
        // Immobilisation is left out: rare, and costly to decide here.
        let score = match after.outcome_with(|_| false) {
            Some(o) if o.winner == me => TEACHER_CAP,
            Some(_) => -TEACHER_CAP,
            None => match acc.as_deref() {
                Some(a) => -eval.evaluate_net(a, &after),
                None => -eval.evaluate(&after),
            },
        };
        *best = (*best).max(score);
    }
    if steps == 0 {
        return;
    }
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    for &a in list.as_slice() {
        if a.cost() > steps {
            continue;
        }
        match acc {
            Some(ac) => {
                let undo = ac.make(pos, a);
                visit(pos, eval, acc, seen, best);
                acc.as_deref_mut().expect("set").unmake(pos, undo);
            }
            None => {
                let undo = pos.make_action(a);
                visit(pos, eval, acc, seen, best);
                pos.unmake_action(undo);
            }
        }
    }
}

/// A position part way through the turn of `start` (a turn start): one to
/// three steps spent by random legal actions, `None` when the mover is
/// stuck first.
pub fn random_midturn(start: &Position, rng: &mut SplitMix) -> Option<Position> {
    let mut pos = start.clone();
    let spend = 1 + rng.below(3) as u8;
    let mut list = ActionList::new();
    while STEPS_PER_TURN - pos.steps_left() < spend {
        list.clear();
        generate_actions(&pos, &mut list);
        let steps = pos.steps_left();
        list.retain(|a| a.cost() <= steps);
        if list.is_empty() {
            return None;
        }
        pos.make_action(list.as_slice()[rng.below(list.len())]);
    }
    Some(pos)
}

/// Centi-rabbits per unit of logit of the hand terms alone: their fit to
/// the teacher's winning chances (`aamir tune-terms`, 0.1318 a rabbit).
pub const HAND_SCALE: i32 = 760;

/// A score in centi-rabbits as a logit in thousandths at `scale`
/// centi-rabbits a logit; a won or lost game stays at [`TEACHER_CAP`].
pub fn milli_logit(score: i32, scale: i32) -> i32 {
    if score.abs() >= TEACHER_CAP {
        return score.signum() * TEACHER_CAP;
    }
    (i64::from(score) * 1000 / i64::from(scale.max(1)))
        .clamp(-i64::from(TEACHER_CAP), i64::from(TEACHER_CAP)) as i32
}

/// `aamir midturn`.
pub fn run(opts: &MidturnOptions) -> Result<()> {
    let start = std::time::Instant::now();
    let net = match opts.net.as_deref() {
        None => None,
        Some("builtin") => Some(crate::eval::nnue::Network::embedded()),
        Some(path) => Some(std::sync::Arc::new(crate::eval::nnue::file::load(path)?)),
    };
    let eval = Evaluator {
        w: Default::default(),
        net,
    };
    let scale = eval.net.as_ref().map_or(HAND_SCALE, |n| n.scale);
    let mut all = Vec::new();
    for f in &opts.files {
        all.extend(pack::read(f)?);
    }
    let mut pick = SplitMix::new(opts.seed, 0);
    let starts: Vec<(u64, Record)> = all
        .iter()
        .enumerate()
        .filter(|(_, r)| r.steps_left() == STEPS_PER_TURN)
        .filter(|_| pick.below(opts.every) == 0)
        .map(|(i, r)| (i as u64, *r))
        .collect();
    if starts.is_empty() {
        bail!("no turn starts taken from {}", opts.files.join(", "));
    }
    let made = super::data::par_map(&starts, opts.threads, |(i, r)| {
        // Each position's own stream: the output does not depend on the
        // thread count.
        let mut rng = SplitMix::new(opts.seed, 1 + i);
        let pos = random_midturn(&r.position(), &mut rng)?;
        let mut p = pos.clone();
        let score = match &eval.net {
            Some(n) => {
                let mut acc = Accumulators::new(n.clone(), &p);
                lookahead(&mut p, &eval, Some(&mut acc))
            }
            None => lookahead(&mut p, &eval, None),
        };
        let result = r.result().map(|y| y > 0.5);
        Some(
            Record::new(
                &pos,
                result,
                r.bucket(),
                is_quiet(&pos),
                milli_logit(score, scale),
            )
            .with_logit_label(),
        )
    });
    let mut seen = std::collections::HashSet::new();
    let out: Vec<Record> = made
        .into_iter()
        .flatten()
        .filter(|r| seen.insert(r.0[..28].to_vec()))
        .collect();
    pack::write(&opts.out, &out)?;
    let by_spent = |k: u8| {
        out.iter()
            .filter(|r| r.steps_left() == STEPS_PER_TURN - k)
            .count()
    };
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "{} turn starts of {} taken; {} positions written to {} (1, 2, 3 steps spent: {}, {}, {}) in {:.0} s, {:.0} a second",
        starts.len(),
        all.len(),
        out.len(),
        opts.out,
        by_spent(1),
        by_spent(2),
        by_spent(3),
        secs,
        out.len() as f64 / secs.max(1e-9)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Piece, Square};

    /// The plain recursion the lookahead must equal: every order of every
    /// action, no table, a fresh evaluation everywhere.
    fn naive(pos: &Position, eval: &Evaluator) -> i32 {
        let mut after = pos.clone();
        after.pass_turn();
        let mut best = match after.outcome_with(|_| false) {
            Some(o) if o.winner == pos.side() => TEACHER_CAP,
            Some(_) => -TEACHER_CAP,
            None => -eval.evaluate(&after),
        };
        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        for &a in list.as_slice() {
            if a.cost() <= pos.steps_left() {
                let mut child = pos.clone();
                child.make_action(a);
                best = best.max(naive(&child, eval));
            }
        }
        best
    }

    #[test]
    fn the_lookahead_is_the_best_way_to_finish_the_turn() {
        let hand = Evaluator::default();
        let with_net = Evaluator {
            w: Default::default(),
            net: Some(crate::eval::nnue::Network::embedded()),
        };
        let mut rng = SplitMix::new(3, 0);
        let mut pos = Position::standard_opening();
        let mut checked = 0;
        for _ in 0..8 {
            // A random turn, then one to three steps of the next, and one
            // more step if three are left (the naive recursion stays quick).
            while pos.steps_left() > 0 {
                let mut list = ActionList::new();
                generate_actions(&pos, &mut list);
                let steps = pos.steps_left();
                list.retain(|a| a.cost() <= steps);
                pos.make_action(list.as_slice()[rng.below(list.len())]);
            }
            pos.pass_turn();
            let mut mid = random_midturn(&pos, &mut rng).unwrap();
            if mid.steps_left() > 2 {
                let mut list = ActionList::new();
                generate_actions(&mid, &mut list);
                list.retain(|a| a.cost() == 1);
                mid.make_action(list.as_slice()[0]);
            }
            for eval in [&hand, &with_net] {
                let mut p = mid.clone();
                let got = match &eval.net {
                    Some(n) => {
                        let mut acc = Accumulators::new(n.clone(), &p);
                        lookahead(&mut p, eval, Some(&mut acc))
                    }
                    None => lookahead(&mut p, eval, None),
                };
                assert_eq!(p, mid, "the position is restored");
                assert_eq!(got, naive(&mid, eval), "{mid:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 16, "only {checked} positions checked");
    }

    #[test]
    fn a_goal_with_the_last_step_is_a_win_and_a_random_midturn_spends_steps() {
        // Gold's rabbit on a7 with one step left reaches a8.
        let mut pos = Position::empty(Color::Gold);
        for (piece, sq) in [
            ("R", "a7"),
            ("E", "d4"),
            ("r", "h7"),
            ("r", "g8"),
            ("e", "e5"),
        ] {
            pos.put(
                Piece::from_char(piece.chars().next().unwrap()).unwrap(),
                Square::parse(sq).unwrap(),
            );
        }
        let mut goal = pos.clone();
        goal.set_steps_left(1);
        assert_eq!(
            lookahead(&mut goal, &Evaluator::default(), None),
            TEACHER_CAP
        );
        // With the a8 square taken it is not.
        goal.put(Piece::from_char('r').unwrap(), Square::parse("a8").unwrap());
        assert!(lookahead(&mut goal, &Evaluator::default(), None) < TEACHER_CAP);
        assert_eq!(milli_logit(TEACHER_CAP, 760), TEACHER_CAP);
        assert_eq!(milli_logit(-TEACHER_CAP, 760), -TEACHER_CAP);
        assert_eq!(milli_logit(380, 760), 500);
        assert_eq!(milli_logit(-380, 760), -500);
        pos.set_steps_left(STEPS_PER_TURN);
        let mut rng = SplitMix::new(9, 0);
        for _ in 0..50 {
            let m = random_midturn(&pos, &mut rng).unwrap();
            assert!((1..=3).contains(&m.steps_left()));
            assert_eq!(m.side(), pos.side());
        }
    }
}
