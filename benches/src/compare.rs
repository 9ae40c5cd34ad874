//! The NumPy comparison runner: times every workload on a cuprite backend (median of N runs
//! after a warm-up whose result is checked), runs `scripts/bench_numpy.py --json` on the same
//! workload list, and renders one Markdown table side by side.

use crate::cases::{prepare, Case};
use crate::workloads::{default_workloads, spec_json, Workload};
use cuprite::ArrayBackend;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// What to run and how often. [`CompareOptions::from_env`] reads the environment.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Multiplies the element counts of [`default_workloads`] (`CUPRITE_BENCH_SCALE`, 1.0).
    pub scale: f64,
    /// Timed runs per workload after the warm-up (`CUPRITE_BENCH_RUNS`, 7).
    pub runs: usize,
    /// Only the workloads whose key is listed (`CUPRITE_BENCH_ONLY=sum,norm`); all if `None`.
    pub only: Option<Vec<String>>,
    /// The Python interpreter (`CUPRITE_PYTHON`, `python3`).
    pub python: String,
    /// The NumPy script.
    pub script: PathBuf,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            scale: 1.0,
            runs: 7,
            only: None,
            python: "python3".into(),
            script: PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../scripts/bench_numpy.py"
            )),
        }
    }
}

impl CompareOptions {
    /// The defaults overridden by `CUPRITE_BENCH_SCALE`, `CUPRITE_BENCH_RUNS`,
    /// `CUPRITE_BENCH_ONLY` and `CUPRITE_PYTHON`. A malformed number is an error.
    pub fn from_env() -> Result<Self, String> {
        let mut o = CompareOptions::default();
        if let Ok(v) = std::env::var("CUPRITE_BENCH_SCALE") {
            o.scale = v
                .parse()
                .ok()
                .filter(|s: &f64| *s > 0.0 && s.is_finite())
                .ok_or_else(|| format!("CUPRITE_BENCH_SCALE={v:?} is not a positive number"))?;
        }
        if let Ok(v) = std::env::var("CUPRITE_BENCH_RUNS") {
            o.runs = v
                .parse()
                .ok()
                .filter(|&r: &usize| r > 0)
                .ok_or_else(|| format!("CUPRITE_BENCH_RUNS={v:?} is not a positive integer"))?;
        }
        if let Ok(v) = std::env::var("CUPRITE_BENCH_ONLY") {
            o.only = Some(v.split(',').map(|s| s.trim().to_string()).collect());
        }
        if let Ok(v) = std::env::var("CUPRITE_PYTHON") {
            o.python = v;
        }
        Ok(o)
    }

    /// The workloads these options select.
    pub fn workloads(&self) -> Vec<Workload> {
        default_workloads(self.scale)
            .into_iter()
            .filter(|w| match &self.only {
                Some(keys) => keys.iter().any(|k| k == w.id.key()),
                None => true,
            })
            .collect()
    }
}

/// Median and minimum of the timed runs of one workload, per call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Median time per call in milliseconds.
    pub median_ms: f64,
    /// Fastest time per call in milliseconds.
    pub min_ms: f64,
}

/// One row of the comparison.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The workload.
    pub workload: Workload,
    /// cuprite's timing, or why there is none (an error, a failed check).
    pub cuprite: Result<Timing, String>,
    /// NumPy's timing, or why there is none (`None` when NumPy did not run).
    pub numpy: Option<Result<Timing, String>>,
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
/// each after an untimed reset. Times are per call (`inner` calls per run).
pub fn time_case(case: &mut dyn Case, inner: usize, runs: usize) -> Result<Timing, String> {
    let err = |e: cuprite::Error| format!("error: {e}");
    case.reset().map_err(err)?;
    case.run().map_err(err)?;
    case.check().map_err(|e| format!("WRONG RESULT: {e}"))?;
    case.release();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        case.reset().map_err(err)?;
        let t0 = Instant::now();
        case.run().map_err(err)?;
        times.push(t0.elapsed().as_secs_f64() * 1e3 / inner.max(1) as f64);
        case.release();
    }
    let min_ms = times.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Timing {
        median_ms: median(&mut times),
        min_ms,
    })
}

/// Times every workload on `dev`, printing one line per workload to stderr as it goes.
pub fn time_backend<B: ArrayBackend>(
    dev: &B,
    workloads: &[Workload],
    runs: usize,
) -> Vec<Result<Timing, String>> {
    workloads
        .iter()
        .map(|w| {
            let r = prepare(w, dev)
                .map_err(|e| format!("error: {e}"))
                .and_then(|mut case| time_case(case.as_mut(), w.inner, runs));
            match &r {
                Ok(t) => eprintln!("  {:<20} {:>12.3} ms", w.id.key(), t.median_ms),
                Err(e) => eprintln!("  {:<20} {e}", w.id.key()),
            }
            r
        })
        .collect()
}

/// What `scripts/bench_numpy.py --json` reported.
#[derive(Clone, Debug, Default)]
pub struct NumpyReport {
    /// A line naming NumPy's version and BLAS, for the table's caption.
    pub about: String,
    /// Timings by workload key.
    pub results: HashMap<String, Result<Timing, String>>,
}

/// Whether `python -c "import numpy"` works.
pub fn numpy_available(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import numpy"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Runs the NumPy script on `workloads` and parses its JSON (format documented at the top of
/// `scripts/bench_numpy.py`).
pub fn run_numpy(opts: &CompareOptions, workloads: &[Workload]) -> Result<NumpyReport, String> {
    let out = Command::new(&opts.python)
        .arg(&opts.script)
        .args(["--json", "--runs", &opts.runs.to_string(), "--spec"])
        .arg(spec_json(workloads))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", opts.python))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            opts.script.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    parse_numpy_json(&String::from_utf8_lossy(&out.stdout))
}

/// Parses the script's JSON output.
pub fn parse_numpy_json(text: &str) -> Result<NumpyReport, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("bad JSON from the NumPy script: {e}"))?;
    let about = format!(
        "NumPy {} (BLAS: {}), Python {}",
        v["numpy"].as_str().unwrap_or("?"),
        v["blas"].as_str().unwrap_or("?"),
        v["python"].as_str().unwrap_or("?")
    );
    let mut results = HashMap::new();
    for r in v["results"].as_array().ok_or("no \"results\" list")? {
        let key = r["id"]
            .as_str()
            .ok_or("a result without \"id\"")?
            .to_string();
        let t = match (r["median_ms"].as_f64(), r["min_ms"].as_f64()) {
            (Some(median_ms), Some(min_ms)) => Ok(Timing { median_ms, min_ms }),
            _ => Err(r["error"].as_str().unwrap_or("no timing").to_string()),
        };
        results.insert(key, t);
    }
    Ok(NumpyReport { about, results })
}

/// Formats a time in milliseconds with 4 significant digits.
fn ms(t: f64) -> String {
    if t >= 100.0 {
        format!("{t:.1}")
    } else if t >= 1.0 {
        format!("{t:.3}")
    } else {
        format!("{t:.5}")
    }
}

/// The comparison as a Markdown table.
pub fn render_table(backend: &str, rows: &[Measurement]) -> String {
    let mut s = format!(
        "| workload | size | cuprite-{backend} median ms | NumPy median ms | NumPy/cuprite \
         | cuprite rate | NumPy rate |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
    );
    for m in rows {
        let w = &m.workload;
        let (c_ms, c_rate) = match &m.cuprite {
            Ok(t) => (ms(t.median_ms), w.rate().format(t.median_ms)),
            Err(e) => (e.clone(), String::new()),
        };
        let (n_ms, n_rate) = match &m.numpy {
            Some(Ok(t)) => (ms(t.median_ms), w.rate().format(t.median_ms)),
            Some(Err(e)) => (e.clone(), String::new()),
            None => ("n/a".into(), String::new()),
        };
        let ratio = match (&m.cuprite, &m.numpy) {
            (Ok(c), Some(Ok(n))) => format!("{:.2}", n.median_ms / c.median_ms),
            _ => String::new(),
        };
        s += &format!(
            "| {} | {} | {c_ms} | {n_ms} | {ratio} | {c_rate} | {n_rate} |\n",
            w.id.description(),
            w.size_text()
        );
    }
    s
}

/// The whole comparison on one backend: cuprite first, then NumPy in a subprocess (when
/// importable), then the table on stdout. Returns the rows.
pub fn run_comparison<B: ArrayBackend>(
    dev: &B,
    backend: &str,
    opts: &CompareOptions,
) -> Vec<Measurement> {
    let workloads = opts.workloads();
    eprintln!(
        "cuprite-{backend}: {} workloads, scale {}, median of {} runs",
        workloads.len(),
        opts.scale,
        opts.runs
    );
    let ours = time_backend(dev, &workloads, opts.runs);
    let numpy = if numpy_available(&opts.python) {
        eprintln!("NumPy: running {}", opts.script.display());
        match run_numpy(opts, &workloads) {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("NumPy run failed: {e}");
                None
            }
        }
    } else {
        println!(
            "NumPy is unavailable ({} -c \"import numpy\" failed)",
            opts.python
        );
        None
    };
    let rows: Vec<Measurement> = workloads
        .into_iter()
        .zip(ours)
        .map(|(workload, cuprite)| {
            let numpy = numpy.as_ref().map(|r| {
                r.results
                    .get(workload.id.key())
                    .cloned()
                    .unwrap_or_else(|| Err("missing".into()))
            });
            Measurement {
                workload,
                cuprite,
                numpy,
            }
        })
        .collect();
    if let Some(r) = &numpy {
        println!("{}", r.about);
    }
    println!("{}", render_table(backend, &rows));
    rows
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
    fn parses_script_output() {
        let r = parse_numpy_json(
            r#"{"numpy": "2.4.6", "blas": "openblas", "python": "3.12", "threads": 2,
                "results": [{"id": "sum", "dims": [5], "inner": 1, "median_ms": 1.5,
                             "min_ms": 1.25, "runs": 7},
                            {"id": "ones", "dims": [5], "inner": 1, "error": "boom"}]}"#,
        )
        .unwrap();
        assert_eq!(
            r.results["sum"],
            Ok(Timing {
                median_ms: 1.5,
                min_ms: 1.25
            })
        );
        assert_eq!(r.results["ones"], Err("boom".to_string()));
        assert!(r.about.contains("2.4.6"));
    }
}
