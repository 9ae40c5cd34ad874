//! Streams for users: [`Stream`], device handles whose work queues on one
//! ([`Cuda::with_stream`]), and the ordering that keeps arrays correct when they move
//! between streams.
//!
//! Every buffer and every library object (cuBLAS and cuSOLVER handles, cuFFT plans)
//! remembers the stream that last used it ([`LastUse`]). Work about to be queued on another
//! stream first waits for an event recorded on that one, so an array produced on one stream
//! and read on another is complete before it is read, and memory is returned to the pool only
//! after the last stream that touched it is done. Work of one stream alone pays one
//! uncontended lock per buffer and nothing else.

use crate::device::{Cuda, DeviceInner};
use crate::driver::{self, CUstream, OwnedStream, StreamRef};
use cuprite_core::{Array, Element, Error, Result};
use std::sync::{Arc, Mutex};

/// The stream object behind a [`Stream`]; destroyed when the last user of it is gone.
/// Nothing references the stream any more when this goes (buffers that last used it hold
/// this value); the stream is destroyed then.
pub(crate) struct StreamInner {
    stream: OwnedStream,
    dev: Arc<DeviceInner>,
}

impl StreamInner {
    /// The stream handle.
    pub(crate) fn raw(&self) -> CUstream {
        self.stream.raw()
    }
}

/// A CUDA stream of one device: work queued on it runs in order, and concurrently with work
/// of other streams. Cheap to clone; destroyed when the last clone, the last handle made by
/// [`Stream::device`] and the last array that used it are gone.
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::Cuda;
/// let dev = Cuda::new(0)?;
/// let s = dev.new_stream()?;
/// let on_s = dev.with_stream(&s)?;
/// // Queued on `s`; arrays made here carry `s`, and ops on them queue there too.
/// let a = Array::<f32, Cuda>::ones(&[1 << 20], &on_s)?;
/// let b = &a * 2.0;
/// // Used on the device's own stream: ordered after the work on `s` without a sync.
/// let c = Array::<f32, Cuda>::ones(&[1 << 20], &dev)? + &b;
/// assert_eq!(c.sum()?.item()?, 3.0 * (1 << 20) as f32);
/// s.synchronize()?;
/// # Ok::<(), cuprite_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Stream {
    pub(crate) inner: Arc<StreamInner>,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Stream({:?} on cuda:{})",
            self.inner.raw(),
            self.inner.dev.ordinal
        )
    }
}

impl PartialEq for Stream {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}
impl Eq for Stream {}

impl Stream {
    /// Waits until all work queued on this stream has finished.
    pub fn synchronize(&self) -> Result<()> {
        self.inner
            .dev
            .capture
            .check_stream(self.inner.raw(), "Stream::synchronize")?;
        driver::make_current(self.inner.dev.ctx.0)?;
        driver::stream_sync(self.inner.raw())
    }

    /// A handle of the stream's device whose work queues on this stream.
    pub fn device(&self) -> Cuda {
        Cuda {
            inner: self.inner.dev.clone(),
            on: Some(self.inner.clone()),
        }
    }
}

impl Cuda {
    /// A new stream of this device (non-blocking: it does not wait for the device's own
    /// stream). Queue work on it through [`Cuda::with_stream`].
    pub fn new_stream(&self) -> Result<Stream> {
        self.bind()?;
        Ok(Stream {
            inner: Arc::new(StreamInner {
                stream: OwnedStream::new(self.inner.ctx)?,
                dev: self.inner.clone(),
            }),
        })
    }

    /// A handle of the same device whose work queues on `stream`. Arrays made through it
    /// carry it, so ops on them queue on `stream` too (an op queues on the stream of its
    /// first array operand). Arrays of one device mix freely whatever their streams: the
    /// ordering between streams is kept for you. A stream of another device is
    /// [`Error::DeviceMismatch`].
    pub fn with_stream(&self, stream: &Stream) -> Result<Cuda> {
        if stream.inner.dev.ordinal != self.inner.ordinal {
            return Err(Error::DeviceMismatch {
                op: "with_stream",
                lhs: format!("cuda:{}", self.inner.ordinal),
                rhs: format!("cuda:{}", stream.inner.dev.ordinal),
            });
        }
        Ok(Cuda {
            inner: self.inner.clone(),
            on: Some(stream.inner.clone()),
        })
    }

    /// A handle of the same device whose work queues on the device's own stream.
    pub fn with_default_stream(&self) -> Cuda {
        Cuda {
            inner: self.inner.clone(),
            on: None,
        }
    }

    /// The user stream this handle queues on (`None`: the device's own stream).
    pub fn current_stream(&self) -> Option<Stream> {
        self.on.as_ref().map(|s| Stream { inner: s.clone() })
    }

    /// Runs `f` with a handle whose work queues on `stream`; the scoped form of
    /// [`Cuda::with_stream`].
    pub fn using_stream<R>(
        &self,
        stream: &Stream,
        f: impl FnOnce(&Cuda) -> Result<R>,
    ) -> Result<R> {
        f(&self.with_stream(stream)?)
    }

    /// Makes work queued on this handle's stream from now on wait until `event`'s last
    /// record has completed (the host does not wait).
    pub fn wait_event(&self, event: &crate::CudaEvent) -> Result<()> {
        event.wait_on(self)
    }
}

/// Which stream last used a buffer or a library object, kept alive while it is referenced.
pub(crate) struct LastUse {
    last: Mutex<(StreamRef, Option<Arc<StreamInner>>)>,
}

impl LastUse {
    /// First used by `dev`'s stream.
    pub(crate) fn new(dev: &Cuda) -> LastUse {
        LastUse {
            last: Mutex::new((StreamRef(dev.stream()), dev.on.clone())),
        }
    }

    /// Records that `dev`'s stream uses the object next; when the last user was another
    /// stream, everything queued there so far is ordered before what `dev` queues next.
    /// Returns whether the stream changed.
    pub(crate) fn enter(&self, dev: &Cuda) -> Result<bool> {
        let cur = dev.stream();
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.0 .0 == cur {
            return Ok(false);
        }
        dev.inner.capture.check_crossing(last.0 .0, cur)?;
        dev.bind()?;
        driver::order_streams(last.0 .0, cur)?;
        *last = (StreamRef(cur), dev.on.clone());
        Ok(true)
    }

    /// The stream that last used the object.
    pub(crate) fn stream(&self) -> CUstream {
        self.last.lock().unwrap_or_else(|p| p.into_inner()).0 .0
    }
}

impl Cuda {
    /// Orders a library object (a handle or plan, named by its address or id) for work about
    /// to be queued on this handle's stream, and points the object at that stream with
    /// `set_stream` (every call: a handle may be shared by several streams).
    pub(crate) fn order_library(
        &self,
        key: usize,
        set_stream: impl FnOnce(CUstream) -> Result<()>,
    ) -> Result<()> {
        let tracker = {
            let mut libs = self
                .inner
                .library_use
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            libs.entry(key)
                .or_insert_with(|| Arc::new(LastUse::new(&self.with_default_stream())))
                .clone()
        };
        tracker.enter(self)?;
        set_stream(self.stream())
    }
}

/// Moving arrays of the CUDA backend between streams.
pub trait StreamExt: Sized {
    /// The same array (sharing its memory) with ops on it queued on `stream`.
    fn on_stream(&self, stream: &Stream) -> Result<Self>;
}

impl<T: Element> StreamExt for Array<T, Cuda> {
    fn on_stream(&self, stream: &Stream) -> Result<Self> {
        let dev = self.device().with_stream(stream)?;
        Array::from_raw_parts(self.buffer().clone(), self.layout().clone(), dev)
    }
}
