//! Boolean masks and the positions of nonzero elements: `select` (NumPy `x[mask]`),
//! `put_mask` (`x[mask] = values`), `masked_fill` (`x[mask] = value`), `argwhere`, `nonzero`
//! and `flatnonzero`.
//!
//! A mask has either `x`'s shape or the shape of `x`'s leading dimensions
//! (`x.shape[..mask.ndim]`); in the second case it selects whole sub-arrays, as NumPy does.
//! Elements are taken in C order.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::{Layout, shape_size};

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Checks a mask against `self` and returns its layout broadcast to `self`'s shape (zero
    /// strides over the trailing dimensions it does not cover).
    fn mask_layout(&self, op: &'static str, mask: &Array<bool, B>) -> Result<Layout> {
        self.check_device(mask, op)?;
        let (xs, ms) = (self.shape(), mask.shape());
        if ms.len() > xs.len() || xs[..ms.len()] != *ms {
            return Err(Error::invalid(
                op,
                format!(
                    "boolean mask of shape {ms:?} does not match the array of shape {xs:?} \
                     (it must have the array's shape or that of its leading dimensions)"
                ),
            ));
        }
        let mut strides = mask.strides().to_vec();
        strides.resize(xs.len(), 0);
        Ok(Layout::new(xs.to_vec(), strides, mask.layout.offset()))
    }

    /// The elements (or, for a mask of the leading dimensions, the sub-arrays) where `mask` is
    /// true, in C order: NumPy's `x[mask]`. The result has shape
    /// `[count] + x.shape[mask.ndim..]` and is a new array.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming both shapes when the mask's shape is neither `x`'s
    /// nor that of its leading dimensions; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[3, 2], dev)?;
    /// let rows = Array::<bool, B>::from_vec(vec![true, false, true], &[3], dev)?;
    /// let picked = x.select(&rows)?;
    /// assert_eq!(picked.shape(), &[2, 2]);
    /// assert_eq!(picked.to_vec()?, vec![1, 2, 5, 6]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn select(&self, mask: &Array<bool, B>) -> Result<Self> {
        const OP: &str = "select";
        let lm = self.mask_layout(OP, mask)?;
        let rest = &self.shape()[mask.ndim()..];
        let rest_size = shape_size(rest);
        let (buf, selected) = self
            .device
            .mask_select(&self.buf, &self.layout, &mask.buf, &lm)?;
        let count = match selected.checked_div(rest_size) {
            Some(c) => c,
            // Empty sub-arrays: the count comes from the mask itself.
            None => self.device.count_nonzero(&mask.buf, &mask.layout)?,
        };
        let mut shape = vec![count];
        shape.extend_from_slice(rest);
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// Writes `values` where `mask` is true: NumPy's `x[mask] = values`. `values` is either a
    /// single element (written everywhere the mask is true) or broadcastable to
    /// `[count] + x.shape[mask.ndim..]` (one element per selected element, in C order).
    /// Unlike `np.putmask`, values are never recycled.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the shapes when the mask does not fit `x` or the
    /// values do not fit the selection (wrong count); when `x` is a broadcast (read-only)
    /// view; [`Error::DeviceMismatch`]. On error `x` is unchanged.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut x = Array::<f64, B>::from_vec(vec![1.0, -2.0, 3.0, -4.0], &[4], dev)?;
    /// let neg = Array::<bool, B>::from_vec(vec![false, true, false, true], &[4], dev)?;
    /// x.put_mask(&neg, &Array::from_vec(vec![20.0, 40.0], &[2], dev)?)?;
    /// assert_eq!(x.to_vec()?, vec![1.0, 20.0, 3.0, 40.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn put_mask(&mut self, mask: &Array<bool, B>, values: &Array<T, B>) -> Result<()> {
        const OP: &str = "put_mask";
        self.check_device(values, OP)?;
        let lm = self.mask_layout(OP, mask)?;
        let lv = if values.size() == 1 {
            // Every index of a size-1 view addresses the element at its offset.
            Layout::new(vec![1], vec![0], values.layout.offset())
        } else {
            let count = self.device.count_nonzero(&mask.buf, &mask.layout)?;
            let mut target = vec![count];
            target.extend_from_slice(&self.shape()[mask.ndim()..]);
            values.layout.broadcast_to(OP, &target).map_err(|_| {
                Error::invalid(
                    OP,
                    format!(
                        "cannot assign values of shape {:?} to the {count} true elements of \
                         a mask of shape {:?} (selection shape {target:?}, array shape {:?})",
                        values.shape(),
                        mask.shape(),
                        self.shape()
                    ),
                )
            })?
        };
        let dev = self.device.clone();
        let (buf, ld) = self.writable(OP)?;
        dev.mask_assign(buf, ld, &mask.buf, &lm, &values.buf, &lv)
    }

    /// Sets the elements (or sub-arrays) where `mask` is true to `value`: NumPy's
    /// `x[mask] = value`.
    ///
    /// # Errors
    /// As [`Array::put_mask`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut x = Array::<i64, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let m = Array::<bool, B>::from_vec(vec![false, true], &[2], dev)?;
    /// x.masked_fill(&m, 0)?;
    /// assert_eq!(x.to_vec()?, vec![1, 2, 0, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn masked_fill(&mut self, mask: &Array<bool, B>, value: T) -> Result<()> {
        let v = Array::scalar(value, &self.device)?;
        self.put_mask(mask, &v).map_err(|e| match e {
            Error::InvalidArgument { msg, .. } => Error::invalid("masked_fill", msg),
            other => other,
        })
    }

    /// The multi-indices of the nonzero (truthy) elements in C order, as a `[count, ndim]`
    /// array (NumPy `np.argwhere`). A 0-d array gives `[count, 0]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f32, B>::from_vec(vec![0.0, 1.5, 2.0, 0.0], &[2, 2], dev)?;
    /// let w = x.argwhere()?;
    /// assert_eq!(w.shape(), &[2, 2]);
    /// assert_eq!(w.to_vec()?, vec![0, 1, 1, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argwhere(&self) -> Result<Array<i64, B>> {
        let (buf, count) = self.device.nonzero(&self.buf, &self.layout)?;
        Ok(Array::from_contiguous(
            buf,
            &[count, self.ndim()],
            &self.device,
        ))
    }

    /// The indices of the nonzero elements, one 1-d array per axis (NumPy `np.nonzero`):
    /// element `i` of every array together form the multi-index of the `i`-th nonzero
    /// element in C order.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d array (NumPy 2 refuses it too; use
    /// [`Array::argwhere`] or reshape to 1-d).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<bool, B>::from_vec(vec![true, false, false, true], &[2, 2], dev)?;
    /// let nz = x.nonzero()?;
    /// assert_eq!(nz[0].to_vec()?, vec![0, 1]);
    /// assert_eq!(nz[1].to_vec()?, vec![0, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn nonzero(&self) -> Result<Vec<Array<i64, B>>> {
        if self.ndim() == 0 {
            return Err(Error::invalid(
                "nonzero",
                "calling nonzero on a 0-d array is not allowed; use argwhere or reshape to 1-d",
            ));
        }
        let w = self.argwhere()?;
        if w.size() == 0 {
            return (0..self.ndim())
                .map(|_| Array::zeros(&[0], &self.device))
                .collect();
        }
        (0..self.ndim())
            .map(|d| w.with_layout(w.layout.index_axis(1, d)).copy())
            .collect()
    }

    /// The flat C-order indices of the nonzero elements, as a 1-d array (NumPy
    /// `np.flatnonzero`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i32, B>::from_vec(vec![0, 3, 0, 4], &[2, 2], dev)?;
    /// assert_eq!(x.flatnonzero()?.to_vec()?, vec![1, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn flatnonzero(&self) -> Result<Array<i64, B>> {
        let w = self.reshape(&[-1])?.argwhere()?;
        let n = w.shape()[0];
        Ok(w.with_layout(Layout::contiguous(&[n])))
    }
}
