//! The batched small-matrix paths on a GPU: `lu_factor`, `lu_solve`, `lu_inverse` and
//! `cholesky` of orders 1 to 32 in one launch (`small`), and `eigh` through the batched
//! Jacobi solver. Each matrix is checked against identities (`P A = L U`, the pivot rule,
//! `A X = B`, `A A^-1 = I`, `A v = w v`) and the CPU backend (Cholesky factors,
//! eigenvalues), for every element type, at orders on both sides of each segment width and
//! a batch that fills no warp evenly, with an exactly singular, a NaN and a non-positive-
//! definite matrix among regular ones; order 40 keeps the per-matrix cuSOLVER path covered.
//! Ignored by default (they need a CUDA device); without a device they print why and pass.

use super::tests_gpu::{max_diff, rand, to_c, tol, val};
use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::backend::LinalgOps;
use cuprite_core::{c128, c64, Inexact, Result};
use cuprite_cpu::{Cpu, CpuBuffer};

/// Orders around every segment width (4, 8, 16, 32) and one past the small path.
const ORDERS: [usize; 12] = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32, 40];
/// Matrices per batch: a multiple of no segment count (8, 4, 2 or 1 per warp) past one warp.
const BATCH: usize = 37;

/// Element `(i, j)` of matrix `b` of a batch of column-major `n x n` matrices.
fn at<T: Copy>(m: &[T], n: usize, b: usize, i: usize, j: usize) -> T {
    m[b * n * n + j * n + i]
}

/// `|re| + |im|`, the magnitude LAPACK pivots on.
fn abs1(z: c128) -> f64 {
    z.re.abs() + z.im.abs()
}

/// `batch` well-conditioned matrices whose factorisation must swap rows: values in [-1, 1)
/// plus `n` at `(i, (i + b) % n)` of matrix `b` (a scaled cyclic shift).
fn shifted<T: Inexact>(n: usize, batch: usize, seed: u64) -> Vec<T> {
    let mut a = rand::<T>(batch * n * n, seed);
    for b in 0..batch {
        for i in 0..n {
            let idx = b * n * n + ((i + b) % n) * n + i;
            a[idx] = a[idx] + val::<T>(n as f64, 0.0);
        }
    }
    a
}

fn check_lu_solve_inverse<T: Inexact>(dev: &Cuda, n: usize) -> Result<()> {
    let (batch, k) = (BATCH, 3);
    let eps = tol::<T>() * 4.0 * n as f64;
    let mut a = shifted::<T>(n, batch, 11 + n as u64);
    // Matrix 1 is exactly singular (its first column is zero); matrix 2 holds a NaN.
    a[n * n..n * n + n].iter_mut().for_each(|x| *x = T::ZERO);
    a[3 * n * n - 1] = val(f64::NAN, 0.0);
    let (lu_d, piv_d) = dev.lu_factor(&dev.upload(&a)?, batch, n)?;
    let (lu, piv) = (dev.download(&lu_d)?, dev.download(&piv_d)?);
    let what = |b: usize| format!("{}, order {n}, matrix {b}", std::any::type_name::<T>());
    for b in (0..batch).filter(|&b| b != 2) {
        // P A = L U: replay the row swaps on A, multiply the packed factors.
        let mut pa: Vec<c128> = a[b * n * n..(b + 1) * n * n]
            .iter()
            .map(|&x| to_c(x))
            .collect();
        for (i, &p) in piv[b * n..(b + 1) * n].iter().enumerate() {
            assert!(
                p as usize > i && p as usize <= n,
                "1-based pivot {p} at {i}: {}",
                what(b)
            );
            for j in 0..n {
                pa.swap(j * n + i, j * n + p as usize - 1);
            }
        }
        let f = |i: usize, j: usize| to_c(at(&lu, n, b, i, j));
        for i in 0..n {
            for j in 0..n {
                let mut x = if i <= j { f(i, j) } else { c128::new(0.0, 0.0) };
                for p in 0..i.min(j + 1) {
                    x += f(i, p) * f(p, j);
                }
                let want = pa[j * n + i];
                assert!(
                    (x - want).norm() < eps,
                    "P A = L U at ({i}, {j}): {}",
                    what(b)
                );
            }
        }
        // The pivot rule: no multiplier's row was larger than the pivot's.
        for c in 0..n {
            for i in c + 1..n {
                assert!(
                    abs1(f(i, c) * f(c, c)) <= abs1(f(c, c)) * (1.0 + eps),
                    "pivot of column {c}: {}",
                    what(b)
                );
            }
        }
    }
    let singular = &lu[n * n..2 * n * n];
    assert!(
        to_c(singular[0]).norm() == 0.0,
        "U(0, 0) of the singular matrix"
    );
    assert!(
        singular.iter().all(|x| to_c(*x).is_finite()),
        "a zero pivot divides nothing"
    );
    // A X = B and A A^-1 = I for the regular matrices, from the factors of the whole batch.
    let rhs = rand::<T>(batch * n * k, 5);
    let x = dev.download(&dev.lu_solve(&lu_d, &piv_d, &dev.upload(&rhs)?, batch, n, k)?)?;
    let inv = dev.download(&dev.lu_inverse(&lu_d, &piv_d, batch, n)?)?;
    assert_eq!((x.len(), inv.len()), (batch * n * k, batch * n * n));
    for b in (0..batch).filter(|&b| b > 2) {
        for c in 0..k {
            for i in 0..n {
                let ax: c128 = (0..n)
                    .map(|j| to_c(at(&a, n, b, i, j)) * to_c(x[b * n * k + c * n + j]))
                    .sum();
                let d = (ax - to_c(rhs[b * n * k + c * n + i])).norm();
                assert!(d < eps, "A x = b at ({i}, {c}): {}", what(b));
            }
        }
        for c in 0..n {
            for i in 0..n {
                let ax: c128 = (0..n)
                    .map(|j| to_c(at(&a, n, b, i, j)) * to_c(at(&inv, n, b, j, c)))
                    .sum();
                let want = c128::new(if i == c { 1.0 } else { 0.0 }, 0.0);
                assert!(
                    (ax - want).norm() < eps,
                    "A A^-1 = I at ({i}, {c}): {}",
                    what(b)
                );
            }
        }
    }
    Ok(())
}

fn check_cholesky_eigh<T: Inexact>(dev: &Cuda, n: usize) -> Result<()> {
    let cpu = Cpu::new();
    let batch = BATCH;
    let eps = tol::<T>() * 10.0 * n as f64;
    // A = B B^H + n I, lower triangle; the strict upper triangle is garbage (never read).
    let r = rand::<T>(batch * n * n, 17 + n as u64);
    let mut a = vec![T::ZERO; batch * n * n];
    for b in 0..batch {
        for i in 0..n {
            for j in 0..=i {
                let mut s = if i == j {
                    val::<T>(n as f64, 0.0)
                } else {
                    T::ZERO
                };
                for p in 0..n {
                    s = s + at(&r, n, b, i, p) * at(&r, n, b, j, p).conj();
                }
                a[b * n * n + j * n + i] = s;
                if i != j {
                    a[b * n * n + i * n + j] = val(1e3, -1e3);
                }
            }
        }
    }
    // Matrix 3: its leading minor of order `bad` is not positive definite.
    let bad = n.min(3);
    a[3 * n * n + (bad - 1) * n + bad - 1] = val(-1e3, 0.0);
    let what = |b: usize| format!("{}, order {n}, matrix {b}", std::any::type_name::<T>());
    let (l_d, info_d) = dev.cholesky(&dev.upload(&a)?, batch, n)?;
    let (l, info) = (dev.download(&l_d)?, dev.download(&info_d)?);
    let want_info: Vec<i32> = (0..batch)
        .map(|b| if b == 3 { bad as i32 } else { 0 })
        .collect();
    assert_eq!(info, want_info, "info codes, order {n}");
    let (cl, _) = cpu.cholesky(&CpuBuffer::new(a.clone()), batch, n)?;
    for b in (0..batch).filter(|&b| b != 3) {
        let m = b * n * n..(b + 1) * n * n;
        assert!(
            max_diff(&l[m.clone()], &cl.as_slice()[m]) < eps,
            "L: {}",
            what(b)
        );
        for j in 0..n {
            for i in 0..j {
                assert!(
                    at(&l, n, b, i, j) == T::ZERO,
                    "upper ({i}, {j}): {}",
                    what(b)
                );
            }
        }
    }
    // eigh: the eigenvalues against the CPU's, with and without vectors; A v = w v.
    let f = dev.eigh(&dev.upload(&a)?, batch, n, true)?;
    let values_only = dev.eigh(&dev.upload(&a)?, batch, n, false)?;
    let cf = cpu.eigh(&CpuBuffer::new(a.clone()), batch, n, false)?;
    assert_eq!(
        dev.download(&f.info)?,
        vec![0; batch],
        "eigh info, order {n}"
    );
    // Matrix 3 (a diagonal entry of -1e3) is decomposed but left out of the comparisons,
    // whose tolerance is for entries of at most 3n.
    let (w, w_only) = (dev.download(&f.w)?, dev.download(&values_only.w)?);
    let eps = eps * 3.0 * n as f64;
    for b in (0..batch).filter(|&b| b != 3) {
        let m = b * n..(b + 1) * n;
        let want = &cf.w.as_slice()[m.clone()];
        assert!(
            max_diff(&w[m.clone()], want) < eps,
            "eigenvalues: {}",
            what(b)
        );
        assert!(
            max_diff(&w_only[m], want) < eps,
            "eigenvalues alone: {}",
            what(b)
        );
    }
    let v = dev.download(&f.v.expect("vectors"))?;
    for b in (0..batch).filter(|&b| b != 3) {
        let full = |i: usize, j: usize| {
            if i >= j {
                at(&a, n, b, i, j)
            } else {
                at(&a, n, b, j, i).conj()
            }
        };
        for c in 0..n {
            for i in 0..n {
                let av: c128 = (0..n)
                    .map(|j| to_c(full(i, j)) * to_c(at(&v, n, b, j, c)))
                    .sum();
                let wv = to_c(at(&v, n, b, i, c)) * to_c(w[b * n + c]);
                assert!((av - wv).norm() < eps, "A v = w v: {}", what(b));
            }
        }
    }
    Ok(())
}

macro_rules! each_type_and_order {
    ($f:ident, $dev:expr) => {{
        for n in ORDERS {
            $f::<f32>($dev, n)?;
            $f::<f64>($dev, n)?;
            $f::<c64>($dev, n)?;
            $f::<c128>($dev, n)?;
        }
    }};
}

#[test]
#[ignore = "needs a CUDA device"]
fn batched_lu_solve_and_inverse_of_small_matrices() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type_and_order!(check_lu_solve_inverse, &dev);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn batched_cholesky_and_eigh_of_small_matrices() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type_and_order!(check_cholesky_eigh, &dev);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn small_solve_rejects_short_buffers() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let a = dev.upload(&rand::<f64>(2 * 9, 1))?;
    let short = dev.upload(&rand::<f64>(5, 2))?;
    let (lu, piv) = dev.lu_factor(&a, 2, 3)?;
    let err = dev.lu_solve(&lu, &piv, &short, 2, 3, 1).unwrap_err();
    assert!(err.to_string().contains("lu_solve"), "{err}");
    assert!(dev.lu_factor(&short, 2, 3).is_err());
    assert!(dev.cholesky(&short, 2, 3).is_err());
    Ok(())
}
