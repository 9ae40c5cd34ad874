//! Element-wise mathematics on arrays: `abs`, `sqrt`, `exp`, logarithms, trigonometric and
//! hyperbolic functions, rounding, `sign`, `power`, `arctan2`, `hypot`, `maximum`/`minimum`,
//! `clip`, `floor_divide`/`remainder`/`fmod`, and the parts of complex numbers.
//!
//! **Names.** Methods carry NumPy's names (`arcsin`, `arctan2`, `arccosh`, ...); the short
//! Rust names (`asin`, `atan2`, `acosh`, ...) exist as aliases that call them. Every method
//! returns a new C-contiguous array and never modifies `self`.
//!
//! **Types.** Each method is bounded by the element types NumPy defines it on, so `conj` of
//! an `i32` array is a compile error: [`Inexact`] (f16, bf16, f32, f64, c64, c128) for
//! `conj` and `reciprocal`; [`Float`] for real-only functions (`arctan2`, `hypot`,
//! `copysign`); [`Real`] (integers and floats) for rounding, `maximum`, `clip`,
//! `fmod`; [`Numeric`] (everything but bool) for `abs`, `sign`, `square`, `power`. The float
//! functions (`sqrt`, `exp`, `log`, the trigonometric and hyperbolic ones, `cbrt`, `expm1`,
//! `log1p`) also take integer and bool arrays and give NumPy's float type for them
//! ([`Element::FloatOut`]: `sqrt` of an `i64` array is `f64`, of a `u8` array `f16`).
//!
//! The methods of the ops declared with their semantics in the registry (`=> fn`, such as
//! `logaddexp` or `deg2rad`) are generated from their entries (`declared.rs`); aliases of
//! them (`radians`, `degrees`) are here.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Float, Inexact, Numeric, Real};
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::ops::*;

/// Defines argument-less element-wise methods returning `Array<T, B>`.
macro_rules! unary_methods {
    ($bound:ident: $($(#[$m:meta])* $name:ident => $op:expr;)*) => {
        impl<T: $bound, B: ArrayBackend> Array<T, B> {
            $(
                $(#[$m])*
                pub fn $name(&self) -> Result<Self> {
                    self.map_op($op)
                }
            )*
        }
    };
}

/// Defines NumPy's float functions of one value (`sqrt`, `exp`, `sin`, ...) for every element
/// type: integers and bools are converted to [`Element::FloatOut`] first (f16 for bool and
/// 8-bit integers, f32 for 16-bit ones, f64 for wider ones, as NumPy's loops), floats and
/// complex values are mapped as they are. `$float` is the bound the function's float type
/// must meet (`Inexact`, or `Float` for the real-only ones).
macro_rules! float_methods {
    ($float:ident: $($(#[$m:meta])* $name:ident => $op:expr;)*) => {
        impl<T: Element, B: ArrayBackend> Array<T, B>
        where
            T::FloatOut: $float,
        {
            $(
                $(#[$m])*
                pub fn $name(&self) -> Result<Array<T::FloatOut, B>> {
                    crate::promote::promoted::<T, T::FloatOut, B>(self)?.get().map_op($op)
                }
            )*
        }
    };
}

/// Defines methods that are aliases of float functions ([`float_methods`]).
macro_rules! float_alias_methods {
    ($float:ident: $($alias:ident => $target:ident;)*) => {
        impl<T: Element, B: ArrayBackend> Array<T, B>
        where
            T::FloatOut: $float,
        {
            $(
                #[doc = concat!("Alias of [`Array::", stringify!($target), "`].")]
                pub fn $alias(&self) -> Result<Array<T::FloatOut, B>> {
                    self.$target()
                }
            )*
        }
    };
}

/// Defines methods that are aliases of other methods.
macro_rules! alias_methods {
    ($bound:ident: $($alias:ident => $target:ident;)*) => {
        impl<T: $bound, B: ArrayBackend> Array<T, B> {
            $(
                #[doc = concat!("Alias of [`Array::", stringify!($target), "`].")]
                pub fn $alias(&self) -> Result<Self> {
                    self.$target()
                }
            )*
        }
    };
}

float_methods! { Inexact:
    /// Square root; NaN for negative reals, the principal root for complex values.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![4.0, -1.0], &[2], dev)?;
    /// let r = a.sqrt()?.to_vec()?;
    /// assert_eq!(r[0], 2.0);
    /// assert!(r[1].is_nan());
    /// let z = Array::<c128, B>::from_vec(vec![c128::new(-1.0, 0.0)], &[1], dev)?;
    /// assert_eq!(z.sqrt()?.to_vec()?, vec![c128::new(0.0, 1.0)]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    sqrt => Sqrt;
    /// `e^x`.
    exp => Exp;
    /// `2^x`.
    exp2 => Exp2;
    /// Natural logarithm (`-inf` at 0, NaN for negative reals; principal branch for complex).
    log => Log;
    /// Base-2 logarithm.
    log2 => Log2;
    /// Base-10 logarithm.
    log10 => Log10;
    /// Sine (radians).
    sin => Sin;
    /// Cosine (radians).
    cos => Cos;
    /// Tangent (radians).
    tan => Tan;
    /// Inverse sine (NumPy's name; alias [`Array::asin`]).
    arcsin => Asin;
    /// Inverse cosine (NumPy's name; alias [`Array::acos`]).
    arccos => Acos;
    /// Inverse tangent (NumPy's name; alias [`Array::atan`]).
    arctan => Atan;
    /// Hyperbolic sine.
    sinh => Sinh;
    /// Hyperbolic cosine.
    cosh => Cosh;
    /// Hyperbolic tangent.
    tanh => Tanh;
    /// Inverse hyperbolic sine (NumPy's name; alias [`Array::asinh`]).
    arcsinh => Asinh;
    /// Inverse hyperbolic cosine (NumPy's name; alias [`Array::acosh`]).
    arccosh => Acosh;
    /// Inverse hyperbolic tangent (NumPy's name; alias [`Array::atanh`]).
    arctanh => Atanh;
}

unary_methods! { Inexact:
    /// `1 / x` (`inf` at 0).
    reciprocal => Reciprocal;
    /// The complex conjugate (the array's values for real floats).
    conj => Conj;
}

float_alias_methods! { Inexact:
    asin => arcsin;
    acos => arccos;
    atan => arctan;
    asinh => arcsinh;
    acosh => arccosh;
    atanh => arctanh;
}

alias_methods! { Inexact:
    conjugate => conj;
}

alias_methods! { Float:
    radians => deg2rad;
    degrees => rad2deg;
}

float_methods! { Float:
    /// Cube root (real, negative for negative input).
    cbrt => Cbrt;
    /// `e^x - 1`, accurate near zero.
    expm1 => Expm1;
    /// `ln(1 + x)`, accurate near zero.
    log1p => Log1p;
}

unary_methods! { Real:
    /// Largest integer not above each element (integers are returned unchanged).
    floor => Floor;
    /// Smallest integer not below each element (integers are returned unchanged).
    ceil => Ceil;
    /// Integer part, rounding toward zero (integers are returned unchanged).
    trunc => Trunc;
    /// Nearest integer, halves to even (`rint(2.5) == 2.0`; integers unchanged).
    rint => RoundHalfEven;
    /// Nearest integer, halves to even: NumPy's `round(x)` with 0 decimals, the same as
    /// [`Array::rint`]. See [`Array::round_decimals`] for other precisions.
    round => RoundHalfEven;
}

unary_methods! { Numeric:
    /// `x * x` (wrapping for integers).
    square => Square;
    /// -1, 0 or 1 by the sign of each element; NaN stays NaN and `sign(-0.0)` is `0.0`;
    /// complex values give `z / |z|` (NumPy 2), 0 for 0.
    sign => Sign;
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// Rounds to `decimals` decimal places with halves to even, as `np.round(a, decimals)`:
    /// floats compute `rint(x * 10^d) / 10^d` (so results carry the usual binary rounding,
    /// `round(2.675, 2) == 2.67`), negative `decimals` round to tens, hundreds, ...;
    /// integers are unchanged for `decimals >= 0` and rounded half to even to a multiple of
    /// `10^-decimals` otherwise (`round(25, -1) == 20`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.25, 1.35, 150.0], &[3], dev)?;
    /// assert_eq!(a.round_decimals(1)?.to_vec()?, vec![1.2, 1.4, 150.0]);
    /// assert_eq!(a.round_decimals(-2)?.to_vec()?, vec![0.0, 0.0, 200.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn round_decimals(&self, decimals: i32) -> Result<Self> {
        self.map_op(RoundDecimals { decimals })
    }

    /// NumPy's `maximum`: the larger element of each pair, broadcast; NaN if either is NaN.
    pub fn maximum(&self, other: &Self) -> Result<Self> {
        self.zip_op(Maximum, other)
    }
    /// NumPy's `minimum`: the smaller element of each pair, broadcast; NaN if either is NaN.
    pub fn minimum(&self, other: &Self) -> Result<Self> {
        self.zip_op(Minimum, other)
    }
    /// NumPy's `fmax`: the larger element of each pair, ignoring a NaN (NaN only if both).
    pub fn fmax(&self, other: &Self) -> Result<Self> {
        self.zip_op(Fmax, other)
    }
    /// NumPy's `fmin`: the smaller element of each pair, ignoring a NaN (NaN only if both).
    pub fn fmin(&self, other: &Self) -> Result<Self> {
        self.zip_op(Fmin, other)
    }
    /// `maximum(self, s)` with a scalar.
    pub fn maximum_scalar(&self, s: T) -> Result<Self> {
        self.scalar_op(Maximum, s)
    }
    /// `minimum(self, s)` with a scalar.
    pub fn minimum_scalar(&self, s: T) -> Result<Self> {
        self.scalar_op(Minimum, s)
    }

    /// Limits every element to `[lo, hi]`: `minimum(maximum(x, lo), hi)`, as `np.clip`. A
    /// NaN element or bound gives NaN; when `lo > hi` every element becomes `hi`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![-5, 3, 12], &[3], dev)?;
    /// assert_eq!(a.clip(0, 10)?.to_vec()?, vec![0, 3, 10]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn clip(&self, lo: T, hi: T) -> Result<Self> {
        self.map_op(Clip { lo, hi })
    }

    /// `np.clip(self, lo, hi)` with array bounds, all three broadcast together.
    pub fn clip_arrays(&self, lo: &Self, hi: &Self) -> Result<Self> {
        self.check_device(lo, "clip")?;
        self.check_device(hi, "clip")?;
        let shape = broadcast_shapes("clip", self.shape(), lo.shape())?;
        broadcast_shapes("clip", &shape, hi.shape())?;
        self.zip_op(Maximum, lo)?.zip_op(Minimum, hi)
    }

    /// Python's floor division `self // other`, broadcast (integers: `x // 0 == 0`, as
    /// NumPy; floats: `±inf` or NaN).
    pub fn floor_divide(&self, other: &Self) -> Result<Self> {
        self.zip_op(FloorDiv, other)
    }
    /// Python's remainder `self % other` with the sign of the divisor, broadcast (integers:
    /// `x % 0 == 0`; floats: NaN). NumPy's `remainder`/`mod`.
    pub fn remainder(&self, other: &Self) -> Result<Self> {
        self.zip_op(Rem, other)
    }
    /// C's `fmod`: the remainder with the sign of the dividend, broadcast (integers:
    /// `x fmod 0 == 0`; floats: NaN).
    pub fn fmod(&self, other: &Self) -> Result<Self> {
        self.zip_op(Fmod, other)
    }

    /// `self ** other` computed in f64 (NumPy's `float_power`), broadcast: no integer
    /// overflow, negative exponents allowed.
    pub fn float_power(&self, other: &Self) -> Result<Array<f64, B>> {
        self.check_device(other, "float_power")?;
        broadcast_shapes("float_power", self.shape(), other.shape())?;
        self.astype::<f64>()?.zip_op(Pow, &other.astype::<f64>()?)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// Absolute value, in [`Element::Real`]: the modulus `hypot(re, im)` for complex arrays
    /// (`Array<c64>` gives `Array<f32>`), the same type otherwise. Integers wrap at `MIN`
    /// (`abs(i32::MIN) == i32::MIN`), as NumPy.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let z = Array::<c64, B>::from_vec(vec![c64::new(3.0, -4.0)], &[1], dev)?;
    /// let m: Array<f32, B> = z.abs()?;
    /// assert_eq!(m.to_vec()?, vec![5.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn abs(&self) -> Result<Array<T::Real, B>> {
        self.map_op(Abs)
    }
    /// Alias of [`Array::abs`] (NumPy's `absolute`).
    pub fn absolute(&self) -> Result<Array<T::Real, B>> {
        self.abs()
    }

    /// `self ** other`, broadcast (NumPy's `power`). Integers use exponentiation by squaring
    /// and wrap on overflow. Floats follow C's `pow`; complex values NumPy's `npy_cpow`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `other` is a signed integer array holding a negative
    /// exponent: "Integers to negative integer powers are not allowed", as NumPy. Finding
    /// out reads the smallest exponent back to the host (one reduction and a wait for the
    /// device) for signed integer types only; [`Array::pow_scalar`] checks its scalar
    /// without touching the device.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![2, 3, -2], &[3], dev)?;
    /// let e = Array::<i64, B>::from_vec(vec![10, 0, 3], &[3], dev)?;
    /// assert_eq!(a.pow(&e)?.to_vec()?, vec![1024, 1, -8]);
    /// let negative = Array::<i64, B>::from_vec(vec![1, -1, 2], &[3], dev)?;
    /// assert!(a.pow(&negative).is_err());
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn pow(&self, other: &Self) -> Result<Self> {
        if T::DTYPE.is_signed_integer() && other.size() > 0 {
            // Signed integers widen to i64 exactly.
            let lowest = other.astype::<i64>()?.min()?.item()?;
            if lowest < 0 {
                return Err(Error::invalid(
                    "power",
                    format!(
                        "Integers to negative integer powers are not allowed (exponent \
                         {lowest:?} in a {} array of shape {:?})",
                        T::DTYPE,
                        other.shape()
                    ),
                ));
            }
        }
        self.zip_op(Pow, other)
    }
    /// Alias of [`Array::pow`] (NumPy's name).
    pub fn power(&self, other: &Self) -> Result<Self> {
        self.pow(other)
    }

    /// `self ** s` with a scalar exponent.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an integer array and a negative exponent: "Integers to
    /// negative integer powers are not allowed", as NumPy.
    pub fn pow_scalar(&self, s: T) -> Result<Self> {
        if T::DTYPE.is_integer() && s.sort_cmp(&T::ZERO).is_lt() {
            return Err(Error::invalid(
                "power",
                format!(
                    "Integers to negative integer powers are not allowed (exponent {s:?} for \
                     a {} array)",
                    T::DTYPE
                ),
            ));
        }
        if T::DTYPE.is_float() && s == T::from_f64(2.0) {
            // `pow(x, 2)` is exactly `x * x`, a fraction of the cost of `powf`.
            return self.map_op(Square);
        }
        self.scalar_op(Pow, s)
    }
}

impl<T: Float, B: ArrayBackend> Array<T, B> {
    /// NumPy's `arctan2(self, other)`: the angle of the point `(other, self)` in `[-pi, pi]`,
    /// broadcast, respecting signed zeros (`arctan2(0.0, -0.0) == pi`).
    pub fn arctan2(&self, other: &Self) -> Result<Self> {
        self.zip_op(Atan2, other)
    }
    /// Alias of [`Array::arctan2`].
    pub fn atan2(&self, other: &Self) -> Result<Self> {
        self.arctan2(other)
    }
    /// `sqrt(self^2 + other^2)` without intermediate overflow, broadcast.
    pub fn hypot(&self, other: &Self) -> Result<Self> {
        self.zip_op(Hypot, other)
    }
    /// The magnitude of `self` with the sign bit of `other`, broadcast.
    pub fn copysign(&self, other: &Self) -> Result<Self> {
        self.zip_op(Copysign, other)
    }
}

impl<T: Inexact, B: ArrayBackend> Array<T, B> {
    /// The real parts as an array of [`Inexact::RealPart`] (a copy of the values for real
    /// floats).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let z = Array::<c128, B>::from_vec(vec![c128::new(1.0, -2.0)], &[1], dev)?;
    /// assert_eq!(z.real()?.to_vec()?, vec![1.0]);
    /// assert_eq!(z.imag()?.to_vec()?, vec![-2.0]);
    /// assert_eq!(z.conj()?.to_vec()?, vec![c128::new(1.0, 2.0)]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn real(&self) -> Result<Array<<T as Inexact>::RealPart, B>> {
        self.map_op(Re)
    }
    /// The imaginary parts as an array of [`Inexact::RealPart`] (zeros for real floats).
    pub fn imag(&self) -> Result<Array<<T as Inexact>::RealPart, B>> {
        self.map_op(Im)
    }
    /// The argument `atan2(im, re)` in radians, in `[-pi, pi]` (NumPy's `angle`; for real
    /// floats 0, or pi for negative values and -0.0).
    pub fn angle(&self) -> Result<Array<<T as Inexact>::RealPart, B>> {
        self.map_op(Angle)
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// True where an element is NaN (complex: either part); all false for bool and integers.
    pub fn isnan(&self) -> Result<Array<bool, B>> {
        self.map_op(IsNan)
    }
    /// True where an element is infinite (complex: either part); all false for bool and
    /// integers.
    pub fn isinf(&self) -> Result<Array<bool, B>> {
        self.map_op(IsInf)
    }
    /// True where an element is neither NaN nor infinite (complex: both parts); all true
    /// for bool and integers.
    pub fn isfinite(&self) -> Result<Array<bool, B>> {
        self.map_op(IsFinite)
    }
}
