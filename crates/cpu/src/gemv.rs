//! Products with a vector operand (`m == 1` or `n == 1`), without GEMM's packing: a dot
//! product for `m == n == 1`, matrix-vector products otherwise.
//!
//! `M @ v` (and `v @ M`, the same product of `M`'s transpose) runs in one of two forms,
//! chosen by which of the matrix's strides is unit (±1):
//!
//! - **dot form** (unit column stride: row-major `M @ v`, column-major `v @ M`): one dot
//!   product per output element of a contiguous row with the vector, the vector gathered
//!   once into contiguous scratch in the row's memory order when it is strided or reversed;
//! - **axpy form** (unit row stride): `c += v[p] * M[:, p]` over contiguous columns, four
//!   columns per pass over `c`, `c` walked in blocks that stay in L1.
//!
//! A matrix with no unit stride goes back to the GEMM (which packs it anyway). The
//! contiguous loops keep `L` independent accumulators (a constant per element type, see
//! `matmul.rs`) so that they vectorise; for the float and complex types each loop has a
//! second copy compiled for AVX2 and FMA, chosen at run time where the CPU has them (as
//! [`crate::simd::wide`] does; the loops are too large to inline into its closure, so the
//! copies are made here, by [`kernel!`]). Every product is computed and summed (no
//! `0 * x` shortcut), so NaN and infinities propagate as in a plain sum of products; the
//! order of the sum differs from the GEMM's. Above [`PAR_WORK`] multiply-adds the work
//! is split over rayon.

use super::gemv_fma;
use super::Mat;
use cuprite_core::{DType, Element, Numeric};
use rayon::prelude::*;

/// From this many multiply-adds on, a product is split over rayon. Measured on the 2-core
/// development machine with `M(m x k) @ v` of f64: a split of 2^15 multiply-adds was
/// slower than one thread, from 2^16 on it was faster.
pub(crate) const PAR_WORK: usize = 1 << 16;

/// Outputs of the axpy form updated per pass over the columns (an L1-sized block of `c`).
const AXPY_BLOCK: usize = 2048;

/// Whether loops over `T` take their AVX2 + FMA copy: the float and complex types, on a
/// CPU with both features (detected once, cached by std).
#[inline(always)]
fn wide<T: Element>() -> bool {
    #[cfg(target_arch = "x86_64")]
    if const { matches!(T::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128) } {
        return std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma");
    }
    false
}

/// A loop `$name` (inlined where called) and its copy `$name_wide` compiled for AVX2 and
/// FMA, and `$call` choosing between them by [`wide`].
macro_rules! kernel {
    (
        $(#[$doc:meta])*
        fn $name:ident / $wide:ident / $call:ident ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
        $body:block
    ) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name<T: Numeric, const L: usize>($($arg: $ty),*) $(-> $ret)? $body

        /// The loop of the same name without the suffix, compiled for AVX2 and FMA.
        ///
        /// # Safety
        /// The CPU must have AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $wide<T: Numeric, const L: usize>($($arg: $ty),*) $(-> $ret)? {
            $name::<T, L>($($arg),*)
        }

        /// Runs the loop, in its AVX2 + FMA copy where [`wide`] says so.
        fn $call<T: Numeric, const L: usize>($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if wide::<T>() {
                // SAFETY: `wide` checked that this CPU has AVX2 and FMA.
                return unsafe { $wide::<T, L>($($arg),*) };
            }
            $name::<T, L>($($arg),*)
        }
    };
}

/// Sums the `L` accumulators pairwise.
#[inline(always)]
fn reduce<T: Numeric, const L: usize>(mut acc: [T; L]) -> T {
    let mut w = L;
    while w > 1 {
        w /= 2;
        for j in 0..w {
            acc[j] = acc[j].add(acc[j + w]);
        }
    }
    acc[0]
}

/// `acc[j] += a[j] * b[j]` for every lane: the vector body of the dot products.
#[inline(always)]
fn mul_add_lanes<T: Numeric, const L: usize>(acc: &mut [T; L], a: &[T; L], b: &[T; L]) {
    for j in 0..L {
        acc[j] = acc[j].add(a[j].mul(b[j]));
    }
}

/// `sum x[p] * y[p]` of two contiguous slices of equal length, `L` (a power of two)
/// independent accumulators. The last partial chunk runs through the same body with both
/// operands padded by zeros (`0 * 0` adds nothing and makes no NaN), so that every lane
/// keeps a fixed place and the compiler keeps the accumulators in vector registers.
#[inline(always)]
fn dot_slices<T: Numeric, const L: usize>(x: &[T], y: &[T]) -> T {
    debug_assert_eq!(x.len(), y.len());
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let (xc, yc) = (x.chunks_exact(L), y.chunks_exact(L));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    let mut acc = [T::ZERO; L];
    for (a, b) in xc.zip(yc) {
        let (Ok(a), Ok(b)) = (<&[T; L]>::try_from(a), <&[T; L]>::try_from(b)) else {
            continue;
        };
        mul_add_lanes(&mut acc, a, b);
    }
    if !xr.is_empty() {
        let (mut a, mut b) = ([T::ZERO; L], [T::ZERO; L]);
        a[..xr.len()].copy_from_slice(xr);
        b[..yr.len()].copy_from_slice(yr);
        mul_add_lanes(&mut acc, &a, &b);
    }
    reduce(acc)
}

kernel! {
    /// [`dot_slices`] as a kernel of its own.
    fn dot_contig / dot_contig_wide / dot_contig_call(x: &[T], y: &[T]) -> T {
        dot_slices::<T, L>(x, y)
    }
}

/// A strided vector: element `p` at `data[off + p * stride]`.
#[derive(Clone, Copy)]
struct Vector<'a, T> {
    data: &'a [T],
    off: usize,
    stride: isize,
}

impl<T: Copy> Vector<'_, T> {
    #[inline(always)]
    fn at(&self, p: usize) -> T {
        self.data[(self.off as isize + p as isize * self.stride) as usize]
    }

    /// The `len` elements as a contiguous slice when the stride is 1.
    fn slice(&self, len: usize) -> Option<&[T]> {
        (self.stride == 1 || len <= 1).then(|| &self.data[self.off..self.off + len])
    }
}

/// Elements per task of a parallel dot product.
const DOT_CHUNK: usize = 1 << 15;

kernel! {
    /// `sum x[p] * y[p]` of strided vectors: four accumulators over scalar loads (a gather
    /// into scratch would read and write every element once more).
    fn dot_strided / dot_strided_wide / dot_strided_call(
        x: Vector<T>,
        y: Vector<T>,
        len: usize,
    ) -> T {
        let mut acc = [T::ZERO; 4];
        let full = len / 4 * 4;
        for p in (0..full).step_by(4) {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = a.add(x.at(p + j).mul(y.at(p + j)));
            }
        }
        for (j, p) in (full..len).enumerate() {
            acc[j] = acc[j].add(x.at(p).mul(y.at(p)));
        }
        reduce(acc)
    }
}

/// `sum x[p] * y[p]` over `len` elements of two strided vectors.
fn dot<T: Numeric, const L: usize>(x: Vector<T>, y: Vector<T>, len: usize) -> T {
    match (x.slice(len), y.slice(len)) {
        (Some(xs), Some(ys)) if len >= PAR_WORK && !crate::par::one_thread() => xs
            .par_chunks(DOT_CHUNK)
            .zip(ys.par_chunks(DOT_CHUNK))
            .map(|(a, b)| dot_contig_call::<T, L>(a, b))
            .reduce(|| T::ZERO, |s, t| s.add(t)),
        (Some(xs), Some(ys)) => dot_contig_call::<T, L>(xs, ys),
        _ => dot_strided_call::<T, L>(x, y, len),
    }
}

/// `c[i] = sum_p m[i, p] * v[p]` for `i < c.len()`, `p < len`; `None` when `m` has no unit
/// stride (the caller runs the GEMM).
fn mat_vec<T: Numeric, const L: usize>(
    m: Mat<T>,
    v: Vector<T>,
    len: usize,
    c: &mut [T],
) -> Option<()> {
    let rows = c.len();
    let par = rows * len >= PAR_WORK && rows > 1 && !crate::par::one_thread();
    if m.cs.abs() == 1 || len == 1 {
        dot_form::<T, L>(m, v, len, c, par);
        Some(())
    } else if m.rs.abs() == 1 || rows == 1 {
        axpy_form::<T, L>(m, v, len, c, par);
        Some(())
    } else {
        None
    }
}

/// Where row `i` of `m` (`len` elements, `cs == ±1`) starts in memory: at its first
/// element, or its last when `reversed` (`cs == -1`).
#[inline(always)]
fn row_start<T>(m: &Mat<T>, i: usize, len: usize, reversed: bool) -> usize {
    let first = m.off as isize + i as isize * m.rs;
    (if reversed {
        first - (len as isize - 1)
    } else {
        first
    }) as usize
}

kernel! {
    /// `out[i] = row(i0 + i) . vs` over contiguous rows of `m` (in memory order), one row
    /// at a time through the `L`-accumulator dot of [`dot_slices`] (a four-row tile
    /// compiled to 128-bit operations with shuffles and spills, and ran at half the speed).
    fn dot_rows / dot_rows_wide / dot_rows_call(
        m: Mat<T>,
        vs: &[T],
        reversed: bool,
        i0: usize,
        out: &mut [T],
    ) {
        let len = vs.len();
        for (i, o) in out.iter_mut().enumerate() {
            let s = row_start(&m, i0 + i, len, reversed);
            *o = dot_slices::<T, L>(&m.data[s..s + len], vs);
        }
    }
}

/// [`mat_vec`] by rows: `c[i]` is the dot product of the contiguous row `i` with `v`.
fn dot_form<T: Numeric, const L: usize>(
    m: Mat<T>,
    v: Vector<T>,
    len: usize,
    c: &mut [T],
    par: bool,
) {
    // Row `i` runs forward in memory when `cs == 1`, backward when `cs == -1`; `v` is
    // gathered in the same order unless it already is.
    let reversed = m.cs == -1 && len > 1;
    let scratch: Vec<T>;
    let vs: &[T] = match v.slice(len) {
        Some(s) if !reversed => s,
        _ => {
            scratch = if reversed {
                (0..len).map(|p| v.at(len - 1 - p)).collect()
            } else {
                (0..len).map(|p| v.at(p)).collect()
            };
            &scratch
        }
    };
    let rows = |i0: usize, out: &mut [T]| {
        let row = |i: usize| {
            let s = row_start(&m, i0 + i, len, reversed);
            &m.data[s..s + len]
        };
        if !gemv_fma::dot_rows(row, vs, out) {
            dot_rows_call::<T, L>(m, vs, reversed, i0, out);
        }
    };
    if par {
        let grain = (PAR_WORK / len.max(1)).max(1);
        c.par_chunks_mut(grain)
            .enumerate()
            .for_each(|(b, out)| rows(b * grain, out));
    } else {
        rows(0, c);
    }
}

kernel! {
    /// Rows `i0..i0 + out.len()` (in memory order) of `sum_p vv[p] * column(p)` over the
    /// contiguous columns of `m` (`rows` long, backward in memory when `reversed`), four
    /// columns per pass over `out`.
    fn axpy_rows / axpy_rows_wide / axpy_rows_call(
        m: Mat<T>,
        vv: &[T],
        rows: usize,
        reversed: bool,
        i0: usize,
        out: &mut [T],
    ) {
        let w = out.len();
        // Column `p` as rows are rows of the transpose.
        let mt = Mat { data: m.data, off: m.off, rs: m.cs, cs: m.rs };
        let col = |p: usize| {
            let s = row_start(&mt, p, rows, reversed) + i0;
            &m.data[s..s + w]
        };
        out.iter_mut().for_each(|x| *x = T::ZERO);
        let quads = vv.len() / 4 * 4;
        for p in (0..quads).step_by(4) {
            let (c0, c1, c2, c3) = (col(p), col(p + 1), col(p + 2), col(p + 3));
            let (x0, x1, x2, x3) = (vv[p], vv[p + 1], vv[p + 2], vv[p + 3]);
            for i in 0..w {
                let t = x0
                    .mul(c0[i])
                    .add(x1.mul(c1[i]))
                    .add(x2.mul(c2[i]).add(x3.mul(c3[i])));
                out[i] = out[i].add(t);
            }
        }
        for (p, &x) in vv.iter().enumerate().skip(quads) {
            for (o, &a) in out.iter_mut().zip(col(p)) {
                *o = o.add(x.mul(a));
            }
        }
    }
}

/// [`mat_vec`] by columns: `c += v[p] * m[:, p]` over contiguous columns (`rs == ±1`).
fn axpy_form<T: Numeric, const L: usize>(
    m: Mat<T>,
    v: Vector<T>,
    len: usize,
    c: &mut [T],
    par: bool,
) {
    let rows = c.len();
    // Reversed columns (`rs == -1`): `c` is computed in memory order and flipped at the end.
    let reversed = m.rs == -1 && rows > 1;
    let vv: Vec<T> = (0..len).map(|p| v.at(p)).collect();
    let grain = if par {
        (PAR_WORK / len.max(1)).clamp(AXPY_BLOCK / 4, AXPY_BLOCK)
    } else {
        AXPY_BLOCK
    };
    // Column `p` as rows are rows of the transpose.
    let mt = Mat {
        data: m.data,
        off: m.off,
        rs: m.cs,
        cs: m.rs,
    };
    let block = |(b, out): (usize, &mut [T])| {
        let (i0, w) = (b * grain, out.len());
        let col = |p: usize| {
            let s = row_start(&mt, p, rows, reversed) + i0;
            &m.data[s..s + w]
        };
        out.iter_mut().for_each(|x| *x = T::ZERO);
        if !gemv_fma::axpy_rows(col, &vv, out) {
            axpy_rows_call::<T, L>(m, &vv, rows, reversed, i0, out)
        }
    };
    if par {
        c.par_chunks_mut(grain).enumerate().for_each(block);
    } else {
        c.chunks_mut(grain).enumerate().for_each(block);
    }
    if reversed {
        c.reverse();
    }
}

/// `c = a @ b` (`c` row-major `m x n`) when `m == 1` or `n == 1`; `false` (nothing written)
/// when the product is not of that shape or its matrix has no unit stride.
pub(crate) fn try_gemv<T: Numeric, const L: usize>(
    m: usize,
    k: usize,
    n: usize,
    a: Mat<T>,
    b: Mat<T>,
    c: &mut [T],
) -> bool {
    debug_assert_eq!(c.len(), m * n);
    let a_row = |i: usize| Vector {
        data: a.data,
        off: (a.off as isize + i as isize * a.rs) as usize,
        stride: a.cs,
    };
    let b_col = |j: usize| Vector {
        data: b.data,
        off: (b.off as isize + j as isize * b.cs) as usize,
        stride: b.rs,
    };
    if m == 1 && n == 1 {
        c[0] = dot::<T, L>(a_row(0), b_col(0), k);
        true
    } else if n == 1 {
        mat_vec::<T, L>(a, b_col(0), k, c).is_some()
    } else if m == 1 {
        // v @ B = B^T @ v: the rows of B^T are the columns of B.
        let bt = Mat {
            data: b.data,
            off: b.off,
            rs: b.cs,
            cs: b.rs,
        };
        mat_vec::<T, L>(bt, a_row(0), k, c).is_some()
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every layout of `M @ v` and `v @ M` against the strided definition, for sizes around
    /// the accumulator width and the axpy block, in `T` (f64 and f32: their FMA loops, and
    /// the generic ones through i64). The values are small integers, so every sum is exact
    /// in any order.
    fn every_form_matches_the_definition_in<
        T: Numeric + Into<f64> + std::fmt::Debug,
        const L: usize,
    >(
        from: impl Fn(i64) -> T,
    ) {
        let data: Vec<T> = (0..300_000).map(|i| from((i * 37) % 23 - 11)).collect();
        for (m, k) in [(1, 1), (3, 7), (17, 33), (5, 1001), (1300, 9), (70, 1000)] {
            let (mi, ki) = (m as isize, k as isize);
            let layouts = [
                (0, ki, 1),                       // row-major
                (0, 1, mi),                       // column-major
                ((m - 1) * k, -ki, 1),            // rows reversed
                (k - 1, ki, -1),                  // columns reversed
                ((m - 1) + (k - 1) * m, -1, -mi), // column-major, both reversed
                (0, 2 * ki, 1),                   // every second row
                (0, 0, 1),                        // broadcast row
            ];
            for (off, rs, cs) in layouts {
                let a = Mat {
                    data: &data,
                    off,
                    rs,
                    cs,
                };
                for (voff, vs) in [(200_000, 1), (200_000, 2), (299_999, -1), (200_000, 0)] {
                    let v = Mat {
                        data: &data,
                        off: voff,
                        rs: vs,
                        cs: 7,
                    };
                    let want: Vec<f64> = (0..m)
                        .map(|i| (0..k).map(|p| a.at(i, p).into() * v.at(p, 0).into()).sum())
                        .collect();
                    let mut c = vec![from(1); m];
                    assert!(try_gemv::<T, L>(m, k, 1, a, v, &mut c));
                    let got: Vec<f64> = c.into_iter().map(Into::into).collect();
                    assert_eq!(got, want, "M @ v: {m}x{k} {rs} {cs} / {vs}");
                    // v @ M^T: the same numbers through the other entry.
                    let at = Mat {
                        data: &data,
                        off,
                        rs: cs,
                        cs: rs,
                    };
                    let vr = Mat {
                        data: &data,
                        off: voff,
                        rs: 7,
                        cs: vs,
                    };
                    let mut r = vec![from(1); m];
                    assert!(try_gemv::<T, L>(1, k, m, vr, at, &mut r));
                    let got: Vec<f64> = r.into_iter().map(Into::into).collect();
                    assert_eq!(got, want, "v @ M: {m}x{k} {rs} {cs} / {vs}");
                }
            }
        }
    }

    #[test]
    fn every_form_matches_the_definition() {
        every_form_matches_the_definition_in::<f64, 16>(|x| x as f64);
        every_form_matches_the_definition_in::<f32, 32>(|x| x as f32);
    }

    /// A NaN or an infinity anywhere in a row or in the vector reaches the outputs it
    /// touches (no `0 * x` shortcut), in both forms and in the loops' tails.
    #[test]
    fn nan_and_infinities_propagate() {
        for (m, k) in [(5, 37), (9, 8), (3, 1)] {
            for bad in [f64::NAN, f64::INFINITY] {
                let mut data = vec![0.0f64; m * k];
                data[(m - 1) * k + k - 1] = bad;
                let v = vec![0.0f64; k];
                let a = Mat {
                    data: &data,
                    off: 0,
                    rs: k as isize,
                    cs: 1,
                };
                let vm = Mat {
                    data: &v,
                    off: 0,
                    rs: 1,
                    cs: 1,
                };
                // `bad * 0` is NaN for both NaN and infinity.
                let mut c = vec![1.0; m];
                assert!(try_gemv::<f64, 16>(m, k, 1, a, vm, &mut c));
                assert!(c[..m - 1].iter().all(|&x| x == 0.0) && c[m - 1].is_nan());
                let at = Mat {
                    data: &data,
                    off: 0,
                    rs: 1,
                    cs: k as isize,
                };
                let vr = Mat {
                    data: &v,
                    off: 0,
                    rs: 1,
                    cs: 1,
                };
                let mut r = vec![1.0; m];
                assert!(try_gemv::<f64, 16>(1, k, m, vr, at, &mut r));
                assert!(r[..m - 1].iter().all(|&x| x == 0.0) && r[m - 1].is_nan());
                // The same numbers read as a column-major matrix: the axpy form.
                let col_major = Mat {
                    data: &data,
                    off: 0,
                    rs: 1,
                    cs: m as isize,
                };
                let mut c = vec![1.0; m];
                assert!(try_gemv::<f64, 16>(m, k, 1, col_major, vm, &mut c));
                assert!(c[..m - 1].iter().all(|&x| x == 0.0) && c[m - 1].is_nan());
            }
        }
    }

    #[test]
    fn matrices_without_a_unit_stride_go_back_to_the_gemm() {
        let data = vec![1.0f32; 100];
        let a = Mat {
            data: &data,
            off: 0,
            rs: 10,
            cs: 2,
        };
        let v = Mat {
            data: &data,
            off: 0,
            rs: 1,
            cs: 1,
        };
        let mut c = vec![0.0f32; 3];
        assert!(!try_gemv::<f32, 32>(3, 4, 1, a, v, &mut c));
        let mut d = [0.0f32];
        assert!(try_gemv::<f32, 32>(1, 4, 1, a, v, &mut d));
        assert_eq!(d[0], 4.0);
    }
}
