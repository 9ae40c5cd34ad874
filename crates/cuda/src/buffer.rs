//! [`CudaBuffer`]: device memory shared by every view of an array, allocated from the
//! device's stream-ordered pool and returned to it (stream-ordered) when the last view drops.
//!
//! Each allocation remembers the stream that last used it ([`LastUse`]); the free is queued on
//! that stream, after everything that touched the memory (uses on other streams were ordered
//! before it when they changed hands). Work of one stream records no events at all (cudarc's
//! event tracking would add two event records to every allocation).
//!
//! A buffer may also view memory of another library (a DLPack producer, see
//! [`crate::dlpack`]): it then holds the producer's owner guard instead of a pool
//! allocation, counts nothing in [`Cuda::memory_in_use`], and when the last view drops it
//! waits for the stream that last used the memory before it drops the guard (which calls the
//! producer's deleter). Such memory is written in place only when the producer handed it
//! over for writing; otherwise the first write copies it ([`CudaBuffer::is_unique`]).

use crate::device::{Cuda, DeviceInner};
use crate::driver::{self, CUdeviceptr};
use crate::stream::LastUse;
use cuprite_core::{Element, Error, Result};
use std::any::Any;
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// One device allocation of the pool, freed (stream-ordered) on drop; or memory of another
/// library, released by dropping its owner guard.
pub(crate) struct DeviceMem {
    ptr: CUdeviceptr,
    bytes: usize,
    dev: Arc<DeviceInner>,
    last: LastUse,
    foreign: Option<Foreign>,
}

/// The owner guard of another library's memory.
struct Foreign {
    /// Dropped (releasing the memory) after the last use of the memory has completed.
    owner: Box<dyn Any + Send + Sync>,
    /// The producer handed the memory over for writing.
    writable: bool,
}

impl Drop for DeviceMem {
    fn drop(&mut self) {
        if let Some(f) = self.foreign.take() {
            // The producer may free or reuse the memory as soon as its guard drops: wait
            // for the work queued on it first. A failure means the context is gone, and
            // with it the work.
            if driver::make_current(self.dev.ctx.0).is_ok() {
                let _ = driver::stream_sync(self.last.stream());
            }
            drop(f.owner);
            return;
        }
        if self.bytes == 0 {
            return;
        }
        self.dev.in_use.fetch_sub(self.bytes, Ordering::Relaxed);
        // A failure here means the context is gone (process teardown): nothing to free.
        if driver::make_current(self.dev.ctx.0).is_ok() {
            let _ = driver::free_async(self.ptr, self.last.stream());
        }
    }
}

/// The CUDA backend's buffer: `len` elements of `T` in device memory, reference-counted.
pub struct CudaBuffer<T> {
    mem: Arc<DeviceMem>,
    len: usize,
    _t: PhantomData<T>,
}

impl<T> Clone for CudaBuffer<T> {
    fn clone(&self) -> Self {
        CudaBuffer {
            mem: self.mem.clone(),
            len: self.len,
            _t: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for CudaBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CudaBuffer(cuda:{}, {} elements)",
            self.mem.dev.ordinal, self.len
        )
    }
}

impl<T: Element> CudaBuffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The device address of element 0 (0 for an empty buffer).
    pub fn device_ptr(&self) -> u64 {
        self.mem.ptr
    }
    /// True when no other buffer shares the memory and it may be written in place: it is
    /// cuprite's own, or another library's handed over for writing. A write to a buffer
    /// that is not unique copies it first (copy-on-write).
    pub(crate) fn is_unique(&self) -> bool {
        Arc::strong_count(&self.mem) == 1 && self.mem.foreign.as_ref().is_none_or(|f| f.writable)
    }

    /// The same memory as bytes (any byte is a valid `u8`), shared like a clone.
    pub(crate) fn as_bytes(&self) -> CudaBuffer<u8> {
        CudaBuffer {
            mem: self.mem.clone(),
            len: self.len * std::mem::size_of::<T>(),
            _t: PhantomData,
        }
    }

    /// True when the memory is another library's (imported through DLPack) and not copied.
    pub fn is_foreign(&self) -> bool {
        self.mem.foreign.is_some()
    }

    /// The stream that last used the memory (its pending work touches the memory).
    pub(crate) fn last_stream(&self) -> driver::CUstream {
        self.mem.last.stream()
    }

    /// A buffer over `len` elements of another library's device memory at `ptr`, without
    /// copying; `owner` is dropped (releasing the memory) when the last array using the
    /// buffer drops, after the work queued on the memory has completed. Work on it queues on
    /// `dev`'s stream first.
    ///
    /// # Safety
    /// `ptr` is the address of `len` elements of `T` (valid values, `ptr` aligned for `T`)
    /// in memory of `dev`'s device that the current context reaches, and stays so until
    /// `owner` drops; work queued on `dev`'s stream from now on sees every write made to it
    /// so far; nobody writes it meanwhile; with `writable`, nobody else reads it either.
    pub(crate) unsafe fn from_foreign<O: Any + Send + Sync>(
        dev: &Cuda,
        ptr: CUdeviceptr,
        len: usize,
        owner: O,
        writable: bool,
    ) -> CudaBuffer<T> {
        CudaBuffer {
            mem: Arc::new(DeviceMem {
                ptr,
                bytes: len * std::mem::size_of::<T>(),
                dev: dev.inner.clone(),
                last: LastUse::new(dev),
                foreign: Some(Foreign {
                    owner: Box::new(owner),
                    writable,
                }),
            }),
            len,
            _t: PhantomData,
        }
    }
}

impl Cuda {
    /// Allocates `bytes` bytes from the pool. On out-of-memory the pool's cache is released
    /// and the allocation retried once; a second failure is [`Error::OutOfMemory`].
    pub(crate) fn alloc_bytes(&self, bytes: usize) -> Result<Arc<DeviceMem>> {
        let dev = &self.inner;
        if bytes == 0 {
            return Ok(Arc::new(DeviceMem {
                ptr: 0,
                bytes: 0,
                dev: dev.clone(),
                last: LastUse::new(self),
                foreign: None,
            }));
        }
        let limit = dev.limit.load(Ordering::Relaxed);
        let used = dev.in_use.load(Ordering::Relaxed);
        if limit != 0 && used + bytes > limit {
            return Err(Error::OutOfMemory {
                requested: bytes,
                free: limit.saturating_sub(used),
            });
        }
        self.bind()?;
        let stream = self.stream();
        let ptr = match driver::alloc_async(dev.pool.0, bytes, stream) {
            Ok(p) => p,
            Err(e) if driver::is_oom(&e) => {
                driver::ctx_sync()?;
                driver::pool_trim(dev.pool.0, 0)?;
                match driver::alloc_async(dev.pool.0, bytes, stream) {
                    Ok(p) => p,
                    Err(e) if driver::is_oom(&e) => {
                        let free = driver::mem_info().map(|m| m.0).unwrap_or(0);
                        return Err(Error::OutOfMemory {
                            requested: bytes,
                            free,
                        });
                    }
                    Err(e) => return Err(driver::err("alloc")(e)),
                }
            }
            Err(e) => return Err(driver::err("alloc")(e)),
        };
        dev.in_use.fetch_add(bytes, Ordering::Relaxed);
        Ok(Arc::new(DeviceMem {
            ptr,
            bytes,
            dev: dev.clone(),
            last: LastUse::new(self),
            foreign: None,
        }))
    }

    /// A new buffer of `len` uninitialised elements (every caller writes all of them before
    /// the buffer is read).
    pub(crate) fn alloc<T: Element>(&self, len: usize) -> Result<CudaBuffer<T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| Error::invalid("alloc", format!("{len} elements overflow usize")))?;
        Ok(CudaBuffer {
            mem: self.alloc_bytes(bytes)?,
            len,
            _t: PhantomData,
        })
    }

    /// A new buffer of `len` zero bytes (all-zero bits: 0, 0.0, false).
    pub(crate) fn alloc_zeroed<T: Element>(&self, len: usize) -> Result<CudaBuffer<T>> {
        let b = self.alloc::<T>(len)?;
        driver::memset_u8(
            b.device_ptr(),
            0,
            len * std::mem::size_of::<T>(),
            self.stream(),
        )?;
        Ok(b)
    }

    /// Uploads host data into a new buffer.
    pub(crate) fn upload<T: Element>(&self, data: &[T]) -> Result<CudaBuffer<T>> {
        let b = self.alloc::<T>(data.len())?;
        driver::htod(b.device_ptr(), data, self.stream())?;
        Ok(b)
    }

    /// Downloads a whole buffer (blocking).
    pub(crate) fn download<T: Element>(&self, buf: &CudaBuffer<T>) -> Result<Vec<T>> {
        self.check_buffer(buf, "to_vec")?;
        self.bind()?;
        let mut out = vec![T::ZERO; buf.len];
        driver::dtoh(&mut out, self.ptr(buf)?, self.stream())?;
        Ok(out)
    }

    /// Copies `len` elements from `src[src_off..]` to `dst[dst_off..]` on the stream.
    pub(crate) fn copy_elems<T: Element>(
        &self,
        dst: &CudaBuffer<T>,
        dst_off: usize,
        src: &CudaBuffer<T>,
        src_off: usize,
        len: usize,
    ) -> Result<()> {
        let sz = std::mem::size_of::<T>();
        driver::dtod(
            self.ptr(dst)? + (dst_off * sz) as u64,
            self.ptr(src)? + (src_off * sz) as u64,
            len * sz,
            self.stream(),
        )
    }

    /// Checks that a buffer lives on this device.
    /// The device address of `buf` for work about to be queued on this handle's stream.
    /// Every pointer of an array's buffer that a kernel or library call receives (read or
    /// written) is taken through here: this is where work on another stream that touched the
    /// buffer is ordered before the work about to be queued.
    pub(crate) fn ptr<T: Element>(&self, buf: &CudaBuffer<T>) -> Result<u64> {
        buf.mem.last.enter(self)?;
        Ok(buf.device_ptr())
    }

    pub(crate) fn check_buffer<T>(&self, buf: &CudaBuffer<T>, op: &'static str) -> Result<()> {
        if buf.mem.dev.ordinal == self.inner.ordinal {
            buf.mem.last.enter(self).map(|_| ())
        } else {
            Err(Error::DeviceMismatch {
                op,
                lhs: format!("cuda:{}", self.inner.ordinal),
                rhs: format!("cuda:{}", buf.mem.dev.ordinal),
            })
        }
    }
}
