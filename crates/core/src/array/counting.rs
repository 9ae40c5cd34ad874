//! Counting and scattering by index: NumPy's unbuffered `ufunc.at` ([`Array::add_at`],
//! [`Array::minimum_at`], [`Array::maximum_at`], and [`Array::ufunc_at`] for any binary op
//! without parameters), [`Array::bincount`] / [`Array::bincount_weighted`] and
//! [`Array::digitize`]. The scatters go through the backend primitive `scatter_reduce`
//! (atomics on the GPU), so every value of a repeated index is combined, as NumPy's.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Integer, Numeric, Real};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::{Add, BinaryOp, Maximum, Minimum};
use crate::slice::SliceArg;

/// The flat element of `i` as an `f64` (exact for every value an index or a count takes).
fn to_f64<T: Element>(x: T) -> f64 {
    f64::from_scalar(x.to_scalar())
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// NumPy's unbuffered `op.at(self, indices, values)`: for every index `i` of `indices`
    /// (an integer array of any shape indexing the first axis, negative values counting from
    /// the end), `self[i] = op(self[i], v)` with the matching slice `v` of `values`, which
    /// broadcasts to `indices.shape + self.shape[1..]`. Unlike `self[indices] op= values`, a
    /// repeated index applies every one of its values. On the GPU the updates are atomic and
    /// their order unspecified, so a floating-point sum may round differently from a
    /// sequential loop (integers, minima and maxima are exact).
    ///
    /// # Errors
    /// A 0-d or read-only (broadcast) `self`, an index outside `-n..n` (nothing is written
    /// then), `values` that do not broadcast, or an op with parameters.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::zeros(&[4], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![0, 2, 2, -1], &[4], dev)?;
    /// a.ufunc_at(ops::Add, &i, &Array::scalar(5, dev)?)?;
    /// assert_eq!(a.to_vec()?, vec![5, 0, 10, 5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn ufunc_at<O: BinaryOp<T, Out = T>, I: Integer>(
        &mut self,
        op: O,
        indices: &Array<I, B>,
        values: &Array<T, B>,
    ) -> Result<()> {
        let name = O::NAME;
        self.check_device(indices, name)?;
        self.check_device(values, name)?;
        if !op.params().is_empty() {
            return Err(Error::invalid(
                name,
                "ufunc.at takes ops without parameters".to_string(),
            ));
        }
        if self.ndim() == 0 {
            return Err(Error::invalid(
                name,
                "ufunc.at needs an array of at least one dimension, got a 0-d array",
            ));
        }
        if !self.layout.is_writeable_without_overlap() {
            // Reports the read-only destination as every in-place op does.
            self.writable(name)?;
        }
        let n = self.shape()[0];
        let rest = self.shape()[1..].to_vec();
        let q: usize = rest.iter().product();
        // i64 indices are used as they are; other integer types are cast.
        let idx = super::index::as_i64(indices)?;
        let mut target = idx.shape().to_vec();
        target.extend_from_slice(&rest);
        let vals = values
            .broadcast_to(&target)
            .map_err(|_| Error::ShapeMismatch {
                op: name,
                lhs: values.shape().to_vec(),
                rhs: target.clone(),
            })?;
        if idx.size() == 0 {
            return Ok(());
        }
        let flat_idx = if q == 1 {
            // The indices are the flat ones; the backend checks them.
            idx.reshape(&target.iter().map(|&d| d as isize).collect::<Vec<_>>())?
        } else {
            check_range(name, &idx, n)?;
            if q == 0 {
                return Ok(());
            }
            // flat = (i mod n) * q + j for every j of the trailing axes.
            let wrapped = Array::where_(&idx.lt_scalar(0)?, &idx.scalar_op(Add, n as i64)?, &idx)?;
            super::index::block_positions(&wrapped, &rest)?
        };
        self.scatter_reduce_flat(name, op, &flat_idx, &vals)
    }

    /// `self.flat[p] = op(self.flat[p], v)` for the flat C-order positions `flat_idx` of
    /// the logical array and the values `vals` (of the positions' shape), by the backend's
    /// scatter (a non-contiguous array is made contiguous first).
    pub(super) fn scatter_reduce_flat<O: BinaryOp<T, Out = T>>(
        &mut self,
        name: &'static str,
        op: O,
        flat_idx: &Array<i64, B>,
        vals: &Array<T, B>,
    ) -> Result<()> {
        if !self.layout.is_writeable_without_overlap() {
            // Reports the read-only destination as every in-place op does.
            self.writable(name)?;
        }
        let size = self.size();
        let flat = match self.layout.reshaped(&[size]) {
            Some(l) => l,
            None => {
                *self = self.copy()?;
                Layout::contiguous(&[size])
            }
        };
        let dev = self.device.clone();
        let (buf, _) = self.writable(name)?;
        dev.scatter_reduce(
            buf,
            &flat,
            &flat_idx.buf,
            &flat_idx.layout,
            &vals.buf,
            &vals.layout,
            op,
        )
    }
}

/// Checks that every index lies in `-n..n`, else names the first one outside (two numbers
/// read back when one is bad, one otherwise).
fn check_range<B: ArrayBackend>(op: &'static str, idx: &Array<i64, B>, n: usize) -> Result<()> {
    let n = n as i64;
    let bad = idx.lt_scalar(-n)?.logical_or(&idx.ge_scalar(n)?)?;
    if !bad.any()?.item()? {
        return Ok(());
    }
    let first = bad.ravel()?.argmax()?.item()?;
    let index = idx
        .ravel()?
        .slice(&[SliceArg::Index(first as isize)])?
        .item()?;
    Err(Error::IndexOutOfRange {
        op,
        index,
        axis: 0,
        size: n as usize,
    })
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.add.at(self, indices, values)`: adds every value at its index, repeated
    /// indices accumulating (integers wrap). See [`ufunc_at`](Self::ufunc_at).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<f64, B>::zeros(&[2, 2], dev)?;
    /// let rows = Array::<i64, B>::from_vec(vec![1, 1, 0], &[3], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev)?;
    /// a.add_at(&rows, &v)?;
    /// assert_eq!(a.to_vec()?, vec![1.0, 2.0, 2.0, 4.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn add_at<I: Integer>(&mut self, indices: &Array<I, B>, values: &Self) -> Result<()> {
        self.ufunc_at(Add, indices, values)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.minimum.at(self, indices, values)`: the smaller of the element and every
    /// value at its index; NaN wins, as in [`minimum`](Self::minimum). See
    /// [`ufunc_at`](Self::ufunc_at).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::full(&[3], 10, dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![0, 0, 2], &[3], dev)?;
    /// a.minimum_at(&i, &Array::from_vec(vec![7, 3, 12], &[3], dev)?)?;
    /// assert_eq!(a.to_vec()?, vec![3, 10, 10]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn minimum_at<I: Integer>(&mut self, indices: &Array<I, B>, values: &Self) -> Result<()> {
        self.ufunc_at(Minimum, indices, values)
    }

    /// NumPy's `np.maximum.at(self, indices, values)`: the larger of the element and every
    /// value at its index; NaN wins, as in [`maximum`](Self::maximum). See
    /// [`ufunc_at`](Self::ufunc_at).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<f32, B>::zeros(&[2], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![1, 1, 1], &[3], dev)?;
    /// a.maximum_at(&i, &Array::from_vec(vec![2.0, 5.0, 1.0], &[3], dev)?)?;
    /// assert_eq!(a.to_vec()?, vec![0.0, 5.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn maximum_at<I: Integer>(&mut self, indices: &Array<I, B>, values: &Self) -> Result<()> {
        self.ufunc_at(Maximum, indices, values)
    }

    /// NumPy's `np.digitize(self, bins, right)`: for each element, the index of the bin of
    /// the 1-d monotonic (increasing or decreasing) `bins` it falls in, as `i64` of the
    /// input's shape. Increasing bins: `bins[i-1] <= x < bins[i]` (`right = false`) or
    /// `bins[i-1] < x <= bins[i]` (`right = true`); values beyond the ends give 0 or
    /// `bins.len()`; NaN sorts after everything, as in NumPy.
    ///
    /// # Errors
    /// `bins` not 1-d, or neither increasing nor decreasing.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![0.2, 6.4, 3.0, 1.6], &[4], dev)?;
    /// let bins = Array::<f64, B>::from_vec(vec![0.0, 1.0, 2.5, 4.0, 10.0], &[5], dev)?;
    /// assert_eq!(x.digitize(&bins, false)?.to_vec()?, vec![1, 4, 3, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn digitize(&self, bins: &Self, right: bool) -> Result<Array<i64, B>> {
        const OP: &str = "digitize";
        self.check_device(bins, OP)?;
        if bins.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!("bins must be 1-d, got shape {:?}", bins.shape()),
            ));
        }
        let m = bins.size();
        let decreasing = if m < 2 {
            false
        } else {
            let hi = bins.slice(&[SliceArg::Range {
                start: Some(1),
                stop: None,
                step: 1,
            }])?;
            let lo = bins.slice(&[SliceArg::Range {
                start: None,
                stop: Some(-1),
                step: 1,
            }])?;
            if hi.ge(&lo)?.all()?.item()? {
                false
            } else if hi.le(&lo)?.all()?.item()? {
                true
            } else {
                return Err(Error::invalid(
                    OP,
                    "bins must be monotonically increasing or decreasing",
                ));
            }
        };
        // Reversed arguments: the value is the one searched for.
        let side = if right {
            super::Side::Left
        } else {
            super::Side::Right
        };
        if decreasing {
            let rev = bins.slice(&[SliceArg::Range {
                start: None,
                stop: None,
                step: -1,
            }])?;
            rev.searchsorted(self, side)?
                .scalar_op_rev(crate::ops::Sub, m as i64)
        } else {
            bins.searchsorted(self, side)
        }
    }
}

impl<I: Integer, B: ArrayBackend> Array<I, B> {
    /// The output length of `bincount`: `max + 1` or `minlength`, checking the input.
    fn bincount_len(&self, minlength: usize) -> Result<usize> {
        const OP: &str = "bincount";
        if self.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!("the input must be 1-d, got shape {:?}", self.shape()),
            ));
        }
        if self.size() == 0 {
            return Ok(minlength);
        }
        let (lo, hi) = self.device.min_max(&self.buf, &self.layout)?;
        let one = |b| Array::<I, B>::from_contiguous(b, &[], &self.device).item();
        let lo = one(lo)?;
        if lo < I::zero() {
            return Err(Error::invalid(
                OP,
                format!("the input must be non-negative, found {}", to_f64(lo)),
            ));
        }
        let hi = one(hi)?;
        let len = hi
            .to_usize()
            .and_then(|h| h.checked_add(1))
            .ok_or_else(|| Error::invalid(OP, "the largest value does not fit in usize"))?;
        Ok(len.max(minlength))
    }

    /// NumPy's `np.bincount(self, minlength=minlength)`: `out[k]` is the number of times `k`
    /// occurs in the 1-d non-negative `self`, for `k` up to `max(self.max() + 1, minlength)`.
    /// Reads the input's minimum and maximum back (the output's length depends on them).
    ///
    /// # Errors
    /// `self` not 1-d or holding a negative value.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<u8, B>::from_vec(vec![1, 3, 1, 0, 3, 3], &[6], dev)?;
    /// assert_eq!(x.bincount(0)?.to_vec()?, vec![1, 2, 0, 3]);
    /// assert_eq!(x.bincount(6)?.to_vec()?, vec![1, 2, 0, 3, 0, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn bincount(&self, minlength: usize) -> Result<Array<i64, B>> {
        let len = self.bincount_len(minlength)?;
        let mut out = Array::<i64, B>::zeros(&[len], &self.device)?;
        out.add_at(self, &Array::scalar(1, &self.device)?)?;
        Ok(out)
    }

    /// NumPy's `np.bincount(self, weights, minlength)`: `out[k]` is the sum of the weights
    /// of the elements equal to `k`. The output has the weights' type (NumPy's is always
    /// float64: pass `f64` weights for its result).
    ///
    /// # Errors
    /// As [`bincount`](Self::bincount), and weights of another shape than `self`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i64, B>::from_vec(vec![0, 1, 1, 2], &[4], dev)?;
    /// let w = Array::<f64, B>::from_vec(vec![0.5, 0.25, 1.0, -2.0], &[4], dev)?;
    /// assert_eq!(x.bincount_weighted(&w, 0)?.to_vec()?, vec![0.5, 1.25, -2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn bincount_weighted<W: Numeric>(
        &self,
        weights: &Array<W, B>,
        minlength: usize,
    ) -> Result<Array<W, B>> {
        self.check_device(weights, "bincount")?;
        if weights.shape() != self.shape() {
            return Err(Error::ShapeMismatch {
                op: "bincount",
                lhs: self.shape().to_vec(),
                rhs: weights.shape().to_vec(),
            });
        }
        let len = self.bincount_len(minlength)?;
        let mut out = Array::<W, B>::zeros(&[len], &self.device)?;
        out.add_at(self, weights)?;
        Ok(out)
    }
}
