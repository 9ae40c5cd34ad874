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
use crate::ffi::solver::{self, solver, SvdJob, SvdOut, SvdpOut, Workspace};
use cuprite_core::backend::SvdFactors;
use cuprite_core::{Inexact, Result};

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
            None => (SvdJob::None, 0, 0),
            Some(true) => (SvdJob::All, mm, nn),
            Some(false) => (SvdJob::Reduced, k, k),
        };
        let s = self.alloc::<T::RealPart>(batch * k)?;
        let u = self.alloc::<T>(batch * mm * ucols)?;
        let vt = self.alloc::<T>(batch * vrows * nn)?;
        let mn = (mm as i64, nn as i64);
        // Matrix `b`'s singular values, `mm x ucols` U and `vrows x nn` VT (leading
        // dimensions mm and vrows; null when not computed), inside the buffers allocated
        // above.
        let out = |b: usize| SvdOut {
            s: at::<T::RealPart>(&s, b * k),
            u: (!u.is_empty()).then(|| at::<T>(&u, b * mm * ucols)),
            ldu: mm as i64,
            vt: (!vt.is_empty()).then(|| at::<T>(&vt, b * vrows * nn)),
            ldvt: vrows.max(1) as i64,
        };
        {
            let sv = solver(self, OP)?;
            let (dbytes, hbytes) =
                solver::xgesvd_buffer_size::<T>(&sv, OP, job, mn, work.device_ptr(), &out(0))?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for b in 0..batch {
                // Matrix `b` of `work` (mm x nn) and its info slot are inside the buffers
                // allocated above.
                let (pa, pi) = (at::<T>(&work, b * mm * nn), at::<i32>(&info, b));
                solver::xgesvd::<T>(&sv, OP, job, mn, pa, &out(b), &mut ws, pi)?;
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
        let mn = (mm as i64, nn as i64);
        let mut perturbation = vec![0f64; batch];
        {
            let sv = solver(self, OP)?;
            // Matrix `b`'s `k` singular values, its `mm x k` U and `nn x k` V (the one copy
            // when they are not kept), inside the buffers allocated above.
            let out = |b: usize| {
                let c = if vectors.is_some() { b } else { 0 };
                SvdpOut {
                    s: at::<T::RealPart>(&s, b * k),
                    u: at::<T>(&u, c * mm * k),
                    v: at::<T>(&v, c * nn * k),
                }
            };
            let want = vectors.is_some();
            let (dbytes, hbytes) =
                solver::xgesvdp_buffer_size::<T>(&sv, OP, want, mn, work.device_ptr(), &out(0))?;
            let mut ws = Workspace::new(self, dbytes, hbytes)?;
            for (b, h_err) in perturbation.iter_mut().enumerate() {
                // Matrix `b` of `work` (mm x nn) and its info slot are inside the buffers
                // allocated above.
                let (pa, pi) = (at::<T>(work, b * mm * nn), at::<i32>(&info, b));
                *h_err = solver::xgesvdp::<T>(&sv, OP, want, mn, pa, &out(b), &mut ws, pi)?;
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
