//! Property test of `Action::commutes_with`, which the search trusts to
//! play two actions of one turn in one order only (`commute`): on random
//! positions, every pair it calls commuting must be legal in both orders
//! and reach the same position, captures included. Positions mutated around
//! the traps make the trap cases (a guard leaving while another arrives)
//! common.

use aamir::board::notation::board_string;
use aamir::board::stepgen::generate_actions;
use aamir::board::{ActionList, Position};
use aamir::tactics::random::{random_mutated_positions, random_play_positions};

/// Checks every ordered pair of actions on each position; returns how many
/// pairs were called commuting and how many were not.
fn check(positions: &[Position]) -> (usize, usize) {
    let (mut commuting, mut other) = (0, 0);
    let mut bad = Vec::new();
    let mut first = ActionList::new();
    let mut second = ActionList::new();
    let mut back = ActionList::new();
    for p in positions {
        if p.steps_left() < 2 {
            continue;
        }
        first.clear();
        generate_actions(p, &mut first);
        for &a in first.as_slice() {
            let mut pa = p.clone();
            pa.apply_action(a);
            if pa.steps_left() == 0 {
                continue;
            }
            second.clear();
            generate_actions(&pa, &mut second);
            for &b in second.as_slice() {
                if !a.commutes_with(b) {
                    other += 1;
                    continue;
                }
                commuting += 1;
                let mut pab = pa.clone();
                pab.apply_action(b);
                // The other order: b must be legal first, then a.
                if !first.as_slice().contains(&b) {
                    bad.push(format!("{}: {b} not legal before {a}", board_string(p)));
                    continue;
                }
                let mut pb = p.clone();
                pb.apply_action(b);
                back.clear();
                generate_actions(&pb, &mut back);
                if !back.as_slice().contains(&a) {
                    bad.push(format!("{}: {a} not legal after {b}", board_string(p)));
                    continue;
                }
                pb.apply_action(a);
                if pb != pab || pb.hash() != pab.hash() {
                    bad.push(format!(
                        "{}: {a} then {b} differs from {b} then {a}",
                        board_string(p)
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} bad pairs, first: {}", bad.len(), bad[0]);
    (commuting, other)
}

#[test]
fn commuting_actions_reach_one_position_in_either_order() {
    let mut positions = random_play_positions(20261126, 600);
    positions.extend(random_mutated_positions(20261127, 600, true));
    let (commuting, other) = check(&positions);
    // Not vacuous: most pairs far apart commute, and many do not.
    assert!(commuting > 100_000, "{commuting} commuting pairs");
    assert!(other > 100_000, "{other} other pairs");
}
