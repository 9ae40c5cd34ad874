//! [`CpuBuffer`]: a reference-counted vector shared by every view of an array.

use cuprite_core::Result;
use std::sync::Arc;

/// The CPU backend's buffer: a shared `Vec<T>`; cloning shares it.
#[derive(Clone, Debug)]
pub struct CpuBuffer<T>(Arc<Vec<T>>);

impl<T: Clone> CpuBuffer<T> {
    /// Wraps a vector.
    pub fn new(data: Vec<T>) -> Self {
        CpuBuffer(Arc::new(data))
    }
    /// The elements.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
    /// Makes this buffer the only owner of its data, copying it first if another array
    /// shares it (copy-on-write).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when the copy cannot be
    /// allocated; the buffer is then unchanged.
    pub fn try_make_unique(&mut self) -> Result<()> {
        if Arc::get_mut(&mut self.0).is_none() {
            let mut copy = crate::alloc::vec_with_capacity(self.0.len())?;
            copy.extend_from_slice(&self.0);
            self.0 = Arc::new(copy);
        }
        Ok(())
    }
    /// Mutable access, copying the data first if another array shares it (copy-on-write).
    ///
    /// # Errors
    /// As [`CpuBuffer::try_make_unique`].
    pub fn make_mut(&mut self) -> Result<&mut [T]> {
        self.try_make_unique()?;
        // Unique now (nothing else can clone it while `self` is borrowed): no copy is made.
        Ok(Arc::make_mut(&mut self.0).as_mut_slice())
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
