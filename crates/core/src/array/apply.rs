//! NumPy's functional helpers and `as*array` conversions: [`Array::apply_along_axis`] and
//! [`Array::apply_over_axes`] (a user function over 1-d slices or over axes, one call each,
//! results assembled as NumPy does), [`Array::asfortranarray`] (a Fortran-ordered copy)
//! and [`Array::asarray_chkfinite`] (an error for NaN or infinite values).

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::slice::SliceArg;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.apply_along_axis(f, axis, a)`: `f` is called on every 1-d slice along
    /// `axis` (in C order of the other axes) and its results, which must all have one
    /// shape, take the place of that axis: a 0-d result removes it, an `m`-element one
    /// replaces its length, a 2-d one adds an axis.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`], a 0-d array, an empty iteration (another axis of length 0,
    /// as NumPy), results of different shapes, or `f`'s own error (returned as it is).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, 1.0, 2.0, 9.0, 7.0, 8.0], &[2, 3], dev)?;
    /// // The middle of each sorted row.
    /// let mid = a.apply_along_axis(1, |row| row.sort(-1)?.slice(&s![1]))?;
    /// assert_eq!((mid.shape(), mid.to_vec()?), (&[2usize][..], vec![2.0, 8.0]));
    /// // Each column's values and their squares: a new axis of length 2 at axis 0.
    /// let both = a.apply_along_axis(0, |c| Array::stack(&[c, &c.square()?], 0))?;
    /// assert_eq!(both.shape(), &[2, 2, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn apply_along_axis<U: Element, F>(&self, axis: isize, mut f: F) -> Result<Array<U, B>>
    where
        F: FnMut(&Array<T, B>) -> Result<Array<U, B>>,
    {
        const OP: &str = "apply_along_axis";
        let nd = self.ndim();
        if nd == 0 {
            return Err(Error::invalid(
                OP,
                "needs an array of at least one dimension",
            ));
        }
        let ax = normalize_axis(OP, axis, nd)?;
        let moved = self.moveaxis(&[ax as isize], &[-1])?;
        let outer: Vec<usize> = moved.shape()[..nd - 1].to_vec();
        let m: usize = outer.iter().product();
        if m == 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "cannot apply along axis {ax} of shape {:?}: another axis has length 0",
                    self.shape()
                ),
            ));
        }
        let n = self.shape()[ax];
        let rows = moved.reshape(&[m as isize, n as isize])?;
        let mut out: Vec<Array<U, B>> = Vec::with_capacity(m);
        for i in 0..m {
            let r = f(&rows.slice(&[SliceArg::Index(i as isize)])?)?;
            if let Some(first) = out.first()
                && first.shape() != r.shape()
            {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the function's results differ in shape: {:?} for the first slice, \
                         {:?} for slice {i}",
                        first.shape(),
                        r.shape()
                    ),
                ));
            }
            out.push(r);
        }
        let rshape = out[0].shape().to_vec();
        let refs: Vec<&Array<U, B>> = out.iter().collect();
        let stacked = Array::stack(&refs, 0)?;
        let mut shape: Vec<isize> = outer.iter().map(|&d| d as isize).collect();
        shape.extend(rshape.iter().map(|&d| d as isize));
        let res = stacked.reshape(&shape)?;
        // The result's own axes go where `axis` was.
        let k = rshape.len();
        let src: Vec<isize> = (0..k).map(|j| (nd - 1 + j) as isize).collect();
        let dst: Vec<isize> = (0..k).map(|j| (ax + j) as isize).collect();
        res.moveaxis(&src, &dst)
    }

    /// NumPy's `np.apply_over_axes(f, a, axes)`: `f(array, axis)` is applied for each axis
    /// in turn, to the previous result; a result with one dimension fewer gets the axis back
    /// with length 1 (so `f` may be a reduction without `keepdims`).
    ///
    /// # Errors
    /// A result whose dimensions are neither the input's nor one fewer, an axis out of
    /// range, or `f`'s own error.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(24, 0, 1, dev)?.reshape(&[2, 3, 4])?;
    /// let s = a.apply_over_axes(&[0, 2], |x, ax| x.sum_axes(ax, false))?;
    /// assert_eq!((s.shape(), s.to_vec()?), (&[1usize, 3, 1][..], vec![60, 92, 124]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn apply_over_axes<F>(&self, axes: &[isize], mut f: F) -> Result<Self>
    where
        F: FnMut(&Self, isize) -> Result<Self>,
    {
        const OP: &str = "apply_over_axes";
        let mut cur = self.clone();
        for &axis in axes {
            let nd = cur.ndim();
            let ax = normalize_axis(OP, axis, nd)?;
            let r = f(&cur, ax as isize)?;
            cur = if r.ndim() == nd {
                r
            } else if r.ndim() + 1 == nd {
                r.expand_dims(ax as isize)?
            } else {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "the function's result along axis {ax} has {} dimensions; it must \
                         have {nd} or {}",
                        r.ndim(),
                        nd - 1
                    ),
                ));
            };
        }
        Ok(cur)
    }

    /// NumPy's `np.asfortranarray`: the values in Fortran (column-major) order, a copy
    /// unless the array already is; its strides say so (`a.strides()` ascending).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], dev)?;
    /// let f = a.asfortranarray()?;
    /// assert_eq!((f.to_vec()?, f.strides()), (a.to_vec()?, &[1isize, 2][..]));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn asfortranarray(&self) -> Result<Self> {
        let rev: Vec<isize> = (0..self.ndim() as isize).rev().collect();
        let t = self.permute_dims(&rev)?;
        if t.layout.is_c_contiguous() && t.layout.offset() == 0 {
            return Ok(self.clone());
        }
        t.copy()?.permute_dims(&rev)
    }

    /// NumPy's `np.asarray_chkfinite`: the array itself, or an error when an element is NaN
    /// or infinite (integer and bool arrays always pass, with no pass over them).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the op and the count of non-finite elements.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev)?;
    /// assert!(a.asarray_chkfinite().is_err());
    /// assert!(a.slice(&s![..1])?.asarray_chkfinite().is_ok());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn asarray_chkfinite(&self) -> Result<Self> {
        if !(T::DTYPE.is_float() || T::DTYPE.is_complex()) || self.size() == 0 {
            return Ok(self.clone());
        }
        let x = crate::promote::promoted::<T, T::FloatOut, B>(self)?;
        let bad = x.get().isfinite()?.logical_not()?.count_nonzero()?.item()?;
        if bad > 0 {
            return Err(Error::invalid(
                "asarray_chkfinite",
                format!(
                    "array must not contain infs or NaNs: {bad} of {} elements are",
                    self.size()
                ),
            ));
        }
        Ok(self.clone())
    }
}
