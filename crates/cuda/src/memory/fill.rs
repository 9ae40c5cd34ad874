//! Fills and ramps: driver memsets for all-zero bit patterns and one-byte types, a kernel
//! with 16-byte vector stores for other contiguous runs, a strided kernel for the rest, and
//! the `start + i * step` ramp computed as the CPU backend computes it.

use super::convert::is_run;
use super::params::{ArangeArgs, FillContigArgs, FillStridedArgs};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::driver;
use crate::elementwise::ArgBytes;
use crate::launch::{coalesce, BLOCK};
use cuprite_core::{Element, Layout, Numeric, Result};
use cuprite_kernels::memory::{arange_program, fill_program};

/// True when the value's bits are all zero (0, 0.0, false, 0+0i; not -0.0).
pub(super) fn is_zero_bits<T: Element>(value: &T) -> bool {
    crate::ffi::element_bytes(value).iter().all(|&b| b == 0)
}

impl Cuda {
    /// Sets `len` elements of `buf` from element `start` on to `value`.
    pub(super) fn fill_run<T: Element>(
        &self,
        buf: &CudaBuffer<T>,
        start: usize,
        len: usize,
        value: T,
    ) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        let size = std::mem::size_of::<T>();
        let ptr = self.ptr(buf)? + (start * size) as u64;
        self.bind()?;
        if size == 1 || is_zero_bits(&value) {
            let byte = crate::ffi::element_bytes(&value)[0];
            return driver::memset_u8(ptr, byte, len * size, self.stream());
        }
        let key = format!("memory|fill|{}", cty::<T>());
        let f = self.kernel(&key, "fill_contig", || fill_program(cty::<T>()))?;
        let n = len as i64;
        let grid = self.grid_for(len, 16 / size);
        // `fill_contig(T*, i64, T)`; the run of `len` elements lies inside `buf`.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &FillContigArgs {
                out: ptr,
                n,
                value: ArgBytes::of(value),
            },
        )
    }

    /// Sets every element of a (non-empty, non-overlapping, in-bounds) view to `value`.
    pub(super) fn fill_view<T: Element>(
        &self,
        buf: &CudaBuffer<T>,
        layout: &Layout,
        value: T,
    ) -> Result<()> {
        let n = layout.size();
        if n == 0 {
            return Ok(());
        }
        let s = coalesce("fill", &[layout])?[0];
        if is_run(&s) {
            return self.fill_run(buf, s.offset as usize, n, value);
        }
        let key = format!("memory|fill|{}", cty::<T>());
        let name = if n < i32::MAX as usize {
            "fill_strided32"
        } else {
            "fill_strided64"
        };
        let f = self.kernel(&key, name, || fill_program(cty::<T>()))?;
        let (ptr, n64) = (self.ptr(buf)?, n as i64);
        let grid = self.grid_for(n, 1);
        // `fill_strided(T*, Strided, i64, T)`; the view lies inside `buf`.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &FillStridedArgs {
                out: ptr,
                s,
                n: n64,
                value: ArgBytes::of(value),
            },
        )
    }

    /// Writes `start + i * step` into every element `i` of `out`.
    pub(super) fn arange_into<T: Numeric>(
        &self,
        out: &CudaBuffer<T>,
        start: T,
        step: T,
    ) -> Result<()> {
        let n = out.len();
        if n == 0 {
            return Ok(());
        }
        let key = format!("memory|arange|{}", cty::<T>());
        let f = self.kernel(&key, "arange", || arange_program(cty::<T>()))?;
        let (ptr, n64) = (self.ptr(out)?, n as i64);
        let grid = self.grid_for(n, 1);
        // `arange(T*, i64, T, T)`; `out` holds `n` elements.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &ArangeArgs {
                out: ptr,
                n: n64,
                start: ArgBytes::of(start),
                step: ArgBytes::of(step),
            },
        )
    }
}
