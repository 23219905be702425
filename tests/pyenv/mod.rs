//! The Python venv with AEI's `aei` package (its controllers, `simple_engine`
//! and `pyrimaa`), provisioned on first use so that a plain `cargo test`
//! works on a fresh machine.
//!
//! `AAMIR_VENV` names an existing venv to use as is. Otherwise the venv is
//! built once under the target directory (`CARGO_TARGET_TMPDIR/aei-venv`)
//! with `python3 -m venv` and `pip install aei==1.4.1`, and reused by every
//! later run. Test binaries may run at once (nextest), so creation is
//! guarded by a lock file and finished venvs carry a marker file.
//!
//! When the venv cannot be had (no `python3`, no network for pip), the test
//! binary stops with one message saying what is missing and how to fix it,
//! instead of a failure per test.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The `aei` release the tests were written against.
pub const AEI_PACKAGE: &str = "aei==1.4.1";

static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
static REPORTED: AtomicBool = AtomicBool::new(false);

/// The venv, provisioning it on first use.
///
/// When it cannot be had, the message says what is missing and how to fix
/// it, and the test binary ends at once with status 1: every test in it
/// needs the venv, and one clear message beats the same failure repeated
/// by each test.
pub fn venv() -> PathBuf {
    match VENV.get_or_init(provision) {
        Ok(dir) => dir.clone(),
        Err(why) => {
            if !REPORTED.swap(true, Ordering::SeqCst) {
                // Written to the stderr handle, not with `eprintln!`: the
                // test harness captures the macro's output and would lose
                // it when the process exits.
                let _ = writeln!(std::io::stderr(), "\nerror: {why}\n");
            }
            std::process::exit(1);
        }
    }
}

fn provision() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("AAMIR_VENV") {
        let dir = PathBuf::from(dir);
        return match check(&dir) {
            Ok(()) => Ok(dir),
            Err(e) => Err(format!(
                "AAMIR_VENV: {e} (unset AAMIR_VENV to let the tests build their own venv)"
            )),
        };
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aei-venv");
    let done = dir.join(".aamir-complete");
    if done.exists() {
        return Ok(dir);
    }
    let lock = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aei-venv.lock");
    let start = Instant::now();
    // Whoever creates the lock file builds the venv; the others wait for
    // the marker. A lock older than 10 minutes is from a killed run.
    loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
        {
            Ok(_) => break,
            Err(_) if done.exists() => return Ok(dir),
            Err(_) => {
                let stale = std::fs::metadata(&lock)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > Duration::from_secs(600));
                if stale || start.elapsed() > Duration::from_secs(900) {
                    let _ = std::fs::remove_file(&lock);
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        }
    }
    let built = build(&dir);
    let _ = std::fs::remove_file(&lock);
    built.map(|()| dir)
}

fn build(dir: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    eprintln!(
        "creating the AEI venv at {} (once; set AAMIR_VENV to use an existing one)",
        dir.display()
    );
    let status = Command::new("python3")
        .args(["-m", "venv"])
        .arg(dir)
        .status()
        .map_err(|e| {
            format!(
                "the AEI controller tests need `python3` (3.8 or later) on PATH to create a venv \
                 with `{AEI_PACKAGE}`, and it could not be run: {e}"
            )
        })?;
    if !status.success() {
        return Err(format!(
            "`python3 -m venv {}` failed ({status}); on Debian the `python3-venv` package provides it",
            dir.display()
        ));
    }
    let out = Command::new(dir.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            AEI_PACKAGE,
        ])
        .output()
        .map_err(|e| format!("running pip in {}: {e}", dir.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`pip install {AEI_PACKAGE}` into {} failed ({}): {}",
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    check(dir)?;
    std::fs::write(dir.join(".aamir-complete"), AEI_PACKAGE)
        .map_err(|e| format!("marking {} complete: {e}", dir.display()))
}

/// The venv has what the tests run: its interpreter and AEI's scripts.
fn check(dir: &Path) -> Result<(), String> {
    for exe in ["bin/python", "bin/roundrobin", "bin/simple_engine"] {
        if !dir.join(exe).exists() {
            return Err(format!(
                "{} is missing from the venv at {} (it should have `{AEI_PACKAGE}` installed)",
                exe,
                dir.display()
            ));
        }
    }
    Ok(())
}
