//! The GPU side of the `multi_gpu` bench (feature `cuda`): opens the GPUs, times
//! `Array::to_device` between two of them and on one, and times `all_reduce_in_place` and
//! `all_reduce` of `cuprite::cuda::dist` over communicators made by
//! `Communicator::new_all` (one process driving every GPU, each collective called for every
//! rank inside one `dist::group`).
//!
//! Every figure starts with one call whose result is checked (a few elements read back and
//! compared on the host with values computed from the input pattern, then the whole array
//! compared on the device with one built independently from the pattern); a failed check
//! is the figure's `WRONG RESULT` and nothing is timed. A run is: the in-place input reset,
//! every GPU synchronised, a CUDA event on each stream that does the work, the calls, an
//! event after them; its time is the longest of the streams' and is divided by the calls.

use crate::check::{check_samples, nccl_version_text, sample_indices, scaled};
use crate::options::{inner, size_label, Options};
use crate::table::{CopyRow, Outcome, ReduceRow, Time};
use cuprite::cuda::dist::{group, Communicator, ReduceOp};
use cuprite::{s, Array, Cuda};

type CudaResult<T> = cuprite::Result<T>;

/// Device memory a size needs free on each GPU, in multiples of the size (inputs, results,
/// the expected arrays, the comparison's temporaries).
const ROOM: usize = 5;

fn err(e: cuprite::Error) -> String {
    format!("error: {e}")
}

/// Why the GPUs could not be opened.
pub enum Open {
    /// No GPU at all (the reason): nothing to measure.
    NoGpu(String),
    /// Fewer GPUs than `--gpus` asks for.
    TooFew(String),
}

/// GPUs `0..want` (every GPU of the host when `want` is `None`).
pub fn open(want: Option<usize>) -> Result<Vec<Cuda>, Open> {
    let count = Cuda::device_count();
    if count == 0 {
        let why = match Cuda::new(0) {
            Err(e) => e.to_string(),
            Ok(_) => "the driver reports no device".into(),
        };
        return Err(Open::NoGpu(why));
    }
    let n = want.unwrap_or(count);
    if n > count {
        return Err(Open::TooFew(format!(
            "--gpus {n}: this machine has {count} GPU{}",
            if count == 1 { "" } else { "s" }
        )));
    }
    (0..n)
        .map(Cuda::new)
        .collect::<CudaResult<Vec<_>>>()
        .map_err(|e| Open::NoGpu(e.to_string()))
}

/// `8 x NVIDIA H200 (140.4 GiB each)`, or each GPU's name when they differ.
pub fn describe(devs: &[Cuda]) -> String {
    let gib = |d: &Cuda| d.total_memory() as f64 / (1u64 << 30) as f64;
    let first = &devs[0];
    if devs.iter().all(|d| d.name() == first.name()) {
        format!(
            "{} x {} ({:.1} GiB each, compute capability {}.{})",
            devs.len(),
            first.name(),
            gib(first),
            first.compute_capability().0,
            first.compute_capability().1
        )
    } else {
        let each: Vec<String> = devs
            .iter()
            .map(|d| format!("cuda:{} {} ({:.1} GiB)", d.ordinal(), d.name(), gib(d)))
            .collect();
        format!("{} GPUs: {}", devs.len(), each.join(", "))
    }
}

/// Returns the memory the pools of `devs` hold to the driver (before the reference runs).
pub fn release(devs: &[Cuda]) {
    for d in devs {
        if let Err(e) = d.free_cached() {
            eprintln!("multi_gpu: cuda:{}: {e}", d.ordinal());
        }
    }
}

/// `SKIPPED: ...` unless every GPU of `devs` has [`ROOM`] times `bytes` free.
fn room(devs: &[&Cuda], bytes: usize) -> Result<(), String> {
    for d in devs {
        d.free_cached().map_err(err)?;
        let free = d.free_memory().map_err(err)?;
        if free / ROOM < bytes {
            return Err(format!(
                "SKIPPED: needs about {ROOM} x {} free on cuda:{}, which has {:.1} GiB",
                size_label(bytes),
                d.ordinal(),
                free as f64 / (1u64 << 30) as f64
            ));
        }
    }
    Ok(())
}

/// `n` elements of `pattern` repeated, on `dev`.
fn tiled(pattern: &[f32], n: usize, dev: &Cuda) -> CudaResult<Array<f32, Cuda>> {
    let p = Array::from_vec(pattern.to_vec(), &[pattern.len()], dev)?;
    let t = p.tile(&[n.div_ceil(pattern.len())])?;
    if t.size() == n {
        Ok(t)
    } else {
        t.slice(&s![..n])?.copy()
    }
}

/// The elements of `a` that [`sample_indices`] names, read back one by one.
fn samples(a: &Array<f32, Cuda>) -> CudaResult<Vec<(usize, f32)>> {
    sample_indices(a.size())
        .into_iter()
        .map(|i| Ok((i, a.slice(&s![i..i + 1])?.item()?)))
        .collect()
}

/// Checks `got` against `factor` times the pattern: sampled elements on the host, then
/// every element against `expected` on the device.
fn verify(
    got: &Array<f32, Cuda>,
    expected: &Array<f32, Cuda>,
    pattern: &[f32],
    factor: usize,
    what: &str,
) -> Result<(), String> {
    let wrong = |e: String| format!("WRONG RESULT: {what}: {e}");
    if got.shape() != expected.shape() {
        return Err(wrong(format!(
            "shape {:?}, expected {:?}",
            got.shape(),
            expected.shape()
        )));
    }
    check_samples(&samples(got).map_err(err)?, pattern, factor).map_err(wrong)?;
    let same = got
        .array_equal(expected, false)
        .and_then(|b| b.item())
        .map_err(err)?;
    if !same {
        return Err(wrong(
            "differs from the expected array (the sampled elements match)".into(),
        ));
    }
    Ok(())
}

/// Waits for all work on every GPU of `devs`.
fn sync(devs: &[&Cuda]) -> Result<(), String> {
    for d in devs {
        d.synchronize_device().map_err(err)?;
    }
    Ok(())
}

/// Times `calls` calls of `call` per run on the streams of `devs`: `warmup` untimed runs,
/// then `runs` timed ones; each run starts from `reset()` with every GPU idle. The time of
/// a run is the longest of the streams', per call.
fn time_runs<S>(
    devs: &[&Cuda],
    calls: usize,
    o: &Options,
    mut reset: impl FnMut() -> CudaResult<S>,
    mut call: impl FnMut(&mut S) -> CudaResult<()>,
) -> Outcome {
    let mut ms = Vec::with_capacity(o.runs);
    for run in 0..o.warmup + o.runs {
        let mut state = reset().map_err(err)?;
        sync(devs)?;
        let starts = devs
            .iter()
            .map(|d| d.record())
            .collect::<CudaResult<Vec<_>>>()
            .map_err(err)?;
        for _ in 0..calls {
            call(&mut state).map_err(err)?;
        }
        let ends = devs
            .iter()
            .map(|d| d.record())
            .collect::<CudaResult<Vec<_>>>()
            .map_err(err)?;
        let mut secs = 0.0f64;
        for (start, end) in starts.iter().zip(&ends) {
            secs = secs.max(end.elapsed_since(start).map_err(err)?);
        }
        drop(state);
        if run >= o.warmup {
            ms.push(secs * 1e3 / calls as f64);
        }
    }
    Time::from_samples(&ms).ok_or_else(|| "error: no timed runs".into())
}

/// The copy table's rows: `Array::to_device` of an f32 array from `src` to `dst` (the
/// same GPU: a device copy) at every size.
pub fn copy_rows(
    src: &Cuda,
    dst: &Cuda,
    sizes: &[usize],
    o: &Options,
    pattern: &[f32],
) -> Vec<CopyRow> {
    sizes
        .iter()
        .map(|&bytes| {
            let ours = copy_figure(src, dst, bytes, o, pattern);
            progress(
                &format!("to_device cuda:{} -> cuda:{}", src.ordinal(), dst.ordinal()),
                bytes,
                &ours,
            );
            CopyRow {
                bytes,
                ours,
                theirs: None,
            }
        })
        .collect()
}

fn copy_figure(src: &Cuda, dst: &Cuda, bytes: usize, o: &Options, pattern: &[f32]) -> Outcome {
    room(&[src, dst], bytes)?;
    let n = bytes / 4;
    let a = tiled(pattern, n, src).map_err(err)?;
    {
        let expected = tiled(pattern, n, dst).map_err(err)?;
        let b = a.to_device(dst).map_err(err)?;
        if b.device() != dst {
            return Err(format!(
                "WRONG RESULT: the copy is on {:?}, not on cuda:{}",
                b.device(),
                dst.ordinal()
            ));
        }
        let what = format!("to_device cuda:{} -> cuda:{}", src.ordinal(), dst.ordinal());
        verify(&b, &expected, pattern, 1, &what)?;
    }
    time_runs(
        &[dst, src],
        inner(bytes),
        o,
        || Ok(()),
        |_| a.to_device(dst).map(drop),
    )
}

/// One rank per GPU of `devs`, `all_reduce_in_place` (sum) on each.
fn in_place(comms: &[Communicator], xs: &mut [Array<f32, Cuda>]) -> CudaResult<()> {
    group(|| {
        for (c, x) in comms.iter().zip(xs.iter_mut()) {
            c.all_reduce_in_place(x, ReduceOp::Sum)?;
        }
        Ok(())
    })
}

/// `all_reduce` (sum) into new arrays on every rank. The results are returned, not dropped
/// inside the group: NCCL writes them when the group ends.
fn out_of_place(
    comms: &[Communicator],
    xs: &[Array<f32, Cuda>],
) -> CudaResult<Vec<Array<f32, Cuda>>> {
    group(|| {
        comms
            .iter()
            .zip(xs)
            .map(|(c, x)| c.all_reduce(x, ReduceOp::Sum))
            .collect()
    })
}

fn copies(xs: &[Array<f32, Cuda>]) -> CudaResult<Vec<Array<f32, Cuda>>> {
    xs.iter().map(|x| x.copy()).collect()
}

/// The all_reduce table of one communicator size, and the NCCL version.
pub struct ReduceRun {
    pub rows: Vec<ReduceRow>,
    /// The version of the NCCL library the communicators use (`2.28.3`), when it can be read.
    pub nccl: Option<String>,
}

/// The all_reduce rows on one communicator over `devs` (rank `i` on `devs[i]`).
///
/// # Errors
/// The communicators cannot be created (no NCCL on this machine, NCCL's failures).
pub fn reduce_rows(
    devs: &[Cuda],
    sizes: &[usize],
    o: &Options,
    pattern: &[f32],
) -> Result<ReduceRun, String> {
    let comms =
        Communicator::new_all(devs).map_err(|e| format!("cannot create the communicators: {e}"))?;
    let nccl = nccl_version();
    let world = comms.len();
    let rows = sizes
        .iter()
        .map(|&bytes| {
            let (in_place, out_of_place) = match reduce_figures(&comms, bytes, o, pattern) {
                Ok(pair) => pair,
                Err(e) => (Err(e.clone()), Err(e)),
            };
            progress(&format!("all_reduce_in_place x{world}"), bytes, &in_place);
            progress(&format!("all_reduce x{world}"), bytes, &out_of_place);
            ReduceRow {
                bytes,
                in_place,
                out_of_place,
                theirs: None,
            }
        })
        .collect();
    Ok(ReduceRun { rows, nccl })
}

/// The in-place and out-of-place figures at one size, each checked first.
fn reduce_figures(
    comms: &[Communicator],
    bytes: usize,
    o: &Options,
    pattern: &[f32],
) -> Result<(Outcome, Outcome), String> {
    let devs: Vec<&Cuda> = comms.iter().map(|c| c.device()).collect();
    room(&devs, bytes)?;
    let world = comms.len();
    let n = bytes / 4;
    let inputs = devs
        .iter()
        .map(|d| tiled(pattern, n, d))
        .collect::<CudaResult<Vec<_>>>()
        .map_err(err)?;
    let (in_place_checked, out_of_place_checked) = {
        let want = scaled(pattern, world);
        let expected = devs
            .iter()
            .map(|d| tiled(&want, n, d))
            .collect::<CudaResult<Vec<_>>>()
            .map_err(err)?;
        let check = |got: &[Array<f32, Cuda>], what: &str| -> Result<(), String> {
            for (r, (x, e)) in got.iter().zip(&expected).enumerate() {
                verify(
                    x,
                    e,
                    pattern,
                    world,
                    &format!("{what} on rank {r} of {world}"),
                )?;
            }
            Ok(())
        };
        let ip = copies(&inputs).map_err(err).and_then(|mut xs| {
            in_place(comms, &mut xs).map_err(err)?;
            check(&xs, "all_reduce_in_place")
        });
        let oop = out_of_place(comms, &inputs)
            .map_err(err)
            .and_then(|outs| check(&outs, "all_reduce"))
            .and_then(|()| {
                // The input of an out-of-place call stays as it was.
                for (r, x) in inputs.iter().enumerate() {
                    check_samples(&samples(x).map_err(err)?, pattern, 1).map_err(|e| {
                        format!("WRONG RESULT: all_reduce changed its input on rank {r}: {e}")
                    })?;
                }
                Ok(())
            });
        (ip, oop)
    };
    let calls = inner(bytes);
    let ip = in_place_checked.and_then(|()| {
        time_runs(
            &devs,
            calls,
            o,
            || copies(&inputs),
            |xs| in_place(comms, xs),
        )
    });
    let oop = out_of_place_checked.and_then(|()| {
        time_runs(
            &devs,
            calls,
            o,
            || Ok(()),
            |_| out_of_place(comms, &inputs).map(drop),
        )
    });
    Ok((ip, oop))
}

/// The version of the NCCL library loaded (it is loaded once the communicators exist).
fn nccl_version() -> Option<String> {
    cuprite::cuda::dist::nccl_version()
        .ok()
        .map(nccl_version_text)
}

/// One line on stderr per figure, as it is taken.
fn progress(what: &str, bytes: usize, o: &Outcome) {
    match o {
        Ok(t) => eprintln!(
            "  {what:<28} {:>8}: {:>9.4} ms  {:>8} GB/s",
            size_label(bytes),
            t.median_ms,
            crate::table::rate(crate::table::gbps(bytes, t.median_ms))
        ),
        Err(e) => eprintln!("  {what:<28} {:>8}: {e}", size_label(bytes)),
    }
}
