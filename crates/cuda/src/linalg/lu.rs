//! LU with partial pivoting and its solve (`cusolverDn<t>getrf` / `<t>getrs`, the 32-bit
//! API that CuPy also calls: its pivots are the trait's 1-based `int`s, so they need no
//! conversion) and Cholesky (`cusolverDnXpotrf`, lower, then the strict upper triangle
//! zeroed by `tri_copy`). One call per matrix of the batch, queued on the device's stream
//! with pointer offsets into one buffer and one workspace reused by every call.
//! `getrf` keeps an exactly zero pivot in `U` (no division by it), as LAPACK does.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{call, data_type, int, solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::{DType, Error, Inexact, Result};
use std::ffi::c_void;

impl Cuda {
    pub(super) fn lu_factor_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        const OP: &str = "lu_factor";
        self.check_buffer(a, OP)?;
        let lu = copy_of(self, OP, a, batch * n * n)?;
        let ipiv = self.alloc::<i32>(batch * n)?;
        if batch * n == 0 {
            return Ok((lu, ipiv));
        }
        let n32 = int(OP, n)?;
        let info = self.alloc::<i32>(batch)?;
        let s = solver(self, OP)?;
        let h = s.h;
        let mut lwork = 0i32;
        let p = lu.device_ptr();
        macro_rules! size {
            ($f:ident, $t:ty) => {
                // SAFETY: reads only the sizes (and the pointer's type) of one `n x n`
                // matrix of `lu`; writes one int.
                call(OP, stringify!($f), || unsafe {
                    sys::$f(h, n32, n32, p as *mut $t, n32, &mut lwork)
                })
            };
        }
        match T::DTYPE {
            DType::F32 => size!(cusolverDnSgetrf_bufferSize, f32)?,
            DType::F64 => size!(cusolverDnDgetrf_bufferSize, f64)?,
            DType::C64 => size!(cusolverDnCgetrf_bufferSize, sys::cuComplex)?,
            DType::C128 => size!(cusolverDnZgetrf_bufferSize, sys::cuDoubleComplex)?,
            dtype => return Err(Error::UnsupportedDType { op: OP, dtype }),
        }
        let ws = Workspace::new(self, lwork.max(1) as usize * std::mem::size_of::<T>(), 0)?;
        for b in 0..batch {
            let (pa, pp, pi) = (
                at::<T>(&lu, b * n * n),
                at::<i32>(&ipiv, b * n),
                at::<i32>(&info, b),
            );
            let w = ws.dptr();
            macro_rules! run {
                ($f:ident, $t:ty) => {
                    // SAFETY: matrix `b` of `lu` (n x n, leading dimension n), its `n` pivots
                    // and its info slot are inside the buffers allocated above; the
                    // workspace holds the `lwork` elements cuSOLVER asked for.
                    call(OP, stringify!($f), || unsafe {
                        sys::$f(
                            h,
                            n32,
                            n32,
                            pa as *mut $t,
                            n32,
                            w as *mut $t,
                            pp as *mut i32,
                            pi as *mut i32,
                        )
                    })
                };
            }
            match T::DTYPE {
                DType::F32 => run!(cusolverDnSgetrf, f32)?,
                DType::F64 => run!(cusolverDnDgetrf, f64)?,
                DType::C64 => run!(cusolverDnCgetrf, sys::cuComplex)?,
                _ => run!(cusolverDnZgetrf, sys::cuDoubleComplex)?,
            }
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
        let h = s.h;
        let op_n = sys::cublasOperation_t::CUBLAS_OP_N;
        for k in 0..batch {
            let pa = at::<T>(lu, k * n * n);
            let pp = at::<i32>(ipiv, k * n);
            let px = at::<T>(&x, k * n * nrhs);
            let pi = at::<i32>(&info, k);
            macro_rules! run {
                ($f:ident, $t:ty) => {
                    // SAFETY: matrix `k` of the factors (n x n), its pivots, its `n x nrhs`
                    // right-hand sides in `x` (leading dimension n) and its info slot are
                    // inside the buffers checked or allocated above.
                    call(OP, stringify!($f), || unsafe {
                        sys::$f(
                            h,
                            op_n,
                            n32,
                            k32,
                            pa as *const $t,
                            n32,
                            pp as *const i32,
                            px as *mut $t,
                            n32,
                            pi as *mut i32,
                        )
                    })
                };
            }
            match T::DTYPE {
                DType::F32 => run!(cusolverDnSgetrs, f32)?,
                DType::F64 => run!(cusolverDnDgetrs, f64)?,
                DType::C64 => run!(cusolverDnCgetrs, sys::cuComplex)?,
                DType::C128 => run!(cusolverDnZgetrs, sys::cuDoubleComplex)?,
                dtype => return Err(Error::UnsupportedDType { op: OP, dtype }),
            }
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
        let l = copy_of(self, OP, a, batch * n * n)?;
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch * n == 0 {
            return Ok((l, info));
        }
        let dt = data_type(OP, T::DTYPE)?;
        let lower = sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER;
        let nn = n as i64;
        {
            let s = solver(self, OP)?;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            // SAFETY: reads the sizes of one `n x n` matrix; writes two sizes.
            call(OP, "cusolverDnXpotrf_bufferSize", || unsafe {
                sys::cusolverDnXpotrf_bufferSize(
                    s.h,
                    s.params,
                    lower,
                    nn,
                    dt,
                    l.device_ptr() as *const c_void,
                    nn,
                    dt,
                    &mut dbytes,
                    &mut hbytes,
                )
            })?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                let pa = at::<T>(&l, b * n * n) as *mut c_void;
                let pi = at::<i32>(&info, b) as *mut i32;
                let (dp, dl, hp, hl) = ws.parts();
                // SAFETY: matrix `b` of `l` (n x n, leading dimension n) and its info slot
                // are inside the buffers allocated above; the workspaces have the sizes
                // cuSOLVER asked for.
                call(OP, "cusolverDnXpotrf", || unsafe {
                    sys::cusolverDnXpotrf(
                        s.h, s.params, lower, nn, dt, pa, nn, dt, dp, dl, hp, hl, pi,
                    )
                })?;
            }
        }
        self.tri_copy(OP, &l, &l, (n, n, n), batch, false)?;
        Ok((l, info))
    }
}
