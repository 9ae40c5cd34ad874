//! Views: reshape, transpose, slicing (immutable and mutable), broadcasting. Every op here
//! changes the layout only and shares the buffer, except `reshape` of a view whose strides
//! do not allow it, which copies.

use super::Array;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::{Layout, check_shape};
use crate::ops::{BinaryOp, UnaryOp};
use crate::slice::{SliceArg, apply_slice};

/// Resolves a NumPy reshape argument with at most one `-1` against `size` elements. The
/// products are exact (no wrapping), so a shape whose product overflows never matches.
///
/// # Errors
/// [`Error::InvalidArgument`] for a second `-1`, a negative dimension, or a shape whose
/// size is not `size`.
pub fn resolve_shape(
    op: &'static str,
    shape: &[isize],
    size: usize,
    from: &[usize],
) -> Result<Vec<usize>> {
    let mut infer = None;
    // Product of the known dimensions, `None` once it exceeds `usize` (then it cannot be
    // `size`, nor a divisor of it unless a zero follows).
    let mut known = Some(1usize);
    let mut has_zero = false;
    for (i, &d) in shape.iter().enumerate() {
        if d == -1 {
            if infer.replace(i).is_some() {
                return Err(Error::invalid(
                    op,
                    "can only specify one unknown dimension (-1)",
                ));
            }
        } else if d < 0 {
            return Err(Error::invalid(
                op,
                format!("negative dimension {d} in {shape:?}"),
            ));
        } else if d == 0 {
            has_zero = true;
        } else {
            known = known.and_then(|k| k.checked_mul(d as usize));
        }
    }
    let known = if has_zero { Some(0) } else { known };
    let mut out: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(i) = infer {
        let Some(known) = known.filter(|&k| k != 0 && size.is_multiple_of(k)) else {
            return Err(Error::invalid(
                op,
                format!(
                    "cannot reshape array of size {size} (shape {from:?}) into shape {shape:?}"
                ),
            ));
        };
        out[i] = size / known;
    } else if known != Some(size) {
        return Err(Error::invalid(
            op,
            format!("cannot reshape array of size {size} (shape {from:?}) into shape {shape:?}"),
        ));
    }
    Ok(out)
}

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// A new shape with the same elements in C order; one dimension may be `-1` (inferred).
    /// A view when the strides allow it, else a copy.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(6, 0, 1, dev)?;
    /// assert_eq!(a.reshape(&[-1, 3])?.shape(), &[2, 3]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn reshape(&self, shape: &[isize]) -> Result<Self> {
        let shape = resolve_shape("reshape", shape, self.size(), self.shape())?;
        // Same size as `self`, but a zero-size shape may still have huge other dimensions.
        check_shape("reshape", &shape, self.itemsize())?;
        match self.layout.reshaped(&shape) {
            Some(l) => Ok(self.with_layout(l)),
            None => {
                let c = self.copy()?;
                Ok(c.with_layout(Layout::contiguous(&shape)))
            }
        }
    }

    /// The elements as a 1-d array (a view when possible).
    pub fn ravel(&self) -> Result<Self> {
        self.reshape(&[-1])
    }

    /// The elements as a new 1-d array (always a copy).
    pub fn flatten(&self) -> Result<Self> {
        let c = self.copy()?;
        Ok(c.with_layout(Layout::contiguous(&[self.size()])))
    }

    /// Axes reversed (a view).
    pub fn t(&self) -> Self {
        self.with_layout(self.layout.transposed())
    }

    /// Axes reversed (a view); same as [`Array::t`].
    pub fn transpose(&self) -> Self {
        self.t()
    }

    /// Axes reordered: axis `i` of the result is axis `axes[i]` of `self` (a view).
    pub fn permute_dims(&self, axes: &[isize]) -> Result<Self> {
        Ok(self.with_layout(self.layout.permute("permute_dims", axes)?))
    }

    /// Basic indexing with [`s!`](crate::s): ranges with steps, indices, new axes, ellipsis.
    /// The result is a view sharing the buffer.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::ramp(10, 0, 1, dev)?;
    /// assert_eq!(a.slice(&s![..;-3])?.to_vec()?, vec![9, 6, 3, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn slice(&self, args: &[SliceArg]) -> Result<Self> {
        Ok(self.with_layout(apply_slice(&self.layout, args)?))
    }

    /// A mutable view: writes through it reach `self`.
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let mut a = Array::<i32, B>::zeros(&[2, 3], dev)?;
    /// a.slice_mut(&s![.., 1])?.fill(7)?;
    /// assert_eq!(a.to_vec()?, vec![0, 7, 0, 0, 7, 0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn slice_mut(&mut self, args: &[SliceArg]) -> Result<ArrayViewMut<'_, T, B>> {
        let layout = apply_slice(&self.layout, args)?;
        Ok(ArrayViewMut { base: self, layout })
    }

    /// A read-only view with the shape broadcast to `shape` (zero strides).
    ///
    /// # Errors
    /// [`Error::Broadcast`] for incompatible shapes, [`Error::TooBig`] when `shape` has
    /// more elements than an array may (a view counts as its shape, as in NumPy).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Self> {
        check_shape("broadcast_to", shape, self.itemsize())?;
        Ok(self.with_layout(self.layout.broadcast_to("broadcast_to", shape)?))
    }
}

/// A mutable view into an array, from [`Array::slice_mut`]. Writes reach the array it borrows.
///
/// # Panics in user ops
/// An op given to [`ArrayViewMut::map_op_inplace`] and its siblings may panic (a user
/// [`UnaryOp`] or [`BinaryOp`] is arbitrary code). The borrowed array then keeps its own
/// shape, strides and offset (they are restored by a drop guard while the panic unwinds)
/// and stays a valid array, but the elements of the view may be partly written: some hold
/// the op's results, the others their old values, in an order the backend chooses. Nothing
/// outside the view is written.
pub struct ArrayViewMut<'a, T: Element, B: ArrayBackend> {
    base: &'a mut Array<T, B>,
    layout: Layout,
}

impl<T: Element, B: ArrayBackend> ArrayViewMut<'_, T, B> {
    /// The shape of the view.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// An immutable array of the view's current contents (shares the buffer until the next
    /// write, which copies on write).
    pub fn to_array(&self) -> Array<T, B> {
        self.base.with_layout(self.layout.clone())
    }

    /// Runs an in-place op on the base with the view's layout. The base's own layout comes
    /// back when `f` returns and also when it panics (a drop guard), so a panicking user op
    /// can leave partly written elements but never a base with the view's shape.
    fn with_view<R>(&mut self, f: impl FnOnce(&mut Array<T, B>) -> Result<R>) -> Result<R> {
        /// Puts the saved layout back into the base when dropped, unwinding included.
        struct Restore<'b, T: Element, B: ArrayBackend> {
            base: &'b mut Array<T, B>,
            saved: Option<Layout>,
        }
        impl<T: Element, B: ArrayBackend> Drop for Restore<'_, T, B> {
            fn drop(&mut self) {
                if let Some(l) = self.saved.take() {
                    self.base.layout = l;
                }
            }
        }
        let saved = std::mem::replace(&mut self.base.layout, self.layout.clone());
        let guard = Restore {
            base: &mut *self.base,
            saved: Some(saved),
        };
        f(&mut *guard.base)
    }

    /// Writes `src` (broadcast to the view's shape) into the view; `src` by reference or
    /// by value ([`Operand`](super::Operand)): a view of the same array given by value is
    /// copied alone, never the whole array.
    pub fn assign<'o>(&mut self, src: impl Into<super::Operand<'o, T, B>>) -> Result<()> {
        let src = src.into();
        self.with_view(|a| a.assign(src))
    }

    /// Sets every element of the view to `value`.
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.with_view(|a| a.fill(value))
    }

    /// `view = op(view)` in place.
    pub fn map_op_inplace<K: UnaryOp<T, Out = T>>(&mut self, op: K) -> Result<()> {
        self.with_view(|a| a.map_op_inplace(op))
    }

    /// `view = op(view, other)` in place, `other` broadcast to the view's shape; `other` by
    /// reference or by value, as in [`ArrayViewMut::assign`].
    pub fn zip_op_inplace<'o, K: BinaryOp<T, Out = T>>(
        &mut self,
        op: K,
        other: impl Into<super::Operand<'o, T, B>>,
    ) -> Result<()> {
        let other = other.into();
        self.with_view(|a| a.zip_op_inplace(op, other))
    }

    /// `view = op(view, s)` in place.
    pub fn scalar_op_inplace<K: BinaryOp<T, Out = T>>(&mut self, op: K, s: T) -> Result<()> {
        self.with_view(|a| a.scalar_op_inplace(op, s))
    }

    /// A mutable view of a part of this view.
    pub fn slice_mut(&mut self, args: &[SliceArg]) -> Result<ArrayViewMut<'_, T, B>> {
        let layout = apply_slice(&self.layout, args)?;
        Ok(ArrayViewMut {
            base: self.base,
            layout,
        })
    }
}
