//! CUDA graphs: [`Cuda::capture`] records the work that generic code queues on a device's
//! stream into a graph, and [`Graph::replay`] runs it again with one launch, at a fraction
//! of the host cost of queuing the ops one by one.
//!
//! What makes a replay safe, and how:
//! - **Memory the graph reads or writes stays alive as long as the graph.** Every buffer
//!   address a kernel or library call receives is taken through one place
//!   (`Cuda::ptr` / `check_buffer`); while a capture runs, that place makes the graph hold
//!   the buffer. Holding does not make the buffer shared: writing an input array in place
//!   between replays writes the memory the graph reads (the inputs of a time-step loop).
//! - **Memory allocated during the capture belongs to the graph** (its [`Arena`]): blocks
//!   come from the pool on a side stream, zeroed there, never from a captured allocation,
//!   and a block freed during the capture is reused by later allocations of the capture (the
//!   graph runs in capture order). Arrays that leave the capture (its outputs) keep their
//!   memory; each replay writes it again. The capture itself runs nothing: until the first
//!   replay they hold zeros (a valid value of every element type).
//! - **Frees of other memory are not recorded**: a buffer whose last use was the captured
//!   stream and that drops during the capture is freed after the capture ends.
//! - **What a graph cannot hold is an error naming the op, before anything reaches the
//!   driver**: reading data back to the host (`to_vec`, `item`, and the ops that need a count
//!   or a flag from the device: boolean masks, `nonzero`, the singular checks of `inv` and
//!   `solve`), uploads of host data, synchronisation, arrays last used on another stream,
//!   a capture inside a capture, and a replay inside a capture. The capture then ends without
//!   a graph and the closure's error is returned.
//! - One capture runs per device at a time. It records its stream only: other threads may
//!   keep working on other streams of the device meanwhile (capture on a stream of your own,
//!   [`Cuda::with_stream`], to leave the device's own stream to them).

use crate::buffer::DeviceMem;
use crate::device::{Cuda, DeviceInner};
use crate::driver::{self, CUdeviceptr, CUstream, GraphExec, OwnedStream, StreamRef};
use cuprite_core::{Error, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

#[cfg(test)]
mod tests_gpu;

/// The memory of one capture: every block it took, and those freed again during the capture
/// (for its later allocations). Blocks go back to the block cache or the pool when the last
/// holder (the graph, an output array) goes.
pub(crate) struct Arena {
    dev: Arc<DeviceInner>,
    stream: StreamRef,
    owned: Mutex<Vec<(CUdeviceptr, usize)>>,
    free: Mutex<HashMap<usize, Vec<CUdeviceptr>>>,
    /// Every buffer allocated in the arena (the live ones at the end are the outputs).
    made: Mutex<Vec<Weak<DeviceMem>>>,
}

impl Arena {
    /// A block of the arena freed during the capture, reusable by its later allocations.
    pub(crate) fn release(&self, ptr: CUdeviceptr, class: usize) {
        lock(&self.free).entry(class).or_default().push(ptr);
    }

    /// Records a buffer allocated in the arena.
    pub(crate) fn made(&self, mem: &Arc<DeviceMem>) {
        lock(&self.made).push(Arc::downgrade(mem));
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for (ptr, class) in lock(&self.owned).drain(..) {
            self.dev.release_block(ptr, class, self.stream.0);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Memory allocated outside a capture that its graph uses, by address. Each buffer counts
/// the holder in its `graph_refs` (so that holding does not make it shared) until this drops.
#[derive(Default)]
struct Held(HashMap<CUdeviceptr, Arc<DeviceMem>>);

impl Held {
    /// Holds `mem` (once).
    fn hold(&mut self, mem: &Arc<DeviceMem>) {
        self.0.entry(mem.addr()).or_insert_with(|| {
            mem.graph_refs.fetch_add(1, Ordering::Relaxed);
            mem.clone()
        });
    }

    fn iter(&self) -> impl Iterator<Item = &Arc<DeviceMem>> {
        self.0.values()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        for m in self.0.values() {
            m.graph_refs.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// What a running capture keeps.
struct CaptureState {
    arena: Arc<Arena>,
    /// Memory allocated outside the capture that the graph uses.
    held: Held,
    /// Blocks of the captured stream freed during the capture: `(address, class)`.
    deferred: Vec<(CUdeviceptr, usize)>,
    /// The thread running the capture.
    thread: std::thread::ThreadId,
}

/// A device's capture slot: which stream is being captured (none most of the time) and what
/// the capture keeps; and the side stream captures allocate on.
#[derive(Default)]
pub(crate) struct CaptureSlot {
    /// The captured stream's handle as an address (0: no capture).
    stream: AtomicUsize,
    state: Mutex<Option<CaptureState>>,
    side: Mutex<Option<OwnedStream>>,
}

impl CaptureSlot {
    /// Whether `stream` is being captured.
    fn on(&self, stream: CUstream) -> bool {
        let s = self.stream.load(Ordering::Acquire);
        s != 0 && s == stream as usize
    }

    /// The arena of the capture running on `stream`, if any.
    pub(crate) fn arena(&self, stream: CUstream) -> Option<Arc<Arena>> {
        if !self.on(stream) {
            return None;
        }
        lock(&self.state).as_ref().map(|s| s.arena.clone())
    }

    /// While `stream` is being captured, makes the graph hold `mem` (unless the capture's
    /// own arena owns it).
    pub(crate) fn hold(&self, stream: CUstream, mem: &Arc<DeviceMem>) {
        if !self.on(stream) || mem.is_empty() {
            return;
        }
        let mut st = lock(&self.state);
        let Some(st) = st.as_mut() else { return };
        if !mem.in_arena(&st.arena) {
            st.held.hold(mem);
        }
    }

    /// Keeps a block freed on `stream` for after the capture running there; false when no
    /// capture runs on `stream`.
    pub(crate) fn defer_free(&self, stream: CUstream, ptr: CUdeviceptr, class: usize) -> bool {
        if !self.on(stream) {
            return false;
        }
        match lock(&self.state).as_mut() {
            Some(st) => {
                st.deferred.push((ptr, class));
                true
            }
            None => false,
        }
    }

    /// An error naming `op` when this thread is capturing work of the device (a wait for
    /// the whole device, or a replay, inside the capture).
    pub(crate) fn check_idle(&self, op: &'static str) -> Result<()> {
        if self.stream.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        let here = std::thread::current().id();
        if lock(&self.state).as_ref().is_some_and(|s| s.thread == here) {
            Err(not_capturable(
                op,
                "waits for the device or replays a graph, which a graph capture cannot record",
            ))
        } else {
            Ok(())
        }
    }

    /// An error naming `op` when `stream` is being captured and `op` needs the host.
    pub(crate) fn check_stream(&self, stream: CUstream, op: &'static str) -> Result<()> {
        if self.on(stream) {
            Err(not_capturable(
                op,
                "copies between host and device memory or waits for the device; a graph \
                 capture records device work only (the host side would run once, not at \
                 each replay): do it before or after the capture",
            ))
        } else {
            Ok(())
        }
    }

    /// An error when an object last used on `last` is about to be used on `cur` and either
    /// is being captured.
    pub(crate) fn check_crossing(&self, last: CUstream, cur: CUstream) -> Result<()> {
        if last != cur && (self.on(last) || self.on(cur)) {
            Err(not_capturable(
                "capture",
                "an array used on another stream than the captured one cannot take part in \
                 a graph capture; use it on the captured stream only",
            ))
        } else {
            Ok(())
        }
    }
}

fn not_capturable(op: &'static str, why: &str) -> Error {
    Error::invalid(op, format!("inside a graph capture: {why}"))
}

/// A recorded graph of device work, replayed with [`Graph::replay`]. Made by
/// [`Cuda::capture`]. It holds every array buffer it reads or writes, so dropping the arrays
/// (or the graph before its replays finish) is safe. Not `Sync`: replay a graph from one
/// thread at a time.
pub struct Graph {
    exec: GraphExec,
    dev: Cuda,
    held: Held,
    outputs: Vec<Weak<DeviceMem>>,
    _arena: Arc<Arena>,
}

// SAFETY: the graph's driver objects may be used from any thread with their context
// current (replay makes it current); `Graph` is not `Sync`, so one thread uses it at a time.
unsafe impl Send for Graph {}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Graph(cuda:{}, {} nodes, holds {} buffers)",
            self.dev.ordinal(),
            self.exec.nodes(),
            self.held.0.len()
        )
    }
}

impl Graph {
    /// Queues the recorded work once more on the stream it was captured from (the host does
    /// not wait). Arrays written in place since the last replay are read with their new
    /// values; the capture's output arrays are written again. A replay inside a capture is
    /// an error.
    pub fn replay(&self) -> Result<()> {
        self.dev.inner.capture.check_idle("Graph::replay")?;
        self.dev.bind()?;
        for m in self.held.iter() {
            m.enter(&self.dev)?;
        }
        for m in self.outputs.iter().filter_map(Weak::upgrade) {
            m.enter(&self.dev)?;
        }
        self.exec.launch(self.dev.stream())
    }

    /// Number of nodes of the graph (kernels, copies, fills, library calls' kernels).
    pub fn node_count(&self) -> usize {
        self.exec.nodes()
    }

    /// The device handle the graph was captured on (its stream is the replays' stream).
    pub fn device(&self) -> &Cuda {
        &self.dev
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        let _ = self.dev.bind();
        // The executable graph is destroyed after this (the driver finishes replays in
        // flight); the held buffers and the arena free their memory after them,
        // stream-ordered.
    }
}

/// Ends the capture if the closure panics, so the stream is not left capturing.
struct Ending<'a> {
    dev: &'a Cuda,
    stream: CUstream,
    armed: bool,
}

impl Ending<'_> {
    /// Ends the capture: the recorded graph (or the driver's error) and what the capture
    /// kept. Deferred frees are done here, after the capture.
    fn end(mut self) -> (Result<driver::CUgraph>, CaptureState) {
        self.armed = false;
        let graph = driver::end_capture(self.stream);
        (graph, uninstall(self.dev))
    }
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        if self.armed {
            if let Ok(g) = driver::end_capture(self.stream) {
                driver::destroy_graph(g);
            }
            drop(uninstall(self.dev));
        }
    }
}

/// Clears the device's capture slot and frees the blocks deferred during the capture.
fn uninstall(dev: &Cuda) -> CaptureState {
    let slot = &dev.inner.capture;
    let st = lock(&slot.state).take();
    slot.stream.store(0, Ordering::Release);
    let mut st = st.expect("a capture's state is installed while it runs");
    for (ptr, class) in std::mem::take(&mut st.deferred) {
        dev.inner.release_block(ptr, class, dev.stream());
    }
    st
}

impl Cuda {
    /// Records the device work that `f` queues on this handle's stream into a [`Graph`]
    /// instead of running it, and returns the graph with `f`'s result. Replaying the graph
    /// runs the same kernels on the same memory again, at a fraction of the host cost of
    /// queuing them one by one: the common case is a time-step loop with fixed shapes.
    ///
    /// The capture runs nothing. Arrays allocated inside `f` get memory the graph owns,
    /// zeros until the first replay (also when the capture fails); those `f` returns are
    /// the outputs that every replay writes again. Arrays from before the capture that `f`
    /// reads or writes are used in place by every replay: write new values into them
    /// (`assign`, in-place ops) between replays. Run `f`'s work once eagerly before capturing
    /// it, so kernels are compiled and library plans made outside the capture.
    ///
    /// Inside `f`, reading data back to the host (`to_vec`, `item`, boolean masks,
    /// `nonzero`, `inv`/`solve`'s singular checks), uploading host data, synchronising,
    /// arrays of another stream and nested captures are errors naming the op; the capture
    /// then makes no graph and returns `f`'s error.
    ///
    /// ```no_run
    /// use cuprite_core::Array;
    /// use cuprite_cuda::Cuda;
    /// let dev = Cuda::new(0)?;
    /// let mut u = Array::<f32, Cuda>::ones(&[1024], &dev)?;
    /// let step = |u: &mut Array<f32, Cuda>| -> cuprite_core::Result<()> {
    ///     let v = (&*u * 0.5f32).exp()?;
    ///     *u += &v;
    ///     Ok(())
    /// };
    /// step(&mut u)?; // once eagerly: kernels compiled outside the capture
    /// let (graph, ()) = dev.capture(|| {
    ///     for _ in 0..100 {
    ///         step(&mut u)?;
    ///     }
    ///     Ok(())
    /// })?;
    /// for _ in 0..10 {
    ///     graph.replay()?; // 100 more steps each
    /// }
    /// let total = u.sum()?.item()?;
    /// # Ok::<(), cuprite_core::Error>(())
    /// ```
    pub fn capture<R>(&self, f: impl FnOnce() -> Result<R>) -> Result<(Graph, R)> {
        let stream = self.stream();
        {
            let mut st = lock(&self.inner.capture.state);
            if st.is_some() {
                return Err(Error::invalid(
                    "capture",
                    format!(
                        "a graph capture is already running on cuda:{}; captures do not nest",
                        self.ordinal()
                    ),
                ));
            }
            *st = Some(CaptureState {
                arena: Arc::new(Arena {
                    dev: self.inner.clone(),
                    stream: StreamRef(stream),
                    owned: Mutex::new(Vec::new()),
                    free: Mutex::new(HashMap::new()),
                    made: Mutex::new(Vec::new()),
                }),
                held: Held::default(),
                deferred: Vec::new(),
                thread: std::thread::current().id(),
            });
        }
        let begun = self
            .bind()
            .and_then(|()| driver::begin_capture(stream, "capture"));
        if let Err(e) = begun {
            // Dropped after the lock is released: dropping held buffers may free them, which
            // looks at the capture state.
            let st = lock(&self.inner.capture.state).take();
            drop(st);
            return Err(e);
        }
        self.inner
            .capture
            .stream
            .store(stream as usize, Ordering::Release);
        let ending = Ending {
            dev: self,
            stream,
            armed: true,
        };
        let r = f();
        // On every early return `st` drops, letting its held buffers and arena go.
        let (graph, st) = ending.end();
        let (graph, r) = match (graph, r) {
            (Ok(g), Ok(r)) => (g, r),
            (g, Err(e)) => {
                if let Ok(g) = g {
                    driver::destroy_graph(g);
                }
                return Err(e);
            }
            (Err(e), Ok(_)) => return Err(e),
        };
        let exec = GraphExec::new(graph, "capture")?;
        let outputs = lock(&st.arena.made)
            .iter()
            .filter(|w| w.strong_count() > 0)
            .cloned()
            .collect();
        Ok((
            Graph {
                exec,
                dev: self.clone(),
                held: st.held,
                outputs,
                _arena: st.arena,
            },
            r,
        ))
    }

    /// A block of size class `class` for an allocation inside the capture of `arena`: one
    /// the capture freed, else a new one from the pool, allocated and zeroed on the side
    /// stream (not recorded into the graph) and waited for. The capture runs nothing, so an
    /// array made inside it holds these bytes until the first replay (or for good when the
    /// capture fails): zeros are a valid value of every element type. Blocks the capture
    /// freed held zeros too, for the same reason. The block cache is not used here: its
    /// blocks may still be in use by work queued on the captured stream, which the side
    /// stream cannot wait for during the capture.
    pub(crate) fn capture_block(&self, arena: &Arc<Arena>, class: usize) -> Result<CUdeviceptr> {
        if let Some(p) = lock(&arena.free).get_mut(&class).and_then(Vec::pop) {
            return Ok(p);
        }
        self.bind()?;
        let mut side = lock(&self.inner.capture.side);
        if side.is_none() {
            *side = Some(OwnedStream::new(self.inner.ctx)?);
        }
        let s = side.as_ref().expect("created above").raw();
        let ptr = self.pool_alloc(class, s)?;
        let zeroed = driver::memset_u8(ptr, 0, class, s).and_then(|()| driver::stream_sync(s));
        lock(&arena.owned).push((ptr, class));
        zeroed?;
        Ok(ptr)
    }

    /// An error naming `op` when a graph capture is running on this handle's stream (for
    /// work that needs the host: transfers and waits).
    pub(crate) fn check_not_capturing(&self, op: &'static str) -> Result<()> {
        self.inner.capture.check_stream(self.stream(), op)
    }
}
