//! Householder QR: `cusolverDnXgeqrf` on a copy of each matrix, `R` cut out of the factored
//! matrix by `tri_copy` (`k x n` or `m x n`, zeros below the diagonal), then `Q` generated
//! from the reflectors by `cusolverDn<t>orgqr` (real) or `<t>ungqr` (complex) in a buffer
//! of `m x k` or `m x m` per matrix whose first columns receive the reflectors. One call
//! per matrix of the batch, on the device's stream.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{call, data_type, int, solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::{DType, Error, Inexact, Result};
use std::ffi::c_void;

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
        let dt = data_type(OP, T::DTYPE)?;
        let (m64, n64) = (m as i64, n as i64);
        {
            let s = solver(self, OP)?;
            if k > 0 {
                let (mut dbytes, mut hbytes) = (0usize, 0usize);
                // SAFETY: reads the sizes of one `m x n` matrix; writes two sizes.
                call(OP, "cusolverDnXgeqrf_bufferSize", || unsafe {
                    sys::cusolverDnXgeqrf_bufferSize(
                        s.h,
                        s.params,
                        m64,
                        n64,
                        dt,
                        work.device_ptr() as *const c_void,
                        m64,
                        dt,
                        tau.device_ptr() as *const c_void,
                        dt,
                        &mut dbytes,
                        &mut hbytes,
                    )
                })?;
                let mut ws = Workspace::new(self, dbytes, hbytes)?;
                for b in 0..batch {
                    let pa = at::<T>(&work, b * m * n) as *mut c_void;
                    let pt = at::<T>(&tau, b * k) as *mut c_void;
                    let pi = at::<i32>(&info, b) as *mut i32;
                    let (dp, dl, hp, hl) = ws.parts();
                    // SAFETY: matrix `b` of `work` (m x n, leading dimension m), its `k`
                    // scalars in `tau` and its info slot are inside the buffers allocated
                    // above; the workspaces have the sizes cuSOLVER asked for.
                    call(OP, "cusolverDnXgeqrf", || unsafe {
                        sys::cusolverDnXgeqrf(
                            s.h, s.params, m64, n64, dt, pa, m64, dt, pt, dt, dp, dl, hp, hl, pi,
                        )
                    })?;
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
                let (m32, q32, k32) = (int(OP, m)?, int(OP, qc)?, int(OP, k)?);
                let h = s.h;
                let mut lwork = 0i32;
                let (pq0, pt0) = (q.device_ptr(), tau.device_ptr());
                macro_rules! size {
                    ($f:ident, $t:ty) => {
                        // SAFETY: reads the sizes of one `m x qc` matrix; writes one int.
                        call(OP, stringify!($f), || unsafe {
                            sys::$f(
                                h,
                                m32,
                                q32,
                                k32,
                                pq0 as *const $t,
                                m32,
                                pt0 as *const $t,
                                &mut lwork,
                            )
                        })
                    };
                }
                match T::DTYPE {
                    DType::F32 => size!(cusolverDnSorgqr_bufferSize, f32)?,
                    DType::F64 => size!(cusolverDnDorgqr_bufferSize, f64)?,
                    DType::C64 => size!(cusolverDnCungqr_bufferSize, sys::cuComplex)?,
                    DType::C128 => size!(cusolverDnZungqr_bufferSize, sys::cuDoubleComplex)?,
                    dtype => return Err(Error::UnsupportedDType { op: OP, dtype }),
                }
                let ws = Workspace::new(self, lwork.max(1) as usize * std::mem::size_of::<T>(), 0)?;
                let lw = lwork.max(1);
                for b in 0..batch {
                    let pq = at::<T>(&q, b * m * qc);
                    let pt = at::<T>(&tau, b * k);
                    let pi = at::<i32>(&info, b);
                    let w = ws.dptr();
                    macro_rules! run {
                        ($f:ident, $t:ty) => {
                            // SAFETY: matrix `b` of `q` (m x qc, leading dimension m), its
                            // `k` scalars in `tau` and its info slot are inside the buffers
                            // allocated above; the workspace holds `lw` elements, at least
                            // what cuSOLVER asked for.
                            call(OP, stringify!($f), || unsafe {
                                sys::$f(
                                    h,
                                    m32,
                                    q32,
                                    k32,
                                    pq as *mut $t,
                                    m32,
                                    pt as *const $t,
                                    w as *mut $t,
                                    lw,
                                    pi as *mut i32,
                                )
                            })
                        };
                    }
                    match T::DTYPE {
                        DType::F32 => run!(cusolverDnSorgqr, f32)?,
                        DType::F64 => run!(cusolverDnDorgqr, f64)?,
                        DType::C64 => run!(cusolverDnCungqr, sys::cuComplex)?,
                        _ => run!(cusolverDnZungqr, sys::cuDoubleComplex)?,
                    }
                }
            }
        }
        self.tri_copy(OP, &r, &work, (qc, m, n), batch, true)?;
        Ok((q, r))
    }
}
