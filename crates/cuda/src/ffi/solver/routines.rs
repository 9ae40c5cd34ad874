//! The cuSOLVER routines the crate calls, one thin wrapper each, in two families:
//!
//! - the legacy API (`cusolverDn<t>getrf`, `<t>getrs`, `<t>orgqr` / `<t>ungqr` and their
//!   buffer sizes): 32-bit `int` sizes, one symbol per element type (`S`, `D`, `C`, `Z`),
//!   workspaces counted in elements. Each wrapper is generic over the element type and
//!   calls its symbol (`typed_call!`).
//! - the generic API (`cusolverDnXpotrf`, `Xgeqrf`, `Xgesvd`, `Xgesvdp`, `Xsyevd`, `Xgeev`):
//!   64-bit sizes, one symbol for every element type (passed as cuSOLVER's data type),
//!   workspaces in bytes on the device and on the host, through the handle's parameters
//!   object.
//!
//! A routine that needs a workspace has two wrappers: `<routine>_buffer_size`, which returns
//! the workspace one call needs (elements of the legacy API; device and host bytes of the
//! generic one), and `<routine>`, which queues one call with a [`Workspace`] of that size.

use super::{call, data_type, Solver, Workspace};
use cudarc::cusolver::sys;
use cuprite_core::{DType, Element, Error, Inexact, Result};
use std::ffi::c_void;

/// Calls the `S`/`D`/`C`/`Z` symbol of a routine of the 32-bit API for the element type `T`
/// through [`call`], with `E` naming that symbol's element type (`f32`, `f64`, `cuComplex`,
/// `cuDoubleComplex`) for the pointer casts of the arguments. An element type without a
/// symbol is [`Error::UnsupportedDType`] of `op`. Each use states its call's contract.
macro_rules! typed_call {
    ($op:expr, $t:ty, $E:ident, [$s:ident, $d:ident, $c:ident, $z:ident], $args:tt) => {
        match <$t as Element>::DTYPE {
            DType::F32 => typed_call!(@one $op, $E = f32, $s, $args),
            DType::F64 => typed_call!(@one $op, $E = f64, $d, $args),
            DType::C64 => typed_call!(@one $op, $E = sys::cuComplex, $c, $args),
            DType::C128 => typed_call!(@one $op, $E = sys::cuDoubleComplex, $z, $args),
            dtype => Err(Error::UnsupportedDType { op: $op, dtype }),
        }
    };
    (@one $op:expr, $E:ident = $ty:ty, $f:ident, ($($arg:expr),* $(,)?)) => {{
        type $E = $ty;
        // SAFETY: the contract is stated where the macro is used; `E` is the element type
        // of the symbol, which is `T`'s (the complex types share cuSOLVER's layout).
        call($op, stringify!($f), || unsafe { sys::$f($($arg),*) })
    }};
}

/// `<t>getrf_bufferSize`: the workspace, in elements of `T`, of [`getrf`] on an `n x n`
/// matrix.
///
/// # Caller's check
/// `a` is the device address of an `n x n` matrix of `T` (cuSOLVER reads only its type).
pub(crate) fn getrf_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i32,
    a: u64,
) -> Result<i32> {
    let mut lwork = 0i32;
    // SAFETY: reads only the sizes (and the pointer's type) of one `n x n` matrix; writes
    // one int, `lwork`, which outlives the call.
    typed_call!(
        op,
        T,
        E,
        [
            cusolverDnSgetrf_bufferSize,
            cusolverDnDgetrf_bufferSize,
            cusolverDnCgetrf_bufferSize,
            cusolverDnZgetrf_bufferSize
        ],
        (s.h, n, n, a as *mut E, n, &mut lwork)
    )?;
    Ok(lwork)
}

/// `<t>getrf`: LU with partial pivoting of the `n x n` matrix at `a`, in place; its `n`
/// 1-based pivots at `ipiv`, its info code at `info`.
///
/// # Caller's check
/// `a` holds `n x n` elements of `T`, `ipiv` `n` `i32`s and `info` one `i32`, all on the
/// solver's device; `ws` holds at least the elements [`getrf_buffer_size`] asked for.
pub(crate) fn getrf<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i32,
    a: u64,
    ws: &Workspace,
    ipiv: u64,
    info: u64,
) -> Result<()> {
    let w = ws.dptr();
    // SAFETY: the matrix (leading dimension n), the pivots and the info slot are the
    // caller's checked memory; the workspace holds what cuSOLVER asked for.
    typed_call!(
        op,
        T,
        E,
        [
            cusolverDnSgetrf,
            cusolverDnDgetrf,
            cusolverDnCgetrf,
            cusolverDnZgetrf
        ],
        (
            s.h,
            n,
            n,
            a as *mut E,
            n,
            w as *mut E,
            ipiv as *mut i32,
            info as *mut i32
        )
    )
}

/// `<t>getrs` (no transpose): solves `A X = B` in place of the `n x nrhs` right-hand sides at
/// `b`, from the factors at `a` and pivots at `ipiv` that [`getrf`] wrote; the info code at
/// `info`.
///
/// # Caller's check
/// `a` holds `n x n` elements of `T`, `ipiv` `n` `i32`s, `b` `n x nrhs` elements of `T` and
/// `info` one `i32`, all on the solver's device.
#[allow(clippy::too_many_arguments)]
pub(crate) fn getrs<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i32,
    nrhs: i32,
    a: u64,
    ipiv: u64,
    b: u64,
    info: u64,
) -> Result<()> {
    let op_n = sys::cublasOperation_t::CUBLAS_OP_N;
    // SAFETY: the factors, pivots, right-hand sides (leading dimension n) and info slot are
    // the caller's checked memory.
    typed_call!(
        op,
        T,
        E,
        [
            cusolverDnSgetrs,
            cusolverDnDgetrs,
            cusolverDnCgetrs,
            cusolverDnZgetrs
        ],
        (
            s.h,
            op_n,
            n,
            nrhs,
            a as *const E,
            n,
            ipiv as *const i32,
            b as *mut E,
            n,
            info as *mut i32
        )
    )
}

/// `<t>orgqr_bufferSize` (real) or `<t>ungqr_bufferSize` (complex): the workspace, in
/// elements of `T`, of [`orgqr`] on an `m x n` matrix with `k` reflectors.
///
/// # Caller's check
/// `a` and `tau` are device addresses of `T` (cuSOLVER reads only their type).
pub(crate) fn orgqr_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    (m, n, k): (i32, i32, i32),
    a: u64,
    tau: u64,
) -> Result<i32> {
    let mut lwork = 0i32;
    // SAFETY: reads only the sizes (and the pointers' type) of one `m x n` problem; writes
    // one int, `lwork`, which outlives the call.
    typed_call!(
        op,
        T,
        E,
        [
            cusolverDnSorgqr_bufferSize,
            cusolverDnDorgqr_bufferSize,
            cusolverDnCungqr_bufferSize,
            cusolverDnZungqr_bufferSize
        ],
        (s.h, m, n, k, a as *const E, m, tau as *const E, &mut lwork)
    )?;
    Ok(lwork)
}

/// `<t>orgqr` (real) or `<t>ungqr` (complex): the `m x n` matrix `Q` at `a`, in place, from
/// the `k` reflectors stored in its first columns and their scalars at `tau`; the info code
/// at `info`. The whole device workspace is passed as `lwork`.
///
/// # Caller's check
/// `a` holds `m x n` elements of `T`, `tau` `k` elements of `T` and `info` one `i32`, all on
/// the solver's device; `ws` holds at least the elements [`orgqr_buffer_size`] asked for.
pub(crate) fn orgqr<T: Inexact>(
    s: &Solver,
    op: &'static str,
    (m, n, k): (i32, i32, i32),
    a: u64,
    tau: u64,
    ws: &Workspace,
    info: u64,
) -> Result<()> {
    let (w, lw) = (ws.dptr(), ws.lwork::<T>());
    // SAFETY: the matrix (leading dimension m), the scalars and the info slot are the
    // caller's checked memory; the workspace holds `lw` elements, at least what cuSOLVER
    // asked for.
    typed_call!(
        op,
        T,
        E,
        [
            cusolverDnSorgqr,
            cusolverDnDorgqr,
            cusolverDnCungqr,
            cusolverDnZungqr
        ],
        (
            s.h,
            m,
            n,
            k,
            a as *mut E,
            m,
            tau as *const E,
            w as *mut E,
            lw,
            info as *mut i32
        )
    )
}

/// A device address as a pointer argument.
fn ptr(p: u64) -> *mut c_void {
    p as *mut c_void
}

/// A device address, or the null pointer for an output that is not computed.
fn ptr_or_null(p: Option<u64>) -> *mut c_void {
    p.map_or(std::ptr::null_mut(), ptr)
}

/// cuSOLVER's eigenvector mode: vectors computed or not.
fn eig_mode(vectors: bool) -> sys::cusolverEigMode_t {
    if vectors {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        sys::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    }
}

/// The data types of `T` and of its real part.
fn data_types<T: Inexact>(op: &'static str) -> Result<(sys::cudaDataType, sys::cudaDataType)> {
    Ok((
        data_type(op, T::DTYPE)?,
        data_type(op, <T::RealPart as Element>::DTYPE)?,
    ))
}

/// The lower triangle, which `potrf` and `syevd` read.
const LOWER: sys::cublasFillMode_t = sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER;

/// `cusolverDnXpotrf_bufferSize` (lower triangle): the workspace bytes of [`xpotrf`] on an
/// `n x n` matrix of `T`.
///
/// # Caller's check
/// `a` is a device address of `T` (cuSOLVER reads only the sizes).
pub(crate) fn xpotrf_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i64,
    a: u64,
) -> Result<(usize, usize)> {
    let (dt, pa) = (data_type(op, T::DTYPE)?, ptr(a));
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `n x n` matrix; writes two sizes that outlive the call.
    call(op, "cusolverDnXpotrf_bufferSize", || unsafe {
        sys::cusolverDnXpotrf_bufferSize(s.h, s.params, LOWER, n, dt, pa, n, dt, db, hb)
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXpotrf`: the Cholesky factor `L` of the `n x n` matrix at `a`, from and into
/// its lower triangle (the strict upper one is left as it was); the info code at `info`.
///
/// # Caller's check
/// `a` holds `n x n` elements of `T` and `info` one `i32`, on the solver's device; `ws` has
/// the sizes [`xpotrf_buffer_size`] asked for.
pub(crate) fn xpotrf<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i64,
    a: u64,
    ws: &mut Workspace,
    info: u64,
) -> Result<()> {
    let (dt, pa, pi) = (data_type(op, T::DTYPE)?, ptr(a), info as *mut i32);
    let (dp, dl, hp, hl) = ws.parts();
    // SAFETY: the matrix (leading dimension n) and the info slot are the caller's checked
    // memory; the workspaces have the sizes cuSOLVER asked for.
    call(op, "cusolverDnXpotrf", || unsafe {
        sys::cusolverDnXpotrf(s.h, s.params, LOWER, n, dt, pa, n, dt, dp, dl, hp, hl, pi)
    })
}

/// `cusolverDnXgeqrf_bufferSize`: the workspace bytes of [`xgeqrf`] on an `m x n` matrix of
/// `T`.
///
/// # Caller's check
/// `a` and `tau` are device addresses of `T` (cuSOLVER reads only the sizes).
pub(crate) fn xgeqrf_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    (m, n): (i64, i64),
    a: u64,
    tau: u64,
) -> Result<(usize, usize)> {
    let (dt, pa, pt) = (data_type(op, T::DTYPE)?, ptr(a), ptr(tau));
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `m x n` matrix; writes two sizes that outlive the call.
    call(op, "cusolverDnXgeqrf_bufferSize", || unsafe {
        sys::cusolverDnXgeqrf_bufferSize(s.h, s.params, m, n, dt, pa, m, dt, pt, dt, db, hb)
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXgeqrf`: Householder QR of the `m x n` matrix at `a`, in place (`R` on and
/// above the diagonal, the reflectors below), their `min(m, n)` scalars at `tau`; the info
/// code at `info`.
///
/// # Caller's check
/// `a` holds `m x n` elements of `T`, `tau` `min(m, n)` of them and `info` one `i32`, on the
/// solver's device; `ws` has the sizes [`xgeqrf_buffer_size`] asked for.
pub(crate) fn xgeqrf<T: Inexact>(
    s: &Solver,
    op: &'static str,
    (m, n): (i64, i64),
    a: u64,
    tau: u64,
    ws: &mut Workspace,
    info: u64,
) -> Result<()> {
    let (dt, pa, pt, pi) = (data_type(op, T::DTYPE)?, ptr(a), ptr(tau), info as *mut i32);
    let (dp, dl, hp, hl) = ws.parts();
    // SAFETY: the matrix (leading dimension m), its scalars and the info slot are the
    // caller's checked memory; the workspaces have the sizes cuSOLVER asked for.
    call(op, "cusolverDnXgeqrf", || unsafe {
        sys::cusolverDnXgeqrf(
            s.h, s.params, m, n, dt, pa, m, dt, pt, dt, dp, dl, hp, hl, pi,
        )
    })
}

/// Which singular vectors `gesvd` computes, of `U` and `VT` alike (LAPACK's `jobu` and
/// `jobvt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SvdJob {
    /// None (`'N'`).
    None,
    /// All of them (`'A'`): `U` is `m x m`, `VT` is `n x n`.
    All,
    /// The first `min(m, n)` (`'S'`).
    Reduced,
}

impl SvdJob {
    fn code(self) -> std::ffi::c_schar {
        (match self {
            SvdJob::None => b'N',
            SvdJob::All => b'A',
            SvdJob::Reduced => b'S',
        }) as std::ffi::c_schar
    }
}

/// The outputs of one `gesvd`: the device addresses of the singular values (of `T`'s real
/// type), `U` and `VT` (`None` when not computed: null), and the leading dimensions of `U`
/// and `VT`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SvdOut {
    pub s: u64,
    pub u: Option<u64>,
    pub ldu: i64,
    pub vt: Option<u64>,
    pub ldvt: i64,
}

impl SvdOut {
    fn ptrs(&self) -> (*mut c_void, *mut c_void, *mut c_void) {
        (ptr(self.s), ptr_or_null(self.u), ptr_or_null(self.vt))
    }
}

/// `cusolverDnXgesvd_bufferSize`: the workspace bytes of [`xgesvd`] on an `m x n` matrix of
/// `T`.
///
/// # Caller's check
/// The addresses are device addresses of the types [`xgesvd`] takes (cuSOLVER reads only
/// the sizes).
pub(crate) fn xgesvd_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    job: SvdJob,
    (m, n): (i64, i64),
    a: u64,
    out: &SvdOut,
) -> Result<(usize, usize)> {
    let ((dt, rt), j, pa) = (data_types::<T>(op)?, job.code(), ptr(a));
    let ((ps, pu, pv), ldu, ldv) = (out.ptrs(), out.ldu, out.ldvt);
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `m x n` problem; writes two sizes that outlive the call.
    call(op, "cusolverDnXgesvd_bufferSize", || unsafe {
        sys::cusolverDnXgesvd_bufferSize(
            s.h, s.params, j, j, m, n, dt, pa, m, rt, ps, dt, pu, ldu, dt, pv, ldv, dt, db, hb,
        )
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXgesvd` (LAPACK's QR iteration) of the `m x n` matrix at `a` (`m >= n`;
/// destroyed): the `n` singular values, and `U` and `VT` as `job` asks; the info code at
/// `info`.
///
/// # Caller's check
/// `a` holds `m x n` elements of `T`, `out.s` `n` elements of its real type, `out.u` and
/// `out.vt` the factors `job` asks for with their leading dimensions, and `info` one `i32`,
/// on the solver's device; `ws` has the sizes [`xgesvd_buffer_size`] asked for.
#[allow(clippy::too_many_arguments)]
pub(crate) fn xgesvd<T: Inexact>(
    s: &Solver,
    op: &'static str,
    job: SvdJob,
    (m, n): (i64, i64),
    a: u64,
    out: &SvdOut,
    ws: &mut Workspace,
    info: u64,
) -> Result<()> {
    let ((dt, rt), j, pa, pi) = (data_types::<T>(op)?, job.code(), ptr(a), info as *mut i32);
    let ((ps, pu, pv), ldu, ldv) = (out.ptrs(), out.ldu, out.ldvt);
    let (dp, dl, hp, hl) = ws.parts();
    // SAFETY: the matrix (leading dimension m), the singular values, the factors asked for
    // (null when not computed) and the info slot are the caller's checked memory; the
    // workspaces have the sizes cuSOLVER asked for.
    call(op, "cusolverDnXgesvd", || unsafe {
        sys::cusolverDnXgesvd(
            s.h, s.params, j, j, m, n, dt, pa, m, rt, ps, dt, pu, ldu, dt, pv, ldv, dt, dp, dl, hp,
            hl, pi,
        )
    })
}

/// The outputs of one `gesvdp` (economy size): the device addresses of the `n` singular
/// values (of `T`'s real type), of `U` (`m x n`, leading dimension `m`) and of `V` (`n x n`,
/// leading dimension `n`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SvdpOut {
    pub s: u64,
    pub u: u64,
    pub v: u64,
}

impl SvdpOut {
    fn ptrs(&self) -> (*mut c_void, *mut c_void, *mut c_void) {
        (ptr(self.s), ptr(self.u), ptr(self.v))
    }
}

/// `cusolverDnXgesvdp_bufferSize` (economy size): the workspace bytes of [`xgesvdp`] on an
/// `m x n` matrix of `T`.
///
/// # Caller's check
/// The addresses are device addresses of the types [`xgesvdp`] takes (cuSOLVER reads only
/// the sizes).
pub(crate) fn xgesvdp_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    (m, n): (i64, i64),
    a: u64,
    out: &SvdpOut,
) -> Result<(usize, usize)> {
    let ((dt, rt), jobz, pa) = (data_types::<T>(op)?, eig_mode(vectors), ptr(a));
    let (ps, pu, pv) = out.ptrs();
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `m x n` problem; writes two sizes that outlive the call.
    call(op, "cusolverDnXgesvdp_bufferSize", || unsafe {
        sys::cusolverDnXgesvdp_bufferSize(
            s.h, s.params, jobz, 1, m, n, dt, pa, m, rt, ps, dt, pu, m, dt, pv, n, dt, db, hb,
        )
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXgesvdp` (economy size) of the `m x n` matrix at `a` (`m >= n`; destroyed):
/// the singular values, and `U` and `V` when `vectors` is set (used as scratch otherwise);
/// the info code at `info`. Returns `h_err_sigma`, the size of the perturbation that the
/// polar decomposition added.
///
/// # Caller's check
/// `a` holds `m x n` elements of `T`, `out` the values and factors [`SvdpOut`] describes and
/// `info` one `i32`, on the solver's device; `ws` has the sizes [`xgesvdp_buffer_size`]
/// asked for.
#[allow(clippy::too_many_arguments)]
pub(crate) fn xgesvdp<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    (m, n): (i64, i64),
    a: u64,
    out: &SvdpOut,
    ws: &mut Workspace,
    info: u64,
) -> Result<f64> {
    let ((dt, rt), jobz, pa) = (data_types::<T>(op)?, eig_mode(vectors), ptr(a));
    let ((ps, pu, pv), pi) = (out.ptrs(), info as *mut i32);
    let (dp, dl, hp, hl) = ws.parts();
    let mut h_err_sigma = 0f64;
    let he = &mut h_err_sigma;
    // SAFETY: the matrix (leading dimension m), the singular values, `U` and `V` (leading
    // dimensions m and n) and the info slot are the caller's checked memory; the workspaces
    // have the sizes cuSOLVER asked for; `he` is one host f64 that outlives the call.
    call(op, "cusolverDnXgesvdp", || unsafe {
        sys::cusolverDnXgesvdp(
            s.h, s.params, jobz, 1, m, n, dt, pa, m, rt, ps, dt, pu, m, dt, pv, n, dt, dp, dl, hp,
            hl, pi, he,
        )
    })?;
    Ok(h_err_sigma)
}

/// `cusolverDnXsyevd_bufferSize` (lower triangle): the workspace bytes of [`xsyevd`] on an
/// `n x n` matrix of `T`.
///
/// # Caller's check
/// `a` is a device address of `T` and `w` one of its real type (cuSOLVER reads only the
/// sizes).
pub(crate) fn xsyevd_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    n: i64,
    a: u64,
    w: u64,
) -> Result<(usize, usize)> {
    let ((dt, rt), jobz, pa, pw) = (data_types::<T>(op)?, eig_mode(vectors), ptr(a), ptr(w));
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `n x n` problem; writes two sizes that outlive the call.
    call(op, "cusolverDnXsyevd_bufferSize", || unsafe {
        sys::cusolverDnXsyevd_bufferSize(
            s.h, s.params, jobz, LOWER, n, dt, pa, n, rt, pw, dt, db, hb,
        )
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXsyevd` (divide and conquer, lower triangle; `heevd` for complex types) of the
/// Hermitian `n x n` matrix at `a`: the eigenvalues, ascending, at `w`, and the eigenvectors
/// over the matrix when `vectors` is set; the info code at `info`.
///
/// # Caller's check
/// `a` holds `n x n` elements of `T`, `w` `n` elements of its real type and `info` one
/// `i32`, on the solver's device; `ws` has the sizes [`xsyevd_buffer_size`] asked for.
#[allow(clippy::too_many_arguments)]
pub(crate) fn xsyevd<T: Inexact>(
    s: &Solver,
    op: &'static str,
    vectors: bool,
    n: i64,
    a: u64,
    w: u64,
    ws: &mut Workspace,
    info: u64,
) -> Result<()> {
    let ((dt, rt), jobz, pa, pw) = (data_types::<T>(op)?, eig_mode(vectors), ptr(a), ptr(w));
    let pi = info as *mut i32;
    let (dp, dl, hp, hl) = ws.parts();
    // SAFETY: the matrix (leading dimension n), the eigenvalues and the info slot are the
    // caller's checked memory; the workspaces have the sizes cuSOLVER asked for.
    call(op, "cusolverDnXsyevd", || unsafe {
        sys::cusolverDnXsyevd(
            s.h, s.params, jobz, LOWER, n, dt, pa, n, rt, pw, dt, dp, dl, hp, hl, pi,
        )
    })
}

/// `cusolverDnXgeev_bufferSize` (right eigenvectors only): the workspace bytes of [`xgeev`]
/// on an `n x n` matrix of `T`.
///
/// # Caller's check
/// The addresses are device addresses of `T` (cuSOLVER reads only the sizes); `v` is `None`
/// when the eigenvectors are not computed.
pub(crate) fn xgeev_buffer_size<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i64,
    a: u64,
    w: u64,
    v: Option<u64>,
) -> Result<(usize, usize)> {
    let (dt, pa, pw, pr) = (data_type(op, T::DTYPE)?, ptr(a), ptr(w), ptr_or_null(v));
    // No left eigenvectors; the right ones when `v` is given.
    let (jl, jr, pl) = (eig_mode(false), eig_mode(v.is_some()), std::ptr::null_mut());
    let (mut dbytes, mut hbytes) = (0usize, 0usize);
    let (db, hb) = (&mut dbytes, &mut hbytes);
    // SAFETY: reads the sizes of one `n x n` problem; writes two sizes that outlive the call.
    call(op, "cusolverDnXgeev_bufferSize", || unsafe {
        sys::cusolverDnXgeev_bufferSize(
            s.h, s.params, jl, jr, n, dt, pa, n, dt, pw, dt, pl, 1, dt, pr, n, dt, db, hb,
        )
    })?;
    Ok((dbytes, hbytes))
}

/// `cusolverDnXgeev` (CUDA 12.6 or newer) of the general `n x n` matrix at `a` (destroyed):
/// the eigenvalues at `w` and, unless `v` is `None`, the right eigenvectors at `v`; the info
/// code at `info`. Every data type is `T`'s: for a real `T`, `w` receives `n` real parts
/// then `n` imaginary parts and `v` LAPACK's packed real eigenvectors.
///
/// # Caller's check
/// `a` holds `n x n` elements of `T`, `w` `2n` of them for a real `T` or `n` for a complex
/// one, `v` (if any) `n x n` of them and `info` one `i32`, on the solver's device; `ws` has
/// the sizes [`xgeev_buffer_size`] asked for.
#[allow(clippy::too_many_arguments)]
pub(crate) fn xgeev<T: Inexact>(
    s: &Solver,
    op: &'static str,
    n: i64,
    a: u64,
    w: u64,
    v: Option<u64>,
    ws: &mut Workspace,
    info: u64,
) -> Result<()> {
    let (dt, pa, pw, pr) = (data_type(op, T::DTYPE)?, ptr(a), ptr(w), ptr_or_null(v));
    // No left eigenvectors; the right ones when `v` is given.
    let (jl, jr, pl) = (eig_mode(false), eig_mode(v.is_some()), std::ptr::null_mut());
    let pi = info as *mut i32;
    let (dp, dl, hp, hl) = ws.parts();
    // SAFETY: the matrix (leading dimension n), the eigenvalues, the right eigenvectors
    // (leading dimension n; null when not computed) and the info slot are the caller's
    // checked memory, of the data type passed for each; the left eigenvectors are not
    // computed (null, leading dimension 1); the workspaces have the sizes cuSOLVER asked for.
    call(op, "cusolverDnXgeev", || unsafe {
        sys::cusolverDnXgeev(
            s.h, s.params, jl, jr, n, dt, pa, n, dt, pw, dt, pl, 1, dt, pr, n, dt, dp, dl, hp, hl,
            pi,
        )
    })
}
