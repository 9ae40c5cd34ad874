//! Reduction primitives of the CPU backend.
//!
//! `reduce` first simplifies the view into *kept* dimensions (output order, size-1 axes
//! dropped, adjacent axes merged when their strides allow) and *reduced* dimensions (any
//! order, since `fold`/`combine` are associative: negative strides flipped, sorted by stride,
//! merged), then picks a loop:
//!
//! * everything reduced over one contiguous run: a pairwise tree of 8-lane folds, split over
//!   rayon ([`pairwise::reduce_slice`]);
//! * the reduced axes innermost in memory (e.g. `sum(axis=1)` of a C-contiguous matrix): one
//!   fold per output over its contiguous segments, parallel over outputs (or inside each
//!   output when there are few);
//! * a kept axis innermost (e.g. `sum(axis=0)`): whole rows are folded into a vector of
//!   accumulators, parallel over the outer outputs or over row ranges whose vectors are
//!   combined at the end;
//! * anything else goes through the same two loops with strided reads.
//!
//! Every loop sums pairwise ([`pairwise`]): runs of elements in blocks of 128 over 8
//! accumulators and a tree over the blocks, partials of many runs through a cascade, and the
//! row loop folds blocks of [`ROW_BLOCK`] rows into a fresh vector that joins a cascade of
//! vectors, so f32 sums keep NumPy's pairwise accuracy on strided, broadcast and column views.
//!
//! `arg_reduce` and `scan` work on a C-contiguous copy seen as `(outer, n, inner)`, folding
//! lanes (`inner == 1`) or rows of `inner` elements at once, in parallel over independent
//! lanes.

use crate::alloc::{filled_vec, zeroed_vec};
use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par::{CHUNK, PAR_MIN};
use crate::view::{check_views, contiguous};
use crate::Cpu;
use cuprite_core::backend::ReduceOps;
use cuprite_core::layout::Dims;
use cuprite_core::ops::registry::arg_reduction_name;
use cuprite_core::ops::{ReduceOp, ScanOp};
use cuprite_core::{ArgKind, Element, Integer, Layout, Result};
use rayon::prelude::*;

mod lanes;
mod pairwise;
mod range;
use lanes::{arg_lane, arg_lane_par, arg_rows, contiguous_data, scan_block, split_around};
pub(crate) use pairwise::{fold_leaf, reduce_tree, LEAF};
use pairwise::{fold_segment, fold_segment_par, reduce_slice, Cascade, DEPTH};

/// Columns of a row-accumulation block (keeps the accumulator vector in cache).
const COL_BLOCK: usize = 1 << 14;
/// Rows folded into one vector of partial sums before it joins the pairwise cascade.
const ROW_BLOCK: usize = 16;
/// Fewest partials worth a cascade (fewer are combined in order).
const CASCADE_MIN: usize = 8;

fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// Calls `f(offset)` for the positions `start..start + count` of `d` in C order (offsets
/// relative to the first position), reusing `idx`.
#[inline]
fn for_each_offset(
    d: &Dims,
    start: usize,
    count: usize,
    idx: &mut Vec<usize>,
    mut f: impl FnMut(isize),
) {
    let nd = d.shape.len();
    if nd == 0 {
        if count > 0 {
            f(0);
        }
        return;
    }
    idx.clear();
    idx.resize(nd, 0);
    let mut rem = start;
    for k in (0..nd).rev() {
        idx[k] = rem % d.shape[k];
        rem /= d.shape[k];
    }
    let mut off = d.offset_of(start);
    for n in 0..count {
        f(off);
        if n + 1 == count {
            break;
        }
        let mut k = nd - 1;
        loop {
            idx[k] += 1;
            off += d.strides[k];
            if idx[k] < d.shape[k] {
                break;
            }
            off -= d.strides[k] * d.shape[k] as isize;
            idx[k] = 0;
            if k == 0 {
                break;
            }
            k -= 1;
        }
    }
}

/// Folds the runs at the positions `start..start + count` of `outer` (from `off`), their
/// partials combined pairwise when there are many.
#[allow(clippy::too_many_arguments)]
#[inline]
fn fold_runs<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    outer: &Dims,
    (start, count): (usize, usize),
    len: usize,
    stride: isize,
    idx: &mut Vec<usize>,
    run: impl Fn(&K, &[T], isize, usize, isize) -> K::Acc,
) -> K::Acc {
    let comb = |a, b| op.combine(a, b);
    if count < CASCADE_MIN {
        let mut acc = op.init();
        for_each_offset(outer, start, count, idx, |o| {
            acc = op.combine(acc, run(op, data, off + o, len, stride));
        });
        return acc;
    }
    let mut tree = Cascade::<K::Acc, DEPTH>::new(op.init());
    for_each_offset(outer, start, count, idx, |o| {
        tree.push(run(op, data, off + o, len, stride), comb);
    });
    tree.finish(op.init(), comb)
}

/// Folds every reduced position from `off` (runs pairwise, their partials pairwise).
fn fold_positions<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    outer: &Dims,
    len: usize,
    stride: isize,
    idx: &mut Vec<usize>,
) -> K::Acc {
    let n = outer.size();
    fold_runs(op, data, off, outer, (0, n), len, stride, idx, fold_segment)
}

/// Like [`fold_positions`], split over rayon (one output with a large reduction).
fn fold_positions_par<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    outer: &Dims,
    len: usize,
    stride: isize,
) -> K::Acc {
    let n_outer = outer.size();
    if n_outer >= 4 * threads() {
        let per = n_outer.div_ceil(4 * threads());
        (0..n_outer.div_ceil(per))
            .into_par_iter()
            .map(|t| {
                let a = t * per;
                let cnt = per.min(n_outer - a);
                let mut idx = Vec::new();
                fold_runs(
                    op,
                    data,
                    off,
                    outer,
                    (a, cnt),
                    len,
                    stride,
                    &mut idx,
                    fold_segment,
                )
            })
            .reduce(|| op.init(), |a, b| op.combine(a, b))
    } else {
        let mut idx = Vec::new();
        fold_runs(
            op,
            data,
            off,
            outer,
            (0, n_outer),
            len,
            stride,
            &mut idx,
            fold_segment_par,
        )
    }
}

/// Reduced axes innermost: one fold per output.
fn reduce_per_output<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    kept: &Dims,
    red: &Dims,
    base: isize,
    count: usize,
) -> Result<Vec<K::Out>> {
    let n_out = kept.size();
    let rsize = red.size();
    let (outer, len, stride) = red.split_last();
    let mut out = zeroed_vec::<K::Out>(n_out)?;
    let many_outputs = n_out >= 2 * threads() || rsize < PAR_MIN;
    if !many_outputs {
        for (p, o) in out.iter_mut().enumerate() {
            let off = base + kept.offset_of(p);
            *o = op.finish(
                fold_positions_par(op, data, off, &outer, len, stride),
                count,
            );
        }
        return Ok(out);
    }
    let body = |first: usize, chunk: &mut [K::Out]| {
        let mut idx = Vec::new();
        let mut kidx = Vec::new();
        let n = chunk.len();
        let mut it = chunk.iter_mut();
        for_each_offset(kept, first, n, &mut kidx, |k| {
            let acc = fold_positions(op, data, base + k, &outer, len, stride, &mut idx);
            if let Some(o) = it.next() {
                *o = op.finish(acc, count);
            }
        });
    };
    if n_out * rsize < PAR_MIN {
        body(0, &mut out);
    } else {
        let per = n_out
            .div_ceil(8 * threads())
            .max(CHUNK.div_ceil(rsize.max(1)))
            .max(1);
        out.par_chunks_mut(per)
            .enumerate()
            .for_each(|(c, chunk)| body(c * per, chunk));
    }
    Ok(out)
}

/// Folds the row of `a.len()` columns (stride `sv`) at `row` into `a`; with `first`, `a`
/// holds nothing yet and is overwritten.
#[inline(always)]
fn fold_row<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    row: isize,
    sv: isize,
    a: &mut [K::Acc],
    first: bool,
) {
    let w = a.len();
    if sv == 1 {
        let s = row as usize;
        let xs = &data[s..s + w];
        if first {
            for (a, &x) in a.iter_mut().zip(xs) {
                *a = op.fold(op.init(), x);
            }
        } else {
            for (a, &x) in a.iter_mut().zip(xs) {
                *a = op.fold(*a, x);
            }
        }
    } else {
        let at = |j: usize| data[(row + j as isize * sv) as usize];
        if first {
            for (j, a) in a.iter_mut().enumerate() {
                *a = op.fold(op.init(), at(j));
            }
        } else {
            for (j, a) in a.iter_mut().enumerate() {
                *a = op.fold(*a, at(j));
            }
        }
    }
}

/// Vectors of column partials combined pairwise: rows fold into the current vector, which
/// joins a binary-counter cascade every [`ROW_BLOCK`] rows.
struct RowTree<'o, T: Element, K: ReduceOp<T>> {
    op: &'o K,
    cur: Vec<K::Acc>,
    rows: usize,
    stack: Vec<Vec<K::Acc>>,
    pushed: usize,
    spare: Vec<Vec<K::Acc>>,
}

impl<'o, T: Element, K: ReduceOp<T>> RowTree<'o, T, K> {
    fn new(op: &'o K, w: usize) -> Self {
        RowTree {
            op,
            cur: vec![op.init(); w],
            rows: 0,
            stack: Vec::new(),
            pushed: 0,
            spare: Vec::new(),
        }
    }

    #[inline(always)]
    fn add_row(&mut self, data: &[T], row: isize, sv: isize) {
        fold_row(self.op, data, row, sv, &mut self.cur, self.rows == 0);
        self.rows += 1;
        if self.rows == ROW_BLOCK {
            self.push();
        }
    }

    fn push(&mut self) {
        let w = self.cur.len();
        let fresh = self.spare.pop().unwrap_or_else(|| vec![self.op.init(); w]);
        let full = std::mem::replace(&mut self.cur, fresh);
        self.rows = 0;
        self.stack.push(full);
        self.pushed += 1;
        let mut n = self.pushed;
        while n & 1 == 0 && self.stack.len() >= 2 {
            if let Some(top) = self.stack.pop() {
                if let Some(below) = self.stack.last_mut() {
                    for (x, &y) in below.iter_mut().zip(&top) {
                        *x = self.op.combine(*x, y);
                    }
                }
                self.spare.push(top);
            }
            n >>= 1;
        }
    }

    /// Combines everything folded into `a`.
    fn finish_into(mut self, a: &mut [K::Acc]) {
        if self.rows > 0 {
            self.push();
        }
        let op = self.op;
        let mut vs = self.stack.into_iter().rev();
        if let Some(mut total) = vs.next() {
            for v in vs {
                for (t, &x) in total.iter_mut().zip(&v) {
                    *t = op.combine(x, *t);
                }
            }
            for (a, t) in a.iter_mut().zip(total) {
                *a = op.combine(*a, t);
            }
        }
    }
}

/// Folds the rows at the reduced positions `start..start + cnt` (from `off`) into `acc`
/// (`acc.len()` columns with stride `sv`), in column blocks, pairwise over row blocks.
#[allow(clippy::too_many_arguments)]
fn fold_rows<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    sv: isize,
    red: &Dims,
    start: usize,
    cnt: usize,
    acc: &mut [K::Acc],
    idx: &mut Vec<usize>,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::worth_reduce::<T>() && crate::simd::has_avx2_fma() {
        // SAFETY: the features the copy is compiled for were detected on this CPU.
        return unsafe { fold_col_blocks_avx2(op, data, off, sv, red, start, cnt, acc, idx) };
    }
    fold_col_blocks(op, data, off, sv, red, start, cnt, acc, idx)
}

/// [`fold_col_blocks`] compiled for AVX2 and FMA (the same folds in the same order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
unsafe fn fold_col_blocks_avx2<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    sv: isize,
    red: &Dims,
    start: usize,
    cnt: usize,
    acc: &mut [K::Acc],
    idx: &mut Vec<usize>,
) {
    fold_col_blocks(op, data, off, sv, red, start, cnt, acc, idx)
}

/// [`fold_rows`]' loop over column blocks.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fold_col_blocks<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    off: isize,
    sv: isize,
    red: &Dims,
    start: usize,
    cnt: usize,
    acc: &mut [K::Acc],
    idx: &mut Vec<usize>,
) {
    let m = acc.len();
    // The rows' offsets first: folded in a loop of this function, not in a closure handed
    // to `for_each_offset` (which was not inlined into the AVX2 copy: `sum(axis=0)` of
    // 500x10000 f64 folded its rows on SSE2, 1.85 ms at one thread where NumPy takes 1.29).
    let mut rows = Vec::with_capacity(cnt);
    for_each_offset(red, start, cnt, idx, |r| rows.push(r));
    let mut c0 = 0;
    while c0 < m {
        let w = COL_BLOCK.min(m - c0);
        let a = &mut acc[c0..c0 + w];
        let col = off + c0 as isize * sv;
        if cnt <= ROW_BLOCK {
            for &r in &rows {
                fold_row(op, data, col + r, sv, a, false);
            }
        } else {
            let mut tree = RowTree::new(op, w);
            for &r in &rows {
                tree.add_row(data, col + r, sv);
            }
            tree.finish_into(a);
        }
        c0 += w;
    }
}

/// A kept axis innermost: rows of the reduced positions accumulate into vectors.
fn reduce_rows<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    kept: &Dims,
    red: &Dims,
    base: isize,
    count: usize,
) -> Result<Vec<K::Out>> {
    let (outer, m, sv) = kept.split_last();
    let n_outer = outer.size();
    let rsize = red.size();
    let mut out = zeroed_vec::<K::Out>(n_outer * m)?;
    let whole = |o: usize, chunk: &mut [K::Out]| {
        let mut idx = Vec::new();
        let mut acc = vec![op.init(); m];
        let off = base + outer.offset_of(o);
        fold_rows(op, data, off, sv, red, 0, rsize, &mut acc, &mut idx);
        for (y, a) in chunk.iter_mut().zip(acc) {
            *y = op.finish(a, count);
        }
    };
    let total = n_outer * m * rsize;
    if crate::par::serial(total) {
        for (o, chunk) in out.chunks_mut(m).enumerate() {
            whole(o, chunk);
        }
    } else if n_outer >= 2 * threads() {
        out.par_chunks_mut(m)
            .enumerate()
            .for_each(|(o, chunk)| whole(o, chunk));
    } else {
        // Few outer outputs: split the reduced rows over tasks, combine their vectors.
        let tasks = (4 * threads())
            .min(rsize)
            .min((m * rsize).div_ceil(CHUNK).max(1));
        let per = rsize.div_ceil(tasks.max(1));
        for (o, chunk) in out.chunks_mut(m).enumerate() {
            let off = base + outer.offset_of(o);
            let acc = (0..rsize.div_ceil(per))
                .into_par_iter()
                .map(|t| {
                    let a = t * per;
                    let mut idx = Vec::new();
                    let mut acc = vec![op.init(); m];
                    fold_rows(
                        op,
                        data,
                        off,
                        sv,
                        red,
                        a,
                        per.min(rsize - a),
                        &mut acc,
                        &mut idx,
                    );
                    acc
                })
                .reduce_with(|mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x = op.combine(*x, y);
                    }
                    a
                })
                .unwrap_or_else(|| vec![op.init(); m]);
            for (y, a) in chunk.iter_mut().zip(acc) {
                *y = op.finish(a, count);
            }
        }
    }
    Ok(out)
}

/// The reduction of `axes` of the view `lx` of `data` (see the module docs).
pub(crate) fn reduce_view<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    lx: &Layout,
    axes: &[usize],
) -> Result<Vec<K::Out>> {
    let count: usize = axes.iter().map(|&a| lx.shape()[a]).product();
    let n_out: usize = lx
        .shape()
        .iter()
        .enumerate()
        .filter(|(a, _)| !axes.contains(a))
        .map(|(_, &d)| d)
        .product();
    if lx.size() == 0 {
        return filled_vec(n_out, op.finish(op.init(), count));
    }
    if let (Some(xs), true) = (contiguous(data, lx), n_out == 1) {
        return Ok(vec![op.finish(reduce_slice(op, xs), count)]);
    }
    let split = lx.split_reduce(axes, true);
    let (kept, red, base) = (split.kept, split.reduced, split.base);
    if red.shape.is_empty() {
        // Nothing to combine: every output is one element.
        let mut l = lx.clone();
        for &a in axes.iter().rev() {
            l = l.index_axis(a, 0);
        }
        return gather_map(data, &l, |x| op.finish(op.fold(op.init(), x), count));
    }
    if kept.shape.is_empty() {
        let (outer, len, stride) = red.split_last();
        return Ok(vec![op.finish(
            fold_positions_par(op, data, base, &outer, len, stride),
            count,
        )]);
    }
    let kept_inner = kept.strides.last().map_or(isize::MAX, |s| s.abs());
    let red_inner = *red.strides.last().unwrap_or(&isize::MAX);
    if kept_inner < red_inner {
        reduce_rows(op, data, &kept, &red, base, count)
    } else {
        reduce_per_output(op, data, &kept, &red, base, count)
    }
}

impl ReduceOps for Cpu {
    fn min_max<T: Integer>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<(CpuBuffer<T>, CpuBuffer<T>)> {
        range::min_max(self, x, lx)
    }

    fn reduce<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axes: &[usize],
    ) -> Result<CpuBuffer<K::Out>> {
        check_views(K::NAME, &[(x.len(), lx)])?;
        Ok(CpuBuffer::new(reduce_view(&op, x.as_slice(), lx, axes)?))
    }

    fn arg_reduce<T: Element>(
        &self,
        kind: ArgKind,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CpuBuffer<i64>> {
        check_views(arg_reduction_name(kind), &[(x.len(), lx)])?;
        lx.check_axis(arg_reduction_name(kind), axis)?;
        let (outer, n, inner) = split_around(lx.shape(), axis);
        let mut out = zeroed_vec::<i64>(outer * inner)?;
        if out.is_empty() || n == 0 {
            return Ok(CpuBuffer::new(out));
        }
        let mut copy = Vec::new();
        let xs = contiguous_data(x.as_slice(), lx, &mut copy)?;
        let par = lx.size() >= PAR_MIN;
        if inner == 1 {
            if par && outer >= 2 * threads() {
                let per = CHUNK.div_ceil(n).max(1);
                out.par_chunks_mut(per)
                    .zip(xs.par_chunks(per * n))
                    .for_each(|(o, lanes)| {
                        for (o, lane) in o.iter_mut().zip(lanes.chunks(n)) {
                            *o = arg_lane(kind, lane).0 as i64;
                        }
                    });
            } else {
                for (o, lane) in out.iter_mut().zip(xs.chunks(n)) {
                    *o = arg_lane_par(kind, lane) as i64;
                }
            }
        } else if par && outer >= 2 * threads() {
            out.par_chunks_mut(inner)
                .zip(xs.par_chunks(n * inner))
                .for_each(|(o, b)| arg_rows(kind, b, n, inner, 0, o));
        } else {
            for (o, b) in out.chunks_mut(inner).zip(xs.chunks(n * inner)) {
                if par {
                    // Column blocks of one (n, inner) block in parallel.
                    const W: usize = COL_BLOCK / 4;
                    o.par_chunks_mut(W)
                        .enumerate()
                        .for_each(|(c, o)| arg_rows(kind, b, n, inner, c * W, o));
                } else {
                    arg_rows(kind, b, n, inner, 0, o);
                }
            }
        }
        Ok(CpuBuffer::new(out))
    }

    fn scan<T: Element, K: ScanOp<T>>(
        &self,
        op: K,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CpuBuffer<K::Out>> {
        check_views(K::NAME, &[(x.len(), lx)])?;
        lx.check_axis(K::NAME, axis)?;
        let (outer, n, inner) = split_around(lx.shape(), axis);
        let total = lx.size();
        let mut out = zeroed_vec::<K::Out>(total)?;
        if total == 0 {
            return Ok(CpuBuffer::new(out));
        }
        let mut copy = Vec::new();
        let xs = contiguous_data(x.as_slice(), lx, &mut copy)?;
        let block = n * inner;
        if total >= PAR_MIN && outer >= 2 {
            let per = CHUNK.div_ceil(block).max(1);
            out.par_chunks_mut(per * block)
                .zip(xs.par_chunks(per * block))
                .for_each(|(o, b)| {
                    for (o, b) in o.chunks_mut(block).zip(b.chunks(block)) {
                        scan_block(&op, b, n, inner, o);
                    }
                });
        } else {
            for (o, b) in out.chunks_mut(block).zip(xs.chunks(block)) {
                scan_block(&op, b, n, inner, o);
            }
        }
        Ok(CpuBuffer::new(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::ops::{CumSum, Max, Sum};

    /// Reference: fold every output's elements one by one, by multi-index.
    fn naive_sum(data: &[f64], lx: &Layout, axes: &[usize]) -> Vec<f64> {
        let shape = lx.shape();
        let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).collect();
        let n_out: usize = kept.iter().map(|&a| shape[a]).product();
        let mut out = vec![0.0; n_out];
        let total = lx.size();
        let mut idx = vec![0usize; shape.len()];
        for _ in 0..total {
            let mut p = 0;
            for &a in &kept {
                p = p * shape[a] + idx[a];
            }
            out[p] += data[lx.offset_of(&idx)];
            for k in (0..shape.len()).rev() {
                idx[k] += 1;
                if idx[k] < shape[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
        out
    }

    #[test]
    fn every_path_matches_a_naive_loop() {
        // Integer-valued data: every summation order gives the exact result.
        let data: Vec<f64> = (0..2 * 3 * 50 * 700).map(|i| (i % 97) as f64).collect();
        let base = Layout::contiguous(&[2, 3, 50, 700]);
        let views = [
            base.clone(),
            base.permute("t", &[3, 1, 0, 2]).unwrap(),
            base.slice_axis(3, 699, 350, -2),
            base.slice_axis(2, 0, 1, 1),
            Layout::contiguous(&[3, 1, 700])
                .broadcast_to("t", &[2, 3, 50, 700])
                .unwrap(),
        ];
        let axes_sets: [&[usize]; 8] = [
            &[],
            &[0],
            &[1],
            &[3],
            &[0, 2],
            &[1, 3],
            &[0, 1, 2],
            &[0, 1, 2, 3],
        ];
        for l in &views {
            for axes in axes_sets {
                let got = reduce_view(&Sum, &data, l, axes).unwrap();
                assert_eq!(got, naive_sum(&data, l, axes), "{l:?} {axes:?}");
            }
        }
    }

    #[test]
    fn nan_propagates_through_lanes() {
        let mut data = vec![1.0f64; 100_000];
        data[77_777] = f64::NAN;
        let l = Layout::contiguous(&[100_000]);
        assert!(reduce_view(&Max, &data, &l, &[0]).unwrap()[0].is_nan());
        let l2 = Layout::contiguous(&[1000, 100]);
        let m = reduce_view(&Max, &data, &l2, &[0]).unwrap();
        assert!(m[77].is_nan() && m[76] == 1.0);
    }

    #[test]
    fn scans_and_args_on_strided_views() {
        let data: Vec<i64> = (0..24).collect();
        let l = Layout::contiguous(&[4, 6]).transposed();
        let cpu = Cpu;
        let buf = CpuBuffer::new(data);
        let s = cpu.scan(CumSum, &buf, &l, 1).unwrap();
        assert_eq!(&s.as_slice()[..4], &[0, 6, 18, 36]);
        let a = cpu.arg_reduce(ArgKind::Min, &buf, &l, 0).unwrap();
        assert_eq!(a.as_slice(), &[0, 0, 0, 0]);
        let a = cpu.arg_reduce(ArgKind::Max, &buf, &l, 1).unwrap();
        assert_eq!(a.as_slice(), &[3; 6]);
    }
}
