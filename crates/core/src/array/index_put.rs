//! Assignment through index arrays, the write twins of [`Array::index_arrays`]: NumPy's
//! `x[i, j] = v` ([`Array::index_put`], the last write to a repeated position wins) and
//! `np.add.at(x, (i, j), v)` ([`Array::index_add`], repeated positions accumulate).
//!
//! Both resolve the index arrays into one flat index of the array's elements (the merged
//! leading axes times the trailing block, plus the position in the block) and hand it to
//! the backend's scatters (those of [`Array::put`] and [`Array::ufunc_at`]).

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Integer, Numeric};
use crate::error::Result;
use crate::ops::Add;

impl<T: crate::dtype::Element, B: ArrayBackend> Array<T, B> {
    /// The flat C-order positions of `x[i, j, ...]` (shape `S + shape[k..]`) and `values`
    /// broadcast to that shape, both raveled.
    fn flat_positions<I: Integer>(
        &self,
        op: &'static str,
        indices: &[&Array<I, B>],
        values: &Array<T, B>,
    ) -> Result<(Array<i64, B>, Array<T, B>)> {
        self.check_device(values, op)?;
        let (lin, mut shape) = self.leading_index(op, indices)?;
        let rest = &self.shape()[indices.len()..];
        shape.extend_from_slice(rest);
        let vals = values
            .broadcast_to(&shape)
            .map_err(|e| crate::error::Error::invalid(op, format!("values: {e}")))?;
        let pos = super::index::block_positions(&lin, rest)?;
        Ok((pos.ravel()?, vals.ravel()?))
    }

    /// NumPy's `x[i, j, ...] = values`: one index array per leading axis (broadcast together
    /// to a shape `S`), `values` broadcast to `S + shape[k..]`; negative indices count from
    /// the end of their axis; where two index tuples name one position the last write wins.
    /// With no index arrays, `values` is written over the whole array (`x[()] = v`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for more index arrays than
    /// axes or `values` that do not broadcast, [`Error::Broadcast`](crate::Error::Broadcast)
    /// for index arrays that do not broadcast together,
    /// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) naming the axis; the array
    /// is unchanged after an error.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // N[Xi, Yi] = 7 with a 3x3 grid
    /// let mut n = Array::<i64, B>::zeros(&[3, 3], dev)?;
    /// let xi = Array::<i64, B>::from_vec(vec![0, 2, -1], &[3], dev)?;
    /// let yi = Array::<i64, B>::from_vec(vec![1, 0, 2], &[3], dev)?;
    /// n.index_put(&[&xi, &yi], &Array::scalar(7, dev)?)?;
    /// assert_eq!(n.to_vec()?, vec![0, 7, 0, 0, 0, 0, 7, 0, 7]);
    /// // Rows: x[[1, 0]] = [[1, 1, 1], [2, 2, 2]]
    /// let rows = Array::<i64, B>::from_vec(vec![1, 0], &[2], dev)?;
    /// let v = Array::<i64, B>::from_vec(vec![1, 2], &[2, 1], dev)?;
    /// n.index_put(&[&rows], &v)?;
    /// assert_eq!(n.to_vec()?, vec![2, 2, 2, 1, 1, 1, 7, 0, 7]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn index_put<I: Integer>(
        &mut self,
        indices: &[&Array<I, B>],
        values: &Array<T, B>,
    ) -> Result<()> {
        const OP: &str = "index_put";
        if indices.is_empty() {
            return self.assign(values);
        }
        let (pos, vals) = self.flat_positions(OP, indices, values)?;
        self.put(&pos, &vals)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.add.at(x, (i, j, ...), values)`: as [`index_put`](Self::index_put), but
    /// every value is added at its position, repeated positions accumulating (integers
    /// wrap).
    ///
    /// # Errors
    /// As [`index_put`](Self::index_put) (with at least one index array).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut h = Array::<f64, B>::zeros(&[2, 2], dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![0, 0, 1, 0], &[4], dev)?;
    /// let j = Array::<i64, B>::from_vec(vec![1, 1, 0, -1], &[4], dev)?;
    /// h.index_add(&[&i, &j], &Array::scalar(0.5, dev)?)?;
    /// assert_eq!(h.to_vec()?, vec![0.0, 1.5, 0.5, 0.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn index_add<I: Integer>(
        &mut self,
        indices: &[&Array<I, B>],
        values: &Array<T, B>,
    ) -> Result<()> {
        const OP: &str = "index_add";
        let (pos, vals) = self.flat_positions(OP, indices, values)?;
        if pos.size() == 0 {
            return Ok(());
        }
        self.scatter_reduce_flat(OP, Add, &pos, &vals)
    }
}
