//! `aamir tune-terms`: how much of a teacher's judgement the evaluation's
//! terms can express at all.
//!
//! Each position of a labelled set (the lines of `aamir gen` files or
//! archives, with a teacher's score of each, as `scripts/nnue_data.sh`
//! makes them) becomes the vector of its term values for the side to move
//! (the lines of [`crate::eval::Evaluator::explain`]) and a target: the
//! teacher's score read as a winning chance, `sigmoid(k_t * score)`, with
//! `k_t` fitted to the game results of the training games. Then three
//! predictions of that chance are fitted on the training games and graded
//! on the held-out ones:
//! - the constant (every position even),
//! - aamir's static score as it is, with one scale `sigmoid(k * eval)`,
//! - aamir's terms with a weight each, `sigmoid(sum a_j x_j)`: the best any
//!   reweighting of today's terms can do.
//!
//! The losses are the mean cross-entropy against the target and the mean
//! squared error; a learned evaluation is graded on the same split.

use super::auc::read_scores;
use super::data::{held_out, par_map, read_all};
use super::fit::sigmoid;
use crate::eval::{Evaluator, TERMS};
use crate::linalg::solve;
use crate::outln;
use anyhow::{Result, bail};

/// What `aamir tune-terms` reads.
#[derive(Clone, Debug)]
pub struct TermsOptions {
    pub files: Vec<String>,
    /// The teacher's score of each position of `files`, in order, for the
    /// side to move (the last number on each line).
    pub scores: String,
    /// Percentage of the games held out.
    pub test_pct: u64,
    pub threads: usize,
}

/// Mean cross-entropy and squared error of predictions `q` against
/// targets `p`.
fn losses(p: &[f64], q: &[f64]) -> (f64, f64) {
    let n = p.len().max(1) as f64;
    let mut ce = 0.0;
    let mut se = 0.0;
    for (&p, &q) in p.iter().zip(q) {
        let q = q.clamp(1e-12, 1.0 - 1e-12);
        ce -= p * q.ln() + (1.0 - p) * (1.0 - q).ln();
        se += (p - q) * (p - q);
    }
    (ce / n, se / n)
}

/// Logistic regression with soft targets by Newton's method:
/// the weights `a` minimising the cross-entropy of `sigmoid(a . x)`
/// against `p`, with a small ridge to keep the solve stable.
pub fn fit_logistic(x: &[Vec<f64>], p: &[f64], iters: usize) -> Vec<f64> {
    let d = x.first().map_or(0, Vec::len);
    let mut a = vec![0.0; d];
    for _ in 0..iters {
        let mut g = vec![0.0; d];
        let mut h = vec![vec![0.0; d]; d];
        for (xi, &pi) in x.iter().zip(p) {
            let q = sigmoid(dot(&a, xi));
            let w = q * (1.0 - q);
            for ((gj, hj), &xj) in g.iter_mut().zip(h.iter_mut()).zip(xi) {
                *gj += (q - pi) * xj;
                for (hjk, &xk) in hj.iter_mut().zip(xi) {
                    *hjk += w * xj * xk;
                }
            }
        }
        let ridge = 1e-6 * x.len() as f64;
        for (j, hj) in h.iter_mut().enumerate() {
            hj[j] += ridge;
        }
        let Some(step) = solve(h, g) else { break };
        let mut moved = 0.0f64;
        for j in 0..d {
            a[j] -= step[j];
            moved = moved.max(step[j].abs());
        }
        if moved < 1e-9 {
            break;
        }
    }
    a
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The teacher's scores are read within plus or minus this.
const TEACHER_CAP: f64 = 50_000.0;

/// `aamir tune-terms`.
pub fn run(opts: &TermsOptions) -> Result<()> {
    let raw = read_all(&opts.files)?;
    let teacher = read_scores(&opts.scores)?;
    // Won and lost positions come as huge numbers (Sharp's are near
    // -2^31): past this they say no more, and left as they are they swamp
    // the fit of the teacher's scale.
    let teacher: Vec<f64> = teacher
        .into_iter()
        .map(|t| t.clamp(-TEACHER_CAP, TEACHER_CAP))
        .collect();
    if teacher.len() != raw.len() {
        bail!(
            "{}: {} scores for {} positions",
            opts.scores,
            teacher.len(),
            raw.len()
        );
    }
    let eval = Evaluator::default();
    // Term values for the side to move, in rabbits, and the static score.
    let feats: Vec<(Vec<f64>, f64)> = par_map(&raw, opts.threads, |r| {
        let sign = if r.sample.pos.side() == crate::board::Color::Gold {
            1.0
        } else {
            -1.0
        };
        let x = eval
            .explain(&r.sample.pos)
            .iter()
            .map(|l| sign * f64::from(l.net) / 100.0)
            .collect();
        (x, f64::from(eval.evaluate(&r.sample.pos)) / 100.0)
    });
    let test: Vec<bool> = raw
        .iter()
        .map(|r| held_out(&r.game, opts.test_pct))
        .collect();
    let split = |v: &dyn Fn(usize) -> bool| (0..raw.len()).filter(|&i| v(i)).collect::<Vec<_>>();
    let (tr, te) = (split(&|i| !test[i]), split(&|i| test[i]));
    if tr.is_empty() || te.is_empty() {
        bail!(
            "{} training and {} held-out positions: too few games to split",
            tr.len(),
            te.len()
        );
    }
    // The teacher's scale, fitted to the training games' results.
    let one = |i: &usize| vec![teacher[*i] / 100.0];
    let kt = fit_logistic(
        &tr.iter().map(one).collect::<Vec<_>>(),
        &tr.iter().map(|&i| raw[i].sample.result).collect::<Vec<_>>(),
        30,
    )[0];
    let target = |i: usize| sigmoid(kt * teacher[i] / 100.0);
    let p_tr: Vec<f64> = tr.iter().map(|&i| target(i)).collect();
    let p_te: Vec<f64> = te.iter().map(|&i| target(i)).collect();
    // aamir's score with one scale.
    let k = fit_logistic(
        &tr.iter().map(|&i| vec![feats[i].1]).collect::<Vec<_>>(),
        &p_tr,
        30,
    )[0];
    // Every term with its own weight.
    let x_tr: Vec<Vec<f64>> = tr.iter().map(|&i| feats[i].0.clone()).collect();
    let a = fit_logistic(&x_tr, &p_tr, 30);
    let grade = |f: &dyn Fn(usize) -> f64| -> ((f64, f64), (f64, f64)) {
        (
            losses(&p_tr, &tr.iter().map(|&i| f(i)).collect::<Vec<_>>()),
            losses(&p_te, &te.iter().map(|&i| f(i)).collect::<Vec<_>>()),
        )
    };
    let rows = [
        ("constant (even)", grade(&|_| 0.5)),
        (
            "aamir's score, one scale",
            grade(&|i| sigmoid(k * feats[i].1)),
        ),
        (
            "aamir's terms, reweighted",
            grade(&|i| sigmoid(dot(&a, &feats[i].0))),
        ),
    ];
    outln!(
        "{} positions ({} train, {} held out); teacher's scale {:.4} per rabbit from the results, aamir's {:.4}",
        raw.len(),
        tr.len(),
        te.len(),
        kt,
        k
    )?;
    outln!(
        "{:<28} {:>10} {:>10} {:>10} {:>10}",
        "prediction",
        "train CE",
        "train MSE",
        "held CE",
        "held MSE"
    )?;
    for (name, ((ce, se), (tce, tse))) in rows {
        outln!("{name:<28} {ce:>10.5} {se:>10.5} {tce:>10.5} {tse:>10.5}")?;
    }
    outln!(
        "weights of the reweighted terms, per rabbit of each (1 = as the evaluation has it, times {k:.4}):"
    )?;
    for (t, w) in TERMS.iter().zip(&a) {
        outln!("  {:<32} {:>8.4}  ({:>6.2} x)", t.name, w, w / k)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_the_weights_of_a_logistic_model() {
        // Targets made by known weights are fitted back.
        let truth = [0.8, -1.5, 0.3];
        let mut x = Vec::new();
        let mut p = Vec::new();
        let mut s = 1u64;
        for _ in 0..2000 {
            let xi: Vec<f64> = (0..3)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((s >> 33) as f64 / (1u64 << 31) as f64) * 4.0 - 2.0
                })
                .collect();
            p.push(sigmoid(dot(&truth, &xi)));
            x.push(xi);
        }
        let a = fit_logistic(&x, &p, 30);
        for (got, want) in a.iter().zip(truth) {
            assert!((got - want).abs() < 1e-3, "{a:?}");
        }
        let q: Vec<f64> = x.iter().map(|xi| sigmoid(dot(&a, xi))).collect();
        assert!(losses(&p, &q).1 < 1e-8);
        // The constant does worse.
        assert!(losses(&p, &vec![0.5; p.len()]).1 > 0.01);
    }
}
