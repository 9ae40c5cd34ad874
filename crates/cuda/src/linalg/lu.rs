//! LU with partial pivoting and its solve (`cusolverDn<t>getrf` / `<t>getrs`, the 32-bit
//! API that CuPy also calls: its pivots are the trait's 1-based `int`s, so they need no
//! conversion) and Cholesky (`cusolverDnXpotrf`, lower, then the strict upper triangle
//! zeroed by `tri_copy`). One call per matrix of the batch, queued on the device's stream
//! with pointer offsets into one buffer and one workspace reused by every call.
//! `getrf` keeps an exactly zero pivot in `U` (no division by it), as LAPACK does. Orders of
//! 32 or less go to the batched kernels of [`super::small`] instead.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{self, int, solver, Workspace};
use cuprite_core::{Error, Inexact, Result};

impl Cuda {
    pub(super) fn lu_factor_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        const OP: &str = "lu_factor";
        self.check_buffer(a, OP)?;
        if super::small::small(n) {
            return self.small_lu(OP, a, batch, n);
        }
        let lu = copy_of(self, OP, a, batch * n * n)?;
        let ipiv = self.alloc::<i32>(batch * n)?;
        if batch * n == 0 {
            return Ok((lu, ipiv));
        }
        let n32 = int(OP, n)?;
        let info = self.alloc::<i32>(batch)?;
        let s = solver(self, OP)?;
        let lwork = solver::getrf_buffer_size::<T>(&s, OP, n32, lu.device_ptr())?;
        let ws = Workspace::elements::<T>(self, lwork)?;
        for b in 0..batch {
            // Matrix `b` of `lu` (n x n), its `n` pivots and its info slot are inside the
            // buffers allocated above.
            let (pa, pp, pi) = (
                at::<T>(&lu, b * n * n),
                at::<i32>(&ipiv, b * n),
                at::<i32>(&info, b),
            );
            solver::getrf::<T>(&s, OP, n32, pa, &ws, pp, pi)?;
        }
        drop(ws);
        Ok((lu, ipiv))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn lu_solve_imp<T: Inexact>(
        &self,
        lu: &CudaBuffer<T>,
        ipiv: &CudaBuffer<i32>,
        b: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "lu_solve";
        self.check_buffer(lu, OP)?;
        self.check_buffer(ipiv, OP)?;
        self.check_buffer(b, OP)?;
        if super::small::small(n) {
            return self.small_solve(OP, lu, ipiv, Some(b), batch, n, nrhs);
        }
        let x = copy_of(self, OP, b, batch * n * nrhs)?;
        if batch * n * nrhs == 0 {
            return Ok(x);
        }
        if lu.len() < batch * n * n || ipiv.len() < batch * n {
            return Err(Error::Backend {
                op: OP,
                msg: format!(
                    "factors of {} and pivots of {} elements for {batch} matrices of {n} x {n}",
                    lu.len(),
                    ipiv.len()
                ),
            });
        }
        let (n32, k32) = (int(OP, n)?, int(OP, nrhs)?);
        let info = self.alloc::<i32>(batch)?;
        let s = solver(self, OP)?;
        for k in 0..batch {
            // Matrix `k` of the factors (n x n), its pivots, its `n x nrhs` right-hand sides in
            // `x` and its info slot are inside the buffers checked or allocated above.
            let pa = at::<T>(lu, k * n * n);
            let pp = at::<i32>(ipiv, k * n);
            let px = at::<T>(&x, k * n * nrhs);
            let pi = at::<i32>(&info, k);
            solver::getrs::<T>(&s, OP, n32, k32, pa, pp, px, pi)?;
        }
        Ok(x)
    }

    pub(super) fn cholesky_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        const OP: &str = "cholesky";
        self.check_buffer(a, OP)?;
        if super::small::small(n) {
            return self.small_cholesky(OP, a, batch, n);
        }
        let l = copy_of(self, OP, a, batch * n * n)?;
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch * n == 0 {
            return Ok((l, info));
        }
        let nn = n as i64;
        {
            let s = solver(self, OP)?;
            let (dbytes, hbytes) = solver::xpotrf_buffer_size::<T>(&s, OP, nn, l.device_ptr())?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                // Matrix `b` of `l` (n x n) and its info slot are inside the buffers
                // allocated above.
                let (pa, pi) = (at::<T>(&l, b * n * n), at::<i32>(&info, b));
                solver::xpotrf::<T>(&s, OP, nn, pa, &mut ws, pi)?;
            }
        }
        self.tri_copy(OP, &l, &l, (n, n, n), batch, false)?;
        Ok((l, info))
    }
}
