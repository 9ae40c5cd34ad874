//! Helpers shared by the GPU tests of every kernel family: the device under test and
//! element-wise equality that treats NaN as equal to NaN.

use crate::Cuda;
use cuprite_core::Element;

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
