//! Batched small-matrix linear algebra: `inv`, `solve` (one right-hand side column) and `det`
//! of `batch` 3 x 3 and 4 x 4 f64 matrices, `cholesky` and `eigh` of `batch` 8 x 8 ones, on
//! one backend beside NumPy (`--backend cpu`) or CuPy (`--backend cuda`), timed in one run by
//! `scripts/bench_batched_linalg.py` (first, before this process takes device memory). Each
//! result is checked once, untimed, against the CPU backend on the same input (`eigh`: the
//! eigenvalues). One Markdown table on stdout.
//!
//! `cargo bench -p cuprite-benches --bench batched_linalg [--features cuda] -- [options]`;
//! `--help` lists them. Exit status 0, 1 when a result disagrees or a case fails, 2 on bad
//! options.

use cuprite::{Array, ArrayBackend, BackendBase, Cpu, Result};
use cuprite_benches::{data, side_by_side};
use serde_json::Value;
use std::fmt::Write;
use std::time::Instant;

const USAGE: &str = "usage: batched_linalg [options]
  --backend cpu|cuda  the backend (cuda needs the `cuda` feature; default cpu)
  --batch N           matrices per case (default 100000 on cuda, 10000 on cpu)
  --runs R            timed runs per row after five warm-ups, median (default 10)
  --filter a,b        only these cases
  --no-python         leave out the Python anchor
  --python EXE        the interpreter (default $CUPRITE_PYTHON or python3)
  --scripts DIR       where bench_batched_linalg.py is (default $CUPRITE_BENCH_SCRIPTS or
                      scripts/)";

/// Untimed runs before the timed ones: the first few of a new shape take fresh pages until
/// the host memory pool holds their buffers.
const WARM_UPS: usize = 5;

/// The cases: key, matrix order, operation.
const CASES: [(&str, usize, &str); 8] = [
    ("inv_3x3", 3, "inv"),
    ("inv_4x4", 4, "inv"),
    ("solve_3x3", 3, "solve"),
    ("solve_4x4", 4, "solve"),
    ("det_3x3", 3, "det"),
    ("det_4x4", 4, "det"),
    ("cholesky_8x8", 8, "cholesky"),
    ("eigh_8x8", 8, "eigh"),
];

struct Opts {
    backend: String,
    batch: Option<usize>,
    runs: usize,
    common: side_by_side::Common,
}

fn parse(args: &[String]) -> std::result::Result<Opts, String> {
    let mut o = Opts {
        backend: "cpu".into(),
        batch: None,
        runs: 10,
        common: side_by_side::Common::default(),
    };
    let mut it = args.iter();
    let num = |v: Option<&String>, a: &str| -> std::result::Result<usize, String> {
        v.ok_or(format!("{a} needs a value"))?
            .parse()
            .map_err(|_| format!("{a} needs a positive integer"))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--backend" => o.backend = it.next().ok_or("--backend needs a value")?.clone(),
            "--batch" => o.batch = Some(num(it.next(), a)?.max(1)),
            "--runs" => o.runs = num(it.next(), a)?.max(1),
            other if o.common.take(other, &mut it)? => {}
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

/// The input of a case, row-major `[batch, n, n]`: values in [-1, 1) plus `n` on the
/// diagonal (well conditioned) for `inv`, `solve` and `det`; `R R^T + n I` (symmetric
/// positive definite) for `cholesky` and `eigh`.
fn input(op: &str, batch: usize, n: usize) -> Vec<f64> {
    let r = data::uniform(batch * n * n, -1.0, 1.0, 41);
    if op == "cholesky" || op == "eigh" {
        let mut a = vec![0.0; batch * n * n];
        for b in 0..batch {
            let m = &r[b * n * n..(b + 1) * n * n];
            for i in 0..n {
                for j in 0..n {
                    let s: f64 = (0..n).map(|p| m[i * n + p] * m[j * n + p]).sum();
                    a[b * n * n + i * n + j] = s + if i == j { n as f64 } else { 0.0 };
                }
            }
        }
        a
    } else {
        let mut a = r;
        for b in 0..batch {
            for i in 0..n {
                a[b * n * n + i * n + i] += n as f64;
            }
        }
        a
    }
}

/// One evaluation of a case's operation.
fn eval<B: ArrayBackend>(
    op: &str,
    a: &Array<f64, B>,
    rhs: &Array<f64, B>,
) -> Result<Array<f64, B>> {
    match op {
        "inv" => a.inv(),
        "solve" => a.solve(rhs),
        "det" => a.det(),
        "cholesky" => a.cholesky(),
        _ => Ok(a.eigh()?.0),
    }
}

/// Largest relative difference of two results.
fn rel_diff(x: &[f64], y: &[f64]) -> f64 {
    let scale = y.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    x.iter().zip(y).map(|(a, b)| (a - b).abs()).fold(
        if x.len() == y.len() {
            0.0
        } else {
            f64::INFINITY
        },
        f64::max,
    ) / scale
}

/// Median seconds of `runs` evaluations after [`WARM_UPS`] untimed ones, each ending with a device
/// synchronisation, and the result's relative difference from the CPU backend's.
fn measure<B: ArrayBackend>(
    dev: &B,
    op: &str,
    n: usize,
    batch: usize,
    runs: usize,
) -> Result<(f64, f64)> {
    let host = input(op, batch, n);
    let rhs_host = data::uniform(batch * n, -1.0, 1.0, 43);
    let a = Array::<f64, B>::from_vec(host.clone(), &[batch, n, n], dev)?;
    let rhs = Array::<f64, B>::from_vec(rhs_host.clone(), &[batch, n, 1], dev)?;
    let cpu = Cpu::new();
    let want = eval(
        op,
        &Array::<f64, Cpu>::from_vec(host, &[batch, n, n], &cpu)?,
        &Array::<f64, Cpu>::from_vec(rhs_host, &[batch, n, 1], &cpu)?,
    )?
    .to_vec()?;
    let diff = rel_diff(&eval(op, &a, &rhs)?.to_vec()?, &want);
    for _ in 0..WARM_UPS {
        drop(eval(op, &a, &rhs)?);
        dev.synchronize()?;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t0 = Instant::now();
        let x = eval(op, &a, &rhs)?;
        dev.synchronize()?;
        times.push(t0.elapsed().as_secs_f64());
        drop(x);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[runs / 2], diff))
}

/// Runs the Python anchor: `(about, {key: seconds or error})`.
fn anchors(o: &Opts, batch: usize) -> std::result::Result<(String, Value), String> {
    let device = if o.backend == "cuda" { "gpu" } else { "cpu" };
    let args = [
        "--device",
        device,
        "--batch",
        &batch.to_string(),
        "--runs",
        &o.runs.to_string(),
    ];
    o.common
        .anchor("bench_batched_linalg.py", &args.map(String::from))
}

fn ms(s: f64) -> String {
    format!("{:.3}", s * 1e3)
}

/// Every case on `dev`: the table rows and whether one failed or disagreed.
fn table<B: ArrayBackend>(dev: &B, o: &Opts, batch: usize, refs: &Value) -> (String, bool) {
    let mut t = String::new();
    let mut bad = false;
    let cases = CASES.iter().filter(|(key, ..)| o.common.wants(key));
    for &(key, n, op) in cases {
        match measure(dev, op, n, batch, o.runs) {
            Ok((secs, diff)) => {
                bad |= diff.is_nan() || diff >= 1e-8;
                let (anchor, ratio) = match refs[key].as_f64() {
                    Some(r) => (ms(r), format!("{:.2}x", r / secs)),
                    None => (refs[key].as_str().unwrap_or("-").to_string(), "-".into()),
                };
                let _ = writeln!(
                    t,
                    "| {key} | {} | {anchor} | {ratio} | {diff:.1e} |",
                    ms(secs)
                );
            }
            Err(e) => {
                bad = true;
                let _ = writeln!(t, "| {key} | failed: {e} | - | - | - |");
            }
        }
    }
    (t, bad)
}

fn main() {
    let o = side_by_side::options("batched_linalg", USAGE, parse);
    let cuda = o.backend == "cuda";
    let batch = o.batch.unwrap_or(if cuda { 100_000 } else { 10_000 });
    let (about, refs) = anchors(&o, batch).unwrap_or_else(|e| (e, Value::Null));
    let anchor = if cuda { "CuPy" } else { "NumPy" };
    let (label, (rows, bad)) = match o.backend.as_str() {
        "cpu" => {
            let dev = Cpu::new();
            (dev.label(), table(&dev, &o, batch, &refs))
        }
        #[cfg(feature = "cuda")]
        "cuda" => {
            let dev = match cuprite::Cuda::new(0) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("batched_linalg: no CUDA device: {e}");
                    std::process::exit(1);
                }
            };
            (dev.label(), table(&dev, &o, batch, &refs))
        }
        b => {
            eprintln!(
                "batched_linalg: backend {b} is not compiled in (build with --features cuda)"
            );
            std::process::exit(2);
        }
    };
    println!(
        "batched small-matrix linear algebra, {batch} f64 matrices a case: cuprite {} on \
         {label}; anchor: {about}\n",
        env!("CARGO_PKG_VERSION")
    );
    println!("| case | cuprite (ms) | {anchor} (ms) | {anchor} / cuprite | rel. diff from Cpu |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    print!("{rows}");
    std::process::exit(if bad { 1 } else { 0 });
}
