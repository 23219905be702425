//! `aamir tune` as a user runs it on a small generated file: `--start`,
//! `--freeze` and `--bound` shape the fit, and bad names are refused before
//! any data is read. `aamir tune-order` reports its rankings and writes a
//! table of every feature, and names a file it cannot use; `aamir
//! tune-moves` reports its rankings and writes every weight.

mod common;

use aamir::eval::Weights;
use aamir::settings::Table;
use common::cli::{aamir, argv, assert_mentions, data, scratch, words};

/// The `(name, value)` entries of a table written by `--out`.
fn entries(text: &str) -> Vec<(String, i64)> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("(\"")?;
            let (name, rest) = l.split_once("\", ")?;
            let v = rest.strip_suffix("),")?.parse().ok()?;
            Some((name.to_string(), v))
        })
        .collect()
}

#[test]
fn start_freeze_and_bound_shape_the_fit() {
    let dir = scratch("fit");
    let games = dir.join("gen.tsv");
    let table = dir.join("w.rs");
    let (ok, _, err) = aamir(&argv(
        "gen --games 12 --depth 2 --seed 4 --out {}",
        &[games.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let (ok, out, err) = aamir(&argv(
        "tune {} --skip-turns 0 --test-pct 0 --max-passes 2 \
         --start tc_scale=40,hostage_pct=20 --freeze rabbit_rank_*,hostage_pct \
         --bound 200 --out {}",
        &[games.to_str().unwrap(), table.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let got = entries(&std::fs::read_to_string(&table).unwrap());
    assert_eq!(got.len(), Weights::len(), "{got:?}");
    let d = Weights::default();
    let mut moved = 0;
    for (i, (name, v)) in got.iter().enumerate() {
        assert_eq!(Some(name.clone()), Weights::name(i));
        let start = match name.as_str() {
            "tc_scale" => 40,
            "hostage_pct" => 20,
            _ => d.get(i).unwrap(),
        };
        if name.starts_with("rabbit_rank_") || name == "hostage_pct" {
            assert_eq!(*v, start, "{name} is frozen");
        } else if *v != start {
            moved += 1;
            assert!(v.abs() <= 200, "{name} = {v} beyond the bound");
        }
    }
    assert!(moved > 0, "the fit moved nothing:\n{out}");
}

#[test]
fn unknown_names_are_refused_before_reading_data() {
    for (flags, want) in [
        ("--freeze tempo,nope", "--freeze: no weight `nope`"),
        ("--freeze zzz*", "no weight `zzz*`"),
        ("--start nope=3", "unknown setting `nope`"),
    ] {
        let (ok, _, err) = aamir(&[words("tune no-such-file.tsv"), words(flags)].concat());
        assert!(!ok, "{flags}");
        assert!(err.contains(want), "{err}");
    }
}

#[test]
fn tune_order_reports_rankings_and_writes_a_table_of_every_feature() {
    let dir = scratch("order");
    let out = dir.join("order_weights.rs");
    let (ok, stdout, stderr) = aamir(&argv(
        "tune-order {} --negatives 15 --iterations 60 --rank-positions 12 --test-pct 30 --out {}",
        &[&data("games-2011-extra.tsv"), out.to_str().unwrap()],
    ));
    assert!(ok, "{stderr}");
    assert_mentions(
        &stdout,
        &[
            "held-out positions",
            "loss (sampled turns): train",
            "held-out ranking, start weights",
            "held-out ranking, fitted weights",
        ],
    );
    let table = std::fs::read_to_string(&out).unwrap();
    assert!(table.contains("pub const ORDER_WEIGHTS: [f32; N_FEATURES] = ["));
    assert!(
        table.contains("aamir tune-order"),
        "the command is recorded"
    );
    let rows: Vec<&str> = table.lines().filter(|l| l.contains(", // ")).collect();
    assert_eq!(rows.len(), 24, "{table}");
    for r in rows {
        let v = r.trim().split(',').next().unwrap();
        assert!(v.parse::<f32>().is_ok_and(f32::is_finite), "{r}");
    }
}

#[test]
fn tune_order_names_a_file_it_cannot_use() {
    let dir = scratch("order-bad");
    let missing = dir.join("nope.tsv");
    let (ok, _, stderr) = aamir(&["tune-order", missing.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("nope.tsv"), "{stderr}");
    let empty = dir.join("empty.tsv");
    std::fs::write(&empty, "id\tresult\tmovelist\n").unwrap();
    let (ok, _, stderr) = aamir(&["tune-order", empty.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("no winner's moves"), "{stderr}");
}

/// `aamir tune-moves` on the small archive: it reports the losses and both
/// rankings, writes a table of every weight with the command, keeps frozen
/// weights as they were, and refuses a bad cap before reading anything.
#[test]
fn tune_moves_reports_rankings_and_writes_every_weight() {
    let dir = scratch("moves");
    let out = dir.join("fitted.rs");
    let (ok, stdout, stderr) = aamir(&argv(
        "tune-moves {} --hard 6 --random 2 --rounds 2 --max-passes 1 --cap 3 \
         --rank-positions 8 --test-pct 30 --freeze rabbit_rank_* --out {}",
        &[&data("games-2011-extra.tsv"), out.to_str().unwrap()],
    ));
    assert!(ok, "{stderr}");
    assert_mentions(
        &stdout,
        &[
            "training,",
            "loss before (the played turn against 6 best and 2 sampled)",
            "round 2, pass 1: train loss",
            "held-out ranking, start weights",
            "held-out ranking, fitted weights",
            "as engine options:",
        ],
    );
    let table = std::fs::read_to_string(&out).unwrap();
    assert!(
        table.contains("aamir tune-moves"),
        "the command is recorded"
    );
    let got = entries(&table);
    assert_eq!(got.len(), Weights::len(), "{table}");
    let base = Weights::default();
    for (i, (name, v)) in got.iter().enumerate() {
        if name.starts_with("rabbit_rank_") {
            assert_eq!(Some(*v), base.get(i), "{name} was frozen");
        }
    }
    assert!(
        got.iter()
            .enumerate()
            .any(|(i, (_, v))| Some(*v) != base.get(i)),
        "the fit moved nothing:\n{stdout}"
    );
    let (ok, _, stderr) = aamir(&["tune-moves", "nope.tsv", "--cap=-1"]);
    assert!(!ok);
    assert!(stderr.contains("--cap -1"), "{stderr}");
}
