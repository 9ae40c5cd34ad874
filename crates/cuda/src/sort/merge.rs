//! The stable merge of sorted runs stored back to back (`sort_merge_pair` in
//! kernels/src/sort.cu): what a sort of pieces that are each sorted already costs as a few
//! passes, for the sample sort across GPUs, whose ranks receive one sorted piece from every
//! rank.
//!
//! Neighbouring runs are merged in pairs, round after round (`⌈log2 runs⌉` passes over the
//! data). A pair's merge cuts its output into tiles along the merge path (one launch makes
//! a binary search per tile for how many of the tile's elements come from the first run),
//! then stages each tile's two parts in shared memory and merges them there. The first run
//! wins ties, so equal keys keep the runs' order and the result is, bit for bit, the stable
//! sort of the whole.

use super::params::SortMergePairArgs;
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::launch::BLOCK;
use cuprite_core::{Array, Element, Error, Layout, Result};
use cuprite_kernels::sort as ks;

/// The stable sort of the 1-d `runs`, given that each of its pieces `bounds[r]..bounds[r
/// + 1]` is sorted already (by [`Element::sort_cmp`], as `sort` leaves them). `bounds`
/// starts at 0, never decreases and ends at the length of `runs`. The result is on
/// `runs`'s device.
///
/// # Errors
/// `runs` not 1-d; `bounds` not such offsets; out of memory.
pub(crate) fn merge_runs<T: Element>(
    runs: &Array<T, Cuda>,
    bounds: &[usize],
) -> Result<Array<T, Cuda>> {
    const OP: &str = "merge_runs";
    let n = runs.size();
    if runs.ndim() != 1
        || bounds.len() < 2
        || bounds[0] != 0
        || bounds[bounds.len() - 1] != n
        || bounds.windows(2).any(|w| w[0] > w[1])
    {
        return Err(Error::invalid(
            OP,
            format!(
                "bounds {bounds:?} are not offsets from 0 to the length of a 1-d array of \
                 shape {:?}",
                runs.shape()
            ),
        ));
    }
    let dev: &Cuda = runs.device();
    let src = runs.to_contiguous()?;
    // The runs that hold elements, as (start, end).
    let mut parts: Vec<(usize, usize)> = bounds
        .windows(2)
        .filter(|w| w[0] < w[1])
        .map(|w| (w[0], w[1]))
        .collect();
    if parts.len() < 2 {
        return Ok(src);
    }
    let key = format!("sort|search|{}", cty::<T>());
    let program = || ks::search_program(cty::<T>());
    let cut = dev.kernel(&key, "sort_merge_cuts", program)?;
    let merge = dev.kernel(&key, "sort_merge_pair", program)?;
    let size = std::mem::size_of::<T>() as u64;
    let (mut from, mut from_base) = (src.buffer().clone(), src.layout().offset() as u64 * size);
    while parts.len() > 1 {
        let to: CudaBuffer<T> = dev.alloc::<T>(n)?;
        let (fp, tp) = (dev.ptr(&from)? + from_base, dev.ptr(&to)?);
        // Neighbours merge in pairs; a last run without a partner is merged with nothing
        // (copied), so every pass writes all of `to`.
        for pair in parts.chunks(2) {
            let (s, m) = pair[0];
            let e = pair.get(1).map_or(m, |p| p.1);
            let tiles = (e - s).div_ceil(ks::MERGE_TILE);
            let cuts = dev.alloc::<i64>(tiles + 1)?;
            let args = SortMergePairArgs {
                out: tp + s as u64 * size,
                a: fp + s as u64 * size,
                na: (m - s) as i64,
                b: fp + m as u64 * size,
                nb: (e - m) as i64,
                cuts: dev.ptr(&cuts)?,
            };
            // `from` holds the runs s..m and m..e (sorted), `to` has room for s..e, `cuts`
            // for tiles + 1 offsets; one block per MERGE_TILE outputs.
            cut.launch((dev.grid_for(tiles + 1, 1), 1, 1), (BLOCK, 1, 1), 0, &args)?;
            merge.launch((tiles as u32, 1, 1), (ks::MERGE_THREADS, 1, 1), 0, &args)?;
        }
        parts = parts
            .chunks(2)
            .map(|p| (p[0].0, p[p.len() - 1].1))
            .collect();
        (from, from_base) = (to, 0);
    }
    Array::from_raw_parts(from, Layout::contiguous(&[n]), dev.clone())
}
