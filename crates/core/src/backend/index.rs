//! Indexing primitives: gathers and scatters by integer indices and by boolean masks.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;

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
}
