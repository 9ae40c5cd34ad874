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
    type Buffer<T: Element>: Clone + Send + Sync + 'static;

    /// True when buffers are host memory and [`from_vec`](Self::from_vec) takes the vector
    /// without copying (the `Cpu` backend): a file loader then reads straight into one
    /// vector instead of staging pieces for upload.
    const HOST_MEMORY: bool = false;

    /// A host vector of `len` zeros to fill and hand to [`from_vec`](Self::from_vec). The
    /// default is [`host_vec`] filled with zeros; a backend with a faster host allocator
    /// (the `Cpu` backend's fresh zero pages, huge-page advised) overrides it.
    fn zeroed_host_vec<T: Element>(&self, len: usize) -> Result<Vec<T>> {
        let mut v = host_vec(len)?;
        v.resize(len, T::ZERO);
        Ok(v)
    }

    /// The device's name as printed in messages (`"cpu"`, `"cuda:0"`).
    fn label(&self) -> String;
    /// Waits until all work queued on the device has finished.
    fn synchronize(&self) -> Result<()>;
    /// Number of elements in a buffer.
    fn buffer_len<T: Element>(&self, buf: &Self::Buffer<T>) -> usize;
    /// The address of the buffer's first element in the device's address space, so that
    /// core can tell whether two views reach the same bytes (`Array::shares_memory`); `None`
    /// (the default) where the backend cannot say.
    fn buffer_address<T: Element>(&self, _buf: &Self::Buffer<T>) -> Option<usize> {
        None
    }

    /// The elements of a buffer as a host slice, where buffers are host memory (the `Cpu`
    /// backend: what the CPU evaluation of a fused expression reads); `None` (the default)
    /// elsewhere.
    fn host_slice<'a, T: Element>(&self, _buf: &'a Self::Buffer<T>) -> Option<&'a [T]> {
        None
    }

    /// A new buffer of `len` copies of `value`.
    fn full<T: Element>(&self, len: usize, value: T) -> Result<Self::Buffer<T>>;
    /// Uploads host data.
    #[allow(clippy::wrong_self_convention)]
    fn from_vec<T: Element>(&self, data: Vec<T>) -> Result<Self::Buffer<T>>;
    /// Downloads the elements of a view in C order (a blocking transfer).
    fn to_vec<T: Element>(&self, buf: &Self::Buffer<T>, layout: &Layout) -> Result<Vec<T>>;
    /// A new C-contiguous buffer holding the elements of a view.
    fn copy<T: Element>(&self, buf: &Self::Buffer<T>, layout: &Layout) -> Result<Self::Buffer<T>>;
    /// A C-contiguous copy of a view on `dst`, another device of the same backend (another
    /// GPU), moved between the two devices directly: `Some` buffer of `dst`, or `None` (the
    /// default) where the backend has no direct path, and `Array::to_device` goes through
    /// host memory instead.
    fn copy_to_peer<T: Element>(
        &self,
        _buf: &Self::Buffer<T>,
        _layout: &Layout,
        _dst: &Self,
    ) -> Result<Option<Self::Buffer<T>>> {
        Ok(None)
    }
    /// Writes the view `src` into the view `dst` (same shape; `dst` has no overlapping
    /// elements and is not shared, see [`BackendBase::make_unique`]).
    fn assign<T: Element>(
        &self,
        dst: &mut Self::Buffer<T>,
        dst_layout: &Layout,
        src: &Self::Buffer<T>,
        src_layout: &Layout,
    ) -> Result<()>;
    /// A new C-contiguous buffer holding the C-order elements of each view in turn: the
    /// data of `concatenate` along the first axis. The default fills a buffer with zeros
    /// and writes each view into its run; a backend that can allocate without the fill
    /// (the `Cpu` backend) overrides it.
    fn concat_flat<T: Element>(
        &self,
        parts: &[(&Self::Buffer<T>, &Layout)],
    ) -> Result<Self::Buffer<T>> {
        let len = parts.iter().map(|(_, l)| l.size()).sum();
        let mut out = self.full(len, T::ZERO)?;
        let mut start = 0;
        for (buf, l) in parts {
            let n = l.size();
            if n > 0 {
                let dst = Layout::new(
                    l.shape().to_vec(),
                    crate::layout::c_strides(l.shape()),
                    start,
                );
                self.assign(&mut out, &dst, buf, l)?;
            }
            start += n;
        }
        Ok(out)
    }
    /// Sets every element of the view to `value`.
    fn fill<T: Element>(&self, dst: &mut Self::Buffer<T>, layout: &Layout, value: T) -> Result<()>;
    /// Makes `buf` the only owner of its memory, copying it if it is shared (copy-on-write
    /// before any in-place write).
    fn make_unique<T: Element>(&self, buf: &mut Self::Buffer<T>) -> Result<()>;
    /// Whether [`make_unique`](Self::make_unique) would copy `buf`: another array shares
    /// it, or it is memory of another library lent read-only. Core counts those copies
    /// ([`crate::copies`]).
    fn needs_copy_to_write<T: Element>(&self, buf: &Self::Buffer<T>) -> bool;
    /// A new C-contiguous buffer with the view's elements converted to `U`.
    fn cast<T: Element, U: Element>(
        &self,
        buf: &Self::Buffer<T>,
        layout: &Layout,
    ) -> Result<Self::Buffer<U>>;
    /// `start + i * step` for `i in 0..n`.
    fn arange<T: Numeric>(&self, n: usize, start: T, step: T) -> Result<Self::Buffer<T>>;
}

/// The host's memory as `/proc/meminfo` reports it, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostMemory {
    /// `MemTotal + SwapTotal`: no single allocation larger than this can ever be backed.
    pub total: usize,
    /// `MemAvailable + SwapFree`: the best estimate of what a new allocation may still get.
    pub available: usize,
}

impl HostMemory {
    /// Parses the text of `/proc/meminfo` (`None` when a field is missing).
    pub fn parse(meminfo: &str) -> Option<HostMemory> {
        let field = |name: &str| -> Option<usize> {
            let line = meminfo
                .lines()
                .find(|l| l.split(':').next() == Some(name))?;
            let mut words = line.split(':').nth(1)?.split_whitespace();
            let value: usize = words.next()?.parse().ok()?;
            let unit = match words.next() {
                Some("kB") => 1024,
                None => 1,
                Some(_) => return None,
            };
            value.checked_mul(unit)
        };
        let total = field("MemTotal")?.saturating_add(field("SwapTotal").unwrap_or(0));
        let available = field("MemAvailable")?.saturating_add(field("SwapFree").unwrap_or(0));
        Some(HostMemory { total, available })
    }

    /// The host's memory now (`None` where `/proc/meminfo` cannot be read or parsed).
    pub fn read() -> Option<HostMemory> {
        Self::parse(&std::fs::read_to_string("/proc/meminfo").ok()?)
    }

    /// `MemTotal + SwapTotal`, read once per process.
    pub fn total() -> Option<usize> {
        static TOTAL: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
        *TOTAL.get_or_init(|| Self::read().map(|m| m.total))
    }
}

/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) for a host request of `bytes` bytes;
/// `free` is the host's available memory now (0 where unknown).
pub fn host_out_of_memory(bytes: usize) -> crate::Error {
    crate::Error::OutOfMemory {
        requested: bytes,
        free: HostMemory::read().map_or(0, |m| m.available),
    }
}

/// Checks a host allocation of `count` elements of `elem_bytes` bytes each before it is
/// made, and returns its size in bytes.
///
/// # Errors
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the size overflows (`requested` is
/// then `usize::MAX`), exceeds `isize::MAX` (what a Rust allocation may hold) or exceeds the
/// host's RAM plus swap (such a request could never be backed; the check is skipped where
/// `/proc/meminfo` is unavailable).
///
/// ```
/// use cuprite_core::backend::check_host_alloc;
/// use cuprite_core::Error;
/// assert_eq!(check_host_alloc(1000, 8).unwrap(), 8000);
/// assert!(matches!(check_host_alloc(1 << 62, 8), Err(Error::OutOfMemory { .. })));
/// ```
pub fn check_host_alloc(count: usize, elem_bytes: usize) -> crate::Result<usize> {
    let Some(bytes) = count.checked_mul(elem_bytes) else {
        return Err(host_out_of_memory(usize::MAX));
    };
    if bytes > isize::MAX as usize || HostMemory::total().is_some_and(|t| bytes > t) {
        return Err(host_out_of_memory(bytes));
    }
    Ok(bytes)
}

/// An empty vector with room for `n` elements, or
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) (see [`check_host_alloc`]) instead of
/// an abort when the memory cannot be had.
///
/// ```
/// use cuprite_core::backend::host_vec;
/// let v = host_vec::<u32>(10).unwrap();
/// assert!(v.is_empty() && v.capacity() >= 10);
/// assert!(host_vec::<u64>(usize::MAX / 4).is_err());
/// ```
pub fn host_vec<T>(n: usize) -> crate::Result<Vec<T>> {
    let bytes = check_host_alloc(n, std::mem::size_of::<T>())?;
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| host_out_of_memory(bytes))?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn meminfo_is_parsed_in_bytes() {
        let text = "MemTotal:       16000 kB\nMemFree:  100 kB\nMemAvailable:    8000 kB\n\
                    SwapTotal:  2000 kB\nSwapFree:   500 kB\n";
        let m = HostMemory::parse(text).unwrap();
        assert_eq!(m.total, 18000 * 1024);
        assert_eq!(m.available, 8500 * 1024);
        // Without swap lines, RAM alone; without MemTotal, nothing.
        let m = HostMemory::parse("MemTotal: 4 kB\nMemAvailable: 3 kB\n").unwrap();
        assert_eq!((m.total, m.available), (4096, 3072));
        assert_eq!(HostMemory::parse("MemAvailable: 3 kB\n"), None);
        assert_eq!(
            HostMemory::parse("MemTotal: x kB\nMemAvailable: 3 kB\n"),
            None
        );
    }

    #[test]
    fn host_requests_beyond_what_exists_are_refused() {
        let oom = |r: Result<usize, Error>| match r {
            Err(Error::OutOfMemory { requested, .. }) => requested,
            other => panic!("expected OutOfMemory, got {other:?}"),
        };
        assert_eq!(oom(check_host_alloc(usize::MAX, 2)), usize::MAX);
        assert_eq!(oom(check_host_alloc(1 << 61, 8)), usize::MAX);
        // Beyond isize::MAX, what no Rust allocation may hold.
        assert_eq!(oom(check_host_alloc(1 << 60, 8)), 1 << 63);
        assert_eq!(check_host_alloc(0, 16).unwrap(), 0);
        assert_eq!(check_host_alloc(3, 16).unwrap(), 48);
        if let Some(total) = HostMemory::total() {
            // One byte more than RAM + swap can never be backed.
            assert_eq!(oom(check_host_alloc(total + 1, 1)), total + 1);
            assert!(check_host_alloc(total, 1).is_ok());
        }
        assert!(matches!(
            host_vec::<[u8; 4096]>(1 << 50),
            Err(Error::OutOfMemory { .. })
        ));
        let mut v = host_vec::<i64>(5).unwrap();
        v.extend(0..5);
        assert_eq!(v, [0, 1, 2, 3, 4]);
    }
}
