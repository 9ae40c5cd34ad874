//! [`MaskOps`] on the GPU: `mask_select`, `nonzero`, `count_nonzero` and `mask_assign`, with
//! the stream-compaction kernels of `cuprite_kernels::index::MASK`.
//!
//! A view of `n` elements is cut into tiles of [`MASK_TILE`] elements, one block each. Pass 1
//! counts the flagged elements (true mask entries, or truthy elements as
//! `Element::is_truthy` defines them) of every tile; pass 2, one block, scans those counts
//! into each tile's output offset and the total; the host reads the total (one small sync:
//! it sizes the output, or is the answer of `count_nonzero`, or is checked against the
//! number of values of `mask_assign` before anything is written); pass 3 re-reads the flags,
//! ranks them within the tile by warp ballots and writes each flagged element at its tile's
//! offset plus its rank, so outputs come out in C order. All views, broadcast masks (zero
//! strides) included, are coalesced jointly and read through `Strided`. A single value for
//! `mask_assign` needs no ranks: one pass writes it wherever the mask is true, with no sync.

mod params;

use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::driver;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::{check_view, coalesce, Strided, BLOCK};
use cuprite_core::backend::MaskOps;
use cuprite_core::{Element, Error, Layout, Result};
use cuprite_kernels::index::{MASK_BLOCK, MASK_SCAN_BLOCK, MASK_TILE};
use params::{
    AssignFillArgs, AssignScatterArgs, CountArgs, NonzeroScatterArgs, ScanTilesArgs,
    SelectScatterArgs,
};

/// The module key of the mask family for a CUDA element type.
fn mask_key(ctype: &str) -> String {
    format!("mask|{ctype}")
}

/// The mask program instantiated for a CUDA element type.
fn mask_source(ctype: &str) -> String {
    cuprite_kernels::program(&[cuprite_kernels::index::MASK], &[("T", ctype)])
}

/// Tiles (blocks of the per-tile passes) for `n` elements, or an error naming `op` when the
/// grid would exceed CUDA's limit of 2^31 - 1 blocks.
fn tiles(op: &'static str, n: usize) -> Result<u32> {
    u32::try_from(n.div_ceil(MASK_TILE))
        .ok()
        .filter(|&t| t <= i32::MAX as u32)
        .ok_or_else(|| Error::invalid(op, format!("{n} elements are too many for one launch")))
}

/// The shapes of two operands must agree (core guarantees it; checked to never misread).
fn same_shape(op: &'static str, a: &Layout, b: &Layout) -> Result<()> {
    if a.shape() == b.shape() {
        Ok(())
    } else {
        Err(Error::ShapeMismatch {
            op,
            lhs: a.shape().to_vec(),
            rhs: b.shape().to_vec(),
        })
    }
}

/// The message of a value count that does not fit the mask (the CPU backend's words).
fn count_mismatch(values: usize, need: usize, lm: &Layout) -> Error {
    Error::invalid(
        "mask_assign",
        format!(
            "{values} values cannot be assigned to the {need} true elements of a mask of \
             shape {:?}",
            lm.shape()
        ),
    )
}

/// Passes 1 and 2 done: each tile's output offset (`ntiles` entries) followed by the total.
struct Offsets {
    buf: CudaBuffer<i64>,
    ntiles: u32,
}

impl Cuda {
    /// A kernel of the mask family for `T`.
    fn mask_fn<T: Element, P: KernelParams>(&self, name: &str) -> Result<Kernel<'_, P>> {
        let ct = cty::<T>();
        self.kernel(&mask_key(ct), name, || mask_source(ct))
    }

    /// Passes 1 and 2 over `n > 0` flags read by `counter` (`count_truthy` for the truthy
    /// elements of a `T` view, `count_mask` for a bool mask) at `flags` through `s`.
    fn tile_offsets<T: Element>(
        &self,
        op: &'static str,
        counter: &str,
        flags: u64,
        s: &Strided,
        n: usize,
    ) -> Result<Offsets> {
        let ntiles = tiles(op, n)?;
        // Per-tile counts as u32 (at most MASK_TILE each), offsets as u64 (read as i64).
        let counts = self.alloc::<i32>(ntiles as usize)?;
        let buf = self.alloc::<i64>(ntiles as usize + 1)?;
        let count = self.mask_fn::<T, CountArgs>(counter)?;
        let scan = self.mask_fn::<T, ScanTilesArgs>("scan_tiles")?;
        let (cp, op_) = (self.ptr(&counts)?, self.ptr(&buf)?);
        let (n, nt) = (n as i64, ntiles as i64);
        // The parameters mirror `count_{truthy,mask}(const F*, Strided, i64, unsigned*)`;
        // `s` addresses the flags' buffer within bounds for its `n` elements and `counts` has
        // one slot per block.
        count.launch(
            (ntiles, 1, 1),
            (MASK_BLOCK, 1, 1),
            0,
            &CountArgs {
                flags,
                s: *s,
                n,
                counts: cp,
            },
        )?;
        // The parameters mirror `scan_tiles(const unsigned*, i64, u64*)`; `counts` has
        // `ntiles` entries and the offsets `ntiles + 1`.
        scan.launch(
            (1, 1, 1),
            (MASK_SCAN_BLOCK, 1, 1),
            0,
            &ScanTilesArgs {
                counts: cp,
                ntiles: nt,
                offsets: op_,
            },
        )?;
        Ok(Offsets { buf, ntiles })
    }

    /// The total of a scan: reads one number back (blocking).
    fn offsets_total(&self, o: &Offsets) -> Result<usize> {
        self.check_not_capturing("boolean mask")?;
        let mut v = [0i64];
        self.bind()?;
        driver::dtoh(
            &mut v,
            self.ptr(&o.buf)? + o.ntiles as u64 * 8,
            self.stream(),
        )?;
        Ok(v[0] as usize)
    }

    /// Number of true elements of a mask view (`n > 0` elements), and the scan behind it.
    fn mask_count<T: Element>(
        &self,
        op: &'static str,
        mask: &CudaBuffer<bool>,
        sm: &Strided,
        n: usize,
    ) -> Result<(Offsets, usize)> {
        let o = self.tile_offsets::<T>(op, "count_mask", self.ptr(mask)?, sm, n)?;
        let total = self.offsets_total(&o)?;
        Ok((o, total))
    }
}

impl MaskOps for Cuda {
    fn mask_select<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        mask: &CudaBuffer<bool>,
        lm: &Layout,
    ) -> Result<(CudaBuffer<T>, usize)> {
        const OP: &str = "mask_select";
        check_view(self, OP, x, lx)?;
        check_view(self, OP, mask, lm)?;
        same_shape(OP, lx, lm)?;
        let n = lx.size();
        if n == 0 {
            return Ok((self.alloc::<T>(0)?, 0));
        }
        let views = coalesce(OP, &[lx, lm])?;
        let (offsets, count) = self.mask_count::<T>(OP, mask, &views[1], n)?;
        let out = self.alloc::<T>(count)?;
        if count == 0 {
            return Ok((out, 0));
        }
        let f = self.mask_fn::<T, SelectScatterArgs>("select_scatter")?;
        let (op, xp, mp) = (self.ptr(&out)?, self.ptr(x)?, self.ptr(mask)?);
        let (n, offp) = (n as i64, self.ptr(&offsets.buf)?);
        // The parameters mirror `select_scatter(T*, const T*, const bool*, Strided x2,
        // i64, const u64*)`; the grid is the tiles of pass 1, `out` holds the `count`
        // elements the scan placed and the views address `x` and `mask` within bounds.
        f.launch(
            (offsets.ntiles, 1, 1),
            (MASK_BLOCK, 1, 1),
            0,
            &SelectScatterArgs {
                out: op,
                x: xp,
                m: mp,
                sx: views[0],
                sm: views[1],
                n,
                offsets: offp,
            },
        )?;
        Ok((out, count))
    }

    fn nonzero<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
    ) -> Result<(CudaBuffer<i64>, usize)> {
        const OP: &str = "nonzero";
        check_view(self, OP, x, lx)?;
        let (n, ndim) = (lx.size(), lx.ndim());
        if ndim == 0 {
            // One element, no coordinates: only the count matters.
            let count = self.count_nonzero(x, lx)?;
            return Ok((self.alloc::<i64>(0)?, count));
        }
        if n == 0 {
            return Ok((self.alloc::<i64>(0)?, 0));
        }
        let sx = coalesce(OP, &[lx])?[0];
        let offsets = self.tile_offsets::<T>(OP, "count_truthy", self.ptr(x)?, &sx, n)?;
        let count = self.offsets_total(&offsets)?;
        let len = count
            .checked_mul(ndim)
            .ok_or_else(|| Error::invalid(OP, "output size overflows usize"))?;
        let out = self.alloc::<i64>(len)?;
        if count == 0 {
            return Ok((out, 0));
        }
        let shape: Vec<i64> = lx.shape().iter().map(|&d| d as i64).collect();
        let shape = self.upload(&shape)?;
        let f = self.mask_fn::<T, NonzeroScatterArgs>("nonzero_scatter")?;
        let (op, xp, offp, sp) = (
            self.ptr(&out)?,
            self.ptr(x)?,
            self.ptr(&offsets.buf)?,
            self.ptr(&shape)?,
        );
        let (n, nd) = (n as i64, ndim as i32);
        // The parameters mirror `nonzero_scatter(i64*, const T*, Strided, i64,
        // const u64*, const i64*, int)`; `out` holds `count` rows of `ndim` and `shape` holds
        // `ndim` entries; the grid is the tiles of pass 1.
        f.launch(
            (offsets.ntiles, 1, 1),
            (MASK_BLOCK, 1, 1),
            0,
            &NonzeroScatterArgs {
                out: op,
                x: xp,
                sx,
                n,
                offsets: offp,
                shape: sp,
                ndim: nd,
            },
        )?;
        Ok((out, count))
    }

    fn count_nonzero<T: Element>(&self, x: &CudaBuffer<T>, lx: &Layout) -> Result<usize> {
        const OP: &str = "count_nonzero";
        check_view(self, OP, x, lx)?;
        let n = lx.size();
        if n == 0 {
            return Ok(0);
        }
        let sx = coalesce(OP, &[lx])?[0];
        let offsets = self.tile_offsets::<T>(OP, "count_truthy", self.ptr(x)?, &sx, n)?;
        self.offsets_total(&offsets)
    }

    fn mask_assign<T: Element>(
        &self,
        dst: &mut CudaBuffer<T>,
        ld: &Layout,
        mask: &CudaBuffer<bool>,
        lm: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
    ) -> Result<()> {
        const OP: &str = "mask_assign";
        check_view(self, OP, dst, ld)?;
        check_view(self, OP, mask, lm)?;
        check_view(self, OP, values, lv)?;
        same_shape(OP, ld, lm)?;
        let n = ld.size();
        let nvals = lv.size();
        if nvals == 1 {
            // One value written wherever the mask is true: no count, no sync.
            if n == 0 {
                return Ok(());
            }
            let views = coalesce(OP, &[ld, lm])?;
            let f = self.mask_fn::<T, AssignFillArgs>("assign_fill")?;
            let (dp, mp, vp) = (self.ptr(dst)?, self.ptr(mask)?, self.ptr(values)?);
            let (voff, n) = (lv.offset() as i64, n as i64);
            let grid = self.grid_for(n as usize, 4);
            // The parameters mirror `assign_fill(T*, const bool*, const T*, i64,
            // Strided x2, i64)`; the views address `dst` and `mask` within bounds and `voff`
            // is the offset of the value's one element.
            f.launch(
                (grid, 1, 1),
                (BLOCK, 1, 1),
                0,
                &AssignFillArgs {
                    dst: dp,
                    m: mp,
                    v: vp,
                    voff,
                    sd: views[0],
                    sm: views[1],
                    n,
                },
            )?;
            return Ok(());
        }
        if n == 0 {
            return if nvals == 0 {
                Ok(())
            } else {
                Err(count_mismatch(nvals, 0, lm))
            };
        }
        let views = coalesce(OP, &[ld, lm])?;
        let (offsets, need) = self.mask_count::<T>(OP, mask, &views[1], n)?;
        if nvals != need {
            return Err(count_mismatch(nvals, need, lm));
        }
        if need == 0 {
            return Ok(());
        }
        let sv = coalesce(OP, &[lv])?[0];
        let f = self.mask_fn::<T, AssignScatterArgs>("assign_scatter")?;
        let (dp, mp, vp) = (self.ptr(dst)?, self.ptr(mask)?, self.ptr(values)?);
        let (n, offp) = (n as i64, self.ptr(&offsets.buf)?);
        // The parameters mirror `assign_scatter(T*, const bool*, const T*, Strided x3,
        // i64, const u64*)`; the grid is the tiles of pass 1, ranks stay below `need`, the
        // number of elements of the values' view, and every view is within its buffer.
        f.launch(
            (offsets.ntiles, 1, 1),
            (MASK_BLOCK, 1, 1),
            0,
            &AssignScatterArgs {
                dst: dp,
                m: mp,
                v: vp,
                sd: views[0],
                sm: views[1],
                sv,
                n,
                offsets: offp,
            },
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests_gpu;

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::DType;

    #[test]
    fn tiles_cover_the_view() {
        assert_eq!(tiles("t", 1).unwrap(), 1);
        assert_eq!(tiles("t", MASK_TILE).unwrap(), 1);
        assert_eq!(tiles("t", MASK_TILE + 1).unwrap(), 2);
        assert!(tiles("t", usize::MAX).is_err());
    }

    #[test]
    fn mismatch_message_matches_the_cpu() {
        let e = count_mismatch(3, 2, &Layout::contiguous(&[2, 2]));
        assert_eq!(
            e.to_string(),
            "mask_assign: 3 values cannot be assigned to the 2 true elements of a mask of \
             shape [2, 2]"
        );
        let l = Layout::contiguous(&[2]);
        assert!(same_shape("t", &l, &l).is_ok());
        assert!(same_shape("t", &l, &Layout::contiguous(&[3])).is_err());
    }

    #[test]
    fn keys_name_the_type() {
        assert_eq!(mask_key("bool"), "mask|bool");
        assert!(mask_source("c64").contains("#define T c64\n"));
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn mask_kernels_compile_for_every_type() {
        for d in DType::ALL {
            let ct = crate::ctype::ctype(d);
            crate::nvrtc::compile_check::assert_compiles(&mask_key(ct), &mask_source(ct));
        }
    }
}
