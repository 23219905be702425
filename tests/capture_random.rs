//! Property tests: static capture detection equals the brute force (which
//! pieces, in how few steps) on random-play positions, for the side to move
//! and for the opponent's next turn, within 2 and 4 steps; the cheap filter
//! never misses a capturable piece; every first action starts a shortest
//! capture.

use aamir::board::{Color, Position};
use aamir::tactics::capture::{attacker_view, capture_threats, opponent_threats};
use aamir::tactics::oracle::capture_threats_brute;
use aamir::tactics::random::{random_mutated_positions, random_play_positions};
use aamir::tactics::threats::capture_candidates;

fn describe(p: &Position, attacker: Color) -> String {
    format!(
        "{} {} steps_left {} attacker {}",
        p.side().to_char(),
        aamir::board::notation::board_string(p),
        p.steps_left(),
        attacker.to_char()
    )
}

/// Checks the detector against the brute force on every position, for
/// both attackers within `steps`, and that the sample held at least
/// `at_least` capturable pieces (else it proves little).
fn check(positions: &[Position], steps: u8, verify_first: bool, at_least: usize) {
    let mut bad = Vec::new();
    let mut found = 0;
    for p in positions {
        for attacker in [p.side(), p.side().opp()] {
            let exact = capture_threats_brute(p, attacker, steps);
            let got = capture_threats(p, attacker, steps);
            let name = || describe(p, attacker);
            if exact.entries() != got.entries() {
                bad.push(format!(
                    "{}: brute {:?}, static {:?}",
                    name(),
                    exact.entries(),
                    got.entries()
                ));
                continue;
            }
            found += exact.entries().len();
            let v = attacker_view(p, attacker, steps);
            let cands = capture_candidates(&v, attacker, v.steps_left());
            if exact.squares().and_not(cands).any() {
                bad.push(format!("{}: the filter misses a capturable piece", name()));
            }
            if !verify_first {
                continue;
            }
            for (sq, n) in got.entries() {
                let a = got.first_action(sq).expect("entry has a first action");
                let mut after = v.clone();
                let caps = after.apply_action(a);
                // Where the victim is after the first action, or taken.
                let mut at = sq;
                let mut moved = false;
                for s in a.steps() {
                    if s.from == at
                        && !moved
                        && v.piece_at(s.from).map(|x| x.color()) != Some(attacker)
                    {
                        at = s.to;
                        moved = true;
                    }
                }
                let taken = caps
                    .iter()
                    .flatten()
                    .any(|c| c.square == at && c.piece.color() != attacker);
                let ok = if taken {
                    a.cost() == n
                } else {
                    let rest = capture_threats_brute(&after, attacker, after.steps_left());
                    rest.steps(at) == Some(n - a.cost())
                };
                if !ok {
                    bad.push(format!(
                        "{}: first action {a} for {sq} does not start a {n}-step capture",
                        name()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} cases wrong:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        found >= at_least,
        "only {found} capturable pieces in the sample"
    );
}

#[test]
fn captures_within_four_steps_agree_with_brute_force() {
    check(&random_play_positions(20260503, 4000), 4, true, 2000);
}

#[test]
fn captures_within_two_steps_agree_with_brute_force() {
    check(&random_play_positions(20260504, 6000), 2, true, 600);
}

#[test]
fn captures_around_crowded_traps_agree_with_brute_force() {
    check(
        &random_mutated_positions(20260507, 3000, true),
        4,
        true,
        2000,
    );
}

#[test]
fn opponent_threats_is_the_opponent_with_a_fresh_turn() {
    for p in random_play_positions(20260505, 300) {
        assert_eq!(
            opponent_threats(&p).entries(),
            capture_threats_brute(&p, p.side().opp(), 4).entries(),
            "{}",
            describe(&p, p.side().opp())
        );
    }
}
