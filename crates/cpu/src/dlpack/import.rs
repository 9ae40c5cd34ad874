//! Import of a DLPack managed tensor as a `Cpu` array without copying: the dtype must be
//! the array's, the memory the host's; the shape and strides become a core [`Layout`] over
//! a buffer that borrows the span of memory the tensor reaches (negative strides included),
//! and the tensor itself becomes the buffer's owner guard, so its deleter runs when the last
//! array using the memory drops.

use super::managed::ManagedTensor;
use super::sys::DLDeviceType;
use crate::{Cpu, CpuBuffer};
use cuprite_core::layout::{c_strides, check_shape};
use cuprite_core::{Array, DType, Element, Error, Layout, Result};
use std::ptr::NonNull;

const OP: &str = "from_dlpack";

/// Device types whose memory the host reads directly (NumPy's `from_dlpack` takes the same).
const HOST_DEVICES: [DLDeviceType; 4] = [
    DLDeviceType::CPU,
    DLDeviceType::CUDA_HOST,
    DLDeviceType::ROCM_HOST,
    DLDeviceType::CUDA_MANAGED,
];

/// See [`DlpackExt::from_dlpack`](super::DlpackExt::from_dlpack).
pub(super) fn import<T: Element>(t: ManagedTensor) -> Result<Array<T, Cpu>> {
    check_dtype::<T>(&t)?;
    check_device(&t)?;
    let itemsize = T::DTYPE.size_of();
    // Extents are not negative (checked when the tensor was taken) and strides are i64,
    // which is isize on the 64-bit hosts cuprite runs on; a 32-bit host checks.
    let shape: Vec<usize> = t
        .shape()
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| too_wide(&t)))
        .collect::<Result<_>>()?;
    // Rank and byte size first: C strides of a checked shape cannot overflow.
    check_shape(OP, &shape, itemsize)?;
    let strides: Vec<isize> = match t.strides() {
        Some(s) => s
            .iter()
            .map(|&s| isize::try_from(s).map_err(|_| too_wide(&t)))
            .collect::<Result<_>>()?,
        None => c_strides(&shape),
    };
    // The span of elements the view reaches, relative to the element at index 0: `lo <= 0`
    // with negative strides. Wide arithmetic: nothing here overflows.
    let Some((lo, hi)) = Layout::new(shape.clone(), strides.clone(), 0).span() else {
        // Size 0: no memory to borrow; the producer is released now, when `t` drops.
        let layout = Layout::checked(OP, shape, strides, 0, itemsize, 0)?;
        return Array::from_raw_parts(CpuBuffer::new(Vec::new()), layout, Cpu);
    };
    let too_big = || {
        Error::invalid(
            OP,
            format!(
                "a tensor of shape {shape:?} and strides {strides:?} spans more memory than \
                 an array may ({} bytes at most)",
                isize::MAX
            ),
        )
    };
    let (Ok(len), Ok(offset)) = (usize::try_from(hi - lo), usize::try_from(-lo)) else {
        return Err(too_big());
    };
    let Some(span_bytes) = len
        .checked_mul(itemsize)
        .filter(|&b| b <= isize::MAX as usize)
    else {
        return Err(too_big());
    };
    let layout = Layout::checked(OP, shape, strides, offset, itemsize, len)?;

    let data = t.data_ptr().cast::<u8>();
    if data.is_null() {
        return Err(Error::invalid(
            OP,
            format!("a tensor of shape {:?} with a NULL data pointer", t.shape()),
        ));
    }
    // The lowest byte the view reaches: `data + byte_offset - offset * itemsize`, checked
    // as addresses, built with `wrapping_*` so that the pointer keeps `data`'s provenance.
    let Ok(byte_offset) = usize::try_from(t.byte_offset()) else {
        return Err(too_wide(&t));
    };
    let below = offset * itemsize; // <= span_bytes
    let base_addr = (data as usize)
        .checked_add(byte_offset)
        .and_then(|a| a.checked_sub(below))
        .filter(|a| a.checked_add(span_bytes).is_some())
        .ok_or_else(|| {
            Error::invalid(
                OP,
                format!(
                    "the data pointer {data:p} with byte offset {byte_offset} and a span of \
                     {span_bytes} bytes reaches outside the address space"
                ),
            )
        })?;
    if base_addr % std::mem::align_of::<T>() != 0 {
        return Err(Error::invalid(
            OP,
            format!(
                "the elements at {:#x} are not aligned for {} ({} bytes)",
                base_addr,
                T::DTYPE.name(),
                std::mem::align_of::<T>()
            ),
        ));
    }
    let base = data.wrapping_add(byte_offset).wrapping_sub(below);
    if T::DTYPE == DType::Bool {
        // SAFETY: `ManagedTensor::from_raw`'s contract: the `span_bytes` bytes from the
        // lowest element the tensor reaches are allocated and initialised (any byte is a
        // valid `u8`), and nobody writes them meanwhile.
        let bytes = unsafe { std::slice::from_raw_parts(base, span_bytes) };
        if let Some(b) = bytes.iter().find(|&&b| b > 1) {
            return Err(Error::invalid(
                OP,
                format!("a bool tensor holds the byte {b:#04x} (a bool is 0 or 1)"),
            ));
        }
    }
    let Some(ptr) = NonNull::new(base.cast::<T>()) else {
        // The address of a live allocation is never 0; a tensor claiming one is refused.
        return Err(Error::invalid(OP, "the elements start at address 0"));
    };
    // Only a versioned tensor the producer copied for us alone, and did not flag read-only,
    // may be written in place; any other is copied on the first write.
    let writable = t.version().is_some() && t.is_copied() && !t.is_read_only();
    // SAFETY: `ptr` is non-null and aligned for `T` (checked), the `len` elements from it
    // are the span the tensor reaches, allocated, initialised and valid for `T`
    // (`ManagedTensor::from_raw`'s contract; bools checked above), `len * itemsize <=
    // isize::MAX` (checked), and they stay valid and unwritten by others until the owner,
    // `t`, drops and calls the deleter; when `writable`, the memory is the consumer's alone
    // (`IS_COPIED` without `READ_ONLY`, the same contract).
    let buf = unsafe { CpuBuffer::from_foreign(ptr, len, t, writable) };
    Array::from_raw_parts(buf, layout, Cpu)
}

/// The tensor's dtype must be `T`'s (one lane).
fn check_dtype<T: Element>(t: &ManagedTensor) -> Result<()> {
    let want = super::dtype_to_dl(T::DTYPE);
    let got = t.dl_dtype();
    if got == want {
        return Ok(());
    }
    let name = match t.dtype() {
        Some(d) => format!("{} ({got})", d.name()),
        None => format!("{got}, a type cuprite has no element type for"),
    };
    Err(Error::invalid(
        OP,
        format!(
            "the tensor holds {name} but the array's element type is {} ({want})",
            T::DTYPE.name()
        ),
    ))
}

/// The memory must be the host's.
fn check_device(t: &ManagedTensor) -> Result<()> {
    let dev = t.device();
    if HOST_DEVICES.contains(&dev.device_type) {
        return Ok(());
    }
    Err(Error::invalid(
        OP,
        format!(
            "the tensor lives on {:?} device {}; a Cpu array takes host memory (kDLCPU, \
             kDLCUDAHost, kDLROCMHost or kDLCUDAManaged): copy it to the host first",
            dev.device_type, dev.device_id
        ),
    ))
}

fn too_wide(t: &ManagedTensor) -> Error {
    Error::invalid(
        OP,
        format!(
            "shape {:?}, strides {:?} or byte offset {} do not fit this host's pointer width",
            t.shape(),
            t.strides(),
            t.byte_offset()
        ),
    )
}
