//! Kernels written in Rust against the same computation made of cuprite's array operations,
//! on every backend, one random input per element type beyond bool, u8, i32, i64, f32, f64
//! (bit for bit: the array operations have the kernels' semantics: wrapping integers, `fmod`
//! by zero 0, each 16-bit float operation in f32 rounded once); and, where both backends are
//! compiled, the same kernels on the CPU and on the GPU with the same random inputs: the
//! results agree bit for bit for arithmetic, comparisons and casts, and within a few ulps for
//! transcendental functions.

#![allow(clippy::redundant_closure_call)]

use super::support::{Rng, Val};
use cuprite::prelude::*;

/// Elements per random input (not a multiple of the GPU's block size).
const N: usize = 10_007;

/// Checks that the kernel's result and the array operations' one are the same bits (any NaN
/// equal to any NaN).
#[track_caller]
fn same_as_ops<T: Val, D: ArrayBackend>(
    what: &str,
    k: Result<Array<T, D>>,
    ops: Result<Array<T, D>>,
) {
    let (k, o) = (k.unwrap(), ops.unwrap());
    assert_eq!(k.shape(), o.shape(), "{what}: shapes");
    let (k, o) = (k.to_vec().unwrap(), o.to_vec().unwrap());
    for (i, (x, y)) in k.iter().zip(&o).enumerate() {
        assert!(
            T::same(*x, *y, 0),
            "{what}: element {i}: kernel {x:?}, array ops {y:?}"
        );
    }
}

/// Two random inputs of `n` values made by `f` from random words.
fn inputs<T: Element, D: ArrayBackend>(
    seed: u64,
    dev: &D,
    f: impl Fn(u64) -> T,
) -> (Array<T, D>, Array<T, D>) {
    let mut rng = Rng::new(seed);
    let a = Array::from_vec(rng.values(N, &f), &[N], dev).unwrap();
    let b = Array::from_vec(rng.values(N, &f), &[N], dev).unwrap();
    (a, b)
}

fn i8_matches_array_ops<B: ArrayBackend>(dev: &B) {
    let (a, b) = inputs(1, dev, |w| (w >> 56) as i8);
    let k = cuprite::elementwise!(|a: i8, b: i8| -> i8 { (a * b + a - b) ^ (a % b) });
    let ops = (|| {
        a.try_mul(&b)?
            .try_add(&a)?
            .try_sub(&b)?
            .bitwise_xor(&a.fmod(&b)?)
    })();
    same_as_ops("i8", k.call(&a, &b), ops);
}

fn i16_matches_array_ops<B: ArrayBackend>(dev: &B) {
    let (a, b) = inputs(2, dev, |w| (w >> 48) as i16);
    let three = Array::<i16, B>::scalar(3, dev).unwrap();
    let k = cuprite::elementwise!(|a: i16, b: i16| -> i16 { -(a * 3) + ((a & b) | (b >> 3)) });
    let ops = (|| {
        let bits = a.bitwise_and(&b)?.bitwise_or(&b.right_shift(&three)?)?;
        a.try_mul(&three)?.try_neg()?.try_add(&bits)
    })();
    same_as_ops("i16", k.call(&a, &b), ops);
}

fn u16_matches_array_ops<B: ArrayBackend>(dev: &B) {
    let (a, b) = inputs(3, dev, |w| (w >> 48) as u16);
    let one = Array::<u16, B>::scalar(1, dev).unwrap();
    let k = cuprite::elementwise!(|a: u16, b: u16| -> u16 { (a - b) / (b | 1) + a.max(b) });
    let ops = (|| {
        let q = a.try_sub(&b)?.floor_divide(&b.bitwise_or(&one)?)?;
        q.try_add(&a.maximum(&b)?)
    })();
    same_as_ops("u16", k.call(&a, &b), ops);
}

fn u32_matches_array_ops<B: ArrayBackend>(dev: &B) {
    // Small divisors too, some of them 0.
    let (a, b) = inputs(4, dev, |w| {
        if w & 3 == 0 {
            (w >> 60) as u32
        } else {
            (w >> 32) as u32
        }
    });
    let seven = Array::<u32, B>::scalar(7, dev).unwrap();
    let k = cuprite::elementwise!(|a: u32, b: u32| -> u32 { a * b - (a << 7) + a % b });
    let ops = (|| {
        a.try_mul(&b)?
            .try_sub(&a.left_shift(&seven)?)?
            .try_add(&a.fmod(&b)?)
    })();
    same_as_ops("u32", k.call(&a, &b), ops);
}

fn u64_matches_array_ops<B: ArrayBackend>(dev: &B) {
    // Half the values above i64::MAX.
    let (a, b) = inputs(5, dev, |w| w);
    let forty = Array::<u64, B>::scalar(40, dev).unwrap();
    let k = cuprite::elementwise!(|a: u64, b: u64| -> u64 { a * b + a / (b >> 40) - !a });
    let ops = (|| {
        let q = a.floor_divide(&b.right_shift(&forty)?)?;
        a.try_mul(&b)?.try_add(&q)?.try_sub(&a.invert()?)
    })();
    same_as_ops("u64", k.call(&a, &b), ops);
    let k = cuprite::elementwise!(|a: u64, b: u64| -> bool { a > b });
    same_as_ops("u64 >", k.call(&a, &b), a.gt(&b));
}

/// Random 16-bit float bits: every value of the type is as likely (NaNs, infinities,
/// subnormals and signed zeros included), or, one time in two, a value in [-300, 300) so
/// that the arithmetic is not dominated by overflow.
fn half_bits(w: u64, scale: f32) -> (u16, f32) {
    let x = ((w >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
    (w as u16, x)
}

fn f16_matches_array_ops<B: ArrayBackend>(dev: &B) {
    let f = |w: u64| match half_bits(w, 300.0) {
        (b, _) if w >> 63 == 0 => f16::from_bits(b),
        (_, x) => f16::from_f32(x),
    };
    let (a, b) = inputs(6, dev, f);
    let k = cuprite::elementwise!(|a: f16, b: f16| -> f16 { (a * b + a / b).sqrt() - b });
    let ops = (|| a.try_mul(&b)?.try_add(&a.try_div(&b)?)?.sqrt()?.try_sub(&b))();
    same_as_ops("f16", k.call(&a, &b), ops);
    let k = cuprite::elementwise!(|a: f16| -> i16 { a as i16 });
    same_as_ops("f16 as i16", k.call(&a), a.astype::<i16>());
    let k = cuprite::elementwise!(|a: f16| -> bf16 { a as bf16 });
    same_as_ops("f16 as bf16", k.call(&a), a.astype::<bf16>());
}

fn bf16_matches_array_ops<B: ArrayBackend>(dev: &B) {
    let f = |w: u64| match half_bits(w, 1e30) {
        (b, _) if w >> 63 == 0 => bf16::from_bits(b),
        (_, x) => bf16::from_f32(x),
    };
    let (a, b) = inputs(7, dev, f);
    let k = cuprite::elementwise!(|a: bf16, b: bf16| -> f32 {
        (a * b - a % b) as f32 + (a / b) as f32
    });
    let ops = (|| {
        let l = a.try_mul(&b)?.try_sub(&a.fmod(&b)?)?.astype::<f32>()?;
        l.try_add(&a.try_div(&b)?.astype::<f32>()?)
    })();
    same_as_ops("bf16", k.call(&a, &b), ops);
    // f64 to bf16 goes through f32, as astype does.
    let mut rng = Rng::new(8);
    let x: Vec<f64> = rng.values(N, f64::from_bits);
    let x = Array::<f64, B>::from_vec(x, &[N], dev).unwrap();
    let k = cuprite::elementwise!(|a: f64| -> bf16 { a as bf16 });
    same_as_ops("f64 as bf16", k.call(&x), x.astype::<bf16>());
}

cuprite::test_backends!(
    i8_matches_array_ops,
    i16_matches_array_ops,
    u16_matches_array_ops,
    u32_matches_array_ops,
    u64_matches_array_ops,
    f16_matches_array_ops,
    bf16_matches_array_ops,
);

/// The same kernels on the CPU and on the GPU.
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod cpu_cuda {
    use super::super::support::Val;
    use crate::diff_support::{on_both, Rng};
    use cuprite::prelude::*;

    #[track_caller]
    fn agree<T: Val>(what: &str, c: Result<Array<T, Cpu>>, g: Result<Array<T, Cuda>>, ulps: u64) {
        let (c, g) = (c.unwrap(), g.unwrap());
        assert_eq!(c.shape(), g.shape(), "{what}: shapes");
        let (c, g) = (c.to_vec().unwrap(), g.to_vec().unwrap());
        for (i, (x, y)) in c.iter().zip(&g).enumerate() {
            assert!(
                T::same(*x, *y, ulps),
                "{what}: element {i}: cpu {x:?}, cuda {y:?}"
            );
        }
    }

    #[test]
    #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
    fn cpu_and_cuda_agree_on_random_inputs() {
        let mut rng = Rng::new(7);
        let n = 100_003;
        let x: Vec<f32> = rng.uniform(n, 10.0);
        let y: Vec<f32> = rng.uniform(n, 10.0);
        let i: Vec<i32> = rng
            .uniform::<f64>(n, 3e9)
            .iter()
            .map(|v| *v as i32)
            .collect();
        let j: Vec<i64> = rng
            .uniform::<f64>(n, 1e18)
            .iter()
            .map(|v| (*v as i64) % 1000)
            .collect();

        let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 {
            if x - 2.0 > y {
                x * y
            } else {
                x + y
            }
        });
        let (c, g) = on_both!(|dev| {
            let a = Array::<f32, _>::from_vec(x.clone(), &[n], dev)?;
            let b = Array::<f32, _>::from_vec(y.clone(), &[n], dev)?;
            k.call(&a, &b)
        });
        agree("notebook", c, g, 0);

        let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 { x * y + x / y - (x % y) });
        let (c, g) = on_both!(|dev| {
            let a = Array::<f32, _>::from_vec(x.clone(), &[n], dev)?.slice(&s![..;-1])?;
            let b = Array::<f32, _>::from_vec(y.clone(), &[n], dev)?;
            k.call(&a, &b)
        });
        agree("arithmetic (reversed view)", c, g, 0);

        let k = cuprite::elementwise!(|a: i32, b: i64| -> i64 {
            (a as i64) * b / (b - 3) + (a % 7) as i64 - (a << 3) as i64
        });
        let (c, g) = on_both!(|dev| {
            let a = Array::<i32, _>::from_vec(i.clone(), &[n], dev)?;
            let b = Array::<i64, _>::from_vec(j.clone(), &[n], dev)?;
            k.call(&a, &b)
        });
        agree("integers", c, g, 0);

        let k = cuprite::elementwise!(|x: f32| -> i32 { (x * 1e9) as i32 + (x as u8) as i32 });
        let (c, g) = on_both!(|dev| k.call(&Array::<f32, _>::from_vec(x.clone(), &[n], dev)?));
        agree("casts", c, g, 0);

        // Products, not sums: a sum of terms of a few ulps each can cancel to any relative error.
        let k = cuprite::elementwise!(|x: f32, y: f32| -> f32 {
            x.sin() * y.exp() * x.atan2(y) * x.abs().sqrt()
        });
        let (c, g) = on_both!(|dev| {
            let a = Array::<f32, _>::from_vec(x[..1000].to_vec(), &[1000, 1], dev)?;
            let b = Array::<f32, _>::from_vec(y[..300].to_vec(), &[300], dev)?;
            k.call(&a, &b)
        });
        agree("transcendental (broadcast)", c, g, 8);

        let k = cuprite::elementwise!(|x: f64, y: f64| -> f64 {
            x.tanh() * y.abs().ln_1p().cbrt() * x.hypot(y) * x.powi(3)
        });
        let xd: Vec<f64> = x.iter().map(|v| *v as f64).collect();
        let yd: Vec<f64> = y.iter().map(|v| *v as f64).collect();
        let (c, g) = on_both!(|dev| {
            let a = Array::<f64, _>::from_vec(xd.clone(), &[n], dev)?;
            let b = Array::<f64, _>::from_vec(yd.clone(), &[n], dev)?;
            k.call(&a, &b)
        });
        agree("f64 transcendental", c, g, 8);
    }

    #[test]
    #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
    fn cpu_and_cuda_agree_on_every_width_and_the_halfs() {
        let mut rng = Rng::new(11);
        let n = 100_003;
        let w: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        let v: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        // Every bit pattern of the 16-bit floats is as likely: NaNs, infinities, subnormals.
        let h = |s: &[u64]| {
            s.iter()
                .map(|x| f16::from_bits(*x as u16))
                .collect::<Vec<_>>()
        };
        let g = |s: &[u64]| {
            s.iter()
                .map(|x| bf16::from_bits(*x as u16))
                .collect::<Vec<_>>()
        };
        let (ha, hb, ga, gb) = (h(&w), h(&v), g(&w), g(&v));
        let d: Vec<f64> = v
            .iter()
            .map(|x| (*x >> 11) as f64 / (1u64 << 53) as f64 * 2e5 - 1e5)
            .collect();

        let k = cuprite::elementwise!(|a: i8, b: u16, c: u64| -> u64 {
            ((a * 3) as u16 / b) as u64 + c % (b as u64) - (-c >> 7) + (a as i16 >> 2) as u64
        });
        let (c, gg) = on_both!(|dev| {
            let a =
                Array::<i8, _>::from_vec(w.iter().map(|x| (x >> 56) as i8).collect(), &[n], dev)?;
            let b =
                Array::<u16, _>::from_vec(v.iter().map(|x| (x >> 48) as u16).collect(), &[n], dev)?;
            let c = Array::<u64, _>::from_vec(w.clone(), &[n], dev)?.slice(&s![..;-1])?;
            k.call(&a, &b, &c)
        });
        agree("integers", c, gg, 0);

        macro_rules! halfs {
            ($what:literal, $ulps:expr, $a:expr, $b:expr, $k:expr) => {
                let k = $k;
                let (c, gg) = on_both!(|dev| {
                    let a = Array::from_vec($a.clone(), &[n], dev)?;
                    let b = Array::from_vec($b.clone(), &[n], dev)?;
                    k.call(&a, &b)
                });
                agree($what, c, gg, $ulps);
            };
        }
        halfs!(
            "f16 arithmetic",
            0,
            ha,
            hb,
            cuprite::elementwise!(|a: f16, b: f16| -> f16 { a * b - a / b + a % b - -a })
        );
        halfs!(
            "bf16 arithmetic",
            0,
            ga,
            gb,
            cuprite::elementwise!(|a: bf16, b: bf16| -> bf16 { a * b - a / b + a % b - -a })
        );
        halfs!(
            "f16 exact methods",
            0,
            ha,
            hb,
            cuprite::elementwise!(|a: f16, b: f16| -> f16 {
                a.sqrt()
                    + a.floor() * b.min(a)
                    + a.mul_add(b, 1.5)
                    + a.recip()
                    + a.copysign(b).abs()
            })
        );
        halfs!(
            "bf16 exact methods",
            0,
            ga,
            gb,
            cuprite::elementwise!(|a: bf16, b: bf16| -> bf16 {
                a.round() - a.trunc() * b.max(a)
                    + a.fract()
                    + a.signum()
                    + a.to_degrees()
                    + a.powi(2)
            })
        );
        halfs!(
            "f16 predicates",
            0,
            ha,
            hb,
            cuprite::elementwise!(|a: f16, b: f16| -> bool {
                a.is_nan() || a.is_infinite() && b.is_sign_negative() || a < b
            })
        );
        halfs!(
            "f16 atan2",
            1,
            ha,
            hb,
            cuprite::elementwise!(|a: f16, b: f16| -> f16 { a.atan2(b) })
        );
        halfs!(
            "bf16 powf",
            1,
            ga,
            gb,
            cuprite::elementwise!(|a: bf16, b: bf16| -> bf16 { a.powf(b) })
        );
        halfs!(
            "f16 ln",
            1,
            ha,
            hb,
            cuprite::elementwise!(|a: f16, _b: f16| -> f16 { a.ln() })
        );
        halfs!(
            "bf16 tanh",
            1,
            ga,
            gb,
            cuprite::elementwise!(|a: bf16, _b: bf16| -> bf16 { a.tanh() })
        );

        let k = cuprite::elementwise!(|a: f16, b: bf16, x: f64, c: u64| -> f16 {
            a + x as f16 + (b as f16) * (c as f16) + (x as bf16) as f16 + (a as i8) as f16
        });
        let (c, gg) = on_both!(|dev| {
            let a = Array::from_vec(ha.clone(), &[n], dev)?;
            let b = Array::from_vec(gb.clone(), &[n], dev)?;
            let x = Array::from_vec(d.clone(), &[n], dev)?;
            let c = Array::from_vec(v.iter().map(|x| x >> 50).collect::<Vec<u64>>(), &[n], dev)?;
            k.call(&a, &b, &x, &c)
        });
        agree("casts", c, gg, 0);
    }
}
