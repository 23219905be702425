//! `aamir suite`: a tactics suite, positions from games aamir lost where a
//! deeper search finds a capture, a capture defence, a goal or a goal
//! defence that aamir at about a second missed, and the command that runs
//! aamir's own search (the one `aamir analyze` and the AEI engine use) on
//! each of them and counts the solved ones by kind. `aamir suite make`
//! builds such a file from `aamir match` game records.
//!
//! # File format
//!
//! A tab-separated file (`tests/data/tactics.tsv`): lines starting with
//! `#` are comments, blank lines are skipped, the first other line is the
//! header [`HEADER`], then one row per position with these columns:
//!
//! - `id`: unique, `t` and a number (`t0001`);
//! - `kind`: `capture`, `capture-defence`, `goal` or `goal-defence`;
//! - `split`: `tune` or `holdout`. Holdout rows are kept out of any tuning;
//!   `aamir suite make` makes every fifth id (`t0005`, `t0010`, ...)
//!   holdout ([`HOLDOUT_EVERY`]);
//! - `position`: side to move and board as `aamir analyze` takes them,
//!   `g [64 squares, rank 8 first]`, a fresh turn;
//! - `solutions`: one or more whole turns in step notation separated by
//!   ` | ` (`Ee4n Ee5n Md4n Md5x | Ee4w ...`);
//! - `need`: for the capture kinds, the balance (below) a move must reach;
//!   `-` for the goal kinds;
//! - `played`: the move aamir played in the game (a known non-solution),
//!   or `-`;
//! - `source`: where the position comes from, `FILE game ID move LABEL`.
//!
//! # Grading
//!
//! A move solves a position if it ends in the same position as one of the
//! listed solutions, or if it meets the criterion of the position's kind.
//! The criteria read the position `A` after the move (the opponent to move,
//! a fresh turn) with the rules code and the exact tactics detectors:
//!
//! - the move *wins* if the game is over at `A` with the mover the winner
//!   (goal, elimination or the opponent immobilised, repetition not
//!   counted), and *loses* if it is over with the opponent the winner;
//! - the move *allows a goal* if, otherwise, the opponent can reach goal in
//!   its next turn at `A` ([`crate::tactics::goal::goal_plan`], exact);
//! - its *balance* is the material it gains minus the threat it leaves, in
//!   points ([`points`]: rabbit 1, cat 2, dog 3, horse 4, camel 6,
//!   elephant 10): the points of the enemy pieces captured during the move,
//!   minus those of the mover's own pieces lost during it, minus the points
//!   of the most valuable of the mover's pieces the opponent can capture in
//!   its next turn ([`crate::tactics::capture::capture_threats`] with four
//!   steps, exact; one piece, the largest, not a sum).
//!
//! Criteria by kind:
//!
//! - `goal`: the move wins;
//! - `goal-defence`: the move wins, or does not lose and allows no goal;
//! - `capture`, `capture-defence`: the move wins, or does not lose, allows
//!   no goal and its balance is at least `need` (the balance of the
//!   reference solution).
//!
//! These make a [`Grade`] whose [`Grade::key`] orders moves: wins, then
//! safe moves by balance, then moves that allow a goal, then moves that
//! lose.
//!
//! # Generation
//!
//! `aamir suite make` replays the games the named engines lost and grades
//! the move played at each of their turns. A position goes to the deep
//! search only if the detectors see something ([`worth_a_deep_look`]: a
//! goal or capture was there, or the move leaves one to the opponent). The
//! deep search is Sharp's `searchPos` at one or more depths, or aamir's own
//! at a long time. A position is kept when the best-graded deep move has a
//! strictly higher key than the move played and aamir at the check time
//! does not solve it, at most `--per-game` a game (largest improvement
//! first), each position once. Its kind is what improved
//! ([`improvement_kind`]): `goal` if the deep move wins, `goal-defence` if
//! it allows no goal where the move played allowed one (or lost), else
//! `capture` when it gains points during the move (`gained` above 0) and
//! more than the move played, else `capture-defence` (it loses less: it
//! saves a piece, or sacrifices or leaves less). Its `need` is the best
//! deep move's balance, its solutions the deep moves meeting the criterion.

use crate::board::bitboard::adjacent;
use crate::board::notation::{board_string, parse_side_and_board};
use crate::board::record::parse_archive;
use crate::board::{Bitboard, Color, Game, Kind, Position, Turn};
use crate::outln;
use crate::search::{Limits, Searcher};
use crate::tactics::capture::capture_threats;
use crate::tactics::goal::goal_plan;
use crate::tools::analyze::{AnalyzeOptions, limits};
use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The header line of a suite file.
pub const HEADER: &str = "id\tkind\tsplit\tposition\tsolutions\tneed\tplayed\tsource";
/// Every this many ids (by number) is a holdout row.
pub const HOLDOUT_EVERY: u32 = 5;
/// Thinking time per position when neither a time nor a depth is given.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);
/// Separator of the solutions.
const SOLUTION_SEP: char = '|';

/// Points of a piece kind for the balance: rabbit 1, cat 2, dog 3, horse 4,
/// camel 6, elephant 10.
pub fn points(kind: Kind) -> i32 {
    match kind {
        Kind::Rabbit => 1,
        Kind::Cat => 2,
        Kind::Dog => 3,
        Kind::Horse => 4,
        Kind::Camel => 6,
        Kind::Elephant => 10,
    }
}

/// The kind of a position: what the solution achieves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TacticKind {
    Capture,
    CaptureDefence,
    Goal,
    GoalDefence,
}

impl TacticKind {
    pub const ALL: [TacticKind; 4] = [
        TacticKind::Capture,
        TacticKind::CaptureDefence,
        TacticKind::Goal,
        TacticKind::GoalDefence,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TacticKind::Capture => "capture",
            TacticKind::CaptureDefence => "capture-defence",
            TacticKind::Goal => "goal",
            TacticKind::GoalDefence => "goal-defence",
        }
    }

    pub fn parse(s: &str) -> Option<TacticKind> {
        TacticKind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// Whether the kind's criterion needs a balance (`need`).
    pub fn has_need(self) -> bool {
        matches!(self, TacticKind::Capture | TacticKind::CaptureDefence)
    }
}

/// Which rows: tuning, holdout, or both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Split {
    Tune,
    Holdout,
}

impl Split {
    pub fn name(self) -> &'static str {
        match self {
            Split::Tune => "tune",
            Split::Holdout => "holdout",
        }
    }

    pub fn parse(s: &str) -> Option<Split> {
        match s {
            "tune" => Some(Split::Tune),
            "holdout" => Some(Split::Holdout),
            _ => None,
        }
    }

    /// The split of the row with id number `n`: every
    /// [`HOLDOUT_EVERY`]th is holdout.
    pub fn of_number(n: u32) -> Split {
        if n.is_multiple_of(HOLDOUT_EVERY) {
            Split::Holdout
        } else {
            Split::Tune
        }
    }
}

/// What a move achieves, by the criteria of the module doc.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    /// The game is over after the move, won by the mover.
    pub wins: bool,
    /// The game is over after the move, won by the opponent.
    pub loses: bool,
    /// The opponent can reach goal in its next turn.
    pub allows_goal: bool,
    /// Points of enemy pieces captured during the move minus points of own
    /// pieces lost during it.
    pub gained: i32,
    /// Points of the most valuable own piece the opponent can capture in
    /// its next turn (0 if none).
    pub threat: i32,
}

impl Grade {
    /// 3 wins, 2 safe (no goal allowed), 1 allows a goal, 0 loses.
    pub fn rank(&self) -> u8 {
        if self.wins {
            3
        } else if self.loses {
            0
        } else if self.allows_goal {
            1
        } else {
            2
        }
    }

    /// `gained - threat`.
    pub fn balance(&self) -> i32 {
        self.gained - self.threat
    }

    /// The order of moves: by rank, then (for safe moves only) by balance.
    pub fn key(&self) -> (u8, i32) {
        let r = self.rank();
        (r, if r == 2 { self.balance() } else { 0 })
    }

    /// Whether the move meets the criterion of `kind` (with `need` for the
    /// capture kinds).
    pub fn meets(&self, kind: TacticKind, need: Option<i32>) -> bool {
        match kind {
            TacticKind::Goal => self.wins,
            TacticKind::GoalDefence => self.rank() >= 2,
            TacticKind::Capture | TacticKind::CaptureDefence => {
                self.wins || (self.rank() == 2 && need.is_some_and(|n| self.balance() >= n))
            }
        }
    }

    /// Short text for reports: `win`, `loses`, `allows goal` or
    /// `balance +1 (gained 1, threat 0)`.
    pub fn describe(&self) -> String {
        match self.rank() {
            3 => "wins".into(),
            0 => "loses".into(),
            1 => "allows goal".into(),
            _ => format!(
                "balance {:+} (gained {}, threat {})",
                self.balance(),
                self.gained,
                self.threat
            ),
        }
    }
}

fn side_points(pos: &Position, c: Color) -> i32 {
    Kind::ALL
        .into_iter()
        .map(|k| points(k) * pos.count(c, k) as i32)
        .sum()
}

/// The grade of the move from `before` (mover to move, a fresh turn) to
/// `after` (the opponent to move, a fresh turn).
pub fn grade_after(before: &Position, after: &Position) -> Grade {
    let us = before.side();
    let them = us.opp();
    let gained = (side_points(before, them) - side_points(after, them))
        - (side_points(before, us) - side_points(after, us));
    let outcome = after.outcome();
    let wins = outcome.is_some_and(|o| o.winner == us);
    let loses = outcome.is_some_and(|o| o.winner == them);
    let over = outcome.is_some();
    let allows_goal = !over && goal_plan(after).is_some();
    let threat = if over {
        0
    } else {
        capture_threats(after, them, crate::board::STEPS_PER_TURN)
            .squares()
            .map(|sq| points(after.kind_at(sq)))
            .max()
            .unwrap_or(0)
    };
    Grade {
        wins,
        loses,
        allows_goal,
        gained,
        threat,
    }
}

/// A move checked and graded on a position.
#[derive(Clone, Debug)]
pub struct Graded {
    /// Canonical notation (capture tokens included).
    pub notation: String,
    /// The position after it.
    pub after: Position,
    pub grade: Grade,
}

impl Graded {
    /// Whether two moves end in the same position.
    pub fn same_end(&self, other: &Graded) -> bool {
        self.after.hash() == other.after.hash()
            && board_string(&self.after) == board_string(&other.after)
    }
}

/// Checks the move `text` on `pos` (legal, a whole turn) and grades it.
pub fn grade_move(pos: &Position, text: &str) -> Result<Graded> {
    let mut game = Game::from_position(pos.clone(), 1);
    let played = game
        .play(text)
        .map_err(|e| anyhow!("move `{text}` is illegal here: {e}"))?;
    Ok(Graded {
        notation: played.notation,
        grade: grade_after(pos, game.position()),
        after: game.position().clone(),
    })
}

/// [`grade_move`] for a typed turn (the search's, or a record's as
/// replayed).
pub fn grade_turn(pos: &Position, turn: &Turn) -> Result<Graded> {
    let mut game = Game::from_position(pos.clone(), 1);
    let played = game
        .play_turn(turn)
        .map_err(|e| anyhow!("the search's move is illegal here: {e}"))?;
    Ok(Graded {
        notation: played.notation,
        grade: grade_after(pos, game.position()),
        after: game.position().clone(),
    })
}

/// Why a position cannot be a suite position, if it cannot: a piece alone
/// on a trap, a game already over, or no legal turn.
pub fn position_problem(pos: &Position) -> Option<String> {
    for sq in Bitboard::TRAPS & pos.occupied() {
        let c = pos.piece_at(sq).map(|p| p.color())?;
        if (adjacent(sq) & pos.occupied_by(c)).is_empty() {
            return Some(format!(
                "a piece stands alone on trap {sq}: no game reaches this position"
            ));
        }
    }
    if let Some(o) = pos.outcome() {
        return Some(format!("the game is already over: {}", o.describe()));
    }
    if Game::from_position(pos.clone(), 1).legal_turns().is_empty() {
        return Some("the side to move has no legal turn".into());
    }
    None
}

/// One position of a suite.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based line in the file.
    pub line: usize,
    pub id: String,
    pub kind: TacticKind,
    pub split: Split,
    pub position: Position,
    /// The listed solutions, checked and graded.
    pub solutions: Vec<Graded>,
    /// The balance the capture kinds need.
    pub need: Option<i32>,
    /// The move played in the game, checked and graded.
    pub played: Option<Graded>,
    pub source: String,
}

impl Row {
    /// Whether `m` solves the position: one of the solutions, or meeting
    /// the kind's criterion.
    pub fn solved_by(&self, m: &Graded) -> bool {
        self.solutions.iter().any(|s| s.same_end(m)) || m.grade.meets(self.kind, self.need)
    }

    /// The row's self-consistency: every solution meets the kind's
    /// criterion, and the move played (if given) solves nothing. The
    /// problems in words, none when all is well.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.solutions {
            if !s.grade.meets(self.kind, self.need) {
                out.push(format!(
                    "line {} ({}): solution `{}` does not meet the {} criterion: it {}",
                    self.line,
                    self.id,
                    s.notation,
                    self.kind.name(),
                    s.grade.describe()
                ));
            }
        }
        if let Some(p) = &self.played
            && self.solved_by(p)
        {
            out.push(format!(
                "line {} ({}): the move played, `{}`, solves the position",
                self.line, self.id, p.notation
            ));
        }
        out
    }

    /// The solutions' notation joined by ` | `.
    pub fn solutions_text(&self) -> String {
        self.solutions
            .iter()
            .map(|s| s.notation.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// Parses one row; errors say what is wrong, the caller adds the line.
fn parse_row(line: usize, text: &str) -> Result<Row> {
    let cols: Vec<&str> = text.split('\t').map(str::trim).collect();
    let want = HEADER.split('\t').count();
    if cols.len() != want {
        bail!(
            "expected {want} tab-separated columns ({}), got {}",
            HEADER.replace('\t', ", "),
            cols.len()
        );
    }
    let id = cols[0].to_string();
    if id.is_empty() {
        bail!("empty id");
    }
    let kind = TacticKind::parse(cols[1]).ok_or_else(|| {
        anyhow!(
            "unknown kind `{}`: use capture, capture-defence, goal or goal-defence",
            cols[1]
        )
    })?;
    let split = Split::parse(cols[2])
        .ok_or_else(|| anyhow!("unknown split `{}`: use tune or holdout", cols[2]))?;
    let position = parse_side_and_board(cols[3]).context("position")?;
    if let Some(p) = position_problem(&position) {
        bail!("illegal position: {p}");
    }
    let mut solutions = Vec::new();
    for s in cols[4].split(SOLUTION_SEP).map(str::trim) {
        if s.is_empty() {
            bail!("empty solution (solutions are whole turns separated by `|`)");
        }
        solutions.push(grade_move(&position, s).context("solution")?);
    }
    let need = match (kind.has_need(), cols[5]) {
        (false, "-" | "") => None,
        (false, v) => bail!("need `{v}` given for kind {}: write `-`", kind.name()),
        (true, v) => Some(v.parse::<i32>().map_err(|_| {
            anyhow!(
                "need `{v}` is not a whole number (the balance kind {} needs)",
                kind.name()
            )
        })?),
    };
    let played = match cols[6] {
        "-" | "" => None,
        p => Some(grade_move(&position, p).context("played move")?),
    };
    Ok(Row {
        line,
        id,
        kind,
        split,
        position,
        solutions,
        need,
        played,
        source: cols[7].to_string(),
    })
}

/// Parses a suite file's text. Any bad row is refused with its line number.
pub fn parse_suite(text: &str) -> Result<Vec<Row>> {
    let mut rows: Vec<Row> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut header = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !header {
            if line.trim() != HEADER {
                bail!(
                    "line {n}: expected the header `{}`, got `{}`",
                    HEADER.replace('\t', "<TAB>"),
                    line.replace('\t', "<TAB>")
                );
            }
            header = true;
            continue;
        }
        let row = parse_row(n, line).with_context(|| {
            let id = line.split('\t').next().unwrap_or("");
            format!("line {n} ({id})")
        })?;
        if let Some(first) = ids.insert(row.id.clone(), n) {
            bail!("line {n}: id {} already used on line {first}", row.id);
        }
        rows.push(row);
    }
    if !header {
        bail!(
            "no header line (expected `{}`)",
            HEADER.replace('\t', "<TAB>")
        );
    }
    Ok(rows)
}

/// Reads and parses a suite file.
pub fn load_suite(path: &str) -> Result<Vec<Row>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    parse_suite(&text).with_context(|| format!("suite {path}"))
}

/// What `aamir suite` runs on and how.
pub struct SuiteOptions {
    /// Time or depth and the engine's configuration.
    pub analyze: AnalyzeOptions,
    pub kind: Option<TacticKind>,
    pub split: Option<Split>,
    /// Write the results as JSON here.
    pub json: Option<String>,
    /// Only check the file (every solution meets its criterion, the move
    /// played does not), no search.
    pub check_only: bool,
}

/// One position's result.
#[derive(Clone, Debug, Serialize)]
pub struct PositionResult {
    pub id: String,
    pub kind: TacticKind,
    pub split: Split,
    pub solved: bool,
    /// aamir's move.
    #[serde(rename = "move")]
    pub mv: String,
    pub grade: Grade,
    pub solutions: String,
    pub need: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// Solved and total of one kind.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Count {
    pub solved: usize,
    pub total: usize,
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    pub file: String,
    pub time: Option<f64>,
    pub depth: Option<u32>,
    pub threads: usize,
    pub by_kind: Vec<(TacticKind, Count)>,
    pub overall: Count,
    pub seconds: f64,
    pub nodes: u64,
    pub results: Vec<PositionResult>,
}

/// aamir's search on `pos` within `limits` (a fresh game each time, no
/// history): its move, graded, with depth and nodes.
fn search_position(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
) -> Result<(Graded, u32, u64)> {
    searcher.new_game();
    let game = Game::from_position(pos.clone(), 1);
    let stop = AtomicBool::new(false);
    let r = searcher
        .search(&game, limits, &stop, &mut |_| {})
        .context("the search found no move")?;
    Ok((grade_turn(pos, &r.best)?, r.depth, r.nodes))
}

/// Solves the selected rows with aamir's search, one line per position
/// (`progress`), and returns the report.
pub fn solve_rows(
    rows: &[&Row],
    opts: &AnalyzeOptions,
    mut progress: impl FnMut(&Row, &PositionResult) -> Result<()>,
) -> Result<Vec<PositionResult>> {
    let limits = limits(opts, DEFAULT_TIME)?;
    let mut searcher = Searcher::new(&opts.config);
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let t = Instant::now();
        let (m, depth, nodes) = search_position(&mut searcher, &row.position, &limits)
            .with_context(|| format!("line {} ({})", row.line, row.id))?;
        let r = PositionResult {
            id: row.id.clone(),
            kind: row.kind,
            split: row.split,
            solved: row.solved_by(&m),
            mv: m.notation.clone(),
            grade: m.grade,
            solutions: row.solutions_text(),
            need: row.need,
            depth,
            nodes,
            seconds: t.elapsed().as_secs_f64(),
        };
        progress(row, &r)?;
        out.push(r);
    }
    Ok(out)
}

/// `aamir suite FILE`: runs the search on every selected position and
/// prints the solved counts by kind, the overall count, the timing and the
/// unsolved positions.
pub fn run(path: &str, opts: &SuiteOptions) -> Result<()> {
    let rows = load_suite(path)?;
    let selected: Vec<&Row> = rows
        .iter()
        .filter(|r| opts.kind.is_none_or(|k| r.kind == k))
        .filter(|r| opts.split.is_none_or(|s| r.split == s))
        .collect();
    if opts.check_only {
        let problems: Vec<String> = selected.iter().flat_map(|r| r.problems()).collect();
        for p in &problems {
            outln!("{p}")?;
        }
        if !problems.is_empty() {
            bail!(
                "{path}: {} problems in {} rows",
                problems.len(),
                selected.len()
            );
        }
        outln!(
            "{path}: {} rows checked: every solution meets its criterion, no move played solves its position",
            selected.len()
        )?;
        return Ok(());
    }
    let a = &opts.analyze;
    let lim = limits(a, DEFAULT_TIME)?;
    let budget = match (lim.hard, lim.depth) {
        (Some(t), _) => format!("{:.1} s", t.as_secs_f64()),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => "no limit".into(),
    };
    let threads = a.config.engine.threads;
    outln!(
        "{path}: {} of {} positions (kind {}, split {}), {budget} each, {threads} thread{}",
        selected.len(),
        rows.len(),
        opts.kind.map_or("all", |k| k.name()),
        opts.split.map_or("all", |s| s.name()),
        if threads == 1 { "" } else { "s" }
    )?;
    let start = Instant::now();
    let results = solve_rows(&selected, a, |_, r| {
        outln!(
            "{:<7} {:<15} {:<8} {:<32} depth {:>2}  {:.2} s  {}",
            r.id,
            r.kind.name(),
            if r.solved { "solved" } else { "missed" },
            r.mv,
            r.depth,
            r.seconds,
            r.grade.describe()
        )?;
        Ok(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let mut by_kind: Vec<(TacticKind, Count)> = Vec::new();
    for k in TacticKind::ALL {
        let of_kind: Vec<&PositionResult> = results.iter().filter(|r| r.kind == k).collect();
        by_kind.push((
            k,
            Count {
                solved: of_kind.iter().filter(|r| r.solved).count(),
                total: of_kind.len(),
            },
        ));
    }
    let overall = Count {
        solved: results.iter().filter(|r| r.solved).count(),
        total: results.len(),
    };
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    outln!()?;
    let unsolved: Vec<&PositionResult> = results.iter().filter(|r| !r.solved).collect();
    if unsolved.is_empty() {
        outln!("unsolved: none")?;
    } else {
        outln!(
            "unsolved ({}): id, kind, aamir's move, expected",
            unsolved.len()
        )?;
        for r in &unsolved {
            let need = r
                .need
                .map_or(String::new(), |n| format!(" (or balance >= {n})"));
            outln!(
                "  {:<7} {:<15} {:<32} expected {}{need}",
                r.id,
                r.kind.name(),
                r.mv,
                r.solutions
            )?;
        }
    }
    outln!()?;
    outln!("solved by kind:")?;
    for (k, c) in &by_kind {
        outln!("  {:<15} {:>4} / {:<4}", k.name(), c.solved, c.total)?;
    }
    outln!(
        "  {:<15} {:>4} / {:<4} ({:.1}%)",
        "overall",
        overall.solved,
        overall.total,
        100.0 * overall.solved as f64 / overall.total.max(1) as f64
    )?;
    outln!(
        "time {seconds:.1} s, {:.2} positions/s, {:.0} nodes/s",
        results.len() as f64 / seconds.max(1e-9),
        nodes as f64 / seconds.max(1e-9)
    )?;
    if let Some(j) = &opts.json {
        let report = SuiteReport {
            file: path.to_string(),
            time: a.time,
            depth: lim.depth,
            threads,
            by_kind,
            overall,
            seconds,
            nodes,
            results,
        };
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(j, text + "\n").with_context(|| format!("writing {j}"))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------
// Generation: `aamir suite make`.

/// What `aamir suite make` works from.
pub struct MakeOptions {
    /// `aamir match` game files (arimaa.com archive TSV).
    pub games: Vec<String>,
    /// aamir's engine names in those files (`wusername` / `busername`).
    pub players: Vec<String>,
    /// Sharp's developer command (`sharp-dev`), for the deep search; without
    /// it aamir's own search at `deep_time` is the deep search.
    pub sharp: Option<String>,
    /// Depths of Sharp's searches: each is a deep opinion, the best one
    /// counts.
    pub sharp_depths: Vec<u32>,
    /// aamir's deep search time (seconds) when no Sharp is given.
    pub deep_time: f64,
    /// The check: aamir at this budget must not solve a kept position.
    pub check: AnalyzeOptions,
    /// At most this many positions a game.
    pub per_game: usize,
    /// Where the Sharp position file goes.
    pub scratch: String,
    pub out: String,
    /// The command line, for the file's header.
    pub command: String,
    /// An existing suite to add to: its rows stay as they are (ids,
    /// splits), its positions are not taken again, the new rows are
    /// numbered after its last id.
    pub add_to: Option<String>,
}

/// A position where aamir moved in a lost game.
#[derive(Clone, Debug)]
struct Candidate {
    pos: Position,
    label: String,
    file: String,
    game: String,
    /// Order of the game among all games read, and of the move in it.
    order: (usize, usize),
    played: Graded,
}

/// Whether the move played may have missed something the tactics
/// detectors see: a goal or capture that was there, or a goal or capture
/// it leaves to the opponent.
pub fn worth_a_deep_look(pos: &Position, played: &Graded) -> bool {
    let g = &played.grade;
    if g.wins {
        return false;
    }
    if g.rank() <= 1 || g.threat > 0 || goal_plan(pos).is_some() {
        return true;
    }
    let best = capture_threats(pos, pos.side(), crate::board::STEPS_PER_TURN)
        .squares()
        .map(|sq| points(pos.kind_at(sq)))
        .max()
        .unwrap_or(0);
    best > g.gained
}

/// The kind a deep move that beats the move played shows, if it does.
pub fn improvement_kind(played: &Grade, deep: &Grade) -> Option<TacticKind> {
    if deep.key() <= played.key() {
        return None;
    }
    Some(if deep.wins {
        TacticKind::Goal
    } else if played.rank() < 2 {
        TacticKind::GoalDefence
    } else if deep.gained > 0 && deep.gained > played.gained {
        TacticKind::Capture
    } else {
        TacticKind::CaptureDefence
    })
}

/// Sharp's developer position format: the side line (`12g`) and the eight
/// ranks, 8 first, `.` for empty.
fn sharp_position(pos: &Position, label: &str) -> String {
    let b = board_string(pos);
    let cells: Vec<char> = b[1..b.len() - 1]
        .chars()
        .map(|c| if c == ' ' { '.' } else { c })
        .collect();
    let mut s = format!("{label}\n");
    for rank in cells.chunks(8) {
        s.extend(rank);
        s.push('\n');
    }
    s
}

/// The first turn of a Sharp PV (turns separated by two spaces, `qpss`
/// for a pass of the remaining steps).
fn sharp_first_turn(pv: &str) -> Option<String> {
    let first = pv.trim().split("  ").next()?;
    let steps: Vec<&str> = first
        .split_whitespace()
        .filter(|t| *t != "qpss" && *t != "pass")
        .collect();
    (!steps.is_empty()).then(|| steps.join(" "))
}

/// Runs `sharp searchPos` on the positions at `depth`, returning each
/// one's first PV turn (`None` where Sharp gave none). Sharp's output is
/// kept in the scratch folder next to the position file it answers
/// (`sharp-dD.out`, `positions-dD.txt`) and read back instead of searching
/// again when the positions are the same.
fn sharp_moves(
    opts: &MakeOptions,
    sharp: &str,
    depth: u32,
    cands: &[Candidate],
) -> Result<Vec<Option<String>>> {
    std::fs::create_dir_all(&opts.scratch).with_context(|| format!("creating {}", opts.scratch))?;
    let posfile = format!("{}/positions-d{depth}.txt", opts.scratch);
    let outfile = format!("{}/sharp-d{depth}.out", opts.scratch);
    let text = cands
        .iter()
        .map(|c| sharp_position(&c.pos, &c.label))
        .collect::<Vec<_>>()
        .join(";\n");
    let mut moves = vec![None; cands.len()];
    let mut read = |line: &str| -> bool {
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(i) = cols.first().and_then(|c| c.parse::<usize>().ok()) else {
            return false;
        };
        if cols.len() < 3 || i >= cands.len() {
            return false;
        }
        moves[i] = cols.last().and_then(|pv| sharp_first_turn(pv));
        true
    };
    if std::fs::read_to_string(&posfile).is_ok_and(|t| t == text)
        && let Ok(out) = std::fs::read_to_string(&outfile)
    {
        let n = out.lines().filter(|l| read(l)).count();
        eprintln!("  sharp depth {depth}: {n} answers read from {outfile}");
        return Ok(moves);
    }
    let _ = std::fs::remove_file(&outfile);
    std::fs::write(&posfile, &text).with_context(|| format!("writing {posfile}"))?;
    let mut child = std::process::Command::new(sharp)
        .args(["searchPos", &posfile, "-d", &depth.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("running {sharp}"))?;
    let stdout = child.stdout.take().context("Sharp's output")?;
    let start = Instant::now();
    let mut done = 0usize;
    let mut kept = String::new();
    for line in BufReader::new(stdout).lines() {
        let line = line?;
        if !read(&line) {
            continue;
        }
        kept.push_str(&line);
        kept.push('\n');
        done += 1;
        if done.is_multiple_of(100) {
            eprintln!(
                "  sharp depth {depth}: {done} of {} positions, {:.0} s",
                cands.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let status = child.wait()?;
    if status.success() {
        std::fs::write(&outfile, kept).with_context(|| format!("writing {outfile}"))?;
    } else {
        eprintln!("  sharp exited with {status} after {done} positions");
    }
    Ok(moves)
}

/// A position's identity for deduplication: side and board.
fn position_key(pos: &Position) -> String {
    format!("{} {}", pos.side().to_char(), board_string(pos))
}

/// The losing games' positions with one of `players` to move.
fn collect_candidates(
    opts: &MakeOptions,
    mut seen: HashSet<String>,
) -> Result<(Vec<Candidate>, String)> {
    let mut cands = Vec::new();
    let (mut games_read, mut lost, mut looked) = (0usize, 0usize, 0usize);
    for file in &opts.games {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        let games = parse_archive(&text).with_context(|| format!("reading archive {file}"))?;
        for g in games {
            games_read += 1;
            let Some(winner) = g.winner() else { continue };
            let loser = winner.opp();
            let name = match loser {
                Color::Gold => g.field("wusername"),
                Color::Silver => g.field("busername"),
            };
            if !opts.players.iter().any(|p| p == name) {
                continue;
            }
            lost += 1;
            for (k, m) in g.positions().enumerate() {
                let m = match m {
                    Ok(m) => m,
                    Err(e) => {
                        eprintln!(
                            "  {file} game {}: move {} `{}` refused, game skipped from here",
                            g.id(),
                            e.label,
                            e.text
                        );
                        break;
                    }
                };
                let Some(turn) = m.turn().filter(|_| m.side() == loser) else {
                    continue;
                };
                let pos = m.before.clone();
                looked += 1;
                if position_problem(&pos).is_some() || !seen.insert(position_key(&pos)) {
                    continue;
                }
                let Ok(played) = grade_turn(&pos, turn) else {
                    continue;
                };
                if worth_a_deep_look(&pos, &played) {
                    cands.push(Candidate {
                        pos,
                        label: m.played.label.clone(),
                        file: file.clone(),
                        game: g.id().to_string(),
                        order: (games_read, k),
                        played,
                    });
                }
            }
        }
    }
    let summary = format!(
        "{games_read} games, {lost} lost by {}, {looked} positions with the loser to move, {} worth a deep look",
        opts.players.join("/"),
        cands.len()
    );
    Ok((cands, summary))
}

/// `aamir suite make`: the suite file from the games `players` lost.
pub fn make(opts: &MakeOptions) -> Result<()> {
    if opts.players.is_empty() {
        bail!("name aamir's engines with --player NAME (as in wusername/busername)");
    }
    let started = Instant::now();
    // The suite added to: its text, and its positions and last id number.
    let (base, base_rows) = match &opts.add_to {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("reading {p}"))?;
            let rows = parse_suite(&text).with_context(|| format!("suite {p}"))?;
            (text, rows)
        }
        None => (String::new(), Vec::new()),
    };
    let first_number = base_rows
        .iter()
        .filter_map(|r| r.id.strip_prefix('t').and_then(|d| d.parse::<u32>().ok()))
        .max()
        .unwrap_or(0)
        + 1;
    let seen = base_rows
        .iter()
        .map(|r| position_key(&r.position))
        .collect();
    let (cands, summary) = collect_candidates(opts, seen)?;
    eprintln!("{summary}");
    // The deep search's move for each candidate.
    let deep: Vec<Vec<String>> = match &opts.sharp {
        Some(s) => {
            let mut all: Vec<Vec<String>> = vec![Vec::new(); cands.len()];
            for &d in &opts.sharp_depths {
                for (i, m) in sharp_moves(opts, s, d, &cands)?.into_iter().enumerate() {
                    all[i].extend(m);
                }
            }
            all
        }
        None => {
            let a = AnalyzeOptions {
                time: Some(opts.deep_time),
                config: opts.check.config.clone(),
            };
            let lim = limits(&a, DEFAULT_TIME)?;
            let mut searcher = Searcher::new(&a.config);
            cands
                .iter()
                .map(|c| {
                    search_position(&mut searcher, &c.pos, &lim)
                        .ok()
                        .map(|(m, _, _)| m.notation)
                        .into_iter()
                        .collect()
                })
                .collect()
        }
    };
    // Positions where the best deep move beats the move played; the
    // solutions are the deep moves that meet the kind's criterion with the
    // best one's balance.
    struct Better {
        cand: Candidate,
        deep: Graded,
        solutions: Vec<Graded>,
        kind: TacticKind,
    }
    let mut better: Vec<Better> = Vec::new();
    for (c, moves) in cands.into_iter().zip(deep) {
        let mut graded: Vec<Graded> = Vec::new();
        for d in moves {
            match grade_move(&c.pos, &d) {
                Ok(g) if !graded.iter().any(|x| x.same_end(&g)) => graded.push(g),
                Ok(_) => {}
                Err(_) => eprintln!(
                    "  {} game {} {}: deep move `{d}` refused",
                    c.file, c.game, c.label
                ),
            }
        }
        let Some(best) = graded.iter().max_by_key(|g| g.grade.key()).cloned() else {
            continue;
        };
        if let Some(kind) = improvement_kind(&c.played.grade, &best.grade) {
            let need = kind.has_need().then(|| best.grade.balance());
            let solutions = graded
                .into_iter()
                .filter(|g| g.grade.meets(kind, need))
                .collect();
            better.push(Better {
                cand: c,
                deep: best,
                solutions,
                kind,
            });
        }
    }
    eprintln!(
        "{} positions where the deep move is better by the criteria",
        better.len()
    );
    // Per game, largest improvement first; check with aamir until the cap.
    let mut by_game: Vec<Vec<Better>> = Vec::new();
    for b in better {
        match by_game.last_mut() {
            Some(g) if g[0].cand.file == b.cand.file && g[0].cand.game == b.cand.game => g.push(b),
            _ => by_game.push(vec![b]),
        }
    }
    let check_limits = limits(&opts.check, DEFAULT_TIME)?;
    let mut searcher = Searcher::new(&opts.check.config);
    let mut kept: Vec<Better> = Vec::new();
    let mut checked = 0usize;
    let games = by_game.len();
    for (gi, mut g) in by_game.into_iter().enumerate() {
        g.sort_by_key(|b| {
            let (pr, pb) = b.cand.played.grade.key();
            let (dr, db) = b.deep.grade.key();
            std::cmp::Reverse((i32::from(dr) - i32::from(pr), db - pb))
        });
        let mut n = 0;
        for b in g {
            if n >= opts.per_game {
                break;
            }
            let need = b.kind.has_need().then(|| b.deep.grade.balance());
            let row = Row {
                line: 0,
                id: String::new(),
                kind: b.kind,
                split: Split::Tune,
                position: b.cand.pos.clone(),
                solutions: b.solutions.clone(),
                need,
                played: Some(b.cand.played.clone()),
                source: String::new(),
            };
            checked += 1;
            let Ok((m, _, _)) = search_position(&mut searcher, &row.position, &check_limits) else {
                continue;
            };
            if !row.solved_by(&m) {
                kept.push(b);
                n += 1;
            }
        }
        if (gi + 1).is_multiple_of(10) {
            eprintln!(
                "  {} of {games} games: checked {checked}, kept {}, {:.0} s",
                gi + 1,
                kept.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    kept.sort_by_key(|b| b.cand.order);
    let mut counts: HashMap<TacticKind, usize> = HashMap::new();
    let mut out = String::new();
    let made = format!(
        "# {} {}\n# from: {summary}; {checked} checked with aamir, {} kept\n",
        if base_rows.is_empty() && opts.add_to.is_none() {
            "made by:"
        } else {
            "then added by:"
        },
        opts.command,
        kept.len()
    );
    if opts.add_to.is_some() {
        // The base's comments, this run's, then its header and rows.
        let (comments, rest): (Vec<&str>, Vec<&str>) =
            base.lines().partition(|l| l.starts_with('#'));
        for l in comments {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&made);
        for l in rest.into_iter().filter(|l| !l.trim().is_empty()) {
            out.push_str(l);
            out.push('\n');
        }
    } else {
        out.push_str(
            "# aamir tactics suite: positions from games aamir lost where a deeper search finds a\n",
        );
        out.push_str("# capture, capture defence, goal or goal defence that aamir missed. See src/tools/suite.rs\n");
        out.push_str("# for the columns and the grading, and docs/tactics-suite.md.\n");
        out.push_str(&format!(
            "# split: every {HOLDOUT_EVERY}th id (t0005, t0010, ...) is holdout: keep those rows out of any tuning.\n"
        ));
        out.push_str(&made);
        out.push_str(HEADER);
        out.push('\n');
    }
    for r in &base_rows {
        *counts.entry(r.kind).or_default() += 1;
    }
    for (i, b) in kept.iter().enumerate() {
        let n = first_number + i as u32;
        *counts.entry(b.kind).or_default() += 1;
        let need = if b.kind.has_need() {
            b.deep.grade.balance().to_string()
        } else {
            "-".into()
        };
        out.push_str(&format!(
            "t{n:04}\t{}\t{}\t{} {}\t{}\t{need}\t{}\t{} game {} move {}\n",
            b.kind.name(),
            Split::of_number(n).name(),
            b.cand.pos.side().to_char(),
            board_string(&b.cand.pos),
            b.solutions
                .iter()
                .map(|g| g.notation.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
            b.cand.played.notation,
            b.cand.file,
            b.cand.game,
            b.cand.label
        ));
    }
    // The file must read back.
    parse_suite(&out).context("the suite just made does not read back (a bug)")?;
    let mut f =
        std::fs::File::create(&opts.out).with_context(|| format!("creating {}", opts.out))?;
    f.write_all(out.as_bytes())?;
    outln!(
        "{}: {} positions ({} new)",
        opts.out,
        base_rows.len() + kept.len(),
        kept.len()
    )?;
    for k in TacticKind::ALL {
        outln!(
            "  {:<15} {}",
            k.name(),
            counts.get(&k).copied().unwrap_or(0)
        )?;
    }
    outln!("{:.0} s", started.elapsed().as_secs_f64())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position from rows a8..h8 down to a1..h1 (`.` empty).
    fn pos(side: &str, rows: [&str; 8]) -> Position {
        let board: String = rows.concat().replace('.', " ");
        parse_side_and_board(&format!("{side} [{board}]")).unwrap()
    }

    fn text(p: &Position) -> String {
        format!("{} {}", p.side().to_char(), board_string(p))
    }

    /// A gold rabbit one step from goal; silver's rabbit one step from its.
    fn goal_pos() -> Position {
        pos(
            "g",
            [
                "........", "R.......", "........", "........", "........", "........", ".......r",
                "E.......",
            ],
        )
    }

    /// Silver's rabbit on h2 threatens h1; the elephant on g1 can freeze it.
    fn goal_defence_pos() -> Position {
        pos(
            "g",
            [
                "c.......", "........", "........", "........", "........", "........", "R......r",
                "......E.",
            ],
        )
    }

    /// The elephant pushes the rabbit on c5 onto trap c6 (gold's rabbit,
    /// frozen by the cat, cannot run for goal instead).
    fn capture_pos() -> Position {
        pos(
            "g",
            [
                ".......r", "........", "........", "..r.....", "..E.....", "........", "c.......",
                "R.......",
            ],
        )
    }

    /// Silver's dog can push gold's cat onto c6; the elephant can freeze it.
    fn capture_defence_pos() -> Position {
        pos(
            "g",
            [
                ".......r", "..Cd....", "....E...", "........", "........", "........", "........",
                "R.......",
            ],
        )
    }

    #[test]
    fn grades_of_the_hand_made_positions() {
        let g = grade_move(&goal_pos(), "Ra7n").unwrap().grade;
        assert!(g.wins && g.rank() == 3, "{g:?}");
        let g = grade_move(&goal_pos(), "Ea1n").unwrap().grade;
        assert!(!g.wins && g.allows_goal && g.rank() == 1, "{g:?}");

        let g = grade_move(&goal_defence_pos(), "Eg1n").unwrap().grade;
        assert!(!g.allows_goal && g.rank() == 2, "{g:?}");
        let g = grade_move(&goal_defence_pos(), "Ra2n").unwrap().grade;
        assert!(g.allows_goal, "{g:?}");

        let m = grade_move(&capture_pos(), "rc5n Ec4n").unwrap();
        assert_eq!(m.notation, "rc5n rc6x Ec4n");
        assert_eq!((m.grade.gained, m.grade.threat, m.grade.rank()), (1, 0, 2));
        let g = grade_move(&capture_pos(), "Ec4e").unwrap().grade;
        assert_eq!((g.gained, g.threat, g.rank()), (0, 0, 2));

        let g = grade_move(&capture_defence_pos(), "Ee6n").unwrap().grade;
        assert_eq!((g.gained, g.threat, g.rank()), (0, 0, 2));
        let g = grade_move(&capture_defence_pos(), "Ra1n").unwrap().grade;
        assert_eq!((g.gained, g.threat, g.rank()), (0, 2, 2));
    }

    /// A suite of the four hand-made positions, each with its solution and
    /// a known non-solution as the move played.
    fn hand_suite() -> String {
        let rows = [
            ("t0001", "goal", goal_pos(), "Ra7n", "-", "Ea1n"),
            (
                "t0002",
                "goal-defence",
                goal_defence_pos(),
                "Eg1n",
                "-",
                "Ra2n",
            ),
            (
                "t0003",
                "capture",
                capture_pos(),
                "rc5n rc6x Ec4n",
                "1",
                "Ec4e",
            ),
            (
                "t0004",
                "capture-defence",
                capture_defence_pos(),
                "Ee6n",
                "0",
                "Ra1n",
            ),
        ];
        let mut s = format!("# hand-made\n{HEADER}\n");
        for (i, (id, kind, p, sol, need, played)) in rows.iter().enumerate() {
            let split = Split::of_number(i as u32 + 1).name();
            s += &format!(
                "{id}\t{kind}\t{split}\t{}\t{sol}\t{need}\t{played}\ttest\n",
                text(p)
            );
        }
        s
    }

    #[test]
    fn the_grader_accepts_solutions_and_rejects_the_moves_played() {
        let rows = parse_suite(&hand_suite()).unwrap();
        assert_eq!(rows.len(), 4);
        for r in &rows {
            assert!(r.problems().is_empty(), "{:?}", r.problems());
            assert!(r.solved_by(&r.solutions[0]), "{}", r.id);
            let played = r.played.as_ref().unwrap();
            assert!(!r.solved_by(played), "{}", r.id);
        }
        // The criterion accepts other moves than the one listed.
        let defence = &rows[1];
        let other = grade_move(&defence.position, "Eg1n Ra2n").unwrap();
        assert!(defence.solved_by(&other));
        // A need higher than the solution reaches is a row problem.
        let bad = hand_suite().replace("\t1\tEc4e", "\t2\tEc4e");
        let rows = parse_suite(&bad).unwrap();
        assert_eq!(rows[2].problems().len(), 1, "{:?}", rows[2].problems());
    }

    #[test]
    fn the_improvement_labels_the_kind() {
        let g = |m: &str, p: &Position| grade_move(p, m).unwrap().grade;
        let (p, s) = (goal_pos(), "Ra7n");
        assert_eq!(
            improvement_kind(&g("Ea1n", &p), &g(s, &p)),
            Some(TacticKind::Goal)
        );
        let p = goal_defence_pos();
        assert_eq!(
            improvement_kind(&g("Ra2n", &p), &g("Eg1n", &p)),
            Some(TacticKind::GoalDefence)
        );
        let p = capture_pos();
        assert_eq!(
            improvement_kind(&g("Ec4e", &p), &g("rc5n Ec4n", &p)),
            Some(TacticKind::Capture)
        );
        assert_eq!(improvement_kind(&g("rc5n Ec4n", &p), &g("Ec4e", &p)), None);
        let p = capture_defence_pos();
        assert_eq!(
            improvement_kind(&g("Ra1n", &p), &g("Ee6n", &p)),
            Some(TacticKind::CaptureDefence)
        );
        assert!(worth_a_deep_look(&p, &grade_move(&p, "Ra1n").unwrap()));
    }

    fn error_of(text: &str) -> String {
        format!("{:#}", parse_suite(text).unwrap_err())
    }

    #[test]
    fn bad_rows_are_refused_naming_the_line() {
        let good = hand_suite();
        let lines: Vec<&str> = good.lines().collect();
        // Line 4 is t0002's row (comment, header, t0001, t0002).
        let with = |f: &dyn Fn(&str) -> String| {
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            l[3] = f(lines[3]);
            l.join("\n")
        };
        let e = error_of(&with(&|l| l.replacen('\t', " ", 1)));
        assert!(e.contains("line 4") && e.contains("columns"), "{e}");
        let e = error_of(&with(&|l| l.replace("goal-defence", "goal-defense")));
        assert!(e.contains("line 4") && e.contains("unknown kind"), "{e}");
        let e = error_of(&with(&|l| l.replace("\ttune\t", "\tdev\t")));
        assert!(e.contains("line 4") && e.contains("unknown split"), "{e}");
        let e = error_of(&with(&|l| l.replace("\tEg1n\t", "\tEg1w Eg1n\t")));
        assert!(e.contains("line 4") && e.contains("illegal"), "{e}");
        let e = error_of(&with(&|l| l.replace("\tEg1n\t", "\tEg1n | \t")));
        assert!(e.contains("line 4") && e.contains("empty solution"), "{e}");
        let e = error_of(&with(&|l| {
            l.replace("\tRa2n\t", "\tRa2n Ra3n Ra4n Ra5n Ra6n\t")
        }));
        assert!(e.contains("line 4") && e.contains("played"), "{e}");
        // A piece alone on a trap: no game reaches it.
        let trap = with(&|l| {
            let (head, rest) = l.split_once('[').unwrap();
            let mut b: Vec<char> = rest.chars().collect();
            b[2 * 8 + 2] = 'd'; // c6
            format!("{head}[{}", b.into_iter().collect::<String>())
        });
        let e = error_of(&trap);
        assert!(
            e.contains("line 4") && e.contains("alone on trap c6"),
            "{e}"
        );
        let e = error_of(&with(&|l| l.replace("g [", "x [")));
        assert!(e.contains("line 4") && e.contains("position"), "{e}");
        let e = error_of(&with(&|l| l.replace("\t-\tRa2n", "\t3\tRa2n")));
        assert!(e.contains("line 4") && e.contains("need"), "{e}");
        let e = error_of(&good.replace("\t1\tEc4e", "\tone\tEc4e"));
        assert!(e.contains("line 5") && e.contains("need"), "{e}");
        let e = error_of(&good.replace("t0002", "t0001"));
        assert!(e.contains("line 4") && e.contains("already used"), "{e}");
        let e = error_of(&good.replace("id\tkind", "id\tsort"));
        assert!(e.contains("line 2") && e.contains("header"), "{e}");
        // The game over at the start: gold's rabbit already on goal.
        let over = with(&|l| l.replacen("[c", "[R", 1));
        let e = error_of(&over);
        assert!(e.contains("line 4") && e.contains("over"), "{e}");
    }

    #[test]
    fn a_depth_limited_search_solves_the_capture() {
        let rows = parse_suite(&hand_suite()).unwrap();
        let mut config = crate::search::EngineConfig::default();
        config.engine.depth = 4;
        config.engine.hash = 4;
        let opts = AnalyzeOptions { time: None, config };
        let picked: Vec<&Row> = rows.iter().filter(|r| r.id == "t0003").collect();
        let res = solve_rows(&picked, &opts, |_, _| Ok(())).unwrap();
        assert!(res[0].solved, "{:?}", res[0]);
    }

    #[test]
    fn sharp_output_reads() {
        assert_eq!(
            sharp_first_turn("Ha2n Ee2n Dg2n Ha3e  ed7s dg7s qpss  qpss").as_deref(),
            Some("Ha2n Ee2n Dg2n Ha3e")
        );
        assert_eq!(
            sharp_first_turn("db7s ed7s qpss  Ec3n").as_deref(),
            Some("db7s ed7s")
        );
        assert_eq!(sharp_first_turn("qpss"), None);
        let s = sharp_position(&capture_pos(), "5g");
        assert_eq!(s.lines().count(), 9);
        assert!(s.starts_with("5g\n.......r\n"), "{s}");
    }
}
