//! What one game produced: who won, why, every move with its clock, and for
//! a forfeit the engine's stderr and the last lines of the exchange. This
//! is the unit the summary stores and the records are written from.

use super::process::FaultKind;
use crate::board::record::GameRecord;
use crate::board::{Color, EndReason};
use serde::{Deserialize, Serialize};

/// A side, in records (`g`/`s` there, `gold`/`silver` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Gold,
    Silver,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Gold => Side::Silver,
            Side::Silver => Side::Gold,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Side::Gold => 0,
            Side::Silver => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Gold => "gold",
            Side::Silver => "silver",
        }
    }

    /// The archive's `result` letter.
    pub fn archive_letter(self) -> char {
        match self {
            Side::Gold => 'w',
            Side::Silver => 'b',
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Gold => Side::Gold,
            Color::Silver => Side::Silver,
        }
    }
}

/// How a game ended. The first three are the rules' own endings; the rest
/// are the referee's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    Goal,
    Elimination,
    Immobilization,
    /// The loser passed its deadline plus the lag margin.
    Time,
    /// The loser sent a move the rules refuse (including a third
    /// repetition, an unchanged board, a bad setup or unreadable notation).
    Illegal,
    /// The loser crashed, hung outside a timed turn, printed garbage, broke
    /// the protocol or could not be started.
    Crash,
    /// The loser sent `bestmove resign`.
    Resign,
    /// The turn limit or the game's total time was reached; decided by the
    /// arimaa.com scoring rule (more pieces, else silver).
    Score,
}

impl Termination {
    pub const ALL: [Termination; 8] = [
        Termination::Goal,
        Termination::Elimination,
        Termination::Immobilization,
        Termination::Time,
        Termination::Illegal,
        Termination::Crash,
        Termination::Resign,
        Termination::Score,
    ];

    /// The archive's `termination` letter (arimaa.com: `f` is forfeit,
    /// `s` decided by score).
    pub fn letter(self) -> char {
        match self {
            Termination::Goal => 'g',
            Termination::Elimination => 'e',
            Termination::Immobilization => 'm',
            Termination::Time => 't',
            Termination::Illegal => 'i',
            Termination::Crash => 'f',
            Termination::Resign => 'r',
            Termination::Score => 's',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Termination::Goal => "goal",
            Termination::Elimination => "elimination",
            Termination::Immobilization => "immobilization",
            Termination::Time => "time",
            Termination::Illegal => "illegal",
            Termination::Crash => "crash",
            Termination::Resign => "resign",
            Termination::Score => "score",
        }
    }
}

impl From<EndReason> for Termination {
    fn from(r: EndReason) -> Termination {
        match r {
            EndReason::Goal => Termination::Goal,
            EndReason::Elimination => Termination::Elimination,
            EndReason::Immobilization => Termination::Immobilization,
        }
    }
}

/// One accepted move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// `12g`
    pub label: String,
    /// Canonical notation (capture tokens included).
    pub text: String,
    /// Seconds the mover took; `None` for moves given by the opening file.
    pub used: Option<f64>,
    /// The mover's reserve after the move, in seconds.
    pub reserve: Option<f64>,
}

/// The engine at fault in a forfeit, and what it left behind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultRecord {
    pub engine: String,
    pub side: Side,
    pub kind: FaultKind,
    pub detail: String,
    /// Last lines of the engine's stderr.
    pub stderr: Vec<String>,
    /// Last lines exchanged (`>` sent to the engine, `<` received).
    pub exchange: Vec<String>,
}

/// A finished game of a match, with what the match reports need beside
/// its moves (engines, clocks, the fault); [`MatchGame::record`] gives the
/// game as a [`GameRecord`] for the readers of records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchGame {
    /// Position in the full schedule, from 1; unique across shards.
    pub id: u32,
    /// Round within the pairing, from 0; even rounds give the pairing's
    /// first engine gold.
    pub round: u32,
    /// Index into the summary's pairings.
    pub pairing: usize,
    /// Index into the openings file, if one is used.
    pub opening: Option<usize>,
    pub gold: String,
    pub silver: String,
    pub winner: Side,
    pub termination: Termination,
    /// In words: the rule ending, the illegal move's error, the fault.
    pub detail: String,
    pub moves: Vec<MoveRecord>,
    /// The label the game stopped at (the side to move next), `31s`.
    pub final_label: String,
    /// The move an engine sent that the rules refused, if any.
    pub attempted: Option<String>,
    /// Time control as arimaa.com writes it (`gold;silver` when they
    /// differ).
    pub timecontrol: String,
    pub start_unix: u64,
    pub end_unix: u64,
    pub seconds: f64,
    pub fault: Option<FaultRecord>,
}

impl MatchGame {
    /// The game as a record: its moves, and the archive's `id`, `result`
    /// and `termination` columns.
    pub fn record(&self) -> GameRecord {
        let mut r = GameRecord::from_moves(
            self.moves
                .iter()
                .map(|m| (m.label.clone(), m.text.clone()))
                .collect(),
        );
        for (k, v) in [
            ("id", self.id.to_string()),
            ("result", self.winner.archive_letter().to_string()),
            ("termination", self.termination.letter().to_string()),
        ] {
            r.fields.insert(k.to_string(), v);
        }
        r
    }

    pub fn winner_name(&self) -> &str {
        match self.winner {
            Side::Gold => &self.gold,
            Side::Silver => &self.silver,
        }
    }

    pub fn loser_name(&self) -> &str {
        match self.winner {
            Side::Gold => &self.silver,
            Side::Silver => &self.gold,
        }
    }

    /// The kinds (`r`, `c`, `d`, `h`, `m`, `e`) of the pieces `side` lost
    /// to captures in this game, read from the capture tokens (`Rf3x`) of
    /// every move: a piece can fall on either side's turn, so the token's
    /// letter, not the mover, says whose it was.
    fn captured(&self, side: Side) -> impl Iterator<Item = char> + '_ {
        self.moves
            .iter()
            .flat_map(|m| m.text.split_whitespace())
            .filter(|t| t.len() == 4 && t.ends_with('x'))
            .filter_map(|t| t.chars().next())
            .filter(move |l| (side == Side::Gold) == l.is_ascii_uppercase())
            .map(|l| l.to_ascii_lowercase())
    }

    /// Material `side` lost to captures in this game, in the units the
    /// strength notes use (rabbit 1, cat and dog 2, horse 3, camel 5,
    /// elephant 9).
    pub fn material_lost(&self, side: Side) -> u32 {
        self.captured(side)
            .map(|k| match k {
                'r' => 1,
                'c' | 'd' => 2,
                'h' => 3,
                'm' => 5,
                'e' => 9,
                _ => 0,
            })
            .sum()
    }

    /// Rabbits `side` lost to captures in this game.
    pub fn rabbits_lost(&self, side: Side) -> u32 {
        self.captured(side).filter(|&k| k == 'r').count() as u32
    }

    /// Seconds `side` used over its timed moves (the opening file's moves
    /// have no time), and how many such moves it made.
    pub fn time_used(&self, side: Side) -> (f64, u32) {
        let mut total = (0.0, 0);
        for m in &self.moves {
            let gold = m.label.ends_with(['g', 'w']);
            if let Some(t) = m.used
                && gold == (side == Side::Gold)
            {
                total.0 += t;
                total.1 += 1;
            }
        }
        total
    }
}
