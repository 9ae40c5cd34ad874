//! Index helpers on every backend: `unravel_index` and `ravel_multi_index` (index dtypes
//! i64/i32/u8/u64, modes raise/wrap/clip, broadcasting, transposed and reversed views, 0-d
//! and empty inputs), `indices` and `indices_sparse`, `ix_`, the diagonal and triangle
//! indices (`diag_indices(_from)`, `tril_indices`/`triu_indices(_from)`, `mask_indices` with
//! closures over `triu`/`tril`) and `fill_diagonal` (tall with and without wrap, wide, cube,
//! through a reversed transposed view, every dtype family), against NumPy fixtures
//! (`scripts/fixtures/index_helpers.py`), with every error path.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_array_equal, assert_array_equal_vec};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "index_helpers", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Compares `got` with the fixture arrays `name_0`, `name_1`, ...
fn eq_list<B: ArrayBackend>(dev: &B, got: Result<Vec<Array<i64, B>>>, name: &str, n: usize) {
    let got = got.unwrap();
    assert_eq!(got.len(), n, "{name}: number of arrays");
    for (k, g) in got.iter().enumerate() {
        assert_array_equal(g, &fx::<i64, B>(dev, &format!("{name}_{k}")));
    }
}

/// Compares a (rows, cols) pair with the rows of the `[2, count]` fixture `name`.
fn eq_pair<B: ArrayBackend>(dev: &B, got: Result<(Array<i64, B>, Array<i64, B>)>, name: &str) {
    let (i, j) = got.unwrap();
    let e = fx::<i64, B>(dev, name);
    assert_array_equal(&i, &e.slice(&s![0, ..]).unwrap());
    assert_array_equal(&j, &e.slice(&s![1, ..]).unwrap());
}

fn unravel_for<I: Integer, B: ArrayBackend>(dev: &B) {
    let ui = fx::<I, B>(dev, "ui");
    eq_list(dev, ui.unravel_index(&[3, 4, 5]), "unravel", 3);
    let view = ui.t().slice(&s![..;-1, ..;2]).unwrap();
    eq_list(dev, view.unravel_index(&[3, 4, 5]), "unravel_view", 3);
    eq_list(dev, ui.unravel_index(&[60]), "unravel_1dim", 1);
}

fn unravel_every_index_type<B: ArrayBackend>(dev: &B) {
    unravel_for::<i64, B>(dev);
    unravel_for::<i32, B>(dev);
    unravel_for::<u8, B>(dev);
    unravel_for::<u64, B>(dev);
    // 0-d index, 0-d shape, empty indices.
    let s = Array::<i64, B>::scalar(37, dev).unwrap();
    eq_list(dev, s.unravel_index(&[7, 6]), "unravel_0d", 2);
    let zero = Array::<i64, B>::scalar(0, dev).unwrap();
    assert!(zero.unravel_index(&[]).unwrap().is_empty());
    let e = Array::<i32, B>::zeros(&[0, 2], dev).unwrap();
    for (shape, n) in [(&[3usize, 4][..], 2), (&[2, 0][..], 2), (&[0][..], 1)] {
        let out = e.unravel_index(shape).unwrap();
        assert_eq!(out.len(), n);
        assert!(out.iter().all(|o| o.shape() == [0, 2]));
    }
}

fn unravel_errors<B: ArrayBackend>(dev: &B) {
    let i = Array::<i64, B>::from_vec(vec![3, 59, -5, 70], &[2, 2], dev).unwrap();
    // The first bad index in C order, negative ones included (NumPy refuses them).
    assert_eq!(
        err_msg(i.unravel_index(&[3, 4, 5])),
        "unravel_index: index -5 is out of bounds for axis 0 with size 60"
    );
    let j = Array::<i32, B>::from_vec(vec![3, 60], &[2], dev).unwrap();
    assert_eq!(
        err_msg(j.unravel_index(&[3, 4, 5])),
        "unravel_index: index 60 is out of bounds for axis 0 with size 60"
    );
    let m = Array::<i64, B>::from_vec(vec![i64::MIN, 0], &[2], dev).unwrap();
    assert!(err_msg(m.unravel_index(&[4])).starts_with("unravel_index: index -9223372036"));
    let one = Array::<i64, B>::scalar(1, dev).unwrap();
    assert_eq!(
        err_msg(one.unravel_index(&[])),
        "unravel_index: index 1 is out of bounds for axis 0 with size 1"
    );
    assert_eq!(
        err_msg(
            Array::<i64, B>::scalar(0, dev)
                .unwrap()
                .unravel_index(&[2, 0])
        ),
        "unravel_index: index 0 is out of bounds for axis 0 with size 0"
    );
    assert!(err_msg(one.unravel_index(&[1 << 40, 1 << 40]))
        .starts_with("unravel_index: the array size defined by dims"));
}

fn ravel_for<I: Integer, B: ArrayBackend>(dev: &B) {
    let i = |name: &str| fx::<I, B>(dev, name);
    let (ri, rj) = (i("ri"), i("rj"));
    assert_array_equal(
        &Array::ravel_multi_index(&[&ri, &rj], &[3, 5], IndexMode::Raise).unwrap(),
        &fx::<i64, B>(dev, "ravel_raise"),
    );
    let a3 = i("a3");
    let rows = [
        a3.slice(&s![0, ..]).unwrap(),
        a3.slice(&s![1, ..;-1]).unwrap(),
        a3.slice(&s![2, ..]).unwrap(),
    ];
    for mode in [IndexMode::Raise, IndexMode::Wrap, IndexMode::Clip] {
        assert_array_equal(
            &Array::ravel_multi_index(&[&rows[0], &rows[1], &rows[2]], &[4, 4, 4], mode).unwrap(),
            &fx::<i64, B>(dev, "ravel_three"),
        );
    }
    let t = a3.t();
    let (tr, tc) = (t.slice(&s![..;-1]).unwrap(), t.slice(&s![.., ..1]).unwrap());
    assert_array_equal(
        &Array::ravel_multi_index(&[&t, &tr, &tc], &[4, 4, 4], IndexMode::Raise).unwrap(),
        &fx::<i64, B>(dev, "ravel_3T"),
    );
}

fn ravel_multi_index_modes<B: ArrayBackend>(dev: &B) {
    ravel_for::<i64, B>(dev);
    ravel_for::<i32, B>(dev);
    ravel_for::<u8, B>(dev);
    // Out-of-range and negative indices: wrap and clip (signed index types).
    for_signed::<i64, B>(dev);
    for_signed::<i32, B>(dev);
    // 0-d arrays give a 0-d index; empty arrays an empty one, even into a zero-sized shape.
    let (a, b) = (
        Array::<i64, B>::scalar(1, dev).unwrap(),
        Array::<i64, B>::scalar(2, dev).unwrap(),
    );
    assert_array_equal_vec(
        &Array::ravel_multi_index(&[&a, &b], &[2, 3], IndexMode::Raise).unwrap(),
        &[5],
        &[],
    );
    let e = Array::<i64, B>::zeros(&[0], dev).unwrap();
    for mode in [IndexMode::Raise, IndexMode::Wrap, IndexMode::Clip] {
        let out = Array::ravel_multi_index(&[&e, &a], &[2, 0], mode).unwrap();
        assert_eq!(out.shape(), &[0]);
    }
}

fn for_signed<I: Integer, B: ArrayBackend>(dev: &B) {
    let (mi, mj) = (fx::<I, B>(dev, "mi"), fx::<I, B>(dev, "mj"));
    assert_array_equal(
        &Array::ravel_multi_index(&[&mi, &mj], &[3, 5], IndexMode::Wrap).unwrap(),
        &fx::<i64, B>(dev, "ravel_wrap"),
    );
    assert_array_equal(
        &Array::ravel_multi_index(&[&mi, &mj], &[3, 5], IndexMode::Clip).unwrap(),
        &fx::<i64, B>(dev, "ravel_clip"),
    );
}

fn fortran_order<B: ArrayBackend>(dev: &B) {
    let ui = fx::<i64, B>(dev, "ui");
    eq_list(dev, ui.unravel_index_f(&[3, 4, 5]), "unravel_f", 3);
    let (mi, mj) = (fx::<i64, B>(dev, "mi"), fx::<i64, B>(dev, "mj"));
    assert_array_equal(
        &Array::ravel_multi_index_f(&[&mi, &mj], &[3, 5], IndexMode::Wrap).unwrap(),
        &fx::<i64, B>(dev, "ravel_f_wrap"),
    );
    let (ri, rj) = (fx::<u8, B>(dev, "ri"), fx::<u8, B>(dev, "rj"));
    assert_array_equal(
        &Array::ravel_multi_index_f(&[&ri, &rj], &[3, 5], IndexMode::Raise).unwrap(),
        &fx::<i64, B>(dev, "ravel_f_raise"),
    );
    // Round trip, and an out-of-range index named on the caller's axis.
    let back = Array::ravel_multi_index_f(
        &ui.unravel_index_f(&[3, 4, 5])
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        &[3, 4, 5],
        IndexMode::Raise,
    )
    .unwrap();
    assert_array_equal(&back, &ui);
    let v = |d: Vec<i64>| Array::<i64, B>::from_vec(d.clone(), &[d.len()], dev).unwrap();
    assert_eq!(
        err_msg(Array::ravel_multi_index_f(
            &[&v(vec![0, 1]), &v(vec![0, 2])],
            &[3, 2],
            IndexMode::Raise
        )),
        "ravel_multi_index: index 2 is out of bounds for axis 1 with size 2"
    );
}

fn ravel_errors<B: ArrayBackend>(dev: &B) {
    let v = |d: Vec<i64>| Array::<i64, B>::from_vec(d.clone(), &[d.len()], dev).unwrap();
    let (i, j) = (v(vec![0, 2, 3]), v(vec![0, 0, 0]));
    assert_eq!(
        err_msg(Array::ravel_multi_index(
            &[&i, &j],
            &[3, 2],
            IndexMode::Raise
        )),
        "ravel_multi_index: index 3 is out of bounds for axis 0 with size 3"
    );
    let (i, j) = (v(vec![0, 1, 2]), v(vec![1, -1, 0]));
    assert_eq!(
        err_msg(Array::ravel_multi_index(
            &[&i, &j],
            &[3, 2],
            IndexMode::Raise
        )),
        "ravel_multi_index: index -1 is out of bounds for axis 1 with size 2"
    );
    let (mi, mj) = (fx::<i64, B>(dev, "mi"), fx::<i64, B>(dev, "mj"));
    assert!(err_msg(Array::ravel_multi_index(
        &[&mi, &mj],
        &[3, 5],
        IndexMode::Raise
    ))
    .starts_with("ravel_multi_index: index "));
    assert!(
        err_msg(Array::ravel_multi_index(&[&i], &[3, 2], IndexMode::Wrap))
            .starts_with("ravel_multi_index: parameter multi_index must be a sequence of length 2")
    );
    assert!(err_msg(Array::<i64, B>::ravel_multi_index(
        &[],
        &[],
        IndexMode::Wrap
    ))
    .starts_with("ravel_multi_index: at least one index array"));
    assert!(err_msg(Array::ravel_multi_index(
        &[&i, &j],
        &[1 << 40, 1 << 40],
        IndexMode::Clip
    ))
    .starts_with("ravel_multi_index: the array size defined by dims"));
    assert!(err_msg(Array::ravel_multi_index(
        &[&i, &j],
        &[3, 0],
        IndexMode::Clip
    ))
    .starts_with("ravel_multi_index: cannot ravel an index into dims [3, 0]"));
    let two = v(vec![0, 1]);
    assert_eq!(
        err_msg(Array::ravel_multi_index(
            &[&i, &two],
            &[3, 2],
            IndexMode::Clip
        )),
        "ravel_multi_index: operands could not be broadcast together with shapes [3] and [2]"
    );
}

fn index_grids<B: ArrayBackend>(dev: &B) {
    let g = Array::<i64, B>::indices(&[2, 3, 4], dev).unwrap();
    assert_array_equal(&g, &fx::<i64, B>(dev, "indices_234"));
    let sparse = Array::<i64, B>::indices_sparse(&[2, 3, 4], dev).unwrap();
    assert_eq!(sparse[1].shape(), &[1, 3, 1]);
    for (k, sp) in sparse.iter().enumerate() {
        assert_array_equal(
            &sp.broadcast_to(&[2, 3, 4]).unwrap(),
            &g.slice(&s![k as isize, .., .., ..]).unwrap(),
        );
    }
    assert_array_equal(
        &Array::<i64, B>::indices(&[3, 0], dev).unwrap(),
        &fx::<i64, B>(dev, "indices_30"),
    );
    assert_array_equal(
        &Array::<i64, B>::indices(&[5], dev).unwrap(),
        &fx::<i64, B>(dev, "indices_5"),
    );
    assert_eq!(Array::<i64, B>::indices(&[], dev).unwrap().shape(), &[0]);
    assert!(Array::<i64, B>::indices_sparse(&[], dev)
        .unwrap()
        .is_empty());
    assert!(
        err_msg(Array::<i64, B>::indices(&[1 << 31, 1 << 31, 4], dev)).starts_with("indices: ")
    );
    // ix_ picks the rows and columns given (also through a reversed view).
    let m = fx::<i64, B>(dev, "m");
    let (rows, cols) = (fx::<i64, B>(dev, "ix_rows"), fx::<i64, B>(dev, "ix_cols"));
    let ix = Array::ix_(&[&rows, &cols]).unwrap();
    assert_eq!((ix[0].shape(), ix[1].shape()), (&[3, 1][..], &[1, 2][..]));
    assert_array_equal(
        &m.index_arrays(&[&ix[0], &ix[1]]).unwrap(),
        &fx::<i64, B>(dev, "ix_pick"),
    );
    let rr = rows.slice(&s![..;-1]).unwrap();
    let ix = Array::ix_(&[&rr, &cols]).unwrap();
    assert_array_equal(
        &m.index_arrays(&[&ix[0], &ix[1]]).unwrap(),
        &fx::<i64, B>(dev, "ix_pick_rev"),
    );
}

/// `ix_` for one numeric type: reshaped views holding the inputs' elements.
fn ix_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    let m = fx::<T, B>(dev, "m");
    let a = m.slice(&s![1, ..;-2]).unwrap();
    let b = m.slice(&s![.., 4]).unwrap();
    let e = Array::<T, B>::zeros(&[0], dev).unwrap();
    let ix = Array::ix_(&[&a, &e, &b]).unwrap();
    assert_array_equal(&ix[0], &a.reshape(&[3, 1, 1]).unwrap());
    assert_eq!(ix[1].shape(), &[1, 0, 1]);
    assert_array_equal(&ix[2], &b.reshape(&[1, 1, 5]).unwrap());
    assert!(Array::<T, B>::ix_(&[]).unwrap().is_empty());
    assert_eq!(
        err_msg(Array::ix_(&[&a, &m])),
        "ix_: cross index must be 1 dimensional, got input 1 of shape [5, 6]"
    );
    let s = Array::<T, B>::zeros(&[], dev).unwrap();
    assert!(err_msg(Array::ix_(&[&s])).starts_with("ix_: cross index must be 1 dimensional"));
}

fn ix_every_dtype<B: ArrayBackend>(dev: &B) {
    ix_for::<f64, B>(dev);
    ix_for::<f16, B>(dev);
    ix_for::<i32, B>(dev);
    ix_for::<u8, B>(dev);
    ix_for::<c64, B>(dev);
}

/// Triangles and diagonals from an array of one element type.
fn triangles_for<T: Element, B: ArrayBackend>(dev: &B) {
    let rect = Array::<T, B>::zeros(&[3, 5], dev).unwrap();
    eq_pair(dev, rect.tril_indices_from(1), "tril_from_3x5_1");
    eq_pair(dev, rect.t().triu_indices_from(0), "triu_from_5x3_0");
    let cube = Array::<T, B>::zeros(&[3, 3, 3], dev).unwrap();
    let d = cube.diag_indices_from().unwrap();
    assert_eq!(d.len(), 3);
    for a in &d {
        assert_array_equal_vec(a, &[0, 1, 2], &[3]);
    }
    let e = Array::<T, B>::zeros(&[0, 0], dev).unwrap();
    assert!(e
        .diag_indices_from()
        .unwrap()
        .iter()
        .all(|a| a.shape() == [0]));
    let (i, j) = e.tril_indices_from(0).unwrap();
    assert_eq!((i.shape(), j.shape()), (&[0][..], &[0][..]));
    // Errors: the wrong number of dimensions, unequal lengths.
    let line = Array::<T, B>::zeros(&[3], dev).unwrap();
    assert_eq!(
        err_msg(line.diag_indices_from()),
        "diag_indices_from: input array must be at least 2-d, got shape [3]"
    );
    let uneven = Array::<T, B>::zeros(&[3, 3, 2], dev).unwrap();
    assert_eq!(
        err_msg(uneven.diag_indices_from()),
        "diag_indices_from: all dimensions of input must be of equal length, got shape [3, 3, 2]"
    );
    assert_eq!(
        err_msg(line.tril_indices_from(0)),
        "tril_indices_from: input array must be 2-d, got shape [3]"
    );
    assert_eq!(
        err_msg(cube.triu_indices_from(0)),
        "triu_indices_from: input array must be 2-d, got shape [3, 3, 3]"
    );
}

fn diagonals_and_triangles<B: ArrayBackend>(dev: &B) {
    triangles_for::<f64, B>(dev);
    triangles_for::<bool, B>(dev);
    triangles_for::<u8, B>(dev);
    triangles_for::<c128, B>(dev);
    type A<B> = Array<i64, B>;
    eq_pair(dev, A::<B>::tril_indices(4, 0, None, dev), "tril_4");
    eq_pair(
        dev,
        A::<B>::tril_indices(4, -1, Some(6), dev),
        "tril_4_m1_6",
    );
    eq_pair(dev, A::<B>::triu_indices(4, 2, Some(3), dev), "triu_4_2_3");
    eq_pair(dev, A::<B>::triu_indices(3, -1, None, dev), "triu_3_m1");
    eq_pair(dev, A::<B>::triu_indices(5, 9, None, dev), "triu_5_9");
    let (i, j) = A::<B>::tril_indices(0, 0, None, dev).unwrap();
    assert_eq!((i.size(), j.size()), (0, 0));
    eq_pair(
        dev,
        A::<B>::mask_indices(4, |a, k| a.triu(k), 1, dev),
        "mask_triu_4_1",
    );
    eq_pair(
        dev,
        A::<B>::mask_indices(4, |a, k| a.tril(k), -1, dev),
        "mask_tril_4_m1",
    );
    // The diagonal indices read the diagonal.
    let d = A::<B>::diag_indices(4, 2, dev).unwrap();
    assert_eq!(d.len(), 2);
    let m = A::<B>::ramp(16, 0, 1, dev)
        .unwrap()
        .reshape(&[4, 4])
        .unwrap();
    assert_array_equal_vec(
        &m.index_arrays(&[&d[0], &d[1]]).unwrap(),
        &[0, 5, 10, 15],
        &[4],
    );
    assert!(A::<B>::diag_indices(3, 0, dev).unwrap().is_empty());
    // mask_indices: the function's shape and its errors.
    assert_eq!(
        err_msg(A::<B>::mask_indices(
            4,
            |a, _| a.slice(&s![..2, ..]),
            0,
            dev
        )),
        "mask_indices: shape mismatch: [4, 4] vs [2, 4]"
    );
    assert!(
        err_msg(A::<B>::mask_indices(3, |a, _| a.reshape(&[4]), 0, dev)).starts_with("reshape")
    );
}

/// Every `fill_diagonal` fixture for one element type.
fn fill_for<T: Element, B: ArrayBackend>(dev: &B) {
    let vals = fx::<T, B>(dev, "fd_vals");
    for wrap in [false, true] {
        let mut a = fx::<T, B>(dev, "fd_tall");
        a.fill_diagonal(&vals, wrap).unwrap();
        assert_array_equal(&a, &fx::<T, B>(dev, &format!("fd_tall_wrap{}", wrap as u8)));
    }
    let mut w = fx::<T, B>(dev, "fd_wide");
    let nine = Array::<T, B>::scalar(T::from_scalar(cuprite::Scalar::I64(9)), dev).unwrap();
    w.fill_diagonal(&nine, false).unwrap();
    assert_array_equal(&w, &fx::<T, B>(dev, "fd_wide_9"));
    let mut c = fx::<T, B>(dev, "fd_cube");
    c.fill_diagonal(&vals, false).unwrap();
    assert_array_equal(&c, &fx::<T, B>(dev, "fd_cube_vals"));
    // Through a reversed transposed view; the array it was taken from is left unchanged.
    let src = fx::<T, B>(dev, "fd_view_src");
    let mut view = src.slice(&s![..;-1]).unwrap().t();
    view.fill_diagonal(&vals, true).unwrap();
    assert_array_equal(&view, &fx::<T, B>(dev, "fd_view_wrap"));
    assert_array_equal(&src, &fx::<T, B>(dev, "fd_view_src"));
    // An empty value writes nothing (as NumPy); empty matrices have no diagonal.
    let mut a = fx::<T, B>(dev, "fd_tall");
    a.fill_diagonal(&Array::zeros(&[0], dev).unwrap(), true)
        .unwrap();
    assert_array_equal(&a, &fx::<T, B>(dev, "fd_tall"));
    for shape in [[0usize, 0], [0, 3], [3, 0]] {
        let mut e = Array::<T, B>::zeros(&shape, dev).unwrap();
        e.fill_diagonal(&nine, true).unwrap();
        assert_eq!(e.shape(), &shape);
    }
}

fn fill_diagonal_every_dtype<B: ArrayBackend>(dev: &B) {
    fill_for::<f64, B>(dev);
    fill_for::<f32, B>(dev);
    fill_for::<f16, B>(dev);
    fill_for::<i64, B>(dev);
    fill_for::<i32, B>(dev);
    fill_for::<u8, B>(dev);
    fill_for::<u64, B>(dev);
    fill_for::<bool, B>(dev);
    fill_for::<c64, B>(dev);
    fill_for::<c128, B>(dev);
}

fn fill_diagonal_errors<B: ArrayBackend>(dev: &B) {
    let one = Array::<f64, B>::scalar(1.0, dev).unwrap();
    let mut line = Array::<f64, B>::zeros(&[3], dev).unwrap();
    assert_eq!(
        err_msg(line.fill_diagonal(&one, false)),
        "fill_diagonal: array must be at least 2-d, got shape [3]"
    );
    let mut s = Array::<f64, B>::zeros(&[], dev).unwrap();
    assert!(err_msg(s.fill_diagonal(&one, false)).starts_with("fill_diagonal: array must be"));
    let mut uneven = Array::<f64, B>::zeros(&[3, 3, 2], dev).unwrap();
    assert_eq!(
        err_msg(uneven.fill_diagonal(&one, false)),
        "fill_diagonal: all dimensions of input must be of equal length, got shape [3, 3, 2]"
    );
    // A broadcast view is read-only, whatever the value.
    let mut b = Array::<f64, B>::zeros(&[1, 3], dev)
        .unwrap()
        .broadcast_to(&[3, 3])
        .unwrap();
    let empty = Array::<f64, B>::zeros(&[0], dev).unwrap();
    for v in [&one, &empty] {
        assert!(err_msg(b.fill_diagonal(v, false)).starts_with("fill_diagonal: destination"));
    }
}

cuprite::test_backends!(
    unravel_every_index_type,
    unravel_errors,
    ravel_multi_index_modes,
    fortran_order,
    ravel_errors,
    index_grids,
    ix_every_dtype,
    diagonals_and_triangles,
    fill_diagonal_every_dtype,
    fill_diagonal_errors
);
