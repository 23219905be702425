//! The Texel fit: with the weights fixed, the `k` for which
//! `sigmoid(k * eval)` best predicts the results; then, with `k` fixed, the
//! weights, by local search over whole numbers (each weight in turn moved up
//! or down by a step while that lowers the loss, the step, an eighth of the
//! weight at first, halved when neither direction helps). Local search needs nothing from the evaluation
//! but its scores, so nonlinear terms (percentages, maxima) fit as well as
//! linear ones. The loss is the mean squared error against the result.

use super::Tunable;
use super::data::{DataSet, Sample};
use anyhow::{Context, Result};
use std::time::Instant;

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Sum over `set` on `threads` threads of `f(sample, score)`.
fn par_sum<T: Tunable>(
    w: &T,
    set: &[Sample],
    threads: usize,
    f: impl Fn(&Sample, i32) -> f64 + Sync,
) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let chunk = set.len().div_ceil(threads.max(1));
    std::thread::scope(|s| {
        let hs: Vec<_> = set
            .chunks(chunk)
            .map(|c| {
                let f = &f;
                s.spawn(move || c.iter().map(|x| f(x, w.score(&x.pos))).sum::<f64>())
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("scoring does not panic"))
            .sum()
    })
}

/// Mean squared error of `sigmoid(k * score)` against the results.
pub fn loss<T: Tunable>(w: &T, set: &[Sample], k: f64, threads: usize) -> f64 {
    let total = par_sum(w, set, threads, |s, e| {
        let d = s.result - sigmoid(k * e as f64);
        d * d
    });
    total / set.len().max(1) as f64
}

/// The `k` that minimises the loss for the given scores (golden-section
/// search on its logarithm; the loss is unimodal in `k` in practice).
pub fn fit_k(scores: &[i32], set: &[Sample]) -> f64 {
    let mse = |k: f64| {
        scores
            .iter()
            .zip(set)
            .map(|(&e, s)| {
                let d = s.result - sigmoid(k * e as f64);
                d * d
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (1e-5f64.ln(), 1.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (mse(c.exp()), mse(d.exp()));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = mse(c.exp());
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = mse(d.exp());
        }
    }
    ((a + b) / 2.0).exp()
}

/// Scores of every sample with `w`.
pub fn scores<T: Tunable>(w: &T, set: &[Sample], threads: usize) -> Vec<i32> {
    super::data::par_map(set, threads, |s| w.score(&s.pos))
}

/// How the weights are searched.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Passes over all weights at most.
    pub max_passes: usize,
    pub threads: usize,
    /// Weights stay within plus or minus this.
    pub bound: i32,
    /// Weights (flat indices) left as they are.
    pub frozen: Vec<usize>,
}

/// Fits the weights of `w` to `train` with `k` fixed; returns the final
/// training loss. `log` hears one line per pass, with the loss on `watch`
/// (the held-out set, shown only: it steers nothing).
pub fn fit_weights<T: Tunable>(
    w: &mut T,
    train: &[Sample],
    k: f64,
    opts: &FitOptions,
    watch: &[Sample],
    log: &mut dyn FnMut(&str),
) -> f64 {
    let held = |w: &T| {
        if watch.is_empty() {
            String::new()
        } else {
            format!(", held out {:.6}", loss(w, watch, k, opts.threads))
        }
    };
    local_search(
        w,
        opts,
        &|w: &T| loss(w, train, k, opts.threads),
        &held,
        log,
    )
}

/// The local search itself, over any loss of the weights (the Texel loss
/// here, the turn-choice loss of [`super::moves`]): each weight in turn is
/// moved by its step while that lowers `loss`, the step halved when neither
/// direction helps. `watch` adds text to each pass's line (a held-out
/// loss); returns the final loss.
pub fn local_search<T: Tunable>(
    w: &mut T,
    opts: &FitOptions,
    loss: &(dyn Fn(&T) -> f64 + Sync),
    watch: &dyn Fn(&T) -> String,
    log: &mut dyn FnMut(&str),
) -> f64 {
    let n = w.len();
    let mut step: Vec<i32> = (0..n).map(|i| (w.get(i).abs() / 8).max(1)).collect();
    let mut best = loss(w);
    let t0 = Instant::now();
    for pass in 1..=opts.max_passes {
        let mut busy = false;
        let mut moved = 0;
        for i in (0..n).filter(|i| !opts.frozen.contains(i)) {
            let mut improved = false;
            for dir in [1, -1] {
                let mut run = 0;
                loop {
                    let old = w.get(i);
                    let new = (old + dir * step[i]).clamp(-opts.bound, opts.bound);
                    if new == old {
                        break;
                    }
                    if !w.set(i, new) {
                        break;
                    }
                    let l = loss(w);
                    if l < best {
                        best = l;
                        run += 1;
                    } else {
                        w.set(i, old);
                        break;
                    }
                }
                if run > 0 {
                    improved = true;
                    moved += 1;
                    break;
                }
            }
            if improved {
                busy = true;
            } else if step[i] > 1 {
                step[i] /= 2;
                busy = true;
            }
        }
        log(&format!(
            "pass {pass}: train loss {best:.6}{}, {moved} weights moved, {:.0}s",
            watch(w),
            t0.elapsed().as_secs_f64()
        ));
        if !busy {
            break;
        }
    }
    best
}

/// The Rust source of the weight table: a header comment (`header` lines)
/// and every weight of `w` as a `(name, value)` entry, by the names of the
/// weights' settings table.
pub fn rust_table<T: Tunable>(w: &T, header: &[String]) -> String {
    let mut s = String::from("//! Evaluation weights fitted by `aamir tune`.\n//!\n");
    for h in header {
        if h.is_empty() {
            s.push_str("//!\n");
        } else {
            s.push_str(&format!("//! {h}\n"));
        }
    }
    s.push_str("\n/// Every weight by its name in the weights' settings table.\n");
    s.push_str("pub const WEIGHTS: &[(&str, i32)] = &[\n");
    for i in 0..w.len() {
        s.push_str(&format!("    (\"{}\", {}),\n", w.name(i), w.get(i)));
    }
    s.push_str("];\n");
    s
}

/// Settings of `aamir tune`.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub fit: FitOptions,
    /// Use this `k` instead of fitting it.
    pub k: Option<f64>,
    /// Where the table goes (nothing is written without it).
    pub out: Option<String>,
    /// The command line, for the table's header.
    pub command: String,
    /// Labels from a fixed-depth search instead of the game results alone
    /// (see [`super::label`]); `k` is fitted to the results first.
    pub label: Option<super::label::LabelOptions>,
}

/// `aamir tune`: fits the default weights to `data`, prints the losses and
/// writes the table.
pub fn run<T: Tunable>(
    start: T,
    data: &DataSet,
    inputs: &[String],
    opts: &TuneOptions,
) -> Result<T> {
    let th = opts.fit.threads;
    crate::outln!("{}", data.summary())?;
    anyhow::ensure!(!data.train.is_empty(), "no training positions left");
    let t0 = Instant::now();
    let k = match opts.k {
        Some(k) => k,
        None => fit_k(&scores(&start, &data.train, th), &data.train),
    };
    let relabelled;
    let results = data;
    let data = match &opts.label {
        None => data,
        Some(lo) => {
            let t = Instant::now();
            let mut d = data.clone();
            let progress = |n: usize| {
                // A failed write here shows at the next checked one below.
                let _ = crate::outln!("  {n} positions searched");
            };
            super::label::relabel(&mut d.train, k, lo, th, &progress)?;
            super::label::relabel(&mut d.test, k, lo, th, &progress)?;
            crate::outln!(
                "labels: a {}-step search, {}% game result ({:.0}s)",
                lo.depth,
                lo.result_pct,
                t.elapsed().as_secs_f64()
            )?;
            relabelled = d;
            &relabelled
        }
    };
    let before = (
        loss(&start, &data.train, k, th),
        loss(&start, &data.test, k, th),
    );
    crate::outln!(
        "k {k:.6}; loss before: train {:.6}, held out {:.6}",
        before.0,
        before.1
    )?;
    let mut w = start.clone();
    fit_weights(&mut w, &data.train, k, &opts.fit, &data.test, &mut |l| {
        // A failed write here shows at the next checked one below.
        let _ = crate::outln!("{l}");
    });
    let after = (loss(&w, &data.train, k, th), loss(&w, &data.test, k, th));
    crate::outln!(
        "loss after: train {:.6}, held out {:.6} ({:.0}s)",
        after.0,
        after.1,
        t0.elapsed().as_secs_f64()
    )?;
    if opts.label.is_some() {
        crate::outln!(
            "held out against the game results: {:.6} -> {:.6}",
            loss(&start, &results.test, k, th),
            loss(&w, &results.test, k, th)
        )?;
    }
    for i in 0..w.len() {
        if w.get(i) != start.get(i) {
            crate::outln!("  {:24} {:6} -> {:6}", w.name(i), start.get(i), w.get(i))?;
        }
    }
    if let Some(path) = &opts.out {
        let mut header = vec![
            "Fitted by `aamir tune` (Texel's method: quiet positions, the".to_string(),
            match &opts.label {
                None => "mean squared error of `sigmoid(k * eval)` against the game result).",
                Some(_) => "mean squared error of `sigmoid(k * eval)` against the label).",
            }
            .to_string(),
            String::new(),
            format!("Command: `{}`", opts.command),
        ];
        for p in inputs {
            if let Ok(text) = std::fs::read_to_string(p)
                && let Some(first) = text
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("# aamir gen"))
            {
                header.push(format!("Data `{p}`: `aamir gen{first}`"));
            }
        }
        header.push(format!("Positions: {}", data.summary()));
        header.push(format!(
            "k {k:.6}; loss train {:.6} -> {:.6}, held out {:.6} -> {:.6}",
            before.0, after.0, before.1, after.1
        ));
        std::fs::write(path, rust_table(&w, &header)).with_context(|| format!("writing {path}"))?;
        crate::outln!("wrote {path}")?;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::tune::data::{Selection, read_file, select};

    /// Quiet archive positions, labelled by a known evaluation: the exact
    /// probability `sigmoid(k * eval)`, so the fit has one right answer.
    fn synthetic(truth: &Evaluator, k: f64) -> Vec<Sample> {
        let raw = read_file("tests/data/games-2026-02.tsv").unwrap();
        let sel = Selection {
            skip_turns: 2,
            test_pct: 0,
            threads: 2,
        };
        let mut set = select(raw, &sel).unwrap().train;
        for s in &mut set {
            s.result = sigmoid(k * truth.evaluate(&s.pos) as f64);
        }
        set
    }

    #[test]
    fn fit_k_recovers_a_known_k() {
        let truth = Evaluator::default();
        let set = synthetic(&truth, 0.0123);
        let k = fit_k(&scores(&truth, &set, 2), &set);
        assert!((k - 0.0123).abs() < 0.0123 * 0.01, "k {k}");
    }

    #[test]
    fn fit_recovers_known_weights() {
        let mut truth = Evaluator::default();
        truth.w.elephant_center = 9;
        truth.w.trap_two_guards = 30;
        truth.w.rabbit_rank[4] = 25;
        let k = 0.01;
        let set = synthetic(&truth, k);
        let mut w = Evaluator::default();
        let start = loss(&w, &set, k, 2);
        assert!(start > 1e-5, "the moved weights change the labels");
        let names = Evaluator::default();
        let idx = |name: &str| (0..names.len()).find(|&i| names.name(i) == name).unwrap();
        // Only the three moved weights and a few others are free, to keep
        // the test quick.
        let free = [
            idx("elephant_center"),
            idx("trap_two_guards"),
            idx("rabbit_rank_4"),
            idx("tempo"),
            idx("officer_center"),
        ];
        let opts = FitOptions {
            max_passes: 40,
            threads: 2,
            bound: 1000,
            frozen: (0..w.len()).filter(|i| !free.contains(i)).collect(),
        };
        let end = fit_weights(&mut w, &set, k, &opts, &[], &mut |_| {});
        assert!(end < start / 20.0, "loss {start} -> {end}");
        for (name, want) in [
            ("elephant_center", 9),
            ("trap_two_guards", 30),
            ("rabbit_rank_4", 25),
        ] {
            let got = w.get(idx(name));
            assert!((got - want).abs() <= 2, "{name}: {got}, truth {want}");
        }
        assert!((w.w.tempo - truth.w.tempo).abs() <= 2);
    }

    #[test]
    fn the_table_lists_every_weight_with_its_value() {
        let mut w = Evaluator::default();
        w.w.tempo = -7;
        w.w.frozen[3] = 99;
        let text = rust_table(&w, &["Test.".to_string()]);
        assert!(text.contains("    (\"tempo\", -7),\n"), "{text}");
        assert!(text.contains("    (\"frozen_3\", 99),\n"), "{text}");
        assert_eq!(text.matches("\", ").count(), w.len());
    }
}
