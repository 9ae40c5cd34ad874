//! The math methods of kernels written in Rust, against the same std methods called here
//! (exact on the CPU; within a few ulps on the GPU for transcendental functions). On f16
//! and bf16 the reference is the f32 method of the widened values, rounded once to the type
//! (exact on the CPU; within one unit of the half type on the GPU for transcendental
//! functions, whose f32 results differ by a few f32 ulps before the rounding).

use super::support::*;
use super::ULPS;
use cuprite::prelude::*;

fn unary_f32<B: ArrayBackend>(dev: &B) {
    macro_rules! each {
        ($($m:ident),*) => {$(
            let k = cuprite::elementwise!(|x: f32| -> f32 { x.$m() });
            check1(dev, stringify!($m), |a| k.call(a), |x: f32| x.$m(), &f32s(), ULPS);
        )*};
    }
    each!(sqrt, cbrt, exp, exp2, exp_m1, ln, ln_1p, log10, log2, sin, cos, tan, asin, acos, atan);
    each!(sinh, cosh, tanh, asinh, acosh, atanh, to_degrees, to_radians);
    // Exact everywhere.
    macro_rules! exact {
        ($($m:ident),*) => {$(
            let k = cuprite::elementwise!(|x: f32| -> f32 { x.$m() });
            check1(dev, stringify!($m), |a| k.call(a), |x: f32| x.$m(), &f32s(), 0);
        )*};
    }
    exact!(floor, ceil, round, trunc, fract, abs, signum, recip);
    // Huge arguments: std's asinh and acosh overflow above f32::MAX / 2, the kernels' do not.
    let k = cuprite::elementwise!(|x: f32| -> f32 { x.asinh() + x.acosh() });
    let f = |x: f32| ((x as f64).asinh() + (x as f64).acosh()) as f32;
    let huge = [3e38, f32::MAX, 1e30, 2e10, 1.5];
    check1(dev, "huge asinh+acosh", |a| k.call(a), f, &huge, ULPS);
}

fn unary_f64<B: ArrayBackend>(dev: &B) {
    macro_rules! each {
        ($ulps:expr; $($m:ident),*) => {$(
            let k = cuprite::elementwise!(|x: f64| -> f64 { x.$m() });
            check1(dev, stringify!($m), |a| k.call(a), |x: f64| x.$m(), &f64s(), $ulps);
        )*};
    }
    each!(ULPS; sqrt, cbrt, exp, exp2, exp_m1, ln, ln_1p, log10, log2, sin, cos, tan, asin, acos);
    each!(ULPS; atan, sinh, cosh, tanh, asinh, acosh, atanh, to_degrees, to_radians);
    each!(0; floor, ceil, round, trunc, fract, abs, signum, recip);
    // Huge arguments: asinh(x) = acosh(x) = ln(2x) to the last bit above 2^28 (std's overflow
    // above f64::MAX / 2).
    let k = cuprite::elementwise!(|x: f64| -> f64 { x.asinh() + x.acosh() });
    let f = |x: f64| 2.0 * (x.ln() + std::f64::consts::LN_2);
    let huge = [1e300, f64::MAX, 1e308, 1e10];
    check1(dev, "huge asinh+acosh", |a| k.call(a), f, &huge, ULPS);
}

fn binary_and_ternary<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 { x.powf(y) });
    check2(
        dev,
        "powf",
        |a, b| k.call(a, b),
        |x: f32, y: f32| x.powf(y),
        &f32s(),
        &f32s(),
        ULPS,
    );
    let k = cuprite::elementwise!(|x: f64, y: f64| -> f64 { x.atan2(y) });
    check2(
        dev,
        "atan2",
        |a, b| k.call(a, b),
        |x: f64, y: f64| x.atan2(y),
        &f64s(),
        &f64s(),
        ULPS,
    );
    let k = cuprite::elementwise!(|x: f64, y: f64| -> f64 { f64::hypot(x, y) });
    check2(
        dev,
        "hypot",
        |a, b| k.call(a, b),
        |x: f64, y: f64| x.hypot(y),
        &f64s(),
        &f64s(),
        ULPS,
    );
    let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 { x.log(y) });
    check2(
        dev,
        "log",
        |a, b| k.call(a, b),
        |x: f32, y: f32| x.ln() / y.ln(),
        &f32s(),
        &f32s(),
        ULPS,
    );
    let k = cuprite::elementwise!(|x: f64, y: f64| -> f64 { x.copysign(y) + x.mul_add(y, 0.5) });
    check2(
        dev,
        "copysign+mul_add",
        |a, b| k.call(a, b),
        |x: f64, y: f64| x.copysign(y) + x.mul_add(y, 0.5),
        &f64s(),
        &f64s(),
        0,
    );
    // Signed zeros compare equal but may come back either way from min/max: avoid them.
    let v: Vec<f32> = f32s().into_iter().filter(|x| *x != 0.0).collect();
    let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 { x.min(y) - f32::max(x, y) });
    check2(
        dev,
        "min-max",
        |a, b| k.call(a, b),
        |x: f32, y: f32| x.min(y) - x.max(y),
        &v,
        &v,
        0,
    );
    let k = cuprite::elementwise!(|x: f64, n: i32| -> f64 { x.powi(n) });
    let ns = vec![0, 1, 2, 3, -1, -2, 5];
    check2(
        dev,
        "powi",
        |a, b| k.call(a, b),
        |x: f64, n: i32| x.powi(n),
        &f64s(),
        &ns,
        ULPS,
    );
}

fn predicates<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32| -> i32 {
        x.is_nan() as i32
            + 2 * x.is_infinite() as i32
            + 4 * x.is_finite() as i32
            + 8 * x.is_sign_negative() as i32
            + 16 * x.is_sign_positive() as i32
    });
    let f = |x: f32| {
        x.is_nan() as i32
            + 2 * x.is_infinite() as i32
            + 4 * x.is_finite() as i32
            + 8 * x.is_sign_negative() as i32
            + 16 * x.is_sign_positive() as i32
    };
    check1(dev, "f32", |a| k.call(a), f, &f32s(), 0);
    let k = cuprite::elementwise!(|x: f64| -> bool {
        x.is_nan() || x.is_infinite() && x.is_sign_negative()
    });
    check1(
        dev,
        "f64",
        |a| k.call(a),
        |x: f64| x.is_nan() || x.is_infinite() && x.is_sign_negative(),
        &f64s(),
        0,
    );
}

fn integer_methods<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 {
        a.abs() + a.signum() * b.min(a) - b.max(3)
    });
    let f = |a: i32, b: i32| {
        a.wrapping_abs()
            .wrapping_add(a.signum().wrapping_mul(b.min(a)))
            .wrapping_sub(b.max(3))
    };
    check2(dev, "i32", |x, y| k.call(x, y), f, &i32s(), &i32s(), 0);
    let k = cuprite::elementwise!(|a: i64| -> i64 { a.abs() + a.signum() });
    check1(
        dev,
        "i64",
        |x| k.call(x),
        |a: i64| a.wrapping_abs().wrapping_add(a.signum()),
        &i64s(),
        0,
    );
    let k = cuprite::elementwise!(|a: u8, b: u8| -> u8 { a.min(b) + a.max(b) });
    check2(
        dev,
        "u8",
        |x, y| k.call(x, y),
        |a: u8, b: u8| a.min(b).wrapping_add(a.max(b)),
        &u8s(),
        &u8s(),
        0,
    );
}

/// One unit of the half type: the rounding of f32 results a few ulps apart.
const HALF_ULPS: u64 = 1;

/// Unary methods on one half type against `$t::from_f32(x.to_f32().method())`.
macro_rules! each_half {
    ($dev:expr, $t:ident, $vals:expr, $ulps:expr; $($m:ident),*) => {$(
        let k = cuprite::elementwise!(|x: $t| -> $t { x.$m() });
        let f = |x: $t| $t::from_f32(x.to_f32().$m());
        let what = concat!(stringify!($t), " ", stringify!($m));
        check1($dev, what, |a| k.call(a), f, &$vals, $ulps);
    )*};
}

/// The unary methods on one half type.
macro_rules! unary_half {
    ($dev:expr, $t:ident, $vals:expr) => {{
        each_half!($dev, $t, $vals, HALF_ULPS; cbrt, exp, exp2, exp_m1, ln, ln_1p, log10, log2);
        each_half!($dev, $t, $vals, HALF_ULPS; sin, cos, tan, asin, acos, atan, sinh, cosh);
        each_half!($dev, $t, $vals, HALF_ULPS; tanh, atanh);
        // asinh and acosh against f64's (f32's of std overflow above f32::MAX / 2, which bf16
        // reaches; the kernels' do not).
        let k = cuprite::elementwise!(|x: $t| -> $t { x.asinh() });
        let f = |x: $t| $t::from_f32((x.to_f32() as f64).asinh() as f32);
        check1($dev, concat!(stringify!($t), " asinh"), |a| k.call(a), f, &$vals, HALF_ULPS);
        let k = cuprite::elementwise!(|x: $t| -> $t { x.acosh() });
        let f = |x: $t| $t::from_f32((x.to_f32() as f64).acosh() as f32);
        check1($dev, concat!(stringify!($t), " acosh"), |a| k.call(a), f, &$vals, HALF_ULPS);
        // Correctly rounded in f32, so exact after the rounding too.
        each_half!($dev, $t, $vals, 0; sqrt, floor, ceil, round, trunc, fract, signum, recip);
        each_half!($dev, $t, $vals, 0; to_degrees, to_radians);
        // abs clears the sign bit (of NaN too).
        let k = cuprite::elementwise!(|x: $t| -> $t { x.abs() });
        let f = |x: $t| $t::from_bits(x.to_bits() & 0x7fff);
        check1($dev, concat!(stringify!($t), " abs"), |a| k.call(a), f, &$vals, 0);
        let k = cuprite::elementwise!(|x: $t| -> $t { -x.abs() });
        let z = k.call(&Array::from_vec(vec![$t::NAN], &[1], $dev).unwrap()).unwrap();
        assert!(z.to_vec().unwrap()[0].is_sign_negative());
    }};
}

fn unary_halfs<B: ArrayBackend>(dev: &B) {
    unary_half!(dev, f16, f16s());
    unary_half!(dev, bf16, bf16s());
}

/// The methods of two or three arguments on one half type.
macro_rules! binary_half {
    ($dev:expr, $t:ident, $vals:expr) => {{
        let w = |x: $t| x.to_f32();
        let k = cuprite::elementwise!(|x: $t, y: $t| -> $t { x.powf(y) });
        let f = |x: $t, y: $t| $t::from_f32(w(x).powf(w(y)));
        check2(
            $dev,
            "powf",
            |a, b| k.call(a, b),
            f,
            &$vals,
            &$vals,
            HALF_ULPS,
        );
        let k = cuprite::elementwise!(|x: $t, y: $t| -> $t { x.atan2(y) + $t::hypot(x, y) });
        let f = |x: $t, y: $t| $t::from_f32(w(x).atan2(w(y))) + $t::from_f32(w(x).hypot(w(y)));
        // Two results a unit apart each.
        check2(
            $dev,
            "atan2+hypot",
            |a, b| k.call(a, b),
            f,
            &$vals,
            &$vals,
            2 * HALF_ULPS,
        );
        let k = cuprite::elementwise!(|x: $t, y: $t| -> $t { x.log(y) });
        let f = |x: $t, y: $t| $t::from_f32(w(x).ln() / w(y).ln());
        check2(
            $dev,
            "log",
            |a, b| k.call(a, b),
            f,
            &$vals,
            &$vals,
            HALF_ULPS,
        );
        // mul_add: f32's fused multiply-add, rounded once more to the type.
        let k = cuprite::elementwise!(|x: $t, y: $t| -> $t { x.copysign(y) + x.mul_add(y, 0.5) });
        let f = |x: $t, y: $t| {
            $t::from_f32(w(x).copysign(w(y))) + $t::from_f32(w(x).mul_add(w(y), 0.5))
        };
        check2(
            $dev,
            "copysign+mul_add",
            |a, b| k.call(a, b),
            f,
            &$vals,
            &$vals,
            0,
        );
        // Signed zeros compare equal but may come back either way from min/max: avoid them.
        let v: Vec<$t> = $vals.into_iter().filter(|x| x.to_f32() != 0.0).collect();
        let k = cuprite::elementwise!(|x: $t, y: $t| -> $t { x.min(y) - $t::max(x, y) });
        let f = |x: $t, y: $t| $t::from_f32(w(x).min(w(y))) - $t::from_f32(w(x).max(w(y)));
        check2($dev, "min-max", |a, b| k.call(a, b), f, &v, &v, 0);
        let k = cuprite::elementwise!(|x: $t, n: i32| -> $t { x.powi(n) });
        let f = |x: $t, n: i32| $t::from_f32(w(x).powi(n));
        check2(
            $dev,
            "powi",
            |a, b| k.call(a, b),
            f,
            &$vals,
            &[0, 1, 2, 3, -1, -2, 5],
            HALF_ULPS,
        );
        // Predicates on the bits, against the half crate's.
        let k = cuprite::elementwise!(|x: $t| -> i32 {
            x.is_nan() as i32
                + 2 * x.is_infinite() as i32
                + 4 * x.is_finite() as i32
                + 8 * x.is_sign_negative() as i32
                + 16 * x.is_sign_positive() as i32
        });
        let f = |x: $t| {
            x.is_nan() as i32
                + 2 * x.is_infinite() as i32
                + 4 * x.is_finite() as i32
                + 8 * x.is_sign_negative() as i32
                + 16 * x.is_sign_positive() as i32
        };
        check1($dev, "predicates", |a| k.call(a), f, &$vals, 0);
    }};
}

fn binary_halfs<B: ArrayBackend>(dev: &B) {
    binary_half!(dev, f16, f16s());
    binary_half!(dev, bf16, bf16s());
}

cuprite::test_backends!(
    unary_f32,
    unary_f64,
    binary_and_ternary,
    predicates,
    integer_methods,
    unary_halfs,
    binary_halfs,
);
