//! Index helpers, NumPy's index tricks: flat and multi-indices
//! ([`Array::unravel_index`], [`Array::ravel_multi_index`]), index grids ([`Array::indices`],
//! [`Array::indices_sparse`], [`Array::ix_`]), the indices of diagonals and triangles
//! ([`Array::diag_indices`], [`Array::tril_indices`], [`Array::triu_indices`], their `_from`
//! forms and [`Array::mask_indices`]) and the in-place [`Array::fill_diagonal`].
//!
//! Every helper is composed from existing array ops (ramps, integer arithmetic, `tri`,
//! `nonzero`, `put`), so it runs on every backend. Indices are `i64` arrays on the device;
//! a bound is checked on the device by the gather primitive's own check (one number read
//! back, as for `take`), never by downloading the indices. Sizes that depend on the data
//! (the triangles of [`Array::mask_indices`]) come from `nonzero`.

use super::Array;
use super::index::as_i64;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Integer, Numeric};
use crate::error::{Error, Result};
use crate::layout::{broadcast_shapes, check_shape};
use crate::ops::{Add, FloorDiv, Mul, Rem, Sub};

/// What an index outside its axis means (NumPy's `mode=` of `ravel_multi_index` and
/// `choose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IndexMode {
    /// An index outside `0..n` is [`Error::IndexOutOfRange`] (NumPy's `'raise'`; negative
    /// indices are errors too).
    #[default]
    Raise,
    /// Indices wrap around modulo `n` (NumPy's `'wrap'`): `-1` is `n - 1`, `n` is 0.
    Wrap,
    /// Indices are clipped to `0..=n - 1` (NumPy's `'clip'`): negative ones become 0.
    Clip,
}

/// Checks on the device that every element of `idx` lies in `0..size`: the first one (C
/// order) outside is [`Error::IndexOutOfRange`] naming `op`, the index, `axis` and `size`.
///
/// The check is the gather primitive's own (a `take` from a zero-stride view of `size`
/// elements, which allocates nothing of that size and reads one number back). `take`
/// accepts `-size..0` too, so negative indices are first moved below `-size` (by `-size`,
/// saturating) and moved back in the error.
pub(super) fn check_in_range<B: ArrayBackend>(
    op: &'static str,
    idx: &Array<i64, B>,
    size: usize,
    axis: usize,
) -> Result<()> {
    if idx.size() == 0 {
        return Ok(());
    }
    let n = i64::try_from(size)
        .map_err(|_| Error::invalid(op, format!("axis size {size} does not fit in i64")))?;
    let probe = Array::<i64, B>::zeros(&[1], idx.device())?.broadcast_to(&[size])?;
    let shifted = Array::where_(
        &idx.lt_scalar(0)?,
        &idx.maximum_scalar(i64::MIN + n)?.scalar_op(Sub, n)?,
        idx,
    )?;
    match probe.take(&shifted, Some(0)) {
        Ok(_) => Ok(()),
        Err(Error::IndexOutOfRange { index, .. }) => Err(Error::IndexOutOfRange {
            op,
            index: if index < 0 { index + n } else { index },
            axis,
            size,
        }),
        Err(e) => Err(e),
    }
}

/// The number of elements of `dims` when it fits in `i64`.
fn dims_size(op: &'static str, dims: &[usize]) -> Result<usize> {
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&s| i64::try_from(s).is_ok())
        .ok_or_else(|| {
            Error::invalid(
                op,
                format!(
                    "the array size defined by dims {dims:?} is larger than the maximum \
                     possible size"
                ),
            )
        })
}

/// Replaces the op named in an argument or index error raised on behalf of `op`.
pub(super) fn renamed(op: &'static str) -> impl Fn(Error) -> Error {
    move |e| match e {
        Error::InvalidArgument { msg, .. } => Error::InvalidArgument { op, msg },
        Error::IndexOutOfRange {
            index, axis, size, ..
        } => Error::IndexOutOfRange {
            op,
            index,
            axis,
            size,
        },
        other => other,
    }
}

impl<I: Integer, B: ArrayBackend> Array<I, B> {
    /// The multi-indices of the flat (C-order) indices `self` into an array of `shape`, one
    /// `i64` array of `self`'s shape per axis (NumPy's `np.unravel_index(indices, shape)`).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for an index outside `0..size` (negative indices too, as
    /// NumPy), [`Error::InvalidArgument`] when the shape's size does not fit in `i64`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let i = Array::<i64, B>::from_vec(vec![22, 41, 37], &[3], dev)?;
    /// let ix = i.unravel_index(&[7, 6])?;
    /// assert_eq!(ix[0].to_vec()?, vec![3, 6, 6]);
    /// assert_eq!(ix[1].to_vec()?, vec![4, 5, 1]);
    /// assert!(i.unravel_index(&[6, 6]).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn unravel_index(&self, shape: &[usize]) -> Result<Vec<Array<i64, B>>> {
        const OP: &str = "unravel_index";
        let size = dims_size(OP, shape)?;
        let idx = as_i64(self)?;
        check_in_range(OP, &idx, size, 0)?;
        if size == 0 {
            // No index passed the check: every output is empty.
            return shape
                .iter()
                .map(|_| Array::zeros(idx.shape(), self.device()))
                .collect();
        }
        let mut out = Vec::with_capacity(shape.len());
        let mut stride = size;
        for (k, &d) in shape.iter().enumerate() {
            stride /= d;
            let mut q = if stride == 1 {
                idx.clone()
            } else {
                idx.scalar_op(FloorDiv, stride as i64)?
            };
            if k > 0 {
                q = q.scalar_op(Rem, d as i64)?;
            }
            out.push(q);
        }
        Ok(out)
    }

    /// [`unravel_index`](Self::unravel_index) in Fortran order (NumPy's
    /// `np.unravel_index(indices, shape, order='F')`): the first axis varies fastest.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let i = Array::<i64, B>::from_vec(vec![22, 41, 37], &[3], dev)?;
    /// let ix = i.unravel_index_f(&[7, 6])?;
    /// assert_eq!(ix[0].to_vec()?, vec![1, 6, 2]);
    /// assert_eq!(ix[1].to_vec()?, vec![3, 5, 5]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`unravel_index`](Self::unravel_index).
    pub fn unravel_index_f(&self, shape: &[usize]) -> Result<Vec<Array<i64, B>>> {
        let rev: Vec<usize> = shape.iter().rev().copied().collect();
        let mut out = self.unravel_index(&rev)?;
        out.reverse();
        Ok(out)
    }

    /// [`ravel_multi_index`](Self::ravel_multi_index) in Fortran order (NumPy's
    /// `order='F'`): the first axis varies fastest.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let i = Array::<i64, B>::from_vec(vec![1, 6, 2], &[3], dev)?;
    /// let j = Array::<i64, B>::from_vec(vec![3, 5, 5], &[3], dev)?;
    /// let flat = Array::ravel_multi_index_f(&[&i, &j], &[7, 6], IndexMode::Raise)?;
    /// assert_eq!(flat.to_vec()?, vec![22, 41, 37]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`ravel_multi_index`](Self::ravel_multi_index).
    pub fn ravel_multi_index_f(
        multi_index: &[&Self],
        dims: &[usize],
        mode: IndexMode,
    ) -> Result<Array<i64, B>> {
        let rev_ix: Vec<&Self> = multi_index.iter().rev().copied().collect();
        let rev_dims: Vec<usize> = dims.iter().rev().copied().collect();
        let n = dims.len();
        Self::ravel_multi_index(&rev_ix, &rev_dims, mode).map_err(|e| match e {
            // The axis as the caller counts it.
            Error::IndexOutOfRange {
                op,
                index,
                axis,
                size,
            } => Error::IndexOutOfRange {
                op,
                index,
                axis: n - 1 - axis.min(n - 1),
                size,
            },
            other => other,
        })
    }

    /// The flat (C-order) indices into an array of shape `dims` of the multi-indices given
    /// by one index array per axis, broadcast together (NumPy's
    /// `np.ravel_multi_index(multi_index, dims, mode)`, one mode for every axis). `mode`
    /// says what an index outside its axis means: an error, wrapped, or clipped.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the number of index arrays is not `dims.len()` (at
    /// least one array is needed: it gives the device), when the size of `dims` does not fit
    /// in `i64`, or when `dims` has a zero and there are indices;
    /// [`Error::Broadcast`] when the index arrays do not broadcast;
    /// [`Error::IndexOutOfRange`] naming the axis with [`IndexMode::Raise`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let i = Array::<i64, B>::from_vec(vec![3, 6, 6], &[3], dev)?;
    /// let j = Array::<i64, B>::from_vec(vec![4, 5, 1], &[3], dev)?;
    /// let flat = Array::ravel_multi_index(&[&i, &j], &[7, 6], IndexMode::Raise)?;
    /// assert_eq!(flat.to_vec()?, vec![22, 41, 37]);
    /// let wrapped = Array::ravel_multi_index(&[&i, &j], &[4, 6], IndexMode::Wrap)?;
    /// assert_eq!(wrapped.to_vec()?, vec![22, 17, 13]);
    /// assert!(Array::ravel_multi_index(&[&i, &j], &[4, 6], IndexMode::Raise).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn ravel_multi_index(
        multi_index: &[&Self],
        dims: &[usize],
        mode: IndexMode,
    ) -> Result<Array<i64, B>> {
        const OP: &str = "ravel_multi_index";
        if multi_index.len() != dims.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "parameter multi_index must be a sequence of length {} (dims {dims:?}), \
                     got {} index arrays",
                    dims.len(),
                    multi_index.len()
                ),
            ));
        }
        let Some(first) = multi_index.first() else {
            return Err(Error::invalid(
                OP,
                "at least one index array is needed (dims is empty)",
            ));
        };
        let size = dims_size(OP, dims)?;
        let mut shape = first.shape().to_vec();
        for ix in multi_index {
            first.check_device(ix, OP)?;
            shape = broadcast_shapes(OP, &shape, ix.shape())?;
        }
        let count = shape.iter().product::<usize>();
        if size == 0 && count > 0 {
            return Err(Error::invalid(
                OP,
                format!("cannot ravel an index into dims {dims:?}, which have a zero entry"),
            ));
        }
        let mut stride = size.max(1);
        let mut lin: Option<Array<i64, B>> = None;
        for (k, (ix, &d)) in multi_index.iter().zip(dims).enumerate() {
            stride /= d.max(1);
            // Broadcast first: only the indices that are used are checked.
            let i = as_i64(ix)?.broadcast_to(&shape)?;
            let i = match mode {
                IndexMode::Raise => {
                    check_in_range(OP, &i, d, k)?;
                    i
                }
                _ if d == 0 => i,
                IndexMode::Wrap => i.scalar_op(Rem, d as i64)?,
                IndexMode::Clip => i.clip(0, d as i64 - 1)?,
            };
            let term = if stride == 1 {
                i
            } else {
                i.scalar_op(Mul, stride as i64)?
            };
            lin = Some(match lin {
                None => term,
                Some(l) => l.zip_op(Add, &term)?,
            });
        }
        Ok(lin.expect("at least one index array"))
    }
}

impl<B: ArrayBackend> Array<i64, B> {
    /// The grid of indices of an array of shape `dimensions`, stacked into one array of shape
    /// `[dimensions.len()] + dimensions` whose slice `k` holds the index along axis `k`
    /// (NumPy's `np.indices(dimensions)`).
    ///
    /// # Errors
    /// [`Error::TooBig`] when the grid's size does not fit.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let g = Array::<i64, B>::indices(&[2, 3], dev)?;
    /// assert_eq!(g.shape(), &[2, 2, 3]);
    /// assert_eq!(g.to_vec()?, vec![0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn indices(dimensions: &[usize], dev: &B) -> Result<Self> {
        const OP: &str = "indices";
        let mut full = vec![dimensions.len()];
        full.extend_from_slice(dimensions);
        check_shape(OP, &full, 8)?;
        if dimensions.is_empty() {
            return Self::zeros(&[0], dev);
        }
        let grids = Self::indices_sparse(dimensions, dev)?
            .iter()
            .map(|g| g.broadcast_to(dimensions))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Self> = grids.iter().collect();
        Self::stack(&refs, 0)
    }

    /// The open grid of indices of an array of shape `dimensions` (NumPy's
    /// `np.indices(dimensions, sparse=True)`): array `k` holds `0..dimensions[k]` along axis
    /// `k` and has length 1 along the others, so the arrays broadcast to the full grid.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let g = Array::<i64, B>::indices_sparse(&[2, 3], dev)?;
    /// assert_eq!(g[0].shape(), &[2, 1]);
    /// assert_eq!(g[1].shape(), &[1, 3]);
    /// assert_eq!(g[1].to_vec()?, vec![0, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn indices_sparse(dimensions: &[usize], dev: &B) -> Result<Vec<Self>> {
        let nd = dimensions.len();
        dimensions
            .iter()
            .enumerate()
            .map(|(k, &d)| {
                let mut shape = vec![1isize; nd];
                shape[k] = d as isize;
                Self::ramp(d, 0, 1, dev)?.reshape(&shape)
            })
            .collect()
    }

    /// The indices of the main diagonal of an `n`-long `ndim`-dimensional cube: `ndim`
    /// copies of `0..n` (NumPy's `np.diag_indices(n, ndim)`), so that
    /// `a.index_arrays(&refs)` reads the diagonal.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let d = Array::<i64, B>::diag_indices(3, 2, dev)?;
    /// let a = Array::<i64, B>::ramp(9, 0, 1, dev)?.reshape(&[3, 3])?;
    /// assert_eq!(a.index_arrays(&[&d[0], &d[1]])?.to_vec()?, vec![0, 4, 8]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diag_indices(n: usize, ndim: usize, dev: &B) -> Result<Vec<Self>> {
        let r = Self::ramp(n, 0, 1, dev)?;
        Ok(vec![r; ndim])
    }

    /// The row and column indices of the lower triangle (`j <= i + k`) of an `n x m` matrix
    /// (`m = n` by default), in C order (NumPy's `np.tril_indices(n, k, m)`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let (i, j) = Array::<i64, B>::tril_indices(3, 0, None, dev)?;
    /// assert_eq!(i.to_vec()?, vec![0, 1, 1, 2, 2, 2]);
    /// assert_eq!(j.to_vec()?, vec![0, 0, 1, 0, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tril_indices(n: usize, k: isize, m: Option<usize>, dev: &B) -> Result<(Self, Self)> {
        pair(Array::<bool, B>::tri(n, m, k, dev)?)
    }

    /// The row and column indices of the upper triangle (`j >= i + k`) of an `n x m` matrix
    /// (`m = n` by default), in C order (NumPy's `np.triu_indices(n, k, m)`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let (i, j) = Array::<i64, B>::triu_indices(3, 1, Some(4), dev)?;
    /// assert_eq!(i.to_vec()?, vec![0, 0, 0, 1, 1, 2]);
    /// assert_eq!(j.to_vec()?, vec![1, 2, 3, 2, 3, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn triu_indices(n: usize, k: isize, m: Option<usize>, dev: &B) -> Result<(Self, Self)> {
        pair(Array::<bool, B>::tri(n, m, k.saturating_sub(1), dev)?.logical_not()?)
    }

    /// The row and column indices of the nonzero elements of `mask_func(ones([n, n]), k)`
    /// (NumPy's `np.mask_indices(n, mask_func, k)`): with `|a, k| a.triu(k)` the upper
    /// triangle, with `|a, k| a.tril(k)` the lower one.
    ///
    /// # Errors
    /// The function's own errors; [`Error::ShapeMismatch`] when it does not return an
    /// `n x n` array.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let (i, j) = Array::<i64, B>::mask_indices(3, |a, k| a.triu(k), 1, dev)?;
    /// assert_eq!(i.to_vec()?, vec![0, 0, 1]);
    /// assert_eq!(j.to_vec()?, vec![1, 2, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn mask_indices<F>(n: usize, mask_func: F, k: isize, dev: &B) -> Result<(Self, Self)>
    where
        F: Fn(&Self, isize) -> Result<Self>,
    {
        let m = mask_func(&Self::ones(&[n, n], dev)?, k)?;
        if m.shape() != [n, n] {
            return Err(Error::ShapeMismatch {
                op: "mask_indices",
                lhs: vec![n, n],
                rhs: m.shape().to_vec(),
            });
        }
        pair(m.ne_scalar(0)?)
    }
}

/// The row and column indices of the true elements of a 2-d mask, in C order.
fn pair<B: ArrayBackend>(mask: Array<bool, B>) -> Result<(Array<i64, B>, Array<i64, B>)> {
    let mut nz = mask.nonzero()?;
    let cols = nz.pop().expect("a 2-d mask has two index arrays");
    let rows = nz.pop().expect("a 2-d mask has two index arrays");
    Ok((rows, cols))
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// An open mesh of 1-d arrays (NumPy's `np.ix_(*arrays)`): output `k` is input `k`
    /// reshaped to length 1 along every axis but `k` (a view), so the outputs broadcast to
    /// the cross product; with integer arrays, `a.index_arrays(&refs)` picks the sub-matrix
    /// of the rows and columns given. A boolean selector is `mask.flatnonzero()?` first (what
    /// NumPy does with one).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an input that is not 1-d, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(12, 0, 1, dev)?.reshape(&[3, 4])?;
    /// let rows = Array::<i64, B>::from_vec(vec![0, 2], &[2], dev)?;
    /// let cols = Array::<i64, B>::from_vec(vec![1, 3], &[2], dev)?;
    /// let ix = Array::ix_(&[&rows, &cols])?;
    /// assert_eq!(ix[0].shape(), &[2, 1]);
    /// assert_eq!(a.index_arrays(&[&ix[0], &ix[1]])?.to_vec()?, vec![1, 3, 9, 11]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn ix_(arrays: &[&Self]) -> Result<Vec<Self>> {
        const OP: &str = "ix_";
        let nd = arrays.len();
        arrays
            .iter()
            .enumerate()
            .map(|(k, a)| {
                arrays[0].check_device(a, OP)?;
                if a.ndim() != 1 {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "cross index must be 1 dimensional, got input {k} of shape {:?}",
                            a.shape()
                        ),
                    ));
                }
                let mut shape = vec![1isize; nd];
                shape[k] = a.size() as isize;
                a.reshape(&shape)
            })
            .collect()
    }
}

/// The common length of the axes of a shape of at least two dimensions.
fn cube_side(op: &'static str, sh: &[usize]) -> Result<usize> {
    if sh.len() < 2 {
        return Err(Error::invalid(
            op,
            format!("input array must be at least 2-d, got shape {sh:?}"),
        ));
    }
    if sh.iter().any(|&d| d != sh[0]) {
        return Err(Error::invalid(
            op,
            format!("all dimensions of input must be of equal length, got shape {sh:?}"),
        ));
    }
    Ok(sh[0])
}

/// The rows and columns of a 2-d shape.
fn matrix_dims(op: &'static str, sh: &[usize]) -> Result<(usize, usize)> {
    match sh {
        [n, m] => Ok((*n, *m)),
        _ => Err(Error::invalid(
            op,
            format!("input array must be 2-d, got shape {sh:?}"),
        )),
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// The indices of the main diagonal of `self`, an array of at least two dimensions, all
    /// of the same length (NumPy's `np.diag_indices_from(a)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for fewer than two dimensions or unequal lengths.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f32, B>::zeros(&[2, 2, 2], dev)?;
    /// let d = a.diag_indices_from()?;
    /// assert_eq!(d.len(), 3);
    /// assert_eq!(d[2].to_vec()?, vec![0, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn diag_indices_from(&self) -> Result<Vec<Array<i64, B>>> {
        let n = cube_side("diag_indices_from", self.shape())?;
        Array::<i64, B>::diag_indices(n, self.ndim(), self.device())
    }

    /// The row and column indices of the lower triangle (`j <= i + k`) of `self`, a 2-d
    /// array (NumPy's `np.tril_indices_from(a, k)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `self` is not 2-d.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<bool, B>::zeros(&[3, 2], dev)?;
    /// let (i, j) = a.tril_indices_from(-1)?;
    /// assert_eq!(i.to_vec()?, vec![1, 2, 2]);
    /// assert_eq!(j.to_vec()?, vec![0, 0, 1]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tril_indices_from(&self, k: isize) -> Result<(Array<i64, B>, Array<i64, B>)> {
        let (n, m) = matrix_dims("tril_indices_from", self.shape())?;
        Array::<i64, B>::tril_indices(n, k, Some(m), self.device())
    }

    /// The row and column indices of the upper triangle (`j >= i + k`) of `self`, a 2-d
    /// array (NumPy's `np.triu_indices_from(a, k)`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `self` is not 2-d.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<c64, B>::zeros(&[2, 3], dev)?;
    /// let (i, j) = a.triu_indices_from(0)?;
    /// assert_eq!(i.to_vec()?, vec![0, 0, 0, 1, 1]);
    /// assert_eq!(j.to_vec()?, vec![0, 1, 2, 1, 2]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn triu_indices_from(&self, k: isize) -> Result<(Array<i64, B>, Array<i64, B>)> {
        let (n, m) = matrix_dims("triu_indices_from", self.shape())?;
        Array::<i64, B>::triu_indices(n, k, Some(m), self.device())
    }

    /// Writes `val` on the main diagonal in place (NumPy's `np.fill_diagonal(a, val, wrap)`):
    /// `val` is flattened and cycled along the diagonal (an empty `val` writes nothing). A
    /// 2-d array may be rectangular; for a tall one, `wrap` restarts the diagonal every
    /// `columns + 1` rows (NumPy's rule: the flat positions `0, m + 1, 2(m + 1), ...`),
    /// else it stops at the last column. An array of more dimensions must have all its
    /// lengths equal; its diagonal is `a[i, i, ..., i]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for fewer than two dimensions, unequal lengths in more than
    /// two, or a broadcast (read-only) destination; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::zeros(&[5, 2], dev)?;
    /// a.fill_diagonal(&Array::from_vec(vec![7, 8], &[2], dev)?, true)?;
    /// assert_eq!(a.to_vec()?, vec![7, 0, 0, 8, 0, 0, 7, 0, 0, 8]);
    /// let mut b = Array::<i32, B>::zeros(&[5, 2], dev)?;
    /// b.fill_diagonal(&Array::scalar(1, dev)?, false)?;
    /// assert_eq!(b.to_vec()?, vec![1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn fill_diagonal(&mut self, val: &Self, wrap: bool) -> Result<()> {
        const OP: &str = "fill_diagonal";
        self.check_device(val, OP)?;
        let sh = self.shape().to_vec();
        let (step, end) = match sh.as_slice() {
            [] | [_] => {
                return Err(Error::invalid(
                    OP,
                    format!("array must be at least 2-d, got shape {sh:?}"),
                ));
            }
            [n, m] => {
                // Without wrap, a tall matrix stops after its top square.
                let all = n * m;
                let end = if wrap {
                    all
                } else {
                    all.min(m.saturating_mul(*m))
                };
                (m + 1, end)
            }
            _ => {
                let n = cube_side(OP, &sh)?;
                // 1 + n + n^2 + ... + n^(ndim-1): one step along every axis at once.
                let step = (0..sh.len()).fold((0usize, 1usize), |(s, p), _| (s + p, p * n));
                (step.0, self.size())
            }
        };
        if !self.layout.is_writeable_without_overlap() {
            self.writable(OP)?;
        }
        let count = end.div_ceil(step);
        if count == 0 || val.size() == 0 {
            return Ok(());
        }
        let idx = Array::<i64, B>::ramp(count, 0, step as i64, self.device())?;
        self.put(&idx, val).map_err(renamed(OP))
    }
}
