//! The lane loops of the CPU arg-reductions and scans: a C-contiguous view seen as
//! `(outer, n, inner)` is walked lane by lane (`inner == 1`) or `inner` columns at a time.

use crate::memory::gather_map;
use crate::par::CHUNK;
use crate::simd;
use crate::view::contiguous;
use cuprite_core::ops::ScanOp;
use cuprite_core::{ArgKind, Element, Layout, Result, Scalar};
use rayon::prelude::*;
use std::cmp::Ordering;

/// True when `x` beats `best` for the arg-reduction `kind` (ties keep the first). Neither is
/// NaN here. Real types compare directly (the match folds away per type); bool and complex
/// use the sort order (complex: lexicographic, as NumPy).
#[inline(always)]
pub(super) fn beats<T: Element>(kind: ArgKind, x: &T, best: &T) -> bool {
    macro_rules! cmp {
        ($a:expr, $b:expr) => {
            match kind {
                ArgKind::Max => $a > $b,
                ArgKind::Min => $a < $b,
            }
        };
    }
    match (x.to_scalar(), best.to_scalar()) {
        (Scalar::F64(a), Scalar::F64(b)) => cmp!(a, b),
        (Scalar::F32(a), Scalar::F32(b)) => cmp!(a, b),
        (Scalar::I64(a), Scalar::I64(b)) => cmp!(a, b),
        (Scalar::I32(a), Scalar::I32(b)) => cmp!(a, b),
        (Scalar::U8(a), Scalar::U8(b)) => cmp!(a, b),
        _ => {
            let want = match kind {
                ArgKind::Max => Ordering::Greater,
                ArgKind::Min => Ordering::Less,
            };
            x.sort_cmp(best) == want
        }
    }
}

/// Elements per block of [`arg_lane`]: small enough that the winning block is read again
/// from L1, large enough that the per-block bookkeeping is noise.
const ARG_BLOCK: usize = 1024;

/// Independent running extrema per block: one per vector lane, so the loop vectorises
/// (compare and blend) where a single running best would be a chain of branches.
const ARG_LANES: usize = 8;

/// First index of the extremum of a non-empty lane (the first NaN if any), and its value.
///
/// Two steps: the extreme value of each block of [`ARG_BLOCK`] elements by a vectorised
/// fold (and whether the block holds a NaN), then the first position of the overall best
/// value within the first block that reached it.
pub(super) fn arg_lane<T: Element>(kind: ArgKind, xs: &[T]) -> (usize, T) {
    #[cfg(target_arch = "x86_64")]
    if simd::worth_reduce::<T>() && simd::has_avx2_fma() {
        // SAFETY: the features the copy is compiled for were detected on this CPU.
        return unsafe { arg_lane_avx2(kind, xs) };
    }
    arg_lane_plain(kind, xs)
}

/// [`arg_lane`] compiled for AVX2 (a closure handed to [`simd::wide`] was not inlined into
/// the vector copy: the fold ran on SSE2, 1M f64 in 0.150 ms at one thread where NumPy
/// takes 0.100 ms). AVX2 rather than AVX-512, as the other reductions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn arg_lane_avx2<T: Element>(kind: ArgKind, xs: &[T]) -> (usize, T) {
    arg_lane_plain(kind, xs)
}

#[inline(always)]
fn arg_lane_plain<T: Element>(kind: ArgKind, xs: &[T]) -> (usize, T) {
    match kind {
        ArgKind::Max => arg_lane_by(xs, |a, b| beats(ArgKind::Max, a, b)),
        ArgKind::Min => arg_lane_by(xs, |a, b| beats(ArgKind::Min, a, b)),
    }
}

#[inline(always)]
fn arg_lane_by<T: Element>(xs: &[T], better: impl Fn(&T, &T) -> bool + Copy) -> (usize, T) {
    let (mut best_block, mut best) = (0, xs[0]);
    for (b, blk) in xs.chunks(ARG_BLOCK).enumerate() {
        let (m, nan) = block_extreme(blk, better);
        if nan {
            let i = blk.iter().position(|x| x.is_nan_value()).unwrap_or(0);
            return (b * ARG_BLOCK + i, blk[i]);
        }
        if better(&m, &best) {
            (best_block, best) = (b, m);
        }
    }
    let start = best_block * ARG_BLOCK;
    let blk = &xs[start..(start + ARG_BLOCK).min(xs.len())];
    // The first element the best does not beat: one equal to it (0.0 and -0.0 are equal,
    // so the first of either wins, as in NumPy).
    let i = blk.iter().position(|x| !better(&best, x)).unwrap_or(0);
    (start + i, blk[i])
}

/// The extreme value of a non-empty block under `better`, and whether it holds a NaN.
#[inline(always)]
fn block_extreme<T: Element>(xs: &[T], better: impl Fn(&T, &T) -> bool) -> (T, bool) {
    let mut acc = [xs[0]; ARG_LANES];
    let mut nan = [false; ARG_LANES];
    let mut chunks = xs.chunks_exact(ARG_LANES);
    for c in &mut chunks {
        for l in 0..ARG_LANES {
            nan[l] |= c[l].is_nan_value();
            acc[l] = if better(&c[l], &acc[l]) { c[l] } else { acc[l] };
        }
    }
    let mut any_nan = nan.iter().any(|&n| n);
    let mut best = acc[0];
    for x in acc[1..].iter().chain(chunks.remainder()) {
        any_nan |= x.is_nan_value();
        if better(x, &best) {
            best = *x;
        }
    }
    (best, any_nan)
}

/// [`arg_lane`] split over rayon: chunk winners are combined in order.
pub(super) fn arg_lane_par<T: Element>(kind: ArgKind, xs: &[T]) -> usize {
    if crate::par::serial(xs.len()) {
        return arg_lane(kind, xs).0;
    }
    let winners: Vec<(usize, T)> = xs
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, ch)| {
            let (i, v) = arg_lane(kind, ch);
            (c * CHUNK + i, v)
        })
        .collect();
    let (mut bi, mut bv) = winners[0];
    for &(i, v) in &winners {
        if bv.is_nan_value() {
            break;
        }
        if v.is_nan_value() || beats(kind, &v, &bv) {
            bi = i;
            bv = v;
        }
    }
    bi
}

/// The arg-reduction down the columns `c0..c0 + out.len()` of `xs` (`n` rows of `inner`
/// columns) into `out`.
pub(super) fn arg_rows<T: Element>(
    kind: ArgKind,
    xs: &[T],
    n: usize,
    inner: usize,
    c0: usize,
    out: &mut [i64],
) {
    let w = out.len();
    let mut bv: Vec<T> = xs[c0..c0 + w].to_vec();
    out.iter_mut().for_each(|o| *o = 0);
    for i in 1..n {
        let row = &xs[i * inner + c0..i * inner + c0 + w];
        for ((b, o), x) in bv.iter_mut().zip(out.iter_mut()).zip(row) {
            if !b.is_nan_value() && (x.is_nan_value() || beats(kind, x, b)) {
                *b = *x;
                *o = i as i64;
            }
        }
    }
}

/// `(outer, n, inner)` of a shape around `axis`.
pub(super) fn split_around(shape: &[usize], axis: usize) -> (usize, usize, usize) {
    (
        shape[..axis].iter().product(),
        shape[axis],
        shape[axis + 1..].iter().product(),
    )
}

/// Contiguous elements of a view: the slice itself or a C-order copy.
pub(super) fn contiguous_data<'a, T: Element>(
    data: &'a [T],
    lx: &Layout,
    copy: &'a mut Vec<T>,
) -> Result<&'a [T]> {
    match contiguous(data, lx) {
        Some(s) => Ok(s),
        None => {
            *copy = gather_map(data, lx, |x| x)?;
            Ok(copy)
        }
    }
}

/// Inclusive scan of `n` rows of `inner` columns (`xs`) into `out`.
pub(super) fn scan_block<T: Element, K: ScanOp<T>>(
    op: &K,
    xs: &[T],
    n: usize,
    inner: usize,
    out: &mut [K::Out],
) {
    if inner == 1 {
        let mut acc = op.init();
        for (o, &x) in out.iter_mut().zip(xs) {
            acc = op.step(acc, x);
            *o = acc;
        }
        return;
    }
    for (o, &x) in out[..inner].iter_mut().zip(&xs[..inner]) {
        *o = op.step(op.init(), x);
    }
    for i in 1..n {
        let (prev, cur) = out[(i - 1) * inner..(i + 1) * inner].split_at_mut(inner);
        let row = &xs[i * inner..(i + 1) * inner];
        if !crate::par::serial(inner) {
            cur.par_chunks_mut(CHUNK)
                .zip(prev.par_chunks(CHUNK))
                .zip(row.par_chunks(CHUNK))
                .for_each(|((c, p), r)| {
                    for ((c, &p), &x) in c.iter_mut().zip(p.iter()).zip(r) {
                        *c = op.step(p, x);
                    }
                });
        } else {
            for ((c, &p), &x) in cur.iter_mut().zip(prev.iter()).zip(row) {
                *c = op.step(p, x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: the first NaN, else the first position of the extreme value.
    fn naive<T: Element>(kind: ArgKind, xs: &[T]) -> usize {
        if let Some(i) = xs.iter().position(|x| x.is_nan_value()) {
            return i;
        }
        let mut bi = 0;
        for (i, x) in xs.iter().enumerate() {
            if beats(kind, x, &xs[bi]) {
                bi = i;
            }
        }
        bi
    }

    #[test]
    fn blocked_arg_lanes_match_the_definition() {
        // Lengths around the lane and block widths; values from a small set so that ties
        // (and 0.0 beside -0.0) are common; NaNs placed in some runs.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as usize
        };
        let vals = [
            -0.0,
            0.0,
            1.5,
            -2.0,
            7.0,
            -7.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for n in [1usize, 7, 8, 9, 1023, 1024, 1025, 3000, 5000] {
            for trial in 0..12 {
                let mut xs: Vec<f64> = (0..n).map(|_| vals[next() % vals.len()]).collect();
                if trial % 3 == 0 {
                    xs[next() % n] = f64::NAN;
                }
                let x32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
                let xi: Vec<i64> = xs.iter().map(|&v| v.clamp(-9.0, 9.0) as i64).collect();
                for kind in [ArgKind::Max, ArgKind::Min] {
                    assert_eq!(arg_lane(kind, &xs).0, naive(kind, &xs), "f64 n={n}");
                    assert_eq!(arg_lane(kind, &x32).0, naive(kind, &x32), "f32 n={n}");
                    assert_eq!(arg_lane(kind, &xi).0, naive(kind, &xi), "i64 n={n}");
                }
            }
        }
        // The extreme value late in the lane, once more at the very end: the first wins.
        let mut xs = vec![0.0f64; 4097];
        xs[2500] = 3.0;
        xs[4096] = 3.0;
        assert_eq!(arg_lane(ArgKind::Max, &xs).0, 2500);
        assert_eq!(arg_lane(ArgKind::Min, &xs).0, 0);
    }
}
