//! [`RandomOps`] for [`Cuda`]: the kernels of `kernels/src/random.cu`, compiled with
//! `--fmad=false` so every output is bit-identical to the CPU backend's for the same draw.
//! Uniform fills compute one Philox block per thread step and store it with one 16-byte
//! store (4 f32 or 2 f64 outputs); the other distributions run one element stream per output
//! element in a grid-stride loop (coalesced stores, rejection loops inside the thread).
//! Nothing here synchronises: a draw is queued on the device's stream like any other op.

pub(crate) mod params;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::elementwise::ArgBytes;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::BLOCK;
use cuprite_core::backend::RandomOps;
use cuprite_core::random::{Draw, FloatDist, IntDist};
use cuprite_core::{DType, Element, Error, Float, Integer, Result};
use cuprite_kernels::random::{program, OPTIONS};
use params::{RandomFloatArgs, RandomIntArgs, RandomUniformArgs};

/// The module key of the random family for output type `T`.
fn key<T: Element>() -> String {
    format!("random|{}|nofma", cty::<T>())
}

impl Cuda {
    /// The random kernel `name` for output type `T`.
    fn random_fn<T: Element, P: KernelParams>(&self, name: &str) -> Result<Kernel<'_, P>> {
        self.kernel_with(&key::<T>(), name, &OPTIONS, || program(cty::<T>()))
    }
}

impl RandomOps for Cuda {
    fn random_uniform<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        low: T,
        high: T,
    ) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let f = self.random_fn::<T, _>("random_uniform")?;
        let per = if T::DTYPE == DType::F32 || T::DTYPE.is_half() {
            4
        } else {
            2
        };
        let grid = self.grid_for(n, per);
        let (ptr, n64, k0, k1, base) = (self.ptr(&out)?, n as i64, d.key[0], d.key[1], d.base);
        // `random_uniform(T*, i64, u32, u32, u64, u64, T, T)`; `out` holds `n` elements and
        // its allocation is 16-byte aligned, as the vector stores need.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &RandomUniformArgs {
                out: ptr,
                n: n64,
                k0,
                k1,
                base,
                first: d.first,
                low: ArgBytes::of(low),
                high: ArgBytes::of(high),
            },
        )?;
        Ok(out)
    }

    fn random_float<T: Float>(&self, n: usize, d: &Draw, dist: FloatDist) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let f = self.random_fn::<T, _>("random_float")?;
        let (code, a, b, c) = dist.code();
        let grid = self.grid_for(n, 1);
        let (ptr, n64, k0, k1, base) = (self.ptr(&out)?, n as i64, d.key[0], d.key[1], d.base);
        // `random_float(T*, i64, u32, u32, u64, u64, int, double, double, double)`; `out` holds `n`
        // elements.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &RandomFloatArgs {
                out: ptr,
                n: n64,
                k0,
                k1,
                base,
                first: d.first,
                dist: code,
                a,
                b,
                c,
            },
        )?;
        Ok(out)
    }

    fn random_int<T: Integer>(&self, n: usize, d: &Draw, dist: IntDist) -> Result<CudaBuffer<T>> {
        if !T::DTYPE.is_integer() {
            return Err(Error::UnsupportedDType {
                op: "random_int",
                dtype: T::DTYPE,
            });
        }
        let out = self.alloc::<T>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let f = self.random_fn::<T, _>("random_int")?;
        let (code, low, range, a, b) = dist.code();
        let grid = self.grid_for(n, 1);
        let (ptr, n64, k0, k1, base) = (self.ptr(&out)?, n as i64, d.key[0], d.key[1], d.base);
        // `random_int(T*, i64, u32, u32, u64, u64, int, i64, u64, double, double)`; `out` holds
        // `n` elements.
        f.launch(
            (grid, 1, 1),
            (BLOCK, 1, 1),
            0,
            &RandomIntArgs {
                out: ptr,
                n: n64,
                k0,
                k1,
                base,
                first: d.first,
                dist: code,
                low,
                range,
                a,
                b,
            },
        )?;
        Ok(out)
    }
}
