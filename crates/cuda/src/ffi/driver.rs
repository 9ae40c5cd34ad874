//! The raw CUDA driver calls of the crate, each wrapped to return cuprite's [`Error`]. Every
//! other module goes through these functions (or through the safe types built on them), so the
//! `unsafe` surface against the driver stays in one place.

use cudarc::driver::result::{self, DriverError};
use cudarc::driver::sys;
use cuprite_core::{Error, Result};
use std::ffi::c_void;

pub(crate) use sys::{
    CUcontext, CUdevice, CUdeviceptr, CUfunction, CUgraph, CUmemoryPool, CUmodule, CUstream,
};

/// Driver handles that may cross threads: the driver API is thread-safe, and the crate makes
/// a handle's context current on the calling thread before every call that uses it.
macro_rules! shared_handle {
    ($($(#[$m:meta])* $name:ident($raw:ty);)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct $name(pub(crate) $raw);
        // SAFETY: a driver handle is an opaque token of a process-wide driver object, usable
        // from any thread with its context current (see above); the token itself is never
        // mutated.
        unsafe impl Send for $name {}
        // SAFETY: as above.
        unsafe impl Sync for $name {}
    )*};
}

shared_handle! {
    /// A retained primary context.
    Ctx(CUcontext);
    /// A stream of a context.
    StreamRef(CUstream);
    /// A device's memory pool.
    Pool(CUmemoryPool);
    /// A loaded module.
    Module(CUmodule);
    /// A kernel entry point of a loaded module, ready to launch on its device.
    Func(CUfunction);
}

/// A stream owned by its holder: created in a context, destroyed on drop (after making that
/// context current; when that fails the context is gone at process exit and so is the
/// stream). Work already queued on it still completes.
#[derive(Debug)]
pub(crate) struct OwnedStream {
    raw: StreamRef,
    ctx: Ctx,
}

impl OwnedStream {
    /// A new non-blocking stream in `ctx` (current on the calling thread).
    pub(crate) fn new(ctx: Ctx) -> Result<OwnedStream> {
        Ok(OwnedStream {
            raw: StreamRef(stream_create()?),
            ctx,
        })
    }

    /// The stream handle.
    pub(crate) fn raw(&self) -> CUstream {
        self.raw.0
    }
}

impl Drop for OwnedStream {
    fn drop(&mut self) {
        if make_current(self.ctx.0).is_ok() {
            // SAFETY: the stream was created by `stream_create` in this context, is owned by
            // this value alone and destroyed once, here.
            let _ = unsafe { result::stream::destroy(self.raw.0) };
        }
    }
}

/// The lowest driver API version (`cuDriverGetVersion`) the bindings are built for.
pub(crate) const MIN_DRIVER_VERSION: i32 = 13000;

/// Turns a driver error into cuprite's error, naming the call that failed.
pub(crate) fn err(op: &'static str) -> impl Fn(DriverError) -> Error {
    move |e| {
        let name = e.error_name().map(|s| s.to_string_lossy().into_owned());
        let text = e.error_string().map(|s| s.to_string_lossy().into_owned());
        Error::Backend {
            op,
            msg: match (name, text) {
                (Ok(n), Ok(t)) => format!("{n}: {t}"),
                _ => format!("{e:?}"),
            },
        }
    }
}

/// True when the error is an out-of-memory condition.
pub(crate) fn is_oom(e: &DriverError) -> bool {
    e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY
}

/// Loads the driver library and initialises it, or says why it cannot be used.
pub(crate) fn load() -> std::result::Result<(), String> {
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(
            "no NVIDIA driver found: libcuda.so could not be loaded (install the NVIDIA \
                    driver, or add the directory holding libcuda.so.1 to LD_LIBRARY_PATH)"
                .into(),
        );
    }
    let version = std::panic::catch_unwind(|| {
        let mut v = 0i32;
        // SAFETY: writes one int.
        let r = unsafe { sys::cuDriverGetVersion(&mut v) };
        (r, v)
    })
    .map_err(|_| "the NVIDIA driver library lacks cuDriverGetVersion".to_string())?;
    if version.0 != sys::CUresult::CUDA_SUCCESS {
        return Err(format!("cuDriverGetVersion failed: {:?}", version.0));
    }
    if version.1 < MIN_DRIVER_VERSION {
        return Err(format!(
            "driver too old: it supports CUDA {}.{}, cuprite needs CUDA {}.{} or newer (driver \
             580 or later)",
            version.1 / 1000,
            version.1 % 1000 / 10,
            MIN_DRIVER_VERSION / 1000,
            MIN_DRIVER_VERSION % 1000 / 10
        ));
    }
    result::init().map_err(|e| format!("cuInit failed: {e:?}"))
}

/// Number of CUDA devices (0 when the driver is missing).
pub(crate) fn device_count() -> Result<usize> {
    result::device::get_count()
        .map(|n| n as usize)
        .map_err(err("device_count"))
}

/// Everything [`crate::Cuda`] needs to know about a device, read once.
pub(crate) struct DeviceInfo {
    pub dev: CUdevice,
    pub name: String,
    pub major: i32,
    pub minor: i32,
    pub sm_count: i32,
    pub total_mem: usize,
}

/// Reads a device's properties.
pub(crate) fn device_info(ordinal: usize) -> Result<DeviceInfo> {
    let dev = result::device::get(ordinal as i32).map_err(err("Cuda::new"))?;
    let attr = |a: sys::CUdevice_attribute| {
        // SAFETY: `dev` is a valid device handle.
        unsafe { result::device::get_attribute(dev, a) }.map_err(err("Cuda::new"))
    };
    use sys::CUdevice_attribute as A;
    Ok(DeviceInfo {
        dev,
        name: result::device::get_name(dev).map_err(err("Cuda::new"))?,
        major: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        minor: attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        sm_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        // SAFETY: `dev` is a valid device handle.
        total_mem: unsafe { result::device::total_mem(dev) }.map_err(err("Cuda::new"))?,
    })
}

/// Retains the device's primary context, makes it current, creates a non-blocking stream
/// and returns the device's default memory pool with its release threshold raised (so freed
/// memory stays cached instead of going back to the driver at every synchronisation).
pub(crate) fn open(dev: CUdevice) -> Result<(CUcontext, CUstream, CUmemoryPool)> {
    // SAFETY: `dev` is valid; the context is retained for the life of the process.
    let ctx = unsafe { result::primary_ctx::retain(dev) }.map_err(err("Cuda::new"))?;
    // SAFETY: `ctx` was just retained.
    unsafe { result::ctx::set_current(ctx) }.map_err(err("Cuda::new"))?;
    let stream = result::stream::create(result::stream::StreamKind::NonBlocking)
        .map_err(err("Cuda::new"))?;
    // SAFETY: `dev` is valid.
    let pool = unsafe { result::device::get_default_mem_pool(dev) }.map_err(err("Cuda::new"))?;
    let mut threshold: u64 = u64::MAX;
    // SAFETY: the attribute is a u64.
    unsafe {
        result::mem_pool::set_attribute(
            pool,
            sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            &mut threshold as *mut u64 as *mut c_void,
        )
    }
    .map_err(err("Cuda::new"))?;
    Ok((ctx, stream, pool))
}

/// Makes `ctx` current on the calling thread (a no-op when it already is).
pub(crate) fn make_current(ctx: CUcontext) -> Result<()> {
    thread_local! {
        static CURRENT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    CURRENT.with(|c| {
        if c.get() != ctx as usize {
            // SAFETY: `ctx` is a retained primary context.
            unsafe { result::ctx::set_current(ctx) }.map_err(err("set_current"))?;
            c.set(ctx as usize);
        }
        Ok(())
    })
}

/// Waits for the stream.
pub(crate) fn stream_sync(stream: CUstream) -> Result<()> {
    // SAFETY: `stream` is a live stream of the current context.
    unsafe { result::stream::synchronize(stream) }.map_err(err("synchronize"))
}

/// A new non-blocking stream in the current context.
pub(crate) fn stream_create() -> Result<CUstream> {
    result::stream::create(result::stream::StreamKind::NonBlocking).map_err(err("new_stream"))
}

/// Waits for all work of the current context, on every stream.
pub(crate) fn ctx_sync() -> Result<()> {
    result::ctx::synchronize().map_err(err("synchronize"))
}

/// Makes work queued on `to` from now on wait for everything queued on `from` so far (an
/// event recorded on `from`, waited on by `to`, then released: the driver keeps it alive
/// until the wait is resolved).
pub(crate) fn order_streams(from: CUstream, to: CUstream) -> Result<()> {
    let ev = result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)
        .map_err(err("stream ordering"))?;
    // SAFETY: `ev` was just created; both streams are live streams of the current context.
    let r = unsafe { result::event::record(ev, from) }.and_then(|()| unsafe {
        result::stream::wait_event(to, ev, sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT)
    });
    // SAFETY: `ev` is live and destroyed once; a pending wait keeps what it needs.
    let _ = unsafe { result::event::destroy(ev) };
    r.map_err(err("stream ordering"))
}

/// A CUDA event, owned: destroyed on drop. [`Event::timing`] makes one that can be timed
/// (`CU_EVENT_DEFAULT`), [`Event::ordering`] one that only orders streams and is cheaper to
/// record and wait on (`CU_EVENT_DISABLE_TIMING`: `cuEventElapsedTime` fails on it). Its
/// calls take handles of the context it was created in, made current by the caller.
#[derive(Debug)]
pub(crate) struct Event(sys::CUevent);

// SAFETY: an event is a driver handle usable from any thread with its context current; the
// handle itself is never mutated.
unsafe impl Send for Event {}
// SAFETY: as above.
unsafe impl Sync for Event {}

impl Event {
    /// A new event in the current context, with timing.
    pub(crate) fn timing(op: &'static str) -> Result<Event> {
        let ev = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).map_err(err(op))?;
        Ok(Event(ev))
    }

    /// A new event in the current context, without timing: for ordering streams and for
    /// waiting on the host.
    pub(crate) fn ordering(op: &'static str) -> Result<Event> {
        let ev =
            result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING).map_err(err(op))?;
        Ok(Event(ev))
    }

    /// Records the event on `stream` (a live stream of the event's context).
    pub(crate) fn record(&self, stream: CUstream, op: &'static str) -> Result<()> {
        // SAFETY: the event is live (owned); the stream is a live stream of its context.
        unsafe { result::event::record(self.0, stream) }.map_err(err(op))
    }

    /// Waits until the work before the event's last record has finished.
    pub(crate) fn synchronize(&self, op: &'static str) -> Result<()> {
        // SAFETY: the event is live (owned).
        unsafe { result::event::synchronize(self.0) }.map_err(err(op))
    }

    /// Whether the work before the event's last record has finished (never waits).
    pub(crate) fn is_complete(&self, op: &'static str) -> Result<bool> {
        // SAFETY: the event is live (owned).
        match unsafe { result::event::query(self.0) } {
            Ok(()) => Ok(true),
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            Err(e) => Err(err(op)(e)),
        }
    }

    /// Milliseconds between the records of `start` and `end` (both recorded, `end`
    /// complete; the driver reports an error otherwise).
    pub(crate) fn elapsed_ms(start: &Event, end: &Event, op: &'static str) -> Result<f32> {
        // SAFETY: both events are live (owned) and were created with timing enabled.
        unsafe { result::event::elapsed(start.0, end.0) }.map_err(err(op))
    }

    /// Makes work queued on `stream` (a live stream of the event's context) from now on
    /// wait for the event's last record.
    pub(crate) fn wait_on(&self, stream: CUstream) -> Result<()> {
        // SAFETY: the event is live (owned); the stream is a live stream of its context.
        unsafe {
            result::stream::wait_event(
                stream,
                self.0,
                sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT,
            )
        }
        .map_err(err("wait_event"))
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: the event is owned by this value alone and destroyed exactly once, here;
        // the driver releases it once any pending record completes. A failure cannot be
        // reported and leaks at most one event.
        let _ = unsafe { result::event::destroy(self.0) };
    }
}

/// Stream-ordered allocation from `pool`; `Err(DriverError)` keeps the code for OOM handling.
pub(crate) fn alloc_async(
    pool: CUmemoryPool,
    bytes: usize,
    stream: CUstream,
) -> std::result::Result<CUdeviceptr, DriverError> {
    // SAFETY: pool and stream are valid; the memory is uninitialised and owned by the caller.
    unsafe { result::mem_pool::alloc_async(pool, bytes, stream) }
}

/// Stream-ordered free.
pub(crate) fn free_async(ptr: CUdeviceptr, stream: CUstream) -> Result<()> {
    // SAFETY: `ptr` came from `alloc_async` and is freed once.
    unsafe { result::free_async(ptr, stream) }.map_err(err("free"))
}

/// Returns cached pool memory to the driver, keeping at most `keep` bytes.
pub(crate) fn pool_trim(pool: CUmemoryPool, keep: usize) -> Result<()> {
    // SAFETY: `pool` is valid.
    unsafe { result::mem_pool::trim_to(pool, keep) }.map_err(err("free_cached"))
}

/// A u64 attribute of the pool (reserved or used bytes).
pub(crate) fn pool_attr(pool: CUmemoryPool, attr: sys::CUmemPool_attribute) -> Result<u64> {
    let mut v: u64 = 0;
    // SAFETY: the attributes read here are u64.
    unsafe { result::mem_pool::get_attribute(pool, attr, &mut v as *mut u64 as *mut c_void) }
        .map_err(err("memory_info"))?;
    Ok(v)
}

pub(crate) use sys::CUmemPool_attribute as PoolAttr;

/// Free and total device memory of the current context's device.
pub(crate) fn mem_info() -> Result<(usize, usize)> {
    result::mem_get_info().map_err(err("memory_info"))
}

/// Asynchronous host-to-device copy. Pageable source memory is staged by the driver before
/// this returns, so the source may be dropped afterwards.
pub(crate) fn htod<T>(dst: CUdeviceptr, src: &[T], stream: CUstream) -> Result<()> {
    if src.is_empty() {
        return Ok(());
    }
    // SAFETY: `dst` holds at least `src.len()` elements of `T`.
    unsafe { result::memcpy_htod_async(dst, src, stream) }.map_err(err("upload"))
}

/// Blocking device-to-host copy.
pub(crate) fn dtoh<T>(dst: &mut [T], src: CUdeviceptr, stream: CUstream) -> Result<()> {
    if dst.is_empty() {
        return Ok(());
    }
    // SAFETY: `src` holds at least `dst.len()` elements of `T`.
    unsafe { result::memcpy_dtoh_async(dst, src, stream) }.map_err(err("download"))?;
    stream_sync(stream)
}

/// Asynchronous device-to-device copy of `bytes` bytes.
pub(crate) fn dtod(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    bytes: usize,
    stream: CUstream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    // SAFETY: both ranges are valid device memory of at least `bytes` bytes.
    unsafe { result::memcpy_dtod_async(dst, src, bytes, stream) }.map_err(err("copy"))
}

/// Asynchronous copy of `bytes` bytes from `src` in context `src_ctx` to `dst` in
/// `dst_ctx` (`cuMemcpyPeerAsync`: direct over NVLink or PCIe where the devices can reach
/// each other, staged by the driver otherwise), queued on `stream`.
pub(crate) fn dtod_peer(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    bytes: usize,
    stream: CUstream,
) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    // SAFETY: both ranges are valid device memory of their contexts, of at least `bytes`
    // bytes; `stream` is a live stream.
    unsafe { result::memcpy_peer_async(dst_ctx, dst, src_ctx, src, bytes, stream) }
        .map_err(err("to_device"))
}

/// Lets device `dev` (context `ctx`, default pool `pool`) and device `peer` (`peer_ctx`,
/// `peer_pool`) reach each other's memory directly where the hardware allows it (NVLink or
/// PCIe peer to peer): each context enables access to the other's, and each default pool
/// grants the other device read and write access to its allocations (pool memory ignores
/// context peer access). Without this, a copy between the two is staged through host
/// memory by the driver. Returns whether the devices can reach each other; called once per
/// pair.
pub(crate) fn enable_peer_access(
    (dev, ctx, pool): (sys::CUdevice, CUcontext, sys::CUmemoryPool),
    (peer, peer_ctx, peer_pool): (sys::CUdevice, CUcontext, sys::CUmemoryPool),
) -> Result<bool> {
    const OP: &str = "to_device";
    let check = |r: sys::CUresult, what: &str| -> Result<()> {
        match r {
            sys::CUresult::CUDA_SUCCESS | sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED => {
                Ok(())
            }
            other => Err(Error::Backend {
                op: OP,
                msg: format!("{what}: {other:?}"),
            }),
        }
    };
    for (a, b) in [(dev, peer), (peer, dev)] {
        let mut can = 0;
        // SAFETY: writes one int; both devices are valid ordinals.
        check(
            unsafe { sys::cuDeviceCanAccessPeer(&mut can, a, b) },
            "cuDeviceCanAccessPeer",
        )?;
        if can == 0 {
            return Ok(false);
        }
    }
    for (here, there, there_dev, pool_here) in
        [(ctx, peer_ctx, peer, pool), (peer_ctx, ctx, dev, peer_pool)]
    {
        make_current(here)?;
        // SAFETY: both contexts are retained primary contexts.
        check(
            unsafe { sys::cuCtxEnablePeerAccess(there, 0) },
            "cuCtxEnablePeerAccess",
        )?;
        let desc = sys::CUmemAccessDesc {
            location: sys::CUmemLocation {
                type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                id: there_dev,
            },
            flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
        };
        // SAFETY: one valid descriptor for a device's default pool.
        check(
            unsafe { sys::cuMemPoolSetAccess(pool_here, &desc, 1) },
            "cuMemPoolSetAccess",
        )?;
    }
    Ok(true)
}

/// Asynchronous byte fill.
pub(crate) fn memset_u8(dst: CUdeviceptr, value: u8, bytes: usize, stream: CUstream) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    // SAFETY: `dst` is valid for `bytes` bytes.
    unsafe { result::memset_d8_async(dst, value, bytes, stream) }.map_err(err("fill"))
}

/// Loads a cubin image into the current context.
pub(crate) fn load_module(image: &[u8]) -> Result<CUmodule> {
    // SAFETY: the image is a complete cubin produced by NVRTC (it is copied by the driver).
    unsafe { result::module::load_data(image.as_ptr() as *const c_void) }
        .map_err(err("load_module"))
}

/// Looks a kernel up in a module.
pub(crate) fn get_function(module: CUmodule, name: &str) -> Result<CUfunction> {
    let c = std::ffi::CString::new(name)
        .map_err(|_| Error::invalid("get_function", "name has a NUL"))?;
    // SAFETY: `module` is loaded.
    unsafe { result::module::get_function(module, c) }.map_err(err("get_function"))
}

/// Launches a kernel on `stream`.
///
/// # Safety
/// `args` must match the kernel's parameter list in number, order and types, and every
/// pointer argument must point to device memory valid for what the kernel accesses.
pub(crate) unsafe fn launch(
    f: CUfunction,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    stream: CUstream,
    args: &mut [*mut c_void],
) -> Result<()> {
    result::launch_kernel(f, grid, block, shared, stream, args).map_err(err("launch"))
}

/// An attribute of a loaded function (`cuFuncGetAttribute`), negative values as 0.
pub(crate) fn func_attr(f: CUfunction, attr: sys::CUfunction_attribute) -> Result<u32> {
    // SAFETY: `f` is a function of a module loaded in the current context.
    let v = unsafe { result::function::get_function_attribute(f, attr) }
        .map_err(err("kernel launch"))?;
    Ok(v.max(0) as u32)
}

/// Sets an attribute of a loaded function (`cuFuncSetAttribute`).
pub(crate) fn set_func_attr(
    f: CUfunction,
    attr: sys::CUfunction_attribute,
    value: i32,
) -> Result<()> {
    // SAFETY: `f` is a function of a module loaded in the current context; the driver
    // rejects values out of the attribute's range with an error.
    unsafe { result::function::set_function_attribute(f, attr, value) }
        .map_err(err("kernel launch"))
}

/// An attribute of a device (`cuDeviceGetAttribute`), negative values as 0.
pub(crate) fn device_attr(dev: CUdevice, attr: sys::CUdevice_attribute) -> Result<u64> {
    // SAFETY: `dev` is a device handle the driver gave for an ordinal.
    let v = unsafe { result::device::get_attribute(dev, attr) }.map_err(err("kernel launch"))?;
    Ok(v.max(0) as u64)
}

/// Starts recording the work queued on `stream` into a graph, in relaxed mode (the crate's
/// own calls that are not stream work, such as loading a module or allocating on the side
/// stream, stay allowed meanwhile; the crate refuses the calls a capture cannot record
/// before they reach the driver).
pub(crate) fn begin_capture(stream: CUstream, op: &'static str) -> Result<()> {
    // SAFETY: `stream` is a live stream of the current context.
    unsafe {
        result::stream::begin_capture(
            stream,
            sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED,
        )
    }
    .map_err(err(op))
}

/// Ends the capture of `stream` and returns the recorded graph (an error when the capture
/// was invalidated).
pub(crate) fn end_capture(stream: CUstream) -> Result<sys::CUgraph> {
    // SAFETY: `stream` is a live stream of the current context that is being captured.
    unsafe { result::stream::end_capture(stream) }.map_err(err("capture"))
}

/// Destroys a graph that was not instantiated.
pub(crate) fn destroy_graph(graph: sys::CUgraph) {
    // SAFETY: `graph` came from `end_capture`, is owned by the caller and destroyed once.
    let _ = unsafe { result::graph::destroy(graph) };
}

/// A recorded graph and its executable form, owned: both destroyed on drop (the driver
/// finishes launches in flight first).
#[derive(Debug)]
pub(crate) struct GraphExec {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    nodes: usize,
}

impl GraphExec {
    /// Instantiates `graph` (taking ownership of it; destroyed on failure too).
    pub(crate) fn new(graph: sys::CUgraph, op: &'static str) -> Result<GraphExec> {
        let mut nodes = 0usize;
        // SAFETY: `graph` is a live graph; a null node array asks for the count alone.
        let counted = unsafe { sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut nodes) }
            .result()
            .map_err(err(op));
        // SAFETY: `graph` is a live graph.
        let exec = counted.and_then(|()| {
            unsafe { result::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)) }
                .map_err(err(op))
        });
        match exec {
            Ok(exec) => Ok(GraphExec { graph, exec, nodes }),
            Err(e) => {
                destroy_graph(graph);
                Err(e)
            }
        }
    }

    /// Number of nodes.
    pub(crate) fn nodes(&self) -> usize {
        self.nodes
    }

    /// Queues one launch of the graph on `stream` (a live stream of its context).
    pub(crate) fn launch(&self, stream: CUstream) -> Result<()> {
        // SAFETY: the executable graph is live (owned); the caller checked that every
        // memory it touches is alive (the graph holds it).
        unsafe { result::graph::launch(self.exec, stream) }.map_err(err("Graph::replay"))
    }
}

impl Drop for GraphExec {
    fn drop(&mut self) {
        // SAFETY: both are owned by this value alone and destroyed once, here.
        unsafe {
            let _ = result::graph::exec_destroy(self.exec);
            let _ = result::graph::destroy(self.graph);
        }
    }
}
