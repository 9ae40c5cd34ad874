//! The host side of the `multi_gpu` bench's checks: the input pattern every array is tiled
//! from (small integers, so that the sum over up to thousands of ranks is exact in f32 in
//! any order), the elements a check reads back, and their expected values computed on the
//! host from the pattern alone, independently of the GPU path under test. The Python
//! reference builds its inputs the same way, from its own draw of such integers
//! (`scripts/multi_gpu_reference.py`).

use cuprite_benches::data::{uniform_i64, SplitMix64};

/// Elements of the pattern (1 MiB of f32): every size of the ladder is a whole number of
/// patterns, and the values repeat no more often than that.
pub const PATTERN_LEN: usize = 1 << 18;

/// The generator's seed.
const SEED: u64 = 20_261_122;

/// The pattern: [`PATTERN_LEN`] integers uniform in `[-1000, 1000]`, as f32. Never zeros or
/// a constant; any sum of up to 16 000 of them is an integer below 2^24, so exact in f32.
pub fn pattern() -> Vec<f32> {
    uniform_i64(PATTERN_LEN, -1000, 1001, SEED)
        .into_iter()
        .map(|v| v as f32)
        .collect()
}

/// The pattern times `factor` (the expected result of a sum over `factor` ranks that all
/// hold the pattern).
pub fn scaled(pattern: &[f32], factor: usize) -> Vec<f32> {
    pattern.iter().map(|&v| v * factor as f32).collect()
}

/// The indices a check reads back from an array of `n` elements: both ends, the middle,
/// the edges of the first pattern period and a few pseudo-random ones, sorted, without
/// repeats.
pub fn sample_indices(n: usize) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let mut g = SplitMix64::new(n as u64);
    let mut v = vec![
        0,
        1,
        n / 3,
        n / 2,
        PATTERN_LEN - 1,
        PATTERN_LEN,
        n.saturating_sub(2),
        n - 1,
    ];
    v.extend((0..4).map(|_| (g.next_u64() % n as u64) as usize));
    v.retain(|&i| i < n);
    v.sort_unstable();
    v.dedup();
    v
}

/// Checks elements read back (`(index, value)`) against `factor` times the pattern.
pub fn check_samples(got: &[(usize, f32)], pattern: &[f32], factor: usize) -> Result<(), String> {
    for &(i, v) in got {
        let want = pattern[i % pattern.len()] * factor as f32;
        if v.to_bits() != want.to_bits() {
            return Err(format!("element {i} is {v}, expected {want}"));
        }
    }
    Ok(())
}

/// NCCL's version number as text: `major * 10000 + minor * 100 + patch` since NCCL 2.9,
/// `major * 1000 + minor * 100 + patch` before.
pub fn nccl_version_text(code: i32) -> String {
    let (major, minor, patch) = if code >= 10_000 {
        (code / 10_000, code / 100 % 100, code % 100)
    } else {
        (code / 1000, code / 100 % 10, code % 100)
    };
    format!("{major}.{minor}.{patch}")
}
