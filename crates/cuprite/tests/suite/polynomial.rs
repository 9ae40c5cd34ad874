//! Polynomials on every backend against NumPy fixtures (`scripts/fixtures/polynomial.py`):
//! `polyval` (x of several shapes, transposed and reversed views, 0-d, empty, NaN and
//! infinities, complex), `polyadd`/`polysub`/`polymul` (integers, floats, complex, reversed
//! views), `polyder`, `polyint` (constants), `polydiv` (remainder trimming, complex), `roots`
//! (leading and trailing zeros, complex roots and coefficients, compared as sorted
//! multisets), `poly` (roots and matrices) and `polyfit` (1-d and 2-d y, weights, both
//! covariances, full output, f32, complex), with every error path.

use crate::common;

use common::fixture;
use cuprite::f16;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "polynomial", name)
}

fn err_msg<V>(r: Result<V>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// Evaluation and integer-exact arithmetic for one type (inputs are small integers).
fn exact_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    let (p, x) = (fx::<T, B>(dev, "p"), fx::<T, B>(dev, "x"));
    eq(p.polyval(&x), "val");
    eq(p.polyval(&x.t()), "val_T");
    eq(p.polyval(&x.slice(&s![..;-1, ..;-2]).unwrap()), "val_rev");
    let three = Array::<T, B>::from_vec(vec![T::from_f64(3.0)], &[], dev).unwrap();
    eq(p.polyval(&three), "val_0d");
    let empty = Array::<T, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(p.polyval(&empty).unwrap().shape(), &[2, 0]);
    let none = Array::<T, B>::zeros(&[0], dev).unwrap();
    assert_array_equal(
        &none.polyval(&x).unwrap(),
        &Array::zeros(&[3, 4], dev).unwrap(),
    );
    let (a1, a2) = (fx::<T, B>(dev, "a1"), fx::<T, B>(dev, "a2"));
    eq(a1.polyadd(&a2), "add");
    eq(a2.polyadd(&a1), "add_rev");
    eq(a1.polysub(&a2), "sub");
    eq(a2.polysub(&a1), "sub_rev");
    eq(a1.polymul(&a2), "mul");
    eq(a2.slice(&s![..;-1]).unwrap().polymul(&a1), "mul_rev");
    let three1 = three.reshape(&[1]).unwrap();
    eq(a2.polymul(&three), "mul_scalar");
    eq(three1.polymul(&a2), "mul_scalar");
    eq(a2.polyder(1), "der1");
    eq(a2.polyder(2), "der2");
    eq(a2.polyder(5), "der5");
    eq(a2.slice(&s![..;-2]).unwrap().polyder(1), "der_rev");
    assert_array_equal(&a2.polyder(0).unwrap(), &a2);
}

fn exact_every_dtype<B: ArrayBackend>(dev: &B) {
    exact_for::<f64, B>(dev);
    exact_for::<f32, B>(dev);
    exact_for::<i64, B>(dev);
    exact_for::<i32, B>(dev);
    exact_for::<c128, B>(dev);
    exact_for::<c64, B>(dev);
    // NaN and infinities: 0 * inf is NaN in Horner's first step, as in NumPy.
    let p = fx::<f64, B>(dev, "p");
    let sp = Array::<f64, B>::from_vec(
        vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0],
        &[4],
        dev,
    )
    .unwrap();
    assert_allclose(
        &p.polyval(&sp).unwrap(),
        &fx::<f64, B>(dev, "val_special"),
        0.0,
        0.0,
    );
    // Complex coefficients and points.
    let (pc, xc) = (fx::<c128, B>(dev, "pc"), fx::<c128, B>(dev, "xc"));
    assert_allclose(
        &pc.polyval(&xc).unwrap(),
        &fx::<c128, B>(dev, "val_c"),
        1e-14,
        0.0,
    );
    let a1c = fx::<c128, B>(dev, "a1c");
    assert_allclose(
        &a1c.polymul(&fx::<c128, B>(dev, "a2")).unwrap(),
        &fx::<c128, B>(dev, "mul_c"),
        1e-14,
        0.0,
    );
}

fn calculus_for<T: Inexact, B: ArrayBackend>(dev: &B, rtol: f64) {
    let close = |got: Result<Array<T, B>>, name: &str| {
        assert_allclose(&got.unwrap(), &fx::<T, B>(dev, name), rtol, rtol);
    };
    let q = fx::<T, B>(dev, "q");
    let k = |v: f64| T::from_f64(v);
    close(q.polyint(1, &[]), "int1");
    close(q.polyint(2, &[k(3.0)]), "int2_k");
    close(q.polyint(3, &[k(1.0), k(-2.0), k(0.5)]), "int3_ks");
    close(
        q.slice(&s![..;-1]).unwrap().polyint(1, &[k(2.0)]),
        "int_rev",
    );
    assert_array_equal(&q.polyint(0, &[]).unwrap(), &q);
    let (u, v) = (fx::<T, B>(dev, "u"), fx::<T, B>(dev, "v"));
    let div = |a: &Array<T, B>, b: &Array<T, B>, qn: &str, rn: &str| {
        let (qq, rr) = a.polydiv(b).unwrap();
        close(Ok(qq), qn);
        close(Ok(rr), rn);
    };
    div(&u, &v, "div_q", "div_r");
    div(&v, &u, "div_short_q", "div_short_r");
    div(&fx(dev, "ex_u"), &fx(dev, "ex_v"), "ex_q", "ex_r");
}

fn calculus_every_dtype<B: ArrayBackend>(dev: &B) {
    calculus_for::<f64, B>(dev, 1e-12);
    calculus_for::<f32, B>(dev, 1e-5);
    calculus_for::<c128, B>(dev, 1e-12);
    let (uc, v) = (fx::<c128, B>(dev, "uc"), fx::<c128, B>(dev, "v"));
    let (q, r) = uc.polydiv(&v).unwrap();
    assert_allclose(&q, &fx::<c128, B>(dev, "div_c_q"), 1e-12, 1e-12);
    assert_allclose(&r, &fx::<c128, B>(dev, "div_c_r"), 1e-12, 1e-12);
}

/// Sorts roots as the fixture script does (by real part, then imaginary part, rounded).
fn sorted<C: Element, B: ArrayBackend>(a: &Array<C, B>) -> Vec<c128> {
    let mut v = a.astype::<c128>().unwrap().to_vec().unwrap();
    let key = |z: &c128| ((z.re * 1e6).round(), (z.im * 1e6).round());
    v.sort_by(|a, b| key(a).partial_cmp(&key(b)).unwrap());
    v
}

fn check_roots<T: Inexact, B: ArrayBackend>(dev: &B, input: &str, expect: &str, rtol: f64) {
    let p = fx::<T, B>(dev, input);
    let got = sorted(&p.roots().unwrap());
    let want = fx::<c128, Cpu>(&Cpu::new(), expect);
    let got = Array::<c128, Cpu>::from_vec(got.clone(), &[got.len()], &Cpu::new()).unwrap();
    assert_allclose(&got, &want, rtol, rtol);
}

fn roots_and_poly<B: ArrayBackend>(dev: &B) {
    check_roots::<f64, B>(dev, "rp", "roots_rp", 1e-10);
    check_roots::<f64, B>(dev, "cr", "roots_cr", 1e-10);
    check_roots::<f64, B>(dev, "rnd", "roots_rnd", 1e-9);
    check_roots::<f32, B>(dev, "cr", "roots_cr", 1e-5);
    check_roots::<c128, B>(dev, "rc", "roots_rc", 1e-10);
    check_roots::<c64, B>(dev, "cr", "roots_cr", 1e-5);
    let rnd = fx::<f64, B>(dev, "rnd");
    let got = sorted(&rnd.slice(&s![..;-2]).unwrap().roots().unwrap());
    let want = fx::<c128, Cpu>(&Cpu::new(), "roots_rev").to_vec().unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert!(
            (g - w).norm() < 1e-9 * w.norm().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
    // All zeros and constants have no roots; zeros at the end are roots at 0.
    assert_eq!(
        Array::<f64, B>::zeros(&[4], dev)
            .unwrap()
            .roots()
            .unwrap()
            .shape(),
        &[0]
    );
    assert_eq!(
        Array::<f64, B>::ones(&[1], dev)
            .unwrap()
            .roots()
            .unwrap()
            .shape(),
        &[0]
    );
    assert_eq!(
        Array::<f64, B>::ones(&[], dev)
            .unwrap()
            .roots()
            .unwrap()
            .shape(),
        &[0]
    );
    let tz = Array::<f64, B>::from_vec(vec![0.0, 2.0, 0.0, 0.0], &[4], dev).unwrap();
    assert_eq!(
        tz.roots().unwrap().to_vec().unwrap(),
        vec![c128::new(0.0, 0.0); 2]
    );

    let close =
        |got: Array<f64, B>, name: &str| assert_allclose(&got, &fx(dev, name), 1e-12, 1e-12);
    close(fx::<f64, B>(dev, "z").poly().unwrap(), "poly_z");
    close(fx::<f64, B>(dev, "m").poly().unwrap(), "poly_m");
    close(fx::<f64, B>(dev, "m").t().poly().unwrap(), "poly_mT");
    assert_allclose(
        &fx::<f32, B>(dev, "z").poly().unwrap(),
        &fx::<f32, B>(dev, "poly_z"),
        1e-6,
        1e-6,
    );
    let closec =
        |got: Array<c128, B>, name: &str| assert_allclose(&got, &fx(dev, name), 1e-12, 1e-12);
    closec(fx::<c128, B>(dev, "zc").poly().unwrap(), "poly_zc");
    closec(fx::<c128, B>(dev, "mc").poly().unwrap(), "poly_mc");
    let one = Array::<f64, B>::zeros(&[0], dev).unwrap().poly().unwrap();
    assert_eq!((one.shape(), one.item().unwrap()), (&[][..], 1.0));
    // roots and poly undo each other.
    let z = fx::<f64, B>(dev, "z");
    let back = z.poly().unwrap().roots().unwrap();
    let want: Vec<c128> = sorted(&z.astype::<c128>().unwrap());
    for (g, w) in sorted(&back).iter().zip(&want) {
        assert!((g - w).norm() < 1e-10);
    }
}

fn polyfits<B: ArrayBackend>(dev: &B) {
    let f = |n: &str| fx::<f64, B>(dev, n);
    let close =
        |got: &Array<f64, B>, name: &str, rtol: f64| assert_allclose(got, &f(name), rtol, 1e-12);
    let (x, y, w, y2) = (f("fx"), f("fy"), f("fw"), f("fy2"));
    let plain = PolyFit::default();
    let weighted = PolyFit {
        w: Some(&w),
        ..PolyFit::default()
    };
    let fit = x.polyfit(&y, 3, &plain).unwrap();
    close(&fit.coef, "fit3", 1e-10);
    assert!(fit.cov.is_none());
    assert_eq!(fit.rank, 4);
    close(&fit.residuals, "full_resid", 1e-9);
    close(&fit.singular_values, "full_sv", 1e-10);
    assert_eq!(fit.rcond, 12.0 * f64::EPSILON);
    close(&x.polyfit(&y, 0, &plain).unwrap().coef, "fit0", 1e-12);
    close(&x.polyfit(&y, 3, &weighted).unwrap().coef, "fit3_w", 1e-10);
    close(&x.polyfit(&y2, 2, &plain).unwrap().coef, "fit2_2d", 1e-10);
    close(
        &x.polyfit(&y2, 2, &weighted).unwrap().coef,
        "fit2_2d_w",
        1e-10,
    );
    let rev = |a: &Array<f64, B>| a.slice(&s![..;-1]).unwrap();
    close(
        &rev(&x).polyfit(&rev(&y), 3, &plain).unwrap().coef,
        "fit3_rev",
        1e-10,
    );
    let cov = |opts: PolyFit<'_, f64, B>, yy: &Array<f64, B>, deg| {
        x.polyfit(yy, deg, &opts).unwrap().cov.unwrap()
    };
    close(
        &cov(
            PolyFit {
                cov: PolyCov::Scaled,
                ..PolyFit::default()
            },
            &y,
            3,
        ),
        "cov3",
        1e-9,
    );
    close(
        &cov(
            PolyFit {
                cov: PolyCov::Unscaled,
                w: Some(&w),
                rcond: None,
            },
            &y,
            3,
        ),
        "cov3_w_unscaled",
        1e-9,
    );
    close(
        &cov(
            PolyFit {
                cov: PolyCov::Scaled,
                ..PolyFit::default()
            },
            &y2,
            2,
        ),
        "cov2_2d",
        1e-9,
    );
    // f32 and complex.
    let x32 = fx::<f32, B>(dev, "fx");
    let fit32 = x32
        .polyfit(&fx::<f32, B>(dev, "fy"), 3, &PolyFit::default())
        .unwrap();
    assert_allclose(&fit32.coef, &fx::<f32, B>(dev, "fit3_f32"), 1e-3, 1e-4);
    let xc = fx::<c128, B>(dev, "fx");
    let fitc = xc
        .polyfit(&fx::<c128, B>(dev, "fyc"), 2, &PolyFit::default())
        .unwrap();
    assert_allclose(&fitc.coef, &fx::<c128, B>(dev, "fit2_c"), 1e-10, 1e-12);
}

fn errors<B: ArrayBackend>(dev: &B) {
    let p = fx::<f64, B>(dev, "p");
    let m = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    let s = Array::<f64, B>::ones(&[], dev).unwrap();
    assert_eq!(
        err_msg(s.polyval(&p)),
        "polyval: the coefficients p must have at least one dimension, got a 0-d array"
    );
    assert!(err_msg(m.polyadd(&p))
        .starts_with("polyadd: a1 must be a 1-d array of coefficients, got shape [2, 2]"));
    assert!(err_msg(p.polysub(&m)).starts_with("polysub: a2 must be a 1-d array"));
    assert!(err_msg(p.polymul(&e))
        .starts_with("polymul: the polynomials must not be empty, got shapes [5] and [0]"));
    assert!(err_msg(m.polyder(1)).starts_with("polyder: p must be a 1-d array"));
    assert!(err_msg(p.polyint(3, &[1.0, 2.0]))
        .starts_with("polyint: k must hold one constant or at least m = 3 constants, got 2"));
    assert!(err_msg(e.polydiv(&p)).starts_with("polydiv: the polynomials must not be empty"));
    assert!(err_msg(m.roots()).starts_with("roots: p must be a 1-d array"));
    let bad = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev).unwrap();
    assert!(err_msg(bad.roots()).starts_with("roots"));
    let m23 = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    assert!(err_msg(m23.poly())
        .starts_with("poly: input must be 1-d or a non-empty square 2-d array, got shape [2, 3]"));
    assert!(err_msg(Array::<f64, B>::zeros(&[0, 0], dev).unwrap().poly()).starts_with("poly: "));
    let inf = Array::<f64, B>::from_vec(vec![1.0, 0.0, 0.0, f64::INFINITY], &[2, 2], dev).unwrap();
    assert!(err_msg(inf.poly()).starts_with("poly"));
    let (x, y) = (fx::<f64, B>(dev, "fx"), fx::<f64, B>(dev, "fy"));
    let d = PolyFit::default();
    assert!(err_msg(m.polyfit(&y, 1, &d))
        .starts_with("polyfit: expected a 1-d vector for x, got shape [2, 2]"));
    assert!(err_msg(e.polyfit(&e, 1, &d)).starts_with("polyfit: expected a non-empty vector for x"));
    assert!(err_msg(x.polyfit(&s, 1, &d)).starts_with("polyfit: expected a 1-d or 2-d array for y"));
    assert!(err_msg(x.polyfit(&p, 1, &d))
        .starts_with("polyfit: expected x and y to have the same length, got shapes [12] and [5]"));
    let w2 = PolyFit {
        w: Some(&m),
        ..PolyFit::default()
    };
    assert!(
        err_msg(x.polyfit(&y, 1, &w2)).starts_with("polyfit: expected a 1-d array for the weights")
    );
    let w5 = PolyFit {
        w: Some(&p),
        ..PolyFit::default()
    };
    assert!(err_msg(x.polyfit(&y, 1, &w5))
        .starts_with("polyfit: expected w and y to have the same length"));
    let sc = PolyFit {
        cov: PolyCov::Scaled,
        ..PolyFit::default()
    };
    let x3 = x.slice(&s![..3]).unwrap();
    let y3 = y.slice(&s![..3]).unwrap();
    assert!(err_msg(x3.polyfit(&y3, 2, &sc))
        .starts_with("polyfit: the number of data points (3) must exceed order (3)"));
    // A rank-deficient fit (all x equal): its covariance is singular, as in NumPy.
    let same = Array::<f64, B>::ones(&[6], dev).unwrap();
    assert!(err_msg(same.polyfit(&y.slice(&s![..6]).unwrap(), 2, &sc)).starts_with("polyfit: "));
    // The 16-bit floats have no decompositions.
    let h = Array::<f16, B>::ones(&[3], dev).unwrap();
    assert!(err_msg(h.roots()).contains("roots"));
}

cuprite::test_backends!(
    exact_every_dtype,
    calculus_every_dtype,
    roots_and_poly,
    polyfits,
    errors
);
