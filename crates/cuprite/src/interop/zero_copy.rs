//! [`NdarrayCpuExt`]: `ndarray` and `Array<T, Cpu>` sharing memory, without copies.

use cuprite_core::{Array, Element, Layout, Result};
use cuprite_cpu::{Cpu, CpuBuffer};
use ndarray::{ArrayViewD, ArrayViewMutD, Dimension};

/// Zero-copy conversions between `ndarray` and `Array<T, Cpu>`.
///
/// ```
/// use cuprite::prelude::*;
/// use ndarray::{array, Axis};
///
/// // An ndarray array's vector becomes the buffer: no copy, whatever its layout.
/// let mut m = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// m.invert_axis(Axis(1)); // a negative stride
/// let first = m.as_ptr();
/// let mut a = Array::<f64, Cpu>::from_ndarray_owned(m)?;
/// assert_eq!(a.to_vec()?, vec![3.0, 2.0, 1.0, 6.0, 5.0, 4.0]);
///
/// // A view of the array's memory, through its layout.
/// let v = a.as_ndarray()?;
/// assert_eq!(v.as_ptr(), first);
/// assert_eq!(v.t()[[0, 1]], 6.0);
///
/// // A mutable view writes this array only: `b` shared the buffer, so it is copied first.
/// let b = a.clone();
/// a.as_ndarray_mut()?.fill(0.0);
/// assert_eq!(a.to_vec()?, vec![0.0; 6]);
/// assert_eq!(b.to_vec()?, vec![3.0, 2.0, 1.0, 6.0, 5.0, 4.0]);
/// # Ok::<(), cuprite::Error>(())
/// ```
pub trait NdarrayCpuExt<T: Element>: Sized {
    /// A read-only `ndarray` view of the array's elements, without copying: the same
    /// shape, strides (negative and zero ones included) and memory.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](cuprite_core::Error::InvalidArgument) when the array's
    /// layout does not fit its buffer (possible only after
    /// [`Array::buffer_mut`] replaced the buffer).
    fn as_ndarray(&self) -> Result<ArrayViewD<'_, T>>;

    /// A mutable `ndarray` view of the array's elements. Copy-on-write first: when another
    /// array shares the buffer (a clone, a view, an exported DLPack tensor) or the memory
    /// is borrowed read-only from another library, the elements are copied into a buffer
    /// of this array's own, so writes through the view reach this array only. Without
    /// sharing, no copy is made.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](cuprite_core::Error::InvalidArgument) for a view that
    /// reaches some element twice (a broadcast view is read-only: copy it first),
    /// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when the copy cannot be
    /// allocated.
    fn as_ndarray_mut(&mut self) -> Result<ArrayViewMutD<'_, T>>;

    /// An array over an owned ndarray array's vector, without copying: its shape, strides
    /// (negative ones included) and offset become the array's layout; the whole vector
    /// stays alive, elements sliced away included, as in ndarray. Every layout an owned
    /// ndarray array can have is one cuprite describes (element strides and an offset into
    /// one buffer), so this never copies.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](cuprite_core::Error::InvalidArgument) for more than
    /// [`MAX_NDIM`](cuprite_core::layout::MAX_NDIM) dimensions, which no cuprite array may
    /// have.
    fn from_ndarray_owned<D: Dimension>(a: ndarray::Array<T, D>) -> Result<Self>;
}

impl<T: Element> NdarrayCpuExt<T> for Array<T, Cpu> {
    fn as_ndarray(&self) -> Result<ArrayViewD<'_, T>> {
        self.buffer().view(self.layout())
    }

    fn as_ndarray_mut(&mut self) -> Result<ArrayViewMutD<'_, T>> {
        let (buf, layout) = self.buffer_mut()?;
        buf.view_mut(layout)
    }

    fn from_ndarray_owned<D: Dimension>(a: ndarray::Array<T, D>) -> Result<Self> {
        let shape = a.shape().to_vec();
        let strides = a.strides().to_vec();
        // `None` for an array of size 0, where any offset fits.
        let (data, offset) = a.into_raw_vec_and_offset();
        let layout = Layout::checked(
            "from_ndarray_owned",
            shape,
            strides,
            offset.unwrap_or(0),
            T::DTYPE.size_of(),
            data.len(),
        )?;
        Array::from_raw_parts(CpuBuffer::new(data), layout, Cpu)
    }
}
