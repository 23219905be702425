//! The command line of the tuners: `gen`, `tune`, `tune-order`,
//! `tune-moves` and `auc`, their clap arguments and how each becomes a
//! call into its module.

use super::{auc, data, datagen, fit, label, moves, order, pack, terms, train};
use crate::eval::{Evaluator, Weights};
use crate::search::EngineOptions;
use crate::search::order_weights::ORDER_WEIGHTS;
use crate::search::ordering::N_FEATURES;
use crate::settings::{Table, flag_check};
use anyhow::{Context, Result};

/// The weights a fit of the evaluation starts from and may move
/// (`tune`, `tune-moves`).
#[derive(clap::Args)]
pub struct WeightArgs {
    /// Start from these weights instead of the defaults
    /// (`NAME=value,...`, names as `aamir params` lists them without
    /// `eval_`: `tempo=5`): a weight that is 0 by default starts with a
    /// step of 1, too small to leave 0 on a noisy loss.
    #[arg(long, default_value = "")]
    start: String,
    /// Weights left at their start values: names without `eval_`
    /// separated by commas, a name ending in `*` standing for every
    /// weight it begins (`rabbit_rank_*`).
    #[arg(long, default_value = "")]
    freeze: String,
    /// A weight the fit moves stays within plus or minus this. A rarely
    /// seen term can run far on a loss it barely moves, and the search
    /// then meets it in positions the data hardly had.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(i32).range(1..=10_000))]
    bound: i32,
}

/// The tuners' subcommands.
#[derive(clap::Subcommand)]
pub enum TuneCommand {
    /// Training positions for `aamir tune`: aamir plays itself at a fixed
    /// depth from varied setups; the same seed and settings give the same
    /// file.
    Gen {
        /// Seed of the setups and the random opening turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Search depth in steps.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Games still running after this many turns are dropped.
        #[arg(long, default_value_t = 200)]
        max_turns: u32,
        /// Random turns at the start of each game (among the best by a
        /// static look)...
        #[arg(long, default_value_t = 4)]
        random_turns: u32,
        /// ...chosen among this many.
        #[arg(long, default_value_t = 6, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
        random_top: usize,
        /// Transposition table per game thread, MB (16 by default here: one
        /// table per game played at once); the same limits as the engine's
        /// `hash` option.
        #[arg(long, default_value = "16", value_parser = flag_check::<EngineOptions>("hash"))]
        hash: String,
        /// Positions after random other legal turns written per turn
        /// played (the opponent to move), for a teacher to label; the
        /// games stay the same.
        #[arg(long, default_value_t = 0, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1000))]
        children: usize,
        /// Games played at once (one thread each); does not change the file.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Instead of playing: the positions of these recorded games
        /// (archives, `games.tsv` of `aamir match`), each with
        /// `--children` more after random legal turns from it.
        #[arg(long, num_args = 1..)]
        records: Vec<String>,
        /// The file to write.
        #[arg(long)]
        out: String,
    },
    /// Fit the evaluation weights to game results (Texel's method) and
    /// write them as the Rust table the defaults are built from.
    Tune {
        /// Position files from `aamir gen`, archives (`tests/data/*.tsv`)
        /// or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Positions of the first this many turns of each game are left out.
        #[arg(long, default_value_t = 8)]
        skip_turns: u32,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=90))]
        test_pct: u64,
        /// Use this k of sigmoid(k * eval) instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Passes over all weights at most.
        #[arg(long, default_value_t = 30)]
        max_passes: usize,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Write the fitted weights here as a Rust table.
        #[arg(long)]
        out: Option<String>,
        #[command(flatten)]
        weights: WeightArgs,
        /// Label each position with `sigmoid(k * score)` of a search this
        /// many steps deep (k fitted to the results first) instead of its
        /// game's result: the static score learns what the search finds
        /// there (0 = the results).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=16))]
        label_depth: u32,
        /// With --label-depth: percent of each label left to the game result.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
        label_result_pct: u32,
        /// With --label-depth: a file of search scores kept between runs;
        /// positions it has at this depth are not searched again, and new
        /// scores are added to it.
        #[arg(long)]
        label_cache: Option<String>,
    },
    /// Fit the turn-ordering model to the turns winners played (archives
    /// or `games.tsv` of `aamir match`), report how it ranks the played
    /// turn on held-out games, and write its weights as a Rust table
    #[command(name = "tune-order")]
    TuneOrder {
        /// Archives (`tests/data/*.tsv`) or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Other legal turns sampled per training position.
        #[arg(long, default_value_t = 127, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
        negatives: usize,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=90))]
        test_pct: u64,
        /// Seed of the sampled turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Gradient steps of the fit.
        #[arg(long, default_value_t = 300)]
        iterations: usize,
        /// Held-out positions ranked among all their legal turns, at most.
        #[arg(long, default_value_t = 400)]
        rank_positions: usize,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Start from the static score alone instead of the checked-in
        /// weights.
        #[arg(long)]
        from_static: bool,
        /// Write the fitted weights here as a Rust table
        /// (`src/search/order_weights.rs`).
        #[arg(long)]
        out: Option<String>,
    },
    /// Fit the evaluation weights to the turns winners played (archives
    /// or `games.tsv` of `aamir match`): the board after the played turn
    /// against the boards after the turns the weights like best and a
    /// sample of the rest, in a softmax of the static score; report how the
    /// played turn ranks on held-out games and write the weights as a Rust
    /// table.
    #[command(name = "tune-moves")]
    TuneMoves {
        /// Archives (`tests/data/*.tsv`) or `games.tsv` of `aamir match`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Best-scored other turns each played turn competes with.
        #[arg(long, default_value_t = 24, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
        hard: usize,
        /// Other turns drawn at random besides.
        #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=10_000))]
        random: usize,
        /// Rounds of choosing the competitors with the current weights and
        /// fitting.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100))]
        rounds: usize,
        /// Each position's loss counts up to this many nats (0 = no cap):
        /// a played turn far behind by the static score (a sacrifice, a
        /// deep plan) then stops steering the fit.
        #[arg(long, default_value_t = 0.0)]
        cap: f64,
        /// Passes over all weights at most, each round.
        #[arg(long, default_value_t = 4)]
        max_passes: usize,
        /// Positions of the first this many turns of each game are left out.
        #[arg(long, default_value_t = 2)]
        skip_turns: u32,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=90))]
        test_pct: u64,
        /// Seed of the sampled turns.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Use this k of the softmax instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Held-out positions ranked among all their legal turns, at most.
        #[arg(long, default_value_t = 400)]
        rank_positions: usize,
        #[command(flatten)]
        weights: WeightArgs,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Write the fitted weights here as a Rust table.
        #[arg(long)]
        out: Option<String>,
    },
    /// How much of a teacher's judgement the evaluation's terms can
    /// express: the teacher's scores (one per position of FILES, as
    /// `scripts/nnue_data.sh` makes them) read as winning chances, fitted
    /// by aamir's score with one scale and by its terms with a weight
    /// each; the losses on held-out games.
    #[command(name = "tune-terms")]
    TuneTerms {
        /// Generator files or archives, the positions in the order the
        /// scores follow.
        #[arg(required = true)]
        files: Vec<String>,
        /// The teacher's score of each position for the side to move, one
        /// a line (the last number on each line counts).
        #[arg(long)]
        scores: String,
        /// Percentage of the games held out (by a hash of the game's name).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=90))]
        test_pct: u64,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
    },
    /// Labelled positions into the compact file `aamir train` reads:
    /// generator files or archives with a teacher's score of each
    /// position, repeats dropped, each marked quiet or not (32 bytes a
    /// position).
    Pack {
        /// Generator files or archives, the positions in the order the
        /// scores follow.
        #[arg(required = true)]
        files: Vec<String>,
        /// The teacher's score of each position for the side to move, one
        /// a line (the last number on each line counts).
        #[arg(long)]
        scores: String,
        /// The packed file to write.
        #[arg(long)]
        out: String,
        /// Threads (for the quiet test).
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
    },
    /// A teacher's score of every position of generator files or
    /// archives from aamir's own search at a fixed depth, one a line in
    /// the files' order, for `aamir pack --scores`: the labels any
    /// machine can make again without another engine.
    Label {
        /// Generator files or archives.
        #[arg(required = true)]
        files: Vec<String>,
        /// Search depth in steps.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Transposition table per thread, MB (cleared for every
        /// position).
        #[arg(long, default_value_t = 8, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
        hash: usize,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// The scores file to write.
        #[arg(long)]
        out: String,
    },
    /// Fits the learned evaluation to packed positions (`aamir pack`) and
    /// writes the integer net file, keeping the epoch with the lowest
    /// held-out loss.
    Train {
        /// Packed position files.
        #[arg(required = true)]
        files: Vec<String>,
        /// The net file to write.
        #[arg(long)]
        out: String,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
        epochs: u64,
        /// Positions per gradient step.
        #[arg(long, default_value_t = 8192, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        batch: u64,
        /// Adam's learning rate at the start (it decays to a twentieth).
        #[arg(long, default_value_t = 0.002)]
        lr: f32,
        /// Percentage of the games held out (by a hash of the game's name,
        /// as `tune-terms` splits them).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=90))]
        test_pct: u8,
        /// Percent of each target that is the game's result rather than
        /// the teacher.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
        result_pct: u32,
        /// Train and grade on quiet positions only.
        #[arg(long)]
        quiet: bool,
        /// Centi-rabbits per unit of the net's logit: 760 puts the net's
        /// scores on the hand evaluation's scale (its fit to the teacher's
        /// chances, `tune-terms`, is 0.1318 per rabbit).
        #[arg(long, default_value_t = 760.0)]
        scale: f32,
        /// Seed of the initial weights and the order of the positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=512))]
        threads: usize,
        /// Train on at most this many positions (0: all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// Train the first layer factorised: each piece also feeds a row
        /// shared by all squares of its owner and class, folded into the
        /// square rows when the net is written.
        #[arg(long)]
        factor: bool,
        /// Train nothing: grade this net file on the held-out positions
        /// (the same split and targets as training would use).
        #[arg(long)]
        grade: Option<String>,
        /// Train a residual: the net's score is added to the hand-weighted
        /// terms' (default weights), and it learns what they miss.
        #[arg(long)]
        residual: bool,
    },
    /// How well the static evaluation sees who wins: over the early
    /// positions of finished games, the area under the ROC curve (AUC) of
    /// the side to move's score as a prediction that it wins (0.5 blind,
    /// 1 perfect), by bands of ten plies.
    Auc {
        /// Archives (`tests/data/*.tsv`), `games.tsv` of `aamir match` or
        /// generator files of `aamir gen`.
        #[arg(required = true)]
        files: Vec<String>,
        /// Grade the positions of the first this many plies (turns of
        /// either side after the setups).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
        plies: u32,
        /// Weights to change, `NAME=value,...` (names as `aamir params`
        /// lists them without `eval_`).
        #[arg(long, default_value = "")]
        weights: String,
        /// Write the graded positions to this file, one entry per
        /// position between `;` lines: the move (`7s`) and the eight ranks
        /// from 8 to 1 (`.` empty), for another evaluator to score.
        #[arg(long)]
        posfile: Option<String>,
        /// Another evaluator's scores of the same positions for the side
        /// to move, one a line in the order `--posfile` wrote them (the
        /// last number on each line counts): graded beside aamir's.
        #[arg(long)]
        scores: Option<String>,
        /// Grade the learned evaluation instead of the hand-weighted
        /// terms: `builtin` for the net in the binary, or a net file.
        #[arg(long)]
        net: Option<String>,
    },
}

/// Runs a tuner's subcommand.
pub fn run(command: TuneCommand) -> Result<()> {
    match command {
        TuneCommand::TuneTerms {
            files,
            scores,
            test_pct,
            threads,
        } => terms::run(&terms::TermsOptions {
            files,
            scores,
            test_pct,
            threads,
        }),
        TuneCommand::Label {
            files,
            depth,
            hash,
            threads,
            out,
        } => label::run_scores(&files, depth, hash, threads, &out),
        TuneCommand::Pack {
            files,
            scores,
            out,
            threads,
        } => pack::run(&pack::PackOptions {
            files,
            scores,
            out,
            threads,
        }),
        TuneCommand::Train {
            files,
            out,
            epochs,
            batch,
            lr,
            test_pct,
            result_pct,
            quiet,
            scale,
            seed,
            threads,
            limit,
            factor,
            grade,
            residual,
        } => train::run(&train::TrainOptions {
            files,
            out,
            epochs: epochs as usize,
            batch: batch as usize,
            lr,
            test_pct,
            result_pct,
            quiet,
            scale,
            seed,
            threads,
            limit,
            factor,
            grade,
            residual,
        }),
        TuneCommand::Auc {
            files,
            plies,
            weights,
            posfile,
            scores,
            net,
        } => {
            let net = match net.as_deref() {
                None => None,
                Some("builtin") => Some(crate::eval::nnue::Network::embedded()),
                Some(path) => Some(std::sync::Arc::new(crate::eval::nnue::file::load(path)?)),
            };
            let mut w = Weights::default();
            crate::settings::apply(&weights, |n, v| Table::set_named(&mut w, n, v))
                .with_context(|| format!("--weights {weights}"))?;
            let opts = auc::AucOptions {
                files,
                plies,
                posfile,
                scores,
            };
            auc::run(&opts, &Evaluator { w, net })
        }
        TuneCommand::Gen {
            seed,
            games,
            depth,
            max_turns,
            random_turns,
            random_top,
            hash,
            children,
            threads,
            records,
            out,
        } => {
            if !records.is_empty() {
                return datagen::run_records(&records, children, seed, threads, &out);
            }
            let opts = datagen::GenOptions {
                seed,
                games,
                depth,
                max_turns,
                random_turns,
                random_top,
                // Checked by the `hash` setting's own parser above.
                hash_mb: hash.trim().parse()?,
                children,
            };
            datagen::run(&opts, threads, &out)
        }
        TuneCommand::Tune {
            files,
            skip_turns,
            test_pct,
            k,
            max_passes,
            threads,
            out,
            weights,
            label_depth,
            label_result_pct,
            label_cache,
        } => {
            let w = weights.start(k)?;
            let sel = data::Selection {
                skip_turns,
                test_pct,
                threads,
            };
            // Checked before the data, which takes a while to read.
            let frozen = weights.frozen()?;
            let data = data::load(&files, &sel)?;
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = fit::TuneOptions {
                fit: fit::FitOptions {
                    max_passes,
                    threads,
                    bound: weights.bound,
                    frozen,
                },
                k,
                out,
                command: format!("aamir {}", args.join(" ")),
                label: (label_depth > 0).then_some(label::LabelOptions {
                    depth: label_depth,
                    result_pct: label_result_pct,
                    hash_mb: 4,
                    cache: label_cache,
                }),
            };
            let start = Evaluator { w, net: None };
            fit::run(start, &data, &files, &opts).map(|_| ())
        }
        TuneCommand::TuneOrder {
            files,
            negatives,
            test_pct,
            seed,
            iterations,
            rank_positions,
            threads,
            from_static,
            out,
        } => {
            let start = if from_static {
                let mut w = [0f32; N_FEATURES];
                w[0] = 1.0;
                w
            } else {
                ORDER_WEIGHTS
            };
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = order::OrderOptions {
                negatives,
                test_pct,
                seed,
                threads,
                iterations,
                rank_positions,
                out,
                command: format!("aamir {}", args.join(" ")),
            };
            order::run(&files, start, &opts).map(|_| ())
        }
        TuneCommand::TuneMoves {
            files,
            hard,
            random,
            rounds,
            cap,
            max_passes,
            skip_turns,
            test_pct,
            seed,
            k,
            rank_positions,
            weights,
            threads,
            out,
        } => {
            let w = weights.start(k)?;
            anyhow::ensure!(
                cap.is_finite() && cap >= 0.0,
                "--cap {cap}: give a number of nats, 0 or more"
            );
            let frozen = weights.frozen()?;
            let args: Vec<String> = std::env::args().skip(1).collect();
            let opts = moves::MoveOptions {
                fit: fit::FitOptions {
                    max_passes,
                    threads,
                    bound: weights.bound,
                    frozen,
                },
                hard,
                random,
                rounds,
                cap,
                skip_turns,
                test_pct,
                seed,
                k,
                rank_positions,
                out,
                command: format!("aamir {}", args.join(" ")),
            };
            let start = Evaluator { w, net: None };
            moves::run(start, &files, &opts).map(|_| ())
        }
    }
}

impl WeightArgs {
    /// The weights a fit starts from (`--start name=value,...` over the
    /// defaults), after checking `--k` when one is given.
    fn start(&self, k: Option<f64>) -> Result<Weights> {
        let mut w = Weights::default();
        crate::settings::apply(&self.start, |n, v| Table::set_named(&mut w, n, v))
            .with_context(|| format!("--start {}", self.start))?;
        if let Some(k) = k {
            anyhow::ensure!(k.is_finite() && k > 0.0, "--k {k}: give a number above 0");
        }
        Ok(w)
    }

    /// The flat indices of the weights `--freeze` names (`a,b,prefix*`).
    fn frozen(&self) -> Result<Vec<usize>> {
        let names: Vec<String> = (0..Weights::len()).filter_map(Weights::name).collect();
        let mut out = Vec::new();
        for part in self
            .freeze
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let hits: Vec<usize> = match part.strip_suffix('*') {
                Some(prefix) => (0..names.len())
                    .filter(|&i| names[i].starts_with(prefix))
                    .collect(),
                None => (0..names.len()).filter(|&i| names[i] == part).collect(),
            };
            anyhow::ensure!(
                !hits.is_empty(),
                "--freeze: no weight `{part}` (`aamir params` lists them as `eval_NAME`; give NAME)"
            );
            out.extend(hits);
        }
        Ok(out)
    }
}
