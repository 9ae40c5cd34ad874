//! Matrix-product benches: `a.matmul(&b)` of square uniform random f64 and f32 matrices.
//! Every timed region ends with `dev.synchronize()`.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend, Numeric};
use cuprite_benches::{api, data};

/// Side of the square matrices (2 GFLOP per product).
const N: usize = 1000;

fn one<T: Numeric, B: ArrayBackend>(
    c: &mut Criterion,
    name: &str,
    dev: &B,
    conv: impl Fn(f64) -> T,
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
    if common::works(name, || api::matmul(&a, &b)) {
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
    one(c, &common::name(backend, "matmul_f64", N), dev, |v| v);
    one(c, &common::name(backend, "matmul_f32", N), dev, |v| {
        v as f32
    });
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(matmul, c);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
