//! [`Axes`]: the axis argument of reductions and shape ops — one axis, several, or all.

use crate::error::Result;
use crate::layout::normalize_axes;

/// Which axes an op works on. Built from an `isize`/`i32`/`usize` (one axis, negative counts
/// from the end), an array, slice or `Vec` of them, or [`Axes::All`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Axes {
    /// Every axis.
    All,
    /// The listed axes (possibly negative).
    Some(Vec<isize>),
}

impl Axes {
    /// Resolves against `ndim`: sorted, distinct, non-negative axes.
    pub fn resolve(&self, op: &'static str, ndim: usize) -> Result<Vec<usize>> {
        match self {
            Axes::All => Ok((0..ndim).collect()),
            Axes::Some(v) => normalize_axes(op, v, ndim),
        }
    }

    /// [`Axes::resolve`] for NumPy's ufunc reductions (`sum`, `max`, `any`, `argmax`, ...),
    /// which also accept axis `0` or `-1` of a 0-d array: it reduces the one element, as
    /// reducing every axis does.
    pub(crate) fn resolve_reduction(&self, op: &'static str, ndim: usize) -> Result<Vec<usize>> {
        match self {
            Axes::Some(v) if ndim == 0 && matches!(v.as_slice(), [0] | [-1]) => Ok(Vec::new()),
            _ => self.resolve(op, ndim),
        }
    }
}

/// [`crate::layout::normalize_axis`] for the ufunc reductions to one axis (`argmax`) and
/// `argsort`: axis `0` or `-1` of a 0-d array is `None` (the one element).
pub(crate) fn reduction_axis(op: &'static str, axis: isize, ndim: usize) -> Result<Option<usize>> {
    if ndim == 0 && (axis == 0 || axis == -1) {
        return Ok(None);
    }
    crate::layout::normalize_axis(op, axis, ndim).map(Some)
}

macro_rules! axes_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Axes {
            fn from(a: $t) -> Self { Axes::Some(vec![a as isize]) }
        }
        impl<const N: usize> From<[$t; N]> for Axes {
            fn from(a: [$t; N]) -> Self { Axes::Some(a.iter().map(|&x| x as isize).collect()) }
        }
        impl From<&[$t]> for Axes {
            fn from(a: &[$t]) -> Self { Axes::Some(a.iter().map(|&x| x as isize).collect()) }
        }
        impl From<Vec<$t>> for Axes {
            fn from(a: Vec<$t>) -> Self { Axes::Some(a.iter().map(|&x| x as isize).collect()) }
        }
    )*};
}
axes_from!(isize, i32, i64, usize);
