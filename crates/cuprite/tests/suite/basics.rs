//! Creation, transfers, views and arithmetic operators on every backend.

use cuprite::prelude::*;
use cuprite::testing::{assert_allclose_vec, assert_array_equal_vec};

fn creation_and_transfer<B: ArrayBackend>(dev: &B) {
    let z = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    assert_eq!(z.shape(), &[2, 3]);
    assert_eq!(z.to_vec().unwrap(), vec![0.0; 6]);
    let o = Array::<c64, B>::ones(&[4], dev).unwrap();
    assert_eq!(o.to_vec().unwrap(), vec![c64::new(1.0, 0.0); 4]);
    let f = Array::<u8, B>::full(&[], 7, dev).unwrap();
    assert_eq!(f.ndim(), 0);
    assert_eq!(f.item().unwrap(), 7);
    let e = Array::<bool, B>::empty(&[0, 5], dev).unwrap();
    assert_eq!(e.size(), 0);
    assert!(e.to_vec().unwrap().is_empty());
    assert!(Array::<i32, B>::from_vec(vec![1, 2, 3], &[2, 2], dev).is_err());
    assert!(z.item().is_err());
    let back = z.to_device(&cuprite::Cpu::new()).unwrap();
    assert_eq!(back.shape(), &[2, 3]);
}

fn views_share_and_copy_on_write<B: ArrayBackend>(dev: &B) {
    let mut a = Array::<i64, B>::ramp(12, 0, 1, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    let snapshot = a.slice(&s![1, ..]).unwrap();
    a.slice_mut(&s![1, 1..;2]).unwrap().fill(-1).unwrap();
    assert_array_equal_vec(&a.slice(&s![1, ..]).unwrap(), &[4, -1, 6, -1], &[4]);
    assert_array_equal_vec(&snapshot, &[4, 5, 6, 7], &[4]);
    let t = a.t();
    assert_eq!(t.shape(), &[4, 3]);
    assert_array_equal_vec(&t.slice(&s![..;-1, 0]).unwrap(), &[3, 2, 1, 0], &[4]);
    assert_array_equal_vec(
        &t.reshape(&[-1]).unwrap().slice(&s![..4]).unwrap(),
        &[0, 4, 8, 1],
        &[4],
    );
    let b = Array::<i64, B>::ramp(3, 10, 10, dev).unwrap();
    let bc = b.reshape(&[3, 1]).unwrap().broadcast_to(&[3, 2]).unwrap();
    assert_array_equal_vec(&bc, &[10, 10, 20, 20, 30, 30], &[3, 2]);
    let mut bc2 = bc.clone();
    assert!(bc2.fill(0).is_err(), "broadcast views are read-only");
}

fn arithmetic_broadcasts<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], dev).unwrap();
    let r = Array::<f64, B>::from_vec(vec![10.0, 20.0, 30.0], &[3], dev).unwrap();
    assert_allclose_vec(
        &(&a + &r),
        &[11.0, 22.0, 33.0, 14.0, 25.0, 36.0],
        &[2, 3],
        0.0,
        0.0,
    );
    assert_allclose_vec(
        &(&r - &a),
        &[9.0, 18.0, 27.0, 6.0, 15.0, 24.0],
        &[2, 3],
        0.0,
        0.0,
    );
    assert_allclose_vec(
        &(2.0 * &a.t()),
        &[2.0, 8.0, 4.0, 10.0, 6.0, 12.0],
        &[3, 2],
        0.0,
        0.0,
    );
    assert_allclose_vec(&(1.0 / &r), &[0.1, 0.05, 1.0 / 30.0], &[3], 1e-15, 0.0);
    assert_allclose_vec(&-&r, &[-10.0, -20.0, -30.0], &[3], 0.0, 0.0);
    let i = Array::<i32, B>::from_vec(vec![7, -7, 7, -7], &[4], dev).unwrap();
    let d = Array::<i32, B>::from_vec(vec![2, 2, -2, 0], &[4], dev).unwrap();
    assert_allclose_vec(
        &(&i / &d),
        &[3.5, -3.5, -3.5, f64::NEG_INFINITY],
        &[4],
        0.0,
        0.0,
    );
    assert_array_equal_vec(&(&i % &d), &[1, 1, -1, 0], &[4]);
    let bad = Array::<f64, B>::zeros(&[4], dev).unwrap();
    let err = a.try_add(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "add: operands could not be broadcast together with shapes [2, 3] and [4]"
    );
}

fn inplace_ops<B: ArrayBackend>(dev: &B) {
    let mut x =
        Array::<f64, B>::from_vec((0..200_000).map(|v| v as f64).collect(), &[200_000], dev)
            .unwrap();
    x *= 5.0;
    x *= &x.clone();
    x += &x.clone();
    let v = x.to_vec().unwrap();
    assert_eq!(v[3], 2.0 * 225.0);
    assert_eq!(v[199_999], 2.0 * (5.0 * 199_999.0f64).powi(2));
    let mut m = Array::<i64, B>::zeros(&[3, 4], dev).unwrap();
    let row = Array::<i64, B>::ramp(4, 1, 1, dev).unwrap();
    m += &row;
    m.slice_mut(&s![.., ..;-2])
        .unwrap()
        .zip_op_inplace(cuprite::ops::Mul, &row.slice(&s![..2]).unwrap())
        .unwrap();
    assert_array_equal_vec(&m.slice(&s![0, ..]).unwrap(), &[1, 4, 3, 4], &[4]);
    let mut small = Array::<i64, B>::zeros(&[2], dev).unwrap();
    assert!(small.try_add_assign(&row).is_err());
}

fn operators_panic_with_the_message<B: ArrayBackend>(dev: &B) {
    let a = Array::<f32, B>::zeros(&[2], dev).unwrap();
    let b = Array::<f32, B>::zeros(&[3], dev).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| &a * &b));
    let msg = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(
        msg.contains("multiply: operands could not be broadcast"),
        "{msg}"
    );
}

fn casts<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::from_vec(vec![-1.7, 0.0, 2.5, f64::NAN, 300.0], &[5], dev).unwrap();
    assert_array_equal_vec(&a.astype::<i32>().unwrap(), &[-1, 0, 2, 0, 300], &[5]);
    assert_array_equal_vec(
        &a.astype::<bool>().unwrap(),
        &[true, false, true, true, true],
        &[5],
    );
    assert_array_equal_vec(
        &a.astype::<u8>().unwrap().slice(&s![-1]).unwrap(),
        &[255],
        &[],
    );
    let c = a.astype::<c128>().unwrap();
    assert_eq!(c.to_vec().unwrap()[2], c128::new(2.5, 0.0));
}

cuprite::test_backends!(
    creation_and_transfer,
    views_share_and_copy_on_write,
    arithmetic_broadcasts,
    inplace_ops,
    operators_panic_with_the_message,
    casts,
);
