//! Reading and writing Arimaa notation: step, capture and placement tokens,
//! whole moves, PV lines, the AEI board string and the long diagram.

use super::error::{MoveError, NotationError};
use super::position::Position;
use super::stepgen::Step;
use super::types::{Color, Dir, Piece, Square};

/// One token of a move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Token {
    /// `Ed2n`
    Step {
        piece: Piece,
        from: Square,
        dir: Dir,
    },
    /// `rc3x`
    Capture { piece: Piece, square: Square },
    /// `Ra1`
    Place { piece: Piece, square: Square },
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Token::Step { piece, from, dir } => write!(f, "{piece}{from}{}", dir.to_char()),
            Token::Capture { piece, square } => write!(f, "{piece}{square}x"),
            Token::Place { piece, square } => write!(f, "{piece}{square}"),
        }
    }
}

/// Parses one token.
pub fn parse_token(tok: &str) -> Result<Token, NotationError> {
    let chars: Vec<char> = tok.chars().collect();
    if chars.len() != 3 && chars.len() != 4 {
        return Err(NotationError::BadLength { token: tok.into() });
    }
    let piece = Piece::from_char(chars[0]).ok_or_else(|| NotationError::BadPiece {
        token: tok.into(),
        letter: chars[0],
    })?;
    let sq_text: String = chars[1..3].iter().collect();
    let square = Square::parse(&sq_text).ok_or_else(|| NotationError::BadSquare {
        token: tok.into(),
        text: sq_text.clone(),
    })?;
    if chars.len() == 3 {
        return Ok(Token::Place { piece, square });
    }
    match chars[3] {
        'x' => Ok(Token::Capture { piece, square }),
        c => match Dir::from_char(c) {
            Some(dir) => Ok(Token::Step {
                piece,
                from: square,
                dir,
            }),
            None => Err(NotationError::BadDirection {
                token: tok.into(),
                letter: c,
            }),
        },
    }
}

/// A move as written: either placements (a setup) or steps with optional
/// capture tokens. Keeps each token's text for error messages.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParsedMove {
    pub tokens: Vec<(Token, String)>,
}

impl ParsedMove {
    pub fn is_setup(&self) -> bool {
        matches!(self.tokens.first(), Some((Token::Place { .. }, _)))
    }
}

/// Parses a move: whitespace-separated tokens, all placements or all
/// steps/captures.
pub fn parse_move(text: &str) -> Result<ParsedMove, NotationError> {
    let mut tokens = Vec::new();
    for t in text.split_whitespace() {
        tokens.push((parse_token(t)?, t.to_string()));
    }
    if tokens.is_empty() {
        return Err(NotationError::EmptyMove);
    }
    let setup = matches!(tokens[0].0, Token::Place { .. });
    for (tok, text) in &tokens {
        if matches!(tok, Token::Place { .. }) != setup {
            return Err(NotationError::MixedSetupAndSteps {
                token: text.clone(),
            });
        }
    }
    Ok(ParsedMove { tokens })
}

/// Writes the steps of a turn played from `pos`, with capture tokens where
/// official records put them: right after the step that caused the capture
/// (for a push onto a trap, after the pushed piece's step, before the
/// pusher's). Fails only if a step does not start on a piece.
pub fn format_steps(pos: &Position, steps: &[Step]) -> Result<String, MoveError> {
    let mut p = pos.clone();
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        let piece = p.piece_at(s.from).ok_or_else(|| MoveError::AtStep {
            index: i + 1,
            token: format!("{}", s.from),
            reason: super::error::IllegalReason::EmptySquare { square: s.from },
        })?;
        if !out.is_empty() {
            out.push(' ');
        }
        let dir = s
            .from
            .dir_to(s.to)
            .ok_or(MoveError::Notation(NotationError::BadPosition(format!(
                "{} and {} are not adjacent",
                s.from, s.to
            ))))?;
        out.push_str(&format!("{piece}{}{}", s.from, dir.to_char()));
        if let Some(cap) = p.move_piece(s.from, s.to) {
            out.push_str(&format!(" {}{}x", cap.piece, cap.square));
        }
    }
    Ok(out)
}

/// Writes a setup as placements, in a stable order (by square).
pub fn format_setup(placements: &[(Piece, Square)]) -> String {
    let mut v = placements.to_vec();
    v.sort_by_key(|&(_, sq)| sq);
    v.iter()
        .map(|(p, sq)| format!("{p}{sq}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `[` + 64 characters + `]`, a8..h8 first, space for empty.
pub fn board_string(pos: &Position) -> String {
    let mut s = String::with_capacity(66);
    s.push('[');
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            s.push(pos.piece_at(sq).map_or(' ', |p| p.to_char()));
        }
    }
    s.push(']');
    s
}

/// Parses the AEI board string for `side` to move with a fresh turn.
pub fn parse_board_string(side: Color, text: &str) -> Result<Position, NotationError> {
    let pos = parse_board_cells(side, text)?;
    check_piece_counts(&pos)?;
    Ok(pos)
}

/// [`parse_board_string`] without the piece-count check, for test suites
/// from elsewhere that give a side, say, three dogs: questions like "fewest
/// steps to goal" are still well defined there. The engine itself refuses
/// such boards (its material tables assume real armies).
pub fn parse_board_cells(side: Color, text: &str) -> Result<Position, NotationError> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| {
            NotationError::BadBoard(format!(
                "expected `[` + 64 squares + `]`, got {} characters{}",
                text.chars().count(),
                if text.starts_with('[') {
                    " without a closing `]`"
                } else {
                    " not starting with `[`"
                }
            ))
        })?;
    let chars: Vec<char> = inner.chars().collect();
    if chars.len() != 64 {
        return Err(NotationError::BadBoard(format!(
            "expected 64 squares between the brackets, got {}",
            chars.len()
        )));
    }
    let mut pos = Position::empty(side);
    for (i, &c) in chars.iter().enumerate() {
        let sq = Square::from_coords((i % 8) as u8, 7 - (i / 8) as u8);
        if c == ' ' || c == '.' || c == 'x' || c == 'X' {
            continue;
        }
        let piece = Piece::from_char(c).ok_or_else(|| {
            NotationError::BadBoard(format!("`{c}` on {sq} is not a piece letter"))
        })?;
        pos.put(piece, sq);
    }
    Ok(pos)
}

/// Refuses boards no game can reach: more pieces of a kind than a side owns.
pub fn check_piece_counts(pos: &Position) -> Result<(), NotationError> {
    for color in Color::BOTH {
        for kind in super::types::Kind::ALL {
            let n = pos.count(color, kind);
            if n > kind.full_count() {
                return Err(NotationError::BadPosition(format!(
                    "{} has {n} {}s; a side has {} at most",
                    color.name(),
                    kind.name(),
                    kind.full_count()
                )));
            }
        }
    }
    Ok(())
}

/// Parses `g [board]` / `s [board]` (and old `w`/`b`), as in AEI `setposition`.
pub fn parse_side_and_board(text: &str) -> Result<Position, NotationError> {
    let text = text.trim();
    let (side_tok, rest) = text.split_once(' ').unwrap_or((text, ""));
    let mut cs = side_tok.chars();
    let side = match (cs.next(), cs.next()) {
        (Some(c), None) => Color::from_char(c),
        _ => None,
    }
    .ok_or_else(|| NotationError::BadSide {
        token: side_tok.into(),
    })?;
    parse_board_string(side, rest.trim())
}

/// The long diagram, as AEI's analyze tool and most bots write it, headed by
/// the move number and side (`12g`).
pub fn long_diagram(pos: &Position, move_number: u32) -> String {
    let mut s = format!(
        "{move_number}{}\n +-----------------+\n",
        pos.side().to_char()
    );
    for rank in (0..8).rev() {
        s.push_str(&format!("{}|", rank + 1));
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let c = match pos.piece_at(sq) {
                Some(p) => p.to_char(),
                None if sq.is_trap() => 'x',
                None => ' ',
            };
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str(" +-----------------+\n   a b c d e f g h\n");
    s
}

/// A position read from a long diagram, with its move number; moves listed
/// after the diagram (`12g Ed2n ...`) are played on it.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub move_number: u32,
    pub position: Position,
    /// Moves after the diagram, already applied to `position`.
    pub moves_after: Vec<String>,
}

/// Parses a long diagram.
pub fn parse_long_diagram(text: &str) -> Result<Diagram, MoveError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let bad = |line: usize, reason: String| {
        MoveError::Notation(NotationError::BadDiagram { line, reason })
    };
    let Some(&(hline, header)) = lines.first() else {
        return Err(bad(1, "the text is empty".into()));
    };
    let digits: String = header.chars().take_while(|c| c.is_ascii_digit()).collect();
    let side_char = header[digits.len()..].chars().next();
    let (move_number, side) = match (digits.parse::<u32>(), side_char.and_then(Color::from_char)) {
        (Ok(n), Some(c)) if header.len() == digits.len() + 1 => (n, c),
        _ => {
            return Err(bad(
                hline,
                format!("expected the move number and side to move, like `12g`, got `{header}`"),
            ));
        }
    };
    let mut pos = Position::empty(side);
    let border = |i: usize| -> Result<(), MoveError> {
        match lines.get(i) {
            Some(&(_, l))
                if l.starts_with('+')
                    && l.trim_end_matches('+').chars().skip(1).all(|c| c == '-') =>
            {
                Ok(())
            }
            Some(&(n, l)) => Err(bad(
                n,
                format!("expected a border `+-----------------+`, got `{l}`"),
            )),
            None => Err(bad(hline, "the diagram ends early".into())),
        }
    };
    border(1)?;
    for r in 0..8u8 {
        let rank = 7 - r;
        let Some(&(n, l)) = lines.get(2 + r as usize) else {
            return Err(bad(hline, "the diagram ends before rank 1".into()));
        };
        let chars: Vec<char> = l.chars().collect();
        if chars.first() != Some(&char::from(b'1' + rank)) || chars.get(1) != Some(&'|') {
            return Err(bad(
                n,
                format!("expected rank {} starting `{}|`", rank + 1, rank + 1),
            ));
        }
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank);
            let c = chars.get(3 + 2 * file as usize).copied().unwrap_or(' ');
            if matches!(c, ' ' | '.' | 'x' | 'X') {
                continue;
            }
            let piece = Piece::from_char(c)
                .ok_or_else(|| bad(n, format!("`{c}` on {sq} is not a piece letter")))?;
            pos.put(piece, sq);
        }
    }
    border(10)?;
    check_piece_counts(&pos)?;
    let mut rest = 11;
    if let Some(&(_, l)) = lines.get(rest)
        && l.split_whitespace()
            .all(|t| t.len() == 1 && t.chars().all(|c| ('a'..='h').contains(&c)))
    {
        rest += 1;
    }
    let mut number = move_number;
    let mut moves_after = Vec::new();
    for &(n, l) in &lines[rest.min(lines.len())..] {
        if l.starts_with('#') {
            break;
        }
        let (label, mv) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let expect = format!("{number}{}", pos.side().to_char());
        let alt = format!(
            "{number}{}",
            if pos.side() == Color::Gold { 'w' } else { 'b' }
        );
        if label != expect && label != alt {
            return Err(bad(
                n,
                format!("expected a move labelled `{expect}`, got `{label}`"),
            ));
        }
        if mv.trim().is_empty() {
            continue;
        }
        let parsed = parse_move(mv)?;
        let checked = super::legality::check_move(&pos, &parsed)?;
        pos = checked.end;
        if pos.side() == Color::Gold {
            number += 1;
        }
        moves_after.push(mv.trim().to_string());
    }
    Ok(Diagram {
        move_number: number,
        position: pos,
        moves_after,
    })
}

/// Writes a principal variation: the first turn bare, later turns prefixed
/// by their side (`Ed2n Ed3n s ee7s ee6s g Ed4n`).
pub fn format_pv(start: &Position, turns: &[Vec<Step>]) -> Result<String, MoveError> {
    let mut pos = start.clone();
    let mut parts = Vec::new();
    for (i, steps) in turns.iter().enumerate() {
        if i > 0 {
            parts.push(pos.side().to_char().to_string());
        }
        parts.push(format_steps(&pos, steps)?);
        for s in steps {
            pos.move_piece(s.from, s.to);
        }
        pos.pass_turn();
    }
    Ok(parts.join(" "))
}

/// Reads a PV line back into turns, checking each against the rules.
pub fn parse_pv(start: &Position, text: &str) -> Result<Vec<Vec<Step>>, MoveError> {
    let mut pos = start.clone();
    let mut turns = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut flush = |current: &mut Vec<&str>, pos: &mut Position| -> Result<(), MoveError> {
        if current.is_empty() {
            return Ok(());
        }
        let parsed = parse_move(&current.join(" "))?;
        let checked = super::legality::check_move(pos, &parsed)?;
        turns.push(checked.steps.clone());
        *pos = checked.end;
        current.clear();
        Ok(())
    };
    for tok in text.split_whitespace() {
        if tok.len() == 1 {
            let side = Color::from_char(tok.chars().next().unwrap_or('?'))
                .ok_or_else(|| MoveError::Notation(NotationError::BadSide { token: tok.into() }))?;
            flush(&mut current, &mut pos)?;
            if side != pos.side() {
                return Err(MoveError::Notation(NotationError::WrongSide {
                    token: tok.into(),
                    expected: pos.side(),
                }));
            }
        } else {
            current.push(tok);
        }
    }
    flush(&mut current, &mut pos)?;
    Ok(turns)
}
