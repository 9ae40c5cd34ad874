//! Memory primitives: allocation, upload, download, copies, fills, casts.

use crate::dtype::{Element, Numeric};
use crate::error::Result;
use crate::layout::Layout;
use std::fmt::Debug;

/// A device handle and its memory primitives. Cheap to clone; equal handles name the same
/// device.
pub trait BackendBase: Clone + Send + Sync + Debug + PartialEq + 'static {
    /// A shared, reference-counted buffer of `T` on this device (cloning it is cheap and
    /// shares the memory).
    type Buffer<T: Element>: Clone + Send + Sync;

    /// The device's name as printed in messages (`"cpu"`, `"cuda:0"`).
    fn label(&self) -> String;
    /// Waits until all work queued on the device has finished.
    fn synchronize(&self) -> Result<()>;
    /// Number of elements in a buffer.
    fn buffer_len<T: Element>(&self, buf: &Self::Buffer<T>) -> usize;

    /// A new buffer of `len` copies of `value`.
    fn full<T: Element>(&self, len: usize, value: T) -> Result<Self::Buffer<T>>;
    /// Uploads host data.
    #[allow(clippy::wrong_self_convention)]
    fn from_vec<T: Element>(&self, data: Vec<T>) -> Result<Self::Buffer<T>>;
    /// Downloads the elements of a view in C order (a blocking transfer).
    fn to_vec<T: Element>(&self, buf: &Self::Buffer<T>, layout: &Layout) -> Result<Vec<T>>;
    /// A new C-contiguous buffer holding the elements of a view.
    fn copy<T: Element>(&self, buf: &Self::Buffer<T>, layout: &Layout) -> Result<Self::Buffer<T>>;
    /// Writes the view `src` into the view `dst` (same shape; `dst` has no overlapping
    /// elements and is not shared, see [`BackendBase::make_unique`]).
    fn assign<T: Element>(
        &self,
        dst: &mut Self::Buffer<T>,
        dst_layout: &Layout,
        src: &Self::Buffer<T>,
        src_layout: &Layout,
    ) -> Result<()>;
    /// Sets every element of the view to `value`.
    fn fill<T: Element>(&self, dst: &mut Self::Buffer<T>, layout: &Layout, value: T) -> Result<()>;
    /// Makes `buf` the only owner of its memory, copying it if it is shared (copy-on-write
    /// before any in-place write).
    fn make_unique<T: Element>(&self, buf: &mut Self::Buffer<T>) -> Result<()>;
    /// A new C-contiguous buffer with the view's elements converted to `U`.
    fn cast<T: Element, U: Element>(
        &self,
        buf: &Self::Buffer<T>,
        layout: &Layout,
    ) -> Result<Self::Buffer<U>>;
    /// `start + i * step` for `i in 0..n`.
    fn arange<T: Numeric>(&self, n: usize, start: T, step: T) -> Result<Self::Buffer<T>>;
}
