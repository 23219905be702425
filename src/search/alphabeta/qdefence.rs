//! Threats resolved at the horizon (`qdef_min`): a leaf's static score
//! charges the opponent's captures only when they are one push or pull
//! away, so a camel the enemy elephant can drag onto a trap with a whole
//! turn (a pull and a push, four steps) looked safe at the leaf, and the
//! search walked into such positions a turn before the capture came into
//! view. Against Sharp most of aamir's lost officers went this way.
//!
//! Where the capture detector finds such a capture of a piece worth at
//! least `qdef_min`, the leaf is searched instead: the side to move either
//! ignores the threat (it gives the opponent the move at once) or plays a
//! turn kept to the actions that touch the threatened pieces, their
//! neighbours and the traps near them (`qdef_reach` rings more); either way
//! the opponent then gets one turn of the captures the detector finds, or
//! stands pat. The leaf scores the better of the two. Inside that search
//! nothing is resolved again and nothing is stored in the table, since
//! only some actions were tried.

use super::{NodeCtx, Worker, unpass};
use crate::board::{Bitboard, Kind, Position};
use crate::eval::material;
use crate::tactics::capture;

/// A resolution cache entry for a leaf where nothing is threatened.
pub(super) const NO_THREAT: i32 = i32::MIN;

/// Steps the opponent's capture may take: a whole turn.
const THREAT_STEPS: u8 = crate::board::STEPS_PER_TURN;

impl Worker<'_> {
    /// The resolved score of a leaf whose static score `e` (for the side to
    /// move) lies above `alpha`, when the opponent threatens a capture worth
    /// at least `qdef_min`; never above `e`. `None` when nothing is
    /// threatened (or the option is off, or this is already inside a
    /// resolution), so the caller keeps `e`.
    pub(super) fn resolve_threat(
        &mut self,
        pos: &mut Position,
        ctx: &NodeCtx,
        e: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let min = self.params.qdef_min;
        if min == 0 || ctx.qdef || e <= alpha {
            return None;
        }
        // Scores are asked only within the window: a threat that cannot
        // pull the score below beta changes nothing.
        let top = e.min(beta);
        let bar = top - self.params.qdef_margin;
        let key = pos.search_key();
        let slot = key as usize & (self.qdef_cache.len() - 1);
        let (k, v) = self.qdef_cache[slot];
        if k == key && key != 0 {
            if v == NO_THREAT {
                return None;
            }
            if v >= bar {
                return Some(e);
            }
        }
        let Some((area, loss)) = self.threat_area(pos, min) else {
            self.qdef_cache[slot] = (key, NO_THREAT);
            return None;
        };
        if e - loss >= top {
            return None;
        }
        let me = pos.side();
        let steps = pos.steps_left();
        let ply = ctx.ply;
        let turn_start = if pos.at_turn_start() {
            pos.hash()
        } else {
            ctx.turn_start
        };
        let c = NodeCtx {
            turn_start,
            depth: steps as i32,
            ply,
            ext_left: 0,
            null_ok: false,
            defend: area,
            qdef: true,
        };
        // Most threats can be parried: a null window at the static score
        // (or beta) settles those after the first defence that holds.
        let held = self.search(pos, c, bar - 1, bar);
        if self.aborted {
            return Some(0);
        }
        if held >= bar {
            self.qdef_cache[slot] = (key, held);
            return Some(e);
        }
        // Ignoring the threat: the opponent moves now. Repetition is not
        // asked, as this stands for any turn played away from the threat.
        pos.pass_turn();
        let ignored = -self.q_start(pos, ply + steps as i32, -top, -alpha, 1);
        unpass(pos, me, steps);
        if self.aborted {
            return Some(0);
        }
        let lo = alpha.max(ignored);
        let defended = if lo < bar - 1 {
            self.search(pos, c, lo, bar)
        } else {
            held
        };
        // Never above the static score: the search of one more turn would
        // otherwise lift every threatened leaf above its quiet siblings,
        // and the resolution only corrects a threat the static score missed.
        Some(ignored.max(defended).min(e))
    }

    /// The squares a defending action must touch: each piece of the side to
    /// move the opponent can capture next turn and is worth at least `min`,
    /// its neighbours, the traps within two squares of it and their
    /// neighbours, grown by `qdef_reach` rings; and the largest of those
    /// pieces' values. `None` when no such piece is threatened; the cheap
    /// filter settles most positions.
    fn threat_area(&self, pos: &Position, min: i32) -> Option<(Bitboard, i32)> {
        let me = pos.side();
        let opp = me.opp();
        // The pieces worth `min`: a piece's worth grows with its kind, so
        // the kinds are asked from the elephant down until one falls short.
        let mut valuable = Bitboard::EMPTY;
        for &k in Kind::ALL.iter().rev() {
            let of_kind = pos.kind_bb(me, k);
            if of_kind.is_empty() {
                continue;
            }
            if material::gain_of_capture(pos, opp, k) < min {
                break;
            }
            valuable |= of_kind;
        }
        if valuable.is_empty() {
            return None;
        }
        let caps = capture::capture_threats_among(pos, opp, THREAT_STEPS, valuable);
        if caps.is_empty() {
            return None;
        }
        let mut area = Bitboard::EMPTY;
        let mut loss = 0;
        for sq in caps.squares() {
            loss = loss.max(material::gain_of_capture(pos, opp, pos.kind_at(sq)));
            let here = Bitboard::from_square(sq);
            let near = here.neighbors() | here.neighbors().neighbors();
            let traps = Bitboard::TRAPS & (here | near);
            area |= here | here.neighbors() | traps | traps.neighbors();
        }
        for _ in 0..self.params.qdef_reach {
            area |= area.neighbors();
        }
        Some((area, loss))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_side_and_board;
    use crate::board::{Color, Square};
    use crate::search::alphabeta::tests::depth0;
    use crate::search::params::Params;

    fn gold(rows: [&str; 8]) -> Position {
        parse_side_and_board(&format!("g [{}]", rows.concat())).unwrap()
    }

    /// The depth-0 score of `p` without and with the resolution.
    fn both(p: &Position) -> (i32, i32) {
        let on = Params {
            qdef_min: 200,
            ..Params::default()
        };
        (
            depth0(p, &Params::default(), p.hash()).0,
            depth0(p, &on, p.hash()).0,
        )
    }

    /// Gold's camel on e5 is frozen by silver's elephant on d5; silver
    /// pushes it to f5 and onto the trap f6 with a whole turn (four steps),
    /// more than the static score's one push or pull. With `defender` on
    /// g5 gold guards f6 in one step (g5-g6); without it gold has nothing
    /// near enough to help.
    fn dragged_camel(defender: bool) -> Position {
        gold([
            "rrrrrrrr",
            "        ",
            "        ",
            if defender { "   eM H " } else { "   eM   " },
            "        ",
            "        ",
            "        ",
            "E      R",
        ])
    }

    #[test]
    fn the_threat_is_one_the_static_score_misses() {
        for defender in [false, true] {
            let p = dragged_camel(defender);
            let e5 = Square::parse("e5").unwrap();
            let caps = capture::capture_threats(&p, Color::Silver, 4);
            assert_eq!(caps.steps(e5), Some(4), "silver takes the camel in a turn");
            assert!(!crate::tactics::threats::two_step_captures(&p, Color::Silver).contains(e5));
        }
    }

    #[test]
    fn a_camel_that_cannot_be_saved_is_charged_at_the_leaf() {
        let p = dragged_camel(false);
        let (plain, resolved) = both(&p);
        let camel = material::gain_of_capture(&p, Color::Silver, crate::board::Kind::Camel);
        assert!(camel > 300, "a camel is worth {camel}");
        assert!(
            resolved < plain - camel / 2,
            "the lost camel should count: {resolved} against {plain}"
        );
    }

    #[test]
    fn a_camel_that_can_be_saved_is_not() {
        let p = dragged_camel(true);
        let (plain, resolved) = both(&p);
        assert!(
            (resolved - plain).abs() < 100,
            "the horse guards f6: {resolved} against {plain}"
        );
    }

    #[test]
    fn off_or_below_the_threshold_nothing_changes() {
        let p = dragged_camel(false);
        let high = Params {
            qdef_min: 5_000,
            ..Params::default()
        };
        let plain = depth0(&p, &Params::default(), p.hash()).0;
        assert_eq!(depth0(&p, &high, p.hash()).0, plain);
    }
}
