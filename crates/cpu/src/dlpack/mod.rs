//! DLPack on the `Cpu` backend: `Array<T, Cpu>` to and from DLPack managed tensors (the
//! exchange format of NumPy, PyTorch, CuPy, JAX and others), without copying.
//!
//! - [`sys`], [`ManagedTensor`], [`dtype_to_dl`] / [`dtype_from_dl`]: re-exported from
//!   `cuprite-dlpack`, the crate of what every backend shares (the C structs of `dlpack.h`
//!   1.1, owned managed tensors, the export and import checks).
//! - [`DlpackExt`]: `to_dlpack`, `into_dlpack`, `to_dlpack_legacy` and `from_dlpack` on
//!   `Array<T, Cpu>`.
//!
//! **Export** shares the array's memory: the tensor holds a clone of the buffer, which
//! stays alive until the consumer calls the deleter, whatever happens to the array. Shape
//! and strides (in elements, negative ones included) are the view's; `data` points at the
//! element at index 0 with `byte_offset` 0 (NumPy's and PyTorch's convention; NULL for
//! size 0); the device is `kDLCPU` 0. Copy-on-write means an array never sees another's
//! writes, so the versioned tensor is flagged `READ_ONLY` unless it is the only user of
//! memory cuprite owns ([`DlpackExt::into_dlpack`] of an unshared array).
//!
//! **Import** borrows the producer's memory: the array's buffer keeps the tensor, whose
//! deleter runs when the last array or view using the memory drops. The dtype must be the
//! array's, the device the host's (`kDLCPU`, or the host-visible `kDLCUDAHost`,
//! `kDLROCMHost`, `kDLCUDAManaged`, as NumPy takes), the view must fit (core's
//! [`Layout`](cuprite_core::Layout) checks), and a bool tensor must hold only 0 and 1.
//! Writes copy first (copy-on-write), so the producer's memory is never written — except
//! for a versioned tensor flagged `IS_COPIED` and not `READ_ONLY`, which is the consumer's
//! alone and is written in place.
//!
//! ```
//! use cuprite_core::{s, Array};
//! use cuprite_cpu::dlpack::{DlpackExt, ManagedTensor};
//! use cuprite_cpu::Cpu;
//!
//! let a = Array::<f64, Cpu>::from_vec((0..6).map(f64::from).collect(), &[2, 3], &Cpu)?;
//! let view = a.t().slice(&s![..;-1, ..])?; // shape [3, 2], a negative stride
//! let tensor = view.to_dlpack();
//! assert_eq!(tensor.shape(), &[3, 2]);
//! assert_eq!(tensor.strides(), Some(&[-1, 3][..]));
//! assert!(tensor.is_read_only()); // `a` shares the memory
//!
//! // Through C and back: the pointer a consumer would receive.
//! let raw = tensor.into_raw();
//! let back = unsafe { ManagedTensor::from_raw(raw) }?;
//! let b = Array::<f64, Cpu>::from_dlpack(back)?;
//! assert_eq!(b.to_vec()?, vec![2.0, 5.0, 1.0, 4.0, 0.0, 3.0]);
//! assert!(Array::<f32, Cpu>::from_dlpack(b.to_dlpack()).is_err()); // float64, not float32
//! # Ok::<(), cuprite_core::Error>(())
//! ```

mod import;

pub use cuprite_dlpack::{dtype_from_dl, dtype_to_dl, sys, ManagedTensor, RawTensor};

use crate::{Cpu, CpuBuffer};
use cuprite_core::{Array, Element, Layout, Result};
use cuprite_dlpack::sys::{DLDevice, DLDeviceType};
use cuprite_dlpack::Form;

/// DLPack for `Array<T, Cpu>`: export without copying, import without copying.
pub trait DlpackExt: Sized {
    /// The array as a versioned (DLPack 1.1) managed tensor sharing its memory, flagged
    /// `READ_ONLY` (the array keeps sharing the memory, and cuprite arrays never see one
    /// another's writes).
    fn to_dlpack(&self) -> ManagedTensor;

    /// The array as a versioned managed tensor, consuming it: when no other array shares
    /// the memory, it is cuprite's own and the view reaches no element twice, the consumer
    /// may write it (no `READ_ONLY` flag); otherwise as [`DlpackExt::to_dlpack`].
    fn into_dlpack(self) -> ManagedTensor;

    /// The array as a legacy `DLManagedTensor` sharing its memory, for consumers that take
    /// only that struct. It has no flags to say so, but the consumer must not write it.
    fn to_dlpack_legacy(&self) -> ManagedTensor;

    /// An array over the tensor's memory, without copying (see the [module](self) docs); the
    /// tensor's deleter runs once, when the last array using the memory drops, or at once
    /// on `Err` or for a tensor of size 0.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](cuprite_core::Error::InvalidArgument) naming `from_dlpack`
    /// for a dtype other than `T`'s (the message names both), memory that is not the
    /// host's, a view that does not fit or is not aligned for `T`, a NULL data pointer, or
    /// a bool byte other than 0 and 1; [`Error::TooBig`](cuprite_core::Error::TooBig) for a
    /// shape over `isize::MAX` bytes.
    fn from_dlpack(tensor: ManagedTensor) -> Result<Self>;
}

impl<T: Element> DlpackExt for Array<T, Cpu> {
    fn to_dlpack(&self) -> ManagedTensor {
        export(self.buffer().clone(), self.layout(), Form::Versioned, false)
    }

    fn into_dlpack(self) -> ManagedTensor {
        let layout = self.layout().clone();
        let buf = self.buffer().clone();
        drop(self); // the clone may now be the only one
        export(buf, &layout, Form::Versioned, true)
    }

    fn to_dlpack_legacy(&self) -> ManagedTensor {
        export(self.buffer().clone(), self.layout(), Form::Legacy, false)
    }

    fn from_dlpack(tensor: ManagedTensor) -> Result<Self> {
        import::import(tensor)
    }
}

/// Exports `buf` seen through `layout` (which fits it) on `kDLCPU` 0. With `writable`, and
/// when the buffer is not shared, is cuprite's own and no element is reached twice, the
/// tensor is writable; otherwise it is flagged read-only (the legacy struct has no flag: see
/// [`DlpackExt::to_dlpack_legacy`]).
fn export<T: Element>(
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
    let cpu = DLDevice {
        device_type: DLDeviceType::CPU,
        device_id: 0,
    };
    // SAFETY: `layout` fits the buffer, whose elements are valid `T`s in host memory kept
    // alive by the clone the tensor owns; a writable tensor's memory is reached through no
    // other clone (`unique_mut_ptr`) and no element twice, so the consumer alone uses it.
    unsafe { cuprite_dlpack::export(buf, base.cast(), layout, T::DTYPE, cpu, form, read_only) }
}

#[cfg(test)]
mod tests;
