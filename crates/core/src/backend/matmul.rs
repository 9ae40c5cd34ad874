//! Matrix-product primitive: one batched GEMM on strided views. Every product of the API
//! (`matmul`, `dot`, `vdot`, `inner`, `tensordot`, `einsum`) is lowered by core onto it.

use super::memory::BackendBase;
use crate::dtype::Numeric;
use crate::error::Result;
use crate::layout::Layout;

/// Batched matrix products.
pub trait MatmulOps: BackendBase {
    /// `a @ b` for `la = [batch.., m, k]` and `lb = [batch.., k, n]`.
    ///
    /// Contract (core guarantees it): both layouts have the same rank (at least 2) and the same
    /// batch shape (core has broadcast them, so batch strides may be 0); the inner sizes agree.
    /// Strides are arbitrary: negative, zero (broadcast) or non-unit, on every axis. The result
    /// is a new C-contiguous buffer of `[batch.., m, n]`. Integer types wrap on overflow, as
    /// NumPy's; floats propagate NaN and infinities (no `0 * x` shortcuts). `k == 0` gives
    /// zeros and an empty batch, `m == 0` or `n == 0` an empty buffer.
    fn matmul<T: Numeric>(
        &self,
        a: &Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<Self::Buffer<T>>;
}
