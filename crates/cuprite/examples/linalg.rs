//! The notebooks' linear-algebra cells, generic over the backend: the SVD and the inverse of
//! an `n x n` matrix and the product of two `m x m` matrices, each timed with
//! `cuprite::profiler::benchmark` (CuPy's `benchmark` format) and checked: the SVD by
//! `||A - U S Vh|| / ||A||` and the orthogonality of `U` and `V`, the inverse by
//! `||A X - I||`, the product by a Freivalds probe against the host.
//!
//! Run: `cargo run --release --example linalg` (options: `--n 1000` for the SVD and the
//! inverse, `--m 2000` for the product, `--backend cpu|cuda`; `cuda` needs `--features cuda`).

use cuprite::prelude::*;
use cuprite::profiler::{benchmark, BenchmarkOptions};

/// `n` values uniform in [0, 1) from a fixed 64-bit LCG (the inputs never depend on the
/// backend, so the two runs compute the same thing).
fn uniform(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// `max |x - y|` over two arrays of the same shape.
fn max_diff<B: ArrayBackend>(x: &Array<f64, B>, y: &Array<f64, B>) -> Result<f64> {
    x.try_sub(y)?.abs()?.max()?.item()
}

fn opts(repeat: usize) -> BenchmarkOptions {
    BenchmarkOptions {
        n_warmup: 1,
        n_repeat: repeat,
        ..Default::default()
    }
}

fn run<B: ArrayBackend>(dev: &B, n: usize, m: usize) -> Result<bool> {
    println!(
        "cuprite linalg on {}: svd and inv of {n}x{n}, matmul of {m}x{m}, f64",
        dev.label()
    );
    let a = Array::<f64, B>::from_vec(uniform(n * n, 1), &[n, n], dev)?;
    let eye = Array::<f64, B>::eye(n, None, 0, dev)?;
    let mut ok = true;

    println!("{}", benchmark("svd", &[dev], || a.svd(true), opts(5))?);
    let (u, s, vh) = a.svd(true)?;
    let back = u.try_mul(&s.expand_dims(0)?)?.matmul(&vh)?;
    let rel = back.try_sub(&a)?.norm()?.item()? / a.norm()?.item()?;
    let orth_u = max_diff(&u.t().matmul(&u)?, &eye)?;
    let orth_v = max_diff(&vh.matmul(&vh.t())?, &eye)?;
    println!("  ||A - U S Vh|| / ||A|| = {rel:.2e}, |U^T U - I| = {orth_u:.2e}, |V^T V - I| = {orth_v:.2e}");
    ok &= rel < 1e-12 && orth_u < 1e-12 && orth_v < 1e-12;

    println!("{}", benchmark("inv", &[dev], || a.inv(), opts(10))?);
    let x = a.inv()?;
    let res = max_diff(&a.matmul(&x)?, &eye)?;
    println!("  |A inv(A) - I| = {res:.2e}");
    ok &= res < 1e-8;

    let p = Array::<f64, B>::from_vec(uniform(m * m, 2), &[m, m], dev)?;
    let q = Array::<f64, B>::from_vec(uniform(m * m, 3), &[m, m], dev)?;
    println!("{}", benchmark("matmul", &[dev], || p.matmul(&q), opts(5))?);
    // Freivalds: (P Q) r against P (Q r) for a probe r, on the host.
    let pq = p.matmul(&q)?;
    let r = Array::<f64, B>::from_vec(uniform(m, 4), &[m, 1], dev)?;
    let lhs = pq.matmul(&r)?;
    let rhs = p.matmul(&q.matmul(&r)?)?;
    let err = max_diff(&lhs, &rhs)? / (m as f64 * m as f64);
    println!("  Freivalds probe |(PQ) r - P (Q r)| / m^2 = {err:.2e}");
    ok &= err < 1e-13;
    Ok(ok)
}

fn main() -> Result<()> {
    let (mut n, mut m) = (1000usize, 2000usize);
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |what: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a positive number"))
        };
        match a.as_str() {
            "--n" => n = value("--n"),
            "--m" => m = value("--m"),
            "--backend" => backend = args.next().expect("--backend needs cpu or cuda"),
            other => panic!("unknown argument {other:?} (--n N, --m M, --backend cpu|cuda)"),
        }
    }
    let ok = match backend.as_str() {
        "cpu" => run(&Cpu::new(), n, m)?,
        #[cfg(feature = "cuda")]
        "cuda" => run(&Cuda::new(0)?, n, m)?,
        other => {
            eprintln!("unknown or not compiled backend {other:?} (cuda needs --features cuda)");
            std::process::exit(2);
        }
    };
    if ok {
        println!("all checks passed");
        Ok(())
    } else {
        eprintln!("A CHECK FAILED");
        std::process::exit(1);
    }
}
