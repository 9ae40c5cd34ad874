//! Statistics composed from the reduction, element-wise and sort primitives: `var`/`std`
//! (the mean with keepdims, squared deviations `|x - mean|^2`, a ddof-corrected sum),
//! `median` and `quantile`/`percentile` (NumPy's default 'linear' method: the reduced axes
//! are moved to the end and the neighbouring order statistics of every lane interpolated).
//!
//! The order statistics come, as in NumPy, from partial sorts: the needed positions (at most
//! two per quantile, plus the lane's largest element for floats, which is NaN exactly when
//! the lane holds a NaN) are selected by recursive partitioning, each step partitioning one
//! lane segment at one position and splitting the rest of the positions between the two
//! sides; a position at either end of a segment is a min/max reduction instead. Beyond
//! [`MAX_SELECT`] positions one full sort of the lanes is cheaper.

use super::reduced_shape;
use crate::array::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};
use crate::error::{Error, Result};
use crate::ops::{AbsSqDiff, Add, DdofMean, Div, Max, Mean, Min, Mul, PropagateNan, Sqrt, Sub};
use std::any::Any;

/// Most distinct order-statistic positions selected by partitioning; more take one full
/// sort (a partition costs a few passes over its segment, and the segments of every level of
/// the recursion add up to the lane, so `m` positions cost about `log2(m) + 1` partitions).
const MAX_SELECT: usize = 8;

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
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn std_axes(
        &self,
        axes: impl Into<Axes>,
        ddof: f64,
        keepdims: bool,
    ) -> Result<Array<MeanReal<T>, B>> {
        self.var_axes(axes, ddof, keepdims)?.map_op(Sqrt)
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

    /// `lanes` (shape `(kept..., k)`) with every lane sorted, C-contiguous.
    fn sorted_lanes(lanes: &Array<T, B>) -> Result<Array<T, B>> {
        let last = lanes.ndim() - 1;
        if lanes.shape()[last] <= 1 || lanes.size() == 0 {
            return lanes.to_contiguous();
        }
        let buf = lanes.device.sort(&lanes.buf, &lanes.layout, last)?;
        Ok(Array::from_contiguous(buf, lanes.shape(), &lanes.device))
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
/// array of shape `(kept...)` (a view of a partitioned or sorted copy, or a reduction).
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
    /// `lanes` (shape `(kept..., k)`, `k > 0`), plus the largest for floats: by recursive
    /// partitioning up to [`MAX_SELECT`] interior positions, else from one full sort.
    fn select(lanes: &Array<T, B>, wanted: &[usize]) -> Result<Self> {
        let last = lanes.ndim() - 1;
        let k = lanes.shape()[last];
        let mut positions = wanted.to_vec();
        if T::DTYPE.is_float() {
            positions.push(k - 1);
        }
        positions.sort_unstable();
        positions.dedup();
        // Partitions needed: one per run of adjacent interior positions (after partitioning
        // at a run's first position, the next one is the first of a segment, a reduction).
        let partitions = positions
            .iter()
            .enumerate()
            .filter(|&(i, &p)| p != 0 && p != k - 1 && (i == 0 || positions[i - 1] + 1 != p))
            .count();
        let values = if partitions > MAX_SELECT || lanes.size() == 0 {
            let sorted = Array::sorted_lanes(lanes)?;
            positions
                .iter()
                .map(|&p| sorted.with_layout(sorted.layout.index_axis(last, p)))
                .collect()
        } else {
            let mut out = Vec::with_capacity(positions.len());
            select_into(lanes, 0, &positions, &mut out)?;
            out
        };
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

/// Pushes onto `out`, in position order, the order statistics at `positions` (sorted,
/// distinct, within `base..base + len`) of the lane segments `seg` (shape `(kept..., len)`,
/// `len > 0`, holding the elements of ranks `base..base + len` of every lane).
///
/// Positions at the segment's ends are its min/max (NaN-propagating, so a segment holding a
/// NaN gives NaN for its first position: only in a lane whose result is NaN anyway, while
/// its last position, NaN being largest, stays exact). Otherwise the segment is partitioned
/// at its middle interior position and both sides recurse on views of the partitioned copy.
fn select_into<T: Real, B: ArrayBackend>(
    seg: &Array<T, B>,
    base: usize,
    positions: &[usize],
    out: &mut Vec<Array<T, B>>,
) -> Result<()> {
    let last = seg.ndim() - 1;
    let len = seg.shape()[last];
    let end = base + len - 1;
    let interior: Vec<usize> = positions
        .iter()
        .copied()
        .filter(|&p| p != base && p != end)
        .collect();
    if interior.is_empty() {
        for &p in positions {
            out.push(if len == 1 {
                seg.with_layout(seg.layout.index_axis(last, 0))
            } else if p == base {
                seg.reduce_resolved(Min, &[last], false)?
            } else {
                seg.reduce_resolved(Max, &[last], false)?
            });
        }
        return Ok(());
    }
    let pivot = interior[(interior.len() - 1) / 2];
    let kth = pivot - base;
    let buf = seg.device.partition(&seg.buf, &seg.layout, last, kth)?;
    let part = Array::from_contiguous(buf, seg.shape(), &seg.device);
    let split = positions.partition_point(|&p| p < pivot);
    if split > 0 {
        let left = part.with_layout(part.layout.slice_axis(last, 0, kth, 1));
        select_into(&left, base, &positions[..split], out)?;
    }
    out.push(part.with_layout(part.layout.index_axis(last, kth)));
    if split + 1 < positions.len() {
        let right = part.with_layout(part.layout.slice_axis(last, kth + 1, len - kth - 1, 1));
        select_into(&right, pivot + 1, &positions[split + 1..], out)?;
    }
    Ok(())
}

/// `a` reshaped to `shape` (same elements).
fn reshape_to<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    shape: &[usize],
) -> Result<Array<T, B>> {
    let s: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    a.reshape(&s)
}
