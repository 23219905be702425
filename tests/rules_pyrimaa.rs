//! Differential check against the AEI reference board `pyrimaa.board`,
//! frozen as a fixture by `scripts/make_pyrimaa_fixture.py`: for every
//! position, the distinct-turn count, the legal first steps, and the
//! goal / elimination / immobilisation verdicts; for positions with a
//! history, the turn count with third repetitions left out.

use aamir::board::notation::{parse_side_and_board, parse_token};
use aamir::board::stepgen::{ActionList, generate_actions};
use aamir::board::turngen::{SeenTable, count_turns};
use aamir::board::{Color, EndReason, Game, Outcome, Position};
use std::collections::BTreeSet;

struct Row {
    label: String,
    side: String,
    board: String,
    pyrimaa_turns: u64,
    turns: u64,
    steps: BTreeSet<String>,
    goal: char,
    rabbit_loss: char,
    end_state: char,
    history: Option<(String, Vec<String>)>,
}

fn read_fixture() -> Vec<Row> {
    let path = format!(
        "{}/tests/data/pyrimaa-fixture.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header = lines.next().expect("a header row");
    assert_eq!(
        header,
        "label\tside\tboard\tpyrimaa_turns\tturns\tsteps\tgoal\trabbit_loss\tend_state\thistory"
    );
    lines
        .map(|line| {
            let c: Vec<&str> = line.split('\t').collect();
            assert_eq!(c.len(), 10, "{line}");
            let flag = |s: &str| {
                assert!(matches!(s, "g" | "s" | "-"), "{line}");
                s.chars().next().unwrap()
            };
            let history = (c[9] != "-").then(|| {
                let mut parts = c[9].split('|');
                let start = parts.next().unwrap().to_string();
                (start, parts.map(str::to_string).collect())
            });
            Row {
                label: c[0].into(),
                side: c[1].into(),
                board: c[2].into(),
                pyrimaa_turns: c[3].parse().unwrap(),
                turns: c[4].parse().unwrap(),
                steps: if c[5] == "-" {
                    BTreeSet::new()
                } else {
                    c[5].split(' ').map(str::to_string).collect()
                },
                goal: flag(c[6]),
                rabbit_loss: flag(c[7]),
                end_state: flag(c[8]),
                history,
            }
        })
        .collect()
}

/// Our legal first steps as `Pa2n` tokens (pushes by their first step).
fn first_steps(pos: &Position) -> BTreeSet<String> {
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    list.as_slice()
        .iter()
        .map(|a| {
            let s = a.first();
            let p = pos.piece_at(s.from).expect("a step starts on a piece");
            format!("{p}{}{}", s.from, s.dir().to_char())
        })
        .collect()
}

fn letter(winner: Color) -> char {
    winner.to_char()
}

/// The three verdicts in pyrimaa's terms, from our end-of-turn rules:
/// `is_goal` (checks 1-2), `is_rabbit_loss` (checks 3-4, asked only when
/// no goal decides) and `is_end_state` (all five, without repetition).
fn verdicts(outcome: Option<Outcome>) -> (char, Option<char>, char) {
    match outcome {
        Some(Outcome {
            winner,
            reason: EndReason::Goal,
        }) => (letter(winner), None, letter(winner)),
        Some(Outcome {
            winner,
            reason: EndReason::Elimination,
        }) => ('-', Some(letter(winner)), letter(winner)),
        Some(Outcome {
            winner,
            reason: EndReason::Immobilization,
        }) => ('-', Some('-'), letter(winner)),
        None => ('-', Some('-'), '-'),
    }
}

#[test]
fn every_fixture_row_agrees_with_pyrimaa() {
    let rows = read_fixture();
    assert!(rows.len() >= 2000, "{} rows", rows.len());
    let mut table = SeenTable::new();
    let mut problems = Vec::new();
    let mut seen = [0usize; 6];
    for row in &rows {
        let pos = parse_side_and_board(&format!("{} {}", row.side, row.board))
            .unwrap_or_else(|e| panic!("{}: {e}", row.label));
        assert!(pos.is_consistent());
        let turns = count_turns(&pos, &mut table).turns;
        if turns != row.pyrimaa_turns {
            problems.push(format!(
                "{}: {turns} turns, pyrimaa {}",
                row.label, row.pyrimaa_turns
            ));
        }
        let ours = first_steps(&pos);
        if ours != row.steps {
            problems.push(format!(
                "{}: first steps only ours {:?}, only pyrimaa {:?}",
                row.label,
                ours.difference(&row.steps).collect::<Vec<_>>(),
                row.steps.difference(&ours).collect::<Vec<_>>()
            ));
        }
        let (goal, rabbit_loss, end_state) = verdicts(pos.outcome());
        let rabbit_ok = rabbit_loss.is_none_or(|r| r == row.rabbit_loss);
        if goal != row.goal || !rabbit_ok || end_state != row.end_state {
            problems.push(format!(
                "{}: verdicts ours {goal}/{rabbit_loss:?}/{end_state}, pyrimaa {}/{}/{}",
                row.label, row.goal, row.rabbit_loss, row.end_state
            ));
        }
        seen[0] += (row.goal != '-') as usize;
        seen[1] += (row.rabbit_loss != '-') as usize;
        seen[2] += (row.end_state != '-' && row.goal == '-' && row.rabbit_loss == '-') as usize;
        seen[3] += (row.history.is_some()) as usize;
        seen[4] += (row.turns != row.pyrimaa_turns) as usize;
        seen[5] += pos.frozen(pos.side()).any() as usize;
    }
    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
    eprintln!("goal, elimination, immobilisation, history, excluded, frozen rows: {seen:?}");
    // The fixture covers every verdict, histories that exclude a turn,
    // and frozen pieces.
    assert!(seen.iter().all(|&n| n >= 5), "coverage {seen:?}");
}

#[test]
fn repetition_rows_exclude_exactly_the_third_repetitions() {
    let rows = read_fixture();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.history.is_some()) {
        let (start, moves) = row.history.as_ref().unwrap();
        let mut game = Game::from_position(parse_side_and_board(start).unwrap(), 2);
        for mv in moves {
            // pyrimaa writes captures and steps as we read them.
            assert!(mv.split(' ').all(|t| parse_token(t).is_ok()), "{mv}");
            game.play(mv)
                .unwrap_or_else(|e| panic!("{}: `{mv}`: {e}", row.label));
        }
        let expected = parse_side_and_board(&format!("{} {}", row.side, row.board)).unwrap();
        assert_eq!(game.position(), &expected, "{}", row.label);
        assert_eq!(
            game.legal_turns().len() as u64,
            row.turns,
            "{}: turns with third repetitions left out",
            row.label
        );
        assert_eq!(game.outcome(), None, "{}", row.label);
        checked += 1;
    }
    assert!(checked >= 100, "{checked} repetition rows");
}
