//! `cusolverDn<t>syevjBatched`: the eigen-decomposition of a whole batch of Hermitian matrices
//! of order 32 or less in one call (cyclic Jacobi, lower triangle), with its parameters
//! object and its workspace size. `eigh` of small matrices uses it instead of one `Xsyevd`
//! call per matrix.

use super::{call, Solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::{DType, Element, Error, Inexact, Result};

/// The parameters of a Jacobi eigensolver call: cuSOLVER's defaults (tolerance at machine
/// accuracy, 100 sweeps) with the eigenvalues sorted ascending, as `syevd` gives them.
/// Destroyed on drop.
pub(crate) struct JacobiParams(sys::syevjInfo_t);

impl JacobiParams {
    pub(crate) fn new(op: &'static str) -> Result<JacobiParams> {
        let mut p: sys::syevjInfo_t = std::ptr::null_mut();
        // SAFETY: writes one parameters object.
        call(op, "cusolverDnCreateSyevjInfo", || unsafe {
            sys::cusolverDnCreateSyevjInfo(&mut p)
        })?;
        let params = JacobiParams(p);
        // SAFETY: `p` was just created.
        call(op, "cusolverDnXsyevjSetSortEig", || unsafe {
            sys::cusolverDnXsyevjSetSortEig(params.0, 1)
        })?;
        Ok(params)
    }
}

impl Drop for JacobiParams {
    fn drop(&mut self) {
        // SAFETY: created by `new`, destroyed once; calls queued with it have already read
        // it (cuSOLVER copies the parameters when it queues the call).
        unsafe {
            sys::cusolverDnDestroySyevjInfo(self.0);
        }
    }
}

/// cuSOLVER's eigenvector mode and the lower triangle.
fn modes(vectors: bool) -> (sys::cusolverEigMode_t, sys::cublasFillMode_t) {
    let jobz = if vectors {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    };
    (jobz, sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER)
}

/// Calls the `S`/`D`/`C`/`Z` symbol of a Jacobi routine for `T`, with the matrix pointer cast
/// to that symbol's element type and the eigenvalue pointer to its real type.
macro_rules! jacobi_call {
    ($op:expr, $t:ty, [$s:ident, $d:ident, $c:ident, $z:ident], |$E:ident, $Re:ident| $args:tt) => {
        match <$t as Element>::DTYPE {
            DType::F32 => jacobi_call!(@one $op, $E = f32, $Re = f32, $s, $args),
            DType::F64 => jacobi_call!(@one $op, $E = f64, $Re = f64, $d, $args),
            DType::C64 => jacobi_call!(@one $op, $E = sys::cuComplex, $Re = f32, $c, $args),
            DType::C128 => {
                jacobi_call!(@one $op, $E = sys::cuDoubleComplex, $Re = f64, $z, $args)
            }
            dtype => Err(Error::UnsupportedDType { op: $op, dtype }),
        }
    };
    (@one $op:expr, $E:ident = $ty:ty, $Re:ident = $rt:ty, $f:ident, ($($arg:expr),* $(,)?)) => {{
        type $E = $ty;
        type $Re = $rt;
        // SAFETY: the contract is stated where the macro is used; `E` and `Re` are the
        // symbol's element and real types, which are `T`'s and its real part's.
        call($op, stringify!($f), || unsafe { sys::$f($($arg),*) })
    }};
}

/// `<t>syevjBatched_bufferSize`: the workspace, in elements of `T`, of [`syevj_batched`] on
/// `batch` matrices of order `n`.
///
/// # Caller's check
/// `a` and `w` are device addresses of `T` and of its real type (cuSOLVER reads only the
/// sizes).
#[allow(clippy::too_many_arguments)]
pub(crate) fn syevj_batched_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    n: i32,
    a: u64,
    w: u64,
    params: &JacobiParams,
    batch: i32,
) -> Result<i32> {
    let (jobz, uplo) = modes(vectors);
    let mut lwork = 0i32;
    // SAFETY: reads the sizes of `batch` problems of order `n`; writes one int that outlives
    // the call.
    jacobi_call!(
        op,
        T,
        [
            cusolverDnSsyevjBatched_bufferSize,
            cusolverDnDsyevjBatched_bufferSize,
            cusolverDnCheevjBatched_bufferSize,
            cusolverDnZheevjBatched_bufferSize
        ],
        |E, Re| (
            s.h,
            jobz,
            uplo,
            n,
            a as *const E,
            n,
            w as *const Re,
            &mut lwork,
            params.0,
            batch
        )
    )?;
    Ok(lwork)
}

/// `<t>syevjBatched` / `<t>heevjBatched`: the eigenvalues (ascending) of the `batch`
/// Hermitian matrices of order `n` at `a` (lower triangles, stored one after the other) at
/// `w`, and their eigenvectors over the matrices when `vectors` is set; one info code per
/// matrix at `info` (`n + 1`: no convergence).
///
/// # Caller's check
/// `a` holds `batch * n * n` elements of `T`, `w` `batch * n` of its real type and `info`
/// `batch` `i32`s, on the solver's device; `ws` holds the elements
/// [`syevj_batched_buffer_size`] asked for; `n <= 32`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn syevj_batched<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    n: i32,
    a: u64,
    w: u64,
    ws: &Workspace,
    info: u64,
    params: &JacobiParams,
    batch: i32,
) -> Result<()> {
    let (jobz, uplo) = modes(vectors);
    let (work, lwork) = (ws.dptr(), ws.lwork::<T>());
    // SAFETY: the matrices, eigenvalues and info codes are the caller's checked memory; the
    // workspace holds what cuSOLVER asked for.
    jacobi_call!(
        op,
        T,
        [
            cusolverDnSsyevjBatched,
            cusolverDnDsyevjBatched,
            cusolverDnCheevjBatched,
            cusolverDnZheevjBatched
        ],
        |E, Re| (
            s.h,
            jobz,
            uplo,
            n,
            a as *mut E,
            n,
            w as *mut Re,
            work as *mut E,
            lwork,
            info as *mut i32,
            params.0,
            batch
        )
    )
}
