//! The fast paths of the products, on every backend, against a plain loop over host data
//! written here (f64 accumulation for the real types, c128 for the complex ones, exact for
//! the integers): dot products and matrix-vector products in every layout (transposed,
//! reversed, strided, broadcast, empty) at sizes around the vector width, NaN and infinities,
//! and batched products whose right operand broadcasts (folded into one GEMM on the CPU)
//! next to batches that must not fold.
//!
//! Inputs are small multiples of 1/4 (exact in every float type); the tolerance is
//! `rtol * (1 + sum |a_ip * b_pj|)` with rtol 1e-5 for f32/c64 and 1e-12 for f64/c128.

use cuprite::prelude::*;
use cuprite::{s, Scalar};

/// `n` values `((i * 7 + seed) % 11 - 5) / 4` (imaginary part from another walk).
fn values<E: Element>(n: usize, seed: usize) -> Vec<E> {
    (0..n)
        .map(|i| {
            let re = ((i * 7 + seed) % 11) as f64 - 5.0;
            let im = ((i * 5 + 3 * seed) % 9) as f64 - 4.0;
            match E::DTYPE {
                DType::C64 | DType::C128 => {
                    E::from_scalar(Scalar::C128(c128::new(re / 4.0, im / 4.0)))
                }
                DType::F32 | DType::F64 => E::from_scalar(Scalar::F64(re / 4.0)),
                _ => E::from_scalar(Scalar::I64(re as i64)),
            }
        })
        .collect()
}

fn arr<E: Element, B: ArrayBackend>(dev: &B, shape: &[usize], seed: usize) -> Array<E, B> {
    Array::from_vec(values(shape.iter().product(), seed), shape, dev).unwrap()
}

fn to_c128<E: Element>(x: E) -> c128 {
    match x.to_scalar() {
        Scalar::C128(z) => z,
        Scalar::C64(z) => c128::new(z.re as f64, z.im as f64),
        _ => c128::new(x.cast::<f64>(), 0.0),
    }
}

/// `a @ b` of host matrices (`[count, m, k]`, `[count, k, n]`, C order): a plain loop,
/// real arithmetic for real types (so that `inf * 0` is NaN as in the product itself).
#[allow(clippy::too_many_arguments)]
fn reference(
    a: &[c128],
    b: &[c128],
    count: usize,
    m: usize,
    k: usize,
    n: usize,
    complex: bool,
) -> Vec<(c128, f64)> {
    let mut out = Vec::with_capacity(count * m * n);
    for t in 0..count {
        for i in 0..m {
            for j in 0..n {
                let (mut sum, mut scale) = (c128::new(0.0, 0.0), 0.0);
                for p in 0..k {
                    let (x, y) = (a[(t * m + i) * k + p], b[(t * k + p) * n + j]);
                    sum += if complex {
                        x * y
                    } else {
                        c128::new(x.re * y.re, 0.0)
                    };
                    scale += x.norm() * y.norm();
                }
                out.push((sum, scale));
            }
        }
    }
    out
}

/// `a.matmul(b)` against [`reference`] on the logical values of both views.
fn check<E: Numeric, B: ArrayBackend>(a: &Array<E, B>, b: &Array<E, B>, what: &str) {
    let got = a.matmul(b).unwrap_or_else(|e| panic!("{what}: {e}"));
    // The operands as stacks of matrices with the result's batch shape.
    let a2 = if a.ndim() == 1 {
        a.expand_dims(0).unwrap()
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        b.expand_dims(1).unwrap()
    } else {
        b.clone()
    };
    let (m, k) = (a2.shape()[a2.ndim() - 2], a2.shape()[a2.ndim() - 1]);
    let n = b2.shape()[b2.ndim() - 1];
    let keep = got.ndim() - usize::from(a.ndim() > 1) - usize::from(b.ndim() > 1);
    let batch = got.shape()[..keep].to_vec();
    let full = |x: &Array<E, B>, r: usize, c: usize| -> Vec<c128> {
        let mut shape = batch.clone();
        shape.extend([r, c]);
        let v = x.broadcast_to(&shape).unwrap().to_vec().unwrap();
        v.into_iter().map(to_c128).collect()
    };
    let count: usize = batch.iter().product();
    let want = reference(
        &full(&a2, m, k),
        &full(&b2, k, n),
        count,
        m,
        k,
        n,
        E::DTYPE.is_complex(),
    );
    let got_v: Vec<c128> = got.to_vec().unwrap().into_iter().map(to_c128).collect();
    assert_eq!(got_v.len(), want.len(), "{what}: size");
    let rtol = match E::DTYPE {
        DType::F32 | DType::C64 => 1e-5,
        DType::F64 | DType::C128 => 1e-12,
        _ => 0.0,
    };
    let close = |g: f64, w: f64, scale: f64| {
        g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= rtol * (1.0 + scale)
    };
    for (i, (g, (w, scale))) in got_v.iter().zip(&want).enumerate() {
        assert!(
            close(g.re, w.re, *scale) && close(g.im, w.im, *scale),
            "{what}: element {i}: got {g}, want {w}"
        );
    }
}

const SIZES: [usize; 6] = [1, 3, 7, 17, 1000, 1001];

/// Dot products: contiguous, reversed, every second element, broadcast, mixed.
fn vector_vector<E: Numeric, B: ArrayBackend>(dev: &B) {
    for k in SIZES {
        let x = arr::<E, B>(dev, &[k], 1);
        let y = arr::<E, B>(dev, &[2 * k], 2);
        let every2 = y.slice(&s![..;2]).unwrap();
        let rev = x.flip(0).unwrap();
        let bcast = arr::<E, B>(dev, &[1], 3).broadcast_to(&[k]).unwrap();
        let tail = y.slice(&s![k as isize..]).unwrap();
        check(&x, &tail, &format!("v @ v, k = {k}"));
        check(&rev, &tail, &format!("reversed @ v, k = {k}"));
        check(&x, &every2, &format!("v @ every second, k = {k}"));
        check(&every2, &rev, &format!("every second @ reversed, k = {k}"));
        check(&bcast, &x, &format!("broadcast @ v, k = {k}"));
        check(&rev, &rev, &format!("reversed @ reversed, k = {k}"));
    }
}

/// The matrix operands of an `r x c` matrix in several layouts (same values in each).
fn layouts<E: Numeric, B: ArrayBackend>(
    dev: &B,
    r: usize,
    c: usize,
    seed: usize,
) -> Vec<(&'static str, Array<E, B>)> {
    let (ri, ci) = (r as isize, c as isize);
    vec![
        ("row-major", arr(dev, &[r, c], seed)),
        ("transposed", arr::<E, B>(dev, &[c, r], seed).t()),
        (
            "reversed rows",
            arr::<E, B>(dev, &[r, c], seed).flip(0).unwrap(),
        ),
        (
            "reversed columns",
            arr::<E, B>(dev, &[r, c], seed).flip(1).unwrap(),
        ),
        (
            "transposed, reversed",
            arr::<E, B>(dev, &[c, r], seed).flip(0).unwrap().t(),
        ),
        (
            "every second row",
            arr::<E, B>(dev, &[2 * r, c], seed)
                .slice(&s![..;2, ..])
                .unwrap(),
        ),
        (
            "every second column",
            arr::<E, B>(dev, &[r, 2 * c], seed)
                .slice(&s![.., ..;2])
                .unwrap(),
        ),
        (
            "no unit stride",
            arr::<E, B>(dev, &[2 * r, 2 * c], seed)
                .slice(&s![..2 * ri;2, ..2 * ci;2])
                .unwrap(),
        ),
        (
            "broadcast row",
            arr::<E, B>(dev, &[1, c], seed)
                .broadcast_to(&[r, c])
                .unwrap(),
        ),
        (
            "broadcast column",
            arr::<E, B>(dev, &[r, 1], seed)
                .broadcast_to(&[r, c])
                .unwrap(),
        ),
    ]
}

/// The vector operands of length `k`.
fn vectors<E: Numeric, B: ArrayBackend>(dev: &B, k: usize) -> Vec<(&'static str, Array<E, B>)> {
    vec![
        ("contiguous", arr(dev, &[k], 5)),
        ("reversed", arr::<E, B>(dev, &[k], 5).flip(0).unwrap()),
        (
            "every second",
            arr::<E, B>(dev, &[2 * k], 6).slice(&s![..;2]).unwrap(),
        ),
        (
            "broadcast",
            arr::<E, B>(dev, &[1], 7).broadcast_to(&[k]).unwrap(),
        ),
    ]
}

/// `M @ v` and `v @ M` for every matrix layout and vector layout.
fn matrix_vector<E: Numeric, B: ArrayBackend>(dev: &B) {
    for k in SIZES {
        for r in [1, 3, 17] {
            for (vname, v) in vectors::<E, B>(dev, k) {
                for (mname, mat) in layouts::<E, B>(dev, r, k, 11) {
                    check(&mat, &v, &format!("M({mname}, {r}x{k}) @ v({vname})"));
                }
                for (mname, mat) in layouts::<E, B>(dev, k, r, 13) {
                    check(&v, &mat, &format!("v({vname}) @ M({mname}, {k}x{r})"));
                }
            }
        }
    }
    // A long output (several blocks of the axpy form) from a short inner axis.
    let v = arr::<E, B>(dev, &[9], 3);
    for (mname, mat) in layouts::<E, B>(dev, 1300, 9, 4) {
        check(&mat, &v, &format!("M({mname}, 1300x9) @ v"));
    }
    for (mname, mat) in layouts::<E, B>(dev, 9, 1300, 4) {
        check(&v, &mat, &format!("v @ M({mname}, 9x1300)"));
    }
}

/// Empty products: `k == 0` gives zeros, an empty output dimension an empty result.
fn empty<E: Numeric, B: ArrayBackend>(dev: &B) {
    let e = arr::<E, B>(dev, &[0], 0);
    let z = e.matmul(&e).unwrap();
    assert_eq!((z.shape(), z.to_vec().unwrap()), (&[][..], vec![E::ZERO]));
    let m = arr::<E, B>(dev, &[3, 0], 0);
    let z = m.matmul(&e).unwrap();
    assert_eq!(
        (z.shape(), z.to_vec().unwrap()),
        (&[3][..], vec![E::ZERO; 3])
    );
    let z = e.matmul(&m.t()).unwrap();
    assert_eq!(
        (z.shape(), z.to_vec().unwrap()),
        (&[3][..], vec![E::ZERO; 3])
    );
    let m0 = arr::<E, B>(dev, &[0, 4], 0);
    let v = arr::<E, B>(dev, &[4], 1);
    assert_eq!(m0.matmul(&v).unwrap().shape(), &[0]);
    assert_eq!(v.matmul(&m0.t()).unwrap().shape(), &[0]);
}

/// Batched products: the right operand broadcast (foldable), both operands broadcast, and
/// layouts that must not fold, against the per-matrix loop.
fn batched<E: Numeric, B: ArrayBackend>(dev: &B) {
    let w = arr::<E, B>(dev, &[8, 7], 1);
    // (6, 5, 1, 8) @ (8, 7): one (30, 8) @ (8, 7) product on the CPU.
    check(
        &arr::<E, B>(dev, &[6, 5, 1, 8], 2),
        &w,
        "(6, 5, 1, 8) @ (8, 7)",
    );
    check(&arr::<E, B>(dev, &[4, 3, 8], 2), &w, "(4, 3, 8) @ (8, 7)");
    check(
        &arr::<E, B>(dev, &[3, 5, 8], 3),
        &w.flip(0).unwrap(),
        "stack @ reversed",
    );
    // (2, 3, 4, 8) @ (2, 1, 8, 7): only the inner batch axis folds.
    let wb = arr::<E, B>(dev, &[2, 1, 8, 7], 4);
    check(
        &arr::<E, B>(dev, &[2, 3, 4, 8], 5),
        &wb,
        "(2, 3, 4, 8) @ (2, 1, 8, 7)",
    );
    // Both operands broadcast along the batch.
    let a1 = arr::<E, B>(dev, &[1, 2, 8], 6)
        .broadcast_to(&[3, 2, 8])
        .unwrap();
    check(&a1, &w, "broadcast (3, 2, 8) @ (8, 7)");
    let r1 = arr::<E, B>(dev, &[1, 1, 8], 6)
        .broadcast_to(&[3, 1, 8])
        .unwrap();
    check(&r1, &w, "broadcast (3, 1, 8) @ (8, 7)");
    check(
        &arr::<E, B>(dev, &[8], 6),
        &w.broadcast_to(&[3, 8, 7]).unwrap(),
        "v @ broadcast",
    );
    // Not mergeable: a transposed per matrix, every second batch item, batch axes swapped.
    let at = arr::<E, B>(dev, &[4, 8, 3], 7).swapaxes(-1, -2).unwrap();
    check(&at, &w, "(4, 8, 3)^T @ (8, 7)");
    let skip = arr::<E, B>(dev, &[8, 3, 8], 8).slice(&s![..;2]).unwrap();
    check(&skip, &w, "every second item @ (8, 7)");
    let swapped = arr::<E, B>(dev, &[3, 4, 2, 8], 9).swapaxes(0, 1).unwrap();
    check(&swapped, &w, "batch axes swapped @ (8, 7)");
    let rows1 = arr::<E, B>(dev, &[5, 1, 8], 9).flip(0).unwrap();
    check(&rows1, &w, "reversed stack of rows @ (8, 7)");
    // The right operand varies along the batch: an ordinary batch loop.
    check(
        &arr::<E, B>(dev, &[3, 4, 8], 10),
        &arr::<E, B>(dev, &[3, 8, 7], 11),
        "stack @ stack",
    );
    // Batched matrix-vector products.
    check(
        &arr::<E, B>(dev, &[3, 5, 17], 12),
        &arr::<E, B>(dev, &[17], 13),
        "stack @ v",
    );
    check(
        &arr::<E, B>(dev, &[17], 13),
        &arr::<E, B>(dev, &[3, 17, 5], 12),
        "v @ stack",
    );
}

fn every_layout<E: Numeric, B: ArrayBackend>(dev: &B) {
    vector_vector::<E, B>(dev);
    matrix_vector::<E, B>(dev);
    empty::<E, B>(dev);
    batched::<E, B>(dev);
}

fn vector_products_f32<B: ArrayBackend>(dev: &B) {
    every_layout::<f32, B>(dev);
}
fn vector_products_f64<B: ArrayBackend>(dev: &B) {
    every_layout::<f64, B>(dev);
}
fn vector_products_c64<B: ArrayBackend>(dev: &B) {
    every_layout::<c64, B>(dev);
}
fn vector_products_c128<B: ArrayBackend>(dev: &B) {
    every_layout::<c128, B>(dev);
}
fn vector_products_i32<B: ArrayBackend>(dev: &B) {
    every_layout::<i32, B>(dev);
}
fn vector_products_i64<B: ArrayBackend>(dev: &B) {
    every_layout::<i64, B>(dev);
}

/// A NaN or an infinity anywhere reaches every output that sums over it, also where the
/// other factor is zero (no `0 * x` shortcut).
fn nan_inf_propagate<B: ArrayBackend>(dev: &B) {
    fn one<E: Numeric + Float, B: ArrayBackend>(dev: &B) {
        for k in [1, 7, 17, 1001] {
            for (pos, bad) in [
                (0, f64::NAN),
                (k / 2, f64::INFINITY),
                (k - 1, f64::NEG_INFINITY),
            ] {
                let mut xs = values::<E>(k, 1);
                xs[pos] = E::from_scalar(Scalar::F64(bad));
                let x = Array::<E, B>::from_vec(xs, &[k], dev).unwrap();
                let zeros = Array::<E, B>::zeros(&[k], dev).unwrap();
                let y = arr::<E, B>(dev, &[k], 2);
                check(&x, &y, &format!("{bad} in v @ v, k = {k}"));
                check(&x, &zeros, &format!("{bad} @ zeros, k = {k}"));
                let mat = arr::<E, B>(dev, &[k, 5], 3);
                check(&x, &mat, &format!("{bad} in v @ M, k = {k}"));
                check(&mat.t(), &x, &format!("M^T @ {bad} in v, k = {k}"));
                let zm = Array::<E, B>::zeros(&[5, k], dev).unwrap();
                check(&zm, &x, &format!("zeros @ {bad} in v, k = {k}"));
                check(
                    &x.flip(0).unwrap(),
                    &zm.t(),
                    &format!("reversed {bad} @ zeros"),
                );
            }
        }
    }
    one::<f32, B>(dev);
    one::<f64, B>(dev);
}

cuprite::test_backends!(
    vector_products_f32,
    vector_products_f64,
    vector_products_c64,
    vector_products_c128,
    vector_products_i32,
    vector_products_i64,
    nan_inf_propagate,
);
