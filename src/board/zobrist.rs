//! Zobrist keys, generated at compile time from a fixed seed so that hashes,
//! and therefore node counts, are the same on every run and machine.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const SEED: u64 = 0x6161_6d69_7200_0001; // "aamir"

const fn make_piece_keys() -> [[u64; 64]; 12] {
    let mut keys = [[0u64; 64]; 12];
    let mut state = SEED;
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (ns, k) = splitmix(state);
            state = ns;
            keys[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    keys
}

const fn make_extra_keys() -> [u64; 5] {
    // Continue the stream past the 768 piece keys so no key repeats.
    let mut state = SEED;
    let mut i = 0;
    while i < 12 * 64 {
        state = splitmix(state).0;
        i += 1;
    }
    let mut out = [0u64; 5];
    let mut j = 0;
    while j < 5 {
        let (ns, k) = splitmix(state);
        state = ns;
        out[j] = k;
        j += 1;
    }
    out
}

/// `PIECE[piece][square]`.
pub static PIECE: [[u64; 64]; 12] = make_piece_keys();

const EXTRA: [u64; 5] = make_extra_keys();

/// XORed in when silver is to move.
pub const SIDE: u64 = EXTRA[0];

/// `STEPS_LEFT[n]` for search keys: zero for a fresh turn (4 steps left), so a
/// start-of-turn key equals the position hash, and distinct non-zero keys for
/// mid-turn positions, so they never share an entry with start-of-turn ones.
pub const STEPS_LEFT: [u64; 5] = [EXTRA[1], EXTRA[2], EXTRA[3], EXTRA[4], 0];
