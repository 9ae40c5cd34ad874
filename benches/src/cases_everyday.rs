//! Everyday workloads at mid sizes, where a fixed cost per call (allocation, zeroing, first
//! touch of fresh pages, thread start-up) shows beside NumPy, each checked once, untimed,
//! against the host:
//! - `exp` of f32: within 2 ulps of f64's `exp` rounded to f32;
//! - `astype` f64 -> f32: exactly Rust's `as f32` (round to nearest even, as NumPy's cast);
//! - `argmax`, `take` with an index array, boolean-mask selection `x[x > 0.5]`, an op on a
//!   strided view `x[::2] * 2`, `a + b.T`, `concatenate` of two halves and the stable
//!   `argsort`, `where(x > 0, x, 0)`: exactly the host's result;
//! - `mean` over axis 0 of f32: within the f32 rounding of the summed magnitudes.
//!
//! The inputs are the same bits as `scripts/bench_numpy.py` makes (`crate::data`'s SplitMix64
//! formulas), with the seeds below.

use crate::cases::{case, close, download, exact, same_shape, Case};
use crate::data::{uniform, uniform_f32, uniform_i64};
use crate::workloads::WorkloadId;
use cuprite::{Array, ArrayBackend, Element, Result, SliceArg};

/// The seeds of the inputs, shared with `scripts/bench_numpy.py`.
pub mod seeds {
    /// `exp`'s f32 input, uniform in [-10, 10).
    pub const EXP_F32: u64 = 139;
    /// `astype`'s f64 input, uniform in [-1000, 1000).
    pub const ASTYPE: u64 = 149;
    /// `argmax`'s f64 input, uniform in [-1, 1).
    pub const ARGMAX: u64 = 151;
    /// `take`'s f64 values and its i64 indices (uniform in `0..n`).
    pub const TAKE: (u64, u64) = (157, 163);
    /// The masked selection's f64 input, uniform in [-1, 1).
    pub const MASK: u64 = 167;
    /// The strided view's f64 input (`2n` values), uniform in [-1, 1).
    pub const STRIDED: u64 = 173;
    /// `a + b.T`'s two square f64 operands, uniform in [-1, 1).
    pub const ADD_T: (u64, u64) = (179, 181);
    /// `mean` over axis 0's f32 input, uniform in [0, 1).
    pub const MEAN0: u64 = 191;
    /// The two halves `concatenate` joins, uniform in [-1, 1).
    pub const CONCAT: (u64, u64) = (193, 197);
    /// The stable `argsort`'s f64 input, uniform in [-1, 1).
    pub const ARGSORT: u64 = 199;
    /// `where`'s f64 input, uniform in [-1, 1).
    pub const WHERE: u64 = 211;
}

/// Columns of `mean` over axis 0's input: `(n / 1000, 1000)`.
pub const MEAN0_COLS: usize = 1000;

/// The side of `a + b.T`'s square operands: `round(sqrt(n))`.
pub fn add_t_side(n: usize) -> usize {
    ((n as f64).sqrt().round() as usize).max(1)
}

/// A workload on one 1-d f64 input uploaded from `host`, its result checked to equal
/// `want(host)` element for element.
fn exact_case<B: ArrayBackend, O: Element + PartialEq + std::fmt::Debug>(
    dev: &B,
    host: Vec<f64>,
    mut run: impl FnMut(&Array<f64, B>) -> Result<Array<O, B>> + 'static,
    want: impl Fn(&[f64]) -> Vec<O> + 'static,
) -> Result<Box<dyn Case>> {
    let x = Array::from_slice(&host, &[host.len()], dev)?;
    Ok(case(
        dev,
        (x, host),
        move |(x, _)| run(x),
        move |(_, host), o: &Array<O, B>| exact(&download(o)?, &want(host)),
    ))
}

/// Prepares the everyday workload `id` on `n` elements.
pub fn everyday_case<B: ArrayBackend>(id: WorkloadId, dev: &B, n: usize) -> Result<Box<dyn Case>> {
    Ok(match id {
        WorkloadId::ExpF32 => {
            let host: Vec<f32> = uniform(n, -10.0, 10.0, seeds::EXP_F32)
                .into_iter()
                .map(|v| v as f32)
                .collect();
            let x = Array::from_slice(&host, &[n], dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| x.exp(),
                |(_, host), o: &Array<f32, B>| {
                    same_shape(o.shape(), &[host.len()])?;
                    let want: Vec<f64> = host
                        .iter()
                        .map(|&v| (v as f64).exp() as f32 as f64)
                        .collect();
                    let got: Vec<f64> = download(o)?.iter().map(|&v| v as f64).collect();
                    close(&got, &want, |i| 2.0 * f32::EPSILON as f64 * want[i].abs())
                },
            )
        }
        WorkloadId::AstypeF64F32 => {
            let host = uniform(n, -1000.0, 1000.0, seeds::ASTYPE);
            let x = Array::from_slice(&host, &[n], dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| x.astype::<f32>(),
                |(_, host), o: &Array<f32, B>| {
                    same_shape(o.shape(), &[host.len()])?;
                    let want: Vec<f32> = host.iter().map(|&v| v as f32).collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::ArgmaxF64 => exact_case(
            dev,
            uniform(n, -1.0, 1.0, seeds::ARGMAX),
            |x| x.argmax(),
            |host| {
                let mut best = 0;
                for (i, v) in host.iter().enumerate() {
                    if *v > host[best] {
                        best = i;
                    }
                }
                vec![best as i64]
            },
        )?,
        WorkloadId::TakeF64 => {
            let host = uniform(n, -1.0, 1.0, seeds::TAKE.0);
            let idx = uniform_i64(n, 0, n as i64, seeds::TAKE.1);
            let x = Array::from_slice(&host, &[n], dev)?;
            let i = Array::from_slice(&idx, &[n], dev)?;
            case(
                dev,
                (x, i, host, idx),
                |(x, i, _, _)| x.take(i, None),
                |(_, _, host, idx), o: &Array<f64, B>| {
                    let want: Vec<f64> = idx.iter().map(|&k| host[k as usize]).collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::MaskSelectF64 => exact_case(
            dev,
            uniform(n, -1.0, 1.0, seeds::MASK),
            |x| x.select(&x.gt_scalar(0.5)?),
            |host| host.iter().copied().filter(|&v| v > 0.5).collect(),
        )?,
        WorkloadId::StridedMulF64 => exact_case(
            dev,
            uniform(2 * n, -1.0, 1.0, seeds::STRIDED),
            |x| Ok(&x.slice(&[SliceArg::from(..).step_by(2)])? * 2.0),
            |host| host.iter().step_by(2).map(|&v| v * 2.0).collect(),
        )?,
        WorkloadId::AddTransposedF64 => {
            let k = add_t_side(n);
            let ha = uniform(k * k, -1.0, 1.0, seeds::ADD_T.0);
            let hb = uniform(k * k, -1.0, 1.0, seeds::ADD_T.1);
            let a = Array::from_slice(&ha, &[k, k], dev)?;
            let b = Array::from_slice(&hb, &[k, k], dev)?;
            case(
                dev,
                (a, b, ha, hb),
                |(a, b, _, _)| Ok(&*a + &b.t()),
                move |(_, _, ha, hb), o: &Array<f64, B>| {
                    same_shape(o.shape(), &[k, k])?;
                    let want: Vec<f64> = (0..k * k)
                        .map(|p| ha[p] + hb[(p % k) * k + p / k])
                        .collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::MeanAxis0F32 => {
            let rows = (n / MEAN0_COLS).max(1);
            let host = uniform_f32(rows * MEAN0_COLS, 0.0, 1.0, seeds::MEAN0);
            let x = Array::from_slice(&host, &[rows, MEAN0_COLS], dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| x.mean_axes(0, false),
                move |(_, host), o: &Array<f32, B>| {
                    same_shape(o.shape(), &[MEAN0_COLS])?;
                    let want: Vec<f64> = (0..MEAN0_COLS)
                        .map(|c| {
                            let s: f64 = (0..rows).map(|r| host[r * MEAN0_COLS + c] as f64).sum();
                            s / rows as f64
                        })
                        .collect();
                    let got: Vec<f64> = download(o)?.iter().map(|&v| v as f64).collect();
                    // Non-negative inputs: the mean is the scale of the summed magnitudes.
                    let tol = |i: usize| 4.0 * (rows as f64).sqrt() * f32::EPSILON as f64 * want[i];
                    close(&got, &want, tol)
                },
            )
        }
        WorkloadId::ConcatenateF64 => {
            let half = (n / 2).max(1);
            let ha = uniform(half, -1.0, 1.0, seeds::CONCAT.0);
            let hb = uniform(half, -1.0, 1.0, seeds::CONCAT.1);
            let a = Array::from_slice(&ha, &[half], dev)?;
            let b = Array::from_slice(&hb, &[half], dev)?;
            case(
                dev,
                (a, b, ha, hb),
                |(a, b, _, _)| Array::concatenate(&[&*a, &*b], 0),
                |(_, _, ha, hb), o: &Array<f64, B>| {
                    let want: Vec<f64> = ha.iter().chain(hb.iter()).copied().collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::ArgsortStableF64 => exact_case(
            dev,
            uniform(n, -1.0, 1.0, seeds::ARGSORT),
            |x| x.argsort(0),
            |host| {
                let mut want: Vec<i64> = (0..host.len() as i64).collect();
                want.sort_by(|&i, &j| host[i as usize].total_cmp(&host[j as usize]));
                want
            },
        )?,
        WorkloadId::WhereF64 => {
            let host = uniform(n, -1.0, 1.0, seeds::WHERE);
            let x = Array::from_slice(&host, &[n], dev)?;
            let zero = Array::scalar(0.0, dev)?;
            case(
                dev,
                (x, zero, host),
                |(x, zero, _)| Array::where_(&x.gt_scalar(0.0)?, x, zero),
                |(_, _, host), o: &Array<f64, B>| {
                    let want: Vec<f64> = host
                        .iter()
                        .map(|&v| if v > 0.0 { v } else { 0.0 })
                        .collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        other => {
            return Err(cuprite::Error::invalid(
                "everyday_case",
                format!("{} is not an everyday workload", other.key()),
            ))
        }
    })
}
