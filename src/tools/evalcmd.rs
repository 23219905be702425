//! `aamir eval`: the static score of one position, term by term, so that
//! a user (or an engineer reading a lost game) sees which knowledge drives
//! a choice: one line per term of [`crate::eval::TERMS`]. The position
//! comes as an argument or from a game record.

use crate::board::Position;
use crate::board::notation::long_diagram;
use crate::eval::{EVAL_LIMIT, Evaluator};
use crate::outln;
use crate::tools::analyze::{load_record, play_until};
use crate::tools::movecount::load_position;
use anyhow::{Context, Result};

/// Where the position comes from.
pub enum Source<'a> {
    Position(&'a str),
    Game {
        path: &'a str,
        id: Option<&'a str>,
        before: Option<&'a str>,
    },
}

/// `aamir eval`: prints the position, then one line per term (gold's part,
/// silver's part, the score for gold) and the total for the side to move.
/// `then` holds whole moves played on top, each checked by the rules.
pub fn run(source: Source, then: &[String], eval: &Evaluator) -> Result<()> {
    let mut game = match source {
        Source::Position(p) => {
            let pos = load_position(p)?;
            // Numbered as `analyze` numbers a bare position.
            crate::board::Game::from_position(pos, 1)
        }
        Source::Game { path, id, before } => play_until(&load_record(path, id)?, before)?,
    };
    for m in then {
        game.play(m).with_context(|| format!("--then `{m}`"))?;
    }
    let pos = game.position();
    outln!("{}", long_diagram(pos, game.move_number()).trim_end())?;
    print_terms(pos, eval)
}

/// The table of [`Evaluator::explain`] for `pos`.
fn print_terms(pos: &Position, eval: &Evaluator) -> Result<()> {
    let lines = eval.explain(pos);
    let width = lines.iter().map(|l| l.name.len()).max().unwrap_or(0);
    outln!(
        "{:width$}  {:>7} {:>7} {:>8}",
        "term",
        "gold",
        "silver",
        "for gold"
    )?;
    for l in &lines {
        let (g, s) = match l.sides {
            Some((g, s)) => (g.to_string(), s.to_string()),
            None => ("".to_string(), "".to_string()),
        };
        outln!("{:width$}  {g:>7} {s:>7} {:>8}", l.name, l.net)?;
    }
    let for_gold: i32 = lines.iter().map(|l| l.net).sum();
    let mover = pos.side();
    let total = eval.evaluate(pos);
    let clamped = if for_gold.abs() > EVAL_LIMIT {
        " (clamped)"
    } else {
        ""
    };
    outln!(
        "total {total} for {} to move ({} steps left){clamped}",
        if mover == crate::board::Color::Gold {
            "gold"
        } else {
            "silver"
        },
        pos.steps_left()
    )?;
    Ok(())
}
