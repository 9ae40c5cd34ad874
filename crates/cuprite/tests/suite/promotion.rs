//! NumPy 2's type promotion in the arithmetic operators, on every backend, against NumPy
//! (`scripts/fixtures/promotion.py`): arrays of two element types (`&Array<f64> +
//! &Array<i64>` is `Array<f64>`), arrays with scalars of another kind (weak scalars:
//! `&x_i64 * 2.5` is `f64`, `&x_f32 * c128` is `c64`), and compound assignment of another
//! type into an array or a view (the target keeps its type), and NumPy's float functions
//! (`sqrt`, `exp`, `sin`, ...) of integer and bool arrays. Each result's element type is
//! checked against the dtype NumPy gave, and its values against NumPy's.

use crate::common;

use common::{fixture, fixture_dtype, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::Promote;

const TOPIC: &str = "promotion";

/// `actual` has NumPy's dtype and values for case `name` (relative tolerance by type:
/// exact for integers, 1e-15 for f64/c128, 1e-6 for f32/c64, 1e-3 for f16).
fn check<T: Element, B: ArrayBackend>(actual: Array<T, B>, name: &str) {
    let rtol = match T::DTYPE {
        DType::F64 | DType::C128 => 1e-15,
        DType::F32 | DType::C64 => 1e-6,
        DType::F16 | DType::BF16 => 1e-3,
        _ => 0.0,
    };
    check_rtol(actual, name, rtol);
}

/// [`check`] with the relative tolerance `rtol`.
fn check_rtol<T: Element, B: ArrayBackend>(actual: Array<T, B>, name: &str, rtol: f64) {
    assert_eq!(T::DTYPE.name(), fixture_dtype(TOPIC, name), "{name}: dtype");
    let (desired, shape) = fixture_vec::<T>(TOPIC, name);
    assert_eq!(actual.shape(), &shape[..], "{name}: shape");
    let got = actual.to_vec().unwrap();
    check_allclose_slices(&got, &desired, &shape, rtol, 0.0)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

/// The four operators (and `%` where NumPy has it) between an array of `X` (3x4) and one
/// of `Y` (4, broadcast), both ways round, owned and borrowed; the operands.
fn pair<X, Y, B>(dev: &B, key: &str) -> (Array<X, B>, Array<Y, B>)
where
    X: Promote<Y>,
    Y: Promote<X, Output = <X as Promote<Y>>::Output>,
    <X as Promote<Y>>::Output: Numeric + TrueDivide,
    B: ArrayBackend,
{
    let a = fixture::<X, B>(dev, TOPIC, &format!("{key}/a"));
    let b = fixture::<Y, B>(dev, TOPIC, &format!("{key}/b"));
    check(&a + &b, &format!("{key}/add"));
    check(&b + &a, &format!("{key}/add_rev"));
    check(a.clone() - &b, &format!("{key}/sub"));
    check(&b - a.clone(), &format!("{key}/sub_rev"));
    check(a.clone() * b.clone(), &format!("{key}/mul"));
    check(&b * &a, &format!("{key}/mul_rev"));
    check(&a / &b, &format!("{key}/div"));
    check(&b / &a, &format!("{key}/div_rev"));
    (a, b)
}

/// `pair` with `%` too (real operands).
fn pair_rem<X, Y, B>(dev: &B, key: &str)
where
    X: Promote<Y>,
    Y: Promote<X, Output = <X as Promote<Y>>::Output>,
    <X as Promote<Y>>::Output: Real + TrueDivide,
    B: ArrayBackend,
{
    let (a, b) = pair::<X, Y, B>(dev, key);
    check(&a % &b, &format!("{key}/rem"));
}

fn arrays_of_two_types<B: ArrayBackend>(dev: &B) {
    pair_rem::<f64, i64, B>(dev, "float64_int64");
    pair_rem::<i64, f64, B>(dev, "int64_float64");
    pair_rem::<f32, f64, B>(dev, "float32_float64");
    pair_rem::<f32, i32, B>(dev, "float32_int32");
    pair_rem::<f32, i16, B>(dev, "float32_int16");
    pair_rem::<u8, i8, B>(dev, "uint8_int8");
    pair_rem::<i64, u64, B>(dev, "int64_uint64");
    pair_rem::<u16, i16, B>(dev, "uint16_int16");
    pair_rem::<u32, i8, B>(dev, "uint32_int8");
    pair::<f32, c128, B>(dev, "float32_complex128");
    pair::<f64, c64, B>(dev, "float64_complex64");
    pair_rem::<i16, f16, B>(dev, "int16_float16");
    pair_rem::<i8, f16, B>(dev, "int8_float16");
    pair::<bool, i32, B>(dev, "bool_int32");
    pair::<f64, bool, B>(dev, "float64_bool");
    pair::<c64, i32, B>(dev, "complex64_int32");
    pair_rem::<i32, i64, B>(dev, "int32_int64");
    pair_rem::<f16, f32, B>(dev, "float16_float32");
}

fn bool_arithmetic<B: ArrayBackend>(dev: &B) {
    let a = fixture::<bool, B>(dev, TOPIC, "bools/a");
    let b = fixture::<bool, B>(dev, TOPIC, "bools/b");
    check(&a + &b, "bools/add");
    check(a.clone() * b.clone(), "bools/mul");
    check(&a / &b, "bools/div");
    // With another type, bools promote to it.
    let i = Array::<i32, B>::from_vec(vec![10, 20, 30], &[3], dev).unwrap();
    assert_eq!((&b + &i).to_vec().unwrap(), vec![11, 20, 30]);
}

fn scalars_of_another_kind<B: ArrayBackend>(dev: &B) {
    let a = |key: &str| format!("{key}/a");
    // A float with an integer array: float64, the scalar on either side.
    macro_rules! float_scalar {
        ($t:ty, $key:literal, $s:expr) => {{
            let x = fixture::<$t, B>(dev, TOPIC, &a($key));
            check(&x + $s, concat!($key, "/add"));
            check($s + &x, concat!($key, "/add_rev"));
            check(x.clone() - $s, concat!($key, "/sub"));
            check($s - x.clone(), concat!($key, "/sub_rev"));
            check(&x * $s, concat!($key, "/mul"));
            check($s * &x, concat!($key, "/mul_rev"));
            check(&x / $s, concat!($key, "/div"));
            check($s / &x, concat!($key, "/div_rev"));
            check(&x % $s, concat!($key, "/rem"));
            check($s % &x, concat!($key, "/rem_rev"));
        }};
    }
    float_scalar!(i64, "int64_scalar_f", 2.5);
    float_scalar!(i32, "int32_scalar_f", 2.5);
    float_scalar!(u8, "uint8_scalar_f", 0.5);
    float_scalar!(i16, "int16_scalar_f", -1.5);
    // A complex scalar with a real array.
    macro_rules! complex_scalar {
        ($t:ty, $key:literal, $s:expr) => {{
            let x = fixture::<$t, B>(dev, TOPIC, &a($key));
            check(&x + $s, concat!($key, "/add"));
            check($s + &x, concat!($key, "/add_rev"));
            check(&x - $s, concat!($key, "/sub"));
            check($s - x.clone(), concat!($key, "/sub_rev"));
            check(x.clone() * $s, concat!($key, "/mul"));
            check($s * &x, concat!($key, "/mul_rev"));
            check(&x / $s, concat!($key, "/div"));
            check($s / &x, concat!($key, "/div_rev"));
        }};
    }
    complex_scalar!(f32, "float32_scalar_c", c128::new(0.0, 1.0));
    complex_scalar!(f64, "float64_scalar_c", c128::new(2.0, -1.0));
    complex_scalar!(i64, "int64_scalar_c", c128::new(0.0, 1.0));
    complex_scalar!(f16, "float16_scalar_c", c128::new(0.0, 1.0));
    complex_scalar!(u8, "uint8_scalar_c64", c64::new(1.0, 2.0));
    complex_scalar!(i32, "int32_scalar_c64", c64::new(0.0, 1.0));
    complex_scalar!(f64, "float64_scalar_c64", c64::new(0.0, 2.0));
    complex_scalar!(f32, "float32_scalar_c64", c64::new(0.0, -1.0));
}

/// `x += y` of another type (`x` keeps its type), into arrays and into a reversed view.
fn inplace<X, Y, B>(dev: &B, key: &str)
where
    X: Numeric + Promote<Y, Output = X>,
    Y: Element,
    B: ArrayBackend,
{
    let a = fixture::<X, B>(dev, TOPIC, &format!("{key}/a"));
    let b = fixture::<Y, B>(dev, TOPIC, &format!("{key}/b"));
    let mut x = a.clone();
    x += &b;
    check(x, &format!("{key}/add"));
    let mut x = a.clone();
    x -= b.clone();
    check(x, &format!("{key}/sub"));
    let mut x = a.clone();
    x *= &b;
    check(x, &format!("{key}/mul"));
    // x[1:, ::-1] -= b[::-1]
    let mut x = a.clone();
    let rb = b.slice(&s![..;-1]).unwrap();
    let mut v = x.slice_mut(&s![1.., ..;-1]).unwrap();
    v -= rb;
    check(x, &format!("{key}/view_sub"));
}

fn compound_assignment_of_another_type<B: ArrayBackend>(dev: &B) {
    inplace::<f64, i32, B>(dev, "inplace_float64_int32");
    inplace::<c128, f64, B>(dev, "inplace_complex128_float64");
    inplace::<f32, i8, B>(dev, "inplace_float32_int8");
    inplace::<i64, u8, B>(dev, "inplace_int64_uint8");
}

/// Strided and transposed operands of two types, 0-d and empty ones, and the errors: a
/// shape mismatch names the operator and both shapes before anything is converted.
fn views_edges_and_errors<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::from_vec((0..12).map(f64::from).collect(), &[3, 4], dev).unwrap();
    let b = Array::<i32, B>::from_vec((0..12).collect(), &[4, 3], dev).unwrap();
    // a + b.T, with b's transpose a strided view.
    let got = (&a + &b.t()).to_vec().unwrap();
    let want: Vec<f64> = (0..12)
        .map(|k| {
            let (i, j) = (k / 4, k % 4);
            k as f64 + (j * 3 + i) as f64
        })
        .collect();
    assert_eq!(got, want);
    // Reversed rows of an i8 array with an f32 0-d array.
    let c = Array::<i8, B>::from_vec(vec![1, -2, 3], &[3], dev).unwrap();
    let z = Array::<f32, B>::scalar(0.5, dev).unwrap();
    let r: Array<f32, B> = &c.slice(&s![..;-1]).unwrap() * &z;
    assert_eq!(r.to_vec().unwrap(), vec![1.5, -1.0, 0.5]);
    // Empty operands keep their (promoted) type and shape.
    let e = Array::<u16, B>::zeros(&[0, 4], dev).unwrap();
    let f: Array<i32, B> = &e - &Array::<i8, B>::zeros(&[4], dev).unwrap();
    assert_eq!((f.shape(), f.size()), (&[0usize, 4][..], 0));
    // NaN, inf and -0.0 pass through the conversion.
    let n = Array::<f32, B>::from_vec(vec![f32::NAN, f32::INFINITY, -0.0], &[3], dev).unwrap();
    let m = Array::<f64, B>::from_vec(vec![1.0, 1.0, 1.0], &[3], dev).unwrap();
    let p = (&n * &m).to_vec().unwrap();
    assert!(p[0].is_nan() && p[1] == f64::INFINITY && p[2] == 0.0 && p[2].is_sign_negative());
    // Shapes that do not broadcast: an Err naming the op and the shapes.
    let x = Array::<f64, B>::zeros(&[3, 4], dev).unwrap();
    let y = Array::<i64, B>::zeros(&[3], dev).unwrap();
    let msg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| &x + &y))
        .err()
        .and_then(|p| p.downcast_ref::<String>().cloned())
        .expect("a shape mismatch panics with its message");
    assert!(
        msg.contains("add") && msg.contains("[3, 4]") && msg.contains("[3]"),
        "{msg}"
    );
    let mut t = Array::<f32, B>::zeros(&[2, 2], dev).unwrap();
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        t += &Array::<i8, B>::zeros(&[3], dev).unwrap();
    }));
    assert!(err.is_err());
}

/// NumPy's float functions of an integer or bool array: the values converted to NumPy's
/// float type for them (f16, f32 or f64), then the function (transcendental results within
/// 1e-13 in f64, 4e-6 in f32: NumPy's own f32 loops are a few ulp off; 1e-3 in f16).
fn float_functions_of<X, B>(dev: &B, key: &str)
where
    X: Element,
    X::FloatOut: Float,
    B: ArrayBackend,
{
    let rtol = match <X::FloatOut as Element>::DTYPE {
        DType::F64 => 1e-13,
        DType::F32 => 4e-6,
        _ => 1e-3,
    };
    let x = fixture::<X, B>(dev, TOPIC, &format!("{key}/x"));
    let small = fixture::<X, B>(dev, TOPIC, &format!("{key}/small"));
    type F<X, B> = fn(&Array<X, B>) -> Result<Array<<X as Element>::FloatOut, B>>;
    let fns: [(&str, F<X, B>); 17] = [
        ("sqrt", |a| a.sqrt()),
        ("exp", |a| a.exp()),
        ("log", |a| a.log()),
        ("sin", |a| a.sin()),
        ("cos", |a| a.cos()),
        ("tan", |a| a.tan()),
        ("arctan", |a| a.arctan()),
        ("sinh", |a| a.sinh()),
        ("tanh", |a| a.tanh()),
        ("arcsinh", |a| a.arcsinh()),
        ("cbrt", |a| a.cbrt()),
        ("expm1", |a| a.expm1()),
        ("log1p", |a| a.log1p()),
        ("log2", |a| a.log2()),
        ("log10", |a| a.log10()),
        ("exp2", |a| a.exp2()),
        ("arccosh", |a| a.acosh()),
    ];
    for (name, f) in fns {
        check_rtol(f(&x).unwrap(), &format!("{key}/{name}"), rtol);
    }
    let on_small: [(&str, F<X, B>); 3] = [
        ("arcsin", |a| a.arcsin()),
        ("arccos", |a| a.arccos()),
        ("arctanh", |a| a.atanh()),
    ];
    for (name, f) in on_small {
        check_rtol(f(&small).unwrap(), &format!("{key}/{name}"), rtol);
    }
}

fn float_functions_of_integers_and_bools<B: ArrayBackend>(dev: &B) {
    float_functions_of::<bool, B>(dev, "float_of_bool");
    float_functions_of::<i8, B>(dev, "float_of_int8");
    float_functions_of::<u8, B>(dev, "float_of_uint8");
    float_functions_of::<i16, B>(dev, "float_of_int16");
    float_functions_of::<u16, B>(dev, "float_of_uint16");
    float_functions_of::<i32, B>(dev, "float_of_int32");
    float_functions_of::<u32, B>(dev, "float_of_uint32");
    float_functions_of::<i64, B>(dev, "float_of_int64");
    float_functions_of::<u64, B>(dev, "float_of_uint64");
    // A strided, reversed view of an integer array, and a 0-d one.
    let a = Array::<i64, B>::from_vec(vec![1, 4, 9, 16, 25, 36], &[2, 3], dev).unwrap();
    let r = a.slice(&s![.., ..;-2]).unwrap().sqrt().unwrap();
    assert_eq!(r.to_vec().unwrap(), vec![3.0, 1.0, 6.0, 4.0]);
    let z = Array::<u8, B>::scalar(4, dev).unwrap().sqrt().unwrap();
    assert_eq!(
        (z.shape().len(), z.item().unwrap()),
        (0, f16::from_f32(2.0))
    );
}

cuprite::test_backends!(
    bool_arithmetic,
    float_functions_of_integers_and_bools,
    arrays_of_two_types,
    scalars_of_another_kind,
    compound_assignment_of_another_type,
    views_edges_and_errors,
);
