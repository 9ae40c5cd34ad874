//! Eigen-decompositions on a copy of each matrix, one call per matrix of the batch unless said:
//!
//! - Hermitian (`eigh`): `cusolverDnXsyevd` (divide and conquer, lower triangle; `heevd` for
//!   complex types), eigenvalues ascending, eigenvectors overwriting the copy. Matrices of
//!   order 32 or less go to `<t>syevjBatched` instead (Jacobi, the whole batch in one call).
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
use crate::ffi::solver::{self, solver, Workspace};
use cuprite_core::backend::{ComplexOf, EigFactors, EighFactors};
use cuprite_core::{Inexact, Result};

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
        if batch * n > 0 && super::small::small(n) {
            let (n32, b32) = (solver::int(OP, n)?, solver::int(OP, batch)?);
            let s = solver(self, OP)?;
            let params = solver::JacobiParams::new(OP)?;
            let (pa, pw) = (v.device_ptr(), w.device_ptr());
            let lwork =
                solver::syevj_batched_buffer_size::<T>(&s, OP, vectors, n32, pa, pw, &params, b32)?;
            let ws = Workspace::elements::<T>(self, lwork)?;
            // `v` holds the `batch` matrices (n x n each), `w` their `batch * n` eigenvalues and
            // `info` one code each, all allocated above; n <= 32.
            solver::syevj_batched::<T>(
                &s,
                OP,
                vectors,
                n32,
                pa,
                pw,
                &ws,
                info.device_ptr(),
                &params,
                b32,
            )?;
        } else if batch * n > 0 {
            let nn = n as i64;
            let s = solver(self, OP)?;
            let (dbytes, hbytes) = solver::xsyevd_buffer_size::<T>(
                &s,
                OP,
                vectors,
                nn,
                v.device_ptr(),
                w.device_ptr(),
            )?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                // Matrix `b` of `v` (n x n), its `n` eigenvalues and its info slot are inside
                // the buffers allocated above.
                let pa = at::<T>(&v, b * n * n);
                let pw = at::<T::RealPart>(&w, b * n);
                let pi = at::<i32>(&info, b);
                solver::xsyevd::<T>(&s, OP, vectors, nn, pa, pw, &mut ws, pi)?;
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
        // Device addresses of matrix `b`'s eigenvalues and eigenvectors (if computed).
        let w_at = |b: usize| match &out {
            Out::Real { wri, .. } => at::<T>(wri, b * 2 * n),
            Out::Complex { w, .. } => at::<ComplexOf<T>>(w, b * n),
        };
        let v_at = |b: usize| match &out {
            Out::Real { vr: Some(v), .. } => Some(at::<T>(v, b * n * n)),
            Out::Complex { v: Some(v), .. } => Some(at::<ComplexOf<T>>(v, b * n * n)),
            _ => None,
        };
        let nn = n as i64;
        {
            let s = solver(self, OP)?;
            let (dbytes, hbytes) =
                solver::xgeev_buffer_size::<T>(&s, OP, nn, work.device_ptr(), w_at(0), v_at(0))?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                // Matrix `b` of `work` (n x n), its eigenvalues (2n reals or n complex
                // values), its eigenvectors (n x n; null when not computed) and its info slot
                // are inside the buffers allocated above.
                let (pa, pi) = (at::<T>(&work, b * n * n), at::<i32>(&info, b));
                solver::xgeev::<T>(&s, OP, nn, pa, w_at(b), v_at(b), &mut ws, pi)?;
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
