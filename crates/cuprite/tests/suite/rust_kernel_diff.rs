//! Kernels written in Rust on the CPU and on the GPU with the same random inputs: the
//! results agree bit for bit for arithmetic, comparisons and casts, and within a few ulps
//! for transcendental functions.

#![allow(clippy::redundant_closure_call)]

use super::support::Val;
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
