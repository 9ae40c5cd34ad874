//! Creation, element-wise and layout benches: `ones`/`full`, `x *= 5` in place, the chain
//! `x *= 5; x *= x; x += x`, `a + b` out of place (large, and 1000 elements for the per-call
//! overhead), and the transpose copy `a.t().copy()`. Every timed region ends with
//! `dev.synchronize()`; inputs are sin waves or pseudo-random, never constants. Each bench
//! first compares one untimed result with the CPU backend's.

mod common;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use cuprite::{Array, ArrayBackend, Cpu};
use cuprite_benches::{api, data};

/// Elements of the large arrays (80 MB of f64).
const N: usize = 10_000_000;

fn creation<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let cpu = common::cpu();
    let name = common::name(backend, "ones", N);
    if common::agrees(
        &name,
        Array::<f64, B>::ones(&[N], dev),
        Array::<f64, Cpu>::ones(&[N], &cpu),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let a = Array::<f64, B>::ones(&[N], dev).unwrap();
                dev.synchronize().unwrap();
                a
            })
        });
    }
    let name = common::name(backend, "full", N);
    if common::agrees(
        &name,
        Array::<f64, B>::full(&[N], 2.5, dev),
        Array::<f64, Cpu>::full(&[N], 2.5, &cpu),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let a = Array::<f64, B>::full(&[N], black_box(2.5), dev).unwrap();
                dev.synchronize().unwrap();
                a
            })
        });
    }
}

/// `op` applied in place to a copy of `x` (the untimed check's run).
fn updated<B: ArrayBackend>(
    x: &Array<f64, B>,
    op: impl Fn(&mut Array<f64, B>) -> cuprite::Result<()>,
) -> cuprite::Result<Array<f64, B>> {
    let mut y = x.copy()?;
    op(&mut y)?;
    Ok(y)
}

/// NumPy's `x *= 5`.
fn mul5<B: ArrayBackend>(x: &mut Array<f64, B>) -> cuprite::Result<()> {
    api::mul_scalar_inplace(x, 5.0)
}

fn elementwise<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x0 = Array::from_vec(data::sin_wave(N), &[N], dev).unwrap();
    let x0c = common::on_cpu(&x0);
    // In-place ops start from a fresh copy of the sin wave each time (untimed setup), so the
    // values never overflow to a constant.
    let name = common::name(backend, "mul_scalar_inplace", N);
    if common::agrees(&name, updated(&x0, mul5), updated(&x0c, mul5), 0.0) {
        c.bench_function(&name, |b| {
            b.iter_batched_ref(
                || x0.copy().unwrap(),
                |x| {
                    api::mul_scalar_inplace(x, 5.0).unwrap();
                    dev.synchronize().unwrap();
                },
                BatchSize::PerIteration,
            )
        });
    }
    let name = common::name(backend, "chain_inplace", N);
    if common::agrees(
        &name,
        updated(&x0, api::chain_inplace),
        updated(&x0c, api::chain_inplace),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter_batched_ref(
                || x0.copy().unwrap(),
                |x| {
                    api::chain_inplace(x).unwrap();
                    dev.synchronize().unwrap();
                },
                BatchSize::PerIteration,
            )
        });
    }
    let y0 = Array::from_vec(data::uniform(N, -1.0, 1.0, 2), &[N], dev).unwrap();
    let name = common::name(backend, "add", N);
    if common::agrees(
        &name,
        x0.try_add(&y0),
        x0c.try_add(&common::on_cpu(&y0)),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let z = x0.try_add(&y0).unwrap();
                dev.synchronize().unwrap();
                z
            })
        });
    }
    let small = 1000;
    let xs = Array::from_vec(data::sin_wave(small), &[small], dev).unwrap();
    let ys = Array::from_vec(data::uniform(small, -1.0, 1.0, 3), &[small], dev).unwrap();
    let name = common::name(backend, "add", small);
    if common::agrees(
        &name,
        xs.try_add(&ys),
        common::on_cpu(&xs).try_add(&common::on_cpu(&ys)),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let z = xs.try_add(&ys).unwrap();
                dev.synchronize().unwrap();
                z
            })
        });
    }
}

fn layout<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let m = Array::from_vec(data::sin_wave(N), &[1000, N / 1000], dev).unwrap();
    let name = common::name(backend, "transpose_copy", N);
    if common::agrees(&name, m.t().copy(), common::on_cpu(&m).t().copy(), 0.0) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let t = m.t().copy().unwrap();
                dev.synchronize().unwrap();
                t
            })
        });
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(creation, c);
    cuprite_benches::for_each_backend!(elementwise, c);
    cuprite_benches::for_each_backend!(layout, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
