//! `aamir match rate`: one Elo scale over the games of several matches.
//!
//! A ladder is played as several matches (cheap rungs against each other,
//! the expensive ones against their neighbours), so no single match's
//! pairwise Elo places every engine. This fits the Bradley-Terry model on
//! the logistic Elo scale to every game at once, by name:
//! `P(i beats j) = 1 / (1 + 10^(-(r_i - r_j) / 400))`, maximum likelihood
//! by Newton's method with one engine (the anchor) held at 0. The 95%
//! intervals come from the inverse of the observed information with the
//! anchor fixed, so they are intervals relative to the anchor.
//!
//! An engine that won or lost every game has no finite maximum; a weak
//! prior (by default one game's worth: half a win and half a loss against
//! an opponent at the anchor's rating) keeps it finite, and the table marks
//! it as a bound rather than a measurement.

use super::result::MatchGame;
use crate::linalg::solve;
use std::collections::BTreeMap;

const K: f64 = std::f64::consts::LN_10 / 400.0;

/// One engine's place on the scale.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub elo: f64,
    /// Half-width of the 95% interval (0 for the anchor).
    pub margin: f64,
}

impl Rating {
    /// Won or lost every game: the rating is where the prior holds it.
    pub fn is_bound(&self) -> bool {
        self.games > 0 && (self.wins == 0 || self.wins == self.games)
    }
}

/// Fits ratings to `(winner, loser)` results. `prior` is the weight, in
/// games, of each engine's virtual even result against the anchor's level
/// (0 for plain maximum likelihood, which needs every engine to have won
/// and lost). Engines come out strongest first.
pub fn fit(results: &[(String, String)], anchor: &str, prior: f64) -> Result<Vec<Rating>, String> {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (w, l) in results {
        let n = index.len();
        index.entry(w).or_insert(n);
        let n = index.len();
        index.entry(l).or_insert(n);
    }
    let Some(&a) = index.get(anchor) else {
        return Err(format!(
            "the anchor `{anchor}` played none of these games (engines: {})",
            index.keys().copied().collect::<Vec<_>>().join(", ")
        ));
    };
    let n = index.len();
    let games: Vec<(usize, usize)> = results
        .iter()
        .map(|(w, l)| (index[w.as_str()], index[l.as_str()]))
        .collect();
    connected(n, &games, a)?;
    let mut r = vec![0.0f64; n];
    for _ in 0..200 {
        let (g, h) = derivatives(&r, &games, prior);
        // Newton on every engine but the anchor.
        let free: Vec<usize> = (0..n).filter(|&i| i != a).collect();
        let m: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| free.iter().map(|&j| -h[i][j]).collect())
            .collect();
        let rhs: Vec<f64> = free.iter().map(|&i| g[i]).collect();
        let step = solve(m, rhs).ok_or("the ratings cannot be fitted (singular information)")?;
        let mut largest = 0.0f64;
        for (k, &i) in free.iter().enumerate() {
            // A bounded step: far from the optimum Newton can overshoot.
            let s = step[k].clamp(-400.0, 400.0);
            r[i] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-7 {
            break;
        }
    }
    let (_, h) = derivatives(&r, &games, prior);
    let free: Vec<usize> = (0..n).filter(|&i| i != a).collect();
    let info: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| free.iter().map(|&j| -h[i][j]).collect())
        .collect();
    let cov = invert(info).ok_or("the ratings' intervals cannot be computed")?;
    let mut out: Vec<Rating> = index
        .iter()
        .map(|(&name, &i)| {
            let mine = games_of(&games, i);
            let wins = games_won(&mine, i);
            let margin = free
                .iter()
                .position(|&f| f == i)
                .map_or(0.0, |k| super::stats::Z95 * cov[k][k].max(0.0).sqrt());
            Rating {
                name: name.to_string(),
                games: mine.len() as u32,
                wins,
                elo: r[i] - r[a],
                margin,
            }
        })
        .collect();
    out.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    Ok(out)
}

fn games_of(games: &[(usize, usize)], i: usize) -> Vec<(usize, usize)> {
    games
        .iter()
        .copied()
        .filter(|&(w, l)| w == i || l == i)
        .collect()
}

fn games_won(games: &[(usize, usize)], i: usize) -> u32 {
    games.iter().filter(|&&(w, _)| w == i).count() as u32
}

/// Every engine must be linked to the anchor by games, or its rating has
/// no meaning on the anchor's scale.
fn connected(n: usize, games: &[(usize, usize)], a: usize) -> Result<(), String> {
    let mut seen = vec![false; n];
    seen[a] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &(w, l) in games {
            if seen[w] != seen[l] {
                seen[w] = true;
                seen[l] = true;
                changed = true;
            }
        }
    }
    if seen.iter().all(|&s| s) {
        Ok(())
    } else {
        Err("some engines are not linked to the anchor by any chain of games".into())
    }
}

/// Gradient and Hessian of the log-likelihood (with the prior) in `r`.
fn derivatives(r: &[f64], games: &[(usize, usize)], prior: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut g = vec![0.0; n];
    let mut h = vec![vec![0.0; n]; n];
    for &(w, l) in games {
        let p = 1.0 / (1.0 + (-K * (r[w] - r[l])).exp());
        let q = 1.0 - p;
        g[w] += K * q;
        g[l] -= K * q;
        let c = K * K * p * q;
        h[w][w] -= c;
        h[l][l] -= c;
        h[w][l] += c;
        h[l][w] += c;
    }
    // Half a win and half a loss against a fixed opponent at 0.
    for i in 0..n {
        let p = 1.0 / (1.0 + (-K * r[i]).exp());
        g[i] += prior * K * (0.5 - p);
        h[i][i] -= prior * K * K * p * (1.0 - p);
    }
    (g, h)
}

fn invert(m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut cols = Vec::with_capacity(n);
    for c in 0..n {
        let mut e = vec![0.0; n];
        e[c] = 1.0;
        cols.push(solve(m.clone(), e)?);
    }
    Some(
        (0..n)
            .map(|r| (0..n).map(|c| cols[c][r]).collect())
            .collect(),
    )
}

/// The results of a match's games, winner first.
pub fn results(games: &[MatchGame]) -> Vec<(String, String)> {
    games
        .iter()
        .map(|g| (g.winner_name().to_string(), g.loser_name().to_string()))
        .collect()
}

/// The table, as plain text or as Markdown.
pub fn table(ratings: &[Rating], anchor: &str, markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        out.push_str("| engine | games | score | Elo | 95% |\n|---|---:|---:|---:|---:|\n");
    } else {
        out.push_str(&format!(
            "{:<16} {:>6} {:>7} {:>8} {:>8}\n",
            "engine", "games", "score", "Elo", "95%"
        ));
    }
    for r in ratings {
        let score = if r.games > 0 {
            format!("{:.1}%", 100.0 * f64::from(r.wins) / f64::from(r.games))
        } else {
            "?".into()
        };
        let elo = if r.is_bound() {
            format!("{}{:.0}", if r.wins == 0 { "<" } else { ">" }, r.elo)
        } else {
            format!("{:+.0}", r.elo)
        };
        let margin = if r.name == anchor {
            "anchor".to_string()
        } else {
            format!("\u{b1}{:.0}", r.margin)
        };
        if markdown {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                r.name, r.games, score, elo, margin
            ));
        } else {
            out.push_str(&format!(
                "{:<16} {:>6} {:>7} {:>8} {:>8}\n",
                r.name, r.games, score, elo, margin
            ));
        }
    }
    if ratings.iter().any(Rating::is_bound) {
        out.push_str(
            "(< and >: won or lost every game; the figure is where the prior holds it, a bound)\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::elo_from_score;

    fn games(spec: &[(&str, &str, u32)]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for &(w, l, n) in spec {
            for _ in 0..n {
                out.push((w.to_string(), l.to_string()));
            }
        }
        out
    }

    fn elo_of(r: &[Rating], name: &str) -> f64 {
        r.iter().find(|x| x.name == name).unwrap().elo
    }

    #[test]
    fn two_engines_give_the_pairwise_elo() {
        let g = games(&[("a", "b", 30), ("b", "a", 10)]);
        let r = fit(&g, "b", 0.0).unwrap();
        assert!((elo_of(&r, "a") - elo_from_score(0.75)).abs() < 1e-6);
        assert_eq!(elo_of(&r, "b"), 0.0);
        assert_eq!(r[0].name, "a");
        // The interval narrows with four times the games, by about half.
        let g4 = games(&[("a", "b", 120), ("b", "a", 40)]);
        let r4 = fit(&g4, "b", 0.0).unwrap();
        let ratio = r4[0].margin / r[0].margin;
        assert!((ratio - 0.5).abs() < 0.01, "{ratio}");
    }

    #[test]
    fn a_chain_adds_up_without_direct_games() {
        let g = games(&[
            ("a", "b", 30),
            ("b", "a", 10),
            ("b", "c", 30),
            ("c", "b", 10),
        ]);
        let r = fit(&g, "c", 0.0).unwrap();
        let want = 2.0 * elo_from_score(0.75);
        assert!((elo_of(&r, "a") - want).abs() < 1e-6, "{r:?}");
        // Anchoring elsewhere shifts the scale, not the differences.
        let r2 = fit(&g, "a", 0.0).unwrap();
        assert!((elo_of(&r2, "c") + want).abs() < 1e-6);
    }

    #[test]
    fn a_clean_sweep_is_a_bound_kept_finite_by_the_prior() {
        let g = games(&[("a", "b", 10), ("b", "c", 6), ("c", "b", 4)]);
        let r = fit(&g, "b", 1.0).unwrap();
        let a = r.iter().find(|x| x.name == "a").unwrap();
        assert!(a.is_bound() && a.elo.is_finite() && a.elo > 200.0, "{a:?}");
        assert!(table(&r, "b", false).contains(">"));
    }

    #[test]
    fn refuses_an_unknown_anchor_and_unlinked_engines() {
        let g = games(&[("a", "b", 3), ("b", "a", 2), ("c", "d", 1), ("d", "c", 1)]);
        assert!(fit(&g, "z", 1.0).unwrap_err().contains("`z`"));
        assert!(fit(&g, "a", 1.0).unwrap_err().contains("not linked"));
    }
}
