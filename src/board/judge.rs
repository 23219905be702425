//! The rules' side of refereeing a game, shared by every front end that
//! plays whole games: `aamir match`'s referee (engines over AEI) and
//! `aamir gen` (the engine in-process). A move counts only once the rules
//! accept it; the game ends by the rules ([`Game::outcome`]), or, stopped
//! by a turn limit or a clock, by the arimaa.com scoring rule ("the player
//! who currently has or most recently had more pieces left after the
//! completion of a turn wins; otherwise silver wins"), for which the judge
//! keeps the pieces after every turn.

use super::error::MoveError;
use super::game::{Game, Phase, Played};
use super::turn::Turn;
use super::types::Color;

/// A game under the rules, with the piece counts the scoring rule needs.
#[derive(Clone, Debug, Default)]
pub struct Judge {
    game: Game,
    /// Pieces of gold and silver after each completed turn.
    piece_counts: Vec<(u32, u32)>,
}

/// A game decided by the scoring rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreVerdict {
    pub winner: Color,
    /// Pieces on the board now.
    pub gold: u32,
    pub silver: u32,
}

impl Judge {
    /// A new game: empty board, gold to set up.
    pub fn new() -> Judge {
        Judge::default()
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Checks and plays a setup or a move in notation (an engine's
    /// answer, an opening's move); on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<Played, MoveError> {
        let played = self.game.play(text)?;
        self.count();
        Ok(played)
    }

    /// Checks and plays a typed turn (the in-process engine's); on error
    /// nothing changes.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<Played, MoveError> {
        let played = self.game.play_turn(turn)?;
        self.count();
        Ok(played)
    }

    /// Notes the pieces after a completed turn (the setups are not turns).
    fn count(&mut self) {
        if self.game.phase() == Phase::Play {
            let pos = self.game.position();
            self.piece_counts.push((
                pos.occupied_by(Color::Gold).count(),
                pos.occupied_by(Color::Silver).count(),
            ));
        }
    }

    /// The scoring rule's verdict on the game as it stands: the side that
    /// has, or most recently had, more pieces after a completed turn;
    /// otherwise silver.
    pub fn by_score(&self) -> ScoreVerdict {
        let winner =
            self.piece_counts
                .iter()
                .rev()
                .find(|(g, s)| g != s)
                .map_or(Color::Silver, |(g, s)| {
                    if g > s { Color::Gold } else { Color::Silver }
                });
        let (gold, silver) = self.piece_counts.last().copied().unwrap_or((0, 0));
        ScoreVerdict {
            winner,
            gold,
            silver,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLD: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
    const SILVER: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7";

    #[test]
    fn the_score_goes_to_who_last_had_more_pieces_else_silver() {
        let mut j = Judge::new();
        assert_eq!(j.by_score().winner, Color::Silver, "no turn yet");
        j.play(GOLD).unwrap();
        j.play(SILVER).unwrap();
        assert_eq!(
            j.by_score(),
            ScoreVerdict {
                winner: Color::Silver,
                gold: 16,
                silver: 16
            },
            "equal pieces: silver"
        );
        // Silver's cat steps onto the trap c6 alone and is lost there.
        j.play("Ee2n Ee3n Ee4n Ee5n").unwrap();
        j.play("cc7s cc6x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(j.by_score().winner, Color::Gold);
        assert_eq!((j.by_score().gold, j.by_score().silver), (16, 15));
        // A refused move changes nothing, the counts included.
        let before = j.by_score();
        assert!(j.play("Ra1n").is_err());
        assert_eq!(j.by_score(), before);
    }
}
