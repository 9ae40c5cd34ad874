//! Histograms as NumPy computes them: [`Array::histogram`] (counts),
//! [`Array::histogram_weighted`], [`Array::histogram_density`], [`Array::histogram_bin_edges`]
//! with NumPy's rules for the number of bins ([`BinRule`]), and [`Array::histogramdd`] /
//! [`Array::histogram2d`].
//!
//! The counting is one pass of the backend primitive `bin_add` (a shared-memory atomic
//! histogram on the GPU, per-thread copies of the bins on the CPU), which finds equal bins as
//! NumPy does: the value scaled into `0..bins`, truncated, then moved by one where the edges
//! disagree (so every value lands in the bin its edges say); given edges by binary search.
//! Values outside the range and NaN are not counted. The range, the edges' monotonicity and
//! the rules' statistics are read back as a few numbers; the data never leaves the device.

use super::Array;
use super::reduce::MeanReal;
use crate::backend::{ArrayBackend, UniformBins};
use crate::dtype::{Element, Float, Numeric, Real};
use crate::error::{Error, Result};
use crate::ops::Div;
use crate::slice::SliceArg;

/// How [`Array::histogram`] chooses its bins (NumPy's `bins=`).
#[derive(Debug)]
pub enum Bins<'a, E: Element, B: ArrayBackend> {
    /// That many equal bins over the range.
    Count(usize),
    /// The bin edges: 1-d, increasing; the last bin includes its right edge.
    Edges(&'a Array<E, B>),
    /// Equal bins whose number a rule computes from the data.
    Rule(BinRule),
}

impl<E: Element, B: ArrayBackend> Clone for Bins<'_, E, B> {
    fn clone(&self) -> Self {
        match self {
            Bins::Count(n) => Bins::Count(*n),
            Bins::Edges(e) => Bins::Edges(e),
            Bins::Rule(r) => Bins::Rule(*r),
        }
    }
}

impl<E: Element, B: ArrayBackend> From<usize> for Bins<'_, E, B> {
    fn from(n: usize) -> Self {
        Bins::Count(n)
    }
}

impl<'a, E: Element, B: ArrayBackend> From<&'a Array<E, B>> for Bins<'a, E, B> {
    fn from(e: &'a Array<E, B>) -> Self {
        Bins::Edges(e)
    }
}

impl<E: Element, B: ArrayBackend> From<BinRule> for Bins<'_, E, B> {
    fn from(r: BinRule) -> Self {
        Bins::Rule(r)
    }
}

/// NumPy's rules for the number of equal bins (`bins="auto"`, ...), computed on the values
/// inside the range; the width of a bin is at least 1 for integer data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinRule {
    /// The smaller width of `Sturges` and `Fd` (the latter at least half of `Sqrt`'s).
    Auto,
    /// Freedman-Diaconis: `2 * IQR / n^(1/3)`.
    Fd,
    /// Doane's refinement of Sturges for skewed data.
    Doane,
    /// Scott: `(24 sqrt(pi) / n)^(1/3) * std`.
    Scott,
    /// Stone: the bin count (up to `max(100, sqrt(n))`) minimising an estimate of the
    /// integrated squared error (one histogram per candidate).
    Stone,
    /// Rice: `ptp / (2 n^(1/3))`.
    Rice,
    /// Sturges: `ptp / (log2(n) + 1)`.
    Sturges,
    /// `ptp / sqrt(n)`.
    Sqrt,
}

impl BinRule {
    /// NumPy's name of the rule (`"auto"`, `"fd"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            BinRule::Auto => "auto",
            BinRule::Fd => "fd",
            BinRule::Doane => "doane",
            BinRule::Scott => "scott",
            BinRule::Stone => "stone",
            BinRule::Rice => "rice",
            BinRule::Sturges => "sturges",
            BinRule::Sqrt => "sqrt",
        }
    }
}

impl std::str::FromStr for BinRule {
    type Err = Error;

    /// Parses NumPy's name of a rule.
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "auto" => BinRule::Auto,
            "fd" => BinRule::Fd,
            "doane" => BinRule::Doane,
            "scott" => BinRule::Scott,
            "stone" => BinRule::Stone,
            "rice" => BinRule::Rice,
            "sturges" => BinRule::Sturges,
            "sqrt" => BinRule::Sqrt,
            other => {
                return Err(Error::invalid(
                    "histogram",
                    format!(
                        "{other:?} is not a bin rule (auto, fd, doane, scott, stone, rice, sturges, sqrt)"
                    ),
                ));
            }
        })
    }
}

/// `a[start..stop]` along the only axis.
fn range1<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    start: Option<isize>,
    stop: Option<isize>,
) -> Result<Array<T, B>> {
    a.slice(&[SliceArg::Range {
        start,
        stop,
        step: 1,
    }])
}

/// An element as `f64` (exact for every real type but the widest integers).
fn f64_of<T: Element>(x: T) -> f64 {
    f64::from_scalar(x.to_scalar())
}

/// The equal bins of a plan: first and last edge (in the edges' type);
/// `from_range` when the edges came from the caller's `range` (NumPy then scales by the
/// range's width computed in f64).
#[derive(Clone, Copy)]
struct Uniform<E> {
    first: E,
    last: E,
    from_range: bool,
}

/// The outer edges of NumPy's `_get_outer_edges`, in f64, with the first and last edge as
/// the edges' type: `range`, else the data's extremes (0 and 1 for no data), widened by 0.5
/// on each side when equal.
pub(super) fn outer_edges<T: Real, E: Float, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    range: Option<(f64, f64)>,
) -> Result<(E, E)> {
    let half = E::from_f64(0.5);
    let (first, last) = match range {
        Some((lo, hi)) => {
            if lo > hi {
                return Err(Error::invalid(
                    op,
                    format!("max must be larger than min in range, got ({lo}, {hi})"),
                ));
            }
            if !(lo.is_finite() && hi.is_finite()) {
                return Err(Error::invalid(
                    op,
                    format!("the range [{lo}, {hi}] is not finite"),
                ));
            }
            (E::from_f64(lo), E::from_f64(hi))
        }
        None if a.size() == 0 => (E::from_f64(0.0), E::from_f64(1.0)),
        None => {
            let lo = E::from_scalar(a.min()?.item()?.to_scalar());
            let hi = E::from_scalar(a.max()?.item()?.to_scalar());
            if !(num_traits::Float::is_finite(lo) && num_traits::Float::is_finite(hi)) {
                return Err(Error::invalid(
                    op,
                    format!("the autodetected range of [{lo}, {hi}] is not finite"),
                ));
            }
            (lo, hi)
        }
    };
    if first == last {
        Ok((first - half, last + half))
    } else {
        Ok((first, last))
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B>
where
    T::Mean: Float,
{
    /// `max - min` of a non-empty array as f64 (integers without wrapping).
    fn ptp_f64(&self) -> Result<f64> {
        let (lo, hi) = (self.min()?.item()?, self.max()?.item()?);
        Ok(if T::DTYPE.is_integer() {
            f64_of(hi) - f64_of(lo)
        } else {
            f64_of(Numeric::sub(hi, lo))
        })
    }

    /// The bin width of a rule for the (non-empty) values `self` with outer edges
    /// `first..last` (0 when the rule finds none).
    fn rule_width(&self, rule: BinRule, first: f64, last: f64) -> Result<f64> {
        let n = self.size() as f64;
        let sturges = |x: &Self| -> Result<f64> { Ok(x.ptp_f64()? / (n.log2() + 1.0)) };
        let fd = |x: &Self| -> Result<f64> {
            let q75 = f64_of(x.percentile(75.0)?.item()?);
            let q25 = f64_of(x.percentile(25.0)?.item()?);
            Ok(2.0 * (q75 - q25) * n.powf(-1.0 / 3.0))
        };
        Ok(match rule {
            BinRule::Sqrt => self.ptp_f64()? / n.sqrt(),
            BinRule::Sturges => sturges(self)?,
            BinRule::Rice => self.ptp_f64()? / (2.0 * n.powf(1.0 / 3.0)),
            BinRule::Scott => {
                let std = f64_of(self.std(0.0)?.item()?);
                (24.0 * std::f64::consts::PI.sqrt() / n).powf(1.0 / 3.0) * std
            }
            BinRule::Fd => fd(self)?,
            BinRule::Auto => {
                let fd_corrected = fd(self)?.max(self.ptp_f64()? / n.sqrt() / 2.0);
                fd_corrected.min(sturges(self)?)
            }
            BinRule::Doane => {
                if self.size() <= 2 {
                    return Ok(0.0);
                }
                let x = self.astype::<MeanReal<T>>()?;
                let sigma = x.std(0.0)?;
                if f64_of(sigma.item()?) <= 0.0 {
                    return Ok(0.0);
                }
                let sg1 = (6.0 * (n - 2.0) / ((n + 1.0) * (n + 3.0))).sqrt();
                let t = x.try_sub(&x.mean()?)?.zip_op(Div, &sigma)?;
                let g1 = f64_of(t.try_mul(&t)?.try_mul(&t)?.mean()?.item()?);
                self.ptp_f64()? / (1.0 + n.log2() + (1.0 + g1.abs() / sg1).log2())
            }
            BinRule::Stone => {
                let ptp = self.ptp_f64()?;
                if self.size() <= 1 || ptp == 0.0 {
                    return Ok(0.0);
                }
                let upper = 100usize.max(n.sqrt() as usize);
                let mut best = (f64::INFINITY, 1usize);
                for bins in 1..=upper {
                    let (h, _) = self.histogram(bins, Some((first, last)))?;
                    let p = h.astype::<f64>()?.scalar_op(Div, n)?;
                    let pp = p.try_mul(&p)?.sum()?.item()?;
                    let jhat = (2.0 - (n + 1.0) * pp) / (ptp / bins as f64);
                    if jhat < best.0 {
                        best = (jhat, bins);
                    }
                }
                ptp / best.1 as f64
            }
        })
    }

    /// The edges and, for equal bins, their plan (NumPy's `_get_bin_edges`).
    #[allow(clippy::type_complexity)]
    fn bin_plan(
        &self,
        op: &'static str,
        bins: Bins<'_, MeanReal<T>, B>,
        range: Option<(f64, f64)>,
        weighted: bool,
    ) -> Result<(Array<MeanReal<T>, B>, Option<Uniform<MeanReal<T>>>)> {
        type E<T> = MeanReal<T>;
        let count = match bins {
            Bins::Edges(e) => {
                self.check_device(e, op)?;
                if e.ndim() != 1 || e.size() == 0 {
                    return Err(Error::invalid(
                        op,
                        format!(
                            "bin edges must be 1-d and non-empty, got shape {:?}",
                            e.shape()
                        ),
                    ));
                }
                let (lo, hi) = (range1(e, None, Some(-1))?, range1(e, Some(1), None)?);
                if lo.gt(&hi)?.any()?.item()? {
                    return Err(Error::invalid(op, "bins must increase monotonically"));
                }
                return Ok((e.clone(), None));
            }
            Bins::Count(0) => {
                return Err(Error::invalid(op, "the number of bins must be positive"));
            }
            Bins::Count(n) => n,
            Bins::Rule(rule) => {
                if weighted {
                    return Err(Error::invalid(
                        op,
                        format!("the bin rule {:?} does not take weighted data", rule.name()),
                    ));
                }
                let (first, last) = outer_edges::<T, E<T>, B>(op, self, range)?;
                let inside = match range {
                    Some(_) => {
                        let keep = self
                            .astype::<E<T>>()?
                            .ge_scalar(first)?
                            .logical_and(&self.astype::<E<T>>()?.le_scalar(last)?)?;
                        self.select(&keep)?
                    }
                    None => self.clone(),
                };
                if inside.size() == 0 {
                    1
                } else {
                    let (f, l) = (f64_of(first), f64_of(last));
                    let mut width = inside.rule_width(rule, f, l)?;
                    if width > 0.0 {
                        if T::DTYPE.is_integer() && width < 1.0 {
                            width = 1.0;
                        }
                        let n = (f64_of(last - first) / width).ceil();
                        if !(n >= 1.0 && n < (1u64 << 40) as f64) {
                            return Err(Error::invalid(
                                op,
                                format!("the rule {:?} asks for {n} bins", rule.name()),
                            ));
                        }
                        n as usize
                    } else {
                        1
                    }
                }
            }
        };
        let (first, last) = outer_edges::<T, E<T>, B>(op, self, range)?;
        let num = count
            .checked_add(1)
            .ok_or_else(|| Error::invalid(op, "too many bins"))?;
        // NumPy's linspace computes in the type of its end points: the edges' own type when
        // they come from the data, f64 when they come from `range`.
        let edges = if range.is_none() {
            Array::<E<T>, B>::linspace(first, last, num, true, &self.device)?
        } else {
            Array::<f64, B>::linspace(f64_of(first), f64_of(last), num, true, &self.device)?
                .astype::<E<T>>()?
        };
        let (lo, hi) = (
            range1(&edges, None, Some(-1))?,
            range1(&edges, Some(1), None)?,
        );
        if lo.ge(&hi)?.any()?.item()? {
            return Err(Error::invalid(
                op,
                format!(
                    "too many bins for the data range: cannot create {count} finite-sized bins"
                ),
            ));
        }
        let uniform = Uniform {
            first,
            last,
            from_range: range.is_some(),
        };
        Ok((edges, Some(uniform)))
    }

    /// The counts (no weights: `W` ones) or weight sums of `self`'s elements in the bins of
    /// `edges`, through the backend's `bin_add`.
    fn count_bins<W: Numeric>(
        &self,
        edges: &Array<MeanReal<T>, B>,
        uniform: Option<Uniform<MeanReal<T>>>,
        weights: Option<&Array<W, B>>,
    ) -> Result<Array<W, B>> {
        let edges = edges.to_contiguous()?;
        let mut out = Array::<W, B>::zeros(&[edges.size() - 1], &self.device)?;
        let bins = uniform.map(|u| UniformBins {
            first: u.first,
            last: u.last,
            // NumPy scales by the range's width in f64 when the caller gave the range.
            denom: if u.from_range {
                MeanReal::<T>::from_f64(f64_of(u.last) - f64_of(u.first))
            } else {
                u.last - u.first
            },
        });
        let dev = self.device.clone();
        let (buf, lo) = out.writable("histogram")?;
        dev.bin_add(
            &self.buf,
            &self.layout,
            &edges.buf,
            &edges.layout,
            bins,
            weights.map(|w| (&w.buf, &w.layout)),
            buf,
            lo,
        )?;
        Ok(out)
    }

    /// NumPy's `np.histogram_bin_edges(self, bins, range)`: the edges [`histogram`](Self::histogram)
    /// uses, in the type of the data's means (`f64` for integers).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], &[8], dev)?;
    /// assert_eq!(a.histogram_bin_edges(4, None)?.to_vec()?, vec![0.0, 1.75, 3.5, 5.25, 7.0]);
    /// assert_eq!(a.histogram_bin_edges(BinRule::Sturges, None)?.size(), 5);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn histogram_bin_edges<'a>(
        &self,
        bins: impl Into<Bins<'a, MeanReal<T>, B>>,
        range: Option<(f64, f64)>,
    ) -> Result<Array<MeanReal<T>, B>>
    where
        B: 'a,
    {
        Ok(self
            .ravel()?
            .bin_plan("histogram_bin_edges", bins.into(), range, false)?
            .0)
    }

    /// NumPy's `np.histogram(self, bins, range)`: the number of elements (of the flattened
    /// array) in each bin, as `i64`, and the bin edges. Bins are half-open except the last,
    /// which includes its right edge; values outside the range and NaN are not counted.
    /// `bins` is a count (`10`), edges (`&edges`) or a rule (`BinRule::Auto`); `range`
    /// defaults to the data's extremes.
    ///
    /// # Errors
    /// No bins, a reversed or infinite range, an infinite data range without `range`, edges
    /// that are not 1-d and increasing, or more bins than the range can separate.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 1, 3, 1], &[5], dev)?;
    /// let (counts, edges) = a.histogram(2, Some((0.0, 4.0)))?;
    /// assert_eq!(counts.to_vec()?, vec![3, 2]);
    /// assert_eq!(edges.to_vec()?, vec![0.0, 2.0, 4.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn histogram<'a>(
        &self,
        bins: impl Into<Bins<'a, MeanReal<T>, B>>,
        range: Option<(f64, f64)>,
    ) -> Result<(Array<i64, B>, Array<MeanReal<T>, B>)>
    where
        B: 'a,
    {
        let (edges, uniform) = self
            .ravel()?
            .bin_plan("histogram", bins.into(), range, false)?;
        Ok((self.count_bins::<i64>(&edges, uniform, None)?, edges))
    }

    /// [`histogram`](Self::histogram) with a weight per element (NumPy's `weights=`): each
    /// bin holds the sum of its elements' weights, in the weights' type. Bin rules do not
    /// take weights (as in NumPy).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::from_vec(vec![0.5, 1.5, 0.25], &[3], dev)?;
    /// let w = Array::<f64, B>::from_vec(vec![1.0, 2.0, 0.5], &[3], dev)?;
    /// let (h, _) = a.histogram_weighted(2, Some((0.0, 2.0)), &w)?;
    /// assert_eq!(h.to_vec()?, vec![1.5, 2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn histogram_weighted<'a, W: Numeric>(
        &self,
        bins: impl Into<Bins<'a, MeanReal<T>, B>>,
        range: Option<(f64, f64)>,
        weights: &Array<W, B>,
    ) -> Result<(Array<W, B>, Array<MeanReal<T>, B>)>
    where
        B: 'a,
    {
        const OP: &str = "histogram";
        self.check_device(weights, OP)?;
        if weights.shape() != self.shape() {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: self.shape().to_vec(),
                rhs: weights.shape().to_vec(),
            });
        }
        let (edges, uniform) = self.ravel()?.bin_plan(OP, bins.into(), range, true)?;
        Ok((self.count_bins(&edges, uniform, Some(weights))?, edges))
    }

    /// NumPy's `np.histogram(self, bins, range, weights, density=True)`: the counts (or
    /// weight sums) divided by the total and by each bin's width, so the histogram
    /// integrates to 1 over the range, as `f64`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![0.5, 1.5, 1.5, 3.0], &[4], dev)?;
    /// let (d, _) = a.histogram_density(2, Some((0.0, 4.0)), None)?;
    /// assert_eq!(d.to_vec()?, vec![0.375, 0.125]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn histogram_density<'a>(
        &self,
        bins: impl Into<Bins<'a, MeanReal<T>, B>>,
        range: Option<(f64, f64)>,
        weights: Option<&Array<f64, B>>,
    ) -> Result<(Array<f64, B>, Array<MeanReal<T>, B>)>
    where
        B: 'a,
    {
        let (n, edges) = match weights {
            Some(w) => self.histogram_weighted(bins, range, w)?,
            None => {
                let (h, e) = self.histogram(bins, range)?;
                (h.astype::<f64>()?, e)
            }
        };
        let e = edges.astype::<f64>()?;
        let widths = range1(&e, Some(1), None)?.try_sub(&range1(&e, None, Some(-1))?)?;
        let total = n.sum()?;
        Ok((n.zip_op(Div, &widths)?.zip_op(Div, &total)?, edges))
    }
}
