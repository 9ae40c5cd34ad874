//! NumPy's `np.insert` and `np.delete`: [`Array::insert`] and [`Array::delete`], with the
//! positions given as an [`IndexObj`] (one index, a slice, or a list of indices) resolved
//! on the host by NumPy's rules (negative indices counted from the end, Python's slice
//! clipping, NumPy's bounds errors). The result is composed from views and concatenation,
//! or one `take` of a host-built index list, so it runs on every backend.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// The positions argument `obj` of [`Array::insert`] and [`Array::delete`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexObj {
    /// One index (`obj=2`; negative counts from the end).
    Index(isize),
    /// A Python slice `start:stop:step` (`None` for an omitted bound; `step` not zero).
    Slice {
        /// The first index (`None`: the start for a positive step, the end for a negative).
        start: Option<isize>,
        /// The index to stop before (`None`: past the end in the direction of `step`).
        stop: Option<isize>,
        /// The step.
        step: isize,
    },
    /// A list of indices (`obj=[1, -1]`).
    List(Vec<isize>),
}

impl From<isize> for IndexObj {
    fn from(i: isize) -> Self {
        IndexObj::Index(i)
    }
}

impl From<Vec<isize>> for IndexObj {
    fn from(v: Vec<isize>) -> Self {
        IndexObj::List(v)
    }
}

impl From<&[isize]> for IndexObj {
    fn from(v: &[isize]) -> Self {
        IndexObj::List(v.to_vec())
    }
}

/// Python's `slice(start, stop, step).indices(n)` expanded into the indices it selects.
fn slice_indices(
    op: &'static str,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
    n: usize,
) -> Result<Vec<isize>> {
    if step == 0 {
        return Err(Error::invalid(op, "slice step cannot be zero"));
    }
    let n = n as i128;
    let (step, neg) = (step as i128, step < 0);
    let adjust = |v: Option<isize>, default: i128| -> i128 {
        match v {
            None => default,
            Some(v) => {
                let v = v as i128;
                if v < 0 {
                    let w = v + n;
                    if w < 0 { if neg { -1 } else { 0 } } else { w }
                } else if v >= n {
                    if neg { n - 1 } else { n }
                } else {
                    v
                }
            }
        }
    };
    let s = adjust(start, if neg { n - 1 } else { 0 });
    let e = adjust(stop, if neg { -1 } else { n });
    let count = if neg {
        if e < s { (s - e - 1) / (-step) + 1 } else { 0 }
    } else if s < e {
        (e - s - 1) / step + 1
    } else {
        0
    };
    Ok((0..count).map(|i| (s + i * step) as isize).collect())
}

/// The axis an op works on and the array it works on (flattened for `None`).
fn target<T: Element, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    axis: Option<isize>,
) -> Result<(Array<T, B>, usize)> {
    match axis {
        None => Ok((a.ravel()?, 0)),
        Some(ax) => Ok((a.clone(), normalize_axis(op, ax, a.ndim())?)),
    }
}

/// A view of `a` taking `len` elements along `axis` from `start`.
fn run<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axis: usize,
    start: usize,
    len: usize,
) -> Array<T, B> {
    a.with_layout(a.layout().slice_axis(axis, start, len, 1))
}

/// The elements of `a` at `keep` (increasing) along `axis`: the runs of consecutive
/// indices joined when there are few, else one `take`.
fn keep_along<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axis: usize,
    keep: &[usize],
) -> Result<Array<T, B>> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &k in keep {
        match runs.last_mut() {
            Some((s, l)) if *s + *l == k => *l += 1,
            _ => runs.push((k, 1)),
        }
    }
    if runs.len() == 1 && runs[0] == (0, a.shape()[axis]) {
        return a.copy();
    }
    if runs.is_empty() || runs.len() > 8 {
        let idx: Vec<i64> = keep.iter().map(|&k| k as i64).collect();
        let idx = Array::<i64, B>::from_vec(idx, &[keep.len()], a.device())?;
        return a.take(&idx, Some(axis as isize));
    }
    let parts: Vec<Array<T, B>> = runs.iter().map(|&(s, l)| run(a, axis, s, l)).collect();
    let refs: Vec<&Array<T, B>> = parts.iter().collect();
    Array::concatenate(&refs, axis as isize)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The array without the sub-arrays at `obj` along `axis` (NumPy's `np.delete(arr, obj,
    /// axis)`; `None` flattens first). An index may be negative (from the end); a list may
    /// repeat indices; a slice is clipped as Python's are. A new array.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for an index outside `-n..n`, [`Error::AxisOutOfRange`],
    /// [`Error::InvalidArgument`] for a slice step of zero.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3], dev)?;
    /// assert_eq!(a.delete(IndexObj::Index(1), Some(1))?.to_vec()?, vec![1, 3, 4, 6]);
    /// assert_eq!(a.delete(vec![0, -1], None)?.to_vec()?, vec![2, 3, 4, 5]);
    /// let odd = IndexObj::Slice { start: Some(1), stop: None, step: 2 };
    /// assert_eq!(a.delete(odd, None)?.to_vec()?, vec![1, 3, 5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn delete(&self, obj: impl Into<IndexObj>, axis: Option<isize>) -> Result<Self> {
        const OP: &str = "delete";
        let (a, ax) = target(OP, self, axis)?;
        let n = a.shape()[ax];
        let mut gone = vec![false; n];
        let out_of_range = |i: isize| Error::IndexOutOfRange {
            op: OP,
            index: i as i64,
            axis: ax,
            size: n,
        };
        match obj.into() {
            IndexObj::Slice { start, stop, step } => {
                for i in slice_indices(OP, start, stop, step, n)? {
                    gone[i as usize] = true;
                }
            }
            IndexObj::Index(i) => gone[wrap_index(i, n).ok_or_else(|| out_of_range(i))?] = true,
            IndexObj::List(v) => {
                for &i in &v {
                    gone[wrap_index(i, n).ok_or_else(|| out_of_range(i))?] = true;
                }
            }
        }
        let keep: Vec<usize> = (0..n).filter(|&i| !gone[i]).collect();
        keep_along(&a, ax, &keep)
    }

    /// The array with `values` inserted before the positions `obj` along `axis` (NumPy's
    /// `np.insert(arr, obj, values, axis)`; `None` flattens first). With one index (or a
    /// one-element list or slice) `values` gets leading length-1 axes up to the array's
    /// rank, and for [`IndexObj::Index`] its first axis is moved to `axis` — so a 1-d
    /// `values` fills one new row or column — then as many sub-arrays are inserted as it
    /// has along `axis`, broadcast. With several positions, one sub-array is inserted before
    /// each (values broadcast to them), in the order NumPy's stable sort gives equal
    /// positions. Positions may be `-n..=n`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a position outside `-n..=n`, [`Error::AxisOutOfRange`],
    /// [`Error::InvalidArgument`] when `values` does not broadcast to the inserted shape (or
    /// for a slice step of zero), [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let col = Array::<i32, B>::from_vec(vec![7, 8], &[2], dev)?;
    /// assert_eq!(a.insert(1, &col, Some(1))?.to_vec()?, vec![1, 7, 2, 3, 8, 4]);
    /// let nine = Array::<i32, B>::scalar(9, dev)?;
    /// assert_eq!(a.insert(vec![0, 4], &nine, None)?.to_vec()?, vec![9, 1, 2, 3, 4, 9]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn insert(
        &self,
        obj: impl Into<IndexObj>,
        values: &Self,
        axis: Option<isize>,
    ) -> Result<Self> {
        const OP: &str = "insert";
        self.check_device(values, OP)?;
        let (a, ax) = target(OP, self, axis)?;
        let n = a.shape()[ax];
        let obj = obj.into();
        let (indices, scalar) = match &obj {
            IndexObj::Index(i) => (vec![*i], true),
            IndexObj::List(v) => (v.clone(), false),
            IndexObj::Slice { start, stop, step } => {
                (slice_indices(OP, *start, *stop, *step, n)?, false)
            }
        };
        let ni = n as isize;
        if indices.len() == 1 {
            let i = indices[0];
            if i < -ni || i > ni {
                return Err(match obj {
                    IndexObj::Index(_) => Error::IndexOutOfRange {
                        op: OP,
                        index: i as i64,
                        axis: ax,
                        size: n,
                    },
                    _ => Error::invalid(
                        OP,
                        format!("index [{i}] is out of bounds for axis {ax} with size {n}"),
                    ),
                });
            }
            let at = if i < 0 { (i + ni) as usize } else { i as usize };
            let mut v = values.clone();
            while v.ndim() < a.ndim() {
                v = v.with_layout(v.layout().insert_axis(0));
            }
            if scalar {
                v = v.moveaxis(&[0], &[ax as isize])?;
            }
            let numnew = if ax < v.ndim() { v.shape()[ax] } else { 1 };
            let v = fit(OP, &v, &a, ax, numnew)?;
            let head = run(&a, ax, 0, at);
            let tail = run(&a, ax, at, n - at);
            return Array::concatenate(&[&head, &v, &tail], ax as isize);
        }
        // Several positions: NumPy shifts each by the number of inserted values sorted
        // before it (a stable sort), then places the original values in the rest.
        let k = indices.len();
        let shifted: Vec<i128> = indices
            .iter()
            .map(|&i| {
                if i < 0 {
                    i as i128 + n as i128
                } else {
                    i as i128
                }
            })
            .collect();
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by_key(|&j| shifted[j]);
        let total = n + k;
        let mut source = vec![usize::MAX; total];
        for (rank, &j) in order.iter().enumerate() {
            let p = shifted[j] + rank as i128;
            let t = total as i128;
            if p < -t || p >= t {
                return Err(Error::IndexOutOfRange {
                    op: OP,
                    index: p as i64,
                    axis: ax,
                    size: total,
                });
            }
            let p = if p < 0 { p + t } else { p } as usize;
            if source[p] != usize::MAX {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the positions {indices:?} put two values at index {p} of a result of \
                         length {total} along axis {ax}"
                    ),
                ));
            }
            source[p] = n + j;
        }
        let v = fit(OP, values, &a, ax, k)?;
        let mut next = 0;
        for s in source.iter_mut() {
            if *s == usize::MAX {
                *s = next;
                next += 1;
            }
        }
        let both = Array::concatenate(&[&a, &v], ax as isize)?;
        let idx: Vec<i64> = source.iter().map(|&s| s as i64).collect();
        let idx = Array::<i64, B>::from_vec(idx, &[total], self.device())?;
        both.take(&idx, Some(ax as isize))
    }
}

/// `i` counted from the end when negative, if it lies in `-n..n`.
fn wrap_index(i: isize, n: usize) -> Option<usize> {
    let n = n as i128;
    let i = i as i128;
    if i < -n || i >= n {
        None
    } else if i < 0 {
        Some((i + n) as usize)
    } else {
        Some(i as usize)
    }
}

/// `values` broadcast to the shape of `count` sub-arrays of `a` along `axis`, with NumPy's
/// message when it does not fit.
fn fit<T: Element, B: ArrayBackend>(
    op: &'static str,
    values: &Array<T, B>,
    a: &Array<T, B>,
    axis: usize,
    count: usize,
) -> Result<Array<T, B>> {
    let mut slot = a.shape().to_vec();
    slot[axis] = count;
    values.broadcast_to(&slot).map_err(|_| {
        Error::invalid(
            op,
            format!(
                "could not broadcast input array from shape {:?} into shape {slot:?}",
                values.shape()
            ),
        )
    })
}
