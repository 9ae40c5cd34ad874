//! Statistics composed from the reduction, element-wise and sort primitives: `var`/`std`
//! (the mean with keepdims, squared deviations `|x - mean|^2`, a ddof-corrected sum),
//! `median` and `quantile`/`percentile` (NumPy's default 'linear' method: the reduced axes
//! are moved to the end and the neighbouring order statistics of every lane interpolated).
//!
//! The order statistics come, as in NumPy, from partial sorts, never a full sort of the
//! data: the needed positions of every lane (at most two per quantile, plus for floats the
//! lane's largest element, which is NaN exactly when the lane holds a NaN) are selected in
//! one call of the [`SelectOps::select_kth`] primitive.
//!
//! [`SelectOps::select_kth`]: crate::backend::SelectOps::select_kth

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

/// [`check_q`] for every element of `qs`.
fn check_qs(op: &'static str, qs: &[f64], scale: f64) -> Result<Vec<f64>> {
    qs.iter().map(|&q| check_q(op, q, scale)).collect()
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
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
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
        self.var_as("var", axes.into(), ddof, keepdims)
    }

    /// [`Array::var_axes`] on behalf of the op `name` (`var` or `std`), which its errors name.
    fn var_as(
        &self,
        name: &'static str,
        axes: Axes,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        let axes = axes.resolve(name, self.ndim())?;
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
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn std_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        self.var_as("std", axes.into(), ddof, keepdims)?
            .map_op(Sqrt)
    }

    /// The reduced `axes` moved to the end and flattened into one: shape `(kept..., k)`, a
    /// view when the reduced axes merge, else a copy.
    fn lanes(&self, axes: &[usize]) -> Result<Array<T, B>> {
        let split = self.ndim() - axes.len();
        let moved = self.layout.axes_to_end(axes);
        let k: usize = moved.shape()[split..].iter().product();
        let mut shape: Vec<isize> = moved.shape()[..split].iter().map(|&d| d as isize).collect();
        shape.push(k as isize);
        self.with_layout(moved).reshape(&shape)
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
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn median(&self) -> Result<Array<T::Mean, B>> {
        self.median_axes(Axes::All, false)
    }

    /// Median over `axes` (the mean of the two middle values for an even count).
    pub fn median_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<T::Mean, B>> {
        let axes = axes.into().resolve("median", self.ndim())?;
        let out_shape = reduced_shape(self.shape(), &axes, keepdims);
        let k: usize = axes.iter().map(|&a| self.shape()[a]).product();
        if k == 0 {
            let nan = <T::Mean as Numeric>::from_f64(f64::NAN);
            return Array::full(&out_shape, nan, &self.device);
        }
        let wanted = if k % 2 == 1 {
            vec![k / 2]
        } else {
            vec![k / 2 - 1, k / 2]
        };
        let stats = OrderStats::select(&self.lanes(&axes)?, &wanted)?;
        let mid = if k % 2 == 1 {
            stats.get(k / 2)?
        } else {
            let lo = stats.get(k / 2 - 1)?;
            let hi = stats.get(k / 2)?;
            lo.zip_op(Add, &hi)?
                .scalar_op(Div, <T::Mean as Numeric>::from_f64(2.0))?
        };
        let res = stats.propagate_nan(mid)?;
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
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
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
        let qs = check_qs("quantile", qs, 1.0)?;
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
        let qs = check_qs("percentile", qs, 100.0)?;
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
        let points: Vec<LinearPoint> = qs.iter().map(|&q| LinearPoint::new(q, k)).collect();
        let wanted: Vec<usize> = points.iter().flat_map(|p| [p.lo, p.hi]).collect();
        let stats = OrderStats::select(&self.lanes(&axes)?, &wanted)?;
        if !stacked {
            let r = stats.quantile(&points[0])?;
            return reshape_to(&r, &out_shape);
        }
        let mut full_shape = vec![qs.len()];
        full_shape.extend_from_slice(&out_shape);
        let mut out = Array::<T::Mean, B>::zeros(&full_shape, &self.device)?;
        let dev = self.device.clone();
        dev.make_unique(&mut out.buf)?;
        for (i, point) in points.iter().enumerate() {
            let r = reshape_to(&stats.quantile(point)?, &out_shape)?;
            let dst = out.layout.index_axis(0, i);
            dev.assign(&mut out.buf, &dst, &r.buf, &r.layout)?;
        }
        Ok(out)
    }
}

/// Where NumPy's 'linear' method reads a lane of length `k > 0` for the quantile `q`: the
/// virtual index `(k - 1) q`, its neighbours clipped as NumPy's `_get_indexes` (as order
/// statistic positions `lo <= hi`) and the weight `gamma` of `_lerp`.
struct LinearPoint {
    lo: usize,
    hi: usize,
    gamma: f64,
}

impl LinearPoint {
    fn new(q: f64, k: usize) -> Self {
        let v = (k - 1) as f64 * q;
        let (mut prev, mut next) = (v.floor(), v.floor() + 1.0);
        if v >= (k - 1) as f64 {
            (prev, next) = (-1.0, -1.0);
        }
        if v < 0.0 {
            (prev, next) = (0.0, 0.0);
        }
        let pos = |p: f64| if p < 0.0 { k - 1 } else { p as usize };
        LinearPoint {
            lo: pos(prev),
            hi: pos(next),
            gamma: v - prev,
        }
    }
}

/// Order statistics of every lane of a `(kept..., k)` array at a few positions, each an
/// array of shape `(kept...)` (a view of the selection primitive's output).
/// For floats the position `k - 1` is always among them: the lane's largest element in
/// [`Element::sort_cmp`] order, NaN exactly when the lane holds a NaN.
struct OrderStats<T: Element, B: ArrayBackend> {
    /// Sorted, distinct positions.
    positions: Vec<usize>,
    /// The statistic at each position.
    values: Vec<Array<T, B>>,
    /// The lane length.
    k: usize,
}

impl<T: Real, B: ArrayBackend> OrderStats<T, B>
where
    T::Mean: Float,
{
    /// The order statistics at `wanted` (any order, repeats allowed, all `< k`) of the lanes
    /// `lanes` (shape `(kept..., k)`, `k > 0`), plus the largest for floats, from one call of
    /// the selection primitive.
    fn select(lanes: &Array<T, B>, wanted: &[usize]) -> Result<Self> {
        let last = lanes.ndim() - 1;
        let k = lanes.shape()[last];
        let mut positions = wanted.to_vec();
        if T::DTYPE.is_float() {
            positions.push(k - 1);
        }
        positions.sort_unstable();
        positions.dedup();
        let dev = &lanes.device;
        let buf = dev.select_kth(&lanes.buf, &lanes.layout, last, &positions)?;
        let mut shape = vec![positions.len()];
        shape.extend_from_slice(&lanes.shape()[..last]);
        let all = Array::from_contiguous(buf, &shape, dev);
        let values = (0..positions.len())
            .map(|j| all.with_layout(all.layout.index_axis(0, j)))
            .collect();
        Ok(OrderStats {
            positions,
            values,
            k,
        })
    }

    /// The statistic at position `i` (one of those selected) as `T::Mean`.
    fn get(&self, i: usize) -> Result<Array<T::Mean, B>> {
        match self.positions.binary_search(&i) {
            Ok(j) => self.values[j].as_mean(),
            Err(_) => Err(Error::Backend {
                op: "quantile",
                msg: format!("order statistic {i} was not selected"),
            }),
        }
    }

    /// `res` where the lane's largest element is not NaN, else NaN (floats only).
    fn propagate_nan(&self, res: Array<T::Mean, B>) -> Result<Array<T::Mean, B>> {
        if T::DTYPE.is_float() {
            res.zip_op(PropagateNan, &self.get(self.k - 1)?)
        } else {
            Ok(res)
        }
    }

    /// NumPy's 'linear' quantile at `point` (`_lerp` of its two order statistics).
    fn quantile(&self, point: &LinearPoint) -> Result<Array<T::Mean, B>> {
        let a = self.get(point.lo)?;
        let b = self.get(point.hi)?;
        let gamma = point.gamma;
        let diff = b.zip_op(Sub, &a)?;
        let from = <T::Mean as Numeric>::from_f64;
        let res = if gamma >= 0.5 {
            b.zip_op(Sub, &diff.scalar_op(Mul, from(1.0 - gamma))?)?
        } else {
            a.zip_op(Add, &diff.scalar_op(Mul, from(gamma))?)?
        };
        self.propagate_nan(res)
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
