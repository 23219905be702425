//! The `aamir match` command line: arguments to a match configuration,
//! `aamir match merge` and `aamir match rate`.

use super::output::write_all;
use super::runner::{RunOptions, check, run};
use super::schedule::{Mode, Shard, fingerprint, parse_openings, schedule};
use super::spec::parse_engine_spec;
use super::stats::Sprt;
use super::summary::{FORMAT, MatchConfig, OpeningsInfo, Status, Summary, merge, report};
use crate::timeman::TimeControl;
use crate::{out, outln};
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub action: Option<MatchAction>,
    /// An engine: `name=NAME,cmd=COMMAND[,dir=DIR][,tc=TC][,option.KEY=VALUE]...`
    /// (repeat for each engine; leave out cmd for this aamir binary; `\,`
    /// is a literal comma).
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// `gauntlet` (first engine against each other) or `roundrobin`. A
    /// gauntlet with two or more candidates after the reference compares
    /// them pairwise on the games they played on the same opening with the
    /// same colours: the way to judge a change against a reference engine.
    #[arg(long, default_value = "roundrobin")]
    pub mode: String,
    /// In a gauntlet, the first N engines are references, each playing
    /// every candidate after them.
    #[arg(long, default_value_t = 1)]
    pub references: u32,
    /// Games per pairing; colours alternate [default: 2]. With `--resume`,
    /// a higher count extends the match.
    #[arg(long)]
    pub games: Option<u32>,
    /// Time control (required), arimaa.com form
    /// `move/reserve/percent/max/total/turntime`, e.g. `2s/30s/100/60s/10m`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Decide the game by score once silver has played this move (the
    /// setup is move 1).
    #[arg(long)]
    pub max_turns: Option<u32>,
    /// Seconds an engine may run past its deadline before losing on time.
    #[arg(long, default_value_t = 0.1)]
    pub margin: f64,
    /// Seconds allowed for `aeiok` and for `readyok`.
    #[arg(long, default_value_t = 15.0)]
    pub ready_timeout: f64,
    /// Openings: an arimaa.com archive TSV (its setups) or one movelist per
    /// line; each is played twice, once with each engine as gold.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once [default: 1; with `--resume`, the earlier
    /// run's].
    #[arg(long)]
    pub concurrency: Option<u32>,
    /// Stop when the SPRT of H0 `elo0` against H1 `elo1` decides, e.g.
    /// `--sprt 0 10 0.05 0.05`: with two engines on their score, in a
    /// gauntlet with two candidates on the paired difference between them.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// Play share `i` of `n` of the match (`--shard 2/8`); combine the
    /// shards' summaries with `aamir match merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Directory for games.tsv, games.pgn, failures.txt, summary.json and
    /// report.html.
    #[arg(long, default_value = "match-out")]
    pub out: PathBuf,
    /// Replace a match already in `--out`.
    #[arg(long)]
    pub overwrite: bool,
    /// Continue the stopped match in `--out` (Ctrl-C, a killed runner, a
    /// machine that went down): its settings and finished games come from
    /// its summary.json, and only the games it has not finished are
    /// played; the SPRT counts them all. Only `--games` (to extend it) and
    /// `--concurrency` may be given with it.
    #[arg(long, conflicts_with_all = ["engines", "mode", "references", "tc", "max_turns", "margin", "ready_timeout", "openings", "sprt", "shard", "overwrite", "event"])]
    pub resume: bool,
    /// Event name written into the records.
    #[arg(long, default_value = "aamir match")]
    pub event: String,
}

#[derive(clap::Subcommand, Debug)]
pub enum MatchAction {
    /// Combine the summaries of shards of one match into one match's files.
    Merge {
        /// Directory to write the merged games.tsv, games.pgn,
        /// failures.txt, summary.json and report.html into.
        #[arg(long)]
        out: PathBuf,
        /// Replace files already in `--out`.
        #[arg(long)]
        overwrite: bool,
        /// The shards' summary.json files (or their directories).
        #[arg(required = true)]
        summaries: Vec<PathBuf>,
    },
    /// Place every engine of several matches on one Elo scale (a ladder):
    /// Bradley-Terry fitted to all their games, by engine name.
    Rate {
        /// The engine held at 0 [default: the first engine of the first
        /// match].
        #[arg(long)]
        anchor: Option<String>,
        /// Weight in games of each engine's virtual even result at the
        /// anchor's level, which keeps a clean sweep finite.
        #[arg(long, default_value_t = 1.0)]
        prior: f64,
        /// Print a Markdown table (for docs/strength.md).
        #[arg(long)]
        markdown: bool,
        /// The matches' summary.json files (or their directories).
        #[arg(required = true)]
        summaries: Vec<PathBuf>,
    },
}

/// Runs `aamir match ...`.
pub fn main(args: MatchArgs) -> Result<()> {
    match args.action {
        Some(MatchAction::Merge {
            out,
            overwrite,
            summaries,
        }) => merge_files(&out, overwrite, &summaries),
        Some(MatchAction::Rate {
            anchor,
            prior,
            markdown,
            summaries,
        }) => rate_files(anchor, prior, markdown, &summaries),
        None if args.resume => resume_match(args),
        None => run_match(args),
    }
}

fn run_match(a: MatchArgs) -> Result<()> {
    let exe = std::env::current_exe()
        .context("finding this program's path (for engines without cmd=)")?
        .to_string_lossy()
        .into_owned();
    let self_cmd = vec![exe];
    let engines = a
        .engines
        .iter()
        .map(|s| parse_engine_spec(s, &self_cmd).map_err(|e| anyhow!(e)))
        .collect::<Result<Vec<_>>>()?;
    let mode: Mode = a.mode.parse().map_err(|e: String| anyhow!(e))?;
    let tc =
        a.tc.ok_or_else(|| anyhow!("give a time control with --tc, e.g. --tc 2s/30s/100/60s/10m"))?;
    let parsed = TimeControl::parse(&tc)?;
    if !(a.margin.is_finite() && a.margin >= 0.0) {
        bail!(
            "--margin {} must be a number of seconds, 0 or more",
            a.margin
        );
    }
    if !(a.ready_timeout.is_finite() && a.ready_timeout > 0.0) {
        bail!(
            "--ready-timeout {} must be a positive number of seconds",
            a.ready_timeout
        );
    }
    let games = a.games.unwrap_or(2);
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let sprt = match a.sprt.as_deref() {
        Some([e0, e1, al, be]) => Some(Sprt::new(*e0, *e1, *al, *be).map_err(|e| anyhow!(e))?),
        Some(_) => bail!("--sprt takes four numbers: ELO0 ELO1 ALPHA BETA"),
        None => None,
    };
    let shard: Option<Shard> = a
        .shard
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: String| anyhow!(e))?;
    let (openings, info) = match &a.openings {
        Some(p) => {
            let (o, info) = read_openings(p)?;
            (o, Some(info))
        }
        None => (Vec::new(), None),
    };
    let config = MatchConfig {
        engines,
        mode,
        references: a.references,
        games,
        tc,
        turn_limit: a.max_turns,
        margin: a.margin,
        ready_timeout: a.ready_timeout,
        openings: info,
        sprt,
        event: a.event,
    };
    let concurrency = a.concurrency.unwrap_or(1);
    check(&config, concurrency)?;
    // Warned only once the settings are known to be good: a warning
    // followed by an error about something else buries the error.
    if a.max_turns.is_none() && parsed.total.is_zero() && parsed.turns == 0 {
        // Seen in practice: two engines shuffling in a blocked position
        // for thousands of turns, the rules having no move limit.
        eprintln!(
            "warning: no --max-turns and no game total or turn limit in --tc: \
             a game in a blocked position can go on without end"
        );
    }
    let out = a.out.clone();
    let s = run(RunOptions {
        config,
        openings,
        concurrency,
        shard,
        out: a.out,
        overwrite: a.overwrite,
        resume: None,
    })?;
    finished(&s, &out)
}

/// An interrupted match is a failure, with where its results are and how
/// to go on.
fn finished(s: &Summary, out: &Path) -> Result<()> {
    if s.status == Status::Interrupted {
        bail!(
            "interrupted after {} of {} games; their results are in {} (`aamir match --resume --out {}` plays the rest)",
            s.played,
            s.scheduled,
            out.display(),
            out.display()
        );
    }
    Ok(())
}

/// Reads and checks an openings file.
fn read_openings(p: &Path) -> Result<(Vec<Vec<String>>, OpeningsInfo)> {
    let text =
        std::fs::read_to_string(p).with_context(|| format!("reading openings {}", p.display()))?;
    let o = parse_openings(&text).map_err(|e| anyhow!("openings {}: {e}", p.display()))?;
    let info = OpeningsInfo {
        file: p.display().to_string(),
        count: o.len(),
        fingerprint: fingerprint(&text),
    };
    Ok((o, info))
}

/// `aamir match --resume --out DIR`: plays the games of the match in `DIR`
/// that its earlier run did not finish.
fn resume_match(a: MatchArgs) -> Result<()> {
    let file = a.out.join("summary.json");
    let text = std::fs::read_to_string(&file).with_context(|| {
        format!(
            "--resume: reading {} (the summary of the match to continue)",
            file.display()
        )
    })?;
    let prior: Summary = serde_json::from_str(&text)
        .with_context(|| format!("--resume: {} is not a match summary", file.display()))?;
    if prior.format != FORMAT {
        bail!(
            "--resume: {} has summary format {}, this aamir writes {FORMAT}",
            file.display(),
            prior.format
        );
    }
    if prior.shards.len() > 1 {
        bail!(
            "--resume: {} merges {} shards; resume each shard in its own folder, then merge again",
            file.display(),
            prior.shards.len()
        );
    }
    if prior.status == Status::Sprt {
        bail!(
            "--resume: the SPRT of the match in {} already decided after {} games; there is nothing to continue",
            a.out.display(),
            prior.played
        );
    }
    let mut config = prior.config.clone();
    if let Some(g) = a.games {
        if g < config.games {
            bail!(
                "--resume: --games {g} is below the {} games a pairing the match already has; it can only be extended",
                config.games
            );
        }
        config.games = g;
    }
    let openings = match &config.openings {
        Some(info) => {
            let (o, now) = read_openings(Path::new(&info.file))
                .context("--resume: the match's openings file")?;
            if now.fingerprint != info.fingerprint {
                bail!(
                    "--resume: the openings file {} changed since the match began (fingerprint {} then, {} now); the rest of the schedule would not be the same match",
                    info.file,
                    info.fingerprint,
                    now.fingerprint
                );
            }
            o
        }
        None => Vec::new(),
    };
    let shard = prior.shards.first().copied();
    let pairs = config.pairs();
    let scheduled = schedule(
        &pairs,
        config.games,
        openings.len(),
        shard,
        config.mode == Mode::Gauntlet,
    )
    .len();
    if prior.games.len() >= scheduled {
        bail!(
            "--resume: all {scheduled} games of the match in {} are played; give a higher --games to extend it",
            a.out.display()
        );
    }
    let concurrency = a.concurrency.unwrap_or(prior.concurrency);
    check(&config, concurrency)?;
    eprintln!(
        "resuming: {} of {scheduled} games already played",
        prior.games.len()
    );
    let s = run(RunOptions {
        config,
        openings,
        concurrency,
        shard,
        out: a.out.clone(),
        overwrite: false,
        resume: Some(prior),
    })?;
    finished(&s, &a.out)
}

/// Reads summaries given as files or as their match folders.
fn read_summaries(paths: &[PathBuf]) -> Result<Vec<Summary>> {
    let mut parts = Vec::new();
    for p in paths {
        let file = if p.is_dir() {
            p.join("summary.json")
        } else {
            p.clone()
        };
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        let s: Summary = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a match summary", file.display()))?;
        parts.push(s);
    }
    Ok(parts)
}

fn rate_files(anchor: Option<String>, prior: f64, markdown: bool, paths: &[PathBuf]) -> Result<()> {
    if !(prior.is_finite() && prior >= 0.0) {
        bail!("--prior {prior} must be a number of games, 0 or more");
    }
    let parts = read_summaries(paths)?;
    let anchor = match anchor {
        Some(a) => a,
        None => parts
            .first()
            .and_then(|s| s.config.engines.first())
            .map(|e| e.name.clone())
            .ok_or_else(|| anyhow!("no engines in the first summary"))?,
    };
    let mut results = Vec::new();
    for s in &parts {
        results.extend(super::rate::results(&s.games));
    }
    if results.is_empty() {
        bail!("these summaries hold no finished games");
    }
    let ratings = super::rate::fit(&results, &anchor, prior).map_err(|e| anyhow!(e))?;
    out!("{}", super::rate::table(&ratings, &anchor, markdown))?;
    outln!(
        "{} games from {} match{}; Elo relative to {anchor}",
        results.len(),
        parts.len(),
        if parts.len() == 1 { "" } else { "es" }
    )?;
    Ok(())
}

fn merge_files(out: &PathBuf, overwrite: bool, paths: &[PathBuf]) -> Result<()> {
    let parts = read_summaries(paths)?;
    let first = parts.first().ok_or_else(|| anyhow!("nothing to merge"))?;
    let pairs = first.config.pairs();
    let merged = merge(parts, &pairs).map_err(|e| anyhow!(e))?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    if out.join("summary.json").exists() && !overwrite {
        bail!(
            "{} already holds a match (summary.json); pass --overwrite or choose another --out",
            out.display()
        );
    }
    write_all(out, &merged)?;
    out!("{}", report(&merged))?;
    outln!("merged results in {}", out.display())?;
    Ok(())
}
