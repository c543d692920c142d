//! The network's inner loops: AVX2 where the processor has it, portable loops elsewhere. Both
//! compute the same integers: 16-bit adds wrap in both, and the 32-bit output sum is the same
//! sum in another order (the file check keeps it from overflowing).

use super::QA;

/// Whether the processor has AVX2.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `acc += row` (`SUB` false) or `acc -= row` (`SUB` true), wrapping.
#[inline]
pub fn add_or_sub<const SUB: bool>(acc: &mut [i16], row: &[i16], simd: bool) {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is only true when AVX2 was detected.
        unsafe { avx2::add_or_sub::<SUB>(acc, row) };
        return;
    }
    let _ = simd;
    for (a, &r) in acc.iter_mut().zip(row) {
        *a = if SUB {
            a.wrapping_sub(r)
        } else {
            a.wrapping_add(r)
        };
    }
}

/// `Σ clamp(x, 0, QA)² · w`, in 32 bits.
#[inline]
pub fn screlu_dot(x: &[i16], w: &[i16], simd: bool) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is only true when AVX2 was detected.
        return unsafe { avx2::screlu_dot(x, w) };
    }
    let _ = simd;
    let mut sum = 0i32;
    for (&a, &b) in x.iter().zip(w) {
        let v = (a as i32).clamp(0, QA);
        // v·w fits 16 bits (|w| ≤ 127, v ≤ 255), as in the vector loop.
        let vw = (v * b as i32) as i16 as i32;
        sum = sum.wrapping_add(vw * v);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::QA;

    /// `acc += row` (`SUB` false) or `acc -= row` (`SUB` true), wrapping.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_or_sub<const SUB: bool>(acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len());
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n, both slices hold n values; unaligned loads and stores.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let r = _mm256_loadu_si256(row.as_ptr().add(i) as *const __m256i);
                let v = if SUB {
                    _mm256_sub_epi16(a, r)
                } else {
                    _mm256_add_epi16(a, r)
                };
                _mm256_storeu_si256(acc.as_mut_ptr().add(i) as *mut __m256i, v);
            }
            i += 16;
        }
        for j in i..n {
            acc[j] = if SUB {
                acc[j].wrapping_sub(row[j])
            } else {
                acc[j].wrapping_add(row[j])
            };
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(x: &[i16], w: &[i16]) -> i32 {
        let n = x.len().min(w.len());
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: i + 16 <= n, both slices hold n values.
            unsafe {
                let v = _mm256_loadu_si256(x.as_ptr().add(i) as *const __m256i);
                let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
                let ww = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let vw = _mm256_mullo_epi16(v, ww);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            }
            i += 16;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: an 8-lane store into an 8-value array.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
        let mut total = lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b));
        for j in i..n {
            let v = (x[j] as i32).clamp(0, QA);
            total = total.wrapping_add((v * w[j] as i32) as i16 as i32 * v);
        }
        total
    }
}
