//! Goal threats as odds rather than points.
//!
//! A runner's score is not like material: it is a chance that the game
//! ends soon, whatever the rest of the board says. So a side far behind
//! should prize its own runners more than their face value (they are its
//! way back), and a side far ahead should weigh them less; and an
//! opponent's runners cap a winning side's chances, however much material
//! it leads by.
//!
//! The model (the idea is the strong bots' "variance points"; Sharp has
//! one): read the score without these points, `x`, as a winning chance
//! `p = 1 / (1 + exp(-x / K))`. Each side's points become the odds `w`
//! and `l` that it wins or loses at once, `points / (2 K)`, so that at
//! `x = 0` the points count at face value. The chance is then
//! `w + p (1 - w - l)`, read back as a score with the same logistic.

/// Centi-rabbits per unit of the logistic: close to the `1 / k` that
/// `aamir tune` fits to game results (k about 0.003-0.004).
const K: f64 = 300.0;

/// The most either side's instant odds may reach: a side can never be
/// sure to win by its runners alone, and `1 - w - l` stays positive.
const MAX_ODDS: f64 = 0.45;

/// What reading `pct` percent of each side's runners as odds adds to
/// `score`, the side to move's score with all of them counted as points;
/// `run` holds the runners of the side to move, then of its opponent.
pub fn odds_part(score: i32, run: [i32; 2], pct: i32) -> i32 {
    if pct == 0 {
        return 0;
    }
    // `adjust` reads negative points as none.
    adjust(score, run[0] * pct / 100, run[1] * pct / 100) - score
}

/// `score` (the side to move's, with every point counted) adjusted for
/// `mine` and `theirs`, the variance points in it of the side to move and
/// of its opponent (each at least 0).
pub fn adjust(score: i32, mine: i32, theirs: i32) -> i32 {
    if mine <= 0 && theirs <= 0 {
        return score;
    }
    let x = (score - mine + theirs) as f64;
    let w = (mine.max(0) as f64 / (2.0 * K)).min(MAX_ODDS);
    let l = (theirs.max(0) as f64 / (2.0 * K)).min(MAX_ODDS);
    // Work with the chance of losing as well as of winning, so that a
    // chance very near 1 loses no precision in `1 - p`.
    let p = 1.0 / (1.0 + (-x / K).exp());
    let q = 1.0 / (1.0 + (x / K).exp());
    let win = w + p * (1.0 - w - l);
    let lose = l + q * (1.0 - w - l);
    let out = K * (win / lose).ln();
    if out.is_finite() {
        out.round() as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_points_no_change() {
        for s in [-5000, -300, 0, 7, 450, 5000] {
            assert_eq!(adjust(s, 0, 0), s);
        }
    }

    #[test]
    fn at_an_even_score_points_count_at_face_value() {
        // x = 0: the score is the points alone, and they stay (nearly)
        // what they were.
        let a = adjust(60, 60, 0);
        assert!((a - 60).abs() <= 2, "{a}");
        let b = adjust(-40, 0, 40);
        assert!((b + 40).abs() <= 2, "{b}");
    }

    #[test]
    fn behind_ones_runners_are_worth_more_ahead_less() {
        // The same 80 points of runners, with the rest of the board at
        // -600 and at +600.
        let behind = adjust(-600 + 80, 80, 0) - (-600);
        let ahead = adjust(600 + 80, 80, 0) - 600;
        assert!(behind > 80, "behind: {behind}");
        assert!(ahead < 80, "ahead: {ahead}");
        assert!(ahead > 0, "ahead: {ahead}");
    }

    #[test]
    fn the_opponents_runners_cap_a_big_lead() {
        // Far ahead on material, the opponent's 100 points of runners cost
        // far more than 100.
        let lead = 2400;
        let cost = lead - adjust(lead - 100, 0, 100);
        assert!(cost > 500, "cost {cost}");
        // And the result is still a lead.
        assert!(adjust(lead - 100, 0, 100) > 0);
    }

    #[test]
    fn the_score_stays_in_order() {
        // More of the rest of the board is never worse.
        let mut last = i32::MIN;
        for x in (-3000..=3000).step_by(50) {
            let a = adjust(x + 70 - 40, 70, 40);
            assert!(a >= last, "{x}: {a} < {last}");
            last = a;
        }
        // And a huge score stays finite.
        assert!(adjust(24_000, 0, 300) < 25_000);
        assert!(adjust(-24_000, 300, 0) > -25_000);
    }
}
