//! Norms and condition numbers: `norm` (NumPy's default: the 2-norm of the flattened array),
//! `vector_norm` (any order along any axes), `matrix_norm` (Frobenius, nuclear, 1, -1, 2,
//! -2, inf, -inf over the last two axes) and `cond`.

use crate::array::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::Inexact;
use crate::error::{Error, Result};
use crate::ops::{Div, Max, Min, Ne, Pow};
use num_traits::{NumCast, Zero};

/// The matrix norms of [`Array::matrix_norm`] and [`Array::cond`], NumPy's `ord` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixNorm {
    /// `'fro'`: the square root of the sum of squared magnitudes.
    Frobenius,
    /// `'nuc'`: the sum of the singular values.
    Nuclear,
    /// `1`: the largest column sum of magnitudes.
    One,
    /// `-1`: the smallest column sum of magnitudes.
    NegOne,
    /// `2`: the largest singular value.
    Two,
    /// `-2`: the smallest singular value.
    NegTwo,
    /// `inf`: the largest row sum of magnitudes.
    Inf,
    /// `-inf`: the smallest row sum of magnitudes.
    NegInf,
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The 2-norm of the flattened array, `sqrt(sum(|x|^2))` (NumPy's `linalg.norm(x)`; the
    /// Frobenius norm of a matrix). A 0-d array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![3.0, 4.0], &[2], dev)?;
    /// assert_eq!(x.norm()?.item()?, 5.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn norm(&self) -> Result<Array<T::RealPart, B>> {
        self.vector_norm(2.0, Axes::All, false)
    }

    /// The vector norm of order `ord` along `axes` (NumPy's `linalg.vector_norm`): `inf` is
    /// the largest magnitude, `-inf` the smallest, `0` the number of non-zero elements, any
    /// other `p` is `sum(|x|^p)^(1/p)`. The norms of empty vectors are 0, except for `-inf`
    /// (an error, as NumPy's).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![3.0, -4.0, 0.0, 1.0], &[2, 2], dev)?;
    /// assert_eq!(x.vector_norm(1.0, 1, false)?.to_vec()?, vec![7.0, 1.0]);
    /// assert_eq!(x.vector_norm(f64::INFINITY, Axes::All, false)?.item()?, 4.0);
    /// assert_eq!(x.vector_norm(0.0, Axes::All, false)?.item()?, 3.0);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn vector_norm(
        &self,
        ord: f64,
        axes: impl Into<Axes>,
        keepdims: bool,
    ) -> Result<Array<T::RealPart, B>> {
        const OP: &str = "vector_norm";
        let axes = axes.into();
        let a = self.abs()?;
        let r = |x: f64| {
            <T::RealPart as NumCast>::from(x)
                .unwrap_or_else(<T::RealPart as num_traits::Float>::nan)
        };
        if ord.is_nan() {
            return Err(Error::invalid(OP, "ord must not be NaN"));
        }
        if ord.is_infinite() {
            return if ord < 0.0 {
                a.reduce_no_identity_as(OP, Min, axes, keepdims)
            } else if a.size() == 0 {
                // The largest of no magnitudes is 0: a sum of zeros of the reduced shape.
                a.sum_axes(axes, keepdims)
            } else {
                a.reduce_no_identity_as(OP, Max, axes, keepdims)
            };
        }
        if ord == 0.0 {
            let nz = a.scalar_op(Ne, T::RealPart::zero())?;
            return nz.count_nonzero_axes(axes, keepdims)?.astype();
        }
        if ord == 1.0 {
            return a.sum_axes(axes, keepdims);
        }
        if ord == 2.0 {
            return a.try_mul(&a)?.sum_axes(axes, keepdims)?.sqrt();
        }
        let p = a.scalar_op(Pow, r(ord))?.sum_axes(axes, keepdims)?;
        p.scalar_op(Pow, r(1.0 / ord))
    }

    /// A matrix norm over the last two axes (NumPy's `linalg.matrix_norm`); shape: the
    /// leading axes (with two axes of length 1 kept by `keepdims`). Empty matrices have
    /// norm 0 for the non-negative orders; the negative ones are an error, as NumPy's.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, -2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// assert_eq!(a.matrix_norm(MatrixNorm::One, false)?.item()?, 6.0);
    /// assert_eq!(a.matrix_norm(MatrixNorm::Inf, false)?.item()?, 7.0);
    /// assert!((a.matrix_norm(MatrixNorm::Frobenius, false)?.item()? - 30f64.sqrt()).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn matrix_norm(&self, ord: MatrixNorm, keepdims: bool) -> Result<Array<T::RealPart, B>> {
        const OP: &str = "matrix_norm";
        let (_, m, n) = self.matrix_dims(OP)?;
        let keep = |x: Array<T::RealPart, B>| -> Result<Array<T::RealPart, B>> {
            if keepdims {
                x.expand_dims([-2isize, -1])
            } else {
                Ok(x)
            }
        };
        let empty = m == 0 || n == 0;
        let negative = matches!(
            ord,
            MatrixNorm::NegOne | MatrixNorm::NegTwo | MatrixNorm::NegInf
        );
        if empty && negative {
            return Err(Error::invalid(
                OP,
                format!(
                    "zero-size array to reduction operation minimum which has no identity \
                     (ord={ord:?} of matrices of shape {:?})",
                    self.shape()
                ),
            ));
        }
        if empty || self.size() == 0 {
            let lead = &self.shape()[..self.ndim() - 2];
            return keep(Array::zeros(lead, self.device())?);
        }
        match ord {
            MatrixNorm::Frobenius => self.vector_norm(2.0, [-2isize, -1], keepdims),
            MatrixNorm::Nuclear => keep(self.svdvals_as(OP)?.sum_axes(-1, false)?),
            MatrixNorm::Two | MatrixNorm::NegTwo => {
                let s = self.svdvals_as(OP)?;
                keep(if ord == MatrixNorm::Two {
                    s.max_axes(-1, false)?
                } else {
                    s.min_axes(-1, false)?
                })
            }
            MatrixNorm::One | MatrixNorm::NegOne | MatrixNorm::Inf | MatrixNorm::NegInf => {
                // Column sums (over rows, axis -2) for ±1, row sums (axis -1) for ±inf.
                let (sum_axis, pick_axis) = match ord {
                    MatrixNorm::One | MatrixNorm::NegOne => (-2isize, -1isize),
                    _ => (-1, -2),
                };
                let sums = self.abs()?.sum_axes(sum_axis, true)?;
                let r = match ord {
                    MatrixNorm::One | MatrixNorm::Inf => sums.max_axes(pick_axis, true)?,
                    _ => sums.min_axes(pick_axis, true)?,
                };
                if keepdims {
                    Ok(r)
                } else {
                    r.squeeze([-2isize, -1])
                }
            }
        }
    }

    /// The condition number (NumPy's `linalg.cond`): `None` is the 2-norm ratio
    /// `s_max / s_min` from the singular values; a [`MatrixNorm`] gives
    /// `norm(A) * norm(inv(A))` for square matrices. Singular matrices give inf (NaN for a
    /// matrix norm of a matrix holding a NaN).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for empty matrices (NumPy: "cond is not defined on empty
    /// arrays"); [`Error::LinAlg`] for a NaN or an infinity with the
    /// 2-norms, which come from the SVD.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, 0.0, 0.0, 0.5], &[2, 2], dev)?;
    /// assert!((a.cond(None)?.item()? - 4.0).abs() < 1e-12);
    /// assert!((a.cond(Some(MatrixNorm::One))?.item()? - 4.0).abs() < 1e-12);
    /// let singular = Array::<f64, B>::zeros(&[2, 2], dev)?;
    /// assert_eq!(singular.cond(None)?.item()?, f64::INFINITY);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn cond(&self, p: Option<MatrixNorm>) -> Result<Array<T::RealPart, B>> {
        const OP: &str = "cond";
        self.lapack_dtype(OP)?;
        self.matrix_dims(OP)?;
        if self.size() == 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "cond is not defined on empty arrays (shape {:?})",
                    self.shape()
                ),
            ));
        }
        let dev = self.device();
        let r = match p {
            None | Some(MatrixNorm::Two) | Some(MatrixNorm::NegTwo) => {
                let s = self.svdvals_as(OP)?;
                let (hi, lo) = (
                    s.reduce_no_identity_as(OP, Max, Axes::from(-1isize), false)?,
                    s.reduce_no_identity_as(OP, Min, Axes::from(-1isize), false)?,
                );
                if p == Some(MatrixNorm::NegTwo) {
                    lo.zip_op(Div, &hi)?
                } else {
                    hi.zip_op(Div, &lo)?
                }
            }
            Some(ord) => {
                let (lead, n) = self.square_dims(OP)?;
                // Singular matrices are inverted as identities, then given inf.
                let singular = self.singular_mask(OP)?;
                let eye = Array::eyes(&lead, n, dev)?;
                let wide = singular.expand_dims([-2isize, -1])?;
                let invertible = Array::where_(&wide, &eye, self)?;
                let a = self.matrix_norm(ord, false)?;
                let b = invertible.inv()?.matrix_norm(ord, false)?;
                let inf = Array::scalar(real::<T>(f64::INFINITY), dev)?;
                Array::where_(&singular, &inf, &a.try_mul(&b)?)?
            }
        };
        // As NumPy: NaN (0 / 0, inf * 0) becomes inf unless the matrix holds a NaN.
        let has_nan = self.isnan()?.any_axes([-2isize, -1], false)?;
        let to_inf = r.isnan()?.logical_and(&has_nan.logical_not()?)?;
        let inf = Array::scalar(real::<T>(f64::INFINITY), dev)?;
        Array::where_(&to_inf, &inf, &r)
    }
}

/// `x` in the real type of `T`.
fn real<T: Inexact>(x: f64) -> T::RealPart {
    <T::RealPart as NumCast>::from(x).unwrap_or_else(<T::RealPart as num_traits::Float>::nan)
}
