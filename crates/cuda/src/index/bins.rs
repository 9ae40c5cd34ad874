//! `bin_add` on the GPU (the counting behind `histogram`) with the kernels of
//! `cuprite_kernels::index::BINS`: one thread per value finds its bin in the edges' type as
//! the host does and adds its weight (or 1) atomically, into one shared-memory copy of the
//! bins per block when they fit and the sum's type has a native atomic, else into the
//! output directly.

use super::scatter_reduce::native_add;
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::launch::{check_view, coalesce};
use cuprite_core::backend::UniformBins;
use cuprite_core::{Element, Error, Float, Layout, Numeric, Real, Result};
use cuprite_kernels::index::{BINS, SCATTER_REDUCE, SCATTER_REDUCE_BLOCK};

use super::params::BinArgs;

const OP: &str = "histogram";

/// Bytes of shared memory a block's copy of the bins may take.
const PRIVATE_BYTES: usize = 32 * 1024;

/// An element as f64 (exact for the edge types).
fn f64_of<E: Element>(x: E) -> f64 {
    f64::from_scalar(x.to_scalar())
}

impl Cuda {
    /// See [`cuprite_core::backend::IndexOps::bin_add`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bin_add_impl<T: Real, E: Float, W: Numeric>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        edges: &CudaBuffer<E>,
        le: &Layout,
        uniform: Option<UniformBins<E>>,
        weights: Option<(&CudaBuffer<W>, &Layout)>,
        out: &mut CudaBuffer<W>,
        lo: &Layout,
    ) -> Result<()> {
        check_view(self, OP, x, lx)?;
        check_view(self, OP, edges, le)?;
        check_view(self, OP, out, lo)?;
        let (Some(eoff), Some(ooff)) = (le.contiguous_offset(), lo.contiguous_offset()) else {
            return Err(Error::invalid(
                OP,
                "the edges and the output must be contiguous",
            ));
        };
        if le.ndim() != 1 || le.size() < 2 {
            return Err(Error::invalid(
                OP,
                "the edges must be 1-d with at least 2 elements",
            ));
        }
        let nb = le.size() - 1;
        if lo.ndim() != 1 || lo.size() != nb {
            return Err(Error::invalid(
                OP,
                format!(
                    "{nb} bins need an output of {nb} elements, got shape {:?}",
                    lo.shape()
                ),
            ));
        }
        let total = lx.size();
        if total == 0 {
            return Ok(());
        }
        let (wp, views) = match weights {
            Some((wb, lw)) => {
                check_view(self, OP, wb, lw)?;
                if lw.shape() != lx.shape() {
                    return Err(Error::ShapeMismatch {
                        op: OP,
                        lhs: lx.shape().to_vec(),
                        rhs: lw.shape().to_vec(),
                    });
                }
                (self.ptr(wb)?, coalesce(OP, &[lx, lw])?)
            }
            None => {
                let v = coalesce(OP, &[lx])?;
                (0, vec![v[0], v[0]])
            }
        };
        let (ct, ce, cw) = (cty::<T>(), cty::<E>(), cty::<W>());
        let uni = if uniform.is_some() { "1" } else { "0" };
        let wtd = if weights.is_some() { "1" } else { "0" };
        let key = format!("bins|{ct}|{ce}|{cw}|{uni}{wtd}");
        let private = native_add(W::DTYPE) && nb * W::DTYPE.size_of() <= PRIVATE_BYTES;
        let name = if private {
            "bin_add_private"
        } else {
            "bin_add_global"
        };
        let f = self.kernel::<BinArgs>(&key, name, || {
            cuprite_kernels::program(
                &[cuprite_kernels::elementwise::OPS, SCATTER_REDUCE, BINS],
                &[
                    ("T", cw),
                    ("OP", "op_add"),
                    ("AT_KIND", "1"),
                    ("BX", ct),
                    ("BE", ce),
                    ("BINS_UNIFORM", uni),
                    ("BINS_WEIGHTED", wtd),
                ],
            )
        })?;
        let (first, last, denom) = match uniform {
            Some(u) => (f64_of(u.first), f64_of(u.last), f64_of(u.denom)),
            None => (0.0, 0.0, 1.0),
        };
        let args = BinArgs {
            x: self.ptr(x)?,
            edges: self.ptr(edges)? + (eoff * E::DTYPE.size_of()) as u64,
            w: wp,
            out: self.ptr(out)? + (ooff * W::DTYPE.size_of()) as u64,
            sx: views[0],
            sw: views[1],
            nb: nb as i64,
            total: total as i64,
            first,
            last,
            denom,
        };
        let (grid, shared) = if private {
            let g = (self.multiprocessor_count() as usize * 2)
                .min(total.div_ceil(SCATTER_REDUCE_BLOCK as usize));
            (g.max(1) as u32, (nb * W::DTYPE.size_of()) as u32)
        } else {
            (self.grid_for(total, 4), 0)
        };
        // The parameters mirror `bin_add_{global,private}(BinArgs)`: the value (and weight)
        // views lie in their buffers, `edges` holds nb + 1 contiguous elements and `out` nb
        // (checked above), and the private kernel gets nb elements of shared memory (at most
        // PRIVATE_BYTES).
        f.launch((grid, 1, 1), (SCATTER_REDUCE_BLOCK, 1, 1), shared, &args)
    }
}
