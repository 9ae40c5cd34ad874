//! The comparison runner's options: command-line flags of the `numpy_compare` binary (also
//! what `cargo xtask bench` forwards), with defaults from the environment, and where the
//! Python scripts are found (beside the binary in a bundle, or in the source tree).

use crate::workloads::{default_workloads, Workload, WorkloadId};
use std::path::{Path, PathBuf};

/// The binary's usage text.
pub const USAGE: &str = "\
usage: numpy_compare [options] [WORKLOAD...]

Times the anchor workloads on every cuprite backend compiled in and available (cpu, cuda),
then in NumPy and CuPy (python subprocesses, when importable), checks every result once
untimed, and prints one Markdown table. Exits 1 when a result is wrong or a cuprite backend
fails, 2 on bad options.

options:
  --backend LIST   cuprite backends to run: cpu, cuda, all (default: all compiled in;
                   an unavailable backend is skipped with a note, and is an error when named)
  --scale F        element counts x F (1.0 = about 1/10 of the anchors, 10 = the anchors)
  --quick          --scale 0.1
  --runs N         timed runs per workload after one checked warm-up (default 7)
  --filter A,B     only these workloads (keys; positional WORKLOAD arguments do the same)
  --json FILE      also write the results as JSON
  --markdown FILE  also write the table as Markdown
  --no-numpy       do not run NumPy
  --no-cupy        do not run CuPy
  --python EXE     the Python interpreter (default python3)
  --scripts DIR    the directory holding bench_numpy.py and bench_cupy.py
  --crossover KEY  instead of the table, sweep workload KEY over sizes from about 1000
                   elements up to its size at --scale, on every system, print where each
                   cuprite backend becomes faster than each other system, and draw time
                   against size (log-log) to crossover_KEY.png and .svg
  --plot-dir DIR   where the plots go (default: the current directory)

environment (overridden by the flags): CUPRITE_BENCH_SCALE, CUPRITE_BENCH_RUNS,
CUPRITE_BENCH_ONLY, CUPRITE_BENCH_BACKENDS, CUPRITE_PYTHON, CUPRITE_BENCH_SCRIPTS.
The scripts are looked for in $CUPRITE_BENCH_SCRIPTS, then in ../scripts and scripts beside
the binary (the layout of `cargo xtask bundle`), then in the source tree.";

/// The cuprite backends this build can run, in table order.
pub fn compiled_backends() -> Vec<&'static str> {
    let mut v = vec!["cpu"];
    if cfg!(feature = "cuda") {
        v.push("cuda");
    }
    v
}

/// What to run and how. [`CompareOptions::from_env`] reads the environment,
/// [`CompareOptions::parse_args`] the command line on top of it.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareOptions {
    /// Multiplies the element counts of [`default_workloads`] (1.0).
    pub scale: f64,
    /// Timed runs per workload after the warm-up (7).
    pub runs: usize,
    /// Only the workloads whose key is listed; all if `None`.
    pub only: Option<Vec<String>>,
    /// The cuprite backends asked for by name; `None` = every compiled one, skipping those
    /// unavailable at run time without failing.
    pub backends: Option<Vec<String>>,
    /// Whether to run NumPy (when importable).
    pub numpy: bool,
    /// Whether to run CuPy (when importable and a GPU is visible).
    pub cupy: bool,
    /// The Python interpreter (`python3`).
    pub python: String,
    /// The directory of `bench_numpy.py` and `bench_cupy.py`.
    pub scripts: PathBuf,
    /// Where to write the JSON results, if anywhere.
    pub json: Option<PathBuf>,
    /// Where to write the Markdown table, if anywhere.
    pub markdown: Option<PathBuf>,
    /// Sweep this workload over sizes instead of running the table.
    pub crossover: Option<WorkloadId>,
    /// Where the crossover plots go (`.`).
    pub plot_dir: PathBuf,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            scale: 1.0,
            runs: 7,
            only: None,
            backends: None,
            numpy: true,
            cupy: true,
            python: "python3".into(),
            scripts: find_scripts(),
            json: None,
            markdown: None,
            crossover: None,
            plot_dir: PathBuf::from("."),
        }
    }
}

fn parse_scale(v: &str, what: &str) -> Result<f64, String> {
    v.parse()
        .ok()
        .filter(|s: &f64| *s > 0.0 && s.is_finite())
        .ok_or_else(|| format!("{what}={v:?} is not a positive number"))
}

fn parse_runs(v: &str, what: &str) -> Result<usize, String> {
    v.parse()
        .ok()
        .filter(|&r: &usize| r > 0)
        .ok_or_else(|| format!("{what}={v:?} is not a positive integer"))
}

fn list(v: &str) -> Vec<String> {
    v.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The workload of key `k`, or an error listing the keys.
fn workload_id(k: &str) -> Result<WorkloadId, String> {
    WorkloadId::ALL
        .iter()
        .copied()
        .find(|w| w.key() == k)
        .ok_or_else(|| {
            let known: Vec<&str> = WorkloadId::ALL.iter().map(|w| w.key()).collect();
            format!("unknown workload {k:?}; known: {}", known.join(", "))
        })
}

/// Checks backend names; `all` stands for every compiled backend.
fn parse_backends(v: &str) -> Result<Option<Vec<String>>, String> {
    let names = list(v);
    if names.iter().any(|n| n == "all") {
        return Ok(None);
    }
    if names.is_empty() {
        return Err("--backend: empty list".into());
    }
    for n in &names {
        if n != "cpu" && n != "cuda" {
            return Err(format!("--backend: unknown backend {n:?} (cpu, cuda, all)"));
        }
    }
    Ok(Some(names))
}

impl CompareOptions {
    /// The defaults overridden by `CUPRITE_BENCH_SCALE`, `CUPRITE_BENCH_RUNS`,
    /// `CUPRITE_BENCH_ONLY`, `CUPRITE_BENCH_BACKENDS`, `CUPRITE_PYTHON` and
    /// `CUPRITE_BENCH_SCRIPTS`. A malformed value is an error.
    pub fn from_env() -> Result<Self, String> {
        let mut o = CompareOptions::default();
        let var = |k: &str| std::env::var(k).ok();
        if let Some(v) = var("CUPRITE_BENCH_SCALE") {
            o.scale = parse_scale(&v, "CUPRITE_BENCH_SCALE")?;
        }
        if let Some(v) = var("CUPRITE_BENCH_RUNS") {
            o.runs = parse_runs(&v, "CUPRITE_BENCH_RUNS")?;
        }
        if let Some(v) = var("CUPRITE_BENCH_ONLY") {
            o.only = Some(list(&v));
        }
        if let Some(v) = var("CUPRITE_BENCH_BACKENDS") {
            o.backends = parse_backends(&v)?;
        }
        if let Some(v) = var("CUPRITE_PYTHON") {
            o.python = v;
        }
        Ok(o)
    }

    /// Applies command-line arguments (without the program name) on top of `self`. Cargo's
    /// `--bench` is accepted and ignored; positional arguments are workload keys.
    pub fn parse_args(mut self, args: &[String]) -> Result<Self, String> {
        let mut it = args.iter();
        let mut positional = Vec::new();
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match a.as_str() {
                "--bench" => {}
                "--quick" => self.scale = 0.1,
                "--scale" => self.scale = parse_scale(&value(a)?, "--scale")?,
                "--runs" => self.runs = parse_runs(&value(a)?, "--runs")?,
                "--filter" => self.only = Some(list(&value(a)?)),
                "--backend" => self.backends = parse_backends(&value(a)?)?,
                "--json" => self.json = Some(value(a)?.into()),
                "--markdown" => self.markdown = Some(value(a)?.into()),
                "--no-numpy" => self.numpy = false,
                "--no-cupy" => self.cupy = false,
                "--python" => self.python = value(a)?,
                "--scripts" => self.scripts = value(a)?.into(),
                "--crossover" => self.crossover = Some(workload_id(&value(a)?)?),
                "--plot-dir" => self.plot_dir = value(a)?.into(),
                s if s.starts_with('-') => return Err(format!("unknown option {s}")),
                s => positional.push(s.to_string()),
            }
        }
        if !positional.is_empty() {
            self.only = Some(positional);
        }
        if let Some(keys) = &self.only {
            for k in keys {
                workload_id(k)?;
            }
        }
        Ok(self)
    }

    /// The backends to run, and whether each was named explicitly.
    pub fn backend_list(&self) -> Vec<(String, bool)> {
        match &self.backends {
            Some(v) => v.iter().map(|b| (b.clone(), true)).collect(),
            None => compiled_backends()
                .into_iter()
                .map(|b| (b.to_string(), false))
                .collect(),
        }
    }

    /// The workloads these options select. The copy workload (the bandwidth ceiling of the
    /// rate column) always runs.
    pub fn workloads(&self) -> Vec<Workload> {
        default_workloads(self.scale)
            .into_iter()
            .filter(|w| match &self.only {
                Some(keys) => w.id == WorkloadId::Copy || keys.iter().any(|k| k == w.id.key()),
                None => true,
            })
            .collect()
    }

    /// The NumPy script.
    pub fn numpy_script(&self) -> PathBuf {
        self.scripts.join("bench_numpy.py")
    }

    /// The CuPy script.
    pub fn cupy_script(&self) -> PathBuf {
        self.scripts.join("bench_cupy.py")
    }
}

/// The scripts directory: `$CUPRITE_BENCH_SCRIPTS`, else `../scripts` or `scripts` beside the
/// running binary when they hold `bench_numpy.py` (a bundle), else the source tree's.
pub fn find_scripts() -> PathBuf {
    if let Ok(d) = std::env::var("CUPRITE_BENCH_SCRIPTS") {
        return PathBuf::from(d);
    }
    let has = |d: &Path| d.join("bench_numpy.py").is_file();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        for cand in [dir.join("../scripts"), dir.join("scripts")] {
            if has(&cand) {
                return cand;
            }
        }
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_override_defaults() {
        let o = CompareOptions::default()
            .parse_args(&args(&[
                "--bench",
                "--scale",
                "10",
                "--runs",
                "3",
                "--backend",
                "cuda",
                "--json",
                "out.json",
                "--no-cupy",
                "sum",
                "sort_f64",
            ]))
            .unwrap();
        assert_eq!(o.scale, 10.0);
        assert_eq!(o.runs, 3);
        assert_eq!(o.backends, Some(vec!["cuda".to_string()]));
        assert_eq!(o.json, Some(PathBuf::from("out.json")));
        assert!(o.numpy && !o.cupy);
        assert_eq!(o.only, Some(args(&["sum", "sort_f64"])));
        let keys: Vec<&str> = o.workloads().iter().map(|w| w.id.key()).collect();
        assert_eq!(keys, vec!["copy", "sum", "sort_f64"]);
        assert_eq!(o.backend_list(), vec![("cuda".to_string(), true)]);
    }

    #[test]
    fn crossover_names_a_workload() {
        let o = CompareOptions::default()
            .parse_args(&args(&["--crossover", "sum", "--plot-dir", "/tmp/p"]))
            .unwrap();
        assert_eq!(o.crossover, Some(WorkloadId::Sum));
        assert_eq!(o.plot_dir, PathBuf::from("/tmp/p"));
    }

    #[test]
    fn all_means_every_compiled_backend() {
        let o = CompareOptions::default()
            .parse_args(&args(&["--backend", "all"]))
            .unwrap();
        assert_eq!(o.backends, None);
        assert_eq!(o.backend_list()[0], ("cpu".to_string(), false));
    }

    #[test]
    fn bad_flags_are_errors() {
        let bad = |v: &[&str]| CompareOptions::default().parse_args(&args(v)).is_err();
        assert!(bad(&["--scale", "fast"]));
        assert!(bad(&["--scale", "-1"]));
        assert!(bad(&["--runs", "0"]));
        assert!(bad(&["--runs"]));
        assert!(bad(&["--backend", "tpu"]));
        assert!(bad(&["--gpu"]));
        assert!(bad(&["no_such_workload"]));
        assert!(bad(&["--crossover", "nope"]));
        assert!(bad(&["--crossover"]));
    }
}
