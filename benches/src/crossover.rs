//! The crossover sweep of `cargo xtask bench --crossover OP`: one workload timed at a ladder
//! of sizes on every cuprite backend and in NumPy and CuPy, to find the size from which one
//! system is faster than another (a GPU pays a fixed cost per call for launch and sync, a CPU
//! pays per element, so the GPU wins from some size on). The sweep is drawn by
//! [`crate::plot`] (time against size, log-log, one line per system).
//!
//! Times here are what a caller waits for one call: for cuprite and CuPy the wall time from
//! the call to the end of a device sync (a GPU's device time alone would hide the launch and
//! sync costs that decide the crossover), for the CPU systems the wall time of the call.
//! Every size's result is checked once, untimed, as in the table.

use crate::compare::{time_case, Timing};
use crate::options::CompareOptions;
use crate::progress::Progress;
use crate::python::{cupy_available, numpy_available, run_script};
use crate::report::ms;
use crate::workloads::{default_workloads, Workload, WorkloadId};
use cuprite::ArrayBackend;
use serde_json::{json, Value};

/// The smallest input (elements) a sweep goes down to.
pub const MIN_ELEMENTS: usize = 1000;

/// The most sizes in a sweep.
pub const MAX_POINTS: usize = 12;

/// The sizes of a sweep of `id`: the workload at `scale` and then at `scale / 4^k`, down to
/// about [`MIN_ELEMENTS`] elements (or [`MAX_POINTS`] sizes), smallest first, without
/// repeats. Shapes follow [`default_workloads`], so every size is a shape the table uses at
/// some scale. `Err` for the per-call probe, whose size is fixed.
pub fn sweep_sizes(id: WorkloadId, scale: f64) -> Result<Vec<Workload>, String> {
    if id == WorkloadId::AddSmall {
        return Err(format!(
            "--crossover {}: the per-call probe has a fixed size; sweep `add` instead",
            id.key()
        ));
    }
    let mut sizes: Vec<Workload> = Vec::new();
    let mut s = scale;
    while sizes.len() < MAX_POINTS {
        let w = default_workloads(s)
            .into_iter()
            .find(|w| w.id == id)
            .expect("every id has a workload");
        let n = w.elements();
        // Shapes with a fixed part (rows of 10 000) stop shrinking at one row.
        if sizes.last().is_some_and(|l| l.elements() <= n) {
            break;
        }
        sizes.push(w);
        if n <= MIN_ELEMENTS {
            break;
        }
        s /= 4.0;
    }
    sizes.reverse();
    Ok(sizes)
}

/// One system's times across the sweep (`None` where it failed; the error is in `errors`).
#[derive(Clone, Debug)]
pub struct Series {
    /// Short key (`cpu`, `cuda`, `numpy`, `cupy`).
    pub key: String,
    /// Legend title (`cuprite-cuda`, `NumPy`).
    pub title: String,
    /// Whether this is a cuprite backend.
    pub cuprite: bool,
    /// Time per call in milliseconds at each size of the sweep.
    pub ms: Vec<Option<f64>>,
    /// Errors by size index.
    pub errors: Vec<(usize, String)>,
}

/// The time a caller waits for one call: the wall time to the end of the sync where it was
/// measured, else the (wall-clock) median.
fn caller_ms(t: &Timing) -> f64 {
    t.wall_median_ms.unwrap_or(t.median_ms)
}

impl Series {
    fn from_results(
        key: &str,
        title: &str,
        cuprite: bool,
        results: Vec<Result<Timing, String>>,
    ) -> Series {
        let mut s = Series {
            key: key.into(),
            title: title.into(),
            cuprite,
            ms: Vec::new(),
            errors: Vec::new(),
        };
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(t) => s.ms.push(Some(caller_ms(&t))),
                Err(e) => {
                    s.ms.push(None);
                    s.errors.push((i, e));
                }
            }
        }
        s
    }
}

/// Where one system starts or stops beating another over a sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum Crossing {
    /// Faster at every size both ran.
    Always,
    /// Slower (or as fast) at every size both ran.
    Never,
    /// Slower at some size, then faster at every larger one (a GPU against a CPU).
    FasterFrom(Bracket),
    /// Faster at some size, then slower at every larger one (less overhead per call, less
    /// throughput).
    SlowerFrom(Bracket),
    /// No size where both have a time.
    Unknown,
}

/// Where the last change of the faster system lies.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    /// The largest swept size (elements) on the other side of the change.
    pub below: usize,
    /// The smallest swept size from which the order holds at every larger size.
    pub at: usize,
    /// The size where the times are equal, by log-log interpolation of the time ratio.
    pub estimate: f64,
}

/// How `a` compares with `b` over the sizes `n` (elements, ascending): where its last change
/// from slower to faster (or back) happens.
pub fn crossing(n: &[usize], a: &[Option<f64>], b: &[Option<f64>]) -> Crossing {
    let pts: Vec<(usize, f64)> = n
        .iter()
        .zip(a.iter().zip(b))
        .filter_map(|(&n, (x, y))| Some((n, (*x)? / (*y)?)))
        .collect();
    let Some(&(_, last)) = pts.last() else {
        return Crossing::Unknown;
    };
    let faster = |r: f64| r < 1.0;
    let wins = faster(last);
    match pts.iter().rposition(|&(_, r)| faster(r) != wins) {
        None if wins => Crossing::Always,
        None => Crossing::Never,
        Some(i) => {
            let (n0, r0) = pts[i];
            let (n1, r1) = pts[i + 1];
            // log r is linear in log n between the two sizes; find where it is 0.
            let (x0, x1) = ((n0 as f64).ln(), (n1 as f64).ln());
            let (y0, y1) = (r0.ln(), r1.ln());
            let x = if y0 == y1 {
                x1
            } else {
                x0 + (x1 - x0) * y0 / (y0 - y1)
            };
            let bracket = Bracket {
                below: n0,
                at: n1,
                estimate: x.exp(),
            };
            if wins {
                Crossing::FasterFrom(bracket)
            } else {
                Crossing::SlowerFrom(bracket)
            }
        }
    }
}

/// A whole sweep: its sizes and every system's series.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The workload swept.
    pub id: WorkloadId,
    /// The sizes, smallest first.
    pub sizes: Vec<Workload>,
    /// Timed runs per size.
    pub runs: usize,
    /// One series per system that ran, cuprite backends first.
    pub series: Vec<Series>,
    /// Lines naming each system's version and device.
    pub about: Vec<String>,
    /// Why a system did not run.
    pub notes: Vec<String>,
    /// What makes the sweep fail: wrong results, cuprite errors, a named backend missing.
    pub problems: Vec<String>,
}

impl Sweep {
    /// The element count of each size.
    pub fn elements(&self) -> Vec<usize> {
        self.sizes.iter().map(Workload::elements).collect()
    }

    /// Every crossing of a cuprite series over another series, as sentences.
    pub fn crossings(&self) -> Vec<String> {
        let n = self.elements();
        let mut out = Vec::new();
        for a in self.series.iter().filter(|s| s.cuprite) {
            for b in self.series.iter().filter(|b| b.key != a.key) {
                let what = match crossing(&n, &a.ms, &b.ms) {
                    Crossing::Always => "faster at every size swept".to_string(),
                    Crossing::Never => "slower at every size swept".to_string(),
                    Crossing::FasterFrom(c) => format!(
                        "faster from about {:.0} elements on (slower at {}, faster from {})",
                        c.estimate, c.below, c.at
                    ),
                    Crossing::SlowerFrom(c) => format!(
                        "faster up to about {:.0} elements, slower beyond (faster at {}, \
                         slower from {})",
                        c.estimate, c.below, c.at
                    ),
                    Crossing::Unknown => "no size where both ran".to_string(),
                };
                out.push(format!("{} against {}: {what}", a.title, b.title));
            }
        }
        out
    }

    /// The caption, the crossings and a table of times (rows: sizes; columns: systems).
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "Crossover sweep of {} ({}): time per call in ms as the caller waits for it (for \
             the GPU systems the wall time to the end of a device sync), median of {} runs \
             after a checked warm-up.\n\n",
            self.id.key(),
            self.id.description(),
            self.runs
        );
        for a in &self.about {
            out += &format!("- {a}\n");
        }
        for n in &self.notes {
            out += &format!("- note: {n}\n");
        }
        for c in self.crossings() {
            out += &format!("- {c}\n");
        }
        out += "\n| size | elements |";
        for s in &self.series {
            out += &format!(" {} ms |", s.title);
        }
        out += "\n| --- | ---: |";
        out += &" ---: |".repeat(self.series.len());
        out += "\n";
        for (i, w) in self.sizes.iter().enumerate() {
            out += &format!("| {} | {} |", w.size_text(), w.elements());
            for s in &self.series {
                let cell = match s.ms[i] {
                    Some(t) => ms(t),
                    None => "error".into(),
                };
                out += &format!(" {cell} |");
            }
            out += "\n";
        }
        out
    }

    /// The sweep as one JSON document.
    pub fn json(&self) -> Value {
        let series: Vec<Value> = self
            .series
            .iter()
            .map(|s| {
                json!({"key": s.key, "title": s.title, "cuprite": s.cuprite, "ms": s.ms,
                       "errors": s.errors.iter()
                           .map(|(i, e)| json!({"size": i, "error": e}))
                           .collect::<Vec<_>>()})
            })
            .collect();
        let sizes: Vec<Value> = self
            .sizes
            .iter()
            .map(|w| json!({"dims": w.dims, "elements": w.elements()}))
            .collect();
        json!({"crossover": self.id.key(), "description": self.id.description(),
               "runs": self.runs, "sizes": sizes, "series": series, "about": self.about,
               "notes": self.notes, "crossings": self.crossings(),
               "problems": self.problems})
    }
}

/// Times every size on one cuprite backend.
fn time_sizes<B: ArrayBackend>(
    dev: &B,
    title: &str,
    sizes: &[Workload],
    runs: usize,
    problems: &mut Vec<String>,
) -> Vec<Result<Timing, String>> {
    let bar = Progress::new(sizes.len(), title);
    let out = sizes
        .iter()
        .map(|w| {
            let r = crate::cases::prepare(w, dev)
                .map_err(|e| format!("error: {e}"))
                .and_then(|mut case| time_case(case.as_mut(), w.inner, runs));
            match &r {
                Ok(t) => bar.line(&format!(
                    "  {title} {:<16} {:>12.5} ms (device {:.5})",
                    w.size_text(),
                    caller_ms(t),
                    t.median_ms
                )),
                Err(e) => {
                    bar.line(&format!("  {title} {:<16} {e}", w.size_text()));
                    problems.push(format!("{title} {}: {e}", w.size_text()));
                }
            }
            bar.inc();
            r
        })
        .collect();
    bar.finish();
    out
}

/// Runs cuprite backend `name` over the sweep, or notes why not.
fn sweep_cuprite(name: &str, named: bool, opts: &CompareOptions, sweep: &mut Sweep) {
    let title = format!("cuprite-{name}");
    let mut skip = |why: String| {
        let msg = format!("{title} skipped: {why}");
        eprintln!("{msg}");
        if named {
            sweep.problems.push(msg.clone());
        }
        sweep.notes.push(msg);
    };
    let results = match name {
        "cpu" => {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            sweep
                .about
                .push(format!("{title}: host CPU, {threads} hardware threads"));
            time_sizes(
                &cuprite::Cpu::new(),
                &title,
                &sweep.sizes,
                opts.runs,
                &mut sweep.problems,
            )
        }
        #[cfg(feature = "cuda")]
        "cuda" => match cuprite::Cuda::new(0) {
            Ok(dev) => {
                use cuprite::BackendBase;
                sweep
                    .about
                    .push(format!("{title}: {} = {}", dev.label(), dev.name()));
                let r = time_sizes(&dev, &title, &sweep.sizes, opts.runs, &mut sweep.problems);
                if let Err(e) = dev.free_cached() {
                    sweep
                        .notes
                        .push(format!("freeing cuda's cache failed: {e}"));
                }
                r
            }
            Err(e) => return skip(e.to_string()),
        },
        #[cfg(not(feature = "cuda"))]
        "cuda" => {
            return skip("not compiled in (build cuprite-benches with --features cuda)".into())
        }
        other => return skip(format!("unknown backend {other:?}")),
    };
    sweep
        .series
        .push(Series::from_results(name, &title, true, results));
}

/// Runs the NumPy or CuPy script over the sweep (one process, every size), or notes why not.
fn sweep_python(opts: &CompareOptions, sweep: &mut Sweep, key: &str, title: &str) {
    let (script, available) = match key {
        "numpy" => (opts.numpy_script(), numpy_available(&opts.python)),
        _ => (opts.cupy_script(), cupy_available(&opts.python)),
    };
    if let Err(why) = available {
        sweep
            .notes
            .push(format!("{title} not run ({} -c: {why})", opts.python));
        return;
    }
    eprintln!(
        "{title}: running {} over {} sizes",
        script.display(),
        sweep.sizes.len()
    );
    match run_script(opts, &script, &sweep.sizes) {
        Ok(r) => {
            sweep.about.push(format!("{title}: {}", r.about));
            let results: Vec<Result<Timing, String>> = sweep
                .sizes
                .iter()
                .map(|w| {
                    r.entry(&w.dims)
                        .cloned()
                        .unwrap_or_else(|| Err("no result".into()))
                })
                .collect();
            for (w, res) in sweep.sizes.iter().zip(&results) {
                if let Err(e) = res {
                    if e.starts_with("WRONG RESULT") {
                        sweep
                            .problems
                            .push(format!("{title} {}: {e}", w.size_text()));
                    }
                }
            }
            sweep
                .series
                .push(Series::from_results(key, title, false, results));
        }
        Err(e) => sweep.problems.push(format!("{title} failed: {e}")),
    }
}

/// Sweeps workload `id` on every system the options select.
pub fn run_sweep(id: WorkloadId, opts: &CompareOptions) -> Result<Sweep, String> {
    let mut sweep = Sweep {
        id,
        sizes: sweep_sizes(id, opts.scale)?,
        runs: opts.runs,
        series: Vec::new(),
        about: Vec::new(),
        notes: Vec::new(),
        problems: Vec::new(),
    };
    for (name, named) in opts.backend_list() {
        sweep_cuprite(&name, named, opts, &mut sweep);
    }
    if opts.numpy {
        sweep_python(opts, &mut sweep, "numpy", "NumPy");
    }
    if opts.cupy {
        sweep_python(opts, &mut sweep, "cupy", "CuPy");
    }
    Ok(sweep)
}

/// Runs the sweep of `id`, prints its Markdown on stdout, writes the plots (and the
/// `--json`/`--markdown` files) and returns the exit code: 0, 1 when anything failed (listed
/// on stderr), 2 when the workload cannot be swept.
pub fn run_crossover(id: WorkloadId, opts: &CompareOptions) -> i32 {
    let sweep = match run_sweep(id, opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let mut failures = sweep.problems.clone();
    let mut md = sweep.markdown();
    match crate::plot::write_plots(&sweep, &opts.plot_dir) {
        Ok(files) => {
            md += "\nPlots: ";
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            md += &names.join(", ");
            md += "\n";
        }
        Err(e) => failures.push(format!("plot: {e}")),
    }
    println!("{md}");
    let write = |path: &std::path::Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(p) = &opts.markdown {
        failures.extend(write(p, md).err());
    }
    if let Some(p) = &opts.json {
        let text = serde_json::to_string_pretty(&sweep.json()).unwrap_or_default();
        failures.extend(write(p, text + "\n").err());
    }
    if failures.is_empty() {
        return 0;
    }
    eprintln!("FAILED ({}):", failures.len());
    for f in &failures {
        eprintln!("  {f}");
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_ascend_from_about_a_thousand_elements() {
        let s = sweep_sizes(WorkloadId::Sum, 1.0).unwrap();
        let n: Vec<usize> = s.iter().map(Workload::elements).collect();
        assert_eq!(*n.last().unwrap(), 5_000_000);
        assert!(n.windows(2).all(|w| w[0] < w[1]), "{n:?}");
        assert!(n[0] <= MIN_ELEMENTS && n[1] > MIN_ELEMENTS, "{n:?}");
        let m = sweep_sizes(WorkloadId::MatmulF64, 1.0).unwrap();
        assert_eq!(m.last().unwrap().dims, vec![2000]);
        assert!(m.len() >= 4);
        let rows = sweep_sizes(WorkloadId::SumAxis0, 1.0).unwrap();
        assert_eq!(rows[0].dims, vec![1, 10_000]);
        assert_eq!(rows.last().unwrap().dims, vec![500, 10_000]);
        assert!(sweep_sizes(WorkloadId::AddSmall, 1.0).is_err());
    }

    #[test]
    fn crossings_are_found_and_interpolated() {
        let n = [1000, 10_000, 100_000, 1_000_000];
        let some = |v: [f64; 4]| v.map(Some).to_vec();
        // GPU: flat 0.02 ms; CPU: 1e-6 ms per element -> equal at 20 000 elements.
        let gpu = some([0.02, 0.02, 0.02, 0.02]);
        let cpu = some([0.001, 0.01, 0.1, 1.0]);
        match crossing(&n, &gpu, &cpu) {
            Crossing::FasterFrom(c) => {
                assert_eq!((c.below, c.at), (10_000, 100_000));
                assert!((c.estimate - 20_000.0).abs() < 1.0, "{c:?}");
            }
            c => panic!("{c:?}"),
        }
        assert!(matches!(
            crossing(&n, &cpu, &gpu),
            Crossing::SlowerFrom(Bracket {
                below: 10_000,
                at: 100_000,
                ..
            })
        ));
        assert_eq!(
            crossing(&n, &some([0.5; 4]), &some([1.0; 4])),
            Crossing::Always
        );
        assert_eq!(
            crossing(&n, &some([2.0; 4]), &some([1.0; 4])),
            Crossing::Never
        );
        // A slower size in the middle moves the crossing after it.
        let wobbly = some([0.5, 2.0, 0.5, 0.5]);
        assert!(matches!(
            crossing(&n, &wobbly, &some([1.0; 4])),
            Crossing::FasterFrom(Bracket {
                below: 10_000,
                at: 100_000,
                ..
            })
        ));
        assert_eq!(crossing(&n, &[None; 4], &cpu), Crossing::Unknown);
    }

    #[test]
    fn cpu_sweep_of_small_sizes_checks_out() {
        let opts = CompareOptions {
            scale: 0.002,
            runs: 1,
            backends: Some(vec!["cpu".into()]),
            numpy: false,
            cupy: false,
            ..CompareOptions::default()
        };
        let s = run_sweep(WorkloadId::Add, &opts).unwrap();
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.series.len(), 1);
        assert!(s.series[0].ms.iter().all(|t| t.is_some_and(|t| t > 0.0)));
        let md = s.markdown();
        assert!(md.contains("| 50000 | 50000 |"), "{md}");
        assert_eq!(s.json()["sizes"].as_array().unwrap().len(), s.sizes.len());
    }
}
