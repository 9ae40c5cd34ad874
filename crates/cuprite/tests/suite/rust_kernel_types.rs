//! Kernels written in Rust on i8, i16, u16, u32, u64, f16 and bf16, against plain Rust
//! written here, on every layout and backend: wrapping arithmetic of every width, zero
//! divisors and `MIN / -1`, unsigned negation, shifts modulo the width, values above
//! `i64::MAX`; the 16-bit floats computing each operation in f32 and rounding once (the
//! `half` crate's own operators are the reference), with overflow to infinity, NaN, signed
//! zeros and subnormals; literals, constants and every cast.

use super::support::*;
use cuprite::prelude::*;

/// Integer `+ - * / %` of one type: wrapping, 0 for a zero divisor, `MIN / -1` is `MIN`.
macro_rules! int_arith {
    ($dev:expr; $($t:ident: $vals:expr),*) => {$(
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { a + b * a - b / a % (b | 1) });
        let f = |a: $t, b: $t| -> $t {
            let q = if a == 0 { 0 } else { b.wrapping_div(a) };
            a.wrapping_add(b.wrapping_mul(a)).wrapping_sub(q.wrapping_rem(b | 1))
        };
        check2($dev, stringify!($t), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { a / b });
        let f = |a: $t, b: $t| if b == 0 { 0 } else { a.wrapping_div(b) };
        check2($dev, concat!(stringify!($t), " /"), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { a % b });
        let f = |a: $t, b: $t| if b == 0 { 0 } else { a.wrapping_rem(b) };
        check2($dev, concat!(stringify!($t), " %"), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
    )*};
}

fn integers_of_every_width_wrap<B: ArrayBackend>(dev: &B) {
    int_arith!(dev; i8: i8s(), i16: i16s(), u16: u16s(), u32: u32s(), u64: u64s());
    // The corner cases, spelled out.
    let k = cuprite::elementwise!(|a: i8, b: i8| -> i8 { a / b + a % b + a * 2 });
    let a = Array::<i8, B>::from_vec(vec![i8::MIN, 100, -7, 5], &[4], dev).unwrap();
    let b = Array::<i8, B>::from_vec(vec![-1, 3, 0, 0], &[4], dev).unwrap();
    // MIN / -1 = MIN, MIN % -1 = 0, MIN * 2 = 0; 33 + 1 + 200 -> -56 wraps; 0 + 0 - 14.
    assert_eq!(
        k.call(&a, &b).unwrap().to_vec().unwrap(),
        vec![i8::MIN, 34i8.wrapping_add(-56), -14, 10]
    );
    let k = cuprite::elementwise!(|a: u16| -> u16 { a + 1 });
    let a = Array::<u16, B>::from_vec(vec![u16::MAX, 7], &[2], dev).unwrap();
    assert_eq!(k.call(&a).unwrap().to_vec().unwrap(), vec![0, 8]);
    let k = cuprite::elementwise!(|a: u64, b: u64| -> u64 { a * b + a / b });
    let a = Array::<u64, B>::from_vec(vec![u64::MAX, 1 << 63, u64::MAX], &[3], dev).unwrap();
    let b = Array::<u64, B>::from_vec(vec![2, 3, u64::MAX], &[3], dev).unwrap();
    assert_eq!(
        k.call(&a, &b).unwrap().to_vec().unwrap(),
        vec![
            (u64::MAX - 1).wrapping_add(u64::MAX / 2),
            (1u64 << 63) + (1 << 63) / 3,
            1 + 1
        ]
    );
}

/// Negation (of unsigned values too), `!`, `abs`, shifts by any amount, bit operators.
macro_rules! int_unary_bits {
    ($dev:expr; $($t:ident: $vals:expr),*) => {$(
        let k = cuprite::elementwise!(|a: $t| -> $t { -a });
        check1($dev, concat!("-", stringify!($t)), |x| k.call(x), |a: $t| a.wrapping_neg(), &$vals, 0);
        let k = cuprite::elementwise!(|a: $t| -> $t { !a ^ (a & 0x55) });
        check1($dev, concat!("!", stringify!($t)), |x| k.call(x), |a: $t| !a ^ (a & 0x55), &$vals, 0);
        let k = cuprite::elementwise!(|a: $t, s: u32| -> $t { (a << s) ^ (a >> s) });
        let f = |a: $t, s: u32| a.wrapping_shl(s) ^ a.wrapping_shr(s);
        let amounts = [0u32, 1, 3, 7, 8, 9, 15, 16, 31, 33, 63, 64, 65, 200];
        check2($dev, concat!(stringify!($t), " shifts"), |x, y| k.call(x, y), f, &$vals, &amounts, 0);
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { (a & b) | (a ^ b) >> 2 });
        let f = |a: $t, b: $t| (a & b) | (a ^ b) >> 2;
        check2($dev, concat!(stringify!($t), " bits"), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
    )*};
}

fn unary_bits_and_shifts_of_every_width<B: ArrayBackend>(dev: &B) {
    int_unary_bits!(dev; i8: i8s(), i16: i16s(), u16: u16s(), u32: u32s(), u64: u64s());
    // abs wraps for signed types and is the value itself for unsigned ones.
    let k = cuprite::elementwise!(|a: i8| -> i8 { a.abs() });
    check1(
        dev,
        "abs i8",
        |x| k.call(x),
        |a: i8| a.wrapping_abs(),
        &i8s(),
        0,
    );
    let k = cuprite::elementwise!(|a: i16| -> i16 { a.abs() });
    check1(
        dev,
        "abs i16",
        |x| k.call(x),
        |a: i16| a.wrapping_abs(),
        &i16s(),
        0,
    );
    let k = cuprite::elementwise!(|a: u32| -> u32 { a.abs() - (-a).abs() });
    check1(
        dev,
        "abs u32",
        |x| k.call(x),
        |a: u32| a.wrapping_sub(a.wrapping_neg()),
        &u32s(),
        0,
    );
    let k = cuprite::elementwise!(|a: u8| -> u8 { -a });
    let a = Array::<u8, B>::from_vec(vec![0, 1, 128, 255], &[4], dev).unwrap();
    assert_eq!(k.call(&a).unwrap().to_vec().unwrap(), vec![0, 255, 128, 1]);
}

fn integer_methods_of_every_width<B: ArrayBackend>(dev: &B) {
    macro_rules! signed {
        ($($t:ident: $vals:expr),*) => {$(
            let k = cuprite::elementwise!(|a: $t, b: $t| -> $t {
                a.abs() + a.signum() * b.min(a) - b.max(3)
            });
            let f = |a: $t, b: $t| {
                a.wrapping_abs()
                    .wrapping_add(a.signum().wrapping_mul(b.min(a)))
                    .wrapping_sub(b.max(3))
            };
            check2(dev, stringify!($t), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
        )*};
    }
    signed!(i8: i8s(), i16: i16s());
    macro_rules! unsigned {
        ($($t:ident: $vals:expr),*) => {$(
            let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { a.abs() + a.min(b) - $t::max(a, b) });
            let f = |a: $t, b: $t| a.wrapping_add(a.min(b)).wrapping_sub(a.max(b));
            check2(dev, stringify!($t), |x, y| k.call(x, y), f, &$vals, &$vals, 0);
        )*};
    }
    unsigned!(u16: u16s(), u32: u32s(), u64: u64s());
}

#[allow(clippy::unnecessary_cast)]
fn integer_comparisons_literals_and_casts<B: ArrayBackend>(dev: &B) {
    // u64 above i64::MAX compares as unsigned; literals take the other operand's type.
    let k = cuprite::elementwise!(|a: u64, b: u64| -> bool {
        a < b || a == b && a > 9223372036854775807
    });
    let f = |a: u64, b: u64| a < b || a == b && a > i64::MAX as u64;
    check2(
        dev,
        "u64 compare",
        |x, y| k.call(x, y),
        f,
        &u64s(),
        &u64s(),
        0,
    );
    let k = cuprite::elementwise!(|a: u32| -> u32 { a * 3000000000 + u32::MAX });
    let f = |a: u32| a.wrapping_mul(3_000_000_000).wrapping_add(u32::MAX);
    check1(dev, "u32 literal", |x| k.call(x), f, &u32s(), 0);
    let k = cuprite::elementwise!(|a: i16| -> bool { a > -32768 && a < i16::MAX });
    let f = |a: i16| a > i16::MIN && a < i16::MAX;
    check1(dev, "i16 literal", |x| k.call(x), f, &i16s(), 0);
    let k = cuprite::elementwise!(|a: u64| -> u64 { a + 18446744073709551615 - u64::MIN });
    check1(
        dev,
        "u64 literal",
        |x| k.call(x),
        |a: u64| a.wrapping_sub(1),
        &u64s(),
        0,
    );
    // Integer to integer wraps or sign-extends; to float rounds to nearest.
    macro_rules! casts {
        ($($from:ident -> $to:ident: $vals:expr),*) => {$(
            let k = cuprite::elementwise!(|a: $from| -> $to { a as $to });
            let what = concat!(stringify!($from), "->", stringify!($to));
            check1(dev, what, |x| k.call(x), |a: $from| a as $to, &$vals, 0);
        )*};
    }
    casts!(u64 -> i64: u64s(), u64 -> f64: u64s(), u64 -> f32: u64s(), u64 -> u8: u64s());
    casts!(i8 -> u32: i8s(), i8 -> u64: i8s(), i8 -> i16: i8s(), i16 -> u8: i16s());
    casts!(u16 -> i16: u16s(), u32 -> i16: u32s(), u32 -> f32: u32s(), i64 -> u64: i64s());
    casts!(i32 -> u16: i32s(), i16 -> f64: i16s(), u16 -> i8: u16s());
    // Float to integer truncates toward zero and saturates; NaN gives 0.
    casts!(f64 -> u64: f64s(), f64 -> i8: f64s(), f64 -> u16: f64s(), f64 -> u32: f64s());
    casts!(f32 -> i16: f32s(), f32 -> u64: f32s(), f32 -> i8: f32s(), f32 -> u32: f32s());
    let k = cuprite::elementwise!(|b: bool| -> u64 { b as u64 + (b as i8) as u64 * 2 });
    check1(
        dev,
        "bool->u64",
        |x| k.call(x),
        |b: bool| b as u64 + (b as i8) as u64 * 2,
        &bools(),
        0,
    );
}

/// The arithmetic and comparisons of one half type, with the `half` crate's operators as the
/// reference (each computes in f32 and rounds once); `lit` is a literal's value in the type.
macro_rules! half_arith {
    ($dev:expr; $t:ident, $vals:expr, $lit:expr) => {{
        let lit = $lit;
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { a + b * a - b / a % (b - a) });
        let f = |a: $t, b: $t| a + b * a - b / a % (b - a);
        check2(
            $dev,
            stringify!($t),
            |x, y| k.call(x, y),
            f,
            &$vals,
            &$vals,
            0,
        );
        let k = cuprite::elementwise!(|a: $t, b: $t| -> $t { -a * b });
        check2(
            $dev,
            concat!("-", stringify!($t)),
            |x, y| k.call(x, y),
            |a: $t, b: $t| -a * b,
            &$vals,
            &$vals,
            0,
        );
        let k = cuprite::elementwise!(|a: $t, b: $t| -> bool {
            (a < b) != (a >= b) && (a == b || a != b || a <= b || a > b)
        });
        let f = |a: $t, b: $t| (a < b) != (a >= b) && (a == b || a != b || a <= b || a > b);
        check2(
            $dev,
            concat!(stringify!($t), " compare"),
            |x, y| k.call(x, y),
            f,
            &$vals,
            &$vals,
            0,
        );
        // Compound assignments and literals, each step rounded.
        let k = cuprite::elementwise!(|x: $t| -> $t {
            let mut s = x;
            s += 1.5;
            s *= 0.1;
            s -= 2.0;
            s /= 3.0;
            s %= 0.7;
            if s > 0.25 {
                s
            } else {
                -s * 1e-3
            }
        });
        let f = |x: $t| {
            let mut s = x;
            s += lit(1.5);
            s *= lit(0.1);
            s -= lit(2.0);
            s /= lit(3.0);
            s %= lit(0.7);
            if s > lit(0.25) {
                s
            } else {
                -s * lit(1e-3)
            }
        };
        check1(
            $dev,
            concat!(stringify!($t), " steps"),
            |a| k.call(a),
            f,
            &$vals,
            0,
        );
    }};
}

fn halfs_round_each_operation<B: ArrayBackend>(dev: &B) {
    half_arith!(dev; f16, f16s(), |v: f64| f16::from_f64(v));
    half_arith!(dev; bf16, bf16s(), |v: f64| bf16::from_f32(v as f32));
    let bits = |v: Vec<f16>| v.into_iter().map(f16::to_bits).collect::<Vec<_>>();
    let h = |b: u16| f16::from_bits(b);
    // Overflow to infinity, signed zeros, subnormals: halving the smallest subnormal ties to
    // 0 (even), 3 * 2^-24 / 2 ties to 2 * 2^-24, the smallest normal halves exactly; and
    // 1 + 2^-11 ties back to 1 while 1 + 3 * 2^-11 ties up to 1 + 2^-9.
    let k = cuprite::elementwise!(|a: f16, b: f16| -> f16 { a * b + a * 0.0 });
    let a = Array::from_vec(
        vec![
            h(0x7a98),
            f16::MAX,
            f16::MIN,
            h(0xbc00),
            h(0x0001),
            h(0x0003),
            h(0x0400),
        ],
        &[7],
        dev,
    )
    .unwrap();
    let b = Array::from_vec(
        vec![
            h(0x4000),
            h(0x4000),
            h(0x4000),
            h(0x0000),
            h(0x3800),
            h(0x3800),
            h(0x3800),
        ],
        &[7],
        dev,
    )
    .unwrap();
    // 54016 * 2 = 108032 and MAX * 2 overflow; -1 * 0 + -1 * 0 is -0.
    assert_eq!(
        bits(k.call(&a, &b).unwrap().to_vec().unwrap()),
        vec![0x7c00, 0x7c00, 0xfc00, 0x8000, 0x0000, 0x0002, 0x0200]
    );
    let k = cuprite::elementwise!(|a: f16, b: f16| -> f16 { a + b });
    let a = Array::from_vec(vec![h(0x3c00), h(0x3c00), f16::NAN], &[3], dev).unwrap();
    let b = Array::from_vec(vec![h(0x1000), h(0x1600), h(0x3c00)], &[3], dev).unwrap();
    let z = k.call(&a, &b).unwrap().to_vec().unwrap();
    assert_eq!(bits(z[..2].to_vec()), vec![0x3c00, 0x3c02]);
    assert!(z[2].is_nan());
    // bf16: the largest finite value doubles to infinity, 1 + 2^-8 ties back to 1.
    let k = cuprite::elementwise!(|a: bf16| -> bf16 { a * 2.0 + a / 2.0 });
    let a = Array::from_vec(
        vec![bf16::MAX, bf16::MIN, bf16::from_bits(0x0001)],
        &[3],
        dev,
    )
    .unwrap();
    let z: Vec<u16> = k
        .call(&a)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    // The smallest subnormal, 2^-133: doubled exactly, halved to the tie 2^-134, which goes to
    // 0 (even); the sum is 2^-132.
    assert_eq!(z, vec![0x7f80, 0xff80, 0x0002]);
    let k = cuprite::elementwise!(|a: bf16| -> bf16 { a + 0.00390625 });
    let z = k
        .call(&Array::from_vec(vec![bf16::ONE], &[1], dev).unwrap())
        .unwrap();
    assert_eq!(z.to_vec().unwrap()[0].to_bits(), 0x3f80);
}

fn half_literals_and_constants<B: ArrayBackend>(dev: &B) {
    let k = cuprite::elementwise!(|x: f16| -> f16 {
        x * f16::consts::PI + f16::EPSILON - 0.1 + f16::MIN_POSITIVE * 6e-8
    });
    let f = |x: f16| {
        x * f16::PI + f16::EPSILON - f16::from_f64(0.1) + f16::MIN_POSITIVE * f16::from_bits(1)
    };
    check1(dev, "f16", |a| k.call(a), f, &f16s(), 0);
    let k = cuprite::elementwise!(|x: bf16| -> bool {
        x < bf16::MAX && x > bf16::MIN && x != bf16::NAN && x > -bf16::INFINITY
    });
    let f = |x: bf16| x.is_finite() && x != bf16::MAX && x != bf16::MIN;
    check1(dev, "bf16", |a| k.call(a), f, &bf16s(), 0);
    let k = cuprite::elementwise!(|x: bf16| -> bf16 { x * 0.1 + std::f64::consts::E as bf16 });
    // A float literal cast to bf16 is its f32 value rounded; an f64 constant likewise.
    let f = |x: bf16| x * bf16::from_f32(0.1) + bf16::from_f32(std::f64::consts::E as f32);
    check1(dev, "bf16 literal", |a| k.call(a), f, &bf16s(), 0);
    // 65519 rounds to MAX, 2^-25 * 1.5 to the smallest subnormal.
    let k = cuprite::elementwise!(|x: f16| -> f16 { x * 65519.0 + 4.470348358154297e-8 });
    let z = k.call(&Array::from_vec(vec![f16::ONE, f16::ZERO], &[2], dev).unwrap());
    let z: Vec<u16> = z
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(z, vec![0x7bff, 0x0001]);
}

#[allow(clippy::unnecessary_cast)]
fn half_casts_round_once<B: ArrayBackend>(dev: &B) {
    // Out of a half type: its exact f32 value, then Rust's `as`.
    macro_rules! from_half {
        ($($from:ident -> $to:ident: $vals:expr),*) => {$(
            let k = cuprite::elementwise!(|a: $from| -> $to { a as $to });
            let what = concat!(stringify!($from), "->", stringify!($to));
            check1(dev, what, |x| k.call(x), |a: $from| a.to_f32() as $to, &$vals, 0);
        )*};
    }
    from_half!(f16 -> i8: f16s(), f16 -> u8: f16s(), f16 -> i16: f16s(), f16 -> u64: f16s());
    from_half!(f16 -> i64: f16s(), f16 -> f32: f16s(), f16 -> f64: f16s());
    from_half!(bf16 -> i32: bf16s(), bf16 -> u16: bf16s(), bf16 -> u32: bf16s());
    from_half!(bf16 -> i64: bf16s(), bf16 -> f32: bf16s(), bf16 -> f64: bf16s());
    // Into a half type: one rounding to f16; through f32 to bf16.
    macro_rules! to_half {
        ($($from:ident -> $to:ident: $vals:expr, $f:expr);*) => {$(
            let k = cuprite::elementwise!(|a: $from| -> $to { a as $to });
            let what = concat!(stringify!($from), "->", stringify!($to));
            check1(dev, what, |x| k.call(x), $f, &$vals, 0);
        )*};
    }
    to_half! {
        f32 -> f16: f32s(), f16::from_f32;
        f32 -> bf16: f32s(), bf16::from_f32;
        f64 -> bf16: f64s(), |x: f64| bf16::from_f32(x as f32);
        f64 -> f16: f64s(), f16::from_f64;
        i64 -> bf16: i64s(), |x: i64| bf16::from_f32(x as f32);
        u64 -> bf16: u64s(), |x: u64| bf16::from_f32(x as f32);
        u64 -> f16: u64s(), |x: u64| f16::from_f64(x as f64);
        i8 -> f16: i8s(), |x: i8| f16::from_f64(x as f64);
        u16 -> bf16: u16s(), |x: u16| bf16::from_f32(x as f32);
        f16 -> bf16: f16s(), |x: f16| bf16::from_f32(x.to_f32());
        bf16 -> f16: bf16s(), |x: bf16| f16::from_f32(x.to_f32())
    }
    // Integers: 2049 and 2051 are ties (to even: 2048, 2052), 65519 rounds to MAX, 65520
    // overflows.
    let k = cuprite::elementwise!(|a: i32| -> f16 { a as f16 });
    let a = Array::<i32, B>::from_vec(vec![2049, 2051, 65519, 65520, -65520, 1 << 30], &[6], dev);
    let z: Vec<u16> = k
        .call(&a.unwrap())
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(z, vec![0x6800, 0x6802, 0x7bff, 0x7c00, 0xfc00, 0x7c00]);
    // An f64 rounds once: 1 + 2^-11 + 2^-40 is above the tie between 1 and 1 + 2^-10 (through
    // f32 it would be the tie itself, which goes to 1).
    let k = cuprite::elementwise!(|a: f64| -> f16 { a as f16 });
    let v = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    let a = Array::<f64, B>::from_vec(vec![v, -v, 2f64.powi(-25), 1e-300, -1e300], &[5], dev);
    let z: Vec<u16> = k
        .call(&a.unwrap())
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(z, vec![0x3c01, 0xbc01, 0x0000, 0x0000, 0xfc00]);
}

/// The attribute form with the new types: a function on scalars and its array kernel.
#[cuprite::kernel]
fn half_step(x: f16, n: u64, m: i8) -> bf16 {
    let mut y = x * 2.0;
    y += n as f16;
    (y - (-m) as f16) as bf16
}

fn attribute_kernels_take_every_type<B: ArrayBackend>(dev: &B) {
    let f = |x: f16, n: u64, m: i8| {
        let y = x * f16::from_f32(2.0) + f16::from_f64(n as f64);
        bf16::from_f32((y - f16::from_f32(m.wrapping_neg() as f32)).to_f32())
    };
    assert_eq!(half_step(f16::ONE, 3, 2), bf16::from_f32(7.0));
    // -(-128) wraps to -128; 2^60 overflows f16.
    assert_eq!(half_step(f16::ONE, 3, i8::MIN), bf16::from_f32(133.0));
    assert!(half_step(f16::ONE, 1 << 60, 0).is_infinite());
    let x = Array::from_vec(f16s(), &[f16s().len(), 1, 1], dev).unwrap();
    let n = Array::from_vec(vec![0u64, 1, 70_000, u64::MAX], &[4, 1], dev).unwrap();
    let m = Array::from_vec(vec![0i8, -3, i8::MIN], &[3], dev).unwrap();
    let z = half_step::kernel().call(&x, &n, &m).unwrap();
    assert_eq!(z.shape(), &[f16s().len(), 4, 3]);
    let z = z.to_vec().unwrap();
    let mut i = 0;
    for &xv in &f16s() {
        for nv in [0u64, 1, 70_000, u64::MAX] {
            for mv in [0i8, -3, i8::MIN] {
                let want = f(xv, nv, mv);
                assert!(
                    Val::same(z[i], want, 0),
                    "{xv:?} {nv} {mv}: got {:?}, want {want:?}",
                    z[i]
                );
                i += 1;
            }
        }
    }
}

cuprite::test_backends!(
    attribute_kernels_take_every_type,
    integers_of_every_width_wrap,
    unary_bits_and_shifts_of_every_width,
    integer_methods_of_every_width,
    integer_comparisons_literals_and_casts,
    halfs_round_each_operation,
    half_literals_and_constants,
    half_casts_round_once,
);
