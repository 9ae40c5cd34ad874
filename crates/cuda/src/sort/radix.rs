//! The radix sort driver: a stable LSD sort with 8-bit digits of lanes stored lane-major.
//!
//! 1. `sort_hist` reads the elements once and counts every digit of every key, plus the
//!    elements whose key does not decode to their own bits (`-0.0`, non-canonical NaNs);
//!    the counters come back to the host in one small read (the only synchronisation).
//! 2. The host plans the passes ([`plan_passes`]): digits constant over all keys are
//!    skipped, lane-number digits follow the key digits (so lanes stay apart, stably).
//! 3. One `sort_onesweep_*` launch per pass: each block takes the next tile, scans the
//!    pass's histogram for the buckets' global starts, ranks its digits, learns the counts
//!    of earlier tiles by decoupled look-back and scatters through shared memory. The first
//!    pass makes keys from the elements; the last one writes the requested output (decoded
//!    keys, exact elements gathered by index, indices along the lane, or keys and
//!    permutation), so keys never round-trip through memory needlessly. Look-back entries
//!    live in two regions used by alternate passes; each pass clears the other region for
//!    the next, so only the first region is zeroed up front.
//!
//! Values (`u32` positions) travel with the keys only when needed: argsorts, several lanes,
//! exact output of elements that keys cannot reproduce, or a permutation asked for.

use super::params::{SortHistArgs, SortIotaModArgs, SortKeyIotaArgs, SortOffsetsArgs};
use super::plan::{self, plan_passes, Digit, RADIX_MAX};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::BLOCK;
use cuprite_core::{Element, Error, Result};
use cuprite_kernels::sort::{self as ks, RADIX};

kernel_params! {
    /// Arguments of one radix pass; mirrors `struct PassArgs` in kernels/src/sort.cu.
    pub(crate) struct PassArgs {
        keys_in: u64,
        raw_in: u64,
        vals_in: u64,
        keys_out: u64,
        vals_out: u64,
        raw_out: u64,
        idx_out: u64,
        lookback: u64,
        lb_next: u64,
        counter: u64,
        offsets: u64,
        n: i64,
        len: u32,
        shift: i32,
        in_raw: i32,
        val_in: i32,
        lane_digit: i32,
        write: i32,
        lb64: i32,
        pad: i32,
    }
}

/// What a radix sort leaves behind, all lane-major (device addresses).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RadixOut {
    /// The sorted elements (`T`). With `exact`, bit for bit the input's elements (else
    /// `-0.0` may come out as `0.0` and NaNs canonical).
    Values { out: u64, exact: bool },
    /// The indices along each lane that sort it (`i64`).
    Indices { out: u64 },
    /// The sorted keys and, when `perm_always` or when the keys cannot reproduce every
    /// element, the sorting permutation (`u32` positions) into `perm`. One lane only.
    Keys {
        keys: u64,
        perm: u64,
        perm_always: bool,
    },
}

/// What happened in a radix sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RadixDone {
    /// Some element's key does not decode to its bits (`-0.0` or a non-canonical NaN).
    pub special: bool,
    /// Values travelled with the keys (for [`RadixOut::Keys`]: `perm` was written).
    pub pairs: bool,
}

/// A scratch buffer of `bytes` bytes (device memory is at least 256-byte aligned).
pub(crate) fn scratch(dev: &Cuda, bytes: usize) -> Result<CudaBuffer<u8>> {
    dev.alloc::<u8>(bytes)
}

/// The radix program's cache key.
fn radix_key<T: Element>() -> String {
    format!("sort|radix|{}", cty::<T>())
}

impl Cuda {
    /// A kernel of the radix section for `T`.
    pub(crate) fn radix_fn<T: Element, P: KernelParams>(
        &self,
        name: &str,
    ) -> Result<Kernel<'_, P>> {
        self.kernel(&radix_key::<T>(), name, || ks::radix_program(cty::<T>()))
    }

    /// A kernel of the helper section for `T`.
    pub(crate) fn sort_util_fn<T: Element, P: KernelParams>(
        &self,
        name: &str,
    ) -> Result<Kernel<'_, P>> {
        self.kernel(&format!("sort|util|{}", cty::<T>()), name, || {
            ks::util_program(cty::<T>())
        })
    }

    /// `out[i] = i % len` for `i < n` (`n > 0`).
    pub(crate) fn iota_mod(&self, out: u64, n: usize, len: usize) -> Result<()> {
        let f = self.sort_util_fn::<i64, _>("sort_iota_mod")?;
        let (n, len) = (n as i64, len as i64);
        // `out` holds `n` i64; the kernel writes exactly those.
        f.launch(
            (self.grid_for(n as usize, 4), 1, 1),
            (BLOCK, 1, 1),
            0,
            &SortIotaModArgs { out, n, len },
        )
    }

    /// Sorts `lanes` lanes of `len` elements of `T` (`0 < lanes * len`), stored lane-major
    /// and contiguous at device address `src`, stably by [`Element::sort_cmp`], into `out`.
    pub(crate) fn radix_sort<T: Element>(
        &self,
        op: &'static str,
        src: u64,
        lanes: usize,
        len: usize,
        out: RadixOut,
    ) -> Result<RadixDone> {
        let d = T::DTYPE;
        let n = lanes * len;
        debug_assert!(n > 0);
        if n > RADIX_MAX {
            return Err(Error::invalid(
                op,
                format!("cuda sorts at most {RADIX_MAX} elements at once, got {n}"),
            ));
        }
        let kb = plan::key_bytes(d);

        // 1. All digit histograms and the count of elements keys cannot reproduce.
        let hist = self.alloc_zeroed::<i32>(kb * RADIX + 1)?;
        {
            let f = self.radix_fn::<T, _>("sort_hist")?;
            let (hp, nn) = (self.ptr(&hist)?, n as i64);
            let grid = (n.div_ceil(ks::THREADS as usize) as u32)
                .min(self.inner.sm_count * plan::HIST_BLOCKS_PER_SM);
            // `src` holds `n` elements of T; `hist` holds kb * 256 + 1 counters.
            f.launch(
                (grid.max(1), 1, 1),
                (ks::THREADS, 1, 1),
                0,
                &SortHistArgs {
                    src,
                    n: nn,
                    hist: hp,
                },
            )?;
        }
        // Bucket offsets of every possible pass (key bytes, then lane-number bytes), made on
        // the device while the host reads the histograms.
        let offsets = scratch(self, (kb + 4) * RADIX * 4)?;
        {
            let f = self.radix_fn::<T, _>("sort_offsets")?;
            let (hp, op, ln, le) = (
                self.ptr(&hist)?,
                self.ptr(&offsets)?,
                lanes as i64,
                len as u32,
            );
            // `hist` holds kb * 256 counters, `offsets` (kb + 4) * 256; one block per
            // row of 256.
            f.launch(
                ((kb + 4) as u32, 1, 1),
                (ks::THREADS, 1, 1),
                0,
                &SortOffsetsArgs {
                    hist: hp,
                    offsets: op,
                    lanes: ln,
                    len: le,
                },
            )?;
        }
        let h: Vec<u32> = self.download(&hist)?.iter().map(|&c| c as u32).collect();
        let special = h[kb * RADIX] != 0;

        // 2. The plan.
        let passes = plan_passes(&h[..kb * RADIX], plan::sig_bytes(d), lanes, len);
        let pairs = match out {
            RadixOut::Values { exact, .. } => lanes > 1 || (exact && special),
            RadixOut::Indices { .. } => true,
            RadixOut::Keys { perm_always, .. } => lanes > 1 || perm_always || special,
        };
        let done = RadixDone { special, pairs };
        if passes.is_empty() {
            // Every key is equal (and lanes == 1): the identity permutation.
            self.radix_identity::<T>(src, n, len, out, pairs)?;
            return Ok(done);
        }

        // 3. Look-back state and ping-pong buffers.
        let tile = plan::tile(d, pairs);
        let tiles = n.div_ceil(tile);
        let lb64 = plan::lookback_64(n);
        let region = tiles * RADIX * if lb64 { 8 } else { 4 };
        let counters = (4 * passes.len()).next_multiple_of(256);
        let regions = passes.len().min(2);
        let state = scratch(self, counters + region * regions)?;
        self.bind()?;
        crate::driver::memset_u8(self.ptr(&state)?, 0, counters + region, self.stream())?;
        let inner = passes.len() - 1; // passes writing intermediate keys
        let bufs = inner.min(2);
        let keys: Vec<CudaBuffer<u8>> = (0..bufs)
            .map(|_| scratch(self, n * kb))
            .collect::<Result<_>>()?;
        let vals: Vec<CudaBuffer<u8>> = if pairs {
            (0..bufs)
                .map(|_| scratch(self, n * 4))
                .collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        let fk = if pairs {
            self.radix_fn::<T, _>("sort_onesweep_pairs")?
        } else {
            self.radix_fn::<T, _>("sort_onesweep_keys")?
        };
        let shared = plan::pass_shared(d, pairs);
        let lb = |i: usize| state.device_ptr() + (counters + (i % 2) * region) as u64;

        for (i, p) in passes.iter().enumerate() {
            let first = i == 0;
            let last = i + 1 == passes.len();
            let mut a = PassArgs {
                raw_in: src,
                lookback: lb(i),
                lb_next: if last { 0 } else { lb(i + 1) },
                counter: self.ptr(&state)? + 4 * i as u64,
                offsets: self.ptr(&offsets)?
                    + (match p {
                        Digit::Key(b) => *b as usize,
                        Digit::Lane(b) => kb + *b as usize,
                    } * RADIX
                        * 4) as u64,
                n: n as i64,
                len: len as u32,
                shift: p.shift(),
                in_raw: first as i32,
                val_in: if !pairs {
                    0
                } else if first {
                    1
                } else {
                    2
                },
                lane_digit: matches!(p, Digit::Lane(_)) as i32,
                lb64: lb64 as i32,
                ..Default::default()
            };
            if !first {
                a.keys_in = self.ptr(&keys[(i - 1) % 2])?;
                if pairs {
                    a.vals_in = self.ptr(&vals[(i - 1) % 2])?;
                }
            }
            if !last {
                a.keys_out = self.ptr(&keys[i % 2])?;
                a.write = ks::W_KEYS;
                if pairs {
                    a.vals_out = self.ptr(&vals[i % 2])?;
                    a.write |= ks::W_VALS;
                }
            } else {
                match out {
                    RadixOut::Values { out, exact } => {
                        a.raw_out = out;
                        a.write = if pairs && exact && special {
                            ks::W_GATHER
                        } else {
                            ks::W_DECODE
                        };
                    }
                    RadixOut::Indices { out } => {
                        a.idx_out = out;
                        a.write = ks::W_IDX;
                    }
                    RadixOut::Keys { keys, perm, .. } => {
                        a.keys_out = keys;
                        a.write = ks::W_KEYS;
                        if pairs {
                            a.vals_out = perm;
                            a.write |= ks::W_VALS;
                        }
                    }
                }
            }
            // every pointer set in `a` holds `n` elements of the type the kernel
            // reads or writes through it (keys: kb bytes, values: u32) per the write mask;
            // the look-back regions hold `tiles` entries per digit, `offsets` 256 u32;
            // `tiles` blocks cover `n` with tiles of `tile` keys and the dynamic shared
            // memory is the size the kernel stages a tile in.
            fk.launch((tiles as u32, 1, 1), (ks::THREADS, 1, 1), shared, &a)?;
        }
        Ok(done)
    }

    /// The output of a sort whose permutation is the identity (no pass needed).
    fn radix_identity<T: Element>(
        &self,
        src: u64,
        n: usize,
        len: usize,
        out: RadixOut,
        pairs: bool,
    ) -> Result<()> {
        match out {
            RadixOut::Values { out, .. } => {
                self.bind()?;
                crate::driver::dtod(out, src, n * std::mem::size_of::<T>(), self.stream())
            }
            RadixOut::Indices { out } => self.iota_mod(out, n, len),
            RadixOut::Keys { keys, perm, .. } => {
                let f = self.radix_fn::<T, _>("sort_key_iota")?;
                let perm = if pairs { perm } else { 0 };
                let nn = n as i64;
                // `src` holds `n` elements, `keys` `n` keys and `perm` (when not 0)
                // `n` u32.
                f.launch(
                    (self.grid_for(n, 4), 1, 1),
                    (BLOCK, 1, 1),
                    0,
                    &SortKeyIotaArgs {
                        src,
                        n: nn,
                        keys,
                        perm,
                    },
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_args_match_the_c_struct_layout() {
        assert_eq!(std::mem::size_of::<PassArgs>(), 11 * 8 + 8 + 8 * 4);
        assert_eq!(std::mem::offset_of!(PassArgs, n), 88);
        assert_eq!(std::mem::offset_of!(PassArgs, len), 96);
        assert_eq!(std::mem::offset_of!(PassArgs, lb64), 120);
        assert!(ks::SOURCE.contains("struct PassArgs {"));
    }
}
