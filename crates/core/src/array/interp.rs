//! One-dimensional piecewise-linear interpolation, NumPy's `np.interp`: [`Array::interp`]
//! with its options [`Interp`] (`left`, `right`, `period`). It is composed from
//! [`searchsorted`](Array::searchsorted), [`take`](Array::take), [`where_`](Array::where_)
//! and element-wise arithmetic, so it runs on every backend with their kernels and nothing
//! leaves the device.

use super::sets::range1 as part;
use super::{Array, Side};
use crate::backend::ArrayBackend;
use crate::dtype::{Float, Inexact};
use crate::error::{Error, Result};
use crate::ops::{Add, Div, Eq as Equal, Rem, Sub};

/// The options of [`Array::interp`], NumPy's keyword arguments of `np.interp`:
/// `Interp::default()` is NumPy's defaults.
///
/// ```
/// use cuprite_core::Interp;
/// let o = Interp::<f64> { left: Some(-1.0), ..Interp::default() };
/// assert_eq!((o.left, o.right, o.period), (Some(-1.0), None, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interp<U: Inexact> {
    /// The value for `x < xp[0]` (default `fp[0]`); ignored with a `period`.
    pub left: Option<U>,
    /// The value for `x > xp[-1]` (default `fp[-1]`); ignored with a `period`.
    pub right: Option<U>,
    /// The period of the x-coordinates: `x` and `xp` are taken modulo `|period|`, `xp` is
    /// sorted (it need not increase) and extended by one point at each end, as NumPy does.
    pub period: Option<U::RealPart>,
}

impl<U: Inexact> Default for Interp<U> {
    fn default() -> Self {
        Interp {
            left: None,
            right: None,
            period: None,
        }
    }
}

/// A value given by the caller as a 0-d array, else element `i` of the 1-d `fp` as a 0-d view.
fn edge<U: Inexact, B: ArrayBackend>(
    given: Option<U>,
    fp: &Array<U, B>,
    i: isize,
) -> Result<Array<U, B>> {
    match given {
        Some(v) => Array::from_vec(vec![v], &[], fp.device()),
        None => part(fp, Some(i), if i == -1 { None } else { Some(i + 1) })?.reshape(&[]),
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// The piecewise-linear interpolant of the points `(xp, fp)` at `self` (NumPy's
    /// `np.interp(x, xp, fp, left, right, period)`): `x` of any shape and layout, `xp` 1-d
    /// and increasing (not checked, as NumPy), `fp` 1-d of its length, real or complex with
    /// `x`'s precision. The result has `x`'s shape and `fp`'s type (NumPy computes in
    /// float64/complex128; cuprite keeps the precision of the inputs). A NaN in `x` gives
    /// NaN; `x` equal to a sample point gives its value exactly (one sample point: `fp[0]` for
    /// every `x` that is neither below nor above it, NaN included, as NumPy); where the line through two
    /// points is NaN (infinite values) the other end is tried, as NumPy does. Below `xp[0]`
    /// the value is `opts.left` (default `fp[0]`), above `xp[-1]` `opts.right` (default
    /// `fp[-1]`). With `opts.period`, see [`Interp::period`].
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `interp` when `xp` or `fp` is not 1-d, their lengths
    /// differ, `xp` is empty or the period is 0; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let xp = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// let fp = Array::<f64, B>::from_vec(vec![3.0, 2.0, 0.0], &[3], dev)?;
    /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.5, 2.72, 3.14], &[2, 2], dev)?;
    /// let y = x.interp(&xp, &fp, Interp::default())?;
    /// assert_eq!(y.shape(), &[2, 2]);
    /// let y = y.to_vec()?;
    /// assert_eq!((y[0], y[1], y[3]), (3.0, 2.5, 0.0));
    /// assert!((y[2] - 0.56).abs() < 1e-15);
    /// let o = Interp { right: Some(-99.0), ..Interp::default() };
    /// assert_eq!(x.interp(&xp, &fp, o)?.to_vec()?[3], -99.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn interp<U: Inexact<RealPart = T>>(
        &self,
        xp: &Self,
        fp: &Array<U, B>,
        opts: Interp<U>,
    ) -> Result<Array<U, B>> {
        const OP: &str = "interp";
        self.check_device(xp, OP)?;
        self.check_device(fp, OP)?;
        if xp.ndim() != 1 || fp.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "xp and fp must be 1-d, got shapes {:?} and {:?}",
                    xp.shape(),
                    fp.shape()
                ),
            ));
        }
        let n = xp.shape()[0];
        if n != fp.shape()[0] {
            return Err(Error::invalid(
                OP,
                format!(
                    "fp and xp are not of the same length: {} vs {}",
                    fp.shape()[0],
                    n
                ),
            ));
        }
        if n == 0 {
            return Err(Error::invalid(OP, "array of sample points is empty"));
        }
        match opts.period {
            None => self.interp_sorted(xp, fp, opts.left, opts.right),
            Some(p) => {
                if p == T::from_f64(0.0) {
                    return Err(Error::invalid(OP, "period must be a non-zero value"));
                }
                let p = num_traits::Float::abs(p);
                let x = self.scalar_op(Rem, p)?;
                let xp = xp.scalar_op(Rem, p)?;
                let order = xp.argsort(0)?;
                let (xp, fp) = (xp.take(&order, None)?, fp.take(&order, None)?);
                let xp = Self::concatenate(
                    &[
                        &part(&xp, Some(-1), None)?.scalar_op(Sub, p)?,
                        &xp,
                        &part(&xp, None, Some(1))?.scalar_op(Add, p)?,
                    ],
                    0,
                )?;
                let fp = Array::concatenate(
                    &[&part(&fp, Some(-1), None)?, &fp, &part(&fp, None, Some(1))?],
                    0,
                )?;
                x.interp_sorted(&xp, &fp, None, None)
            }
        }
    }

    /// [`interp`](Self::interp) on checked, non-empty 1-d `xp` and `fp` of one length.
    fn interp_sorted<U: Inexact<RealPart = T>>(
        &self,
        xp: &Self,
        fp: &Array<U, B>,
        left: Option<U>,
        right: Option<U>,
    ) -> Result<Array<U, B>> {
        let n = xp.shape()[0] as i64;
        if n == 1 {
            // NumPy's own path for one point: fp[0] unless x is below or above it (NaN
            // included: it is neither).
            let (x0, f0) = (xp.reshape(&[])?, fp.reshape(&[])?);
            let above = Array::where_(&self.gt(&x0)?, &edge(right, fp, -1)?, &f0)?;
            return Array::where_(&self.lt(&x0)?, &edge(left, fp, 0)?, &above);
        }
        // idx: the number of sample points <= x (NaN counts as above every point).
        let idx = xp.searchsorted(self, Side::Right)?;
        // The segment [j, j + 1] holding x (clamped to the first and the last).
        let j = idx.scalar_op(Sub, 1)?.clip(0, n - 2)?;
        let jr = j.scalar_op(Add, 1)?;
        let (xl, xr) = (xp.take(&j, None)?, xp.take(&jr, None)?);
        let (fl, fr) = (fp.take(&j, None)?, fp.take(&jr, None)?);
        let slope = fr
            .try_sub(&fl)?
            .zip_op(Div, &xr.try_sub(&xl)?.astype::<U>()?)?;
        let from_left = slope
            .try_mul(&self.try_sub(&xl)?.astype::<U>()?)?
            .try_add(&fl)?;
        // A NaN line (an infinite value): from the right end, then the flat value.
        let from_right = slope
            .try_mul(&self.try_sub(&xr)?.astype::<U>()?)?
            .try_add(&fr)?;
        let mut y = Array::where_(&from_left.isnan()?, &from_right, &from_left)?;
        let flat = y.isnan()?.logical_and(&fl.eq(&fr)?)?;
        y = Array::where_(&flat, &fl, &y)?;
        y = Array::where_(&self.eq(&xl)?, &fl, &y)?;
        // At or beyond the last point (or NaN): fp[-1] at the point itself, else `right`.
        let at_end = Array::where_(&self.eq(&xr)?, &fr, &edge(right, fp, -1)?)?;
        y = Array::where_(&idx.scalar_op(Equal, n)?, &at_end, &y)?;
        y = Array::where_(&idx.scalar_op(Equal, 0)?, &edge(left, fp, 0)?, &y)?;
        Array::where_(&self.isnan()?, &self.astype::<U>()?, &y)
    }
}
