//! Differential tests: the same random inputs through `Cpu` and `Cuda`, compared element by
//! element (`allclose` at a tolerance stated per dtype, NaN equal to NaN), and errors compared
//! by message. Shapes include 0, 1 and odd sizes that do not divide any block size; views
//! include transposed, strided, negative-step and broadcast ones. Every test needs a GPU and is
//! `#[ignore]`d: run with `--ignored` on a GPU host.
#![cfg(all(feature = "cpu", feature = "cuda"))]
// `same!` calls one closure per backend so `?` works inside the compared expression.
#![allow(clippy::redundant_closure_call)]

use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::{Scalar, Side};

use crate::diff_support::{gpu, on_both, outcomes, Rng};

/// The generator's samplers of this module.
impl Rng {
    /// `n` values of `T` spread over a range that exercises the type: floats in [-4, 4) with
    /// some NaN, inf, -0.0 and exact duplicates; integers over small and large magnitudes.
    fn vec<T: Element>(&mut self, n: usize) -> Vec<T> {
        (0..n)
            .map(|i| {
                let u = self.unit();
                let special = self.next().is_multiple_of(23);
                let s = match T::DTYPE {
                    DType::Bool => Scalar::Bool(u > 0.0),
                    DType::U8 => Scalar::U8((self.next() % 256) as u8),
                    // Narrow integers over their whole range (the low bits of a draw).
                    DType::I8 => Scalar::I8(self.next() as i8),
                    DType::I16 => Scalar::I16(self.next() as i16),
                    DType::U16 => Scalar::U16(self.next() as u16),
                    DType::U32 => Scalar::U32(if special {
                        u32::MAX - (i % 3) as u32
                    } else {
                        (u.abs() * 1e6) as u32
                    }),
                    DType::U64 => Scalar::U64(if special {
                        u64::MAX - (i % 3) as u64
                    } else {
                        (u.abs() * 1e9) as u64
                    }),
                    DType::I32 => Scalar::I32(if special {
                        i32::MIN + (i % 3) as i32
                    } else {
                        (u * 1000.0) as i32
                    }),
                    DType::I64 => Scalar::I64(if special {
                        i64::MAX - (i % 3) as i64
                    } else {
                        (u * 1e6) as i64
                    }),
                    DType::F16 => Scalar::F16(f16::from_f64(special_float(u * 4.0, special, i))),
                    DType::BF16 => Scalar::BF16(bf16::from_f64(special_float(u * 4.0, special, i))),
                    DType::F32 => Scalar::F32(special_float(u * 4.0, special, i) as f32),
                    DType::F64 => Scalar::F64(special_float(u * 4.0, special, i)),
                    DType::C64 => Scalar::C64(c64::new(
                        special_float(u * 4.0, special, i) as f32,
                        (self.unit() * 4.0) as f32,
                    )),
                    DType::C128 => Scalar::C128(c128::new(
                        special_float(u * 4.0, special, i),
                        self.unit() * 4.0,
                    )),
                };
                T::from_scalar(s)
            })
            .collect()
    }
    /// Finite floats only, rounded to a quarter so duplicates occur.
    fn finite<T: Element>(&mut self, n: usize) -> Vec<T> {
        (0..n)
            .map(|_| T::from_scalar(Scalar::F64((self.unit() * 16.0).round() / 4.0)))
            .collect()
    }
}

fn special_float(x: f64, special: bool, i: usize) -> f64 {
    if !special {
        return x;
    }
    [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0][i % 5]
}

/// Tolerance for comparing results of type `T` computed by two backends.
fn rtol<T: Element>() -> f64 {
    match T::DTYPE {
        // Two units in the last place of the 16-bit floats (2^-10, 2^-7).
        DType::F16 => 2e-3,
        DType::BF16 => 1.6e-2,
        DType::F32 | DType::C64 => 2e-5,
        DType::F64 | DType::C128 => 1e-12,
        _ => 0.0,
    }
}

/// Compares a CPU result with a GPU result: both errors with the same message, or both
/// arrays with the same shape and values within `rtol`.
#[track_caller]
fn compare<T: Element>(what: &str, c: Result<Array<T, Cpu>>, g: Result<Array<T, Cuda>>, rtol: f64) {
    if let Some((c, g)) = outcomes(what, c, g) {
        let (cv, gv) = (c.to_vec().unwrap(), g.to_vec().unwrap());
        let atol = if rtol == 0.0 { 0.0 } else { rtol * 1e-3 };
        if let Err(m) = check_allclose_slices(&gv, &cv, c.shape(), rtol, atol) {
            panic!("{what} ({}): cuda vs cpu: {m}", T::DTYPE.name());
        }
    }
}

/// Runs `$body` (an expression returning `Result<Array<_, _>>`, with `$dev` bound to the
/// backend) on both backends and compares the results at tolerance `$tol`.
macro_rules! same {
    ($tol:expr, |$dev:ident| $body:expr) => {{
        let (c, g) = on_both!(|$dev| $body);
        compare(stringify!($body), c, g, $tol)
    }};
}

/// An array of the first `prod(shape)` elements of `data` with `shape` on `dev`.
fn arr<T: Element, B: ArrayBackend>(data: &[T], shape: &[usize], dev: &B) -> Array<T, B> {
    let n: usize = shape.iter().product();
    assert!(
        n <= data.len(),
        "arr: {n} elements wanted, {} given",
        data.len()
    );
    Array::from_vec(data[..n].to_vec(), shape, dev).unwrap()
}

/// Views of a 3-d array exercising every layout: the array, a transpose, a strided slice
/// with a negative step, a broadcast of one row.
fn views<T: Element, B: ArrayBackend>(x: &Array<T, B>) -> Vec<Array<T, B>> {
    vec![
        x.clone(),
        x.permute_dims(&[2, 0, 1]).unwrap(),
        x.slice(&s![.., ..;-2, 1..;2]).unwrap(),
        x.slice(&s![.., 0..1, ..])
            .unwrap()
            .broadcast_to(x.shape())
            .unwrap(),
    ]
}

/// Shapes that do not divide block sizes, plus empty and 0-d ones.
const SHAPES: &[&[usize]] = &[
    &[],
    &[0],
    &[1],
    &[7],
    &[1000],
    &[4099],
    &[3, 0, 5],
    &[37, 129],
    &[5, 33, 65],
];

fn unary_float_ops<T: Float>() {
    let mut r = Rng::new(1);
    for shape in SHAPES {
        let n: usize = shape.iter().product();
        let x = r.vec::<T>(n);
        same!(rtol::<T>(), |d| arr(&x, shape, d).sin());
        same!(rtol::<T>(), |d| arr(&x, shape, d).exp());
        same!(rtol::<T>(), |d| arr(&x, shape, d).log());
        same!(rtol::<T>(), |d| arr(&x, shape, d).sqrt());
        same!(rtol::<T>(), |d| arr(&x, shape, d).tanh());
        same!(rtol::<T>(), |d| arr(&x, shape, d).arctan());
        same!(rtol::<T>(), |d| arr(&x, shape, d).abs());
        same!(rtol::<T>(), |d| arr(&x, shape, d).floor());
        same!(rtol::<T>(), |d| arr(&x, shape, d).rint());
        same!(0.0, |d| arr(&x, shape, d).isnan());
        same!(0.0, |d| arr(&x, shape, d).isfinite());
    }
    let x = r.vec::<T>(5 * 6 * 7);
    for v in 0..4 {
        same!(rtol::<T>(), |d| views(&arr(&x, &[5, 6, 7], d))[v].cos());
        same!(rtol::<T>(), |d| views(&arr(&x, &[5, 6, 7], d))[v].square());
        same!(rtol::<T>(), |d| views(&arr(&x, &[5, 6, 7], d))[v]
            .astype::<i64>()?
            .astype::<T>());
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn unary_float_ops_f32() {
    unary_float_ops::<f32>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn unary_float_ops_f64() {
    unary_float_ops::<f64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn unary_float_ops_f16_and_bf16() {
    unary_float_ops::<f16>();
    unary_float_ops::<bf16>();
}

fn complex_ops<T: ComplexElement + Inexact + cuprite::array::TrueDivide>() {
    let mut r = Rng::new(2);
    let x = r.vec::<T>(1001);
    let y = r.vec::<T>(1001);
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).exp());
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).log());
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).sqrt());
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).sin());
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).arcsinh());
    same!(rtol::<T>(), |d| arr(&x, &[1001], d).conj());
    same!(rtol::<T>(), |d| Ok(
        &arr(&x, &[1001], d) * &arr(&y, &[1001], d)
    ));
    same!(rtol::<T>(), |d| Ok(
        &arr(&x, &[1001], d) / &arr(&y, &[1001], d)
    ));
    same!(rtol::<T>(), |d| arr(&x, &[7, 11, 13], d).sum_axes(1, false));
    same!(rtol::<T>(), |d| arr(&x, &[7, 11, 13], d)
        .mean_axes(vec![0, 2], true));
    same!(0.0, |d| arr(&x, &[1001], d).sort(-1));
    same!(0.0, |d| arr(&x, &[7, 143], d).argsort(0));
    same!(rtol::<T>(), |d| {
        let a = arr(&x[..7 * 13], &[7, 13], d);
        let b = arr(&y[..13 * 5], &[13, 5], d);
        a.matmul(&b)
    });
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn complex_ops_c64() {
    complex_ops::<c64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn complex_ops_c128() {
    complex_ops::<c128>();
}

fn binary_ops<T: Real + Numeric>() {
    let mut r = Rng::new(3);
    let a = r.vec::<T>(37 * 129);
    let b = r.vec::<T>(129);
    let tol = rtol::<T>();
    same!(tol, |d| Ok(&arr(&a, &[37, 129], d) + &arr(&b, &[129], d)));
    same!(tol, |d| Ok(&arr(&a, &[37, 129], d) - &arr(&b, &[129], d)));
    same!(tol, |d| Ok(&arr(&a, &[37, 129], d) * &arr(&b, &[129], d)));
    same!(tol, |d| arr(&a, &[37, 129], d).floor_divide(&arr(
        &b,
        &[129],
        d
    )));
    same!(tol, |d| arr(&a, &[37, 129], d).remainder(&arr(
        &b,
        &[129],
        d
    )));
    same!(tol, |d| arr(&a, &[37, 129], d).maximum(&arr(&b, &[129], d)));
    same!(tol, |d| arr(&a, &[37, 129], d).fmin(&arr(&b, &[129], d)));
    same!(0.0, |d| arr(&a, &[37, 129], d).lt(&arr(&b, &[129], d)));
    same!(0.0, |d| arr(&a, &[37, 129], d).eq(&arr(&b, &[129], d)));
    same!(tol, |d| Ok(&arr(&a, &[37, 129], d).t() * T::from_f64(3.0)));
    same!(tol, |d| Ok(
        &Array::full(&[129, 37], T::from_f64(2.0), d)? - &arr(&a, &[37, 129], d).t()
    ));
    same!(tol, |d| {
        let mut x = arr(&a, &[37, 129], d);
        x *= T::from_f64(5.0);
        let mut v = x.slice_mut(&s![..;2, 1..;3])?;
        let sum = &v.to_array() + &arr(&b[..43], &[43], d);
        v.assign(&sum)?;
        Ok(x)
    });
    same!(tol, |d| {
        let c = arr(&a, &[37, 129], d).gt(&arr(&b, &[129], d))?;
        Array::where_(
            &c,
            &arr(&a, &[37, 129], d),
            &arr(&b, &[1, 129], d).broadcast_to(&[37, 129])?,
        )
    });
    same!(0.0, |d| Ok(&arr(&a, &[37, 0], d) + &arr(&b, &[0], d)));
    same!(0.0, |d| arr(&a, &[37, 129], d).try_add(&arr(&b, &[0], d)));
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn binary_ops_all_real_types() {
    binary_ops::<u8>();
    binary_ops::<i32>();
    binary_ops::<i64>();
    binary_ops::<i8>();
    binary_ops::<i16>();
    binary_ops::<u16>();
    binary_ops::<u32>();
    binary_ops::<u64>();
    binary_ops::<f16>();
    binary_ops::<bf16>();
    binary_ops::<f32>();
    binary_ops::<f64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn integer_and_bool_ops() {
    let mut r = Rng::new(4);
    let a = r.vec::<i64>(4099);
    let b = r.vec::<i64>(4099);
    same!(0.0, |d| Ok(&arr(&a, &[4099], d) & &arr(&b, &[4099], d)));
    same!(0.0, |d| Ok(&arr(&a, &[4099], d) ^ &arr(&b, &[4099], d)));
    same!(0.0, |d| Ok(!&arr(&a, &[4099], d)));
    same!(0.0, |d| arr(&a, &[4099], d).pow(
        &arr(&b, &[4099], d).remainder(&Array::full(&[4099], 7, d)?)?
    ));
    let p = r.vec::<bool>(4099);
    let q = r.vec::<bool>(4099);
    same!(0.0, |d| Ok(&arr(&p, &[4099], d) | &arr(&q, &[4099], d)));
    same!(0.0, |d| arr(&p, &[4099], d).logical_xor(&arr(
        &q,
        &[4099],
        d
    )));
    same!(0.0, |d| arr(&p, &[4099], d).sum());
    same!(0.0, |d| arr(&p, &[17, 241], d).any_axes(0, false));
    same!(0.0, |d| arr(&p, &[17, 241], d).all_axes(1, true));
}

fn reductions<T: Real + Numeric>() {
    let mut r = Rng::new(5);
    let tol = rtol::<T>() * 10.0;
    // var is a float for every input type: rounding differs with the summation order.
    let vtol = if tol == 0.0 {
        rtol::<f64>() * 10.0
    } else {
        tol
    };
    for shape in SHAPES {
        let n: usize = shape.iter().product();
        let x = r.finite::<T>(n);
        same!(tol, |d| arr(&x, shape, d).sum());
        same!(tol, |d| arr(&x, shape, d).mean());
        same!(tol, |d| arr(&x, shape, d).max());
        // A running sum of 16-bit floats rounds after every addition (NumPy's rule); the GPU
        // scans a long lane in a parallel order, so the roundings differ (each backend is
        // checked against NumPy on short lanes in `half_types`).
        if !T::DTYPE.is_half() {
            same!(tol, |d| arr(&x, shape, d).cumsum(None));
        }
        if shape.len() >= 2 {
            same!(tol, |d| arr(&x, shape, d).sum_axes(0, false));
            same!(tol, |d| arr(&x, shape, d).sum_axes(-1, true));
            same!(tol, |d| arr(&x, shape, d).min_axes(vec![0, -1], false));
            same!(vtol, |d| arr(&x, shape, d).var_axes(0, 1.0, false));
            same!(0.0, |d| arr(&x, shape, d).argmax_axis(-1, false));
            same!(0.0, |d| arr(&x, shape, d).argmin_axis(0, false));
            same!(tol, |d| arr(&x, shape, d).cumsum(Some(0)));
            // A running product of 16-bit floats overflows within a lane, at a step that
            // depends on the order the backend multiplies in.
            if !T::DTYPE.is_half() {
                same!(tol, |d| arr(&x, shape, d).cumprod(Some(-1)));
            }
        }
    }
    let x = r.finite::<T>(5 * 6 * 7);
    for v in 0..4 {
        same!(tol, |d| views(&arr(&x, &[5, 6, 7], d))[v]
            .sum_axes(vec![0, 2], false));
        same!(tol, |d| views(&arr(&x, &[5, 6, 7], d))[v]
            .mean_axes(1, true));
        same!(0.0, |d| views(&arr(&x, &[5, 6, 7], d))[v]
            .argmin_axis(1, true));
        same!(tol, |d| views(&arr(&x, &[5, 6, 7], d))[v].cumsum(Some(2)));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn reductions_all_real_types() {
    reductions::<u8>();
    reductions::<i32>();
    reductions::<i64>();
    reductions::<i8>();
    reductions::<i16>();
    reductions::<u16>();
    reductions::<u32>();
    reductions::<u64>();
    reductions::<f16>();
    reductions::<bf16>();
    reductions::<f32>();
    reductions::<f64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn nan_reductions() {
    let mut r = Rng::new(6);
    let x = r.vec::<f64>(37 * 129);
    same!(1e-12, |d| arr(&x, &[37, 129], d).nansum_axes(0, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d).nanmax_axes(1, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d).nanmean_axes(1, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d).max_axes(1, false));
    same!(0.0, |d| arr(&x, &[37, 129], d).argmax_axis(1, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d).median_axes(1, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d).std_axes(0, 0.0, true));
    let big = r.finite::<f32>(5000 * 1001);
    same!(1e-4, |d| arr(&big, &[5000, 1001], d).sum_axes(0, false));
    same!(1e-4, |d| arr(&big, &[5000, 1001], d).sum_axes(1, false));
    same!(1e-4, |d| arr(&big, &[5000 * 1001], d).sum());
}

fn sorting<T: Element>() {
    let mut r = Rng::new(7);
    for shape in SHAPES {
        let n: usize = shape.iter().product();
        let x = r.vec::<T>(n);
        same!(0.0, |d| arr(&x, shape, d).sort_flat());
        same!(0.0, |d| arr(&x, shape, d).argsort_flat());
        same!(0.0, |d| arr(&x, shape, d).unique());
        if !shape.is_empty() {
            same!(0.0, |d| arr(&x, shape, d).sort(0));
            same!(0.0, |d| arr(&x, shape, d).argsort(-1));
        }
    }
    let x = r.vec::<T>(5 * 6 * 7);
    for v in 0..4 {
        same!(0.0, |d| views(&arr(&x, &[5, 6, 7], d))[v].sort(1));
        same!(0.0, |d| views(&arr(&x, &[5, 6, 7], d))[v].argsort(0));
    }
    let big = r.vec::<T>(300_007);
    same!(0.0, |d| arr(&big, &[300_007], d).sort(0));
    same!(0.0, |d| arr(&big, &[300_007], d).argsort(0));
    same!(0.0, |d| {
        let s = arr(&big, &[300_007], d).sort(0)?;
        s.searchsorted(&arr(&x, &[210], d), Side::Left)
    });
    same!(0.0, |d| {
        let s = arr(&big, &[300_007], d).sort(0)?;
        s.searchsorted(&arr(&x, &[210], d), Side::Right)
    });
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sorting_all_types() {
    sorting::<bool>();
    sorting::<u8>();
    sorting::<i32>();
    sorting::<i64>();
    sorting::<i8>();
    sorting::<u16>();
    sorting::<u32>();
    sorting::<u64>();
    sorting::<f16>();
    sorting::<bf16>();
    sorting::<f32>();
    sorting::<f64>();
    sorting::<c64>();
    sorting::<c128>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn partition_and_quantiles() {
    let mut r = Rng::new(8);
    let x = r.finite::<f64>(37 * 129);
    // A partition is not unique: compare the element at kth and the sorted halves.
    for kth in [0isize, 5, 128] {
        same!(0.0, |d| arr(&x, &[37, 129], d)
            .partition(kth, 1)?
            .slice(&s![.., kth]));
        same!(0.0, |d| {
            let p = arr(&x, &[37, 129], d).partition(kth, 1)?;
            p.slice(&s![.., ..kth])?.sort(1)
        });
    }
    same!(1e-12, |d| arr(&x, &[37, 129], d).median_axes(0, false));
    same!(1e-12, |d| arr(&x, &[37, 129], d)
        .quantile_axes(0.9, 1, false));
}

fn indexing<T: Element>() {
    let mut r = Rng::new(9);
    let x = r.vec::<T>(37 * 129);
    let idx: Vec<i64> = (0..300).map(|_| (r.next() % 258) as i64 - 129).collect();
    same!(0.0, |d| arr(&x, &[37, 129], d)
        .take(&arr(&idx, &[300], d), Some(1)));
    same!(0.0, |d| arr(&x, &[37, 129], d)
        .t()
        .take(&arr(&idx, &[20, 15], d), Some(0)));
    same!(0.0, |d| arr(&x, &[37, 129], d)
        .take(&arr(&[500i64], &[1], d), Some(1)));
    let m = r.vec::<bool>(37 * 129);
    same!(0.0, |d| arr(&x, &[37, 129], d).select(&arr(
        &m,
        &[37, 129],
        d
    )));
    same!(0.0, |d| arr(&x, &[37, 129], d).t().select(&arr(
        &m,
        &[129, 37],
        d
    )));
    same!(0.0, |d| {
        let mut y = arr(&x, &[37, 129], d);
        y.masked_fill(&arr(&m, &[37, 129], d), T::ZERO)?;
        Ok(y)
    });
    same!(0.0, |d| {
        let mut y = arr(&x, &[37, 129], d);
        let k = m.iter().filter(|&&b| b).count();
        y.put_mask(&arr(&m, &[37, 129], d), &arr(&x[..k], &[k], d))?;
        Ok(y)
    });
    same!(0.0, |d| {
        let mut y = arr(&x, &[37, 129], d);
        y.put_mask(&arr(&m, &[37, 129], d), &arr(&x[..3], &[3], d))?;
        Ok(y)
    });
    same!(0.0, |d| {
        let mut y = arr(&x, &[37 * 129], d);
        y.put(&arr(&idx, &[300], d), &arr(&x[..300], &[300], d))?;
        Ok(y)
    });
    same!(0.0, |d| {
        let mut y = arr(&x, &[37 * 129], d);
        y.put(&arr(&[3i64, 99999], &[2], d), &arr(&x[..2], &[2], d))?;
        Ok(y)
    });
    for axis in 0..2 {
        same!(0.0, |d| Ok(arr(&x, &[37, 129], d).nonzero()?.remove(axis)));
    }
    same!(0.0, |d| {
        let a = arr(&x, &[37, 129], d);
        let i = a.argsort(1)?;
        a.take_along_axis(&i, 1)
    });
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn indexing_all_types() {
    indexing::<bool>();
    indexing::<u8>();
    indexing::<i32>();
    indexing::<i64>();
    indexing::<i8>();
    indexing::<u16>();
    indexing::<u32>();
    indexing::<u64>();
    indexing::<f16>();
    indexing::<bf16>();
    indexing::<f32>();
    indexing::<f64>();
    indexing::<c64>();
    indexing::<c128>();
}

fn products<T: Numeric>() {
    let mut r = Rng::new(10);
    let tol = match T::DTYPE {
        DType::F32 | DType::C64 => 1e-4,
        DType::F64 | DType::C128 => 1e-11,
        _ => 0.0,
    };
    let a = r.finite::<T>(3 * 37 * 65);
    let b = r.finite::<T>(3 * 65 * 33);
    same!(tol, |d| arr(&a, &[37, 65 * 3], d).matmul(&arr(
        &b,
        &[65 * 3, 33],
        d
    )));
    same!(tol, |d| arr(&a, &[3, 37, 65], d).matmul(&arr(
        &b,
        &[3, 65, 33],
        d
    )));
    same!(tol, |d| arr(&a, &[3, 65, 37], d)
        .permute_dims(&[0, 2, 1])?
        .matmul(&arr(&b, &[65, 99], d)));
    same!(tol, |d| {
        let x = arr(&a, &[3 * 37, 65], d);
        x.slice(&s![..;-3, ..])?.matmul(&x.t())
    });
    same!(tol, |d| arr(&a, &[0, 5], d).matmul(&arr(&b, &[5, 7], d)));
    same!(tol, |d| arr(&a, &[4, 0], d).matmul(&arr(&b, &[0, 7], d)));
    same!(tol, |d| arr(&a, &[65], d).dot(&arr(&b, &[65], d)));
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn products_all_numeric_types() {
    products::<u8>();
    products::<i32>();
    products::<i64>();
    products::<i8>();
    products::<i16>();
    products::<u16>();
    products::<u32>();
    products::<u64>();
    products::<f16>();
    products::<bf16>();
    products::<f32>();
    products::<f64>();
    products::<c64>();
    products::<c128>();
}

fn casts_from<T: Element>() {
    let mut r = Rng::new(11);
    let x = r.vec::<T>(4099);
    same!(0.0, |d| arr(&x, &[4099], d).astype::<bool>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<u8>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<i32>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<i64>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<i8>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<u16>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<u64>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<f16>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<bf16>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<f32>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<f64>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<c64>());
    same!(0.0, |d| arr(&x, &[4099], d).astype::<c128>());
    same!(0.0, |d| arr(&x, &[37, 110], d).t().astype::<f64>());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn casts_between_all_types() {
    casts_from::<bool>();
    casts_from::<u8>();
    casts_from::<i32>();
    casts_from::<i64>();
    casts_from::<i8>();
    casts_from::<i16>();
    casts_from::<u16>();
    casts_from::<u32>();
    casts_from::<u64>();
    casts_from::<f16>();
    casts_from::<bf16>();
    casts_from::<f32>();
    casts_from::<f64>();
    casts_from::<c64>();
    casts_from::<c128>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn copies_and_creation() {
    let mut r = Rng::new(12);
    let x = r.vec::<f64>(501 * 997);
    same!(0.0, |d| arr(&x, &[501, 997], d).t().copy());
    same!(0.0, |d| arr(&x, &[501, 997], d)
        .slice(&s![..;-1, 3..;7])?
        .copy());
    same!(0.0, |d| arr(&x, &[3, 167, 997], d)
        .permute_dims(&[2, 0, 1])?
        .copy());
    same!(0.0, |d| Array::<f64, _>::full(&[3, 1001], 2.5, d));
    same!(0.0, |d| Array::<c64, _>::ones(&[1001], d));
    same!(0.0, |d| Array::<i64, _>::arange(-7, 1000, 3, d));
    same!(1e-12, |d| Array::<f64, _>::linspace(
        -1.0, 1.0, 4099, true, d
    ));
    same!(0.0, |d| Array::<f32, _>::eye(33, Some(47), 2, d));
    same!(0.0, |d| {
        let mut y = arr(&x, &[501, 997], d);
        y.slice_mut(&s![1..;2, ..;-3])?.fill(7.0)?;
        Ok(y)
    });
    same!(0.0, |d| {
        let mut y = arr(&x, &[501, 997], d);
        let src = arr(&x, &[997, 501], d);
        y.slice_mut(&s![.., ..])?.assign(src.t())?;
        Ok(y)
    });
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn transfers_and_device_handles() {
    let g = gpu();
    assert!(Cuda::device_count() >= 1);
    assert_eq!(g, Cuda::new(0).unwrap());
    assert!(!g.name().is_empty());
    assert!(g.compute_capability().0 >= 5);
    assert!(g.total_memory() > 0 && g.free_memory().unwrap() > 0);
    let x: Vec<f32> = Rng::new(13).vec(12345);
    let a = Array::from_vec(x.clone(), &[12345], &Cpu::new()).unwrap();
    let b = a.to_device(&g).unwrap();
    assert_eq!(b.device(), &g);
    let c = b.to_device(&Cpu::new()).unwrap();
    assert_eq!(
        c.to_vec()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect::<Vec<_>>(),
        x.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(
        b.slice(&s![5]).unwrap().item().unwrap().to_bits(),
        x[5].to_bits()
    );
    g.synchronize().unwrap();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn more_than_two_to_the_31_elements() {
    let g = gpu();
    let n = (1usize << 31) + 77;
    let x = Array::<u8, Cuda>::ones(&[n], &g).unwrap();
    assert_eq!(x.sum().unwrap().item().unwrap(), n as u64);
    let y = (&x * 3u8).slice(&s![-3..]).unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![3u8; 3]);
    assert_eq!(x.argmax().unwrap().item().unwrap(), 0);
}
