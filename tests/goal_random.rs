//! Property tests: the static goal routine equals the brute force on
//! random-play positions and on random positions crowded around goal, for
//! the side to move, for the opponent's threat, and for the first action.

use aamir::board::{Color, Position};
use aamir::tactics::goal::{goal_action, goal_distance, goal_threat, lower_bound};
use aamir::tactics::oracle::goal_distance_brute;
use aamir::tactics::random::{
    random_mutated_positions, random_near_goal_positions, random_play_positions,
};

fn describe(p: &Position) -> String {
    format!(
        "{} {} steps_left {}",
        p.side().to_char(),
        aamir::board::notation::board_string(p),
        p.steps_left()
    )
}

fn fresh(p: &Position, c: Color) -> Position {
    let mut q = p.clone();
    q.set_side(c);
    q
}

/// Checks every position; returns how many had a goal (so the caller can
/// insist the sample was not trivial).
fn check(positions: &[Position]) -> usize {
    let mut bad = Vec::new();
    let mut goals = 0;
    for p in positions {
        let brute = goal_distance_brute(p);
        let got = goal_distance(p);
        if got != brute {
            bad.push(format!("{}: static {got:?}, brute {brute:?}", describe(p)));
            continue;
        }
        if let Some(n) = got.filter(|&n| n > 0) {
            goals += 1;
            let a = goal_action(p).expect("a goal has a first action");
            let mut after = p.clone();
            after.apply_action(a);
            let rest = goal_distance_brute(&after);
            if rest != Some(n - a.cost()) {
                bad.push(format!(
                    "{}: first action {a} leaves {rest:?}, expected {}",
                    describe(p),
                    n - a.cost()
                ));
            }
        }
        let opp = p.side().opp();
        let threat = goal_threat(p, opp);
        let threat_brute = goal_distance_brute(&fresh(p, opp));
        if threat != threat_brute {
            bad.push(format!(
                "{}: threat of {}: static {threat:?}, brute {threat_brute:?}",
                describe(p),
                opp.name()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} positions wrong:\n{}",
        bad.len(),
        positions.len(),
        bad.join("\n")
    );
    goals
}

#[test]
fn random_play_positions_agree_with_brute_force() {
    let positions = random_play_positions(20260501, 20000);
    let goals = check(&positions);
    assert!(goals >= 1000, "only {goals} positions with a goal");
}

#[test]
fn crowded_near_goal_positions_agree_with_brute_force() {
    let positions = random_near_goal_positions(20260502, 20000);
    let goals = check(&positions);
    assert!(goals >= 8000, "only {goals} positions with a goal");
}

#[test]
fn mutated_near_goal_positions_agree_with_brute_force() {
    let positions = random_mutated_positions(20260506, 20000, false);
    let goals = check(&positions);
    assert!(goals >= 8000, "only {goals} positions with a goal");
}

/// The lower bound that settles most misses before any plan search: never
/// above the true distance for any budget, and above the budget (a proved
/// miss) for most positions that have no goal (84% of these when written).
#[test]
fn lower_bound_is_never_too_high_and_settles_most_misses() {
    let mut positions = random_near_goal_positions(20260511, 10000);
    positions.extend(random_mutated_positions(20260512, 10000, false));
    positions.extend(random_mutated_positions(20260513, 5000, true));
    let mut bad = Vec::new();
    let (mut misses, mut settled) = (0, 0);
    for p in &positions {
        let brute = goal_distance_brute(p);
        for n in 1..=p.steps_left() {
            let lb = lower_bound(p, p.side(), n);
            match brute {
                Some(d) if d <= n && lb > d => bad.push(format!(
                    "{}: budget {n}, bound {lb}, distance {d}",
                    describe(p)
                )),
                _ => {}
            }
        }
        if brute.is_none() {
            misses += 1;
            settled += usize::from(lower_bound(p, p.side(), p.steps_left()) > p.steps_left());
        }
    }
    assert!(
        bad.is_empty(),
        "{} bounds too high:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(misses >= 5000, "only {misses} misses");
    assert!(
        settled * 4 >= misses * 3,
        "the bound settles only {settled} of {misses} misses"
    );
}
