//! [`Cuda`]: the device handle. One per GPU per process (handles for the same ordinal share
//! their state), holding the context, the stream every op queues on, the memory pool, the
//! compiled-module cache and the device's properties.

use crate::block_cache::BlockCache;
use crate::driver::{self, CUdevice, CUdeviceptr, CUstream, Ctx, Pool, StreamRef};
use crate::graph::CaptureSlot;
use crate::modules::ModuleCache;
use crate::stream::{LastUse, StreamInner};
use cuprite_core::{Error, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A CUDA device. Cheap to clone; every handle for the same ordinal names the same device, so
/// arrays made through different handles of one GPU mix, and arrays of different GPUs meet
/// as [`Error::DeviceMismatch`].
///
/// All work queues in order on the device's own stream, or on a user [`Stream`] for a handle
/// made by [`Cuda::with_stream`]; only transfers ([`to_vec`], `item`) and the
/// synchronising calls wait for it.
///
/// [`Stream`]: crate::Stream
///
/// [`to_vec`]: cuprite_core::Array::to_vec
///
/// ```no_run
/// use cuprite_core::Array;
/// use cuprite_cuda::Cuda;
/// let dev = Cuda::new(0)?;
/// let a = Array::<f32, Cuda>::ones(&[1000], &dev)?;
/// assert_eq!((&a * 2.0).sum()?.item()?, 2000.0);
/// # Ok::<(), cuprite_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Cuda {
    pub(crate) inner: Arc<DeviceInner>,
    /// The user stream this handle queues on (`None`: the device's own stream).
    pub(crate) on: Option<Arc<StreamInner>>,
}

/// The shared state of one device.
pub(crate) struct DeviceInner {
    pub ordinal: usize,
    #[allow(dead_code)]
    pub dev: CUdevice,
    pub ctx: Ctx,
    pub stream: StreamRef,
    pub pool: Pool,
    pub name: String,
    pub cc: (i32, i32),
    pub sm_count: u32,
    pub total_mem: usize,
    pub modules: ModuleCache,
    /// Bytes held by live buffers.
    pub in_use: AtomicUsize,
    /// User limit on `in_use` (0: none).
    pub limit: AtomicUsize,
    /// Library handles created on first use (cuBLAS and friends), by name.
    pub handles: Mutex<HashMap<&'static str, usize>>,
    /// Whether f32 and c64 products may use TF32 tensor cores ([`Cuda::set_tf32`]).
    pub tf32: AtomicBool,
    /// The stream that last used each library handle or plan, by its address or id.
    pub library_use: Mutex<HashMap<usize, Arc<LastUse>>>,
    /// Freed blocks of the device's own stream, for the next allocations of their size.
    pub cache: BlockCache,
    /// The graph capture running on one of the device's streams, if any.
    pub capture: CaptureSlot,
}

impl DeviceInner {
    /// Returns a freed block of size class `class` whose last use was queued on `stream`:
    /// after the capture when a graph capture runs on `stream`, else to the block cache when
    /// that is the device's own stream and the cache has room, else to the driver's pool
    /// (stream-ordered). A failure means the context is gone (process
    /// teardown): nothing to free.
    pub(crate) fn release_block(&self, ptr: CUdeviceptr, class: usize, stream: CUstream) {
        if self.capture.defer_free(stream, ptr, class) {
            return;
        }
        if stream == self.stream.0 && self.cache.put(class, ptr) {
            return;
        }
        if driver::make_current(self.ctx.0).is_ok() {
            let _ = driver::free_async(ptr, stream);
        }
    }
}

impl std::fmt::Debug for Cuda {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cuda({}: {}", self.inner.ordinal, self.inner.name)?;
        match &self.on {
            Some(s) => write!(f, ", stream {:?})", s.raw()),
            None => write!(f, ")"),
        }
    }
}

impl PartialEq for Cuda {
    fn eq(&self, other: &Self) -> bool {
        self.inner.ordinal == other.inner.ordinal
    }
}
impl Eq for Cuda {}

fn unavailable(reason: impl Into<String>) -> Error {
    Error::BackendUnavailable {
        backend: "cuda",
        reason: reason.into(),
    }
}

/// The driver, loaded and initialised once per process (or the reason it cannot be).
fn driver_ready() -> Result<()> {
    static READY: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            std::panic::catch_unwind(driver::load)
                .unwrap_or_else(|_| Err("loading the NVIDIA driver library failed".into()))
        })
        .clone()
        .map_err(unavailable)
}

impl Cuda {
    /// The GPU with this ordinal (0 is the first). Returns [`Error::BackendUnavailable`] with
    /// the reason when there is no driver, no such device, or the driver is too old.
    pub fn new(ordinal: usize) -> Result<Cuda> {
        driver_ready()?;
        static DEVICES: OnceLock<Mutex<HashMap<usize, Arc<DeviceInner>>>> = OnceLock::new();
        let mut devices = DEVICES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(inner) = devices.get(&ordinal) {
            return Ok(Cuda {
                inner: inner.clone(),
                on: None,
            });
        }
        let count = driver::device_count()?;
        if count == 0 {
            return Err(unavailable("the NVIDIA driver found no CUDA device"));
        }
        if ordinal >= count {
            return Err(unavailable(format!(
                "no CUDA device {ordinal}: this machine has {count} (ordinals 0..{count})"
            )));
        }
        let info = driver::device_info(ordinal)?;
        let (ctx, stream, pool) = driver::open(info.dev)?;
        let inner = Arc::new(DeviceInner {
            ordinal,
            dev: info.dev,
            ctx: Ctx(ctx),
            stream: StreamRef(stream),
            pool: Pool(pool),
            name: info.name,
            cc: (info.major, info.minor),
            sm_count: info.sm_count.max(1) as u32,
            total_mem: info.total_mem,
            modules: ModuleCache::default(),
            in_use: AtomicUsize::new(0),
            limit: AtomicUsize::new(0),
            handles: Mutex::new(HashMap::new()),
            tf32: AtomicBool::new(false),
            library_use: Mutex::new(HashMap::new()),
            cache: BlockCache::default(),
            capture: CaptureSlot::default(),
        });
        devices.insert(ordinal, inner.clone());
        Ok(Cuda { inner, on: None })
    }

    /// Number of CUDA devices on this machine (0 when there is no driver).
    pub fn device_count() -> usize {
        if driver_ready().is_err() {
            return 0;
        }
        driver::device_count().unwrap_or(0)
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }

    /// The device's name (`"NVIDIA H200"`).
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// Compute capability `(major, minor)`.
    pub fn compute_capability(&self) -> (i32, i32) {
        self.inner.cc
    }

    /// Number of streaming multiprocessors.
    pub fn multiprocessor_count(&self) -> u32 {
        self.inner.sm_count
    }

    /// Total device memory in bytes.
    pub fn total_memory(&self) -> usize {
        self.inner.total_mem
    }

    /// Free device memory in bytes, as the driver reports it (memory cached by cuprite's pool
    /// counts as used; see [`Cuda::memory_cached`]).
    pub fn free_memory(&self) -> Result<usize> {
        self.bind()?;
        Ok(driver::mem_info()?.0)
    }

    /// Bytes held by live arrays on this device.
    pub fn memory_in_use(&self) -> usize {
        self.inner.in_use.load(Ordering::Relaxed)
    }

    /// Bytes kept for reuse beyond those in use: freed blocks of small arrays held for the
    /// next allocations of their size, and memory the driver's pool keeps reserved.
    pub fn memory_cached(&self) -> Result<usize> {
        self.bind()?;
        let reserved = driver::pool_attr(
            self.inner.pool.0,
            driver::PoolAttr::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
        )?;
        let used = driver::pool_attr(
            self.inner.pool.0,
            driver::PoolAttr::CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
        )?;
        Ok(reserved.saturating_sub(used) as usize + self.inner.cache.bytes())
    }

    /// Returns the pool's cached memory to the driver (waits for queued work first). The
    /// pool reserves memory in blocks (tens of MiB): the free part of a block that still
    /// holds a live array stays reserved, so [`Cuda::memory_cached`] can stay above zero.
    pub fn free_cached(&self) -> Result<()> {
        self.check_not_capturing("free_cached")?;
        self.bind()?;
        for ptr in self.inner.cache.drain() {
            driver::free_async(ptr, self.inner.stream.0)?;
        }
        self.synchronize_device()?;
        driver::pool_trim(self.inner.pool.0, 0)
    }

    /// Caps the bytes live arrays may hold on this device (`None`: no cap). An allocation
    /// beyond it is [`Error::OutOfMemory`].
    pub fn set_memory_limit(&self, limit: Option<usize>) {
        self.inner
            .limit
            .store(limit.unwrap_or(0), Ordering::Relaxed);
    }

    /// The memory cap, if any.
    pub fn memory_limit(&self) -> Option<usize> {
        match self.inner.limit.load(Ordering::Relaxed) {
            0 => None,
            n => Some(n),
        }
    }

    /// Opt-in TF32 for the f32 and c64 matrix products of this device (off by default):
    /// cuBLAS may then round the inputs of each product to TF32 (10 explicit mantissa bits,
    /// a relative error around 1e-3 per product instead of 1e-7) and run them on tensor
    /// cores, several times faster on recent GPUs. Products queued after the call use the
    /// new setting; f64 and c128 products are never affected. This is PyTorch's
    /// `allow_tf32` and CuPy's `CUPY_TF32=1`.
    pub fn set_tf32(&self, allow: bool) {
        self.inner.tf32.store(allow, Ordering::Relaxed);
    }

    /// Whether TF32 is allowed for f32 and c64 products ([`Cuda::set_tf32`]).
    pub fn tf32(&self) -> bool {
        self.inner.tf32.load(Ordering::Relaxed)
    }

    /// Waits until all work queued on the device has finished, on every stream (CuPy's
    /// `Device.synchronize`). [`Stream::synchronize`](crate::Stream::synchronize) waits
    /// for one stream.
    pub fn synchronize_device(&self) -> Result<()> {
        self.inner.capture.check_idle("synchronize")?;
        self.bind()?;
        driver::ctx_sync()
    }

    /// Makes the device's context current on this thread.
    pub(crate) fn bind(&self) -> Result<()> {
        driver::make_current(self.inner.ctx.0)
    }

    /// The stream this handle's work queues on.
    pub(crate) fn stream(&self) -> CUstream {
        match &self.on {
            Some(s) => s.raw(),
            None => self.inner.stream.0,
        }
    }

    /// `sm_XY` of the device, for NVRTC.
    pub(crate) fn arch(&self) -> String {
        format!("sm_{}{}", self.inner.cc.0, self.inner.cc.1)
    }
}
