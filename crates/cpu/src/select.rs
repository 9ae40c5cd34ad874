//! The selection primitive of the CPU backend: order statistics of every lane by recursive
//! partial sorting (`select_nth_unstable`), as NumPy's multi-`kth` introselect. The lane is
//! copied once into order-preserving integer keys (floats: the sign-magnitude bit trick,
//! NaNs made one largest key, `-0.0` made `0.0`), so every comparison is one integer compare;
//! complex lanes compare with [`Element::sort_cmp`]. Lanes run in parallel over rayon.

use crate::alloc::{checked_len, filled_vec, zeroed_vec};
use crate::memory::gather_map;
use crate::par;
use crate::view::{check_views, contiguous};
use crate::{buffer::CpuBuffer, Cpu};
use cuprite_core::backend::SelectOps;
use cuprite_core::{Element, Layout, Result};
use rayon::prelude::*;
use std::borrow::Cow;
use std::cmp::Ordering;

/// The 64-bit order-preserving key of `x` (core's radix key).
#[inline(always)]
fn key64<T: Element>(x: T) -> u64 {
    x.radix_key()
}

#[inline(always)]
fn unkey64<T: Element>(k: u64) -> T {
    T::from_radix_key(k)
}

/// The 32-bit key of `x`, for types whose key has at most 32 bits.
#[inline(always)]
fn key32<T: Element>(x: T) -> u32 {
    x.radix_key() as u32
}

#[inline(always)]
fn unkey32<T: Element>(k: u32) -> T {
    T::from_radix_key(k as u64)
}

/// True when sorting a segment of `len` beats selecting `m` positions in it: a selection
/// costs about 1.5 passes per level of the recursion (`log2(m + 1)` levels; measured on 1M
/// f64 keys, 101 positions select in 11 ms where sorting costs 17 ms), a sort about
/// `log2(len)` passes.
fn sort_is_cheaper(m: usize, len: usize) -> bool {
    1.5 * ((m + 1) as f64).log2() > (len as f64).log2()
}

/// The smallest (`max` false) or largest element of a non-empty segment.
#[inline]
fn extreme<K: Copy>(v: &[K], max: bool, cmp: impl Fn(&K, &K) -> Ordering) -> K {
    let better = if max {
        Ordering::Greater
    } else {
        Ordering::Less
    };
    v[1..]
        .iter()
        .fold(v[0], |a, &b| if cmp(&b, &a) == better { b } else { a })
}

/// Writes to `out[i]` the element of rank `kth[i] - base` of the segment `v` (`kth` sorted,
/// distinct, within `base..base + v.len()`), partially sorting `v`: the middle position is
/// selected and both sides recurse; a position at either end of a segment is its min/max.
fn multi_select<K: Copy>(
    v: &mut [K],
    base: usize,
    kth: &[usize],
    out: &mut [K],
    cmp: impl Fn(&K, &K) -> Ordering + Copy,
) {
    let len = v.len();
    match kth {
        [] => return,
        &[p] if p == base => {
            out[0] = extreme(v, false, cmp);
            return;
        }
        &[p] if p == base + len - 1 => {
            out[0] = extreme(v, true, cmp);
            return;
        }
        _ => {}
    }
    if kth.len() > 1 && sort_is_cheaper(kth.len(), len) {
        v.sort_unstable_by(cmp);
        for (o, &p) in out.iter_mut().zip(kth) {
            *o = v[p - base];
        }
        return;
    }
    let mid = kth.len() / 2;
    let p = kth[mid] - base;
    v.select_nth_unstable_by(p, cmp);
    out[mid] = v[p];
    let (left, right) = v.split_at_mut(p);
    multi_select(left, base, &kth[..mid], &mut out[..mid], cmp);
    multi_select(
        &mut right[1..],
        base + p + 1,
        &kth[mid + 1..],
        &mut out[mid + 1..],
        cmp,
    );
}

/// The order statistics at `kth` of every lane (`src` holds the lanes one after another,
/// `len` each), written lane-major into `out` (`kth.len()` values per lane), through keys.
fn select_lanes<T: Element, K: Copy + Default + Send + Sync>(
    src: &[T],
    len: usize,
    kth: &[usize],
    out: &mut [T],
    key: impl Fn(T) -> K + Sync + Send,
    unkey: impl Fn(K) -> T + Sync + Send,
    cmp: impl Fn(&K, &K) -> Ordering + Copy + Sync + Send,
) -> Result<()> {
    let m = kth.len();
    let lane = |s: &[T], o: &mut [T], keys: &mut Vec<K>, vals: &mut Vec<K>| {
        keys.clear();
        keys.extend(s.iter().map(|&x| key(x)));
        vals.clear();
        vals.resize(m, K::default());
        multi_select(keys, 0, kth, vals, cmp);
        for (o, &v) in o.iter_mut().zip(vals.iter()) {
            *o = unkey(v);
        }
    };
    if src.len() == len {
        // One lane: the keys are made in parallel, the selection is sequential.
        let mut keys = filled_vec(len, K::default())?;
        par::map1(&mut keys, src, |&x| key(x));
        let mut vals = filled_vec(m, K::default())?;
        multi_select(&mut keys, 0, kth, &mut vals, cmp);
        for (o, &v) in out.iter_mut().zip(&vals) {
            *o = unkey(v);
        }
    } else if src.len() < par::PAR_MIN {
        let (mut keys, mut vals) = (Vec::with_capacity(len), Vec::with_capacity(m));
        for (s, o) in src.chunks(len).zip(out.chunks_mut(m)) {
            lane(s, o, &mut keys, &mut vals);
        }
    } else {
        src.par_chunks(len)
            .zip(out.par_chunks_mut(m))
            .with_min_len((par::PAR_MIN / len).max(1))
            .for_each_init(
                || (Vec::with_capacity(len), Vec::with_capacity(m)),
                |(keys, vals), (s, o)| lane(s, o, keys, vals),
            );
    }
    Ok(())
}

impl SelectOps for Cpu {
    fn select_kth<T: Element>(
        &self,
        x: &CpuBuffer<T>,
        lx: &Layout,
        axis: usize,
        kth: &[usize],
    ) -> Result<CpuBuffer<T>> {
        check_views("select_kth", &[(x.len(), lx)])?;
        lx.check_axis("select_kth", axis)?;
        let n = lx.size();
        let len = lx.shape()[axis];
        let m = kth.len();
        if n == 0 || m == 0 || len == 0 {
            let lanes = n.checked_div(len).unwrap_or(0);
            return Ok(CpuBuffer::new(zeroed_vec(checked_len(&[m, lanes])?)?));
        }
        let lanes = n / len;
        let last = lx.axes_to_end(&[axis]);
        let src: Cow<[T]> = match contiguous(x.as_slice(), &last) {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(gather_map(x.as_slice(), &last, |v| v)?),
        };
        let mut per_lane = zeroed_vec(checked_len(&[lanes, m])?)?;
        match T::KEY_BITS {
            33.. => select_lanes(
                &src,
                len,
                kth,
                &mut per_lane,
                key64::<T>,
                unkey64::<T>,
                u64::cmp,
            )?,
            1..=32 => select_lanes(
                &src,
                len,
                kth,
                &mut per_lane,
                key32::<T>,
                unkey32::<T>,
                u32::cmp,
            )?,
            0 => select_lanes(&src, len, kth, &mut per_lane, |v| v, |v| v, T::sort_cmp)?,
        }
        if m == 1 {
            return Ok(CpuBuffer::new(per_lane));
        }
        // Lane-major to position-major: out[j * lanes + l] = per_lane[l * m + j].
        let mut out = zeroed_vec(lanes * m)?;
        for (j, row) in out.chunks_mut(lanes).enumerate() {
            for (l, o) in row.iter_mut().enumerate() {
                *o = per_lane[l * m + j];
            }
        }
        Ok(CpuBuffer::new(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_both_widths() {
        assert_eq!(unkey64::<i64>(key64(i64::MIN)), i64::MIN);
        assert!(key64(-1i64) < key64(0i64));
        assert!(key32(-1i32) < key32(0i32));
        assert_eq!(unkey32::<i32>(key32(-7i32)), -7);
        assert_eq!(unkey32::<i8>(key32(-7i8)), -7);
        assert_eq!(unkey32::<u16>(key32(65535u16)), 65535);
        assert_eq!(unkey32::<f32>(key32(-1.5f32)), -1.5);
        assert!(unkey64::<f64>(key64(f64::NAN)).is_nan());
    }

    #[test]
    fn multi_select_matches_sort() {
        let mut s = 12345u64;
        let mut v: Vec<u64> = (0..5000)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s % 1000
            })
            .collect();
        let mut sorted = v.clone();
        sorted.sort_unstable();
        for kth in [
            vec![0],
            vec![4999],
            vec![0, 4999],
            vec![2499, 2500, 4999],
            vec![1, 2, 3, 100, 101, 2000, 4998],
            (0..5000).step_by(7).collect::<Vec<_>>(),
        ] {
            let mut out = vec![0; kth.len()];
            multi_select(&mut v, 0, &kth, &mut out, u64::cmp);
            let want: Vec<u64> = kth.iter().map(|&p| sorted[p]).collect();
            assert_eq!(out, want, "{kth:?}");
        }
    }

    #[test]
    fn select_kth_on_views_and_types() {
        let cpu = Cpu;
        // 3x4 f64 with a NaN, lanes along axis 0 (strided).
        let data = vec![
            3.0,
            -0.0,
            7.0,
            1.0, //
            f64::NAN,
            2.0,
            -7.0,
            1.0, //
            1.0,
            0.0,
            5.0,
            1.0,
        ];
        let x = CpuBuffer::new(data);
        let l = Layout::contiguous(&[3, 4]);
        let r = cpu.select_kth(&x, &l, 0, &[0, 2]).unwrap();
        let r = r.as_slice();
        assert_eq!(&r[..4], &[1.0, 0.0, -7.0, 1.0]);
        assert!(r[4].is_nan());
        assert_eq!(&r[5..], &[2.0, 7.0, 1.0]);
        let xi = CpuBuffer::new(vec![5i32, -3, 9, 0]);
        let ri = cpu
            .select_kth(&xi, &Layout::contiguous(&[4]), 0, &[1])
            .unwrap();
        assert_eq!(ri.as_slice(), &[0]);
        let xb = CpuBuffer::new(vec![true, false, true]);
        let rb = cpu
            .select_kth(&xb, &Layout::contiguous(&[3]), 0, &[0, 2])
            .unwrap();
        assert_eq!(rb.as_slice(), &[false, true]);
    }
}
