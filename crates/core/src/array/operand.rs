//! [`Operand`]: the right-hand side of an in-place write, by reference or by value.
//!
//! **When a write copies.** Arrays share buffers: a view (`a.slice(..)`, a transpose, a
//! reshape) and the array it came from hold the same elements, and each keeps its values
//! whatever the other does (copy-on-write). A write into `a` while another array still
//! shares `a`'s buffer therefore first copies *all* of `a`'s buffer. NumPy's
//! `A[i, j] /= A[j, j]`, translated with the right-hand side as a view kept alive across
//! the write, pays that copy at every step:
//!
//! ```text
//! let d = a.slice(&s![j, j])?;                        // shares a's buffer
//! a.slice_mut(&s![i, j])?.zip_op_inplace(Div, &d)?;  // d alive: all of `a` is copied
//! ```
//!
//! Given by value, the operand is handed over: when it views the buffer being written it
//! is copied alone (its own elements, one here) and dropped, and the write goes to `a` in
//! place:
//!
//! ```
//! # use cuprite_core::*;
//! # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
//! let mut a = Array::<f64, B>::from_vec(vec![4.0, 1.0, 8.0, 2.0], &[2, 2], dev)?;
//! let before = copies::stats().count;
//! let d = a.slice(&s![1, 1])?;
//! a.slice_mut(&s![1, 0])?.zip_op_inplace(ops::Div, d)?; // A[1, 0] /= A[1, 1]
//! assert_eq!(a.to_vec()?, vec![4.0, 1.0, 4.0, 2.0]);
//! assert_eq!(copies::stats().count, before); // no copy of `a`
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```
//!
//! Temporaries never cost a copy (`a.slice_mut(..)?.assign(&(&x * 2.0))`: the product is a
//! new buffer), nor do views that are dropped before the write. [`crate::copies`] counts
//! the copies that remain and logs the large ones on request.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::Result;

/// An operand of an in-place op: `&array` (borrowed: it stays alive, and a write into the
/// buffer it shares copies that buffer first) or `array` (owned: if it views the buffer
/// being written, only its own elements are copied). Both convert with `into()`, so every
/// in-place method takes either.
pub enum Operand<'a, T: Element, B: ArrayBackend> {
    /// Borrowed from the caller.
    Borrowed(&'a Array<T, B>),
    /// Handed over by the caller.
    Owned(Array<T, B>),
}

impl<'a, T: Element, B: ArrayBackend> From<&'a Array<T, B>> for Operand<'a, T, B> {
    fn from(a: &'a Array<T, B>) -> Self {
        Operand::Borrowed(a)
    }
}

impl<T: Element, B: ArrayBackend> From<Array<T, B>> for Operand<'_, T, B> {
    fn from(a: Array<T, B>) -> Self {
        Operand::Owned(a)
    }
}

impl<T: Element, B: ArrayBackend> Operand<'_, T, B> {
    /// The array.
    pub fn get(&self) -> &Array<T, B> {
        match self {
            Operand::Borrowed(a) => a,
            Operand::Owned(a) => a,
        }
    }
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Whether `other` holds the same buffer as `self` (the same first element).
    pub(crate) fn same_buffer(&self, other: &Array<T, B>) -> bool {
        let addr = |a: &Array<T, B>| a.device.buffer_address(&a.buf);
        self.device == other.device
            && matches!((addr(self), addr(other)), (Some(x), Some(y)) if x == y)
    }

    /// An operand ready for a write into `self`: one handed over that holds `self`'s
    /// buffer is replaced by a copy of its own elements (and the original dropped), so that
    /// `self` is no longer shared through it.
    pub(crate) fn detach<'a>(&self, op: Operand<'a, T, B>) -> Result<Operand<'a, T, B>> {
        match op {
            Operand::Owned(o) if self.same_buffer(&o) => Ok(Operand::Owned(o.copy()?)),
            other => Ok(other),
        }
    }
}
