//! Mathematical element-wise ops of one value (`sqrt`, `exp`, `sin`, `abs`, `sign`,
//! rounding, ...). Ops defined on every inexact type (f32, f64, c64, c128) use
//! `num_complex::ComplexFloat`; real-only ops use `num_traits::Float`. Ops whose behaviour
//! differs by type family (`abs`, `sign`, rounding of integers) dispatch on
//! [`Element::to_scalar`], a match that monomorphisation folds to the one arm of the type.

use super::{
    Abs, Acos, Acosh, Asin, Asinh, Atan, Atanh, Cbrt, Ceil, Cos, Cosh, Exp, Exp2, Expm1, Floor,
    Log, Log1p, Log2, Log10, Reciprocal, RoundHalfEven, Sign, Sin, Sinh, Sqrt, Square, Tan, Tanh,
    Trunc, UnaryOp, cmath, vmath,
};
use crate::dtype::{Element, Float, Inexact, Numeric, Real, Scalar};
use num_complex::{Complex, ComplexFloat};

/// Defines unary ops valid for every [`Inexact`] type, returning the same type.
macro_rules! inexact_unary {
    ($($name:ident, |$x:ident| $body:expr;)*) => {$(
        impl<T: Inexact> UnaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, $x: T) -> T {
                $body
            }
        }
    )*};
}

/// Defines unary ops valid for real floats only, returning the same type.
macro_rules! float_unary {
    ($($name:ident, |$x:ident| $body:expr;)*) => {$(
        impl<T: Float> UnaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, $x: T) -> T {
                $body
            }
        }
    )*};
}

inexact_unary! {
    Sqrt, |x| ComplexFloat::sqrt(x);
    // f32 and f64 through the vectorisable `exp_f32` and `exp_f64` (the platform's `exp`
    // is one call per element and never vectorises).
    Exp, |x| match x.to_scalar() {
        Scalar::F32(v) => T::from_scalar(Scalar::F32(vmath::exp_f32(v))),
        Scalar::F64(v) => T::from_scalar(Scalar::F64(vmath::exp_f64(v))),
        _ => ComplexFloat::exp(x),
    };
    Exp2, |x| ComplexFloat::exp2(x);
    Sin, |x| ComplexFloat::sin(x);
    Cos, |x| ComplexFloat::cos(x);
    Tan, |x| ComplexFloat::tan(x);
    Sinh, |x| ComplexFloat::sinh(x);
    Cosh, |x| ComplexFloat::cosh(x);
    Tanh, |x| ComplexFloat::tanh(x);
    Reciprocal, |x| ComplexFloat::recip(x);
}

/// Defines unary ops valid for every [`Inexact`] type with one kernel for real floats and
/// one for complex values (each generic over the float type).
macro_rules! inexact_split {
    ($($name:ident, $real:path, $cplx:path;)*) => {$(
        impl<T: Inexact> UnaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, x: T) -> T {
                let s = match x.to_scalar().widen_half() {
                    Scalar::F32(v) => Scalar::F32($real(v)),
                    Scalar::F64(v) => Scalar::F64($real(v)),
                    Scalar::C64(v) => Scalar::C64($cplx(v)),
                    Scalar::C128(v) => Scalar::C128($cplx(v)),
                    // The other inexact types widen to the first (16-bit floats) or are the
                    // four above.
                    other => other,
                };
                T::from_scalar(s)
            }
        }
    )*};
}

inexact_split! {
    Log, num_traits::Float::ln, cmath::c_ln;
    Log2, num_traits::Float::log2, cmath::c_log2;
    Log10, num_traits::Float::log10, cmath::c_log10;
    Asin, num_traits::Float::asin, cmath::c_asin;
    Acos, num_traits::Float::acos, cmath::c_acos;
    Atan, num_traits::Float::atan, cmath::c_atan;
    Asinh, cmath::real_asinh, cmath::c_asinh;
    Acosh, cmath::real_acosh, cmath::c_acosh;
    Atanh, num_traits::Float::atanh, cmath::c_atanh;
}

float_unary! {
    Cbrt, |x| num_traits::Float::cbrt(x);
    Expm1, |x| num_traits::Float::exp_m1(x);
    Log1p, |x| num_traits::Float::ln_1p(x);
}

/// Defines unary ops valid for every [`Real`] type: floats apply `$f`, integers are returned
/// unchanged (NumPy 2 keeps integer dtypes in `floor`, `ceil`, `trunc`, `rint`).
macro_rules! real_rounding {
    ($($name:ident, $f32:path, $f64:path;)*) => {$(
        impl<T: Real> UnaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, x: T) -> T {
                match x.to_scalar().widen_half() {
                    Scalar::F32(v) => T::from_scalar(Scalar::F32($f32(v))),
                    Scalar::F64(v) => T::from_scalar(Scalar::F64($f64(v))),
                    _ => x,
                }
            }
        }
    )*};
}

real_rounding! {
    Floor, f32::floor, f64::floor;
    Ceil, f32::ceil, f64::ceil;
    Trunc, f32::trunc, f64::trunc;
    RoundHalfEven, f32::round_ties_even, f64::round_ties_even;
}

/// Rounds to the nearest integer with ties to even, as NumPy's `rint`.
#[inline(always)]
pub fn round_half_even<T: Float>(x: T) -> T {
    let r = num_traits::Float::round(x);
    let two = T::one() + T::one();
    let r = if num_traits::Float::abs(x - num_traits::Float::trunc(x)) == T::one() / two
        && r % two != T::zero()
    {
        r - num_traits::Float::signum(x)
    } else {
        r
    };
    // The result keeps the sign of `x` (`rint(-0.5) == -0.0`).
    num_traits::Float::copysign(r, x)
}

impl<T: Numeric> UnaryOp<T> for Square {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.mul(x)
    }
}

impl<T: Numeric> UnaryOp<T> for Abs {
    type Out = T::Real;
    #[inline(always)]
    fn apply(&self, x: T) -> T::Real {
        let s = match x.to_scalar().widen_half() {
            Scalar::I8(v) => Scalar::I8(v.wrapping_abs()),
            Scalar::I16(v) => Scalar::I16(v.wrapping_abs()),
            Scalar::I32(v) => Scalar::I32(v.wrapping_abs()),
            Scalar::I64(v) => Scalar::I64(v.wrapping_abs()),
            Scalar::F32(v) => Scalar::F32(v.abs()),
            Scalar::F64(v) => Scalar::F64(v.abs()),
            Scalar::C64(v) => Scalar::F32(modulus_c64(v.re, v.im)),
            Scalar::C128(v) => Scalar::F64(modulus_c128(v.re, v.im)),
            // bool and the unsigned integers are never negative.
            other => other,
        };
        <T::Real as Element>::from_scalar(s)
    }
}

/// `|re + i im|` of a complex64: the sum of squares in f64 (it can neither overflow nor
/// lose precision there), one square root, rounded once to f32. No libm call, so a loop of
/// it vectorises; infinities win over NaN as in `hypot`.
#[inline(always)]
pub(crate) fn modulus_c64(re: f32, im: f32) -> f32 {
    let (a, b) = (re as f64, im as f64);
    let h = (a * a + b * b).sqrt() as f32;
    if re.is_infinite() || im.is_infinite() {
        f32::INFINITY
    } else {
        h
    }
}

/// `|re + i im|` of a complex128 within about an ulp of `hypot`, without its libm call (so
/// a loop of it vectorises): `sqrt(a^2 + b^2)`, with both parts first scaled by a power of
/// two (exact) when the squares would overflow or lose precision to underflow; infinities
/// win over NaN as in `hypot`.
#[inline(always)]
pub(crate) fn modulus_c128(re: f64, im: f64) -> f64 {
    const BIG: f64 = 1.0e150; // about 2^498: squares of anything below stay finite
    const SMALL: f64 = 1.0e-150; // squares of anything above stay normal
    const UP: f64 = f64::from_bits((1023 + 600) << 52); // 2^600
    const DOWN: f64 = f64::from_bits((1023 - 600) << 52); // 2^-600
    let (a, b) = (re.abs(), im.abs());
    let m = if a > b { a } else { b };
    let (s, unscale) = if m > BIG {
        (DOWN, UP)
    } else if m < SMALL {
        (UP, DOWN)
    } else {
        (1.0, 1.0)
    };
    let (a, b) = (a * s, b * s);
    let h = (a * a + b * b).sqrt() * unscale;
    if re.is_infinite() || im.is_infinite() {
        f64::INFINITY
    } else {
        h
    }
}

impl<T: Numeric> UnaryOp<T> for Sign {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        let s = match x.to_scalar().widen_half() {
            Scalar::I8(v) => Scalar::I8(v.signum()),
            Scalar::U8(v) => Scalar::U8((v > 0) as u8),
            Scalar::I16(v) => Scalar::I16(v.signum()),
            Scalar::U16(v) => Scalar::U16((v > 0) as u16),
            Scalar::I32(v) => Scalar::I32(v.signum()),
            Scalar::U32(v) => Scalar::U32((v > 0) as u32),
            Scalar::I64(v) => Scalar::I64(v.signum()),
            Scalar::U64(v) => Scalar::U64((v > 0) as u64),
            Scalar::F32(v) => Scalar::F32(real_sign(v)),
            Scalar::F64(v) => Scalar::F64(real_sign(v)),
            Scalar::C64(v) => Scalar::C64(complex_sign(v)),
            Scalar::C128(v) => Scalar::C128(complex_sign(v)),
            other => other,
        };
        T::from_scalar(s)
    }
}

/// NumPy's sign of a real float: -1, 1, +0 for either zero, NaN for NaN.
#[inline(always)]
fn real_sign<F: num_traits::Float>(v: F) -> F {
    if v > F::zero() {
        F::one()
    } else if v < F::zero() {
        -F::one()
    } else if v == F::zero() {
        F::zero()
    } else {
        v
    }
}

/// NumPy 2's complex sign `z / |z|` with its special cases.
#[inline(always)]
fn complex_sign<F: num_traits::Float>(z: Complex<F>) -> Complex<F> {
    let (re, im) = (z.re, z.im);
    let m = re.hypot(im);
    let unit = |v: F| if v > F::zero() { F::one() } else { -F::one() };
    if m.is_nan() {
        Complex::new(F::nan(), F::nan())
    } else if m.is_infinite() {
        match (re.is_infinite(), im.is_infinite()) {
            (true, true) => Complex::new(F::nan(), F::nan()),
            (true, false) => Complex::new(unit(re), F::zero()),
            _ => Complex::new(F::zero(), unit(im)),
        }
    } else if m == F::zero() {
        Complex::new(F::zero(), F::zero())
    } else {
        Complex::new(re / m, im / m)
    }
}

/// Rounds to `decimals` decimal places, halves to even, as NumPy's `round(x, decimals)`:
/// floats compute `rint(x * 10^d) / 10^d` (`rint(x / 10^-d) * 10^-d` for negative `d`);
/// integers are unchanged for `d >= 0` and rounded to a multiple of `10^-d` otherwise
/// (wrapping on overflow; 0 when `10^-d` exceeds the type).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundDecimals {
    /// Number of decimal places (negative: tens, hundreds, ...).
    pub decimals: i32,
}

impl RoundDecimals {
    /// Decimals worth testing (the registry's examples): places, tens and hundreds, and
    /// counts beyond every type's range.
    pub(crate) fn parameter_examples() -> Vec<Self> {
        [0, 2, -1, -3, -19, -20, 40]
            .into_iter()
            .map(|decimals| RoundDecimals { decimals })
            .collect()
    }
}

impl<T: Real> UnaryOp<T> for RoundDecimals {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        let d = self.decimals;
        let s = match x.to_scalar() {
            Scalar::F32(v) => Scalar::F32(round_float(v, d)),
            Scalar::F64(v) => Scalar::F64(round_float(v, d)),
            // NumPy rounds a 16-bit float in three ufunc steps, each rounding to the type.
            Scalar::F16(v) => Scalar::F16(round_float(v, d)),
            Scalar::BF16(v) => Scalar::BF16(round_float(v, d)),
            Scalar::I8(v) => Scalar::I8(round_int(v as i128, d) as i8),
            Scalar::U8(v) => Scalar::U8(round_int(v as i128, d) as u8),
            Scalar::I16(v) => Scalar::I16(round_int(v as i128, d) as i16),
            Scalar::U16(v) => Scalar::U16(round_int(v as i128, d) as u16),
            Scalar::I32(v) => Scalar::I32(round_int(v as i128, d) as i32),
            Scalar::U32(v) => Scalar::U32(round_int(v as i128, d) as u32),
            Scalar::I64(v) => Scalar::I64(round_int(v as i128, d) as i64),
            Scalar::U64(v) => Scalar::U64(round_int(v as i128, d) as u64),
            other => other,
        };
        T::from_scalar(s)
    }
    fn params(&self) -> Vec<Scalar> {
        vec![Scalar::I32(self.decimals)]
    }
}

#[inline(always)]
fn round_float<F: Float>(v: F, d: i32) -> F {
    if d >= 0 {
        let f = F::from_f64(10f64.powi(d));
        round_half_even(v * f) / f
    } else {
        let f = F::from_f64(10f64.powi(-d));
        round_half_even(v / f) * f
    }
}

#[inline(always)]
fn round_int(v: i128, d: i32) -> i128 {
    if d >= 0 {
        return v;
    }
    if d < -19 {
        return 0;
    }
    let p = 10i128.pow((-d) as u32);
    let q = v.div_euclid(p);
    let r = v.rem_euclid(p);
    let q = if 2 * r > p || (2 * r == p && q % 2 != 0) {
        q + 1
    } else {
        q
    };
    q * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_modulus_is_hypot_within_an_ulp_everywhere() {
        let parts = [
            0.0,
            -0.0,
            1e-320,
            3e-308,
            1e-200,
            1e-150,
            2.5e-150,
            1e-20,
            0.3,
            1.0,
            3.0,
            4.0,
            7.5e7,
            1e150,
            3e150,
            1e200,
            1e300,
            f64::MAX,
            f64::INFINITY,
            -f64::INFINITY,
            f64::NAN,
        ];
        for &re in &parts {
            for &im in &parts {
                for (re, im) in [(re, im), (-re, im), (re, -im)] {
                    let want = re.hypot(im);
                    let got = modulus_c128(re, im);
                    if want.is_nan() {
                        assert!(got.is_nan(), "{re} {im}");
                    } else {
                        let ulp = (want.next_up() - want).max(f64::MIN_POSITIVE * f64::EPSILON);
                        let close = got == want || (got - want).abs() <= ulp;
                        assert!(close, "{re} {im}: {got} vs {want}");
                    }
                    let (r32, i32_) = (re as f32, im as f32);
                    let want = r32.hypot(i32_);
                    let got = modulus_c64(r32, i32_);
                    assert!(want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()));
                }
            }
        }
    }

    #[test]
    fn rint_rounds_half_to_even() {
        let r = |x: f64| RoundHalfEven.apply(x);
        assert_eq!(r(0.5), 0.0);
        assert_eq!(r(1.5), 2.0);
        assert_eq!(r(2.5), 2.0);
        assert_eq!(r(-2.5), -2.0);
        assert_eq!(r(-0.4), -0.0);
        assert_eq!(r(2.6), 3.0);
        assert!(r(f64::NAN).is_nan());
        assert_eq!(RoundHalfEven.apply(-7i32), -7);
    }

    #[test]
    fn integer_round_decimals_is_half_even() {
        let r = |x: i32, d: i32| RoundDecimals { decimals: d }.apply(x);
        assert_eq!(r(15, -1), 20);
        assert_eq!(r(25, -1), 20);
        assert_eq!(r(-25, -1), -20);
        assert_eq!(r(-26, -1), -30);
        assert_eq!(r(1234, 2), 1234);
        assert_eq!(r(i32::MAX, -25), 0);
        assert_eq!(RoundDecimals { decimals: -2 }.apply(250u8), 200);
    }

    #[test]
    fn abs_and_sign_by_family() {
        assert_eq!(Abs.apply(i32::MIN), i32::MIN);
        assert_eq!(Abs.apply(-3i64), 3);
        assert_eq!(Abs.apply(crate::dtype::c64::new(3.0, -4.0)), 5.0f32);
        assert_eq!(Sign.apply(-0.0f64).to_bits(), 0.0f64.to_bits());
        assert_eq!(Sign.apply(200u8), 1);
        let s = Sign.apply(crate::dtype::c128::new(f64::INFINITY, 2.0));
        assert_eq!((s.re, s.im), (1.0, 0.0));
    }
}
