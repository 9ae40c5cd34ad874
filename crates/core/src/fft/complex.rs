//! Complex transforms: [`fft`], [`ifft`] along one axis and [`fft2`], [`ifft2`], [`fftn`],
//! [`ifftn`] over several (NumPy's `np.fft.fft` and friends).

use super::axis::{c2c, check_n, cook_nd, one_axis};
use super::{FftComplex, FftInput, Norm};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::error::Result;

type Out<T, B> = Array<<T as FftInput>::Complex, B>;
type RealOf<T> = <<T as FftInput>::Complex as FftComplex>::RealFloat;

/// One-dimensional transform of length `n` along `axis`.
fn one<T: FftInput, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
    inverse: bool,
) -> Result<Out<T, B>> {
    let ax = one_axis(op, axis, a.ndim())?;
    let n = check_n(op, n, a.shape()[ax])?;
    c2c::<RealOf<T>, B>(&T::to_complex(a)?, ax, n, inverse, norm)
}

/// Transform over several axes, the last listed first (NumPy's `_raw_fftnd`).
fn many<T: FftInput, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
    inverse: bool,
) -> Result<Out<T, B>> {
    let (lens, axes) = cook_nd(op, a.shape(), s, axes, false)?;
    let mut x = T::to_complex(a)?;
    for (&n, &ax) in lens.iter().zip(&axes).rev() {
        x = c2c::<RealOf<T>, B>(&x, ax, n, inverse, norm)?;
    }
    if axes.is_empty() {
        x = x.to_contiguous()?;
    }
    Ok(x)
}

/// The discrete Fourier transform of length `n` (default: the axis length; shorter input is
/// zero-padded, longer truncated) along `axis` (NumPy `np.fft.fft(a, n, axis, norm)`).
/// Real input is transformed as complex of the same precision.
///
/// # Errors
/// [`Error::AxisOutOfRange`](crate::Error::AxisOutOfRange) for a bad axis (always for a 0-d
/// array); [`Error::InvalidArgument`](crate::Error::InvalidArgument) when the length is 0
/// ("Invalid number of FFT data points (0) specified").
///
/// ```
/// use cuprite_core::fft::{fft, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::from_vec(vec![1.0, 0.0, -1.0, 0.0], &[4], dev)?;
/// let f = fft(&x, None, -1, Norm::Backward)?.to_vec()?;
/// assert!((f[1] - c128::new(2.0, 0.0)).norm() < 1e-12 && f[0].norm() < 1e-12);
/// assert_eq!(fft(&x, Some(8), 0, Norm::Backward)?.shape(), &[8]);
/// assert!(fft(&x, Some(0), 0, Norm::Backward).is_err());
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn fft<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Out<T, B>> {
    one("fft", a, n, axis, norm, false)
}

/// The inverse of [`fft`] (NumPy `np.fft.ifft(a, n, axis, norm)`): `ifft(fft(a)) == a`.
///
/// # Errors
/// As [`fft`].
///
/// ```
/// use cuprite_core::fft::{fft, ifft, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<c64, B>::from_vec(vec![c64::new(1.0, 2.0), c64::new(-3.0, 0.5)], &[2], dev)?;
/// let y = ifft(&fft(&x, None, 0, Norm::Ortho)?, None, 0, Norm::Ortho)?;
/// assert!(y.allclose(&x, 1e-6, 1e-6, false)?.item()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn ifft<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Out<T, B>> {
    one("ifft", a, n, axis, norm, true)
}

/// The n-dimensional transform over `axes` (default: the last `s.len()` axes, or all) with
/// lengths `s` (default: the input's; -1 keeps the input's length along that axis), NumPy
/// `np.fft.fftn(a, s, axes, norm)`. A repeated axis is transformed again, as in NumPy; no
/// axes at all gives the input as complex numbers.
///
/// # Errors
/// [`Error::AxisOutOfRange`](crate::Error::AxisOutOfRange) for a bad axis;
/// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when `s` and `axes` differ in
/// length, or a length is below 1.
///
/// ```
/// use cuprite_core::fft::{fftn, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::ones(&[2, 3, 4], dev)?;
/// let f = fftn(&x, None, None, Norm::Backward)?;
/// assert_eq!(f.to_vec()?[0], c128::new(24.0, 0.0));
/// assert_eq!(fftn(&x, Some(&[5, -1]), Some(&[0, 2]), Norm::Backward)?.shape(), &[5, 3, 4]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn fftn<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Out<T, B>> {
    many("fftn", a, s, axes, norm, false)
}

/// The inverse of [`fftn`] (NumPy `np.fft.ifftn(a, s, axes, norm)`).
///
/// # Errors
/// As [`fftn`].
pub fn ifftn<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Out<T, B>> {
    many("ifftn", a, s, axes, norm, true)
}

/// The two-dimensional transform: [`fftn`] over `axes` (default `[-2, -1]`), NumPy
/// `np.fft.fft2(a, s, axes, norm)`.
///
/// # Errors
/// As [`fftn`] (a 1-d or 0-d input has no axis -2).
///
/// ```
/// use cuprite_core::fft::{fft2, ifft2, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f32, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], dev)?;
/// let f = fft2(&x, None, None, Norm::Backward)?;
/// assert_eq!(f.to_vec()?[0], c64::new(21.0, 0.0));
/// let back = ifft2(&f, None, None, Norm::Backward)?.real()?;
/// assert!(back.allclose(&x, 1e-5, 1e-5, false)?.item()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn fft2<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Out<T, B>> {
    many("fft2", a, s, Some(axes.unwrap_or(&[-2, -1])), norm, false)
}

/// The inverse of [`fft2`] (NumPy `np.fft.ifft2(a, s, axes, norm)`).
///
/// # Errors
/// As [`fftn`].
pub fn ifft2<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Out<T, B>> {
    many("ifft2", a, s, Some(axes.unwrap_or(&[-2, -1])), norm, true)
}
