//! `aamir replay`: replays every game of an arimaa.com archive through the
//! rules and compares the rule ending with the record's termination.

use crate::board::record::{agrees, parse_archive, replay};
use crate::outln;
use anyhow::{Context, Result, bail};

/// Replays a file and prints one line per game and a summary; fails on any
/// illegal move or disagreement.
pub fn run(path: &str) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let games = parse_archive(&text)?;
    let mut bad = 0;
    for g in &games {
        match replay(&g.moves) {
            Ok(r) => {
                let ending = match r.outcome {
                    Some(o) => format!("{} by {}", o.winner.name(), o.reason.name()),
                    None => "no rule ending".to_string(),
                };
                let ok = agrees(g, r.outcome);
                if !ok {
                    bad += 1;
                }
                outln!(
                    "{}\t{} turns\t{}\trecord {}/{}\t{}",
                    g.id(),
                    r.moves,
                    ending,
                    g.field("result"),
                    g.field("termination"),
                    if ok { "ok" } else { "DISAGREE" }
                )?;
            }
            Err(e) => {
                bad += 1;
                outln!("{}\tILLEGAL\t{e}", g.id())?;
            }
        }
    }
    outln!(
        "{} games, {} agree, {} disagree or illegal",
        games.len(),
        games.len() - bad,
        bad
    )?;
    if bad > 0 {
        bail!("{bad} of {} games failed", games.len());
    }
    Ok(())
}
