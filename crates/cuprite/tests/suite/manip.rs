//! Shape manipulation on every backend: squeeze/expand_dims/swapaxes/moveaxis,
//! broadcast_arrays, concatenate/stack/hstack/vstack/dstack, split/array_split, flip, roll,
//! repeat, tile and constant padding, compared with NumPy fixtures
//! (`scripts/fixtures/manip.py`) for every dtype family and with analytic identities.

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

fn ramp<B: ArrayBackend>(dev: &B, shape: &[isize]) -> Array<i64, B> {
    let n: isize = shape.iter().product();
    Array::<i64, B>::ramp(n as usize, 0, 1, dev)
        .unwrap()
        .reshape(shape)
        .unwrap()
}

/// Every fixture comparison of this file for one element type (inputs and expected values
/// are converted to `T` the same way, so the data movement is checked for each dtype).
fn fixtures_for<T: Element, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let b = fx::<T, B>(dev, "b");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    eq(Array::concatenate(&[&a, &b], 1), "cat_ab_1");
    let at = a.permute_dims(&[1, 0, 2]).unwrap();
    let ar = a
        .slice(&s![.., ..;-1])
        .unwrap()
        .permute_dims(&[1, 0, 2])
        .unwrap();
    eq(Array::concatenate(&[&at, &ar], 0), "cat_aTa_0");
    let a_rev = a.slice(&s![..;-1]).unwrap();
    eq(Array::stack(&[&a, &a_rev], 0), "stack_0");
    let (a0, a1) = (a.slice(&s![0]).unwrap(), a.slice(&s![1]).unwrap());
    eq(Array::hstack(&[&a0, &a1]), "hstack_2d");
    eq(
        Array::vstack(&[
            &a.slice(&s![0, 0]).unwrap(),
            &a.slice(&s![1, 1]).unwrap(),
            &a.slice(&s![0, 2]).unwrap(),
        ]),
        "vstack_1d",
    );
    eq(Array::dstack(&[&a0, &a1]), "dstack_2d");
    eq(a.flip(1), "flip_1");
    eq(a.flip(Axes::All), "flip_all");
    eq(a.flip([0, -1]), "flip_0_2");
    eq(a.roll(5, None), "roll_flat_5");
    eq(a.roll(-4, Some(1)), "roll_1_m4");
    eq(a.roll(7, Some(-1)), "roll_2_7");
    eq(
        a.permute_dims(&[2, 0, 1]).unwrap().roll(2, Some(0)),
        "roll_t_2",
    );
    eq(a.repeat(2, None), "repeat_flat_2");
    eq(a.repeat(3, Some(1)), "repeat_1_3");
    eq(a.repeat(vec![0, 2, 1, 3], Some(2)), "repeat_per_2");
    eq(
        a.permute_dims(&[2, 1, 0])
            .unwrap()
            .repeat(vec![1, 0, 4, 2], Some(0)),
        "repeat_per_t",
    );
    eq(a.tile(&[2, 1, 3]), "tile_2_1_3");
    eq(a.tile(&[2]), "tile_short");
    eq(a.slice(&s![0, 0]).unwrap().tile(&[2, 1, 2]), "tile_long");
    let v = |x: f64| T::from_scalar(Scalar::F64(x));
    eq(
        a.pad_constant(&[(1, 0), (0, 2), (3, 1)], v(-9.0)),
        "pad_each",
    );
    eq(
        a.slice(&s![.., ..;-1, ..;2])
            .unwrap()
            .pad_constant(&[(2, 2)], v(5.0)),
        "pad_all",
    );
    // Large inputs (above the parallel threshold), strided and transposed.
    let big = fx::<T, B>(dev, "big");
    eq(big.t().roll(13, Some(1)), "big_roll");
    let side = big
        .slice(&s![..;-1, ..;2])
        .unwrap()
        .t()
        .reshape(&[70, 300])
        .unwrap();
    eq(Array::concatenate(&[&big, &side], 1), "big_cat");
    eq(big.slice(&s![.., ..7]).unwrap().tile(&[3, 2]), "big_tile");
    eq(
        big.slice(&s![..;3, ..;-5]).unwrap().repeat(9, Some(0)),
        "big_repeat",
    );
}

fn fixtures_every_dtype<B: ArrayBackend>(dev: &B) {
    fixtures_for::<f64, B>(dev);
    fixtures_for::<f32, B>(dev);
    fixtures_for::<i64, B>(dev);
    fixtures_for::<i32, B>(dev);
    fixtures_for::<u8, B>(dev);
    fixtures_for::<bool, B>(dev);
    fixtures_for::<c64, B>(dev);
    fixtures_for::<c128, B>(dev);
}

fn stack_three_with_nan<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "a");
    let a2 = a.scalar_op(cuprite::ops::Mul, 2.0).unwrap();
    let a_rev = a.slice(&s![..;-1]).unwrap();
    assert_array_equal(
        &Array::stack(&[&a, &a_rev, &a2], -1).unwrap(),
        &fx::<f64, B>(dev, "stack_m1"),
    );
}

fn squeeze_expand_swap_move<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[1, 3, 1, 2]);
    let sq = a.squeeze(Axes::All).unwrap();
    assert_array_equal_vec(&sq, &[0, 1, 2, 3, 4, 5], &[3, 2]);
    assert_eq!(a.squeeze([0, -2]).unwrap().shape(), &[3, 2]);
    assert_eq!(a.squeeze(2).unwrap().shape(), &[1, 3, 2]);
    assert_eq!(
        err_msg(a.squeeze(1)),
        "squeeze: cannot select an axis to squeeze out which has size not equal to one \
         (axis 1 of shape [1, 3, 1, 2])"
    );
    assert_eq!(
        err_msg(a.squeeze(4)),
        "squeeze: axis 4 is out of bounds for an array of dimension 4"
    );
    let z = Array::<f64, B>::scalar(2.5, dev).unwrap();
    assert_eq!(z.squeeze(Axes::All).unwrap().ndim(), 0);
    assert_eq!(z.expand_dims(0).unwrap().shape(), &[1]);
    let b = ramp(dev, &[2, 3]);
    assert_eq!(b.expand_dims([0, -1]).unwrap().shape(), &[1, 2, 3, 1]);
    assert_eq!(b.expand_dims(1).unwrap().shape(), &[2, 1, 3]);
    assert_array_equal_vec(&b.expand_dims(1).unwrap(), &[0, 1, 2, 3, 4, 5], &[2, 1, 3]);
    assert!(b.expand_dims(3).is_err());
    assert!(b.expand_dims([1, 1]).is_err());
    assert!(b.expand_dims(Axes::All).is_err());
    let s = b.swapaxes(0, -1).unwrap();
    assert_array_equal_vec(&s, &[0, 3, 1, 4, 2, 5], &[3, 2]);
    assert!(b.swapaxes(0, 2).is_err());
    let c = ramp(dev, &[2, 3, 4]);
    let m = c.moveaxis(&[0], &[-1]).unwrap();
    assert_eq!(m.shape(), &[3, 4, 2]);
    assert_array_equal(&m, &c.permute_dims(&[1, 2, 0]).unwrap());
    let m = c.moveaxis(&[2, 0], &[0, 1]).unwrap();
    assert_array_equal(&m, &c.permute_dims(&[2, 0, 1]).unwrap());
    assert!(err_msg(c.moveaxis(&[0, 1], &[0])).contains("same number of elements"));
    assert!(c.moveaxis(&[0, 0], &[1, 2]).is_err());
    assert!(c.moveaxis(&[3], &[0]).is_err());
}

fn broadcast_arrays_views<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[3, 1]);
    let b = ramp(dev, &[4]);
    let out = Array::broadcast_arrays(&[&a, &b]).unwrap();
    assert_array_equal_vec(&out[0], &[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], &[3, 4]);
    assert_array_equal_vec(&out[1], &[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3], &[3, 4]);
    let c = ramp(dev, &[2]);
    assert_eq!(
        err_msg(Array::broadcast_arrays(&[&a, &b, &c])),
        "broadcast_arrays: operands could not be broadcast together with shapes [3, 4] and [2]"
    );
    assert!(Array::<i64, B>::broadcast_arrays(&[]).unwrap().is_empty());
}

fn concatenate_errors_and_edges<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[2, 3, 4]);
    let b = ramp(dev, &[2, 3, 5]);
    assert_eq!(
        err_msg(Array::concatenate(&[&a, &b], 1)),
        "concatenate: shape mismatch: [2, 3, 4] vs [2, 3, 5]"
    );
    assert_eq!(
        Array::concatenate(&[&a, &b], -1).unwrap().shape(),
        &[2, 3, 9]
    );
    let c = ramp(dev, &[2, 3]);
    assert!(err_msg(Array::concatenate(&[&a, &c], 0)).contains("same number of dimensions"));
    assert_eq!(
        err_msg(Array::concatenate(&[&a, &b], 3)),
        "concatenate: axis 3 is out of bounds for an array of dimension 3"
    );
    assert!(Array::<i64, B>::concatenate(&[], 0).is_err());
    let z = Array::<i64, B>::scalar(1, dev).unwrap();
    assert_eq!(
        err_msg(Array::concatenate(&[&z, &z], 0)),
        "concatenate: zero-dimensional arrays cannot be concatenated"
    );
    // Empty pieces.
    let e = Array::<i64, B>::zeros(&[2, 0, 4], dev).unwrap();
    let r = Array::concatenate(&[&e, &a, &e], 1).unwrap();
    assert_array_equal(&r, &a);
    let r = Array::concatenate(&[&e, &e], 0).unwrap();
    assert_eq!(r.shape(), &[4, 0, 4]);
    // Broadcast (zero-stride) pieces.
    let bc = ramp(dev, &[1, 1, 4]).broadcast_to(&[2, 2, 4]).unwrap();
    let r = Array::concatenate(&[&bc, &a], 1).unwrap();
    assert_array_equal(&r.slice(&s![.., ..2]).unwrap(), &bc);
    assert_array_equal(&r.slice(&s![.., 2..]).unwrap(), &a);
    // The one-pass path (axis 0, or only length-1 axes before the axis): pieces above the
    // parallel threshold, a reversed strided view, a broadcast view and empty pieces, each
    // against its own elements.
    let big = ramp(dev, &[300_000]);
    let rev = big.slice(&s![..;-3]).unwrap();
    let none = ramp(dev, &[0]);
    let r = Array::concatenate(&[&none, &big, &rev, &none], 0).unwrap();
    let mut want = big.to_vec().unwrap();
    want.extend(rev.to_vec().unwrap());
    assert_array_equal_vec(&r, &want, &[want.len()]);
    let bc = ramp(dev, &[1, 3]).broadcast_to(&[4, 3]).unwrap();
    let r = Array::concatenate(&[&bc, &ramp(dev, &[2, 3])], 0).unwrap();
    let mut want = [0, 1, 2].repeat(4);
    want.extend(0..6);
    assert_array_equal_vec(&r, &want, &[6, 3]);
    let t = ramp(dev, &[1, 3, 2]).transpose_axes(&[0, 2, 1]).unwrap();
    let r = Array::concatenate(&[&t, &ramp(dev, &[1, 2, 4])], 2).unwrap();
    assert_array_equal_vec(&r, &[0, 2, 4, 0, 1, 2, 3, 1, 3, 5, 4, 5, 6, 7], &[1, 2, 7]);
    let r = Array::concatenate(&[&none, &none], 0).unwrap();
    assert_eq!(r.shape(), &[0]);
    // stack of 0-d arrays and errors.
    let s0 = Array::stack(&[&z, &z.full_like(5).unwrap()], 0).unwrap();
    assert_array_equal_vec(&s0, &[1, 5], &[2]);
    assert_eq!(
        err_msg(Array::stack(&[&a, &b], 0)),
        "stack: shape mismatch: [2, 3, 4] vs [2, 3, 5]"
    );
    assert!(Array::stack(&[&a, &a], 4).is_err());
    assert_eq!(Array::stack(&[&a, &a], -4).unwrap().shape(), &[2, 2, 3, 4]);
    let v = Array::vstack(&[&z, &z]).unwrap();
    assert_eq!(v.shape(), &[2, 1]);
    let h = Array::hstack(&[&z, &z]).unwrap();
    assert_array_equal_vec(&h, &[1, 1], &[2]);
    assert_eq!(Array::dstack(&[&z]).unwrap().shape(), &[1, 1, 1]);
    assert_eq!(z.atleast_3d().shape(), &[1, 1, 1]);
    assert_eq!(ramp(dev, &[5]).atleast_3d().shape(), &[1, 5, 1]);
    assert_eq!(ramp(dev, &[5]).atleast_2d().shape(), &[1, 5]);
}

fn split_and_array_split<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[10, 3]);
    let p = a.array_split(3, 0).unwrap();
    let sizes: Vec<usize> = p.iter().map(|x| x.shape()[0]).collect();
    assert_eq!(sizes, vec![4, 3, 3]);
    let refs: Vec<&Array<i64, B>> = p.iter().collect();
    assert_array_equal(&Array::concatenate(&refs, 0).unwrap(), &a);
    let p = a.split(Sections::Indices(vec![2, -3, 20]), 0).unwrap();
    let sizes: Vec<usize> = p.iter().map(|x| x.shape()[0]).collect();
    assert_eq!(sizes, vec![2, 5, 3, 0]);
    assert_array_equal_vec(&p[2], &[21, 22, 23, 24, 25, 26, 27, 28, 29], &[3, 3]);
    // Decreasing indices give an empty piece, as in NumPy.
    let p = a.split(vec![6, 2], 0).unwrap();
    let sizes: Vec<usize> = p.iter().map(|x| x.shape()[0]).collect();
    assert_eq!(sizes, vec![6, 0, 8]);
    let p = a.t().split(5, 1).unwrap();
    assert_eq!(p.len(), 5);
    assert_array_equal_vec(&p[4], &[24, 27, 25, 28, 26, 29], &[3, 2]);
    let p = a.array_split(4, -1).unwrap();
    let sizes: Vec<usize> = p.iter().map(|x| x.shape()[1]).collect();
    assert_eq!(sizes, vec![1, 1, 1, 0]);
    assert_eq!(
        err_msg(a.split(3, 0)),
        "split: array split does not result in an equal division: axis 0 of length 10 into \
         3 sections"
    );
    assert!(a.split(0, 0).is_err());
    assert_eq!(
        err_msg(a.array_split(0, 0)),
        "array_split: number sections must be larger than 0"
    );
    assert!(a.split(2, 2).is_err());
    let e = Array::<f32, B>::zeros(&[0, 2], dev).unwrap();
    assert_eq!(e.split(3, 0).unwrap().len(), 3);
}

fn flip_roll_edges<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[2, 3]);
    let f = a.flip(Axes::All).unwrap();
    assert!(f.strides().iter().all(|&s| s < 0), "flip is a view");
    assert_array_equal_vec(&f, &[5, 4, 3, 2, 1, 0], &[2, 3]);
    assert_array_equal(&f.flip([0, 1]).unwrap(), &a);
    assert!(a.flip(2).is_err());
    assert!(a.flip([0, 0]).is_err());
    let z = Array::<i64, B>::scalar(4, dev).unwrap();
    assert_eq!(z.flip(Axes::All).unwrap().item().unwrap(), 4);
    assert_eq!(z.roll(3, None).unwrap().item().unwrap(), 4);
    assert!(z.roll(1, Some(0)).is_err());
    let e = Array::<i64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.roll(2, Some(0)).unwrap().shape(), &[0, 3]);
    assert_eq!(e.roll(2, Some(1)).unwrap().shape(), &[0, 3]);
    assert_eq!(e.flip(0).unwrap().shape(), &[0, 3]);
    // Analytic: rolling by the length (or a multiple, or its negative) is the identity.
    assert_array_equal(&a.roll(3, Some(1)).unwrap(), &a);
    assert_array_equal(&a.roll(-6, Some(1)).unwrap(), &a);
    assert_array_equal(&a.roll(1, Some(1)).unwrap(), &a.roll(-2, Some(1)).unwrap());
    assert_array_equal_vec(&a.roll(7, None).unwrap(), &[5, 0, 1, 2, 3, 4], &[2, 3]);
    assert!(a.roll(1, Some(2)).is_err());
}

fn repeat_tile_pad_edges<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev, &[2, 2]);
    assert_eq!(a.repeat(0, Some(0)).unwrap().shape(), &[0, 2]);
    assert_array_equal_vec(
        &a.repeat(vec![2], Some(1)).unwrap(),
        &[0, 0, 1, 1, 2, 2, 3, 3],
        &[2, 4],
    );
    assert_eq!(
        err_msg(a.repeat(vec![1, 2, 3], Some(0))),
        "repeat: operands could not be broadcast together with shapes [2] and [3]"
    );
    assert!(a.repeat(1, Some(2)).is_err());
    let z = Array::<i64, B>::scalar(7, dev).unwrap();
    assert_array_equal_vec(&z.repeat(3, None).unwrap(), &[7, 7, 7], &[3]);
    assert_array_equal_vec(&z.tile(&[2, 2]).unwrap(), &[7; 4], &[2, 2]);
    assert_eq!(z.tile(&[]).unwrap().ndim(), 0);
    assert_eq!(a.tile(&[0, 3]).unwrap().shape(), &[0, 6]);
    assert_array_equal(&a.tile(&[]).unwrap(), &a);
    // Tiling a broadcast view.
    let bc = ramp(dev, &[2]).broadcast_to(&[2, 2]).unwrap();
    assert_array_equal_vec(
        &bc.tile(&[1, 2]).unwrap(),
        &[0, 1, 0, 1, 0, 1, 0, 1],
        &[2, 4],
    );
    let p = z.pad_constant(&[], 0).unwrap();
    assert_eq!(p.item().unwrap(), 7);
    let e = Array::<i64, B>::zeros(&[0, 2], dev).unwrap();
    assert_array_equal_vec(&e.pad_constant(&[(1, 0)], 9).unwrap(), &[9, 9, 9], &[1, 3]);
    assert_eq!(
        err_msg(a.pad_constant(&[(1, 1), (1, 1), (1, 1)], 0)),
        "pad: pad_width has 3 (before, after) pairs for an array of shape [2, 2] (expected 1 \
         or 2)"
    );
    // NaN and infinities as pad values.
    let f = Array::<f64, B>::ones(&[1], dev).unwrap();
    let p = f
        .pad_constant(&[(1, 1)], f64::NAN)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(p[0].is_nan() && p[1] == 1.0 && p[2].is_nan());
    let p = f.pad_constant(&[(0, 1)], f64::NEG_INFINITY).unwrap();
    assert_eq!(p.to_vec().unwrap(), vec![1.0, f64::NEG_INFINITY]);
}

cuprite::test_backends!(
    fixtures_every_dtype,
    stack_three_with_nan,
    squeeze_expand_swap_move,
    broadcast_arrays_views,
    concatenate_errors_and_edges,
    split_and_array_split,
    flip_roll_edges,
    repeat_tile_pad_edges,
);
