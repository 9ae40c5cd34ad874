//! More element-wise functions on arrays, with NumPy's names and formulas: `logaddexp`,
//! `logaddexp2`, `signbit`, `deg2rad`/`radians`, `rad2deg`/`degrees`, `heaviside` and
//! `nextafter`.
//!
//! **Types.** As for [`Array::sqrt`], the float functions are bounded by [`Float`] (f32,
//! f64): cast integers with `astype::<f64>()` first, as NumPy does implicitly. `signbit`
//! takes every [`Real`] type (integers: `x < 0`) and returns bool.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Float, Real};
use crate::error::Result;
use crate::ops::{Deg2Rad, Heaviside, LogAddExp, LogAddExp2, NextAfter, Rad2Deg, Signbit};

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// `log(exp(self) + exp(other))`, broadcast, computed without overflow as NumPy's
    /// `logaddexp` (`max + log1p(exp(-|self - other|))`): `logaddexp(-inf, -inf) == -inf`,
    /// `logaddexp(inf, inf) == inf`, a NaN propagates.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1000.0, f64::NEG_INFINITY, 0.0], &[3], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![1000.0, f64::NEG_INFINITY, 0.0], &[3], dev)?;
    /// let r = a.logaddexp(&b)?.to_vec()?;
    /// assert_eq!(r, vec![1000.0 + std::f64::consts::LN_2, f64::NEG_INFINITY, std::f64::consts::LN_2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn logaddexp(&self, other: &Self) -> Result<Self> {
        self.zip_op(LogAddExp, other)
    }

    /// `log2(2^self + 2^other)`, broadcast, without overflow (NumPy's `logaddexp2`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::from_vec(vec![3.0, 10.0], &[2], dev)?;
    /// let b = Array::<f32, B>::from_vec(vec![3.0, f32::NEG_INFINITY], &[2], dev)?;
    /// assert_eq!(a.logaddexp2(&b)?.to_vec()?, vec![4.0, 10.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn logaddexp2(&self, other: &Self) -> Result<Self> {
        self.zip_op(LogAddExp2, other)
    }

    /// Degrees to radians, `x * (pi / 180)` with NumPy's rounding of the constant.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![180.0, -90.0], &[2], dev)?;
    /// let pi = std::f64::consts::PI;
    /// assert_eq!(a.deg2rad()?.to_vec()?, vec![pi, -pi / 2.0]);
    /// assert_eq!(a.deg2rad()?.rad2deg()?.to_vec()?, vec![180.0, -90.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn deg2rad(&self) -> Result<Self> {
        self.map_op(Deg2Rad)
    }
    /// Alias of [`Array::deg2rad`] (NumPy's `radians`).
    pub fn radians(&self) -> Result<Self> {
        self.deg2rad()
    }
    /// Radians to degrees, `x * (180 / pi)` with NumPy's rounding of the constant.
    pub fn rad2deg(&self) -> Result<Self> {
        self.map_op(Rad2Deg)
    }
    /// Alias of [`Array::rad2deg`] (NumPy's `degrees`).
    pub fn degrees(&self) -> Result<Self> {
        self.rad2deg()
    }

    /// The Heaviside step function `heaviside(self, h0)`, broadcast: 0 where `self < 0`,
    /// `h0` where `self` is zero (either sign), 1 where `self > 0`, NaN where `self` is NaN.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![-1.5, 0.0, 2.0], &[3], dev)?;
    /// let h0 = Array::<f64, B>::full(&[], 0.5, dev)?;
    /// assert_eq!(x.heaviside(&h0)?.to_vec()?, vec![0.0, 0.5, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn heaviside(&self, h0: &Self) -> Result<Self> {
        self.zip_op(Heaviside, h0)
    }

    /// The next representable value after each element toward `other`, broadcast (C's
    /// `nextafter`, bit-exact): `other` where equal, the smallest subnormal of the right sign
    /// from either zero, NaN where either is NaN.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 0.0], &[2], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![2.0, -1.0], &[2], dev)?;
    /// let r = a.nextafter(&b)?.to_vec()?;
    /// assert_eq!(r[0], 1.0 + f64::EPSILON);
    /// assert_eq!(r[1].to_bits(), (-f64::from_bits(1)).to_bits());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nextafter(&self, other: &Self) -> Result<Self> {
        self.zip_op(NextAfter, other)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// True where the sign bit is set, as NumPy's `signbit`: floats `-0.0`, negative values,
    /// `-inf` and NaNs carrying the sign bit; integers `x < 0`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![-0.0, 0.0, -2.0, -f64::NAN], &[4], dev)?;
    /// assert_eq!(a.signbit()?.to_vec()?, vec![true, false, true, true]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn signbit(&self) -> Result<crate::array::Array<bool, B>> {
        self.map_op(Signbit)
    }
}
