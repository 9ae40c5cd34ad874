//! Export of a `Cpu` array as a DLPack managed tensor without copying: one heap block holds
//! the managed struct (first, so that a pointer to the block is a pointer to the struct),
//! a clone of the array's buffer that keeps the memory alive, and the shape and strides the
//! struct points to. The deleter frees the block, dropping the clone.

use super::managed::{ManagedTensor, RawTensor};
use super::sys::{
    DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor,
    DLPACK_FLAG_BITMASK_READ_ONLY,
};
use crate::CpuBuffer;
use cuprite_core::{Element, Layout};
use std::ffi::c_void;
use std::ptr::{null_mut, NonNull};

/// The heap block behind an exported tensor; `M` is one of the two managed structs.
#[repr(C)]
struct Exported<M, T> {
    managed: M,
    /// The array's buffer: the memory stays alive until the deleter drops it.
    buf: CpuBuffer<T>,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

/// Which struct to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Versioned,
    Legacy,
}

/// Exports `buf` seen through `layout` (which fits it). With `writable`, and when the
/// buffer is not shared, is cuprite's own or handed over for writing, and no element is
/// reached twice, the tensor is writable; otherwise it is flagged read-only (the legacy
/// struct has no flag: see [`DlpackExt::to_dlpack_legacy`](super::DlpackExt)).
pub(super) fn export<T: Element>(
    mut buf: CpuBuffer<T>,
    layout: &Layout,
    form: Form,
    writable: bool,
) -> ManagedTensor {
    let in_place = if writable && layout.is_writeable_without_overlap() {
        buf.unique_mut_ptr()
    } else {
        None
    };
    let read_only = in_place.is_none();
    let base: *mut T = match in_place {
        Some(p) => p.as_ptr(),
        None => buf.as_slice().as_ptr().cast_mut(),
    };
    // DLPack asks for NULL data in a tensor of size 0. Otherwise `data` points at the element
    // at index 0 with `byte_offset` 0, as NumPy, PyTorch and CuPy export (the header notes
    // that consumers should not expect another convention); the offset is inside the buffer
    // because the layout fits it, so `wrapping_add` stays in the allocation.
    let data = if layout.size() == 0 {
        null_mut()
    } else {
        base.wrapping_add(layout.offset()).cast::<c_void>()
    };
    let tensor = DLTensor {
        data,
        device: DLDevice {
            device_type: DLDeviceType::CPU,
            device_id: 0,
        },
        ndim: layout.ndim() as i32,
        dtype: super::dtype_to_dl(T::DTYPE),
        shape: null_mut(),
        strides: null_mut(),
        byte_offset: 0,
    };
    // Extents and strides fit in i64: an array holds at most isize::MAX bytes.
    let shape: Vec<i64> = layout.shape().iter().map(|&d| d as i64).collect();
    let strides: Vec<i64> = layout.strides().iter().map(|&s| s as i64).collect();
    match form {
        Form::Versioned => {
            let managed = DLManagedTensorVersioned {
                version: DLPackVersion::CURRENT,
                manager_ctx: null_mut(),
                deleter: Some(delete_versioned::<T>),
                flags: if read_only {
                    DLPACK_FLAG_BITMASK_READ_ONLY
                } else {
                    0
                },
                dl_tensor: tensor,
            };
            let p = into_block(managed, buf, shape, strides);
            ManagedTensor::from_exported(RawTensor::Versioned(p))
        }
        Form::Legacy => {
            let managed = DLManagedTensor {
                dl_tensor: tensor,
                manager_ctx: null_mut(),
                deleter: Some(delete_legacy::<T>),
            };
            let p = into_block(managed, buf, shape, strides);
            ManagedTensor::from_exported(RawTensor::Legacy(p))
        }
    }
}

/// The two managed structs, as [`into_block`] fills them in.
trait Managed {
    /// The tensor and the `manager_ctx` slot.
    fn parts(&mut self) -> (&mut DLTensor, &mut *mut c_void);
}

impl Managed for DLManagedTensorVersioned {
    fn parts(&mut self) -> (&mut DLTensor, &mut *mut c_void) {
        (&mut self.dl_tensor, &mut self.manager_ctx)
    }
}

impl Managed for DLManagedTensor {
    fn parts(&mut self) -> (&mut DLTensor, &mut *mut c_void) {
        (&mut self.dl_tensor, &mut self.manager_ctx)
    }
}

/// Moves the parts into one heap block and points the tensor's shape and strides, and the
/// struct's `manager_ctx`, into it. The pointer returned is the block's (its first field
/// is the struct), for the deleter to turn back into the box.
fn into_block<M: Managed, T>(
    managed: M,
    buf: CpuBuffer<T>,
    shape: Vec<i64>,
    strides: Vec<i64>,
) -> NonNull<M> {
    let mut block = NonNull::from(Box::leak(Box::new(Exported {
        managed,
        buf,
        shape,
        strides,
    })));
    let ctx = block.as_ptr().cast::<c_void>();
    // SAFETY: `block` is the fresh, unaliased allocation just leaked from the box. The
    // pointers taken into the vectors' heap memory stay valid while the block lives
    // (nothing resizes them), and the block lives until the deleter frees it.
    let ex = unsafe { block.as_mut() };
    let (tensor, manager_ctx) = ex.managed.parts();
    tensor.shape = ex.shape.as_mut_ptr();
    tensor.strides = ex.strides.as_mut_ptr();
    *manager_ctx = ctx;
    // `managed` is the first field of a `#[repr(C)]` struct: the block's address is the
    // struct's.
    block.cast::<M>()
}

/// The deleter of versioned tensors exported by cuprite.
///
/// # Safety
/// `p` came from [`export`] with this `T` and has not been deleted.
unsafe extern "C" fn delete_versioned<T: Element>(p: *mut DLManagedTensorVersioned) {
    if !p.is_null() {
        // SAFETY: the contract: `p` is the address of a live `Exported<_, T>` block made by
        // `Box::into_raw` (its first field, so the same address), freed only here, once.
        drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensorVersioned, T>>()) });
    }
}

/// The deleter of legacy tensors exported by cuprite.
///
/// # Safety
/// As [`delete_versioned`].
unsafe extern "C" fn delete_legacy<T: Element>(p: *mut DLManagedTensor) {
    if !p.is_null() {
        // SAFETY: as in `delete_versioned`.
        drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensor, T>>()) });
    }
}
