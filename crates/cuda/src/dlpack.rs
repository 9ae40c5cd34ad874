//! DLPack on the `Cuda` backend: `Array<T, Cuda>` to and from DLPack managed tensors of
//! device memory (`kDLCUDA`), without copying, with the stream handshake of the Python
//! protocol (`__dlpack__(stream=...)`).
//!
//! The structs, [`ManagedTensor`] and the checks are `cuprite-dlpack`'s, shared with the
//! `Cpu` backend (re-exported here as [`sys`], [`ManagedTensor`], [`RawTensor`], [`Form`]).
//!
//! **Export** ([`DlpackExt::to_dlpack_stream`]) shares the array's memory: `data` is the
//! device address of the element at index 0 (`byte_offset` 0, NULL for size 0), the device
//! `kDLCUDA` with the GPU's ordinal, the shape and strides (in elements; negative, zero and
//! transposed ones included, which DLPack allows) the view's, and the tensor holds a clone of
//! the buffer, so the memory stays alive until the consumer calls the deleter. Before the
//! tensor is handed over, the consumer's stream is made to wait for the work queued on the
//! array's memory (an event recorded on cuprite's stream, waited on by the consumer's): the
//! consumer never reads a pending write and the host does not wait. [`DlpackExt::to_dlpack`]
//! waits on the host instead, so the consumer may use any stream. The versioned tensor is
//! flagged `READ_ONLY` unless the consumer gets memory no cuprite array shares
//! ([`DlpackExt::into_dlpack`]). The consumer calls the deleter once its own work on the
//! memory is done or ordered before it (the memory returns to cuprite's pool, on cuprite's
//! stream, when the deleter drops the last clone).
//!
//! **Import** ([`DlpackExt::from_dlpack`]) borrows the producer's memory: the dtype must be
//! the array's, the device `kDLCUDA` (or `kDLCUDAManaged`) with the handle's ordinal, the
//! view must fit; the array's buffer keeps the tensor, and when the last array or view using
//! the memory drops, cuprite waits for the work queued on it and calls the deleter. The
//! producer must have ordered its writes before cuprite's stream: pass
//! [`Cuda::dlpack_stream`] as `stream=` to the producer's `__dlpack__`, or synchronize it.
//! Writes copy first (copy-on-write), except for a versioned tensor flagged `IS_COPIED` and
//! not `READ_ONLY`. A bool tensor must hold only 0 and 1 (checked on the device, which
//! waits for the check).
//!
//! ```no_run
//! use cuprite_core::{s, Array};
//! use cuprite_cuda::dlpack::{ConsumerStream, DlpackExt, Form};
//! use cuprite_cuda::Cuda;
//!
//! let dev = Cuda::new(0)?;
//! let a = Array::<f32, Cuda>::arange(0.0, 6.0, 1.0, &dev)?.reshape(&[2, 3])?;
//! let view = a.t().slice(&s![..;-1, ..])?; // shape [3, 2], strides [-1, 3]
//! // For a consumer queuing on the legacy default stream (`stream=1` in Python).
//! let t = view.to_dlpack_stream(ConsumerStream::Legacy, Form::Versioned)?;
//! assert_eq!(t.strides(), Some(&[-1, 3][..]));
//! // And back, without a copy: the same device memory.
//! let b = Array::<f32, Cuda>::from_dlpack(t, &dev)?;
//! assert_eq!(b.to_vec()?, vec![2.0, 5.0, 1.0, 4.0, 0.0, 3.0]);
//! # Ok::<(), cuprite_core::Error>(())
//! ```

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_gpu;

pub use cuprite_dlpack::{dtype_from_dl, dtype_to_dl, sys, Form, ManagedTensor, RawTensor};

use crate::driver::{self, CUstream};
use crate::{Cuda, CudaBuffer};
use cuprite_core::{Array, DType, Element, Error, Layout, Result};
use cuprite_dlpack::sys::{DLDevice, DLDeviceType};
use cuprite_dlpack::Accept;

const OP: &str = "from_dlpack";

/// The stream a DLPack consumer will read an exported tensor on: the `stream` argument of
/// the Python protocol's `__dlpack__`, for CUDA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsumerStream {
    /// No synchronisation (`stream=-1`): the consumer orders its work itself.
    NoSync,
    /// The legacy default stream (`stream=1`, and the protocol's meaning of `None` on CUDA).
    Legacy,
    /// The per-thread default stream (`stream=2`).
    PerThread,
    /// A stream of the consumer (`stream=<handle>`): a live `CUstream` of the array's
    /// device. Made by [`ConsumerStream::from_raw`].
    Handle(StreamHandle),
}

/// A consumer's `CUstream` handle, vouched for by [`ConsumerStream::from_raw`]'s caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamHandle(u64);

impl StreamHandle {
    /// The handle's value.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl ConsumerStream {
    /// A consumer's own stream, by its `CUstream` handle (`cudaStream_t`, `torch.cuda.
    /// Stream.cuda_stream`, `cupy.cuda.Stream.ptr`); 1 and 2 are the default streams'
    /// values, and 0 (ambiguous) is refused.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for 0.
    ///
    /// # Safety
    /// `handle` is 1, 2 or a live stream of the device of the arrays it is used with, and
    /// stays live until the export returns.
    pub unsafe fn from_raw(handle: u64) -> Result<ConsumerStream> {
        match handle {
            0 => Err(Error::invalid(
                "__dlpack__",
                "stream 0 is ambiguous on CUDA (the protocol disallows it): pass 1 for the \
                 legacy default stream, 2 for the per-thread one",
            )),
            1 => Ok(ConsumerStream::Legacy),
            2 => Ok(ConsumerStream::PerThread),
            h => Ok(ConsumerStream::Handle(StreamHandle(h))),
        }
    }

    /// The `stream` argument of the Python protocol: `None` is the legacy default stream,
    /// -1 no synchronisation, another value a handle as [`ConsumerStream::from_raw`] takes.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for 0 and for negative values other than -1.
    ///
    /// # Safety
    /// As [`ConsumerStream::from_raw`] for a handle.
    pub unsafe fn from_protocol(stream: Option<i64>) -> Result<ConsumerStream> {
        match stream {
            None => Ok(ConsumerStream::Legacy),
            Some(-1) => Ok(ConsumerStream::NoSync),
            Some(s) => match u64::try_from(s) {
                // SAFETY: the caller's contract.
                Ok(h) => unsafe { Self::from_raw(h) },
                Err(_) => Err(Error::invalid(
                    "__dlpack__",
                    format!("stream {s}: a CUDA stream is -1, None or a handle >= 1"),
                )),
            },
        }
    }

    /// The driver's handle (`CU_STREAM_LEGACY` is 1, `CU_STREAM_PER_THREAD` 2), `None` for
    /// no synchronisation.
    fn raw(self) -> Option<CUstream> {
        let h: u64 = match self {
            ConsumerStream::NoSync => return None,
            ConsumerStream::Legacy => 1,
            ConsumerStream::PerThread => 2,
            ConsumerStream::Handle(h) => h.0,
        };
        Some(std::ptr::without_provenance_mut(h as usize))
    }
}

/// DLPack for `Array<T, Cuda>`: export without copying, import without copying.
pub trait DlpackExt: Sized {
    /// The array as a versioned managed tensor sharing its memory, flagged `READ_ONLY`,
    /// after waiting on the host for the work queued on the memory (any consumer, on any
    /// stream, may read it at once).
    ///
    /// # Errors
    /// [`Error::Backend`] when the wait fails.
    fn to_dlpack(&self) -> Result<ManagedTensor>;

    /// The array as a managed tensor of the given struct, sharing its memory, for a
    /// consumer reading it on `stream`: that stream waits for the work queued on the
    /// memory (the host does not). Versioned tensors are flagged `READ_ONLY`; the legacy
    /// struct has no flags, and its consumer must not write it either.
    ///
    /// # Errors
    /// [`Error::Backend`] when the driver refuses the wait (a stream of another device).
    fn to_dlpack_stream(&self, stream: ConsumerStream, form: Form) -> Result<ManagedTensor>;

    /// As [`DlpackExt::to_dlpack_stream`] with a versioned tensor, consuming the array:
    /// when no other array shares the memory, it is cuprite's own and the view reaches no
    /// element twice, the consumer may write it (no `READ_ONLY` flag).
    ///
    /// # Errors
    /// As [`DlpackExt::to_dlpack_stream`].
    fn into_dlpack(self, stream: ConsumerStream) -> Result<ManagedTensor>;

    /// An array on `dev` over the tensor's device memory, without copying (see the
    /// [module](self) docs); its work queues on `dev`'s stream, which must see the
    /// producer's writes. The deleter runs once: when the last array using the memory drops
    /// (after its queued work), or at once on `Err` or for a tensor of size 0.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `from_dlpack` for a dtype other than `T`'s (the
    /// message names both), memory that is not `kDLCUDA`/`kDLCUDAManaged` of `dev`'s device
    /// (the message names the tensor's device type and id), a view that does not fit or is
    /// not aligned for `T`, a NULL data pointer, or a bool byte other than 0 and 1;
    /// [`Error::TooBig`](cuprite_core::Error::TooBig) for a shape over `isize::MAX` bytes.
    fn from_dlpack(tensor: ManagedTensor, dev: &Cuda) -> Result<Self>;
}

impl Cuda {
    /// The handle of the stream this handle's work queues on, as the Python protocol's
    /// `stream=` takes it: pass it to a producer's `__dlpack__` so that the producer orders
    /// its pending writes before cuprite's work, then import the tensor on this handle with
    /// [`DlpackExt::from_dlpack`].
    pub fn dlpack_stream(&self) -> u64 {
        self.stream() as usize as u64
    }

    /// This device as DLPack names it: `kDLCUDA` and the ordinal.
    pub fn dl_device(&self) -> DLDevice {
        DLDevice {
            device_type: DLDeviceType::CUDA,
            device_id: self.ordinal() as i32,
        }
    }
}

impl<T: Element> DlpackExt for Array<T, Cuda> {
    fn to_dlpack(&self) -> Result<ManagedTensor> {
        let dev = self.device();
        dev.inner.capture.check_idle("to_dlpack")?;
        dev.bind()?;
        driver::stream_sync(self.buffer().last_stream())?;
        export(
            self.buffer().clone(),
            self.layout(),
            dev,
            Form::Versioned,
            false,
        )
    }

    fn to_dlpack_stream(&self, stream: ConsumerStream, form: Form) -> Result<ManagedTensor> {
        order_before(self.buffer(), self.device(), stream)?;
        export(
            self.buffer().clone(),
            self.layout(),
            self.device(),
            form,
            false,
        )
    }

    fn into_dlpack(self, stream: ConsumerStream) -> Result<ManagedTensor> {
        order_before(self.buffer(), self.device(), stream)?;
        let (layout, buf, dev) = (
            self.layout().clone(),
            self.buffer().clone(),
            self.device().clone(),
        );
        drop(self); // the clone may now be the only one
        export(buf, &layout, &dev, Form::Versioned, true)
    }

    fn from_dlpack(tensor: ManagedTensor, dev: &Cuda) -> Result<Self> {
        import(tensor, dev)
    }
}

/// Makes `stream` wait for the work queued on `buf`'s memory so far.
fn order_before<T: Element>(buf: &CudaBuffer<T>, dev: &Cuda, stream: ConsumerStream) -> Result<()> {
    let Some(to) = stream.raw() else {
        return Ok(());
    };
    dev.bind()?;
    // Both are streams of the device's primary context: cuprite's, and the consumer's
    // (`ConsumerStream::from_raw`'s contract; the default streams always are).
    driver::order_streams(buf.last_stream(), to)
}

/// Exports `buf` seen through `layout` (which fits it); writable as the CPU backend decides
/// (unshared memory cuprite owns, no element reached twice).
fn export<T: Element>(
    buf: CudaBuffer<T>,
    layout: &Layout,
    dev: &Cuda,
    form: Form,
    writable: bool,
) -> Result<ManagedTensor> {
    dev.check_buffer(&buf, "to_dlpack")?;
    let read_only = !(writable
        && buf.is_unique()
        && !buf.is_foreign()
        && layout.is_writeable_without_overlap());
    let base = std::ptr::without_provenance_mut(buf.device_ptr() as usize);
    // SAFETY: `layout` fits the buffer (an array's), whose elements are valid `T`s in
    // memory of `dev`'s device, kept alive by the clone the tensor owns until the deleter
    // drops it; cuprite never writes memory a clone shares (copy-on-write), and a writable
    // tensor's memory is reached through no other clone and no element twice.
    Ok(unsafe {
        cuprite_dlpack::export(
            buf,
            base,
            layout,
            T::DTYPE,
            dev.dl_device(),
            form,
            read_only,
        )
    })
}

/// See [`DlpackExt::from_dlpack`].
fn import<T: Element>(t: ManagedTensor, dev: &Cuda) -> Result<Array<T, Cuda>> {
    let ord = dev.ordinal();
    let wants = format!(
        "an Array<_, Cuda> on cuda:{ord} takes kDLCUDA or kDLCUDAManaged memory of device \
         {ord}: move it there first"
    );
    let accept = Accept {
        device_types: &[DLDeviceType::CUDA, DLDeviceType::CUDA_MANAGED],
        device_id: Some(ord as i32),
        wants: &wants,
    };
    let plan = cuprite_dlpack::import(&t, T::DTYPE, &accept)?;
    let Some(span) = plan.span else {
        // Size 0: no memory to borrow; the producer is released now, when `t` drops.
        return Array::from_raw_parts(dev.alloc::<T>(0)?, plan.layout, dev.clone());
    };
    let bool_bytes = T::DTYPE == DType::Bool;
    // SAFETY: the span is the memory the tensor's view reaches, on `dev`'s device (checked),
    // aligned for `T` (checked), holding valid `T`s (`ManagedTensor::from_raw`'s contract,
    // checked below for bools before any `bool` is read) until the owner, `t`, drops; the
    // producer ordered its writes before `dev`'s stream and writes no more (the same
    // contract and the handshake this module documents); when `span.writable`, the memory
    // is the consumer's alone (`IS_COPIED` without `READ_ONLY`).
    let buf = unsafe {
        CudaBuffer::<T>::from_foreign(dev, span.base as usize as u64, span.len, t, span.writable)
    };
    if bool_bytes {
        check_bools(dev, &buf)?;
    }
    Array::from_raw_parts(buf, plan.layout, dev.clone())
}

/// Refuses a bool tensor holding a byte other than 0 or 1 (its largest byte, read as `u8`
/// on the device; the only wait of an import).
fn check_bools<T: Element>(dev: &Cuda, buf: &CudaBuffer<T>) -> Result<()> {
    let bytes = buf.as_bytes();
    let layout = Layout::contiguous(&[bytes.len()]);
    let max = Array::from_raw_parts(bytes, layout, dev.clone())?
        .max()?
        .item()?;
    if max > 1 {
        return Err(Error::invalid(
            OP,
            format!("a bool tensor holds the byte {max:#04x} (a bool is 0 or 1)"),
        ));
    }
    Ok(())
}
