//! DLPack exchanges free everything they allocate: 10^4 round trips (export, through C,
//! import, read, drop) under a global allocator that counts live bytes. A binary of its own,
//! so that no other test allocates beside it.

#![cfg(feature = "cpu")]

use cuprite::dlpack::{DlpackExt, ManagedTensor};
use cuprite::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// The system allocator, counting live bytes and allocations.
struct Counting;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` with the same arguments; the counters are
// atomics that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::SeqCst);
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new_size as isize - layout.size() as isize, Ordering::SeqCst);
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn exchange(a: &Array<f64, Cpu>, legacy: bool) -> f64 {
    let t = if legacy {
        a.t().to_dlpack_legacy()
    } else {
        a.t().to_dlpack()
    };
    let raw = t.into_raw();
    // SAFETY: the live tensor cuprite just made, taken back.
    let t = unsafe { ManagedTensor::from_raw(raw) }.expect("cuprite's own tensor");
    let b = Array::<f64, Cpu>::from_dlpack(t).expect("same dtype");
    let x = b.as_ndarray().expect("a view")[[1usize, 0]];
    x
}

#[test]
fn ten_thousand_exchanges_leak_nothing() {
    let a = Array::<f64, Cpu>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[2, 2], &Cpu).unwrap();
    // Warm-up: lazily initialised statics are not leaks.
    exchange(&a, false);
    exchange(&a, true);
    let (bytes, allocs) = (
        LIVE_BYTES.load(Ordering::SeqCst),
        ALLOCATIONS.load(Ordering::SeqCst),
    );
    let mut total = 0.0;
    for i in 0..10_000 {
        total += exchange(&a, i % 2 == 1);
    }
    let leaked = LIVE_BYTES.load(Ordering::SeqCst) - bytes;
    let made = ALLOCATIONS.load(Ordering::SeqCst) - allocs;
    assert_eq!(total, 20_000.0); // a.T[1, 0] = a[0, 1] = 2
    assert!(
        made >= 10_000,
        "each exchange allocates its block ({made} allocations)"
    );
    // One exchange's export block alone is over 100 bytes: a leak would show as 1 MB.
    assert!(
        leaked.abs() < 1024,
        "{leaked} bytes still live after 10^4 exchanges"
    );
    assert!(!a.buffer().is_shared());
}
