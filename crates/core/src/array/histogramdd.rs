//! Multidimensional histograms: [`Array::histogramdd`] (NumPy's `np.histogramdd`, a sample of
//! `N` points in `D` dimensions) and [`Array::histogram2d`]. As NumPy, each coordinate's bin
//! comes from `searchsorted` on its edges (the last edge inclusive), outliers land in a bin
//! of their own at either end, the flat bin of each point is counted by `add_at`, and the
//! outlier bins are cut off; results are `f64`, and so are the edges.

use super::Array;
use super::histogram::{Bins, outer_edges};
use crate::backend::ArrayBackend;
use crate::dtype::Real;
use crate::error::{Error, Result};
use crate::ops::{Div, Mul};
use crate::slice::SliceArg;

/// The edges of one dimension of a `histogramdd`, checked as NumPy checks them.
fn dim_edges<B: ArrayBackend>(
    op: &'static str,
    col: &Array<f64, B>,
    bins: &Bins<'_, f64, B>,
    range: Option<(f64, f64)>,
    dim: usize,
) -> Result<Array<f64, B>> {
    match bins {
        Bins::Count(0) => Err(Error::invalid(
            op,
            format!("the number of bins of dimension {dim} must be positive"),
        )),
        Bins::Count(n) => {
            let (lo, hi) = outer_edges::<f64, f64, B>(op, col, range)?;
            Array::<f64, B>::linspace(lo, hi, n + 1, true, &col.device)
        }
        Bins::Edges(e) => {
            col.check_device(e, op)?;
            if e.ndim() != 1 || e.size() == 0 {
                return Err(Error::invalid(
                    op,
                    format!(
                        "the edges of dimension {dim} must be 1-d and non-empty, got shape {:?}",
                        e.shape()
                    ),
                ));
            }
            let lo = e.slice(&[SliceArg::Range {
                start: None,
                stop: Some(-1),
                step: 1,
            }])?;
            let hi = e.slice(&[SliceArg::Range {
                start: Some(1),
                stop: None,
                step: 1,
            }])?;
            if lo.gt(&hi)?.any()?.item()? {
                return Err(Error::invalid(
                    op,
                    format!("the edges of dimension {dim} must increase monotonically"),
                ));
            }
            Ok((*e).clone())
        }
        Bins::Rule(r) => Err(Error::invalid(
            op,
            format!("bin rules ({:?}) are for 1-d histograms only", r.name()),
        )),
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.histogramdd(sample, bins, range, weights, density)` with `self` the
    /// sample: `N` points as an `(N, D)` array (a 1-d array is `N` points of one
    /// coordinate). `bins` holds one entry for every dimension, or one for all (a count or
    /// `f64` edges; rules are for 1-d histograms); `range` one `(min, max)` per dimension.
    /// Returns the `D`-dimensional histogram (counts, weight sums, or with `density` a
    /// density integrating to 1) and each dimension's edges.
    ///
    /// # Errors
    /// A sample of more than 2 dimensions, `bins`/`range`/`weights` that do not match the
    /// sample, and the errors of [`histogram`](Self::histogram) per dimension.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let pts = Array::<f64, B>::from_vec(vec![0.1, 0.2, 0.6, 0.9, 0.7, 0.1], &[3, 2], dev)?;
    /// let (h, edges) = pts.histogramdd(&[Bins::Count(2)], Some(&[(0.0, 1.0), (0.0, 1.0)]), None, false)?;
    /// assert_eq!(h.to_vec()?, vec![1.0, 0.0, 1.0, 1.0]);
    /// assert_eq!(edges[1].to_vec()?, vec![0.0, 0.5, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn histogramdd(
        &self,
        bins: &[Bins<'_, f64, B>],
        range: Option<&[(f64, f64)]>,
        weights: Option<&Array<f64, B>>,
        density: bool,
    ) -> Result<(Array<f64, B>, Vec<Array<f64, B>>)> {
        const OP: &str = "histogramdd";
        let sample = match self.ndim() {
            1 => self.reshape(&[-1, 1])?,
            2 => self.clone(),
            _ => {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the sample must be (N, D) or 1-d, got shape {:?}",
                        self.shape()
                    ),
                ));
            }
        }
        .astype::<f64>()?;
        let (n, d) = (sample.shape()[0], sample.shape()[1]);
        if bins.len() != 1 && bins.len() != d {
            return Err(Error::invalid(
                OP,
                format!("{} bin specifications for {d} dimensions", bins.len()),
            ));
        }
        if let Some(r) = range
            && r.len() != d
        {
            return Err(Error::invalid(
                OP,
                format!("{} ranges for {d} dimensions", r.len()),
            ));
        }
        if let Some(w) = weights {
            self.check_device(w, OP)?;
            if w.shape() != [n] {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: sample.shape().to_vec(),
                    rhs: w.shape().to_vec(),
                });
            }
        }
        let mut edges = Vec::with_capacity(d);
        let mut nbin = Vec::with_capacity(d);
        let mut flat: Option<Array<i64, B>> = None;
        for i in 0..d {
            let col = sample.slice(&[
                SliceArg::Range {
                    start: None,
                    stop: None,
                    step: 1,
                },
                SliceArg::Index(i as isize),
            ])?;
            let b = if bins.len() == 1 { &bins[0] } else { &bins[i] };
            let e = dim_edges(OP, &col, b, range.map(|r| r[i]), i)?;
            let last = e.slice(&[SliceArg::Index(-1)])?;
            // The bin counting outliers below at 0, above at len(edges).
            let on_edge = col.eq(&last.broadcast_to(col.shape())?)?;
            let cnt = e
                .searchsorted(&col, super::Side::Right)?
                .try_sub(&on_edge.astype::<i64>()?)?;
            nbin.push(e.size() + 1);
            flat = Some(match flat {
                None => cnt,
                Some(f) => f.scalar_op(Mul, (e.size() + 1) as i64)?.try_add(&cnt)?,
            });
            edges.push(e);
        }
        let total = nbin
            .iter()
            .try_fold(1usize, |a, &b| a.checked_mul(b))
            .ok_or_else(|| Error::invalid(OP, format!("{nbin:?} bins overflow usize")))?;
        let mut hist = Array::<f64, B>::zeros(&[total], &self.device)?;
        if let Some(flat) = flat {
            match weights {
                Some(w) => hist.add_at(&flat, w)?,
                None => hist.add_at(&flat, &Array::scalar(1.0, &self.device)?)?,
            }
        }
        let dims: Vec<isize> = nbin.iter().map(|&b| b as isize).collect();
        let core: Vec<SliceArg> = (0..d)
            .map(|_| SliceArg::Range {
                start: Some(1),
                stop: Some(-1),
                step: 1,
            })
            .collect();
        let mut hist = hist.reshape(&dims)?.slice(&core)?.to_contiguous()?;
        if density {
            let s = hist.sum()?;
            for (i, e) in edges.iter().enumerate() {
                let widths = e
                    .slice(&[SliceArg::Range {
                        start: Some(1),
                        stop: None,
                        step: 1,
                    }])?
                    .try_sub(&e.slice(&[SliceArg::Range {
                        start: None,
                        stop: Some(-1),
                        step: 1,
                    }])?)?;
                let mut shape = vec![1isize; d];
                shape[i] = widths.size() as isize;
                hist = hist.zip_op(Div, &widths.reshape(&shape)?)?;
            }
            hist = hist.zip_op(Div, &s)?;
        }
        Ok((hist, edges))
    }

    /// NumPy's `np.histogram2d(x, y, bins, range, weights, density)` with `self` as `x`:
    /// [`histogramdd`](Self::histogramdd) of the points `(x[i], y[i])`, returning the
    /// histogram (rows along `x`) and the edges along `x` and along `y`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f32, B>::from_vec(vec![0.0, 1.0, 1.0, 2.0], &[4], dev)?;
    /// let y = Array::<f32, B>::from_vec(vec![0.0, 0.0, 3.0, 3.0], &[4], dev)?;
    /// let (h, xe, ye) = x.histogram2d(&y, [Bins::Count(2), Bins::Count(3)], None, None, false)?;
    /// assert_eq!(h.shape(), &[2, 3]);
    /// assert_eq!(h.to_vec()?, vec![1.0, 0.0, 0.0, 1.0, 0.0, 2.0]);
    /// assert_eq!((xe.size(), ye.to_vec()?), (3, vec![0.0, 1.0, 2.0, 3.0]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn histogram2d(
        &self,
        y: &Self,
        bins: [Bins<'_, f64, B>; 2],
        range: Option<[(f64, f64); 2]>,
        weights: Option<&Array<f64, B>>,
        density: bool,
    ) -> Result<(Array<f64, B>, Array<f64, B>, Array<f64, B>)> {
        const OP: &str = "histogram2d";
        self.check_device(y, OP)?;
        if self.ndim() != 1 || self.shape() != y.shape() {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: self.shape().to_vec(),
                rhs: y.shape().to_vec(),
            });
        }
        let sample = Array::stack(&[self, y], 1)?;
        let (h, mut e) =
            sample.histogramdd(&bins, range.as_ref().map(|r| &r[..]), weights, density)?;
        match (e.pop(), e.pop()) {
            (Some(ye), Some(xe)) => Ok((h, xe, ye)),
            _ => Err(Error::invalid(
                OP,
                "histogramdd gave no edges for two dimensions",
            )),
        }
    }
}
