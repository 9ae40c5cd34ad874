//! Mathematical element-wise ops (`sqrt`, `exp`, `sin`, ...). Ops defined on every inexact
//! type (f32, f64, c64, c128) use `num_complex::ComplexFloat`; real-only ops use
//! `num_traits::Float`.

use super::{op_struct, UnaryOp};
use crate::dtype::{Float, Inexact, Numeric};
use num_complex::ComplexFloat;

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
    /// Natural logarithm.
    Log, "log", |x| ComplexFloat::ln(x);
    /// Base-2 logarithm.
    Log2, "log2", |x| ComplexFloat::log2(x);
    /// Base-10 logarithm.
    Log10, "log10", |x| ComplexFloat::log10(x);
    /// Sine.
    Sin, "sin", |x| ComplexFloat::sin(x);
    /// Cosine.
    Cos, "cos", |x| ComplexFloat::cos(x);
    /// Tangent.
    Tan, "tan", |x| ComplexFloat::tan(x);
    /// Inverse sine.
    Asin, "arcsin", |x| ComplexFloat::asin(x);
    /// Inverse cosine.
    Acos, "arccos", |x| ComplexFloat::acos(x);
    /// Inverse tangent.
    Atan, "arctan", |x| ComplexFloat::atan(x);
    /// Hyperbolic sine.
    Sinh, "sinh", |x| ComplexFloat::sinh(x);
    /// Hyperbolic cosine.
    Cosh, "cosh", |x| ComplexFloat::cosh(x);
    /// Hyperbolic tangent.
    Tanh, "tanh", |x| ComplexFloat::tanh(x);
    /// Inverse hyperbolic sine.
    Asinh, "arcsinh", |x| ComplexFloat::asinh(x);
    /// Inverse hyperbolic cosine.
    Acosh, "arccosh", |x| ComplexFloat::acosh(x);
    /// Inverse hyperbolic tangent.
    Atanh, "arctanh", |x| ComplexFloat::atanh(x);
    /// `1 / x`.
    Reciprocal, "reciprocal", |x| ComplexFloat::recip(x);
}

float_unary! {
    /// Cube root.
    Cbrt, "cbrt", |x| num_traits::Float::cbrt(x);
    /// `e^x - 1`, accurate near zero.
    Expm1, "expm1", |x| num_traits::Float::exp_m1(x);
    /// `ln(1 + x)`, accurate near zero.
    Log1p, "log1p", |x| num_traits::Float::ln_1p(x);
    /// Largest integer not above `x`.
    Floor, "floor", |x| num_traits::Float::floor(x);
    /// Smallest integer not below `x`.
    Ceil, "ceil", |x| num_traits::Float::ceil(x);
    /// Integer part, rounding toward zero.
    Trunc, "trunc", |x| num_traits::Float::trunc(x);
    /// Nearest integer, halves to even (NumPy's `round`/`rint`).
    RoundHalfEven, "rint", |x| round_half_even(x);
}

/// Rounds to the nearest integer with ties to even, as NumPy's `rint`.
#[inline(always)]
pub fn round_half_even<T: Float>(x: T) -> T {
    let r = num_traits::Float::round(x);
    let two = T::one() + T::one();
    if num_traits::Float::abs(x - num_traits::Float::trunc(x)) == T::one() / two
        && r % two != T::zero()
    {
        r - num_traits::Float::signum(x)
    } else {
        r
    }
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
    }
}
