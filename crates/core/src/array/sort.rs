//! Sorting and searching: `sort`/`argsort` along an axis or over the flattened array,
//! `partition`/`argpartition`, `searchsorted` and `unique`/`unique_all`.
//!
//! Every op orders elements by [`Element::sort_cmp`], NumPy's sort order: NaN after every
//! number (all NaNs equal), `-0.0` equal to `0.0` (so a stable sort keeps their input order),
//! complex numbers lexicographically by real then imaginary part (any value with a NaN part
//! last), `false < true`. Sorts are stable, like NumPy's `kind="stable"`.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::normalize_axis;

/// Which insertion point [`Array::searchsorted`] returns for a value equal to elements of the
/// sorted array: before them (`Left`, NumPy's default) or after them (`Right`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first index `i` with `value <= sorted[i]`.
    #[default]
    Left,
    /// The first index `i` with `value < sorted[i]`.
    Right,
}

/// The result of [`Array::unique_all`] (NumPy's `unique_all`).
#[derive(Clone, Debug)]
pub struct UniqueAll<T: Element, B: ArrayBackend> {
    /// The sorted distinct values (1-d). NaNs collapse into one value, as do `-0.0` and `0.0`
    /// (the one shown is the first occurrence).
    pub values: Array<T, B>,
    /// For each distinct value, the flat C-order index of its first occurrence in the input.
    pub indices: Array<i64, B>,
    /// For each input element, the index of its value in `values`; it has the input's shape,
    /// so `values.take(&inverse, None)` rebuilds the input.
    pub inverse: Array<i64, B>,
    /// How many times each distinct value occurs.
    pub counts: Array<i64, B>,
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The flattened (C order) 1-d view or copy, for the `*_flat` ops.
    fn flat_1d(&self) -> Result<Self> {
        self.reshape(&[-1])
    }

    /// A sorted copy, each lane along `axis` sorted stably (NumPy `np.sort(x, axis,
    /// kind="stable")`; NumPy's default axis is `-1`). Any strides are accepted; the result is
    /// C-contiguous with `self`'s shape.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] when `axis` is not in `-ndim..ndim` (always for a 0-d
    /// array, as NumPy; use [`Array::sort_flat`] for it).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![3.0, f64::NAN, -1.0, 2.0, 0.0, 1.0], &[2, 3], dev)?;
    /// let s = a.sort(-1)?.to_vec()?;
    /// assert_eq!(s[..2], [-1.0, 3.0]);
    /// assert!(s[2].is_nan());
    /// assert_eq!(a.sort(0)?.to_vec()?[..3], [2.0, 0.0, -1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn sort(&self, axis: isize) -> Result<Self> {
        let ax = normalize_axis("sort", axis, self.ndim())?;
        let buf = self.device.sort(&self.buf, &self.layout, ax)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// All elements sorted stably as a 1-d array (NumPy `np.sort(x, axis=None)`); works for
    /// 0-d arrays too (giving one element).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![4, 1, 3, 2], &[2, 2], dev)?;
    /// assert_eq!(a.sort_flat()?.to_vec()?, vec![1, 2, 3, 4]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn sort_flat(&self) -> Result<Self> {
        self.flat_1d()?.sort(0)
    }

    /// The indices (along `axis`) that sort each lane stably (NumPy `np.argsort(x, axis,
    /// kind="stable")`); the result has `self`'s shape.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] when `axis` is not in `-ndim..ndim`. A 0-d array sorts as
    /// a 1-d array of one element for axis `0` or `-1` (NumPy: `[0]`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![2.0, -0.0, 1.0, 0.0], &[4], dev)?;
    /// assert_eq!(a.argsort(0)?.to_vec()?, vec![1, 3, 2, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argsort(&self, axis: isize) -> Result<Array<i64, B>> {
        let Some(ax) = super::axes::reduction_axis("argsort", axis, self.ndim())? else {
            // NumPy sorts a 0-d array as a 1-d array of one element: `[0]`.
            return self.reshape(&[1])?.argsort(0);
        };
        let buf = self.device.argsort(&self.buf, &self.layout, ax)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// The flat C-order indices that sort all elements stably, as a 1-d array (NumPy
    /// `np.argsort(x, axis=None, kind="stable")`).
    pub fn argsort_flat(&self) -> Result<Array<i64, B>> {
        self.flat_1d()?.argsort(0)
    }

    /// Resolves `kth` (negative counts from the end) against a lane of `len` elements.
    fn resolve_kth(op: &'static str, kth: isize, len: usize, axis: usize) -> Result<usize> {
        let n = len as isize;
        if kth < -n || kth >= n {
            return Err(Error::IndexOutOfRange {
                op,
                index: kth as i64,
                axis,
                size: len,
            });
        }
        Ok(if kth < 0 { kth + n } else { kth } as usize)
    }

    /// A partially sorted copy (NumPy `np.partition(x, kth, axis)`): in each lane along
    /// `axis`, the element at position `kth` (negative counts from the end) is the one a full
    /// sort puts there, no element before it is greater and no element after it is smaller.
    /// The order within the two sides is unspecified.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for a bad axis (always for 0-d), [`Error::IndexOutOfRange`]
    /// when `kth` is not in `-len..len` of the axis (so always for an empty axis).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![7, 1, 5, 3, 9], &[5], dev)?;
    /// let p = a.partition(2, 0)?.to_vec()?;
    /// assert_eq!(p[2], 5);
    /// assert!(p[..2].iter().all(|&v| v <= 5) && p[3..].iter().all(|&v| v >= 5));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn partition(&self, kth: isize, axis: isize) -> Result<Self> {
        const OP: &str = "partition";
        let ax = normalize_axis(OP, axis, self.ndim())?;
        let k = Self::resolve_kth(OP, kth, self.shape()[ax], ax)?;
        let buf = self.device.partition(&self.buf, &self.layout, ax, k)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// The indices (along `axis`) that partition each lane as [`Array::partition`] does
    /// (NumPy `np.argpartition(x, kth, axis)`).
    ///
    /// # Errors
    /// As [`Array::partition`].
    pub fn argpartition(&self, kth: isize, axis: isize) -> Result<Array<i64, B>> {
        const OP: &str = "argpartition";
        let ax = normalize_axis(OP, axis, self.ndim())?;
        let k = Self::resolve_kth(OP, kth, self.shape()[ax], ax)?;
        let buf = self.device.argpartition(&self.buf, &self.layout, ax, k)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// For each element of `values` (any shape), the index at which inserting it into the
    /// sorted 1-d array `self` keeps it sorted (NumPy `np.searchsorted(self, values, side)`);
    /// the result has `values`' shape. `self` must be sorted in [`Element::sort_cmp`] order
    /// (NaN last), else the result is unspecified (but no error and no panic).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `self` is not 1-d; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let s = Array::<f64, B>::from_vec(vec![1.0, 2.0, 2.0, 3.0], &[4], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![2.0, 0.0, f64::NAN], &[3], dev)?;
    /// assert_eq!(s.searchsorted(&v, Side::Left)?.to_vec()?, vec![1, 0, 4]);
    /// assert_eq!(s.searchsorted(&v, Side::Right)?.to_vec()?, vec![3, 0, 4]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn searchsorted(&self, values: &Array<T, B>, side: Side) -> Result<Array<i64, B>> {
        const OP: &str = "searchsorted";
        self.check_device(values, OP)?;
        if self.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!("the sorted array must be 1-d, got shape {:?}", self.shape()),
            ));
        }
        let buf = self.device.searchsorted(
            &self.buf,
            &self.layout,
            &values.buf,
            &values.layout,
            side == Side::Right,
        )?;
        Ok(Array::from_contiguous(buf, values.shape(), &self.device))
    }

    /// The sorted distinct elements as a 1-d array (NumPy 2 `np.unique(x)`, `equal_nan=True`:
    /// all NaNs collapse into one, as do `-0.0` and `0.0`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![3, 1, 3, 2, 1], &[5], dev)?;
    /// assert_eq!(a.unique()?.to_vec()?, vec![1, 2, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unique(&self) -> Result<Self> {
        let (buf, n) = self.device.unique(&self.buf, &self.layout)?;
        Ok(Array::from_contiguous(buf, &[n], &self.device))
    }

    /// The distinct values with the index of each one's first occurrence, the inverse (the
    /// input's shape, like NumPy 2's `np.unique_all`) and the counts. See [`UniqueAll`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![5, 3, 5, 5], &[2, 2], dev)?;
    /// let u = a.unique_all()?;
    /// assert_eq!(u.values.to_vec()?, vec![3, 5]);
    /// assert_eq!(u.indices.to_vec()?, vec![1, 0]);
    /// assert_eq!(u.inverse.shape(), &[2, 2]);
    /// assert_eq!(u.inverse.to_vec()?, vec![1, 0, 1, 1]);
    /// assert_eq!(u.counts.to_vec()?, vec![1, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unique_all(&self) -> Result<UniqueAll<T, B>> {
        let (values, indices, inverse, counts, n) =
            self.device.unique_all(&self.buf, &self.layout)?;
        let dev = &self.device;
        Ok(UniqueAll {
            values: Array::from_contiguous(values, &[n], dev),
            indices: Array::from_contiguous(indices, &[n], dev),
            inverse: Array::from_contiguous(inverse, self.shape(), dev),
            counts: Array::from_contiguous(counts, &[n], dev),
        })
    }
}
