//! Statistics composed from the reduction, element-wise and sort primitives: `var`/`std`
//! (the mean with keepdims, squared deviations `|x - mean|^2`, a ddof-corrected sum),
//! `median` and `quantile`/`percentile` (NumPy's default 'linear' method: the reduced axes
//! are moved to the end and sorted, then the neighbouring order statistics interpolated).

use super::reduced_shape;
use crate::array::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};
use crate::error::{Error, Result};
use crate::ops::{AbsSqDiff, Add, DdofMean, Div, Mean, Mul, PropagateNan, Sqrt, Sub};
use std::any::Any;

/// The element type of `var`/`std` of a `T` array: the real type under `T::Mean`
/// (`f64` for bool and integers, `f32` for `f32` and `c64`).
pub type MeanReal<T> = <<T as Element>::Mean as Inexact>::RealPart;

/// Rejects a quantile outside `[0, 1]` (`scale` 100 for percentiles), NaN included.
fn check_q(op: &'static str, q: f64, scale: f64) -> Result<f64> {
    if (0.0..=scale).contains(&q) {
        Ok(if scale == 1.0 { q } else { q / scale })
    } else {
        let what = if scale == 1.0 {
            "Quantiles"
        } else {
            "Percentiles"
        };
        Err(Error::invalid(
            op,
            format!("{what} must be in the range [0, {scale}], got {q}"),
        ))
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// This array as `T::Mean` values: the array itself when the types agree, else a cast.
    pub(crate) fn as_mean(&self) -> Result<Array<T::Mean, B>> {
        if let Some(same) = (self as &dyn Any).downcast_ref::<Array<T::Mean, B>>() {
            return Ok(same.clone());
        }
        self.astype()
    }

    /// Variance of every element (0-d, real): the mean of `|x - mean|^2` over `n - ddof`.
    /// `n - ddof <= 0` gives inf or NaN, as NumPy.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[4], dev)?;
    /// assert_eq!(a.var(0.0)?.item()?, 1.25f64);
    /// assert_eq!(a.std(1.0)?.item()?, (5.0f64 / 3.0).sqrt());
    /// # Ok(()) }
    /// ```
    pub fn var(&self, ddof: f64) -> Result<Array<MeanReal<T>, B>> {
        self.var_axes(Axes::All, ddof, false)
    }

    /// Variance over `axes` with `ddof` delta degrees of freedom (complex: of `|x - mean|`).
    pub fn var_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        let axes = axes.into().resolve("var", self.ndim())?;
        let mean = self.reduce_resolved(Mean, &axes, true)?;
        let sq = self.as_mean()?.zip_op(AbsSqDiff, &mean)?;
        sq.reduce_resolved(DdofMean { ddof }, &axes, keepdims)
    }

    /// Standard deviation of every element (0-d, real): `sqrt(var(ddof))`.
    pub fn std(&self, ddof: f64) -> Result<Array<MeanReal<T>, B>> {
        self.std_axes(Axes::All, ddof, false)
    }

    /// Standard deviation over `axes`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let m = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 6.0], &[2, 2], dev)?;
    /// assert_eq!(m.std_axes(0, 0.0, true)?.to_vec()?, vec![1.0, 2.0]);
    /// # Ok(()) }
    /// ```
    pub fn std_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        self.var_axes(axes, ddof, keepdims)?.map_op(Sqrt)
    }

    /// The reduced `axes` moved to the end and flattened into one, every lane sorted:
    /// shape `(kept..., k)`, C-contiguous.
    fn sorted_lanes(&self, axes: &[usize]) -> Result<Array<T, B>> {
        let nd = self.ndim();
        let moved = self.layout.axes_to_end(axes);
        let split = nd - axes.len();
        let k: usize = moved.shape()[split..].iter().product();
        let mut shape: Vec<isize> = moved.shape()[..split].iter().map(|&d| d as isize).collect();
        shape.push(k as isize);
        let lanes = self.with_layout(moved).reshape(&shape)?;
        if k <= 1 || lanes.size() == 0 {
            return lanes.to_contiguous();
        }
        let buf = self.device.sort(&lanes.buf, &lanes.layout, split)?;
        Ok(Array::from_contiguous(buf, lanes.shape(), &self.device))
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B>
where
    T::Mean: Float,
{
    /// Median of every element (0-d; `f64` for integers). A NaN anywhere gives NaN; an
    /// empty array gives NaN, as NumPy.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![7, 1, 4, 2], &[4], dev)?;
    /// assert_eq!(a.median()?.item()?, 3.0);
    /// # Ok(()) }
    /// ```
    pub fn median(&self) -> Result<Array<T::Mean, B>> {
        self.median_axes(Axes::All, false)
    }

    /// Median over `axes` (the mean of the two middle values for an even count).
    pub fn median_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Mean, B>> {
        let axes = axes.into().resolve("median", self.ndim())?;
        let out_shape = reduced_shape(self.shape(), &axes, keepdims);
        let sorted = self.sorted_lanes(&axes)?;
        let k = *sorted.shape().last().unwrap_or(&1);
        if k == 0 {
            let nan = <T::Mean as Numeric>::from_f64(f64::NAN);
            return Array::full(&out_shape, nan, &self.device);
        }
        let mid = if k % 2 == 1 {
            order_stat(&sorted, k / 2)?
        } else {
            let lo = order_stat(&sorted, k / 2 - 1)?;
            let hi = order_stat(&sorted, k / 2)?;
            lo.zip_op(Add, &hi)?
                .scalar_op(Div, <T::Mean as Numeric>::from_f64(2.0))?
        };
        let res = propagate_nan(mid, &sorted, k)?;
        reshape_to(&res, &out_shape)
    }

    /// The `q`-th quantile (`0 <= q <= 1`) of every element with NumPy's default 'linear'
    /// interpolation (0-d; `f64` for integers). A NaN anywhere gives NaN.
    ///
    /// # Errors
    /// `q` outside `[0, 1]` or NaN; an empty array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], dev)?;
    /// assert_eq!(a.quantile(0.25)?.item()?, 1.75);
    /// assert_eq!(a.percentile(100.0)?.item()?, 4.0);
    /// assert!(a.quantile(1.5).is_err());
    /// # Ok(()) }
    /// ```
    pub fn quantile(&self, q: f64) -> Result<Array<T::Mean, B>> {
        self.quantile_axes(q, Axes::All, false)
    }

    /// The `q`-th quantile over `axes`.
    pub fn quantile_axes(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("quantile", q, 1.0)?;
        self.quantiles_impl("quantile", &[q], axes.into(), keepdims, false)
    }

    /// Several quantiles over `axes` at once (one sort): the result has shape
    /// `[qs.len(), reduced shape...]`, as NumPy's `quantile` with an array of `q`.
    pub fn quantiles_axes(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let qs = qs
            .iter()
            .map(|&q| check_q("quantile", q, 1.0))
            .collect::<Result<Vec<_>>>()?;
        self.quantiles_impl("quantile", &qs, axes.into(), keepdims, true)
    }

    /// The `q`-th percentile (`0 <= q <= 100`) of every element ('linear' method).
    ///
    /// # Errors
    /// `q` outside `[0, 100]` or NaN; an empty array.
    pub fn percentile(&self, q: f64) -> Result<Array<T::Mean, B>> {
        self.percentile_axes(q, Axes::All, false)
    }

    /// The `q`-th percentile over `axes`.
    pub fn percentile_axes(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("percentile", q, 100.0)?;
        self.quantiles_impl("percentile", &[q], axes.into(), keepdims, false)
    }

    /// Several percentiles over `axes` at once: shape `[qs.len(), reduced shape...]`.
    pub fn percentiles_axes(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let qs = qs
            .iter()
            .map(|&q| check_q("percentile", q, 100.0))
            .collect::<Result<Vec<_>>>()?;
        self.quantiles_impl("percentile", &qs, axes.into(), keepdims, true)
    }

    fn quantiles_impl(
        &self,
        op: &'static str,
        qs: &[f64],
        axes: Axes,
        keepdims: bool,
        stacked: bool,
    ) -> Result<Array<T::Mean, B>> {
        let axes = axes.resolve(op, self.ndim())?;
        let out_shape = reduced_shape(self.shape(), &axes, keepdims);
        let k: usize = axes.iter().map(|&a| self.shape()[a]).product();
        if k == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "cannot take a {op} of an empty reduction (shape {:?}, axes {axes:?})",
                    self.shape()
                ),
            ));
        }
        let sorted = self.sorted_lanes(&axes)?;
        if !stacked {
            let r = quantile_of_sorted(&sorted, qs[0], k)?;
            return reshape_to(&r, &out_shape);
        }
        let mut full_shape = vec![qs.len()];
        full_shape.extend_from_slice(&out_shape);
        let mut out = Array::<T::Mean, B>::zeros(&full_shape, &self.device)?;
        let dev = self.device.clone();
        dev.make_unique(&mut out.buf)?;
        for (i, &q) in qs.iter().enumerate() {
            let r = reshape_to(&quantile_of_sorted(&sorted, q, k)?, &out_shape)?;
            let dst = out.layout.index_axis(0, i);
            dev.assign(&mut out.buf, &dst, &r.buf, &r.layout)?;
        }
        Ok(out)
    }
}

/// The `i`-th order statistic of every lane of `sorted` (shape `(kept..., k)`), as `T::Mean`.
fn order_stat<T: Element, B: ArrayBackend>(
    sorted: &Array<T, B>,
    i: usize,
) -> Result<Array<T::Mean, B>> {
    let last = sorted.ndim() - 1;
    sorted
        .with_layout(sorted.layout.index_axis(last, i))
        .as_mean()
}

/// `res` where the lane's largest element (sorted last) is not NaN, else NaN (floats only).
fn propagate_nan<T: Element, B: ArrayBackend>(
    res: Array<T::Mean, B>,
    sorted: &Array<T, B>,
    k: usize,
) -> Result<Array<T::Mean, B>>
where
    T::Mean: Float,
{
    if T::DTYPE.is_float() {
        res.zip_op(PropagateNan, &order_stat(sorted, k - 1)?)
    } else {
        Ok(res)
    }
}

/// `a` reshaped to `shape` (same elements).
fn reshape_to<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    shape: &[usize],
) -> Result<Array<T, B>> {
    let s: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    a.reshape(&s)
}

/// NumPy's 'linear' quantile of sorted lanes of length `k > 0`: the virtual index
/// `(k - 1) q`, its neighbours clipped as NumPy's `_get_indexes`, and `_lerp`.
fn quantile_of_sorted<T: Element, B: ArrayBackend>(
    sorted: &Array<T, B>,
    q: f64,
    k: usize,
) -> Result<Array<T::Mean, B>>
where
    T::Mean: Float,
{
    let v = (k - 1) as f64 * q;
    let (mut prev, mut next) = (v.floor(), v.floor() + 1.0);
    if v >= (k - 1) as f64 {
        (prev, next) = (-1.0, -1.0);
    }
    if v < 0.0 {
        (prev, next) = (0.0, 0.0);
    }
    let gamma = v - prev;
    let pos = |p: f64| if p < 0.0 { k - 1 } else { p as usize };
    let a = order_stat(sorted, pos(prev))?;
    let b = order_stat(sorted, pos(next))?;
    let diff = b.zip_op(Sub, &a)?;
    let from = <T::Mean as Numeric>::from_f64;
    let res = if gamma >= 0.5 {
        b.zip_op(Sub, &diff.scalar_op(Mul, from(1.0 - gamma))?)?
    } else {
        a.zip_op(Add, &diff.scalar_op(Mul, from(gamma))?)?
    };
    propagate_nan(res, sorted, k)
}
