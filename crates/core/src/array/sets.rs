//! Set operations on flattened arrays and two sorting helpers, NumPy's `arraysetops`:
//! [`Array::isin`], [`Array::intersect1d`] (and [`Array::intersect1d_indices`], NumPy's
//! `return_indices=True`), [`Array::union1d`], [`Array::setdiff1d`], [`Array::setxor1d`],
//! [`Array::lexsort`] (with [`Array::argsort_after`] for keys of different element types)
//! and [`Array::sort_complex`].
//!
//! Each is composed from the sorting primitives (`sort`, stable `argsort`, `searchsorted`,
//! `unique`/`unique_all`), gathers, boolean-mask selection and comparisons, so it runs on
//! every backend, in `O(n log n)`, with the data staying on the device: a result whose size
//! depends on the data gets it from `unique` or a mask selection.
//!
//! Values are ordered and matched as NumPy 2 does: by [`Element::sort_cmp`] (NaN last,
//! `-0.0 == 0.0`) and `==`. So NaN is never found by `isin` nor common to two arrays
//! (`intersect1d`), `unique` collapses the NaNs of one array into one (`union1d`), and
//! `setxor1d` keeps the NaN of each array, as NumPy's own functions do.

use super::{Array, Side};
use crate::backend::ArrayBackend;
use crate::dtype::{ComplexElement, DType, Element};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ops::Sub;
use crate::slice::SliceArg;
use std::any::Any;

/// The values of an intersection with the flat indices of their first occurrences in each
/// input ([`Array::intersect1d_indices`]).
type WithIndices<T, B> = (Array<T, B>, Array<i64, B>, Array<i64, B>);

/// `a[start..stop]` of a 1-d array.
pub(super) fn range1<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    start: Option<isize>,
    stop: Option<isize>,
) -> Result<Array<T, B>> {
    a.slice(&[SliceArg::Range {
        start,
        stop,
        step: 1,
    }])
}

/// For each element of `values` (any shape), whether it equals an element of `sorted`, a
/// 1-d array sorted in [`Element::sort_cmp`] order (negated with `invert`): a binary search
/// for the first element not below it, then one comparison.
fn isin_sorted<T: Element, B: ArrayBackend>(
    values: &Array<T, B>,
    sorted: &Array<T, B>,
    invert: bool,
) -> Result<Array<bool, B>> {
    let m = sorted.shape()[0];
    if m == 0 {
        return Array::full(values.shape(), invert, values.device());
    }
    let pos = sorted
        .searchsorted(values, Side::Left)?
        .clip(0, m as i64 - 1)?;
    let found = sorted.take(&pos, None)?.eq(values)?;
    if invert {
        found.logical_not()
    } else {
        Ok(found)
    }
}

/// NumPy's table method for integers (its `kind="table"`, which `isin` picks by default when
/// the test values span at most `6 * (n + m)` integers): a boolean table over the test
/// values' range, filled by a scatter and read by a gather. `None` when it does not apply
/// (not an integer type, `u64`, no test values, or too wide a range). Reads the test values'
/// minimum and maximum back.
fn isin_table<T: Element, B: ArrayBackend>(
    values: &Array<T, B>,
    tests: &Array<T, B>,
    invert: bool,
) -> Result<Option<Array<bool, B>>> {
    if !T::DTYPE.is_integer() || T::DTYPE == DType::U64 || tests.size() == 0 {
        return Ok(None);
    }
    let t = tests.ravel()?.astype::<i64>()?;
    let (lo, hi) = (t.min()?.item()?, t.max()?.item()?);
    let span = (hi as i128 - lo as i128) as u128;
    if span > 6 * (values.size() as u128 + tests.size() as u128) {
        return Ok(None);
    }
    let dev = values.device();
    let mut table = Array::<bool, B>::zeros(&[span as usize + 1], dev)?;
    table.put(&t.scalar_op(Sub, lo)?, &Array::scalar(true, dev)?)?;
    let v = values.astype::<i64>()?;
    let inside = v.ge_scalar(lo)?.logical_and(&v.le_scalar(hi)?)?;
    let pos = v.scalar_op(Sub, lo)?.clip(0, span as i64)?;
    let found = table.take(&pos, None)?.logical_and(&inside)?;
    Ok(Some(if invert { found.logical_not()? } else { found }))
}

/// The flattened array sorted, with the flat index of each sorted element in the input:
/// the distinct values and their first occurrences, or (`all`) every element and its
/// index, in a stable order.
fn sorted_with_indices<T: Element, B: ArrayBackend>(
    a: &Array<T, B>,
    all: bool,
) -> Result<(Array<T, B>, Array<i64, B>)> {
    if all {
        let order = a.argsort_flat()?;
        Ok((a.take(&order, None)?, order))
    } else {
        let u = a.unique_all()?;
        Ok((u.values, u.indices))
    }
}

/// [`Array::argsort_after`] with the shapes and the axis already checked: `order` sorted
/// stably by the values of `key` it points at.
fn refine_order<T: Element, B: ArrayBackend>(
    key: &Array<T, B>,
    order: &Array<i64, B>,
    axis: isize,
) -> Result<Array<i64, B>> {
    let keyed = key.take_along_axis(order, axis)?;
    order.take_along_axis(&keyed.argsort(axis)?, axis)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// For each element, whether it occurs in `test_elements` (NumPy's `np.isin(element,
    /// test_elements, assume_unique, invert)`); the result has `self`'s shape, `test_elements`
    /// is flattened. `invert` negates the answer (NumPy's `invert=True`, faster than a
    /// separate `logical_not`). Equality is `==`: `-0.0` is found in `[0.0]`, NaN is never
    /// found.
    ///
    /// `test_elements` is sorted once and each element found by binary search, so the cost
    /// is `O((n + m) log m)`. `assume_unique` is accepted for NumPy's signature; this
    /// algorithm needs no uniqueness, so the answer is the same either way.
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![0, 2, 4, 6], &[2, 2], dev)?;
    /// let t = Array::<i32, B>::from_vec(vec![1, 2, 4, 8], &[4], dev)?;
    /// assert_eq!(a.isin(&t, false, false)?.to_vec()?, vec![false, true, true, false]);
    /// assert_eq!(a.isin(&t, false, true)?.to_vec()?, vec![true, false, false, true]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn isin(
        &self,
        test_elements: &Self,
        assume_unique: bool,
        invert: bool,
    ) -> Result<Array<bool, B>> {
        self.check_device(test_elements, "isin")?;
        // Neither method needs uniqueness: the flag changes nothing here.
        let _ = assume_unique;
        if let Some(found) = isin_table(self, test_elements, invert)? {
            return Ok(found);
        }
        isin_sorted(self, &test_elements.sort_flat()?, invert)
    }

    /// The sorted values found in both arrays, each once (NumPy's `np.intersect1d(a, b,
    /// assume_unique)`); both inputs are flattened. NaN is in no intersection (it equals
    /// nothing).
    ///
    /// With `assume_unique` the inputs are not made unique first, which saves a pass when
    /// they already are; if they are not, the result may hold repeated values (as NumPy's).
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 3, 4, 3], &[4], dev)?;
    /// let b = Array::<i64, B>::from_vec(vec![3, 1, 2, 1], &[2, 2], dev)?;
    /// assert_eq!(a.intersect1d(&b, false)?.to_vec()?, vec![1, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn intersect1d(&self, other: &Self, assume_unique: bool) -> Result<Self> {
        self.check_device(other, "intersect1d")?;
        let (a, b) = if assume_unique {
            (self.sort_flat()?, other.sort_flat()?)
        } else {
            (self.unique()?, other.unique()?)
        };
        a.select(&isin_sorted(&a, &b, false)?)
    }

    /// [`intersect1d`](Self::intersect1d) with, for each common value, the flat (C-order)
    /// index of its first occurrence in `self` and in `other` (NumPy's
    /// `np.intersect1d(a, b, assume_unique, return_indices=True)`): `(values, indices_a,
    /// indices_b)`, the indices as `i64`, so that `a.take(&indices_a, None)` and
    /// `b.take(&indices_b, None)` are `values`.
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i32, B>::from_vec(vec![1, 1, 2, 3, 4], &[5], dev)?;
    /// let y = Array::<i32, B>::from_vec(vec![2, 1, 4, 6], &[4], dev)?;
    /// let (v, ix, iy) = x.intersect1d_indices(&y, false)?;
    /// assert_eq!(v.to_vec()?, vec![1, 2, 4]);
    /// assert_eq!(ix.to_vec()?, vec![0, 2, 4]);
    /// assert_eq!(iy.to_vec()?, vec![1, 0, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn intersect1d_indices(
        &self,
        other: &Self,
        assume_unique: bool,
    ) -> Result<WithIndices<T, B>> {
        self.check_device(other, "intersect1d")?;
        let (a, ia) = sorted_with_indices(self, assume_unique)?;
        let (b, ib) = sorted_with_indices(other, assume_unique)?;
        let common = isin_sorted(&a, &b, false)?;
        let values = a.select(&common)?;
        let in_a = ia.select(&common)?;
        let in_b = ib.take(&b.searchsorted(&values, Side::Left)?, None)?;
        Ok((values, in_a, in_b))
    }

    /// The sorted distinct values found in either array (NumPy's `np.union1d(a, b)`); both
    /// inputs are flattened. The NaNs of both collapse into one, as in NumPy 2's `unique`.
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![-1.0, 0.0, 1.0], &[3], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![-2.0, 0.0, 2.0], &[3], dev)?;
    /// assert_eq!(a.union1d(&b)?.to_vec()?, vec![-2.0, -1.0, 0.0, 1.0, 2.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn union1d(&self, other: &Self) -> Result<Self> {
        self.check_device(other, "union1d")?;
        Self::concatenate(&[&self.ravel()?, &other.ravel()?], 0)?.unique()
    }

    /// The sorted distinct values of `self` not found in `other` (NumPy's
    /// `np.setdiff1d(a, b, assume_unique)`); both inputs are flattened. A NaN of `self` is
    /// kept (it equals nothing in `other`).
    ///
    /// With `assume_unique`, `self` is taken as it is: the result keeps its order (it is not
    /// sorted) and any repeated values, as NumPy's.
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 2, 4, 1], &[6], dev)?;
    /// let b = Array::<i32, B>::from_vec(vec![3, 4, 5, 6], &[4], dev)?;
    /// assert_eq!(a.setdiff1d(&b, false)?.to_vec()?, vec![1, 2]);
    /// let u = Array::<i32, B>::from_vec(vec![9, 3, 7], &[3], dev)?;
    /// assert_eq!(u.setdiff1d(&b, true)?.to_vec()?, vec![9, 7]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn setdiff1d(&self, other: &Self, assume_unique: bool) -> Result<Self> {
        self.check_device(other, "setdiff1d")?;
        let (a, b) = if assume_unique {
            (self.ravel()?, other.sort_flat()?)
        } else {
            (self.unique()?, other.unique()?)
        };
        a.select(&isin_sorted(&a, &b, true)?)
    }

    /// The sorted values found in exactly one of the arrays (NumPy's `np.setxor1d(a, b,
    /// assume_unique)`); both inputs are flattened. As in NumPy, NaN equals nothing, so a
    /// NaN of each array is kept (two NaNs at the end when both hold one).
    ///
    /// With `assume_unique` the inputs are not made unique first; if they are not, a value
    /// repeated within one array is dropped as if it were in both (as NumPy's).
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![1, 2, 3, 2, 4], &[5], dev)?;
    /// let b = Array::<u8, B>::from_vec(vec![2, 3, 5, 7, 5], &[5], dev)?;
    /// assert_eq!(a.setxor1d(&b, false)?.to_vec()?, vec![1, 4, 5, 7]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn setxor1d(&self, other: &Self, assume_unique: bool) -> Result<Self> {
        self.check_device(other, "setxor1d")?;
        let (a, b) = if assume_unique {
            (self.ravel()?, other.ravel()?)
        } else {
            (self.unique()?, other.unique()?)
        };
        let aux = Self::concatenate(&[&a, &b], 0)?.sort(0)?;
        if aux.size() == 0 {
            return Ok(aux);
        }
        // flag[i]: aux[i] differs from aux[i - 1] (true at both ends); keep an element that
        // differs from both neighbours.
        let differs = range1(&aux, Some(1), None)?.ne(&range1(&aux, None, Some(-1))?)?;
        let edge = Array::<bool, B>::full(&[1], true, aux.device())?;
        let flag = Array::concatenate(&[&edge, &differs, &edge], 0)?;
        let keep = range1(&flag, Some(1), None)?.logical_and(&range1(&flag, None, Some(-1))?)?;
        aux.select(&keep)
    }

    /// The indices that sort by several keys (NumPy's `np.lexsort(keys, axis)`): the **last**
    /// key is the primary one, ties are broken by the key before it, and so on; ties in
    /// every key keep their order (the sort is stable). All keys have one shape and each
    /// lane along `axis` is sorted; the result has that shape. 0-d keys (with `axis` 0 or
    /// -1) give a 0-d `0`, as NumPy's.
    ///
    /// Keys of different element types are sorted with [`argsort_after`](Self::argsort_after):
    /// `k1.argsort_after(&k0.argsort(axis)?, axis)` is `lexsort(&[&k0, &k1], axis)`. A 2-d
    /// array of keys (NumPy's `lexsort(arr)`, one key per row) is sorted by passing its rows.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for no keys, [`Error::ShapeMismatch`] for keys of different
    /// shapes, [`Error::AxisOutOfRange`], [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// // Sort by surname (primary: last key), then by first name.
    /// let first = Array::<i32, B>::from_vec(vec![4, 1, 2, 3, 0], &[5], dev)?;
    /// let surname = Array::<i32, B>::from_vec(vec![9, 8, 9, 8, 9], &[5], dev)?;
    /// assert_eq!(Array::lexsort(&[&first, &surname], -1)?.to_vec()?, vec![1, 3, 4, 2, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn lexsort(keys: &[&Self], axis: isize) -> Result<Array<i64, B>> {
        const OP: &str = "lexsort";
        let Some((first, rest)) = keys.split_first() else {
            return Err(Error::invalid(OP, "need at least one key, got none"));
        };
        for k in rest {
            first.check_device(k, OP)?;
            if k.shape() != first.shape() {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: first.shape().to_vec(),
                    rhs: k.shape().to_vec(),
                });
            }
        }
        if first.ndim() == 0 {
            if axis != 0 && axis != -1 {
                return Err(Error::AxisOutOfRange {
                    op: OP,
                    axis,
                    ndim: 0,
                });
            }
            return Array::zeros(&[], first.device());
        }
        let ax = normalize_axis(OP, axis, first.ndim())? as isize;
        let mut order = first.argsort(ax)?;
        for k in rest {
            order = refine_order(k, &order, ax)?;
        }
        Ok(order)
    }

    /// The permutation `order` (indices along `axis`, as from [`argsort`](Self::argsort))
    /// sorted stably by this array's values: the result sorts each lane by `self`, elements
    /// equal in `self` keeping their order in `order`. One step of [`lexsort`](Self::lexsort)
    /// with `self` as the next, more significant key, for keys of different element types.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `order` does not have `self`'s shape,
    /// [`Error::AxisOutOfRange`] (always for 0-d), [`Error::IndexOutOfRange`] for an index
    /// of `order` outside `-n..n` (a negative one counts from the end, as in `take`),
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let score = Array::<f64, B>::from_vec(vec![0.5, 0.1, 0.9, 0.3], &[4], dev)?;
    /// let passed = Array::<bool, B>::from_vec(vec![true, false, true, false], &[4], dev)?;
    /// // By `passed` first, then by score.
    /// let order = passed.argsort_after(&score.argsort(0)?, 0)?;
    /// assert_eq!(order.to_vec()?, vec![1, 3, 0, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn argsort_after(&self, order: &Array<i64, B>, axis: isize) -> Result<Array<i64, B>> {
        const OP: &str = "argsort_after";
        self.check_device(order, OP)?;
        if order.shape() != self.shape() {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: self.shape().to_vec(),
                rhs: order.shape().to_vec(),
            });
        }
        let ax = normalize_axis(OP, axis, self.ndim())? as isize;
        refine_order(self, order, ax).map_err(|e| match e {
            Error::IndexOutOfRange {
                index, axis, size, ..
            } => Error::IndexOutOfRange {
                op: OP,
                index,
                axis,
                size,
            },
            other => other,
        })
    }

    /// Each lane along the last axis sorted by real part, then imaginary part, as complex
    /// numbers of type `C` (NumPy's `np.sort_complex`). NumPy's result type is `c64` for
    /// `i8`, `u8`, `i16`, `u16` and `c64` inputs and `c128` for every other one; pick that
    /// `C` to match it. A real input is sorted before the cast (exactly as NumPy); a complex
    /// one of another type is cast first, so the result is sorted in `C`.
    ///
    /// Values with a NaN part come last, in their input order (NumPy orders them further,
    /// by where the NaN is).
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for a 0-d array (as NumPy's).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![5, 3, 6, 2, 1], &[5], dev)?;
    /// let s = a.sort_complex::<c128>()?;
    /// assert_eq!(s.to_vec()?[..2], [c128::new(1.0, 0.0), c128::new(2.0, 0.0)]);
    /// let z = Array::<c64, B>::from_vec(
    ///     vec![c64::new(3.0, 5.0), c64::new(1.0, 2.0), c64::new(3.0, -2.0)], &[3], dev)?;
    /// let want = [c64::new(1.0, 2.0), c64::new(3.0, -2.0), c64::new(3.0, 5.0)];
    /// assert_eq!(z.sort_complex::<c64>()?.to_vec()?, want);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn sort_complex<C: ComplexElement>(&self) -> Result<Array<C, B>> {
        if self.ndim() == 0 {
            return Err(Error::AxisOutOfRange {
                op: "sort_complex",
                axis: -1,
                ndim: 0,
            });
        }
        if let Some(same) = (self as &dyn Any).downcast_ref::<Array<C, B>>() {
            return same.sort(-1);
        }
        if T::DTYPE.is_complex() {
            self.astype::<C>()?.sort(-1)
        } else {
            self.sort(-1)?.astype::<C>()
        }
    }
}
