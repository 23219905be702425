//! Which games a match plays, in which order, with which colours and
//! openings, and which of them a shard plays.
//!
//! Games of a pairing come in rounds: round `r` gives the pairing's first
//! engine gold when `r` is even, and rounds `2k` and `2k+1` share opening
//! `k` (cycling through the file), so both engines play both sides of the
//! same opening. The full schedule is round-major (round 0 of every
//! pairing, then round 1, ...) so that a match stopped early is balanced.
//! A game's id is its place in the full schedule, from 1.
//!
//! Sharding keeps such pairs of games together: pair unit `u` (a pairing's
//! rounds `2k`, `2k+1`) goes to shard `u mod n`. In a gauntlet the unit is
//! the round pair of every pairing at once, so that the candidates' games
//! on one opening, which the paired comparison sets side by side, are
//! played on the same machine. The split depends only on
//! the match settings, so `n` machines given `--shard 1/n` ... `n/n` play
//! every game exactly once.

use crate::board::record::{parse_archive, parse_movelist, replay};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// How engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The first engine (the first `references`) against each other one.
    Gauntlet,
    /// Every engine against every other one.
    RoundRobin,
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "gauntlet" => Ok(Mode::Gauntlet),
            "roundrobin" | "round-robin" | "rr" => Ok(Mode::RoundRobin),
            _ => Err(format!("`{s}` is not a mode (gauntlet, roundrobin)")),
        }
    }
}

/// The pairings of `n` engines, as (first, second) engine indices; in a
/// gauntlet the first `refs` engines each play every later one.
pub fn pairings(n: usize, mode: Mode, refs: usize) -> Vec<(usize, usize)> {
    match mode {
        Mode::Gauntlet => (0..refs.min(n))
            .flat_map(|a| (refs.max(1)..n).map(move |b| (a, b)))
            .collect(),
        Mode::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
    }
}

/// `--shard i/n`: this machine plays share `i` (from 1) of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard `{s}` is not i/n with 1 <= i <= n");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub id: u32,
    pub round: u32,
    pub pairing: usize,
    pub gold: usize,
    pub silver: usize,
    pub opening: Option<usize>,
}

/// The games to play: `games` per pairing, openings cycled if there are
/// any, restricted to `shard`; `together` keeps every pairing's games of a
/// round pair in one shard (a gauntlet's paired games).
pub fn schedule(
    pairs: &[(usize, usize)],
    games: u32,
    n_openings: usize,
    shard: Option<Shard>,
    together: bool,
) -> Vec<Scheduled> {
    let np = pairs.len() as u32;
    let mut out = Vec::new();
    for round in 0..games {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let unit = if together {
                round / 2
            } else {
                (round / 2) * np + p as u32
            };
            if let Some(s) = shard
                && unit % s.count != s.index - 1
            {
                continue;
            }
            let (gold, silver) = if round % 2 == 0 { (a, b) } else { (b, a) };
            out.push(Scheduled {
                id: round * np + p as u32 + 1,
                round,
                pairing: p,
                gold,
                silver,
                opening: (n_openings > 0).then(|| (round as usize / 2) % n_openings),
            });
        }
    }
    out
}

/// Reads openings: either an arimaa.com archive (a TSV with a `movelist`
/// column; each game gives its two setup moves) or a text file with one
/// opening per line in movelist form (`1g Ra1 Rb1 ...\n1s ra8 ...`, moves
/// separated by a literal `\n`, further moves allowed). `#` lines are
/// comments. Every opening is replayed through the rules and must leave
/// the game unfinished.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<String>>, String> {
    let first = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .ok_or("the openings file has no openings")?;
    let is_archive = first.split('\t').any(|c| c == "movelist");
    let mut out = Vec::new();
    if is_archive {
        let games = parse_archive(text).map_err(|e| e.to_string())?;
        for g in games {
            let moves: Vec<(String, String)> = g.moves.iter().take(2).cloned().collect();
            if moves.len() < 2 {
                continue;
            }
            check_opening(&moves).map_err(|e| format!("game {}: {e}", g.id()))?;
            out.push(moves.into_iter().map(|(_, m)| m).collect());
        }
    } else {
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let moves = parse_movelist(line).map_err(|e| format!("line {}: {e}", n + 1))?;
            if moves.is_empty() {
                return Err(format!("line {}: no moves", n + 1));
            }
            check_opening(&moves).map_err(|e| format!("line {}: {e}", n + 1))?;
            out.push(moves.into_iter().map(|(_, m)| m).collect());
        }
    }
    if out.is_empty() {
        return Err("the openings file has no usable openings".into());
    }
    Ok(out)
}

fn check_opening(moves: &[(String, String)]) -> Result<(), String> {
    let r = replay(moves).map_err(|e| e.to_string())?;
    if let Some(o) = r.outcome {
        return Err(format!(
            "the opening already ends the game ({} wins by {})",
            o.winner.name(),
            o.reason.name()
        ));
    }
    Ok(())
}

/// FNV-1a, to tell whether shards used the same openings file.
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn pairings_by_mode() {
        assert_eq!(pairings(3, Mode::Gauntlet, 1), vec![(0, 1), (0, 2)]);
        assert_eq!(
            pairings(4, Mode::Gauntlet, 2),
            vec![(0, 2), (0, 3), (1, 2), (1, 3)]
        );
        assert_eq!(
            pairings(3, Mode::RoundRobin, 1),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(
            pairings(2, Mode::RoundRobin, 1),
            pairings(2, Mode::Gauntlet, 1)
        );
    }

    #[test]
    fn colours_alternate_and_openings_pair_up() {
        let s = schedule(&[(0, 1)], 6, 2, None, false);
        let colours: Vec<_> = s.iter().map(|g| (g.gold, g.silver)).collect();
        assert_eq!(
            colours,
            vec![(0, 1), (1, 0), (0, 1), (1, 0), (0, 1), (1, 0)]
        );
        let ops: Vec<_> = s.iter().map(|g| g.opening).collect();
        assert_eq!(
            ops,
            vec![Some(0), Some(0), Some(1), Some(1), Some(0), Some(0)]
        );
        let ids: Vec<_> = s.iter().map(|g| g.id).collect();
        assert_eq!(ids, vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn shards_cover_everything_once_and_keep_pairs() {
        let pairs = pairings(3, Mode::RoundRobin, 1);
        let full = schedule(&pairs, 10, 3, None, false);
        let mut seen = HashSet::new();
        for i in 1..=4 {
            let part = schedule(&pairs, 10, 3, Some(Shard { index: i, count: 4 }), false);
            for g in &part {
                assert!(seen.insert(g.id), "game {} in two shards", g.id);
                assert!(full.contains(g));
                // The other game of its pair is in the same shard.
                let mate = g.round ^ 1;
                assert!(
                    part.iter()
                        .any(|h| h.pairing == g.pairing && h.round == mate),
                    "game {} without its pair",
                    g.id
                );
            }
        }
        assert_eq!(seen.len(), full.len());
    }

    #[test]
    fn a_gauntlets_paired_games_share_opening_colours_and_shard() {
        let pairs = pairings(3, Mode::Gauntlet, 1);
        let full = schedule(&pairs, 8, 3, None, true);
        for g in &full {
            // The other candidate's game of the same round: same opening,
            // the reference on the same side.
            let twin = full
                .iter()
                .find(|h| h.round == g.round && h.pairing != g.pairing)
                .unwrap();
            assert_eq!(twin.opening, g.opening);
            assert_eq!(twin.gold == 0, g.gold == 0);
        }
        let mut seen = 0;
        for i in 1..=3 {
            let part = schedule(&pairs, 8, 3, Some(Shard { index: i, count: 3 }), true);
            seen += part.len();
            for g in &part {
                for h in full.iter().filter(|h| h.round / 2 == g.round / 2) {
                    assert!(part.contains(h), "game {} split from {}", h.id, g.id);
                }
            }
        }
        assert_eq!(seen, full.len());
    }

    #[test]
    fn parses_shards() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_openings() {
        let text = "# two setups\n\
            1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2\\n1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7\n";
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].len(), 2);
        // An illegal setup is refused with its line number.
        let bad = "1g Ra1 Ra1\n";
        let e = parse_openings(bad).unwrap_err();
        assert!(e.starts_with("line 1"), "{e}");
        assert!(parse_openings("# nothing\n").is_err());
    }
}
