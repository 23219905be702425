//! Replays every transcript in `aei-examples/` through the real binary, as
//! a newcomer piping it in would, and checks the answers: the handshake,
//! one legal `bestmove` per `go` in the position the controller had set up
//! by then, the errors and warnings each file is meant to produce, and the
//! exit status.

mod aei_common;
mod pyenv;

use aamir::aei::protocol::{Command, parse_command};
use aamir::board::{Game, Phase};
use aei_common::*;
use std::path::{Path, PathBuf};

/// Per file: exit success, `log Error` lines, `log Warning` lines.
const EXPECTED: &[(&str, bool, usize, usize)] = &[
    ("handshake.aei", true, 0, 0),
    ("analyse.aei", true, 0, 0),
    ("blitz.aei", true, 0, 0),
    ("game.aei", true, 0, 0),
    ("bad-input.aei", true, 11, 2),
    ("unknown-message.aei", false, 1, 0),
];

/// The games each answered `go` of the transcript was asked in.
fn asked_positions(input: &str) -> Vec<Game> {
    let mut game = new_game();
    let mut asked = Vec::new();
    for line in input.lines() {
        match parse_command(line) {
            Ok(Command::NewGame) => game = new_game(),
            Ok(Command::SetPosition(pos)) => {
                game = Game::from_position(pos, 2);
                game.set_allow_handicap(true);
            }
            Ok(Command::MakeMove(mv)) => {
                // Illegal ones are meant to be refused: the game stays.
                let _ = game.play(&mv);
            }
            Ok(Command::Go { ponder: false }) if game.outcome().is_none() => {
                asked.push(game.clone())
            }
            Err(e) if e.is_fatal() => break,
            _ => {}
        }
    }
    asked
}

#[test]
fn every_transcript_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("aei-examples");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".aei"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|e| e.0.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every transcript has its expectations here");

    for &(name, success, errors, warnings) in EXPECTED {
        let input = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut e = Engine::spawn(&[]);
        for line in input.lines() {
            e.send(line);
        }
        e.close_input();
        let out = e.quiet(30.0);
        let status = e.wait_exit(10.0).expect("the engine exits");
        assert_eq!(status.success(), success, "{name}: {status:?}\n{out:#?}");
        assert_eq!(out[0], "protocol-version 1", "{name}");
        assert!(out.iter().any(|l| l == "aeiok"), "{name}");
        let count = |p: &str| out.iter().filter(|l| l.starts_with(p)).count();
        assert_eq!(count("log Error: "), errors, "{name}:\n{out:#?}");
        assert_eq!(count("log Warning: "), warnings, "{name}:\n{out:#?}");
        let answers = bestmoves(&out);
        let asked = asked_positions(&input);
        assert_eq!(
            answers.len(),
            asked.len(),
            "{name}: one answer per `go`\n{out:#?}"
        );
        for (game, mv) in asked.iter().zip(&answers) {
            assert_legal(game, mv);
            if let Phase::Setup(c) = game.phase() {
                let mut g = game.clone();
                g.play(mv).unwrap();
                assert_eq!(g.position().occupied_by(c).count(), 16, "{name}: {mv}");
            }
        }
    }
}

/// Runs one of AEI's tools (from the venv) on a file of `aei-examples/`
/// exactly as its header says: from a folder laid out like the repository
/// root (`target/release/aamir` being the binary under test), with the
/// venv's `bin` first on the PATH. Killed past `limit`.
fn run_aei_tool(tool: &str, args: &[&str], limit: std::time::Duration) -> (bool, String, PathBuf) {
    use std::process::{Command, Stdio};
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("aei-examples");
    let root = std::env::temp_dir().join(format!("aamir-{tool}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_aamir"),
        root.join("target/release/aamir"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&examples, root.join("aei-examples")).unwrap();
    let bin = pyenv::venv().join("bin");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let start = std::time::Instant::now();
    let mut child = Command::new(bin.join(tool))
        .args(args)
        .current_dir(&root)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{tool} did not finish by itself within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{tool} took {:?}", start.elapsed());
    (out.status.success(), text, root)
}

#[test]
fn the_analyze_configuration_finishes_by_itself() {
    let (ok, out, root) = run_aei_tool(
        "analyze",
        &[
            "--config",
            "aei-examples/analyze.cfg",
            "aei-examples/short-game.txt",
            "4w",
        ],
        std::time::Duration::from_secs(120),
    );
    assert!(ok, "{out}");
    let best: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove: "))
        .collect();
    assert_eq!(best.len(), 1, "{out}");
    // Legal in the game before 4w, and searched to the configured depth.
    let text = std::fs::read_to_string(root.join("aei-examples/short-game.txt")).unwrap();
    let mut game = new_game();
    for line in text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    {
        let (label, mv) = line.split_once(' ').unwrap();
        if label == "4w" {
            break;
        }
        game.play(mv).unwrap();
    }
    assert_eq!(game.label(), "4g");
    game.play(best[0]).unwrap();
    assert!(out.contains("depth 8"), "{out}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn the_roundrobin_configuration_plays_its_games() {
    let (ok, out, root) = run_aei_tool(
        "roundrobin",
        &["--config", "aei-examples/roundrobin.cfg"],
        std::time::Duration::from_secs(240),
    );
    assert!(ok, "{out}");
    let pgn = std::fs::read_to_string(root.join("roundrobin-games.pgn")).unwrap();
    assert_eq!(pgn.matches("[ResultCode").count(), 2, "{pgn}");
    // aamir beats the random mover both times, with no timeout.
    assert!(out.contains("aamir has 2 wins and 0 timeouts"), "{out}");
    let _ = std::fs::remove_dir_all(root);
}
