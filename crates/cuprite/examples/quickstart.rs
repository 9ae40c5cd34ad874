//! The notebook pipeline, generic over the backend: make 50 000 000 values, sort them,
//! reshape to (-1, 1000), normalise every column with broadcasting
//! ((m - mean(axis 0)) / std(axis 0)), then check the result against an independent
//! computation in plain Rust loops.
//!
//! Run: `cargo run --release --example quickstart` (optional arguments: the number of values,
//! a multiple of 1000, and `--backend cpu|cuda`; `cuda` needs `--features cuda` and a GPU).
//! The backend is the only thing that changes between the two runs.

use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use std::time::Instant;

/// Times one step, waiting for the device before and after so the figure is the step's own.
fn timed<B: ArrayBackend, R>(dev: &B, what: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
    dev.synchronize()?;
    let t = Instant::now();
    let r = f()?;
    dev.synchronize()?;
    println!("  {what:<44} {:>9.1} ms", t.elapsed().as_secs_f64() * 1e3);
    Ok(r)
}

/// The pipeline itself: one function for every backend.
fn pipeline<B: ArrayBackend>(dev: &B, n: usize) -> Result<Array<f64, B>> {
    let x = timed(dev, "create sin(0..n)", || {
        Array::<f64, B>::ramp(n, 0.0, 1.0, dev)?.sin()
    })?;
    let sorted = timed(dev, "sort", || x.sort(-1))?;
    let m = sorted.reshape(&[-1, 1000])?;
    timed(dev, "normalise (m - mean(axis 0)) / std(axis 0)", || {
        let mean = m.mean_axes(0, true)?;
        let std = m.std_axes(0, 0.0, true)?;
        Ok(&(&m - &mean) / &std)
    })
}

/// The same computation in plain Rust loops on the host, as an independent reference.
fn reference(n: usize) -> Vec<f64> {
    let mut v: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
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
    out
}

/// Runs the pipeline on `dev`, times it and checks it against the host loops.
fn run<B: ArrayBackend>(dev: &B, n: usize) -> Result<()> {
    println!("cuprite quickstart on {} with {n} f64 values", dev.label());
    let t = Instant::now();
    let z = pipeline(dev, n)?;
    println!(
        "  {:<44} {:>9.1} ms",
        "whole pipeline",
        t.elapsed().as_secs_f64() * 1e3
    );
    println!("result (shape {:?}):\n{z}", z.shape());

    let t = Instant::now();
    let expected = reference(n);
    let actual = z.to_vec()?;
    match check_allclose_slices(&actual, &expected, z.shape(), 1e-9, 1e-9) {
        Ok(()) => println!(
            "checked against plain Rust loops ({:.1} ms): all {n} values agree",
            t.elapsed().as_secs_f64() * 1e3
        ),
        Err(msg) => {
            eprintln!("MISMATCH: {msg}");
            std::process::exit(1);
        }
    }
    Ok(())
}

fn main() -> Result<()> {
    let mut n: usize = 50_000_000;
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().expect("--backend needs cpu or cuda"),
            s => n = s.parse().expect("the argument is a number of values"),
        }
    }
    assert!(
        n.is_multiple_of(1000) && n > 0,
        "the number of values must be a positive multiple of 1000"
    );
    match backend.as_str() {
        "cpu" => run(&Cpu::new(), n),
        #[cfg(feature = "cuda")]
        "cuda" => run(&Cuda::new(0)?, n),
        other => {
            eprintln!("unknown or not compiled backend {other:?} (cuda needs --features cuda)");
            std::process::exit(2);
        }
    }
}
