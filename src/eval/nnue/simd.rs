//! The network's two hot loops, twice: with SSE2 instructions on x86-64
//! (every x86-64 CPU has them) and as portable loops for other targets.
//! Both compute the same integer sums; a test checks them against each
//! other on random data.

use super::L1;

/// `acc += row`.
#[inline(always)]
pub fn add_row(acc: &mut [i16; L1], row: &[i16; L1]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64; unaligned loads and stores on
    // arrays of exactly L1 (a multiple of 8) lanes.
    unsafe {
        use std::arch::x86_64::*;
        let a = acc.as_mut_ptr() as *mut __m128i;
        let r = row.as_ptr() as *const __m128i;
        for i in 0..L1 / 8 {
            let v = _mm_add_epi16(_mm_loadu_si128(a.add(i)), _mm_loadu_si128(r.add(i)));
            _mm_storeu_si128(a.add(i), v);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::add_row(acc, row);
}

/// `acc += on - off`: a piece moved from `off`'s square to `on`'s.
#[inline(always)]
pub fn sub_add_row(acc: &mut [i16; L1], off: &[i16; L1], on: &[i16; L1]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `add_row`.
    unsafe {
        use std::arch::x86_64::*;
        let a = acc.as_mut_ptr() as *mut __m128i;
        let f = off.as_ptr() as *const __m128i;
        let n = on.as_ptr() as *const __m128i;
        for i in 0..L1 / 8 {
            let v = _mm_sub_epi16(_mm_loadu_si128(a.add(i)), _mm_loadu_si128(f.add(i)));
            let v = _mm_add_epi16(v, _mm_loadu_si128(n.add(i)));
            _mm_storeu_si128(a.add(i), v);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::sub_add_row(acc, off, on);
}

/// `out = clamp(acc, 0, QA)`.
#[inline(always)]
pub fn clip_into(out: &mut [i16], acc: &[i16; L1]) {
    assert_eq!(out.len(), L1);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `add_row`; `out` has L1 lanes (asserted).
    unsafe {
        use std::arch::x86_64::*;
        let lo = _mm_setzero_si128();
        let hi = _mm_set1_epi16(super::QA as i16);
        let a = acc.as_ptr() as *const __m128i;
        let o = out.as_mut_ptr() as *mut __m128i;
        for i in 0..L1 / 8 {
            let v = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128(a.add(i)), lo), hi);
            _mm_storeu_si128(o.add(i), v);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    portable::clip_into(out, acc);
}

/// The dot product of activations and a weight row of the same length
/// (a multiple of 8), in 32 bits.
#[inline(always)]
pub fn dot(a: &[i16], w: &[i16]) -> i32 {
    assert!(a.len() == w.len() && a.len().is_multiple_of(8));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: both slices have the same length, a multiple of 8 (asserted).
    unsafe {
        use std::arch::x86_64::*;
        let pa = a.as_ptr() as *const __m128i;
        let pw = w.as_ptr() as *const __m128i;
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
    #[cfg(not(target_arch = "x86_64"))]
    portable::dot(a, w)
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
