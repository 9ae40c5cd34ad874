//! Fourier transform benches: one complex transform of 2^20 points (c128), a batch of 256
//! transforms of 4096 points along the last axis, and a real transform (`rfft`) of 2^20 f64.
//! Every timed region ends with `dev.synchronize()`. Each bench first compares the magnitude
//! spectrum of one untimed result with the CPU backend's, within 1e-9 relative.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::fft::{self, Norm};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::data;

/// Points of the single transforms.
const N: usize = 1 << 20;
/// Transforms in the batch, and their length.
const BATCH: (usize, usize) = (256, 4096);

fn transforms<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x = Array::from_vec(data::uniform(N, -1.0, 1.0, 11), &[N], dev).unwrap();
    let z = x.astype::<cuprite::c128>().unwrap();
    let name = common::name(backend, "fft_c128", N);
    let got = fft::fft(&z, None, -1, Norm::Backward).and_then(|f| f.abs());
    let want = fft::fft(&common::on_cpu(&z), None, -1, Norm::Backward).and_then(|f| f.abs());
    if common::agrees(&name, got, want, 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let f = fft::fft(&z, None, -1, Norm::Backward).unwrap();
                dev.synchronize().unwrap();
                f
            })
        });
    }

    let (count, len) = BATCH;
    let m = Array::from_vec(
        data::uniform(count * len, -1.0, 1.0, 12),
        &[count, len],
        dev,
    )
    .unwrap()
    .astype::<cuprite::c128>()
    .unwrap();
    let name = common::name(backend, "fft_batch_c128", count * len);
    let got = fft::fft(&m, None, -1, Norm::Backward).and_then(|f| f.abs());
    let want = fft::fft(&common::on_cpu(&m), None, -1, Norm::Backward).and_then(|f| f.abs());
    if common::agrees(&name, got, want, 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let f = fft::fft(&m, None, -1, Norm::Backward).unwrap();
                dev.synchronize().unwrap();
                f
            })
        });
    }

    let name = common::name(backend, "rfft_f64", N);
    let got = fft::rfft(&x, None, -1, Norm::Backward).and_then(|f| f.abs());
    let want = fft::rfft(&common::on_cpu(&x), None, -1, Norm::Backward).and_then(|f| f.abs());
    if common::agrees(&name, got, want, 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let f = fft::rfft(&x, None, -1, Norm::Backward).unwrap();
                dev.synchronize().unwrap();
                f
            })
        });
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(transforms, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
