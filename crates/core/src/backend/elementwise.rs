//! Element-wise primitives. Layouts passed together always have the same shape (core has
//! broadcast them); outputs are new C-contiguous buffers of that shape unless written in place.

use super::memory::BackendBase;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::{BinaryOp, UnaryOp};

/// Element-wise maps, in place and out of place.
pub trait ElementwiseOps: BackendBase {
    /// `op(x)` for every element.
    fn unary<T: Element, K: UnaryOp<T>>(
        &self,
        op: K,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<Self::Buffer<K::Out>>;

    /// `op(a, b)` for every pair of elements.
    fn binary<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<Self::Buffer<K::Out>>;

    /// `op(a, s)` for every element, or `op(s, a)` when `scalar_first`.
    fn binary_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &Self::Buffer<T>,
        la: &Layout,
        s: T,
        scalar_first: bool,
    ) -> Result<Self::Buffer<K::Out>>;

    /// `x = op(x)` through the view `lx` (unique buffer, no overlapping elements).
    fn unary_inplace<T: Element, K: UnaryOp<T, Out = T>>(
        &self,
        op: K,
        x: &mut Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<()>;

    /// `a = op(a, b)` through the view `la` (unique buffer, no overlapping elements).
    fn binary_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<()>;

    /// `a = op(a, s)` through the view `la` (unique buffer, no overlapping elements).
    fn binary_scalar_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut Self::Buffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<()>;

    /// `cond ? a : b` for every element.
    #[allow(clippy::too_many_arguments)]
    fn where_<T: Element>(
        &self,
        cond: &Self::Buffer<bool>,
        lc: &Layout,
        a: &Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<Self::Buffer<T>>;
}
