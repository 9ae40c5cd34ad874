//! Boolean-mask primitives: selection, assignment and the positions of nonzero elements.

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

    /// Multi-indices (row-major `[count, ndim]`) of the truthy elements, and their count.
    fn nonzero<T: Element>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<(Self::Buffer<i64>, usize)>;

    /// Writes `values` (1-d, one per true element of `mask`, or a single value) into `dst`
    /// where `mask` (same shape as `dst`) is true.
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
