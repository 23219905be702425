//! The command-line tools when their output cannot be written: a closed
//! pipe (`aamir replay FILE | head -1`) ends them quietly, as it ends Unix
//! tools; any other write failure (a full disk) ends them with one line on
//! stderr; neither is a panic. And a user's error prints its causes, never
//! a backtrace, whatever `RUST_BACKTRACE` says.

use std::process::{Command, Output, Stdio};

const OPENING: &str = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
const NEAR_GOAL: &str = "g [   r rrr  rC d  rh eR m     R                           R  EH   ]";

/// Every tool the tester found panicking, with arguments that make it
/// write several lines quickly.
fn tools() -> Vec<Vec<String>> {
    let data = |f: &str| format!("{}/tests/data/{f}", env!("CARGO_MANIFEST_DIR"));
    [
        vec!["replay".into(), data("games-2026-02.tsv")],
        vec!["bench".into(), "--depth".into(), "3".into()],
        vec![
            "bench".into(),
            "--variants".into(),
            "--depth".into(),
            "2".into(),
            "--positions".into(),
            "1".into(),
        ],
        vec![
            "analyze".into(),
            OPENING.into(),
            "--depth".into(),
            "3".into(),
        ],
        vec!["goal".into(), "--suite".into(), data("goal-positions.tsv")],
        vec!["goal".into(), "--first".into(), NEAR_GOAL.into()],
        vec!["capture".into(), NEAR_GOAL.into()],
        // A `dev` study (the test binary is built with that feature).
        vec!["capture".into(), "--random".into(), "50".into()],
        vec!["params".into()],
        vec!["movecount".into(), OPENING.into()],
    ]
    .into()
}

fn run(args: &[String], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aamir"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("running aamir")
}

#[test]
fn a_closed_pipe_ends_every_tool_quietly() {
    for args in tools() {
        // The reading end is closed before the tool starts, so its very
        // first write fails, however little it prints.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = run(&args, writer.into());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(141),
            "{args:?}: {:?}\n{err}",
            out.status
        );
        assert!(err.is_empty(), "{args:?} said: {err}");
    }
}

#[test]
fn a_full_disk_is_one_line_of_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    for args in tools() {
        let out = run(&args, full.try_clone().unwrap().into());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("writing the output failed") && err.contains("No space left"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn user_errors_print_their_causes_not_a_backtrace() {
    let out = run(
        &["replay".into(), "/no/such/archive.tsv".into()],
        Stdio::piped(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("Error: reading /no/such/archive.tsv"),
        "{err}"
    );
    assert!(
        err.contains("Caused by:") && err.contains("No such file"),
        "{err}"
    );
    assert!(!err.to_lowercase().contains("backtrace"), "{err}");
}

#[test]
fn a_bad_side_letter_is_named_not_taken_for_a_file() {
    let board = &OPENING[1..];
    for tool in ["movecount", "goal", "capture", "analyze"] {
        let out = run(&[tool.into(), format!("x{board}")], Stdio::piped());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool}: {err}");
        assert!(err.contains("`x`: not a side (g, s"), "{tool}: {err}");
        assert!(!err.contains("file"), "{tool}: {err}");
    }
}
