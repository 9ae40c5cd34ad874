//! Polynomials in NumPy's old `numpy.lib.polynomial` convention (a 1-d array of coefficients,
//! highest power first): evaluation ([`Array::polyval`], Horner's rule on arrays of any
//! shape), arithmetic ([`Array::polyadd`], [`Array::polysub`], [`Array::polymul`],
//! [`Array::polydiv`]) and calculus ([`Array::polyder`], [`Array::polyint`]). Roots, the
//! polynomial of given roots and least-squares fits are in `polynomial_fit.rs`. Everything is
//! composed from views, element-wise ops, concatenation and sums, so it runs on every
//! backend. Integer coefficients are accepted where the op stays in integers (evaluation,
//! sums, products, derivatives); division and integration need a float or complex type
//! (convert with [`Array::astype`] first, where NumPy converts silently).

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Inexact, Numeric};
use crate::error::{Error, Result};
use crate::ops::Div;
use crate::slice::SliceArg;

/// `p[start..stop]` of a 1-d coefficient array.
pub(super) use super::sets::range1 as part;

/// `p[i]` as a 0-d view.
pub(super) fn coef<T: Numeric, B: ArrayBackend>(p: &Array<T, B>, i: usize) -> Result<Array<T, B>> {
    p.slice(&[SliceArg::Index(i as isize)])
}

/// NumPy's `atleast_1d` for a coefficient array that must end up 1-d: 0-d becomes `[x]`,
/// more than one dimension is an error naming `op`.
pub(super) fn coeffs_1d<T: Numeric, B: ArrayBackend>(
    p: &Array<T, B>,
    op: &'static str,
    what: &str,
) -> Result<Array<T, B>> {
    match p.ndim() {
        0 => p.reshape(&[1]),
        1 => Ok(p.clone()),
        _ => Err(Error::invalid(
            op,
            format!(
                "{what} must be a 1-d array of coefficients, got shape {:?}",
                p.shape()
            ),
        )),
    }
}

/// `[0] * n` followed by `p` (1-d).
fn pad_front<T: Numeric, B: ArrayBackend>(p: &Array<T, B>, n: usize) -> Result<Array<T, B>> {
    if n == 0 {
        return Ok(p.clone());
    }
    let z = Array::<T, B>::zeros(&[n], p.device())?;
    Array::concatenate(&[&z, p], 0)
}

/// The full discrete convolution of two non-empty 1-d arrays (NumPy's `convolve(a, v)`):
/// the outer product, each row shifted right by its index through a reshape of the
/// zero-padded rows, summed over the rows.
pub(super) fn convolve_full<T: Numeric, B: ArrayBackend>(
    a: &Array<T, B>,
    v: &Array<T, B>,
) -> Result<Array<T, B>> {
    let (n, m) = (a.shape()[0], v.shape()[0]);
    let outer = a.expand_dims(1)?.try_mul(&v.expand_dims(0)?)?;
    if n == 1 {
        return outer.reshape(&[m as isize]);
    }
    let len = n + m - 1;
    let zeros = Array::<T, B>::zeros(&[n, n], a.device())?;
    let padded = Array::concatenate(&[&outer, &zeros], 1)?.ravel()?;
    // Row i of the (n, len) view starts i elements before row i of the padded rows, which
    // shifts it right by i; what it reads before that are the previous row's zeros.
    let skew =
        part(&padded, None, Some((n * len) as isize))?.reshape(&[n as isize, len as isize])?;
    skew.sum_axes(0, false)?.astype::<T>()
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// Evaluates the polynomial with coefficients `self` (highest power first) at `x`, of any
    /// shape, by Horner's rule (NumPy's `np.polyval(p, x)`): `y = 0; y = y * x + p[k]` for
    /// each coefficient in turn, so the result has `x`'s shape (broadcast against a
    /// coefficient's shape when `self` has more than one dimension: each `p[k]` is then a
    /// sub-array, as NumPy iterates). As in NumPy the first step multiplies 0 by `x`, so
    /// an infinite `x` gives NaN. No coefficients give zeros.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for 0-d coefficients; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // 3x^2 + 0x + 1
    /// let p = Array::<f64, B>::from_vec(vec![3.0, 0.0, 1.0], &[3], dev)?;
    /// let x = Array::<f64, B>::from_vec(vec![5.0, -1.0], &[2], dev)?;
    /// assert_eq!(p.polyval(&x)?.to_vec()?, vec![76.0, 4.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polyval(&self, x: &Self) -> Result<Self> {
        const OP: &str = "polyval";
        self.check_device(x, OP)?;
        if self.ndim() == 0 {
            return Err(Error::invalid(
                OP,
                "the coefficients p must have at least one dimension, got a 0-d array",
            ));
        }
        let mut y = Self::zeros(x.shape(), x.device())?;
        for k in 0..self.shape()[0] {
            y = y.try_mul(x)?.try_add(&coef(self, k)?)?;
        }
        Ok(y)
    }

    /// The sum of two polynomials (NumPy's `np.polyadd(a1, a2)`): the shorter one is padded
    /// with leading zeros; nothing is trimmed. 0-d inputs count as one coefficient.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an input of more than one dimension;
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let b = Array::<i64, B>::from_vec(vec![9, 5, 4], &[3], dev)?;
    /// assert_eq!(a.polyadd(&b)?.to_vec()?, vec![9, 6, 6]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polyadd(&self, other: &Self) -> Result<Self> {
        self.poly_combine(other, "polyadd", false)
    }

    /// The difference of two polynomials, `self - other` (NumPy's `np.polysub(a1, a2)`),
    /// padding the shorter with leading zeros.
    ///
    /// # Errors
    /// As [`polyadd`](Self::polyadd).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, 10.0, -2.0], &[3], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![3.0, 10.0, -4.0], &[3], dev)?;
    /// assert_eq!(a.polysub(&b)?.to_vec()?, vec![-1.0, 0.0, 2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polysub(&self, other: &Self) -> Result<Self> {
        self.poly_combine(other, "polysub", true)
    }

    fn poly_combine(&self, other: &Self, op: &'static str, sub: bool) -> Result<Self> {
        self.check_device(other, op)?;
        let a = coeffs_1d(self, op, "a1")?;
        let b = coeffs_1d(other, op, "a2")?;
        let (la, lb) = (a.shape()[0], b.shape()[0]);
        let a = pad_front(&a, lb.saturating_sub(la))?;
        let b = pad_front(&b, la.saturating_sub(lb))?;
        if sub { a.try_sub(&b) } else { a.try_add(&b) }
    }

    /// The product of two polynomials, the full convolution of their coefficients (NumPy's
    /// `np.polymul(a1, a2)`, `np.convolve`); integer products wrap.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty input (NumPy's convolve refuses it too) or one
    /// of more than one dimension; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // (x + 1)(x - 1) = x^2 - 1
    /// let a = Array::<i32, B>::from_vec(vec![1, 1], &[2], dev)?;
    /// let b = Array::<i32, B>::from_vec(vec![1, -1], &[2], dev)?;
    /// assert_eq!(a.polymul(&b)?.to_vec()?, vec![1, 0, -1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polymul(&self, other: &Self) -> Result<Self> {
        const OP: &str = "polymul";
        self.check_device(other, OP)?;
        let a = coeffs_1d(self, OP, "a1")?;
        let b = coeffs_1d(other, OP, "a2")?;
        if a.size() == 0 || b.size() == 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "the polynomials must not be empty, got shapes {:?} and {:?}",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        convolve_full(&a, &b)
    }

    /// The `m`-th derivative of a polynomial (NumPy's `np.polyder(p, m)`): each step drops
    /// the constant and multiplies `p[i]` by its power, so a polynomial of `n` coefficients
    /// becomes one of `n - 1` (an empty array once no coefficient is left, as NumPy's arrays;
    /// `m = 0` returns `p`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for coefficients of more than one dimension.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // d/dx (x^3 + x^2 + x + 1) = 3x^2 + 2x + 1
    /// let p = Array::<f64, B>::from_vec(vec![1.0, 1.0, 1.0, 1.0], &[4], dev)?;
    /// assert_eq!(p.polyder(1)?.to_vec()?, vec![3.0, 2.0, 1.0]);
    /// assert_eq!(p.polyder(2)?.to_vec()?, vec![6.0, 2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polyder(&self, m: usize) -> Result<Self> {
        let mut p = coeffs_1d(self, "polyder", "p")?;
        for _ in 0..m {
            let n = p.shape()[0];
            if n <= 1 {
                return Self::zeros(&[0], self.device());
            }
            let powers: Vec<T> = (1..n).rev().map(T::from_usize).collect();
            let powers = Self::from_vec(powers, &[n - 1], self.device())?;
            p = part(&p, None, Some(-1))?.try_mul(&powers)?;
        }
        Ok(p)
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The `m`-th antiderivative of a polynomial (NumPy's `np.polyint(p, m, k)`): each step
    /// divides `p[i]` by its new power and appends an integration constant. `k` holds the
    /// constants, the first for the first integration: empty means zeros, one value is used
    /// for every step, otherwise it needs at least `m` values. `m = 0` returns `p`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `k` has more than one but fewer than `m` values, or
    /// the coefficients more than one dimension.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // The integral of 3x^2 + 2x + 1 with constant 5: x^3 + x^2 + x + 5.
    /// let p = Array::<f64, B>::from_vec(vec![3.0, 2.0, 1.0], &[3], dev)?;
    /// assert_eq!(p.polyint(1, &[5.0])?.to_vec()?, vec![1.0, 1.0, 1.0, 5.0]);
    /// assert_eq!(p.polyint(2, &[])?.to_vec()?, vec![0.25, 1.0 / 3.0, 0.5, 0.0, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polyint(&self, m: usize, k: &[T]) -> Result<Self> {
        const OP: &str = "polyint";
        let constants: Vec<T> = match k.len() {
            0 => vec![T::ZERO; m],
            1 => vec![k[0]; m],
            n if n >= m => k.to_vec(),
            n => {
                return Err(Error::invalid(
                    OP,
                    format!("k must hold one constant or at least m = {m} constants, got {n}"),
                ));
            }
        };
        let mut p = coeffs_1d(self, OP, "p")?;
        let dev = self.device();
        for &c in constants.iter().take(m) {
            let n = p.shape()[0];
            let powers: Vec<T> = (1..=n).rev().map(T::from_usize).collect();
            let powers = Self::from_vec(powers, &[n], dev)?;
            let c = Self::from_vec(vec![c], &[1], dev)?;
            p = Self::concatenate(&[&p.zip_op(Div, &powers)?, &c], 0)?;
        }
        Ok(p)
    }

    /// The quotient and remainder of polynomial division `self / other` (NumPy's
    /// `np.polydiv(u, v)`), by NumPy's long division: `q[k] = r[k] / v[0]`,
    /// `r[k..k + len(v)] -= q[k] * v`. The quotient has `max(len(u) - len(v) + 1, 1)`
    /// coefficients; the remainder's leading coefficients within `1e-8` of zero (NumPy's
    /// `allclose(r[0], 0, rtol=1e-14)`) are dropped, keeping at least one. The length of
    /// the remainder depends on the values, so how many to drop is read back to the host
    /// (one integer, as NumPy's loop reads each `r[0]`). A leading zero in `v` gives
    /// infinities and NaNs, as in NumPy.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty `u` or `v`, or one of more than one
    /// dimension; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // (3x^2 + 5x + 2) / (2x + 1) = 1.5x + 1.75, remainder 0.25
    /// let u = Array::<f64, B>::from_vec(vec![3.0, 5.0, 2.0], &[3], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![2.0, 1.0], &[2], dev)?;
    /// let (q, r) = u.polydiv(&v)?;
    /// assert_eq!(q.to_vec()?, vec![1.5, 1.75]);
    /// assert_eq!(r.to_vec()?, vec![0.25]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn polydiv(&self, other: &Self) -> Result<(Self, Self)> {
        const OP: &str = "polydiv";
        self.check_device(other, OP)?;
        let u = coeffs_1d(self, OP, "u")?;
        let v = coeffs_1d(other, OP, "v")?;
        if u.size() == 0 || v.size() == 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "the polynomials must not be empty, got shapes {:?} and {:?}",
                    self.shape(),
                    other.shape()
                ),
            ));
        }
        let dev = self.device();
        let (lu, lv) = (u.shape()[0], v.shape()[0]);
        let scale = Self::ones(&[], dev)?.zip_op(Div, &coef(&v, 0)?)?;
        let mut r = u.copy()?;
        let mut q = Vec::new();
        for k in 0..(lu + 1).saturating_sub(lv) {
            let d = scale.try_mul(&coef(&r, k)?)?;
            let (s, e) = (k as isize, (k + lv) as isize);
            let seg = part(&r, Some(s), Some(e))?.try_sub(&d.try_mul(&v)?)?;
            r = Self::concatenate(
                &[&part(&r, None, Some(s))?, &seg, &part(&r, Some(e), None)?],
                0,
            )?;
            q.push(d.reshape(&[1])?);
        }
        let q = if q.is_empty() {
            Self::zeros(&[1], dev)?
        } else {
            let refs: Vec<&Self> = q.iter().collect();
            Self::concatenate(&refs, 0)?
        };
        // The first `lu - lv + 1` coefficients of the remainder are zero by construction
        // (NumPy leaves the rounding noise there and trims it with `allclose`, which keeps
        // noise above 1e-8, as in f32): the remainder is the last `lv - 1` of them, at least
        // one coefficient.
        if lu >= lv {
            r = if lv == 1 {
                Self::zeros(&[1], dev)?
            } else {
                part(&r, Some(1 - lv as isize), None)?
            };
        }
        // Leading remainder coefficients close to zero go (NumPy's `allclose(r[0], 0)`):
        // count them on the device (the first coefficient that is not small, among all but
        // the last), read one integer.
        let n = r.shape()[0];
        if n > 1 {
            let tol = <T::RealPart as Numeric>::from_f64(1e-8);
            let big = part(&r, None, Some(-1))?
                .abs()?
                .le_scalar(tol)?
                .logical_not()?;
            let stop = Array::<bool, B>::from_vec(vec![true], &[1], dev)?;
            let first = Array::concatenate(&[&big, &stop], 0)?.argmax()?.item()?;
            r = part(&r, Some(first as isize), None)?;
        }
        Ok((q, r))
    }
}
