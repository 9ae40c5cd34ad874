//! The naive matrix product as a CUDA C `RawKernel` (one thread per output element, each
//! summing a row of `a` times a column of `b`), compared with `matmul` (cuBLAS) for
//! correctness and time on `m x m` f32 matrices.
//!
//! Run: `cargo run --release --features cuda --example raw_kernel -- --backend cuda`
//! (option: `--m 1024`). Needs the `cuda` feature and an NVIDIA GPU.

#[cfg(feature = "cuda")]
mod gpu {
    use cuprite::cuda::kernel::RawKernel;
    use cuprite::prelude::*;
    use cuprite::profiler::{benchmark, BenchmarkOptions};

    const SOURCE: &str = r#"
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int m) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < m) {
        float s = 0.0f;
        for (int k = 0; k < m; ++k) s += a[row * m + k] * b[k * m + col];
        c[row * m + col] = s;
    }
}
"#;

    /// `n` values uniform in [0, 1) from a fixed 64-bit LCG.
    fn uniform(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((s >> 11) as f64 / (1u64 << 53) as f64) as f32
            })
            .collect()
    }

    pub fn run(m: usize) -> Result<bool> {
        let dev = Cuda::new(0)?;
        println!(
            "naive matrix product as a RawKernel on {}: {m} x {m} f32",
            dev.name()
        );
        let kernel = RawKernel::new(SOURCE, "matmul_naive")?;
        let a = Array::<f32, Cuda>::from_vec(uniform(m * m, 1), &[m, m], &dev)?;
        let b = Array::<f32, Cuda>::from_vec(uniform(m * m, 2), &[m, m], &dev)?;
        let mut c = Array::<f32, Cuda>::zeros(&[m, m], &dev)?;
        let side = m.div_ceil(16) as u32;
        let mi = i32::try_from(m).map_err(|_| Error::invalid("raw_kernel", "m too large"))?;
        let naive = |c: &mut Array<f32, Cuda>| -> Result<()> {
            // SAFETY: threads with row or col >= m do nothing; the others read row `row` of
            // `a` and column `col` of `b` (indices below m * m) and write one element of c.
            unsafe {
                kernel.launch(
                    &dev,
                    (side, side),
                    (16, 16),
                    0,
                    &mut [(&a).into(), (&b).into(), c.into(), mi.into()],
                )
            }
        };
        naive(&mut c)?;
        let reference = a.matmul(&b)?;
        let err = c.try_sub(&reference)?.abs()?.max()?.item()?;
        let scale = reference.abs()?.max()?.item()?;
        println!("  max |naive - matmul| = {err:.3e} (largest element {scale:.1})");
        let ok = err <= 1e-5 * scale * (m as f32).sqrt();

        let opts = BenchmarkOptions {
            n_warmup: 3,
            n_repeat: 20,
            ..Default::default()
        };
        let r1 = benchmark("raw kernel (naive)", &[&dev], || naive(&mut c), opts)?;
        let r2 = benchmark("matmul (cuBLAS)", &[&dev], || a.matmul(&b), opts)?;
        println!("{r1}\n{r2}");
        let flops = 2.0 * (m as f64).powi(3);
        for r in [&r1, &r2] {
            println!(
                "  {:<20} {:8.1} GFLOP/s",
                r.name,
                flops / r.gpu_stats()[0].1.mean / 1e9
            );
        }
        if !ok {
            eprintln!("MISMATCH: the naive product differs from matmul");
        }
        Ok(ok)
    }
}

fn main() {
    let mut m: usize = 1024;
    let mut backend = String::from("cuda");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().unwrap_or_default(),
            "--m" => match args.next().and_then(|v| v.parse().ok()) {
                Some(v) if v > 0 => m = v,
                _ => {
                    eprintln!("--m needs a positive number");
                    std::process::exit(2);
                }
            },
            other => {
                eprintln!("unknown argument {other:?} (--m M, --backend cuda)");
                std::process::exit(2);
            }
        }
    }
    if backend != "cuda" {
        eprintln!("RawKernel runs CUDA C: only --backend cuda is available (got {backend:?})");
        std::process::exit(2);
    }
    #[cfg(feature = "cuda")]
    match gpu::run(m) {
        Ok(true) => println!("all checks passed"),
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = m;
        eprintln!("this example needs the `cuda` feature: cargo run --release --features cuda --example raw_kernel -- --backend cuda");
        std::process::exit(2);
    }
}
