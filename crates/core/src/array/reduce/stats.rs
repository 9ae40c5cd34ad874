//! Statistics composed from the reduction, element-wise and sort primitives: `var`/`std`
//! (the mean with keepdims, squared deviations `|x - mean|^2`, a ddof-corrected sum),
//! `median` and `quantile`/`percentile` (the reduced axes are moved to the end and the
//! neighbouring order statistics of every lane interpolated; NumPy's default 'linear' method,
//! or any [`QuantileMethod`] through the `_with` forms). The positions each method reads,
//! for a lane length known on the host ([`QuantileMethod`]'s `point`) or per lane as device
//! arrays (`lane_points`, behind the NaN-ignoring quantiles of `statistics.rs`), live here,
//! side by side, with NumPy's formulas.
//!
//! The order statistics come, as in NumPy, from partial sorts, never a full sort of the
//! data: the needed positions of every lane (at most two per quantile, plus for floats the
//! lane's largest element, which is NaN exactly when the lane holds a NaN) are selected in
//! one call of the [`SelectOps::select_kth`] primitive.
//!
//! [`SelectOps::select_kth`]: crate::backend::SelectOps::select_kth

use super::reduced_shape;
use crate::array::statistics::{check_q, check_qs};
use crate::array::{Array, Axes, QuantileMethod};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};
use crate::error::{Error, Result};
use crate::ops::{
    AbsSqDiff, Add, Ceil, DdofMean, Div, Floor, Maximum, Mean, Minimum, Mul, PropagateNan, Rem,
    RoundHalfEven, Sqrt, Sub,
};

/// The element type of `var`/`std` of a `T` array: the real type under `T::Mean`
/// (`f64` for bool and integers, `f32` for `f32` and `c64`).
pub type MeanReal<T> = <<T as Element>::Mean as Inexact>::RealPart;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// This array as `T::Mean` values: the array itself when the types agree, else a cast.
    pub(crate) fn as_mean(&self) -> Result<Array<T::Mean, B>> {
        crate::promote::cast_or_share(self)
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
    pub(crate) fn lanes(&self, axes: &[usize]) -> Result<Array<T, B>> {
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
        self.quantiles_impl(
            "quantile",
            &[q],
            axes.into(),
            keepdims,
            false,
            Default::default(),
        )
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
        self.quantiles_impl(
            "quantile",
            &qs,
            axes.into(),
            keepdims,
            true,
            Default::default(),
        )
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
        self.quantiles_impl(
            "percentile",
            &[q],
            axes.into(),
            keepdims,
            false,
            Default::default(),
        )
    }

    /// Several percentiles over `axes` at once: shape `[qs.len(), reduced shape...]`.
    pub fn percentiles_axes(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let qs = check_qs("percentile", qs, 100.0)?;
        self.quantiles_impl(
            "percentile",
            &qs,
            axes.into(),
            keepdims,
            true,
            Default::default(),
        )
    }

    /// The `q`-th quantile (`0 <= q <= 1`) over `axes` by NumPy's `method` (its `method=`
    /// argument): the discrete methods pick one order statistic, the others interpolate
    /// between two. Integers give `f64` (NumPy keeps the integer type for the discrete
    /// methods: the values are the same below 2^53). A lane holding a NaN gives NaN.
    ///
    /// # Errors
    /// `q` outside `[0, 1]` or NaN; an empty reduction; a bad axis.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[4], dev)?;
    /// let q = |m| a.quantile_with(0.4, Axes::All, false, m)?.item();
    /// assert_eq!(q(QuantileMethod::Lower)?, 2.0);
    /// assert_eq!(q(QuantileMethod::Higher)?, 3.0);
    /// assert_eq!(q(QuantileMethod::InvertedCdf)?, 2.0);
    /// assert!((q(QuantileMethod::Weibull)? - 2.0).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn quantile_with(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("quantile", q, 1.0)?;
        self.quantiles_impl("quantile", &[q], axes.into(), keepdims, false, method)
    }

    /// Several quantiles over `axes` by `method`, from one selection: shape
    /// `[qs.len(), reduced shape...]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![4.0, 1.0, 3.0, 2.0], &[2, 2], dev)?;
    /// let m = a.quantiles_with(&[0.0, 0.5], 1, false, QuantileMethod::Midpoint)?;
    /// assert_eq!(m.to_vec()?, vec![1.0, 2.0, 2.5, 2.5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn quantiles_with(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let qs = check_qs("quantile", qs, 1.0)?;
        self.quantiles_impl("quantile", &qs, axes.into(), keepdims, true, method)
    }

    /// The `q`-th percentile (`0 <= q <= 100`) over `axes` by `method`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], dev)?;
    /// let p = a.percentile_with(50.0, 0, false, QuantileMethod::Nearest)?;
    /// assert_eq!(p.item()?, 3.0); // (n - 1) q = 1.5 rounds half to even: index 2
    /// assert!(a.percentile_with(101.0, 0, false, QuantileMethod::Lower).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn percentile_with(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("percentile", q, 100.0)?;
        self.quantiles_impl("percentile", &[q], axes.into(), keepdims, false, method)
    }

    /// Several percentiles over `axes` by `method`: shape `[qs.len(), reduced shape...]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![10, 20, 30], &[3], dev)?;
    /// let p = a.percentiles_with(&[25.0, 100.0], Axes::All, true, QuantileMethod::Hazen)?;
    /// assert_eq!(p.shape(), &[2, 1]);
    /// assert_eq!(p.to_vec()?, vec![12.5, 30.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn percentiles_with(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let qs = check_qs("percentile", qs, 100.0)?;
        self.quantiles_impl("percentile", &qs, axes.into(), keepdims, true, method)
    }

    /// The quantiles `qs` (already checked) over `axes` by `method`, on behalf of `op`:
    /// the reduced shape, or `[qs.len(), reduced shape...]` when `stacked`.
    pub(crate) fn quantiles_impl(
        &self,
        op: &'static str,
        qs: &[f64],
        axes: Axes,
        keepdims: bool,
        stacked: bool,
        method: QuantileMethod,
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
        let points: Vec<QuantilePoint> = qs.iter().map(|&q| method.point(q, k)).collect();
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

    /// The quantile `q` by `method` of every lane of `self`, lanes of shape `(kept..., k)`
    /// sorted with NaN last, of which the first `n` (per lane, `f64` of shape `(kept..., 1)`)
    /// are numbers: shape `(kept..., 1)` (an empty lane reads its first element).
    pub(crate) fn sorted_lanes_quantile(
        &self,
        n: &Array<f64, B>,
        q: f64,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let p = method.lane_points(n, q)?;
        let a = self.take_along_axis(&p.lo, -1)?.as_mean()?;
        let Some(gamma) = p.gamma else {
            return Ok(a);
        };
        let b = self.take_along_axis(&p.hi, -1)?.as_mean()?;
        // NumPy's `_lerp`, with one weight per lane.
        let diff = b.zip_op(Sub, &a)?;
        let up = a.zip_op(Add, &diff.zip_op(Mul, &gamma.astype()?)?)?;
        let rest = gamma.scalar_op_rev(Sub, 1.0)?.astype()?;
        let down = b.zip_op(Sub, &diff.zip_op(Mul, &rest)?)?;
        Array::where_(&gamma.ge_scalar(0.5)?, &down, &up)
    }
}

/// NumPy's names of the methods.
impl QuantileMethod {
    /// Every method, in NumPy's order.
    pub const ALL: [QuantileMethod; 13] = [
        QuantileMethod::InvertedCdf,
        QuantileMethod::AveragedInvertedCdf,
        QuantileMethod::ClosestObservation,
        QuantileMethod::InterpolatedInvertedCdf,
        QuantileMethod::Hazen,
        QuantileMethod::Weibull,
        QuantileMethod::Linear,
        QuantileMethod::MedianUnbiased,
        QuantileMethod::NormalUnbiased,
        QuantileMethod::Lower,
        QuantileMethod::Higher,
        QuantileMethod::Midpoint,
        QuantileMethod::Nearest,
    ];

    /// NumPy's name of the method.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// assert_eq!(QuantileMethod::InvertedCdf.name(), "inverted_cdf");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            QuantileMethod::InvertedCdf => "inverted_cdf",
            QuantileMethod::AveragedInvertedCdf => "averaged_inverted_cdf",
            QuantileMethod::ClosestObservation => "closest_observation",
            QuantileMethod::InterpolatedInvertedCdf => "interpolated_inverted_cdf",
            QuantileMethod::Hazen => "hazen",
            QuantileMethod::Weibull => "weibull",
            QuantileMethod::Linear => "linear",
            QuantileMethod::MedianUnbiased => "median_unbiased",
            QuantileMethod::NormalUnbiased => "normal_unbiased",
            QuantileMethod::Lower => "lower",
            QuantileMethod::Higher => "higher",
            QuantileMethod::Midpoint => "midpoint",
            QuantileMethod::Nearest => "nearest",
        }
    }

    /// The method NumPy calls `name` (its `method=` string).
    ///
    /// # Errors
    /// An unknown name, listing the valid ones.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// assert_eq!(QuantileMethod::from_name("hazen")?, QuantileMethod::Hazen);
    /// assert!(QuantileMethod::from_name("cubic").is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|m| m.name()).collect();
                Error::invalid(
                    "quantile",
                    format!("{name:?} is not a valid method; use one of {names:?}"),
                )
            })
    }
}

/// Where a quantile reads a lane of `n > 0` sorted elements: the order statistics `lo <= hi`
/// and the weight `gamma` of NumPy's `_lerp` between them, or no weight for the discrete
/// methods (`lo == hi`, the value taken as it is).
pub(crate) struct QuantilePoint {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    pub(crate) gamma: Option<f64>,
}

/// [`QuantilePoint`] for every lane at once, as device arrays of the lanes' shape: the
/// positions (`i64`, each clipped to `[0, n - 1]`, 0 for an empty lane) and the weights.
pub(crate) struct LanePoints<B: ArrayBackend> {
    pub(crate) lo: Array<i64, B>,
    pub(crate) hi: Array<i64, B>,
    pub(crate) gamma: Option<Array<f64, B>>,
}

/// A 0-d `f64` array holding `v`.
fn f64_scalar<B: ArrayBackend>(v: f64, dev: &B) -> Result<Array<f64, B>> {
    Array::full(&[], v, dev)
}

/// NumPy's `_discret_interpolation_to_boundaries` of one index: the floor where `take_lower`
/// holds for the fractional part, else the next index, never below 0.
fn to_boundary(index: f64, take_lower: impl Fn(f64, f64) -> bool) -> f64 {
    let prev = index.floor();
    let res = if take_lower(index - prev, index) {
        prev
    } else {
        prev + 1.0
    };
    res.max(0.0)
}

/// NumPy's `_QuantileMethods`: the virtual index of each method, its `fix_gamma`, and the
/// index of the discrete ones, for a host lane length (`point`) and per lane on the device
/// (`lane_points`). The two are written with the same operations in the same order, so they
/// round alike.
impl QuantileMethod {
    /// `(alpha, beta)` of the continuous methods of Hyndman and Fan (`_compute_virtual_index`).
    fn alpha_beta(self) -> (f64, f64) {
        match self {
            QuantileMethod::InterpolatedInvertedCdf => (0.0, 1.0),
            QuantileMethod::Hazen => (0.5, 0.5),
            QuantileMethod::Weibull => (0.0, 0.0),
            QuantileMethod::MedianUnbiased => (1.0 / 3.0, 1.0 / 3.0),
            _ => (3.0 / 8.0, 3.0 / 8.0),
        }
    }

    /// True for the methods that take one order statistic as it is.
    fn is_discrete(self) -> bool {
        matches!(
            self,
            QuantileMethod::InvertedCdf
                | QuantileMethod::ClosestObservation
                | QuantileMethod::Lower
                | QuantileMethod::Higher
                | QuantileMethod::Nearest
        )
    }

    /// Where the method reads a lane of `n > 0` sorted elements for the quantile `q`.
    pub(crate) fn point(self, q: f64, n: usize) -> QuantilePoint {
        let nf = n as f64;
        let last = n - 1;
        let m1 = (n - 1) as f64 * q;
        if self.is_discrete() {
            let i = match self {
                QuantileMethod::InvertedCdf => to_boundary(nf * q - 1.0, |g, _| g == 0.0),
                QuantileMethod::ClosestObservation => to_boundary(nf * q - 1.0 - 0.5, |g, i| {
                    g == 0.0 && i.floor().rem_euclid(2.0) == 1.0
                }),
                QuantileMethod::Lower => m1.floor(),
                QuantileMethod::Higher => m1.ceil(),
                _ => m1.round_ties_even(),
            };
            let i = (i.max(0.0) as usize).min(last);
            return QuantilePoint {
                lo: i,
                hi: i,
                gamma: None,
            };
        }
        let v = match self {
            QuantileMethod::Linear => m1,
            QuantileMethod::AveragedInvertedCdf => nf * q - 1.0,
            QuantileMethod::Midpoint => 0.5 * (m1.floor() + m1.ceil()),
            _ => {
                let (a, b) = self.alpha_beta();
                nf * q + (a + q * (1.0 - a - b)) - 1.0
            }
        };
        // `_get_indexes`: past the end both read the last element (NumPy's index -1), before
        // the start both read the first; gamma is taken from NumPy's index.
        let fl = v.floor();
        let (lo, hi, prev) = if v < 0.0 {
            (0, 0, 0.0)
        } else if v >= nf - 1.0 {
            (last, last, -1.0)
        } else {
            (fl as usize, fl as usize + 1, fl)
        };
        let g = v - prev;
        let gamma = match self {
            QuantileMethod::AveragedInvertedCdf => {
                if g == 0.0 {
                    0.5
                } else {
                    1.0
                }
            }
            QuantileMethod::Midpoint => {
                if v == fl {
                    0.0
                } else {
                    0.5
                }
            }
            _ => g,
        };
        QuantilePoint {
            lo,
            hi,
            gamma: Some(gamma),
        }
    }

    /// [`QuantileMethod::point`] for lanes of `n` elements each (`n` an `f64` array of the
    /// lanes' shape, any value from 0), all on the device.
    pub(crate) fn lane_points<B: ArrayBackend>(
        self,
        n: &Array<f64, B>,
        q: f64,
    ) -> Result<LanePoints<B>> {
        let dev = n.device();
        let nm1 = n.scalar_op(Sub, 1.0)?;
        let zero = f64_scalar(0.0, dev)?;
        let clip = |i: &Array<f64, B>| -> Result<Array<i64, B>> {
            i.zip_op(Minimum, &nm1)?
                .scalar_op(Maximum, 0.0)?
                .astype::<i64>()
        };
        let m1 = nm1.scalar_op(Mul, q)?;
        if self.is_discrete() {
            let boundary = |index: Array<f64, B>, odd_only: bool| -> Result<Array<f64, B>> {
                let prev = index.map_op(Floor)?;
                let mut lower = index.zip_op(Sub, &prev)?.eq_scalar(0.0)?;
                if odd_only {
                    let odd = prev.scalar_op(Rem, 2.0)?.eq_scalar(1.0)?;
                    lower = lower.logical_and(&odd)?;
                }
                Array::where_(&lower, &prev, &prev.scalar_op(Add, 1.0)?)
            };
            let i = match self {
                QuantileMethod::InvertedCdf => {
                    boundary(n.scalar_op(Mul, q)?.scalar_op(Sub, 1.0)?, false)?
                }
                QuantileMethod::ClosestObservation => boundary(
                    n.scalar_op(Mul, q)?
                        .scalar_op(Sub, 1.0)?
                        .scalar_op(Sub, 0.5)?,
                    true,
                )?,
                QuantileMethod::Lower => m1.map_op(Floor)?,
                QuantileMethod::Higher => m1.map_op(Ceil)?,
                _ => m1.map_op(RoundHalfEven)?,
            };
            let i = clip(&i)?;
            return Ok(LanePoints {
                lo: i.clone(),
                hi: i,
                gamma: None,
            });
        }
        let v = match self {
            QuantileMethod::Linear => m1,
            QuantileMethod::AveragedInvertedCdf => n.scalar_op(Mul, q)?.scalar_op(Sub, 1.0)?,
            QuantileMethod::Midpoint => m1
                .map_op(Floor)?
                .zip_op(Add, &m1.map_op(Ceil)?)?
                .scalar_op_rev(Mul, 0.5)?,
            _ => {
                let (a, b) = self.alpha_beta();
                n.scalar_op(Mul, q)?
                    .scalar_op(Add, a + q * (1.0 - a - b))?
                    .scalar_op(Sub, 1.0)?
            }
        };
        let fl = v.map_op(Floor)?;
        let below = v.lt_scalar(0.0)?;
        let above = v.ge(&nm1)?;
        let bounded = |inside: &Array<f64, B>, past: &Array<f64, B>| -> Result<Array<f64, B>> {
            Array::where_(&below, &zero, &Array::where_(&above, past, inside)?)
        };
        let lo = bounded(&fl, &nm1)?;
        let hi = bounded(&fl.scalar_op(Add, 1.0)?, &nm1)?;
        let prev = bounded(&fl, &f64_scalar(-1.0, dev)?)?;
        let g = v.zip_op(Sub, &prev)?;
        let gamma = match self {
            QuantileMethod::AveragedInvertedCdf => Array::where_(
                &g.eq_scalar(0.0)?,
                &f64_scalar(0.5, dev)?,
                &f64_scalar(1.0, dev)?,
            )?,
            QuantileMethod::Midpoint => Array::where_(&v.eq(&fl)?, &zero, &f64_scalar(0.5, dev)?)?,
            _ => g,
        };
        Ok(LanePoints {
            lo: clip(&lo)?,
            hi: clip(&hi)?,
            gamma: Some(gamma),
        })
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

    /// The quantile at `point`: its order statistic, or NumPy's `_lerp` of its two.
    fn quantile(&self, point: &QuantilePoint) -> Result<Array<T::Mean, B>> {
        let a = self.get(point.lo)?;
        let Some(gamma) = point.gamma else {
            return self.propagate_nan(a);
        };
        let b = self.get(point.hi)?;
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
