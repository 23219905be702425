//! Match statistics for win/loss outcomes (Arimaa has no draws): Elo
//! difference with a 95% interval, likelihood of superiority, and the
//! sequential probability ratio test.
//!
//! Formulas (all on the logistic Elo scale, where a score `s` means
//! `elo = -400 log10(1/s - 1)`):
//! - Interval: the Wilson score interval for the binomial score at 95%
//!   (`z = 1.959964`), mapped to Elo. Unlike the plain normal
//!   approximation it stays honest at 0% or 100% and for few games: 10 wins
//!   out of 10 give a finite lower bound and an infinite upper one instead
//!   of a zero-width interval.
//! - LOS: `Phi((w - l) / sqrt(w + l))`, the normal approximation used by
//!   cutechess-cli and the chessprogramming wiki ("Match Statistics").
//! - SPRT: Wald's test on Bernoulli outcomes. With no draws there is no
//!   nuisance parameter, so the GSPRT log-likelihood ratio is exact:
//!   `LLR = w ln(p1/p0) + l ln((1-p1)/(1-p0))` with `p0`, `p1` the scores
//!   of `elo0`, `elo1`; H1 is accepted when `LLR >= ln((1-beta)/alpha)`,
//!   H0 when `LLR <= ln(beta/(1-alpha))`.
//! - Paired comparison of two candidates `A` and `B` that played the same
//!   reference on the same openings with the same colours: each pair of
//!   games (one of `A`'s, one of `B`'s) is both won, both lost, or
//!   discordant. Under the logistic model with a nuisance term for each
//!   pair (its opening and colour make it easy or hard for everyone),
//!   `P(win) = 1 / (1 + 10^(-(e_X + c_pair) / 400))`, the chance that `A`
//!   is the one that won a discordant pair is exactly
//!   `1 / (1 + 10^(-(e_A - e_B) / 400))`, whatever `c_pair` is: the
//!   conditional likelihood of conditional logistic regression. So the
//!   discordant pairs are Bernoulli trials on the Elo difference itself:
//!   its estimate and Wilson interval, the LOS, McNemar's
//!   `z = (a - b) / sqrt(a + b)` and the SPRT above all apply to the
//!   counts `a` (only `A` won) and `b` (only `B` won), and the concordant
//!   pairs, which say nothing about the difference, drop out. The paired
//!   score difference `mean(x_A - x_B)` over all pairs is also given, with
//!   a normal interval from the pairs' own spread.

use serde::{Deserialize, Serialize};

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference for a score in (0, 1); infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// Expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Standard normal cumulative distribution.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function (Abramowitz-Stegun 7.1.26 is too coarse for tests at
/// 1e-6, so this uses the series / continued fraction pair, good to ~1e-14).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 3.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc by Lentz's continued fraction.
        1.0 - erfc_cf(x)
    }
}

fn erfc_cf(x: f64) -> f64 {
    // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for i in 1..300 {
        let a = i as f64 / 2.0;
        d = x + a * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = x + a / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// Wins and losses of one side of a pairing, and the figures derived.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub games: u32,
    pub wins: u32,
    /// Score share in [0, 1] (NaN with no games).
    pub score: f64,
    pub elo: f64,
    /// 95% interval, possibly infinite at either end.
    pub elo_low: f64,
    pub elo_high: f64,
    /// Likelihood of superiority, in [0, 1].
    pub los: f64,
}

/// Figures for `wins` out of `games` (the rest are losses).
pub fn estimate(wins: u32, games: u32) -> Estimate {
    let losses = games.saturating_sub(wins);
    if games == 0 {
        return Estimate {
            games,
            wins,
            score: f64::NAN,
            elo: f64::NAN,
            elo_low: f64::NEG_INFINITY,
            elo_high: f64::INFINITY,
            los: 0.5,
        };
    }
    let n = games as f64;
    let s = wins as f64 / n;
    let (lo, hi) = wilson(s, n, Z95);
    let los = phi((wins as f64 - losses as f64) / (games as f64).sqrt());
    Estimate {
        games,
        wins,
        score: s,
        elo: elo_from_score(s),
        elo_low: elo_from_score(lo),
        elo_high: elo_from_score(hi),
        los,
    }
}

/// Wilson score interval for a proportion `s` observed in `n` trials.
pub fn wilson(s: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0% and 100% one end is exactly 0 or 1; rounding would otherwise
    // turn an unbounded Elo into a huge finite one.
    let lo = if s <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if s >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// An SPRT configuration: H0 `elo = elo0` against H1 `elo = elo1`, with
/// false-positive rate `alpha` and false-negative rate `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted: the difference is at most `elo0`.
    H0,
    /// H1 accepted: the difference is at least `elo1`.
    H1,
}

impl SprtDecision {
    /// The verdict as the reports word it.
    pub fn text(self) -> &'static str {
        match self {
            SprtDecision::Continue => "undecided",
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::H1 => "H1 accepted",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

impl Sprt {
    /// Checks the parameters: Elo bounds in order, rates in (0, 1/2].
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be below elo1 ({elo1}), both finite"
            ));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!(
                    "SPRT: {name} ({v}) must be a probability between 0 and 0.5"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Decision bounds on the LLR: `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 after `wins` and `losses`.
    pub fn llr(&self, wins: u32, losses: u32) -> f64 {
        let p0 = score_from_elo(self.elo0);
        let p1 = score_from_elo(self.elo1);
        wins as f64 * (p1 / p0).ln() + losses as f64 * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    pub fn state(&self, wins: u32, losses: u32) -> SprtState {
        let llr = self.llr(wins, losses);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// A paired comparison of two candidates through a common reference.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct PairCounts {
    pub both_won: u32,
    /// Pairs only the first candidate won.
    pub first_only: u32,
    /// Pairs only the second candidate won.
    pub second_only: u32,
    pub both_lost: u32,
}

/// What a set of pairs says about the first candidate against the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedEstimate {
    pub pairs: u32,
    /// The conditional Elo difference (first minus second) and its 95%
    /// interval, from the discordant pairs.
    pub elo: Estimate,
    /// McNemar's statistic; 0 without discordant pairs.
    pub z: f64,
    /// Two-sided p-value of `z` under "no difference".
    pub p_value: f64,
    /// Mean score difference per pair (in [-1, 1]) and its 95% interval.
    pub score_diff: f64,
    pub score_diff_low: f64,
    pub score_diff_high: f64,
}

impl PairCounts {
    /// Adds a pair: whether each candidate won its game.
    pub fn add(&mut self, first_won: bool, second_won: bool) {
        match (first_won, second_won) {
            (true, true) => self.both_won += 1,
            (true, false) => self.first_only += 1,
            (false, true) => self.second_only += 1,
            (false, false) => self.both_lost += 1,
        }
    }

    pub fn pairs(&self) -> u32 {
        self.both_won + self.first_only + self.second_only + self.both_lost
    }

    pub fn merged(self, o: PairCounts) -> PairCounts {
        PairCounts {
            both_won: self.both_won + o.both_won,
            first_only: self.first_only + o.first_only,
            second_only: self.second_only + o.second_only,
            both_lost: self.both_lost + o.both_lost,
        }
    }

    pub fn estimate(&self) -> PairedEstimate {
        let (a, b) = (self.first_only, self.second_only);
        let d = (a + b) as f64;
        let z = if d > 0.0 {
            (a as f64 - b as f64) / d.sqrt()
        } else {
            0.0
        };
        let n = self.pairs() as f64;
        let (mean, half) = if n > 0.0 {
            // Each pair's difference is +1 (a), -1 (b) or 0.
            let mean = (a as f64 - b as f64) / n;
            let var = if n > 1.0 {
                (d - n * mean * mean) / (n - 1.0)
            } else {
                0.0
            };
            (mean, Z95 * (var / n).sqrt())
        } else {
            (f64::NAN, f64::NAN)
        };
        PairedEstimate {
            pairs: self.pairs(),
            elo: estimate(a, a + b),
            z,
            p_value: 2.0 * (1.0 - phi(z.abs())),
            score_diff: mean,
            score_diff_low: mean - half,
            score_diff_high: mean + half,
        }
    }
}

/// Elo for display: `+28.4`, `-inf`, `?` for no data.
pub fn fmt_elo(e: f64) -> String {
    if e.is_nan() {
        "?".into()
    } else if e == f64::INFINITY {
        "+inf".into()
    } else if e == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{e:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // Values from Abramowitz & Stegun, Table 7.1.
        for (x, want) in [
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
        ] {
            assert!((erf(x) - want).abs() < 1e-9, "erf({x}) = {}", erf(x));
            assert!((erf(-x) + want).abs() < 1e-9);
        }
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!((elo_from_score(score_from_elo(e)) - e).abs() < 1e-9);
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(fmt_elo(elo_from_score(0.5)), "+0.0");
    }

    #[test]
    fn paired_counts_use_only_discordant_pairs_for_the_difference() {
        let mut c = PairCounts::default();
        for (x, y, n) in [
            (true, true, 11),
            (true, false, 26),
            (false, true, 16),
            (false, false, 47),
        ] {
            for _ in 0..n {
                c.add(x, y);
            }
        }
        assert_eq!(c.pairs(), 100);
        let e = c.estimate();
        // McNemar: (26 - 16) / sqrt(42).
        assert!((e.z - 10.0 / 42f64.sqrt()).abs() < 1e-12, "{}", e.z);
        assert!((e.p_value - 2.0 * (1.0 - phi(e.z))).abs() < 1e-12);
        // The difference is the Elo of 26 wins in 42 trials.
        assert_eq!(e.elo, estimate(26, 42));
        assert!((e.score_diff - 0.10).abs() < 1e-12);
        // Sample variance of 26 ones, 16 minus ones, 58 zeros.
        let var: f64 = (42.0 - 100.0 * 0.01) / 99.0;
        let half = Z95 * (var / 100.0).sqrt();
        assert!((e.score_diff_low - (0.10 - half)).abs() < 1e-12);
        assert!((e.score_diff_high - (0.10 + half)).abs() < 1e-12);
        // Adding concordant pairs leaves the Elo difference and z alone.
        let mut more = c;
        more.both_won += 30;
        more.both_lost += 30;
        let m = more.estimate();
        assert_eq!((m.elo, m.z), (e.elo, e.z));
        assert!(m.score_diff < e.score_diff);
        // No discordant pair: no evidence either way.
        let even = PairCounts {
            both_won: 3,
            both_lost: 4,
            ..PairCounts::default()
        };
        let q = even.estimate();
        assert_eq!((q.z, q.p_value, q.score_diff), (0.0, 1.0, 0.0));
        assert!(q.elo.elo.is_nan());
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.05).is_ok());
    }
}
