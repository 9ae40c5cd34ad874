//! The linalg kernels and cuSOLVER calls on a GPU: the element-wise steps against host
//! references computed here (exactly), and each primitive against the CPU backend or an
//! analytic answer, for every element type. Ignored by default (they need a CUDA device,
//! cuSOLVER and NVRTC); without a device they print why and pass.

use super::svd::SvdRoutine;
use crate::test_support::{assert_same, gpu};
use crate::Cuda;
use cuprite_core::backend::{ComplexOf, LinalgOps};
use cuprite_core::{c128, c64, Element, Inexact, Result, Scalar};
use cuprite_cpu::Cpu;

/// `re + i im` as `T` (the imaginary part dropped for real types).
pub(super) fn val<T: Element>(re: f64, im: f64) -> T {
    T::from_scalar(Scalar::C128(c128::new(re, im)))
}

pub(super) fn to_c(x: impl Element) -> c128 {
    x.cast::<c128>()
}

/// `n` pseudo-random values in [-1, 1) (with imaginary parts for complex types).
pub(super) fn rand<T: Element>(n: usize, seed: u64) -> Vec<T> {
    let mut s = seed.wrapping_mul(0x9e3779b97f4a7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..n)
        .map(|_| {
            let re = next();
            val(re, next())
        })
        .collect()
}

/// Largest |x - y| over two sequences (as complex numbers).
pub(super) fn max_diff<T: Element, U: Element>(x: &[T], y: &[U]) -> f64 {
    assert_eq!(x.len(), y.len(), "lengths");
    x.iter()
        .zip(y)
        .map(|(&a, &b)| (to_c(a) - to_c(b)).norm())
        .fold(0.0, f64::max)
}

/// Tolerance for values of magnitude about 1 computed in `T`'s precision.
pub(super) fn tol<T: Inexact>() -> f64 {
    if std::mem::size_of::<T::RealPart>() == 4 {
        1e-4
    } else {
        1e-10
    }
}

macro_rules! each_type {
    ($f:ident, $($a:expr),*) => {{
        $f::<f32>($($a),*)?;
        $f::<f64>($($a),*)?;
        $f::<c64>($($a),*)?;
        $f::<c128>($($a),*)?;
    }};
}

fn check_element_kernels<T: Inexact>(dev: &Cuda) -> Result<()> {
    let (batch, m, n) = (3, 5, 4);
    let host = rand::<T>(batch * m * n, 7);
    let a = dev.upload(&host)?;
    let at = |b: usize, i: usize, j: usize| host[(b * n + j) * m + i];
    // Upper triangle, all m rows and cut to k = 4 rows; lower triangle in place.
    for rows_out in [m, n] {
        let out = dev.alloc::<T>(batch * rows_out * n)?;
        dev.tri_copy("test", &out, &a, (rows_out, m, n), batch, true)?;
        let mut want = Vec::new();
        for b in 0..batch {
            for j in 0..n {
                for i in 0..rows_out {
                    want.push(if i <= j { at(b, i, j) } else { T::ZERO });
                }
            }
        }
        assert_same(&dev.download(&out)?, &want, "tri_copy upper");
    }
    let sq = dev.upload(&host[..batch * n * n])?;
    dev.tri_copy("test", &sq, &sq, (n, n, n), batch, false)?;
    let want: Vec<T> = (0..batch * n * n)
        .map(|idx| {
            let (i, j) = (idx % n, idx / n % n);
            if i >= j {
                host[idx]
            } else {
                T::ZERO
            }
        })
        .collect();
    assert_same(&dev.download(&sq)?, &want, "tri_copy lower in place");
    // Conjugate transpose: (j, i) of the output is conj of (i, j) of the input.
    let t = dev.conj_transpose("test", &a, m, n, batch)?;
    let mut want = Vec::new();
    for b in 0..batch {
        for i in 0..m {
            for j in 0..n {
                want.push(num_complex::ComplexFloat::conj(at(b, i, j)));
            }
        }
    }
    assert_same(&dev.download(&t)?, &want, "conj_transpose");
    // Identities, square and not.
    let e = dev.identities::<T>(3, 2, 2)?;
    let want: Vec<T> = (0..12)
        .map(|idx| {
            if idx % 3 == (idx / 3) % 2 {
                T::ONE
            } else {
                T::ZERO
            }
        })
        .collect();
    assert_same(&dev.download(&e)?, &want, "identity");
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn element_kernels_match_host_references() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_element_kernels, &dev);
    Ok(())
}

/// Host reference of the normalisation: unit norm, largest component (first of equals)
/// real and positive.
fn normalised(col: &[c128]) -> Vec<c128> {
    let norm = col.iter().map(|x| x.norm_sqr()).sum::<f64>().sqrt();
    let mut big = c128::new(0.0, 0.0);
    for x in col {
        if x.norm() > big.norm() {
            big = *x;
        }
    }
    let s = big.conj() / (big.norm() * norm);
    col.iter().map(|x| x * s).collect()
}

fn check_eig_from_real<T: Inexact>(dev: &Cuda) -> Result<()> {
    if T::DTYPE.is_complex() {
        return Ok(());
    }
    // One 3 x 3 matrix's LAPACK output: a real eigenvalue 2 then the pair 1 +- 3i, packed
    // vectors: column 0 real, columns 1 and 2 the real and imaginary parts of the pair.
    let n = 3;
    let wri = [2.0, 1.0, 1.0, 0.0, 3.0, -3.0].map(|x| val::<T>(x, 0.0));
    let vr_cols = [[0.6, -0.8, 0.0], [0.5, 0.1, -0.2], [0.3, 0.0, 0.7]];
    let vr: Vec<T> = vr_cols.iter().flatten().map(|&x| val(x, 0.0)).collect();
    let (w, v) =
        dev.eig_from_real::<T>("test", &dev.upload(&wri)?, Some(&dev.upload(&vr)?), n, 1)?;
    let w = dev.download(&w)?;
    let want_w = [
        c128::new(2.0, 0.0),
        c128::new(1.0, 3.0),
        c128::new(1.0, -3.0),
    ];
    assert!(max_diff(&w, &want_w) == 0.0, "eigenvalues {w:?}");
    let v = dev.download(&v.expect("vectors"))?;
    let c = |j: usize, i: usize| c128::new(vr_cols[j][i], 0.0);
    let pair: Vec<c128> = (0..3)
        .map(|i| c(1, i) + c(2, i) * c128::new(0.0, 1.0))
        .collect();
    let mut want: Vec<c128> = normalised(&(0..3).map(|i| c(0, i)).collect::<Vec<_>>());
    want.extend(normalised(&pair));
    want.extend(normalised(
        &pair.iter().map(|x| x.conj()).collect::<Vec<_>>(),
    ));
    assert!(
        max_diff(&v, &want) < tol::<T>(),
        "eigenvectors {v:?} vs {want:?}"
    );
    Ok(())
}

fn check_eig_normalise<T: Inexact>(dev: &Cuda) -> Result<()> {
    let (n, batch) = (4, 3);
    let mut host: Vec<ComplexOf<T>> = rand(n * n * batch, 11);
    host[n..2 * n].iter_mut().for_each(|x| *x = val(0.0, 0.0)); // a zero column stays
    let v = dev.upload(&host)?;
    dev.eig_normalise::<T>("test", &v, n, batch)?;
    let got = dev.download(&v)?;
    let mut want = Vec::new();
    for (c, col) in host.chunks(n).enumerate() {
        let col: Vec<c128> = col.iter().map(|&x| to_c(x)).collect();
        want.extend(if c == 1 { col } else { normalised(&col) });
    }
    assert!(
        max_diff(&got, &want) < tol::<T>(),
        "normalised {got:?} vs {want:?}"
    );
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn eigenvector_kernels_match_host_references() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_eig_from_real, &dev);
    each_type!(check_eig_normalise, &dev);
    Ok(())
}

fn check_lu<T: Inexact>(dev: &Cuda) -> Result<()> {
    let (batch, n, k) = (3, 6, 2);
    let mut host = rand::<T>(batch * n * n, 3);
    // Matrix 1 exactly singular: its first column is zero.
    host[n * n..n * n + n].iter_mut().for_each(|x| *x = T::ZERO);
    let (lu_d, ipiv_d) = dev.lu_factor(&dev.upload(&host)?, batch, n)?;
    let (lu, ipiv) = (dev.download(&lu_d)?, dev.download(&ipiv_d)?);
    assert!(
        lu.iter().all(|x| to_c(*x).is_finite()),
        "zero pivots stay finite"
    );
    assert!(
        to_c(lu[n * n]).norm() == 0.0,
        "U(0, 0) of the singular matrix is 0"
    );
    for b in 0..batch {
        // P A = L U: replay the row swaps on A, multiply the packed factors.
        let mut pa: Vec<c128> = host[b * n * n..(b + 1) * n * n]
            .iter()
            .map(|&x| to_c(x))
            .collect();
        for (i, &p) in ipiv[b * n..(b + 1) * n].iter().enumerate() {
            assert!(
                p >= 1 && p as usize <= n && p as usize > i,
                "1-based pivot {p} at {i}"
            );
            for j in 0..n {
                pa.swap(j * n + i, j * n + p as usize - 1);
            }
        }
        let f = |i: usize, j: usize| to_c(lu[b * n * n + j * n + i]);
        for i in 0..n {
            for j in 0..n {
                let mut x = if i <= j { f(i, j) } else { c128::new(0.0, 0.0) };
                for p in 0..i.min(j + 1) {
                    x += f(i, p) * f(p, j);
                }
                assert!(
                    (x - pa[j * n + i]).norm() < tol::<T>(),
                    "P A = L U at ({i}, {j})"
                );
            }
        }
    }
    // A X = B for the regular matrices (0 and 2) from the factors of the whole batch.
    let rhs = rand::<T>(batch * n * k, 5);
    let x = dev.download(&dev.lu_solve(&lu_d, &ipiv_d, &dev.upload(&rhs)?, batch, n, k)?)?;
    for b in [0usize, 2] {
        for c in 0..k {
            for i in 0..n {
                let mut ax = c128::new(0.0, 0.0);
                for j in 0..n {
                    ax += to_c(host[b * n * n + j * n + i]) * to_c(x[b * n * k + c * n + j]);
                }
                let d = (ax - to_c(rhs[b * n * k + c * n + i])).norm();
                assert!(d < 100.0 * tol::<T>(), "A x = b");
            }
        }
    }
    Ok(())
}

fn check_cholesky_and_eigh<T: Inexact>(dev: &Cuda) -> Result<()> {
    let cpu = Cpu::new();
    let n = 5;
    // A = B B^H + n I, Hermitian positive definite; the strict upper triangle filled with
    // garbage (only the lower one is read).
    let b = rand::<T>(n * n, 9);
    let mut a = vec![T::ZERO; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = if i == j {
                val::<T>(n as f64, 0.0)
            } else {
                T::ZERO
            };
            for p in 0..n {
                s = s + b[p * n + i] * num_complex::ComplexFloat::conj(b[p * n + j]);
            }
            a[j * n + i] = s;
            if i != j {
                a[i * n + j] = val(1e3, -1e3);
            }
        }
    }
    let (l, info) = dev.cholesky(&dev.upload(&a)?, 1, n)?;
    assert_eq!(dev.download(&info)?, vec![0]);
    let (cl, _) = cpu.cholesky(&cuprite_cpu::CpuBuffer::new(a.clone()), 1, n)?;
    let l = dev.download(&l)?;
    assert!(max_diff(&l, cl.as_slice()) < tol::<T>(), "L");
    for j in 0..n {
        for i in 0..j {
            assert!(l[j * n + i] == T::ZERO, "upper ({i}, {j}) zeroed");
        }
    }
    // Not positive definite: info names the leading minor of order 1.
    let mut bad = a.clone();
    bad[0] = val(-1.0, 0.0);
    let (_, info) = dev.cholesky(&dev.upload(&bad)?, 1, n)?;
    assert_eq!(dev.download(&info)?, vec![1]);
    // eigh: eigenvalues against the CPU; vectors satisfy A v = w v.
    let f = dev.eigh(&dev.upload(&a)?, 1, n, true)?;
    let cf = cpu.eigh(&cuprite_cpu::CpuBuffer::new(a.clone()), 1, n, false)?;
    let w = dev.download(&f.w)?;
    assert!(
        max_diff(&w, cf.w.as_slice()) < tol::<T>() * 10.0,
        "eigenvalues"
    );
    let v = dev.download(&f.v.expect("vectors"))?;
    let full = |i: usize, j: usize| {
        if i >= j {
            a[j * n + i]
        } else {
            num_complex::ComplexFloat::conj(a[i * n + j])
        }
    };
    for k in 0..n {
        for i in 0..n {
            let mut av = T::ZERO;
            for j in 0..n {
                av = av + full(i, j) * v[k * n + j];
            }
            let wv = v[k * n + i] * T::from_real(w[k]);
            assert!(
                (to_c(av) - to_c(wv)).norm() < tol::<T>() * 100.0,
                "A v = w v"
            );
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn lu_cholesky_and_eigh_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_lu, &dev);
    each_type!(check_cholesky_and_eigh, &dev);
    Ok(())
}

fn check_qr_svd<T: Inexact>(dev: &Cuda) -> Result<()> {
    let cpu = Cpu::new();
    for (m, n) in [(5, 3), (3, 5), (4, 4)] {
        let batch = 2;
        let host = rand::<T>(batch * m * n, (m * 10 + n) as u64);
        let a = dev.upload(&host)?;
        let k = m.min(n);
        for complete in [false, true] {
            let (q, r) = dev.qr(&a, batch, m, n, complete)?;
            let qc = if complete { m } else { k };
            let (q, r) = (dev.download(&q)?, dev.download(&r)?);
            assert_eq!((q.len(), r.len()), (batch * m * qc, batch * qc * n));
            for b in 0..batch {
                for j in 0..n {
                    for i in 0..m {
                        // (Q R)(i, j) = A(i, j); R zero below the diagonal.
                        let mut s = T::ZERO;
                        for p in 0..qc {
                            s = s + q[(b * qc + p) * m + i] * r[(b * n + j) * qc + p];
                        }
                        let d = (to_c(s) - to_c(host[(b * n + j) * m + i])).norm();
                        assert!(d < tol::<T>(), "QR = A ({m}x{n}, complete {complete})");
                    }
                    for i in j + 1..qc {
                        assert!(r[(b * n + j) * qc + i] == T::ZERO, "R below the diagonal");
                    }
                }
            }
        }
        let cs = cpu.svd(
            &cuprite_cpu::CpuBuffer::new(host.clone()),
            batch,
            m,
            n,
            None,
        )?;
        for (vectors, routine) in [None, Some(false), Some(true)].into_iter().flat_map(|v| {
            [
                (v, SvdRoutine::Auto),
                (v, SvdRoutine::Polar),
                (v, SvdRoutine::Qr),
            ]
        }) {
            let (f, used) = dev.svd_with(&a, batch, m, n, vectors, routine)?;
            if routine == SvdRoutine::Qr {
                assert_eq!(used, SvdRoutine::Qr);
            }
            assert_eq!(dev.download(&f.info)?, vec![0; batch]);
            let s = dev.download(&f.s)?;
            assert!(
                max_diff(&s, cs.s.as_slice()) < tol::<T>(),
                "singular values"
            );
            let (Some(u), Some(vh)) = (f.u, f.vh) else {
                assert!(vectors.is_none());
                continue;
            };
            let (u, vh) = (dev.download(&u)?, dev.download(&vh)?);
            let (uc, vr) = if vectors == Some(true) {
                (m, n)
            } else {
                (k, k)
            };
            assert_eq!((u.len(), vh.len()), (batch * m * uc, batch * vr * n));
            // A = U[:, :k] diag(s) Vh[:k, :].
            for b in 0..batch {
                for j in 0..n {
                    for i in 0..m {
                        let mut x = c128::new(0.0, 0.0);
                        for p in 0..k {
                            x += to_c(u[(b * uc + p) * m + i])
                                * to_c(s[b * k + p])
                                * to_c(vh[(b * n + j) * vr + p]);
                        }
                        let d = (x - to_c(host[(b * n + j) * m + i])).norm();
                        assert!(
                            d < tol::<T>(),
                            "U S Vh = A ({m}x{n}, {vectors:?}, {used:?})"
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn qr_and_svd_reconstruct_tall_wide_and_square_matrices() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_qr_svd, &dev);
    Ok(())
}

fn check_eig<T: Inexact>(dev: &Cuda) -> Result<()> {
    // [[1, -2], [1, -1]]: eigenvalues +-i, eigenvector (1, (1 - w) / 2) / sqrt(1.5) for w
    // (its first component is the larger, so it is the one made real and positive).
    let a = [1.0, 1.0, -2.0, -1.0].map(|x| val::<T>(x, 0.0));
    let f = dev.eig(&dev.upload(&a)?, 1, 2, true)?;
    assert_eq!(dev.download(&f.info)?, vec![0]);
    let w = dev.download(&f.w)?;
    let v = dev.download(&f.v.expect("vectors"))?;
    let h = 1.5f64.sqrt().recip();
    for j in 0..2 {
        let wj = to_c(w[j]);
        assert!(
            wj.re.abs() < tol::<T>() && (wj.im.abs() - 1.0).abs() < tol::<T>(),
            "{wj}"
        );
        let want = [c128::new(h, 0.0), (c128::new(1.0, 0.0) - wj) / 2.0 * h];
        assert!(max_diff(&v[2 * j..2 * j + 2], &want) < tol::<T>(), "{v:?}");
    }
    // Random matrices: A v = w v for every pair, unit norm, largest component real > 0.
    let (n, batch) = (7, 2);
    let host = rand::<T>(batch * n * n, 21);
    let f = dev.eig(&dev.upload(&host)?, batch, n, true)?;
    assert_eq!(dev.download(&f.info)?, vec![0; batch]);
    let (w, v) = (dev.download(&f.w)?, dev.download(&f.v.expect("vectors"))?);
    for b in 0..batch {
        for k in 0..n {
            let col: Vec<c128> = (0..n).map(|i| to_c(v[(b * n + k) * n + i])).collect();
            let norm = col.iter().map(|x| x.norm_sqr()).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < tol::<T>(), "unit norm");
            let big = col.iter().fold(c128::new(0.0, 0.0), |m, x| {
                if x.norm() > m.norm() {
                    *x
                } else {
                    m
                }
            });
            assert!(
                big.im.abs() < tol::<T>() && big.re > 0.0,
                "largest component {big}"
            );
            for i in 0..n {
                let mut av = c128::new(0.0, 0.0);
                for j in 0..n {
                    av += to_c(host[(b * n + j) * n + i]) * col[j];
                }
                let d = (av - to_c(w[b * n + k]) * col[i]).norm();
                assert!(d < 100.0 * tol::<T>(), "A v = w v");
            }
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn eig_satisfies_the_eigen_equation_with_normalised_vectors() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_eig, &dev);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn empty_batches_and_matrices() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let none = dev.alloc::<f64>(0)?;
    let (lu, ipiv) = dev.lu_factor(&none, 0, 3)?;
    assert_eq!((lu.len(), ipiv.len()), (0, 0));
    let (_, info) = dev.cholesky(&none, 2, 0)?;
    assert_eq!(dev.download(&info)?, vec![0, 0]);
    // Complete QR of 3 x 0 matrices: Q is the identity.
    let (q, r) = dev.qr(&none, 2, 3, 0, true)?;
    let eye: Vec<f64> = (0..18)
        .map(|i| if i % 9 % 4 == 0 { 1.0 } else { 0.0 })
        .collect();
    assert_same(&dev.download(&q)?, &eye, "Q of an empty matrix");
    assert_eq!(r.len(), 0);
    let f = dev.svd(&none, 2, 3, 0, Some(true))?;
    assert_same(
        &dev.download(&f.u.expect("u"))?,
        &eye,
        "U of an empty matrix",
    );
    assert_eq!(f.s.len(), 0);
    assert_eq!(dev.download(&f.info)?, vec![0, 0]);
    let e = dev.eig(&none, 0, 4, true)?;
    assert_eq!(e.w.len(), 0);
    Ok(())
}

/// Mean seconds of `f` over `reps` runs after one warm-up, with the device synchronised.
pub(super) fn time<R>(dev: &Cuda, reps: usize, mut f: impl FnMut() -> Result<R>) -> Result<f64> {
    drop(f()?);
    dev.synchronize_device()?;
    let t0 = std::time::Instant::now();
    for _ in 0..reps {
        drop(f()?);
    }
    dev.synchronize_device()?;
    Ok(t0.elapsed().as_secs_f64() / reps as f64)
}

/// Times and checks the 1000 x 1000 f64 SVD (with vectors), inverse and solve, through the
/// array API: `||A - U S Vh|| / ||A||` and `||U^H U - I||`, `||Vh Vh^H - I||` (max norms).
#[test]
#[ignore = "needs a CUDA device"]
fn svd_inv_solve_report() -> Result<()> {
    use cuprite_core::Array;
    let Some(dev) = gpu() else { return Ok(()) };
    let n = 1000;
    let a = Array::<f64, Cuda>::from_vec(rand::<f64>(n * n, 99), &[n, n], &dev)?;
    let b = Array::<f64, Cuda>::from_vec(rand::<f64>(n, 98), &[n], &dev)?;
    let max_abs = |x: &Array<f64, Cuda>| -> Result<f64> {
        Ok(x.to_vec()?.iter().fold(0.0f64, |m, v| m.max(v.abs())))
    };
    let eye = Array::<f64, Cuda>::eye(n, None, 0, &dev)?;
    for full in [true, false] {
        let (u, s, vh) = a.svd(full)?;
        let usv = u.try_mul(&s.expand_dims(-2)?)?.matmul(&vh)?;
        let resid = max_abs(&usv.try_sub(&a)?)? / max_abs(&a)?;
        let ou = max_abs(&u.swapaxes(-1, -2)?.matmul(&u)?.try_sub(&eye)?)?;
        let ov = max_abs(&vh.matmul(&vh.swapaxes(-1, -2)?)?.try_sub(&eye)?)?;
        eprintln!("svd {n}x{n} f64 (full {full}): residual {resid:.2e}, U {ou:.2e}, Vh {ov:.2e}");
        assert!(resid < 1e-12 && ou < 1e-12 && ov < 1e-12);
    }
    let t_svd = time(&dev, 3, || a.svd(true))?;
    let t_vals = time(&dev, 3, || a.svdvals())?;
    let t_inv = time(&dev, 10, || a.inv())?;
    let t_solve = time(&dev, 10, || a.solve(&b))?;
    let t_eigh = time(&dev, 3, || a.try_add(&a.swapaxes(-1, -2)?)?.eigh())?;
    // The two routines on the same (column-major) matrix, and which one Auto keeps.
    let buf = dev.upload(&rand::<f64>(n * n, 99))?;
    for routine in [SvdRoutine::Polar, SvdRoutine::Qr, SvdRoutine::Auto] {
        for vectors in [Some(true), None] {
            let (_, used) = dev.svd_with(&buf, 1, n, n, vectors, routine)?;
            let t = time(&dev, 3, || dev.svd_with(&buf, 1, n, n, vectors, routine))?;
            eprintln!(
                "svd_with {routine:?} (vectors {vectors:?}): {:.1} ms, used {used:?}",
                t * 1e3
            );
        }
    }
    eprintln!(
        "{n}x{n} f64: svd {:.1} ms, svdvals {:.1} ms, inv {:.2} ms, solve {:.2} ms, eigh {:.1} ms",
        t_svd * 1e3,
        t_vals * 1e3,
        t_inv * 1e3,
        t_solve * 1e3,
        t_eigh * 1e3
    );
    Ok(())
}

/// An ill-conditioned and a rank-deficient matrix, `Q1 diag(sigma) Q2^T` with singular values
/// from 1 down to 1e-15 (and exact zeros), decomposed with `Auto`, `Polar` and `Qr`: every
/// result reconstructs `A`, has orthonormal factors and singular values within `n eps` of
/// the exact ones (the perturbation check sends `Polar` to `gesvd` when it must).
#[test]
#[ignore = "needs a CUDA device"]
fn svd_of_ill_conditioned_and_rank_deficient_matrices_is_accurate() -> Result<()> {
    use cuprite_core::{Array, QrMode};
    let Some(dev) = gpu() else { return Ok(()) };
    let n = 200;
    let q = |seed| -> Result<Array<f64, Cuda>> {
        let r = Array::<f64, Cuda>::from_vec(rand::<f64>(n * n, seed), &[n, n], &dev)?;
        Ok(r.qr(QrMode::Reduced)?.0)
    };
    let (q1, q2) = (q(5)?, q(6)?);
    let max_abs = |x: &Array<f64, Cuda>| -> Result<f64> {
        Ok(x.to_vec()?.iter().fold(0.0f64, |m, v| m.max(v.abs())))
    };
    let eye = Array::<f64, Cuda>::eye(n, None, 0, &dev)?;
    let graded: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-15.0 * i as f64 / (n - 1) as f64))
        .collect();
    let deficient: Vec<f64> = (0..n)
        .map(|i| if i < n / 2 { 1.0 / (1 + i) as f64 } else { 0.0 })
        .collect();
    for (name, sigma) in [("graded", graded), ("rank n/2", deficient)] {
        let s_dev = Array::<f64, Cuda>::from_vec(sigma.clone(), &[n], &dev)?;
        let a = q1
            .try_mul(&s_dev.expand_dims(-2)?)?
            .matmul(&q2.swapaxes(-1, -2)?)?;
        // Column-major input for svd_with is the transpose: the same singular values.
        let at = a.swapaxes(-1, -2)?.copy()?;
        for routine in [SvdRoutine::Auto, SvdRoutine::Polar, SvdRoutine::Qr] {
            let (f, used) = dev.svd_with(at.buffer(), 1, n, n, Some(true), routine)?;
            let s = dev.download(&f.s)?;
            let err = max_diff(&s, &sigma);
            eprintln!("{name}: {routine:?} used {used:?}, max |s - sigma| = {err:.2e}");
            assert!(
                err < 4.0 * n as f64 * f64::EPSILON,
                "{name} {routine:?}: singular values"
            );
        }
        let (u, s, vh) = a.svd(true)?;
        let usv = u.try_mul(&s.expand_dims(-2)?)?.matmul(&vh)?;
        let resid = max_abs(&usv.try_sub(&a)?)? / max_abs(&a)?;
        let ou = max_abs(&u.swapaxes(-1, -2)?.matmul(&u)?.try_sub(&eye)?)?;
        let ov = max_abs(&vh.matmul(&vh.swapaxes(-1, -2)?)?.try_sub(&eye)?)?;
        eprintln!("{name}: residual {resid:.2e}, U {ou:.2e}, Vh {ov:.2e}");
        assert!(resid < 1e-12 && ou < 1e-12 && ov < 1e-12, "{name}");
    }
    Ok(())
}
