//! The backend traits called directly with views that do not fit their buffers: every
//! entry point that takes a `(buffer, layout)` pair answers an `Err` naming the op (on a GPU
//! a stray view would read or write foreign device memory), and an axis past the view's
//! rank is `AxisOutOfRange`, never a panic.

use cuprite::backend::ArgKind;
use cuprite::ops::{Add, CumSum, Neg, Sum};
use cuprite::prelude::*;
use cuprite::{Error, Layout};

/// Asserts that `r` is an `Err` about a view outside its buffer, naming `op`.
#[track_caller]
fn outside<R>(r: Result<R>, op: &str) {
    match r {
        Err(e) => {
            let s = e.to_string();
            assert!(
                s.contains(op) && s.contains("outside a buffer"),
                "{op}: unexpected error {s}"
            );
        }
        Ok(_) => panic!("{op}: a view outside its buffer was accepted"),
    }
}

/// Asserts that `r` is `Error::AxisOutOfRange`.
#[track_caller]
fn bad_axis<R>(r: Result<R>, op: &str) {
    match r {
        Err(Error::AxisOutOfRange { .. }) => {}
        Err(e) => panic!("{op}: expected AxisOutOfRange, got {e}"),
        Ok(_) => panic!("{op}: an axis past the rank was accepted"),
    }
}

fn views_outside_their_buffers_are_errors<B: ArrayBackend>(dev: &B) {
    let x = dev
        .from_vec((0..10).map(f64::from).collect::<Vec<_>>())
        .unwrap();
    let idx = dev.from_vec(vec![0i64; 10]).unwrap();
    let mask = dev.from_vec(vec![true; 10]).unwrap();
    // Past the end (elements 0, 3, ..., 12 of 10), before the start (elements -1..2), and
    // an offset alone past the end.
    for bad in [
        Layout::new(vec![5], vec![3], 0),
        Layout::new(vec![3], vec![-1], 1),
        Layout::new(vec![2], vec![1], 9),
    ] {
        // The other operands fit and have the bad view's shape, so that only the bad view
        // is at fault.
        let ok = Layout::contiguous(bad.shape());
        outside(dev.to_vec(&x, &bad), "to_vec");
        outside(dev.copy(&x, &bad), "copy");
        outside(dev.cast::<f64, f32>(&x, &bad), "cast");
        let mut d = x.clone();
        outside(dev.fill(&mut d, &bad, 1.0), "fill");
        let mut d = x.clone();
        outside(dev.assign(&mut d, &bad, &x, &ok), "assign");
        let mut d = x.clone();
        outside(dev.assign(&mut d, &ok, &x, &bad), "assign");

        outside(dev.unary(Neg, &x, &bad), "negative");
        outside(dev.binary(Add, &x, &ok, &x, &bad), "add");
        outside(dev.binary(Add, &x, &bad, &x, &ok), "add");
        outside(dev.binary_scalar(Add, &x, &bad, 1.0, false), "add");
        let mut d = x.clone();
        outside(dev.unary_inplace(Neg, &mut d, &bad), "negative");
        let mut d = x.clone();
        outside(dev.binary_inplace(Add, &mut d, &ok, &x, &bad), "add");
        let mut d = x.clone();
        outside(dev.binary_scalar_inplace(Add, &mut d, &bad, 2.0), "add");
        let c = dev.from_vec(vec![true; 10]).unwrap();
        outside(dev.where_(&c, &ok, &x, &bad, &x, &ok), "where");

        outside(dev.reduce(Sum, &x, &bad, &[0]), "sum");
        outside(dev.arg_reduce(ArgKind::Max, &x, &bad, 0), "argmax");
        outside(dev.scan(CumSum, &x, &bad, 0), "cumsum");

        outside(dev.sort(&x, &bad, 0), "sort");
        outside(dev.argsort(&x, &bad, 0), "argsort");
        outside(dev.partition(&x, &bad, 0, 0), "partition");
        outside(dev.argpartition(&x, &bad, 0, 0), "argpartition");
        outside(dev.searchsorted(&x, &bad, &x, &ok, false), "searchsorted");
        outside(dev.searchsorted(&x, &ok, &x, &bad, false), "searchsorted");
        outside(dev.unique(&x, &bad), "unique");
        outside(dev.unique_all(&x, &bad), "unique_all");
        outside(dev.select_kth(&x, &bad, 0, &[0]), "select_kth");

        outside(dev.take(&x, &bad, 0, &idx, &ok), "take");
        outside(dev.take(&x, &ok, 0, &idx, &bad), "take");
        outside(
            dev.take_along_axis(&x, &bad, &idx, &ok, 0),
            "take_along_axis",
        );
        let mut d = x.clone();
        outside(
            dev.scatter(&mut d, &bad, 0, &idx, &ok, &x, &ok),
            "put_along_axis",
        );
        let mut d = x.clone();
        outside(
            dev.scatter(&mut d, &ok, 0, &idx, &ok, &x, &bad),
            "put_along_axis",
        );

        outside(dev.mask_select(&x, &bad, &mask, &ok), "mask_select");
        outside(dev.mask_select(&x, &ok, &mask, &bad), "mask_select");
        outside(dev.nonzero(&x, &bad), "nonzero");
        outside(dev.count_nonzero(&x, &bad), "count_nonzero");
        let mut d = x.clone();
        outside(
            dev.mask_assign(&mut d, &bad, &mask, &ok, &x, &ok),
            "mask_assign",
        );
    }
    // A matrix view past the end of its buffer.
    let m = Layout::new(vec![3, 4], vec![4, 1], 0);
    let k = Layout::new(vec![4, 2], vec![2, 1], 0);
    outside(dev.matmul(&x, &m, &x, &k), "matmul");
    // The buffer is untouched by every refused call.
    assert_eq!(
        dev.to_vec(&x, &Layout::contiguous(&[10])).unwrap(),
        (0..10).map(f64::from).collect::<Vec<_>>()
    );
}

fn axes_past_the_rank_are_errors<B: ArrayBackend>(dev: &B) {
    let x = dev.from_vec(vec![3.0f64, 1.0, 2.0, 0.0]).unwrap();
    let l = Layout::contiguous(&[2, 2]);
    bad_axis(dev.sort(&x, &l, 2), "sort");
    bad_axis(dev.argsort(&x, &l, 5), "argsort");
    bad_axis(dev.partition(&x, &l, 2, 0), "partition");
    bad_axis(dev.argpartition(&x, &l, 2, 0), "argpartition");
    bad_axis(dev.select_kth(&x, &l, 2, &[0]), "select_kth");
    bad_axis(dev.arg_reduce(ArgKind::Min, &x, &l, 2), "argmin");
    bad_axis(dev.scan(CumSum, &x, &l, 2), "cumsum");
}

cuprite::test_backends!(
    views_outside_their_buffers_are_errors,
    axes_past_the_rank_are_errors
);
