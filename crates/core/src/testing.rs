//! Test helpers that compare arrays of any backend (NumPy's `assert_allclose` and
//! `assert_array_equal`). Both download the arrays explicitly and report the worst element,
//! its index and both values.

use crate::array::Array;
use crate::backend::BackendBase;
use crate::dtype::{Element, Scalar};

/// Converts an element to (re, im) in f64 for comparisons.
fn parts<T: Element>(x: T) -> (f64, f64) {
    match x.to_scalar() {
        Scalar::Bool(v) => (v as u8 as f64, 0.0),
        Scalar::I8(v) => (v as f64, 0.0),
        Scalar::U8(v) => (v as f64, 0.0),
        Scalar::I16(v) => (v as f64, 0.0),
        Scalar::U16(v) => (v as f64, 0.0),
        Scalar::I32(v) => (v as f64, 0.0),
        Scalar::U32(v) => (v as f64, 0.0),
        Scalar::I64(v) => (v as f64, 0.0),
        Scalar::U64(v) => (v as f64, 0.0),
        Scalar::F16(v) => (v.to_f64(), 0.0),
        Scalar::BF16(v) => (v.to_f64(), 0.0),
        Scalar::F32(v) => (v as f64, 0.0),
        Scalar::F64(v) => (v, 0.0),
        Scalar::C64(v) => (v.re as f64, v.im as f64),
        Scalar::C128(v) => (v.re, v.im),
    }
}

fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for (i, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            idx[i] = flat % d;
            flat /= d;
        }
    }
    idx
}

/// By how much one real part `a` misses `d` (0 when within `atol + rtol * |d|`; infinite
/// when one is infinite and they differ).
fn component_excess(a: f64, d: f64, rtol: f64, atol: f64) -> f64 {
    if a == d {
        return 0.0;
    }
    if a.is_infinite() || d.is_infinite() {
        return f64::INFINITY;
    }
    ((a - d).abs() - (atol + rtol * d.abs())).max(0.0)
}

/// Compares host data with NumPy's `allclose` rule `|a - d| <= atol + rtol * |d|`, NaN equal
/// to NaN and infinities equal when of the same sign. A complex value with an infinite part
/// is compared part by part: the infinite parts exactly, the finite ones by the same rule. Returns a report of the worst mismatch.
pub fn check_allclose_slices<T: Element>(
    actual: &[T],
    desired: &[T],
    shape: &[usize],
    rtol: f64,
    atol: f64,
) -> Result<(), String> {
    if actual.len() != desired.len() {
        return Err(format!(
            "sizes differ: actual has {} elements, desired {}",
            actual.len(),
            desired.len()
        ));
    }
    let mut worst: Option<(usize, f64)> = None;
    let mut bad = 0usize;
    for (i, (&a, &d)) in actual.iter().zip(desired).enumerate() {
        let (ar, ai) = parts(a);
        let (dr, di) = parts(d);
        let an = ar.is_nan() || ai.is_nan();
        let dn = dr.is_nan() || di.is_nan();
        let excess = if an || dn {
            if an && dn { 0.0 } else { f64::INFINITY }
        } else if (ar, ai) == (dr, di) {
            0.0
        } else if ar.is_infinite() || ai.is_infinite() || dr.is_infinite() || di.is_infinite() {
            // An infinite part must match exactly; the other part is compared on its own.
            component_excess(ar, dr, rtol, atol).max(component_excess(ai, di, rtol, atol))
        } else {
            let diff = (ar - dr).hypot(ai - di);
            let tol = atol + rtol * dr.hypot(di);
            if diff.is_nan() || diff > tol {
                if diff.is_nan() {
                    f64::INFINITY
                } else {
                    diff - tol
                }
            } else {
                0.0
            }
        };
        if excess > 0.0 {
            bad += 1;
            if worst.is_none_or(|(_, w)| excess > w) {
                worst = Some((i, excess));
            }
        }
    }
    match worst {
        None => Ok(()),
        Some((i, _)) => Err(format!(
            "not close (rtol={rtol:e}, atol={atol:e}): {bad} of {} elements differ; worst at \
             index {:?}: actual {:?}, desired {:?}",
            actual.len(),
            unravel(i, shape),
            actual[i],
            desired[i]
        )),
    }
}

/// Like [`assert_allclose`] but returns the report instead of panicking.
pub fn check_allclose<T: Element, B1: BackendBase, B2: BackendBase>(
    actual: &Array<T, B1>,
    desired: &Array<T, B2>,
    rtol: f64,
    atol: f64,
) -> Result<(), String> {
    if actual.shape() != desired.shape() {
        return Err(format!(
            "shapes differ: actual {:?}, desired {:?}",
            actual.shape(),
            desired.shape()
        ));
    }
    let a = actual.to_vec().map_err(|e| e.to_string())?;
    let d = desired.to_vec().map_err(|e| e.to_string())?;
    check_allclose_slices(&a, &d, actual.shape(), rtol, atol)
}

/// Panics unless `actual` and `desired` (any backends) have the same shape and every pair of
/// elements satisfies `|a - d| <= atol + rtol * |d|` (NaN equals NaN).
///
/// ```
/// use cuprite_core::testing::check_allclose_slices;
/// assert!(check_allclose_slices(&[1.0, f64::NAN], &[1.0 + 1e-9, f64::NAN], &[2], 1e-7, 0.0).is_ok());
/// assert!(check_allclose_slices(&[1.0], &[1.1], &[1], 1e-7, 0.0).is_err());
/// ```
#[track_caller]
pub fn assert_allclose<T: Element, B1: BackendBase, B2: BackendBase>(
    actual: &Array<T, B1>,
    desired: &Array<T, B2>,
    rtol: f64,
    atol: f64,
) {
    if let Err(msg) = check_allclose(actual, desired, rtol, atol) {
        panic!("assert_allclose: {msg}");
    }
}

/// Panics unless `actual` has shape `shape` and its elements are close to `desired`.
#[track_caller]
pub fn assert_allclose_vec<T: Element, B: BackendBase>(
    actual: &Array<T, B>,
    desired: &[T],
    shape: &[usize],
    rtol: f64,
    atol: f64,
) {
    if actual.shape() != shape {
        panic!(
            "assert_allclose: shapes differ: actual {:?}, desired {shape:?}",
            actual.shape()
        );
    }
    let a = actual
        .to_vec()
        .unwrap_or_else(|e| panic!("assert_allclose: {e}"));
    if let Err(msg) = check_allclose_slices(&a, desired, shape, rtol, atol) {
        panic!("assert_allclose: {msg}");
    }
}

/// Panics unless `actual` and `desired` (any backends) have the same shape and equal
/// elements (NaN equals NaN).
#[track_caller]
pub fn assert_array_equal<T: Element, B1: BackendBase, B2: BackendBase>(
    actual: &Array<T, B1>,
    desired: &Array<T, B2>,
) {
    if let Err(msg) = check_allclose(actual, desired, 0.0, 0.0) {
        panic!("assert_array_equal: {msg}");
    }
}

/// Panics unless `actual` has shape `shape` and exactly the elements `desired`.
#[track_caller]
pub fn assert_array_equal_vec<T: Element, B: BackendBase>(
    actual: &Array<T, B>,
    desired: &[T],
    shape: &[usize],
) {
    assert_allclose_vec(actual, desired, shape, 0.0, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{c64, c128};

    #[test]
    fn real_rule_and_nan() {
        let d = [1.0, f64::NAN, f64::INFINITY, -0.0];
        assert!(
            check_allclose_slices(
                &[1.0 + 1e-13, f64::NAN, f64::INFINITY, 0.0],
                &d,
                &[4],
                1e-12,
                0.0
            )
            .is_ok()
        );
        assert!(
            check_allclose_slices(
                &[1.0 + 1e-11, f64::NAN, f64::INFINITY, 0.0],
                &d,
                &[4],
                1e-12,
                0.0
            )
            .is_err()
        );
        assert!(
            check_allclose_slices(&[1.0, 0.0, f64::INFINITY, 0.0], &d, &[4], 1e-12, 0.0).is_err()
        );
        assert!(
            check_allclose_slices(
                &[1.0, f64::NAN, f64::NEG_INFINITY, 0.0],
                &d,
                &[4],
                1e-12,
                0.0
            )
            .is_err()
        );
    }

    #[test]
    fn complex_with_an_infinite_part_is_compared_part_by_part() {
        let d = [c128::new(f64::INFINITY, -1.3875258158476589)];
        let close = [c128::new(f64::INFINITY, -1.3875258158476598)];
        assert!(check_allclose_slices(&close, &d, &[1], 1e-12, 0.0).is_ok());
        let far = [c128::new(f64::INFINITY, -1.38)];
        let msg = check_allclose_slices(&far, &d, &[1], 1e-12, 0.0).unwrap_err();
        assert!(msg.contains("1 of 1"), "{msg}");
        let flipped = [c128::new(f64::NEG_INFINITY, -1.3875258158476589)];
        assert!(check_allclose_slices(&flipped, &d, &[1], 1e-12, 0.0).is_err());
        let f = [c64::new(1.0, f32::INFINITY)];
        assert!(
            check_allclose_slices(&f, &[c64::new(1.0 + 1e-7, f32::INFINITY)], &[1], 1e-6, 0.0)
                .is_ok()
        );
    }
}
