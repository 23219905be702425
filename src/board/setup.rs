//! A setup as the engine handles it: where one side places its pieces on
//! its two home ranks before the first turn (16 pieces, or fewer in a
//! controller-given handicap). Like [`Turn`](super::Turn) for the turns,
//! this is the typed form; notation is written at the edges
//! ([`Setup::notation`]) and read at the edges
//! ([`Game::play`](super::Game::play) takes text and records the `Setup`
//! it accepted).

use super::notation::format_setup;
use super::types::{Color, Kind, Piece, Square};

/// One side's placements, in square order (the order records write them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    color: Color,
    placements: Vec<(Piece, Square)>,
}

impl Setup {
    /// The setup of `color` placing `placements` (any order). Not checked
    /// against the rules: [`Game::play`](super::Game::play) does that.
    pub fn new(color: Color, mut placements: Vec<(Piece, Square)>) -> Setup {
        placements.sort_by_key(|&(_, sq)| sq);
        Setup { color, placements }
    }

    /// `color`'s pieces of `front[f]` on file `f` of its front home rank
    /// (rank 2 for gold, 7 for silver) and `back[f]` on its back rank.
    pub fn from_ranks(color: Color, front: [Kind; 8], back: [Kind; 8]) -> Setup {
        let (front_rank, back_rank) = match color {
            Color::Gold => (1, 0),
            Color::Silver => (6, 7),
        };
        let mut placements = Vec::with_capacity(16);
        for file in 0..8u8 {
            let at = |rank| Square::from_coords(file, rank);
            placements.push((Piece::new(color, front[file as usize]), at(front_rank)));
            placements.push((Piece::new(color, back[file as usize]), at(back_rank)));
        }
        Setup::new(color, placements)
    }

    pub fn color(&self) -> Color {
        self.color
    }

    /// The pieces and their squares, in square order.
    pub fn placements(&self) -> &[(Piece, Square)] {
        &self.placements
    }

    /// The setup in AEI / record notation (`Ra1 Rb1 ... Hh2`).
    pub fn notation(&self) -> String {
        format_setup(&self.placements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Game, Move};

    #[test]
    fn ranks_place_front_and_back_and_play_as_written() {
        use Kind::*;
        let front = [Horse, Dog, Cat, Camel, Elephant, Cat, Dog, Horse];
        let s = Setup::from_ranks(Color::Silver, front, [Rabbit; 8]);
        assert_eq!(s.placements().len(), 16);
        assert_eq!(
            s.placements()[0],
            (Piece::new(Color::Silver, Horse), {
                Square::parse("a7").unwrap()
            })
        );
        let text = s.notation();
        assert!(
            text.starts_with("ha7 db7 cc7 md7 ee7") && text.ends_with("rh8"),
            "{text}"
        );
        let mut g = Game::new();
        g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
            .unwrap();
        let played = g.play(&text).unwrap();
        assert_eq!(played.notation, text);
        assert_eq!(
            played.mv,
            Move::Setup(s),
            "the game records the setup it read"
        );
    }
}
