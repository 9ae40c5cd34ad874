//! Differences and integrals along an axis: [`Array::diff`] (NumPy's `n`, `axis`, and
//! `prepend`/`append` through [`Array::diff_with`]), [`Array::ediff1d`] and
//! [`Array::trapezoid`]. Each is composed from views, subtraction, concatenation and sums,
//! so it runs on every backend with their kernels.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Inexact, Numeric, Scalar};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::Mul;
use crate::slice::SliceArg;

/// Slice arguments taking `start..stop` along `axis` and everything along the other axes.
fn along(ndim: usize, axis: usize, start: Option<isize>, stop: Option<isize>) -> Vec<SliceArg> {
    (0..ndim)
        .map(|i| SliceArg::Range {
            start: if i == axis { start } else { None },
            stop: if i == axis { stop } else { None },
            step: 1,
        })
        .collect()
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The `n`-th discrete difference along `axis` (NumPy's `np.diff(a, n, axis)`):
    /// `out[i] = a[i + 1] - a[i]`, applied `n` times, so the axis shrinks by `n` (to 0 at
    /// most). Integers wrap as NumPy's do; `n = 0` returns the array unchanged (as NumPy,
    /// before any check).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2, 4, 7, 0], &[5], dev)?;
    /// assert_eq!(a.diff(1, -1)?.to_vec()?, vec![1, 2, 3, -7]);
    /// assert_eq!(a.diff(2, 0)?.to_vec()?, vec![1, 1, -10]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diff(&self, n: usize, axis: isize) -> Result<Self> {
        self.diff_with(n, axis, None, None)
    }

    /// [`diff`](Self::diff) of the array with `prepend` placed before it and `append` after
    /// it along `axis` (NumPy's `prepend=`/`append=`). A 0-d edge is broadcast to one slice
    /// of the array; any other edge must have the array's number of dimensions and its
    /// lengths on every other axis, else the error names `diff` and both shapes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 3.0, 6.0], &[3], dev)?;
    /// let zero = Array::<f64, B>::from_vec(vec![0.0], &[], dev)?;
    /// assert_eq!(a.diff_with(1, 0, Some(&zero), None)?.to_vec()?, vec![1.0, 2.0, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diff_with(
        &self,
        n: usize,
        axis: isize,
        prepend: Option<&Self>,
        append: Option<&Self>,
    ) -> Result<Self> {
        const OP: &str = "diff";
        if n == 0 {
            return Ok(self.clone());
        }
        if self.ndim() == 0 {
            return Err(Error::invalid(
                OP,
                "the input must have at least one dimension, got a 0-d array",
            ));
        }
        let nd = self.ndim();
        let ax = normalize_axis(OP, axis, nd)?;
        let edge = |e: &Self| -> Result<Self> {
            self.check_device(e, OP)?;
            if e.ndim() == 0 {
                let mut shape = self.shape().to_vec();
                shape[ax] = 1;
                return e.broadcast_to(&shape);
            }
            let fits =
                e.ndim() == nd && (0..nd).all(|i| i == ax || e.shape()[i] == self.shape()[i]);
            if !fits {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: self.shape().to_vec(),
                    rhs: e.shape().to_vec(),
                });
            }
            Ok(e.clone())
        };
        let mut a = if prepend.is_none() && append.is_none() {
            self.clone()
        } else {
            let mut parts = Vec::with_capacity(3);
            if let Some(p) = prepend {
                parts.push(edge(p)?);
            }
            parts.push(self.clone());
            if let Some(p) = append {
                parts.push(edge(p)?);
            }
            let refs: Vec<&Self> = parts.iter().collect();
            Self::concatenate(&refs, ax as isize)?
        };
        for _ in 0..n.min(a.shape()[ax]) {
            let hi = a.slice(&along(nd, ax, Some(1), None))?;
            let lo = a.slice(&along(nd, ax, None, Some(-1)))?;
            a = hi.try_sub(&lo)?;
        }
        Ok(a)
    }

    /// Differences of consecutive elements of the flattened array, with `to_begin` before
    /// them and `to_end` after them, both flattened (NumPy's `np.ediff1d`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 4, 7], &[2, 2], dev)?;
    /// let end = Array::<i32, B>::from_vec(vec![88, 99], &[2], dev)?;
    /// assert_eq!(a.ediff1d(Some(&end), None)?.to_vec()?, vec![1, 2, 3, 88, 99]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn ediff1d(&self, to_end: Option<&Self>, to_begin: Option<&Self>) -> Result<Self> {
        let d = self.ravel()?.diff(1, 0)?;
        let mut parts = Vec::with_capacity(3);
        if let Some(b) = to_begin {
            self.check_device(b, "ediff1d")?;
            parts.push(b.ravel()?);
        }
        parts.push(d);
        if let Some(e) = to_end {
            self.check_device(e, "ediff1d")?;
            parts.push(e.ravel()?);
        }
        if parts.len() == 1 {
            return Ok(parts.pop().expect("one part"));
        }
        let refs: Vec<&Self> = parts.iter().collect();
        Self::concatenate(&refs, 0)
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The integral along `axis` by the trapezoidal rule (NumPy's `np.trapezoid(y, x, dx,
    /// axis)`): `sum(d * (y[1:] + y[:-1]) / 2)`, where `d` is `dx` when `x` is `None`, the
    /// differences of `x` when `x` is 1-d (its length must be the axis's), or
    /// `diff(x, axis)` otherwise (`x` broadcast against `y`). An axis of fewer than two
    /// points integrates to 0.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let y = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0], &[3], dev)?;
    /// assert_eq!(y.trapezoid(None, 1.0, -1)?.item()?, 4.0);
    /// let x = Array::<f64, B>::from_vec(vec![4.0, 6.0, 8.0], &[3], dev)?;
    /// assert_eq!(y.trapezoid(Some(&x), 1.0, 0)?.item()?, 8.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn trapezoid(&self, x: Option<&Self>, dx: f64, axis: isize) -> Result<Self> {
        const OP: &str = "trapezoid";
        if self.ndim() == 0 {
            return Err(Error::invalid(
                OP,
                "y must have at least one dimension, got a 0-d array",
            ));
        }
        let nd = self.ndim();
        let ax = normalize_axis(OP, axis, nd)?;
        let hi = self.slice(&along(nd, ax, Some(1), None))?;
        let lo = self.slice(&along(nd, ax, None, Some(-1)))?;
        let pairs = hi.try_add(&lo)?;
        let terms = match x {
            None => pairs.scalar_op(Mul, T::from_scalar(Scalar::F64(dx)))?,
            Some(x) => {
                self.check_device(x, OP)?;
                let d = if x.ndim() == 1 {
                    if x.shape()[0] != self.shape()[ax] {
                        return Err(Error::invalid(
                            OP,
                            format!(
                                "a 1-d x must have the length of y's axis {ax} ({}), got {}",
                                self.shape()[ax],
                                x.shape()[0]
                            ),
                        ));
                    }
                    let mut shape = vec![1isize; nd];
                    shape[ax] = -1;
                    x.diff(1, 0)?.reshape(&shape)?
                } else {
                    x.diff(1, axis)?
                };
                d.try_mul(&pairs)?
            }
        };
        terms
            .scalar_op(Mul, T::from_scalar(Scalar::F64(0.5)))?
            .sum_axes(ax as isize, false)
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Whether both arrays have the same shape and the same elements, as a 0-d `bool` array
    /// on the device (NumPy's `np.array_equal`; CuPy's returns a 0-d array too, so nothing
    /// leaves the device). With `equal_nan`, NaNs in the same places count as equal (for
    /// complex numbers, a NaN in either part).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev)?;
    /// assert!(!a.array_equal(&a, false)?.item()?);
    /// assert!(a.array_equal(&a, true)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn array_equal(&self, other: &Self, equal_nan: bool) -> Result<Array<bool, B>> {
        self.check_device(other, "array_equal")?;
        if self.shape() != other.shape() {
            return Array::from_vec(vec![false], &[], self.device());
        }
        let mut same = self.eq(other)?;
        if equal_nan {
            let both_nan = self.isnan()?.logical_and(&other.isnan()?)?;
            same = same.logical_or(&both_nan)?;
        }
        same.all()
    }

    /// Whether the arrays broadcast to one shape and are equal element by element there,
    /// as a 0-d `bool` array (NumPy's `np.array_equiv`); shapes that do not broadcast give
    /// `false`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let row = Array::<i32, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let m = Array::<i32, B>::from_vec(vec![1, 2, 1, 2], &[2, 2], dev)?;
    /// assert!(row.array_equiv(&m)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn array_equiv(&self, other: &Self) -> Result<Array<bool, B>> {
        self.check_device(other, "array_equiv")?;
        if crate::layout::broadcast_shapes("array_equiv", self.shape(), other.shape()).is_err() {
            return Array::from_vec(vec![false], &[], self.device());
        }
        self.eq(other)?.all()
    }
}
