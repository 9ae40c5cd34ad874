//! Portable `log` and `exp` for the random samplers: fdlibm's algorithms (as in musl) written
//! with nothing but IEEE additions, multiplications, divisions and bit manipulations, so the
//! CPU and the GPU (`kernels/src/random.cu`, compiled with `--fmad=false`) round every step
//! the same way and the samplers that use them give bit-identical results on both. Both
//! functions are accurate to within one ulp, as their fdlibm originals.

// fdlibm's constants by their bit patterns (the intended values; random.cu uses the same
// patterns), so no decimal conversion stands between the two backends.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const LG1: f64 = f64::from_bits(0x3FE5_5555_5555_5593);
const LG2: f64 = f64::from_bits(0x3FD9_9999_9997_FA04);
const LG3: f64 = f64::from_bits(0x3FD2_4924_9422_9359);
const LG4: f64 = f64::from_bits(0x3FCC_71C5_1D8E_78AF);
const LG5: f64 = f64::from_bits(0x3FC7_4664_96CB_03DE);
const LG6: f64 = f64::from_bits(0x3FC3_9A09_D078_C69F);
const LG7: f64 = f64::from_bits(0x3FC2_F112_DF3E_5244);
const INV_LN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
const P1: f64 = f64::from_bits(0x3FC5_5555_5555_553E);
const P2: f64 = f64::from_bits(0xBF66_C16C_16BE_BD93);
const P3: f64 = f64::from_bits(0x3F11_566A_AF25_DE2C);
const P4: f64 = f64::from_bits(0xBEBB_BD41_C5D2_6BF1);
const P5: f64 = f64::from_bits(0x3E66_3769_72BE_A4D0);
/// exp overflows above this (709.78...) and underflows to 0 below the next (-745.13...).
const O_THRESHOLD: f64 = f64::from_bits(0x4086_2E42_FEFA_39EF);
const U_THRESHOLD: f64 = f64::from_bits(0xC087_4910_D52D_3051);

/// The natural logarithm (fdlibm `__ieee754_log`): `-inf` at 0, NaN below 0 and for NaN.
pub fn log(x: f64) -> f64 {
    let mut x = x;
    let mut ix = x.to_bits();
    let mut hx = (ix >> 32) as u32;
    let mut k: i32 = 0;
    if hx < 0x0010_0000 || hx >> 31 != 0 {
        if ix << 1 == 0 {
            return f64::NEG_INFINITY;
        }
        if hx >> 31 != 0 {
            return f64::NAN;
        }
        // Subnormal: scale up by 2^54.
        k -= 54;
        x *= 18_014_398_509_481_984.0;
        ix = x.to_bits();
        hx = (ix >> 32) as u32;
    } else if hx >= 0x7ff0_0000 {
        return x;
    } else if hx == 0x3ff0_0000 && ix << 32 == 0 {
        return 0.0;
    }
    // Reduce x into [sqrt(2)/2, sqrt(2)].
    hx = hx.wrapping_add(0x3ff0_0000 - 0x3fe6_a09e);
    k += (hx >> 20) as i32 - 0x3ff;
    hx = (hx & 0x000f_ffff) + 0x3fe6_a09e;
    x = f64::from_bits(((hx as u64) << 32) | (ix & 0xffff_ffff));
    let f = x - 1.0;
    let hfsq = 0.5 * f * f;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let dk = k as f64;
    s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI
}

/// `y * 2^n` (musl `scalbn`).
fn scalbn(y: f64, n: i32) -> f64 {
    let (mut y, mut n) = (y, n);
    let p1023 = f64::from_bits(0x7fe0_0000_0000_0000);
    let m969 = f64::from_bits(0x0360_0000_0000_0000); // 2^-1022 * 2^53
    if n > 1023 {
        y *= p1023;
        n -= 1023;
        if n > 1023 {
            y *= p1023;
            n -= 1023;
            if n > 1023 {
                n = 1023;
            }
        }
    } else if n < -1022 {
        y *= m969;
        n += 1022 - 53;
        if n < -1022 {
            y *= m969;
            n += 1022 - 53;
            if n < -1022 {
                n = -1022;
            }
        }
    }
    y * f64::from_bits(((0x3ff + n) as u64) << 52)
}

/// The exponential (fdlibm `__ieee754_exp`): `inf` above 709.78, 0 below -745.13, NaN for NaN.
pub fn exp(x: f64) -> f64 {
    let mut x = x;
    let hxs = (x.to_bits() >> 32) as u32;
    let sign = (hxs >> 31) as i32;
    let hx = hxs & 0x7fff_ffff;
    if hx >= 0x4086_232b {
        if x.is_nan() {
            return x;
        }
        if x > O_THRESHOLD {
            return f64::INFINITY;
        }
        if x < U_THRESHOLD {
            return 0.0;
        }
    }
    let (hi, lo, k);
    if hx > 0x3fd6_2e42 {
        k = if hx >= 0x3ff0_a2b2 {
            (INV_LN2 * x + if sign == 0 { 0.5 } else { -0.5 }) as i32
        } else {
            1 - sign - sign
        };
        let kf = k as f64;
        hi = x - kf * LN2_HI;
        lo = kf * LN2_LO;
        x = hi - lo;
    } else if hx > 0x3e30_0000 {
        k = 0;
        hi = x;
        lo = 0.0;
    } else {
        return 1.0 + x;
    }
    let xx = x * x;
    let c = x - xx * (P1 + xx * (P2 + xx * (P3 + xx * (P4 + xx * P5))));
    let y = 1.0 + (x * c / (2.0 - c) - lo + hi);
    if k == 0 { y } else { scalbn(y, k) }
}

/// `ln(1 + x)` accurate near 0 without a dedicated kernel: `log(u) * x / (u - 1)` with
/// `u = 1 + x` rounded (Goldberg's correction), or `x` itself when `1 + x` rounds to 1.
pub fn log1p(x: f64) -> f64 {
    let u = 1.0 + x;
    if u == 1.0 {
        x
    } else if u == f64::INFINITY {
        u
    } else {
        log(u) * x / (u - 1.0)
    }
}

/// `exp(x) - 1` accurate near 0 (Kahan's correction `(u - 1) * x / log(u)`, `u = exp(x)`):
/// `x` when `u` rounds to 1, `-1` when it underflows, `inf` when it overflows.
pub fn expm1(x: f64) -> f64 {
    let u = exp(x);
    if u == 1.0 {
        return x;
    }
    let um1 = u - 1.0;
    if um1 == -1.0 {
        return -1.0;
    }
    if u == f64::INFINITY {
        return u;
    }
    um1 * x / log(u)
}

const PIO2_HI: f64 = f64::from_bits(0x3FF9_21FB_5444_2D18);
const PIO2_LO: f64 = f64::from_bits(0x3C91_A626_3314_5C07);
const PS0: f64 = f64::from_bits(0x3FC5_5555_5555_5555);
const PS1: f64 = f64::from_bits(0xBFD4_D612_03EB_6F7D);
const PS2: f64 = f64::from_bits(0x3FC9_C155_0E88_4455);
const PS3: f64 = f64::from_bits(0xBFA4_8228_B568_8F3B);
const PS4: f64 = f64::from_bits(0x3F49_EFE0_7501_B288);
const PS5: f64 = f64::from_bits(0x3F02_3DE1_0DFD_F709);
const QS1: f64 = f64::from_bits(0xC003_3A27_1C8A_2D4B);
const QS2: f64 = f64::from_bits(0x4000_2AE5_9C59_8AC8);
const QS3: f64 = f64::from_bits(0xBFE6_066C_1B8D_0159);
const QS4: f64 = f64::from_bits(0x3FB3_B8C5_B12E_9282);

/// fdlibm's rational approximation of `(asin(sqrt(z)) - sqrt(z)) / sqrt(z)^3` (`R` in musl).
fn acos_r(z: f64) -> f64 {
    let p = z * (PS0 + z * (PS1 + z * (PS2 + z * (PS3 + z * (PS4 + z * PS5)))));
    let q = 1.0 + z * (QS1 + z * (QS2 + z * (QS3 + z * QS4)));
    p / q
}

/// The arc cosine in `[0, pi]` (fdlibm `__ieee754_acos`, as musl): NaN outside `[-1, 1]`.
pub fn acos(x: f64) -> f64 {
    let bits = x.to_bits();
    let hx = (bits >> 32) as u32;
    let ix = hx & 0x7fff_ffff;
    if ix >= 0x3ff0_0000 {
        let lx = bits as u32;
        if (ix - 0x3ff0_0000) | lx == 0 {
            return if hx >> 31 != 0 { 2.0 * PIO2_HI } else { 0.0 };
        }
        return f64::NAN;
    }
    if ix < 0x3fe0_0000 {
        if ix <= 0x3c60_0000 {
            return PIO2_HI;
        }
        return PIO2_HI - (x - (PIO2_LO - x * acos_r(x * x)));
    }
    if hx >> 31 != 0 {
        let z = (1.0 + x) * 0.5;
        let s = z.sqrt();
        let w = acos_r(z) * s - PIO2_LO;
        return 2.0 * (PIO2_HI - (s + w));
    }
    let z = (1.0 - x) * 0.5;
    let s = z.sqrt();
    let df = f64::from_bits(s.to_bits() & 0xffff_ffff_0000_0000);
    let c = (z - df * df) / (s + df);
    let w = acos_r(z) * s + c;
    2.0 * (df + w)
}

/// `ln Γ(x)` for `x >= 1` (NumPy's `random_loggam`: a Stirling series, shifted up to 7).
// NumPy's decimal spellings, repeated in random.cu; both compilers round them the same way.
#[allow(clippy::excessive_precision)]
pub fn loggam(x: f64) -> f64 {
    const A: [f64; 10] = [
        8.333_333_333_333_333e-02,
        -2.777_777_777_777_778e-03,
        7.936_507_936_507_937e-04,
        -5.952_380_952_380_952e-04,
        8.417_508_417_508_418e-04,
        -1.917_526_917_526_918e-03,
        6.410_256_410_256_410e-03,
        -2.955_065_359_477_124e-02,
        1.796_443_723_688_307e-01,
        -1.392_432_216_905_90e+00,
    ];
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let n: i64 = if x < 7.0 { (7.0 - x) as i64 } else { 0 };
    let mut x0 = x + n as f64;
    let x2 = (1.0 / x0) * (1.0 / x0);
    let lg2pi = 1.837_877_066_409_345_3;
    let mut gl0 = A[9];
    for k in (0..9).rev() {
        gl0 *= x2;
        gl0 += A[k];
    }
    let mut gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * log(x0) - x0;
    if x < 7.0 {
        for _ in 1..=n {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    }
    gl
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Within one ulp (plus a relative 2^-52 slack) of the platform's libm over a wide range.
    #[test]
    fn log_and_exp_agree_with_libm() {
        let mut x = 1e-310f64;
        while x < 1e300 {
            let (a, b) = (log(x), x.ln());
            assert!(
                (a - b).abs() <= 2.5e-16 * b.abs().max(1e-300),
                "log({x}): {a} vs {b}"
            );
            x *= 1.37;
        }
        let mut t = -745.0f64;
        while t < 709.0 {
            let (a, b) = (exp(t), t.exp());
            assert!((a - b).abs() <= 2.5e-16 * b, "exp({t}): {a} vs {b}");
            t += 0.173;
        }
        assert_eq!(log(0.0), f64::NEG_INFINITY);
        assert!(log(-1.0).is_nan());
        assert_eq!(log(1.0), 0.0);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(710.0), f64::INFINITY);
        assert_eq!(exp(-746.0), 0.0);
    }

    #[test]
    fn log1p_and_expm1_keep_small_arguments() {
        for x in [
            1e-300, 1e-17, 1e-9, 3e-5, 0.1, 0.5, 2.0, 50.0, -1e-12, -0.3, -0.999,
        ] {
            let (a, b) = (log1p(x), x.ln_1p());
            assert!((a - b).abs() <= 4e-16 * b.abs(), "log1p({x}): {a} vs {b}");
            let (a, b) = (expm1(x), x.exp_m1());
            assert!((a - b).abs() <= 4e-16 * b.abs(), "expm1({x}): {a} vs {b}");
        }
        assert_eq!(log1p(-1.0), f64::NEG_INFINITY);
        assert_eq!(expm1(-800.0), -1.0);
        assert_eq!(expm1(800.0), f64::INFINITY);
    }

    #[test]
    fn acos_agrees_with_libm() {
        let mut x = -1.0f64;
        while x <= 1.0 {
            let (a, b) = (acos(x), x.acos());
            assert!((a - b).abs() <= 4.5e-16 * b.abs(), "acos({x}): {a} vs {b}");
            x += 0.000_731;
        }
        for x in [
            -1.0,
            -0.5,
            0.5,
            1.0,
            1e-20,
            -1e-20,
            0.999_999_999,
            -0.999_999_999,
        ] {
            let (a, b) = (acos(x), x.acos());
            assert!((a - b).abs() <= 4.5e-16 * b.abs(), "acos({x}): {a} vs {b}");
        }
        assert!(acos(1.5).is_nan() && acos(f64::NAN).is_nan());
    }

    #[test]
    fn loggam_matches_factorials() {
        let mut f = 1.0f64;
        for k in 1..30u32 {
            f *= k as f64;
            let want = f.ln();
            let got = loggam(k as f64 + 1.0);
            assert!(
                (got - want).abs() <= 1e-13 * want.max(1.0),
                "{k}! : {got} vs {want}"
            );
        }
    }
}
