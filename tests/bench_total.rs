//! The `aamir bench` node total is a fingerprint of the search and the
//! evaluation: the same on every run and machine. A change meant to keep
//! behaviour (a refactor, a speed-up) must keep it; a change meant to alter
//! play updates it here, on purpose, in the same commit.

use std::process::Command;

/// `aamir bench` at its default depth, one thread.
const BENCH_NODES: u64 = 5858948;

#[test]
fn bench_node_total_is_pinned() {
    let out = Command::new(env!("CARGO_BIN_EXE_aamir"))
        .arg("bench")
        .output()
        .expect("running aamir bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "aamir bench failed: {stdout}");
    let total: u64 = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no `nodes N` line in:\n{stdout}"));
    assert_eq!(
        total, BENCH_NODES,
        "the bench total changed: a change that keeps behaviour must keep it"
    );
}
