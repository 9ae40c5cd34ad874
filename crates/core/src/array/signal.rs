//! Discrete linear convolution and cross-correlation of 1-d arrays, NumPy's `np.convolve`
//! and `np.correlate` ([`Array::convolve`], [`Array::correlate`], with the output size a
//! [`ConvolveMode`]), computed either directly or through FFTs ([`ConvolveMethod`], as
//! scipy.signal's `method`; [`Array::convolve_with`], [`Array::correlate_with`]).
//!
//! The direct path is exact for integers (wrapping as NumPy's): the full result's entries
//! `j` of the mode are the rows of a sliding-window view of the zero-padded longer input
//! (`rows x m`, strides `(1, 1)`: nothing is copied), multiplied by the reversed kernel in
//! [`Array::matmul`], in chunks of at most 2^22 window elements. The FFT path (f16, bf16,
//! f32, f64 through `rfft`/`irfft`, c64 and c128 through `fft`/`ifft`, the 16-bit floats
//! computed in f32) multiplies the spectra of both inputs zero-padded to a 5-smooth length.
//! Both run on every backend with its kernels; nothing leaves the device.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{DType, Element, Numeric, c64, c128};
use crate::error::{Error, Result};
use crate::fft::{self, FftComplex, FftInput, Norm};
use crate::layout::Layout;
use crate::ops::Ne;
use crate::promote::cast_or_share;
use crate::slice::SliceArg;

/// The window elements (`rows * m`) one product of the direct path covers at most.
pub(crate) const CHUNK: usize = 1 << 22;

/// From this length of the shorter input on, [`ConvolveMethod::Auto`] takes the FFT path
/// for floating-point and complex inputs. Measured with the `convolve` bench (f64 signals
/// of 10^4 and 10^6 points, kernels of 8 to 512; docs/benchmarks.md): on an H200 the FFT
/// path wins from 16-32 at 10^6 points, while at 10^4 both paths cost a few launches; on
/// the host's 16 cores it wins from 64-128 at 10^4 points and is within 10% of the direct
/// path up to 512 at 10^6. One length for both: 48 stays within about 2x of the faster
/// path at every measured point and takes the FFT's 3-25x wins beyond.
pub(crate) const FFT_MIN_KERNEL: usize = 48;

/// The size of the output of [`Array::convolve`] and [`Array::correlate`] (NumPy's `mode`),
/// for inputs of lengths `n` and `m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvolveMode {
    /// Every point of overlap: `n + m - 1` values (`np.convolve`'s default).
    Full,
    /// `max(n, m)` values, centred on the full result.
    Same,
    /// Only where the inputs overlap completely: `max(n, m) - min(n, m) + 1` values
    /// (`np.correlate`'s default).
    Valid,
}

/// How [`Array::convolve_with`] and [`Array::correlate_with`] compute (scipy.signal's
/// `method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConvolveMethod {
    /// The FFT path for float and complex inputs whose shorter length is at least 48 (the
    /// measured crossover, see `docs/benchmarks.md`), else the direct path.
    #[default]
    Auto,
    /// Sums of products (exact for integers).
    Direct,
    /// Products of spectra (float and complex types only).
    Fft,
}

/// The smallest `2^a 3^b 5^c >= n` (a length every FFT backend transforms fast).
fn smooth_len(n: usize) -> usize {
    let mut best = n.checked_next_power_of_two().unwrap_or(n);
    let mut p5 = 1usize;
    while p5 < best {
        let mut p35 = p5;
        while p35 < best {
            let mut p = p35;
            while p < n {
                p *= 2;
            }
            best = best.min(p);
            p35 *= 3;
        }
        p5 *= 5;
    }
    best
}

/// Elements `start..start + len` of a 1-d array.
fn window<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    start: usize,
    len: usize,
) -> Result<Array<T, B>> {
    a.slice(&[SliceArg::Range {
        start: Some(start as isize),
        stop: Some((start + len) as isize),
        step: 1,
    }])
}

/// The entries `start..start + len` of the full convolution of two real float vectors
/// through `rfft`/`irfft`.
fn fft_real<C: FftComplex, B: ArrayBackend>(
    a: &Array<C::RealFloat, B>,
    w: &Array<C::RealFloat, B>,
    start: usize,
    len: usize,
) -> Result<Array<C::RealFloat, B>> {
    let nfft = smooth_len(a.shape()[0] + w.shape()[0] - 1);
    let fa = fft::rfft(a, Some(nfft), 0, Norm::Backward)?;
    let fw = fft::rfft(w, Some(nfft), 0, Norm::Backward)?;
    let y = fft::irfft(&fa.try_mul(&fw)?, Some(nfft), 0, Norm::Backward)?;
    window(&y, start, len)?.to_contiguous()
}

/// As [`fft_real`] for complex vectors, through `fft`/`ifft`.
fn fft_complex<C: FftComplex + FftInput<Complex = C>, B: ArrayBackend>(
    a: &Array<C, B>,
    w: &Array<C, B>,
    start: usize,
    len: usize,
) -> Result<Array<C, B>> {
    let nfft = smooth_len(a.shape()[0] + w.shape()[0] - 1);
    let fa = fft::fft(a, Some(nfft), 0, Norm::Backward)?;
    let fw = fft::fft(w, Some(nfft), 0, Norm::Backward)?;
    let y = fft::ifft(&fa.try_mul(&fw)?, Some(nfft), 0, Norm::Backward)?;
    window(&y, start, len)?.to_contiguous()
}

/// The FFT path for `T`, `None` for a type it does not take (bool, integers).
fn fft_path<T: Numeric, B: ArrayBackend>(
    a: &Array<T, B>,
    w: &Array<T, B>,
    start: usize,
    len: usize,
) -> Result<Option<Array<T, B>>> {
    Ok(Some(match T::DTYPE {
        DType::F64 => cast_or_share(&fft_real::<c128, B>(
            &cast_or_share(a)?,
            &cast_or_share(w)?,
            start,
            len,
        )?)?,
        DType::F32 | DType::F16 | DType::BF16 => cast_or_share(&fft_real::<c64, B>(
            &cast_or_share(a)?,
            &cast_or_share(w)?,
            start,
            len,
        )?)?,
        DType::C128 => cast_or_share(&fft_complex::<c128, B>(
            &cast_or_share(a)?,
            &cast_or_share(w)?,
            start,
            len,
        )?)?,
        DType::C64 => cast_or_share(&fft_complex::<c64, B>(
            &cast_or_share(a)?,
            &cast_or_share(w)?,
            start,
            len,
        )?)?,
        _ => return Ok(None),
    }))
}

/// The entries `start..start + len` of the full convolution `sum_k a[k] w[j - k]` of the
/// non-empty 1-d `a` and `w` (lengths `n`, `m`), by `method`.
fn conv_range<T: Numeric, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    w: &Array<T, B>,
    start: usize,
    len: usize,
    method: ConvolveMethod,
) -> Result<Array<T, B>> {
    let (n, m) = (a.shape()[0], w.shape()[0]);
    let fft = match method {
        ConvolveMethod::Direct => false,
        ConvolveMethod::Fft => true,
        ConvolveMethod::Auto => n.min(m) >= FFT_MIN_KERNEL,
    };
    if fft {
        match fft_path(a, w, start, len)? {
            Some(y) => return Ok(y),
            None if method == ConvolveMethod::Fft => {
                return Err(Error::invalid(
                    op,
                    format!(
                        "method Fft needs a float or complex dtype, got {}",
                        T::DTYPE
                    ),
                ));
            }
            None => {}
        }
    }
    // Entry j is the window ap[j..j + m] of the padded input dotted with the reversed w.
    let pad = m - 1;
    let ap = a.pad_constant(&[(pad, pad)], T::default())?;
    let wr = w.flip(0)?;
    let rows_per = (CHUNK / m).max(1);
    let mut parts = Vec::with_capacity(len.div_ceil(rows_per));
    let mut row = 0;
    while row < len {
        let rows = rows_per.min(len - row);
        let view = ap.with_layout(Layout::new(
            vec![rows, m],
            vec![1, 1],
            ap.layout.offset() + start + row,
        ));
        parts.push(view.matmul(&wr)?);
        row += rows;
    }
    if parts.len() == 1 {
        return Ok(parts.pop().expect("one part"));
    }
    let refs: Vec<&Array<T, B>> = parts.iter().collect();
    Array::concatenate(&refs, 0)
}

/// The inputs checked as NumPy does: at most 1-d (0-d as one element only where
/// `scalar_ok`), the same device, neither empty (`names`: how NumPy names them then).
fn inputs<T: Element, B: ArrayBackend>(
    op: &'static str,
    a: &Array<T, B>,
    v: &Array<T, B>,
    scalar_ok: bool,
    names: [&str; 2],
) -> Result<(Array<T, B>, Array<T, B>)> {
    a.check_device(v, op)?;
    let lo = if scalar_ok { 0 } else { 1 };
    for (x, which) in [(a, "a"), (v, "v")] {
        if x.ndim() > 1 || x.ndim() < lo {
            return Err(Error::invalid(
                op,
                format!(
                    "{which} must be {}1-d, got shape {:?}",
                    if scalar_ok { "0-d or " } else { "" },
                    x.shape()
                ),
            ));
        }
    }
    let (a, v) = (a.reshape(&[-1])?, v.reshape(&[-1])?);
    if a.size() == 0 {
        return Err(Error::invalid(op, format!("{} cannot be empty", names[0])));
    }
    if v.size() == 0 {
        return Err(Error::invalid(op, format!("{} cannot be empty", names[1])));
    }
    Ok((a, v))
}

/// `v` conjugated (for complex types; the values themselves otherwise).
fn conj_of<T: Numeric, B: ArrayBackend>(v: &Array<T, B>) -> Result<Array<T, B>> {
    match T::DTYPE {
        DType::C128 => cast_or_share(&cast_or_share::<T, c128, B>(v)?.conj()?),
        DType::C64 => cast_or_share(&cast_or_share::<T, c64, B>(v)?.conj()?),
        _ => Ok(v.clone()),
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The discrete linear convolution of two 1-d arrays (NumPy's `np.convolve(a, v,
    /// mode)`): `(a * v)[j] = sum_k a[k] v[j - k]`, the entries of `mode`, in the element
    /// type (integers wrap, as NumPy's). The arguments commute (NumPy swaps them when `v`
    /// is the longer); a 0-d input counts as one element. Chooses its method as
    /// [`ConvolveMethod::Auto`]: see [`convolve_with`](Self::convolve_with).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `convolve` for an input of more than one dimension
    /// or an empty one (NumPy's "a cannot be empty"); [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
    /// let v = Array::<i64, B>::from_vec(vec![0, 1, 5], &[3], dev)?;
    /// assert_eq!(a.convolve(&v, ConvolveMode::Full)?.to_vec()?, vec![0, 1, 7, 13, 15]);
    /// assert_eq!(a.convolve(&v, ConvolveMode::Same)?.to_vec()?, vec![1, 7, 13]);
    /// assert_eq!(a.convolve(&v, ConvolveMode::Valid)?.to_vec()?, vec![7]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn convolve(&self, v: &Self, mode: ConvolveMode) -> Result<Self> {
        self.convolve_with(v, mode, ConvolveMethod::Auto)
    }

    /// [`convolve`](Self::convolve) by the given method: [`ConvolveMethod::Direct`] (exact
    /// for integers), [`ConvolveMethod::Fft`] (float and complex types; rounding errors of
    /// the order of the type's epsilon times the largest products, so values that should
    /// be 0 come out tiny instead) or [`ConvolveMethod::Auto`], which takes the FFT path
    /// for float and complex inputs when the shorter one has at least 48 points — a provisional crossover, not yet
    /// measured on the CPU backend.
    ///
    /// # Errors
    /// As [`convolve`](Self::convolve); also [`ConvolveMethod::Fft`] for a bool or integer
    /// type.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![0.0, 1.0, 0.5], &[3], dev)?;
    /// let y = a.convolve_with(&v, ConvolveMode::Same, ConvolveMethod::Fft)?;
    /// assert!(y.allclose(&Array::from_vec(vec![1.0, 2.5, 4.0], &[3], dev)?, 1e-12, 1e-12, false)?.item()?);
    /// let i = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// assert!(i.convolve_with(&i, ConvolveMode::Full, ConvolveMethod::Fft).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn convolve_with(
        &self,
        v: &Self,
        mode: ConvolveMode,
        method: ConvolveMethod,
    ) -> Result<Self> {
        const OP: &str = "convolve";
        let (a, v) = inputs(OP, self, v, true, ["a", "v"])?;
        let (a, v) = if v.size() > a.size() { (v, a) } else { (a, v) };
        let (n, m) = (a.size(), v.size());
        let (start, len) = match mode {
            ConvolveMode::Full => (0, n + m - 1),
            ConvolveMode::Same => ((m - 1) / 2, n),
            ConvolveMode::Valid => (m - 1, n - m + 1),
        };
        conv_range(OP, &a, &v, start, len, method)
    }

    /// The cross-correlation of two 1-d arrays (NumPy's `np.correlate(a, v, mode)`):
    /// `c[k] = sum_n a[n + k] conj(v[n])`, the lags of `mode` (`Valid` is NumPy's default).
    /// Unlike convolution the order matters: `correlate(v, a)` is `correlate(a, v)`
    /// reversed and conjugated, and with `Same` NumPy centres the lags differently when `v`
    /// is the longer (`n / 2` values before lag 0 instead of `(m - 1) / 2`); cuprite
    /// follows it. Methods as [`convolve_with`](Self::convolve_with).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `correlate` for an input that is not 1-d (0-d
    /// included, as NumPy) or an empty one; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![0.0, 1.0, 0.5], &[3], dev)?;
    /// assert_eq!(a.correlate(&v, ConvolveMode::Valid)?.to_vec()?, vec![3.5]);
    /// assert_eq!(a.correlate(&v, ConvolveMode::Full)?.to_vec()?, vec![0.5, 2.0, 3.5, 3.0, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn correlate(&self, v: &Self, mode: ConvolveMode) -> Result<Self> {
        self.correlate_with(v, mode, ConvolveMethod::Auto)
    }

    /// [`correlate`](Self::correlate) by the given method (see
    /// [`convolve_with`](Self::convolve_with)).
    ///
    /// # Errors
    /// As [`correlate`](Self::correlate); also [`ConvolveMethod::Fft`] for a bool or
    /// integer type.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<c128, B>::from_vec(vec![c128::new(1.0, 0.0), c128::new(2.0, 0.0)], &[2], dev)?;
    /// let v = Array::<c128, B>::from_vec(vec![c128::new(0.0, 1.0)], &[1], dev)?;
    /// let c = a.correlate_with(&v, ConvolveMode::Full, ConvolveMethod::Direct)?;
    /// assert_eq!(c.to_vec()?, vec![c128::new(0.0, -1.0), c128::new(0.0, -2.0)]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn correlate_with(
        &self,
        v: &Self,
        mode: ConvolveMode,
        method: ConvolveMethod,
    ) -> Result<Self> {
        const OP: &str = "correlate";
        let names = ["first array argument", "second array argument"];
        let (a, v) = inputs(OP, self, v, false, names)?;
        let (n, m) = (a.size(), v.size());
        let (lo, hi) = (n.min(m), n.max(m));
        let (start, len) = match mode {
            ConvolveMode::Full => (0, n + m - 1),
            ConvolveMode::Same if n >= m => ((m - 1) / 2, n),
            ConvolveMode::Same => (n / 2, m),
            ConvolveMode::Valid => (lo - 1, hi - lo + 1),
        };
        let w = conj_of(&v)?.flip(0)?;
        conv_range(OP, &a, &w, start, len, method)
    }
}

impl<B: ArrayBackend> Array<bool, B> {
    /// [`convolve`](Array::convolve) of booleans (NumPy's: true where some pair of true
    /// values meets), computed exactly by the direct path on counts.
    ///
    /// # Errors
    /// As [`convolve`](Array::convolve).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<bool, B>::from_vec(vec![true, false, false], &[3], dev)?;
    /// let v = Array::<bool, B>::from_vec(vec![false, true], &[2], dev)?;
    /// assert_eq!(a.convolve(&v, ConvolveMode::Full)?.to_vec()?, vec![false, true, false, false]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn convolve(&self, v: &Self, mode: ConvolveMode) -> Result<Self> {
        inputs("convolve", self, v, true, ["a", "v"])?;
        let (a, v) = (self.astype::<i64>()?, v.astype::<i64>()?);
        a.convolve_with(&v, mode, ConvolveMethod::Direct)?
            .scalar_op(Ne, 0)
    }

    /// [`correlate`](Array::correlate) of booleans, as [`convolve`](Self::convolve).
    ///
    /// # Errors
    /// As [`correlate`](Array::correlate).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<bool, B>::from_vec(vec![true, false, false], &[3], dev)?;
    /// let v = Array::<bool, B>::from_vec(vec![false, true], &[2], dev)?;
    /// assert_eq!(a.correlate(&v, ConvolveMode::Valid)?.to_vec()?, vec![false, false]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn correlate(&self, v: &Self, mode: ConvolveMode) -> Result<Self> {
        let names = ["first array argument", "second array argument"];
        inputs("correlate", self, v, false, names)?;
        let (a, v) = (self.astype::<i64>()?, v.astype::<i64>()?);
        a.correlate_with(&v, mode, ConvolveMethod::Direct)?
            .scalar_op(Ne, 0)
    }
}
