//! [`Communicator`]: NCCL collectives and point-to-point transfers on `Array<T, Cuda>`,
//! queued on the stream of the communicator's device handle like any other op, so they
//! order with the kernels around them without a host synchronisation.
//!
//! A communicator is one rank of a group of GPUs: one process drives several GPUs
//! ([`Communicator::new_all`], every call inside [`group`]), or each process drives one
//! ([`Communicator::from_env`] under torchrun, [`Communicator::new_rank`] with an id handed
//! around by your own means). Data moves as bytes, so every element type broadcasts,
//! gathers and travels; reductions take NCCL's types ([`ReduceOp`] says which).
//!
//! NCCL cannot see whether ranks called the same collective with the same shapes: a
//! mismatch hangs or corrupts. [`Communicator::set_checked`] makes every collective first
//! compare a description of itself across the ranks (one small all-gather and a host
//! synchronisation more), so a mismatch becomes an `Err` naming both sides. A peer that
//! dies leaves the others waiting on the GPU: [`Communicator::wait`] bounds that wait, and
//! aborts the communicator when it runs out.

use super::env::DistEnv;
use super::nccl::{check, loaded, reduce_type, ReduceOp, UniqueId};
use crate::device::Cuda;
use crate::driver::Event;
use cudarc::nccl::sys;
use cuprite_core::{Array, BackendBase, Element, Error, Layout, Result};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::time::{Duration, Instant};

thread_local! {
    /// How many [`group`] calls enclose the current one on this thread.
    static GROUP_DEPTH: Cell<usize> = const { Cell::new(0) };
    /// The arrays the calls of the open group read or write. NCCL queues a group's work
    /// only at `ncclGroupEnd`, so a buffer freed before then (a contiguous copy made for
    /// the call, a result the caller dropped) could be handed out again and overwritten
    /// while the group still has to use it: they live until the group ends.
    static GROUP_KEEP: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// `a`, kept alive until the enclosing [`group`] ends (outside a group, just `a`).
fn kept<T: Element>(a: Array<T, Cuda>) -> Array<T, Cuda> {
    if in_group() {
        GROUP_KEEP.with(|k| k.borrow_mut().push(Box::new(a.clone())));
    }
    a
}

/// Runs `f` as one NCCL group (`ncclGroupStart`/`ncclGroupEnd`): the collectives and
/// transfers it queues start together. One process driving several GPUs must call each
/// GPU's share of a collective inside one group (otherwise the first call waits for the
/// others forever), and a rank's sends and receives to several peers are grouped so that
/// they cannot wait on each other. The group is ended whatever `f` returns.
///
/// # Errors
/// `f`'s error, or NCCL's when the group fails to launch.
pub fn group<R>(f: impl FnOnce() -> Result<R>) -> Result<R> {
    const OP: &str = "group";
    loaded(OP)?;
    check(OP, "ncclGroupStart", unsafe { sys::ncclGroupStart() })?;
    GROUP_DEPTH.with(|d| d.set(d.get() + 1));
    let r = f();
    let depth = GROUP_DEPTH.with(|d| {
        d.set(d.get() - 1);
        d.get()
    });
    // SAFETY: matches the ncclGroupStart above.
    let end = check(OP, "ncclGroupEnd", unsafe { sys::ncclGroupEnd() });
    if depth == 0 {
        // The group's work is queued: its buffers may go back to the stream-ordered pool.
        drop(GROUP_KEEP.with(|k| std::mem::take(&mut *k.borrow_mut())));
    }
    let r = r?;
    end?;
    Ok(r)
}

fn in_group() -> bool {
    GROUP_DEPTH.with(|d| d.get() > 0)
}

/// One rank of an NCCL communicator, bound to one device handle (its GPU and its stream).
/// Not `Sync`: NCCL forbids concurrent calls on one communicator; move it to the thread that
/// drives its GPU instead (it is `Send`).
pub struct Communicator {
    raw: sys::ncclComm_t,
    dev: Cuda,
    rank: usize,
    world: usize,
    checked: bool,
    aborted: bool,
}

// SAFETY: an NCCL communicator may be used from any thread, one at a time; `Communicator`
// is not `Sync`, and every call takes `&self`/`&mut self` of the one owner.
unsafe impl Send for Communicator {}

impl std::fmt::Debug for Communicator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Communicator(rank {} of {}, cuda:{})",
            self.rank,
            self.world,
            self.dev.ordinal()
        )
    }
}

impl Drop for Communicator {
    fn drop(&mut self) {
        if self.raw.is_null() || self.dev.bind().is_err() {
            return;
        }
        // SAFETY: the communicator was created by NCCL and is destroyed once, here; an
        // aborted one was already freed by ncclCommAbort.
        if !self.aborted {
            let _ = unsafe { sys::ncclCommDestroy(self.raw) };
        }
    }
}

/// How long [`Communicator::new_rank`] waits for every rank to arrive and connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(120);

/// `timeout` from now, or about 136 years from now for a longer one (`Instant` cannot
/// hold every `Duration`).
fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .or_else(|| now.checked_add(Duration::from_secs(u64::from(u32::MAX))))
        .unwrap_or(now)
}

/// What a checked collective compares across the ranks (see [`Communicator::set_checked`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sig {
    call: u64,
    dtype: u64,
    shape: [u64; 6],
}

impl Sig {
    fn words(&self) -> [u64; 8] {
        let mut w = [0u64; 8];
        w[0] = self.call;
        w[1] = self.dtype;
        w[2..].copy_from_slice(&self.shape);
        w
    }
    fn describe(w: &[u64]) -> String {
        let ndim = (w[2] as usize).min(5);
        let dims: Vec<u64> = w[3..3 + ndim].to_vec();
        format!("call {:#x} of dtype #{} with shape {dims:?}", w[0], w[1])
    }
}

impl Communicator {
    /// One communicator per device of `devs` (one process driving several GPUs,
    /// `ncclCommInitAll`); rank `i` drives `devs[i]`. Call their collectives inside
    /// [`group`].
    ///
    /// # Errors
    /// No NCCL, no devices, the same GPU twice (NCCL gives each GPU one rank), NCCL's
    /// failures.
    pub fn new_all(devs: &[Cuda]) -> Result<Vec<Communicator>> {
        const OP: &str = "Communicator::new_all";
        loaded(OP)?;
        if devs.is_empty() {
            return Err(Error::invalid(OP, "no devices given"));
        }
        let ords: Vec<i32> = devs.iter().map(|d| d.ordinal() as i32).collect();
        for (i, o) in ords.iter().enumerate() {
            if ords[..i].contains(o) {
                return Err(Error::invalid(
                    OP,
                    format!("cuda:{o} appears twice in {ords:?}: NCCL gives each GPU one rank"),
                ));
            }
        }
        for d in devs {
            d.synchronize()?;
        }
        let mut raw = vec![std::ptr::null_mut(); devs.len()];
        // SAFETY: `raw` has room for one communicator per ordinal of `ords`.
        check(OP, "ncclCommInitAll", unsafe {
            sys::ncclCommInitAll(raw.as_mut_ptr(), devs.len() as i32, ords.as_ptr())
        })?;
        Ok(raw
            .into_iter()
            .zip(devs)
            .enumerate()
            .map(|(rank, (raw, dev))| Communicator {
                raw,
                dev: dev.clone(),
                rank,
                world: devs.len(),
                checked: false,
                aborted: false,
            })
            .collect())
    }

    /// Rank `rank` of a communicator of `world` ranks, on `dev` (`ncclCommInitRank`). Every
    /// rank calls this with the same `id`, made by one of them with [`UniqueId::new`];
    /// it returns once all have, and once a first small collective has connected the
    /// ranks (so that a rank dying later turns into an `Err` of [`wait`](Self::wait)).
    /// Waits at most two minutes for the other ranks: [`new_rank_within`](Self::new_rank_within)
    /// takes another bound.
    ///
    /// # Errors
    /// As [`new_rank_within`](Self::new_rank_within).
    pub fn new_rank(dev: &Cuda, rank: usize, world: usize, id: &UniqueId) -> Result<Communicator> {
        Self::new_rank_within(dev, rank, world, id, CONNECT_TIMEOUT)
    }

    /// As [`new_rank`](Self::new_rank), waiting at most `timeout` for every rank to arrive
    /// and connect. NCCL's init blocks the calling thread until all ranks have called it, so
    /// it runs on a thread of its own: when a rank never comes (it died after the ids were
    /// handed out, say), this returns an `Err` at the deadline, and that thread, still
    /// blocked inside NCCL, is left behind until the process ends (a communicator it
    /// finishes later is aborted there).
    ///
    /// # Errors
    /// No NCCL, a rank outside the world, NCCL's failures, ranks that have not all arrived
    /// and connected within `timeout` (a communicator already made is then aborted).
    pub fn new_rank_within(
        dev: &Cuda,
        rank: usize,
        world: usize,
        id: &UniqueId,
        timeout: Duration,
    ) -> Result<Communicator> {
        const OP: &str = "Communicator::new_rank";
        loaded(OP)?;
        if world == 0 || rank >= world {
            return Err(Error::invalid(
                OP,
                format!("rank {rank} is not in a world of {world}"),
            ));
        }
        let deadline = deadline_after(timeout);
        let (tx, rx) = std::sync::mpsc::channel();
        let (dev2, id) = (dev.clone(), *id);
        std::thread::Builder::new()
            .name(format!("cuprite-nccl-init-{rank}"))
            .spawn(move || {
                let made = Self::init_rank(&dev2, rank, world, &id, deadline);
                // The caller gave up: a communicator that arrived too late is aborted.
                if let Err(std::sync::mpsc::SendError(Ok(mut late))) = tx.send(made) {
                    late.abort();
                }
            })
            .map_err(|e| Error::Backend {
                op: OP,
                msg: format!("cannot start the thread of NCCL's init: {e}"),
            })?;
        // A little past the deadline, so that a first collective that `wait` bounded
        // reports its own error.
        let left = deadline.saturating_duration_since(Instant::now());
        rx.recv_timeout(left + Duration::from_secs(2))
            .unwrap_or_else(|_| {
                Err(Error::Backend {
                    op: OP,
                    msg: format!(
                        "rank {rank} of {world}: the other ranks did not all arrive within \
                         {timeout:?} (NCCL's init is left blocked on its own thread)"
                    ),
                })
            })
    }

    /// NCCL's init of one rank and a first collective that connects the ranks, on the
    /// calling thread (which it may block for good when a rank never arrives).
    fn init_rank(
        dev: &Cuda,
        rank: usize,
        world: usize,
        id: &UniqueId,
        deadline: Instant,
    ) -> Result<Communicator> {
        const OP: &str = "Communicator::new_rank";
        dev.bind()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: writes one communicator; the device's primary context is current.
        check(OP, "ncclCommInitRank", unsafe {
            sys::ncclCommInitRank(&mut raw, world as i32, id.raw(), rank as i32)
        })?;
        let mut c = Communicator {
            raw,
            dev: dev.clone(),
            rank,
            world,
            checked: false,
            aborted: false,
        };
        // NCCL connects the ranks inside their first collective, and that call blocks on
        // the host until every peer answers: one small all-reduce now, while all ranks are
        // here, so that a rank dying later leaves the others a collective that `wait` can
        // bound (and abort), not a call that never returns.
        if world > 1 {
            let one = Array::<u8, Cuda>::zeros(&[1], dev)?;
            c.all_reduce(&one, ReduceOp::Max)?;
            c.wait(deadline.saturating_duration_since(Instant::now()))?;
        }
        Ok(c)
    }

    /// Aborts the communicator (`ncclCommAbort`): its pending work is dropped and every
    /// later call fails.
    fn abort(&mut self) {
        if !self.aborted && !self.raw.is_null() && self.dev.bind().is_ok() {
            // SAFETY: the communicator is valid; ncclCommAbort frees it, once.
            let _ = unsafe { sys::ncclCommAbort(self.raw) };
            self.aborted = true;
        }
    }

    /// This process's rank of a job of one process per GPU, as torchrun launches it: the
    /// place in the job from the environment ([`DistEnv`]), the GPU `LOCAL_RANK`, and NCCL's
    /// id handed from rank 0 through the job's rendezvous within `timeout`, and every rank
    /// arrived in NCCL's init and connected within `timeout` again.
    ///
    /// # Errors
    /// As [`DistEnv::from_env`], [`Cuda::new`], the rendezvous and
    /// [`new_rank_within`](Self::new_rank_within).
    pub fn from_env(timeout: Duration) -> Result<Communicator> {
        let env = DistEnv::from_env()?;
        let dev = Cuda::new(env.local_rank)?;
        Self::from_dist_env(&env, &dev, timeout)
    }

    /// As [`from_env`](Self::from_env) with the place in the job and the device given.
    ///
    /// # Errors
    /// As [`from_env`](Self::from_env).
    pub fn from_dist_env(env: &DistEnv, dev: &Cuda, timeout: Duration) -> Result<Communicator> {
        let id = env.unique_id(timeout)?;
        Self::new_rank_within(dev, env.rank, env.world_size, &id, timeout)
    }

    /// This rank, `0..world_size()`.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    pub fn world_size(&self) -> usize {
        self.world
    }

    /// The device handle whose stream the communicator's work queues on.
    pub fn device(&self) -> &Cuda {
        &self.dev
    }

    /// Turns the cross-rank check of every collective on or off (off by default): each
    /// collective outside a [`group`] first all-gathers what it is (the call, the element
    /// type, the shape) and returns `Err` when the ranks disagree, instead of hanging or
    /// mixing data. Costs one small collective and a wait for it per call.
    pub fn set_checked(&mut self, on: bool) {
        self.checked = on;
    }

    /// Waits up to `timeout` for the work queued on the communicator's stream, watching
    /// NCCL's asynchronous errors. When a peer never arrives (a dead or stuck rank), the
    /// communicator is aborted and every later call on it fails.
    ///
    /// # Errors
    /// NCCL's asynchronous error, the timeout, a communicator already aborted.
    pub fn wait(&mut self, timeout: Duration) -> Result<()> {
        const OP: &str = "Communicator::wait";
        self.usable(OP)?;
        self.dev.bind()?;
        let done = Event::ordering(OP)?;
        done.record(self.dev.stream(), OP)?;
        let deadline = deadline_after(timeout);
        loop {
            if done.is_complete(OP)? {
                return self.async_error(OP);
            }
            self.async_error(OP)?;
            if Instant::now() >= deadline {
                self.abort();
                return Err(Error::Backend {
                    op: OP,
                    msg: format!(
                        "rank {} of {}: the queued collectives did not finish within {:?} \
                         (a rank died, or the ranks called different collectives); the \
                         communicator was aborted",
                        self.rank, self.world, timeout
                    ),
                });
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn async_error(&self, op: &'static str) -> Result<()> {
        let mut r = sys::ncclResult_t::ncclSuccess;
        // SAFETY: writes one status.
        check(op, "ncclCommGetAsyncError", unsafe {
            sys::ncclCommGetAsyncError(self.raw, &mut r)
        })?;
        if r == sys::ncclResult_t::ncclInProgress {
            return Ok(());
        }
        check(op, "a queued collective", r)
    }

    fn usable(&self, op: &'static str) -> Result<()> {
        if self.aborted {
            return Err(Error::Backend {
                op,
                msg: format!(
                    "rank {} of {}: the communicator was aborted",
                    self.rank, self.world
                ),
            });
        }
        Ok(())
    }

    /// A contiguous copy of `x` on this communicator's GPU (the array itself when it is
    /// contiguous already), checked.
    fn input<T: Element>(&self, op: &'static str, x: &Array<T, Cuda>) -> Result<Array<T, Cuda>> {
        self.on_device(op, x)?;
        Ok(kept(x.to_contiguous()?))
    }

    /// The device address of the first element of `x` (a view's offset included), ordered
    /// for work on the communicator's stream.
    fn addr<T: Element>(&self, x: &Array<T, Cuda>) -> Result<u64> {
        Ok(self.dev.ptr(x.buffer())? + (x.layout().offset() * std::mem::size_of::<T>()) as u64)
    }

    /// Checks that the communicator is usable and `x` lives on its GPU.
    fn on_device<T: Element>(&self, op: &'static str, x: &Array<T, Cuda>) -> Result<()> {
        self.usable(op)?;
        if x.device().ordinal() != self.dev.ordinal() {
            return Err(Error::DeviceMismatch {
                op,
                lhs: format!("communicator on cuda:{}", self.dev.ordinal()),
                rhs: format!("array on cuda:{}", x.device().ordinal()),
            });
        }
        Ok(())
    }

    /// Checks that `rank` (a root or a peer, as `role` says) is a rank of the world.
    fn check_rank(&self, op: &'static str, role: &str, rank: usize) -> Result<()> {
        if rank >= self.world {
            return Err(Error::invalid(
                op,
                format!("{role} {rank} is not a rank of {}", self.world),
            ));
        }
        Ok(())
    }

    /// With checks on and outside a group: all ranks compare `call` (the collective and its
    /// root or op), `T` and `shape`.
    fn agree<T: Element>(&self, op: &'static str, call: u64, shape: &[usize]) -> Result<()> {
        if !self.checked || in_group() {
            return Ok(());
        }
        let mut sig = Sig {
            call,
            dtype: T::DTYPE as u64,
            shape: [0; 6],
        };
        sig.shape[0] = shape.len() as u64;
        for (i, &d) in shape.iter().take(5).enumerate() {
            sig.shape[1 + i] = d as u64;
        }
        // Shapes of more than five axes compare their element count in the last slot.
        if shape.len() > 5 {
            sig.shape[5] = shape.iter().product::<usize>() as u64;
        }
        let mine = sig.words();
        let send = self.dev.upload(&mine)?;
        let recv = self.dev.alloc::<u64>(8 * self.world)?;
        self.launch(op, "ncclAllGather", |s| unsafe {
            Ok(sys::ncclAllGather(
                self.dev.ptr(&send)? as *const c_void,
                self.dev.ptr(&recv)? as *mut c_void,
                64,
                sys::ncclDataType_t::ncclUint8,
                self.raw,
                s,
            ))
        })?;
        let all = self.dev.download(&recv)?;
        for (r, w) in all.chunks(8).enumerate() {
            if w != mine {
                return Err(Error::invalid(
                    op,
                    format!(
                        "rank {} called {} but rank {r} called {}",
                        self.rank,
                        Sig::describe(&mine),
                        Sig::describe(w)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Queues one NCCL call on the communicator's stream.
    fn launch(
        &self,
        op: &'static str,
        what: &str,
        f: impl FnOnce(sys::cudaStream_t) -> Result<sys::ncclResult_t>,
    ) -> Result<()> {
        self.dev.bind()?;
        let r = f(self.dev.stream() as sys::cudaStream_t)?;
        check(op, what, r)
    }

    /// The element-wise reduction of `x` over all ranks, on every rank (`all_reduce`). Every
    /// rank passes an array of the same shape and type.
    ///
    /// # Errors
    /// An element type NCCL cannot reduce with `op`, an array on another GPU, an aborted
    /// communicator, NCCL's failures, and with checks on, ranks that disagree.
    pub fn all_reduce<T: Element>(
        &self,
        x: &Array<T, Cuda>,
        op: ReduceOp,
    ) -> Result<Array<T, Cuda>> {
        const OP: &str = "all_reduce";
        let (t, per) = reduce_type::<T>(OP, op)?;
        let x = self.input(OP, x)?;
        self.agree::<T>(OP, 0x100 | op as u64, x.shape())?;
        let out = self.dev.alloc::<T>(x.size())?;
        if x.size() > 0 {
            self.launch(OP, "ncclAllReduce", |s| unsafe {
                Ok(sys::ncclAllReduce(
                    self.addr(&x)? as *const c_void,
                    self.dev.ptr(&out)? as *mut c_void,
                    x.size() * per,
                    t,
                    op.raw(),
                    self.raw,
                    s,
                ))
            })?;
        }
        Array::from_raw_parts(out, Layout::contiguous(x.shape()), self.dev.clone()).map(kept)
    }

    /// `x` reduced over all ranks in place (`x` must be C-contiguous and not shared, as for
    /// any in-place write).
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce), and a view that is not C-contiguous.
    pub fn all_reduce_in_place<T: Element>(
        &self,
        x: &mut Array<T, Cuda>,
        op: ReduceOp,
    ) -> Result<()> {
        const OP: &str = "all_reduce_in_place";
        let (t, per) = reduce_type::<T>(OP, op)?;
        self.usable(OP)?;
        if !x.is_contiguous() {
            return Err(Error::invalid(
                OP,
                format!("the array must be C-contiguous (strides {:?})", x.strides()),
            ));
        }
        self.on_device(OP, x)?;
        self.agree::<T>(OP, 0x100 | op as u64, x.shape())?;
        let n = x.size();
        let (buf, layout) = x.buffer_mut()?;
        if n == 0 {
            return Ok(());
        }
        let off = layout.offset() * std::mem::size_of::<T>();
        self.launch(OP, "ncclAllReduce", |s| {
            let p = self.dev.ptr(&*buf)? + off as u64;
            // SAFETY: `p` addresses the `n` contiguous elements of the unshared view.
            Ok(unsafe {
                sys::ncclAllReduce(
                    p as *const c_void,
                    p as *mut c_void,
                    n * per,
                    t,
                    op.raw(),
                    self.raw,
                    s,
                )
            })
        })
    }

    /// Rank `root`'s `x` on every rank (`broadcast`); the other ranks' `x` gives the shape
    /// (and must match root's), not the values.
    ///
    /// # Errors
    /// A root outside the world, an array on another GPU, an aborted communicator, NCCL's
    /// failures, and with checks on, ranks that disagree.
    pub fn broadcast<T: Element>(&self, x: &Array<T, Cuda>, root: usize) -> Result<Array<T, Cuda>> {
        const OP: &str = "broadcast";
        self.check_rank(OP, "root", root)?;
        let x = if self.rank == root {
            self.input(OP, x)?
        } else {
            self.usable(OP)?;
            x.clone()
        };
        self.agree::<T>(OP, 0x200 | root as u64, x.shape())?;
        let out = self.dev.alloc::<T>(x.size())?;
        let bytes = x.size() * std::mem::size_of::<T>();
        if bytes > 0 {
            self.launch(OP, "ncclBroadcast", |s| unsafe {
                let send = if self.rank == root {
                    self.addr(&x)? as *const c_void
                } else {
                    std::ptr::null()
                };
                Ok(sys::ncclBroadcast(
                    send,
                    self.dev.ptr(&out)? as *mut c_void,
                    bytes,
                    sys::ncclDataType_t::ncclUint8,
                    root as i32,
                    self.raw,
                    s,
                ))
            })?;
        }
        Array::from_raw_parts(out, Layout::contiguous(x.shape()), self.dev.clone()).map(kept)
    }

    /// The reduction of `x` over all ranks, on rank `root` only (`reduce`): `Some` there,
    /// `None` elsewhere.
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce), and a root outside the world.
    pub fn reduce<T: Element>(
        &self,
        x: &Array<T, Cuda>,
        op: ReduceOp,
        root: usize,
    ) -> Result<Option<Array<T, Cuda>>> {
        const OP: &str = "reduce";
        let (t, per) = reduce_type::<T>(OP, op)?;
        self.check_rank(OP, "root", root)?;
        let x = self.input(OP, x)?;
        self.agree::<T>(OP, 0x300 | (op as u64) << 32 | root as u64, x.shape())?;
        let out = if self.rank == root {
            Some(self.dev.alloc::<T>(x.size())?)
        } else {
            None
        };
        if x.size() > 0 {
            self.launch(OP, "ncclReduce", |s| unsafe {
                let recv = match &out {
                    Some(o) => self.dev.ptr(o)? as *mut c_void,
                    None => std::ptr::null_mut(),
                };
                Ok(sys::ncclReduce(
                    self.addr(&x)? as *const c_void,
                    recv,
                    x.size() * per,
                    t,
                    op.raw(),
                    root as i32,
                    self.raw,
                    s,
                ))
            })?;
        }
        out.map(|o| {
            Array::from_raw_parts(o, Layout::contiguous(x.shape()), self.dev.clone()).map(kept)
        })
        .transpose()
    }

    /// Every rank's `x` stacked along a new first axis, on every rank (`all_gather`): shape
    /// `[world_size, ...x.shape]`, rank `r`'s array at index `r`.
    ///
    /// # Errors
    /// An array on another GPU, an aborted communicator, NCCL's failures, and with checks
    /// on, ranks that disagree.
    pub fn all_gather<T: Element>(&self, x: &Array<T, Cuda>) -> Result<Array<T, Cuda>> {
        const OP: &str = "all_gather";
        let x = self.input(OP, x)?;
        self.agree::<T>(OP, 0x400, x.shape())?;
        let out = self.dev.alloc::<T>(x.size() * self.world)?;
        let bytes = x.size() * std::mem::size_of::<T>();
        if bytes > 0 {
            self.launch(OP, "ncclAllGather", |s| unsafe {
                Ok(sys::ncclAllGather(
                    self.addr(&x)? as *const c_void,
                    self.dev.ptr(&out)? as *mut c_void,
                    bytes,
                    sys::ncclDataType_t::ncclUint8,
                    self.raw,
                    s,
                ))
            })?;
        }
        let mut shape = vec![self.world];
        shape.extend_from_slice(x.shape());
        Array::from_raw_parts(out, Layout::contiguous(&shape), self.dev.clone()).map(kept)
    }

    /// The reduction over all ranks of `x`, whose first axis splits into `world_size` equal
    /// blocks, scattered: rank `r` gets block `r` of the reduced array
    /// (`reduce_scatter`), shape `[n / world_size, ...]`.
    ///
    /// # Errors
    /// As [`all_reduce`](Self::all_reduce), a 0-d array, and a first axis that does not
    /// split into `world_size` blocks.
    pub fn reduce_scatter<T: Element>(
        &self,
        x: &Array<T, Cuda>,
        op: ReduceOp,
    ) -> Result<Array<T, Cuda>> {
        const OP: &str = "reduce_scatter";
        let (t, per) = reduce_type::<T>(OP, op)?;
        let shape = self.split_shape(OP, x.shape())?;
        let x = self.input(OP, x)?;
        self.agree::<T>(OP, 0x500 | op as u64, x.shape())?;
        let n = shape.iter().product::<usize>();
        let out = self.dev.alloc::<T>(n)?;
        if n > 0 {
            self.launch(OP, "ncclReduceScatter", |s| unsafe {
                Ok(sys::ncclReduceScatter(
                    self.addr(&x)? as *const c_void,
                    self.dev.ptr(&out)? as *mut c_void,
                    n * per,
                    t,
                    op.raw(),
                    self.raw,
                    s,
                ))
            })?;
        }
        Array::from_raw_parts(out, Layout::contiguous(&shape), self.dev.clone()).map(kept)
    }

    /// `x`'s first axis split into `world_size` equal blocks, block `r` sent to rank `r`;
    /// the result holds the block every rank sent to this one, in rank order (`all_to_all`,
    /// the same shape as `x`).
    ///
    /// # Errors
    /// As [`all_gather`](Self::all_gather), a 0-d array, and a first axis that does not
    /// split into `world_size` blocks.
    pub fn all_to_all<T: Element>(&self, x: &Array<T, Cuda>) -> Result<Array<T, Cuda>> {
        const OP: &str = "all_to_all";
        let block_shape = self.split_shape(OP, x.shape())?;
        let x = self.input(OP, x)?;
        self.agree::<T>(OP, 0x600, x.shape())?;
        let out = self.dev.alloc::<T>(x.size())?;
        let bytes = block_shape.iter().product::<usize>() * std::mem::size_of::<T>();
        if bytes > 0 {
            let (xp, op_) = (self.addr(&x)?, self.dev.ptr(&out)?);
            group(|| {
                for peer in 0..self.world {
                    let at = (peer * bytes) as u64;
                    self.send_bytes(OP, xp + at, bytes, peer)?;
                    self.recv_bytes(OP, op_ + at, bytes, peer)?;
                }
                Ok(())
            })?;
        }
        Array::from_raw_parts(out, Layout::contiguous(x.shape()), self.dev.clone()).map(kept)
    }

    /// The shape of one of `world_size` blocks of the first axis of `shape`.
    fn split_shape(&self, op: &'static str, shape: &[usize]) -> Result<Vec<usize>> {
        match shape.first() {
            Some(&n) if n % self.world == 0 => {
                let mut s = shape.to_vec();
                s[0] = n / self.world;
                Ok(s)
            }
            _ => Err(Error::invalid(
                op,
                format!(
                    "the first axis of shape {shape:?} must split into {} equal blocks",
                    self.world
                ),
            )),
        }
    }

    /// Sends `x` to rank `peer`, which receives it with [`recv`](Self::recv) of the same
    /// shape and type. Pairs of sends and receives between two ranks that could wait on
    /// each other belong in one [`group`].
    ///
    /// # Errors
    /// A peer outside the world, an array on another GPU, an aborted communicator, NCCL's
    /// failures.
    pub fn send<T: Element>(&self, x: &Array<T, Cuda>, peer: usize) -> Result<()> {
        const OP: &str = "send";
        self.check_rank(OP, "peer", peer)?;
        let x = self.input(OP, x)?;
        let bytes = x.size() * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(());
        }
        self.send_bytes(OP, self.addr(&x)?, bytes, peer)
    }

    /// Receives an array of `shape` from rank `peer` (its [`send`](Self::send)).
    ///
    /// # Errors
    /// A peer outside the world, an aborted communicator, NCCL's failures.
    pub fn recv<T: Element>(&self, shape: &[usize], peer: usize) -> Result<Array<T, Cuda>> {
        const OP: &str = "recv";
        self.check_rank(OP, "peer", peer)?;
        self.usable(OP)?;
        let n = cuprite_core::layout::check_shape(OP, shape, std::mem::size_of::<T>())?;
        let out = self.dev.alloc::<T>(n)?;
        let bytes = n * std::mem::size_of::<T>();
        if bytes > 0 {
            self.recv_bytes(OP, self.dev.ptr(&out)?, bytes, peer)?;
        }
        Array::from_raw_parts(out, Layout::contiguous(shape), self.dev.clone()).map(kept)
    }

    /// Queues `ncclSend` of `bytes` bytes at device address `addr` to `peer`.
    fn send_bytes(&self, op: &'static str, addr: u64, bytes: usize, peer: usize) -> Result<()> {
        // SAFETY: `addr` holds `bytes` bytes on this communicator's GPU, kept alive until
        // the send has run (stream order, or `kept` inside a group).
        self.launch(op, "ncclSend", |s| unsafe {
            Ok(sys::ncclSend(
                addr as *const c_void,
                bytes,
                sys::ncclDataType_t::ncclUint8,
                peer as i32,
                self.raw,
                s,
            ))
        })
    }

    /// Queues `ncclRecv` of `bytes` bytes from `peer` into device address `addr`.
    fn recv_bytes(&self, op: &'static str, addr: u64, bytes: usize, peer: usize) -> Result<()> {
        // SAFETY: `addr` has room for `bytes` bytes on this communicator's GPU, kept alive
        // until the receive has run.
        self.launch(op, "ncclRecv", |s| unsafe {
            Ok(sys::ncclRecv(
                addr as *mut c_void,
                bytes,
                sys::ncclDataType_t::ncclUint8,
                peer as i32,
                self.raw,
                s,
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::deadline_after;
    use std::time::{Duration, Instant};

    #[test]
    fn deadlines_hold_any_timeout() {
        let now = Instant::now();
        let d = deadline_after(Duration::from_secs(5));
        assert!(d >= now + Duration::from_secs(5) && d < Instant::now() + Duration::from_secs(6));
        // Longer than an Instant can reach: far away, and no panic.
        assert!(deadline_after(Duration::MAX) > now + Duration::from_secs(1 << 31));
        assert!(deadline_after(Duration::ZERO) <= Instant::now());
    }
}
