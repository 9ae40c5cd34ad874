//! The op registry: every element-wise op, reduction and scan of cuprite is declared here,
//! once, by one entry of [`elementwise_ops!`](crate::elementwise_ops) or
//! [`reduction_ops!`](crate::reduction_ops):
//!
//! ```text
//! /// `a + b` (wrapping for integers).        <- the op struct's documentation
//! Add, "add", Binary, Exact;                 <- struct, NumPy name, kind, tolerance class
//! Clip<E>, "clip", Unary, Exact, params;     <- a struct with parameters, written by hand
//! /// Degrees to radians ...                  <- also the Array method's documentation
//! Deg2Rad, "deg2rad", Unary, Exact => fn deg2rad<T: Float>(x) -> T {
//!     x * (T::from_f64(std::f64::consts::PI) / T::from_f64(180.0))
//! };                                         <- the method, the bound, the scalar semantics
//! ```
//!
//! From an entry come the zero-sized op struct (ops with `params` are written by hand in their
//! family file, with their fields and an inherent `parameter_examples()`), its [`Declared`]
//! impl — hence the `NAME` of its [`UnaryOp`](super::UnaryOp)/[`BinaryOp`](super::BinaryOp)/
//! [`ReduceOp`](super::ReduceOp)/[`ScanOp`](super::ScanOp) impl — and the tables
//! [`ELEMENTWISE`] and [`REDUCTIONS`]. An element-wise entry with `=> fn` also gives the op
//! trait's impl for every `T` of the bound (`apply` is the body; longer bodies call a helper
//! of the family file, as `math_extra::log_add_exp`) and the `Array` method of that name
//! (`map_op` for a unary op, `zip_op` with broadcasting for a binary one, documented by the
//! entry's documentation); an entry without it has both written by hand (the family file's
//! trait impl, the method in `array/`). Backends and tests walk the same lists: the CUDA
//! backend names each op's device functor after its `NAME` (`op_<name>`, `red_<name>`,
//! `scan_<name>`) and its tests check that every declared op has one, probe every op on a
//! GPU and take the comparison's tolerance from the class; the suite tests every `=> fn` op
//! on every backend, for every element type of its bound, against the NumPy fixture of its
//! name.
//!
//! ```
//! use cuprite_core::ops::registry::{self, Declared, OpKind, Tolerance};
//! use cuprite_core::ops::{BinaryOp, Hypot, Sum};
//! assert_eq!(<Hypot as BinaryOp<f64>>::NAME, "hypot");
//! assert_eq!(Hypot::DECL.tolerance, Tolerance::Approx);
//! assert_eq!(registry::find("sum").map(|d| d.kind), Some(OpKind::Reduce));
//! assert_eq!(Sum::DECL.rust, "Sum");
//! ```

use crate::backend::ArgKind;
use crate::dtype::{Element, Scalar};

/// What an op computes, i.e. which op trait its family file implements for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// [`UnaryOp`](super::UnaryOp): one value in, one out.
    Unary,
    /// [`BinaryOp`](super::BinaryOp): two values of one type in, one out.
    Binary,
    /// [`ReduceOp`](super::ReduceOp): a reduction over axes.
    Reduce,
    /// [`ScanOp`](super::ScanOp): an inclusive scan along an axis.
    Scan,
}

/// How a backend's results are compared with the host's reference in the backends' tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tolerance {
    /// Bit for bit (any NaN equal to any NaN): integer, logical, rounding and selection ops.
    Exact,
    /// Within a few units in the last place: a float result that comes from (or depends on)
    /// a math library (`sin`, `hypot`, the modulus of a complex value), or whose rounding
    /// depends on the order of accumulation (sums, means, products).
    Approx,
}

/// One op's declaration, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpDecl {
    /// The op's `NAME`: NumPy's name where NumPy has the op (`"true_divide"`, `"arcsin"`).
    pub name: &'static str,
    /// Which op trait the op implements.
    pub kind: OpKind,
    /// How tests compare a backend's results with the host's.
    pub tolerance: Tolerance,
    /// The op's Rust type as declared (`"Add"`, `"Clip<E>"`).
    pub rust: &'static str,
}

/// An op's declaration as a trait: every op trait requires it. cuprite's own ops get it
/// from the registry's macros (so each of them is in [`ELEMENTWISE`] or [`REDUCTIONS`], and
/// the backends' tests cover it); an op type of your own implements it by hand and runs on
/// the backends that run any op by its `apply` (the CPU backend), while a device backend
/// whose sources have no functor of that name returns an `Err` naming the op.
pub trait Declared: Copy + Send + Sync + 'static {
    /// The op's declaration.
    const DECL: OpDecl;
    /// Values of the op worth testing on every backend: the op itself when it has no
    /// parameters, a few parameter values (edge cases included) otherwise.
    fn examples() -> Vec<Self>;
}

/// The `NAME` of an op declared as `decl` whose trait is of kind `kind`; a compile-time
/// error (const evaluation) when the declaration names another kind.
pub const fn name_of(decl: OpDecl, kind: OpKind) -> &'static str {
    if decl.kind as u8 != kind as u8 {
        panic!("an op implements an op trait of another kind than its registry declaration");
    }
    decl.name
}

/// The declared ops whose body works on a 16-bit float's own bits rather than in f32: the
/// neighbour `nextafter` finds and the step `spacing` measures are the type's own, as is the
/// largest finite value `nan_to_num` puts for infinities (the CUDA backend keeps the same
/// ops, and `round`, out of its `half_op`).
pub const HALF_OWN_BITS: &[&str] = &["nextafter", "spacing", "nan_to_num"];

/// True when the op `name` is one of [`HALF_OWN_BITS`].
pub const fn half_own_bits(name: &str) -> bool {
    let mut i = 0;
    while i < HALF_OWN_BITS.len() {
        if str_eq(HALF_OWN_BITS[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// `a == b` in a const context.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A value of `T` converted from an f64 as the host's casts convert it (for examples).
pub(crate) fn example_value<T: Element>(x: f64) -> T {
    T::from_scalar(Scalar::F64(x))
}

/// Calls the macro `$callback` with the list of every element-wise op, one entry per op:
///
/// ```text
/// $(#[doc])* Struct $(<E>)?, "name", Unary | Binary, Exact | Approx $(, params)?
///     $(=> fn method<T: Bound>(x) -> Out { body })?;       // Unary
///     $(=> fn method<T: Bound>(a, b) -> Out { body })?;    // Binary
/// ```
///
/// `E` stands for the element type in generic ops (`Clip<E>`): a callback that defines a
/// type `E` before using the entry's type gets the op for that element type. Ops marked
/// `params` are structs with fields written by hand in their family file. An entry with
/// `=> fn` declares the op's semantics: its `Array` method `method`, for the element types
/// `T` of `Bound` (a trait of [`crate::dtype`]: `Float`, `Real`, `Inexact`, ...), whose
/// scalar result of type `Out` (`T` or another element type) is `body` on the scalars named
/// in the parentheses. A callback matches every entry with this pattern:
///
/// ```text
/// $( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
///     $(, $params:ident)?
///     $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+) -> $out:ty $body:block)?; )*
/// ```
#[macro_export]
macro_rules! elementwise_ops {
    ($callback:ident) => {
        $callback! {
            // ---- arith.rs
            /// `a + b` (wrapping for integers).
            Add, "add", Binary, Exact;
            /// `a - b` (wrapping for integers).
            Sub, "subtract", Binary, Exact;
            /// `a * b` (wrapping for integers).
            Mul, "multiply", Binary, Exact;
            /// True division `a / b` of inexact values (integers are cast to f64 first by the
            /// caller).
            Div, "true_divide", Binary, Exact;
            /// Python's floor division `a // b`.
            FloorDiv, "floor_divide", Binary, Exact;
            /// Python's remainder `a % b` (the sign of `b`), NumPy's `remainder`.
            Rem, "remainder", Binary, Exact;
            /// `-x` (wrapping for integers).
            Neg, "negative", Unary, Exact;
            // ---- binmath.rs
            /// `a ** b`. Integers: exponentiation by squaring, wrapping on overflow,
            /// `0 ** 0 == 1`; a negative exponent gives the integer part of the exact result
            /// (`1` for a base of 1, `±1` for -1, `0` otherwise, including a base of 0) —
            /// NumPy raises an error instead, which [`crate::Array::pow_scalar`] reproduces
            /// for scalar exponents. Floats: C `pow`. Complex: NumPy's `npy_cpow` (repeated
            /// multiplication for integer exponents below 100 in magnitude, `0 ** w` is 0 for
            /// `Re(w) > 0` and NaN otherwise).
            Pow, "power", Binary, Approx;
            /// The angle of the point `(b, a)`: `atan2(a, b)` in `[-pi, pi]`, signed zeros
            /// respected.
            Atan2, "arctan2", Binary, Approx;
            /// `sqrt(a^2 + b^2)` without overflow; infinite if either is infinite, even with
            /// a NaN.
            Hypot, "hypot", Binary, Approx;
            /// The magnitude of `a` with the sign bit of `b`.
            Copysign, "copysign", Binary, Exact;
            /// C's remainder `fmod(a, b)`: the sign of the dividend `a`. Integers:
            /// `a % 0 == 0` and `MIN % -1 == 0` (wrapping), as NumPy; floats: NaN for a zero
            /// divisor.
            Fmod, "fmod", Binary, Exact;
            // `clip` with scalar bounds (binmath.rs).
            Clip<E>, "clip", Unary, Exact, params;
            // ---- bitwise.rs
            /// `a & b`.
            BitAnd, "bitwise_and", Binary, Exact;
            /// `a | b`.
            BitOr, "bitwise_or", Binary, Exact;
            /// `a ^ b`.
            BitXor, "bitwise_xor", Binary, Exact;
            /// `!a` (NumPy's `invert`).
            BitNot, "invert", Unary, Exact;
            /// `a << b`; 0 when `b` is negative or not below the bit width (NumPy's rule),
            /// bits shifted past the top are dropped.
            LeftShift, "left_shift", Binary, Exact;
            /// `a >> b` (arithmetic for signed types); when `b` is negative or not below the
            /// bit width the result is -1 for negative `a` and 0 otherwise (NumPy's rule).
            RightShift, "right_shift", Binary, Exact;
            // ---- compare.rs
            /// `a == b`.
            Eq, "equal", Binary, Exact;
            /// `a != b`.
            Ne, "not_equal", Binary, Exact;
            /// `a < b`.
            Lt, "less", Binary, Exact;
            /// `a <= b`.
            Le, "less_equal", Binary, Exact;
            /// `a > b`.
            Gt, "greater", Binary, Exact;
            /// `a >= b`.
            Ge, "greater_equal", Binary, Exact;
            /// The larger value; NaN if either is NaN (NumPy's `maximum`).
            Maximum, "maximum", Binary, Exact;
            /// The smaller value; NaN if either is NaN (NumPy's `minimum`).
            Minimum, "minimum", Binary, Exact;
            /// The larger value, ignoring a NaN (NumPy's `fmax`).
            Fmax, "fmax", Binary, Exact;
            /// The smaller value, ignoring a NaN (NumPy's `fmin`).
            Fmin, "fmin", Binary, Exact;
            /// Both truthy.
            LogicalAnd, "logical_and", Binary, Exact;
            /// Either truthy.
            LogicalOr, "logical_or", Binary, Exact;
            /// Exactly one truthy.
            LogicalXor, "logical_xor", Binary, Exact;
            /// Not truthy.
            LogicalNot, "logical_not", Unary, Exact;
            /// NaN (a complex value with a NaN part); always false for bool and integers.
            IsNan, "isnan", Unary, Exact;
            /// Positive or negative infinity (a complex value with an infinite part); always
            /// false for bool and integers.
            IsInf, "isinf", Unary, Exact;
            /// Neither NaN nor infinite (complex: both parts); always true for bool and
            /// integers.
            IsFinite, "isfinite", Unary, Exact;
            // NumPy's `isclose` with its tolerances (compare.rs).
            IsClose, "isclose", Binary, Exact, params;
            // ---- complex.rs
            /// The real part (the value itself for real floats).
            Re, "real", Unary, Exact;
            /// The imaginary part (zero for real floats).
            Im, "imag", Unary, Exact;
            /// The complex conjugate (the value itself for real and integer types).
            Conj, "conjugate", Unary, Exact;
            /// The argument `atan2(im, re)` in `[-pi, pi]` (pi for negative reals and for
            /// -0.0).
            Angle, "angle", Unary, Approx;
            // ---- math.rs
            /// Square root (NaN for negative reals).
            Sqrt, "sqrt", Unary, Approx;
            /// `e^x`.
            Exp, "exp", Unary, Approx;
            /// `2^x`.
            Exp2, "exp2", Unary, Approx;
            /// Sine.
            Sin, "sin", Unary, Approx;
            /// Cosine.
            Cos, "cos", Unary, Approx;
            /// Tangent.
            Tan, "tan", Unary, Approx;
            /// Hyperbolic sine.
            Sinh, "sinh", Unary, Approx;
            /// Hyperbolic cosine.
            Cosh, "cosh", Unary, Approx;
            /// Hyperbolic tangent.
            Tanh, "tanh", Unary, Approx;
            /// `1 / x`.
            Reciprocal, "reciprocal", Unary, Approx;
            /// Natural logarithm (complex: principal branch, accurate near `|z| = 1`).
            Log, "log", Unary, Approx;
            /// Base-2 logarithm.
            Log2, "log2", Unary, Approx;
            /// Base-10 logarithm.
            Log10, "log10", Unary, Approx;
            /// Inverse sine (complex: C99 branch cuts, a signed zero picks the side).
            Asin, "arcsin", Unary, Approx;
            /// Inverse cosine (complex: C99 branch cuts).
            Acos, "arccos", Unary, Approx;
            /// Inverse tangent (complex: C99 branch cuts).
            Atan, "arctan", Unary, Approx;
            /// Inverse hyperbolic sine (no overflow for huge reals; complex: C99 branch cuts).
            Asinh, "arcsinh", Unary, Approx;
            /// Inverse hyperbolic cosine (no overflow for huge reals; complex: C99 branch
            /// cuts).
            Acosh, "arccosh", Unary, Approx;
            /// Inverse hyperbolic tangent (complex: C99 branch cuts).
            Atanh, "arctanh", Unary, Approx;
            /// Cube root.
            Cbrt, "cbrt", Unary, Approx;
            /// `e^x - 1`, accurate near zero.
            Expm1, "expm1", Unary, Approx;
            /// `ln(1 + x)`, accurate near zero.
            Log1p, "log1p", Unary, Approx;
            /// Largest integer not above `x` (integers unchanged).
            Floor, "floor", Unary, Exact;
            /// Smallest integer not below `x` (integers unchanged).
            Ceil, "ceil", Unary, Exact;
            /// Integer part, rounding toward zero (integers unchanged).
            Trunc, "trunc", Unary, Exact;
            /// Nearest integer, halves to even (NumPy's `round`/`rint`; integers unchanged).
            RoundHalfEven, "rint", Unary, Exact;
            /// `x * x`.
            Square, "square", Unary, Exact;
            /// Absolute value: integers wrap at `MIN` (`abs(i32::MIN) == i32::MIN`, as
            /// NumPy), floats clear the sign bit, complex values give their modulus
            /// `hypot(re, im)` as a real number.
            Abs, "absolute", Unary, Approx;
            /// Sign: -1, 0 or 1 for integers and floats (NaN stays NaN, `sign(-0.0)` is
            /// `0.0`); `z / |z|` for complex values as NumPy 2 (0 for 0, NaN for NaN, the
            /// direction of the infinite part when one part is infinite, NaN when both are).
            Sign, "sign", Unary, Approx;
            // Rounding to decimals (math.rs).
            RoundDecimals, "round", Unary, Exact, params;
            // ---- reduce.rs: the element-wise helpers of the composed statistics
            /// `|a - b|^2` in the real type: the squared deviation behind `var` (complex
            /// values give `re^2 + im^2` of the difference, as NumPy).
            AbsSqDiff, "abs_sq_diff", Binary, Exact;
            /// `probe` where `probe` is NaN, else `a`: marks the lanes of a sorted reduction
            /// whose last (largest) element is NaN, as NumPy's median and quantile do.
            PropagateNan, "propagate_nan", Binary, Exact;
            // ---- math_extra.rs (the helpers of the bodies below) and nanreduce.rs
            /// `log(exp(x) + exp(other))` without overflow, as NumPy's `logaddexp`
            /// (`max + log1p(exp(-|x - other|))`): equal infinities give themselves, a NaN
            /// propagates, arguments far apart give the larger one exactly.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![1000.0, f64::NEG_INFINITY, 0.0], &[3], dev)?;
            /// let ln2 = std::f64::consts::LN_2;
            /// assert_eq!(a.logaddexp(&a)?.to_vec()?, vec![1000.0 + ln2, f64::NEG_INFINITY, ln2]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            LogAddExp, "logaddexp", Binary, Approx => fn logaddexp<T: Float>(x, other) -> T {
                math_extra::log_add_exp(x, other, false)
            };
            /// `log2(2^x + 2^other)` without overflow, as NumPy's `logaddexp2`.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f32, B>::from_vec(vec![3.0, 10.0], &[2], dev)?;
            /// let b = Array::<f32, B>::from_vec(vec![3.0, f32::NEG_INFINITY], &[2], dev)?;
            /// assert_eq!(a.logaddexp2(&b)?.to_vec()?, vec![4.0, 10.0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            LogAddExp2, "logaddexp2", Binary, Approx => fn logaddexp2<T: Float>(x, other) -> T {
                math_extra::log_add_exp(x, other, true)
            };
            /// True where the sign bit is set, as NumPy's `signbit`: floats `-0.0`, negative
            /// values, `-inf` and NaNs carrying the sign bit; integers `x < 0`; u8 never.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![-0.0, 0.0, -2.0, -f64::NAN], &[4], dev)?;
            /// assert_eq!(a.signbit()?.to_vec()?, vec![true, false, true, true]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Signbit, "signbit", Unary, Exact => fn signbit<T: Real>(x) -> bool {
                math_extra::signbit(x)
            };
            /// Degrees to radians: `x * (pi / 180)`, the constant computed in f64 and rounded
            /// to the element type (NumPy's `npy_deg2rad`; its `radians` is the same function,
            /// [`Array::radians`](crate::Array::radians) here).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![180.0, -90.0], &[2], dev)?;
            /// let pi = std::f64::consts::PI;
            /// assert_eq!(a.deg2rad()?.to_vec()?, vec![pi, -pi / 2.0]);
            /// assert_eq!(a.deg2rad()?.rad2deg()?.to_vec()?, vec![180.0, -90.0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Deg2Rad, "deg2rad", Unary, Exact => fn deg2rad<T: Float>(x) -> T {
                x * (T::from_f64(std::f64::consts::PI) / T::from_f64(180.0))
            };
            /// Radians to degrees: `x * (180 / pi)`, the constant computed in f64 and rounded
            /// to the element type (NumPy's `npy_rad2deg`; its `degrees` is the same function,
            /// [`Array::degrees`](crate::Array::degrees) here).
            Rad2Deg, "rad2deg", Unary, Exact => fn rad2deg<T: Float>(x) -> T {
                x * (T::from_f64(180.0) / T::from_f64(std::f64::consts::PI))
            };
            /// The Heaviside step `heaviside(x, h0)`, as NumPy's `npy_heaviside`: 0 for
            /// `x < 0`, `h0` for `x == 0` (either zero), 1 for `x > 0`, NaN for a NaN `x`.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![-1.5, 0.0, 2.0], &[3], dev)?;
            /// let h0 = Array::<f64, B>::full(&[], 0.5, dev)?;
            /// assert_eq!(x.heaviside(&h0)?.to_vec()?, vec![0.0, 0.5, 1.0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Heaviside, "heaviside", Binary, Exact => fn heaviside<T: Float>(x, h0) -> T {
                math_extra::heaviside(x, h0)
            };
            /// The next representable value after `x` toward `other`, bit-exact as C's
            /// `nextafter`: `other` when equal (so `nextafter(0.0, -0.0) == -0.0`), the
            /// smallest subnormal of the right sign from either zero, NaN for a NaN operand.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![1.0, 0.0], &[2], dev)?;
            /// let b = Array::<f64, B>::from_vec(vec![2.0, -1.0], &[2], dev)?;
            /// let r = a.nextafter(&b)?.to_vec()?;
            /// assert_eq!(r[0], 1.0 + f64::EPSILON);
            /// assert_eq!(r[1].to_bits(), (-f64::from_bits(1)).to_bits());
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            NextAfter, "nextafter", Binary, Exact => fn nextafter<T: Float>(x, other) -> T {
                math_extra::next_after(x, other)
            };
            // ---- special.rs: scipy.special (f64 mathematics, every float type rounded once)
            /// The error function `erf(x) = 2/sqrt(pi) * integral_0^x exp(-t^2) dt`, as
            /// scipy's `erf` (odd: `erf(-0.0) == -0.0`, `±1` at `±inf`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.0, f64::NEG_INFINITY], &[3], dev)?;
            /// let e = x.erf()?.to_vec()?;
            /// assert!((e[1] - 0.8427007929497149).abs() < 1e-15);
            /// assert_eq!((e[0], e[2]), (0.0, -1.0));
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Erf, "erf", Unary, Approx => fn erf<T: Float>(x) -> T {
                math_extra::via_f64(x, special::erf)
            };
            /// The complementary error function `1 - erf(x)`, accurate where `erf(x)` is near
            /// 1 (scipy's `erfc`: 2 at `-inf`, 0 at `inf`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 10.0], &[2], dev)?;
            /// let e = x.erfc()?.to_vec()?;
            /// assert_eq!(e[0], 1.0);
            /// assert!((e[1] / 2.088487583762545e-45 - 1.0).abs() < 1e-14);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Erfc, "erfc", Unary, Approx => fn erfc<T: Float>(x) -> T {
                math_extra::via_f64(x, special::erfc)
            };
            /// The inverse of [`erf`](crate::Array::erf) on `[-1, 1]`: `±inf` at `±1`, NaN
            /// outside, `+0.0` for either zero (scipy's `erfinv`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.5, -1.0, 2.0], &[3], dev)?;
            /// let y = x.erfinv()?.to_vec()?;
            /// assert!((y[0] - 0.4769362762044699).abs() < 1e-15);
            /// assert_eq!(y[1], f64::NEG_INFINITY);
            /// assert!(y[2].is_nan());
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Erfinv, "erfinv", Unary, Approx => fn erfinv<T: Float>(x) -> T {
                math_extra::via_f64(x, special::erfinv)
            };
            /// The inverse of [`erfc`](crate::Array::erfc) on `[0, 2]`: `inf` at 0, `-inf` at
            /// 2, NaN outside, `-0.0` at 1 (scipy's `erfcinv`); accurate down to the smallest
            /// subnormal argument.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let q = Array::<f64, B>::from_vec(vec![1e-300, 0.0, 2.0], &[3], dev)?;
            /// let y = q.erfcinv()?.to_vec()?;
            /// assert!((y[0] - 26.209469960516124).abs() < 1e-13);
            /// assert_eq!((y[1], y[2]), (f64::INFINITY, f64::NEG_INFINITY));
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Erfcinv, "erfcinv", Unary, Approx => fn erfcinv<T: Float>(x) -> T {
                math_extra::via_f64(x, special::erfcinv)
            };
            /// The gamma function (scipy's `gamma`, C's `tgamma`): `±inf` at `±0`, NaN at the
            /// negative integers and at `-inf`, `inf` beyond 171.6.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![5.0, 0.5, -1.0, -0.0], &[4], dev)?;
            /// let g = x.gamma()?.to_vec()?;
            /// assert!((g[0] - 24.0).abs() < 1e-13 && (g[1] - 1.7724538509055159).abs() < 1e-15);
            /// assert!(g[2].is_nan());
            /// assert_eq!(g[3], f64::NEG_INFINITY);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Gamma, "gamma", Unary, Approx => fn gamma<T: Float>(x) -> T {
                math_extra::via_f64(x, special::gamma)
            };
            /// `ln|gamma(x)|` (scipy's `gammaln`): `inf` at the poles (zeros, negative
            /// integers) and at `inf`, `-inf` at `-inf`; finite (`-ln x`) for subnormal `x`,
            /// where scipy overflows to `inf`.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![1.0, 1000.0, -2.0], &[3], dev)?;
            /// let g = x.gammaln()?.to_vec()?;
            /// assert_eq!(g[0], 0.0);
            /// assert!((g[1] / 5905.220423209181 - 1.0).abs() < 1e-14);
            /// assert_eq!(g[2], f64::INFINITY);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            GammaLn, "gammaln", Unary, Approx => fn gammaln<T: Float>(x) -> T {
                math_extra::via_f64(x, special::gammaln)
            };
            /// The digamma function `psi(x) = d/dx ln gamma(x)` (scipy's `digamma`): `-inf` at
            /// `+0`, `+inf` at `-0`, NaN at the negative integers and `-inf`. Relative accuracy
            /// holds at its positive zero 1.4616...; near its negative zeros the error is
            /// absolute (about 1e-16), as in cephes' `psi`.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![1.0, 0.5, 0.0], &[3], dev)?;
            /// let p = x.digamma()?.to_vec()?;
            /// assert!((p[0] + 0.5772156649015329).abs() < 1e-15);
            /// assert!((p[1] + 1.9635100260214235).abs() < 1e-15);
            /// assert_eq!(p[2], f64::NEG_INFINITY);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Digamma, "digamma", Unary, Approx => fn digamma<T: Float>(x) -> T {
                math_extra::via_f64(x, special::digamma)
            };
            /// The logistic sigmoid `1 / (1 + exp(-x))` (scipy's `expit`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f32, B>::from_vec(vec![0.0, f32::INFINITY, -200.0], &[3], dev)?;
            /// assert_eq!(x.expit()?.to_vec()?, vec![0.5, 1.0, 0.0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Expit, "expit", Unary, Approx => fn expit<T: Float>(x) -> T {
                math_extra::via_f64(x, special::expit)
            };
            /// The log-odds `ln(x / (1 - x))`, the inverse of [`expit`](crate::Array::expit)
            /// (scipy's `logit`: `-inf` at 0, `inf` at 1, NaN outside `[0, 1]`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let p = Array::<f64, B>::from_vec(vec![0.5, 0.0, 1.0], &[3], dev)?;
            /// assert_eq!(p.logit()?.to_vec()?, vec![0.0, f64::NEG_INFINITY, f64::INFINITY]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Logit, "logit", Unary, Approx => fn logit<T: Float>(x) -> T {
                math_extra::via_f64(x, special::logit)
            };
            /// `ln(expit(x))` without overflow or cancellation (scipy's `log_expit`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![-1000.0, 0.0], &[2], dev)?;
            /// let y = x.log_expit()?.to_vec()?;
            /// assert_eq!(y[0], -1000.0);
            /// assert_eq!(y[1], -std::f64::consts::LN_2);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            LogExpit, "log_expit", Unary, Approx => fn log_expit<T: Float>(x) -> T {
                math_extra::via_f64(x, special::log_expit)
            };
            /// The entropy term `-x ln x` (scipy's `entr`): 0 at either zero, `-inf` for
            /// negative `x`.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.0, -1.0], &[3], dev)?;
            /// let h = x.entr()?.to_vec()?;
            /// assert_eq!(h, vec![0.0, 0.0, f64::NEG_INFINITY]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Entr, "entr", Unary, Approx => fn entr<T: Float>(x) -> T {
                math_extra::via_f64(x, special::entr)
            };
            /// `x * ln(y)`, 0 where `x` is 0 and `y` is not NaN (scipy's `xlogy`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 2.0], &[2], dev)?;
            /// let y = Array::<f64, B>::from_vec(vec![0.0, 1.0], &[2], dev)?;
            /// assert_eq!(x.xlogy(&y)?.to_vec()?, vec![0.0, 0.0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Xlogy, "xlogy", Binary, Approx => fn xlogy<T: Float>(x, y) -> T {
                math_extra::via_f64_2(x, y, special::xlogy)
            };
            /// `x * ln(1 + y)`, 0 where `x` is 0 and `y` is not NaN (scipy's `xlog1py`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 1.0], &[2], dev)?;
            /// let y = Array::<f64, B>::from_vec(vec![-1.0, 1e-20], &[2], dev)?;
            /// assert_eq!(x.xlog1py(&y)?.to_vec()?, vec![0.0, 1e-20]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Xlog1py, "xlog1py", Binary, Approx => fn xlog1py<T: Float>(x, y) -> T {
                math_extra::via_f64_2(x, y, special::xlog1py)
            };
            /// The beta function `gamma(a) gamma(b) / gamma(a + b)` (scipy's `beta`, cephes'
            /// algorithm: the values at non-positive integers, an asymptotic series when one
            /// argument dwarfs the other, logarithms beyond gamma's range).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![2.0, 0.5], &[2], dev)?;
            /// let b = Array::<f64, B>::from_vec(vec![3.0, 0.5], &[2], dev)?;
            /// let r = a.beta(&b)?.to_vec()?;
            /// assert!((r[0] - 1.0 / 12.0).abs() < 1e-15);
            /// assert!((r[1] - std::f64::consts::PI).abs() < 1e-14);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Beta, "beta", Binary, Approx => fn beta<T: Float>(a, b) -> T {
                math_extra::via_f64_2(a, b, special::beta)
            };
            /// `ln|beta(a, b)|` (scipy's `betaln`), finite far beyond the range of
            /// [`beta`](crate::Array::beta).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<f64, B>::from_vec(vec![2.0, 1000.0], &[2], dev)?;
            /// let b = Array::<f64, B>::from_vec(vec![3.0, 1000.0], &[2], dev)?;
            /// let r = a.betaln(&b)?.to_vec()?;
            /// assert!((r[0] + 12f64.ln()).abs() < 1e-14);
            /// assert!((r[1] / -1388.482601635902 - 1.0).abs() < 1e-13);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            BetaLn, "betaln", Binary, Approx => fn betaln<T: Float>(a, b) -> T {
                math_extra::via_f64_2(a, b, special::betaln)
            };
            // ---- math_extra.rs: NumPy's integer and float extras
            /// The greatest common divisor of `|a|` and `|b|` (NumPy's `gcd`; `gcd(0, 0) == 0`,
            /// and `gcd(MIN, 0) == MIN`, the magnitude wrapping as NumPy's).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<i32, B>::from_vec(vec![12, -18, 0], &[3], dev)?;
            /// let b = Array::<i32, B>::from_vec(vec![18, 12, 0], &[3], dev)?;
            /// assert_eq!(a.gcd(&b)?.to_vec()?, vec![6, 6, 0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Gcd, "gcd", Binary, Exact => fn gcd<T: Integer>(a, other) -> T {
                math_extra::gcd(a, other)
            };
            /// The least common multiple `|a| / gcd * |b|` (NumPy's `lcm`; 0 when either is 0,
            /// wrapping on overflow).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<i64, B>::from_vec(vec![4, -6, 0], &[3], dev)?;
            /// let b = Array::<i64, B>::from_vec(vec![6, 4, 5], &[3], dev)?;
            /// assert_eq!(a.lcm(&b)?.to_vec()?, vec![12, 12, 0]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Lcm, "lcm", Binary, Exact => fn lcm<T: Integer>(a, other) -> T {
                math_extra::lcm(a, other)
            };
            /// The number of one bits of `|x|`, as u8 (NumPy's `bitwise_count`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let a = Array::<i32, B>::from_vec(vec![7, -1, 0, i32::MIN], &[4], dev)?;
            /// assert_eq!(a.bitwise_count()?.to_vec()?, vec![3u8, 1, 0, 1]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            BitwiseCount, "bitwise_count", Unary, Exact => fn bitwise_count<T: Integer>(x) -> u8 {
                math_extra::bitwise_count(x)
            };
            /// The distance from `x` to the next representable value away from zero (NumPy's
            /// `spacing`: negative for negative `x`, the smallest positive subnormal at either
            /// zero, NaN at the infinities; 16-bit floats step in their own precision).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![1.0, -1.0], &[2], dev)?;
            /// assert_eq!(x.spacing()?.to_vec()?, vec![f64::EPSILON, -f64::EPSILON]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Spacing, "spacing", Unary, Exact => fn spacing<T: Float>(x) -> T {
                math_extra::spacing(x)
            };
            /// True at positive infinity (NumPy's `isposinf`; never for integers).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f32, B>::from_vec(vec![f32::INFINITY, f32::NEG_INFINITY, 1.0], &[3], dev)?;
            /// assert_eq!(x.isposinf()?.to_vec()?, vec![true, false, false]);
            /// assert_eq!(x.isneginf()?.to_vec()?, vec![false, true, false]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            IsPosInf, "isposinf", Unary, Exact => fn isposinf<T: Real>(x) -> bool {
                x.to_f64_lossy() == f64::INFINITY
            };
            /// True at negative infinity (NumPy's `isneginf`; never for integers).
            IsNegInf, "isneginf", Unary, Exact => fn isneginf<T: Real>(x) -> bool {
                x.to_f64_lossy() == f64::NEG_INFINITY
            };
            /// `+x`: the values unchanged, into a new array (NumPy's `positive`).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<i64, B>::from_vec(vec![-2, 3], &[2], dev)?;
            /// assert_eq!(x.positive()?.to_vec()?, vec![-2, 3]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Positive, "positive", Unary, Exact => fn positive<T: Numeric>(x) -> T {
                x
            };
            /// The mantissa `m` of `x = m * 2^e`, `0.5 <= |m| < 1` (the first result of NumPy's
            /// `frexp`, [`Array::frexp`](crate::Array::frexp); `x` itself for zeros,
            /// infinities and NaN).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![8.0, -3.0], &[2], dev)?;
            /// assert_eq!(x.frexp_mantissa()?.to_vec()?, vec![0.5, -0.75]);
            /// assert_eq!(x.frexp_exponent()?.to_vec()?, vec![4, 2]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            FrexpMantissa, "frexp_mantissa", Unary, Exact => fn frexp_mantissa<T: Float>(x) -> T {
                math_extra::frexp(x).0
            };
            /// The exponent `e` of `x = m * 2^e`, `0.5 <= |m| < 1`, as i32 (the second result of
            /// NumPy's `frexp`; 0 for zeros, infinities and NaN).
            FrexpExponent, "frexp_exponent", Unary, Exact => fn frexp_exponent<T: Float>(x) -> i32 {
                math_extra::frexp(x).1
            };
            /// `x * 2^n`, correctly rounded (C's `ldexp`), with the exponent `n` carried as an
            /// integer-valued float of the element type: truncated toward zero, NaN read as 0,
            /// clamped to `±2200` (beyond which every finite result is 0 or infinite). Its
            /// method, [`Array::ldexp`](crate::Array::ldexp), takes integer exponents as NumPy's
            /// does; 16-bit floats compute in f32 and round once.
            Ldexp, "ldexp", Binary, Exact;
            /// NaN to zero, positive infinity to the type's largest finite value and negative
            /// infinity to its most negative one, every other value unchanged (NumPy's
            /// `nan_to_num(x)` with its defaults; 16-bit floats keep their own largest value);
            /// a complex value has its real and imaginary parts replaced each on its own.
            /// Other replacement values: [`Array::nan_to_num_with`](crate::Array::nan_to_num_with).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.5], &[4], dev)?;
            /// assert_eq!(x.nan_to_num()?.to_vec()?, vec![0.0, f64::MAX, f64::MIN, -0.5]);
            /// let h = Array::<f16, B>::from_vec(vec![f16::INFINITY], &[1], dev)?;
            /// assert_eq!(h.nan_to_num()?.to_vec()?, vec![f16::MAX]);
            /// let z = Array::<c64, B>::from_vec(vec![c64::new(f32::NAN, f32::NEG_INFINITY)], &[1], dev)?;
            /// assert_eq!(z.nan_to_num()?.to_vec()?, vec![c64::new(0.0, f32::MIN)]);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            NanToNum, "nan_to_num", Unary, Exact => fn nan_to_num<T: Inexact>(x) -> T {
                signal_math::nan_to_num(x)
            };
            // ---- signal_math.rs: NumPy's sinc and i0 (f64 inside, rounded once)
            /// NumPy's normalised sinc `sin(pi x) / (pi x)`, 1 at `±0` (NumPy divides at
            /// `1e-20` there), NaN at `±inf`; computed in f64 (complex: c128, as
            /// `sin(pi z) / (pi z)` with num-complex's `sin` and division) and rounded once
            /// to the element type (NumPy's own float32 arithmetic gives NaN where `pi x`
            /// overflows float32).
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, 0.5, 1.0], &[3], dev)?;
            /// let s = x.sinc()?.to_vec()?;
            /// assert_eq!(s[0], 1.0);
            /// assert!((s[1] - 2.0 / std::f64::consts::PI).abs() < 1e-16 && s[2].abs() < 1e-16);
            /// let z = Array::<c128, B>::from_vec(vec![c128::new(0.0, 0.0), c128::new(0.0, 1.0)], &[2], dev)?;
            /// let s = z.sinc()?.to_vec()?;
            /// assert_eq!(s[0], c128::new(1.0, 0.0));
            /// // sinc(i) = sinh(pi) / pi, real.
            /// assert!((s[1].re - std::f64::consts::PI.sinh() / std::f64::consts::PI).abs() < 1e-14);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            Sinc, "sinc", Unary, Approx => fn sinc<T: Inexact>(x) -> T {
                signal_math::sinc_any(x)
            };
            /// The modified Bessel function of the first kind of order 0, by NumPy's method
            /// (`np.i0`: Cephes' Chebyshev expansions on [0, 8] and beyond, of `|x|`): even,
            /// `inf` from `|x| > 709.8` (where `exp` overflows), NaN at `±inf` and NaN;
            /// computed in f64 and rounded once to the element type.
            ///
            /// ```
            /// # use cuprite_core::*;
            /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
            /// let x = Array::<f64, B>::from_vec(vec![0.0, -1.0, 10.0], &[3], dev)?;
            /// let v = x.i0()?.to_vec()?;
            /// assert_eq!(v[0], 1.0);
            /// assert!((v[1] - 1.2660658777520082).abs() < 1e-15);
            /// assert!((v[2] / 2815.716628466254 - 1.0).abs() < 1e-15);
            /// # Ok(()) }
            /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
            /// ```
            I0, "i0", Unary, Approx => fn i0<T: Float>(x) -> T {
                math_extra::via_f64(x, signal_math::i0)
            };
            /// `|x - mean|^2` in the real type, or `-1` where `x` is NaN (complex: either part):
            /// the marked squared deviations that [`NanVar`] sums. A deviation that is NaN for
            /// another reason (`inf - inf`) stays NaN and poisons the lane, as in NumPy.
            NanSqDev, "nan_sq_dev", Binary, Exact;
        }
    };
}

/// Calls the macro `$callback` with the list of every reduction and scan, in the form of
/// [`elementwise_ops!`](crate::elementwise_ops) with the kinds `Reduce` and `Scan`.
#[macro_export]
macro_rules! reduction_ops {
    ($callback:ident) => {
        $callback! {
            /// Sum in the accumulation type (`i64` for bool and signed integers, `u64` for
            /// unsigned ones).
            Sum, "sum", Reduce, Approx;
            /// Sum treating NaN as zero.
            NanSum, "nansum", Reduce, Approx;
            /// Product in the accumulation type.
            Prod, "prod", Reduce, Approx;
            /// Arithmetic mean in the mean type (`f64` for bool and integers).
            Mean, "mean", Reduce, Approx;
            /// Smallest value; NaN if any is NaN. Empty input has no identity (core rejects
            /// it).
            Min, "min", Reduce, Exact;
            /// Largest value; NaN if any is NaN. Empty input has no identity (core rejects
            /// it).
            Max, "max", Reduce, Exact;
            /// Smallest non-NaN value (NaN if all are NaN).
            NanMin, "nanmin", Reduce, Exact;
            /// Largest non-NaN value (NaN if all are NaN).
            NanMax, "nanmax", Reduce, Exact;
            /// Every value truthy.
            All, "all", Reduce, Exact;
            /// Some value truthy.
            Any, "any", Reduce, Exact;
            /// Number of truthy values.
            CountNonzero, "count_nonzero", Reduce, Exact;
            /// Mean of the non-NaN values in the mean type (NaN when every value is NaN).
            NanMean, "nanmean", Reduce, Approx;
            /// Sum of squared magnitudes `sum(|x|^2)` in one pass, as a real value (the
            /// square of the 2-norm; `sqrt` of it is `np.linalg.norm` of a vector).
            SumAbsSq, "sum_abs_sq", Reduce, Approx;
            // var's last step: a sum over `count - ddof` degrees of freedom (reduce.rs).
            DdofMean, "var", Reduce, Approx, params;
            /// Product in the accumulation type treating NaN as one (NumPy's `nanprod`; bool and
            /// integers: their `prod`, in i64).
            NanProd, "nanprod", Reduce, Approx;
            // nanvar's last step over the deviations marked by nan_sq_dev (nanreduce.rs).
            NanVar, "nanvar", Reduce, Approx, params;
            /// Inclusive running sum in the accumulation type.
            CumSum, "cumsum", Scan, Approx;
            /// Inclusive running product in the accumulation type.
            CumProd, "cumprod", Scan, Approx;
        }
    };
}

/// Declares the ops of a registry list: the structs of unit ops, every op's [`Declared`] and
/// the op trait's impl of the ops declared with `=> fn` (invoked by `ops/mod.rs`, where the
/// op structs live, so that a body's paths start there: `math_extra::log_add_exp`).
macro_rules! declare_ops {
    ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
        $(, $params:ident)?
        $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+) -> $out:ty $body:block)?;
    )*) => {
        $( declare_ops!(@one [$($params)?] $(#[$m])* $ty $(<$g>)?, $name, $kind, $tol);
           $( declare_ops!(@apply $kind $ty, $name, $t, $bound, ($($arg),+), $out, $body); )? )*
    };
    (@one [$($params:ident)?] $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal,
        $kind:ident, $tol:ident) => {
        declare_ops!(@struct [$($params)?] $(#[$m])* $ty);
        impl<$($g: $crate::dtype::Element)?> $crate::ops::registry::Declared for $ty $(<$g>)? {
            const DECL: $crate::ops::registry::OpDecl =
                declare_ops!(@decl $ty $(<$g>)?, $name, $kind, $tol);
            fn examples() -> Vec<Self> {
                declare_ops!(@examples [$($params)?] $ty)
            }
        }
    };
    (@struct [] $(#[$m:meta])* $ty:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct $ty;
    };
    (@struct [params] $(#[$m:meta])* $ty:ident) => {};
    (@examples [] $ty:ident) => {
        vec![$ty]
    };
    (@examples [params] $ty:ident) => {
        Self::parameter_examples()
    };
    // An integer-only bound has no 16-bit float: the body is the op.
    (@apply Unary $ty:ident, $name:literal, $t:ident, Integer, ($x:ident), $out:ty, $body:block) => {
        impl<$t: $crate::dtype::Integer> $crate::ops::UnaryOp<$t> for $ty {
            type Out = $out;
            #[inline(always)]
            fn apply(&self, $x: $t) -> $out $body
        }
    };
    (@apply Binary $ty:ident, $name:literal, $t:ident, Integer, ($a:ident, $b:ident), $out:ty,
        $body:block) => {
        impl<$t: $crate::dtype::Integer> $crate::ops::BinaryOp<$t> for $ty {
            type Out = $out;
            #[inline(always)]
            fn apply(&self, $a: $t, $b: $t) -> $out $body
        }
    };
    // A 16-bit float runs the body in f32 and rounds the result once, as NumPy's float16
    // loops do (the CUDA backend's `half_op` does the same), unless the op is one of
    // `HALF_OWN_BITS`.
    (@apply Unary $ty:ident, $name:literal, $t:ident, $bound:ident, ($x:ident), $out:ty, $body:block) => {
        impl<$t: $crate::dtype::$bound> $crate::ops::UnaryOp<$t> for $ty {
            type Out = $out;
            #[inline(always)]
            fn apply(&self, $x: $t) -> $out {
                #[inline(always)]
                fn body<$t: $crate::dtype::$bound>($x: $t) -> $out $body
                if <$t as $crate::dtype::Element>::DTYPE.is_half()
                    && !$crate::ops::registry::half_own_bits($name)
                {
                    let r = body::<f32>($crate::dtype::Element::cast($x));
                    $crate::dtype::Element::from_scalar($crate::dtype::Element::to_scalar(r))
                } else {
                    body($x)
                }
            }
        }
    };
    (@apply Binary $ty:ident, $name:literal, $t:ident, $bound:ident, ($a:ident, $b:ident), $out:ty,
        $body:block) => {
        impl<$t: $crate::dtype::$bound> $crate::ops::BinaryOp<$t> for $ty {
            type Out = $out;
            #[inline(always)]
            fn apply(&self, $a: $t, $b: $t) -> $out {
                #[inline(always)]
                fn body<$t: $crate::dtype::$bound>($a: $t, $b: $t) -> $out $body
                if <$t as $crate::dtype::Element>::DTYPE.is_half()
                    && !$crate::ops::registry::half_own_bits($name)
                {
                    let r = body::<f32>(
                        $crate::dtype::Element::cast($a),
                        $crate::dtype::Element::cast($b),
                    );
                    $crate::dtype::Element::from_scalar($crate::dtype::Element::to_scalar(r))
                } else {
                    body($a, $b)
                }
            }
        }
    };
    (@decl $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident) => {
        $crate::ops::registry::OpDecl {
            name: $name,
            kind: $crate::ops::registry::OpKind::$kind,
            tolerance: $crate::ops::registry::Tolerance::$tol,
            rust: concat!(stringify!($ty) $(, "<", stringify!($g), ">")?),
        }
    };
}
pub(super) use declare_ops;

/// The declarations of a registry list, as a slice.
macro_rules! decl_table {
    ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
        $(, $params:ident)?
        $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+) -> $out:ty $body:block)?;
    )*) => {
        &[$( declare_ops!(@decl $ty $(<$g>)?, $name, $kind, $tol) ),*]
    };
}

/// Every element-wise op (kinds `Unary` and `Binary`), in declaration order.
pub const ELEMENTWISE: &[OpDecl] = crate::elementwise_ops!(decl_table);

/// Every reduction and scan (kinds `Reduce` and `Scan`), in declaration order.
pub const REDUCTIONS: &[OpDecl] = crate::reduction_ops!(decl_table);

/// Declares the arg-reductions: each [`ArgKind`] with its NumPy name.
macro_rules! arg_reductions {
    ($($kind:ident => $name:literal),* $(,)?) => {
        /// Every arg-reduction (the [`ArgKind`]s) with its name; a backend names its device
        /// code after the name (the CUDA backend: `red_<name>`).
        pub const ARG_REDUCTIONS: &[(ArgKind, &str)] = &[$((ArgKind::$kind, $name)),*];

        /// The name of an arg-reduction (`"argmin"`, `"argmax"`).
        pub const fn arg_reduction_name(kind: ArgKind) -> &'static str {
            match kind {
                $(ArgKind::$kind => $name,)*
            }
        }
    };
}

arg_reductions! {
    Min => "argmin",
    Max => "argmax",
}

/// The declaration of the op called `name` (element-wise, reduction or scan).
pub fn find(name: &str) -> Option<&'static OpDecl> {
    ELEMENTWISE
        .iter()
        .chain(REDUCTIONS)
        .find(|d| d.name == name)
}

#[cfg(test)]
mod tests;
