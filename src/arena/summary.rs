//! The summary of a match (or of a shard, or of shards merged): the
//! settings, every game, and the figures derived from the games. The games
//! are the source of truth; the figures are recomputed from them, which is
//! what makes `aamir match merge` exact.

use super::result::{MatchGame, Side, Termination};
use super::schedule::{Mode, Shard, pairings};
use super::spec::EngineSpec;
use super::stats::{PairCounts, Sprt, SprtState, estimate, fmt_elo};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FORMAT: u32 = 1;

/// The openings file a match used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningsInfo {
    pub file: String,
    pub count: usize,
    /// FNV-1a of the file's text.
    pub fingerprint: String,
}

/// Everything that decides which games are played and how; shards of one
/// match must agree on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub mode: Mode,
    /// In a gauntlet, how many of the first engines are references, each
    /// playing every other engine (absent in older summaries: one).
    #[serde(default = "one")]
    pub references: u32,
    /// Games per pairing.
    pub games: u32,
    /// The match time control (engines may override it with `tc=`).
    pub tc: String,
    pub turn_limit: Option<u32>,
    /// Lag margin in seconds.
    pub margin: f64,
    /// `aeiok`/`readyok` limit in seconds.
    pub ready_timeout: f64,
    pub openings: Option<OpeningsInfo>,
    pub sprt: Option<Sprt>,
    pub event: String,
}

fn one() -> u32 {
    1
}

impl MatchConfig {
    /// The pairings this match plays, as engine indices.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        pairings(self.engines.len(), self.mode, self.references as usize)
    }

    /// The candidates compared pairwise through the references: every
    /// engine after the references, in a gauntlet with at least two of them.
    pub fn candidates(&self) -> std::ops::Range<usize> {
        let r = self.references as usize;
        if self.mode == Mode::Gauntlet && self.engines.len() >= r + 2 {
            r..self.engines.len()
        } else {
            0..0
        }
    }

    /// Whether `--sprt` tests the paired difference of two candidates
    /// rather than a single pairing.
    pub fn sprt_is_paired(&self) -> bool {
        self.candidates().len() == 2
    }
    /// Whether two shards belong to the same match. Engine commands and
    /// directories may differ between machines; names, options, time
    /// controls and the schedule may not.
    pub fn compatible(&self, other: &MatchConfig) -> Result<(), String> {
        let key = |c: &MatchConfig| {
            let engines: Vec<_> = c
                .engines
                .iter()
                .map(|e| (e.name.clone(), e.options.clone(), e.tc.clone()))
                .collect();
            (
                engines,
                c.mode,
                c.references,
                c.games,
                c.tc.clone(),
                c.turn_limit,
                c.openings.as_ref().map(|o| o.fingerprint.clone()),
                c.sprt.map(|s| format!("{s:?}")),
            )
        };
        if key(self) != key(other) {
            return Err(
                "the summaries are from different matches (engines, options, time control, games, openings or SPRT differ)"
                    .into(),
            );
        }
        Ok(())
    }
}

/// What kind of thing an engine did that a note records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NoteKind {
    /// Its handshake broke the specification in a way AEI's controllers
    /// accept (no `protocol-version`, lines before it, ...).
    Handshake,
    /// It answered one of the user's `option.KEY=VALUE` with `log Error`
    /// or `log Warning`.
    Option,
}

/// Something an engine did when it was started, told to the user before
/// the first game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EngineNote {
    pub engine: String,
    pub kind: NoteKind,
    pub text: String,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every scheduled game was played.
    Complete,
    /// Stopped by Ctrl-C; the games finished before are kept.
    Interrupted,
    /// Stopped because the SPRT decided.
    Sprt,
    /// Merged shards that do not make up the whole match.
    Partial,
}

/// One pairing's figures, from its first engine's point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingSummary {
    pub first: String,
    pub second: String,
    pub games: u32,
    pub first_wins: u32,
    pub second_wins: u32,
    /// Wins of each engine by termination (`time` = the other lost on time).
    pub first_wins_by: BTreeMap<String, u32>,
    pub second_wins_by: BTreeMap<String, u32>,
    /// Games won by the side playing gold.
    pub gold_wins: u32,
    /// First engine's score share.
    pub score: Option<f64>,
    /// Elo of first over second; `null` when infinite or undefined.
    pub elo: Option<f64>,
    /// 95% interval (Wilson); `null` for an unbounded end.
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    /// Likelihood that the first engine is stronger.
    pub los: f64,
    /// The same as text, `+28.4 [-38.0, +95.1]`.
    pub elo_text: String,
    pub sprt: Option<SprtState>,
}

/// One engine's totals over all its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSummary {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub losses_by: BTreeMap<String, u32>,
    pub wins_by: BTreeMap<String, u32>,
    /// Material its pieces lost to captures over its games, and material it
    /// took (rabbit 1, cat and dog 2, horse 3, camel 5, elephant 9): how a
    /// match is lost shows here before it shows in the score. Absent in
    /// older summaries.
    #[serde(default)]
    pub material_lost: u32,
    #[serde(default)]
    pub material_taken: u32,
    /// Of that material, the rabbits lost and taken (counted in pieces):
    /// a leak of rabbits into the opponent's traps hides among officers
    /// in the totals.
    #[serde(default)]
    pub rabbits_lost: u32,
    #[serde(default)]
    pub rabbits_taken: u32,
    /// Seconds it used over its timed moves, and how many those were.
    #[serde(default)]
    pub seconds_used: f64,
    #[serde(default)]
    pub timed_moves: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub format: u32,
    pub config: MatchConfig,
    /// The shards this summary covers; empty for a whole match.
    pub shards: Vec<Shard>,
    pub status: Status,
    /// Games scheduled for the shards covered.
    pub scheduled: u32,
    pub played: u32,
    /// Games cut off by Ctrl-C or an SPRT stop (not counted anywhere).
    pub aborted: u32,
    pub concurrency: u32,
    /// Wall time of the run (summed over merged shards).
    pub wall_seconds: f64,
    pub pairings: Vec<PairingSummary>,
    pub engines: Vec<EngineSummary>,
    /// Candidates compared on the same openings and colours against the
    /// same references (a gauntlet with two or more candidates); absent in
    /// older summaries.
    #[serde(default)]
    pub paired: Vec<PairedSummary>,
    /// What engines did at start that a strict controller would refuse,
    /// and the options they complained about (absent in older summaries).
    #[serde(default)]
    pub notes: Vec<EngineNote>,
    pub games: Vec<MatchGame>,
}

/// Two candidates compared through the references on the games they
/// played on the same opening with the same colour (see `stats` for the
/// model): from the first candidate's point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedSummary {
    pub first: String,
    pub second: String,
    /// The reference the pairs were played against, or `all` for the sum
    /// over every reference.
    pub reference: String,
    pub counts: PairCounts,
    pub pairs: u32,
    /// Scores of each candidate over the paired games.
    pub first_score: Option<f64>,
    pub second_score: Option<f64>,
    /// Elo of the first over the second from the discordant pairs, with
    /// its 95% interval; `null` when infinite or undefined.
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    /// The same as text, `+28.4 [-38.0, +95.1]`.
    pub elo_text: String,
    /// McNemar's z, its two-sided p-value, and the likelihood that the
    /// first is stronger.
    pub z: f64,
    pub p_value: f64,
    pub los: f64,
    /// Mean score difference per pair and its 95% interval.
    pub score_diff: Option<f64>,
    pub score_diff_low: Option<f64>,
    pub score_diff_high: Option<f64>,
    /// The SPRT on the difference (`--sprt` with two candidates; on the
    /// `all` row).
    pub sprt: Option<SprtState>,
}

/// The pairs of candidates `i` and `j` against reference `r`, by round:
/// whether each won its game. A round counts once both games are played.
pub fn pair_outcomes(
    config: &MatchConfig,
    games: &[MatchGame],
    r: usize,
    i: usize,
    j: usize,
) -> Vec<(u32, bool, bool)> {
    let pairs = config.pairs();
    let pairing = |c: usize| pairs.iter().position(|&p| p == (r, c));
    let (Some(pi), Some(pj)) = (pairing(i), pairing(j)) else {
        return Vec::new();
    };
    let won = |p: usize, c: usize| -> std::collections::BTreeMap<u32, bool> {
        games
            .iter()
            .filter(|g| g.pairing == p)
            .map(|g| (g.round, g.winner_name() == config.engines[c].name))
            .collect()
    };
    let (a, b) = (won(pi, i), won(pj, j));
    a.iter()
        .filter_map(|(round, &x)| b.get(round).map(|&y| (*round, x, y)))
        .collect()
}

/// The paired comparisons of a gauntlet's candidates: for each pair of
/// candidates, one row per reference and, with several references, one
/// for all of them together (the SPRT, if any, is on that last row).
pub fn paired_figures(config: &MatchConfig, games: &[MatchGame]) -> Vec<PairedSummary> {
    let cands = config.candidates();
    let name = |i: usize| config.engines[i].name.as_str();
    let mut out = Vec::new();
    for i in cands.clone() {
        for j in cands.clone().filter(|&j| j > i) {
            let mut total = PairCounts::default();
            let mut rows = Vec::new();
            for r in 0..config.references as usize {
                let mut c = PairCounts::default();
                for (_, x, y) in pair_outcomes(config, games, r, i, j) {
                    c.add(x, y);
                }
                total = total.merged(c);
                rows.push((name(r).to_string(), c));
            }
            if rows.len() > 1 {
                rows.push(("all".to_string(), total));
            }
            let last = rows.len() - 1;
            for (k, (reference, c)) in rows.into_iter().enumerate() {
                let sprt = config
                    .sprt
                    .filter(|_| config.sprt_is_paired() && k == last)
                    .map(|t| t.state(c.first_only, c.second_only));
                out.push(paired_summary(name(i), name(j), &reference, c, sprt));
            }
        }
    }
    out
}

fn paired_summary(
    first: &str,
    second: &str,
    reference: &str,
    c: PairCounts,
    sprt: Option<SprtState>,
) -> PairedSummary {
    let e = c.estimate();
    let n = c.pairs();
    let share = |w: u32| (n > 0).then(|| f64::from(w) / f64::from(n));
    PairedSummary {
        first: first.to_string(),
        second: second.to_string(),
        reference: reference.to_string(),
        counts: c,
        pairs: n,
        first_score: share(c.both_won + c.first_only),
        second_score: share(c.both_won + c.second_only),
        elo: finite(e.elo.elo),
        elo_low: finite(e.elo.elo_low),
        elo_high: finite(e.elo.elo_high),
        elo_text: format!(
            "{} [{}, {}]",
            fmt_elo(e.elo.elo),
            fmt_elo(e.elo.elo_low),
            fmt_elo(e.elo.elo_high)
        ),
        z: e.z,
        p_value: e.p_value,
        los: e.elo.los,
        score_diff: finite(e.score_diff),
        score_diff_low: finite(e.score_diff_low),
        score_diff_high: finite(e.score_diff_high),
        sprt,
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Figures of one pairing from its games.
pub fn pairing_summary(
    first: &str,
    second: &str,
    games: &[&MatchGame],
    sprt: Option<Sprt>,
) -> PairingSummary {
    let mut s = PairingSummary {
        first: first.to_string(),
        second: second.to_string(),
        games: games.len() as u32,
        first_wins: 0,
        second_wins: 0,
        first_wins_by: BTreeMap::new(),
        second_wins_by: BTreeMap::new(),
        gold_wins: 0,
        score: None,
        elo: None,
        elo_low: None,
        elo_high: None,
        los: 0.5,
        elo_text: String::new(),
        sprt: None,
    };
    for g in games {
        let by = g.termination.name().to_string();
        if g.winner_name() == first {
            s.first_wins += 1;
            *s.first_wins_by.entry(by).or_insert(0) += 1;
        } else {
            s.second_wins += 1;
            *s.second_wins_by.entry(by).or_insert(0) += 1;
        }
        if g.winner == Side::Gold {
            s.gold_wins += 1;
        }
    }
    let e = estimate(s.first_wins, s.games);
    s.score = finite(e.score);
    s.elo = finite(e.elo);
    s.elo_low = finite(e.elo_low);
    s.elo_high = finite(e.elo_high);
    s.los = e.los;
    s.elo_text = format!(
        "{} [{}, {}]",
        fmt_elo(e.elo),
        fmt_elo(e.elo_low),
        fmt_elo(e.elo_high)
    );
    s.sprt = sprt.map(|t| t.state(s.first_wins, s.second_wins));
    s
}

/// All figures from the games.
pub fn figures(
    config: &MatchConfig,
    pairs: &[(usize, usize)],
    games: &[MatchGame],
) -> (Vec<PairingSummary>, Vec<EngineSummary>) {
    let sprt = if pairs.len() == 1 && !config.sprt_is_paired() {
        config.sprt
    } else {
        None
    };
    let pairings = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            let gs: Vec<&MatchGame> = games.iter().filter(|g| g.pairing == i).collect();
            pairing_summary(&config.engines[a].name, &config.engines[b].name, &gs, sprt)
        })
        .collect();
    let engines = config
        .engines
        .iter()
        .map(|e| {
            let mut s = EngineSummary {
                name: e.name.clone(),
                games: 0,
                wins: 0,
                losses: 0,
                losses_by: BTreeMap::new(),
                wins_by: BTreeMap::new(),
                material_lost: 0,
                material_taken: 0,
                rabbits_lost: 0,
                rabbits_taken: 0,
                seconds_used: 0.0,
                timed_moves: 0,
            };
            for g in games
                .iter()
                .filter(|g| g.gold == e.name || g.silver == e.name)
            {
                s.games += 1;
                let side = if g.gold == e.name {
                    Side::Gold
                } else {
                    Side::Silver
                };
                s.material_lost += g.material_lost(side);
                s.material_taken += g.material_lost(side.other());
                s.rabbits_lost += g.rabbits_lost(side);
                s.rabbits_taken += g.rabbits_lost(side.other());
                let (t, n) = g.time_used(side);
                s.seconds_used += t;
                s.timed_moves += n;
                let by = g.termination.name().to_string();
                if g.winner_name() == e.name {
                    s.wins += 1;
                    *s.wins_by.entry(by).or_insert(0) += 1;
                } else {
                    s.losses += 1;
                    *s.losses_by.entry(by).or_insert(0) += 1;
                }
            }
            s
        })
        .collect();
    (pairings, engines)
}

/// Combines shard summaries of one match. Games must not repeat.
pub fn merge(parts: Vec<Summary>, pairs: &[(usize, usize)]) -> Result<Summary, String> {
    let mut it = parts.into_iter();
    let mut out = it.next().ok_or("nothing to merge")?;
    if out.format != FORMAT {
        return Err(format!("summary format {} is not {FORMAT}", out.format));
    }
    let mut statuses = vec![out.status];
    for (n, p) in it.enumerate() {
        if p.format != FORMAT {
            return Err(format!("summary format {} is not {FORMAT}", p.format));
        }
        out.config
            .compatible(&p.config)
            .map_err(|e| format!("summary {}: {e}", n + 2))?;
        for s in &p.shards {
            if out.shards.iter().any(|t| t.index == s.index) {
                return Err(format!("shard {}/{} appears twice", s.index, s.count));
            }
        }
        out.shards.extend(p.shards);
        statuses.push(p.status);
        out.scheduled += p.scheduled;
        out.played += p.played;
        out.aborted += p.aborted;
        out.concurrency = out.concurrency.max(p.concurrency);
        out.wall_seconds += p.wall_seconds;
        out.games.extend(p.games);
        out.notes.extend(p.notes);
    }
    // Every shard starts the same engines and usually notes the same.
    out.notes.sort();
    out.notes.dedup();
    if let Some(c) = out.shards.first().map(|s| s.count)
        && out.shards.iter().any(|s| s.count != c)
    {
        return Err("the shards split the match differently (i/n with different n)".into());
    }
    out.games.sort_by_key(|g| g.id);
    if let Some(w) = out.games.windows(2).find(|w| w[0].id == w[1].id) {
        return Err(format!(
            "game {} appears twice: these summaries overlap (same shard run twice?)",
            w[0].id
        ));
    }
    out.shards.sort_by_key(|s| s.index);
    let whole = out.shards.is_empty() || out.shards.len() as u32 == out.shards[0].count;
    out.status = if whole && statuses.iter().all(|s| *s == statuses[0]) {
        // One whole match (or shards that all ended alike) keeps how it
        // ended, an SPRT stop included.
        statuses[0]
    } else if statuses.contains(&Status::Interrupted) {
        Status::Interrupted
    } else {
        Status::Partial
    };
    let (p, e) = figures(&out.config, pairs, &out.games);
    out.pairings = p;
    out.engines = e;
    out.paired = paired_figures(&out.config, &out.games);
    Ok(out)
}

/// The table printed at the end.
pub fn report(s: &Summary) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} games played of {} scheduled ({:?}), {:.1}s wall, concurrency {}\n",
        s.played, s.scheduled, s.status, s.wall_seconds, s.concurrency
    ));
    for p in &s.pairings {
        out.push_str(&format!(
            "{} vs {}: {} games, {} - {}, score {}, Elo {}, LOS {:.1}%, gold won {}\n",
            p.first,
            p.second,
            p.games,
            p.first_wins,
            p.second_wins,
            p.score.map_or("?".into(), |x| format!("{:.1}%", 100.0 * x)),
            p.elo_text,
            100.0 * p.los,
            p.gold_wins
        ));
        let by = |m: &BTreeMap<String, u32>| {
            if m.is_empty() {
                "-".to_string()
            } else {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        out.push_str(&format!(
            "  {} wins by: {}\n",
            p.first,
            by(&p.first_wins_by)
        ));
        out.push_str(&format!(
            "  {} wins by: {}\n",
            p.second,
            by(&p.second_wins_by)
        ));
        if let Some(t) = &p.sprt {
            out.push_str(&format!(
                "  SPRT: LLR {:.3} [{:.3}, {:.3}] {}\n",
                t.llr,
                t.lower,
                t.upper,
                t.decision.text()
            ));
        }
    }
    if !s.paired.is_empty() {
        out.push_str("paired, on the same openings and colours:\n");
    }
    for p in &s.paired {
        out.push_str(&paired_line(p));
        out.push('\n');
    }
    for e in &s.engines {
        let lost: Vec<String> = e
            .losses_by
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push_str(&format!(
            "{}: {} games, {} won, {} lost{}\n",
            e.name,
            e.games,
            e.wins,
            e.losses,
            if lost.is_empty() {
                String::new()
            } else {
                format!(" (by {})", lost.join(", "))
            }
        ));
        if e.games > 0 {
            let per_game = |x: u32| f64::from(x) / f64::from(e.games);
            out.push_str(&format!(
                "  material a game: lost {:.1}, taken {:.1} (rabbits lost {:.1}, taken {:.1}){}\n",
                per_game(e.material_lost),
                per_game(e.material_taken),
                per_game(e.rabbits_lost),
                per_game(e.rabbits_taken),
                if e.timed_moves > 0 {
                    format!(
                        "; {:.2} s a move",
                        e.seconds_used / f64::from(e.timed_moves)
                    )
                } else {
                    String::new()
                }
            ));
        }
    }
    for n in &s.notes {
        out.push_str(&format!("note: engine {}: {}\n", n.engine, n.text));
    }
    let faults = s
        .games
        .iter()
        .filter(|g| {
            matches!(
                g.termination,
                Termination::Crash | Termination::Time | Termination::Illegal
            )
        })
        .count();
    if faults > 0 {
        out.push_str(&format!(
            "{faults} games lost by a crash, on time or by an illegal move: see failures.txt\n"
        ));
    }
    out
}

/// One paired comparison as a line of the report.
pub fn paired_line(p: &PairedSummary) -> String {
    let pct = |x: Option<f64>| x.map_or("?".into(), |v| format!("{:.1}%", 100.0 * v));
    let c = p.counts;
    let mut line = format!(
        "  {} - {} against {}: {} pairs (both won {}, only {} {}, only {} {}, both lost {}), \
         scores {} and {}, difference {} [{}, {}] a pair, Elo {}, z {:.2}, p {:.3}, LOS {:.1}%",
        p.first,
        p.second,
        p.reference,
        p.pairs,
        c.both_won,
        p.first,
        c.first_only,
        p.second,
        c.second_only,
        c.both_lost,
        pct(p.first_score),
        pct(p.second_score),
        p.score_diff.map_or("?".into(), |v| format!("{v:+.3}")),
        p.score_diff_low.map_or("?".into(), |v| format!("{v:+.3}")),
        p.score_diff_high.map_or("?".into(), |v| format!("{v:+.3}")),
        p.elo_text,
        p.z,
        p.p_value,
        100.0 * p.los
    );
    if let Some(t) = &p.sprt {
        line.push_str(&format!(
            "\n    SPRT on the difference: LLR {:.3} [{:.3}, {:.3}] {}",
            t.llr,
            t.lower,
            t.upper,
            t.decision.text()
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::result::MoveRecord;

    fn game(gold: &str, silver: &str, moves: &[(&str, &str, Option<f64>)]) -> MatchGame {
        MatchGame {
            id: 1,
            round: 0,
            pairing: 0,
            opening: None,
            gold: gold.into(),
            silver: silver.into(),
            winner: Side::Gold,
            termination: Termination::Goal,
            detail: String::new(),
            moves: moves
                .iter()
                .map(|&(label, text, used)| MoveRecord {
                    label: label.into(),
                    text: text.into(),
                    used,
                    reserve: None,
                })
                .collect(),
            final_label: "9s".into(),
            attempted: None,
            timecontrol: "1s/15s".into(),
            start_unix: 0,
            end_unix: 0,
            seconds: 0.0,
            fault: None,
        }
    }

    fn engine(name: &str) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            command: vec!["x".into()],
            dir: None,
            options: Vec::new(),
            tc: None,
        }
    }

    #[test]
    fn captures_are_charged_to_the_owner_of_the_piece_whoever_moved() {
        // Gold loses a rabbit on its own move (its last guard stepped
        // away) and a camel on silver's; silver loses a cat and a horse.
        // Setup tokens (`Ra1`) and plain steps are not captures.
        let g = game(
            "a",
            "b",
            &[
                ("1g", "Ra1 Rb1 Mc1", None),
                ("1s", "ra8 hb8", None),
                ("2g", "Dc2n Rc3x Ed5w cc6x", Some(1.0)),
                ("2s", "ef5w Mf6x hf3s hf2x", Some(0.5)),
                ("3g", "Ed4n", Some(2.0)),
            ],
        );
        assert_eq!(g.material_lost(Side::Gold), 1 + 5);
        assert_eq!(g.material_lost(Side::Silver), 2 + 3);
        assert_eq!(
            (g.rabbits_lost(Side::Gold), g.rabbits_lost(Side::Silver)),
            (1, 0)
        );
        assert_eq!(g.time_used(Side::Gold), (3.0, 2));
        assert_eq!(g.time_used(Side::Silver), (0.5, 1));
    }

    #[test]
    fn paired_rows_per_reference_and_for_all_with_the_sprt_on_all() {
        let config = MatchConfig {
            engines: vec![engine("r1"), engine("r2"), engine("a"), engine("b")],
            mode: Mode::Gauntlet,
            references: 2,
            games: 4,
            tc: "1s/15s".into(),
            turn_limit: None,
            margin: 0.1,
            ready_timeout: 15.0,
            openings: None,
            sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
            event: "t".into(),
        };
        let pairs = config.pairs();
        assert_eq!(pairs, vec![(0, 2), (0, 3), (1, 2), (1, 3)]);
        // (reference, candidate, round, candidate won)
        let results = [
            (0, 2, 0, true),
            (0, 3, 0, false),
            (0, 2, 1, true),
            (0, 3, 1, true),
            (1, 2, 0, false),
            (1, 3, 0, true),
            (1, 2, 1, true),
            (1, 3, 1, false),
            // A round only one candidate has played is not a pair.
            (1, 2, 2, true),
        ];
        let games: Vec<MatchGame> = results
            .iter()
            .map(|&(r, c, round, won)| {
                let (rn, cn) = (
                    config.engines[r].name.as_str(),
                    config.engines[c].name.as_str(),
                );
                let mut g = game(rn, cn, &[]);
                g.pairing = pairs.iter().position(|&p| p == (r, c)).unwrap();
                g.round = round;
                g.winner = if won { Side::Silver } else { Side::Gold };
                g
            })
            .collect();
        let rows = paired_figures(&config, &games);
        let refs: Vec<&str> = rows.iter().map(|r| r.reference.as_str()).collect();
        assert_eq!(refs, vec!["r1", "r2", "all"]);
        let c = |k: usize| {
            let c = rows[k].counts;
            (c.both_won, c.first_only, c.second_only, c.both_lost)
        };
        assert_eq!(c(0), (1, 1, 0, 0));
        assert_eq!(c(1), (0, 1, 1, 0));
        assert_eq!(c(2), (1, 2, 1, 0));
        assert!(rows[0].sprt.is_none() && rows[1].sprt.is_none());
        let t = rows[2].sprt.expect("the SPRT on the all row");
        assert_eq!(t, config.sprt.unwrap().state(2, 1));
        assert_eq!(
            (rows[2].first_score, rows[2].second_score),
            (Some(0.75), Some(0.5))
        );
        // The text report has a line for each row.
        let line = paired_line(&rows[2]);
        assert!(line.contains("a - b against all: 4 pairs"), "{line}");
    }

    #[test]
    fn engine_totals_follow_the_engine_across_colours() {
        let config = MatchConfig {
            engines: vec![engine("a"), engine("b")],
            mode: Mode::RoundRobin,
            references: 1,
            games: 2,
            tc: "1s/15s".into(),
            turn_limit: None,
            margin: 0.1,
            ready_timeout: 15.0,
            openings: None,
            sprt: None,
            event: "t".into(),
        };
        // `a` is gold in the first game and silver in the second; it loses
        // an elephant (9) in the first and a dog (2) in the second, and
        // takes a rabbit (1) in the second.
        let games = [
            game("a", "b", &[("2g", "Ef3x", Some(1.0))]),
            game(
                "b",
                "a",
                &[("2g", "Rc6x", Some(3.0)), ("2s", "dc3x", Some(2.0))],
            ),
        ];
        let (_, engines) = figures(&config, &[(0, 1)], &games);
        let a = &engines[0];
        assert_eq!((a.material_lost, a.material_taken), (9 + 2, 1));
        assert_eq!((a.rabbits_lost, a.rabbits_taken), (0, 1));
        assert_eq!((a.seconds_used, a.timed_moves), (3.0, 2));
        let b = &engines[1];
        assert_eq!((b.material_lost, b.material_taken), (1, 9 + 2));
        assert_eq!((b.rabbits_lost, b.rabbits_taken), (1, 0));
        let summary = Summary {
            format: FORMAT,
            config,
            shards: Vec::new(),
            status: Status::Complete,
            scheduled: 2,
            played: 2,
            aborted: 0,
            concurrency: 1,
            wall_seconds: 1.0,
            pairings: Vec::new(),
            engines,
            paired: Vec::new(),
            notes: Vec::new(),
            games: Vec::new(),
        };
        let text = report(&summary);
        assert!(
            text.contains(
                "material a game: lost 5.5, taken 0.5 (rabbits lost 0.0, taken 0.5); 1.50 s a move"
            ),
            "{text}"
        );
    }
}
