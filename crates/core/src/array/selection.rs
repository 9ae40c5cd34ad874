//! Selecting and placing elements by index arrays and conditions: [`Array::choose`],
//! [`Array::compress`], [`Array::extract`], [`Array::place`], [`Array::trim_zeros`],
//! NumPy's `np.select` as [`Array::select_by_conditions`] (the name `select` is the boolean
//! mask selection `x[mask]`) and [`Array::piecewise`].
//!
//! Each is composed from existing ops (`where`, `stack`, gathers, `nonzero`, boolean-mask
//! selection and assignment, `put`), so it runs on every backend; results stay on the
//! device. An output whose size depends on the data gets it from `nonzero` or the mask
//! selection, which already count on the device.

use super::index::as_i64;
use super::index_helpers::{IndexMode, check_in_range, renamed};
use super::{Array, Axes};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Integer};
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::ops::Rem;

/// Which ends [`Array::trim_zeros`] trims (NumPy's `trim='f'`, `'b'`, `'fb'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Trim {
    /// Leading zeros only (`'f'`).
    Front,
    /// Trailing zeros only (`'b'`).
    Back,
    /// Both ends (`'fb'`, NumPy's default).
    #[default]
    Both,
}

/// One entry of the function list of [`Array::piecewise`]: a constant, or a function of the
/// selected elements.
pub enum Piece<'a, T: Element, B: ArrayBackend> {
    /// Written wherever the entry's condition holds.
    Value(T),
    /// Called with the elements where the condition holds (a 1-d array, in C order; never
    /// called when there are none); it returns one value per element or a single value.
    #[allow(clippy::type_complexity)]
    Func(&'a dyn Fn(&Array<T, B>) -> Result<Array<T, B>>),
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// NumPy's `np.choose(index_array, choices, mode)`: `out[i] = choices[index[i]][i]`, with
    /// the index array and every choice broadcast together. `mode` says what an index
    /// outside `0..choices.len()` means: an error, wrapped, or clipped.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty list of choices, [`Error::Broadcast`] when the
    /// shapes do not broadcast, [`Error::IndexOutOfRange`] with [`IndexMode::Raise`],
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let c0 = Array::<f64, B>::from_vec(vec![0.0, 1.0, 2.0], &[3], dev)?;
    /// let c1 = Array::<f64, B>::scalar(-1.0, dev)?;
    /// let i = Array::<i64, B>::from_vec(vec![1, 0, 1, 0, 0, 3], &[2, 3], dev)?;
    /// let out = Array::choose(&i, &[&c0, &c1], IndexMode::Wrap)?;
    /// assert_eq!(out.to_vec()?, vec![-1.0, 1.0, -1.0, 0.0, 1.0, -1.0]);
    /// assert!(Array::choose(&i, &[&c0, &c1], IndexMode::Raise).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn choose<I: Integer>(
        index_array: &Array<I, B>,
        choices: &[&Self],
        mode: IndexMode,
    ) -> Result<Self> {
        const OP: &str = "choose";
        let Some(first) = choices.first() else {
            return Err(Error::invalid(OP, "choices is a 0-length sequence"));
        };
        let mut shape = index_array.shape().to_vec();
        for c in choices {
            first.check_device(c, OP)?;
            shape = broadcast_shapes(OP, &shape, c.shape())?;
        }
        first.check_device(index_array, OP)?;
        let n = choices.len();
        let idx = as_i64(index_array)?.broadcast_to(&shape)?;
        let idx = match mode {
            IndexMode::Raise => {
                check_in_range(OP, &idx, n, 0)?;
                idx
            }
            IndexMode::Wrap => idx.scalar_op(Rem, n as i64)?,
            IndexMode::Clip => idx.clip(0, n as i64 - 1)?,
        };
        let parts = choices
            .iter()
            .map(|c| c.broadcast_to(&shape))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Self> = parts.iter().collect();
        let stacked = Self::stack(&refs, 0)?;
        let picked = stacked
            .take_along_axis(&idx.expand_dims(0)?, 0)
            .map_err(renamed(OP))?;
        let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        picked.reshape(&shape)
    }

    /// The slices along `axis` where the 1-d `condition` is true (NumPy's
    /// `np.compress(condition, a, axis)`; `None` flattens the array first). A condition
    /// shorter than the axis counts as false beyond its end; a longer one may only be true
    /// within the axis.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a condition that is not 1-d,
    /// [`Error::AxisOutOfRange`], [`Error::IndexOutOfRange`] for a true entry beyond the
    /// axis, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4, 5, 6], &[3, 2], dev)?;
    /// let c = Array::<bool, B>::from_vec(vec![false, true, true], &[3], dev)?;
    /// assert_eq!(a.compress(&c, Some(0))?.to_vec()?, vec![3, 4, 5, 6]);
    /// assert_eq!(a.compress(&c, None)?.to_vec()?, vec![2, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn compress(&self, condition: &Array<bool, B>, axis: Option<isize>) -> Result<Self> {
        const OP: &str = "compress";
        self.check_device(condition, OP)?;
        if condition.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "condition must be a 1-d array, got shape {:?}",
                    condition.shape()
                ),
            ));
        }
        let idx = condition.flatnonzero()?;
        match axis {
            None => self.ravel()?.take(&idx, Some(0)),
            Some(ax) => self.take(&idx, Some(ax)),
        }
        .map_err(|e| match e {
            Error::AxisOutOfRange { axis, ndim, .. } => {
                Error::AxisOutOfRange { op: OP, axis, ndim }
            }
            other => renamed(OP)(other),
        })
    }

    /// The elements of the flattened `arr` where the flattened `condition` is true, as a 1-d
    /// array (NumPy's `np.extract(condition, arr)`). The two need not have the same shape:
    /// a true entry must only lie within `arr`'s size.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a true entry beyond `arr`'s size,
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(12, 0, 1, dev)?.reshape(&[3, 4])?;
    /// let even = a.remainder(&Array::scalar(3, dev)?)?.eq_scalar(0)?;
    /// assert_eq!(Array::extract(&even, &a)?.to_vec()?, vec![0, 3, 6, 9]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn extract(condition: &Array<bool, B>, arr: &Self) -> Result<Self> {
        const OP: &str = "extract";
        arr.check_device(condition, OP)?;
        let idx = condition.flatnonzero()?;
        arr.ravel()?.take(&idx, Some(0)).map_err(renamed(OP))
    }

    /// Writes `vals` in place where `mask` is true, taking the elements of the flattened
    /// `vals` in turn and starting over when they run out (NumPy's `np.place(arr, mask,
    /// vals)`; compare [`Array::put_mask`], which never cycles). `mask` has `self`'s size
    /// (any shape: both are read in C order).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the sizes differ, when `vals` is empty and the mask
    /// has a true element, or for a broadcast (read-only) destination;
    /// [`Error::DeviceMismatch`]. On error `self` is unchanged.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::ramp(6, 0, 1, dev)?.reshape(&[2, 3])?;
    /// let big = a.gt_scalar(1)?;
    /// a.place(&big, &Array::from_vec(vec![44, 55], &[2], dev)?)?;
    /// assert_eq!(a.to_vec()?, vec![0, 1, 44, 55, 44, 55]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn place(&mut self, mask: &Array<bool, B>, vals: &Self) -> Result<()> {
        const OP: &str = "place";
        self.check_device(mask, OP)?;
        self.check_device(vals, OP)?;
        if mask.size() != self.size() {
            return Err(Error::invalid(
                OP,
                format!(
                    "mask and data must be the same size (mask shape {:?}, array shape {:?})",
                    mask.shape(),
                    self.shape()
                ),
            ));
        }
        if !self.layout.is_writeable_without_overlap() {
            self.writable(OP)?;
        }
        let idx = mask.flatnonzero()?;
        if idx.size() == 0 {
            return Ok(());
        }
        if vals.size() == 0 {
            return Err(Error::invalid(
                OP,
                format!(
                    "cannot insert from an empty array of values ({} true elements in the mask)",
                    idx.size()
                ),
            ));
        }
        self.put(&idx, vals).map_err(renamed(OP))
    }

    /// The array without its leading and/or trailing zeros (NumPy's `np.trim_zeros(filt,
    /// trim, axis)`). Along each axis of `axes` ([`Axes::All`]: every axis, NumPy's
    /// `axis=None`), the slices at the trimmed ends whose elements are all zero are removed,
    /// so the result is the smallest box holding every nonzero element. Zero is `0`,
    /// `false`, `-0.0` and `0+0j`; NaN is not zero. An array of zeros trims to length 0; a
    /// 0-d array is returned as is.
    ///
    /// # Errors
    /// [`Error::AxisOutOfRange`] for a bad axis.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![0, 0, 3, 0, 4, 0], &[6], dev)?;
    /// assert_eq!(a.trim_zeros(Trim::Both, Axes::All)?.to_vec()?, vec![3, 0, 4]);
    /// assert_eq!(a.trim_zeros(Trim::Front, 0)?.to_vec()?, vec![3, 0, 4, 0]);
    /// let m = Array::<f64, B>::from_vec(vec![0.0, 0.0, 0.0, 0.0, 2.0, 0.0], &[2, 3], dev)?;
    /// assert_eq!(m.trim_zeros(Trim::Both, Axes::All)?.shape(), &[1, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn trim_zeros(&self, trim: Trim, axes: impl Into<Axes>) -> Result<Self> {
        const OP: &str = "trim_zeros";
        let axes = axes.into().resolve(OP, self.ndim())?;
        if axes.is_empty() {
            return Ok(self.clone());
        }
        let nonzero = self.ne_scalar(T::ZERO)?;
        let mut keep = Vec::with_capacity(axes.len());
        for &ax in &axes {
            let others: Vec<isize> = (0..self.ndim())
                .filter(|&d| d != ax)
                .map(|d| d as isize)
                .collect();
            let lane = if others.is_empty() {
                nonzero.clone()
            } else {
                nonzero.any_axes(others, false)?
            };
            // Whether a nonzero slice lies at or before (after) each position.
            let count = lane.astype::<i64>()?;
            let mut k = Array::<bool, B>::ones(lane.shape(), self.device())?;
            if trim != Trim::Back {
                k = k.logical_and(&count.cumsum(Some(0))?.gt_scalar(0)?)?;
            }
            if trim != Trim::Front {
                let back = count.flip(0)?.cumsum(Some(0))?.flip(0)?.gt_scalar(0)?;
                k = k.logical_and(&back)?;
            }
            keep.push(k.flatnonzero()?);
        }
        let mut out = self.clone();
        for (&ax, idx) in axes.iter().zip(&keep) {
            out = out.take(idx, Some(ax as isize))?;
        }
        Ok(out)
    }

    /// NumPy's `np.select(condlist, choicelist, default)` (named so because
    /// [`Array::select`] is the boolean-mask selection `x[mask]`): where the first true
    /// condition is `condlist[k]`, the element of `choicelist[k]`; where none is true, the
    /// element of `default` (a 0-d array for one value). All the arrays broadcast together.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty condition list or lists of different
    /// lengths, [`Error::Broadcast`] when the shapes do not broadcast,
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<i64, B>::ramp(6, 0, 1, dev)?;
    /// let (small, big) = (x.lt_scalar(3)?, x.gt_scalar(4)?);
    /// let sq = x.try_mul(&x)?;
    /// let out = Array::select_by_conditions(&[&small, &big], &[&x, &sq], &Array::scalar(-1, dev)?)?;
    /// assert_eq!(out.to_vec()?, vec![0, 1, 2, -1, -1, 25]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn select_by_conditions(
        condlist: &[&Array<bool, B>],
        choicelist: &[&Self],
        default: &Self,
    ) -> Result<Self> {
        const OP: &str = "select_by_conditions";
        if condlist.is_empty() {
            return Err(Error::invalid(
                OP,
                "select with an empty condition list is not possible",
            ));
        }
        if condlist.len() != choicelist.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "list of cases must be same length as list of conditions ({} conditions, \
                     {} choices)",
                    condlist.len(),
                    choicelist.len()
                ),
            ));
        }
        let mut shape = default.shape().to_vec();
        for (c, v) in condlist.iter().zip(choicelist) {
            default.check_device(c, OP)?;
            default.check_device(v, OP)?;
            shape = broadcast_shapes(OP, &shape, c.shape())?;
            shape = broadcast_shapes(OP, &shape, v.shape())?;
        }
        let mut out = default.broadcast_to(&shape)?;
        for (c, v) in condlist.iter().zip(choicelist).rev() {
            out = Self::where_(c, *v, &out)?;
        }
        out.to_contiguous()
    }

    /// NumPy's `np.piecewise(x, condlist, funclist)`: starting from zeros of `self`'s shape,
    /// for each condition in turn (a later one overwrites an earlier one), the elements where
    /// it holds become the entry's [`Piece::Value`] or the result of its [`Piece::Func`]
    /// applied to those elements of `self`. One more entry than conditions is the
    /// "otherwise" piece, used where no condition holds. Every condition has `self`'s shape.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when there are neither as many entries as conditions nor
    /// one more, or a function returns neither one value nor one per element;
    /// [`Error::ShapeMismatch`] for a condition of another shape; a function's own errors;
    /// [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![-2.0, -0.5, 0.5, 2.0], &[4], dev)?;
    /// let neg = x.lt_scalar(0.0)?;
    /// let y = x.piecewise(&[&neg], &[Piece::Func(&|v| v.try_neg()), Piece::Value(1.0)])?;
    /// assert_eq!(y.to_vec()?, vec![2.0, 0.5, 1.0, 1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn piecewise(
        &self,
        condlist: &[&Array<bool, B>],
        funclist: &[Piece<T, B>],
    ) -> Result<Self> {
        const OP: &str = "piecewise";
        let n = condlist.len();
        if funclist.len() != n && funclist.len() != n + 1 {
            return Err(Error::invalid(
                OP,
                format!(
                    "with {n} condition(s), either {n} or {} functions are expected, got {}",
                    n + 1,
                    funclist.len()
                ),
            ));
        }
        for c in condlist {
            self.check_device(c, OP)?;
            if c.shape() != self.shape() {
                return Err(Error::ShapeMismatch {
                    op: OP,
                    lhs: self.shape().to_vec(),
                    rhs: c.shape().to_vec(),
                });
            }
        }
        let mut conds: Vec<Array<bool, B>> = condlist.iter().map(|&c| c.clone()).collect();
        if funclist.len() == n + 1 {
            let mut any = Array::<bool, B>::zeros(self.shape(), self.device())?;
            for c in condlist {
                any = any.logical_or(c)?;
            }
            conds.push(any.logical_not()?);
        }
        let mut y = self.zeros_like()?;
        for (c, piece) in conds.iter().zip(funclist) {
            match piece {
                Piece::Value(v) => y.masked_fill(c, *v).map_err(renamed(OP))?,
                Piece::Func(f) => {
                    let vals = self.select(c)?;
                    if vals.size() > 0 {
                        let r = f(&vals)?;
                        self.check_device(&r, OP)?;
                        y.put_mask(c, &r).map_err(renamed(OP))?;
                    }
                }
            }
        }
        Ok(y)
    }
}
