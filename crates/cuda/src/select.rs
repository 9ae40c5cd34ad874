//! [`SelectOps`] for [`Cuda`]: order statistics of every lane (behind `median`, `quantile`
//! and `percentile`). The lanes are sorted (see [`crate::sort`]: short lanes by one block
//! each in shared memory, long ones by the radix sort, keys decoded rather than elements
//! gathered since the sign of a zero and a NaN's payload need not survive), then one kernel
//! gathers the positions `kth` of every lane into the output `[kth.len(), lanes...]`.

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::launch::{check_view, BLOCK};
use crate::sort::params::SortSelectArgs;
use cuprite_core::backend::SelectOps;
use cuprite_core::{Element, Error, Layout, Result};

impl SelectOps for Cuda {
    fn select_kth<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
        kth: &[usize],
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "select_kth";
        check_view(self, OP, x, lx)?;
        lx.check_axis(OP, axis)?;
        let len = lx.shape()[axis];
        let lanes = lx.size().checked_div(len).unwrap_or(0);
        let m = kth.len();
        if let Some(&k) = kth.iter().find(|&&k| k >= len) {
            return Err(Error::invalid(
                OP,
                format!("position {k} is out of bounds for axis {axis} with size {len}"),
            ));
        }
        let total = m * lanes;
        let out = self.alloc::<T>(total)?;
        if total == 0 {
            return Ok(out);
        }
        let l = self.lanes_of(OP, x, lx, axis)?;
        let sorted = self.sort_lanes(OP, &l, false)?;
        let kth: Vec<i64> = kth.iter().map(|&k| k as i64).collect();
        let kth = self.upload(&kth)?;
        let f = self.sort_util_fn::<T, _>("sort_select")?;
        let (op, sp, kp) = (self.ptr(&out)?, self.ptr(&sorted)?, self.ptr(&kth)?);
        let (ln, le, mm) = (lanes as i64, len as i64, m as i64);
        // `sorted` holds `lanes * len` elements, `kth` `m` positions below `len`,
        // `out` `m * lanes` elements.
        f.launch(
            (self.grid_for(total, 4), 1, 1),
            (BLOCK, 1, 1),
            0,
            &SortSelectArgs {
                out: op,
                sorted: sp,
                lanes: ln,
                len: le,
                kth: kp,
                m: mm,
            },
        )?;
        Ok(out)
    }
}
