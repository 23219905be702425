//! A small seeded random generator whose output is fixed by this code
//! alone, shared by the front ends that need reproducible streams
//! (`aamir gen`, the tuners' sampling, `bench --eval`'s positions). It sits
//! at the bottom beside `settings` so that no front end imports another for
//! it.

/// SplitMix64: a tiny generator whose output is fixed by this code alone,
/// so generated data does not change when a dependency is upgraded.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator for stream `stream` of `seed` (streams are independent).
    pub fn new(seed: u64, stream: u64) -> SplitMix {
        let mut a = SplitMix(seed);
        let s = a.next_u64();
        let mut b = SplitMix(stream ^ 0x5851_F42D_4C95_7F2D);
        SplitMix(s ^ b.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0; the modulo bias is negligible here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_mix_streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|_| SplitMix::new(1, 0).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            SplitMix::new(1, 0).next_u64(),
            SplitMix::new(1, 1).next_u64()
        );
        assert_ne!(
            SplitMix::new(1, 0).next_u64(),
            SplitMix::new(2, 0).next_u64()
        );
    }
}
