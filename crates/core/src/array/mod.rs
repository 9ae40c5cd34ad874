//! [`Array<T, B>`]: an n-dimensional view (a [`Layout`]) of a shared buffer of `T` on the
//! device `B`. This file holds the type, its accessors, explicit transfers and the plumbing
//! every op goes through; the API is spread over the sibling modules by theme.

mod apply;
mod axes;
mod bits;
mod block;
mod compare;
mod counting;
mod creation;
mod declared;
mod differences;
mod display;
mod elementwise;
mod gradient;
mod grids;
mod histogram;
mod histogramdd;
mod index;
mod index_helpers;
mod index_put;
mod insert_delete;
mod interp;
mod linalg;
mod manip;
mod mask;
mod math;
mod memory_overlap;
mod mixed_scalar;
mod nanreduce;
mod nanscan;
mod numpy_names;
mod operand;
mod operators;
mod pad;
mod polynomial;
mod polynomial_fit;
mod products;
mod products_vec;
mod rearrange;
mod reduce;
mod selection;
mod sets;
mod shape;
mod shape_extra;
mod signal;
mod sort;
mod special;
mod statistics;
mod windows;

pub use axes::Axes;
pub use bits::BitOrder;
pub use block::Block;
pub use elementwise::Branch;
pub use gradient::Spacing;
pub use histogram::{BinRule, Bins};
pub use index_helpers::IndexMode;
pub use insert_delete::IndexObj;
pub use interp::Interp;
pub use linalg::{MatrixNorm, QrMode, multi_dot};
pub use numpy_names::{NormOrd, UniqueCounts, UniqueInverse, ufunc};
pub use operand::Operand;
pub use operators::TrueDivide;
pub use pad::{PadElement, PadMode, PadStat, ReflectType};
pub use polynomial_fit::{PolyCov, PolyFit, PolyFitResult};
pub use products_vec::EinsumPath;
pub use selection::{Piece, Trim};
pub use shape::{ArrayViewMut, resolve_shape};
pub use signal::{ConvolveMethod, ConvolveMode};
pub use statistics::{CovElement, CovOptions, QuantileMethod};
#[allow(unused_imports)]
pub use {
    compare::*, creation::*, display::*, index::*, manip::*, mask::*, math::*, products::*,
    reduce::*, sort::*,
};

use crate::backend::{ArrayBackend, BackendBase};
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::{Layout, shape_size};

/// An n-dimensional array of `T` on the device `B`.
///
/// Cloning is cheap and shares the buffer; a write to an array whose buffer is shared first
/// copies it (copy-on-write), so an immutable array never changes under its owner. Writes
/// through a mutable view ([`Array::slice_mut`]) reach the array it borrows.
///
/// ```
/// use cuprite_core::Array;
/// # fn demo<B: cuprite_core::ArrayBackend>(dev: &B) -> cuprite_core::Result<()> {
/// let a = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], dev)?;
/// assert_eq!(a.shape(), &[2, 2]);
/// assert_eq!(a.t().to_vec()?, vec![1.0, 3.0, 2.0, 4.0]);
/// # Ok(()) }
/// # demo(&cuprite_cpu::Cpu::new()).unwrap();
/// ```
#[derive(Clone)]
pub struct Array<T: Element, B: BackendBase> {
    buf: B::Buffer<T>,
    layout: Layout,
    device: B,
}

/// Unwraps an operator's result, panicking with the error's message at the caller's location.
#[track_caller]
pub(crate) fn or_panic<V>(r: Result<V>) -> V {
    match r {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

impl<T: Element, B: BackendBase> Array<T, B> {
    /// Builds an array from a buffer and a layout on `device`, checking that every element of
    /// the layout lies inside the buffer (whatever its strides and offset: the check cannot
    /// overflow) and that its size fits ([`Layout::check_view`]).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a layout that reaches outside the buffer,
    /// [`Error::TooBig`] for a shape whose byte count exceeds `isize::MAX`.
    pub fn from_raw_parts(buf: B::Buffer<T>, layout: Layout, device: B) -> Result<Self> {
        let len = device.buffer_len(&buf);
        layout.check_view("from_raw_parts", T::DTYPE.size_of(), len)?;
        Ok(Array {
            buf,
            layout,
            device,
        })
    }

    /// A C-contiguous array of `shape` over a fresh buffer (core-internal, sizes trusted).
    pub(crate) fn from_contiguous(buf: B::Buffer<T>, shape: &[usize], device: &B) -> Self {
        debug_assert_eq!(device.buffer_len(&buf), shape_size(shape));
        Array {
            buf,
            layout: Layout::contiguous(shape),
            device: device.clone(),
        }
    }

    /// The same buffer seen through another layout (core-internal, layout trusted).
    pub(crate) fn with_layout(&self, layout: Layout) -> Self {
        Array {
            buf: self.buf.clone(),
            layout,
            device: self.device.clone(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }
    /// Number of elements.
    pub fn size(&self) -> usize {
        self.layout.size()
    }
    /// The runtime dtype.
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }
    /// Size of one element in bytes.
    pub fn itemsize(&self) -> usize {
        T::DTYPE.size_of()
    }
    /// Total bytes of the elements (not of the underlying buffer).
    pub fn nbytes(&self) -> usize {
        self.size() * self.itemsize()
    }
    /// The device the array lives on.
    pub fn device(&self) -> &B {
        &self.device
    }
    /// The layout (shape, strides, offset) of the view.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// Strides in elements.
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }
    /// The underlying buffer (shared with other views).
    pub fn buffer(&self) -> &B::Buffer<T> {
        &self.buf
    }
    /// The underlying buffer ready for writing through the array's own layout, which comes
    /// with it: copy-on-write first makes the buffer unshared (copying it if another array
    /// shares it), so a write through it reaches this array only. For backends' zero-copy
    /// views (an `ndarray::ArrayViewMutD` over a `Cpu` array); replacing the buffer by one
    /// the layout does not fit makes later ops return errors, never read outside it.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a view that reaches some element twice (a broadcast
    /// view is read-only), [`Error::OutOfMemory`] when the copy cannot be allocated.
    pub fn buffer_mut(&mut self) -> Result<(&mut B::Buffer<T>, &Layout)> {
        self.writable("buffer_mut")
    }
    /// True when the view is C-contiguous.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_c_contiguous()
    }

    /// Checks that `other` lives on the same device.
    pub fn check_device<U: Element>(&self, other: &Array<U, B>, op: &'static str) -> Result<()> {
        if self.device == other.device {
            Ok(())
        } else {
            Err(Error::DeviceMismatch {
                op,
                lhs: self.device.label(),
                rhs: other.device.label(),
            })
        }
    }

    /// Prepares an in-place write: the view must not overlap itself (no broadcast view) and
    /// the buffer becomes unshared (copy-on-write). Returns the buffer and the layout.
    pub(crate) fn writable(&mut self, op: &'static str) -> Result<(&mut B::Buffer<T>, &Layout)> {
        if !self.layout.is_writeable_without_overlap() {
            return Err(Error::invalid(
                op,
                format!(
                    "destination of shape {:?} with strides {:?} has elements that overlap \
                     (a broadcast view is read-only); copy it first",
                    self.shape(),
                    self.strides()
                ),
            ));
        }
        if self.device.needs_copy_to_write(&self.buf) {
            let bytes = self.device.buffer_len(&self.buf) * std::mem::size_of::<T>();
            crate::copies::record(op, self.shape(), bytes);
        }
        self.device.make_unique(&mut self.buf)?;
        Ok((&mut self.buf, &self.layout))
    }

    /// Downloads the elements in C order. This is an explicit, blocking transfer.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.device.to_vec(&self.buf, &self.layout)
    }

    /// The single element of a size-1 array (typically a reduction's 0-d result). This is an
    /// explicit, blocking transfer.
    pub fn item(&self) -> Result<T> {
        if self.size() != 1 {
            return Err(Error::invalid(
                "item",
                format!(
                    "can only convert an array of size 1 to a scalar, got shape {:?}",
                    self.shape()
                ),
            ));
        }
        Ok(self.to_vec()?[0])
    }

    /// Copies the array to another device (of any backend). Always an explicit copy: on
    /// the same device a device copy, between two devices of one backend (two GPUs) the
    /// backend's direct path where it has one, otherwise through host memory.
    pub fn to_device<B2: ArrayBackend>(&self, dev: &B2) -> Result<Array<T, B2>> {
        if let Some(same) = (dev as &dyn std::any::Any).downcast_ref::<B>() {
            let buf = if *same == self.device {
                Some(self.device.copy(&self.buf, &self.layout)?)
            } else {
                self.device.copy_to_peer(&self.buf, &self.layout, same)?
            };
            if let Some(buf) = buf {
                let moved: Box<dyn std::any::Any> =
                    Box::new(Array::from_contiguous(buf, self.shape(), same));
                if let Ok(a) = moved.downcast::<Array<T, B2>>() {
                    return Ok(*a);
                }
            }
        }
        let data = self.to_vec()?;
        let buf = dev.from_vec(data)?;
        Ok(Array::from_contiguous(buf, self.shape(), dev))
    }

    /// A C-contiguous copy (shares nothing with `self`).
    pub fn copy(&self) -> Result<Self> {
        let buf = self.device.copy(&self.buf, &self.layout)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// `self` if already C-contiguous, else a C-contiguous copy.
    pub fn to_contiguous(&self) -> Result<Self> {
        if self.is_contiguous() {
            Ok(self.clone())
        } else {
            self.copy()
        }
    }

    /// Converts every element to `U` (NumPy's `astype`, see [`Element::from_scalar`]).
    pub fn astype<U: Element>(&self) -> Result<Array<U, B>> {
        let buf = self.device.cast::<T, U>(&self.buf, &self.layout)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }
}
