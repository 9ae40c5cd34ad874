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

/// `emit(i)` for every position `i` of `keep` (a contiguous slice) where `pred` holds, in
/// order, collected into a vector: the kept elements are counted first (per chunk, in
/// parallel above [`par::PAR_MIN`]), then each chunk writes its own run of an output of
/// exactly that length, taken from the pool unwritten (no zero-fill, no regrowth).
fn compact<A: Sync, O: Copy + Send + Sync>(
    keep: &[A],
    pred: impl Fn(&A) -> bool + Sync,
    emit: impl Fn(usize) -> O + Sync,
) -> Result<Vec<O>> {
    let small = par::serial(keep.len());
    let counts: Vec<usize> = if small {
        vec![keep.iter().filter(|k| pred(k)).count()]
    } else {
        keep.par_chunks(par::CHUNK)
            .map(|c| c.iter().filter(|k| pred(k)).count())
            .collect()
    };
    // Blocks of 64 positions: an all-kept block is copied as a run, an all-dropped one
    // skipped (masks from comparisons on smooth data are mostly such runs); a mixed one is
    // written branch-free: every element at the cursor, which moves on only past kept ones
    // (a data-dependent branch mispredicts on every other random mask element), the bound
    // test almost always true. Each slot of a run is written at least once, the last time
    // with its kept element.
    let write_run = |base: usize, c: &[A], run: &mut [MaybeUninit<O>]| {
        let mut w = 0;
        for (b, block) in c.chunks(64).enumerate() {
            let start = base + b * 64;
            let kept = block.iter().filter(|k| pred(k)).count();
            if kept == block.len() {
                for (j, slot) in run[w..w + kept].iter_mut().enumerate() {
                    slot.write(emit(start + j));
                }
            } else if kept > 0 {
                let mut v = w;
                for (j, k) in block.iter().enumerate() {
                    let x = emit(start + j);
                    if let Some(slot) = run.get_mut(v) {
                        slot.write(x);
                    }
                    v += pred(k) as usize;
                }
            }
            w += kept;
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

/// Flat C-order positions of the truthy elements of a view.
fn truthy_positions<T: Element>(data: &[T], lx: &Layout) -> Result<Vec<usize>> {
    match contiguous(data, lx) {
        Some(c) => compact(c, |x: &T| x.is_truthy(), |i| i),
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
            (Some(xc), Some(mc)) => compact(mc, |&m: &bool| m, |i| xc[i])?,
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
            Some(c) if !par::serial(c.len()) => c
                .par_chunks(par::CHUNK)
                .map(|c| c.iter().filter(|v| v.is_truthy()).count())
                .sum(),
            Some(c) => c.iter().filter(|v| v.is_truthy()).count(),
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
            if par::serial(dc.len()) {
                let mut k = 0;
                for (o, &m) in dc.iter_mut().zip(mc) {
                    if m {
                        *o = value_at(k);
                        k += 1;
                    }
                }
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
                    .for_each(|((o, m), start)| {
                        let mut k = start;
                        for (o, &m) in o.iter_mut().zip(m) {
                            if m {
                                *o = value_at(k);
                                k += 1;
                            }
                        }
                    });
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
