//! Boolean-mask primitives of the CPU backend: compaction (`mask_select`, `nonzero`),
//! counting and masked assignment. Contiguous operands take a two-pass parallel path (count
//! per chunk, then each chunk writes its own run of the output); strided ones run through
//! ndarray views in C order.

use crate::alloc::{checked_len, checked_sum, written_vec, zeroed_vec};
use crate::par;
use crate::view::{check_views, contiguous, contiguous_mut, view, view_mut};
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::MaskOps;
use cuprite_core::{Element, Error, Layout, Result};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Splits `out` into consecutive runs of the given lengths.
fn split_runs<'a, O>(mut out: &'a mut [O], lens: &[usize]) -> Vec<&'a mut [O]> {
    let mut runs = Vec::with_capacity(lens.len());
    for &l in lens {
        let (run, tail) = std::mem::take(&mut out).split_at_mut(l);
        runs.push(run);
        out = tail;
    }
    runs
}

/// How [`compact`] reads the kept elements: one at a time, and a run of consecutive ones.
struct Emit<E, R> {
    /// The output element of position `i`.
    one: E,
    /// Writes the output elements of positions `start..start + run.len()` into `run`.
    run: R,
}

/// `emit.one(i)` for every position `i` of `keep` (a contiguous slice) where `pred` holds,
/// in order, collected into a vector: the kept elements are counted first (`count`, per
/// chunk, in parallel above [`par::PAR_MIN`]), then each chunk writes its own run of an
/// output of exactly that length, taken from the pool unwritten (no zero-fill, no regrowth).
fn compact<A: Sync, O: Copy + Send + Sync, E, R>(
    keep: &[A],
    count: impl Fn(&[A]) -> usize + Sync,
    pred: impl Fn(&A) -> bool + Sync,
    emit: Emit<E, R>,
) -> Result<Vec<O>>
where
    E: Fn(usize) -> O + Sync,
    R: Fn(usize, &mut [MaybeUninit<O>]) + Sync,
{
    let small = par::serial(keep.len());
    let counts: Vec<usize> = if small {
        vec![count(keep)]
    } else {
        keep.par_chunks(par::CHUNK).map(&count).collect()
    };
    // Blocks of 64 positions: consecutive all-kept blocks are written as one run (a copy,
    // for a selection), all-dropped ones skipped (masks from comparisons on smooth data are
    // mostly such runs); a mixed one is written branch-free: every element at the cursor,
    // which moves on only past kept ones (a data-dependent branch mispredicts on every other
    // random mask element), the bound test almost always true. Each slot of a run is written
    // at least once, the last time with its kept element.
    let write_run = |base: usize, c: &[A], run: &mut [MaybeUninit<O>]| {
        let mut w = 0;
        // The pending run of all-kept positions: its first position and its length.
        let (mut from, mut len) = (0, 0);
        for (b, block) in c.chunks(64).enumerate() {
            let start = base + b * 64;
            let kept = count(block);
            if kept == block.len() {
                if len == 0 {
                    from = start;
                }
                len += kept;
                continue;
            }
            if len > 0 {
                (emit.run)(from, &mut run[w..w + len]);
                w += len;
                len = 0;
            }
            if kept > 0 {
                let mut v = w;
                for (j, k) in block.iter().enumerate() {
                    let x = (emit.one)(start + j);
                    if let Some(slot) = run.get_mut(v) {
                        slot.write(x);
                    }
                    v += pred(k) as usize;
                }
            }
            w += kept;
        }
        if len > 0 {
            (emit.run)(from, &mut run[w..w + len]);
            w += len;
        }
        debug_assert_eq!(w, run.len());
    };
    let total = checked_sum(counts.iter().copied())?;
    // SAFETY: the runs cover the output (their lengths are the counts, which sum to its
    // length), and a run is written at every position up to its count (see write_run).
    unsafe {
        written_vec(total, |out| {
            if small {
                write_run(0, keep, out);
            } else {
                keep.par_chunks(par::CHUNK)
                    .zip(split_runs(out, &counts))
                    .enumerate()
                    .for_each(|(ci, (c, run))| write_run(ci * par::CHUNK, c, run));
            }
        })
    }
}

/// Writes `src` into the unwritten `dst` of the same length (one `memcpy`).
fn write_copy<T: Copy>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    assert_eq!(dst.len(), src.len(), "write_copy: lengths differ");
    // SAFETY: both are valid for `len` elements of `T` and do not overlap (`dst` is
    // borrowed mutably); `MaybeUninit<T>` has `T`'s layout.
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<T>(), src.len()) }
}

/// Flat C-order positions of the truthy elements of a view.
fn truthy_positions<T: Element>(data: &[T], lx: &Layout) -> Result<Vec<usize>> {
    match contiguous(data, lx) {
        Some(c) => compact(
            c,
            count_truthy,
            |x: &T| x.is_truthy(),
            Emit {
                one: |i| i,
                run: |from, run: &mut [MaybeUninit<usize>]| {
                    for (k, slot) in run.iter_mut().enumerate() {
                        slot.write(from + k);
                    }
                },
            },
        ),
        None => Ok(view(data, lx)
            .iter()
            .enumerate()
            .filter(|(_, x)| x.is_truthy())
            .map(|(i, _)| i)
            .collect()),
    }
}

impl MaskOps for Cpu {
    fn mask_select<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        mask: &CpuBuffer<bool>,
        lm: &Layout,
    ) -> Result<(CpuBuffer<T>, usize)> {
        check_views("mask_select", &[(x.len(), lx), (mask.len(), lm)])?;
        let (xs, ms) = (x.as_slice(), mask.as_slice());
        let out = match (contiguous(xs, lx), contiguous(ms, lm)) {
            (Some(xc), Some(mc)) => compact(
                mc,
                count_true,
                |&m: &bool| m,
                Emit {
                    one: |i| xc[i],
                    run: |from, run: &mut [MaybeUninit<T>]| {
                        write_copy(run, &xc[from..from + run.len()])
                    },
                },
            )?,
            _ => {
                // Logical (C-order) iteration: `Zip` may visit in memory order instead.
                view(xs, lx)
                    .iter()
                    .zip(view(ms, lm).iter())
                    .filter(|(_, &m)| m)
                    .map(|(&v, _)| v)
                    .collect()
            }
        };
        let n = out.len();
        Ok((CpuBuffer::new(out), n))
    }

    fn nonzero<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<(CpuBuffer<i64>, usize)> {
        check_views("nonzero", &[(x.len(), lx)])?;
        let pos = truthy_positions(x.as_slice(), lx)?;
        let ndim = lx.ndim();
        let shape = lx.shape();
        let mut out = zeroed_vec::<i64>(checked_len(&[pos.len(), ndim])?)?;
        if ndim > 0 {
            let unravel = |row: &mut [i64], &p: &usize| {
                let mut rem = p;
                for d in (0..ndim).rev() {
                    row[d] = (rem % shape[d]) as i64;
                    rem /= shape[d];
                }
            };
            if par::serial(pos.len()) {
                out.chunks_mut(ndim)
                    .zip(&pos)
                    .for_each(|(r, p)| unravel(r, p));
            } else {
                out.par_chunks_mut(ndim)
                    .zip(pos.par_iter())
                    .with_min_len(par::CHUNK)
                    .for_each(|(r, p)| unravel(r, p));
            }
        }
        Ok((CpuBuffer::new(out), pos.len()))
    }

    fn count_nonzero<T: Element>(&self, x: &CpuBuffer<T>, lx: &Layout) -> Result<usize> {
        check_views("count_nonzero", &[(x.len(), lx)])?;
        let data = x.as_slice();
        Ok(match contiguous(data, lx) {
            Some(c) if !par::serial(c.len()) => c.par_chunks(par::CHUNK).map(count_truthy).sum(),
            Some(c) => count_truthy(c),
            None => view(data, lx).iter().filter(|v| v.is_truthy()).count(),
        })
    }

    fn mask_assign<T: Element>(
        &self,
        dst: &mut CpuBuffer<T>,
        ld: &Layout,
        mask: &CpuBuffer<bool>,
        lm: &Layout,
        values: &CpuBuffer<T>,
        lv: &Layout,
    ) -> Result<()> {
        check_views(
            "mask_assign",
            &[(dst.len(), ld), (mask.len(), lm), (values.len(), lv)],
        )?;
        let vals = crate::sort::c_order(values.as_slice(), lv)?;
        let ms = mask.as_slice();
        let single = vals.len() == 1;
        let need = self.count_nonzero(mask, lm)?;
        if !single && vals.len() != need {
            return Err(Error::invalid(
                "mask_assign",
                format!(
                    "{} values cannot be assigned to the {need} true elements of a mask of \
                     shape {:?}",
                    vals.len(),
                    lm.shape()
                ),
            ));
        }
        if need == 0 {
            return Ok(());
        }
        let value_at = |k: usize| if single { vals[0] } else { vals[k] };
        let d = dst.make_mut()?;
        if let (Some(dc), Some(mc)) = (contiguous_mut(d, ld), contiguous(ms, lm)) {
            let run = |o: &mut [T], m: &[bool], start: usize| {
                if single {
                    fill_where(o, m, vals[0]);
                } else {
                    assign_where(o, m, &vals[start..]);
                }
            };
            if par::serial(dc.len()) {
                run(dc, mc, 0);
            } else {
                let counts: Vec<usize> = mc
                    .par_chunks(par::CHUNK)
                    .map(|c| c.iter().filter(|&&m| m).count())
                    .collect();
                let starts: Vec<usize> = counts
                    .iter()
                    .scan(0, |acc, &c| {
                        let s = *acc;
                        *acc += c;
                        Some(s)
                    })
                    .collect();
                dc.par_chunks_mut(par::CHUNK)
                    .zip(mc.par_chunks(par::CHUNK))
                    .zip(starts)
                    .for_each(|((o, m), start)| run(o, m, start));
            }
            return Ok(());
        }
        // Logical (C-order) iteration, which pairs the k-th true element with value k.
        let mut k = 0;
        for (o, &m) in view_mut(d, ld).iter_mut().zip(view(ms, lm).iter()) {
            if m {
                *o = value_at(k);
                k += 1;
            }
        }
        Ok(())
    }
}

/// `o[i] = value` where `m[i]`: a select per element, which vectorises (a branch per
/// element mispredicts on masks without long runs), in the AVX2 copy where the CPU has one
/// (SSE2 has no 64-bit blend: the baseline copy stayed scalar).
fn fill_where<T: Element>(o: &mut [T], m: &[bool], value: T) {
    crate::simd::wide(|| {
        for (o, &m) in o.iter_mut().zip(m) {
            *o = if m { value } else { *o };
        }
    })
}

/// Elements per block of [`assign_where`].
const ASSIGN_BLOCK: usize = 64;

/// `o[i] = vals[k]` for the `k`-th true `m[i]`, in blocks of [`ASSIGN_BLOCK`]: a block whose
/// mask is all true is one copy, an all-false block is skipped, a mixed one runs element by
/// element. `vals` holds at least as many values as `m` has true elements.
fn assign_where<T: Element>(o: &mut [T], m: &[bool], vals: &[T]) {
    let mut k = 0;
    for (ob, mb) in o.chunks_mut(ASSIGN_BLOCK).zip(m.chunks(ASSIGN_BLOCK)) {
        let count = count_true(mb);
        if count == mb.len() {
            ob.copy_from_slice(&vals[k..k + count]);
        } else if count > 0 {
            let mut j = k;
            for (o, &t) in ob.iter_mut().zip(mb) {
                if t {
                    *o = vals[j];
                    j += 1;
                }
            }
        }
        k += count;
    }
}

/// The number of truthy elements of `c`: booleans through [`count_true`], other types one
/// comparison each.
fn count_truthy<T: Element>(c: &[T]) -> usize {
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<bool>() {
        // SAFETY: `T` is `bool`, so the slice is a slice of `bool`.
        let b = unsafe { std::slice::from_raw_parts(c.as_ptr().cast::<bool>(), c.len()) };
        return count_true(b);
    }
    c.iter().filter(|v| v.is_truthy()).count()
}

/// The number of `true`s in `m`: its bytes (0 or 1) summed in blocks whose sums fit a
/// byte-wide lane, in the AVX2 copy where the CPU has one (a count of `filter`ed elements
/// compiled to a byte load and an add per element).
fn count_true(m: &[bool]) -> usize {
    // SAFETY: a `bool` is one byte holding 0 or 1, so the same memory read as `u8` is valid.
    let bytes = unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<u8>(), m.len()) };
    crate::simd::wide(|| {
        bytes
            .chunks(255)
            .map(|c| c.iter().fold(0u8, |a, &x| a.wrapping_add(x)) as usize)
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Masks of every kind of block (all true, all false, mixed, a short tail), at lengths
    /// around the block sizes of the counting and the assignment.
    fn masks() -> Vec<Vec<bool>> {
        let mut out = Vec::new();
        for n in [0usize, 1, 63, 64, 65, 254, 255, 256, 1000, 4099] {
            out.push(vec![true; n]);
            out.push(vec![false; n]);
            out.push((0..n).map(|i| (i * 7919) % 5 < 2).collect());
            out.push((0..n).map(|i| (i / 100) % 2 == 0).collect());
        }
        out
    }

    #[test]
    fn compactions_match_the_definition() {
        let mut ms = masks();
        // Runs of all-true blocks that meet the chunk boundaries of the parallel path.
        let big = crate::par::PAR_MIN + 100;
        ms.push((0..big).map(|i| (i / 5000) % 3 != 1).collect());
        ms.push((0..big).map(|i| i % 64 != 63).collect());
        for m in ms {
            let src: Vec<i32> = (0..m.len() as i32).map(|v| v * 3 - 7).collect();
            let want: Vec<i32> = src
                .iter()
                .zip(&m)
                .filter(|(_, &t)| t)
                .map(|(&v, _)| v)
                .collect();
            let l = Layout::contiguous(&[m.len()]);
            let (xb, mb) = (CpuBuffer::new(src.clone()), CpuBuffer::new(m.clone()));
            let (got, n) = Cpu::new().mask_select(&xb, &l, &mb, &l).unwrap();
            assert_eq!((got.as_slice(), n), (&want[..], want.len()));
            let pos: Vec<usize> = (0..m.len()).filter(|&i| m[i]).collect();
            assert_eq!(truthy_positions(&m, &l).unwrap(), pos);
        }
    }

    #[test]
    fn counts_and_masked_writes_match_the_definition() {
        for m in masks() {
            let n = m.len();
            assert_eq!(count_true(&m), m.iter().filter(|&&t| t).count());
            let ints: Vec<i64> = m.iter().map(|&t| t as i64 * 3).collect();
            assert_eq!(count_truthy(&ints), count_true(&m));
            let base: Vec<i64> = (0..n as i64).collect();
            let mut filled = base.clone();
            fill_where(&mut filled, &m, -1);
            let want: Vec<i64> = base
                .iter()
                .zip(&m)
                .map(|(&x, &t)| if t { -1 } else { x })
                .collect();
            assert_eq!(filled, want);
            let vals: Vec<i64> = (0..count_true(&m) as i64).map(|k| 1000 + k).collect();
            let mut assigned = base.clone();
            assign_where(&mut assigned, &m, &vals);
            let mut k = 0;
            for i in 0..n {
                if m[i] {
                    assert_eq!(assigned[i], vals[k]);
                    k += 1;
                } else {
                    assert_eq!(assigned[i], base[i]);
                }
            }
        }
    }
}
