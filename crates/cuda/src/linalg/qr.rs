//! Householder QR: `cusolverDnXgeqrf` on a copy of each matrix, `R` cut out of the factored
//! matrix by `tri_copy` (`k x n` or `m x n`, zeros below the diagonal), then `Q` generated
//! from the reflectors by `cusolverDn<t>orgqr` (real) or `<t>ungqr` (complex) in a buffer
//! of `m x k` or `m x m` per matrix whose first columns receive the reflectors. One call
//! per matrix of the batch, on the device's stream.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{self, int, solver, Workspace};
use cuprite_core::{Inexact, Result};

impl Cuda {
    pub(super) fn qr_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        complete: bool,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<T>)> {
        const OP: &str = "qr";
        self.check_buffer(a, OP)?;
        let k = m.min(n);
        // Columns of Q and rows of R.
        let qc = if complete { m } else { k };
        let work = copy_of(self, OP, a, batch * m * n)?;
        let r = self.alloc::<T>(batch * qc * n)?;
        let q = self.alloc_zeroed::<T>(batch * m * qc)?;
        if batch == 0 || m == 0 {
            return Ok((q, r));
        }
        let tau = self.alloc::<T>((batch * k).max(1))?;
        let info = self.alloc::<i32>(batch)?;
        let mn = (m as i64, n as i64);
        {
            let s = solver(self, OP)?;
            if k > 0 {
                let (dbytes, hbytes) = solver::xgeqrf_buffer_size::<T>(
                    &s,
                    OP,
                    mn,
                    work.device_ptr(),
                    tau.device_ptr(),
                )?;
                let mut ws = Workspace::new(self, dbytes, hbytes)?;
                for b in 0..batch {
                    // Matrix `b` of `work` (m x n), its `k` scalars in `tau` and its info slot
                    // are inside the buffers allocated above.
                    let pa = at::<T>(&work, b * m * n);
                    let pt = at::<T>(&tau, b * k);
                    let pi = at::<i32>(&info, b);
                    solver::xgeqrf::<T>(&s, OP, mn, pa, pt, &mut ws, pi)?;
                }
            }
            // The reflectors (the first min(qc, n) columns) into Q, then Q from them.
            let cols = qc.min(n);
            if cols > 0 {
                for b in 0..batch {
                    self.copy_elems(&q, b * m * qc, &work, b * m * n, m * cols)?;
                }
            }
            if qc > 0 {
                let mqk = (int(OP, m)?, int(OP, qc)?, int(OP, k)?);
                let lwork =
                    solver::orgqr_buffer_size::<T>(&s, OP, mqk, q.device_ptr(), tau.device_ptr())?;
                let ws = Workspace::elements::<T>(self, lwork)?;
                for b in 0..batch {
                    // Matrix `b` of `q` (m x qc), its `k` scalars in `tau` and its info slot
                    // are inside the buffers allocated above.
                    let pq = at::<T>(&q, b * m * qc);
                    let pt = at::<T>(&tau, b * k);
                    let pi = at::<i32>(&info, b);
                    solver::orgqr::<T>(&s, OP, mqk, pq, pt, &ws, pi)?;
                }
            }
        }
        self.tri_copy(OP, &r, &work, (qc, m, n), batch, true)?;
        Ok((q, r))
    }
}
