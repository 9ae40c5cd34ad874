//! Host-side planning of the batched GEMM, free of device calls (and unit-tested without a
//! GPU): how cuBLAS reads each operand in place (op N or T and the leading dimension) or that
//! it cannot, the joint collapse of batch axes into as few strided axes as possible, how a
//! batch splits into cuBLAS calls, the layout of an operand gathered to a contiguous buffer,
//! and the launch shape of the integer GEMM kernels (which kernel, split-K, grid).

use cuprite_core::layout::{c_strides, merge_axes};
use cuprite_core::Layout;

/// How cuBLAS reads an operand: as stored, or transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trans {
    /// `CUBLAS_OP_N`.
    N,
    /// `CUBLAS_OP_T`.
    T,
}

/// An operand as cuBLAS reads it in place: its op and leading dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlasOperand {
    pub trans: Trans,
    pub ld: i64,
}

/// How cuBLAS (column-major) reads the row-major `rows x cols` matrix with strides `(rs, cs)`
/// when the product is computed as `C^T = B^T A^T`: cuBLAS needs the matrix's transpose, which
/// is the column-major matrix stored as it is (op N, `ld = rs`) when the rows are contiguous
/// (`cs == 1`, `rs >= cols`), and the transpose of the column-major matrix stored as it is (op
/// T, `ld = cs`) when the columns are (`rs == 1`, `cs >= rows`). The stride of an axis of
/// length 1 is never used and counts as whatever fits. `None`: the operand needs a copy
/// (negative, zero or overlapping strides, or no unit stride).
pub(crate) fn blas_operand(rows: usize, cols: usize, rs: isize, cs: isize) -> Option<BlasOperand> {
    let n = |ld: usize| BlasOperand {
        trans: Trans::N,
        ld: ld as i64,
    };
    let t = |ld: isize| BlasOperand {
        trans: Trans::T,
        ld: ld as i64,
    };
    match (rows == 1, cols == 1) {
        (true, true) => Some(n(1)),
        // One row: contiguous (op N with the tightest ld) or spaced by cs >= 1 (op T).
        (true, false) if cs == 1 => Some(n(cols)),
        (true, false) => (cs >= 1).then(|| t(cs)),
        // One column: its elements are spaced by rs, which is op N's ld (needs rs >= 1).
        (false, true) => (rs >= 1).then(|| n(rs as usize)),
        (false, false) if cs == 1 && rs >= cols as isize => Some(n(rs as usize)),
        (false, false) if rs == 1 && cs >= rows as isize => Some(t(cs)),
        (false, false) => None,
    }
}

/// One axis of a joint collapse: its length and one stride per operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Axis<const N: usize> {
    pub len: usize,
    pub strides: [isize; N],
}

/// Jointly simplifies the axes of `N` views of one shape (core's [`merge_axes`]): drops axes
/// of length 1 and merges an axis into the one before it when that holds in every view
/// (`outer stride == inner stride * inner len`). The axes keep C order, so a linear index over the result addresses
/// the same elements as over `shape`. No axes: one element; a shape with a 0 gives one axis
/// of length 0.
pub(crate) fn collapse<const N: usize>(shape: &[usize], strides: [&[isize]; N]) -> Vec<Axis<N>> {
    let m = merge_axes(shape, &strides);
    m.shape
        .iter()
        .enumerate()
        .map(|(d, &len)| Axis {
            len,
            strides: std::array::from_fn(|i| m.strides[i][d]),
        })
        .collect()
}

/// Number of index combinations of `axes`.
pub(crate) fn count<const N: usize>(axes: &[Axis<N>]) -> usize {
    axes.iter().map(|a| a.len).product()
}

/// Splits `axes` into the outer ones (looped over on the host) and at most `keep` inner ones.
pub(crate) fn split<const N: usize>(
    mut axes: Vec<Axis<N>>,
    keep: usize,
) -> (Vec<Axis<N>>, Vec<Axis<N>>) {
    let inner = axes.split_off(axes.len().saturating_sub(keep));
    (axes, inner)
}

/// The offset (one per view) of every index of `axes`, in C order.
pub(crate) fn offsets<const N: usize>(axes: &[Axis<N>]) -> impl Iterator<Item = [isize; N]> + '_ {
    (0..count(axes)).map(move |mut idx| {
        let mut off = [0isize; N];
        for ax in axes.iter().rev() {
            let i = (idx % ax.len) as isize;
            idx /= ax.len;
            for (o, s) in off.iter_mut().zip(ax.strides) {
                *o += i * s;
            }
        }
        off
    })
}

/// The batch strides of the C-contiguous output `[batch.., m, n]`.
pub(crate) fn out_batch_strides(batch: &[usize], mn: usize) -> Vec<isize> {
    c_strides(batch)
        .into_iter()
        .map(|s| s * mn as isize)
        .collect()
}

/// How the batch of a cuBLAS product runs: one strided-batched call per index of `outer`,
/// each over `inner` (strides of A, B and C in that order; length 1 for unbatched calls).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlasBatch {
    pub outer: Vec<Axis<3>>,
    pub inner: Axis<3>,
}

impl BlasBatch {
    /// Number of cuBLAS calls.
    pub(crate) fn calls(&self) -> usize {
        count(&self.outer)
    }
}

/// Plans the batch axes for cuBLAS: the innermost collapsed axis becomes the strided batch
/// of each call (cuBLAS accepts stride 0 for broadcast A or B; negative strides are left to
/// the host loop), the others are looped over.
pub(crate) fn blas_batch(batch: &[usize], sa: &[isize], sb: &[isize], mn: usize) -> BlasBatch {
    let sc = out_batch_strides(batch, mn);
    let mut outer = collapse(batch, [sa, sb, &sc]);
    let single = Axis {
        len: 1,
        strides: [0; 3],
    };
    let inner = match outer.last() {
        Some(ax) if ax.strides[0] >= 0 && ax.strides[1] >= 0 => {
            let ax = *ax;
            outer.pop();
            ax
        }
        _ => single,
    };
    BlasBatch { outer, inner }
}

/// True when an operand's batch axes collapse, jointly with the output's, into at most one
/// axis with a stride cuBLAS takes (not negative): it then never splits a batch into calls.
pub(crate) fn batch_collapses(batch: &[usize], s: &[isize], mn: usize) -> bool {
    let sc = out_batch_strides(batch, mn);
    let axes = collapse(batch, [s, &sc]);
    axes.len() <= 1 && axes.iter().all(|a| a.strides[0] >= 0)
}

/// Whether to copy the operands whose batch axes do not collapse instead of making `calls`
/// cuBLAS calls of `work` multiply-adds each: when the calls are many and each is small
/// enough that launch overhead (a few microseconds a call) dominates it.
pub(crate) fn prefer_gather(calls: usize, work: usize) -> bool {
    calls > 16 && work < (1 << 24)
}

/// For an operand to be copied to a contiguous buffer: the view to gather and the layout of
/// the copy. With `keep_broadcast`, batch axes (all but the last two) with stride 0 are not
/// expanded: the copy holds one instance and keeps stride 0 there.
pub(crate) fn gathered_layout(l: &Layout, keep_broadcast: bool) -> (Layout, Layout) {
    let r = l.ndim();
    let bcast: Vec<bool> = (0..r)
        .map(|d| keep_broadcast && d + 2 < r && l.strides()[d] == 0)
        .collect();
    let shape: Vec<usize> = (0..r)
        .map(|d| if bcast[d] { 1 } else { l.shape()[d] })
        .collect();
    let mut strides = c_strides(&shape);
    for (s, &b) in strides.iter_mut().zip(&bcast) {
        if b {
            *s = 0;
        }
    }
    let src = Layout::new(shape, l.strides().to_vec(), l.offset());
    (src, Layout::new(l.shape().to_vec(), strides, 0))
}

/// Which integer GEMM kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntKernel {
    /// `gemm_int_tiled`: 64 x 64 output tiles through shared memory.
    Tiled,
    /// `gemm_int_dot`: one warp per output (thin or tiny products).
    Dot,
}

/// The launch of an integer GEMM over `batch` items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IntPlan {
    pub kernel: IntKernel,
    /// Slices of the inner dimension (1: no split-K pass).
    pub splits: usize,
    /// Inner-dimension length of each slice.
    pub kchunk: usize,
    pub grid: (u32, u32, u32),
}

/// Plans the integer GEMM `[batch] x (m x k) @ (k x n)` on a device with `sms`
/// multiprocessors. Thin products (a dimension of at most 4) and few outputs take the
/// warp-per-output kernel, the rest the tiled one; when the outputs alone cannot fill the
/// device (fewer warps than 64 a multiprocessor, fewer tiles than multiprocessors), the inner
/// dimension is split (split-K) into slices of at least 1024 (warp kernel) or 512 (tiled
/// kernel) and a second pass adds the partial sums.
pub(crate) fn int_plan(batch: usize, m: usize, n: usize, k: usize, sms: usize) -> IntPlan {
    use cuprite_kernels::matmul::{THREADS, TILE, TILE_K};
    let sms = sms.max(1);
    let outputs = batch * m * n;
    if m <= 4 || n <= 4 || outputs <= 256 {
        let target_warps = sms * 64;
        let splits = (target_warps / outputs).clamp(1, k.div_ceil(1024).max(1));
        let kchunk = k.div_ceil(splits).max(1);
        let splits = k.div_ceil(kchunk).max(1);
        let warps_per_block = THREADS as usize / 32;
        let blocks = (outputs * splits).div_ceil(warps_per_block);
        return IntPlan {
            kernel: IntKernel::Dot,
            splits,
            kchunk,
            grid: (blocks.clamp(1, sms * 32) as u32, 1, 1),
        };
    }
    let (tiles_m, tiles_n) = (m.div_ceil(TILE as usize), n.div_ceil(TILE as usize));
    let blocks = tiles_m * tiles_n * batch;
    let splits = if blocks < sms {
        sms.div_ceil(blocks).clamp(1, k.div_ceil(512).max(1))
    } else {
        1
    };
    let tk = TILE_K as usize;
    let kchunk = k.div_ceil(splits).div_ceil(tk).max(1) * tk;
    let splits = k.div_ceil(kchunk).max(1);
    IntPlan {
        kernel: IntKernel::Tiled,
        splits,
        kchunk,
        grid: (
            tiles_n.min(i32::MAX as usize) as u32,
            tiles_m.min(65535) as u32,
            (batch * splits).clamp(1, 65535) as u32,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(trans: Trans, ld: i64) -> Option<BlasOperand> {
        Some(BlasOperand { trans, ld })
    }

    #[test]
    fn row_and_column_major_operands_are_read_in_place() {
        // C-contiguous [3, 4]: cuBLAS sees its transpose as a column-major 4 x 3, ld 4.
        assert_eq!(blas_operand(3, 4, 4, 1), op(Trans::N, 4));
        // A row slice of a wider matrix keeps the parent's row stride as ld.
        assert_eq!(blas_operand(3, 4, 10, 1), op(Trans::N, 10));
        // The transpose of a C-contiguous [4, 3] is column-major: op T, ld 3.
        let t = Layout::contiguous(&[4, 3]).transposed();
        assert_eq!(t.strides(), &[1, 3]);
        assert_eq!(blas_operand(3, 4, 1, 3), op(Trans::T, 3));
        assert_eq!(blas_operand(3, 4, 1, 7), op(Trans::T, 7));
    }

    #[test]
    fn vectors_use_their_one_real_stride() {
        assert_eq!(blas_operand(1, 1, -5, 0), op(Trans::N, 1));
        // A row [1, k]: contiguous, or every 3rd element (op T with ld 3).
        assert_eq!(blas_operand(1, 5, 99, 1), op(Trans::N, 5));
        assert_eq!(blas_operand(1, 5, 0, 3), op(Trans::T, 3));
        // A column [k, 1]: contiguous (ld 1) or spaced.
        assert_eq!(blas_operand(5, 1, 1, 0), op(Trans::N, 1));
        assert_eq!(blas_operand(5, 1, 4, -2), op(Trans::N, 4));
        // Reversed or broadcast vectors need a copy.
        assert_eq!(blas_operand(1, 5, 1, -1), None);
        assert_eq!(blas_operand(1, 5, 1, 0), None);
        assert_eq!(blas_operand(5, 1, -1, 1), None);
        assert_eq!(blas_operand(5, 1, 0, 1), None);
    }

    #[test]
    fn other_matrices_need_a_copy() {
        assert_eq!(blas_operand(3, 4, -4, 1), None); // rows reversed
        assert_eq!(blas_operand(3, 4, 4, -1), None); // columns reversed
        assert_eq!(blas_operand(3, 4, 0, 1), None); // broadcast rows
        assert_eq!(blas_operand(3, 4, 1, 0), None); // broadcast columns
        assert_eq!(blas_operand(3, 4, 8, 2), None); // a[::2, ::2]
        assert_eq!(blas_operand(3, 4, 2, 1), None); // overlapping rows
        assert_eq!(blas_operand(3, 4, 1, 2), None); // overlapping columns
    }

    #[test]
    fn batch_axes_collapse_jointly() {
        fn ax<const N: usize>(len: usize, strides: [isize; N]) -> Axis<N> {
            Axis { len, strides }
        }
        assert_eq!(collapse(&[2, 3, 4], [&[12, 4, 1]]), vec![ax(24, [1])]);
        assert_eq!(collapse(&[2, 1, 3], [&[3, 99, 1]]), vec![ax(6, [1])]);
        assert_eq!(collapse(&[2, 3], [&[0, 0]]), vec![ax(6, [0])]);
        assert_eq!(
            collapse(&[2, 3], [&[3, 1], &[1, 2]]),
            vec![ax(2, [3, 1]), ax(3, [1, 2])]
        );
        assert!(collapse::<1>(&[], [&[]]).is_empty());
        assert_eq!(collapse(&[4, 0], [&[1, 1]]), vec![ax(0, [0])]);
        let axes = vec![ax(2, [10, 1]), ax(3, [1, 0])];
        let offs: Vec<[isize; 2]> = offsets(&axes).collect();
        assert_eq!(offs, [[0, 0], [1, 0], [2, 0], [10, 1], [11, 1], [12, 1]]);
        assert_eq!(offsets::<1>(&[]).collect::<Vec<_>>(), [[0]]);
        let (outer, inner) = split(axes.clone(), 1);
        assert_eq!((outer, inner), (vec![axes[0]], vec![axes[1]]));
        let (outer, inner) = split(axes.clone(), 8);
        assert_eq!((outer, inner), (vec![], axes));
    }

    #[test]
    fn contiguous_and_broadcast_batches_make_one_call() {
        // [2, 3] batches of 4x5 @ 5x6, both contiguous: one call of 6 with strides 20, 30, 24.
        let p = blas_batch(&[2, 3], &[60, 20], &[90, 30], 24);
        assert_eq!(p.calls(), 1);
        assert_eq!((p.inner.len, p.inner.strides), (6, [20, 30, 24]));
        // A broadcast over the whole batch: stride 0.
        let p = blas_batch(&[2, 3], &[0, 0], &[90, 30], 24);
        assert_eq!((p.calls(), p.inner.strides), (1, [0, 30, 24]));
        // No batch: one unbatched call.
        let p = blas_batch(&[], &[], &[], 24);
        assert_eq!((p.calls(), p.inner.len), (1, 1));
        assert!(batch_collapses(&[2, 3], &[0, 0], 24));
        assert!(batch_collapses(&[2, 3], &[60, 20], 24));
    }

    #[test]
    fn batches_that_do_not_collapse_loop_or_gather() {
        // A broadcast over the inner batch axis only: 2 calls of 3.
        let p = blas_batch(&[2, 3], &[20, 0], &[90, 30], 24);
        assert_eq!(p.calls(), 2);
        assert_eq!(
            p.outer,
            vec![Axis {
                len: 2,
                strides: [20, 90, 72]
            }]
        );
        assert_eq!((p.inner.len, p.inner.strides), (3, [0, 30, 24]));
        assert!(!batch_collapses(&[2, 3], &[20, 0], 24));
        // A reversed batch axis is looped over, never passed to cuBLAS.
        let p = blas_batch(&[4], &[-20], &[30], 24);
        assert_eq!((p.calls(), p.inner.len), (4, 1));
        assert!(!batch_collapses(&[4], &[-20], 24));
        assert!(prefer_gather(100, 1000));
        assert!(!prefer_gather(100, 1 << 30));
        assert!(!prefer_gather(4, 1000));
    }

    #[test]
    fn gathered_layouts_are_contiguous_and_keep_broadcasts() {
        // [2(bcast), 3, 4, 5] with a broadcast leading axis and transposed matrices.
        let l = Layout::new(vec![2, 3, 4, 5], vec![0, 20, 1, 4], 7);
        let (src, dst) = gathered_layout(&l, true);
        assert_eq!(
            (src.shape(), src.strides(), src.offset()),
            (&[1, 3, 4, 5][..], l.strides(), 7)
        );
        assert_eq!(
            (dst.shape(), dst.strides(), dst.offset()),
            (l.shape(), &[0, 20, 5, 1][..], 0)
        );
        let (src, dst) = gathered_layout(&l, false);
        assert_eq!(src.shape(), l.shape());
        assert_eq!(dst.strides(), &[60, 20, 5, 1]);
        // Broadcast matrix axes are always expanded (cuBLAS has no ld 0).
        let l = Layout::new(vec![3, 4], vec![0, 1], 0);
        let (src, dst) = gathered_layout(&l, true);
        assert_eq!((src.shape(), dst.strides()), (&[3, 4][..], &[4, 1][..]));
        let (_, dst) = gathered_layout(&Layout::new(vec![3, 4, 5], vec![0, 0, 1], 0), true);
        assert_eq!(dst.strides(), &[0, 5, 1]);
        assert_eq!(blas_operand(4, 5, 5, 1), op(Trans::N, 5));
    }

    #[test]
    fn integer_plans_pick_a_kernel_and_split_long_inner_dimensions() {
        // A dot product of 10^8: one output, split across the device.
        let p = int_plan(1, 1, 1, 100_000_000, 132);
        assert_eq!(p.kernel, IntKernel::Dot);
        assert_eq!(p.splits, 132 * 64);
        assert!(p.kchunk * p.splits >= 100_000_000 && p.kchunk * (p.splits - 1) < 100_000_000);
        // A short dot product is not split.
        let p = int_plan(1, 1, 1, 100, 132);
        assert_eq!(
            (p.kernel, p.splits, p.kchunk, p.grid),
            (IntKernel::Dot, 1, 100, (1, 1, 1))
        );
        // Matrix-vector: one warp per row.
        let p = int_plan(1, 10_000, 1, 10_000, 132);
        assert_eq!((p.kernel, p.splits), (IntKernel::Dot, 1));
        assert_eq!(p.grid.0, 1250);
        // A large square product: tiled, no split.
        let p = int_plan(1, 1000, 1000, 1000, 132);
        assert_eq!((p.kernel, p.splits, p.kchunk), (IntKernel::Tiled, 1, 1008));
        assert_eq!(p.grid, (16, 16, 1));
        // 64 x 64 outputs over k = 10^6: one tile, split into slices of multiples of 16.
        let p = int_plan(1, 64, 64, 1_000_000, 132);
        assert_eq!(p.kernel, IntKernel::Tiled);
        assert_eq!(p.splits, 132);
        assert_eq!(p.kchunk % 16, 0);
        assert!(p.kchunk * p.splits >= 1_000_000);
        assert_eq!(p.grid, (1, 1, 132));
        // Huge batches cap grid.z (the kernel loops).
        let p = int_plan(1 << 20, 8, 8, 8, 132);
        assert_eq!((p.kernel, p.grid.2), (IntKernel::Tiled, 65535));
    }
}
