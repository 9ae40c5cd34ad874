//! Kernels written in Rust (`cuprite::elementwise!`, `#[cuprite::kernel]`): one test per
//! construct of the subset, each against plain Rust scalar code written here, on every
//! layout (see `rust_kernel_support.rs`) and every dtype the construct takes (the types
//! beyond bool, u8, i32, i64, f32, f64 in `rust_kernel_types.rs`). The differential module
//! compares kernels with the same computation made of cuprite's array operations on every
//! backend, and runs the same kernels on the CPU and the GPU.

#[path = "rust_kernel_support.rs"]
mod support;

#[path = "rust_kernel_diff.rs"]
mod diff;

#[path = "rust_kernel_types.rs"]
mod types;

use cuprite::prelude::*;
use support::*;

/// Float math with transcendental functions: the GPU's libm may differ by a few ulps.
const ULPS: u64 = 4;

#[cuprite::kernel]
fn my_kernel(x: f32, y: f32) -> f32 {
    if x - 2.0 > y {
        x * y
    } else {
        x + y
    }
}

fn notebook_if_else<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 {
        if x - 2.0 > y {
            x * y
        } else {
            x + y
        }
    });
    let f = |x: f32, y: f32| if x - 2.0 > y { x * y } else { x + y };
    check2(
        dev,
        "elementwise",
        |a, b| k.call(a, b),
        f,
        &f32s(),
        &f32s(),
        0,
    );
    // The attribute form: the function on scalars and its array kernel.
    assert_eq!(my_kernel(5.0, 2.0), 10.0);
    assert_eq!(my_kernel(1.0, 2.0), 3.0);
    check2(
        dev,
        "my_kernel",
        |a, b| my_kernel::kernel().call(a, b),
        f,
        &f32s(),
        &f32s(),
        0,
    );
}

fn float_arithmetic<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: f32, b: f32| -> f32 { a + b * a - b / a % (b - 1.5) });
    let f = |a: f32, b: f32| a + b * a - b / a % (b - 1.5);
    check2(dev, "f32", |x, y| k.call(x, y), f, &f32s(), &f32s(), 0);
    let k = cuprite::elementwise!(|a: f64, b: f64| -> f64 { -a + b * a - b / a % (b - 1.5) });
    let f = |a: f64, b: f64| -a + b * a - b / a % (b - 1.5);
    check2(dev, "f64", |x, y| k.call(x, y), f, &f64s(), &f64s(), 0);
}

fn integer_arithmetic_wraps_and_never_panics<B: ArrayBackend>(dev: &B) {
    let div = |a: i32, b: i32| if b == 0 { 0 } else { a.wrapping_div(b) };
    let rem = |a: i32, b: i32| if b == 0 { 0 } else { a.wrapping_rem(b) };
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 { a + b * a - b });
    check2(
        dev,
        "i32 +-*",
        |x, y| k.call(x, y),
        |a: i32, b: i32| a.wrapping_add(b.wrapping_mul(a)).wrapping_sub(b),
        &i32s(),
        &i32s(),
        0,
    );
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 { a / b });
    check2(dev, "i32 /", |x, y| k.call(x, y), div, &i32s(), &i32s(), 0);
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 { a % b });
    check2(dev, "i32 %", |x, y| k.call(x, y), rem, &i32s(), &i32s(), 0);
    let k = cuprite::elementwise!(|a: i64, b: i64| -> i64 { a * b + a / b - a % b });
    let f = |a: i64, b: i64| {
        let d = if b == 0 { 0 } else { a.wrapping_div(b) };
        let r = if b == 0 { 0 } else { a.wrapping_rem(b) };
        a.wrapping_mul(b).wrapping_add(d).wrapping_sub(r)
    };
    check2(dev, "i64", |x, y| k.call(x, y), f, &i64s(), &i64s(), 0);
    let k = cuprite::elementwise!(|a: u8, b: u8| -> u8 { a * b + a / b - a % b });
    let f = |a: u8, b: u8| {
        let d = a.checked_div(b).unwrap_or(0);
        let r = if b == 0 { 0 } else { a % b };
        a.wrapping_mul(b).wrapping_add(d).wrapping_sub(r)
    };
    check2(dev, "u8", |x, y| k.call(x, y), f, &u8s(), &u8s(), 0);
    // The documented corner cases, spelled out.
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 { a / b + a % b });
    let a = Array::<i32, B>::from_vec(vec![7, i32::MIN, -7, 0], &[4], dev).unwrap();
    let b = Array::<i32, B>::from_vec(vec![0, -1, 2, 0], &[4], dev).unwrap();
    assert_eq!(
        k.call(&a, &b).unwrap().to_vec().unwrap(),
        vec![0, i32::MIN, -4, 0]
    );
}

fn unary_operators<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: i32| -> i32 { -a });
    check1(
        dev,
        "-i32",
        |x| k.call(x),
        |a: i32| a.wrapping_neg(),
        &i32s(),
        0,
    );
    let k = cuprite::elementwise!(|a: i64| -> i64 { !a });
    check1(dev, "!i64", |x| k.call(x), |a: i64| !a, &i64s(), 0);
    let k = cuprite::elementwise!(|a: u8| -> u8 { !a });
    check1(dev, "!u8", |x| k.call(x), |a: u8| !a, &u8s(), 0);
    let k = cuprite::elementwise!(|a: bool| -> bool { !a });
    check1(dev, "!bool", |x| k.call(x), |a: bool| !a, &bools(), 0);
    let k = cuprite::elementwise!(|a: f64| -> f64 { -a });
    check1(dev, "-f64", |x| k.call(x), |a: f64| -a, &f64s(), 0);
}

#[allow(clippy::bool_comparison)]
fn comparisons_and_logic<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: f64, b: f64| -> bool {
        (a < b) != (a >= b) && (a == b || a != b || a <= b || a > b)
    });
    let f = |a: f64, b: f64| (a < b) != (a >= b) && (a == b || a != b || a <= b || a > b);
    check2(
        dev,
        "f64 compare",
        |x, y| k.call(x, y),
        f,
        &f64s(),
        &f64s(),
        0,
    );
    let k = cuprite::elementwise!(|a: i64, b: i64| -> bool { a < b || a == b && a >= 0 });
    check2(
        dev,
        "i64 compare",
        |x, y| k.call(x, y),
        |a: i64, b: i64| a < b || a == b && a >= 0,
        &i64s(),
        &i64s(),
        0,
    );
    let k = cuprite::elementwise!(|a: bool, b: bool| -> bool { (a < b) || (a && !b) });
    check2(
        dev,
        "bool",
        |x, y| k.call(x, y),
        |a: bool, b: bool| (a < b) || (a && !b),
        &bools(),
        &bools(),
        0,
    );
}

fn bit_operators_and_shifts<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: i64, s: i32| -> i64 { (a << s) ^ (a >> s) | (a & 0xff) });
    let f = |a: i64, s: i32| a.wrapping_shl(s as u32) ^ a.wrapping_shr(s as u32) | (a & 0xff);
    check2(dev, "i64", |x, y| k.call(x, y), f, &i64s(), &i32s(), 0);
    let k = cuprite::elementwise!(|a: u8, s: u8| -> u8 { (a << s) | (a >> 1) ^ (s & 3) });
    let f = |a: u8, s: u8| a.wrapping_shl(s as u32) | (a >> 1) ^ (s & 3);
    check2(dev, "u8", |x, y| k.call(x, y), f, &u8s(), &u8s(), 0);
    let k = cuprite::elementwise!(|a: i32, b: i32| -> i32 { (a & b) | (a ^ b) >> 2 });
    check2(
        dev,
        "i32",
        |x, y| k.call(x, y),
        |a: i32, b: i32| (a & b) | (a ^ b) >> 2,
        &i32s(),
        &i32s(),
        0,
    );
    let k = cuprite::elementwise!(|a: bool, b: bool| -> bool { (a & b) ^ (a | !b) });
    check2(
        dev,
        "bool",
        |x, y| k.call(x, y),
        |a: bool, b: bool| (a & b) ^ (a | !b),
        &bools(),
        &bools(),
        0,
    );
}

fn if_else_statements_and_let_mut<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: i32| -> i32 {
        let mut y = x;
        if x > 10 {
            y = 10;
        } else if x < 0 {
            y -= 1;
        }
        y += 2;
        y *= 3;
        y /= 2;
        y %= 1000;
        y <<= 1;
        y >>= 1;
        y &= 0x7fff;
        y |= 1;
        y ^= 4;
        y
    });
    let f = |x: i32| {
        let mut y = x;
        if x > 10 {
            y = 10;
        } else if x < 0 {
            y = y.wrapping_sub(1);
        }
        y = y.wrapping_add(2).wrapping_mul(3) / 2 % 1000;
        y = y.wrapping_shl(1).wrapping_shr(1);
        ((y & 0x7fff) | 1) ^ 4
    };
    check1(dev, "i32", |a| k.call(a), f, &i32s(), 0);
    let k = cuprite::elementwise!(|x: f64, y: f64| -> f64 {
        if x > y {
            let d = x - y;
            d * d
        } else if x < y {
            let s = x + y;
            s / 2.0
        } else {
            0.5
        }
    });
    let f = |x: f64, y: f64| {
        if x > y {
            (x - y) * (x - y)
        } else if x < y {
            (x + y) / 2.0
        } else {
            0.5
        }
    };
    check2(dev, "f64", |a, b| k.call(a, b), f, &f64s(), &f64s(), 0);
}

fn let_inference_blocks_and_shadowing<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32| -> f64 {
        let a = 0.1;
        let b: f32 = 3.0;
        let x = {
            let t = x * b;
            t + a
        };
        let x = x as f64;
        x * 0.1
    });
    let f = |x: f32| ((x * 3.0 + 0.1f32) as f64) * 0.1f64;
    check1(dev, "f32", |a| k.call(a), f, &f32s(), 0);
    let k = cuprite::elementwise!(|mut x: i64| -> i64 {
        x += 5;
        let k = 3;
        x * k
    });
    check1(
        dev,
        "i64",
        |a| k.call(a),
        |x: i64| x.wrapping_add(5).wrapping_mul(3),
        &i64s(),
        0,
    );
    let k = cuprite::elementwise!(|x: i32| x * 2);
    check1(
        dev,
        "inferred result",
        |a| k.call(a),
        |x: i32| x.wrapping_mul(2),
        &i32s(),
        0,
    );
}

fn casts_follow_rust<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32| -> i32 { x as i32 });
    check1(
        dev,
        "f32->i32",
        |a| k.call(a),
        |x: f32| x as i32,
        &f32s(),
        0,
    );
    let k = cuprite::elementwise!(|x: f64| -> u8 { x as u8 });
    check1(dev, "f64->u8", |a| k.call(a), |x: f64| x as u8, &f64s(), 0);
    let k = cuprite::elementwise!(|x: f64| -> i64 { x as i64 });
    check1(
        dev,
        "f64->i64",
        |a| k.call(a),
        |x: f64| x as i64,
        &f64s(),
        0,
    );
    let k = cuprite::elementwise!(|x: f64| -> f32 { x as f32 });
    check1(
        dev,
        "f64->f32",
        |a| k.call(a),
        |x: f64| x as f32,
        &f64s(),
        0,
    );
    let k = cuprite::elementwise!(|x: i64| -> u8 { x as u8 });
    check1(dev, "i64->u8", |a| k.call(a), |x: i64| x as u8, &i64s(), 0);
    let k = cuprite::elementwise!(|x: i64| -> f32 { x as f32 });
    check1(
        dev,
        "i64->f32",
        |a| k.call(a),
        |x: i64| x as f32,
        &i64s(),
        0,
    );
    let k = cuprite::elementwise!(|x: i32| -> i64 { x as i64 + (x as u8) as i64 });
    check1(
        dev,
        "i32->i64",
        |a| k.call(a),
        |x: i32| x as i64 + (x as u8) as i64,
        &i32s(),
        0,
    );
    let k = cuprite::elementwise!(|b: bool| -> f64 { b as u8 as f64 + (b as i32 * 2) as f64 });
    check1(
        dev,
        "bool",
        |a| k.call(a),
        |b: bool| b as u8 as f64 + (b as i32 * 2) as f64,
        &bools(),
        0,
    );
    let k = cuprite::elementwise!(|x: i32| -> bool { x != 0 });
    check1(dev, "i32->bool", |a| k.call(a), |x: i32| x != 0, &i32s(), 0);
}

fn literals_and_constants<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f32| -> f32 {
        x * f32::consts::PI + std::f32::consts::E - f32::EPSILON + 1.5e-3_f32 + 2f32
    });
    let f = |x: f32| x * std::f32::consts::PI + std::f32::consts::E - f32::EPSILON + 1.5e-3 + 2.0;
    check1(dev, "f32", |a| k.call(a), f, &f32s(), 0);
    let k = cuprite::elementwise!(|x: f64| -> bool {
        x < f64::INFINITY && x > f64::NEG_INFINITY && x != f64::NAN && x < f64::MAX
    });
    check1(
        dev,
        "f64 special",
        |a| k.call(a),
        |x: f64| x.is_finite() && x < f64::MAX,
        &f64s(),
        0,
    );
    let k = cuprite::elementwise!(|x: i64| -> i64 {
        x + i64::MIN + 0x10 - -9223372036854775808 + i32::MAX as i64
    });
    let f = |x: i64| {
        x.wrapping_add(i64::MIN)
            .wrapping_add(16)
            .wrapping_sub(i64::MIN)
            .wrapping_add(i32::MAX as i64)
    };
    check1(dev, "i64", |a| k.call(a), f, &i64s(), 0);
    let k = cuprite::elementwise!(|x: u8| -> u8 { x + 250 - u8::MAX });
    check1(
        dev,
        "u8",
        |a| k.call(a),
        |x: u8| x.wrapping_add(250).wrapping_sub(255),
        &u8s(),
        0,
    );
}

fn three_and_four_inputs_broadcast<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|a: f32, b: f64, c: i32, d: bool| -> f64 {
        if d {
            a as f64 * b
        } else {
            c as f64
        }
    });
    let a = Array::<f32, B>::from_vec(vec![1.5, -2.0], &[2, 1, 1], dev).unwrap();
    let b = Array::<f64, B>::from_vec(vec![10.0, 20.0, 30.0], &[3, 1], dev).unwrap();
    let c = Array::<i32, B>::from_vec(vec![7, 8, 9, 10], &[4], dev).unwrap();
    let d = Array::<bool, B>::from_vec(vec![true, false, true, false], &[4], dev)
        .unwrap()
        .slice(&s![..;-1])
        .unwrap();
    let z = k.call(&a, &b, &c, &d).unwrap();
    assert_eq!(z.shape(), &[2, 3, 4]);
    let (av, bv, cv, dv) = (
        [1.5f32, -2.0],
        [10.0f64, 20.0, 30.0],
        [7i32, 8, 9, 10],
        [false, true, false, true],
    );
    let mut want = Vec::new();
    for x in av {
        for y in bv {
            for (&c, &d) in cv.iter().zip(&dv) {
                want.push(if d { x as f64 * y } else { c as f64 });
            }
        }
    }
    assert_eq!(z.to_vec().unwrap(), want);
    let k3 = cuprite::elementwise!(|a: u8, b: u8, c: u8| -> u8 { a / b % c });
    let f = |a: u8, b: u8, c: u8| {
        let q = a.checked_div(b).unwrap_or(0);
        if c == 0 {
            0
        } else {
            q % c
        }
    };
    let v = u8s();
    let a = Array::<u8, B>::from_vec(v.clone(), &[v.len(), 1, 1], dev).unwrap();
    let b = Array::<u8, B>::from_vec(v.clone(), &[v.len(), 1], dev).unwrap();
    let c = Array::<u8, B>::scalar(3, dev).unwrap();
    let z = k3.call(&a, &b, &c).unwrap();
    let want: Vec<u8> = v
        .iter()
        .flat_map(|&x| v.iter().map(move |&y| f(x, y, 3)))
        .collect();
    assert_eq!(z.to_vec().unwrap(), want);
}

fn shape_mismatch_is_an_error<B: ArrayBackend>(dev: &B) {
    let a = Array::<f32, B>::zeros(&[2, 3], dev).unwrap();
    let b = Array::<f32, B>::zeros(&[4], dev).unwrap();
    let e = my_kernel::kernel().call(&a, &b).unwrap_err();
    assert_eq!(
        e.to_string(),
        "my_kernel: operands could not be broadcast together with shapes [2, 3] and [4]"
    );
    let k = cuprite::elementwise!(|x: f32, y: f32| x + y).with_name("adder");
    let e = k.call(&a, &b).unwrap_err().to_string();
    assert!(
        e.starts_with("adder: operands could not be broadcast"),
        "{e}"
    );
    assert_eq!(k.name(), "adder");
}

cuprite::test_backends!(
    notebook_if_else,
    float_arithmetic,
    integer_arithmetic_wraps_and_never_panics,
    unary_operators,
    comparisons_and_logic,
    bit_operators_and_shifts,
    if_else_statements_and_let_mut,
    let_inference_blocks_and_shadowing,
    casts_follow_rust,
    literals_and_constants,
    three_and_four_inputs_broadcast,
    shape_mismatch_is_an_error,
);

#[path = "rust_kernel_math.rs"]
mod math;
