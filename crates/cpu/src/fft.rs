//! Fourier transforms of the CPU backend: rustfft for complex lanes and realfft for real
//! ones (a real transform of length `n` costs a complex one of length `n / 2`, not `n`).
//! Plans come from one planner per precision, shared by all threads (rustfft caches the plans
//! it makes, so each length is planned once per process). Lanes run in parallel over rayon:
//! contiguous lanes (the last axis) in place, strided ones gathered into a contiguous lane
//! per task, transformed into a lane-major work buffer and transposed back.

use crate::alloc::{checked_len, filled_vec, vec_with_capacity, zeroed_vec};
use crate::buffer::CpuBuffer;
use crate::par::PAR_MIN;
use crate::Cpu;
use cuprite_core::backend::check_host_alloc;
use cuprite_core::backend::{FftLanes, FftOps};
use cuprite_core::{DType, Element, Error, Float, Result};
use num_complex::Complex;
use rayon::prelude::*;
use realfft::RealFftPlanner;
use rustfft::{FftDirection, FftNum, FftPlanner};
use std::any::Any;
use std::sync::{Mutex, OnceLock};

/// The planners of one precision.
struct Planners<R: FftNum> {
    complex: FftPlanner<R>,
    real: RealFftPlanner<R>,
}

impl<R: FftNum> Planners<R> {
    fn new() -> Self {
        Planners {
            complex: FftPlanner::new(),
            real: RealFftPlanner::new(),
        }
    }
}

/// f32 and f64: the precisions rustfft computes in, each with its process-wide planners.
trait Precision: FftNum + Default + Element {
    fn planners() -> &'static Mutex<Planners<Self>>;
    /// `n` complex zeros from the zeroed allocator ([`zeroed_vec`]).
    fn complex_zeros(n: usize) -> Result<Vec<Complex<Self>>>;
}

macro_rules! precision {
    ($t:ty) => {
        impl Precision for $t {
            fn planners() -> &'static Mutex<Planners<$t>> {
                static P: OnceLock<Mutex<Planners<$t>>> = OnceLock::new();
                P.get_or_init(|| Mutex::new(Planners::new()))
            }
            fn complex_zeros(n: usize) -> Result<Vec<Complex<$t>>> {
                zeroed_vec(n)
            }
        }
    };
}
precision!(f32);
precision!(f64);

/// Runs the planners of `R` under their lock (a panic in another thread poisons nothing
/// that matters: the planners only cache plans).
fn with_planners<R: Precision, V>(f: impl FnOnce(&mut Planners<R>) -> V) -> V {
    let mut p = R::planners().lock().unwrap_or_else(|e| e.into_inner());
    f(&mut p)
}

/// Calls `f(state, lane_in, lane_out)` for every lane of `x` read as `[outer, n_in, inner]`
/// and returns the outputs as `[outer, n_out, inner]`. `init` makes one state per task (its
/// scratch buffers); the first error of `init` is the result. `zeros` allocates the output
/// (and the work buffer of strided lanes): fresh zero pages, first touched by the tasks that
/// write them rather than filled serially beforehand.
fn run_lanes<A, O, S>(
    x: &[A],
    lanes: FftLanes,
    n_in: usize,
    n_out: usize,
    zeros: fn(usize) -> Result<Vec<O>>,
    init: impl Fn() -> Result<S> + Sync + Send,
    f: impl Fn(&mut S, &[A], &mut [O]) + Sync + Send,
) -> Result<Vec<O>>
where
    A: Copy + Send + Sync,
    O: Copy + Send + Sync,
{
    let count = lanes.count();
    let mut out = zeros(checked_len(&[count, n_out])?)?;
    if count == 0 {
        return Ok(out);
    }
    // A task whose scratch cannot be allocated records the error and skips its lanes.
    let errors = Mutex::new(None);
    let init = || init().map_err(|e| record(&errors, e)).ok();
    let inner = lanes.inner;
    let per_task = (PAR_MIN / n_in.max(n_out)).max(1);
    if inner == 1 {
        out.par_chunks_mut(n_out)
            .zip(x[..count * n_in].par_chunks(n_in))
            .with_min_len(per_task)
            .for_each_init(init, |s, (o, i)| {
                if let Some(s) = s {
                    f(s, i, o)
                }
            });
        return finish_oom(out, errors);
    }
    // Strided lanes: lane (b, i) is gathered, transformed into row `b * inner + i` of a
    // lane-major work buffer, and the work buffer is transposed back into `out`.
    let mut work = zeros(count * n_out)?;
    work.par_chunks_mut(n_out)
        .enumerate()
        .with_min_len(per_task)
        .for_each_init(
            || {
                let lane = vec_with_capacity(n_in).map_err(|e| record(&errors, e));
                init().zip(lane.ok())
            },
            |state, (l, o)| {
                let Some((s, lane)) = state else { return };
                let base = (l / inner) * n_in * inner + l % inner;
                lane.clear();
                lane.extend((0..n_in).map(|k| x[base + k * inner]));
                f(s, lane, o);
            },
        );
    if let Some(e) = take_error(&errors) {
        return Err(e);
    }
    let work = &work;
    out.par_chunks_mut(inner)
        .enumerate()
        .with_min_len((PAR_MIN / inner).max(1))
        .for_each(|(r, row)| {
            let (b, k) = (r / n_out, r % n_out);
            for (i, v) in row.iter_mut().enumerate() {
                *v = work[(b * inner + i) * n_out + k];
            }
        });
    Ok(out)
}

/// The error a task recorded, if any.
fn take_error(slot: &Mutex<Option<Error>>) -> Option<Error> {
    slot.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// `v`, or the error a task recorded.
fn finish_oom<V>(v: V, slot: Mutex<Option<Error>>) -> Result<V> {
    match slot.into_inner().unwrap_or_else(|p| p.into_inner()) {
        None => Ok(v),
        Some(e) => Err(e),
    }
}

/// Checks, before a plan of length `n` is made, that its tables and one task's scratch
/// (about `4 n` complex numbers in all) could be allocated: planning itself aborts on failure.
fn check_plan<R>(n: usize) -> Result<()> {
    check_host_alloc(n, 4 * std::mem::size_of::<Complex<R>>()).map(|_| ())
}

/// Multiplies every element of `v` by `scale` (nothing when it is 1).
fn scale_all<R: Precision, V: Copy + std::ops::Mul<R, Output = V>>(v: &mut [V], scale: R) {
    if scale != R::one() {
        v.iter_mut().for_each(|x| *x = *x * scale);
    }
}

/// Records the first error a parallel task met.
fn record<E>(slot: &Mutex<Option<E>>, e: E) {
    let mut s = slot.lock().unwrap_or_else(|p| p.into_inner());
    s.get_or_insert(e);
}

fn finish<V>(op: &'static str, v: V, slot: Mutex<Option<String>>) -> Result<V> {
    match slot.into_inner().unwrap_or_else(|p| p.into_inner()) {
        None => Ok(v),
        Some(msg) => Err(Error::Backend { op, msg }),
    }
}

fn c2c<R: Precision>(
    x: &[Complex<R>],
    lanes: FftLanes,
    inverse: bool,
    scale: R,
) -> Result<Vec<Complex<R>>> {
    let n = lanes.n;
    check_plan::<R>(n)?;
    let dir = if inverse {
        FftDirection::Inverse
    } else {
        FftDirection::Forward
    };
    let plan = with_planners::<R, _>(|p| p.complex.plan_fft(n, dir));
    let scratch = plan.get_inplace_scratch_len();
    run_lanes(
        x,
        lanes,
        n,
        n,
        R::complex_zeros,
        || filled_vec(scratch, Complex::<R>::default()),
        |s, i, o| {
            o.copy_from_slice(i);
            plan.process_with_scratch(o, s);
            scale_all(o, scale);
        },
    )
}

fn r2c<R: Precision>(x: &[R], lanes: FftLanes, scale: R) -> Result<Vec<Complex<R>>> {
    let n = lanes.n;
    check_plan::<R>(n)?;
    let plan = with_planners::<R, _>(|p| p.real.plan_fft_forward(n));
    let errors = Mutex::new(None);
    let out = run_lanes(
        x,
        lanes,
        n,
        lanes.half(),
        R::complex_zeros,
        || {
            let input = filled_vec(n, R::zero())?;
            Ok((
                input,
                filled_vec(plan.get_scratch_len(), Complex::default())?,
            ))
        },
        |(input, scratch), i, o| {
            input.copy_from_slice(i);
            match plan.process_with_scratch(input, o, scratch) {
                Ok(()) => scale_all(o, scale),
                Err(e) => record(&errors, e.to_string()),
            }
        },
    )?;
    finish("rfft", out, errors)
}

fn c2r<R: Precision>(x: &[Complex<R>], lanes: FftLanes, scale: R) -> Result<Vec<R>> {
    let n = lanes.n;
    check_plan::<R>(n)?;
    let plan = with_planners::<R, _>(|p| p.real.plan_fft_inverse(n));
    let errors = Mutex::new(None);
    let half = lanes.half();
    let out = run_lanes(
        x,
        lanes,
        half,
        n,
        zeroed_vec::<R>,
        || {
            let input = filled_vec(half, Complex::default())?;
            Ok((
                input,
                filled_vec(plan.get_scratch_len(), Complex::default())?,
            ))
        },
        |(input, scratch), i, o| {
            input.copy_from_slice(i);
            // Zero by contract already; realfft rejects nonzero ones, so make sure.
            input[0].im = R::zero();
            if n.is_multiple_of(2) {
                input[half - 1].im = R::zero();
            }
            match plan.process_with_scratch(input, o, scratch) {
                Ok(()) => scale_all(o, scale),
                Err(e) => record(&errors, e.to_string()),
            }
        },
    )?;
    finish("irfft", out, errors)
}

fn dispatch_err(op: &'static str) -> Error {
    Error::Backend {
        op,
        msg: "element type dispatch failed".into(),
    }
}

/// `x` as a buffer of `U` when `T` is `U`.
fn as_type<'a, T: 'static, U: 'static>(
    op: &'static str,
    x: &'a CpuBuffer<T>,
) -> Result<&'a CpuBuffer<U>> {
    (x as &dyn Any)
        .downcast_ref::<CpuBuffer<U>>()
        .ok_or_else(|| dispatch_err(op))
}

/// A vector of `U` as a buffer of `T` when `U` is `T`.
fn into_type<U: Element, T: 'static>(op: &'static str, v: Vec<U>) -> Result<CpuBuffer<T>> {
    let boxed: Box<dyn Any> = Box::new(CpuBuffer::new(v));
    boxed
        .downcast::<CpuBuffer<T>>()
        .map(|b| *b)
        .map_err(|_| dispatch_err(op))
}

/// Runs `$body` with `$r` bound to the precision of `$f` (f32 or f64).
macro_rules! by_precision {
    ($f:ty, $op:expr, |$r:ident| $body:expr) => {
        match <$f as cuprite_core::Element>::DTYPE {
            DType::F32 => {
                type $r = f32;
                $body
            }
            DType::F64 => {
                type $r = f64;
                $body
            }
            dtype => Err(Error::UnsupportedDType { op: $op, dtype }),
        }
    };
}

impl FftOps for Cpu {
    fn fft_c2c<F: Float>(
        &self,
        x: &CpuBuffer<F::Complex>,
        lanes: FftLanes,
        inverse: bool,
        scale: F,
    ) -> Result<CpuBuffer<F::Complex>> {
        const OP: &str = "fft";
        by_precision!(F, OP, |R| {
            let x = as_type::<F::Complex, Complex<R>>(OP, x)?;
            let out = c2c::<R>(x.as_slice(), lanes, inverse, scale.to_f64_lossy() as R)?;
            into_type(OP, out)
        })
    }

    fn fft_r2c<F: Float>(
        &self,
        x: &CpuBuffer<F>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<CpuBuffer<F::Complex>> {
        const OP: &str = "rfft";
        by_precision!(F, OP, |R| {
            let x = as_type::<F, R>(OP, x)?;
            let out = r2c::<R>(x.as_slice(), lanes, scale.to_f64_lossy() as R)?;
            into_type(OP, out)
        })
    }

    fn fft_c2r<F: Float>(
        &self,
        x: CpuBuffer<F::Complex>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<CpuBuffer<F>> {
        const OP: &str = "irfft";
        by_precision!(F, OP, |R| {
            let x = as_type::<F::Complex, Complex<R>>(OP, &x)?;
            let out = c2r::<R>(x.as_slice(), lanes, scale.to_f64_lossy() as R)?;
            into_type(OP, out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct O(n^2) sum, the definition of the transform.
    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let t = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                        v * Complex::new(t.cos(), t.sin())
                    })
                    .sum()
            })
            .collect()
    }

    #[test]
    fn strided_lanes_match_the_definition() {
        // [outer=2, n=5, inner=3]: every lane along the middle axis against the direct sum.
        let (outer, n, inner) = (2, 5, 3);
        let x: Vec<Complex<f64>> = (0..outer * n * inner)
            .map(|i| Complex::new((i as f64 * 0.7).sin(), (i as f64 * 0.3).cos()))
            .collect();
        let lanes = FftLanes { outer, n, inner };
        let got = c2c::<f64>(&x, lanes, false, 0.5).unwrap();
        for b in 0..outer {
            for i in 0..inner {
                let lane: Vec<_> = (0..n).map(|k| x[(b * n + k) * inner + i]).collect();
                let want = dft(&lane, false);
                for k in 0..n {
                    let g = got[(b * n + k) * inner + i];
                    assert!((g - want[k] * 0.5).norm() < 1e-12, "lane ({b}, {i}) k={k}");
                }
            }
        }
    }

    #[test]
    fn real_lanes_round_trip_and_ignore_edge_imaginary_parts() {
        let lanes = FftLanes {
            outer: 3,
            n: 6,
            inner: 2,
        };
        let x: Vec<f64> = (0..36).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
        let mut spec = r2c::<f64>(&x, lanes, 1.0).unwrap();
        assert_eq!(spec.len(), 3 * 4 * 2);
        // Imaginary parts at frequency 0 and n/2 must not change the inverse.
        spec[0].im = 3.0;
        spec[3 * 2 + 1].im = -2.0;
        let back = c2r::<f64>(&spec, lanes, 1.0 / 6.0).unwrap();
        for (a, b) in back.iter().zip(&x) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn empty_batches_give_empty_outputs() {
        let lanes = FftLanes {
            outer: 0,
            n: 4,
            inner: 3,
        };
        assert!(c2c::<f32>(&[], lanes, true, 1.0).unwrap().is_empty());
        assert!(r2c::<f32>(&[], lanes, 1.0).unwrap().is_empty());
    }
}
