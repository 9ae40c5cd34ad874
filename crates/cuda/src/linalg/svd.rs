//! Singular value decomposition with cuSOLVER, one call per matrix of the batch, on a copy
//! of the input. Two routines:
//!
//! - `cusolverDnXgesvdp`: a QDWH polar decomposition `A = U_p H` followed by `syevd` of the
//!   Hermitian factor `H = V S V^H`, so `U = U_p V`. Mostly matrix products and QR/Cholesky
//!   factorisations, it is several times faster than `gesvd` on large matrices. When `A` has
//!   singular values near zero, the polar iteration adds a perturbation of size
//!   `h_err_sigma` (reported on the host) that shifts the singular values by as much.
//! - `cusolverDnXgesvd` (LAPACK's QR iteration): backward stable with orthogonality at
//!   machine precision for every input, rank-deficient ones included.
//!
//! [`SvdRoutine::Auto`] tries `gesvdp` on matrices of at least [`POLAR_MIN`] columns where it
//! gives the factors asked for (singular values only, the reduced factors, or the full
//! factors of a square matrix), and keeps its result only when every perturbation of the
//! batch is within `nn * eps * s_max` of its matrix, the error bound `gesvd` itself has;
//! otherwise the batch is decomposed again by `gesvd` from an untouched copy. So the answer
//! is always as accurate as `gesvd`'s, and the fast path is the common one (full-rank input).
//!
//! Both need `m >= n`: a wide matrix is decomposed through its conjugate transpose
//! (`A^H = U' S V'^H` gives `U = V'` and `Vh = U'^H`), with `conj_transpose` before and after.
//! `gesvd` returns `Vh` itself (its `VT`); `gesvdp` returns `V`, transposed after.

use super::{at, copy_of};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::solver::{call, data_type, solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::backend::SvdFactors;
use cuprite_core::{Inexact, Result};
use std::ffi::c_void;

/// Columns (of the tall orientation) from which [`SvdRoutine::Auto`] tries `gesvdp`: below
/// it the per-matrix host synchronisation of `gesvdp` outweighs its speed.
pub(crate) const POLAR_MIN: usize = 32;

/// Which cuSOLVER routine decomposes a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SvdRoutine {
    /// `gesvdp` when it applies and its perturbations are small enough, else `gesvd`.
    Auto,
    /// `gesvdp` whenever it gives the factors asked for (any size), checked as `Auto` does.
    Polar,
    /// `gesvd` always.
    Qr,
}

const OP: &str = "svd";

impl Cuda {
    pub(super) fn svd_imp<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
    ) -> Result<SvdFactors<Cuda, T>> {
        Ok(self.svd_with(a, batch, m, n, vectors, SvdRoutine::Auto)?.0)
    }

    /// The SVD by `routine`, with the routine that produced the result (`Polar` or `Qr`).
    pub(crate) fn svd_with<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
        routine: SvdRoutine,
    ) -> Result<(SvdFactors<Cuda, T>, SvdRoutine)> {
        self.check_buffer(a, OP)?;
        let k = m.min(n);
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch == 0 || k == 0 {
            // No singular values; full singular vectors of an empty matrix are identities.
            let (u, vh) = match vectors {
                None => (None, None),
                Some(true) => (
                    Some(self.identities::<T>(m, m, batch)?),
                    Some(self.identities::<T>(n, n, batch)?),
                ),
                Some(false) => (
                    Some(self.alloc::<T>(batch * m * k)?),
                    Some(self.alloc::<T>(batch * k * n)?),
                ),
            };
            let f = SvdFactors {
                s: self.alloc::<T::RealPart>(0)?,
                u,
                vh,
                info,
            };
            return Ok((f, SvdRoutine::Qr));
        }
        // gesvd on an `mm x nn` matrix with `mm >= nn`.
        let wide = m < n;
        let (mm, nn) = if wide { (n, m) } else { (m, n) };
        let work = if wide {
            self.conj_transpose(OP, a, m, n, batch)?
        } else {
            copy_of(self, OP, a, batch * m * n)?
        };
        let polar = match routine {
            SvdRoutine::Qr => false,
            SvdRoutine::Polar => vectors != Some(true) || mm == nn,
            SvdRoutine::Auto => (vectors != Some(true) || mm == nn) && nn >= POLAR_MIN,
        };
        if polar {
            // gesvdp destroys its input: keep `work` for gesvd.
            let scratch = copy_of(self, OP, &work, batch * mm * nn)?;
            if let Some((s, u, v, info)) = self.gesvdp(&scratch, batch, mm, nn, vectors)? {
                let (u, vh) = match (u, v) {
                    (Some(u), Some(v)) if wide => {
                        // U = V', Vh = U'^H.
                        (Some(v), Some(self.conj_transpose(OP, &u, mm, k, batch)?))
                    }
                    (Some(u), Some(v)) => {
                        (Some(u), Some(self.conj_transpose(OP, &v, nn, k, batch)?))
                    }
                    _ => (None, None),
                };
                return Ok((SvdFactors { s, u, vh, info }, SvdRoutine::Polar));
            }
        }
        let (job, ucols, vrows) = match vectors {
            None => (b'N', 0, 0),
            Some(true) => (b'A', mm, nn),
            Some(false) => (b'S', k, k),
        };
        let s = self.alloc::<T::RealPart>(batch * k)?;
        let u = self.alloc::<T>(batch * mm * ucols)?;
        let vt = self.alloc::<T>(batch * vrows * nn)?;
        let dt = data_type(OP, T::DTYPE)?;
        let rt = data_type(OP, <T::RealPart as cuprite_core::Element>::DTYPE)?;
        let job = job as std::ffi::c_schar;
        let (m64, n64) = (mm as i64, nn as i64);
        let (ldu, ldvt) = (mm as i64, vrows.max(1) as i64);
        let null = std::ptr::null_mut::<c_void>();
        let ptr_or_null = |b: &CudaBuffer<T>, off: usize| {
            if b.is_empty() {
                null
            } else {
                at::<T>(b, off) as *mut c_void
            }
        };
        {
            let sv = solver(self, OP)?;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            // SAFETY: reads the sizes of one `mm x nn` problem; writes two sizes.
            call(OP, "cusolverDnXgesvd_bufferSize", || unsafe {
                sys::cusolverDnXgesvd_bufferSize(
                    sv.h,
                    sv.params,
                    job,
                    job,
                    m64,
                    n64,
                    dt,
                    work.device_ptr() as *const c_void,
                    m64,
                    rt,
                    s.device_ptr() as *const c_void,
                    dt,
                    ptr_or_null(&u, 0),
                    ldu,
                    dt,
                    ptr_or_null(&vt, 0),
                    ldvt,
                    dt,
                    &mut dbytes,
                    &mut hbytes,
                )
            })?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                let pa = at::<T>(&work, b * mm * nn) as *mut c_void;
                let ps = at::<T::RealPart>(&s, b * k) as *mut c_void;
                let pu = ptr_or_null(&u, b * mm * ucols);
                let pv = ptr_or_null(&vt, b * vrows * nn);
                let pi = at::<i32>(&info, b) as *mut i32;
                let (dp, dl, hp, hl) = ws.parts();
                // SAFETY: matrix `b` of `work` (mm x nn, leading dimension mm), its `k`
                // singular values, its `mm x ucols` U and `vrows x nn` VT (leading
                // dimensions mm and vrows; null when not computed) and its info slot are
                // inside the buffers allocated above; the workspaces have the sizes cuSOLVER
                // asked for.
                call(OP, "cusolverDnXgesvd", || unsafe {
                    sys::cusolverDnXgesvd(
                        sv.h, sv.params, job, job, m64, n64, dt, pa, m64, rt, ps, dt, pu, ldu, dt,
                        pv, ldvt, dt, dp, dl, hp, hl, pi,
                    )
                })?;
            }
        }
        let (u, vh) = match vectors {
            None => (None, None),
            Some(_) if wide => (
                // U = (VT')^H: `vrows x m` -> `m x vrows`; Vh = (U')^H: `n x ucols` ->
                // `ucols x n`.
                Some(self.conj_transpose(OP, &vt, vrows, nn, batch)?),
                Some(self.conj_transpose(OP, &u, mm, ucols, batch)?),
            ),
            Some(_) => (Some(u), Some(vt)),
        };
        Ok((SvdFactors { s, u, vh, info }, SvdRoutine::Qr))
    }

    /// `gesvdp` of each `mm x nn` matrix (`mm >= nn`) of `work` (destroyed): the singular
    /// values, `U` (`mm x nn`) and `V` (`nn x nn`) when `vectors` is set, and the info codes;
    /// `None` when a matrix needed a perturbation above `nn * eps * s_max`.
    #[allow(clippy::type_complexity)]
    fn gesvdp<T: Inexact>(
        &self,
        work: &CudaBuffer<T>,
        batch: usize,
        mm: usize,
        nn: usize,
        vectors: Option<bool>,
    ) -> Result<
        Option<(
            CudaBuffer<T::RealPart>,
            Option<CudaBuffer<T>>,
            Option<CudaBuffer<T>>,
            CudaBuffer<i32>,
        )>,
    > {
        let k = nn;
        let info = self.alloc_zeroed::<i32>(batch)?;
        let s = self.alloc::<T::RealPart>(batch * k)?;
        // Without vectors, one matrix's worth of U and V, reused (gesvdp still wants them).
        let copies = if vectors.is_some() { batch } else { 1 };
        let u = self.alloc::<T>(copies * mm * k)?;
        let v = self.alloc::<T>(copies * nn * k)?;
        let dt = data_type(OP, T::DTYPE)?;
        let rt = data_type(OP, <T::RealPart as cuprite_core::Element>::DTYPE)?;
        let jobz = if vectors.is_some() {
            sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
        } else {
            sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
        };
        let (m64, n64) = (mm as i64, nn as i64);
        let mut perturbation = vec![0f64; batch];
        {
            let sv = solver(self, OP)?;
            let (mut dbytes, mut hbytes) = (0usize, 0usize);
            // SAFETY: reads the sizes of one `mm x nn` problem; writes two sizes.
            call(OP, "cusolverDnXgesvdp_bufferSize", || unsafe {
                sys::cusolverDnXgesvdp_bufferSize(
                    sv.h,
                    sv.params,
                    jobz,
                    1,
                    m64,
                    n64,
                    dt,
                    work.device_ptr() as *const c_void,
                    m64,
                    rt,
                    s.device_ptr() as *const c_void,
                    dt,
                    u.device_ptr() as *const c_void,
                    m64,
                    dt,
                    v.device_ptr() as *const c_void,
                    n64,
                    dt,
                    &mut dbytes,
                    &mut hbytes,
                )
            })?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for (b, h_err) in perturbation.iter_mut().enumerate() {
                let c = if vectors.is_some() { b } else { 0 };
                let pa = at::<T>(work, b * mm * nn) as *mut c_void;
                let ps = at::<T::RealPart>(&s, b * k) as *mut c_void;
                let pu = at::<T>(&u, c * mm * k) as *mut c_void;
                let pv = at::<T>(&v, c * nn * k) as *mut c_void;
                let pi = at::<i32>(&info, b) as *mut i32;
                let (dp, dl, hp, hl) = ws.parts();
                // SAFETY: matrix `b` of `work` (mm x nn, leading dimension mm), its `k`
                // singular values, its `mm x k` U and `nn x k` V (leading dimensions mm and
                // nn) and its info slot are inside the buffers allocated above; the
                // workspaces have the sizes cuSOLVER asked for; `h_err` is one host f64.
                call(OP, "cusolverDnXgesvdp", || unsafe {
                    sys::cusolverDnXgesvdp(
                        sv.h, sv.params, jobz, 1, m64, n64, dt, pa, m64, rt, ps, dt, pu, m64, dt,
                        pv, n64, dt, dp, dl, hp, hl, pi, h_err,
                    )
                })?;
            }
        }
        // The perturbations against gesvd's error bound, matrix by matrix.
        let eps = match T::DTYPE {
            cuprite_core::DType::F32 | cuprite_core::DType::C64 => f32::EPSILON as f64,
            _ => f64::EPSILON,
        };
        let sigma = self.download(&s)?;
        let small = perturbation.iter().enumerate().all(|(b, &h)| {
            let s_max = cuprite_core::Real::to_f64_lossy(sigma[b * k]);
            h.is_finite() && h <= nn as f64 * eps * s_max
        });
        if !small {
            return Ok(None);
        }
        Ok(Some(if vectors.is_some() {
            (s, Some(u), Some(v), info)
        } else {
            (s, None, None, info)
        }))
    }
}
