//! [`RandomOps`] for [`Cpu`]: the reference samplers of `cuprite_core::random` run over
//! chunks of the output in parallel (rayon above [`par::PAR_MIN`] elements). Chunks are
//! multiples of four elements, so uniform fills compute each Philox block once.

use crate::buffer::CpuBuffer;
use crate::{par, Cpu};
use cuprite_core::backend::RandomOps;
use cuprite_core::random::philox::{f32_from_bits, f64_from_bits, half_from_bits};
use cuprite_core::random::{Draw, FloatDist, IntDist};
use cuprite_core::{DType, Float, Integer, Result, Scalar};
use rayon::prelude::*;

/// Fills `out` with `f(i, chunk)` for each chunk of [`par::CHUNK`] elements starting at `i`.
fn fill_chunks<T: Send + Copy>(out: &mut [T], f: impl Fn(usize, &mut [T]) + Sync) {
    if out.len() < par::PAR_MIN {
        out.chunks_mut(par::CHUNK)
            .enumerate()
            .for_each(|(c, o)| f(c * par::CHUNK, o));
    } else {
        out.par_chunks_mut(par::CHUNK)
            .enumerate()
            .for_each(|(c, o)| f(c * par::CHUNK, o));
    }
}

/// Uniform `[0, 1)` values of elements `start..start + out.len()` (`start` a multiple of 4).
fn unit_chunk<T: Float>(d: &Draw, start: usize, out: &mut [T], low: T, high: T) {
    let span = high - low;
    match T::DTYPE {
        // A 16-bit float takes the top bits of an f32 word that its significand holds
        // (11 for f16, 8 for bf16): every value `k * 2^-bits` is exact, none rounds to 1.
        DType::F16 | DType::BF16 => {
            let bits = if T::DTYPE == DType::F16 { 11 } else { 8 };
            for (j, o) in out.chunks_mut(4).enumerate() {
                let w = d.block(((start / 4) + j) as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    *v = low + span * T::from_f64(half_from_bits(w[k], bits));
                }
            }
        }
        DType::F32 => {
            for (j, o) in out.chunks_mut(4).enumerate() {
                let w = d.block(((start / 4) + j) as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    *v = low + span * T::from_f64(f32_from_bits(w[k]) as f64);
                }
            }
        }
        _ => {
            for (j, o) in out.chunks_mut(2).enumerate() {
                let w = d.block(((start / 2) + j) as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    let bits = ((w[2 * k + 1] as u64) << 32) | w[2 * k] as u64;
                    *v = low + span * T::from_f64(f64_from_bits(bits));
                }
            }
        }
    }
}

impl RandomOps for Cpu {
    fn random_uniform<T: Float>(
        &self,
        n: usize,
        d: &Draw,
        low: T,
        high: T,
    ) -> Result<CpuBuffer<T>> {
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        fill_chunks(&mut out, |i, o| unit_chunk(d, i, o, low, high));
        Ok(CpuBuffer::new(out))
    }

    fn random_float<T: Float>(&self, n: usize, d: &Draw, dist: FloatDist) -> Result<CpuBuffer<T>> {
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        fill_chunks(&mut out, |i, o| {
            for (j, v) in o.iter_mut().enumerate() {
                *v = T::from_f64(dist.sample(d, (i + j) as u64));
            }
        });
        Ok(CpuBuffer::new(out))
    }

    fn random_int<T: Integer>(&self, n: usize, d: &Draw, dist: IntDist) -> Result<CpuBuffer<T>> {
        // The draw is an i64; a narrower type keeps its low bits (wrapping), which is the
        // value itself for every draw in the type's range, and u64 gets its full range back.
        let narrow = |v: i64| T::from_scalar(Scalar::I64(v));
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        fill_chunks(&mut out, |i, o| {
            for (j, v) in o.iter_mut().enumerate() {
                *v = narrow(dist.sample(d, (i + j) as u64));
            }
        });
        Ok(CpuBuffer::new(out))
    }
}
