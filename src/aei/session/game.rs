//! The game as the controller sets it: `newgame`, `setposition`,
//! `makemove`, the setup answered without a search, and the rules checks
//! every answer passes before it goes out.

use super::{Engine, SearchBackend};
use crate::aei::protocol::reply;
use crate::board::{Color, Game, Position, Turn};
use crate::eval::Evaluator;
use crate::search::setup::choose_setup;
use crate::search::static_best_turn;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::Instant;

impl<S: SearchBackend> Engine<S> {
    pub(super) fn on_newgame(&mut self) {
        self.abandon_search("newgame");
        self.in_game = true;
        self.game = new_game();
        self.clock.new_game(Instant::now());
        self.ponder_answer = None;
        match self.searcher.as_mut() {
            Some(s) => s.new_game(),
            None => self.pending.new_game = true,
        }
    }

    pub(super) fn on_setposition(&mut self, pos: Position) {
        if pos.side() == Color::Silver
            && pos.occupied_by(Color::Gold).is_empty()
            && pos.occupied_by(Color::Silver).is_empty()
        {
            // Silver sets up only after gold has: taken as a setup
            // position, it would be answered with a gold setup.
            self.out.error(
                "`setposition`: silver to move on an empty board: no game reaches that \
                 (gold sets up first; give `g` for gold's setup, or gold's pieces for \
                 silver's); ignored",
            );
            return;
        }
        self.abandon_search("setposition");
        let both_set_up =
            !pos.occupied_by(Color::Gold).is_empty() && !pos.occupied_by(Color::Silver).is_empty();
        let mut g = Game::from_position(pos, if both_set_up { 2 } else { 1 });
        g.set_allow_handicap(true);
        if let Some(o) = g.outcome() {
            self.out.warning(&format!(
                "setposition: the game is already over: {}; `go` will get no bestmove",
                o.describe()
            ));
        }
        self.game = g;
        self.in_game = true;
        self.ponder_answer = None;
    }

    /// Warns once when a game is played before `newgame` or `setposition`
    /// began one: the message is answered in a new game from the start.
    pub(super) fn check_in_game(&mut self, what: &str) {
        if !self.in_game {
            self.in_game = true;
            self.out.warning(&format!(
                "`{what}` before `newgame`: taken as part of a new game from the start"
            ));
        }
    }

    pub(super) fn on_makemove(&mut self, mv: &str) {
        self.check_in_game("makemove");
        // Checked first: an illegal move changes nothing, not even a
        // search under way.
        let mut next = self.game.clone();
        match next.play(mv) {
            Ok(played) => {
                self.abandon_search("makemove");
                self.game = next;
                self.ponder_answer = None;
                log::debug!("played {} {}", played.label, played.notation);
            }
            Err(e) => self.out.error(&format!(
                "makemove `{mv}`: {e}; the game is unchanged ({} to move)",
                self.game.label()
            )),
        }
    }

    pub(super) fn answer_setup(&mut self, color: Color, at: Instant) {
        let plan = self.clock.start_turn(color, self.game.move_number(), at);
        let eval = self.config.evaluator();
        let net = eval.net.is_some().then_some(&eval);
        let setup = match self.seed {
            // A fixed seed: the same setup for the same position.
            Some(seed) => {
                let mut rng = StdRng::seed_from_u64(seed ^ (color.index() as u64 + 1));
                choose_setup(self.game.position(), color, &mut rng, net)
            }
            None => {
                let rng = self.rng.get_or_insert_with(rand::make_rng::<StdRng>);
                choose_setup(self.game.position(), color, rng, net)
            }
        };
        let game = self.game.clone();
        if let Err(e) = game.clone().play(&setup) {
            // Cannot happen for a proper setup phase; say so rather than
            // send a move the controller would score as illegal.
            self.out
                .error(&format!("no legal setup found (`{setup}`: {e})"));
            return;
        }
        self.out.line(reply::bestmove(&setup));
        self.clock.end_turn(color, plan.spent(Instant::now()), true);
    }
}

pub(super) fn new_game() -> Game {
    let mut g = Game::new();
    // A controller may give handicap setups; the engine never makes one.
    g.set_allow_handicap(true);
    g
}

/// The turn's notation if the rules accept it in `game` (which stays as
/// it is: the controller sends the move back with `makemove`).
pub(super) fn checked_notation(game: &Game, turn: &Turn) -> Option<String> {
    game.clone()
        .play_turn(turn)
        .ok()
        .map(|played| played.notation)
}

/// A legal turn for when the search gave none in time: the best by a
/// one-turn static look, so that even this answer does not hand the
/// opponent a piece or miss a goal. The default evaluation stands in for
/// the configured one, which lives with the search.
pub(super) fn fallback_turn(game: &Game) -> Option<String> {
    let turn = static_best_turn(game, &Evaluator::default())?;
    checked_notation(game, &turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aei::session::testkit::*;
    use crate::board::Phase;

    #[test]
    fn fallback_takes_a_goal_and_otherwise_the_best_static_turn() {
        // Gold's rabbit on b6 walks to b8.
        let rows = [
            " r  r  r", "  d  d  ", " R  e   ", "        ", "   E    ", "        ", "        ",
            "        ",
        ];
        let pos = crate::board::notation::parse_side_and_board(&format!("g [{}]", rows.concat()))
            .unwrap();
        let game = Game::from_position(pos, 10);
        let mut g = game.clone();
        g.play(&fallback_turn(&game).unwrap()).unwrap();
        assert_eq!(g.outcome().map(|o| o.winner), Some(Color::Gold));
        // From the opening: the turn scores best of all, and the first
        // legal turn (the old stand-in) scores lower.
        let game = opening_game();
        let eval = Evaluator::default();
        let score = |g: &Game| -eval.evaluate(g.position());
        let best = game
            .legal_turns()
            .iter()
            .map(|t| -eval.evaluate(&t.apply(game.position())))
            .max()
            .unwrap();
        let mut g = game.clone();
        g.play(&fallback_turn(&game).unwrap()).unwrap();
        assert_eq!(score(&g), best);
        let mut g = game.clone();
        g.play(&first_legal(&game).0).unwrap();
        assert!(score(&g) < best, "the test cannot tell the two apart");
    }

    #[test]
    fn setups_in_process() {
        let (exit, lines) = session(
            "aei\nsetoption name seed value 3\nnewgame\ngo\nmakemove Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\ngo\n",
        );
        assert_eq!(exit, Exit::EndOfInput);
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{lines:?}");
        let mut g = new_game();
        g.play(&best[0]["bestmove ".len()..]).unwrap();
        let mut g = new_game();
        g.play("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
            .unwrap();
        g.play(&best[1]["bestmove ".len()..]).unwrap();
        assert_eq!(g.phase(), Phase::Play);
    }
}
