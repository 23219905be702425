//! Invariants of the rules core over seeded random play: incremental state
//! against recomputation, copy-make and make/unmake against each other, the
//! turn generator against the step-by-step checker, and notation round
//! trips of every generated turn.

mod common;

use aamir::board::legality::{StepChecker, check_move, check_steps};
use aamir::board::notation::{format_steps, parse_move};
use aamir::board::stepgen::{ActionList, generate_actions, generate_actions_of};
use aamir::board::turngen::{
    SeenTable, count_turns, count_turns_copy_make, count_turns_make_unmake, generate_turns,
};
use aamir::board::{ActionKind, Bitboard, Color, Dir, Game, Kind, Position, Square, Step};
use common::rules::{random_setup, random_turn, rng};
use rand::RngExt;
use std::collections::HashSet;

/// Turn-start positions from seeded random games (random setups, random
/// legal turns), each with the mid-turn positions its turn passed through.
fn random_positions(seed: u64, games: usize, max_turns: usize) -> Vec<Position> {
    let mut rng = rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = Game::new();
        game.play(&random_setup(&mut rng, Color::Gold)).unwrap();
        game.play(&random_setup(&mut rng, Color::Silver)).unwrap();
        for _ in 0..max_turns {
            let pos = game.position().clone();
            out.push(pos.clone());
            let Some((actions, end)) = random_turn(&mut rng, &pos) else {
                break;
            };
            // Mid-turn positions too: the generator must be right with
            // fewer than four steps left.
            let mut mid = pos.clone();
            for &a in &actions[..actions.len() - 1] {
                mid.apply_action(a);
                out.push(mid.clone());
            }
            let steps: Vec<Step> = actions.iter().flat_map(|a| a.steps()).collect();
            let text = format_steps(&pos, &steps).unwrap();
            match game.play(&text) {
                Ok(_) => assert_eq!(game.position(), &end, "{text}"),
                // A random turn may repeat a position a third time.
                Err(e) => {
                    assert_eq!(
                        e.reason(),
                        Some(&aamir::board::IllegalReason::ThirdRepetition),
                        "{text}: {e}"
                    );
                    break;
                }
            }
            if game.outcome().is_some() {
                out.push(game.position().clone());
                break;
            }
        }
    }
    out
}

#[test]
fn incremental_state_matches_recomputation_and_children_are_independent() {
    let positions = random_positions(1, 40, 120);
    assert!(positions.len() > 3000, "{} positions", positions.len());
    let mut actions_checked = 0;
    for pos in &positions {
        assert!(pos.is_consistent(), "{pos:?}");
        assert_eq!(pos.hash(), pos.compute_hash());
        let mut list = ActionList::new();
        generate_actions(pos, &mut list);
        let parent = pos.clone();
        let mut made = pos.clone();
        for &a in list.as_slice() {
            // Copy-make: the child is consistent and the parent untouched.
            let mut child = pos.clone();
            let caps = child.apply_action(a);
            assert_eq!(pos, &parent);
            assert!(child.is_consistent(), "{a} from {pos:?}");
            assert_eq!(child.steps_left(), pos.steps_left() - a.cost());
            assert_eq!(pos.hash_after_action(a), child.hash(), "{a} from {pos:?}");
            // Make/unmake reaches the same child and restores exactly.
            let undo = made.make_action(a);
            assert_eq!(made, child, "make {a}");
            assert_eq!(undo.captures(), caps);
            made.unmake_action(undo);
            assert_eq!(made, parent, "unmake {a}");
            actions_checked += 1;
        }
    }
    assert!(actions_checked > 100_000, "{actions_checked} actions");
}

#[test]
fn actions_obey_the_movement_rules() {
    for pos in random_positions(2, 20, 120) {
        let side = pos.side();
        let frozen = pos.frozen(side);
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        for &a in list.as_slice() {
            let mover_sq = a.mover_from();
            let mover = pos.piece_at(mover_sq).expect("the mover exists");
            assert_eq!(mover.color(), side, "{a}");
            assert!(!frozen.contains(mover_sq), "{a}: frozen mover");
            assert_eq!(frozen.contains(mover_sq), pos.is_frozen(mover_sq));
            match a.kind() {
                ActionKind::Single => {
                    if mover.kind() == Kind::Rabbit {
                        assert_ne!(a.first().dir(), side.backward(), "{a}: rabbit backward");
                    }
                }
                ActionKind::Push | ActionKind::Pull => {
                    assert!(pos.steps_left() >= 2, "{a} with one step left");
                    let victim_sq = match a.kind() {
                        ActionKind::Push => a.first().from,
                        _ => a.second().unwrap().from,
                    };
                    let victim = pos.piece_at(victim_sq).expect("the victim exists");
                    assert_eq!(victim.color(), side.opp(), "{a}");
                    assert!(victim.kind() < mover.kind(), "{a}: victim not weaker");
                    assert_ne!(victim.kind(), Kind::Elephant, "{a}: elephant displaced");
                    assert_ne!(mover.kind(), Kind::Rabbit, "{a}: rabbit pushes");
                }
            }
        }
    }
}

#[test]
fn actions_of_some_movers_are_the_full_list_filtered_in_order() {
    // The tactical detectors generate the actions of a few pieces only;
    // they rely on getting exactly those of the full list, in its order.
    let mut rng = rng(11);
    for pos in random_positions(5, 10, 80) {
        let mut all = ActionList::new();
        generate_actions(&pos, &mut all);
        let masks = [
            Bitboard::EMPTY,
            Bitboard::ALL,
            pos.occupied_by(pos.side()),
            Bitboard(rng.random::<u64>()),
            Bitboard(rng.random::<u64>() & rng.random::<u64>()),
        ];
        for mask in masks {
            let mut some = ActionList::new();
            generate_actions_of(&pos, mask, &mut some);
            let want: Vec<_> = all
                .as_slice()
                .iter()
                .copied()
                .filter(|a| mask.contains(a.mover_from()))
                .collect();
            assert_eq!(some.as_slice(), &want[..], "mask {:x}", mask.0);
        }
    }
}

/// The legal first steps according to the generator.
fn generated_first_steps(pos: &Position) -> HashSet<Step> {
    let mut list = ActionList::new();
    generate_actions(pos, &mut list);
    list.as_slice().iter().map(|a| a.first()).collect()
}

#[test]
fn generated_first_steps_are_exactly_the_steps_the_checker_accepts() {
    let mut accepted_total = 0;
    for pos in random_positions(3, 25, 120) {
        let generated = generated_first_steps(&pos);
        let mut accepted = HashSet::new();
        for from in Square::all() {
            for dir in Dir::ALL {
                let mut checker = StepChecker::new(&pos);
                if checker.step(from, dir).is_ok() {
                    accepted.insert(Step::new(from, from.step(dir).unwrap()));
                }
            }
        }
        accepted_total += accepted.len();
        let mut only_gen: Vec<_> = generated.difference(&accepted).collect();
        let mut only_chk: Vec<_> = accepted.difference(&generated).collect();
        only_gen.sort_by_key(|s| (s.from, s.to));
        only_chk.sort_by_key(|s| (s.from, s.to));
        assert!(
            only_gen.is_empty() && only_chk.is_empty(),
            "{pos:?}\nonly generated: {only_gen:?}\nonly accepted: {only_chk:?}"
        );
    }
    assert!(accepted_total > 50_000, "{accepted_total}");
}

#[test]
fn every_generated_turn_is_legal_and_round_trips_through_notation() {
    let mut rng = rng(4);
    // Every fifth turn start of the random games keeps the test quick.
    let positions: Vec<Position> = random_positions(4, 20, 100)
        .into_iter()
        .filter(|p| p.at_turn_start())
        .step_by(5)
        .collect();
    let mut table = SeenTable::new();
    let mut turns_checked = 0;
    for (i, pos) in positions.iter().enumerate() {
        let turns = generate_turns(pos, |_| false);
        let count = count_turns(pos, &mut table);
        assert_eq!(turns.len() as u64, count.turns, "{pos:?}");
        let hashes: HashSet<u64> = turns.iter().map(|t| t.hash).collect();
        assert_eq!(hashes.len(), turns.len(), "turns are distinct");
        let mut start_after_pass = pos.clone();
        start_after_pass.pass_turn();
        assert!(
            !hashes.contains(&start_after_pass.hash()),
            "no unchanged turn"
        );
        // All turns of every twentieth position, a sample of the others.
        let every = i % 20 == 0;
        for t in &turns {
            if !every && !rng.random_bool(0.01) {
                continue;
            }
            let end = t.apply(pos);
            assert!(end.is_consistent());
            assert_eq!(end.hash(), t.hash);
            let text = format_steps(pos, &t.steps()).unwrap();
            let parsed = parse_move(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let checked = check_move(pos, &parsed).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(checked.end, end, "{text}");
            assert_eq!(checked.notation, text, "canonical notation");
            assert_eq!(checked.steps, t.steps());
            // The typed turn: the same check, the same notation.
            assert_eq!(t.notation(pos).unwrap(), text);
            let typed = check_steps(pos, &t.steps()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(
                (typed.end, typed.notation, typed.steps),
                (
                    checked.end.clone(),
                    checked.notation.clone(),
                    checked.steps.clone()
                )
            );
            // Without capture tokens the move means the same.
            let bare: Vec<&str> = text.split(' ').filter(|t| !t.ends_with('x')).collect();
            let parsed = parse_move(&bare.join(" ")).unwrap();
            assert_eq!(check_move(pos, &parsed).unwrap().end, end, "{text}");
            turns_checked += 1;
        }
    }
    eprintln!(
        "{} positions, {turns_checked} turns checked",
        positions.len()
    );
    assert!(turns_checked > 20_000, "{turns_checked} turns");
}

#[test]
fn the_three_counting_walks_agree() {
    // The fast counter's last-step shortcut against the plain walks, at
    // turn starts and mid-turn (fewer steps left, where the shortcut
    // starts earlier).
    let mut t = SeenTable::new();
    let mut checked = [0; 5];
    for pos in random_positions(5, 12, 80) {
        let fast = count_turns(&pos, &mut t);
        assert_eq!(fast, count_turns_copy_make(&pos, &mut t), "{pos:?}");
        assert_eq!(fast, count_turns_make_unmake(&pos, &mut t), "{pos:?}");
        checked[pos.steps_left() as usize] += 1;
    }
    assert!(checked[1..].iter().all(|&n| n > 50), "{checked:?}");
}
