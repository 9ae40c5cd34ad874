//! Eigen-decompositions, one call per matrix of the batch on a copy of each matrix:
//!
//! - Hermitian (`eigh`): `cusolverDnXsyevd` (divide and conquer, lower triangle; `heevd` for
//!   complex types), eigenvalues ascending, eigenvectors overwriting the copy.
//! - General (`eig`): `cusolverDnXgeev` (CUDA 12.6 or newer), right eigenvectors only. Real
//!   matrices run in real arithmetic with every data type real: eigenvalues come back as `n`
//!   real parts then `n` imaginary parts, eigenvectors in LAPACK's packed format (a complex
//!   pair shares two columns); `eig_values_real` and `eig_vectors_real` turn them complex.
//!   Complex matrices use complex types throughout. Every eigenvector is then scaled to unit
//!   norm with its largest component real and positive (`eig_vectors_real`,
//!   `eig_normalise`), the normalisation of the CPU backend.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{call, data_type, solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::backend::{ComplexOf, EigFactors, EighFactors};
use cuprite_core::{Element, Inexact, Result};
use std::ffi::c_void;

impl Cuda {
    pub(super) fn eigh_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EighFactors<Cuda, T>> {
        const OP: &str = "eigh";
        self.check_buffer(a, OP)?;
        let v = copy_of(self, OP, a, batch * n * n)?;
        let w = self.alloc::<T::RealPart>(batch * n)?;
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch * n > 0 {
            let dt = data_type(OP, T::DTYPE)?;
            let rt = data_type(OP, <T::RealPart as Element>::DTYPE)?;
            let jobz = if vectors {
                sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
            } else {
                sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
            };
            let lower = sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER;
            let nn = n as i64;
            let s = solver(self, OP)?;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            // SAFETY: reads the sizes of one `n x n` problem; writes two sizes.
            call(OP, "cusolverDnXsyevd_bufferSize", || unsafe {
                sys::cusolverDnXsyevd_bufferSize(
                    s.h,
                    s.params,
                    jobz,
                    lower,
                    nn,
                    dt,
                    v.device_ptr() as *const c_void,
                    nn,
                    rt,
                    w.device_ptr() as *const c_void,
                    dt,
                    &mut dbytes,
                    &mut hbytes,
                )
            })?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                let pa = at::<T>(&v, b * n * n) as *mut c_void;
                let pw = at::<T::RealPart>(&w, b * n) as *mut c_void;
                let pi = at::<i32>(&info, b) as *mut i32;
                let (dp, dl, hp, hl) = ws.parts();
                // SAFETY: matrix `b` of `v` (n x n, leading dimension n), its `n` eigenvalues
                // and its info slot are inside the buffers allocated above; the workspaces
                // have the sizes cuSOLVER asked for.
                call(OP, "cusolverDnXsyevd", || unsafe {
                    sys::cusolverDnXsyevd(
                        s.h, s.params, jobz, lower, nn, dt, pa, nn, rt, pw, dt, dp, dl, hp, hl, pi,
                    )
                })?;
            }
        }
        Ok(EighFactors {
            w,
            v: vectors.then_some(v),
            info,
        })
    }

    pub(super) fn eig_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EigFactors<Cuda, T>> {
        const OP: &str = "eig";
        self.check_buffer(a, OP)?;
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch * n == 0 {
            return Ok(EigFactors {
                w: self.alloc::<ComplexOf<T>>(0)?,
                v: vectors.then(|| self.alloc::<ComplexOf<T>>(0)).transpose()?,
                info,
            });
        }
        let work = copy_of(self, OP, a, batch * n * n)?;
        let out = if T::DTYPE.is_complex() {
            Out::Complex {
                w: self.alloc::<ComplexOf<T>>(batch * n)?,
                v: vectors
                    .then(|| self.alloc::<ComplexOf<T>>(batch * n * n))
                    .transpose()?,
            }
        } else {
            Out::Real {
                wri: self.alloc::<T>(batch * 2 * n)?,
                vr: vectors
                    .then(|| self.alloc::<T>(batch * n * n))
                    .transpose()?,
            }
        };
        // Device addresses of matrix `b`'s eigenvalues and eigenvectors (0: not computed).
        let w_at = |b: usize| match &out {
            Out::Real { wri, .. } => at::<T>(wri, b * 2 * n),
            Out::Complex { w, .. } => at::<ComplexOf<T>>(w, b * n),
        };
        let v_at = |b: usize| match &out {
            Out::Real { vr: Some(v), .. } => at::<T>(v, b * n * n),
            Out::Complex { v: Some(v), .. } => at::<ComplexOf<T>>(v, b * n * n),
            _ => 0,
        };
        let dt = data_type(OP, T::DTYPE)?;
        let jobvl = sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR;
        let jobvr = if vectors {
            sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
        } else {
            sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
        };
        let nn = n as i64;
        let null = std::ptr::null_mut::<c_void>();
        {
            let s = solver(self, OP)?;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            // SAFETY: reads the sizes of one `n x n` problem; writes two sizes.
            call(OP, "cusolverDnXgeev_bufferSize", || unsafe {
                sys::cusolverDnXgeev_bufferSize(
                    s.h,
                    s.params,
                    jobvl,
                    jobvr,
                    nn,
                    dt,
                    work.device_ptr() as *const c_void,
                    nn,
                    dt,
                    w_at(0) as *const c_void,
                    dt,
                    null,
                    1,
                    dt,
                    v_at(0) as *const c_void,
                    nn,
                    dt,
                    &mut dbytes,
                    &mut hbytes,
                )
            })?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                let pa = at::<T>(&work, b * n * n) as *mut c_void;
                let (pw, pv) = (w_at(b) as *mut c_void, v_at(b) as *mut c_void);
                let pi = at::<i32>(&info, b) as *mut i32;
                let (dp, dl, hp, hl) = ws.parts();
                // SAFETY: matrix `b` of `work` (n x n, leading dimension n), its eigenvalues
                // (2n reals or n complex values), its eigenvectors (n x n, leading dimension
                // n; null when not computed) and its info slot are inside the buffers
                // allocated above, of the data type passed for each; the workspaces have the
                // sizes cuSOLVER asked for.
                call(OP, "cusolverDnXgeev", || unsafe {
                    sys::cusolverDnXgeev(
                        s.h, s.params, jobvl, jobvr, nn, dt, pa, nn, dt, pw, dt, null, 1, dt, pv,
                        nn, dt, dp, dl, hp, hl, pi,
                    )
                })?;
            }
        }
        let (w, v) = match out {
            Out::Real { wri, vr } => self.eig_from_real::<T>(OP, &wri, vr.as_ref(), n, batch)?,
            Out::Complex { w, v } => {
                if let Some(v) = &v {
                    self.eig_normalise::<T>(OP, v, n, batch)?;
                }
                (w, v)
            }
        };
        Ok(EigFactors { w, v, info })
    }
}

/// What `Xgeev` writes: for real matrices `n` real parts then `n` imaginary parts of the
/// eigenvalues and packed real eigenvectors; for complex ones the complex results themselves.
enum Out<T: Inexact> {
    Real {
        wri: CudaBuffer<T>,
        vr: Option<CudaBuffer<T>>,
    },
    Complex {
        w: CudaBuffer<ComplexOf<T>>,
        v: Option<CudaBuffer<ComplexOf<T>>>,
    },
}
