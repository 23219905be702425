//! The engine-to-controller half of AEI, parsed strictly: a line is one of
//! the messages the protocol defines, or it is garbage. The referee decides
//! which messages are acceptable when.

/// One line an engine printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    ProtocolVersion(String),
    Id {
        key: String,
        value: String,
    },
    AeiOk,
    ReadyOk,
    /// The move text after `bestmove` (may be empty, which is illegal).
    BestMove(String),
    Info(String),
    Log(String),
    /// Whitespace only: ignored, as every controller does.
    Blank,
    /// Anything else.
    Garbage(String),
}

/// Parses one line (without its line ending). Message names are matched
/// case-sensitively, as the specification writes them.
pub fn parse_engine_line(line: &str) -> EngineLine {
    let t = line.trim();
    if t.is_empty() {
        return EngineLine::Blank;
    }
    let (head, rest) = match t.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (t, ""),
    };
    match head {
        "protocol-version" if !rest.is_empty() => EngineLine::ProtocolVersion(rest.to_string()),
        "id" => match rest.split_once(char::is_whitespace) {
            Some((k, v)) => EngineLine::Id {
                key: k.to_string(),
                value: v.trim().to_string(),
            },
            None if !rest.is_empty() => EngineLine::Id {
                key: rest.to_string(),
                value: String::new(),
            },
            None => EngineLine::Garbage(line.to_string()),
        },
        "aeiok" if rest.is_empty() => EngineLine::AeiOk,
        "readyok" if rest.is_empty() => EngineLine::ReadyOk,
        "bestmove" => EngineLine::BestMove(rest.to_string()),
        "info" => EngineLine::Info(rest.to_string()),
        "log" => EngineLine::Log(rest.to_string()),
        _ => EngineLine::Garbage(line.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_message() {
        use EngineLine::*;
        assert_eq!(
            parse_engine_line("protocol-version 1"),
            ProtocolVersion("1".into())
        );
        assert_eq!(
            parse_engine_line("id name Sample Engine"),
            Id {
                key: "name".into(),
                value: "Sample Engine".into()
            }
        );
        assert_eq!(parse_engine_line("aeiok\r"), AeiOk);
        assert_eq!(parse_engine_line("  readyok "), ReadyOk);
        assert_eq!(
            parse_engine_line("bestmove Ed2n Ed3n"),
            BestMove("Ed2n Ed3n".into())
        );
        assert_eq!(parse_engine_line("bestmove"), BestMove("".into()));
        assert_eq!(parse_engine_line("info score 12"), Info("score 12".into()));
        assert_eq!(parse_engine_line("log Error: x"), Log("Error: x".into()));
        assert_eq!(parse_engine_line("   "), Blank);
    }

    #[test]
    fn anything_else_is_garbage() {
        for g in [
            "hello",
            "Bestmove Ed2n",
            "readyok now",
            "aeiok!",
            "id",
            "protocol-version",
            "bestmoveEd2n",
        ] {
            assert!(
                matches!(parse_engine_line(g), EngineLine::Garbage(_)),
                "{g}"
            );
        }
    }
}
