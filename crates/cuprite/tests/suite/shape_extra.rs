//! `block`, `insert`, `delete`, `resize`, `rollaxis`, `diagflat`, `vander` and `geomspace`
//! on every backend against NumPy fixtures (`scripts/fixtures/shape_extra.py`): every dtype
//! family the op accepts, strided/transposed/reversed views, empty and 0-d inputs, NumPy's
//! index rules (negative, clipped slices, one-element lists, stable ordering of equal
//! positions) and every error path with its message.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::Scalar;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "shape_extra", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn sl(start: Option<isize>, stop: Option<isize>, step: isize) -> IndexObj {
    IndexObj::Slice { start, stop, step }
}

/// block, insert, delete, resize and diagflat for one element type: the fixtures hold small
/// integers, exact in every type.
fn shape_ops_for<T: Element, B: ArrayBackend>(dev: &B) {
    let f = |name: &str| fx::<T, B>(dev, name);
    let eq = |got: Result<Array<T, B>>, name: &str| {
        let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_array_equal(&got, &f(name));
    };
    let (a, b, d, v) = (f("a"), f("b"), f("d"), f("v"));
    let s = Array::<T, B>::scalar(T::from_scalar(Scalar::I64(7)), dev).unwrap();
    use Block::{Array as A, List as L};
    eq(
        Array::block(&L(vec![L(vec![A(&a), A(&b)]), L(vec![A(&d)])])),
        "block_2d",
    );
    eq(Array::block(&L(vec![A(&v), A(&s), A(&v)])), "block_1d");
    eq(
        Array::block(&L(vec![L(vec![A(&a), A(&b)]), L(vec![A(&v), A(&v)])])),
        "block_mixed",
    );
    eq(
        Array::block(&L(vec![L(vec![L(vec![A(&v)])]), L(vec![L(vec![A(&v)])])])),
        "block_ndmin",
    );
    eq(Array::block(&A(&a)), "block_single");
    let at = a.t();
    let (at_rev, at_cols) = (
        at.slice(&s![..;-1, ..]).unwrap(),
        at.slice(&s![.., ..2]).unwrap(),
    );
    eq(
        Array::block(&L(vec![L(vec![A(&at_rev), A(&at_cols)])])),
        "block_T",
    );

    eq(a.delete(1, Some(1)), "del_idx_ax1");
    eq(a.delete(-1, Some(0)), "del_neg_ax0");
    eq(a.delete(vec![0, -1, 0], Some(1)), "del_list_ax1");
    eq(a.delete(vec![0, 5, 11], None), "del_flat");
    eq(a.delete(sl(Some(1), None, 2), Some(1)), "del_slice");
    eq(a.delete(sl(None, None, -2), Some(1)), "del_slice_neg");
    eq(a.delete(sl(Some(-10), Some(10), 3), None), "del_slice_clip");
    eq(
        a.delete(sl(Some(3), Some(1), 1), Some(0)),
        "del_slice_empty",
    );
    eq(a.delete(Vec::<isize>::new(), Some(0)), "del_empty_list");
    eq(a.t().delete(vec![1, 2], Some(0)), "del_T");
    eq(
        a.slice(&s![..;-1, ..;2]).unwrap().delete(0, Some(1)),
        "del_rev",
    );

    let (col, row, two, r2) = (f("col"), f("row"), f("two"), f("r2"));
    eq(a.insert(1, &col, Some(1)), "ins_col");
    eq(a.insert(3, &row, Some(0)), "ins_row_end");
    eq(a.insert(-1, &s, Some(1)), "ins_scalar_neg");
    eq(a.insert(vec![1], &two, Some(1)), "ins_list1");
    eq(a.insert(vec![0, 2, 2, 4], &s, Some(1)), "ins_list");
    eq(
        a.insert(vec![4, 0, -1], &row.slice(&s![..3]).unwrap(), None),
        "ins_list_vals",
    );
    let col2 = col.reshape(&[3, 1]).unwrap();
    eq(
        a.insert(sl(Some(0), Some(4), 2), &col2, Some(1)),
        "ins_slice",
    );
    eq(a.insert(5, &s, None), "ins_flat");
    eq(a.insert(0, &r2, Some(0)), "ins_rows");
    eq(a.t().insert(2, &col, Some(0)), "ins_T");
    eq(a.insert(Vec::<isize>::new(), &s, Some(0)), "ins_empty");

    eq(a.resize(&[2, 5]), "resize_2x5");
    eq(a.resize(&[7]), "resize_7");
    eq(
        a.slice(&s![.., ..;-1]).unwrap().resize(&[5, 6]),
        "resize_big",
    );
    eq(a.t().resize(&[2, 2, 2]), "resize_T");

    eq(a.slice(&s![..2, ..2]).unwrap().diagflat(0), "diagflat_0");
    eq(v.diagflat(2), "diagflat_2");
    eq(a.slice(&s![..;-1, 0]).unwrap().diagflat(-1), "diagflat_m1");
}

fn shape_ops_every_dtype<B: ArrayBackend>(dev: &B) {
    shape_ops_for::<f64, B>(dev);
    shape_ops_for::<f32, B>(dev);
    shape_ops_for::<f16, B>(dev);
    shape_ops_for::<bf16, B>(dev);
    shape_ops_for::<i64, B>(dev);
    shape_ops_for::<i32, B>(dev);
    shape_ops_for::<i8, B>(dev);
    shape_ops_for::<c64, B>(dev);
    shape_ops_for::<c128, B>(dev);
    // bool: the delete/insert/resize/block plumbing is the same; checked by value.
    let t = Array::<bool, B>::from_vec(vec![true, false, true], &[3], dev).unwrap();
    let f = Array::<bool, B>::scalar(false, dev).unwrap();
    assert_eq!(
        t.delete(0, None).unwrap().to_vec().unwrap(),
        vec![false, true]
    );
    assert_eq!(
        t.insert(vec![0, 3], &f, None).unwrap().to_vec().unwrap(),
        vec![false, true, false, true, false]
    );
    assert_eq!(
        t.resize(&[5]).unwrap().to_vec().unwrap(),
        vec![true, false, true, true, false]
    );
    let bl = Array::block(&Block::List(vec![Block::Array(&t), Block::Array(&f)])).unwrap();
    assert_eq!(bl.to_vec().unwrap(), vec![true, false, true, false]);
    assert_eq!(t.diagflat(0).unwrap().sum().unwrap().item().unwrap(), 2);
    // Many deletions go through one gather.
    let r = Array::<f64, B>::ramp(40, 0.0, 1.0, dev).unwrap();
    let every3: Vec<isize> = (0..40).step_by(3).collect();
    assert_array_equal(
        &r.delete(every3, None).unwrap(),
        &fx::<f64, B>(dev, "del_many"),
    );
    // Empty and 0-d inputs.
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(
        e.delete(sl(None, None, 1), Some(0)).unwrap().shape(),
        &[0, 3]
    );
    assert_eq!(e.delete(1, Some(1)).unwrap().shape(), &[0, 2]);
    let row = Array::<f64, B>::ones(&[3], dev).unwrap();
    assert_eq!(
        e.insert(0, &row, Some(0)).unwrap().to_vec().unwrap(),
        vec![1.0; 3]
    );
    assert_eq!(e.resize(&[2, 2]).unwrap().to_vec().unwrap(), vec![0.0; 4]);
    assert_eq!(row.resize(&[0, 4]).unwrap().shape(), &[0, 4]);
    let z = Array::<f64, B>::scalar(3.0, dev).unwrap();
    assert_eq!(z.delete(0, None).unwrap().shape(), &[0]);
    assert_eq!(
        z.insert(0, &row, None).unwrap().to_vec().unwrap(),
        vec![1.0, 1.0, 1.0, 3.0]
    );
    assert_eq!(z.resize(&[3]).unwrap().to_vec().unwrap(), vec![3.0; 3]);
    assert_eq!(
        z.diagflat(1).unwrap().to_vec().unwrap(),
        vec![0.0, 3.0, 0.0, 0.0]
    );
    assert_eq!(
        Array::block(&Block::Array(&z)).unwrap().shape(),
        &[] as &[usize]
    );
}

fn rollaxis_cases<B: ArrayBackend>(dev: &B) {
    let a = Array::<i64, B>::ramp(120, 0, 1, dev)
        .unwrap()
        .reshape(&[2, 3, 4, 5])
        .unwrap();
    // Against the permutation NumPy's rollaxis documents, element by element.
    let check = |axis: isize, start: isize, perm: &[isize]| {
        let got = a.rollaxis(axis, start).unwrap();
        assert_array_equal(&got, &a.permute_dims(perm).unwrap());
    };
    check(3, 1, &[0, 3, 1, 2]);
    check(2, 0, &[2, 0, 1, 3]);
    check(1, 4, &[0, 2, 3, 1]);
    check(-1, 0, &[3, 0, 1, 2]);
    check(0, -1, &[1, 2, 0, 3]);
    check(2, 2, &[0, 1, 2, 3]);
    check(2, 3, &[0, 1, 2, 3]);
    check(1, -4, &[1, 0, 2, 3]);
    assert_eq!(a.rollaxis(1, 4).unwrap().shape(), &[2, 4, 5, 3]);
    let m = a.reshape(&[6, 20]).unwrap();
    assert_eq!(
        err_msg(m.rollaxis(0, 5)),
        "rollaxis: 'start' arg requires -2 <= start < 3, but 5 was passed in"
    );
    assert!(err_msg(m.rollaxis(0, -3)).starts_with("rollaxis: 'start' arg requires"));
    assert!(err_msg(m.rollaxis(2, 0)).starts_with("rollaxis: axis 2 is out of bounds"));
    let z = Array::<i64, B>::scalar(1, dev).unwrap();
    assert!(err_msg(z.rollaxis(0, 0)).starts_with("rollaxis: axis 0 is out of bounds"));
}

fn vander_for<T: Numeric, B: ArrayBackend>(dev: &B, tol: f64) {
    let x = fx::<T, B>(dev, "x");
    let close = |got: Result<Array<T, B>>, name: &str| {
        assert_allclose(&got.unwrap(), &fx::<T, B>(dev, name), tol, tol);
    };
    close(x.vander(None, false), "vander");
    close(x.vander(None, true), "vander_inc");
    close(x.vander(Some(3), false), "vander_3");
    close(x.vander(Some(6), true), "vander_6_inc");
    close(
        x.slice(&s![..;-2]).unwrap().vander(None, false),
        "vander_rev",
    );
}

fn vander_cases<B: ArrayBackend>(dev: &B) {
    vander_for::<f64, B>(dev, 0.0);
    vander_for::<f32, B>(dev, 0.0);
    vander_for::<c128, B>(dev, 0.0);
    vander_for::<f16, B>(dev, 0.0);
    let xi = fx::<i64, B>(dev, "xi");
    assert_array_equal(
        &xi.vander(Some(4), false).unwrap(),
        &fx::<i64, B>(dev, "vander_int"),
    );
    let x32 = fx::<i32, B>(dev, "xi");
    assert_array_equal(
        &x32.vander(Some(4), false).unwrap(),
        &fx::<i32, B>(dev, "vander_int"),
    );
    let x = fx::<f64, B>(dev, "x");
    assert_eq!(x.vander(Some(0), false).unwrap().shape(), &[4, 0]);
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.vander(None, false).unwrap().shape(), &[0, 0]);
    assert_eq!(e.vander(Some(3), false).unwrap().shape(), &[0, 3]);
    let m = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    assert_eq!(
        err_msg(m.vander(None, false)),
        "vander: x must be a one-dimensional array or sequence, got shape [2, 2]"
    );
    let z = Array::<f64, B>::scalar(1.0, dev).unwrap();
    assert!(err_msg(z.vander(None, false)).starts_with("vander: x must be"));
    assert!(err_msg(x.vander(Some(usize::MAX), false)).contains("vander"));
}

fn geomspace_cases<B: ArrayBackend>(dev: &B) {
    let real = |lo: f64, hi: f64, num: usize, endpoint: bool, name: &str| {
        let got = Array::<f64, B>::geomspace(lo, hi, num, endpoint, dev).unwrap();
        assert_allclose(&got, &fx::<f64, B>(dev, name), 1e-15, 0.0);
        let got32 = Array::<f32, B>::geomspace(lo as f32, hi as f32, num, endpoint, dev).unwrap();
        assert_allclose(&got32, &fx::<f32, B>(dev, name), 1e-7, 0.0);
        let v = got.to_vec().unwrap();
        if num > 0 {
            assert_eq!(v[0], lo, "{name}: the first value is start exactly");
        }
        if num > 1 && endpoint {
            assert_eq!(v[num - 1], hi, "{name}: the last value is stop exactly");
        }
    };
    real(1.0, 1000.0, 4, true, "geom_1_1000");
    real(1.0, 1000.0, 3, false, "geom_noend");
    real(-1000.0, -1.0, 5, true, "geom_neg");
    real(0.5, 20.0, 7, true, "geom_frac");
    real(1e6, 3.0, 6, true, "geom_down");
    real(5.0, 9.0, 1, true, "geom_one");
    real(5.0, 9.0, 0, true, "geom_empty");
    real(-1.0, 8.0, 3, true, "geom_signs");
    let h = Array::<f16, B>::geomspace(f16::from_f64(1.0), f16::from_f64(1000.0), 4, true, dev)
        .unwrap();
    assert_allclose(&h, &fx::<f16, B>(dev, "geom_1_1000"), 1e-3, 0.0);
    let cx = |lo: c128, hi: c128, num: usize, endpoint: bool, name: &str| {
        let got = Array::<c128, B>::geomspace(lo, hi, num, endpoint, dev).unwrap();
        assert_allclose(&got, &fx::<c128, B>(dev, name), 1e-13, 1e-13);
        let got = Array::<c64, B>::geomspace(
            c64::new(lo.re as f32, lo.im as f32),
            c64::new(hi.re as f32, hi.im as f32),
            num,
            endpoint,
            dev,
        )
        .unwrap();
        assert_allclose(&got, &fx::<c64, B>(dev, name), 1e-6, 1e-6);
    };
    cx(
        c128::new(0.0, 1.0),
        c128::new(0.0, 1000.0),
        4,
        true,
        "geom_c",
    );
    cx(
        c128::new(-1.0, 0.0),
        c128::new(1.0, 0.0),
        5,
        true,
        "geom_c2",
    );
    cx(
        c128::new(1.0, 1.0),
        c128::new(1000.0, 1000.0),
        4,
        false,
        "geom_c3",
    );
    for (lo, hi) in [(0.0, 1.0), (1.0, 0.0), (-0.0, 5.0)] {
        assert_eq!(
            err_msg(Array::<f64, B>::geomspace(lo, hi, 3, true, dev)),
            "geomspace: Geometric sequence cannot include zero"
        );
    }
    assert!(err_msg(Array::<c64, B>::geomspace(
        c64::new(0.0, 0.0),
        c64::new(1.0, 0.0),
        3,
        true,
        dev
    ))
    .starts_with("geomspace: Geometric"));
    let nan = Array::<f64, B>::geomspace(f64::NAN, 2.0, 3, true, dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(nan.iter().all(|v| v.is_nan()), "{nan:?}");
}

fn shape_errors<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "a");
    let v = fx::<f64, B>(dev, "v");
    use Block::{Array as A, List as L};
    assert_eq!(
        err_msg(Array::block(&L(vec![L(vec![A(&a)]), A(&a)]))),
        "block: List depths are mismatched. First element was at depth 2, but there is an \
         element at depth 1 (arrays[1])"
    );
    assert_eq!(
        err_msg(Array::block(&L(vec![L(vec![A(&a)]), L(vec![])]))),
        "block: List at arrays[1] cannot be empty"
    );
    assert_eq!(
        err_msg(Array::<f64, B>::block(&L(vec![]))),
        "block: List at arrays cannot be empty"
    );
    assert_eq!(
        err_msg(Array::block(&L(vec![L(vec![]), A(&a)]))),
        "block: List depths are mismatched. First element was at depth 2, but there is an \
         element at depth 1 (arrays[1])"
    );
    let a2 = a.slice(&s![..2, ..]).unwrap();
    assert_eq!(
        err_msg(Array::block(&L(vec![L(vec![A(&a), A(&a2)])]))),
        "block: all the input array dimensions except for the concatenation axis must match \
         exactly, but along dimension 0, the array at index 0 has size 3 and the array at index \
         1 has size 2 (shapes [3, 4] and [2, 4])"
    );
    assert!(err_msg(Array::block(&L(vec![A(&v), A(&a)]))).starts_with("block: all the input"));

    assert_eq!(
        err_msg(a.delete(7, Some(1))),
        "delete: index 7 is out of bounds for axis 1 with size 4"
    );
    assert_eq!(
        err_msg(a.delete(-4, Some(0))),
        "delete: index -4 is out of bounds for axis 0 with size 3"
    );
    assert_eq!(
        err_msg(a.delete(vec![0, 12], None)),
        "delete: index 12 is out of bounds for axis 0 with size 12"
    );
    assert_eq!(
        err_msg(a.delete(sl(None, None, 0), Some(0))),
        "delete: slice step cannot be zero"
    );
    assert!(err_msg(a.delete(0, Some(2))).starts_with("delete: axis 2 is out of bounds"));
    let s = Array::<f64, B>::scalar(0.0, dev).unwrap();
    assert!(err_msg(s.delete(0, Some(0))).starts_with("delete: axis 0 is out of bounds"));

    assert_eq!(
        err_msg(a.insert(5, &s, Some(1))),
        "insert: index 5 is out of bounds for axis 1 with size 4"
    );
    assert_eq!(
        err_msg(a.insert(-4, &s, Some(0))),
        "insert: index -4 is out of bounds for axis 0 with size 3"
    );
    assert_eq!(
        err_msg(a.insert(vec![5], &s, Some(1))),
        "insert: index [5] is out of bounds for axis 1 with size 4"
    );
    assert_eq!(
        err_msg(a.insert(vec![5, 0], &s, Some(1))),
        "insert: index 6 is out of bounds for axis 1 with size 6"
    );
    assert!(
        err_msg(a.insert(vec![-9, 0], &s, Some(1))).starts_with("insert: the positions [-9, 0]")
    );
    let five = Array::<f64, B>::ones(&[5], dev).unwrap();
    assert_eq!(
        err_msg(a.insert(1, &five, Some(1))),
        "insert: could not broadcast input array from shape [5, 1] into shape [3, 1]"
    );
    assert!(
        err_msg(a.insert(vec![0, 1], &five, Some(0))).starts_with("insert: could not broadcast")
    );
    assert_eq!(
        err_msg(a.insert(sl(None, None, 0), &s, None)),
        "insert: slice step cannot be zero"
    );
    assert!(err_msg(a.insert(0, &s, Some(-3))).starts_with("insert: axis -3 is out of bounds"));

    assert!(err_msg(a.resize(&[usize::MAX, 2])).contains("resize"));
    assert!(err_msg(a.diagflat(isize::MIN)).contains("diagflat"));
}

cuprite::test_backends!(
    shape_ops_every_dtype,
    rollaxis_cases,
    vander_cases,
    geomspace_cases,
    shape_errors
);
