//! `aamir serve` over HTTP, as the real binary: the API plays a game by
//! the rules, and every bad request (bad JSON, an illegal step, an unknown
//! game, a path outside the given files, an oversized body, a bad escape)
//! gets a 4xx that says what was wrong and changes nothing. A closed or
//! silent tab frees its search; two games do not mix; a saved game is a
//! record `aamir analyze --game` reads; a running `aamir match` shows its
//! games in progress.

mod serve_kit;

use serde_json::Value;
use serve_kit::{AAMIR, Server, enc, fixtures, scratch};
use std::process::Command;
use std::time::{Duration, Instant};

fn new_game(s: &Server, body: &str) -> Value {
    s.ok("POST", "/api/play", Some(body))
}

/// Sets up with the default layout; the state once it is the player's
/// turn to move.
fn set_up(s: &Server, g: &Value) -> Value {
    let id = g["id"].as_str().unwrap();
    let setup = g["setup_default"].as_str().unwrap();
    let body = serde_json::json!({ "setup": setup }).to_string();
    s.ok("POST", &format!("/api/play/{id}/setup"), Some(&body));
    wait_until(s, id, |v| v["your_turn"] == true && v["phase"] == "play")
}

fn wait_until(s: &Server, id: &str, what: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    let mut v = s.ok("GET", &format!("/api/play/{id}"), None);
    while !what(&v) {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out: {v}");
        v = s.ok(
            "GET",
            &format!("/api/play/{id}?since={}", v["version"]),
            None,
        );
    }
    v
}

fn searching(s: &Server) -> u64 {
    s.ok("GET", "/api/info", None)["searching"]
        .as_u64()
        .unwrap()
}

#[test]
fn bad_requests_get_a_4xx_naming_the_fault_and_change_nothing() {
    let dir = fixtures("api-bad");
    let records = dir.join("records");
    let s = Server::start(&["--games", records.to_str().unwrap()]);
    let g = new_game(&s, r#"{"color":"gold","depth":1}"#);
    let id = g["id"].as_str().unwrap().to_string();
    let v = set_up(&s, &g);
    let step = format!("/api/play/{id}/step");

    // Bad JSON, missing and unknown fields, the wrong types.
    let e = s.refused("POST", &step, Some(r#"{"from":"a2","#), 400);
    assert!(e.contains("bad JSON"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"a2"}"#), 400);
    assert!(e.contains("`to`"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"a2","to":"a3","x":1}"#), 400);
    assert!(e.contains("unknown field"), "{e}");
    let e = s.refused("POST", "/api/play", Some(r#"{"color":7}"#), 400);
    assert!(e.contains("bad JSON"), "{e}");
    let e = s.refused("POST", "/api/play", Some(r#"{"color":"blue"}"#), 400);
    assert!(e.contains("blue"), "{e}");
    let e = s.refused(
        "POST",
        "/api/play",
        Some(r#"{"color":"gold","depth":999}"#),
        400,
    );
    assert!(e.contains("depth 999"), "{e}");

    // Illegal steps, each with the rules' reason.
    let e = s.refused("POST", &step, Some(r#"{"from":"z9","to":"a3"}"#), 400);
    assert!(e.contains("`z9` is not a square"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"a2","to":"a4"}"#), 400);
    assert!(e.contains("not next to each other"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"d4","to":"d5"}"#), 400);
    assert!(e.contains("no piece on d4"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"a1","to":"a2"}"#), 400);
    assert!(e.contains("occupied"), "{e}");
    let e = s.refused("POST", &step, Some(r#"{"from":"a7","to":"a6"}"#), 400);
    assert!(e.contains("push"), "an enemy piece with no pusher: {e}");
    let e = s.refused("POST", &format!("/api/play/{id}/end"), None, 400);
    assert!(e.contains("at least one step"), "{e}");
    let e = s.refused("POST", &format!("/api/play/{id}/undo"), None, 409);
    assert!(e.contains("no step to undo"), "{e}");
    let e = s.refused(
        "POST",
        &format!("/api/play/{id}/setup"),
        Some(r#"{"setup":"Ra1"}"#),
        409,
    );
    assert!(e.contains("not your setup"), "{e}");
    let after = s.ok("GET", &format!("/api/play/{id}"), None);
    assert_eq!(after["version"], v["version"], "nothing changed");
    assert_eq!(after["board"], v["board"]);

    // Unknown games, actions and routes; methods not served.
    let e = s.refused("GET", "/api/play/nope", None, 404);
    assert!(e.contains("no game `nope`"), "{e}");
    s.refused(
        "POST",
        "/api/play/nope/step",
        Some(r#"{"from":"a2","to":"a3"}"#),
        404,
    );
    s.refused("POST", &format!("/api/play/{id}/fly"), None, 404);
    s.refused("GET", "/api/nothing", None, 404);
    s.refused("DELETE", "/api/play", None, 405);
    s.refused("GET", "/api/analysis/a42", None, 404);

    // Paths outside the given folder, however spelt.
    let inside = records.join("short-game.txt");
    let ok = s.ok(
        "GET",
        &format!("/api/record?path={}", enc(inside.to_str().unwrap())),
        None,
    );
    assert_eq!(ok["moves"].as_array().unwrap().len(), 8);
    for outside in [
        "/etc/passwd".to_string(),
        format!("{}/../../../../etc/passwd", records.display()),
        format!("{}/../match/games.tsv", records.display()),
    ] {
        let e = s.refused(
            "GET",
            &format!("/api/record?path={}", enc(&outside)),
            None,
            403,
        );
        assert!(e.contains("outside the files"), "{e}");
    }
    let e = s.refused(
        "GET",
        "/api/record?path=%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        None,
        403,
    );
    assert!(
        e.contains("outside the files"),
        "relative to the server's folder: {e}"
    );
    let missing = records.join("missing.tsv");
    let e = s.refused(
        "GET",
        &format!("/api/record?path={}", enc(missing.to_str().unwrap())),
        None,
        404,
    );
    assert!(e.contains("no such file"), "{e}");
    let e = s.refused("GET", "/api/record?path=%zz", None, 400);
    assert!(e.contains("escape"), "{e}");
    let e = s.refused("GET", "/api/record", None, 400);
    assert!(e.contains("`path`"), "{e}");
    let two = records.join("two.tsv");
    let e = s.refused(
        "GET",
        &format!("/api/record?path={}", enc(two.to_str().unwrap())),
        None,
        400,
    );
    assert!(e.contains("pick one"), "{e}");
    let e = s.refused(
        "GET",
        &format!("/api/record?path={}&id=1", enc(two.to_str().unwrap())),
        None,
        400,
    );
    assert!(e.contains("no game with id 1"), "{e}");
    let e = s.refused(
        "GET",
        &format!("/api/match?path={}", enc("/tmp")),
        None,
        403,
    );
    assert!(e.contains("outside"), "{e}");

    // Oversized bodies: by their length, and by what is sent.
    let big = format!(r#"{{"setup":"{}"}}"#, "R".repeat(70_000));
    let e = s.refused("POST", &format!("/api/play/{id}/setup"), Some(&big), 413);
    assert!(e.contains("over 65536 bytes"), "{e}");
    let lying = format!(
        "POST {step} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        s.addr,
        70_000,
        "x".repeat(70_000)
    );
    let (status, _) = s.raw(lying.as_bytes());
    assert_eq!(status, 413);
    // Requests another site's page could make: under a foreign Host (DNS
    // rebinding), or a body not declared JSON (a form, a beacon).
    let foreign = format!(
        "GET /api/games HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        s.addr.rsplit(':').next().unwrap()
    );
    let (status, text) = s.raw(foreign.as_bytes());
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("evil.example"), "{text}");
    let form = format!(
        "POST {step} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 23\r\n\r\n{{\"from\":\"a2\",\"to\":\"a3\"}}",
        s.addr
    );
    let (status, text) = s.raw(form.as_bytes());
    assert_eq!(status, 415, "{text}");
    assert!(text.contains("application/json"), "{text}");
    let after = s.ok("GET", &format!("/api/play/{id}"), None);
    assert_eq!(after["version"], v["version"], "still nothing changed");
    // The server is still there and still plays.
    let legal = &after["legal"][0];
    let body = serde_json::json!({ "from": legal[0], "to": legal[1] }).to_string();
    let v = s.ok("POST", &step, Some(&body));
    assert_eq!(v["steps_left"], 3);
}

#[test]
fn a_game_is_played_saved_and_read_back_and_two_games_do_not_mix() {
    let s = Server::start(&[]);
    let a = new_game(&s, r#"{"color":"gold","depth":2}"#);
    let b = new_game(&s, r#"{"color":"silver","depth":2}"#);
    assert_ne!(a["id"], b["id"]);
    let (ida, idb) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let va = set_up(&s, &a);
    // Silver's game: the engine set up gold's pieces already.
    assert_eq!(b["record"].as_array().unwrap().len(), 1);
    let vb = set_up(&s, &b);
    assert!(
        wait_until(&s, idb, |v| v["your_turn"] == true)["record"]
            .as_array()
            .unwrap()
            .len()
            == 3
    );
    for _ in 0..3 {
        let v = s.ok("GET", &format!("/api/play/{ida}"), None);
        let n = v["record"].as_array().unwrap().len();
        let legal = &v["legal"][0];
        let body = serde_json::json!({ "from": legal[0], "to": legal[1] }).to_string();
        s.ok("POST", &format!("/api/play/{ida}/step"), Some(&body));
        let v = s.ok("POST", &format!("/api/play/{ida}/end"), None);
        if v["phase"] == "over" {
            break;
        }
        let v = wait_until(&s, ida, |v| v["your_turn"] == true || v["phase"] == "over");
        assert_eq!(v["record"].as_array().unwrap().len(), n + 2);
        assert!(
            v["engine"]["pv"].as_str().is_some_and(|p| !p.is_empty()),
            "{v}"
        );
    }
    // Game b did not move meanwhile.
    let vb2 = s.ok("GET", &format!("/api/play/{idb}"), None);
    assert_eq!(vb2["record"], vb["record"]);
    assert_ne!(
        va["board"],
        s.ok("GET", &format!("/api/play/{ida}"), None)["board"]
    );

    let (status, text) = s.call("GET", &format!("/api/play/{ida}/record"), None);
    assert_eq!(status, 200);
    let file = scratch("api-saved").join("game.txt");
    std::fs::write(&file, &text).unwrap();
    let out = Command::new(AAMIR)
        .args([
            "analyze",
            "--game",
            file.to_str().unwrap(),
            "--depth",
            "2",
            "--hash",
            "4",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("bestmove") || stdout.contains("game over"),
        "{stdout}"
    );
}

#[test]
fn closed_and_silent_tabs_free_their_search() {
    let s = Server::start(&["--idle", "1"]);
    for close in [true, false] {
        let g = new_game(&s, r#"{"color":"silver","time":120}"#);
        let id = g["id"].as_str().unwrap().to_string();
        let body = serde_json::json!({ "setup": g["setup_default"] }).to_string();
        let v = s.ok("POST", &format!("/api/play/{id}/setup"), Some(&body));
        assert_eq!(v["engine"]["thinking"], true);
        assert_eq!(searching(&s), 1);
        // The search is shown as it goes: depth, score, its variation.
        let v = wait_until(&s, &id, |v| v["engine"]["depth"].as_u64() > Some(1));
        let pv = &v["engine"]["pv_turns"][0];
        assert!(pv.as_array().is_some_and(|t| !t.is_empty()), "{v}");
        assert!(!v["engine"]["pv"].as_str().unwrap().is_empty());
        if close {
            s.ok("POST", &format!("/api/play/{id}/close"), None);
        }
        // Silent: nobody asks; the idle time (1 s) closes it.
        let start = Instant::now();
        while searching(&s) > 0 {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the search went on"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let e = s.refused("GET", &format!("/api/play/{id}"), None, 404);
        assert!(e.contains("closed"), "{e}");
    }
    assert_eq!(s.ok("GET", "/api/info", None)["games_open"], 0);
}

#[test]
fn a_running_match_shows_its_games_in_progress() {
    let dir = scratch("api-match");
    let out = dir.join("m");
    let mut m = Command::new(AAMIR)
        .args([
            "match",
            "--engine",
            "name=a,option.depth=3,option.hash=4",
            "--engine",
            "name=b,option.depth=3,option.hash=4",
            "--tc",
            "1s/30s/100/30s",
            "--games",
            "2",
            "--concurrency",
            "1",
            "--max-turns",
            "30",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let s = Server::start(&["--games", dir.to_str().unwrap()]);
    let start = Instant::now();
    let mut seen_live = None;
    while m.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the match went on"
        );
        if out.join("live").is_dir() {
            let v = s.ok(
                "GET",
                &format!("/api/match?path={}", enc(out.to_str().unwrap())),
                None,
            );
            if let Some(g) = v["live"].as_array().and_then(|l| l.first())
                && g["label"] != "1g"
            {
                seen_live = Some(g.clone());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(m.wait().unwrap().success());
    let g = seen_live.expect("a game in progress was seen");
    let mut players = [g["gold"].as_str().unwrap(), g["silver"].as_str().unwrap()];
    players.sort();
    assert_eq!(players, ["a", "b"]);
    assert!(!g["board"].as_str().unwrap().trim().is_empty());
    let path = g["path"].as_str().unwrap();
    assert!(path.ends_with(".txt"), "{path}");
    let v = s.ok(
        "GET",
        &format!("/api/match?path={}", enc(out.to_str().unwrap())),
        None,
    );
    assert_eq!(
        v["live"].as_array().unwrap().len(),
        0,
        "finished games leave live/"
    );
    assert_eq!(v["finished"].as_array().unwrap().len(), 2);
    let games: u64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 4, "two games, two engines each");
    let listing = s.ok("GET", "/api/games", None);
    assert!(
        listing["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p.as_str().unwrap().ends_with("/m"))
    );
}
