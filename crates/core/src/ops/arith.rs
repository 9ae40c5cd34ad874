//! Arithmetic ops: `+ - * /`, floor division, remainder, negation.

use super::{Add, BinaryOp, Div, FloorDiv, Mul, Neg, Rem, Sub, UnaryOp, cmath};
use crate::dtype::{Inexact, Numeric, Real, Scalar};

impl<T: Numeric> BinaryOp<T> for Add {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.add(b)
    }
}
impl<T: Numeric> BinaryOp<T> for Sub {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.sub(b)
    }
}
impl<T: Numeric> BinaryOp<T> for Mul {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.mul(b)
    }
}
/// True division; complex values by NumPy's algorithm (Smith's, scaled by the larger part
/// of the divisor, so that `|b|^2` never overflows; a zero divisor gives NumPy's infinities
/// and NaNs: `(1+1j) / 0` is `inf+infj`), which the CUDA kernels follow step by step.
impl<T: Inexact> BinaryOp<T> for Div {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        match (a.to_scalar(), b.to_scalar()) {
            (Scalar::C64(x), Scalar::C64(y)) => T::from_scalar(Scalar::C64(cmath::c_div(x, y))),
            (Scalar::C128(x), Scalar::C128(y)) => T::from_scalar(Scalar::C128(cmath::c_div(x, y))),
            _ => a / b,
        }
    }
}
impl<T: Real> BinaryOp<T> for FloorDiv {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.floor_div(b)
    }
}
impl<T: Real> BinaryOp<T> for Rem {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.py_rem(b)
    }
}
impl<T: Numeric> UnaryOp<T> for Neg {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.neg()
    }
}
