//! Bitwise ops: `bitwise_and/or/xor`, `invert` on integers and bool (the [`Bitwise`]
//! trait), `left_shift`/`right_shift` on integers with NumPy's out-of-range rules.

use super::{BinaryOp, BitAnd, BitNot, BitOr, BitXor, LeftShift, RightShift, UnaryOp};
use crate::dtype::{Element, Integer};

/// Element types with bitwise logic: bool and the integers (every [`Integer`] is one).
pub trait Bitwise: Element + crate::promote::Promote<Self, Output = Self> {
    /// `a & b`.
    fn bit_and(self, other: Self) -> Self;
    /// `a | b`.
    fn bit_or(self, other: Self) -> Self;
    /// `a ^ b`.
    fn bit_xor(self, other: Self) -> Self;
    /// `!a` (logical not for bool, two's-complement inversion for integers).
    fn bit_not(self) -> Self;
}

impl<T: Integer> Bitwise for T {
    #[inline(always)]
    fn bit_and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn bit_or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn bit_xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn bit_not(self) -> Self {
        !self
    }
}

impl Bitwise for bool {
    #[inline(always)]
    fn bit_and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn bit_or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn bit_xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn bit_not(self) -> Self {
        !self
    }
}

macro_rules! bit_binary {
    ($($name:ident, $m:ident;)*) => {$(
        impl<T: Bitwise> BinaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, a: T, b: T) -> T {
                a.$m(b)
            }
        }
    )*};
}
bit_binary! {
    BitAnd, bit_and;
    BitOr, bit_or;
    BitXor, bit_xor;
}

impl<T: Bitwise> UnaryOp<T> for BitNot {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        x.bit_not()
    }
}

/// The shift count if it lies in `0..bits`.
#[inline(always)]
fn shift_count<T: Integer>(b: T) -> Option<usize> {
    let bits = 8 * std::mem::size_of::<T>();
    b.to_usize().filter(|&n| n < bits)
}

impl<T: Integer> BinaryOp<T> for LeftShift {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        match shift_count(b) {
            Some(n) => a << n,
            None => T::zero(),
        }
    }
}

impl<T: Integer> BinaryOp<T> for RightShift {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        match shift_count(b) {
            Some(n) => a >> n,
            None if a < T::zero() => !T::zero(),
            None => T::zero(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_follow_numpy_out_of_range_rules() {
        assert_eq!(LeftShift.apply(1i32, 31), i32::MIN);
        assert_eq!(LeftShift.apply(1i32, 32), 0);
        assert_eq!(LeftShift.apply(1i32, -1), 0);
        assert_eq!(LeftShift.apply(255u8, 4), 240);
        assert_eq!(RightShift.apply(-8i64, 1), -4);
        assert_eq!(RightShift.apply(-8i64, 64), -1);
        assert_eq!(RightShift.apply(8i64, 70), 0);
        assert_eq!(RightShift.apply(200u8, 9), 0);
        assert_eq!(BitNot.apply(0u8), 255);
        assert!(BitXor.apply(true, false));
    }
}
