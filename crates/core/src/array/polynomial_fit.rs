//! Polynomials from and to their roots, and least-squares fits, in NumPy's old
//! `numpy.lib.polynomial` convention (coefficients highest power first): [`Array::roots`]
//! (eigenvalues of the companion matrix), [`Array::poly`] (the polynomial of given roots, or
//! the characteristic polynomial of a square matrix) and [`Array::polyfit`] (a Vandermonde
//! least-squares problem with NumPy's column scaling, optional weights and covariance,
//! through [`Array::lstsq`]). Float and complex types; convert integers with
//! [`Array::astype`] first.

use super::Array;
use super::polynomial::{coef, coeffs_1d, convolve_full, part};
use crate::backend::{ArrayBackend, ComplexOf};
use crate::dtype::{Inexact, Numeric};
use crate::error::{Error, Result};
use crate::ops::Div;
use num_traits::ToPrimitive;

/// Whether [`Array::polyfit`] returns the covariance of the coefficients (NumPy's `cov=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolyCov {
    /// No covariance (`cov=False`).
    #[default]
    No,
    /// The covariance scaled by `residuals / (len(x) - deg - 1)` (`cov=True`).
    Scaled,
    /// The unscaled covariance, for weights that are `1 / sigma` of known errors
    /// (`cov='unscaled'`).
    Unscaled,
}

/// The options of [`Array::polyfit`] (NumPy's `rcond`, `w`, `cov`).
#[derive(Clone)]
pub struct PolyFit<'a, T: Inexact, B: ArrayBackend> {
    /// Singular values below `rcond` times the largest count as zero; `None` is NumPy's
    /// default, `len(x) * eps` of the element type.
    pub rcond: Option<f64>,
    /// Weights applied to the unsquared residual of each point (`1 / sigma` for Gaussian
    /// errors), a 1-d array of `len(x)` values.
    pub w: Option<&'a Array<T, B>>,
    /// Whether to return the covariance, scaled or not.
    pub cov: PolyCov,
}

impl<T: Inexact, B: ArrayBackend> Default for PolyFit<'_, T, B> {
    fn default() -> Self {
        PolyFit {
            rcond: None,
            w: None,
            cov: PolyCov::No,
        }
    }
}

/// What [`Array::polyfit`] returns: the coefficients and everything NumPy's `full=True` and
/// `cov=` give.
#[derive(Clone)]
pub struct PolyFitResult<T: Inexact, B: ArrayBackend> {
    /// The coefficients, highest power first: `[deg + 1]` for a 1-d `y`, `[deg + 1, k]`
    /// (one column per fit) for a 2-d `y`.
    pub coef: Array<T, B>,
    /// The covariance of the coefficients when asked: `[deg + 1, deg + 1]` for a 1-d `y`,
    /// `[deg + 1, deg + 1, k]` for a 2-d `y`.
    pub cov: Option<Array<T, B>>,
    /// The sum of squared residuals of each fit (empty when the scaled Vandermonde matrix is
    /// rank-deficient or there are no more points than coefficients), as `lstsq` gives it.
    pub residuals: Array<T::RealPart, B>,
    /// The rank of the scaled Vandermonde matrix (below `deg + 1`, NumPy warns).
    pub rank: usize,
    /// The singular values of the scaled Vandermonde matrix.
    pub singular_values: Array<T::RealPart, B>,
    /// The `rcond` used.
    pub rcond: f64,
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The roots of the polynomial with coefficients `self` (highest power first), NumPy's
    /// `np.roots(p)`: leading zeros are dropped, trailing zeros give roots at 0, the others
    /// are the eigenvalues of the companion matrix (through [`Array::eigvals`], so complex,
    /// in no particular order; NumPy returns a real array when all of them are real). A
    /// polynomial of all zeros, or a constant, has no roots. Finding the nonzero
    /// coefficients reads their positions back to the host (the number of roots depends on
    /// them), as NumPy does.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for coefficients of more than one dimension;
    /// [`Error::LinAlg`] naming `roots` for a NaN or an infinity;
    /// [`Error::UnsupportedDType`] for the 16-bit floats.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // x^2 - 3x + 2 = (x - 1)(x - 2)
    /// let p = Array::<f64, B>::from_vec(vec![1.0, -3.0, 2.0], &[3], dev)?;
    /// let mut r: Vec<f64> = p.roots()?.to_vec()?.iter().map(|z| z.re).collect();
    /// r.sort_by(f64::total_cmp);
    /// assert!((r[0] - 1.0).abs() < 1e-12 && (r[1] - 2.0).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn roots(&self) -> Result<Array<ComplexOf<T>, B>> {
        const OP: &str = "roots";
        self.lapack_dtype(OP)?;
        let p = coeffs_1d(self, OP, "p")?;
        let dev = self.device();
        if p.size() > 0 && !p.isfinite()?.all()?.item()? {
            return Err(Error::LinAlg {
                op: OP,
                msg: "the coefficients must not contain infs or NaNs".into(),
                batch: 0,
            });
        }
        let nz = p.flatnonzero()?.to_vec()?;
        let (Some(&first), Some(&last)) = (nz.first(), nz.last()) else {
            return Array::zeros(&[0], dev);
        };
        let trailing = p.shape()[0] - last as usize - 1;
        let p = part(&p, Some(first as isize), Some(last as isize + 1))?;
        let n = p.shape()[0];
        let found = if n > 1 {
            let top = part(&p, Some(1), None)?
                .zip_op(Div, &coef(&p, 0)?)?
                .try_neg()?
                .reshape(&[1, (n - 1) as isize])?;
            let companion = if n > 2 {
                let below = Self::eye(n - 2, Some(n - 1), 0, dev)?;
                Self::concatenate(&[&top, &below], 0)?
            } else {
                top
            };
            companion
                .eigvals()
                .map_err(|e| super::products_vec::renamed(e, OP))?
        } else {
            Array::zeros(&[0], dev)?
        };
        if trailing == 0 {
            return Ok(found);
        }
        let zeros = Array::<ComplexOf<T>, B>::zeros(&[trailing], dev)?;
        Array::concatenate(&[&found, &zeros], 0)
    }

    /// The coefficients of the monic polynomial with the given roots (NumPy's `np.poly`):
    /// for a 1-d `self`, `(x - r0)(x - r1)...` in the element type; for a non-empty square
    /// matrix, its characteristic polynomial, from its eigenvalues. The characteristic
    /// polynomial of a real matrix is real (its complex eigenvalues come in exact conjugate
    /// pairs, and NumPy returns the real part then); for complex types the result stays
    /// complex even where NumPy drops a zero imaginary part (take [`Array::real`]). No
    /// roots give the 0-d array `1`, as NumPy's `1.0`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an input that is neither 1-d nor a non-empty square
    /// matrix; the errors of [`Array::eigvals`] (named `poly`) for a matrix.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let r = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev)?;
    /// assert_eq!(r.poly()?.to_vec()?, vec![1.0, -3.0, 2.0]);
    /// let m = Array::<f64, B>::from_vec(vec![2.0, 0.0, 0.0, 3.0], &[2, 2], dev)?;
    /// let c = m.poly()?.to_vec()?;
    /// assert!((c[1] + 5.0).abs() < 1e-12 && (c[2] - 6.0).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn poly(&self) -> Result<Self> {
        const OP: &str = "poly";
        let sh = self.shape();
        let dev = self.device();
        if sh.len() == 2 && sh[0] == sh[1] && sh[0] != 0 {
            self.lapack_dtype(OP)?;
            self.check_finite(OP)?;
            let w = self
                .eigvals()
                .map_err(|e| super::products_vec::renamed(e, OP))?;
            return from_roots(&w)?.astype::<T>();
        }
        if sh.len() != 1 {
            return Err(Error::invalid(
                OP,
                format!("input must be 1-d or a non-empty square 2-d array, got shape {sh:?}"),
            ));
        }
        if sh[0] == 0 {
            return Self::ones(&[], dev);
        }
        from_roots(self)
    }

    /// The least-squares polynomial fit of degree `deg` to the points `(self[i], y[i])`
    /// (NumPy's `np.polyfit(x, y, deg, rcond, full, w, cov)`): the Vandermonde matrix of
    /// `self` (times the weights `opts.w`, as `y`), each column divided by its 2-norm,
    /// solved by [`Array::lstsq`], the coefficients divided by the same norms. `y` is 1-d,
    /// or 2-d for one fit per column. The result carries what NumPy's `full=True` returns
    /// and, with `opts.cov`, the covariance: `inv(A^T A) / outer(scale, scale)` of the
    /// scaled matrix `A` (no conjugation, as NumPy), times `residuals / (len(x) - deg - 1)`
    /// for [`PolyCov::Scaled`]. The rank is read back to the host by `lstsq`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `polyfit` for an `x` that is not 1-d or is empty, a
    /// `y` that is not 1-d or 2-d, lengths of `x`, `y` or `w` that differ, a `w` that is not
    /// 1-d, and a scaled covariance without more points than coefficients or from a
    /// rank-deficient fit (no residuals to scale by); [`Error::LinAlg`] for a NaN or an
    /// infinity; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // Points on 2x^2 - 1.
    /// let x = Array::<f64, B>::from_vec(vec![-1.0, 0.0, 1.0, 2.0], &[4], dev)?;
    /// let y = Array::<f64, B>::from_vec(vec![1.0, -1.0, 1.0, 7.0], &[4], dev)?;
    /// let fit = x.polyfit(&y, 2, &PolyFit::default())?;
    /// let c = fit.coef.to_vec()?;
    /// assert!((c[0] - 2.0).abs() < 1e-12 && c[1].abs() < 1e-12 && (c[2] + 1.0).abs() < 1e-12);
    /// assert_eq!(fit.rank, 3);
    /// let opts = PolyFit { cov: PolyCov::Unscaled, ..PolyFit::default() };
    /// assert_eq!(x.polyfit(&y, 1, &opts)?.cov.unwrap().shape(), &[2, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polyfit(
        &self,
        y: &Self,
        deg: usize,
        opts: &PolyFit<'_, T, B>,
    ) -> Result<PolyFitResult<T, B>> {
        const OP: &str = "polyfit";
        self.lapack_dtype(OP)?;
        self.check_device(y, OP)?;
        let order = deg
            .checked_add(1)
            .ok_or_else(|| Error::invalid(OP, "deg is too large"))?;
        if self.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!("expected a 1-d vector for x, got shape {:?}", self.shape()),
            ));
        }
        if self.size() == 0 {
            return Err(Error::invalid(OP, "expected a non-empty vector for x"));
        }
        if !(1..=2).contains(&y.ndim()) {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected a 1-d or 2-d array for y, got shape {:?}",
                    y.shape()
                ),
            ));
        }
        let n = self.shape()[0];
        if y.shape()[0] != n {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected x and y to have the same length, got shapes {:?} and {:?}",
                    self.shape(),
                    y.shape()
                ),
            ));
        }
        let eps = <T::RealPart as num_traits::Float>::epsilon()
            .to_f64()
            .unwrap_or(f64::EPSILON);
        let rcond = opts.rcond.unwrap_or(n as f64 * eps);
        let mut lhs = vander(self, order)?;
        let mut rhs = y.clone();
        if let Some(w) = opts.w {
            self.check_device(w, OP)?;
            if w.ndim() != 1 {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "expected a 1-d array for the weights, got shape {:?}",
                        w.shape()
                    ),
                ));
            }
            if w.shape()[0] != n {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "expected w and y to have the same length, got shapes {:?} and {:?}",
                        w.shape(),
                        y.shape()
                    ),
                ));
            }
            let col = w.expand_dims(1)?;
            lhs = lhs.try_mul(&col)?;
            rhs = if y.ndim() == 2 {
                rhs.try_mul(&col)?
            } else {
                rhs.try_mul(w)?
            };
        }
        let scale = lhs.try_mul(&lhs)?.sum_axes(0, false)?.sqrt()?;
        let lhs = lhs.zip_op(Div, &scale)?;
        let (c, residuals, rank, s) = lhs.lstsq(&rhs, Some(rcond))?;
        let c = if c.ndim() == 2 {
            c.zip_op(Div, &scale.expand_dims(1)?)?
        } else {
            c.zip_op(Div, &scale)?
        };
        let cov = match opts.cov {
            PolyCov::No => None,
            kind => {
                let gram = lhs
                    .t()
                    .matmul(&lhs)?
                    .inv()
                    .map_err(|e| super::products_vec::renamed(e, OP))?;
                let outer = scale.expand_dims(1)?.try_mul(&scale.expand_dims(0)?)?;
                let base = gram.zip_op(Div, &outer)?;
                let base = if y.ndim() == 2 {
                    base.expand_dims(2)?
                } else {
                    base
                };
                if kind == PolyCov::Unscaled {
                    Some(base)
                } else {
                    if n <= order {
                        return Err(Error::invalid(
                            OP,
                            format!(
                                "the number of data points ({n}) must exceed order ({order}) \
                                 to scale the covariance matrix"
                            ),
                        ));
                    }
                    if residuals.size() == 0 {
                        return Err(Error::invalid(
                            OP,
                            format!(
                                "the fit is rank-deficient (rank {rank} < order {order}): no \
                                 residuals to scale the covariance matrix by"
                            ),
                        ));
                    }
                    let dof = <T::RealPart as Numeric>::from_usize(n - order);
                    let fac = residuals.scalar_op(Div, dof)?.to_complex_like::<T>()?;
                    Some(base.try_mul(&fac)?)
                }
            }
        };
        Ok(PolyFitResult {
            coef: c,
            cov,
            residuals,
            rank,
            singular_values: s,
            rcond,
        })
    }
}

/// `(x - r0)(x - r1)...` for a non-empty 1-d `r`: NumPy's loop of convolutions with
/// `[1, -r_k]`.
fn from_roots<T: Inexact, B: ArrayBackend>(r: &Array<T, B>) -> Result<Array<T, B>> {
    let dev = r.device();
    let mut a = Array::<T, B>::ones(&[1], dev)?;
    let one = Array::<T, B>::ones(&[1], dev)?;
    for k in 0..r.shape()[0] {
        let factor = Array::concatenate(&[&one, &coef(r, k)?.try_neg()?.reshape(&[1])?], 0)?;
        a = convolve_full(&a, &factor)?;
    }
    Ok(a)
}

/// NumPy's `vander(x, order)`: columns `x^(order-1), ..., x, 1`, the powers by repeated
/// multiplication as NumPy's `multiply.accumulate`.
fn vander<T: Inexact, B: ArrayBackend>(x: &Array<T, B>, order: usize) -> Result<Array<T, B>> {
    let n = x.shape()[0];
    let ones = Array::<T, B>::ones(&[n, 1], x.device())?;
    if order == 1 {
        return Ok(ones);
    }
    let powers = x
        .expand_dims(1)?
        .broadcast_to(&[n, order - 1])?
        .cumprod(Some(1))?;
    Array::concatenate(&[&ones, &powers], 1)?.flip(1)
}
