//! Host-side planning of the reduction and scan kernels: a view is split into kept
//! dimensions (the outputs, in C order) and reduced dimensions (each output's positions),
//! both simplified, and the shape of the work picks the kernel and how finely each output
//! is split over the device:
//!
//! * [`Kernel::Cols`] when a kept dimension is the fastest in memory (`sum(axis=0)` of a
//!   C-contiguous matrix): one thread per output walks its positions, neighbouring threads
//!   read neighbouring elements;
//! * [`Kernel::Rows`] otherwise: a thread, a warp or a block per output (by the number of
//!   positions), 16-byte vector loads when the innermost reduced dimension is contiguous.
//!
//! When there are too few outputs to fill the device, each output's positions are cut into
//! chunks reduced by separate threads or groups, and a second kernel combines the chunks'
//! accumulators in order (deterministic, no atomics).

use crate::launch::{Strided, MAX_DIMS};
use cuprite_core::{Error, Layout, Result};

/// Threads resident on one streaming multiprocessor (Hopper: 2048): the plans aim to give
/// every SM that many.
const THREADS_PER_SM: usize = 2048;
/// Threads of the row kernels resident on one multiprocessor (they use 33 to 64 registers a
/// thread, so half of `THREADS_PER_SM`).
const ROW_THREADS_PER_SM: usize = 1024;
/// Fewest positions of a column chunk.
const MIN_COL_CHUNK: usize = 16;
/// Fewest positions per thread of a row chunk.
const MIN_PER_THREAD: usize = 16;
/// Row chunks start at multiples of this many positions (keeps vector loads aligned).
const ROW_CHUNK_ALIGN: usize = 64;
/// Most chunks per scan lane (the carry pass walks them in order).
const MAX_SCAN_CHUNKS: usize = 2048;
/// Elements per thread of a tile of the cooperative scan (`SCAN_V` in reduce.cu).
pub(super) const SCAN_ITEMS: usize = 4;

pub(super) use cuprite_core::layout::Dims;

/// Kernel views of core's [`Dims`].
pub(super) trait ToStrided {
    /// The dimensions as a kernel's strided view starting at `offset`; more than
    /// [`MAX_DIMS`] dimensions is an error naming `op`.
    fn to_strided(&self, op: &'static str, offset: isize) -> Result<Strided>;
}

impl ToStrided for Dims {
    fn to_strided(&self, op: &'static str, offset: isize) -> Result<Strided> {
        if self.shape.len() > MAX_DIMS {
            return Err(Error::invalid(
                op,
                format!(
                    "a reduction over dimensions {:?} (strides {:?}) needs more than \
                     {MAX_DIMS} strided dimensions on cuda; make the array contiguous first",
                    self.shape, self.strides
                ),
            ));
        }
        let mut s = Strided {
            ndim: self.shape.len() as i32,
            offset: offset as i64,
            ..Default::default()
        };
        for (d, (&n, &st)) in self.shape.iter().zip(&self.strides).enumerate() {
            s.shape[d] = n as i64;
            s.strides[d] = st as i64;
        }
        Ok(s)
    }
}

/// Splits a view for a reduction of `axes` into kept dimensions (output order) and reduced
/// dimensions with the base offset: core's [`Layout::split_reduce`] (with `reorder`, for ops
/// whose fold is associative and commutative, reduced axes are flipped to positive strides
/// and sorted by decreasing stride; arg-reductions keep the view's order).
pub(super) fn split(lx: &Layout, axes: &[usize], reorder: bool) -> (Dims, Dims, isize) {
    let s = lx.split_reduce(axes, reorder);
    (s.kept, s.reduced, s.base)
}

/// The kernel that reduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// A group of `group` threads (1, 32 or 256) per output and chunk; `contig`: the
    /// innermost reduced dimension has stride 1 (runs of it are read with vector loads).
    Rows { group: u32, contig: bool },
    /// One thread per output and chunk, consecutive threads on consecutive outputs.
    Cols,
}

/// A reduction plan: the kernel, and each output's positions cut into `n_chunks` chunks of
/// `chunk` positions (the last may be shorter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub kernel: Kernel,
    pub chunk: usize,
    pub n_chunks: usize,
}

impl Split {
    /// The group size of the kernel that combines the chunks of each output, and the
    /// strides of the partials `(per output, per chunk)`.
    pub fn partials(&self, n_out: usize) -> (u32, usize, usize) {
        match self.kernel {
            // One thread per output reads its chunks one after another; with few outputs
            // (a normalisation's 1024 columns: 1024 threads, 512 chunks each) that chain of
            // loads took 66 us on an H100. A warp per output then splits them.
            Kernel::Cols if self.n_chunks > 8 && n_out < 1 << 16 => (32, 1, n_out),
            Kernel::Cols => (1, 1, n_out),
            Kernel::Rows { .. } => {
                let group = match self.n_chunks {
                    0..=8 => 1,
                    9..=2048 => 32,
                    _ => 256,
                };
                (group, self.n_chunks, 1)
            }
        }
    }
}

/// `n` positions cut into at most `want` chunks, each a multiple of `align` long.
fn chunking(n: usize, want: usize, align: usize) -> (usize, usize) {
    let chunk = n.div_ceil(want.max(1)).div_ceil(align) * align;
    let n_chunks = n.div_ceil(chunk.max(1)).max(1);
    if n_chunks == 1 {
        (n.max(1), 1)
    } else {
        (chunk, n_chunks)
    }
}

/// How many chunks per output make `n_out * chunks` workers fill `slots` `waves` times over
/// (none when the outputs alone fill half of them; several waves even out the tail).
fn chunks_wanted(n_out: usize, slots: usize, waves: usize) -> usize {
    if n_out.saturating_mul(2) >= slots {
        1
    } else {
        (slots * waves).div_ceil(n_out.max(1))
    }
}

/// Picks the kernel and the chunking for kept dimensions `kept` and reduced dimensions `red`
/// (at least one position) on a device with `sm_count` multiprocessors.
pub(super) fn choose(kept: &Dims, red: &Dims, sm_count: usize) -> Split {
    let n_out = kept.size();
    let rsize = red.size().max(1);
    let slots = sm_count.max(1) * THREADS_PER_SM;
    if !kept.shape.is_empty() && kept.inner_stride() < red.inner_stride() {
        let want = chunks_wanted(n_out, slots, 2).min(rsize.div_ceil(MIN_COL_CHUNK));
        let (chunk, n_chunks) = chunking(rsize, want, 1);
        return Split {
            kernel: Kernel::Cols,
            chunk,
            n_chunks,
        };
    }
    let contig = red.strides.last() == Some(&1);
    // One output of more than a warp's worth of loads (a sum to 0-d): a block, so that up
    // to BLOCK * MIN_PER_THREAD positions take one launch and no partials.
    let group: usize = if rsize <= 16 {
        1
    } else if n_out == 1 && rsize > 32 * MIN_PER_THREAD {
        256
    } else if rsize <= 16384 || n_out >= slots / 32 {
        32
    } else {
        256
    };
    // The row kernels hold more than 32 registers a thread: at most ROW_THREADS_PER_SM
    // threads of an SM are resident. Outputs that fill fewer than two waves of groups are
    // split until there are about four, so no single late wave sets the time.
    let resident = (sm_count.max(1) * ROW_THREADS_PER_SM / group).max(1);
    let want = if n_out >= 2 * resident {
        1
    } else {
        (4 * resident).div_ceil(n_out.max(1))
    }
    .min(rsize.div_ceil(group * MIN_PER_THREAD));
    let (chunk, n_chunks) = chunking(rsize, want, if contig { ROW_CHUNK_ALIGN } else { 1 });
    Split {
        kernel: Kernel::Rows {
            group: group as u32,
            contig,
        },
        chunk,
        n_chunks,
    }
}

/// The scan kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScanKernel {
    /// One thread per lane and chunk (lanes that are neighbours in memory, or short).
    Thread,
    /// A group of this many threads (32 or 256) per lane and chunk, in tiles.
    Coop(u32),
}

/// A scan plan: the kernel and each lane cut into `n_chunks` chunks of `chunk` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ScanSplit {
    pub kernel: ScanKernel,
    pub chunk: usize,
    pub n_chunks: usize,
}

/// Picks the scan kernel for `n_lanes` lanes of `n` elements (`n >= 1`): `lane_stride` is the
/// absolute stride of the lanes' innermost dimension (`usize::MAX` when there is one lane
/// position), `axis_stride` the absolute stride along the scanned axis.
pub(super) fn choose_scan(
    n_lanes: usize,
    n: usize,
    lane_stride: usize,
    axis_stride: usize,
    sm_count: usize,
) -> ScanSplit {
    let slots = sm_count.max(1) * THREADS_PER_SM;
    if (n_lanes > 1 && lane_stride < axis_stride) || n < 32 {
        let want = chunks_wanted(n_lanes, slots, 1)
            .min(n.div_ceil(64))
            .min(MAX_SCAN_CHUNKS);
        let (chunk, n_chunks) = chunking(n, want, 1);
        return ScanSplit {
            kernel: ScanKernel::Thread,
            chunk,
            n_chunks,
        };
    }
    let group = if n >= 4096 { 256 } else { 32 };
    let tile = group * SCAN_ITEMS;
    let want = chunks_wanted(n_lanes, slots / group, 2)
        .min(n.div_ceil(4 * tile))
        .min(MAX_SCAN_CHUNKS);
    let (chunk, n_chunks) = chunking(n, want, tile);
    ScanSplit {
        kernel: ScanKernel::Coop(group as u32),
        chunk,
        n_chunks,
    }
}

/// Blocks of 256 threads for `tasks` tasks of `group` threads each (at least one; grid-stride
/// loops in the kernels cover any tasks beyond the cap).
pub(super) fn blocks(tasks: usize, group: u32) -> u32 {
    const MAX_BLOCKS: usize = 1 << 20;
    tasks
        .saturating_mul(group as usize)
        .div_ceil(crate::launch::BLOCK as usize)
        .clamp(1, MAX_BLOCKS) as u32
}
