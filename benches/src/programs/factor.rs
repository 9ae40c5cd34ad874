//! Row- and column-loop factorizations of PolyBench as NPBench writes them in NumPy: lu,
//! cholesky, gramschmidt and covariance. Every scalar statement `A[i, j] -= expr` is a
//! `slice_mut(&s![i, j])?` of `A` updated in place by a 0-d right-hand side; `A[i, j] /=
//! A[j, j]` takes the diagonal element as a view of `A` first (`let d = a.slice(..)?`) and
//! hands it over by value (`zip_op_inplace(Div, d)`), the form the API documents for a
//! right-hand side that views the written array: the view is copied alone. (Borrowed,
//! `&d`, the whole matrix is copied at every such write: the micro row `lu_diag_div` times
//! that form beside this one.)

use super::{frac, grid, Prog, Runnable};
use cuprite::ops::{Div, Sub};
use cuprite::{s, Array, ArrayBackend, Result};

/// NPBench lu:
/// ```python
/// for i in range(A.shape[0]):
///     for j in range(i):
///         A[i, j] -= A[i, :j] @ A[:j, j]
///         A[i, j] /= A[j, j]
///     for j in range(i, A.shape[0]):
///         A[i, j] -= A[i, :i] @ A[:i, j]
/// ```
pub fn lu<B: ArrayBackend>(a: &mut Array<f64, B>) -> Result<()> {
    let n = a.shape()[0];
    for i in 0..n {
        for j in 0..i {
            let r = a.slice(&s![i, ..j])?.matmul(&a.slice(&s![..j, j])?)?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Sub, &r)?;
            let d = a.slice(&s![j, j])?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Div, d)?;
        }
        for j in i..n {
            let r = a.slice(&s![i, ..i])?.matmul(&a.slice(&s![..i, j])?)?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Sub, &r)?;
        }
    }
    Ok(())
}

/// A symmetric, diagonally dominant matrix (so LU needs no pivoting and Cholesky exists):
/// `A[i,j] = ((i*j+1) % n) / n + (n if i == j else 0)`.
pub fn spd_init<B: ArrayBackend>(n: usize, dev: &B) -> Result<Array<f64, B>> {
    grid(
        n,
        n,
        |i, j| frac(i, j, n) + if i == j { n as f64 } else { 0.0 },
        dev,
    )
}

/// lu ready to time: `[N]`; the output is the factored `A` (L below the diagonal, U on and
/// above it).
pub fn lu_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| spd_init(p[0], d),
        |a, _| {
            lu(a)?;
            Ok(vec![a.clone().into()])
        },
    )
}

/// NPBench cholesky:
/// ```python
/// A[0, 0] = np.sqrt(A[0, 0])
/// for i in range(1, A.shape[0]):
///     for j in range(i):
///         A[i, j] -= np.dot(A[i, :j], A[j, :j])
///         A[i, j] /= A[j, j]
///     A[i, i] -= np.dot(A[i, :i], A[i, :i])
///     A[i, i] = np.sqrt(A[i, i])
/// ```
pub fn cholesky<B: ArrayBackend>(a: &mut Array<f64, B>) -> Result<()> {
    let n = a.shape()[0];
    let r = a.slice(&s![0, 0])?.sqrt()?;
    a.slice_mut(&s![0, 0])?.assign(&r)?;
    for i in 1..n {
        for j in 0..i {
            let r = a.slice(&s![i, ..j])?.dot(&a.slice(&s![j, ..j])?)?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Sub, &r)?;
            let d = a.slice(&s![j, j])?;
            a.slice_mut(&s![i, j])?.zip_op_inplace(Div, d)?;
        }
        let r = a.slice(&s![i, ..i])?.dot(&a.slice(&s![i, ..i])?)?;
        a.slice_mut(&s![i, i])?.zip_op_inplace(Sub, &r)?;
        let r = a.slice(&s![i, i])?.sqrt()?;
        a.slice_mut(&s![i, i])?.assign(&r)?;
    }
    Ok(())
}

/// cholesky ready to time: `[N]`; the output is `A` (L on and below the diagonal, the
/// input above it).
pub fn cholesky_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| spd_init(p[0], d),
        |a, _| {
            cholesky(a)?;
            Ok(vec![a.clone().into()])
        },
    )
}

/// NPBench gramschmidt:
/// ```python
/// Q = np.zeros_like(A)
/// R = np.zeros((A.shape[1], A.shape[1]), dtype=A.dtype)
/// for k in range(A.shape[1]):
///     nrm = np.dot(A[:, k], A[:, k])
///     R[k, k] = np.sqrt(nrm)
///     Q[:, k] = A[:, k] / R[k, k]
///     for j in range(k + 1, A.shape[1]):
///         R[k, j] = np.dot(Q[:, k], A[:, j])
///         A[:, j] -= Q[:, k] * R[k, j]
/// return Q, R
/// ```
pub fn gramschmidt<B: ArrayBackend>(
    a: &mut Array<f64, B>,
    dev: &B,
) -> Result<(Array<f64, B>, Array<f64, B>)> {
    let n = a.shape()[1];
    let mut q = a.zeros_like()?;
    let mut r = Array::<f64, B>::zeros(&[n, n], dev)?;
    for k in 0..n {
        let nrm = a.slice(&s![.., k])?.dot(&a.slice(&s![.., k])?)?;
        r.slice_mut(&s![k, k])?.assign(&nrm.sqrt()?)?;
        let col = &a.slice(&s![.., k])? / &r.slice(&s![k, k])?;
        q.slice_mut(&s![.., k])?.assign(&col)?;
        for j in k + 1..n {
            let d = q.slice(&s![.., k])?.dot(&a.slice(&s![.., j])?)?;
            r.slice_mut(&s![k, j])?.assign(&d)?;
            let upd = &q.slice(&s![.., k])? * &r.slice(&s![k, j])?;
            a.slice_mut(&s![.., j])?.zip_op_inplace(Sub, &upd)?;
        }
    }
    Ok((q, r))
}

/// A well-conditioned `m x n` matrix (condition number 41 at 40 x 30, 156 at 240 x 200):
/// `A[i,j] = ((i*j+1) % m) / m + (2 if i == j else 0)`.
pub fn gramschmidt_init<B: ArrayBackend>(m: usize, n: usize, dev: &B) -> Result<Array<f64, B>> {
    grid(
        m,
        n,
        |i, j| frac(i, j, m) + if i == j { 2.0 } else { 0.0 },
        dev,
    )
}

/// gramschmidt ready to time: `[M, N]`; the outputs are `Q` and `R`.
pub fn gramschmidt_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| gramschmidt_init(p[0], p[1], d),
        |a, dev| {
            let (q, r) = gramschmidt(a, dev)?;
            Ok(vec![q.into(), r.into()])
        },
    )
}

/// NPBench covariance:
/// ```python
/// mean = np.mean(data, axis=0)
/// data -= mean
/// cov = np.zeros((M, M), dtype=data.dtype)
/// for i in range(M):
///     cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (float_n - 1.0)
/// return cov
/// ```
pub fn covariance<B: ArrayBackend>(
    m: usize,
    float_n: f64,
    data: &mut Array<f64, B>,
    dev: &B,
) -> Result<Array<f64, B>> {
    let mean = data.mean_axes(0, false)?;
    *data -= &mean;
    let mut cov = Array::<f64, B>::zeros(&[m, m], dev)?;
    for i in 0..m {
        let c = data
            .slice(&s![.., i])?
            .matmul(&data.slice(&s![.., i..m])?)?
            / (float_n - 1.0);
        cov.slice_mut(&s![i..m, i])?.assign(&c)?;
        cov.slice_mut(&s![i, i..m])?.assign(&c)?;
    }
    Ok(cov)
}

/// PolyBench's init of covariance: `data[i,j] = (i*j) / M`, `N x M`.
pub fn covariance_init<B: ArrayBackend>(m: usize, n: usize, dev: &B) -> Result<Array<f64, B>> {
    grid(n, m, |i, j| (i * j) as f64 / m as f64, dev)
}

/// covariance ready to time: `[M, N]`; the output is `cov`.
pub fn covariance_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[0], p[1], covariance_init(p[0], p[1], d)?)),
        |(m, n, data), dev| Ok(vec![covariance(*m, *n as f64, data, dev)?.into()]),
    )
}
