//! `aamir suite`: the committed tactics suite reads back and every row is
//! consistent (solutions legal and meeting their kind's criterion, the move
//! played not), the holdout split follows its rule, a short depth-limited
//! run reports counts by kind, and bad files are refused naming the line.

mod common;

use aamir::tools::suite::{HOLDOUT_EVERY, Split, TacticKind, load_suite};
use common::cli::{aamir, argv, assert_mentions, data, scratch};
use std::path::PathBuf;

fn suite_path() -> String {
    data("tactics.tsv")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = scratch(name).join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_committed_suite_is_consistent() {
    let rows = load_suite(&suite_path()).unwrap();
    assert!(rows.len() >= 300, "{} rows", rows.len());
    let problems: Vec<String> = rows.iter().flat_map(|r| r.problems()).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    for r in &rows {
        let n: u32 =
            r.id.strip_prefix('t')
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("id {} is not t and a number", r.id));
        assert_eq!(r.split, Split::of_number(n), "{}", r.id);
        assert!(r.played.is_some(), "{}: no move played", r.id);
        assert!(!r.source.is_empty(), "{}: no source", r.id);
        assert_eq!(r.need.is_some(), r.kind.has_need(), "{}", r.id);
    }
    let holdout = rows.iter().filter(|r| r.split == Split::Holdout).count();
    assert_eq!(holdout, rows.len() / HOLDOUT_EVERY as usize);
    // The kinds the lost games gave: `goal` needs aamir to miss a goal in
    // one turn, which its root goal detection prevents, and the games gave
    // no `goal-defence` (see docs/tactics-suite.md); the hand-made positions of the
    // module's unit tests cover those two kinds.
    for k in [TacticKind::Capture, TacticKind::CaptureDefence] {
        assert!(rows.iter().any(|r| r.kind == k), "no {} position", k.name());
    }
    // Positions are distinct.
    let mut seen = std::collections::HashSet::new();
    for r in &rows {
        assert!(
            seen.insert(r.position.hash()),
            "{}: a repeated position",
            r.id
        );
    }
}

#[test]
fn a_short_run_reports_by_kind_and_writes_json() {
    let text = std::fs::read_to_string(suite_path()).unwrap();
    // The header and comments, then the first two rows.
    let mut kept = Vec::new();
    let mut rows = 0;
    for l in text.lines() {
        if l.starts_with('#') || l.starts_with("id\t") {
            kept.push(l);
        } else if rows < 2 {
            kept.push(l);
            rows += 1;
        }
    }
    let file = temp_file("two.tsv", &(kept.join("\n") + "\n"));
    let json = file.with_extension("json");
    let (ok, out, err) = aamir(&argv(
        "suite {} --depth 4 --hash 8 --json {}",
        &[file.to_str().unwrap(), json.to_str().unwrap()],
    ));
    assert!(ok, "{out}\n{err}");
    assert_mentions(
        &out,
        &[
            "solved by kind:",
            "overall",
            "positions/s",
            "capture-defence",
        ],
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert_eq!(v["overall"]["total"], 2);
}

#[test]
fn bad_files_are_refused_naming_the_line() {
    let text = std::fs::read_to_string(suite_path()).unwrap();
    let first_row = text
        .lines()
        .position(|l| !l.starts_with('#') && !l.starts_with("id\t"))
        .unwrap();
    let line = first_row + 1;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.truncate(first_row + 1);
    let good = lines[first_row].clone();
    let cols: Vec<&str> = good.split('\t').collect();
    let cases = [
        ("kind", good.replacen(cols[1], "tempo", 1), "unknown kind"),
        ("columns", cols[..5].join("\t"), "columns"),
        (
            "solution",
            good.replacen(cols[4], "Ra1n Ra2n Ra3n Ra4n Ra5n", 1),
            "solution",
        ),
        ("position", good.replacen(cols[3], "g [RRR]", 1), "position"),
    ];
    for (name, row, want) in cases {
        let mut l = lines.clone();
        l[first_row] = row;
        let f = temp_file(&format!("bad-{name}.tsv"), &l.join("\n"));
        for extra in [&["--check"][..], &["--depth", "2"][..]] {
            let mut args = vec!["suite", f.to_str().unwrap()];
            args.extend_from_slice(extra);
            let (ok, out, err) = aamir(&args);
            assert!(!ok, "{name}: accepted\n{out}");
            assert!(
                err.contains(&format!("line {line}")) && err.contains(want),
                "{name}: {err}"
            );
            assert!(!err.contains("panicked"), "{name}: {err}");
        }
    }
    let (ok, _, err) = aamir(&["suite", "/nonexistent/tactics.tsv"]);
    assert!(!ok && err.contains("/nonexistent/tactics.tsv"), "{err}");
    let (ok, _, err) = aamir(&["suite", &suite_path(), "--kind", "tempo"]);
    assert!(!ok && err.contains("not a kind"), "{err}");
}
