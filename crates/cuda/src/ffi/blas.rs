//! cuBLAS for the f16, bf16, f32, f64, c64 and c128 products: one handle per device, created on first
//! use with the device's context current, bound to the device's stream and in the default
//! math mode (full precision: no TF32, no emulation) unless the device allows TF32 for f32
//! and c64 products ([`Cuda::set_tf32`]), kept for the life of the
//! process in the device's table of library handles. Calls go through `cublas?gemm_v2` and
//! `cublas?gemmStridedBatched` (for the 16-bit floats `cublasGemmEx`/
//! `cublasGemmStridedBatchedEx` with f32 compute, bf16 through cuBLASLt in
//! [`super::blaslt`] first), or their 64-bit-integer twins (`_64`) when a size or
//! leading dimension does not fit in an `int`, so nothing is ever narrowed. [`scal`] (`cublas?scal`)
//! scales the results of Fourier transforms in place.
//! Every raw cuBLAS call of the crate is in this file.

use crate::device::Cuda;
use crate::matmul::Trans;
use cudarc::cublas::sys;
use cuprite_core::{DType, Error, Result};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Key of the cuBLAS handle in the device's table of library handles.
const KEY: &str = "cublas";

/// A cuBLAS handle of one device.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handle(sys::cublasHandle_t);

fn backend_err(msg: String) -> Error {
    Error::Backend { op: "matmul", msg }
}

/// The error of a failed cuBLAS call, with the status name (`CUBLAS_STATUS_INVALID_VALUE`).
fn status_err(call: &str, status: sys::cublasStatus_t) -> Error {
    backend_err(format!("{call} failed: {status:?}"))
}

/// Runs a raw cuBLAS call, turning a failed symbol lookup (cudarc panics when the loaded
/// libcublas lacks a function) and a non-success status into errors.
fn call(name: &str, f: impl FnOnce() -> sys::cublasStatus_t) -> Result<()> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS) => Ok(()),
        Ok(status) => Err(status_err(name, status)),
        Err(_) => Err(backend_err(format!(
            "{name} is missing from the loaded cuBLAS library (CUDA 13 or newer is needed)"
        ))),
    }
}

/// The device's cuBLAS handle, created on first use.
pub(crate) fn handle(dev: &Cuda) -> Result<Handle> {
    let mut handles = dev.inner.handles.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&h) = handles.get(KEY) {
        let h = h as sys::cublasHandle_t;
        on_stream(dev, h)?;
        return Ok(Handle(h));
    }
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(backend_err(
            "cuBLAS not found: libcublas.so could not be loaded (install the CUDA toolkit's \
             cuBLAS, or add its directory to LD_LIBRARY_PATH)"
                .into(),
        ));
    }
    dev.bind()?;
    let mut h: sys::cublasHandle_t = std::ptr::null_mut();
    // SAFETY: writes one handle; the device's context is current, so the handle belongs to it.
    call("cublasCreate_v2", || unsafe {
        sys::cublasCreate_v2(&mut h)
    })?;
    let configure = || -> Result<()> {
        // SAFETY: `h` was just created; the stream is the device's live stream (the driver's
        // CUstream and cuBLAS's cudaStream_t are the same object).
        call("cublasSetStream_v2", || unsafe {
            sys::cublasSetStream_v2(h, dev.stream() as sys::cudaStream_t)
        })?;
        // SAFETY: `h` is a live handle.
        call("cublasSetMathMode", || unsafe {
            sys::cublasSetMathMode(h, sys::cublasMath_t::CUBLAS_DEFAULT_MATH)
        })
    };
    if let Err(e) = configure() {
        // SAFETY: `h` is live and not stored anywhere; it is destroyed once.
        let _ = call("cublasDestroy_v2", || unsafe { sys::cublasDestroy_v2(h) });
        return Err(e);
    }
    handles.insert(KEY, h as usize);
    on_stream(dev, h)?;
    Ok(Handle(h))
}

/// Points the handle at `dev`'s stream, after the work of the stream that used it last.
fn on_stream(dev: &Cuda, h: sys::cublasHandle_t) -> Result<()> {
    dev.order_library(h as usize, |s| {
        // SAFETY: `h` is a live handle of this device; `s` is a live stream of its context
        // (the driver's CUstream and cuBLAS's cudaStream_t are the same object).
        call("cublasSetStream_v2", || unsafe {
            sys::cublasSetStream_v2(h, s as sys::cudaStream_t)
        })
    })
}

/// One column-major (strided-batched) GEMM `C = op(A) op(B)` as cuBLAS defines it: `op(A)` is
/// `m x k`, `op(B)` is `k x n`, `C` is `m x n` with leading dimension `ldc`. Pointers are
/// device addresses of the first element of the first batch item; strides are in elements.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gemm {
    pub transa: Trans,
    pub transb: Trans,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub a: u64,
    pub lda: i64,
    pub stride_a: i64,
    pub b: u64,
    pub ldb: i64,
    pub stride_b: i64,
    pub c: u64,
    pub ldc: i64,
    pub stride_c: i64,
    pub batch: i64,
}

fn op(t: Trans) -> sys::cublasOperation_t {
    match t {
        Trans::N => sys::cublasOperation_t::CUBLAS_OP_N,
        Trans::T => sys::cublasOperation_t::CUBLAS_OP_T,
    }
}

/// A cuBLAS `<t>gemm` for elements `E` and integers `I` (`int`, or `int64_t` for the `_64`
/// twin), as cudarc declares it.
type GemmFn<E, I> = unsafe fn(
    sys::cublasHandle_t,
    sys::cublasOperation_t,
    sys::cublasOperation_t,
    I,
    I,
    I,
    *const E,
    *const E,
    I,
    *const E,
    I,
    *const E,
    *mut E,
    I,
) -> sys::cublasStatus_t;

/// A cuBLAS `<t>gemmStridedBatched` for elements `E` and integers `I` (batch strides are
/// 64-bit in both widths).
type GemmBatchedFn<E, I> = unsafe fn(
    sys::cublasHandle_t,
    sys::cublasOperation_t,
    sys::cublasOperation_t,
    I,
    I,
    I,
    *const E,
    *const E,
    I,
    i64,
    *const E,
    I,
    i64,
    *const E,
    *mut E,
    I,
    i64,
    I,
) -> sys::cublasStatus_t;

/// The GEMM symbols of one element type and integer width, with their names.
struct GemmFns<E, I> {
    single: (&'static str, GemmFn<E, I>),
    batched: (&'static str, GemmBatchedFn<E, I>),
}

/// The cuBLAS symbol `$f` with its name, for [`call`]'s messages.
macro_rules! named {
    ($f:ident) => {
        (stringify!($f), sys::$f)
    };
}

/// [`GemmFns`] of the cuBLAS symbols `$single` and `$batched`.
macro_rules! gemm_fns {
    ($single:ident, $batched:ident) => {
        GemmFns {
            single: named!($single),
            batched: named!($batched),
        }
    };
}

/// Queues `g` with the symbols of its element type `E`: the 32-bit-integer API (what CuPy and
/// PyTorch call) when every size fits in an `int`, the 64-bit one otherwise.
fn gemm_typed<E>(
    h: Handle,
    g: &Gemm,
    (one, zero): (E, E),
    narrow: GemmFns<E, i32>,
    wide: GemmFns<E, i64>,
) -> Result<()> {
    let sizes = [g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.batch];
    match sizes.map(i32::try_from) {
        [Ok(m), Ok(n), Ok(k), Ok(lda), Ok(ldb), Ok(ldc), Ok(batch)] => {
            gemm_with(h, g, (one, zero), [m, n, k, lda, ldb, ldc, batch], narrow)
        }
        _ => gemm_with(h, g, (one, zero), sizes, wide),
    }
}

/// Queues `g` with `fns`, its sizes `[m, n, k, lda, ldb, ldc, batch]` in their integer type:
/// `<t>gemm` for one matrix, `<t>gemmStridedBatched` for a batch.
fn gemm_with<E, I: Copy>(
    h: Handle,
    g: &Gemm,
    (one, zero): (E, E),
    [m, n, k, lda, ldb, ldc, batch]: [I; 7],
    fns: GemmFns<E, I>,
) -> Result<()> {
    let (h, ta, tb) = (h.0, op(g.transa), op(g.transb));
    let (a, b, c) = (g.a as *const E, g.b as *const E, g.c as *mut E);
    let (sa, sb, sc) = (g.stride_a, g.stride_b, g.stride_c);
    let (alpha, beta) = (&one as *const E, &zero as *const E);
    // SAFETY (both calls): `h` is the device's live handle and `f` the symbol for elements
    // `E` (`fns` pairs them); the caller of `gemm` guarantees the matrices of every batch
    // item; alpha and beta are host values (the handle is in the default host pointer mode)
    // that outlive the call; the sizes are the caller's, converted without loss.
    if g.batch == 1 {
        let (name, f) = fns.single;
        call(name, || unsafe {
            f(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        })
    } else {
        let (name, f) = fns.batched;
        call(name, || unsafe {
            f(
                h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, batch,
            )
        })
    }
}

/// Queues `C = op(A) op(B)` (alpha 1, beta 0: C is written, never read) for elements of
/// `dtype` on the device's stream.
///
/// # Caller's check
/// As for kernel launches, device addresses are checked by the caller, once, before the call:
/// `g` must describe memory of `dtype` elements that is valid on the device: for every batch
/// item `z < batch`, the `op(A)` matrix at `a + z * stride_a` with leading dimension `lda`
/// (likewise B), and C at `c + z * stride_c`, which must not overlap A or B nor itself across
/// batch items. Leading dimensions must be at least the stored matrix's row count (and 1).
pub(crate) fn gemm(dev: &Cuda, h: Handle, dtype: DType, g: &Gemm) -> Result<()> {
    dev.bind()?;
    if matches!(dtype, DType::F32 | DType::C64) {
        let mode = if dev.tf32() {
            sys::cublasMath_t::CUBLAS_TF32_TENSOR_OP_MATH
        } else {
            sys::cublasMath_t::CUBLAS_DEFAULT_MATH
        };
        // SAFETY: `h` is the device's live handle; the mode is read when a call is queued.
        call("cublasSetMathMode", || unsafe {
            sys::cublasSetMathMode(h.0, mode)
        })?;
    }
    let c32 = |re| sys::cuComplex { x: re, y: 0.0 };
    let c64 = |re| sys::cuDoubleComplex { x: re, y: 0.0 };
    match dtype {
        DType::F32 => gemm_typed(
            h,
            g,
            (1.0f32, 0.0),
            gemm_fns!(cublasSgemm_v2, cublasSgemmStridedBatched),
            gemm_fns!(cublasSgemm_v2_64, cublasSgemmStridedBatched_64),
        ),
        DType::F64 => gemm_typed(
            h,
            g,
            (1.0f64, 0.0),
            gemm_fns!(cublasDgemm_v2, cublasDgemmStridedBatched),
            gemm_fns!(cublasDgemm_v2_64, cublasDgemmStridedBatched_64),
        ),
        DType::C64 => gemm_typed(
            h,
            g,
            (c32(1.0), c32(0.0)),
            gemm_fns!(cublasCgemm_v2, cublasCgemmStridedBatched),
            gemm_fns!(cublasCgemm_v2_64, cublasCgemmStridedBatched_64),
        ),
        DType::C128 => gemm_typed(
            h,
            g,
            (c64(1.0), c64(0.0)),
            gemm_fns!(cublasZgemm_v2, cublasZgemmStridedBatched),
            gemm_fns!(cublasZgemm_v2_64, cublasZgemmStridedBatched_64),
        ),
        // bf16 through cuBLASLt first, whose heuristic picks a faster kernel than
        // cublasGemmEx's for bf16 (8192^3 on an H100: 1.47 ms against 1.52 ms); for f16,
        // cublasGemmEx's choice is the faster one there (1.47 ms against 1.52 ms).
        // cublasGemmEx also serves bf16 where cuBLASLt is missing or has no algorithm.
        DType::BF16 if super::blaslt::gemm_half(dev, g, true)? => Ok(()),
        DType::F16 => gemm_half(h, g, sys::cudaDataType::CUDA_R_16F),
        DType::BF16 => gemm_half(h, g, sys::cudaDataType::CUDA_R_16BF),
        dtype => Err(Error::UnsupportedDType {
            op: "matmul",
            dtype,
        }),
    }
}

/// `cublasGemmEx` with integers `I` (`int`, or `int64_t` for the `_64` twin).
type GemmExFn<I> = unsafe fn(
    sys::cublasHandle_t,
    sys::cublasOperation_t,
    sys::cublasOperation_t,
    I,
    I,
    I,
    *const c_void,
    *const c_void,
    sys::cudaDataType,
    I,
    *const c_void,
    sys::cudaDataType,
    I,
    *const c_void,
    *mut c_void,
    sys::cudaDataType,
    I,
    sys::cublasComputeType_t,
    sys::cublasGemmAlgo_t,
) -> sys::cublasStatus_t;

/// `cublasGemmStridedBatchedEx` with integers `I` (batch strides are 64-bit in both widths).
type GemmExBatchedFn<I> = unsafe fn(
    sys::cublasHandle_t,
    sys::cublasOperation_t,
    sys::cublasOperation_t,
    I,
    I,
    I,
    *const c_void,
    *const c_void,
    sys::cudaDataType,
    I,
    i64,
    *const c_void,
    sys::cudaDataType,
    I,
    i64,
    *const c_void,
    *mut c_void,
    sys::cudaDataType,
    I,
    i64,
    I,
    sys::cublasComputeType_t,
    sys::cublasGemmAlgo_t,
) -> sys::cublasStatus_t;

/// Queues `g` for 16-bit floats of CUDA type `dt` through `cublasGemmEx` (one matrix) or
/// `cublasGemmStridedBatchedEx`: tensor cores, products accumulated in f32 (reduced-precision
/// reductions disallowed), each result rounded once to the type, as `torch.matmul`. The
/// 32-bit-integer API when every size fits in an `int`, the 64-bit one otherwise.
fn gemm_half(h: Handle, g: &Gemm, dt: sys::cudaDataType) -> Result<()> {
    // SAFETY: `h` is the device's live handle; the mode is read when a call is queued.
    call("cublasSetMathMode", || unsafe {
        sys::cublasSetMathMode(
            h.0,
            sys::cublasMath_t::CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION,
        )
    })?;
    let sizes = [g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.batch];
    match sizes.map(i32::try_from) {
        [Ok(m), Ok(n), Ok(k), Ok(lda), Ok(ldb), Ok(ldc), Ok(batch)] => gemm_ex_with(
            h,
            g,
            dt,
            [m, n, k, lda, ldb, ldc, batch],
            named!(cublasGemmEx),
            named!(cublasGemmStridedBatchedEx),
        ),
        _ => gemm_ex_with(
            h,
            g,
            dt,
            sizes,
            named!(cublasGemmEx_64),
            named!(cublasGemmStridedBatchedEx_64),
        ),
    }
}

/// Queues `g` of CUDA type `dt` with f32 compute through `single` (one matrix) or `batched`,
/// its sizes `[m, n, k, lda, ldb, ldc, batch]` in their integer type.
fn gemm_ex_with<I: Copy>(
    h: Handle,
    g: &Gemm,
    dt: sys::cudaDataType,
    [m, n, k, lda, ldb, ldc, batch]: [I; 7],
    single: (&'static str, GemmExFn<I>),
    batched: (&'static str, GemmExBatchedFn<I>),
) -> Result<()> {
    let (h, ta, tb) = (h.0, op(g.transa), op(g.transb));
    let (a, b, c) = (
        g.a as *const c_void,
        g.b as *const c_void,
        g.c as *mut c_void,
    );
    let (one, zero) = (1.0f32, 0.0f32);
    let (alpha, beta) = (
        &one as *const f32 as *const c_void,
        &zero as *const f32 as *const c_void,
    );
    let compute = sys::cublasComputeType_t::CUBLAS_COMPUTE_32F;
    let algo = sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT;
    let (sa, sb, sc) = (g.stride_a, g.stride_b, g.stride_c);
    // SAFETY (both calls): `h` is the device's live handle; the caller of `gemm` guarantees
    // the matrices of every batch item, of elements `dt`; alpha and beta are f32 host values
    // (the compute type's, in the default host pointer mode) that outlive the call; the sizes
    // are the caller's, converted without loss.
    if g.batch == 1 {
        let (name, f) = single;
        call(name, || unsafe {
            f(
                h, ta, tb, m, n, k, alpha, a, dt, lda, b, dt, ldb, beta, c, dt, ldc, compute, algo,
            )
        })
    } else {
        let (name, f) = batched;
        call(name, || unsafe {
            f(
                h, ta, tb, m, n, k, alpha, a, dt, lda, sa, b, dt, ldb, sb, beta, c, dt, ldc, sc,
                batch, compute, algo,
            )
        })
    }
}

/// Queues `x *= alpha` for `n` contiguous reals (f64 when `double`, else f32) at the device
/// address `x`; a complex buffer is scaled as its `2 * len` real parts. Failures are reported
/// as errors of `op`.
///
/// # Caller's check
/// As for kernel launches, device addresses are checked by the caller, once, before the call:
/// `x` must be a device address of this device holding `n` elements of the type.
pub(crate) fn scal(
    dev: &Cuda,
    h: Handle,
    op: &'static str,
    double: bool,
    x: u64,
    n: usize,
    alpha: f64,
) -> Result<()> {
    dev.bind()?;
    let single = alpha as f32;
    let r = match (double, i32::try_from(n)) {
        (true, Ok(n)) => scal_with(h, named!(cublasDscal_v2), n, alpha, x),
        (true, Err(_)) => scal_with(h, named!(cublasDscal_v2_64), n as i64, alpha, x),
        (false, Ok(n)) => scal_with(h, named!(cublasSscal_v2), n, single, x),
        (false, Err(_)) => scal_with(h, named!(cublasSscal_v2_64), n as i64, single, x),
    };
    r.map_err(|e| match e {
        Error::Backend { msg, .. } => Error::Backend { op, msg },
        e => e,
    })
}

/// A cuBLAS `<t>scal` for reals `E` and integers `I` (`int`, or `int64_t` for the `_64`
/// twin), as cudarc declares it.
type ScalFn<E, I> = unsafe fn(sys::cublasHandle_t, I, *const E, *mut E, I) -> sys::cublasStatus_t;

/// Queues `x *= alpha` for `n` contiguous reals at `x` with the symbol `f` named `name`.
fn scal_with<E, I: From<u8>>(
    h: Handle,
    (name, f): (&str, ScalFn<E, I>),
    n: I,
    alpha: E,
    x: u64,
) -> Result<()> {
    let (h, alpha, x) = (h.0, &alpha as *const E, x as *mut E);
    // SAFETY: `h` is the device's live handle and `f` the symbol for reals `E`; the caller
    // of `scal` guarantees `n` elements at `x`; alpha is a host value (default host pointer
    // mode) that outlives the call.
    call(name, || unsafe { f(h, n, alpha, x, I::from(1)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_types_match_cublas_layout() {
        use std::mem::size_of;
        assert_eq!(size_of::<sys::cuComplex>(), size_of::<cuprite_core::c64>());
        assert_eq!(
            size_of::<sys::cuDoubleComplex>(),
            size_of::<cuprite_core::c128>()
        );
        let e = status_err(
            "cublasDgemm_v2_64",
            sys::cublasStatus_t::CUBLAS_STATUS_INVALID_VALUE,
        );
        assert_eq!(
            e.to_string(),
            "matmul: backend failure: cublasDgemm_v2_64 failed: CUBLAS_STATUS_INVALID_VALUE"
        );
    }
}
