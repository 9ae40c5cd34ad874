//! Automatic fusion of element-wise chains: the backend decorator [`Fused<B>`].
//!
//! `Fused::new(dev)` is a device like `dev` itself, so a function generic over
//! `B: ArrayBackend` is fused by handing it a `Fused<Cpu>` instead of a `Cpu`, with no code
//! change:
//!
//! ```
//! # use cuprite_core::*;
//! # use cuprite_core::fusion::{Fused, FusionBackend};
//! fn chain<B: ArrayBackend>(x: &Array<f64, B>, y: &Array<f64, B>) -> Result<Array<f64, B>> {
//!     x.try_mul(y)?.try_add(x)?.try_sub(y)?.try_mul(&Array::scalar(0.5, x.device())?)
//! }
//! # fn demo<B: FusionBackend>(dev: B) -> Result<()> {
//! // Every size deferred (by default the CPU runs arrays below 2^15 elements at once).
//! let fused = Fused::new(dev.clone()).with_defer_min(0);
//! let x = Array::<f64, _>::from_vec(vec![1.0, 2.0, 3.0], &[3], &fused)?;
//! let y = Array::<f64, _>::from_vec(vec![4.0, 5.0, 6.0], &[3], &fused)?;
//! // Nothing has run yet: the result is one pending expression of four ops.
//! let z = chain(&x, &y)?;
//! assert_eq!(z.to_vec()?, vec![0.5, 3.5, 7.5]); // evaluated here, in one pass
//! # Ok(()) }
//! # demo(cuprite_cpu::Cpu::new()).unwrap();
//! ```
//!
//! Core still checks shapes, dtypes and arguments eagerly, so every error comes from the
//! same call as on `B`. What `Fused<B>` changes is when element-wise work runs: the
//! element-wise primitives (unary and binary ops of the registry, ops with a scalar operand,
//! casts and `where`), reading any view of their operands (strided, broadcast, negative
//! steps), only record a node of a pending expression ([`expr`]). The expression is
//! evaluated, in one pass over its output and with no temporaries in memory, when its value
//! is needed:
//!
//! - another primitive reads it (a reduction, a sort, a matmul, a copy to the host:
//!   `to_vec`, `item`), or writes into a part of it;
//! - it grows past [`MAX_OPS`] ops;
//! - [`synchronize`](crate::BackendBase::synchronize) runs (every pending expression of the
//!   device is evaluated, so that timing a call measures its work).
//!
//! An in-place op on a whole array (`x *= 5; x *= x; x += x`) extends the array's own
//! expression: the chain is one pass, written into the array's own buffer where nothing
//! else holds it (no second buffer; read by another expression or shared by a clone
//! first, it goes to a new buffer with the same values). A pending result read through a reshape keeps fusing;
//! read through another view (a slice, a transpose) it is evaluated first.
//!
//! A pending value written into a part of an array (`q[:, k] = a[:, k] / r`,
//! `a[:, j] -= q[:, k] * r`, a stencil's interior) is one pass writing that view where the
//! backend can ([`FusionBackend::eval_into`]; the CPU and CUDA do). A write into an array that a
//! pending expression still reads (`r = a[i, i].sqrt()` then `a[i, i] = r`) first evaluates
//! the expressions that read it, so the array is written in place instead of copied whole
//! (as copy-on-write would, to keep the values the expression read):
//!
//! ```
//! # use cuprite_core::*;
//! # use cuprite_core::fusion::Fused;
//! # fn demo() -> Result<()> {
//! let dev = Fused::new(cuprite_cpu::Cpu::new()).with_defer_min(0);
//! let mut a = Array::<f64, _>::from_vec(vec![4.0, 1.0, 1.0, 9.0], &[2, 2], &dev)?;
//! let r = a.slice(&s![1, 1])?.sqrt()?; // pending: reads `a`
//! a.slice_mut(&s![1, 1])?.assign(&r)?; // `r` is evaluated, then `a` written in place
//! assert_eq!(dev.stats().released, 1);
//! assert_eq!((a.to_vec()?, r.item()?), (vec![4.0, 1.0, 1.0, 3.0], 3.0));
//! # Ok(()) }
//! # demo().unwrap();
//! ```
//!
//! The evaluation is the backend's ([`FusionBackend`]): the CPU backend evaluates blocks of
//! a few thousand elements held in cache, one op at a time over the block, the blocks split
//! over its threads (numexpr's scheme). A result is bit for bit what `B` gives: every op
//! applies the same scalar function in the same order.
//!
//! Element-wise primitives over fewer than [`FusionBackend::DEFER_MIN`] elements (2^15 on
//! the CPU, where such arrays sit in cache and recording and walking an expression costs
//! more than the passes it saves; 0 on CUDA, where every op saved is a launch saved) run at once on `B`
//! ([`Fused::with_defer_min`] sets another bound).
//!
//! Fusion is turned off by `CUPRITE_FUSION=0` in the environment (read by [`Fused::new`])
//! or [`Fused::with_fusion`]: every primitive then runs at once on `B`. [`Fused::stats`]
//! counts the expressions evaluated, the ops they held, those written into views and the
//! writes that evaluated their readers first.

pub mod expr;
pub mod lower;
pub mod over;

mod elementwise;
mod forward;

use crate::backend::{ArrayBackend, BackendBase};
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use expr::{BinaryLoop, Expr, Leaf, ScalarLoop, UnaryLoop};
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// A pending expression is evaluated once it holds this many ops (deeper trees evaluate
/// blocks through long chains of temporaries, and keep many leaves alive).
pub const MAX_OPS: usize = 64;

/// A backend that can evaluate the pending expressions of [`Fused`].
pub trait FusionBackend: ArrayBackend {
    /// Whether [`eval_into`](Self::eval_into) writes expressions into views.
    const WRITES_VIEWS: bool = false;

    /// Whether [`reduce_expr`](Self::reduce_expr) fuses reductions over some of the axes
    /// (`sum(axis=1)` of a pending expression), not only over every element.
    const FUSES_AXIS_REDUCTIONS: bool = false;

    /// Element-wise primitives over fewer elements run at once on the backend instead of
    /// being deferred (where recording and evaluating an expression costs more than the
    /// passes it saves); 0 (the default) defers every size.
    const DEFER_MIN: usize = 0;

    /// The loop of the unary `op` over a block where expressions are evaluated on the host
    /// ([`expr::Node::eval`]); the default is the plain loop, a backend may give a copy
    /// compiled for its vector unit (the same function in the same order: the same bits).
    fn unary_loop<T: Element, K: UnaryOp<T>>() -> UnaryLoop<T, K> {
        expr::unary_loop::<T, K>
    }

    /// The loop of the binary `op` over a block: as [`unary_loop`](Self::unary_loop).
    fn binary_loop<T: Element, K: BinaryOp<T>>() -> BinaryLoop<T, K> {
        expr::binary_loop::<T, K>
    }

    /// The loop of the binary `op` with a scalar operand over a block: as
    /// [`unary_loop`](Self::unary_loop).
    fn scalar_loop<T: Element, K: BinaryOp<T>>() -> ScalarLoop<T, K> {
        expr::scalar_loop::<T, K>
    }

    /// The loop of the unary `op` in place over a block, for the ops of an update evaluated
    /// over the updated array's memory ([`over`]): as [`unary_loop`](Self::unary_loop).
    fn unary_over_loop<T: Element, K: UnaryOp<T, Out = T>>() -> over::UnaryOver<T, K> {
        over::unary_over::<T, K>
    }

    /// The loop of the binary `op` in place over a block: as
    /// [`unary_over_loop`](Self::unary_over_loop).
    fn binary_over_loop<T: Element, K: BinaryOp<T, Out = T>>() -> over::BinaryOver<T, K> {
        over::binary_over::<T, K>
    }

    /// A new C-contiguous buffer of `len` elements: `expr` evaluated at every position.
    ///
    /// # Errors
    /// As allocating the buffer (`Error::OutOfMemory`), or an expression leaf that is not
    /// in this backend's memory (an internal error).
    fn eval_expr<T: Element>(&self, expr: &Expr<T>, len: usize) -> Result<Self::Buffer<T>>;

    /// The reduction `op` over `axes` of `expr` read as a C-contiguous array of `shape`
    /// (at least one element): a buffer of the kept positions in C order (one element when
    /// every axis is reduced), computed in one pass with no evaluated array in memory, with
    /// the bits of this backend's reduction of the evaluated array; `None` (the default)
    /// where the backend does not fuse this reduction, and the expression is evaluated,
    /// then reduced.
    ///
    /// # Errors
    /// As [`eval_expr`](Self::eval_expr).
    fn reduce_expr<T: Element, K: ReduceOp<T>>(
        &self,
        _op: K,
        _expr: &Expr<T>,
        _shape: &[usize],
        _axes: &[usize],
    ) -> Result<Option<Self::Buffer<K::Out>>> {
        Ok(None)
    }

    /// Writes `build(view)` into the view `layout` of `dst` in one pass, where `view` is a
    /// leaf reading that same view (an in-place update `dst op= rhs` reads it, an assignment
    /// ignores it), and returns `true`; returns `false` with nothing written where the
    /// backend does not write expressions into views (the default) or cannot here.
    ///
    /// Called only when `dst` shares its memory with nothing (no other array, no leaf of a
    /// pending expression: `!needs_copy_to_write`) and `layout` holds no element twice, so
    /// the expression reads `dst` only through `view`, each position before writing it.
    ///
    /// # Errors
    /// As [`eval_expr`](Self::eval_expr), or a view outside `dst`.
    fn eval_into<T: Element>(
        &self,
        _dst: &mut Self::Buffer<T>,
        _layout: &Layout,
        _build: impl FnOnce(Expr<T>) -> Expr<T>,
    ) -> Result<bool> {
        Ok(false)
    }
}

/// The fusing decorator of a backend `B`: see the [module documentation](self).
#[derive(Clone)]
pub struct Fused<B: FusionBackend> {
    inner: B,
    shared: Arc<Shared>,
}

/// The state a device and its clones share (one allocation, so that an array's copy of
/// the device costs one reference count and a pointer's move: every array holds one, and
/// small ops make and drop several): the settings, the pending expressions, and the
/// counters behind [`Fused::stats`].
#[derive(Default)]
struct Shared {
    /// Whether element-wise primitives are deferred ([`Fused::with_fusion`]).
    on: bool,
    /// The fewest elements a deferred primitive has ([`Fused::with_defer_min`]).
    defer_min: usize,
    pending: Mutex<Vec<Weak<dyn Force>>>,
    evaluated: AtomicU64,
    fused_ops: AtomicU64,
    into_views: AtomicU64,
    released: AtomicU64,
}

impl<B: FusionBackend> fmt::Debug for Fused<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fused")
            .field("inner", &self.inner)
            .field("on", &self.shared.on)
            .field("defer_min", &self.shared.defer_min)
            .finish()
    }
}

/// Equal when the wrapped devices are equal (arrays of the same device may meet in an op).
impl<B: FusionBackend> PartialEq for Fused<B> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl<B: FusionBackend> Fused<B> {
    /// The fusing decorator of `dev`; fusion is on unless the environment says
    /// `CUPRITE_FUSION=0` (or `off`, `false`).
    pub fn new(dev: B) -> Self {
        let off = std::env::var("CUPRITE_FUSION")
            .map(|v| matches!(v.trim(), "0" | "off" | "false"))
            .unwrap_or(false);
        Fused {
            inner: dev,
            shared: Arc::new(Shared {
                on: !off,
                defer_min: B::DEFER_MIN,
                ..Shared::default()
            }),
        }
    }

    /// The same device with fusion turned on or off (off: every primitive runs at once on
    /// the wrapped backend, for debugging). Made from a device that has clones, it is a
    /// device of its own, with its own pending expressions and counters.
    pub fn with_fusion(mut self, on: bool) -> Self {
        self.settings().on = on;
        self
    }

    /// Whether element-wise primitives are deferred.
    pub fn fusing(&self) -> bool {
        self.shared.on
    }

    /// The shared state to change a setting: this handle's own (a new one, with the same
    /// settings, where clones share it).
    fn settings(&mut self) -> &mut Shared {
        if Arc::get_mut(&mut self.shared).is_none() {
            self.shared = Arc::new(Shared {
                on: self.shared.on,
                defer_min: self.shared.defer_min,
                ..Shared::default()
            });
        }
        Arc::get_mut(&mut self.shared).expect("a new state has one holder")
    }

    /// The same device deferring element-wise primitives over at least `n` elements (those
    /// over fewer run at once on the wrapped backend); the default is the backend's
    /// [`FusionBackend::DEFER_MIN`]. `with_defer_min(0)` defers every size, as the tests of
    /// the fused evaluation do. Made from a device that has clones, it is a device of its
    /// own, as with [`with_fusion`](Self::with_fusion).
    pub fn with_defer_min(mut self, n: usize) -> Self {
        self.settings().defer_min = n;
        self
    }

    /// The fewest elements a deferred primitive has ([`Fused::with_defer_min`]).
    pub fn defer_min(&self) -> usize {
        self.shared.defer_min
    }

    /// The wrapped backend.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// What this device (and its clones) has evaluated so far.
    pub fn stats(&self) -> FusionStats {
        FusionStats {
            evaluated: self.shared.evaluated.load(Ordering::Relaxed),
            fused_ops: self.shared.fused_ops.load(Ordering::Relaxed),
            into_views: self.shared.into_views.load(Ordering::Relaxed),
            released: self.shared.released.load(Ordering::Relaxed),
        }
    }

    /// Evaluates every pending expression of this device (what `synchronize` does before
    /// waiting for the wrapped device).
    ///
    /// # Errors
    /// The first evaluation that fails (an allocation): its buffer stays pending.
    pub fn flush(&self) -> Result<()> {
        self.force_where(|_| true).map(|_| ())
    }

    /// Evaluates the pending expressions of this device that `pick` chooses, returning how
    /// many were pending.
    fn force_where(&self, pick: impl Fn(&dyn Force) -> bool) -> Result<usize> {
        let live: Vec<Arc<dyn Force>> = {
            let mut list = lock(&self.shared.pending);
            list.retain(|w| w.strong_count() > 0);
            list.iter().filter_map(Weak::upgrade).collect()
        };
        let mut forced = 0;
        for p in live.iter().filter(|p| pick(p.as_ref())) {
            forced += p.force()? as usize;
        }
        Ok(forced)
    }

    /// Evaluates the pending expressions of this device that read the buffer at `addr`
    /// (every pending expression where the backend gives no addresses): they let go of
    /// their leaves, and a write into the buffer needs no copy. Counted in
    /// [`FusionStats::released`] when there were any.
    pub(crate) fn release_readers(&self, addr: Option<usize>) -> Result<()> {
        let forced = match addr {
            Some(a) => self.force_where(|p| p.reads(a))?,
            None => self.force_where(|_| true)?,
        };
        if forced > 0 {
            self.shared.released.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The buffer of `b`, evaluating it first when it is pending: borrowed where `b` is
    /// an evaluated buffer (no reference count touched: small ops pay for every one).
    pub(crate) fn ready<'a, T: Element>(
        &self,
        b: &'a FusedBuf<B, T>,
    ) -> Result<Cow<'a, B::Buffer<T>>> {
        match &b.0 {
            Repr::Ready(buf) => Ok(Cow::Borrowed(buf)),
            Repr::Lazy(slot) => slot.ready().map(Cow::Owned),
        }
    }

    /// `ready(buf)` where `b` is an evaluated buffer, `pending(expr, len)` where it is
    /// pending (`expr` gives its value as an expression, made only when called: a pending
    /// update in place is then read through a leaf of the buffer it will write, which then
    /// stops it from being written in place).
    pub(crate) fn peek<T: Element, R>(
        &self,
        b: &FusedBuf<B, T>,
        ready: impl FnOnce(&B::Buffer<T>) -> R,
        pending: impl FnOnce(&dyn Fn() -> Expr<T>, usize) -> R,
    ) -> R {
        match &b.0 {
            Repr::Ready(buf) => ready(buf),
            Repr::Lazy(slot) => match &*lock(&slot.state) {
                State::Ready(buf) => ready(buf),
                State::Pending { expr, len } => pending(&|| expr.clone(), *len),
                State::Update {
                    buf, len, build, ..
                } => pending(&|| build(whole_leaf(&self.inner, buf, *len)), *len),
            },
        }
    }

    /// `expr` as the value of a new buffer of `len` elements: pending while fusing and
    /// small enough, evaluated at once otherwise.
    pub(crate) fn defer<T: Element>(&self, expr: Expr<T>, len: usize) -> Result<FusedBuf<B, T>> {
        if !self.fusing() || expr.ops() >= MAX_OPS {
            return Ok(FusedBuf::ready(self.eval(&expr, len)?));
        }
        Ok(self.pending_slot(State::Pending { expr, len }))
    }

    /// A new slot holding `state`, on the device's list of pending work.
    fn pending_slot<T: Element>(&self, state: State<B, T>) -> FusedBuf<B, T> {
        let slot = Arc::new(Slot {
            dev: (self.inner.clone(), self.shared.clone()),
            state: Mutex::new(state),
        });
        let weak: Weak<dyn Force> = Arc::downgrade(&slot) as Weak<dyn Force>;
        let mut list = lock(&self.shared.pending);
        if list.len() >= 1024 {
            list.retain(|w| w.strong_count() > 0);
        }
        list.push(weak);
        FusedBuf(Repr::Lazy(slot))
    }

    /// `a = build(a)` for a whole array `a` of `len` elements, pending as an update of its
    /// own buffer where nothing else holds that buffer (`x *= 5; x *= x; x += x`: one pass,
    /// reading and writing `x`'s memory, with no second buffer). An array that is already
    /// such an update, held by no other array, takes `build` on top of it. `false`, with
    /// nothing done, where the backend does not write expressions in place or `a` is
    /// neither.
    pub(crate) fn update_in_place<T: Element>(
        &self,
        a: &mut FusedBuf<B, T>,
        len: usize,
        build: Build<T>,
    ) -> Result<bool> {
        if !B::WRITES_VIEWS || !self.fusing() {
            return Ok(false);
        }
        let layer = build(Arc::new(expr::Scalar(T::default()))).ops();
        match &mut a.0 {
            Repr::Ready(buf) => {
                if self.inner.needs_copy_to_write(buf) || layer >= MAX_OPS {
                    return Ok(false);
                }
                let buf = buf.clone();
                *a = self.pending_slot(State::Update {
                    buf,
                    len,
                    build,
                    ops: layer,
                });
                // The array's own clone of the buffer is gone: the state holds the only one.
                Ok(true)
            }
            Repr::Lazy(slot) => {
                if Arc::strong_count(slot) > 1 {
                    return Ok(false);
                }
                let mut state = lock(&slot.state);
                let State::Update {
                    build: prev, ops, ..
                } = &mut *state
                else {
                    return Ok(false);
                };
                let inner = prev.clone();
                *prev = Arc::new(move |x| build(inner(x)));
                *ops += layer;
                if *ops >= MAX_OPS {
                    force_state(&slot.dev, &mut state)?;
                }
                Ok(true)
            }
        }
    }

    /// Evaluates `expr` on the wrapped backend, counted in [`Fused::stats`].
    fn eval<T: Element>(&self, expr: &Expr<T>, len: usize) -> Result<B::Buffer<T>> {
        eval_counted(&self.inner, &self.shared, expr, len)
    }

    /// The operand `b` read through `l` as an expression: its pending expression when `l`
    /// reads it whole in C order (a reshape included), else a leaf over its buffer.
    ///
    /// # Errors
    /// A view outside its buffer, named after `op` (as the backends check their views).
    pub(crate) fn operand<T: Element>(
        &self,
        b: &FusedBuf<B, T>,
        l: &Layout,
        op: &'static str,
    ) -> Result<Expr<T>> {
        l.check_bounds(op, self.buffer_len_of(b))?;
        if let Some(expr) = self.pending_whole(b, l) {
            return Ok(expr);
        }
        let buf = self.ready(b)?;
        if let Some((compact, cl)) = self.compacted(&buf, l)? {
            return Ok(Arc::new(Leaf::new(self.inner.clone(), compact, cl)));
        }
        Ok(Arc::new(Leaf::new(
            self.inner.clone(),
            buf.into_owned(),
            l.clone(),
        )))
    }

    /// A strided view read through broadcast axes (`x.T - x` of a column `x` of a
    /// `(n, 3)` array: every row of the result reads the same `n` elements three apart),
    /// where the host evaluates expressions: its distinct elements copied once into a
    /// contiguous buffer, and the layout broadcasting that buffer. Every run of the leaf is
    /// then read in place instead of gathered again for every block (`None` where its runs
    /// are already contiguous or repeat one element, or where it repeats too little for
    /// the copy to pay).
    fn compacted<T: Element>(
        &self,
        buf: &B::Buffer<T>,
        l: &Layout,
    ) -> Result<Option<(B::Buffer<T>, Layout)>> {
        let (shape, strides) = (l.shape(), l.strides());
        if !B::HOST_MEMORY || matches!(strides.last(), None | Some(0) | Some(1)) {
            return Ok(None);
        }
        let distinct: Vec<usize> = shape
            .iter()
            .zip(strides)
            .map(|(&d, &s)| if s == 0 { 1 } else { d })
            .collect();
        if crate::layout::shape_size(&distinct) * 4 > l.size() {
            return Ok(None);
        }
        let view = Layout::new(distinct.clone(), strides.to_vec(), l.offset());
        let compact = self.inner.copy(buf, &view)?;
        let cl = Layout::contiguous(&distinct).broadcast_to("fusion", shape)?;
        Ok(Some((compact, cl)))
    }

    /// The pending expression of `b` when `l` reads it whole in C order.
    fn pending_whole<T: Element>(&self, b: &FusedBuf<B, T>, l: &Layout) -> Option<Expr<T>> {
        self.peek(b, |_| None, |expr, len| reads_whole(l, len).then(expr))
    }

    /// The reduction `op` over `axes` of the pending `x` (read whole through `lx`) fused
    /// into its evaluation, where the backend can; `None` otherwise.
    pub(crate) fn fused_reduce<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axes: &[usize],
    ) -> Result<Option<B::Buffer<K::Out>>> {
        if !self.fusing() || lx.size() == 0 {
            return Ok(None);
        }
        let Some(expr) = self.pending_whole(x, lx) else {
            return Ok(None);
        };
        let out = self.inner.reduce_expr(op, &expr, lx.shape(), axes)?;
        if out.is_some() {
            self.shared.evaluated.fetch_add(1, Ordering::Relaxed);
            self.shared
                .fused_ops
                .fetch_add(expr.ops() as u64 + 1, Ordering::Relaxed);
        }
        Ok(out)
    }

    /// Writes `build(view)` (`view`: a leaf reading the view `l` of `dst`) into that view in
    /// one pass, where the backend can ([`FusionBackend::eval_into`]): fusing, `dst` shared
    /// with nothing, `l` holding no element twice. `false`, with nothing done, otherwise.
    pub(crate) fn write_into<T: Element>(
        &self,
        dst: &mut FusedBuf<B, T>,
        l: &Layout,
        build: impl FnOnce(Expr<T>) -> Expr<T>,
    ) -> Result<bool> {
        if !self.fusing() || l.size() == 0 || dst.slot_shared() || !l.is_writeable_without_overlap()
        {
            return Ok(false);
        }
        self.with_mut(dst, |buf| {
            into_counted(&self.inner, &self.shared, buf, l, build)
        })
    }

    /// Runs `f` on the wrapped buffer of `b` (evaluated first when pending), to write it.
    pub(crate) fn with_mut<T: Element, R>(
        &self,
        b: &mut FusedBuf<B, T>,
        f: impl FnOnce(&mut B::Buffer<T>) -> Result<R>,
    ) -> Result<R> {
        if let Repr::Lazy(slot) = &b.0 {
            if Arc::strong_count(slot) > 1 {
                // Shared: written through the slot (core makes a writer's buffer its own
                // first, so only an array and its views share one here).
                let mut state = lock(&slot.state);
                force_state(&slot.dev, &mut state)?;
                return match &mut *state {
                    State::Ready(buf) => f(buf),
                    _ => unreachable!("forced above"),
                };
            }
            // Its only holder: the evaluated buffer replaces the slot.
            let buf = slot.ready()?;
            b.0 = Repr::Ready(buf);
        }
        match &mut b.0 {
            Repr::Ready(buf) => f(buf),
            Repr::Lazy(_) => unreachable!("replaced above"),
        }
    }
}

/// `build(view)` written into the view `l` of `buf` by `dev` where nothing else holds `buf`
/// and the backend can ([`FusionBackend::eval_into`]), counted in `counts`; `false` with
/// nothing written otherwise.
fn into_counted<B: FusionBackend, T: Element>(
    dev: &B,
    counts: &Shared,
    buf: &mut B::Buffer<T>,
    l: &Layout,
    build: impl FnOnce(Expr<T>) -> Expr<T>,
) -> Result<bool> {
    if dev.needs_copy_to_write(buf) {
        return Ok(false);
    }
    let mut ops = 0;
    let done = dev.eval_into(buf, l, |view| {
        let e = build(view);
        ops = e.ops();
        e
    })?;
    if done {
        counts.evaluated.fetch_add(1, Ordering::Relaxed);
        counts.fused_ops.fetch_add(ops as u64, Ordering::Relaxed);
        counts.into_views.fetch_add(1, Ordering::Relaxed);
    }
    Ok(done)
}

/// Evaluates `expr` on `dev`, counted in `counts`.
fn eval_counted<B: FusionBackend, T: Element>(
    dev: &B,
    counts: &Shared,
    expr: &Expr<T>,
    len: usize,
) -> Result<B::Buffer<T>> {
    let out = dev.eval_expr(expr, len)?;
    counts.evaluated.fetch_add(1, Ordering::Relaxed);
    counts
        .fused_ops
        .fetch_add(expr.ops() as u64, Ordering::Relaxed);
    Ok(out)
}

/// What a [`Fused`] device has done: see [`Fused::stats`]. The profiler
/// ([`crate::profiler::benchmark`]) reports what the timed calls added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FusionStats {
    /// Pending expressions evaluated (each one pass over its output).
    pub evaluated: u64,
    /// Element-wise ops those expressions held (the passes a backend without fusion makes).
    pub fused_ops: u64,
    /// Of the evaluations, those written straight into a view of an array (`q[:, k] = x / r`,
    /// `a[:, j] -= u * v`: [`FusionBackend::eval_into`]) or into the array's own buffer (an
    /// in-place chain on a whole array: `x *= 5; x *= x`).
    pub into_views: u64,
    /// Writes before which pending expressions reading the written array were evaluated,
    /// so that it was written in place rather than copied.
    pub released: u64,
}

/// A buffer of [`Fused<B>`]: a buffer of `B`, or a pending expression that becomes one when
/// read. Clones share it (and its evaluation).
pub struct FusedBuf<B: FusionBackend, T: Element>(Repr<B, T>);

/// What a [`FusedBuf`] holds: an evaluated buffer (the result of a primitive that ran: no
/// lock, no allocation of its own), or the slot of a pending expression, which its clones
/// share and which becomes the evaluated buffer when one of them reads it.
enum Repr<B: FusionBackend, T: Element> {
    Ready(B::Buffer<T>),
    Lazy(Arc<Slot<B, T>>),
}

impl<B: FusionBackend, T: Element> Clone for FusedBuf<B, T> {
    fn clone(&self) -> Self {
        FusedBuf(match &self.0 {
            Repr::Ready(buf) => Repr::Ready(buf.clone()),
            Repr::Lazy(slot) => Repr::Lazy(slot.clone()),
        })
    }
}

impl<B: FusionBackend, T: Element> FusedBuf<B, T> {
    /// A buffer of `B`, already evaluated.
    pub(crate) fn ready(buf: B::Buffer<T>) -> Self {
        FusedBuf(Repr::Ready(buf))
    }

    /// Whether another buffer shares this one's pending slot.
    pub(crate) fn slot_shared(&self) -> bool {
        matches!(&self.0, Repr::Lazy(slot) if Arc::strong_count(slot) > 1)
    }
}

/// The shared state of a pending [`FusedBuf`].
struct Slot<B: FusionBackend, T: Element> {
    /// The device that evaluates the pending expression, and its counters.
    dev: (B, Arc<Shared>),
    state: Mutex<State<B, T>>,
}

enum State<B: BackendBase, T: Element> {
    Ready(B::Buffer<T>),
    Pending {
        expr: Expr<T>,
        len: usize,
    },
    /// `buf` (of `len` elements, held by nothing else when it was made) to be replaced by
    /// `build(its values)`: written in place where it still is the only holder
    /// ([`FusionBackend::eval_into`]), else evaluated into a new buffer. `ops`: those
    /// `build` adds.
    Update {
        buf: B::Buffer<T>,
        len: usize,
        build: Build<T>,
        ops: usize,
    },
}

/// A pending update's expression of the values it updates.
pub(crate) type Build<T> = Arc<dyn Fn(Expr<T>) -> Expr<T> + Send + Sync>;

/// A leaf reading all `len` elements of `buf` in order.
fn whole_leaf<B: FusionBackend, T: Element>(dev: &B, buf: &B::Buffer<T>, len: usize) -> Expr<T> {
    Arc::new(Leaf::new(
        dev.clone(),
        buf.clone(),
        Layout::contiguous(&[len]),
    ))
}

impl<B: FusionBackend, T: Element> Slot<B, T> {
    /// The wrapped buffer, evaluated first when pending.
    fn ready(&self) -> Result<B::Buffer<T>> {
        let mut state = lock(&self.state);
        force_state(&self.dev, &mut state)?;
        match &*state {
            State::Ready(buf) => Ok(buf.clone()),
            _ => unreachable!("forced above"),
        }
    }
}

/// Evaluates a pending state in place (a ready one is left as it is).
fn force_state<B: FusionBackend, T: Element>(
    (dev, counts): &(B, Arc<Shared>),
    state: &mut MutexGuard<'_, State<B, T>>,
) -> Result<()> {
    let out = match &mut **state {
        State::Ready(_) => return Ok(()),
        State::Pending { expr, len } => eval_counted(dev, counts, expr, *len)?,
        State::Update {
            buf, len, build, ..
        } => {
            // An expression that read the update's value holds a leaf of `buf`: it then
            // needs the values `buf` has now, and the update goes to a new buffer.
            let whole = Layout::contiguous(&[*len]);
            if into_counted(dev, counts, buf, &whole, |view| build(view))? {
                buf.clone()
            } else {
                let expr = build(whole_leaf(dev, buf, *len));
                eval_counted(dev, counts, &expr, *len)?
            }
        }
    };
    **state = State::Ready(out);
    Ok(())
}

/// A pending buffer of any element type, as the device's list of pending work holds it.
trait Force: Send + Sync {
    /// Evaluates it where pending (`true`: it was).
    fn force(&self) -> Result<bool>;

    /// Whether it is pending with a leaf reading the buffer at `addr`.
    fn reads(&self, addr: usize) -> bool;
}

impl<B: FusionBackend, T: Element> Force for Slot<B, T> {
    fn force(&self) -> Result<bool> {
        let mut state = lock(&self.state);
        let pending = !matches!(&*state, State::Ready(_));
        force_state(&self.dev, &mut state)?;
        Ok(pending)
    }

    fn reads(&self, addr: usize) -> bool {
        match &*lock(&self.state) {
            State::Pending { expr, .. } => expr.reads(addr),
            State::Update { buf, build, .. } => {
                let dev = &self.dev.0;
                dev.buffer_address(buf) == Some(addr)
                    || build(Arc::new(expr::Scalar(T::default()))).reads(addr)
            }
            State::Ready(_) => false,
        }
    }
}

/// Whether `l` reads all `len` elements of its buffer in C order (a reshape included): a
/// pending expression then serves as the view's value, and an in-place op on the view may
/// replace the buffer's value.
fn reads_whole(l: &Layout, len: usize) -> bool {
    l.is_c_contiguous() && l.offset() == 0 && l.size() == len
}

/// Locks `m`, also after a panic elsewhere poisoned it (the state is always consistent: it
/// is replaced whole).
fn lock<X: ?Sized>(m: &Mutex<X>) -> MutexGuard<'_, X> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl FusionStats {
    /// What was done between `before` and `self` (counters taken later minus earlier).
    pub fn since(&self, before: &FusionStats) -> FusionStats {
        FusionStats {
            evaluated: self.evaluated - before.evaluated,
            fused_ops: self.fused_ops - before.fused_ops,
            into_views: self.into_views - before.into_views,
            released: self.released - before.released,
        }
    }
}
