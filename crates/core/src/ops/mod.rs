//! Scalar operations as values: each op is a small `Copy` struct implementing [`UnaryOp`],
//! [`BinaryOp`], [`ReduceOp`] or [`ScanOp`] for the element types it accepts. The CPU backend
//! runs `apply` in monomorphised loops; a device backend looks the op up by its `NAME` and
//! generates the same expression in its kernel language. Core picks the op; backends only
//! iterate.
//!
//! Every op is declared once in the [`registry`] (its struct, `NAME`, kind and tolerance
//! class); the family files (`arith.rs`, `math.rs`, ...) implement the op traits with the
//! scalar semantics (`special.rs`: the f64 mathematics of the scipy.special functions).

use crate::dtype::{Element, Scalar};

mod arith;
mod binmath;
mod bitwise;
mod cmath;
mod compare;
mod complex;
mod math;
mod math_extra;
mod nanreduce;
mod reduce;
pub mod registry;
mod signal_math;
mod special;
mod vmath;

pub use binmath::*;
pub use bitwise::*;
pub use compare::*;
pub use math::*;
pub use nanreduce::*;
pub use reduce::*;
pub use registry::Declared;

use registry::declare_ops;
crate::elementwise_ops!(declare_ops);
crate::reduction_ops!(declare_ops);

/// An element-wise function of one value.
pub trait UnaryOp<T: Element>: Declared + Copy + Send + Sync + 'static {
    /// The output element type.
    type Out: Element;
    /// A stable name (NumPy's where NumPy has the op) identifying the op to every backend:
    /// its [`registry`] declaration's.
    const NAME: &'static str = registry::name_of(Self::DECL, registry::OpKind::Unary);
    /// The op on one value.
    fn apply(&self, x: T) -> Self::Out;
    /// The op's parameters, in declaration order (`Clip`: `lo, hi`; `IsClose`: `rtol, atol,
    /// equal_nan`; `round`: `decimals`; `var`: `ddof`), for backends that generate the op's
    /// code from its `NAME` and pass the parameters as kernel arguments. Empty for most ops.
    fn params(&self) -> Vec<Scalar> {
        Vec::new()
    }
}

/// An element-wise function of two values of the same type.
pub trait BinaryOp<T: Element>: Declared + Copy + Send + Sync + 'static {
    /// The output element type.
    type Out: Element;
    /// A stable name (NumPy's where NumPy has the op) identifying the op to every backend:
    /// its [`registry`] declaration's.
    const NAME: &'static str = registry::name_of(Self::DECL, registry::OpKind::Binary);
    /// The op on one pair of values.
    fn apply(&self, a: T, b: T) -> Self::Out;
    /// The op's parameters, in declaration order (`Clip`: `lo, hi`; `IsClose`: `rtol, atol,
    /// equal_nan`; `round`: `decimals`; `var`: `ddof`), for backends that generate the op's
    /// code from its `NAME` and pass the parameters as kernel arguments. Empty for most ops.
    fn params(&self) -> Vec<Scalar> {
        Vec::new()
    }
}

/// A reduction: `finish(combine(fold(init, x0), fold(init, x1), ...), count)`.
///
/// `fold` and `combine` must be associative and commutative up to rounding, so backends may
/// split the input in any order and use several accumulators.
pub trait ReduceOp<T: Element>: Declared + Copy + Send + Sync + 'static {
    /// The accumulator.
    type Acc: Copy + Send + Sync + 'static;
    /// The output element type.
    type Out: Element;
    /// A stable name (NumPy's where NumPy has the op) identifying the op to every backend:
    /// its [`registry`] declaration's.
    const NAME: &'static str = registry::name_of(Self::DECL, registry::OpKind::Reduce);
    /// The accumulator of no elements.
    fn init(&self) -> Self::Acc;
    /// Adds one element to an accumulator.
    fn fold(&self, acc: Self::Acc, x: T) -> Self::Acc;
    /// Merges two accumulators.
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// Turns the accumulator of `count` elements into the result.
    fn finish(&self, acc: Self::Acc, count: usize) -> Self::Out;
    /// The op's parameters, in declaration order (`Clip`: `lo, hi`; `IsClose`: `rtol, atol,
    /// equal_nan`; `round`: `decimals`; `var`: `ddof`), for backends that generate the op's
    /// code from its `NAME` and pass the parameters as kernel arguments. Empty for most ops.
    fn params(&self) -> Vec<Scalar> {
        Vec::new()
    }
}

/// An inclusive scan (cumulative op): `out[i] = step(out[i-1], x[i])`, `out[-1] = init`.
pub trait ScanOp<T: Element>: Declared + Copy + Send + Sync + 'static {
    /// The output element type.
    type Out: Element;
    /// A stable name (NumPy's where NumPy has the op) identifying the op to every backend:
    /// its [`registry`] declaration's.
    const NAME: &'static str = registry::name_of(Self::DECL, registry::OpKind::Scan);
    /// The value before the first element.
    fn init(&self) -> Self::Out;
    /// One step of the scan.
    fn step(&self, acc: Self::Out, x: T) -> Self::Out;
}
