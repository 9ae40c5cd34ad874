//! Layouts: how an n-dimensional view maps onto a flat buffer (shape, element strides that may
//! be zero or negative, and an offset). Views, transposes, slices and broadcasts are layout
//! changes only; backends receive a layout with every buffer and never compute shapes.

use crate::error::{Error, Result};

mod merge;
pub use merge::{Dims, MergedAxes, ReduceSplit, axes_to_end_inverse, axes_to_end_perm, merge_axes};

/// Dimensions stored inline up to rank 6 (on the heap beyond).
pub(crate) type Inline<T> = smallvec::SmallVec<[T; 6]>;

/// Shape, strides (in elements, possibly 0 or negative) and offset of a view into a buffer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: Inline<usize>,
    strides: Inline<isize>,
    offset: usize,
}

/// C-order strides of `shape`, inline.
fn c_strides_inline(shape: &[usize]) -> Inline<isize> {
    let mut strides: Inline<isize> = smallvec::smallvec![0; shape.len()];
    let mut acc = 1isize;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        acc *= d.max(1) as isize;
    }
    strides
}

/// C-order (row-major) strides of a shape.
pub fn c_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        acc *= d.max(1) as isize;
    }
    strides
}

/// Number of elements of a shape (1 for the 0-d shape).
///
/// Unchecked: meant for shapes of existing arrays, which every constructor has checked with
/// [`checked_shape_size`]. A shape from user input goes through [`check_shape`] first.
pub fn shape_size(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// The largest number of bytes an array may span: `isize::MAX`, the limit of every Rust
/// allocation and NumPy's (`arr.size * arr.dtype.itemsize` must not exceed it).
pub const MAX_BYTES: usize = isize::MAX as usize;

/// The most dimensions an array may have (NumPy 2's `NPY_MAXDIMS`).
pub const MAX_NDIM: usize = 64;

/// Number of elements of `shape`, checked the way NumPy checks a new array: the product of
/// the non-zero dimensions times `itemsize` must not exceed [`MAX_BYTES`] (so a shape with a
/// zero still may not have huge other dimensions), which also keeps every C stride in
/// `isize`.
///
/// # Errors
/// [`Error::TooBig`] naming `op` and the shape.
///
/// ```
/// use cuprite_core::{layout::checked_shape_size, Error};
/// assert_eq!(checked_shape_size("zeros", &[3, 0, 5], 8).unwrap(), 0);
/// assert!(matches!(
///     checked_shape_size("zeros", &[1 << 32, 1 << 32], 8),
///     Err(Error::TooBig { op: "zeros", .. })
/// ));
/// ```
pub fn checked_shape_size(op: &'static str, shape: &[usize], itemsize: usize) -> Result<usize> {
    let wide: Inline<u128> = shape.iter().map(|&d| d as u128).collect();
    wide_size(op, &wide, itemsize)
}

/// [`checked_shape_size`] over dimensions computed in wide arithmetic (`u128`, so that a
/// product or sum of `usize` values is exact): the element count, or [`Error::TooBig`].
fn wide_size(op: &'static str, shape: &[u128], itemsize: usize) -> Result<usize> {
    let too_big = || Error::TooBig {
        op,
        shape: shape.to_vec(),
        itemsize,
    };
    let mut bytes = itemsize.max(1) as u128;
    let mut empty = false;
    for &d in shape {
        if d == 0 {
            empty = true;
            continue;
        }
        bytes = bytes.checked_mul(d).ok_or_else(too_big)?;
        if bytes > MAX_BYTES as u128 {
            return Err(too_big());
        }
    }
    if empty {
        Ok(0)
    } else {
        Ok((bytes / itemsize.max(1) as u128) as usize)
    }
}

/// Checks the rank of a new array against [`MAX_NDIM`] (NumPy's wording).
///
/// # Errors
/// [`Error::InvalidArgument`] naming `op`.
pub fn check_ndim(op: &'static str, ndim: usize) -> Result<()> {
    if ndim > MAX_NDIM {
        return Err(Error::invalid(
            op,
            format!(
                "maximum supported dimension for an ndarray is currently {MAX_NDIM}, found {ndim}"
            ),
        ));
    }
    Ok(())
}

/// Checks a shape for a new array (its rank and its byte size, see [`checked_shape_size`])
/// and returns its number of elements. Every op that creates an array of a shape it did not
/// get from an existing array calls this before anything is allocated.
///
/// # Errors
/// [`Error::TooBig`], or [`Error::InvalidArgument`] for more than [`MAX_NDIM`] dimensions.
pub fn check_shape(op: &'static str, shape: &[usize], itemsize: usize) -> Result<usize> {
    check_ndim(op, shape.len())?;
    checked_shape_size(op, shape, itemsize)
}

/// A shape computed by an op in wide arithmetic (each dimension a `u128`, e.g. `n * reps`
/// or `before + n + after` of `usize` values, which cannot overflow there), checked as
/// [`check_shape`] does and narrowed to `usize`.
///
/// # Errors
/// [`Error::TooBig`] with the exact dimensions asked for, or [`Error::InvalidArgument`] for
/// more than [`MAX_NDIM`] dimensions.
///
/// ```
/// use cuprite_core::{layout::check_wide_shape, Error};
/// assert_eq!(check_wide_shape("tile", &[2 * 3, 4], 8).unwrap(), vec![6, 4]);
/// let e = check_wide_shape("tile", &[2 * (1u128 << 63)], 8).unwrap_err();
/// assert_eq!(e, Error::TooBig { op: "tile", shape: vec![1 << 64], itemsize: 8 });
/// ```
pub fn check_wide_shape(op: &'static str, shape: &[u128], itemsize: usize) -> Result<Vec<usize>> {
    check_ndim(op, shape.len())?;
    wide_size(op, shape, itemsize)?;
    // Every non-zero dimension is at most the byte count, so it fits; a zero-size shape
    // may still hold a dimension too wide for `usize` next to its zero.
    shape
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| Error::TooBig {
                op,
                shape: shape.to_vec(),
                itemsize,
            })
        })
        .collect()
}

/// Resolves a possibly negative axis against `ndim`.
pub fn normalize_axis(op: &'static str, axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    if axis < -n || axis >= n {
        return Err(Error::AxisOutOfRange { op, axis, ndim });
    }
    Ok(if axis < 0 {
        (axis + n) as usize
    } else {
        axis as usize
    })
}

/// Resolves a list of axes, rejecting duplicates; returns them sorted.
pub fn normalize_axes(op: &'static str, axes: &[isize], ndim: usize) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        let ax = normalize_axis(op, a, ndim)?;
        if out.contains(&ax) {
            return Err(Error::invalid(op, format!("repeated axis {a} in {axes:?}")));
        }
        out.push(ax);
    }
    out.sort_unstable();
    Ok(out)
}

/// NumPy broadcasting of two shapes.
///
/// ```
/// use cuprite_core::broadcast_shapes;
/// assert_eq!(broadcast_shapes("add", &[8, 1, 6], &[7, 1]).unwrap(), vec![8, 7, 6]);
/// assert!(broadcast_shapes("add", &[3], &[4]).is_err());
/// ```
pub fn broadcast_shapes(op: &'static str, a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(Error::Broadcast {
                op,
                lhs: a.to_vec(),
                rhs: b.to_vec(),
            });
        };
    }
    // Two valid shapes can broadcast to one whose element count overflows (`[n, 1]` with
    // `[1, n]`); the result's dtype is not known here, so count elements (1-byte items).
    checked_shape_size(op, &out, 1)?;
    Ok(out)
}

impl Layout {
    /// A C-contiguous layout of `shape` starting at offset 0.
    pub fn contiguous(shape: &[usize]) -> Self {
        Layout {
            strides: c_strides_inline(shape),
            shape: Inline::from_slice(shape),
            offset: 0,
        }
    }

    /// A layout from its parts. The caller guarantees every reachable offset is in bounds.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Self {
        assert_eq!(
            shape.len(),
            strides.len(),
            "layout: rank of shape and strides"
        );
        Layout {
            shape: Inline::from_vec(shape),
            strides: Inline::from_vec(strides),
            offset,
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }
    /// Offset of element `[0, 0, ...]` in the buffer, in elements.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    /// Number of elements.
    pub fn size(&self) -> usize {
        shape_size(&self.shape)
    }

    /// True when the view is C-contiguous (dimensions of size 1 may have any stride).
    pub fn is_c_contiguous(&self) -> bool {
        if self.size() == 0 {
            return true;
        }
        let mut expected = 1isize;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            if d != 1 {
                if s != expected {
                    return false;
                }
                expected *= d as isize;
            }
        }
        true
    }

    /// `Some(offset)` when the view is one contiguous C-order run starting at `offset`.
    pub fn contiguous_offset(&self) -> Option<usize> {
        self.is_c_contiguous().then_some(self.offset)
    }

    /// The smallest and one past the largest buffer offset the view touches, exactly, in
    /// wide arithmetic (`None` if the view is empty). The smallest may be negative and the
    /// largest beyond `usize` for a layout that fits no buffer; nothing here can overflow
    /// (each `(d - 1) * stride` is below 2^127 and the sums saturate).
    pub fn span(&self) -> Option<(i128, i128)> {
        if self.shape.contains(&0) {
            return None;
        }
        let (mut lo, mut hi) = (self.offset as i128, self.offset as i128);
        for (&d, &s) in self.shape.iter().zip(&self.strides) {
            let span = (d as i128 - 1) * s as i128;
            if span < 0 {
                lo = lo.saturating_add(span);
            } else {
                hi = hi.saturating_add(span);
            }
        }
        Some((lo, hi.saturating_add(1)))
    }

    /// The smallest and one past the largest buffer offset the view touches (`None` if
    /// empty). For a layout that reaches below offset 0 or past `usize::MAX` (which fits no
    /// buffer) this is `Some((0, usize::MAX))`, so a `hi > len` check rejects it; prefer
    /// [`Layout::check_bounds`], which says what is wrong.
    pub fn offset_range(&self) -> Option<(usize, usize)> {
        let (lo, hi) = self.span()?;
        match (usize::try_from(lo), usize::try_from(hi)) {
            (Ok(lo), Ok(hi)) => Some((lo, hi)),
            _ => Some((0, usize::MAX)),
        }
    }

    /// Checks that `axis` names an axis of the view, else [`Error::AxisOutOfRange`] naming
    /// `op` (a backend's guard for an axis it is handed directly).
    pub fn check_axis(&self, op: &'static str, axis: usize) -> Result<()> {
        if axis < self.ndim() {
            Ok(())
        } else {
            Err(Error::AxisOutOfRange {
                op,
                axis: axis as isize,
                ndim: self.ndim(),
            })
        }
    }

    /// Checks that every element of the view lies in a buffer of `len` elements (an empty
    /// view fits any buffer), without overflow whatever the strides and offset.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `op`, the layout and the buffer length.
    ///
    /// ```
    /// use cuprite_core::Layout;
    /// let rev = Layout::new(vec![3], vec![-1], 2);
    /// assert!(rev.check_bounds("t", 3).is_ok());
    /// assert!(Layout::new(vec![3], vec![-1], 1).check_bounds("t", 3).is_err());
    /// assert!(Layout::new(vec![3], vec![(1 << 62) + (1 << 40)], 0).check_bounds("t", 4).is_err());
    /// ```
    pub fn check_bounds(&self, op: &'static str, len: usize) -> Result<()> {
        match self.span() {
            Some((lo, hi)) if lo < 0 || hi > len as i128 => Err(Error::invalid(
                op,
                format!(
                    "a view of shape {:?}, strides {:?} and offset {} reaches elements \
                     {lo}..{hi}, outside a buffer of {len} elements",
                    self.shape, self.strides, self.offset
                ),
            )),
            _ => Ok(()),
        }
    }

    /// A layout from its parts, checked: equal ranks, at most [`MAX_NDIM`] dimensions, an
    /// element count whose bytes (`itemsize` each) fit in [`MAX_BYTES`], and every element
    /// inside a buffer of `buffer_len` elements. Use it for any layout that comes from
    /// outside core.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] or [`Error::TooBig`] naming `op`.
    pub fn checked(
        op: &'static str,
        shape: Vec<usize>,
        strides: Vec<isize>,
        offset: usize,
        itemsize: usize,
        buffer_len: usize,
    ) -> Result<Layout> {
        if shape.len() != strides.len() {
            return Err(Error::invalid(
                op,
                format!("shape {shape:?} and strides {strides:?} differ in rank"),
            ));
        }
        let l = Layout {
            shape: Inline::from_vec(shape),
            strides: Inline::from_vec(strides),
            offset,
        };
        l.check_view(op, itemsize, buffer_len)?;
        Ok(l)
    }

    /// [`Layout::checked`] of an existing layout: rank, byte size and bounds.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] or [`Error::TooBig`] naming `op`.
    pub fn check_view(&self, op: &'static str, itemsize: usize, buffer_len: usize) -> Result<()> {
        check_shape(op, &self.shape, itemsize)?;
        self.check_bounds(op, buffer_len)
    }

    /// True when no two indices of the view share a buffer element (no zero strides over
    /// dimensions longer than 1 and no overlap), so it is safe to write through.
    pub fn is_writeable_without_overlap(&self) -> bool {
        let mut dims: Inline<(usize, usize)> = self
            .shape
            .iter()
            .zip(&self.strides)
            .filter(|&(&d, _)| d > 1)
            .map(|(&d, &s)| (d, s.unsigned_abs()))
            .collect();
        dims.sort_by_key(|&(_, s)| s);
        let mut extent = 1usize;
        for (d, s) in dims {
            if s < extent {
                return false;
            }
            extent += s * (d - 1);
        }
        true
    }

    /// Reorders the axes: axis `i` of the result is axis `axes[i]` of `self`.
    pub fn permute(&self, op: &'static str, axes: &[isize]) -> Result<Layout> {
        if axes.len() != self.ndim() {
            return Err(Error::invalid(
                op,
                format!(
                    "axes {axes:?} do not match an array of dimension {}",
                    self.ndim()
                ),
            ));
        }
        let mut seen: Inline<bool> = smallvec::smallvec![false; self.ndim()];
        let mut shape = Inline::with_capacity(axes.len());
        let mut strides = Inline::with_capacity(axes.len());
        for &a in axes {
            let ax = normalize_axis(op, a, self.ndim())?;
            if seen[ax] {
                return Err(Error::invalid(op, format!("repeated axis in {axes:?}")));
            }
            seen[ax] = true;
            shape.push(self.shape[ax]);
            strides.push(self.strides[ax]);
        }
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
        })
    }

    /// The axes reversed.
    pub fn transposed(&self) -> Layout {
        let mut l = self.clone();
        l.shape.reverse();
        l.strides.reverse();
        l
    }

    /// Broadcasts the view to `shape` (zero strides on the new and stretched axes).
    pub fn broadcast_to(&self, op: &'static str, shape: &[usize]) -> Result<Layout> {
        let n = shape.len();
        let err = || Error::Broadcast {
            op,
            lhs: self.shape.to_vec(),
            rhs: shape.to_vec(),
        };
        if self.ndim() > n {
            return Err(err());
        }
        let lead = n - self.ndim();
        let mut strides: Inline<isize> = smallvec::smallvec![0isize; n];
        for i in 0..n {
            if i < lead {
                continue;
            }
            let (d, s) = (self.shape[i - lead], self.strides[i - lead]);
            if d == shape[i] {
                strides[i] = if d == 1 { 0 } else { s };
            } else if d == 1 {
                strides[i] = 0;
            } else {
                return Err(err());
            }
        }
        // The element count of the target must fit (its dtype is not known here; the
        // caller checks bytes).
        checked_shape_size(op, shape, 1)?;
        Ok(Layout {
            shape: Inline::from_slice(shape),
            strides,
            offset: self.offset,
        })
    }

    /// A view with a new shape without copying, when the strides allow it (NumPy's no-copy
    /// reshape rule); `None` when a copy is needed. `shape` must have the same size.
    pub fn reshaped(&self, shape: &[usize]) -> Option<Layout> {
        debug_assert_eq!(shape_size(shape), self.size());
        if self.is_c_contiguous() {
            return Some(Layout {
                shape: Inline::from_slice(shape),
                strides: c_strides_inline(shape),
                offset: self.offset,
            });
        }
        // Group old axes into runs that are contiguous among themselves and split/merge them.
        let old: Inline<(usize, isize)> = self
            .shape
            .iter()
            .zip(&self.strides)
            .filter(|&(&d, _)| d != 1)
            .map(|(&d, &s)| (d, s))
            .collect();
        let new_dims = shape;
        let mut new_strides: Inline<isize> = smallvec::smallvec![0isize; new_dims.len()];
        let (mut oi, mut ni) = (0usize, 0usize);
        while ni < new_dims.len() || oi < old.len() {
            if ni < new_dims.len() && new_dims[ni] == 1 {
                new_strides[ni] = 0;
                ni += 1;
                continue;
            }
            if oi >= old.len() || ni >= new_dims.len() {
                return None;
            }
            let (mut np, mut op) = (new_dims[ni], old[oi].0);
            let (ni0, oi0) = (ni, oi);
            while np != op {
                if np < op {
                    ni += 1;
                    if ni >= new_dims.len() {
                        return None;
                    }
                    np *= new_dims[ni];
                } else {
                    oi += 1;
                    if oi >= old.len() {
                        return None;
                    }
                    op *= old[oi].0;
                }
            }
            for k in oi0..oi {
                if old[k].1 != old[k + 1].1 * old[k + 1].0 as isize {
                    return None;
                }
            }
            let mut stride = old[oi].1;
            for k in (ni0..=ni).rev() {
                new_strides[k] = stride;
                stride *= new_dims[k] as isize;
            }
            ni += 1;
            oi += 1;
        }
        Some(Layout {
            shape: Inline::from_slice(shape),
            strides: new_strides,
            offset: self.offset,
        })
    }

    /// The view restricted to `start, start+step, ...` (`len` elements) along `axis`.
    pub fn slice_axis(&self, axis: usize, start: usize, len: usize, step: isize) -> Layout {
        let mut l = self.clone();
        l.slice_axis_in_place(axis, start, len, step);
        l
    }

    /// [`Layout::slice_axis`] of `self` itself.
    pub(crate) fn slice_axis_in_place(
        &mut self,
        axis: usize,
        start: usize,
        len: usize,
        step: isize,
    ) {
        if len > 0 {
            self.offset = (self.offset as isize + start as isize * self.strides[axis]) as usize;
        }
        self.shape[axis] = len;
        if len > 1 {
            self.strides[axis] *= step;
        }
    }

    /// The view at index `i` of `axis`, with that axis removed.
    pub fn index_axis(&self, axis: usize, i: usize) -> Layout {
        let mut l = self.clone();
        l.index_axis_in_place(axis, i);
        l
    }

    /// [`Layout::index_axis`] of `self` itself.
    pub(crate) fn index_axis_in_place(&mut self, axis: usize, i: usize) {
        self.offset = (self.offset as isize + i as isize * self.strides[axis]) as usize;
        self.shape.remove(axis);
        self.strides.remove(axis);
    }

    /// Inserts an axis of length 1 at position `axis`.
    pub fn insert_axis(&self, axis: usize) -> Layout {
        let mut l = self.clone();
        l.insert_axis_in_place(axis);
        l
    }

    /// [`Layout::insert_axis`] of `self` itself.
    pub(crate) fn insert_axis_in_place(&mut self, axis: usize) {
        self.shape.insert(axis, 1);
        self.strides.insert(axis, 0);
    }

    /// Removes an axis of length 1.
    pub fn remove_axis(&self, axis: usize) -> Layout {
        debug_assert_eq!(self.shape[axis], 1);
        let mut l = self.clone();
        l.shape.remove(axis);
        l.strides.remove(axis);
        l
    }

    /// Moves the given axes to the end (in the order given), keeping the others in order.
    pub fn axes_to_end(&self, axes: &[usize]) -> Layout {
        let mut perm: Inline<usize> = (0..self.ndim()).filter(|a| !axes.contains(a)).collect();
        perm.extend_from_slice(axes);
        Layout {
            shape: perm.iter().map(|&a| self.shape[a]).collect(),
            strides: perm.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
        }
    }

    /// Buffer offset of a multi-index (no bounds check beyond debug assertions).
    pub fn offset_of(&self, index: &[usize]) -> usize {
        debug_assert_eq!(index.len(), self.ndim());
        let mut o = self.offset as isize;
        for (&i, &s) in index.iter().zip(&self.strides) {
            o += i as isize * s;
        }
        o as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguity() {
        let l = Layout::contiguous(&[2, 3, 4]);
        assert_eq!(l.strides(), &[12, 4, 1]);
        assert!(l.is_c_contiguous());
        assert!(!l.transposed().is_c_contiguous());
        assert!(Layout::contiguous(&[0, 3]).is_c_contiguous());
        assert_eq!(l.offset_range(), Some((0, 24)));
    }

    #[test]
    fn negative_strides_and_ranges() {
        let l = Layout::contiguous(&[5]).slice_axis(0, 4, 5, -1);
        assert_eq!(l.offset(), 4);
        assert_eq!(l.strides(), &[-1]);
        assert_eq!(l.offset_range(), Some((0, 5)));
        assert!(l.is_writeable_without_overlap());
    }

    #[test]
    fn broadcast_layout_has_zero_strides() {
        let l = Layout::contiguous(&[3, 1])
            .broadcast_to("t", &[2, 3, 4])
            .unwrap();
        assert_eq!(l.strides(), &[0, 1, 0]);
        assert!(!l.is_writeable_without_overlap());
        assert!(Layout::contiguous(&[3]).broadcast_to("t", &[4]).is_err());
    }

    #[test]
    fn reshape_without_copy() {
        let t = Layout::contiguous(&[4, 6]).transposed();
        assert!(t.reshaped(&[24]).is_none());
        let split = t.reshaped(&[2, 3, 4]).unwrap();
        assert_eq!(split.strides(), &[3, 1, 6]);
        let l = Layout::contiguous(&[4, 6]).slice_axis(1, 0, 3, 2);
        assert_eq!(l.reshaped(&[2, 2, 3]).unwrap().strides(), &[12, 6, 2]);
        assert_eq!(l.reshaped(&[12]).unwrap().strides(), &[2]);
        let gappy = Layout::contiguous(&[4, 6]).slice_axis(1, 0, 2, 2);
        assert!(gappy.reshaped(&[8]).is_none());
    }

    #[test]
    fn axes_normalise() {
        assert_eq!(normalize_axis("t", -1, 3).unwrap(), 2);
        assert!(normalize_axis("t", 3, 3).is_err());
        assert!(normalize_axes("t", &[0, -3], 3).is_err());
    }
}
