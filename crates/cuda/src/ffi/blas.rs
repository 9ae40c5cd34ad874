//! cuBLAS for the f32, f64, c64 and c128 products: one handle per device, created on first
//! use with the device's context current, bound to the device's stream and in the default
//! math mode (full precision: no TF32, no emulation) unless the device allows TF32 for f32
//! and c64 products ([`Cuda::set_tf32`]), kept for the life of the
//! process in the device's table of library handles. Calls go through `cublas?gemm_v2` and
//! `cublas?gemmStridedBatched`, or their 64-bit-integer twins (`_64`) when a size or leading
//! dimension does not fit in an `int`, so nothing is ever narrowed. [`scal`] (`cublas?scal`)
//! scales the results of Fourier transforms in place.
//! Every raw cuBLAS call of the crate is in this file.

use crate::device::Cuda;
use crate::matmul::Trans;
use cudarc::cublas::sys;
use cuprite_core::{DType, Error, Result};
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
    let (h, ta, tb) = (h.0, op(g.transa), op(g.transb));
    if matches!(dtype, DType::F32 | DType::C64) {
        let mode = if dev.tf32() {
            sys::cublasMath_t::CUBLAS_TF32_TENSOR_OP_MATH
        } else {
            sys::cublasMath_t::CUBLAS_DEFAULT_MATH
        };
        // SAFETY: `h` is the device's live handle; the mode is read when a call is queued.
        call("cublasSetMathMode", || unsafe {
            sys::cublasSetMathMode(h, mode)
        })?;
    }
    // The 32-bit-integer API (what CuPy and PyTorch call) when every size fits in an `int`,
    // the 64-bit one otherwise; batch strides are 64-bit in both.
    let narrow = [g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.batch]
        .iter()
        .all(|&v| i32::try_from(v).is_ok());
    let i = |v: i64| v as i32;
    macro_rules! run {
        ($ty:ty, $one:expr, $zero:expr, $single:ident, $batched:ident,
         $single64:ident, $batched64:ident) => {{
            let (one, zero): ($ty, $ty) = ($one, $zero);
            let (a, b, c) = (g.a as *const $ty, g.b as *const $ty, g.c as *mut $ty);
            // One safety argument covers the four calls: the caller guarantees the matrices
            // of every batch item; alpha and beta are host values (the handle is in the
            // default host pointer mode) that outlive the call; narrowed sizes fit in an int.
            match (g.batch == 1, narrow) {
                (true, true) => {
                    let f = || {
                        // SAFETY: see above.
                        unsafe {
                            sys::$single(
                                h,
                                ta,
                                tb,
                                i(g.m),
                                i(g.n),
                                i(g.k),
                                &one,
                                a,
                                i(g.lda),
                                b,
                                i(g.ldb),
                                &zero,
                                c,
                                i(g.ldc),
                            )
                        }
                    };
                    call(stringify!($single), f)
                }
                (false, true) => {
                    let f = || {
                        // SAFETY: see above.
                        unsafe {
                            sys::$batched(
                                h,
                                ta,
                                tb,
                                i(g.m),
                                i(g.n),
                                i(g.k),
                                &one,
                                a,
                                i(g.lda),
                                g.stride_a,
                                b,
                                i(g.ldb),
                                g.stride_b,
                                &zero,
                                c,
                                i(g.ldc),
                                g.stride_c,
                                i(g.batch),
                            )
                        }
                    };
                    call(stringify!($batched), f)
                }
                (true, false) => {
                    let f = || {
                        // SAFETY: see above.
                        unsafe {
                            sys::$single64(
                                h, ta, tb, g.m, g.n, g.k, &one, a, g.lda, b, g.ldb, &zero, c, g.ldc,
                            )
                        }
                    };
                    call(stringify!($single64), f)
                }
                (false, false) => {
                    let f = || {
                        // SAFETY: see above.
                        unsafe {
                            sys::$batched64(
                                h, ta, tb, g.m, g.n, g.k, &one, a, g.lda, g.stride_a, b, g.ldb,
                                g.stride_b, &zero, c, g.ldc, g.stride_c, g.batch,
                            )
                        }
                    };
                    call(stringify!($batched64), f)
                }
            }
        }};
    }
    let c32 = |re| sys::cuComplex { x: re, y: 0.0 };
    let c64 = |re| sys::cuDoubleComplex { x: re, y: 0.0 };
    match dtype {
        DType::F32 => run!(
            f32,
            1.0,
            0.0,
            cublasSgemm_v2,
            cublasSgemmStridedBatched,
            cublasSgemm_v2_64,
            cublasSgemmStridedBatched_64
        ),
        DType::F64 => run!(
            f64,
            1.0,
            0.0,
            cublasDgemm_v2,
            cublasDgemmStridedBatched,
            cublasDgemm_v2_64,
            cublasDgemmStridedBatched_64
        ),
        DType::C64 => run!(
            sys::cuComplex,
            c32(1.0),
            c32(0.0),
            cublasCgemm_v2,
            cublasCgemmStridedBatched,
            cublasCgemm_v2_64,
            cublasCgemmStridedBatched_64
        ),
        DType::C128 => run!(
            sys::cuDoubleComplex,
            c64(1.0),
            c64(0.0),
            cublasZgemm_v2,
            cublasZgemmStridedBatched,
            cublasZgemm_v2_64,
            cublasZgemmStridedBatched_64
        ),
        dtype => Err(Error::UnsupportedDType {
            op: "matmul",
            dtype,
        }),
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
    let h = h.0;
    let narrow = i32::try_from(n).is_ok();
    // SAFETY (all four calls): the caller guarantees `n` elements at `x`; alpha is a host
    // value (default host pointer mode) that outlives the call.
    let r = match (double, narrow) {
        (true, true) => call("cublasDscal_v2", || unsafe {
            sys::cublasDscal_v2(h, n as i32, &alpha, x as *mut f64, 1)
        }),
        (true, false) => call("cublasDscal_v2_64", || unsafe {
            sys::cublasDscal_v2_64(h, n as i64, &alpha, x as *mut f64, 1)
        }),
        (false, true) => {
            let a = alpha as f32;
            call("cublasSscal_v2", || unsafe {
                sys::cublasSscal_v2(h, n as i32, &a, x as *mut f32, 1)
            })
        }
        (false, false) => {
            let a = alpha as f32;
            call("cublasSscal_v2_64", || unsafe {
                sys::cublasSscal_v2_64(h, n as i64, &a, x as *mut f32, 1)
            })
        }
    };
    r.map_err(|e| match e {
        Error::Backend { msg, .. } => Error::Backend { op, msg },
        e => e,
    })
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
