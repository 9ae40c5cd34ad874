//! A kernel written in Rust, run on arrays: the notebook's `my_kernel`
//! (`if x - 2 > y { x * y } else { x + y }`) on 10 000 000 f32 values, through
//! `#[cuprite::kernel]`. Prints a checksum (compared with a plain Rust loop) and the timing
//! from `cuprite::profiler::benchmark`.
//!
//! Run: `cargo run --release --example rust_kernel` (optional: the number of values and
//! `--backend cpu|cuda`; `cuda` needs `--features cuda` and a GPU).

use cuprite::prelude::*;
use cuprite::profiler::{benchmark, BenchmarkOptions};
use std::time::Duration;

#[cuprite::kernel]
fn my_kernel(x: f32, y: f32) -> f32 {
    if x - 2.0 > y {
        x * y
    } else {
        x + y
    }
}

/// Runs the kernel on `dev`, checks its checksum against a host loop and times it.
fn run<B: ArrayBackend>(dev: &B, n: usize) -> Result<()> {
    println!("cuprite rust_kernel on {} with {n} f32 values", dev.label());
    let x = Array::<f32, B>::ramp(n, 0.0, 1e-6, dev)?.sin()?;
    let y = Array::<f32, B>::ramp(n, 1.0, -1e-6, dev)?.cos()?;
    let k = my_kernel::kernel();
    let z = k.call(&x, &y)?;
    let checksum: f64 = z.to_vec()?.iter().map(|&v| v as f64).sum();
    let (xs, ys) = (x.to_vec()?, y.to_vec()?);
    let expected: f64 = xs
        .iter()
        .zip(&ys)
        .map(|(&a, &b)| my_kernel(a, b) as f64)
        .sum();
    println!("checksum {checksum:.6} (plain Rust loop: {expected:.6})");
    if checksum != expected {
        eprintln!("MISMATCH between the kernel and the plain Rust loop");
        std::process::exit(1);
    }
    let options = BenchmarkOptions {
        n_warmup: 3,
        n_repeat: 50,
        max_duration: Some(Duration::from_secs(10)),
    };
    let r = benchmark("my_kernel", &[dev], || k.call(&x, &y), options)?;
    println!("{r}");
    Ok(())
}

fn main() -> Result<()> {
    let mut n: usize = 10_000_000;
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().expect("--backend needs cpu or cuda"),
            s => n = s.parse().expect("the argument is a number of values"),
        }
    }
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
