//! Matrix and tensor products: `matmul`, `dot`, `vdot`, `inner`, `outer`, `tensordot` and
//! `einsum` (in `einsum.rs`), all with NumPy's semantics. Core resolves the shapes, moves the
//! contracted axes into place by permuting views (copying only when a reshape needs it) and
//! calls the one backend primitive, [`MatmulOps::matmul`](crate::backend::MatmulOps), a
//! batched GEMM on strided views.

#[path = "einsum.rs"]
mod einsum;

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Numeric;
use crate::error::{Error, Result};
use crate::layout::{Layout, broadcast_shapes, check_wide_shape, normalize_axis, shape_size};
use crate::ops::{Conj, Mul};

/// The `axes` argument of [`Array::tensordot`]: the last `N` axes of `a` against the first
/// `N` of `b`, or explicit lists of axis pairs (negative axes count from the end).
///
/// Built from an integer (`2`), or a pair of arrays, vectors or slices
/// (`([1, 0], [0, 1])`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensorAxes {
    /// Sum over the last `N` axes of `a` and the first `N` axes of `b`.
    N(isize),
    /// Sum over `a`'s axes `.0[i]` paired with `b`'s axes `.1[i]`.
    Pairs(Vec<isize>, Vec<isize>),
}

macro_rules! tensor_axes_from {
    ($($t:ty),*) => {$(
        impl From<$t> for TensorAxes {
            fn from(n: $t) -> Self { TensorAxes::N(n as isize) }
        }
        impl<const N: usize> From<([$t; N], [$t; N])> for TensorAxes {
            fn from((a, b): ([$t; N], [$t; N])) -> Self {
                TensorAxes::Pairs(
                    a.iter().map(|&x| x as isize).collect(),
                    b.iter().map(|&x| x as isize).collect(),
                )
            }
        }
        impl From<(Vec<$t>, Vec<$t>)> for TensorAxes {
            fn from((a, b): (Vec<$t>, Vec<$t>)) -> Self {
                TensorAxes::Pairs(
                    a.iter().map(|&x| x as isize).collect(),
                    b.iter().map(|&x| x as isize).collect(),
                )
            }
        }
        impl From<(&[$t], &[$t])> for TensorAxes {
            fn from((a, b): (&[$t], &[$t])) -> Self {
                TensorAxes::Pairs(
                    a.iter().map(|&x| x as isize).collect(),
                    b.iter().map(|&x| x as isize).collect(),
                )
            }
        }
    )*};
}
tensor_axes_from!(isize, i32, i64, usize);

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// One batched GEMM: `la = [batch.., m, k]`, `lb = [batch.., k, n]` (same batch shape,
    /// possibly zero strides). Returns a C-contiguous `[batch.., m, n]` array.
    fn gemm_views(&self, la: &Layout, other: &Array<T, B>, lb: &Layout) -> Result<Self> {
        let r = la.ndim();
        let (m, k, n) = (la.shape()[r - 2], la.shape()[r - 1], lb.shape()[r - 1]);
        let mut shape = la.shape()[..r - 2].to_vec();
        shape.extend([m, n]);
        if shape_size(&shape) == 0 || k == 0 {
            return Self::zeros(&shape, &self.device);
        }
        let buf = self.device.matmul(&self.buf, la, &other.buf, lb)?;
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// This array reshaped to `shape`, skipping the reshape (and its possible copy) when the
    /// shape is already right.
    fn reshaped_to(&self, shape: &[usize]) -> Result<Self> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        let s: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        self.reshape(&s)
    }

    /// Contracts `axes_a` of `self` with `axes_b` of `other` (resolved, same length, sizes
    /// checked): NumPy's `tensordot` algorithm. The result has `self`'s free axes followed by
    /// `other`'s, in order.
    fn contract(&self, other: &Self, axes_a: &[usize], axes_b: &[usize]) -> Result<Self> {
        let free_a: Vec<usize> = (0..self.ndim()).filter(|a| !axes_a.contains(a)).collect();
        let free_b: Vec<usize> = (0..other.ndim()).filter(|a| !axes_b.contains(a)).collect();
        let dims = |x: &Self, axes: &[usize]| -> Vec<usize> {
            axes.iter().map(|&a| x.shape()[a]).collect()
        };
        let (fa, fb) = (dims(self, &free_a), dims(other, &free_b));
        let (m, n) = (shape_size(&fa), shape_size(&fb));
        let k = shape_size(&dims(self, axes_a));
        let perm = |first: &[usize], second: &[usize]| -> Vec<isize> {
            first.iter().chain(second).map(|&a| a as isize).collect()
        };
        let a2 = self
            .with_layout(self.layout.permute("tensordot", &perm(&free_a, axes_a))?)
            .reshaped_to(&[m, k])?;
        let b2 = other
            .with_layout(other.layout.permute("tensordot", &perm(axes_b, &free_b))?)
            .reshaped_to(&[k, n])?;
        let out = a2.gemm_views(&a2.layout, &b2, &b2.layout)?;
        let mut shape = fa;
        shape.extend(fb);
        Ok(out.with_layout(Layout::contiguous(&shape)))
    }

    /// Checks that the paired axes have equal lengths, NumPy's "not aligned" error otherwise.
    fn check_aligned(
        &self,
        op: &'static str,
        other: &Self,
        axes_a: &[usize],
        axes_b: &[usize],
    ) -> Result<()> {
        for (&x, &y) in axes_a.iter().zip(axes_b) {
            let (dx, dy) = (self.shape()[x], other.shape()[y]);
            if dx != dy {
                return Err(Error::invalid(
                    op,
                    format!(
                        "shapes {:?} and {:?} not aligned: {dx} (dim {x}) != {dy} (dim {y})",
                        self.shape(),
                        other.shape()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Matrix product with NumPy's `matmul` (`@`) semantics.
    ///
    /// Both operands must be at least 1-d. A 1-d first operand is treated as a row vector and
    /// a 1-d second operand as a column vector; the added axis is removed from the result.
    /// Operands of more than two dimensions are stacks of matrices held in the last two axes;
    /// their leading (batch) axes broadcast together. Integer products wrap on overflow.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a 0-d operand, [`Error::ShapeMismatch`] naming both
    /// shapes when the inner dimensions differ, [`Error::Broadcast`] when the batch axes do
    /// not broadcast, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// let v = Array::<f64, B>::from_vec(vec![1.0, 1.0], &[2], dev)?;
    /// assert_eq!(a.matmul(&v)?.to_vec()?, vec![3.0, 7.0]);
    /// assert_eq!(a.matmul(&a.t())?.to_vec()?, vec![5.0, 11.0, 11.0, 25.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn matmul(&self, other: &Array<T, B>) -> Result<Self> {
        const OP: &str = "matmul";
        self.check_device(other, OP)?;
        let (sa, sb) = (self.shape(), other.shape());
        if sa.is_empty() || sb.is_empty() {
            return Err(Error::invalid(
                OP,
                format!(
                    "operands must be at least 1-d, got shapes {sa:?} and {sb:?} (use `*` to \
                     multiply by a scalar)"
                ),
            ));
        }
        let la = if sa.len() == 1 {
            self.layout.insert_axis(0)
        } else {
            self.layout.clone()
        };
        let lb = if sb.len() == 1 {
            other.layout.insert_axis(1)
        } else {
            other.layout.clone()
        };
        let (ra, rb) = (la.ndim(), lb.ndim());
        let (m, k) = (la.shape()[ra - 2], la.shape()[ra - 1]);
        let (kb, n) = (lb.shape()[rb - 2], lb.shape()[rb - 1]);
        if k != kb {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: sa.to_vec(),
                rhs: sb.to_vec(),
            });
        }
        let batch =
            broadcast_shapes(OP, &la.shape()[..ra - 2], &lb.shape()[..rb - 2]).map_err(|_| {
                Error::Broadcast {
                    op: OP,
                    lhs: sa.to_vec(),
                    rhs: sb.to_vec(),
                }
            })?;
        let mut full_a = batch.clone();
        full_a.extend([m, k]);
        let mut full_b = batch.clone();
        full_b.extend([k, n]);
        let la = la.broadcast_to(OP, &full_a)?;
        let lb = lb.broadcast_to(OP, &full_b)?;
        let out = self.gemm_views(&la, other, &lb)?;
        let mut shape = batch;
        if sa.len() > 1 {
            shape.push(m);
        }
        if sb.len() > 1 {
            shape.push(n);
        }
        Ok(out.with_layout(Layout::contiguous(&shape)))
    }

    /// Dot product with NumPy's `dot` semantics: a 0-d operand multiplies element-wise; two
    /// 1-d operands give their inner product (a 0-d array); an N-d `self` and a 1-d `other`
    /// sum over the last axis of both; otherwise the sum runs over the last axis of `self`
    /// and the second-to-last of `other`, and the result has shape
    /// `self.shape[..-1] + other.shape[..-2] + other.shape[-1..]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] ("shapes .. not aligned") when the summed axes differ in
    /// length, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3], &[3], dev)?;
    /// assert_eq!(a.dot(&a)?.item()?, 14);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn dot(&self, other: &Array<T, B>) -> Result<Self> {
        const OP: &str = "dot";
        self.check_device(other, OP)?;
        let (na, nb) = (self.ndim(), other.ndim());
        if na == 0 || nb == 0 {
            return self.zip_op(Mul, other);
        }
        let axb = if nb == 1 { 0 } else { nb - 2 };
        self.check_aligned(OP, other, &[na - 1], &[axb])?;
        if na == 1 && nb == 1 {
            // Vector . vector, the loop statement of row factorisations: the two views seen
            // as a row and a column directly (a 1-d layout always reshapes in place), without
            // `contract`'s permutations and array reshapes, a third of this call's host time.
            let k = self.shape()[0];
            if let (Some(la), Some(lb)) = (
                self.layout.reshaped(&[1, k]),
                other.layout.reshaped(&[k, 1]),
            ) {
                let out = self.gemm_views(&la, other, &lb)?;
                return Ok(out.with_layout(Layout::contiguous(&[])));
            }
        }
        self.contract(other, &[na - 1], &[axb])
    }

    /// NumPy's `vdot`: both arrays are flattened and the first is complex-conjugated, then
    /// their inner product is returned as a 0-d array.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when the sizes differ, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<c64, B>::from_vec(vec![c64::new(0.0, 1.0)], &[1], dev)?;
    /// assert_eq!(a.vdot(&a)?.item()?, c64::new(1.0, 0.0));
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn vdot(&self, other: &Array<T, B>) -> Result<Self> {
        const OP: &str = "vdot";
        self.check_device(other, OP)?;
        if self.size() != other.size() {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: self.shape().to_vec(),
                rhs: other.shape().to_vec(),
            });
        }
        let n = self.size();
        let a = if T::DTYPE.is_complex() {
            self.map_op(Conj)?.with_layout(Layout::contiguous(&[1, n]))
        } else {
            self.reshaped_to(&[1, n])?
        };
        let b = other.reshaped_to(&[n, 1])?;
        let out = a.gemm_views(&a.layout, &b, &b.layout)?;
        Ok(out.with_layout(Layout::contiguous(&[])))
    }

    /// NumPy's `inner`: the sum over the last axes of both operands (a 0-d operand
    /// multiplies element-wise). The result has shape `self.shape[..-1] + other.shape[..-1]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] ("shapes .. not aligned") when the last axes differ in
    /// length, [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
    /// assert_eq!(a.inner(&a)?.to_vec()?, vec![5.0, 11.0, 11.0, 25.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn inner(&self, other: &Array<T, B>) -> Result<Self> {
        const OP: &str = "inner";
        self.check_device(other, OP)?;
        let (na, nb) = (self.ndim(), other.ndim());
        if na == 0 || nb == 0 {
            return self.zip_op(Mul, other);
        }
        self.check_aligned(OP, other, &[na - 1], &[nb - 1])?;
        self.contract(other, &[na - 1], &[nb - 1])
    }

    /// NumPy's `outer`: both operands are flattened; `out[i, j] = self[i] * other[j]`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let b = Array::<i64, B>::from_vec(vec![1, 10, 100], &[3], dev)?;
    /// assert_eq!(a.outer(&b)?.to_vec()?, vec![1, 10, 100, 2, 20, 200]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn outer(&self, other: &Array<T, B>) -> Result<Self> {
        const OP: &str = "outer";
        self.check_device(other, OP)?;
        check_wide_shape(
            OP,
            &[self.size() as u128, other.size() as u128],
            self.itemsize(),
        )?;
        let a = self.reshaped_to(&[self.size(), 1])?;
        let b = other.reshaped_to(&[1, other.size()])?;
        a.zip_op(Mul, &b)
    }

    /// NumPy's `tensordot`: sums products over the given axes. `axes` is an integer `N` (the
    /// last `N` axes of `self` against the first `N` of `other`) or a pair of axis lists
    /// (`([1, 0], [0, 1])`). The result has the remaining axes of `self` followed by the
    /// remaining axes of `other`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `N` is negative or larger than either rank, when the
    /// lists differ in length or repeat an axis, or when paired axes differ in length
    /// ("shapes .. not aligned"); [`Error::AxisOutOfRange`]; [`Error::DeviceMismatch`].
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::ones(&[3, 4, 5], dev)?;
    /// let b = Array::<f64, B>::ones(&[4, 3, 2], dev)?;
    /// let c = a.tensordot(&b, ([1, 0], [0, 1]))?;
    /// assert_eq!(c.shape(), &[5, 2]);
    /// assert_eq!(c.to_vec()?, vec![12.0; 10]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn tensordot(&self, other: &Array<T, B>, axes: impl Into<TensorAxes>) -> Result<Self> {
        const OP: &str = "tensordot";
        self.check_device(other, OP)?;
        let (na, nb) = (self.ndim(), other.ndim());
        let (axes_a, axes_b): (Vec<usize>, Vec<usize>) = match axes.into() {
            TensorAxes::N(n) => {
                if n < 0 || n as usize > na || n as usize > nb {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "cannot sum over {n} axes of arrays of shapes {:?} and {:?}",
                            self.shape(),
                            other.shape()
                        ),
                    ));
                }
                let n = n as usize;
                ((na - n..na).collect(), (0..n).collect())
            }
            TensorAxes::Pairs(a, b) => {
                if a.len() != b.len() {
                    return Err(Error::invalid(
                        OP,
                        format!("axis lists {a:?} and {b:?} differ in length"),
                    ));
                }
                let resolve = |axes: &[isize], ndim: usize| -> Result<Vec<usize>> {
                    let mut out = Vec::with_capacity(axes.len());
                    for &ax in axes {
                        let r = normalize_axis(OP, ax, ndim)?;
                        if out.contains(&r) {
                            return Err(Error::invalid(
                                OP,
                                format!("repeated axis {ax} in {axes:?}"),
                            ));
                        }
                        out.push(r);
                    }
                    Ok(out)
                };
                (resolve(&a, na)?, resolve(&b, nb)?)
            }
        };
        self.check_aligned(OP, other, &axes_a, &axes_b)?;
        self.contract(other, &axes_a, &axes_b)
    }
}
