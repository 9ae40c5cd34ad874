//! Every primitive of [`Fused`] that is not deferred: its operands are evaluated (when
//! pending) and the wrapped backend runs it; buffers it writes are evaluated first and
//! written in place.

use super::{Fused, FusedBuf, FusionBackend};
use crate::backend::{
    ArgKind, BackendBase, DeviceTimer, EigFactors, EighFactors, FftLanes, FftOps, IndexOps,
    KernelOps, LinalgOps, MaskOps, MatmulOps, RandomOps, ReduceOps, SelectOps, SortOps, SvdFactors,
    UniformBins,
};
use crate::dtype::{Element, Float, Inexact, Integer, Numeric, Real};
use crate::error::Result;
use crate::kernel::{KernelElement, KernelSpec};
use crate::layout::Layout;
use crate::ops::{BinaryOp, ReduceOp, ScanOp};
use crate::random::{Draw, FloatDist, IntDist};

/// A buffer of `B` as a ready buffer of `Fused<B>`.
fn w<B: FusionBackend, T: Element>(b: B::Buffer<T>) -> FusedBuf<B, T> {
    FusedBuf::ready(b)
}

impl<B: FusionBackend> Fused<B> {
    /// The number of elements of `b` (known without evaluating it).
    pub(crate) fn buffer_len_of<T: Element>(&self, b: &FusedBuf<B, T>) -> usize {
        self.peek(b, |buf| self.inner.buffer_len(buf), |_, len| len)
    }
}

impl<B: FusionBackend> Fused<B> {
    /// Before a write into the ready buffer `buf` that its slot alone holds: where the
    /// wrapped buffer is shared (a leaf of a pending expression reads it: `r = a[i, i].sqrt()`
    /// before `a[i, i] = r`), the device's pending expressions that read it are evaluated,
    /// which lets go of their leaves. The write then goes in place unless another array shares the buffer,
    /// where `B` would otherwise copy the whole buffer for the writer at every such write.
    fn release_leaves<T: Element>(&self, buf: &FusedBuf<B, T>) -> Result<()> {
        let shared = self.peek(
            buf,
            |b| {
                self.inner
                    .needs_copy_to_write(b)
                    .then(|| self.inner.buffer_address(b))
            },
            |_, _| None,
        );
        if let Some(addr) = shared
            && self.fusing()
        {
            self.release_readers(addr)?;
        }
        Ok(())
    }
}

impl<B: FusionBackend> BackendBase for Fused<B> {
    type Buffer<T: Element> = FusedBuf<B, T>;
    const HOST_MEMORY: bool = B::HOST_MEMORY;

    fn zeroed_host_vec<T: Element>(&self, len: usize) -> Result<Vec<T>> {
        self.inner.zeroed_host_vec(len)
    }

    fn label(&self) -> String {
        format!("fused {}", self.inner.label())
    }

    fn synchronize(&self) -> Result<()> {
        self.flush()?;
        self.inner.synchronize()
    }

    fn buffer_len<T: Element>(&self, buf: &FusedBuf<B, T>) -> usize {
        self.buffer_len_of(buf)
    }

    fn buffer_address<T: Element>(&self, buf: &FusedBuf<B, T>) -> Option<usize> {
        self.peek(buf, |b| self.inner.buffer_address(b), |_, _| None)
    }

    fn host_slice<'a, T: Element>(&self, _buf: &'a FusedBuf<B, T>) -> Option<&'a [T]> {
        // The slice would outlive the lock on the buffer's state.
        None
    }

    fn full<T: Element>(&self, len: usize, value: T) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.full(len, value)?))
    }

    fn from_vec<T: Element>(&self, data: Vec<T>) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.from_vec(data)?))
    }

    fn to_vec<T: Element>(&self, buf: &FusedBuf<B, T>, layout: &Layout) -> Result<Vec<T>> {
        self.inner.to_vec(&*self.ready(buf)?, layout)
    }

    fn copy<T: Element>(&self, buf: &FusedBuf<B, T>, layout: &Layout) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.copy(&*self.ready(buf)?, layout)?))
    }

    fn copy_to_peer<T: Element>(
        &self,
        buf: &FusedBuf<B, T>,
        layout: &Layout,
        dst: &Self,
    ) -> Result<Option<FusedBuf<B, T>>> {
        let out = self
            .inner
            .copy_to_peer(&*self.ready(buf)?, layout, &dst.inner)?;
        Ok(out.map(w))
    }

    fn assign<T: Element>(
        &self,
        dst: &mut FusedBuf<B, T>,
        dst_layout: &Layout,
        src: &FusedBuf<B, T>,
        src_layout: &Layout,
    ) -> Result<()> {
        // A pending source is written into the destination's view in one pass.
        if src_layout.shape() == dst_layout.shape()
            && let Some(expr) = self.pending_whole(src, src_layout)
            && self.write_into(dst, dst_layout, |_| expr)?
        {
            return Ok(());
        }
        let src = self.ready(src)?;
        self.with_mut(dst, |d| self.inner.assign(d, dst_layout, &src, src_layout))
    }

    fn concat_flat<T: Element>(
        &self,
        parts: &[(&FusedBuf<B, T>, &Layout)],
    ) -> Result<FusedBuf<B, T>> {
        let bufs: Vec<_> = parts
            .iter()
            .map(|(b, _)| self.ready(b))
            .collect::<Result<_>>()?;
        let views: Vec<(&B::Buffer<T>, &Layout)> = bufs
            .iter()
            .zip(parts)
            .map(|(b, (_, l))| (&**b, *l))
            .collect();
        Ok(w(self.inner.concat_flat(&views)?))
    }

    fn fill<T: Element>(&self, dst: &mut FusedBuf<B, T>, layout: &Layout, value: T) -> Result<()> {
        self.with_mut(dst, |d| self.inner.fill(d, layout, value))
    }

    fn make_unique<T: Element>(&self, buf: &mut FusedBuf<B, T>) -> Result<()> {
        let pending = self.peek(buf, |_| None, |expr, len| Some((expr(), len)));
        match pending {
            // Evaluating a pending buffer makes a new one: nothing to copy. Shared, this
            // array takes a slot of its own with the same expression.
            Some((expr, len)) => {
                if buf.slot_shared() {
                    *buf = self.defer(expr, len)?;
                }
                Ok(())
            }
            None => {
                if buf.slot_shared() {
                    // Another array shares the slot: this one takes its own buffer.
                    let mine = self.ready(buf)?.into_owned();
                    *buf = w(mine);
                } else {
                    self.release_leaves(buf)?;
                }
                self.with_mut(buf, |b| self.inner.make_unique(b))
            }
        }
    }

    /// Also evaluates the pending expressions of the device when only they share the
    /// buffer (see [`Fused::release_leaves`]): the write then needs no copy.
    fn needs_copy_to_write<T: Element>(&self, buf: &FusedBuf<B, T>) -> bool {
        if buf.slot_shared() || self.release_leaves(buf).is_err() {
            return true;
        }
        // Evaluating a pending buffer makes a new one that nothing else holds.
        self.peek(buf, |b| self.inner.needs_copy_to_write(b), |_, _| false)
    }

    fn cast<T: Element, U: Element>(
        &self,
        buf: &FusedBuf<B, T>,
        layout: &Layout,
    ) -> Result<FusedBuf<B, U>> {
        self.cast_deferred(buf, layout)
    }

    fn arange<T: Numeric>(&self, n: usize, start: T, step: T) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.arange(n, start, step)?))
    }
}

impl<B: FusionBackend> ReduceOps for Fused<B> {
    fn reduce<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axes: &[usize],
    ) -> Result<FusedBuf<B, K::Out>> {
        lx.check_bounds(K::NAME, self.buffer_len_of(x))?;
        if let Some(out) = self.fused_reduce(op, x, lx, axes)? {
            return Ok(w(out));
        }
        Ok(w(self.inner.reduce(op, &*self.ready(x)?, lx, axes)?))
    }

    fn min_max<T: Integer>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<(FusedBuf<B, T>, FusedBuf<B, T>)> {
        lx.check_bounds("min_max", self.buffer_len_of(x))?;
        let (lo, hi) = self.inner.min_max(&*self.ready(x)?, lx)?;
        Ok((w(lo), w(hi)))
    }

    fn arg_reduce<T: Element>(
        &self,
        kind: ArgKind,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<FusedBuf<B, i64>> {
        Ok(w(self.inner.arg_reduce(
            kind,
            &*self.ready(x)?,
            lx,
            axis,
        )?))
    }

    fn scan<T: Element, K: ScanOp<T>>(
        &self,
        op: K,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<FusedBuf<B, K::Out>> {
        Ok(w(self.inner.scan(op, &*self.ready(x)?, lx, axis)?))
    }
}

impl<B: FusionBackend> SortOps for Fused<B> {
    fn sort<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.sort(&*self.ready(x)?, lx, axis)?))
    }

    fn argsort<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<FusedBuf<B, i64>> {
        Ok(w(self.inner.argsort(&*self.ready(x)?, lx, axis)?))
    }

    fn partition<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.partition(&*self.ready(x)?, lx, axis, kth)?))
    }

    fn argpartition<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
        kth: usize,
    ) -> Result<FusedBuf<B, i64>> {
        Ok(w(self.inner.argpartition(
            &*self.ready(x)?,
            lx,
            axis,
            kth,
        )?))
    }

    fn searchsorted<T: Element>(
        &self,
        sorted: &FusedBuf<B, T>,
        ls: &Layout,
        values: &FusedBuf<B, T>,
        lv: &Layout,
        right: bool,
    ) -> Result<FusedBuf<B, i64>> {
        let (s, v) = (self.ready(sorted)?, self.ready(values)?);
        Ok(w(self.inner.searchsorted(&s, ls, &v, lv, right)?))
    }

    fn unique<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<(FusedBuf<B, T>, usize)> {
        let (u, n) = self.inner.unique(&*self.ready(x)?, lx)?;
        Ok((w(u), n))
    }

    #[allow(clippy::type_complexity)]
    fn unique_all<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<(
        FusedBuf<B, T>,
        FusedBuf<B, i64>,
        FusedBuf<B, i64>,
        FusedBuf<B, i64>,
        usize,
    )> {
        let (u, i, inv, c, n) = self.inner.unique_all(&*self.ready(x)?, lx)?;
        Ok((w(u), w(i), w(inv), w(c), n))
    }
}

impl<B: FusionBackend> SelectOps for Fused<B> {
    fn select_kth<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
        kth: &[usize],
    ) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.select_kth(&*self.ready(x)?, lx, axis, kth)?))
    }
}

impl<B: FusionBackend> IndexOps for Fused<B> {
    fn take<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        axis: usize,
        idx: &FusedBuf<B, i64>,
        li: &Layout,
    ) -> Result<FusedBuf<B, T>> {
        let (x, i) = (self.ready(x)?, self.ready(idx)?);
        Ok(w(self.inner.take(&x, lx, axis, &i, li)?))
    }

    fn take_along_axis<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        idx: &FusedBuf<B, i64>,
        li: &Layout,
        axis: usize,
    ) -> Result<FusedBuf<B, T>> {
        let (x, i) = (self.ready(x)?, self.ready(idx)?);
        Ok(w(self.inner.take_along_axis(&x, lx, &i, li, axis)?))
    }

    #[allow(clippy::too_many_arguments)]
    fn scatter<T: Element>(
        &self,
        dst: &mut FusedBuf<B, T>,
        ld: &Layout,
        axis: usize,
        idx: &FusedBuf<B, i64>,
        li: &Layout,
        values: &FusedBuf<B, T>,
        lv: &Layout,
    ) -> Result<()> {
        let (i, v) = (self.ready(idx)?, self.ready(values)?);
        self.with_mut(dst, |d| self.inner.scatter(d, ld, axis, &i, li, &v, lv))
    }

    #[allow(clippy::too_many_arguments)]
    fn scatter_reduce<T: Element, O: BinaryOp<T, Out = T>>(
        &self,
        dst: &mut FusedBuf<B, T>,
        ld: &Layout,
        idx: &FusedBuf<B, i64>,
        li: &Layout,
        values: &FusedBuf<B, T>,
        lv: &Layout,
        op: O,
    ) -> Result<()> {
        let (i, v) = (self.ready(idx)?, self.ready(values)?);
        self.with_mut(dst, |d| {
            self.inner.scatter_reduce(d, ld, &i, li, &v, lv, op)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn bin_add<T: Real, E: Float, W: Numeric>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        edges: &FusedBuf<B, E>,
        le: &Layout,
        uniform: Option<UniformBins<E>>,
        weights: Option<(&FusedBuf<B, W>, &Layout)>,
        out: &mut FusedBuf<B, W>,
        lo: &Layout,
    ) -> Result<()> {
        let (x, e) = (self.ready(x)?, self.ready(edges)?);
        let wb = weights
            .map(|(b, l)| self.ready(b).map(|b| (b, l)))
            .transpose()?;
        let wv = wb.as_ref().map(|(b, l)| (&**b, *l));
        self.with_mut(out, |o| {
            self.inner.bin_add(&x, lx, &e, le, uniform, wv, o, lo)
        })
    }
}

impl<B: FusionBackend> MaskOps for Fused<B> {
    fn mask_select<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
        mask: &FusedBuf<B, bool>,
        lm: &Layout,
    ) -> Result<(FusedBuf<B, T>, usize)> {
        let (x, m) = (self.ready(x)?, self.ready(mask)?);
        let (out, n) = self.inner.mask_select(&x, lx, &m, lm)?;
        Ok((w(out), n))
    }

    fn nonzero<T: Element>(
        &self,
        x: &FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<(FusedBuf<B, i64>, usize)> {
        let (out, n) = self.inner.nonzero(&*self.ready(x)?, lx)?;
        Ok((w(out), n))
    }

    fn count_nonzero<T: Element>(&self, x: &FusedBuf<B, T>, lx: &Layout) -> Result<usize> {
        self.inner.count_nonzero(&*self.ready(x)?, lx)
    }

    fn mask_assign<T: Element>(
        &self,
        dst: &mut FusedBuf<B, T>,
        ld: &Layout,
        mask: &FusedBuf<B, bool>,
        lm: &Layout,
        values: &FusedBuf<B, T>,
        lv: &Layout,
    ) -> Result<()> {
        let (m, v) = (self.ready(mask)?, self.ready(values)?);
        self.with_mut(dst, |d| self.inner.mask_assign(d, ld, &m, lm, &v, lv))
    }
}

impl<B: FusionBackend> MatmulOps for Fused<B> {
    fn matmul<T: Numeric>(
        &self,
        a: &FusedBuf<B, T>,
        la: &Layout,
        b: &FusedBuf<B, T>,
        lb: &Layout,
    ) -> Result<FusedBuf<B, T>> {
        let (a, b) = (self.ready(a)?, self.ready(b)?);
        Ok(w(self.inner.matmul(&a, la, &b, lb)?))
    }
}

impl<B: FusionBackend> RandomOps for Fused<B> {
    fn random_uniform<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        low: T,
        high: T,
    ) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.random_uniform(n, d, low, high)?))
    }

    fn random_float<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        dist: FloatDist,
    ) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.random_float(n, d, dist)?))
    }

    fn random_int<T: Integer>(&self, n: usize, d: &Draw, dist: IntDist) -> Result<FusedBuf<B, T>> {
        Ok(w(self.inner.random_int(n, d, dist)?))
    }
}

impl<B: FusionBackend> LinalgOps for Fused<B> {
    fn lu_factor<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        n: usize,
    ) -> Result<(FusedBuf<B, T>, FusedBuf<B, i32>)> {
        let (lu, ipiv) = self.inner.lu_factor(&*self.ready(a)?, batch, n)?;
        Ok((w(lu), w(ipiv)))
    }

    fn lu_solve<T: Inexact>(
        &self,
        lu: &FusedBuf<B, T>,
        ipiv: &FusedBuf<B, i32>,
        b: &FusedBuf<B, T>,
        batch: usize,
        n: usize,
        nrhs: usize,
    ) -> Result<FusedBuf<B, T>> {
        let (lu, ipiv, b) = (self.ready(lu)?, self.ready(ipiv)?, self.ready(b)?);
        Ok(w(self.inner.lu_solve(&lu, &ipiv, &b, batch, n, nrhs)?))
    }

    fn cholesky<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        n: usize,
    ) -> Result<(FusedBuf<B, T>, FusedBuf<B, i32>)> {
        let (l, info) = self.inner.cholesky(&*self.ready(a)?, batch, n)?;
        Ok((w(l), w(info)))
    }

    fn qr<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        m: usize,
        n: usize,
        complete: bool,
    ) -> Result<(FusedBuf<B, T>, FusedBuf<B, T>)> {
        let (q, r) = self.inner.qr(&*self.ready(a)?, batch, m, n, complete)?;
        Ok((w(q), w(r)))
    }

    fn svd<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        m: usize,
        n: usize,
        vectors: Option<bool>,
    ) -> Result<SvdFactors<Self, T>> {
        let f = self.inner.svd(&*self.ready(a)?, batch, m, n, vectors)?;
        Ok(SvdFactors {
            s: w(f.s),
            u: f.u.map(w),
            vh: f.vh.map(w),
            info: w(f.info),
        })
    }

    fn eigh<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EighFactors<Self, T>> {
        let f = self.inner.eigh(&*self.ready(a)?, batch, n, vectors)?;
        Ok(EighFactors {
            w: w(f.w),
            v: f.v.map(w),
            info: w(f.info),
        })
    }

    fn eig<T: Inexact>(
        &self,
        a: &FusedBuf<B, T>,
        batch: usize,
        n: usize,
        vectors: bool,
    ) -> Result<EigFactors<Self, T>> {
        let f = self.inner.eig(&*self.ready(a)?, batch, n, vectors)?;
        Ok(EigFactors {
            w: w(f.w),
            v: f.v.map(w),
            info: w(f.info),
        })
    }
}

impl<B: FusionBackend> FftOps for Fused<B> {
    fn fft_c2c<F: Float>(
        &self,
        x: &FusedBuf<B, F::Complex>,
        lanes: FftLanes,
        inverse: bool,
        scale: F,
    ) -> Result<FusedBuf<B, F::Complex>> {
        Ok(w(self.inner.fft_c2c::<F>(
            &*self.ready(x)?,
            lanes,
            inverse,
            scale,
        )?))
    }

    fn fft_r2c<F: Float>(
        &self,
        x: &FusedBuf<B, F>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<FusedBuf<B, F::Complex>> {
        Ok(w(self.inner.fft_r2c::<F>(
            &*self.ready(x)?,
            lanes,
            scale,
        )?))
    }

    fn fft_c2r<F: Float>(
        &self,
        x: FusedBuf<B, F::Complex>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<FusedBuf<B, F>> {
        Ok(w(self.inner.fft_c2r::<F>(
            self.ready(&x)?.into_owned(),
            lanes,
            scale,
        )?))
    }
}

macro_rules! forward_kernels {
    ($($method:ident($($a:ident: $t:ident, $l:ident),+);)*) => {
        impl<B: FusionBackend> KernelOps for Fused<B> {
            $(
                #[allow(clippy::too_many_arguments)]
                fn $method<$($t: KernelElement,)+ R: KernelElement, F>(
                    &self,
                    spec: &KernelSpec,
                    f: &F,
                    $($a: &FusedBuf<B, $t>, $l: &Layout,)+
                ) -> Result<FusedBuf<B, R>>
                where
                    F: Fn($($t),+) -> R + Send + Sync,
                {
                    $(let $a = self.ready($a)?;)+
                    Ok(w(self.inner.$method(spec, f, $(&$a, $l,)+)?))
                }
            )*
        }
    };
}

forward_kernels! {
    map_kernel1(a0: A0, l0);
    map_kernel2(a0: A0, l0, a1: A1, l1);
    map_kernel3(a0: A0, l0, a1: A1, l1, a2: A2, l2);
    map_kernel4(a0: A0, l0, a1: A1, l1, a2: A2, l2, a3: A3, l3);
}

impl<B: FusionBackend> DeviceTimer for Fused<B> {
    type Event = B::Event;

    fn create_event(&self) -> Result<B::Event> {
        self.inner.create_event()
    }

    fn record_event(&self, event: &mut B::Event) -> Result<()> {
        // Work recorded before the event must have run: pending expressions are evaluated.
        self.flush()?;
        self.inner.record_event(event)
    }

    fn elapsed_secs(&self, start: &B::Event, end: &B::Event) -> Result<f64> {
        self.inner.elapsed_secs(start, end)
    }

    fn timer_label(&self) -> String {
        format!("fused {}", self.inner.timer_label())
    }

    fn evaluate_pending(&self) -> Result<()> {
        self.flush()
    }

    fn fusion_stats(&self) -> Option<super::FusionStats> {
        Some(self.stats())
    }
}
