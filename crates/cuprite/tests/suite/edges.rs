//! The edges of the API against NumPy (fixtures from `scripts/fixtures/edges.py`): empty
//! matrices through `linalg`, condition numbers of singular matrices, NaN and infinite
//! input to the iterative decompositions (an error naming the op, where NumPy raises
//! `LinAlgError`), `logspace` with negative and zero bases, scans of 0-d arrays, and the op
//! named by the errors of composed reductions.

use crate::common;

use common::fixture_vec;
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::Scalar;

const TOPIC: &str = "edges";

/// Compares `actual` with fixture case `name`: same shape, values within `tol` (NaN equal
/// to NaN, infinities equal).
fn expect<A: Element, B: ArrayBackend>(actual: &Array<A, B>, name: &str, tol: f64) {
    let (want, shape) = fixture_vec::<A>(TOPIC, name);
    assert_eq!(actual.shape(), &shape[..], "{name}: shape");
    check_allclose_slices(&actual.to_vec().unwrap(), &want, &shape, tol, tol)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

/// `expect` for exact results.
fn exact<A: Element, B: ArrayBackend>(actual: &Array<A, B>, name: &str) {
    expect(actual, name, 0.0);
}

/// `x` as an element of type `E`.
fn re<E: Element>(x: f64) -> E {
    E::from_scalar(Scalar::F64(x))
}

/// The error of `r`, asserting that its message starts with `op:`.
fn err_of<T>(r: Result<T>, op: &str) -> String {
    let msg = match r {
        Ok(_) => panic!("{op}: expected an error"),
        Err(e) => e.to_string(),
    };
    assert!(msg.starts_with(&format!("{op}: ")), "{op}: message {msg:?}");
    msg
}

const EMPTY: [(&str, &[usize]); 4] = [
    ("0x0", &[0, 0]),
    ("3x0", &[3, 0]),
    ("0x3", &[0, 3]),
    ("2x0x0", &[2, 0, 0]),
];

fn empty_matrices<B: ArrayBackend>(dev: &B) {
    for (name, shape) in EMPTY {
        let a = Array::<f64, B>::zeros(shape, dev).unwrap();
        exact(&a.matrix_rank(None).unwrap(), &format!("rank_{name}"));
        exact(&a.pinv(None).unwrap(), &format!("pinv_{name}"));
        exact(&a.svdvals().unwrap(), &format!("svdvals_{name}"));
        let (u, s, vh) = a.svd(true).unwrap();
        exact(&u, &format!("svd_full_u_{name}"));
        exact(&s, &format!("svd_s_{name}"));
        exact(&vh, &format!("svd_full_vh_{name}"));
        let (u, s, vh) = a.svd(false).unwrap();
        exact(&u, &format!("svd_u_{name}"));
        exact(&s, &format!("svd_s_{name}"));
        exact(&vh, &format!("svd_vh_{name}"));
        for (mode, m) in [("reduced", QrMode::Reduced), ("complete", QrMode::Complete)] {
            let (q, r) = a.qr(m).unwrap();
            exact(&q, &format!("qr_{mode}_q_{name}"));
            exact(&r, &format!("qr_{mode}_r_{name}"));
        }
        exact(&a.norm().unwrap(), &format!("norm_{name}"));
        for (o, ord) in [
            ("fro", MatrixNorm::Frobenius),
            ("nuc", MatrixNorm::Nuclear),
            ("1", MatrixNorm::One),
            ("2", MatrixNorm::Two),
            ("inf", MatrixNorm::Inf),
        ] {
            exact(
                &a.matrix_norm(ord, false).unwrap(),
                &format!("mnorm_{o}_{name}"),
            );
        }
        for ord in [MatrixNorm::NegOne, MatrixNorm::NegTwo, MatrixNorm::NegInf] {
            err_of(a.matrix_norm(ord, false), "matrix_norm");
        }
        err_of(a.cond(None), "cond");
        err_of(a.cond(Some(MatrixNorm::One)), "cond");
        if shape[shape.len() - 1] == shape[shape.len() - 2] {
            exact(&a.det().unwrap(), &format!("det_{name}"));
            let (sign, logabs) = a.slogdet().unwrap();
            exact(&sign, &format!("slogdet_sign_{name}"));
            exact(&logabs, &format!("slogdet_logabs_{name}"));
            exact(&a.inv().unwrap(), &format!("inv_{name}"));
            exact(&a.cholesky().unwrap(), &format!("cholesky_{name}"));
            let (w, v) = a.eigh().unwrap();
            exact(&w, &format!("eigh_w_{name}"));
            exact(&v, &format!("eigh_v_{name}"));
            exact(&a.eigvalsh().unwrap(), &format!("eigvalsh_{name}"));
            let (w, v) = a.eig().unwrap();
            exact(&w, &format!("eig_w_{name}"));
            exact(&v, &format!("eig_v_{name}"));
            exact(&a.eigvals().unwrap(), &format!("eig_w_{name}"));
            for (p, k) in [("m1", -1), ("0", 0), ("2", 2)] {
                exact(
                    &a.matrix_power(k).unwrap(),
                    &format!("matrix_power_{p}_{name}"),
                );
            }
            let mut bshape = shape[..shape.len() - 1].to_vec();
            bshape.push(2);
            let b = Array::<f64, B>::ones(&bshape, dev).unwrap();
            exact(&a.solve(&b).unwrap(), &format!("solve_{name}"));
        }
        if shape.len() == 2 {
            for (bname, bshape) in [("vec", vec![shape[0]]), ("mat", vec![shape[0], 2])] {
                let b = Array::<f64, B>::ones(&bshape, dev).unwrap();
                let (x, res, rank, s) = a.lstsq(&b, None).unwrap();
                let pre = format!("lstsq_{bname}");
                exact(&x, &format!("{pre}_x_{name}"));
                exact(&res, &format!("{pre}_res_{name}"));
                exact(&s, &format!("{pre}_s_{name}"));
                let (want, _) = fixture_vec::<i64>(TOPIC, &format!("{pre}_rank_{name}"));
                assert_eq!(rank as i64, want[0], "{pre}_rank_{name}");
            }
        }
    }
    let v = Array::<f64, B>::zeros(&[0], dev).unwrap();
    exact(
        &v.vector_norm(f64::INFINITY, Axes::All, false).unwrap(),
        "vnorm_inf_0",
    );
    err_of(
        v.vector_norm(f64::NEG_INFINITY, Axes::All, false),
        "vector_norm",
    );
    let w = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    exact(
        &w.vector_norm(f64::INFINITY, 1, false).unwrap(),
        "vnorm_inf_2x0_axis1",
    );
    exact(&w.vector_norm(1.0, 1, false).unwrap(), "vnorm_1_2x0_axis1");
}

/// Empty matrices of the other inexact types give the same shapes as f64's.
fn empty_matrices_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    let a = Array::<E, B>::zeros(&[0, 0], dev).unwrap();
    exact(&a.matrix_rank(None).unwrap(), "rank_0x0");
    assert_eq!(a.det().unwrap().to_vec().unwrap(), vec![re::<E>(1.0)]);
    assert_eq!(a.inv().unwrap().shape(), &[0, 0]);
    assert_eq!(a.eigvalsh().unwrap().shape(), &[0]);
    assert_eq!(a.cholesky().unwrap().shape(), &[0, 0]);
    let b = Array::<E, B>::zeros(&[3, 0], dev).unwrap();
    assert_eq!(b.svdvals().unwrap().shape(), &[0]);
    assert_eq!(b.pinv(None).unwrap().shape(), &[0, 3]);
}

fn empty_matrices_all_types<B: ArrayBackend>(dev: &B) {
    empty_matrices_of::<f32, B>(dev);
    empty_matrices_of::<c64, B>(dev);
    empty_matrices_of::<c128, B>(dev);
}

fn cond_of_singular_matrices<B: ArrayBackend>(dev: &B) {
    let zeros = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    let sing = Array::<f64, B>::from_vec(vec![1.0, 0.0, 0.0, 0.0], &[2, 2], dev).unwrap();
    let batch = Array::<f64, B>::from_vec(
        vec![1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0],
        &[2, 2, 2],
        dev,
    )
    .unwrap();
    exact(&zeros.cond(None).unwrap(), "cond_zeros");
    exact(
        &zeros.cond(Some(MatrixNorm::NegTwo)).unwrap(),
        "cond_m2_zeros",
    );
    exact(&sing.cond(None).unwrap(), "cond_sing");
    exact(&sing.cond(Some(MatrixNorm::One)).unwrap(), "cond_1_sing");
    exact(
        &zeros.cond(Some(MatrixNorm::Frobenius)).unwrap(),
        "cond_fro_zeros",
    );
    expect(
        &batch.cond(Some(MatrixNorm::Inf)).unwrap(),
        "cond_inf_batch",
        1e-12,
    );
    expect(&batch.cond(None).unwrap(), "cond_batch", 1e-12);
    // A NaN stays NaN through a matrix norm, as NumPy's.
    let nan = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, 0.0, 1.0], &[2, 2], dev).unwrap();
    assert!(nan
        .cond(Some(MatrixNorm::One))
        .unwrap()
        .item()
        .unwrap()
        .is_nan());
}

/// NaN or inf input to the iterative decompositions is an error naming the op (the batch
/// index of the first bad matrix), never a silent NaN result.
fn non_finite_input_of<E: Inexact, B: ArrayBackend>(dev: &B) {
    for bad in [f64::NAN, f64::INFINITY] {
        let bad = re::<E>(bad);
        let (one, two, zero) = (re::<E>(1.0), re::<E>(2.0), re::<E>(0.0));
        // Second matrix of a batch of two holds the bad value in its lower triangle.
        let a = Array::<E, B>::from_vec(
            vec![two, zero, zero, two, two, zero, bad, two],
            &[2, 2, 2],
            dev,
        )
        .unwrap();
        let m = Array::<E, B>::from_vec(vec![one, bad, zero, one], &[2, 2], dev).unwrap();
        let b = Array::<E, B>::ones(&[2], dev).unwrap();
        for msg in [
            err_of(a.eigh(), "eigh"),
            err_of(a.eigvalsh(), "eigvalsh"),
            err_of(a.eig(), "eig"),
            err_of(a.eigvals(), "eigvals"),
            err_of(a.svd(true), "svd"),
            err_of(a.svd(false), "svd"),
            err_of(a.svdvals(), "svdvals"),
            err_of(a.cholesky(), "cholesky"),
            err_of(a.matrix_rank(None), "matrix_rank"),
            err_of(a.pinv(None), "pinv"),
            err_of(a.cond(None), "cond"),
            err_of(a.matrix_norm(MatrixNorm::Nuclear, false), "matrix_norm"),
        ] {
            assert!(msg.contains("infs or NaNs"), "{msg}");
            assert!(msg.contains("batch index 1"), "{msg}");
        }
        err_of(m.lstsq(&b, None), "lstsq");
        let m_ok = Array::<E, B>::eye(2, None, 0, dev).unwrap();
        let b_bad = Array::<E, B>::from_vec(vec![one, bad], &[2], dev).unwrap();
        err_of(m_ok.lstsq(&b_bad, None), "lstsq");
    }
    // eigh, eigvalsh and cholesky read only the lower triangle, as NumPy's: a NaN above
    // the diagonal is ignored.
    let nan = re::<E>(f64::NAN);
    let (two, zero) = (re::<E>(2.0), re::<E>(0.0));
    // Rows [2, NaN] and [0, 2]: the NaN is above the diagonal.
    let upper = Array::<E, B>::from_vec(vec![two, nan, zero, two], &[2, 2], dev).unwrap();
    let w = upper.eigvalsh().unwrap().astype::<f64>().unwrap();
    assert_eq!(w.to_vec().unwrap(), vec![2.0, 2.0]);
    assert!(upper.cholesky().is_ok());
}

fn non_finite_input<B: ArrayBackend>(dev: &B) {
    non_finite_input_of::<f64, B>(dev);
    non_finite_input_of::<f32, B>(dev);
    non_finite_input_of::<c128, B>(dev);
}

fn logspace_any_base<B: ArrayBackend>(dev: &B) {
    let cases: [(&str, f64, f64, usize, bool, f64); 9] = [
        ("neg2", 0.0, 2.0, 3, true, -2.0),
        ("neg2_half", 0.0, 1.0, 3, true, -2.0),
        ("neg2_open", 0.0, 2.0, 3, false, -2.0),
        ("neg2_wide", -2.0, 2.0, 5, true, -2.0),
        ("neg1", 0.0, 3.0, 4, true, -1.0),
        ("zero", 0.0, 2.0, 3, true, 0.0),
        ("zero_neg", -1.0, 1.0, 3, true, 0.0),
        ("ten", 0.0, 3.0, 4, true, 10.0),
        ("half", -3.0, 3.0, 7, true, 0.5),
    ];
    for (name, start, stop, num, endpoint, base) in cases {
        let a = Array::<f64, B>::logspace(start, stop, num, endpoint, base, dev).unwrap();
        expect(&a, &format!("logspace_{name}"), 1e-14);
        let a =
            Array::<f32, B>::logspace(start as f32, stop as f32, num, endpoint, base as f32, dev)
                .unwrap();
        expect(&a, &format!("logspace32_{name}"), 1e-6);
    }
}

fn scans_of_0d_arrays<B: ArrayBackend>(dev: &B) {
    let x = Array::<f64, B>::scalar(5.0, dev).unwrap();
    exact(&x.cumsum(Some(0)).unwrap(), "cumsum_0d_axis0");
    exact(&x.cumsum(None).unwrap(), "cumsum_0d_none");
    exact(&x.cumsum(Some(-1)).unwrap(), "cumsum_0d_axism1");
    let i = Array::<i32, B>::scalar(3, dev).unwrap();
    exact(&i.cumprod(Some(0)).unwrap(), "cumprod_0d_i32");
    // NumPy: "axis 1 is out of bounds for array of dimension 1".
    let msg = err_of(x.cumsum(Some(1)), "cumsum");
    assert!(
        msg.contains("axis 1") && msg.contains("dimension 1"),
        "{msg}"
    );
}

/// Composed reductions name the op the caller called, not the one they are built on.
fn composed_reductions_name_their_op<B: ArrayBackend>(dev: &B) {
    let empty = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    let a = Array::<f64, B>::ones(&[2, 3], dev).unwrap();
    err_of(empty.ptp(), "ptp");
    err_of(empty.ptp_axes(0, false), "ptp");
    err_of(a.ptp_axes(2, false), "ptp");
    err_of(a.std_axes(2, 0.0, false), "std");
    err_of(a.var_axes(2, 0.0, false), "var");
    err_of(a.median_axes(2, false), "median");
    err_of(a.quantile_axes(0.5, 2, false), "quantile");
    err_of(a.quantile(2.0), "quantile");
    err_of(a.percentile_axes(50.0, 2, false), "percentile");
    err_of(a.percentile(200.0), "percentile");
    err_of(empty.quantile_axes(0.5, 0, false), "quantile");
    err_of(empty.percentile_axes(50.0, 0, false), "percentile");
    let ai = Array::<i64, B>::ones(&[2, 3], dev).unwrap();
    err_of(ai.std_axes(-3, 1.0, false), "std");
    err_of(ai.ptp_axes(5, false), "ptp");
}

cuprite::test_backends!(
    empty_matrices,
    empty_matrices_all_types,
    cond_of_singular_matrices,
    non_finite_input,
    logspace_any_base,
    scans_of_0d_arrays,
    composed_reductions_name_their_op,
);
