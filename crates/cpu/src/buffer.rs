//! [`CpuBuffer`]: a reference-counted run of elements shared by every view of an array.
//!
//! The elements live either in a vector cuprite owns or in memory of another library (a
//! DLPack producer) that cuprite borrows: a pointer, a length and an *owner guard* whose drop
//! releases the memory (see [`CpuBuffer::from_foreign`]). Both are read the same way; a write
//! goes through copy-on-write ([`CpuBuffer::make_mut`]), which copies borrowed memory into a
//! vector of cuprite's own first unless its producer handed it over for writing.
//!
//! This file and `dlpack/` hold the crate's `unsafe` for borrowed memory; `view.rs` holds the
//! ndarray view constructors.

use crate::view;
use cuprite_core::{Element, Error, Layout, Result};
use ndarray::{ArrayViewD, ArrayViewMutD};
use std::any::Any;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

/// The CPU backend's buffer: shared elements (a vector of cuprite's own, or memory borrowed
/// from another library); cloning shares them.
#[derive(Clone)]
pub struct CpuBuffer<T>(Arc<Storage<T>>);

/// Where the elements of a buffer live.
enum Storage<T> {
    /// A vector cuprite owns; the flag says that `T` is an element type (no padding: the
    /// bytes of its elements are all written, which the pool may hand out again, see
    /// [`crate::pool::take_written`]).
    Owned(Vec<T>, bool),
    /// Memory of another library, kept alive by an owner guard.
    Foreign(Foreign<T>),
}

/// `len` elements at `ptr`, valid while `_owner` lives; written in place only when
/// `writable` (and then only through a unique `Arc`, see [`Storage::as_mut_slice`]).
struct Foreign<T> {
    ptr: NonNull<T>,
    len: usize,
    writable: bool,
    /// Dropped with the storage, after the last read: its drop releases the memory.
    _owner: Box<dyn Any + Send + Sync>,
}

// SAFETY: a `Foreign<T>` is a `&[T]` (or, when `writable` and reached through a unique
// `Arc`, a `&mut [T]`) into memory that its owner guard keeps alive; the guard itself is
// `Send + Sync`. Sending or sharing it across threads is sending or sharing such a slice,
// which is sound exactly when `T` is `Send + Sync` (the contract of `from_foreign` says no one
// else writes the memory while the buffer lives).
unsafe impl<T: Send + Sync> Send for Foreign<T> {}
// SAFETY: as for `Send` above.
unsafe impl<T: Send + Sync> Sync for Foreign<T> {}

impl<T> Foreign<T> {
    fn as_slice(&self) -> &[T] {
        // SAFETY: `from_foreign`'s contract: `ptr` is aligned and non-null, `len` initialised
        // elements of `T` start there and stay valid and unwritten by others while the owner
        // guard (a field of `self`) lives, and `len * size_of::<T>() <= isize::MAX`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Clone> Storage<T> {
    fn as_slice(&self) -> &[T] {
        match self {
            Storage::Owned(v, _) => v,
            Storage::Foreign(f) => f.as_slice(),
        }
    }

    /// Whether the elements may be written in place once the storage is unshared.
    fn writable(&self) -> bool {
        match self {
            Storage::Owned(..) => true,
            Storage::Foreign(f) => f.writable,
        }
    }

    /// The elements for writing: borrowed memory that was not handed over for writing is
    /// first copied into a vector of our own (and its owner released).
    fn as_mut_slice(&mut self) -> &mut [T] {
        if !self.writable() {
            let copy = self.as_slice().to_vec();
            *self = Storage::Owned(copy, false);
        }
        match self {
            Storage::Owned(v, _) => v,
            Storage::Foreign(f) => {
                // SAFETY: as in `Foreign::as_slice`; moreover the producer handed the memory
                // over for writing (`writable`, the contract of `from_foreign`), and `&mut
                // self` comes from a unique `Arc` (`Arc::make_mut` / `Arc::get_mut`), so no
                // other slice of this memory exists while the returned one lives.
                unsafe { std::slice::from_raw_parts_mut(f.ptr.as_ptr(), f.len) }
            }
        }
    }
}

impl<T> Drop for Storage<T> {
    /// A vector of our own goes back to the host memory pool ([`crate::pool`]).
    fn drop(&mut self) {
        if let Storage::Owned(v, plain) = self {
            let written = if *plain {
                v.len() * std::mem::size_of::<T>()
            } else {
                0
            };
            // SAFETY: a plain vector holds elements of an element type (`CpuBuffer::new`
            // requires one), which have no padding and no drop glue: its first `len *
            // size_of::<T>()` bytes are initialised.
            unsafe { crate::pool::give_written(std::mem::take(v), written) };
        }
    }
}

impl<T: Clone> Clone for Storage<T> {
    /// A vector of our own with the same elements (copy-on-write of a shared buffer).
    fn clone(&self) -> Self {
        Storage::Owned(self.as_slice().to_vec(), false)
    }
}

impl<T: Clone + fmt::Debug> fmt::Debug for CpuBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CpuBuffer").field(&self.as_slice()).finish()
    }
}

impl<T: Element> CpuBuffer<T> {
    /// Wraps a vector (no copy).
    pub fn new(data: Vec<T>) -> Self {
        CpuBuffer(Arc::new(Storage::Owned(data, true)))
    }
}

impl<T: Clone> CpuBuffer<T> {
    /// A buffer over `len` elements of another library's memory at `ptr`, without copying.
    /// `owner` is dropped (releasing the memory) when the last array using the buffer drops
    /// (or when a write copies the elements out first); it may be dropped on any thread.
    ///
    /// With `writable` false the memory is only read: the first write through
    /// [`CpuBuffer::make_mut`] copies it into a vector of cuprite's own. With `writable` true
    /// writes go to the memory itself while the buffer is not shared.
    ///
    /// # Safety
    /// - `ptr` is non-null and aligned for `T`, and `len` initialised, valid values of `T`
    ///   (a `bool` is 0 or 1) start there, with `len * size_of::<T>() <= isize::MAX`;
    /// - the memory stays valid, and nobody writes it, until `owner` is dropped;
    /// - with `writable`, nobody else reads it either: the producer handed it over.
    pub unsafe fn from_foreign<O: Any + Send + Sync>(
        ptr: NonNull<T>,
        len: usize,
        owner: O,
        writable: bool,
    ) -> Self {
        CpuBuffer(Arc::new(Storage::Foreign(Foreign {
            ptr,
            len,
            writable,
            _owner: Box::new(owner),
        })))
    }

    /// The elements.
    pub fn as_slice(&self) -> &[T] {
        self.0.as_slice()
    }

    /// True when another clone (another array or view) shares this buffer.
    pub fn is_shared(&self) -> bool {
        Arc::strong_count(&self.0) > 1 || Arc::weak_count(&self.0) > 0
    }

    /// True when the elements are another library's memory (from
    /// [`CpuBuffer::from_foreign`]) that cuprite has not copied.
    pub fn is_foreign(&self) -> bool {
        matches!(*self.0, Storage::Foreign(_))
    }

    /// A pointer to the elements that may be written through without copying, if there is
    /// one: the buffer is not shared and its memory is cuprite's own or was handed over for
    /// writing. It stays valid while this buffer lives and is not cloned.
    pub fn unique_mut_ptr(&mut self) -> Option<NonNull<T>> {
        let storage = Arc::get_mut(&mut self.0)?;
        if !storage.writable() {
            return None;
        }
        NonNull::new(storage.as_mut_slice().as_mut_ptr())
    }

    /// Whether [`CpuBuffer::try_make_unique`] would copy: the buffer is shared, or borrowed
    /// read-only.
    pub fn needs_copy_to_write(&self) -> bool {
        Arc::strong_count(&self.0) > 1 || Arc::weak_count(&self.0) > 0 || !self.0.writable()
    }

    /// Makes this buffer the only owner of memory it may write, copying the elements first
    /// if another array shares them or they are borrowed read-only (copy-on-write).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when the copy cannot be
    /// allocated; the buffer is then unchanged.
    pub fn try_make_unique(&mut self) -> Result<()> {
        let in_place = Arc::get_mut(&mut self.0).is_some_and(|s| s.writable());
        if !in_place {
            let src = self.as_slice();
            let mut copy = crate::alloc::vec_with_capacity(src.len())?;
            copy.extend_from_slice(src);
            self.0 = Arc::new(Storage::Owned(copy, false));
        }
        Ok(())
    }

    /// Mutable access, copying the data first if another array shares it or it is borrowed
    /// read-only (copy-on-write).
    ///
    /// # Errors
    /// As [`CpuBuffer::try_make_unique`].
    pub fn make_mut(&mut self) -> Result<&mut [T]> {
        self.try_make_unique()?;
        // Unique and writable now (nothing else can clone it while `self` is borrowed): no
        // copy is made.
        Ok(Arc::make_mut(&mut self.0).as_mut_slice())
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// A read-only ndarray view of the elements through `layout` (any strides, negative and
    /// zero included), without copying.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the layout reaches outside the buffer.
    pub fn view(&self, layout: &Layout) -> Result<ArrayViewD<'_, T>> {
        layout.check_bounds("view", self.len())?;
        Ok(view::view(self.as_slice(), layout))
    }

    /// A mutable ndarray view of the elements through `layout`, after copy-on-write
    /// ([`CpuBuffer::make_mut`]): writes through it reach this buffer only, never another
    /// array that shared the elements before.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the layout reaches outside the buffer or reaches an
    /// element twice (a broadcast view), [`Error::OutOfMemory`] when the copy cannot be
    /// allocated.
    pub fn view_mut(&mut self, layout: &Layout) -> Result<ArrayViewMutD<'_, T>> {
        layout.check_bounds("view_mut", self.len())?;
        if !layout.is_writeable_without_overlap() {
            return Err(Error::invalid(
                "view_mut",
                format!(
                    "a view of shape {:?} with strides {:?} reaches some elements twice (a \
                     broadcast view is read-only); copy it first",
                    layout.shape(),
                    layout.strides()
                ),
            ));
        }
        Ok(view::view_mut(self.make_mut()?, layout))
    }
}
