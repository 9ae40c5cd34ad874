//! A workload made runnable on a backend: [`prepare`] uploads deterministic inputs and
//! returns a [`Case`] whose `run` is the timed region (the op between two timing events,
//! then `dev.synchronize()`; both the device time and the wall time are measured),
//! whose `reset` restores in-place inputs untimed, and whose `check` compares the last
//! result with an independent host computation (plain loops in f64, `slice::sort_by`, a
//! Freivalds test for the matmuls), so a wrong answer can never win a comparison.

use crate::api;
use crate::data::{sin_wave, uniform, uniform_f32};
use crate::workloads::{Workload, WorkloadId};
use cuprite::{Array, ArrayBackend, DeviceTimer, Result};
use std::fmt::Debug;
use std::time::Instant;

/// The times of one run of a case.
#[derive(Clone, Debug, PartialEq)]
pub struct RunTime {
    /// Wall-clock seconds from before the op to the end of `dev.synchronize()`.
    pub wall_s: f64,
    /// Device seconds between timing events recorded before and after the op
    /// ([`DeviceTimer`]: CUDA events on a GPU, the wall clock on the CPU), or why the device
    /// timer failed.
    pub device_s: std::result::Result<f64, String>,
}

/// A prepared workload on one backend.
pub trait Case {
    /// Restores the inputs of in-place workloads (untimed; a no-op for the others), then
    /// waits for the device, so the timed region starts on an idle device.
    fn reset(&mut self) -> Result<()>;
    /// The timed region: a timing event, the op, a timing event, `dev.synchronize()`; the
    /// result is kept for `check`.
    fn run(&mut self) -> Result<RunTime>;
    /// Drops the kept result (untimed).
    fn release(&mut self);
    /// Compares the result of the last `run` (after a `reset`) with an independent
    /// host computation.
    fn check(&mut self) -> std::result::Result<(), String>;
}

/// A pair of timing events of backend `B`, or why they could not be made.
type Events<B> =
    std::result::Result<(<B as DeviceTimer>::Event, <B as DeviceTimer>::Event), String>;

/// A case built from closures over a state `S` producing an output `O`.
struct FnCase<B: ArrayBackend, S, O, R, F, C> {
    dev: B,
    events: Option<Events<B>>,
    state: S,
    out: Option<O>,
    reset: R,
    run: F,
    check: C,
}

impl<B, S, O, R, F, C> Case for FnCase<B, S, O, R, F, C>
where
    B: ArrayBackend,
    R: FnMut(&mut S) -> Result<()>,
    F: FnMut(&mut S) -> Result<O>,
    C: FnMut(&S, &O) -> std::result::Result<(), String>,
{
    fn reset(&mut self) -> Result<()> {
        (self.reset)(&mut self.state)?;
        self.dev.synchronize()
    }
    fn run(&mut self) -> Result<RunTime> {
        let dev = &self.dev;
        let events = self.events.get_or_insert_with(|| {
            let make = || dev.create_event().map_err(|e| e.to_string());
            Ok((make()?, make()?))
        });
        let t0 = Instant::now();
        let mut device_ok = match events {
            Ok((start, _)) => dev.record_event(start).map_err(|e| e.to_string()),
            Err(e) => Err(e.clone()),
        };
        let out = (self.run)(&mut self.state)?;
        if let (Ok(()), Ok((_, end))) = (&device_ok, &mut *events) {
            device_ok = dev.record_event(end).map_err(|e| e.to_string());
        }
        dev.synchronize()?;
        let wall_s = t0.elapsed().as_secs_f64();
        let device_s = match (device_ok, &*events) {
            (Ok(()), Ok((start, end))) => dev.elapsed_secs(start, end).map_err(|e| e.to_string()),
            (Err(e), _) => Err(e),
            (_, Err(e)) => Err(e.clone()),
        };
        self.out = Some(out);
        Ok(RunTime { wall_s, device_s })
    }
    fn release(&mut self) {
        self.out = None;
    }
    fn check(&mut self) -> std::result::Result<(), String> {
        match &self.out {
            Some(o) => (self.check)(&self.state, o),
            None => Err("check called before run".into()),
        }
    }
}

/// Boxes a case; `reset` does nothing.
pub(crate) fn case<B, S, O>(
    dev: &B,
    state: S,
    run: impl FnMut(&mut S) -> Result<O> + 'static,
    check: impl FnMut(&S, &O) -> std::result::Result<(), String> + 'static,
) -> Box<dyn Case>
where
    B: ArrayBackend,
    S: 'static,
    O: 'static,
{
    case_with_reset(dev, state, |_: &mut S| Ok(()), run, check)
}

/// Boxes a case whose `reset` restores the state untimed before each run (for workloads
/// that update an input in place).
pub(crate) fn case_with_reset<B, S, O>(
    dev: &B,
    state: S,
    reset: impl FnMut(&mut S) -> Result<()> + 'static,
    run: impl FnMut(&mut S) -> Result<O> + 'static,
    check: impl FnMut(&S, &O) -> std::result::Result<(), String> + 'static,
) -> Box<dyn Case>
where
    B: ArrayBackend,
    S: 'static,
    O: 'static,
{
    Box::new(FnCase {
        dev: dev.clone(),
        events: None,
        state,
        out: None,
        reset,
        run,
        check,
    })
}

/// The state of an in-place workload: the pristine input, the array updated in place and
/// the host copy of the input.
struct InPlace<B: ArrayBackend> {
    orig: Array<f64, B>,
    x: Array<f64, B>,
    host: Vec<f64>,
}

/// Boxes an in-place case: `reset` copies `orig` into `x` (reusing its memory), `op` updates
/// `x`, `check` compares `x` with `expect(host input)` exactly.
fn inplace_case<B: ArrayBackend>(
    dev: &B,
    host: Vec<f64>,
    shape: &[usize],
    op: impl Fn(&mut Array<f64, B>) -> Result<()> + 'static,
    expect: impl Fn(f64) -> f64 + 'static,
) -> Result<Box<dyn Case>> {
    let orig = Array::from_slice(&host, shape, dev)?;
    let x = orig.copy()?;
    Ok(Box::new(FnCase {
        dev: dev.clone(),
        events: None,
        state: InPlace { orig, x, host },
        out: None,
        reset: |s: &mut InPlace<B>| s.x.assign(&s.orig),
        run: move |s: &mut InPlace<B>| op(&mut s.x),
        check: move |s: &InPlace<B>, _: &()| {
            let want: Vec<f64> = s.host.iter().map(|&v| expect(v)).collect();
            exact(&download(&s.x)?, &want)
        },
    }))
}

/// Downloads an array for a check.
pub(crate) fn download<T: cuprite::Element, B: ArrayBackend>(
    a: &Array<T, B>,
) -> std::result::Result<Vec<T>, String> {
    a.to_vec().map_err(|e| format!("download failed: {e}"))
}

/// Checks that the shapes agree.
pub(crate) fn same_shape(got: &[usize], want: &[usize]) -> std::result::Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("shape {got:?}, expected {want:?}"))
    }
}

/// Exact element-wise equality, reporting the first mismatch.
pub(crate) fn exact<T: PartialEq + Debug>(
    got: &[T],
    want: &[T],
) -> std::result::Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} elements, expected {}", got.len(), want.len()));
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(i) => Err(format!(
            "element {i} is {:?}, expected {:?}",
            got[i], want[i]
        )),
    }
}

/// `|got - want| <= tol[i]` element-wise.
pub(crate) fn close(
    got: &[f64],
    want: &[f64],
    tol: impl Fn(usize) -> f64,
) -> std::result::Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} elements, expected {}", got.len(), want.len()));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        // Written so that a NaN anywhere fails.
        let within = (g - w).abs() <= tol(i);
        if !within {
            return Err(format!(
                "element {i} is {g}, expected {w} (tolerance {})",
                tol(i)
            ));
        }
    }
    Ok(())
}

/// Neumaier-compensated sum and the sum of magnitudes (for the tolerance).
pub(crate) fn host_sum(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut s, mut c, mut mag) = (0.0f64, 0.0f64, 0.0f64);
    for x in xs {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
        mag += x.abs();
    }
    (s + c, mag)
}

/// Relative tolerance of a summed result against the compensated host sum: well above the
/// rounding of any summation order for these sizes, far below a missing or doubled element.
pub(crate) const SUM_RTOL: f64 = 1e-9;

/// Prepares workload `w` on `dev`: uploads its inputs and returns the runnable case.
pub fn prepare<B: ArrayBackend>(w: &Workload, dev: &B) -> Result<Box<dyn Case>> {
    let n = w.elements();
    let dims = w.dims.clone();
    let d = dev.clone();
    Ok(match w.id {
        WorkloadId::Ones => case(
            dev,
            dims,
            move |dims: &mut Vec<usize>| Array::<f64, B>::ones(&dims[..], &d),
            |dims: &Vec<usize>, o: &Array<f64, B>| {
                same_shape(o.shape(), dims)?;
                exact(&download(o)?, &vec![1.0; dims.iter().product()])
            },
        ),
        WorkloadId::MulScalarInplace => inplace_case(
            dev,
            sin_wave(n),
            &dims,
            |x| api::mul_scalar_inplace(x, 5.0),
            |v| v * 5.0,
        )?,
        WorkloadId::ChainInplace => {
            inplace_case(dev, sin_wave(n), &dims, api::chain_inplace, |v| {
                let t = v * 5.0;
                let t = t * t;
                t + t
            })?
        }
        WorkloadId::Add | WorkloadId::AddSmall => {
            let ha = sin_wave(n);
            let hb = uniform(n, -1.0, 1.0, 11);
            let a = Array::from_slice(&ha, &dims, dev)?;
            let b = Array::from_slice(&hb, &dims, dev)?;
            let inner = w.inner.max(1);
            case(
                dev,
                (a, b, ha, hb),
                move |(a, b, _, _)| {
                    let mut out = a.try_add(b)?;
                    for _ in 1..inner {
                        out = a.try_add(b)?;
                    }
                    Ok(out)
                },
                |(_, _, ha, hb), o: &Array<f64, B>| {
                    let want: Vec<f64> = ha.iter().zip(hb).map(|(x, y)| x + y).collect();
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::Copy => {
            let host = sin_wave(n);
            let x = Array::from_slice(&host, &dims, dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| x.copy(),
                |(_, host), o: &Array<f64, B>| exact(&download(o)?, host),
            )
        }
        WorkloadId::Sum | WorkloadId::Norm => {
            let host = sin_wave(n);
            let x = Array::from_slice(&host, &dims, dev)?;
            let id = w.id;
            case(
                dev,
                (x, host),
                move |(x, _)| match id {
                    WorkloadId::Sum => api::sum(x),
                    _ => api::norm(x),
                },
                move |(_, host), o: &Array<f64, B>| {
                    same_shape(o.shape(), &[])?;
                    let got = download(o)?;
                    let want = if id == WorkloadId::Sum {
                        host_sum(host.iter().copied())
                    } else {
                        let (ss, mag) = host_sum(host.iter().map(|v| v * v));
                        (ss.sqrt(), mag.sqrt())
                    };
                    close(&got, &[want.0], |_| SUM_RTOL * want.1)
                },
            )
        }
        WorkloadId::SumAxis0 | WorkloadId::SumAxis1 => {
            let (rows, cols) = (dims[0], dims[1]);
            let host = sin_wave(n);
            let x = Array::from_slice(&host, &dims, dev)?;
            let axis = if w.id == WorkloadId::SumAxis0 { 0 } else { 1 };
            case(
                dev,
                (x, host),
                move |(x, _)| api::sum_axis(x, axis, false),
                move |(_, host), o: &Array<f64, B>| {
                    let lanes: Vec<(f64, f64)> = if axis == 0 {
                        same_shape(o.shape(), &[cols])?;
                        (0..cols)
                            .map(|j| host_sum((0..rows).map(|i| host[i * cols + j])))
                            .collect()
                    } else {
                        same_shape(o.shape(), &[rows])?;
                        host.chunks(cols)
                            .map(|r| host_sum(r.iter().copied()))
                            .collect()
                    };
                    let want: Vec<f64> = lanes.iter().map(|l| l.0).collect();
                    close(&download(o)?, &want, |i| SUM_RTOL * lanes[i].1)
                },
            )
        }
        WorkloadId::TransposeCopy => {
            let (rows, cols) = (dims[0], dims[1]);
            let host = sin_wave(n);
            let x = Array::from_slice(&host, &dims, dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| x.t().copy(),
                move |(_, host), o: &Array<f64, B>| {
                    same_shape(o.shape(), &[cols, rows])?;
                    let mut want = vec![0.0; n];
                    for i in 0..rows {
                        for j in 0..cols {
                            want[j * rows + i] = host[i * cols + j];
                        }
                    }
                    exact(&download(o)?, &want)
                },
            )
        }
        WorkloadId::SortF64 => sort_case(dev, sin_wave(n))?,
        WorkloadId::SortF32 => sort_case(dev, uniform_f32(n, 0.0, 1.0, 5))?,
        WorkloadId::Pipeline => {
            const COLS: usize = 1000;
            let host = uniform(n, 0.0, 1.0, 3);
            let x = Array::from_slice(&host, &dims, dev)?;
            case(
                dev,
                (x, host),
                |(x, _)| api::pipeline(x, COLS),
                move |(_, host), o: &Array<f64, B>| {
                    let rows = n / COLS;
                    same_shape(o.shape(), &[rows, COLS])?;
                    let mut m = host.clone();
                    m.sort_by(f64::total_cmp);
                    let mut want = vec![0.0; n];
                    for j in 0..COLS {
                        let col = || (0..rows).map(|i| m[i * COLS + j]);
                        let mean = host_sum(col()).0 / rows as f64;
                        let var = host_sum(col().map(|v| (v - mean) * (v - mean))).0 / rows as f64;
                        for i in 0..rows {
                            want[i * COLS + j] = (m[i * COLS + j] - mean) / var.sqrt();
                        }
                    }
                    close(&download(o)?, &want, |i| 1e-9 * (1.0 + want[i].abs()))
                },
            )
        }
        WorkloadId::MatmulF64 => matmul_case(dev, dims[0], |v| v, 1e-14)?,
        WorkloadId::MatmulF32 => matmul_case(dev, dims[0], |v| v as f32, 1e-7)?,
        WorkloadId::SvdF64 => crate::cases_linalg::svd_case(dev, dims[0])?,
        WorkloadId::InvF64 => crate::cases_linalg::inv_case(dev, dims[0])?,
        WorkloadId::SolveF64 => crate::cases_linalg::solve_case(dev, dims[0])?,
        WorkloadId::CholeskyF64 => crate::cases_linalg::cholesky_case(dev, dims[0])?,
        WorkloadId::QrF64 => crate::cases_linalg::qr_case(dev, dims[0])?,
        WorkloadId::RandomF64 | WorkloadId::RandomF64Rng => {
            crate::cases_spectral::random_case(dev, &dims)?
        }
        WorkloadId::FftC128 | WorkloadId::FftBatch => crate::cases_spectral::fft_case(dev, &dims)?,
        WorkloadId::HistogramF64
        | WorkloadId::BincountI64
        | WorkloadId::AddAtF64
        | WorkloadId::IsinI64
        | WorkloadId::Intersect1dI64
        | WorkloadId::Lexsort2Keys => crate::cases_counting::counting_case(w.id, dev, n)?,
        WorkloadId::InterpF64 | WorkloadId::ConvolveF64 => {
            crate::cases_signal::signal_case(w.id, dev, n)?
        }
        id if id.is_everyday() => crate::cases_everyday::everyday_case(id, dev, n)?,
        other => {
            return Err(cuprite::Error::invalid(
                "prepare",
                format!("no case for {}", other.key()),
            ));
        }
    })
}

/// A sort of the 1-d host data `host`, checked against `slice::sort_by(total_cmp)`.
fn sort_case<T, B>(dev: &B, host: Vec<T>) -> Result<Box<dyn Case>>
where
    T: cuprite::Float + Debug,
    B: ArrayBackend,
{
    let x = Array::from_slice(&host, &[host.len()], dev)?;
    Ok(case(
        dev,
        (x, host),
        |(x, _)| api::sort(x, -1),
        |(_, host), o: &Array<T, B>| {
            let mut want = host.clone();
            want.sort_by(|a, b| a.sort_cmp(b));
            exact(&download(o)?, &want)
        },
    ))
}

/// `a @ b` of `n x n` uniform matrices in `T`, checked by Freivalds' test: `C r` against
/// `A (B r)` in f64 for a random sign vector `r`, with the tolerance `eps_n * (|A| |B| 1)`:
/// far above the rounding of a correct product, far below one wrong element of `C`.
fn matmul_case<T, B>(
    dev: &B,
    n: usize,
    conv: impl Fn(f64) -> T,
    eps_n: f64,
) -> Result<Box<dyn Case>>
where
    T: cuprite::Numeric + num_to_f64::ToF64,
    B: ArrayBackend,
{
    let ha: Vec<T> = uniform(n * n, -1.0, 1.0, 21)
        .into_iter()
        .map(&conv)
        .collect();
    let hb: Vec<T> = uniform(n * n, -1.0, 1.0, 22)
        .into_iter()
        .map(&conv)
        .collect();
    let a = Array::from_slice(&ha, &[n, n], dev)?;
    let b = Array::from_slice(&hb, &[n, n], dev)?;
    Ok(case(
        dev,
        (a, b, ha, hb),
        |(a, b, _, _)| api::matmul(a, b),
        move |(_, _, ha, hb), o: &Array<T, B>| {
            same_shape(o.shape(), &[n, n])?;
            let c = download(o)?;
            let r: Vec<f64> = uniform(n, -1.0, 1.0, 23)
                .iter()
                .map(|v| v.signum())
                .collect();
            let matvec = |m: &[T], v: &[f64], abs: bool| -> Vec<f64> {
                m.chunks(n)
                    .map(|row| {
                        row.iter()
                            .zip(v)
                            .map(|(x, y)| {
                                if abs {
                                    x.to_f64().abs() * y
                                } else {
                                    x.to_f64() * y
                                }
                            })
                            .sum()
                    })
                    .collect()
            };
            let br = matvec(hb, &r, false);
            let want = matvec(ha, &br, false);
            let ones = vec![1.0; n];
            let bound = matvec(ha, &matvec(hb, &ones, true), true);
            let got = matvec(&c, &r, false);
            close(&got, &want, |i| eps_n * bound[i])
        },
    ))
}

/// Conversion of the matmul element types to f64 for the host check.
mod num_to_f64 {
    /// A lossless widening to `f64`.
    pub trait ToF64: Copy {
        /// The value as `f64`.
        fn to_f64(self) -> f64;
    }
    impl ToF64 for f32 {
        fn to_f64(self) -> f64 {
            self as f64
        }
    }
    impl ToF64 for f64 {
        fn to_f64(self) -> f64 {
            self
        }
    }
}
