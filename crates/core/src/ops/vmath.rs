//! Transcendental functions written for vector units: no branches, no calls, only
//! arithmetic, comparisons and bit moves, so that the compiler turns a loop over them into
//! SIMD code (the CPU backend compiles its element-wise loops for AVX2 where the CPU has it).
//! The platform libm's `expf` is one call per element and never vectorises.
//!
//! Accuracy is measured over every input, not assumed: see each function's tests.

/// `e^x` of an `f32`: at most 1.16 ulp from the exact value over every finite `f32`
/// (measured over all of them; the test below checks every 61st bit pattern, and the
/// edges); overflow gives `inf`, underflow rounds through the subnormals to `0`, NaN
/// stays NaN, `e^0 = 1` exactly.
///
/// Cody and Waite's reduction `x = k ln2 + r` with `|r| <= ln2 / 2` (ln 2 in two parts, the
/// first exact in `k * LN2_HI`), `e^r` by its Taylor polynomial to degree 8 (truncation
/// `< 5e-9` relative), and `2^k` built in the exponent bits as two factors, so that results
/// in the subnormal range round once.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // 1.5 * 2^23: `y + MAGIC` rounds `y` to an integer held in the low mantissa bits.
    const MAGIC: f32 = 12_582_912.0;
    // Clamped so that `k` stays in [-151, 129] (e^89 overflows f32, e^-104 rounds to 0);
    // a NaN passes through both comparisons unchanged.
    let x = if x > 89.0 { 89.0 } else { x };
    let x = if x < -104.0 { -104.0 } else { x };
    let t = x * LOG2E + MAGIC;
    let kf = t - MAGIC;
    let k = (t.to_bits() as i32).wrapping_sub(MAGIC.to_bits() as i32);
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    let p = 1.0 / 5040.0 + r * (1.0 / 40320.0);
    let p = 1.0 / 720.0 + r * p;
    let p = 1.0 / 120.0 + r * p;
    let p = 1.0 / 24.0 + r * p;
    let p = 1.0 / 6.0 + r * p;
    let p = 0.5 + r * p;
    let p = 1.0 + r * p;
    let p = 1.0 + r * p;
    // 2^k = 2^k1 * 2^k2, both normal for k in [-151, 129]: the first product is exact.
    let k1 = k >> 1;
    let k2 = k - k1;
    let s1 = f32::from_bits(((k1 + 127) as u32) << 23);
    let s2 = f32::from_bits(((k2 + 127) as u32) << 23);
    p * s1 * s2
}

/// `e^x` of an `f64`, as [`exp_f32`] for doubles: within 1 ulp of the platform's `exp`
/// (itself within an ulp of the exact value) over the whole range, measured in the tests;
/// overflow gives `inf`, underflow rounds through the subnormals to `0`, NaN stays NaN,
/// `e^0 = 1` exactly.
///
/// Cody and Waite's reduction `x = k ln2 + r`, `|r| <= ln2 / 2` (fdlibm's two-part ln 2,
/// whose first part times any `k` here is exact), `e^r` by its Taylor polynomial to degree
/// 13 (truncation below 2^-57 relative), and `2^k` as two factors built in the exponent bits
/// (the halves of `k` come from floating-point rounding, not an integer shift, which AVX2
/// lacks for 64-bit lanes), so that results in the subnormal range round once.
#[inline(always)]
pub fn exp_f64(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    // 1.5 * 2^52: `y + MAGIC` rounds `y` to an integer held in the low mantissa bits.
    const MAGIC: f64 = 6_755_399_441_055_744.0;
    // Clamped so that `k` stays in [-1077, 1025] (e^710 overflows, e^-746 rounds to 0); a
    // NaN passes through both comparisons unchanged.
    let x = if x > 710.0 { 710.0 } else { x };
    let x = if x < -746.0 { -746.0 } else { x };
    let kf = (x * LOG2E + MAGIC) - MAGIC;
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    let mut p = 1.0 / 6_227_020_800.0;
    for c in [
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
    ] {
        p = c + r * p;
    }
    // 1 + (r + r^2 p): the one rounding that matters is the last addition's.
    let p = 1.0 + (r + (r * r) * p);
    // 2^k = 2^k1 * 2^k2 with k1 = round(k / 2): both normal, the first product exact.
    let k1 = (kf * 0.5 + MAGIC) - MAGIC;
    let k2 = kf - k1;
    let pow2 = |k: f64| {
        let bits = (k + MAGIC).to_bits().wrapping_sub(MAGIC.to_bits());
        f64::from_bits(bits.wrapping_add(1023) << 52)
    };
    p * pow2(k1) * pow2(k2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{exp_f32, exp_f64};

    /// Ulps of `got` from `want`, at `want`'s ulp (the smallest subnormal in the
    /// subnormals); equal values are 0 apart, an infinity and anything else infinitely.
    pub(crate) fn ulps_f64(got: f64, want: f64) -> f64 {
        if got == want {
            return 0.0;
        }
        if want.is_infinite() || got.is_infinite() {
            return f64::INFINITY;
        }
        let ulp = (want.abs().next_up() - want.abs()).max(f64::from_bits(1));
        (got - want).abs() / ulp
    }

    /// Ulps of `got` from the platform's `exp(x)`.
    fn ulps64(got: f64, x: f64) -> f64 {
        ulps_f64(got, x.exp())
    }

    #[test]
    fn exp_f64_is_within_an_ulp_of_exp_everywhere() {
        // 2 000 000 points spread evenly over the whole finite range of e^x, and every
        // binade of small |x| (where e^x is 1 + x + ...) at 64 points each.
        let mut worst = 0.0f64;
        let mut check = |x: f64| {
            let e = ulps64(exp_f64(x), x);
            assert!(
                e <= 1.0,
                "exp({x:e}) = {:e}, exp {:e}: {e} ulp",
                exp_f64(x),
                x.exp()
            );
            worst = worst.max(e);
        };
        let (lo, hi) = (-745.2, 709.78);
        for i in 0..=2_000_000 {
            check(lo + (hi - lo) * (i as f64 / 2e6));
        }
        for e in -1074..0 {
            for m in 0..64 {
                let x = 2f64.powi(e) * (1.0 + m as f64 / 64.0);
                check(x);
                check(-x);
            }
        }
        assert!(worst > 0.0, "the measure itself is broken: {worst}");
    }

    #[test]
    fn exp_f64_mostly_rounds_as_exp() {
        // The platform's exp rounds correctly almost everywhere; this one's extra error
        // (the reduction's rounding of r) changes about one result in ten, by an ulp.
        let (mut same, n) = (0, 100_000);
        for i in 0..n {
            let x = -700.0 + 1400.0 * (i as f64 / n as f64);
            same += (exp_f64(x) == x.exp()) as usize;
        }
        assert!(same * 100 >= n * 85, "{same} of {n}");
    }

    #[test]
    fn exp_f64_edges() {
        assert!(exp_f64(f64::NAN).is_nan());
        assert_eq!(exp_f64(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp_f64(f64::NEG_INFINITY).to_bits(), 0);
        assert_eq!(exp_f64(0.0), 1.0);
        assert_eq!(exp_f64(-0.0), 1.0);
        assert!(ulps64(exp_f64(1.0), 1.0) <= 1.0);
        // The largest finite result and the first overflow.
        let top = f64::MAX.ln();
        assert!(exp_f64(top).is_finite() && exp_f64(top.next_up().next_up()).is_infinite());
        assert_eq!(exp_f64(710.0), f64::INFINITY);
        // The subnormal range rounds once, down to the smallest subnormal and then 0.
        for x in [
            -708.4, -710.0, -720.0, -740.0, -745.0, -745.13, -745.14, -800.0,
        ] {
            assert!(ulps64(exp_f64(x), x) <= 1.0, "exp({x}) = {:e}", exp_f64(x));
        }
        assert_eq!(exp_f64(-745.14), 0.0);
    }

    /// Distance of `got` from the exact `e^x` (f64 is exact enough: 2^-29 of an f32 ulp),
    /// in units of the f32 ulp at the correctly rounded result.
    fn ulps(got: f32, x: f32) -> f64 {
        let want = (x as f64).exp();
        let rounded = want as f32;
        if rounded.is_infinite() {
            return if got == rounded { 0.0 } else { f64::INFINITY };
        }
        let next = f32::from_bits(rounded.abs().to_bits() + 1) as f64;
        let ulp = (next - rounded.abs() as f64).max(f32::from_bits(1) as f64);
        ((got as f64) - want).abs() / ulp
    }

    #[test]
    fn exp_f32_is_within_1_16_ulp_everywhere() {
        // Every f32 whose e^x is neither 1 (|x| < 2^-25 rounds to 1 as a whole) nor beyond
        // the clamps, stepped to keep the test quick in debug builds: every 61st bit
        // pattern (odd step: all exponents and mantissa residues are hit).
        let mut worst = 0.0f64;
        let mut bits = 0u32;
        while bits < u32::MAX - 61 {
            let x = f32::from_bits(bits);
            if x.is_finite() && x.abs() < 110.0 {
                let e = ulps(exp_f32(x), x);
                assert!(e <= 1.16, "exp({x:e}) = {:e}: {e} ulp", exp_f32(x));
                worst = worst.max(e);
            }
            bits += 61;
        }
        assert!(worst > 0.5, "the measure itself is broken: {worst}");
    }

    #[test]
    fn exp_f32_edges() {
        assert!(exp_f32(f32::NAN).is_nan());
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY).to_bits(), 0);
        assert_eq!(exp_f32(0.0), 1.0);
        assert_eq!(exp_f32(-0.0), 1.0);
        assert_eq!(exp_f32(1.0), std::f32::consts::E);
        // The largest finite result and the first overflow.
        assert_eq!(exp_f32(88.722_83), (88.722_83f32 as f64).exp() as f32);
        assert_eq!(exp_f32(88.722_84), f32::INFINITY);
        // The subnormal range rounds once, down to the smallest subnormal and then 0.
        for x in [
            -87.336_55f32,
            -90.0,
            -100.0,
            -103.0,
            -103.972,
            -103.973,
            -120.0,
        ] {
            assert_eq!(exp_f32(x), (x as f64).exp() as f32, "exp({x})");
        }
    }
}
