//! Allocation of output buffers. Large buffers come from the zeroed allocator (the OS maps
//! zero pages lazily, so nothing is written twice) and are advised to use transparent huge
//! pages before the first touch: a fresh 400 MB output then faults in 2 MiB pages instead of
//! 4 KiB ones, which measured 3.5x faster for `a + b` on 50M f64 (143 ms -> 40 ms on the
//! development machine, where NumPy, which does the same, takes 69 ms).
//!
//! Buffers of at least [`pool::MIN_BLOCK`](crate::pool::MIN_BLOCK) bytes come from the host
//! memory pool ([`crate::pool`]) when it keeps a block of about their size, and go back to
//! it when their last array drops, so a loop of mid-size temporaries does not fault fresh
//! pages in at every op.
//!
//! Every buffer the backend allocates (outputs, temporaries, scratch) comes from here, and
//! every allocation failure is [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory), never
//! an abort: sizes are checked first (overflow, `isize::MAX`, the host's RAM plus swap), then
//! the allocator's refusal (a null pointer, a failed `try_reserve`) is returned as an error.

use crate::pool;
use cuprite_core::backend::{check_host_alloc, host_out_of_memory};
use cuprite_core::{Element, Result};

/// Buffers at least this large get the huge-page advice (NumPy uses the same 4 MiB bound).
const HUGE_MIN_BYTES: usize = 4 << 20;

/// A vector of `n` zeros (false, 0, 0.0, 0+0i), ready to be overwritten.
///
/// # Errors
/// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when the request overflows,
/// exceeds the host's RAM plus swap ([`check_host_alloc`]) or the allocator refuses it; the
/// process goes on.
pub fn zeroed_vec<T: Element>(n: usize) -> Result<Vec<T>> {
    let bytes = check_host_alloc(n, std::mem::size_of::<T>())?;
    if bytes < HUGE_MIN_BYTES {
        return filled_vec(n, T::ZERO);
    }
    if let Some(mut v) = pool::take::<T>(n) {
        // A kept block is already mapped: writing its zeros costs less than faulting in
        // fresh zero pages.
        v.resize(n, T::ZERO);
        return Ok(v);
    }
    fresh_zeroed(n, bytes)
}

/// A vector for `n` outputs: holding `n` initialised elements of any values, to be
/// overwritten in place, where that costs nothing (a block of the pool still holding the
/// values of the vector it came from, [`pool::take_written`], or a fresh zeroed allocation
/// for a large request: the kernel maps zero pages as they are first written, so nothing is
/// written twice); otherwise empty, with room for `n` (fill it with [`fill_spare`]).
///
/// # Errors
/// As [`zeroed_vec`].
pub fn output_vec<T: Element>(n: usize) -> Result<Vec<T>> {
    let bytes = check_host_alloc(n, std::mem::size_of::<T>())?;
    if let Some(v) = pool::take_written::<T>(n) {
        return Ok(v);
    }
    if bytes < HUGE_MIN_BYTES {
        return fresh_capacity(n, bytes);
    }
    fresh_zeroed(n, bytes)
}

/// A fresh zeroed allocation of `n >= 1` elements (`bytes >= HUGE_MIN_BYTES` of them),
/// advised for huge pages.
fn fresh_zeroed<T: Element>(n: usize, bytes: usize) -> Result<Vec<T>> {
    let cap = pool::capacity_for::<T>(n);
    let layout = std::alloc::Layout::array::<T>(cap).map_err(|_| host_out_of_memory(bytes))?;
    // SAFETY: every element type (bool, u8, i32, i64, f32, f64 and complex pairs of floats)
    // has its zero as the all-zero bit pattern, so zeroed memory holds `n` valid zeros; the
    // Vec owns an allocation of exactly `Layout::array::<T>(cap)`, which is what it frees
    // with; `cap >= n`. `bytes >= HUGE_MIN_BYTES`, so the layout is not zero-sized.
    let v = unsafe {
        let mut ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            pool::free_all_blocks();
            ptr = std::alloc::alloc_zeroed(layout) as *mut T;
            if ptr.is_null() {
                return Err(host_out_of_memory(bytes));
            }
        }
        advise_huge(ptr as usize, bytes);
        Vec::from_raw_parts(ptr, n, cap)
    };
    debug_assert!(v.first().is_none_or(|x| *x == T::ZERO && !x.is_nan_value()));
    Ok(v)
}

/// A vector of `n` elements, each written once by `fill` into the uninitialised slots it is
/// given: no zeroing pass, and a size that was freed before comes back from the allocator's
/// already-mapped memory, as NumPy's outputs do (`np.empty`, then the ufunc writes). The
/// zeroed allocation of [`zeroed_vec`] pays both at every call: at 1M f64 that pass was a
/// fixed cost of its own. Large buffers get the same huge-page advice.
///
/// # Errors
/// As [`zeroed_vec`].
///
/// # Safety
/// `fill` must initialise every one of the `n` slots it receives (if it panics instead,
/// nothing is read: the vector is dropped empty).
pub unsafe fn written_vec<T>(
    n: usize,
    fill: impl FnOnce(&mut [std::mem::MaybeUninit<T>]),
) -> Result<Vec<T>> {
    let bytes = check_host_alloc(n, std::mem::size_of::<T>())?;
    let v: Vec<T> = match pool::take::<T>(n) {
        // A kept block was advised when it was first allocated: advising it again at every
        // reuse would be a system call per op.
        Some(v) => v,
        None => {
            let v = fresh_capacity(n, bytes)?;
            if bytes >= HUGE_MIN_BYTES {
                advise_huge(v.as_ptr() as usize, bytes);
            }
            v
        }
    };
    // SAFETY: the caller's contract.
    Ok(unsafe { fill_spare(v, n, fill) })
}

/// `v` (empty, with room for `n`) holding the `n` elements `fill` writes into its spare
/// capacity.
///
/// # Safety
/// `fill` must initialise every one of the `n` slots it receives (if it panics instead,
/// nothing is read: the vector is dropped empty).
pub unsafe fn fill_spare<T>(
    mut v: Vec<T>,
    n: usize,
    fill: impl FnOnce(&mut [std::mem::MaybeUninit<T>]),
) -> Vec<T> {
    fill(&mut v.spare_capacity_mut()[..n]);
    // SAFETY: the caller's contract: `fill` initialised the first `n` slots, within the
    // capacity (`spare_capacity_mut()[..n]` would have panicked otherwise).
    unsafe { v.set_len(n) };
    v
}

/// A vector of `n` copies of `value` (any type: scratch pairs, counters, complex lanes).
///
/// # Errors
/// As [`zeroed_vec`].
pub fn filled_vec<T: Clone>(n: usize, value: T) -> Result<Vec<T>> {
    let mut v = pooled_vec(n)?;
    v.resize(n, value);
    Ok(v)
}

/// An empty vector with room for `n` elements (see [`pooled_vec`]).
///
/// # Errors
/// As [`zeroed_vec`].
pub fn vec_with_capacity<T>(n: usize) -> Result<Vec<T>> {
    pooled_vec(n)
}

/// An empty vector with room for at least `n` elements: a block the pool keeps, or a new
/// allocation (of the pool's rounded capacity, so that it can be kept when freed). A
/// refused allocation releases the pool's blocks and is tried once more.
///
/// # Errors
/// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when the size overflows,
/// exceeds the host's RAM plus swap ([`check_host_alloc`]) or the allocator refuses it twice.
pub fn pooled_vec<T>(n: usize) -> Result<Vec<T>> {
    let bytes = check_host_alloc(n, std::mem::size_of::<T>())?;
    match pool::take::<T>(n) {
        Some(v) => Ok(v),
        None => fresh_capacity(n, bytes),
    }
}

/// A new empty vector with room for `n` elements (`bytes` of them, checked), of the pool's
/// rounded capacity so that it can be kept when freed; a refused allocation releases the
/// pool's blocks and is tried once more.
fn fresh_capacity<T>(n: usize, bytes: usize) -> Result<Vec<T>> {
    let cap = pool::capacity_for::<T>(n);
    let mut v = Vec::new();
    if v.try_reserve_exact(cap).is_err() {
        pool::free_all_blocks();
        v.try_reserve_exact(cap)
            .map_err(|_| host_out_of_memory(bytes))?;
    }
    Ok(v)
}

/// The product of `parts` (an element count), or
/// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) with `requested: usize::MAX` when
/// it overflows: a buffer of that many elements could never be allocated.
pub fn checked_len(parts: &[usize]) -> Result<usize> {
    parts
        .iter()
        .try_fold(1usize, |a, &b| a.checked_mul(b))
        .ok_or_else(|| host_out_of_memory(usize::MAX))
}

/// The sum of element counts, or
/// [`Error::OutOfMemory`](cuprite_core::Error::OutOfMemory) when it overflows.
pub fn checked_sum(counts: impl Iterator<Item = usize>) -> Result<usize> {
    let mut total = 0usize;
    for c in counts {
        total = total
            .checked_add(c)
            .ok_or_else(|| host_out_of_memory(usize::MAX))?;
    }
    Ok(total)
}

/// Whether `value` is the all-zero bit pattern: a buffer from [`zeroed_vec`] already holds
/// it (`-0.0` is not: its sign bit is set).
pub fn is_zero_bits<T: Element>(value: &T) -> bool {
    // SAFETY: every element type is plain data without padding (bool, integers, floats and
    // pairs of floats), so its `size_of::<T>()` bytes are initialised and may be read.
    let bytes = unsafe {
        std::slice::from_raw_parts(value as *const T as *const u8, std::mem::size_of::<T>())
    };
    bytes.iter().all(|&b| b == 0)
}

/// Asks the kernel to back the 2 MiB-aligned interior of `[addr, addr + len)` with huge pages.
#[cfg(target_os = "linux")]
fn advise_huge(addr: usize, len: usize) {
    const HUGE: usize = 1 << 21;
    let start = (addr + HUGE - 1) & !(HUGE - 1);
    let end = (addr + len) & !(HUGE - 1);
    if end > start {
        // SAFETY: madvise only changes paging hints of memory this process owns; the range
        // lies inside the live allocation. A failure (THP disabled) is harmless and ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_addr: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::{c128, Error};

    #[test]
    fn only_all_zero_bits_count_as_zero() {
        assert!(is_zero_bits(&0.0f64) && is_zero_bits(&0i32) && is_zero_bits(&false));
        assert!(is_zero_bits(&c128::new(0.0, 0.0)));
        assert!(!is_zero_bits(&-0.0f64) && !is_zero_bits(&-0.0f32));
        assert!(!is_zero_bits(&c128::new(0.0, -0.0)) && !is_zero_bits(&f64::NAN));
        assert!(!is_zero_bits(&1u8) && !is_zero_bits(&true));
    }

    #[test]
    fn written_vectors_hold_what_was_written() {
        for n in [0usize, 1, 1000, 1 << 20] {
            // SAFETY: the loop writes every slot.
            let v: Vec<f64> = unsafe {
                written_vec(n, |o| {
                    for (i, s) in o.iter_mut().enumerate() {
                        s.write(i as f64 * 0.5);
                    }
                })
            }
            .unwrap();
            assert_eq!(v.len(), n);
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as f64 * 0.5));
        }
        // A request that cannot be had is an error before anything is written.
        // SAFETY: `fill` is never called.
        let huge = unsafe { written_vec::<u64>(usize::MAX / 4, |_| unreachable!()) };
        assert!(matches!(huge, Err(Error::OutOfMemory { .. })));
    }

    #[test]
    fn large_and_small_buffers_hold_zeros() {
        let big: Vec<c128> = zeroed_vec(1 << 20).unwrap();
        assert!(big.iter().all(|&z| z == c128::new(0.0, 0.0)));
        let small: Vec<bool> = zeroed_vec(7).unwrap();
        assert_eq!(small, vec![false; 7]);
        assert!(zeroed_vec::<f64>(0).unwrap().is_empty());
        assert_eq!(filled_vec(3, (1u8, 2usize)).unwrap(), vec![(1, 2); 3]);
        assert!(vec_with_capacity::<u16>(9).unwrap().capacity() >= 9);
    }

    /// The requested size in bytes of an `OutOfMemory`, or a panic naming what came instead.
    fn requested<T>(r: Result<Vec<T>>) -> usize {
        match r {
            Err(Error::OutOfMemory { requested, .. }) => requested,
            Err(e) => panic!("expected OutOfMemory, got {e}"),
            Ok(v) => panic!("expected OutOfMemory, got {} elements", v.len()),
        }
    }

    #[test]
    fn impossible_requests_are_errors_and_the_process_goes_on() {
        // 2^40 f64: 8 TiB, more than RAM + swap here (or beyond what the allocator gives).
        assert_eq!(requested(zeroed_vec::<f64>(1 << 40)), 8 << 40);
        assert_eq!(requested(zeroed_vec::<c128>(1 << 59)), 1 << 63);
        assert_eq!(requested(zeroed_vec::<c128>(1 << 60)), usize::MAX);
        assert_eq!(requested(filled_vec(1 << 41, 1.5f32)), 8 << 40);
        assert_eq!(requested(vec_with_capacity::<u64>(usize::MAX)), usize::MAX);
        // Then allocation and arithmetic work as before.
        let v = zeroed_vec::<f64>(1 << 20).unwrap();
        assert_eq!(v.len(), 1 << 20);
        assert_eq!(filled_vec(5, 2i64).unwrap().iter().sum::<i64>(), 10);
    }
}
