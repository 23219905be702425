//! `aamir pack`: labelled positions in a compact binary file for
//! `aamir train`.
//!
//! Each record is 32 bytes:
//!
//! ```text
//! 0..8    occupied squares, u64 (a1 = bit 0)
//! 8..24   the pieces on them in square order, a nibble each (the
//!         piece's index: gold rabbit 0 .. silver elephant 11), low first
//! 24      side to move (0 gold, 1 silver)
//! 25      game result for the side to move (0 lost, 1 won, 2 unknown)
//! 26      split bucket, 0..=99 (hash of the game's name: a game's
//!         positions share it, as `tune-terms` splits them)
//! 27      flags: bit 0 quiet (no goal threat of either side and no
//!         capture for the side to move within its turn)
//! 28..32  the teacher's score for the side to move, i32
//! ```
//!
//! The file starts with the 8 bytes `AAMIRPK1`. Positions are kept once:
//! a repeat (same pieces, same side to move) is dropped.

use super::auc::read_scores;
use super::data::{par_map, read_all};
use super::{fnv1a, is_quiet};
use crate::board::{Color, Piece, Position, Square};
use crate::outln;
use anyhow::{Context, Result, bail, ensure};
use std::collections::HashSet;
use std::io::Write;

const MAGIC: &[u8; 8] = b"AAMIRPK1";
/// Bytes per record.
pub const RECORD: usize = 32;
/// Teacher scores past this say no more (won or lost; Sharp's are near
/// -2^31 there): they are stored clamped.
pub const TEACHER_CAP: i32 = 50_000;

/// One labelled position as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD]);

impl Record {
    pub fn new(
        pos: &Position,
        result: Option<bool>,
        bucket: u8,
        quiet: bool,
        score: i32,
    ) -> Record {
        let mut r = [0u8; RECORD];
        let occ = pos.occupied().0;
        r[..8].copy_from_slice(&occ.to_le_bytes());
        let mut bits = pos.occupied();
        let mut n = 0;
        while let Some(sq) = bits.pop() {
            if n == 32 {
                break;
            }
            let p = pos.piece_at(sq).expect("occupied") as u8;
            r[8 + n / 2] |= p << (4 * (n % 2));
            n += 1;
        }
        r[24] = pos.side() as u8;
        r[25] = match result {
            Some(false) => 0,
            Some(true) => 1,
            None => 2,
        };
        r[26] = bucket;
        r[27] = u8::from(quiet);
        r[28..].copy_from_slice(&score.clamp(-TEACHER_CAP, TEACHER_CAP).to_le_bytes());
        Record(r)
    }

    pub fn side(&self) -> Color {
        if self.0[24] == 0 {
            Color::Gold
        } else {
            Color::Silver
        }
    }

    /// 1 won, 0 lost, `None` unknown.
    pub fn result(&self) -> Option<f32> {
        match self.0[25] {
            0 => Some(0.0),
            1 => Some(1.0),
            _ => None,
        }
    }

    pub fn bucket(&self) -> u8 {
        self.0[26]
    }

    pub fn quiet(&self) -> bool {
        self.0[27] & 1 != 0
    }

    pub fn score(&self) -> i32 {
        i32::from_le_bytes(self.0[28..32].try_into().expect("4 bytes"))
    }

    /// The pieces and their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let mut occ =
            crate::board::Bitboard(u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes")));
        let mut n = 0;
        std::iter::from_fn(move || {
            let sq = occ.pop()?;
            let nib = (self.0[8 + n / 2] >> (4 * (n % 2))) & 15;
            n += 1;
            Some((Piece::ALL[usize::from(nib).min(11)], sq))
        })
    }

    /// The position, with a fresh turn.
    pub fn position(&self) -> Position {
        let mut pos = Position::empty(self.side());
        for (p, sq) in self.pieces() {
            pos.put(p, sq);
        }
        pos
    }

    /// Whether the bytes make a record this build wrote.
    fn check(&self) -> Result<()> {
        let occ = u64::from_le_bytes(self.0[..8].try_into()?);
        ensure!(occ.count_ones() <= 32, "more than 32 pieces");
        ensure!(self.0[24] <= 1, "side byte {}", self.0[24]);
        ensure!(self.0[25] <= 2, "result byte {}", self.0[25]);
        ensure!(self.0[26] <= 99, "bucket byte {}", self.0[26]);
        let n = occ.count_ones() as usize;
        for i in 0..n {
            let nib = (self.0[8 + i / 2] >> (4 * (i % 2))) & 15;
            ensure!(nib < 12, "piece nibble {nib}");
        }
        Ok(())
    }
}

/// Reads a packed file whole, checking every record.
pub fn read(path: &str) -> Result<Vec<Record>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {path}"))?;
    ensure!(
        bytes.len() >= 8 && &bytes[..8] == MAGIC,
        "{path}: not a packed position file (it does not start with AAMIRPK1)"
    );
    let body = &bytes[8..];
    ensure!(
        body.len() % RECORD == 0,
        "{path}: truncated: {} bytes after the header is not a whole number of {RECORD}-byte records",
        body.len()
    );
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, c)| {
            let r = Record(c.try_into().expect("RECORD bytes"));
            r.check().with_context(|| format!("{path}: record {i}"))?;
            Ok(r)
        })
        .collect()
}

/// Writes records to a packed file.
pub fn write(path: &str, records: &[Record]) -> Result<()> {
    let f = std::fs::File::create(path).with_context(|| format!("creating {path}"))?;
    let mut w = std::io::BufWriter::new(f);
    w.write_all(MAGIC)?;
    for r in records {
        w.write_all(&r.0)?;
    }
    w.flush().with_context(|| format!("writing {path}"))
}

/// What `aamir pack` reads.
#[derive(Clone, Debug)]
pub struct PackOptions {
    pub files: Vec<String>,
    pub scores: String,
    pub out: String,
    pub threads: usize,
}

/// `aamir pack`.
pub fn run(opts: &PackOptions) -> Result<()> {
    let start = std::time::Instant::now();
    let raw = read_all(&opts.files)?;
    let scores = read_scores(&opts.scores)?;
    if scores.len() != raw.len() {
        bail!(
            "{}: {} scores for {} positions",
            opts.scores,
            scores.len(),
            raw.len()
        );
    }
    let quiet = par_map(&raw, opts.threads, |r| is_quiet(&r.sample.pos));
    let mut seen = HashSet::with_capacity(raw.len());
    let mut out = Vec::with_capacity(raw.len());
    for ((r, s), q) in raw.iter().zip(&scores).zip(&quiet) {
        let pos = &r.sample.pos;
        if !seen.insert(pos.hash()) {
            continue;
        }
        let score = s.clamp(-f64::from(TEACHER_CAP), f64::from(TEACHER_CAP)) as i32;
        let bucket = (fnv1a(&r.game) % 100) as u8;
        out.push(Record::new(
            pos,
            Some(r.sample.result > 0.5),
            bucket,
            *q,
            score,
        ));
    }
    write(&opts.out, &out)?;
    let quiet_n = out.iter().filter(|r| r.quiet()).count();
    outln!(
        "{} positions read, {} kept ({} repeats dropped), {} of them quiet; {} ({} bytes) in {:.1} s",
        raw.len(),
        out.len(),
        raw.len() - out.len(),
        quiet_n,
        opts.out,
        8 + out.len() * RECORD,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_back_its_position_and_labels() {
        // The opening with silver to move and two pieces gone.
        let mut pos = Position::standard_opening();
        for sq in ["d7", "b2"] {
            pos.remove(Square::parse(sq).unwrap());
        }
        pos.set_side(Color::Silver);
        let r = Record::new(&pos, Some(true), 42, true, -123_456);
        assert_eq!(r.position(), pos);
        assert_eq!(r.side(), Color::Silver);
        assert_eq!(r.result(), Some(1.0));
        assert_eq!(r.bucket(), 42);
        assert!(r.quiet());
        assert_eq!(r.score(), -TEACHER_CAP);
        r.check().unwrap();
        let mut bad = r;
        bad.0[24] = 7;
        assert!(bad.check().is_err());
    }
}
