//! Deterministic benchmark inputs: sin waves and uniform pseudo-random numbers (SplitMix64),
//! so no timed op ever runs on zeros or constants and every run sees the same data.

/// SplitMix64: a small, fast, statistically solid 64-bit generator (Steele et al. 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform `f64` in `[0, 1)` (53 random bits).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// `sin(i)` for `i in 0..n` (NumPy's `np.sin(np.arange(n))`): values in [-1, 1] that never
/// repeat, the input of the anchor workloads' sort.
pub fn sin_wave(n: usize) -> Vec<f64> {
    (0..n).map(|i| (i as f64).sin()).collect()
}

/// `n` uniform values in `[lo, hi)` from the generator seeded with `seed`.
pub fn uniform(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut g = SplitMix64::new(seed);
    (0..n).map(|_| lo + (hi - lo) * g.next_f64()).collect()
}

/// `n` uniform `f32` values in `[lo, hi)`.
pub fn uniform_f32(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f32> {
    uniform(n, lo, hi, seed)
        .into_iter()
        .map(|x| x as f32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_covers_the_interval() {
        let v = uniform(100_000, -1.0, 1.0, 7);
        assert!(v.iter().all(|&x| (-1.0..1.0).contains(&x)));
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        let distinct = v.windows(2).filter(|w| w[0] != w[1]).count();
        assert_eq!(distinct, v.len() - 1);
    }

    #[test]
    fn sin_wave_matches_sin() {
        let v = sin_wave(4);
        assert_eq!(v[0], 0.0);
        assert!((v[1] - 0.841_470_984_807_896_5).abs() < 1e-15);
        assert!((v[3] - 0.141_120_008_059_867_2).abs() < 1e-15);
    }
}
