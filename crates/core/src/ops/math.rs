//! Mathematical element-wise ops of one value (`sqrt`, `exp`, `sin`, `abs`, `sign`,
//! rounding, ...). Ops defined on every inexact type (f32, f64, c64, c128) use
//! `num_complex::ComplexFloat`; real-only ops use `num_traits::Float`. Ops whose behaviour
//! differs by type family (`abs`, `sign`, rounding of integers) dispatch on
//! [`Element::to_scalar`], a match that monomorphisation folds to the one arm of the type.

use super::{cmath, op_struct, UnaryOp};
use crate::dtype::{Element, Float, Inexact, Numeric, Real, Scalar};
use num_complex::{Complex, ComplexFloat};

/// Defines unary ops valid for every [`Inexact`] type, returning the same type.
macro_rules! inexact_unary {
    ($($(#[$m:meta])* $name:ident, $numpy:literal, |$x:ident| $body:expr;)*) => {$(
        op_struct!($(#[$m])* $name);
        impl<T: Inexact> UnaryOp<T> for $name {
            type Out = T;
            const NAME: &'static str = $numpy;
            #[inline(always)]
            fn apply(&self, $x: T) -> T {
                $body
            }
        }
    )*};
}

/// Defines unary ops valid for real floats only, returning the same type.
macro_rules! float_unary {
    ($($(#[$m:meta])* $name:ident, $numpy:literal, |$x:ident| $body:expr;)*) => {$(
        op_struct!($(#[$m])* $name);
        impl<T: Float> UnaryOp<T> for $name {
            type Out = T;
            const NAME: &'static str = $numpy;
            #[inline(always)]
            fn apply(&self, $x: T) -> T {
                $body
            }
        }
    )*};
}

inexact_unary! {
    /// Square root (NaN for negative reals).
    Sqrt, "sqrt", |x| ComplexFloat::sqrt(x);
    /// `e^x`.
    Exp, "exp", |x| ComplexFloat::exp(x);
    /// `2^x`.
    Exp2, "exp2", |x| ComplexFloat::exp2(x);
    /// Sine.
    Sin, "sin", |x| ComplexFloat::sin(x);
    /// Cosine.
    Cos, "cos", |x| ComplexFloat::cos(x);
    /// Tangent.
    Tan, "tan", |x| ComplexFloat::tan(x);
    /// Hyperbolic sine.
    Sinh, "sinh", |x| ComplexFloat::sinh(x);
    /// Hyperbolic cosine.
    Cosh, "cosh", |x| ComplexFloat::cosh(x);
    /// Hyperbolic tangent.
    Tanh, "tanh", |x| ComplexFloat::tanh(x);
    /// `1 / x`.
    Reciprocal, "reciprocal", |x| ComplexFloat::recip(x);
}

/// Defines unary ops valid for every [`Inexact`] type with one kernel for real floats and
/// one for complex values (each generic over the float type).
macro_rules! inexact_split {
    ($($(#[$m:meta])* $name:ident, $numpy:literal, $real:path, $cplx:path;)*) => {$(
        op_struct!($(#[$m])* $name);
        impl<T: Inexact> UnaryOp<T> for $name {
            type Out = T;
            const NAME: &'static str = $numpy;
            #[inline(always)]
            fn apply(&self, x: T) -> T {
                let s = match x.to_scalar() {
                    Scalar::F32(v) => Scalar::F32($real(v)),
                    Scalar::F64(v) => Scalar::F64($real(v)),
                    Scalar::C64(v) => Scalar::C64($cplx(v)),
                    Scalar::C128(v) => Scalar::C128($cplx(v)),
                    // Inexact types are the four above.
                    other => other,
                };
                T::from_scalar(s)
            }
        }
    )*};
}

inexact_split! {
    /// Natural logarithm (complex: principal branch, accurate near `|z| = 1`).
    Log, "log", num_traits::Float::ln, cmath::c_ln;
    /// Base-2 logarithm.
    Log2, "log2", num_traits::Float::log2, cmath::c_log2;
    /// Base-10 logarithm.
    Log10, "log10", num_traits::Float::log10, cmath::c_log10;
    /// Inverse sine (complex: C99 branch cuts, a signed zero picks the side).
    Asin, "arcsin", num_traits::Float::asin, cmath::c_asin;
    /// Inverse cosine (complex: C99 branch cuts).
    Acos, "arccos", num_traits::Float::acos, cmath::c_acos;
    /// Inverse tangent (complex: C99 branch cuts).
    Atan, "arctan", num_traits::Float::atan, cmath::c_atan;
    /// Inverse hyperbolic sine (no overflow for huge reals; complex: C99 branch cuts).
    Asinh, "arcsinh", cmath::real_asinh, cmath::c_asinh;
    /// Inverse hyperbolic cosine (no overflow for huge reals; complex: C99 branch cuts).
    Acosh, "arccosh", cmath::real_acosh, cmath::c_acosh;
    /// Inverse hyperbolic tangent (complex: C99 branch cuts).
    Atanh, "arctanh", num_traits::Float::atanh, cmath::c_atanh;
}

float_unary! {
    /// Cube root.
    Cbrt, "cbrt", |x| num_traits::Float::cbrt(x);
    /// `e^x - 1`, accurate near zero.
    Expm1, "expm1", |x| num_traits::Float::exp_m1(x);
    /// `ln(1 + x)`, accurate near zero.
    Log1p, "log1p", |x| num_traits::Float::ln_1p(x);
}

/// Defines unary ops valid for every [`Real`] type: floats apply `$f`, integers are returned
/// unchanged (NumPy 2 keeps integer dtypes in `floor`, `ceil`, `trunc`, `rint`).
macro_rules! real_rounding {
    ($($(#[$m:meta])* $name:ident, $numpy:literal, $f32:path, $f64:path;)*) => {$(
        op_struct!($(#[$m])* $name);
        impl<T: Real> UnaryOp<T> for $name {
            type Out = T;
            const NAME: &'static str = $numpy;
            #[inline(always)]
            fn apply(&self, x: T) -> T {
                match x.to_scalar() {
                    Scalar::F32(v) => T::from_scalar(Scalar::F32($f32(v))),
                    Scalar::F64(v) => T::from_scalar(Scalar::F64($f64(v))),
                    _ => x,
                }
            }
        }
    )*};
}

real_rounding! {
    /// Largest integer not above `x` (integers unchanged).
    Floor, "floor", f32::floor, f64::floor;
    /// Smallest integer not below `x` (integers unchanged).
    Ceil, "ceil", f32::ceil, f64::ceil;
    /// Integer part, rounding toward zero (integers unchanged).
    Trunc, "trunc", f32::trunc, f64::trunc;
    /// Nearest integer, halves to even (NumPy's `round`/`rint`; integers unchanged).
    RoundHalfEven, "rint", f32::round_ties_even, f64::round_ties_even;
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

op_struct!(
    /// `x * x`.
    Square
);
impl<T: Numeric> UnaryOp<T> for Square {
    type Out = T;
    const NAME: &'static str = "square";
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.mul(x)
    }
}

op_struct!(
    /// Absolute value: integers wrap at `MIN` (`abs(i32::MIN) == i32::MIN`, as NumPy), floats
    /// clear the sign bit, complex values give their modulus `hypot(re, im)` as a real number.
    Abs
);
impl<T: Numeric> UnaryOp<T> for Abs {
    type Out = T::Real;
    const NAME: &'static str = "absolute";
    #[inline(always)]
    fn apply(&self, x: T) -> T::Real {
        let s = match x.to_scalar() {
            Scalar::I32(v) => Scalar::I32(v.wrapping_abs()),
            Scalar::I64(v) => Scalar::I64(v.wrapping_abs()),
            Scalar::F32(v) => Scalar::F32(v.abs()),
            Scalar::F64(v) => Scalar::F64(v.abs()),
            Scalar::C64(v) => Scalar::F32(v.norm()),
            Scalar::C128(v) => Scalar::F64(v.norm()),
            // bool and u8 are never negative.
            other => other,
        };
        <T::Real as Element>::from_scalar(s)
    }
}

op_struct!(
    /// Sign: -1, 0 or 1 for integers and floats (NaN stays NaN, `sign(-0.0)` is `0.0`);
    /// `z / |z|` for complex values as NumPy 2 (0 for 0, NaN for NaN, the direction of the
    /// infinite part when one part is infinite, NaN when both are).
    Sign
);
impl<T: Numeric> UnaryOp<T> for Sign {
    type Out = T;
    const NAME: &'static str = "sign";
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        let s = match x.to_scalar() {
            Scalar::U8(v) => Scalar::U8((v > 0) as u8),
            Scalar::I32(v) => Scalar::I32(v.signum()),
            Scalar::I64(v) => Scalar::I64(v.signum()),
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

impl<T: Real> UnaryOp<T> for RoundDecimals {
    type Out = T;
    const NAME: &'static str = "round";
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        let d = self.decimals;
        let s = match x.to_scalar() {
            Scalar::F32(v) => Scalar::F32(round_float(v, d)),
            Scalar::F64(v) => Scalar::F64(round_float(v, d)),
            Scalar::U8(v) => Scalar::U8(round_int(v as i128, d) as u8),
            Scalar::I32(v) => Scalar::I32(round_int(v as i128, d) as i32),
            Scalar::I64(v) => Scalar::I64(round_int(v as i128, d) as i64),
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
