//! `pad` on every backend: every NumPy mode (constant, edge, reflect and symmetric with even
//! and odd reflection, wrap, linear_ramp with end_values, maximum/mean/median/minimum with
//! stat_length), pads wider than the axis, strided/transposed/reversed views, 1-d and 3-d
//! inputs, length-1 and empty axes, 0-d input and NaN inputs for the statistics, against
//! NumPy fixtures (`scripts/fixtures/pad.py`) for every dtype family, with the error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::Scalar;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "pad", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn val<T: Element>(v: i64) -> T {
    T::from_scalar(Scalar::I64(v))
}

/// The input views of `pad.py`'s cases, by name.
fn view<T: Element, B: ArrayBackend>(x: &Array<T, B>, kind: &str) -> Array<T, B> {
    match kind {
        "id" => x.clone(),
        "strided" => x.slice(&s![.., ..;2]).unwrap(),
        "t" => x.t(),
        "reversed" => x.slice(&s![..;-1, ..;-1]).unwrap(),
        "row1" => x.slice(&s![..1, ..]).unwrap(),
        "col1" => x.slice(&s![.., ..1]).unwrap(),
        "flat5" => x.ravel().unwrap().slice(&s![..5]).unwrap(),
        "cube" => x.reshape(&[2, 3, 2]).unwrap(),
        other => panic!("unknown view {other}"),
    }
}

type Case<T> = (&'static str, &'static str, Vec<(usize, usize)>, PadMode<T>);

/// The cases of `pad.py`'s `CASES`, in its order: name, view, pad_width, mode.
fn cases<T: PadElement>() -> Vec<Case<T>> {
    use PadMode::*;
    use ReflectType::*;
    let w = |p: &[(usize, usize)]| p.to_vec();
    let len = || Some(vec![(2, 1), (3, 2)]);
    let ramp = vec![(val(1), val(-2)), (val(3), val(4))];
    vec![
        ("constant", "id", w(&[(1, 2), (2, 1)]), Constant(val(7))),
        ("edge", "id", w(&[(2, 1), (0, 3)]), Edge),
        ("reflect", "id", w(&[(5, 2), (3, 7)]), Reflect(Even)),
        ("reflect_odd", "id", w(&[(5, 2), (3, 7)]), Reflect(Odd)),
        ("symmetric", "id", w(&[(4, 5), (9, 1)]), Symmetric(Even)),
        ("symmetric_odd", "id", w(&[(4, 5), (9, 1)]), Symmetric(Odd)),
        ("wrap", "id", w(&[(7, 2), (1, 9)]), Wrap),
        ("ramp", "id", w(&[(2, 3), (4, 1)]), LinearRamp(ramp)),
        (
            "ramp0",
            "id",
            w(&[(3, 3)]),
            LinearRamp(vec![(val(0), val(0))]),
        ),
        ("maximum", "id", w(&[(2, 1), (1, 3)]), Maximum(None)),
        ("minimum", "id", w(&[(2, 1), (1, 3)]), Minimum(None)),
        ("mean", "id", w(&[(2, 1), (1, 3)]), Mean(None)),
        ("median", "id", w(&[(2, 1), (1, 3)]), Median(None)),
        ("maximum_len", "id", w(&[(2, 1), (1, 3)]), Maximum(len())),
        ("minimum_len", "id", w(&[(2, 1), (1, 3)]), Minimum(len())),
        ("mean_len", "id", w(&[(2, 1), (1, 3)]), Mean(len())),
        ("median_len", "id", w(&[(2, 1), (1, 3)]), Median(len())),
        ("mean_long", "id", w(&[(1, 2)]), Mean(Some(vec![(10, 10)]))),
        (
            "strided_reflect",
            "strided",
            w(&[(1, 1), (3, 4)]),
            Reflect(Even),
        ),
        (
            "transposed_symmetric",
            "t",
            w(&[(2, 3), (1, 4)]),
            Symmetric(Even),
        ),
        ("reversed_wrap", "reversed", w(&[(2, 3), (5, 1)]), Wrap),
        (
            "reversed_odd",
            "reversed",
            w(&[(3, 2), (2, 3)]),
            Symmetric(Odd),
        ),
        ("one_reflect", "row1", w(&[(2, 2), (1, 1)]), Reflect(Even)),
        (
            "one_reflect_odd",
            "col1",
            w(&[(2, 2), (3, 1)]),
            Reflect(Odd),
        ),
        ("flat_reflect", "flat5", w(&[(9, 11)]), Reflect(Even)),
        (
            "flat_ramp",
            "flat5",
            w(&[(6, 4)]),
            LinearRamp(vec![(val(-3), val(5))]),
        ),
        ("cube_edge", "cube", w(&[(1, 2)]), Edge),
        (
            "cube_median",
            "cube",
            w(&[(1, 1), (0, 2), (2, 0)]),
            Median(None),
        ),
    ]
}

/// Every case for one dtype family: exact when `tol` is 0, else to `tol`; `skip` names the
/// cases whose NumPy parameters have no value of the type (a negative end value for u8 or
/// bool, which NumPy uses uncast).
fn pad_family<T: PadElement, B: ArrayBackend>(dev: &B, fam: &str, tol: f64, skip: &[&str]) {
    let x = fx::<T, B>(dev, &format!("{fam}/x"));
    for (name, kind, widths, mode) in cases::<T>() {
        if skip.contains(&name) {
            continue;
        }
        let got = view(&x, kind)
            .pad(&widths, mode)
            .unwrap_or_else(|e| panic!("{fam}/{name}: {e}"));
        let want = fx::<T, B>(dev, &format!("{fam}/{name}"));
        assert_eq!(got.shape(), want.shape(), "{fam}/{name}");
        if tol == 0.0 {
            assert_array_equal(&got, &want);
        } else {
            assert_allclose(&got, &want, tol, tol);
        }
    }
}

fn pad_every_dtype<B: ArrayBackend>(dev: &B) {
    pad_family::<f64, B>(dev, "f64", 1e-12, &[]);
    pad_family::<f32, B>(dev, "f32", 1e-6, &[]);
    pad_family::<f16, B>(dev, "f16", 4e-3, &[]);
    pad_family::<i64, B>(dev, "i64", 0.0, &[]);
    pad_family::<u8, B>(dev, "u8", 0.0, &["ramp", "flat_ramp"]);
    pad_family::<bool, B>(dev, "bool", 0.0, &["ramp", "flat_ramp"]);
    pad_family::<c128, B>(dev, "c128", 1e-12, &[]);
}

fn pad_nan_and_edges<B: ArrayBackend>(dev: &B) {
    let y = fx::<f64, B>(dev, "nan/x");
    let widths = [(1, 1), (2, 1)];
    for (name, mode) in [
        ("maximum", PadMode::Maximum(None)),
        ("minimum", PadMode::Minimum(None)),
        ("mean", PadMode::Mean(None)),
        ("median", PadMode::Median(None)),
    ] {
        let got = y.pad(&widths, mode).unwrap();
        assert_allclose(
            &got,
            &fx::<f64, B>(dev, &format!("nan/{name}")),
            1e-12,
            1e-12,
        );
    }
    let odd = y
        .pad(&[(2, 1), (1, 2)], PadMode::Reflect(ReflectType::Odd))
        .unwrap();
    assert_array_equal(&odd, &fx::<f64, B>(dev, "nan/reflect_odd"));
    let ramp = y
        .pad(
            &[(1, 2), (2, 1)],
            PadMode::LinearRamp(vec![(1.0, 2.0), (3.0, 4.0)]),
        )
        .unwrap();
    assert_allclose(&ramp, &fx::<f64, B>(dev, "nan/ramp"), 1e-12, 1e-12);
    // 0-d: nothing to pad, whatever the mode.
    let z = Array::<f64, B>::scalar(5.0, dev).unwrap();
    assert_array_equal(
        &z.pad(&[(3, 3)], PadMode::Reflect(ReflectType::Even))
            .unwrap(),
        &fx::<f64, B>(dev, "zerod"),
    );
    assert_array_equal(&z.pad(&[(3, 3)], PadMode::Wrap).unwrap(), &z);
    // An empty array: only its non-empty axes may be padded (the result is empty).
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(
        e.pad(&[(0, 0), (1, 1)], PadMode::Edge).unwrap().shape(),
        &[0, 5]
    );
    assert_eq!(
        e.pad(&[(2, 1)], PadMode::Constant(1.0))
            .unwrap()
            .to_vec()
            .unwrap(),
        vec![1.0; 18]
    );
    // Zero widths give a copy.
    let x = fx::<f64, B>(dev, "f64/x");
    assert_array_equal(
        &x.pad(&[(0, 0)], PadMode::Symmetric(ReflectType::Odd))
            .unwrap(),
        &x,
    );
}

fn pad_errors<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "f64/x");
    assert_eq!(
        err_msg(x.pad(&[(1, 1); 3], PadMode::Edge)),
        "pad: pad_width has 3 (before, after) pairs for an array of shape [3, 4] (expected 1 or 2)"
    );
    assert!(
        err_msg(x.pad(&[(1, 1); 3], PadMode::Constant(0.0))).starts_with("pad: pad_width has 3")
    );
    assert_eq!(
        err_msg(x.pad(&[(1, 1)], PadMode::Mean(Some(vec![(1, 1); 3])))),
        "pad: stat_length has 3 (before, after) pairs for an array of shape [3, 4] (expected 1 or 2)"
    );
    assert!(err_msg(x.pad(&[(1, 1)], PadMode::LinearRamp(vec![])))
        .starts_with("pad: end_values has 0 (before, after) pairs"));
    assert_eq!(
        err_msg(x.pad(&[(1, 1)], PadMode::Maximum(Some(vec![(0, 2)])))),
        "pad: stat_length of 0 yields no value for padding (mode 'maximum', axis 0)"
    );
    assert!(
        err_msg(x.pad(&[(0, 0)], PadMode::Minimum(Some(vec![(2, 0)]))))
            .starts_with("pad: stat_length of 0")
    );
    let e = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(
        err_msg(e.pad(&[(0, 0), (0, 1)], PadMode::Wrap)),
        "pad: can't extend empty axis 1 using modes other than 'constant' or 'empty' (array of \
         shape [2, 0])"
    );
    assert!(err_msg(x.pad(&[(usize::MAX, 1)], PadMode::Edge)).contains("pad"));
    assert!(
        err_msg(x.pad(&[(usize::MAX / 2, 0)], PadMode::Reflect(ReflectType::Even))).contains("pad")
    );
}

cuprite::test_backends!(pad_every_dtype, pad_nan_and_edges, pad_errors);
