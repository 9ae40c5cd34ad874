//! NumPy's names and call forms where cuprite's own differ:
//!
//! - [`ufunc`]: free functions `add`, `subtract`, `multiply`, `divide`, `negative` (NumPy's
//!   `np.add(x1, x2)`), over the `try_` methods of the operators;
//! - [`Array::transpose_axes`] (`a.transpose(axes)`);
//! - [`Array::argmin_axes`]/[`Array::argmax_axes`] over several axes (the flat index within
//!   the reduced block, as `np.argmax(a.transpose(kept + reduced).reshape(kept, -1), -1)`);
//! - [`Array::norm_with`] (`np.linalg.norm(x, ord, axis, keepdims)` in one call, dispatching
//!   to [`Array::vector_norm`]/[`Array::matrix_norm`]);
//! - [`Array::unique_values`], [`Array::unique_counts`], [`Array::unique_inverse`] (NumPy
//!   2's functions, `equal_nan=False`), each computing only what it returns from a sort of
//!   the flattened array.

use super::{Array, Axes, MatrixNorm};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Inexact};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// NumPy's arithmetic functions under NumPy's names, as free functions: `ufunc::add(&a, &b)`
/// reads as `np.add(a, b)`. (Inherent methods named `add` would collide with
/// `std::ops::Add::add` in method resolution, so the method forms stay `try_add` & co.) Each
/// broadcasts and returns the error of the `try_` method it calls.
///
/// ```
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let a = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
/// let b = Array::<i32, B>::from_vec(vec![10], &[1], dev)?;
/// assert_eq!(ufunc::add(&a, &b)?.to_vec()?, vec![11, 12, 13]);
/// assert_eq!(ufunc::subtract(&a, &b)?.to_vec()?, vec![-9, -8, -7]);
/// assert_eq!(ufunc::multiply(&a, &b)?.to_vec()?, vec![10, 20, 30]);
/// assert_eq!(ufunc::divide(&a, &b)?.to_vec()?, vec![0.1, 0.2, 0.3]);
/// assert_eq!(ufunc::negative(&a)?.to_vec()?, vec![-1, -2, -3]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
pub mod ufunc {
    use crate::array::{Array, TrueDivide};
    use crate::backend::ArrayBackend;
    use crate::dtype::{Element, Numeric};
    use crate::error::Result;
    use crate::promote::{Promote, promoted_pair};

    /// A NumPy binary ufunc of one element type or two (operands promoted by [`Promote`]).
    macro_rules! promoting_ufunc {
        ($(#[$doc:meta])* $name:ident, $try:ident) => {
            $(#[$doc])*
            pub fn $name<T, U, B>(
                x1: &Array<T, B>,
                x2: &Array<U, B>,
            ) -> Result<Array<<T as Promote<U>>::Output, B>>
            where
                T: Promote<U>,
                U: Element,
                <T as Promote<U>>::Output: Numeric,
                B: ArrayBackend,
            {
                let (a, b) = promoted_pair::<T, U, <T as Promote<U>>::Output, B>(
                    stringify!($name),
                    x1,
                    x2,
                )?;
                a.get().$try(b.get())
            }
        };
    }

    promoting_ufunc! {
        /// `x1 + x2`, broadcast (NumPy's `np.add`; integers wrap), of one element type or two
        /// (NumPy's promotion, [`Promote`]).
        ///
        /// ```
        /// # use cuprite_core::*;
        /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
        /// let a = Array::<u8, B>::from_vec(vec![250, 1], &[2], dev)?;
        /// assert_eq!(ufunc::add(&a, &a)?.to_vec()?, vec![244, 2]);
        /// # Ok(()) }
        /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
        /// ```
        add, try_add
    }

    promoting_ufunc! {
        /// `x1 - x2`, broadcast (NumPy's `np.subtract`), of one element type or two.
        ///
        /// ```
        /// # use cuprite_core::*;
        /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
        /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev)?;
        /// assert_eq!(ufunc::subtract(&a, &a.t())?.to_vec()?, vec![0.0, 0.0]);
        /// # Ok(()) }
        /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
        /// ```
        subtract, try_sub
    }

    promoting_ufunc! {
        /// `x1 * x2`, broadcast (NumPy's `np.multiply`), of one element type or two.
        ///
        /// ```
        /// # use cuprite_core::*;
        /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
        /// let a = Array::<i64, B>::from_vec(vec![2, 3], &[2, 1], dev)?;
        /// let b = Array::<i64, B>::from_vec(vec![1, 10], &[2], dev)?;
        /// assert_eq!(ufunc::multiply(&a, &b)?.to_vec()?, vec![2, 20, 3, 30]);
        /// # Ok(()) }
        /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
        /// ```
        multiply, try_mul
    }

    /// True division `x1 / x2`, broadcast (NumPy's `np.divide`; integers give `f64`), of one
    /// element type or two.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, -3], &[2], dev)?;
    /// let b = Array::<i32, B>::from_vec(vec![2, 0], &[2], dev)?;
    /// assert_eq!(ufunc::divide(&a, &b)?.to_vec()?, vec![0.5, f64::NEG_INFINITY]);
    /// let c = Array::<f32, B>::from_vec(vec![4.0, 8.0], &[2], dev)?;
    /// let q: Array<f64, B> = ufunc::divide(&c, &a)?; // float32 with int32: float64
    /// assert_eq!(q.to_vec()?, vec![4.0, -8.0 / 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn divide<T, U, B>(
        x1: &Array<T, B>,
        x2: &Array<U, B>,
    ) -> Result<Array<<<T as Promote<U>>::Output as Element>::Mean, B>>
    where
        T: Promote<U>,
        U: Element,
        <T as Promote<U>>::Output: TrueDivide,
        B: ArrayBackend,
    {
        let (a, b) = promoted_pair::<T, U, <T as Promote<U>>::Output, B>("divide", x1, x2)?;
        a.get().try_div(b.get())
    }

    /// `-x` (NumPy's `np.negative`; unsigned integers wrap).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![1, 0], &[2], dev)?;
    /// assert_eq!(ufunc::negative(&a)?.to_vec()?, vec![255, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn negative<T: Numeric, B: ArrayBackend>(x: &Array<T, B>) -> Result<Array<T, B>> {
        x.try_neg()
    }
}

/// The `ord` of [`Array::norm_with`] (NumPy's `ord` of `np.linalg.norm`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormOrd {
    /// `'fro'`: the Frobenius norm (matrices only).
    Fro,
    /// `'nuc'`: the nuclear norm (matrices only).
    Nuc,
    /// A number: any `p` for vectors (`inf`, `-inf`, `0` included); `1`, `-1`, `2`, `-2`,
    /// `inf`, `-inf` for matrices.
    P(f64),
}

/// The distinct values and how often each occurs ([`Array::unique_counts`]).
#[derive(Clone, Debug)]
pub struct UniqueCounts<T: Element, B: ArrayBackend> {
    /// The sorted distinct values (1-d; every NaN its own, `-0.0` and `0.0` one value).
    pub values: Array<T, B>,
    /// How many times each distinct value occurs.
    pub counts: Array<i64, B>,
}

/// The distinct values and where each input element's value lies among them
/// ([`Array::unique_inverse`]).
#[derive(Clone, Debug)]
pub struct UniqueInverse<T: Element, B: ArrayBackend> {
    /// The sorted distinct values (1-d).
    pub values: Array<T, B>,
    /// For each input element, the index of its value in `values` (the input's shape).
    pub inverse: Array<i64, B>,
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Axes reordered by `axes` (NumPy's `a.transpose(axes)`): axis `i` of the result is
    /// axis `axes[i]` of `self`, negative axes counting from the end (a view; the same as
    /// [`Array::permute_dims`] except for the name in errors).
    ///
    /// # Errors
    /// `axes` not a permutation of the axes.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::zeros(&[2, 3, 4], dev)?;
    /// assert_eq!(a.transpose_axes(&[1, -1, 0])?.shape(), &[3, 4, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn transpose_axes(&self, axes: &[isize]) -> Result<Self> {
        Ok(self.with_layout(self.layout().permute("transpose", axes)?))
    }

    /// The sorted distinct elements, 1-d (NumPy 2's `np.unique_values`). As NumPy 2's
    /// array-API functions (`equal_nan=False`), every NaN is a value of its own, unlike
    /// [`Array::unique`] (`np.unique`'s default, all NaNs in one); `-0.0` and `0.0` are one
    /// value. The number of distinct values is read back to size the result, as NumPy and
    /// CuPy do.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, f64::NAN, -0.0, 0.0, f64::NAN], &[5], dev)?;
    /// let v = a.unique_values()?.to_vec()?;
    /// assert_eq!(v[..2], [0.0, 2.0]);
    /// assert!(v[2].is_nan() && v[3].is_nan() && v.len() == 4);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unique_values(&self) -> Result<Self> {
        let sorted = self.sort_flat()?;
        let starts = Self::run_starts(&sorted)?;
        sorted.compress(&starts, Some(0))
    }

    /// Where a sorted 1-d array starts a new value: true at 0 and wherever an element
    /// differs from the one before (so every NaN starts a value of its own).
    fn run_starts(sorted: &Self) -> Result<Array<bool, B>> {
        let n = sorted.shape()[0];
        let first = Array::<bool, B>::full(&[n.min(1)], true, sorted.device())?;
        if n < 2 {
            return Ok(first);
        }
        let hi = sorted.slice(&[crate::slice::SliceArg::Range {
            start: Some(1),
            stop: None,
            step: 1,
        }])?;
        let lo = sorted.slice(&[crate::slice::SliceArg::Range {
            start: None,
            stop: Some(-1),
            step: 1,
        }])?;
        Array::concatenate(&[&first, &hi.ne(&lo)?], 0)
    }

    /// The sorted distinct values and their counts (NumPy 2's `np.unique_counts`; every NaN
    /// a value of its own, as [`Array::unique_values`]), from a sort of the flattened array
    /// and the starts of its runs. The number of distinct values is read back to size the
    /// result, as NumPy and CuPy do.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![3, 1, 3, 3, 1, 7], &[2, 3], dev)?;
    /// let u = a.unique_counts()?;
    /// assert_eq!(u.values.to_vec()?, vec![1, 3, 7]);
    /// assert_eq!(u.counts.to_vec()?, vec![2, 3, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unique_counts(&self) -> Result<UniqueCounts<T, B>> {
        let sorted = self.sort_flat()?;
        let n = sorted.shape()[0];
        let starts = Self::run_starts(&sorted)?;
        let values = sorted.compress(&starts, Some(0))?;
        let at = starts.flatnonzero()?;
        let end = Array::<i64, B>::full(&[1], n as i64, self.device())?;
        let bounds = Array::concatenate(&[&at, &end], 0)?;
        Ok(UniqueCounts {
            values,
            counts: bounds.diff(1, 0)?,
        })
    }

    /// The sorted distinct values and, for each input element, the index of its value among
    /// them, in the input's shape (NumPy 2's `np.unique_inverse`; every NaN a value of its
    /// own, in input order): a stable sort of the flattened array, the running count of run
    /// starts, scattered back to the input order.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![5, 3, 5, 9], &[2, 2], dev)?;
    /// let u = a.unique_inverse()?;
    /// assert_eq!(u.values.to_vec()?, vec![3, 5, 9]);
    /// assert_eq!(u.inverse.shape(), &[2, 2]);
    /// assert_eq!(u.inverse.to_vec()?, vec![1, 0, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unique_inverse(&self) -> Result<UniqueInverse<T, B>> {
        let perm = self.argsort_flat()?;
        let flat = self.reshape(&[-1])?;
        let sorted = flat.take(&perm, Some(0))?;
        let starts = Self::run_starts(&sorted)?;
        let values = sorted.compress(&starts, Some(0))?;
        let group = starts.cumsum(Some(0))?.scalar_op(crate::ops::Sub, 1i64)?;
        let mut inverse = Array::<i64, B>::zeros(&[flat.shape()[0]], self.device())?;
        inverse.put(&perm, &group)?;
        let shape: Vec<isize> = self.shape().iter().map(|&d| d as isize).collect();
        Ok(UniqueInverse {
            values,
            inverse: inverse.reshape(&shape)?,
        })
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The arg-reduction `kind` over `axes`: the kept axes first, the reduced ones (in
    /// increasing order) flattened last, the arg-reduction along that last axis.
    fn arg_axes(
        &self,
        op: &'static str,
        axes: Axes,
        keepdims: bool,
        max: bool,
    ) -> Result<Array<i64, B>> {
        let nd = self.ndim();
        let red = axes.resolve_reduction(op, nd)?;
        let kept: Vec<usize> = (0..nd).filter(|a| !red.contains(a)).collect();
        let block = red.iter().try_fold(1usize, |acc, &a| {
            acc.checked_mul(self.shape()[a])
                .ok_or_else(|| Error::invalid(op, "the reduced block's size overflows usize"))
        })?;
        if block == 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "attempt to get {op} of an empty sequence (axes {red:?} of shape {:?})",
                    self.shape()
                ),
            ));
        }
        let order: Vec<isize> = kept.iter().chain(&red).map(|&a| a as isize).collect();
        let mut shape: Vec<isize> = kept.iter().map(|&a| self.shape()[a] as isize).collect();
        shape.push(block as isize);
        let lanes = self.permute_dims(&order)?.reshape(&shape)?;
        let out = if max {
            lanes.argmax_axis(-1, false)?
        } else {
            lanes.argmin_axis(-1, false)?
        };
        if !keepdims {
            return Ok(out);
        }
        let kd: Vec<isize> = (0..nd)
            .map(|a| {
                if red.contains(&a) {
                    1
                } else {
                    self.shape()[a] as isize
                }
            })
            .collect();
        out.reshape(&kd)
    }

    /// Index of the first largest element of every block over `axes` (one, several, or
    /// [`Axes::All`]), counted in C order over the reduced axes taken in increasing order:
    /// `np.argmax(a.transpose(kept + axes).reshape(kept_shape + (-1,)), -1)`. NaN counts as
    /// the largest. With `keepdims` the reduced axes stay with length 1.
    ///
    /// # Errors
    /// An axis out of range or repeated, an empty reduced block.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![0, 9, 2, 3, 4, 5, 6, 7, 8, 1, 10, 11], &[2, 3, 2], dev)?;
    /// assert_eq!(a.argmax_axes([0, 2], false)?.to_vec()?, vec![1, 2, 3]);
    /// assert_eq!(a.argmax_axes([1, 2], true)?.shape(), &[2, 1, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argmax_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<i64, B>> {
        self.arg_axes("argmax", axes.into(), keepdims, true)
    }

    /// Index of the first smallest element of every block over `axes`, as
    /// [`Array::argmax_axes`] (NaN counts as the smallest).
    ///
    /// # Errors
    /// An axis out of range or repeated, an empty reduced block.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, 1.0, 2.0, 0.5], &[2, 2], dev)?;
    /// assert_eq!(a.argmin_axes(Axes::All, false)?.item()?, 3);
    /// assert_eq!(a.argmin_axes([0], false)?.to_vec()?, vec![1, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argmin_axes(&self, axes: impl Into<Axes>, keepdims: bool) -> Result<Array<i64, B>> {
        self.arg_axes("argmin", axes.into(), keepdims, false)
    }
}

/// Renames an invalid-argument error of an op `norm_with` dispatches to as `norm`'s.
fn as_norm(e: Error) -> Error {
    match e {
        Error::InvalidArgument { msg, .. } => Error::invalid("norm", msg),
        other => other,
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// A vector or matrix norm in one call, as `np.linalg.norm(x, ord, axis, keepdims)`:
    ///
    /// - `axis` `None`, `ord` `None`: the 2-norm of the flattened array (with `keepdims`,
    ///   every axis kept with length 1); `ord` given: a 1-d array takes a vector norm, a
    ///   2-d one a matrix norm, any other rank is an error;
    /// - one axis: the vector norm of order `ord` (`None`: 2) along it
    ///   ([`Array::vector_norm`]);
    /// - two axes `[row, col]`: the matrix norm of order `ord` (`None`: Frobenius) of the
    ///   matrices over those axes ([`Array::matrix_norm`]; `1`, `-1`, `2`, `-2`, `inf`,
    ///   `-inf`, `fro`, `nuc`).
    ///
    /// # Errors
    /// An axis out of range or repeated, more than two axes, `fro`/`nuc` for vectors, an
    /// order matrices do not have, and the errors of the norm dispatched to.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, -2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// assert_eq!(a.norm_with(Some(NormOrd::P(1.0)), None, false)?.item()?, 6.0);
    /// assert_eq!(a.norm_with(Some(NormOrd::P(1.0)), Some(&[1]), false)?.to_vec()?, vec![3.0, 7.0]);
    /// let n = a.norm_with(Some(NormOrd::P(f64::INFINITY)), Some(&[1, 0]), true)?;
    /// assert_eq!((n.shape(), n.item()?), (&[1usize, 1][..], 6.0));
    /// assert_eq!(a.norm_with(None, None, true)?.shape(), &[1, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn norm_with(
        &self,
        ord: Option<NormOrd>,
        axis: Option<&[isize]>,
        keepdims: bool,
    ) -> Result<Array<T::RealPart, B>> {
        const OP: &str = "norm";
        let nd = self.ndim();
        let axes: Vec<usize> = match axis {
            None if ord.is_none() => {
                return self.vector_norm(2.0, Axes::All, keepdims).map_err(as_norm);
            }
            None if nd == 1 || nd == 2 => (0..nd).collect(),
            None => {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "improper number of dimensions to norm: {nd} (with ord given and no axis, 1 or 2)"
                    ),
                ));
            }
            Some(v) => {
                let mut out = Vec::with_capacity(v.len());
                for &a in v {
                    let ax = normalize_axis(OP, a, nd)?;
                    if out.contains(&ax) {
                        return Err(Error::invalid(OP, format!("duplicate axes given: {v:?}")));
                    }
                    out.push(ax);
                }
                out
            }
        };
        match axes.len() {
            1 => {
                let p = match ord {
                    None => 2.0,
                    Some(NormOrd::P(p)) => p,
                    Some(o) => {
                        return Err(Error::invalid(
                            OP,
                            format!("invalid norm order {o:?} for vectors"),
                        ));
                    }
                };
                self.vector_norm(p, axes[0], keepdims).map_err(as_norm)
            }
            2 => {
                let m = match ord {
                    None | Some(NormOrd::Fro) => MatrixNorm::Frobenius,
                    Some(NormOrd::Nuc) => MatrixNorm::Nuclear,
                    Some(NormOrd::P(1.0)) => MatrixNorm::One,
                    Some(NormOrd::P(-1.0)) => MatrixNorm::NegOne,
                    Some(NormOrd::P(2.0)) => MatrixNorm::Two,
                    Some(NormOrd::P(-2.0)) => MatrixNorm::NegTwo,
                    Some(NormOrd::P(p)) if p == f64::INFINITY => MatrixNorm::Inf,
                    Some(NormOrd::P(p)) if p == f64::NEG_INFINITY => MatrixNorm::NegInf,
                    Some(NormOrd::P(p)) => {
                        return Err(Error::invalid(
                            OP,
                            format!("invalid norm order {p} for matrices"),
                        ));
                    }
                };
                let src = [axes[0] as isize, axes[1] as isize];
                let moved = self.moveaxis(&src, &[-2, -1])?;
                let out = moved.matrix_norm(m, false).map_err(as_norm)?;
                if !keepdims {
                    return Ok(out);
                }
                let kd: Vec<isize> = (0..nd)
                    .map(|a| {
                        if axes.contains(&a) {
                            1
                        } else {
                            self.shape()[a] as isize
                        }
                    })
                    .collect();
                out.reshape(&kd)
            }
            k => Err(Error::invalid(
                OP,
                format!(
                    "improper number of axes: {k} (one for a vector norm, two for a matrix norm)"
                ),
            )),
        }
    }
}
