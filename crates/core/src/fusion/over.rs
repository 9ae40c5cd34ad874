//! In-place evaluation of update chains ([`Node::eval_over`](super::expr::Node::eval_over)): `x *= 5; x *= x; x += x` on
//! a whole array (or `a[1:-1, 1:-1] += ...` on a view) is evaluated on each block of the
//! array's own memory, every op of the chain rewriting the block where it lies, so the
//! block's values move through no temporary. Evaluated through temporaries instead, the
//! block is read into one, each op writes the next, and the last is copied back: a chain of
//! one op over 4M f64 at one thread took 1.46-1.60 ms that way, where the unfused in-place
//! op takes 0.82 ms (on a 2-core AMD EPYC, the array in its L3): reading a block and
//! writing another costs more than rewriting one in place.
//!
//! The ops of an update are built by [`Fused`](super::Fused)'s in-place primitives, whose
//! output type is their operands' (`K::Out = T`): each node then carries the function that
//! evaluates it over a block ([`UnaryOverFn`], [`BinaryOverFn`], [`ScalarOverFn`]), which runs
//! its first operand over the block, then its own loop in place ([`UnaryOver`],
//! [`BinaryOver`], a backend's copy or the plain one here).

use super::FusionBackend;
use super::expr::{Binary, BinaryScalar, Scratch, Unary, with};
use crate::dtype::Element;
use crate::error::Result;
use crate::ops::{BinaryOp, UnaryOp};
use std::sync::Arc;

/// The second operand of a binary op applied in place over a block ([`BinaryOver`]).
#[derive(Clone, Copy)]
pub enum Other<'a, T> {
    /// One element for each of the block's.
    Slice(&'a [T]),
    /// One value at every position.
    Scalar(T),
    /// The block itself (`d * d`).
    Same,
}

/// The loop of a unary op in place over a block: `io[i] = op.apply(io[i])` for every `i`,
/// in order.
pub type UnaryOver<T, K> = fn(&K, &mut [T]);

/// The loop of a binary op in place over a block: `io[i] = op.apply(io[i], b)` where
/// `io_first`, else `op.apply(b, io[i])`, with `b` the other operand's element there.
pub type BinaryOver<T, K> = fn(&K, &mut [T], Other<'_, T>, bool);

/// How a unary node of an update evaluates over a block ([`Node::eval_over`](super::expr::Node::eval_over)).
pub type UnaryOverFn<T, K> =
    fn(&Unary<T, K>, usize, usize, &mut [<K as UnaryOp<T>>::Out], &mut Scratch) -> Result<()>;

/// How a binary node of an update evaluates over a block ([`Node::eval_over`](super::expr::Node::eval_over)).
pub type BinaryOverFn<T, K> =
    fn(&Binary<T, K>, usize, usize, &mut [<K as BinaryOp<T>>::Out], &mut Scratch) -> Result<()>;

/// How a node with a scalar operand of an update evaluates over a block
/// ([`Node::eval_over`](super::expr::Node::eval_over)).
pub type ScalarOverFn<T, K> = fn(
    &BinaryScalar<T, K>,
    usize,
    usize,
    &mut [<K as BinaryOp<T>>::Out],
    &mut Scratch,
) -> Result<()>;

/// The plain [`UnaryOver`].
#[inline]
pub fn unary_over<T: Element, K: UnaryOp<T, Out = T>>(op: &K, io: &mut [T]) {
    for v in io.iter_mut() {
        *v = op.apply(*v);
    }
}

/// The plain [`BinaryOver`].
#[inline]
pub fn binary_over<T: Element, K: BinaryOp<T, Out = T>>(
    op: &K,
    io: &mut [T],
    b: Other<'_, T>,
    io_first: bool,
) {
    match (b, io_first) {
        (Other::Slice(b), true) => io
            .iter_mut()
            .zip(b)
            .for_each(|(v, &y)| *v = op.apply(*v, y)),
        (Other::Slice(b), false) => io
            .iter_mut()
            .zip(b)
            .for_each(|(v, &y)| *v = op.apply(y, *v)),
        (Other::Scalar(s), true) => io.iter_mut().for_each(|v| *v = op.apply(*v, s)),
        (Other::Scalar(s), false) => io.iter_mut().for_each(|v| *v = op.apply(s, *v)),
        (Other::Same, _) => io.iter_mut().for_each(|v| *v = op.apply(*v, *v)),
    }
}

/// [`Node::eval_over`](super::expr::Node::eval_over) of `op(x)`: `x` over the block, then the op in place.
pub fn unary<B: FusionBackend, T: Element, K: UnaryOp<T, Out = T>>(
    n: &Unary<T, K>,
    addr: usize,
    start: usize,
    io: &mut [T],
    scratch: &mut Scratch,
) -> Result<()> {
    n.x.eval_over(addr, start, io, scratch)?;
    B::unary_over_loop::<T, K>()(&n.op, io);
    Ok(())
}

/// [`Node::eval_over`](super::expr::Node::eval_over) of `op(a, b)`: `a` over the block (the updated array's side: an
/// in-place op's first operand), then the op in place with `b` (a scalar where `b` is one
/// value there, the block itself where `b` is `a`).
pub fn binary<B: FusionBackend, T: Element, K: BinaryOp<T, Out = T>>(
    n: &Binary<T, K>,
    addr: usize,
    start: usize,
    io: &mut [T],
    scratch: &mut Scratch,
) -> Result<()> {
    let run = B::binary_over_loop::<T, K>();
    n.a.eval_over(addr, start, io, scratch)?;
    if Arc::ptr_eq(&n.a, &n.b) {
        run(&n.op, io, Other::Same, true);
        return Ok(());
    }
    let len = io.len();
    if let Some(s) = n.b.uniform(start, len) {
        run(&n.op, io, Other::Scalar(s), true);
        return Ok(());
    }
    with(&n.b, start, len, scratch, |b, _| {
        run(&n.op, io, Other::Slice(b), true);
        Ok(())
    })
}

/// [`Node::eval_over`](super::expr::Node::eval_over) of `op(x, s)` (or `op(s, x)`): `x` over the block, then the op in
/// place.
pub fn scalar<B: FusionBackend, T: Element, K: BinaryOp<T, Out = T>>(
    n: &BinaryScalar<T, K>,
    addr: usize,
    start: usize,
    io: &mut [T],
    scratch: &mut Scratch,
) -> Result<()> {
    n.x.eval_over(addr, start, io, scratch)?;
    B::binary_over_loop::<T, K>()(&n.op, io, Other::Scalar(n.s), !n.scalar_first);
    Ok(())
}
