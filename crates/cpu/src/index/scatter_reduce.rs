//! `scatter_reduce` on the CPU (NumPy's `ufunc.at`: `add.at`, `minimum.at`, `maximum.at`, and
//! the counting behind `bincount` and `histogram`). Indices are checked up front (an error
//! leaves the destination unchanged). A sum into a small destination from many indices is
//! split over rayon with one private copy of the destination per task, merged at the end;
//! everything else runs in index order on the calling thread, which is also NumPy's order.

use super::{checked_indices, wrap};
use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par::{CHUNK, PAR_MIN};
use crate::view::{check_views, contiguous};
use cuprite_core::ops::BinaryOp;
use cuprite_core::{c128, Element, Error, Layout, Result, Scalar};
use rayon::prelude::*;
use std::borrow::Cow;

const OP: &str = "scatter_reduce";

/// Destinations at most this long get a private copy per task when summing in parallel
/// (a copy stays in a core's cache, and merging the copies costs little next to the scatter).
pub(super) const PRIVATE_MAX: usize = 1 << 16;

/// The values in the index view's C order: borrowed when contiguous, one value when the
/// view broadcasts a single element, else gathered.
pub(super) enum Values<'a, T: Clone> {
    Run(Cow<'a, [T]>),
    One(T),
}

impl<T: Element> Values<'_, T> {
    #[inline(always)]
    pub(super) fn get(&self, j: usize) -> T {
        match self {
            Values::Run(v) => v[j],
            Values::One(v) => *v,
        }
    }
}

pub(super) fn values_c_order<'a, T: Element>(
    values: &'a [T],
    lv: &Layout,
) -> Result<Values<'a, T>> {
    if lv.size() > 0 && lv.strides().iter().all(|&s| s == 0) {
        return Ok(Values::One(values[lv.offset()]));
    }
    Ok(Values::Run(match contiguous(values, lv) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(gather_map(values, lv, |v| v)?),
    }))
}

/// See [`cuprite_core::backend::IndexOps::scatter_reduce`].
#[allow(clippy::too_many_arguments)]
pub(super) fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
    dst: &mut CpuBuffer<T>,
    ld: &Layout,
    idx: &CpuBuffer<i64>,
    li: &Layout,
    values: &CpuBuffer<T>,
    lv: &Layout,
    op: O,
) -> Result<()> {
    check_views(
        O::NAME,
        &[(dst.len(), ld), (idx.len(), li), (values.len(), lv)],
    )?;
    if ld.ndim() != 1 {
        return Err(Error::invalid(
            OP,
            format!("the destination must be 1-d, got shape {:?}", ld.shape()),
        ));
    }
    if li.shape() != lv.shape() {
        return Err(Error::ShapeMismatch {
            op: OP,
            lhs: li.shape().to_vec(),
            rhs: lv.shape().to_vec(),
        });
    }
    let n = ld.shape()[0];
    let idx = checked_indices(O::NAME, idx, li, 0, n)?;
    if idx.is_empty() {
        return Ok(());
    }
    let vals = values_c_order(values.as_slice(), lv)?;
    let (base, step) = (ld.offset() as isize, ld.strides()[0]);
    let d = dst.make_mut()?;
    let ni = n as i64;
    let at = |k: isize| (base + k * step) as usize;
    if O::NAME == "add" && idx.len() >= PAR_MIN && n <= PRIVATE_MAX {
        // -0.0 is the sum's identity for every sign of zero, so adding an untouched
        // private element leaves its destination bit for bit unchanged.
        let zero = T::from_scalar(Scalar::C128(c128::new(-0.0, -0.0)));
        // At most PRIVATE_MAX elements per copy, a few copies per thread.
        let fresh = || vec![zero; n];
        let sums = idx
            .par_chunks(CHUNK)
            .enumerate()
            .try_fold(fresh, |mut acc, (c, chunk)| {
                for (j, &i) in chunk.iter().enumerate() {
                    let k = wrap(i, ni) as usize;
                    acc[k] = op.apply(acc[k], vals.get(c * CHUNK + j));
                }
                Ok(acc)
            })
            .try_reduce_with(|mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x = op.apply(*x, y);
                }
                Ok(a)
            })
            .transpose()?;
        if let Some(s) = sums {
            for (k, v) in s.into_iter().enumerate() {
                let p = at(k as isize);
                d[p] = op.apply(d[p], v);
            }
        }
        return Ok(());
    }
    if let (Values::Run(v), 1) = (&vals, step) {
        // The common case (`bincount` with weights, `add.at` into a contiguous array).
        let d = &mut d[base as usize..base as usize + n];
        let threads = rayon::current_num_threads();
        if O::NAME == "add" && threads > 1 && idx.len() >= PAR_MIN && n * threads * 4 <= idx.len() {
            // A destination too large for a private copy per task, but small next to the
            // indices (a sparse matrix-vector product: rows of 10 entries): one private
            // copy per thread, each summing its part of the pairs, added up in order.
            let zero = T::from_scalar(Scalar::C128(c128::new(-0.0, -0.0)));
            let part = idx.len().div_ceil(threads);
            let sums: Vec<Vec<T>> = idx
                .par_chunks(part)
                .zip(v.par_chunks(part))
                .map(|(i, x)| {
                    let mut acc = vec![zero; n];
                    scatter_runs(&mut acc, i, x, ni, op);
                    acc
                })
                .collect();
            for s in sums {
                for (x, y) in d.iter_mut().zip(s) {
                    *x = op.apply(*x, y);
                }
            }
            return Ok(());
        }
        scatter_runs(d, &idx, v, ni, op);
        return Ok(());
    }
    for (j, &i) in idx.iter().enumerate() {
        let p = at(wrap(i, ni));
        d[p] = op.apply(d[p], vals.get(j));
    }
    Ok(())
}

/// `d[i] = op(d[i], x)` for every pair of `idx` and `vals` in order, one tight loop. A run
/// of equal indices (the rows of a COO matrix, sorted data) is reduced in a register and
/// stored once: the same operations in the same order, without the store-to-load wait of
/// updating one element over and over.
fn scatter_runs<T: Element, O: BinaryOp<T, Out = T>>(
    d: &mut [T],
    idx: &[i64],
    vals: &[T],
    n: i64,
    op: O,
) {
    let mut pairs = idx.iter().zip(vals);
    let Some((&i0, &x0)) = pairs.next() else {
        return;
    };
    let mut k = wrap(i0, n) as usize;
    let mut acc = op.apply(d[k], x0);
    for (&i, &x) in pairs {
        let next = wrap(i, n) as usize;
        if next != k {
            d[k] = acc;
            k = next;
            acc = d[k];
        }
        acc = op.apply(acc, x);
    }
    d[k] = acc;
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::ops::{Add, Maximum};

    /// `op.at` by the definition: one update per pair, in order.
    fn reference<O: BinaryOp<f64, Out = f64>>(
        d: &[f64],
        idx: &[i64],
        v: &[f64],
        op: O,
    ) -> Vec<f64> {
        let mut d = d.to_vec();
        let n = d.len() as i64;
        for (&i, &x) in idx.iter().zip(v) {
            let k = if i < 0 { i + n } else { i } as usize;
            d[k] = op.apply(d[k], x);
        }
        d
    }

    fn run<O: BinaryOp<f64, Out = f64>>(d: &[f64], idx: &[i64], v: &[f64], op: O) -> Vec<f64> {
        let mut dst = CpuBuffer::new(d.to_vec());
        let (ld, li) = (
            Layout::contiguous(&[d.len()]),
            Layout::contiguous(&[idx.len()]),
        );
        let (ib, vb) = (CpuBuffer::new(idx.to_vec()), CpuBuffer::new(v.to_vec()));
        scatter_reduce(&mut dst, &ld, &ib, &li, &vb, &li, op).unwrap();
        dst.as_slice().to_vec()
    }

    /// Sorted runs of equal indices (a COO matrix's rows), random indices with negative
    /// ones, and both destination sizes that take a private copy per thread (small, and
    /// large next to the indices) or none: every path gives the updates of the definition
    /// (sums up to rounding, since the parallel paths add partial sums).
    #[test]
    fn every_path_matches_the_definition() {
        let m = 400_000usize;
        let v: Vec<f64> = (0..m)
            .map(|p| ((p * 13) % 17) as f64 / 17.0 - 0.3)
            .collect();
        for n in [1000usize, 30_000, 200_000, 900_000] {
            let rows: Vec<i64> = (0..m).map(|p| (p * n / m) as i64).collect();
            let scattered: Vec<i64> = (0..m)
                .map(|p| ((p * 7919) % n) as i64 - if p % 3 == 0 { n as i64 } else { 0 })
                .collect();
            let d: Vec<f64> = (0..n).map(|k| (k % 5) as f64).collect();
            for idx in [&rows, &scattered] {
                let (got, want) = (run(&d, idx, &v, Add), reference(&d, idx, &v, Add));
                for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-9 * (1.0 + w.abs()),
                        "n {n} bin {k}: {g} {w}"
                    );
                }
                // Non-sums run in order on one thread: exactly the definition.
                assert_eq!(run(&d, idx, &v, Maximum), reference(&d, idx, &v, Maximum));
            }
        }
    }

    #[test]
    fn a_bad_index_is_an_error_and_changes_nothing() {
        let d = vec![1.0; 10];
        let mut dst = CpuBuffer::new(d.clone());
        let l = Layout::contiguous(&[3]);
        let idx = CpuBuffer::new(vec![2i64, 10, 1]);
        let v = CpuBuffer::new(vec![5.0; 3]);
        let err = scatter_reduce(&mut dst, &Layout::contiguous(&[10]), &idx, &l, &v, &l, Add);
        assert!(matches!(
            err,
            Err(Error::IndexOutOfRange {
                index: 10,
                size: 10,
                ..
            })
        ));
        assert_eq!(dst.as_slice(), &d[..]);
    }
}
