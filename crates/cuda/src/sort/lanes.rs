//! Lanes: the lanes of a view along an axis, lane-major and contiguous (the input itself
//! when its layout allows, else one gathered copy), sorted by the block sort when short and
//! by the radix sort when long, and lane-major results put back in the view's axis order.

use super::plan;
use super::radix::RadixOut;
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::launch::check_view;
use cuprite_core::layout::c_strides;
use cuprite_core::{BackendBase, Element, Layout, Result};
use cuprite_kernels::sort as ks;
use std::cmp::Ordering;

/// The lanes of a view along an axis, lane-major and contiguous from element `off` of `buf`.
pub(crate) struct Lanes<T: Element> {
    buf: CudaBuffer<T>,
    off: usize,
    /// Number of lanes.
    pub lanes: usize,
    /// Elements per lane.
    pub len: usize,
}

impl<T: Element> Lanes<T> {
    /// Device address of the first element of the first lane.
    pub(crate) fn ptr(&self) -> u64 {
        self.buf.device_ptr() + (self.off * std::mem::size_of::<T>()) as u64
    }

    /// Number of elements.
    pub(crate) fn n(&self) -> usize {
        self.lanes * self.len
    }
}

kernel_params! {
    /// Arguments of `sort_block`; mirrors `struct BlockArgs` in kernels/src/sort.cu.
    pub(crate) struct BlockArgs {
        src: u64,
        out_raw: u64,
        out_idx: u64,
        lanes: i64,
        len: i32,
        p2: i32,
        lpb: i32,
        mode: i32,
    }
}

impl Cuda {
    /// The lanes of the view `lx` of `x` along `axis`.
    pub(crate) fn lanes_of<T: Element>(
        &self,
        op: &'static str,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<Lanes<T>> {
        check_view(self, op, x, lx)?;
        lx.check_axis(op, axis)?;
        let len = lx.shape()[axis];
        let lanes = lx.size().checked_div(len).unwrap_or(0);
        let last = lx.axes_to_end(&[axis]);
        let (buf, off) = match last.contiguous_offset() {
            Some(off) => (x.clone(), off),
            None => (self.copy(x, &last)?, 0),
        };
        Ok(Lanes {
            buf,
            off,
            lanes,
            len,
        })
    }

    /// The elements of a whole view in C order, as one lane.
    pub(crate) fn flat_lane<T: Element>(
        &self,
        op: &'static str,
        x: &CudaBuffer<T>,
        lx: &Layout,
    ) -> Result<Lanes<T>> {
        check_view(self, op, x, lx)?;
        let n = lx.size();
        let (buf, off) = match lx.contiguous_offset() {
            Some(off) => (x.clone(), off),
            None => (self.copy(x, lx)?, 0),
        };
        Ok(Lanes {
            buf,
            off,
            lanes: (n > 0) as usize,
            len: n,
        })
    }

    /// Every lane sorted stably, lane-major. With `exact`, the output elements are the input
    /// elements bit for bit (else `-0.0` may become `0.0` and NaNs canonical).
    pub(crate) fn sort_lanes<T: Element>(
        &self,
        op: &'static str,
        l: &Lanes<T>,
        exact: bool,
    ) -> Result<CudaBuffer<T>> {
        let n = l.n();
        let out = self.alloc::<T>(n)?;
        if n == 0 {
            return Ok(out);
        }
        if l.len == 1 {
            self.copy_elems(&out, 0, &l.buf, l.off, n)?;
        } else if l.len <= plan::block_max_len(T::DTYPE) {
            self.block_sort(l, self.ptr(&out)?, 0)?;
        } else {
            let out = RadixOut::Values {
                out: self.ptr(&out)?,
                exact,
            };
            self.radix_sort::<T>(op, l.ptr(), l.lanes, l.len, out)?;
        }
        Ok(out)
    }

    /// The indices along every lane that sort it stably, lane-major.
    pub(crate) fn argsort_lanes<T: Element>(
        &self,
        op: &'static str,
        l: &Lanes<T>,
    ) -> Result<CudaBuffer<i64>> {
        let n = l.n();
        if n == 0 || l.len == 1 {
            return self.alloc_zeroed::<i64>(n);
        }
        let out = self.alloc::<i64>(n)?;
        if l.len <= plan::block_max_len(T::DTYPE) {
            self.block_sort(l, self.ptr(&out)?, 1)?;
        } else {
            let out = RadixOut::Indices {
                out: self.ptr(&out)?,
            };
            self.radix_sort::<T>(op, l.ptr(), l.lanes, l.len, out)?;
        }
        Ok(out)
    }

    /// The block sort of lanes of 2 to `block_max_len` elements into `out`: the elements
    /// (`mode` 0, `T`) or the indices along the lane (`mode` 1, `i64`).
    fn block_sort<T: Element>(&self, l: &Lanes<T>, out: u64, mode: i32) -> Result<()> {
        let bp = plan::block_plan(T::DTYPE, l.lanes, l.len);
        let a = BlockArgs {
            src: l.ptr(),
            out_raw: if mode == 0 { out } else { 0 },
            out_idx: if mode == 1 { out } else { 0 },
            lanes: l.lanes as i64,
            len: l.len as i32,
            p2: bp.p2 as i32,
            lpb: bp.lpb as i32,
            mode,
        };
        let f = self.radix_fn::<T, _>("sort_block")?;
        // `src` holds `lanes * len` elements, `out` as many of the output type;
        // `blocks * lpb` lanes cover every lane and the kernel skips slots past the last
        // lane or past `len`; the dynamic shared memory holds `p2 * lpb` keys and indices.
        f.launch((bp.blocks as u32, 1, 1), (ks::THREADS, 1, 1), bp.shared, &a)
    }

    /// Lane-major results over the lanes of a view of `shape` along `axis` (the view's
    /// shape with `axis` moved last, C order), as a C-contiguous buffer of `shape`.
    pub(crate) fn unpermute<E: Element>(
        &self,
        work: CudaBuffer<E>,
        shape: &[usize],
        axis: usize,
    ) -> Result<CudaBuffer<E>> {
        let ndim = shape.len();
        let mut last_shape: Vec<usize> = shape
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != axis)
            .map(|(_, &s)| s)
            .collect();
        last_shape.push(shape[axis]);
        let ws = c_strides(&last_shape);
        let strides: Vec<isize> = (0..ndim)
            .map(|i| match i.cmp(&axis) {
                Ordering::Less => ws[i],
                Ordering::Equal => ws[ndim - 1],
                Ordering::Greater => ws[i - 1],
            })
            .collect();
        let view = Layout::new(shape.to_vec(), strides, 0);
        if view.is_c_contiguous() {
            return Ok(work);
        }
        self.copy(&work, &view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_args_match_the_c_struct_layout() {
        assert_eq!(std::mem::size_of::<BlockArgs>(), 3 * 8 + 8 + 4 * 4);
        assert_eq!(std::mem::offset_of!(BlockArgs, lanes), 24);
        assert_eq!(std::mem::offset_of!(BlockArgs, mode), 44);
    }
}
