//! Reductions and scans: `sum`, `prod`, `mean`, `min`/`max`, `argmin`/`argmax`, `all`/`any`,
//! `count_nonzero`, the NaN-ignoring variants (`nansum`, `nanmean`, `nanmin`, `nanmax`),
//! `ptp`, `cumsum`/`cumprod`. Each reduction comes as a pair: `x.sum()` reduces every axis to
//! a 0-d array (fetch it with [`Array::item`]), `x.sum_axes(axes, keepdims)` reduces the
//! given axes (one `isize`, several, or [`Axes::All`]; negative axes count from the end).
//! The statistics built on top (`var`, `std`, `median`, `quantile`, `percentile`) live in the
//! child module `stats`.

mod stats;

pub use stats::MeanReal;

use super::{Array, Axes};
use crate::backend::{ArgKind, ArrayBackend};
use crate::dtype::{Element, Real};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::{
    All, Any, CountNonzero, CumProd, CumSum, Max, Mean, Min, NanMax, NanMean, NanMin, NanSum, Prod,
    ReduceOp, ScanOp, Sub, Sum,
};

/// The shape left after reducing the (sorted) `axes` of `shape`: the axes removed, or kept
/// with length 1 when `keepdims`.
pub(crate) fn reduced_shape(shape: &[usize], axes: &[usize], keepdims: bool) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(i, &d)| match (axes.contains(&i), keepdims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// NumPy's ufunc name of an extremum reduction, for its "no identity" message.
fn ufunc_name(op: &'static str) -> &'static str {
    match op {
        "min" | "nanmin" => "minimum",
        "max" | "nanmax" => "maximum",
        other => other,
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Reduces `axes` with any [`ReduceOp`] (the engine behind every named reduction).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::ramp(6, 0, 1, dev)?.reshape(&[2, 3])?;
    /// let s = a.reduce_op(ops::Sum, 1, false)?;
    /// assert_eq!(s.to_vec()?, vec![3i64, 12]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn reduce_op<K: ReduceOp<T>>(
        &self,
        op: K,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<K::Out, B>> {
        let axes = axes.into().resolve_reduction(K::NAME, self.ndim())?;
        self.reduce_resolved(op, &axes, keepdims)
    }

    /// [`Array::reduce_op`] with axes already resolved (sorted, distinct, in range).
    pub(crate) fn reduce_resolved<K: ReduceOp<T>>(
        &self,
        op: K,
        axes: &[usize],
        keepdims: bool,
    ) -> Result<Array<K::Out, B>> {
        let buf = self.device.reduce(op, &self.buf, &self.layout, axes)?;
        let shape = reduced_shape(self.shape(), axes, keepdims);
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// Like [`Array::reduce_op`] for ops without an identity (min, max): reducing an empty
    /// axis is an error, as in NumPy.
    pub(crate) fn reduce_no_identity<K: ReduceOp<T>>(
        &self,
        op: K,
        axes: Axes,
        keepdims: bool,
    ) -> Result<Array<K::Out, B>> {
        self.reduce_no_identity_as(K::NAME, op, axes, keepdims)
    }

    /// [`Array::reduce_no_identity`] on behalf of the op `name` (a composition such as
    /// `ptp`), which its errors name.
    pub(crate) fn reduce_no_identity_as<K: ReduceOp<T>>(
        &self,
        name: &'static str,
        op: K,
        axes: Axes,
        keepdims: bool,
    ) -> Result<Array<K::Out, B>> {
        let axes = axes.resolve_reduction(name, self.ndim())?;
        if axes.iter().any(|&a| self.shape()[a] == 0) {
            return Err(Error::invalid(
                name,
                format!(
                    "zero-size array to reduction operation {} which has no identity \
                     (shape {:?}, axes {axes:?})",
                    ufunc_name(K::NAME),
                    self.shape()
                ),
            ));
        }
        self.reduce_resolved(op, &axes, keepdims)
    }

    /// Sum of every element as a 0-d array in the accumulation type (`i64` for bool and
    /// signed integers, `u64` for unsigned ones, both wrapping on overflow as NumPy's do;
    /// `f32` work rounded to the type for `f16`/`bf16`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![200, 100], &[2], dev)?;
    /// assert_eq!(a.sum()?.item()?, 300u64);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn sum(&self) -> Result<Array<T::Accum, B>> {
        self.reduce_op(Sum, Axes::All, false)
    }

    /// Sum over `axes`; `keepdims` keeps them with length 1 (for broadcasting back).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::ramp(6, 0.0, 1.0, dev)?.reshape(&[2, 3])?;
    /// assert_eq!(a.sum_axes(0, false)?.to_vec()?, vec![3.0, 5.0, 7.0]);
    /// assert_eq!(a.sum_axes(-1, true)?.shape(), &[2, 1]);
    /// assert_eq!(a.sum_axes([0, 1], false)?.item()?, 15.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn sum_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Accum, B>> {
        self.reduce_op(Sum, axes, keepdims)
    }

    /// Product of every element (0-d, accumulation type; 1 for an empty array).
    pub fn prod(&self) -> Result<Array<T::Accum, B>> {
        self.reduce_op(Prod, Axes::All, false)
    }

    /// Product over `axes`.
    pub fn prod_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Accum, B>> {
        self.reduce_op(Prod, axes, keepdims)
    }

    /// Arithmetic mean of every element (0-d, `f64` for bool and integers; NaN when empty).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// assert_eq!(a.mean()?.item()?, 1.5f64);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn mean(&self) -> Result<Array<T::Mean, B>> {
        self.reduce_op(Mean, Axes::All, false)
    }

    /// Mean over `axes`.
    pub fn mean_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Mean, B>> {
        self.reduce_op(Mean, axes, keepdims)
    }

    /// True when every element is truthy (0-d; true for an empty array).
    pub fn all(&self) -> Result<Array<bool, B>> {
        self.reduce_op(All, Axes::All, false)
    }

    /// [`Array::all`] over `axes`.
    pub fn all_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<bool, B>> {
        self.reduce_op(All, axes, keepdims)
    }

    /// True when some element is truthy (0-d; false for an empty array).
    pub fn any(&self) -> Result<Array<bool, B>> {
        self.reduce_op(Any, Axes::All, false)
    }

    /// [`Array::any`] over `axes`.
    pub fn any_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<bool, B>> {
        self.reduce_op(Any, axes, keepdims)
    }

    /// Number of truthy elements (0-d `i64`).
    pub fn count_nonzero(&self) -> Result<Array<i64, B>> {
        self.reduce_op(CountNonzero, Axes::All, false)
    }

    /// Number of truthy elements over `axes`.
    pub fn count_nonzero_axes(
        &self,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<i64, B>> {
        self.reduce_op(CountNonzero, axes, keepdims)
    }

    /// Sum treating NaN as zero (0-d, accumulation type).
    pub fn nansum(&self) -> Result<Array<T::Accum, B>> {
        self.reduce_op(NanSum, Axes::All, false)
    }

    /// [`Array::nansum`] over `axes`.
    pub fn nansum_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Accum, B>> {
        self.reduce_op(NanSum, axes, keepdims)
    }

    /// Mean of the non-NaN elements (0-d; NaN when every element is NaN).
    pub fn nanmean(&self) -> Result<Array<T::Mean, B>> {
        self.reduce_op(NanMean, Axes::All, false)
    }

    /// [`Array::nanmean`] over `axes`.
    pub fn nanmean_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Mean, B>> {
        self.reduce_op(NanMean, axes, keepdims)
    }

    /// Flat C-order index (into this view) of the first largest element, as a 0-d `i64`
    /// array; a NaN counts as the largest (the first NaN wins, as NumPy).
    ///
    /// # Errors
    /// An empty array has no argmax.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 5.0, 5.0, -2.0], &[2, 2], dev)?;
    /// assert_eq!(a.argmax()?.item()?, 1);
    /// assert_eq!(a.argmin_axis(1, false)?.to_vec()?, vec![0, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argmax(&self) -> Result<Array<i64, B>> {
        self.arg_flat(ArgKind::Max, "argmax")
    }

    /// Flat C-order index of the first smallest element (0-d `i64`; the first NaN if any).
    ///
    /// # Errors
    /// An empty array has no argmin.
    pub fn argmin(&self) -> Result<Array<i64, B>> {
        self.arg_flat(ArgKind::Min, "argmin")
    }

    /// Index along `axis` of the first largest element of every lane (NaN counts as largest).
    ///
    /// # Errors
    /// `axis` out of range, or an empty `axis`.
    pub fn argmax_axis(&self, axis: isize, keepdims: bool) -> Result<Array<i64, B>> {
        self.arg_axis(ArgKind::Max, "argmax", axis, keepdims)
    }

    /// Index along `axis` of the first smallest element of every lane (NaN counts as
    /// smallest).
    ///
    /// # Errors
    /// `axis` out of range, or an empty `axis`.
    pub fn argmin_axis(&self, axis: isize, keepdims: bool) -> Result<Array<i64, B>> {
        self.arg_axis(ArgKind::Min, "argmin", axis, keepdims)
    }

    fn arg_flat(&self, kind: ArgKind, op: &'static str) -> Result<Array<i64, B>> {
        if self.size() == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "attempt to get {op} of an empty sequence (shape {:?})",
                    self.shape()
                ),
            ));
        }
        let flat = self.reshape(&[-1])?;
        let buf = self.device.arg_reduce(kind, &flat.buf, &flat.layout, 0)?;
        Ok(Array::from_contiguous(buf, &[], &self.device))
    }

    fn arg_axis(
        &self,
        kind: ArgKind,
        op: &'static str,
        axis: isize,
        keepdims: bool,
    ) -> Result<Array<i64, B>> {
        let Some(ax) = super::axes::reduction_axis(op, axis, self.ndim())? else {
            // A 0-d array: the index of its one element.
            return self.arg_flat(kind, op);
        };
        if self.shape()[ax] == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "attempt to get {op} of an empty sequence (axis {axis} of shape {:?})",
                    self.shape()
                ),
            ));
        }
        let buf = self.device.arg_reduce(kind, &self.buf, &self.layout, ax)?;
        let shape = reduced_shape(self.shape(), &[ax], keepdims);
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// Runs any [`ScanOp`] along `axis` (`None`: over the flattened array, as NumPy). A 0-d
    /// array gives a 1-d array of one element for `None`, `Some(0)` and `Some(-1)`.
    pub fn scan_op<K: ScanOp<T>>(&self, op: K, axis: Option<isize>) -> Result<Array<K::Out, B>> {
        let (src, ax) = match axis {
            None => (self.reshape(&[-1])?, 0),
            // A 0-d array scans as a 1-d array of one element (NumPy: `[x]`).
            Some(a) if self.ndim() == 0 => (self.reshape(&[1])?, normalize_axis(K::NAME, a, 1)?),
            Some(a) => (self.clone(), normalize_axis(K::NAME, a, self.ndim())?),
        };
        let buf = self.device.scan(op, &src.buf, &src.layout, ax)?;
        Ok(Array::from_contiguous(buf, src.shape(), &self.device))
    }

    /// Running sum along `axis` (`None` flattens first) in the accumulation type.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::ramp(6, 1, 1, dev)?.reshape(&[2, 3])?;
    /// assert_eq!(a.cumsum(Some(1))?.to_vec()?, vec![1i64, 3, 6, 4, 9, 15]);
    /// assert_eq!(a.cumsum(None)?.shape(), &[6]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn cumsum(&self, axis: Option<isize>) -> Result<Array<T::Accum, B>> {
        self.scan_op(CumSum, axis)
    }

    /// Running product along `axis` (`None` flattens first) in the accumulation type.
    pub fn cumprod(&self, axis: Option<isize>) -> Result<Array<T::Accum, B>> {
        self.scan_op(CumProd, axis)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// Smallest element (0-d); NaN if any element is NaN.
    ///
    /// # Errors
    /// An empty array (NumPy: "zero-size array to reduction operation minimum which has no
    /// identity").
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![3, -1, 4, 1], &[2, 2], dev)?;
    /// assert_eq!(a.min()?.item()?, -1);
    /// assert_eq!(a.max_axes(0, false)?.to_vec()?, vec![4, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn min(&self) -> Result<Self> {
        self.reduce_no_identity(Min, Axes::All, false)
    }

    /// Smallest element over `axes` (NaN propagates; an empty reduced axis is an error).
    pub fn min_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        self.reduce_no_identity(Min, axes.into(), keepdims)
    }

    /// Largest element (0-d); NaN if any element is NaN.
    ///
    /// # Errors
    /// An empty array.
    pub fn max(&self) -> Result<Self> {
        self.reduce_no_identity(Max, Axes::All, false)
    }

    /// Largest element over `axes` (NaN propagates; an empty reduced axis is an error).
    pub fn max_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        self.reduce_no_identity(Max, axes.into(), keepdims)
    }

    /// Smallest non-NaN element (0-d; NaN when every element is NaN).
    ///
    /// # Errors
    /// An empty array.
    pub fn nanmin(&self) -> Result<Self> {
        self.reduce_no_identity(NanMin, Axes::All, false)
    }

    /// [`Array::nanmin`] over `axes`.
    pub fn nanmin_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        self.reduce_no_identity(NanMin, axes.into(), keepdims)
    }

    /// Largest non-NaN element (0-d; NaN when every element is NaN).
    ///
    /// # Errors
    /// An empty array.
    pub fn nanmax(&self) -> Result<Self> {
        self.reduce_no_identity(NanMax, Axes::All, false)
    }

    /// [`Array::nanmax`] over `axes`.
    pub fn nanmax_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        self.reduce_no_identity(NanMax, axes.into(), keepdims)
    }

    /// Peak to peak, `max - min` (0-d, same type; integers wrap as NumPy's).
    ///
    /// # Errors
    /// An empty array.
    pub fn ptp(&self) -> Result<Self> {
        self.ptp_axes(Axes::All, false)
    }

    /// `max - min` over `axes`.
    pub fn ptp_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        const OP: &str = "ptp";
        let axes = axes.into();
        let hi = self.reduce_no_identity_as(OP, Max, axes.clone(), keepdims)?;
        let lo = self.reduce_no_identity_as(OP, Min, axes, keepdims)?;
        hi.zip_op(Sub, &lo)
    }
}
