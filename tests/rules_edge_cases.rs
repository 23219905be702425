//! One test per edge case of the rules page: the order of the end-of-game
//! checks and each of its consequences, pulls by captured pullers, no push
//! and pull at once, the elephant, rabbits, unchanged boards and
//! repetition. Positions are built from placement lists so each case reads
//! as a small diagram.

mod common;

use aamir::board::legality::check_move;
use aamir::board::notation::parse_move;
use aamir::board::stepgen::{Action, ActionList, generate_actions};
use aamir::board::turngen::generate_turns;
use aamir::board::{Color, EndReason, Game, IllegalReason, MoveError, Outcome, Piece};
use common::rules::{position, sq};

fn game(side: Color, pieces: &str) -> Game {
    let g = Game::from_position(position(side, pieces), 10);
    assert_eq!(g.outcome(), None, "the start position is not already over");
    g
}

/// Plays `mv` and returns the rules' verdict after it.
fn play(side: Color, pieces: &str, mv: &str) -> Option<Outcome> {
    let mut g = game(side, pieces);
    g.play(mv)
        .unwrap_or_else(|e| panic!("`{mv}` should be legal: {e}"));
    g.outcome()
}

fn win(winner: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome { winner, reason })
}

/// The reason a move is refused.
fn refused(side: Color, pieces: &str, mv: &str) -> MoveError {
    let mut g = game(side, pieces);
    let before = g.clone();
    let err = g.play(mv).expect_err(mv);
    assert_eq!(g, before, "a refused move leaves the game unchanged");
    err
}

// --- The order of the five end-of-game checks -------------------------

#[test]
fn check_1_players_goal_comes_before_opponents_goal() {
    // Gold pushes a silver rabbit onto rank 1 and runs its own rabbit
    // home in the same turn: both are on goal, and the mover wins.
    let pieces = "Eb3 Rg7 rb2 eh5";
    assert_eq!(
        play(Color::Gold, pieces, "rb2s Eb3s Rg7n"),
        win(Color::Gold, EndReason::Goal)
    );
    // The same push alone: only silver's rabbit is on goal.
    assert_eq!(
        play(Color::Gold, pieces, "rb2s Eb3s"),
        win(Color::Silver, EndReason::Goal)
    );
}

#[test]
fn check_2_opponents_goal_comes_before_eliminations() {
    // Finishing the push unguards gold's last rabbit on c3: gold has no
    // rabbit left, but silver's rabbit on goal decides first.
    assert_eq!(
        play(Color::Gold, "Eb3 Rc3 rb2 eh8", "rb2s Eb3s Rc3x"),
        win(Color::Silver, EndReason::Goal)
    );
}

#[test]
fn check_2_a_turn_that_immobilises_but_leaves_an_opponent_rabbit_on_goal_loses() {
    // Silver's only piece is pushed onto a1 and frozen there by the
    // elephant: silver cannot move, but its rabbit is on goal.
    let pieces = "Eb2 Rh2 ra2";
    assert_eq!(
        play(Color::Gold, pieces, "ra2s Eb2w"),
        win(Color::Silver, EndReason::Goal)
    );
    // Check 5 alone, for contrast: the same freeze without the goal.
    assert_eq!(
        play(Color::Gold, "Eb4 Rh2 ra5", "Eb4w"),
        win(Color::Gold, EndReason::Immobilization)
    );
}

#[test]
fn check_3_capturing_the_last_rabbit_wins_even_if_the_own_last_rabbit_went_too() {
    // The push captures silver's last rabbit on f3 (written before the
    // pusher's step), then the dog unguards gold's last rabbit on c3.
    let pieces = "Eh3 Rc3 Dc2 rg3 ea8";
    assert_eq!(
        play(Color::Gold, pieces, "rg3w rf3x Eh3w Dc2w Rc3x"),
        win(Color::Gold, EndReason::Elimination)
    );
}

#[test]
fn check_4_losing_the_own_last_rabbit_comes_before_immobilisation() {
    // Gold loses its last rabbit and freezes silver's only piece: silver
    // cannot move, yet wins by elimination.
    assert_eq!(
        play(Color::Gold, "Eb4 Rc3 Dc2 ra5", "Dc2w Rc3x Eb4w"),
        win(Color::Silver, EndReason::Elimination)
    );
}

#[test]
fn the_checks_judge_silver_moves_the_same_way() {
    // Mirror of the goal-and-immobilise case with silver moving.
    assert_eq!(
        play(Color::Silver, "Rh7 eg7 rb7", "Rh7n eg7e"),
        win(Color::Gold, EndReason::Goal)
    );
    assert_eq!(
        play(Color::Silver, "Rh7 Ca1 eg7 rb7", "rb7s"),
        None,
        "an ordinary turn ends nothing"
    );
}

#[test]
fn the_verdict_is_taken_only_at_the_end_of_the_turn() {
    // A rabbit pushed onto its goal and pulled off again in the same
    // turn does not count.
    let pieces = "Eb2 Rh2 ra2 eh8";
    assert_eq!(play(Color::Gold, pieces, "ra2s Eb2w Ea2n ra1n"), None);
    // And gold's own rabbit reaching goal mid-turn is only judged at the
    // end: here it stays, so gold wins.
    assert_eq!(
        play(Color::Gold, "Rg7 Ea1 eh4 rh6", "Rg7n Ea1n"),
        win(Color::Gold, EndReason::Goal)
    );
}

#[test]
fn immobilisation_when_every_turn_would_be_a_third_repetition() {
    // Silver's dog can only shuttle between a8 and b8 (a7 and c8 hold
    // gold dogs it cannot push; its rabbit on b7 is boxed in by gold
    // rabbits), and gold shuttles its elephant on the first rank.
    let mut g = game(Color::Gold, "Da7 Dc8 Rc7 Rb6 Eh1 da8 rb7");
    let cycle = ["Eh1w", "da8e", "Eg1e", "db8w"];
    for mv in cycle.iter().chain(&cycle[..3]) {
        assert_eq!(g.outcome(), None, "before {mv}");
        g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // Silver's only turn, db8w, would make the position occur a third
    // time: silver has no legal turn and gold wins.
    let pos = g.position().clone();
    assert_eq!(generate_turns(&pos, |_| false).len(), 1);
    assert_eq!(pos.outcome(), None, "without history silver could move");
    assert_eq!(g.outcome(), win(Color::Gold, EndReason::Immobilization));
    assert_eq!(g.legal_turns(), vec![]);
    let err = g.play("db8w").expect_err("the game is over");
    assert_eq!(err.reason(), Some(&IllegalReason::GameOver));

    // If gold breaks the cycle instead, silver still has its move.
    let mut g = game(Color::Gold, "Da7 Dc8 Rc7 Rb6 Eh1 da8 rb7");
    for mv in cycle.iter().chain(&cycle[..2]) {
        g.play(mv).unwrap();
    }
    g.play("Eg1n").unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_turns().len(), 1);
}

// --- Pushes and pulls ------------------------------------------------------

#[test]
fn a_pull_completes_although_the_puller_was_captured() {
    let pieces = "Hc4 Rh2 rc5 eh8";
    let pos = position(Color::Gold, pieces);
    let mut list = ActionList::new();
    generate_actions(&pos, &mut list);
    let pull = Action::pull(sq("c4"), sq("c3"), sq("c5"));
    assert!(list.as_slice().contains(&pull), "the generator offers it");
    for mv in ["Hc4s Hc3x rc5s", "Hc4s rc5s"] {
        let turn = check_move(&pos, &parse_move(mv).unwrap()).unwrap();
        assert_eq!(turn.notation, "Hc4s Hc3x rc5s");
        assert_eq!(turn.end.piece_at(sq("c4")), Some(Piece::SRabbit));
        assert_eq!(turn.end.piece_at(sq("c3")), None);
        assert_eq!(turn.end.count(Color::Gold, aamir::board::Kind::Horse), 0);
        let turns = generate_turns(&pos, |_| false);
        assert!(turns.iter().any(|t| t.hash == turn.end.hash()));
    }
    // Only a weaker piece may follow: the silver horse is not pulled.
    let pieces = "Hc4 Rh2 hc5 eh8 rh7";
    let err = refused(Color::Gold, pieces, "Hc4s Hc3x hc5s");
    assert_eq!(
        err.to_string(),
        "step 2 `hc5s`: no unfrozen gold piece stronger than the silver horse on c5 \
         stands next to it, so it cannot be pushed"
    );
}

#[test]
fn no_push_and_pull_at_once() {
    // The elephant pushes d5 north and may not pull c4 into d4 with the
    // same two steps.
    let pieces = "Ed4 Rh2 rd5 rc4 eh8";
    let err = refused(Color::Gold, pieces, "rd5n Ed4n rc4e");
    assert_eq!(
        err.reason(),
        Some(&IllegalReason::NoPusher {
            side: Color::Gold,
            victim: Piece::SRabbit,
            square: sq("c4"),
        })
    );
    // No turn of the generator reaches that board either.
    let pos = position(Color::Gold, pieces);
    let mut target = position(Color::Silver, "Ed5 Rh2 rd6 rd4 eh8");
    target.set_side(Color::Silver);
    assert!(
        !generate_turns(&pos, |_| false)
            .iter()
            .any(|t| t.hash == target.hash())
    );
    // Each half on its own is fine.
    play(Color::Gold, pieces, "rd5n Ed4n");
    play(Color::Gold, pieces, "Ed4e rc4e");
}

#[test]
fn the_elephant_is_never_displaced_nor_frozen() {
    let pieces = "Ed4 Rh2 ed5 rh7";
    for (mv, step) in [("ed5n Ed4n", 1), ("Ed4s ed5s", 2), ("Ed4w ed5s", 2)] {
        match refused(Color::Gold, pieces, mv) {
            MoveError::AtStep {
                index,
                reason: IllegalReason::NoPusher { .. },
                ..
            } => assert_eq!(index, step, "{mv}"),
            other => panic!("{mv}: {other}"),
        }
    }
    let pos = position(Color::Gold, pieces);
    let mut list = ActionList::new();
    generate_actions(&pos, &mut list);
    assert!(
        list.as_slice()
            .iter()
            .all(|a| a.steps().all(|s| s.from != sq("d5"))),
        "no action moves the silver elephant"
    );
    // Next to the enemy elephant with no friend, the elephant still moves.
    assert!(!pos.is_frozen(sq("d4")));
    play(Color::Gold, pieces, "Ed4w");
    // Equal pieces never displace each other: camel against camel.
    let err = refused(Color::Gold, "Md4 Rh2 md5 rh7 ea8", "md5n Md4n");
    assert!(matches!(err.reason(), Some(IllegalReason::NoPusher { .. })));
}

#[test]
fn rabbits_never_step_backward_but_can_be_pushed_and_pulled_backward() {
    let err = refused(Color::Gold, "Rd4 Ea1 rh7", "Rd4s");
    assert_eq!(
        err.to_string(),
        "step 1 `Rd4s`: a gold rabbit cannot step south"
    );
    let err = refused(Color::Silver, "Ra1 ea8 rd5", "rd5n");
    assert_eq!(
        err.to_string(),
        "step 1 `rd5n`: a silver rabbit cannot step north"
    );
    // Sideways and forward are fine.
    play(Color::Gold, "Rd4 Ea1 rh7", "Rd4e Re4n");
    // Silver rabbits pushed and pulled north, gold's pushed south.
    play(Color::Gold, "Ed4 Ra1 rd5 eh8", "rd5n Ed4n");
    play(Color::Gold, "Ed6 Ra1 rd5 eh8", "Ed6n rd5n");
    play(Color::Silver, "Rd4 Ra1 ed5 Eh8 rh6", "Rd4s ed5s");
}

#[test]
fn a_frozen_piece_cannot_move_but_a_friend_thaws_it() {
    let err = refused(Color::Gold, "Hd4 Ra1 ed5 rh7", "Hd4w");
    assert_eq!(err.to_string(), "step 1 `Hd4w`: the horse on d4 is frozen");
    // After a friend steps next to it, it may move.
    play(Color::Gold, "Hd4 Re2 ed5 rh7", "Re2n Re3n Hd4w");
}

#[test]
fn a_turn_that_leaves_the_board_unchanged_is_illegal() {
    let pieces = "Ed4 Ra1 rh7 eh8";
    for mv in ["Ed4n Ed5s", "Ed4n Ed5e Ee5s Ee4w"] {
        let err = refused(Color::Gold, pieces, mv);
        assert_eq!(err, MoveError::Whole(IllegalReason::Unchanged), "{mv}");
        assert_eq!(err.to_string(), "the turn leaves the board unchanged");
    }
    // Coming back and then moving on is a change.
    play(Color::Gold, pieces, "Ed4n Ed5s Ed4e");
}

#[test]
fn a_third_repetition_is_illegal() {
    let mut g = game(Color::Gold, "Ed4 Ra1 rh7 eh5");
    let cycle = ["Ed4n", "eh5w", "Ed5s", "eg5e"];
    for mv in cycle.iter().chain(&cycle[..3]) {
        g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    let before = g.clone();
    let err = g.play("eg5e").expect_err("third repetition");
    assert_eq!(err, MoveError::Whole(IllegalReason::ThirdRepetition));
    assert_eq!(
        err.to_string(),
        "the turn would make this position occur for the third time"
    );
    assert_eq!(g, before);
    // Another turn is still legal, and the repeating one is not offered.
    let start = position(Color::Gold, "Ed4 Ra1 rh7 eh5").hash();
    assert!(g.legal_turns().iter().all(|t| t.hash != start));
    g.play("eg5n").unwrap();
}

#[test]
fn the_outcome_of_a_bare_position_uses_the_same_order() {
    // Position::outcome is what the search uses at turn starts.
    let p = |side, pieces| position(side, pieces).outcome();
    // Gold just moved (silver to move): both rabbits on goal -> gold.
    assert_eq!(
        p(Color::Silver, "Ra8 ra1 Eb2 eb7"),
        win(Color::Gold, EndReason::Goal)
    );
    assert_eq!(
        p(Color::Gold, "Ra8 ra1 Eb2 eb7"),
        win(Color::Silver, EndReason::Goal)
    );
    // No rabbits at all: the player (who just moved) wins.
    assert_eq!(
        p(Color::Silver, "Eb2 eb7"),
        win(Color::Gold, EndReason::Elimination)
    );
    assert_eq!(
        p(Color::Gold, "Eb2 eb7"),
        win(Color::Silver, EndReason::Elimination)
    );
    // Silver to move, its only rabbit frozen and boxed: gold wins.
    assert_eq!(
        p(Color::Silver, "Ra2 Ea4 ra5"),
        win(Color::Gold, EndReason::Immobilization)
    );
    assert_eq!(p(Color::Gold, "Ra2 Ea4 ra5"), None);
}
