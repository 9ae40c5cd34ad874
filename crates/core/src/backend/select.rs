//! Selection primitives: order statistics of every lane without a full sort (the partial
//! sorts behind `median`, `quantile` and `percentile`). The order is
//! [`Element::sort_cmp`]: NaN after every number, `-0.0` equal to `0.0`.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;

/// Order statistics. Core has resolved the axis (in `0..ndim`, never called on a 0-d
/// layout) and checked the positions.
pub trait SelectOps: BackendBase {
    /// The order statistics at the positions `kth` (sorted ascending, distinct, each less
    /// than `shape[axis]`, which is not 0) of every lane along `axis`: the values a full
    /// sort of the lane in [`Element::sort_cmp`] order would put at those positions (equal
    /// under `sort_cmp`: the sign of a zero and the payload of a NaN are not kept). Output
    /// has shape `[kth.len(), the view's shape without axis...]`, C-contiguous.
    fn select_kth<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
        kth: &[usize],
    ) -> Result<Self::Buffer<T>>;
}
