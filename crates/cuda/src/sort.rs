//! [`SortOps`] for [`Cuda`]: stable sorts and argsorts along any axis, partitions (a full
//! stable sort satisfies their contract), binary search and uniqueness.
//!
//! Every op orders by keys (kernels/src/sort.cu, `Keys<T>`): an unsigned integer per element
//! whose unsigned order is [`Element::sort_cmp`] (`-0.0` keys as `0.0`, every NaN as one key
//! above `+inf`, complex lexicographic with any NaN part last). The view's lanes are made
//! lane-major and contiguous ([`lanes`]), then
//! - lanes of up to 4096 elements (2048 for complex128) are sorted by one block each (or
//!   many lanes per block) with a bitonic network over (key, index) pairs in shared memory,
//!   which is stable because the index breaks ties;
//! - longer lanes go through the stable LSD radix sort of [`radix`] (8-bit digits, one
//!   histogram read, one onesweep pass per digit that varies; several lanes are kept apart
//!   by extra passes over the digits of the lane number).
//!
//! Outputs that are exact elements come out bit for bit (the sign of a zero and a NaN's
//! payload survive): keys that decode to other bits are detected in the histogram read and
//! the elements are then gathered by index instead of decoded.
//!
//! Runs that are each sorted already merge in one pass ([`merge`]).

mod lanes;
pub(crate) mod merge;
pub(crate) mod params;
mod plan;
mod radix;
#[cfg(test)]
mod tests_gpu;
mod unique;

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use cuprite_core::backend::SortOps;
use cuprite_core::{Element, Layout, Result};

impl SortOps for Cuda {
    fn sort<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<T>> {
        let l = self.lanes_of("sort", x, lx, axis)?;
        let w = self.sort_lanes("sort", &l, true)?;
        self.unpermute(w, lx.shape(), axis)
    }

    fn argsort<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<i64>> {
        let l = self.lanes_of("argsort", x, lx, axis)?;
        let w = self.argsort_lanes("argsort", &l)?;
        self.unpermute(w, lx.shape(), axis)
    }

    fn partition<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
        _kth: usize,
    ) -> Result<CudaBuffer<T>> {
        // A sorted lane is partitioned around every position.
        let l = self.lanes_of("partition", x, lx, axis)?;
        let w = self.sort_lanes("partition", &l, true)?;
        self.unpermute(w, lx.shape(), axis)
    }

    fn argpartition<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
        _kth: usize,
    ) -> Result<CudaBuffer<i64>> {
        let l = self.lanes_of("argpartition", x, lx, axis)?;
        let w = self.argsort_lanes("argpartition", &l)?;
        self.unpermute(w, lx.shape(), axis)
    }

    fn searchsorted<T: Element>(
        &self,
        sorted: &CudaBuffer<T>,
        ls: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
        right: bool,
    ) -> Result<CudaBuffer<i64>> {
        self.searchsorted_impl("searchsorted", sorted, ls, values, lv, right)
    }

    fn unique<T: Element>(&self, x: &CudaBuffer<T>, lx: &Layout) -> Result<(CudaBuffer<T>, usize)> {
        let (values, _, k) = self.unique_impl("unique", x, lx, false)?;
        Ok((values, k))
    }

    fn unique_all<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
    ) -> Result<(
        CudaBuffer<T>,
        CudaBuffer<i64>,
        CudaBuffer<i64>,
        CudaBuffer<i64>,
        usize,
    )> {
        let (values, extras, k) = self.unique_impl("unique_all", x, lx, true)?;
        let (first, inverse, counts) = match extras {
            Some(e) => e,
            None => (self.alloc(0)?, self.alloc(0)?, self.alloc(0)?),
        };
        Ok((values, first, inverse, counts, k))
    }
}
