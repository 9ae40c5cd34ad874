//! The host memory pool: blocks of freed CPU buffers kept for the next allocation of about
//! the same size, instead of going back to the system allocator (CuPy's `MemoryPool`, for
//! host memory).
//!
//! Why: glibc returns mid-size blocks (from about 128 KiB) to the kernel when they are freed
//! (`munmap`, or a trim of the heap's top), so a loop that makes and drops a temporary of a
//! few hundred KiB per op faults every page of it in again, zeroed by the kernel, at every
//! op: a 1-d stencil loop took 60 times the page faults of the same loop in NumPy. A block
//! kept here stays mapped and is handed out again as it is.
//!
//! What: every buffer of the backend whose allocation is at least [`MIN_BLOCK`] bytes comes
//! back here when its last array drops; an allocation first looks for a kept block of its
//! alignment at least as large as the request and at most a quarter larger, and at most
//! eight blocks of one size are kept. Kept bytes
//! never exceed the [limit](set_limit) (by default a quarter of the host's RAM, at most 8
//! GiB): to keep a new block, the largest kept blocks are released first, and a block
//! larger than the limit is released at once. [`free_all_blocks`] releases everything
//! kept; an allocation the system refuses releases everything kept and tries once more
//! before it is an [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory).
//!
//! ```
//! use cuprite_core::Array;
//! use cuprite_cpu::{pool, Cpu};
//! let dev = Cpu::new();
//! let before = pool::stats();
//! for _ in 0..3 {
//!     let t = Array::<f64, Cpu>::zeros(&[100_000], &dev).unwrap(); // 800 KB
//!     drop(t); // kept by the pool, reused by the next iteration
//! }
//! let after = pool::stats();
//! assert!(after.hits > before.hits);
//! pool::free_all_blocks();
//! assert_eq!(pool::stats().free_bytes, 0);
//! ```

use cuprite_core::{DType, Element};
use std::alloc::Layout as AllocLayout;
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Allocations smaller than this many bytes are left to the system allocator, which keeps
/// small blocks in its own free lists.
pub const MIN_BLOCK: usize = 16 << 10;

/// At most this many free blocks of one size are kept: blocks of sizes that are never asked
/// for again (the last capacity of a vector grown by doubling) cannot pile up to the limit.
const MAX_PER_SIZE: usize = 8;

/// Requests are rounded up to a multiple of this many bytes, so that sizes that differ a
/// little (a stencil's interior and its whole array) share blocks.
const GRAIN: usize = 4 << 10;

/// What the pool holds and has done since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Bytes kept in free blocks, ready for reuse.
    pub free_bytes: usize,
    /// Number of free blocks kept.
    pub free_blocks: usize,
    /// The most bytes the pool keeps ([`set_limit`]).
    pub limit: usize,
    /// Allocations served from a kept block.
    pub hits: u64,
    /// Allocations of at least [`MIN_BLOCK`] bytes that found no kept block.
    pub misses: u64,
    /// Blocks given back to the system (over the limit, or by [`free_all_blocks`]).
    pub released: u64,
}

/// One kept block: memory of the global allocator with the layout of its key, and how many
/// of its first bytes hold initialised values (the elements of the vector it came from).
struct Block(NonNull<u8>, usize);

// SAFETY: a kept block is plain memory owned by the pool alone (no reference into it
// exists); it may be handed to and freed on any thread.
unsafe impl Send for Block {}

struct Pool {
    /// Free blocks by (alignment, size in bytes).
    blocks: BTreeMap<(usize, usize), Vec<Block>>,
    stats: PoolStats,
}

fn pool() -> MutexGuard<'static, Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    let m = POOL.get_or_init(|| {
        Mutex::new(Pool {
            blocks: BTreeMap::new(),
            stats: PoolStats {
                limit: default_limit(),
                ..PoolStats::default()
            },
        })
    });
    // A panic while the lock was held cannot leave the map inconsistent (every update is a
    // single insert or remove), so a poisoned lock is used as it is.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A quarter of the host's RAM, at most 8 GiB (1 GiB where the RAM is unknown).
fn default_limit() -> usize {
    let ram = cuprite_core::backend::HostMemory::total();
    ram.map_or(1 << 30, |t| (t / 4).min(8 << 30))
}

/// The pool's figures now.
pub fn stats() -> PoolStats {
    pool().stats
}

/// Keeps at most `bytes` in free blocks from now on, releasing the largest kept blocks
/// until what is kept fits. `set_limit(0)` turns the pool off.
pub fn set_limit(bytes: usize) {
    let mut p = pool();
    p.stats.limit = bytes;
    p.shrink_to(bytes);
}

/// Releases every kept block to the system (CuPy's `free_all_blocks`).
pub fn free_all_blocks() {
    pool().shrink_to(0);
}

impl Pool {
    /// Releases the largest blocks until at most `bytes` are kept.
    fn shrink_to(&mut self, bytes: usize) {
        while self.stats.free_bytes > bytes {
            let Some(mut entry) = self.blocks.last_entry() else {
                break;
            };
            let (align, size) = *entry.key();
            let block = entry.get_mut().pop();
            if entry.get().is_empty() {
                entry.remove();
            }
            if let Some(b) = block {
                self.stats.free_bytes -= size;
                self.stats.free_blocks -= 1;
                self.stats.released += 1;
                release(b, align, size);
            }
        }
    }
}

/// Frees a block with the layout it was allocated with.
fn release(b: Block, align: usize, size: usize) {
    // SAFETY: every kept block was allocated by the global allocator with exactly this
    // size and alignment (the key it was kept under), and is freed once: it left the map.
    unsafe {
        std::alloc::dealloc(
            b.0.as_ptr(),
            AllocLayout::from_size_align_unchecked(size, align),
        )
    }
}

/// The size in bytes the pool allocates for a request of `bytes` (rounded up to the grain).
fn rounded(bytes: usize) -> usize {
    bytes.div_ceil(GRAIN).saturating_mul(GRAIN)
}

/// An empty vector with room for at least `n` elements from a kept block, or `None` (the
/// request is small, or nothing kept fits). The caller allocates on `None` with
/// [`capacity_for`] so that the block can be kept later.
pub(crate) fn take<T>(n: usize) -> Option<Vec<T>> {
    take_block::<T>(n).map(|(v, _)| v)
}

/// A vector with room for at least `n` elements from a kept block, or `None` (as [`take`]):
/// holding `n` elements when the block's first `n` elements' bytes were written by the
/// vector it came from (their values are whatever it held) and every bit pattern is a value
/// of `T` ([`any_bits`]: the bytes of an `f64` may come back as an `i64`, never as a
/// `bool`), empty otherwise.
pub(crate) fn take_written<T: Element>(n: usize) -> Option<Vec<T>> {
    let (mut v, init) = take_block::<T>(n)?;
    if any_bits::<T>() && init >= n * std::mem::size_of::<T>() {
        // SAFETY: the capacity holds `n` elements (`take_block`), whose bytes are
        // initialised (the block's first `init` bytes were the elements of the vector given
        // back, and the pool never wrote or freed them since), and every bit pattern of
        // those bytes is a value of `T` (`any_bits`).
        unsafe { v.set_len(n) };
    }
    Some(v)
}

/// Whether every bit pattern of `T`'s size is a value of `T`: every element type but
/// `bool` (integers, floats, half floats, complex pairs of floats; none has padding).
fn any_bits<T: Element>() -> bool {
    T::DTYPE != DType::Bool
}

/// [`take`], with the number of initialised bytes at the start of the block.
fn take_block<T>(n: usize) -> Option<(Vec<T>, usize)> {
    let size = std::mem::size_of::<T>();
    let bytes = n.checked_mul(size)?;
    if bytes < MIN_BLOCK || size == 0 {
        return None;
    }
    let align = std::mem::align_of::<T>();
    let want = rounded(bytes);
    let mut p = pool();
    let found = p
        .blocks
        .range((align, want)..=(align, want + want / 4))
        .find(|((_, s), v)| s % size == 0 && !v.is_empty())
        .map(|(k, _)| *k);
    let Some(key) = found else {
        p.stats.misses += 1;
        return None;
    };
    let list = p.blocks.get_mut(&key)?;
    let block = list.pop()?;
    if list.is_empty() {
        p.blocks.remove(&key);
    }
    p.stats.free_bytes -= key.1;
    p.stats.free_blocks -= 1;
    p.stats.hits += 1;
    // SAFETY: the block was allocated by the global allocator with size `key.1` and
    // alignment `key.0 == align_of::<T>()`; `key.1` is a multiple of `size_of::<T>()`
    // (checked above), so it is the allocation of a `Vec<T>` of that capacity; it holds no
    // initialised elements (length 0) and is owned by nothing else once out of the map.
    let v = unsafe { Vec::from_raw_parts(block.0.as_ptr() as *mut T, 0, key.1 / size) };
    Some((v, block.1))
}

/// The capacity to allocate for `n` elements: `n` rounded up to the pool's grain when the
/// buffer is large enough to be kept later, `n` otherwise.
pub(crate) fn capacity_for<T>(n: usize) -> usize {
    let size = std::mem::size_of::<T>();
    match n.checked_mul(size) {
        Some(bytes) if bytes >= MIN_BLOCK && size > 0 && GRAIN.is_multiple_of(size) => {
            rounded(bytes) / size
        }
        _ => n,
    }
}

/// Takes the allocation of `v` into the pool (its elements are dropped first), or frees it
/// as a drop would when it is small or over the limit.
#[cfg(test)]
pub(crate) fn give<T>(v: Vec<T>) {
    // SAFETY: no byte is claimed written.
    unsafe { give_written(v, 0) }
}

/// [`give`] of a vector whose allocation's first `written` bytes are initialised:
/// [`take_written`] hands them out again. (`clear` only drops the elements, and element
/// types have no drop glue: their bytes stay as they were.)
///
/// # Safety
/// The first `written` bytes of the allocation hold initialised bytes (the elements of a
/// type without padding, for instance), and `T` has no drop glue.
pub(crate) unsafe fn give_written<T>(mut v: Vec<T>, written: usize) {
    let init = written.min(v.capacity().saturating_mul(std::mem::size_of::<T>()));
    v.clear();
    let size = std::mem::size_of::<T>();
    let bytes = v.capacity().saturating_mul(size);
    if bytes < MIN_BLOCK || size == 0 {
        return;
    }
    let align = std::mem::align_of::<T>();
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: a Vec with non-zero capacity of a non-zero-sized type owns an allocation of
    // the global allocator of `capacity * size_of::<T>()` bytes aligned to `align_of::<T>`,
    // non-null; ManuallyDrop keeps the Vec from freeing it, so the block owns it now.
    let block = Block(
        unsafe { NonNull::new_unchecked(v.as_mut_ptr() as *mut u8) },
        init,
    );
    let mut p = pool();
    let limit = p.stats.limit;
    let full = p
        .blocks
        .get(&(align, bytes))
        .is_some_and(|v| v.len() >= MAX_PER_SIZE);
    if bytes > limit || full {
        drop(p);
        p_release_counted(block, align, bytes);
        return;
    }
    p.shrink_to(limit - bytes);
    p.blocks.entry((align, bytes)).or_default().push(block);
    p.stats.free_bytes += bytes;
    p.stats.free_blocks += 1;
}

/// Releases a block that never entered the map, counting it.
fn p_release_counted(b: Block, align: usize, size: usize) {
    pool().stats.released += 1;
    release(b, align, size);
}

#[cfg(test)]
mod tests {
    use super::*;

    // The pool is one per process and tests run in parallel, so each test uses an element
    // type and size no other test of this crate keeps (alignment 2: u16/i16 blocks of odd
    // grains), and checks only what its own calls changed.

    #[test]
    fn a_freed_block_comes_back_for_a_request_of_about_its_size() {
        let n = 3 * GRAIN / 2 * 5 + 7; // not a multiple of the grain
        let cap = capacity_for::<u16>(n);
        assert_eq!(cap * 2 % GRAIN, 0);
        assert!(cap >= n);
        let mut v: Vec<u16> = Vec::with_capacity(cap);
        v.extend((0..n).map(|i| i as u16));
        let addr = v.as_ptr() as usize;
        give(v);
        let again: Vec<u16> = take(n - 100).expect("the kept block");
        assert_eq!(again.as_ptr() as usize, addr);
        assert!(again.is_empty() && again.capacity() == cap);
        // A request far larger finds nothing kept of that size.
        give(again);
        assert!(take::<u16>(n * 4).is_none());
    }

    #[test]
    fn written_blocks_come_back_with_their_values_only_where_they_cover_the_request() {
        let n = 7 * GRAIN / 2 + 3; // a size no other test keeps
        let mut v: Vec<i16> = Vec::with_capacity(capacity_for::<i16>(n));
        v.extend((0..n).map(|i| (i % 3000) as i16 - 1500));
        let (addr, want) = (v.as_ptr() as usize, v.clone());
        // SAFETY: `v`'s n elements (2 bytes each, no padding) are written.
        unsafe { give_written(v, n * 2) };
        let again: Vec<i16> = take_written(n).expect("the kept block, written");
        assert_eq!(again.as_ptr() as usize, addr);
        assert_eq!(again, want);
        // Fewer bytes written than requested: not handed out as written, and not lost.
        // SAFETY: as above, for half of the elements' bytes.
        unsafe { give_written(again, n) };
        let plain: Vec<i16> = take_written(n).expect("the same block, unwritten");
        assert_eq!(plain.as_ptr() as usize, addr);
        assert!(plain.is_empty() && plain.capacity() >= n);
        // bool has invalid bit patterns: never handed out written.
        let m = 5 * GRAIN + 5; // above MIN_BLOCK, a size no other test keeps
        let mut b: Vec<bool> = Vec::with_capacity(capacity_for::<bool>(m));
        b.resize(m, true);
        // SAFETY: `b`'s m elements (one byte each) are written.
        unsafe { give_written(b, m) };
        let b: Vec<bool> = take_written(m).expect("the kept bool block");
        assert!(b.is_empty());
    }

    #[test]
    fn small_requests_and_blocks_are_left_to_the_allocator() {
        assert!(take::<u8>(MIN_BLOCK - 1).is_none());
        assert_eq!(capacity_for::<u8>(100), 100);
        let before = stats().free_blocks;
        give(vec![1u8; 100]);
        assert!(stats().free_blocks <= before + 1); // other tests may give blocks too
    }
}
