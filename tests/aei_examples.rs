//! Replays every transcript in `aei-examples/` through the real binary, as
//! a newcomer piping it in would, and checks the answers: the handshake,
//! one legal `bestmove` per `go` in the position the controller had set up
//! by then, the errors and warnings each file is meant to produce, and the
//! exit status.

mod aei_common;

use aamir::aei::protocol::{Command, parse_command};
use aamir::board::{Game, Phase};
use aei_common::*;
use std::path::Path;

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
