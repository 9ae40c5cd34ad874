//! Page-locked (pinned) host memory: [`PinnedAlloc`], an allocation of `cuMemHostAlloc`
//! freed by `cuMemFreeHost` on drop, and the asynchronous copies between it and device
//! memory (`cuMemcpyHtoDAsync` / `cuMemcpyDtoHAsync` from and into page-locked memory
//! return before the copy is done; the DMA engine reads or writes the host memory later).
//!
//! The copies are `unsafe`: while one is in flight the host must not write the memory (nor
//! read it, for a copy into it) nor free it. [`crate::pinned`] keeps that promise with an
//! event recorded after every copy, waited on before any host access and before the drop.

use super::driver::{err, make_current, CUdeviceptr, CUstream, Ctx};
use cudarc::driver::{result, sys};
use cuprite_core::{Element, Error, Result};
use std::ffi::c_void;
use std::ptr::NonNull;

/// `len` elements of `T` in page-locked host memory, portable to every context (usable by
/// copies of any device), zero-initialised, freed on drop.
pub(crate) struct PinnedAlloc<T> {
    ptr: NonNull<T>,
    len: usize,
    /// The context that allocated the memory, made current to free it.
    ctx: Ctx,
}

// SAFETY: a `PinnedAlloc<T>` owns its memory as a `Vec<T>` owns its heap block: the raw
// pointer is never shared with another owner, and access goes through `&self` / `&mut self`
// (shared reads or one writer), so it may move or be shared across threads exactly when
// `T` may.
unsafe impl<T: Send> Send for PinnedAlloc<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for PinnedAlloc<T> {}

impl<T: Element> PinnedAlloc<T> {
    /// `len` zeroed elements of page-locked memory (`CU_MEMHOSTALLOC_PORTABLE`); `ctx` is
    /// current on the calling thread. Zero elements allocate nothing.
    pub(crate) fn zeroed(len: usize, ctx: Ctx) -> Result<PinnedAlloc<T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::invalid(
                    "PinnedBuffer::new",
                    format!("{len} elements of {} overflow the address space", T::DTYPE),
                )
            })?;
        if bytes == 0 {
            return Ok(PinnedAlloc {
                ptr: NonNull::dangling(),
                len,
                ctx,
            });
        }
        // SAFETY: allocates `bytes` bytes; the pointer is owned by the returned value.
        let raw =
            unsafe { result::malloc_host(bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }.map_err(|e| {
                match e.0 {
                    sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => Error::OutOfMemory {
                        requested: bytes,
                        free: 0,
                    },
                    _ => err("PinnedBuffer::new")(e),
                }
            })?;
        let ptr = NonNull::new(raw.cast::<T>())
            .ok_or_else(|| Error::invalid("PinnedBuffer::new", "cuMemHostAlloc returned NULL"))?;
        // SAFETY: `ptr` is the start of a fresh allocation of `bytes` bytes (page-aligned,
        // so aligned for `T`); all-zero bits are a valid value of every element type
        // (false, 0, 0.0, 0 + 0i).
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        Ok(PinnedAlloc { ptr, len, ctx })
    }

    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The elements. The caller has waited for every copy into the memory.
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: `len` initialised elements (zeroed at allocation, written since only as
        // `T`) start at the aligned, non-null `ptr` and live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The elements, for writing. The caller has waited for every copy from or into the
    /// memory.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Queues on `stream` the copy of elements `start..start + len` to the device address
    /// `dst`; returns before the copy runs.
    ///
    /// # Safety
    /// `dst` is device memory valid for `len` elements of `T` until the copy completes, and
    /// until then the host does not write these elements nor free the allocation.
    pub(crate) unsafe fn htod_async(
        &self,
        start: usize,
        len: usize,
        dst: CUdeviceptr,
        stream: CUstream,
    ) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        let src = &self.as_slice()[start..start + len];
        // SAFETY: the caller's contract; `src` is page-locked, so the driver reads it
        // asynchronously, after this returns.
        unsafe { result::memcpy_htod_async(dst, src, stream) }.map_err(err("upload"))
    }

    /// Queues on `stream` the copy of `len` elements at the device address `src` into
    /// elements `start..start + len`; returns before the copy runs.
    ///
    /// # Safety
    /// `src` is device memory holding `len` valid elements of `T` until the copy completes,
    /// and until then the host does not read or write these elements nor free the
    /// allocation.
    pub(crate) unsafe fn dtoh_async(
        &mut self,
        start: usize,
        len: usize,
        src: CUdeviceptr,
        stream: CUstream,
    ) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        let dst = &mut self.as_mut_slice()[start..start + len];
        // SAFETY: the caller's contract; `dst` is page-locked, so the driver writes it
        // asynchronously, after this returns, with valid elements of `T`.
        unsafe { result::memcpy_dtoh_async(dst, src, stream) }.map_err(err("download"))
    }
}

impl<T> Drop for PinnedAlloc<T> {
    fn drop(&mut self) {
        if self.len == 0 || std::mem::size_of::<T>() == 0 {
            return;
        }
        // A failure cannot be reported: the memory then stays allocated (a leak, never a
        // free of memory a copy may still use).
        if make_current(self.ctx.0).is_ok() {
            // SAFETY: the pointer came from `cuMemHostAlloc`, is owned by this value alone
            // and freed once, here; the owner ([`crate::pinned`]) has waited for every copy
            // that used it.
            let _ = unsafe { result::free_host(self.ptr.as_ptr().cast::<c_void>()) };
        }
    }
}
