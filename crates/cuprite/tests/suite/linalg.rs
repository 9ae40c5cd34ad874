//! `linalg` on every backend, for f32, f64, c64 and c128: against NumPy fixtures from
//! `scripts/fixtures/linalg.py` (results computed in double precision from the stored
//! inputs) where NumPy's result is unique, and by identities where it is unique only up to
//! signs or phases (`A = Q R`, `A = U S Vh`, `A V = V diag(w)`, orthonormality).
//!
//! Tolerances: f64 and c128 rtol = atol = 1e-10 against the fixtures (4x4 random matrices,
//! condition numbers below 1e3) and 1e-12 relative for the identities; f32 and c64 2e-3
//! against the fixtures and 1e-5 for the identities.

use crate::common;

use common::fixture_vec;
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;

const TOPIC: &str = "linalg";

fn key<E: Element>() -> &'static str {
    match E::DTYPE {
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::C64 => "c64",
        _ => "c128",
    }
}

fn fx<E: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<E, B> {
    common::fixture(dev, TOPIC, &format!("{}_{name}", key::<E>()))
}

fn single<E: Element>() -> bool {
    matches!(E::DTYPE, DType::F32 | DType::C64)
}

/// Tolerance against the double-precision fixtures.
fn tol<E: Element>() -> f64 {
    if single::<E>() {
        2e-3
    } else {
        1e-10
    }
}

/// Tolerance of the identities, relative to the size of the operands.
fn itol<E: Element>() -> f64 {
    if single::<E>() {
        1e-5
    } else {
        1e-12
    }
}

/// The fixture name of case `name` for inputs of type `E`.
fn n<E: Element>(name: &str) -> String {
    format!("{}_{name}", key::<E>())
}

/// Compares with fixture case `full` (converted to `A`).
fn expect<A: Element, B: ArrayBackend>(actual: &Array<A, B>, full: &str) {
    let (want, shape) = fixture_vec::<A>(TOPIC, full);
    assert_eq!(actual.shape(), &shape[..], "{full}: shape");
    let t = tol::<A>();
    check_allclose_slices(&actual.to_vec().unwrap(), &want, &shape, t, t)
        .unwrap_or_else(|e| panic!("{full}: {e}"));
}

/// `max |x - y| / max(1, max |y|)`.
fn rel_err<E: Inexact, B: ArrayBackend>(x: &Array<E, B>, y: &Array<E, B>) -> f64 {
    assert_eq!(x.shape(), y.shape());
    let (x, y) = (x.to_vec().unwrap(), y.to_vec().unwrap());
    let scale = y.iter().map(|v| to_f64(v.abs())).fold(1.0, f64::max);
    x.iter()
        .zip(&y)
        .map(|(a, b)| to_f64((*a - *b).abs()))
        .fold(0.0, f64::max)
        / scale
}

fn to_f64<R: Float>(r: R) -> f64 {
    r.to_f64().unwrap()
}

/// The real number `x` as an `E`.
fn re<E: Inexact>(x: f64) -> E {
    E::from_real(<E::RealPart as Element>::from_scalar(cuprite::Scalar::F64(
        x,
    )))
}

/// Identities of shape `lead + [n, n]`.
fn eye_like<E: Inexact, B: ArrayBackend>(dev: &B, lead: &[usize], n: usize) -> Array<E, B> {
    let mut s = lead.to_vec();
    s.extend([n, n]);
    Array::<E, B>::eye(n, None, 0, dev)
        .unwrap()
        .broadcast_to(&s)
        .unwrap()
}

/// The conjugate transpose of the last two axes.
fn ht<E: Inexact, B: ArrayBackend>(x: &Array<E, B>) -> Array<E, B> {
    x.swapaxes(-1, -2).unwrap().conj().unwrap()
}

/// Checks that the columns of `q` (`[.., m, k]`) are orthonormal.
fn orthonormal_columns<E: Inexact, B: ArrayBackend>(q: &Array<E, B>, what: &str) {
    let s = q.shape();
    let k = s[s.len() - 1];
    let g = ht(q).matmul(q).unwrap();
    let e = rel_err(&g, &eye_like(q.device(), &s[..s.len() - 2], k));
    assert!(e < 10.0 * itol::<E>(), "{what}: Q^H Q - I = {e:e}");
}

/// Runs a generic check for every inexact dtype.
macro_rules! for_dtypes {
    ($f:ident, $dev:expr) => {
        $f::<f32, B>($dev);
        $f::<f64, B>($dev);
        $f::<c64, B>($dev);
        $f::<c128, B>($dev);
    };
}

fn det_and_slogdet_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    expect(&fx::<E, B>(dev, "a").det().unwrap(), &n::<E>("det"));
    let ab = fx::<E, B>(dev, "ab");
    expect(&ab.det().unwrap(), &n::<E>("det_b"));
    let (sign, logabs) = ab.slogdet().unwrap();
    expect(&sign, &n::<E>("slogdet_sign"));
    expect(&logabs, &n::<E>("slogdet_log"));
    // Transposed and strided views give the same determinants (det(A^T) = det(A)).
    let t = ab.swapaxes(-1, -2).unwrap();
    expect(&t.det().unwrap(), &n::<E>("det_b"));
    // Singular: det 0, slogdet (0, -inf); 0 x 0: det 1.
    let z = Array::<E, B>::zeros(&[2, 3, 3], dev).unwrap();
    assert!(z
        .det()
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|v| *v == E::zero()));
    let (s, l) = z.slogdet().unwrap();
    assert!(s.to_vec().unwrap().iter().all(|v| *v == E::zero()));
    assert!(l
        .to_vec()
        .unwrap()
        .iter()
        .all(|v| to_f64(*v) == f64::NEG_INFINITY));
    let empty = Array::<E, B>::zeros(&[0, 0], dev).unwrap();
    assert_eq!(empty.det().unwrap().item().unwrap(), E::one());
    let none = Array::<E, B>::zeros(&[0, 3, 3], dev).unwrap();
    assert_eq!(none.det().unwrap().shape(), &[0]);
    // NaN propagates.
    let nan = Array::<E, B>::full(&[2, 2], re::<E>(f64::NAN), dev).unwrap();
    assert!(nan.det().unwrap().item().unwrap().is_nan());
}

fn det_and_slogdet<B: ArrayBackend>(dev: &B) {
    for_dtypes!(det_and_slogdet_of, dev);
}

fn solve_and_inv_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let a = fx::<E, B>(dev, "a");
    expect(&a.inv().unwrap(), &n::<E>("inv"));
    expect(&fx::<E, B>(dev, "ab").inv().unwrap(), &n::<E>("inv_b"));
    expect(&a.solve(&fx(dev, "b")).unwrap(), &n::<E>("solve_v"));
    expect(&a.solve(&fx(dev, "bm")).unwrap(), &n::<E>("solve_m"));
    expect(
        &fx::<E, B>(dev, "ab").solve(&fx(dev, "bb")).unwrap(),
        &n::<E>("solve_b"),
    );
    // A @ inv(A) = I on a transposed view.
    let t = a.t();
    let e = rel_err(
        &t.matmul(&t.inv().unwrap()).unwrap(),
        &eye_like(dev, &[], 4),
    );
    assert!(e < 1e3 * itol::<E>(), "A inv(A) - I = {e:e}");
    // Views that are not C-contiguous from their buffer's start (a reversed axis, an
    // offset) invert and have determinants as their copies do.
    let ab = fx::<E, B>(dev, "ab");
    let (inv, det) = (ab.inv().unwrap(), ab.det().unwrap());
    for (view, lead) in [
        (s![.., ..;-1, .., ..], s![.., ..;-1]),
        (s![1.., 1.., .., ..], s![1.., 1..]),
    ] {
        let v = ab.slice(&view).unwrap();
        let e = rel_err(&v.inv().unwrap(), &inv.slice(&view).unwrap());
        assert!(e < 10.0 * itol::<E>(), "inv of a view: {e:e}");
        let e = rel_err(&v.det().unwrap(), &det.slice(&lead).unwrap());
        assert!(e < 10.0 * itol::<E>(), "det of a view: {e:e}");
    }
    // Singular matrices are errors naming the batch index.
    let mut m = fx::<E, B>(dev, "ab").copy().unwrap();
    m.slice_mut(&s![0, 1, .., ..])
        .unwrap()
        .fill(E::zero())
        .unwrap();
    let msg = m.inv().unwrap_err().to_string();
    assert!(
        msg.contains("inv") && msg.contains("singular") && msg.contains("batch index 1"),
        "{msg}"
    );
    let msg = m.solve(&fx(dev, "bb")).unwrap_err().to_string();
    assert!(
        msg.contains("solve") && msg.contains("batch index 1"),
        "{msg}"
    );
    // Shape errors.
    assert!(fx::<E, B>(dev, "rect").inv().is_err());
    assert!(a.solve(&fx(dev, "rect")).is_err());
    assert!(Array::<E, B>::zeros(&[3], dev).unwrap().inv().is_err());
    // Empty.
    assert_eq!(
        Array::<E, B>::zeros(&[0, 0], dev)
            .unwrap()
            .inv()
            .unwrap()
            .shape(),
        &[0, 0]
    );
}

fn solve_and_inv<B: ArrayBackend>(dev: &B) {
    for_dtypes!(solve_and_inv_of, dev);
}

fn cholesky_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let h = fx::<E, B>(dev, "h");
    let l = h.cholesky().unwrap();
    expect(&l, &n::<E>("cholesky"));
    let hb = fx::<E, B>(dev, "hb");
    let lb = hb.cholesky().unwrap();
    let e = rel_err(&lb.matmul(&ht(&lb)).unwrap(), &hb);
    assert!(e < 10.0 * itol::<E>(), "L L^H - A = {e:e}");
    // Upper triangle exactly zero.
    let v = lb.to_vec().unwrap();
    for b in 0..2 {
        for i in 0..3 {
            for j in i + 1..3 {
                assert_eq!(v[b * 9 + i * 3 + j], E::zero());
            }
        }
    }
    // Not positive definite in batch 1.
    let mut bad = hb.copy().unwrap();
    bad.slice_mut(&s![1, 0, 0]).unwrap().fill(re(-1.0)).unwrap();
    let msg = bad.cholesky().unwrap_err().to_string();
    assert!(
        msg.contains("cholesky")
            && msg.contains("positive definite")
            && msg.contains("batch index 1"),
        "{msg}"
    );
}

fn cholesky<B: ArrayBackend>(dev: &B) {
    for_dtypes!(cholesky_of, dev);
}

fn qr_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    for name in ["rect", "wide", "a", "ab"] {
        let a = fx::<E, B>(dev, name);
        for mode in [QrMode::Reduced, QrMode::Complete] {
            let (q, r) = a.qr(mode).unwrap();
            let s = a.shape();
            let (m, n) = (s[s.len() - 2], s[s.len() - 1]);
            let k = if mode == QrMode::Complete {
                m
            } else {
                m.min(n)
            };
            assert_eq!(q.shape()[q.ndim() - 2..], [m, k], "{name} {mode:?}");
            assert_eq!(r.shape()[r.ndim() - 2..], [k, n], "{name} {mode:?}");
            let e = rel_err(&q.matmul(&r).unwrap(), &a);
            assert!(e < 10.0 * itol::<E>(), "{name} {mode:?}: QR - A = {e:e}");
            orthonormal_columns(&q, name);
            let rv = r.to_contiguous().unwrap().to_vec().unwrap();
            let per = k * n;
            for (idx, v) in rv.iter().enumerate() {
                let (i, j) = ((idx % per) / n, idx % n);
                if i > j {
                    assert_eq!(*v, E::zero(), "{name}: R below the diagonal");
                }
            }
        }
    }
    // A transposed (non-contiguous) input.
    let a = fx::<E, B>(dev, "rect").t();
    let (q, r) = a.qr(QrMode::Reduced).unwrap();
    assert!(rel_err(&q.matmul(&r).unwrap(), &a) < 10.0 * itol::<E>());
}

fn qr<B: ArrayBackend>(dev: &B) {
    for_dtypes!(qr_of, dev);
}

fn svd_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    expect(
        &fx::<E, B>(dev, "rect").svdvals().unwrap(),
        &n::<E>("svdvals_rect"),
    );
    expect(
        &fx::<E, B>(dev, "ab").svdvals().unwrap(),
        &n::<E>("svdvals_b"),
    );
    for name in ["rect", "wide", "ab"] {
        let a = fx::<E, B>(dev, name);
        for full in [false, true] {
            let (u, s, vh) = a.svd(full).unwrap();
            let k = s.shape()[s.ndim() - 1];
            // Full factors of a 2-d matrix: the first k columns of U and rows of Vh.
            let (uk, vk) = if full && a.ndim() == 2 {
                (
                    u.slice(&s![.., ..k as isize]).unwrap(),
                    vh.slice(&s![..k as isize, ..]).unwrap(),
                )
            } else {
                (u.clone(), vh.clone())
            };
            let us = uk
                .try_mul(&s.astype::<E>().unwrap().expand_dims(-2).unwrap())
                .unwrap();
            let e = rel_err(&us.matmul(&vk).unwrap(), &a);
            assert!(
                e < 10.0 * itol::<E>(),
                "{name} full={full}: U S Vh - A = {e:e}"
            );
            orthonormal_columns(&u, name);
            orthonormal_columns(&ht(&vh), name);
        }
    }
}

fn svd<B: ArrayBackend>(dev: &B) {
    for_dtypes!(svd_of, dev);
}

/// The accuracy bound on random and ill-conditioned matrices: `||A - U S Vh|| / ||A||` and
/// the orthogonality of `U` and `V` below 1e-12 (f64) and 1e-5 (f32), with singular values
/// spread over ten orders of magnitude for f64.
fn svd_accuracy<B: ArrayBackend>(dev: &B) {
    fn check<E: Inexact, B: ArrayBackend>(dev: &B, n: usize, decades: f64) {
        let g = Array::<E, B>::from_vec(
            (0..2 * n * n)
                .map(|i| {
                    let x = ((i as f64 * 0.618_033_988_75).fract() - 0.5) * 2.0;
                    re::<E>(x)
                })
                .collect(),
            &[2, n, n],
            dev,
        )
        .unwrap();
        let (q, _) = g.qr(QrMode::Reduced).unwrap();
        let (q1, q2) = (
            q.slice(&s![0, .., ..]).unwrap(),
            q.slice(&s![1, .., ..]).unwrap(),
        );
        let sv: Vec<E> = (0..n)
            .map(|i| {
                let x = 10f64.powf(-decades * i as f64 / (n - 1) as f64);
                re::<E>(x)
            })
            .collect();
        let s = Array::from_vec(sv, &[1, n], dev).unwrap();
        let a = q1.try_mul(&s).unwrap().matmul(&ht(&q2)).unwrap();
        let (u, sg, vh) = a.svd(false).unwrap();
        let back = u
            .try_mul(&sg.astype::<E>().unwrap().expand_dims(0).unwrap())
            .unwrap()
            .matmul(&vh)
            .unwrap();
        let num = to_f64(back.try_sub(&a).unwrap().norm().unwrap().item().unwrap());
        let den = to_f64(a.norm().unwrap().item().unwrap());
        let bound = if single::<E>() { 1e-5 } else { 1e-12 };
        assert!(
            num / den < bound,
            "{n}x{n}: ||A - U S Vh|| / ||A|| = {:e}",
            num / den
        );
        orthonormal_columns(&u, "U");
        orthonormal_columns(&ht(&vh), "V");
    }
    check::<f64, B>(dev, 64, 10.0);
    check::<c128, B>(dev, 40, 10.0);
    check::<f32, B>(dev, 64, 3.0);
    check::<f64, B>(dev, 200, 0.0);
}

fn eigh_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    expect(
        &fx::<E, B>(dev, "h").eigvalsh().unwrap(),
        &n::<E>("eigvalsh"),
    );
    let hb = fx::<E, B>(dev, "hb");
    expect(&hb.eigvalsh().unwrap(), &n::<E>("eigvalsh_b"));
    let (w, v) = hb.eigh().unwrap();
    expect(&w, &n::<E>("eigvalsh_b"));
    let av = hb.matmul(&v).unwrap();
    let vw = v
        .try_mul(&w.astype::<E>().unwrap().expand_dims(-2).unwrap())
        .unwrap();
    assert!(rel_err(&av, &vw) < 100.0 * itol::<E>(), "A V - V diag(w)");
    orthonormal_columns(&v, "eigh V");
}

fn eigh<B: ArrayBackend>(dev: &B) {
    for_dtypes!(eigh_of, dev);
}

fn eig_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let a = fx::<E, B>(dev, "a");
    let mut w: Vec<c128> = a
        .eigvals()
        .unwrap()
        .astype::<c128>()
        .unwrap()
        .to_vec()
        .unwrap();
    // NumPy's sort_complex: by real part, then imaginary part.
    w.sort_by(|x, y| x.re.total_cmp(&y.re).then(x.im.total_cmp(&y.im)));
    let (want, _) = fixture_vec::<c128>(TOPIC, &format!("{}_eigvals_sorted", key::<E>()));
    let t = tol::<E>() * 10.0;
    for (g, e) in w.iter().zip(&want) {
        assert!(
            (g - e).norm() < t * (1.0 + e.norm()),
            "{}: {g} vs {e}",
            key::<E>()
        );
    }
    let (w, v) = a.eig().unwrap();
    let ac = a.astype().unwrap();
    let av = ac.matmul(&v).unwrap();
    let vw = v.try_mul(&w.expand_dims(-2).unwrap()).unwrap();
    assert!(rel_err(&av, &vw) < 1e3 * itol::<E>(), "A V - V diag(w)");
    let norms = v.vector_norm(2.0, -2, false).unwrap().to_vec().unwrap();
    for n in norms {
        assert!(
            (to_f64(n) - 1.0).abs() < 10.0 * itol::<E>(),
            "unit eigenvectors: {n}"
        );
    }
}

fn eig<B: ArrayBackend>(dev: &B) {
    for_dtypes!(eig_of, dev);
}

fn pinv_lstsq_rank_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    expect(
        &fx::<E, B>(dev, "rect").pinv(None).unwrap(),
        &n::<E>("pinv_rect"),
    );
    expect(
        &fx::<E, B>(dev, "wide").pinv(None).unwrap(),
        &n::<E>("pinv_wide"),
    );
    let r = fx::<E, B>(dev, "ab").matrix_rank(None).unwrap();
    assert_eq!(r.shape(), &[2, 3]);
    assert!(r.to_vec().unwrap().iter().all(|&k| k == 3));
    let z = Array::<E, B>::zeros(&[4], dev).unwrap();
    assert_eq!(z.matrix_rank(None).unwrap().item().unwrap(), 0);
}

fn pinv_lstsq_rank<B: ArrayBackend>(dev: &B) {
    for_dtypes!(pinv_lstsq_rank_of, dev);
    fn lsq<E: Inexact, B: ArrayBackend>(dev: &B) {
        let a = fx::<E, B>(dev, "lsq_a");
        let b = fx::<E, B>(dev, "lsq_b");
        let (x, res, rank, s) = a.lstsq(&b, None).unwrap();
        expect(&x, &n::<E>("lsq_x"));
        expect(&res, &n::<E>("lsq_res"));
        expect(&s, &n::<E>("lsq_s"));
        assert_eq!(rank, 3);
        let d = fx::<E, B>(dev, "lsqd_a");
        let (x, res, rank, _) = d.lstsq(&b, None).unwrap();
        expect(&x, &n::<E>("lsqd_x"));
        assert_eq!(rank, 2);
        assert_eq!(res.shape(), &[0]);
        assert_eq!(d.matrix_rank(None).unwrap().item().unwrap(), 2);
        // One right-hand side.
        let b0 = b.slice(&s![.., 0]).unwrap();
        let (x0, _, _, _) = a.lstsq(&b0, None).unwrap();
        let x_all = a.lstsq(&b, None).unwrap().0;
        assert!(rel_err(&x0, &x_all.slice(&s![.., 0]).unwrap().copy().unwrap()) < 1e-12);
        assert!(a.lstsq(&fx(dev, "lsq_a").t(), None).is_err());
    }
    lsq::<f64, B>(dev);
    lsq::<c128, B>(dev);
}

fn norms_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let ab = fx::<E, B>(dev, "ab");
    expect(&ab.norm().unwrap(), &n::<E>("norm"));
    for (name, ord) in [
        ("1", 1.0),
        ("2", 2.0),
        ("inf", f64::INFINITY),
        ("ninf", f64::NEG_INFINITY),
        ("0", 0.0),
        ("3", 3.0),
        ("half", 0.5),
    ] {
        expect(
            &ab.vector_norm(ord, -1, false).unwrap(),
            &n::<E>(&format!("vnorm_{name}")),
        );
    }
    for (name, ord) in [
        ("fro", MatrixNorm::Frobenius),
        ("nuc", MatrixNorm::Nuclear),
        ("1", MatrixNorm::One),
        ("n1", MatrixNorm::NegOne),
        ("2", MatrixNorm::Two),
        ("n2", MatrixNorm::NegTwo),
        ("inf", MatrixNorm::Inf),
        ("ninf", MatrixNorm::NegInf),
    ] {
        expect(
            &ab.matrix_norm(ord, false).unwrap(),
            &n::<E>(&format!("mnorm_{name}")),
        );
        assert_eq!(ab.matrix_norm(ord, true).unwrap().shape(), &[2, 3, 1, 1]);
    }
    let a = fx::<E, B>(dev, "a");
    expect(&a.cond(None).unwrap(), &n::<E>("cond"));
    expect(&a.cond(Some(MatrixNorm::One)).unwrap(), &n::<E>("cond_1"));
    expect(
        &a.cond(Some(MatrixNorm::Frobenius)).unwrap(),
        &n::<E>("cond_fro"),
    );
    assert!(a.vector_norm(f64::NAN, -1, false).is_err());
    // NaN and inf.
    let x = Array::<E, B>::from_vec(vec![re::<E>(f64::NAN), E::one()], &[2], dev).unwrap();
    assert!(to_f64(x.norm().unwrap().item().unwrap()).is_nan());
    let x = Array::<E, B>::from_vec(vec![re::<E>(f64::INFINITY), E::one()], &[2], dev).unwrap();
    assert_eq!(to_f64(x.norm().unwrap().item().unwrap()), f64::INFINITY);
}

fn norms<B: ArrayBackend>(dev: &B) {
    for_dtypes!(norms_of, dev);
}

fn products_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let a = fx::<E, B>(dev, "a");
    expect(&a.trace(0).unwrap(), &n::<E>("trace"));
    expect(&a.matrix_power(3).unwrap(), &n::<E>("power3"));
    expect(&a.matrix_power(-2).unwrap(), &n::<E>("power_m2"));
    let bm = fx::<E, B>(dev, "bm");
    expect(
        &a.slice(&s![..2, ..3]).unwrap().kron(&bm).unwrap(),
        &n::<E>("kron"),
    );
    let ab = fx::<E, B>(dev, "ab");
    let (r0, r1) = (
        ab.slice(&s![.., .., 0, ..]).unwrap(),
        ab.slice(&s![.., .., 1, ..]).unwrap(),
    );
    expect(&r0.cross(&r1, -1).unwrap(), &n::<E>("cross"));
    // The same along axis 0 of transposed operands.
    let c0 = r0.permute_dims(&[2, 0, 1]).unwrap();
    let c1 = r1.permute_dims(&[2, 0, 1]).unwrap();
    let c = c0.cross(&c1, 0).unwrap().permute_dims(&[1, 2, 0]).unwrap();
    expect(&c, &n::<E>("cross"));
    assert!(a.cross(&a, -1).is_err());
    let b = fx::<E, B>(dev, "b");
    expect(&multi_dot(&[&b, &a, &bm]).unwrap(), &n::<E>("multi_dot"));
    assert!(multi_dot(&[&a]).is_err());
    assert!(multi_dot(&[&a, &bm, &a]).is_err());
}

fn products<B: ArrayBackend>(dev: &B) {
    for_dtypes!(products_of, dev);
}

fn wrong_shapes_are_errors<B: ArrayBackend>(dev: &B) {
    let v = Array::<f64, B>::zeros(&[3], dev).unwrap();
    let r = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    for msg in [
        v.det().unwrap_err().to_string(),
        r.det().unwrap_err().to_string(),
        r.cholesky().unwrap_err().to_string(),
        r.eigh().unwrap_err().to_string(),
        v.svd(true).unwrap_err().to_string(),
    ] {
        assert!(msg.contains("dimension") || msg.contains("square"), "{msg}");
    }
    assert!(r.matrix_power(2).is_err());
    assert!(v.qr(QrMode::Reduced).is_err());
}

cuprite::test_backends!(
    det_and_slogdet,
    solve_and_inv,
    cholesky,
    qr,
    svd,
    svd_accuracy,
    eigh,
    eig,
    pinv_lstsq_rank,
    norms,
    products,
    wrong_shapes_are_errors,
);
