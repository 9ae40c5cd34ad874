//! The fusion group behind `cargo xtask bench --group fusion` (`cuprite_benches::fusion`):
//! each case on a backend `B` and on `Fused<B>`, beside NumPy and numexpr (`--backend cpu`)
//! or CuPy eager, `cupy.fuse`, `jax.jit` and `torch.compile` (`--backend cuda`), timed in one run by
//! `scripts/bench_fusion.py` (first, before this process takes device memory); one
//! Markdown table on stdout.
//!
//! `cargo bench -p cuprite-benches --bench fusion [--features cuda] -- [options]`; `--help`
//! lists them. Exit status 0, 1 when a fused result differs from the unfused one or a case
//! fails, 2 on bad options.

use cuprite::fusion::{Fused, FusionBackend};
use cuprite::BackendBase;
use cuprite_benches::fusion::{max_rel_diff, run, shape_of, time, Inputs, Real, CASES};
use cuprite_benches::side_by_side;
use serde_json::Value;
use std::fmt::Write;
use std::path::PathBuf;

const USAGE: &str = "usage: fusion [options]
  --backend cpu|cuda  the wrapped backend (cuda needs the `cuda` feature)
  --dtype f32|f64     element type (default f64 on cpu, f32 on cuda)
  --n N               elements of the large cases (default 2^22 on cpu, 2^26 on cuda)
  --seed-n N          elements of the in-place seed chain (default --n on cpu; 2^29 f32 =
                      2 GB on cuda)
  --runs R            timed runs per row after two warm-ups, median (default 10)
  --filter a,b        only these cases
  --no-python         leave out the Python anchors
  --python EXE        the interpreter (default $CUPRITE_PYTHON or python3)
  --scripts DIR       where bench_fusion.py is (default $CUPRITE_BENCH_SCRIPTS or scripts/)
  --markdown FILE     also write the table there";

struct Opts {
    backend: String,
    dtype: Option<String>,
    n: Option<usize>,
    seed_n: Option<usize>,
    runs: usize,
    filter: Vec<String>,
    python: Option<String>,
    scripts: PathBuf,
    markdown: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        backend: "cpu".into(),
        dtype: None,
        n: None,
        seed_n: None,
        runs: 10,
        filter: Vec::new(),
        python: Some(side_by_side::python()),
        scripts: side_by_side::scripts_dir(),
        markdown: None,
    };
    let mut it = args.iter();
    let num = |v: Option<&String>, a: &str| -> Result<usize, String> {
        v.ok_or(format!("{a} needs a value"))?
            .parse()
            .map_err(|e| format!("{a}: {e}"))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--backend" => o.backend = it.next().ok_or("--backend needs a value")?.clone(),
            "--dtype" => o.dtype = Some(it.next().ok_or("--dtype needs a value")?.clone()),
            "--n" => o.n = Some(num(it.next(), a)?),
            "--seed-n" => o.seed_n = Some(num(it.next(), a)?),
            "--runs" => o.runs = num(it.next(), a)?.max(1),
            "--filter" => {
                o.filter = it
                    .next()
                    .ok_or("--filter needs a value")?
                    .split(',')
                    .map(str::to_string)
                    .collect()
            }
            "--no-python" => o.python = None,
            "--python" => o.python = Some(it.next().ok_or("--python needs a value")?.clone()),
            "--scripts" => o.scripts = it.next().ok_or("--scripts needs a value")?.into(),
            "--markdown" => o.markdown = Some(it.next().ok_or("--markdown needs a value")?.into()),
            "--bench" => {} // what `cargo bench` passes
            other => return Err(format!("unknown option {other}")),
        }
    }
    if !matches!(o.backend.as_str(), "cpu" | "cuda") {
        return Err(format!("--backend {}: cpu or cuda", o.backend));
    }
    Ok(o)
}

/// One row: the times of `B` and `Fused<B>`, or why there are none.
struct Row {
    key: &'static str,
    elements: usize,
    plain: Result<f64, String>,
    fused: Result<f64, String>,
    diff: f64,
    passes: Option<(u64, u64)>,
}

fn measure<T: Real, B: FusionBackend>(o: &Opts, dev: &B, n: usize, seed_n: usize) -> Vec<Row> {
    let fused = Fused::new(dev.clone());
    let mut rows = Vec::new();
    for case in CASES {
        if !o.filter.is_empty() && !o.filter.iter().any(|f| f == case.key) {
            continue;
        }
        let shape = shape_of(case.key, n, seed_n);
        let elements = shape.iter().product();
        eprintln!("fusion: {} {shape:?}", case.key);
        let row = (|| -> Result<Row, String> {
            let e = |e: cuprite::Error| e.to_string();
            let plain_in = Inputs::<T, B>::new(&shape, dev).map_err(e)?;
            let fused_in = Inputs::<T, Fused<B>>::new(&shape, &fused).map_err(e)?;
            let want = run(case.key, &plain_in)
                .and_then(|a| a.to_vec())
                .map_err(e)?;
            let before = fused.stats();
            let got = run(case.key, &fused_in)
                .and_then(|a| a.to_vec())
                .map_err(e)?;
            let after = fused.stats();
            let diff = max_rel_diff(&want, &got);
            Ok(Row {
                key: case.key,
                elements,
                plain: time(case.key, &plain_in, dev, o.runs).map_err(e),
                fused: time(case.key, &fused_in, &fused, o.runs).map_err(e),
                diff,
                passes: Some((
                    after.evaluated - before.evaluated,
                    after.fused_ops - before.fused_ops,
                )),
            })
        })();
        rows.push(row.unwrap_or_else(|err| Row {
            key: case.key,
            elements,
            plain: Err(err.clone()),
            fused: Err(err),
            diff: 0.0,
            passes: None,
        }));
    }
    rows
}

/// Runs the Python anchors: `(about, {key: {system: seconds or error}})`.
fn anchors(o: &Opts, dtype: &str, n: usize, seed_n: usize) -> Result<(String, Value), String> {
    let device = if o.backend == "cuda" { "gpu" } else { "cpu" };
    let mut args: Vec<String> = [
        "--device",
        device,
        "--dtype",
        dtype,
        "--n",
        &n.to_string(),
        "--seed-n",
        &seed_n.to_string(),
        "--runs",
        &o.runs.to_string(),
        "--json",
    ]
    .map(String::from)
    .to_vec();
    if !o.filter.is_empty() {
        args.extend(["--keys".to_string(), o.filter.join(",")]);
    }
    side_by_side::anchor(
        o.python.as_deref(),
        &o.scripts.join("bench_fusion.py"),
        &args,
    )
}

fn ms(t: &Result<f64, String>) -> String {
    match t {
        Ok(s) if *s < 1e-3 => format!("{:.1} us", s * 1e6),
        Ok(s) => format!("{:.3} ms", s * 1e3),
        Err(e) => format!("failed: {}", e.chars().take(60).collect::<String>()),
    }
}

fn main() {
    let o = side_by_side::options("fusion", USAGE, parse);
    let cuda = o.backend == "cuda";
    let dtype = o
        .dtype
        .clone()
        .unwrap_or_else(|| if cuda { "f32" } else { "f64" }.into());
    let n = o.n.unwrap_or(if cuda { 1 << 26 } else { 1 << 22 });
    let seed_n = o.seed_n.unwrap_or(if cuda { 1 << 29 } else { n });
    // The anchors first, while this process holds no device memory (the seed chain's 2 GB
    // arrays leave too little room for CuPy's otherwise).
    let (about, refs) = anchors(&o, &dtype, n, seed_n).unwrap_or_else(|e| (e, Value::Null));
    let (label, rows) = match (o.backend.as_str(), dtype.as_str()) {
        ("cpu", d) => {
            let dev = cuprite::Cpu::new();
            let rows = if d == "f32" {
                measure::<f32, _>(&o, &dev, n, seed_n)
            } else {
                measure::<f64, _>(&o, &dev, n, seed_n)
            };
            (dev.label(), rows)
        }
        #[cfg(feature = "cuda")]
        ("cuda", d) => {
            let dev = match cuprite::Cuda::new(0) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("fusion: no CUDA device: {e}");
                    std::process::exit(1);
                }
            };
            let rows = if d == "f64" {
                measure::<f64, _>(&o, &dev, n, seed_n)
            } else {
                measure::<f32, _>(&o, &dev, n, seed_n)
            };
            (dev.label(), rows)
        }
        (b, _) => {
            eprintln!("fusion: backend {b} is not compiled in (build with --features cuda)");
            std::process::exit(2);
        }
    };
    let systems: &[&str] = if cuda {
        &["cupy", "cupy.fuse", "jax.jit", "torch.compile"]
    } else {
        &["numpy", "numexpr"]
    };
    let size = if dtype == "f32" { 4.0 } else { 8.0 };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "fusion group: cuprite {} on {label}, {dtype}; anchors: {about}\n",
        env!("CARGO_PKG_VERSION")
    );
    let _ = write!(
        t,
        "| case | elements | B | Fused<B> | Fused gain | passes (ops) |"
    );
    for s in systems {
        let _ = write!(t, " {s} | Fused / {s} |");
    }
    let _ = writeln!(t, " Fused GB/s |");
    let _ = write!(t, "| --- | ---: | ---: | ---: | ---: | ---: |");
    for _ in systems {
        t.push_str(" ---: | ---: |");
    }
    t.push_str(" ---: |\n");
    let mut bad = false;
    for r in &rows {
        bad |= r.plain.is_err() || r.fused.is_err() || r.diff > 1e-6;
        let gain = match (&r.plain, &r.fused) {
            (Ok(p), Ok(f)) => format!("{:.2}x", p / f),
            _ => "-".into(),
        };
        let passes = r.passes.map_or("-".into(), |(e, k)| format!("{e} ({k})"));
        let _ = write!(
            t,
            "| {} | {} | {} | {}{} | {gain} | {passes} |",
            r.key,
            r.elements,
            ms(&r.plain),
            ms(&r.fused),
            if r.diff > 0.0 {
                format!(" (rel diff {:.1e})", r.diff)
            } else {
                String::new()
            }
        );
        for s in systems {
            let v = &refs[r.key][*s];
            match (v.as_f64(), &r.fused) {
                (Some(secs), Ok(f)) => {
                    let _ = write!(t, " {} | {:.2}x |", ms(&Ok(secs)), secs / f);
                }
                _ => {
                    let why = v.as_str().unwrap_or("-");
                    let _ = write!(t, " {} | - |", why.chars().take(40).collect::<String>());
                }
            }
        }
        // Bytes a one-pass evaluation moves: every input read once, the output written.
        let bytes = match r.key {
            "copy" | "seed" => 2.0,
            "chain10" | "chain" | "chain_small" => 3.0,
            "sumsq" => 2.0,
            _ => 2.0,
        } * r.elements as f64
            * size;
        let gbs = r
            .fused
            .as_ref()
            .map_or("-".into(), |f| format!("{:.0}", bytes / f / 1e9));
        let _ = writeln!(t, " {gbs} |");
    }
    println!("{t}");
    if let Some(p) = &o.markdown {
        if let Err(e) = std::fs::write(p, &t) {
            eprintln!("fusion: cannot write {}: {e}", p.display());
        }
    }
    std::process::exit(if bad { 1 } else { 0 });
}
