//! Running the programs group: the rows (program x size), the timing loop with process CPU
//! time and minor page faults (`getrusage`), the checks against NumPy's outputs, the child
//! process that times cuprite at one thread setting (rayon's pool and the matmul threads are
//! fixed at a process's first use, so each setting is a fresh process), and the parent that
//! runs NumPy, CuPy and the children and prints the table.
//!
//! Per row and side: one warm-up run whose outputs are checked (NumPy's are saved as `.npy`
//! by `scripts/bench_programs.py --save DIR`, cuprite's compared with them), then up to
//! `runs` timed runs, each after an untimed reset of the inputs; the median and minimum
//! wall time, the median CPU time and the median minor page faults per call are kept.

use super::options::ProgramOptions;
use super::table::{Measured, Outcome, Results};
use super::{def, prepare, ProgramDef, Runnable, PROGRAMS};
use crate::compare::median;
use cuprite::fusion::Fused;
use cuprite::{Array, ArrayBackend, BackendBase, Cpu};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One row: a program at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The program's key.
    pub key: String,
    /// `small`, `medium` or `micro`.
    pub size: String,
    /// The program's parameters at that size.
    pub params: Vec<usize>,
    /// Calls per timed run.
    pub inner: usize,
}

/// The rows the options ask for, programs first (by size), then the micro rows.
pub fn rows(opts: &ProgramOptions) -> Vec<Row> {
    let wanted = |p: &ProgramDef| {
        opts.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|k| k == p.key))
    };
    let mut v = Vec::new();
    if opts.programs {
        for size in &opts.sizes {
            for p in PROGRAMS.iter().filter(|p| !p.micro && wanted(p)) {
                let params = if size == "small" { p.small } else { p.medium };
                v.push(Row {
                    key: p.key.into(),
                    size: size.clone(),
                    params: params.to_vec(),
                    inner: p.inner,
                });
            }
        }
    }
    if opts.micro {
        for p in PROGRAMS.iter().filter(|p| p.micro && wanted(p)) {
            v.push(Row {
                key: p.key.into(),
                size: "micro".into(),
                params: p.small.to_vec(),
                inner: p.inner,
            });
        }
    }
    v
}

/// The rows as the JSON list both the script and the child read.
pub fn spec_json(rows: &[Row]) -> String {
    Value::Array(
        rows.iter()
            .map(|r| {
                let (rtol, bad_frac) = def(&r.key).map_or((1e-9, 0.0), |d| (d.rtol, d.bad_frac));
                json!({"id": r.key, "size": r.size, "params": r.params, "inner": r.inner,
                       "rtol": rtol, "bad_frac": bad_frac})
            })
            .collect(),
    )
    .to_string()
}

fn parse_spec(text: &str) -> Result<Vec<Row>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("bad spec: {e}"))?;
    let list = v.as_array().ok_or("the spec is not a list")?;
    list.iter()
        .map(|r| {
            Ok(Row {
                key: r["id"].as_str().ok_or("a row without id")?.to_string(),
                size: r["size"].as_str().ok_or("a row without size")?.to_string(),
                params: r["params"]
                    .as_array()
                    .ok_or("a row without params")?
                    .iter()
                    .filter_map(|x| x.as_u64().map(|x| x as usize))
                    .collect(),
                inner: r["inner"].as_u64().unwrap_or(1) as usize,
            })
        })
        .collect()
}

/// This process's CPU time (user + system, seconds) and minor page faults so far.
pub fn usage() -> (f64, u64) {
    // SAFETY: getrusage only writes the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage struct.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (tv(ru.ru_utime) + tv(ru.ru_stime), ru.ru_minflt as u64)
}

/// Compares a program's outputs with NumPy's: every element within `rtol * max(|ref|, max
/// |ref| of that output * 1e-3)` (NaN matches NaN), with at most `bad_frac` of the elements
/// of an output outside.
pub fn check_outputs(d: &ProgramDef, got: &[Vec<f64>], refs: &[Vec<f64>]) -> Result<(), String> {
    if got.len() != refs.len() {
        return Err(format!("{} outputs, NumPy gave {}", got.len(), refs.len()));
    }
    for (k, (g, r)) in got.iter().zip(refs).enumerate() {
        if g.len() != r.len() {
            return Err(format!(
                "output {k} has {} elements, NumPy's {}",
                g.len(),
                r.len()
            ));
        }
        let scale = r
            .iter()
            .filter(|x| x.is_finite())
            .fold(0.0f64, |m, x| m.max(x.abs()));
        let mut bad = 0usize;
        let mut first = None;
        for (i, (a, b)) in g.iter().zip(r).enumerate() {
            let ok = (a.is_nan() && b.is_nan())
                || a == b
                || (a - b).abs() <= d.rtol * b.abs().max(scale * 1e-3);
            if !ok {
                bad += 1;
                first.get_or_insert((i, *a, *b));
            }
        }
        if bad as f64 > d.bad_frac * g.len() as f64 {
            let (i, a, b) = first.unwrap_or_default();
            return Err(format!(
                "output {k}: {bad} of {} elements differ (first: [{i}] = {a}, NumPy {b})",
                g.len()
            ));
        }
    }
    Ok(())
}

/// The reference outputs NumPy saved for `key` at `size`: `DIR/KEY__SIZE__K.npy`.
pub fn load_refs(dir: &Path, key: &str, size: &str) -> Option<Vec<Vec<f64>>> {
    let cpu = Cpu::new();
    let mut v = Vec::new();
    for k in 0.. {
        let p = dir.join(format!("{key}__{size}__{k}.npy"));
        if !p.is_file() {
            break;
        }
        v.push(Array::<f64, Cpu>::load_npy(&p, &cpu).ok()?.to_vec().ok()?);
    }
    (!v.is_empty()).then_some(v)
}

/// Times a prepared program: a checked warm-up (`check` sees its outputs), then up to
/// `runs` timed runs within about `max_s` seconds.
pub fn time_runnable(
    r: &mut dyn Runnable,
    inner: usize,
    runs: usize,
    max_s: f64,
    check: impl Fn(&[Vec<f64>]) -> Result<(), String>,
) -> Outcome {
    let err = |e: cuprite::Error| format!("error: {e}");
    r.reset().map_err(err)?;
    let t0 = Instant::now();
    r.run().map_err(err)?;
    let warm = t0.elapsed().as_secs_f64();
    check(&r.outputs().map_err(err)?).map_err(|e| format!("WRONG RESULT: {e}"))?;
    let n = if warm > 0.0 {
        ((max_s / warm) as usize).clamp(1, runs)
    } else {
        runs
    };
    let (mut wall, mut cpu, mut flt) = (Vec::new(), Vec::new(), Vec::new());
    let per = inner.max(1) as f64;
    for _ in 0..n {
        r.reset().map_err(err)?;
        let (c0, f0) = usage();
        let t0 = Instant::now();
        r.run().map_err(err)?;
        let t = t0.elapsed().as_secs_f64();
        let (c1, f1) = usage();
        wall.push(t * 1e3 / per);
        cpu.push((c1 - c0) * 1e3 / per);
        flt.push(f1.saturating_sub(f0) as f64 / per);
    }
    let min_ms = wall.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Measured {
        median_ms: median(&mut wall),
        min_ms,
        cpu_ms: median(&mut cpu),
        minflt: median(&mut flt),
        runs: n,
    })
}

/// The JSON of one outcome (the format of the script's results).
pub fn outcome_json(row: &Row, o: &Outcome, checked: bool) -> Value {
    match o {
        Ok(m) => json!({
            "id": row.key, "size": row.size, "median_ms": m.median_ms, "min_ms": m.min_ms,
            "cpu_ms": m.cpu_ms, "minflt": m.minflt, "runs": m.runs,
            "check": if checked { "ok" } else { "unchecked" },
        }),
        Err(e) => json!({"id": row.key, "size": row.size, "error": e}),
    }
}

/// Parses one result entry of the script's or a child's JSON.
pub fn parse_outcome(r: &Value) -> Outcome {
    match (r["median_ms"].as_f64(), r["min_ms"].as_f64()) {
        (Some(median_ms), Some(min_ms)) => Ok(Measured {
            median_ms,
            min_ms,
            cpu_ms: r["cpu_ms"].as_f64().unwrap_or(f64::NAN),
            minflt: r["minflt"].as_f64().unwrap_or(f64::NAN),
            runs: r["runs"].as_u64().unwrap_or(0) as usize,
        }),
        _ => Err(r["error"].as_str().unwrap_or("no timing").to_string()),
    }
}

fn run_rows<B: ArrayBackend>(rows: &[Row], opts: &ProgramOptions, dev: &B) -> Vec<Value> {
    let mut out = Vec::new();
    for row in rows {
        let Some(d) = def(&row.key) else { continue };
        let refs = opts
            .refs
            .as_deref()
            .and_then(|dir| load_refs(dir, &row.key, &row.size));
        let o = match prepare(&row.key, &row.params, dev) {
            Ok(mut r) => time_runnable(r.as_mut(), row.inner, opts.runs, opts.max_seconds, |g| {
                refs.as_ref()
                    .map_or(Ok(()), |refs| check_outputs(d, g, refs))
            }),
            Err(e) => Err(format!("error: {e}")),
        };
        eprintln!(
            "  cuprite {} {}: {}",
            row.key,
            row.size,
            match &o {
                Ok(m) => format!("{:.4} ms", m.median_ms),
                Err(e) => e.clone(),
            }
        );
        out.push(outcome_json(row, &o, refs.is_some()));
    }
    out
}

/// The child: times the spec's rows on the backend asked for and prints the JSON.
pub fn child_main(opts: &ProgramOptions, spec: &str) -> i32 {
    let rows = match parse_spec(spec) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("programs: {e}");
            return 2;
        }
    };
    let (about, results) = match opts.backend.as_str() {
        "cpu" => {
            let dev = Cpu::new();
            (dev.label(), run_rows(&rows, opts, &dev))
        }
        "fused-cpu" => {
            let dev = Fused::new(Cpu::new());
            (dev.label(), run_rows(&rows, opts, &dev))
        }
        #[cfg(feature = "cuda")]
        "cuda" | "fused-cuda" => match cuprite::Cuda::new(0) {
            Ok(dev) if opts.backend == "cuda" => (dev.label(), run_rows(&rows, opts, &dev)),
            Ok(dev) => {
                let dev = Fused::new(dev);
                (dev.label(), run_rows(&rows, opts, &dev))
            }
            Err(e) => {
                eprintln!("programs: no CUDA device: {e}");
                return 1;
            }
        },
        b => {
            eprintln!("programs: backend {b} is not compiled in (build with --features cuda)");
            return 2;
        }
    };
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| {
        std::thread::available_parallelism().map_or("?".into(), |n| n.to_string())
    });
    println!(
        "{}",
        json!({"about": format!("cuprite {} on {about}, {threads} threads", env!("CARGO_PKG_VERSION")),
               "results": results})
    );
    0
}

/// The thread variables of both sides.
const THREAD_VARS: [&str; 5] = [
    "RAYON_NUM_THREADS",
    "MATMUL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
];

/// Sets (`1`) or clears (`default`) the thread variables of a command.
fn with_threads(cmd: &mut Command, threads: &str) {
    for v in THREAD_VARS {
        if threads == "1" {
            cmd.env(v, "1");
        } else {
            cmd.env_remove(v);
        }
    }
}

/// Runs a command whose stdout is one JSON document with `about` and `results`.
fn run_json(mut cmd: Command, what: &str) -> Result<(String, Vec<Value>), String> {
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what} exited with {}", out.status));
    }
    let v: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("bad JSON from {what}: {e}"))?;
    let results = v["results"].as_array().cloned().unwrap_or_default();
    Ok((v["about"].as_str().unwrap_or("?").to_string(), results))
}

/// Runs `bench_programs.py` for `side` (`numpy`, `cupy`, or `jax`: the `jax.jit` forms,
/// checked against NumPy by the script) at a thread setting, saving the outputs into
/// `save` when given.
fn run_python(
    opts: &ProgramOptions,
    spec: &str,
    threads: &str,
    side: &str,
    save: Option<&Path>,
) -> Result<(String, Vec<Value>), String> {
    let script = opts.scripts.join("bench_programs.py");
    let mut cmd = Command::new(&opts.python);
    cmd.arg(&script).args([
        "--json",
        "--runs",
        &opts.runs.to_string(),
        "--max-seconds",
        &opts.max_seconds.to_string(),
        "--spec",
        spec,
    ]);
    if side != "numpy" {
        cmd.arg(format!("--{side}"));
    }
    if let Some(dir) = save {
        cmd.arg("--save").arg(dir);
    }
    with_threads(&mut cmd, threads);
    run_json(cmd, &format!("{} {}", opts.python, script.display()))
}

/// Runs this binary as a child timing cuprite at a thread setting.
fn run_child(
    opts: &ProgramOptions,
    spec: &str,
    threads: &str,
    refs: Option<&Path>,
) -> Result<(String, Vec<Value>), String> {
    let exe = std::env::current_exe().map_err(|e| format!("no current exe: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["--backend", &opts.backend, "--runs", &opts.runs.to_string()])
        .args([
            "--max-seconds",
            &opts.max_seconds.to_string(),
            "--child",
            spec,
        ]);
    if let Some(dir) = refs {
        cmd.arg("--refs").arg(dir);
    }
    with_threads(&mut cmd, threads);
    run_json(cmd, "the cuprite child")
}

/// The parent: NumPy (saving its outputs once), CuPy and cuprite at every thread setting,
/// then the table. Returns the exit status.
pub fn parent_main(opts: &ProgramOptions) -> i32 {
    let rows = rows(opts);
    let spec = spec_json(&rows);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("cuprite-programs-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut res = Results::new(rows.clone(), opts.threads.clone(), opts.backend.clone());
    let numpy_ok = opts.numpy && crate::python::numpy_available(&opts.python).is_ok();
    if opts.numpy && !numpy_ok {
        res.notes
            .push("NumPy is not importable: cuprite's results are unchecked".into());
    }
    let gpu = opts.backend.ends_with("cuda");
    let mut gpu_side = |on: bool, name: &str, probe: fn(&str) -> Result<(), String>| {
        on && gpu
            && match probe(&opts.python) {
                Ok(()) => true,
                Err(e) => {
                    res.notes.push(format!("{name} not run: {e}"));
                    false
                }
            }
    };
    let cupy_ok = gpu_side(opts.cupy, "CuPy", crate::python::cupy_available);
    let jax_ok = gpu_side(opts.jax, "JAX", crate::python::jax_available);
    let mut refs_saved = false;
    for threads in &opts.threads {
        eprintln!("programs: threads = {threads}");
        if numpy_ok {
            let save = (!refs_saved).then_some(dir.as_path());
            match run_python(opts, &spec, threads, "numpy", save) {
                Ok((about, r)) => {
                    refs_saved = true;
                    res.add("numpy", threads, &about, &r);
                }
                Err(e) => res.problems.push(format!("NumPy ({threads} threads): {e}")),
            }
        }
        for (side, ok) in [("cupy", cupy_ok), ("jax", jax_ok)] {
            if ok {
                match run_python(opts, &spec, threads, side, None) {
                    Ok((about, r)) => res.add(side, threads, &about, &r),
                    Err(e) => res.notes.push(format!("{side} ({threads} threads): {e}")),
                }
            }
        }
        match run_child(opts, &spec, threads, refs_saved.then_some(dir.as_path())) {
            Ok((about, r)) => res.add("cuprite", threads, &about, &r),
            Err(e) => res
                .problems
                .push(format!("cuprite ({threads} threads): {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let md = res.markdown();
    println!("{md}");
    if let Some(p) = &opts.markdown {
        if let Err(e) = std::fs::write(p, &md) {
            eprintln!("programs: cannot write {}: {e}", p.display());
        }
    }
    if let Some(p) = &opts.json {
        let text = serde_json::to_string_pretty(&res.json()).unwrap_or_default();
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("programs: cannot write {}: {e}", p.display());
        }
    }
    let failures = res.failures();
    for f in &failures {
        eprintln!("programs: FAILED: {f}");
    }
    i32::from(!failures.is_empty())
}
