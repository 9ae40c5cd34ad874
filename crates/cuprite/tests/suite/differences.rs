//! Differences, integrals and equality tests on every backend: `diff` (n, axis, strided,
//! transposed and reversed views, prepend/append, more steps than the axis holds, unsigned
//! wrap-around), `ediff1d`, `trapezoid` (dx, 1-d and n-d x, complex, one point) and
//! `array_equal`/`array_equiv`, against NumPy fixtures (`scripts/fixtures/differences.py`)
//! for every numeric dtype family, with their error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::{bf16, f16, Scalar};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "differences", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Every `diff`/`ediff1d` fixture for one type (the inputs are small integers, so every
/// difference is exact in each type tested).
fn diffs_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    eq(a.diff(1, -1), "diff_1_last");
    eq(a.diff(2, 0), "diff_2_ax0");
    eq(a.diff(3, 1), "diff_3_ax1");
    eq(a.diff(9, 1), "diff_9_ax1");
    eq(a.permute_dims(&[2, 0, 1]).unwrap().diff(1, 1), "diff_T");
    eq(
        a.slice(&s![.., ..;-1, ..;2]).unwrap().diff(2, -1),
        "diff_rev",
    );
    let p = fx::<T, B>(dev, "p");
    eq(a.diff_with(1, 1, Some(&p), None), "diff_prepend");
    let seven = Array::<T, B>::from_vec(vec![T::from_scalar(Scalar::F64(7.0))], &[], dev).unwrap();
    eq(a.diff_with(1, 0, None, Some(&seven)), "diff_append0d");
    let p0 = p.slice(&s![.., ..1]).unwrap();
    eq(a.diff_with(2, 1, Some(&p), Some(&p0)), "diff_both");
    assert_array_equal(&a.diff(0, 1).unwrap(), &a);
    let ed = fx::<T, B>(dev, "ed_in");
    eq(ed.ediff1d(None, None), "ediff1d");
    let (end, begin) = (fx::<T, B>(dev, "ed_end"), fx::<T, B>(dev, "ed_begin"));
    eq(ed.ediff1d(Some(&end), Some(&begin)), "ediff1d_both");
}

fn diffs_every_dtype<B: ArrayBackend>(dev: &B) {
    diffs_for::<f64, B>(dev);
    diffs_for::<f32, B>(dev);
    diffs_for::<f16, B>(dev);
    diffs_for::<bf16, B>(dev);
    diffs_for::<i64, B>(dev);
    diffs_for::<i32, B>(dev);
    diffs_for::<i16, B>(dev);
    diffs_for::<c64, B>(dev);
    diffs_for::<c128, B>(dev);
    // Unsigned differences wrap, as NumPy's.
    let u = fx::<u8, B>(dev, "u8");
    assert_array_equal(&u.diff(1, 0).unwrap(), &fx::<u8, B>(dev, "u8_diff"));
    assert_array_equal(&u.diff(2, 0).unwrap(), &fx::<u8, B>(dev, "u8_diff2"));
    // Empty and one-element axes.
    let e = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(e.diff(1, 1).unwrap().shape(), &[2, 0]);
    assert_eq!(e.diff(1, 0).unwrap().shape(), &[1, 0]);
    let one = Array::<f64, B>::ones(&[1], dev).unwrap();
    assert_eq!(one.diff(1, 0).unwrap().shape(), &[0]);
    // NaN and infinities propagate as in IEEE subtraction.
    let x = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, f64::INFINITY, f64::INFINITY], &[4], dev)
        .unwrap();
    let d = x.diff(1, 0).unwrap().to_vec().unwrap();
    assert!(d[0].is_nan() && d[1].is_nan() && d[2].is_nan(), "{d:?}");
}

fn diff_errors<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "a");
    let s = Array::<f64, B>::from_vec(vec![1.0], &[], dev).unwrap();
    assert!(err_msg(s.diff(1, 0)).starts_with("diff: "));
    assert!(err_msg(a.diff(1, 3)).contains("diff"));
    assert!(err_msg(a.diff(1, -4)).contains("diff"));
    let p = fx::<f64, B>(dev, "p");
    // The prepend fits along axis 1 only.
    assert_eq!(
        err_msg(a.diff_with(1, 0, Some(&p), None)),
        "diff: shape mismatch: [3, 4, 5] vs [3, 2, 5]"
    );
    let flat = Array::<f64, B>::zeros(&[5], dev).unwrap();
    assert!(err_msg(a.diff_with(1, 2, None, Some(&flat))).starts_with("diff: shape mismatch"));
}

fn trapezoids_for<T: Inexact, B: ArrayBackend>(dev: &B, rtol: f64) {
    let y = fx::<T, B>(dev, "y");
    let close = |got: Result<Array<T, B>>, name: &str| {
        assert_allclose(&got.unwrap(), &fx::<T, B>(dev, name), rtol, rtol);
    };
    close(y.trapezoid(None, 0.25, -1), "trap_dx");
    close(y.trapezoid(None, 1.0, 0), "trap_ax0");
    close(y.trapezoid(Some(&fx::<T, B>(dev, "x1")), 1.0, 1), "trap_x1");
    close(
        y.trapezoid(Some(&fx::<T, B>(dev, "xn")), 1.0, 0),
        "trap_xn_ax0",
    );
    close(
        y.slice(&s![.., ..1]).unwrap().trapezoid(None, 1.0, 1),
        "trap_one",
    );
    // The transposed view integrates its rows.
    close(y.t().trapezoid(None, 1.0, 0), "trap_rows");
}

fn trapezoids_every_dtype<B: ArrayBackend>(dev: &B) {
    trapezoids_for::<f64, B>(dev, 1e-12);
    trapezoids_for::<f32, B>(dev, 1e-5);
    let yc = fx::<c128, B>(dev, "yc");
    assert_allclose(
        &yc.trapezoid(None, 0.5, 1).unwrap(),
        &fx::<c128, B>(dev, "trap_c"),
        1e-12,
        1e-12,
    );
    let y = fx::<f64, B>(dev, "y");
    let short = Array::<f64, B>::ones(&[5], dev).unwrap();
    assert!(err_msg(y.trapezoid(Some(&short), 1.0, 1)).starts_with("trapezoid: "));
    let s = Array::<f64, B>::from_vec(vec![1.0], &[], dev).unwrap();
    assert!(err_msg(s.trapezoid(None, 1.0, 0)).starts_with("trapezoid: "));
    assert!(err_msg(y.trapezoid(None, 1.0, 2)).contains("trapezoid"));
}

fn equality<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, -0.0], &[3], dev).unwrap();
    let b = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, 0.0], &[3], dev).unwrap();
    let yes = |r: Result<Array<bool, B>>| r.unwrap().item().unwrap();
    assert!(!yes(a.array_equal(&b, false)));
    assert!(yes(a.array_equal(&b, true)));
    let c = Array::<f64, B>::from_vec(vec![1.0, 2.0, 0.0], &[3], dev).unwrap();
    assert!(!yes(a.array_equal(&c, true)));
    let m = Array::<i32, B>::from_vec(vec![1, 2, 1, 2], &[2, 2], dev).unwrap();
    let row = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev).unwrap();
    assert!(!yes(m.array_equal(&row, false)));
    assert!(yes(m.array_equiv(&row)));
    assert!(yes(row.array_equiv(&m)));
    let col = Array::<i32, B>::from_vec(vec![1, 2], &[2, 1], dev).unwrap();
    assert!(!yes(m.array_equiv(&col)));
    let three = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev).unwrap();
    assert!(!yes(m.array_equiv(&three)));
    // Transposed and empty operands; bool and complex (NaN in either part).
    assert!(yes(m
        .t()
        .array_equal(&m.t().to_contiguous().unwrap(), false)));
    let e = Array::<u8, B>::zeros(&[0, 3], dev).unwrap();
    assert!(yes(e.array_equal(&e, false)));
    let t = Array::<bool, B>::from_vec(vec![true, false], &[2], dev).unwrap();
    assert!(yes(t.array_equal(&t, false)));
    let z = Array::<c64, B>::from_vec(vec![c64::new(1.0, f32::NAN)], &[1], dev).unwrap();
    assert!(!yes(z.array_equal(&z, false)));
    assert!(yes(z.array_equal(&z, true)));
}

cuprite::test_backends!(
    diffs_every_dtype,
    diff_errors,
    trapezoids_every_dtype,
    equality
);
