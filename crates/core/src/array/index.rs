//! Integer-array indexing: [`Array::take`], [`Array::take_along_axis`],
//! [`Array::index_select`], NumPy advanced indexing with one index array per leading axis
//! ([`Array::index_arrays`]) and the scatters [`Array::put`] and [`Array::put_along_axis`].
//!
//! Indices may be of any integer type (`i64` is used as is, others are converted once);
//! negative indices count from the end of their axis and an index outside `-n..n` is
//! [`Error::IndexOutOfRange`]. Shapes are resolved here; the backend's
//! [`IndexOps`](crate::backend::IndexOps) primitives do the gathers and scatters.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Integer};
use crate::error::{Error, Result};
use crate::layout::{Layout, broadcast_shapes, normalize_axis, shape_size};
use crate::ops::{Add, Mul};
use crate::promote::cast_or_share;

/// The flat C-order positions `lead * q + r` of every element `r` of the blocks of shape
/// `rest` (`q` elements each) that the indices `lead` (in `0..n`) name: shape
/// `lead.shape + rest`.
pub(super) fn block_positions<B: ArrayBackend>(
    lead: &Array<i64, B>,
    rest: &[usize],
) -> Result<Array<i64, B>> {
    let mut shape: Vec<isize> = lead.shape().iter().map(|&d| d as isize).collect();
    shape.extend(rest.iter().map(|_| 1isize));
    let q = shape_size(rest);
    if q == 1 {
        // Blocks of one element: the positions are the indices.
        return lead.reshape(&shape);
    }
    let within = Array::<i64, B>::ramp(q, 0, 1, lead.device())?
        .reshape(&rest.iter().map(|&d| d as isize).collect::<Vec<_>>())?;
    lead.scalar_op(Mul, q as i64)?
        .reshape(&shape)?
        .try_add(&within)
}

/// The indices as an `i64` array: the same array when it already is one, else a converted copy.
pub(super) fn as_i64<I: Integer, B: ArrayBackend>(a: &Array<I, B>) -> Result<Array<i64, B>> {
    cast_or_share(a)
}

/// Renames the op (and the axis) of an index error raised by a primitive on behalf of `op`.
fn renamed(op: &'static str, axis: Option<usize>) -> impl Fn(Error) -> Error {
    move |e| match e {
        Error::IndexOutOfRange {
            index,
            axis: a,
            size,
            ..
        } => Error::IndexOutOfRange {
            op,
            index,
            axis: axis.unwrap_or(a),
            size,
        },
        other => other,
    }
}

/// The shape of `x` along-axis ops work on: `x`'s shape except along `axis`, where the
/// indices' length is used; index dimensions of 1 broadcast against `x`'s.
fn along_axis_shape(
    op: &'static str,
    x: &[usize],
    idx: &[usize],
    axis: usize,
    allow_x_broadcast: bool,
) -> Result<Vec<usize>> {
    if x.len() != idx.len() {
        return Err(Error::invalid(
            op,
            format!(
                "`indices` and `arr` must have the same number of dimensions \
                 (indices shape {idx:?}, array shape {x:?})"
            ),
        ));
    }
    let mut out = Vec::with_capacity(x.len());
    for d in 0..x.len() {
        out.push(if d == axis {
            idx[d]
        } else if idx[d] == x[d] || idx[d] == 1 {
            x[d]
        } else if x[d] == 1 && allow_x_broadcast {
            idx[d]
        } else {
            return Err(Error::Broadcast {
                op,
                lhs: x.to_vec(),
                rhs: idx.to_vec(),
            });
        });
    }
    Ok(out)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// NumPy's `take`: the elements at `indices` along `axis`; the output's shape is
    /// `shape[..axis] + indices.shape + shape[axis+1..]`. With `axis = None` the array is
    /// flattened first and the output has the shape of `indices`.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for a bad axis, [`Error::IndexOutOfRange`] for an index
    /// outside `-n..n` (negative indices count from the end).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::ramp(6, 0.0, 1.0, dev)?.reshape(&[2, 3])?;
    /// let i = Array::<i64, B>::from_vec(vec![2, -3], &[2], dev)?;
    /// assert_eq!(a.take(&i, Some(1))?.to_vec()?, vec![2.0, 0.0, 5.0, 3.0]);
    /// assert_eq!(a.take(&i, None)?.to_vec()?, vec![2.0, 3.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn take<I: Integer>(&self, indices: &Array<I, B>, axis: Option<isize>) -> Result<Self> {
        const OP: &str = "take";
        self.check_device(indices, OP)?;
        let (src, ax) = match axis {
            None => (self.ravel()?, 0),
            Some(a) => (self.clone(), normalize_axis(OP, a, self.ndim())?),
        };
        let idx = as_i64(indices)?;
        let mut shape = src.shape()[..ax].to_vec();
        shape.extend_from_slice(idx.shape());
        shape.extend_from_slice(&src.shape()[ax + 1..]);
        let buf = self
            .device
            .take(&src.buf, &src.layout, ax, &idx.buf, &idx.layout)?;
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// Integer-array indexing along one axis: `x.index_select(1, &i)` is NumPy's `x[:, i]`
    /// (the same as `take(&i, Some(axis))`).
    ///
    /// # Errors
    /// As [`Array::take`].
    pub fn index_select<I: Integer>(&self, axis: isize, indices: &Array<I, B>) -> Result<Self> {
        self.take(indices, Some(axis))
    }

    /// NumPy's `take_along_axis`: `out[.., j, ..] = x[.., indices[.., j, ..], ..]` along
    /// `axis`. `indices` has as many dimensions as `x`; its other dimensions broadcast against
    /// `x`'s. Typical use: gathering with the output of an `argsort`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the ranks differ, [`Error::Broadcast`] when the other
    /// dimensions do not broadcast, [`Error::AxisOutOfRange`], [`Error::IndexOutOfRange`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![10, 30, 20, 60, 40, 50], &[2, 3], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![0, 2, 1, 1], &[2, 2], dev)?;
    /// assert_eq!(a.take_along_axis(&i, 1)?.to_vec()?, vec![10, 20, 40, 40]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn take_along_axis<I: Integer>(&self, indices: &Array<I, B>, axis: isize) -> Result<Self> {
        const OP: &str = "take_along_axis";
        self.check_device(indices, OP)?;
        let ax = normalize_axis(OP, axis, self.ndim())?;
        let shape = along_axis_shape(OP, self.shape(), indices.shape(), ax, true)?;
        let mut xs = shape.clone();
        xs[ax] = self.shape()[ax];
        let lx = self.layout.broadcast_to(OP, &xs)?;
        let idx = as_i64(indices)?;
        let li = idx.layout.broadcast_to(OP, &shape)?;
        let buf = self
            .device
            .take_along_axis(&self.buf, &lx, &idx.buf, &li, ax)?;
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// NumPy advanced indexing with one integer array per leading axis: `x.index_arrays(&[&i,
    /// &j])` is `x[i, j]`. The index arrays broadcast together to a shape `S`; the output has
    /// shape `S + shape[k..]` for `k` index arrays.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for more index arrays than axes, [`Error::Broadcast`] when
    /// the index arrays do not broadcast, [`Error::IndexOutOfRange`] naming the axis.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(12, 0, 1, dev)?.reshape(&[3, 4])?;
    /// let i = Array::<i64, B>::from_vec(vec![0, 2, -1], &[3], dev)?;
    /// let j = Array::<i64, B>::from_vec(vec![1, 3, 0], &[3], dev)?;
    /// assert_eq!(a.index_arrays(&[&i, &j])?.to_vec()?, vec![1, 11, 8]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn index_arrays<I: Integer>(&self, indices: &[&Array<I, B>]) -> Result<Self> {
        const OP: &str = "index_arrays";
        let k = indices.len();
        if k == 0 {
            return Ok(self.clone());
        }
        if k == 1 {
            self.check_index_count(OP, 1)?;
            self.check_device(indices[0], OP)?;
            let idx = as_i64(indices[0])?;
            return self.take(&idx, Some(0)).map_err(renamed(OP, Some(0)));
        }
        let (lin, _) = self.leading_index(OP, indices)?;
        let merged = shape_size(&self.shape()[..k]);
        let mut mshape = vec![merged as isize];
        mshape.extend(self.shape()[k..].iter().map(|&d| d as isize));
        let x = self.reshape(&mshape)?;
        x.take(&lin, Some(0)).map_err(renamed(OP, Some(0)))
    }

    /// The index arrays of `x[i, j, ...]` (one per leading axis) resolved into one index of
    /// the merged leading axes (`i * n1 + j` for two), in the shape `S` they broadcast to,
    /// every index in `0..n` of its axis (negative ones counted from the end, each checked).
    pub(super) fn leading_index<I: Integer>(
        &self,
        op: &'static str,
        indices: &[&Array<I, B>],
    ) -> Result<(Array<i64, B>, Vec<usize>)> {
        let k = indices.len();
        self.check_index_count(op, k)?;
        let mut shape: Vec<usize> = indices[0].shape().to_vec();
        for ix in indices {
            self.check_device(ix, op)?;
            shape = broadcast_shapes(op, &shape, ix.shape())?;
        }
        // Resolve every index array against its axis (a take from 0..n normalises negative
        // indices and checks bounds), then combine them into a flat index of the merged axes.
        let mut lin: Option<Array<i64, B>> = None;
        for (a, ix) in indices.iter().enumerate() {
            let n = self.shape()[a];
            let ix = as_i64(ix)?.broadcast_to(&shape)?;
            let ramp = Array::<i64, B>::ramp(n, 0, 1, &self.device)?;
            let norm = ramp.take(&ix, Some(0)).map_err(renamed(op, Some(a)))?;
            lin = Some(match lin {
                None => norm,
                Some(l) => l.scalar_op(Mul, n as i64)?.zip_op(Add, &norm)?,
            });
        }
        Ok((lin.expect("k >= 1 index arrays"), shape))
    }

    /// `k` index arrays for this array: at least one, at most one per axis.
    fn check_index_count(&self, op: &'static str, k: usize) -> Result<()> {
        if k == 0 || k > self.ndim() {
            return Err(Error::invalid(
                op,
                format!(
                    "too many indices for array: array is {}-dimensional, but {k} were indexed",
                    self.ndim()
                ),
            ));
        }
        Ok(())
    }

    /// NumPy's `put`: `self.flat[indices[i]] = values[i]` (C order of the logical array),
    /// with `values` cycled when shorter than `indices`; the last write to a repeated index
    /// wins.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] (negative indices count from the end), an empty `values`
    /// with non-empty `indices`, or a broadcast (read-only) destination.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::zeros(&[2, 3], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![0, -1, 4], &[3], dev)?;
    /// a.put(&i, &Array::from_vec(vec![7, 8], &[2], dev)?)?;
    /// assert_eq!(a.to_vec()?, vec![7, 0, 0, 0, 7, 8]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn put<I: Integer>(&mut self, indices: &Array<I, B>, values: &Array<T, B>) -> Result<()> {
        const OP: &str = "put";
        self.check_device(indices, OP)?;
        self.check_device(values, OP)?;
        if !self.layout.is_writeable_without_overlap() {
            // Reports the read-only destination as every in-place op does.
            self.writable(OP)?;
        }
        let idx = as_i64(indices)?.ravel()?;
        let m = idx.size();
        if m == 0 {
            return Ok(());
        }
        let vals = values.ravel()?;
        let len = vals.size();
        if len == 0 {
            return Err(Error::invalid(
                OP,
                format!("cannot put {m} indices with an empty array of values"),
            ));
        }
        let vals = if len == m {
            vals
        } else if len == 1 {
            vals.broadcast_to(&[m])?
        } else {
            let reps = m.div_ceil(len);
            let cyc = vals
                .reshape(&[1, len as isize])?
                .broadcast_to(&[reps, len])?
                .copy()?;
            cyc.with_layout(Layout::contiguous(&[m]))
        };
        let size = self.size();
        let flat = match self.layout.reshaped(&[size]) {
            Some(l) => l,
            None => {
                *self = self.copy()?;
                Layout::contiguous(&[size])
            }
        };
        let dev = self.device.clone();
        let (buf, _) = self.writable(OP)?;
        dev.scatter(
            buf,
            &flat,
            0,
            &idx.buf,
            &idx.layout,
            &vals.buf,
            &vals.layout,
        )
        .map_err(renamed(OP, None))
    }

    /// NumPy's `put_along_axis`: `self[.., indices[.., j, ..], ..] = values[.., j, ..]` along
    /// `axis`. `indices` has as many dimensions as `self`, with its other dimensions equal to
    /// `self`'s or 1; `values` broadcasts to the indices' shape.
    ///
    /// # Errors
    /// Rank or shape mismatches, [`Error::AxisOutOfRange`], [`Error::IndexOutOfRange`], or a
    /// broadcast (read-only) destination.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<f64, B>::zeros(&[2, 3], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![2, 0], &[2, 1], dev)?;
    /// a.put_along_axis(&i, &Array::scalar(1.0, dev)?, 1)?;
    /// assert_eq!(a.to_vec()?, vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn put_along_axis<I: Integer>(
        &mut self,
        indices: &Array<I, B>,
        values: &Array<T, B>,
        axis: isize,
    ) -> Result<()> {
        const OP: &str = "put_along_axis";
        self.check_device(indices, OP)?;
        self.check_device(values, OP)?;
        let ax = normalize_axis(OP, axis, self.ndim())?;
        let shape = along_axis_shape(OP, self.shape(), indices.shape(), ax, false)?;
        let idx = as_i64(indices)?;
        let li = idx.layout.broadcast_to(OP, &shape)?;
        let lv = values.layout.broadcast_to(OP, &shape)?;
        let dev = self.device.clone();
        let (buf, ld) = self.writable(OP)?;
        dev.scatter(buf, ld, ax, &idx.buf, &li, &values.buf, &lv)
    }
}
