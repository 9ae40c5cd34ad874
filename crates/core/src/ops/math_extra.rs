//! The helpers behind the semantics of `logaddexp`/`logaddexp2` (`npy_logaddexp`:
//! `max + log1p(exp(-|x - y|))`, no overflow, equal infinities kept), `signbit`, `heaviside`,
//! a bit-exact `nextafter` and `spacing`, `frexp` and [`Ldexp`](super::Ldexp), NumPy's
//! `gcd`/`lcm`/`bitwise_count` on the absolute value in the unsigned type of the width, and
//! [`via_f64`], which runs the special functions' f64 mathematics (`special.rs`) for any
//! float type; the declarations in the [registry](super::registry) call them
//! (`deg2rad`/`rad2deg` are one expression there: `x * (pi / 180)` with the constant
//! computed in the element type, as `npy_deg2rad`/`npy_deg2radf`).

use super::{BinaryOp, Ldexp};
use crate::dtype::{Float, Integer, Real, Scalar, bf16, f16};

/// NumPy's `npy_logaddexp` (`base2` false) or `npy_logaddexp2` (true) on one float type.
#[inline(always)]
pub(super) fn log_add_exp<F: Float>(x: F, y: F, base2: bool) -> F {
    use num_traits::Float as F_;
    if x == y {
        // Equal infinities give themselves (no inf - inf); finite values add log(2).
        return if base2 {
            x + F::one()
        } else {
            x + F::from_f64(std::f64::consts::LN_2)
        };
    }
    let d = x - y;
    let tail = |t: F| {
        if base2 {
            F_::ln_1p(F_::exp2(t)) * F::from_f64(std::f64::consts::LOG2_E)
        } else {
            F_::ln_1p(F_::exp(t))
        }
    };
    if d > F::zero() {
        x + tail(-d)
    } else if d <= F::zero() {
        y + tail(d)
    } else {
        // A NaN operand (or inf - inf cannot happen here: equal infinities returned above).
        d
    }
}

/// The sign bit of a real value: floats' own bit (`-0.0` and NaNs with the bit too),
/// `x < 0` for integers.
#[inline(always)]
pub(super) fn signbit<T: Real>(x: T) -> bool {
    match x.to_scalar().widen_half() {
        Scalar::F32(v) => v.is_sign_negative(),
        Scalar::F64(v) => v.is_sign_negative(),
        Scalar::I8(v) => v < 0,
        Scalar::I16(v) => v < 0,
        Scalar::I32(v) => v < 0,
        Scalar::I64(v) => v < 0,
        // The unsigned integers are never negative; Real has no other types.
        _ => false,
    }
}

/// NumPy's `npy_heaviside`: NaN for a NaN `x`, `h0` for either zero, else 0 or 1.
#[inline(always)]
pub(super) fn heaviside<T: Float>(x: T, h0: T) -> T {
    if num_traits::Float::is_nan(x) {
        T::nan()
    } else if x == T::zero() {
        h0
    } else if x < T::zero() {
        T::zero()
    } else {
        T::one()
    }
}

/// C's `nextafter` on the bits of an IEEE float: the neighbour of `x` toward `y`.
macro_rules! next_after {
    ($name:ident, $f:ty, $bits:ty) => {
        #[inline(always)]
        fn $name(x: $f, y: $f) -> $f {
            if x.is_nan() || y.is_nan() {
                return x + y;
            }
            if x == y {
                return y;
            }
            if x == 0.0 {
                // The smallest subnormal, with the sign of the direction.
                return <$f>::from_bits(1).copysign(y);
            }
            let b = x.to_bits();
            // Away from zero when moving in the direction of x's sign, else toward it.
            let up = (y > x) == (x > 0.0);
            <$f>::from_bits(if up { b + 1 } else { b - 1 })
        }
    };
}
next_after!(next_after_f32, f32, u32);
next_after!(next_after_f64, f64, u64);

/// C's `nextafter` for a 16-bit float (`f16` or `bf16`), on its own bits: the neighbour
/// in its own precision, not f32's.
#[inline(always)]
fn next_after_half<H: Float>(x: H, y: H, to_bits: fn(H) -> u16, from_bits: fn(u16) -> H) -> H {
    if x.is_nan_value() || y.is_nan_value() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == H::zero() {
        return num_traits::Float::copysign(from_bits(1), y);
    }
    let b = to_bits(x);
    let up = (y > x) == (x > H::zero());
    from_bits(if up { b + 1 } else { b - 1 })
}

/// C's `nextafter` for either float type.
#[inline(always)]
pub(super) fn next_after<T: Float>(a: T, b: T) -> T {
    let s = match (a.to_scalar(), b.to_scalar()) {
        (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(next_after_f32(x, y)),
        (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(next_after_f64(x, y)),
        (Scalar::F16(x), Scalar::F16(y)) => {
            Scalar::F16(next_after_half(x, y, f16::to_bits, f16::from_bits))
        }
        (Scalar::BF16(x), Scalar::BF16(y)) => {
            Scalar::BF16(next_after_half(x, y, bf16::to_bits, bf16::from_bits))
        }
        // Both operands have the type `T`, a float: the arms above are exhaustive.
        (other, _) => other,
    };
    T::from_scalar(s)
}

/// `f(x)` computed in f64 and rounded once to `T` (exact widening: f32, and the 16-bit
/// floats, which the registry hands over as f32), as scipy's float32 loops compute.
#[inline(always)]
pub(super) fn via_f64<T: Float>(x: T, f: fn(f64) -> f64) -> T {
    T::from_f64(f(x.to_f64_lossy()))
}

/// `f(a, b)` computed in f64 and rounded once to `T`, as [`via_f64`].
#[inline(always)]
pub(super) fn via_f64_2<T: Float>(a: T, b: T, f: fn(f64, f64) -> f64) -> T {
    T::from_f64(f(a.to_f64_lossy(), b.to_f64_lossy()))
}

/// NumPy's `spacing` (`npy_spacing`): the distance from `x` to the next value away from
/// zero, negative for negative `x`; the smallest positive subnormal for either zero, NaN for
/// infinities and NaN. A 16-bit float steps in its own bits (`HALF_OWN_BITS`).
#[inline(always)]
pub(super) fn spacing<T: Float>(x: T) -> T {
    use num_traits::Float as F_;
    if F_::is_infinite(x) {
        return F_::nan();
    }
    if x == T::zero() {
        return next_after(T::zero(), T::one());
    }
    let away = F_::copysign(F_::infinity(), x);
    next_after(x, away) - x
}

/// C's `frexp`: `(m, e)` with `x = m * 2^e` and `0.5 <= |m| < 1`; `(x, 0)` for zeros,
/// infinities and NaN (NumPy's results there).
#[inline(always)]
pub(super) fn frexp<T: Float>(x: T) -> (T, i32) {
    if !num_traits::Float::is_finite(x) || x == T::zero() {
        return (x, 0);
    }
    match x.to_scalar().widen_half() {
        Scalar::F32(v) => {
            let (m, e) = libm::frexpf(v);
            (T::from_f64(m as f64), e)
        }
        Scalar::F64(v) => {
            let (m, e) = libm::frexp(v);
            (T::from_f64(m), e)
        }
        // A float is one of the above (16-bit floats widened).
        _ => (x, 0),
    }
}

/// The exponents [`Ldexp`] accepts: beyond them `x * 2^n` of any finite nonzero `x` of any
/// float type is 0 or infinite (f64: subnormals from `2^-1074`, overflow from `2^1024`).
const LDEXP_EXPONENT_LIMIT: f64 = 2200.0;

impl<T: Float> BinaryOp<T> for Ldexp {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T, n: T) -> T {
        let n = n.to_f64_lossy();
        // Truncated toward zero as C's int conversion; NaN (never an integer input) as 0.
        let n = if n.is_nan() {
            0
        } else {
            n.clamp(-LDEXP_EXPONENT_LIMIT, LDEXP_EXPONENT_LIMIT) as i32
        };
        // libm's ldexp/ldexpf are correctly rounded; a 16-bit float is exact in f32 at every
        // exponent that does not under- or overflow f32 far beyond its own range, so the
        // f32 result rounds once to the right 16-bit value.
        match x.to_scalar().widen_half() {
            Scalar::F32(v) => T::from_f64(libm::ldexpf(v, n) as f64),
            Scalar::F64(v) => T::from_f64(libm::ldexp(v, n)),
            // A float is one of the above (16-bit floats widened).
            _ => x,
        }
    }
}

/// The bit width of an integer type and the magnitude of `x` in the unsigned type of that
/// width (`|MIN|` is `2^(bits - 1)`), as NumPy's `npy_gcd`/`npy_lcm`/`bitwise_count` take it.
#[inline(always)]
fn unsigned_abs<T: Integer>(x: T) -> (u32, u64) {
    let bits = 8 * std::mem::size_of::<T>() as u32;
    let v = num_traits::ToPrimitive::to_i128(&x).unwrap_or(0);
    (bits, v.unsigned_abs() as u64)
}

/// Euclid's algorithm on unsigned values.
#[inline(always)]
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while a != 0 {
        let c = a;
        a = b % a;
        b = c;
    }
    b
}

/// NumPy's `gcd`: Euclid on the magnitudes in the unsigned type of the width, the result cast
/// back (so `gcd(MIN, 0) == MIN`, as NumPy).
#[inline(always)]
pub(super) fn gcd<T: Integer>(a: T, b: T) -> T {
    let (_, ua) = unsigned_abs(a);
    let (_, ub) = unsigned_abs(b);
    T::from_scalar(Scalar::U64(gcd_u64(ua, ub)))
}

/// NumPy's `lcm`: `|a| / gcd * |b|` in the unsigned type of the width (wrapping), 0 when
/// both are 0.
#[inline(always)]
pub(super) fn lcm<T: Integer>(a: T, b: T) -> T {
    let (bits, ua) = unsigned_abs(a);
    let (_, ub) = unsigned_abs(b);
    let g = gcd_u64(ua, ub);
    if g == 0 {
        return T::zero();
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let l = (ua / g).wrapping_mul(ub) & mask;
    T::from_scalar(Scalar::U64(l))
}

/// NumPy's `bitwise_count`: the number of one bits of `|x|` (`|MIN|` has one).
#[inline(always)]
pub(super) fn bitwise_count<T: Integer>(x: T) -> u8 {
    unsigned_abs(x).1.count_ones() as u8
}

#[cfg(test)]
mod tests {
    use crate::dtype::f16;
    use crate::ops::{
        BinaryOp, Deg2Rad, Heaviside, LogAddExp, LogAddExp2, NextAfter, Rad2Deg, Signbit, UnaryOp,
    };
    use crate::ops::{BitwiseCount, FrexpExponent, FrexpMantissa, Gcd, Lcm, Ldexp, Spacing};

    #[test]
    fn ldexp_rounds_once_and_saturates() {
        assert_eq!(Ldexp.apply(0.75f64, 4.0), 12.0);
        assert_eq!(Ldexp.apply(1.0f64, -1074.0).to_bits(), 1);
        // 1.5 * 2^-1075 lies between the two smallest subnormals: nearest is 2^-1074 ...
        assert_eq!(Ldexp.apply(1.5f64, -1075.0).to_bits(), 1);
        // ... and 2^-1075 itself ties to even, 0.
        assert_eq!(Ldexp.apply(1.0f64, -1075.0), 0.0);
        assert_eq!(Ldexp.apply(f64::MIN_POSITIVE, 2045.0), 2f64.powi(1023));
        assert_eq!(Ldexp.apply(f64::MIN_POSITIVE, 2046.0), f64::INFINITY);
        assert_eq!(Ldexp.apply(5e-324f64, 2097.0), 2f64.powi(1023));
        assert_eq!(Ldexp.apply(-3.0f64, 1e9), f64::NEG_INFINITY);
        assert_eq!(Ldexp.apply(-3.0f64, -1e9).to_bits(), (-0.0f64).to_bits());
        assert_eq!(Ldexp.apply(f64::INFINITY, -5000.0), f64::INFINITY);
        assert!(Ldexp.apply(f64::NAN, 3.0).is_nan());
        assert_eq!(Ldexp.apply(3.0f64, 2.9), 12.0);
        assert_eq!(Ldexp.apply(3.0f64, f64::NAN), 3.0);
        assert_eq!(Ldexp.apply(1.0f32, -149.0).to_bits(), 1);
        assert_eq!(Ldexp.apply(1.0f32, 128.0), f32::INFINITY);
        let h = f16::from_f32;
        assert_eq!(Ldexp.apply(h(1.0), h(-24.0)).to_bits(), 1);
        assert_eq!(Ldexp.apply(h(1.5), h(15.0)), h(49152.0));
        assert_eq!(Ldexp.apply(h(1.0), h(16.0)), f16::INFINITY);
    }

    #[test]
    fn integer_extras_follow_numpy() {
        let (min, max) = (i32::MIN, i32::MAX);
        assert_eq!(Gcd.apply(min, 6), 2);
        assert_eq!(Gcd.apply(min, 0), min);
        assert_eq!(Gcd.apply(min, max), 1);
        assert_eq!(Gcd.apply(-6i64, 4), 2);
        assert_eq!(Gcd.apply(0u8, 0), 0);
        assert_eq!(Lcm.apply(min, 6), min);
        assert_eq!(Lcm.apply(-6i32, 4), 12);
        assert_eq!(Lcm.apply(0i64, 5), 0);
        assert_eq!(Lcm.apply(200u8, 3), 88); // 600 mod 256
        assert_eq!(BitwiseCount.apply(-1i32), 1);
        assert_eq!(BitwiseCount.apply(min), 1);
        assert_eq!(BitwiseCount.apply(255u8), 8);
        assert_eq!(BitwiseCount.apply(-1i64 << 62), 1);
    }

    #[test]
    fn spacing_and_frexp_edges() {
        assert_eq!(Spacing.apply(-0.0f64).to_bits(), 1);
        assert_eq!(Spacing.apply(-1.0f64), -f64::EPSILON);
        assert_eq!(Spacing.apply(f64::MAX), f64::INFINITY);
        assert!(Spacing.apply(f32::INFINITY).is_nan());
        assert_eq!(
            Spacing.apply(f16::from_f32(1.0)),
            f16::from_f32(9.765625e-4)
        );
        assert_eq!(Spacing.apply(f16::from_f32(0.0)).to_bits(), 1);
        assert_eq!(FrexpMantissa.apply(-3.0f64), -0.75);
        assert_eq!(FrexpExponent.apply(-3.0f64), 2);
        assert_eq!(FrexpExponent.apply(5e-324f64), -1073);
        assert_eq!(FrexpExponent.apply(f32::INFINITY), 0);
        assert_eq!(FrexpMantissa.apply(-0.0f32).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn logaddexp_special_values() {
        let (inf, nan) = (f64::INFINITY, f64::NAN);
        assert_eq!(LogAddExp.apply(-inf, -inf), -inf);
        assert_eq!(LogAddExp.apply(inf, inf), inf);
        assert_eq!(LogAddExp.apply(inf, -inf), inf);
        assert!(LogAddExp.apply(nan, 1.0).is_nan());
        assert!(LogAddExp.apply(1.0, nan).is_nan());
        assert_eq!(LogAddExp.apply(0.0, 0.0), std::f64::consts::LN_2);
        assert_eq!(LogAddExp.apply(1000.0, 0.0), 1000.0);
        assert_eq!(LogAddExp2.apply(3.0f32, 3.0), 4.0);
        assert_eq!(LogAddExp2.apply(-inf, 5.0), 5.0);
        // Far apart: exp(-d) underflows, the result is the larger argument to the bit.
        assert_eq!(LogAddExp.apply(1e-300, 800.0), 800.0);
    }

    #[test]
    fn nextafter_bits() {
        assert_eq!(NextAfter.apply(1.0f64, 2.0), 1.0 + f64::EPSILON);
        assert_eq!(NextAfter.apply(0.0f32, -1.0).to_bits(), 0x8000_0001);
        assert_eq!(NextAfter.apply(-0.0f64, 1.0).to_bits(), 1);
        assert_eq!(NextAfter.apply(f64::from_bits(1), -1.0).to_bits(), 0);
        assert_eq!(NextAfter.apply(0.0f64, -0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(NextAfter.apply(f64::MAX, f64::INFINITY), f64::INFINITY);
        assert_eq!(NextAfter.apply(f64::INFINITY, 0.0), f64::MAX);
        assert_eq!(NextAfter.apply(-1.0f32, -2.0), -1.0 - f32::EPSILON);
        assert!(NextAfter.apply(f32::NAN, 0.0).is_nan());
    }

    #[test]
    fn signbit_heaviside_angles() {
        assert!(Signbit.apply(-0.0f64));
        assert!(Signbit.apply(-f32::NAN));
        assert!(!Signbit.apply(f32::NAN));
        assert!(Signbit.apply(-3i64));
        assert!(!Signbit.apply(200u8));
        assert_eq!(Heaviside.apply(-0.0f64, 0.5), 0.5);
        assert_eq!(Heaviside.apply(-2.0f64, 0.5), 0.0);
        assert_eq!(Heaviside.apply(f64::INFINITY, 0.5), 1.0);
        assert!(Heaviside.apply(f64::NAN, 0.5).is_nan());
        assert_eq!(Deg2Rad.apply(180.0f64), std::f64::consts::PI);
        assert_eq!(Rad2Deg.apply(std::f64::consts::PI), 180.0);
    }
}
