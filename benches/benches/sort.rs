//! Sorting benches: `sort(-1)` of an f64 sin wave and of uniform random f32, and the anchor
//! pipeline `m = sort(x).reshape(-1, 1000); (m - mean0) / std0` on uniform random f64.
//! Every timed region ends with `dev.synchronize()`. Each bench first compares one untimed
//! result with the CPU backend's (sorts exactly, the pipeline within 1e-9).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::{api, data};

/// Elements sorted.
const N: usize = 1_000_000;

fn sort<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let x = Array::from_vec(data::sin_wave(N), &[N], dev).unwrap();
    let name = common::name(backend, "sort_f64", N);
    if common::agrees(
        &name,
        api::sort(&x, -1),
        api::sort(&common::on_cpu(&x), -1),
        0.0,
    ) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let s = api::sort(&x, -1).unwrap();
                dev.synchronize().unwrap();
                s
            })
        });
    }
    let x32 = Array::from_vec(data::uniform_f32(N, 0.0, 1.0, 4), &[N], dev).unwrap();
    let name = common::name(backend, "sort_f32", N);
    let want = api::sort(&common::on_cpu(&x32), -1);
    if common::agrees(&name, api::sort(&x32, -1), want, 0.0) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let s = api::sort(&x32, -1).unwrap();
                dev.synchronize().unwrap();
                s
            })
        });
    }
    let r = Array::from_vec(data::uniform(N, 0.0, 1.0, 5), &[N], dev).unwrap();
    let name = common::name(backend, "pipeline", N);
    let want = api::pipeline(&common::on_cpu(&r), 1000);
    if common::agrees(&name, api::pipeline(&r, 1000), want, 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let z = api::pipeline(&r, 1000).unwrap();
                dev.synchronize().unwrap();
                z
            })
        });
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(sort, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
