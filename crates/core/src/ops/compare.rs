//! Comparison and logical ops: `== != < <= > >=` producing bool, NaN-propagating
//! `maximum`/`minimum`, NaN-ignoring `fmax`/`fmin`, truthiness-based logical ops, the
//! classifications `isnan`/`isinf`/`isfinite` and NumPy's `isclose`.

use super::{
    BinaryOp, Eq, Fmax, Fmin, Ge, Gt, IsFinite, IsInf, IsNan, Le, LogicalAnd, LogicalNot,
    LogicalOr, LogicalXor, Lt, Maximum, Minimum, Ne, UnaryOp,
};
use crate::dtype::{Element, Numeric, Real, Scalar, c128};

macro_rules! cmp_op {
    ($name:ident, $bound:ident, $op:tt) => {
        impl<T: $bound> BinaryOp<T> for $name {
            type Out = bool;
            #[inline(always)]
            fn apply(&self, a: T, b: T) -> bool {
                a $op b
            }
        }
    };
}
cmp_op!(Eq, Element, ==);
cmp_op!(Ne, Element, !=);
cmp_op!(Lt, Real, <);
cmp_op!(Le, Real, <=);
cmp_op!(Gt, Real, >);
cmp_op!(Ge, Real, >=);

impl<T: Real> BinaryOp<T> for Maximum {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if a.is_nan_value() || a >= b { a } else { b }
    }
}
impl<T: Real> BinaryOp<T> for Minimum {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if a.is_nan_value() || a <= b { a } else { b }
    }
}
impl<T: Real> BinaryOp<T> for Fmax {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if b.is_nan_value() || a >= b { a } else { b }
    }
}
impl<T: Real> BinaryOp<T> for Fmin {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        if b.is_nan_value() || a <= b { a } else { b }
    }
}

impl<T: Element> BinaryOp<T> for LogicalAnd {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() && b.is_truthy()
    }
}
impl<T: Element> BinaryOp<T> for LogicalOr {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() || b.is_truthy()
    }
}
impl<T: Element> BinaryOp<T> for LogicalXor {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        a.is_truthy() != b.is_truthy()
    }
}
impl<T: Element> UnaryOp<T> for LogicalNot {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, x: T) -> bool {
        !x.is_truthy()
    }
}

impl<T: Element> UnaryOp<T> for IsNan {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, x: T) -> bool {
        x.is_nan_value()
    }
}
impl<T: Element> UnaryOp<T> for IsInf {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, x: T) -> bool {
        match x.to_scalar().widen_half() {
            Scalar::F32(v) => v.is_infinite(),
            Scalar::F64(v) => v.is_infinite(),
            Scalar::C64(v) => v.re.is_infinite() || v.im.is_infinite(),
            Scalar::C128(v) => v.re.is_infinite() || v.im.is_infinite(),
            _ => false,
        }
    }
}
impl<T: Element> UnaryOp<T> for IsFinite {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, x: T) -> bool {
        match x.to_scalar().widen_half() {
            Scalar::F32(v) => v.is_finite(),
            Scalar::F64(v) => v.is_finite(),
            Scalar::C64(v) => v.re.is_finite() && v.im.is_finite(),
            Scalar::C128(v) => v.re.is_finite() && v.im.is_finite(),
            _ => true,
        }
    }
}

/// NumPy's `isclose(a, b)`: `|a - b| <= atol + rtol * |b|` for finite `b`, or `a == b`
/// (equal infinities), or both NaN when `equal_nan`. Evaluated in f64 (complex: c128), so
/// integers never overflow and f32 differences are exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsClose {
    /// Relative tolerance (NumPy's default 1e-5).
    pub rtol: f64,
    /// Absolute tolerance (NumPy's default 1e-8).
    pub atol: f64,
    /// Whether two NaNs compare close.
    pub equal_nan: bool,
}

impl Default for IsClose {
    fn default() -> Self {
        IsClose {
            rtol: 1e-5,
            atol: 1e-8,
            equal_nan: false,
        }
    }
}

impl IsClose {
    /// Tolerances worth testing (the registry's examples): NumPy's defaults, and wide ones
    /// with `equal_nan`.
    pub(crate) fn parameter_examples() -> Vec<Self> {
        vec![
            IsClose::default(),
            IsClose {
                rtol: 0.25,
                atol: 0.5,
                equal_nan: true,
            },
        ]
    }
}

impl<T: Numeric> BinaryOp<T> for IsClose {
    type Out = bool;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> bool {
        let (x, y) = (a.cast::<c128>(), b.cast::<c128>());
        if x == y {
            return true;
        }
        let (x_nan, y_nan) = (
            x.re.is_nan() || x.im.is_nan(),
            y.re.is_nan() || y.im.is_nan(),
        );
        if x_nan || y_nan {
            return self.equal_nan && x_nan && y_nan;
        }
        y.re.is_finite() && y.im.is_finite() && (x - y).norm() <= self.atol + self.rtol * y.norm()
    }
    fn params(&self) -> Vec<Scalar> {
        vec![
            Scalar::F64(self.rtol),
            Scalar::F64(self.atol),
            Scalar::Bool(self.equal_nan),
        ]
    }
}
