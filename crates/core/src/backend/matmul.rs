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

    /// The same product with fewer batch items: the innermost batch axes along which `b`
    /// is broadcast (stride 0) and whose strides in `a` continue its row axis are merged
    /// into the rows of `a`, so that `(60, 60, 1, 128) @ (128, 128)` becomes one
    /// `(3600, 128) @ (128, 128)` product and `(b, m, k) @ (k, n)` one `(b*m, k) @ (k, n)`.
    /// The result's C-contiguous `[batch.., m, n]` layout is unchanged: the merged rows are
    /// its rows in order. Axes of length 1 merge always; a plan with nothing to merge comes
    /// back equal. Pure layout logic, for any backend.
    ///
    /// ```
    /// use cuprite_core::backend::MatmulPlan;
    /// use cuprite_core::Layout;
    /// let la = Layout::contiguous(&[60, 60, 1, 128]);
    /// let lb = Layout::contiguous(&[128, 128]).broadcast_to("matmul", &[60, 60, 128, 128]).unwrap();
    /// let p = MatmulPlan::check(&la, &lb, la.size(), 128 * 128).unwrap().fold_broadcast_rows();
    /// assert_eq!((p.count, p.m, p.k, p.n, p.a.rs), (1, 3600, 128, 128, 128));
    /// assert!(p.batch.is_empty() && p.b.batch_strides.is_empty());
    /// ```
    pub fn fold_broadcast_rows(&self) -> MatmulPlan {
        let (mut rows, mut rs) = (self.m, self.a.rs);
        let mut keep = self.batch.len();
        while keep > 0 {
            let (d, sa) = (self.batch[keep - 1], self.a.batch_strides[keep - 1]);
            if d != 1 {
                if self.b.batch_strides[keep - 1] != 0 {
                    break;
                }
                if rows == 1 {
                    rs = sa;
                } else if rs.checked_mul(rows as isize) != Some(sa) {
                    break;
                }
                rows *= d;
            }
            keep -= 1;
        }
        if keep == self.batch.len() || rows == 0 {
            return self.clone();
        }
        let batch = self.batch[..keep].to_vec();
        let operand = |o: &MatmulOperand, rs: isize| MatmulOperand {
            batch_strides: o.batch_strides[..keep].to_vec(),
            rs,
            ..o.clone()
        };
        MatmulPlan {
            count: batch.iter().product(),
            a: operand(&self.a, rs),
            b: operand(&self.b, self.b.rs),
            batch,
            m: rows,
            k: self.k,
            n: self.n,
        }
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

    /// Every folded plan addresses the same elements as the plan it came from.
    fn assert_same_product(p: &MatmulPlan, f: &MatmulPlan) {
        assert_eq!(p.out_size(), f.out_size());
        assert_eq!(
            (p.k, p.n, &p.b.rs, &p.b.cs, &p.a.cs),
            (f.k, f.n, &f.b.rs, &f.b.cs, &f.a.cs)
        );
        for idx in 0..p.count {
            for i in 0..p.m {
                let row = idx * p.m + i;
                let (fi, r) = (row / f.m, row % f.m);
                let at = |o: &MatmulOperand, b: &[usize], idx: usize, i: usize| {
                    o.offset_at(b, idx) as isize + i as isize * o.rs
                };
                assert_eq!(at(&p.a, &p.batch, idx, i), at(&f.a, &f.batch, fi, r));
                assert_eq!(p.b.offset_at(&p.batch, idx), f.b.offset_at(&f.batch, fi));
            }
        }
    }

    #[test]
    fn broadcast_batches_fold_into_rows() {
        let plan = |la: Layout, lb: Layout| {
            let p = MatmulPlan::check(&la, &lb, 1 << 20, 1 << 20).unwrap();
            let f = p.fold_broadcast_rows();
            assert_same_product(&p, &f);
            (f.batch.clone(), f.m, f.a.rs)
        };
        let w = |shape: &[usize]| {
            Layout::contiguous(&shape[shape.len() - 2..])
                .broadcast_to("matmul", shape)
                .unwrap()
        };
        // (6, 5, 1, 4) @ (4, 3): one product of 30 rows.
        let la = Layout::contiguous(&[6, 5, 1, 4]);
        assert_eq!(plan(la, w(&[6, 5, 4, 3])), (vec![], 30, 4));
        // (b, m, k) @ (k, n) with a transposed per matrix: its rows do not continue.
        let lt = Layout::contiguous(&[2, 4, 3])
            .permute("t", &[0, 2, 1])
            .unwrap();
        assert_eq!(plan(lt, w(&[2, 4, 3])), (vec![2], 3, 1));
        // (2, 3, m, k) @ (2, 1, k, n): only the inner axis folds.
        let la = Layout::contiguous(&[2, 3, 5, 4]);
        let lb = Layout::contiguous(&[2, 1, 4, 3])
            .broadcast_to("matmul", &[2, 3, 4, 3])
            .unwrap();
        assert_eq!(plan(la, lb), (vec![2], 15, 4));
        // b varies along the batch: nothing folds.
        let lb = Layout::contiguous(&[3, 4, 2]);
        assert_eq!(plan(Layout::contiguous(&[3, 5, 4]), lb), (vec![3], 5, 4));
        // Both broadcast: rows of a repeat (stride 0) only when a has one row.
        let l1 = Layout::contiguous(&[1, 4])
            .broadcast_to("m", &[3, 1, 4])
            .unwrap();
        assert_eq!(plan(l1, w(&[3, 4, 2])), (vec![], 3, 0));
        let l2 = Layout::contiguous(&[2, 4])
            .broadcast_to("m", &[3, 2, 4])
            .unwrap();
        assert_eq!(plan(l2, w(&[3, 4, 2])), (vec![3], 2, 4));
        // Every second batch item of a: its stride skips rows.
        let la = Layout::new(vec![3, 2, 4], vec![16, 4, 1], 0);
        assert_eq!(plan(la, w(&[3, 4, 2])), (vec![3], 2, 4));
        // Reversed batch axis over one-row matrices: a negative row stride.
        let la = Layout::new(vec![3, 1, 4], vec![-4, 4, 1], 8);
        assert_eq!(plan(la, w(&[3, 4, 2])), (vec![], 3, -4));
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
