//! Host-to-device and device-to-host bandwidth, pageable against page-locked memory: for
//! each size, the median of several timed transfers (after a warm-up, each ended by a
//! synchronisation) of `Array::from_vec` / `to_vec` (a `Vec`, pageable: the driver stages it
//! through a bounce buffer) beside `from_pinned_async` / `to_pinned_async` (a
//! `PinnedBuffer`, a DMA transfer queued on a stream), in GB/s. Then the overlap: a chain of
//! kernels on the device's stream alone, the pinned upload alone, and both at once on two
//! streams; with overlap the pair takes about the longer of the two, not their sum.
//!
//! Run on a GPU host: `cargo run --release --features cuda --example pinned_upload --
//! --backend cuda [--sizes 256M,2G] [--reps 5]` (sizes in bytes, with K, M or G for KiB,
//! MiB, GiB).

#[cfg(feature = "cuda")]
mod gpu {
    use cuprite::cuda::{PinnedBuffer, PinnedExt};
    use cuprite::prelude::*;
    use std::time::Instant;

    /// Median seconds of `reps` runs of `f` after one warm-up run.
    fn median(reps: usize, mut f: impl FnMut() -> Result<f64>) -> Result<f64> {
        f()?;
        let mut t = (0..reps).map(|_| f()).collect::<Result<Vec<f64>>>()?;
        t.sort_by(f64::total_cmp);
        Ok(t[t.len() / 2])
    }

    fn gbs(bytes: usize, secs: f64) -> f64 {
        bytes as f64 / secs / 1e9
    }

    pub fn run(sizes: &[usize], reps: usize) -> Result<()> {
        let dev = Cuda::new(0)?;
        let stream = dev.new_stream()?;
        let copies = dev.with_stream(&stream)?;
        println!("device: {}", dev.name());
        println!(
            "{:>10} {:>14} {:>14} {:>14} {:>14}",
            "size", "upload pageable", "upload pinned", "download pageable", "download pinned"
        );
        for &bytes in sizes {
            let n = bytes / 4;
            let shape = [n];
            // Not constants: every element differs.
            let data: Vec<f32> = (0..n).map(|i| (i % 1_000_003) as f32 * 0.5).collect();
            let mut pinned = PinnedBuffer::from_slice(&data, &dev)?;

            let up_pageable = median(reps, || {
                let v = data.clone();
                dev.synchronize_device()?;
                let t = Instant::now();
                let a = Array::<f32, Cuda>::from_vec(v, &shape, &dev)?;
                dev.synchronize_device()?;
                let s = t.elapsed().as_secs_f64();
                drop(a);
                Ok(s)
            })?;
            let up_pinned = median(reps, || {
                dev.synchronize_device()?;
                let t = Instant::now();
                let a = Array::<f32, Cuda>::from_pinned_async(&mut pinned, &shape, &copies)?;
                stream.synchronize()?;
                let s = t.elapsed().as_secs_f64();
                drop(a);
                Ok(s)
            })?;
            let a = Array::<f32, Cuda>::from_pinned_async(&mut pinned, &shape, &dev)?;
            let down_pageable = median(reps, || {
                dev.synchronize_device()?;
                let t = Instant::now();
                let v = a.to_vec()?;
                let s = t.elapsed().as_secs_f64();
                assert_eq!(v[n / 3], data[n / 3]);
                Ok(s)
            })?;
            let mut out = PinnedBuffer::<f32>::new(n, &dev)?;
            let down_pinned = median(reps, || {
                dev.synchronize_device()?;
                let t = Instant::now();
                a.to_pinned_async(&mut out)?;
                out.synchronize()?;
                Ok(t.elapsed().as_secs_f64())
            })?;
            assert_eq!(out.as_slice()?[n / 3], data[n / 3]);
            println!(
                "{:>10} {:>9.1} GB/s {:>9.1} GB/s {:>12.1} GB/s {:>10.1} GB/s",
                human(bytes),
                gbs(bytes, up_pageable),
                gbs(bytes, up_pinned),
                gbs(bytes, down_pageable),
                gbs(bytes, down_pinned)
            );

            // Overlap: a kernel chain on the device's stream beside the pinned upload.
            let x = Array::<f32, Cuda>::ones(&[n], &dev)?;
            let chain = |x: &Array<f32, Cuda>| -> Result<Array<f32, Cuda>> {
                let mut y = x * 1.0001f32;
                for _ in 0..9 {
                    y = &y * 1.0001f32;
                }
                Ok(y)
            };
            let compute = median(reps, || {
                dev.synchronize_device()?;
                let t = Instant::now();
                let y = chain(&x)?;
                dev.synchronize_device()?;
                drop(y);
                Ok(t.elapsed().as_secs_f64())
            })?;
            let both = median(reps, || {
                dev.synchronize_device()?;
                let t = Instant::now();
                let y = chain(&x)?;
                let a = Array::<f32, Cuda>::from_pinned_async(&mut pinned, &shape, &copies)?;
                dev.synchronize_device()?;
                drop((y, a));
                Ok(t.elapsed().as_secs_f64())
            })?;
            println!(
                "{:>10} overlap: compute {:.2} ms, pinned upload {:.2} ms, both on two streams \
                 {:.2} ms (serial would be {:.2} ms)",
                "",
                compute * 1e3,
                up_pinned * 1e3,
                both * 1e3,
                (compute + up_pinned) * 1e3
            );
        }
        Ok(())
    }

    fn human(bytes: usize) -> String {
        if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
            format!("{} GiB", bytes >> 30)
        } else if bytes >= 1 << 20 {
            format!("{:.0} MiB", bytes as f64 / (1 << 20) as f64)
        } else {
            format!("{} B", bytes)
        }
    }
}

/// `256M`, `2G`, `4096`: a size in bytes.
fn parse_size(s: &str) -> Option<usize> {
    let (num, shift) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 10),
        'M' | 'm' => (&s[..s.len() - 1], 20),
        'G' | 'g' => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    num.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|&n| n >= 4)
}

fn main() {
    let mut backend = String::from("cuda");
    let mut sizes = vec![256 << 20, 2 << 30];
    let mut reps = 5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().unwrap_or_default(),
            "--sizes" => {
                let list = args.next().unwrap_or_default();
                match list.split(',').map(parse_size).collect::<Option<Vec<_>>>() {
                    Some(v) if !v.is_empty() => sizes = v,
                    _ => {
                        eprintln!("--sizes takes sizes like 256M,2G (got {list:?})");
                        std::process::exit(2);
                    }
                }
            }
            "--reps" => match args.next().and_then(|r| r.parse().ok()) {
                Some(r) if r > 0 => reps = r,
                _ => {
                    eprintln!("--reps takes a positive number");
                    std::process::exit(2);
                }
            },
            s => {
                eprintln!("unknown argument {s:?} (--backend cuda, --sizes 256M,2G, --reps 5)");
                std::process::exit(2);
            }
        }
    }
    if backend != "cuda" {
        eprintln!(
            "pinned memory is a CUDA feature: only --backend cuda is available (got {backend:?})"
        );
        std::process::exit(2);
    }
    #[cfg(feature = "cuda")]
    if let Err(e) = gpu::run(&sizes, reps) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (sizes, reps);
        eprintln!("this example needs the `cuda` feature: cargo run --release --features cuda --example pinned_upload -- --backend cuda");
        std::process::exit(2);
    }
}
