//! NaN-ignoring statistics beyond `nansum`/`nanmean`/`nanmin`/`nanmax`: `nanprod`,
//! `nanvar`/`nanstd` (with `ddof`) and `nanargmin`/`nanargmax`, with NumPy's rules.
//!
//! - `nanprod` is one reduction (NaN counts as one); bool and integers give their `prod`.
//! - `nanvar` follows NumPy's two passes: the NaN-ignoring mean (kept dims), the squared
//!   deviations of the non-NaN elements, their sum over `n - ddof` with `n` the non-NaN
//!   count. A lane with `n - ddof <= 0` (all NaN, or too short) gives NaN, as NumPy (which
//!   also warns). Bool and integers hold no NaN: their `nanvar` is `var`.
//! - `nanargmin`/`nanargmax` replace NaN by `+inf`/`-inf` and run `argmin`/`argmax`, as
//!   NumPy; a lane made only of NaN is an error ("All-NaN slice encountered"), which needs a
//!   look at the data, so for float and complex arrays these two synchronise with the device.

use super::{Array, Axes, MeanReal};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::{NanMean, NanProd, NanSqDev, NanVar, Sqrt};

/// True for the element types that can hold NaN (floats and complex).
fn has_nan<T: Element>() -> bool {
    T::DTYPE.is_float() || T::DTYPE.is_complex()
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Product of every element treating NaN as one (0-d, accumulation type; 1 when empty
    /// or all NaN).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, f64::NAN, 3.0], &[3], dev)?;
    /// assert_eq!(a.nanprod()?.item()?, 6.0);
    /// let i = Array::<u8, B>::from_vec(vec![200, 3], &[2], dev)?;
    /// assert_eq!(i.nanprod()?.item()?, 600u64);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanprod(&self) -> Result<Array<T::Accum, B>> {
        self.reduce_op(NanProd, Axes::All, false)
    }

    /// [`Array::nanprod`] over `axes`.
    pub fn nanprod_axes(
        &self,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Accum, B>> {
        self.reduce_op(NanProd, axes, keepdims)
    }

    /// Variance of the non-NaN elements (0-d, real type: `f64` for bool and integers, `f32`
    /// for `f32` and `c64`) over `n - ddof` degrees of freedom, `n` the non-NaN count; NaN
    /// when `n - ddof <= 0`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, 3.0], &[3], dev)?;
    /// assert_eq!(a.nanvar(0.0)?.item()?, 1.0);
    /// assert_eq!(a.nanstd(1.0)?.item()?, 2f64.sqrt());
    /// assert!(a.nanvar(2.0)?.item()?.is_nan());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanvar(&self, ddof: f64) -> Result<Array<MeanReal<T>, B>> {
        self.nanvar_axes(Axes::All, ddof, false)
    }

    /// [`Array::nanvar`] over `axes` (complex: of `|x - mean|`).
    pub fn nanvar_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        let axes = axes.into().resolve("nanvar", self.ndim())?;
        if !has_nan::<T>() {
            return self.var_axes(axes, ddof, keepdims);
        }
        let mean = self.reduce_resolved(NanMean, &axes, true)?;
        let sq = self.as_mean()?.zip_op(NanSqDev, &mean)?;
        sq.reduce_resolved(NanVar { ddof }, &axes, keepdims)
    }

    /// Standard deviation of the non-NaN elements: `sqrt(nanvar(ddof))` (0-d, real).
    pub fn nanstd(&self, ddof: f64) -> Result<Array<MeanReal<T>, B>> {
        self.nanstd_axes(Axes::All, ddof, false)
    }

    /// [`Array::nanstd`] over `axes`.
    pub fn nanstd_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        self.nanvar_axes(axes, ddof, keepdims)?.map_op(Sqrt)
    }

    /// Flat C-order index of the first smallest non-NaN element (0-d `i64`), as NumPy's
    /// `nanargmin`: NaN is replaced by `+inf` before `argmin`.
    ///
    /// # Errors
    /// An empty array; an array of only NaN ("All-NaN slice encountered").
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![f64::NAN, 4.0, -1.0, f64::NAN], &[2, 2], dev)?;
    /// assert_eq!(a.nanargmin()?.item()?, 2);
    /// assert_eq!(a.nanargmax()?.item()?, 1);
    /// assert_eq!(a.nanargmax_axis(0, false)?.to_vec()?, vec![1, 0]);
    /// assert_eq!(a.nanargmin_axis(1, false)?.to_vec()?, vec![1, 0]);
    /// // A lane of only NaN has no answer.
    /// let b = Array::<f64, B>::from_vec(vec![f64::NAN, f64::NAN, 1.0, 2.0], &[2, 2], dev)?;
    /// assert!(b.nanargmin_axis(1, false).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanargmin(&self) -> Result<Array<i64, B>> {
        self.nan_arg(false, None, false)
    }

    /// Flat C-order index of the first largest non-NaN element (0-d `i64`), as NumPy's
    /// `nanargmax` (NaN replaced by `-inf` before `argmax`).
    ///
    /// # Errors
    /// An empty array; an array of only NaN.
    pub fn nanargmax(&self) -> Result<Array<i64, B>> {
        self.nan_arg(true, None, false)
    }

    /// Index along `axis` of the first smallest non-NaN element of every lane.
    ///
    /// # Errors
    /// `axis` out of range, an empty `axis`, or a lane of only NaN.
    pub fn nanargmin_axis(&self, axis: isize, keepdims: bool) -> Result<Array<i64, B>> {
        self.nan_arg(false, Some(axis), keepdims)
    }

    /// Index along `axis` of the first largest non-NaN element of every lane.
    ///
    /// # Errors
    /// `axis` out of range, an empty `axis`, or a lane of only NaN.
    pub fn nanargmax_axis(&self, axis: isize, keepdims: bool) -> Result<Array<i64, B>> {
        self.nan_arg(true, Some(axis), keepdims)
    }

    fn nan_arg(&self, max: bool, axis: Option<isize>, keepdims: bool) -> Result<Array<i64, B>> {
        let op = if max { "nanargmax" } else { "nanargmin" };
        let ax = axis
            .map(|a| normalize_axis(op, a, self.ndim()))
            .transpose()?;
        let empty = match ax {
            None => self.size() == 0,
            Some(a) => self.shape()[a] == 0,
        };
        if empty {
            return Err(Error::invalid(
                op,
                format!(
                    "attempt to get {} of an empty sequence (shape {:?}, axis {axis:?})",
                    &op[3..],
                    self.shape()
                ),
            ));
        }
        let src = if has_nan::<T>() {
            let mask = self.isnan()?;
            let all_nan = match ax {
                None => mask.all()?,
                Some(a) => mask.all_axes(a as isize, false)?.any()?,
            };
            if all_nan.item()? {
                return Err(Error::invalid(
                    op,
                    format!(
                        "All-NaN slice encountered (shape {:?}, axis {axis:?})",
                        self.shape()
                    ),
                ));
            }
            let fill = if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            let fill = Array::full(&[], T::from_scalar(Scalar::F64(fill)), &self.device)?;
            Array::where_(&mask, &fill, self)?
        } else {
            self.clone()
        };
        match (ax, max) {
            (None, false) => src.argmin(),
            (None, true) => src.argmax(),
            (Some(a), false) => src.argmin_axis(a as isize, keepdims),
            (Some(a), true) => src.argmax_axis(a as isize, keepdims),
        }
    }
}
