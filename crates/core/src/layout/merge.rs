//! Stride arithmetic every backend needs, written once: joint axis merging of several views
//! of one shape, the kept/reduced split of a view for a reduction, negative-stride flips, the
//! inverse of "move these axes to the end", and the bounds check of a view against the length
//! of its buffer.
//!
//! ```
//! use cuprite_core::layout::{merge_axes, Layout};
//! // A C-contiguous [4, 5, 6] view is one run of 120 elements; its transpose is not.
//! let c = Layout::contiguous(&[4, 5, 6]);
//! let m = merge_axes(c.shape(), &[c.strides()]);
//! assert_eq!((m.shape.as_slice(), m.strides[0].as_slice()), (&[120][..], &[1][..]));
//! let t = c.transposed();
//! assert_eq!(merge_axes(t.shape(), &[t.strides()]).shape, vec![6, 5, 4]);
//! ```

use super::Layout;

/// Dimensions walked in C order: lengths and signed strides in elements (no offset).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dims {
    /// Lengths, outermost first.
    pub shape: Vec<usize>,
    /// Strides in elements, one per length.
    pub strides: Vec<isize>,
}

impl Dims {
    /// Dimensions from lengths and strides of the same rank.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>) -> Self {
        assert_eq!(
            shape.len(),
            strides.len(),
            "dims: rank of shape and strides"
        );
        Dims { shape, strides }
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of positions (1 with no dimension).
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Absolute stride of the innermost dimension (`usize::MAX` when there is none).
    pub fn inner_stride(&self) -> usize {
        self.strides.last().map_or(usize::MAX, |s| s.unsigned_abs())
    }

    /// Offset (relative to the first position) of the flat C-order position `i`.
    pub fn offset_of(&self, mut i: usize) -> isize {
        let mut off = 0isize;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            off += (i % d) as isize * s;
            i /= d;
        }
        off
    }

    /// Splits off the last dimension: `(outer dims, len, stride)`; `(empty, 1, 1)` if none.
    pub fn split_last(&self) -> (Dims, usize, isize) {
        match self.shape.len() {
            0 => (Dims::default(), 1, 1),
            n => (
                Dims {
                    shape: self.shape[..n - 1].to_vec(),
                    strides: self.strides[..n - 1].to_vec(),
                },
                self.shape[n - 1],
                self.strides[n - 1],
            ),
        }
    }

    /// The same positions in the same C order with length-1 dimensions dropped and
    /// neighbours merged where `stride[a] == stride[b] * len[b]` (see [`merge_axes`]).
    pub fn merged(&self) -> Dims {
        let m = merge_axes(&self.shape, &[&self.strides]);
        Dims {
            strides: m.strides.into_iter().next().unwrap_or_default(),
            shape: m.shape,
        }
    }

    /// Makes every stride non-negative by walking the dimensions of negative stride from
    /// their other end; returns the change of the base offset (the same set of buffer
    /// offsets is visited, in another order).
    pub fn flip_negative(&mut self) -> isize {
        let mut shift = 0isize;
        for (&n, s) in self.shape.iter().zip(self.strides.iter_mut()) {
            if *s < 0 {
                shift += (n as isize - 1) * *s;
                *s = -*s;
            }
        }
        shift
    }
}

/// Several views of one shape after [`merge_axes`]: the common lengths and, per view, its
/// strides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedAxes {
    /// Lengths of the merged axes, outermost first.
    pub shape: Vec<usize>,
    /// `strides[v]`: the strides of view `v` along the merged axes.
    pub strides: Vec<Vec<isize>>,
}

impl MergedAxes {
    /// Number of merged axes.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// View `v` as [`Dims`].
    pub fn dims(&self, v: usize) -> Dims {
        Dims::new(self.shape.clone(), self.strides[v].clone())
    }
}

/// Jointly simplifies views of one `shape` (`strides[v]`: the strides of view `v`): drops
/// axes of length 1 and merges an axis into the one before it when
/// `outer stride == inner stride * inner length` holds in every view. The axes keep C order,
/// so a flat index over the result addresses the same elements as over `shape`. No axes left
/// means one element; a shape with a 0 gives one axis of length 0 (stride 0 in every view).
pub fn merge_axes(shape: &[usize], strides: &[&[isize]]) -> MergedAxes {
    debug_assert!(strides.iter().all(|s| s.len() == shape.len()));
    let views = strides.len();
    if shape.contains(&0) {
        return MergedAxes {
            shape: vec![0],
            strides: vec![vec![0]; views],
        };
    }
    let mut out = MergedAxes {
        shape: Vec::with_capacity(shape.len()),
        strides: vec![Vec::with_capacity(shape.len()); views],
    };
    for (d, &n) in shape.iter().enumerate() {
        if n == 1 {
            continue;
        }
        if let Some(last) = out.shape.last_mut() {
            let mergeable = strides
                .iter()
                .zip(&out.strides)
                .all(|(s, o)| o[o.len() - 1] == s[d] * n as isize);
            if mergeable {
                *last *= n;
                for (s, o) in strides.iter().zip(out.strides.iter_mut()) {
                    let k = o.len() - 1;
                    o[k] = s[d];
                }
                continue;
            }
        }
        out.shape.push(n);
        for (s, o) in strides.iter().zip(out.strides.iter_mut()) {
            o.push(s[d]);
        }
    }
    out
}

/// A view split for a reduction (see [`Layout::split_reduce`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReduceSplit {
    /// The kept dimensions, in output (C) order, merged.
    pub kept: Dims,
    /// The reduced dimensions of each output's positions, merged.
    pub reduced: Dims,
    /// Buffer offset of the first position of the first output.
    pub base: isize,
}

impl Layout {
    /// Splits the view for a reduction over `axes` into kept dimensions (output order) and
    /// reduced dimensions, drops axes of length 1 and merges neighbours in each group.
    ///
    /// With `reorder` (ops whose fold is associative and commutative), reduced axes of
    /// negative stride are flipped (the base moves to their last element) and the reduced
    /// axes are sorted by decreasing stride, so reversed or permuted views read contiguous
    /// runs; without it (arg-reductions, whose positions follow the view) they stay as they
    /// are. Kept axes are never reordered nor flipped.
    ///
    /// ```
    /// use cuprite_core::Layout;
    /// let t = Layout::contiguous(&[30, 40]).transposed();
    /// let s = t.split_reduce(&[0, 1], true);
    /// assert!(s.kept.shape.is_empty());
    /// assert_eq!((s.reduced.shape, s.reduced.strides), (vec![1200], vec![1]));
    /// ```
    pub fn split_reduce(&self, axes: &[usize], reorder: bool) -> ReduceSplit {
        let mut base = self.offset() as isize;
        let mut kept = Dims::default();
        let mut red: Vec<(usize, isize)> = Vec::new();
        for (ax, (&n, &s)) in self.shape().iter().zip(self.strides()).enumerate() {
            if n == 1 {
                continue;
            }
            if axes.contains(&ax) {
                red.push((n, s));
            } else {
                kept.shape.push(n);
                kept.strides.push(s);
            }
        }
        let mut reduced = Dims {
            shape: red.iter().map(|r| r.0).collect(),
            strides: red.iter().map(|r| r.1).collect(),
        };
        if reorder {
            base += reduced.flip_negative();
            let mut order: Vec<usize> = (0..reduced.ndim()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(reduced.strides[i]));
            reduced = Dims {
                shape: order.iter().map(|&i| reduced.shape[i]).collect(),
                strides: order.iter().map(|&i| reduced.strides[i]).collect(),
            };
        }
        ReduceSplit {
            kept: kept.merged(),
            reduced: reduced.merged(),
            base,
        }
    }
}

/// The permutation that moves `axes` (in the order given) to the end of `0..ndim`, keeping
/// the other axes in order (what [`Layout::axes_to_end`] applies).
pub fn axes_to_end_perm(ndim: usize, axes: &[usize]) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..ndim).filter(|a| !axes.contains(a)).collect();
    perm.extend_from_slice(axes);
    perm
}

/// The inverse of [`axes_to_end_perm`]: axis `i` of the original order is axis `inv[i]` of
/// the moved one, so permuting a moved view by `inv` restores the original axis order.
///
/// ```
/// use cuprite_core::layout::{axes_to_end_inverse, Layout};
/// let l = Layout::contiguous(&[2, 3, 4, 5]);
/// let moved = l.axes_to_end(&[1, 0]);
/// assert_eq!(moved.shape(), &[4, 5, 3, 2]);
/// let inv: Vec<isize> = axes_to_end_inverse(4, &[1, 0]).iter().map(|&a| a as isize).collect();
/// assert_eq!(moved.permute("t", &inv).unwrap(), l);
/// ```
pub fn axes_to_end_inverse(ndim: usize, axes: &[usize]) -> Vec<usize> {
    let perm = axes_to_end_perm(ndim, axes);
    let mut inv = vec![0; ndim];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    inv
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
