//! Sorting primitives: stable sorts and argsorts along an axis (NaN last), binary search.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;

/// Sorting and searching.
pub trait SortOps: BackendBase {
    /// Stable sort of every lane along `axis` in [`Element::sort_cmp`] order; output has the
    /// view's shape, C-contiguous.
    fn sort<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<T>>;

    /// Indices that sort every lane along `axis` stably; output has the view's shape.
    fn argsort<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
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
}
