//! Zero-copy `ndarray` interop on `Cpu` (`NdarrayCpuExt`): views of cuprite arrays and
//! cuprite arrays over ndarray's vectors share memory (pointer equality), for contiguous,
//! transposed, negative-step, broadcast, empty and 0-d layouts, with the values of the
//! copying path (`to_ndarray` / `from_ndarray`); a mutable view copies on write.

#![cfg(feature = "cpu")]

use cuprite::prelude::*;
use ndarray::{array, s as nd_s, ArrayD, Axis, IxDyn};

/// A few views of `a` of shape [3, 4] with every kind of stride.
fn views(a: &Array<i32, Cpu>) -> Vec<Array<i32, Cpu>> {
    vec![
        a.clone(),
        a.t(),
        a.slice(&s![..;-1, 1..;2]).unwrap(),
        a.slice(&s![1, ..;-1]).unwrap(),
        a.slice(&s![2, 3]).unwrap(),
        a.slice(&s![.., 2..2]).unwrap(),
        a.slice(&s![0, ..]).unwrap().broadcast_to(&[2, 4]).unwrap(),
        a.slice(&s![NEW_AXIS, ..;2, ELLIPSIS]).unwrap(),
    ]
}

#[test]
fn views_share_memory_and_match_the_copying_path() {
    let a = Array::<i32, Cpu>::from_vec((0..12).collect(), &[3, 4], &Cpu).unwrap();
    let base = a.buffer().as_slice().as_ptr();
    for v in views(&a) {
        let nd = v.as_ndarray().unwrap();
        assert_eq!(nd, v.to_ndarray().unwrap(), "values of {:?}", v.shape());
        assert_eq!(nd.shape(), v.shape());
        assert_eq!(nd.strides(), v.strides());
        if v.size() > 0 {
            let first = base.wrapping_add(v.layout().offset());
            assert_eq!(nd.as_ptr(), first, "no copy for {:?}", v.shape());
        }
    }
    // Literal values: NumPy's a[::-1, 1::2] and a[1, ::-1].
    let v = a.slice(&s![..;-1, 1..;2]).unwrap();
    assert_eq!(
        v.as_ndarray().unwrap(),
        array![[9, 11], [5, 7], [1, 3]].into_dyn()
    );
    let v = a.slice(&s![1, ..;-1]).unwrap();
    assert_eq!(v.as_ndarray().unwrap(), array![7, 6, 5, 4].into_dyn());
}

#[test]
fn a_mutable_view_writes_only_its_own_array() {
    let mut a =
        Array::<f64, Cpu>::from_vec((0..6).map(f64::from).collect(), &[2, 3], &Cpu).unwrap();
    let ptr = a.buffer().as_slice().as_ptr();
    // Unshared: written in place.
    a.as_ndarray_mut().unwrap()[[1usize, 2]] = 50.0;
    assert_eq!(a.buffer().as_slice().as_ptr(), ptr);
    assert_eq!(a.to_vec().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 50.0]);
    // Shared with a clone: copied first, the clone keeps its values.
    let before = a.clone();
    let mut t = a.slice(&s![.., ..;-1]).unwrap().t();
    t.as_ndarray_mut()
        .unwrap()
        .index_axis_mut(Axis(0), 0)
        .fill(-1.0);
    assert_eq!(
        t.to_ndarray().unwrap(),
        array![[-1.0, -1.0], [1.0, 4.0], [0.0, 3.0]].into_dyn()
    );
    assert_ne!(t.buffer().as_slice().as_ptr(), ptr);
    assert_eq!(before.to_vec().unwrap(), a.to_vec().unwrap());
    assert_eq!(a.to_vec().unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 50.0]);
    // A broadcast view reaches elements twice: an error, not a view.
    let mut b = a.slice(&s![0, ..]).unwrap().broadcast_to(&[4, 3]).unwrap();
    let e = b.as_ndarray_mut().unwrap_err();
    assert!(e.to_string().contains("broadcast view is read-only"), "{e}");
    // Empty and 0-d views.
    let mut e = Array::<f64, Cpu>::zeros(&[0, 3], &Cpu).unwrap();
    assert_eq!(e.as_ndarray_mut().unwrap().len(), 0);
    let mut z = a.slice(&s![1, 1]).unwrap();
    z.as_ndarray_mut().unwrap().fill(7.0);
    assert_eq!(z.item().unwrap(), 7.0);
    assert_eq!(a.slice(&s![1, 1]).unwrap().item().unwrap(), 4.0);
}

/// An array over `m`'s vector: no copy, the values of the copying `from_ndarray`.
fn takes_over(m: ArrayD<i64>) {
    let copied = Array::<i64, Cpu>::from_ndarray(&m, &Cpu).unwrap();
    let first = m.as_ptr();
    let (shape, strides) = (m.shape().to_vec(), m.strides().to_vec());
    let a = Array::<i64, Cpu>::from_ndarray_owned(m).unwrap();
    assert_eq!((a.shape(), a.strides()), (&shape[..], &strides[..]));
    assert_eq!(a.to_vec().unwrap(), copied.to_vec().unwrap());
    if a.size() > 0 {
        assert_eq!(a.as_ndarray().unwrap().as_ptr(), first, "no copy");
    }
}

#[test]
fn owned_ndarray_arrays_become_buffers_without_copies() {
    let m = ArrayD::from_shape_vec(IxDyn(&[2, 3, 4]), (0..24).collect()).unwrap();
    takes_over(m.clone());
    takes_over(m.clone().reversed_axes());
    let mut neg = m.clone();
    neg.invert_axis(Axis(1));
    neg.invert_axis(Axis(2));
    takes_over(neg);
    let mut sliced = m.clone();
    sliced.slice_collapse(nd_s![1.., ..;2, 1..;-2]);
    takes_over(sliced.clone());
    takes_over(m.clone().permuted_axes(IxDyn(&[2, 0, 1])));
    takes_over(ArrayD::from_shape_vec(IxDyn(&[3, 0]), vec![]).unwrap());
    takes_over(ArrayD::from_elem(IxDyn(&[]), 42));
    let mut empty_slice = m.clone();
    empty_slice.slice_collapse(nd_s![.., 2..2, ..]);
    takes_over(empty_slice);
    // Literal values: in ndarray a negative step walks its range from the end, so
    // `1..;-2` of an axis of 4 takes [3, 1]: m[1, [0, 2], [3, 1]] = [[15, 13], [23, 21]].
    let a = Array::<i64, Cpu>::from_ndarray_owned(sliced).unwrap();
    assert_eq!(a.shape(), &[1, 2, 2]);
    assert_eq!(a.to_vec().unwrap(), vec![15, 13, 23, 21]);
}

#[test]
fn ndarray_views_of_an_owned_import_round_trip() {
    let m = array![[1u8, 2, 3], [4, 5, 6]];
    let p = m.as_ptr();
    let mut a = Array::<u8, Cpu>::from_ndarray_owned(m.t().to_owned()).unwrap();
    assert_eq!(a.as_ndarray().unwrap(), m.t().into_dyn());
    let q = a.as_ndarray().unwrap().as_ptr();
    assert_ne!(p, q, "to_owned made a new vector, which the array now uses");
    a.as_ndarray_mut()
        .unwrap()
        .index_axis_mut(Axis(1), 0)
        .fill(0);
    assert_eq!(
        a.as_ndarray().unwrap().as_ptr(),
        q,
        "unshared: written in place"
    );
    assert_eq!(a.to_vec().unwrap(), vec![0, 4, 0, 5, 0, 6]);
}
