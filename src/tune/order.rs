//! Fitting the turn-ordering model ([`crate::search::ordering`]) to the
//! moves winners played (`aamir tune-order`): a conditional logit
//! (Bradley-Terry over a position's turns), the played turn against a
//! seeded sample of the other legal turns of its position, fitted by
//! gradient ascent. The held-out games are then ranked in full: for each
//! position every legal turn is scored, and the report says how often the
//! played turn is first, in the top 5% and in the top 20%, under the
//! weights the fit started from and the fitted ones.

use super::data::{game_labels, held_out, par_map};
use super::fnv1a;
use crate::board::record::parse_archive;
use crate::board::{Bitboard, Game, Phase, Position, Turn};
use crate::eval::Evaluator;
use crate::rng::SplitMix;
use crate::search::ordering::{FEATURE_NAMES, Features, N_FEATURES, features, score_with};
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;

/// One position of a game with the turn its winner played there.
#[derive(Clone, Debug)]
pub struct Choice {
    pub game: String,
    pub pos: Position,
    /// Positions of the game before this one, for the repetition rule.
    pub game_state: Game,
    /// Footprint of the opponent's previous move.
    pub last: Bitboard,
    /// Hash of the position the played turn left.
    pub played: u64,
}

/// What the fit is told.
#[derive(Clone, Debug)]
pub struct OrderOptions {
    /// Other turns sampled per training position.
    pub negatives: usize,
    pub test_pct: u64,
    pub seed: u64,
    pub threads: usize,
    /// Gradient steps.
    pub iterations: usize,
    /// Held-out positions ranked in full at most (all turns scored).
    pub rank_positions: usize,
    pub out: Option<String>,
    pub command: String,
}

/// Reads the winners' turns of every archive (or `aamir match` games.tsv)
/// file.
pub fn read_choices(paths: &[String]) -> Result<Vec<Choice>> {
    let mut out = Vec::new();
    for (path, name) in paths.iter().zip(game_labels(paths)) {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        let games = parse_archive(&text).with_context(|| format!("reading {path}"))?;
        for g in games {
            let Some(winner) = g.winner() else {
                continue;
            };
            let mut moves = g.positions();
            let mut last = Bitboard::EMPTY;
            loop {
                let before = moves.game().clone();
                let Some(Ok(m)) = moves.next() else {
                    break;
                };
                let squares = m.turn().map_or(Bitboard::EMPTY, Turn::squares);
                if m.phase == Phase::Play && m.side() == winner {
                    out.push(Choice {
                        game: format!("{name}:{}", g.id()),
                        pos: m.before,
                        played: moves.game().position().hash(),
                        game_state: before,
                        last,
                    });
                }
                last = squares;
            }
        }
    }
    if out.is_empty() {
        bail!("no winner's moves in {}", paths.join(", "));
    }
    Ok(out)
}

/// Features of `turn`, a legal turn of `c`'s position.
fn turn_features(c: &Choice, turn: &Turn, eval: &Evaluator) -> Features {
    let after = turn.apply(&c.pos);
    features(&c.pos, turn, &after, eval.evaluate(&after), c.last)
}

/// Features of every legal turn of `c`, and the index of the played one
/// (`None` when the record's move is not among them, e.g. a repetition).
fn all_features(c: &Choice, eval: &Evaluator) -> (Vec<Features>, Option<usize>) {
    let turns: Vec<Turn> = c.game_state.legal_turns();
    let mut played = None;
    let feats = turns
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.hash == c.played {
                played = Some(i);
            }
            turn_features(c, t, eval)
        })
        .collect();
    (feats, played)
}

/// A training example: the played turn first, then sampled others.
struct Example(Vec<Features>);

fn example(c: &Choice, eval: &Evaluator, k: usize, seed: u64) -> Option<Example> {
    let turns: Vec<Turn> = c.game_state.legal_turns();
    let played = turns.iter().position(|t| t.hash == c.played)?;
    let mut rng = SplitMix::new(seed, c.pos.hash() ^ fnv1a(&c.game));
    let mut picks = vec![played];
    let n = turns.len();
    if n > 1 {
        for _ in 0..k.min(n - 1) {
            // Uniform over the others (repeats allowed: a sample).
            let mut j = rng.below(n - 1);
            if j >= played {
                j += 1;
            }
            picks.push(j);
        }
    }
    let f = picks
        .iter()
        .map(|&i| turn_features(c, &turns[i], eval))
        .collect();
    Some(Example(f))
}

/// Mean negative log-likelihood of the played turns, and its gradient.
fn loss_and_grad(w: &Features, data: &[Example]) -> (f64, [f64; N_FEATURES]) {
    let mut loss = 0.0;
    let mut g = [0f64; N_FEATURES];
    for Example(f) in data {
        let s: Vec<f64> = f.iter().map(|x| score_with(w, x) as f64).collect();
        let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = s.iter().map(|v| (v - m).exp()).sum();
        loss += -(s[0] - m - z.ln());
        for (x, v) in f.iter().zip(&s) {
            let p = (v - m).exp() / z;
            for i in 0..N_FEATURES {
                g[i] += p * x[i] as f64;
            }
        }
        for i in 0..N_FEATURES {
            g[i] -= f[0][i] as f64;
        }
    }
    let n = data.len().max(1) as f64;
    (loss / n, g.map(|v| v / n))
}

/// Adam on the mean negative log-likelihood, from `start`.
fn fit(start: Features, train: &[Example], iterations: usize) -> Features {
    let mut w: [f64; N_FEATURES] = start.map(|v| v as f64);
    let (mut m, mut v) = ([0f64; N_FEATURES], [0f64; N_FEATURES]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 0.02, 1e-8);
    for t in 1..=iterations {
        let wf = w.map(|x| x as f32);
        let (_, g) = loss_and_grad(&wf, train);
        for i in 0..N_FEATURES {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    w.map(|x| x as f32)
}

/// Where the played turn ranks among all of a position's turns: 1 plus the
/// turns scored higher plus half of those scored the same (a random order
/// among ties), and the number of turns.
fn rank(w: &Features, feats: &[Features], played: usize) -> (f64, usize) {
    let s: Vec<f64> = feats.iter().map(|f| score_with(w, f) as f64).collect();
    rank_among(&s, played)
}

/// The rank of `scores[played]` by the rule of [`rank`], for any scores
/// (`aamir tune-moves` ranks by the static score).
pub(crate) fn rank_among(scores: &[f64], played: usize) -> (f64, usize) {
    let p = scores[played];
    let higher = scores.iter().filter(|&&v| v > p).count() as f64;
    let ties = scores.iter().filter(|&&v| v == p).count() as f64 - 1.0;
    (1.0 + higher + ties / 2.0, scores.len())
}

/// At most `n` of `items`, spread evenly over the list (held-out positions
/// to rank in full, taken across the games rather than from the first).
pub(crate) fn spread<T>(items: &[T], n: usize) -> Vec<&T> {
    let step = (items.len() / n.max(1)).max(1);
    items.iter().step_by(step).take(n).collect()
}

/// Share of positions whose played turn is first, in the top 5% and in the
/// top 20%.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RankStats {
    pub positions: usize,
    pub top1: f64,
    pub top5pct: f64,
    pub top20pct: f64,
}

pub(crate) fn rank_stats(ranks: &[(f64, usize)]) -> RankStats {
    let n = ranks.len().max(1) as f64;
    let share = |pred: &dyn Fn(f64, usize) -> bool| {
        ranks.iter().filter(|&&(r, t)| pred(r, t)).count() as f64 / n
    };
    RankStats {
        positions: ranks.len(),
        top1: share(&|r, _| r <= 1.0),
        top5pct: share(&|r, t| r <= (t as f64 * 0.05).max(1.0)),
        top20pct: share(&|r, t| r <= (t as f64 * 0.20).max(1.0)),
    }
}

/// What a fit found.
pub struct OrderFit {
    pub weights: Features,
    pub train_loss: (f64, f64),
    pub test_loss: (f64, f64),
    pub before: RankStats,
    pub after: RankStats,
}

/// Reads, fits and ranks; prints the report and writes the table.
pub fn run(paths: &[String], start: Features, opts: &OrderOptions) -> Result<OrderFit> {
    let choices = read_choices(paths)?;
    let eval = Evaluator::default();
    let (test, train): (Vec<Choice>, Vec<Choice>) = choices
        .into_iter()
        .partition(|c| held_out(&c.game, opts.test_pct));
    println!(
        "{} training and {} held-out positions (the winner to move), {} other turns sampled each",
        train.len(),
        test.len(),
        opts.negatives
    );
    let mk = |cs: &[Choice]| -> Vec<Example> {
        par_map(cs, opts.threads, |c| {
            example(c, &eval, opts.negatives, opts.seed)
        })
        .into_iter()
        .flatten()
        .collect()
    };
    let train_ex = mk(&train);
    let test_ex = mk(&test);
    if train_ex.is_empty() {
        bail!("no training position whose played turn the generator makes");
    }
    let l0 = loss_and_grad(&start, &train_ex).0;
    let t0 = loss_and_grad(&start, &test_ex).0;
    let weights = fit(start, &train_ex, opts.iterations);
    let l1 = loss_and_grad(&weights, &train_ex).0;
    let t1 = loss_and_grad(&weights, &test_ex).0;
    println!("loss (sampled turns): train {l0:.4} -> {l1:.4}, held out {t0:.4} -> {t1:.4}");
    // Full ranking of the held-out positions, spread over the games.
    let ranked = spread(&test, opts.rank_positions);
    let pairs = par_map(&ranked, opts.threads, |c| {
        let (f, played) = all_features(c, &eval);
        played.map(|p| (rank(&start, &f, p), rank(&weights, &f, p)))
    });
    let (rb, ra): (Vec<_>, Vec<_>) = pairs.into_iter().flatten().unzip();
    let (before, after) = (rank_stats(&rb), rank_stats(&ra));
    for (name, s) in [("start", before), ("fitted", after)] {
        println!(
            "held-out ranking, {name} weights, {} positions: first {:.1}%, top 5% {:.1}%, top 20% {:.1}%",
            s.positions,
            100.0 * s.top1,
            100.0 * s.top5pct,
            100.0 * s.top20pct
        );
    }
    for (n, w) in FEATURE_NAMES.iter().zip(weights) {
        println!("  {n:<22} {w:>9.4}");
    }
    let fit = OrderFit {
        weights,
        train_loss: (l0, l1),
        test_loss: (t0, t1),
        before,
        after,
    };
    if let Some(out) = &opts.out {
        std::fs::write(out, table(&fit, &opts.command))
            .with_context(|| format!("writing {out}"))?;
        println!("wrote {out}");
    }
    Ok(fit)
}

/// The Rust source of the weights table, with the command and figures.
pub fn table(fit: &OrderFit, command: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The learned turn-ordering weights ([`super::ordering`]), written by\n\
         //! `{command}`.\n\
         //! Loss on sampled turns: train {:.4} -> {:.4}, held out {:.4} -> {:.4}.\n\
         //! Held-out ranking of the played turn ({} positions), start -> fitted:\n\
         //! first {:.1}% -> {:.1}%, top 5% {:.1}% -> {:.1}%, top 20% {:.1}% -> {:.1}%.\n",
        fit.train_loss.0,
        fit.train_loss.1,
        fit.test_loss.0,
        fit.test_loss.1,
        fit.after.positions,
        100.0 * fit.before.top1,
        100.0 * fit.after.top1,
        100.0 * fit.before.top5pct,
        100.0 * fit.after.top5pct,
        100.0 * fit.before.top20pct,
        100.0 * fit.after.top20pct,
    );
    s.push_str("use super::ordering::N_FEATURES;\n\n");
    s.push_str("/// One weight per feature, in the order of [`super::ordering::FEATURE_NAMES`].\n");
    s.push_str("pub const ORDER_WEIGHTS: [f32; N_FEATURES] = [\n");
    for (n, w) in FEATURE_NAMES.iter().zip(fit.weights) {
        let _ = writeln!(s, "    {w:?}, // {n}");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two made-up turns per position where the played one always has the
    /// larger first feature: the fit must raise that weight from 0 and
    /// rank the played turn first.
    #[test]
    fn the_fit_learns_a_feature_that_picks_the_played_turn() {
        let mut data = Vec::new();
        let mut rng = SplitMix::new(7, 0);
        for _ in 0..200 {
            let mut good = [0f32; N_FEATURES];
            let mut bad = [0f32; N_FEATURES];
            good[1] = 1.0 + rng.unit() as f32;
            bad[1] = rng.unit() as f32 - 0.5;
            // Noise in another feature, unrelated to the choice.
            good[2] = rng.unit() as f32;
            bad[2] = rng.unit() as f32;
            data.push(Example(vec![good, bad]));
        }
        let start = [0f32; N_FEATURES];
        let (l0, _) = loss_and_grad(&start, &data);
        let w = fit(start, &data, 200);
        let (l1, _) = loss_and_grad(&w, &data);
        assert!(w[1] > 1.0, "{w:?}");
        assert!(w[1] > 5.0 * w[2].abs(), "{w:?}");
        assert!(l1 < l0 / 2.0, "{l0} -> {l1}");
        let ranks: Vec<(f64, usize)> = data.iter().map(|Example(f)| rank(&w, f, 0)).collect();
        assert_eq!(rank_stats(&ranks).top1, 1.0);
    }

    #[test]
    fn ties_count_half_and_shares_use_the_list_length() {
        let mut a = [0f32; N_FEATURES];
        a[0] = 1.0;
        let w = a;
        let f = vec![a, a, [0f32; N_FEATURES], [0f32; N_FEATURES]];
        assert_eq!(rank(&w, &f, 0), (1.5, 4));
        assert_eq!(rank(&w, &f, 2), (3.5, 4));
        let s = rank_stats(&[(1.0, 100), (5.0, 100), (20.0, 100), (21.0, 100)]);
        assert_eq!((s.top1, s.top5pct, s.top20pct), (0.25, 0.5, 0.75));
    }

    #[test]
    fn winners_moves_are_read_and_found_among_the_legal_turns() {
        let path = format!(
            "{}/tests/data/games-2011-extra.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        let choices = read_choices(&[path]).unwrap();
        assert!(choices.len() > 100, "{}", choices.len());
        let eval = Evaluator::default();
        for c in choices.iter().take(5) {
            let (f, played) = all_features(c, &eval);
            assert!(played.is_some(), "{}", c.game);
            assert!(f.len() > 1);
        }
    }
}
