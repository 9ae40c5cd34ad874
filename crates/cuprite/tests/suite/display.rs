//! Printing: `Display` and `Debug` against NumPy's `str()` and `repr()` of the same arrays.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use serde_json::Value;

fn expected(case: &str, which: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/display_text.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
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

cuprite::test_backends!(prints_like_numpy, summarises_large_arrays, prints_views);
