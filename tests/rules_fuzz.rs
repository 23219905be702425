//! Garbage in, errors out: random and mutated text fed to every parser and
//! to `Game::play` must never panic, and a refused move must leave the game
//! exactly as it was.

mod common;

use aamir::board::notation::{
    long_diagram, parse_long_diagram, parse_move, parse_pv, parse_side_and_board, parse_token,
};
use aamir::board::record::{parse_archive, parse_movelist, replay};
use aamir::board::{Color, Game, Position};
use common::rules::{random_setup, random_turn, rng};
use rand::RngExt;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// Characters that make near-miss notation likely, plus a few others.
const ALPHABET: &[char] = &[
    'E', 'M', 'H', 'D', 'C', 'R', 'e', 'm', 'h', 'd', 'c', 'r', 'a', 'b', 'f', 'g', 's', 'w', 'n',
    'x', 'X', '0', '1', '2', '3', '4', '5', '7', '8', '9', ' ', ' ', ' ', '\t', '\n', '[', ']',
    '|', '+', '-', '.', '#', '\\', 'é', '∑', '\0',
];

fn garbage(rng: &mut StdRng, max: usize) -> String {
    let n = rng.random_range(0..=max);
    (0..n).map(|_| *ALPHABET.choose(rng).unwrap()).collect()
}

/// `text` with a few random edits: replace, insert, delete or duplicate.
fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        let i = if chars.is_empty() {
            0
        } else {
            rng.random_range(0..chars.len())
        };
        match rng.random_range(0..4) {
            0 if !chars.is_empty() => chars[i] = *ALPHABET.choose(rng).unwrap(),
            1 => chars.insert(i, *ALPHABET.choose(rng).unwrap()),
            2 if !chars.is_empty() => {
                chars.remove(i);
            }
            _ if !chars.is_empty() => {
                let c = chars[i];
                chars.insert(i, c);
            }
            _ => chars.push(*ALPHABET.choose(rng).unwrap()),
        }
    }
    chars.into_iter().collect()
}

/// Random games' positions, each with the move that was played next
/// (setups included), as seeds for mutation.
fn material(rng: &mut StdRng) -> Vec<(Game, String)> {
    let mut out = Vec::new();
    for _ in 0..6 {
        let mut g = Game::new();
        for color in Color::BOTH {
            let s = random_setup(rng, color);
            out.push((g.clone(), s.clone()));
            g.play(&s).unwrap();
        }
        for _ in 0..40 {
            let pos = g.position().clone();
            let Some((actions, _)) = random_turn(rng, &pos) else {
                break;
            };
            let steps: Vec<_> = actions.iter().flat_map(|a| a.steps()).collect();
            let text = aamir::board::notation::format_steps(&pos, &steps).unwrap();
            out.push((g.clone(), text.clone()));
            if g.play(&text).is_err() || g.outcome().is_some() {
                break;
            }
        }
    }
    out
}

#[test]
fn parsers_never_panic_on_garbage() {
    let mut rng = rng(11);
    let material = material(&mut rng);
    let moves: Vec<String> = material.iter().map(|(_, m)| m.clone()).collect();
    let boards: Vec<String> = material
        .iter()
        .map(|(g, _)| {
            let b = aamir::board::notation::board_string(g.position());
            format!("{} {b}", g.position().side().to_char())
        })
        .collect();
    let diagrams: Vec<String> = material
        .iter()
        .map(|(g, _)| long_diagram(g.position(), g.move_number()))
        .collect();
    let start = Position::standard_opening();
    let mut errors = 0;
    for i in 0..20_000 {
        let text = match i % 3 {
            0 => garbage(&mut rng, 80),
            1 => {
                let seed = moves.choose(&mut rng).unwrap().clone();
                mutate(&mut rng, &seed)
            }
            _ => {
                let seed = boards.choose(&mut rng).unwrap().clone();
                mutate(&mut rng, &seed)
            }
        };
        let _ = parse_token(&text);
        errors += parse_move(&text).is_err() as usize;
        let _ = parse_side_and_board(&text);
        let _ = parse_pv(&start, &text);
        let _ = parse_movelist(&text);
        let _ = parse_archive(&text);
        let _ = parse_archive(&format!("id\tmovelist\n1\t{text}\n"));
        if let Ok(list) = parse_movelist(&text) {
            let _ = replay(&list);
        }
    }
    assert!(errors > 5_000, "most garbage is refused ({errors})");
    for _ in 0..3_000 {
        let d = {
            let seed = diagrams.choose(&mut rng).unwrap().clone();
            mutate(&mut rng, &seed)
        };
        let _ = parse_long_diagram(&d);
        let with_moves = format!(
            "{}\n{}",
            diagrams.choose(&mut rng).unwrap(),
            garbage(&mut rng, 40)
        );
        let _ = parse_long_diagram(&with_moves);
    }
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let mut rng = rng(12);
    let material = material(&mut rng);
    let mut accepted = 0;
    let mut refused = 0;
    for i in 0..20_000 {
        let (game, next) = material.choose(&mut rng).unwrap();
        let mut g = game.clone();
        // Mostly near misses of the move actually played next, which are
        // often still legal; sometimes plain garbage.
        let text = match i % 8 {
            0 => garbage(&mut rng, 40),
            1 => next.clone(),
            _ => mutate(&mut rng, next),
        };
        let before = g.clone();
        match g.play(&text) {
            Ok(_) => {
                accepted += 1;
                assert_eq!(g.record().len(), before.record().len() + 1);
                assert!(g.position().is_consistent());
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
                assert_eq!(g, before, "`{text}` was refused ({e}) but changed the game");
            }
        }
    }
    eprintln!("{accepted} accepted, {refused} refused");
    assert!(
        accepted > 2_000 && refused > 10_000,
        "{accepted} accepted, {refused} refused"
    );
}
