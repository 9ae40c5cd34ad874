//! NumPy's type promotion between two numeric element types, resolved at compile time:
//! `<T as Promote<U>>::Output` is the type `np.result_type(T, U)` gives (and
//! [`result_type`](crate::dtype::result_type) at run time), so that `&Array<f64> +
//! &Array<i64>` is an `Array<f64>` and `&Array<f32> * &Array<c128>` an `Array<c128>`, with no
//! `astype` written by hand. Every numeric type promotes with itself to itself (a supertrait
//! of [`Numeric`](crate::dtype::Numeric)), so generic code over one `T` is unchanged.
//!
//! The operands an operator receives are brought to the output type by [`promoted`]: the
//! operand already of that type is borrowed, the other converted once.

use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{Element, bf16, c64, c128, f16};
use crate::error::Result;
use std::any::Any;

/// The element type NumPy gives an operation between a value of `Self` and one of `U`
/// (`np.result_type`): the smallest type both convert to without losing their kind
/// (`i8` with `u8` is `i16`, `i64` with `u64` is `f64`, `f32` with `i32` is `f64`, a real
/// with a complex type the complex type wide enough for both).
///
/// ```
/// use cuprite_core::{Promote, dtype::c128};
/// fn output_of<T: Promote<U>, U>() -> &'static str {
///     std::any::type_name::<<T as Promote<U>>::Output>()
/// }
/// assert_eq!(output_of::<f64, i64>(), "f64");
/// assert_eq!(output_of::<u8, i8>(), "i16");
/// assert!(output_of::<f32, c128>().ends_with("Complex<f64>"));
/// ```
pub trait Promote<U>: Element {
    /// The promoted type.
    type Output: Element;
}

/// One row of the table: `Self = $a` with each `U`.
macro_rules! promote_row {
    ($($a:ty: $($b:ty => $o:ty),*;)*) => {$($(
        impl Promote<$b> for $a {
            type Output = $o;
        }
    )*)*};
}

// Made by NumPy 2's `np.result_type` (bf16, which NumPy lacks, by `result_type`'s rules:
// it meets the 8-bit integers in itself, f16 and the 16-bit integers in f32, wider integers
// in f64); the test below checks every cell against `result_type`.
promote_row! {
    i8: i8 => i8, u8 => i16, i16 => i16, u16 => i32, i32 => i32, u32 => i64, i64 => i64, u64 => f64, f16 => f16, bf16 => bf16, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    u8: i8 => i16, u8 => u8, i16 => i16, u16 => u16, i32 => i32, u32 => u32, i64 => i64, u64 => u64, f16 => f16, bf16 => bf16, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    i16: i8 => i16, u8 => i16, i16 => i16, u16 => i32, i32 => i32, u32 => i64, i64 => i64, u64 => f64, f16 => f32, bf16 => f32, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    u16: i8 => i32, u8 => u16, i16 => i32, u16 => u16, i32 => i32, u32 => u32, i64 => i64, u64 => u64, f16 => f32, bf16 => f32, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    i32: i8 => i32, u8 => i32, i16 => i32, u16 => i32, i32 => i32, u32 => i64, i64 => i64, u64 => f64, f16 => f64, bf16 => f64, f32 => f64, f64 => f64, c64 => c128, c128 => c128;
    u32: i8 => i64, u8 => u32, i16 => i64, u16 => u32, i32 => i64, u32 => u32, i64 => i64, u64 => u64, f16 => f64, bf16 => f64, f32 => f64, f64 => f64, c64 => c128, c128 => c128;
    i64: i8 => i64, u8 => i64, i16 => i64, u16 => i64, i32 => i64, u32 => i64, i64 => i64, u64 => f64, f16 => f64, bf16 => f64, f32 => f64, f64 => f64, c64 => c128, c128 => c128;
    u64: i8 => f64, u8 => u64, i16 => f64, u16 => u64, i32 => f64, u32 => u64, i64 => f64, u64 => u64, f16 => f64, bf16 => f64, f32 => f64, f64 => f64, c64 => c128, c128 => c128;
    f16: i8 => f16, u8 => f16, i16 => f32, u16 => f32, i32 => f64, u32 => f64, i64 => f64, u64 => f64, f16 => f16, bf16 => f32, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    bf16: i8 => bf16, u8 => bf16, i16 => f32, u16 => f32, i32 => f64, u32 => f64, i64 => f64, u64 => f64, f16 => f32, bf16 => bf16, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    f32: i8 => f32, u8 => f32, i16 => f32, u16 => f32, i32 => f64, u32 => f64, i64 => f64, u64 => f64, f16 => f32, bf16 => f32, f32 => f32, f64 => f64, c64 => c64, c128 => c128;
    f64: i8 => f64, u8 => f64, i16 => f64, u16 => f64, i32 => f64, u32 => f64, i64 => f64, u64 => f64, f16 => f64, bf16 => f64, f32 => f64, f64 => f64, c64 => c128, c128 => c128;
    c64: i8 => c64, u8 => c64, i16 => c64, u16 => c64, i32 => c128, u32 => c128, i64 => c128, u64 => c128, f16 => c64, bf16 => c64, f32 => c64, f64 => c128, c64 => c64, c128 => c128;
    c128: i8 => c128, u8 => c128, i16 => c128, u16 => c128, i32 => c128, u32 => c128, i64 => c128, u64 => c128, f16 => c128, bf16 => c128, f32 => c128, f64 => c128, c64 => c128, c128 => c128;
}

/// `bool` with any type is that type (NumPy's `result_type(bool, x)`).
macro_rules! promote_bool {
    ($($t:ty),*) => {$(
        impl Promote<bool> for $t {
            type Output = $t;
        }
        impl Promote<$t> for bool {
            type Output = $t;
        }
    )*};
}
promote_bool!(
    i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128
);
impl Promote<bool> for bool {
    type Output = bool;
}

/// An operand brought to the promoted type: the array itself when it already has that
/// type, else its converted copy.
pub enum Promoted<'a, O: Element, B: ArrayBackend> {
    /// The operand, of the output type already.
    Same(&'a Array<O, B>),
    /// The operand converted.
    Cast(Array<O, B>),
}

impl<O: Element, B: ArrayBackend> Promoted<'_, O, B> {
    /// The operand at the promoted type.
    pub fn get(&self) -> &Array<O, B> {
        match self {
            Promoted::Same(a) => a,
            Promoted::Cast(a) => a,
        }
    }

    /// The operand at the promoted type, owned: a handle sharing the array's buffer when it
    /// already had the type.
    pub fn into_owned(self) -> Array<O, B> {
        match self {
            Promoted::Same(a) => a.clone(),
            Promoted::Cast(a) => a,
        }
    }
}

/// `a` as an array of `O`: borrowed when `T` is `O`, converted (one pass) otherwise.
pub fn promoted<T: Element, O: Element, B: ArrayBackend>(
    a: &Array<T, B>,
) -> Result<Promoted<'_, O, B>> {
    match (a as &dyn Any).downcast_ref::<Array<O, B>>() {
        Some(same) => Ok(Promoted::Same(same)),
        None => Ok(Promoted::Cast(a.astype::<O>()?)),
    }
}

/// `a` as an array of `O`, owned: sharing `a`'s buffer when `T` is `O`, else converted.
pub fn cast_or_share<T: Element, O: Element, B: ArrayBackend>(
    a: &Array<T, B>,
) -> Result<Array<O, B>> {
    Ok(promoted(a)?.into_owned())
}

/// `a` itself when `T` is `O` (handed over, not copied), else `Err(a)` back.
pub fn into_same<T: Element, O: Element, B: ArrayBackend>(
    a: Array<T, B>,
) -> std::result::Result<Array<O, B>, Array<T, B>> {
    let mut slot = Some(a);
    match (&mut slot as &mut dyn Any).downcast_mut::<Option<Array<O, B>>>() {
        Some(same) => Ok(same.take().expect("the slot was just filled")),
        None => Err(slot.take().expect("the slot was just filled")),
    }
}

/// `a` and `b` brought to their promoted type `O`, their shapes checked to broadcast first
/// (so that a shape error never pays for a conversion).
pub fn promoted_pair<'a, T, U, O, B>(
    op: &'static str,
    a: &'a Array<T, B>,
    b: &'a Array<U, B>,
) -> Result<(Promoted<'a, O, B>, Promoted<'a, O, B>)>
where
    T: Element,
    U: Element,
    O: Element,
    B: ArrayBackend,
{
    if T::DTYPE != U::DTYPE {
        a.check_device(b, op)?;
        crate::layout::broadcast_shapes(op, a.shape(), b.shape())?;
    }
    Ok((promoted(a)?, promoted(b)?))
}

#[cfg(test)]
mod tests {
    use super::Promote;
    use crate::dtype::{DType, Element, bf16, c64, c128, f16, result_type};

    /// `<T as Promote<U>>::Output`'s dtype.
    fn out<T: Promote<U>, U>() -> DType {
        <<T as Promote<U>>::Output as Element>::DTYPE
    }

    macro_rules! check_all {
        ($($a:ty),*) => {{
            let mut cells = 0;
            $( check_all!(@row $a; bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128; cells); )*
            cells
        }};
        (@row $a:ty; $($b:ty),*; $cells:ident) => {$(
            assert_eq!(
                out::<$a, $b>(),
                result_type(<$a>::DTYPE, <$b>::DTYPE),
                "{} with {}", stringify!($a), stringify!($b)
            );
            $cells += 1;
        )*};
    }

    #[test]
    fn every_cell_is_result_type() {
        let cells = check_all!(
            bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, c64, c128
        );
        assert_eq!(cells, 15 * 15);
    }

    #[test]
    fn promotion_is_symmetric_and_idempotent() {
        assert_eq!(out::<i64, f32>(), out::<f32, i64>());
        assert_eq!(out::<u8, i8>(), DType::I16);
        assert_eq!(out::<c64, f64>(), DType::C128);
        assert_eq!(out::<f16, f16>(), DType::F16);
        let _: fn() -> DType = out::<c128, c128>;
        let _: fn() -> DType = out::<bf16, c64>;
    }
}
