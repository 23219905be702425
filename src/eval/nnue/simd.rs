//! The network's hot loops, three times: with AVX2 instructions on x86-64
//! CPUs that have them (checked at run time, so one binary runs on every
//! x86-64 CPU), with SSE2 on the others (every x86-64 CPU has it), and as
//! portable loops for other targets. All compute the same integer sums
//! (wrapping 16-bit lanes, exact 32-bit dot products); a test checks each
//! against the portable loops on random data.

use super::L1;

/// Whether the CPU has AVX2 (the standard library caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// `acc += row`.
#[inline(always)]
pub fn add_row(acc: &mut [i16; L1], row: &[i16; L1]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked).
        unsafe { avx2::add_row(acc, row) }
    } else {
        sse2::add_row(acc, row)
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::add_row(acc, row);
}

/// `acc += on - off`: a piece moved from `off`'s square to `on`'s.
#[inline(always)]
pub fn sub_add_row(acc: &mut [i16; L1], off: &[i16; L1], on: &[i16; L1]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked).
        unsafe { avx2::sub_add_row(acc, off, on) }
    } else {
        sse2::sub_add_row(acc, off, on)
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::sub_add_row(acc, off, on);
}

/// `out = clamp(acc, 0, QA)`.
#[inline(always)]
pub fn clip_into(out: &mut [i16], acc: &[i16; L1]) {
    #[cfg(target_arch = "x86_64")]
    sse2::clip_into(out, acc);
    #[cfg(not(target_arch = "x86_64"))]
    portable::clip_into(out, acc);
}

/// The dot product of activations and a weight row of the same length
/// (a multiple of 16), in 32 bits.
#[inline(always)]
pub fn dot(a: &[i16], w: &[i16]) -> i32 {
    assert!(a.len() == w.len() && a.len().is_multiple_of(16));
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (checked); the lengths as asserted.
        unsafe { avx2::dot(a, w) }
    } else {
        sse2::dot(a, w)
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::dot(a, w)
}

/// The loops with SSE2: eight 16-bit lanes at a time.
#[cfg(target_arch = "x86_64")]
pub mod sse2 {
    use super::L1;
    use std::arch::x86_64::*;

    pub fn add_row(acc: &mut [i16; L1], row: &[i16; L1]) {
        let a = acc.as_mut_ptr() as *mut __m128i;
        let r = row.as_ptr() as *const __m128i;
        for i in 0..L1 / 8 {
            // SAFETY: SSE2 is part of x86-64; unaligned loads and stores
            // on arrays of exactly L1 (a multiple of 8) lanes.
            unsafe {
                let v = _mm_add_epi16(_mm_loadu_si128(a.add(i)), _mm_loadu_si128(r.add(i)));
                _mm_storeu_si128(a.add(i), v);
            }
        }
    }

    pub fn sub_add_row(acc: &mut [i16; L1], off: &[i16; L1], on: &[i16; L1]) {
        let a = acc.as_mut_ptr() as *mut __m128i;
        let f = off.as_ptr() as *const __m128i;
        let n = on.as_ptr() as *const __m128i;
        for i in 0..L1 / 8 {
            // SAFETY: as in `add_row`.
            unsafe {
                let v = _mm_sub_epi16(_mm_loadu_si128(a.add(i)), _mm_loadu_si128(f.add(i)));
                let v = _mm_add_epi16(v, _mm_loadu_si128(n.add(i)));
                _mm_storeu_si128(a.add(i), v);
            }
        }
    }

    pub fn clip_into(out: &mut [i16], acc: &[i16; L1]) {
        assert_eq!(out.len(), L1);
        let a = acc.as_ptr() as *const __m128i;
        let o = out.as_mut_ptr() as *mut __m128i;
        for i in 0..L1 / 8 {
            // SAFETY: as in `add_row`; `out` has L1 lanes (asserted).
            unsafe {
                let lo = _mm_setzero_si128();
                let hi = _mm_set1_epi16(super::super::QA as i16);
                let v = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128(a.add(i)), lo), hi);
                _mm_storeu_si128(o.add(i), v);
            }
        }
    }

    pub fn dot(a: &[i16], w: &[i16]) -> i32 {
        assert!(a.len() == w.len() && a.len().is_multiple_of(8));
        let pa = a.as_ptr() as *const __m128i;
        let pw = w.as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of x86-64; both slices have the same
        // length, a multiple of 8 (asserted).
        unsafe {
            let mut s = _mm_setzero_si128();
            for i in 0..a.len() / 8 {
                s = _mm_add_epi32(
                    s,
                    _mm_madd_epi16(_mm_loadu_si128(pa.add(i)), _mm_loadu_si128(pw.add(i))),
                );
            }
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            _mm_cvtsi128_si32(s)
        }
    }
}

/// The loops with AVX2: sixteen 16-bit lanes at a time.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::L1;
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_row(acc: &mut [i16; L1], row: &[i16; L1]) {
        let a = acc.as_mut_ptr() as *mut __m256i;
        let r = row.as_ptr() as *const __m256i;
        for i in 0..L1 / 16 {
            // SAFETY: L1 is a multiple of 16; unaligned loads and stores.
            unsafe {
                let v =
                    _mm256_add_epi16(_mm256_loadu_si256(a.add(i)), _mm256_loadu_si256(r.add(i)));
                _mm256_storeu_si256(a.add(i), v);
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn sub_add_row(acc: &mut [i16; L1], off: &[i16; L1], on: &[i16; L1]) {
        let a = acc.as_mut_ptr() as *mut __m256i;
        let f = off.as_ptr() as *const __m256i;
        let n = on.as_ptr() as *const __m256i;
        for i in 0..L1 / 16 {
            // SAFETY: as in `add_row`.
            unsafe {
                let v =
                    _mm256_sub_epi16(_mm256_loadu_si256(a.add(i)), _mm256_loadu_si256(f.add(i)));
                let v = _mm256_add_epi16(v, _mm256_loadu_si256(n.add(i)));
                _mm256_storeu_si256(a.add(i), v);
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX2; `a` and `w` have the same length, a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(a: &[i16], w: &[i16]) -> i32 {
        let pa = a.as_ptr() as *const __m256i;
        let pw = w.as_ptr() as *const __m256i;
        let mut s = _mm256_setzero_si256();
        for i in 0..a.len() / 16 {
            // SAFETY: in bounds by the caller's lengths.
            unsafe {
                s = _mm256_add_epi32(
                    s,
                    _mm256_madd_epi16(_mm256_loadu_si256(pa.add(i)), _mm256_loadu_si256(pw.add(i))),
                );
            }
        }
        let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}

/// The same loops without target instructions.
pub mod portable {
    use super::L1;

    pub fn add_row(acc: &mut [i16; L1], row: &[i16; L1]) {
        for (a, r) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*r);
        }
    }

    pub fn sub_add_row(acc: &mut [i16; L1], off: &[i16; L1], on: &[i16; L1]) {
        for ((a, f), n) in acc.iter_mut().zip(off).zip(on) {
            *a = a.wrapping_sub(*f).wrapping_add(*n);
        }
    }

    pub fn clip_into(out: &mut [i16], acc: &[i16; L1]) {
        for (o, a) in out.iter_mut().zip(acc) {
            *o = (*a).clamp(0, super::super::QA as i16);
        }
    }

    pub fn dot(a: &[i16], w: &[i16]) -> i32 {
        a.iter()
            .zip(w)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .fold(0i32, i32::wrapping_add)
    }
}
