//! cuBLASLt for the bf16 products (f16 ones go through `cublasGemmEx`, measured faster for
//! them): one handle per device, created on first use and kept for the life of the process
//! in the device's table of library handles. Each product describes its operands (layouts
//! with batch counts and strides), asks the library's heuristic for the best algorithm that
//! fits a 32 MiB workspace (what NVIDIA recommends for Hopper and what PyTorch gives it) with
//! no reduction in the 16-bit output type, and runs it on the device's stream with a
//! workspace from the device's stream-ordered pool. `cublasGemmEx` (in [`super::blas`])
//! remains the path where cuBLASLt is missing or has no algorithm. Every raw cuBLASLt call
//! of the crate is in this file.

use super::blas::Gemm;
use crate::device::Cuda;
use crate::matmul::Trans;
use cudarc::cublaslt::sys as lt;
use cuprite_core::{Error, Result};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Key of the cuBLASLt handle in the device's table of library handles.
const KEY: &str = "cublaslt";

/// Workspace offered to the heuristic and the call, in bytes.
const WORKSPACE: usize = 32 << 20;

fn backend_err(msg: String) -> Error {
    Error::Backend { op: "matmul", msg }
}

/// Runs a raw cuBLASLt call, turning a failed symbol lookup (cudarc panics when the loaded
/// library lacks a function) and a non-success status into errors.
fn call(name: &str, f: impl FnOnce() -> lt::cublasStatus_t) -> Result<()> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(lt::cublasStatus_t::CUBLAS_STATUS_SUCCESS) => Ok(()),
        Ok(status) => Err(backend_err(format!("{name} failed: {status:?}"))),
        Err(_) => Err(backend_err(format!(
            "{name} is missing from the loaded cuBLASLt library"
        ))),
    }
}

/// The device's cuBLASLt handle, created on first use; `None` where libcublasLt cannot be
/// loaded.
fn handle(dev: &Cuda) -> Result<Option<lt::cublasLtHandle_t>> {
    let mut handles = dev.inner.handles.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&h) = handles.get(KEY) {
        return Ok(Some(h as lt::cublasLtHandle_t));
    }
    // SAFETY: only probes whether the library can be opened.
    if !catch_unwind(|| unsafe { lt::is_culib_present() }).unwrap_or(false) {
        return Ok(None);
    }
    dev.bind()?;
    let mut h: lt::cublasLtHandle_t = std::ptr::null_mut();
    // SAFETY: writes one handle; the device's context is current.
    call("cublasLtCreate", || unsafe { lt::cublasLtCreate(&mut h) })?;
    handles.insert(KEY, h as usize);
    Ok(Some(h))
}

/// A matmul descriptor, destroyed on drop.
struct Desc(lt::cublasLtMatmulDesc_t);
impl Drop for Desc {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatmulDescCreate, destroyed once.
        let _ = call("cublasLtMatmulDescDestroy", || unsafe {
            lt::cublasLtMatmulDescDestroy(self.0)
        });
    }
}

/// A matrix layout, destroyed on drop.
struct Layout(lt::cublasLtMatrixLayout_t);
impl Drop for Layout {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatrixLayoutCreate, destroyed once.
        let _ = call("cublasLtMatrixLayoutDestroy", || unsafe {
            lt::cublasLtMatrixLayoutDestroy(self.0)
        });
    }
}

/// A heuristic preference, destroyed on drop.
struct Pref(lt::cublasLtMatmulPreference_t);
impl Drop for Pref {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatmulPreferenceCreate, destroyed once.
        let _ = call("cublasLtMatmulPreferenceDestroy", || unsafe {
            lt::cublasLtMatmulPreferenceDestroy(self.0)
        });
    }
}

/// Sets one attribute of a descriptor from a plain value.
fn set<V: Copy>(
    name: &str,
    value: V,
    f: impl FnOnce(*const c_void, usize) -> lt::cublasStatus_t,
) -> Result<()> {
    call(name, || {
        f(
            &value as *const V as *const c_void,
            std::mem::size_of::<V>(),
        )
    })
}

/// The column-major layout of `rows x cols` elements of `dt` with leading dimension `ld`,
/// `batch` of them `stride` elements apart.
fn layout(
    dt: lt::cudaDataType,
    rows: i64,
    cols: i64,
    ld: i64,
    batch: i64,
    stride: i64,
) -> Result<Layout> {
    let mut l: lt::cublasLtMatrixLayout_t = std::ptr::null_mut();
    // SAFETY: writes one layout handle; sizes are non-negative (the caller's product shape).
    call("cublasLtMatrixLayoutCreate", || unsafe {
        lt::cublasLtMatrixLayoutCreate(&mut l, dt, rows as u64, cols as u64, ld)
    })?;
    let l = Layout(l);
    if batch > 1 {
        let attr = lt::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT;
        let count = i32::try_from(batch).map_err(|_| {
            backend_err(format!(
                "cuBLASLt takes at most 2^31 - 1 matrices, got {batch}"
            ))
        })?;
        // SAFETY: `l` is live; the attribute is an int32.
        set("cublasLtMatrixLayoutSetAttribute", count, |p, s| unsafe {
            lt::cublasLtMatrixLayoutSetAttribute(l.0, attr, p, s)
        })?;
        let attr = lt::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET;
        // SAFETY: `l` is live; the attribute is an int64.
        set("cublasLtMatrixLayoutSetAttribute", stride, |p, s| unsafe {
            lt::cublasLtMatrixLayoutSetAttribute(l.0, attr, p, s)
        })?;
    }
    Ok(l)
}

/// cuBLAS's operation code (`CUBLAS_OP_N` = 0, `CUBLAS_OP_T` = 1) as the descriptor's int32.
fn op_code(t: Trans) -> i32 {
    match t {
        Trans::N => 0,
        Trans::T => 1,
    }
}

/// Queues `C = op(A) op(B)` for 16-bit floats (`bf16` when `bf`, else `f16`) through
/// cuBLASLt with f32 compute and scale (each result rounded once to the type, no reduction
/// in the 16-bit type). `Ok(false)`, with nothing queued, where cuBLASLt cannot be loaded or
/// its heuristic offers no algorithm for the shape: the caller then uses `cublasGemmEx`.
///
/// # Caller's check
/// As for [`super::blas::gemm`]: `g` must describe valid device memory of the type for every
/// batch item, C not overlapping A, B or itself across batch items.
pub(crate) fn gemm_half(dev: &Cuda, g: &Gemm, bf: bool) -> Result<bool> {
    let Some(h) = handle(dev)? else {
        return Ok(false);
    };
    let dt = if bf {
        lt::cudaDataType::CUDA_R_16BF
    } else {
        lt::cudaDataType::CUDA_R_16F
    };
    let mut d: lt::cublasLtMatmulDesc_t = std::ptr::null_mut();
    // SAFETY: writes one descriptor handle.
    call("cublasLtMatmulDescCreate", || unsafe {
        lt::cublasLtMatmulDescCreate(
            &mut d,
            lt::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            lt::cudaDataType::CUDA_R_32F,
        )
    })?;
    let d = Desc(d);
    for (attr, t) in [
        (
            lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
            g.transa,
        ),
        (
            lt::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSB,
            g.transb,
        ),
    ] {
        // SAFETY: `d` is live; the attribute is a cublasOperation_t (int32).
        set(
            "cublasLtMatmulDescSetAttribute",
            op_code(t),
            |p, s| unsafe { lt::cublasLtMatmulDescSetAttribute(d.0, attr, p, s) },
        )?;
    }
    // op(A) is m x k: A is stored m x k (N) or k x m (T); likewise B (k x n or n x k).
    let (ar, ac) = match g.transa {
        Trans::N => (g.m, g.k),
        Trans::T => (g.k, g.m),
    };
    let (br, bc) = match g.transb {
        Trans::N => (g.k, g.n),
        Trans::T => (g.n, g.k),
    };
    let la = layout(dt, ar, ac, g.lda, g.batch, g.stride_a)?;
    let lb = layout(dt, br, bc, g.ldb, g.batch, g.stride_b)?;
    let lc = layout(dt, g.m, g.n, g.ldc, g.batch, g.stride_c)?;

    let mut p: lt::cublasLtMatmulPreference_t = std::ptr::null_mut();
    // SAFETY: writes one preference handle.
    call("cublasLtMatmulPreferenceCreate", || unsafe {
        lt::cublasLtMatmulPreferenceCreate(&mut p)
    })?;
    let p = Pref(p);
    let attr = lt::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES;
    // SAFETY: `p` is live; the attribute is a uint64.
    set(
        "cublasLtMatmulPreferenceSetAttribute",
        WORKSPACE as u64,
        |v, s| unsafe { lt::cublasLtMatmulPreferenceSetAttribute(p.0, attr, v, s) },
    )?;
    // Split reductions may run in place or in f32, never in the 16-bit output type.
    let schemes = lt::cublasLtReductionScheme_t::CUBLASLT_REDUCTION_SCHEME_INPLACE as u32
        | lt::cublasLtReductionScheme_t::CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE as u32;
    let attr = lt::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK;
    // SAFETY: `p` is live; the attribute is a uint32.
    set(
        "cublasLtMatmulPreferenceSetAttribute",
        schemes,
        |v, s| unsafe { lt::cublasLtMatmulPreferenceSetAttribute(p.0, attr, v, s) },
    )?;

    // SAFETY: the result is plain data, fully written by the heuristic when it returns one.
    let mut best: lt::cublasLtMatmulHeuristicResult_t = unsafe { std::mem::zeroed() };
    let mut found = 0i32;
    // SAFETY: every descriptor is live; one result is requested into `best`.
    let heuristic = call("cublasLtMatmulAlgoGetHeuristic", || unsafe {
        lt::cublasLtMatmulAlgoGetHeuristic(
            h, d.0, la.0, lb.0, lc.0, lc.0, p.0, 1, &mut best, &mut found,
        )
    });
    if heuristic.is_err() || found < 1 {
        return Ok(false);
    }
    let ws = match best.workspaceSize {
        0 => None,
        bytes => Some(dev.alloc::<u8>(bytes)?),
    };
    let wp = match &ws {
        Some(b) => dev.ptr(b)?,
        None => 0,
    };
    let (one, zero) = (1.0f32, 0.0f32);
    dev.bind()?;
    // SAFETY: the handle and descriptors are live and describe the caller's checked
    // matrices; alpha and beta are f32 host values (the scale type's) that outlive the call;
    // the workspace holds the size the chosen algorithm asked for and is released in stream
    // order after the call; the stream is the device's live stream.
    call("cublasLtMatmul", || unsafe {
        lt::cublasLtMatmul(
            h,
            d.0,
            &one as *const f32 as *const c_void,
            g.a as *const c_void,
            la.0,
            g.b as *const c_void,
            lb.0,
            &zero as *const f32 as *const c_void,
            g.c as *const c_void,
            lc.0,
            g.c as *mut c_void,
            lc.0,
            &best.algo,
            wp as *mut c_void,
            best.workspaceSize,
            dev.stream() as lt::cudaStream_t,
        )
    })?;
    Ok(true)
}
