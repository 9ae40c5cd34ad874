//! Sorting, partitioning, searching and uniqueness on every backend, against NumPy fixtures
//! (`scripts/fixtures/sort.py`: stable `np.sort`/`np.argsort`, `np.searchsorted`,
//! `np.unique`) and, for large and parallel sizes, against analytic properties (sorted order,
//! permutation, stability, the partition contract).

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::Scalar;
use std::cmp::Ordering;

const T: &str = "sort";

/// Exact equality that also checks the sign of zeros and treats every NaN as equal.
fn same<E: Element>(a: E, b: E) -> bool {
    match (a.to_scalar(), b.to_scalar()) {
        (Scalar::F64(x), Scalar::F64(y)) => {
            (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits()
        }
        (Scalar::F32(x), Scalar::F32(y)) => {
            (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits()
        }
        (Scalar::C64(x), Scalar::C64(y)) => {
            x.re.to_bits() == y.re.to_bits() && x.im.to_bits() == y.im.to_bits()
        }
        (Scalar::C128(x), Scalar::C128(y)) => {
            x.re.to_bits() == y.re.to_bits() && x.im.to_bits() == y.im.to_bits()
        }
        _ => a == b,
    }
}

/// Asserts shape and elements (bitwise for floats) against fixture `name`.
fn check<E: Element, B: ArrayBackend>(got: &Array<E, B>, name: &str) {
    let (want, shape) = fixture_vec::<E>(T, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    let g = got.to_vec().unwrap();
    for (i, (a, b)) in g.iter().zip(&want).enumerate() {
        assert!(same(*a, *b), "{name}: element {i}: got {a:?}, NumPy {b:?}");
    }
}

/// Checks sort/argsort along both axes and flattened against the fixtures of `name`.
fn sorts_like_numpy<E: Element, B: ArrayBackend>(dev: &B, name: &str) {
    let x = fixture::<E, B>(dev, T, &format!("{name}_x"));
    for ax in [-1isize, 0] {
        check(&x.sort(ax).unwrap(), &format!("{name}_sort{ax}"));
        check(&x.argsort(ax).unwrap(), &format!("{name}_argsort{ax}"));
    }
    check(&x.sort_flat().unwrap(), &format!("{name}_sortflat"));
    check(&x.argsort_flat().unwrap(), &format!("{name}_argsortflat"));
    // The same through a non-contiguous view: the transpose sorted along the other axis.
    let xt = x.t();
    let st = xt.sort(1).unwrap();
    check(&st.t().copy().unwrap(), &format!("{name}_sort0"));
}

fn sort_every_dtype<B: ArrayBackend>(dev: &B) {
    sorts_like_numpy::<f64, B>(dev, "f64");
    sorts_like_numpy::<f32, B>(dev, "f32");
    sorts_like_numpy::<i64, B>(dev, "i64");
    sorts_like_numpy::<i32, B>(dev, "i32");
    sorts_like_numpy::<u8, B>(dev, "u8");
    sorts_like_numpy::<bool, B>(dev, "bool");
    sorts_like_numpy::<c128, B>(dev, "c128");
    // complex64 against the same (exactly representable) values.
    let x = fixture::<c64, B>(dev, T, "c128_x");
    check(&x.sort(-1).unwrap(), "c128_sort-1");
    check(&x.argsort(0).unwrap(), "c128_argsort0");
}

fn sort_strided_and_transposed<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f64, B>(dev, T, "t3_x");
    let v = x.permute_dims(&[2, 0, 1]).unwrap();
    assert!(!v.is_contiguous());
    check(&v.sort(1).unwrap(), "t3_T_sort1");
    check(&v.argsort(1).unwrap(), "t3_T_argsort1");
    check(&v.argsort(-2).unwrap(), "t3_T_argsort1");
    // Negative steps: sorting a reversed view equals sorting the data.
    let r = x.reshape(&[-1]).unwrap().slice(&s![..;-1]).unwrap();
    let a = r.sort(0).unwrap().to_vec().unwrap();
    let b = x.sort_flat().unwrap().to_vec().unwrap();
    assert!(a
        .iter()
        .zip(&b)
        .all(|(p, q)| p.sort_cmp(q) == Ordering::Equal));
}

fn sort_radix_sizes<B: ArrayBackend>(dev: &B) {
    for n in [2047, 2048, 2049, 5003] {
        let x = fixture::<f64, B>(dev, T, &format!("radix_f64_{n}"));
        let idx = x.argsort(0).unwrap();
        check(&idx, &format!("radix_f64_{n}_argsort"));
        // The sorted values are the input gathered by NumPy's stable argsort (-0.0 and 0.0
        // keep their input order).
        let (xv, _) = fixture_vec::<f64>(T, &format!("radix_f64_{n}"));
        let (iv, _) = fixture_vec::<i64>(T, &format!("radix_f64_{n}_argsort"));
        let want: Vec<f64> = iv.iter().map(|&i| xv[i as usize]).collect();
        let got = x.sort(-1).unwrap().to_vec().unwrap();
        assert!(got.iter().zip(&want).all(|(a, b)| same(*a, *b)), "n={n}");
    }
    let x = fixture::<f32, B>(dev, T, "radix_f32");
    check(&x.sort(0).unwrap(), "radix_f32_sort");
    check(&x.argsort(0).unwrap(), "radix_f32_argsort");
    let x = fixture::<i64, B>(dev, T, "radix_i64");
    check(&x.argsort(0).unwrap(), "radix_i64_argsort");
    let x = fixture::<i32, B>(dev, T, "radix_i32");
    check(&x.argsort(0).unwrap(), "radix_i32_argsort0");
    check(&x.argsort(1).unwrap(), "radix_i32_argsort1");
    let x = fixture::<u8, B>(dev, T, "radix_u8");
    check(&x.argsort(0).unwrap(), "radix_u8_argsort");
}

/// Checks that `idx` is a permutation that sorts `x` stably (ties in increasing index).
fn assert_stable_argsort<E: Element>(x: &[E], idx: &[i64]) {
    let mut seen = vec![false; x.len()];
    for &i in idx {
        assert!(!seen[i as usize], "index {i} twice");
        seen[i as usize] = true;
    }
    for w in idx.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        match x[a].sort_cmp(&x[b]) {
            Ordering::Less => {}
            Ordering::Equal => assert!(a < b, "unstable at {a}, {b}"),
            Ordering::Greater => panic!("not sorted at {a}, {b}: {:?} > {:?}", x[a], x[b]),
        }
    }
}

fn sort_large_parallel<B: ArrayBackend>(dev: &B) {
    // Above PAR_MIN and the parallel radix threshold, sizes that divide no chunk.
    let n = 300_007usize;
    let xs: Vec<f64> = (0..n)
        .map(|i| match i % 1001 {
            0 => f64::NAN,
            1 => -0.0,
            2 => 0.0,
            3 => f64::NEG_INFINITY,
            _ => ((i as f64) * 0.37).sin().mul_add(1e3, 0.0).round() / 8.0,
        })
        .collect();
    let x = Array::<f64, B>::from_vec(xs.clone(), &[n], dev).unwrap();
    let idx = x.argsort(0).unwrap().to_vec().unwrap();
    assert_stable_argsort(&xs, &idx);
    let sorted = x.sort(0).unwrap().to_vec().unwrap();
    let by_idx: Vec<f64> = idx.iter().map(|&i| xs[i as usize]).collect();
    assert!(sorted.iter().zip(&by_idx).all(|(a, b)| same(*a, *b)));
    // f32 and i32 through the 32-bit keys; i64 with the full range.
    let xf: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
    let f = Array::<f32, B>::from_vec(xf.clone(), &[n], dev).unwrap();
    assert_stable_argsort(&xf, &f.argsort(0).unwrap().to_vec().unwrap());
    let xi: Vec<i64> = (0..n as i64)
        .map(|i| i.wrapping_mul(0x1E37_79B9_7F4A_7C15) >> (i % 50))
        .collect();
    let a = Array::<i64, B>::from_vec(xi.clone(), &[n], dev).unwrap();
    assert_stable_argsort(&xi, &a.argsort(-1).unwrap().to_vec().unwrap());
    let mut want = xi.clone();
    want.sort();
    assert_eq!(a.sort(0).unwrap().to_vec().unwrap(), want);
    // Many short lanes in parallel, along a non-last axis.
    let rows = 3usize;
    let cols = 40_001usize;
    let data: Vec<i32> = (0..(rows * cols) as i32)
        .map(|i| (i * 7919) % 1013)
        .collect();
    let m = Array::<i32, B>::from_vec(data.clone(), &[rows, cols], dev).unwrap();
    let s0 = m.sort(0).unwrap().to_vec().unwrap();
    for c in (0..cols).step_by(997) {
        let mut col: Vec<i32> = (0..rows).map(|r| data[r * cols + c]).collect();
        col.sort();
        let got: Vec<i32> = (0..rows).map(|r| s0[r * cols + c]).collect();
        assert_eq!(got, col);
    }
}

fn sort_empty_and_0d<B: ArrayBackend>(dev: &B) {
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.sort(0).unwrap().shape(), &[0, 3]);
    assert_eq!(e.argsort(-1).unwrap().shape(), &[0, 3]);
    assert_eq!(e.sort_flat().unwrap().shape(), &[0]);
    assert_eq!(e.unique().unwrap().shape(), &[0]);
    let z = Array::<i32, B>::scalar(4, dev).unwrap();
    let err = z.sort(-1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "sort: axis -1 is out of bounds for an array of dimension 0"
    );
    // NumPy's argsort of a 0-d array is `[0]` (sort refuses, as NumPy's does).
    assert_eq!(z.argsort(0).unwrap().to_vec().unwrap(), vec![0]);
    assert!(matches!(z.argsort(1), Err(Error::AxisOutOfRange { .. })));
    assert_eq!(z.sort_flat().unwrap().to_vec().unwrap(), vec![4]);
    assert_eq!(z.argsort_flat().unwrap().to_vec().unwrap(), vec![0]);
    let a = Array::<u8, B>::zeros(&[2, 3], dev).unwrap();
    let err = a.sort(2).unwrap_err();
    assert!(err.to_string().contains("axis 2 is out of bounds"), "{err}");
}

/// Checks the partition contract of `p` (values) and `ip` (indices) for lanes of `x` along
/// the last axis.
fn assert_partitioned<E: Element>(x: &[E], p: &[E], ip: &[i64], len: usize, k: usize) {
    for ((xl, pl), il) in x.chunks(len).zip(p.chunks(len)).zip(ip.chunks(len)) {
        let mut sorted = xl.to_vec();
        sorted.sort_by(E::sort_cmp);
        for (lane, name) in [
            (pl.to_vec(), "partition"),
            (il.iter().map(|&i| xl[i as usize]).collect(), "argpartition"),
        ] {
            assert_eq!(lane[k].sort_cmp(&sorted[k]), Ordering::Equal, "{name}: kth");
            assert!(
                lane[..k]
                    .iter()
                    .all(|v| v.sort_cmp(&lane[k]) != Ordering::Greater),
                "{name}: left"
            );
            assert!(
                lane[k + 1..]
                    .iter()
                    .all(|v| v.sort_cmp(&lane[k]) != Ordering::Less),
                "{name}: right"
            );
            let mut ls = lane.clone();
            ls.sort_by(E::sort_cmp);
            assert!(
                ls.iter()
                    .zip(&sorted)
                    .all(|(a, b)| a.sort_cmp(b) == Ordering::Equal),
                "{name}: permutation"
            );
        }
    }
}

fn partition_contract<B: ArrayBackend>(dev: &B) {
    let (xv, shape) = fixture_vec::<f64>(T, "f64_x");
    let x = Array::<f64, B>::from_vec(xv.clone(), &shape, dev).unwrap();
    let len = shape[1];
    for k in [0isize, 3, 6, -1, -7] {
        let kk = if k < 0 {
            (k + len as isize) as usize
        } else {
            k as usize
        };
        let p = x.partition(k, -1).unwrap().to_vec().unwrap();
        let ip = x.argpartition(k, 1).unwrap().to_vec().unwrap();
        assert_partitioned(&xv, &p, &ip, len, kk);
    }
    // Along axis 0 (strided lanes): compare through the transpose.
    let xt: Vec<f64> = x.t().to_vec().unwrap();
    let p0 = x.partition(2, 0).unwrap().t().to_vec().unwrap();
    let ip0 = x.argpartition(2, 0).unwrap().t().to_vec().unwrap();
    assert_partitioned(&xt, &p0, &ip0, shape[0], 2);
    // Integers, complex and a big lane.
    let (iv, ishape) = fixture_vec::<i32>(T, "i32_x");
    let xi = Array::<i32, B>::from_vec(iv.clone(), &ishape, dev).unwrap();
    assert_partitioned(
        &iv,
        &xi.partition(1, -1).unwrap().to_vec().unwrap(),
        &xi.argpartition(1, -1).unwrap().to_vec().unwrap(),
        ishape[1],
        1,
    );
    let (cv, cshape) = fixture_vec::<c128>(T, "c128_x");
    let xc = Array::<c128, B>::from_vec(cv.clone(), &cshape, dev).unwrap();
    assert_partitioned(
        &cv,
        &xc.partition(4, -1).unwrap().to_vec().unwrap(),
        &xc.argpartition(4, -1).unwrap().to_vec().unwrap(),
        cshape[1],
        4,
    );
    let n = 70_001;
    let big: Vec<i64> = (0..n as i64)
        .map(|i| (i * 48271) % 2_147_483_647 % 5000)
        .collect();
    let xb = Array::<i64, B>::from_vec(big.clone(), &[n], dev).unwrap();
    assert_partitioned(
        &big,
        &xb.partition(35_000, 0).unwrap().to_vec().unwrap(),
        &xb.argpartition(35_000, 0).unwrap().to_vec().unwrap(),
        n,
        35_000,
    );
    // Errors: kth out of range, bad axis, 0-d, empty axis.
    let err = x.partition(7, -1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "partition: index 7 is out of bounds for axis 1 with size 7"
    );
    let err = x.argpartition(-8, 1).unwrap_err();
    assert!(
        matches!(
            err,
            Error::IndexOutOfRange {
                op: "argpartition",
                index: -8,
                ..
            }
        ),
        "{err}"
    );
    assert!(matches!(
        x.partition(0, 2),
        Err(Error::AxisOutOfRange { .. })
    ));
    assert!(Array::<f32, B>::scalar(1.0, dev)
        .unwrap()
        .partition(0, 0)
        .is_err());
    assert!(Array::<f32, B>::zeros(&[3, 0], dev)
        .unwrap()
        .partition(0, 1)
        .is_err());
}

fn searchsorted_like_numpy<B: ArrayBackend>(dev: &B) {
    let s = fixture::<f64, B>(dev, T, "ss_sorted");
    let v = fixture::<f64, B>(dev, T, "ss_values");
    check(&s.searchsorted(&v, Side::Left).unwrap(), "ss_left");
    check(&s.searchsorted(&v, Side::Right).unwrap(), "ss_right");
    // Transposed values and a reversed-reversed (strided) sorted view give the same answers.
    let vt = v.t();
    let got = s.searchsorted(&vt, Side::Right).unwrap();
    check(&got.t().copy().unwrap(), "ss_right");
    let si = fixture::<i32, B>(dev, T, "ssi_sorted");
    let vi = fixture::<i32, B>(dev, T, "ssi_values");
    check(&si.searchsorted(&vi, Side::Left).unwrap(), "ssi_left");
    check(&si.searchsorted(&vi, Side::default()).unwrap(), "ssi_left");
    check(&si.searchsorted(&vi, Side::Right).unwrap(), "ssi_right");
    let strided = si.slice(&s![..;-1]).unwrap().slice(&s![..;-1]).unwrap();
    check(
        &strided.searchsorted(&vi, Side::Right).unwrap(),
        "ssi_right",
    );
    // A 0-d value gives a 0-d index; an empty sorted array gives 0.
    let z = Array::<i32, B>::scalar(10, dev).unwrap();
    assert_eq!(si.searchsorted(&z, Side::Left).unwrap().ndim(), 0);
    let e = Array::<i32, B>::zeros(&[0], dev).unwrap();
    assert_eq!(
        e.searchsorted(&vi, Side::Left).unwrap().to_vec().unwrap(),
        vec![0; 35]
    );
    // Errors: a 2-d sorted array.
    let err = v.searchsorted(&s, Side::Left).unwrap_err();
    assert_eq!(
        err.to_string(),
        "searchsorted: the sorted array must be 1-d, got shape [3, 4]"
    );
}

fn unique_case<E: Element, B: ArrayBackend>(dev: &B, name: &str) {
    let x = fixture::<E, B>(dev, T, &format!("u_{name}_x"));
    let u = x.unique_all().unwrap();
    let (want, _) = fixture_vec::<E>(T, &format!("u_{name}_values"));
    let got = u.values.to_vec().unwrap();
    assert_eq!(got.len(), want.len(), "{name}: number of unique values");
    // -0.0 and 0.0 are one value (either may be shown); NaNs collapse into one.
    assert!(
        got.iter()
            .zip(&want)
            .all(|(a, b)| a.sort_cmp(b) == Ordering::Equal),
        "{name}: {got:?} vs {want:?}"
    );
    check(&u.indices, &format!("u_{name}_index"));
    check(&u.inverse, &format!("u_{name}_inverse"));
    check(&u.counts, &format!("u_{name}_counts"));
    let v = x.unique().unwrap().to_vec().unwrap();
    assert!(
        v.iter()
            .zip(&want)
            .all(|(a, b)| a.sort_cmp(b) == Ordering::Equal)
            && v.len() == want.len(),
        "{name}: unique()"
    );
}

fn unique_like_numpy<B: ArrayBackend>(dev: &B) {
    unique_case::<f64, B>(dev, "f64");
    unique_case::<f32, B>(dev, "f32");
    unique_case::<i32, B>(dev, "i32");
    unique_case::<u8, B>(dev, "u8");
    unique_case::<bool, B>(dev, "bool");
    unique_case::<c128, B>(dev, "c128");
    unique_case::<i64, B>(dev, "big");
    // The inverse rebuilds the input; a strided input works like its copy.
    let x = fixture::<f64, B>(dev, T, "u_f64_x");
    let u = x.t().unique_all().unwrap();
    assert_eq!(u.inverse.shape(), &[5, 6]);
    let (xv, _) = fixture_vec::<f64>(T, "u_f64_x");
    let vals = u.values.to_vec().unwrap();
    let inv = u.inverse.to_vec().unwrap();
    let xt = x.t().to_vec().unwrap();
    for (i, &k) in inv.iter().enumerate() {
        assert_eq!(vals[k as usize].sort_cmp(&xt[i]), Ordering::Equal);
    }
    assert_eq!(
        u.counts.to_vec().unwrap().iter().sum::<i64>(),
        xv.len() as i64
    );
    // 0-d and empty inputs.
    let z = Array::<i32, B>::scalar(3, dev)
        .unwrap()
        .unique_all()
        .unwrap();
    assert_eq!(z.values.to_vec().unwrap(), vec![3]);
    assert_eq!(z.inverse.ndim(), 0);
    let e = Array::<f32, B>::zeros(&[2, 0], dev)
        .unwrap()
        .unique_all()
        .unwrap();
    assert_eq!(e.values.shape(), &[0]);
    assert_eq!(e.inverse.shape(), &[2, 0]);
}

cuprite::test_backends!(
    sort_every_dtype,
    sort_strided_and_transposed,
    sort_radix_sizes,
    sort_large_parallel,
    sort_empty_and_0d,
    partition_contract,
    searchsorted_like_numpy,
    unique_like_numpy,
);
