//! A stable, adaptive MSD radix sort for the large lanes of `sort`/`argsort`.
//!
//! Items are sorted by an unsigned key computed from each item on the fly ([`RadixKey`]), so
//! the stored values keep their bits (the sign of `-0.0`, NaN payloads) while the key decides
//! the order. The order-preserving key transforms of the element types live here too
//! ([`f64_key`], [`f32_key`], ...): floats flip the sign bit (all bits for negatives), map
//! `-0.0` to the key of `+0.0` (so the two compare equal and keep their input order) and every
//! NaN above `+inf`; signed integers flip the sign bit.
//!
//! Every level of the sort first measures the range `lo..=hi` of its keys and then splits by
//! the most significant bits of `key - lo` that can vary, so constant leading bits (small
//! integers, floats of one sign or a few exponents) cost nothing:
//!
//! - Runs larger than the cache ([`CACHE_BYTES`]) take a *window* level: a histogram of the
//!   top [`WINDOW_BITS`] varying bits, whose prefixes are merged into at most
//!   [`MAX_BUCKETS`] buckets of balanced size (a lookup table maps prefix to bucket), so one
//!   scatter through main memory leaves buckets that mostly fit in cache even when floats
//!   crowd into a few exponents. Histogram and scatter are split over rayon threads (each
//!   chunk of the input writes its own disjoint runs of every bucket, so the scatter is safe
//!   code) and the buckets are then finished in parallel.
//! - Runs that fit in cache take *digit* levels: a counting scatter by the next few bits,
//!   whose width follows the run length so that buckets hold a handful of items, then
//!   recursion; runs of at most [`INSERTION_MAX`] items finish with an insertion sort.
//!
//! Every level is a stable counting scatter from one buffer into the other, so each item
//! crosses main memory once per window level (usually once or twice in all) and the result
//! lands in the requested buffer without copying back.

use rayon::prelude::*;

/// Lanes at least this long use the radix sort; shorter ones a comparison sort.
pub(crate) const RADIX_MIN: usize = 1 << 11;
/// Runs of at most this many bytes are sorted by in-cache digit levels (the run and its
/// second buffer then fit in the 512 KiB L2 cache of the development machine).
const CACHE_BYTES: usize = 1 << 17;
/// Bits of the histogram of a window level (65536 prefixes).
const WINDOW_BITS: u32 = 16;
/// Most buckets a window level scatters into: the write cursors stay in L1 and the open
/// destination lines in L2.
const MAX_BUCKETS: usize = 2048;
/// Items a window level histograms per task: `u32` counts suffice and the work splits into
/// enough tasks to balance two busy cores.
const WINDOW_CHUNK: usize = 1 << 18;
/// Widest digit of an in-cache level (4096 `u32` counts, 16 KiB).
const MAX_DIGIT_BITS: u32 = 12;
/// Runs of at most this many items finish with an insertion sort.
const INSERTION_MAX: usize = 24;

/// An unsigned sort key (sealed to `u32` and `u64`, whose all-zero pattern is valid).
pub(crate) trait RadixKey: Copy + Send + Sync + Ord + Default {
    /// The key widened to 64 bits (order preserving).
    fn wide(self) -> u64;
}

impl RadixKey for u32 {
    #[inline(always)]
    fn wide(self) -> u64 {
        self as u64
    }
}

impl RadixKey for u64 {
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
}

/// Order-preserving key of an f64: `-0.0` shares the key of `0.0`, NaNs sort last.
#[inline(always)]
pub(crate) fn f64_key(x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    // Adding 0.0 turns -0.0 into +0.0 and leaves every other value unchanged.
    let b = (x + 0.0).to_bits();
    let mask = ((b as i64 >> 63) as u64) | (1 << 63);
    b ^ mask
}

/// Order-preserving key of an f32: `-0.0` shares the key of `0.0`, NaNs sort last.
#[inline(always)]
pub(crate) fn f32_key(x: f32) -> u32 {
    if x.is_nan() {
        return u32::MAX;
    }
    let b = (x + 0.0).to_bits();
    let mask = ((b as i32 >> 31) as u32) | (1 << 31);
    b ^ mask
}

/// Order-preserving key of an i64.
#[inline(always)]
pub(crate) fn i64_key(x: i64) -> u64 {
    (x as u64) ^ (1 << 63)
}

/// Order-preserving key of an i32.
#[inline(always)]
pub(crate) fn i32_key(x: i32) -> u32 {
    (x as u32) ^ (1 << 31)
}

/// Smallest and largest widened key of `s` (`s` not empty).
fn key_range<E, K: RadixKey>(s: &[E], key: &impl Fn(&E) -> K) -> (u64, u64) {
    s.iter().fold((u64::MAX, 0), |(lo, hi), x| {
        let k = key(x).wide();
        (lo.min(k), hi.max(k))
    })
}

/// [`key_range`] split over rayon threads.
fn key_range_par<E: Sync, K: RadixKey>(s: &[E], key: &(impl Fn(&E) -> K + Sync)) -> (u64, u64) {
    s.par_chunks(WINDOW_CHUNK)
        .map(|c| key_range(c, key))
        .reduce(|| (u64::MAX, 0), |a, b| (a.0.min(b.0), a.1.max(b.1)))
}

/// Number of bits of `key - lo` that vary when the keys lie in `lo..=hi`.
fn span_bits(lo: u64, hi: u64) -> u32 {
    64 - (hi - lo).leading_zeros()
}

/// Sorts `src` stably by `key` into `dst`, using `scratch` (both of `src`'s length) as the
/// second buffer.
pub(crate) fn radix_sort<E: Copy + Send + Sync, K: RadixKey>(
    src: &[E],
    dst: &mut [E],
    scratch: &mut [E],
    key: impl Fn(&E) -> K + Sync,
) {
    let n = src.len();
    debug_assert!(dst.len() == n && scratch.len() == n);
    if n == 0 {
        return;
    }
    if n * std::mem::size_of::<E>() <= CACHE_BYTES {
        scratch.copy_from_slice(src);
        sort_run(scratch, dst, true, &key);
        return;
    }
    let (lo, hi) = key_range_par(src, &key);
    if lo == hi {
        dst.copy_from_slice(src);
        return;
    }
    // The first level reads the input and scatters into `scratch`; every bucket then sorts
    // from its run of `scratch` into its run of `dst`.
    let lens = window_scatter(src, scratch, lo, span_bits(lo, hi), &key);
    finish_buckets(scratch, dst, &lens, true, &key);
}

/// Sorts the run `s` stably by `key`, leaving the result in `d` when `into_d`, else in `s`;
/// the other buffer (of the same length) is scratch space.
fn sort_run<E: Copy + Send + Sync, K: RadixKey>(
    s: &mut [E],
    d: &mut [E],
    into_d: bool,
    key: &(impl Fn(&E) -> K + Sync),
) {
    let m = s.len();
    if m <= INSERTION_MAX {
        if into_d {
            d.copy_from_slice(s);
            insertion_sort(d, key);
        } else {
            insertion_sort(s, key);
        }
        return;
    }
    let (lo, hi) = if m * std::mem::size_of::<E>() > CACHE_BYTES {
        key_range_par(s, key)
    } else {
        key_range(s, key)
    };
    if lo == hi {
        // All keys equal: the run is sorted as it stands.
        if into_d {
            d.copy_from_slice(s);
        }
        return;
    }
    let span = span_bits(lo, hi);
    // After the scatter the buckets lie in `d`; each finishes into `d` (`!into_d`, since the
    // child's source is `d`) or back into `s`.
    if m * std::mem::size_of::<E>() > CACHE_BYTES {
        let lens = window_scatter(s, d, lo, span, key);
        finish_buckets(d, s, &lens, !into_d, key);
        return;
    }
    // Digit level: about four items per bucket, at most 4096 buckets.
    let bits = (usize::BITS - (m / 4).leading_zeros()).clamp(1, MAX_DIGIT_BITS);
    let bits = bits.min(span);
    let shift = span - bits;
    let mask = (1usize << bits) - 1;
    let digit = |x: &E| ((key(x).wide().wrapping_sub(lo) >> shift) as usize) & mask;
    let mut pos = vec![0u32; mask + 1];
    for x in s.iter() {
        pos[digit(x)] += 1;
    }
    let mut acc = 0u32;
    for p in pos.iter_mut() {
        let c = *p;
        *p = acc;
        acc += c;
    }
    for x in s.iter() {
        let p = &mut pos[digit(x)];
        d[*p as usize] = *x;
        *p += 1;
    }
    // `pos[b]` is now the end of bucket `b`.
    let mut start = 0;
    for &end in &pos {
        let end = end as usize;
        if end > start {
            sort_run(&mut d[start..end], &mut s[start..end], !into_d, key);
        }
        start = end;
    }
}

/// Sorts every bucket (consecutive runs of the given lengths) of `s` with [`sort_run`], in
/// parallel; `d` is the matching second buffer.
fn finish_buckets<E: Copy + Send + Sync, K: RadixKey>(
    s: &mut [E],
    d: &mut [E],
    lens: &[usize],
    into_d: bool,
    key: &(impl Fn(&E) -> K + Sync),
) {
    let runs_s = split_runs(s, lens);
    let runs_d = split_runs(d, lens);
    runs_s
        .into_par_iter()
        .zip(runs_d)
        .for_each(|(s, d)| sort_run(s, d, into_d, key));
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

/// One window level: scatters `src` (keys in `lo..lo + 2^span`) stably into `out` by the top
/// [`WINDOW_BITS`] varying bits, merged into balanced buckets, and returns the bucket lengths.
fn window_scatter<E: Copy + Send + Sync, K: RadixKey>(
    src: &[E],
    out: &mut [E],
    lo: u64,
    span: u32,
    key: &(impl Fn(&E) -> K + Sync),
) -> Vec<usize> {
    let m = src.len();
    let wbits = span.min(WINDOW_BITS);
    let shift = span - wbits;
    let pmask = (1usize << wbits) - 1;
    let prefix = |x: &E| ((key(x).wide().wrapping_sub(lo) >> shift) as usize) & pmask;
    // Per-chunk prefix histograms.
    let hists: Vec<Vec<u32>> = src
        .par_chunks(WINDOW_CHUNK)
        .map(|c| {
            let mut h = vec![0u32; pmask + 1];
            for x in c {
                h[prefix(x)] += 1;
            }
            h
        })
        .collect();
    // Prefix `p` goes to bucket `items before p / target`: monotone in `p`, so the buckets
    // keep the key order; a crowded prefix forms a bucket of its own.
    let target = m.div_ceil(MAX_BUCKETS);
    let mut nb = m.div_ceil(target);
    let mut lut = vec![0u16; pmask + 1];
    let mut before = 0usize;
    for (p, l) in lut.iter_mut().enumerate() {
        *l = (before / target).min(nb - 1) as u16;
        before += hists.iter().map(|h| h[p] as usize).sum::<usize>();
    }
    // Prefix 0 (the key `lo`) and the top half (the key `hi`) always hold items; if they
    // share a bucket, that bucket holds everything (a few items before a crowded prefix) and
    // the level would not progress: split by the top bits of the window instead.
    if lut[0] == lut[pmask] {
        let drop_bits = wbits.saturating_sub(MAX_BUCKETS.trailing_zeros());
        for (p, l) in lut.iter_mut().enumerate() {
            *l = (p >> drop_bits) as u16;
        }
        nb = nb.max((pmask >> drop_bits) + 1);
    }
    // Per-chunk bucket counts, and from them each chunk's run of every bucket in `out`.
    let counts: Vec<Vec<usize>> = hists
        .par_iter()
        .map(|h| {
            let mut c = vec![0usize; nb];
            for (&b, &k) in lut.iter().zip(h) {
                c[b as usize] += k as usize;
            }
            c
        })
        .collect();
    drop(hists);
    let lens: Vec<usize> = (0..nb).map(|b| counts.iter().map(|c| c[b]).sum()).collect();
    let mut runs: Vec<Vec<&mut [E]>> = (0..counts.len()).map(|_| Vec::with_capacity(nb)).collect();
    let mut rest = out;
    for b in 0..nb {
        for (t, c) in counts.iter().enumerate() {
            let (run, tail) = std::mem::take(&mut rest).split_at_mut(c[b]);
            runs[t].push(run);
            rest = tail;
        }
    }
    src.par_chunks(WINDOW_CHUNK)
        .zip(runs.into_par_iter())
        .for_each(|(c, mut runs)| {
            for x in c {
                let r = &mut runs[lut[prefix(x)] as usize];
                let (first, tail) = std::mem::take(r)
                    .split_first_mut()
                    .expect("bucket counts match the histogram");
                *first = *x;
                *r = tail;
            }
        });
    lens
}

/// Stable insertion sort of a short run by `key`.
fn insertion_sort<E: Copy, K: RadixKey>(v: &mut [E], key: &impl Fn(&E) -> K) {
    for i in 1..v.len() {
        let x = v[i];
        let k = key(&x);
        let mut j = i;
        while j > 0 && key(&v[j - 1]) > k {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// Asks Linux to back a large, not yet touched buffer with transparent huge pages (as NumPy
/// does for its large arrays): every pass of the sort streams through the whole buffer, and
/// 4 KiB pages cost one page fault and one TLB entry each. Advisory only; elsewhere a no-op.
pub(crate) fn advise_huge_pages<E>(buf: &mut [E]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 1 << 21;
        let bytes = std::mem::size_of_val(buf);
        if bytes < 2 * HUGE {
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
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buf;
}
