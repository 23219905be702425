//! `aamir gen`: training positions from aamir playing itself in-process at a
//! short fixed depth, reproducible from a seed.
//!
//! Each game has its own random stream (the seed and the game's number), so
//! the file is the same whatever the number of threads and whichever thread
//! plays which game. The games differ by their setups (half from the sound
//! family the engine plays, half with the officers shuffled over the front
//! rank and now and then a rabbit brought forward) and by a random choice
//! among the statically best turns for the first few turns. The games go
//! through the rules' [`Judge`], as `aamir match`'s referee plays its
//! games. Games that reach the turn cap are left out: their result would
//! be a guess (the match referee decides them by score instead).
//!
//! The file: `#` comment lines (the settings first), then one line per
//! position at the start of a turn: game number, result for the side to
//! move (1 won, 0 lost), turn number from 0 (the first turn after the
//! setups), and the position as `g [board]`.
//!
//! With `children` above 0, each game's lines are followed by that many
//! more per turn: the position after a random legal turn other than the
//! one played (the opponent to move, numbered as the turn after), with the
//! game's result for its side to move. They are positions a search meets
//! rather than plays into, for a teacher to label: a learned evaluation
//! must score both. They come from a random stream of their own, so the
//! games themselves do not change.

use crate::board::notation::board_string;
use crate::board::record::GameRecord;
use crate::board::{Color, Game, Judge, Kind, Phase, Position, Setup, Turn};
use crate::eval::Evaluator;
use crate::rng::SplitMix;
use crate::search::setup::Layout;
use crate::search::{EngineConfig, Limits, Searcher};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Settings of a generator run; everything that changes the file.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub seed: u64,
    pub games: usize,
    /// Search depth in steps for every turn.
    pub depth: u32,
    /// Games longer than this many turns (both sides counted) are dropped.
    pub max_turns: u32,
    /// The first this many turns pick at random among the best by a static
    /// look...
    pub random_turns: u32,
    /// ...this many of them.
    pub random_top: usize,
    /// Transposition table per game, MB.
    pub hash_mb: usize,
    /// Positions after random other turns written per turn played.
    pub children: usize,
}

impl GenOptions {
    /// The engine's settings for every game: defaults, one thread, the
    /// run's table size.
    pub fn engine(&self) -> EngineConfig {
        let mut c = EngineConfig::default();
        c.engine.hash = self.hash_mb.max(1);
        c.engine.threads = 1;
        c
    }

    /// The settings as the command line that gives them.
    pub fn command(&self) -> String {
        let mut c = format!(
            "aamir gen --seed {} --games {} --depth {} --max-turns {} --random-turns {} --random-top {} --hash {}",
            self.seed,
            self.games,
            self.depth,
            self.max_turns,
            self.random_turns,
            self.random_top,
            self.hash_mb
        );
        if self.children > 0 {
            c.push_str(&format!(" --children {}", self.children));
        }
        c
    }
}

/// A position off the game's path: the position after a random legal
/// turn at turn `turn`, other than the one played.
#[derive(Clone, Debug)]
pub struct Child {
    pub turn: u32,
    pub pos: Position,
}

/// The file lines of game `id` of a run (none for a game dropped at the
/// turn cap, which has no result): one per turn played, from the position
/// before it, then one per child.
pub fn lines(id: usize, game: &GameRecord, children: &[Child]) -> String {
    let Some(w) = game.winner() else {
        return String::new();
    };
    let mut s = String::new();
    let mut line = |turn: u32, pos: &Position| {
        let side = pos.side();
        s.push_str(&format!(
            "{}\t{}\t{}\t{} {}\n",
            id,
            u8::from(side == w),
            turn,
            side.to_char(),
            board_string(pos)
        ));
    };
    for m in game.positions().map_while(Result::ok) {
        if let Some(turn) = m.turn_index {
            line(turn, &m.before);
        }
    }
    for c in children {
        line(c.turn + 1, &c.pos);
    }
    s
}

/// Up to `k` positions after distinct random legal turns of `game` other
/// than `played`, for the position at turn `turn`.
fn children_of(game: &Game, played: &Turn, turn: u32, k: usize, rng: &mut SplitMix) -> Vec<Child> {
    let pos = game.position();
    let mut turns: Vec<Turn> = game
        .legal_turns()
        .into_iter()
        .filter(|t| t.hash != played.hash)
        .collect();
    let mut out = Vec::with_capacity(k.min(turns.len()));
    while out.len() < k && !turns.is_empty() {
        let t = turns.swap_remove(rng.below(turns.len()));
        out.push(Child {
            turn,
            pos: t.apply(pos),
        });
    }
    out
}

/// A setup for `color`: a sound layout, or the officers shuffled over the
/// front rank with sometimes one or two rabbits traded forward for a cat or
/// dog.
pub fn random_setup(rng: &mut SplitMix, color: Color) -> Setup {
    if rng.below(2) == 0 {
        let all = Layout::all();
        return Setup::new(color, all[rng.below(all.len())].placements(color));
    }
    use Kind::*;
    let mut front = [Elephant, Camel, Horse, Horse, Dog, Dog, Cat, Cat];
    for i in (1..front.len()).rev() {
        front.swap(i, rng.below(i + 1));
    }
    let mut back = [Rabbit; 8];
    if rng.below(4) == 0 {
        for _ in 0..1 + rng.below(2) {
            let small: Vec<usize> = (0..8).filter(|&f| matches!(front[f], Cat | Dog)).collect();
            let f = small[rng.below(small.len())];
            let b = rng.below(8);
            std::mem::swap(&mut front[f], &mut back[b]);
        }
    }
    Setup::from_ranks(color, front, back)
}

/// Plays game `id` of a run with `searcher` (cleared first, so a game does
/// not depend on the ones the thread played before).
pub fn play_game(
    opts: &GenOptions,
    id: usize,
    searcher: &mut Searcher,
) -> Result<(GameRecord, Vec<Child>)> {
    let mut rng = SplitMix::new(opts.seed, id as u64);
    // The children's own stream: drawing them leaves the game unchanged.
    let mut child_rng = SplitMix::new(opts.seed ^ CHILD_STREAM, id as u64);
    let mut children = Vec::new();
    // The game goes through the rules' judge, as `aamir match`'s referee
    // plays its games; a game capped by its turns is dropped here rather
    // than decided by score.
    let mut judge = Judge::new();
    for color in [Color::Gold, Color::Silver] {
        let setup = random_setup(&mut rng, color).notation();
        judge
            .play(&setup)
            .with_context(|| format!("game {id}: generated setup {setup}"))?;
    }
    searcher.new_game();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(opts.depth),
        ..Limits::default()
    };
    let eval = Evaluator::default();
    let mut turn = 0u32;
    while judge.game().outcome().is_none() {
        let game = judge.game();
        if turn >= opts.max_turns {
            return Ok((record(game), children));
        }
        debug_assert_eq!(game.phase(), Phase::Play);
        let pos = game.position().clone();
        let chosen = if turn < opts.random_turns && opts.random_top > 1 {
            let mut turns = game.legal_turns();
            if turns.is_empty() {
                bail!("game {id}: no legal turn at {}", game.label());
            }
            let mut scored: Vec<(i32, usize)> = turns
                .iter()
                .enumerate()
                .map(|(i, t)| (-eval.evaluate(&t.apply(&pos)), i))
                .collect();
            // Best first; equal scores in generation order (deterministic).
            scored.sort_by_key(|&(s, i)| (-s, i));
            let pick = scored[rng.below(opts.random_top.min(scored.len()))].1;
            turns.swap_remove(pick)
        } else {
            let Some(r) = searcher.search(game, &limits, &stop, &mut |_| {}) else {
                bail!("game {id}: no move at {}", game.label());
            };
            r.best
        };
        if opts.children > 0 {
            children.extend(children_of(
                game,
                &chosen,
                turn,
                opts.children,
                &mut child_rng,
            ));
        }
        judge
            .play_turn(&chosen)
            .with_context(|| format!("game {id}: the engine played an illegal {chosen:?}"))?;
        turn += 1;
    }
    Ok((record(judge.game()), children))
}

/// Set apart from the games' streams (any constant would do).
const CHILD_STREAM: u64 = 0xC41D_C41D_C41D_C41D;

/// The record of a generated game: its moves, and its winner in the
/// `result` column when the rules ended it.
fn record(game: &Game) -> GameRecord {
    let mut r = GameRecord::from_moves(
        game.record()
            .iter()
            .map(|p| (p.label.clone(), p.notation.clone()))
            .collect(),
    );
    if let Some(o) = game.outcome() {
        r.fields
            .insert("result".into(), o.winner.to_char().to_string());
    }
    r
}

/// What a run made.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    pub games: usize,
    /// Games dropped at the turn cap.
    pub dropped: usize,
    pub positions: usize,
    pub seconds: f64,
}

/// Plays the run's games on `threads` threads (one game per thread at a
/// time) and writes them to `out` in game order.
pub fn generate(
    opts: &GenOptions,
    threads: usize,
    out: &mut dyn Write,
    progress: bool,
) -> Result<GenStats> {
    if opts.depth == 0 || opts.games == 0 {
        bail!("--depth and --games must be at least 1");
    }
    let t0 = Instant::now();
    writeln!(out, "# {}", opts.command())?;
    writeln!(out, "# game\tresult\tturn\tposition")?;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<(GameRecord, Vec<Child>)>)>();
    let mut stats = GenStats::default();
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, failed) = (&next, &failed);
            s.spawn(move || {
                let mut searcher = Searcher::new(&opts.engine());
                loop {
                    let id = next.fetch_add(1, Ordering::Relaxed);
                    if id >= opts.games || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let r = play_game(opts, id, &mut searcher);
                    if r.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    if tx.send((id, r)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; each is written once all before it are.
        let mut waiting: BTreeMap<usize, (GameRecord, Vec<Child>)> = BTreeMap::new();
        let mut written = 0usize;
        for (id, r) in rx {
            waiting.insert(id, r?);
            while let Some((g, children)) = waiting.remove(&written) {
                let text = lines(written, &g, &children);
                out.write_all(text.as_bytes())?;
                stats.games += 1;
                if g.winner().is_none() {
                    stats.dropped += 1;
                } else {
                    stats.positions += text.lines().count();
                }
                written += 1;
                if progress && written.is_multiple_of(100) {
                    let secs = t0.elapsed().as_secs_f64();
                    eprintln!(
                        "{written} games, {} positions, {:.2} games/s, {:.0} positions/s",
                        stats.positions,
                        written as f64 / secs,
                        stats.positions as f64 / secs
                    );
                }
            }
        }
        Ok(())
    })?;
    out.flush()?;
    stats.seconds = t0.elapsed().as_secs_f64();
    Ok(stats)
}

/// `aamir gen --records`: the positions of recorded games (archives and
/// `aamir match` records, replayed through the rules by
/// [`super::data::read_all`]) in the generator's format, each followed by
/// `children` positions after random legal turns from it. Positions of
/// games that matter (Sharp's own, aamir's against Sharp, people's) are
/// ones self-play never reaches. Each position's children come from a
/// random stream of its own (the seed and the position's place in the
/// files), so the file is the same whatever the threads.
pub fn from_records(
    files: &[String],
    children: usize,
    seed: u64,
    threads: usize,
    out: &mut dyn Write,
) -> Result<GenStats> {
    let t0 = Instant::now();
    let raw = super::data::read_all(files)?;
    writeln!(
        out,
        "# aamir gen --records {} --children {children} --seed {seed}",
        files.join(" ")
    )?;
    writeln!(out, "# game\tresult\tturn\tposition")?;
    let indexed: Vec<(usize, &super::data::Raw)> = raw.iter().enumerate().collect();
    let kids = super::data::par_map(&indexed, threads, |&(i, r)| {
        if children == 0 {
            return Vec::new();
        }
        let game = Game::from_position(r.sample.pos.clone(), r.turn / 2 + 2);
        let mut turns = game.legal_turns();
        let mut rng = SplitMix::new(seed, CHILD_STREAM ^ i as u64);
        let mut picked = Vec::with_capacity(children.min(turns.len()));
        while picked.len() < children && !turns.is_empty() {
            let t = turns.swap_remove(rng.below(turns.len()));
            picked.push(t.apply(game.position()));
        }
        picked
    });
    let mut stats = GenStats::default();
    let mut games = std::collections::HashSet::new();
    for (r, kids) in raw.iter().zip(&kids) {
        games.insert(r.game.as_str());
        // The file's own game column must not hold the separator.
        let id = r.game.replace(['\t', ' '], "_");
        let won = r.sample.result > 0.5;
        let mut line = |turn: u32, pos: &Position, won: bool| -> Result<()> {
            stats.positions += 1;
            writeln!(
                out,
                "{id}\t{}\t{turn}\t{} {}",
                u8::from(won),
                pos.side().to_char(),
                board_string(pos)
            )?;
            Ok(())
        };
        line(r.turn, &r.sample.pos, won)?;
        for k in kids {
            line(r.turn + 1, k, !won)?;
        }
    }
    out.flush()?;
    stats.games = games.len();
    stats.seconds = t0.elapsed().as_secs_f64();
    Ok(stats)
}

/// `aamir gen --records`: writes the file to `path` and prints its size.
pub fn run_records(
    files: &[String],
    children: usize,
    seed: u64,
    threads: usize,
    path: &str,
) -> Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {path}"))?;
    let mut out = std::io::BufWriter::new(file);
    let st = from_records(files, children, seed, threads, &mut out)?;
    crate::outln!(
        "{} games, {} positions in {:.1}s ({:.0} positions/s, {} threads)",
        st.games,
        st.positions,
        st.seconds,
        st.positions as f64 / st.seconds,
        threads
    )?;
    Ok(())
}

/// `aamir gen`: writes the run to `path` and prints its speed.
pub fn run(opts: &GenOptions, threads: usize, path: &str) -> Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {path}"))?;
    let mut out = std::io::BufWriter::new(file);
    let st = generate(opts, threads, &mut out, true)?;
    crate::outln!(
        "{} games ({} dropped at {} turns), {} positions in {:.1}s: {:.2} games/s, {:.0} positions/s, {} threads",
        st.games,
        st.dropped,
        opts.max_turns,
        st.positions,
        st.seconds,
        st.games as f64 / st.seconds,
        st.positions as f64 / st.seconds,
        threads
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(seed: u64) -> GenOptions {
        GenOptions {
            seed,
            games: 2,
            depth: 2,
            max_turns: 200,
            random_turns: 4,
            random_top: 4,
            hash_mb: 1,
            children: 0,
        }
    }

    fn text(opts: &GenOptions, threads: usize) -> String {
        let mut out = Vec::new();
        generate(opts, threads, &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn same_seed_same_file_whatever_the_threads() {
        let a = text(&tiny(5), 1);
        let b = text(&tiny(5), 2);
        assert_eq!(a, b);
        assert!(a.lines().filter(|l| !l.starts_with('#')).count() > 0);
        assert_ne!(a, text(&tiny(6), 2), "another seed, another file");
    }

    #[test]
    fn setups_are_legal_and_varied() {
        let mut rng = SplitMix::new(3, 0);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let mut g = Game::new();
            for c in [Color::Gold, Color::Silver] {
                let s = random_setup(&mut rng, c).notation();
                g.play(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
                seen.insert(s);
            }
            assert_eq!(g.position().occupied().count(), 32);
        }
        assert!(seen.len() > 150, "only {} distinct setups", seen.len());
    }

    #[test]
    fn lines_label_the_winner_and_the_loser() {
        let opts = tiny(11);
        let mut s = Searcher::new(&opts.engine());
        let (g, children) = play_game(&opts, 0, &mut s).unwrap();
        assert!(children.is_empty());
        assert!(g.winner().is_some(), "game 0 ends within 200 turns");
        let lines = lines(0, &g, &children);
        let positions: Vec<Position> = g
            .positions()
            .map(|m| m.unwrap())
            .filter(|m| m.turn_index.is_some())
            .map(|m| m.before)
            .collect();
        for (line, pos) in lines.lines().zip(&positions) {
            let cols: Vec<&str> = line.split('\t').collect();
            let won = pos.side() == g.winner().unwrap();
            assert_eq!(cols[1], if won { "1" } else { "0" }, "{line}");
        }
        assert_eq!(lines.lines().count(), positions.len());
    }

    #[test]
    fn records_give_their_positions_and_children_of_each() {
        // Two games of the archive, cut short: their positions in order,
        // each followed by its children, the same whatever the threads.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/games-2026-02.tsv"
        ))
        .unwrap();
        let dir = std::env::temp_dir().join(format!("aamir-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("two.tsv");
        // The header and the first game, its move list cut to the setups
        // and six turns (every position's turns are enumerated).
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let movelist = header.split('\t').position(|c| c == "movelist").unwrap();
        let mut game: Vec<String> = lines
            .next()
            .unwrap()
            .split('\t')
            .map(String::from)
            .collect();
        let moves: Vec<&str> = game[movelist].split("\\n").take(8).collect();
        game[movelist] = moves.join("\\n");
        std::fs::write(&path, format!("{header}\n{}\n", game.join("\t"))).unwrap();
        let files = vec![path.to_string_lossy().to_string()];
        let make = |children: usize, threads: usize| -> String {
            let mut out = Vec::new();
            from_records(&files, children, 7, threads, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let plain = make(0, 1);
        let with = make(2, 2);
        assert_eq!(with, make(2, 1), "the same file whatever the threads");
        let body = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        };
        let (a, b) = (body(&plain), body(&with));
        let raw = super::super::data::read_all(&files).unwrap();
        assert_eq!(raw.len(), 6, "the six turns after the setups");
        assert_eq!(a.len(), raw.len());
        assert_eq!(b.len(), 3 * a.len());
        for (i, l) in a.iter().enumerate() {
            assert_eq!(&b[3 * i], l, "each recorded position before its children");
            let cols: Vec<&str> = l.split('\t').collect();
            let pos = crate::board::notation::parse_side_and_board(cols[3]).unwrap();
            assert_eq!(pos.hash(), raw[i].sample.pos.hash());
            let parent = Game::from_position(pos, 2);
            let reachable: std::collections::HashSet<u64> = parent
                .legal_turns()
                .iter()
                .map(|t| t.apply(parent.position()).hash())
                .collect();
            for c in &b[3 * i + 1..3 * i + 3] {
                let cc: Vec<&str> = c.split('\t').collect();
                let child = crate::board::notation::parse_side_and_board(cc[3]).unwrap();
                assert!(reachable.contains(&child.hash()), "{c} after {l}");
                assert_ne!(cc[1], cols[1], "a child's result is the other side's");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn children_add_positions_off_the_path_and_leave_the_games_alone() {
        let plain = text(&tiny(5), 2);
        let with = GenOptions {
            children: 3,
            ..tiny(5)
        };
        let more = text(&with, 2);
        let body = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        };
        let (a, b) = (body(&plain), body(&more));
        // Every line of the plain file is there, in order, each game's
        // lines before its children: the games did not change.
        let played: Vec<&String> = b.iter().filter(|l| a.contains(l)).collect();
        assert_eq!(played.len(), a.len());
        // Three children per turn played (every position has more than
        // three other legal turns here).
        assert_eq!(b.len(), 4 * a.len());
        assert!(more.lines().next().unwrap().ends_with("--children 3"));
        // A child is the opponent to move, numbered as the turn after its
        // parent, and a legal position.
        for l in b.iter().filter(|l| !a.contains(l)) {
            let cols: Vec<&str> = l.split('\t').collect();
            let pos = crate::board::notation::parse_side_and_board(cols[3]).unwrap();
            let turn: u32 = cols[2].parse().unwrap();
            let gold_to_move = turn.is_multiple_of(2);
            assert_eq!(pos.side() == Color::Gold, gold_to_move, "{l}");
        }
        assert_eq!(more, text(&with, 1), "the same file whatever the threads");
    }
}
