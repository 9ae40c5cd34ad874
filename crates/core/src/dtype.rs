//! Element types: the sealed [`Element`] trait, the runtime [`DType`] tag, the category traits
//! ([`Numeric`], [`Real`], [`Integer`], [`Float`], [`Inexact`], [`ComplexElement`]) that let
//! the compiler reject `sin` of a `bool`, and NumPy's type-promotion rule ([`result_type`]).

pub use half::{bf16, f16};
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
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    BF16,
    F32,
    F64,
    C64,
    C128,
}

impl DType {
    /// Every dtype: bool, the integers by size (signed first), the floats, the complex types.
    pub const ALL: [DType; 15] = [
        DType::Bool,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
        DType::I64,
        DType::U64,
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::C64,
        DType::C128,
    ];

    /// NumPy's name for the dtype (`"float64"`, `"complex64"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::U8 => "uint8",
            DType::I16 => "int16",
            DType::U16 => "uint16",
            DType::I32 => "int32",
            DType::U32 => "uint32",
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
        }
    }

    /// Size of one element in bytes.
    pub fn size_of(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// True for the signed and unsigned integer types (not bool).
    pub fn is_integer(self) -> bool {
        self.is_signed_integer() || self.is_unsigned_integer()
    }

    /// True for int8, int16, int32 and int64.
    pub fn is_signed_integer(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// True for uint8, uint16, uint32 and uint64.
    pub fn is_unsigned_integer(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }

    /// True for the real floating-point types: f16, bf16, f32 and f64.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// True for the 16-bit floats f16 and bf16, which compute in f32 and round once.
    pub fn is_half(self) -> bool {
        matches!(self, DType::F16 | DType::BF16)
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
/// Integers of one signedness promote to the wider; an unsigned and a signed integer to the
/// smallest signed type holding both (`uint8` with `int8` is `int16`), and `uint64` with
/// any signed integer to `float64`, as NumPy does. An integer with a float needs a float
/// whose mantissa holds it: 8-bit integers fit the 16-bit floats, 16-bit ones `float32`,
/// wider ones `float64`; the same for the complex types (NumPy has no complex type below
/// `complex64`: a 16-bit float with `complex64` gives `complex64`). `bfloat16` with
/// `float16` is `float32`, as in ml_dtypes and JAX (neither holds the other).
///
/// ```
/// use cuprite_core::{result_type, DType};
/// assert_eq!(result_type(DType::I32, DType::F32), DType::F64);
/// assert_eq!(result_type(DType::U8, DType::I32), DType::I32);
/// assert_eq!(result_type(DType::U8, DType::I8), DType::I16);
/// assert_eq!(result_type(DType::U64, DType::I64), DType::F64);
/// assert_eq!(result_type(DType::I16, DType::F32), DType::F32);
/// assert_eq!(result_type(DType::F32, DType::C128), DType::C128);
/// assert_eq!(result_type(DType::I64, DType::C64), DType::C128);
/// assert_eq!(result_type(DType::U8, DType::F16), DType::F16);
/// assert_eq!(result_type(DType::I16, DType::BF16), DType::F32);
/// assert_eq!(result_type(DType::F16, DType::BF16), DType::F32);
/// ```
pub fn result_type(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let bits = |d: DType| d.size_of() * 8;
    let signed = |n: usize| match n {
        8 => I8,
        16 => I16,
        32 => I32,
        _ => I64,
    };
    // The float a value of `d` fits: 16-bit integers in float32, wider ones in float64
    // (8-bit ones fit a 16-bit float: met below, before this is asked).
    let float_for = |d: DType| match d {
        Bool => F32,
        d if d.is_integer() && d.size_of() <= 2 => F32,
        d if d.is_integer() => F64,
        d => d,
    };
    match (a, b) {
        (Bool, x) | (x, Bool) => x,
        (h, x) | (x, h) if h.is_half() && matches!(x, I8 | U8) => h,
        (F16, BF16) | (BF16, F16) => F32,
        (x, y) if x.is_integer() && y.is_integer() => {
            let (xs, ys) = (x.is_signed_integer(), y.is_signed_integer());
            if xs == ys {
                return if bits(x) >= bits(y) { x } else { y };
            }
            let (u, i) = if xs { (y, x) } else { (x, y) };
            if bits(i) > bits(u) {
                i
            } else if bits(u) < 64 {
                signed(2 * bits(u))
            } else {
                F64
            }
        }
        (x, y) => {
            let (x, y) = (float_for(x), float_for(y));
            let complex = x.is_complex() || y.is_complex();
            let wide = x == F64 || y == F64 || x == C128 || y == C128;
            match (complex, wide) {
                (false, false) => F32,
                (false, true) => F64,
                (true, false) => C64,
                (true, true) => C128,
            }
        }
    }
}

/// Runs `$body` with the type alias `$t` bound to the element type of the runtime dtype
/// `$d`: one arm per [`DType`], so generic code can be reached from a dtype known only at
/// run time.
///
/// ```
/// use cuprite_core::{with_dtype, DType, Element};
/// fn size_of(d: DType) -> usize {
///     with_dtype!(d, T => std::mem::size_of::<T>())
/// }
/// assert_eq!(size_of(DType::U16), 2);
/// assert_eq!(with_dtype!(DType::C64, T => <T as Element>::DTYPE), DType::C64);
/// ```
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            $crate::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::DType::I8 => {
                type $t = i8;
                $body
            }
            $crate::DType::U8 => {
                type $t = u8;
                $body
            }
            $crate::DType::I16 => {
                type $t = i16;
                $body
            }
            $crate::DType::U16 => {
                type $t = u16;
                $body
            }
            $crate::DType::I32 => {
                type $t = i32;
                $body
            }
            $crate::DType::U32 => {
                type $t = u32;
                $body
            }
            $crate::DType::I64 => {
                type $t = i64;
                $body
            }
            $crate::DType::U64 => {
                type $t = u64;
                $body
            }
            $crate::DType::F16 => {
                type $t = $crate::f16;
                $body
            }
            $crate::DType::BF16 => {
                type $t = $crate::bf16;
                $body
            }
            $crate::DType::F32 => {
                type $t = f32;
                $body
            }
            $crate::DType::F64 => {
                type $t = f64;
                $body
            }
            $crate::DType::C64 => {
                type $t = $crate::c64;
                $body
            }
            $crate::DType::C128 => {
                type $t = $crate::c128;
                $body
            }
        }
    };
}

/// A value of any element type, used for explicit casts and for printing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F16(f16),
    BF16(bf16),
    F32(f32),
    F64(f64),
    C64(c64),
    C128(c128),
}

impl Scalar {
    /// A 16-bit float widened (exactly) to f32; any other value unchanged. Ops computed on
    /// scalars match the widened value and convert the result back with
    /// [`Element::from_scalar`], so the 16-bit floats compute in f32 and round once.
    #[inline(always)]
    pub fn widen_half(self) -> Scalar {
        match self {
            Scalar::F16(v) => Scalar::F32(v.to_f32()),
            Scalar::BF16(v) => Scalar::F32(v.to_f32()),
            other => other,
        }
    }

    /// The dtype of the value.
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::I8(_) => DType::I8,
            Scalar::U8(_) => DType::U8,
            Scalar::I16(_) => DType::I16,
            Scalar::U16(_) => DType::U16,
            Scalar::I32(_) => DType::I32,
            Scalar::U32(_) => DType::U32,
            Scalar::I64(_) => DType::I64,
            Scalar::U64(_) => DType::U64,
            Scalar::F16(_) => DType::F16,
            Scalar::BF16(_) => DType::BF16,
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
            Scalar::C64(_) => DType::C64,
            Scalar::C128(_) => DType::C128,
        }
    }
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

/// An element type of an array: bool, i8, u8, i16, u16, i32, u32, i64, u64, [`f16`],
/// [`bf16`], f32, f64, [`c64`], [`c128`].
///
/// The trait is sealed; its methods give every backend the scalar semantics NumPy uses.
pub trait Element:
    sealed::Sealed + Copy + Send + Sync + Debug + PartialEq + Default + 'static
{
    /// The runtime tag of this type.
    const DTYPE: DType;
    /// Type of `sum`/`prod`/`cumsum`: i64 for bool and signed integers, u64 for unsigned ones
    /// (NumPy's platform integers), the type itself otherwise (the 16-bit floats sum in f32
    /// and round once: [`Numeric::Work`]).
    type Accum: Numeric;
    /// Type of `mean`, `var`, true division: f64 for bool and integers, the type itself otherwise.
    type Mean: Inexact;
    /// Type NumPy's float functions (`sqrt`, `exp`, `sin`, `log`, ...) give for this type:
    /// f16 for bool and the 8-bit integers, f32 for the 16-bit ones, f64 for wider
    /// integers, the type itself for floats and complex types.
    type FloatOut: Inexact;
    /// Type of `abs` for complex types and of `real`/`imag`; the type itself otherwise.
    type Real: Element;

    /// The value as a [`Scalar`].
    fn to_scalar(self) -> Scalar;
    /// Converts from any scalar with NumPy's `astype` semantics (float to int truncates and
    /// saturates, NaN to int gives 0, complex to real drops the imaginary part, nonzero is true).
    fn from_scalar(s: Scalar) -> Self;
    /// Converts to any other element type, as [`Element::from_scalar`].
    #[inline(always)]
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
    /// Width in bits of the order-preserving radix key ([`Element::radix_key`]); 0 for the
    /// complex types, which sort by comparison.
    const KEY_BITS: u32;
    /// The order-preserving radix key: unsigned integers compare as the values sort by
    /// [`Element::sort_cmp`] (NaN after every number as one canonical NaN, `-0.0` equal to
    /// `0.0`). 0 for the complex types.
    fn radix_key(self) -> u64;
    /// The value of a radix key (NaN for the NaN key, `0.0` for the key of `-0.0`).
    fn from_radix_key(k: u64) -> Self;
    /// Zero (false).
    const ZERO: Self;
    /// One (true).
    const ONE: Self;
}

macro_rules! scalar_to {
    ($s:expr, $t:ty, real) => {
        match $s {
            Scalar::Bool(v) => v as u8 as $t,
            Scalar::I8(v) => v as $t,
            Scalar::U8(v) => v as $t,
            Scalar::I16(v) => v as $t,
            Scalar::U16(v) => v as $t,
            Scalar::I32(v) => v as $t,
            Scalar::U32(v) => v as $t,
            Scalar::I64(v) => v as $t,
            Scalar::U64(v) => v as $t,
            Scalar::F16(v) => v.to_f32() as $t,
            Scalar::BF16(v) => v.to_f32() as $t,
            Scalar::F32(v) => v as $t,
            Scalar::F64(v) => v as $t,
            Scalar::C64(v) => v.re as $t,
            Scalar::C128(v) => v.re as $t,
        }
    };
}

/// The order-preserving key of a float's bits `b` with sign bit `sign` (`b` of a value
/// with NaN made canonical and `-0.0` made `0.0`): negatives flipped, positives offset.
macro_rules! float_key {
    ($b:expr, $sign:expr) => {
        if $b & $sign != 0 { !$b } else { $b ^ $sign }
    };
}

/// `radix_key`/`from_radix_key` of one real type, by its kind.
macro_rules! radix_key {
    (signed $t:ty, $u:ty, $x:expr) => {
        (($x as $u) ^ (1 << (<$u>::BITS - 1))) as u64
    };
    (unsigned $t:ty, $u:ty, $x:expr) => {
        $x as u64
    };
    (float $t:ty, $u:ty, $x:expr) => {{
        let v = if $x.is_nan() { <$t>::NAN } else { $x + 0.0 };
        let b = v.to_bits();
        float_key!(b, 1 << (<$u>::BITS - 1)) as u64
    }};
    (@from signed $t:ty, $u:ty, $k:expr) => {
        (($k as $u) ^ (1 << (<$u>::BITS - 1))) as $t
    };
    (@from unsigned $t:ty, $u:ty, $k:expr) => {
        $k as $t
    };
    (@from float $t:ty, $u:ty, $k:expr) => {{
        let k = $k as $u;
        let sign: $u = 1 << (<$u>::BITS - 1);
        <$t>::from_bits(if k & sign != 0 { k ^ sign } else { !k })
    }};
}

macro_rules! impl_real_element {
    ($t:ty, $dt:ident, $acc:ty, $mean:ty, $fl:ty, $one:expr, float = $is_float:tt, key = $kind:ident $u:ty) => {
        impl_sealed!($t, $dt);
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            type Accum = $acc;
            type Mean = $mean;
            type FloatOut = $fl;
            type Real = $t;
            #[inline(always)]
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
            #[inline(always)]
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
            const KEY_BITS: u32 = <$u>::BITS;
            #[inline(always)]
            fn radix_key(self) -> u64 {
                radix_key!($kind $t, $u, self)
            }
            #[inline(always)]
            fn from_radix_key(k: u64) -> Self {
                radix_key!(@from $kind $t, $u, k)
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

impl_real_element!(i8, I8, i64, f64, f16, 1, float = false, key = signed u8);
impl_real_element!(u8, U8, u64, f64, f16, 1, float = false, key = unsigned u8);
impl_real_element!(i16, I16, i64, f64, f32, 1, float = false, key = signed u16);
impl_real_element!(u16, U16, u64, f64, f32, 1, float = false, key = unsigned u16);
impl_real_element!(i32, I32, i64, f64, f64, 1, float = false, key = signed u32);
impl_real_element!(u32, U32, u64, f64, f64, 1, float = false, key = unsigned u32);
impl_real_element!(i64, I64, i64, f64, f64, 1, float = false, key = signed u64);
impl_real_element!(u64, U64, u64, f64, f64, 1, float = false, key = unsigned u64);
impl_real_element!(f32, F32, f32, f32, f32, 1.0, float = true, key = float u32);
impl_real_element!(f64, F64, f64, f64, f64, 1.0, float = true, key = float u64);

/// `Element` of a 16-bit float: conversions through `$via` (f64 for f16, which NumPy
/// rounds once from any type: `$from` must round once; f32 for bf16, as ml_dtypes and
/// PyTorch convert), NaN sorted last, 16-bit radix keys.
macro_rules! impl_half_element {
    ($t:ident, $dt:ident, $via:ty, $from:path) => {
        impl_sealed!($t, $dt);
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            type Accum = $t;
            type Mean = $t;
            type FloatOut = $t;
            type Real = $t;
            #[inline(always)]
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
            #[inline(always)]
            fn from_scalar(s: Scalar) -> Self {
                match s {
                    Scalar::$dt(v) => v,
                    other => $from(scalar_to!(other, $via, real)),
                }
            }
            #[inline]
            fn sort_cmp(&self, other: &Self) -> Ordering {
                impl_real_element!(@cmp true, self, other)
            }
            #[inline]
            fn is_nan_value(&self) -> bool {
                self.is_nan()
            }
            #[inline]
            fn is_truthy(&self) -> bool {
                self.to_f32() != 0.0
            }
            const KEY_BITS: u32 = 16;
            #[inline(always)]
            fn radix_key(self) -> u64 {
                let v = if self.is_nan() {
                    $t::NAN
                } else if self.to_f32() == 0.0 {
                    $t::ZERO
                } else {
                    self
                };
                let b = v.to_bits();
                float_key!(b, 1u16 << 15) as u64
            }
            #[inline(always)]
            fn from_radix_key(k: u64) -> Self {
                radix_key!(@from float $t, u16, k)
            }
            const ZERO: Self = $t::ZERO;
            const ONE: Self = $t::ONE;
        }
    };
}
// One rounding from f64 (the `half` crate's `from_f64` rounds twice where the CPU has F16C).
impl_half_element!(f16, F16, f64, crate::kernel::scalar::f16_from_f64);
impl_half_element!(bf16, BF16, f32, bf16::from_f32);

impl_sealed!(bool, Bool);
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    type Accum = i64;
    type Mean = f64;
    type FloatOut = f16;
    type Real = bool;
    #[inline(always)]
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    #[inline(always)]
    fn from_scalar(s: Scalar) -> Self {
        match s {
            Scalar::Bool(v) => v,
            Scalar::I8(v) => v != 0,
            Scalar::U8(v) => v != 0,
            Scalar::I16(v) => v != 0,
            Scalar::U16(v) => v != 0,
            Scalar::I32(v) => v != 0,
            Scalar::U32(v) => v != 0,
            Scalar::I64(v) => v != 0,
            Scalar::U64(v) => v != 0,
            Scalar::F16(v) => v.to_f32() != 0.0,
            Scalar::BF16(v) => v.to_f32() != 0.0,
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
    const KEY_BITS: u32 = 8;
    #[inline(always)]
    fn radix_key(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from_radix_key(k: u64) -> Self {
        k != 0
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
            type FloatOut = $t;
            type Real = $f;
            #[inline(always)]
            fn to_scalar(self) -> Scalar {
                Scalar::$dt(self)
            }
            #[inline(always)]
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
            const KEY_BITS: u32 = 0;
            #[inline(always)]
            fn radix_key(self) -> u64 {
                0
            }
            #[inline(always)]
            fn from_radix_key(_: u64) -> Self {
                Self::ZERO
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
/// Each promotes with itself to itself ([`Promote`](crate::Promote)), so operators between
/// arrays of one generic type keep it.
pub trait Numeric: Element + crate::promote::Promote<Self, Output = Self> {
    /// The type sums and means of this type are carried out in: f32 for the 16-bit floats
    /// (rounded once at the end, as NumPy and CuPy sum them), the type itself otherwise.
    type Work: Numeric;
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
            type Work = $t;
            #[inline] fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline] fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline] fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline] fn neg(self) -> Self { (0 as $t).wrapping_sub(self) }
            #[inline] fn from_usize(n: usize) -> Self { n as $t }
            #[inline] fn from_f64(v: f64) -> Self { v as $t }
        }
    )*};
}
impl_numeric_int!(i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! impl_numeric_inexact {
    ($($t:ty => $from:expr),*) => {$(
        impl Numeric for $t {
            type Work = $t;
            #[inline] fn add(self, o: Self) -> Self { self + o }
            #[inline] fn sub(self, o: Self) -> Self { self - o }
            #[inline] fn mul(self, o: Self) -> Self { self * o }
            #[inline] fn neg(self) -> Self { -self }
            #[inline] fn from_usize(n: usize) -> Self { ($from)(n as f64) }
            #[inline] fn from_f64(v: f64) -> Self { ($from)(v) }
        }
    )*};
}
/// Arithmetic of a 16-bit float: each operation in f32, rounded once (the `half` crate's
/// operators), sums carried out in f32.
macro_rules! impl_numeric_half {
    ($($t:ty),*) => {$(
        impl Numeric for $t {
            type Work = f32;
            #[inline] fn add(self, o: Self) -> Self { self + o }
            #[inline] fn sub(self, o: Self) -> Self { self - o }
            #[inline] fn mul(self, o: Self) -> Self { self * o }
            #[inline] fn neg(self) -> Self { -self }
            #[inline] fn from_usize(n: usize) -> Self { Self::from_scalar(Scalar::F64(n as f64)) }
            #[inline] fn from_f64(v: f64) -> Self { Self::from_scalar(Scalar::F64(v)) }
        }
        impl Real for $t {
            #[inline] fn min_value() -> Self { <$t>::NEG_INFINITY }
            #[inline] fn max_value() -> Self { <$t>::INFINITY }
            #[inline] fn to_f64_lossy(self) -> f64 { self.to_f64() }
            #[inline]
            fn floor_div(self, o: Self) -> Self {
                Self::from_f32(self.to_f32().floor_div(o.to_f32()))
            }
            #[inline]
            fn py_rem(self, o: Self) -> Self {
                Self::from_f32(self.to_f32().py_rem(o.to_f32()))
            }
        }
        impl Inexact for $t {
            type RealPart = $t;
            #[inline]
            fn from_real(r: $t) -> Self {
                r
            }
        }
        impl Float for $t {
            type Complex = c64;
        }
    )*};
}
impl_numeric_half!(f16, bf16);

impl_numeric_inexact!(
    f32 => |v: f64| v as f32,
    f64 => |v: f64| v,
    c64 => |v: f64| c64::new(v as f32, 0.0),
    c128 => |v: f64| c128::new(v, 0.0)
);

/// Ordered numeric types: the integers and the real floats (comparisons, min/max, clip).
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

/// Integer types: i8, u8, i16, u16, i32, u32, i64, u64 (bitwise operators, `%` and floor
/// division).
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
impl_real_int!(i8, u8, i16, u16, i32, u32, i64, u64);

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
impl Integer for i8 {}
impl Integer for u8 {}
impl Integer for i16 {}
impl Integer for u16 {}
impl Integer for i32 {}
impl Integer for u32 {}
impl Integer for i64 {}
impl Integer for u64 {}

/// Inexact types: f16, bf16, f32, f64, c64, c128 — everything `exp`, `sqrt`, `sin` and true
/// division are defined on. `abs` returns [`Inexact::RealPart`]; sums and means stay in the
/// type. The 16-bit floats compute each function in f32 and round once, as NumPy does.
pub trait Inexact:
    Numeric
    + ComplexFloat<Real = <Self as Inexact>::RealPart>
    + Element<Real = <Self as Inexact>::RealPart, Accum = Self, Mean = Self, FloatOut = Self>
{
    /// The real type underneath (f32 for c64 and f32).
    type RealPart: Float;
    /// Builds a value from a real number.
    fn from_real(r: Self::RealPart) -> Self;
}

/// Real floating-point types: f16, bf16, f32 and f64.
pub trait Float: Inexact<RealPart = Self> + Real + num_traits::Float + Display {
    /// The complex type of complex results from this type: the one with this real part,
    /// [`c64`] for the 16-bit floats (NumPy has no smaller complex type).
    type Complex: ComplexElement;
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

    /// Keys order as `sort_cmp` orders, and give their values back.
    #[test]
    fn radix_keys_preserve_order() {
        fn check<T: Element>(sorted: &[T]) {
            for w in sorted.windows(2) {
                let (a, b) = (w[0].radix_key(), w[1].radix_key());
                assert_eq!(a.cmp(&b), w[0].sort_cmp(&w[1]), "{:?} {:?}", w[0], w[1]);
                assert!(T::KEY_BITS == 64 || a >> T::KEY_BITS == 0);
            }
            for &x in sorted {
                let back = T::from_radix_key(x.radix_key());
                assert!(
                    back == x || (back.is_nan_value() && x.is_nan_value()),
                    "{x:?}"
                );
            }
        }
        check(&[i8::MIN, -1, 0, 1, i8::MAX]);
        check(&[0u8, 1, 255]);
        check(&[i16::MIN, -300, 0, 300, i16::MAX]);
        check(&[0u16, 1, u16::MAX]);
        check(&[i32::MIN, -1, 0, i32::MAX]);
        check(&[0u32, 7, u32::MAX]);
        check(&[i64::MIN, -1, 0, i64::MAX]);
        check(&[0u64, 1 << 63, u64::MAX]);
        check(&[false, true]);
        check(&[
            f32::NEG_INFINITY,
            -1.5,
            -f32::MIN_POSITIVE / 2.0,
            0.0,
            1e-40,
            2.0,
            f32::INFINITY,
            f32::NAN,
        ]);
        check(&[
            f64::NEG_INFINITY,
            -1.5,
            0.0,
            5e-324,
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
        ]);
        let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
        check(&h(&[
            f32::NEG_INFINITY,
            -65504.0,
            -1.0,
            -1e-7,
            0.0,
            6e-8,
            1.0,
            65504.0,
        ]));
        check(&[f16::INFINITY, f16::NAN]);
        let b = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
        check(&b(&[
            f32::NEG_INFINITY,
            -3e38,
            -1.0,
            0.0,
            1e-40,
            1.0,
            3e38,
            f32::INFINITY,
        ]));
        check(&[bf16::MAX, bf16::NAN]);
        assert_eq!((-f16::ZERO).radix_key(), f16::ZERO.radix_key());
        // -0.0 keys as 0.0 (they tie, as sort_cmp says) and every NaN as one.
        assert_eq!((-0.0f64).radix_key(), 0.0f64.radix_key());
        assert_eq!((-f32::NAN).radix_key(), f32::NAN.radix_key());
        assert_eq!(f64::from_radix_key((-0.0f64).radix_key()).to_bits(), 0);
    }

    /// The 16-bit floats convert as NumPy (f16: one rounding from f64) and ml_dtypes (bf16:
    /// through f32), truncate and saturate to integers, and compute in f32 rounding once.
    #[test]
    fn half_conversions_and_arithmetic() {
        // 65520 is the f16 overflow threshold; 2049 ties between 2048 and 2050 (to even).
        assert_eq!(65519.0f64.cast::<f16>(), f16::MAX);
        assert!(65520.0f64.cast::<f16>().is_infinite());
        assert_eq!(2049i32.cast::<f16>().to_f32(), 2048.0);
        assert_eq!(2051i64.cast::<f16>().to_f32(), 2052.0);
        // Smallest subnormal and what rounds to zero.
        assert_eq!(6e-8f64.cast::<f16>().to_bits(), 1);
        assert_eq!(2.9e-8f64.cast::<f16>().to_bits(), 0);
        // f64 -> bf16 goes through f32 (1 + 2^-8 + 2^-30: f32 rounds to the tie 1 + 2^-8,
        // which rounds to even, 1.0; a direct rounding would give 1 + 2^-7).
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(x.cast::<bf16>().to_f32(), 1.0);
        assert_eq!(f16::from_f32(-3.7).cast::<i8>(), -3);
        assert_eq!(f16::from_f32(300.0).cast::<i8>(), 127);
        assert_eq!(f16::NAN.cast::<u16>(), 0);
        assert_eq!(bf16::from_f32(2.5).cast::<f16>().to_f32(), 2.5);
        assert!(f16::NAN.cast::<bool>());
        assert!(!(-f16::ZERO).cast::<bool>());
        assert_eq!(f16::from_f32(1.5).cast::<c64>(), c64::new(1.5, 0.0));
        // Arithmetic rounds each operation once; sums run in f32.
        let a = f16::from_f32(2048.0);
        assert_eq!(Numeric::add(a, f16::ONE).to_f32(), 2048.0);
        assert_eq!(
            <f16 as Real>::floor_div(f16::from_f32(7.0), f16::from_f32(2.0)),
            f16::from_f32(3.0)
        );
        assert!(<bf16 as Real>::py_rem(bf16::ONE, bf16::ZERO).is_nan());
        let _: <f16 as Numeric>::Work = 0.0f32;
        assert_eq!(f16::DTYPE.name(), "float16");
        assert_eq!(bf16::DTYPE.size_of(), 2);
        assert!(DType::BF16.is_float() && DType::F16.is_half() && !DType::F32.is_half());
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

    /// NumPy 2's `np.result_type` for every pair of these dtypes, row by row in `DType::ALL`
    /// order (generated by `np.result_type` over the same list; NumPy has no bfloat16, whose
    /// row is float16's with bfloat16 for float16 and float32 with float16 itself).
    #[test]
    fn promotion_matches_numpy() {
        use DType::*;
        let table: [[DType; 15]; 15] = [
            [
                Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64, C64, C128,
            ],
            [
                I8, I8, I16, I16, I32, I32, I64, I64, F64, F16, BF16, F32, F64, C64, C128,
            ],
            [
                U8, I16, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64, C64, C128,
            ],
            [
                I16, I16, I16, I16, I32, I32, I64, I64, F64, F32, F32, F32, F64, C64, C128,
            ],
            [
                U16, I32, U16, I32, U16, I32, U32, I64, U64, F32, F32, F32, F64, C64, C128,
            ],
            [
                I32, I32, I32, I32, I32, I32, I64, I64, F64, F64, F64, F64, F64, C128, C128,
            ],
            [
                U32, I64, U32, I64, U32, I64, U32, I64, U64, F64, F64, F64, F64, C128, C128,
            ],
            [
                I64, I64, I64, I64, I64, I64, I64, I64, F64, F64, F64, F64, F64, C128, C128,
            ],
            [
                U64, F64, U64, F64, U64, F64, U64, F64, U64, F64, F64, F64, F64, C128, C128,
            ],
            [
                F16, F16, F16, F32, F32, F64, F64, F64, F64, F16, F32, F32, F64, C64, C128,
            ],
            [
                BF16, BF16, BF16, F32, F32, F64, F64, F64, F64, F32, BF16, F32, F64, C64, C128,
            ],
            [
                F32, F32, F32, F32, F32, F64, F64, F64, F64, F32, F32, F32, F64, C64, C128,
            ],
            [
                F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, C128, C128,
            ],
            [
                C64, C64, C64, C64, C64, C128, C128, C128, C128, C64, C64, C64, C128, C64, C128,
            ],
            [
                C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128, C128,
                C128,
            ],
        ];
        for (i, &a) in DType::ALL.iter().enumerate() {
            for (j, &b) in DType::ALL.iter().enumerate() {
                assert_eq!(result_type(a, b), table[i][j], "{a} with {b}");
            }
        }
    }
}
