//! Copies between two GPUs (`Array::to_device` from one `Cuda` device to another) and the
//! "current device" convenience [`with_device`].
//!
//! The copy is one `cuMemcpyPeerAsync` on the destination's stream: direct over NVLink or
//! PCIe where the two devices can reach each other (the first copy between two GPUs enables
//! their peer access, for their contexts and their memory pools), staged through host
//! memory by the driver where they cannot, never through a host `Vec`. It is ordered on both
//! streams: it starts after the work that produced the source (an event of the source's
//! stream), and the source stream waits for it before anything there may free or overwrite
//! the source.

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::driver::{self, Event};
use cuprite_core::{BackendBase, Element, Layout, Result};
use std::collections::BTreeSet;
use std::sync::Mutex;

const OP: &str = "to_device";

impl Cuda {
    /// A C-contiguous copy of the view `buf`/`layout` of this device on `dst` (another GPU).
    pub(crate) fn peer_copy<T: Element>(
        &self,
        buf: &CudaBuffer<T>,
        layout: &Layout,
        dst: &Cuda,
    ) -> Result<CudaBuffer<T>> {
        // A contiguous run of the source: the view itself, or a copy here first.
        let (src, off) = if layout.is_c_contiguous() {
            (buf.clone(), layout.offset())
        } else {
            (self.copy(buf, layout)?, 0)
        };
        self.reach(dst)?;
        let n = layout.size();
        let bytes = n * std::mem::size_of::<T>();
        let out = dst.alloc::<T>(n)?;
        if bytes == 0 {
            return Ok(out);
        }
        // The source is ready on this stream: the destination stream waits for that point.
        self.bind()?;
        let sp = self.ptr(&src)? + (off * std::mem::size_of::<T>()) as u64;
        let ready = Event::ordering(OP)?;
        ready.record(self.stream(), OP)?;
        dst.bind()?;
        ready.wait_on(dst.stream())?;
        let dp = dst.ptr(&out)?;
        driver::dtod_peer(
            dp,
            dst.inner.ctx.0,
            sp,
            self.inner.ctx.0,
            bytes,
            dst.stream(),
        )?;
        // The source stays untouched until the copy is done: this stream waits for it, so
        // the source's stream-ordered free (or a later write there) comes after it.
        let copied = Event::ordering(OP)?;
        copied.record(dst.stream(), OP)?;
        self.bind()?;
        copied.wait_on(self.stream())?;
        Ok(out)
    }
}

impl Cuda {
    /// Enables direct access between this GPU and `other` (once per pair and process), so
    /// that copies between them go over NVLink or PCIe peer to peer instead of through host
    /// memory; pairs that cannot reach each other keep the driver's staged copy.
    fn reach(&self, other: &Cuda) -> Result<()> {
        static DONE: Mutex<BTreeSet<(usize, usize)>> = Mutex::new(BTreeSet::new());
        let (a, b) = (self.ordinal(), other.ordinal());
        let key = (a.min(b), a.max(b));
        let mut done = DONE.lock().unwrap_or_else(|p| p.into_inner());
        if a == b || done.contains(&key) {
            return Ok(());
        }
        let side = |d: &Cuda| (d.inner.dev, d.inner.ctx.0, d.inner.pool.0);
        driver::enable_peer_access(side(self), side(other))?;
        done.insert(key);
        Ok(())
    }
}

/// Runs `f` with device `ordinal` (CuPy's `with cupy.cuda.Device(1):`): the handle is
/// explicit, as every cuprite device handle is, and the device's context is current on this
/// thread while `f` runs (for libraries that use the CUDA runtime's current device).
///
/// # Errors
/// As [`Cuda::new`], and `f`'s own error.
///
/// ```no_run
/// use cuprite_core::Array;
/// let total = cuprite_cuda::with_device(1, |dev| {
///     let a = Array::<f32, cuprite_cuda::Cuda>::ones(&[1000], dev)?;
///     a.sum()?.item()
/// })?;
/// # Ok::<(), cuprite_core::Error>(())
/// ```
pub fn with_device<R>(ordinal: usize, f: impl FnOnce(&Cuda) -> Result<R>) -> Result<R> {
    let dev = Cuda::new(ordinal)?;
    dev.bind()?;
    f(&dev)
}

#[cfg(test)]
mod tests_gpu {
    use crate::test_support::gpu;
    use crate::Cuda;
    use cuprite_core::{s, Array, Result};

    /// On one GPU `to_device` is a device copy (between handles of different streams too);
    /// the path between two GPUs runs in the multi-GPU suite.
    #[test]
    #[ignore = "needs a CUDA device"]
    fn to_device_on_the_same_gpu_copies_on_the_device() -> Result<()> {
        let Some(dev) = gpu() else {
            return Ok(());
        };
        let other = dev.with_stream(&dev.new_stream()?)?;
        let a = Array::<f64, Cuda>::arange(0.0, 24.0, 1.0, &dev)?.reshape(&[4, 6])?;
        let v = a.t().slice(&s![..;-2, 1..])?;
        for to in [&dev, &other] {
            let b = v.to_device(to)?;
            assert!(b.is_contiguous());
            assert_eq!(b.to_vec()?, v.to_vec()?);
        }
        let c = super::with_device(0, |d| Array::<f32, Cuda>::ones(&[5], d)?.sum()?.item())?;
        assert_eq!(c, 5.0);
        Ok(())
    }
}
