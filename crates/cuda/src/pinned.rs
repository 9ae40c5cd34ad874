//! Page-locked host memory and asynchronous transfers: [`PinnedBuffer`], a host buffer the
//! GPU's copy engines read and write directly, and [`PinnedExt`], uploads and downloads
//! through it that return at once and overlap with work on other streams.
//!
//! A copy from pageable memory (a `Vec`, what [`Array::from_vec`] and [`Array::to_vec`]
//! take) is staged by the driver through a bounce buffer and blocks the host; a copy from
//! page-locked memory is a DMA transfer queued on a stream like a kernel, at the link's
//! full bandwidth. Queue it on a stream of its own ([`Cuda::with_stream`]) and it runs while
//! kernels of other streams compute.
//!
//! **Safe by construction.** While a copy is in flight the host must not write the buffer
//! (nor read it, for a download into it) nor free it. Every buffer records an event after
//! each copy it takes part in; [`PinnedBuffer::as_slice`] waits for a pending download,
//! [`PinnedBuffer::as_mut_slice`] for any pending copy, and dropping the buffer waits for
//! its copies before freeing the memory. A second copy queued on another stream is ordered
//! after the first (on the device: the host does not wait). Forgetting a buffer
//! (`std::mem::forget`) leaks it, never frees it under a copy.
//!
//! ```no_run
//! use cuprite_core::Array;
//! use cuprite_cuda::{Cuda, PinnedBuffer, PinnedExt};
//! let dev = Cuda::new(0)?;
//! let copies = dev.with_stream(&dev.new_stream()?)?; // uploads queue here
//! let mut host = PinnedBuffer::<f32>::new(1 << 20, &dev)?;
//! host.as_mut_slice()?.iter_mut().enumerate().for_each(|(i, x)| *x = i as f32);
//! let a = Array::<f32, Cuda>::from_pinned_async(&mut host, &[1024, 1024], &copies)?;
//! // ... kernels on `dev`'s own stream run meanwhile ...
//! let b = &a * 2.0; // ordered after the upload (a's stream), no host wait
//! b.to_pinned_async(&mut host)?; // host waits for nothing yet
//! assert_eq!(host.as_slice()?[3], 6.0); // waits for the download
//! # Ok::<(), cuprite_core::Error>(())
//! ```

use crate::device::Cuda;
use crate::driver::{self, Event};
use crate::ffi::host::PinnedAlloc;
use cuprite_core::layout::check_shape;
use cuprite_core::{Array, BackendBase, Element, Error, Layout, Result};
use std::mem::ManuallyDrop;

/// What the copies in flight do with a [`PinnedBuffer`]'s memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// Nothing in flight (or everything known complete).
    Idle,
    /// Uploads read it: the host may read, not write.
    Read,
    /// A download writes it: the host may neither read nor write.
    Write,
    /// A copy was queued but could not be tracked (recording its event failed and so did
    /// waiting for its stream): the memory is never touched or freed again.
    Lost,
}

/// Page-locked host memory of `len` elements of `T`, for asynchronous transfers with one
/// device (see the [module documentation](self)). Filled and read from Rust as a slice.
pub struct PinnedBuffer<T: Element> {
    mem: ManuallyDrop<PinnedAlloc<T>>,
    dev: Cuda,
    /// Recorded after the last copy queued; covers every earlier one (each copy on another
    /// stream waits for it first).
    event: Event,
    pending: Pending,
}

impl<T: Element> std::fmt::Debug for PinnedBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PinnedBuffer({} x {} for cuda:{}, {:?})",
            self.mem.len(),
            T::DTYPE,
            self.dev.ordinal(),
            self.pending
        )
    }
}

impl<T: Element> PinnedBuffer<T> {
    /// `len` zeroed elements of page-locked host memory for transfers with `dev`'s device
    /// (the memory is portable: any device's copies may use it; the bookkeeping events are
    /// `dev`'s).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the driver cannot lock that much memory (page-locked
    /// memory is taken from the host's RAM and never swapped: allocate it once and reuse
    /// it), [`Error::InvalidArgument`] when the size overflows.
    pub fn new(len: usize, dev: &Cuda) -> Result<PinnedBuffer<T>> {
        dev.bind()?;
        // The event first: the memory is not freed by a `ManuallyDrop` dropped on an error.
        let event = Event::timing("PinnedBuffer::new")?;
        let mem = PinnedAlloc::zeroed(len, dev.inner.ctx)?;
        Ok(PinnedBuffer {
            mem: ManuallyDrop::new(mem),
            dev: dev.with_default_stream(),
            event,
            pending: Pending::Idle,
        })
    }

    /// A page-locked copy of `data`.
    ///
    /// # Errors
    /// As [`PinnedBuffer::new`].
    pub fn from_slice(data: &[T], dev: &Cuda) -> Result<PinnedBuffer<T>> {
        let mut b = PinnedBuffer::new(data.len(), dev)?;
        b.mem.as_mut_slice().copy_from_slice(data);
        Ok(b)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.mem.len()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.mem.len() == 0
    }

    /// The device whose copies the buffer takes part in.
    pub fn device(&self) -> &Cuda {
        &self.dev
    }

    /// The elements, after waiting for a download into the buffer that is still in flight
    /// (uploads from it may go on: they only read).
    ///
    /// # Errors
    /// [`Error::Backend`] when waiting fails (a failed copy or kernel), or the buffer's
    /// copies were lost track of.
    pub fn as_slice(&self) -> Result<&[T]> {
        if self.pending != Pending::Idle && self.pending != Pending::Read {
            self.wait("PinnedBuffer::as_slice")?;
        }
        Ok(self.mem.as_slice())
    }

    /// The elements for writing, after waiting for every copy from or into the buffer.
    ///
    /// # Errors
    /// As [`PinnedBuffer::as_slice`].
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        self.synchronize()?;
        Ok(self.mem.as_mut_slice())
    }

    /// The elements copied into a `Vec` (after waiting as [`PinnedBuffer::as_slice`]).
    ///
    /// # Errors
    /// As [`PinnedBuffer::as_slice`].
    pub fn to_vec(&self) -> Result<Vec<T>> {
        Ok(self.as_slice()?.to_vec())
    }

    /// Waits until every copy from or into the buffer has finished.
    ///
    /// # Errors
    /// As [`PinnedBuffer::as_slice`].
    pub fn synchronize(&mut self) -> Result<()> {
        if self.pending != Pending::Idle {
            self.wait("PinnedBuffer::synchronize")?;
            self.pending = Pending::Idle;
        }
        Ok(())
    }

    /// Whether no copy from or into the buffer is in flight any more (never waits).
    ///
    /// # Errors
    /// As [`PinnedBuffer::as_slice`].
    pub fn is_idle(&self) -> Result<bool> {
        match self.pending {
            Pending::Idle => Ok(true),
            Pending::Lost => Err(lost("PinnedBuffer::is_idle")),
            _ => {
                self.dev.bind()?;
                self.event.is_complete("PinnedBuffer::is_idle")
            }
        }
    }

    /// Waits for the event of the last copy.
    fn wait(&self, op: &'static str) -> Result<()> {
        if self.pending == Pending::Lost {
            return Err(lost(op));
        }
        self.dev.bind()?;
        self.event.synchronize(op)
    }

    /// Queues a copy on `dev`'s stream through `queue` (which receives the memory and the
    /// stream), ordered after the buffer's earlier copies, and records the buffer's event
    /// after it. `access` is what the copy does with the buffer.
    fn queue(
        &mut self,
        op: &'static str,
        dev: &Cuda,
        access: Pending,
        queue: impl FnOnce(&mut PinnedAlloc<T>, driver::CUstream) -> Result<()>,
    ) -> Result<()> {
        if dev.ordinal() != self.dev.ordinal() {
            return Err(Error::DeviceMismatch {
                op,
                lhs: dev.label(),
                rhs: self.dev.label(),
            });
        }
        if self.pending == Pending::Lost {
            return Err(lost(op));
        }
        dev.check_not_capturing(op)?;
        dev.bind()?;
        let stream = dev.stream();
        if self.pending != Pending::Idle {
            // The event's last record covers every earlier copy: waiting for it orders
            // them all before this one, on the device.
            self.event.wait_on(stream)?;
        }
        queue(&mut self.mem, stream)?;
        let covered = match (self.pending, access) {
            (Pending::Write, _) | (_, Pending::Write) => Pending::Write,
            _ => Pending::Read,
        };
        if self.event.record(stream, op).is_ok() {
            self.pending = covered;
            return Ok(());
        }
        // The copy is queued but no event tracks it: wait for it here, or give the memory
        // up for good.
        match driver::stream_sync(stream) {
            Ok(()) => {
                self.pending = Pending::Idle;
                Err(Error::Backend {
                    op,
                    msg: "recording the copy's event failed (the copy has completed)".into(),
                })
            }
            Err(e) => {
                self.pending = Pending::Lost;
                Err(e)
            }
        }
    }
}

impl<T: Element> Drop for PinnedBuffer<T> {
    fn drop(&mut self) {
        // Free the memory only once no copy can use it any more; otherwise leak it.
        let idle = self.pending == Pending::Idle || self.wait("PinnedBuffer::drop").is_ok();
        if idle {
            // SAFETY: dropped once, here; `self.mem` is not used again.
            unsafe { ManuallyDrop::drop(&mut self.mem) };
        }
    }
}

fn lost(op: &'static str) -> Error {
    Error::Backend {
        op,
        msg: "a copy of this pinned buffer could not be tracked; its memory is abandoned".into(),
    }
}

/// Asynchronous transfers between `Array<T, Cuda>` and a [`PinnedBuffer`] (see the
/// [module documentation](self)).
pub trait PinnedExt<T: Element>: Sized {
    /// A new array of `shape` on `dev`, filled from `src` by a copy queued on `dev`'s
    /// stream: returns before the copy runs. Work on the array (on any stream) is ordered
    /// after the copy; writing `src` from the host waits for it.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `shape` does not have `src.len()` elements,
    /// [`Error::DeviceMismatch`] when `src` was made for another device,
    /// [`Error::OutOfMemory`] when the array does not fit.
    fn from_pinned_async(src: &mut PinnedBuffer<T>, shape: &[usize], dev: &Cuda) -> Result<Self>;

    /// Queues the copy of the array's elements (in C order) into `dst` on the array's
    /// stream and returns before it runs; reading `dst` from the host waits for it. A view
    /// that is not contiguous is first gathered on the device.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dst` does not have as many elements as the array,
    /// [`Error::DeviceMismatch`] when `dst` was made for another device.
    fn to_pinned_async(&self, dst: &mut PinnedBuffer<T>) -> Result<()>;
}

impl<T: Element> PinnedExt<T> for Array<T, Cuda> {
    fn from_pinned_async(src: &mut PinnedBuffer<T>, shape: &[usize], dev: &Cuda) -> Result<Self> {
        const OP: &str = "from_pinned_async";
        let size = check_shape(OP, shape, T::DTYPE.size_of())?;
        if size != src.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "shape {shape:?} has {size} elements, the pinned buffer {}",
                    src.len()
                ),
            ));
        }
        let layout = Layout::contiguous(shape);
        let buf = dev.alloc::<T>(src.len())?;
        let dst = dev.ptr(&buf)?;
        let n = src.len();
        src.queue(OP, dev, Pending::Read, |mem, stream| {
            // SAFETY: `dst` is a fresh allocation of `n` elements, freed (stream-ordered)
            // only after the copy, which precedes every later use on its stream; the
            // buffer's event is recorded after the copy, and the host neither writes nor
            // frees the pinned memory before it completes (`as_mut_slice`, `synchronize`
            // and the drop wait for it).
            unsafe { mem.htod_async(0, n, dst, stream) }
        })?;
        Array::from_raw_parts(buf, layout, dev.clone())
    }

    fn to_pinned_async(&self, dst: &mut PinnedBuffer<T>) -> Result<()> {
        const OP: &str = "to_pinned_async";
        let n = self.size();
        if n != dst.len() {
            return Err(Error::invalid(
                OP,
                format!(
                    "an array of shape {:?} ({n} elements) into a pinned buffer of {}",
                    self.shape(),
                    dst.len()
                ),
            ));
        }
        if n == 0 {
            return Ok(());
        }
        let dev = self.device();
        // The elements in C order, in one run: the array's own, or a gathered copy (freed
        // stream-ordered, after the download queued below on the same stream).
        let gathered;
        let (buf, off) = match self.layout().contiguous_offset() {
            Some(off) => (self.buffer(), off),
            None => {
                gathered = dev.copy(self.buffer(), self.layout())?;
                (&gathered, 0)
            }
        };
        let src = dev.ptr(buf)? + (off * std::mem::size_of::<T>()) as u64;
        dst.queue(OP, dev, Pending::Write, |mem, stream| {
            // SAFETY: `src` holds `n` elements of the array, which its buffer keeps
            // allocated until after the copy (its free is queued on this stream, the last
            // one to use it); the buffer's event is recorded after the copy, and the host
            // neither reads, writes nor frees the pinned memory before it completes
            // (`as_slice`, `as_mut_slice`, `synchronize` and the drop wait for it).
            unsafe { mem.dtoh_async(0, n, src, stream) }
        })
    }
}

#[cfg(test)]
mod tests;
