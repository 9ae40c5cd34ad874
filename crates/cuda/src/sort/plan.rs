//! Host-side planning of the sort kernels: key widths and tile sizes per element type, the
//! radix passes worth running (a digit that is the same in every key moves nothing and is
//! skipped; lane numbers, whose digit histograms are known without looking at the data,
//! follow the key digits), and the layout of the short-lane block sort.

use cuprite_core::DType;
use cuprite_kernels::sort::{RADIX, THREADS};

/// Bytes of the radix key of a dtype: the number of 8-bit digits (`sizeof(K)` in sort.cu).
pub(crate) fn key_bytes(d: DType) -> usize {
    match d {
        DType::Bool
        | DType::I8
        | DType::U8
        | DType::I16
        | DType::U16
        | DType::I32
        | DType::U32
        | DType::F16
        | DType::BF16
        | DType::F32 => 4,
        DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
        DType::C128 => 16,
    }
}

/// Bytes of the key that can differ between elements (bool keys are below 256, an
/// integer's key has the integer's width); `sort_hist` counts only these (`SIG_BYTES` in
/// sort.cu).
pub(crate) fn sig_bytes(d: DType) -> usize {
    match d {
        DType::Bool => 1,
        d if d.is_integer() || d.is_half() => d.size_of(),
        _ => key_bytes(d),
    }
}

/// Keys per thread of a radix pass, keys only or with values (`SORT_ITEMS` in sort.cu).
pub(crate) fn items(d: DType, pairs: bool) -> usize {
    match (key_bytes(d), pairs) {
        (4, _) => 16,
        (8, false) => 14,
        (8, true) => 12,
        _ => 8,
    }
}

/// Keys per block (tile) of a radix pass.
pub(crate) fn tile(d: DType, pairs: bool) -> usize {
    items(d, pairs) * THREADS as usize
}

/// Dynamic shared memory of a radix pass: the tile's keys and their digits.
pub(crate) fn pass_shared(d: DType, pairs: bool) -> u32 {
    (tile(d, pairs) * (key_bytes(d) + 1)) as u32
}

/// Blocks per SM of the histogram kernel.
pub(crate) const HIST_BLOCKS_PER_SM: u32 = 4;

/// Elements a radix sort handles at once: values and positions are 32-bit on the device.
pub(crate) const RADIX_MAX: usize = u32::MAX as usize;

/// True when the look-back entries of a pass over `n` keys need 64 bits (a 32-bit entry
/// keeps 2 flag bits and a 30-bit count).
pub(crate) fn lookback_64(n: usize) -> bool {
    n >= 1 << 30
}

/// Longest lane the block sort handles: (key, u16 index) slots of one block in 48 KiB of
/// shared memory.
pub(crate) fn block_max_len(d: DType) -> usize {
    if key_bytes(d) <= 8 {
        4096
    } else {
        2048
    }
}

/// How the block sort covers `lanes` lanes of `len` elements (`2 <= len <=
/// block_max_len`): each lane padded to `p2` slots, `lpb` lanes per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockPlan {
    /// Slots per lane: `len` rounded up to a power of two.
    pub p2: usize,
    /// Lanes per block.
    pub lpb: usize,
    /// Blocks.
    pub blocks: usize,
    /// Dynamic shared memory per block in bytes.
    pub shared: u32,
}

/// The block sort's layout for `lanes` lanes of `len` elements of `d`.
pub(crate) fn block_plan(d: DType, lanes: usize, len: usize) -> BlockPlan {
    let p2 = len.next_power_of_two();
    let lpb = (block_max_len(d) / p2).clamp(1, lanes.max(1));
    BlockPlan {
        p2,
        lpb,
        blocks: lanes.div_ceil(lpb),
        shared: (p2 * lpb * (key_bytes(d) + 2)) as u32,
    }
}

/// What a radix pass sorts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Digit {
    /// Byte `b` of the key.
    Key(u32),
    /// Byte `b` of the lane number.
    Lane(u32),
}

impl Digit {
    /// The bit of the digit within its key or lane number.
    pub(crate) fn shift(self) -> i32 {
        match self {
            Digit::Key(b) | Digit::Lane(b) => 8 * b as i32,
        }
    }
}

/// The passes of a stable LSD radix sort of `lanes` lanes of `len` keys (`n = lanes * len`,
/// `0 < n <= RADIX_MAX`) whose digit histograms are `hist` (`hist[p * 256 + d]`: keys with
/// byte `p` equal to `d`, for the `sig_bytes` low bytes that can vary): the key bytes from
/// least significant up, then the bytes of the lane number, leaving out every digit that is
/// the same for all keys. (Each pass's bucket offsets are the exclusive scan of its
/// histogram; the kernel scans it, and counts lane numbers with `lane_count`, the twin of
/// [`lane_hist`].)
pub(crate) fn plan_passes(hist: &[u32], sig_bytes: usize, lanes: usize, len: usize) -> Vec<Digit> {
    let n = (lanes * len) as u64;
    let mut passes: Vec<Digit> = (0..sig_bytes)
        .filter(|&b| {
            !hist[b * RADIX..(b + 1) * RADIX]
                .iter()
                .any(|&c| c as u64 == n)
        })
        .map(|b| Digit::Key(b as u32))
        .collect();
    let mut b = 0u32;
    while lanes > 1 && (1u128 << (8 * b)) < lanes as u128 {
        passes.push(Digit::Lane(b));
        b += 1;
    }
    passes
}

/// Elements per value of byte `b` of the lane number, over `lanes` lanes of `len` (what
/// `lane_count` in sort.cu computes per digit).
#[cfg(test)]
pub(crate) fn lane_hist(lanes: usize, len: usize, b: u32) -> [u64; RADIX] {
    let block = 1u128 << (8 * b); // lanes in a row with the same byte
    let period = block << 8; // the byte's values repeat with this period
    let lanes = lanes as u128;
    let (full, rem) = (lanes / period, lanes % period);
    let mut out = [0u64; RADIX];
    for (d, o) in out.iter_mut().enumerate() {
        let start = d as u128 * block;
        let partial = rem.saturating_sub(start).min(block);
        *o = ((full * block + partial) * len as u128) as u64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digit histograms of a list of u32 keys, as `sort_hist` computes them.
    fn hist32(keys: &[u32]) -> Vec<u32> {
        let mut h = vec![0u32; 4 * RADIX];
        for &k in keys {
            for p in 0..4 {
                h[p * RADIX + ((k >> (8 * p)) & 255) as usize] += 1;
            }
        }
        h
    }

    #[test]
    fn constant_digits_are_skipped() {
        // Keys below 256: only byte 0 varies.
        let keys: Vec<u32> = (0..1000).map(|i| (i * 7 % 200) as u32).collect();
        let p = plan_passes(&hist32(&keys), 4, 1, keys.len());
        assert_eq!(p, vec![Digit::Key(0)]);
        // bool and u8 keys: only byte 0 is counted (the rest of `hist` is zero).
        let mut h = vec![0u32; 4 * RADIX];
        h[0] = 3;
        h[1] = 4;
        assert_eq!(plan_passes(&h, 1, 1, 7), vec![Digit::Key(0)]);
        h[1] = 0;
        h[0] = 7;
        assert!(plan_passes(&h, 1, 1, 7).is_empty());
        // Equal keys: nothing to do.
        assert!(plan_passes(&hist32(&[5; 10]), 4, 1, 10).is_empty());
        // A key varying in bytes 1 and 3 only.
        let keys = [0x0100_0000u32, 0x0000_0100, 0x0100_0000];
        let p = plan_passes(&hist32(&keys), 4, 1, 3);
        assert_eq!(p, vec![Digit::Key(1), Digit::Key(3)]);
        assert_eq!(p[0].shift(), 8);
        assert_eq!(p[1].shift(), 24);
        assert_eq!(Digit::Lane(2).shift(), 16);
    }

    #[test]
    fn lane_passes_follow_key_passes() {
        let lanes = 70_000;
        let len = 3;
        let keys: Vec<u32> = (0..lanes * len).map(|i| (i % 5) as u32).collect();
        let p = plan_passes(&hist32(&keys), 4, lanes, len);
        // 70000 lanes need 3 bytes of lane number.
        assert_eq!(
            p,
            vec![
                Digit::Key(0),
                Digit::Lane(0),
                Digit::Lane(1),
                Digit::Lane(2)
            ]
        );
        // One lane needs no lane pass; 256 lanes one, 257 two.
        assert_eq!(plan_passes(&hist32(&[1, 2]), 4, 1, 2).len(), 1);
        let n256 = plan_passes(&hist32(&vec![1; 512]), 4, 256, 2);
        assert_eq!(n256, vec![Digit::Lane(0)]);
        assert_eq!(plan_passes(&hist32(&vec![1; 514]), 4, 257, 2).len(), 2);
    }

    #[test]
    fn lane_histograms_count_every_lane_once() {
        for (lanes, len) in [(1usize, 5usize), (255, 2), (256, 1), (257, 3), (70_000, 7)] {
            for b in 0..3 {
                let h = lane_hist(lanes, len, b);
                assert_eq!(h.iter().sum::<u64>(), (lanes * len) as u64);
                let mut want = [0u64; RADIX];
                for l in 0..lanes {
                    want[(l >> (8 * b)) & 255] += len as u64;
                }
                assert_eq!(h, want, "lanes {lanes} byte {b}");
            }
        }
    }

    #[test]
    fn sizes_fit_the_device_limits() {
        for d in [
            DType::Bool,
            DType::U8,
            DType::I32,
            DType::I64,
            DType::F32,
            DType::F64,
            DType::C64,
            DType::C128,
        ] {
            for pairs in [false, true] {
                // Static shared memory of a pass is 9 KiB and change; all under 48 KiB.
                assert!(
                    pass_shared(d, pairs) as usize + 9 * 1024 + 64 < 48 * 1024,
                    "{d:?}"
                );
                // A tile's positions fit the u16 ranks and the per-tile counts.
                assert!(tile(d, pairs) <= 1 << 16);
            }
            let bp = block_plan(d, 1, block_max_len(d));
            assert!(bp.shared as usize <= 48 * 1024, "{d:?}");
            assert_eq!((bp.lpb, bp.blocks), (1, 1));
        }
        assert!(!lookback_64((1 << 30) - 1) && lookback_64(1 << 30));
    }

    #[test]
    fn block_plans_pack_short_lanes() {
        let p = block_plan(DType::F32, 10_000, 3);
        assert_eq!((p.p2, p.lpb, p.blocks), (4, 1024, 10));
        assert_eq!(p.shared, 4 * 1024 * 6);
        let p = block_plan(DType::C128, 3, 2000);
        assert_eq!((p.p2, p.lpb, p.blocks), (2048, 1, 3));
        // Few lanes: no more lanes per block than there are.
        let p = block_plan(DType::I64, 2, 5);
        assert_eq!((p.p2, p.lpb, p.blocks), (8, 2, 1));
    }
}
