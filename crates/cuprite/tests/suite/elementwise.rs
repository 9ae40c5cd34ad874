//! Element-wise math, comparisons, logical and bitwise ops and complex parts, on every
//! backend, against NumPy fixtures (`scripts/fixtures/elementwise.py`) and analytic
//! identities.
//!
//! The ops declared with their semantics in the registry (`=> fn name<T: Bound>` in
//! `crates/core/src/ops/registry.rs`) have no case written here: [`declared_ops`] walks the
//! registry and checks each of them for every element type of its bound, on its fixture
//! `<dtype>/<name>` (inputs `<dtype>/x`, or `<dtype>/a` and `<dtype>/b`) and again through
//! reversed views, with the tolerance of its declaration. A declared op without its fixture
//! fails, unless [`COVERED_ELSEWHERE`] names where it is compared with NumPy.
//!
//! Tolerances (relative, NumPy's `allclose` rule; every NumPy result is itself within a few
//! ULP of the exact value): f64 and c128 `RTOL_F64 = 1e-13`; f32 and c64 `RTOL_F32 = 2e-6`
//! (about 16 ULP: NumPy's SIMD f32 transcendental functions are 1-4 ULP off); results that
//! must be exact (rounding, sign, comparisons, integer and bitwise ops, parts) use 0.

use crate::common;

use common::{fixture, fixture_names, fixture_vec};
use cuprite::ops::registry::{Declared, OpDecl, OpKind, Tolerance, ELEMENTWISE};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::Scalar;
use std::cell::RefCell;

const TOPIC: &str = "elementwise";
const RTOL_F64: f64 = 1e-13;
const RTOL_F32: f64 = 2e-6;
/// Results exact in binary: 2 ULP of f64, because serde_json (without its `float_roundtrip`
/// feature) may read a long decimal 1 ULP off.
const EXACT_F64: f64 = 4.5e-16;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, TOPIC, name)
}

/// Signed-zero check: where the reference is a real zero, the result has its sign bit.
fn zero_signs<T: Element>(actual: &[T], desired: &[T]) -> Result<(), String> {
    for (i, (a, d)) in actual.iter().zip(desired).enumerate() {
        let bits = |x: &T| match x.to_scalar() {
            Scalar::F32(v) if v == 0.0 => Some(v.is_sign_negative()),
            Scalar::F64(v) if v == 0.0 => Some(v.is_sign_negative()),
            _ => None,
        };
        if let (Some(da), Some(db)) = (bits(a), bits(d)) {
            if da != db {
                return Err(format!("sign of zero at flat index {i}: {a:?} vs {d:?}"));
            }
        }
    }
    Ok(())
}

thread_local! {
    static FAILURES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Compares `actual` with fixture case `name` (shape and values, NaN equal to NaN); a
/// mismatch is recorded and reported by [`finish`], so one run lists every failing case.
fn check<T: Element, B: ArrayBackend>(actual: Result<Array<T, B>>, name: &str, rtol: f64) {
    let (desired, shape) = fixture_vec::<T>(TOPIC, name);
    check_values(actual, name, &desired, &shape, rtol);
}

/// Compares `actual` with `desired` of shape `shape` as [`check`] does.
fn check_values<T: Element, B: ArrayBackend>(
    actual: Result<Array<T, B>>,
    name: &str,
    desired: &[T],
    shape: &[usize],
    rtol: f64,
) {
    let actual = actual.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(actual.shape(), shape, "{name}: shape");
    // betaln near 0 is the logarithm of a product of gammas near 1: the few ulps CUDA's
    // tgamma is allowed (measured on an H100: 5 ulps) are over 1e-13 of such a result.
    let rtol = if name.contains("/betaln") {
        rtol.max(1e-12)
    } else {
        rtol
    };
    let a = actual.to_vec().unwrap();
    // Below the smallest normal number one unit in the last place is a whole subnormal step
    // (exp(-744.4) is 5e-324 or 0 depending on the libm): an absolute tolerance of the
    // smallest normal number of the type accepts those and nothing else.
    let atol = match T::DTYPE {
        DType::F32 | DType::C64 if rtol > 0.0 => f32::MIN_POSITIVE as f64,
        DType::F64 | DType::C128 if rtol > 0.0 => f64::MIN_POSITIVE,
        _ => 0.0,
    };
    let r = check_allclose_slices(&a, desired, shape, rtol, atol).and_then(|_| {
        if name.contains("max") || name.contains("min") {
            Ok(())
        } else {
            zero_signs(&a, desired)
        }
    });
    if let Err(m) = r {
        fail(format!("{name}: {m}"));
    }
}

/// Records a failure for [`finish`].
fn fail(message: String) {
    FAILURES.with(|f| f.borrow_mut().push(message));
}

/// Panics with every mismatch [`check`] recorded on this thread.
fn finish() {
    let all = FAILURES.with(|f| std::mem::take(&mut *f.borrow_mut()));
    assert!(
        all.is_empty(),
        "{} cases differ:\n{}",
        all.len(),
        all.join("\n")
    );
}

type Un<T, B> = fn(&Array<T, B>) -> Result<Array<T, B>>;
type Bin<T, O, B> = fn(&Array<T, B>, &Array<T, B>) -> Result<Array<O, B>>;

fn float_unary<T: Float, B: ArrayBackend>(dev: &B, tag: &str, rtol: f64) {
    let x = fx::<T, B>(dev, &format!("{tag}/x"));
    let approx: [(&str, Un<T, B>); 22] = [
        ("sqrt", |x| x.sqrt()),
        ("cbrt", |x| x.cbrt()),
        ("exp", |x| x.exp()),
        ("exp2", |x| x.exp2()),
        ("expm1", |x| x.expm1()),
        ("log", |x| x.log()),
        ("log2", |x| x.log2()),
        ("log10", |x| x.log10()),
        ("log1p", |x| x.log1p()),
        ("sin", |x| x.sin()),
        ("cos", |x| x.cos()),
        ("tan", |x| x.tan()),
        ("arcsin", |x| x.arcsin()),
        ("arccos", |x| x.acos()),
        ("arctan", |x| x.arctan()),
        ("sinh", |x| x.sinh()),
        ("cosh", |x| x.cosh()),
        ("tanh", |x| x.tanh()),
        ("arcsinh", |x| x.asinh()),
        ("arccosh", |x| x.arccosh()),
        ("arctanh", |x| x.atanh()),
        ("reciprocal", |x| x.reciprocal()),
    ];
    for (name, f) in approx {
        check(f(&x), &format!("{tag}/{name}"), rtol);
    }
    let exact: [(&str, Un<T, B>); 11] = [
        ("square", |x| x.square()),
        ("floor", |x| x.floor()),
        ("ceil", |x| x.ceil()),
        ("trunc", |x| x.trunc()),
        ("rint", |x| x.rint()),
        ("sign", |x| x.sign()),
        ("round2", |x| x.round_decimals(2)),
        ("round_m1", |x| x.round_decimals(-1)),
        ("clip", |x| x.clip(T::from_f64(-1.5), T::from_f64(2.0))),
        ("angle", |x| x.angle()),
        ("rint", |x| x.round()),
    ];
    let exact_tol = if T::DTYPE == DType::F64 {
        EXACT_F64
    } else {
        0.0
    };
    for (name, f) in exact {
        check(f(&x), &format!("{tag}/{name}"), exact_tol);
    }
    check(x.abs(), &format!("{tag}/abs"), 0.0);
    check(x.isnan(), &format!("{tag}/isnan"), 0.0);
    check(x.isinf(), &format!("{tag}/isinf"), 0.0);
    check(x.isfinite(), &format!("{tag}/isfinite"), 0.0);
    check(x.real(), &format!("{tag}/x"), 0.0);
    check(x.conj(), &format!("{tag}/x"), 0.0);
    let im = x.imag().unwrap().to_vec().unwrap();
    assert!(
        im.iter().all(|v| *v == T::ZERO),
        "{tag}: imag of reals is zero"
    );
}

fn float_binary<T: Float, B: ArrayBackend>(dev: &B, tag: &str, rtol: f64) {
    let a = fx::<T, B>(dev, &format!("{tag}/a"));
    let b = fx::<T, B>(dev, &format!("{tag}/b"));
    let approx: [(&str, Bin<T, T, B>); 2] =
        [("power", |a, b| a.pow(b)), ("hypot", |a, b| a.hypot(b))];
    for (name, f) in approx {
        check(f(&a, &b), &format!("{tag}/{name}"), rtol);
    }
    check(a.arctan2(&b), &format!("{tag}/arctan2"), rtol);
    check(a.atan2(&b), &format!("{tag}/arctan2"), rtol);
    check(a.power(&b), &format!("{tag}/power"), rtol);
    let exact: [(&str, Bin<T, T, B>); 8] = [
        ("copysign", |a, b| a.copysign(b)),
        ("maximum", |a, b| a.maximum(b)),
        ("minimum", |a, b| a.minimum(b)),
        ("fmax", |a, b| a.fmax(b)),
        ("fmin", |a, b| a.fmin(b)),
        ("floor_divide", |a, b| a.floor_divide(b)),
        ("remainder", |a, b| a.remainder(b)),
        ("fmod", |a, b| a.fmod(b)),
    ];
    let exact_tol = if T::DTYPE == DType::F64 {
        EXACT_F64
    } else {
        0.0
    };
    for (name, f) in exact {
        check(f(&a, &b), &format!("{tag}/{name}"), exact_tol);
    }
    let cmp: [(&str, Bin<T, bool, B>); 12] = [
        ("less", |a, b| a.lt(b)),
        ("less_equal", |a, b| a.le(b)),
        ("greater", |a, b| a.gt(b)),
        ("greater_equal", |a, b| a.ge(b)),
        ("equal", |a, b| a.eq(b)),
        ("not_equal", |a, b| a.ne(b)),
        ("logical_and", |a, b| a.logical_and(b)),
        ("logical_or", |a, b| a.logical_or(b)),
        ("logical_xor", |a, b| a.logical_xor(b)),
        ("isclose", |a, b| a.isclose(b, 1e-5, 1e-8, false)),
        ("isclose_nan", |a, b| a.isclose(b, 0.5, 1e-3, true)),
        ("equal", |a, b| a.ne(b)?.logical_not()),
    ];
    for (name, f) in cmp {
        check(f(&a, &b), &format!("{tag}/{name}"), 0.0);
    }
    check(a.float_power(&b), &format!("{tag}/float_power"), RTOL_F64);
}

fn float64_math<B: ArrayBackend>(dev: &B) {
    float_unary::<f64, B>(dev, "f64", RTOL_F64);
    float_binary::<f64, B>(dev, "f64", RTOL_F64);
    finish();
}

fn float32_math<B: ArrayBackend>(dev: &B) {
    float_unary::<f32, B>(dev, "f32", RTOL_F32);
    float_binary::<f32, B>(dev, "f32", RTOL_F32);
    finish();
}

fn complex_math<T: ComplexElement, B: ArrayBackend>(dev: &B, tag: &str, rtol: f64) {
    let z = fx::<T, B>(dev, &format!("{tag}/x"));
    let approx: [(&str, Un<T, B>); 19] = [
        ("sqrt", |x| x.sqrt()),
        ("exp", |x| x.exp()),
        ("exp2", |x| x.exp2()),
        ("log", |x| x.log()),
        ("log2", |x| x.log2()),
        ("log10", |x| x.log10()),
        ("sin", |x| x.sin()),
        ("cos", |x| x.cos()),
        ("tan", |x| x.tan()),
        ("arcsin", |x| x.arcsin()),
        ("arccos", |x| x.arccos()),
        ("arctan", |x| x.arctan()),
        ("sinh", |x| x.sinh()),
        ("cosh", |x| x.cosh()),
        ("tanh", |x| x.tanh()),
        ("arcsinh", |x| x.arcsinh()),
        ("arccosh", |x| x.arccosh()),
        ("arctanh", |x| x.arctanh()),
        ("reciprocal", |x| x.reciprocal()),
    ];
    for (name, f) in approx {
        check(f(&z), &format!("{tag}/{name}"), rtol);
    }
    check(z.square(), &format!("{tag}/square"), rtol);
    check(z.sign(), &format!("{tag}/sign"), rtol);
    check(z.conj(), &format!("{tag}/conj"), 0.0);
    check(z.abs(), &format!("{tag}/abs"), rtol);
    check(z.real(), &format!("{tag}/real"), 0.0);
    check(z.imag(), &format!("{tag}/imag"), 0.0);
    check(z.angle(), &format!("{tag}/angle"), rtol);
    check(z.isnan(), &format!("{tag}/isnan"), 0.0);
    check(z.isinf(), &format!("{tag}/isinf"), 0.0);
    check(z.isfinite(), &format!("{tag}/isfinite"), 0.0);

    let sp = fx::<T, B>(dev, &format!("{tag}/special"));
    check(sp.abs(), &format!("{tag}/special_abs"), 0.0);
    check(sp.sign(), &format!("{tag}/special_sign"), 0.0);
    check(sp.isnan(), &format!("{tag}/special_isnan"), 0.0);
    check(sp.isinf(), &format!("{tag}/special_isinf"), 0.0);
    check(sp.isfinite(), &format!("{tag}/special_isfinite"), 0.0);
    check(sp.real(), &format!("{tag}/special_real"), 0.0);
    check(sp.imag(), &format!("{tag}/special_imag"), 0.0);
    check(sp.conj(), &format!("{tag}/special_conj"), 0.0);
    check(sp.nan_to_num(), &format!("{tag}/special_nan_to_num"), 0.0);

    let a = fx::<T, B>(dev, &format!("{tag}/pow_a"));
    let w = fx::<T, B>(dev, &format!("{tag}/pow_b"));
    check(a.pow(&w), &format!("{tag}/power"), rtol * 10.0);
    let scaled = z
        .scalar_op(cuprite::ops::Mul, T::from_f64(1.0 + 1e-6))
        .unwrap();
    let zc = z.reshape(&[-1, 1]).unwrap();
    let zr = scaled.reshape(&[1, -1]).unwrap();
    check(
        zc.isclose(&zr, 1e-5, 1e-8, false),
        &format!("{tag}/isclose"),
        0.0,
    );
}

fn complex128_math<B: ArrayBackend>(dev: &B) {
    complex_math::<c128, B>(dev, "c128", RTOL_F64);
    finish();
}

fn complex64_math<B: ArrayBackend>(dev: &B) {
    complex_math::<c64, B>(dev, "c64", RTOL_F32);
    finish();
}

fn integer_ops<T: Integer, B: ArrayBackend>(dev: &B, tag: &str) {
    let x = fx::<T, B>(dev, &format!("{tag}/x"));
    let un: [(&str, Un<T, B>); 8] = [
        ("sign", |x| x.sign()),
        ("square", |x| x.square()),
        ("floor", |x| x.floor()),
        ("ceil", |x| x.ceil()),
        ("trunc", |x| x.trunc()),
        ("rint", |x| x.rint()),
        ("invert", |x| x.bitwise_not()),
        ("clip", |x| x.clip(T::from_f64(2.0), T::from_f64(100.0))),
    ];
    for (name, f) in un {
        check(f(&x), &format!("{tag}/{name}"), 0.0);
    }
    let xr = fx::<T, B>(dev, &format!("{tag}/xr"));
    check(xr.round_decimals(-1), &format!("{tag}/round_m1"), 0.0);
    check(xr.round_decimals(-2), &format!("{tag}/round_m2"), 0.0);
    check(x.abs(), &format!("{tag}/abs"), 0.0);
    check(x.isnan(), &format!("{tag}/isnan"), 0.0);
    check(x.isinf(), &format!("{tag}/isinf"), 0.0);
    check(x.isfinite(), &format!("{tag}/isfinite"), 0.0);
    check(x.logical_not(), &format!("{tag}/logical_not"), 0.0);
    check(Ok(!&x), &format!("{tag}/invert"), 0.0);

    let a = fx::<T, B>(dev, &format!("{tag}/a"));
    let b = fx::<T, B>(dev, &format!("{tag}/b"));
    let bin: [(&str, Bin<T, T, B>); 8] = [
        ("floor_divide", |a, b| a.floor_divide(b)),
        ("remainder", |a, b| a.remainder(b)),
        ("fmod", |a, b| a.fmod(b)),
        ("maximum", |a, b| a.maximum(b)),
        ("minimum", |a, b| a.minimum(b)),
        ("bitwise_and", |a, b| a.bitwise_and(b)),
        ("bitwise_or", |a, b| a.bitwise_or(b)),
        ("bitwise_xor", |a, b| a.bitwise_xor(b)),
    ];
    for (name, f) in bin {
        check(f(&a, &b), &format!("{tag}/{name}"), 0.0);
    }
    check(Ok(&a & &b), &format!("{tag}/bitwise_and"), 0.0);
    check(Ok(a.clone() | b.clone()), &format!("{tag}/bitwise_or"), 0.0);
    check(Ok(&a ^ b.clone()), &format!("{tag}/bitwise_xor"), 0.0);
    let cmp: [(&str, Bin<T, bool, B>); 9] = [
        ("less", |a, b| a.lt(b)),
        ("less_equal", |a, b| a.le(b)),
        ("greater", |a, b| a.gt(b)),
        ("greater_equal", |a, b| a.ge(b)),
        ("equal", |a, b| a.eq(b)),
        ("not_equal", |a, b| a.ne(b)),
        ("logical_and", |a, b| a.logical_and(b)),
        ("logical_or", |a, b| a.logical_or(b)),
        ("logical_xor", |a, b| a.logical_xor(b)),
    ];
    for (name, f) in cmp {
        check(f(&a, &b), &format!("{tag}/{name}"), 0.0);
    }
    let e = fx::<T, B>(dev, &format!("{tag}/pow_b"));
    check(a.pow(&e), &format!("{tag}/power"), 0.0);
    let c = fx::<T, B>(dev, &format!("{tag}/shift_b"));
    check(a.left_shift(&c), &format!("{tag}/left_shift"), 0.0);
    check(a.right_shift(&c), &format!("{tag}/right_shift"), 0.0);
    check(Ok(&a << &c), &format!("{tag}/left_shift"), 0.0);
    check(
        Ok(a.clone() >> c.clone()),
        &format!("{tag}/right_shift"),
        0.0,
    );
}

fn int32_ops<B: ArrayBackend>(dev: &B) {
    integer_ops::<i32, B>(dev, "i32");
    finish();
}

fn int64_ops<B: ArrayBackend>(dev: &B) {
    integer_ops::<i64, B>(dev, "i64");
    finish();
}

fn uint8_ops<B: ArrayBackend>(dev: &B) {
    integer_ops::<u8, B>(dev, "u8");
    // NumPy's left_shift by an in-range count directly (no reconstruction of its rule).
    let a = fx::<u8, B>(dev, "u8/a");
    let c = Array::<u8, B>::from_vec(vec![0, 1, 3, 7], &[1, 4], dev).unwrap();
    check(a.left_shift(&c), "u8/left_shift_direct", 0.0);
    finish();
}

fn bool_ops<B: ArrayBackend>(dev: &B) {
    let a = fx::<bool, B>(dev, "bool/a");
    let b = fx::<bool, B>(dev, "bool/b");
    let bin: [(&str, Bin<bool, bool, B>); 8] = [
        ("logical_and", |a, b| a.logical_and(b)),
        ("logical_or", |a, b| a.logical_or(b)),
        ("logical_xor", |a, b| a.logical_xor(b)),
        ("bitwise_and", |a, b| a.bitwise_and(b)),
        ("bitwise_or", |a, b| a.bitwise_or(b)),
        ("bitwise_xor", |a, b| a.bitwise_xor(b)),
        ("equal", |a, b| a.eq(b)),
        ("not_equal", |a, b| a.ne(b)),
    ];
    for (name, f) in bin {
        check(f(&a, &b), &format!("bool/{name}"), 0.0);
    }
    check(Ok(!&a), "bool/invert", 0.0);
    check(a.invert(), "bool/invert", 0.0);
    check(Ok(&a & &b), "bool/bitwise_and", 0.0);
    assert_eq!((&a | true).to_vec().unwrap(), vec![true; 4]);
    assert_eq!((a.clone() & false).to_vec().unwrap(), vec![false; 4]);
    let mut m = a.clone();
    m ^= &b;
    check(Ok(m), "bool/bitwise_xor", 0.0);
    assert_eq!(a.isnan().unwrap().to_vec().unwrap(), vec![false; 4]);
    assert_eq!(a.isfinite().unwrap().to_vec().unwrap(), vec![true; 4]);
    finish();
}

fn strided_and_broadcast<B: ArrayBackend>(dev: &B) {
    let m = fx::<f64, B>(dev, "strided/m");
    check(m.t().sin(), "strided/sin_t", RTOL_F64);
    check(
        m.slice(&s![..;-2, 1..;3]).unwrap().abs(),
        "strided/abs_rev",
        0.0,
    );
    let col = m.slice(&s![0, ..]).unwrap().reshape(&[-1, 1]).unwrap();
    check(m.t().hypot(&col), "strided/hypot_t", RTOL_F64);
    check(
        m.t().slice(&s![..;2]).unwrap().gt_scalar(0.5),
        "strided/gt_t",
        0.0,
    );
    let cond = fx::<bool, B>(dev, "where/cond");
    let a = fx::<f64, B>(dev, "where/a");
    let b = fx::<f64, B>(dev, "where/b");
    check(Array::where_(&cond, &a, &b), "where/out", 0.0);
    // Scalar branches (np.where(cond, a, 0.5), np.where(cond, nan, -0.0)), against the
    // host: cond (3, 1) broadcast with a (1, 4).
    let (cv, av) = (cond.to_vec().unwrap(), a.to_vec().unwrap());
    let got = Array::where_(&cond, &a, 0.5).unwrap();
    assert_eq!(got.shape(), &[3, 4]);
    let want: Vec<f64> = (0..12)
        .map(|k| if cv[k / 4] { av[k % 4] } else { 0.5 })
        .collect();
    assert_eq!(got.to_vec().unwrap(), want);
    let got = Array::<f64, B>::where_(&cond, f64::NAN, -0.0).unwrap();
    assert_eq!(got.shape(), &[3, 1]);
    for (g, &c) in got.to_vec().unwrap().iter().zip(&cv) {
        assert!(if c {
            g.is_nan()
        } else {
            g.to_bits() == (-0.0f64).to_bits()
        });
    }
    // ufunc.outer: np.subtract.outer(a (1, 4), b (1,)) and np.greater.outer on views.
    let d = a.outer_op(cuprite::ops::Sub, &b).unwrap();
    assert_eq!(d.shape(), &[1, 4, 1]);
    assert_eq!(
        d.to_vec().unwrap(),
        av.iter().map(|x| x + 1.0).collect::<Vec<_>>()
    );
    let rev = a.slice(&s![0, ..;-1]).unwrap();
    let g = rev
        .outer_op(cuprite::ops::Gt, &a.slice(&s![0, ..;2]).unwrap())
        .unwrap();
    assert_eq!(g.shape(), &[4, 2]);
    let gw: Vec<bool> = (0..8).map(|k| av[3 - k / 2] > av[2 * (k % 2)]).collect();
    assert_eq!(g.to_vec().unwrap(), gw);
    let zeros = Array::<i64, B>::zeros(&[2, 1, 1], dev).unwrap();
    let got = Array::where_(&cond, 1i64, &zeros).unwrap();
    assert_eq!(got.shape(), &[2, 3, 1]);
    assert_eq!(got.to_vec().unwrap(), vec![1, 0, 1, 1, 0, 1]);
    finish();
}

fn empty_and_zero_d<B: ArrayBackend>(dev: &B) {
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.sin().unwrap().shape(), &[0, 3]);
    assert_eq!(e.lt(&e).unwrap().shape(), &[0, 3]);
    assert!(e.allclose(&e, 1e-5, 1e-8, false).unwrap().item().unwrap());
    let s = Array::<f64, B>::scalar(-2.25, dev).unwrap();
    assert_eq!(s.abs().unwrap().ndim(), 0);
    assert_eq!(s.abs().unwrap().item().unwrap(), 2.25);
    assert_eq!(s.floor().unwrap().item().unwrap(), -3.0);
    let row = Array::<f64, B>::from_vec(vec![3.0, 0.0], &[2], dev).unwrap();
    let h = Array::<f64, B>::scalar(4.0, dev)
        .unwrap()
        .hypot(&row)
        .unwrap();
    assert_eq!(h.shape(), &[2]);
    assert_eq!(h.to_vec().unwrap(), vec![5.0, 4.0]);
    let z = Array::<c64, B>::scalar(c64::new(0.0, -2.0), dev).unwrap();
    assert_eq!(
        z.angle().unwrap().item().unwrap(),
        -std::f32::consts::FRAC_PI_2
    );
}

/// Sizes above the parallel threshold (and not multiples of the chunk), contiguous and
/// strided, checked with identities and host scalar references.
fn large_inputs<B: ArrayBackend>(dev: &B) {
    let n = 100_003;
    let x = Array::<f64, B>::ramp(n, -50.0, 0.001, dev).unwrap();
    let (s, c) = (x.sin().unwrap(), x.cos().unwrap());
    let one = (&s * &s) + (&c * &c);
    assert!(one
        .to_vec()
        .unwrap()
        .iter()
        .all(|v| (v - 1.0).abs() < 4e-16));
    let host = x.to_vec().unwrap();
    let fl = x.floor().unwrap().to_vec().unwrap();
    assert!(host.iter().zip(&fl).all(|(v, f)| v.floor() == *f));
    let m = x
        .slice(&s![..100_000])
        .unwrap()
        .reshape(&[400, 250])
        .unwrap();
    let mt = m.t();
    let r = mt.rint().unwrap().to_vec().unwrap();
    let ht = mt.to_vec().unwrap();
    assert!(ht.iter().zip(&r).all(|(v, f)| v.round_ties_even() == *f));
    let back = mt.exp().unwrap().log().unwrap();
    assert!(cuprite::testing::check_allclose(&back, &mt, 1e-13, 1e-12).is_ok());
    let lt = mt.lt_scalar(0.0).unwrap().to_vec().unwrap();
    let ge = mt.ge_scalar(0.0).unwrap().to_vec().unwrap();
    assert!(lt.iter().zip(&ge).all(|(a, b)| a != b));
    assert!(lt.iter().zip(&ht).all(|(a, v)| *a == (*v < 0.0)));
    let i = Array::<i64, B>::ramp(n, -40_000, 1, dev).unwrap();
    let sh = (&(&i << 3) >> 3).eq(&i).unwrap().to_vec().unwrap();
    assert!(sh.iter().all(|&v| v));
    let ab = i.abs().unwrap().to_vec().unwrap();
    assert!(ab
        .iter()
        .enumerate()
        .all(|(k, &v)| v == (k as i64 - 40_000).abs()));
    assert!(x.allclose(&x, 0.0, 0.0, false).unwrap().item().unwrap());
    let y = x.scalar_op(cuprite::ops::Add, 1e-3).unwrap();
    assert!(!x.allclose(&y, 1e-9, 0.0, false).unwrap().item().unwrap());
}

fn errors_name_op_and_shapes<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    let b = Array::<f64, B>::zeros(&[4], dev).unwrap();
    let msg = |e: Error| e.to_string();
    let tail = "operands could not be broadcast together with shapes [2, 3] and [4]";
    assert_eq!(msg(a.arctan2(&b).unwrap_err()), format!("arctan2: {tail}"));
    assert_eq!(msg(a.lt(&b).unwrap_err()), format!("less: {tail}"));
    assert_eq!(msg(a.pow(&b).unwrap_err()), format!("power: {tail}"));
    assert_eq!(msg(a.maximum(&b).unwrap_err()), format!("maximum: {tail}"));
    assert_eq!(
        msg(a.isclose(&b, 0.0, 0.0, false).unwrap_err()),
        format!("isclose: {tail}")
    );
    assert_eq!(
        msg(a.clip_arrays(&b, &a).unwrap_err()),
        format!("clip: {tail}")
    );
    assert_eq!(
        msg(a.float_power(&b).unwrap_err()),
        format!("float_power: {tail}")
    );
    let i = Array::<i32, B>::from_vec(vec![2, 3], &[2], dev).unwrap();
    let e = i.pow_scalar(-1).unwrap_err();
    assert!(msg(e).starts_with("power: Integers to negative integer powers are not allowed"));
    assert_eq!(i.pow_scalar(3).unwrap().to_vec().unwrap(), vec![8, 27]);
    // An array of exponents: NumPy's `[2, 3, 4] ** [1, -1, 2]` raises, never answers 0.
    let base = Array::<i64, B>::from_vec(vec![2, 3, 4], &[3], dev).unwrap();
    let exps = Array::<i64, B>::from_vec(vec![1, -1, 2], &[3], dev).unwrap();
    let e = base.pow(&exps).unwrap_err();
    assert!(
        msg(e).starts_with("power: Integers to negative integer powers are not allowed"),
        "{}",
        msg(base.pow(&exps).unwrap_err())
    );
    let exps = Array::<i64, B>::from_vec(vec![1, 0, 2], &[3], dev).unwrap();
    assert_eq!(base.pow(&exps).unwrap().to_vec().unwrap(), vec![2, 1, 16]);
    let small = Array::<i8, B>::from_vec(vec![-1], &[1], dev).unwrap();
    assert!(small.pow(&small).is_err(), "a broadcast negative exponent");
    let bytes = Array::<u8, B>::from_vec(vec![2, 3], &[2], dev).unwrap();
    assert_eq!(bytes.pow(&bytes).unwrap().to_vec().unwrap(), vec![4, 27]);
    let j = Array::<i32, B>::zeros(&[3], dev).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| &i & &j));
    let p = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(
        p.starts_with("bitwise_and: operands could not be broadcast"),
        "{p}"
    );
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| &i << &j));
    let p = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(
        p.starts_with("left_shift: operands could not be broadcast"),
        "{p}"
    );
    let mut bc = i.broadcast_to(&[2, 2]).unwrap();
    assert!(bc.zip_op_inplace(cuprite::ops::BitOr, &i).is_err());
    // Integer rounding is exact where NumPy's float64 detour is not.
    let big = Array::<i64, B>::from_vec(vec![i64::MAX - 1, 25, -35], &[3], dev).unwrap();
    assert_eq!(
        big.round_decimals(-1).unwrap().to_vec().unwrap(),
        vec![(i64::MAX - 1).wrapping_add(4), 20, -40]
    );
}

// ---- The ops declared with their semantics in the registry, tested from it.

/// Declared element-wise ops with no case `<dtype>/<name>` in this fixture file, and where
/// they are compared with NumPy (or with exact values) instead.
const COVERED_ELSEWHERE: &[(&str, &str)] = &[
    ("add", "basics.rs, arithmetic_broadcasts"),
    ("subtract", "basics.rs, arithmetic_broadcasts"),
    ("multiply", "basics.rs, arithmetic_broadcasts"),
    ("true_divide", "basics.rs, arithmetic_broadcasts"),
    ("negative", "basics.rs, arithmetic_broadcasts"),
    ("conjugate", "this file, the cases <dtype>/conj"),
    ("absolute", "this file, the cases <dtype>/abs"),
    (
        "round",
        "this file, the cases <dtype>/round2, round_m1, round_m2",
    ),
    ("abs_sq_diff", "reduce.rs, var and std"),
    ("propagate_nan", "reduce.rs, median and quantile"),
    ("nan_sq_dev", "new_math.rs, nanvar and nanstd"),
    (
        "ldexp",
        "special.rs, ldexp against NumPy at the edges of every float type",
    ),
];

/// Relative tolerance of a declared op's results of type `O`: bit for bit (any NaN equal to
/// any NaN, signed zeros told apart) for `Exact`, this file's tolerance of the type for
/// `Approx`.
fn declared_rtol<O: Element>(tolerance: Tolerance) -> f64 {
    match (tolerance, O::DTYPE) {
        (Tolerance::Approx, DType::F32 | DType::C64) => RTOL_F32,
        (Tolerance::Approx, DType::F64 | DType::C128) => RTOL_F64,
        _ => 0.0,
    }
}

/// Checks the op declared as `decl` on the element type of fixture tag `tag`: `op` applied to
/// the inputs of its kind (`<tag>/x`, or `<tag>/a` and `<tag>/b`) against `<tag>/<name>`, then
/// to the same inputs reversed along every axis (negative strides; a broadcast operand keeps
/// its zero stride) against the reversed reference.
fn declared_case<T: Element, O: Element, B: ArrayBackend>(
    dev: &B,
    decl: OpDecl,
    tag: &str,
    op: impl Fn(&[Array<T, B>]) -> Result<Array<O, B>>,
) {
    if COVERED_ELSEWHERE.iter().any(|c| c.0 == decl.name) {
        return;
    }
    let name = format!("{tag}/{}", decl.name);
    if !fixture_names(TOPIC).contains(&name) {
        fail(format!(
            "{name}: no fixture for the declared op `{}` on {tag}: add it to DECLARED in \
             scripts/fixtures/elementwise.py with the dtypes of its bound and regenerate",
            decl.name
        ));
        return;
    }
    let inputs: &[&str] = match decl.kind {
        OpKind::Unary => &["x"],
        _ => &["a", "b"],
    };
    let args: Vec<Array<T, B>> = inputs
        .iter()
        .map(|i| fx::<T, B>(dev, &format!("{tag}/{i}")))
        .collect();
    let rtol = declared_rtol::<O>(decl.tolerance);
    let (desired, shape) = fixture_vec::<O>(TOPIC, &name);
    check_values(op(&args), &name, &desired, &shape, rtol);
    let reversed: Vec<Array<T, B>> = args.iter().map(|a| a.flip(Axes::All).unwrap()).collect();
    assert!(reversed.iter().any(|a| !a.is_contiguous()), "{name}");
    let desired: Vec<O> = desired.into_iter().rev().collect();
    let label = format!("{name} (reversed views)");
    check_values(op(&reversed), &label, &desired, &shape, rtol);
}

/// Every op of the registry declared with `=> fn`, for every element type of its bound.
fn declared_ops<B: ArrayBackend>(dev: &B) {
    // The element types, with their fixture tags, of each bound an entry may name (a bound
    // missing here is a compile error: add its types).
    macro_rules! each_type {
        (Float, $then:tt) => { each_type!(@ [f32 "f32", f64 "f64"] $then) };
        (Inexact, $then:tt) => {
            each_type!(@ [f32 "f32", f64 "f64", c64 "c64", c128 "c128"] $then)
        };
        (Integer, $then:tt) => { each_type!(@ [u8 "u8", i32 "i32", i64 "i64"] $then) };
        (Real, $then:tt) => {
            each_type!(@ [u8 "u8", i32 "i32", i64 "i64", f32 "f32", f64 "f64"] $then)
        };
        (Numeric, $then:tt) => {
            each_type!(@ [u8 "u8", i32 "i32", i64 "i64", f32 "f32", f64 "f64", c64 "c64",
                c128 "c128"] $then)
        };
        (Element, $then:tt) => {
            each_type!(@ [bool "bool", u8 "u8", i32 "i32", i64 "i64", f32 "f32", f64 "f64",
                c64 "c64", c128 "c128"] $then)
        };
        (@ [$($elem:ident $tag:literal),*] ($kind:ident $ty:ident $method:ident $t:ident $out:ty))
        => {
            $({
                type $t = $elem;
                let decl = <cuprite::ops::$ty as Declared>::DECL;
                each_type!(@call $kind $tag, decl, $method, $t, $out);
            })*
        };
        (@call Unary $tag:literal, $decl:ident, $method:ident, $t:ident, $out:ty) => {
            declared_case::<$t, $out, B>(dev, $decl, $tag, |v| v[0].$method())
        };
        (@call Binary $tag:literal, $decl:ident, $method:ident, $t:ident, $out:ty) => {
            declared_case::<$t, $out, B>(dev, $decl, $tag, |v| v[0].$method(&v[1]))
        };
    }
    macro_rules! declared_cases {
        ($( $(#[$m:meta])* $ty:ident $(<$g:ident>)?, $name:literal, $kind:ident, $tol:ident
            $(, $params:ident)?
            $(=> fn $method:ident<$t:ident: $bound:ident>($($arg:ident),+)
                -> $out:ty $body:block)?;
        )*) => {
            $( $( each_type!($bound, ($kind $ty $method $t $out)); )? )*
        };
    }
    cuprite::elementwise_ops!(declared_cases);
    finish();
}

/// Every declared element-wise op has a NumPy reference here or is listed as covered
/// elsewhere (and what is listed is declared).
#[test]
fn every_declared_op_has_a_fixture() {
    let names = fixture_names(TOPIC);
    for d in ELEMENTWISE {
        let has = names
            .iter()
            .any(|n| n.split_once('/').map(|p| p.1) == Some(d.name));
        let listed = COVERED_ELSEWHERE.iter().any(|c| c.0 == d.name);
        assert!(
            has || listed,
            "{}: declared in the registry, but elementwise.json has no case <dtype>/{}: add \
             the op to scripts/fixtures/elementwise.py and regenerate",
            d.name,
            d.name
        );
    }
    for (name, _) in COVERED_ELSEWHERE {
        assert!(
            ELEMENTWISE.iter().any(|d| d.name == *name),
            "{name}: listed as covered elsewhere, but not declared"
        );
    }
}

cuprite::test_backends!(
    strided_and_broadcast,
    empty_and_zero_d,
    large_inputs,
    errors_name_op_and_shapes,
    float64_math,
    float32_math,
    complex128_math,
    complex64_math,
    int32_ops,
    int64_ops,
    uint8_ops,
    bool_ops,
    declared_ops,
);
