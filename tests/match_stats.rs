//! The match statistics against reference values computed independently.
//!
//! Sources of the expected numbers:
//! - closed forms anyone can check by hand: a 75% score is
//!   `400 log10 3 = 190.8485` Elo; LOS of 60 wins to 40 is `Phi(2) =
//!   0.97725` (standard normal table); the Wilson lower bound of 10 wins
//!   out of 10 is `n / (n + z^2) = 10 / 13.8415 = 0.72247`, i.e. 166.20
//!   Elo; Wald's SPRT bounds for alpha = beta = 0.05 are `ln(1/19)` and
//!   `ln 19 = 2.9444` (the bounds fishtest shows as [-2.94, 2.94]);
//! - the other values were computed with Python's `statistics.NormalDist`
//!   (not this crate's erf) from the formulas in `src/arena/stats.rs`:
//!   `elo = -400 log10(1/s - 1)`, Wilson interval with
//!   `z = NormalDist().inv_cdf(0.975)`, `LOS = NormalDist().cdf((w-l)/sqrt(w+l))`,
//!   `LLR = w ln(p1/p0) + l ln((1-p1)/(1-p0))`.

use aamir::arena::stats::{Sprt, SprtDecision, Z95, estimate, score_from_elo};

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

#[test]
fn z_is_the_95_percent_quantile() {
    close(Z95, 1.959_963_984_540_053_6, 1e-12, "z");
}

#[test]
fn elo_interval_and_los_match_references() {
    // (wins, games, elo, low, high, los); None = infinite.
    type Case = (u32, u32, Option<f64>, Option<f64>, Option<f64>, f64);
    let cases: [Case; 6] = [
        (
            60,
            100,
            Some(70.436_503_622_272_47),
            Some(1.391_547_269_452_546_6),
            Some(139.481_459_975_092_43),
            0.977_249_868_051_820_8,
        ),
        (
            75,
            100,
            Some(190.848_501_887_865),
            Some(112.874_092_433_072_36),
            Some(268.822_911_342_657_56),
            0.999_999_713_348_428_2,
        ),
        (
            10,
            10,
            None,
            Some(166.201_527_183_891_02),
            None,
            0.999_217_298_870_998_7,
        ),
        (
            3,
            4,
            Some(190.848_501_887_865),
            Some(-146.660_088_176_207_64),
            Some(528.357_091_951_937_6),
            0.841_344_746_068_542_9,
        ),
        (
            0,
            5,
            None,
            None,
            Some(-45.789_528_918_298_6),
            0.012_673_659_338_734_156,
        ),
        (
            527,
            1000,
            Some(18.779_789_789_894_032),
            Some(-2.771_736_946_859_368),
            Some(40.331_316_526_647_52),
            0.956_147_485_008_988_2,
        ),
    ];
    for (w, n, elo, lo, hi, los) in cases {
        let e = estimate(w, n);
        let what = format!("{w}/{n}");
        let check = |got: f64, want: Option<f64>, name: &str| match want {
            Some(v) => close(got, v, 1e-6, &format!("{what} {name}")),
            None => assert!(got.is_infinite(), "{what} {name}: got {got}, want infinite"),
        };
        check(e.elo, elo, "elo");
        check(e.elo_low, lo, "low");
        check(e.elo_high, hi, "high");
        close(e.los, los, 1e-9, &format!("{what} los"));
        assert!(
            e.elo_low <= e.elo && e.elo <= e.elo_high,
            "{what}: elo outside its interval"
        );
    }
    // By hand: 75% is 400 log10 3; Phi(2) from the normal table.
    close(estimate(75, 100).elo, 400.0 * 3f64.log10(), 1e-9, "75%");
    close(estimate(60, 100).los, 0.97725, 5e-6, "LOS 60-40");
    close(
        estimate(10, 10).elo_low,
        -400.0 * (1.0 / (10.0 / (10.0 + Z95 * Z95)) - 1.0).log10(),
        1e-9,
        "Wilson lower at 10/10",
    );
}

#[test]
fn sprt_bounds_and_llr_match_references() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (lo, hi) = s.bounds();
    close(lo, -19f64.ln(), 1e-12, "lower bound");
    close(hi, 19f64.ln(), 1e-12, "upper bound");
    close(hi, 2.944_438_979_166_440_3, 1e-12, "upper bound value");
    let s2 = Sprt::new(0.0, 10.0, 0.05, 0.1).unwrap();
    let (lo2, hi2) = s2.bounds();
    close(lo2, -2.251_291_798_606_495, 1e-12, "lower bound 0.05/0.1");
    close(hi2, 2.890_371_757_896_164_5, 1e-12, "upper bound 0.05/0.1");

    close(s.llr(600, 500), 2.422_662_392_691_496, 1e-9, "LLR 600-500");
    close(
        s.llr(520, 500),
        0.153_209_588_682_972_96,
        1e-9,
        "LLR 520-500",
    );
    close(
        s.llr(500, 520),
        -0.998_082_957_814_055_8,
        1e-9,
        "LLR 500-520",
    );
    assert_eq!(s.state(600, 500).decision, SprtDecision::Continue);

    // H0 at 0, H1 at 100 Elo: 12 straight wins accept H1 (LLR 2.9635),
    // 11 do not; 9 straight losses accept H0 (LLR -2.9582), 8 do not.
    let t = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
    close(t.llr(12, 0), 2.963_539_619_597_322_7, 1e-9, "12 wins");
    close(t.llr(0, 9), -2.958_161_744_538_612, 1e-9, "9 losses");
    assert_eq!(t.state(12, 0).decision, SprtDecision::H1);
    assert_eq!(t.state(11, 0).decision, SprtDecision::Continue);
    assert_eq!(t.state(0, 9).decision, SprtDecision::H0);
    assert_eq!(t.state(0, 8).decision, SprtDecision::Continue);
    close(
        score_from_elo(100.0),
        0.640_064_999_802_885_1,
        1e-12,
        "score of 100 Elo",
    );
}
