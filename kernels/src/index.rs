//! The index and mask kernel families of the CUDA backend, instantiated per element type with
//! `#define T <type>`.
//!
//! - [`SOURCE`] (`index.cu`): the index check (the first index outside `-n..n`, found with
//!   `atomicMin`), the gathers `take` and `take_along`, and the scatters: `scatter_lanes` (one
//!   thread per lane, indices in order) and `scatter_mark*` / `scatter_write*` (a winner per
//!   destination element by `atomicMax` of the position along the lane, so the last write to
//!   a repeated index wins).
//! - [`SCATTER_REDUCE`] (`scatter_reduce.cu`): NumPy's `ufunc.at` (`add.at`, `minimum.at`,
//!   `maximum.at`) with atomics, through shared memory for small destinations; [`BINS`]
//!   (`bins.cu`) counts values into histogram bins with the same atomics.
//! - [`MASK`] (`mask.cu`): stream compaction in three passes (`count_truthy` / `count_mask`
//!   per tile, `scan_tiles`, then `select_scatter`, `nonzero_scatter` or `assign_scatter`)
//!   and `assign_fill` for a single value.

/// The CUDA C source of the index family (gathers, scatters, the index check).
pub const SOURCE: &str = include_str!("index.cu");

/// The CUDA C source of `scatter_reduce` (NumPy's `ufunc.at`); needs the functors of
/// [`crate::elementwise::OPS`] before it and `T`, `OP` (a functor's name) and `AT_KIND` (1 add,
/// 2 minimum, 3 maximum, 0 any other op) defined.
pub const SCATTER_REDUCE: &str = include_str!("scatter_reduce.cu");

/// The CUDA C source of the histogram counting (`bin_add_global`, `bin_add_private`); comes
/// after [`SCATTER_REDUCE`] (its atomics) with `BX`, `BE`, `BINS_UNIFORM` and `BINS_WEIGHTED`
/// defined besides that source's `T`, `OP` and `AT_KIND`.
pub const BINS: &str = include_str!("bins.cu");

/// Threads per block of the `scatter_reduce` kernels (`SR_BLOCK` in `scatter_reduce.cu`).
pub const SCATTER_REDUCE_BLOCK: u32 = 256;

/// The CUDA C source of the mask family (compaction by masks and truthiness).
pub const MASK: &str = include_str!("mask.cu");

/// Elements of one tile of the mask kernels: the scan's unit of work (`MK_TILE` in
/// `mask.cu`, 256 threads times 16 elements).
pub const MASK_TILE: usize = 4096;

/// Threads per block of the mask kernels' per-tile passes (`MK_BLOCK` in `mask.cu`).
pub const MASK_BLOCK: u32 = 256;

/// Threads of the single block of `scan_tiles` (`MK_SCAN_BLOCK` in `mask.cu`).
pub const MASK_SCAN_BLOCK: u32 = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_constants_match_the_source() {
        assert!(MASK.contains(&format!("#define MK_BLOCK {MASK_BLOCK}\n")));
        assert!(MASK.contains(&format!("#define MK_SCAN_BLOCK {MASK_SCAN_BLOCK}\n")));
        let items = MASK_TILE / MASK_BLOCK as usize;
        assert!(MASK.contains(&format!("#define MK_ITEMS {items}\n")));
    }

    #[test]
    fn scatter_reduce_constants_match_the_source() {
        let block = format!("#define SR_BLOCK {SCATTER_REDUCE_BLOCK}\n");
        assert!(SCATTER_REDUCE.contains(&block));
        for k in ["scatter_reduce(", "scatter_reduce_private("] {
            assert!(SCATTER_REDUCE.contains(&format!("void {k}")), "{k}");
        }
    }

    #[test]
    fn sources_declare_their_kernels() {
        for k in [
            "index_check",
            "take(",
            "take_along(",
            "scatter_lanes",
            "scatter_mark32",
            "scatter_mark64",
            "scatter_write32",
            "scatter_write64",
        ] {
            assert!(SOURCE.contains(&format!("void {k}")), "{k}");
        }
        for k in [
            "count_truthy",
            "count_mask",
            "scan_tiles",
            "select_scatter",
            "nonzero_scatter",
            "assign_scatter",
            "assign_fill",
        ] {
            assert!(MASK.contains(k), "{k}");
        }
    }
}
