//! The notebooks' FFT cell, generic over the backend: a noisy signal of two tones, its
//! spectrum by `rfft`, the two peaks found at their frequencies, then the round trip
//! `ifft(fft(x)) = x` on a complex signal of `2^k` points and a batch of 4096-point transforms,
//! each timed with `cuprite::profiler::benchmark` (CuPy's `benchmark` format) and checked:
//! the round trip against the input, Parseval's identity, and the peaks against the tones.
//!
//! Run: `cargo run --release --example fft_roundtrip` (options: `--log2n 24` for the long
//! transform, `--batch 4096` for the batched one, `--backend cpu|cuda`; `cuda` needs
//! `--features cuda`).

use cuprite::fft::{self, Norm};
use cuprite::prelude::*;
use cuprite::profiler::{benchmark, BenchmarkOptions};

/// The timing options: a few warm-up runs, at most 2 s per measurement.
fn options() -> BenchmarkOptions {
    BenchmarkOptions {
        n_warmup: 3,
        n_repeat: 50,
        max_duration: Some(std::time::Duration::from_secs(2)),
    }
}

/// Tones at 50 Hz and 120 Hz sampled at 1 kHz for one second, plus seeded noise; the two
/// largest bins of the one-sided spectrum must be the tones.
fn tones<B: ArrayBackend>(dev: &B) -> Result<bool> {
    let fs = 1000usize;
    let t = Array::<f64, B>::linspace(0.0, 1.0, fs, false, dev)?;
    let two_pi = 2.0 * std::f64::consts::PI;
    let x = &(&t * (two_pi * 50.0)).sin()? + &(&(&t * (two_pi * 120.0)).sin()? * 0.5);
    let noise = Generator::new(5).normal::<f64, B>(0.0, 0.2, &[fs], dev)?;
    let x = &x + &noise;
    let amp = fft::rfft(&x, None, -1, Norm::Backward)?.abs()?;
    let freqs = fft::rfftfreq::<f64, B>(fs, 1.0 / fs as f64, dev)?.to_vec()?;
    let order = amp.argsort(-1)?.to_vec()?;
    let top: Vec<f64> = order
        .iter()
        .rev()
        .take(2)
        .map(|&i| freqs[i as usize])
        .collect();
    println!("two-tone signal: the largest bins are at {top:?} Hz (tones at 120 and 50 Hz)");
    Ok(top.contains(&50.0) && top.contains(&120.0))
}

/// `ifft(fft(x))` of complex input of the given shape, along the last axis: timed, then
/// checked against `x` and Parseval's identity.
fn round_trip<B: ArrayBackend>(dev: &B, shape: &[usize]) -> Result<bool> {
    let n: usize = shape.iter().product();
    let mut rng = Generator::new(11);
    let re = rng.standard_normal::<f64, B>(shape, dev)?;
    let im = rng.standard_normal::<f64, B>(shape, dev)?;
    let x = &re.astype::<c128>()? + &(&im.astype::<c128>()? * c128::new(0.0, 1.0));
    let bytes = (32 * n) as f64;
    let r = benchmark(
        format!("fft c128 {shape:?}"),
        &[dev],
        || fft::fft(&x, None, -1, Norm::Backward),
        options(),
    )?;
    println!("{r}");
    let median_s = r.gpu_stats()[0].1.median;
    println!(
        "  = {:.1} GB/s at the device's median time (each element read and written once)",
        bytes / median_s / 1e9
    );
    let spec = fft::fft(&x, None, -1, Norm::Backward)?;
    let back = fft::ifft(&spec, None, -1, Norm::Backward)?;
    let err = back.try_sub(&x)?.abs()?.max()?.item()?;
    let len = *shape.last().unwrap_or(&1) as f64;
    let ex = x.abs()?.square()?.sum()?.item()?;
    let es = spec.abs()?.square()?.sum()?.item()?;
    let parseval = (es / len - ex).abs() / ex;
    println!(
        "  round trip: max |ifft(fft(x)) - x| = {err:.2e}; Parseval relative error {parseval:.2e}"
    );
    Ok(err < 1e-12 * len.log2().max(1.0) * 10.0 && parseval < 1e-12)
}

fn run<B: ArrayBackend>(dev: &B, log2n: u32, batch: usize) -> Result<bool> {
    println!("cuprite FFT round trip on {}", dev.label());
    let a = tones(dev)?;
    let b = round_trip(dev, &[1 << log2n])?;
    let c = round_trip(dev, &[batch, 4096])?;
    Ok(a && b && c)
}

fn main() -> Result<()> {
    let (mut log2n, mut batch) = (24u32, 4096usize);
    let mut backend = String::from("cpu");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("an option needs a value");
        match a.as_str() {
            "--log2n" => log2n = value().parse().expect("--log2n needs a number"),
            "--batch" => batch = value().parse().expect("--batch needs a number"),
            "--backend" => backend = value(),
            other => panic!("unknown argument {other:?}"),
        }
    }
    let ok = match backend.as_str() {
        "cpu" => run(&Cpu::new(), log2n, batch)?,
        #[cfg(feature = "cuda")]
        "cuda" => run(&Cuda::new(0)?, log2n, batch)?,
        other => {
            eprintln!("unknown or not compiled backend {other:?} (cuda needs --features cuda)");
            std::process::exit(2);
        }
    };
    if ok {
        println!("checked: peaks at the tones, round trips and Parseval within tolerance");
    } else {
        println!("MISMATCH: see the figures above");
        std::process::exit(1);
    }
    Ok(())
}
