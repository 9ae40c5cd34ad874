//! Matrix-product benches: `a.matmul(&b)` of square uniform random f64 and f32 matrices.
//! Every timed region ends with `dev.synchronize()`. Each bench first compares one untimed
//! product with the CPU backend's (within `rtol * (1 + |c|)`: 1e-10 for f64, 1e-3 for f32,
//! whose 1000-term dot products of values in [-1, 1) round to about 1e-5).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend, Float};
use cuprite_benches::{api, data};

/// Side of the square matrices (2 GFLOP per product).
const N: usize = 1000;

fn one<T: Float, B: ArrayBackend>(
    c: &mut Criterion,
    name: &str,
    dev: &B,
    conv: impl Fn(f64) -> T,
    rtol: f64,
) {
    let a: Vec<T> = data::uniform(N * N, -1.0, 1.0, 6)
        .into_iter()
        .map(&conv)
        .collect();
    let b: Vec<T> = data::uniform(N * N, -1.0, 1.0, 7)
        .into_iter()
        .map(&conv)
        .collect();
    let a = Array::from_vec(a, &[N, N], dev).unwrap();
    let b = Array::from_vec(b, &[N, N], dev).unwrap();
    let want = api::matmul(&common::on_cpu(&a), &common::on_cpu(&b));
    if common::agrees(name, api::matmul(&a, &b), want, rtol) {
        c.bench_function(name, |bench| {
            bench.iter(|| {
                let p = api::matmul(&a, &b).unwrap();
                dev.synchronize().unwrap();
                p
            })
        });
    }
}

fn matmul<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    one(
        c,
        &common::name(backend, "matmul_f64", N),
        dev,
        |v| v,
        1e-10,
    );
    one(
        c,
        &common::name(backend, "matmul_f32", N),
        dev,
        |v| v as f32,
        1e-3,
    );
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(matmul, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
