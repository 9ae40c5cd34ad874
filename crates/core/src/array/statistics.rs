//! NumPy's statistics beyond the reductions, composed from existing `Array` methods (so they
//! run on every backend, their results staying on the device):
//!
//! - [`Array::average`] / [`Array::average_returned`]: weighted means (`np.average`), the
//!   weights of the array's shape or of the lengths of the reduced axes;
//! - [`Array::cov`] / [`Array::corrcoef`]: covariance and correlation matrices (`np.cov`,
//!   `np.corrcoef`, options in [`CovOptions`]), computed as NumPy in `f64`, or `c128` for
//!   complex input ([`CovElement`]), the correlations clipped to `[-1, 1]` part by part;
//! - [`Array::nanmedian`], [`Array::nanquantile`], [`Array::nanpercentile`] and their
//!   `_axes`/`_with` forms: order statistics of the non-NaN elements. The lanes are sorted
//!   once (NaN last) and every lane's positions computed on the device from its NaN count;
//!   a lane of only NaN (or an empty array) gives NaN, as NumPy (without its warning);
//! - [`QuantileMethod`]: NumPy's thirteen `method=` values, taken by the `_with` forms of
//!   `quantile`, `percentile`, `nanquantile` and `nanpercentile`.
//!
//! NumPy checks three things by looking at the data, which here reads one flag back from the
//! device: weights summing to zero in `average` and `cov` (NumPy's `ZeroDivisionError`) and
//! negative `fweights`/`aweights` in `cov`.

use super::reduce::reduced_shape;
use super::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real, Scalar, bf16, c64, c128, f16};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::{Add, Conj, Div, Floor, Im, Maximum, Mean, Mul, Re, Sqrt, Sub, Sum};

/// NumPy's `method=` of `quantile`, `percentile`, `nanquantile` and `nanpercentile`: how a
/// quantile is read from a lane of `n` sorted values — Hyndman and Fan's nine methods, then
/// NumPy's four others. The default is [`QuantileMethod::Linear`], NumPy's.
///
/// ```
/// # use cuprite_core::*;
/// assert_eq!(QuantileMethod::default(), QuantileMethod::Linear);
/// assert_eq!(QuantileMethod::ALL.len(), 13);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuantileMethod {
    /// H&F 1: the first value whose empirical CDF reaches `q` (discrete).
    InvertedCdf,
    /// H&F 2: as `InvertedCdf`, averaging the two neighbours where the CDF is flat.
    AveragedInvertedCdf,
    /// H&F 3: the nearest order statistic, the even one at ties (discrete).
    ClosestObservation,
    /// H&F 4: the empirical CDF interpolated linearly (`alpha = 0`, `beta = 1`).
    InterpolatedInvertedCdf,
    /// H&F 5: knots at the midpoints of the steps (`alpha = beta = 1/2`).
    Hazen,
    /// H&F 6: `alpha = beta = 0`.
    Weibull,
    /// H&F 7, NumPy's default: the virtual index `(n - 1) q` interpolated.
    #[default]
    Linear,
    /// H&F 8: `alpha = beta = 1/3`, approximately median-unbiased.
    MedianUnbiased,
    /// H&F 9: `alpha = beta = 3/8`, approximately unbiased for normal data.
    NormalUnbiased,
    /// The order statistic at `floor((n - 1) q)` (discrete).
    Lower,
    /// The order statistic at `ceil((n - 1) q)` (discrete).
    Higher,
    /// The mean of `Lower` and `Higher`.
    Midpoint,
    /// The order statistic at `(n - 1) q` rounded, halves to the even index (discrete).
    Nearest,
}

/// Rejects a quantile outside `[0, 1]` (`scale` 100 for percentiles), NaN included, and
/// returns it as a fraction.
pub(crate) fn check_q(op: &'static str, q: f64, scale: f64) -> Result<f64> {
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
pub(crate) fn check_qs(op: &'static str, qs: &[f64], scale: f64) -> Result<Vec<f64>> {
    qs.iter().map(|&q| check_q(op, q, scale)).collect()
}

/// An array of `shape` full of NaN.
fn nan_full<M: Float, B: ArrayBackend>(shape: &[usize], dev: &B) -> Result<Array<M, B>> {
    Array::full(shape, M::from_f64(f64::NAN), dev)
}

/// The lanes of a float array sorted (NaN last) with their non-NaN counts: what every
/// NaN-ignoring order statistic reads.
struct NanLanes<T: Element, B: ArrayBackend> {
    /// Shape `(kept..., k)`, each lane sorted.
    sorted: Array<T, B>,
    /// The number of non-NaN elements of each lane, shape `(kept..., 1)`.
    n: Array<f64, B>,
}

impl<T: Real, B: ArrayBackend> NanLanes<T, B>
where
    T::Mean: Float,
{
    fn new(a: &Array<T, B>, axes: &[usize]) -> Result<Self> {
        let sorted = a.lanes(axes)?.sort(-1)?;
        let n = sorted
            .isnan()?
            .logical_not()?
            .count_nonzero_axes(-1, true)?
            .astype::<f64>()?;
        Ok(NanLanes { sorted, n })
    }

    /// The element at position `i` (per lane, in the sorted order) of every lane.
    fn gather(&self, i: &Array<i64, B>) -> Result<Array<T::Mean, B>> {
        self.sorted.take_along_axis(i, -1)?.as_mean()
    }

    /// `r` (one value per lane) with NaN for the lanes without a number, in `shape`.
    fn finish(&self, r: Array<T::Mean, B>, shape: &[usize]) -> Result<Array<T::Mean, B>> {
        let nan = nan_full(&[], r.device())?;
        let r = Array::where_(&self.n.eq_scalar(0.0)?, &nan, &r)?;
        let s: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        r.reshape(&s)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B>
where
    T::Mean: Float,
{
    /// Median of the non-NaN elements (0-d; `f64` for integers, which hold no NaN and give
    /// their [`median`](Self::median)). NaN when every element is NaN or the array is empty.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, f64::NAN, 1.0, 2.0], &[4], dev)?;
    /// assert_eq!(a.nanmedian()?.item()?, 2.0);
    /// assert!(a.median()?.item()?.is_nan());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanmedian(&self) -> Result<Array<T::Mean, B>> {
        self.nanmedian_axes(Axes::All, false)
    }

    /// [`Array::nanmedian`] over `axes`: each lane's median of its non-NaN elements (the
    /// mean of the two middle ones for an even count), NaN for a lane of only NaN.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let nan = f32::NAN;
    /// let a = Array::<f32, B>::from_vec(vec![4.0, nan, 1.0, nan, nan, nan], &[2, 3], dev)?;
    /// let m = a.nanmedian_axes(1, true)?;
    /// assert_eq!(m.shape(), &[2, 1]);
    /// let m = m.to_vec()?;
    /// assert!(m[0] == 2.5 && m[1].is_nan());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanmedian_axes(
        &self,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        let ax = axes.into().resolve("nanmedian", self.ndim())?;
        let out_shape = reduced_shape(self.shape(), &ax, keepdims);
        if self.size() == 0 {
            return nan_full(&out_shape, &self.device);
        }
        if !T::DTYPE.is_float() {
            return self.median_axes(ax, keepdims);
        }
        let lanes = NanLanes::new(self, &ax)?;
        let lo = lanes
            .n
            .scalar_op(Sub, 1.0)?
            .scalar_op(Mul, 0.5)?
            .map_op(Floor)?
            .scalar_op(Maximum, 0.0)?;
        let hi = lanes.n.scalar_op(Mul, 0.5)?.map_op(Floor)?;
        let a = lanes.gather(&lo.astype()?)?;
        let b = lanes.gather(&hi.astype()?)?;
        let two = <T::Mean as Numeric>::from_f64(2.0);
        let mean = a.zip_op(Add, &b)?.scalar_op(Div, two)?;
        let mid = Array::where_(&lo.eq(&hi)?, &a, &mean)?;
        lanes.finish(mid, &out_shape)
    }

    /// The `q`-th quantile (`0 <= q <= 1`) of the non-NaN elements ('linear' method; 0-d,
    /// `f64` for integers, which give their [`quantile`](Self::quantile)). NaN when every
    /// element is NaN or the array is empty.
    ///
    /// # Errors
    /// `q` outside `[0, 1]` or NaN.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, 2.0, 3.0, 4.0], &[5], dev)?;
    /// assert_eq!(a.nanquantile(0.25)?.item()?, 1.75);
    /// assert!(a.nanquantile(-0.5).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanquantile(&self, q: f64) -> Result<Array<T::Mean, B>> {
        self.nanquantile_with(q, Axes::All, false, QuantileMethod::Linear)
    }

    /// The `q`-th quantile of the non-NaN elements of every lane over `axes`, by `method`
    /// (NumPy's `nanquantile(a, q, axis, method=, keepdims=)`); NaN for a lane of only NaN.
    ///
    /// # Errors
    /// `q` outside `[0, 1]` or NaN; a bad axis.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let nan = f64::NAN;
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 5.0, nan, 2.0, 3.0, 4.0], &[2, 3], dev)?;
    /// let q = a.nanquantile_with(0.5, 1, false, QuantileMethod::Lower)?;
    /// assert_eq!(q.to_vec()?, vec![1.0, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanquantile_with(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("nanquantile", q, 1.0)?;
        self.nan_quantiles("nanquantile", &[q], axes.into(), keepdims, false, method)
    }

    /// Several quantiles of the non-NaN elements over `axes` by `method`, from one sort:
    /// shape `[qs.len(), reduced shape...]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, f64::NAN, 1.0, 2.0], &[4], dev)?;
    /// let q = a.nanquantiles_with(&[0.0, 1.0], 0, false, QuantileMethod::Linear)?;
    /// assert_eq!(q.to_vec()?, vec![1.0, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanquantiles_with(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let qs = check_qs("nanquantile", qs, 1.0)?;
        self.nan_quantiles("nanquantile", &qs, axes.into(), keepdims, true, method)
    }

    /// The `q`-th percentile (`0 <= q <= 100`) of the non-NaN elements ('linear', 0-d).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::from_vec(vec![f32::NAN, 10.0, 20.0], &[3], dev)?;
    /// assert_eq!(a.nanpercentile(50.0)?.item()?, 15.0);
    /// assert!(a.nanpercentile(100.5).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanpercentile(&self, q: f64) -> Result<Array<T::Mean, B>> {
        self.nanpercentile_with(q, Axes::All, false, QuantileMethod::Linear)
    }

    /// The `q`-th percentile of the non-NaN elements over `axes` by `method`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![f64::NAN, 1.0, 2.0, 3.0], &[2, 2], dev)?;
    /// let p = a.nanpercentile_with(100.0, 0, false, QuantileMethod::Higher)?;
    /// assert_eq!(p.to_vec()?, vec![2.0, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanpercentile_with(
        &self,
        q: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let q = check_q("nanpercentile", q, 100.0)?;
        self.nan_quantiles("nanpercentile", &[q], axes.into(), keepdims, false, method)
    }

    /// Several percentiles of the non-NaN elements over `axes` by `method`: shape
    /// `[qs.len(), reduced shape...]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2, 3, 4, 5], &[5], dev)?;
    /// let p = a.nanpercentiles_with(&[25.0, 50.0], Axes::All, false, QuantileMethod::Weibull)?;
    /// assert_eq!(p.to_vec()?, vec![1.5, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nanpercentiles_with(
        &self,
        qs: &[f64],
        axes: impl Into<Axes>,
        keepdims: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let qs = check_qs("nanpercentile", qs, 100.0)?;
        self.nan_quantiles("nanpercentile", &qs, axes.into(), keepdims, true, method)
    }

    /// The quantiles `qs` (checked) of the non-NaN elements over `axes`, on behalf of `op`.
    fn nan_quantiles(
        &self,
        op: &'static str,
        qs: &[f64],
        axes: Axes,
        keepdims: bool,
        stacked: bool,
        method: QuantileMethod,
    ) -> Result<Array<T::Mean, B>> {
        let ax = axes.resolve(op, self.ndim())?;
        let out_shape = reduced_shape(self.shape(), &ax, keepdims);
        let mut full_shape = if stacked { vec![qs.len()] } else { vec![] };
        full_shape.extend_from_slice(&out_shape);
        if self.size() == 0 {
            return nan_full(&full_shape, &self.device);
        }
        if !T::DTYPE.is_float() {
            return self.quantiles_impl(op, qs, ax.into(), keepdims, stacked, method);
        }
        let lanes = NanLanes::new(self, &ax)?;
        let one = |q: f64| -> Result<Array<T::Mean, B>> {
            let r = lanes.sorted.sorted_lanes_quantile(&lanes.n, q, method)?;
            lanes.finish(r, &out_shape)
        };
        if !stacked {
            return one(qs[0]);
        }
        if qs.is_empty() {
            return Array::zeros(&full_shape, &self.device);
        }
        let parts = qs.iter().map(|&q| one(q)).collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Array<T::Mean, B>> = parts.iter().collect();
        Array::stack(&refs, 0)
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The weighted average over `axes` (NumPy's `np.average(a, axis, weights, keepdims=)`;
    /// `T::Mean`: `f64` for bool and integers). Without weights it is the mean. `weights`
    /// has the array's shape, or the lengths of the listed `axes` in their order (for one
    /// axis: 1-d, one weight per position along it).
    ///
    /// # Errors
    /// Weights of another shape (with [`Axes::All`]: any other than the array's), weights
    /// summing to zero in some lane (NumPy's `ZeroDivisionError`; checking it reads one flag
    /// back from the device), an unweighted average into an empty result (NumPy divides by
    /// its size), a bad axis, another device.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// assert_eq!(a.average(None, Axes::All, false)?.item()?, 2.5);
    /// let w = Array::<f64, B>::from_vec(vec![3.0, 1.0], &[2], dev)?;
    /// assert_eq!(a.average(Some(&w), 1, false)?.to_vec()?, vec![1.25, 3.25]);
    /// let zero = Array::<f64, B>::zeros(&[2], dev)?;
    /// assert!(a.average(Some(&zero), 0, false).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn average(
        &self,
        weights: Option<&Array<T::Mean, B>>,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::Mean, B>> {
        Ok(self
            .average_as("average", weights, axes.into(), keepdims)?
            .0)
    }

    /// [`Array::average`] and the sum of the weights of every lane, of the average's shape
    /// (NumPy's `returned=True`; without weights, the number of elements averaged).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// let w = Array::<f64, B>::from_vec(vec![1.0, 1.0, 2.0], &[3], dev)?;
    /// let (avg, sum) = a.average_returned(Some(&w), 0, false)?;
    /// assert_eq!((avg.item()?, sum.item()?), (2.25, 4.0));
    /// let (avg, n) = a.average_returned(None, Axes::All, true)?;
    /// assert_eq!((avg.to_vec()?, n.to_vec()?), (vec![2.0], vec![3.0]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn average_returned(
        &self,
        weights: Option<&Array<T::Mean, B>>,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<(Array<T::Mean, B>, Array<T::Mean, B>)> {
        let (avg, scl) = self.average_as("average", weights, axes.into(), keepdims)?;
        let scl = if scl.shape() == avg.shape() {
            scl
        } else {
            scl.broadcast_to(avg.shape())?.copy()?
        };
        Ok((avg, scl))
    }

    /// The average and the weight sums (broadcastable to it) on behalf of `op`.
    #[allow(clippy::type_complexity)]
    fn average_as(
        &self,
        op: &'static str,
        weights: Option<&Array<T::Mean, B>>,
        axes: Axes,
        keepdims: bool,
    ) -> Result<(Array<T::Mean, B>, Array<T::Mean, B>)> {
        let nd = self.ndim();
        let ax = axes.resolve(op, nd)?;
        let Some(w) = weights else {
            let avg = self.reduce_resolved(Mean, &ax, keepdims)?;
            if avg.size() == 0 {
                return Err(Error::invalid(
                    op,
                    format!(
                        "division by zero: the average of shape {:?} over axes {ax:?} is empty",
                        self.shape()
                    ),
                ));
            }
            let n = self.size() as f64 / avg.size() as f64;
            let scl = Array::full(&[], <T::Mean as Numeric>::from_f64(n), &self.device)?;
            return Ok((avg, scl));
        };
        self.check_device(w, op)?;
        let w = if w.shape() == self.shape() {
            w.clone()
        } else {
            let Axes::Some(listed) = &axes else {
                return Err(Error::invalid(
                    op,
                    format!(
                        "axis must be specified when the shapes of a {:?} and weights {:?} differ",
                        self.shape(),
                        w.shape()
                    ),
                ));
            };
            let listed = listed
                .iter()
                .map(|&a| normalize_axis(op, a, nd))
                .collect::<Result<Vec<_>>>()?;
            let lengths: Vec<usize> = listed.iter().map(|&a| self.shape()[a]).collect();
            if w.shape() != lengths {
                return Err(Error::invalid(
                    op,
                    format!(
                        "the shape of weights {:?} must be the shape of a {:?} or its lengths \
                         {lengths:?} along the axes {listed:?}",
                        w.shape(),
                        self.shape()
                    ),
                ));
            }
            let mut order: Vec<isize> = (0..listed.len() as isize).collect();
            order.sort_by_key(|&i| listed[i as usize]);
            let shape: Vec<isize> = (0..nd)
                .map(|i| {
                    if ax.contains(&i) {
                        self.shape()[i] as isize
                    } else {
                        1
                    }
                })
                .collect();
            w.permute_dims(&order)?.reshape(&shape)?
        };
        let scl = w.reduce_resolved(Sum, &ax, keepdims)?;
        if scl.eq_scalar(<T::Mean as Element>::ZERO)?.any()?.item()? {
            return Err(Error::invalid(
                op,
                format!(
                    "weights sum to zero, can't be normalized (a of shape {:?}, weights of \
                     shape {:?}, axes {ax:?})",
                    self.shape(),
                    w.shape()
                ),
            ));
        }
        let total = self
            .as_mean()?
            .zip_op(Mul, &w)?
            .reduce_resolved(Sum, &ax, keepdims)?;
        Ok((total.zip_op(Div, &scl)?, scl))
    }
}

/// The element types [`Array::cov`] and [`Array::corrcoef`] accept, with the type they
/// compute in: NumPy's `result_type(m, float64)`, `f64` for bool, integers and real floats
/// and `c128` for complex numbers.
pub trait CovElement: Element {
    /// `f64` or `c128`.
    type Cov: Inexact;
}

macro_rules! cov_element {
    ($out:ty: $($t:ty),*) => {$(
        impl CovElement for $t {
            type Cov = $out;
        }
    )*};
}
cov_element!(f64: bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64);
cov_element!(c128: c64, c128);

/// NumPy's keyword arguments of [`Array::cov`]. `rowvar`: each row is a variable (the
/// default), else each column. `bias`: normalise by `N` rather than `N - 1`. `ddof`:
/// normalise by `N - ddof`, overriding `bias`. `fweights`: integer frequency of each
/// observation; `aweights`: observation weights; both 1-d, one non-negative value per
/// observation, multiplied together when both are given.
///
/// ```
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 4.0], &[3], dev)?;
/// let f = Array::<i64, B>::from_vec(vec![1, 0, 2], &[3], dev)?;
/// let opts = CovOptions { fweights: Some(&f), bias: true, ..Default::default() };
/// assert!((x.cov(None, &opts)?.item()? - 2.0).abs() < 1e-12);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub struct CovOptions<'a, B: ArrayBackend> {
    /// Each row a variable (`true`, NumPy's default) or each column.
    pub rowvar: bool,
    /// Normalise by `N` (the weight sum) rather than `N - 1`.
    pub bias: bool,
    /// Normalise by `N - ddof`; overrides `bias` when given.
    pub ddof: Option<i64>,
    /// The number of times each observation occurs.
    pub fweights: Option<&'a Array<i64, B>>,
    /// The weight of each observation.
    pub aweights: Option<&'a Array<f64, B>>,
}

impl<B: ArrayBackend> Default for CovOptions<'_, B> {
    fn default() -> Self {
        CovOptions {
            rowvar: true,
            bias: false,
            ddof: None,
            fweights: None,
            aweights: None,
        }
    }
}

impl<B: ArrayBackend> Clone for CovOptions<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: ArrayBackend> Copy for CovOptions<'_, B> {}

impl<T: CovElement, B: ArrayBackend> Array<T, B> {
    /// The covariance matrix of the variables in the rows of this array (its columns when
    /// `opts.rowvar` is false), with those of `y` appended (NumPy's `np.cov(m, y, rowvar,
    /// bias, ddof, fweights, aweights)`). The inputs have at most two dimensions; a 1-d one
    /// is one variable. The result, in `f64` (`c128` for complex input), has every
    /// dimension of length 1 removed: a single variable gives a 0-d variance. No variable
    /// gives a `(0, 0)` array; `N - ddof <= 0` gives inf or NaN, as NumPy.
    ///
    /// # Errors
    /// More than two dimensions; `y` with another number of observations; weights that are
    /// not 1-d with one value per observation, or negative (reading one flag back from the
    /// device), or summing to zero; another device.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i32, B>::from_vec(vec![0, 1, 2, 2, 1, 0], &[2, 3], dev)?;
    /// let c = x.cov(None, &CovOptions::default())?;
    /// assert_eq!(c.to_vec()?, vec![1.0, -1.0, -1.0, 1.0]);
    /// let cols = CovOptions { rowvar: false, ddof: Some(0), ..Default::default() };
    /// assert_eq!(x.cov(None, &cols)?.shape(), &[3, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn cov(&self, y: Option<&Self>, opts: &CovOptions<'_, B>) -> Result<Array<T::Cov, B>> {
        self.cov_as("cov", y, opts)
    }

    /// The Pearson correlation coefficients of the variables (NumPy's `np.corrcoef(x, y,
    /// rowvar)`): the covariance matrix divided by the outer product of the standard
    /// deviations, each part clipped to `[-1, 1]` as NumPy does. A single variable gives
    /// the 0-d `c / c` (1, or NaN for a zero or non-finite variance).
    ///
    /// # Errors
    /// As [`Array::cov`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 3.0, 2.0, 1.0], &[2, 3], dev)?;
    /// assert_eq!(x.corrcoef(None, true)?.to_vec()?, vec![1.0, -1.0, -1.0, 1.0]);
    /// let row = x.slice(&s![0, ..])?;
    /// assert_eq!(row.corrcoef(None, true)?.item()?, 1.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn corrcoef(&self, y: Option<&Self>, rowvar: bool) -> Result<Array<T::Cov, B>> {
        let opts = CovOptions {
            rowvar,
            ..Default::default()
        };
        let c = self.cov_as("corrcoef", y, &opts)?;
        if c.ndim() == 0 {
            return c.zip_op(Div, &c);
        }
        let p = c.shape()[0] as isize;
        let sd = c
            .diagonal(0)?
            .map_op(Re)?
            .map_op(Sqrt)?
            .astype::<T::Cov>()?;
        let c = c
            .zip_op(Div, &sd.reshape(&[p, 1])?)?
            .zip_op(Div, &sd.reshape(&[1, p])?)?;
        let from = <<T::Cov as Inexact>::RealPart as Numeric>::from_f64;
        let re = c.map_op(Re)?.clip(from(-1.0), from(1.0))?;
        let re = re.astype::<T::Cov>()?;
        if !T::Cov::DTYPE.is_complex() {
            return Ok(re);
        }
        // Rebuild `re + i im` with the clipped parts; a NaN imaginary part stays NaN without
        // touching the real part.
        let im = c.map_op(Im)?.clip(from(-1.0), from(1.0))?;
        let nan_im = im.isnan()?;
        let zero = Array::full(&[], from(0.0), &self.device)?;
        let im = Array::where_(&nan_im, &zero, &im)?.astype::<T::Cov>()?;
        let unit = |im: f64| {
            Array::full(
                &[],
                T::Cov::from_scalar(Scalar::C128(c128::new(0.0, im))),
                &self.device,
            )
        };
        let z = re.zip_op(Add, &im.zip_op(Mul, &unit(1.0)?)?)?;
        Array::where_(&nan_im, &re.zip_op(Add, &unit(f64::NAN)?)?, &z)
    }

    /// [`Array::cov`] on behalf of `op`.
    fn cov_as(
        &self,
        op: &'static str,
        y: Option<&Self>,
        o: &CovOptions<'_, B>,
    ) -> Result<Array<T::Cov, B>> {
        let dev = &self.device;
        let as_2d = |a: &Self, what: &str| -> Result<Array<T::Cov, B>> {
            let c = a.astype::<T::Cov>()?;
            match a.ndim() {
                0 => c.reshape(&[1, 1]),
                1 => c.reshape(&[1, a.size() as isize]),
                2 => Ok(c),
                _ => Err(Error::invalid(
                    op,
                    format!("{what} has more than 2 dimensions (shape {:?})", a.shape()),
                )),
            }
        };
        if let Some(y) = y {
            self.check_device(y, op)?;
            if y.ndim() > 2 {
                return Err(Error::invalid(
                    op,
                    format!("y has more than 2 dimensions (shape {:?})", y.shape()),
                ));
            }
        }
        let mut x = as_2d(self, "m")?;
        if !o.rowvar && self.ndim() != 1 {
            x = x.t();
        }
        if x.shape()[0] == 0 {
            return Array::zeros(&[0, 0], dev);
        }
        if let Some(y) = y {
            let mut yy = as_2d(y, "y")?;
            if !o.rowvar && yy.shape()[0] != 1 {
                yy = yy.t();
            }
            if yy.shape()[1] != x.shape()[1] {
                return Err(Error::invalid(
                    op,
                    format!(
                        "m and y must have the same number of observations: {} (m of shape \
                         {:?}) vs {} (y of shape {:?}, rowvar {})",
                        x.shape()[1],
                        self.shape(),
                        yy.shape()[1],
                        y.shape(),
                        o.rowvar
                    ),
                ));
            }
            x = Array::concatenate(&[&x, &yy], 0)?;
        }
        let n = x.shape()[1];
        let ddof = o.ddof.unwrap_or(if o.bias { 0 } else { 1 });
        let w = cov_weights(op, o, n, self)?;
        let zero = Array::<f64, B>::full(&[], 0.0, dev)?;
        let (avg, fact, wc) = match &w {
            None => {
                let avg = x.reduce_resolved(Mean, &[1], false)?;
                let fact = Array::full(&[], (n as i64 - ddof) as f64, dev)?;
                (avg, fact, None)
            }
            Some((w, w_sum)) => {
                let wc = w.astype::<T::Cov>()?;
                let avg = x
                    .zip_op(Mul, &wc)?
                    .reduce_resolved(Sum, &[1], false)?
                    .zip_op(Div, &w_sum.astype::<T::Cov>()?)?;
                let fact = match o.aweights {
                    _ if ddof == 0 => w_sum.clone(),
                    None => w_sum.scalar_op(Sub, ddof as f64)?,
                    Some(aw) => {
                        let s = w.zip_op(Mul, aw)?.sum()?.scalar_op(Mul, ddof as f64)?;
                        w_sum.zip_op(Sub, &s.zip_op(Div, w_sum)?)?
                    }
                };
                (avg, fact, Some(wc))
            }
        };
        let fact = Array::where_(&fact.le_scalar(0.0)?, &zero, &fact)?;
        let inv = fact.scalar_op_rev(Div, 1.0)?.astype::<T::Cov>()?;
        let xc = x.zip_op(Sub, &avg.reshape(&[-1, 1])?)?;
        let xt = match &wc {
            None => xc.t(),
            Some(wc) => xc.zip_op(Mul, wc)?.t(),
        };
        xc.matmul(&xt.map_op(Conj)?)?
            .zip_op(Mul, &inv)?
            .squeeze(Axes::All)
    }
}

/// The observation weights of `cov` (`fweights` times `aweights`, as `f64`) and their sum,
/// after NumPy's checks, for `n` observations. The sign and zero-sum checks read one small
/// array of flags back from the device.
#[allow(clippy::type_complexity)]
fn cov_weights<T: Element, B: ArrayBackend>(
    op: &'static str,
    o: &CovOptions<'_, B>,
    n: usize,
    m: &Array<T, B>,
) -> Result<Option<(Array<f64, B>, Array<f64, B>)>> {
    let check = |shape: &[usize], what: &str| -> Result<()> {
        if shape.len() != 1 {
            let why = if shape.len() > 1 {
                "cannot handle multidimensional"
            } else {
                "expected 1-d"
            };
            return Err(Error::invalid(
                op,
                format!("{why} {what} (shape {shape:?})"),
            ));
        }
        if shape[0] != n {
            return Err(Error::invalid(
                op,
                format!(
                    "incompatible numbers of samples and {what}: {} weights for {n} observations",
                    shape[0]
                ),
            ));
        }
        Ok(())
    };
    let mut flags = Vec::new();
    let mut w: Option<Array<f64, B>> = None;
    if let Some(f) = o.fweights {
        m.check_device(f, op)?;
        check(f.shape(), "fweights")?;
        flags.push(("fweights cannot be negative", f.lt_scalar(0)?.any()?));
        w = Some(f.astype::<f64>()?);
    }
    if let Some(a) = o.aweights {
        m.check_device(a, op)?;
        check(a.shape(), "aweights")?;
        flags.push(("aweights cannot be negative", a.lt_scalar(0.0)?.any()?));
        w = Some(match w {
            Some(f) => f.zip_op(Mul, a)?,
            None => a.clone(),
        });
    }
    let Some(w) = w else {
        return Ok(None);
    };
    let w_sum = w.sum()?;
    flags.push((
        "weights sum to zero, can't be normalized",
        w_sum.eq_scalar(0.0)?,
    ));
    let parts = flags
        .iter()
        .map(|(_, f)| f.reshape(&[1]))
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Array<bool, B>> = parts.iter().collect();
    let raised = Array::concatenate(&refs, 0)?.to_vec()?;
    if let Some(((msg, _), _)) = flags.iter().zip(raised).find(|(_, bad)| *bad) {
        return Err(Error::invalid(op, *msg));
    }
    Ok(Some((w, w_sum)))
}
