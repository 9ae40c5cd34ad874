//! [`FftOps`] for [`Cuda`]: batched transforms through cuFFT ([`cufft`]) and scaling by
//! cuBLAS `?scal` in place.
//!
//! The lanes of a `[outer, n, inner]` buffer map onto cuFFT's advanced layout: with
//! `inner == 1` one plan runs all `outer` lanes (stride 1, distance `n`); otherwise one plan
//! covers the lanes of one `outer` index (stride `inner`, distance 1) or of one `inner`
//! index (stride `inner`, distance `n * inner`), whichever needs fewer launches, and is
//! launched once per other index. Real transforms read and write `n / 2 + 1` complex
//! elements per lane on the half-spectrum side. A complex-to-real transform overwrites its
//! input, so an input another array shares is copied first. Transforms of one point need no
//! plan: they are a copy (or a cast between real and complex) and the scaling.

#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::ffi::blas as cublas;
use crate::ffi::fft as cufft;
use cufft::{Batched, Kind};
use cuprite_core::backend::{BackendBase, FftLanes, FftOps};
use cuprite_core::{DType, Element, Error, Float, Layout, Result};

/// True for double precision; an error for anything but f32 and f64.
fn is_double<F: Float>(op: &'static str) -> Result<bool> {
    match F::DTYPE {
        DType::F32 => Ok(false),
        DType::F64 => Ok(true),
        dtype => Err(Error::UnsupportedDType { op, dtype }),
    }
}

impl Cuda {
    /// Queues the transform of every lane from `src` (lanes of `n_in` elements of `in_size`
    /// bytes) to `dst` (lanes of `n_out` elements of `out_size` bytes).
    #[allow(clippy::too_many_arguments)]
    fn fft_lanes(
        &self,
        op: &'static str,
        kind: Kind,
        double: bool,
        lanes: FftLanes,
        (src, n_in, in_size): (u64, usize, usize),
        (dst, n_out, out_size): (u64, usize, usize),
        inverse: bool,
    ) -> Result<()> {
        if lanes.count() == 0 {
            return Ok(());
        }
        let (outer, inner) = (lanes.outer as i64, lanes.inner as i64);
        let (ni, no, n) = (n_in as i64, n_out as i64, lanes.n as i64);
        let (isz, osz) = (in_size as u64, out_size as u64);
        let run = |layout: Batched, s: u64, d: u64| {
            // `src` holds `outer * n_in * inner` input elements and `dst` as many
            // output elements (checked by the callers); every launch below reaches only
            // those, and the buffers are distinct allocations.
            cufft::exec(self, op, kind, double, layout, s, d, inverse)
        };
        if inner == 1 {
            let layout = Batched {
                n,
                batch: outer,
                istride: 1,
                idist: ni,
                ostride: 1,
                odist: no,
            };
            run(layout, src, dst)
        } else if outer <= inner {
            let layout = Batched {
                n,
                batch: inner,
                istride: inner,
                idist: 1,
                ostride: inner,
                odist: 1,
            };
            for b in 0..outer as u64 {
                let (s, d) = (b * (ni * inner) as u64, b * (no * inner) as u64);
                run(layout, src + s * isz, dst + d * osz)?;
            }
            Ok(())
        } else {
            let layout = Batched {
                n,
                batch: outer,
                istride: inner,
                idist: ni * inner,
                ostride: inner,
                odist: no * inner,
            };
            for i in 0..inner as u64 {
                run(layout, src + i * isz, dst + i * osz)?;
            }
            Ok(())
        }
    }

    /// `[outer, len, inner]` as a new contiguous `[outer, inner, len]`: every lane a row.
    fn lanes_to_rows<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lanes: FftLanes,
        len: usize,
    ) -> Result<CudaBuffer<T>> {
        let (outer, inner) = (lanes.outer, lanes.inner);
        let view = Layout::new(
            vec![outer, inner, len],
            vec![(len * inner) as isize, 1, inner as isize],
            0,
        );
        self.copy(x, &view)
    }

    /// The inverse of [`Self::lanes_to_rows`]: contiguous `[outer, inner, len]` rows back to
    /// a contiguous `[outer, len, inner]`.
    fn rows_to_lanes<T: Element>(
        &self,
        x: &CudaBuffer<T>,
        lanes: FftLanes,
        len: usize,
    ) -> Result<CudaBuffer<T>> {
        let (outer, inner) = (lanes.outer, lanes.inner);
        let view = Layout::new(
            vec![outer, len, inner],
            vec![(inner * len) as isize, 1, len as isize],
            0,
        );
        self.copy(x, &view)
    }

    /// Multiplies the `len` elements of `out` (as `reals` real numbers) by `scale`.
    fn fft_scale<T: Element>(
        &self,
        op: &'static str,
        out: &CudaBuffer<T>,
        reals: usize,
        double: bool,
        scale: f64,
    ) -> Result<()> {
        if scale == 1.0 || reals == 0 {
            return Ok(());
        }
        let h = cublas::handle(self).map_err(|e| match e {
            Error::Backend { msg, .. } => Error::Backend { op, msg },
            e => e,
        })?;
        // `out` is a live buffer of this device holding `reals` reals of the type.
        cublas::scal(self, h, op, double, self.ptr(out)?, reals, scale)
    }

    /// Checks that `x` holds the `count * len` elements the lanes read.
    fn check_fft_input<T: Element>(
        &self,
        op: &'static str,
        x: &CudaBuffer<T>,
        lanes: FftLanes,
        len: usize,
    ) -> Result<()> {
        self.check_buffer(x, op)?;
        let need = lanes.count() * len;
        if x.len() < need {
            return Err(Error::invalid(
                op,
                format!(
                    "input buffer of {} elements is shorter than the {need} the lanes \
                     [{}, {len}, {}] read",
                    x.len(),
                    lanes.outer,
                    lanes.inner
                ),
            ));
        }
        Ok(())
    }
}

impl FftOps for Cuda {
    fn fft_c2c<F: Float>(
        &self,
        x: &CudaBuffer<F::Complex>,
        lanes: FftLanes,
        inverse: bool,
        scale: F,
    ) -> Result<CudaBuffer<F::Complex>> {
        const OP: &str = "fft";
        let double = is_double::<F>(OP)?;
        self.check_fft_input(OP, x, lanes, lanes.n)?;
        let len = lanes.count() * lanes.n;
        if lanes.n == 1 {
            // A transform of one point is the point itself.
            let out = self.copy(x, &Layout::contiguous(&[len]))?;
            self.fft_scale(OP, &out, 2 * len, double, scale.to_f64_lossy())?;
            return Ok(out);
        }
        let out = self.alloc::<F::Complex>(len)?;
        let size = std::mem::size_of::<F::Complex>();
        self.fft_lanes(
            OP,
            Kind::C2C,
            double,
            lanes,
            (self.ptr(x)?, lanes.n, size),
            (self.ptr(&out)?, lanes.n, size),
            inverse,
        )?;
        self.fft_scale(OP, &out, 2 * len, double, scale.to_f64_lossy())?;
        Ok(out)
    }

    fn fft_r2c<F: Float>(
        &self,
        x: &CudaBuffer<F>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<CudaBuffer<F::Complex>> {
        const OP: &str = "rfft";
        let double = is_double::<F>(OP)?;
        self.check_fft_input(OP, x, lanes, lanes.n)?;
        let len = lanes.count() * lanes.half();
        if lanes.n == 1 {
            let out = self.cast::<F, F::Complex>(x, &Layout::contiguous(&[len]))?;
            self.fft_scale(OP, &out, 2 * len, double, scale.to_f64_lossy())?;
            return Ok(out);
        }
        if lanes.inner > 1 {
            // cuFFT rejects real data at an odd element offset (launches of strided lanes
            // start at one): transform rows, then put the spectra back across the lanes.
            let rows = FftLanes {
                outer: lanes.count(),
                n: lanes.n,
                inner: 1,
            };
            let x = self.lanes_to_rows(x, lanes, lanes.n)?;
            let out = self.fft_r2c::<F>(&x, rows, scale)?;
            return self.rows_to_lanes(&out, lanes, lanes.half());
        }
        let out = self.alloc::<F::Complex>(len)?;
        self.fft_lanes(
            OP,
            Kind::R2C,
            double,
            lanes,
            (self.ptr(x)?, lanes.n, std::mem::size_of::<F>()),
            (
                self.ptr(&out)?,
                lanes.half(),
                std::mem::size_of::<F::Complex>(),
            ),
            false,
        )?;
        self.fft_scale(OP, &out, 2 * len, double, scale.to_f64_lossy())?;
        Ok(out)
    }

    fn fft_c2r<F: Float>(
        &self,
        x: CudaBuffer<F::Complex>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<CudaBuffer<F>> {
        const OP: &str = "irfft";
        let double = is_double::<F>(OP)?;
        let half = lanes.half();
        self.check_fft_input(OP, &x, lanes, half)?;
        if lanes.n == 1 {
            // The real part of the one frequency (its imaginary part is zero by contract).
            let len = lanes.count();
            let out = self.cast::<F::Complex, F>(&x, &Layout::contiguous(&[len]))?;
            self.fft_scale(OP, &out, len, double, scale.to_f64_lossy())?;
            return Ok(out);
        }
        if lanes.inner > 1 {
            // As in `fft_r2c`: rows of half spectra in, rows of signals out, then the lanes.
            let rows = FftLanes {
                outer: lanes.count(),
                n: lanes.n,
                inner: 1,
            };
            let x = self.lanes_to_rows(&x, lanes, half)?;
            let out = self.fft_c2r::<F>(x, rows, scale)?;
            return self.rows_to_lanes(&out, lanes, lanes.n);
        }
        // cuFFT overwrites the input of a complex-to-real transform: never one that another
        // array can still see.
        let x = if x.is_unique() {
            x
        } else {
            let copy = self.alloc::<F::Complex>(lanes.count() * half)?;
            self.copy_elems(&copy, 0, &x, 0, lanes.count() * half)?;
            copy
        };
        let len = lanes.count() * lanes.n;
        let out = self.alloc::<F>(len)?;
        self.fft_lanes(
            OP,
            Kind::C2R,
            double,
            lanes,
            (self.ptr(&x)?, half, std::mem::size_of::<F::Complex>()),
            (self.ptr(&out)?, lanes.n, std::mem::size_of::<F>()),
            false,
        )?;
        self.fft_scale(OP, &out, len, double, scale.to_f64_lossy())?;
        Ok(out)
    }
}
