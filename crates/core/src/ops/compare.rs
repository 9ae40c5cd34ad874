//! Comparison and logical ops: `== != < <= > >=` producing bool, NaN-propagating
//! `maximum`/`minimum`, NaN-ignoring `fmax`/`fmin`, and truthiness-based logical ops.

use super::{op_struct, BinaryOp, UnaryOp};
use crate::dtype::{Element, Real};

op_struct!(
    /// `a == b`.
    Eq
);
op_struct!(
    /// `a != b`.
    Ne
);
op_struct!(
    /// `a < b`.
    Lt
);
op_struct!(
    /// `a <= b`.
    Le
);
op_struct!(
    /// `a > b`.
    Gt
);
op_struct!(
    /// `a >= b`.
    Ge
);
op_struct!(
    /// The larger value; NaN if either is NaN (NumPy's `maximum`).
    Maximum
);
op_struct!(
    /// The smaller value; NaN if either is NaN (NumPy's `minimum`).
    Minimum
);
op_struct!(
    /// The larger value, ignoring a NaN (NumPy's `fmax`).
    Fmax
);
op_struct!(
    /// The smaller value, ignoring a NaN (NumPy's `fmin`).
    Fmin
);
op_struct!(
    /// Both truthy.
    LogicalAnd
);
op_struct!(
    /// Either truthy.
    LogicalOr
);
op_struct!(
    /// Exactly one truthy.
    LogicalXor
);
op_struct!(
    /// Not truthy.
    LogicalNot
);

macro_rules! cmp_op {
    ($name:ident, $bound:ident, $numpy:literal, $op:tt) => {
        impl<T: $bound> BinaryOp<T> for $name {
            type Out = bool;
            const NAME: &'static str = $numpy;
            #[inline(always)]
            fn apply(&self, a: T, b: T) -> bool {
                a $op b
            }
        }
    };
}
cmp_op!(Eq, Element, "equal", ==);
cmp_op!(Ne, Element, "not_equal", !=);
cmp_op!(Lt, Real, "less", <);
cmp_op!(Le, Real, "less_equal", <=);
cmp_op!(Gt, Real, "greater", >);
cmp_op!(Ge, Real, "greater_equal", >=);

impl<T: Real> BinaryOp<T> for Maximum {
    type Out = T;
    const NAME: &'static str = "maximum";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if a.is_nan_value() || a >= b {
            a
        } else {
            b
        }
    }
}
impl<T: Real> BinaryOp<T> for Minimum {
    type Out = T;
    const NAME: &'static str = "minimum";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if a.is_nan_value() || a <= b {
            a
        } else {
            b
        }
    }
}
impl<T: Real> BinaryOp<T> for Fmax {
    type Out = T;
    const NAME: &'static str = "fmax";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if b.is_nan_value() || a >= b {
            a
        } else {
            b
        }
    }
}
impl<T: Real> BinaryOp<T> for Fmin {
    type Out = T;
    const NAME: &'static str = "fmin";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if b.is_nan_value() || a <= b {
            a
        } else {
            b
        }
    }
}

impl<T: Element> BinaryOp<T> for LogicalAnd {
    type Out = bool;
    const NAME: &'static str = "logical_and";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() && b.is_truthy()
    }
}
impl<T: Element> BinaryOp<T> for LogicalOr {
    type Out = bool;
    const NAME: &'static str = "logical_or";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() || b.is_truthy()
    }
}
impl<T: Element> BinaryOp<T> for LogicalXor {
    type Out = bool;
    const NAME: &'static str = "logical_xor";
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() != b.is_truthy()
    }
}
impl<T: Element> UnaryOp<T> for LogicalNot {
    type Out = bool;
    const NAME: &'static str = "logical_not";
    #[inline(always)]
    fn apply(&self, x: T) -> bool {
        !x.is_truthy()
    }
}
