//! AEI's own tournament controller, `roundrobin`, plays aamir against its
//! random `simple_engine` (aamir must win every game) and against itself
//! (the game must end by a rule) at fast time controls, with no illegal
//! move and no timeout. This is the real controller's timing and move
//! checking, not ours.
//!
//! Needs the Python `aei` package: the venv named by `AAMIR_VENV`, or one
//! the tests make under the target directory on first use (`pyenv`).

mod pyenv;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The venv with AEI's `aei` package, made on first use (see `pyenv`).
fn venv() -> PathBuf {
    pyenv::venv()
}

/// What one `roundrobin` run printed and the record it wrote.
struct Run {
    stdout: String,
    stderr: String,
    record: String,
}

/// A bot for the config: name, command line, AEI options.
type Bot<'a> = (&'a str, String, &'a [(&'a str, &'a str)]);

/// The most the wall clock may drift from the monotonic clock over one
/// `roundrobin` run before its timing is void.
const MAX_SKEW: Duration = Duration::from_secs(1);

/// Runs AEI's `roundrobin` on `bots` for `rounds` games at time control
/// `tc`, killing it past `limit`; runs it again (at most twice more) when
/// the system's wall clock was stepped during the run.
///
/// Why: pyrimaa times every move with `time.time()`, the wall clock, so a
/// step of the system clock (a virtual machine resumed or resynchronised)
/// reads as a move that took seconds. One CI run lost a game "on time" 3
/// moves in, and roundrobin reported 26 s of play in a run this test timed
/// at 20.4 s on the monotonic clock. A run with no such step is judged as
/// before, whatever its result.
fn roundrobin(tag: &str, bots: &[Bot], tc: &str, rounds: usize, limit: Duration) -> Run {
    for attempt in 1..=3 {
        let wall_start = SystemTime::now();
        let start = Instant::now();
        let run = roundrobin_once(tag, bots, tc, rounds, limit);
        let mono = start.elapsed();
        // An error: the wall clock went back past the start.
        let wall = wall_start.elapsed().unwrap_or(Duration::ZERO);
        let skew = wall.abs_diff(mono);
        if skew <= MAX_SKEW {
            return run;
        }
        eprintln!(
            "roundrobin ({tag}) attempt {attempt} of 3: the wall clock moved {wall:?} \
             while {mono:?} passed; its move timing is void"
        );
    }
    panic!("roundrobin ({tag}): the wall clock was stepped in three runs in a row");
}

/// One `roundrobin` run (see [`roundrobin`]).
fn roundrobin_once(tag: &str, bots: &[Bot], tc: &str, rounds: usize, limit: Duration) -> Run {
    let venv = venv();
    let work = std::env::temp_dir().join(format!("aamir-roundrobin-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let pgn = work.join("games.pgn");
    let names: Vec<&str> = bots.iter().map(|b| b.0).collect();
    let mut config = format!(
        "[global]\nrounds = {rounds}\ntimecontrol = {tc}\nbots = {}\npgn_filename = {}\n",
        names.join(" "),
        pgn.display()
    );
    for (name, cmd, options) in bots {
        config.push_str(&format!("\n[{name}]\ncmdline = '{cmd}'\n"));
        // `bot_<option>` lines are sent as `setoption` by roundrobin.
        for (key, value) in *options {
            config.push_str(&format!("bot_{key} = {value}\n"));
        }
    }
    let cfg = work.join("roundrobin.cfg");
    std::fs::write(&cfg, config).unwrap();
    let start = Instant::now();
    let mut child = Command::new(venv.join("bin").join("roundrobin"))
        .arg("--config")
        .arg(&cfg)
        .current_dir(&work)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("roundrobin starts");
    // Killed if it hangs, rather than hanging the test run.
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("roundrobin ({tag}) did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let run = Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        record: std::fs::read_to_string(&pgn).unwrap_or_default(),
    };
    eprintln!(
        "roundrobin ({tag}) took {:?}\n{}",
        start.elapsed(),
        run.stdout
    );
    assert!(out.status.success(), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.record.matches("[ResultCode").count(),
        rounds,
        "{}",
        run.record
    );
    let _ = std::fs::remove_dir_all(&work);
    run
}

/// The result lines: "<winner> beat <loser> because of <reason> playing side <g|s>".
fn results(run: &Run) -> Vec<(String, String, String)> {
    run.stdout
        .lines()
        .filter_map(|l| {
            let (winner, rest) = l.split_once(" beat ")?;
            let (loser, rest) = rest.split_once(" because of ")?;
            let reason = rest.split(' ').next()?;
            Some((winner.to_string(), loser.to_string(), reason.to_string()))
        })
        .collect()
}

#[test]
fn roundrobin_against_simple_engine() {
    let aamir = env!("CARGO_BIN_EXE_aamir").to_string();
    let random = venv()
        .join("bin")
        .join("simple_engine")
        .display()
        .to_string();
    let rounds = 2;
    // 1 s a move, 5 s reserve; at most 20 turns so that two games stay
    // around a minute even if the search spends its whole budget.
    let run = roundrobin(
        "random",
        &[("aamir", aamir, &[]), ("Random", random, &[])],
        "1s/5s/100/0/20t",
        rounds,
        Duration::from_secs(150),
    );
    let res = results(&run);
    assert_eq!(res.len(), rounds, "{}\n{}", run.stdout, run.stderr);
    for (winner, loser, reason) in &res {
        // Any loss to the random mover fails, whatever the reason; a win
        // must come from the rules (goal, elimination, immobilisation), a
        // piece-count decision at the turn limit or the opponent's fault.
        assert!(
            winner == "aamir" && loser == "Random",
            "aamir lost to the random engine ({reason}):\n{}\n{}",
            run.stdout,
            run.stderr
        );
    }
    assert!(
        run.stdout.contains("aamir has 2 wins and 0 timeouts"),
        "{}",
        run.stdout
    );
}

#[test]
fn roundrobin_against_itself() {
    let aamir = env!("CARGO_BIN_EXE_aamir").to_string();
    // pyrimaa takes whole seconds only, so the moves are kept quick with a
    // fixed depth of 6 steps, still under the controller's clock; no turn
    // limit (pyrimaa's turn-limit decision fails on equal material): the
    // game is played out to a rule ending.
    let fast: &[(&str, &str)] = &[("depth", "6")];
    let run = roundrobin(
        "self",
        &[("aamirA", aamir.clone(), fast), ("aamirB", aamir, fast)],
        "1s/2s/100/2s",
        1,
        Duration::from_secs(300),
    );
    let res = results(&run);
    assert_eq!(res.len(), 1, "{}\n{}", run.stdout, run.stderr);
    let (_, _, reason) = &res[0];
    assert!(
        matches!(reason.as_str(), "g" | "e" | "m"),
        "the self-play game must end by a rule (goal, elimination, \
         immobilisation), not `{reason}` (t: time, i: illegal move, r: resign):\n{}\n{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(
        run.stdout.matches(" and 0 timeouts").count(),
        2,
        "{}",
        run.stdout
    );
}
