//! The settings as a user meets them: `aamir params` lists every one, and
//! the CLI flags and AEI's `setoption` share one set of names, defaults
//! and limits (they come from the same tables).

mod aei_common;
mod common;

use aamir::search::EngineConfig;
use aei_common::*;
use common::cli::{aamir, argv, scratch};

const OPENING_BOARD: &str = "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

#[test]
fn params_lists_every_setting_with_default_range_and_doc() {
    let (ok, out, err) = aamir(&["params"]);
    assert!(ok, "{err}");
    let mut rows = 0;
    for (_, group) in EngineConfig::listing() {
        for [name, default, range, doc] in group {
            let line = out
                .lines()
                .find(|l| l.split_whitespace().next() == Some(name.as_str()))
                .unwrap_or_else(|| panic!("`{name}` missing from:\n{out}"));
            for part in [&default, &range, &doc] {
                assert!(line.contains(part.as_str()), "{line} lacks {part}");
            }
            rows += 1;
        }
    }
    assert!(rows >= 20, "{rows} rows");
    // The engine options come first, `hash` at its default.
    let first = out.lines().find(|l| l.starts_with("  ")).unwrap_or("");
    assert!(first.split_whitespace().take(2).eq(["hash", "64"]), "{out}");
    assert!(out.contains("eval_tempo"), "{out}");
}

#[test]
fn cli_and_aei_refuse_the_same_values_with_the_same_reason() {
    let mut e = Engine::opened();
    for (name, value) in [("hash", "0"), ("threads", "257"), ("depth", "121")] {
        let (ok, _, err) = aamir(&["analyze", OPENING_BOARD, &format!("--{name}"), value]);
        assert!(!ok, "--{name} {value} accepted");
        e.send(&format!("setoption name {name} value {value}"));
        e.send("isready");
        let got = texts(&e.until("readyok", 10.0));
        assert!(got[0].starts_with("log Error: "), "{got:?}");
        // The reason after the value is the table's, word for word.
        let reason = got[0]
            .split_once(&format!("`{value}` "))
            .map(|(_, r)| r.trim_end_matches("; ignored").to_string())
            .unwrap_or_else(|| panic!("{got:?}"));
        assert!(err.contains(&reason), "CLI said {err:?}, AEI {reason:?}");
        // And through --params too.
        let (ok, _, err) = aamir(&[
            "analyze",
            OPENING_BOARD,
            "--params",
            &format!("{name}={value}"),
        ]);
        assert!(!ok && err.contains(&reason), "{err}");
        // The data generator's table size has the same limits.
        if name == "hash" {
            let out = scratch("gen-hash-0").join("gen.tsv");
            let (ok, _, err) = aamir(&argv(
                "gen --seed 1 --games 1 --depth 1 --hash {} --out {}",
                &[value, out.to_str().unwrap()],
            ));
            assert!(!ok && err.contains(&reason), "{err}");
            assert!(!out.exists(), "gen wrote {out:?} with --hash {value}");
        }
    }
}

#[test]
fn analyze_takes_engine_options_and_weights_by_their_names() {
    let (ok, out, err) = aamir(&argv(
        "analyze {} --depth 5 --hash 4 --params aspiration=0,eval_tempo=7,eval_rabbit_rank_6=50",
        &[OPENING_BOARD],
    ));
    assert!(ok, "{err}");
    assert!(out.contains("depth 5 "), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    let (ok, _, err) = aamir(&["analyze", OPENING_BOARD, "--params", "no_such_setting=2"]);
    assert!(
        !ok && err.contains("unknown setting `no_such_setting`"),
        "{err}"
    );
}
