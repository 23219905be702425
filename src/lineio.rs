//! Reading lines from a peer that may misbehave: a line is kept up to a
//! bound so that a peer sending endless bytes without a newline cannot make
//! the reader hold them all. Used by the AEI session (its controller's
//! input) and the arena (its engines' output).

use std::io::{self, BufRead};

/// Reads one line (without its `\n`) into `out`, keeping at most `max`
/// bytes of it and consuming the rest. `None` at end of input, else whether
/// the line was cut.
pub fn read_line_bounded<R: BufRead>(
    r: &mut R,
    out: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    let mut any = false;
    let mut cut = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let newline = avail.iter().position(|&b| b == b'\n');
        let chunk = &avail[..newline.unwrap_or(avail.len())];
        let room = max.saturating_sub(out.len());
        if chunk.len() > room {
            cut = true;
        }
        out.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(avail.len(), |i| i + 1);
        r.consume(used);
        if newline.is_some() {
            return Ok(Some(cut));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_at_the_bound_and_the_rest_is_consumed() {
        let mut r = io::Cursor::new(b"isready\r\nabc\n\nlast".to_vec());
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while let Some(cut) = read_line_bounded(&mut r, &mut buf, 5).unwrap() {
            lines.push((String::from_utf8_lossy(&buf).into_owned(), cut));
            buf.clear();
        }
        assert_eq!(
            lines,
            [
                ("isrea".to_string(), true),
                ("abc".to_string(), false),
                (String::new(), false),
                ("last".to_string(), false)
            ]
        );
    }

    #[test]
    fn a_line_longer_than_the_reader_buffer_is_cut_once() {
        // A tiny buffer makes the line arrive in many pieces.
        let text = format!("{}\nnext\n", "x".repeat(100));
        let mut r = io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 10).unwrap(), Some(true));
        assert_eq!(buf, b"xxxxxxxxxx");
        buf.clear();
        assert_eq!(
            read_line_bounded(&mut r, &mut buf, 10).unwrap(),
            Some(false)
        );
        assert_eq!(buf, b"next");
        buf.clear();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 10).unwrap(), None);
    }
}
