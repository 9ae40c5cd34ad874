//! Linear systems and inverses: `solve`, `inv`, `det`, `slogdet` (from the LU
//! factorisation), `pinv`, `lstsq`, `matrix_rank` (from the SVD) and `matrix_power`.

use super::{Batch, from_batch, with_tail};
use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Float, Inexact};
use crate::error::{Error, Result};
use crate::layout::{broadcast_shapes, shape_size};
use crate::ops::{Div, Gt, Mul};
use num_traits::{One, Zero};

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// LU factors of non-empty square matrices (of their transposes with `transposed`,
    /// which saves the transposing copy where `A^T` serves) and, per matrix (shape: the
    /// leading axes), whether it is exactly singular (a zero on the diagonal of `U`).
    #[allow(clippy::type_complexity)]
    fn lu_singular(
        &self,
        op: &'static str,
        transposed: bool,
    ) -> Result<(Batch<T, B>, B::Buffer<i32>, Array<bool, B>)> {
        let (_, n) = self.square_dims(op)?;
        let a = if transposed {
            self.to_batch_transposed(op)?
        } else {
            self.to_batch(op)?
        };
        let dev = self.device();
        let (lu, ipiv) = dev.lu_factor(&a.buf, a.count(), n)?;
        let lu = Batch { buf: lu, ..a };
        let f = from_batch(lu.buf.clone(), &lu.lead, n, n, dev)?;
        let zero = f.diagonals().eq_scalar(T::zero())?.any_axes(-1, false)?;
        Ok((lu, ipiv, zero))
    }

    /// Per matrix (shape: the leading axes), whether it is exactly singular.
    pub(crate) fn singular_mask(&self, op: &'static str) -> Result<Array<bool, B>> {
        let (lead, n) = self.square_dims(op)?;
        if n == 0 || shape_size(&lead) == 0 {
            return Array::zeros(&lead, self.device());
        }
        Ok(self.lu_singular(op, true)?.2)
    }

    /// LU factors of square matrices (see [`Array::lu_singular`] for `transposed`), with an
    /// error naming the first exactly singular one. One value comes back to the host; the
    /// per-matrix flags only when one is set.
    fn lu_checked(
        &self,
        op: &'static str,
        transposed: bool,
    ) -> Result<(Batch<T, B>, B::Buffer<i32>)> {
        let (lu, ipiv, zero) = self.lu_singular(op, transposed)?;
        if zero.any()?.item()? {
            let singular = zero.to_vec()?;
            let batch = singular.iter().position(|&s| s).unwrap_or(0);
            return Err(Error::LinAlg {
                op,
                msg: "singular matrix".into(),
                batch,
            });
        }
        Ok((lu, ipiv))
    }

    /// The solution `x` of `self @ x = b` (NumPy's `linalg.solve`): `b` of shape `[n]` is one
    /// right-hand side, of shape `[..., n, k]` a stack of `k` columns; the leading axes of
    /// `self` and `b` broadcast.
    ///
    /// # Errors
    /// [`Error::LinAlg`] naming the first singular matrix; [`Error::InvalidArgument`] for
    /// non-square `self` or mismatched sizes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, 1.0, 1.0, 2.0], &[2, 2], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![9.0, 8.0], &[2], dev)?;
    /// let x = a.solve(&b)?.to_vec()?;
    /// assert!((x[0] - 2.0).abs() < 1e-12 && (x[1] - 3.0).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn solve(&self, b: &Self) -> Result<Self> {
        const OP: &str = "solve";
        self.lapack_dtype(OP)?;
        self.check_device(b, OP)?;
        let (lead_a, n) = self.square_dims(OP)?;
        let vector = b.ndim() == 1;
        let b2 = if vector {
            b.expand_dims(-1)?
        } else {
            b.clone()
        };
        let (lead_b, nb, k) = b2.matrix_dims(OP)?;
        if nb != n {
            return Err(Error::invalid(
                OP,
                format!(
                    "b has {nb} rows but a is {n} x {n} (shapes {:?} and {:?})",
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        let lead = broadcast_shapes(OP, &lead_a, &lead_b).map_err(|_| Error::Broadcast {
            op: OP,
            lhs: self.shape().to_vec(),
            rhs: b.shape().to_vec(),
        })?;
        let a = self.broadcast_to(&with_tail(&lead, &[n, n]))?;
        let b2 = b2.broadcast_to(&with_tail(&lead, &[n, k]))?;
        let dev = self.device();
        let x = if n == 0 || k == 0 || shape_size(&lead) == 0 {
            Array::zeros(&with_tail(&lead, &[n, k]), dev)?
        } else {
            let (lu, ipiv) = a.lu_checked(OP, false)?;
            let bb = b2.to_batch(OP)?;
            let x = dev.lu_solve(&lu.buf, &ipiv, &bb.buf, lu.count(), n, k)?;
            from_batch(x, &lead, n, k, dev)?
        };
        if vector { x.squeeze(-1) } else { Ok(x) }
    }

    /// The inverse of square matrices (NumPy's `linalg.inv`).
    ///
    /// # Errors
    /// [`Error::LinAlg`] naming the first singular matrix.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, 0.0, 0.0, 4.0], &[2, 2], dev)?;
    /// assert_eq!(a.inv()?.to_vec()?, vec![0.5, 0.0, 0.0, 0.25]);
    /// assert!(Array::<f64, B>::zeros(&[2, 2], dev)?.inv().is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn inv(&self) -> Result<Self> {
        const OP: &str = "inv";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(self.shape(), dev);
        }
        // inv(A) = inv(A^T)^T: the inverse of the transposes, column-major, is the inverse
        // in row-major order, so neither side needs a transposing copy.
        let (lu, ipiv) = self.lu_checked(OP, true)?;
        let x = dev.lu_inverse(&lu.buf, &ipiv, lu.count(), n)?;
        Ok(Array::from_contiguous(x, &with_tail(&lead, &[n, n]), dev))
    }

    /// The sign of each permutation of an LU factorisation: `[lead]` of `1` or `-1`.
    fn pivot_sign(&self, ipiv: B::Buffer<i32>, lead: &[usize], n: usize) -> Result<Self> {
        let dev = self.device();
        let piv = Array::<i32, B>::from_contiguous(ipiv, &with_tail(lead, &[n]), dev);
        let steps = Array::<i32, B>::arange(1, n as i32 + 1, 1, dev)?;
        let swaps = piv.ne(&steps)?.count_nonzero_axes(-1, false)?;
        let odd = swaps.remainder(&Array::scalar(2i64, dev)?)?.eq_scalar(1)?;
        let one = Array::scalar(T::one(), dev)?;
        Array::where_(&odd, &one.try_neg()?, &one)
    }

    /// The determinant of square matrices (NumPy's `linalg.det`), from the LU
    /// factorisation; exactly singular matrices give 0, `0 x 0` matrices 1.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// assert!((a.det()?.item()? + 2.0).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn det(&self) -> Result<Self> {
        const OP: &str = "det";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::ones(&lead, dev);
        }
        // det(A) = det(A^T): the transposes need no transposing copy.
        let a = self.to_batch_transposed(OP)?;
        let (lu, ipiv) = dev.lu_factor(&a.buf, a.count(), n)?;
        let f = from_batch(lu, &lead, n, n, dev)?;
        let prod = f.diagonals().prod_axes(-1, false)?;
        let det = prod.try_mul(&self.pivot_sign(ipiv, &lead, n)?)?;
        self.nan_where_nan(det)
    }

    /// `value` with NaN for every matrix of `self` that holds a NaN: LAPACK-style
    /// factorisations may pivot a NaN away or stop at it, so the propagation is explicit.
    fn nan_where_nan<U: Inexact>(&self, value: Array<U, B>) -> Result<Array<U, B>> {
        let has_nan = self.isnan()?.any_axes([-2isize, -1], false)?;
        let nan = U::from_scalar(crate::Scalar::F64(f64::NAN));
        Array::where_(&has_nan, &Array::scalar(nan, self.device())?, &value)
    }

    /// The sign (or, for complex matrices, the phase `det / |det|`) and the natural
    /// logarithm of the absolute value of the determinant (NumPy's `linalg.slogdet`), which
    /// neither overflows nor underflows. Singular matrices give sign 0 and `-inf`, `0 x 0`
    /// matrices sign 1 and 0.
    #[allow(clippy::type_complexity)]
    pub fn slogdet(&self) -> Result<(Self, Array<T::RealPart, B>)> {
        const OP: &str = "slogdet";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Ok((Array::ones(&lead, dev)?, Array::zeros(&lead, dev)?));
        }
        let a = self.to_batch_transposed(OP)?;
        let (lu, ipiv) = dev.lu_factor(&a.buf, a.count(), n)?;
        let d = from_batch(lu, &lead, n, n, dev)?.diagonals();
        let mag = d.abs()?;
        let logabs = mag.log()?.sum_axes(-1, false)?;
        let unit = d.zip_op(Div, &mag.to_complex_like::<T>()?)?;
        let zero = d.eq_scalar(T::zero())?.any_axes(-1, false)?;
        let sign = unit
            .prod_axes(-1, false)?
            .try_mul(&self.pivot_sign(ipiv, &lead, n)?)?;
        let sign = Array::where_(&zero, &Array::scalar(T::zero(), dev)?, &sign)?;
        Ok((self.nan_where_nan(sign)?, self.nan_where_nan(logabs)?))
    }

    /// The Moore-Penrose pseudo-inverse from the SVD (NumPy's `linalg.pinv`): singular
    /// values below `rcond * max(s)` count as zero (`rcond` defaults to 1e-15, NumPy's).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2], dev)?;
    /// let p = a.pinv(None)?;
    /// assert_eq!(p.shape(), &[2, 3]);
    /// assert!(a.matmul(&p)?.matmul(&a)?.allclose(&a, 1e-10, 1e-10, false)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn pinv(&self, rcond: Option<f64>) -> Result<Self> {
        const OP: &str = "pinv";
        self.lapack_dtype(OP)?;
        let (lead, m, n) = self.matrix_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(&with_tail(&lead, &[n, m]), dev);
        }
        let (u, s, vh) = self.svd_as(OP, false)?;
        let rcond = <T::RealPart as num_traits::NumCast>::from(rcond.unwrap_or(1e-15))
            .unwrap_or_else(T::RealPart::zero);
        let cutoff = s.max_axes(-1, true)?.scalar_op(Mul, rcond)?;
        let keep = s.zip_op(Gt, &cutoff)?;
        let sinv = Array::where_(
            &keep,
            &s.scalar_op_rev(Div, T::RealPart::one())?,
            &Array::scalar(T::RealPart::zero(), dev)?,
        )?;
        // pinv = V diag(1/s) U^H: scale the rows of Vh, then transpose-conjugate both.
        let scaled = vh.try_mul(&sinv.to_complex_like::<T>()?.expand_dims(-1)?)?;
        scaled.conj_t()?.matmul(&u.conj_t()?)
    }

    /// The conjugate transpose of the last two axes (a view for real types).
    pub(crate) fn conj_t(&self) -> Result<Self> {
        let t = self.swapaxes(-1, -2)?;
        if T::DTYPE.is_complex() {
            t.conj()
        } else {
            Ok(t)
        }
    }

    /// The rank of matrices: the number of singular values above `tol` (default
    /// `max(s) * max(m, n) * eps`, NumPy's). For a 1-d array, 1 unless every element is 0.
    /// Shape: the leading axes. Empty matrices have rank 0.
    ///
    /// # Errors
    /// [`Error::LinAlg`] when a matrix holds a NaN or an infinity.
    pub fn matrix_rank(&self, tol: Option<f64>) -> Result<Array<i64, B>> {
        const OP: &str = "matrix_rank";
        self.lapack_dtype(OP)?;
        let dev = self.device();
        if self.ndim() < 2 {
            let nz = self.ne(&Array::scalar(T::zero(), dev)?)?.any()?;
            return nz.astype::<i64>();
        }
        let (lead, m, n) = self.matrix_dims(OP)?;
        if self.size() == 0 {
            return Array::zeros(&lead, dev);
        }
        let s = self.svdvals_as(OP)?;
        let cutoff = match tol {
            Some(t) => Array::scalar(real::<T>(t), dev)?,
            None => s.max_axes(-1, true)?.scalar_op(
                Mul,
                real::<T>(m.max(n) as f64) * <T::RealPart as num_traits::Float>::epsilon(),
            )?,
        };
        s.zip_op(Gt, &cutoff)?.count_nonzero_axes(-1, false)
    }

    /// The least-squares solution of `self @ x = b` for a 2-d `self` of shape `[m, n]` and
    /// `b` of shape `[m]` or `[m, k]`, through the SVD (NumPy's `linalg.lstsq`). Returns
    /// `(x, residuals, rank, s)`: `residuals` holds the squared 2-norm of each column's
    /// residual when `rank == n < m`, else it is empty; singular values below
    /// `rcond * max(s)` count as zero (`rcond` defaults to `eps * max(m, n)`).
    ///
    /// # Errors
    /// [`Error::LinAlg`] when `self` or `b` holds a NaN or an infinity;
    /// [`Error::InvalidArgument`] for wrong dimensions.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // Fit y = c0 + c1 t through (0, 1), (1, 3), (2, 5), (3, 7): exactly c = (1, 2).
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 1.0, 3.0], &[4, 2], dev)?;
    /// let y = Array::<f64, B>::from_vec(vec![1.0, 3.0, 5.0, 7.0], &[4], dev)?;
    /// let (c, res, rank, _s) = a.lstsq(&y, None)?;
    /// let c = c.to_vec()?;
    /// assert!((c[0] - 1.0).abs() < 1e-12 && (c[1] - 2.0).abs() < 1e-12);
    /// assert_eq!(rank, 2);
    /// assert!(res.item()? < 1e-20);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn lstsq(
        &self,
        b: &Self,
        rcond: Option<f64>,
    ) -> Result<(Self, Array<T::RealPart, B>, usize, Array<T::RealPart, B>)> {
        const OP: &str = "lstsq";
        self.lapack_dtype(OP)?;
        self.check_device(b, OP)?;
        if self.ndim() != 2 || !(1..=2).contains(&b.ndim()) {
            return Err(Error::invalid(
                OP,
                format!(
                    "a must be 2-d and b 1-d or 2-d, got shapes {:?} and {:?}",
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        let (m, n) = (self.shape()[0], self.shape()[1]);
        if b.shape()[0] != m {
            return Err(Error::invalid(
                OP,
                format!(
                    "incompatible dimensions: a is {:?}, b is {:?}",
                    self.shape(),
                    b.shape()
                ),
            ));
        }
        let dev = self.device();
        let vector = b.ndim() == 1;
        let b2 = if vector {
            b.expand_dims(-1)?
        } else {
            b.clone()
        };
        if m == 0 || n == 0 {
            return lstsq_empty(b, &b2, n, dev);
        }
        b2.check_finite(OP)?;
        let (u, s, vh) = self.svd_as(OP, false)?;
        let smax = s.max_or_zero()?;
        let rc = rcond.unwrap_or(f64::EPSILON * m.max(n) as f64);
        let rc = real::<T>(rc);
        let sv = s.to_vec()?;
        let cutoff = smax * rc;
        let rank = sv.iter().filter(|&&x| x > cutoff).count();
        let sinv: Vec<T::RealPart> = sv
            .iter()
            .map(|&x| {
                if x > cutoff {
                    T::RealPart::one() / x
                } else {
                    T::RealPart::zero()
                }
            })
            .collect();
        let sinv = Array::from_vec(sinv, &[sv.len()], dev)?.to_complex_like::<T>()?;
        // x = V diag(1/s) U^H b
        let uhb = u.conj_t()?.matmul(&b2)?;
        let x = vh.conj_t()?.matmul(&uhb.try_mul(&sinv.expand_dims(-1)?)?)?;
        let residuals = if rank == n && m > n {
            let r = self.matmul(&x)?.try_sub(&b2)?.abs()?;
            r.try_mul(&r)?.sum_axes(0, false)?
        } else {
            Array::zeros(&[0], dev)?
        };
        let x = if vector { x.squeeze(-1)? } else { x };
        let residuals = if vector && residuals.size() == 1 {
            residuals.reshape(&[1])?
        } else {
            residuals
        };
        Ok((x, residuals, rank, s))
    }

    /// `self` raised to the integer power `n` by repeated squaring (NumPy's
    /// `linalg.matrix_power`): `n = 0` gives identities, negative `n` powers of the inverse.
    ///
    /// # Errors
    /// [`Error::LinAlg`] for a negative power of a singular matrix.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 1.0, 1.0, 0.0], &[2, 2], dev)?;
    /// assert_eq!(a.matrix_power(10)?.to_vec()?, vec![89.0, 55.0, 55.0, 34.0]);
    /// assert_eq!(a.matrix_power(0)?.to_vec()?, vec![1.0, 0.0, 0.0, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn matrix_power(&self, n: i64) -> Result<Self> {
        const OP: &str = "matrix_power";
        let (lead, k) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(self.shape(), dev);
        }
        if n == 0 {
            let eye = Array::<T, B>::eye(k, None, 0, dev)?;
            return eye.broadcast_to(&with_tail(&lead, &[k, k]))?.copy();
        }
        let mut base = if n < 0 { self.inv()? } else { self.clone() };
        let mut e = n.unsigned_abs();
        let mut acc: Option<Self> = None;
        loop {
            if e & 1 == 1 {
                acc = Some(match acc {
                    None => base.clone(),
                    Some(a) => a.matmul(&base)?,
                });
            }
            e >>= 1;
            if e == 0 {
                break;
            }
            base = base.matmul(&base)?;
        }
        match acc {
            Some(a) => Ok(a),
            None => Err(Error::Backend {
                op: OP,
                msg: "empty power".into(),
            }),
        }
    }
}

/// [`Array::lstsq`] of an empty `[m, n]` matrix (`m` or `n` zero) and `b2`, `b` as a
/// column matrix `[m, k]`: `x` is zero and of rank 0, the residuals (when `m > n = 0`) are
/// the squared norms of the columns of `b`, as NumPy's.
#[allow(clippy::type_complexity)]
fn lstsq_empty<T: Inexact, B: ArrayBackend>(
    b: &Array<T, B>,
    b2: &Array<T, B>,
    n: usize,
    dev: &B,
) -> Result<(
    Array<T, B>,
    Array<T::RealPart, B>,
    usize,
    Array<T::RealPart, B>,
)> {
    let (m, k) = (b2.shape()[0], b2.shape()[1]);
    let x_shape: Vec<usize> = if b.ndim() == 1 { vec![n] } else { vec![n, k] };
    let residuals = if m > n {
        let r = b2.abs()?;
        let r = r.try_mul(&r)?.sum_axes(0, false)?;
        if b.ndim() == 1 { r.reshape(&[1])? } else { r }
    } else {
        Array::zeros(&[0], dev)?
    };
    Ok((
        Array::zeros(&x_shape, dev)?,
        residuals,
        0,
        Array::zeros(&[0], dev)?,
    ))
}

/// `x` in the real type of `T`.
fn real<T: Inexact>(x: f64) -> T::RealPart {
    <T::RealPart as num_traits::NumCast>::from(x)
        .unwrap_or_else(<T::RealPart as num_traits::Float>::nan)
}

impl<R: Float, B: ArrayBackend> Array<R, B> {
    /// Real values as the element type `T` with the same real type (themselves for real `T`,
    /// with a zero imaginary part for complex `T`).
    pub(crate) fn to_complex_like<T: Inexact<RealPart = R>>(&self) -> Result<Array<T, B>> {
        self.astype::<T>()
    }

    /// The largest element, or 0 for an empty array (read on the host).
    fn max_or_zero(&self) -> Result<R> {
        if self.size() == 0 {
            return Ok(R::zero());
        }
        self.max()?.item()
    }
}
