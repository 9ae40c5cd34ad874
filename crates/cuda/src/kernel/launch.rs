//! Packing the arguments of a user kernel launch: [`ArgList`] holds the values (pointers,
//! scalars) in slots that stay in place until the launch, and references to larger structs;
//! [`RawView`] mirrors `RawArray<T>` of `kernels/src/user.cuh` field for field.

use super::args::ScalarArg;
use crate::launch::{coalesce, Strided};
use cuprite_core::{Layout, Result};
use std::ffi::c_void;
use std::marker::PhantomData;

/// A `raw` parameter as the kernel receives it: `T* data; long long n; Strided view;`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawView {
    pub data: u64,
    pub n: i64,
    pub view: Strided,
}

impl RawView {
    /// The view of `layout` over the buffer at `base` (coalesced; the offset is in `view`).
    pub(crate) fn new(op: &'static str, base: u64, layout: &Layout) -> Result<RawView> {
        let view = coalesce(op, &[layout])?[0];
        Ok(RawView {
            data: base,
            n: layout.size() as i64,
            view,
        })
    }
}

/// Most arguments of one launch.
pub(crate) const MAX_ARGS: usize = 80;

#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct Slot([u8; 16]);

#[derive(Clone, Copy)]
enum Item {
    Slot(usize),
    Ref(*const c_void),
}

/// The arguments of one launch, in order (a clone keeps the values and the references).
#[derive(Clone)]
pub(crate) struct ArgList<'a> {
    slots: [Slot; MAX_ARGS],
    items: [Item; MAX_ARGS],
    len: usize,
    ptrs: [*mut c_void; MAX_ARGS],
    _refs: PhantomData<&'a ()>,
}

impl<'a> ArgList<'a> {
    pub(crate) fn new() -> Self {
        ArgList {
            slots: [Slot([0; 16]); MAX_ARGS],
            items: std::array::from_fn(|_| Item::Slot(0)),
            len: 0,
            ptrs: [std::ptr::null_mut(); MAX_ARGS],
            _refs: PhantomData,
        }
    }

    /// Number of arguments pushed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn push_bytes(&mut self, b: &[u8]) {
        // Callers check the count against MAX_ARGS before building a list.
        if self.len < MAX_ARGS {
            self.slots[self.len].0[..b.len()].copy_from_slice(b);
            self.items[self.len] = Item::Slot(self.len);
            self.len += 1;
        }
    }

    /// A 64-bit value (a device pointer, an element count).
    pub(crate) fn push_u64(&mut self, v: u64) {
        self.push_bytes(&v.to_le_bytes());
    }

    /// A scalar by value.
    pub(crate) fn push_scalar(&mut self, s: ScalarArg) {
        let (b, n) = s.bytes();
        self.push_bytes(&b[..n]);
    }

    /// A struct passed by value, read from `v` at launch.
    pub(crate) fn push_ref<T>(&mut self, v: &'a T) {
        if self.len < MAX_ARGS {
            self.items[self.len] = Item::Ref(v as *const T as *const c_void);
            self.len += 1;
        }
    }

    /// The argument pointers `cuLaunchKernel` takes, valid while `self` is borrowed.
    pub(crate) fn ptrs(&mut self) -> &mut [*mut c_void] {
        for k in 0..self.len {
            self.ptrs[k] = match self.items[k] {
                Item::Slot(s) => self.slots[s].0.as_ptr() as *mut c_void,
                Item::Ref(p) => p as *mut c_void,
            };
        }
        &mut self.ptrs[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_view_matches_the_c_struct() {
        assert_eq!(std::mem::size_of::<RawView>(), 160);
        assert_eq!(std::mem::offset_of!(RawView, view), 16);
        let l = Layout::contiguous(&[3, 4]).transposed();
        let r = RawView::new("t", 256, &l).unwrap();
        assert_eq!((r.n, r.view.ndim), (12, 2));
        assert_eq!(&r.view.strides[..2], &[1, 4]);
    }

    #[test]
    fn arguments_keep_their_bytes() {
        let s = Strided::default();
        let mut a = ArgList::new();
        a.push_u64(0xdead_beef);
        a.push_scalar(ScalarArg::F32(1.5));
        a.push_ref(&s);
        assert_eq!(a.len(), 3);
        let p: Vec<usize> = a.ptrs().iter().map(|&p| p as usize).collect();
        // Values point at their slots, which hold their bytes; a struct at itself.
        assert_eq!(p[0], a.slots[0].0.as_ptr() as usize);
        assert_eq!(&a.slots[0].0[..8], &0xdead_beefu64.to_le_bytes());
        assert_eq!(p[1], a.slots[1].0.as_ptr() as usize);
        assert_eq!(&a.slots[1].0[..4], &1.5f32.to_ne_bytes());
        assert_eq!(p[2], &s as *const Strided as usize);
    }
}
