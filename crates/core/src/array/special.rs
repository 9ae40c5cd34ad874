//! Compositions around the element-wise special functions: NumPy's two-result ufuncs
//! (`divmod`, `modf`, `frexp`) and `ldexp` (integer exponents), the complex-part predicates
//! (`iscomplex`, `isreal`, `real_if_close`) and scipy.special's shifted reductions
//! (`logsumexp`, `softmax`, `log_softmax`). Each is a few registry ops and reductions, so it runs on every backend;
//! the scalar functions themselves (`erf`, `gamma`, `digamma`, `expit`, `beta`, `gcd`,
//! `spacing`, ...) are declared in the [registry](crate::ops::registry) and get their
//! methods from there.

use super::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{ComplexElement, Element, Float, Integer, Numeric, Real, c128};
use crate::error::{Error, Result};
use crate::ops::{Add, Div, Ldexp, Max, Mul, Sub};

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// NumPy's `divmod`: `(floor_divide(self, other), remainder(self, other))`, broadcast
    /// together (Python's floor division and the remainder with the divisor's sign).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![7, -7], &[2], dev)?;
    /// let b = Array::<i32, B>::from_vec(vec![2], &[1], dev)?;
    /// let (q, r) = a.divmod(&b)?;
    /// assert_eq!((q.to_vec()?, r.to_vec()?), (vec![3, -4], vec![1, 1]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::Broadcast`] for shapes that do not broadcast (named `floor_divide`),
    /// [`Error::DeviceMismatch`] for arrays on two devices.
    pub fn divmod(&self, other: &Self) -> Result<(Self, Self)> {
        Ok((self.floor_divide(other)?, self.remainder(other)?))
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// NumPy's `modf`: `(fractional, integral)` parts, both with the sign of `self`
    /// (`modf(-2.0) == (-0.0, -2.0)`, `modf(inf) == (0.0, inf)`, NaN gives NaN twice).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![-2.5, f64::INFINITY], &[2], dev)?;
    /// let (f, i) = x.modf()?;
    /// assert_eq!((f.to_vec()?, i.to_vec()?), (vec![-0.5, 0.0], vec![-2.0, f64::INFINITY]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn modf(&self) -> Result<(Self, Self)> {
        let int = self.trunc()?;
        let frac = self.zip_op(Sub, &int)?;
        // inf - inf is NaN: an infinite value has no fractional part.
        let frac = Array::where_(&self.isinf()?, &self.zeros_like()?, &frac)?;
        Ok((frac.copysign(self)?, int))
    }

    /// NumPy's `frexp`: `(mantissa, exponent)` with `self = mantissa * 2^exponent`,
    /// `0.5 <= |mantissa| < 1`, the exponent as i32 (zeros, infinities and NaN: the value and
    /// 0), from the registry ops [`frexp_mantissa`](Array::frexp_mantissa) and
    /// [`frexp_exponent`](Array::frexp_exponent).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f32, B>::from_vec(vec![12.0, 0.0], &[2], dev)?;
    /// let (m, e) = x.frexp()?;
    /// assert_eq!((m.to_vec()?, e.to_vec()?), (vec![0.75, 0.0], vec![4, 0]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn frexp(&self) -> Result<(Self, Array<i32, B>)> {
        Ok((self.frexp_mantissa()?, self.frexp_exponent()?))
    }

    /// NumPy's `ldexp`: `self * 2^exponents`, broadcast together, correctly rounded (a
    /// subnormal result rounds once, ties to even), infinite where it overflows; zeros,
    /// infinities and NaN unchanged. Exponents of any integer type, their magnitude
    /// unbounded (beyond `±2200` every finite result is already 0 or infinite). 16-bit
    /// floats compute in f32 and round once, as NumPy's `ldexp` of float16.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![0.75, -1.0, 1.0], &[3], dev)?;
    /// let n = Array::<i64, B>::from_vec(vec![4, 1024, -1074], &[3], dev)?;
    /// assert_eq!(x.ldexp(&n)?.to_vec()?, vec![12.0, f64::NEG_INFINITY, 5e-324]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::Broadcast`] for shapes that do not broadcast, [`Error::DeviceMismatch`] for
    /// arrays on two devices (both named `ldexp`).
    pub fn ldexp<I: Integer>(&self, exponents: &Array<I, B>) -> Result<Self> {
        self.check_device(exponents, "ldexp")?;
        // The exponent travels as an integer-valued float: exact within the range that
        // matters (f32 carries every integer to 2^24), saturated by the op beyond it.
        if T::DTYPE.is_half() {
            let n = exponents.astype::<f32>()?;
            return self.astype::<f32>()?.zip_op(Ldexp, &n)?.astype::<T>();
        }
        self.zip_op(Ldexp, &exponents.astype::<T>()?)
    }

    /// The reduced axes of `axes` for `op`, and whether one of them is empty.
    fn special_lanes(&self, op: &'static str, axes: &Axes) -> Result<(Vec<usize>, bool)> {
        let resolved = axes.resolve(op, self.ndim())?;
        let empty = resolved.iter().any(|&a| self.shape()[a] == 0);
        Ok((resolved, empty))
    }

    /// The maxima over `axes` (kept as size-1 axes), 0 where a maximum is not finite: the
    /// shift of scipy's `logsumexp` and `log_softmax`.
    fn finite_max_shift(&self, op: &'static str, axes: &Axes) -> Result<Self> {
        let m = self.reduce_no_identity_as(op, Max, axes.clone(), true)?;
        Array::where_(&m.isfinite()?, &m, &m.zeros_like()?)
    }

    /// scipy's `logsumexp`: `ln(sum(exp(self)))` over `axes` without overflow, shifted by the
    /// lanes' maxima (0 where a maximum is infinite or NaN): a lane holding `inf` gives `inf`,
    /// a lane of `-inf` (or an empty lane) gives `-inf`, a NaN gives NaN.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![1000.0, 1000.0, f64::NEG_INFINITY, 0.0], &[2, 2], dev)?;
    /// let r = x.logsumexp(1, false)?.to_vec()?;
    /// assert_eq!(r, vec![1000.0 + std::f64::consts::LN_2, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] (or a repeated axis) naming `logsumexp`.
    pub fn logsumexp(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Self> {
        const OP: &str = "logsumexp";
        let axes = axes.into();
        let (resolved, empty) = self.special_lanes(OP, &axes)?;
        let out = if empty {
            // The sum of no terms is 0: ln 0 = -inf.
            self.sum_axes(axes, true)?.log()?
        } else {
            let shift = self.finite_max_shift(OP, &axes)?;
            let s = self.zip_op(Sub, &shift)?.exp()?.sum_axes(axes, true)?;
            s.log()?.zip_op(Add, &shift)?
        };
        if keepdims {
            Ok(out)
        } else {
            out.squeeze(resolved)
        }
    }

    /// scipy's `logsumexp(self, axis, b=b)`: `ln(sum(b * exp(self)))` over `axes`, `b`
    /// broadcast with `self` (the result has their broadcast shape, reduced), shifted by the
    /// lanes' maxima as [`logsumexp`](Self::logsumexp). Terms whose weight is 0 drop out
    /// whatever `self` holds there (scipy masks them); a negative sum gives NaN, a zero sum
    /// `-inf`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.0, f64::NAN], &[3], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![2.0, 0.5, 0.0], &[3], dev)?;
    /// let r = x.logsumexp_b(0, false, &b)?.item()?;
    /// assert!((r - (2.0 + 0.5 * 1f64.exp()).ln()).abs() < 1e-15);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// Shapes that do not broadcast, [`Error::AxisOutOfRange`] (or a repeated axis), naming
    /// `logsumexp`.
    pub fn logsumexp_b(&self, axes: impl Into<Axes>, keepdims: bool, b: &Self) -> Result<Self> {
        const OP: &str = "logsumexp";
        let axes = axes.into();
        self.check_device(b, OP)?;
        let shape = crate::layout::broadcast_shapes(OP, self.shape(), b.shape())?;
        let b = b.broadcast_to(&shape)?;
        let ninf = Array::full(&[], T::neg_infinity(), self.device())?;
        let a = Array::where_(&b.ne(&b.zeros_like()?)?, &self.broadcast_to(&shape)?, &ninf)?;
        let (resolved, empty) = a.special_lanes(OP, &axes)?;
        let out = if empty {
            a.sum_axes(axes, true)?.log()?
        } else {
            let shift = a.finite_max_shift(OP, &axes)?;
            let s = a
                .zip_op(Sub, &shift)?
                .exp()?
                .zip_op(Mul, &b)?
                .sum_axes(axes, true)?;
            s.log()?.zip_op(Add, &shift)?
        };
        if keepdims {
            Ok(out)
        } else {
            out.squeeze(resolved)
        }
    }

    /// scipy's `softmax` over `axes`: `exp(self - max) / sum(exp(self - max))` (a lane
    /// holding `inf` or NaN is NaN, as scipy's); an empty array gives an empty array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![0.0, 0.0, 1000.0, f64::NEG_INFINITY], &[2, 2], dev)?;
    /// assert_eq!(x.softmax(1)?.to_vec()?, vec![0.5, 0.5, 1.0, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] (or a repeated axis) naming `softmax`.
    pub fn softmax(&self, axes: impl Into<Axes>) -> Result<Self> {
        const OP: &str = "softmax";
        let axes = axes.into();
        let (_, empty) = self.special_lanes(OP, &axes)?;
        if empty {
            return self.zeros_like();
        }
        let m = self.reduce_no_identity_as(OP, Max, axes.clone(), true)?;
        let e = self.zip_op(Sub, &m)?.exp()?;
        let s = e.sum_axes(axes, true)?;
        e.zip_op(Div, &s)
    }

    /// scipy's `log_softmax` over `axes`: `(self - m) - ln(sum(exp(self - m)))` with `m` the
    /// lanes' maxima (0 where not finite), accurate where `softmax` underflows; an empty array
    /// gives an empty array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![0.0, 0.0, 1000.0, 0.0], &[2, 2], dev)?;
    /// let ln2 = std::f64::consts::LN_2;
    /// assert_eq!(x.log_softmax(1)?.to_vec()?, vec![-ln2, -ln2, 0.0, -1000.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] (or a repeated axis) naming `log_softmax`.
    pub fn log_softmax(&self, axes: impl Into<Axes>) -> Result<Self> {
        const OP: &str = "log_softmax";
        let axes = axes.into();
        let (_, empty) = self.special_lanes(OP, &axes)?;
        if empty {
            return self.zeros_like();
        }
        let shift = self.finite_max_shift(OP, &axes)?;
        let t = self.zip_op(Sub, &shift)?;
        let s = t.exp()?.sum_axes(axes, true)?.log()?;
        t.zip_op(Sub, &s)
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The imaginary parts of a complex array as c128 (exact for c64); `None` for other
    /// types, whose imaginary part is zero.
    fn imag_c128(&self) -> Result<Option<Array<f64, B>>> {
        if T::DTYPE.is_complex() {
            Ok(Some(self.astype::<c128>()?.imag()?))
        } else {
            Ok(None)
        }
    }

    /// NumPy's `iscomplex`: true where the imaginary part is nonzero (always false for
    /// non-complex types).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let z = Array::<c64, B>::from_vec(vec![c64::new(1.0, 0.0), c64::new(0.0, -2.0)], &[2], dev)?;
    /// assert_eq!(z.iscomplex()?.to_vec()?, vec![false, true]);
    /// assert_eq!(z.isreal()?.to_vec()?, vec![true, false]);
    /// let x = Array::<i32, B>::from_vec(vec![3], &[1], dev)?;
    /// assert_eq!(x.iscomplex()?.to_vec()?, vec![false]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn iscomplex(&self) -> Result<Array<bool, B>> {
        match self.imag_c128()? {
            Some(im) => im.ne_scalar(0.0),
            None => Array::full(self.shape(), false, self.device()),
        }
    }

    /// NumPy's `isreal`: true where the imaginary part is zero (always true for non-complex
    /// types; a NaN imaginary part is not zero).
    pub fn isreal(&self) -> Result<Array<bool, B>> {
        match self.imag_c128()? {
            Some(im) => im.eq_scalar(0.0),
            None => Array::full(self.shape(), true, self.device()),
        }
    }
}

impl<T: ComplexElement, B: ArrayBackend> Array<T, B> {
    /// NumPy's `real_if_close`: the real parts when every imaginary part is within `tol` of
    /// zero, else `None` (NumPy returns the complex input unchanged). A `tol` above 1 counts
    /// machine epsilons of the real type (NumPy's default is 100), else it is absolute.
    /// Deciding needs the answer on the host: this method synchronises (an `item()`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let z = Array::<c128, B>::from_vec(vec![c128::new(2.0, 1e-20)], &[1], dev)?;
    /// assert_eq!(z.real_if_close(100.0)?.map(|r| r.to_vec()).transpose()?, Some(vec![2.0]));
    /// let w = Array::<c128, B>::from_vec(vec![c128::new(2.0, 1e-3)], &[1], dev)?;
    /// assert!(w.real_if_close(100.0)?.is_none());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a negative or NaN `tol`.
    pub fn real_if_close(&self, tol: f64) -> Result<Option<Array<T::RealPart, B>>> {
        if tol.is_nan() || tol < 0.0 {
            return Err(Error::invalid(
                "real_if_close",
                format!(
                    "tol must be a non-negative number, got {tol} (dtype {})",
                    T::DTYPE
                ),
            ));
        }
        let eps = <T::RealPart as num_traits::Float>::epsilon().to_f64_lossy();
        let limit = if tol > 1.0 { tol * eps } else { tol };
        let im = self.imag()?.abs()?;
        let close = im.lt_scalar(T::RealPart::from_f64(limit))?.all()?.item()?;
        if close {
            Ok(Some(self.real()?))
        } else {
            Ok(None)
        }
    }
}
