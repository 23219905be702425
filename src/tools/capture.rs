//! `aamir capture`: which enemy pieces a side can capture within its steps,
//! for one position. The comparison with the brute force is a `dev` study
//! (`tools::studies`).

use crate::board::Action;
use crate::board::Color;
use crate::board::notation::format_steps;
use crate::outln;
use crate::tactics::capture::capture_threats;
use crate::tools::movecount::load_position;
use anyhow::Result;

/// `aamir capture POSITION`: one line per capturable enemy piece of the side
/// to move (or of `attacker` with a fresh turn), `capture none` if none.
pub fn run_one(arg: &str, attacker: Option<Color>, steps: u8) -> Result<()> {
    let pos = load_position(arg)?;
    let who = attacker.unwrap_or(pos.side());
    let set = capture_threats(&pos, who, steps);
    if set.is_empty() {
        outln!("capture none")?;
    }
    let view = {
        let mut p = pos.clone();
        if who != pos.side() {
            p.set_side(who);
        }
        p
    };
    for (sq, n) in set.entries() {
        let piece = pos.piece_at(sq).map_or('?', |p| p.to_char());
        let first = set.first_action(sq).unwrap_or(Action::NONE);
        let steps: Vec<_> = first.steps().collect();
        outln!(
            "capture {piece}{sq} {n} first {}",
            format_steps(&view, &steps)?
        )?;
    }
    Ok(())
}
