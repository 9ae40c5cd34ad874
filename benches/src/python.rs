//! The Python side of the comparison: runs `scripts/bench_numpy.py` and
//! `scripts/bench_cupy.py` on the same workload list (`--spec`) and parses their JSON (the
//! format is documented at the top of each script).

use crate::compare::Timing;
use crate::options::CompareOptions;
use crate::workloads::{spec_json, Workload};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one of the scripts reported.
#[derive(Clone, Debug, Default)]
pub struct PythonReport {
    /// A line naming the library's version, its BLAS or GPU, and Python's version.
    pub about: String,
    /// Timings (or why there is none) by workload key.
    pub results: HashMap<String, Result<Timing, String>>,
    /// The script's result entries as they came, by workload key (kept in the JSON output:
    /// CuPy's entries also carry wall-clock medians).
    pub raw: HashMap<String, serde_json::Value>,
    /// Every result in the script's order with its shape: a crossover sweep runs one
    /// workload at many shapes, which `results` (by key) cannot tell apart.
    pub entries: Vec<(Vec<usize>, Result<Timing, String>)>,
}

impl PythonReport {
    /// The result for the workload of shape `dims` (the first one of that shape).
    pub fn entry(&self, dims: &[usize]) -> Option<&Result<Timing, String>> {
        self.entries.iter().find(|(d, _)| d == dims).map(|(_, r)| r)
    }
}

/// Runs `python -c code`: `Ok` when it exits 0, else the last line of its stderr.
pub fn probe(python: &str, code: &str) -> Result<(), String> {
    let out = Command::new(python)
        .args(["-c", code])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed")
            .trim()
            .to_string())
    }
}

/// Whether NumPy can be imported (`Err` says why not).
pub fn numpy_available(python: &str) -> Result<(), String> {
    probe(python, "import numpy")
}

/// Whether CuPy can be imported and sees a GPU (`Err` says why not).
pub fn cupy_available(python: &str) -> Result<(), String> {
    probe(
        python,
        "import cupy\nif cupy.cuda.runtime.getDeviceCount() < 1: raise SystemExit('no GPU')",
    )
}

/// Whether JAX can be imported and sees a GPU (`Err` says why not).
pub fn jax_available(python: &str) -> Result<(), String> {
    probe(
        python,
        "import jax\nif jax.devices()[0].platform != 'gpu': raise SystemExit('JAX sees no GPU')",
    )
}

/// Runs `script --json --runs N --spec ...` and parses what it prints. Its stderr (progress
/// lines) goes to ours.
pub fn run_script(
    opts: &CompareOptions,
    script: &Path,
    workloads: &[Workload],
) -> Result<PythonReport, String> {
    let out = Command::new(&opts.python)
        .arg(script)
        .args(["--json", "--runs", &opts.runs.to_string(), "--spec"])
        .arg(spec_json(workloads))
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {} {}: {e}", opts.python, script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} exited with {} (its messages are above)",
            script.display(),
            out.status
        ));
    }
    parse_report(&String::from_utf8_lossy(&out.stdout))
}

/// Parses a script's JSON output.
pub fn parse_report(text: &str) -> Result<PythonReport, String> {
    let v: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("bad JSON from a script: {e}"))?;
    let about = match v["about"].as_str() {
        Some(a) => a.to_string(),
        None => format!(
            "NumPy {} (BLAS: {}), Python {}",
            v["numpy"].as_str().unwrap_or("?"),
            v["blas"].as_str().unwrap_or("?"),
            v["python"].as_str().unwrap_or("?")
        ),
    };
    let mut results = HashMap::new();
    let mut raw = HashMap::new();
    let mut entries = Vec::new();
    for r in v["results"].as_array().ok_or("no \"results\" list")? {
        let key = r["id"]
            .as_str()
            .ok_or("a result without \"id\"")?
            .to_string();
        let t = match (r["median_ms"].as_f64(), r["min_ms"].as_f64()) {
            (Some(median_ms), Some(min_ms)) => Ok(Timing {
                wall_median_ms: r["wall_median_ms"].as_f64(),
                ..Timing::new(median_ms, min_ms)
            }),
            _ => Err(r["error"].as_str().unwrap_or("no timing").to_string()),
        };
        let dims: Vec<usize> = r["dims"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter_map(|x| x.as_u64())
                    .map(|x| x as usize)
                    .collect()
            })
            .unwrap_or_default();
        entries.push((dims, t.clone()));
        results.insert(key.clone(), t);
        raw.insert(key, r.clone());
    }
    Ok(PythonReport {
        about,
        results,
        raw,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numpy_output() {
        let r = parse_report(
            r#"{"numpy": "2.4.6", "blas": "openblas", "python": "3.12", "threads": 2,
                "results": [{"id": "sum", "dims": [5], "inner": 1, "median_ms": 1.5,
                             "min_ms": 1.25, "runs": 7},
                            {"id": "ones", "dims": [5], "inner": 1, "error": "boom"}]}"#,
        )
        .unwrap();
        assert_eq!(r.results["sum"], Ok(Timing::new(1.5, 1.25)));
        assert_eq!(r.results["ones"], Err("boom".to_string()));
        assert_eq!(r.entry(&[5]), Some(&Ok(Timing::new(1.5, 1.25))));
        assert_eq!(r.entries.len(), 2);
        assert_eq!(r.entry(&[6]), None);
        assert!(r.about.contains("2.4.6"));
    }

    #[test]
    fn parses_cupy_output() {
        let r = parse_report(
            r#"{"about": "CuPy 14.2.0 on NVIDIA H200", "results": [
                {"id": "sum", "dims": [5], "inner": 1, "median_ms": 0.1, "min_ms": 0.09,
                 "wall_median_ms": 0.12, "runs": 7},
                {"id": "sort_f64", "dims": [5], "inner": 1,
                 "error": "WRONG RESULT: element 3 is 1.0, expected 2.0"}]}"#,
        )
        .unwrap();
        assert_eq!(r.about, "CuPy 14.2.0 on NVIDIA H200");
        assert_eq!(r.raw["sum"]["wall_median_ms"].as_f64(), Some(0.12));
        assert_eq!(
            r.results["sum"].as_ref().unwrap().wall_median_ms,
            Some(0.12)
        );
        assert!(r.results["sort_f64"]
            .as_ref()
            .unwrap_err()
            .starts_with("WRONG RESULT"));
    }

    #[test]
    fn probe_reports_the_last_error_line() {
        match probe("python3", "raise SystemExit('no GPU')") {
            Err(e) => assert!(e == "no GPU" || e.starts_with("cannot run"), "{e}"),
            Ok(()) => panic!("the probe should fail"),
        }
    }
}
