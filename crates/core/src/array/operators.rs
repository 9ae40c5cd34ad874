//! Rust operators on arrays: `+ - * / %` and unary `-` between arrays, arrays and scalars,
//! scalars and arrays (NumPy broadcasting), and `+= -= *= /= %=`. Each operator panics with
//! the error's message at the caller's location; each has a `try_` twin returning `Result`.
//! `/` is true division: integer arrays give `f64` arrays, as in NumPy.

use super::{Array, or_panic};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Numeric, Real, bf16, c64, c128, f16};
use crate::error::Result;
use crate::ops::{Add, Div, Mul, Neg, Rem, Sub};
use crate::promote::{Promote, promoted_pair};
use std::ops;

/// True division for every numeric type: floats and complex divide directly, integers are
/// converted to `f64` first (NumPy's `true_divide`).
pub trait TrueDivide: Numeric {
    /// `a / b` broadcast.
    fn true_divide<B: ArrayBackend>(
        a: &Array<Self, B>,
        b: &Array<Self, B>,
    ) -> Result<Array<Self::Mean, B>>;
    /// `a / s`.
    fn true_divide_scalar<B: ArrayBackend>(
        a: &Array<Self, B>,
        s: Self,
    ) -> Result<Array<Self::Mean, B>>;
    /// `s / a`.
    fn true_divide_scalar_rev<B: ArrayBackend>(
        s: Self,
        a: &Array<Self, B>,
    ) -> Result<Array<Self::Mean, B>>;
}

macro_rules! true_divide_direct {
    ($($t:ty),*) => {$(
        impl TrueDivide for $t {
            fn true_divide<B: ArrayBackend>(a: &Array<$t, B>, b: &Array<$t, B>) -> Result<Array<$t, B>> {
                a.zip_op(Div, b)
            }
            fn true_divide_scalar<B: ArrayBackend>(a: &Array<$t, B>, s: $t) -> Result<Array<$t, B>> {
                a.scalar_op(Div, s)
            }
            fn true_divide_scalar_rev<B: ArrayBackend>(s: $t, a: &Array<$t, B>) -> Result<Array<$t, B>> {
                a.scalar_op_rev(Div, s)
            }
        }
    )*};
}
true_divide_direct!(f16, bf16, f32, f64, c64, c128);

macro_rules! true_divide_via_f64 {
    ($($t:ty),*) => {$(
        impl TrueDivide for $t {
            fn true_divide<B: ArrayBackend>(a: &Array<$t, B>, b: &Array<$t, B>) -> Result<Array<f64, B>> {
                a.check_device(b, "true_divide")?;
                crate::layout::broadcast_shapes("true_divide", a.shape(), b.shape())?;
                a.astype::<f64>()?.zip_op(Div, &b.astype::<f64>()?)
            }
            fn true_divide_scalar<B: ArrayBackend>(a: &Array<$t, B>, s: $t) -> Result<Array<f64, B>> {
                a.astype::<f64>()?.scalar_op(Div, s as f64)
            }
            fn true_divide_scalar_rev<B: ArrayBackend>(s: $t, a: &Array<$t, B>) -> Result<Array<f64, B>> {
                a.astype::<f64>()?.scalar_op_rev(Div, s as f64)
            }
        }
    )*};
}
true_divide_via_f64!(i8, u8, i16, u16, i32, u32, i64, u64);

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// `self + other`, broadcast.
    pub fn try_add(&self, other: &Self) -> Result<Self> {
        self.zip_op(Add, other)
    }
    /// `self - other`, broadcast.
    pub fn try_sub(&self, other: &Self) -> Result<Self> {
        self.zip_op(Sub, other)
    }
    /// `self * other`, broadcast.
    pub fn try_mul(&self, other: &Self) -> Result<Self> {
        self.zip_op(Mul, other)
    }
    /// `-self`.
    pub fn try_neg(&self) -> Result<Self> {
        self.map_op(Neg)
    }
    /// `self += other` (other broadcast to self's shape).
    pub fn try_add_assign(&mut self, other: &Self) -> Result<()> {
        self.zip_op_inplace(Add, other)
    }
    /// `self -= other`.
    pub fn try_sub_assign(&mut self, other: &Self) -> Result<()> {
        self.zip_op_inplace(Sub, other)
    }
    /// `self *= other`.
    pub fn try_mul_assign(&mut self, other: &Self) -> Result<()> {
        self.zip_op_inplace(Mul, other)
    }
}

impl<T: TrueDivide, B: ArrayBackend> Array<T, B> {
    /// True division `self / other`, broadcast (integers give `f64`).
    pub fn try_div(&self, other: &Self) -> Result<Array<T::Mean, B>> {
        T::true_divide(self, other)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// Python's remainder `self % other` (sign of the divisor), broadcast.
    pub fn try_rem(&self, other: &Self) -> Result<Self> {
        self.zip_op(Rem, other)
    }
}

/// Binary operators between arrays (all four owned/borrowed combinations), of one element
/// type or of two: the operands are brought to NumPy's promoted type first
/// ([`Promote`]: `&Array<f64> + &Array<i64>` is an `Array<f64>`).
macro_rules! array_binop {
    ($Tr:ident, $m:ident, $bound:ident, $try:ident, $Out:ty) => {
        array_binop!(@one $Tr, $m, $bound, $try, $Out, &Array<T, B>, &Array<U, B>, |a| a, |b| b);
        array_binop!(@one $Tr, $m, $bound, $try, $Out, &Array<T, B>, Array<U, B>, |a| a, |b| &b);
        array_binop!(@one $Tr, $m, $bound, $try, $Out, Array<T, B>, &Array<U, B>, |a| &a, |b| b);
        array_binop!(@one $Tr, $m, $bound, $try, $Out, Array<T, B>, Array<U, B>, |a| &a, |b| &b);
    };
    (@one $Tr:ident, $m:ident, $bound:ident, $try:ident, $Out:ty, $L:ty, $R:ty,
        |$a:ident| $ra:expr, |$b:ident| $rb:expr) => {
        impl<T, U, B> ops::$Tr<$R> for $L
        where
            T: Promote<U>,
            U: Element,
            <T as Promote<U>>::Output: $bound,
            B: ArrayBackend,
        {
            type Output = $Out;
            #[track_caller]
            fn $m(self, rhs: $R) -> $Out {
                let ($a, $b) = (self, rhs);
                or_panic(promoted_pair::<_, _, <T as Promote<U>>::Output, _>(stringify!($m), $ra, $rb)
                    .and_then(|(x, y)| x.get().$try(y.get())))
            }
        }
    };
}
array_binop!(Add, add, Numeric, try_add, Array<<T as Promote<U>>::Output, B>);
array_binop!(Sub, sub, Numeric, try_sub, Array<<T as Promote<U>>::Output, B>);
array_binop!(Mul, mul, Numeric, try_mul, Array<<T as Promote<U>>::Output, B>);
array_binop!(Div, div, TrueDivide, try_div,
    Array<<<T as Promote<U>>::Output as Element>::Mean, B>);
array_binop!(Rem, rem, Real, try_rem, Array<<T as Promote<U>>::Output, B>);

/// Binary operators between an array and a scalar of its element type.
macro_rules! array_scalar_binop {
    ($Tr:ident, $m:ident, $bound:ident, |$a:ident, $s:ident| $body:expr, $Out:ty) => {
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for &Array<T, B> {
            type Output = $Out;
            #[track_caller]
            fn $m(self, $s: T) -> $Out {
                let $a = self;
                or_panic($body)
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for Array<T, B> {
            type Output = $Out;
            #[track_caller]
            fn $m(self, $s: T) -> $Out {
                let $a = &self;
                or_panic($body)
            }
        }
    };
}
array_scalar_binop!(Add, add, Numeric, |a, s| a.scalar_op(Add, s), Array<T, B>);
array_scalar_binop!(Sub, sub, Numeric, |a, s| a.scalar_op(Sub, s), Array<T, B>);
array_scalar_binop!(Mul, mul, Numeric, |a, s| a.scalar_op(Mul, s), Array<T, B>);
array_scalar_binop!(Div, div, TrueDivide, |a, s| T::true_divide_scalar(a, s), Array<T::Mean, B>);
array_scalar_binop!(Rem, rem, Real, |a, s| a.scalar_op(Rem, s), Array<T, B>);

/// Binary operators with the scalar on the left (`2.0 * &a`), one impl per element type.
macro_rules! scalar_array_binop {
    ($($t:ty),*) => {$(
        scalar_array_binop!(@one $t, Add, add, |s, a| a.scalar_op_rev(Add, s), Array<$t, B>);
        scalar_array_binop!(@one $t, Sub, sub, |s, a| a.scalar_op_rev(Sub, s), Array<$t, B>);
        scalar_array_binop!(@one $t, Mul, mul, |s, a| a.scalar_op_rev(Mul, s), Array<$t, B>);
        scalar_array_binop!(@one $t, Div, div, |s, a| <$t as TrueDivide>::true_divide_scalar_rev(s, a),
            Array<<$t as Element>::Mean, B>);
    )*};
    (@one $t:ty, $Tr:ident, $m:ident, |$s:ident, $a:ident| $body:expr, $Out:ty) => {
        impl<B: ArrayBackend> ops::$Tr<&Array<$t, B>> for $t {
            type Output = $Out;
            #[track_caller]
            fn $m(self, rhs: &Array<$t, B>) -> $Out {
                let ($s, $a) = (self, rhs);
                or_panic($body)
            }
        }
        impl<B: ArrayBackend> ops::$Tr<Array<$t, B>> for $t {
            type Output = $Out;
            #[track_caller]
            fn $m(self, rhs: Array<$t, B>) -> $Out {
                let ($s, $a) = (self, &rhs);
                or_panic($body)
            }
        }
    };
}
scalar_array_binop!(
    i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128
);

impl<T: Numeric, B: ArrayBackend> ops::Neg for &Array<T, B> {
    type Output = Array<T, B>;
    #[track_caller]
    fn neg(self) -> Array<T, B> {
        or_panic(self.try_neg())
    }
}
impl<T: Numeric, B: ArrayBackend> ops::Neg for Array<T, B> {
    type Output = Array<T, B>;
    #[track_caller]
    fn neg(self) -> Array<T, B> {
        or_panic(self.try_neg())
    }
}

/// Compound assignment with an array (borrowed or owned, see [`super::Operand`]) or a
/// scalar on the right, into an array or into a mutable view of one (Rust wants a named
/// place on the left of `/=`, so the view is bound first):
///
/// ```
/// # use cuprite_core::*;
/// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
/// let mut a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
/// let d = a.slice(&s![1, 1])?;
/// let mut row = a.slice_mut(&s![0, ..])?;
/// row /= d; // a[0, :] /= a[1, 1], `d` handed over: copied alone
/// let mut row = a.slice_mut(&s![1, ..])?;
/// row -= 1.0;
/// assert_eq!(a.to_vec()?, vec![0.25, 0.5, 2.0, 3.0]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
macro_rules! assign_op {
    ($Tr:ident, $m:ident, $bound:ident, $Op:ident) => {
        assign_op!(@rhs $Tr, $m, $bound, $Op, Array<T, B>);
        assign_op!(@rhs $Tr, $m, $bound, $Op, $crate::array::ArrayViewMut<'_, T, B>);
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for $crate::array::ArrayViewMut<'_, T, B> {
            #[track_caller]
            fn $m(&mut self, rhs: T) {
                or_panic(self.scalar_op_inplace($Op, rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for Array<T, B> {
            #[track_caller]
            fn $m(&mut self, rhs: T) {
                or_panic(self.scalar_op_inplace($Op, rhs))
            }
        }
    };
    // An array of `T` or a view of one on the left, an array of any `U` that promotes
    // with `T` to `T` on the right (`x_f64 += &y_i32`), by reference or by value.
    (@rhs $Tr:ident, $m:ident, $bound:ident, $Op:ident, $L:ty) => {
        impl<T, U, B> ops::$Tr<&Array<U, B>> for $L
        where
            T: $bound + $crate::promote::Promote<U, Output = T>,
            U: Element,
            B: ArrayBackend,
        {
            #[track_caller]
            fn $m(&mut self, rhs: &Array<U, B>) {
                or_panic($crate::promote::promoted::<U, T, B>(rhs).and_then(|r| match r {
                    $crate::promote::Promoted::Same(r) => self.zip_op_inplace($Op, r),
                    $crate::promote::Promoted::Cast(r) => self.zip_op_inplace($Op, r),
                }))
            }
        }
        impl<T, U, B> ops::$Tr<Array<U, B>> for $L
        where
            T: $bound + $crate::promote::Promote<U, Output = T>,
            U: Element,
            B: ArrayBackend,
        {
            #[track_caller]
            fn $m(&mut self, rhs: Array<U, B>) {
                or_panic(match $crate::promote::into_same::<U, T, B>(rhs) {
                    Ok(r) => self.zip_op_inplace($Op, r),
                    Err(r) => r.astype::<T>().and_then(|r| self.zip_op_inplace($Op, r)),
                })
            }
        }
    };
}
pub(crate) use assign_op;

assign_op!(AddAssign, add_assign, Numeric, Add);
assign_op!(SubAssign, sub_assign, Numeric, Sub);
assign_op!(MulAssign, mul_assign, Numeric, Mul);
assign_op!(DivAssign, div_assign, Inexact, Div);
assign_op!(RemAssign, rem_assign, Real, Rem);

use crate::dtype::Inexact;

/// `+` and `*` of two bool arrays, as NumPy's `add` and `multiply` of bools: logical or and
/// logical and (all four owned/borrowed combinations); `-` of bools does not compile, as
/// NumPy refuses it.
macro_rules! bool_binop {
    ($Tr:ident, $m:ident, $f:ident) => {
        bool_binop!(@one $Tr, $m, $f, &Array<bool, B>, &Array<bool, B>, |a| a, |b| b);
        bool_binop!(@one $Tr, $m, $f, &Array<bool, B>, Array<bool, B>, |a| a, |b| &b);
        bool_binop!(@one $Tr, $m, $f, Array<bool, B>, &Array<bool, B>, |a| &a, |b| b);
        bool_binop!(@one $Tr, $m, $f, Array<bool, B>, Array<bool, B>, |a| &a, |b| &b);
    };
    (@one $Tr:ident, $m:ident, $f:ident, $L:ty, $R:ty, |$a:ident| $ra:expr, |$b:ident| $rb:expr) => {
        impl<B: ArrayBackend> ops::$Tr<$R> for $L {
            type Output = Array<bool, B>;
            #[track_caller]
            fn $m(self, rhs: $R) -> Array<bool, B> {
                let ($a, $b) = (self, rhs);
                or_panic($ra.$f($rb))
            }
        }
    };
}
bool_binop!(Add, add, logical_or);
bool_binop!(Mul, mul, logical_and);

/// `/` of two bool arrays: NumPy's true division of bools, in `f64`.
impl<B: ArrayBackend> ops::Div<&Array<bool, B>> for &Array<bool, B> {
    type Output = Array<f64, B>;
    #[track_caller]
    fn div(self, rhs: &Array<bool, B>) -> Array<f64, B> {
        or_panic(
            crate::layout::broadcast_shapes("divide", self.shape(), rhs.shape())
                .and_then(|_| self.astype::<f64>()?.try_div(&rhs.astype::<f64>()?)),
        )
    }
}
