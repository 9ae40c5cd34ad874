//! Element types: the sealed [`Element`] trait, the runtime [`DType`] tag, the category traits
//! ([`Numeric`], [`Real`], [`Integer`], [`Float`], [`Inexact`], [`ComplexElement`]) that let
//! the compiler reject `sin` of a `bool`, and NumPy's type-promotion rule ([`result_type`]).

use num_complex::{Complex, ComplexFloat};
use std::cmp::Ordering;
use std::fmt::{Debug, Display};

/// Single-precision complex number (NumPy's `complex64`).
#[allow(non_camel_case_types)]
pub type c64 = Complex<f32>;
/// Double-precision complex number (NumPy's `complex128`).
#[allow(non_camel_case_types)]
pub type c128 = Complex<f64>;

/// The runtime tag of an element type, named as NumPy names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    U8,
    I32,
    I64,
    F32,
    F64,
    C64,
    C128,
}

impl DType {
    /// Every dtype, in promotion order.
    pub const ALL: [DType; 8] = [
        DType::Bool,
        DType::U8,
        DType::I32,
        DType::I64,
        DType::F32,
        DType::F64,
        DType::C64,
        DType::C128,
    ];

    /// NumPy's name for the dtype (`"float64"`, `"complex64"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// Size of one element in bytes.
    pub fn size_of(self) -> usize {
        match self {
            DType::Bool | DType::U8 => 1,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// True for the signed and unsigned integer types (not bool).
    pub fn is_integer(self) -> bool {
        matches!(self, DType::U8 | DType::I32 | DType::I64)
    }

    /// True for f32 and f64.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }

    /// True for complex64 and complex128.
    pub fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }
}

impl Display for DType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// NumPy's `result_type` for two array dtypes: the smallest type both cast to safely.
///
/// ```
/// use cuprite_core::{result_type, DType};
/// assert_eq!(result_type(DType::I32, DType::F32), DType::F64);
/// assert_eq!(result_type(DType::U8, DType::I32), DType::I32);
/// assert_eq!(result_type(DType::F32, DType::C128), DType::C128);
/// assert_eq!(result_type(DType::I64, DType::C64), DType::C128);
/// ```
pub fn result_type(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    match (lo, hi) {
        (Bool, x) => x,
        (U8, x) => x,
        (I32, I64) => I64,
        (I32 | I64, F32) => F64,
        (I32 | I64, F64) => F64,
        (I32 | I64, C64) => C128,
        (_, C128) => C128,
        (F32, F64) => F64,
        (F32, C64) => C64,
        (F64, C64) => C128,
        _ => hi,
    }
}

/// A value of any element type, used for explicit casts and for printing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    U8(u8),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    C64(c64),
    C128(c128),
}

pub(crate) mod sealed {
    use crate::array::Array;
    use crate::backend::BackendBase;
    use crate::dynarray::DynArray;

    /// Seals [`Element`](super::Element) and carries what only core may call: the moves
    /// between `Array<Self, B>` and its [`DynArray`] variant, checked by the compiler.
    pub trait Sealed: Sized {
        /// The array in its variant of [`DynArray`].
        fn into_dyn<B: BackendBase>(a: Array<Self, B>) -> DynArray<B>
        where
            Self: super::Element;
        /// The typed array when `d` holds this element type, else `d` back.
        fn from_dyn<B: BackendBase>(d: DynArray<B>) -> Result<Array<Self, B>, DynArray<B>>
        where
            Self: super::Element;
    }
}

/// `impl Sealed for $t`: `$t`'s arrays are the variant `DynArray::$v`.
macro_rules! impl_sealed {
    ($t:ty, $v:ident) => {
        impl sealed::Sealed for $t {
            #[inline]
            fn into_dyn<B: crate::backend::BackendBase>(
                a: crate::array::Array<Self, B>,
            ) -> crate::dynarray::DynArray<B> {
                crate::dynarray::DynArray::$v(a)
            }
            #[inline]
            fn from_dyn<B: crate::backend::BackendBase>(
                d: crate::dynarray::DynArray<B>,
            ) -> Result<crate::array::Array<Self, B>, crate::dynarray::DynArray<B>> {
                match d {
                    crate::dynarray::DynArray::$v(a) => Ok(a),
                    other => Err(other),
                }
            }
        }
    };
}

/// An element type of an array: one of bool, u8, i32, i64, f32, f64, [`c64`], [`c128`].
///
/// The trait is sealed; its methods give every backend the scalar semantics NumPy uses.
pub trait Element:
    sealed::Sealed + Copy + Send + Sync + Debug + PartialEq + Default + 'static
{
    /// The runtime tag of this type.
    const DTYPE: DType;
    /// Type of `sum`/`prod`/`cumsum`: i64 for bool and integers, the type itself otherwise.
    type Accum: Numeric;
    /// Type of `mean`, `var`, true division: f64 for bool and integers, the type itself otherwise.
    type Mean: Inexact;
    /// Type of `abs` for complex types and of `real`/`imag`; the type itself otherwise.
    type Real: Element;

    /// The value as a [`Scalar`].
    fn to_scalar(self) -> Scalar;
    /// Converts from any scalar with NumPy's `astype` semantics (float to int truncates and
    /// saturates, NaN to int gives 0, complex to real drops the imaginary part, nonzero is true).
    fn from_scalar(s: Scalar) -> Self;
    /// Converts to any other element type, as [`Element::from_scalar`].
    #[inline]
    fn cast<U: Element>(self) -> U {
        U::from_scalar(self.to_scalar())
    }
    /// The total order used by sorting: NaN after every number (complex: lexicographic).
    fn sort_cmp(&self, other: &Self) -> Ordering;
    /// True for NaN (or a complex value with a NaN part).
    #[inline]
    fn is_nan_value(&self) -> bool {
        false
    }
    /// True where the value is nonzero (NumPy truthiness).
    fn is_truthy(&self) -> bool;
    /// Zero (false).
    const ZERO: Self;
    /// One (true).
    const ONE: Self;
}

macro_rules! scalar_to {
    ($s:expr, $t:ty, real) => {
        match $s {
            Scalar::Bool(v) => v as u8 as $t,
            Scalar::U8(v) => v as $t,
            Scalar::I32(v) => v as $t,
            Scalar::I64(v) => v as $t,
            Scalar::F32(v) => v as $t,
            Scalar::F64(v) => v as $t,
            Scalar::C64(v) => v.re as $t,
            Scalar::C128(v) => v.re as $t,
        }
    };
}

macro_rules! impl_real_element {
    ($t:ty, $dt:ident, $acc:ty, $mean:ty, $one:expr, float = $is_float:tt) => {
        impl_sealed!($t, $dt);
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            type Accum = $acc;
            type Mean = $mean;
            type Real = $t;
            #[inline]
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
            #[inline]
            fn from_scalar(s: Scalar) -> Self {
                scalar_to!(s, $t, real)
            }
            #[inline]
            fn sort_cmp(&self, other: &Self) -> Ordering {
                impl_real_element!(@cmp $is_float, self, other)
            }
            #[inline]
            fn is_nan_value(&self) -> bool {
                impl_real_element!(@nan $is_float, self)
            }
            #[inline]
            fn is_truthy(&self) -> bool {
                *self != (0 as $t)
            }
            const ZERO: Self = 0 as $t;
            const ONE: Self = $one;
        }
    };
    (@cmp true, $a:expr, $b:expr) => {
        match ($a.is_nan(), $b.is_nan()) {
            (false, false) => $a.partial_cmp($b).unwrap_or(Ordering::Equal),
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
        }
    };
    (@cmp false, $a:expr, $b:expr) => {
        $a.cmp($b)
    };
    (@nan true, $a:expr) => {
        $a.is_nan()
    };
    (@nan false, $a:expr) => {
        false
    };
}

impl_real_element!(u8, U8, i64, f64, 1, float = false);
impl_real_element!(i32, I32, i64, f64, 1, float = false);
impl_real_element!(i64, I64, i64, f64, 1, float = false);
impl_real_element!(f32, F32, f32, f32, 1.0, float = true);
impl_real_element!(f64, F64, f64, f64, 1.0, float = true);

impl_sealed!(bool, Bool);
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    type Accum = i64;
    type Mean = f64;
    type Real = bool;
    #[inline]
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    #[inline]
    fn from_scalar(s: Scalar) -> Self {
        match s {
            Scalar::Bool(v) => v,
            Scalar::U8(v) => v != 0,
            Scalar::I32(v) => v != 0,
            Scalar::I64(v) => v != 0,
            Scalar::F32(v) => v != 0.0,
            Scalar::F64(v) => v != 0.0,
            Scalar::C64(v) => v.re != 0.0 || v.im != 0.0,
            Scalar::C128(v) => v.re != 0.0 || v.im != 0.0,
        }
    }
    #[inline]
    fn sort_cmp(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    #[inline]
    fn is_truthy(&self) -> bool {
        *self
    }
    const ZERO: Self = false;
    const ONE: Self = true;
}

macro_rules! impl_complex_element {
    ($t:ty, $f:ty, $dt:ident) => {
        impl_sealed!($t, $dt);
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            type Accum = $t;
            type Mean = $t;
            type Real = $f;
            #[inline]
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
            #[inline]
            fn from_scalar(s: Scalar) -> Self {
                match s {
                    Scalar::C64(v) => Complex::new(v.re as $f, v.im as $f),
                    Scalar::C128(v) => Complex::new(v.re as $f, v.im as $f),
                    other => Complex::new(scalar_to!(other, $f, real), 0.0),
                }
            }
            #[inline]
            fn sort_cmp(&self, other: &Self) -> Ordering {
                let nan_a = self.re.is_nan() || self.im.is_nan();
                let nan_b = other.re.is_nan() || other.im.is_nan();
                match (nan_a, nan_b) {
                    (false, false) => self
                        .re
                        .partial_cmp(&other.re)
                        .unwrap_or(Ordering::Equal)
                        .then(self.im.partial_cmp(&other.im).unwrap_or(Ordering::Equal)),
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Greater,
                    (false, true) => Ordering::Less,
                }
            }
            #[inline]
            fn is_nan_value(&self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            #[inline]
            fn is_truthy(&self) -> bool {
                self.re != 0.0 || self.im != 0.0
            }
            const ZERO: Self = Complex::new(0.0, 0.0);
            const ONE: Self = Complex::new(1.0, 0.0);
        }
    };
}

impl_complex_element!(c64, f32, C64);
impl_complex_element!(c128, f64, C128);

/// Element types with arithmetic: every type but bool. Integer arithmetic wraps on overflow
/// and integer division by zero gives 0, as NumPy does (without its warning), never a panic.
pub trait Numeric: Element {
    /// `self + other` (wrapping for integers).
    fn add(self, other: Self) -> Self;
    /// `self - other` (wrapping for integers).
    fn sub(self, other: Self) -> Self;
    /// `self * other` (wrapping for integers).
    fn mul(self, other: Self) -> Self;
    /// `-self` (wrapping for integers; u8 wraps modulo 256 as NumPy).
    fn neg(self) -> Self;
    /// Converts an element count to this type (used by means and ramps).
    fn from_usize(n: usize) -> Self;
    /// Converts an f64 (used by ramps such as `linspace`).
    fn from_f64(v: f64) -> Self;
}

macro_rules! impl_numeric_int {
    ($($t:ty),*) => {$(
        impl Numeric for $t {
            #[inline] fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline] fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline] fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline] fn neg(self) -> Self { (0 as $t).wrapping_sub(self) }
            #[inline] fn from_usize(n: usize) -> Self { n as $t }
            #[inline] fn from_f64(v: f64) -> Self { v as $t }
        }
    )*};
}
impl_numeric_int!(u8, i32, i64);

macro_rules! impl_numeric_inexact {
    ($($t:ty => $from:expr),*) => {$(
        impl Numeric for $t {
            #[inline] fn add(self, o: Self) -> Self { self + o }
            #[inline] fn sub(self, o: Self) -> Self { self - o }
            #[inline] fn mul(self, o: Self) -> Self { self * o }
            #[inline] fn neg(self) -> Self { -self }
            #[inline] fn from_usize(n: usize) -> Self { ($from)(n as f64) }
            #[inline] fn from_f64(v: f64) -> Self { ($from)(v) }
        }
    )*};
}
impl_numeric_inexact!(
    f32 => |v: f64| v as f32,
    f64 => |v: f64| v,
    c64 => |v: f64| c64::new(v as f32, 0.0),
    c128 => |v: f64| c128::new(v, 0.0)
);

/// Ordered numeric types: u8, i32, i64, f32, f64 (comparisons, min/max, clip).
pub trait Real: Numeric + PartialOrd + num_traits::ToPrimitive {
    /// The smallest value of the type (-inf for floats).
    fn min_value() -> Self;
    /// The largest value of the type (+inf for floats).
    fn max_value() -> Self;
    /// Converts to f64 (exact for everything but i64 beyond 2^53).
    fn to_f64_lossy(self) -> f64;
    /// Python's floor division `a // b` (integers: division by zero gives 0, as NumPy).
    fn floor_div(self, other: Self) -> Self;
    /// Python's remainder `a % b`, with the sign of `b` (integers: `a % 0` gives 0).
    fn py_rem(self, other: Self) -> Self;
}

/// Integer types: u8, i32, i64 (bitwise operators, `%` and floor division).
pub trait Integer: Real + Ord + num_traits::PrimInt + num_traits::WrappingAdd {}

macro_rules! impl_real_int {
    ($($t:ty),*) => {$(
        #[allow(unused_comparisons)]
        impl Real for $t {
            #[inline] fn min_value() -> Self { <$t>::MIN }
            #[inline] fn max_value() -> Self { <$t>::MAX }
            #[inline] fn to_f64_lossy(self) -> f64 { self as f64 }
            #[inline]
            fn floor_div(self, o: Self) -> Self {
                if o == 0 {
                    return 0;
                }
                let q = self.wrapping_div(o);
                if (self.wrapping_rem(o) != 0) && ((self < 0) != (o < 0)) { q - 1 } else { q }
            }
            #[inline]
            fn py_rem(self, o: Self) -> Self {
                if o == 0 {
                    return 0;
                }
                let r = self.wrapping_rem(o);
                if r != 0 && ((r < 0) != (o < 0)) { r.wrapping_add(o) } else { r }
            }
        }
    )*};
}
impl_real_int!(u8, i32, i64);

macro_rules! impl_real_float {
    ($($t:ty),*) => {$(
        impl Real for $t {
            #[inline] fn min_value() -> Self { <$t>::NEG_INFINITY }
            #[inline] fn max_value() -> Self { <$t>::INFINITY }
            #[inline] fn to_f64_lossy(self) -> f64 { self as f64 }
            #[inline]
            fn floor_div(self, o: Self) -> Self {
                // NumPy's npy_divmod: exact for the representable quotient.
                if o == 0.0 {
                    return self / o;
                }
                let m = self % o;
                let mut div = (self - m) / o;
                if m != 0.0 && ((o < 0.0) != (m < 0.0)) {
                    div -= 1.0;
                }
                if div == 0.0 {
                    return (0.0 as $t).copysign(self / o);
                }
                let f = div.floor();
                if div - f > 0.5 { f + 1.0 } else { f }
            }
            #[inline]
            fn py_rem(self, o: Self) -> Self {
                if o == 0.0 {
                    return <$t>::NAN;
                }
                let m = self % o;
                if m != 0.0 {
                    if (o < 0.0) != (m < 0.0) { m + o } else { m }
                } else {
                    (0.0 as $t).copysign(o)
                }
            }
        }
    )*};
}
impl_real_float!(f32, f64);
impl Integer for u8 {}
impl Integer for i32 {}
impl Integer for i64 {}

/// Inexact types: f32, f64, c64, c128 — everything `exp`, `sqrt`, `sin` and true division
/// are defined on. `abs` returns [`Inexact::RealPart`]; sums and means stay in the type.
pub trait Inexact:
    Numeric
    + ComplexFloat<Real = <Self as Inexact>::RealPart>
    + Element<Real = <Self as Inexact>::RealPart, Accum = Self, Mean = Self>
{
    /// The real type underneath (f32 for c64 and f32).
    type RealPart: Float;
    /// Builds a value from a real number.
    fn from_real(r: Self::RealPart) -> Self;
}

/// Real floating-point types: f32 and f64.
pub trait Float: Inexact<RealPart = Self> + Real + num_traits::Float + Display {
    /// The complex type with this real part.
    type Complex: ComplexElement<RealPart = Self>;
}

/// Complex types: [`c64`] and [`c128`].
pub trait ComplexElement: Inexact {
    /// Builds a complex value from its parts.
    fn from_parts(re: Self::RealPart, im: Self::RealPart) -> Self;
    /// The real part.
    fn re(self) -> Self::RealPart;
    /// The imaginary part.
    fn im(self) -> Self::RealPart;
}

impl Inexact for f32 {
    type RealPart = f32;
    #[inline]
    fn from_real(r: f32) -> Self {
        r
    }
}
impl Inexact for f64 {
    type RealPart = f64;
    #[inline]
    fn from_real(r: f64) -> Self {
        r
    }
}
impl Inexact for c64 {
    type RealPart = f32;
    #[inline]
    fn from_real(r: f32) -> Self {
        c64::new(r, 0.0)
    }
}
impl Inexact for c128 {
    type RealPart = f64;
    #[inline]
    fn from_real(r: f64) -> Self {
        c128::new(r, 0.0)
    }
}
impl Float for f32 {
    type Complex = c64;
}
impl Float for f64 {
    type Complex = c128;
}
impl ComplexElement for c64 {
    #[inline]
    fn from_parts(re: f32, im: f32) -> Self {
        c64::new(re, im)
    }
    #[inline]
    fn re(self) -> f32 {
        self.re
    }
    #[inline]
    fn im(self) -> f32 {
        self.im
    }
}
impl ComplexElement for c128 {
    #[inline]
    fn from_parts(re: f64, im: f64) -> Self {
        c128::new(re, im)
    }
    #[inline]
    fn re(self) -> f64 {
        self.re
    }
    #[inline]
    fn im(self) -> f64 {
        self.im
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_numpy() {
        assert_eq!((-1.7f64).cast::<i32>(), -1);
        assert_eq!(f64::NAN.cast::<i64>(), 0);
        assert_eq!(300i32.cast::<u8>(), 44);
        assert!(c64::new(0.0, 1.0).cast::<bool>());
        assert_eq!(c128::new(2.5, 1.0).cast::<f32>(), 2.5);
        assert_eq!(true.cast::<f64>(), 1.0);
        assert_eq!(3u8.cast::<c128>(), c128::new(3.0, 0.0));
    }

    #[test]
    fn sort_order_puts_nan_last() {
        let mut v = [f64::NAN, 1.0, f64::NEG_INFINITY, -0.5];
        v.sort_by(Element::sort_cmp);
        assert_eq!(v[..3], [f64::NEG_INFINITY, -0.5, 1.0]);
        assert!(v[3].is_nan());
    }

    #[test]
    fn python_division_semantics() {
        assert_eq!((-7i32).floor_div(2), -4);
        assert_eq!((-7i32).py_rem(2), 1);
        assert_eq!(7i64.py_rem(-2), -1);
        assert_eq!(5u8.floor_div(0), 0);
        assert_eq!(i64::MIN.floor_div(-1), i64::MIN);
        assert_eq!((-7.0f64).floor_div(2.0), -4.0);
        assert_eq!((-7.5f64).py_rem(2.0), 0.5);
        assert!(1.0f32.py_rem(0.0).is_nan());
        assert_eq!(1.0f64.floor_div(0.0), f64::INFINITY);
    }

    #[test]
    fn integer_arithmetic_wraps() {
        assert_eq!(Numeric::add(250u8, 10), 4);
        assert_eq!(Numeric::neg(1u8), 255);
        assert_eq!(Numeric::mul(i32::MAX, 2), -2);
    }

    #[test]
    fn promotion_is_symmetric() {
        for a in DType::ALL {
            for b in DType::ALL {
                assert_eq!(result_type(a, b), result_type(b, a), "{a} {b}");
            }
        }
        assert_eq!(result_type(DType::Bool, DType::U8), DType::U8);
        assert_eq!(result_type(DType::U8, DType::F32), DType::F32);
        assert_eq!(result_type(DType::I64, DType::F64), DType::F64);
    }
}
