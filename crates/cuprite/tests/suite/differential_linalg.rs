//! Differential tests of `linalg`: the same random matrices through `Cpu` and `Cuda`. Where
//! the result is unique (det, inv, solve, singular values, Hermitian eigenvalues, the
//! Cholesky factor, |diag R|, general eigenvalues as a set) the two backends are compared
//! norm-wise; where it is unique only up to phases (Q, U, Vh, eigenvectors) the GPU's factors
//! are checked by identities (`Q R = A`, `Q^H Q = I`, `U S Vh = A`, `A v = w v`). Every dtype,
//! sizes 1, 2, 17, 64 and a batch, contiguous, transposed and strided inputs, tall and wide
//! matrices, and the errors of singular and indefinite matrices compared by message. Every
//! test needs a GPU and is `#[ignore]`d: run with `--ignored` on a GPU host.
#![cfg(all(feature = "cpu", feature = "cuda"))]
// `same!` calls one closure per backend so `?` works inside the compared expression.
#![allow(clippy::redundant_closure_call)]

use cuprite::backend::ComplexOf;
use cuprite::prelude::*;
use cuprite::Scalar;

use crate::diff_support::{gpu, on_both, outcomes, Rng};

/// `n` values uniform in [-1, 1) (imaginary parts too for complex types), from a seed.
fn rand<T: Element>(n: usize, seed: u64) -> Vec<T> {
    Rng::new(seed).uniform(n, 1.0)
}

fn to_c(x: impl Element) -> c128 {
    x.cast::<c128>()
}

/// Norm-wise tolerance between the backends (well-conditioned inputs).
fn tol<T: Inexact>() -> f64 {
    if std::mem::size_of::<T::RealPart>() == 4 {
        1e-3
    } else {
        1e-10
    }
}

/// max |x - y| / max(1, max |y|).
fn rel(x: &[c128], y: &[c128]) -> f64 {
    assert_eq!(x.len(), y.len());
    let scale = y.iter().map(|v| v.norm()).fold(1.0, f64::max);
    x.iter()
        .zip(y)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max)
        / scale
}

fn values<U: Element, B: ArrayBackend>(a: &Array<U, B>) -> Vec<c128> {
    a.to_vec().unwrap().into_iter().map(to_c).collect()
}

/// Both errors with the same message, or both arrays of one shape within `tol` norm-wise.
#[track_caller]
fn close<U: Element>(what: &str, c: Result<Array<U, Cpu>>, g: Result<Array<U, Cuda>>, tol: f64) {
    if let Some((c, g)) = outcomes(what, c, g) {
        let e = rel(&values(&g), &values(&c));
        assert!(
            e <= tol,
            "{what} ({}): cuda vs cpu differ by {e:e}",
            U::DTYPE.name()
        );
    }
}

/// Runs `$body` (a `Result<Array<_, _>>` with `$dev` bound to the backend) on both backends
/// and compares the results.
macro_rules! same {
    ($tol:expr, $what:expr, |$dev:ident| $body:expr) => {{
        let (c, g) = on_both!(|$dev| $body);
        close(AsRef::<str>::as_ref(&$what), c, g, $tol)
    }};
}

/// How a test matrix is laid out in memory.
#[derive(Clone, Copy, Debug)]
enum View {
    Contiguous,
    /// The transpose of the stored matrices (a column-major view).
    Transposed,
    /// Every other column of matrices twice as wide.
    Strided,
}
const VIEWS: [View; 3] = [View::Contiguous, View::Transposed, View::Strided];

/// The `lead + [m, n]` matrices of `host` (C order) as `view` on `dev`.
fn mat<T: Element, B: ArrayBackend>(
    host: &[T],
    lead: &[usize],
    (m, n): (usize, usize),
    view: View,
    dev: &B,
) -> Array<T, B> {
    let mut shape = lead.to_vec();
    match view {
        View::Contiguous => {
            shape.extend([m, n]);
            Array::from_vec(host.to_vec(), &shape, dev).unwrap()
        }
        View::Transposed => {
            // Stored as the transposes, viewed back: the same matrices.
            let count = host.len() / (m * n).max(1);
            let mut t = Vec::with_capacity(host.len());
            for b in 0..count {
                for j in 0..n {
                    for i in 0..m {
                        t.push(host[b * m * n + i * n + j]);
                    }
                }
            }
            shape.extend([n, m]);
            Array::from_vec(t, &shape, dev)
                .unwrap()
                .swapaxes(-1, -2)
                .unwrap()
        }
        View::Strided => {
            let garbage = T::from_scalar(Scalar::F64(1e3));
            let wide: Vec<T> = host.iter().flat_map(|&x| [x, garbage]).collect();
            shape.extend([m, 2 * n]);
            let w = Array::from_vec(wide, &shape, dev).unwrap();
            if lead.is_empty() {
                w.slice(&s![.., ..;2]).unwrap()
            } else {
                w.slice(&s![.., .., ..;2]).unwrap()
            }
        }
    }
}

/// `count` well-conditioned `n x n` matrices: 2 I + R / (2 sqrt n), R uniform in [-1, 1).
fn well<T: Inexact>(count: usize, n: usize, seed: u64) -> Vec<T> {
    let scale = 0.5 / (n as f64).sqrt();
    rand::<T>(count * n * n, seed)
        .into_iter()
        .enumerate()
        .map(|(idx, x)| {
            let diag = if (idx % (n * n)).is_multiple_of(n + 1) {
                2.0
            } else {
                0.0
            };
            T::from_scalar(Scalar::C128(to_c(x) * scale + diag))
        })
        .collect()
}

/// `count` Hermitian positive-definite `n x n` matrices: B B^H / n + I, exactly Hermitian.
fn hpd<T: Inexact>(count: usize, n: usize, seed: u64) -> Vec<T> {
    let b: Vec<c128> = rand::<T>(count * n * n, seed)
        .into_iter()
        .map(to_c)
        .collect();
    let mut a = vec![T::ZERO; count * n * n];
    let t = |z: c128| T::from_scalar(Scalar::C128(z));
    for c in 0..count {
        let o = c * n * n;
        for i in 0..n {
            for j in 0..=i {
                let mut z = (0..n)
                    .map(|p| b[o + i * n + p] * b[o + j * n + p].conj())
                    .sum::<c128>()
                    / n as f64;
                if i == j {
                    z = c128::new(z.re + 1.0, 0.0);
                }
                a[o + i * n + j] = t(z);
                a[o + j * n + i] = t(z.conj());
            }
        }
    }
    a
}

/// (leading axes, n) of every square case.
const SQUARE: &[(&[usize], usize)] = &[(&[], 1), (&[], 2), (&[], 17), (&[], 64), (&[3], 17)];

fn count(lead: &[usize]) -> usize {
    lead.iter().product()
}

fn solvers<T: Inexact>() {
    for (i, &(lead, n)) in SQUARE.iter().enumerate() {
        let a = well::<T>(count(lead), n, 10 + i as u64);
        let b = rand::<T>(count(lead) * n * 3, 20 + i as u64);
        for v in VIEWS {
            let what = |op: &str| format!("{op} of {lead:?} x {n} x {n} ({v:?})");
            same!(tol::<T>(), what("det"), |d| mat(&a, lead, (n, n), v, d)
                .det());
            same!(tol::<T>(), what("inv"), |d| mat(&a, lead, (n, n), v, d)
                .inv());
            same!(tol::<T>(), what("solve"), |d| mat(&a, lead, (n, n), v, d)
                .solve(&mat(&b, lead, (n, 3), View::Contiguous, d)));
            same!(tol::<T>(), what("slogdet"), |d| Ok(mat(
                &a,
                lead,
                (n, n),
                v,
                d
            )
            .slogdet()?
            .1));
        }
    }
    // Exactly singular (a zero column): the same error on both.
    let mut z = well::<T>(2, 5, 3);
    for i in 0..5 {
        z[25 + i * 5 + 2] = T::ZERO;
    }
    same!(0.0, "inv of a singular matrix".to_string(), |d| mat(
        &z,
        &[2],
        (5, 5),
        View::Contiguous,
        d
    )
    .inv());
    same!(tol::<T>(), "det of a singular matrix".to_string(), |d| mat(
        &z,
        &[2],
        (5, 5),
        View::Contiguous,
        d
    )
    .det());
}

fn hermitian<T: Inexact>() {
    for (i, &(lead, n)) in SQUARE.iter().enumerate() {
        let a = hpd::<T>(count(lead), n, 30 + i as u64);
        for v in VIEWS {
            let what = |op: &str| format!("{op} of {lead:?} x {n} x {n} ({v:?})");
            same!(tol::<T>(), what("cholesky"), |d| mat(
                &a,
                lead,
                (n, n),
                v,
                d
            )
            .cholesky());
            same!(tol::<T>(), what("eigvalsh"), |d| mat(
                &a,
                lead,
                (n, n),
                v,
                d
            )
            .eigvalsh());
            // Eigenvectors on the GPU: A V = V diag(w), V^H V = I.
            let dev = gpu();
            let x = mat(&a, lead, (n, n), v, &dev);
            let (w, vv) = x.eigh().unwrap();
            let av = x.matmul(&vv).unwrap();
            let vw = vv
                .try_mul(&w.astype::<T>().unwrap().expand_dims(-2).unwrap())
                .unwrap();
            assert!(
                rel(&values(&av), &values(&vw)) < tol::<T>(),
                "{}",
                what("A V = V w")
            );
            orthonormal(&vv, &what("eigh vectors"));
        }
    }
    // Not positive definite at the first leading minor of matrix 1 of the batch.
    let mut a = hpd::<T>(2, 4, 7);
    a[16] = T::from_scalar(Scalar::F64(-1.0));
    same!(0.0, "cholesky of an indefinite matrix".to_string(), |d| {
        mat(&a, &[2], (4, 4), View::Contiguous, d).cholesky()
    });
}

/// Asserts that the columns of `q` (`[.., m, k]`, on the GPU) are orthonormal.
#[track_caller]
fn orthonormal<T: Inexact>(q: &Array<T, Cuda>, what: &str) {
    let s = q.shape().to_vec();
    let k = s[s.len() - 1];
    let g = q
        .swapaxes(-1, -2)
        .unwrap()
        .conj()
        .unwrap()
        .matmul(q)
        .unwrap();
    let eye = Array::<T, Cuda>::eye(k, None, 0, q.device())
        .unwrap()
        .broadcast_to(g.shape())
        .unwrap();
    let e = rel(&values(&g), &values(&eye));
    assert!(e < tol::<T>(), "{what}: Q^H Q - I = {e:e}");
}

/// The main diagonals of the matrices of `r` (`[m, n]` or `[batch, m, n]`).
fn diag<T: Element, B: ArrayBackend>(r: &Array<T, B>) -> Result<Array<T, B>> {
    match r.ndim() {
        2 => r.diagonal(0),
        _ => r.permute_dims(&[1, 2, 0])?.diagonal(0),
    }
}

/// (leading axes, m, n) of the rectangular cases: square ones, tall, wide and a batch.
const RECT: &[(&[usize], usize, usize)] = &[
    (&[], 1, 1),
    (&[], 2, 2),
    (&[], 17, 17),
    (&[], 64, 64),
    (&[], 17, 5),
    (&[], 5, 17),
    (&[3], 17, 6),
    (&[3], 6, 17),
];

fn factorisations<T: Inexact>() {
    for (i, &(lead, m, n)) in RECT.iter().enumerate() {
        let a = rand::<T>(count(lead) * m * n, 40 + i as u64);
        for v in VIEWS {
            let what = |op: &str| format!("{op} of {lead:?} x {m} x {n} ({v:?})");
            same!(tol::<T>(), what("svdvals"), |d| mat(&a, lead, (m, n), v, d)
                .svdvals());
            // |diag R| is unique.
            same!(tol::<T>(), what("|diag R|"), |d| mat(
                &a,
                lead,
                (m, n),
                v,
                d
            )
            .qr(QrMode::Reduced)
            .and_then(|(_, r)| diag(&r))?
            .abs());
            let dev = gpu();
            let x = mat(&a, lead, (m, n), v, &dev);
            let xv = values(&x.copy().unwrap());
            for mode in [QrMode::Reduced, QrMode::Complete] {
                let (q, r) = x.qr(mode).unwrap();
                let qr = q.matmul(&r).unwrap();
                assert!(rel(&values(&qr), &xv) < tol::<T>(), "{}", what("Q R = A"));
                orthonormal(&q, &what("Q"));
            }
            for full in [false, true] {
                let (u, s, vh) = x.svd(full).unwrap();
                let k = m.min(n);
                let (u, vh) = if lead.is_empty() {
                    (u.slice(&s![.., ..k]), vh.slice(&s![..k, ..]))
                } else {
                    (u.slice(&s![.., .., ..k]), vh.slice(&s![.., ..k, ..]))
                };
                let (u, vh) = (u.unwrap(), vh.unwrap());
                let us = u
                    .try_mul(&s.astype::<T>().unwrap().expand_dims(-2).unwrap())
                    .unwrap();
                let usv = us.matmul(&vh).unwrap();
                assert!(
                    rel(&values(&usv), &xv) < tol::<T>(),
                    "{}",
                    what("U S Vh = A")
                );
                orthonormal(&u, &what("U"));
                orthonormal(&vh.swapaxes(-1, -2).unwrap().conj().unwrap(), &what("V"));
            }
        }
    }
}

fn general_eig<T: Inexact>() {
    for (i, &(lead, n)) in SQUARE.iter().enumerate() {
        let a = well::<T>(count(lead), n, 50 + i as u64);
        for v in VIEWS {
            let what = format!("eig of {lead:?} x {n} x {n} ({v:?})");
            let cw = values(&mat(&a, lead, (n, n), v, &Cpu::new()).eigvals().unwrap());
            let dev = gpu();
            let x = mat(&a, lead, (n, n), v, &dev);
            let (w, vv) = x.eig().unwrap();
            let gw = values(&w);
            // The same eigenvalues (as a set per matrix: the order is unspecified).
            for b in 0..count(lead).max(1) {
                for c in &cw[b * n..(b + 1) * n] {
                    let d = gw[b * n..(b + 1) * n]
                        .iter()
                        .map(|g| (g - c).norm())
                        .fold(f64::INFINITY, f64::min);
                    assert!(
                        d < tol::<T>() * 10.0,
                        "{what}: eigenvalue {c} missing ({d:e})"
                    );
                }
            }
            // A v = w v with the GPU's vectors, each of unit norm.
            let xc = x.astype::<ComplexOf<T>>().unwrap();
            let av = xc.matmul(&vv).unwrap();
            let vw = vv.try_mul(&w.expand_dims(-2).unwrap()).unwrap();
            assert!(
                rel(&values(&av), &values(&vw)) < tol::<T>() * 10.0,
                "{what}: A v = w v"
            );
            let norms = values(
                &vv.abs()
                    .unwrap()
                    .square()
                    .unwrap()
                    .sum_axes(-2isize, false)
                    .unwrap(),
            );
            assert!(
                norms.iter().all(|x| (x.re - 1.0).abs() < tol::<T>()),
                "{what}: unit norm"
            );
        }
    }
}

macro_rules! per_dtype {
    ($($name:ident: $f:ident::<$t:ty>;)*) => {$(
        #[test]
        #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
        fn $name() {
            $f::<$t>();
        }
    )*};
}

per_dtype! {
    solvers_f32: solvers::<f32>;
    solvers_f64: solvers::<f64>;
    solvers_c64: solvers::<c64>;
    solvers_c128: solvers::<c128>;
    hermitian_f32: hermitian::<f32>;
    hermitian_f64: hermitian::<f64>;
    hermitian_c64: hermitian::<c64>;
    hermitian_c128: hermitian::<c128>;
    factorisations_f32: factorisations::<f32>;
    factorisations_f64: factorisations::<f64>;
    factorisations_c64: factorisations::<c64>;
    factorisations_c128: factorisations::<c128>;
    general_eig_f32: general_eig::<f32>;
    general_eig_f64: general_eig::<f64>;
    general_eig_c64: general_eig::<c64>;
    general_eig_c128: general_eig::<c128>;
}
