//! The accurate folds of the CPU reductions: every run of elements, contiguous or strided,
//! is folded the way NumPy sums contiguous data (blocks of 128 elements over 8 independent
//! accumulators, then a pairwise tree over the blocks), so f32 sums keep NumPy's accuracy on
//! any layout. Partial results of many runs or many row blocks are combined by a
//! [`Cascade`], a binary counter that forms the same pairwise tree on the fly.

use crate::par::{CHUNK, PAR_MIN};
use cuprite_core::ops::ReduceOp;
use cuprite_core::Element;
use rayon::prelude::*;

/// Independent accumulators of a block.
const LANES: usize = 8;
/// Elements per block (16 per accumulator, as NumPy's pairwise sum).
const BLOCK: usize = 128;
/// Length of the leaves of the recursive split (within a leaf: a cascade of blocks).
pub(crate) const LEAF: usize = 4096;
/// Deepest cascade inside one leaf (`LEAF / BLOCK` blocks need 6 entries).
const LEAF_DEPTH: usize = 6;
/// Deepest cascade of partials (2^40 pushes before the tree stops growing).
pub(super) const DEPTH: usize = 40;

/// Partial results combined as a pairwise tree: after `2^j` pushes the entries have merged
/// into one of level `j`, so `n` pushes keep at most `log2(n) + 1` entries.
pub(super) struct Cascade<A, const D: usize> {
    stack: [A; D],
    len: usize,
    pushed: usize,
}

impl<A: Copy, const D: usize> Cascade<A, D> {
    /// An empty cascade (`fill` only initialises storage).
    #[inline(always)]
    pub(super) fn new(fill: A) -> Self {
        Cascade {
            stack: [fill; D],
            len: 0,
            pushed: 0,
        }
    }

    /// Adds the next partial, merging completed pairs.
    #[inline(always)]
    pub(super) fn push(&mut self, a: A, combine: impl Fn(A, A) -> A) {
        if self.len == D {
            // Only past 2^D partials: keep folding into the last entry.
            self.stack[D - 1] = combine(self.stack[D - 1], a);
            return;
        }
        self.stack[self.len] = a;
        self.len += 1;
        self.pushed += 1;
        let mut n = self.pushed;
        while n & 1 == 0 && self.len >= 2 {
            self.len -= 1;
            self.stack[self.len - 1] = combine(self.stack[self.len - 1], self.stack[self.len]);
            n >>= 1;
        }
    }

    /// The combination of everything pushed (`empty` when nothing was).
    #[inline(always)]
    pub(super) fn finish(&self, empty: A, combine: impl Fn(A, A) -> A) -> A {
        match self.len {
            0 => empty,
            n => self.stack[..n - 1]
                .iter()
                .rev()
                .fold(self.stack[n - 1], |acc, &x| combine(x, acc)),
        }
    }
}

/// Lane-wise combination of two accumulator vectors.
#[inline(always)]
fn combine_lanes<T: Element, K: ReduceOp<T>>(
    op: &K,
    a: [K::Acc; LANES],
    b: [K::Acc; LANES],
) -> [K::Acc; LANES] {
    std::array::from_fn(|i| op.combine(a[i], b[i]))
}

/// The accumulators of a vector combined pairwise.
#[inline(always)]
fn lanes_total<T: Element, K: ReduceOp<T>>(op: &K, acc: [K::Acc; LANES]) -> K::Acc {
    let a = op.combine(op.combine(acc[0], acc[1]), op.combine(acc[2], acc[3]));
    let b = op.combine(op.combine(acc[4], acc[5]), op.combine(acc[6], acc[7]));
    op.combine(a, b)
}

/// Folds a short contiguous slice with [`LANES`] accumulators, combined at the end.
#[inline(always)]
fn fold_lanes<T: Element, K: ReduceOp<T>>(op: &K, xs: &[T]) -> K::Acc {
    let mut acc = [op.init(); LANES];
    let mut chunks = xs.chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = op.fold(*a, x);
        }
    }
    let mut tail = op.init();
    for &x in chunks.remainder() {
        tail = op.fold(tail, x);
    }
    op.combine(lanes_total(op, acc), tail)
}

/// A leaf (at most [`LEAF`] elements): blocks of [`BLOCK`] folded into lane vectors, the
/// vectors combined pairwise, the lanes at the end. Always inlined: its callers run it in
/// their vector copies ([`fold_leaf_wide`]), which an outlined call would leave.
#[inline(always)]
pub(crate) fn fold_leaf<T: Element, K: ReduceOp<T>>(op: &K, xs: &[T]) -> K::Acc {
    if xs.len() <= BLOCK {
        return fold_lanes(op, xs);
    }
    let mut tree = Cascade::<[K::Acc; LANES], LEAF_DEPTH>::new([op.init(); LANES]);
    let mut blocks = xs.chunks_exact(BLOCK);
    for b in &mut blocks {
        let mut acc = [op.init(); LANES];
        for c in b.chunks_exact(LANES) {
            for (a, &x) in acc.iter_mut().zip(c) {
                *a = op.fold(*a, x);
            }
        }
        tree.push(acc, |a, b| combine_lanes(op, a, b));
    }
    let lanes = tree.finish([op.init(); LANES], |a, b| combine_lanes(op, a, b));
    op.combine(lanes_total(op, lanes), fold_lanes(op, blocks.remainder()))
}

/// [`fold_leaf`] in its AVX2/FMA copy where the CPU has one and the type is
/// [`crate::simd::worth_reduce`] (the same folds in the same order: the same bits).
#[inline]
pub(crate) fn fold_leaf_wide<T: Element, K: ReduceOp<T>>(op: &K, xs: &[T]) -> K::Acc {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::worth_reduce::<T>() && crate::simd::has_avx2_fma() {
        // SAFETY: the features the copy is compiled for were detected on this CPU.
        return unsafe { fold_leaf_avx2(op, xs) };
    }
    fold_leaf(op, xs)
}

/// [`fold_leaf`] compiled for AVX2 and FMA (a closure handed to [`crate::simd::wide`] was
/// not inlined into the vector copy: the fold stayed scalar).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fold_leaf_avx2<T: Element, K: ReduceOp<T>>(op: &K, xs: &[T]) -> K::Acc {
    fold_leaf(op, xs)
}

/// Reduces a contiguous slice: split in halves (at multiples of [`LEAF`]) down to leaves,
/// the halves in parallel above [`PAR_MIN`] elements.
pub(super) fn reduce_slice<T: Element, K: ReduceOp<T>>(op: &K, xs: &[T]) -> K::Acc {
    let leaf = |start: usize, n: usize| {
        Ok::<_, std::convert::Infallible>(fold_leaf_wide(op, &xs[start..start + n]))
    };
    match reduce_tree(op, 0, xs.len(), &leaf) {
        Ok(acc) => acc,
        Err(never) => match never {},
    }
}

/// The tree of [`reduce_slice`] over the positions `start..start + len`, each leaf (at most
/// [`LEAF`] positions, starting at a multiple of it) folded by `leaf(start, n)`: a fused
/// expression reduced leaf by leaf gets the bits of its evaluated array's reduction.
pub(crate) fn reduce_tree<T: Element, K: ReduceOp<T>, E: Send>(
    op: &K,
    start: usize,
    len: usize,
    leaf: &(impl Fn(usize, usize) -> Result<K::Acc, E> + Sync),
) -> Result<K::Acc, E> {
    if len <= LEAF {
        return leaf(start, len);
    }
    let mid = ((len / 2).div_ceil(LEAF) * LEAF).min(len);
    if !crate::par::serial(len) {
        let (a, b) = rayon::join(
            || reduce_tree(op, start, mid, leaf),
            || reduce_tree(op, start + mid, len - mid, leaf),
        );
        Ok(op.combine(a?, b?))
    } else {
        let a = reduce_tree(op, start, mid, leaf)?;
        Ok(op.combine(a, reduce_tree(op, start + mid, len - mid, leaf)?))
    }
}

/// A strided leaf: `len <= LEAF` elements at `start, start + stride, ...`, in blocks as
/// [`fold_leaf`].
#[inline]
fn fold_strided_leaf<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    start: isize,
    len: usize,
    stride: isize,
) -> K::Acc {
    let at = |i: usize| data[(start + i as isize * stride) as usize];
    let block = |from: usize, n: usize| {
        let mut acc = [op.init(); LANES];
        for q in 0..n / LANES {
            for (l, a) in acc.iter_mut().enumerate() {
                *a = op.fold(*a, at(from + q * LANES + l));
            }
        }
        let mut tail = op.init();
        for i in from + n / LANES * LANES..from + n {
            tail = op.fold(tail, at(i));
        }
        (acc, tail)
    };
    if len <= BLOCK {
        let (acc, tail) = block(0, len);
        return op.combine(lanes_total(op, acc), tail);
    }
    let mut tree = Cascade::<[K::Acc; LANES], LEAF_DEPTH>::new([op.init(); LANES]);
    let full = len / BLOCK;
    for b in 0..full {
        tree.push(block(b * BLOCK, BLOCK).0, |a, b| combine_lanes(op, a, b));
    }
    let lanes = tree.finish([op.init(); LANES], |a, b| combine_lanes(op, a, b));
    let (acc, tail) = block(full * BLOCK, len - full * BLOCK);
    op.combine(
        lanes_total(op, lanes),
        op.combine(lanes_total(op, acc), tail),
    )
}

/// Folds `len` elements at `start, start + stride, ...`: halves down to leaves.
fn fold_strided<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    start: isize,
    len: usize,
    stride: isize,
) -> K::Acc {
    if len <= LEAF {
        return fold_strided_leaf(op, data, start, len, stride);
    }
    let mid = (len / 2).div_ceil(LEAF) * LEAF;
    op.combine(
        fold_strided(op, data, start, mid, stride),
        fold_strided(op, data, start + mid as isize * stride, len - mid, stride),
    )
}

/// A run of `len` elements from `start` with `stride`: a slice fold when contiguous.
#[inline]
pub(super) fn fold_segment<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    start: isize,
    len: usize,
    stride: isize,
) -> K::Acc {
    if stride == 1 {
        let s = start as usize;
        reduce_slice(op, &data[s..s + len])
    } else {
        fold_strided(op, data, start, len, stride)
    }
}

/// The same run as [`fold_segment`], split over rayon when long (pieces of [`CHUNK`]
/// elements, combined as a tree).
pub(super) fn fold_segment_par<T: Element, K: ReduceOp<T>>(
    op: &K,
    data: &[T],
    start: isize,
    len: usize,
    stride: isize,
) -> K::Acc {
    if stride == 1 || len < PAR_MIN {
        return fold_segment(op, data, start, len, stride);
    }
    let pieces = len.div_ceil(CHUNK);
    (0..pieces)
        .into_par_iter()
        .map(|p| {
            let a = p * CHUNK;
            let n = CHUNK.min(len - a);
            fold_strided(op, data, start + a as isize * stride, n, stride)
        })
        .reduce(|| op.init(), |a, b| op.combine(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::ops::Sum;

    #[test]
    fn cascades_combine_pairwise() {
        // Partials are indices into a table of expressions, so the tree's shape shows:
        // five pushes give ((ab)(cd))e.
        let table = std::cell::RefCell::new(["a", "b", "c", "d", "e"].map(String::from).to_vec());
        let join = |x: usize, y: usize| {
            let mut t = table.borrow_mut();
            let e = format!("({}{})", t[x], t[y]);
            t.push(e);
            t.len() - 1
        };
        let mut c = Cascade::<usize, 4>::new(0);
        for i in 0..5 {
            c.push(i, join);
        }
        let top = c.finish(usize::MAX, join);
        assert_eq!(table.borrow()[top], "(((ab)(cd))e)");
        assert_eq!(Cascade::<u8, 3>::new(0).finish(7, |a, b| a + b), 7);
        // Past its depth a cascade keeps every partial (folded into its last entry).
        let mut c = Cascade::<u32, 2>::new(0);
        for i in 1..=10 {
            c.push(i, |a, b| a + b);
        }
        assert_eq!(c.finish(0, |a, b| a + b), 55);
    }

    #[test]
    fn every_fold_visits_every_element_once() {
        // Integer-valued f64: any order gives the exact sum, so this checks coverage.
        let data: Vec<f64> = (0..300_000).map(|i| (i % 1000) as f64).collect();
        for len in [0, 1, 7, 8, 127, 128, 129, 4095, 4096, 4097, 10_000, 140_000] {
            for stride in [1isize, 2, -1, -2, 0] {
                let start = if stride < 0 { 299_999 } else { 5 };
                let want: f64 = (0..len)
                    .map(|i| data[(start + i as isize * stride) as usize])
                    .sum();
                let got = fold_segment_par(&Sum, &data, start, len, stride);
                assert_eq!(got, want, "len {len} stride {stride}");
                let got = fold_segment(&Sum, &data, start, len, stride);
                assert_eq!(got, want, "len {len} stride {stride}");
            }
        }
    }
}
