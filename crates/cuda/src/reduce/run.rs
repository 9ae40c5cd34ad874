//! Launching the kernels of the reduction family (`kernels/src/reduce.cu`) for a plan made
//! by [`super::plan`]: the reduction itself, the combining of chunk partials, the fill of
//! empty reductions, and the passes of a scan.

use super::params::{CarryArgs, FillArgs, PartArgs, RedArgs, ScanArgs};
use super::plan::{self, Kernel, ScanKernel, Split};
use super::Program;
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::launch::Kernel as Entry;
use crate::launch::{coalesce, Strided, BLOCK};
use cuprite_core::{Element, Layout, Result};
use cuprite_kernels::reduce::ACC_MAX_BYTES;

/// A planned reduction: outputs at the positions of `kept` (its offset is the view's base),
/// each reducing the `rsize` positions of `red` (offsets relative to the output's first
/// element); `count` and `param` go to the op's `finish`.
pub(super) struct Job {
    pub split: Split,
    pub kept: Strided,
    pub red: Strided,
    pub n_out: usize,
    pub rsize: usize,
    pub count: usize,
    pub param: f64,
}

/// The kernel of a plan, its threads per task and whether its reduced positions are read as
/// contiguous runs. One contiguous run of positions per output (`flat`) has kernels of its
/// own, with only that path compiled.
pub(super) fn row_kernel(kernel: Kernel, flat: bool) -> (&'static str, u32, bool) {
    match kernel {
        Kernel::Rows { group: 1, contig } => ("red_rows_1", 1, contig),
        Kernel::Rows { group: 32, .. } if flat => ("red_rows_32_flat", 32, true),
        Kernel::Rows { group: 32, contig } => ("red_rows_32", 32, contig),
        Kernel::Rows { group, .. } if flat => ("red_rows_256_flat", group.max(256), true),
        Kernel::Rows { group, contig } => ("red_rows_256", group.max(256), contig),
        Kernel::Cols => ("red_cols", 1, false),
    }
}

impl Cuda {
    /// Runs a planned reduction of `x` into a new buffer of `job.n_out` outputs.
    pub(super) fn run_reduction<T: Element, O: Element>(
        &self,
        prog: &Program,
        x: &CudaBuffer<T>,
        job: &Job,
    ) -> Result<CudaBuffer<O>> {
        let out = self.alloc::<O>(job.n_out)?;
        let split = job.split;
        let flat = job.red.ndim == 1 && job.red.strides[0] == 1;
        let (name, group, contig) = row_kernel(split.kernel, flat);
        let tasks = job.n_out * split.n_chunks;
        let part = if split.n_chunks > 1 {
            Some(self.alloc::<u8>(tasks * ACC_MAX_BYTES)?)
        } else {
            None
        };
        let f = self.prog_kernel::<RedArgs>(prog, name)?;
        let (n_out, n_chunks) = (job.n_out as i64, split.n_chunks as i64);
        let count = job.count as i64;
        let part_ptr = part.as_ref().map_or(0, |p| p.device_ptr());
        // `kept`/`red` address only elements of the checked view of `x`; `out` holds n_out
        // outputs and `part` n_out * n_chunks slots of ACC_MAX_BYTES, the most the kernels
        // write.
        let args = RedArgs {
            x: self.ptr(x)?,
            out: self.ptr(&out)?,
            part: part_ptr,
            kept: job.kept,
            red: job.red,
            n_out,
            rsize: job.rsize as i64,
            chunk: split.chunk as i64,
            n_chunks,
            count,
            param: job.param,
            contig: contig as i32,
        };
        f.launch((plan::blocks(tasks, group), 1, 1), (BLOCK, 1, 1), 0, &args)?;
        if split.n_chunks > 1 {
            self.combine_partials(
                |name| self.prog_kernel::<PartArgs>(prog, name),
                part_ptr,
                args.out,
                job.n_out,
                &split,
                count,
                job.param,
            )?;
        }
        Ok(out)
    }

    /// Combines the `n_out * split.n_chunks` chunk partials at `part` into the `n_out`
    /// outputs at `out` with the program's `red_partials_*` kernel (`kernel` finds it by
    /// name), in the fixed order that makes results deterministic.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn combine_partials<'a>(
        &'a self,
        kernel: impl Fn(&'static str) -> Result<Entry<'a, PartArgs>>,
        part: u64,
        out: u64,
        n_out: usize,
        split: &Split,
        count: i64,
        param: f64,
    ) -> Result<()> {
        let (pgroup, o_stride, c_stride) = split.partials(n_out);
        let f = kernel(match pgroup {
            1 => "red_partials_1",
            32 => "red_partials_32",
            _ => "red_partials_256",
        })?;
        // The partials are read at o * o_stride + c * c_stride < n_out * n_chunks slots,
        // written by the reduction before, and `out` holds n_out outputs.
        let args = PartArgs {
            part,
            out,
            n_out: n_out as i64,
            n_chunks: split.n_chunks as i64,
            o_stride: o_stride as i64,
            c_stride: c_stride as i64,
            count,
            param,
        };
        f.launch((plan::blocks(n_out, pgroup), 1, 1), (BLOCK, 1, 1), 0, &args)
    }

    /// `n_out` outputs of a reduction over no elements: `finish(init, 0)` each.
    pub(super) fn reduce_nothing<O: Element>(
        &self,
        prog: &Program,
        n_out: usize,
        param: f64,
    ) -> Result<CudaBuffer<O>> {
        let out = self.alloc::<O>(n_out)?;
        let f = self.prog_kernel::<FillArgs>(prog, "red_fill")?;
        // `red_fill` writes n outputs, the length of `out` (n_out >= 1, so the grid is not
        // empty).
        let args = FillArgs {
            out: self.ptr(&out)?,
            n: n_out as i64,
            count: 0,
            param,
        };
        f.launch((self.grid_for(n_out, 1), 1, 1), (BLOCK, 1, 1), 0, &args)?;
        Ok(out)
    }

    /// The inclusive scan of `x` (view `lx`) along `axis` into a new C-contiguous buffer.
    pub(super) fn run_scan<T: Element, O: Element>(
        &self,
        op: &'static str,
        prog: &Program,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<O>> {
        let total = lx.size();
        let out = self.alloc::<O>(total)?;
        if total == 0 {
            return Ok(out);
        }
        let n = lx.shape()[axis];
        let n_lanes = total / n;
        let inner: usize = lx.shape()[axis + 1..].iter().product();
        let lanes = coalesce(op, &[&lx.index_axis(axis, 0)])?[0];
        let lane_stride = match lanes.ndim {
            0 => usize::MAX,
            d => lanes.strides[d as usize - 1].unsigned_abs() as usize,
        };
        let s = lx.strides()[axis];
        let split = plan::choose_scan(
            n_lanes,
            n,
            lane_stride,
            s.unsigned_abs(),
            self.inner.sm_count as usize,
        );
        let (name, group) = match split.kernel {
            ScanKernel::Thread => ("scan_thread", 1),
            ScanKernel::Coop(32) => ("scan_coop_32", 32),
            ScanKernel::Coop(g) => ("scan_coop_256", g.max(256)),
        };
        let f = self.prog_kernel::<ScanArgs>(prog, name)?;
        let tasks = n_lanes * split.n_chunks;
        let tot = if split.n_chunks > 1 {
            Some(self.alloc::<O>(tasks)?)
        } else {
            None
        };
        let (n_lanes_i, n_chunks) = (n_lanes as i64, split.n_chunks as i64);
        let grid = (plan::blocks(tasks, group), 1, 1);
        // Lane l reads x[strided_offset(lanes, l) + i * s] for i < n, inside the checked
        // view; it writes out[(l / inner) * n * inner + l % inner + i * inner] < total, and
        // tot[t] for t < n_lanes * n_chunks (allocated whenever n_chunks > 1, the only case
        // the kernels touch it).
        let mut args = ScanArgs {
            x: self.ptr(x)?,
            out: self.ptr(&out)?,
            tot: tot.as_ref().map_or(0, |t| t.device_ptr()),
            lanes,
            n_lanes: n_lanes_i,
            n: n as i64,
            s: s as i64,
            inner: inner as i64,
            chunk: split.chunk as i64,
            n_chunks,
            pass: 0,
        };
        let mut scan_pass = |pass: i32| -> Result<()> {
            args.pass = pass;
            f.launch(grid, (BLOCK, 1, 1), 0, &args)
        };
        if split.n_chunks > 1 {
            scan_pass(0)?;
            let carry = self.prog_kernel::<CarryArgs>(prog, "scan_carry")?;
            // Partials of the thread kernel are (chunk, lane); of the group kernels (lane, chunk).
            let (l_stride, c_stride) = match split.kernel {
                ScanKernel::Thread => (1i64, n_lanes as i64),
                ScanKernel::Coop(_) => (n_chunks, 1i64),
            };
            // `scan_carry` rewrites tot[l * l_stride + c * c_stride] for l < n_lanes,
            // c < n_chunks: exactly the n_lanes * n_chunks slots of `tot`.
            let cargs = CarryArgs {
                tot: tot.as_ref().map_or(0, |t| t.device_ptr()),
                n_lanes: n_lanes_i,
                n_chunks,
                l_stride,
                c_stride,
            };
            carry.launch((plan::blocks(n_lanes, 32), 1, 1), (BLOCK, 1, 1), 0, &cargs)?;
        }
        scan_pass(1)?;
        Ok(out)
    }
}
