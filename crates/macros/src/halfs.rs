//! The 16-bit floats at expansion time: literals and constants of type `f16` or `bf16` are
//! rounded here, once, to their bits, which both translations then write out exactly
//! (`f16::from_bits(...)`). f16 rounds from the f64 value (correctly, to nearest, ties to
//! even, as `f16::from_f64` is meant to); bf16 rounds from the value converted to f32 first
//! (`bf16::from_f32(v as f32)`), as cuprite converts to bf16 everywhere.

use crate::ty::Ty;

/// The f16 bits of `v` rounded to nearest, ties to even (overflow gives infinity; NaN gives
/// the quiet NaN `0x7e00` with `v`'s sign).
pub fn f16_bits(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = v.abs();
    if a.is_nan() {
        return sign | 0x7e00;
    }
    // 65520 is halfway between f16::MAX (65504) and 2^16: it and everything above round up.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // The exponent of the result's last place: 2^-24 for subnormals, 2^(e - 10) otherwise.
    let min_normal = 2f64.powi(-14);
    let e = if a < min_normal {
        -24
    } else {
        ((a.to_bits() >> 52) as i32 - 1023) - 10
    };
    // `a / 2^e` is exact (a power-of-two scaling of a normal f64 far from the limits).
    let m = (a / 2f64.powi(e)).round_ties_even() as u32;
    if e == -24 {
        // Subnormal (m <= 1024; 1024 is the smallest normal, whose bits are the same).
        return sign | m as u16;
    }
    let (m, e) = if m == 2048 { (1024, e + 1) } else { (m, e) };
    sign | (((e + 10 + 15) as u16) << 10) | (m - 1024) as u16
}

/// The bf16 bits of `v` rounded to nearest, ties to even, as `bf16::from_f32` rounds.
pub fn bf16_bits(v: f32) -> u16 {
    let x = v.to_bits();
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return ((x >> 16) | 0x40) as u16;
    }
    ((x + 0x7fff + ((x >> 16) & 1)) >> 16) as u16
}

/// The value of f16 bits.
pub fn f16_value(b: u16) -> f64 {
    let sign = if b & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((b >> 10) & 0x1f) as i32;
    let man = (b & 0x3ff) as f64;
    sign * match exp {
        0 => man * 2f64.powi(-24),
        31 if man == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + man) * 2f64.powi(exp - 25),
    }
}

/// The value of bf16 bits.
pub fn bf16_value(b: u16) -> f64 {
    f32::from_bits((b as u32) << 16) as f64
}

/// The bits of `v` converted to the 16-bit float `ty` (f16: from the f64; bf16: through
/// f32).
pub fn bits(v: f64, ty: Ty) -> u16 {
    match ty {
        Ty::F16 => f16_bits(v),
        _ => bf16_bits(v as f32),
    }
}

/// `v` converted to the 16-bit float `ty`, as an f64 (exact).
pub fn round(v: f64, ty: Ty) -> f64 {
    match ty {
        Ty::F16 => f16_value(f16_bits(v)),
        _ => bf16_value(bf16_bits(v as f32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite::{bf16, f16};

    /// f16 rounded once from f64, through the f32 rounded to odd (exact for f16's 11 bits).
    fn reference(v: f64) -> u16 {
        let mut t = v as f32;
        if t.is_nan() {
            return f16::from_f32(t).to_bits();
        }
        if (t as f64).abs() > v.abs() {
            t = f32::from_bits(t.to_bits() - 1);
        }
        if t as f64 != v {
            t = f32::from_bits(t.to_bits() | 1);
        }
        f16::from_f32(t).to_bits()
    }

    #[test]
    fn f16_rounding_is_correct() {
        let mut vals = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            -0.1,
            65504.0,
            65519.99,
            65520.0,
            -65520.0,
            1e10,
            f64::INFINITY,
            f64::NEG_INFINITY,
            6e-8,
            2.9e-8,
            2f64.powi(-25),                 // ties to 0
            2f64.powi(-25) * (1.0 + 1e-12), // rounds up
            6.097555160522461e-5,           // just below the smallest normal
            6.103515625e-5,
            std::f64::consts::PI,
            2049.0,
            2051.0,
            // 1 + 2^-11 + 2^-40: rounds up; through f32 (a tie at 1 + 2^-11) it would not.
            1.0 + 2f64.powi(-11) + 2f64.powi(-40),
            1e-300,
        ];
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Values spread over f16's range and beyond.
            let e = (x % 48) as i32 - 30;
            let m = 1.0 + (x >> 12) as f64 / (1u64 << 52) as f64;
            vals.push(m * 2f64.powi(e) * if x & 1 == 0 { 1.0 } else { -1.0 });
        }
        for v in vals {
            assert_eq!(f16_bits(v), reference(v), "{v:e}");
            let r = f16_value(f16_bits(v));
            assert_eq!(r.to_bits(), f16::from_bits(f16_bits(v)).to_f64().to_bits());
        }
        assert_eq!(f16_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        assert_eq!(f16_bits(f64::NAN), 0x7e00);
    }

    #[test]
    fn bf16_rounding_is_half_s() {
        for v in [
            0.0f32,
            -0.0,
            1.0,
            0.1,
            -3.3e38,
            3.4e38,
            f32::MAX,
            1.0 + 2f32.powi(-8),
            1.0 + 3.0 * 2f32.powi(-8),
            f32::MIN_POSITIVE,
            1e-40,
            f32::INFINITY,
        ] {
            assert_eq!(bf16_bits(v), bf16::from_f32(v).to_bits(), "{v:e}");
            let b = bf16_bits(v);
            assert_eq!(bf16_value(b), bf16::from_bits(b).to_f64());
        }
        assert_eq!(bf16_bits(f32::NAN), bf16::NAN.to_bits());
    }
}
