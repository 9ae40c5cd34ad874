//! Assignment through index arrays (`index_put`, NumPy's `x[i, j] = v`) and its accumulating
//! form (`index_add`, `np.add.at(x, (i, j), v)`), on every backend, against NumPy
//! (`scripts/fixtures/index_put.py`, whose literals the inputs here repeat), and their
//! errors.

use crate::common;

use common::fixture_vec;
use cuprite::prelude::*;

const TOPIC: &str = "index_put";

fn check<T: Element, B: ArrayBackend>(x: &Array<T, B>, name: &str) {
    let (want, shape) = fixture_vec::<T>(TOPIC, name);
    assert_eq!(x.shape(), &shape[..], "{name}: shape");
    assert_eq!(x.to_vec().unwrap(), want, "{name}");
}

fn ix<B: ArrayBackend>(v: Vec<i64>, shape: &[usize], dev: &B) -> Array<i64, B> {
    Array::from_vec(v, shape, dev).unwrap()
}

fn puts_and_adds<B: ArrayBackend>(dev: &B) {
    let (i, j) = (
        ix(vec![0, 2, -1, 2], &[4], dev),
        ix(vec![1, 3, 0, 3], &[4], dev),
    );
    let v = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], dev).unwrap();
    let mut x = Array::<f64, B>::zeros(&[4, 5], dev).unwrap();
    x.index_put(&[&i, &j], &v).unwrap();
    check(&x, "pair_put");
    let mut x = Array::<f64, B>::zeros(&[4, 5], dev).unwrap();
    x.index_add(&[&i, &j], &v).unwrap();
    check(&x, "pair_add");

    // Index arrays of two types' worth of shapes, broadcast together; a scalar value.
    let mut x = Array::<i64, B>::ramp(20, 0, 1, dev)
        .unwrap()
        .reshape(&[4, 5])
        .unwrap();
    let r = Array::<i32, B>::from_vec(vec![0, 1, 3], &[3, 1], dev).unwrap();
    let c = Array::<i32, B>::from_vec(vec![4, -5], &[1, 2], dev).unwrap();
    x.index_put(&[&r, &c], &Array::scalar(-7, dev).unwrap())
        .unwrap();
    check(&x, "broadcast_put");

    // Whole rows.
    let mut x = Array::<i32, B>::zeros(&[4, 3], dev).unwrap();
    let rows = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3], dev).unwrap();
    x.index_put(&[&ix(vec![3, 0], &[2], dev)], &rows).unwrap();
    check(&x, "rows_put");
    let mut x = Array::<i32, B>::zeros(&[4, 3], dev).unwrap();
    let vals = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev).unwrap();
    x.index_add(&[&ix(vec![1, 1, 2], &[3], dev)], &vals)
        .unwrap();
    check(&x, "rows_add");

    // A trailing block of two elements.
    let mut x = Array::<f32, B>::zeros(&[3, 4, 2], dev).unwrap();
    let v = Array::<f32, B>::from_vec(vec![1.5, 2.5, 3.5, 4.5], &[2, 2], dev).unwrap();
    x.index_put(
        &[&ix(vec![0, 2], &[2], dev), &ix(vec![1, -1], &[2], dev)],
        &v,
    )
    .unwrap();
    check(&x, "block_put");
    let mut x = Array::<f32, B>::ones(&[3, 4, 2], dev).unwrap();
    let v = Array::<f32, B>::from_vec(vec![0.25, 0.5], &[2, 1], dev).unwrap();
    x.index_add(
        &[&ix(vec![0, 0], &[2], dev), &ix(vec![1, 1], &[2], dev)],
        &v,
    )
    .unwrap();
    check(&x, "block_add");

    // A transposed (strided) target.
    let mut x = Array::<f64, B>::ramp(12, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap()
        .t();
    let v = Array::<f64, B>::from_vec(vec![-1.0, -2.0], &[2], dev).unwrap();
    x.index_put(
        &[&ix(vec![1, 3], &[2], dev), &ix(vec![2, 0], &[2], dev)],
        &v,
    )
    .unwrap();
    check(&x, "transposed_put");

    // Complex values.
    let mut x = Array::<c128, B>::zeros(&[3], dev).unwrap();
    let v = Array::<c128, B>::from_vec(
        vec![
            c128::new(1.0, 1.0),
            c128::new(2.0, -1.0),
            c128::new(0.0, 0.5),
        ],
        &[3],
        dev,
    )
    .unwrap();
    x.index_add(&[&ix(vec![2, 2, 0], &[3], dev)], &v).unwrap();
    check(&x, "complex_add");

    // No index arrays: the whole array; empty index arrays: nothing.
    let mut x = Array::<u8, B>::zeros(&[2, 2], dev).unwrap();
    let none: [&Array<i64, B>; 0] = [];
    x.index_put(&none, &Array::scalar(3, dev).unwrap()).unwrap();
    assert_eq!(x.to_vec().unwrap(), vec![3; 4]);
    let e = ix(vec![], &[0], dev);
    x.index_put(&[&e, &e], &Array::scalar(9, dev).unwrap())
        .unwrap();
    x.index_add(&[&e], &Array::scalar(9, dev).unwrap()).unwrap();
    assert_eq!(x.to_vec().unwrap(), vec![3; 4]);
}

fn errors_leave_the_array_unchanged<B: ArrayBackend>(dev: &B) {
    let base = Array::<f64, B>::ramp(6, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[2, 3])
        .unwrap();
    let one = Array::<f64, B>::scalar(1.0, dev).unwrap();
    let mut x = base.copy().unwrap();
    // An index out of its axis names the op, the index and the axis.
    let err = x
        .index_put(
            &[&ix(vec![0, 1], &[2], dev), &ix(vec![0, 3], &[2], dev)],
            &one,
        )
        .unwrap_err();
    match err {
        Error::IndexOutOfRange {
            op,
            index,
            axis,
            size,
        } => assert_eq!((op, index, axis, size), ("index_put", 3, 1, 3)),
        other => panic!("{other}"),
    }
    let err = x.index_add(&[&ix(vec![-3], &[1], dev)], &one).unwrap_err();
    assert!(
        matches!(
            err,
            Error::IndexOutOfRange {
                op: "index_add",
                axis: 0,
                ..
            }
        ),
        "{err}"
    );
    // More index arrays than axes.
    let i = ix(vec![0], &[1], dev);
    let err = x.index_put(&[&i, &i, &i], &one).unwrap_err().to_string();
    assert!(
        err.contains("index_put") && err.contains("too many indices"),
        "{err}"
    );
    // Index arrays that do not broadcast together.
    let err = x
        .index_put(
            &[&ix(vec![0, 1], &[2], dev), &ix(vec![0, 1, 2], &[3], dev)],
            &one,
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("index_put") && err.contains("[2]") && err.contains("[3]"),
        "{err}"
    );
    // Values that do not broadcast to the selection.
    let v = Array::<f64, B>::zeros(&[3], dev).unwrap();
    let err = x
        .index_put(
            &[&ix(vec![0, 1], &[2], dev), &ix(vec![0, 1], &[2], dev)],
            &v,
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("index_put") && err.contains("values"), "{err}");
    assert_eq!(x.to_vec().unwrap(), base.to_vec().unwrap());
}

cuprite::test_backends!(puts_and_adds, errors_leave_the_array_unchanged);
