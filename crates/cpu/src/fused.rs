//! The CPU's evaluation of fused expressions ([`cuprite_core::fusion`]): the output is cut
//! into blocks of [`BLOCK`] elements, each evaluated by the expression tree through
//! temporaries that stay in the core's cache and are reused from block to block (one op at
//! a time over the block, numexpr's scheme; contiguous leaves are read in place, and so are
//! views whose rows are contiguous, a stencil's interior slices, the block being cut at the
//! ends of their rows: [`eval_runs`]), then copied into the fresh output (or into the view
//! of an array an expression is written to: [`crate::fused_into`]); blocks run in parallel
//! over rayon above [`par::PAR_MIN`] elements. One pass over the output whatever the number
//! of ops, where unfused ops make one pass (and one temporary in memory) each.

use crate::alloc::{fill_spare, output_vec};
use crate::par;
use crate::reduce::{fold_leaf, reduce_tree, LEAF};
use crate::simd;
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::fusion::expr::{
    binary_loop, eval_runs, grown, unary_loop, BinaryLoop, Expr, ScalarLoop, Scratch, UnaryLoop,
};
use cuprite_core::fusion::over::{self, BinaryOver, Other, UnaryOver};
use cuprite_core::fusion::FusionBackend;
use cuprite_core::ops::{with_scalar, BinaryOp, ReduceOp, ScalarBody, UnaryOp};
use cuprite_core::{Element, Layout, Result};
use rayon::prelude::*;
use std::cell::RefCell;
use std::mem::MaybeUninit;

/// Elements per evaluated block: a few of each op's temporaries fit in L1 and L2 (4096
/// f64 are 32 KiB).
pub const BLOCK: usize = 4096;

/// Evaluates the block at `start` into `out` through `tmp` (the expression's output in
/// cache) and the thread's `scratch`; every slot of `out` is written, with defaults when the
/// evaluation fails.
fn block<T: Element>(
    expr: &Expr<T>,
    start: usize,
    out: &mut [MaybeUninit<T>],
    tmp: &mut Vec<T>,
    scratch: &mut Scratch,
) -> Result<()> {
    let tmp = grown(tmp, out.len());
    let done = eval_runs(&**expr, start, tmp, scratch);
    for (o, &x) in out.iter_mut().zip(tmp.iter()) {
        o.write(x);
    }
    done
}

thread_local! {
    /// The temporaries of this thread's evaluations and fused reductions, reused from one
    /// block (and one evaluation) to the next.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// Runs `f` with the calling thread's temporaries (an output block and the scratch of the
/// ops), kept from one evaluation to the next: small expressions in a loop would allocate
/// them every time.
pub(crate) fn with_scratch<T: Element, R>(f: impl FnOnce(&mut Vec<T>, &mut Scratch) -> R) -> R {
    SCRATCH.with(|s| {
        let mut scratch = s.borrow_mut();
        let mut tmp = scratch.take::<T>(0);
        let r = f(&mut tmp, &mut scratch);
        scratch.give(tmp);
        r
    })
}

/// The op loops of the evaluation, compiled for AVX2 and FMA where the CPU has them
/// ([`simd::wide_for`], as the unfused loops of this backend are): `mul_add` in an op's
/// function is then one instruction, not a call, with the same result.
fn unary_wide<T: Element, K: UnaryOp<T>>(op: &K, x: &[T], out: &mut [K::Out]) {
    simd::wide_for::<T, K::Out, _>(|| unary_loop(op, x, out))
}

fn binary_wide<T: Element, K: BinaryOp<T>>(op: &K, a: &[T], b: &[T], out: &mut [K::Out]) {
    simd::wide_for::<T, K::Out, _>(|| binary_loop(op, a, b, out))
}

fn scalar_wide<T: Element, K: BinaryOp<T>>(op: &K, x: &[T], s: T, first: bool, out: &mut [K::Out]) {
    with_scalar(*op, s, first, Block(x, out))
}

/// The loop of [`scalar_wide`]: `f` of each element of a block into its output.
struct Block<'a, T, O>(&'a [T], &'a mut [O]);

impl<T: Element, O: Element> ScalarBody<T, O> for Block<'_, T, O> {
    type Out = ();
    fn run(self, f: impl Fn(T) -> O + Copy + Send + Sync) {
        let (x, out) = (self.0, self.1);
        simd::wide_for::<T, O, _>(|| {
            for (o, &v) in out.iter_mut().zip(x) {
                *o = f(v);
            }
        })
    }
}

/// The in-place loops of an update's ops ([`cuprite_core::fusion::over`]), compiled as the
/// loops above are.
fn unary_over_wide<T: Element, K: UnaryOp<T, Out = T>>(op: &K, io: &mut [T]) {
    simd::wide_for::<T, T, _>(|| over::unary_over(op, io))
}

fn binary_over_wide<T: Element, K: BinaryOp<T, Out = T>>(
    op: &K,
    io: &mut [T],
    b: Other<'_, T>,
    io_first: bool,
) {
    match b {
        Other::Scalar(s) => with_scalar(*op, s, !io_first, BlockIo(io)),
        b => simd::wide_for::<T, T, _>(|| over::binary_over(op, io, b, io_first)),
    }
}

/// The loop of [`binary_over_wide`] with a scalar operand: each element of a block
/// replaced by `f` of it.
struct BlockIo<'a, T>(&'a mut [T]);

impl<T: Element> ScalarBody<T, T> for BlockIo<'_, T> {
    type Out = ();
    fn run(self, f: impl Fn(T) -> T + Copy + Send + Sync) {
        let io = self.0;
        simd::wide_for::<T, T, _>(|| io.iter_mut().for_each(|v| *v = f(*v)))
    }
}

impl FusionBackend for Cpu {
    const WRITES_VIEWS: bool = true;

    /// Arrays below 2^15 elements (256 KiB of f64) sit in this machine's caches: unfused ops
    /// then move no more memory than an expression, and recording and walking it block by
    /// block costs about what they save (the fusion bench at one thread on a 2-core AMD
    /// EPYC, fused / unfused: at 2^13 elements 0.81-0.91x for the chains, 1.20-1.27x for
    /// softmax and the normalisation; at 2^14 0.75-1.37x; at 2^15 0.97-1.36x, the chains
    /// 1.10-1.28x; at 2^16 0.95-1.40x). A 3-d stencil of 48^3 interiors (heat-3d) fuses
    /// from this bound on: 1.21x its unfused time.
    const DEFER_MIN: usize = 1 << 15;

    fn unary_loop<T: Element, K: UnaryOp<T>>() -> UnaryLoop<T, K> {
        unary_wide::<T, K>
    }

    fn binary_loop<T: Element, K: BinaryOp<T>>() -> BinaryLoop<T, K> {
        binary_wide::<T, K>
    }

    fn scalar_loop<T: Element, K: BinaryOp<T>>() -> ScalarLoop<T, K> {
        scalar_wide::<T, K>
    }

    fn unary_over_loop<T: Element, K: UnaryOp<T, Out = T>>() -> UnaryOver<T, K> {
        unary_over_wide::<T, K>
    }

    fn binary_over_loop<T: Element, K: BinaryOp<T, Out = T>>() -> BinaryOver<T, K> {
        binary_over_wide::<T, K>
    }

    /// Block by block, the blocks split over the threads. Where the output can be written
    /// in place ([`output_vec`]: a pooled block holding earlier values, or fresh zeroed
    /// pages) the expression writes each block straight into it; otherwise into a
    /// block temporary in cache, copied into the uninitialised output. (The copy measured
    /// 1.9 ms against 1.4 ms straight for `x * 2` over 4M f64 on one thread.)
    fn eval_expr<T: Element>(&self, expr: &Expr<T>, len: usize) -> Result<CpuBuffer<T>> {
        let mut out = output_vec::<T>(len)?;
        if out.len() == len {
            // One op writes its output from its operands' memory with no temporary: it
            // takes longer pieces, each a call of its loop (`a * 1.5` of 4M f64 at one
            // thread: 1.38-1.44 ms in pieces of 4096, 1.26-1.28 ms in pieces of 16384, the
            // unfused op 1.22-1.36 ms). Longer chains keep their temporaries in cache.
            let piece = if expr.ops() <= 1 { 4 * BLOCK } else { BLOCK };
            let one = |(b, c): (usize, &mut [T]), scratch: &mut Scratch| {
                eval_runs(&**expr, b * piece, c, scratch)
            };
            if par::serial(len) {
                SCRATCH.with(|s| {
                    let mut scratch = s.borrow_mut();
                    out.chunks_mut(piece)
                        .enumerate()
                        .try_for_each(|bc| one(bc, &mut scratch))
                })?;
            } else {
                out.par_chunks_mut(piece)
                    .enumerate()
                    .try_for_each_init(Scratch::new, |scratch, bc| one(bc, scratch))?;
            }
            return Ok(CpuBuffer::new(out));
        }
        let mut failed = None;
        // SAFETY: `block` writes every slot of its chunk, also when it fails; a run stopped
        // by an error has its other slots written with defaults below (the vector is then
        // dropped, never read).
        let out = unsafe {
            fill_spare(out, len, |o| {
                let init = || (Vec::new(), Scratch::new());
                let run = if par::serial(len) {
                    with_scratch(|tmp, scratch| {
                        o.chunks_mut(BLOCK)
                            .enumerate()
                            .try_for_each(|(b, c)| block(expr, b * BLOCK, c, tmp, scratch))
                    })
                } else {
                    o.par_chunks_mut(BLOCK)
                        .enumerate()
                        .try_for_each_init(init, |(tmp, scratch), (b, c)| {
                            block(expr, b * BLOCK, c, tmp, scratch)
                        })
                };
                if let Err(e) = run {
                    o.iter_mut().for_each(|s| {
                        s.write(T::default());
                    });
                    failed = Some(e);
                }
            })
        };
        match failed {
            Some(e) => Err(e),
            None => Ok(CpuBuffer::new(out)),
        }
    }

    fn eval_into<T: Element>(
        &self,
        dst: &mut CpuBuffer<T>,
        layout: &Layout,
        build: impl FnOnce(Expr<T>) -> Expr<T>,
    ) -> Result<bool> {
        crate::fused_into::eval_into(dst, layout, build)
    }

    /// Reductions of every element: the leaves of the CPU's pairwise reduction ([`LEAF`]
    /// elements, the same tree as the reduction of an evaluated array) are evaluated one
    /// at a time into a temporary and folded there: the bits of the unfused reduction, one
    /// pass, nothing in memory. Reductions over some of the axes are not fused.
    fn reduce_expr<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        expr: &Expr<T>,
        shape: &[usize],
        axes: &[usize],
    ) -> Result<Option<CpuBuffer<K::Out>>> {
        if (0..shape.len()).any(|a| !axes.contains(&a) && shape[a] != 1) {
            return Ok(None);
        }
        let len: usize = shape.iter().product();
        // The block size of the evaluation is the leaf size of the reduction.
        const _: () = assert!(BLOCK == LEAF);
        let leaf = |start: usize, n: usize| {
            SCRATCH.with(|s| {
                let mut scratch = s.borrow_mut();
                let mut tmp = scratch.take::<T>(n);
                let acc = eval_runs(&**expr, start, &mut tmp[..n], &mut scratch)
                    .map(|()| fold_leaf(&op, &tmp[..n]));
                scratch.give(tmp);
                acc
            })
        };
        let acc = reduce_tree(&op, 0, len, &leaf)?;
        Ok(Some(CpuBuffer::new(vec![op.finish(acc, len)])))
    }
}

#[cfg(test)]
mod tests {
    use crate::Cpu;
    use cuprite_core::fusion::expr::{eval_runs, Binary, Expr, Leaf, Runs, Scratch};
    use cuprite_core::ops::{Mul, Sub};
    use cuprite_core::{BackendBase, Layout};
    use std::sync::Arc;

    fn leaf(dev: &Cpu, v: Vec<f64>, l: Layout) -> Expr<f64> {
        Arc::new(Leaf::new(*dev, dev.from_vec(v).unwrap(), l))
    }

    /// `x - m[:, None]` over 7 rows of 37, evaluated in pieces that start and end inside
    /// rows, and with the broadcast operand first: the broadcast column is taken as a
    /// scalar within each row, with the values of the definition.
    #[test]
    fn broadcast_operands_within_their_runs_are_scalars() {
        let dev = Cpu::new();
        let (r, c) = (7usize, 37usize);
        let xs: Vec<f64> = (0..r * c).map(|i| (i as f64 * 0.37).sin()).collect();
        let ms: Vec<f64> = (0..r).map(|i| i as f64 * 1.5 - 2.0).collect();
        let x = leaf(&dev, xs.clone(), Layout::contiguous(&[r, c]));
        let col = Layout::new(vec![r, c], vec![1, 0], 0);
        let m = leaf(&dev, ms.clone(), col.clone());
        assert_eq!(m.row(), c);
        assert_eq!(m.uniform(c + 3, 10), Some(ms[1]));
        assert_eq!(m.uniform(c + 30, 10), None, "crosses into the next row");
        let runs = Runs::of(&col);
        assert_eq!((runs.row, runs.uniform, runs.contiguous), (0, c, false));
        let sub: Expr<f64> = Arc::new(Binary::new(Sub, x.clone(), m.clone()));
        let mul: Expr<f64> = Arc::new(Binary::new(Mul, m.clone(), x.clone()));
        for (d, first) in [(sub, false), (mul, true)] {
            for (start, len) in [
                (0, r * c),
                (5, 100),
                (c, c),
                (c * 3 + 7, 60),
                (r * c - 1, 1),
            ] {
                let mut out = vec![f64::NAN; len];
                eval_runs(&*d, start, &mut out, &mut Scratch::new()).unwrap();
                for (k, o) in out.iter().enumerate() {
                    let i = start + k;
                    let (xv, mv) = (xs[i], ms[i / c]);
                    let want = if first { mv * xv } else { xv - mv };
                    assert_eq!(o.to_bits(), want.to_bits(), "position {i}");
                }
            }
        }
    }

    /// An output written in place (a pooled block of earlier values, fresh zeroed pages)
    /// and one written through block temporaries hold the same values.
    #[test]
    fn expressions_evaluate_alike_into_reused_and_fresh_outputs() {
        use cuprite_core::fusion::FusionBackend;
        let dev = Cpu::new();
        for n in [1usize, 4095, 4097, 20_000, (4 << 20) / 8 + 3] {
            let xs: Vec<f64> = (0..n).map(|i| (i % 1013) as f64 * 0.25 - 7.0).collect();
            let x = leaf(&dev, xs.clone(), Layout::contiguous(&[n]));
            let e: Expr<f64> = Arc::new(Binary::new(Mul, x.clone(), x));
            let want: Vec<f64> = xs.iter().map(|v| v * v).collect();
            for _ in 0..3 {
                // The second and third evaluations find the first's block in the pool.
                let got = dev.eval_expr(&e, n).unwrap();
                assert_eq!(got.as_slice(), &want[..], "n = {n}");
            }
        }
    }
}
