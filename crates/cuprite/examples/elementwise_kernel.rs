//! The notebook's `my_kernel` as a CUDA C `ElementwiseKernel` on 10 000 000 f32 values:
//! `z = x * y` where `x - 2 > y`, else `z = x + y`. Checked against plain Rust on the host,
//! timed with `cuprite::profiler::benchmark` (reported in GB/s of the 12 bytes each element
//! moves), with the first call (a compile, or a load from the disk cache in a later run) and
//! the host time of a cached call on a small array (the launch overhead) timed too.
//!
//! Run: `cargo run --release --features cuda --example elementwise_kernel -- --backend cuda`
//! (optional: the number of values). Needs the `cuda` feature and an NVIDIA GPU.

#[cfg(feature = "cuda")]
mod gpu {
    use cuprite::cuda::kernel::ElementwiseKernel;
    use cuprite::prelude::*;
    use cuprite::profiler::{benchmark, BenchmarkOptions};
    use std::time::Instant;

    /// `n` values uniform in [-5, 5) from a fixed 64-bit LCG.
    fn uniform(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((s >> 11) as f64 / (1u64 << 53) as f64 * 10.0 - 5.0) as f32
            })
            .collect()
    }

    pub fn run(n: usize) -> Result<bool> {
        let dev = Cuda::new(0)?;
        println!(
            "my_kernel as an ElementwiseKernel on {} ({n} f32 values)",
            dev.name()
        );
        let t = Instant::now();
        let my_kernel = ElementwiseKernel::new(
            "float32 x, float32 y",
            "float32 z",
            "if (x - 2 > y) { z = x * y; } else { z = x + y; }",
            "my_kernel",
        )?;
        let (xv, yv) = (uniform(n, 1), uniform(n, 2));
        let x = Array::<f32, Cuda>::from_vec(xv.clone(), &[n], &dev)?;
        let y = Array::<f32, Cuda>::from_vec(yv.clone(), &[n], &dev)?;
        dev.synchronize()?;
        let t0 = Instant::now();
        let z = my_kernel.call1::<f32>(&[(&x).into(), (&y).into()])?;
        dev.synchronize()?;
        println!(
            "  first call (compile, or load from the disk cache): {:.2} ms (setup {:.1} ms)",
            t0.elapsed().as_secs_f64() * 1e3,
            (t0 - t).as_secs_f64() * 1e3
        );

        let got = z.to_vec()?;
        let bad = got
            .iter()
            .zip(xv.iter().zip(&yv))
            .filter(|(&g, (&a, &b))| g != if a - 2.0 > b { a * b } else { a + b })
            .count();
        if bad != 0 {
            eprintln!("MISMATCH: {bad} of {n} values differ from plain Rust");
            return Ok(false);
        }
        println!("  checked against plain Rust: all {n} values agree");

        let opts = BenchmarkOptions {
            n_warmup: 10,
            n_repeat: 200,
            ..Default::default()
        };
        let r = benchmark(
            "my_kernel",
            &[&dev],
            || my_kernel.call1::<f32>(&[(&x).into(), (&y).into()]),
            opts,
        )?;
        println!("{r}");
        let gpu = r.gpu_stats()[0].1;
        let bytes = 3.0 * 4.0 * n as f64;
        println!(
            "  {:.0} GB/s (mean), {:.0} GB/s (best) over {} calls",
            bytes / gpu.mean / 1e9,
            bytes / gpu.min / 1e9,
            r.n_repeat()
        );
        // The same traffic through cuprite's built-in addition, for comparison on this GPU.
        let add = benchmark("built-in x + y", &[&dev], || x.try_add(&y), opts)?;
        println!("{add}");
        println!(
            "  built-in x + y: {:.0} GB/s (mean)",
            bytes / add.gpu_stats()[0].1.mean / 1e9
        );
        let mut zz = Array::<f32, Cuda>::zeros(&[n], &dev)?;
        let into = benchmark(
            "my_kernel (call_into)",
            &[&dev],
            || my_kernel.call_into(&[(&x).into(), (&y).into()], &mut [(&mut zz).into()]),
            opts,
        )?;
        println!("{into}");
        println!(
            "  my_kernel into a given output: {:.0} GB/s (mean)",
            bytes / into.gpu_stats()[0].1.mean / 1e9
        );
        // Launch overhead: the host time of a cached call on a small array.
        let xs = Array::<f32, Cuda>::ones(&[1000], &dev)?;
        let mut zs = Array::<f32, Cuda>::zeros(&[1000], &dev)?;
        let opts = BenchmarkOptions {
            n_warmup: 100,
            n_repeat: 2000,
            ..Default::default()
        };
        let small = benchmark(
            "my_kernel, 1000 values",
            &[&dev],
            || my_kernel.call_into(&[(&xs).into(), (&xs).into()], &mut [(&mut zs).into()]),
            opts,
        )?;
        println!("{small}");
        println!(
            "  host time of a cached call into a given output: {:.2} us (median)",
            small.cpu_stats().median * 1e6
        );
        Ok(true)
    }
}

fn main() {
    let mut n: usize = 10_000_000;
    let mut backend = String::from("cuda");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().unwrap_or_default(),
            s => match s.parse() {
                Ok(v) if v > 0 => n = v,
                _ => {
                    eprintln!("unknown argument {s:?} (a number of values, --backend cuda)");
                    std::process::exit(2);
                }
            },
        }
    }
    if backend != "cuda" {
        eprintln!(
            "ElementwiseKernel runs CUDA C: only --backend cuda is available (got {backend:?})"
        );
        std::process::exit(2);
    }
    #[cfg(feature = "cuda")]
    match gpu::run(n) {
        Ok(true) => println!("all checks passed"),
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = n;
        eprintln!("this example needs the `cuda` feature: cargo run --release --features cuda --example elementwise_kernel -- --backend cuda");
        std::process::exit(2);
    }
}
