//! Creation, element-wise and layout benches: `ones`/`full`, `x *= 5` in place, the chain
//! `x *= 5; x *= x; x += x`, `a + b` out of place (large, and 1000 elements for the per-call
//! overhead), and the transpose copy `a.t().copy()`. Every timed region ends with
//! `dev.synchronize()`; inputs are sin waves or pseudo-random, never constants.

mod common;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::{api, data};

/// Elements of the large arrays (80 MB of f64).
const N: usize = 10_000_000;

fn creation<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    c.bench_function(&common::name(backend, "ones", N), |b| {
        b.iter(|| {
            let a = Array::<f64, B>::ones(&[N], dev).unwrap();
            dev.synchronize().unwrap();
            a
        })
    });
    c.bench_function(&common::name(backend, "full", N), |b| {
        b.iter(|| {
            let a = Array::<f64, B>::full(&[N], black_box(2.5), dev).unwrap();
            dev.synchronize().unwrap();
            a
        })
    });
}

fn elementwise<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x0 = Array::from_vec(data::sin_wave(N), &[N], dev).unwrap();
    // In-place ops start from a fresh copy of the sin wave each time (untimed setup), so the
    // values never overflow to a constant.
    c.bench_function(&common::name(backend, "mul_scalar_inplace", N), |b| {
        b.iter_batched_ref(
            || x0.copy().unwrap(),
            |x| {
                api::mul_scalar_inplace(x, 5.0).unwrap();
                dev.synchronize().unwrap();
            },
            BatchSize::PerIteration,
        )
    });
    c.bench_function(&common::name(backend, "chain_inplace", N), |b| {
        b.iter_batched_ref(
            || x0.copy().unwrap(),
            |x| {
                api::chain_inplace(x).unwrap();
                dev.synchronize().unwrap();
            },
            BatchSize::PerIteration,
        )
    });
    let y0 = Array::from_vec(data::uniform(N, -1.0, 1.0, 2), &[N], dev).unwrap();
    c.bench_function(&common::name(backend, "add", N), |b| {
        b.iter(|| {
            let z = x0.try_add(&y0).unwrap();
            dev.synchronize().unwrap();
            z
        })
    });
    let small = 1000;
    let xs = Array::from_vec(data::sin_wave(small), &[small], dev).unwrap();
    let ys = Array::from_vec(data::uniform(small, -1.0, 1.0, 3), &[small], dev).unwrap();
    c.bench_function(&common::name(backend, "add", small), |b| {
        b.iter(|| {
            let z = xs.try_add(&ys).unwrap();
            dev.synchronize().unwrap();
            z
        })
    });
}

fn layout<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let m = Array::from_vec(data::sin_wave(N), &[1000, N / 1000], dev).unwrap();
    c.bench_function(&common::name(backend, "transpose_copy", N), |b| {
        b.iter(|| {
            let t = m.t().copy().unwrap();
            dev.synchronize().unwrap();
            t
        })
    });
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(creation, c);
    cuprite_benches::for_each_backend!(elementwise, c);
    cuprite_benches::for_each_backend!(layout, c);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
