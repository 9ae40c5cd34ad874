//! `apply_along_axis`, `apply_over_axes`, `asfortranarray` and `asarray_chkfinite` on every
//! backend, against NumPy (`scripts/fixtures/apply.py`) and by their definitions.

use crate::common;

use common::fixture_vec;
use cuprite::prelude::*;

const TOPIC: &str = "apply";

fn check<B: ArrayBackend>(x: Result<Array<f64, B>>, name: &str) {
    let x = x.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<f64>(TOPIC, name);
    assert_eq!(x.shape(), &shape[..], "{name}: shape");
    assert_eq!(x.to_vec().unwrap(), want, "{name}");
}

fn ramp<B: ArrayBackend>(dev: &B) -> Array<f64, B> {
    Array::<f64, B>::ramp(24, -5.5, 1.0, dev)
        .unwrap()
        .reshape(&[2, 3, 4])
        .unwrap()
}

fn along_and_over_axes<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev);
    let w = Array::<f64, B>::from_vec(vec![1.0, -2.0], &[2], dev).unwrap();
    for axis in [0isize, 1, 2, -1] {
        check(
            a.apply_along_axis(axis, |r| r.sum()),
            &format!("sum_axis{axis}"),
        );
        check(
            a.apply_along_axis(axis, |r| r.cumsum(None)),
            &format!("cumsum_axis{axis}"),
        );
        check(
            a.apply_along_axis(axis, |r| r.outer(&w)),
            &format!("outer_axis{axis}"),
        );
        check(
            a.apply_along_axis(axis, |r| r.slice(&s![..2])),
            &format!("head2_axis{axis}"),
        );
    }
    // A transposed (strided) input gives the transposed input's answer.
    let t = a.permute_dims(&[2, 1, 0]).unwrap();
    let want = a.sum_axes(1, false).unwrap().t().to_vec().unwrap();
    assert_eq!(
        t.apply_along_axis(1, |r| r.sum())
            .unwrap()
            .to_vec()
            .unwrap(),
        want
    );
    check(
        a.apply_over_axes(&[0, 2], |x, ax| x.sum_axes(ax, false)),
        "over_sum_0_2",
    );
    check(
        a.apply_over_axes(&[1], |x, ax| x.max_axes(ax, false)),
        "over_max_1",
    );
    check(
        a.apply_over_axes(&[2, 0], |x, ax| x.cumsum(Some(ax))),
        "over_cumsum_2_0",
    );
    // Errors: results of two shapes, an empty iteration, a bad axis, a 0-d array, a result
    // of the wrong rank, and the function's own error passed through.
    let mut k = 0;
    let err = a
        .apply_along_axis(2, |r| {
            k += 1;
            r.slice(&s![..(k % 2 + 1)])
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("apply_along_axis") && err.contains("differ in shape"),
        "{err}"
    );
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert!(e.apply_along_axis(1, |r| r.sum()).is_err());
    assert!(a.apply_along_axis(3, |r| r.sum()).is_err());
    assert!(Array::<f64, B>::scalar(1.0, dev)
        .unwrap()
        .apply_along_axis(0, |r| r.sum())
        .is_err());
    let err = a
        .apply_over_axes(&[0], |x, _| x.sum())
        .unwrap_err()
        .to_string();
    assert!(err.contains("apply_over_axes"), "{err}");
    let err = a
        .apply_along_axis(0, |r| r.reshape(&[7]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("reshape") || err.contains("7"), "{err}");
}

fn fortran_order_and_finite_checks<B: ArrayBackend>(dev: &B) {
    let a = ramp(dev);
    let f = a.asfortranarray().unwrap();
    assert_eq!(f.to_vec().unwrap(), a.to_vec().unwrap());
    assert_eq!(f.strides(), &[1, 2, 6]);
    // Already Fortran-ordered: shared, not copied again.
    let g = f.asfortranarray().unwrap();
    assert_eq!(g.strides(), &[1, 2, 6]);
    let v = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev).unwrap();
    assert_eq!(v.asfortranarray().unwrap().to_vec().unwrap(), vec![1, 2, 3]);
    let z = Array::<c64, B>::scalar(c64::new(1.0, 2.0), dev).unwrap();
    assert_eq!(z.asfortranarray().unwrap().shape(), &[] as &[usize]);

    assert!(a.asarray_chkfinite().is_ok());
    assert!(v.asarray_chkfinite().is_ok());
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let x = Array::<f64, B>::from_vec(vec![0.0, bad, -0.0], &[3], dev).unwrap();
        let err = x.asarray_chkfinite().unwrap_err().to_string();
        assert!(
            err.contains("asarray_chkfinite") && err.contains("1 of 3"),
            "{err}"
        );
    }
    let c = Array::<c64, B>::from_vec(vec![c64::new(0.0, f32::NAN)], &[1], dev).unwrap();
    assert!(c.asarray_chkfinite().is_err());
    let h = Array::<f16, B>::from_vec(vec![f16::INFINITY], &[1], dev).unwrap();
    assert!(h.asarray_chkfinite().is_err());
    assert!(Array::<f32, B>::zeros(&[0], dev)
        .unwrap()
        .asarray_chkfinite()
        .is_ok());
}

cuprite::test_backends!(along_and_over_axes, fortran_order_and_finite_checks);
