//! Accuracy of f32 `sum`, `nansum` and `mean` on every kind of view (contiguous, strided
//! `..;2` and `..;-3`, broadcast, transposed, and column reductions `sum(axis=0)` of a C
//! matrix) over a few hundred thousand values, against an f64 reference summed in the test
//! from the view's elements.
//!
//! The bound is fixed: a relative error of at most 1e-6 per output. NumPy's pairwise sum of
//! the 280,000 copies of 1.5183127 below is off by 1.3e-7 relative (measured with NumPy 2),
//! so 1e-6 is a little under ten times NumPy's error; a plain running f32 sum of such data
//! is off by about 5e-5 and fails it.

use cuprite::prelude::*;

/// Largest relative error allowed on an f32 sum (see the module docs).
const RTOL: f64 = 1e-6;

/// A deterministic generator of values in [0.5, 1.5) (no cancellation, so a relative error
/// is meaningful).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            0.5 + (s >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect()
}

/// f64 sums of the C-order elements `v` of a 2-D view of `shape` over `axis` (`None`: all),
/// skipping NaN; returns (sums, count per output).
fn reference(v: &[f32], shape: [usize; 2], axis: Option<usize>) -> (Vec<f64>, usize) {
    let [r, c] = shape;
    let at = |i: usize, j: usize| {
        let x = v[i * c + j] as f64;
        if x.is_nan() {
            0.0
        } else {
            x
        }
    };
    match axis {
        None => (vec![(0..r * c).map(|k| at(k / c, k % c)).sum()], r * c),
        Some(0) => ((0..c).map(|j| (0..r).map(|i| at(i, j)).sum()).collect(), r),
        Some(_) => ((0..r).map(|i| (0..c).map(|j| at(i, j)).sum()).collect(), c),
    }
}

#[track_caller]
fn check(what: &str, got: Vec<f32>, want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: outputs");
    for (k, (&g, &w)) in got.iter().zip(want).enumerate() {
        let rel = (g as f64 - w).abs() / w.abs();
        assert!(
            rel <= RTOL,
            "{what}[{k}]: {g} vs exact {w}: relative error {rel:.2e} > {RTOL:.0e}"
        );
    }
}

/// Checks `nansum`, and without NaN `sum` and `mean`, of the 2-D view `v` over `axis` against the reference.
fn check_view<B: ArrayBackend>(name: &str, v: &Array<f32, B>, axis: Option<usize>) {
    let shape = [v.shape()[0], v.shape()[1]];
    let elems = v.to_vec().unwrap();
    let (want, count) = reference(&elems, shape, axis);
    let what = |op: &str| format!("{name} {op} axis {axis:?}");
    let axes = || axis.map_or(Axes::All, |a| (a as isize).into());
    check(
        &what("nansum"),
        v.nansum_axes(axes(), false).unwrap().to_vec().unwrap(),
        &want,
    );
    if !elems.iter().any(|x| x.is_nan()) {
        check(
            &what("sum"),
            v.sum_axes(axes(), false).unwrap().to_vec().unwrap(),
            &want,
        );
        let means: Vec<f64> = want.iter().map(|w| w / count as f64).collect();
        check(
            &what("mean"),
            v.mean_axes(axes(), false).unwrap().to_vec().unwrap(),
            &means,
        );
    }
}

/// A 1-D view as a `[1, n]` matrix, so every case goes through [`check_view`].
fn row<B: ArrayBackend>(v: &Array<f32, B>) -> Array<f32, B> {
    v.reshape(&[1, -1]).unwrap()
}

fn one_dimensional_views<B: ArrayBackend>(dev: &B) {
    let c = Array::full(&[280_000], 1.5183127f32, dev).unwrap();
    let x = Array::from_vec(values(300_000, 1), &[300_000], dev).unwrap();
    for (name, a) in [("constant", &c), ("random", &x)] {
        check_view(&format!("{name} contiguous"), &row(a), None);
        for (sl, view) in [
            ("..;2", a.slice(&s![..;2]).unwrap()),
            ("..;-3", a.slice(&s![..;-3]).unwrap()),
        ] {
            assert!(!view.is_contiguous());
            // The 1-D strided view itself, then as a row (same elements).
            let elems = view.to_vec().unwrap();
            let (want, n) = reference(&elems, [1, elems.len()], None);
            let what = format!("{name} {sl}");
            check(&what, vec![view.sum().unwrap().item().unwrap()], &want);
            check(&what, vec![view.nansum().unwrap().item().unwrap()], &want);
            let mean = view.mean().unwrap().item().unwrap();
            check(&what, vec![mean], &[want[0] / n as f64]);
        }
    }
}

fn nan_views<B: ArrayBackend>(dev: &B) {
    let mut data = values(300_000, 2);
    for x in data.iter_mut().step_by(97) {
        *x = f32::NAN;
    }
    let x = Array::from_vec(data, &[300_000], dev).unwrap();
    check_view("nan contiguous", &row(&x), None);
    let s = x.slice(&s![..;-3]).unwrap();
    check_view("nan ..;-3", &row(&s.copy().unwrap()), None);
    let elems = s.to_vec().unwrap();
    let (want, _) = reference(&elems, [1, elems.len()], None);
    check(
        "nan ..;-3",
        vec![s.nansum().unwrap().item().unwrap()],
        &want,
    );
    let m = x.reshape(&[600, 500]).unwrap();
    check_view("nan matrix", &m, Some(0));
    check_view("nan transposed", &m.t(), Some(1));
}

fn matrix_views<B: ArrayBackend>(dev: &B) {
    let x = Array::from_vec(values(300_000, 3), &[300_000], dev).unwrap();
    let m = x.reshape(&[600, 500]).unwrap();
    let tall = x.reshape(&[100_000, 3]).unwrap();
    let row_b = Array::from_vec(values(1000, 4), &[1, 1000], dev)
        .unwrap()
        .broadcast_to(&[300, 1000])
        .unwrap();
    let col_b = Array::from_vec(values(300, 5), &[300, 1], dev)
        .unwrap()
        .broadcast_to(&[300, 1000])
        .unwrap();
    let cases = [
        ("C matrix", m.clone()),
        ("tall C matrix", tall.clone()),
        ("transposed", m.t()),
        ("tall transposed", tall.t()),
        ("strided rows", m.slice(&s![..;-2, 1..;3]).unwrap()),
        ("broadcast rows", row_b),
        ("broadcast columns", col_b),
    ];
    for (name, v) in &cases {
        for axis in [None, Some(0), Some(1)] {
            check_view(name, v, axis);
        }
    }
}

cuprite::test_backends!(one_dimensional_views, nan_views, matrix_views);
