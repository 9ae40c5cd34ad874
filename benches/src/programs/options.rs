//! Options of the `programs` bench binary (what `cargo xtask bench --group programs`
//! forwards), and the internal ones of its child processes (one per thread setting).

use crate::options::find_scripts;
use std::path::PathBuf;

/// The binary's usage text.
pub const USAGE: &str = "\
usage: programs [options] [PROGRAM...]

Runs the \"real programs\" group: PolyBench/NPBench programs written in cuprite as their
NumPy originals, and a micro section (one statement per known slow cause), beside NumPy
(and CuPy with --backend cuda), at the small and medium sizes, at 1 thread and at the
default threads. Every cuprite result is checked against NumPy's before it is timed.
Prints one Markdown table; exits 1 when a result is wrong or a cuprite program fails,
2 on bad options.

options:
  --backend B      cuprite backend: cpu (default) or cuda (a build with the `cuda` feature),
                   or either behind the fusing decorator: fused-cpu, fused-cuda
  --sizes LIST     small, medium (default both; the micro rows have one size)
  --threads LIST   1, default (default both): cuprite runs in a child process per setting
                   with RAYON_NUM_THREADS/MATMUL_NUM_THREADS=1, NumPy with
                   OPENBLAS/OMP/MKL_NUM_THREADS=1, or with the machine's default
  --runs N         timed runs after one checked warm-up (default 5; fewer when one run
                   takes longer than --max-seconds / N)
  --max-seconds S  time budget of the timed runs of one row on one side (default 2)
  --filter A,B     only these programs (keys; positional PROGRAM arguments do the same)
  --no-micro       leave out the micro section; --micro-only: only the micro section
  --json FILE      also write the results as JSON
  --markdown FILE  also write the table as Markdown
  --no-numpy       do not run NumPy (cuprite results are then unchecked)
  --no-cupy        do not run CuPy
  --no-jax         do not run the programs' jax.jit forms (scripts/programs_jax.py)
  --python EXE     the Python interpreter (default python3)
  --scripts DIR    the directory holding bench_programs.py";

/// What to run and how.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramOptions {
    /// `cpu` or `cuda`.
    pub backend: String,
    /// Sizes of the programs: `small`, `medium`.
    pub sizes: Vec<String>,
    /// Thread settings: `1`, `default`.
    pub threads: Vec<String>,
    /// Timed runs per row after the warm-up.
    pub runs: usize,
    /// Seconds of timed runs per row and side at most (the run count shrinks to fit).
    pub max_seconds: f64,
    /// Only these keys.
    pub only: Option<Vec<String>>,
    /// Whether to run the programs.
    pub programs: bool,
    /// Whether to run the micro section.
    pub micro: bool,
    /// Run NumPy.
    pub numpy: bool,
    /// Run CuPy (with the cuda backend).
    pub cupy: bool,
    /// Run the `jax.jit` forms (with the cuda backend).
    pub jax: bool,
    /// The Python interpreter.
    pub python: String,
    /// Where `bench_programs.py` is.
    pub scripts: PathBuf,
    /// JSON output.
    pub json: Option<PathBuf>,
    /// Markdown output.
    pub markdown: Option<PathBuf>,
    /// Internal: this process is a child timing cuprite; the value is the spec JSON.
    pub child_spec: Option<String>,
    /// Internal: the directory of NumPy's outputs for the checks.
    pub refs: Option<PathBuf>,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            backend: "cpu".into(),
            sizes: vec!["small".into(), "medium".into()],
            threads: vec!["1".into(), "default".into()],
            runs: 5,
            max_seconds: 2.0,
            only: None,
            programs: true,
            micro: true,
            numpy: true,
            cupy: true,
            jax: true,
            python: std::env::var("CUPRITE_PYTHON").unwrap_or_else(|_| "python3".into()),
            scripts: find_scripts(),
            json: None,
            markdown: None,
            child_spec: None,
            refs: None,
        }
    }
}

fn list(v: &str) -> Vec<String> {
    v.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn check_all(what: &str, vals: &[String], allowed: &[&str]) -> Result<(), String> {
    if vals.is_empty() {
        return Err(format!("{what}: empty list"));
    }
    match vals.iter().find(|v| !allowed.contains(&v.as_str())) {
        Some(v) => Err(format!(
            "{what}: unknown value {v:?} ({})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

impl ProgramOptions {
    /// Parses the arguments (without the program name) on top of the defaults. Cargo's
    /// `--bench` is accepted and ignored; positional arguments are program keys.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let mut o = ProgramOptions::default();
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
                "--backend" => {
                    o.backend = value(a)?;
                    check_all(
                        "--backend",
                        &[o.backend.clone()],
                        &["cpu", "cuda", "fused-cpu", "fused-cuda"],
                    )?;
                }
                "--sizes" => {
                    o.sizes = list(&value(a)?);
                    check_all("--sizes", &o.sizes, &["small", "medium"])?;
                }
                "--threads" => {
                    o.threads = list(&value(a)?);
                    check_all("--threads", &o.threads, &["1", "default"])?;
                }
                "--runs" => {
                    o.runs = value(a)?
                        .parse()
                        .ok()
                        .filter(|&r: &usize| r > 0)
                        .ok_or("--runs needs a positive integer")?
                }
                "--max-seconds" => {
                    o.max_seconds = value(a)?
                        .parse()
                        .ok()
                        .filter(|&s: &f64| s > 0.0)
                        .ok_or("--max-seconds needs a positive number")?
                }
                "--filter" => o.only = Some(list(&value(a)?)),
                "--no-micro" => o.micro = false,
                "--micro-only" => o.programs = false,
                "--json" => o.json = Some(value(a)?.into()),
                "--markdown" => o.markdown = Some(value(a)?.into()),
                "--no-numpy" => o.numpy = false,
                "--no-cupy" => o.cupy = false,
                "--no-jax" => o.jax = false,
                "--python" => o.python = value(a)?,
                "--scripts" => o.scripts = value(a)?.into(),
                "--child" => o.child_spec = Some(value(a)?),
                "--refs" => o.refs = Some(value(a)?.into()),
                s if s.starts_with('-') => return Err(format!("unknown option {s}")),
                s => positional.push(s.to_string()),
            }
        }
        if !positional.is_empty() {
            o.only = Some(positional);
        }
        if let Some(keys) = &o.only {
            for k in keys {
                if super::def(k).is_none() {
                    let known: Vec<&str> = super::PROGRAMS.iter().map(|p| p.key).collect();
                    return Err(format!(
                        "unknown program {k:?}; known: {}",
                        known.join(", ")
                    ));
                }
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_the_options() {
        let o = ProgramOptions::parse(&args(&[
            "--bench",
            "--sizes",
            "small",
            "--threads",
            "1",
            "--runs",
            "3",
            "lu",
            "mlp",
        ]))
        .unwrap();
        assert_eq!(o.sizes, vec!["small"]);
        assert_eq!(o.threads, vec!["1"]);
        assert_eq!(o.runs, 3);
        assert_eq!(o.only, Some(args(&["lu", "mlp"])));
        assert!(ProgramOptions::parse(&args(&["--sizes", "huge"])).is_err());
        assert!(ProgramOptions::parse(&args(&["nope"])).is_err());
        assert!(ProgramOptions::parse(&args(&["--runs", "0"])).is_err());
    }
}
