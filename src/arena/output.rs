//! Writing a match's files: every game in the arimaa.com archive format
//! (`games.tsv`, readable by `aamir replay`), the PGN-like record AEI's
//! roundrobin writes (`games.pgn`), the failure reports (`failures.txt`),
//! the summary (`summary.json`) and the report to look at (`report.html`).

use super::result::MatchGame;
use super::summary::Summary;
use anyhow::{Context, Result};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// The header of arimaa.com archive files, column for column.
pub const ARCHIVE_HEADER: &str = "id\twplayerid\tbplayerid\twusername\tbusername\twtitle\tbtitle\twcountry\tbcountry\twrating\tbrating\twratingk\tbratingk\twtype\tbtype\tevent\tsite\ttimecontrol\tpostal\tstartts\tendts\tresult\ttermination\tplycount\tmode\trated\tcorrupt\tmovelist\tevents";

/// Tabs and line breaks would break a TSV row.
fn cell(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// The archive's movelist: labelled moves joined by a literal `\n`, ending
/// with the label of the side that was to move when the game stopped (as
/// arimaa.com writes it).
pub fn movelist(g: &MatchGame) -> String {
    let mut parts: Vec<String> = g
        .moves
        .iter()
        .map(|m| format!("{} {}", m.label, m.text))
        .collect();
    parts.push(g.final_label.clone());
    parts.join("\\n")
}

/// The archive's plycount: the number of the last move played (`31s`
/// is 31), which is also the game's length in turns.
pub(super) fn plycount(g: &MatchGame) -> u32 {
    g.moves
        .last()
        .and_then(|m| {
            m.label
                .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// The events column: the clock after each move and how the game ended.
fn events(g: &MatchGame) -> String {
    let mut ev = vec![format!(
        "{} game {} started: gold {}, silver {}, timecontrol {}",
        g.start_unix, g.id, g.gold, g.silver, g.timecontrol
    )];
    for m in &g.moves {
        match (m.used, m.reserve) {
            (Some(u), Some(r)) => ev.push(format!(
                "after {}, move used:{u:.3} reserve:{r:.3}",
                m.label
            )),
            _ => ev.push(format!("{} from the opening", m.label)),
        }
    }
    if let Some(a) = &g.attempted {
        ev.push(format!("refused move {} [{}]", g.final_label, a));
    }
    ev.push(format!(
        "{} game finished with result {} {}: {}",
        g.end_unix,
        g.winner.archive_letter(),
        g.termination.letter(),
        g.detail
    ));
    ev.iter()
        .map(|e| cell(e).replace('\\', "/"))
        .collect::<Vec<_>>()
        .join("\\n")
}

/// One archive row. `player_id` gives an engine's number in the match.
pub fn archive_row(g: &MatchGame, player_id: impl Fn(&str) -> usize, event: &str) -> String {
    let cols: Vec<String> = vec![
        g.id.to_string(),
        player_id(&g.gold).to_string(),
        player_id(&g.silver).to_string(),
        cell(&g.gold),
        cell(&g.silver),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        "b".into(),
        "b".into(),
        cell(event),
        "aamir match".into(),
        cell(&g.timecontrol),
        "0".into(),
        g.start_unix.to_string(),
        g.end_unix.to_string(),
        g.winner.archive_letter().to_string(),
        g.termination.letter().to_string(),
        plycount(g).to_string(),
        "match".into(),
        "0".into(),
        "0".into(),
        movelist(g),
        events(g),
    ];
    cols.join("\t")
}

/// One game as AEI's roundrobin writes it to its PGN file (tags White,
/// Black, TimeControl, PlyCount, ResultCode, Result; the moves one per
/// line, the refused move included as roundrobin does; the result).
pub fn pgn_entry(g: &MatchGame) -> String {
    let result = match g.winner {
        super::result::Side::Gold => "1-0",
        super::result::Side::Silver => "0-1",
    };
    let mut s = String::new();
    s.push_str(&format!("[White \"{}\"]\n", g.gold));
    s.push_str(&format!("[Black \"{}\"]\n", g.silver));
    s.push_str(&format!("[TimeControl \"{}\"]\n", g.timecontrol));
    s.push_str(&format!("[PlyCount \"{}\"]\n", g.moves.len()));
    s.push_str(&format!("[ResultCode \"{}\"]\n", g.termination.letter()));
    s.push_str(&format!("[Result \"{result}\"]\n\n"));
    for m in &g.moves {
        s.push_str(&format!("{} {}\n", m.label, m.text));
    }
    if let Some(a) = &g.attempted {
        s.push_str(&format!("{} {}\n", g.final_label, a));
    }
    s.push_str(&format!("{result}\n\n"));
    s
}

/// The failure report of a game lost on time, by an illegal move or a
/// fault; `None` for other games.
pub fn failure_entry(g: &MatchGame) -> Option<String> {
    let f = g.fault.as_ref()?;
    let mut s = format!(
        "== game {} ({} gold vs {} silver): {} ({}) lost by {}\n{}\n",
        g.id,
        g.gold,
        g.silver,
        f.engine,
        f.side.name(),
        g.termination.name(),
        g.detail
    );
    s.push_str("-- stderr (last lines):\n");
    for l in &f.stderr {
        s.push_str(&format!("  {l}\n"));
    }
    s.push_str("-- exchange (last lines; > sent, < received):\n");
    for l in &f.exchange {
        s.push_str(&format!("  {l}\n"));
    }
    s.push('\n');
    Some(s)
}

/// The per-game files, appended to as games finish so that nothing is lost
/// if the runner itself is killed.
pub struct Appender {
    tsv: File,
    pgn: File,
    failures: File,
    engines: Vec<String>,
    event: String,
}

fn create(dir: &Path, name: &str) -> Result<File> {
    let p = dir.join(name);
    File::create(&p).with_context(|| format!("creating {}", p.display()))
}

impl Appender {
    pub fn create(dir: &Path, engines: Vec<String>, event: String) -> Result<Appender> {
        let mut tsv = create(dir, "games.tsv")?;
        writeln!(tsv, "{ARCHIVE_HEADER}")?;
        Ok(Appender {
            tsv,
            pgn: create(dir, "games.pgn")?,
            failures: create(dir, "failures.txt")?,
            engines,
            event,
        })
    }

    pub fn add(&mut self, g: &MatchGame) -> Result<()> {
        let engines = &self.engines;
        let id = |n: &str| engines.iter().position(|e| e == n).map_or(0, |i| i + 1);
        writeln!(self.tsv, "{}", archive_row(g, id, &self.event))?;
        self.pgn.write_all(pgn_entry(g).as_bytes())?;
        if let Some(f) = failure_entry(g) {
            self.failures.write_all(f.as_bytes())?;
        }
        self.tsv.flush()?;
        self.pgn.flush()?;
        self.failures.flush()?;
        Ok(())
    }
}

/// Writes every file of `summary` into `dir`, games in id order.
pub fn write_all(dir: &Path, summary: &Summary) -> Result<()> {
    let names: Vec<String> = summary
        .config
        .engines
        .iter()
        .map(|e| e.name.clone())
        .collect();
    let mut app = Appender::create(dir, names, summary.config.event.clone())?;
    let mut games: Vec<&MatchGame> = summary.games.iter().collect();
    games.sort_by_key(|g| g.id);
    for g in games {
        app.add(g)?;
    }
    write_summary(dir, summary)?;
    let p = dir.join("report.html");
    std::fs::write(&p, super::html::render(summary))
        .with_context(|| format!("writing {}", p.display()))
}

pub fn write_summary(dir: &Path, summary: &Summary) -> Result<()> {
    let p = dir.join("summary.json");
    let tmp = dir.join("summary.json.tmp");
    let mut f = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))?;
    serde_json::to_writer_pretty(&mut f, summary)?;
    f.write_all(b"\n")?;
    drop(f);
    std::fs::rename(&tmp, &p).with_context(|| format!("writing {}", p.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::result::{MoveRecord, Side, Termination};
    use crate::board::record::{parse_archive, replay};

    fn record() -> MatchGame {
        let mv = |label: &str, text: &str| MoveRecord {
            label: label.into(),
            text: text.into(),
            used: Some(0.25),
            reserve: Some(1.0),
        };
        MatchGame {
            id: 7,
            round: 0,
            pairing: 0,
            opening: None,
            gold: "a".into(),
            silver: "b\tc".into(),
            winner: Side::Gold,
            termination: Termination::Illegal,
            detail: "b\tc (silver) illegal move:\n2s `ra8s`".into(),
            moves: vec![
                mv(
                    "1g",
                    "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2",
                ),
                mv(
                    "1s",
                    "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7",
                ),
                mv("2g", "Ed2n Ed3n"),
            ],
            final_label: "2s".into(),
            attempted: Some("ra8s".into()),
            timecontrol: "2s/30s/100/60s/10m".into(),
            start_unix: 1,
            end_unix: 2,
            seconds: 1.0,
            fault: None,
        }
    }

    #[test]
    fn archive_rows_read_back_through_the_archive_parser() {
        let g = record();
        let text = format!("{ARCHIVE_HEADER}\n{}\n", archive_row(&g, |_| 1, "ev"));
        assert_eq!(ARCHIVE_HEADER.split('\t').count(), 29);
        let games = parse_archive(&text).unwrap();
        assert_eq!(games.len(), 1);
        let a = &games[0];
        assert_eq!(a.id(), "7");
        assert_eq!(a.field("result"), "w");
        assert_eq!(a.termination(), 'i');
        assert_eq!(a.field("busername"), "b c");
        assert_eq!(a.field("plycount"), "2");
        assert_eq!(a.field("timecontrol"), "2s/30s/100/60s/10m");
        assert_eq!(a.moves.len(), 3, "the trailing 2s label holds no move");
        let r = replay(&a.moves).unwrap();
        assert!(r.outcome.is_none());
        assert!(a.field("events").contains("refused move 2s [ra8s]"));
    }

    #[test]
    fn pgn_entries_follow_roundrobin() {
        let p = pgn_entry(&record());
        let want_head = "[White \"a\"]\n[Black \"b\tc\"]\n[TimeControl \"2s/30s/100/60s/10m\"]\n[PlyCount \"3\"]\n[ResultCode \"i\"]\n[Result \"1-0\"]\n\n1g ";
        assert!(p.starts_with(want_head), "{p}");
        assert!(p.ends_with("2g Ed2n Ed3n\n2s ra8s\n1-0\n\n"), "{p}");
    }
}
