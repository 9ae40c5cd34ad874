//! `unique`, `unique_all` and `searchsorted` on the GPU.
//!
//! Unique: the flattened view is radix-sorted to keys (with the stable permutation when the
//! first occurrences or the inverse are asked for, or when some element's key cannot give
//! back its bits); run heads are counted per tile, the counts scanned, their total read back
//! (the one size the host must know), and one more pass over the keys writes each run's
//! value, first index (the smallest index of the run: the stable permutation's first),
//! start, and every element's run number at its index (the inverse); counts are the
//! differences of the starts.
//!
//! Searchsorted: one thread per value, a binary search over the keys of the sorted view.

use super::params::{SortSearchsortedArgs, SortUqCountArgs, SortUqCountsArgs, SortUqScanArgs};
use super::plan::{self, RADIX_MAX};
use super::radix::{scratch, RadixOut};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::{check_view, coalesce, Strided, BLOCK};
use cuprite_core::{BackendBase, Element, Error, Layout, Result};
use cuprite_kernels::sort::{self as ks, UNIQUE_TILE};

kernel_params! {
    /// Arguments of `sort_uq_write`; mirrors `struct UniqueArgs` in kernels/src/sort.cu.
    pub(crate) struct UniqueArgs {
        keys: u64,
        perm: u64,
        raw: u64,
        offsets: u64,
        values: u64,
        first: u64,
        inverse: u64,
        starts: u64,
        n: i64,
        exact: i32,
        pad: i32,
    }
}

/// What `unique_all` returns besides the values: first indices, inverse, counts.
pub(crate) type UniqueExtras = (CudaBuffer<i64>, CudaBuffer<i64>, CudaBuffer<i64>);

impl Cuda {
    /// A kernel of the unique section for `T`.
    fn unique_fn<T: Element, P: KernelParams>(&self, name: &str) -> Result<Kernel<'_, P>> {
        self.kernel(&format!("sort|unique|{}", cty::<T>()), name, || {
            ks::unique_program(cty::<T>())
        })
    }

    /// The distinct values of the view (sorted), and with `all` the first indices, inverse
    /// and counts; plus their number.
    pub(crate) fn unique_impl<T: Element>(
        &self,
        op: &'static str,
        x: &CudaBuffer<T>,
        lx: &Layout,
        all: bool,
    ) -> Result<(CudaBuffer<T>, Option<UniqueExtras>, usize)> {
        let n = lx.size();
        if n == 0 {
            check_view(self, op, x, lx)?;
            let extras = if all {
                Some((self.alloc(0)?, self.alloc(0)?, self.alloc(0)?))
            } else {
                None
            };
            return Ok((self.alloc(0)?, extras, 0));
        }
        if n > RADIX_MAX {
            return Err(Error::invalid(
                op,
                format!("cuda sorts at most {RADIX_MAX} elements at once, got {n}"),
            ));
        }
        let l = self.flat_lane(op, x, lx)?;
        let keys = scratch(self, n * plan::key_bytes(T::DTYPE))?;
        let perm = scratch(self, n * 4)?;
        let done = self.radix_sort::<T>(
            op,
            l.ptr(),
            1,
            n,
            RadixOut::Keys {
                keys: self.ptr(&keys)?,
                perm: self.ptr(&perm)?,
                perm_always: all,
            },
        )?;

        // Run heads per tile, scanned; the total comes back to the host.
        let nb = n.div_ceil(UNIQUE_TILE);
        let counts = self.alloc::<i32>(nb)?;
        let total = self.alloc::<i32>(1)?;
        let (kp, cp, tp, nn, nbb) = (
            self.ptr(&keys)?,
            self.ptr(&counts)?,
            self.ptr(&total)?,
            n as i64,
            nb as i64,
        );
        let f = self.unique_fn::<T, _>("sort_uq_count")?;
        // `keys` holds `n` keys; `counts` one u32 per tile of UNIQUE_TILE keys.
        f.launch(
            (nb as u32, 1, 1),
            (ks::THREADS, 1, 1),
            0,
            &SortUqCountArgs {
                keys: kp,
                n: nn,
                counts: cp,
            },
        )?;
        let f = self.sort_util_fn::<i64, _>("sort_uq_scan")?;
        // `counts` holds `nb` u32, `total` one.
        f.launch(
            (1, 1, 1),
            (ks::THREADS, 1, 1),
            0,
            &SortUqScanArgs {
                counts: cp,
                nb: nbb,
                total: tp,
            },
        )?;
        let k = self.download(&total)?[0] as u32 as usize;

        let values = self.alloc::<T>(k)?;
        let extras = if all {
            Some((
                self.alloc::<i64>(k)?,
                self.alloc::<i64>(n)?,
                self.alloc::<i64>(k)?,
            ))
        } else {
            None
        };
        let starts = self.alloc::<i32>(if all { k } else { 0 })?;
        let a = UniqueArgs {
            keys: kp,
            perm: if done.pairs { self.ptr(&perm)? } else { 0 },
            raw: l.ptr(),
            offsets: cp,
            values: self.ptr(&values)?,
            first: extras.as_ref().map_or(0, |e| e.0.device_ptr()),
            inverse: extras.as_ref().map_or(0, |e| e.1.device_ptr()),
            starts: if all { self.ptr(&starts)? } else { 0 },
            n: nn,
            exact: done.special as i32,
            pad: 0,
        };
        let f = self.unique_fn::<T, _>("sort_uq_write")?;
        // `keys`, `perm` (written whenever the permutation is read: `all` or
        // `special`) and `raw` hold `n` elements, `offsets` one per tile; the outputs hold
        // `k` values (one per run head) and `n` inverse entries.
        f.launch((nb as u32, 1, 1), (ks::THREADS, 1, 1), 0, &a)?;
        if let Some((_, _, cnt)) = &extras {
            if k > 0 {
                let f = self.sort_util_fn::<i64, _>("sort_uq_counts")?;
                let (op_, sp, kk) = (self.ptr(cnt)?, self.ptr(&starts)?, k as i64);
                // `cnt` and `starts` hold `k` elements.
                f.launch(
                    (self.grid_for(k, 4), 1, 1),
                    (BLOCK, 1, 1),
                    0,
                    &SortUqCountsArgs {
                        counts: op_,
                        starts: sp,
                        k: kk,
                        n: nn,
                    },
                )?;
            }
        }
        Ok((values, extras, k))
    }

    /// For every value of the view `lv`, its insertion index into the sorted 1-d view `ls`.
    pub(crate) fn searchsorted_impl<T: Element>(
        &self,
        op: &'static str,
        sorted: &CudaBuffer<T>,
        ls: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
        right: bool,
    ) -> Result<CudaBuffer<i64>> {
        check_view(self, op, sorted, ls)?;
        check_view(self, op, values, lv)?;
        if ls.ndim() != 1 {
            return Err(Error::invalid(
                op,
                format!("the sorted array must be 1-d, got shape {:?}", ls.shape()),
            ));
        }
        let nv = lv.size();
        let out = self.alloc::<i64>(nv)?;
        if nv == 0 {
            return Ok(out);
        }
        let (len, stride) = (ls.shape()[0] as i64, ls.strides()[0] as i64);
        let sp = self.ptr(sorted)? + (ls.offset() * std::mem::size_of::<T>()) as u64;
        // Views of more axes than a kernel takes are gathered first.
        let gathered;
        let (vbuf, vs): (&CudaBuffer<T>, Strided) = match coalesce(op, &[lv]) {
            Ok(mut v) => (values, v.remove(0)),
            Err(_) => {
                gathered = self.copy(values, lv)?;
                let c = Layout::contiguous(&[nv]);
                (&gathered, coalesce(op, &[&c])?.remove(0))
            }
        };
        let f = self.kernel(
            &format!("sort|search|{}", cty::<T>()),
            "sort_searchsorted",
            || ks::search_program(cty::<T>()),
        )?;
        let (outp, vp, nvv, r) = (self.ptr(&out)?, self.ptr(vbuf)?, nv as i64, right as i32);
        // `sorted` holds the `len` elements `sp + i * stride` (a view core checked),
        // `vbuf` every offset of `vs`, `out` `nv` i64.
        f.launch(
            (self.grid_for(nv, 1), 1, 1),
            (BLOCK, 1, 1),
            0,
            &SortSearchsortedArgs {
                out: outp,
                sorted: sp,
                len,
                stride,
                vals: vp,
                vs,
                nv: nvv,
                right: r,
            },
        )?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_args_match_the_c_struct_layout() {
        assert_eq!(std::mem::size_of::<UniqueArgs>(), 8 * 8 + 8 + 8);
        assert_eq!(std::mem::offset_of!(UniqueArgs, n), 64);
        assert_eq!(std::mem::offset_of!(UniqueArgs, exact), 72);
    }
}
