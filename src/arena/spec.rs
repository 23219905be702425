//! What the user asks for: engines (`--engine name=...,cmd=...`) and the
//! match settings, parsed into typed values with errors that say which part
//! of the input was wrong.

use crate::timeman::TimeControl;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// Unique name, used in records and statistics.
    pub name: String,
    /// Program and arguments (already split into words).
    pub command: Vec<String>,
    /// Working directory for the process, if not the current one.
    pub dir: Option<PathBuf>,
    /// `setoption` values sent after the handshake, in the order given.
    pub options: Vec<(String, String)>,
    /// A time control for this engine only (time odds), else the match's.
    pub tc: Option<String>,
}

/// Splits a command line into words the way a POSIX shell would for plain
/// words: whitespace separates, single quotes keep everything, double
/// quotes keep everything but `\"` and `\\`, a backslash escapes the next
/// character. No variables, globbing or redirection: the program is run
/// directly, never through a shell.
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed single quote in `{s}`")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(format!("unclosed double quote in `{s}`")),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed double quote in `{s}`")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => cur.push(c),
                    None => return Err(format!("`{s}` ends with a lone backslash")),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// Splits `a=1,b=2` at commas not escaped as `\,`.
fn split_fields(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&',') {
            cur.push(',');
            chars.next();
        } else if c == ',' {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out
}

/// Parses `name=NAME,cmd=COMMAND[,dir=DIR][,tc=TC][,option.NAME=VALUE]...`.
/// `cmd` may be left out to mean this aamir binary's AEI session;
/// `self_exe` is that command. A literal comma inside a value is `\,`.
pub fn parse_engine_spec(spec: &str, self_exe: &[String]) -> Result<EngineSpec, String> {
    let mut name = None;
    let mut command = None;
    let mut dir = None;
    let mut tc = None;
    let mut options = Vec::new();
    for field in split_fields(spec) {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        let Some((key, value)) = field.split_once('=') else {
            return Err(format!(
                "engine `{spec}`: `{field}` is not key=value (keys: name, cmd, dir, tc, option.NAME)"
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "name" => name = Some(value.to_string()),
            "cmd" => {
                let words = split_words(value).map_err(|e| format!("engine `{spec}`: {e}"))?;
                if words.is_empty() {
                    return Err(format!("engine `{spec}`: `cmd` is empty"));
                }
                command = Some(words);
            }
            "dir" => dir = Some(PathBuf::from(value)),
            "tc" => {
                TimeControl::parse(value).map_err(|e| format!("engine `{spec}`: {e}"))?;
                tc = Some(value.to_string());
            }
            k => match k.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() && !opt.contains(char::is_whitespace) => {
                    options.push((opt.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "engine `{spec}`: unknown key `{k}` (keys: name, cmd, dir, tc, option.NAME)"
                    ));
                }
            },
        }
    }
    let name = name.ok_or_else(|| format!("engine `{spec}`: needs name=..."))?;
    if name.is_empty() || name.contains(['\t', '\n', '"']) {
        return Err(format!(
            "engine `{spec}`: the name must be non-empty and contain no tab, newline or quote"
        ));
    }
    Ok(EngineSpec {
        name,
        command: command.unwrap_or_else(|| self_exe.to_vec()),
        dir,
        options,
        tc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words_like_a_shell() {
        assert_eq!(
            split_words(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert!(split_words("a 'b").is_err());
        assert!(split_words("a \"b").is_err());
    }

    #[test]
    fn parses_engine_specs() {
        let me = vec!["/bin/aamir".to_string()];
        let e = parse_engine_spec(
            "name=fast,cmd=python3 eng.py --x,dir=/tmp,option.hash=64,option.depth=4,tc=1s/5s",
            &me,
        )
        .unwrap();
        assert_eq!(e.name, "fast");
        assert_eq!(e.command, vec!["python3", "eng.py", "--x"]);
        assert_eq!(e.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            e.options,
            vec![("hash".into(), "64".into()), ("depth".into(), "4".into())]
        );
        assert_eq!(e.tc.as_deref(), Some("1s/5s"));
        let e = parse_engine_spec("name=self", &me).unwrap();
        assert_eq!(e.command, me);
        let e = parse_engine_spec(r"name=x,cmd=echo a\,b", &me).unwrap();
        assert_eq!(e.command, vec!["echo", "a,b"]);
    }

    #[test]
    fn rejects_bad_specs() {
        let me = vec!["aamir".to_string()];
        for bad in [
            "cmd=x",
            "name=a,cmd=",
            "name=a,colour=red",
            "name=a,option.=1",
            "name=a,tc=5q/1",
            "name=a,justtext",
            "name=a\tb",
        ] {
            assert!(parse_engine_spec(bad, &me).is_err(), "{bad}");
        }
    }
}
