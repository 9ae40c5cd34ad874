//! Transforms of real signals: [`rfft`]/[`irfft`] (real input, half spectrum out, and back),
//! [`hfft`]/[`ihfft`] (a Hermitian-symmetric signal's real spectrum, and back) and the
//! multi-axis [`rfft2`]/[`irfft2`]/[`rfftn`]/[`irfftn`] (NumPy's `np.fft.rfft` and friends).

use super::axis::{c2c, c2r, check_n, cook_nd, one_axis, r2c};
use super::{FftComplex, FftInput, Norm};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Float;
use crate::error::{Error, Result};

type RealOf<T> = <<T as FftInput>::Complex as FftComplex>::RealFloat;

/// The transform of real input along `axis` with length `n` (default: the axis length),
/// keeping the `n / 2 + 1` non-negative frequencies (NumPy `np.fft.rfft(a, n, axis, norm)`).
///
/// # Errors
/// [`Error::AxisOutOfRange`] for a bad axis (always for 0-d input);
/// [`Error::InvalidArgument`] when the length is 0.
///
/// ```
/// use cuprite_core::fft::{irfft, rfft, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0], &[5], dev)?;
/// let f = rfft(&x, None, -1, Norm::Backward)?;
/// assert_eq!(f.shape(), &[3]);
/// assert_eq!(f.to_vec()?[0], c128::new(15.0, 0.0));
/// let back = irfft(&f, Some(5), -1, Norm::Backward)?;
/// assert!(back.allclose(&x, 1e-12, 1e-12, false)?.item()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn rfft<F: Float, B: ArrayBackend>(
    a: &Array<F, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    const OP: &str = "rfft";
    no_half::<F>(OP)?;
    let ax = one_axis(OP, axis, a.ndim())?;
    let n = check_n(OP, n, a.shape()[ax])?;
    r2c(a, ax, n, norm)
}

/// The inverse of [`rfft`]: `n` real points (default `2 * (m - 1)` for `m` input
/// frequencies) along `axis` from a half spectrum, padded with zeros or truncated to
/// `n / 2 + 1` frequencies (NumPy `np.fft.irfft(a, n, axis, norm)`). The imaginary parts of
/// frequency 0 and, for even `n`, of frequency `n / 2` are ignored. Pass the original length
/// for odd signals: `irfft(rfft(x), Some(x_len))`.
///
/// # Errors
/// As [`rfft`]; also when the default length is 0 (a single input frequency).
pub fn irfft<C: FftComplex, B: ArrayBackend>(
    a: &Array<C, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array<C::RealFloat, B>> {
    const OP: &str = "irfft";
    let ax = one_axis(OP, axis, a.ndim())?;
    let m = a.shape()[ax];
    let n = check_n(OP, n, 2 * m.saturating_sub(1))?;
    c2r::<C::RealFloat, B>(a, ax, n, norm)
}

/// The real spectrum of a signal with Hermitian symmetry given by its first half
/// (NumPy `np.fft.hfft(a, n, axis, norm)`): `irfft(conj(a))` with the normalisation of a
/// forward transform. `n` defaults to `2 * (m - 1)`; real input counts as complex.
///
/// # Errors
/// As [`irfft`].
///
/// ```
/// use cuprite_core::fft::{hfft, ihfft, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], dev)?;
/// let h = ihfft(&x, None, -1, Norm::Backward)?;
/// let back = hfft(&h, Some(4), -1, Norm::Backward)?;
/// assert!(back.allclose(&x, 1e-12, 1e-12, false)?.item()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn hfft<T: FftInput, B: ArrayBackend>(
    a: &Array<T, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array<RealOf<T>, B>> {
    const OP: &str = "hfft";
    let ax = one_axis(OP, axis, a.ndim())?;
    let m = a.shape()[ax];
    let n = check_n(OP, n, 2 * m.saturating_sub(1))?;
    let conj = T::to_complex(a)?.conj()?;
    c2r::<RealOf<T>, B>(&conj, ax, n, norm.swap())
}

/// The inverse of [`hfft`] (NumPy `np.fft.ihfft(a, n, axis, norm)`): `conj(rfft(a))` with
/// the normalisation of an inverse transform; `n / 2 + 1` outputs.
///
/// # Errors
/// As [`rfft`].
pub fn ihfft<F: Float, B: ArrayBackend>(
    a: &Array<F, B>,
    n: Option<usize>,
    axis: isize,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    const OP: &str = "ihfft";
    no_half::<F>(OP)?;
    let ax = one_axis(OP, axis, a.ndim())?;
    let n = check_n(OP, n, a.shape()[ax])?;
    r2c(a, ax, n, norm.swap())?.conj()
}

/// An error naming `op` for the 16-bit floats, which the FFT libraries do not transform
/// (NumPy's FFT has no float16 either): cast to f32 first.
fn no_half<F: Float>(op: &'static str) -> Result<()> {
    if F::DTYPE.is_half() {
        return Err(Error::UnsupportedDType {
            op,
            dtype: F::DTYPE,
        });
    }
    Ok(())
}

fn no_axes(op: &'static str) -> Error {
    Error::invalid(op, "a real transform needs at least one axis")
}

fn rfft_many<F: Float, B: ArrayBackend>(
    op: &'static str,
    a: &Array<F, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    no_half::<F>(op)?;
    let (lens, axes) = cook_nd(op, a.shape(), s, axes, false)?;
    let k = axes.len().checked_sub(1).ok_or_else(|| no_axes(op))?;
    let mut x = r2c(a, axes[k], lens[k], norm)?;
    for i in (0..k).rev() {
        x = c2c::<F, B>(&x, axes[i], lens[i], false, norm)?;
    }
    Ok(x)
}

fn irfft_many<C: FftComplex, B: ArrayBackend>(
    op: &'static str,
    a: &Array<C, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<C::RealFloat, B>> {
    let (lens, axes) = cook_nd(op, a.shape(), s, axes, true)?;
    let k = axes.len().checked_sub(1).ok_or_else(|| no_axes(op))?;
    let mut x = a.clone();
    for i in 0..k {
        x = c2c::<C::RealFloat, B>(&x, axes[i], lens[i], true, norm)?;
    }
    c2r::<C::RealFloat, B>(&x, axes[k], lens[k], norm)
}

/// The n-dimensional transform of real input (NumPy `np.fft.rfftn(a, s, axes, norm)`):
/// [`rfft`] along the last of `axes`, then complex transforms along the others. Axes and
/// lengths default as in [`fftn`](super::fftn).
///
/// # Errors
/// As [`fftn`](super::fftn); also when there is no axis to transform.
///
/// ```
/// use cuprite_core::fft::{irfftn, rfftn, Norm};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let x = Array::<f64, B>::ramp(24, 0.0, 1.0, dev)?.reshape(&[2, 3, 4])?;
/// let f = rfftn(&x, None, None, Norm::Backward)?;
/// assert_eq!(f.shape(), &[2, 3, 3]);
/// let back = irfftn(&f, Some(&[2, 3, 4]), None, Norm::Backward)?;
/// assert!(back.allclose(&x, 1e-12, 1e-12, false)?.item()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn rfftn<F: Float, B: ArrayBackend>(
    a: &Array<F, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    rfft_many("rfftn", a, s, axes, norm)
}

/// The inverse of [`rfftn`] (NumPy `np.fft.irfftn(a, s, axes, norm)`): inverse complex
/// transforms along all but the last of `axes`, then [`irfft`] along the last (default
/// length `2 * (m - 1)`). Give `s` to recover odd lengths.
///
/// # Errors
/// As [`rfftn`].
pub fn irfftn<C: FftComplex, B: ArrayBackend>(
    a: &Array<C, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<C::RealFloat, B>> {
    irfft_many("irfftn", a, s, axes, norm)
}

/// [`rfftn`] over `axes` (default `[-2, -1]`), NumPy `np.fft.rfft2(a, s, axes, norm)`.
///
/// # Errors
/// As [`rfftn`].
pub fn rfft2<F: Float, B: ArrayBackend>(
    a: &Array<F, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    rfft_many("rfft2", a, s, Some(axes.unwrap_or(&[-2, -1])), norm)
}

/// [`irfftn`] over `axes` (default `[-2, -1]`), NumPy `np.fft.irfft2(a, s, axes, norm)`.
///
/// # Errors
/// As [`rfftn`].
pub fn irfft2<C: FftComplex, B: ArrayBackend>(
    a: &Array<C, B>,
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    norm: Norm,
) -> Result<Array<C::RealFloat, B>> {
    irfft_many("irfft2", a, s, Some(axes.unwrap_or(&[-2, -1])), norm)
}
