//! Boolean-mask primitives: selection, assignment, counting and the positions of nonzero
//! elements. Core has checked the shapes (a mask given for the leading dimensions arrives
//! broadcast to the full shape, with zero strides) and the number of values.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;

/// Compaction and expansion by boolean masks.
pub trait MaskOps: BackendBase {
    /// Elements where `mask` (same shape) is true, in C order, and their count.
    fn mask_select<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
        mask: &Self::Buffer<bool>,
        lm: &Layout,
    ) -> Result<(Self::Buffer<T>, usize)>;

    /// Multi-indices (row-major `[count, ndim]`) of the truthy elements in C order, and their
    /// count.
    fn nonzero<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<(Self::Buffer<i64>, usize)>;

    /// Number of truthy elements of the view (a blocking read of one number).
    fn count_nonzero<T: Element>(&self, x: &Self::Buffer<T>, lx: &Layout) -> Result<usize>;

    /// Writes `values` into `dst` where `mask` (same shape as `dst`) is true: `values` is a
    /// view of any shape whose C-order elements pair up with the true elements of `mask` in
    /// C order, or a view of one element written everywhere. A different number of values is
    /// an [`Error::InvalidArgument`](crate::Error::InvalidArgument) and leaves `dst` unchanged.
    /// `dst` has no overlapping elements and is not shared.
    #[allow(clippy::too_many_arguments)]
    fn mask_assign<T: Element>(
        &self,
        dst: &mut Self::Buffer<T>,
        ld: &Layout,
        mask: &Self::Buffer<bool>,
        lm: &Layout,
        values: &Self::Buffer<T>,
        lv: &Layout,
    ) -> Result<()>;
}
