//! The net file: a versioned, checksummed little-endian image of a
//! [`Network`].
//!
//! ```text
//! "AAMIRNET" | version u32 | inputs, l1, l2, l3 u32 | scale i32 | base u32
//! | about: length u32, UTF-8 | w1 i16[inputs*l1] | b1 i16[l1]
//! | w2 i16[l2*2*l1] | b2 i32[l2] | w3 i16[l3*l2] | b3 i32[l3]
//! | w4 i16[l3] | b4 i32 | FNV-1a 64 of all the bytes before it
//! ```
//!
//! A file that is not one, of another version or shape, truncated,
//! damaged or whose weights could overflow the 16-bit accumulators is
//! refused with an error that says which.

use super::{Base, INPUTS, L1, L2, L3, MAX_ACTIVE, Network};
use anyhow::{Context, Result, bail, ensure};

const MAGIC: &[u8; 8] = b"AAMIRNET";
/// The format this build reads and writes.
pub const VERSION: u32 = 2;
/// The longest `about` text kept.
const MAX_ABOUT: usize = 4096;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The file's bytes for `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * INPUTS * L1 + 4096);
    out.extend_from_slice(MAGIC);
    for v in [VERSION, INPUTS as u32, L1 as u32, L2 as u32, L3 as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&(net.base as u32).to_le_bytes());
    let about = &net.about.as_bytes()[..net.about.len().min(MAX_ABOUT)];
    out.extend_from_slice(&(about.len() as u32).to_le_bytes());
    out.extend_from_slice(about);
    let i16s = |out: &mut Vec<u8>, v: &[i16]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
    let i32s = |out: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| out.extend(x.to_le_bytes()));
    i16s(&mut out, &net.w1);
    i16s(&mut out, &net.b1);
    i16s(&mut out, &net.w2);
    i32s(&mut out, &net.b2);
    i16s(&mut out, &net.w3);
    i32s(&mut out, &net.b3);
    i16s(&mut out, &net.w4);
    i32s(&mut out, &[net.b4]);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads little-endian values off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!(
                "truncated: {} bytes, and {what} needs {n} more at byte {}",
                self.bytes.len(),
                self.at
            );
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into()?))
    }

    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>> {
        Ok(self
            .take(2 * n, what)?
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize, what: &str) -> Result<Vec<i32>> {
        Ok(self
            .take(4 * n, what)?
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

/// A network from a file's bytes.
pub fn from_bytes(bytes: &[u8]) -> Result<Network> {
    let mut r = Reader { bytes, at: 0 };
    ensure!(
        r.take(8, "the magic")? == MAGIC,
        "not an aamir net file (it does not start with AAMIRNET)"
    );
    let version = r.u32("the version")?;
    ensure!(
        version == VERSION,
        "net file version {version}; this build reads version {VERSION}"
    );
    let shape = [
        r.u32("the shape")?,
        r.u32("the shape")?,
        r.u32("the shape")?,
        r.u32("the shape")?,
    ];
    let want = [INPUTS as u32, L1 as u32, L2 as u32, L3 as u32];
    ensure!(
        shape == want,
        "the net's shape is {shape:?} (inputs, layers); this build's is {want:?}"
    );
    let scale = r.u32("the scale")? as i32;
    ensure!(
        (1..=100_000).contains(&scale),
        "the net's scale {scale} is outside 1..=100000"
    );
    let base = match r.u32("the base")? {
        0 => Base::None,
        1 => Base::Terms,
        b => bail!("the net's base {b} is not 0 (none) or 1 (the hand terms)"),
    };
    let about_len = r.u32("the description's length")? as usize;
    ensure!(
        about_len <= MAX_ABOUT,
        "the description is {about_len} bytes, more than {MAX_ABOUT}"
    );
    let about = String::from_utf8(r.take(about_len, "the description")?.to_vec())
        .context("the description is not UTF-8")?;
    let w1 = r.i16s(INPUTS * L1, "the first layer")?;
    let b1 = r.i16s(L1, "the first layer's biases")?;
    let w2 = r.i16s(L2 * 2 * L1, "the second layer")?;
    let b2 = r.i32s(L2, "the second layer's biases")?;
    let w3 = r.i16s(L3 * L2, "the third layer")?;
    let b3 = r.i32s(L3, "the third layer's biases")?;
    let w4 = r.i16s(L3, "the output layer")?;
    let b4 = r.i32s(1, "the output's bias")?[0];
    let body = r.at;
    let sum = u64::from_le_bytes(r.take(8, "the checksum")?.try_into()?);
    ensure!(
        r.at == bytes.len(),
        "{} bytes after the checksum",
        bytes.len() - r.at
    );
    ensure!(
        fnv1a(&bytes[..body]) == sum,
        "the checksum does not match: the file is damaged"
    );
    // No sum of a bias and MAX_ACTIVE rows may leave 16 bits.
    for j in 0..L1 {
        let worst = (0..INPUTS)
            .map(|i| i32::from(w1[i * L1 + j]).abs())
            .max()
            .unwrap_or(0);
        let bound = i32::from(b1[j]).abs() + MAX_ACTIVE as i32 * worst;
        ensure!(
            bound <= i32::from(i16::MAX),
            "first-layer output {j} could overflow 16 bits (bound {bound})"
        );
    }
    Ok(Network {
        w1,
        b1,
        w2,
        b2,
        w3,
        b3,
        w4,
        b4,
        scale,
        base,
        about,
    })
}

/// Reads a net file, naming it in any error.
pub fn load(path: &str) -> Result<Network> {
    let bytes = std::fs::read(path).with_context(|| format!("reading the net file {path}"))?;
    from_bytes(&bytes).with_context(|| format!("the net file {path}"))
}

/// Writes a net file.
pub fn save(net: &Network, path: &str) -> Result<()> {
    std::fs::write(path, to_bytes(net)).with_context(|| format!("writing the net file {path}"))
}
