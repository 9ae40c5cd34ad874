//! Slicing arguments and the [`s!`](crate::s) macro: Python-style ranges with steps
//! (negative included), single indices, new axes and an ellipsis.

use crate::error::{Error, Result};
use crate::layout::Layout;

/// One component of a slice: a range with a step, an index, a new axis or an ellipsis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceArg {
    /// `start..stop;step` with Python semantics (negative values count from the end,
    /// out-of-range bounds are clamped, `None` means "from the edge").
    Range {
        start: Option<isize>,
        stop: Option<isize>,
        step: isize,
    },
    /// A single index (negative counts from the end); removes the axis.
    Index(isize),
    /// Inserts an axis of length 1 (NumPy's `np.newaxis`).
    NewAxis,
    /// Stands for as many full ranges as needed (NumPy's `...`).
    Ellipsis,
}

/// `np.newaxis` for [`s!`](crate::s).
pub const NEW_AXIS: SliceArg = SliceArg::NewAxis;
/// `...` for [`s!`](crate::s).
pub const ELLIPSIS: SliceArg = SliceArg::Ellipsis;

impl SliceArg {
    /// Sets the step of a range (used by `s![a..b;step]`).
    pub fn step_by(self, step: isize) -> SliceArg {
        match self {
            SliceArg::Range { start, stop, .. } => SliceArg::Range { start, stop, step },
            other => other,
        }
    }
}

/// The one past `end` of an inclusive range; `isize::MAX` for `isize::MAX`, which selects the
/// same elements of any axis (every length fits in `isize`).
fn inclusive_stop(end: isize) -> Option<isize> {
    if end == -1 {
        None
    } else {
        Some(end.saturating_add(1))
    }
}

macro_rules! impl_slice_from {
    ($($t:ty),*) => {$(
        impl From<$t> for SliceArg {
            fn from(i: $t) -> Self { SliceArg::Index(to_isize(i)) }
        }
        impl From<std::ops::Range<$t>> for SliceArg {
            fn from(r: std::ops::Range<$t>) -> Self {
                SliceArg::Range {
                    start: Some(to_isize(r.start)),
                    stop: Some(to_isize(r.end)),
                    step: 1,
                }
            }
        }
        impl From<std::ops::RangeInclusive<$t>> for SliceArg {
            fn from(r: std::ops::RangeInclusive<$t>) -> Self {
                SliceArg::Range {
                    start: Some(to_isize(*r.start())),
                    stop: inclusive_stop(to_isize(*r.end())),
                    step: 1,
                }
            }
        }
        impl From<std::ops::RangeFrom<$t>> for SliceArg {
            fn from(r: std::ops::RangeFrom<$t>) -> Self {
                SliceArg::Range { start: Some(to_isize(r.start)), stop: None, step: 1 }
            }
        }
        impl From<std::ops::RangeTo<$t>> for SliceArg {
            fn from(r: std::ops::RangeTo<$t>) -> Self {
                SliceArg::Range { start: None, stop: Some(to_isize(r.end)), step: 1 }
            }
        }
        impl From<std::ops::RangeToInclusive<$t>> for SliceArg {
            fn from(r: std::ops::RangeToInclusive<$t>) -> Self {
                SliceArg::Range { start: None, stop: inclusive_stop(to_isize(r.end)), step: 1 }
            }
        }
    )*};
}

/// An index or bound as `isize`; values above `isize::MAX` (a huge `usize`) become
/// `isize::MAX`, which is past the end of every axis, as the exact value would be.
fn to_isize<T: TryInto<isize>>(v: T) -> isize {
    v.try_into().unwrap_or(isize::MAX)
}
impl_slice_from!(i32, i64, isize, usize);

impl From<std::ops::RangeFull> for SliceArg {
    fn from(_: std::ops::RangeFull) -> Self {
        SliceArg::Range {
            start: None,
            stop: None,
            step: 1,
        }
    }
}

/// Builds an array of [`SliceArg`]s from NumPy-like slice syntax (pass it as `&s![..]`).
///
/// `a..b`, `a..`, `..b`, `..`, `a..=b`, a step after `;` (`..;-1` reverses), an integer index,
/// [`NEW_AXIS`] and [`ELLIPSIS`].
///
/// ```
/// use cuprite_core::{s, SliceArg, NEW_AXIS, ELLIPSIS};
/// let args = s![1..4;2, -1, NEW_AXIS, ..;-1, ELLIPSIS];
/// assert_eq!(args.len(), 5);
/// assert_eq!(args[1], SliceArg::Index(-1));
/// ```
#[macro_export]
macro_rules! s {
    ($($r:expr $(; $step:expr)?),* $(,)?) => {
        [$( $crate::SliceArg::from($r)$(.step_by($step as isize))? ),*]
    };
}

/// Applies slice arguments to a layout (NumPy basic indexing).
pub fn apply_slice(layout: &Layout, args: &[SliceArg]) -> Result<Layout> {
    const OP: &str = "slice";
    let consumed = args
        .iter()
        .filter(|a| matches!(a, SliceArg::Range { .. } | SliceArg::Index(_)))
        .count();
    let ellipses = args.iter().filter(|a| **a == SliceArg::Ellipsis).count();
    if ellipses > 1 {
        return Err(Error::invalid(
            OP,
            "an index can only have a single ellipsis",
        ));
    }
    if consumed > layout.ndim() {
        return Err(Error::invalid(
            OP,
            format!(
                "too many indices: array is {}-dimensional, but {consumed} were indexed (shape {:?})",
                layout.ndim(),
                layout.shape()
            ),
        ));
    }
    // Arguments past the ones given select whole axes (`..`), as an ellipsis does; the
    // layout is narrowed in place, argument by argument.
    let fill = layout.ndim() - consumed;
    let mut out = layout.clone();
    let mut axis = 0usize; // position in `out`
    let whole = SliceArg::from(..);
    let trailing = if ellipses == 0 { fill } else { 0 };
    let expanded = args
        .iter()
        .flat_map(|a| {
            let n = if *a == SliceArg::Ellipsis { fill } else { 1 };
            std::iter::repeat_n(if *a == SliceArg::Ellipsis { whole } else { *a }, n)
        })
        .chain(std::iter::repeat_n(whole, trailing));
    for a in expanded {
        match a {
            SliceArg::NewAxis => {
                out.insert_axis_in_place(axis);
                axis += 1;
            }
            SliceArg::Index(i) => {
                let n = out.shape()[axis];
                let idx = if i < 0 { i + n as isize } else { i };
                if idx < 0 || idx >= n as isize {
                    return Err(Error::IndexOutOfRange {
                        op: OP,
                        index: i as i64,
                        axis,
                        size: n,
                    });
                }
                out.index_axis_in_place(axis, idx as usize);
            }
            SliceArg::Range { start, stop, step } => {
                let n = out.shape()[axis];
                let (s, len) = range_indices(OP, n, start, stop, step)?;
                out.slice_axis_in_place(axis, s, len, step);
                axis += 1;
            }
            SliceArg::Ellipsis => unreachable!("ellipsis expanded above"),
        }
    }
    Ok(out)
}

/// Python's `slice.indices`: the first index and the number of elements selected, for every
/// `isize` start, stop and step (the arithmetic is done in `i128`, so steps and bounds near
/// `isize::MIN`/`isize::MAX` select what NumPy selects).
///
/// ```
/// use cuprite_core::slice::range_indices;
/// assert_eq!(range_indices("t", 10, None, None, isize::MAX).unwrap(), (0, 1));
/// assert_eq!(range_indices("t", 10, None, None, isize::MIN).unwrap(), (9, 1));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a zero step.
pub fn range_indices(
    op: &'static str,
    n: usize,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> Result<(usize, usize)> {
    if step == 0 {
        return Err(Error::invalid(op, "slice step cannot be zero"));
    }
    let n = n as i128;
    let step = step as i128;
    let norm = |v: isize| {
        let v = v as i128;
        if v < 0 { v + n } else { v }
    };
    let (s, e) = if step > 0 {
        (
            start.map_or(0, |v| norm(v).clamp(0, n)),
            stop.map_or(n, |v| norm(v).clamp(0, n)),
        )
    } else {
        (
            start.map_or(n - 1, |v| norm(v).clamp(-1, n - 1)),
            stop.map_or(-1, |v| norm(v).clamp(-1, n - 1)),
        )
    };
    let len = if step > 0 && e > s {
        (e - s + step - 1) / step
    } else if step < 0 && s > e {
        (s - e - step - 1) / -step
    } else {
        0
    };
    // 0 <= s < n whenever len > 0, and len <= n.
    Ok((if len > 0 { s as usize } else { 0 }, len as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_slice_semantics() {
        assert_eq!(range_indices("t", 10, Some(2), Some(8), 3).unwrap(), (2, 2));
        assert_eq!(range_indices("t", 10, None, None, -1).unwrap(), (9, 10));
        assert_eq!(range_indices("t", 10, Some(-3), None, 1).unwrap(), (7, 3));
        assert_eq!(range_indices("t", 10, Some(20), None, 1).unwrap(), (0, 0));
        assert_eq!(range_indices("t", 5, Some(3), Some(0), -2).unwrap(), (3, 2));
        assert!(range_indices("t", 5, None, None, 0).is_err());
    }

    /// Values from Python's `slice(start, stop, step).indices(n)` and `len(range(...))`
    /// (CPython 3.11), for bounds and steps at the ends of `isize`.
    #[test]
    fn extreme_bounds_and_steps() {
        const MAX: isize = isize::MAX;
        const MIN: isize = isize::MIN;
        // (length, start, stop, step, NumPy's (first index, count)).
        type Case = (usize, Option<isize>, Option<isize>, isize, (usize, usize));
        let cases: [Case; 16] = [
            (10, None, None, MAX, (0, 1)),
            (10, None, None, MIN, (9, 1)),
            (10, None, None, -MAX, (9, 1)),
            (3, None, None, MIN, (2, 1)),
            (3, None, None, MAX, (0, 1)),
            (10, Some(MIN), Some(MAX), 1, (0, 10)),
            (10, Some(MAX), Some(MIN), -1, (9, 10)),
            (10, Some(MIN), Some(MAX), MAX, (0, 1)),
            (10, Some(MAX), Some(MIN), MIN, (9, 1)),
            (10, Some(1), None, MAX, (1, 1)),
            (10, Some(5), None, MIN, (5, 1)),
            (10, Some(MIN), None, -1, (0, 0)),
            (10, None, Some(MIN), -1, (9, 10)),
            (10, Some(MAX), None, 1, (0, 0)),
            (10, None, Some(MAX), -1, (0, 0)),
            (0, Some(MIN), Some(MAX), MIN, (0, 0)),
        ];
        for (n, start, stop, step, want) in cases {
            assert_eq!(
                range_indices("t", n, start, stop, step).unwrap(),
                want,
                "n={n} {start:?}:{stop:?}:{step}"
            );
        }
        // The largest possible axis.
        let big = isize::MAX as usize;
        assert_eq!(
            range_indices("t", big, None, None, 2).unwrap(),
            (0, big / 2 + 1)
        );
        assert_eq!(
            range_indices("t", big, None, None, -1).unwrap(),
            (big - 1, big)
        );
        assert_eq!(
            range_indices("t", big, Some(MIN), Some(MAX), MAX).unwrap(),
            (0, 1)
        );
    }

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // `0..=-1` is a slice argument here
    fn huge_indices_and_inclusive_ends_do_not_wrap() {
        assert_eq!(SliceArg::from(usize::MAX), SliceArg::Index(isize::MAX));
        let full = |stop| SliceArg::Range {
            start: Some(0),
            stop,
            step: 1,
        };
        assert_eq!(SliceArg::from(0..usize::MAX), full(Some(isize::MAX)));
        assert_eq!(SliceArg::from(0..=isize::MAX), full(Some(isize::MAX)));
        assert_eq!(SliceArg::from(0..=usize::MAX), full(Some(isize::MAX)));
        assert_eq!(SliceArg::from(0..=-1), full(None));
        let l = Layout::contiguous(&[4]);
        assert!(apply_slice(&l, &s![usize::MAX]).is_err());
        assert_eq!(apply_slice(&l, &s![1..=isize::MAX]).unwrap().shape(), &[3]);
        assert_eq!(apply_slice(&l, &s![..=usize::MAX]).unwrap().shape(), &[4]);
    }

    #[test]
    fn slices_compose_into_layouts() {
        let l = Layout::contiguous(&[4, 5, 6]);
        let v = apply_slice(&l, &s![1, ..;-2, NEW_AXIS, 2..]).unwrap();
        assert_eq!(v.shape(), &[3, 1, 4]);
        assert_eq!(v.strides(), &[-12, 0, 1]);
        assert_eq!(v.offset(), 30 + 24 + 2);
        let e = apply_slice(&l, &s![ELLIPSIS, -1]).unwrap();
        assert_eq!(e.shape(), &[4, 5]);
        assert!(apply_slice(&l, &s![0, 0, 0, 0]).is_err());
        assert!(apply_slice(&l, &s![4]).is_err());
    }
}
