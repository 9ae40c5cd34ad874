//! What every kernel launch needs: layouts passed by value in a `#[repr(C)]` struct that
//! mirrors `Strided` in `kernels/src/common.cuh`, joint coalescing of the axes of several
//! layouts of one shape, and launch sizes for grid-stride loops.

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use cuprite_core::layout::merge_axes;
use cuprite_core::{Error, Layout, Result};

/// Most dimensions a strided kernel sees after coalescing.
pub(crate) const MAX_DIMS: usize = 8;

/// A view as a kernel sees it: shape, strides and offset in elements. Mirrors `Strided` in
/// `common.cuh` field for field (`long long shape[8], strides[8]; int ndim; long long offset`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Strided {
    pub shape: [i64; MAX_DIMS],
    pub strides: [i64; MAX_DIMS],
    pub ndim: i32,
    pub offset: i64,
}

impl Strided {
    /// Number of elements.
    pub fn size(&self) -> usize {
        self.shape[..self.ndim as usize].iter().product::<i64>() as usize
    }
}

/// Jointly simplifies layouts of one shape for a strided kernel: drops axes of length 1 and
/// merges neighbouring axes that are contiguous with each other in every layout, so a
/// contiguous or merely offset view becomes one axis. The result has the same element order
/// (C order over the common shape). More than [`MAX_DIMS`] axes left is an error naming `op`.
pub(crate) fn coalesce(op: &'static str, layouts: &[&Layout]) -> Result<Vec<Strided>> {
    let shape = layouts[0].shape();
    debug_assert!(layouts.iter().all(|l| l.shape() == shape));
    let strides: Vec<&[isize]> = layouts.iter().map(|l| l.strides()).collect();
    let m = merge_axes(shape, &strides);
    if m.ndim() > MAX_DIMS {
        return Err(Error::invalid(
            op,
            format!(
                "a view of shape {shape:?} needs {} strided dimensions on cuda (at most {MAX_DIMS}); \
                 make it contiguous first",
                m.ndim()
            ),
        ));
    }
    Ok(layouts
        .iter()
        .zip(&m.strides)
        .map(|(l, st)| {
            let mut s = Strided {
                ndim: m.ndim() as i32,
                offset: l.offset() as i64,
                ..Default::default()
            };
            for (d, (&n, &st)) in m.shape.iter().zip(st).enumerate() {
                s.shape[d] = n as i64;
                s.strides[d] = st as i64;
            }
            s
        })
        .collect())
}

/// Checks that the view `l` of `buf` lies inside the buffer (core's overflow-proof
/// [`Layout::check_bounds`]) and that the buffer belongs to this device; every layout that
/// reaches a kernel launch passes through it.
pub(crate) fn check_view<T: cuprite_core::Element>(
    dev: &Cuda,
    op: &'static str,
    buf: &CudaBuffer<T>,
    l: &Layout,
) -> Result<()> {
    dev.check_buffer(buf, op)?;
    l.check_bounds(op, buf.len())
}

/// Threads per block of the element-wise and memory kernels.
pub(crate) const BLOCK: u32 = 256;

impl Cuda {
    /// Blocks for a grid-stride loop over `n` items of `per_thread` items each: enough to
    /// fill the device (a few waves), never more than the work needs.
    pub(crate) fn grid_for(&self, n: usize, per_thread: usize) -> u32 {
        let threads = n.div_ceil(per_thread.max(1));
        let blocks = threads.div_ceil(BLOCK as usize).max(1);
        blocks.min(self.inner.sm_count as usize * 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_matches_the_c_struct_layout() {
        assert_eq!(std::mem::size_of::<Strided>(), 8 * 8 * 2 + 8 + 8);
        assert_eq!(std::mem::offset_of!(Strided, ndim), 128);
        assert_eq!(std::mem::offset_of!(Strided, offset), 136);
    }

    #[test]
    fn coalescing_merges_contiguous_axes_jointly() {
        let c = Layout::contiguous(&[4, 5, 6]);
        let s = coalesce("t", &[&c]).unwrap();
        assert_eq!((s[0].ndim, s[0].shape[0], s[0].strides[0]), (1, 120, 1));
        let t = Layout::contiguous(&[6, 5]).transposed();
        let c2 = Layout::contiguous(&[5, 6]);
        let s = coalesce("t", &[&c2, &t]).unwrap();
        assert_eq!(s[0].ndim, 2);
        assert_eq!(&s[1].strides[..2], &[1, 5]);
        let b = Layout::contiguous(&[1, 6])
            .broadcast_to("t", &[5, 6])
            .unwrap();
        let s = coalesce("t", &[&c2, &b]).unwrap();
        assert_eq!((s[1].strides[0], s[1].strides[1]), (0, 1));
        let e = Layout::contiguous(&[3, 0, 2]);
        assert_eq!(coalesce("t", &[&e]).unwrap()[0].size(), 0);
        let z = Layout::contiguous(&[]);
        let s = coalesce("t", &[&z]).unwrap();
        assert_eq!((s[0].ndim, s[0].size()), (0, 1));
    }

    #[test]
    fn too_many_axes_is_an_error() {
        let l = Layout::new(vec![2; 9], (0..9).map(|i| 3isize.pow(i)).collect(), 0);
        let e = coalesce("op", &[&l]).unwrap_err();
        assert!(e.to_string().contains("op: a view of shape"), "{e}");
    }
}
