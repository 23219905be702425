//! The AEI line protocol as pure functions: a controller's line parsed into
//! a typed [`Command`] (or a typed error naming what was wrong), and the
//! engine's answers written as lines. No I/O, no state: the session owns
//! those.

use crate::board::Position;
use crate::board::error::NotationError;
use crate::board::notation::{parse_move, parse_side_and_board};
use thiserror::Error;

/// A message from the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `aei`: opens the session.
    Aei,
    /// `isready`: answer `readyok` once everything before it is done.
    IsReady,
    /// `newgame`: empty board, gold to set up, reserves reset.
    NewGame,
    /// `setposition <side> [board]`.
    SetPosition(Position),
    /// `setoption name <id> [value <x>]`; the value is everything after
    /// `value `, kept as text (the option decides how to read it).
    SetOption { name: String, value: Option<String> },
    /// `makemove <steps>`: a setup or a move, already known to be notation
    /// (legality is the game's business).
    MakeMove(String),
    /// `go` or `go ponder`.
    Go { ponder: bool },
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A blank line: not a message at all.
    #[error("empty line")]
    Empty,
    /// The message type is not part of AEI: the spec asks the engine to
    /// report it and exit.
    #[error(
        "unrecognised message `{word}` (AEI messages: aei, isready, newgame, setposition, setoption, makemove, go, stop, quit)"
    )]
    Unknown { word: String },
    /// A known message with arguments that do not fit it: reported, ignored.
    #[error("`{command}`: {reason}")]
    Malformed {
        command: &'static str,
        reason: String,
    },
}

impl ParseError {
    /// True when the session must end (an unrecognised message).
    pub fn is_fatal(&self) -> bool {
        matches!(self, ParseError::Unknown { .. })
    }
}

fn malformed(command: &'static str, reason: impl Into<String>) -> ParseError {
    ParseError::Malformed {
        command,
        reason: reason.into(),
    }
}

/// Parses one line (line ending already removed or not: surrounding
/// whitespace is ignored). The message type extends to the first space.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let no_args = |command: &'static str, c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(malformed(
                command,
                format!("takes no arguments, got `{rest}`"),
            ))
        }
    };
    match word {
        "aei" => no_args("aei", Command::Aei),
        "isready" => no_args("isready", Command::IsReady),
        "newgame" => no_args("newgame", Command::NewGame),
        "stop" => no_args("stop", Command::Stop),
        "quit" => no_args("quit", Command::Quit),
        "go" => match rest {
            "" => Ok(Command::Go { ponder: false }),
            "ponder" => Ok(Command::Go { ponder: true }),
            other => Err(malformed(
                "go",
                format!("expected nothing or `ponder`, got `{other}`"),
            )),
        },
        "setposition" => parse_setposition(rest),
        "setoption" => parse_setoption(rest),
        "makemove" => {
            if rest.is_empty() {
                return Err(malformed("makemove", "no move given"));
            }
            parse_move(rest).map_err(|e| malformed("makemove", e.to_string()))?;
            Ok(Command::MakeMove(rest.to_string()))
        }
        _ => Err(ParseError::Unknown {
            word: word.chars().take(40).collect(),
        }),
    }
}

fn parse_setposition(rest: &str) -> Result<Command, ParseError> {
    if rest.is_empty() {
        return Err(malformed(
            "setposition",
            "expected a side (g or s) and a board `[...]`",
        ));
    }
    parse_side_and_board(rest)
        .map(Command::SetPosition)
        .map_err(|e: NotationError| malformed("setposition", e.to_string()))
}

/// `name <id> [value <x>]`. The id runs to ` value ` (or the end); the
/// value is everything after `value ` with outer whitespace trimmed.
fn parse_setoption(rest: &str) -> Result<Command, ParseError> {
    let Some(after_name) = rest.strip_prefix("name") else {
        return Err(malformed(
            "setoption",
            format!("expected `name <id> [value <x>]`, got `{rest}`"),
        ));
    };
    if !after_name.is_empty() && !after_name.starts_with(char::is_whitespace) {
        return Err(malformed(
            "setoption",
            format!("expected `name <id> [value <x>]`, got `{rest}`"),
        ));
    }
    let after_name = after_name.trim_start();
    let (name, value) = match find_value_keyword(after_name) {
        Some((name, value)) => (name.trim(), Some(value.trim().to_string())),
        None => (after_name.trim(), None),
    };
    if name.is_empty() {
        return Err(malformed("setoption", "the option name is missing"));
    }
    Ok(Command::SetOption {
        name: name.to_string(),
        value,
    })
}

/// Splits `<id> value <x>` at the first whole word `value` after the id's
/// first word (so an option may itself be called `value`).
fn find_value_keyword(text: &str) -> Option<(&str, &str)> {
    let mut start = 0;
    for (i, word) in text.split_inclusive(char::is_whitespace).enumerate() {
        let w = word.trim_end();
        if w == "value" && i > 0 {
            return Some((&text[..start], &text[start + word.len()..]));
        }
        start += word.len();
    }
    None
}

/// The engine's side of the protocol, as text lines.
pub mod reply {
    /// `info <type> <value>`.
    pub fn info(kind: &str, value: impl std::fmt::Display) -> String {
        format!("info {kind} {value}")
    }

    /// `log <text>`, kept on one line whatever the text holds, with every
    /// control character written as a Rust escape (`\u{1b}`, `\0`, `\t`):
    /// log lines echo the controller's input, and a raw escape sequence,
    /// bell or NUL would reach its screen or its parser. A line break of
    /// the engine's own text becomes a space.
    pub fn log(text: &str) -> String {
        let mut line = String::from("log ");
        for c in text.chars() {
            match c {
                '\n' => line.push(' '),
                c if c.is_control() => line.extend(c.escape_debug()),
                c => line.push(c),
            }
        }
        line
    }

    pub fn bestmove(mv: &str) -> String {
        format!("bestmove {mv}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn ok(line: &str) -> Command {
        parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    fn bad(line: &str) -> ParseError {
        parse_command(line).expect_err(line)
    }

    #[test]
    fn simple_messages() {
        assert_eq!(ok("aei"), Command::Aei);
        assert_eq!(ok("isready\r"), Command::IsReady);
        assert_eq!(ok("  newgame  "), Command::NewGame);
        assert_eq!(ok("go"), Command::Go { ponder: false });
        assert_eq!(ok("go ponder"), Command::Go { ponder: true });
        assert_eq!(ok("go   ponder\n"), Command::Go { ponder: true });
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
    }

    #[test]
    fn unknown_is_fatal_malformed_is_not() {
        let e = bad("hello there");
        assert!(e.is_fatal(), "{e}");
        assert!(e.to_string().contains("`hello`"), "{e}");
        // Message types are case-sensitive, as in the spec.
        assert!(bad("ISREADY").is_fatal());
        let e = bad("go fast");
        assert!(!e.is_fatal());
        assert!(e.to_string().contains("`fast`"), "{e}");
        assert!(!bad("isready now").is_fatal());
        assert_eq!(bad("   "), ParseError::Empty);
    }

    #[test]
    fn setposition_keeps_the_spaces_in_the_board() {
        let line =
            "setposition g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
        let Command::SetPosition(pos) = ok(line) else {
            panic!("not a setposition");
        };
        assert_eq!(pos.side(), Color::Gold);
        assert_eq!(pos.occupied().count(), 32);
        let Command::SetPosition(pos) = ok(&line.replace(" g ", " b ")) else {
            panic!("not a setposition");
        };
        assert_eq!(pos.side(), Color::Silver);
        let e = bad("setposition g [rrrr]");
        assert!(!e.is_fatal());
        assert!(e.to_string().contains("64"), "{e}");
        assert!(
            bad("setposition x [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
                .to_string()
                .contains("`x`")
        );
        assert!(!bad("setposition").is_fatal());
    }

    #[test]
    fn setoption_name_and_value() {
        assert_eq!(
            ok("setoption name tcmove value 15"),
            Command::SetOption {
                name: "tcmove".into(),
                value: Some("15".into())
            }
        );
        assert_eq!(
            ok("setoption name opponent value bot Clueless 2009"),
            Command::SetOption {
                name: "opponent".into(),
                value: Some("bot Clueless 2009".into())
            }
        );
        assert_eq!(
            ok("setoption name event value"),
            Command::SetOption {
                name: "event".into(),
                value: Some(String::new())
            }
        );
        assert_eq!(
            ok("setoption name rated"),
            Command::SetOption {
                name: "rated".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name event value  World Championship 2010 "),
            Command::SetOption {
                name: "event".into(),
                value: Some("World Championship 2010".into())
            }
        );
        assert!(!bad("setoption tcmove 15").is_fatal());
        assert!(!bad("setoption name").is_fatal());
        assert!(!bad("setoption names x").is_fatal());
    }

    #[test]
    fn makemove_checks_notation_only() {
        assert_eq!(
            ok("makemove Ed2n Ed3n rc6s rc5x"),
            Command::MakeMove("Ed2n Ed3n rc6s rc5x".into())
        );
        // Legality is not the parser's business: this parses.
        assert_eq!(ok("makemove Ea1n"), Command::MakeMove("Ea1n".into()));
        let e = bad("makemove Ed2q");
        assert!(e.to_string().contains("Ed2q"), "{e}");
        assert!(!bad("makemove").is_fatal());
        assert!(!bad("makemove Ra1 Ed2n").is_fatal());
    }

    #[test]
    fn arbitrary_text_never_panics() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(1);
        let alphabet: Vec<char> = "aeimnosgw []EMHDCRemhdcrx12345678 \t\u{0}é\u{fffd}"
            .chars()
            .collect();
        for _ in 0..20_000 {
            let len = rng.random_range(0..90);
            let line: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            for prefix in ["", "makemove ", "setposition g ", "setoption name "] {
                let _ = parse_command(&format!("{prefix}{line}"));
            }
        }
    }

    #[test]
    fn replies() {
        assert_eq!(reply::info("depth", "8+"), "info depth 8+");
        assert_eq!(reply::log("Error: a\nb"), "log Error: a b");
        assert_eq!(
            reply::log("x \u{1b}[2J\u{7}\0\r\t\u{7f}\u{85} é"),
            r"log x \u{1b}[2J\u{7}\0\r\t\u{7f}\u{85} é"
        );
        assert_eq!(reply::bestmove("Ed2n"), "bestmove Ed2n");
    }
}
