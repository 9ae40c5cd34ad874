//! Helpers shared by the GPU tests of every kernel family: the device under test and
//! element-wise equality that treats NaN as equal to NaN, and distinct values of any type.

use crate::Cuda;
use cuprite_core::{c128, DType, Element, Scalar};

/// The first GPU, or `None` (printing why) when there is none.
pub(crate) fn gpu() -> Option<Cuda> {
    match Cuda::new(0) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// Equal, or both NaN.
pub(crate) fn same<T: Element>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan_value() && y.is_nan_value()))
}

/// Panics naming the first difference.
#[track_caller]
pub(crate) fn assert_same<T: Element>(got: &[T], want: &[T], what: &str) {
    if !same(got, want) {
        let i = got.iter().zip(want).position(|(x, y)| !same(&[*x], &[*y]));
        panic!(
            "{what} ({}): lengths {} / {}, first difference at {i:?}: {:?} vs {:?}",
            T::DTYPE,
            got.len(),
            want.len(),
            i.map(|i| got[i]),
            i.map(|i| want[i])
        );
    }
}

/// Distinct-ish values of any type.
pub(crate) fn vals<T: Element>(n: usize, seed: usize) -> Vec<T> {
    (0..n)
        .map(|i| {
            let i = i + seed;
            match T::DTYPE {
                DType::Bool => T::from_scalar(Scalar::Bool(i % 3 == 1)),
                d if d.is_integer() => T::from_scalar(Scalar::I64((i * 37 % 251) as i64)),
                _ => T::from_scalar(Scalar::C128(c128::new(
                    i as f64 * 0.37 - 50.0,
                    i as f64 + 0.5,
                ))),
            }
        })
        .collect()
}
