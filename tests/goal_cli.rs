//! The `aamir goal` and `aamir capture` commands, run as a user would.

mod common;

use common::cli::{aamir, argv, data, scratch};

#[test]
fn one_position_prints_goal_steps_or_none() {
    // The first rows of the suite: 2 steps, then 4, then none.
    let (ok, out, _) = aamir(&[
        "goal",
        "g [   r rrr  rC d  rh eR m     R                           R  EH   ]",
    ]);
    assert!(ok);
    assert_eq!(out, "goal 2\n");
    let (ok, out, _) = aamir(&[
        "goal",
        "g [   r   r  r  rh rr e  R    dR      mR    H       rE             ]",
    ]);
    assert!(ok);
    assert_eq!(out, "goal none\n");
    let (ok, out, _) = aamir(&[
        "goal",
        "--first",
        "g [   r rrr  r  d  rh eRRm             R    H       rE             ]",
    ]);
    assert!(ok);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("goal 4"));
    assert!(
        lines.next().is_some_and(|l| l.starts_with("first ")),
        "{out}"
    );
    // The whole goal: four steps (capture tokens aside), the last one a
    // rabbit onto rank 8.
    let line = lines.next().unwrap_or("");
    let steps: Vec<&str> = line
        .strip_prefix("line ")
        .unwrap_or("")
        .split(' ')
        .filter(|t| !t.ends_with('x'))
        .collect();
    assert_eq!(steps.len(), 4, "{out}");
    assert!(
        steps[3].starts_with('R') && steps[3].ends_with("7n"),
        "{out}"
    );
}

#[test]
fn long_diagram_file_is_accepted() {
    let path = scratch("long-diagram").join("pos.txt");
    std::fs::write(
        &path,
        "10g\n +-----------------+\n8|               r |\n7| R               |\n6|     x     x     |\n5|                 |\n4|                 |\n3|     x     x     |\n2|                 |\n1|                 |\n +-----------------+\n   a b c d e f g h\n",
    )
    .unwrap();
    let (ok, out, err) = aamir(&["goal", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(out, "goal 1\n");
}

#[test]
fn suite_passes_and_a_wrong_row_fails() {
    let (ok, out, err) = aamir(&["goal", "--suite", &data("goal-positions.tsv")]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("485 positions") && out.contains("0 mismatches"),
        "{out}"
    );

    // Flip the answer of one row: the command must report it and fail.
    let text = std::fs::read_to_string(data("goal-positions.tsv")).unwrap();
    let mut flipped = false;
    let changed: Vec<String> = text
        .lines()
        .map(|l| {
            if !flipped && !l.starts_with('#') && l.ends_with("\t4") {
                flipped = true;
                format!("{}\t3", &l[..l.len() - 2])
            } else {
                l.to_string()
            }
        })
        .collect();
    let path = scratch("wrong-suite").join("wrong.tsv");
    std::fs::write(&path, changed.join("\n")).unwrap();
    let (ok, out, err) = aamir(&["goal", "--suite", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        out.contains("MISMATCH line") && out.contains("expected 3, got 4"),
        "{out}"
    );
    assert!(err.contains("1 of 485 positions disagree"), "{err}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let (ok, _, err) = aamir(&[
        "goal",
        "x [                                                                ]",
    ]);
    assert!(!ok);
    assert!(
        err.contains("side") || err.contains("reading position file"),
        "{err}"
    );
    let path = scratch("bad-suite").join("bad.tsv");
    std::fs::write(
        &path,
        "g\t[R                                                              r]\tfive\n",
    )
    .unwrap();
    let (ok, _, err) = aamir(&["goal", "--suite", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("line 1") && err.contains("five"), "{err}");
}

#[test]
fn capture_lists_pieces_with_steps_and_first_action() {
    // Silver cat on d3 next to the empty trap c3, gold dog on e3 behind it:
    // the dog pushes the cat onto the trap in two steps.
    let board = format!("g [{}]", {
        let mut b = vec![' '; 64];
        let put = |b: &mut Vec<char>, sq: &str, c: char| {
            let f = (sq.as_bytes()[0] - b'a') as usize;
            let r = (sq.as_bytes()[1] - b'1') as usize;
            b[(7 - r) * 8 + f] = c;
        };
        put(&mut b, "d3", 'c');
        put(&mut b, "e3", 'D');
        put(&mut b, "a8", 'r');
        put(&mut b, "h1", 'R');
        b.into_iter().collect::<String>()
    });
    let (ok, out, err) = aamir(&["capture", &board]);
    assert!(ok, "{err}");
    assert_eq!(out, "capture cd3 2 first cd3w cc3x De3w\n");
    let (ok, out, _) = aamir(&["capture", "--attacker", "s", &board]);
    assert!(ok);
    assert_eq!(out, "capture none\n");
}

/// The `dev` studies (`cargo test` builds the binary with that feature):
/// the detectors agree with the brute force on a small random sample, and
/// a study cannot be mixed with a suite or a position.
#[test]
fn dev_studies_compare_with_the_brute_force() {
    let (ok, out, err) = aamir(&["goal", "--random", "300", "--near", "--seed", "3"]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("300 near-goal positions") && out.contains("\n0 disagree"),
        "{out}"
    );
    let (ok, out, err) = aamir(&["capture", "--random", "100", "--mutated", "--seed", "3"]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("200 cases") && out.contains(", 0 cases differ"),
        "{out}"
    );
    let (ok, out, err) = aamir(&["goal", "--suite", &data("goal-positions.tsv"), "--brute"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("with the brute force, 0 mismatches"), "{out}");
    let suite = data("goal-positions.tsv");
    let (ok, _, err) = aamir(&argv("goal --suite {} --random 5", &[&suite]));
    assert!(!ok);
    assert!(err.contains("cannot be used with"), "{err}");
}
