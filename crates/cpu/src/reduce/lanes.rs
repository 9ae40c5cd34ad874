//! The lane loops of the CPU arg-reductions and scans: a C-contiguous view seen as
//! `(outer, n, inner)` is walked lane by lane (`inner == 1`) or `inner` columns at a time.

use crate::memory::gather_map;
use crate::par::{CHUNK, PAR_MIN};
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

/// First index of the extremum of a non-empty lane (the first NaN if any).
pub(super) fn arg_lane<T: Element>(kind: ArgKind, xs: &[T]) -> (usize, T) {
    let mut bi = 0;
    let mut bv = xs[0];
    if bv.is_nan_value() {
        return (0, bv);
    }
    for (i, x) in xs.iter().enumerate().skip(1) {
        if x.is_nan_value() {
            return (i, *x);
        }
        if beats(kind, x, &bv) {
            bi = i;
            bv = *x;
        }
    }
    (bi, bv)
}

/// [`arg_lane`] split over rayon: chunk winners are combined in order.
pub(super) fn arg_lane_par<T: Element>(kind: ArgKind, xs: &[T]) -> usize {
    if xs.len() < PAR_MIN {
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
        if inner >= PAR_MIN {
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
