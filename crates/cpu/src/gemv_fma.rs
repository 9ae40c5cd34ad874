//! The f32 and f64 loops of the vector products ([`crate::gemv`]) written with AVX2 and FMA
//! intrinsics, for CPUs that have both (checked at run time; elsewhere the generic loops of
//! `gemv.rs` run).
//!
//! The generic loops leave the vectorising to the compiler, which cannot fuse the multiply
//! and the add (Rust keeps them apart unless asked) and keeps fewer accumulators than the
//! FMA latency needs. These loops use sixteen (f64) or thirty-two (f32) lanes of FMA
//! accumulators:
//!
//! - [`dot_rows`]: `out[i] = row(i) . v`, one row at a time (a tile of four rows sharing the
//!   loads of `v`, as OpenBLAS's `dgemv_t` does, ran at 64-73 us against 44 us for
//!   `M(500 x 600) @ v` on the 2-core development machine: `v` stays in L1 either way);
//! - [`axpy_rows`]: `out += x0 c0 + x1 c1 + x2 c2 + x3 c3` over four columns at a time.
//!
//! Every product is computed and summed (no `0 * x` shortcut), so NaN and infinities
//! propagate as in a plain sum; the order of the sum (per lane, then across lanes) differs
//! from the generic loops' by rounding only.

use std::any::TypeId;

/// `x` as a slice of `U` when `T` is `U`.
fn cast<T: 'static, U: 'static>(x: &[T]) -> Option<&[U]> {
    // SAFETY: `T` and `U` are the same type, so the pointer, length and lifetime carry over.
    (TypeId::of::<T>() == TypeId::of::<U>())
        .then(|| unsafe { std::slice::from_raw_parts(x.as_ptr().cast::<U>(), x.len()) })
}

/// `x` as a mutable slice of `U` when `T` is `U`.
fn cast_mut<T: 'static, U: 'static>(x: &mut [T]) -> Option<&mut [U]> {
    // SAFETY: as in `cast`; the mutable borrow moves into the result.
    (TypeId::of::<T>() == TypeId::of::<U>())
        .then(|| unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<U>(), x.len()) })
}

/// Whether this CPU has AVX2 and FMA (detected once, cached by std).
#[inline(always)]
fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `out[i] = rows(i) . v` for every `i`, where `rows(i)` is a slice of `v.len()` elements;
/// `false` (nothing written) when `T` is not f32 or f64 or the CPU lacks AVX2 and FMA.
pub(crate) fn dot_rows<'a, T: 'static>(
    rows: impl Fn(usize) -> &'a [T],
    v: &[T],
    out: &mut [T],
) -> bool {
    if !has_fma() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if let (Some(v), Some(out)) = (cast::<T, f64>(v), cast_mut::<T, f64>(out)) {
            let rows = |i| cast::<T, f64>(rows(i)).unwrap_or_default();
            // SAFETY: `has_fma` checked the CPU.
            unsafe { x86::dot_rows::<f64>(&rows, v, out) };
            return true;
        }
        if let (Some(v), Some(out)) = (cast::<T, f32>(v), cast_mut::<T, f32>(out)) {
            let rows = |i| cast::<T, f32>(rows(i)).unwrap_or_default();
            // SAFETY: as above.
            unsafe { x86::dot_rows::<f32>(&rows, v, out) };
            return true;
        }
    }
    let _ = (rows, v, out);
    false
}

/// `out += sum_p x[p] * cols(p)` over `p < x.len()`, where `cols(p)` is a slice of
/// `out.len()` elements; `false` (nothing written) when `T` is not f32 or f64 or the CPU
/// lacks AVX2 and FMA.
pub(crate) fn axpy_rows<'a, T: 'static>(
    cols: impl Fn(usize) -> &'a [T],
    x: &[T],
    out: &mut [T],
) -> bool {
    if !has_fma() {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if let (Some(x), Some(out)) = (cast::<T, f64>(x), cast_mut::<T, f64>(out)) {
            let cols = |p| cast::<T, f64>(cols(p)).unwrap_or_default();
            // SAFETY: `has_fma` checked the CPU.
            unsafe { x86::axpy_rows::<f64>(&cols, x, out) };
            return true;
        }
        if let (Some(x), Some(out)) = (cast::<T, f32>(x), cast_mut::<T, f32>(out)) {
            let cols = |p| cast::<T, f32>(cols(p)).unwrap_or_default();
            // SAFETY: as above.
            unsafe { x86::axpy_rows::<f32>(&cols, x, out) };
            return true;
        }
    }
    let _ = (cols, x, out);
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// A float type and its 256-bit vector.
    pub(super) trait Lanes: Copy + Default + 'static {
        type V: Copy;
        /// Elements per vector.
        const W: usize;
        /// `W` elements from the start of `s` (at least `W` long).
        unsafe fn load(s: &[Self]) -> Self::V;
        unsafe fn store(s: &mut [Self], v: Self::V);
        unsafe fn zero() -> Self::V;
        unsafe fn splat(x: Self) -> Self::V;
        /// `a * b + c`, one rounding.
        unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        unsafe fn vadd(a: Self::V, b: Self::V) -> Self::V;
        /// The sum of the lanes.
        unsafe fn hsum(v: Self::V) -> Self;
        /// `a * b + c` of scalars, one rounding.
        fn fma1(a: Self, b: Self, c: Self) -> Self;
    }

    impl Lanes for f64 {
        type V = __m256d;
        const W: usize = 4;
        #[inline(always)]
        unsafe fn load(s: &[f64]) -> __m256d {
            debug_assert!(s.len() >= 4);
            _mm256_loadu_pd(s.as_ptr())
        }
        #[inline(always)]
        unsafe fn store(s: &mut [f64], v: __m256d) {
            debug_assert!(s.len() >= 4);
            _mm256_storeu_pd(s.as_mut_ptr(), v)
        }
        #[inline(always)]
        unsafe fn zero() -> __m256d {
            _mm256_setzero_pd()
        }
        #[inline(always)]
        unsafe fn splat(x: f64) -> __m256d {
            _mm256_set1_pd(x)
        }
        #[inline(always)]
        unsafe fn fma(a: __m256d, b: __m256d, c: __m256d) -> __m256d {
            _mm256_fmadd_pd(a, b, c)
        }
        #[inline(always)]
        unsafe fn vadd(a: __m256d, b: __m256d) -> __m256d {
            _mm256_add_pd(a, b)
        }
        #[inline(always)]
        unsafe fn hsum(v: __m256d) -> f64 {
            let s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
            _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)))
        }
        #[inline(always)]
        fn fma1(a: f64, b: f64, c: f64) -> f64 {
            a.mul_add(b, c)
        }
    }

    impl Lanes for f32 {
        type V = __m256;
        const W: usize = 8;
        #[inline(always)]
        unsafe fn load(s: &[f32]) -> __m256 {
            debug_assert!(s.len() >= 8);
            _mm256_loadu_ps(s.as_ptr())
        }
        #[inline(always)]
        unsafe fn store(s: &mut [f32], v: __m256) {
            debug_assert!(s.len() >= 8);
            _mm256_storeu_ps(s.as_mut_ptr(), v)
        }
        #[inline(always)]
        unsafe fn zero() -> __m256 {
            _mm256_setzero_ps()
        }
        #[inline(always)]
        unsafe fn splat(x: f32) -> __m256 {
            _mm256_set1_ps(x)
        }
        #[inline(always)]
        unsafe fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
            _mm256_fmadd_ps(a, b, c)
        }
        #[inline(always)]
        unsafe fn vadd(a: __m256, b: __m256) -> __m256 {
            _mm256_add_ps(a, b)
        }
        #[inline(always)]
        unsafe fn hsum(v: __m256) -> f32 {
            let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
            let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
            _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)))
        }
        #[inline(always)]
        fn fma1(a: f32, b: f32, c: f32) -> f32 {
            a.mul_add(b, c)
        }
    }

    /// The dot product `r . v` (as long as each other), four accumulators.
    #[inline(always)]
    unsafe fn dot1<X: Lanes>(r: &[X], v: &[X]) -> X {
        let (w, len) = (X::W, v.len());
        let mut a = [X::zero(); 4];
        let mut p = 0;
        while p + 4 * w <= len {
            for (j, acc) in a.iter_mut().enumerate() {
                *acc = X::fma(X::load(&r[p + j * w..]), X::load(&v[p + j * w..]), *acc);
            }
            p += 4 * w;
        }
        while p + w <= len {
            a[0] = X::fma(X::load(&r[p..]), X::load(&v[p..]), a[0]);
            p += w;
        }
        let mut s = X::hsum(X::vadd(X::vadd(a[0], a[1]), X::vadd(a[2], a[3])));
        for q in p..len {
            s = X::fma1(r[q], v[q], s);
        }
        s
    }

    /// `out[i] = rows(i) . v`, four rows at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn dot_rows<'a, X: Lanes>(
        rows: &dyn Fn(usize) -> &'a [X],
        v: &[X],
        out: &mut [X],
    ) {
        let len = v.len();
        // Every row is exactly `v`'s length (slicing checks it), so the loads stay inside.
        let row = |i: usize| &rows(i)[..len];
        for (i, o) in out.iter_mut().enumerate() {
            *o = dot1(row(i), v);
        }
    }

    /// `out += sum_p x[p] * cols(p)`, four columns per pass over `out`.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn axpy_rows<'a, X: Lanes>(
        cols: &dyn Fn(usize) -> &'a [X],
        x: &[X],
        out: &mut [X],
    ) {
        let (w, n) = (X::W, out.len());
        // Every column is exactly `out`'s length (slicing checks it), so the loads stay inside.
        let col = |p: usize| &cols(p)[..n];
        let quads = x.len() / 4 * 4;
        for p in (0..quads).step_by(4) {
            let c = [col(p), col(p + 1), col(p + 2), col(p + 3)];
            let xs = [
                X::splat(x[p]),
                X::splat(x[p + 1]),
                X::splat(x[p + 2]),
                X::splat(x[p + 3]),
            ];
            let mut i = 0;
            while i + w <= n {
                let mut o = X::load(&out[i..]);
                for j in 0..4 {
                    o = X::fma(X::load(&c[j][i..]), xs[j], o);
                }
                X::store(&mut out[i..], o);
                i += w;
            }
            for q in i..n {
                let mut o = out[q];
                for j in 0..4 {
                    o = X::fma1(c[j][q], x[p + j], o);
                }
                out[q] = o;
            }
        }
        for (p, &xp) in x.iter().enumerate().skip(quads) {
            let c = col(p);
            let xs = X::splat(xp);
            let mut i = 0;
            while i + w <= n {
                let o = X::fma(X::load(&c[i..]), xs, X::load(&out[i..]));
                X::store(&mut out[i..], o);
                i += w;
            }
            for q in i..n {
                out[q] = X::fma1(c[q], xp, out[q]);
            }
        }
    }
}
