//! `+ - * / %` between an array and a scalar of another kind, as NumPy 2 treats Python's
//! scalars (weak scalars, NEP 50): an `f64` with an integer array gives `f64` (`x_i64 *
//! 0.5`), a `c128` with a real array the complex type of the array's precision (`x_f32 *
//! c128::new(0.0, 1.0)` is `c64`, as `x * 1j`), a `c64` with a real array NumPy's promoted
//! type. A scalar of the array's own type keeps it (`x_f32 * 2.0` stays `f32`, the
//! operators of `operators.rs`); no other float scalar is taken, so that a float literal
//! always has one type to be.

use super::{Array, or_panic};
use crate::backend::ArrayBackend;
use crate::dtype::{Element, bf16, c64, c128, f16};
use crate::error::Result;
use crate::ops::{Add, Div, Mul, Rem, Sub};
use std::ops;

/// `a` converted to `O`, then `f(a, s)` with the scalar converted to `O`.
fn at<A: Element, S: Element, O: Element, B: ArrayBackend>(
    a: &Array<A, B>,
    s: S,
) -> (Result<Array<O, B>>, O) {
    (a.astype::<O>(), O::from_scalar(s.to_scalar()))
}

/// The operators `$ops` between arrays of `$a` and scalars of `$s`, giving arrays of `$o`,
/// the scalar on either side.
macro_rules! mixed {
    ($ops:tt; $($a:ty, $s:ty => $o:ty;)*) => {$( mixed!(@each $ops $a, $s, $o); )*};
    (@each [$($Tr:ident $m:ident),*] $a:ty, $s:ty, $o:ty) => {$(
        impl<B: ArrayBackend> ops::$Tr<$s> for &Array<$a, B> {
            type Output = Array<$o, B>;
            #[track_caller]
            fn $m(self, s: $s) -> Array<$o, B> {
                let (a, s) = at::<$a, $s, $o, B>(self, s);
                or_panic(a.and_then(|a| a.scalar_op($Tr, s)))
            }
        }
        impl<B: ArrayBackend> ops::$Tr<$s> for Array<$a, B> {
            type Output = Array<$o, B>;
            #[track_caller]
            fn $m(self, s: $s) -> Array<$o, B> {
                (&self).$m(s)
            }
        }
        impl<B: ArrayBackend> ops::$Tr<&Array<$a, B>> for $s {
            type Output = Array<$o, B>;
            #[track_caller]
            fn $m(self, a: &Array<$a, B>) -> Array<$o, B> {
                let (a, s) = at::<$a, $s, $o, B>(a, self);
                or_panic(a.and_then(|a| a.scalar_op_rev($Tr, s)))
            }
        }
        impl<B: ArrayBackend> ops::$Tr<Array<$a, B>> for $s {
            type Output = Array<$o, B>;
            #[track_caller]
            fn $m(self, a: Array<$a, B>) -> Array<$o, B> {
                self.$m(&a)
            }
        }
    )*};
}

// A Python float with an integer array: float64.
mixed! {
    [Add add, Sub sub, Mul mul, Div div, Rem rem];
    i8, f64 => f64; u8, f64 => f64; i16, f64 => f64; u16, f64 => f64;
    i32, f64 => f64; u32, f64 => f64; i64, f64 => f64; u64, f64 => f64;
}

mixed! {
    [Add add, Sub sub, Mul mul, Div div];
    // A Python complex with a real array: the complex type of its precision.
    i8, c128 => c128; u8, c128 => c128; i16, c128 => c128; u16, c128 => c128;
    i32, c128 => c128; u32, c128 => c128; i64, c128 => c128; u64, c128 => c128;
    f16, c128 => c64; bf16, c128 => c64; f32, c128 => c64; f64, c128 => c128;
    // A complex64 scalar: NumPy's promotion.
    i8, c64 => c64; u8, c64 => c64; i16, c64 => c64; u16, c64 => c64;
    i32, c64 => c128; u32, c64 => c128; i64, c64 => c128; u64, c64 => c128;
    f16, c64 => c64; bf16, c64 => c64; f32, c64 => c64; f64, c64 => c128;
}
