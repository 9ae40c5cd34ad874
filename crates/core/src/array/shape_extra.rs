//! Shape helpers beyond the basics: [`Array::resize`] (NumPy's `np.resize`, repeating the
//! data), [`Array::rollaxis`], [`Array::diagflat`], [`Array::vander`] and
//! [`Array::geomspace`]. Each is composed from views, `tile`, `diag`, products and
//! `logspace`, so it runs on every backend with their kernels.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Inexact, Numeric, Scalar, c128};
use crate::error::{Error, Result};
use crate::layout::{Layout, check_wide_shape, normalize_axis};

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// A new array of shape `new_shape` filled with the flattened data repeated as often as
    /// needed (NumPy's `np.resize(a, new_shape)`, not the in-place `ndarray.resize`). An
    /// empty input or an empty shape gives zeros of that shape.
    ///
    /// # Errors
    /// [`Error::TooBig`] when the new shape's bytes exceed `isize::MAX`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
    /// assert_eq!(a.resize(&[2, 4])?.to_vec()?, vec![1, 2, 3, 1, 2, 3, 1, 2]);
    /// assert_eq!(a.resize(&[2])?.to_vec()?, vec![1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn resize(&self, new_shape: &[usize]) -> Result<Self> {
        const OP: &str = "resize";
        let wide: Vec<u128> = new_shape.iter().map(|&d| d as u128).collect();
        let shape = check_wide_shape(OP, &wide, self.itemsize())?;
        let new_size: usize = shape.iter().product();
        if self.size() == 0 || new_size == 0 {
            return Self::zeros(&shape, self.device());
        }
        let repeats = new_size.div_ceil(self.size());
        let flat = self.ravel()?;
        let long = if repeats == 1 {
            flat
        } else {
            flat.tile(&[repeats])?
        };
        let head = long.with_layout(long.layout().slice_axis(0, 0, new_size, 1));
        let dims: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        head.reshape(&dims)
    }

    /// Moves `axis` so that it lies before the axis now at position `start` (NumPy's
    /// `np.rollaxis`; a view). `start` may be `-ndim..=ndim`.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for `axis`; [`Error::InvalidArgument`] for `start` outside
    /// `-ndim..=ndim`, with NumPy's message.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::zeros(&[3, 4, 5, 6], dev)?;
    /// assert_eq!(a.rollaxis(3, 1)?.shape(), &[3, 6, 4, 5]);
    /// assert_eq!(a.rollaxis(1, 4)?.shape(), &[3, 5, 6, 4]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn rollaxis(&self, axis: isize, start: isize) -> Result<Self> {
        const OP: &str = "rollaxis";
        let n = self.ndim();
        let ax = normalize_axis(OP, axis, n)?;
        let ni = n as isize;
        let s = if start < 0 { start + ni } else { start };
        if !(0..=ni).contains(&s) {
            return Err(Error::invalid(
                OP,
                format!(
                    "'start' arg requires {} <= start < {}, but {start} was passed in",
                    -ni,
                    ni + 1
                ),
            ));
        }
        let mut s = s as usize;
        if ax < s {
            s -= 1;
        }
        if ax == s {
            return Ok(self.clone());
        }
        let mut axes: Vec<isize> = (0..ni).filter(|&i| i != ax as isize).collect();
        axes.insert(s, ax as isize);
        self.permute_dims(&axes)
    }

    /// A 2-d array with the flattened input on its `k`-th diagonal and zeros elsewhere
    /// (NumPy's `np.diagflat(v, k)`): shape `(n + |k|, n + |k|)` for `n` elements.
    ///
    /// # Errors
    /// [`Error::TooBig`] when the square's bytes exceed `isize::MAX`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let v = Array::<i64, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let d = v.diagflat(1)?;
    /// assert_eq!(d.shape(), &[5, 5]);
    /// assert_eq!(d.diagonal(1)?.to_vec()?, vec![1, 2, 3, 4]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diagflat(&self, k: isize) -> Result<Self> {
        let n = self.size() as u128 + k.unsigned_abs() as u128;
        check_wide_shape("diagflat", &[n, n], self.itemsize())?;
        Self::diag(&self.ravel()?, k)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The Vandermonde matrix of a 1-d `x` (NumPy's `np.vander(x, N, increasing)`):
    /// column `j` holds `x ** (N - 1 - j)` (`x ** j` when `increasing`); `n` columns
    /// default to `len(x)`. Each power is the previous one times `x`, in the order of
    /// NumPy's `multiply.accumulate`. The result keeps `T`: integers wrap in their own type
    /// where NumPy promotes them to `int64` (call `astype::<i64>()` first for its values).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `x` is not 1-d; [`Error::TooBig`] for a result whose
    /// bytes exceed `isize::MAX`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i64, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
    /// assert_eq!(x.vander(None, false)?.to_vec()?, vec![1, 1, 1, 4, 2, 1, 9, 3, 1]);
    /// assert_eq!(x.vander(Some(2), true)?.to_vec()?, vec![1, 1, 1, 2, 1, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn vander(&self, n: Option<usize>, increasing: bool) -> Result<Self> {
        const OP: &str = "vander";
        if self.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "x must be a one-dimensional array or sequence, got shape {:?}",
                    self.shape()
                ),
            ));
        }
        let m = self.shape()[0];
        let n = n.unwrap_or(m);
        let shape = check_wide_shape(OP, &[m as u128, n as u128], self.itemsize())?;
        let mut out = Self::empty(&shape, self.device())?;
        if n == 0 || m == 0 {
            return Ok(out);
        }
        let col = |l: &Layout, j: usize| -> Layout {
            l.index_axis(1, if increasing { j } else { n - 1 - j })
        };
        let mut p = Self::full(&[m], T::from_usize(1), self.device())?;
        let first = col(out.layout(), 0);
        out.write_part(&first, &p)?;
        for j in 1..n {
            p = p.try_mul(self)?;
            let l = col(out.layout(), j);
            out.write_part(&l, &p)?;
        }
        Ok(out)
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// `num` numbers spaced evenly on a log scale from `start` to `stop` (NumPy's
    /// `np.geomspace(start, stop, num, endpoint, dtype=T)`). As NumPy, the sequence is
    /// computed in `f64` (`c128` for complex `T`) and rounded once to `T`: `start` is
    /// rotated to the positive real axis (divided by its sign, `z / |z|` for complex), the
    /// powers of ten between the logarithms taken, the endpoints set to exactly `start` and
    /// (with `endpoint`) `stop`, and the rotation undone. Negative ranges give negative
    /// numbers; a `stop` of another sign than `start` gives NaN between the endpoints, as
    /// NumPy.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `start` or `stop` is zero (NumPy's "Geometric
    /// sequence cannot include zero").
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::geomspace(1.0, 1000.0, 4, true, dev)?;
    /// assert_eq!(a.to_vec()?, vec![1.0, 10.0, 100.0, 1000.0]);
    /// let b = Array::<f64, B>::geomspace(-1.0, -8.0, 3, false, dev)?;
    /// assert_eq!(b.to_vec()?, vec![-1.0, -2.0, -4.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn geomspace(start: T, stop: T, num: usize, endpoint: bool, dev: &B) -> Result<Self> {
        const OP: &str = "geomspace";
        let (s, e) = (as_c128(start), as_c128(stop));
        if s == c128::new(0.0, 0.0) || e == c128::new(0.0, 0.0) {
            return Err(Error::invalid(OP, "Geometric sequence cannot include zero"));
        }
        if T::DTYPE.is_complex() {
            let sign = if s.re.is_nan() || s.im.is_nan() {
                c128::new(f64::NAN, f64::NAN)
            } else {
                s / s.norm()
            };
            let (s1, e1) = (s / sign, e / sign);
            let (ls, le) = (s1.log10(), e1.log10());
            let y = Array::<c128, B>::linspace(ls, le, num, endpoint, dev)?;
            let ten = c128::new(10.0, 0.0);
            let mut r = y.scalar_op_rev(crate::ops::Pow, ten)?;
            set_ends(&mut r, s1, e1, num, endpoint)?;
            r.scalar_op(crate::ops::Mul, sign)?.astype::<T>()
        } else {
            let (s, e) = (s.re, e.re);
            let sign = if s.is_nan() { f64::NAN } else { s.signum() };
            let (s1, e1) = (s / sign, e / sign);
            let mut r =
                Array::<f64, B>::logspace(s1.log10(), e1.log10(), num, endpoint, 10.0, dev)?;
            set_ends(&mut r, s1, e1, num, endpoint)?;
            r.scalar_op(crate::ops::Mul, sign)?.astype::<T>()
        }
    }
}

/// A value of an inexact type as `c128` (a real one with a zero imaginary part).
fn as_c128<T: Inexact>(v: T) -> c128 {
    match v.to_scalar().widen_half() {
        Scalar::C128(z) => z,
        Scalar::C64(z) => c128::new(z.re as f64, z.im as f64),
        Scalar::F32(x) => c128::new(x as f64, 0.0),
        other => c128::new(f64::from_scalar(other), 0.0),
    }
}

/// Sets the first element of the 1-d `r` to `first` and, with `endpoint` and more than one
/// element, the last to `last` (geomspace's exact endpoints).
fn set_ends<U: Element, B: ArrayBackend>(
    r: &mut Array<U, B>,
    first: U,
    last: U,
    num: usize,
    endpoint: bool,
) -> Result<()> {
    if num > 0 {
        let l = r.layout().slice_axis(0, 0, 1, 1);
        let v = Array::full(&[1], first, r.device())?;
        r.write_part(&l, &v)?;
    }
    if num > 1 && endpoint {
        let l = r.layout().slice_axis(0, num - 1, 1, 1);
        let v = Array::full(&[1], last, r.device())?;
        r.write_part(&l, &v)?;
    }
    Ok(())
}
