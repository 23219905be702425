//! `aamir analyze` on game records: a position of an arimaa.com archive
//! game or a movelist file (`--move`), and a whole game move by move with
//! the blunders (`--all`), on a short real game.

mod common;

use aamir::board::Game;
use aamir::board::record::parse_archive;
use common::cli::{aamir, argv, data, scratch};
use std::path::PathBuf;

fn archive() -> String {
    data("games-2026-02.tsv")
}

/// A short game of the archive (6 moves after the setups, resigned).
const SHORT: &str = "669225";

fn short_moves() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(archive()).unwrap();
    let games = parse_archive(&text).unwrap();
    games.into_iter().find(|g| g.id() == SHORT).unwrap().moves
}

/// The short game as a movelist file, as AEI's `analyze` reads one: a
/// title line, the moves, then the label of the move to find.
fn movelist_file(tag: &str) -> PathBuf {
    let path = scratch(tag).join("movelist.txt");
    let mut text = String::from("game 669225 from the February 2026 archive\n");
    for (label, mv) in short_moves() {
        text.push_str(&format!("{label} {mv}\n"));
    }
    text.push_str("5g\n");
    std::fs::write(&path, text).unwrap();
    path
}

/// The game before the move labelled `label`.
fn game_before(label: &str) -> Game {
    let mut g = Game::new();
    for (l, mv) in short_moves() {
        if l.replace('w', "g").replace('b', "s") == label {
            break;
        }
        g.play(&mv).unwrap();
    }
    g
}

#[test]
fn a_position_of_an_archive_game_and_of_a_movelist_file() {
    let (ok, from_archive, err) = aamir(&argv(
        "analyze --game {} --id {} --move 3s --depth 3",
        &[&archive(), SHORT],
    ));
    assert!(ok, "{err}");
    assert!(
        from_archive.starts_with("position before 3s:"),
        "{from_archive}"
    );
    let best = from_archive
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("{from_archive}"));
    game_before("3s").play(best).unwrap();
    // The same position from a movelist file (old labels allowed).
    let file = movelist_file("movelist");
    let (ok, from_file, err) = aamir(&argv(
        "analyze --game {} --move 3b --depth 3",
        &[file.to_str().unwrap()],
    ));
    assert!(ok, "{err}");
    let strip = |s: &str| -> Vec<String> {
        // Times and speeds differ between runs; the rest must not.
        s.lines()
            .map(|l| l.split(" time ").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(strip(&from_archive), strip(&from_file));
    // Without --move: the position the record ends on.
    let (ok, out, err) = aamir(&["analyze", "--game", file.to_str().unwrap(), "--depth", "2"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("position before 5g:"), "{out}");
}

#[test]
fn all_moves_with_aamir_s_choice_and_the_blunders() {
    let (ok, out, err) = aamir(&argv(
        "analyze --game {} --id {} --all --depth 4",
        &[&archive(), SHORT],
    ));
    assert!(ok, "{err}");
    let moves = short_moves();
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) && !l.contains(" moves;"))
        .collect();
    // One row per move after the two setups, in order.
    assert_eq!(rows.len(), moves.len() - 2, "{out}");
    let mut drops = Vec::new();
    for (row, (label, text)) in rows.iter().zip(&moves[2..]) {
        // The record's labels may be the old ones (`2w`), its moves in any
        // step order: the rows show the game's label and notation.
        let label = &label.replace('w', "g").replace('b', "s");
        let played = &game_before(label).play(text).unwrap().notation;
        assert!(row.starts_with(label.as_str()), "{row} / {label}");
        assert!(row.contains(played.as_str()), "{row} / {played}");
        // The columns after the move: score after it, aamir's move (or
        // `=`), aamir's score, the drop (and a mark).
        let rest: Vec<&str> = row[6 + played.len()..].split_whitespace().collect();
        let after: i32 = rest[0].parse().unwrap();
        let tail = &rest[rest.len()
            - if rest.last().unwrap().starts_with('?') {
                3
            } else {
                2
            }..];
        let score: i32 = tail[0].parse().unwrap();
        let drop: i32 = tail[1].parse().unwrap();
        if rest[1] == "=" {
            assert_eq!(drop, 0, "{row}");
        } else {
            assert_eq!(drop, (score - after).max(0), "{row}");
            // aamir's choice is a legal move in the position before.
            let choice = rest[1..rest.len() - tail.len()].join(" ");
            game_before(label).play(&choice).unwrap();
        }
        let mark = row.trim_end().ends_with('?');
        assert_eq!(mark, drop >= 100, "{row}");
        drops.push((label.clone(), drop));
    }
    // The blunder list: the moves that lost a rabbit or more, largest first.
    let list: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("blunders"))
        .skip(1)
        .collect();
    drops.sort_by_key(|d| std::cmp::Reverse(d.1));
    let expected: Vec<&(String, i32)> = drops.iter().filter(|d| d.1 >= 100).take(5).collect();
    assert_eq!(list.len(), expected.len(), "{out}");
    for (l, (label, drop)) in list.iter().zip(expected) {
        assert!(l.trim_start().starts_with(label.as_str()), "{l}");
        assert!(l.contains(&format!("drop {drop} ")), "{l}");
    }
}

#[test]
fn a_per_move_time_budget_applies_to_each_move() {
    let start = std::time::Instant::now();
    let (ok, out, err) = aamir(&argv(
        "analyze --game {} --id {} --all --time 0.1",
        &[&archive(), SHORT],
    ));
    assert!(ok, "{err}");
    assert!(out.contains("searched for 0.1 s"), "{out}");
    // 7 positions (6 moves and the last one's result) at 0.1 s each.
    let took = start.elapsed().as_secs_f64();
    assert!((0.7..10.0).contains(&took), "{took}");
}

#[test]
fn record_errors_name_what_is_wrong() {
    for (args, want) in [
        (
            vec!["--game", &archive(), "--all"][..].to_vec(),
            "pick one with --id",
        ),
        (vec!["--game", &archive(), "--id", "1"], "no game with id 1"),
        (
            vec!["--game", &archive(), "--id", SHORT, "--move", "9g"],
            "the game has no move 9g",
        ),
        (
            vec!["--game", &archive(), "--id", SHORT, "--move", "1s"],
            "silver is still to set up",
        ),
    ] {
        let mut all = vec!["analyze"];
        all.extend(args.iter().copied());
        let (ok, _, err) = aamir(&all);
        assert!(!ok && err.contains(want), "{args:?}: {err}");
    }
}

/// `aamir eval` on the short game before its move 3g, with `then` played
/// on top (`None`: nothing).
fn eval_before_3g(then: Option<&str>) -> (bool, String, String) {
    let archive = archive();
    let mut args = vec!["eval", "--game", &archive, "--id", SHORT, "--move", "3g"];
    if let Some(m) = then {
        args.extend(["--then", m]);
    }
    aamir(&args)
}

/// `aamir eval`: the terms of a game's position, before a move and after
/// moves played on top; an illegal `--then` move is refused by name.
#[test]
fn eval_prints_the_terms_and_their_total() {
    let (ok, out, err) = eval_before_3g(None);
    assert!(ok, "{err}");
    let game = game_before("3g");
    let score = aamir::eval::Evaluator::default().evaluate(game.position());
    assert!(out.contains("\nmaterial "), "{out}");
    // One line per term of the evaluation's list.
    for t in aamir::eval::TERMS {
        assert!(out.contains(&format!("\n{} ", t.name)), "{}: {out}", t.name);
    }
    assert!(
        out.contains(&format!("total {score} for gold to move (4 steps left)")),
        "{out}"
    );
    // The next move of the game played on top: silver to move.
    let next = short_moves()
        .into_iter()
        .find(|(l, _)| l.replace('w', "g") == "3g")
        .unwrap()
        .1;
    let (ok, out, err) = eval_before_3g(Some(&next));
    assert!(ok, "{err}");
    assert!(out.contains("for silver to move"), "{out}");
    let (ok, _, err) = eval_before_3g(Some("Ra1n Ra2n"));
    assert!(!ok);
    assert!(err.contains("--then `Ra1n Ra2n`"), "{err}");
}

/// `--id`, `--move` and `--all` pick from a game record: given with a
/// position instead of `--game`, they are refused by name rather than
/// dropped.
#[test]
fn record_flags_without_a_game_are_refused() {
    let pos = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
    for args in [
        vec!["eval", "--id", SHORT, pos],
        vec!["eval", "--move", "3g", pos],
        vec!["analyze", "--id", SHORT, pos, "--depth", "1"],
        vec!["analyze", "--move", "3g", pos, "--depth", "1"],
        vec!["analyze", "--all", pos, "--depth", "1"],
    ] {
        let (ok, out, err) = aamir(&args);
        assert!(!ok, "{args:?}: {out}");
        let flag = args[1];
        assert!(
            err.contains(&format!("{flag} needs --game FILE")),
            "{args:?}: {err}"
        );
        assert!(!out.contains("bestmove") && !out.contains("total"), "{out}");
    }
}
