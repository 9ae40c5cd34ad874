//! The comparison runner: times every workload on each cuprite backend (median of N runs
//! after a warm-up whose result is checked), then runs the NumPy and CuPy scripts on the same
//! workload list, and gathers everything in one [`Report`].
//!
//! A timed run is: untimed reset of in-place inputs and a device sync, then a timing event,
//! the op, a timing event and `dev.synchronize()`. The reported time is the device time
//! between the events (CUDA events on a GPU, the way `cupyx.profiler.benchmark` times CuPy;
//! the wall clock on the CPU); the wall time to the end of the sync is kept beside it.

use crate::cases::{prepare, Case};
use crate::options::CompareOptions;
use crate::progress::Progress;
use crate::python::{cupy_available, numpy_available, run_script};
use crate::report::{DeviceKind, Report, SystemRun};
use crate::workloads::Workload;
use cuprite::ArrayBackend;
#[cfg(feature = "cuda")]
use cuprite::BackendBase;
use std::collections::HashMap;

/// Median and minimum of the timed runs of one workload, per call. The times are device
/// times (timing events around the call: CUDA events on a GPU, as CuPy's benchmark; the
/// wall clock on the CPU) unless `wall_only`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Median time per call in milliseconds.
    pub median_ms: f64,
    /// Fastest time per call in milliseconds.
    pub min_ms: f64,
    /// Median wall-clock time per call from an idle device to the end of a device sync, in
    /// milliseconds, where measured.
    pub wall_median_ms: Option<f64>,
    /// Whether the device timer failed, so `median_ms` and `min_ms` are wall-clock times.
    pub wall_only: bool,
}

impl Timing {
    /// A timing whose times are all the same clock's.
    pub fn new(median_ms: f64, min_ms: f64) -> Timing {
        Timing {
            median_ms,
            min_ms,
            wall_median_ms: None,
            wall_only: false,
        }
    }
}

/// The median of a non-empty list.
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[m]
    } else {
        0.5 * (xs[m - 1] + xs[m])
    }
}

/// Runs a case: one warm-up run whose result is checked (untimed), then `runs` timed runs,
/// each after an untimed reset. Times are per call (`inner` calls per run): device times,
/// or wall times with a message on stderr when the device timer fails.
pub fn time_case(case: &mut dyn Case, inner: usize, runs: usize) -> Result<Timing, String> {
    let err = |e: cuprite::Error| format!("error: {e}");
    case.reset().map_err(err)?;
    case.run().map_err(err)?;
    case.check().map_err(|e| format!("WRONG RESULT: {e}"))?;
    case.release();
    let per_call = |s: f64| s * 1e3 / inner.max(1) as f64;
    let mut wall = Vec::with_capacity(runs);
    let mut device = Vec::with_capacity(runs);
    let mut timer_error = None;
    for _ in 0..runs.max(1) {
        case.reset().map_err(err)?;
        let t = case.run().map_err(err)?;
        case.release();
        wall.push(per_call(t.wall_s));
        match t.device_s {
            Ok(s) => device.push(per_call(s)),
            Err(e) => timer_error = Some(e),
        }
    }
    let wall_median_ms = Some(median(&mut wall.clone()));
    let wall_only = timer_error.is_some();
    if let Some(e) = timer_error {
        eprintln!("  device timer failed ({e}); reporting wall-clock times");
        device = wall;
    }
    let min_ms = device.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Timing {
        median_ms: median(&mut device),
        min_ms,
        wall_median_ms,
        wall_only,
    })
}

/// Times every workload on `dev`, printing one line per workload to stderr as it goes.
pub fn time_backend<B: ArrayBackend>(
    dev: &B,
    workloads: &[Workload],
    runs: usize,
) -> HashMap<String, Result<Timing, String>> {
    let bar = Progress::new(workloads.len(), &dev.label());
    let out = workloads
        .iter()
        .map(|w| {
            let r = prepare(w, dev)
                .map_err(|e| format!("error: {e}"))
                .and_then(|mut case| time_case(case.as_mut(), w.inner, runs));
            bar.line(&match &r {
                Ok(t) => format!(
                    "  {:<20} {:>12.4} ms (min {:.4}, wall with sync {:.4})",
                    w.id.key(),
                    t.median_ms,
                    t.min_ms,
                    t.wall_median_ms.unwrap_or(f64::NAN)
                ),
                Err(e) => format!("  {:<20} {e}", w.id.key()),
            });
            bar.inc();
            (w.id.key().to_string(), r)
        })
        .collect();
    bar.finish();
    out
}

/// Times the workloads on one cuprite backend.
fn cuprite_system<B: ArrayBackend>(
    dev: &B,
    key: &str,
    device: DeviceKind,
    about: String,
    opts: &CompareOptions,
    workloads: &[Workload],
) -> SystemRun {
    eprintln!(
        "cuprite-{key} ({about}): {} workloads, scale {}, median of {} runs",
        workloads.len(),
        opts.scale,
        opts.runs
    );
    SystemRun {
        key: key.to_string(),
        title: format!("cuprite-{key}"),
        cuprite: true,
        device,
        about,
        results: time_backend(dev, workloads, opts.runs),
        raw: HashMap::new(),
    }
}

/// Runs cuprite backend `name` when it is compiled in and available; otherwise says why in
/// the report (a note, or a problem when the backend was asked for by name).
fn run_cuprite(name: &str, named: bool, opts: &CompareOptions, report: &mut Report) {
    let workloads = report.workloads.clone();
    let skip = |report: &mut Report, why: String| {
        let msg = format!("cuprite-{name} skipped: {why}");
        eprintln!("{msg}");
        if named {
            report.problems.push(msg.clone());
        }
        report.notes.push(msg);
    };
    match name {
        "cpu" => {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let about = format!("host CPU, {threads} hardware threads");
            let s = cuprite_system(
                &cuprite::Cpu::new(),
                "cpu",
                DeviceKind::Cpu,
                about,
                opts,
                &workloads,
            );
            report.systems.push(s);
        }
        "cuda" => {
            #[cfg(feature = "cuda")]
            match cuprite::Cuda::new(0) {
                Ok(dev) => {
                    let (major, minor) = dev.compute_capability();
                    let about = format!(
                        "{} = {}, compute capability {major}.{minor}, {} SMs, {:.0} GiB",
                        dev.label(),
                        dev.name(),
                        dev.multiprocessor_count(),
                        dev.total_memory() as f64 / (1u64 << 30) as f64
                    );
                    let s = cuprite_system(&dev, "cuda", DeviceKind::Gpu, about, opts, &workloads);
                    report.systems.push(s);
                    // Hand the pool's cached memory back before CuPy runs in its own process.
                    if let Err(e) = dev.free_cached() {
                        report
                            .notes
                            .push(format!("freeing cuda's cache failed: {e}"));
                    }
                }
                Err(e) => skip(report, e.to_string()),
            }
            #[cfg(not(feature = "cuda"))]
            skip(
                report,
                "not compiled in (build cuprite-benches with --features cuda)".into(),
            );
        }
        other => skip(report, format!("unknown backend {other:?}")),
    }
}

/// Runs a Python script when its library is importable, adding a system or a note.
fn run_python(
    opts: &CompareOptions,
    report: &mut Report,
    key: &str,
    title: &str,
    device: DeviceKind,
    available: fn(&str) -> Result<(), String>,
) {
    let script = match key {
        "numpy" => opts.numpy_script(),
        _ => opts.cupy_script(),
    };
    if let Err(why) = available(&opts.python) {
        report
            .notes
            .push(format!("{title} not run ({} -c: {why})", opts.python));
        return;
    }
    eprintln!("{title}: running {}", script.display());
    match run_script(opts, &script, &report.workloads) {
        Ok(r) => report.systems.push(SystemRun {
            key: key.into(),
            title: title.into(),
            cuprite: false,
            device,
            about: r.about,
            results: r.results,
            raw: r.raw,
        }),
        Err(e) => {
            eprintln!("{title} failed: {e}");
            report.problems.push(format!("{title} failed: {e}"));
        }
    }
}

/// The whole comparison: the cuprite backends first, then NumPy and CuPy in subprocesses.
pub fn run_all(opts: &CompareOptions) -> Report {
    let mut report = Report {
        scale: opts.scale,
        runs: opts.runs,
        workloads: opts.workloads(),
        systems: Vec::new(),
        notes: Vec::new(),
        problems: Vec::new(),
    };
    for (name, named) in opts.backend_list() {
        run_cuprite(&name, named, opts, &mut report);
    }
    if opts.numpy {
        run_python(
            opts,
            &mut report,
            "numpy",
            "NumPy",
            DeviceKind::Cpu,
            numpy_available,
        );
    }
    if opts.cupy {
        run_python(
            opts,
            &mut report,
            "cupy",
            "CuPy",
            DeviceKind::Gpu,
            cupy_available,
        );
    }
    report
}

/// Runs the comparison, prints the table on stdout, writes the `--json`/`--markdown` files
/// and returns the process exit code: 0, or 1 when anything failed (listed on stderr).
pub fn run_comparison(opts: &CompareOptions) -> i32 {
    let report = run_all(opts);
    let md = report.markdown();
    println!("{md}");
    let mut code = 0;
    let write = |path: &std::path::Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(p) = &opts.markdown {
        if let Err(e) = write(p, md) {
            eprintln!("{e}");
            code = 1;
        }
    }
    if let Some(p) = &opts.json {
        let text = serde_json::to_string_pretty(&report.json()).unwrap_or_default();
        if let Err(e) = write(p, text + "\n") {
            eprintln!("{e}");
            code = 1;
        }
    }
    let failures = report.failures();
    if !failures.is_empty() {
        eprintln!("FAILED ({}):", failures.len());
        for f in &failures {
            eprintln!("  {f}");
        }
        code = 1;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn cpu_run_of_small_workloads_checks_out() {
        let opts = CompareOptions {
            scale: 0.001,
            runs: 1,
            only: Some(vec!["add".into(), "sum_axis0".into()]),
            backends: Some(vec!["cpu".into()]),
            numpy: false,
            cupy: false,
            ..CompareOptions::default()
        };
        let r = run_all(&opts);
        assert_eq!(r.systems.len(), 1);
        assert_eq!(r.workloads.len(), 3);
        assert!(r.failures().is_empty(), "{:?}", r.failures());
    }
}
