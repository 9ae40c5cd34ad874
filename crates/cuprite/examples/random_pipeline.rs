//! The notebooks' random cells, generic over the backend: draw 50 000 000 uniform f64 values
//! with a seeded [`Generator`], take their L2 norm, then run the quickstart pipeline on them
//! (sort, reshape to (-1, 1000), normalise every column with broadcasting). Because the
//! generator is counter-based, the same seed draws the same bits on every backend, so the
//! reference is the same draw on the CPU backend followed by plain Rust loops.
//!
//! Run: `cargo run --release --example random_pipeline` (optional arguments: the number of
//! values, a multiple of 1000, `--seed S`, and `--backend cpu|cuda`; `cuda` needs
//! `--features cuda` and a GPU).

use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use std::time::Instant;

/// Times one step, waiting for the device before and after so the figure is the step's own.
fn timed<B: ArrayBackend, R>(dev: &B, what: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
    dev.synchronize()?;
    let t = Instant::now();
    let r = f()?;
    dev.synchronize()?;
    println!("  {what:<44} {:>9.2} ms", t.elapsed().as_secs_f64() * 1e3);
    Ok(r)
}

/// The draw, the norm and the pipeline: one function for every backend.
fn pipeline<B: ArrayBackend>(dev: &B, n: usize, seed: u64) -> Result<(f64, Array<f64, B>)> {
    let mut rng = Generator::new(seed);
    let x = timed(dev, "draw uniform [0, 1)", || {
        rng.random::<f64, B>(&[n], dev)
    })?;
    let norm = timed(dev, "L2 norm", || x.norm()?.item())?;
    let sorted = timed(dev, "sort", || x.sort(-1))?;
    let m = sorted.reshape(&[-1, 1000])?;
    let z = timed(dev, "normalise (m - mean(axis 0)) / std(axis 0)", || {
        let mean = m.mean_axes(0, true)?;
        let std = m.std_axes(0, 0.0, true)?;
        Ok(&(&m - &mean) / &std)
    })?;
    Ok((norm, z))
}

/// The same draw on the CPU backend, then plain Rust loops: an independent reference for
/// everything after the draw.
fn reference(n: usize, seed: u64) -> Result<(f64, Vec<f64>)> {
    let mut v = Generator::new(seed)
        .random::<f64, Cpu>(&[n], &Cpu::new())?
        .to_vec()?;
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.sort_by(f64::total_cmp);
    let (rows, cols) = (n / 1000, 1000);
    let mut out = v.clone();
    for c in 0..cols {
        let mean = (0..rows).map(|r| v[r * cols + c]).sum::<f64>() / rows as f64;
        let var = (0..rows)
            .map(|r| (v[r * cols + c] - mean).powi(2))
            .sum::<f64>()
            / rows as f64;
        for r in 0..rows {
            out[r * cols + c] = (v[r * cols + c] - mean) / var.sqrt();
        }
    }
    Ok((norm, out))
}

fn run<B: ArrayBackend>(dev: &B, n: usize, seed: u64) -> Result<bool> {
    println!(
        "cuprite random pipeline on {} with {n} f64 values, seed {seed}",
        dev.label()
    );
    let t = Instant::now();
    let (norm, z) = pipeline(dev, n, seed)?;
    println!(
        "  {:<44} {:>9.2} ms",
        "whole pipeline",
        t.elapsed().as_secs_f64() * 1e3
    );
    println!("norm = {norm}; result (shape {:?}):\n{z}", z.shape());
    let (want_norm, want) = reference(n, seed)?;
    let norm_ok = (norm - want_norm).abs() <= 1e-9 * want_norm;
    let z_ok = check_allclose_slices(&z.to_vec()?, &want, z.shape(), 1e-9, 1e-9);
    match (&z_ok, norm_ok) {
        (Ok(()), true) => {
            println!("checked against the CPU draw and plain Rust loops: all {n} values agree");
            Ok(true)
        }
        _ => {
            eprintln!("MISMATCH: norm {norm} vs {want_norm}; {z_ok:?}");
            Ok(false)
        }
    }
}

fn main() -> Result<()> {
    let mut n: usize = 50_000_000;
    let mut seed = 2026u64;
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().expect("--backend needs cpu or cuda"),
            "--seed" => {
                seed = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--seed needs a number")
            }
            s => n = s.parse().expect("the argument is a number of values"),
        }
    }
    assert!(
        n.is_multiple_of(1000) && n > 0,
        "the number of values must be a positive multiple of 1000"
    );
    let ok = match backend.as_str() {
        "cpu" => run(&Cpu::new(), n, seed)?,
        #[cfg(feature = "cuda")]
        "cuda" => run(&Cuda::new(0)?, n, seed)?,
        other => {
            eprintln!("unknown or not compiled backend {other:?} (cuda needs --features cuda)");
            std::process::exit(2);
        }
    };
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
