//! Integer-array indexing on every backend: take, index_select, take_along_axis, advanced
//! indexing with index arrays, put and put_along_axis, compared with NumPy fixtures
//! (`scripts/fixtures/manip.py`) for every dtype family, index dtypes i64/i32/u8, strided,
//! transposed and broadcast inputs, and the error cases.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_array_equal, assert_array_equal_vec};
use cuprite::Scalar;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "manip", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Every gather fixture for one element type.
fn gathers_for<T: Element, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    let i = |name: &str| fx::<i64, B>(dev, name);
    eq(a.take(&i("take_flat_idx"), None), "take_flat");
    eq(a.take(&i("take_ax1_idx"), Some(1)), "take_ax1");
    eq(a.index_select(-1, &i("take_axm1_idx")), "take_axm1");
    let at = a.permute_dims(&[2, 0, 1]).unwrap();
    eq(
        at.slice(&s![..;-1])
            .unwrap()
            .take(&i("take_axm1_idx"), Some(0)),
        "take_t_ax0",
    );
    let idx = Array::<i32, B>::from_vec(vec![1, 0, -1], &[3], dev).unwrap();
    eq(
        at.slice(&s![.., .., ..;-2]).unwrap().take(&idx, Some(2)),
        "take_t_ax2",
    );
    eq(a.take_along_axis(&i("tal_idx"), 1), "tal_1");
    eq(a.take_along_axis(&i("tal2_idx"), -1), "tal2_m1");
    eq(a.index_arrays(&[&i("adv_i"), &i("adv_j")]), "adv_ij");
    eq(
        a.index_arrays(&[&i("adv_i"), &i("adv_j"), &i("adv_k")]),
        "adv_ijk",
    );
    eq(
        a.permute_dims(&[2, 1, 0])
            .unwrap()
            .index_arrays(&[&i("adv_i"), &i("adv_j")]),
        "adv_t_ij",
    );
    let j01 = Array::<u8, B>::from_vec(vec![0, 0, 1], &[3, 1], dev).unwrap();
    eq(a.index_arrays(&[&j01]), "adv_i_only");
    // Large gathers (parallel paths), strided and transposed sources.
    let big = fx::<T, B>(dev, "big");
    let bi = i("big_take_idx");
    eq(big.take(&bi, Some(1)), "big_take_ax1");
    let b70 = bi
        .slice(&s![..70])
        .unwrap()
        .scalar_op(cuprite::ops::FloorDiv, 10)
        .unwrap();
    eq(
        big.t().slice(&s![..;-1]).unwrap().take(&b70, Some(1)),
        "big_take_t",
    );
    eq(big.take_along_axis(&i("big_tal_idx"), 0), "big_tal_0");
}

fn gathers_every_dtype<B: ArrayBackend>(dev: &B) {
    gathers_for::<f64, B>(dev);
    gathers_for::<f32, B>(dev);
    gathers_for::<i64, B>(dev);
    gathers_for::<i32, B>(dev);
    gathers_for::<u8, B>(dev);
    gathers_for::<bool, B>(dev);
    gathers_for::<c64, B>(dev);
    gathers_for::<c128, B>(dev);
}

/// Every scatter fixture for one element type.
fn scatters_for<T: Element, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let i = |name: &str| fx::<i64, B>(dev, name);
    let mut p = a.clone();
    p.put(&i("put_idx"), &fx::<T, B>(dev, "put_vals")).unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "put_res"));
    assert_array_equal(&a, &fx::<T, B>(dev, "a")); // the original is untouched
                                                   // put on a transposed view: flat indices follow the view's C order.
    let mut p = a.permute_dims(&[2, 1, 0]).unwrap();
    let idx32 = i("put_idx").astype::<i32>().unwrap();
    p.put(&idx32, &fx::<T, B>(dev, "put_vals")).unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "put_t_res"));
    let mut p = a.clone();
    p.put_along_axis(&i("paa_idx"), &fx::<T, B>(dev, "paa_vals"), 2)
        .unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "paa_res"));
    let mut p = a.clone();
    let m1 = T::from_scalar(Scalar::F64(-1.0));
    p.put_along_axis(&i("paa0_idx"), &Array::scalar(m1, dev).unwrap(), 0)
        .unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "paa0_res"));
    let mut big = fx::<T, B>(dev, "big");
    big.put_along_axis(&i("big_paa_idx"), &fx::<T, B>(dev, "big_paa_vals"), 1)
        .unwrap();
    assert_array_equal(&big, &fx::<T, B>(dev, "big_paa_res"));
}

fn scatters_every_dtype<B: ArrayBackend>(dev: &B) {
    scatters_for::<f64, B>(dev);
    scatters_for::<f32, B>(dev);
    scatters_for::<i64, B>(dev);
    scatters_for::<i32, B>(dev);
    scatters_for::<u8, B>(dev);
    scatters_for::<bool, B>(dev);
    scatters_for::<c64, B>(dev);
    scatters_for::<c128, B>(dev);
}

fn take_edges_and_errors<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::ramp(6, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[2, 3])
        .unwrap();
    let idx = |v: Vec<i64>, shape: &[usize]| Array::<i64, B>::from_vec(v, shape, dev).unwrap();
    assert_eq!(
        err_msg(a.take(&idx(vec![0, 6], &[2]), None)),
        "take: index 6 is out of bounds for axis 0 with size 6"
    );
    assert_eq!(
        err_msg(a.take(&idx(vec![1, -4, 9], &[3]), Some(1))),
        "take: index -4 is out of bounds for axis 1 with size 3"
    );
    assert_eq!(
        err_msg(a.take(&idx(vec![0], &[1]), Some(2))),
        "take: axis 2 is out of bounds for an array of dimension 2"
    );
    // Empty indices, empty sources, 0-d indices and 0-d sources.
    assert_eq!(
        a.take(&idx(vec![], &[0]), Some(1)).unwrap().shape(),
        &[2, 0]
    );
    assert_eq!(
        a.take(&idx(vec![], &[2, 0]), Some(0)).unwrap().shape(),
        &[2, 0, 3]
    );
    let e = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(
        e.take(&idx(vec![], &[0]), Some(1)).unwrap().shape(),
        &[2, 0]
    );
    assert_eq!(
        err_msg(e.take(&idx(vec![0], &[1]), Some(1))),
        "take: index 0 is out of bounds for axis 1 with size 0"
    );
    let t0 = a.take(&idx(vec![-1], &[]), Some(1)).unwrap();
    assert_array_equal_vec(&t0, &[2.0, 5.0], &[2]);
    let s = Array::<f64, B>::scalar(f64::NAN, dev).unwrap();
    let r = s.take(&idx(vec![0, -1, 0], &[3]), None).unwrap();
    assert!(r.to_vec().unwrap().iter().all(|v| v.is_nan()));
    assert!(s.take(&idx(vec![1], &[1]), None).is_err());
    assert!(s.take(&idx(vec![0], &[1]), Some(0)).is_err());
    // Broadcast (zero-stride) indices and a broadcast source.
    let bi = idx(vec![2], &[1]).broadcast_to(&[4]).unwrap();
    assert_array_equal_vec(
        &a.take(&bi, Some(1)).unwrap(),
        &[2.0, 2.0, 2.0, 2.0, 5.0, 5.0, 5.0, 5.0],
        &[2, 4],
    );
    let bs = Array::<f64, B>::ramp(3, 1.0, 1.0, dev)
        .unwrap()
        .broadcast_to(&[4, 3])
        .unwrap();
    assert_array_equal_vec(
        &bs.take(&idx(vec![2, 0], &[2]), Some(1)).unwrap(),
        &[3.0, 1.0, 3.0, 1.0, 3.0, 1.0, 3.0, 1.0],
        &[4, 2],
    );
    // Non-i64 index types.
    let u = Array::<u8, B>::from_vec(vec![5, 0], &[2], dev).unwrap();
    assert_array_equal_vec(&a.take(&u, None).unwrap(), &[5.0, 0.0], &[2]);
    // NaN and infinities pass through gathers untouched.
    let f = Array::<f64, B>::from_vec(vec![f64::NAN, f64::INFINITY, -0.0], &[3], dev).unwrap();
    let g = f
        .take(&idx(vec![2, 1, 0], &[3]), None)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(g[0] == 0.0 && g[0].is_sign_negative() && g[1] == f64::INFINITY && g[2].is_nan());
}

fn along_axis_errors<B: ArrayBackend>(dev: &B) {
    let a = Array::<i32, B>::ramp(6, 0, 1, dev)
        .unwrap()
        .reshape(&[2, 3])
        .unwrap();
    let idx = |v: Vec<i64>, shape: &[usize]| Array::<i64, B>::from_vec(v, shape, dev).unwrap();
    assert_eq!(
        err_msg(a.take_along_axis(&idx(vec![0, 1], &[2]), 1)),
        "take_along_axis: `indices` and `arr` must have the same number of dimensions \
         (indices shape [2], array shape [2, 3])"
    );
    assert_eq!(
        err_msg(a.take_along_axis(&idx(vec![0; 3], &[3, 1]), 1)),
        "take_along_axis: operands could not be broadcast together with shapes [2, 3] and [3, 1]"
    );
    assert_eq!(
        err_msg(a.take_along_axis(&idx(vec![0, 3], &[1, 2]), 1)),
        "take_along_axis: index 3 is out of bounds for axis 1 with size 3"
    );
    assert!(a.take_along_axis(&idx(vec![0], &[1, 1]), 2).is_err());
    // Index dimension 1 broadcasts against the array; an array dimension of 1 broadcasts too.
    let r = a.take_along_axis(&idx(vec![2, 0], &[1, 2]), 1).unwrap();
    assert_array_equal_vec(&r, &[2, 0, 5, 3], &[2, 2]);
    let col = a.slice(&s![.., 1..2]).unwrap(); // [[1], [4]]
    let r = col.take_along_axis(&idx(vec![0, -1], &[2, 1]), 0).unwrap();
    assert_array_equal_vec(&r, &[1, 4], &[2, 1]);
    let r = a.take_along_axis(&idx(vec![], &[2, 0]), 1).unwrap();
    assert_eq!(r.shape(), &[2, 0]);
    // put_along_axis errors and edges.
    let mut m = a.clone();
    assert_eq!(
        err_msg(m.put_along_axis(&idx(vec![3], &[1, 1]), &Array::scalar(0, dev).unwrap(), 1)),
        "put_along_axis: index 3 is out of bounds for axis 1 with size 3"
    );
    assert_array_equal(&m, &a);
    assert!(m
        .put_along_axis(
            &idx(vec![0; 3], &[3, 1]),
            &Array::scalar(0, dev).unwrap(),
            1
        )
        .is_err());
    assert!(m
        .put_along_axis(
            &idx(vec![0, 0], &[2, 1]),
            &Array::zeros(&[3], dev).unwrap(),
            1
        )
        .is_err());
    assert!(m
        .put_along_axis(&idx(vec![0], &[1]), &Array::scalar(0, dev).unwrap(), 0)
        .is_err());
    // Duplicate indices along the axis: the last value wins.
    m.put_along_axis(
        &idx(vec![1, 1, 0, 0], &[2, 2]),
        &Array::from_vec(vec![10, 20, 30, 40], &[2, 2], dev).unwrap(),
        1,
    )
    .unwrap();
    assert_array_equal_vec(&m, &[0, 20, 2, 40, 4, 5], &[2, 3]);
    // A broadcast destination is read-only.
    let mut bc = a.slice(&s![0..1]).unwrap().broadcast_to(&[3, 3]).unwrap();
    assert!(err_msg(bc.put_along_axis(
        &idx(vec![0; 3], &[3, 1]),
        &Array::scalar(1, dev).unwrap(),
        1
    ))
    .contains("read-only"));
}

fn index_arrays_errors<B: ArrayBackend>(dev: &B) {
    let a = Array::<c64, B>::ones(&[2, 3, 4], dev).unwrap();
    let idx = |v: Vec<i64>, shape: &[usize]| Array::<i64, B>::from_vec(v, shape, dev).unwrap();
    let i = idx(vec![0, 1], &[2]);
    assert_eq!(
        err_msg(a.index_arrays(&[&i, &i, &i, &i])),
        "index_arrays: too many indices for array: array is 3-dimensional, but 4 were indexed"
    );
    assert_eq!(
        err_msg(a.index_arrays(&[&i, &idx(vec![0, 1, 2], &[3])])),
        "index_arrays: operands could not be broadcast together with shapes [2] and [3]"
    );
    assert_eq!(
        err_msg(a.index_arrays(&[&i, &idx(vec![0, 3], &[2])])),
        "index_arrays: index 3 is out of bounds for axis 1 with size 3"
    );
    assert_eq!(
        err_msg(a.index_arrays(&[&idx(vec![-3], &[1]), &i])),
        "index_arrays: index -3 is out of bounds for axis 0 with size 2"
    );
    assert_eq!(a.index_arrays::<i64>(&[]).unwrap().shape(), &[2, 3, 4]);
    let r = a
        .index_arrays(&[&idx(vec![], &[0]), &idx(vec![1], &[1])])
        .unwrap();
    assert_eq!(r.shape(), &[0, 4]);
    // Analytic: x[i, j] with full aranges reproduces x.
    let x = Array::<i64, B>::ramp(12, 0, 1, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap()
        .t();
    let ii = Array::<i64, B>::ramp(4, 0, 1, dev)
        .unwrap()
        .reshape(&[4, 1])
        .unwrap();
    let jj = Array::<i64, B>::ramp(3, 0, 1, dev).unwrap();
    assert_array_equal(&x.index_arrays(&[&ii, &jj]).unwrap(), &x);
}

fn put_edges_and_errors<B: ArrayBackend>(dev: &B) {
    let idx = |v: Vec<i64>| {
        let n = v.len();
        Array::<i64, B>::from_vec(v, &[n], dev).unwrap()
    };
    let mut a = Array::<u8, B>::zeros(&[2, 3], dev).unwrap();
    let snapshot = a.clone();
    assert_eq!(
        err_msg(a.put(&idx(vec![0, 6]), &Array::scalar(1, dev).unwrap())),
        "put: index 6 is out of bounds for axis 0 with size 6"
    );
    assert_array_equal(&a, &snapshot);
    assert_eq!(
        err_msg(a.put(&idx(vec![0]), &Array::zeros(&[0], dev).unwrap())),
        "put: cannot put 1 indices with an empty array of values"
    );
    a.put(&idx(vec![]), &Array::zeros(&[0], dev).unwrap())
        .unwrap();
    // Values cycle; repeated indices keep the last write; 2-d indices are flattened.
    let i2 = Array::<i64, B>::from_vec(vec![1, 1, -1, 0, 4], &[5, 1], dev).unwrap();
    a.put(&i2, &Array::from_vec(vec![7, 8], &[2], dev).unwrap())
        .unwrap();
    assert_array_equal_vec(&a, &[8, 8, 0, 0, 7, 7], &[2, 3]);
    assert_array_equal(&snapshot, &Array::zeros(&[2, 3], dev).unwrap());
    // Into a strided view of a larger array (the view's C order).
    let big = Array::<i32, B>::ramp(12, 0, 1, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    let mut v = big.slice(&s![..;2, ..;-2]).unwrap(); // [[3, 1], [11, 9]]
    v.put(
        &idx(vec![1, 2]),
        &Array::from_vec(vec![-1, -2], &[2], dev).unwrap(),
    )
    .unwrap();
    assert_array_equal_vec(&v, &[3, -1, -2, 9], &[2, 2]);
    // 0-d destination.
    let mut z = Array::<f64, B>::scalar(1.0, dev).unwrap();
    z.put(&idx(vec![-1]), &Array::scalar(f64::INFINITY, dev).unwrap())
        .unwrap();
    assert_eq!(z.item().unwrap(), f64::INFINITY);
    // A broadcast destination is read-only.
    let mut bc = Array::<f64, B>::ones(&[3], dev)
        .unwrap()
        .broadcast_to(&[2, 3])
        .unwrap();
    assert!(
        err_msg(bc.put(&idx(vec![0]), &Array::scalar(0.0, dev).unwrap())).contains("read-only")
    );
    // Many indices (the parallel paths of the index check), last write wins on duplicates.
    let n = 40_000usize;
    let many: Vec<i64> = (0..n as i64).map(|k| (k * 7) % 1000 - 1000).collect();
    let vals: Vec<f64> = (0..n).map(|k| k as f64).collect();
    let mut d = Array::<f64, B>::zeros(&[1000], dev).unwrap();
    d.put(
        &idx(many.clone()),
        &Array::from_vec(vals, &[n], dev).unwrap(),
    )
    .unwrap();
    let mut expect = vec![0.0; 1000];
    for (k, &i) in many.iter().enumerate() {
        expect[(i + 1000) as usize] = k as f64;
    }
    assert_array_equal_vec(&d, &expect, &[1000]);
}

cuprite::test_backends!(
    gathers_every_dtype,
    scatters_every_dtype,
    take_edges_and_errors,
    along_axis_errors,
    index_arrays_errors,
    put_edges_and_errors,
);
