//! The crossover of `convolve`'s two methods: direct sums of products against the FFT path,
//! for f64 signals of 10 000 and 1 000 000 points by kernels of 8 to 512, on every backend.
//! `ConvolveMethod::Auto` switches to the FFT path from the kernel length where it wins
//! (`FFT_MIN_KERNEL` in `crates/core/src/array/signal.rs`); this bench is how that length is
//! chosen. Every timed region ends with `dev.synchronize()`. Each pair is first compared,
//! untimed, with the CPU backend's direct result (within `1e-9` relative to `1 + |y|`).

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use cuprite::{Array, ArrayBackend, ConvolveMethod, ConvolveMode};
use cuprite_benches::data;

/// Signal lengths.
const SIGNALS: [usize; 2] = [10_000, 1_000_000];
/// Kernel lengths, around the crossover.
const KERNELS: [usize; 7] = [8, 16, 32, 64, 128, 256, 512];

fn crossover<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    for n in SIGNALS {
        let a = Array::from_vec(data::uniform(n, -1.0, 1.0, 21), &[n], dev).unwrap();
        let mut group = c.benchmark_group(common::name(backend, "convolve", n));
        for m in KERNELS {
            let v = Array::from_vec(data::uniform(m, -1.0, 1.0, 22), &[m], dev).unwrap();
            let want = common::on_cpu(&a).convolve_with(
                &common::on_cpu(&v),
                ConvolveMode::Full,
                ConvolveMethod::Direct,
            );
            for (label, method) in [
                ("direct", ConvolveMethod::Direct),
                ("fft", ConvolveMethod::Fft),
            ] {
                let name = format!("{backend}_convolve_{n}_{label}_{m}");
                let got = a.convolve_with(&v, ConvolveMode::Full, method);
                let want = want.clone();
                if common::agrees(&name, got, want, 1e-9) {
                    group.bench_function(BenchmarkId::new(label, m), |b| {
                        b.iter(|| {
                            let y = a.convolve_with(&v, ConvolveMode::Full, method).unwrap();
                            dev.synchronize().unwrap();
                            y
                        })
                    });
                }
            }
        }
        group.finish();
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(crossover, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
