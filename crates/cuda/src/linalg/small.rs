//! Batched LU, solve, inverse and Cholesky of matrices of order `n <= 32`, each in one
//! launch for the whole batch (the kernels of `kernels/src/small_linalg.cu`: a matrix per
//! segment of a warp, a row per lane, in registers). cuSOLVER's dense routines take one
//! matrix per call, so a batch of 100 000 small matrices would queue 100 000 calls; these
//! kernels take every order up to 32, whatever the batch. The factors keep LAPACK's
//! conventions (1-based pivots, the first row of largest `|re| + |im|`, a zero pivot kept in
//! `U`; `info = k` for the first leading minor of order `k` that is not positive definite),
//! so core reads them exactly as cuSOLVER's.

use super::kernels::fits;
use super::params::{SmallCholeskyArgs, SmallLuArgs, SmallSolveArgs};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::BLOCK;
use cuprite_core::{Error, Inexact, Result};
use cuprite_kernels::small_linalg::{self, width};

/// Whether matrices of order `n` go to the small-matrix kernels.
pub(super) fn small(n: usize) -> bool {
    width(n).is_some()
}

impl Cuda {
    /// The entry `name_W` of the small-matrix program of `T` for order `n`, and the grid
    /// that covers `batch` matrices (a warp takes `32 / W` of them per pass).
    fn small_fn<T: Inexact, P: KernelParams>(
        &self,
        op: &'static str,
        name: &str,
        n: usize,
        batch: usize,
    ) -> Result<(Kernel<'_, P>, u32)> {
        let w = width(n).ok_or_else(|| Error::Backend {
            op,
            msg: format!("{name}: order {n} is outside 1..={}", small_linalg::MAX_N),
        })?;
        let key = format!("small_linalg|{}", cty::<T>());
        let f = self.kernel(&key, &format!("{name}_{w}"), || {
            small_linalg::program(cty::<T>())
        })?;
        let threads = batch.div_ceil(32 / w as usize) * 32;
        Ok((f, self.grid_for(threads, 1)))
    }

    /// `P A = L U` of the `batch` matrices of `a` (`n x n` each): the packed factors and the
    /// 1-based pivots, in new buffers.
    pub(super) fn small_lu<T: Inexact>(
        &self,
        op: &'static str,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        fits(op, "the matrices", a, batch * n * n)?;
        let lu = self.alloc::<T>(batch * n * n)?;
        let ipiv = self.alloc::<i32>(batch * n)?;
        if batch * n == 0 {
            return Ok((lu, ipiv));
        }
        let (f, grid) = self.small_fn::<T, _>(op, "small_lu", n, batch)?;
        let args = SmallLuArgs {
            a: self.ptr(a)?,
            lu: self.ptr(&lu)?,
            ipiv: self.ptr(&ipiv)?,
            n: n as i64,
            batch: batch as i64,
        };
        // `small_lu_W` reads `batch * n * n` elements of `a` (checked above) and writes as
        // many of `lu` and `batch * n` pivots, both allocated above.
        f.launch((grid, 1, 1), (BLOCK, 1, 1), 0, &args)?;
        Ok((lu, ipiv))
    }

    /// `A X = B` for the `batch` factorisations in `lu` and `ipiv` (from [`Cuda::small_lu`]
    /// or cuSOLVER's `getrf`) and the `n x nrhs` right-hand sides of `b`, or of the identity
    /// (`nrhs == n`, the inverse) when `b` is `None`: `X` in a new buffer.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn small_solve<T: Inexact>(
        &self,
        op: &'static str,
        lu: &CudaBuffer<T>,
        ipiv: &CudaBuffer<i32>,
        b: Option<&CudaBuffer<T>>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<CudaBuffer<T>> {
        fits(op, "the factors", lu, batch * n * n)?;
        fits(op, "the pivots", ipiv, batch * n)?;
        if let Some(b) = b {
            fits(op, "the right-hand sides", b, batch * n * nrhs)?;
        } else if nrhs != n {
            return Err(Error::Backend {
                op,
                msg: format!("the inverse of {n} x {n} matrices has {n} columns, not {nrhs}"),
            });
        }
        let x = self.alloc::<T>(batch * n * nrhs)?;
        if batch * n * nrhs == 0 {
            return Ok(x);
        }
        let (f, grid) = self.small_fn::<T, _>(op, "small_solve", n, batch)?;
        let args = SmallSolveArgs {
            lu: self.ptr(lu)?,
            ipiv: self.ptr(ipiv)?,
            b: b.map(|b| self.ptr(b)).transpose()?.unwrap_or(0),
            x: self.ptr(&x)?,
            n: n as i64,
            nrhs: nrhs as i64,
            batch: batch as i64,
        };
        // `small_solve_W` reads `batch * n * n` factors, `batch * n` pivots and, when given,
        // `batch * n * nrhs` elements of `b` (all checked above), and writes as many of `x`,
        // allocated above; pivots out of range are clamped to the matrix.
        f.launch((grid, 1, 1), (BLOCK, 1, 1), 0, &args)?;
        Ok(x)
    }

    /// The Cholesky factors (lower, strict upper triangle zero) of the `batch` matrices of
    /// `a` and their info codes, in new buffers.
    pub(super) fn small_cholesky<T: Inexact>(
        &self,
        op: &'static str,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        fits(op, "the matrices", a, batch * n * n)?;
        let l = self.alloc::<T>(batch * n * n)?;
        let info = self.alloc_zeroed::<i32>(batch)?;
        if batch * n == 0 {
            return Ok((l, info));
        }
        let (f, grid) = self.small_fn::<T, _>(op, "small_cholesky", n, batch)?;
        let args = SmallCholeskyArgs {
            a: self.ptr(a)?,
            l: self.ptr(&l)?,
            info: self.ptr(&info)?,
            n: n as i64,
            batch: batch as i64,
        };
        // `small_cholesky_W` reads `batch * n * n` elements of `a` (checked above) and
        // writes as many of `l` and `batch` info codes, both allocated above.
        f.launch((grid, 1, 1), (BLOCK, 1, 1), 0, &args)?;
        Ok((l, info))
    }
}
