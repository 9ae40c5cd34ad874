//! Numerical gradients and phase unwrapping: [`Array::gradient`] (one axis),
//! [`Array::gradient_axes`] (several or all axes, a `Vec` of arrays, as NumPy's
//! `np.gradient` returns a list) and [`Array::unwrap`]. Both are composed from views,
//! element-wise arithmetic, concatenation and scans, so they run on every backend with their
//! kernels; nothing leaves the device.
//!
//! `gradient` follows `np.gradient`: second-order central differences inside, one-sided
//! differences of order `edge_order` (1 or 2) at both ends, for uniform spacing (a scalar
//! per axis, [`Spacing::Uniform`]) or for coordinates along the axis ([`Spacing::Coords`],
//! NumPy's non-uniform formula). Integer inputs give `f64` gradients, as NumPy.

use super::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Scalar};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::{Add, Div, Mul, Rem, Sub};
use crate::slice::SliceArg;

/// The sample spacing of one axis of [`Array::gradient`]: NumPy's scalar `dx` or a 1-d array
/// of coordinates (its length must be the axis's).
pub enum Spacing<'a, U: Element, B: ArrayBackend> {
    /// The distance between consecutive samples.
    Uniform(f64),
    /// The coordinate of every sample along the axis (1-d).
    Coords(&'a Array<U, B>),
}

impl<U: Element, B: ArrayBackend> Clone for Spacing<'_, U, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<U: Element, B: ArrayBackend> Copy for Spacing<'_, U, B> {}

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

/// `x` as an element of `U` (a real number; complex types get a zero imaginary part).
fn cst<U: Element>(x: f64) -> U {
    U::from_scalar(Scalar::F64(x))
}

/// `f[start..stop]` along `axis`.
fn part<U: Element, B: ArrayBackend>(
    f: &Array<U, B>,
    axis: usize,
    start: Option<isize>,
    stop: Option<isize>,
) -> Result<Array<U, B>> {
    f.slice(&along(f.ndim(), axis, start, stop))
}

/// `a * fa + b * fb + c * fc` with scalar coefficients (NumPy's order of operations).
fn combine3<U: Inexact, B: ArrayBackend>(terms: [(&Array<U, B>, f64); 3]) -> Result<Array<U, B>> {
    let [(fa, a), (fb, b), (fc, c)] = terms;
    fa.scalar_op_rev(Mul, cst(a))?
        .try_add(&fb.scalar_op_rev(Mul, cst(b))?)?
        .try_add(&fc.scalar_op_rev(Mul, cst(c))?)
}

/// One term of [`combine3_arrays`]: an operand and its coefficient array.
type Term<'a, U, B> = (&'a Array<U, B>, &'a Array<U, B>);

/// `a * fa + b * fb + c * fc` with coefficient arrays broadcast against the operands.
fn combine3_arrays<U: Inexact, B: ArrayBackend>(terms: [Term<'_, U, B>; 3]) -> Result<Array<U, B>> {
    let [(fa, a), (fb, b), (fc, c)] = terms;
    a.try_mul(fa)?
        .try_add(&b.try_mul(fb)?)?
        .try_add(&c.try_mul(fc)?)
}

/// The gradient of `f` (already in the result type) along `ax`.
fn gradient_along<U: Inexact, B: ArrayBackend>(
    f: &Array<U, B>,
    ax: usize,
    spacing: &Spacing<'_, U, B>,
    edge_order: usize,
) -> Result<Array<U, B>> {
    const OP: &str = "gradient";
    let nd = f.ndim();
    let n = f.shape()[ax];
    if n < edge_order + 1 {
        return Err(Error::invalid(
            OP,
            format!(
                "shape of array too small to calculate a numerical gradient, at least \
                 (edge_order + 1) = {} elements are required along axis {ax} (shape {:?})",
                edge_order + 1,
                f.shape()
            ),
        ));
    }
    let p = |s: Option<isize>, e: Option<isize>| part(f, ax, s, e);
    let (first, inner, last) = match spacing {
        Spacing::Uniform(h) => {
            let h = *h;
            let inner = p(Some(2), None)?
                .try_sub(&p(None, Some(-2))?)?
                .scalar_op(Div, cst(2.0 * h))?;
            let (first, last) = if edge_order == 1 {
                (
                    p(Some(1), Some(2))?
                        .try_sub(&p(Some(0), Some(1))?)?
                        .scalar_op(Div, cst(h))?,
                    p(Some(-1), None)?
                        .try_sub(&p(Some(-2), Some(-1))?)?
                        .scalar_op(Div, cst(h))?,
                )
            } else {
                (
                    combine3([
                        (&p(Some(0), Some(1))?, -1.5 / h),
                        (&p(Some(1), Some(2))?, 2.0 / h),
                        (&p(Some(2), Some(3))?, -0.5 / h),
                    ])?,
                    combine3([
                        (&p(Some(-3), Some(-2))?, 0.5 / h),
                        (&p(Some(-2), Some(-1))?, -2.0 / h),
                        (&p(Some(-1), None)?, 1.5 / h),
                    ])?,
                )
            };
            (first, inner, last)
        }
        Spacing::Coords(x) => {
            f.check_device(*x, OP)?;
            if x.ndim() != 1 || x.shape()[0] != n {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the coordinates of axis {ax} must be 1-d of the axis's length {n}, \
                         got shape {:?}",
                        x.shape()
                    ),
                ));
            }
            // The differences, shaped to broadcast along `ax`.
            let mut shape = vec![1isize; nd];
            shape[ax] = -1;
            let dx = x.diff(1, 0)?.reshape(&shape)?;
            let d = |s: Option<isize>, e: Option<isize>| part(&dx, ax, s, e);
            let (dx1, dx2) = (d(None, Some(-1))?, d(Some(1), None)?);
            let sum = dx1.try_add(&dx2)?;
            let a = dx2.try_neg()?.zip_op(Div, &dx1.try_mul(&sum)?)?;
            let b = dx2.try_sub(&dx1)?.zip_op(Div, &dx1.try_mul(&dx2)?)?;
            let c = dx1.zip_op(Div, &dx2.try_mul(&sum)?)?;
            let inner = combine3_arrays([
                (&p(None, Some(-2))?, &a),
                (&p(Some(1), Some(-1))?, &b),
                (&p(Some(2), None)?, &c),
            ])?;
            let (first, last) = if edge_order == 1 {
                (
                    p(Some(1), Some(2))?
                        .try_sub(&p(Some(0), Some(1))?)?
                        .zip_op(Div, &d(Some(0), Some(1))?)?,
                    p(Some(-1), None)?
                        .try_sub(&p(Some(-2), Some(-1))?)?
                        .zip_op(Div, &d(Some(-1), None)?)?,
                )
            } else {
                let two = |v: &Array<U, B>| v.scalar_op_rev(Mul, cst(2.0));
                // First point: dx1 = dx[0], dx2 = dx[1].
                let (e1, e2) = (d(Some(0), Some(1))?, d(Some(1), Some(2))?);
                let es = e1.try_add(&e2)?;
                let a0 = two(&e1)?
                    .try_add(&e2)?
                    .try_neg()?
                    .zip_op(Div, &e1.try_mul(&es)?)?;
                let b0 = es.zip_op(Div, &e1.try_mul(&e2)?)?;
                let c0 = e1.try_neg()?.zip_op(Div, &e2.try_mul(&es)?)?;
                let first = combine3_arrays([
                    (&p(Some(0), Some(1))?, &a0),
                    (&p(Some(1), Some(2))?, &b0),
                    (&p(Some(2), Some(3))?, &c0),
                ])?;
                // Last point: dx1 = dx[-2], dx2 = dx[-1].
                let (l1, l2) = (d(Some(-2), Some(-1))?, d(Some(-1), None)?);
                let ls = l1.try_add(&l2)?;
                let a1 = l2.zip_op(Div, &l1.try_mul(&ls)?)?;
                let b1 = l2.try_add(&l1)?.try_neg()?.zip_op(Div, &l1.try_mul(&l2)?)?;
                let c1 = two(&l2)?.try_add(&l1)?.zip_op(Div, &l2.try_mul(&ls)?)?;
                let last = combine3_arrays([
                    (&p(Some(-3), Some(-2))?, &a1),
                    (&p(Some(-2), Some(-1))?, &b1),
                    (&p(Some(-1), None)?, &c1),
                ])?;
                (first, last)
            };
            (first, inner, last)
        }
    };
    Array::concatenate(&[&first, &inner, &last], ax as isize)
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// The gradient along `axis` (NumPy's `np.gradient(f, spacing, axis=axis,
    /// edge_order=edge_order)`): `(f[i+1] - f[i-1]) / 2h` inside (for coordinates, NumPy's
    /// second-order formula for uneven steps), one-sided differences of order `edge_order`
    /// (1 or 2) at both ends. The result has the input's shape, in `T::Mean` (`f64` for
    /// integers, the type itself for floats and complex).
    ///
    /// # Errors
    /// A 0-d array, `axis` out of range, `edge_order` not 1 or 2, an axis shorter than
    /// `edge_order + 1`, coordinates that are not 1-d of the axis's length.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let f = Array::<i32, B>::from_vec(vec![1, 2, 4, 7, 11, 16], &[6], dev)?;
    /// let g = f.gradient(0, Spacing::Uniform(1.0), 1)?;
    /// assert_eq!(g.to_vec()?, vec![1.0, 1.5, 2.5, 3.5, 4.5, 5.0]);
    /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.0, 1.5, 3.5, 4.0, 6.0], &[6], dev)?;
    /// let g = f.gradient(0, Spacing::Coords(&x), 2)?.to_vec()?;
    /// assert!((g[1] - 3.0).abs() < 1e-12 && (g[5] + 1.9).abs() < 1e-12);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn gradient(
        &self,
        axis: isize,
        spacing: Spacing<'_, T::Mean, B>,
        edge_order: usize,
    ) -> Result<Array<T::Mean, B>> {
        let mut all = self.gradient_axes(axis, &[spacing], edge_order)?;
        Ok(all.pop().expect("one axis, one gradient"))
    }

    /// The gradients along `axes` (one, several, or [`Axes::All`]: NumPy's `axis=None`), one
    /// array per axis in the order given (NumPy's list). `spacing` holds no entry (unit
    /// spacing everywhere), one uniform step for every axis, or one entry per axis
    /// (NumPy's `*varargs`).
    ///
    /// # Errors
    /// As [`Array::gradient`], plus a repeated axis or a `spacing` of another length.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let f = Array::<f64, B>::from_vec(vec![1.0, 2.0, 6.0, 3.0, 4.0, 5.0], &[2, 3], dev)?;
    /// let g = f.gradient_axes(Axes::All, &[], 1)?;
    /// assert_eq!(g[0].to_vec()?, vec![2.0, 2.0, -1.0, 2.0, 2.0, -1.0]);
    /// assert_eq!(g[1].to_vec()?, vec![1.0, 2.5, 4.0, 1.0, 1.0, 1.0]);
    /// let g = f.gradient_axes([1], &[Spacing::Uniform(2.0)], 2)?;
    /// assert_eq!(g[0].to_vec()?, vec![-0.25, 1.25, 2.75, 0.5, 0.5, 0.5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn gradient_axes(
        &self,
        axes: impl Into<Axes>,
        spacing: &[Spacing<'_, T::Mean, B>],
        edge_order: usize,
    ) -> Result<Vec<Array<T::Mean, B>>> {
        const OP: &str = "gradient";
        let nd = self.ndim();
        if nd == 0 {
            return Err(Error::invalid(
                OP,
                "the input must have at least one dimension, got a 0-d array",
            ));
        }
        let axes: Vec<usize> = match axes.into() {
            Axes::All => (0..nd).collect(),
            Axes::Some(v) => {
                let mut out = Vec::with_capacity(v.len());
                for &a in &v {
                    let ax = normalize_axis(OP, a, nd)?;
                    if out.contains(&ax) {
                        return Err(Error::invalid(
                            OP,
                            format!("repeated axis {a} in axes {v:?}"),
                        ));
                    }
                    out.push(ax);
                }
                out
            }
        };
        if !(1..=2).contains(&edge_order) {
            return Err(Error::invalid(
                OP,
                format!("edge_order must be 1 or 2, got {edge_order}"),
            ));
        }
        let unit = Spacing::Uniform(1.0);
        let steps: Vec<&Spacing<'_, T::Mean, B>> = match spacing.len() {
            0 => vec![&unit; axes.len()],
            1 if matches!(spacing[0], Spacing::Uniform(_)) => vec![&spacing[0]; axes.len()],
            k if k == axes.len() => spacing.iter().collect(),
            k => {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "invalid number of spacing arguments: {k} for {} axes (0, one \
                         uniform step, or one per axis)",
                        axes.len()
                    ),
                ));
            }
        };
        let f: Array<T::Mean, B> = self.astype()?;
        axes.iter()
            .zip(steps)
            .map(|(&ax, s)| gradient_along(&f, ax, s, edge_order))
            .collect()
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// Unwraps phase angles along `axis` (NumPy's `np.unwrap(p, discont, axis, period)`):
    /// wherever two neighbours differ by more than `max(discont, period / 2)` (`discont`
    /// `None`: `period / 2`), the later elements are shifted by a multiple of `period` to
    /// bring the step back into `[-period / 2, period / 2]`. Steps of exactly half a period
    /// keep their sign, as NumPy's.
    ///
    /// # Errors
    /// A 0-d array, `axis` out of range.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let p = Array::<f64, B>::from_vec(vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0], &[7], dev)?;
    /// let u = p.unwrap(None, -1, 6.0)?;
    /// assert_eq!(u.to_vec()?, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unwrap(&self, discont: Option<f64>, axis: isize, period: f64) -> Result<Self> {
        const OP: &str = "unwrap";
        let nd = self.ndim();
        if nd == 0 {
            return Err(Error::invalid(
                OP,
                "the input must have at least one dimension, got a 0-d array",
            ));
        }
        let ax = normalize_axis(OP, axis, nd)?;
        let discont = discont.unwrap_or(period / 2.0);
        let high = period / 2.0;
        let dd = self.diff(1, ax as isize)?;
        // ddmod = mod(dd + high, period) - high, with -high turned into high where dd > 0.
        let ddmod = dd
            .scalar_op(Add, cst(high))?
            .scalar_op(Rem, cst(period))?
            .scalar_op(Sub, cst(high))?;
        let ambiguous = ddmod
            .eq_scalar(cst(-high))?
            .logical_and(&dd.gt_scalar(cst(0.0))?)?;
        let ddmod = Array::where_(
            &ambiguous,
            &Array::scalar(cst(high), self.device())?,
            &ddmod,
        )?;
        let correct = ddmod.try_sub(&dd)?;
        let small = dd.abs()?.lt_scalar(cst(discont))?;
        let correct = Array::where_(&small, &Array::scalar(cst(0.0), self.device())?, &correct)?;
        let head = part(self, ax, None, Some(1))?;
        let tail = part(self, ax, Some(1), None)?.try_add(&correct.cumsum(Some(ax as isize))?)?;
        Array::concatenate(&[&head, &tail], ax as isize)
    }
}
