//! Loops compiled for the CPU's vector unit: [`wide`] runs a loop body in a copy of it
//! compiled for AVX-512 (F, DQ, VL, BW) or else for AVX2 and FMA when the CPU has them
//! (detected once at run time), so that the element-wise arithmetic and the vectorisable
//! functions of the ops (`exp`, the `sqrt` powers) use 512- or 256-bit vectors instead of
//! the SSE2 that x86-64 guarantees. NumPy dispatches its loops the same way. The vector
//! width changes no result: every op is the same IEEE operations in the same order, and
//! nothing is contracted into an FMA that the scalar code does not write as one.
//!
//! AVX-512 halved `exp` of f64 (4M elements: 6.7 to 3.3 ms on an AMD EPYC with AVX-512,
//! where NumPy's AVX-512 loop takes 4.8 ms). Loops over complex values stay at AVX2 (their
//! 512-bit deinterleaving measured slower), and so do the reductions (`max` along rows of
//! 1000x2000 f64: 0.29 ms at AVX2, 0.38 ms at AVX-512).
//!
//! Only float loops are worth the second copy ([`worth`]): their per-element work is the
//! arithmetic; integer and boolean element-wise loops are bound by memory at either width,
//! and the copy would only lengthen the build. Reductions ([`worth_reduce`]) also have it
//! for 32- and 64-bit integers: SSE2 has no 64-bit compare, so an `i64` minimum ran one
//! element at a time (2M `i64`: 1.1 ms, half of NumPy's speed).

use cuprite_core::{DType, Element};

/// Whether loops over `T` run through [`wide`]: the real float types.
pub const fn worth<T: Element>() -> bool {
    matches!(T::DTYPE, DType::F32 | DType::F64)
}

/// Whether reductions over `T` run in copies compiled for AVX2: the real floats and the
/// 32- and 64-bit integers.
pub const fn worth_reduce<T: Element>() -> bool {
    matches!(
        T::DTYPE,
        DType::F32 | DType::F64 | DType::I32 | DType::U32 | DType::I64 | DType::U64
    )
}

/// Runs `f` through [`wide`] when loops reading `A` or writing `O` are [`worth`] it,
/// directly otherwise (the choice is a constant per instantiation, so the second copy is
/// only compiled for float loops).
#[inline(always)]
pub fn wide_for<A: Element, O: Element, R>(f: impl FnOnce() -> R) -> R {
    if const { worth::<A>() || worth::<O>() } {
        if const { complex::<A>() || complex::<O>() } {
            wide_avx2(f)
        } else {
            wide(f)
        }
    } else {
        f()
    }
}

/// Whether `T` is a complex type: loops over interleaved complex values stay at 256 bits
/// (their 512-bit deinterleaving shuffles measured slower: `abs` of 90 000 complex128 took
/// 66 us instead of 48).
const fn complex<T: Element>() -> bool {
    matches!(T::DTYPE, DType::C64 | DType::C128)
}

/// Whether this CPU has AVX2 and FMA (detected once, then a cached load).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn has_avx2_fma() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Whether this CPU has the AVX-512 subsets of [`avx512`] (detected once, then cached).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && has_avx2_fma()
}

/// Runs `f` compiled for AVX-512 where this CPU has it ([`has_avx512`]), else for AVX2 and
/// FMA where it has them, as compiled otherwise.
#[inline(always)]
pub fn wide<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        // SAFETY: the features `avx512` is compiled for were detected on this CPU.
        return unsafe { avx512(f) };
    }
    wide_avx2(f)
}

/// `f()` with the AVX2 and FMA instructions enabled: the closure inlines into this copy.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2_fma<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` compiled for AVX2 and FMA where this CPU has them (never AVX-512), as compiled
/// otherwise.
#[inline(always)]
pub fn wide_avx2<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the features `avx2_fma` is compiled for were detected on this CPU.
        return unsafe { avx2_fma(f) };
    }
    f()
}

/// `f()` with AVX-512 (F, DQ, VL, BW) enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
unsafe fn avx512<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_runs_the_body_once_and_returns_its_value() {
        let mut calls = 0;
        let v: Vec<f32> = wide(|| {
            calls += 1;
            (0..1000).map(|i| (i as f32).mul_add(0.5, 1.0)).collect()
        });
        assert_eq!(calls, 1);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &x)| x == i as f32 * 0.5 + 1.0));
        assert!(worth::<f32>() && worth::<f64>() && !worth::<i64>() && !worth::<bool>());
    }
}
