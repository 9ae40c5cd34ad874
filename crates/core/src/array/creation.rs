//! Creating arrays: from host data, filled with a value, ramps.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Numeric};
use crate::error::{Error, Result};
use crate::layout::shape_size;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// An array of `shape` from row-major host data (an upload to `dev`).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `data.len()` is not the product of `shape`.
    pub fn from_vec(data: Vec<T>, shape: &[usize], dev: &B) -> Result<Self> {
        if data.len() != shape_size(shape) {
            return Err(Error::ShapeMismatch {
                op: "from_vec",
                lhs: vec![data.len()],
                rhs: shape.to_vec(),
            });
        }
        let buf = dev.from_vec(data)?;
        Ok(Array::from_contiguous(buf, shape, dev))
    }

    /// An array of `shape` from a row-major host slice (an upload to `dev`).
    pub fn from_slice(data: &[T], shape: &[usize], dev: &B) -> Result<Self> {
        Self::from_vec(data.to_vec(), shape, dev)
    }

    /// A 0-d array holding `value`.
    pub fn scalar(value: T, dev: &B) -> Result<Self> {
        Self::full(&[], value, dev)
    }

    /// An array of `shape` filled with `value`.
    pub fn full(shape: &[usize], value: T, dev: &B) -> Result<Self> {
        let buf = dev.full(shape_size(shape), value)?;
        Ok(Array::from_contiguous(buf, shape, dev))
    }

    /// An array of zeros (false for bool).
    pub fn zeros(shape: &[usize], dev: &B) -> Result<Self> {
        Self::full(shape, T::ZERO, dev)
    }

    /// An array of ones (true for bool).
    pub fn ones(shape: &[usize], dev: &B) -> Result<Self> {
        Self::full(shape, T::ONE, dev)
    }

    /// An array whose contents are unspecified by the API. cuprite never exposes
    /// uninitialised memory, so the elements are zeros; use it to state that every element
    /// will be overwritten.
    pub fn empty(shape: &[usize], dev: &B) -> Result<Self> {
        Self::zeros(shape, dev)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// `n` values `start, start + step, ...` as a 1-d array (no float-range rounding issues:
    /// the count is given).
    pub fn ramp(n: usize, start: T, step: T, dev: &B) -> Result<Self> {
        let buf = dev.arange(n, start, step)?;
        Ok(Array::from_contiguous(buf, &[n], dev))
    }
}
