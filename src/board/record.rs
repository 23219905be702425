//! arimaa.com game archives: the tab-separated format with a header row,
//! `movelist` holding moves separated by a literal `\n`, labelled `1g`/`1s`
//! (or the old `1w`/`1b`), and replaying a record through the rules.

use super::error::{MoveError, NotationError};
use super::game::Game;
use super::position::Outcome;
use super::types::Color;
use std::collections::HashMap;

/// One game row of an archive.
#[derive(Clone, Debug)]
pub struct ArchiveGame {
    /// Every column by header name.
    pub fields: HashMap<String, String>,
    /// `(label, move)` pairs; a trailing label with no move is dropped.
    pub moves: Vec<(String, String)>,
}

impl ArchiveGame {
    pub fn field(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", |s| s.as_str())
    }

    pub fn id(&self) -> &str {
        self.field("id")
    }

    /// The winner per the record's `result` (`w`/`g` gold, `b`/`s` silver).
    pub fn winner(&self) -> Option<Color> {
        self.field("result")
            .chars()
            .next()
            .and_then(Color::from_char)
    }

    /// `termination` letter: g, e, m, t, r, i (or others a site may add).
    pub fn termination(&self) -> char {
        self.field("termination").chars().next().unwrap_or('?')
    }
}

/// Splits a movelist into labelled moves.
pub fn parse_movelist(movelist: &str) -> Result<Vec<(String, String)>, NotationError> {
    let mut out = Vec::new();
    for line in movelist
        .split("\\n")
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        let (label, mv) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let digits = label.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let side = &label[digits.len()..];
        if digits.parse::<u32>().is_err()
            || side.len() != 1
            || Color::from_char(side.chars().next().unwrap_or('?')).is_none()
        {
            return Err(NotationError::BadRecord(format!(
                "`{label}` is not a move label like `12g` or `12w`"
            )));
        }
        if !mv.trim().is_empty() {
            out.push((label.to_string(), mv.trim().to_string()));
        }
    }
    Ok(out)
}

/// Parses an archive file: `#` lines are comments, the first other line is
/// the header.
pub fn parse_archive(text: &str) -> Result<Vec<ArchiveGame>, NotationError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(NotationError::BadRecord("no header row".into()));
    };
    let names: Vec<&str> = header.split('\t').collect();
    if !names.contains(&"movelist") {
        return Err(NotationError::BadRecord(
            "the header has no `movelist` column".into(),
        ));
    }
    let mut games = Vec::new();
    for (n, line) in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != names.len() {
            return Err(NotationError::BadRecord(format!(
                "line {}: {} columns, the header has {}",
                n + 1,
                cols.len(),
                names.len()
            )));
        }
        let fields: HashMap<String, String> = names
            .iter()
            .zip(&cols)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let moves = parse_movelist(&fields["movelist"]).map_err(|e| {
            let why = match e {
                NotationError::BadRecord(m) => m,
                other => other.to_string(),
            };
            NotationError::BadRecord(format!(
                "line {} (game {}): {why}",
                n + 1,
                fields.get("id").map_or("?", |s| s.as_str())
            ))
        })?;
        games.push(ArchiveGame { fields, moves });
    }
    Ok(games)
}

/// What replaying a record found.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Moves played, setups included.
    pub moves: usize,
    /// The rules' verdict after the last move, if the game ended by rule.
    pub outcome: Option<Outcome>,
    /// The game as replayed.
    pub game: Game,
}

/// A move in a record that the rules refuse.
#[derive(Clone, Debug, thiserror::Error)]
#[error("move {label} `{text}`: {error}")]
pub struct ReplayError {
    pub label: String,
    pub text: String,
    pub error: MoveError,
}

/// Plays every move of a record through the rules.
pub fn replay(moves: &[(String, String)]) -> Result<Replay, ReplayError> {
    let mut game = Game::new();
    for (label, text) in moves {
        let expect = game.label();
        let old = label.replace('w', "g").replace('b', "s");
        if old != expect {
            return Err(ReplayError {
                label: label.clone(),
                text: text.clone(),
                error: MoveError::Notation(NotationError::BadRecord(format!(
                    "expected move {expect} here"
                ))),
            });
        }
        game.play(text).map_err(|error| ReplayError {
            label: label.clone(),
            text: text.clone(),
            error,
        })?;
    }
    Ok(Replay {
        moves: moves.len(),
        outcome: game.outcome(),
        game,
    })
}

/// Whether a replayed game's rule ending agrees with the record: `g`, `e`
/// and `m` need that ending with the recorded winner; every other
/// termination needs no rule ending at all.
pub fn agrees(game: &ArchiveGame, outcome: Option<Outcome>) -> bool {
    match (game.termination(), outcome) {
        ('g' | 'e' | 'm', Some(o)) => {
            o.reason.letter() == game.termination() && Some(o.winner) == game.winner()
        }
        ('g' | 'e' | 'm', None) => false,
        (_, o) => o.is_none(),
    }
}
