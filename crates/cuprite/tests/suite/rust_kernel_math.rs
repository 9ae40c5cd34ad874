//! The math methods of kernels written in Rust, against the same std methods called here
//! (exact on the CPU; within a few ulps on the GPU for transcendental functions).

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

cuprite::test_backends!(
    unary_f32,
    unary_f64,
    binary_and_ternary,
    predicates,
    integer_methods
);
