//! The reference side of the `dtypes` bench: runs `scripts/bench_dtypes.py` (CuPy and
//! PyTorch on the GPU) with the sizes of this run and reads its JSON (the format is
//! documented at the top of the script) into [`Figures`] under the script's ids.

use crate::sizes::Sizes;
use crate::table::{figures_from_results, Figures};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// What the script reported.
pub struct Reference {
    /// `CuPy 14.2.0 (CUDA runtime 13.0, NVIDIA H200), PyTorch 2.11.0 (CUDA 13.0, ...), ...`.
    pub about: String,
    /// Why the CuPy workloads did not run, if they did not.
    pub cupy_error: Option<String>,
    /// Why the PyTorch workloads did not run, if they did not.
    pub torch_error: Option<String>,
    pub figures: Figures,
    /// The script's output as it came (kept in the JSON output; the notes read the extra
    /// fields of its results from it).
    pub raw: Value,
}

impl Reference {
    /// The field `key` of the result `id` (`abs_error` of a sum, ...), if it is a number.
    pub fn extra(&self, id: &str, key: &str) -> Option<f64> {
        self.raw["results"]
            .as_array()?
            .iter()
            .find(|r| r["id"] == id)
            .and_then(|r| r[key].as_f64())
    }
}

/// What the script is asked to skip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skip {
    pub cupy: bool,
    pub torch: bool,
}

/// Runs `python script --json <sizes> [--no-cupy] [--no-torch]`; its progress lines go to
/// our stderr.
pub fn run(python: &str, script: &Path, sizes: &Sizes, skip: Skip) -> Result<Reference, String> {
    if !script.is_file() {
        return Err(format!(
            "{} not found (set CUPRITE_BENCH_SCRIPTS or --scripts)",
            script.display()
        ));
    }
    let mut cmd = Command::new(python);
    cmd.arg(script).arg("--json").args(sizes.script_args());
    if skip.cupy {
        cmd.arg("--no-cupy");
    }
    if skip.torch {
        cmd.arg("--no-torch");
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {python} {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} exited with {} (its messages are above)",
            script.display(),
            out.status
        ));
    }
    parse(&String::from_utf8_lossy(&out.stdout))
}

/// Parses the script's JSON output.
pub fn parse(text: &str) -> Result<Reference, String> {
    let v: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("bad JSON from bench_dtypes.py: {e}"))?;
    let figures = figures_from_results(&v)?;
    Ok(Reference {
        about: v["about"].as_str().unwrap_or("?").to_string(),
        cupy_error: v["cupy_error"].as_str().map(str::to_string),
        torch_error: v["torch_error"].as_str().map(str::to_string),
        figures,
        raw: v,
    })
}
