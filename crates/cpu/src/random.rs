//! [`RandomOps`] for [`Cpu`]: the reference samplers of `cuprite_core::random` run over
//! chunks of the output in parallel (rayon above [`par::PAR_MIN`] elements). Chunks are
//! multiples of four elements, so uniform fills compute each Philox block once; f32 and f64
//! fills compute eight blocks at a time in vector registers.

use crate::buffer::CpuBuffer;
use crate::{par, Cpu};
use cuprite_core::backend::RandomOps;
use cuprite_core::random::philox::{blocks, f32_from_bits, f64_from_bits, half_from_bits};
use cuprite_core::random::{Draw, FloatDist, IntDist};
use cuprite_core::{DType, Float, Integer, Result, Scalar};
use rayon::prelude::*;
use std::mem::MaybeUninit;

/// Fills `out` with `f(i, chunk)` for each chunk of [`par::CHUNK`] elements starting at `i`.
fn fill_chunks<T: Send + Copy>(out: &mut [T], f: impl Fn(usize, &mut [T]) + Sync) {
    if par::serial(out.len()) {
        out.chunks_mut(par::CHUNK)
            .enumerate()
            .for_each(|(c, o)| f(c * par::CHUNK, o));
    } else {
        out.par_chunks_mut(par::CHUNK)
            .enumerate()
            .for_each(|(c, o)| f(c * par::CHUNK, o));
    }
}

/// Philox blocks computed together by the uniform fills ([`blocks`]).
const LANES: usize = 8;

/// `low + (high - low) * u` for uniform `[0, 1)` values `u` of elements `start..start +
/// out.len()` (`start` a multiple of 4) of the draw's block stream. f32 and f64 compute
/// [`LANES`] blocks at a time, in vector registers where the CPU has AVX2.
fn unit_chunk<T: Float>(d: &Draw, start: usize, out: &mut [MaybeUninit<T>], low: T, high: T) {
    let span = high - low;
    let put = |v: &mut MaybeUninit<T>, u: f64| {
        v.write(low + span * T::from_f64(u));
    };
    match T::DTYPE {
        // A 16-bit float takes the top bits of an f32 word that its significand holds
        // (11 for f16, 8 for bf16): every value `k * 2^-bits` is exact, none rounds to 1.
        DType::F16 | DType::BF16 => {
            let bits = if T::DTYPE == DType::F16 { 11 } else { 8 };
            for (j, o) in out.chunks_mut(4).enumerate() {
                let w = d.block(((start / 4) + j) as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    put(v, half_from_bits(w[k], bits));
                }
            }
        }
        _ => {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, the one feature the copy is compiled for.
                unsafe { wide_blocks(d, start, out, low, high) };
                return;
            }
            float_blocks(d, start, out, low, high);
        }
    }
}

/// The uniform `[0, 1)` value of element `g` of the draw's block stream, one at a time (the
/// same bits as [`unit_chunk`]'s blocks).
fn unit_one<T: Float>(d: &Draw, g: u64) -> f64 {
    match T::DTYPE {
        DType::F16 | DType::BF16 => {
            let bits = if T::DTYPE == DType::F16 { 11 } else { 8 };
            half_from_bits(d.block(g / 4)[(g % 4) as usize], bits)
        }
        DType::F32 => f32_from_bits(d.block(g / 4)[(g % 4) as usize]) as f64,
        _ => {
            let w = d.block(g / 2);
            let k = 2 * (g % 2) as usize;
            f64_from_bits(((w[k + 1] as u64) << 32) | w[k] as u64)
        }
    }
}

/// [`float_blocks`] compiled for AVX2: the eight lanes of each Philox round are vector
/// multiplies (`vpmuludq`). Its own function, not a closure through `simd::wide`: a body
/// this large is not inlined into the AVX2 copy there, and would run compiled for the
/// baseline.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn wide_blocks<T: Float>(
    d: &Draw,
    start: usize,
    out: &mut [MaybeUninit<T>],
    low: T,
    high: T,
) {
    float_blocks(d, start, out, low, high)
}

/// The f32 and f64 uniform fills of [`unit_chunk`].
#[inline(always)]
fn float_blocks<T: Float>(d: &Draw, start: usize, out: &mut [MaybeUninit<T>], low: T, high: T) {
    let span = high - low;
    let put = |v: &mut MaybeUninit<T>, u: f64| {
        v.write(low + span * T::from_f64(u));
    };
    if T::DTYPE == DType::F32 {
        f32_blocks(d, start, out, put)
    } else {
        f64_blocks(d, start, out, put)
    }
}

/// f32 uniforms: element i reads word i % 4 of block i / 4.
#[inline(always)]
fn f32_blocks<T>(
    d: &Draw,
    start: usize,
    out: &mut [MaybeUninit<T>],
    put: impl Fn(&mut MaybeUninit<T>, f64),
) {
    for (j, o) in out.chunks_mut(4 * LANES).enumerate() {
        let b = (start / 4 + j * LANES) as u64;
        if o.len() == 4 * LANES {
            let w = blocks::<LANES>(d, b);
            for l in 0..LANES {
                for k in 0..4 {
                    put(&mut o[4 * l + k], f32_from_bits(w[k][l]) as f64);
                }
            }
        } else {
            for (q, o) in o.chunks_mut(4).enumerate() {
                let w = d.block(b + q as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    put(v, f32_from_bits(w[k]) as f64);
                }
            }
        }
    }
}

/// f64 uniforms: element i reads words 2 (i % 2) (low half) and 2 (i % 2) + 1 of block i / 2.
#[inline(always)]
fn f64_blocks<T>(
    d: &Draw,
    start: usize,
    out: &mut [MaybeUninit<T>],
    put: impl Fn(&mut MaybeUninit<T>, f64),
) {
    let bits = |lo: u32, hi: u32| ((hi as u64) << 32) | lo as u64;
    for (j, o) in out.chunks_mut(2 * LANES).enumerate() {
        let b = (start / 2 + j * LANES) as u64;
        if o.len() == 2 * LANES {
            let w = blocks::<LANES>(d, b);
            for l in 0..LANES {
                put(&mut o[2 * l], f64_from_bits(bits(w[0][l], w[1][l])));
                put(&mut o[2 * l + 1], f64_from_bits(bits(w[2][l], w[3][l])));
            }
        } else {
            for (q, o) in o.chunks_mut(2).enumerate() {
                let w = d.block(b + q as u64);
                for (k, v) in o.iter_mut().enumerate() {
                    put(v, f64_from_bits(bits(w[2 * k], w[2 * k + 1])));
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
        // A part of a draw may start inside a Philox block: its first elements, up to the
        // next multiple of four, are computed one by one, the rest block-aligned.
        let first = d.first as usize;
        let head = ((4 - first % 4) % 4).min(n);
        let span = high - low;
        // SAFETY: the head loop and `unit_chunk` write every element `fill_chunks` hands them.
        let out = unsafe {
            crate::alloc::written_vec::<T>(n, |o| {
                let (h, rest) = o.split_at_mut(head);
                for (k, v) in h.iter_mut().enumerate() {
                    v.write(low + span * T::from_f64(unit_one::<T>(d, (first + k) as u64)));
                }
                fill_chunks(rest, |i, c| unit_chunk(d, first + head + i, c, low, high))
            })
        }?;
        Ok(CpuBuffer::new(out))
    }

    fn random_float<T: Float>(&self, n: usize, d: &Draw, dist: FloatDist) -> Result<CpuBuffer<T>> {
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        fill_chunks(&mut out, |i, o| {
            for (j, v) in o.iter_mut().enumerate() {
                *v = T::from_f64(dist.sample(d, d.first + (i + j) as u64));
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
                *v = narrow(dist.sample(d, d.first + (i + j) as u64));
            }
        });
        Ok(CpuBuffer::new(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuprite_core::bf16;

    /// Element `i` of the block stream as f64 and f32 read it (the scalar reference).
    fn want_f64(d: &Draw, i: usize) -> f64 {
        let w = d.block((i / 2) as u64);
        let k = 2 * (i % 2);
        f64_from_bits(((w[k + 1] as u64) << 32) | w[k] as u64)
    }
    fn want_f32(d: &Draw, i: usize) -> f32 {
        f32_from_bits(d.block((i / 4) as u64)[i % 4])
    }

    #[test]
    fn uniform_fills_match_the_scalar_blocks() {
        let d = Draw::new([0x1234_5678, 0x9abc_def0], (1u64 << 32) + 5);
        // Serial chunks, the parallel path, and lengths that end inside a lane group.
        for n in [1, 15, 33, 3 * par::CHUNK + 37, par::PAR_MIN + 1001] {
            let u = Cpu.random_uniform::<f64>(n, &d, 0.0, 1.0).unwrap();
            assert_eq!(u.as_slice().len(), n);
            for (i, x) in u.as_slice().iter().enumerate() {
                assert_eq!(x.to_bits(), want_f64(&d, i).to_bits(), "f64 {i} of {n}");
            }
            let v = Cpu.random_uniform::<f32>(n, &d, -2.0, 3.0).unwrap();
            assert_eq!(v.as_slice().len(), n);
            for (i, x) in v.as_slice().iter().enumerate() {
                assert_eq!(*x, -2.0 + 5.0 * want_f32(&d, i), "f32 {i} of {n}");
            }
        }
        let h = Cpu
            .random_uniform::<bf16>(40, &d, bf16::ZERO, bf16::ONE)
            .unwrap();
        let w = d.block(9);
        assert_eq!(h.as_slice()[37].to_f64(), half_from_bits(w[1], 8));
    }

    #[test]
    fn a_part_of_a_draw_is_that_slice_of_the_whole() {
        let d = Draw::new([5, 6], 40);
        let n = par::PAR_MIN + 77;
        let whole64 = Cpu.random_uniform::<f64>(n, &d, -1.0, 1.0).unwrap();
        let whole32 = Cpu.random_uniform::<f32>(n, &d, 0.0, 1.0).unwrap();
        let whole16 = Cpu
            .random_uniform::<bf16>(n, &d, bf16::ZERO, bf16::ONE)
            .unwrap();
        let normal = FloatDist::Normal {
            loc: 1.0,
            scale: 2.0,
        };
        let wholen = Cpu.random_float::<f64>(n, &d, normal).unwrap();
        let ints = IntDist::Integers { low: -5, range: 11 };
        let wholei = Cpu.random_int::<i32>(n, &d, ints).unwrap();
        // Starts inside a block (every residue of four) and block-aligned; empty, short
        // and long parts.
        for (first, len) in [
            (0, 5),
            (1, 0),
            (1, 2),
            (2, 9),
            (3, 70),
            (4, 33),
            (1001, n - 1001),
        ] {
            let p = d.starting_at(first as u64);
            let r = first..first + len;
            let got = Cpu.random_uniform::<f64>(len, &p, -1.0, 1.0).unwrap();
            assert_eq!(
                got.as_slice(),
                &whole64.as_slice()[r.clone()],
                "f64 at {first}"
            );
            let got = Cpu.random_uniform::<f32>(len, &p, 0.0, 1.0).unwrap();
            assert_eq!(
                got.as_slice(),
                &whole32.as_slice()[r.clone()],
                "f32 at {first}"
            );
            let got = Cpu
                .random_uniform::<bf16>(len, &p, bf16::ZERO, bf16::ONE)
                .unwrap();
            assert_eq!(
                got.as_slice(),
                &whole16.as_slice()[r.clone()],
                "bf16 at {first}"
            );
            let got = Cpu.random_float::<f64>(len, &p, normal).unwrap();
            assert_eq!(
                got.as_slice(),
                &wholen.as_slice()[r.clone()],
                "normal at {first}"
            );
            let got = Cpu.random_int::<i32>(len, &p, ints).unwrap();
            assert_eq!(got.as_slice(), &wholei.as_slice()[r], "integers at {first}");
        }
    }
}
