//! Decompositions: Cholesky, QR, SVD, and the Hermitian and general eigen-decompositions,
//! each batched over the leading axes.

use super::{check_info, from_batch, with_tail};
use crate::array::Array;
use crate::backend::{ArrayBackend, ComplexOf};
use crate::dtype::Inexact;
use crate::error::Result;

/// What [`Array::qr`] returns, as NumPy's `mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum QrMode {
    /// `Q` is `m x k` and `R` is `k x n`, `k = min(m, n)` (NumPy's default, `"reduced"`).
    #[default]
    Reduced,
    /// `Q` is `m x m` and `R` is `m x n` (`"complete"`).
    Complete,
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The lower-triangular Cholesky factor `L` of Hermitian positive-definite matrices,
    /// `A = L L^H` (NumPy's `linalg.cholesky`; only the lower triangle of `A` is read).
    ///
    /// # Errors
    /// [`Error::LinAlg`](crate::Error::LinAlg) naming the first matrix that is not positive
    /// definite or holds a NaN or an infinity; [`Error::InvalidArgument`](crate::Error::InvalidArgument) for non-square or
    /// fewer than two dimensions.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![4.0, 2.0, 2.0, 3.0], &[2, 2], dev)?;
    /// let l = a.cholesky()?;
    /// let back = l.matmul(&l.t())?.to_vec()?;
    /// assert!(back.iter().zip([4.0, 2.0, 2.0, 3.0]).all(|(x, y)| (x - y).abs() < 1e-12));
    /// assert!(Array::<f64, B>::from_vec(vec![1.0, 2.0, 2.0, 1.0], &[2, 2], dev)?
    ///     .cholesky()
    ///     .is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn cholesky(&self) -> Result<Self> {
        const OP: &str = "cholesky";
        self.lapack_dtype(OP)?;
        let (_, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(self.shape(), dev);
        }
        // Only the lower triangle is read: a NaN above the diagonal is no error. The whole
        // array is tested first, the lower triangle alone only when that test fails.
        if self.check_finite(OP).is_err() {
            self.tril(0)?.check_finite(OP)?;
        }
        let a = self.to_batch(OP)?;
        let (l, info) = dev.cholesky(&a.buf, a.count(), n)?;
        check_info(dev, &info, a.count(), OP, |k| {
            format!("matrix is not positive definite (leading minor of order {k})")
        })?;
        from_batch(l, &a.lead, n, n, dev)
    }

    /// The QR decomposition `A = Q R` with orthonormal columns of `Q` and upper-triangular
    /// `R` (NumPy's `linalg.qr`), reduced or complete.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2], dev)?;
    /// let (q, r) = a.qr(QrMode::Reduced)?;
    /// assert_eq!((q.shape(), r.shape()), (&[3, 2][..], &[2, 2][..]));
    /// assert!(q.matmul(&r)?.allclose(&a, 1e-12, 1e-12, false)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn qr(&self, mode: QrMode) -> Result<(Self, Self)> {
        const OP: &str = "qr";
        self.lapack_dtype(OP)?;
        let a = self.to_batch(OP)?;
        let (m, n) = (a.rows, a.cols);
        let complete = mode == QrMode::Complete;
        let k = if complete { m } else { m.min(n) };
        let dev = self.device();
        if self.size() == 0 {
            let q = if complete {
                Array::eyes(&a.lead, m, dev)?
            } else {
                Array::zeros(&with_tail(&a.lead, &[m, k]), dev)?
            };
            return Ok((q, Array::zeros(&with_tail(&a.lead, &[k, n]), dev)?));
        }
        let (q, r) = dev.qr(&a.buf, a.count(), m, n, complete)?;
        Ok((
            from_batch(q, &a.lead, m, k, dev)?,
            from_batch(r, &a.lead, k, n, dev)?,
        ))
    }

    /// The singular value decomposition `A = U diag(S) Vh` (NumPy's `linalg.svd`): `S`
    /// non-negative and non-increasing; `U` is `m x m` and `Vh` `n x n` with
    /// `full_matrices`, else `m x k` and `k x n`, `k = min(m, n)`.
    ///
    /// # Errors
    /// [`Error::LinAlg`](crate::Error::LinAlg) when a matrix holds a NaN or an infinity or
    /// the iteration did not converge.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, 0.0, 0.0, -2.0], &[2, 2], dev)?;
    /// let (u, s, vh) = a.svd(false)?;
    /// assert_eq!(s.to_vec()?, vec![3.0, 2.0]);
    /// let us = u.try_mul(&s.expand_dims(0)?)?;
    /// assert!(us.matmul(&vh)?.allclose(&a, 1e-12, 1e-12, false)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn svd(&self, full_matrices: bool) -> Result<(Self, Array<T::RealPart, B>, Self)> {
        self.svd_as("svd", full_matrices)
    }

    /// [`Array::svd`] on behalf of the op `op` (`pinv`, `lstsq`, ...), which its errors name.
    #[allow(clippy::type_complexity)]
    pub(crate) fn svd_as(
        &self,
        op: &'static str,
        full_matrices: bool,
    ) -> Result<(Self, Array<T::RealPart, B>, Self)> {
        self.lapack_dtype(op)?;
        let a = self.to_batch(op)?;
        let (m, n, k) = (a.rows, a.cols, a.rows.min(a.cols));
        let dev = self.device();
        if self.size() == 0 {
            let s = Array::zeros(&with_tail(&a.lead, &[k]), dev)?;
            return Ok(if full_matrices {
                (
                    Array::eyes(&a.lead, m, dev)?,
                    s,
                    Array::eyes(&a.lead, n, dev)?,
                )
            } else {
                (
                    Array::zeros(&with_tail(&a.lead, &[m, k]), dev)?,
                    s,
                    Array::zeros(&with_tail(&a.lead, &[k, n]), dev)?,
                )
            });
        }
        self.check_finite(op)?;
        let f = dev.svd(&a.buf, a.count(), m, n, Some(full_matrices))?;
        check_info(dev, &f.info, a.count(), op, |_| {
            "SVD did not converge".into()
        })?;
        let (cu, rv) = if full_matrices { (m, n) } else { (k, k) };
        let (Some(u), Some(vh)) = (f.u, f.vh) else {
            return Err(crate::Error::Backend {
                op,
                msg: "the backend returned no singular vectors".into(),
            });
        };
        Ok((
            from_batch(u, &a.lead, m, cu, dev)?,
            Array::from_contiguous(f.s, &with_tail(&a.lead, &[k]), dev),
            from_batch(vh, &a.lead, rv, n, dev)?,
        ))
    }

    /// The singular values alone, non-increasing, shape `lead + [min(m, n)]` (NumPy's
    /// `linalg.svdvals`, `svd(a, compute_uv=False)`).
    pub fn svdvals(&self) -> Result<Array<T::RealPart, B>> {
        self.svdvals_as("svdvals")
    }

    /// [`Array::svdvals`] on behalf of the op `op` (`matrix_rank`, `cond`, ...), which its
    /// errors name.
    pub(crate) fn svdvals_as(&self, op: &'static str) -> Result<Array<T::RealPart, B>> {
        self.lapack_dtype(op)?;
        let a = self.to_batch(op)?;
        let k = a.rows.min(a.cols);
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(&with_tail(&a.lead, &[k]), dev);
        }
        self.check_finite(op)?;
        let f = dev.svd(&a.buf, a.count(), a.rows, a.cols, None)?;
        check_info(dev, &f.info, a.count(), op, |_| {
            "SVD did not converge".into()
        })?;
        Ok(Array::from_contiguous(f.s, &with_tail(&a.lead, &[k]), dev))
    }

    /// Eigenvalues (ascending) and orthonormal eigenvectors (the columns of `V`) of Hermitian
    /// matrices, reading the lower triangle (NumPy's `linalg.eigh` with `UPLO='L'`).
    ///
    /// # Errors
    /// [`Error::LinAlg`](crate::Error::LinAlg) when a matrix holds a NaN or an infinity or
    /// the iteration did not converge.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, 1.0, 1.0, 2.0], &[2, 2], dev)?;
    /// let (w, v) = a.eigh()?;
    /// assert!(w.allclose(&Array::from_vec(vec![1.0, 3.0], &[2], dev)?, 1e-12, 1e-12, false)?.item()?);
    /// assert!(a.matmul(&v)?.allclose(&v.try_mul(&w)?, 1e-12, 1e-12, false)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn eigh(&self) -> Result<(Array<T::RealPart, B>, Self)> {
        const OP: &str = "eigh";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Ok((
                Array::zeros(&with_tail(&lead, &[n]), dev)?,
                Array::zeros(self.shape(), dev)?,
            ));
        }
        // Only the lower triangle is read: a NaN above the diagonal is no error. The whole
        // array is tested first, the lower triangle alone only when that test fails.
        if self.check_finite(OP).is_err() {
            self.tril(0)?.check_finite(OP)?;
        }
        let a = self.to_batch(OP)?;
        let f = dev.eigh(&a.buf, a.count(), n, true)?;
        check_info(dev, &f.info, a.count(), OP, |_| {
            "eigenvalues did not converge".into()
        })?;
        let Some(v) = f.v else {
            return Err(crate::Error::Backend {
                op: OP,
                msg: "the backend returned no eigenvectors".into(),
            });
        };
        Ok((
            Array::from_contiguous(f.w, &with_tail(&a.lead, &[n]), dev),
            from_batch(v, &a.lead, n, n, dev)?,
        ))
    }

    /// The eigenvalues of Hermitian matrices, ascending (NumPy's `linalg.eigvalsh`).
    pub fn eigvalsh(&self) -> Result<Array<T::RealPart, B>> {
        const OP: &str = "eigvalsh";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(&with_tail(&lead, &[n]), dev);
        }
        // Only the lower triangle is read: a NaN above the diagonal is no error. The whole
        // array is tested first, the lower triangle alone only when that test fails.
        if self.check_finite(OP).is_err() {
            self.tril(0)?.check_finite(OP)?;
        }
        let a = self.to_batch(OP)?;
        let f = dev.eigh(&a.buf, a.count(), n, false)?;
        check_info(dev, &f.info, a.count(), OP, |_| {
            "eigenvalues did not converge".into()
        })?;
        Ok(Array::from_contiguous(f.w, &with_tail(&a.lead, &[n]), dev))
    }

    /// Eigenvalues and right eigenvectors (columns of unit norm, largest component real) of
    /// general square matrices, complex even for real input (NumPy's `linalg.eig`, whose
    /// result is complex only when it must be; here it always is). The order of the
    /// eigenvalues is unspecified.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // A rotation by 90 degrees: eigenvalues +i and -i.
    /// let a = Array::<f64, B>::from_vec(vec![0.0, -1.0, 1.0, 0.0], &[2, 2], dev)?;
    /// let mut w = a.eigvals()?.to_vec()?;
    /// w.sort_by(|x, y| x.im.total_cmp(&y.im));
    /// assert!((w[0] - c128::new(0.0, -1.0)).norm() < 1e-12);
    /// assert!((w[1] - c128::new(0.0, 1.0)).norm() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn eig(&self) -> Result<(Array<ComplexOf<T>, B>, Array<ComplexOf<T>, B>)> {
        const OP: &str = "eig";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Ok((
                Array::zeros(&with_tail(&lead, &[n]), dev)?,
                Array::zeros(self.shape(), dev)?,
            ));
        }
        self.check_finite(OP)?;
        let a = self.to_batch(OP)?;
        let f = dev.eig(&a.buf, a.count(), n, true)?;
        check_info(dev, &f.info, a.count(), OP, |_| {
            "eigenvalues did not converge".into()
        })?;
        let Some(v) = f.v else {
            return Err(crate::Error::Backend {
                op: OP,
                msg: "the backend returned no eigenvectors".into(),
            });
        };
        Ok((
            Array::from_contiguous(f.w, &with_tail(&a.lead, &[n]), dev),
            from_batch(v, &a.lead, n, n, dev)?,
        ))
    }

    /// The eigenvalues of general square matrices, complex, in no particular order (NumPy's
    /// `linalg.eigvals`).
    pub fn eigvals(&self) -> Result<Array<ComplexOf<T>, B>> {
        const OP: &str = "eigvals";
        self.lapack_dtype(OP)?;
        let (lead, n) = self.square_dims(OP)?;
        let dev = self.device();
        if self.size() == 0 {
            return Array::zeros(&with_tail(&lead, &[n]), dev);
        }
        self.check_finite(OP)?;
        let a = self.to_batch(OP)?;
        let f = dev.eig(&a.buf, a.count(), n, false)?;
        check_info(dev, &f.info, a.count(), OP, |_| {
            "eigenvalues did not converge".into()
        })?;
        Ok(Array::from_contiguous(f.w, &with_tail(&a.lead, &[n]), dev))
    }
}
