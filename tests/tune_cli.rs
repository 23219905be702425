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

/// `aamir auc` grades the archive's early positions, writes them for
/// another evaluator, grades that evaluator's scores beside its own, and
/// refuses a score file that does not match the positions.
#[test]
fn auc_grades_the_early_positions_and_another_evaluators_scores() {
    let dir = scratch("auc");
    let posfile = dir.join("pos.txt");
    let archive = data("games-2026-02.tsv");
    let (ok, out, err) = aamir(&argv(
        "auc {} --plies 12 --posfile {}",
        &[&archive, posfile.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let count: usize = out
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count: {out}"));
    assert_mentions(&out, &["the first 12 plies", "0-9 ", "10-11 ", "all "]);
    // One entry a position, each a side line and eight ranks.
    let text = std::fs::read_to_string(&posfile).unwrap();
    assert_eq!(text.lines().filter(|l| *l == ";").count() + 1, count);
    assert_eq!(text.lines().count(), count * 10 - 1);
    // aamir's AUC over all of them lies strictly between blind and
    // perfect on real games.
    let all = out.lines().find(|l| l.starts_with("all ")).unwrap();
    let ours: f64 = all.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(ours > 0.0 && ours < 1.0, "{all}");
    // An evaluator that scores everything alike is blind: 0.5 in every
    // band, beside aamir's own column.
    let flat = dir.join("flat.txt");
    std::fs::write(&flat, "Final Score: 7\n".repeat(count)).unwrap();
    let (ok, out, err) = aamir(&argv(
        "auc {} --plies 12 --scores {}",
        &[&archive, flat.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    for band in ["0-9 ", "10-11 ", "all "] {
        let line = out.lines().find(|l| l.starts_with(band)).unwrap();
        assert_eq!(line.split_whitespace().nth(3), Some("0.500"), "{line}");
    }
    // One score short: refused, naming both counts.
    std::fs::write(&flat, "7\n".repeat(count - 1)).unwrap();
    let (ok, _, err) = aamir(&argv(
        "auc {} --plies 12 --scores {}",
        &[&archive, flat.to_str().unwrap()],
    ));
    assert!(!ok);
    assert_mentions(
        &err,
        &[&format!("{} scores for {count} positions", count - 1)],
    );
}

/// `aamir tune-terms` against a teacher that is aamir's own evaluation:
/// its score with one scale matches the teacher almost exactly on the
/// held-out games, far better than the constant; a score file of the
/// wrong length is refused.
#[test]
fn tune_terms_grades_the_fits_against_a_teacher() {
    let dir = scratch("terms");
    let games = dir.join("gen.tsv");
    let (ok, _, err) = aamir(&argv(
        "gen --games 12 --depth 2 --seed 4 --children 2 --out {}",
        &[games.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let eval = aamir::eval::Evaluator::default();
    let scores: String = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let pos = l.split('\t').nth(3).unwrap();
            let pos = aamir::board::notation::parse_side_and_board(pos).unwrap();
            format!("Final Score: {}\n", 3 * eval.evaluate(&pos))
        })
        .collect();
    let teacher = dir.join("teacher.txt");
    std::fs::write(&teacher, &scores).unwrap();
    let (ok, out, err) = aamir(&argv(
        "tune-terms {} --scores {} --test-pct 30",
        &[games.to_str().unwrap(), teacher.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let held_mse = |row: &str| -> f64 {
        let line = out.lines().find(|l| l.starts_with(row)).unwrap();
        line.split_whitespace().last().unwrap().parse().unwrap()
    };
    let (constant, scaled) = (held_mse("constant"), held_mse("aamir's score"));
    assert!(scaled < 1e-4, "{out}");
    assert!(constant > 100.0 * scaled, "{out}");
    assert!(held_mse("aamir's terms") < constant, "{out}");
    // Every term gets its weight line.
    for t in aamir::eval::TERMS {
        assert!(
            out.contains(&format!("\n  {} ", t.name)),
            "{}: {out}",
            t.name
        );
    }
    // One score short: refused.
    let short: String = scores.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&teacher, short).unwrap();
    let (ok, _, err) = aamir(&argv(
        "tune-terms {} --scores {}",
        &[games.to_str().unwrap(), teacher.to_str().unwrap()],
    ));
    assert!(!ok);
    assert_mentions(&err, &["scores for"]);
}
