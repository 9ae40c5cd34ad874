//! The pending expressions of [`Fused`](super::Fused): trees of element-wise ops whose leaves
//! are views of evaluated buffers and scalars, all of one shape (core broadcasts operands
//! before the primitives see them), indexed by the flat C-order position in that shape.
//!
//! On a backend whose buffers are host memory ([`BackendBase::host_slice`]) a node evaluates
//! any run of positions ([`Node::eval`]): a leaf copies or gathers its view's elements, an op
//! evaluates its operands into block-sized temporaries and applies its scalar function
//! element by element, the same function and order as the backend's own loop, so the result
//! is bit for bit the unfused one.

use super::lower::{Instr, Program};
use super::over::{BinaryOverFn, ScalarOverFn, UnaryOverFn};
use crate::backend::BackendBase;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::{BinaryOp, UnaryOp};
use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

/// A shared node of a pending expression producing elements of `T`.
pub type Expr<T> = Arc<dyn Node<T>>;

/// A node of a pending expression.
pub trait Node<T: Element>: Send + Sync {
    /// Writes the expression's elements at the flat positions `start..start + out.len()`,
    /// taking its temporaries from `scratch` (and giving them back).
    ///
    /// # Errors
    /// A leaf whose buffer is not host memory (the backend evaluates such trees itself).
    fn eval(&self, start: usize, out: &mut [T], scratch: &mut Scratch) -> Result<()>;

    /// The elements at `start..start + len` as a slice of memory the node already holds (a
    /// C-contiguous leaf), so that an op reads them in place; `None` otherwise.
    fn slice(&self, _start: usize, _len: usize) -> Option<&[T]> {
        None
    }

    /// The length of the runs of positions that every leaf of the tree holds contiguously
    /// in memory where some leaf needs them to read in place: a view that is not
    /// C-contiguous but whose trailing axes are (a stencil's interior slice) holds each run
    /// of those axes in place; 0 when no leaf gains from runs (contiguous leaves, scalars,
    /// gathers). Runs of different leaves are products of trailing axes of the one shape, so
    /// the shortest divides the others: a tree's is the shortest of its leaves'.
    /// [`eval_runs`] evaluates one such run at a time.
    fn row(&self) -> usize {
        0
    }

    /// The one value at the positions `start..start + len` when the node reads a single
    /// element there (a broadcast operand within one of its runs of repeated positions,
    /// a scalar), so that an op takes it as a scalar operand; `None` otherwise.
    fn uniform(&self, _start: usize, _len: usize) -> Option<T> {
        None
    }

    /// The element-wise ops of the tree (a leaf counts none).
    fn ops(&self) -> usize;

    /// Whether a leaf of the tree reads the buffer at `addr`
    /// ([`BackendBase::buffer_address`]).
    fn reads(&self, addr: usize) -> bool;

    /// Appends the node's instruction (after its operands', through
    /// [`Program::operand`]) to `p`, returning its index.
    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize;

    /// Whether the node can be evaluated over a block holding, on entry, the elements of
    /// the leaf that reads the buffer at `addr` ([`eval_over`](Node::eval_over)): that leaf
    /// is reached only through the first operands of in-place ops (an update's chain,
    /// [`super::over`]), and no other operand reads the buffer. False by default.
    fn over(&self, _addr: usize) -> bool {
        false
    }

    /// Writes the node's elements at the positions `start..start + io.len()` into `io`,
    /// which holds on entry the elements there of the leaf that reads the buffer at `addr`:
    /// each op of the chain rewrites `io` in place. Called only where
    /// [`over`](Node::over) holds.
    ///
    /// # Errors
    /// As [`eval`](Node::eval); an internal error where [`over`](Node::over) does not hold.
    fn eval_over(&self, _addr: usize, _start: usize, _io: &mut [T], _: &mut Scratch) -> Result<()> {
        Err(not_over())
    }
}

/// The error of [`Node::eval_over`] on a node that cannot be evaluated over a block.
pub fn not_over() -> Error {
    Error::Backend {
        op: "fusion",
        msg: "an expression evaluated in place that does not update its block".into(),
    }
}

/// The shortest nonzero of two [`Node::row`]s (0 when both are 0).
pub fn shorter_row(a: usize, b: usize) -> usize {
    match (a, b) {
        (0, r) | (r, 0) => r,
        (a, b) => a.min(b),
    }
}

/// Runs shorter than this are evaluated with their neighbours (leaves copy them): below
/// it the per-run cost of walking the tree exceeds the copy it saves.
pub const MIN_ROW: usize = 64;

/// The pieces `(at, len)` of the positions `start..start + n`, cut at the multiples of
/// `row` (> 0).
pub fn row_pieces(start: usize, n: usize, row: usize) -> impl Iterator<Item = (usize, usize)> {
    let end = start + n;
    let mut at = start;
    std::iter::from_fn(move || {
        (at < end).then(|| {
            let len = (row - at % row).min(end - at);
            at += len;
            (at - len, len)
        })
    })
}

/// Evaluates `expr` at the positions `start..start + out.len()`, cut at the ends of its
/// runs ([`Node::row`], when at least [`MIN_ROW`] long) so that views holding each run
/// contiguously are read in place rather than copied.
pub fn eval_runs<T: Element>(
    expr: &dyn Node<T>,
    start: usize,
    out: &mut [T],
    scratch: &mut Scratch,
) -> Result<()> {
    let row = expr.row();
    if row < MIN_ROW {
        return expr.eval(start, out, scratch);
    }
    for (at, len) in row_pieces(start, out.len(), row) {
        expr.eval(at, &mut out[at - start..at - start + len], scratch)?;
    }
    Ok(())
}

/// The first `len` elements of `v`, grown to hold them where it is shorter (never shrunk:
/// a temporary reused for runs of different lengths would refill its tail every time).
pub fn grown<T: Element>(v: &mut Vec<T>, len: usize) -> &mut [T] {
    if v.len() < len {
        v.resize(len, T::default());
    }
    &mut v[..len]
}

/// How a view holds its positions contiguously in memory: the runs that a view leaf reads
/// in place.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// [`Node::row`] of the view: the length of its runs when it is not C-contiguous but
    /// its trailing axes are (the product of those axes), 0 when it is C-contiguous or its
    /// runs are single elements.
    pub row: usize,
    /// Whether the view is C-contiguous (one run of every position).
    pub contiguous: bool,
    /// The length of the runs of positions that read one element (the product of the
    /// trailing axes along which the view is broadcast: `m[:, None]` read as `(rows,
    /// cols)` repeats each element over `cols` positions), 0 when shorter than 2.
    pub uniform: usize,
}

impl Runs {
    /// The runs of the view `l`.
    pub fn of(l: &Layout) -> Self {
        if l.is_c_contiguous() {
            return Runs {
                row: 0,
                contiguous: true,
                uniform: 0,
            };
        }
        let mut same = 1usize;
        for (&d, &s) in l.shape().iter().zip(l.strides()).rev() {
            if d != 1 && s != 0 {
                break;
            }
            same *= d;
        }
        let mut run = 1usize;
        for (&d, &s) in l.shape().iter().zip(l.strides()).rev() {
            if d != 1 && s != run as isize {
                break;
            }
            run *= d;
        }
        Runs {
            row: if run > 1 { run } else { 0 },
            contiguous: false,
            uniform: if same > 1 { same } else { 0 },
        }
    }

    /// The buffer offset of the positions `start..start + len` of the view `l` (whose runs
    /// these are) when they lie in one run; `None` otherwise.
    pub fn offset(&self, l: &Layout, start: usize, len: usize) -> Option<usize> {
        if self.contiguous {
            return Some(l.offset() + start);
        }
        let row = self.row;
        if row == 0 || start % row + len > row {
            return None;
        }
        usize::try_from(view_offset(l, start)).ok()
    }
}

/// The buffer offset of the flat C-order position `at` of the view `l`.
pub fn view_offset(l: &Layout, mut at: usize) -> isize {
    let mut off = l.offset() as isize;
    for (&d, &s) in l.shape().iter().zip(l.strides()).rev() {
        off += (at % d) as isize * s;
        at /= d;
    }
    off
}

/// The temporaries of one evaluating thread, reused from block to block (a fresh
/// temporary per op and block would be allocated and zeroed every time).
#[derive(Default)]
pub struct Scratch(Vec<Box<dyn Any + Send>>);

impl Scratch {
    /// An empty set of temporaries.
    pub fn new() -> Self {
        Scratch::default()
    }

    /// A temporary of at least `len` elements of `T` (their values are whatever it held
    /// before; the caller uses the first `len`), in the box it is kept in (giving it back
    /// costs no allocation). It only ever grows: runs of different lengths from one block
    /// to the next would otherwise refill its tail every time.
    pub fn take<T: Element>(&mut self, len: usize) -> Box<Vec<T>> {
        let found = self.0.iter().position(|b| b.is::<Vec<T>>());
        let mut v = match found.map(|i| self.0.swap_remove(i).downcast::<Vec<T>>()) {
            Some(Ok(v)) => v,
            _ => Box::default(),
        };
        grown(&mut v, len);
        v
    }

    /// Gives a temporary back for the next block.
    pub fn give<T: Element>(&mut self, v: Box<Vec<T>>) {
        self.0.push(v);
    }
}

/// Calls `f` with the elements of `x` at `start..start + len`: borrowed where `x` holds
/// them, else evaluated into a temporary of `scratch`.
pub(crate) fn with<T: Element, R>(
    x: &Expr<T>,
    start: usize,
    len: usize,
    scratch: &mut Scratch,
    f: impl FnOnce(&[T], &mut Scratch) -> Result<R>,
) -> Result<R> {
    if let Some(s) = x.slice(start, len) {
        return f(s, scratch);
    }
    let mut tmp = scratch.take::<T>(len);
    let r = x
        .eval(start, &mut tmp[..len], scratch)
        .and_then(|()| f(&tmp[..len], scratch));
    scratch.give(tmp);
    r
}

/// A view of an evaluated buffer of the device `B`.
pub struct Leaf<B: BackendBase, T: Element> {
    dev: B,
    buf: B::Buffer<T>,
    layout: Layout,
    /// The layout's runs.
    runs: Runs,
}

impl<B: BackendBase, T: Element> Leaf<B, T> {
    /// The view `layout` of `buf`.
    pub fn new(dev: B, buf: B::Buffer<T>, layout: Layout) -> Self {
        let runs = Runs::of(&layout);
        Leaf {
            dev,
            buf,
            layout,
            runs,
        }
    }
}

impl<B: BackendBase, T: Element> Node<T> for Leaf<B, T> {
    fn eval(&self, start: usize, out: &mut [T], _: &mut Scratch) -> Result<()> {
        let data = self
            .dev
            .host_slice(&self.buf)
            .ok_or_else(|| Error::Backend {
                op: "fusion",
                msg: format!("{} buffers are not host memory", self.dev.label()),
            })?;
        read_view(data, &self.layout, start, out);
        Ok(())
    }

    fn slice(&self, start: usize, len: usize) -> Option<&[T]> {
        let data = self.dev.host_slice(&self.buf)?;
        // A piece of one contiguous run ([`eval_runs`] cuts at their ends).
        let at = self.runs.offset(&self.layout, start, len)?;
        (at + len <= data.len()).then(|| &data[at..at + len])
    }

    /// Its contiguous runs, else its runs of one repeated element (both products of
    /// trailing axes, so either divides the other leaves' runs or is divided by them).
    fn row(&self) -> usize {
        if self.runs.row > 0 {
            self.runs.row
        } else {
            self.runs.uniform
        }
    }

    fn uniform(&self, start: usize, len: usize) -> Option<T> {
        let u = self.runs.uniform;
        if u == 0 || len == 0 || start % u + len > u {
            return None;
        }
        let data = self.dev.host_slice(&self.buf)?;
        data.get(usize::try_from(view_offset(&self.layout, start)).ok()?)
            .copied()
    }

    fn ops(&self) -> usize {
        0
    }

    fn reads(&self, addr: usize) -> bool {
        self.dev.buffer_address(&self.buf) == Some(addr)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        p.leaf::<T>(&self.buf, &self.layout)
    }
}

/// Copies the elements of the view `l` of `data` at the flat C-order positions
/// `start..start + out.len()` into `out`, one run of the last axis at a time.
fn read_view<T: Element>(data: &[T], l: &Layout, start: usize, out: &mut [T]) {
    if l.is_c_contiguous() && !out.is_empty() {
        let at = l.offset() + start;
        out.copy_from_slice(&data[at..at + out.len()]);
        return;
    }
    view_runs(l, start, out.len(), |k, base, len, inner| {
        let o = &mut out[k..k + len];
        match inner {
            0 => o.fill(data[base]),
            1 => o.copy_from_slice(&data[base..base + len]),
            // Stepped through the run's elements, bounds-checked once per run (the view
            // was checked against the buffer where the leaf was made).
            s if s > 0 => {
                let run = data[base..].iter().step_by(s as usize);
                o.iter_mut().zip(run).for_each(|(x, &v)| *x = v);
            }
            s => {
                let run = data[..=base].iter().rev().step_by(s.unsigned_abs());
                o.iter_mut().zip(run).for_each(|(x, &v)| *x = v);
            }
        }
    });
}

/// Calls `run(k, p, len, step)` for the flat C-order positions `start..start + n` of the
/// view `l`, one run along its last axis at a time: `len` positions from the `k`-th
/// (counting from `start`) at the buffer offsets `p, p + step, ...` (a 0-d view is one run
/// of one element). A backend that reads or writes views by position (the CPU writing an
/// expression into a view) walks them with this.
pub fn view_runs(
    l: &Layout,
    start: usize,
    n: usize,
    mut run: impl FnMut(usize, usize, usize, isize),
) {
    if n == 0 {
        return;
    }
    let (shape, strides) = (l.shape(), l.strides());
    let Some((&row, _)) = shape.split_last() else {
        run(0, l.offset(), 1, 0);
        return;
    };
    let last = shape.len() - 1;
    let inner = strides[last];
    // The multi-index of `start`.
    let mut idx = vec![0usize; shape.len()];
    let mut rem = start;
    for d in (0..shape.len()).rev() {
        idx[d] = rem % shape[d];
        rem /= shape[d];
    }
    let mut w = 0;
    while w < n {
        let base: isize = l.offset() as isize
            + idx
                .iter()
                .zip(strides)
                .map(|(&i, &s)| i as isize * s)
                .sum::<isize>();
        let len = (row - idx[last]).min(n - w);
        run(w, base as usize, len, inner);
        w += len;
        // Next row: the last axis back to 0, the odometer of the others one step on.
        idx[last] = 0;
        for d in (0..last).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// One value at every position.
pub struct Scalar<T: Element>(pub T);

impl<T: Element> Node<T> for Scalar<T> {
    fn eval(&self, _start: usize, out: &mut [T], _: &mut Scratch) -> Result<()> {
        out.fill(self.0);
        Ok(())
    }

    fn uniform(&self, _start: usize, _len: usize) -> Option<T> {
        Some(self.0)
    }

    fn ops(&self) -> usize {
        0
    }

    fn reads(&self, _addr: usize) -> bool {
        false
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        p.push(Instr::Scalar(self.0.to_scalar()))
    }
}

/// The loop of a unary op over a block: `out[i] = op.apply(x[i])` for every `i`, in order.
/// A backend may compile its own copy ([`FusionBackend::unary_loop`](super::FusionBackend::unary_loop)):
/// the same function over the same elements, so the same bits.
pub type UnaryLoop<T, K> = fn(&K, &[T], &mut [<K as UnaryOp<T>>::Out]);

/// The loop of a binary op over a block: `out[i] = op.apply(a[i], b[i])`.
pub type BinaryLoop<T, K> = fn(&K, &[T], &[T], &mut [<K as BinaryOp<T>>::Out]);

/// The loop of a binary op with a scalar operand over a block: `out[i] = op.apply(x[i], s)`,
/// or `op.apply(s, x[i])` when the flag (`scalar_first`) is set.
pub type ScalarLoop<T, K> = fn(&K, &[T], T, bool, &mut [<K as BinaryOp<T>>::Out]);

/// The plain [`UnaryLoop`].
#[inline]
pub fn unary_loop<T: Element, K: UnaryOp<T>>(op: &K, x: &[T], out: &mut [K::Out]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = op.apply(v);
    }
}

/// The plain [`BinaryLoop`].
#[inline]
pub fn binary_loop<T: Element, K: BinaryOp<T>>(op: &K, a: &[T], b: &[T], out: &mut [K::Out]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = op.apply(x, y);
    }
}

/// The plain [`ScalarLoop`].
#[inline]
pub fn scalar_loop<T: Element, K: BinaryOp<T>>(
    op: &K,
    x: &[T],
    s: T,
    scalar_first: bool,
    out: &mut [K::Out],
) {
    if scalar_first {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = op.apply(s, v);
        }
    } else {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = op.apply(v, s);
        }
    }
}

/// `op(x)`.
pub struct Unary<T: Element, K: UnaryOp<T>> {
    /// The op.
    pub op: K,
    /// Its operand.
    pub x: Expr<T>,
    /// Its loop over a block.
    pub run: UnaryLoop<T, K>,
    /// Its evaluation over a block of the updated array, for an in-place op
    /// ([`Node::eval_over`]).
    pub over: Option<UnaryOverFn<T, K>>,
}

impl<T: Element, K: UnaryOp<T>> Unary<T, K> {
    /// `op(x)` with the plain loop.
    pub fn new(op: K, x: Expr<T>) -> Self {
        Unary {
            op,
            x,
            run: unary_loop::<T, K>,
            over: None,
        }
    }
}

impl<T: Element, K: UnaryOp<T>> Node<K::Out> for Unary<T, K> {
    fn eval(&self, start: usize, out: &mut [K::Out], scratch: &mut Scratch) -> Result<()> {
        with(&self.x, start, out.len(), scratch, |x, _| {
            (self.run)(&self.op, x, out);
            Ok(())
        })
    }

    fn row(&self) -> usize {
        self.x.row()
    }

    fn ops(&self) -> usize {
        1 + self.x.ops()
    }

    fn reads(&self, addr: usize) -> bool {
        self.x.reads(addr)
    }

    fn over(&self, addr: usize) -> bool {
        self.over.is_some() && self.x.over(addr)
    }

    fn eval_over(
        &self,
        addr: usize,
        start: usize,
        io: &mut [K::Out],
        s: &mut Scratch,
    ) -> Result<()> {
        self.over.ok_or_else(not_over)?(self, addr, start, io, s)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        let x = p.operand(&self.x);
        p.push(Instr::Unary {
            op: K::NAME,
            t: T::DTYPE,
            out: K::Out::DTYPE,
            params: self.op.params(),
            x,
        })
    }
}

/// `op(a, b)`. An operand given twice (`d * d`) is evaluated once per block.
///
/// ```
/// # use cuprite_core::fusion::expr::{Binary, Expr, Leaf, Node, Scratch};
/// # use cuprite_core::ops::{Mul, Sub};
/// # use cuprite_core::{BackendBase, Layout};
/// # use std::sync::Arc;
/// let dev = cuprite_cpu::Cpu::new();
/// let leaf = |v: Vec<f64>| -> Expr<f64> {
///     Arc::new(Leaf::new(dev.clone(), dev.from_vec(v).unwrap(), Layout::contiguous(&[3])))
/// };
/// let d: Expr<f64> = Arc::new(Binary::new(Sub, leaf(vec![1.0, 5.0, -2.0]), leaf(vec![3.0, 1.0, 0.5])));
/// let sq = Binary::new(Mul, d.clone(), d);
/// let mut out = vec![0.0; 3];
/// sq.eval(0, &mut out, &mut Scratch::new()).unwrap();
/// assert_eq!(out, vec![4.0, 16.0, 6.25]);
/// ```
pub struct Binary<T: Element, K: BinaryOp<T>> {
    /// The op.
    pub op: K,
    /// The first operand.
    pub a: Expr<T>,
    /// The second operand.
    pub b: Expr<T>,
    /// Its loop over a block.
    pub run: BinaryLoop<T, K>,
    /// Its loop over a block where one operand is one value there ([`Node::uniform`]).
    pub scalar_run: ScalarLoop<T, K>,
    /// Its evaluation over a block of the updated array, for an in-place op
    /// ([`Node::eval_over`]).
    pub over: Option<BinaryOverFn<T, K>>,
}

impl<T: Element, K: BinaryOp<T>> Binary<T, K> {
    /// `op(a, b)` with the plain loops.
    pub fn new(op: K, a: Expr<T>, b: Expr<T>) -> Self {
        Binary {
            op,
            a,
            b,
            run: binary_loop::<T, K>,
            scalar_run: scalar_loop::<T, K>,
            over: None,
        }
    }
}

impl<T: Element, K: BinaryOp<T>> Node<K::Out> for Binary<T, K> {
    fn eval(&self, start: usize, out: &mut [K::Out], scratch: &mut Scratch) -> Result<()> {
        let n = out.len();
        // A broadcast operand within one of its runs is a scalar operand (the same values
        // in the same order: the same bits, without gathering it into a temporary).
        if let Some(s) = self.b.uniform(start, n) {
            return with(&self.a, start, n, scratch, |a, _| {
                (self.scalar_run)(&self.op, a, s, false, out);
                Ok(())
            });
        }
        if let Some(s) = self.a.uniform(start, n) {
            return with(&self.b, start, n, scratch, |b, _| {
                (self.scalar_run)(&self.op, b, s, true, out);
                Ok(())
            });
        }
        if Arc::ptr_eq(&self.a, &self.b) {
            // `d * d`: the shared operand is evaluated once.
            return with(&self.a, start, n, scratch, |a, _| {
                (self.run)(&self.op, a, a, out);
                Ok(())
            });
        }
        with(&self.a, start, n, scratch, |a, scratch| {
            with(&self.b, start, n, scratch, |b, _| {
                (self.run)(&self.op, a, b, out);
                Ok(())
            })
        })
    }

    fn row(&self) -> usize {
        shorter_row(self.a.row(), self.b.row())
    }

    fn ops(&self) -> usize {
        1 + self.a.ops() + self.b.ops()
    }

    fn reads(&self, addr: usize) -> bool {
        self.a.reads(addr) || self.b.reads(addr)
    }

    /// Its first operand evaluates over the block, and its second is that operand itself
    /// or does not read the buffer (it is read from its own memory while the block is
    /// rewritten).
    fn over(&self, addr: usize) -> bool {
        self.over.is_some()
            && self.a.over(addr)
            && (Arc::ptr_eq(&self.a, &self.b) || !self.b.reads(addr))
    }

    fn eval_over(
        &self,
        addr: usize,
        start: usize,
        io: &mut [K::Out],
        s: &mut Scratch,
    ) -> Result<()> {
        self.over.ok_or_else(not_over)?(self, addr, start, io, s)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        let (a, b) = (p.operand(&self.a), p.operand(&self.b));
        p.push(Instr::Binary {
            op: K::NAME,
            t: T::DTYPE,
            out: K::Out::DTYPE,
            params: self.op.params(),
            a,
            b,
        })
    }
}

/// `op(x, s)`, or `op(s, x)` when `scalar_first`.
pub struct BinaryScalar<T: Element, K: BinaryOp<T>> {
    /// The op.
    pub op: K,
    /// The array operand.
    pub x: Expr<T>,
    /// The scalar operand.
    pub s: T,
    /// Whether the scalar is the first operand.
    pub scalar_first: bool,
    /// Its loop over a block.
    pub run: ScalarLoop<T, K>,
    /// Its evaluation over a block of the updated array, for an in-place op
    /// ([`Node::eval_over`]).
    pub over: Option<ScalarOverFn<T, K>>,
}

impl<T: Element, K: BinaryOp<T>> BinaryScalar<T, K> {
    /// `op(x, s)` (or `op(s, x)` when `scalar_first`) with the plain loop.
    pub fn new(op: K, x: Expr<T>, s: T, scalar_first: bool) -> Self {
        BinaryScalar {
            op,
            x,
            s,
            scalar_first,
            run: scalar_loop::<T, K>,
            over: None,
        }
    }
}

impl<T: Element, K: BinaryOp<T>> Node<K::Out> for BinaryScalar<T, K> {
    fn eval(&self, start: usize, out: &mut [K::Out], scratch: &mut Scratch) -> Result<()> {
        with(&self.x, start, out.len(), scratch, |x, _| {
            (self.run)(&self.op, x, self.s, self.scalar_first, out);
            Ok(())
        })
    }

    fn row(&self) -> usize {
        self.x.row()
    }

    fn ops(&self) -> usize {
        1 + self.x.ops()
    }

    fn reads(&self, addr: usize) -> bool {
        self.x.reads(addr)
    }

    fn over(&self, addr: usize) -> bool {
        self.over.is_some() && self.x.over(addr)
    }

    fn eval_over(
        &self,
        addr: usize,
        start: usize,
        io: &mut [K::Out],
        s: &mut Scratch,
    ) -> Result<()> {
        self.over.ok_or_else(not_over)?(self, addr, start, io, s)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        let x = p.operand(&self.x);
        p.push(Instr::BinaryScalar {
            op: K::NAME,
            t: T::DTYPE,
            out: K::Out::DTYPE,
            params: self.op.params(),
            x,
            s: self.s.to_scalar(),
            scalar_first: self.scalar_first,
        })
    }
}

/// `x` converted to `U` as [`Element::cast`] converts it.
pub struct Cast<T: Element, U: Element> {
    /// The operand.
    pub x: Expr<T>,
    /// The target type.
    pub to: PhantomData<fn() -> U>,
}

impl<T: Element, U: Element> Node<U> for Cast<T, U> {
    fn eval(&self, start: usize, out: &mut [U], scratch: &mut Scratch) -> Result<()> {
        with(&self.x, start, out.len(), scratch, |x, _| {
            for (o, &v) in out.iter_mut().zip(x) {
                *o = v.cast::<U>();
            }
            Ok(())
        })
    }

    fn row(&self) -> usize {
        self.x.row()
    }

    fn ops(&self) -> usize {
        1 + self.x.ops()
    }

    fn reads(&self, addr: usize) -> bool {
        self.x.reads(addr)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        let x = p.operand(&self.x);
        p.push(Instr::Cast {
            from: T::DTYPE,
            to: U::DTYPE,
            x,
        })
    }
}

/// `cond ? a : b`.
pub struct Where<T: Element> {
    /// The condition.
    pub cond: Expr<bool>,
    /// Taken where the condition holds.
    pub a: Expr<T>,
    /// Taken elsewhere.
    pub b: Expr<T>,
}

impl<T: Element> Node<T> for Where<T> {
    fn eval(&self, start: usize, out: &mut [T], scratch: &mut Scratch) -> Result<()> {
        let n = out.len();
        with(&self.cond, start, n, scratch, |c, scratch| {
            with(&self.a, start, n, scratch, |a, scratch| {
                with(&self.b, start, n, scratch, |b, _| {
                    for (((o, &c), &x), &y) in out.iter_mut().zip(c).zip(a).zip(b) {
                        *o = if c { x } else { y };
                    }
                    Ok(())
                })
            })
        })
    }

    fn row(&self) -> usize {
        shorter_row(self.cond.row(), shorter_row(self.a.row(), self.b.row()))
    }

    fn ops(&self) -> usize {
        1 + self.cond.ops() + self.a.ops() + self.b.ops()
    }

    fn reads(&self, addr: usize) -> bool {
        self.cond.reads(addr) || self.a.reads(addr) || self.b.reads(addr)
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        let c = p.operand(&self.cond);
        let (a, b) = (p.operand(&self.a), p.operand(&self.b));
        p.push(Instr::Where {
            t: T::DTYPE,
            c,
            a,
            b,
        })
    }
}
