//! Notation in and out: tokens, moves with and without capture tokens,
//! setups and their rules, the board string, the long diagram, archive
//! move lists with new and old side letters, PV lines, and the wording of
//! the errors a controller or user sees.

mod common;

use aamir::board::legality::check_move;
use aamir::board::notation::{
    Token, board_string, format_pv, format_setup, format_steps, long_diagram, parse_board_string,
    parse_long_diagram, parse_move, parse_pv, parse_side_and_board, parse_token,
};
use aamir::board::record::{parse_archive, parse_movelist, replay};
use aamir::board::{Color, Dir, Game, IllegalReason, MoveError, NotationError, Phase, Piece};
use aamir::board::{Position, Step};
use common::rules::{position, random_setup, random_turn, rng, sq};

fn err_text(pos: &Position, mv: &str) -> String {
    match parse_move(mv) {
        Err(e) => e.to_string(),
        Ok(parsed) => check_move(pos, &parsed)
            .err()
            .unwrap_or_else(|| panic!("`{mv}` should be refused"))
            .to_string(),
    }
}

// --- Tokens and moves ------------------------------------------------------

#[test]
fn tokens_parse_and_print() {
    for (text, tok) in [
        (
            "Ed2n",
            Token::Step {
                piece: Piece::GElephant,
                from: sq("d2"),
                dir: Dir::North,
            },
        ),
        (
            "rh8w",
            Token::Step {
                piece: Piece::SRabbit,
                from: sq("h8"),
                dir: Dir::West,
            },
        ),
        (
            "rc3x",
            Token::Capture {
                piece: Piece::SRabbit,
                square: sq("c3"),
            },
        ),
        (
            "Ma1",
            Token::Place {
                piece: Piece::GCamel,
                square: sq("a1"),
            },
        ),
    ] {
        assert_eq!(parse_token(text), Ok(tok), "{text}");
        assert_eq!(tok.to_string(), text);
    }
}

#[test]
fn bad_tokens_say_what_is_wrong() {
    for (text, msg) in [
        (
            "Xd2n",
            "`Xd2n`: `X` is not a piece letter (one of EMHDCR emhdcr)",
        ),
        ("Ei2n", "`Ei2n`: `i2` is not a square (a1 to h8)"),
        ("Ed9n", "`Ed9n`: `d9` is not a square (a1 to h8)"),
        (
            "Ed2q",
            "`Ed2q`: `q` is not a direction (n, s, e, w) or capture mark (x)",
        ),
        (
            "Ed2nn",
            "`Ed2nn`: a step is 4 characters (`Ed2n`), a capture `rc3x`, a placement `Ra1`",
        ),
        (
            "E",
            "`E`: a step is 4 characters (`Ed2n`), a capture `rc3x`, a placement `Ra1`",
        ),
    ] {
        assert_eq!(parse_token(text).unwrap_err().to_string(), msg);
    }
    assert_eq!(parse_move("  ").unwrap_err(), NotationError::EmptyMove);
    assert_eq!(
        parse_move("Ra1 Ed2n").unwrap_err().to_string(),
        "`Ed2n`: a move mixes setup placements and steps"
    );
    assert_eq!(
        parse_move("Ed2n Ed3n Xd4n").unwrap_err().to_string(),
        "`Xd4n`: `X` is not a piece letter (one of EMHDCR emhdcr)"
    );
}

#[test]
fn a_push_onto_a_trap_writes_the_capture_before_the_pushers_step() {
    let pos = position(Color::Gold, "Hb2 Ra1 rb3 eh8 rh7");
    for mv in ["rb3e rc3x Hb2n", "rb3e Hb2n"] {
        let turn = check_move(&pos, &parse_move(mv).unwrap()).unwrap();
        assert_eq!(turn.notation, "rb3e rc3x Hb2n", "{mv}");
        assert_eq!(turn.end.piece_at(sq("c3")), None);
        assert_eq!(turn.end.piece_at(sq("b3")), Some(Piece::GHorse));
        assert_eq!(
            format_steps(&pos, &turn.steps).unwrap(),
            "rb3e rc3x Hb2n",
            "the writer puts it there too"
        );
    }
    assert_eq!(
        err_text(&pos, "rb3e Hb2n rc3x"),
        "`rc3x`: no silver rabbit was captured on c3 by the step before"
    );
    assert_eq!(
        err_text(&pos, "rb3e rd3x Hb2n"),
        "`rd3x`: no silver rabbit was captured on d3 by the step before"
    );
    assert_eq!(
        err_text(&pos, "Hb2e rc3x"),
        "`rc3x`: no silver rabbit was captured on c3 by the step before"
    );
}

#[test]
fn a_capture_by_a_friend_leaving_is_written_after_that_step() {
    // The dog leaves c2 and the rabbit on c3 falls.
    let pos = position(Color::Gold, "Rc3 Dc2 Ra1 eh8 rh7");
    let turn = check_move(&pos, &parse_move("Dc2w Db2n").unwrap()).unwrap();
    assert_eq!(turn.notation, "Dc2w Rc3x Db2n");
}

#[test]
fn illegal_steps_name_the_step_the_token_and_the_reason() {
    let pos = position(Color::Gold, "Ed2 Ra2 Hd4 Rb5 Dg4 Rh5 ed5 cg5 rh7 rb6");
    for (mv, msg) in [
        ("Ed2e Ee2e Ed2n", "step 3 `Ed2n`: no gold elephant on d2"),
        (
            "Md2n",
            "step 1 `Md2n`: d2 holds a gold elephant, not a gold camel",
        ),
        ("Ra2n Ra2n", "step 2 `Ra2n`: no gold rabbit on a2"),
        ("Ra2s", "step 1 `Ra2s`: a gold rabbit cannot step south"),
        ("Hd4w", "step 1 `Hd4w`: the horse on d4 is frozen"),
        (
            "Ed2e Ee2e Ef2e Eg2e Eh2n",
            "step 5 `Eh2n`: too many steps: at most 4 in this turn",
        ),
        (
            "Ra2n Ra3n Ra4n Ra5e",
            "step 4 `Ra5e`: b5 is occupied by a gold rabbit",
        ),
        (
            "Ra2w",
            "step 1 `Ra2w`: cannot step west off the board from a2",
        ),
        (
            "cg5w",
            "step 1 `cg5w`: the push that emptied g5 must be finished by a stronger piece \
             stepping into g5",
        ),
        (
            "cg5w Rh5w",
            "step 2 `Rh5w`: the gold rabbit is not stronger than the silver cat it would push",
        ),
        (
            "cg5n Ed2n",
            "step 2 `Ed2n`: the push that emptied g5 must be finished by a stronger piece \
             stepping into g5",
        ),
        (
            "rb6n",
            "step 1 `rb6n`: no unfrozen gold piece stronger than the silver rabbit on b6 \
             stands next to it, so it cannot be pushed",
        ),
        (
            "Ed2e Ee2e Ef2e cg5w",
            "step 4 `cg5w`: a push needs two steps and this is the last step of the turn",
        ),
        ("Ed2n Ed3s", "the turn leaves the board unchanged"),
    ] {
        assert_eq!(err_text(&pos, mv), msg, "{mv}");
    }
    // A mid-turn position has only its steps left.
    let mut mid = pos.clone();
    mid.set_steps_left(1);
    assert_eq!(
        err_text(&mid, "Ed2n Ed3n"),
        "step 2 `Ed3n`: too many steps: at most 1 in this turn"
    );
}

// --- Setups ----------------------------------------------------------------

const GOLD_SETUP: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2";
const SILVER_SETUP: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7";

#[test]
fn setups_gold_then_silver_then_play() {
    let mut g = Game::new();
    assert_eq!(g.phase(), Phase::Setup(Color::Gold));
    let p = g.play(GOLD_SETUP).unwrap();
    assert_eq!(p.label, "1g");
    assert_eq!(g.phase(), Phase::Setup(Color::Silver));
    // Written back sorted by square, whatever the input order.
    let shuffled: Vec<&str> = SILVER_SETUP.split(' ').rev().collect();
    let p = g.play(&shuffled.join(" ")).unwrap();
    assert_eq!(p.label, "1s");
    assert_eq!(
        p.notation,
        "da7 hb7 cc7 ed7 me7 cf7 hg7 dh7 ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8"
    );
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.label(), "2g");
    assert_eq!(
        board_string(g.position()),
        "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]"
    );
    assert_eq!(g.position(), &Position::standard_opening());
    assert_eq!(
        format_setup(&[(Piece::GRabbit, sq("b1")), (Piece::GElephant, sq("a1"))]),
        "Ea1 Rb1"
    );
}

#[test]
fn bad_setups_are_refused_with_a_reason_and_change_nothing() {
    let refuse = |g: &mut Game, mv: &str| -> String {
        let before = g.clone();
        let e = g.play(mv).expect_err(mv).to_string();
        assert_eq!(*g, before, "{mv}");
        e
    };
    let mut g = Game::new();
    assert_eq!(
        refuse(&mut g, SILVER_SETUP),
        "step 1 `ra8`: it is gold's turn to set up, not silver's"
    );
    assert_eq!(
        refuse(&mut g, "Ra1 Rb3"),
        "step 2 `Rb3`: b3 is outside gold's setup area (ranks 1-2)"
    );
    assert_eq!(
        refuse(&mut g, "Ra1 Ea1"),
        "step 2 `Ea1`: a1 already has a piece"
    );
    assert_eq!(
        refuse(&mut g, "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ra2"),
        "step 9 `Ra2`: too many rabbits: a side has 8 at most"
    );
    assert_eq!(
        refuse(&mut g, "Ea1 Eb1"),
        "step 2 `Eb1`: too many elephants: a side has 1 at most"
    );
    let fifteen = &GOLD_SETUP[..GOLD_SETUP.len() - 4];
    assert_eq!(
        refuse(&mut g, fifteen),
        "the setup places 15 pieces; a full setup has 16 and only a controller-given \
         handicap may have fewer"
    );
    assert_eq!(
        refuse(&mut g, "Ed2n"),
        "step 1 `Ed2n`: a setup is expected here, not steps"
    );
    // Handicaps only when the controller allows them, still with a rabbit.
    g.set_allow_handicap(true);
    assert_eq!(
        refuse(&mut g, "Ea1 Mb1"),
        "a setup must place at least one rabbit"
    );
    g.play(fifteen).unwrap();
    assert_eq!(
        refuse(&mut g, "ra2"),
        "step 1 `ra2`: a2 is outside silver's setup area (ranks 7-8)"
    );
    g.play("ra8 eh8").unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        refuse(&mut g, "Ra3"),
        "placements are only allowed during the setup phase"
    );
}

// --- Board string and long diagram ----------------------------------------

#[test]
fn board_strings_round_trip_and_bad_ones_are_refused() {
    let text = "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";
    for (side_text, side) in [
        ("g", Color::Gold),
        ("s", Color::Silver),
        ("w", Color::Gold),
        ("b", Color::Silver),
    ] {
        let pos = parse_side_and_board(&format!("{side_text} {text}")).unwrap();
        assert_eq!(pos.side(), side);
        assert_eq!(board_string(&pos), text);
        assert!(pos.is_consistent());
    }
    // Dots for empty squares, as some tools write them, read the same.
    let dots = text.replace(' ', ".");
    assert_eq!(
        parse_board_string(Color::Gold, &dots).unwrap(),
        Position::standard_opening()
    );
    let bad = |t: &str| parse_side_and_board(t).unwrap_err().to_string();
    assert_eq!(
        bad(&format!("x {text}")),
        "`x`: not a side (g, s, or the old w, b)"
    );
    assert_eq!(
        bad("g rrrr"),
        "board string: expected `[` + 64 squares + `]`, got 4 characters not starting with `[`"
    );
    assert_eq!(
        bad("g [rrrr"),
        "board string: expected `[` + 64 squares + `]`, got 5 characters without a closing `]`"
    );
    assert_eq!(
        bad("g [rrrr]"),
        "board string: expected 64 squares between the brackets, got 4"
    );
    let z = text.replace("dhcemchd", "dhczmchd");
    assert_eq!(
        bad(&format!("g {z}")),
        "board string: `z` on d7 is not a piece letter"
    );
    let nine = text.replace("dhcemchd", "dhcemchr");
    assert_eq!(
        bad(&format!("g {nine}")),
        "position: silver has 9 rabbits; a side has 8 at most"
    );
}

#[test]
fn long_diagrams_round_trip_with_any_empty_marks() {
    let mut rng = rng(7);
    let mut positions = vec![Position::standard_opening()];
    let mut g = Game::new();
    g.play(&random_setup(&mut rng, Color::Gold)).unwrap();
    g.play(&random_setup(&mut rng, Color::Silver)).unwrap();
    let mut pos = g.position().clone();
    for _ in 0..60 {
        match random_turn(&mut rng, &pos) {
            Some((_, next)) => pos = next,
            None => break,
        }
        positions.push(pos.clone());
    }
    for (i, pos) in positions.iter().enumerate() {
        let text = long_diagram(pos, i as u32 + 2);
        let d = parse_long_diagram(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(&d.position, pos, "{text}");
        assert_eq!(d.move_number, i as u32 + 2);
        assert!(d.moves_after.is_empty());
        // Dots for empty squares, no trap marks, no file letters, old side
        // letters, indentation: all the same position.
        let variant = text
            .replace(" x", " .")
            .replace("   a b c d e f g h\n", "")
            .replace(&format!("{}{}", i + 2, pos.side().to_char()), &{
                let old = if pos.side() == Color::Gold { 'w' } else { 'b' };
                format!("{}{old}", i + 2)
            });
        let indented: String = variant.lines().map(|l| format!("  {l}\n")).collect();
        assert_eq!(parse_long_diagram(&indented).unwrap().position, *pos);
        let spaces = text.replace(" x", "  ");
        assert_eq!(parse_long_diagram(&spaces).unwrap().position, *pos);
    }
}

#[test]
fn the_rules_page_diagram_and_moves_after_it() {
    let text = "12g
 +-----------------+
8| r r r r r r r r |
7| d h c e m c h d |
6|     x     x     |
5|                 |
4|                 |
3|     x     x     |
2| D H C M E C H D |
1| R R R R R R R R |
 +-----------------+
   a b c d e f g h
";
    let d = parse_long_diagram(text).unwrap();
    assert_eq!(d.position, Position::standard_opening());
    assert_eq!(d.move_number, 12);
    let with_moves = format!("{text}12g Ee2n Ee3n\n12s ed7s\n13w Md2n\n");
    let d = parse_long_diagram(&with_moves).unwrap();
    assert_eq!(d.moves_after, vec!["Ee2n Ee3n", "ed7s", "Md2n"]);
    assert_eq!(d.move_number, 13);
    assert_eq!(d.position.side(), Color::Silver);
    assert_eq!(d.position.piece_at(sq("e4")), Some(Piece::GElephant));
    assert_eq!(d.position.piece_at(sq("d6")), Some(Piece::SElephant));
    assert_eq!(d.position.piece_at(sq("d3")), Some(Piece::GCamel));
    // A `#` line ends the moves.
    let d = parse_long_diagram(&format!("{text}12g Ee2n\n# notes\n12s ed7s\n")).unwrap();
    assert_eq!(d.moves_after, vec!["Ee2n"]);
}

#[test]
fn bad_diagrams_say_which_line_and_why() {
    let good = long_diagram(&Position::standard_opening(), 12);
    let cases = [
        (String::new(), "diagram line 1: the text is empty"),
        (
            good.replacen("12g", "12", 1),
            "diagram line 1: expected the move number and side to move, like `12g`, got `12`",
        ),
        (
            good.replacen("12g", "g12", 1),
            "diagram line 1: expected the move number and side to move, like `12g`, got `g12`",
        ),
        (
            good.replacen(" +-----------------+", " |", 1),
            "diagram line 2: expected a border `+-----------------+`, got `|`",
        ),
        (
            good.replacen("7|", "6|", 1),
            "diagram line 4: expected rank 7 starting `7|`",
        ),
        (
            good.replacen("| d h", "| d q", 1),
            "diagram line 4: `q` on b7 is not a piece letter",
        ),
        (
            good.replacen("| d h", "| r h", 1),
            "position: silver has 9 rabbits; a side has 8 at most",
        ),
        (
            good.lines().take(6).collect::<Vec<_>>().join("\n"),
            "diagram line 1: the diagram ends before rank 1",
        ),
        (
            format!("{good}13g Ee2n\n"),
            "diagram line 13: expected a move labelled `12g`, got `13g`",
        ),
        (
            format!("{good}12g Ee2s\n"),
            "step 1 `Ee2s`: e1 is occupied by a gold rabbit",
        ),
    ];
    for (text, want) in cases {
        let got = parse_long_diagram(&text).unwrap_err().to_string();
        assert_eq!(got, want, "{text}");
    }
}

// --- Archives --------------------------------------------------------------

#[test]
fn archive_move_lists_with_new_and_old_side_letters() {
    let new = format!("1g {GOLD_SETUP}\\n1s {SILVER_SETUP}\\n2g Ee2n Ee3n\\n2s ed7s\\n3g");
    let old = new
        .replace("1g", "1w")
        .replace("1s", "1b")
        .replace("2g", "2w")
        .replace("2s", "2b")
        .replace("3g", "3w");
    let a = parse_movelist(&new).unwrap();
    let b = parse_movelist(&old).unwrap();
    assert_eq!(a.len(), 4, "the empty trailing move is dropped");
    assert_eq!(b.len(), 4);
    let ra = replay(&a).unwrap();
    let rb = replay(&b).unwrap();
    assert_eq!(ra.game.position(), rb.game.position());
    assert_eq!(ra.game.label(), "3g");
    assert_eq!(
        ra.game
            .record()
            .iter()
            .map(|p| p.label.as_str())
            .collect::<Vec<_>>(),
        ["1g", "1s", "2g", "2s"]
    );
    for bad in ["1x Ra1", "g1 Ra1", "1 Ra1", "1gs Ra1"] {
        let e = parse_movelist(bad).unwrap_err().to_string();
        assert!(e.starts_with("record: `"), "{bad}: {e}");
        assert!(e.contains("is not a move label like `12g` or `12w`"), "{e}");
    }
    // Labels must follow the game.
    let skipped = parse_movelist(&format!("1g {GOLD_SETUP}\\n2g Ee2n")).unwrap();
    let e = replay(&skipped).unwrap_err().to_string();
    assert_eq!(e, "move 2g `Ee2n`: record: expected move 1s here");
    let illegal =
        parse_movelist(&format!("1g {GOLD_SETUP}\\n1s {SILVER_SETUP}\\n2g Ee2s")).unwrap();
    let e = replay(&illegal).unwrap_err().to_string();
    assert_eq!(
        e,
        "move 2g `Ee2s`: step 1 `Ee2s`: e1 is occupied by a gold rabbit"
    );
}

#[test]
fn malformed_archives_are_refused() {
    let bad = |t: &str| parse_archive(t).unwrap_err().to_string();
    assert_eq!(bad(""), "record: no header row");
    assert_eq!(bad("# only a comment\n"), "record: no header row");
    assert_eq!(
        bad("id\tresult\n1\tw\n"),
        "record: the header has no `movelist` column"
    );
    assert_eq!(
        bad("id\tmovelist\n1\n"),
        "record: line 2: 1 columns, the header has 2"
    );
    assert_eq!(
        bad("id\tmovelist\n7\tx1 Ra1\n"),
        "record: line 2 (game 7): `x1` is not a move label like `12g` or `12w`"
    );
    let ok = parse_archive("# c\nid\tmovelist\tresult\n7\t1g Ra1\\n\tw\n").unwrap();
    assert_eq!(ok.len(), 1);
    assert_eq!(ok[0].id(), "7");
    assert_eq!(ok[0].winner(), Some(Color::Gold));
}

// --- PV lines --------------------------------------------------------------

#[test]
fn pv_lines_round_trip() {
    let start = Position::standard_opening();
    let turns = vec![
        vec![Step::new(sq("e2"), sq("e3")), Step::new(sq("e3"), sq("e4"))],
        vec![Step::new(sq("d7"), sq("d6")), Step::new(sq("d6"), sq("d5"))],
        vec![Step::new(sq("e4"), sq("e5"))],
    ];
    let text = format_pv(&start, &turns).unwrap();
    assert_eq!(text, "Ee2n Ee3n s ed7s ed6s g Ee4n");
    assert_eq!(parse_pv(&start, &text).unwrap(), turns);
    // The first turn may also carry its side letter.
    assert_eq!(parse_pv(&start, &format!("g {text}")).unwrap(), turns);
    // A PV with a capture token reads back the same.
    let pos = position(Color::Gold, "Hb2 Ra1 rb3 eh8 rh7");
    let push = vec![vec![
        Step::new(sq("b3"), sq("c3")),
        Step::new(sq("b2"), sq("b3")),
    ]];
    let text = format_pv(&pos, &push).unwrap();
    assert_eq!(text, "rb3e rc3x Hb2n");
    assert_eq!(parse_pv(&pos, &text).unwrap(), push);
    let bad = |t: &str| parse_pv(&start, t).unwrap_err().to_string();
    assert_eq!(bad("Ee2n g Ee3n"), "`g`: silver is to move here");
    assert_eq!(
        bad("Ee2n q ed7s"),
        "`q`: not a side (g, s, or the old w, b)"
    );
    assert_eq!(
        bad("Ee2n s ed7n"),
        "step 1 `ed7n`: d8 is occupied by a silver rabbit"
    );
}

#[test]
fn step_tokens_and_move_errors_are_typed() {
    let pos = Position::standard_opening();
    let e = check_move(&pos, &parse_move("Ee2n Ee3n Ee2n").unwrap()).unwrap_err();
    assert_eq!(
        e,
        MoveError::AtStep {
            index: 3,
            token: "Ee2n".into(),
            reason: IllegalReason::NoPiece {
                piece: Piece::GElephant,
                square: sq("e2"),
            },
        }
    );
    assert_eq!(
        e.reason(),
        Some(&IllegalReason::NoPiece {
            piece: Piece::GElephant,
            square: sq("e2")
        })
    );
    let e = MoveError::from(parse_move("").unwrap_err());
    assert_eq!(e.reason(), None);
}
