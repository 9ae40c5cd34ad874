//! Linear algebra benches on f64: `inv` and `solve` (one right-hand side) of a 500x500
//! matrix, and the SVD (U, S, Vh) of a 200x200 one. The matrices are uniform random plus
//! `n` on the diagonal (well conditioned). Every timed region ends with `dev.synchronize()`.
//! Each bench first compares one untimed result with the CPU backend's (`inv` and `solve`
//! within 1e-9 relative, the singular values within 1e-10).

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use cuprite::{Array, ArrayBackend};
use cuprite_benches::data;

/// Size of the `inv` and `solve` matrices, and of the SVD's.
const N_SOLVE: usize = 500;
const N_SVD: usize = 200;

/// A well-conditioned `n x n` matrix: uniform in [-1, 1) plus `n` on the diagonal.
fn matrix<B: ArrayBackend>(n: usize, seed: u64, dev: &B) -> Array<f64, B> {
    let mut v = data::uniform(n * n, -1.0, 1.0, seed);
    for i in 0..n {
        v[i * n + i] += n as f64;
    }
    Array::from_vec(v, &[n, n], dev).unwrap()
}

fn decompositions<B: ArrayBackend>(c: &mut Criterion, backend: &str, dev: &B) {
    let a = matrix(N_SOLVE, 21, dev);
    let name = common::name(backend, "inv_f64", N_SOLVE);
    if common::agrees(&name, a.inv(), common::on_cpu(&a).inv(), 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let x = a.inv().unwrap();
                dev.synchronize().unwrap();
                x
            })
        });
    }

    let rhs = Array::from_vec(data::uniform(N_SOLVE, -1.0, 1.0, 22), &[N_SOLVE], dev).unwrap();
    let name = common::name(backend, "solve_f64", N_SOLVE);
    let want = common::on_cpu(&a).solve(&common::on_cpu(&rhs));
    if common::agrees(&name, a.solve(&rhs), want, 1e-9) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let x = a.solve(&rhs).unwrap();
                dev.synchronize().unwrap();
                x
            })
        });
    }

    let s = matrix(N_SVD, 23, dev);
    let name = common::name(backend, "svd_f64", N_SVD);
    if common::agrees(&name, s.svdvals(), common::on_cpu(&s).svdvals(), 1e-10) {
        c.bench_function(&name, |b| {
            b.iter(|| {
                let f = s.svd(false).unwrap();
                dev.synchronize().unwrap();
                f
            })
        });
    }
}

fn all(c: &mut Criterion) {
    cuprite_benches::for_each_backend!(decompositions, c);
    common::exit_if_wrong();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = all
}
criterion_main!(benches);
