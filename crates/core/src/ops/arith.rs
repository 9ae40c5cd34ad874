//! Arithmetic ops: `+ - * /`, floor division, remainder, negation.

use super::{Add, BinaryOp, Div, FloorDiv, Mul, Neg, Rem, Sub, UnaryOp};
use crate::dtype::{Inexact, Numeric, Real};

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
impl<T: Inexact> BinaryOp<T> for Div {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a / b
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
