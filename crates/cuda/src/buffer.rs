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

use crate::block_cache;
use crate::device::{Cuda, DeviceInner};
use crate::driver::{self, CUdeviceptr};
use crate::graph::Arena;
use crate::stream::LastUse;
use cuprite_core::{Element, Error, Result};
use std::any::Any;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// One device allocation of the pool, freed (stream-ordered) on drop; or memory of another
/// library, released by dropping its owner guard.
pub(crate) struct DeviceMem {
    ptr: CUdeviceptr,
    /// Bytes asked for (counted in [`Cuda::memory_in_use`]).
    bytes: usize,
    /// Bytes allocated: the size class of [`block_cache::class`].
    class: usize,
    dev: Arc<DeviceInner>,
    last: LastUse,
    foreign: Option<Foreign>,
    /// The capture whose memory this is, for memory allocated while a graph was captured
    /// ([`crate::graph`]): the block belongs to the graph's arena, not to the pool.
    arena: Option<Arc<Arena>>,
    /// How many graphs hold this memory (their references do not make a buffer shared:
    /// writes between replays go to the memory the graph reads).
    pub(crate) graph_refs: AtomicUsize,
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
        if let Some(arena) = &self.arena {
            arena.release(self.ptr, self.class);
            return;
        }
        self.dev
            .release_block(self.ptr, self.class, self.last.stream());
    }
}

impl DeviceMem {
    /// The device address (0 for an empty allocation).
    pub(crate) fn addr(&self) -> CUdeviceptr {
        self.ptr
    }

    /// True for an allocation of no bytes.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Whether `arena` owns this memory.
    pub(crate) fn in_arena(&self, arena: &Arc<Arena>) -> bool {
        self.arena.as_ref().is_some_and(|a| Arc::ptr_eq(a, arena))
    }

    /// Orders the memory for work about to be queued on `dev`'s stream ([`LastUse::enter`]).
    pub(crate) fn enter(&self, dev: &Cuda) -> Result<()> {
        self.last.enter(dev).map(|_| ())
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
    /// cuprite's own, or another library's handed over for writing. Graphs that hold the
    /// memory do not count: a write between replays is what they are for. A write to a buffer
    /// that is not unique copies it first (copy-on-write).
    pub(crate) fn is_unique(&self) -> bool {
        Arc::strong_count(&self.mem) == 1 + self.mem.graph_refs.load(Ordering::Relaxed)
            && self.mem.foreign.as_ref().is_none_or(|f| f.writable)
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
                class: len * std::mem::size_of::<T>(),
                dev: dev.inner.clone(),
                last: LastUse::new(dev),
                foreign: Some(Foreign {
                    owner: Box::new(owner),
                    writable,
                }),
                arena: None,
                graph_refs: AtomicUsize::new(0),
            }),
            len,
            _t: PhantomData,
        }
    }
}

impl Cuda {
    /// Allocates `bytes` bytes: from the block cache when this handle queues on the
    /// device's own stream and a block of the size class is cached, from the capture's arena
    /// while a graph is captured on this handle's stream, else from the driver's pool
    /// ([`Cuda::pool_alloc`]).
    pub(crate) fn alloc_bytes(&self, bytes: usize) -> Result<Arc<DeviceMem>> {
        let dev = &self.inner;
        let mem = |ptr, class, arena| {
            Arc::new(DeviceMem {
                ptr,
                bytes,
                class,
                dev: dev.clone(),
                last: LastUse::new(self),
                foreign: None,
                arena,
                graph_refs: AtomicUsize::new(0),
            })
        };
        if bytes == 0 {
            return Ok(mem(0, 0, None));
        }
        let limit = dev.limit.load(Ordering::Relaxed);
        let used = dev.in_use.load(Ordering::Relaxed);
        if limit != 0 && used + bytes > limit {
            return Err(Error::OutOfMemory {
                requested: bytes,
                free: limit.saturating_sub(used),
            });
        }
        let class = block_cache::class(bytes);
        let stream = self.stream();
        if let Some(arena) = dev.capture.arena(stream) {
            let ptr = self.capture_block(&arena, class)?;
            dev.in_use.fetch_add(bytes, Ordering::Relaxed);
            let m = mem(ptr, class, Some(arena.clone()));
            arena.made(&m);
            return Ok(m);
        }
        let cached = if self.on.is_none() {
            dev.cache.take(class)
        } else {
            None
        };
        let ptr = match cached {
            Some(p) => p,
            None => self.pool_alloc(class, stream)?,
        };
        dev.in_use.fetch_add(bytes, Ordering::Relaxed);
        Ok(mem(ptr, class, None))
    }

    /// `bytes` bytes from the driver's pool, queued on `stream`. On out-of-memory the
    /// block cache and the pool's cache are released and the allocation retried once (not
    /// during a graph capture, which cannot wait for the device); a second failure is
    /// [`Error::OutOfMemory`].
    pub(crate) fn pool_alloc(&self, bytes: usize, stream: driver::CUstream) -> Result<CUdeviceptr> {
        let dev = &self.inner;
        self.bind()?;
        match driver::alloc_async(dev.pool.0, bytes, stream) {
            Ok(p) => Ok(p),
            Err(e) if driver::is_oom(&e) && dev.capture.check_idle("alloc").is_ok() => {
                self.free_cached()?;
                match driver::alloc_async(dev.pool.0, bytes, stream) {
                    Ok(p) => Ok(p),
                    Err(e) if driver::is_oom(&e) => {
                        let free = driver::mem_info().map(|m| m.0).unwrap_or(0);
                        Err(Error::OutOfMemory {
                            requested: bytes,
                            free,
                        })
                    }
                    Err(e) => Err(driver::err("alloc")(e)),
                }
            }
            Err(e) => Err(driver::err("alloc")(e)),
        }
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
        self.check_not_capturing("from_vec")?;
        let b = self.alloc::<T>(data.len())?;
        driver::htod(b.device_ptr(), data, self.stream())?;
        Ok(b)
    }

    /// Downloads a whole buffer (blocking).
    pub(crate) fn download<T: Element>(&self, buf: &CudaBuffer<T>) -> Result<Vec<T>> {
        self.check_buffer(buf, "to_vec")?;
        self.check_not_capturing("to_vec")?;
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
        self.touch(&buf.mem)?;
        Ok(buf.device_ptr())
    }

    /// Orders `mem` for work about to be queued on this handle's stream, and while a graph is
    /// captured there, makes the graph hold the memory for as long as it lives.
    fn touch(&self, mem: &Arc<DeviceMem>) -> Result<()> {
        mem.last.enter(self)?;
        self.inner.capture.hold(self.stream(), mem);
        Ok(())
    }

    pub(crate) fn check_buffer<T>(&self, buf: &CudaBuffer<T>, op: &'static str) -> Result<()> {
        if buf.mem.dev.ordinal == self.inner.ordinal {
            self.touch(&buf.mem)
        } else {
            Err(Error::DeviceMismatch {
                op,
                lhs: format!("cuda:{}", self.inner.ordinal),
                rhs: format!("cuda:{}", buf.mem.dev.ordinal),
            })
        }
    }
}
