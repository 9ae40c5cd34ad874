//! [`CpuBuffer`]: a reference-counted vector shared by every view of an array.

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
    /// Mutable access, copying the data first if another array shares it (copy-on-write).
    pub fn make_mut(&mut self) -> &mut [T] {
        Arc::make_mut(&mut self.0).as_mut_slice()
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
