//! [`BackendBase`] for [`Cuda`]: allocation, transfers, copies, fills, casts and ramps, all
//! queued on the device's stream (only `to_vec` and `synchronize` wait).
//!
//! - Contiguous copies are driver device-to-device copies; strided ones gather into C order
//!   with a kernel, and views that are (batches of) transposes go through shared-memory tiles
//!   so reads and writes are both coalesced ([`convert`]).
//! - Fills of all-zero bit patterns and of one-byte types are driver memsets; other
//!   contiguous fills use 16-byte vector stores ([`fill`]).
//! - `assign` and `fill` first make the destination buffer unshared (copy-on-write), as the
//!   CPU backend does, so the source of an `assign` never shares memory with its destination.

mod convert;
mod fill;
pub(crate) mod params;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::driver;
use crate::launch::check_view;
use cuprite_core::{BackendBase, Element, Error, Layout, Numeric, Result};

impl BackendBase for Cuda {
    type Buffer<T: Element> = CudaBuffer<T>;

    fn label(&self) -> String {
        format!("cuda:{}", self.ordinal())
    }

    fn synchronize(&self) -> Result<()> {
        self.synchronize_device()
    }

    fn buffer_len<T: Element>(&self, buf: &CudaBuffer<T>) -> usize {
        buf.len()
    }

    fn buffer_address<T: Element>(&self, buf: &CudaBuffer<T>) -> Option<usize> {
        usize::try_from(buf.device_ptr()).ok()
    }

    fn full<T: Element>(&self, len: usize, value: T) -> Result<CudaBuffer<T>> {
        if fill::is_zero_bits(&value) {
            return self.alloc_zeroed(len);
        }
        let out = self.alloc::<T>(len)?;
        self.fill_run(&out, 0, len, value)?;
        Ok(out)
    }

    fn from_vec<T: Element>(&self, data: Vec<T>) -> Result<CudaBuffer<T>> {
        self.upload(&data)
    }

    fn to_vec<T: Element>(&self, buf: &CudaBuffer<T>, layout: &Layout) -> Result<Vec<T>> {
        check_view(self, "to_vec", buf, layout)?;
        let n = layout.size();
        if n == 0 {
            return Ok(Vec::new());
        }
        self.check_not_capturing("to_vec")?;
        if let Some(off) = layout.contiguous_offset() {
            self.bind()?;
            let mut out = vec![T::ZERO; n];
            let ptr = self.ptr(buf)? + (off * std::mem::size_of::<T>()) as u64;
            driver::dtoh(&mut out, ptr, self.stream())?;
            return Ok(out);
        }
        let tmp = self.copy(buf, layout)?;
        self.download(&tmp)
    }

    fn copy<T: Element>(&self, buf: &CudaBuffer<T>, layout: &Layout) -> Result<CudaBuffer<T>> {
        check_view(self, "copy", buf, layout)?;
        let out = self.alloc::<T>(layout.size())?;
        self.convert(
            "copy",
            &out,
            &Layout::contiguous(layout.shape()),
            buf,
            layout,
        )?;
        Ok(out)
    }

    fn copy_to_peer<T: Element>(
        &self,
        buf: &CudaBuffer<T>,
        layout: &Layout,
        dst: &Cuda,
    ) -> Result<Option<CudaBuffer<T>>> {
        self.peer_copy(buf, layout, dst).map(Some)
    }

    fn assign<T: Element>(
        &self,
        dst: &mut CudaBuffer<T>,
        dst_layout: &Layout,
        src: &CudaBuffer<T>,
        src_layout: &Layout,
    ) -> Result<()> {
        if dst_layout.shape() != src_layout.shape() {
            return Err(Error::invalid(
                "assign",
                format!(
                    "source of shape {:?} does not match the destination shape {:?}",
                    src_layout.shape(),
                    dst_layout.shape()
                ),
            ));
        }
        check_view(self, "assign", dst, dst_layout)?;
        check_view(self, "assign", src, src_layout)?;
        if dst_layout.size() == 0 {
            return Ok(());
        }
        // After this `dst` is the only owner of its memory, and `src` (another handle)
        // therefore shares none of it: the kernels may read and write without ordering.
        self.make_unique(dst)?;
        self.convert("assign", dst, dst_layout, src, src_layout)
    }

    fn concat_flat<T: Element>(
        &self,
        parts: &[(&CudaBuffer<T>, &Layout)],
    ) -> Result<CudaBuffer<T>> {
        let mut len = 0usize;
        for (buf, l) in parts {
            check_view(self, "concatenate", buf, l)?;
            len = len.checked_add(l.size()).ok_or_else(|| {
                Error::invalid(
                    "concatenate",
                    "the parts hold more than usize::MAX elements",
                )
            })?;
        }
        // No zero fill: the parts' runs cover the buffer, each written by one copy (a
        // device-to-device memcpy for a contiguous part, the strided copy kernel otherwise).
        let out = self.alloc::<T>(len)?;
        let mut start = 0;
        for (buf, l) in parts {
            let run = Layout::new(
                l.shape().to_vec(),
                cuprite_core::layout::c_strides(l.shape()),
                start,
            );
            self.convert("concatenate", &out, &run, buf, l)?;
            start += l.size();
        }
        Ok(out)
    }

    fn fill<T: Element>(&self, dst: &mut CudaBuffer<T>, layout: &Layout, value: T) -> Result<()> {
        check_view(self, "fill", dst, layout)?;
        if layout.size() == 0 {
            return Ok(());
        }
        self.make_unique(dst)?;
        self.fill_view(dst, layout, value)
    }

    fn needs_copy_to_write<T: Element>(&self, buf: &CudaBuffer<T>) -> bool {
        !buf.is_unique()
    }

    fn make_unique<T: Element>(&self, buf: &mut CudaBuffer<T>) -> Result<()> {
        self.check_buffer(buf, "make_unique")?;
        if !buf.is_unique() {
            let fresh = self.alloc::<T>(buf.len())?;
            self.copy_elems(&fresh, 0, buf, 0, buf.len())?;
            *buf = fresh;
        }
        Ok(())
    }

    fn cast<T: Element, U: Element>(
        &self,
        buf: &CudaBuffer<T>,
        layout: &Layout,
    ) -> Result<CudaBuffer<U>> {
        check_view(self, "cast", buf, layout)?;
        let out = self.alloc::<U>(layout.size())?;
        self.convert(
            "cast",
            &out,
            &Layout::contiguous(layout.shape()),
            buf,
            layout,
        )?;
        Ok(out)
    }

    fn arange<T: Numeric>(&self, n: usize, start: T, step: T) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(n)?;
        self.arange_into(&out, start, step)?;
        Ok(out)
    }
}
