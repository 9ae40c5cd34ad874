//! [`ManagedTensor`]: an owned DLPack managed tensor, legacy or versioned. It checks the
//! structure on the way in (version, rank, shape pointer, extents), reads the fields through
//! safe accessors, and calls the producer's deleter exactly once: when it drops, or when an
//! array made from it drops its last clone. The raw pointers cross here, in
//! [`ManagedTensor::from_raw`] and [`ManagedTensor::into_raw`].

use crate::sys::{
    DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor,
    DLPACK_FLAG_BITMASK_IS_COPIED, DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_MAJOR_VERSION,
};
use cuprite_core::layout::MAX_NDIM;
use cuprite_core::{DType, Error, Result};
use std::fmt;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;

/// A managed tensor as C hands it over: a pointer to either struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawTensor {
    /// A `DLManagedTensor *` (the legacy struct, no version or flags).
    Legacy(NonNull<DLManagedTensor>),
    /// A `DLManagedTensorVersioned *` (DLPack 1.x).
    Versioned(NonNull<DLManagedTensorVersioned>),
}

/// An owned DLPack managed tensor, legacy or versioned: the memory of another library (or an
/// array of cuprite's, exported) with its shape, strides, dtype and device, and the
/// deleter that releases it. Dropping it calls the deleter, exactly once.
///
/// Get one from a C pointer with [`ManagedTensor::from_raw`] (or the `_versioned` / `_legacy`
/// shorthands), or from an array with a backend's `DlpackExt::to_dlpack` (built on
/// [`export()`](crate::export())); turn it into an array with a backend's
/// `DlpackExt::from_dlpack`, or hand it to C with [`ManagedTensor::into_raw`].
pub struct ManagedTensor {
    raw: RawTensor,
}

// SAFETY: a managed tensor is plain memory plus a deleter. `&ManagedTensor` only reads the
// struct's fields (which nobody writes while the consumer owns the tensor), and DLPack lets
// the consumer call the deleter when it is done, from the thread it is on: producers make
// their deleters callable from any thread (NumPy's and PyTorch's take the GIL; cuprite's drop
// an `Arc`). `from_raw`'s contract states this for tensors from elsewhere.
unsafe impl Send for ManagedTensor {}
// SAFETY: as for `Send` above.
unsafe impl Sync for ManagedTensor {}

/// Calls the deleter of a versioned tensor, if it has one.
///
/// # Safety
/// `p` is a live `DLManagedTensorVersioned` owned by the caller, whose deleter has not been
/// called; it is dangling afterwards. Any major version: `dlpack.h` keeps `version`,
/// `manager_ctx` and `deleter` where they are in every ABI.
unsafe fn release_versioned(p: NonNull<DLManagedTensorVersioned>) {
    // SAFETY: the caller's contract: `p` is live and its deleter is ours to call, once.
    unsafe {
        if let Some(deleter) = (*p.as_ptr()).deleter {
            deleter(p.as_ptr());
        }
    }
}

/// Calls the deleter of a legacy tensor, if it has one.
///
/// # Safety
/// As [`release_versioned`].
unsafe fn release_legacy(p: NonNull<DLManagedTensor>) {
    // SAFETY: the caller's contract: `p` is live and its deleter is ours to call, once.
    unsafe {
        if let Some(deleter) = (*p.as_ptr()).deleter {
            deleter(p.as_ptr());
        }
    }
}

impl ManagedTensor {
    /// Takes ownership of a managed tensor handed over by C (a DLPack producer), after
    /// checking its structure: the major version of a versioned tensor (1), a rank between 0
    /// and 64, a shape pointer when the rank is not 0, no negative extent.
    ///
    /// The tensor is consumed in every case: on `Ok` the `ManagedTensor` owns it, on `Err` its
    /// deleter has already been called (as `dlpack.h` asks for a tensor of another major
    /// version).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `from_dlpack` for a null pointer, another major
    /// version, a rank over 64 or negative, a null shape, or a negative extent.
    ///
    /// # Safety
    /// - the pointer is a live managed tensor of the struct it says, as `dlpack.h` describes
    ///   it, whose ownership passes to the caller (its deleter, when not NULL, has not been
    ///   called and may be called once, from any thread);
    /// - its `shape` (and `strides`, when not NULL) point to `ndim` integers that stay
    ///   valid until the deleter is called;
    /// - every byte from the lowest to the highest element the tensor reaches, through its
    ///   shape, strides and `data + byte_offset`, is allocated and initialised and holds a
    ///   valid value of the element type when read as such, and stays so until the deleter
    ///   is called;
    /// - nobody writes that memory while the tensor (or an array made from it) lives, except
    ///   through the array when the versioned flags say `IS_COPIED` and not `READ_ONLY`
    ///   (then the memory is the consumer's alone).
    pub unsafe fn from_raw(raw: RawTensor) -> Result<Self> {
        if let RawTensor::Versioned(p) = raw {
            // SAFETY: the caller's contract: `p` is live; `version` is readable in every ABI.
            let version = unsafe { (*p.as_ptr()).version };
            if version.major != DLPACK_MAJOR_VERSION {
                // SAFETY: the tensor is ours and live; `dlpack.h` says to call the deleter
                // (and that it is safe to) of a tensor of another major version.
                unsafe { release_versioned(p) };
                return Err(Error::invalid(
                    "from_dlpack",
                    format!(
                        "DLPack version {}.{} has another ABI than the version {}.x cuprite \
                         reads; the tensor was released",
                        version.major, version.minor, DLPACK_MAJOR_VERSION
                    ),
                ));
            }
        }
        // From here on a drop (`?` included) releases the tensor.
        let t = ManagedTensor { raw };
        t.check_structure()?;
        Ok(t)
    }

    /// [`ManagedTensor::from_raw`] of a `DLManagedTensorVersioned *`.
    ///
    /// # Errors
    /// As [`ManagedTensor::from_raw`].
    ///
    /// # Safety
    /// As [`ManagedTensor::from_raw`].
    pub unsafe fn from_raw_versioned(ptr: *mut DLManagedTensorVersioned) -> Result<Self> {
        let p = NonNull::new(ptr).ok_or_else(null_pointer)?;
        // SAFETY: the caller's contract is `from_raw`'s.
        unsafe { Self::from_raw(RawTensor::Versioned(p)) }
    }

    /// [`ManagedTensor::from_raw`] of a legacy `DLManagedTensor *`.
    ///
    /// # Errors
    /// As [`ManagedTensor::from_raw`].
    ///
    /// # Safety
    /// As [`ManagedTensor::from_raw`].
    pub unsafe fn from_raw_legacy(ptr: *mut DLManagedTensor) -> Result<Self> {
        let p = NonNull::new(ptr).ok_or_else(null_pointer)?;
        // SAFETY: the caller's contract is `from_raw`'s.
        unsafe { Self::from_raw(RawTensor::Legacy(p)) }
    }

    /// A tensor cuprite made (its deleter and fields are cuprite's own, see `export.rs`).
    pub(crate) fn from_exported(raw: RawTensor) -> Self {
        ManagedTensor { raw }
    }

    /// Gives the tensor to C: the receiver owns it and calls its deleter once (a tensor
    /// exported by cuprite keeps the array's memory alive until then).
    pub fn into_raw(self) -> RawTensor {
        // No drop, so no deleter call: the receiver owns the tensor now.
        ManuallyDrop::new(self).raw
    }

    /// The plain tensor: data pointer, device, rank, dtype, shape and strides pointers,
    /// byte offset.
    pub fn dl_tensor(&self) -> &DLTensor {
        // SAFETY: the struct is live while `self` is (checked or made by cuprite on the way
        // in, released only by `Drop`), and nobody writes it meanwhile (`from_raw`).
        unsafe {
            match self.raw {
                RawTensor::Legacy(p) => &(*p.as_ptr()).dl_tensor,
                RawTensor::Versioned(p) => &(*p.as_ptr()).dl_tensor,
            }
        }
    }

    /// The version of a versioned tensor, `None` for a legacy one.
    pub fn version(&self) -> Option<DLPackVersion> {
        match self.raw {
            RawTensor::Legacy(_) => None,
            // SAFETY: as in `dl_tensor`.
            RawTensor::Versioned(p) => Some(unsafe { (*p.as_ptr()).version }),
        }
    }

    /// The `DLPACK_FLAG_BITMASK_*` flags of a versioned tensor (0 for a legacy one).
    pub fn flags(&self) -> u64 {
        match self.raw {
            RawTensor::Legacy(_) => 0,
            // SAFETY: as in `dl_tensor`.
            RawTensor::Versioned(p) => unsafe { (*p.as_ptr()).flags },
        }
    }

    /// True when the producer forbids writes (`DLPACK_FLAG_BITMASK_READ_ONLY`). A legacy
    /// tensor cannot say so: it reads as writable, and a cuprite array made from it copies
    /// on its first write all the same.
    pub fn is_read_only(&self) -> bool {
        self.flags() & DLPACK_FLAG_BITMASK_READ_ONLY != 0
    }

    /// True when the producer made a copy for the consumer alone
    /// (`DLPACK_FLAG_BITMASK_IS_COPIED`).
    pub fn is_copied(&self) -> bool {
        self.flags() & DLPACK_FLAG_BITMASK_IS_COPIED != 0
    }

    /// Where the memory lives.
    pub fn device(&self) -> DLDevice {
        self.dl_tensor().device
    }

    /// The element type as DLPack describes it.
    pub fn dl_dtype(&self) -> DLDataType {
        self.dl_tensor().dtype
    }

    /// The element type as cuprite names it, `None` for one cuprite has no type for (use it
    /// to choose `T` of a backend's `DlpackExt::from_dlpack`).
    pub fn dtype(&self) -> Option<DType> {
        crate::dtype_from_dl(self.dl_dtype())
    }

    /// The extents (none for a 0-d tensor).
    pub fn shape(&self) -> &[i64] {
        let t = self.dl_tensor();
        if t.ndim <= 0 {
            return &[];
        }
        // SAFETY: `ndim` is in 1..=MAX_NDIM and `shape` not null (checked on the way in, or
        // cuprite's own export); the caller of `from_raw` promised `ndim` live integers.
        unsafe { std::slice::from_raw_parts(t.shape, t.ndim as usize) }
    }

    /// The strides in elements, `None` when the producer left them NULL (a C-contiguous
    /// tensor).
    pub fn strides(&self) -> Option<&[i64]> {
        let t = self.dl_tensor();
        if t.strides.is_null() {
            return None;
        }
        if t.ndim <= 0 {
            return Some(&[]);
        }
        // SAFETY: as in `shape`: a non-null `strides` points to `ndim` live integers.
        Some(unsafe { std::slice::from_raw_parts(t.strides, t.ndim as usize) })
    }

    /// The byte offset from the data pointer to the element at index 0.
    pub fn byte_offset(&self) -> u64 {
        self.dl_tensor().byte_offset
    }

    /// The data pointer (without `byte_offset`).
    pub fn data_ptr(&self) -> *mut std::ffi::c_void {
        self.dl_tensor().data
    }

    /// Rank, shape pointer and extents, checked once so that the accessors may trust them.
    fn check_structure(&self) -> Result<()> {
        let t = self.dl_tensor();
        if t.ndim < 0 || t.ndim as usize > MAX_NDIM {
            return Err(Error::invalid(
                "from_dlpack",
                format!(
                    "a tensor of {} dimensions (cuprite takes 0 to {MAX_NDIM})",
                    t.ndim
                ),
            ));
        }
        if t.ndim > 0 && t.shape.is_null() {
            return Err(Error::invalid(
                "from_dlpack",
                format!("a tensor of {} dimensions with a NULL shape", t.ndim),
            ));
        }
        if let Some(d) = self.shape().iter().find(|&&d| d < 0) {
            return Err(Error::invalid(
                "from_dlpack",
                format!("shape {:?} has a negative extent {d}", self.shape()),
            ));
        }
        Ok(())
    }
}

fn null_pointer() -> Error {
    Error::invalid("from_dlpack", "a NULL managed tensor")
}

impl Drop for ManagedTensor {
    fn drop(&mut self) {
        // SAFETY: `self` owns the live tensor (`from_raw`'s contract, or cuprite's export),
        // and `Drop` runs once; `into_raw` keeps `self` from dropping instead.
        unsafe {
            match self.raw {
                RawTensor::Legacy(p) => release_legacy(p),
                RawTensor::Versioned(p) => release_versioned(p),
            }
        }
    }
}

impl fmt::Debug for ManagedTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagedTensor")
            .field("version", &self.version())
            .field("device", &self.device())
            .field("dtype", &self.dl_dtype())
            .field("shape", &self.shape())
            .field("strides", &self.strides())
            .field("byte_offset", &self.byte_offset())
            .field("flags", &self.flags())
            .finish()
    }
}
