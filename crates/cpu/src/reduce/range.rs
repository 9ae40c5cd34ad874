//! The smallest and the largest element of an integer view in one pass (`bincount` reads
//! its input's range before counting): sixteen lanes of running minima and maxima over a
//! contiguous run, compiled for AVX2 where the CPU has it (64-bit compares are AVX2's), over
//! rayon's threads above the parallel threshold. Other views reduce twice.

use crate::buffer::CpuBuffer;
use crate::par::{self, CHUNK};
use crate::view::contiguous;
use crate::Cpu;
use cuprite_core::backend::min_max_by_reductions;
use cuprite_core::{Error, Integer, Layout, Result};
use rayon::prelude::*;

/// Lanes of running extrema: enough independent compares to keep the vector unit busy.
const LANES: usize = 16;

/// The range of a non-empty run, lane by lane.
#[inline(always)]
fn range_plain<T: Integer>(xs: &[T]) -> (T, T) {
    let mut lo = [xs[0]; LANES];
    let mut hi = [xs[0]; LANES];
    let mut blocks = xs.chunks_exact(LANES);
    for b in &mut blocks {
        for k in 0..LANES {
            lo[k] = lo[k].min(b[k]);
            hi[k] = hi[k].max(b[k]);
        }
    }
    for &v in blocks.remainder() {
        lo[0] = lo[0].min(v);
        hi[0] = hi[0].max(v);
    }
    let lo = lo.into_iter().fold(xs[0], T::min);
    let hi = hi.into_iter().fold(xs[0], T::max);
    (lo, hi)
}

/// [`range_plain`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn range_avx2<T: Integer>(xs: &[T]) -> (T, T) {
    range_plain(xs)
}

/// The range of a non-empty run on one thread.
fn range_run<T: Integer>(xs: &[T]) -> (T, T) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::has_avx2_fma() {
        // SAFETY: AVX2 was detected on this CPU.
        return unsafe { range_avx2(xs) };
    }
    range_plain(xs)
}

/// The range of a non-empty run, split over threads when it is long.
fn range_of<T: Integer>(xs: &[T]) -> (T, T) {
    if par::serial(xs.len()) {
        return range_run(xs);
    }
    xs.par_chunks(CHUNK)
        .map(range_run)
        .reduce_with(|a, b| (a.0.min(b.0), a.1.max(b.1)))
        .unwrap_or((xs[0], xs[0]))
}

/// [`ReduceOps::min_max`] of the CPU: one pass over a contiguous view, two reductions of
/// any other.
pub(super) fn min_max<T: Integer>(
    dev: &Cpu,
    x: &CpuBuffer<T>,
    lx: &Layout,
) -> Result<(CpuBuffer<T>, CpuBuffer<T>)> {
    crate::view::check_views("min_max", &[(x.len(), lx)])?;
    if lx.size() == 0 {
        return Err(Error::invalid(
            "min_max",
            "the range of an empty array is undefined",
        ));
    }
    match contiguous(x.as_slice(), lx) {
        Some(xs) => {
            let (lo, hi) = range_of(xs);
            Ok((CpuBuffer::new(vec![lo]), CpuBuffer::new(vec![hi])))
        }
        None => min_max_by_reductions(dev, x, lx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the lanes and the parallel split, extremes at both ends and in
    /// the remainder, every integer width, against the plain minimum and maximum.
    #[test]
    fn the_range_is_the_minimum_and_the_maximum() {
        fn check<T: Integer>(xs: &[T]) {
            let want = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
            assert_eq!(range_of(xs), want, "{} elements", xs.len());
            assert_eq!(range_plain(xs), want);
        }
        for n in [1usize, 2, 15, 16, 17, 33, 1000, 70_001, 300_007] {
            let v: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 1009 - 500).collect();
            check(&v);
            let mut w = v.clone();
            w[n - 1] = i64::MIN;
            w[0] = i64::MAX;
            check(&w);
            let u: Vec<u8> = v.iter().map(|&x| x as u8).collect();
            check(&u);
            let i: Vec<i32> = v.iter().map(|&x| x as i32 * 3).collect();
            check(&i);
            let q: Vec<u64> = v.iter().map(|&x| x as u64).collect();
            check(&q);
        }
    }

    /// A strided view reduces twice with the same result; an empty view is an error.
    #[test]
    fn strided_views_and_empty_views() {
        let dev = Cpu::new();
        let x = CpuBuffer::new((0..100i64).map(|i| 50 - i).collect());
        let l = Layout::contiguous(&[100]).slice_axis(0, 1, 33, 3);
        let (lo, hi) = min_max(&dev, &x, &l).unwrap();
        assert_eq!((lo.as_slice()[0], hi.as_slice()[0]), (50 - 97, 49));
        let e = min_max(&dev, &x, &Layout::contiguous(&[0])).unwrap_err();
        assert!(e.to_string().contains("min_max"), "{e}");
    }
}
