//! Arithmetic ops: `+ - * /`, floor division, remainder, negation.

use super::{op_struct, BinaryOp, UnaryOp};
use crate::dtype::{Inexact, Numeric, Real};

op_struct!(
    /// `a + b` (wrapping for integers).
    Add
);
op_struct!(
    /// `a - b` (wrapping for integers).
    Sub
);
op_struct!(
    /// `a * b` (wrapping for integers).
    Mul
);
op_struct!(
    /// True division `a / b` of inexact values (integers are cast to f64 first by the caller).
    Div
);
op_struct!(
    /// Python's floor division `a // b`.
    FloorDiv
);
op_struct!(
    /// Python's remainder `a % b` (the sign of `b`), NumPy's `remainder`.
    Rem
);
op_struct!(
    /// `-x` (wrapping for integers).
    Neg
);

impl<T: Numeric> BinaryOp<T> for Add {
    type Out = T;
    const NAME: &'static str = "add";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.add(b)
    }
}
impl<T: Numeric> BinaryOp<T> for Sub {
    type Out = T;
    const NAME: &'static str = "subtract";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.sub(b)
    }
}
impl<T: Numeric> BinaryOp<T> for Mul {
    type Out = T;
    const NAME: &'static str = "multiply";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.mul(b)
    }
}
impl<T: Inexact> BinaryOp<T> for Div {
    type Out = T;
    const NAME: &'static str = "true_divide";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a / b
    }
}
impl<T: Real> BinaryOp<T> for FloorDiv {
    type Out = T;
    const NAME: &'static str = "floor_divide";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.floor_div(b)
    }
}
impl<T: Real> BinaryOp<T> for Rem {
    type Out = T;
    const NAME: &'static str = "remainder";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        a.py_rem(b)
    }
}
impl<T: Numeric> UnaryOp<T> for Neg {
    type Out = T;
    const NAME: &'static str = "negative";
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.neg()
    }
}
