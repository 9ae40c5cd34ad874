//! Indexing primitives: gathers and scatters by integer indices and by boolean masks, and
//! the counting of values into bins behind `histogram`.

use super::memory::BackendBase;
use crate::dtype::{Element, Float, Numeric, Real};
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::BinaryOp;

/// NumPy's arithmetic for equal bins, for [`IndexOps::bin_add`]: a value `x` (in the edges'
/// type) inside `first..=last` goes to bin `trunc((x - first) / denom * bins)` (at most the
/// last bin), then one bin down when `x < edges[i]` and one up when `x >= edges[i + 1]`
/// (except from the last bin), so the edges decide within an ulp of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UniformBins<E> {
    /// The first edge.
    pub first: E,
    /// The last edge.
    pub last: E,
    /// The width of the range the values are scaled by (NumPy's `norm_denom`).
    pub denom: E,
}

/// Gathers and scatters. Indices are `i64`; negative ones count from the end of the axis;
/// an index outside `-n..n` is [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange).
pub trait IndexOps: BackendBase {
    /// `x.take(idx, axis)`: output shape `x.shape[..axis] + idx.shape + x.shape[axis+1..]`.
    fn take<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
        idx: &Self::Buffer<i64>,
        li: &Layout,
    ) -> Result<Self::Buffer<T>>;

    /// `take_along_axis`: `li` has the view's shape except along `axis`; output shape `li`.
    fn take_along_axis<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        idx: &Self::Buffer<i64>,
        li: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<T>>;

    /// `put_along_axis`: `dst[.., idx[i], ..] = values[i]` along `axis`, where `li` and `lv`
    /// have the same shape, equal to `dst`'s except along `axis` (`put` is the 1-d case).
    /// `dst` is unshared and has no overlapping elements. Writes along one lane happen in
    /// index order, so the last value for a repeated index wins (NumPy's behaviour); all
    /// indices are checked before anything is written, so an error leaves `dst` unchanged.
    #[allow(clippy::too_many_arguments)]
    fn scatter<T: Element>(
        &self,
        dst: &mut Self::Buffer<T>,
        ld: &Layout,
        axis: usize,
        idx: &Self::Buffer<i64>,
        li: &Layout,
        values: &Self::Buffer<T>,
        lv: &Layout,
    ) -> Result<()>;

    /// NumPy's unbuffered `ufunc.at` on a 1-d destination: for every element `i` of the
    /// index view, `dst[idx[i]] = op(dst[idx[i]], values[i])`. `ld` is 1-d (any stride, no
    /// overlapping elements, `dst` unshared); `li` and `lv` have the same shape. Every value
    /// of a repeated index is combined into its element (`add` counts duplicates, as
    /// `np.add.at` and `np.bincount`); the order of the combinations is unspecified, so a
    /// floating-point sum may round differently from a sequential loop. Negative indices
    /// count from the end; every index is checked before anything is written, so an error
    /// leaves `dst` unchanged. `op` takes no parameters.
    #[allow(clippy::too_many_arguments)]
    fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
        &self,
        dst: &mut Self::Buffer<T>,
        ld: &Layout,
        idx: &Self::Buffer<i64>,
        li: &Layout,
        values: &Self::Buffer<T>,
        lv: &Layout,
        op: O,
    ) -> Result<()>;

    /// Counts values into bins (NumPy's `histogram`): for every element of `x` (any view)
    /// its bin among `bins = edges.len() - 1` bins is found in the edges' type `E`
    /// (`uniform`: NumPy's arithmetic for equal bins, see [`UniformBins`]; `None`: by binary
    /// search, `edges[i] <= x < edges[i + 1]`, the last edge inclusive), and `out[bin]` (a
    /// contiguous 1-d buffer of `bins` elements) is added the element's weight (the element
    /// of `weights`, a view of `x`'s shape) or 1. Values outside the edges and NaN are not
    /// counted. `edges` is contiguous, 1-d, increasing, with at least 2 elements; the order
    /// of the additions is unspecified.
    #[allow(clippy::too_many_arguments)]
    fn bin_add<T: Real, E: Float, W: Numeric>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        edges: &Self::Buffer<E>,
        le: &Layout,
        uniform: Option<UniformBins<E>>,
        weights: Option<(&Self::Buffer<W>, &Layout)>,
        out: &mut Self::Buffer<W>,
        lo: &Layout,
    ) -> Result<()>;
}
