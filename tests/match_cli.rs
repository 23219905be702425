//! `aamir match` end to end: real engine processes (aamir itself, AEI's
//! `simple_engine` and the misbehaving fake in `tests/fake_engines/`),
//! tiny time controls,
//! and checks on the summary, the archive TSV (replayed by `aamir replay`)
//! and the PGN.
//!
//! Needs the Python `aei` package: the venv named by `AAMIR_VENV`, or one
//! the tests make under the target directory on first use (`pyenv`).

mod common;
mod pyenv;

use common::cli::{AAMIR, aamir, argv, data, scratch, words};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The venv with AEI's `aei` package, made on first use (see `pyenv`).
fn venv() -> PathBuf {
    pyenv::venv()
}

fn simple_engine(name: &str) -> String {
    format!(
        "name={name},cmd={}",
        venv().join("bin/simple_engine").display()
    )
}

/// The fake engine with a fault at its `at`'th move.
fn fake(name: &str, args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_engine.py");
    format!(
        "name={name},cmd={} {} {args}",
        venv().join("bin/python").display(),
        script.display()
    )
}

fn match_args(engines: &[String], extra: &[&str], out: &Path) -> Vec<String> {
    let mut a = vec!["match".to_string()];
    for e in engines {
        a.push("--engine".into());
        a.push(e.clone());
    }
    a.extend(extra.iter().map(|s| s.to_string()));
    a.push("--out".into());
    a.push(out.display().to_string());
    a
}

/// Runs `args`, which must succeed, and reads the summary it left in `out`.
fn ran_ok(args: &[String], out: &Path) -> Value {
    let (ok, stdout, stderr) = aamir(args);
    assert!(
        ok,
        "aamir {args:?} failed:\nstdout: {stdout}\nstderr: {stderr}"
    );
    summary(out)
}

fn run_ok(engines: &[String], extra: &[&str], out: &Path) -> Value {
    ran_ok(&match_args(engines, extra, out), out)
}

fn summary(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json is JSON")
}

fn games(s: &Value) -> &Vec<Value> {
    s["games"].as_array().expect("games array")
}

/// `aamir replay` accepts the archive, and it holds `n` games.
fn check_archive(out: &Path, n: usize) {
    let tsv = out.join("games.tsv");
    let (ok, stdout, _) = aamir(&["replay", tsv.to_str().unwrap()]);
    assert!(ok, "aamir replay refused games.tsv:\n{stdout}");
    assert!(
        stdout.contains(&format!("{n} games, {n} agree")),
        "replay summary: {stdout}"
    );
    let tsv = std::fs::read_to_string(tsv).unwrap();
    let header = tsv.lines().next().unwrap();
    // The archive written must have the arimaa.com header, as the real
    // archive in tests/data does.
    let reference =
        std::fs::read_to_string(data("games-2026-02.tsv")).expect("tests/data/games-2026-02.tsv");
    assert_eq!(
        header,
        reference.lines().next().unwrap(),
        "archive header differs"
    );
}

/// The text of the element carrying `data-figure="KEY"` in the report.
fn figure<'a>(html: &'a str, key: &str) -> &'a str {
    let tag = format!("data-figure=\"{key}\">");
    let at = html
        .find(&tag)
        .unwrap_or_else(|| panic!("no figure {key} in report.html"))
        + tag.len();
    &html[at..at + html[at..].find('<').expect("figure closed")]
}

/// A report figure as a number: `+inf`/`-inf` for an unbounded Elo (the
/// summary's `null`), a trailing `%` dropped.
fn figure_number(html: &str, key: &str) -> f64 {
    let t = figure(html, key).trim_end_matches('%');
    match t {
        "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ => t
            .parse()
            .unwrap_or_else(|_| panic!("figure {key} `{t}` is not a number")),
    }
}

/// `report.html` is self-contained and shows the summary's figures: each
/// pairing's wins, score, Elo and interval (and LLR with an SPRT), and one
/// board diagram per game.
fn check_report(out: &Path, s: &Value) {
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    for external in ["http:", "https:", "<script", "<link", "<img", "url("] {
        assert!(!html.contains(external), "report.html loads `{external}`");
    }
    // Material a game per engine, as the summary's totals over its games.
    for (i, e) in s["engines"].as_array().unwrap().iter().enumerate() {
        let games = e["games"].as_f64().unwrap().max(1.0);
        for k in [
            "material_lost",
            "material_taken",
            "rabbits_lost",
            "rabbits_taken",
        ] {
            let got = figure_number(&html, &format!("e{i}.{k}"));
            let want = e[k].as_f64().unwrap() / games;
            assert!((got - want).abs() < 0.051, "e{i}.{k}: {got} vs {want}");
        }
    }
    for (i, p) in s["pairings"].as_array().unwrap().iter().enumerate() {
        let key = |k: &str| format!("p{i}.{k}");
        assert_eq!(figure(&html, &key("wins")), p["first_wins"].to_string());
        assert_eq!(figure(&html, &key("losses")), p["second_wins"].to_string());
        let score = figure_number(&html, &key("score"));
        assert!(
            (score - 100.0 * p["score"].as_f64().unwrap()).abs() < 0.051,
            "score {score} vs {}",
            p["score"]
        );
        let wins = p["first_wins"].as_u64().unwrap();
        let games = p["games"].as_u64().unwrap();
        for (k, unbounded) in [
            (
                "elo",
                if wins == games {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                },
            ),
            ("elo_low", f64::NEG_INFINITY),
            ("elo_high", f64::INFINITY),
        ] {
            let got = figure_number(&html, &key(k));
            match p[k].as_f64() {
                Some(want) => assert!((got - want).abs() < 0.051, "{k}: {got} vs {want}"),
                None => assert_eq!(got, unbounded, "{k}"),
            }
        }
        if let Some(llr) = p["sprt"]["llr"].as_f64() {
            let got = figure_number(&html, &key("llr"));
            assert!((got - llr).abs() < 0.0006, "llr {got} vs {llr}");
        }
    }
    assert_eq!(
        html.matches("<svg class=\"board\"").count(),
        games(s).len(),
        "one diagram per game"
    );
    for g in games(s) {
        assert!(
            html.contains(&format!("id=\"game-{}\"", g["id"])),
            "game {}",
            g["id"]
        );
    }
}

#[test]
fn every_kind_of_fault_loses_and_the_match_completes() {
    let out = scratch("faults");
    // (engine, fake arguments, termination, fault kind, text expected in
    // the detail, stderr or exchange)
    let cases = [
        (
            "illegal",
            "--fault illegal --at 2",
            "illegal",
            "illegal",
            "rabbit on",
        ),
        (
            "unchanged",
            "--fault unchanged --at 1",
            "illegal",
            "illegal",
            "leaves the board unchanged",
        ),
        (
            "badsetup",
            "--fault badsetup --at 0",
            "illegal",
            "illegal",
            "places 15 pieces",
        ),
        (
            "crash",
            "--fault crash --at 2",
            "crash",
            "exited",
            "simulated crash",
        ),
        (
            "exitquiet",
            "--fault exitquiet --at 2",
            "crash",
            "exited",
            "exit status 0",
        ),
        ("hang", "--fault hang --at 2", "time", "time", "no bestmove"),
        (
            "slow",
            "--fault slow --at 2 --sleep 2.6",
            "time",
            "time",
            "no bestmove",
        ),
        (
            "garbage",
            "--fault garbage --at 2",
            "crash",
            "garbage",
            "quick brown fox",
        ),
        (
            "stale",
            "--fault stale --at 1",
            "crash",
            "protocol",
            "while not asked to move",
        ),
        (
            "hangready",
            "--fault hangready --at 1",
            "crash",
            "hang",
            "readyok",
        ),
    ];
    // aamir itself (no cmd=), searching one step deep so it answers at
    // once, against each misbehaving fake.
    let mut engines = vec!["name=aamir,option.depth=1".to_string()];
    engines.extend(cases.iter().map(|(n, a, ..)| fake(n, a)));
    let start = Instant::now();
    // Deadline: 1 s move + at most 1 s reserve, 0.1 s margin. Two games at
    // once on CI's two cores: at four, eight engine processes starting
    // together pushed aamir's `readyok` past the 1 s timeout on a loaded
    // machine.
    let s = run_ok(
        &engines,
        &words("--mode gauntlet --tc 1s/1s/100/1s --ready-timeout 1 --games 2 --concurrency 2"),
        &out,
    );
    assert_eq!(s["status"], "complete");
    assert_eq!(s["played"], 20);
    for (name, _, term, kind, text) in cases {
        let gs: Vec<&Value> = games(&s)
            .iter()
            .filter(|g| g["gold"] == name || g["silver"] == name)
            .collect();
        assert_eq!(gs.len(), 2, "{name}: games");
        let sides: BTreeSet<String> = gs
            .iter()
            .map(|g| if g["gold"] == name { "gold" } else { "silver" }.to_string())
            .collect();
        assert_eq!(sides.len(), 2, "{name} should play both colours");
        for g in gs {
            let loser = if g["winner"] == "gold" {
                &g["silver"]
            } else {
                &g["gold"]
            };
            assert_eq!(loser, name, "{name} should lose game {}", g["id"]);
            assert_eq!(g["termination"], term, "{name}: game {}", g["id"]);
            let f = &g["fault"];
            assert_eq!(f["engine"], name);
            assert_eq!(f["kind"], kind, "{name}: fault kind in game {}", g["id"]);
            let all = format!("{} {} {}", g["detail"], f["stderr"], f["exchange"]);
            assert!(all.contains(text), "{name}: `{text}` not in {all}");
            assert!(
                !f["exchange"].as_array().unwrap().is_empty(),
                "{name}: exchange kept"
            );
        }
    }
    // The engine that sent the illegal move had it recorded.
    let ill = games(&s).iter().find(|g| g["gold"] == "illegal").unwrap();
    assert!(ill["attempted"].as_str().unwrap().starts_with('R'));
    check_archive(&out, 20);
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"").count(), 20);
    for code in ["i", "f", "t"] {
        assert!(pgn.contains(&format!("[ResultCode \"{code}\"]")), "{code}");
    }
    // The clock is refreshed before each `go`.
    let ex =
        games(&s).iter().find(|g| g["gold"] == "crash").unwrap()["fault"]["exchange"].to_string();
    let go = ex.rfind("> go").unwrap();
    let greserve = ex.rfind("> setoption name greserve value").unwrap();
    let moveused = ex.rfind("> setoption name moveused value 0").unwrap();
    assert!(greserve < moveused && moveused < go, "{ex}");
    let failures = std::fs::read_to_string(out.join("failures.txt")).unwrap();
    assert!(failures.contains("fatal: simulated crash at move 2"));
    let hang = s["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "hang")
        .unwrap();
    assert_eq!(hang["losses_by"]["time"], 2);
    eprintln!("faults match took {:?}", start.elapsed());
}

#[test]
fn aamir_plays_itself_at_two_settings() {
    let out = scratch("self");
    let s = run_ok(
        &[
            "name=shallow,option.depth=2".to_string(),
            "name=deeper,option.depth=4".to_string(),
        ],
        &words("--tc 0.2s/1s/100/2s --games 4 --concurrency 2 --max-turns 40"),
        &out,
    );
    assert_eq!(s["status"], "complete");
    assert_eq!(s["played"], 4);
    for g in games(&s) {
        assert!(g["fault"].is_null(), "game {}: {}", g["id"], g["detail"]);
        let t = g["termination"].as_str().unwrap();
        assert!(
            ["goal", "elimination", "immobilization", "score"].contains(&t),
            "game {} ended by {t}: {}",
            g["id"],
            g["detail"]
        );
        assert!(g["moves"].as_array().unwrap().len() > 2);
    }
    let p = &s["pairings"][0];
    assert_eq!(
        p["first_wins"].as_u64().unwrap() + p["second_wins"].as_u64().unwrap(),
        4
    );
    check_archive(&out, 4);
    check_report(&out, &s);
}

#[test]
fn a_third_repetition_loses() {
    let out = scratch("repeat");
    let s = run_ok(
        &[
            fake("rep1", "--fault repeat"),
            fake("rep2", "--fault repeat"),
        ],
        &["--tc", "1s/2s", "--games", "2"],
        &out,
    );
    for g in games(&s) {
        // Both shuffle their elephants; silver's 5th move repeats the
        // position after the setups a third time.
        assert_eq!(g["winner"], "gold", "game {}", g["id"]);
        assert_eq!(g["termination"], "illegal");
        assert_eq!(g["final_label"], "5s");
        assert_eq!(g["moves"].as_array().unwrap().len(), 9);
        assert!(
            g["detail"].as_str().unwrap().contains("third time"),
            "{}",
            g["detail"]
        );
        assert_eq!(g["attempted"], "ed6n");
    }
    check_archive(&out, 2);
}

/// The arimaa.com rule, computed here from the record alone: the side that
/// has, or most recently had, more pieces after a completed turn; else
/// silver.
fn winner_by_score(moves: &[Value]) -> &'static str {
    use aamir::board::{Color, Game, Phase};
    let mut game = Game::new();
    let mut verdict = "silver";
    for m in moves {
        game.play(m["text"].as_str().unwrap()).unwrap();
        let p = game.position();
        let (g, s) = (
            p.occupied_by(Color::Gold).count(),
            p.occupied_by(Color::Silver).count(),
        );
        if game.phase() == Phase::Play && g != s {
            verdict = if g > s { "gold" } else { "silver" };
        }
    }
    verdict
}

#[test]
fn the_turn_limit_is_decided_by_score() {
    let out = scratch("turns");
    let s = run_ok(
        &[simple_engine("random"), fake("fake", "--seed 7")],
        &words("--tc 1s/2s --games 4 --max-turns 12 --concurrency 2"),
        &out,
    );
    let mut scored = 0;
    for g in games(&s) {
        let moves = g["moves"].as_array().unwrap();
        if g["termination"] == "score" {
            scored += 1;
            // Silver completed move 12: 2 setups + 11 moves each.
            assert_eq!(moves.len(), 24, "game {}", g["id"]);
            assert_eq!(g["final_label"], "13g");
            assert_eq!(g["winner"], winner_by_score(moves), "game {}", g["id"]);
        } else {
            assert!(moves.len() < 24, "game {} ran past the limit", g["id"]);
        }
    }
    assert!(scored > 0, "no game reached the turn limit");
    check_archive(&out, 4);
}

#[test]
fn the_clock_follows_the_time_control() {
    // 1 s a move, 1 s reserve, half of unused move time banked, reserve
    // capped at 2 s; the fake thinks 1.4 s on its second move.
    let out = scratch("clock");
    let s = run_ok(
        &[
            simple_engine("random"),
            fake("slow", "--fault slow --at 2 --sleep 1.4"),
        ],
        &words("--tc 1s/1s/50/2s --games 2 --max-turns 6 --concurrency 2"),
        &out,
    );
    for g in games(&s) {
        assert_ne!(
            g["termination"], "time",
            "game {}: {}",
            g["id"], g["detail"]
        );
        let slow_side = if g["gold"] == "slow" { 'g' } else { 's' };
        // The reserve after each move, recomputed here from the recorded
        // move times with the arimaa.com rule.
        let mut reserve = [1.0f64, 1.0];
        let mut slow_moves = 0;
        for (i, m) in g["moves"].as_array().unwrap().iter().enumerate() {
            let label = m["label"].as_str().unwrap();
            let side = label.ends_with('s') as usize;
            let used = m["used"].as_f64().unwrap();
            if i >= 2 {
                let r = reserve[side];
                reserve[side] = if used < 1.0 {
                    r + 0.5 * (1.0 - used)
                } else {
                    (r - (used - 1.0)).max(0.0)
                }
                .min(2.0);
                if label.ends_with(slow_side) {
                    slow_moves += 1;
                    if slow_moves == 2 {
                        assert!(used >= 1.4, "the slow move took {used}");
                        assert!(reserve[side] < 1.2, "the slow move should eat reserve");
                    }
                }
            }
            let got = m["reserve"].as_f64().unwrap();
            assert!(
                (got - reserve[side]).abs() < 1e-6,
                "game {} move {label}: reserve {got}, expected {}",
                g["id"],
                reserve[side]
            );
        }
        assert!(slow_moves >= 2, "game {} ended too early", g["id"]);
    }
}

#[test]
fn the_game_total_is_decided_by_score() {
    // A 2 s game total; the fake thinks 0.3 s a move, so the total runs
    // out after a few moves and the arimaa.com scoring rule decides.
    let out = scratch("total");
    let s = run_ok(
        &[simple_engine("random"), fake("ponderous", "--delay 0.3")],
        &["--tc", "1s/1s/100/1s/2s", "--games", "1"],
        &out,
    );
    let g = &games(&s)[0];
    assert_eq!(g["termination"], "score", "{}", g["detail"]);
    assert!(g["detail"].as_str().unwrap().contains("total"));
    assert_eq!(g["winner"], winner_by_score(g["moves"].as_array().unwrap()));
    let secs = g["seconds"].as_f64().unwrap();
    // Without the total the game would run 10 s or more (0.3 s a move).
    assert!((2.0..6.0).contains(&secs), "game took {secs} s");
    check_archive(&out, 1);
}

#[test]
fn sprt_stops_when_it_decides() {
    let out = scratch("sprt");
    // The fake always plays an illegal first move: H1 (100 Elo) is
    // accepted after 12 straight wins (LLR 2.96 >= ln 19).
    let s = run_ok(
        &[
            simple_engine("random"),
            fake("bad", "--fault illegal --at 1"),
        ],
        &words("--tc 1s/2s --games 200 --concurrency 2 --sprt 0 100 0.05 0.05"),
        &out,
    );
    assert_eq!(s["status"], "sprt");
    let p = &s["pairings"][0];
    assert_eq!(p["sprt"]["decision"], "h1");
    let played = s["played"].as_u64().unwrap();
    assert_eq!(played, 12, "the test decides at the 12th win");
    assert_eq!(p["first_wins"], 12);
    check_archive(&out, played as usize);
    check_report(&out, &s);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("SPRT log-likelihood ratio"), "the LLR chart");
    // A decided test is not continued.
    let (ok, _, err) = aamir(&resume_args(&out, &[]));
    assert!(!ok);
    assert!(err.contains("already decided after 12 games"), "{err}");
    assert_eq!(
        summary(&out)["played"],
        12,
        "the refused resume changed nothing"
    );
}

/// Plays the match of `engines` and `extra` as two shards, each in its
/// own folder named `tag` and its number: (folder, summary) a shard.
fn run_shards(tag: &str, engines: &[String], extra: &str) -> Vec<(PathBuf, Value)> {
    (1..=2)
        .map(|i| {
            let out = scratch(&format!("{tag}{i}"));
            let shard = format!("{i}/2");
            let mut args = words(extra);
            args.extend(["--shard", &shard]);
            let s = run_ok(engines, &args, &out);
            (out, s)
        })
        .collect()
}

/// `aamir match merge` of `inputs` (summaries or match folders) into `out`.
fn merge(out: &Path, inputs: &[PathBuf]) -> (bool, String, String) {
    let mut args = vec![
        "match".into(),
        "merge".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    args.extend(inputs.iter().map(|p| p.display().to_string()));
    aamir(&args)
}

fn resume_args(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut a = vec!["match".to_string(), "--resume".into()];
    a.extend(extra.iter().map(|s| s.to_string()));
    a.push("--out".into());
    a.push(out.display().to_string());
    a
}

fn resume_ok(out: &Path, extra: &[&str]) -> Value {
    ran_ok(&resume_args(out, extra), out)
}

fn resume_err(out: &Path, extra: &[&str]) -> String {
    let (ok, _, err) = aamir(&resume_args(out, extra));
    assert!(!ok, "--resume {extra:?} should be refused");
    err
}

fn ids(s: &Value) -> Vec<u64> {
    games(s).iter().map(|g| g["id"].as_u64().unwrap()).collect()
}

#[test]
fn a_match_resumes_and_extends_without_replaying_its_games() {
    let out = scratch("resume");
    let first = run_ok(
        &[simple_engine("random"), fake("fake", "--seed 4")],
        &words("--tc 1s/2s --games 2 --max-turns 4 --concurrency 2"),
        &out,
    );
    assert_eq!(first["status"], "complete");
    let err = resume_err(&out, &[]);
    assert!(err.contains("all 2 games"), "{err}");
    let err = resume_err(&out, &["--games", "1"]);
    assert!(err.contains("can only be extended"), "{err}");
    let err = resume_err(&out, &["--tc", "1s/2s"]);
    assert!(err.contains("cannot be used with"), "{err}");

    let s = resume_ok(&out, &["--games", "4"]);
    assert_eq!(s["status"], "complete");
    assert_eq!(s["played"], 4);
    assert_eq!(s["config"]["games"], 4);
    assert_eq!(s["concurrency"], 2, "the earlier run's concurrency");
    assert_eq!(ids(&s), vec![1, 2, 3, 4]);
    // The first run's games are kept as they were, not played again.
    assert_eq!(games(&s)[..2], games(&first)[..]);
    let p = &s["pairings"][0];
    assert_eq!(
        p["first_wins"].as_u64().unwrap() + p["second_wins"].as_u64().unwrap(),
        4
    );
    assert!(
        s["wall_seconds"].as_f64().unwrap() > first["wall_seconds"].as_f64().unwrap(),
        "wall time adds up"
    );
    check_archive(&out, 4);
    check_report(&out, &s);

    let missing = scratch("resume-missing");
    let err = resume_err(&missing, &[]);
    assert!(err.contains("summary.json"), "{err}");
}

/// The processes `pid` has started (every thread's children, from /proc).
fn child_pids(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(c) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(c.split_whitespace().filter_map(|p| p.parse::<u32>().ok()));
            }
        }
    }
    out
}

#[test]
fn a_killed_runner_resumes_from_its_last_finished_game() {
    let out = scratch("killed");
    let mut child = Command::new(AAMIR)
        .args(match_args(
            // The fake thinks 0.2 s a move, so six games take seconds and
            // the kill lands part way through.
            &[
                simple_engine("random"),
                fake("fake", "--seed 12 --delay 0.2"),
            ],
            &["--tc", "1s/2s", "--games", "6", "--max-turns", "6"],
            &out,
        ))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The summary is rewritten after every game: wait for two.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let played = std::fs::read_to_string(out.join("summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["played"].as_u64())
            .unwrap_or(0);
        if played >= 2 {
            break;
        }
        assert!(Instant::now() < until, "no summary after two games");
        std::thread::sleep(Duration::from_millis(20));
    }
    // No clean stop: SIGKILL, as when a machine goes down. The engines run
    // in their own process groups and would outlive the runner (AEI's
    // simple_engine then spins on its closed input), so they go too.
    let engines = child_pids(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    for pid in engines {
        // SAFETY: signalling process groups our child started.
        unsafe {
            libc::killpg(pid as libc::pid_t, libc::SIGKILL);
        }
    }
    let before = summary(&out);
    let kept = games(&before).clone();
    assert_eq!(before["status"], "interrupted");
    assert!((2..6).contains(&kept.len()), "{} games kept", kept.len());
    let s = resume_ok(&out, &[]);
    assert_eq!(s["status"], "complete");
    let n = s["played"].as_u64().unwrap() as usize;
    assert_eq!(ids(&s), (1..=n as u64).collect::<Vec<_>>());
    assert_eq!(games(&s)[..kept.len()], kept[..]);
    check_archive(&out, n);
}

#[test]
fn shards_merge_into_the_whole_match() {
    let engines = [simple_engine("random"), fake("fake", "--seed 3")];
    let shards = run_shards("shard", &engines, "--tc 1s/2s --games 6 --max-turns 4");
    let mut ids: Vec<u64> = shards
        .iter()
        .flat_map(|(_, s)| games(s).iter().map(|g| g["id"].as_u64().unwrap()))
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        vec![1, 2, 3, 4, 5, 6],
        "each game in exactly one shard"
    );

    let merged = scratch("merged");
    let summaries: Vec<PathBuf> = shards.iter().map(|(p, _)| p.join("summary.json")).collect();
    let (ok, _, err) = merge(&merged, &summaries);
    assert!(ok, "{err}");
    let m = summary(&merged);
    assert_eq!(m["status"], "complete");
    assert_eq!(m["played"], 6);
    let p = &m["pairings"][0];
    assert_eq!(
        p["first_wins"].as_u64().unwrap() + p["second_wins"].as_u64().unwrap(),
        6
    );
    let wins_random = games(&m).iter().filter(|g| {
        let w = if g["winner"] == "gold" {
            &g["gold"]
        } else {
            &g["silver"]
        };
        w == "random"
    });
    assert_eq!(
        wins_random.count() as u64,
        p["first_wins"].as_u64().unwrap()
    );
    // Colours as the unsharded schedule has them: odd ids give random gold.
    for g in games(&m) {
        let odd = g["id"].as_u64().unwrap() % 2 == 1;
        assert_eq!(g["gold"] == "random", odd, "game {}", g["id"]);
    }
    check_archive(&merged, 6);
    check_report(&merged, &m);

    // The same shard twice is refused.
    let again = scratch("merged-again");
    let first = &shards[0].0;
    let (ok, _, err) = merge(&again, &[first.clone(), first.clone()]);
    assert!(!ok);
    assert!(err.contains("twice"), "{err}");
}

#[test]
fn openings_are_played_from_both_sides() {
    let out = scratch("openings");
    let path = scratch("openings-file").join("openings.txt");
    let o1 = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2\\n1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7";
    let o2 = "1g Ea1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ra2 Hb2 Cc2 Dd2 Me2 Cf2 Hg2 Dh2\\n1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7\\n2g Me2n";
    std::fs::write(&path, format!("# test openings\n{o1}\n{o2}\n")).unwrap();
    let s = run_ok(
        &[simple_engine("random"), fake("fake", "--seed 5")],
        &argv(
            "--tc 1s/2s --games 4 --max-turns 4 --openings {}",
            &[path.to_str().unwrap()],
        ),
        &out,
    );
    let gs = games(&s);
    let first_moves = |g: &Value, n: usize| -> Vec<String> {
        g["moves"].as_array().unwrap()[..n]
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(gs[0]["opening"], 0);
    assert_eq!(gs[1]["opening"], 0);
    assert_eq!(gs[2]["opening"], 1);
    assert_eq!(first_moves(&gs[0], 2), first_moves(&gs[1], 2));
    assert_eq!(first_moves(&gs[2], 3), first_moves(&gs[3], 3));
    assert_eq!(first_moves(&gs[2], 3)[2], "Me2n");
    assert_ne!(gs[0]["gold"], gs[1]["gold"], "colours swap within a pair");
    // Opening moves carry no clock.
    assert!(gs[2]["moves"][2]["used"].is_null());
    check_archive(&out, 4);
    // Extending needs the same openings, else the schedule would differ.
    std::fs::write(&path, format!("{o2}\n{o1}\n")).unwrap();
    let err = resume_err(&out, &["--games", "6"]);
    assert!(err.contains("changed since the match began"), "{err}");
    assert_eq!(summary(&out)["played"], 4);
}

#[test]
fn a_broken_engine_stops_the_match_before_it_starts() {
    let out = scratch("preflight");
    // The healthy engine is aamir itself: a Python engine's start can
    // take longer than the short timeout on a loaded machine.
    let (ok, _, err) = aamir(&match_args(
        &[
            "name=aamir".to_string(),
            fake("mute", "--fault handshakehang"),
        ],
        &["--tc", "1s/2s", "--ready-timeout", "0.5"],
        &out,
    ));
    assert!(!ok);
    assert!(
        err.contains("engine mute is not ready") && err.contains("aeiok"),
        "{err}"
    );

    let (ok, _, err) = aamir(&match_args(
        &[
            simple_engine("random"),
            "name=ghost,cmd=/nonexistent/engine".to_string(),
        ],
        &["--tc", "1s/2s"],
        &out,
    ));
    assert!(!ok);
    assert!(
        err.contains("could not start `/nonexistent/engine`"),
        "{err}"
    );
    // Nothing bounds a game's length: said before anything else.
    assert!(err.contains("can go on without end"), "{err}");
    for bounded in [
        vec!["--tc", "1s/2s", "--max-turns", "40"],
        vec!["--tc", "1s/2s/100/0/10m"],
    ] {
        let (_, _, err) = aamir(&match_args(
            &[
                simple_engine("random"),
                "name=ghost,cmd=/nonexistent/engine".to_string(),
            ],
            &bounded,
            &out,
        ));
        assert!(
            err.contains("could not start") && !err.contains("without end"),
            "{bounded:?}: {err}"
        );
    }

    // Bad settings are named.
    for (extra, want) in [
        (vec!["--tc", "1q/2s"], "1q"),
        (vec!["--tc", "0/0"], "no limit"),
        (vec!["--tc", "1s/2s", "--shard", "3/2"], "shard"),
        (vec!["--tc", "1s/2s", "--mode", "swiss"], "swiss"),
    ] {
        let (ok, _, err) = aamir(&match_args(
            &[simple_engine("a"), simple_engine("b")],
            &extra,
            &out,
        ));
        assert!(!ok, "{extra:?}");
        assert!(err.contains(want), "{extra:?}: {err}");
    }
}

#[test]
fn ctrl_c_stops_cleanly_and_keeps_the_finished_games() {
    let out = scratch("ctrlc");
    let mut child = Command::new(AAMIR)
        .args(match_args(
            &[simple_engine("random"), fake("fake", "--seed 11")],
            &["--tc", "1s/2s", "--games", "500"],
            &out,
        ))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let tsv = out.join("games.tsv");
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let rows = std::fs::read_to_string(&tsv)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if rows >= 3 {
            break;
        }
        assert!(Instant::now() < until, "no games finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let until = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(Instant::now() < until, "aamir match did not stop on Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!status.success(), "an interrupted match exits with failure");
    let s = summary(&out);
    assert_eq!(s["status"], "interrupted");
    let played = s["played"].as_u64().unwrap();
    assert!((2..500).contains(&played), "played {played}");
    check_archive(&out, played as usize);
}

/// The notes of `kind` the summary holds about `engine`.
fn notes(s: &Value, engine: &str, kind: &str) -> Vec<String> {
    s["notes"]
        .as_array()
        .expect("notes array")
        .iter()
        .filter(|n| n["engine"] == engine && n["kind"] == kind)
        .map(|n| n["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn older_bots_that_roundrobin_plays_are_played_with_their_clock() {
    // Like akimot (no protocol-version line), like Yeti (a log line
    // before it), and a pre-2009 clock that only reads wreserve/breserve
    // and exits if they are missing or wrong.
    let out = scratch("older");
    let engines = [
        "name=aamir,option.depth=1".to_string(),
        fake("noversion", "--handshake noversion --seed 1"),
        fake("logfirst", "--handshake logfirst --seed 2"),
        fake("oldclock", "--handshake noversion --old-clock --seed 3"),
    ];
    let args = match_args(
        &engines,
        &words("--mode gauntlet --tc 1s/3s/100/3s --games 2 --max-turns 8 --concurrency 3"),
        &out,
    );
    let (ok, _, err) = aamir(&args);
    assert!(ok, "aamir match failed:\n{err}");
    let s = summary(&out);
    assert_eq!(s["status"], "complete");
    assert_eq!(s["played"], 6);
    for g in games(&s) {
        assert!(g["fault"].is_null(), "game {}: {}", g["id"], g["detail"]);
        assert_ne!(g["termination"], "time", "game {}", g["id"]);
    }
    // What a strict controller would refuse is told and recorded.
    for (engine, want) in [
        ("noversion", "no `protocol-version 1` line"),
        ("oldclock", "no `protocol-version 1` line"),
        ("logfirst", "not the first line"),
    ] {
        let n = notes(&s, engine, "handshake");
        assert!(n.iter().any(|t| t.contains(want)), "{engine}: {n:?}");
        assert!(
            err.contains(&format!("warning: engine {engine}: ")),
            "{engine}: {err}"
        );
    }
    assert!(notes(&s, "aamir", "handshake").is_empty());
    // The old clock thought for half the reserve it was told before each
    // move (the reserve after its previous move, in whole seconds): it was
    // told, and told right, or it would have exited.
    let mut checked = 0;
    for g in games(&s)
        .iter()
        .filter(|g| g["gold"] == "oldclock" || g["silver"] == "oldclock")
    {
        let side = if g["gold"] == "oldclock" { "g" } else { "s" };
        let mut reserve = 3.0f64;
        for m in g["moves"].as_array().unwrap() {
            let label = m["label"].as_str().unwrap();
            if !label.ends_with(side) {
                continue;
            }
            let used = m["used"].as_f64().unwrap();
            if !label.starts_with("1") {
                assert!(
                    used >= reserve.floor() / 2.0,
                    "game {} {label}: used {used} with {reserve} s reserve",
                    g["id"]
                );
                checked += 1;
            }
            reserve = m["reserve"].as_f64().unwrap();
        }
    }
    assert!(checked >= 6, "only {checked} moves of the old clock");
    check_archive(&out, 6);
}

#[test]
fn options_an_engine_complains_about_are_told_before_the_first_game() {
    let out = scratch("badoption");
    let engines = [
        "name=aamir,option.depth=1,option.hsah=64".to_string(),
        fake("strict", "--strict-options --seed 4").replace(
            "name=strict,",
            "name=strict,option.depth=deep,option.depth=2,",
        ),
    ];
    let (ok, stdout, err) = aamir(&match_args(
        &engines,
        &["--tc", "1s/2s", "--games", "1", "--max-turns", "3"],
        &out,
    ));
    assert!(ok, "{err}");
    let s = summary(&out);
    let a = notes(&s, "aamir", "option");
    assert_eq!(a.len(), 1, "{a:?}");
    assert!(
        a[0].starts_with("option.hsah=64: ") && a[0].contains("log "),
        "{a:?}"
    );
    let f = notes(&s, "strict", "option");
    assert_eq!(f.len(), 1, "only the bad depth: {f:?}");
    assert!(
        f[0].contains("option.depth=deep") && f[0].contains("log Error"),
        "{f:?}"
    );
    // On stderr, before the first game's line.
    let warn = err
        .find("warning: engine aamir: option.hsah=64")
        .expect(&err);
    let warn2 = err
        .find("warning: engine strict: option.depth=deep")
        .expect(&err);
    let game = err.find("game 1:").expect(&err);
    assert!(warn < game && warn2 < game, "{err}");
    assert!(
        stdout.contains("option.hsah=64"),
        "the final report repeats it: {stdout}"
    );
}

#[test]
fn the_help_says_tc_is_required() {
    let (_, help, _) = aamir(&["match", "--help"]);
    let tc = &help[help.find("--tc").expect(&help)..];
    let tc = &tc[..tc.find("\n  -").unwrap_or(tc.len())];
    assert!(tc.contains("required"), "{tc}");
}

#[test]
fn settings_are_checked_before_the_length_warning() {
    let out = scratch("cli-order");
    let (ok, _, err) = aamir(&match_args(
        &["name=alone".to_string()],
        &["--tc", "1s/2s"],
        &out,
    ));
    assert!(!ok);
    assert!(err.contains("two engines"), "{err}");
    assert!(
        !err.contains("without end"),
        "warned before the error: {err}"
    );
}

#[test]
fn the_length_warning_is_one_clean_sentence() {
    let out = scratch("cli-warning");
    let (_, _, err) = aamir(&match_args(
        &[
            simple_engine("random"),
            "name=ghost,cmd=/nonexistent/engine".to_string(),
        ],
        &["--tc", "1s/2s"],
        &out,
    ));
    assert!(
        err.contains(
            "warning: no --max-turns and no game total or turn limit in --tc: a game in a blocked position can go on without end\n"
        ),
        "{err}"
    );
}

/// Pairs the candidates' games of a gauntlet by round, as the summary
/// should: (first won, second won) for every round both played.
fn pairs_by_round(s: &Value, first: &str, second: &str) -> Vec<(bool, bool)> {
    let won = |name: &str| -> std::collections::BTreeMap<u64, bool> {
        games(s)
            .iter()
            .filter(|g| g["gold"] == name || g["silver"] == name)
            .map(|g| {
                let side = g["winner"].as_str().unwrap();
                (g["round"].as_u64().unwrap(), g[side] == name)
            })
            .collect()
    };
    let (a, b) = (won(first), won(second));
    a.iter()
        .filter_map(|(r, &x)| b.get(r).map(|&y| (x, y)))
        .collect()
}

#[test]
fn a_gauntlet_pairs_its_candidates_and_tests_their_difference() {
    let out = scratch("paired");
    // `good` plays at random; `bad` plays an illegal first move every
    // game, so it loses every game and only `good` can win a pair: the
    // SPRT on the difference accepts H1 (100 Elo) at the 12th pair `good`
    // won alone (LLR 2.96 >= ln 19), however many pairs both lost.
    let s = run_ok(
        &[
            simple_engine("ref"),
            fake("good", "--seed 21"),
            fake("bad", "--fault illegal --at 1"),
        ],
        &words(
            "--mode gauntlet --tc 1s/2s --max-turns 4 --games 400 --concurrency 2 --sprt 0 100 0.05 0.05",
        ),
        &out,
    );
    assert_eq!(s["status"], "sprt");
    let p = &s["paired"][0];
    assert_eq!(
        (p["first"].as_str(), p["second"].as_str()),
        (Some("good"), Some("bad"))
    );
    assert_eq!(p["reference"], "ref");
    assert_eq!(p["sprt"]["decision"], "h1");
    let c = &p["counts"];
    assert_eq!(c["first_only"], 12, "{p}");
    assert_eq!(c["second_only"], 0);
    assert_eq!(c["both_won"], 0);
    // The counts are the games' own, paired by round (same opening, same
    // colours).
    let pairs = pairs_by_round(&s, "good", "bad");
    let count = |want: (bool, bool)| pairs.iter().filter(|&&x| x == want).count() as u64;
    assert_eq!(c["first_only"].as_u64(), Some(count((true, false))));
    assert_eq!(c["both_lost"].as_u64(), Some(count((false, false))));
    assert_eq!(p["pairs"].as_u64(), Some(pairs.len() as u64));
    // Paired games share colours: the reference has the same side in both.
    for g in games(&s) {
        let round = g["round"].as_u64().unwrap();
        assert_eq!(g["gold"] == "ref", round % 2 == 0, "game {}", g["id"]);
    }
    // McNemar's z for 12 to 0.
    assert!((p["z"].as_f64().unwrap() - 12f64.sqrt()).abs() < 1e-9);
    let text = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(figure(&text, "q0.first_only"), "12");
    assert_eq!(figure(&text, "q0.second_only"), "0");
    check_report(&out, &s);

    // One scale over the match: `bad` lost every game, a bound below.
    let (ok, table, err) = aamir(&argv(
        "match rate --anchor ref {}",
        &[out.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let bad = table.lines().find(|l| l.starts_with("bad")).unwrap();
    assert!(bad.contains(" <-"), "{table}");
    let good = table.lines().find(|l| l.starts_with("good")).unwrap();
    assert!(good.contains('\u{b1}'), "{table}");
}

#[test]
fn the_sprt_needs_two_engines_or_two_candidates() {
    let out = scratch("paired-sprt-bad");
    let (ok, _, err) = aamir(&match_args(
        &[
            simple_engine("ref"),
            fake("a", "--seed 1"),
            fake("b", "--seed 2"),
            fake("c", "--seed 3"),
        ],
        &[
            "--mode", "gauntlet", "--tc", "1s/2s", "--sprt", "0", "10", "0.05", "0.05",
        ],
        &out,
    ));
    assert!(!ok);
    assert!(err.contains("exactly two candidates"), "{err}");
    assert!(!out.join("summary.json").exists(), "nothing was played");
}

#[test]
fn a_sharded_gauntlet_merges_into_the_same_pairs() {
    let engines = [
        simple_engine("ref"),
        fake("x", "--seed 31"),
        fake("y", "--seed 32"),
    ];
    let shards = run_shards(
        "paired-shard",
        &engines,
        "--mode gauntlet --tc 1s/2s --games 8 --max-turns 4",
    );
    for (i, (_, s)) in shards.iter().enumerate() {
        // Each shard holds whole pairs: both candidates' games of a round.
        let pairs = pairs_by_round(s, "x", "y");
        let i = i + 1;
        assert_eq!(pairs.len() * 2, games(s).len(), "shard {i} split a pair");
    }
    let merged = scratch("paired-merged");
    let folders: Vec<PathBuf> = shards.into_iter().map(|(p, _)| p).collect();
    let (ok, stdout, err) = merge(&merged, &folders);
    assert!(ok, "{err}");
    let m = summary(&merged);
    assert_eq!(m["played"], 16);
    let p = &m["paired"][0];
    assert_eq!(p["pairs"], 8);
    let pairs = pairs_by_round(&m, "x", "y");
    let count = |want: (bool, bool)| pairs.iter().filter(|&&x| x == want).count() as u64;
    let c = &p["counts"];
    assert_eq!(c["both_won"].as_u64(), Some(count((true, true))));
    assert_eq!(c["first_only"].as_u64(), Some(count((true, false))));
    assert_eq!(c["second_only"].as_u64(), Some(count((false, true))));
    assert_eq!(c["both_lost"].as_u64(), Some(count((false, false))));
    assert!(
        stdout.contains("paired, on the same openings and colours"),
        "{stdout}"
    );
}

/// One row of `scripts/arms_table.py`'s table, split into its cells.
fn arms_row(table: &str, arm: &str) -> Vec<String> {
    let row = table
        .lines()
        .find(|l| l.starts_with(&format!("| {arm} |")))
        .unwrap_or_else(|| panic!("no row for {arm}:\n{table}"));
    row.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn the_arms_table_signs_every_arm_against_its_base() {
    let out = scratch("arms-table");
    // `bad` loses every game, so against it as the base every arm can only
    // gain; `bad` sits between the other two candidates, so the summary
    // holds one pair with the base second (good, bad) and one with it
    // first (bad, mid), and the script must sign both arm minus base.
    let s = run_ok(
        &[
            simple_engine("ref"),
            fake("good", "--seed 41"),
            fake("bad", "--fault illegal --at 1"),
            fake("mid", "--seed 42"),
        ],
        &words("--mode gauntlet --tc 1s/2s --max-turns 4 --games 12 --concurrency 2"),
        &out,
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/arms_table.py");
    let run = |extra: &[&str]| {
        let o = Command::new(venv().join("bin/python"))
            .arg(&script)
            .arg(out.join("summary.json"))
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        (
            o.status.success(),
            text,
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (ok, table, err) = run(&["bad"]);
    assert!(ok, "{err}");
    for arm in ["good", "mid"] {
        let pairs = pairs_by_round(&s, arm, "bad");
        let count = |want: (bool, bool)| pairs.iter().filter(|&&x| x == want).count();
        let row = arms_row(&table, arm);
        // arm, score, pairs, both won, only arm, only base, both lost, diff, Elo, z, p
        assert_eq!(row[2], pairs.len().to_string(), "{table}");
        assert_eq!(row[4], count((true, false)).to_string(), "{arm}: {table}");
        assert_eq!(row[5], "0", "{arm}: {table}");
        let z: f64 = row[9].parse().unwrap();
        let wins = count((true, false)) as f64;
        assert!(
            (z - wins.sqrt()).abs() < 0.01,
            "{arm}: z {z} for {wins} to 0"
        );
        assert!(!row[7].starts_with('-'), "{arm}: {table}");
    }
    assert!(!table.contains("| bad |"), "the base has no row: {table}");
    // By default the base is the first candidate: `bad` is then an arm
    // that only loses.
    let (ok, table, err) = run(&[]);
    assert!(ok, "{err}");
    assert!(table.starts_with("base `good`"), "{table}");
    let row = arms_row(&table, "bad");
    assert_eq!(row[4], "0", "{table}");
    assert!(row[9] == "+0.00" || row[9].starts_with('-'), "{table}");
    // A base that is no candidate is named in the error.
    let (ok, _, err) = run(&["nobody"]);
    assert!(!ok);
    assert!(err.contains("no candidate 'nobody'"), "{err}");
}
