//! Goal detection against fixed answers: the 485-position suite (values from
//! pyrimaa), the generated fixture (values from pyrimaa, made by
//! `scripts/make_goal_fixture.py`) and a sample of the search's leaves
//! (values from the brute force), each checked with the static routine, the
//! brute force, and the first action of every goal.

use aamir::board::Position;
use aamir::tactics::goal::{goal_action, goal_distance, goal_plan};
use aamir::tactics::oracle::goal_distance_brute;
use aamir::tools::goal::{GoalRow, read_goal_suite};

fn load(name: &str) -> Vec<GoalRow> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    read_goal_suite(&text).unwrap_or_else(|e| panic!("parsing {path}: {e:#}"))
}

fn describe(row: &GoalRow) -> String {
    format!(
        "line {} ({} {} steps_left {})",
        row.line,
        row.position.side().to_char(),
        aamir::board::notation::board_string(&row.position),
        row.position.steps_left()
    )
}

/// Playing the first action must leave a goal exactly that many steps
/// shorter (or the goal itself).
fn check_first_action(pos: &Position, steps: u8) -> Result<(), String> {
    let a = goal_action(pos).ok_or("a goal but no first action")?;
    let mut after = pos.clone();
    after.apply_action(a);
    let rest = goal_distance_brute(&after);
    if rest != Some(steps - a.cost()) {
        return Err(format!(
            "first action {a} leaves {rest:?} steps, expected {}",
            steps - a.cost()
        ));
    }
    // The whole line scores in exactly that many steps.
    let plan = goal_plan(pos).ok_or("no plan")?;
    let mut p = pos.clone();
    let mut used = 0;
    for &b in plan.line.iter().take_while(|b| !b.is_none()) {
        if p.has_goal(pos.side()) {
            return Err("the line goes on after the goal".into());
        }
        p.apply_action(b);
        used += b.cost();
    }
    if !p.has_goal(pos.side()) || used != steps || plan.line[0] != a {
        return Err(format!(
            "the line {:?} does not score in {steps}",
            plan.line
        ));
    }
    Ok(())
}

fn check_rows(rows: &[GoalRow], min_rows: usize) {
    assert!(
        rows.len() >= min_rows,
        "expected at least {min_rows} rows, read {}",
        rows.len()
    );
    let mut bad = Vec::new();
    for row in rows {
        let got = goal_distance(&row.position);
        let brute = goal_distance_brute(&row.position);
        if got != row.expected || brute != row.expected {
            bad.push(format!(
                "{}: expected {:?}, static {got:?}, brute {brute:?}",
                describe(row),
                row.expected
            ));
            continue;
        }
        if let Some(n) = got.filter(|&n| n > 0)
            && let Err(e) = check_first_action(&row.position, n)
        {
            bad.push(format!("{}: {e}", describe(row)));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows wrong:\n{}",
        bad.len(),
        rows.len(),
        bad.join("\n")
    );
}

#[test]
fn goal_positions_suite_all_485_agree() {
    let rows = load("goal-positions.tsv");
    assert_eq!(rows.len(), 485);
    // The suite is not trivial: it has goals of every length and misses.
    for want in [Some(2), Some(3), Some(4), None] {
        assert!(
            rows.iter().any(|r| r.expected == want),
            "no row with {want:?}"
        );
    }
    check_rows(&rows, 485);
}

#[test]
fn goal_fixture_all_agree() {
    let rows = load("goal-fixture.tsv");
    // Goals of every length, misses, and mid-turn rows.
    for want in [Some(1), Some(2), Some(3), Some(4), None] {
        assert!(
            rows.iter().filter(|r| r.expected == want).count() >= 100,
            "too few rows with {want:?}"
        );
    }
    for sl in 1..=3 {
        assert!(
            rows.iter().any(|r| r.position.steps_left() == sl),
            "no row with {sl} steps left"
        );
    }
    for tag in ["push/pull", "unfreeze", "trap", "friend-moves", "capture"] {
        assert!(
            rows.iter().filter(|r| r.note.contains(tag)).count() >= 50,
            "too few rows noted {tag}"
        );
    }
    check_rows(&rows, 2000);
}

#[test]
fn search_leaves_sample_agrees() {
    // Where the search asks: mostly misses, which the lower bound must
    // settle without ever being too high, and a few goals of each length.
    let rows = load("goal-leaves.tsv");
    for want in [Some(1), Some(2), Some(3), Some(4)] {
        assert!(
            rows.iter().filter(|r| r.expected == want).count() >= 10,
            "too few rows with {want:?}"
        );
    }
    check_rows(&rows, 5000);
}

#[test]
fn plan_reports_zero_for_a_rabbit_already_on_goal() {
    // Gold rabbit on a8, silver rabbit on h7.
    let board = format!("R{}r{}", " ".repeat(14), " ".repeat(48));
    let mut p = aamir::board::notation::parse_side_and_board(&format!("g [{board}]")).unwrap();
    p.set_steps_left(2);
    let plan = goal_plan(&p).unwrap();
    assert_eq!(plan.steps, 0);
    assert!(plan.first.is_none());
    assert_eq!(goal_distance_brute(&p), Some(0));
    assert_eq!(goal_action(&p), None);
}
