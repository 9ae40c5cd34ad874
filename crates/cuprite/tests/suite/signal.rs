//! Signal processing and interpolation on every backend, against NumPy fixtures
//! (`scripts/fixtures/signal.py`): `interp` (left/right, one sample point, a repeated point,
//! infinite samples, complex `fp`, `period` with unsorted `xp`, transposed, reversed, empty
//! and 0-d `x`, f64/f32/c128/c64), `convolve`/`correlate` (every mode, both argument orders,
//! the direct and the FFT path forced and chosen, f64/f32/f16/c128/c64, integers wrapping,
//! bool, strided and reversed inputs, 0-d), the windows (`bartlett`, `blackman`, `hamming`,
//! `hanning`, `kaiser`, f64 and f32), and every error path. `sinc` and `i0` are compared by
//! the suite's `declared_ops` (`elementwise.rs`).

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::Scalar;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "signal", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

const METHODS: [ConvolveMethod; 3] = [
    ConvolveMethod::Direct,
    ConvolveMethod::Fft,
    ConvolveMethod::Auto,
];
const MODES: [(ConvolveMode, &str); 3] = [
    (ConvolveMode::Full, "full"),
    (ConvolveMode::Same, "same"),
    (ConvolveMode::Valid, "valid"),
];

/// The real interpolation cases in the float type `F` (inputs exact in f32).
fn interp_real<F: Float, B: ArrayBackend>(dev: &B, rtol: f64) {
    let (x, xp, fp) = (
        fx::<F, B>(dev, "x"),
        fx::<F, B>(dev, "xp"),
        fx::<F, B>(dev, "fp"),
    );
    let close = |got: Result<Array<F, B>>, name: &str| {
        assert_allclose(&got.unwrap(), &fx::<F, B>(dev, name), rtol, rtol);
    };
    let d = Interp::<F>::default();
    close(x.interp(&xp, &fp, d), "interp");
    let lr = Interp {
        left: Some(F::from_f64(-10.0)),
        right: Some(F::from_f64(10.0)),
        ..d
    };
    close(x.interp(&xp, &fp, lr), "interp_lr");
    close(x.t().interp(&xp, &fp, d), "interp_T");
    close(
        x.slice(&s![..;-1, ..;-2]).unwrap().interp(&xp, &fp, d),
        "interp_rev",
    );
    let (xp1, fp1) = (xp.slice(&s![..1]).unwrap(), fp.slice(&s![..1]).unwrap());
    close(x.interp(&xp1, &fp1, d), "interp_one");
    let lr1 = Interp {
        left: Some(F::from_f64(-1.0)),
        right: Some(F::from_f64(1.0)),
        ..d
    };
    close(x.interp(&xp1, &fp1, lr1), "interp_one_lr");
    let fpi = fx::<F, B>(dev, "fpi");
    close(fx::<F, B>(dev, "xi").interp(&xp, &fpi, d), "interp_inf");
    let (xq, xpp, fpp) = (
        fx::<F, B>(dev, "xq"),
        fx::<F, B>(dev, "xpp"),
        fx::<F, B>(dev, "fpp"),
    );
    let per = Interp {
        period: Some(F::from_f64(360.0)),
        ..d
    };
    close(xq.interp(&xpp, &fpp, per), "interp_period");
    // A negative period counts by its magnitude; left/right are ignored with a period.
    let per_neg = Interp {
        left: Some(F::from_f64(99.0)),
        period: Some(F::from_f64(-360.0)),
        ..d
    };
    close(xq.interp(&xpp, &fpp, per_neg), "interp_period_neg");
    let empty = Array::<F, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(empty.interp(&xp, &fp, d).unwrap().shape(), &[0, 3]);
    let x0 = Array::<F, B>::from_vec(vec![F::from_f64(0.5)], &[], dev).unwrap();
    close(x0.interp(&xp, &fp, d), "interp_0d");
}

/// Complex `fp` with the real type `F`.
fn interp_complex<F: Float, C: Inexact<RealPart = F>, B: ArrayBackend>(dev: &B, rtol: f64) {
    let (x, xp) = (fx::<F, B>(dev, "x"), fx::<F, B>(dev, "xp"));
    let fpc = fx::<C, B>(dev, "fpc");
    let close = |got: Result<Array<C, B>>, name: &str| {
        assert_allclose(&got.unwrap(), &fx::<C, B>(dev, name), rtol, rtol);
    };
    let d = Interp::<C>::default();
    close(x.interp(&xp, &fpc, d), "interp_c");
    let lr = Interp {
        left: Some(C::from_scalar(Scalar::C128(c128::new(1.0, 2.0)))),
        right: Some(C::from_scalar(Scalar::C128(c128::new(0.0, -3.0)))),
        ..d
    };
    close(x.interp(&xp, &fpc, lr), "interp_c_lr");
    let fpp = fx::<F, B>(dev, "fpp");
    let fpc = fpp
        .astype::<C>()
        .unwrap()
        .try_add(
            &fpp.flip(0)
                .unwrap()
                .astype::<C>()
                .unwrap()
                .scalar_op(
                    cuprite::ops::Mul,
                    C::from_scalar(Scalar::C128(c128::new(0.0, 1.0))),
                )
                .unwrap(),
        )
        .unwrap();
    let per = Interp {
        period: Some(F::from_f64(360.0)),
        ..d
    };
    close(
        fx::<F, B>(dev, "xq").interp(&fx::<F, B>(dev, "xpp"), &fpc, per),
        "interp_period_c",
    );
}

fn interp_every_dtype<B: ArrayBackend>(dev: &B) {
    interp_real::<f64, B>(dev, 1e-12);
    interp_real::<f32, B>(dev, 2e-5);
    interp_complex::<f64, c128, B>(dev, 1e-12);
    interp_complex::<f32, c64, B>(dev, 2e-5);
}

fn interp_errors<B: ArrayBackend>(dev: &B) {
    let (xp, fp) = (fx::<f64, B>(dev, "xp"), fx::<f64, B>(dev, "fp"));
    let x = fx::<f64, B>(dev, "x");
    let d = Interp::<f64>::default();
    assert_eq!(
        err_msg(x.interp(&x, &fp, d)),
        "interp: xp and fp must be 1-d, got shapes [4, 6] and [7]"
    );
    assert_eq!(
        err_msg(x.interp(&xp, &x, d)),
        "interp: xp and fp must be 1-d, got shapes [7] and [4, 6]"
    );
    let short = fp.slice(&s![..3]).unwrap();
    assert_eq!(
        err_msg(x.interp(&xp, &short, d)),
        "interp: fp and xp are not of the same length: 3 vs 7"
    );
    let none = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert_eq!(
        err_msg(x.interp(&none, &none, d)),
        "interp: array of sample points is empty"
    );
    let zero = Interp {
        period: Some(0.0),
        ..d
    };
    assert_eq!(
        err_msg(x.interp(&xp, &fp, zero)),
        "interp: period must be a non-zero value"
    );
}

/// Every convolve/correlate case of the short and long float inputs in `T`, by `method`.
fn conv_float<T: Numeric, B: ArrayBackend>(
    dev: &B,
    method: ConvolveMethod,
    tags: [&str; 2],
    rtol: f64,
    atol: f64,
) {
    let close = |got: Result<Array<T, B>>, name: &str| {
        let got = got.unwrap_or_else(|e| panic!("{name} ({method:?}): {e}"));
        assert_allclose(&got, &fx::<T, B>(dev, name), rtol, atol);
    };
    let (a, v) = (fx::<T, B>(dev, tags[0]), fx::<T, B>(dev, tags[1]));
    let t = if tags[0] == "cac" { "c" } else { "" };
    for (mode, m) in MODES {
        close(a.convolve_with(&v, mode, method), &format!("conv_{m}{t}"));
        close(
            v.convolve_with(&a, mode, method),
            &format!("conv_{m}{t}_swap"),
        );
        close(a.correlate_with(&v, mode, method), &format!("corr_{m}{t}"));
        close(
            v.correlate_with(&a, mode, method),
            &format!("corr_{m}{t}_swap"),
        );
    }
}

fn convolve_floats<B: ArrayBackend>(dev: &B) {
    for method in METHODS {
        conv_float::<f64, B>(dev, method, ["ca", "cv"], 1e-12, 1e-12);
        conv_float::<f32, B>(dev, method, ["ca", "cv"], 1e-5, 1e-4);
        conv_float::<f16, B>(dev, method, ["ca", "cv"], 1e-2, 0.25);
        conv_float::<c128, B>(dev, method, ["cac", "cvc"], 1e-12, 1e-12);
        conv_float::<c64, B>(dev, method, ["cac", "cvc"], 1e-5, 1e-4);
        let a = fx::<f64, B>(dev, "ca");
        let close = |got: Result<Array<f64, B>>, name: &str| {
            assert_allclose(&got.unwrap(), &fx::<f64, B>(dev, name), 1e-12, 1e-12);
        };
        // Strided and reversed views.
        let (p, q) = (a.slice(&s![..;2]).unwrap(), a.slice(&s![..;-3]).unwrap());
        close(
            p.convolve_with(&q, ConvolveMode::Same, method),
            "conv_strided",
        );
        let (p, q) = (
            a.flip(0).unwrap(),
            fx::<f64, B>(dev, "cv").slice(&s![..;2]).unwrap(),
        );
        close(
            p.correlate_with(&q, ConvolveMode::Full, method),
            "corr_strided",
        );
        // Long inputs (the FFT path under Auto).
        let (la, lv) = (fx::<f64, B>(dev, "la"), fx::<f64, B>(dev, "lv"));
        for (mode, m) in MODES {
            close(
                la.convolve_with(&lv, mode, method),
                &format!("conv_long_{m}"),
            );
            close(
                lv.correlate_with(&la, mode, method),
                &format!("corr_long_{m}_swap"),
            );
        }
        let (lac, lvc) = (fx::<c128, B>(dev, "lac"), fx::<c128, B>(dev, "lvc"));
        assert_allclose(
            &lac.correlate_with(&lvc, ConvolveMode::Same, method)
                .unwrap(),
            &fx::<c128, B>(dev, "corr_long_c_same"),
            1e-12,
            1e-11,
        );
        assert_allclose(
            &lvc.convolve_with(&lac, ConvolveMode::Full, method).unwrap(),
            &fx::<c128, B>(dev, "conv_long_c_full"),
            1e-12,
            1e-11,
        );
    }
    // A 0-d input counts as one element.
    let s = Array::<f64, B>::from_vec(vec![2.5], &[], dev).unwrap();
    assert_allclose(
        &s.convolve(&fx::<f64, B>(dev, "ca"), ConvolveMode::Full)
            .unwrap(),
        &fx::<f64, B>(dev, "conv_scalar"),
        1e-15,
        0.0,
    );
}

fn convolve_exact<B: ArrayBackend>(dev: &B) {
    for method in [ConvolveMethod::Direct, ConvolveMethod::Auto] {
        let (a, v) = (fx::<i8, B>(dev, "i8a"), fx::<i8, B>(dev, "i8v"));
        for (mode, m) in MODES {
            let eq = |got: Result<Array<i8, B>>, name: &str| {
                assert_array_equal(&got.unwrap(), &fx::<i8, B>(dev, name));
            };
            eq(a.convolve_with(&v, mode, method), &format!("i8_conv_{m}"));
            eq(
                v.correlate_with(&a, mode, method),
                &format!("i8_corr_{m}_swap"),
            );
        }
        let (a, v) = (fx::<u8, B>(dev, "u8a"), fx::<u8, B>(dev, "u8v"));
        assert_array_equal(
            &a.convolve_with(&v, ConvolveMode::Full, method).unwrap(),
            &fx::<u8, B>(dev, "u8_conv_full"),
        );
        let (a, v) = (fx::<i64, B>(dev, "i64a"), fx::<i64, B>(dev, "i64v"));
        assert_array_equal(
            &a.convolve_with(&v, ConvolveMode::Full, method).unwrap(),
            &fx::<i64, B>(dev, "i64_conv_full"),
        );
    }
    let (a, v) = (fx::<bool, B>(dev, "ba"), fx::<bool, B>(dev, "bv"));
    for (mode, m) in MODES {
        assert_array_equal(
            &a.convolve(&v, mode).unwrap(),
            &fx::<bool, B>(dev, &format!("b_conv_{m}")),
        );
        assert_array_equal(
            &a.correlate(&v, mode).unwrap(),
            &fx::<bool, B>(dev, &format!("b_corr_{m}")),
        );
    }
}

fn convolve_errors<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "ca");
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    let full = ConvolveMode::Full;
    assert_eq!(err_msg(e.convolve(&a, full)), "convolve: a cannot be empty");
    assert_eq!(err_msg(a.convolve(&e, full)), "convolve: v cannot be empty");
    assert_eq!(
        err_msg(e.correlate(&a, full)),
        "correlate: first array argument cannot be empty"
    );
    assert_eq!(
        err_msg(a.correlate(&e, full)),
        "correlate: second array argument cannot be empty"
    );
    let m = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    assert_eq!(
        err_msg(a.convolve(&m, full)),
        "convolve: v must be 0-d or 1-d, got shape [2, 2]"
    );
    let s = Array::<f64, B>::from_vec(vec![1.0], &[], dev).unwrap();
    assert_eq!(
        err_msg(s.correlate(&a, full)),
        "correlate: a must be 1-d, got shape []"
    );
    let i = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev).unwrap();
    assert_eq!(
        err_msg(i.convolve_with(&i, full, ConvolveMethod::Fft)),
        "convolve: method Fft needs a float or complex dtype, got int32"
    );
    assert_eq!(
        err_msg(i.correlate_with(&i, full, ConvolveMethod::Fft)),
        "correlate: method Fft needs a float or complex dtype, got int32"
    );
    let b = Array::<bool, B>::zeros(&[0], dev).unwrap();
    let b1 = Array::<bool, B>::ones(&[1], dev).unwrap();
    assert_eq!(
        err_msg(b1.convolve(&b, full)),
        "convolve: v cannot be empty"
    );
}

fn windows_for<F: Float, B: ArrayBackend>(dev: &B, rtol: f64, atol: f64) {
    type Ctor<F, B> = fn(usize, &B) -> Result<Array<F, B>>;
    let ctors: [(&str, Ctor<F, B>); 4] = [
        ("bartlett", Array::<F, B>::bartlett),
        ("blackman", Array::<F, B>::blackman),
        ("hamming", Array::<F, B>::hamming),
        ("hanning", Array::<F, B>::hanning),
    ];
    for (name, f) in ctors {
        for m in [0usize, 1, 2, 5, 8, 33] {
            let w = f(m, dev).unwrap();
            assert_allclose(&w, &fx::<F, B>(dev, &format!("{name}_{m}")), rtol, atol);
        }
    }
    for (m, beta) in [
        (0usize, 5.0),
        (1, 5.0),
        (2, 14.0),
        (7, 0.0),
        (12, 8.6),
        (33, 2.5),
        (16, 40.0),
    ] {
        let w = Array::<F, B>::kaiser(m, beta, dev).unwrap();
        assert_allclose(
            &w,
            &fx::<F, B>(dev, &format!("kaiser_{m}_{beta:?}")),
            rtol,
            atol,
        );
    }
    let nan = Array::<F, B>::kaiser(3, f64::NAN, dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(nan.iter().all(|v| v.to_f64_lossy().is_nan()), "{nan:?}");
}

fn windows<B: ArrayBackend>(dev: &B) {
    windows_for::<f64, B>(dev, 1e-13, 1e-16);
    windows_for::<f32, B>(dev, 1e-6, 1e-7);
}

cuprite::test_backends!(
    interp_every_dtype,
    interp_errors,
    convolve_floats,
    convolve_exact,
    convolve_errors,
    windows
);
