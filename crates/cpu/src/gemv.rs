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
//! `matmul.rs`) so that they vectorise, and run compiled for AVX2 + FMA where the CPU has
//! them ([`crate::simd::wide`]). Every product is computed and summed (no `0 * x`
//! shortcut), so NaN and infinities propagate as in a plain sum of products; the order of
//! the sum differs from the GEMM's. Above [`PAR_WORK`] multiply-adds the work is split
//! over rayon.

use super::Mat;
use crate::simd;
use cuprite_core::{DType, Element, Numeric};
use rayon::prelude::*;

/// From this many multiply-adds on, a product is split over rayon. Measured on the 2-core
/// development machine with `M(m x k) @ v` of f64: a split of 2^15 multiply-adds was
/// slower than one thread, from 2^16 on it was faster.
pub(crate) const PAR_WORK: usize = 1 << 16;

/// Outputs of the axpy form updated per pass over the columns (an L1-sized block of `c`).
const AXPY_BLOCK: usize = 512;

/// Runs `f` compiled for AVX2 + FMA for the float and complex types.
#[inline(always)]
fn wide<T: Element, R>(f: impl FnOnce() -> R) -> R {
    if const { matches!(T::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128) } {
        simd::wide(f)
    } else {
        f()
    }
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

/// `sum x[p] * y[p]` of two contiguous slices of equal length, `L` (a power of two)
/// independent accumulators.
#[inline(always)]
fn dot_contig<T: Numeric, const L: usize>(x: &[T], y: &[T]) -> T {
    debug_assert_eq!(x.len(), y.len());
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let (xc, yc) = (x.chunks_exact(L), y.chunks_exact(L));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    let mut acc = [T::ZERO; L];
    for (a, b) in xc.zip(yc) {
        for j in 0..L {
            acc[j] = acc[j].add(a[j].mul(b[j]));
        }
    }
    for (j, (a, b)) in xr.iter().zip(yr).enumerate() {
        acc[j] = acc[j].add(a.mul(*b));
    }
    reduce(acc)
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

/// `sum x[p] * y[p]` over `len` elements of two strided vectors.
fn dot<T: Numeric, const L: usize>(x: Vector<T>, y: Vector<T>, len: usize) -> T {
    if let (Some(xs), Some(ys)) = (x.slice(len), y.slice(len)) {
        if len >= PAR_WORK {
            return xs
                .par_chunks(DOT_CHUNK)
                .zip(ys.par_chunks(DOT_CHUNK))
                .map(|(a, b)| wide::<T, _>(|| dot_contig::<T, L>(a, b)))
                .reduce(|| T::ZERO, |s, t| s.add(t));
        }
        return wide::<T, _>(|| dot_contig::<T, L>(xs, ys));
    }
    // Strided: four accumulators over scalar loads (a gather into scratch would read and
    // write every element once more).
    wide::<T, _>(|| {
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
    })
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
    let par = rows * len >= PAR_WORK && rows > 1;
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

/// [`mat_vec`] by rows: `c[i]` is the dot product of the contiguous row `i` with `v`.
fn dot_form<T: Numeric, const L: usize>(
    m: Mat<T>,
    v: Vector<T>,
    len: usize,
    c: &mut [T],
    par: bool,
) {
    // Row `i` occupies `data[start(i)..start(i) + len]`, in order when `cs == 1`, reversed
    // when `cs == -1`; `v` is gathered in the same order unless it already is.
    let reversed = m.cs == -1 && len > 1;
    let start = |i: usize| {
        let first = m.off as isize + i as isize * m.rs;
        (if reversed {
            first - (len as isize - 1)
        } else {
            first
        }) as usize
    };
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
        wide::<T, _>(|| {
            for (i, o) in out.iter_mut().enumerate() {
                let s = start(i0 + i);
                *o = dot_contig::<T, L>(&m.data[s..s + len], vs);
            }
        })
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

/// [`mat_vec`] by columns: `c += v[p] * m[:, p]` over contiguous columns (`rs == ±1`).
fn axpy_form<T: Numeric, const L: usize>(
    m: Mat<T>,
    v: Vector<T>,
    len: usize,
    c: &mut [T],
    par: bool,
) {
    let rows = c.len();
    // Column `p` occupies `data[start(p)..start(p) + rows]`, reversed when `rs == -1`
    // (then `c` is computed reversed and flipped at the end).
    let reversed = m.rs == -1 && rows > 1;
    let start = |p: usize| {
        let first = m.off as isize + p as isize * m.cs;
        (if reversed {
            first - (rows as isize - 1)
        } else {
            first
        }) as usize
    };
    let vv: Vec<T> = (0..len).map(|p| v.at(p)).collect();
    // Rows `i0..i0 + out.len()` (in memory order) of the result.
    let block = |i0: usize, out: &mut [T]| {
        wide::<T, _>(|| {
            let w = out.len();
            out.iter_mut().for_each(|x| *x = T::ZERO);
            let quads = len / 4 * 4;
            for p in (0..quads).step_by(4) {
                let (s0, s1, s2, s3) = (start(p), start(p + 1), start(p + 2), start(p + 3));
                let c0 = &m.data[s0 + i0..s0 + i0 + w];
                let c1 = &m.data[s1 + i0..s1 + i0 + w];
                let c2 = &m.data[s2 + i0..s2 + i0 + w];
                let c3 = &m.data[s3 + i0..s3 + i0 + w];
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
                let s = start(p);
                for (o, &a) in out.iter_mut().zip(&m.data[s + i0..s + i0 + w]) {
                    *o = o.add(x.mul(a));
                }
            }
        })
    };
    if par {
        let grain = (PAR_WORK / len.max(1)).clamp(AXPY_BLOCK / 4, AXPY_BLOCK);
        c.par_chunks_mut(grain)
            .enumerate()
            .for_each(|(b, out)| block(b * grain, out));
    } else {
        c.chunks_mut(AXPY_BLOCK)
            .enumerate()
            .for_each(|(b, out)| block(b * AXPY_BLOCK, out));
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
    /// the accumulator width and the axpy block.
    #[test]
    fn every_form_matches_the_definition() {
        let data: Vec<f64> = (0..300_000)
            .map(|i| ((i * 37) % 23) as f64 - 11.0)
            .collect();
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
                        .map(|i| (0..k).map(|p| a.at(i, p) * v.at(p, 0)).sum())
                        .collect();
                    let mut c = vec![f64::NAN; m];
                    assert!(try_gemv::<f64, 16>(m, k, 1, a, v, &mut c));
                    assert_eq!(c, want, "M @ v: {m}x{k} {rs} {cs} / {vs}");
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
                    let mut r = vec![f64::NAN; m];
                    assert!(try_gemv::<f64, 16>(1, k, m, vr, at, &mut r));
                    assert_eq!(r, want, "v @ M: {m}x{k} {rs} {cs} / {vs}");
                }
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
