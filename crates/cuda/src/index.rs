//! [`IndexOps`] on the GPU: `take`, `take_along_axis` and `scatter` (`put_along_axis`), with
//! the kernels of `cuprite_kernels::index::SOURCE`.
//!
//! Every op finds the smallest C-order position of an index outside `-n..n` on the device
//! (`atomicMin`) and reads that one number back: an out-of-range index is
//! [`Error::IndexOutOfRange`] naming the same op, index, axis and size as the CPU backend.
//! The gathers run one thread per output element over coalesced strided views (negative
//! indices resolved on the fly) and check each index as they read it, so the indices are
//! read once, not once more by a check pass; on an error their fresh output is dropped. The
//! scatters check every index (`index_check`) before anything is written.
//! The scatter keeps NumPy's "last write to a repeated index wins" deterministically: with
//! many lanes (lines along the axis) or short ones, one thread walks each lane's indices in
//! order; with few long lanes, each index element bids for its destination element with
//! `atomicMax` of its position along the lane in a zeroed winner buffer, and only the winner
//! writes. `scatter_reduce` (NumPy's `ufunc.at`) is in [`scatter_reduce`].

mod bins;
mod params;
mod scatter_reduce;

use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::driver;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::{check_view, coalesce, Strided, BLOCK};
use cuprite_core::backend::IndexOps;
use cuprite_core::backend::UniformBins;
use cuprite_core::ops::BinaryOp;
use cuprite_core::{Element, Error, Layout, Result};
use cuprite_core::{Float, Numeric, Real};
use params::{
    IndexCheckArgs, ScatterLanesArgs, ScatterMarkArgs, ScatterWriteArgs, TakeAlongArgs, TakeArgs,
};

/// The module key of the index family for a CUDA element type.
fn index_key(ctype: &str) -> String {
    format!("index|{ctype}")
}

/// The index program instantiated for a CUDA element type.
fn index_source(ctype: &str) -> String {
    cuprite_kernels::program(&[cuprite_kernels::index::SOURCE], &[("T", ctype)])
}

/// Lanes at least this many keep the scatter on one thread per lane whatever their length.
const LANES_FILL_DEVICE: usize = 32 * 1024;
/// Lanes at most this long are walked by one thread each whatever their number.
const SHORT_LANE: usize = 16;

/// How a scatter resolves repeated indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScatterPath {
    /// One thread per lane, indices in order.
    Lanes,
    /// A winner per destination element (`atomicMax` of the position along the lane + 1),
    /// with 32-bit winners.
    Winner32,
    /// The same with 64-bit winners (lanes of 2^32 - 1 indices or more).
    Winner64,
}

/// Destination elements per index of a lane above which one thread per lane beats zeroing
/// a winner slot for every destination element (about 1 us per index walked in order against
/// about 1 us per million slots zeroed).
const SPARSE_LANE: usize = 1 << 20;

/// The scatter strategy for `lanes` lanes of `m` indices each into a destination of
/// `dst_size` elements.
fn scatter_path(lanes: usize, m: usize, dst_size: usize) -> ScatterPath {
    if lanes >= LANES_FILL_DEVICE || m <= SHORT_LANE || m.saturating_mul(SPARSE_LANE) <= dst_size {
        ScatterPath::Lanes
    } else if m < u32::MAX as usize {
        ScatterPath::Winner32
    } else {
        ScatterPath::Winner64
    }
}

/// The view the index check walks: `None` when there are no indices; axes of stride 0
/// (broadcast) dropped, since the first bad index in C order of the broadcast view is the
/// first bad one of the view without them.
fn check_layout(li: &Layout) -> Option<Layout> {
    if li.size() == 0 {
        return None;
    }
    let (shape, strides): (Vec<usize>, Vec<isize>) = li
        .shape()
        .iter()
        .zip(li.strides())
        .filter(|(_, &s)| s != 0)
        .map(|(&d, &s)| (d, s))
        .unzip();
    Some(Layout::new(shape, strides, li.offset()))
}

/// Host twin of `strided_offset` in `common.cuh`: the buffer offset of C-order element `i`.
fn host_offset(s: &Strided, mut i: i64) -> i64 {
    let mut off = s.offset;
    for d in (0..s.ndim as usize).rev() {
        let n = s.shape[d];
        off += (i % n) * s.strides[d];
        i /= n;
    }
    off
}

/// One coalesced view of a layout on its own.
fn single(op: &'static str, l: &Layout) -> Result<Strided> {
    Ok(coalesce(op, &[l])?[0])
}

/// The leading (`..axis`) or trailing (`axis + 1..`) axes of `l` as a layout of their own.
fn sub_layout(l: &Layout, axes: std::ops::Range<usize>, offset: usize) -> Layout {
    Layout::new(
        l.shape()[axes.clone()].to_vec(),
        l.strides()[axes].to_vec(),
        offset,
    )
}

/// `shape` with `axis` replaced by `len`, and `strides` with that axis's stride zeroed.
fn lane_starts(l: &Layout, axis: usize, len: usize) -> Layout {
    let mut shape = l.shape().to_vec();
    let mut strides = l.strides().to_vec();
    shape[axis] = len;
    strides[axis] = 0;
    Layout::new(shape, strides, l.offset())
}

/// Checks that `other` has `l`'s shape except along `axis` (the along-axis ops' contract).
fn check_along(op: &'static str, l: &Layout, other: &Layout, axis: usize) -> Result<()> {
    let ok = l.ndim() == other.ndim()
        && (0..l.ndim()).all(|d| d == axis || l.shape()[d] == other.shape()[d]);
    if ok {
        Ok(())
    } else {
        Err(Error::ShapeMismatch {
            op,
            lhs: l.shape().to_vec(),
            rhs: other.shape().to_vec(),
        })
    }
}

/// `a * b * c` or an error naming `op`.
fn product(op: &'static str, dims: &[usize]) -> Result<usize> {
    dims.iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| Error::invalid(op, format!("{dims:?} elements overflow usize")))
}

impl Cuda {
    /// A kernel of the index family for `T`.
    fn index_fn<T: Element, P: KernelParams>(&self, name: &str) -> Result<Kernel<'_, P>> {
        let ct = cty::<T>();
        self.kernel(&index_key(ct), name, || index_source(ct))
    }

    /// Checks every index of `idx`/`li` against an axis of `size`: the first one (C order)
    /// outside `-size..size` is [`Error::IndexOutOfRange`]. Reads one number back (a sync).
    fn check_indices<T: Element>(
        &self,
        op: &'static str,
        idx: &CudaBuffer<i64>,
        li: &Layout,
        axis: usize,
        size: usize,
    ) -> Result<()> {
        let Some(lc) = check_layout(li) else {
            return Ok(());
        };
        let s = single(op, &lc)?;
        let total = s.size();
        let first = self.first_bad_slot()?;
        let f = self.index_fn::<T, IndexCheckArgs>("index_check")?;
        let (ip, fp) = (self.ptr(idx)?, self.ptr(&first)?);
        let (t, n) = (total as i64, size as i64);
        let grid = self.grid_for(total, 4);
        // The parameters mirror `index_check(const i64*, Strided, i64, i64, u64*)`;
        // every offset of `s` lies in `idx` (a view of it) and `first` holds one u64.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &IndexCheckArgs {
                idx: ip,
                si: s,
                total: t,
                n,
                first: fp,
            },
        )?;
        self.report_first_bad(op, &first, &s, ip, axis, size)
    }

    /// The slot a kernel lowers to the first position of a bad index: all ones (u64::MAX as
    /// the kernel sees it, -1 read back as i64).
    fn first_bad_slot(&self) -> Result<CudaBuffer<i64>> {
        let first = self.alloc::<i64>(1)?;
        driver::memset_u8(self.ptr(&first)?, 0xFF, 8, self.stream())?;
        Ok(first)
    }

    /// Reads `first` back (a sync): `Ok` when no index was out of range, else
    /// [`Error::IndexOutOfRange`] with the index at that C-order position of the view `s` of
    /// the index buffer at `ip`.
    fn report_first_bad(
        &self,
        op: &'static str,
        first: &CudaBuffer<i64>,
        s: &Strided,
        ip: u64,
        axis: usize,
        size: usize,
    ) -> Result<()> {
        let pos = self.download(first)?[0];
        if pos == -1 {
            return Ok(());
        }
        let off = host_offset(s, pos);
        let mut bad = [0i64];
        self.bind()?;
        driver::dtoh(&mut bad, ip + off as u64 * 8, self.stream())?;
        Err(Error::IndexOutOfRange {
            op,
            index: bad[0],
            axis,
            size,
        })
    }

    /// Scatter with one thread per lane.
    #[allow(clippy::too_many_arguments)]
    fn scatter_lanes<T: Element>(
        &self,
        dst: u64,
        idx: u64,
        values: u64,
        views: &[Strided],
        axis_strides: [i64; 3],
        n: usize,
        m: usize,
        q: usize,
        lanes: usize,
    ) -> Result<()> {
        let f = self.index_fn::<T, ScatterLanesArgs>("scatter_lanes")?;
        let (n, m, q, l) = (n as i64, m as i64, q as i64, lanes as i64);
        let [dax, iax, vax] = axis_strides;
        let grid = self.grid_for(lanes, 1);
        // The parameters mirror `scatter_lanes(T*, const i64*, const T*, Strided x3,
        // i64 x7)`; every offset reached lies in its buffer (views of them, indices checked).
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &ScatterLanesArgs {
                dst,
                idx,
                v: values,
                sd: views[0],
                si: views[1],
                sv: views[2],
                dax,
                iax,
                vax,
                n,
                m,
                q,
                lanes: l,
            },
        )
    }

    /// Scatter through a zeroed winner buffer of `dst_size` slots (see [`ScatterPath`]).
    #[allow(clippy::too_many_arguments)]
    fn scatter_winner<T: Element>(
        &self,
        wide: bool,
        dst: u64,
        idx: u64,
        values: u64,
        views: &[Strided],
        dax: i64,
        n: usize,
        m: usize,
        q: usize,
        total: usize,
        dst_size: usize,
    ) -> Result<()> {
        let (mark, write, width) = if wide {
            ("scatter_mark64", "scatter_write64", 8)
        } else {
            ("scatter_mark32", "scatter_write32", 4)
        };
        let (mark, write) = (
            self.index_fn::<T, ScatterMarkArgs>(mark)?,
            self.index_fn::<T, ScatterWriteArgs>(write)?,
        );
        let bytes = product("put_along_axis", &[dst_size, width])?;
        // Raw bytes: the kernels see unsigned 32- or 64-bit slots (pool memory is aligned).
        let win = self.alloc_zeroed::<u8>(bytes)?;
        let wp = self.ptr(&win)?;
        let (n, m, q, t) = (n as i64, m as i64, q as i64, total as i64);
        let grid = self.grid_for(total, 4);
        // The parameters mirror `scatter_mark{32,64}(W*, const i64*, Strided, i64 x4)`;
        // the winner buffer has one slot per destination element (pre x n x post) and every
        // index is checked.
        mark.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &ScatterMarkArgs {
                win: wp,
                idx,
                si: views[1],
                n,
                m,
                q,
                total: t,
            },
        )?;
        // The parameters mirror `scatter_write{32,64}(T*, const W*, const i64*,
        // const T*, Strided x3, i64 x5)`; offsets as above.
        write.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &ScatterWriteArgs {
                dst,
                win: wp,
                idx,
                v: values,
                sd: views[0],
                si: views[1],
                sv: views[2],
                dax,
                n,
                m,
                q,
                total: t,
            },
        )?;
        // Freed stream-ordered, after the kernels queued above.
        drop(win);
        Ok(())
    }
}

impl IndexOps for Cuda {
    fn take<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
        idx: &CudaBuffer<i64>,
        li: &Layout,
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "take";
        check_view(self, OP, x, lx)?;
        check_view(self, OP, idx, li)?;
        lx.check_axis(OP, axis)?;
        let size = lx.shape()[axis];
        let p = product(OP, &lx.shape()[..axis])?;
        let q = product(OP, &lx.shape()[axis + 1..])?;
        let m = li.size();
        let total = product(OP, &[p, m, q])?;
        let out = self.alloc::<T>(total)?;
        if total == 0 {
            // Nothing to gather, but the indices are checked all the same.
            self.check_indices::<T>(OP, idx, li, axis, size)?;
            return Ok(out);
        }
        let pre = single(OP, &sub_layout(lx, 0..axis, lx.offset()))?;
        let post = single(OP, &sub_layout(lx, axis + 1..lx.ndim(), 0))?;
        let si = single(OP, li)?;
        let f = self.index_fn::<T, TakeArgs>("take")?;
        let first = self.first_bad_slot()?;
        let (op, xp, ip, fp) = (
            self.ptr(&out)?,
            self.ptr(x)?,
            self.ptr(idx)?,
            self.ptr(&first)?,
        );
        let sax = lx.strides()[axis] as i64;
        let (n, m, q, t) = (size as i64, m as i64, q as i64, total as i64);
        let grid = self.grid_for(total, 4);
        // The parameters mirror `take(T*, const T*, const i64*, Strided x3, i64 x5, u64*)`;
        // `out` holds `total` elements, the views address `x` and `idx` within bounds, an
        // index outside -n..n is never followed and `first` holds one u64.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &TakeArgs {
                out: op,
                x: xp,
                idx: ip,
                pre,
                post,
                si,
                sax,
                n,
                m,
                q,
                total: t,
                first: fp,
            },
        )?;
        self.report_first_bad(OP, &first, &si, ip, axis, size)?;
        Ok(out)
    }

    fn take_along_axis<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lx: &Layout,
        idx: &CudaBuffer<i64>,
        li: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "take_along_axis";
        check_view(self, OP, x, lx)?;
        check_view(self, OP, idx, li)?;
        lx.check_axis(OP, axis)?;
        check_along(OP, lx, li, axis)?;
        let size = lx.shape()[axis];
        let total = li.size();
        let out = self.alloc::<T>(total)?;
        if total == 0 {
            return Ok(out);
        }
        // x seen over the output's shape, its axis pinned to the lane start.
        let lxs = lane_starts(lx, axis, li.shape()[axis]);
        let views = coalesce(OP, &[&lxs, li])?;
        let f = self.index_fn::<T, TakeAlongArgs>("take_along")?;
        let first = self.first_bad_slot()?;
        let (op, xp, ip, fp) = (
            self.ptr(&out)?,
            self.ptr(x)?,
            self.ptr(idx)?,
            self.ptr(&first)?,
        );
        let sax = lx.strides()[axis] as i64;
        let (n, t) = (size as i64, total as i64);
        let grid = self.grid_for(total, 4);
        // The parameters mirror `take_along(T*, const T*, const i64*, Strided x2,
        // i64 x3, u64*)`; `out` holds `total` elements, the views address `x` and `idx`
        // within bounds, an index outside -n..n is never followed and `first` holds one u64.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &TakeAlongArgs {
                out: op,
                x: xp,
                idx: ip,
                sx: views[0],
                si: views[1],
                sax,
                n,
                total: t,
                first: fp,
            },
        )?;
        self.report_first_bad(OP, &first, &views[1], ip, axis, size)?;
        Ok(out)
    }

    fn scatter<T: Element>(
        &self,
        dst: &mut CudaBuffer<T>,
        ld: &Layout,
        axis: usize,
        idx: &CudaBuffer<i64>,
        li: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
    ) -> Result<()> {
        const OP: &str = "put_along_axis";
        if li.shape() != lv.shape() {
            return Err(Error::ShapeMismatch {
                op: "scatter",
                lhs: li.shape().to_vec(),
                rhs: lv.shape().to_vec(),
            });
        }
        check_view(self, OP, dst, ld)?;
        check_view(self, OP, idx, li)?;
        check_view(self, OP, values, lv)?;
        ld.check_axis("scatter", axis)?;
        check_along("scatter", ld, li, axis)?;
        let n = ld.shape()[axis];
        self.check_indices::<T>(OP, idx, li, axis, n)?;
        let total = li.size();
        if total == 0 {
            return Ok(());
        }
        let m = li.shape()[axis];
        let q = product(OP, &li.shape()[axis + 1..])?;
        let lanes = total / m;
        let lds = lane_starts(ld, axis, m);
        let views = coalesce(OP, &[&lds, li, lv])?;
        let (dp, ip, vp) = (self.ptr(dst)?, self.ptr(idx)?, self.ptr(values)?);
        let dax = ld.strides()[axis] as i64;
        match scatter_path(lanes, m, ld.size()) {
            ScatterPath::Lanes => {
                let axis_strides = [dax, li.strides()[axis] as i64, lv.strides()[axis] as i64];
                self.scatter_lanes::<T>(dp, ip, vp, &views, axis_strides, n, m, q, lanes)
            }
            path => self.scatter_winner::<T>(
                path == ScatterPath::Winner64,
                dp,
                ip,
                vp,
                &views,
                dax,
                n,
                m,
                q,
                total,
                ld.size(),
            ),
        }
    }

    fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
        &self,
        dst: &mut CudaBuffer<T>,
        ld: &Layout,
        idx: &CudaBuffer<i64>,
        li: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
        op: O,
    ) -> Result<()> {
        self.scatter_reduce_impl(dst, ld, idx, li, values, lv, op)
    }

    fn bin_add<T: Real, E: Float, W: Numeric>(
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
        self.bin_add_impl(x, lx, edges, le, uniform, weights, out, lo)
    }
}

#[cfg(test)]
pub(crate) mod tests_gpu;

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::DType;

    #[test]
    fn host_offsets_follow_the_view() {
        let l = Layout::new(vec![2, 3], vec![-3, 1], 3);
        let s = single("t", &l).unwrap();
        let got: Vec<i64> = (0..6).map(|i| host_offset(&s, i)).collect();
        assert_eq!(got, vec![3, 4, 5, 0, 1, 2]);
        let z = single("t", &Layout::new(vec![], vec![], 7)).unwrap();
        assert_eq!(host_offset(&z, 0), 7);
        let t = Layout::contiguous(&[3, 4]).transposed();
        let s = single("t", &t).unwrap();
        let got: Vec<i64> = (0..12).map(|i| host_offset(&s, i)).collect();
        assert_eq!(got, vec![0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
    }

    #[test]
    fn the_check_skips_broadcast_axes_and_empty_views() {
        let b = Layout::new(vec![4, 3, 5], vec![0, 1, 0], 2);
        let c = check_layout(&b).unwrap();
        assert_eq!(
            (c.shape(), c.strides(), c.offset()),
            (&[3][..], &[1][..], 2)
        );
        assert!(check_layout(&Layout::contiguous(&[3, 0])).is_none());
        let z = check_layout(&Layout::contiguous(&[])).unwrap();
        assert_eq!(z.size(), 1);
    }

    #[test]
    fn lane_starts_pin_the_axis() {
        let l = Layout::new(vec![2, 5, 3], vec![15, 3, 1], 4);
        let s = lane_starts(&l, 1, 2);
        assert_eq!(s.shape(), &[2, 2, 3]);
        assert_eq!(s.strides(), &[15, 0, 1]);
        assert_eq!(s.offset(), 4);
        let pre = sub_layout(&l, 0..1, l.offset());
        assert_eq!(
            (pre.shape(), pre.strides(), pre.offset()),
            (&[2][..], &[15][..], 4)
        );
        let post = sub_layout(&l, 2..3, 0);
        assert_eq!((post.shape(), post.offset()), (&[3][..], 0));
    }

    #[test]
    fn scatter_paths() {
        assert_eq!(scatter_path(1, 4, 10), ScatterPath::Lanes);
        assert_eq!(scatter_path(1 << 20, 1 << 20, 1 << 40), ScatterPath::Lanes);
        assert_eq!(scatter_path(1, 1000, 1000), ScatterPath::Winner32);
        // A few indices into a huge destination: no destination-sized winner buffer.
        assert_eq!(scatter_path(1, 100, 1 << 30), ScatterPath::Lanes);
        let m = u32::MAX as usize;
        assert_eq!(scatter_path(2, m, 2 * m), ScatterPath::Winner64);
    }

    #[test]
    fn shape_checks() {
        let l = Layout::contiguous(&[2, 3]);
        assert!(check_along("t", &l, &Layout::contiguous(&[2, 7]), 1).is_ok());
        assert!(check_along("t", &l, &Layout::contiguous(&[3, 3]), 1).is_err());
        assert!(check_along("t", &l, &Layout::contiguous(&[2]), 1).is_err());
        let e = Layout::contiguous(&[]).check_axis("take", 0).unwrap_err();
        assert!(matches!(e, Error::AxisOutOfRange { op: "take", .. }));
        assert_eq!(product("t", &[2, 3, 4]).unwrap(), 24);
        assert!(product("t", &[usize::MAX, 2]).is_err());
    }

    #[test]
    fn keys_name_the_type() {
        assert_eq!(index_key("c128"), "index|c128");
        assert!(index_source("float").contains("#define T float\n"));
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn index_kernels_compile_for_every_type() {
        for d in DType::ALL {
            let ct = crate::ctype::ctype(d);
            crate::nvrtc::compile_check::assert_compiles(&index_key(ct), &index_source(ct));
        }
    }
}
