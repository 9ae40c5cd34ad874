//! Sorting primitives of the CPU backend. Every op works lane by lane along an axis: the view
//! is read with the axis last (contiguous lanes are used in place, anything else is gathered
//! once), lanes run in parallel over rayon, and the result is written back in the view's axis
//! order. Every sort is stable (NumPy's `kind="stable"`: NaNs last, in input order), and
//! `sort` takes one of three paths per lane:
//!
//! - f32 and f64 lanes of at least [`SIMD_MIN`] elements, on x86-64 CPUs with AVX2 (detected
//!   at run time): the vectorised quicksort of [`sort_simd`], unstable itself, which puts the
//!   only elements whose order shows (NaNs, with their payloads, and signed zeros) in input
//!   order, so the result is the stable sort's bit for bit;
//! - other long lanes of real, integer and bool types (and f32/f64 without AVX2, or on other
//!   architectures): the stable LSD radix sort of [`radix`];
//! - short lanes and complex types: the stable `sort_by(Element::sort_cmp)`.
//!
//! `argsort` and the selections keep the radix sort and the comparison sort.

#[path = "radix.rs"]
mod radix;
#[path = "sort_simd.rs"]
mod sort_simd;

use crate::alloc::{filled_vec, vec_with_capacity, zeroed_vec};
use crate::memory::gather_map;
use crate::par;
use crate::view::{check_views, contiguous};
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::SortOps;
use cuprite_core::layout::c_strides;
use cuprite_core::{Element, Layout, Result};
use radix::{advise_huge_pages, radix_sort, RadixKey, RADIX_MIN};
use rayon::prelude::*;
use std::borrow::Cow;
use std::cmp::Ordering;

/// The elements of a view in C order: the buffer itself when contiguous, else a copy.
pub(crate) fn c_order<'a, T: Element>(data: &'a [T], layout: &Layout) -> Result<Cow<'a, [T]>> {
    Ok(match contiguous(data, layout) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(gather_map(data, layout, |x| x)?),
    })
}

/// Runs `f(src_lane, out_lane)` on every lane of the view along `axis` and returns the
/// outputs as a C-contiguous vector of the view's shape. The first error of `f` (a scratch
/// buffer it could not allocate) is the result.
fn lanes_map<T: Element, O: Element>(
    data: &[T],
    lx: &Layout,
    axis: usize,
    f: impl Fn(&[T], &mut [O]) -> Result<()> + Sync + Send,
) -> Result<Vec<O>> {
    let n = lx.size();
    if n == 0 {
        return Ok(Vec::new());
    }
    let ndim = lx.ndim();
    let len = lx.shape()[axis];
    let last = lx.axes_to_end(&[axis]);
    let src = c_order(data, &last)?;
    let mut work = zeroed_vec(n)?;
    advise_huge_pages(&mut work);
    if n < par::PAR_MIN || n == len {
        work.chunks_mut(len)
            .zip(src.chunks(len))
            .try_for_each(|(o, s)| f(s, o))?;
    } else {
        work.par_chunks_mut(len)
            .zip(src.par_chunks(len))
            .with_min_len((par::PAR_MIN / len).max(1))
            .try_for_each(|(o, s)| f(s, o))?;
    }
    if axis == ndim - 1 {
        return Ok(work);
    }
    // `work` holds the lanes axis-last; view it in the original axis order and copy.
    let ws = c_strides(last.shape());
    let strides: Vec<isize> = (0..ndim)
        .map(|i| match i.cmp(&axis) {
            Ordering::Less => ws[i],
            Ordering::Equal => ws[ndim - 1],
            Ordering::Greater => ws[i - 1],
        })
        .collect();
    gather_map(&work, &Layout::new(lx.shape().to_vec(), strides, 0), |x| x)
}

/// The 64-bit radix key of `x` (core's order-preserving key).
#[inline(always)]
fn key64<T: Element>(x: &T) -> u64 {
    x.radix_key()
}

/// The 32-bit radix key of `x`, for types whose key has at most 32 bits.
#[inline(always)]
fn key32<T: Element>(x: &T) -> u32 {
    x.radix_key() as u32
}

/// Width of the radix key used for `T` (32 or 64), or `None` for the types sorted by
/// comparison (complex).
fn key_bits<T: Element>() -> Option<u32> {
    match T::KEY_BITS {
        0 => None,
        1..=32 => Some(32),
        _ => Some(64),
    }
}

/// f32 and f64 lanes at least this long take the vectorised quicksort where the CPU has
/// AVX2. Measured on a 2-core AVX2 VM against `sort_by(sort_cmp)`, sorting 5M random f32 as
/// lanes of n: n = 4, 69 ms against 50; n = 8, 33 against 70; n = 16, 27 against 84. Above
/// [`RADIX_MIN`] it is also twice as fast as the radix sort at every lane length measured
/// (2048 to 5M).
const SIMD_MIN: usize = 8;

/// Stable sort of one lane `src` into `out`.
fn sort_lane<T: Element>(src: &[T], out: &mut [T]) -> Result<()> {
    let n = src.len();
    if n >= SIMD_MIN && sort_simd::sort(src, out) {
        return Ok(());
    }
    match key_bits::<T>() {
        Some(bits) if n >= RADIX_MIN => {
            let mut scratch = zeroed_vec(n)?;
            if bits == 64 {
                radix_sort(src, out, &mut scratch, key64::<T>);
            } else {
                radix_sort(src, out, &mut scratch, key32::<T>);
            }
        }
        _ => {
            out.copy_from_slice(src);
            out.sort_by(T::sort_cmp);
        }
    }
    Ok(())
}

/// Stable radix argsort of one lane by `(key, position)` pairs.
fn argsort_pairs<T: Element, K: RadixKey + Default>(
    src: &[T],
    out: &mut [i64],
    key: impl Fn(&T) -> K + Sync,
) -> Result<()> {
    let n = src.len();
    let mut pairs: Vec<(K, u32)> = vec_with_capacity(n)?;
    src.par_iter()
        .with_min_len(par::CHUNK)
        .enumerate()
        .map(|(i, x)| (key(x), i as u32))
        .collect_into_vec(&mut pairs);
    let mut sorted = filled_vec(n, (K::default(), 0u32))?;
    let mut scratch = filled_vec(n, (K::default(), 0u32))?;
    radix_sort(&pairs, &mut sorted, &mut scratch, |p| p.0);
    drop(scratch);
    par::map1(out, &sorted, |p| p.1 as i64);
    Ok(())
}

/// Stable argsort of one lane `src` into `out` (indices along the lane).
fn argsort_lane<T: Element>(src: &[T], out: &mut [i64]) -> Result<()> {
    let n = src.len();
    match key_bits::<T>() {
        Some(bits) if n >= RADIX_MIN && n <= u32::MAX as usize => {
            if bits == 64 {
                argsort_pairs(src, out, key64::<T>)
            } else {
                argsort_pairs(src, out, key32::<T>)
            }
        }
        _ => {
            out.iter_mut().enumerate().for_each(|(i, o)| *o = i as i64);
            out.sort_by(|&a, &b| src[a as usize].sort_cmp(&src[b as usize]));
            Ok(())
        }
    }
}

impl SortOps for Cpu {
    fn sort<T: Element>(&self, x: &CpuBuffer<T>, lx: &Layout, axis: usize) -> Result<CpuBuffer<T>> {
        check_views("sort", &[(x.len(), lx)])?;
        lx.check_axis("sort", axis)?;
        Ok(CpuBuffer::new(lanes_map(
            x.as_slice(),
            lx,
            axis,
            sort_lane::<T>,
        )?))
    }

    fn argsort<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CpuBuffer<i64>> {
        check_views("argsort", &[(x.len(), lx)])?;
        lx.check_axis("argsort", axis)?;
        Ok(CpuBuffer::new(lanes_map(
            x.as_slice(),
            lx,
            axis,
            argsort_lane::<T>,
        )?))
    }

    fn partition<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<CpuBuffer<T>> {
        check_views("partition", &[(x.len(), lx)])?;
        lx.check_axis("partition", axis)?;
        Ok(CpuBuffer::new(lanes_map(
            x.as_slice(),
            lx,
            axis,
            |s: &[T], o: &mut [T]| {
                o.copy_from_slice(s);
                o.select_nth_unstable_by(kth, T::sort_cmp);
                Ok(())
            },
        )?))
    }

    fn argpartition<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<CpuBuffer<i64>> {
        check_views("argpartition", &[(x.len(), lx)])?;
        lx.check_axis("argpartition", axis)?;
        Ok(CpuBuffer::new(lanes_map(
            x.as_slice(),
            lx,
            axis,
            |s: &[T], o: &mut [i64]| {
                o.iter_mut().enumerate().for_each(|(i, v)| *v = i as i64);
                o.select_nth_unstable_by(kth, |&a, &b| s[a as usize].sort_cmp(&s[b as usize]));
                Ok(())
            },
        )?))
    }

    fn searchsorted<T: Element>(
        &self,
        sorted: &CpuBuffer<T>,
        ls: &Layout,
        values: &CpuBuffer<T>,
        lv: &Layout,
        right: bool,
    ) -> Result<CpuBuffer<i64>> {
        check_views("searchsorted", &[(sorted.len(), ls), (values.len(), lv)])?;
        let s = c_order(sorted.as_slice(), ls)?;
        let out = if right {
            gather_map(values.as_slice(), lv, |v| {
                s.partition_point(|x| x.sort_cmp(&v) != Ordering::Greater) as i64
            })?
        } else {
            gather_map(values.as_slice(), lv, |v| {
                s.partition_point(|x| x.sort_cmp(&v) == Ordering::Less) as i64
            })?
        };
        Ok(CpuBuffer::new(out))
    }

    fn unique<T: Element>(&self, x: &CpuBuffer<T>, lx: &Layout) -> Result<(CpuBuffer<T>, usize)> {
        check_views("unique", &[(x.len(), lx)])?;
        let src = c_order(x.as_slice(), lx)?;
        let mut sorted = zeroed_vec(src.len())?;
        sort_lane(&src, &mut sorted)?;
        // Equal runs (NaNs and signed zeros included) collapse to their first element.
        sorted.dedup_by(|b, a| a.sort_cmp(b) == Ordering::Equal);
        let n = sorted.len();
        Ok((CpuBuffer::new(sorted), n))
    }

    fn unique_all<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<(
        CpuBuffer<T>,
        CpuBuffer<i64>,
        CpuBuffer<i64>,
        CpuBuffer<i64>,
        usize,
    )> {
        check_views("unique_all", &[(x.len(), lx)])?;
        let src = c_order(x.as_slice(), lx)?;
        let n = src.len();
        let mut perm = zeroed_vec(n)?;
        argsort_lane(&src, &mut perm)?;
        let (mut values, mut indices, mut counts) = (Vec::new(), Vec::new(), Vec::new());
        let mut inverse = zeroed_vec(n)?;
        let mut start = 0;
        while start < n {
            let first = src[perm[start] as usize];
            let mut end = start + 1;
            while end < n && src[perm[end] as usize].sort_cmp(&first) == Ordering::Equal {
                end += 1;
            }
            let g = values.len() as i64;
            for &p in &perm[start..end] {
                inverse[p as usize] = g;
            }
            values.push(first);
            indices.push(perm[start]);
            counts.push((end - start) as i64);
            start = end;
        }
        let k = values.len();
        Ok((
            CpuBuffer::new(values),
            CpuBuffer::new(indices),
            CpuBuffer::new(inverse),
            CpuBuffer::new(counts),
            k,
        ))
    }
}
