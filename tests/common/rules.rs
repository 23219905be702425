//! For the rules tests: positions from piece lists, random setups and
//! random legal turns for seeded random play.

use aamir::board::notation::{Token, parse_token};
use aamir::board::stepgen::{Action, ActionList, generate_actions};
use aamir::board::{Color, Kind, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A position from placements like `"Ra1 Ed4 rd5"`, `side` to move.
pub fn position(side: Color, pieces: &str) -> Position {
    let mut pos = Position::empty(side);
    for t in pieces.split_whitespace() {
        match parse_token(t) {
            Ok(Token::Place { piece, square }) => pos.put(piece, square),
            other => panic!("`{t}` is not a placement: {other:?}"),
        }
    }
    pos
}

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("`{name}` is not a square"))
}

/// A random full setup for `color` as placement notation.
pub fn random_setup(rng: &mut StdRng, color: Color) -> String {
    let mut pieces = Vec::new();
    for kind in Kind::ALL {
        for _ in 0..kind.full_count() {
            pieces.push(Piece::new(color, kind));
        }
    }
    pieces.shuffle(rng);
    let ranks = match color {
        Color::Gold => [0u8, 1],
        Color::Silver => [6, 7],
    };
    let squares: Vec<Square> = ranks
        .iter()
        .flat_map(|&r| (0..8).map(move |f| Square::from_coords(f, r)))
        .collect();
    pieces
        .iter()
        .zip(&squares)
        .map(|(p, s)| format!("{p}{s}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A random legal turn as actions, by random actions that stop at a random
/// point; `None` when the side to move has no action at all.
pub fn random_turn(rng: &mut StdRng, start: &Position) -> Option<(Vec<Action>, Position)> {
    for _ in 0..50 {
        let mut pos = start.clone();
        let mut actions = Vec::new();
        loop {
            let mut list = ActionList::new();
            generate_actions(&pos, &mut list);
            let changed = !actions.is_empty() && !pos.same_board(start);
            if list.is_empty() || (changed && rng.random_bool(0.25)) {
                break;
            }
            let a = *list.as_slice().choose(rng).expect("non-empty");
            pos.apply_action(a);
            actions.push(a);
        }
        if actions.is_empty() {
            return None;
        }
        if !pos.same_board(start) {
            pos.pass_turn();
            return Some((actions, pos));
        }
    }
    None
}
