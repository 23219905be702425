//! The rules core against real data: every row of the move-count suite
//! exactly, and every archive game replayed move by move with its rule
//! ending agreeing with the recorded termination.

use aamir::board::record::{agrees, parse_archive, replay};
use aamir::board::turngen::{SeenTable, count_turns};
use aamir::tools::movecount::read_suite;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

#[test]
fn movecount_suite_is_exact() {
    let rows = read_suite(&data("movecount.tsv")).expect("the suite parses");
    assert_eq!(rows.len(), 95, "movecount.tsv has 95 positions");
    let mut table = SeenTable::new();
    let mut wrong = Vec::new();
    for row in &rows {
        let got = count_turns(&row.position, &mut table).turns;
        if got != row.expected {
            wrong.push(format!(
                "{}: expected {}, got {got}",
                row.label, row.expected
            ));
        }
    }
    assert!(wrong.is_empty(), "mismatches:\n{}", wrong.join("\n"));
}

fn check_archive(name: &str, games_expected: usize) {
    let games = parse_archive(&data(name)).expect("the archive parses");
    assert_eq!(games.len(), games_expected, "{name}: number of games");
    let mut bad = Vec::new();
    let mut endings = [0usize; 3];
    for g in &games {
        assert!(!g.moves.is_empty(), "game {} has moves", g.id());
        match replay(&g.moves) {
            Ok(r) => {
                assert_eq!(r.moves, g.moves.len());
                if !agrees(g, r.outcome) {
                    bad.push(format!(
                        "game {}: record {}/{}, rules say {:?}",
                        g.id(),
                        g.field("result"),
                        g.field("termination"),
                        r.outcome
                    ));
                }
                if let Some(o) = r.outcome {
                    endings[o.reason as usize] += 1;
                }
            }
            Err(e) => bad.push(format!("game {}: {e}", g.id())),
        }
    }
    assert!(bad.is_empty(), "{name}:\n{}", bad.join("\n"));
    // The rule endings must actually have been exercised.
    assert!(endings[0] > 0, "{name}: some game ends by goal");
}

#[test]
fn archive_2026_02_replays_and_endings_agree() {
    check_archive("games-2026-02.tsv", 147);
}

#[test]
fn archive_2011_extra_replays_and_endings_agree() {
    check_archive("games-2011-extra.tsv", 12);
}

#[test]
fn the_game_ending_on_an_attempted_third_repetition() {
    // Game 669192 ends on an attempted third repetition (termination `i`);
    // the record stops before the refused move. At its end silver must have
    // turns that the rules alone allow but that repetition forbids, and each
    // of those must be refused by `Game::play`, leaving the game unchanged.
    use aamir::board::IllegalReason;
    use aamir::board::notation::format_steps;
    use aamir::board::turngen::generate_turns;
    let games = parse_archive(&data("games-2026-02.tsv")).unwrap();
    let g = games
        .iter()
        .find(|g| g.id() == "669192")
        .expect("game 669192");
    assert_eq!(g.termination(), 'i');
    let mut game = replay(&g.moves).expect("the record is legal").game;
    assert_eq!(game.outcome(), None);
    let pos = game.position().clone();
    let all = generate_turns(&pos, |_| false);
    let legal = game.legal_turns();
    let repeated: Vec<_> = all.iter().filter(|t| !legal.contains(t)).collect();
    assert!(
        !repeated.is_empty(),
        "some turn would be a third repetition"
    );
    assert_eq!(legal.len() + repeated.len(), all.len());
    for t in repeated {
        assert_eq!(game.occurrences(t.hash), 2);
        let text = format_steps(&pos, &t.steps()).unwrap();
        let snapshot = game.clone();
        let err = game.play(&text).expect_err("a third repetition is illegal");
        assert_eq!(
            err.reason(),
            Some(&IllegalReason::ThirdRepetition),
            "{text}"
        );
        assert_eq!(game, snapshot, "a refused move leaves the game unchanged");
    }
}
