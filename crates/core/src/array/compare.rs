//! Comparisons, logical and bitwise ops on arrays, and `isclose`/`allclose`.
//!
//! **Names.** `eq`, `ne`, `lt`, `le`, `gt`, `ge` compare two arrays broadcast together
//! (NumPy's `equal`, `not_equal`, `less`, ...); the `_scalar` forms (`lt_scalar(0.0)`)
//! compare every element with one value. All give `Array<bool, B>`; none of them is the
//! `PartialEq`/`PartialOrd` of the array (arrays do not implement those traits). `eq`/`ne`
//! accept every element type (NaN is unequal to everything), the orderings need [`Real`].
//!
//! **Operators.** `&`, `|`, `^` and `!` on integer and bool arrays, `<<` and `>>` on integer
//! arrays, with an array or a scalar on the right, and `&= |= ^= <<= >>=`. Like the
//! arithmetic operators they panic at the caller with the error's message on shapes that
//! do not broadcast; the methods (`bitwise_and`, `left_shift`, ...) are the `Result` twins.

use super::operators::assign_op;
use super::{Array, or_panic};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, Integer, Numeric, Real};
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::*;
use std::ops;

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// `self == other` element-wise, broadcast (NumPy's `equal`; NaN is unequal to all).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i32, B>::from_vec(vec![1, 2, 3, 4], &[2, 2], dev)?;
    /// let row = Array::<i32, B>::from_vec(vec![1, 4], &[2], dev)?;
    /// assert_eq!(a.eq(&row)?.to_vec()?, vec![true, false, false, true]);
    /// assert_eq!(a.gt_scalar(2)?.to_vec()?, vec![false, false, true, true]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn eq(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Eq, other)
    }
    /// `self != other` element-wise, broadcast (NumPy's `not_equal`; true for NaN).
    pub fn ne(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Ne, other)
    }
    /// `x == s` for every element.
    pub fn eq_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Eq, s)
    }
    /// `x != s` for every element.
    pub fn ne_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Ne, s)
    }

    /// Both truthy (nonzero), broadcast (NumPy's `logical_and`).
    pub fn logical_and(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(LogicalAnd, other)
    }
    /// Either truthy, broadcast (NumPy's `logical_or`).
    pub fn logical_or(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(LogicalOr, other)
    }
    /// Exactly one truthy, broadcast (NumPy's `logical_xor`).
    pub fn logical_xor(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(LogicalXor, other)
    }
    /// Not truthy (NumPy's `logical_not`).
    pub fn logical_not(&self) -> Result<Array<bool, B>> {
        self.map_op(LogicalNot)
    }
}

impl<T: Real, B: ArrayBackend> Array<T, B> {
    /// `self < other`, broadcast (NumPy's `less`; false with a NaN).
    pub fn lt(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Lt, other)
    }
    /// `self <= other`, broadcast (NumPy's `less_equal`).
    pub fn le(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Le, other)
    }
    /// `self > other`, broadcast (NumPy's `greater`).
    pub fn gt(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Gt, other)
    }
    /// `self >= other`, broadcast (NumPy's `greater_equal`).
    pub fn ge(&self, other: &Self) -> Result<Array<bool, B>> {
        self.zip_op(Ge, other)
    }
    /// `x < s` for every element.
    pub fn lt_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Lt, s)
    }
    /// `x <= s` for every element.
    pub fn le_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Le, s)
    }
    /// `x > s` for every element.
    pub fn gt_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Gt, s)
    }
    /// `x >= s` for every element.
    pub fn ge_scalar(&self, s: T) -> Result<Array<bool, B>> {
        self.scalar_op(Ge, s)
    }
}

impl<T: Numeric, B: ArrayBackend> Array<T, B> {
    /// NumPy's `isclose(self, other, rtol, atol, equal_nan)`, broadcast: true where
    /// `|a - b| <= atol + rtol * |b|` (`b` finite), where `a == b` (equal infinities), and
    /// where both are NaN if `equal_nan`. Evaluated in f64 (complex: c128). NumPy's defaults
    /// are `rtol = 1e-5`, `atol = 1e-8`, `equal_nan = false`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN, f64::INFINITY], &[3], dev)?;
    /// let b = Array::<f64, B>::from_vec(vec![1.0 + 1e-9, f64::NAN, f64::INFINITY], &[3], dev)?;
    /// assert_eq!(a.isclose(&b, 1e-5, 1e-8, true)?.to_vec()?, vec![true, true, true]);
    /// assert!(!a.allclose(&b, 1e-5, 1e-8, false)?.item()?);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn isclose(
        &self,
        other: &Self,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<Array<bool, B>> {
        self.zip_op(
            IsClose {
                rtol,
                atol,
                equal_nan,
            },
            other,
        )
    }

    /// NumPy's `allclose`: a 0-d bool array, true when [`Array::isclose`] holds everywhere
    /// (true for empty arrays). Read it with `item()`.
    pub fn allclose(
        &self,
        other: &Self,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<Array<bool, B>> {
        let c = self.isclose(other, rtol, atol, equal_nan)?;
        let axes: Vec<usize> = (0..c.ndim()).collect();
        let buf = c.device.reduce(All, &c.buf, &c.layout, &axes)?;
        Array::from_raw_parts(buf, Layout::contiguous(&[]), c.device.clone())
    }
}

impl<T: Bitwise, B: ArrayBackend> Array<T, B> {
    /// `self & other` bit by bit, broadcast (logical and for bool arrays).
    pub fn bitwise_and(&self, other: &Self) -> Result<Self> {
        self.zip_op(BitAnd, other)
    }
    /// `self | other` bit by bit, broadcast.
    pub fn bitwise_or(&self, other: &Self) -> Result<Self> {
        self.zip_op(BitOr, other)
    }
    /// `self ^ other` bit by bit, broadcast.
    pub fn bitwise_xor(&self, other: &Self) -> Result<Self> {
        self.zip_op(BitXor, other)
    }
    /// `!self` bit by bit (NumPy's `invert`; logical not for bool arrays).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<u8, B>::from_vec(vec![0, 0b1010], &[2], dev)?;
    /// assert_eq!(a.bitwise_not()?.to_vec()?, vec![255, 0b1111_0101]);
    /// assert_eq!((&a | 1).to_vec()?, vec![1, 0b1011]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn bitwise_not(&self) -> Result<Self> {
        self.map_op(BitNot)
    }
    /// Alias of [`Array::bitwise_not`] (NumPy's `invert`).
    pub fn invert(&self) -> Result<Self> {
        self.bitwise_not()
    }
}

impl<T: Integer, B: ArrayBackend> Array<T, B> {
    /// `self << other`, broadcast; 0 where the count is negative or not below the bit width.
    pub fn left_shift(&self, other: &Self) -> Result<Self> {
        self.zip_op(LeftShift, other)
    }
    /// `self >> other` (arithmetic for signed types), broadcast; where the count is negative
    /// or not below the bit width, -1 for negative elements and 0 otherwise.
    pub fn right_shift(&self, other: &Self) -> Result<Self> {
        self.zip_op(RightShift, other)
    }
}

/// Binary operators between arrays, and between an array and a scalar on the right.
macro_rules! bit_binop {
    ($Tr:ident, $m:ident, $bound:ident, $Op:ident) => {
        impl<T: $bound, B: ArrayBackend> ops::$Tr<&Array<T, B>> for &Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: &Array<T, B>) -> Array<T, B> {
                or_panic(self.zip_op($Op, rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<Array<T, B>> for &Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: Array<T, B>) -> Array<T, B> {
                or_panic(self.zip_op($Op, &rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<&Array<T, B>> for Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: &Array<T, B>) -> Array<T, B> {
                or_panic(self.zip_op($Op, rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<Array<T, B>> for Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: Array<T, B>) -> Array<T, B> {
                or_panic(self.zip_op($Op, &rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for &Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: T) -> Array<T, B> {
                or_panic(self.scalar_op($Op, rhs))
            }
        }
        impl<T: $bound, B: ArrayBackend> ops::$Tr<T> for Array<T, B> {
            type Output = Array<T, B>;
            #[track_caller]
            fn $m(self, rhs: T) -> Array<T, B> {
                or_panic(self.scalar_op($Op, rhs))
            }
        }
    };
}
bit_binop!(BitAnd, bitand, Bitwise, BitAnd);
bit_binop!(BitOr, bitor, Bitwise, BitOr);
bit_binop!(BitXor, bitxor, Bitwise, BitXor);
bit_binop!(Shl, shl, Integer, LeftShift);
bit_binop!(Shr, shr, Integer, RightShift);

assign_op!(BitAndAssign, bitand_assign, Bitwise, BitAnd);
assign_op!(BitOrAssign, bitor_assign, Bitwise, BitOr);
assign_op!(BitXorAssign, bitxor_assign, Bitwise, BitXor);
assign_op!(ShlAssign, shl_assign, Integer, LeftShift);
assign_op!(ShrAssign, shr_assign, Integer, RightShift);

impl<T: Bitwise, B: ArrayBackend> ops::Not for &Array<T, B> {
    type Output = Array<T, B>;
    #[track_caller]
    fn not(self) -> Array<T, B> {
        or_panic(self.map_op(BitNot))
    }
}
impl<T: Bitwise, B: ArrayBackend> ops::Not for Array<T, B> {
    type Output = Array<T, B>;
    #[track_caller]
    fn not(self) -> Array<T, B> {
        or_panic(self.map_op(BitNot))
    }
}
