//! Matrix-product primitive.

use super::memory::BackendBase;
use crate::dtype::Numeric;
use crate::error::Result;
use crate::layout::Layout;

/// Batched matrix products.
pub trait MatmulOps: BackendBase {
    /// `a @ b` for `la = [batch.., m, k]` and `lb = [batch.., k, n]` with identical batch
    /// shapes (core has broadcast them); output `[batch.., m, n]`, C-contiguous. Any strides.
    fn matmul<T: Numeric>(
        &self,
        a: &Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<Self::Buffer<T>>;
}
