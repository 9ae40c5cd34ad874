//! Matrix-product primitive: one batched GEMM on strided views. Every product of the API
//! (`matmul`, `dot`, `vdot`, `inner`, `tensordot`, `einsum`) is lowered by core onto it.
//! [`MatmulPlan::check`] is the primitive's contract, validated once for every backend.

use super::memory::BackendBase;
use crate::dtype::Numeric;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// Batched matrix products.
pub trait MatmulOps: BackendBase {
    /// `a @ b` for `la = [batch.., m, k]` and `lb = [batch.., k, n]`.
    ///
    /// Contract (core guarantees it; backends verify it with [`MatmulPlan::check`]): both
    /// layouts have the same rank (at least 2) and the same batch shape (core has broadcast
    /// them, so batch strides may be 0); the inner sizes agree.
    /// Strides are arbitrary: negative, zero (broadcast) or non-unit, on every axis. The result
    /// is a new C-contiguous buffer of `[batch.., m, n]`. Integer types wrap on overflow, as
    /// NumPy's; floats propagate NaN and infinities (no `0 * x` shortcuts). `k == 0` gives
    /// zeros and an empty batch, `m == 0` or `n == 0` an empty buffer.
    fn matmul<T: Numeric>(
        &self,
        a: &Self::Buffer<T>,
        la: &Layout,
        b: &Self::Buffer<T>,
        lb: &Layout,
    ) -> Result<Self::Buffer<T>>;
}

/// One operand of a product as a backend reads it: element `[batch.., i, j]` lives at
/// `offset + sum(batch * batch_strides) + i * rs + j * cs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatmulOperand {
    /// Strides of the batch axes (0 where the operand is broadcast).
    pub batch_strides: Vec<isize>,
    /// Stride between rows of each matrix.
    pub rs: isize,
    /// Stride between columns of each matrix.
    pub cs: isize,
    /// Offset of the first element.
    pub offset: usize,
}

impl MatmulOperand {
    fn of(l: &Layout) -> Self {
        let r = l.ndim();
        MatmulOperand {
            batch_strides: l.strides()[..r - 2].to_vec(),
            rs: l.strides()[r - 2],
            cs: l.strides()[r - 1],
            offset: l.offset(),
        }
    }

    /// Buffer offset of the matrix of batch item `idx` (C order over `batch`).
    pub fn offset_at(&self, batch: &[usize], mut idx: usize) -> usize {
        let mut off = self.offset as isize;
        for (&d, &s) in batch.iter().zip(&self.batch_strides).rev() {
            off += (idx % d) as isize * s;
            idx /= d;
        }
        off as usize
    }
}

/// A validated product `[batch..] x (m x k) @ (k x n)`: sizes and both operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatmulPlan {
    /// The common batch shape.
    pub batch: Vec<usize>,
    /// Number of batch items.
    pub count: usize,
    /// Rows of `a` and of the result.
    pub m: usize,
    /// Columns of `a`, rows of `b`.
    pub k: usize,
    /// Columns of `b` and of the result.
    pub n: usize,
    /// The left operand.
    pub a: MatmulOperand,
    /// The right operand.
    pub b: MatmulOperand,
}

impl MatmulPlan {
    /// Checks the contract of [`MatmulOps::matmul`] for views `la` and `lb` of buffers of
    /// `len_a` and `len_b` elements: ranks, batch shapes and inner sizes
    /// ([`Error::ShapeMismatch`]), both views inside their buffers, and a result whose size
    /// fits in `usize`.
    ///
    /// ```
    /// use cuprite_core::backend::MatmulPlan;
    /// use cuprite_core::Layout;
    /// let (la, lb) = (Layout::contiguous(&[4, 2, 3]), Layout::contiguous(&[3, 5]));
    /// let lb = lb.broadcast_to("matmul", &[4, 3, 5]).unwrap();
    /// let p = MatmulPlan::check(&la, &lb, 24, 15).unwrap();
    /// assert_eq!((p.count, p.m, p.k, p.n), (4, 2, 3, 5));
    /// assert_eq!((p.b.batch_strides.as_slice(), p.b.rs, p.b.cs), (&[0][..], 5, 1));
    /// assert!(MatmulPlan::check(&la, &lb, 23, 15).is_err());
    /// ```
    pub fn check(la: &Layout, lb: &Layout, len_a: usize, len_b: usize) -> Result<Self> {
        const OP: &str = "matmul";
        let r = la.ndim();
        if r < 2
            || lb.ndim() != r
            || la.shape()[..r - 2] != lb.shape()[..r - 2]
            || la.shape()[r - 1] != lb.shape()[r - 2]
        {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: la.shape().to_vec(),
                rhs: lb.shape().to_vec(),
            });
        }
        la.check_bounds(OP, len_a)?;
        lb.check_bounds(OP, len_b)?;
        let batch = la.shape()[..r - 2].to_vec();
        let (m, k, n) = (la.shape()[r - 2], la.shape()[r - 1], lb.shape()[r - 1]);
        let count = batch
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .filter(|c| c.checked_mul(m).and_then(|x| x.checked_mul(n)).is_some())
            .ok_or_else(|| {
                Error::invalid(
                    OP,
                    format!("an output of {batch:?} x {m} x {n} elements overflows usize"),
                )
            })?;
        Ok(MatmulPlan {
            a: MatmulOperand::of(la),
            b: MatmulOperand::of(lb),
            batch,
            count,
            m,
            k,
            n,
        })
    }

    /// Number of elements of the result.
    pub fn out_size(&self) -> usize {
        self.count * self.m * self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_violations_are_errors() {
        let l23 = Layout::contiguous(&[2, 3]);
        assert!(matches!(
            MatmulPlan::check(&l23, &l23, 6, 6),
            Err(Error::ShapeMismatch { .. })
        ));
        let l32 = Layout::contiguous(&[3, 2]);
        let p = MatmulPlan::check(&l23, &l32, 6, 6).unwrap();
        assert_eq!(
            (p.batch.clone(), p.count, p.m, p.k, p.n),
            (vec![], 1, 2, 3, 2)
        );
        let too_far = Layout::new(vec![3, 2], vec![2, 1], 1);
        let e = MatmulPlan::check(&l23, &too_far, 6, 6).unwrap_err();
        assert!(e.to_string().contains("a buffer of 6 elements"), "{e}");
        // A reversed view whose first element would sit before the buffer's start.
        let before = Layout::new(vec![3, 2], vec![-2, 1], 1);
        assert!(MatmulPlan::check(&l23, &before, 6, 6).is_err());
        let l1 = Layout::contiguous(&[3]);
        assert!(MatmulPlan::check(&l1, &l1, 3, 3).is_err());
        let lb = Layout::contiguous(&[2, 3, 2]);
        assert!(MatmulPlan::check(&l23, &lb, 6, 12).is_err());
        // Empty views are never out of range.
        let e0 = Layout::new(vec![0, 3], vec![3, 1], 100);
        let p = MatmulPlan::check(&e0, &l32, 0, 6).unwrap();
        assert_eq!((p.m, p.k, p.n, p.out_size()), (0, 3, 2, 0));
        // An output too large for usize.
        let big = Layout::new(vec![usize::MAX / 2, 4, 1], vec![0, 0, 0], 0);
        let bb = Layout::new(vec![usize::MAX / 2, 1, 4], vec![0, 0, 0], 0);
        assert!(MatmulPlan::check(&big, &bb, 1, 1).is_err());
    }

    #[test]
    fn batch_offsets_follow_each_operands_strides() {
        // [2, 3] batch; a broadcast over the first batch axis, reversed over the second.
        let la = Layout::new(vec![2, 3, 4, 5], vec![0, -20, 5, 1], 40);
        let lb = Layout::contiguous(&[2, 3, 5, 6]);
        let p = MatmulPlan::check(&la, &lb, 60, 180).unwrap();
        let offs: Vec<(usize, usize)> = (0..p.count)
            .map(|i| (p.a.offset_at(&p.batch, i), p.b.offset_at(&p.batch, i)))
            .collect();
        assert_eq!(
            offs,
            [(40, 0), (20, 30), (0, 60), (40, 90), (20, 120), (0, 150)]
        );
    }
}
