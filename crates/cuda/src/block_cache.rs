//! The host-side cache of freed device blocks of a device's own stream: the allocation of a
//! small op costs a lookup here instead of two driver calls (`cuMemAllocFromPoolAsync` and,
//! when its buffer drops, `cuMemFreeAsync`).
//!
//! A block whose last use was queued on the device's own stream goes back here when its
//! buffer drops; the next allocation of the same size class on that stream takes it. This is
//! the stream-ordered pool's own rule kept on the host: work queued later on the same stream
//! runs after everything that used the block, so no event is needed. Blocks of other
//! streams, and blocks above [`MAX_BLOCK`], go to the driver's pool as before.
//!
//! Sizes are rounded up to a class ([`class`]): 512 bytes below 64 KiB, then a sixteenth of
//! the highest power of two in the size (at most 6.25% more than asked). The cache holds at most
//! [`MAX_CACHED`] bytes; [`crate::Cuda::free_cached`], [`crate::Cuda::memory_cached`] and the
//! out-of-memory retry see it.

use crate::driver::CUdeviceptr;
use std::collections::HashMap;
use std::sync::Mutex;

/// Blocks above this many bytes are never cached (their ops are bound by memory traffic,
/// not by the allocation's cost).
pub(crate) const MAX_BLOCK: usize = 4 << 20;

/// Most bytes the cache holds; a block freed beyond it goes to the driver's pool.
pub(crate) const MAX_CACHED: usize = 256 << 20;

/// The bytes allocated for a request of `bytes` (> 0): the size class.
pub(crate) fn class(bytes: usize) -> usize {
    if bytes <= 64 << 10 {
        bytes.div_ceil(512) * 512
    } else if bytes > MAX_BLOCK {
        bytes
    } else {
        // A sixteenth of the highest power of two in `bytes`.
        let step = (1usize << (usize::BITS - 1 - bytes.leading_zeros())) / 16;
        bytes.div_ceil(step) * step
    }
}

/// Free blocks by size class, and their total bytes.
#[derive(Default)]
struct Blocks {
    free: HashMap<usize, Vec<CUdeviceptr>>,
    bytes: usize,
}

/// The cache of one device (see the module doc).
#[derive(Default)]
pub(crate) struct BlockCache {
    blocks: Mutex<Blocks>,
}

impl BlockCache {
    /// A free block of size class `class`, if one is cached.
    pub(crate) fn take(&self, class: usize) -> Option<CUdeviceptr> {
        if class > MAX_BLOCK {
            return None;
        }
        let mut b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        let ptr = b.free.get_mut(&class)?.pop()?;
        b.bytes -= class;
        Some(ptr)
    }

    /// Keeps a freed block of size class `class`; false (the caller frees it) when the block
    /// is too large or the cache is full.
    pub(crate) fn put(&self, class: usize, ptr: CUdeviceptr) -> bool {
        if class > MAX_BLOCK {
            return false;
        }
        let mut b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        if b.bytes + class > MAX_CACHED {
            return false;
        }
        b.bytes += class;
        b.free.entry(class).or_default().push(ptr);
        true
    }

    /// Empties the cache, returning its blocks (for the caller to free on the device's own
    /// stream).
    pub(crate) fn drain(&self) -> Vec<CUdeviceptr> {
        let mut b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        b.bytes = 0;
        b.free.drain().flat_map(|(_, v)| v).collect()
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.blocks.lock().map(|b| b.bytes).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_round_up_by_at_most_a_sixteenth_above_64k() {
        assert_eq!(class(1), 512);
        assert_eq!(class(512), 512);
        assert_eq!(class(513), 1024);
        assert_eq!(class(64 << 10), 64 << 10);
        assert_eq!(class((64 << 10) + 1), (64 << 10) + (4 << 10));
        for bytes in [
            70_000,
            100_000,
            1 << 20,
            (1 << 20) + 1,
            3_000_000,
            MAX_BLOCK,
        ] {
            let c = class(bytes);
            assert!(c >= bytes && (c - bytes) * 16 <= bytes, "{bytes} -> {c}");
        }
        assert_eq!(class(MAX_BLOCK + 1), MAX_BLOCK + 1);
    }

    #[test]
    fn blocks_come_back_by_class_and_the_cache_is_bounded() {
        let c = BlockCache::default();
        assert_eq!(c.take(512), None);
        assert!(c.put(512, 0x1000));
        assert!(c.put(1024, 0x2000));
        assert_eq!(c.take(1024), Some(0x2000));
        assert_eq!(c.take(1024), None);
        assert_eq!(c.bytes(), 512);
        assert!(!c.put(MAX_BLOCK + 1, 0x3000));
        let mut n = 0;
        while c.put(MAX_BLOCK, 0x10_0000 + n) {
            n += 1;
        }
        assert!(c.bytes() <= MAX_CACHED);
        assert_eq!(c.drain().len(), n as usize + 1);
        assert_eq!(c.bytes(), 0);
    }
}
