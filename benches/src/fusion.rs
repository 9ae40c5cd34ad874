//! The fusion group behind `cargo xtask bench --group fusion`: element-wise chains, a chain
//! ending in a reduction, softmax, a normalisation and a stencil step, each timed on a
//! backend `B` and on `Fused<B>` (the same generic function), beside the Python anchors of
//! `scripts/bench_fusion.py` (NumPy and numexpr on the CPU; CuPy eager, `cupy.fuse` and
//! `jax.jit` on the GPU) run in the same process tree.
//!
//! Every case is a function generic over `B: ArrayBackend` written as its NumPy line; the
//! timed region is the call then `synchronize()` (which evaluates what `Fused<B>` left
//! pending), wall clock, median of the runs after a warm-up. The fused result is checked
//! against the unfused one before anything is timed.

use cuprite::ops::{Add, Mul, Square, Sub};
use cuprite::{s, Array, ArrayBackend, Element, Float, Result, TrueDivide};

/// The element types of the cases (f32, f64): floats whose means, standard deviations and
/// quotients are of their own type.
pub trait Real: Float + TrueDivide + Element<Mean = Self, Real = Self> {}
impl Real for f32 {}
impl Real for f64 {}

/// One case: its key, its NumPy form, and the sizes it runs at.
#[derive(Clone, Copy, Debug)]
pub struct FusionCase {
    /// The key (`chain`, `sumsq`, ...), the Python script's too.
    pub key: &'static str,
    /// The NumPy line it times.
    pub numpy: &'static str,
}

/// The cases, in table order.
pub const CASES: &[FusionCase] = &[
    FusionCase {
        key: "copy",
        numpy: "y = x.copy()  (the bandwidth reference: one read, one write)",
    },
    FusionCase {
        key: "seed",
        numpy: "x *= 5; x *= x; x += x  (in place)",
    },
    FusionCase {
        key: "chain10",
        numpy: "((((((((x*1.5 + y)*x - 0.5)*y + x)*0.25 - y)**2) + 1",
    },
    FusionCase {
        key: "chain",
        numpy: "(x*y + x - y)*0.5 + x*x",
    },
    FusionCase {
        key: "chain_small",
        numpy: "(x*y + x - y)*0.5 + x*x  at 4096 elements",
    },
    FusionCase {
        key: "sumsq",
        numpy: "np.sum((x - y)**2)",
    },
    FusionCase {
        key: "softmax",
        numpy: "e = np.exp(x - x.max(axis=1, keepdims=True)); e / e.sum(axis=1, keepdims=True)",
    },
    FusionCase {
        key: "normalise",
        numpy: "(m - m.mean(axis=0)) / m.std(axis=0)",
    },
    FusionCase {
        key: "stencil",
        numpy: "0.2*(a[1:-1,1:-1] + a[:-2,1:-1] + a[2:,1:-1] + a[1:-1,:-2] + a[1:-1,2:])",
    },
];

/// The number of elements of each input of `key` for a base size `n` (a power of two):
/// the seed chain runs on `seed_n`, the small chain on 4096, 2-d cases on rows of 1024.
pub fn shape_of(key: &str, n: usize, seed_n: usize) -> Vec<usize> {
    match key {
        "seed" => vec![seed_n],
        "chain_small" => vec![4096],
        "softmax" | "normalise" => vec![n / 1024, 1024],
        "stencil" => {
            let side = (n as f64).sqrt() as usize;
            vec![side, side]
        }
        _ => vec![n],
    }
}

/// Deterministic values in [0.5, 1.5): nothing overflows or underflows in any case.
fn input<T: Real, B: ArrayBackend>(shape: &[usize], seed: u64, dev: &B) -> Result<Array<T, B>> {
    let n: usize = shape.iter().product();
    let mut s = seed;
    let v: Vec<T> = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            T::from_f64(0.5 + (s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect();
    Array::from_vec(v, shape, dev)
}

/// The inputs of a case: `x`, `y` of its shape.
pub struct Inputs<T: Real, B: ArrayBackend> {
    x: Array<T, B>,
    y: Array<T, B>,
}

impl<T: Real, B: ArrayBackend> Inputs<T, B> {
    /// Deterministic inputs of `shape` on `dev`.
    pub fn new(shape: &[usize], dev: &B) -> Result<Self> {
        Ok(Inputs {
            x: input(shape, 1, dev)?,
            y: input(shape, 2, dev)?,
        })
    }
}

/// Runs case `key` once (the timed region but the synchronisation): its result.
// NumPy's negative slice ends (`1..-1`) read as empty ranges to clippy.
#[allow(clippy::reversed_empty_ranges)]
pub fn run<T: Real, B: ArrayBackend>(key: &str, i: &Inputs<T, B>) -> Result<Array<T, B>> {
    let c = |v: f64| T::from_f64(v);
    let (x, y) = (&i.x, &i.y);
    match key {
        "copy" => x.copy(),
        "seed" => {
            let mut x = x.copy()?;
            seed(&mut x)?;
            Ok(x)
        }
        "chain10" => {
            let t = x.scalar_op(Mul, c(1.5))?.try_add(y)?.try_mul(x)?;
            let t = t.scalar_op(Sub, c(0.5))?.try_mul(y)?.try_add(x)?;
            let t = t.scalar_op(Mul, c(0.25))?.try_sub(y)?;
            t.try_mul(&t)?.scalar_op(Add, c(1.0))
        }
        "chain" | "chain_small" => x
            .try_mul(y)?
            .try_add(x)?
            .try_sub(y)?
            .scalar_op(Mul, c(0.5))?
            .try_add(&x.try_mul(x)?),
        "sumsq" => {
            let d = x.try_sub(y)?;
            d.try_mul(&d)?.sum()
        }
        "softmax" => {
            let m = x.max_axes(1, true)?;
            let e = x.try_sub(&m)?.exp()?;
            let s = e.sum_axes(1, true)?;
            e.try_div(&s)
        }
        "normalise" => {
            let mean = x.mean_axes(0, true)?;
            let std = x.std_axes(0, 0.0, true)?;
            x.try_sub(&mean)?.try_div(&std)
        }
        "stencil" => {
            let a = x;
            let t = a
                .slice(&s![1..-1, 1..-1])?
                .try_add(&a.slice(&s![..-2, 1..-1])?)?
                .try_add(&a.slice(&s![2.., 1..-1])?)?
                .try_add(&a.slice(&s![1..-1, ..-2])?)?
                .try_add(&a.slice(&s![1..-1, 2..])?)?;
            t.scalar_op(Mul, c(0.2))
        }
        other => Err(cuprite::Error::invalid(
            "bench fusion",
            format!("unknown case {other}"),
        )),
    }
}

/// The seed chain in place: `x *= 5; x *= x; x += x` (`x * x` as a square and `x + x` as
/// `2 * x`, the same values, so that no operand is a second view of the target).
pub fn seed<T: Real, B: ArrayBackend>(x: &mut Array<T, B>) -> Result<()> {
    x.scalar_op_inplace(Mul, T::from_f64(5.0))?;
    x.map_op_inplace(Square)?;
    x.scalar_op_inplace(Mul, T::from_f64(2.0))
}

/// Runs `key` on `dev` (inputs `i`) `runs` times after two warm-ups: the median wall-clock
/// seconds of the call and its synchronisation. The seed chain gets a fresh copy of `x`
/// before every run, untimed.
pub fn time<T: Real, B: ArrayBackend>(
    key: &str,
    i: &Inputs<T, B>,
    dev: &B,
    runs: usize,
) -> Result<f64> {
    let mut times = Vec::with_capacity(runs);
    for r in 0..runs + 2 {
        let dt = if key == "seed" {
            let mut x = i.x.copy()?;
            dev.synchronize()?;
            let t = std::time::Instant::now();
            seed(&mut x)?;
            dev.synchronize()?;
            t.elapsed().as_secs_f64()
        } else {
            dev.synchronize()?;
            let t = std::time::Instant::now();
            let out = run(key, i)?;
            dev.synchronize()?;
            let dt = t.elapsed().as_secs_f64();
            drop(out);
            dt
        };
        if r >= 2 {
            times.push(dt);
        }
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// The largest relative difference between two results (0 when equal, NaNs equal).
pub fn max_rel_diff<T: Real>(a: &[T], b: &[T]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&p, &q)| {
            let (p, q) = (p.to_f64().unwrap_or(0.0), q.to_f64().unwrap_or(0.0));
            if p == q || (p.is_nan() && q.is_nan()) {
                0.0
            } else {
                (p - q).abs() / p.abs().max(q.abs()).max(1e-30)
            }
        })
        .fold(
            if a.len() == b.len() {
                0.0
            } else {
                f64::INFINITY
            },
            f64::max,
        )
}
