//! Side-by-side speed of distinct-turn counting: aamir against the crate
//! `arimaa_engine_step` 1.0.1 on a move-count suite, in one run on one
//! machine. Also measures aamir's two ways of walking a turn (copy-make
//! and make/unmake) on the same walk.
//!
//! ```text
//! cd bench/crate-compare && cargo run --release -- ../../tests/data/movecount.tsv
//! ```
//!
//! The crate is used the way its documentation counts unique moves: a
//! depth-first walk over its single-step actions (`valid_actions`,
//! `take_action`), skipping states whose `transposition_hash` was seen, and
//! counting states where the turn passed to the other side or the game
//! ended.

use aamir::board::notation::long_diagram;
use aamir::board::turngen::{
    SeenTable, TurnCount, count_turns, count_turns_copy_make, count_turns_make_unmake,
};
use aamir::tools::movecount::{SuiteRow, read_suite};
use arimaa_engine_step::{Action, GameState};
use std::collections::HashSet;
use std::time::Instant;

/// CPU time of this thread, in seconds: unlike wall time it does not count
/// the time other processes on a shared machine take from us.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Wall and CPU clocks started together.
struct Clock(Instant, f64);

impl Clock {
    fn start() -> Clock {
        Clock(Instant::now(), thread_cpu_seconds())
    }
    /// (wall, cpu) seconds since the start.
    fn read(&self) -> (f64, f64) {
        (
            self.0.elapsed().as_secs_f64(),
            thread_cpu_seconds() - self.1,
        )
    }
}

/// One engine's totals over the suite.
struct Run {
    name: &'static str,
    positions: usize,
    turns: u64,
    nodes: u64,
    node_unit: &'static str,
    seconds: f64,
    cpu_seconds: f64,
    mismatches: Vec<String>,
}

impl Run {
    fn print(&self) {
        let s = self.cpu_seconds.max(1e-9);
        println!(
            "{:<24} {:>4} positions, {:>7.3}s cpu ({:>7.3}s wall): {:>7.1} positions/s {:>10.0} turns/s {:>10.0} {}/s  ({} mismatches)",
            self.name,
            self.positions,
            self.cpu_seconds,
            self.seconds,
            self.positions as f64 / s,
            self.turns as f64 / s,
            self.nodes as f64 / s,
            self.node_unit,
            self.mismatches.len()
        );
        for m in &self.mismatches {
            println!("    {m}");
        }
    }

    /// Per CPU second.
    fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.cpu_seconds.max(1e-9)
    }
}

/// The crate's documented unique-move walk; returns (turns, steps taken).
fn crate_count(state: &GameState) -> (u64, u64) {
    fn walk(state: &GameState, seen: &mut HashSet<u64>, turns: &mut u64, steps: &mut u64) {
        let mover = state.is_p1_turn_to_move();
        for action in state.valid_actions() {
            let next = state.take_action(&action);
            if !matches!(action, Action::Pass) {
                *steps += 1;
            }
            if !seen.insert(next.transposition_hash()) {
                continue;
            }
            if next.is_terminal().is_some() || next.is_p1_turn_to_move() != mover {
                *turns += 1;
                continue;
            }
            walk(&next, seen, turns, steps);
        }
    }
    let mut seen = HashSet::new();
    let (mut turns, mut steps) = (0, 0);
    walk(state, &mut seen, &mut turns, &mut steps);
    (turns, steps)
}

type Counter = fn(&aamir::board::Position, &mut SeenTable) -> TurnCount;

/// The contenders, interleaved position by position so that a shared,
/// busy machine slows them alike: for each position the crate counts it
/// once and each aamir walk `repeat` times, in turn, and each keeps its
/// fastest repetition per position (`best`) besides the total.
fn run_all(rows: &[SuiteRow], repeat: u32, with_crate: bool) -> Vec<(Run, f64)> {
    let walks: [(&'static str, Counter); 3] = [
        ("aamir count_turns", count_turns),
        ("aamir copy-make walk", count_turns_copy_make),
        ("aamir make/unmake walk", count_turns_make_unmake),
    ];
    let new_run = |name, node_unit| Run {
        name,
        positions: 0,
        turns: 0,
        nodes: 0,
        node_unit,
        seconds: 0.0,
        cpu_seconds: 0.0,
        mismatches: Vec::new(),
    };
    let mut runs: Vec<(Run, f64)> = walks
        .iter()
        .map(|(name, _)| (new_run(*name, "actions"), 0.0))
        .collect();
    let mut krate = (new_run("arimaa_engine_step", "steps"), 0.0);
    let mut table = SeenTable::new();
    for row in rows {
        if with_crate {
            // The crate reads the long diagram; parsing is not timed, as
            // aamir's positions are parsed before the run too.
            let state: GameState = long_diagram(&row.position, 2)
                .parse()
                .expect("the crate reads the long diagram");
            let clock = Clock::start();
            let (turns, steps) = crate_count(&state);
            let (wall, cpu) = clock.read();
            let (run, best) = &mut krate;
            if turns != row.expected {
                run.mismatches.push(format!(
                    "{}: expected {}, got {turns}",
                    row.label, row.expected
                ));
            }
            run.positions += 1;
            run.turns += turns;
            run.nodes += steps;
            run.seconds += wall;
            run.cpu_seconds += cpu;
            *best += cpu;
        }
        let mut fastest = vec![f64::INFINITY; walks.len()];
        for pass in 0..repeat {
            for (i, (_, count)) in walks.iter().enumerate() {
                let clock = Clock::start();
                let c = count(&row.position, &mut table);
                let (wall, cpu) = clock.read();
                let run = &mut runs[i].0;
                if pass == 0 && c.turns != row.expected {
                    run.mismatches.push(format!(
                        "{}: expected {}, got {}",
                        row.label, row.expected, c.turns
                    ));
                }
                run.positions += 1;
                run.turns += c.turns;
                run.nodes += c.nodes;
                run.seconds += wall;
                run.cpu_seconds += cpu;
                fastest[i] = fastest[i].min(cpu);
            }
        }
        for (i, f) in fastest.iter().enumerate() {
            runs[i].1 += f;
        }
    }
    if with_crate {
        runs.insert(0, krate);
    }
    runs
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "../../tests/data/movecount.tsv".to_string());
    let repeat: u32 = args.next().map_or(5, |r| r.parse().expect("repeat count"));
    // `--no-crate`: only aamir's walks, for quick iterations.
    let with_crate = args.next().as_deref() != Some("--no-crate");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let rows = read_suite(&text).expect("the suite parses");
    println!(
        "suite {path}: {} positions; per position the crate counts once, each aamir walk {repeat} times, interleaved",
        rows.len()
    );
    let runs = run_all(&rows, repeat, with_crate);
    println!("totals (rates per cpu second):");
    for (r, _) in &runs {
        r.print();
    }
    println!("fastest repetition per position, summed (cpu seconds for the whole suite once):");
    for (r, best) in &runs {
        println!(
            "{:<24} {:>7.3}s  {:>7.1} positions/s",
            r.name,
            best,
            rows.len() as f64 / best.max(1e-9)
        );
    }
    let best = |name: &str| runs.iter().find(|(r, _)| r.name == name).map(|(_, b)| *b);
    let total = |name: &str| {
        runs.iter()
            .find(|(r, _)| r.name == name)
            .map(|(r, _)| r.positions_per_second())
    };
    if let (Some(k), Some(a)) = (total("arimaa_engine_step"), total("aamir count_turns")) {
        println!(
            "ratio aamir count_turns / crate: {:.1}x positions per cpu second",
            a / k
        );
    }
    if let (Some(c), Some(u)) = (best("aamir copy-make walk"), best("aamir make/unmake walk")) {
        println!(
            "time ratio copy-make / make-unmake (same walk, fastest repetitions): {:.3}",
            c / u
        );
    }
}
