//! Printing: `Display` and `Debug` against NumPy's `str()` and `repr()` of the same arrays.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use serde_json::Value;

fn expected(case: &str, which: &str) -> String {
    let path = common::fixture_path("display_text.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("fixture file {path}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    v[case][which].as_str().unwrap().to_string()
}

fn check<T: Element, B: ArrayBackend>(dev: &B, case: &str) {
    let a = fixture::<T, B>(dev, "display", case);
    assert_eq!(format!("{a}"), expected(case, "str"), "str of {case}");
    assert_eq!(format!("{a:?}"), expected(case, "repr"), "repr of {case}");
}

fn prints_like_numpy<B: ArrayBackend>(dev: &B) {
    for case in [
        "f64_2x3",
        "f64_ints",
        "f64_special",
        "f64_sci",
        "scalar_f64",
        "empty_f64",
    ] {
        check::<f64, B>(dev, case);
    }
    check::<f64, B>(dev, "empty_2d");
    check::<f64, B>(dev, "f64_3d");
    check::<f32, B>(dev, "f32_vec");
    check::<i64, B>(dev, "i64_mat");
    check::<i32, B>(dev, "i32_vec");
    check::<u8, B>(dev, "u8_vec");
    check::<bool, B>(dev, "bool_vec");
    check::<c128, B>(dev, "c128_vec");
}

/// 0-d and 1-d arrays of every dtype: `str()` of a 0-d array is the scalar's own string
/// (`5.0`, `1e+20`, `(1+2j)`), and complex columns are padded as NumPy pads them.
fn prints_scalars_and_vectors_like_numpy<B: ArrayBackend>(dev: &B) {
    for case in [
        "s0_f64_int",
        "s0_f64_big",
        "s0_f64_small",
        "s0_f64_third",
        "s0_f64_neg0",
        "s0_f64_nan",
        "s0_f64_ninf",
        "s0_f64_1e15",
        "s0_f64_1e16",
        "s0_f64_1e_4",
        "s0_f64_large",
        "v_f64_one",
        "v_f64_big",
        "v_f64_mixed",
    ] {
        check::<f64, B>(dev, case);
    }
    for case in [
        "s0_f32_int",
        "s0_f32_third",
        "s0_f32_big",
        "s0_f32_tenth",
        "s0_f32_tiny",
        "v_f32_third",
        "v_f32_pos",
        "v_f32_sci",
        "v_f32_long",
    ] {
        check::<f32, B>(dev, case);
    }
    for case in [
        "s0_c128",
        "s0_c128_neg",
        "s0_c128_imag",
        "s0_c128_big",
        "s0_c128_nan",
        "s0_c128_neg0im",
        "v_c128_pad",
        "v_c128_frac",
        "v_c128_sci",
        "v_c128_nan",
        "v_c128_neg0",
    ] {
        check::<c128, B>(dev, case);
    }
    check::<c64, B>(dev, "s0_c64");
    check::<c64, B>(dev, "v_c64");
    check::<c64, B>(dev, "v_c64_frac");
    check::<i64, B>(dev, "s0_i64");
    check::<i64, B>(dev, "v_i64");
    check::<i32, B>(dev, "s0_i32");
    check::<u8, B>(dev, "s0_u8");
    check::<bool, B>(dev, "s0_bool");
    check::<bool, B>(dev, "v_bool");
}

fn summarises_large_arrays<B: ArrayBackend>(dev: &B) {
    check::<i64, B>(dev, "big_1d");
    check::<f64, B>(dev, "big_2d");
    check::<i32, B>(dev, "big_3d");
    check::<f64, B>(dev, "wrap_1d");
}

fn prints_views<B: ArrayBackend>(dev: &B) {
    let a = fixture::<i64, B>(dev, "display", "i64_mat");
    assert_eq!(format!("{}", a.t()), "[[  1   4]\n [-20   5]\n [300   6]]");
}

cuprite::test_backends!(
    prints_like_numpy,
    prints_scalars_and_vectors_like_numpy,
    summarises_large_arrays,
    prints_views
);
