//! What the side-by-side benches (`per_op`, `batched_linalg`, `fusion`) share: reading
//! their options (with `--help` and exit status 2 on a bad one), where their Python scripts
//! are, and running a script that prints `{"about": ..., "results": ...}` as JSON.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The options of bench `name` from the command line: `--help` prints `usage` and exits 0,
/// a bad option prints the error and `usage` and exits 2.
pub fn options<O>(
    name: &str,
    usage: &str,
    parse: impl FnOnce(&[String]) -> Result<O, String>,
) -> O {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{usage}");
        std::process::exit(0);
    }
    parse(&args).unwrap_or_else(|e| {
        eprintln!("{name}: {e}\n\n{usage}");
        std::process::exit(2);
    })
}

/// Where the Python scripts are: `$CUPRITE_BENCH_SCRIPTS`, else `scripts/` of the source
/// tree.
pub fn scripts_dir() -> PathBuf {
    std::env::var("CUPRITE_BENCH_SCRIPTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts")))
}

/// The interpreter: `$CUPRITE_PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("CUPRITE_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Runs `python script args...` (stderr shown) and returns its JSON output's `about` and
/// `results`; `python` `None` is the error "not run (--no-python)".
pub fn anchor(
    python: Option<&str>,
    script: &Path,
    args: &[String],
) -> Result<(String, Value), String> {
    let py = python.ok_or("not run (--no-python)")?;
    let out = Command::new(py)
        .arg(script)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {py} {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!("{} exited with {}", script.display(), out.status));
    }
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    Ok((
        v["about"].as_str().unwrap_or("").to_string(),
        v["results"].clone(),
    ))
}

/// The options every side-by-side bench takes: `--filter a,b`, `--no-python`,
/// `--python EXE`, `--scripts DIR`, and the `--bench` that `cargo bench` passes.
#[derive(Clone, Debug)]
pub struct Common {
    /// Only these cases (all when empty).
    pub filter: Vec<String>,
    /// The interpreter of the anchors (`None`: `--no-python`).
    pub python: Option<String>,
    /// Where the scripts are.
    pub scripts: PathBuf,
}

impl Default for Common {
    fn default() -> Self {
        Common {
            filter: Vec::new(),
            python: Some(python()),
            scripts: scripts_dir(),
        }
    }
}

impl Common {
    /// Takes option `a` (and its value from `rest`) when it is one of these; `Ok(false)`
    /// for any other option.
    pub fn take<'a>(
        &mut self,
        a: &str,
        rest: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, String> {
        let mut value = || rest.next().ok_or(format!("{a} needs a value"));
        match a {
            "--filter" => self.filter = value()?.split(',').map(str::to_string).collect(),
            "--no-python" => self.python = None,
            "--python" => self.python = Some(value()?.clone()),
            "--scripts" => self.scripts = PathBuf::from(value()?),
            "--bench" => {}
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Runs the anchor script `script` of the scripts directory with `args`
    /// ([`anchor`]).
    pub fn anchor(&self, script: &str, args: &[String]) -> Result<(String, Value), String> {
        anchor(self.python.as_deref(), &self.scripts.join(script), args)
    }

    /// Whether case `key` is asked for.
    pub fn wants(&self, key: &str) -> bool {
        self.filter.is_empty() || self.filter.iter().any(|f| f == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_options_are_taken_and_others_left() {
        let args: Vec<String> = ["--filter", "a,b", "--no-python", "--bench", "--runs", "3"]
            .map(String::from)
            .to_vec();
        let mut c = Common::default();
        let mut it = args.iter();
        let mut left = Vec::new();
        while let Some(a) = it.next() {
            if !c.take(a, &mut it).unwrap() {
                left.push(a.clone());
            }
        }
        assert_eq!(c.filter, vec!["a", "b"]);
        assert!(c.python.is_none() && c.wants("a") && !c.wants("c"));
        assert_eq!(left, vec!["--runs", "3"]);
        let none: [String; 0] = [];
        assert!(Common::default()
            .take("--scripts", &mut none.iter())
            .is_err());
    }
}
