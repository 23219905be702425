//! `aamir train`: fits the learned evaluation ([`crate::eval::nnue`]) to
//! labelled positions (`aamir pack` files) and writes the integer net.
//!
//! The target of a position is the teacher's score read as the side to
//! move's winning chance, `sigmoid(k_t * score)`, with `k_t` fitted to the
//! training games' results as `aamir tune-terms` fits it (so the losses
//! compare), optionally blended with the game's result. The loss is the
//! squared error between `sigmoid(logit)` and the target; the optimiser
//! is Adam on minibatches, the minibatch split between threads. Only the
//! first-layer rows of inputs active in a minibatch move (lazy Adam):
//! about 60 of 768 rows per position.
//!
//! Each position is also seen mirrored left to right at random (the rules
//! do not tell the wings apart). The first layer is trained factorised:
//! besides its own row, each piece also activates a row shared by every
//! square of its owner and class ([`VIRTUAL`] rows), so what a piece is
//! worth anywhere is learned from all its squares at once; the shared
//! rows are folded into the square rows when the net is written
//! ([`fold`]), and the engine never sees them. The same seed and options give the same
//! net for the same number of threads.

use super::fit::sigmoid;
use super::pack::{self, Record};
use crate::eval::nnue::float::FloatNet;
use crate::eval::nnue::{self, CLASSES, INPUTS, L1, L2, L3, MAX_ACTIVE};
use crate::outln;
use crate::rng::SplitMix;
use anyhow::{Result, bail};
use std::time::Instant;

/// What `aamir train` does.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub files: Vec<String>,
    pub out: String,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Percentage of the games held out (split buckets below this).
    pub test_pct: u8,
    /// Percent of the target that is the game's result.
    pub result_pct: u32,
    /// Train only on the quiet positions.
    pub quiet: bool,
    /// Centi-rabbits per unit of logit in the written net.
    pub scale: f32,
    pub seed: u64,
    pub threads: usize,
    /// Stop after this many training positions (0: all).
    pub limit: usize,
    /// Train the first layer factorised (the shared rows on).
    pub factor: bool,
    /// Only grade this net file on the held-out positions (no training).
    pub grade: Option<String>,
    /// Train a residual over the hand-weighted terms (default weights).
    pub residual: bool,
}

/// Shared rows of the factorised first layer: one per owner and class.
pub const VIRTUAL: usize = 2 * CLASSES;
/// First-layer rows while training.
const ROWS: usize = INPUTS + VIRTUAL;
/// Inputs active for one side while training: each piece's own and its
/// shared row.
const MAX_F: usize = 2 * MAX_ACTIVE;

/// The shared row of input `f`.
#[inline(always)]
fn virtual_of(f: usize) -> usize {
    INPUTS + f / 64
}

/// The engine's net from a trained one: each shared row added into the
/// square rows of its owner and class.
pub fn fold(net: &FloatNet) -> FloatNet {
    let mut out = net.clone();
    out.w1.truncate(INPUTS * L1);
    for f in 0..INPUTS {
        let v = virtual_of(f);
        for j in 0..L1 {
            out.w1[f * L1 + j] += net.w1[v * L1 + j];
        }
    }
    out
}

/// A position's inputs for the side to move and the other side, and its
/// target.
struct Sample {
    f: [[u16; MAX_F]; 2],
    n: [usize; 2],
    target: f32,
    /// What the net's output is added to, in logits (the hand terms'
    /// score of a residual net, else 0).
    base: f32,
}

/// The inputs of a record as the side to move (0) and the other side (1)
/// see it, mirrored left to right when `mirror`.
fn features(r: &Record, mirror: bool, factor: bool) -> ([[u16; MAX_F]; 2], [usize; 2]) {
    let mut count = [[0u32; 6]; 2];
    for (p, _) in r.pieces() {
        count[p.color().index()][p.kind().index()] += 1;
    }
    // stronger[c][k]: pieces of colour c stronger than kind k.
    let mut stronger = [[0u32; 6]; 2];
    for c in 0..2 {
        let mut above = 0;
        for k in (0..6).rev() {
            stronger[c][k] = above;
            above += count[c][k];
        }
    }
    let side = r.side();
    let mut f = [[0u16; MAX_F]; 2];
    let mut n = [0usize; 2];
    for (p, sq) in r.pieces().take(MAX_ACTIVE) {
        let sq = if mirror {
            crate::board::Square::new(sq.raw() ^ 7)
        } else {
            sq
        };
        let cl = nnue::class(
            p.kind(),
            stronger[p.color().opp().index()][p.kind().index()],
        );
        for (h, view) in [side, side.opp()].into_iter().enumerate() {
            f[h][n[h]] = nnue::feature(view, p.color(), cl, sq) as u16;
            n[h] += 1;
        }
    }
    if !factor {
        return (f, n);
    }
    // The shared rows after the square rows, so that the first n/2 are
    // the engine's inputs.
    for h in 0..2 {
        let real = n[h];
        for k in 0..real {
            f[h][real + k] = virtual_of(f[h][k] as usize) as u16;
        }
        n[h] = 2 * real;
    }
    (f, n)
}

/// Gradients of one thread's share of a minibatch.
struct Grads {
    w1: Vec<f32>,
    touched: Vec<bool>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: Vec<f32>,
    w4: Vec<f32>,
    b4: f32,
    loss: f64,
}

impl Grads {
    fn new() -> Grads {
        Grads {
            w1: vec![0.0; ROWS * L1],
            touched: vec![false; ROWS],
            b1: vec![0.0; L1],
            w2: vec![0.0; L2 * 2 * L1],
            b2: vec![0.0; L2],
            w3: vec![0.0; L3 * L2],
            b3: vec![0.0; L3],
            w4: vec![0.0; L3],
            b4: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        for i in 0..ROWS {
            if self.touched[i] {
                self.w1[i * L1..(i + 1) * L1].fill(0.0);
                self.touched[i] = false;
            }
        }
        for v in [
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
            &mut self.w4,
        ] {
            v.fill(0.0);
        }
        self.b4 = 0.0;
        self.loss = 0.0;
    }

    /// Adds `other` into `self`.
    fn merge(&mut self, other: &Grads) {
        for i in 0..ROWS {
            if other.touched[i] {
                let (a, b) = (
                    &mut self.w1[i * L1..(i + 1) * L1],
                    &other.w1[i * L1..(i + 1) * L1],
                );
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                self.touched[i] = true;
            }
        }
        let add = |a: &mut Vec<f32>, b: &Vec<f32>| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.b1, &other.b1);
        add(&mut self.w2, &other.w2);
        add(&mut self.b2, &other.b2);
        add(&mut self.w3, &other.w3);
        add(&mut self.b3, &other.b3);
        add(&mut self.w4, &other.w4);
        self.b4 += other.b4;
        self.loss += other.loss;
    }
}

/// The forward pass's values a backward pass needs.
struct Forward {
    acc: [[f32; L1]; 2],
    a1: [f32; 2 * L1],
    z2: [f32; L2],
    a2: [f32; L2],
    z3: [f32; L3],
    a3: [f32; L3],
    out: f32,
}

fn forward(net: &FloatNet, s: &Sample) -> Forward {
    let mut fw = Forward {
        acc: [[0.0; L1]; 2],
        a1: [0.0; 2 * L1],
        z2: [0.0; L2],
        a2: [0.0; L2],
        z3: [0.0; L3],
        a3: [0.0; L3],
        out: 0.0,
    };
    for h in 0..2 {
        let acc = &mut fw.acc[h];
        acc.copy_from_slice(&net.b1);
        for &i in &s.f[h][..s.n[h]] {
            let row = &net.w1[i as usize * L1..(i as usize + 1) * L1];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        for (o, a) in fw.a1[h * L1..(h + 1) * L1].iter_mut().zip(acc.iter()) {
            *o = a.clamp(0.0, 1.0);
        }
    }
    for k in 0..L2 {
        let row = &net.w2[k * 2 * L1..(k + 1) * 2 * L1];
        let z = net.b2[k] + row.iter().zip(&fw.a1).map(|(w, a)| w * a).sum::<f32>();
        fw.z2[k] = z;
        fw.a2[k] = z.clamp(0.0, 1.0);
    }
    let mut out = net.b4;
    for m in 0..L3 {
        let row = &net.w3[m * L2..(m + 1) * L2];
        let z = net.b3[m] + row.iter().zip(&fw.a2).map(|(w, a)| w * a).sum::<f32>();
        fw.z3[m] = z;
        fw.a3[m] = z.clamp(0.0, 1.0);
        out += net.w4[m] * fw.a3[m];
    }
    fw.out = out;
    fw
}

#[inline(always)]
fn inside(z: f32) -> f32 {
    if z > 0.0 && z < 1.0 { 1.0 } else { 0.0 }
}

/// Adds the gradient of one sample's loss.
// Indexed loops: the layers' formulas read best with their indices.
#[allow(clippy::needless_range_loop)]
fn backward(net: &FloatNet, s: &Sample, g: &mut Grads) {
    let fw = forward(net, s);
    let p = 1.0 / (1.0 + (-(fw.out + s.base)).exp());
    let e = p - s.target;
    g.loss += f64::from(e * e);
    let d_out = 2.0 * e * p * (1.0 - p);
    g.b4 += d_out;
    let mut dz3 = [0f32; L3];
    for m in 0..L3 {
        g.w4[m] += d_out * fw.a3[m];
        dz3[m] = d_out * net.w4[m] * inside(fw.z3[m]);
    }
    let mut dz2 = [0f32; L2];
    for m in 0..L3 {
        if dz3[m] == 0.0 {
            continue;
        }
        g.b3[m] += dz3[m];
        let row = &net.w3[m * L2..(m + 1) * L2];
        let grow = &mut g.w3[m * L2..(m + 1) * L2];
        for k in 0..L2 {
            grow[k] += dz3[m] * fw.a2[k];
            dz2[k] += dz3[m] * row[k];
        }
    }
    let mut da1 = [0f32; 2 * L1];
    for k in 0..L2 {
        let d = dz2[k] * inside(fw.z2[k]);
        if d == 0.0 {
            continue;
        }
        g.b2[k] += d;
        let row = &net.w2[k * 2 * L1..(k + 1) * 2 * L1];
        let grow = &mut g.w2[k * 2 * L1..(k + 1) * 2 * L1];
        for i in 0..2 * L1 {
            grow[i] += d * fw.a1[i];
            da1[i] += d * row[i];
        }
    }
    for h in 0..2 {
        let mut dacc = [0f32; L1];
        let mut any = false;
        for j in 0..L1 {
            let a = fw.acc[h][j];
            if a > 0.0 && a < 1.0 {
                dacc[j] = da1[h * L1 + j];
                any |= dacc[j] != 0.0;
            }
        }
        if !any {
            continue;
        }
        g.b1.iter_mut().zip(&dacc).for_each(|(x, d)| *x += d);
        for &i in &s.f[h][..s.n[h]] {
            let i = i as usize;
            g.touched[i] = true;
            g.w1[i * L1..(i + 1) * L1]
                .iter_mut()
                .zip(&dacc)
                .for_each(|(x, d)| *x += d);
        }
    }
}

/// Adam's moments for one array of parameters.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

/// One Adam step on `w[range]` by `g[range]` (already averaged).
#[inline]
fn adam(w: &mut [f32], g: &[f32], mo: &mut Moments, lr: f32, range: std::ops::Range<usize>) {
    for i in range {
        let gi = g[i];
        mo.m[i] = BETA1 * mo.m[i] + (1.0 - BETA1) * gi;
        mo.v[i] = BETA2 * mo.v[i] + (1.0 - BETA2) * gi * gi;
        w[i] -= lr * mo.m[i] / (mo.v[i].sqrt() + EPS);
    }
}

/// The optimiser's state.
struct Optimiser {
    w1: Moments,
    b1: Moments,
    w2: Moments,
    b2: Moments,
    w3: Moments,
    b3: Moments,
    w4: Moments,
    b4: Moments,
    t: i32,
}

impl Optimiser {
    fn new() -> Optimiser {
        Optimiser {
            w1: Moments::new(ROWS * L1),
            b1: Moments::new(L1),
            w2: Moments::new(L2 * 2 * L1),
            b2: Moments::new(L2),
            w3: Moments::new(L3 * L2),
            b3: Moments::new(L3),
            w4: Moments::new(L3),
            b4: Moments::new(1),
            t: 0,
        }
    }

    /// Applies the summed gradients of `n` samples.
    fn step(&mut self, net: &mut FloatNet, g: &mut Grads, n: usize, lr: f32) {
        self.t += 1;
        // Bias correction folded into the rate.
        let lr = lr * (1.0 - BETA2.powi(self.t)).sqrt() / (1.0 - BETA1.powi(self.t));
        let inv = 1.0 / n as f32;
        let scale = |v: &mut Vec<f32>| v.iter_mut().for_each(|x| *x *= inv);
        for i in 0..ROWS {
            if g.touched[i] {
                let r = i * L1..(i + 1) * L1;
                g.w1[r.clone()].iter_mut().for_each(|x| *x *= inv);
                adam(&mut net.w1, &g.w1, &mut self.w1, lr, r);
            }
        }
        for v in [
            &mut g.b1, &mut g.w2, &mut g.b2, &mut g.w3, &mut g.b3, &mut g.w4,
        ] {
            scale(v);
        }
        adam(&mut net.b1, &g.b1, &mut self.b1, lr, 0..L1);
        adam(&mut net.w2, &g.w2, &mut self.w2, lr, 0..L2 * 2 * L1);
        adam(&mut net.b2, &g.b2, &mut self.b2, lr, 0..L2);
        adam(&mut net.w3, &g.w3, &mut self.w3, lr, 0..L3 * L2);
        adam(&mut net.b3, &g.b3, &mut self.b3, lr, 0..L3);
        adam(&mut net.w4, &g.w4, &mut self.w4, lr, 0..L3);
        let mut b4 = [net.b4];
        adam(&mut b4, &[g.b4 * inv], &mut self.b4, lr, 0..1);
        net.b4 = b4[0];
        net.clamp_weights();
    }
}

/// The teacher's scale `k` (per centi-unit of its score, as `tune-terms`
/// reports it per 100) fitted to the game results by Newton's method:
/// `P(win) = sigmoid(k * score / 100)`.
pub fn fit_teacher_scale(records: &[&Record]) -> f64 {
    let data: Vec<(f64, f64)> = records
        .iter()
        .filter_map(|r| {
            r.result()
                .map(|y| (f64::from(r.score()) / 100.0, f64::from(y)))
        })
        .collect();
    let mut k = 0.01;
    for _ in 0..30 {
        let (mut g, mut h) = (0.0, 0.0);
        for &(x, y) in &data {
            let p = sigmoid(k * x);
            g += (y - p) * x;
            h += p * (1.0 - p) * x * x;
        }
        if h <= 0.0 {
            break;
        }
        k += g / h;
    }
    k
}

/// `aamir train`.
pub fn run(opts: &TrainOptions) -> Result<()> {
    let mut all = Vec::new();
    for f in &opts.files {
        all.extend(pack::read(f)?);
    }
    let kept: Vec<&Record> = all.iter().filter(|r| !opts.quiet || r.quiet()).collect();
    let (mut train, test): (Vec<&Record>, Vec<&Record>) =
        kept.iter().partition(|r| r.bucket() >= opts.test_pct);
    if opts.limit > 0 {
        train.truncate(opts.limit);
    }
    if train.is_empty() || test.is_empty() {
        bail!(
            "{} training and {} held-out positions: too few to train",
            train.len(),
            test.len()
        );
    }
    let kt = fit_teacher_scale(&train);
    let lambda = opts.result_pct as f32 / 100.0;
    let target = |r: &Record| -> f32 {
        let t = sigmoid(kt * f64::from(r.score()) / 100.0) as f32;
        match r.result() {
            Some(y) => (1.0 - lambda) * t + lambda * y,
            None => t,
        }
    };
    let teacher_only = |r: &Record| sigmoid(kt * f64::from(r.score()) / 100.0) as f32;
    outln!(
        "{} positions ({} train, {} held out{}); teacher's scale {kt:.4} per 100 of its score; target {}% teacher, {}% result",
        all.len(),
        train.len(),
        test.len(),
        if opts.quiet { ", quiet only" } else { "" },
        100 - opts.result_pct,
        opts.result_pct
    )?;
    let threads = opts.threads.max(1);
    // The hand terms' score of every position, for a residual net.
    let hand = crate::eval::Evaluator::default();
    let base_of = |rs: &[&Record]| -> Vec<f32> {
        if !opts.residual {
            return vec![0.0; rs.len()];
        }
        super::data::par_map(rs, threads, |r| {
            hand.evaluate_terms(&r.position()) as f32 / opts.scale
        })
    };
    let train_base = base_of(&train);
    let test_base = base_of(&test);
    let test_samples: Vec<Sample> = test
        .iter()
        .zip(&test_base)
        .map(|(r, &base)| {
            let (f, n) = features(r, false, opts.factor);
            Sample {
                f,
                n,
                target: teacher_only(r),
                base,
            }
        })
        .collect();
    if let Some(path) = &opts.grade {
        let net = crate::eval::nnue::file::load(path)?;
        outln!(
            "{path}: held-out MSE {:.5} on {} positions",
            integer_mse(&net, &test, &test_samples),
            test.len()
        )?;
        return Ok(());
    }
    let mut rng = SplitMix::new(opts.seed, 0);
    let mut net = FloatNet::random(opts.scale, || rng.unit() as f32);
    if opts.residual {
        net.base = crate::eval::nnue::Base::Terms;
    }
    // The shared rows start at 0: the square rows carry the start.
    net.w1.resize(ROWS * L1, 0.0);
    let mut opt = Optimiser::new();
    let mut grads: Vec<Grads> = (0..threads).map(|_| Grads::new()).collect();
    let mut best: Option<(f64, usize)> = None;
    let total = opts.epochs * train.len();
    let start = Instant::now();
    for epoch in 0..opts.epochs {
        let t0 = Instant::now();
        // Cosine decay from lr to lr / 20 over the run.
        let progress = epoch as f32 / opts.epochs.max(1) as f32;
        let lr = opts.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut shuffle = SplitMix::new(opts.seed, 1 + epoch as u64);
        for i in (1..order.len()).rev() {
            order.swap(i, shuffle.below(i + 1));
        }
        let mut train_loss = 0.0;
        let mut last_report = Instant::now();
        for (b, batch) in order.chunks(opts.batch).enumerate() {
            let samples: Vec<Sample> = batch
                .iter()
                .map(|&i| {
                    let r = train[i as usize];
                    // A stable per-sample mirror choice for the epoch.
                    let mirror = (u64::from(i) ^ (epoch as u64).wrapping_mul(0x9E37_79B9)) & 1 == 1;
                    let (f, n) = features(r, mirror, opts.factor);
                    Sample {
                        f,
                        n,
                        target: target(r),
                        base: train_base[i as usize],
                    }
                })
                .collect();
            let chunk = samples.len().div_ceil(threads);
            std::thread::scope(|sc| {
                for (g, part) in grads.iter_mut().zip(samples.chunks(chunk)) {
                    let net = &net;
                    sc.spawn(move || {
                        for s in part {
                            backward(net, s, g);
                        }
                    });
                }
            });
            let (first, rest) = grads.split_first_mut().expect("one thread at least");
            for g in rest.iter_mut() {
                first.merge(g);
                g.clear();
            }
            train_loss += first.loss;
            opt.step(&mut net, first, samples.len(), lr);
            first.clear();
            if last_report.elapsed().as_secs_f32() > 0.5 {
                last_report = Instant::now();
                let done = epoch * train.len() + (b + 1) * opts.batch;
                let frac = (done as f64 / total as f64).min(1.0);
                let width = 30;
                let fill = (frac * width as f64) as usize;
                eprint!(
                    "\r  epoch {}/{} [{}{}] {:>3.0}%  {:.0} samples/s ",
                    epoch + 1,
                    opts.epochs,
                    "=".repeat(fill),
                    " ".repeat(width - fill),
                    100.0 * frac,
                    done as f64 / start.elapsed().as_secs_f64()
                );
            }
        }
        eprint!("\r{}\r", " ".repeat(70));
        let secs = t0.elapsed().as_secs_f64();
        let val = validation_mse(&net, &test_samples, threads);
        outln!(
            "epoch {:>2}/{}  lr {:.6}  train MSE {:.5}  held-out MSE {:.5}  {:.0} samples/s  {:.0} s",
            epoch + 1,
            opts.epochs,
            lr,
            train_loss / train.len() as f64,
            val,
            train.len() as f64 / secs,
            secs
        )?;
        if best.is_none_or(|(b, _)| val < b) {
            best = Some((val, epoch + 1));
            let about = format!(
                "aamir train: {}{} positions of {}{}; targets sigmoid({kt:.4} * teacher / 100), {}% game result; {} epochs of {}, best at {}; seed {}; held-out MSE {val:.5}",
                if opts.residual {
                    "a residual over the hand terms; "
                } else {
                    ""
                },
                train.len(),
                opts.files.join(", "),
                if opts.quiet { " (quiet)" } else { "" },
                opts.result_pct,
                epoch + 1,
                opts.epochs,
                epoch + 1,
                opts.seed
            );
            crate::eval::nnue::file::save(&fold(&net).quantize(&about), &opts.out)?;
        }
    }
    let (val, at) = best.expect("at least one epoch");
    let written = crate::eval::nnue::file::load(&opts.out)?;
    let int_mse = integer_mse(&written, &test, &test_samples);
    outln!(
        "wrote {} (epoch {at}, held-out MSE {val:.5}; the integer net's {int_mse:.5}) in {:.0} s",
        opts.out,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Mean squared error of the integer net's winning chances on `records`
/// (the targets in `samples`).
fn integer_mse(net: &crate::eval::nnue::Network, records: &[&Record], samples: &[Sample]) -> f64 {
    let eval = crate::eval::Evaluator {
        w: Default::default(),
        net: Some(std::sync::Arc::new(net.clone())),
    };
    let mut s = 0.0;
    for (r, smp) in records.iter().zip(samples) {
        let logit = eval.evaluate(&r.position()) as f64 / f64::from(net.scale);
        let e = sigmoid(logit) - f64::from(smp.target);
        s += e * e;
    }
    s / records.len() as f64
}

/// Mean squared error of the float net's winning chances on `samples`.
fn validation_mse(net: &FloatNet, samples: &[Sample], threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1));
    std::thread::scope(|sc| {
        let hs: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                sc.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let p = 1.0 / (1.0 + (-(forward(net, s).out + s.base)).exp());
                            f64::from((p - s.target) * (p - s.target))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("no panic"))
            .sum::<f64>()
    }) / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position};

    /// The record's features equal the engine's for the same position.
    #[test]
    fn training_inputs_are_the_engines_inputs() {
        // The opening with silver to move, its camel and two gold rabbits
        // gone: classes change (gold's horses now have one stronger enemy).
        let mut pos = Position::standard_opening();
        for sq in ["d7", "a2", "h2"] {
            let sq = crate::board::Square::parse(sq).unwrap();
            if pos.piece_at(sq).is_some() {
                pos.remove(sq);
            }
        }
        pos.set_side(Color::Silver);
        let r = Record::new(&pos, Some(false), 3, true, 10);
        let (f, n) = features(&r, false, true);
        for (h, view) in [Color::Silver, Color::Gold].into_iter().enumerate() {
            let (e, m) = nnue::active_features(&pos, view);
            assert_eq!(n[h], 2 * m);
            assert_eq!(&f[h][..m], &e[..m]);
            for k in 0..m {
                assert_eq!(f[h][m + k] as usize, INPUTS + e[k] as usize / 64);
            }
        }
        // Mirrored: the file-mirrored position's inputs, as a set.
        let mut mirrored = Position::empty(pos.side());
        for sq in crate::board::Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                mirrored.put(p, crate::board::Square::new(sq.raw() ^ 7));
            }
        }
        let (fm, nm) = features(&r, true, true);
        let (mut a, m) = nnue::active_features(&mirrored, Color::Silver);
        let mut b = fm[0];
        a[..m].sort_unstable();
        b[..nm[0] / 2].sort_unstable();
        assert_eq!(&a[..m], &b[..nm[0] / 2]);
    }

    /// A gradient step lowers the loss of the batch it was taken on, and
    /// the analytic gradient matches a finite difference.
    #[test]
    fn gradients_match_finite_differences() {
        let mut rng = SplitMix::new(1, 0);
        let mut net = FloatNet::random(700.0, || rng.unit() as f32);
        net.w1.resize(ROWS * L1, 0.05);
        for b in net.b1.iter_mut() {
            *b = 0.3;
        }
        let pos = Position::standard_opening();
        let r = Record::new(&pos, Some(true), 50, true, 900);
        let (f, n) = features(&r, false, true);
        let s = Sample {
            f,
            n,
            target: 0.8,
            base: 0.1,
        };
        let loss = |net: &FloatNet| {
            let o = forward(net, &s).out + s.base;
            let p = 1.0 / (1.0 + (-o).exp());
            f64::from((p - s.target) * (p - s.target))
        };
        let mut g = Grads::new();
        backward(&net, &s, &mut g);
        let mut checked = 0;
        // A few weights of each layer.
        let probes: Vec<(usize, usize)> = (0..L1)
            .step_by(17)
            .map(|i| (1, i))
            .chain((0..2 * L1 * L2).step_by(97).map(|i| (2, i)))
            .chain((0..L2 * L3).step_by(13).map(|i| (3, i)))
            .chain((0..L3).map(|i| (4, i)))
            .collect();
        for (layer, i) in probes {
            let eps = 1e-3f32;
            let (analytic, plus, minus) = {
                let mut p = net.clone();
                let mut m = net.clone();
                let (a, wp, wm) = match layer {
                    1 => {
                        let idx = s.f[0][0] as usize * L1 + i % L1;
                        (g.w1[idx], &mut p.w1[idx], &mut m.w1[idx])
                    }
                    2 => (g.w2[i], &mut p.w2[i], &mut m.w2[i]),
                    3 => (g.w3[i], &mut p.w3[i], &mut m.w3[i]),
                    _ => (g.w4[i], &mut p.w4[i], &mut m.w4[i]),
                };
                *wp += eps;
                *wm -= eps;
                (a, loss(&p), loss(&m))
            };
            let numeric = (plus - minus) / (2.0 * f64::from(eps));
            let tol = 1e-4 + 0.05 * numeric.abs();
            assert!(
                (f64::from(analytic) - numeric).abs() <= tol,
                "layer {layer} weight {i}: analytic {analytic}, numeric {numeric}"
            );
            checked += usize::from(numeric.abs() > 1e-7);
        }
        assert!(checked >= 10, "only {checked} probes had a gradient");
        let before = loss(&net);
        let mut opt = Optimiser::new();
        opt.step(&mut net, &mut g, 1, 1e-3);
        assert!(loss(&net) < before);
    }

    /// Folding the shared rows in leaves every score as it was.
    #[test]
    fn folding_keeps_the_scores() {
        let mut rng = SplitMix::new(2, 0);
        let mut net = FloatNet::random(700.0, || rng.unit() as f32);
        net.w1.resize(ROWS * L1, 0.0);
        for (i, w) in net.w1[INPUTS * L1..].iter_mut().enumerate() {
            *w = ((i * 7919) % 13) as f32 / 50.0 - 0.12;
        }
        let folded = fold(&net);
        let pos = Position::standard_opening();
        let r = Record::new(&pos, None, 0, true, 0);
        let (f, n) = features(&r, false, true);
        let s = Sample {
            f,
            n,
            target: 0.5,
            base: 0.0,
        };
        let trained = forward(&net, &s).out;
        assert!((trained - folded.logit(&pos)).abs() < 1e-4);
        assert!(
            (trained - net.logit(&pos)).abs() > 1e-3,
            "the shared rows count"
        );
    }
}
