//! The reference side of the `multi_gpu` bench: runs `scripts/multi_gpu_reference.py`
//! (CuPy's copies between devices, `torch.distributed.all_reduce` with NCCL, one process
//! per GPU) on the schedule of this run, and reads the JSON lines it prints (their format is
//! documented at the top of the script). The script runs in a process group of its own and
//! is killed with its workers when it outlives [`TIMEOUT`].

use crate::table::{Outcome, Time};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the script may run.
pub const TIMEOUT: Duration = Duration::from_secs(1200);

/// The file name of the script in the scripts directory.
pub const SCRIPT: &str = "multi_gpu_reference.py";

/// What the script is asked to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Bytes of each array.
    pub sizes: Vec<usize>,
    /// Calls timed together per run, one count per size.
    pub inner: Vec<usize>,
    pub runs: usize,
    pub warmup: usize,
    /// `(source GPU, destination GPU)` of each copy table.
    pub copies: Vec<(usize, usize)>,
    /// The communicator sizes of the all_reduce tables.
    pub worlds: Vec<usize>,
    pub cupy: bool,
    pub torch: bool,
}

impl Plan {
    /// The script's arguments.
    pub fn args(&self) -> Vec<String> {
        let join = |v: &[usize]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut a = vec![
            "--sizes".into(),
            join(&self.sizes),
            "--inner".into(),
            join(&self.inner),
            "--runs".into(),
            self.runs.to_string(),
            "--warmup".into(),
            self.warmup.to_string(),
        ];
        for (s, d) in &self.copies {
            a.push("--copy".into());
            a.push(format!("{s}:{d}"));
        }
        for w in &self.worlds {
            a.push("--all-reduce".into());
            a.push(w.to_string());
        }
        if !self.cupy {
            a.push("--no-cupy".into());
        }
        if !self.torch {
            a.push("--no-torch".into());
        }
        a
    }
}

/// What the script reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reference {
    /// `CuPy 14.2.0, PyTorch 2.11.0 (NCCL 2.27.5), Python 3.12.3`.
    pub about: String,
    /// Why CuPy's copies were not measured, if they were not.
    pub cupy_error: Option<String>,
    /// Why torch's all_reduce was not measured, if it was not.
    pub torch_error: Option<String>,
    /// The NCCL version PyTorch was built with.
    pub torch_nccl: Option<String>,
    /// The CUDA driver's API version as CuPy reads it (`13.0`).
    pub cuda_driver: Option<String>,
    /// Copy figures by `(source, destination, bytes)`.
    pub copies: HashMap<(usize, usize, usize), Outcome>,
    /// all_reduce figures by `(ranks, bytes)`.
    pub reduces: HashMap<(usize, usize), Outcome>,
    /// An error of all the all_reduce figures of a communicator size (the ranks failed),
    /// for the sizes that have no figure of their own.
    pub reduce_failures: HashMap<usize, String>,
}

impl Reference {
    /// The copy figure of `(src, dst, bytes)`: `None` where CuPy did not run.
    pub fn copy(&self, src: usize, dst: usize, bytes: usize) -> Option<Outcome> {
        if self.cupy_error.is_some() {
            return None;
        }
        Some(
            self.copies
                .get(&(src, dst, bytes))
                .cloned()
                .unwrap_or_else(|| {
                    Err("error: the reference reported no figure (see the log)".into())
                }),
        )
    }

    /// The all_reduce figure of `(world, bytes)`: `None` where torch did not run.
    pub fn reduce(&self, world: usize, bytes: usize) -> Option<Outcome> {
        if self.torch_error.is_some() {
            return None;
        }
        Some(match self.reduces.get(&(world, bytes)) {
            Some(o) => o.clone(),
            None => Err(self
                .reduce_failures
                .get(&world)
                .cloned()
                .unwrap_or_else(|| "error: the reference reported no figure (see the log)".into())),
        })
    }
}

/// Runs the script with `plan`; its stderr (progress, NCCL's warnings) goes to ours, as
/// does any line of its stdout that is not one of its JSON lines.
pub fn run(python: &str, script: &Path, plan: &Plan) -> Result<Reference, String> {
    if !script.is_file() {
        return Err(format!(
            "{} not found (set CUPRITE_BENCH_SCRIPTS or --scripts)",
            script.display()
        ));
    }
    let mut cmd = Command::new(python);
    cmd.arg(script)
        .args(plan.args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {python} {}: {e}", script.display()))?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or("the script's stdout is not piped")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                kill(&mut child);
                let _ = reader.join();
                return Err(format!(
                    "{} ran over {} s and was stopped",
                    script.display(),
                    TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => {
                kill(&mut child);
                return Err(format!("waiting for {}: {e}", script.display()));
            }
        }
    };
    let text = reader.join().unwrap_or_default();
    let parsed = parse(&text);
    if !status.success() {
        eprintln!(
            "multi_gpu: {} exited with {status} (its messages are above)",
            script.display()
        );
    }
    parsed
}

/// Stops the script and the processes it started (its process group).
fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A figure of a result line: its times, or its `error`.
fn outcome(v: &Value) -> Outcome {
    match (v["median_ms"].as_f64(), v["min_ms"].as_f64()) {
        (Some(median_ms), Some(min_ms)) => Ok(Time { median_ms, min_ms }),
        _ => Err(v["error"].as_str().unwrap_or("no figure").to_string()),
    }
}

fn index(v: &Value, key: &str) -> Option<usize> {
    v[key].as_u64().map(|x| x as usize)
}

fn text(v: &Value, key: &str) -> Option<String> {
    v[key].as_str().map(str::to_string)
}

/// Reads the script's output: JSON lines with a `kind` (`about`, `copy`, `all_reduce`);
/// other lines are passed on to stderr.
pub fn parse(output: &str) -> Result<Reference, String> {
    let mut r = Reference::default();
    let mut about = false;
    for line in output.lines() {
        let v: Value = match serde_json::from_str(line.trim()) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                if !line.trim().is_empty() {
                    eprintln!("{line}");
                }
                continue;
            }
        };
        match v["kind"].as_str() {
            Some("about") => {
                about = true;
                r.about = text(&v, "about").unwrap_or_default();
                r.cupy_error = text(&v, "cupy_error");
                r.torch_error = text(&v, "torch_error");
                r.torch_nccl = text(&v, "torch_nccl");
                r.cuda_driver = text(&v, "cuda_driver");
            }
            Some("copy") => match (index(&v, "src"), index(&v, "dst"), index(&v, "bytes")) {
                (Some(s), Some(d), Some(b)) => {
                    r.copies.insert((s, d, b), outcome(&v));
                }
                _ => eprintln!("multi_gpu: a copy line without src, dst or bytes: {line}"),
            },
            Some("all_reduce") => match (index(&v, "world"), index(&v, "bytes")) {
                (Some(w), Some(b)) => {
                    r.reduces.insert((w, b), outcome(&v));
                }
                (Some(w), None) => {
                    let e = outcome(&v).err().unwrap_or_else(|| "no figure".into());
                    r.reduce_failures.insert(w, e);
                }
                _ => eprintln!("multi_gpu: an all_reduce line without world: {line}"),
            },
            _ => eprintln!("{line}"),
        }
    }
    if !about {
        return Err("the reference printed no \"about\" line (its messages are above)".into());
    }
    Ok(r)
}
