//! Fitting the evaluation weights to the turns winners chose
//! (`aamir tune-moves`): comparison training instead of Texel's result
//! labels.
//!
//! Texel fits on results learn what predicts a game's end, and the search
//! then chases those correlations (docs/experiments.md: fits that lowered
//! the held-out loss lost their matches). Here the evaluation is asked the
//! question the search asks it: of a position's legal turns, which leaves
//! the best board? For each position of a game where the eventual winner
//! moved, the static score of the board after the played turn competes
//! with the boards after other turns in a softmax (`exp(k * score)`), and
//! the weights are fitted by the Texel tuner's local search to the mean
//! negative log-likelihood of the played turn.
//!
//! The competing turns are the ones the current weights like best (the
//! only ones that can beat the played turn at the root) plus a seeded
//! sample of the rest; after each round the fitted weights' own
//! favourites join them, so a turn the fit pushed up is seen next round. The
//! held-out games are then ranked in full: every legal turn scored, and how
//! often the played one is first, in the top 5% and the top 20%.
//!
//! Positions where either side can reach goal within a turn are left out:
//! there the choice is forced and the static score is not what decides it.

use super::data::{held_out, par_map};
use super::fit::{FitOptions, local_search};
use super::order::{Choice, RankStats, rank_among, rank_stats, read_choices, spread};
use super::{Tunable, fnv1a};
use crate::board::Position;
use crate::rng::SplitMix;
use crate::tactics::goal;
use anyhow::{Context, Result, bail};

/// What `aamir tune-moves` is told.
#[derive(Clone, Debug)]
pub struct MoveOptions {
    pub fit: FitOptions,
    /// Best-scored other turns kept per position.
    pub hard: usize,
    /// Other turns sampled at random per position.
    pub random: usize,
    /// Rounds of choosing the competitors and fitting.
    pub rounds: usize,
    /// Each position's loss counts up to this many nats at most (0 = no
    /// cap): without it the few positions whose played turn the static
    /// score puts hundreds of centi-rabbits behind steer the fit.
    pub cap: f64,
    /// Positions of the first this many turns of a game are left out.
    pub skip_turns: u32,
    pub test_pct: u64,
    pub seed: u64,
    /// Use this `k` instead of fitting it.
    pub k: Option<f64>,
    /// Held-out positions ranked in full at most.
    pub rank_positions: usize,
    pub out: Option<String>,
    pub command: String,
}

/// A position's played turn (first) and its competitors, as the boards
/// they leave (the opponent to move).
struct Example(Vec<Position>);

/// The score of the board a turn leaves, for the side that played it.
fn mover_score<T: Tunable>(w: &T, after: &Position) -> f64 {
    -(w.score(after) as f64)
}

/// Negative log-likelihood of the first entry of `s` under a softmax of
/// `k * s`.
fn nll(s: &[f64], k: f64) -> f64 {
    let m = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = s.iter().map(|v| (k * (v - m)).exp()).sum();
    -(k * (s[0] - m) - z.ln())
}

/// Mean negative log-likelihood of the played turns among their
/// competitors.
fn loss<T: Tunable>(w: &T, data: &[Example], k: f64, cap: f64, threads: usize) -> f64 {
    let per = par_map(data, threads, |Example(b)| {
        let s: Vec<f64> = b.iter().map(|p| mover_score(w, p)).collect();
        let l = nll(&s, k);
        if cap > 0.0 { l.min(cap) } else { l }
    });
    per.iter().sum::<f64>() / per.len().max(1) as f64
}

/// The `k` that minimises the loss with `w` fixed (golden-section search on
/// its logarithm).
fn fit_k<T: Tunable>(w: &T, data: &[Example], threads: usize) -> f64 {
    let scores: Vec<Vec<f64>> = par_map(data, threads, |Example(b)| {
        b.iter().map(|p| mover_score(w, p)).collect()
    });
    let f = |lk: f64| scores.iter().map(|s| nll(s, lk.exp())).sum::<f64>();
    let (mut a, mut b) = (1e-5f64.ln(), 1.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Whether a position is one the static score should decide: neither side
/// can reach goal within a turn.
fn usable(c: &Choice) -> bool {
    let me = c.pos.side();
    goal::goal_threat(&c.pos, me).is_none() && goal::goal_threat(&c.pos, me.opp()).is_none()
}

/// Every legal turn's board and score under `w`, and the index of the
/// played one (`None` when the record's move is not among them).
fn scored_turns<T: Tunable>(c: &Choice, w: &T) -> (Vec<(f64, Position)>, Option<usize>) {
    let turns = c.game_state.legal_turns();
    let played = turns.iter().position(|t| t.hash == c.played);
    let all = turns
        .iter()
        .map(|t| {
            let after = t.apply(&c.pos);
            (mover_score(w, &after), after)
        })
        .collect();
    (all, played)
}

/// The played turn and its competitors under `w`: the `hard` best-scored
/// other turns and `random` others drawn with a seeded stream.
fn example<T: Tunable>(
    c: &Choice,
    w: &T,
    (hard, random): (usize, usize),
    seed: u64,
) -> Option<Example> {
    let (mut all, played) = scored_turns(c, w);
    let played = played?;
    if all.len() < 2 {
        return None;
    }
    let mine = all.swap_remove(played).1;
    // Best first; ties broken by position in the list, which is fixed.
    let mut idx: Vec<usize> = (0..all.len()).collect();
    idx.sort_by(|&a, &b| all[b].0.total_cmp(&all[a].0));
    let mut pick: Vec<usize> = idx.iter().take(hard).copied().collect();
    let rest = &idx[pick.len()..];
    if !rest.is_empty() {
        let mut rng = SplitMix::new(seed, c.pos.hash() ^ fnv1a(&c.game));
        for _ in 0..random {
            pick.push(rest[rng.below(rest.len())]);
        }
    }
    let mut boards = vec![mine];
    boards.extend(pick.into_iter().map(|i| all[i].1.clone()));
    Some(Example(boards))
}

/// Where the played turn ranks among all of a position's turns by the
/// static score (the ordering fit's rule), and the number of turns.
fn rank<T: Tunable>(c: &Choice, w: &T) -> Option<(f64, usize)> {
    let (all, played) = scored_turns(c, w);
    let s: Vec<f64> = all.iter().map(|x| x.0).collect();
    Some(rank_among(&s, played?))
}

fn describe(name: &str, s: &RankStats) -> String {
    format!(
        "held-out ranking, {name} weights, {} positions: first {:.1}%, top 5% {:.1}%, top 20% {:.1}%",
        s.positions,
        100.0 * s.top1,
        100.0 * s.top5pct,
        100.0 * s.top20pct
    )
}

/// What a fit found.
pub struct MoveFit<T> {
    pub weights: T,
    pub k: f64,
    pub before: RankStats,
    pub after: RankStats,
}

/// Reads the games, fits, ranks the held-out positions, prints the report
/// and writes the table.
pub fn run<T: Tunable>(start: T, paths: &[String], opts: &MoveOptions) -> Result<MoveFit<T>> {
    let th = opts.fit.threads;
    let choices: Vec<Choice> = read_choices(paths)?
        .into_iter()
        .filter(|c| c.game_state.move_number() > opts.skip_turns + 1)
        .collect();
    let usable: Vec<Choice> = par_map(&choices, th, |c| usable(c).then(|| c.clone()))
        .into_iter()
        .flatten()
        .collect();
    let (test, train): (Vec<Choice>, Vec<Choice>) = usable
        .into_iter()
        .partition(|c| held_out(&c.game, opts.test_pct));
    crate::outln!(
        "{} winner's positions read, {} left out (a goal within a turn); {} training, {} held out",
        choices.len(),
        choices.len() - train.len() - test.len(),
        train.len(),
        test.len()
    )?;
    if train.is_empty() {
        bail!("no training positions left");
    }
    let counts = (opts.hard, opts.random);
    let mine = |w: &T, cs: &[Choice], round: usize| -> Vec<Example> {
        par_map(cs, th, |c| example(c, w, counts, opts.seed ^ round as u64))
            .into_iter()
            .flatten()
            .collect()
    };
    let mut w = start.clone();
    let mut ex = mine(&w, &train, 0);
    let test_ex = mine(&w, &test, 0);
    // Against its best-scored rivals the played turn usually scores lower,
    // so there the loss falls as k goes to 0 and the softmax flattens. k is
    // the temperature at which the scores predict the choice among turns
    // drawn at random instead: the scale the weights are then fitted at.
    let k = match opts.k {
        Some(k) => k,
        None => {
            let sampled: Vec<Example> = par_map(&train, th, |c| {
                example(c, &w, (0, opts.hard + opts.random), opts.seed)
            })
            .into_iter()
            .flatten()
            .collect();
            fit_k(&w, &sampled, th)
        }
    };
    crate::outln!(
        "k {k:.6}; loss before (the played turn against {} best and {} sampled): train {:.4}, held out {:.4}",
        opts.hard,
        opts.random,
        loss(&w, &ex, k, opts.cap, th),
        loss(&w, &test_ex, k, opts.cap, th)
    )?;
    for round in 0..opts.rounds {
        if round > 0 {
            // The rivals of earlier rounds stay: with only the newest, each
            // round pushes down the turns the last weights liked and lets
            // the ones before come back (measured: the held-out loss
            // against the first rivals rose from 4.7 to 8.2 in round 2).
            let fresh = mine(&w, &train, round);
            for (Example(old), Example(new)) in ex.iter_mut().zip(fresh) {
                let seen: std::collections::HashSet<u64> = old.iter().map(|p| p.hash()).collect();
                old.extend(
                    new.into_iter()
                        .skip(1)
                        .filter(|p| !seen.contains(&p.hash())),
                );
            }
        }
        let held = |w: &T| format!(", held out {:.4}", loss(w, &test_ex, k, opts.cap, th));
        let train_loss = |w: &T| loss(w, &ex, k, opts.cap, th);
        local_search(&mut w, &opts.fit, &train_loss, &held, &mut |l| {
            // A failed write here shows at the next checked one below.
            let _ = crate::outln!("round {}, {l}", round + 1);
        });
    }
    let test_now = mine(&w, &test, opts.rounds);
    crate::outln!(
        "held out, the played turn against the fitted weights' own best: start {:.4}, fitted {:.4}",
        loss(&start, &test_now, k, opts.cap, th),
        loss(&w, &test_now, k, opts.cap, th)
    )?;
    let ranked = spread(&test, opts.rank_positions);
    let pairs = par_map(&ranked, th, |c| Some((rank(c, &start)?, rank(c, &w)?)));
    let (rb, ra): (Vec<_>, Vec<_>) = pairs.into_iter().flatten().unzip();
    let (before, after) = (rank_stats(&rb), rank_stats(&ra));
    crate::outln!("{}", describe("start", &before))?;
    crate::outln!("{}", describe("fitted", &after))?;
    let mut changed = Vec::new();
    for i in 0..w.len() {
        if w.get(i) != start.get(i) {
            crate::outln!("  {:24} {:6} -> {:6}", w.name(i), start.get(i), w.get(i))?;
            changed.push(format!("eval_{}={}", w.name(i), w.get(i)));
        }
    }
    crate::outln!("as engine options: {}", changed.join(","))?;
    if let Some(path) = &opts.out {
        let header = vec![
            "Fitted by `aamir tune-moves` (the winners' turns against the".to_string(),
            "best-scored and sampled other turns, softmax of `k * score`).".to_string(),
            String::new(),
            format!("Command: `{}`", opts.command),
            format!("k {k:.6}; {}", describe("start", &before)),
            describe("fitted", &after),
        ];
        std::fs::write(path, super::fit::rust_table(&w, &header))
            .with_context(|| format!("writing {path}"))?;
        crate::outln!("wrote {path}")?;
    }
    Ok(MoveFit {
        weights: w,
        k,
        before,
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;

    #[test]
    fn the_played_turn_first_and_far_ahead_costs_nothing() {
        assert!(nll(&[100.0, 0.0, -50.0], 1.0) < 1e-9);
        // Tied with one other: log 2.
        assert!((nll(&[5.0, 5.0], 0.3) - 2f64.ln()).abs() < 1e-12);
        // Behind: it costs about the gap.
        assert!((nll(&[0.0, 40.0], 1.0) - 40.0).abs() < 1e-9);
    }

    /// The winners' positions of the small archive, with one weight
    /// (elephant centrality) pushed far from its default: the played turns
    /// must fit worse with it, and the fit must bring it back down.
    #[test]
    fn a_weight_pushed_far_off_is_brought_back() {
        let path = format!(
            "{}/tests/data/games-2011-extra.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        let cs: Vec<Choice> = read_choices(&[path])
            .unwrap()
            .into_iter()
            .filter(usable)
            .step_by(6)
            .take(60)
            .collect();
        let opts = MoveOptions {
            fit: FitOptions {
                max_passes: 3,
                threads: 2,
                bound: 10_000,
                frozen: Vec::new(),
            },
            hard: 8,
            random: 4,
            rounds: 1,
            cap: 0.0,
            skip_turns: 0,
            test_pct: 0,
            seed: 1,
            k: None,
            rank_positions: 0,
            out: None,
            command: String::new(),
        };
        let base = Evaluator::default();
        let i = (0..base.len())
            .find(|&i| base.name(i) == "elephant_center")
            .unwrap();
        let mut off = base.clone();
        assert!(off.set(i, 400));
        let ex: Vec<Example> = cs
            .iter()
            .filter_map(|c| example(c, &off, (opts.hard, opts.random), 1))
            .collect();
        assert!(ex.len() > 40, "{}", ex.len());
        let sampled: Vec<Example> = cs
            .iter()
            .filter_map(|c| example(c, &base, (0, 12), 1))
            .collect();
        let k = fit_k(&base, &sampled, 2);
        assert!(loss(&off, &ex, k, 0.0, 2) > loss(&base, &ex, k, 0.0, 2));
        let mut only = opts.fit.clone();
        only.frozen = (0..base.len()).filter(|&j| j != i).collect();
        let mut w = off.clone();
        local_search(
            &mut w,
            &only,
            &|w: &Evaluator| loss(w, &ex, k, 0.0, 2),
            &|_| String::new(),
            &mut |_| {},
        );
        assert!(w.get(i) < 200, "elephant_center {}", w.get(i));
        // The ranks are over every legal turn, the played one among them.
        let (r, n) = rank(&cs[0], &base).unwrap();
        assert!(r >= 1.0 && r <= n as f64 && n > 100, "{r} of {n}");
    }
}
