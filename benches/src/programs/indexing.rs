//! Programs built on masks, histograms and index arrays: NPBench mandelbrot1 (complex128
//! masked updates `Z[I] = Z[I]**2 + C[I]`), NPBench azimint_hist (`np.histogram` with and
//! without weights) and a sparse matrix-vector product over COO index arrays
//! (`np.bincount(rows, weights=data * x[indices], minlength=n)`: cuprite has no
//! `np.add.reduceat`, which the CSR form `np.add.reduceat(data * x[indices], indptr[:-1])`
//! needs, so both sides run the bincount form).

use super::{line, Prog, Runnable};
use cuprite::{c128, s, Array, ArrayBackend, Result, NEW_AXIS};

/// NPBench mandelbrot1:
/// ```python
/// X = np.linspace(xmin, xmax, xn, dtype=np.float64)
/// Y = np.linspace(ymin, ymax, yn, dtype=np.float64)
/// C = X + Y[:, None] * 1j
/// N = np.zeros(C.shape, dtype=np.int64)
/// Z = np.zeros(C.shape, dtype=np.complex128)
/// for n in range(maxiter):
///     I = np.less(abs(Z), horizon)
///     N[I] = n
///     Z[I] = Z[I]**2 + C[I]
/// N[N == maxiter - 1] = 0
/// return Z, N
/// ```
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn mandelbrot<B: ArrayBackend>(
    xmin: f64,
    xmax: f64,
    ymin: f64,
    ymax: f64,
    xn: usize,
    yn: usize,
    maxiter: usize,
    horizon: f64,
    dev: &B,
) -> Result<(Array<c128, B>, Array<i64, B>)> {
    let x = Array::<f64, B>::linspace(xmin, xmax, xn, true, dev)?;
    let y = Array::<f64, B>::linspace(ymin, ymax, yn, true, dev)?;
    let c = x.astype::<c128>()?
        + &(y.slice(&s![.., NEW_AXIS])?.astype::<c128>()? * c128::new(0.0, 1.0));
    let mut n = Array::<i64, B>::zeros(c.shape(), dev)?;
    let mut z = Array::<c128, B>::zeros(c.shape(), dev)?;
    for it in 0..maxiter {
        let i = z.abs()?.lt_scalar(horizon)?;
        n.masked_fill(&i, it as i64)?;
        let zi = z.select(&i)?.square()? + &c.select(&i)?;
        z.put_mask(&i, &zi)?;
    }
    let last = n.eq_scalar(maxiter as i64 - 1)?;
    n.masked_fill(&last, 0)?;
    Ok((z, n))
}

/// mandelbrot ready to time: `[XN, YN, MAXITER]` over [-2.25, 0.75] x [-1.25, 1.25],
/// horizon 2; outputs `Z` and `N`.
pub fn mandelbrot_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |_| Ok(p.clone()),
        |p, dev| {
            let (z, n) = mandelbrot(-2.25, 0.75, -1.25, 1.25, p[0], p[1], p[2], 2.0, dev)?;
            Ok(vec![z.into(), n.into()])
        },
    )
}

/// NPBench azimint_hist:
/// ```python
/// histu = np.histogram(radius, npt)[0]
/// histw = np.histogram(radius, npt, weights=data)[0]
/// return histw / histu
/// ```
/// (`histw / histu` divides f64 by i64 in NumPy; cuprite casts the counts explicitly.)
pub fn azimint_hist<B: ArrayBackend>(
    data: &Array<f64, B>,
    radius: &Array<f64, B>,
    npt: usize,
) -> Result<Array<f64, B>> {
    let (histu, _) = radius.histogram(npt, None)?;
    let (histw, _) = radius.histogram_weighted(npt, None, data)?;
    Ok(&histw / &histu.astype::<f64>()?)
}

/// azimint_hist's inputs on a `w x w` image (`w = isqrt(N)`): `radius[i] = sqrt((i // w -
/// w // 2)**2 + (i % w - w // 2)**2)`, `data[i] = ((i*31 + 7) % 101) / 101`.
pub fn azimint_init<B: ArrayBackend>(n: usize, dev: &B) -> Result<[Array<f64, B>; 2]> {
    let w = n.isqrt() as i64;
    let radius = line(
        n,
        |i| {
            let (r, c) = (i as i64 / w - w / 2, i as i64 % w - w / 2);
            ((r * r + c * c) as f64).sqrt()
        },
        dev,
    )?;
    let data = line(n, |i| ((i * 31 + 7) % 101) as f64 / 101.0, dev)?;
    Ok([data, radius])
}

/// azimint_hist ready to time: `[N, NPT]`; the output is `histw / histu`.
pub fn azimint_hist_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[1], azimint_init(p[0], d)?)),
        |(npt, [data, radius]), _| Ok(vec![azimint_hist(data, radius, *npt)?.into()]),
    )
}

/// The COO matrix-vector product:
/// ```python
/// return np.bincount(rows, weights=data * x[indices], minlength=n)
/// ```
pub fn spmv_coo<B: ArrayBackend>(
    rows: &Array<i64, B>,
    indices: &Array<i64, B>,
    data: &Array<f64, B>,
    x: &Array<f64, B>,
    n: usize,
) -> Result<Array<f64, B>> {
    rows.bincount_weighted(&(data * &x.take(indices, None)?), n)
}

/// The COO arrays of an `n x n` matrix with `k` entries a row: `rows[p] = p // k`,
/// `indices[p] = (rows[p]*31 + (p % k)*97 + 7) % n`, `data[p] = ((p*13) % 17 + 1) / 17`,
/// `x[c] = (c % 11 + 1) / 11`.
#[allow(clippy::type_complexity)]
pub fn spmv_init<B: ArrayBackend>(
    n: usize,
    k: usize,
    dev: &B,
) -> Result<(Array<i64, B>, Array<i64, B>, Array<f64, B>, Array<f64, B>)> {
    let nnz = n * k;
    let rows: Vec<i64> = (0..nnz).map(|p| (p / k) as i64).collect();
    let indices: Vec<i64> = (0..nnz)
        .map(|p| (((p / k) * 31 + (p % k) * 97 + 7) % n) as i64)
        .collect();
    Ok((
        Array::from_vec(rows, &[nnz], dev)?,
        Array::from_vec(indices, &[nnz], dev)?,
        line(nnz, |p| ((p * 13) % 17 + 1) as f64 / 17.0, dev)?,
        line(n, |c| (c % 11 + 1) as f64 / 11.0, dev)?,
    ))
}

/// spmv_coo ready to time: `[NROWS, NNZ per row]`; the output is `y`.
pub fn spmv_coo_case<B: ArrayBackend>(p: Vec<usize>, dev: &B) -> Box<dyn Runnable + '_> {
    Prog::boxed(
        dev,
        move |d| Ok((p[0], spmv_init(p[0], p[1], d)?)),
        |(n, (rows, indices, data, x)), _| Ok(vec![spmv_coo(rows, indices, data, x, *n)?.into()]),
    )
}
