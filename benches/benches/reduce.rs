//! Reduction benches: `sum()` of everything, `sum_axes(0)` and `sum_axes(1)` of a 2-D array,
//! and the norm `sqrt(sum(x * x))`, on a sin wave. Every timed region ends with
//! `dev.synchronize()`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::{api, data};

/// Elements reduced (80 MB of f64).
const N: usize = 10_000_000;

fn reduce<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x = Array::from_vec(data::sin_wave(N), &[N], dev).unwrap();
    let m = x.reshape(&[1000, (N / 1000) as isize]).unwrap();
    let name = common::name(backend, "sum", N);
    if common::works(&name, || api::sum(&x)) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let s = api::sum(&x).unwrap();
                dev.synchronize().unwrap();
                s
            })
        });
    }
    for axis in [0, 1] {
        let name = common::name(backend, &format!("sum_axis{axis}"), N);
        if common::works(&name, || api::sum_axis(&m, axis, false)) {
            c.bench_function(&name, |b| {
                b.iter(|| {
                    let s = api::sum_axis(&m, axis, false).unwrap();
                    dev.synchronize().unwrap();
                    s
                })
            });
        }
    }
    let name = common::name(backend, "norm", N);
    if common::works(&name, || api::norm(&x)) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let s = api::norm(&x).unwrap();
                dev.synchronize().unwrap();
                s
            })
        });
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(reduce, c);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
