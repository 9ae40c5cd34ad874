//! Export of memory a backend owns as a DLPack managed tensor, without copying: one heap
//! block holds the managed struct (first, so that a pointer to the block is a pointer to the
//! struct), the backend's *owner* (a clone of the array's buffer) that keeps the memory
//! alive, and the shape and strides the struct points to. The deleter frees the block,
//! dropping the owner.
//!
//! ```
//! use cuprite_core::{DType, Layout};
//! use cuprite_dlpack::sys::{DLDevice, DLDeviceType};
//! use cuprite_dlpack::{export, Form};
//!
//! let data: Vec<f32> = (0..6).map(|i| i as f32).collect();
//! let view = Layout::contiguous(&[2, 3]).transposed(); // shape [3, 2], strides [1, 3]
//! let cpu = DLDevice { device_type: DLDeviceType::CPU, device_id: 0 };
//! let base = data.as_ptr().cast_mut().cast();
//! // SAFETY: the owner (the vector itself) keeps the 6 elements alive and unwritten.
//! let t = unsafe { export(data, base, &view, DType::F32, cpu, Form::Versioned, true) };
//! assert_eq!((t.shape(), t.strides()), (&[3, 2][..], Some(&[1, 3][..])));
//! assert!(t.is_read_only());
//! drop(t); // the deleter drops the vector
//! ```

use crate::managed::{ManagedTensor, RawTensor};
use crate::sys::{
    DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor,
    DLPACK_FLAG_BITMASK_READ_ONLY,
};
use cuprite_core::{DType, Layout};
use std::ffi::c_void;
use std::ptr::{null_mut, NonNull};

/// The heap block behind an exported tensor; `M` is one of the two managed structs.
#[repr(C)]
struct Exported<M, O> {
    managed: M,
    /// Keeps the memory alive until the deleter drops it (a clone of the array's buffer).
    _owner: O,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

/// Which struct to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `DLManagedTensorVersioned` (DLPack 1.x: version and flags).
    Versioned,
    /// The legacy `DLManagedTensor`, for consumers that take only that struct. It has no
    /// flags: a consumer cannot be told not to write it.
    Legacy,
}

/// A managed tensor over the view `layout` of memory whose element at buffer index 0 is at
/// `base` (a host or device address), of elements of `dtype`, on `device`. `owner` keeps the
/// memory alive: it is dropped, on whatever thread the consumer calls the deleter from, when
/// the deleter runs. A versioned tensor is flagged `READ_ONLY` when `read_only`.
///
/// `data` is the address of the element at index 0 (`base` plus the layout's offset) with
/// `byte_offset` 0, or NULL for a view of size 0; shape and strides (in elements, negative
/// ones included) are the layout's, owned by the tensor.
///
/// # Safety
/// Every element the view reaches from `base` is memory of `device` holding a valid value
/// of `dtype`, and stays so until `owner` drops; when `read_only` is false (or for
/// [`Form::Legacy`], whose consumers may write anyway), nobody but the consumer reads or
/// writes it meanwhile. Consumers in this process (a backend's `from_dlpack`) trust the
/// tensor as [`ManagedTensor::from_raw`]'s contract says.
pub unsafe fn export<O: Send + 'static>(
    owner: O,
    base: *mut c_void,
    layout: &Layout,
    dtype: DType,
    device: DLDevice,
    form: Form,
    read_only: bool,
) -> ManagedTensor {
    // DLPack asks for NULL data in a tensor of size 0. Otherwise `data` points at the element
    // at index 0 with `byte_offset` 0, as NumPy, PyTorch and CuPy export (the header notes
    // that consumers should not expect another convention); the offset is inside the
    // memory because the layout fits it, so `wrapping_add` stays in the allocation.
    let data = if layout.size() == 0 {
        null_mut()
    } else {
        base.cast::<u8>()
            .wrapping_add(layout.offset() * dtype.size_of())
            .cast::<c_void>()
    };
    let tensor = DLTensor {
        data,
        device,
        ndim: layout.ndim() as i32,
        dtype: crate::dtype_to_dl(dtype),
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
                deleter: Some(delete_versioned::<O>),
                flags: if read_only {
                    DLPACK_FLAG_BITMASK_READ_ONLY
                } else {
                    0
                },
                dl_tensor: tensor,
            };
            let p = into_block(managed, owner, shape, strides);
            ManagedTensor::from_exported(RawTensor::Versioned(p))
        }
        Form::Legacy => {
            let managed = DLManagedTensor {
                dl_tensor: tensor,
                manager_ctx: null_mut(),
                deleter: Some(delete_legacy::<O>),
            };
            let p = into_block(managed, owner, shape, strides);
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
fn into_block<M: Managed, O>(
    managed: M,
    owner: O,
    shape: Vec<i64>,
    strides: Vec<i64>,
) -> NonNull<M> {
    let mut block = NonNull::from(Box::leak(Box::new(Exported {
        managed,
        _owner: owner,
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
/// `p` came from [`export`] with this `O` and has not been deleted.
unsafe extern "C" fn delete_versioned<O>(p: *mut DLManagedTensorVersioned) {
    if !p.is_null() {
        // SAFETY: the contract: `p` is the address of a live `Exported<_, O>` block made by
        // `Box::into_raw` (its first field, so the same address), freed only here, once.
        drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensorVersioned, O>>()) });
    }
}

/// The deleter of legacy tensors exported by cuprite.
///
/// # Safety
/// As [`delete_versioned`].
unsafe extern "C" fn delete_legacy<O>(p: *mut DLManagedTensor) {
    if !p.is_null() {
        // SAFETY: as in `delete_versioned`.
        drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensor, O>>()) });
    }
}
