//! Issue 12's hostile tester, re-run by our own harness: the Python
//! package `scripts/aei_fuzz` (run as `python -m aei_fuzz` from `scripts/`)
//! drives the real binary through its hand-written AEI cases (every message
//! with good and bad arguments) and 20 seeded fuzzed sessions (setups, a
//! game, malformed lines, illegal moves, bad positions and options, control
//! characters, long lines, searches interrupted every way), checking every
//! `makemove` verdict and every `bestmove` against `pyrimaa.board`, AEI's
//! reference board. The package exits non-zero on any failure and prints,
//! for each, the seed and a transcript to reproduce it; this test fails
//! with that report.
//!
//! Needs the Python `aei` package: the venv named by `AAMIR_VENV`, or one
//! the tests make under the target directory on first use (`pyenv`).

mod pyenv;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Sessions and base seed: session i is seeded `SEED + i`, so a failure's
/// seed reproduces it with `--sessions 1 --seed N`.
const SESSIONS: u32 = 20;
const SEED: u32 = 1;
/// About 15 s on an idle 2-core machine; the limit only catches a hang.
const LIMIT: Duration = Duration::from_secs(600);

/// A number from the script's summary line starting with `prefix`.
fn figure(report: &str, prefix: &str) -> u64 {
    report
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `{prefix}` figure in the report:\n{report}"))
}

#[test]
fn fuzzed_aei_sessions_agree_with_pyrimaa() {
    let python = pyenv::venv().join("bin").join("python");
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aei-fuzz");
    let _ = std::fs::remove_dir_all(&out);
    let start = Instant::now();
    let mut child = Command::new(&python)
        .current_dir(&scripts)
        .args(["-m", "aei_fuzz"])
        .arg(env!("CARGO_BIN_EXE_aamir"))
        .args(["--sessions", &SESSIONS.to_string()])
        .args(["--seed", &SEED.to_string()])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not start: {e}", python.display()));
    // Read both pipes while waiting, so that a long report cannot block
    // the script on a full pipe.
    let readers: Vec<_> = [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ]
    .into_iter()
    .map(|mut pipe| {
        thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    })
    .collect();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("aei_fuzz did not finish within {LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(100));
    };
    let mut texts = readers.into_iter().map(|r| r.join().unwrap());
    let (report, errors) = (texts.next().unwrap(), texts.next().unwrap());
    eprintln!("aei_fuzz took {:?}\n{report}", start.elapsed());
    assert!(
        status.success(),
        "aei_fuzz reports failures ({status}); transcripts under {}:\n{report}\n{errors}",
        out.display()
    );
    assert_eq!(figure(&report, "failures: "), 0, "{report}");
    // It did the work it reports: every part ran and checked something.
    assert!(figure(&report, "hand-written cases: ") >= 30, "{report}");
    assert_eq!(
        figure(&report, "fuzzed sessions: "),
        u64::from(SESSIONS),
        "{report}"
    );
    assert!(
        figure(&report, "makemove verdicts checked against pyrimaa: ") >= 200,
        "{report}"
    );
    assert!(
        figure(&report, "bestmoves checked against pyrimaa: ") >= 50,
        "{report}"
    );
}
