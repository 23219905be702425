//! Random positions for the differential studies of goal and capture
//! detection against the brute-force oracles: random play, positions
//! crowded around goal, and those mutated around rabbits or traps. Not part
//! of the product: built only for tests and with the `dev` cargo feature.

use crate::board::bitboard::adjacent;
use crate::board::stepgen::generate_actions;
use crate::board::{ActionList, Bitboard, Color, Kind, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Positions from random play: games from the usual opening where each turn
/// is a random number of random actions (steps, pushes, pulls), sampled at
/// turn starts and, one time in four, in the middle of a turn. Games stop at
/// a goal, an elimination, a position with no step, or after 400 turns.
/// Deterministic for a seed.
pub fn random_play_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut list = ActionList::new();
    while out.len() < count {
        let mut pos = Position::standard_opening();
        if rng.random_range(0..2) == 1 {
            pos.set_side(Color::Silver);
        }
        for _turn in 0..400 {
            if out.len() >= count {
                break;
            }
            // Sample the turn start, or a point inside the turn.
            let mid = rng.random_range(0..4) == 0;
            let stop_at = if mid { rng.random_range(1..4u8) } else { 4 };
            if !mid {
                out.push(pos.clone());
            }
            let steps = rng.random_range(1..=4u8);
            let mut progress = false;
            while pos.steps_left() > 4 - steps {
                if mid && pos.steps_left() == stop_at {
                    out.push(pos.clone());
                }
                list.clear();
                generate_actions(&pos, &mut list);
                let acts = list.as_slice();
                if acts.is_empty() {
                    break;
                }
                let a = acts[rng.random_range(0..acts.len())];
                pos.apply_action(a);
                progress = true;
            }
            if !progress
                || pos.has_goal(Color::Gold)
                || pos.has_goal(Color::Silver)
                || pos.rabbits(Color::Gold).is_empty()
                || pos.rabbits(Color::Silver).is_empty()
            {
                break;
            }
            pos.pass_turn();
        }
    }
    out.truncate(count);
    out
}

/// Random positions crowded around goal: the side to move (either colour)
/// has one to three rabbits within four ranks of goal and a few other
/// pieces, the opponent up to a dozen pieces mostly on the mover's goal
/// side; one position in three is mid-turn. Pieces left alone on a trap are
/// removed, as a real game would have. Deterministic for a seed. These are
/// far harder for goal detection than random play.
pub fn random_near_goal_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let kinds = [
        Kind::Cat,
        Kind::Dog,
        Kind::Horse,
        Kind::Camel,
        Kind::Elephant,
    ];
    while out.len() < count {
        let us = if rng.random_range(0..2) == 0 {
            Color::Gold
        } else {
            Color::Silver
        };
        let mut pos = Position::empty(us);
        // Squares in gold's frame; silver's are mirrored north-south.
        let sq = |file: u8, rank: u8| match us {
            Color::Gold => Square::from_coords(file, rank),
            Color::Silver => Square::from_coords(file, 7 - rank),
        };
        let place = |pos: &mut Position, piece: Piece, s: Square| {
            if pos.piece_at(s).is_none()
                && pos.count(piece.color(), piece.kind()) < piece.kind().full_count()
            {
                pos.put(piece, s);
            }
        };
        for _ in 0..rng.random_range(1..=3) {
            let s = sq(rng.random_range(0..8), rng.random_range(3..7));
            place(&mut pos, Piece::new(us, Kind::Rabbit), s);
        }
        for _ in 0..rng.random_range(0..=8) {
            let k = kinds[rng.random_range(0..kinds.len())];
            let s = sq(rng.random_range(0..8), rng.random_range(3..8));
            place(&mut pos, Piece::new(us, k), s);
        }
        for _ in 0..rng.random_range(1..=16) {
            let k = if rng.random_range(0..4) == 0 {
                Kind::Rabbit
            } else {
                kinds[rng.random_range(0..kinds.len())]
            };
            let s = sq(rng.random_range(0..8), rng.random_range(3..8));
            place(&mut pos, Piece::new(us.opp(), k), s);
        }
        for t in Bitboard::TRAPS {
            if let Some(p) = pos.piece_at(t)
                && (adjacent(t) & pos.occupied_by(p.color())).is_empty()
            {
                pos.remove(t);
            }
        }
        if pos.rabbits(us).is_empty() || pos.has_goal(us) || pos.has_goal(us.opp()) {
            continue;
        }
        if rng.random_range(0..3) == 0 {
            pos.set_steps_left(rng.random_range(1..4));
        }
        out.push(pos);
    }
    out
}

/// Random near-goal positions ([`random_near_goal_positions`]) each changed
/// by one to eleven random edits within a few squares of one of the side to
/// move's rabbits (or, with `around_traps`, of a trap): a piece of either
/// colour added, or a piece removed. Crowding the squares that matter turns
/// up rare patterns that plain random positions almost never show.
/// Deterministic for a seed.
pub fn random_mutated_positions(seed: u64, count: usize, around_traps: bool) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5EED_0FAA);
    let bases = random_near_goal_positions(seed, 2000);
    let mut out = Vec::with_capacity(count);
    let mut i = 0;
    while out.len() < count {
        let mut p = bases[i % bases.len()].clone();
        i += 1;
        let us = p.side();
        let steps = p.steps_left();
        let center = if around_traps {
            let traps: Vec<Square> = Bitboard::TRAPS.collect();
            traps[rng.random_range(0..traps.len())]
        } else {
            let rabbits: Vec<Square> = p.rabbits(us).collect();
            rabbits[rng.random_range(0..rabbits.len())]
        };
        for _ in 0..rng.random_range(1..12) {
            let f = center.file() as i32 + rng.random_range(-3i32..=3);
            let dr = rng.random_range(-2i32..=3);
            let r = center.rank() as i32 + if us == Color::Gold { dr } else { -dr };
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                continue;
            }
            let sq = Square::from_coords(f as u8, r as u8);
            if p.piece_at(sq).is_some() {
                if rng.random_range(0..3) == 0 {
                    p.remove(sq);
                }
                continue;
            }
            let c = if rng.random_range(0..2) == 0 {
                us
            } else {
                us.opp()
            };
            let k = Kind::ALL[rng.random_range(0..6)];
            let on_goal = k == Kind::Rabbit && Bitboard::goal(c).contains(sq);
            if p.count(c, k) < k.full_count() && !on_goal {
                p.put(Piece::new(c, k), sq);
            }
        }
        for t in Bitboard::TRAPS {
            if let Some(pc) = p.piece_at(t)
                && (adjacent(t) & p.occupied_by(pc.color())).is_empty()
            {
                p.remove(t);
            }
        }
        p.set_steps_left(steps);
        if p.rabbits(us).any() && !p.has_goal(us) {
            out.push(p);
        }
    }
    out
}

/// Which random positions a differential check uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RandomKind {
    /// [`random_play_positions`]
    Play,
    /// [`random_near_goal_positions`]
    Near,
    /// [`random_mutated_positions`] around rabbits (goal) or traps (capture)
    Mutated,
}

impl RandomKind {
    /// `count` positions of this kind for `seed`; mutations go `around_traps`
    /// (capture studies) or around rabbits (goal studies).
    pub fn positions(self, seed: u64, count: usize, around_traps: bool) -> Vec<Position> {
        match self {
            RandomKind::Play => random_play_positions(seed, count),
            RandomKind::Near => random_near_goal_positions(seed, count),
            RandomKind::Mutated => random_mutated_positions(seed, count, around_traps),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RandomKind::Play => "random-play",
            RandomKind::Near => "near-goal",
            RandomKind::Mutated => "mutated",
        }
    }
}
