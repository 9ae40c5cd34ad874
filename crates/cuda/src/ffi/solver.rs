//! cuSOLVER: the device's dense handle and its 64-bit API parameters object, and one thin
//! wrapper per routine the crate calls. The handle is created on first use with the device's
//! context current, bound to the device's stream, and kept for the life of the process in
//! the device's table of library handles. Calls through one handle are serialised by a lock
//! that each decomposition holds while it queues its calls (the handle keeps internal state
//! between the calls of one routine): the [`Solver`] every wrapper takes. Status codes and
//! symbols missing from the loaded library become [`Error::Backend`] naming the op and the
//! call.
//!
//! The wrappers (in `routines`, re-exported here) take matrices as device addresses (`u64`)
//! of column-major matrices whose leading dimension is their row count unless one is
//! passed, and sizes the caller has converted (see [`int`]). Those of the legacy API
//! (`getrf`, `getrs`, `orgqr`/`ungqr`) are generic over the element type and call its
//! `S`/`D`/`C`/`Z` symbol; those of the generic 64-bit API (`cusolverDnX*`) pass the element
//! type as cuSOLVER's data type. As for kernel launches, device addresses are checked by the
//! caller, once, before the call: each wrapper's "Caller's check" says what memory they must
//! cover.
//!
//! Every raw cuSOLVER call of the crate is in this file and its submodules `routines` and
//! `jacobi` (the batched Jacobi eigensolver).

mod jacobi;
mod routines;

pub(crate) use jacobi::{syevj_batched, syevj_batched_buffer_size, JacobiParams};

pub(crate) use routines::{
    getrf, getrf_buffer_size, getrs, orgqr, orgqr_buffer_size, xgeev, xgeev_buffer_size, xgeqrf,
    xgeqrf_buffer_size, xgesvd, xgesvd_buffer_size, xgesvdp, xgesvdp_buffer_size, xpotrf,
    xpotrf_buffer_size, xsyevd, xsyevd_buffer_size, SvdJob, SvdOut, SvdpOut,
};

use crate::device::Cuda;
use cudarc::cusolver::sys;
use cuprite_core::{DType, Element, Error, Result};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

/// Key of the cuSOLVER handle in the device's table of library handles.
const KEY: &str = "cusolver";
/// Key of the parameters object of the 64-bit (`cusolverDnX*`) API.
const PARAMS_KEY: &str = "cusolver_params";

/// The cuSOLVER handle and parameters of one device, with the lock that serialises their use.
pub(crate) struct Solver<'a> {
    h: sys::cusolverDnHandle_t,
    params: sys::cusolverDnParams_t,
    _guard: MutexGuard<'a, ()>,
}

fn backend_err(op: &'static str, msg: String) -> Error {
    Error::Backend { op, msg }
}

/// Runs a raw cuSOLVER call, turning a failed symbol lookup (cudarc panics when the loaded
/// libcusolver lacks a function) and a non-success status into errors naming `op`.
fn call(op: &'static str, name: &str, f: impl FnOnce() -> sys::cusolverStatus_t) -> Result<()> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(sys::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS) => Ok(()),
        Ok(status) => Err(backend_err(op, format!("{name} failed: {status:?}"))),
        Err(_) => Err(backend_err(
            op,
            format!(
                "{name} is missing from the loaded cuSOLVER library (CUDA 12.6 or newer is needed)"
            ),
        )),
    }
}

/// cuSOLVER's name of an element type (`CUDA_R_64F`, ...); only the inexact types have one.
fn data_type(op: &'static str, dtype: DType) -> Result<sys::cudaDataType> {
    use sys::cudaDataType as D;
    Ok(match dtype {
        DType::F32 => D::CUDA_R_32F,
        DType::F64 => D::CUDA_R_64F,
        DType::C64 => D::CUDA_C_32F,
        DType::C128 => D::CUDA_C_64F,
        dtype => return Err(Error::UnsupportedDType { op, dtype }),
    })
}

/// A size as cuSOLVER's 32-bit `int` (the legacy API), or an error naming `op`.
pub(crate) fn int(op: &'static str, v: usize) -> Result<i32> {
    i32::try_from(v).map_err(|_| {
        backend_err(
            op,
            format!("size {v} exceeds the 32-bit range of the cuSOLVER routine"),
        )
    })
}

/// Serialises the use of the cuSOLVER handles of the process.
static LOCK: Mutex<()> = Mutex::new(());

/// The device's cuSOLVER handle and parameters (created on first use), locked for the caller.
pub(crate) fn solver<'a>(dev: &Cuda, op: &'static str) -> Result<Solver<'a>> {
    let guard = LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let mut handles = dev.inner.handles.lock().unwrap_or_else(|p| p.into_inner());
    if let (Some(&h), Some(&p)) = (handles.get(KEY), handles.get(PARAMS_KEY)) {
        dev.bind()?;
        on_stream(dev, op, h as sys::cusolverDnHandle_t)?;
        return Ok(Solver {
            h: h as sys::cusolverDnHandle_t,
            params: p as sys::cusolverDnParams_t,
            _guard: guard,
        });
    }
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(backend_err(
            op,
            "cuSOLVER not found: libcusolver.so could not be loaded (install the CUDA \
             toolkit's cuSOLVER, or add its directory to LD_LIBRARY_PATH)"
                .into(),
        ));
    }
    dev.bind()?;
    let mut h: sys::cusolverDnHandle_t = std::ptr::null_mut();
    // SAFETY: writes one handle; the device's context is current, so the handle belongs to it.
    call(op, "cusolverDnCreate", || unsafe {
        sys::cusolverDnCreate(&mut h)
    })?;
    let mut p: sys::cusolverDnParams_t = std::ptr::null_mut();
    let configure = |p: &mut sys::cusolverDnParams_t| -> Result<()> {
        // SAFETY: `h` was just created; the stream is the device's live stream (the driver's
        // CUstream and the runtime's cudaStream_t are the same object).
        call(op, "cusolverDnSetStream", || unsafe {
            sys::cusolverDnSetStream(h, dev.stream() as sys::cudaStream_t)
        })?;
        // SAFETY: writes one parameters object.
        call(op, "cusolverDnCreateParams", || unsafe {
            sys::cusolverDnCreateParams(p)
        })
    };
    if let Err(e) = configure(&mut p) {
        // SAFETY: `h` is live and not stored anywhere; it is destroyed once.
        let _ = call(op, "cusolverDnDestroy", || unsafe {
            sys::cusolverDnDestroy(h)
        });
        return Err(e);
    }
    handles.insert(KEY, h as usize);
    handles.insert(PARAMS_KEY, p as usize);
    on_stream(dev, op, h)?;
    Ok(Solver {
        h,
        params: p,
        _guard: guard,
    })
}

/// Points the handle at `dev`'s stream, after the work of the stream that used it last.
fn on_stream(dev: &Cuda, op: &'static str, h: sys::cusolverDnHandle_t) -> Result<()> {
    dev.order_library(h as usize, |s| {
        // SAFETY: `h` is a live handle of this device; `s` is a live stream of its context
        // (the driver's CUstream and the runtime's cudaStream_t are the same object).
        call(op, "cusolverDnSetStream", || unsafe {
            sys::cusolverDnSetStream(h, s as sys::cudaStream_t)
        })
    })
}

/// Workspace of one routine: device memory from the pool (released stream-ordered when
/// dropped, after the calls queued before it) and host memory.
pub(crate) struct Workspace {
    device: crate::buffer::CudaBuffer<u8>,
    host: Vec<u8>,
}

impl Workspace {
    /// `device` and `host` bytes (at least one of each, so no pointer is null).
    pub fn new(dev: &Cuda, device: usize, host: usize) -> Result<Workspace> {
        Ok(Workspace {
            device: dev.alloc::<u8>(device.max(1))?,
            host: vec![0u8; host.max(1)],
        })
    }

    /// Device memory for `lwork` elements of `T` (at least one), the workspace of a routine
    /// of the 32-bit API, which counts it in elements.
    pub fn elements<T: Element>(dev: &Cuda, lwork: i32) -> Result<Workspace> {
        Workspace::new(dev, lwork.max(1) as usize * std::mem::size_of::<T>(), 0)
    }

    /// The device pointer.
    fn dptr(&self) -> *mut c_void {
        self.device.device_ptr() as *mut c_void
    }

    /// The device workspace in elements of `T`, as the 32-bit API's `lwork`.
    fn lwork<T>(&self) -> i32 {
        i32::try_from(self.device.len() / std::mem::size_of::<T>()).unwrap_or(i32::MAX)
    }

    /// The four workspace arguments of a cuSOLVER 64-bit API call: device pointer, device
    /// bytes, host pointer, host bytes.
    fn parts(&mut self) -> (*mut c_void, usize, *mut c_void, usize) {
        let (dl, hl) = (self.device.len(), self.host.len());
        (self.dptr(), dl, self.host.as_mut_ptr() as *mut c_void, hl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_and_types_name_the_op() {
        let e = call("svd", "cusolverDnXgesvd", || {
            sys::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "svd: backend failure: cusolverDnXgesvd failed: CUSOLVER_STATUS_INVALID_VALUE"
        );
        assert!(data_type("qr", DType::I32).is_err());
        assert_eq!(
            data_type("qr", DType::C128).unwrap(),
            sys::cudaDataType::CUDA_C_64F
        );
        assert!(int("lu_factor", 1 << 31).is_err());
        assert_eq!(int("lu_factor", 7).unwrap(), 7);
    }
}
