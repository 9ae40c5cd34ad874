//! Sample frequencies ([`fftfreq`], [`rfftfreq`]) and moving the zero frequency to the
//! centre and back ([`fftshift`], [`ifftshift`]), NumPy's `np.fft` helpers.

use crate::array::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// `k / (n * d)` for each `k` in `ks`, computed as NumPy does (`k * (1 / (n * d))` in f64).
fn freqs<F: Float, B: ArrayBackend>(
    op: &'static str,
    n: usize,
    d: F,
    ks: impl Iterator<Item = i64>,
    dev: &B,
) -> Result<Array<F, B>> {
    if n == 0 {
        return Err(Error::invalid(op, "n must be at least 1 (got 0)"));
    }
    let val = 1.0 / (n as f64 * d.to_f64_lossy());
    let data: Vec<F> = ks.map(|k| F::from_f64(k as f64 * val)).collect();
    let len = data.len();
    Array::from_vec(data, &[len], dev)
}

/// The frequencies of the `n` outputs of [`fft`](super::fft) for samples spaced `d` apart:
/// `[0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d * n)` (NumPy `np.fft.fftfreq(n, d)`).
///
/// # Errors
/// [`Error::InvalidArgument`] when `n` is 0.
///
/// ```
/// use cuprite_core::fft::fftfreq;
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let f = fftfreq::<f64, B>(5, 0.1, dev)?;
/// assert_eq!(f.to_vec()?, vec![0.0, 2.0, 4.0, -4.0, -2.0]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn fftfreq<F: Float, B: ArrayBackend>(n: usize, d: F, dev: &B) -> Result<Array<F, B>> {
    let pos = (n as i64 - 1) / 2 + 1;
    let ks = (0..pos).chain(-(n as i64 / 2)..0);
    freqs("fftfreq", n, d, ks, dev)
}

/// The frequencies of the `n / 2 + 1` outputs of [`rfft`](super::rfft) for samples spaced
/// `d` apart: `[0, 1, ..., n/2] / (d * n)` (NumPy `np.fft.rfftfreq(n, d)`).
///
/// # Errors
/// [`Error::InvalidArgument`] when `n` is 0.
///
/// ```
/// use cuprite_core::fft::rfftfreq;
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let f = rfftfreq::<f32, B>(4, 1.0, dev)?;
/// assert_eq!(f.to_vec()?, vec![0.0, 0.25, 0.5]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn rfftfreq<F: Float, B: ArrayBackend>(n: usize, d: F, dev: &B) -> Result<Array<F, B>> {
    freqs("rfftfreq", n, d, 0..=(n as i64 / 2), dev)
}

/// Rolls every listed axis by `shift(len)`; a repeated axis is rolled again (NumPy's `roll`
/// with a tuple of axes).
fn shift<T: Element, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    axes: Axes,
    by: impl Fn(usize) -> isize,
) -> Result<Array<T, B>> {
    let axes: Vec<usize> = match axes {
        Axes::All => (0..a.ndim()).collect(),
        Axes::Some(v) => v
            .iter()
            .map(|&ax| normalize_axis(op, ax, a.ndim()))
            .collect::<Result<_>>()?,
    };
    let mut x = a.clone();
    for ax in axes {
        x = x.roll(by(x.shape()[ax]), Some(ax as isize))?;
    }
    x.to_contiguous()
}

/// Moves the zero-frequency term to the centre of each of `axes` (all with [`Axes::All`]):
/// a roll by `len / 2` (NumPy `np.fft.fftshift(x, axes)`). Any element type.
///
/// # Errors
/// [`Error::AxisOutOfRange`] for a bad axis.
///
/// ```
/// use cuprite_core::fft::{fftfreq, fftshift, ifftshift};
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let f = fftfreq::<f64, B>(5, 1.0, dev)?;
/// let s = fftshift(&f, Axes::All)?;
/// assert_eq!(s.to_vec()?, vec![-0.4, -0.2, 0.0, 0.2, 0.4]);
/// assert_eq!(ifftshift(&s, 0)?.to_vec()?, f.to_vec()?);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub fn fftshift<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axes: impl Into<Axes>,
) -> Result<Array<T, B>> {
    shift("fftshift", a, axes.into(), |n| (n / 2) as isize)
}

/// The inverse of [`fftshift`]: a roll by `-(len / 2)` (NumPy `np.fft.ifftshift(x, axes)`);
/// the two differ for odd lengths.
///
/// # Errors
/// [`Error::AxisOutOfRange`] for a bad axis.
pub fn ifftshift<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    axes: impl Into<Axes>,
) -> Result<Array<T, B>> {
    shift("ifftshift", a, axes.into(), |n| -((n / 2) as isize))
}
