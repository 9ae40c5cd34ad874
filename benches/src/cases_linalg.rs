//! The linear-algebra comparison cases: `svd`, `inv`, `solve` and `qr` of an `n x n` matrix
//! of uniform [0, 1) values (as the notebooks) and `cholesky` of a positive definite one,
//! each checked once, untimed, on the host in O(n^2): by random probes `A r` against
//! `U (S (Vh r))` and `U^T (U r)` against `r` for the SVD, `A (X r)` against `r` for the
//! inverse, the residual `A x - b` for the solve, `L (L^T r)` against `A r` for the Cholesky
//! factor and `Q (R r)` against `A r` and `Q^T (Q r)` against `r` for the QR, with the
//! triangles checked exactly. A wrong factor or a wrong element fails the probe; a correct
//! result passes with a tolerance far above its rounding.

use crate::cases::{case, close, download, same_shape, Case};
use crate::data::uniform;
use cuprite::{Array, ArrayBackend, QrMode, Result};

/// `m v` for a row-major `n x n` matrix.
fn matvec(m: &[f64], v: &[f64]) -> Vec<f64> {
    let n = v.len();
    m.chunks(n)
        .map(|row| row.iter().zip(v).map(|(x, y)| x * y).sum())
        .collect()
}

/// `m^T v` for a row-major `n x n` matrix.
fn matvec_t(m: &[f64], v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let mut out = vec![0.0; n];
    for (row, &vi) in m.chunks(n).zip(v) {
        for (o, x) in out.iter_mut().zip(row) {
            *o += x * vi;
        }
    }
    out
}

/// The probe vector: uniform in [-1, 1].
fn probe(n: usize) -> Vec<f64> {
    uniform(n, -1.0, 1.0, 29)
}

/// The input matrix: uniform [0, 1), row-major.
fn input(n: usize) -> Vec<f64> {
    uniform(n * n, 0.0, 1.0, 27)
}

/// The factors `(U, S, Vh)` of an SVD.
type SvdFactors<B> = (Array<f64, B>, Array<f64, B>, Array<f64, B>);

/// `svd(a)` with `U`, `S` and `Vh` of a square matrix.
pub fn svd_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let host = input(n);
    let a = Array::from_slice(&host, &[n, n], dev)?;
    Ok(case(
        dev,
        (a, host),
        |(a, _)| a.svd(true),
        move |(_, host), (u, s, vh): &SvdFactors<B>| {
            same_shape(u.shape(), &[n, n])?;
            same_shape(s.shape(), &[n])?;
            same_shape(vh.shape(), &[n, n])?;
            let (u, s, vh) = (download(u)?, download(s)?, download(vh)?);
            if s.windows(2).any(|w| w[1] > w[0]) || s.iter().any(|&x| x < 0.0 || x.is_nan()) {
                return Err("singular values not non-negative and non-increasing".into());
            }
            let r = probe(n);
            let scale = s[0].max(1.0) * n as f64;
            let svr: Vec<f64> = matvec(&vh, &r).iter().zip(&s).map(|(x, y)| x * y).collect();
            close(&matvec(&u, &svr), &matvec(host, &r), |_| 1e-12 * scale)?;
            close(&matvec_t(&u, &matvec(&u, &r)), &r, |_| 1e-12 * n as f64)?;
            close(&matvec(&vh, &matvec_t(&vh, &r)), &r, |_| 1e-12 * n as f64)
        },
    ))
}

/// `inv(a)` of a square matrix.
pub fn inv_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let host = input(n);
    let a = Array::from_slice(&host, &[n, n], dev)?;
    Ok(case(
        dev,
        (a, host),
        |(a, _)| a.inv(),
        move |(_, host), x: &Array<f64, B>| {
            same_shape(x.shape(), &[n, n])?;
            let x = download(x)?;
            let r = probe(n);
            close(&matvec(host, &matvec(&x, &r)), &r, |_| 1e-7)
        },
    ))
}

/// The right-hand side of the solve: uniform in [-1, 1].
fn rhs(n: usize) -> Vec<f64> {
    uniform(n, -1.0, 1.0, 31)
}

/// `solve(a, b)` of a square matrix and one right-hand side.
pub fn solve_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let host = input(n);
    let a = Array::from_slice(&host, &[n, n], dev)?;
    let b = Array::from_slice(&rhs(n), &[n], dev)?;
    Ok(case(
        dev,
        (a, b, host),
        |(a, b, _)| a.solve(b),
        move |(_, _, host), x: &Array<f64, B>| {
            same_shape(x.shape(), &[n])?;
            let x = download(x)?;
            close(&matvec(host, &x), &rhs(n), |_| 1e-7)
        },
    ))
}

/// Whether the row-major `n x n` matrix `m` is zero strictly above (`upper`) or below its
/// diagonal.
fn triangular(m: &[f64], n: usize, lower: bool) -> std::result::Result<(), String> {
    for (i, row) in m.chunks(n).enumerate() {
        let outside = if lower { &row[i + 1..] } else { &row[..i] };
        if let Some(j) = outside.iter().position(|&x| x != 0.0) {
            return Err(format!(
                "element [{i}, {}] is {} outside the triangle",
                if lower { i + 1 + j } else { j },
                outside[j]
            ));
        }
    }
    Ok(())
}

/// `cholesky(a)` of `a = g @ g.T + n I` (`g` the uniform input), built on the device.
pub fn cholesky_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let g = Array::from_slice(&input(n), &[n, n], dev)?;
    let eye = Array::<f64, B>::eye(n, None, 0, dev)?;
    let a = g
        .matmul(&g.t())?
        .try_add(&eye.try_mul(&Array::scalar(n as f64, dev)?)?)?;
    let host = a.to_vec()?;
    Ok(case(
        dev,
        (a, host),
        |(a, _)| a.cholesky(),
        move |(_, host), l: &Array<f64, B>| {
            same_shape(l.shape(), &[n, n])?;
            let l = download(l)?;
            triangular(&l, n, true)?;
            let r = probe(n);
            let scale = host.iter().fold(0.0f64, |m, x| m.max(x.abs())) * n as f64;
            close(&matvec(&l, &matvec_t(&l, &r)), &matvec(host, &r), |_| {
                1e-13 * scale
            })
        },
    ))
}

/// The factors `(Q, R)` of a QR.
type QrFactors<B> = (Array<f64, B>, Array<f64, B>);

/// `qr(a)` (reduced) of a square matrix.
pub fn qr_case<B: ArrayBackend>(dev: &B, n: usize) -> Result<Box<dyn Case>> {
    let host = input(n);
    let a = Array::from_slice(&host, &[n, n], dev)?;
    Ok(case(
        dev,
        (a, host),
        |(a, _)| a.qr(QrMode::Reduced),
        move |(_, host), (q, r): &QrFactors<B>| {
            same_shape(q.shape(), &[n, n])?;
            same_shape(r.shape(), &[n, n])?;
            let (q, r) = (download(q)?, download(r)?);
            triangular(&r, n, false)?;
            let p = probe(n);
            close(&matvec(&q, &matvec(&r, &p)), &matvec(host, &p), |_| {
                1e-12 * n as f64
            })?;
            close(&matvec_t(&q, &matvec(&q, &p)), &p, |_| 1e-12 * n as f64)
        },
    ))
}
