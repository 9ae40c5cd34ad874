//! `.npy` save and load of a large f64 array (2 GB by default), timed beside NumPy's
//! `np.save` / `np.load` in the same run on the same machine and disk: seconds (median of
//! `--reps` after a warm-up), GB/s and the ratio cuprite / NumPy (below 1: cuprite is
//! faster). Rows:
//!
//! - `save`: `Array::save_npy` from the CPU (and from the GPU with `--backend cuda`: the
//!   download is part of it). cuprite syncs the file to disk before renaming it into place;
//!   NumPy's `np.save` does not, so NumPy is timed both ways (`np.save`, and `np.save` into
//!   an open file followed by `os.fsync`).
//! - `load`: `Array::load_npy` onto the CPU (and onto the GPU), against `np.load`.
//! - `mmap + sum`: `load_npy_mmap` then a sum over every element (the pages are read), against
//!   `np.load(mmap_mode="r").sum()`.
//!
//! The file was just written, so loads read it from the page cache on both sides (the
//! machine needs twice the array's size in free memory); a cold-cache load is a disk
//! benchmark, not cuprite's. NumPy runs in `python3` (numpy must be installed); without it
//! the NumPy columns say so.
//!
//! Run: `cargo run --release --example npy_io -- [--gb 2] [--reps 3] [--dir DIR]
//! [--backend cpu|cuda]` (`cuda` needs `--features cuda` and a GPU; it adds the GPU rows).

use cuprite::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Median seconds of `reps` runs of `f` after one warm-up run.
fn median(reps: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    let mut t = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        f()?;
        t.push(start.elapsed().as_secs_f64());
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2])
}

/// The same workload in NumPy: prints one JSON object of median seconds.
const NUMPY_SCRIPT: &str = r#"
import json, os, sys, time
import numpy as np
n, reps, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
x = np.arange(n, dtype=np.float64) * 0.37
def median(f):
    f()
    t = []
    for _ in range(reps):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return sorted(t)[len(t) // 2]
def save_sync():
    with open(path, "wb") as f:
        np.save(f, x)
        f.flush()
        os.fsync(f.fileno())
out = {"numpy": np.__version__}
out["save"] = median(lambda: np.save(path, x))
out["save_fsync"] = median(save_sync)
out["load"] = median(lambda: np.load(path))
out["mmap_sum"] = median(lambda: float(np.load(path, mmap_mode="r").sum()))
assert np.load(path)[n // 3] == x[n // 3]
os.remove(path)
print(json.dumps(out))
"#;

/// NumPy's medians by row name, or why there are none.
fn numpy(n: usize, reps: usize, path: &Path) -> std::result::Result<serde_like::Map, String> {
    let out = Command::new("python3")
        .arg("-c")
        .arg(NUMPY_SCRIPT)
        .arg(n.to_string())
        .arg(reps.to_string())
        .arg(path)
        .output()
        .map_err(|e| format!("python3 did not run: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "the NumPy script failed: {}",
            err.lines().last().unwrap_or("")
        ));
    }
    serde_like::parse(&String::from_utf8_lossy(&out.stdout))
}

/// A reader for the flat JSON object the script prints (`{"k": 1.5, "numpy": "2.1.0"}`),
/// so the example needs no JSON crate.
mod serde_like {
    pub type Map = Vec<(String, String)>;

    pub fn parse(text: &str) -> Result<Map, String> {
        let body = text
            .trim()
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .ok_or_else(|| format!("not a JSON object: {text:?}"))?;
        body.split(',')
            .map(|kv| {
                let (k, v) = kv
                    .split_once(':')
                    .ok_or_else(|| format!("bad entry {kv:?}"))?;
                Ok((
                    k.trim().trim_matches('"').to_string(),
                    v.trim().trim_matches('"').to_string(),
                ))
            })
            .collect()
    }

    pub fn get(m: &Map, key: &str) -> Option<f64> {
        m.iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.parse().ok())
    }
}

/// One row: cuprite's time beside NumPy's.
fn row(what: &str, bytes: usize, ours: f64, theirs: Option<f64>) {
    let gbs = |s: f64| bytes as f64 / s / 1e9;
    match theirs {
        Some(t) => println!(
            "{what:<24} {ours:>8.3} s {:>7.2} GB/s   {t:>8.3} s {:>7.2} GB/s   {:>6.2}",
            gbs(ours),
            gbs(t),
            ours / t
        ),
        None => println!(
            "{what:<24} {ours:>8.3} s {:>7.2} GB/s   {:>31}",
            gbs(ours),
            "-"
        ),
    }
}

fn run(gb: f64, reps: usize, dir: &Path, backend: &str) -> Result<()> {
    let n = (gb * 1e9 / 8.0) as usize;
    let bytes = n * 8;
    let ours_path = dir.join(format!("cuprite-npy-io-{}.npy", std::process::id()));
    let numpy_path = dir.join(format!("cuprite-npy-io-numpy-{}.npy", std::process::id()));
    println!(
        "{n} float64 ({:.2} GB) in {}, median of {reps} after a warm-up",
        bytes as f64 / 1e9,
        dir.display()
    );

    let np = numpy(n, reps, &numpy_path);
    let np_get = |k: &str| np.as_ref().ok().and_then(|m| serde_like::get(m, k));
    match &np {
        Ok(m) => println!(
            "NumPy {}",
            m.iter()
                .find(|(k, _)| k == "numpy")
                .map_or("?", |(_, v)| v.as_str())
        ),
        Err(e) => println!("NumPy: unavailable ({e})"),
    }
    println!(
        "{:<24} {:>22}   {:>22}   {:>6}",
        "", "cuprite", "NumPy", "ratio"
    );

    let x = Array::<f64, Cpu>::ramp(n, 0.0, 0.37, &Cpu)?;
    let save = median(reps, || x.save_npy(&ours_path))?;
    row("save (cpu) vs np.save", bytes, save, np_get("save"));
    row("save (cpu) vs +fsync", bytes, save, np_get("save_fsync"));
    let load = median(reps, || {
        let a = Array::<f64, Cpu>::load_npy(&ours_path, &Cpu)?;
        assert_eq!(a.size(), n);
        Ok(())
    })?;
    row("load (cpu)", bytes, load, np_get("load"));
    let mapped = median(reps, || {
        // SAFETY: this process alone writes the file, and not while it is mapped.
        let a = unsafe { Array::<f64, Cpu>::load_npy_mmap(&ours_path) }?;
        let _ = a.sum()?.item()?;
        Ok(())
    })?;
    row("mmap + sum (cpu)", bytes, mapped, np_get("mmap_sum"));

    if backend == "cuda" {
        #[cfg(feature = "cuda")]
        {
            let dev = Cuda::new(0)?;
            println!("GPU: {}", dev.name());
            let g = x.to_device(&dev)?;
            let save = median(reps, || g.save_npy(&ours_path))?;
            row("save (cuda) vs np.save", bytes, save, np_get("save"));
            row("save (cuda) vs +fsync", bytes, save, np_get("save_fsync"));
            let load = median(reps, || {
                let a = Array::<f64, Cuda>::load_npy(&ours_path, &dev)?;
                dev.synchronize()?;
                assert_eq!(a.size(), n);
                Ok(())
            })?;
            row("load (cuda)", bytes, load, np_get("load"));
        }
        #[cfg(not(feature = "cuda"))]
        {
            eprintln!("--backend cuda needs the `cuda` feature: cargo run --release --features cuda --example npy_io -- --backend cuda");
        }
    }
    let check = Array::<f64, Cpu>::load_npy(&ours_path, &Cpu)?;
    let at = |a: &Array<f64, Cpu>, i: usize| a.slice(&[SliceArg::from(i..i + 1)])?.to_vec();
    assert_eq!(at(&check, n / 3)?, at(&x, n / 3)?);
    std::fs::remove_file(&ours_path).map_err(|e| Error::Io {
        op: "npy_io",
        path: ours_path.display().to_string(),
        msg: e.to_string(),
    })?;
    Ok(())
}

fn main() {
    let mut gb = 2.0;
    let mut reps = 3;
    let mut dir: PathBuf = std::env::temp_dir();
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value) {
            ("--gb", Some(v)) if v.parse::<f64>().is_ok_and(|g| g > 0.0) => gb = v.parse().unwrap(),
            ("--reps", Some(v)) if v.parse::<usize>().is_ok_and(|r| r > 0) => {
                reps = v.parse().unwrap()
            }
            ("--dir", Some(v)) => dir = PathBuf::from(v),
            ("--backend", Some(v)) if v == "cpu" || v == "cuda" => backend = v,
            _ => {
                eprintln!("usage: npy_io [--gb 2] [--reps 3] [--dir DIR] [--backend cpu|cuda] (got {a:?})");
                std::process::exit(2);
            }
        }
    }
    if let Err(e) = run(gb, reps, &dir, &backend) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
