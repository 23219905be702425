//! The static evaluation treats the two colours and the two wings alike:
//! every position of the archive games, with the default weights and with
//! every weight doubled, scores the same for its side to move
//! after the colours are swapped (ranks mirrored) and after the files are
//! mirrored. Self-play cannot find a term that favours one colour or one
//! wing, because both sides share it; a game against another engine pays
//! for it on one side only.

use aamir::board::notation::board_string;
use aamir::board::record::parse_archive;
use aamir::board::{Game, Piece, Position, Square};
use aamir::eval::Evaluator;
use aamir::settings::Table;

/// `pos` with the colours swapped and the ranks mirrored, the other side
/// to move with the same steps left.
fn swap_colours(pos: &Position) -> Position {
    let mut out = Position::empty(pos.side().opp());
    for sq in pos.occupied() {
        let p = pos.piece_at(sq).expect("occupied");
        let to = Square::from_coords(sq.file(), 7 - sq.rank());
        out.put(Piece::new(p.color().opp(), p.kind()), to);
    }
    out.set_steps_left(pos.steps_left());
    out
}

/// `pos` with file a swapped for h, b for g and so on.
fn mirror_files(pos: &Position) -> Position {
    let mut out = Position::empty(pos.side());
    for sq in pos.occupied() {
        let p = pos.piece_at(sq).expect("occupied");
        out.put(p, Square::from_coords(7 - sq.file(), sq.rank()));
    }
    out.set_steps_left(pos.steps_left());
    out
}

/// Every weight of every term doubled (within its range), so that each
/// term is seen at a second strength besides its default.
fn every_weight_doubled() -> Evaluator {
    let mut e = Evaluator::default();
    for i in 0..aamir::eval::Weights::len() {
        let v = e.w.get(i).expect("index in range");
        let spec = aamir::eval::Weights::spec(i).expect("index in range");
        e.w.set(i, (2 * v).clamp(spec.min, spec.max))
            .expect("in range");
    }
    assert!(e.w != Evaluator::default().w);
    e
}

#[test]
fn every_archive_position_scores_alike_mirrored_and_with_colours_swapped() {
    let evaluators = [Evaluator::default(), every_weight_doubled()];
    let mut checked = 0;
    let mut bad = Vec::new();
    for file in ["games-2026-02.tsv", "games-2011-extra.tsv"] {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect(&path);
        for g in parse_archive(&text).expect(file) {
            let mut game = Game::new();
            for (label, text) in &g.moves {
                game.play(text)
                    .unwrap_or_else(|err| panic!("{file} {label}: {err}"));
                let pos = game.position();
                if game.outcome().is_some() {
                    continue;
                }
                // Both the turn start and a mid-turn position with two
                // steps left, where the mover's own captures count.
                for steps in [4, 2] {
                    let mut pos = pos.clone();
                    pos.set_steps_left(steps);
                    let (swapped, mirrored) = (swap_colours(&pos), mirror_files(&pos));
                    for (i, e) in evaluators.iter().enumerate() {
                        checked += 1;
                        let score = e.evaluate(&pos);
                        let (sw, mi) = (e.evaluate(&swapped), e.evaluate(&mirrored));
                        if score != sw || score != mi {
                            bad.push(format!(
                                "evaluator {i}, game {} after {label}, {steps} steps left, {}: \
                                 {score}, colours swapped {sw}, files mirrored {mi}",
                                g.id(),
                                board_string(&pos)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 20_000, "only {checked} checks");
    assert!(
        bad.is_empty(),
        "{} asymmetric:\n{}",
        bad.len(),
        bad[..bad.len().min(5)].join("\n")
    );
}
