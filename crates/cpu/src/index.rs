//! Indexing primitives of the CPU backend: `take` (a gather along one axis), `take_along_axis`
//! and `scatter` (`put_along_axis`). Indices are checked once, up front, in place when they
//! are contiguous (an out-of-range index is an `Err` naming the first bad one, never a panic);
//! negative ones are resolved on the fly. The gathers then
//! run over precomputed offset tables of the source layout, so any strides (negative and zero
//! included) cost no per-element index arithmetic beyond two table lookups. Large outputs are
//! split over rayon; the scatter runs one lane (one line along the axis) per task, so writes
//! from different tasks never meet and, within a lane, the last duplicate index wins as in NumPy.
//! `scatter_reduce` (`ufunc.at`) is in [`scatter_reduce`].

use crate::alloc::{checked_len, vec_with_capacity, written_vec, zeroed_vec};
use crate::memory::gather_map;
use crate::par;
use crate::par::CHUNK;
use crate::view::{check_views, contiguous, view, view_mut};
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::IndexOps;
use cuprite_core::backend::UniformBins;
use cuprite_core::ops::BinaryOp;
use cuprite_core::{Element, Error, Layout, Result};
use cuprite_core::{Float, Numeric, Real};
use ndarray::{ArrayViewD, Axis, IxDyn, Zip};
use rayon::prelude::*;
use std::borrow::Cow;
use std::mem::MaybeUninit;

mod bins;
mod scatter_reduce;

/// Buffer offsets (relative to 0) of every index of `shape`/`strides`, in C order.
fn offset_table(shape: &[usize], strides: &[isize], base: isize) -> Result<Vec<isize>> {
    let mut out = vec![base];
    for (&d, &s) in shape.iter().zip(strides) {
        let mut next = vec_with_capacity(checked_len(&[out.len(), d])?)?;
        for &o in &out {
            next.extend((0..d as isize).map(|i| o + i * s));
        }
        out = next;
    }
    Ok(out)
}

/// True when the table is `0, 1, 2, ...` relative to its first entry (a unit-stride run).
fn is_unit_run(table: &[isize]) -> bool {
    table
        .iter()
        .enumerate()
        .all(|(i, &o)| o - table[0] == i as isize)
}

/// The indices in C order: borrowed when their layout is one contiguous run, else gathered.
fn indices_c_order<'a>(idx: &'a CpuBuffer<i64>, li: &Layout) -> Result<Cow<'a, [i64]>> {
    Ok(match contiguous(idx.as_slice(), li) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(gather_map(idx.as_slice(), li, |i| i)?),
    })
}

/// Checks the indices against an axis of `size`: the first index outside `-size..size` is an
/// error. The gathers then resolve negative indices on the fly with [`wrap`].
fn checked_indices<'a>(
    op: &'static str,
    idx: &'a CpuBuffer<i64>,
    li: &Layout,
    axis: usize,
    size: usize,
) -> Result<Cow<'a, [i64]>> {
    let raw = indices_c_order(idx, li)?;
    check_indices(op, &raw, axis, size)?;
    Ok(raw)
}

/// The error naming the first index of `raw` outside `-size..size` (of `axis`), if any.
fn check_indices(op: &'static str, raw: &[i64], axis: usize, size: usize) -> Result<()> {
    match first_bad_index(raw, size) {
        Some(p) => Err(Error::IndexOutOfRange {
            op,
            index: raw[p],
            axis,
            size,
        }),
        None => Ok(()),
    }
}

/// The position of the first index of `raw` outside `-size..size`, if any.
fn first_bad_index(raw: &[i64], size: usize) -> Option<usize> {
    let n = size as i64;
    // `i` is in `-n..n` exactly when `i + n` is in `0..2n`: one unsigned comparison.
    let bad = |&i: &i64| i.wrapping_add(n) as u64 >= 2 * n as u64;
    // Whether a chunk holds a bad index: a fold without an early exit, which vectorises
    // (`any` stops at the first hit and runs one element at a time), in its AVX2 copy where
    // the CPU has one (64-bit compares need it; SSE2 compares one index at a time).
    let chunk_bad = |c: &[i64]| crate::simd::wide(|| c.iter().fold(false, |acc, i| acc | bad(i)));
    if !crate::par::serial(raw.len()) {
        // Find the first chunk holding a bad index in parallel, then the index within it
        // (an element-wise `position_first` costs ~20x more per element).
        raw.par_chunks(CHUNK)
            .position_first(chunk_bad)
            .and_then(|k| raw[k * CHUNK..].iter().position(bad).map(|p| k * CHUNK + p))
    } else {
        raw.chunks(1024)
            .position(chunk_bad)
            .and_then(|k| raw[k * 1024..].iter().position(bad).map(|p| k * 1024 + p))
    }
}

/// A checked index resolved against an axis of length `n` (negative counts from the end).
#[inline(always)]
fn wrap(i: i64, n: i64) -> isize {
    (if i < 0 { i + n } else { i }) as isize
}

/// Runs `body(first_row, rows)` over `out` split into runs of whole rows of `row_len`
/// elements, in parallel when `out` is large.
fn for_rows<T: Send>(out: &mut [T], row_len: usize, body: impl Fn(usize, &mut [T]) + Sync) {
    if out.is_empty() || row_len == 0 {
        return;
    }
    if crate::par::serial(out.len()) {
        body(0, out);
    } else {
        let rows_per_task = (CHUNK / row_len).max(1);
        out.par_chunks_mut(rows_per_task * row_len)
            .enumerate()
            .for_each(|(t, chunk)| body(t * rows_per_task, chunk));
    }
}

/// The source split around `axis`: offset tables of the leading and trailing axes and the
/// stride of the axis itself.
struct Split {
    pre: Vec<isize>,
    post: Vec<isize>,
    stride: isize,
    unit_post: bool,
}

fn split(lx: &Layout, axis: usize) -> Result<Split> {
    let (sh, st) = (lx.shape(), lx.strides());
    let pre = offset_table(&sh[..axis], &st[..axis], lx.offset() as isize)?;
    let post = offset_table(&sh[axis + 1..], &st[axis + 1..], 0)?;
    let unit_post = is_unit_run(&post);
    Ok(Split {
        pre,
        post,
        stride: st[axis],
        unit_post,
    })
}

/// `out[k] = src[base + wrap(idx[k]) * stride]` for every index, checking each against the
/// axis of length `n > 0` as it goes: an index outside `-n..n` reads element 0 instead
/// (every read stays inside the axis, so no per-element bounds test is needed) and makes
/// the returned flag true, and the caller then discards the output. Split over rayon above
/// [`par::PAR_MIN`] indices; each task owns its captures (a captured reference was
/// reloaded after every store to the output).
fn gather_flat<T: Element>(
    src: &[T],
    base: isize,
    stride: isize,
    n: usize,
    idx: &[i64],
) -> Result<(Vec<T>, bool)> {
    let last = base + (n as isize - 1) * stride;
    assert!(
        n > 0
            && base >= 0
            && (base as usize) < src.len()
            && last >= 0
            && (last as usize) < src.len(),
        "gather_flat: the axis lies outside its buffer"
    );
    let body = |o: &mut [MaybeUninit<T>], idx: &[i64]| -> bool {
        // The loop's invariants are moved into it: read through the closure's captures,
        // they were loaded again for every element.
        let (src, n, base, stride) = (src, n as i64, base, stride);
        crate::simd::wide_for::<T, T, _>(move || {
            let mut bad = false;
            for (o, &i) in o.iter_mut().zip(idx) {
                let w = i + ((i >> 63) & n);
                let ok = (w as u64) < n as u64;
                bad |= !ok;
                let k = if ok { w as isize } else { 0 };
                // SAFETY: k is in 0..n, and base + k * stride for k in 0..n is inside `src`
                // (both ends asserted above; the positions in between lie between them).
                o.write(unsafe { *src.get_unchecked((base + k * stride) as usize) });
            }
            bad
        })
    };
    let mut bad = false;
    // SAFETY: every slot is written (one per index, in both branches).
    let out = unsafe {
        written_vec(idx.len(), |o| {
            bad = if par::serial(o.len()) {
                body(o, idx)
            } else {
                o.par_chunks_mut(CHUNK)
                    .zip(idx.par_chunks(CHUNK))
                    .map(|(o, i)| body(o, i))
                    .reduce(|| false, |a, b| a | b)
            };
        })
    }?;
    Ok((out, bad))
}

impl IndexOps for Cpu {
    fn take<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
        idx: &CpuBuffer<i64>,
        li: &Layout,
    ) -> Result<CpuBuffer<T>> {
        check_views("take", &[(x.len(), lx), (idx.len(), li)])?;
        let n = lx.shape()[axis];
        let s = split(lx, axis)?;
        let src = x.as_slice();
        if s.pre.len() == 1 && s.post.len() == 1 && n > 0 {
            // One element per index (a 1-d source, or every other axis of length 1): one
            // pass that checks the indices as it gathers (a separate check pass was a
            // quarter of the time of 2M indices into 200 000 f64).
            let raw = indices_c_order(idx, li)?;
            let (out, bad) = gather_flat(src, s.pre[0], s.stride, n, &raw)?;
            if bad {
                // The gather flags exactly the indices outside -n..n: this reports the first.
                check_indices("take", &raw, axis, n)?;
            }
            return Ok(CpuBuffer::new(out));
        }
        let idx = checked_indices("take", idx, li, axis, n)?;
        let n = n as i64;
        let (m, post) = (idx.len(), s.post.len());
        let mut out = zeroed_vec::<T>(checked_len(&[s.pre.len(), m, post])?)?;
        for_rows(&mut out, post, |r0, rows| {
            // Row r of the output is (p, j) = (r / m, r % m); walk it without dividing.
            let (mut p, mut j) = (r0 / m, r0 % m);
            let mut base_p = s.pre.get(p).copied().unwrap_or(0);
            for row in rows.chunks_exact_mut(post) {
                let base = (base_p + wrap(idx[j], n) * s.stride) as usize;
                if post == 1 {
                    row[0] = src[base];
                } else if s.unit_post {
                    row.copy_from_slice(&src[base..base + post]);
                } else {
                    for (o, &q) in row.iter_mut().zip(&s.post) {
                        *o = src[(base as isize + q) as usize];
                    }
                }
                j += 1;
                if j == m {
                    j = 0;
                    p += 1;
                    base_p = s.pre.get(p).copied().unwrap_or(0);
                }
            }
        });
        Ok(CpuBuffer::new(out))
    }

    fn take_along_axis<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        idx: &CpuBuffer<i64>,
        li: &Layout,
        axis: usize,
    ) -> Result<CpuBuffer<T>> {
        check_views("take_along_axis", &[(x.len(), lx), (idx.len(), li)])?;
        let n = lx.shape()[axis];
        let idx = checked_indices("take_along_axis", idx, li, axis, n)?;
        let n = n as i64;
        let s = split(lx, axis)?;
        let m = li.shape()[axis];
        let post = s.post.len();
        let mut out = zeroed_vec::<T>(idx.len())?;
        let src = x.as_slice();
        for_rows(&mut out, post, |r0, rows| {
            let (mut p, mut j) = (r0 / m, r0 % m);
            let mut base = s.pre.get(p).copied().unwrap_or(0);
            for (k, row) in rows.chunks_exact_mut(post).enumerate() {
                let r = r0 + k;
                let ir = &idx[r * post..(r + 1) * post];
                if s.unit_post {
                    for ((o, q), &i) in row.iter_mut().zip(0..).zip(ir) {
                        *o = src[(base + wrap(i, n) * s.stride + q) as usize];
                    }
                } else {
                    for ((o, &q), &i) in row.iter_mut().zip(&s.post).zip(ir) {
                        *o = src[(base + wrap(i, n) * s.stride + q) as usize];
                    }
                }
                j += 1;
                if j == m {
                    j = 0;
                    p += 1;
                    base = s.pre.get(p).copied().unwrap_or(0);
                }
            }
        });
        Ok(CpuBuffer::new(out))
    }

    fn scatter<T: Element>(
        &self,
        dst: &mut CpuBuffer<T>,
        ld: &Layout,
        axis: usize,
        idx: &CpuBuffer<i64>,
        li: &Layout,
        values: &CpuBuffer<T>,
        lv: &Layout,
    ) -> Result<()> {
        check_views(
            "put_along_axis",
            &[(dst.len(), ld), (idx.len(), li), (values.len(), lv)],
        )?;
        if li.shape() != lv.shape() {
            return Err(Error::ShapeMismatch {
                op: "scatter",
                lhs: li.shape().to_vec(),
                rhs: lv.shape().to_vec(),
            });
        }
        let n = ld.shape()[axis];
        let idx = checked_indices("put_along_axis", idx, li, axis, n)?;
        if idx.is_empty() {
            return Ok(());
        }
        let n = n as i64;
        let iv = ArrayViewD::from_shape(IxDyn(li.shape()), &idx[..])
            .map_err(|e| Error::invalid("scatter", e.to_string()))?;
        let vv = view(values.as_slice(), lv);
        let mut dv = view_mut(dst.make_mut()?, ld);
        let z = Zip::from(dv.lanes_mut(Axis(axis)))
            .and(iv.lanes(Axis(axis)))
            .and(vv.lanes(Axis(axis)));
        let body = |mut d: ndarray::ArrayViewMut1<'_, T>,
                    i: ndarray::ArrayView1<'_, i64>,
                    v: ndarray::ArrayView1<'_, T>| {
            // Sequential within a lane: the last write to a repeated index wins.
            match d.as_slice_mut() {
                Some(d) => {
                    for (&i, &v) in i.iter().zip(v.iter()) {
                        d[wrap(i, n) as usize] = v;
                    }
                }
                None => {
                    for (&i, &v) in i.iter().zip(v.iter()) {
                        d[wrap(i, n) as usize] = v;
                    }
                }
            }
        };
        let lanes = ld.size() / ld.shape()[axis].max(1);
        if !crate::par::serial(idx.len()) && lanes > 1 {
            z.par_for_each(body);
        } else {
            z.for_each(body);
        }
        Ok(())
    }

    fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
        &self,
        dst: &mut CpuBuffer<T>,
        ld: &Layout,
        idx: &CpuBuffer<i64>,
        li: &Layout,
        values: &CpuBuffer<T>,
        lv: &Layout,
        op: O,
    ) -> Result<()> {
        scatter_reduce::scatter_reduce(dst, ld, idx, li, values, lv, op)
    }

    fn bin_add<T: Real, E: Float, W: Numeric>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        edges: &CpuBuffer<E>,
        le: &Layout,
        uniform: Option<UniformBins<E>>,
        weights: Option<(&CpuBuffer<W>, &Layout)>,
        out: &mut CpuBuffer<W>,
        lo: &Layout,
    ) -> Result<()> {
        bins::bin_add(x, lx, edges, le, uniform, weights, out, lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_tables_follow_strides() {
        assert_eq!(
            offset_table(&[2, 3], &[3, 1], 0).unwrap(),
            vec![0, 1, 2, 3, 4, 5]
        );
        assert_eq!(
            offset_table(&[2, 2], &[-1, 4], 1).unwrap(),
            vec![1, 5, 0, 4]
        );
        assert_eq!(offset_table(&[], &[], 7).unwrap(), vec![7]);
        assert!(offset_table(&[0, 3], &[3, 1], 0).unwrap().is_empty());
        assert!(is_unit_run(&[4, 5, 6]));
        assert!(!is_unit_run(&[0, 2]));
    }

    #[test]
    fn flat_gathers_check_as_they_read() {
        let src: Vec<f64> = (0..50).map(|v| v as f64 * 1.5).collect();
        // Axes over the buffer: unit stride from an offset, and a negative stride.
        for (base, stride, n) in [(3isize, 1isize, 40usize), (49, -1, 50), (10, 3, 13)] {
            let at = |k: i64| src[(base + k as isize * stride) as usize];
            // Sizes on both sides of the parallel threshold, wrapped negative indices.
            for m in [0usize, 1, 100, crate::par::PAR_MIN + 17] {
                let idx: Vec<i64> = (0..m as i64)
                    .map(|p| (p * 7919) % (2 * n as i64) - n as i64)
                    .collect();
                let (out, bad) = gather_flat(&src, base, stride, n, &idx).unwrap();
                assert!(!bad);
                let want: Vec<f64> = idx
                    .iter()
                    .map(|&i| at(if i < 0 { i + n as i64 } else { i }))
                    .collect();
                assert_eq!(out, want);
                if m > 0 {
                    // One bad index, far in: flagged, and every read stayed inside the axis.
                    for bad_i in [n as i64, -(n as i64) - 1, i64::MIN, i64::MAX] {
                        let mut idx = idx.clone();
                        idx[m - 1] = bad_i;
                        let (_, bad) = gather_flat(&src, base, stride, n, &idx).unwrap();
                        assert!(bad);
                        assert_eq!(first_bad_index(&idx, n), Some(m - 1));
                    }
                }
            }
        }
    }
}
