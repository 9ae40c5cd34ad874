//! [`LinalgOps`] for [`Cuda`]: the dense decompositions of `linalg` with cuSOLVER, on batches
//! of column-major matrices (the contract of [`LinalgOps`]), with the semantics of the CPU
//! backend.
//!
//! | primitive | cuSOLVER | after it |
//! | --- | --- | --- |
//! | `lu_factor` | `<t>getrf` | - |
//! | `lu_solve` | `<t>getrs` | - |
//! | `cholesky` | `Xpotrf` (lower) | strict upper triangle zeroed |
//! | `qr` | `Xgeqrf`, `<t>orgqr` / `<t>ungqr` | `R` cut to its triangle |
//! | `svd` | `Xgesvdp` (polar + syevd), `Xgesvd` when it would lose accuracy | conjugate transposes for wide matrices |
//! | `eigh` | `Xsyevd` (lower) | - |
//! | `eig` | `Xgeev` | eigenvectors made complex and normalised |
//!
//! Matrices of order 32 or less skip cuSOLVER for `lu_factor`, `lu_solve`, `lu_inverse` and
//! `cholesky`: the whole batch is one launch of a kernel of `kernels/src/small_linalg.cu`
//! ([`small`]). Otherwise each matrix of a batch is one call queued on the device's stream
//! (pointer offsets into one buffer, one workspace from the memory pool reused by every
//! call), so nothing waits for the device: the per-matrix `info` codes stay in a device
//! buffer for core to read. The inputs are copied first (cuSOLVER works in place) and never
//! modified. The steps around the library calls are the kernels of `kernels/src/linalg.cu`
//! ([`kernels`]).

mod eig;
mod kernels;
mod lu;
pub(crate) mod params;
mod qr;
mod small;
mod svd;
#[cfg(test)]
mod tests_gpu;
#[cfg(test)]
mod tests_small_gpu;

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use cuprite_core::backend::{EigFactors, EighFactors, LinalgOps, SvdFactors};
use cuprite_core::{Element, Error, Inexact, Result};

/// The device address of element `idx` of `b`.
fn at<T: Element>(b: &CudaBuffer<T>, idx: usize) -> u64 {
    b.device_ptr() + (idx * std::mem::size_of::<T>()) as u64
}

/// A new buffer holding the first `len` elements of `a` (an error naming `op` when `a` is
/// shorter).
fn copy_of<T: Element>(
    dev: &Cuda,
    op: &'static str,
    a: &CudaBuffer<T>,
    len: usize,
) -> Result<CudaBuffer<T>> {
    if a.len() < len {
        return Err(Error::Backend {
            op,
            msg: format!("a buffer of {} elements where {len} are needed", a.len()),
        });
    }
    let out = dev.alloc::<T>(len)?;
    if len > 0 {
        dev.copy_elems(&out, 0, a, 0, len)?;
    }
    Ok(out)
}

impl LinalgOps for Cuda {
    fn lu_factor<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        self.check_buffer(a, "lu_factor")?;
        self.lu_factor_imp(a, batch, n)
    }

    fn lu_solve<T: Inexact>(
        &self,
        lu: &CudaBuffer<T>,
        ipiv: &CudaBuffer<i32>,
        b: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<CudaBuffer<T>> {
        self.check_buffer(lu, "lu_solve")?;
        self.check_buffer(ipiv, "lu_solve")?;
        self.check_buffer(b, "lu_solve")?;
        self.lu_solve_imp(lu, ipiv, b, batch, n, nrhs)
    }

    fn lu_inverse<T: Inexact>(
        &self,
        lu: &CudaBuffer<T>,
        ipiv: &CudaBuffer<i32>,
        batch: usize,
        n: usize,
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "inv";
        self.check_buffer(lu, OP)?;
        self.check_buffer(ipiv, OP)?;
        if small::small(n) {
            return self.small_solve(OP, lu, ipiv, None, batch, n, n);
        }
        let eye = self.identities::<T>(n, n, batch)?;
        self.lu_solve_imp(lu, ipiv, &eye, batch, n, n)
    }

    fn cholesky<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<i32>)> {
        self.check_buffer(a, "cholesky")?;
        self.cholesky_imp(a, batch, n)
    }

    fn qr<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        complete: bool,
    ) -> Result<(CudaBuffer<T>, CudaBuffer<T>)> {
        self.check_buffer(a, "qr")?;
        self.qr_imp(a, batch, m, n, complete)
    }

    fn svd<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
    ) -> Result<SvdFactors<Cuda, T>> {
        self.check_buffer(a, "svd")?;
        self.svd_imp(a, batch, m, n, vectors)
    }

    fn eigh<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EighFactors<Cuda, T>> {
        self.check_buffer(a, "eigh")?;
        self.eigh_imp(a, batch, n, vectors)
    }

    fn eig<T: Inexact>(
        &self,
        a: &CudaBuffer<T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EigFactors<Cuda, T>> {
        self.check_buffer(a, "eig")?;
        self.eig_imp(a, batch, n, vectors)
    }
}
