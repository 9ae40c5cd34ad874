//! A stable LSD radix sort with 11-bit digits for the large lanes of `sort`/`argsort`.
//!
//! Items are sorted by an unsigned key computed from each item on the fly ([`RadixKey`]):
//! for the element types, core's order-preserving `Element::radix_key` (floats flip the sign
//! bit, all bits for negatives, map `-0.0` to the key of `+0.0` so the two keep their input
//! order, and every NaN above `+inf`; signed integers flip the sign bit). One read pass counts the histograms of every
//! digit at once; a pass whose digit is the same for every item is skipped; each remaining
//! pass is a stable counting scatter, split over rayon threads above [`PAR_RADIX_MIN`] items
//! (each thread scatters its part of the input into its own disjoint runs of the output, so
//! the scatter stays safe code). Runs too short for 2048 buckets finish with 8-bit passes
//! over the bytes that vary ([`short_lsd`]), the shortest with a comparison sort.

use rayon::prelude::*;

/// Bits per digit: 2048 buckets, whose write cursors (16 KiB) stay in L1.
const DIGIT_BITS: u32 = 11;
/// Buckets per pass.
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Lanes at least this long use the radix sort; shorter ones a comparison sort.
pub(crate) const RADIX_MIN: usize = 1 << 11;
/// Lanes at least this long split each pass over rayon threads.
pub(crate) const PAR_RADIX_MIN: usize = 1 << 17;

/// An unsigned sort key split into 11-bit digits, least significant first.
pub(crate) trait RadixKey: Copy + Send + Sync + Ord {
    /// Number of digits.
    const PASSES: usize;
    /// Digit `pass` (0 = least significant).
    fn digit(self, pass: usize) -> usize;
    /// The key's bits, widened.
    fn bits(self) -> u64;
}

impl RadixKey for u32 {
    const PASSES: usize = 3;
    #[inline(always)]
    fn digit(self, pass: usize) -> usize {
        ((self >> (pass as u32 * DIGIT_BITS)) as usize) & (BUCKETS - 1)
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        self as u64
    }
}

impl RadixKey for u64 {
    const PASSES: usize = 6;
    #[inline(always)]
    fn digit(self, pass: usize) -> usize {
        ((self >> (pass as u32 * DIGIT_BITS)) as usize) & (BUCKETS - 1)
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        self
    }
}

/// Histograms of every digit of every key, `PASSES * BUCKETS` counts.
fn histograms<E: Sync, K: RadixKey>(src: &[E], key: &(impl Fn(&E) -> K + Sync)) -> Vec<usize> {
    let count = |part: &[E]| {
        let mut h = vec![0usize; K::PASSES * BUCKETS];
        for x in part {
            let k = key(x);
            for p in 0..K::PASSES {
                h[p * BUCKETS + k.digit(p)] += 1;
            }
        }
        h
    };
    if src.len() < PAR_RADIX_MIN {
        return count(src);
    }
    src.par_chunks(1 << 18).map(count).reduce(
        || vec![0usize; K::PASSES * BUCKETS],
        |mut a, b| {
            a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
            a
        },
    )
}

/// One stable counting scatter of `src` into `dst` by digit `pass`, on the calling thread.
fn scatter<E: Copy, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    pass: usize,
    counts: &[usize],
    key: &impl Fn(&E) -> K,
) {
    let mut pos = vec![0usize; BUCKETS];
    let mut acc = 0;
    for (p, &c) in pos.iter_mut().zip(counts) {
        *p = acc;
        acc += c;
    }
    for x in src {
        let d = key(x).digit(pass);
        dst[pos[d]] = *x;
        pos[d] += 1;
    }
}

/// One stable counting scatter split over `parts` threads: part `t` of the input writes its
/// items of bucket `b` into the run of the output that follows the items of bucket `b` of
/// parts `0..t`, so every thread owns disjoint runs.
fn scatter_par<E: Copy + Send + Sync, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    pass: usize,
    parts: usize,
    key: &(impl Fn(&E) -> K + Sync),
) {
    let chunk = src.len().div_ceil(parts);
    let hists: Vec<Vec<usize>> = src
        .par_chunks(chunk)
        .map(|c| {
            let mut h = vec![0usize; BUCKETS];
            for x in c {
                h[key(x).digit(pass)] += 1;
            }
            h
        })
        .collect();
    let mut runs: Vec<Vec<&mut [E]>> = (0..hists.len())
        .map(|_| Vec::with_capacity(BUCKETS))
        .collect();
    let mut rest = dst;
    for b in 0..BUCKETS {
        for (t, h) in hists.iter().enumerate() {
            let (run, tail) = std::mem::take(&mut rest).split_at_mut(h[b]);
            runs[t].push(run);
            rest = tail;
        }
    }
    src.par_chunks(chunk)
        .zip(runs.into_par_iter())
        .for_each(|(c, mut runs)| {
            let mut cur = vec![0usize; BUCKETS];
            for x in c {
                let d = key(x).digit(pass);
                runs[d][cur[d]] = *x;
                cur[d] += 1;
            }
        });
}

/// Runs of at most this many bytes are finished by an LSD sort that stays in the L2 cache
/// (the run, its target and a temporary buffer).
const CACHE_BYTES: usize = 1 << 17;

/// Sorts `src` stably by `key` into `dst`, using `scratch` (both of `src`'s length) as the
/// second buffer.
///
/// Short inputs take a plain LSD sort. Long ones are split first, most significant digit
/// first: one stable scatter by the highest digit that varies (split over threads), then every
/// bucket in parallel: buckets that fit in cache finish with an in-cache LSD sort of their
/// lower digits, larger ones (floats crowd into few exponents) are split again by the next
/// digit. Most data thus crosses main memory twice instead of once per digit.
pub(crate) fn radix_sort<E: Copy + Send + Sync + Default, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    scratch: &mut [E],
    key: impl Fn(&E) -> K + Sync,
) {
    let n = src.len();
    debug_assert!(dst.len() == n && scratch.len() == n);
    let small = (CACHE_BYTES / std::mem::size_of::<E>().max(1)).max(RADIX_MIN);
    if n <= small {
        lsd(src, dst, scratch, &key, K::PASSES, 1);
        return;
    }
    advise_huge_pages(dst);
    advise_huge_pages(scratch);
    let hist = histograms(src, &key);
    let Some(top) = (0..K::PASSES)
        .rev()
        .find(|&p| !hist[p * BUCKETS..(p + 1) * BUCKETS].contains(&n))
    else {
        dst.copy_from_slice(src);
        return;
    };
    let parts = rayon::current_num_threads();
    let counts = &hist[top * BUCKETS..(top + 1) * BUCKETS];
    run_pass(src, scratch, top, counts, parts, &key);
    let runs_s = split_runs(scratch, counts);
    let runs_d = split_runs(dst, counts);
    runs_s
        .into_par_iter()
        .zip(runs_d)
        .for_each_init(Vec::new, |tmp, (s, d)| finish(s, d, tmp, top, small, &key));
}

/// Splits `buf` into consecutive runs of the given lengths.
fn split_runs<'a, E>(mut buf: &'a mut [E], lens: &[usize]) -> Vec<&'a mut [E]> {
    let mut runs = Vec::with_capacity(lens.len());
    for &l in lens {
        let (run, tail) = std::mem::take(&mut buf).split_at_mut(l);
        runs.push(run);
        buf = tail;
    }
    runs
}

/// Sorts the run `s`, whose items agree on every digit from `digit` up, into `d` by the
/// digits below `digit`; `s` may be overwritten.
fn finish<E: Copy + Send + Sync + Default, K: RadixKey>(
    s: &mut [E],
    d: &mut [E],
    tmp: &mut Vec<E>,
    digit: usize,
    small: usize,
    key: &(impl Fn(&E) -> K + Sync),
) {
    let n = s.len();
    if digit == 0 || n <= 1 {
        d.copy_from_slice(s);
        return;
    }
    if n < SHORT_RUN {
        // A stable comparison sort of the keys.
        d.copy_from_slice(s);
        d.sort_by_key(|x| key(x));
        return;
    }
    if n < RADIX_MIN {
        short_lsd(s, d, digit, key);
        return;
    }
    if n <= small {
        tmp.resize(n.max(tmp.len()), E::default());
        lsd(s, d, &mut tmp[..n], key, digit, 1);
        return;
    }
    let dg = digit - 1;
    let mut counts = vec![0usize; BUCKETS];
    for x in s.iter() {
        counts[key(x).digit(dg)] += 1;
    }
    if counts.contains(&n) {
        finish(s, d, tmp, dg, small, key);
        return;
    }
    scatter(s, d, dg, &counts, key);
    // The buckets now lie in `d`; finish each into the matching run of `s`, then copy back.
    let runs_d = split_runs(d, &counts);
    let runs_s = split_runs(s, &counts);
    runs_d
        .into_par_iter()
        .zip(runs_s)
        .for_each_init(Vec::new, |tmp, (dd, ss)| {
            finish(dd, ss, tmp, dg, small, key)
        });
    par_copy(d, s);
}

/// Runs shorter than this finish with a comparison sort, longer ones (below [`RADIX_MIN`])
/// with [`short_lsd`].
const SHORT_RUN: usize = 64;

/// Sorts the run `s` (shorter than [`RADIX_MIN`], too short for 2048-bucket passes) stably
/// into `d` by the key bits below digit `digit`: LSD passes of 8-bit digits with their
/// counts on the stack, only over the bytes in which some keys differ. `s` may be
/// overwritten.
fn short_lsd<E: Copy, K: RadixKey>(s: &mut [E], d: &mut [E], digit: usize, key: &impl Fn(&E) -> K) {
    let (mut any, mut all) = (0u64, !0u64);
    for x in s.iter() {
        let k = key(x).bits();
        any |= k;
        all &= k;
    }
    let width = (digit as u32 * DIGIT_BITS).min(64);
    let low = if width == 64 { !0 } else { (1u64 << width) - 1 };
    let varying = (any ^ all) & low;
    let shifts: Vec<u32> = (0..width)
        .step_by(8)
        .filter(|&sh| (varying >> sh) & 0xFF != 0)
        .collect();
    // Passes alternate s -> d -> s ...; an even count ends in `s`, copied over at the end.
    let (mut a, mut b) = (s, d);
    for &sh in &shifts {
        let mut pos = [0usize; 256];
        for x in a.iter() {
            pos[((key(x).bits() >> sh) & 0xFF) as usize] += 1;
        }
        let mut acc = 0;
        for p in pos.iter_mut() {
            let c = *p;
            *p = acc;
            acc += c;
        }
        for x in a.iter() {
            let k = ((key(x).bits() >> sh) & 0xFF) as usize;
            b[pos[k]] = *x;
            pos[k] += 1;
        }
        std::mem::swap(&mut a, &mut b);
    }
    // `a` holds the sorted run; it is `d` after an odd number of passes.
    if shifts.len().is_multiple_of(2) {
        b.copy_from_slice(a);
    }
}

/// `dst.copy_from_slice(src)`, in parallel chunks for long slices.
fn par_copy<E: Copy + Send + Sync>(dst: &mut [E], src: &[E]) {
    if dst.len() < PAR_RADIX_MIN {
        dst.copy_from_slice(src);
    } else {
        dst.par_chunks_mut(1 << 16)
            .zip(src.par_chunks(1 << 16))
            .for_each(|(d, s)| d.copy_from_slice(s));
    }
}

/// Plain LSD sort of `src` into `dst` by the digits below `digits` (skipping constant
/// ones), ping-ponging through `scratch`, each pass split over `parts` threads.
fn lsd<E: Copy + Send + Sync, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    scratch: &mut [E],
    key: &(impl Fn(&E) -> K + Sync),
    digits: usize,
    parts: usize,
) {
    let n = src.len();
    let hist = histograms(src, key);
    // A digit that is equal for every item (one bucket holds all) needs no pass.
    let passes: Vec<usize> = (0..digits)
        .filter(|&p| !hist[p * BUCKETS..(p + 1) * BUCKETS].contains(&n))
        .collect();
    if passes.is_empty() {
        dst.copy_from_slice(src);
        return;
    }
    // The last pass must write `dst`: with an even number of passes the first one writes
    // `scratch`; targets then alternate.
    let (mut a, mut b) = (dst, scratch);
    if passes.len().is_multiple_of(2) {
        std::mem::swap(&mut a, &mut b);
    }
    for (i, &p) in passes.iter().enumerate() {
        let counts = &hist[p * BUCKETS..(p + 1) * BUCKETS];
        if i == 0 {
            run_pass(src, a, p, counts, parts, key);
        } else {
            run_pass(b, a, p, counts, parts, key);
        }
        std::mem::swap(&mut a, &mut b);
    }
}

fn run_pass<E: Copy + Send + Sync, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    pass: usize,
    counts: &[usize],
    parts: usize,
    key: &(impl Fn(&E) -> K + Sync),
) {
    if parts > 1 {
        scatter_par(src, dst, pass, parts, key);
    } else {
        scatter(src, dst, pass, counts, key);
    }
}

/// Asks Linux to back a large, not yet touched buffer with transparent huge pages (as NumPy
/// does for its large arrays): every pass of the sort streams through the whole buffer, and
/// 4 KiB pages cost one page fault and one TLB entry each. Advisory only; elsewhere a no-op.
pub(crate) fn advise_huge_pages<E>(buf: &mut [E]) {
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const HUGE: usize = 1 << 21;
        const MADV_HUGEPAGE: i32 = 14;
        let bytes = std::mem::size_of_val(buf);
        if bytes < 8 * HUGE {
            return;
        }
        let start = buf.as_mut_ptr() as usize;
        let lo = start.next_multiple_of(HUGE);
        let hi = (start + bytes) / HUGE * HUGE;
        if hi > lo {
            // SAFETY: [lo, hi) lies inside the allocation `buf` borrows mutably; MADV_HUGEPAGE
            // only changes how the kernel backs those pages, never their contents, and the
            // return value (an advisory failure) can be ignored.
            unsafe {
                madvise(lo as *mut std::ffi::c_void, hi - lo, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `radix_sort` of `src` by the first field equals the standard library's stable sort.
    fn sorts_like_std<K: RadixKey + Default + std::fmt::Debug>(src: &[(K, u32)], what: &str) {
        let mut dst = vec![(K::default(), 0); src.len()];
        let mut scratch = dst.clone();
        radix_sort(src, &mut dst, &mut scratch, |e| e.0);
        let mut expect = src.to_vec();
        expect.sort_by_key(|e| e.0);
        assert_eq!(dst, expect, "{what}");
    }

    #[test]
    fn sorts_stably_serial_and_parallel() {
        for n in [3000usize, PAR_RADIX_MIN + 12345] {
            // Items (key, original position): equal keys must keep their order.
            let src: Vec<(u32, u32)> = (0..n as u32)
                .map(|i| (i.wrapping_mul(2654435761) % 1000, i))
                .collect();
            sorts_like_std(&src, &format!("n {n}"));
        }
    }

    #[test]
    fn short_runs_sort_stably_by_the_low_digits() {
        // Runs of every length class (comparison sort, short LSD, full passes) after an MSD
        // split: keys share their top digits in few groups, and their low bits repeat.
        for (n, groups) in [(300_000usize, 4u64), (300_000, 400), (200_000, 20_000)] {
            let src: Vec<(u64, u32)> = (0..n as u64)
                .map(|i| {
                    let g = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % groups;
                    let low = i.wrapping_mul(2654435761) % 5000;
                    ((g << 40) | low, i as u32)
                })
                .collect();
            sorts_like_std(&src, &format!("n {n}, {groups} groups"));
        }
        // short_lsd itself, on every run length around its bounds and on keys that differ
        // only in a high byte.
        for n in [SHORT_RUN, 100, 1000, RADIX_MIN - 1] {
            for spread in [3u64, 1 << 20, 1 << 50] {
                let mut s: Vec<(u64, u32)> = (0..n as u64)
                    .map(|i| ((i.wrapping_mul(2654435761) % 7) * spread, i as u32))
                    .collect();
                let mut expect = s.clone();
                expect.sort_by_key(|e| e.0);
                let mut d = vec![(0, 0); n];
                short_lsd(&mut s, &mut d, 6, &|e: &(u64, u32)| e.0);
                assert_eq!(d, expect, "n {n}, spread {spread}");
            }
        }
    }
}
