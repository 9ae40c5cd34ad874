//! Deterministic benchmark inputs: sin waves and uniform pseudo-random numbers (SplitMix64),
//! so no timed op ever runs on zeros or constants and every run sees the same data.
//! [`uniform`], [`uniform_i64`] and [`normal`] use only integer arithmetic and correctly
//! rounded `+`/`*`, so `scripts/bench_numpy.py` (`splitmix_uniform`, `splitmix_ints`,
//! `splitmix_normal`) makes the same bits from the same seeds.

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

/// `n` integers uniform in `lo..hi`: `lo + next_u64() % (hi - lo)` of the generator seeded
/// with `seed` (the modulo bias is below `(hi - lo) / 2^64`).
pub fn uniform_i64(n: usize, lo: i64, hi: i64, seed: u64) -> Vec<i64> {
    assert!(lo < hi, "uniform_i64: empty range {lo}..{hi}");
    let m = hi.abs_diff(lo);
    let mut g = SplitMix64::new(seed);
    (0..n)
        .map(|_| lo.wrapping_add((g.next_u64() % m) as i64))
        .collect()
}

/// The number of uniforms summed by [`normal`].
pub const NORMAL_TERMS: u64 = 12;

/// `n` approximately standard normal values (Irwin-Hall): element `i` is the sum of element
/// `i` of the [`NORMAL_TERMS`] uniform [0, 1) streams seeded `seed`, `seed + 1`, ..., added
/// in that order, minus 6 (mean 0, variance 1, within [-6, 6]).
pub fn normal(n: usize, seed: u64) -> Vec<f64> {
    let mut gens: Vec<SplitMix64> = (0..NORMAL_TERMS)
        .map(|k| SplitMix64::new(seed.wrapping_add(k)))
        .collect();
    (0..n)
        .map(|_| {
            let mut s = gens[0].next_f64();
            for g in &mut gens[1..] {
                s += g.next_f64();
            }
            s - 6.0
        })
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

    /// The values `scripts/bench_numpy.py` computes (`splitmix64(3, 7)`,
    /// `splitmix_uniform(3, -1.0, 1.0, 7)`, `splitmix_ints(5, 0, 1000, 3)`,
    /// `splitmix_normal(3, 1)`), so both sides time the same data.
    #[test]
    fn the_python_formulas_give_the_same_bits() {
        let mut g = SplitMix64::new(7);
        let raw: Vec<u64> = (0..3).map(|_| g.next_u64()).collect();
        assert_eq!(
            raw,
            [
                7191089600892374487,
                309689372594955804,
                16616101746815609346
            ]
        );
        assert_eq!(
            uniform(3, -1.0, 1.0, 7),
            [
                -0.22034050321745702,
                -0.9664234109436878,
                0.8015213612137668
            ]
        );
        assert_eq!(uniform_i64(5, 0, 1000, 3), [53, 561, 729, 647, 366]);
        assert_eq!(
            normal(3, 1),
            [-0.5514037113141832, 1.60187939258976, 0.18665113942634104]
        );
    }

    #[test]
    fn normal_has_unit_variance() {
        let v = normal(200_000, 9);
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "variance {var}");
        assert!(v.iter().all(|x| x.abs() <= 6.0));
    }

    #[test]
    fn sin_wave_matches_sin() {
        let v = sin_wave(4);
        assert_eq!(v[0], 0.0);
        assert!((v[1] - 0.841_470_984_807_896_5).abs() < 1e-15);
        assert!((v[3] - 0.141_120_008_059_867_2).abs() < 1e-15);
    }
}
