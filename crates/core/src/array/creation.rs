//! Creating arrays: from host data, filled with a value, ramps (`arange`, `linspace`,
//! `logspace`), matrices (`eye`, `identity`, `diag`, `tri`, `tril`, `triu`), coordinate
//! grids (`meshgrid`) and the `*_like` constructors. Everything is composed from the
//! backend's memory primitives (`full`, `arange`, `fill`, `assign`, `copy`) and element-wise
//! ops over views, so no creation function needs a primitive of its own.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};
use crate::error::{Error, Result};
use crate::layout::{Layout, check_shape, check_wide_shape};
use crate::ops::{Le, Pow};
use std::any::Any;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Checks a shape asked for by `op` for a new array of `T` (see [`check_shape`]) and
    /// returns its number of elements.
    fn new_shape(op: &'static str, shape: &[usize]) -> Result<usize> {
        check_shape(op, shape, T::DTYPE.size_of())
    }

    /// An array of `shape` from row-major host data (an upload to `dev`).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `data.len()` is not the product of `shape`,
    /// [`Error::TooBig`] when that product overflows.
    pub fn from_vec(data: Vec<T>, shape: &[usize], dev: &B) -> Result<Self> {
        if data.len() != Self::new_shape("from_vec", shape)? {
            return Err(Error::ShapeMismatch {
                op: "from_vec",
                lhs: vec![data.len()],
                rhs: shape.to_vec(),
            });
        }
        let buf = dev.from_vec(data)?;
        Ok(Array::from_contiguous(buf, shape, dev))
    }

    /// An array of `shape` from a row-major host slice (an upload to `dev`).
    pub fn from_slice(data: &[T], shape: &[usize], dev: &B) -> Result<Self> {
        Self::from_vec(data.to_vec(), shape, dev)
    }

    /// A 0-d array holding `value`.
    pub fn scalar(value: T, dev: &B) -> Result<Self> {
        Self::full(&[], value, dev)
    }

    /// `full` under the name of the op that asked for it (in its errors).
    fn full_as(op: &'static str, shape: &[usize], value: T, dev: &B) -> Result<Self> {
        let buf = dev.full(Self::new_shape(op, shape)?, value)?;
        Ok(Array::from_contiguous(buf, shape, dev))
    }

    /// An array of `shape` filled with `value`.
    ///
    /// # Errors
    /// [`Error::TooBig`] when the shape's bytes exceed `isize::MAX` (checked before any
    /// allocation), [`Error::InvalidArgument`] for more than 64 dimensions.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// assert_eq!(Array::<u8, B>::full(&[2], 7, dev)?.to_vec()?, vec![7, 7]);
    /// let e = Array::<f64, B>::full(&[1 << 32, 1 << 32], 0.0, dev).unwrap_err();
    /// assert!(matches!(e, Error::TooBig { op: "full", .. }));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn full(shape: &[usize], value: T, dev: &B) -> Result<Self> {
        Self::full_as("full", shape, value, dev)
    }

    /// An array of zeros (false for bool).
    ///
    /// # Errors
    /// As [`Array::full`].
    pub fn zeros(shape: &[usize], dev: &B) -> Result<Self> {
        Self::full_as("zeros", shape, T::ZERO, dev)
    }

    /// An array of ones (true for bool).
    ///
    /// # Errors
    /// As [`Array::full`].
    pub fn ones(shape: &[usize], dev: &B) -> Result<Self> {
        Self::full_as("ones", shape, T::ONE, dev)
    }

    /// An array whose contents are unspecified by the API. cuprite never exposes
    /// uninitialised memory, so the elements are zeros; use it to state that every element
    /// will be overwritten.
    ///
    /// # Errors
    /// As [`Array::full`].
    pub fn empty(shape: &[usize], dev: &B) -> Result<Self> {
        Self::full_as("empty", shape, T::ZERO, dev)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// `n` values `start, start + step, ...` as a 1-d array (no float-range rounding issues:
    /// the count is given).
    ///
    /// # Errors
    /// [`Error::TooBig`] when `n` elements exceed `isize::MAX` bytes.
    pub fn ramp(n: usize, start: T, step: T, dev: &B) -> Result<Self> {
        Self::ramp_as("ramp", n, start, step, dev)
    }

    /// `ramp` under the name of the op that asked for it (in its errors).
    fn ramp_as(op: &'static str, n: usize, start: T, step: T, dev: &B) -> Result<Self> {
        Self::new_shape(op, &[n])?;
        let buf = dev.arange(n, start, step)?;
        Ok(Array::from_contiguous(buf, &[n], dev))
    }
}

/// The same array seen as `Array<U, B>` when `U` is `T`, else a converted copy.
fn into_dtype<T: Element, U: Element, B: ArrayBackend>(a: Array<T, B>) -> Result<Array<U, B>> {
    let boxed: Box<dyn Any> = Box::new(a);
    match boxed.downcast::<Array<U, B>>() {
        Ok(same) => Ok(*same),
        Err(other) => other
            .downcast::<Array<T, B>>()
            .expect("the box holds an Array<T, B>")
            .astype::<U>(),
    }
}

/// How [`Array::meshgrid`] orders the output axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Indexing {
    /// Cartesian (NumPy's default): with two or more inputs the first two output axes are
    /// swapped, so `x` varies along columns.
    #[default]
    Xy,
    /// Matrix indexing: output axis `i` follows input `i`.
    Ij,
}

/// Layout of the `k`-th diagonal of a C-contiguous `n x m` matrix (`None` when empty).
fn diag_layout(n: usize, m: usize, k: isize) -> Option<Layout> {
    let (row, col) = if k >= 0 {
        (0, k.unsigned_abs())
    } else {
        (k.unsigned_abs(), 0)
    };
    let len = n.saturating_sub(row).min(m.saturating_sub(col));
    (len > 0).then(|| Layout::new(vec![len], vec![m as isize + 1], row * m + col))
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// An array of zeros with `self`'s shape (always C-contiguous).
    pub fn zeros_like(&self) -> Result<Self> {
        Self::zeros(self.shape(), &self.device)
    }

    /// An array of ones with `self`'s shape.
    pub fn ones_like(&self) -> Result<Self> {
        Self::ones(self.shape(), &self.device)
    }

    /// An array of `value` with `self`'s shape.
    pub fn full_like(&self, value: T) -> Result<Self> {
        Self::full(self.shape(), value, &self.device)
    }

    /// An array with `self`'s shape whose contents will be overwritten (see [`Array::empty`]).
    pub fn empty_like(&self) -> Result<Self> {
        Self::empty(self.shape(), &self.device)
    }

    /// An `n x m` matrix (`m = n` by default) with ones on the `k`-th diagonal (`k > 0`
    /// above the main diagonal, `k < 0` below) and zeros elsewhere.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let e = Array::<i32, B>::eye(2, Some(3), 1, dev)?;
    /// assert_eq!(e.to_vec()?, vec![0, 1, 0, 0, 0, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn eye(n: usize, m: Option<usize>, k: isize, dev: &B) -> Result<Self> {
        let m = m.unwrap_or(n);
        let mut out = Self::full_as("eye", &[n, m], T::ZERO, dev)?;
        if let Some(l) = diag_layout(n, m, k) {
            out.device.fill(&mut out.buf, &l, T::ONE)?;
        }
        Ok(out)
    }

    /// The `n x n` identity matrix.
    pub fn identity(n: usize, dev: &B) -> Result<Self> {
        Self::eye(n, None, 0, dev)
    }

    /// NumPy's `diag`: for a 1-d `v`, a square matrix with `v` on the `k`-th diagonal; for a
    /// 2-d `v`, its `k`-th diagonal (a view, see [`Array::diagonal`]).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for inputs that are neither 1-d nor 2-d.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let v = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev)?;
    /// let d = Array::diag(&v, -1)?;
    /// assert_eq!(d.to_vec()?, vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0]);
    /// assert_eq!(Array::diag(&d, -1)?.to_vec()?, vec![1.0, 2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diag(v: &Self, k: isize) -> Result<Self> {
        match v.ndim() {
            1 => {
                let n = v.size() as u128 + k.unsigned_abs() as u128;
                let shape = check_wide_shape("diag", &[n, n], T::DTYPE.size_of())?;
                let n = shape[0];
                let mut out = Self::zeros(&shape, &v.device)?;
                if let Some(l) = diag_layout(n, n, k) {
                    out.device.assign(&mut out.buf, &l, &v.buf, &v.layout)?;
                }
                Ok(out)
            }
            2 => v.diagonal(k),
            _ => Err(Error::invalid(
                "diag",
                format!("input must be 1-d or 2-d, got shape {:?}", v.shape()),
            )),
        }
    }

    /// The `offset`-th diagonal of the first two axes, as a view whose last axis runs along
    /// the diagonal (NumPy's `diagonal(offset, axis1=0, axis2=1)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for arrays of fewer than two dimensions.
    pub fn diagonal(&self, offset: isize) -> Result<Self> {
        if self.ndim() < 2 {
            return Err(Error::invalid(
                "diagonal",
                format!(
                    "diag requires an array of at least two dimensions, got shape {:?}",
                    self.shape()
                ),
            ));
        }
        let (sh, st) = (self.shape(), self.strides());
        let (row, col) = if offset >= 0 {
            (0, offset.unsigned_abs())
        } else {
            (offset.unsigned_abs(), 0)
        };
        let len = sh[0].saturating_sub(row).min(sh[1].saturating_sub(col));
        let mut start = self.layout.offset();
        if len > 0 {
            start = (start as isize + row as isize * st[0] + col as isize * st[1]) as usize;
        }
        let mut shape = sh[2..].to_vec();
        let mut strides = st[2..].to_vec();
        shape.push(len);
        strides.push(st[0] + st[1]);
        Ok(self.with_layout(Layout::new(shape, strides, start)))
    }

    /// An `n x m` matrix (`m = n` by default) with ones at and below the `k`-th diagonal
    /// (`j <= i + k`) and zeros elsewhere.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let t = Array::<u8, B>::tri(2, Some(3), 0, dev)?;
    /// assert_eq!(t.to_vec()?, vec![1, 0, 0, 1, 1, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tri(n: usize, m: Option<usize>, k: isize, dev: &B) -> Result<Self> {
        let m = m.unwrap_or(n);
        Self::new_shape("tri", &[n, m])?;
        let cols = Array::<i64, B>::ramp(m, 0, 1, dev)?.reshape(&[1, m as isize])?;
        let rows = Array::<i64, B>::ramp(n, k as i64, 1, dev)?.reshape(&[n as isize, 1])?;
        into_dtype(cols.zip_op(Le, &rows)?)
    }

    /// The mask of the lower triangle of the last two axes (a 1-d `[n]` counts as `[n, n]`).
    fn tri_mask(&self, op: &'static str, k: isize) -> Result<Array<bool, B>> {
        let (n, m) = match self.shape() {
            [] => {
                return Err(Error::invalid(
                    op,
                    "input must be at least 1-d, got a 0-d array",
                ));
            }
            [n] => (*n, *n),
            [.., n, m] => (*n, *m),
        };
        Array::<bool, B>::tri(n, Some(m), k, &self.device)
    }

    /// The lower triangle of the last two axes (batched): elements with `j > i + k` are
    /// zeroed.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(4, 1, 1, dev)?.reshape(&[2, 2])?;
    /// assert_eq!(a.tril(0)?.to_vec()?, vec![1, 0, 3, 4]);
    /// assert_eq!(a.triu(1)?.to_vec()?, vec![0, 2, 0, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tril(&self, k: isize) -> Result<Self> {
        let mask = self.tri_mask("tril", k)?;
        let zero = Self::zeros(&[], &self.device)?;
        Self::where_(&mask, self, &zero)
    }

    /// The upper triangle of the last two axes (batched): elements with `j < i + k` are
    /// zeroed.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d array.
    pub fn triu(&self, k: isize) -> Result<Self> {
        let mask = self.tri_mask("triu", k - 1)?;
        let zero = Self::zeros(&[], &self.device)?;
        Self::where_(&mask, &zero, self)
    }

    /// Coordinate matrices from coordinate vectors (each input is flattened): output `i`
    /// repeats input `i` along every other axis. With [`Indexing::Xy`] and two or more inputs
    /// the shape is `(n1, n0, n2, ...)`, with [`Indexing::Ij`] `(n0, n1, n2, ...)`. The
    /// outputs are new C-contiguous arrays.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// let y = Array::<f64, B>::from_vec(vec![4.0, 5.0], &[2], dev)?;
    /// let g = Array::meshgrid(&[&x, &y], Indexing::Xy)?;
    /// assert_eq!(g[0].to_vec()?, vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    /// assert_eq!(g[1].to_vec()?, vec![4.0, 4.0, 4.0, 5.0, 5.0, 5.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn meshgrid(arrays: &[&Self], indexing: Indexing) -> Result<Vec<Self>> {
        let n = arrays.len();
        let pos = |i: usize| match (indexing, i) {
            (Indexing::Xy, 0) if n > 1 => 1,
            (Indexing::Xy, 1) => 0,
            _ => i,
        };
        let mut shape = vec![0usize; n];
        for (i, a) in arrays.iter().enumerate() {
            arrays[0].check_device(a, "meshgrid")?;
            shape[pos(i)] = a.size();
        }
        Self::new_shape("meshgrid", &shape)?;
        arrays
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let flat = a.ravel()?;
                let mut strides = vec![0isize; n];
                strides[pos(i)] = flat.strides()[0];
                let l = Layout::new(shape.clone(), strides, flat.layout.offset());
                let buf = a.device.copy(&flat.buf, &l)?;
                Ok(Array::from_contiguous(buf, &shape, &a.device))
            })
            .collect()
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// NumPy's `arange`: `start, start + step, ...` up to but excluding `stop`, with
    /// `ceil((stop - start) / step)` elements (none when that is negative).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `step` is zero or the length is not finite.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// assert_eq!(Array::<i32, B>::arange(10, 0, -4, dev)?.to_vec()?, vec![10, 6, 2]);
    /// assert_eq!(Array::<f64, B>::arange(0.0, 1.0, 0.25, dev)?.size(), 4);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn arange(start: T, stop: T, step: T, dev: &B) -> Result<Self> {
        const OP: &str = "arange";
        if step == T::ZERO {
            return Err(Error::invalid(OP, "step must not be zero"));
        }
        let n = if T::DTYPE.is_integer() {
            let (a, b, s) = (
                start.to_i128().unwrap_or(0),
                stop.to_i128().unwrap_or(0),
                step.to_i128().unwrap_or(1),
            );
            let (d, s) = if s < 0 { (a - b, -s) } else { (b - a, s) };
            if d <= 0 { 0 } else { (d + s - 1) / s }
        } else {
            let len = ((stop.to_f64_lossy() - start.to_f64_lossy()) / step.to_f64_lossy()).ceil();
            if !len.is_finite() {
                return Err(Error::invalid(
                    OP,
                    format!("cannot compute length of arange({start:?}, {stop:?}, {step:?})"),
                ));
            }
            len.max(0.0) as i128
        };
        // `n` is at most 2^65 for integers and below 2^128 for floats (a finite f64).
        check_wide_shape(OP, &[n as u128], T::DTYPE.size_of())?;
        // NumPy fills floats from the first two values: delta = (start + step) - start.
        let delta = if T::DTYPE.is_integer() {
            step
        } else {
            start.add(step).sub(start)
        };
        Self::ramp_as(OP, n as usize, start, delta, dev)
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// NumPy's `linspace`: `num` evenly spaced values from `start` to `stop` (included, and
    /// exactly `stop`, when `endpoint`; else excluded).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::linspace(0.0, 1.0, 5, true, dev)?;
    /// assert_eq!(a.to_vec()?, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn linspace(start: T, stop: T, num: usize, endpoint: bool, dev: &B) -> Result<Self> {
        let div = if endpoint { num.saturating_sub(1) } else { num };
        let delta = Numeric::sub(stop, start);
        let step = if div > 0 {
            delta / T::from_usize(div)
        } else {
            delta
        };
        let mut out = Self::ramp_as("linspace", num, start, step, dev)?;
        if endpoint && num > 1 {
            let last = out.layout.slice_axis(0, num - 1, 1, 1);
            out.device.fill(&mut out.buf, &last, stop)?;
        }
        Ok(out)
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// NumPy's `logspace`: `base ** linspace(start, stop, num, endpoint)`, computed in f64
    /// and rounded once to `T`. Any `base` is allowed, as in NumPy: a negative base gives
    /// signed values at integral exponents and NaN elsewhere, a zero base 0, 1 or inf.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::logspace(0.0, 3.0, 4, true, 10.0, dev)?;
    /// let v = a.to_vec()?;
    /// assert!((v[3] - 1000.0).abs() < 1e-9);
    /// let b = Array::<f64, B>::logspace(0.0, 2.0, 3, true, -2.0, dev)?;
    /// assert_eq!(b.to_vec()?, vec![1.0, -2.0, 4.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn logspace(
        start: T,
        stop: T,
        num: usize,
        endpoint: bool,
        base: T,
        dev: &B,
    ) -> Result<Self> {
        let y = Array::<f64, B>::linspace(
            start.to_f64_lossy(),
            stop.to_f64_lossy(),
            num,
            endpoint,
            dev,
        )?;
        let p = y.scalar_op_rev(Pow, base.to_f64_lossy())?;
        into_dtype(p)
    }
}
