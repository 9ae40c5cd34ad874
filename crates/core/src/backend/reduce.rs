//! Reduction primitives: reductions over any set of axes, arg-reductions, scans.

use super::memory::BackendBase;
use crate::dtype::{Element, Integer};
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::{Max, Min, ReduceOp, ScanOp};

/// Which extremum an arg-reduction looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// Index of the first smallest value (the first NaN if any, as NumPy).
    Min,
    /// Index of the first largest value (the first NaN if any, as NumPy).
    Max,
}

/// Reductions and scans.
pub trait ReduceOps: BackendBase {
    /// Reduces the (sorted, distinct) `axes` of the view; the output is C-contiguous with the
    /// remaining axes in order (a single element when every axis is reduced).
    fn reduce<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axes: &[usize],
    ) -> Result<Self::Buffer<K::Out>>;

    /// Index along `axis` of the extremum (the axis has length > 0); output shape is the
    /// view's shape without `axis`.
    fn arg_reduce<T: Element>(
        &self,
        kind: ArgKind,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<i64>>;

    /// The smallest and the largest element of a view of at least one element, as two
    /// one-element buffers: one pass over the input where the backend has one (`bincount`
    /// reads its input's range before it counts); the default reduces twice.
    fn min_max<T: Integer>(
        &self,
        x: &Self::Buffer<T>,
        lx: &Layout,
    ) -> Result<(Self::Buffer<T>, Self::Buffer<T>)> {
        min_max_by_reductions(self, x, lx)
    }

    /// Inclusive scan along `axis`; output has the view's shape, C-contiguous.
    fn scan<T: Element, K: ScanOp<T>>(
        &self,
        op: K,
        x: &Self::Buffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Self::Buffer<K::Out>>;
}

/// [`ReduceOps::min_max`] as a minimum and a maximum: the default, and what a backend with
/// a one-pass form falls back to for views it does not cover.
pub fn min_max_by_reductions<D: ReduceOps, T: Integer>(
    dev: &D,
    x: &D::Buffer<T>,
    lx: &Layout,
) -> Result<(D::Buffer<T>, D::Buffer<T>)> {
    let all: Vec<usize> = (0..lx.ndim()).collect();
    Ok((dev.reduce(Min, x, lx, &all)?, dev.reduce(Max, x, lx, &all)?))
}
