//! For the tests of the commands: running the `aamir` binary to its end,
//! command lines written as a user types them, the committed test data and
//! scratch folders.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// The binary under test (built with the `dev` feature: see Cargo.toml).
pub const AAMIR: &str = env!("CARGO_BIN_EXE_aamir");

/// Runs `aamir` with `args` to its end: (exit success, stdout, stderr).
/// `RUST_BACKTRACE=0` whatever the caller's environment, so that a panic
/// reads the same in every run (tests look for `panicked`).
pub fn aamir<S: AsRef<OsStr>>(args: &[S]) -> (bool, String, String) {
    let out = Command::new(AAMIR)
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("running aamir");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The arguments of `line` as a user types it: its words, each word `{}`
/// replaced whole by the next of `fill` (paths and positions, which may
/// hold spaces).
pub fn argv<'a>(line: &'a str, fill: &[&'a str]) -> Vec<&'a str> {
    let mut fill = fill.iter();
    let args = line
        .split_whitespace()
        .map(|w| match w {
            "{}" => *fill
                .next()
                .unwrap_or_else(|| panic!("`{line}`: no value for a `{{}}`")),
            _ => w,
        })
        .collect();
    assert!(fill.next().is_none(), "`{line}`: more values than `{{}}`");
    args
}

/// The words of `line`: [`argv`] with nothing to fill in.
pub fn words(line: &str) -> Vec<&str> {
    argv(line, &[])
}

/// The path of `name` in `tests/data`.
pub fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for `tag` in the target's scratch space (not
/// `/tmp`: a run replaces its own folders instead of leaving new ones),
/// named after the test file so that tests running at once never share one.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{tag}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch folder");
    dir
}

/// Asserts that `text` holds each of `wants`, showing it whole if not.
#[track_caller]
pub fn assert_mentions(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "no `{want}` in:\n{text}");
    }
}
