//! Set operations and sorting helpers on every backend: `isin` (and `invert`),
//! `intersect1d` (and its indices), `union1d`, `setdiff1d`, `setxor1d` with and without
//! `assume_unique`, `lexsort`/`argsort_after` and `sort_complex`, against NumPy fixtures
//! (`scripts/fixtures/sets.py`) for every dtype family (signed and unsigned integers past
//! the signed range, f16/bf16/f32/f64 with NaN and `-0.0`, complex, bool), through
//! transposed, reversed and strided views, empty and 0-d inputs, with their error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::{bf16, f16, Scalar};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "sets", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Asserts that `got` has the shape and exactly the elements of fixture `name` (`==`, so
/// `-0.0` equals `0.0`; NaN equals NaN), naming the case and the dtype on failure.
#[track_caller]
fn same<T: Element, B: ArrayBackend>(got: &Array<T, B>, dev: &B, name: &str) {
    let want = fx::<T, B>(dev, name);
    let what = format!("sets/{name} as {}", T::DTYPE);
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    let (g, w) = (got.to_vec().unwrap(), want.to_vec().unwrap());
    let equal = g
        .iter()
        .zip(&w)
        .all(|(a, b)| a == b || (a.is_nan_value() && b.is_nan_value()));
    assert!(equal, "{what}: got {g:?}, want {w:?}");
}

/// Every set op of `x` and `y` against the fixture group `p` (see `sets.py`).
fn group<T: Element, B: ArrayBackend>(dev: &B, p: &str, x: &Array<T, B>, y: &Array<T, B>) {
    let n = |s: &str| format!("{p}_{s}");
    same(&x.isin(y, false, false).unwrap(), dev, &n("isin"));
    same(&x.isin(y, false, true).unwrap(), dev, &n("isin_inv"));
    // The flag changes nothing in this algorithm (NumPy's answer for truly unique inputs).
    same(&x.isin(y, true, false).unwrap(), dev, &n("isin"));
    same(&x.intersect1d(y, false).unwrap(), dev, &n("inter"));
    let (v, i1, i2) = x.intersect1d_indices(y, false).unwrap();
    same(&v, dev, &n("inter"));
    same(&i1, dev, &n("inter_i1"));
    same(&i2, dev, &n("inter_i2"));
    same(&x.union1d(y).unwrap(), dev, &n("union"));
    same(&x.setdiff1d(y, false).unwrap(), dev, &n("diff"));
    same(&x.setxor1d(y, false).unwrap(), dev, &n("xor"));
}

/// The groups of small non-negative integers (exact in every numeric type), `big` adds the
/// group of values up to 999 (not exact in i8, u8, bf16).
fn int_groups_for<T: Element, B: ArrayBackend>(dev: &B, big: bool) {
    let (a, b) = (fx::<T, B>(dev, "ab_x"), fx::<T, B>(dev, "ab_y"));
    let b2 = fx::<T, B>(dev, "tb2_y");
    group(dev, "ab", &a, &b);
    group(dev, "ba", &b, &a);
    group(dev, "tb2", &a.t(), &b2);
    group(
        dev,
        "rv",
        &a.slice(&s![..;-1, ..;2]).unwrap(),
        &b2.slice(&s![.., ..;-1]).unwrap(),
    );
    group(dev, "ae", &a, &Array::<T, B>::zeros(&[0], dev).unwrap());
    group(dev, "ea", &Array::<T, B>::zeros(&[0, 3], dev).unwrap(), &b);
    let seven = Array::<T, B>::scalar(T::from_scalar(Scalar::I64(7)), dev).unwrap();
    group(dev, "zd", &seven, &b);
    assert_eq!(
        seven.isin(&b, false, false).unwrap().shape(),
        &[] as &[usize]
    );
    group(dev, "same", &b, &b);
    if big {
        group(
            dev,
            "big",
            &fx::<T, B>(dev, "big_x"),
            &fx::<T, B>(dev, "big_y"),
        );
    }
    // assume_unique: unique, unsorted inputs.
    let (x, y) = (fx::<T, B>(dev, "au_x"), fx::<T, B>(dev, "au_y"));
    same(&x.isin(&y, true, false).unwrap(), dev, "au_isin");
    same(&x.intersect1d(&y, true).unwrap(), dev, "au_inter");
    let (v, i1, i2) = x.intersect1d_indices(&y, true).unwrap();
    same(&v, dev, "au_inter");
    same(&i1, dev, "au_inter_i1");
    same(&i2, dev, "au_inter_i2");
    same(&x.setdiff1d(&y, true).unwrap(), dev, "au_diff");
    same(&x.setxor1d(&y, true).unwrap(), dev, "au_xor");
    // assume_unique with repeats: setdiff1d keeps order and repeats, setxor1d drops a
    // repeated value, as NumPy's algorithms do.
    let (x, y) = (fx::<T, B>(dev, "ad_x"), fx::<T, B>(dev, "ad_y"));
    same(&x.setdiff1d(&y, true).unwrap(), dev, "ad_diff");
    same(&x.setxor1d(&y, true).unwrap(), dev, "ad_xor");
}

/// Float groups: NaN, `-0.0`/`0.0`, infinities, a reversed strided view and a transpose.
fn float_groups_for<T: Element, B: ArrayBackend>(dev: &B) {
    let (x, y) = (fx::<T, B>(dev, "f_x"), fx::<T, B>(dev, "f_y"));
    group(dev, "f", &x, &y);
    let nan7 = Array::<T, B>::from_vec(
        vec![
            T::from_scalar(Scalar::F64(f64::NAN)),
            T::from_scalar(Scalar::F64(7.0)),
        ],
        &[2],
        dev,
    )
    .unwrap();
    group(dev, "fn", &x, &nan7);
    group(dev, "fr", &x.slice(&s![..;-2]).unwrap(), &y.t());
}

fn set_ops_every_dtype<B: ArrayBackend>(dev: &B) {
    int_groups_for::<i8, B>(dev, false);
    int_groups_for::<u8, B>(dev, false);
    int_groups_for::<i16, B>(dev, true);
    int_groups_for::<u16, B>(dev, true);
    int_groups_for::<i32, B>(dev, true);
    int_groups_for::<u32, B>(dev, true);
    int_groups_for::<i64, B>(dev, true);
    int_groups_for::<u64, B>(dev, true);
    int_groups_for::<f16, B>(dev, true);
    int_groups_for::<bf16, B>(dev, false);
    int_groups_for::<f32, B>(dev, true);
    int_groups_for::<f64, B>(dev, true);
    int_groups_for::<c64, B>(dev, true);
    int_groups_for::<c128, B>(dev, true);
}

fn set_ops_special_values<B: ArrayBackend>(dev: &B) {
    float_groups_for::<f64, B>(dev);
    float_groups_for::<f32, B>(dev);
    float_groups_for::<f16, B>(dev);
    float_groups_for::<bf16, B>(dev);
    let u8s = (fx::<u8, B>(dev, "uint8_x"), fx::<u8, B>(dev, "uint8_y"));
    group(dev, "uint8", &u8s.0, &u8s.1);
    let u16s = (fx::<u16, B>(dev, "uint16_x"), fx::<u16, B>(dev, "uint16_y"));
    group(dev, "uint16", &u16s.0, &u16s.1);
    let u32s = (fx::<u32, B>(dev, "uint32_x"), fx::<u32, B>(dev, "uint32_y"));
    group(dev, "uint32", &u32s.0, &u32s.1);
    let u64s = (fx::<u64, B>(dev, "uint64_x"), fx::<u64, B>(dev, "uint64_y"));
    group(dev, "uint64", &u64s.0, &u64s.1);
    group(
        dev,
        "neg",
        &fx::<i8, B>(dev, "neg_x"),
        &fx::<i8, B>(dev, "neg_y"),
    );
    group(
        dev,
        "neg",
        &fx::<i64, B>(dev, "neg_x"),
        &fx::<i64, B>(dev, "neg_y"),
    );
    group(
        dev,
        "neg",
        &fx::<f32, B>(dev, "neg_x"),
        &fx::<f32, B>(dev, "neg_y"),
    );
    group(
        dev,
        "c",
        &fx::<c128, B>(dev, "c_x"),
        &fx::<c128, B>(dev, "c_y"),
    );
    group(
        dev,
        "c",
        &fx::<c64, B>(dev, "c_x"),
        &fx::<c64, B>(dev, "c_y"),
    );
    let bools = (fx::<bool, B>(dev, "bool_x"), fx::<bool, B>(dev, "bool_y"));
    group(dev, "bool", &bools.0, &bools.1);
    let bools = (fx::<bool, B>(dev, "bool2_x"), fx::<bool, B>(dev, "bool2_y"));
    group(dev, "bool2", &bools.0, &bools.1);
    // A 0-d test set; both empty.
    let x = fx::<i32, B>(dev, "ab_x");
    let three = Array::<i32, B>::scalar(3, dev).unwrap();
    let want: Vec<bool> = x.to_vec().unwrap().iter().map(|&v| v == 3).collect();
    assert_eq!(
        x.isin(&three, false, false).unwrap().to_vec().unwrap(),
        want
    );
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.setxor1d(&e, false).unwrap().shape(), &[0]);
    assert_eq!(e.setxor1d(&e, true).unwrap().shape(), &[0]);
    assert_eq!(e.union1d(&e).unwrap().shape(), &[0]);
    let (v, i1, i2) = e.intersect1d_indices(&e, true).unwrap();
    assert_eq!(
        (v.shape(), i1.shape(), i2.shape()),
        (&[0][..], &[0][..], &[0][..])
    );
}

/// lexsort fixtures of small integer keys (exact in every numeric type).
fn lexsort_for<T: Element, B: ArrayBackend>(dev: &B) {
    let (k0, k1, k2) = (
        fx::<T, B>(dev, "lk0"),
        fx::<T, B>(dev, "lk1"),
        fx::<T, B>(dev, "lk2"),
    );
    same(&Array::lexsort(&[&k0, &k1, &k2], -1).unwrap(), dev, "lex3");
    same(&Array::lexsort(&[&k2, &k0], 0).unwrap(), dev, "lex2");
    same(&Array::lexsort(&[&k1], -1).unwrap(), dev, "lex1");
    same(&k1.argsort(0).unwrap(), dev, "lex1");
    // The same through argsort_after, one key at a time.
    let step = k1.argsort_after(&k0.argsort(0).unwrap(), 0).unwrap();
    same(&k2.argsort_after(&step, -1).unwrap(), dev, "lex3");
    let (q0, q1) = (fx::<T, B>(dev, "lK0"), fx::<T, B>(dev, "lK1"));
    same(&Array::lexsort(&[&q0, &q1], -1).unwrap(), dev, "lexK_last");
    same(&Array::lexsort(&[&q0, &q1], 0).unwrap(), dev, "lexK_ax0");
    same(
        &Array::lexsort(&[&q0.t(), &q1.t()], 0).unwrap(),
        dev,
        "lexK_T",
    );
    let rev0 = q0.slice(&s![.., ..;-1]).unwrap();
    let rev1 = q1.slice(&s![..;-1, ..]).unwrap();
    same(
        &Array::lexsort(&[&rev0, &rev1], 1).unwrap(),
        dev,
        "lexK_rev",
    );
    let rows: Vec<Array<T, B>> = (0..3).map(|i| q0.slice(&s![i as isize]).unwrap()).collect();
    let refs: Vec<&Array<T, B>> = rows.iter().collect();
    same(&Array::lexsort(&refs, -1).unwrap(), dev, "lexK_rows");
    // Empty lanes and 0-d keys (NumPy gives 0).
    let e = Array::<T, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(Array::lexsort(&[&e, &e], -1).unwrap().shape(), &[2, 0]);
    assert_eq!(Array::lexsort(&[&e], 0).unwrap().shape(), &[2, 0]);
    let s0 = Array::<T, B>::scalar(T::ONE, dev).unwrap();
    for axis in [0, -1] {
        let z = Array::lexsort(&[&s0, &s0], axis).unwrap();
        assert_eq!(z.shape(), &[] as &[usize]);
        assert_eq!(z.item().unwrap(), 0);
    }
}

fn lexsort_every_dtype<B: ArrayBackend>(dev: &B) {
    lexsort_for::<i8, B>(dev);
    lexsort_for::<u8, B>(dev);
    lexsort_for::<i16, B>(dev);
    lexsort_for::<u16, B>(dev);
    lexsort_for::<i32, B>(dev);
    lexsort_for::<u32, B>(dev);
    lexsort_for::<i64, B>(dev);
    lexsort_for::<u64, B>(dev);
    lexsort_for::<f16, B>(dev);
    lexsort_for::<bf16, B>(dev);
    lexsort_for::<f32, B>(dev);
    lexsort_for::<f64, B>(dev);
    lexsort_for::<c64, B>(dev);
    lexsort_for::<c128, B>(dev);
    // NaN keys (last, all equal), -0.0 == 0.0.
    fn floats<T: Element, B: ArrayBackend>(dev: &B) {
        let (k0, k1) = (fx::<T, B>(dev, "lfk0"), fx::<T, B>(dev, "lfk1"));
        same(&Array::lexsort(&[&k0, &k1], -1).unwrap(), dev, "lexf");
    }
    floats::<f64, B>(dev);
    floats::<f32, B>(dev);
    floats::<f16, B>(dev);
    floats::<bf16, B>(dev);
    let (c0, c1) = (fx::<c128, B>(dev, "lck0"), fx::<c128, B>(dev, "lck1"));
    same(&Array::lexsort(&[&c0, &c1], 0).unwrap(), dev, "lexc");
    let (c0, c1) = (fx::<c64, B>(dev, "lck0"), fx::<c64, B>(dev, "lck1"));
    same(&Array::lexsort(&[&c0, &c1], 0).unwrap(), dev, "lexc");
    let (b0, b1) = (fx::<bool, B>(dev, "lbk0"), fx::<bool, B>(dev, "lbk1"));
    same(&Array::lexsort(&[&b0, &b1], -1).unwrap(), dev, "lexb");
    // Keys of different types: f64 then bool (primary).
    let f = fx::<f64, B>(dev, "lfk0").slice(&s![..6]).unwrap();
    let mixed = b1.argsort_after(&f.argsort(-1).unwrap(), 0).unwrap();
    same(&mixed, dev, "lex_mixed");
}

fn lexsort_errors<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::zeros(&[5], dev).unwrap();
    let b = Array::<f64, B>::zeros(&[4], dev).unwrap();
    assert_eq!(
        err_msg(Array::<f64, B>::lexsort(&[], -1)),
        "lexsort: need at least one key, got none"
    );
    assert_eq!(
        err_msg(Array::lexsort(&[&a, &b], -1)),
        "lexsort: shape mismatch: [5] vs [4]"
    );
    assert_eq!(
        err_msg(Array::lexsort(&[&a, &a], 1)),
        "lexsort: axis 1 is out of bounds for an array of dimension 1"
    );
    let m = Array::<f64, B>::zeros(&[5, 1], dev).unwrap();
    assert_eq!(
        err_msg(Array::lexsort(&[&a, &m], 0)),
        "lexsort: shape mismatch: [5] vs [5, 1]"
    );
    let s0 = Array::<f64, B>::scalar(1.0, dev).unwrap();
    assert_eq!(
        err_msg(Array::lexsort(&[&s0], 1)),
        "lexsort: axis 1 is out of bounds for an array of dimension 0"
    );
    let order = a.argsort(0).unwrap();
    assert_eq!(
        err_msg(b.argsort_after(&order, 0)),
        "argsort_after: shape mismatch: [4] vs [5]"
    );
    assert_eq!(
        err_msg(a.argsort_after(&order, -2)),
        "argsort_after: axis -2 is out of bounds for an array of dimension 1"
    );
    let bad = Array::<i64, B>::from_vec(vec![0, 1, 9, 2, 3], &[5], dev).unwrap();
    assert_eq!(
        err_msg(a.argsort_after(&bad, 0)),
        "argsort_after: index 9 is out of bounds for axis 0 with size 5"
    );
    let z = Array::<i64, B>::zeros(&[], dev).unwrap();
    assert!(err_msg(s0.argsort_after(&z, 0)).starts_with("argsort_after: axis 0"));
}

/// sort_complex of small integers (exact everywhere) with NumPy's result type `C`.
fn sort_complex_for<T: Element, C: ComplexElement, B: ArrayBackend>(dev: &B) {
    let x = fx::<T, B>(dev, "sc_in");
    same(&x.sort_complex::<C>().unwrap(), dev, "sc_out");
    same(&x.t().sort_complex::<C>().unwrap(), dev, "sc_T");
    let rev = x.slice(&s![..;-1, ..;-2]).unwrap();
    same(&rev.sort_complex::<C>().unwrap(), dev, "sc_rev");
    let e = Array::<T, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(e.sort_complex::<C>().unwrap().shape(), &[2, 0]);
    let e = Array::<T, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.sort_complex::<C>().unwrap().shape(), &[0]);
    let s0 = Array::<T, B>::scalar(T::ONE, dev).unwrap();
    assert_eq!(
        err_msg(s0.sort_complex::<C>()),
        "sort_complex: axis -1 is out of bounds for an array of dimension 0"
    );
}

fn sort_complex_every_dtype<B: ArrayBackend>(dev: &B) {
    sort_complex_for::<i8, c64, B>(dev);
    sort_complex_for::<u8, c64, B>(dev);
    sort_complex_for::<i16, c64, B>(dev);
    sort_complex_for::<u16, c64, B>(dev);
    sort_complex_for::<i32, c128, B>(dev);
    sort_complex_for::<u32, c128, B>(dev);
    sort_complex_for::<i64, c128, B>(dev);
    sort_complex_for::<u64, c128, B>(dev);
    sort_complex_for::<f16, c128, B>(dev);
    sort_complex_for::<bf16, c128, B>(dev);
    sort_complex_for::<f32, c128, B>(dev);
    sort_complex_for::<f64, c128, B>(dev);
    sort_complex_for::<c64, c64, B>(dev);
    sort_complex_for::<c128, c128, B>(dev);
    // Another complex type than the input's: cast, then sorted in it.
    sort_complex_for::<c128, c64, B>(dev);
    sort_complex_for::<c64, c128, B>(dev);
    // NaN and infinities.
    fn floats<T: Element, B: ArrayBackend>(dev: &B) {
        let x = fx::<T, B>(dev, "sc_f_in");
        same(&x.sort_complex::<c128>().unwrap(), dev, "sc_f");
    }
    floats::<f64, B>(dev);
    floats::<f32, B>(dev);
    floats::<f16, B>(dev);
    floats::<bf16, B>(dev);
    let z = fx::<c128, B>(dev, "sc_c_in");
    same(&z.sort_complex::<c128>().unwrap(), dev, "sc_c");
    let z = fx::<c64, B>(dev, "sc_c_in");
    same(&z.sort_complex::<c64>().unwrap(), dev, "sc_c");
    let b = fx::<bool, B>(dev, "sc_b_in");
    same(&b.sort_complex::<c128>().unwrap(), dev, "sc_b");
}

/// `isin` of integers through both of its methods (a table over a narrow range of test
/// values, sorting and searching over a wide one) against a naive membership test.
fn isin_table_and_sort<B: ArrayBackend>(dev: &B) {
    let vals: Vec<i64> = (-40..60).map(|i| (i * 7919) % 97 - 10).collect();
    let a = Array::<i64, B>::from_vec(vals.clone(), &[10, 10], dev).unwrap();
    for tests in [
        vec![3i64, -10, 3, 50, 0, 86],
        vec![3i64, -10, 1 << 40, 0, -(1 << 50)],
        vec![i64::MIN, i64::MAX, 5],
    ] {
        let t = Array::<i64, B>::from_vec(tests.clone(), &[tests.len()], dev).unwrap();
        let want: Vec<bool> = vals.iter().map(|v| tests.contains(v)).collect();
        let got = a.t().isin(&t, false, false).unwrap();
        assert_eq!(got.shape(), &[10, 10]);
        assert_eq!(got.t().to_contiguous().unwrap().to_vec().unwrap(), want);
        let inv = a.isin(&t, false, true).unwrap().to_vec().unwrap();
        assert!(inv.iter().zip(&want).all(|(x, y)| x != y));
    }
    // u8 values against a table of u8 test values; i8 with negatives.
    let u = Array::<u8, B>::from_vec(vec![0, 7, 255, 9], &[4], dev).unwrap();
    let tu = Array::<u8, B>::from_vec(vec![255, 9, 9], &[3], dev).unwrap();
    assert_eq!(
        u.isin(&tu, false, false).unwrap().to_vec().unwrap(),
        vec![false, false, true, true]
    );
    let i = Array::<i8, B>::from_vec(vec![-128, -1, 127, 0], &[4], dev).unwrap();
    let ti = Array::<i8, B>::from_vec(vec![-1, -128], &[2], dev).unwrap();
    assert_eq!(
        i.isin(&ti, false, false).unwrap().to_vec().unwrap(),
        vec![true, true, false, false]
    );
}

cuprite::test_backends!(
    isin_table_and_sort,
    set_ops_every_dtype,
    set_ops_special_values,
    lexsort_every_dtype,
    lexsort_errors,
    sort_complex_every_dtype
);
