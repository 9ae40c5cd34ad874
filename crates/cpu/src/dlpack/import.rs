//! Import of a DLPack managed tensor as a `Cpu` array without copying: `cuprite-dlpack`
//! checks the dtype, the device (host memory) and the view and gives the span of memory it
//! reaches; a bool tensor's bytes are checked to be 0 or 1; the span becomes a buffer whose
//! owner guard is the tensor itself, so its deleter runs when the last array using the memory
//! drops.

use crate::{Cpu, CpuBuffer};
use cuprite_core::{Array, DType, Element, Error, Result};
use cuprite_dlpack::sys::DLDeviceType;
use cuprite_dlpack::{Accept, ManagedTensor};
use std::ptr::NonNull;

const OP: &str = "from_dlpack";

/// Device types whose memory the host reads directly (NumPy's `from_dlpack` takes the same).
const HOST: Accept<'static> = Accept {
    device_types: &[
        DLDeviceType::CPU,
        DLDeviceType::CUDA_HOST,
        DLDeviceType::ROCM_HOST,
        DLDeviceType::CUDA_MANAGED,
    ],
    device_id: None,
    wants: "a Cpu array takes host memory (kDLCPU, kDLCUDAHost, kDLROCMHost or \
            kDLCUDAManaged): copy it to the host first",
};

/// See [`DlpackExt::from_dlpack`](super::DlpackExt::from_dlpack).
pub(super) fn import<T: Element>(t: ManagedTensor) -> Result<Array<T, Cpu>> {
    let plan = cuprite_dlpack::import(&t, T::DTYPE, &HOST)?;
    let Some(span) = plan.span else {
        // Size 0: no memory to borrow; the producer is released now, when `t` drops.
        return Array::from_raw_parts(CpuBuffer::new(Vec::new()), plan.layout, Cpu);
    };
    if T::DTYPE == DType::Bool {
        // SAFETY: `ManagedTensor::from_raw`'s contract: the `span.len` bytes from the
        // lowest element the tensor reaches are allocated and initialised (any byte is a
        // valid `u8`), and nobody writes them meanwhile.
        let bytes = unsafe { std::slice::from_raw_parts(span.base, span.len) };
        if let Some(b) = bytes.iter().find(|&&b| b > 1) {
            return Err(Error::invalid(
                OP,
                format!("a bool tensor holds the byte {b:#04x} (a bool is 0 or 1)"),
            ));
        }
    }
    let Some(ptr) = NonNull::new(span.base.cast::<T>()) else {
        return Err(Error::invalid(OP, "the elements start at address 0"));
    };
    // SAFETY: `ptr` is non-null and aligned for `T` (checked), the `span.len` elements from
    // it are the span the tensor reaches, allocated, initialised and valid for `T`
    // (`ManagedTensor::from_raw`'s contract; bools checked above), their bytes fit in
    // `isize::MAX` (checked), and they stay valid and unwritten by others until the owner,
    // `t`, drops and calls the deleter; when `span.writable`, the memory is the consumer's
    // alone (`IS_COPIED` without `READ_ONLY`, the same contract).
    let buf = unsafe { CpuBuffer::from_foreign(ptr, span.len, t, span.writable) };
    Array::from_raw_parts(buf, plan.layout, Cpu)
}
