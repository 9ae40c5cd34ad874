//! DLPack capsules as the Python protocol defines them: taking the tensor out of a
//! producer's `__dlpack__` capsule (`"dltensor_versioned"` or `"dltensor"`, renamed
//! `"used_dltensor_versioned"` / `"used_dltensor"` once consumed, so the producer's capsule
//! destructor leaves it alone), and wrapping an exported tensor in a capsule whose
//! destructor calls the deleter only when no consumer took it. Every raw CPython call of the
//! crate is here.

use cuprite_dlpack::sys::{DLManagedTensor, DLManagedTensorVersioned};
use cuprite_dlpack::{ManagedTensor, RawTensor};
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::CStr;
use std::ptr::NonNull;

const VERSIONED: &CStr = c"dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const USED_LEGACY: &CStr = c"used_dltensor";

/// Takes the managed tensor out of a capsule returned by `__dlpack__`: checks its name,
/// renames it as consumed, and owns the tensor (whose deleter the capsule will not call).
///
/// # Errors
/// `TypeError` for an object that is not an unconsumed DLPack capsule; `BufferError` for a
/// tensor `ManagedTensor::from_raw` refuses (released already).
pub(crate) fn take(capsule: &Bound<'_, PyAny>) -> PyResult<ManagedTensor> {
    let cap = capsule.as_ptr();
    // SAFETY: `cap` is a live object (borrowed with the GIL held); `PyCapsule_IsValid` accepts
    // any object and sets no exception.
    let versioned = unsafe { ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) } == 1;
    // SAFETY: as above.
    if !versioned && unsafe { ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) } != 1 {
        return Err(PyTypeError::new_err(
            "from_dlpack: __dlpack__ returned something other than an unconsumed \
             \"dltensor\" or \"dltensor_versioned\" capsule",
        ));
    }
    let (name, used) = if versioned {
        (VERSIONED, USED_VERSIONED)
    } else {
        (LEGACY, USED_LEGACY)
    };
    // SAFETY: the capsule is valid under `name` (checked), so this cannot fail; renaming
    // to a static string is allowed (the capsule keeps the pointer to it).
    let ptr = unsafe {
        let p = ffi::PyCapsule_GetPointer(cap, name.as_ptr());
        if ffi::PyCapsule_SetName(cap, used.as_ptr()) != 0 {
            return Err(PyErr::fetch(capsule.py()));
        }
        p
    };
    let Some(ptr) = NonNull::new(ptr) else {
        return Err(PyBufferError::new_err("from_dlpack: a NULL managed tensor"));
    };
    let raw = if versioned {
        RawTensor::Versioned(ptr.cast::<DLManagedTensorVersioned>())
    } else {
        RawTensor::Legacy(ptr.cast::<DLManagedTensor>())
    };
    // SAFETY: the DLPack Python specification: the capsule's pointer is a live managed tensor
    // of the struct its name says, whose ownership passes to the consumer that renames the
    // capsule (done above), with memory valid until its deleter is called; producers
    // (NumPy, PyTorch, CuPy) keep the memory unwritten while exported read-only, and order
    // their pending writes before the `stream` the consumer passed.
    unsafe { ManagedTensor::from_raw(raw) }.map_err(|e| PyBufferError::new_err(e.to_string()))
}

/// A capsule owning `t`: named `"dltensor_versioned"` or `"dltensor"` after the struct; if
/// it is destroyed unconsumed, its destructor calls the tensor's deleter.
pub(crate) fn wrap(py: Python<'_>, t: ManagedTensor) -> PyResult<Bound<'_, PyAny>> {
    let raw = t.into_raw();
    let (ptr, name, destructor): (*mut std::ffi::c_void, &CStr, ffi::PyCapsule_Destructor) =
        match raw {
            RawTensor::Versioned(p) => (p.as_ptr().cast(), VERSIONED, destroy::<true>),
            RawTensor::Legacy(p) => (p.as_ptr().cast(), LEGACY, destroy::<false>),
        };
    // SAFETY: `ptr` is non-null; the name is static; the destructor matches the struct.
    let cap = unsafe { ffi::PyCapsule_New(ptr, name.as_ptr(), Some(destructor)) };
    if cap.is_null() {
        // SAFETY: the tensor was not handed over: it is still ours to release.
        drop(unsafe { ManagedTensor::from_raw(raw) });
        return Err(PyErr::fetch(py));
    }
    // SAFETY: `cap` is a new reference returned by `PyCapsule_New`.
    Ok(unsafe { Bound::from_owned_ptr(py, cap) })
}

/// The destructor of the capsules [`wrap`] makes: releases the tensor unless a consumer
/// took it (renaming the capsule).
unsafe extern "C" fn destroy<const VERSIONED_STRUCT: bool>(cap: *mut ffi::PyObject) {
    let name = if VERSIONED_STRUCT { VERSIONED } else { LEGACY };
    // SAFETY: CPython calls this with the GIL held on the capsule being destroyed; under its
    // original name the capsule still owns the tensor `wrap` put in it, of the struct the
    // name says, released once here (by the drop of the `ManagedTensor`).
    unsafe {
        if ffi::PyCapsule_IsValid(cap, name.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(cap, name.as_ptr());
            if let Some(p) = NonNull::new(p) {
                let raw = if VERSIONED_STRUCT {
                    RawTensor::Versioned(p.cast())
                } else {
                    RawTensor::Legacy(p.cast())
                };
                drop(ManagedTensor::from_raw(raw));
            }
        }
    }
}
