//! AEI's own tournament controller, `roundrobin`, plays aamir against its
//! random `simple_engine` at a fast time control: the games must finish
//! with no illegal move and no timeout by aamir. This is the real
//! controller's timing and move checking, not ours.
//!
//! Needs the Python `aei` package in the venv named by `AAMIR_VENV`
//! (default `.venv` in the checkout).

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn venv() -> PathBuf {
    let dir = std::env::var_os("AAMIR_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv"));
    let rr = dir.join("bin").join("roundrobin");
    assert!(
        rr.exists(),
        "AEI's `roundrobin` not found at {}: create the venv with \
         `python3 -m venv .venv && .venv/bin/pip install aei==1.4.1` \
         (or point AAMIR_VENV at a venv that has it)",
        rr.display()
    );
    dir
}

#[test]
fn roundrobin_against_simple_engine() {
    let venv = venv();
    let work = std::env::temp_dir().join(format!("aamir-roundrobin-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let pgn = work.join("games.pgn");
    let rounds = 2;
    // 1 s a move, 5 s reserve; at most 20 turns so that two games stay
    // around a minute even if the search spends its whole budget.
    let config = format!(
        "[global]\nrounds = {rounds}\ntimecontrol = 1s/5s/100/0/20t\nbots = aamir Random\npgn_filename = {}\n\n\
         [aamir]\ncmdline = '{}'\n\n[Random]\ncmdline = '{}'\n",
        pgn.display(),
        env!("CARGO_BIN_EXE_aamir"),
        venv.join("bin").join("simple_engine").display()
    );
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
    let deadline = start + Duration::from_secs(150);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("roundrobin did not finish within 150 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("roundrobin took {:?}\n{stdout}", start.elapsed());
    assert!(out.status.success(), "{stdout}\n{stderr}");

    let results: Vec<&str> = stdout.lines().filter(|l| l.contains(" beat ")).collect();
    assert_eq!(results.len(), rounds, "{stdout}\n{stderr}");
    for r in &results {
        // "<winner> beat <loser> because of <reason> playing side <g|s>"
        let lost = r.contains("beat aamir because of");
        let reason = r
            .split("because of ")
            .nth(1)
            .unwrap_or("")
            .split(' ')
            .next();
        assert!(
            !(lost && matches!(reason, Some("t") | Some("i"))),
            "aamir lost on time or by an illegal move: {r}\n{stdout}\n{stderr}"
        );
    }
    assert!(
        stdout.contains("aamir has") && stdout.contains("and 0 timeouts"),
        "{stdout}"
    );
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(record.matches("[ResultCode").count(), rounds, "{record}");
    let _ = std::fs::remove_dir_all(&work);
}
