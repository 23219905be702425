//! Watching a match that `aamir match --out DIR` is playing: its status
//! (`summary.json`), the standings and finished games (`games.tsv`, read
//! as it grows) and the games in progress (`DIR/live/game-N.txt`, the
//! movelist files the referee rewrites after every move).

use super::files::Roots;
use super::http::ApiError;
use crate::board::Game;
use crate::board::notation::board_string;
use crate::board::record::{parse_archive, record_moves};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Wins and games of one engine.
#[derive(Default)]
struct Standing {
    games: u32,
    wins: u32,
}

/// A live file's game: its players from the comment lines, its moves.
fn live_game(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    let comment = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key} ")))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    // A game whose setup is not written yet has no moves: shown empty.
    let moves = record_moves(&text, None).unwrap_or_default();
    let mut game = Game::new();
    for (_, m) in &moves {
        if game.play(m).is_err() {
            break;
        }
    }
    let b = board_string(game.position());
    Some(json!({
        "path": path.display().to_string(),
        "game": comment("game"),
        "gold": comment("gold"),
        "silver": comment("silver"),
        "label": game.label(),
        "last": moves.last().map(|(l, m)| format!("{l} {m}")),
        "board": &b[1..b.len() - 1],
    }))
}

/// The state of the match in `dir`.
pub fn match_view(roots: &Roots, dir: &str) -> Result<Value, ApiError> {
    let dir = roots.resolve(dir)?;
    if !dir.is_dir() {
        return Err(ApiError::bad(format!("{} is not a folder", dir.display())));
    }
    let summary: Option<Value> = std::fs::read_to_string(dir.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let status = summary
        .as_ref()
        .map(|s| {
            json!({
                "status": s["status"],
                "played": s["played"],
                "scheduled": s["scheduled"],
            })
        })
        .unwrap_or(Value::Null);
    let games_path = dir.join("games.tsv");
    let mut finished = Vec::new();
    let mut standings: BTreeMap<String, Standing> = BTreeMap::new();
    if let Ok(text) = std::fs::read_to_string(&games_path) {
        // The file grows while we read: a half-written last line is
        // dropped rather than failing the whole view.
        let whole = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        let games = parse_archive(whole).unwrap_or_default();
        for g in &games {
            let (gold, silver) = (g.field("wusername"), g.field("busername"));
            let winner = g.winner();
            for (name, color) in [
                (gold, crate::board::Color::Gold),
                (silver, crate::board::Color::Silver),
            ] {
                let s = standings.entry(name.to_string()).or_default();
                s.games += 1;
                s.wins += u32::from(winner == Some(color));
            }
            finished.push(json!({
                "id": g.id(),
                "gold": gold,
                "silver": silver,
                "result": g.field("result"),
                "termination": g.field("termination"),
                "moves": g.moves.len(),
            }));
        }
    }
    let standings: Vec<Value> = standings
        .iter()
        .map(|(name, s)| {
            json!({
                "engine": name,
                "games": s.games,
                "wins": s.wins,
                "score": if s.games > 0 { f64::from(s.wins) / f64::from(s.games) } else { 0.0 },
            })
        })
        .collect();
    let mut live_files: Vec<_> = std::fs::read_dir(dir.join("live"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    live_files.sort();
    let live: Vec<Value> = live_files.iter().filter_map(|p| live_game(p)).collect();
    Ok(json!({
        "dir": dir.display().to_string(),
        "games_tsv": games_path.display().to_string(),
        "summary": status,
        "standings": standings,
        "finished": finished,
        "live": live,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_folder_gives_standings_and_live_games() {
        let dir = std::env::temp_dir().join(format!("aamir-serve-watch-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("live")).unwrap();
        let gold = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
        let silver = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7";
        let tsv = format!(
            "id\twusername\tbusername\tresult\ttermination\tmovelist\n\
             1\tA\tB\tw\tg\t1g {gold}\\n1s {silver}\\n2g Ee2n\n\
             2\tB\tA\tw\tt\t1g {gold}\\n1s {silver}\n\
             3\tA\tB\tb"
        );
        std::fs::write(dir.join("games.tsv"), tsv).unwrap();
        std::fs::write(
            dir.join("live").join("game-4.txt"),
            format!("# game 4\n# gold A\n# silver B\n1g {gold}\n1s {silver}\n2g Ee2n Ee3n\n"),
        )
        .unwrap();
        let roots = Roots::new(std::slice::from_ref(&dir)).unwrap();
        let v = match_view(&roots, &dir.display().to_string()).unwrap();
        assert_eq!(
            v["finished"].as_array().unwrap().len(),
            2,
            "half a line is dropped"
        );
        assert_eq!(v["standings"][0]["engine"], "A");
        assert_eq!(v["standings"][0]["wins"], 1);
        assert_eq!(v["standings"][1]["wins"], 1);
        let live = &v["live"][0];
        assert_eq!(live["gold"], "A");
        assert_eq!(live["label"], "2s");
        assert_eq!(
            live["board"].as_str().unwrap().chars().nth(8 * 4 + 4),
            Some('E')
        );
        assert_eq!(match_view(&roots, "/tmp").unwrap_err().status, 403);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
