//! Copying one view into another with an element conversion (a copy converts a type to
//! itself): the driver's device-to-device copy when both views are one contiguous run of the
//! same type, a shared-memory tiled transpose when the source's contiguous axis is not the
//! destination's, a gather when only the destination is contiguous, and a strided-to-strided
//! kernel otherwise.

use super::params::{ConvContigArgs, ConvGatherArgs, ConvScatterArgs, ConvTileArgs};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::driver;
use crate::launch::{coalesce, Strided, BLOCK};
use cuprite_core::{Element, Layout, Result};
use cuprite_kernels::memory::{conv_program, tile_shape};

/// Shortest edge (in elements) of the two transposed axes for which the tiled kernel is
/// used. Thinner transposes are faster as a gather (on an H100 a (62.5M, 4) f64 matrix
/// transposed took 3.4 ms gathered, 6.1 ms through tiles with 4 of 64 columns used).
const MIN_TILE_EDGE: i64 = 8;

/// Blocks per multiprocessor the tiled kernel's grid is capped at (it loops over tiles).
const TILE_BLOCKS_PER_SM: u32 = 16;

/// Views with fewer elements than this use 32-bit index arithmetic.
const INDEX32_LIMIT: usize = i32::MAX as usize;

/// True when a coalesced view is one contiguous run (0-d views included).
pub(super) fn is_run(s: &Strided) -> bool {
    s.ndim == 0 || (s.ndim == 1 && s.strides[0] == 1)
}

/// The axes of a tiled transpose for jointly coalesced views `d` (destination) and `s`
/// (source) of one shape: `(k, l)` where axis `k` is contiguous (stride ±1) in the source but
/// not in the destination and axis `l` contiguous in the destination but strided in the
/// source. `None` when there are no such axes or one of them is too short to fill tiles.
pub(super) fn tile_axes(d: &Strided, s: &Strided) -> Option<(usize, usize)> {
    let nd = s.ndim as usize;
    if nd < 2 {
        return None;
    }
    let l = (0..nd)
        .rev()
        .find(|&a| d.strides[a].abs() == 1 && s.strides[a].abs() > 1)?;
    let k = (0..nd)
        .rev()
        .find(|&a| s.strides[a].abs() == 1 && d.strides[a].abs() > 1)?;
    (s.shape[k] >= MIN_TILE_EDGE && s.shape[l] >= MIN_TILE_EDGE).then_some((k, l))
}

/// The address of element `off` of `buf`.
fn ptr_at<T: Element>(buf: &CudaBuffer<T>, off: i64) -> u64 {
    buf.device_ptr()
        .wrapping_add((off as u64).wrapping_mul(std::mem::size_of::<T>() as u64))
}

impl Cuda {
    /// Writes the view `src_layout` of `src`, converted to `O`, into the view `dst_layout` of
    /// `dst` (same shape; the destination has no overlapping elements and shares no memory
    /// with the source). Both views must lie inside their buffers.
    pub(super) fn convert<I: Element, O: Element>(
        &self,
        op: &'static str,
        dst: &CudaBuffer<O>,
        dst_layout: &Layout,
        src: &CudaBuffer<I>,
        src_layout: &Layout,
    ) -> Result<()> {
        let n = dst_layout.size();
        if n == 0 {
            return Ok(());
        }
        let views = coalesce(op, &[dst_layout, src_layout])?;
        let (d, s) = (views[0], views[1]);
        let same_type = I::DTYPE == O::DTYPE;
        if same_type && is_run(&d) && is_run(&s) {
            self.bind()?;
            return driver::dtod(
                ptr_at(dst, d.offset),
                ptr_at(src, s.offset),
                n * std::mem::size_of::<O>(),
                self.stream(),
            );
        }
        let key = format!("memory|conv|{}|{}", cty::<I>(), cty::<O>());
        macro_rules! func {
            ($name:expr) => {
                self.kernel(&key, $name, || conv_program(cty::<I>(), cty::<O>()))
            };
        }
        let n64 = n as i64;
        let small = n < INDEX32_LIMIT;
        if is_run(&d) && is_run(&s) {
            let f = func!("conv_contig")?;
            let (o, i) = (ptr_at(dst, d.offset), ptr_at(src, s.offset));
            let grid = self.grid_for(n, 4);
            // `conv_contig(OUT*, const IN*, i64)`; both runs hold `n` elements.
            return f.launch(
                (grid, 1, 1),
                (BLOCK, 1, 1),
                0,
                &ConvContigArgs {
                    out: o,
                    src: i,
                    n: n64,
                },
            );
        }
        let (o, i) = (self.ptr(dst)?, self.ptr(src)?);
        if let Some((k, l)) = tile_axes(&d, &s) {
            let f = func!("conv_tile")?;
            let (edge, rows) = tile_shape(cty::<I>(), cty::<O>());
            let tile = edge as i64;
            let (tiles_k, tiles_l) = (
                (s.shape[k] + tile - 1) / tile,
                (s.shape[l] + tile - 1) / tile,
            );
            let ntiles = tiles_k * tiles_l * (n64 / (s.shape[k] * s.shape[l]));
            let cap = i64::from(self.inner.sm_count * TILE_BLOCKS_PER_SM);
            let grid = ntiles.min(cap) as u32;
            let (k32, l32) = (k as i32, l as i32);
            // `conv_tile(OUT*, Strided, const IN*, Strided, int, int, i64, i64, i64)`;
            // the views lie inside their buffers (checked by the callers) and the kernel
            // touches only their elements.
            return f.launch(
                (grid, 1, 1),
                (32, rows, 1),
                0,
                &ConvTileArgs {
                    out: o,
                    d,
                    src: i,
                    s,
                    k: k32,
                    l: l32,
                    tiles_k,
                    tiles_l,
                    ntiles,
                },
            );
        }
        let grid = self.grid_for(n, 1);
        if is_run(&d) {
            let f = func!(if small {
                "conv_gather32"
            } else {
                "conv_gather64"
            })?;
            let o = ptr_at(dst, d.offset);
            // `conv_gather(OUT*, const IN*, Strided, i64)`; the output run holds `n`
            // elements and the source view lies inside its buffer.
            return f.launch(
                (grid, 1, 1),
                (BLOCK, 1, 1),
                0,
                &ConvGatherArgs {
                    out: o,
                    src: i,
                    s,
                    n: n64,
                },
            );
        }
        let f = func!(if small {
            "conv_scatter32"
        } else {
            "conv_scatter64"
        })?;
        // `conv_scatter(OUT*, Strided, const IN*, Strided, i64)`; both views lie
        // inside their buffers.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &ConvScatterArgs {
                out: o,
                d,
                src: i,
                s,
                n: n64,
            },
        )
    }
}
