//! The real binary speaking AEI: handshake, `isready` while searching,
//! `stop`, pondering, bad input, exits, and a whole game played through
//! the protocol. Timings are printed (run with `--nocapture`) and asserted
//! only loosely: speed is a benchmark's business, not a test's.

mod aei_common;

use aamir::board::Phase;
use aei_common::*;
use std::time::Duration;

#[test]
fn handshake_comes_first_and_at_once() {
    let mut e = Engine::spawn(&[]);
    let sent = e.send("aei");
    let got = e.until("aeiok", 10.0);
    let took = got.last().unwrap().0 - e.started;
    eprintln!(
        "aeiok {:?} after spawn, {:?} after `aei`",
        took,
        got.last().unwrap().0 - sent
    );
    assert_eq!(
        texts(&got),
        [
            "protocol-version 1",
            "id name aamir",
            "id author the aamir developers",
            &format!("id version {}", env!("CARGO_PKG_VERSION")),
            "aeiok",
        ]
    );
    // The controllers give up after 5 s.
    assert!(took < Duration::from_secs(5), "{took:?}");
    e.send("isready");
    assert_eq!(texts(&e.until("readyok", 10.0)), ["readyok"]);
    // `aamir aei` is the same session.
    let mut e = Engine::spawn(&["aei"]);
    e.send("aei");
    assert_eq!(e.until("aeiok", 10.0)[0].1, "protocol-version 1");
}

#[test]
fn isready_while_searching_and_stop() {
    let mut e = Engine::opened();
    e.send(OPENING);
    // No time limits: the search runs until `stop`.
    let go = e.send("go");
    // Once it has reported progress, it is surely under way.
    let mut got = e.until("info depth", 20.0);
    let asked = e.send("isready");
    got.extend(e.until("readyok", 10.0));
    let ready = got.last().unwrap().0 - asked;
    eprintln!("first progress {:?} after go", got[0].0 - go);
    let stop = e.send("stop");
    e.send("isready");
    let mut all = got.clone();
    all.extend(e.until("readyok", 10.0));
    let best = bestmoves(&texts(&all));
    assert_eq!(best.len(), 1, "one answer to one `go`: {all:?}");
    assert_legal(&opening_game(), &best[0]);
    let answered = all
        .iter()
        .find(|(_, l)| l.starts_with("bestmove"))
        .unwrap()
        .0;
    eprintln!(
        "readyok {ready:?} after isready; bestmove {:?} after stop (negative: the search had already ended)",
        answered
            .checked_duration_since(stop)
            .map_or_else(|| format!("-{:?}", stop - answered), |d| format!("{d:?}"))
    );
    // Generous: `stop` must be answered within 50 ms; this only catches a
    // session that does not answer it at all.
    assert!(answered < stop + Duration::from_secs(2));
    // Progress was reported in AEI form.
    assert!(
        all.iter().any(|(_, l)| l.starts_with("info depth")),
        "{all:?}"
    );
    assert!(all.iter().any(|(_, l)| l.starts_with("info pv")), "{all:?}");
}

#[test]
fn ponder_interrupted_by_makemove_gives_no_bestmove() {
    let mut e = Engine::opened();
    e.send(OPENING);
    e.send("go ponder");
    let mv = "Ee2n Ee3n Ee4n Ee5n";
    e.send(&format!("makemove {mv}"));
    e.send("isready");
    let got = e.until("readyok", 10.0);
    assert!(bestmoves(&texts(&got)).is_empty(), "{got:?}");
    // The ponder is over: nothing left for `stop` to answer.
    e.send("stop");
    e.send("isready");
    let got = texts(&e.until("readyok", 10.0));
    assert!(bestmoves(&got).is_empty(), "{got:?}");
    assert!(
        got.iter().any(|l| l.starts_with("log Warning: `stop`")),
        "{got:?}"
    );
    // Silver's turn now, searched for real.
    e.send("go");
    e.send("stop");
    let got = e.until("bestmove", 10.0);
    let mut g = opening_game();
    g.play(mv).unwrap();
    assert_legal(&g, &bestmoves(&texts(&got))[0]);
    e.send("isready");
    let rest = e.until("readyok", 10.0);
    assert!(bestmoves(&texts(&rest)).is_empty(), "{rest:?}");
}

#[test]
fn bad_input_keeps_the_session_and_the_game() {
    let mut e = Engine::opened();
    e.send("newgame");
    e.send(OPENING);
    let bad = [
        "makemove Ea1n",
        "makemove Ee2n Ee3n Ee4n Ee5n Ee6n",
        "makemove Ee2n Ee2s",
        "makemove Ed2q",
        "makemove",
        "makemove Ra1 Rb1",
        "setposition g [rrrr]",
        "setposition g [rrrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]",
        "setposition q [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]",
        "setoption name tcmove value fast",
        "setoption name tcreserve value 1e999",
        "setoption name hash value 0",
        "setoption name threads value many",
        "setoption tcmove 5",
        "go sideways",
        "isready now",
        "newgame please",
        "aei",
        "makemove \u{fffd}\u{0}",
    ];
    for line in bad {
        e.send(line);
        e.send("isready");
        let got = texts(&e.until("readyok", 10.0));
        assert!(
            got.len() == 2 && got[0].starts_with("log Error: "),
            "`{line}` gave {got:?}"
        );
    }
    for (line, expect) in [
        ("setoption name colour value blue", "log Warning: "),
        ("stop", "log Warning: "),
    ] {
        e.send(line);
        e.send("isready");
        let got = texts(&e.until("readyok", 10.0));
        assert!(got[0].starts_with(expect), "`{line}` gave {got:?}");
    }
    // Invalid UTF-8 is bad input too, not the end of the session.
    e.send_raw(b"makemove \xff\xfe");
    e.send("isready");
    let got = texts(&e.until("readyok", 10.0));
    assert!(got[0].starts_with("log Error: "), "{got:?}");
    // The game is as it was: these are legal only in the opening.
    e.send("makemove Ee2n Ee3n Ee4n Ee5n");
    e.send("makemove ed7s ed6s ed5s ed4s");
    e.send("isready");
    let got = texts(&e.until("readyok", 10.0));
    assert_eq!(got, ["readyok"]);
    let mut g = opening_game();
    g.play("Ee2n Ee3n Ee4n Ee5n").unwrap();
    g.play("ed7s ed6s ed5s ed4s").unwrap();
    e.send("go");
    e.send("stop");
    let got = e.until("bestmove", 10.0);
    assert_legal(&g, &bestmoves(&texts(&got))[0]);
}

#[test]
fn go_when_the_game_is_over_is_an_error() {
    let mut e = Engine::opened();
    // A gold rabbit on rank 8: gold has won.
    e.send("setposition s [R       rrrrrrrr                                        E       ]");
    e.send("go");
    e.send("isready");
    let got = texts(&e.until("readyok", 10.0));
    assert!(
        got.iter()
            .any(|l| l.starts_with("log Error: `go`: the game is over")),
        "{got:?}"
    );
    assert!(bestmoves(&got).is_empty());
}

#[test]
fn unrecognised_message_exits() {
    let mut e = Engine::opened();
    e.send("isready");
    e.until("readyok", 10.0);
    e.send("fly away");
    let got = texts(&e.until("log Error:", 10.0));
    assert!(got.last().unwrap().contains("`fly`"), "{got:?}");
    let status = e.wait_exit(5.0).expect("the engine exits");
    assert!(!status.success());
}

#[test]
fn end_of_input_exits_even_mid_search() {
    let mut e = Engine::opened();
    e.close_input();
    assert!(e.wait_exit(5.0).expect("exits at end of input").success());

    let mut e = Engine::opened();
    e.send(OPENING);
    e.send("go");
    e.until("info", 10.0);
    let closed = e.close_input();
    let status = e.wait_exit(5.0).expect("exits at end of input");
    eprintln!("exit {:?} after end of input mid-search", closed.elapsed());
    assert!(status.success());
}

#[test]
fn quit_twice_mid_ponder() {
    let mut e = Engine::opened();
    e.send(OPENING);
    e.send("go ponder");
    let sent = e.send("quit");
    // The second `quit` may find the pipe already closed: harmless.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| e.send("quit")));
    let status = e.wait_exit(5.0).expect("exits on quit");
    eprintln!("exit {:?} after quit mid-ponder", sent.elapsed());
    assert!(status.success());
}

#[test]
fn a_whole_game_against_itself() {
    // Both sides played by one engine through the protocol, with a clock
    // kept as the controllers keep it: every answer must be legal and come
    // before the deadline, to the end of the game (or a turn cap: two
    // copies of a weak search may never finish). The deadline check allows
    // a second of slack for a loaded machine; it catches a session that
    // ignores the clock, not one that is a little late.
    const TCMOVE: f64 = 0.2;
    let mut e = Engine::opened();
    e.send("setoption name seed value 11");
    e.send(&format!("setoption name tcmove value {TCMOVE}"));
    e.send("setoption name tcreserve value 1");
    e.send("newgame");
    let mut g = new_game();
    let mut reserve = [1.0f64; 2];
    let mut slowest = Duration::ZERO;
    while g.outcome().is_none() && g.move_number() <= 30 {
        let side = g.side();
        e.send(&format!("setoption name greserve value {}", reserve[0]));
        e.send(&format!("setoption name sreserve value {}", reserve[1]));
        let sent = e.send("go");
        let got = e.until("bestmove", 10.0);
        let took = got.last().unwrap().0 - sent;
        slowest = slowest.max(took);
        let deadline = TCMOVE + reserve[side.index()];
        assert!(
            took.as_secs_f64() < deadline + 1.0,
            "{}: took {took:?}, deadline {deadline} s",
            g.label()
        );
        if g.phase() == Phase::Play {
            let r = &mut reserve[side.index()];
            *r = (*r + TCMOVE - took.as_secs_f64()).max(0.0);
        }
        let mv = bestmoves(&texts(&got)).pop().unwrap();
        assert_legal(&g, &mv);
        g.play(&mv).unwrap();
        e.send(&format!("makemove {mv}"));
    }
    eprintln!(
        "self-play reached {} ({:?}); slowest answer {slowest:?}",
        g.label(),
        g.outcome()
    );
    e.send("isready");
    let got = texts(&e.until("readyok", 10.0));
    assert!(!got.iter().any(|l| l.starts_with("log Error")), "{got:?}");
}

/// A panic ends the process (release builds abort; the binary makes other
/// builds do the same): the controller sees stdout close and a failure
/// status, not a session carrying on. The panic comes from `debug_panic`,
/// an option only debug builds have.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "`debug_panic` exists only in debug builds"
)]
fn a_panic_in_the_search_ends_the_process() {
    let mut e = Engine::opened();
    e.send(OPENING);
    e.send("setoption name debug_panic value 1");
    e.send("go");
    let status = e.wait_exit(20.0).expect("the engine exits after a panic");
    assert!(!status.success(), "{status:?}");
    // Stdout is closed: the rest arrives at once, with no answer in it.
    let t = std::time::Instant::now();
    let rest = e.quiet(10.0);
    assert!(t.elapsed() < Duration::from_secs(5), "stdout still open");
    assert!(bestmoves(&rest).is_empty(), "{rest:?}");
}
