//! NumPy's window functions as constructors: [`Array::bartlett`], [`Array::blackman`],
//! [`Array::hamming`], [`Array::hanning`] and [`Array::kaiser`]. Each is NumPy's formula
//! evaluated in f64 on the device (a ramp, scalar arithmetic, `cos`, `sqrt`, `i0`) and
//! rounded once to the float type asked for (NumPy always returns float64). A length of 0
//! gives an empty array (NumPy's `M <= 0`), a length of 1 gives `[1.0]`.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Float;
use crate::error::Result;
use crate::ops::{Add, Div, Le, Mul, Sub};
use std::f64::consts::PI;

/// The ramp `1 - m, 3 - m, ..., m - 1` (NumPy's `n = arange(1 - M, M, 2)`) in f64.
fn centred<B: ArrayBackend>(m: usize, dev: &B) -> Result<Array<f64, B>> {
    Array::<f64, B>::ramp(m, 1.0 - m as f64, 2.0, dev)
}

/// `c0 + c1 cos(pi n / (m - 1)) + c2 cos(2 pi n / (m - 1))` over the centred ramp, as NumPy
/// writes the cosine windows (`c2` zero: the term is left out).
fn cosine_sum<T: Float, B: ArrayBackend>(m: usize, c: [f64; 3], dev: &B) -> Result<Array<T, B>> {
    if m == 1 {
        return Array::ones(&[1], dev);
    }
    let n = centred(m, dev)?;
    let den = (m as f64) - 1.0;
    let mut w = n
        .scalar_op(Mul, PI)?
        .scalar_op(Div, den)?
        .cos()?
        .scalar_op(Mul, c[1])?
        .scalar_op_rev(Add, c[0])?;
    if c[2] != 0.0 {
        let t = n
            .scalar_op_rev(Mul, 2.0 * PI)?
            .scalar_op(Div, den)?
            .cos()?
            .scalar_op(Mul, c[2])?;
        w = w.try_add(&t)?;
    }
    w.astype::<T>()
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// The Bartlett (triangular) window of `m` points, 0 at both ends and 1 in the middle
    /// for odd `m` (NumPy's `np.bartlett(M)`: `1 - |n| / (M - 1)` for `n = 1 - M, 3 - M, ...,
    /// M - 1`).
    ///
    /// # Errors
    /// [`Error::TooBig`](crate::Error::TooBig) when `m` points do not fit in memory.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let w = Array::<f64, B>::bartlett(5, dev)?;
    /// assert_eq!(w.to_vec()?, vec![0.0, 0.5, 1.0, 0.5, 0.0]);
    /// assert_eq!(Array::<f32, B>::bartlett(1, dev)?.to_vec()?, vec![1.0]);
    /// assert_eq!(Array::<f32, B>::bartlett(0, dev)?.shape(), &[0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn bartlett(m: usize, dev: &B) -> Result<Self> {
        if m == 1 {
            return Self::ones(&[1], dev);
        }
        let n = centred(m, dev)?;
        let t = n.scalar_op(Div, (m as f64) - 1.0)?;
        let rising = t.scalar_op_rev(Add, 1.0)?;
        let falling = t.scalar_op_rev(Sub, 1.0)?;
        Array::where_(&n.scalar_op(Le, 0.0)?, &rising, &falling)?.astype::<T>()
    }

    /// The Blackman window of `m` points (NumPy's `np.blackman(M)`:
    /// `0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))`, `n = 1 - M, 3 - M, ...`).
    ///
    /// # Errors
    /// As [`bartlett`](Self::bartlett).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let w = Array::<f64, B>::blackman(3, dev)?.to_vec()?;
    /// assert!(w[0].abs() < 1e-16 && (w[1] - 1.0).abs() < 1e-15);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn blackman(m: usize, dev: &B) -> Result<Self> {
        cosine_sum(m, [0.42, 0.5, 0.08], dev)
    }

    /// The Hamming window of `m` points (NumPy's `np.hamming(M)`:
    /// `0.54 + 0.46 cos(pi n / (M - 1))`, `n = 1 - M, 3 - M, ..., M - 1`).
    ///
    /// # Errors
    /// As [`bartlett`](Self::bartlett).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let w = Array::<f64, B>::hamming(3, dev)?.to_vec()?;
    /// assert!((w[0] - 0.08).abs() < 1e-15 && w[1] == 1.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn hamming(m: usize, dev: &B) -> Result<Self> {
        cosine_sum(m, [0.54, 0.46, 0.0], dev)
    }

    /// The Hann window of `m` points (NumPy's `np.hanning(M)`:
    /// `0.5 + 0.5 cos(pi n / (M - 1))`, `n = 1 - M, 3 - M, ..., M - 1`).
    ///
    /// # Errors
    /// As [`bartlett`](Self::bartlett).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let w = Array::<f64, B>::hanning(3, dev)?.to_vec()?;
    /// assert_eq!(w, vec![0.0, 1.0, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn hanning(m: usize, dev: &B) -> Result<Self> {
        cosine_sum(m, [0.5, 0.5, 0.0], dev)
    }

    /// The Kaiser window of `m` points and shape `beta` (NumPy's `np.kaiser(M, beta)`:
    /// `i0(beta sqrt(1 - ((n - alpha) / alpha)^2)) / i0(beta)` for `n = 0, ..., M - 1`,
    /// `alpha = (M - 1) / 2`; [`i0`](Self::i0) is NumPy's). `beta = 0` is the rectangular
    /// window; a NaN `beta` gives NaNs, as NumPy.
    ///
    /// # Errors
    /// As [`bartlett`](Self::bartlett).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let w = Array::<f64, B>::kaiser(3, 5.0, dev)?.to_vec()?;
    /// assert!((w[0] - 0.036710892271286676).abs() < 1e-16 && w[1] == 1.0);
    /// assert_eq!(Array::<f32, B>::kaiser(4, 0.0, dev)?.to_vec()?, vec![1.0; 4]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn kaiser(m: usize, beta: f64, dev: &B) -> Result<Self> {
        if m == 1 {
            return Self::ones(&[1], dev);
        }
        let alpha = ((m as f64) - 1.0) / 2.0;
        let n = Array::<f64, B>::ramp(m, 0.0, 1.0, dev)?;
        let r = n.scalar_op(Sub, alpha)?.scalar_op(Div, alpha)?.square()?;
        let arg = r
            .scalar_op_rev(Sub, 1.0)?
            .sqrt()?
            .scalar_op_rev(Mul, beta)?;
        let den = Array::<f64, B>::from_vec(vec![beta], &[], dev)?.i0()?;
        arg.i0()?.try_div(&den)?.astype::<T>()
    }
}
