//! The one-axis steps every transform is built from: checking `n`, zero-padding or
//! truncating an axis, and handing a contiguous `[outer, n, inner]` buffer to the backend's
//! [`FftOps`]; plus NumPy's resolution of `s` and `axes` for the n-dimensional forms.

use super::Norm;
use crate::array::Array;
use crate::backend::{ArrayBackend, FftLanes, host_out_of_memory};
use crate::dtype::{Element, Float};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// NumPy's error for a transform length below 1.
pub(crate) fn invalid_n(op: &'static str, n: isize) -> Error {
    Error::invalid(
        op,
        format!("Invalid number of FFT data points ({n}) specified"),
    )
}

/// The transform length: `n` when given, else `default`; an error when it is below 1.
pub(crate) fn check_n(op: &'static str, n: Option<usize>, default: usize) -> Result<usize> {
    let n = n.unwrap_or(default);
    if n < 1 {
        return Err(invalid_n(op, n as isize));
    }
    Ok(n)
}

/// Checks that an array of `a`'s shape with axis `ax` of length `len` has an element count
/// and a size in bytes that fit the address space, before anything is padded, planned or
/// allocated: an overflowing length is [`Error::OutOfMemory`] with `requested` the size (or
/// `usize::MAX`), as NumPy's `MemoryError`.
fn check_len<T: Element, B: ArrayBackend>(a: &Array<T, B>, ax: usize, len: usize) -> Result<()> {
    let count = a
        .shape()
        .iter()
        .enumerate()
        .map(|(i, &d)| if i == ax { len } else { d })
        .try_fold(1usize, |p, d| p.checked_mul(d));
    // The bound is the address space, not the host's memory: the buffer may live on a GPU,
    // whose backend reports its own OutOfMemory.
    let bytes = count.and_then(|c| c.checked_mul(std::mem::size_of::<T>()));
    match bytes {
        Some(b) if b <= isize::MAX as usize => Ok(()),
        Some(b) => Err(host_out_of_memory(b)),
        None => Err(host_out_of_memory(usize::MAX)),
    }
}

/// `a` with axis `ax` cut to its first `len` elements or zero-padded at the end to `len`.
pub(crate) fn resize_axis<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    ax: usize,
    len: usize,
) -> Result<Array<T, B>> {
    check_len(a, ax, len)?;
    let have = a.shape()[ax];
    if len == have {
        Ok(a.clone())
    } else if len < have {
        Ok(a.with_layout(a.layout().slice_axis(ax, 0, len, 1)))
    } else {
        let mut widths = vec![(0, 0); a.ndim()];
        widths[ax] = (0, len - have);
        a.pad_constant(&widths, T::ZERO)
    }
}

/// `a` as a C-contiguous array starting at element 0 of its buffer, and its lanes along `ax`.
fn lanes_of<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    ax: usize,
) -> Result<(Array<T, B>, FftLanes)> {
    let a = if a.is_contiguous() && a.layout().offset() == 0 {
        a.clone()
    } else {
        a.copy()?
    };
    let shape = a.shape();
    let lanes = FftLanes {
        outer: shape[..ax].iter().product(),
        n: shape[ax],
        inner: shape[ax + 1..].iter().product(),
    };
    Ok((a, lanes))
}

/// Complex transform of length `n` along axis `ax` (already normalised).
pub(crate) fn c2c<F: Float, B: ArrayBackend>(
    a: &Array<F::Complex, B>,
    ax: usize,
    n: usize,
    inverse: bool,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    let (x, lanes) = lanes_of(&resize_axis(a, ax, n)?, ax)?;
    let dev = x.device();
    let buf = dev.fft_c2c::<F>(x.buffer(), lanes, inverse, norm.scale::<F>(n, inverse))?;
    Ok(Array::from_contiguous(buf, x.shape(), dev))
}

/// Real-input forward transform of length `n` along `ax`: `n / 2 + 1` frequencies.
pub(crate) fn r2c<F: Float, B: ArrayBackend>(
    a: &Array<F, B>,
    ax: usize,
    n: usize,
    norm: Norm,
) -> Result<Array<F::Complex, B>> {
    let (x, lanes) = lanes_of(&resize_axis(a, ax, n)?, ax)?;
    let dev = x.device();
    let buf = dev.fft_r2c::<F>(x.buffer(), lanes, norm.scale::<F>(n, false))?;
    let mut shape = x.shape().to_vec();
    shape[ax] = lanes.half();
    Ok(Array::from_contiguous(buf, &shape, dev))
}

/// Inverse real transform along `ax` giving `n` real points from the first `n / 2 + 1`
/// frequencies (padded or truncated to that). The imaginary parts of frequency 0 and, for
/// even `n`, `n / 2` are dropped first, as NumPy does.
pub(crate) fn c2r<F: Float, B: ArrayBackend>(
    a: &Array<F::Complex, B>,
    ax: usize,
    n: usize,
    norm: Norm,
) -> Result<Array<F, B>> {
    let half = n / 2 + 1;
    // A fresh copy: the backend may use it as scratch.
    let mut x = resize_axis(a, ax, half)?.copy()?;
    let dev = x.device().clone();
    if x.size() > 0 {
        let mut edges = vec![0];
        if n.is_multiple_of(2) && half > 1 {
            edges.push(half - 1);
        }
        for k in edges {
            let part = x.layout().slice_axis(ax, k, 1, 1);
            let real = x.with_layout(part.clone()).real()?.astype::<F::Complex>()?;
            x.write_part(&part, &real)?;
        }
    }
    let mut shape = x.shape().to_vec();
    let lanes = FftLanes {
        outer: shape[..ax].iter().product(),
        n,
        inner: shape[ax + 1..].iter().product(),
    };
    shape[ax] = n;
    let buf = x.buffer().clone();
    drop(x);
    let out = dev.fft_c2r::<F>(buf, lanes, norm.scale::<F>(n, true))?;
    Ok(Array::from_contiguous(out, &shape, &dev))
}

/// One axis for a one-dimensional transform.
pub(crate) fn one_axis(op: &'static str, axis: isize, ndim: usize) -> Result<usize> {
    normalize_axis(op, axis, ndim)
}

/// NumPy's `_cook_nd_args`: the lengths and (normalised) axes of an n-dimensional transform.
///
/// Without `axes`, the last `len(s)` axes (all axes without `s` either). Without `s`, the
/// input's lengths along `axes`, except that an inverse real transform (`inverse_real`) gets
/// `2 * (m - 1)` on its last axis. An `s` entry of -1 takes the input's length. Axes may
/// repeat (the transform then runs again along that axis, as NumPy's does).
pub(crate) fn cook_nd(
    op: &'static str,
    shape: &[usize],
    s: Option<&[isize]>,
    axes: Option<&[isize]>,
    inverse_real: bool,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let ndim = shape.len();
    let axes: Vec<usize> = match (axes, s) {
        (Some(a), _) => a
            .iter()
            .map(|&ax| normalize_axis(op, ax, ndim))
            .collect::<Result<_>>()?,
        (None, Some(s)) => {
            if s.len() > ndim {
                return Err(Error::invalid(
                    op,
                    format!(
                        "s has {} entries for an array of dimension {ndim} and no axes given",
                        s.len()
                    ),
                ));
            }
            (ndim - s.len()..ndim).collect()
        }
        (None, None) => (0..ndim).collect(),
    };
    let lens: Vec<isize> = match s {
        Some(s) => {
            if s.len() != axes.len() {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Shape and axes have different lengths ({} and {})",
                        s.len(),
                        axes.len()
                    ),
                ));
            }
            s.to_vec()
        }
        None => {
            let mut l: Vec<isize> = axes.iter().map(|&ax| shape[ax] as isize).collect();
            if inverse_real && let Some(last) = l.last_mut() {
                *last = 2 * (*last - 1);
            }
            l
        }
    };
    let mut out = Vec::with_capacity(lens.len());
    for (&len, &ax) in lens.iter().zip(&axes) {
        let len = if len == -1 { shape[ax] as isize } else { len };
        if len < 1 {
            return Err(invalid_n(op, len));
        }
        out.push(len as usize);
    }
    Ok((out, axes))
}
