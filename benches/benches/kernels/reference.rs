//! The reference side of the `kernels` bench: runs `scripts/bench_kernels.py` (CuPy on the
//! GPU, NumPy on the CPU) with the sizes of this run and reads its JSON (the format is
//! documented at the top of the script) into [`Figures`] under the script's ids.

use crate::sizes::Sizes;
use crate::table::{figures_from_results, Figures};
use std::path::Path;
use std::process::{Command, Stdio};

/// What the script reported.
pub struct Reference {
    /// `CuPy 14.2.0 (CUDA runtime 13.0, NVIDIA H200), NumPy 2.4.6, Python 3.12.3`.
    pub about: String,
    /// Why the GPU workloads did not run, if they did not.
    pub cupy_error: Option<String>,
    pub figures: Figures,
    /// The script's output as it came (kept in the JSON output).
    pub raw: serde_json::Value,
}

/// Runs `python script --json <sizes> [--no-cupy]`; its progress lines go to our stderr.
pub fn run(python: &str, script: &Path, sizes: &Sizes, cupy: bool) -> Result<Reference, String> {
    if !script.is_file() {
        return Err(format!(
            "{} not found (set CUPRITE_BENCH_SCRIPTS or --scripts)",
            script.display()
        ));
    }
    let mut cmd = Command::new(python);
    cmd.arg(script).arg("--json").args(sizes.script_args());
    if !cupy {
        cmd.arg("--no-cupy");
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
    let v: serde_json::Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("bad JSON from bench_kernels.py: {e}"))?;
    let figures = figures_from_results(&v)?;
    Ok(Reference {
        about: v["about"].as_str().unwrap_or("?").to_string(),
        cupy_error: v["cupy_error"].as_str().map(str::to_string),
        figures,
        raw: v,
    })
}
