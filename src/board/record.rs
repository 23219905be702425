//! Game records: arimaa.com game archives (the tab-separated format with a
//! header row, `movelist` holding moves separated by a literal `\n`,
//! labelled `1g`/`1s` or the old `1w`/`1b`), one [`GameRecord`] per game,
//! and [`Replayer`], the one walk through a record's moves: each move
//! checked by the rules and handed out typed, with the position before it.

use super::error::{MoveError, NotationError};
use super::game::{Game, Move, Phase, Played};
use super::position::{Outcome, Position};
use super::turn::Turn;
use super::types::Color;
use std::collections::HashMap;

/// A game as a record holds it: its columns (an archive row's, by header
/// name; none for a movelist file) and its moves as written. Every reader
/// (`aamir replay`, `analyze`, the tuners' data, `aamir match`'s
/// openings) takes records in this form and walks them with
/// [`GameRecord::positions`].
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// Every column by header name.
    pub fields: HashMap<String, String>,
    /// `(label, move)` pairs; a trailing label with no move is dropped.
    pub moves: Vec<(String, String)>,
}

impl GameRecord {
    /// A record of `moves` (label, text) with no columns.
    pub fn from_moves(moves: Vec<(String, String)>) -> GameRecord {
        GameRecord {
            fields: HashMap::new(),
            moves,
        }
    }

    /// The moves, each checked by the rules and typed, with the position
    /// before it (labels are not checked: [`replay`] does that).
    pub fn positions(&self) -> Replayer<impl Iterator<Item = (&str, &str)>> {
        Replayer::new(self.moves.iter().map(|(l, m)| (l.as_str(), m.as_str())))
    }

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
pub fn parse_archive(text: &str) -> Result<Vec<GameRecord>, NotationError> {
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
        games.push(GameRecord { fields, moves });
    }
    Ok(games)
}

/// The moves of one game in a record file's text: an arimaa.com archive
/// (the game `id`, which may be left out when the file holds one game) or
/// a movelist file (`1g ...` / `1w ...` lines, as AEI's `analyze` and
/// other bots' analysis tools read them: lines before the first move are
/// skipped, the moves end at the first line that is not one).
pub fn record_moves(text: &str, id: Option<&str>) -> Result<Vec<(String, String)>, NotationError> {
    let bad = |m: String| NotationError::BadRecord(m);
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap_or("");
    if first.contains('\t') {
        let games = parse_archive(text)?;
        let game = match (id, games.as_slice()) {
            (Some(id), _) => games
                .iter()
                .find(|g| g.id() == id)
                .ok_or_else(|| bad(format!("the file has no game with id {id}")))?,
            (None, [only]) => only,
            (None, _) => {
                return Err(bad(format!(
                    "the file holds {} games: pick one with --id GAMEID",
                    games.len()
                )));
            }
        };
        return Ok(game.moves.clone());
    }
    if id.is_some() {
        return Err(bad(
            "--id picks a game of an archive; the file is a movelist".into(),
        ));
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with(|c: char| c.is_ascii_digit()))
        .take_while(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    if lines.is_empty() {
        return Err(bad(
            "no moves (lines like `1g Ra1 Rb1 ...` or `12s Ed7s ...`)".into(),
        ));
    }
    parse_movelist(&lines.join("\\n"))
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

/// One move of a record as the rules accepted it.
#[derive(Clone, Debug)]
pub struct RecordMove {
    /// The position before the move (the board so far during the setup).
    pub before: Position,
    /// Where the game stood before the move: a setup or a turn.
    pub phase: Phase,
    /// The record's move number (`12` of `12g`).
    pub move_number: u32,
    /// Turns played before this one since the setups (0 for the first
    /// turn); `None` for a setup.
    pub turn_index: Option<u32>,
    /// The move: its label, canonical notation and typed form.
    pub played: Played,
}

impl RecordMove {
    /// The side that made the move.
    pub fn side(&self) -> Color {
        match self.phase {
            Phase::Setup(c) => c,
            Phase::Play => self.before.side(),
        }
    }

    /// The turn, unless the move is a setup.
    pub fn turn(&self) -> Option<&Turn> {
        self.played.mv.turn()
    }
}

/// The walk through a record's moves, `(label, text)`, played through the
/// rules from the start: an iterator of [`RecordMove`]s that ends after
/// the first move the rules refuse (handed out as the error) or at the
/// last move. The game as played so far stays readable
/// ([`Replayer::game`]), so a reader can look at the position before the
/// next move, or at the end, with the game's history for repetitions.
pub struct Replayer<I> {
    moves: I,
    game: Game,
    turns: u32,
    check_labels: bool,
    done: bool,
}

impl<'a, I: Iterator<Item = (&'a str, &'a str)>> Replayer<I> {
    pub fn new(moves: I) -> Replayer<I> {
        Replayer {
            moves,
            game: Game::new(),
            turns: 0,
            check_labels: false,
            done: false,
        }
    }

    /// Refuses a move whose label is not the game's (`12w` for `12g` and
    /// `12b` for `12s` are taken).
    pub fn checking_labels(mut self) -> Replayer<I> {
        self.check_labels = true;
        self
    }

    /// The game after the moves handed out so far (unchanged by a refused
    /// one).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Turns handed out so far, setups not counted: the next turn's
    /// [`RecordMove::turn_index`].
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The game after the moves handed out so far.
    pub fn into_game(self) -> Game {
        self.game
    }
}

impl<'a, I: Iterator<Item = (&'a str, &'a str)>> Iterator for Replayer<I> {
    type Item = Result<RecordMove, ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let Some((label, text)) = self.moves.next() else {
            self.done = true;
            return None;
        };
        let refused = |error| ReplayError {
            label: label.to_string(),
            text: text.to_string(),
            error,
        };
        let expect = self.game.label();
        if self.check_labels && label.replace('w', "g").replace('b', "s") != expect {
            self.done = true;
            return Some(Err(refused(MoveError::Notation(NotationError::BadRecord(
                format!("expected move {expect} here"),
            )))));
        }
        let before = self.game.position().clone();
        let phase = self.game.phase();
        let move_number = self.game.move_number();
        let played = match self.game.play(text) {
            Ok(p) => p,
            Err(e) => {
                self.done = true;
                return Some(Err(refused(e)));
            }
        };
        let turn_index = matches!(played.mv, Move::Turn(_)).then_some(self.turns);
        if turn_index.is_some() {
            self.turns += 1;
        }
        Some(Ok(RecordMove {
            before,
            phase,
            move_number,
            turn_index,
            played,
        }))
    }
}

/// Plays every move of a record through the rules, checking the labels.
pub fn replay(moves: &[(String, String)]) -> Result<Replay, ReplayError> {
    let mut walk =
        Replayer::new(moves.iter().map(|(l, m)| (l.as_str(), m.as_str()))).checking_labels();
    for m in walk.by_ref() {
        m?;
    }
    let game = walk.into_game();
    Ok(Replay {
        moves: moves.len(),
        outcome: game.outcome(),
        game,
    })
}

/// Whether a replayed game's rule ending agrees with the record: `g`, `e`
/// and `m` need that ending with the recorded winner; every other
/// termination needs no rule ending at all.
pub fn agrees(game: &GameRecord, outcome: Option<Outcome>) -> bool {
    match (game.termination(), outcome) {
        ('g' | 'e' | 'm', Some(o)) => {
            o.reason.letter() == game.termination() && Some(o.winner) == game.winner()
        }
        ('g' | 'e' | 'm', None) => false,
        (_, o) => o.is_none(),
    }
}
