//! Sorting primitives: stable sorts and argsorts along an axis, partial sorts (partition),
//! binary search and uniqueness. Every ordering is [`Element::sort_cmp`]: NaN after every
//! number, `-0.0` equal to `0.0`, complex numbers lexicographic, `false < true`.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;

/// Sorting, partial sorting, searching and uniqueness. Core has resolved the axis (in
/// `0..ndim`, never called on a 0-d layout) and checked `kth` (in `0..shape[axis]`).
pub trait SortOps: BackendBase {
    /// Stable sort of every lane along `axis` in [`Element::sort_cmp`] order; output has the
    /// view's shape, C-contiguous.
    fn sort<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<T>>;

    /// Indices (along `axis`) that sort every lane along `axis` stably; output has the view's
    /// shape, C-contiguous.
    fn argsort<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<i64>>;

    /// Partial sort of every lane along `axis`: the element at position `kth` is the one a
    /// full sort would put there, no element before it compares greater and none after it
    /// compares less. Output has the view's shape, C-contiguous.
    fn partition<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<Self::Buffer<T>>;

    /// Indices (along `axis`) that partition every lane as [`SortOps::partition`] does.
    fn argpartition<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<Self::Buffer<i64>>;

    /// For each value, the insertion index into the sorted 1-d view `sorted` (leftmost when
    /// `right` is false); output has the shape of `lv`, C-contiguous.
    fn searchsorted<T: Element>(
        &self,
        sorted: &Self::Buffer<T>,
        ls: &Layout,
        values: &Self::Buffer<T>,
        lv: &Layout,
        right: bool,
    ) -> Result<Self::Buffer<i64>>;

    /// The sorted distinct values of the view (all elements, C order; NaNs collapse into one,
    /// `-0.0` and `0.0` into one) and their number.
    fn unique<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<(Self::Buffer<T>, usize)>;

    /// Like [`SortOps::unique`], plus for each distinct value the flat C-order index of its
    /// first occurrence and its count, and for each input element (C order) the position of
    /// its value among the distinct ones: `(values, indices, inverse, counts, n_distinct)`.
    #[allow(clippy::type_complexity)]
    fn unique_all<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<(
        Self::Buffer<T>,
        Self::Buffer<i64>,
        Self::Buffer<i64>,
        Self::Buffer<i64>,
        usize,
    )>;
}
