//! Stacks of small matrices (order [`SMALL_MAX`] or less) on the CPU: LU with partial
//! pivoting, its solve and inverse, and Cholesky, unblocked, in place in one output buffer
//! allocated for the whole batch, the batch split over rayon in chunks of matrices. faer's
//! routines pay a few allocations and their setup per matrix, which dominated stacks of
//! 3 x 3 to 8 x 8 matrices (2-4x NumPy's time for 10 000 of them).
//!
//! The factors follow LAPACK's conventions, as the CUDA backend's small-matrix kernels do:
//! the pivot of column `k` is the first row of largest `|re| + |im|` at or below `k` (`i?amax`),
//! a zero pivot divides nothing (`U` keeps the zero), pivots are 1-based; Cholesky reads the
//! lower triangle, stops at the first diagonal step that is not positive (or NaN) with
//! `info = k + 1` (that matrix's factor is then all NaN), and leaves the strict upper
//! triangle zero.

use cuprite_core::Inexact;
use num_complex::ComplexFloat;
use num_traits::{One, Zero};
use rayon::prelude::*;

/// The largest order these routines take.
pub(crate) const SMALL_MAX: usize = 16;

/// Matrices per rayon task: enough work per task that the split costs nothing.
fn per_task(n: usize) -> usize {
    (4096 / (n * n * n).max(1)).max(1)
}

/// `|re| + |im|`, the magnitude LAPACK pivots on.
fn abs1<T: Inexact>(x: T) -> T::RealPart {
    ComplexFloat::abs(x.re()) + ComplexFloat::abs(x.im())
}

/// LAPACK's `getf2` in place on the column-major `n x n` matrix `a`, its 1-based pivots
/// written to `piv`: a zero pivot leaves its column unscaled instead of dividing by zero, so
/// an exactly singular matrix gives a zero on `U`'s diagonal, never NaN. (The faer path of
/// larger orders redoes its singular matrices with it.)
pub(crate) fn getf2<T: Inexact>(a: &mut [T], piv: &mut [i32], n: usize) {
    for k in 0..n {
        let col = k * n;
        let (mut p, mut best) = (k, abs1(a[col + k]));
        for i in k + 1..n {
            let v = abs1(a[col + i]);
            if v > best {
                (p, best) = (i, v);
            }
        }
        piv[k] = (p + 1) as i32;
        let pivot = a[col + p];
        if pivot == T::zero() {
            continue;
        }
        if p != k {
            for j in 0..n {
                a.swap(j * n + k, j * n + p);
            }
        }
        for i in k + 1..n {
            a[col + i] = a[col + i] / pivot;
        }
        let (done, rest) = a.split_at_mut((k + 1) * n);
        let l = &done[col + k + 1..col + n];
        for c in rest.chunks_exact_mut(n) {
            let ukj = c[k];
            if ukj == T::zero() {
                continue;
            }
            for (x, &lik) in c[k + 1..].iter_mut().zip(l) {
                *x = *x - lik * ukj;
            }
        }
    }
}

/// `P A = L U` of `batch` column-major `n x n` matrices: the packed factors and the pivots.
pub(crate) fn lu<T: Inexact>(a: &[T], batch: usize, n: usize) -> (Vec<T>, Vec<i32>) {
    let mut f = a[..batch * n * n].to_vec();
    let mut piv = vec![0i32; batch * n];
    if n > 0 {
        f.par_chunks_mut(n * n)
            .zip(piv.par_chunks_mut(n))
            .with_min_len(per_task(n))
            .for_each(|(m, p)| getf2(m, p, n));
    }
    (f, piv)
}

/// Overwrites the `n x nrhs` right-hand sides `x` with the solution of `A X = B` from the
/// factors `f` and pivots `piv` of one matrix (LAPACK's `getrs`).
fn getrs<T: Inexact>(f: &[T], piv: &[i32], x: &mut [T], n: usize) {
    for col in x.chunks_exact_mut(n) {
        for (k, &p) in piv.iter().enumerate() {
            // Pivots out of range are clamped to the matrix, never read out of it.
            let p = ((p - 1).max(k as i32) as usize).min(n - 1);
            col.swap(k, p);
        }
        for k in 0..n {
            let xk = col[k];
            if xk != T::zero() {
                for (xi, &lik) in col[k + 1..].iter_mut().zip(&f[k * n + k + 1..k * n + n]) {
                    *xi = *xi - lik * xk;
                }
            }
        }
        for k in (0..n).rev() {
            if col[k] != T::zero() {
                col[k] = col[k] / f[k * n + k];
                let xk = col[k];
                for (xi, &uik) in col[..k].iter_mut().zip(&f[k * n..k * n + k]) {
                    *xi = *xi - uik * xk;
                }
            }
        }
    }
}

/// `A X = B` for `batch` factorisations from [`lu`] and the `n x nrhs` right-hand sides of
/// `b`, or of the identity (`nrhs == n`: the inverse) when `b` is `None`.
pub(crate) fn solve<T: Inexact>(
    f: &[T],
    piv: &[i32],
    b: Option<&[T]>,
    batch: usize,
    n: usize,
    nrhs: usize,
) -> Vec<T> {
    let mut x = match b {
        Some(b) => b[..batch * n * nrhs].to_vec(),
        None => {
            let mut x = vec![T::zero(); batch * n * n];
            for m in x.chunks_exact_mut(n * n) {
                for i in 0..n {
                    m[i * n + i] = T::one();
                }
            }
            x
        }
    };
    if n > 0 && nrhs > 0 {
        x.par_chunks_mut(n * nrhs)
            .zip(f.par_chunks(n * n))
            .zip(piv.par_chunks(n))
            .with_min_len(per_task(n))
            .for_each(|((x, f), p)| getrs(f, p, x, n));
    }
    x
}

/// LAPACK's `potf2` (lower) in place on one column-major matrix: the info code.
fn potf2<T: Inexact>(a: &mut [T], n: usize) -> i32 {
    for k in 0..n {
        let d = a[k * n + k].re();
        // Not positive, or NaN.
        if d.partial_cmp(&T::RealPart::zero()) != Some(std::cmp::Ordering::Greater) {
            // The factor of a failed matrix is NaN, as faer's path leaves it.
            a.fill(T::from_real(num_traits::Float::nan()));
            return (k + 1) as i32;
        }
        let s = num_traits::Float::sqrt(d);
        a[k * n + k] = T::from_real(s);
        let inv = T::from_real(T::RealPart::one() / s);
        let (done, rest) = a.split_at_mut((k + 1) * n);
        let lk = &mut done[k * n + k + 1..k * n + n];
        for x in lk.iter_mut() {
            *x = *x * inv;
        }
        for (jj, c) in rest.chunks_exact_mut(n).enumerate() {
            let j = k + 1 + jj;
            let ljk = lk[jj].conj();
            for (x, &lik) in c[j..].iter_mut().zip(&lk[jj..]) {
                *x = *x - lik * ljk;
            }
        }
    }
    for j in 1..n {
        a[j * n..j * n + j].fill(T::zero());
    }
    0
}

/// The Cholesky factors (lower) of `batch` column-major `n x n` matrices and their info
/// codes.
pub(crate) fn cholesky<T: Inexact>(a: &[T], batch: usize, n: usize) -> (Vec<T>, Vec<i32>) {
    let mut l = a[..batch * n * n].to_vec();
    let mut info = vec![0i32; batch];
    if n > 0 {
        l.par_chunks_mut(n * n)
            .zip(info.par_iter_mut())
            .with_min_len(per_task(n))
            .for_each(|(m, i)| *i = potf2(m, n));
    }
    (l, info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::c128;

    fn c(re: f64, im: f64) -> c128 {
        c128::new(re, im)
    }

    #[test]
    fn lu_pivots_on_re_plus_im_and_keeps_zero_pivots() {
        // Column 0: row 0 is 1 + 3i (|re| + |im| = 4, modulus 3.16), row 2 is 3.2 (3.2 both
        // ways): LAPACK's rule keeps row 0 where the modulus would take row 2.
        let a = vec![
            c(1.0, 3.0),
            c(3.0, 0.0),
            c(3.2, 0.0),
            c(1.0, 0.0),
            c(0.0, 1.0),
            c(2.0, 0.0),
            c(0.0, 0.0),
            c(1.0, 1.0),
            c(4.0, 0.0),
        ];
        let (f, piv) = lu(&a, 1, 3);
        assert_eq!(piv[0], 1, "the first row of largest |re| + |im|");
        // P A = L U.
        let mut pa = a.clone();
        for (k, &p) in piv.iter().enumerate() {
            for j in 0..3 {
                pa.swap(j * 3 + k, j * 3 + p as usize - 1);
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                let mut x = if i <= j { f[j * 3 + i] } else { c(0.0, 0.0) };
                for p in 0..i.min(j + 1) {
                    x += f[p * 3 + i] * f[j * 3 + p];
                }
                assert!((x - pa[j * 3 + i]).norm() < 1e-12, "({i}, {j})");
            }
        }
        // A zero column: U(0, 0) stays 0 and nothing is NaN.
        let (f, piv) = lu(&[0.0, 0.0, 1.0, 2.0], 1, 2);
        assert_eq!((f, piv), (vec![0.0, 0.0, 1.0, 2.0], vec![1, 2]));
    }

    #[test]
    fn solve_inverse_and_cholesky_of_a_batch() {
        // Two 2 x 2 matrices, column-major: [[4, 1], [2, 3]] and [[1, 2], [3, 4]].
        let a = vec![4.0, 2.0, 1.0, 3.0, 1.0, 3.0, 2.0, 4.0];
        let (f, piv) = lu(&a, 2, 2);
        let x = solve(&f, &piv, Some(&[5.0, 5.0, 3.0, 7.0]), 2, 2, 1);
        assert!(x.iter().all(|v| (v - 1.0).abs() < 1e-15), "{x:?}");
        let inv = solve(&f, &piv, None, 2, 2, 2);
        let want = [0.3, -0.2, -0.1, 0.4, -2.0, 1.5, 1.0, -0.5];
        for (g, w) in inv.iter().zip(want) {
            assert!((g - w).abs() < 1e-15, "{inv:?}");
        }
        // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]]; the upper entry is never read.
        // The second matrix is not positive definite at order 2.
        let spd = vec![4.0, 2.0, f64::NAN, 5.0, 1.0, 2.0, 0.0, 1.0];
        let (l, info) = cholesky(&spd, 2, 2);
        assert_eq!(&l[..4], &[2.0, 1.0, 0.0, 2.0]);
        assert!(l[4..].iter().all(|x| x.is_nan()));
        assert_eq!(info, vec![0, 2]);
    }
}
