//! Reduction benches: `sum()` of everything, `sum_axes(0)` and `sum_axes(1)` of a 2-D array,
//! and the norm `sqrt(sum(x * x))`, on a sin wave. Every timed region ends with
//! `dev.synchronize()`. Each bench first compares one untimed result with the CPU backend's
//! (within 1e-9: summation orders differ).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::{api, data};

/// Elements reduced (80 MB of f64).
const N: usize = 10_000_000;

/// Relative tolerance against the CPU backend's sums (different summation orders).
const RTOL: f64 = 1e-9;

fn reduce<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x = Array::from_vec(data::sin_wave(N), &[N], dev).unwrap();
    let m = x.reshape(&[1000, (N / 1000) as isize]).unwrap();
    let (xc, mc) = (common::on_cpu(&x), common::on_cpu(&m));
    let name = common::name(backend, "sum", N);
    if common::agrees(&name, api::sum(&x), api::sum(&xc), RTOL) {
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
        let want = api::sum_axis(&mc, axis, false);
        if common::agrees(&name, api::sum_axis(&m, axis, false), want, RTOL) {
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
    if common::agrees(&name, api::norm(&x), api::norm(&xc), RTOL) {
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
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
