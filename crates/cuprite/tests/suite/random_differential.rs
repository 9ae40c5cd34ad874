//! Cross-backend identity of the random module: the same seed through `Cpu` and `Cuda` gives
//! bit-identical arrays for every distribution (uniform, integers, normal, lognormal,
//! exponential, gamma, beta, Poisson, binomial, permutation, shuffle, choice, and NumPy's
//! other `Generator` distributions: Cauchy, t, chi-square, F and their noncentral forms,
//! Laplace, logistic, Gumbel, Weibull, Pareto, Rayleigh, Wald, triangular, power, von Mises,
//! geometric, negative binomial, Zipf, logarithmic series, hypergeometric, Dirichlet,
//! multinomial, permuted), including after several draws and from spawned generators; the
//! multivariate normal, whose last step is each backend's `matmul`, agrees to rounding. Every
//! test needs a GPU and is `#[ignore]`d: run with `--ignored` on a GPU host.
#![cfg(all(feature = "cpu", feature = "cuda"))]

use cuprite::prelude::*;
use cuprite::random::Generator;
use cuprite::Scalar;

use crate::diff_support::gpu;

/// Bits of an element (floats by their bit patterns, so a signed zero counts).
fn bits<T: Element>(x: T) -> u64 {
    match x.to_scalar() {
        Scalar::F32(v) => v.to_bits() as u64,
        Scalar::F64(v) => v.to_bits(),
        Scalar::U8(v) => v as u64,
        Scalar::I32(v) => v as u32 as u64,
        Scalar::I64(v) => v as u64,
        s => panic!("unexpected {s:?}"),
    }
}

#[track_caller]
fn assert_identical<T: Element>(what: &str, c: Array<T, Cpu>, g: Array<T, Cuda>) {
    assert_eq!(c.shape(), g.shape(), "{what}: shapes");
    let (cv, gv) = (c.to_vec().unwrap(), g.to_vec().unwrap());
    if let Some(i) = (0..cv.len()).find(|&i| bits(cv[i]) != bits(gv[i])) {
        panic!(
            "{what} ({}): first difference at {i} of {}: cpu {:?} vs cuda {:?}",
            T::DTYPE,
            cv.len(),
            cv[i],
            gv[i]
        );
    }
}

/// Runs `$body` with `$g` a generator seeded `$seed` and `$dev` the backend, on both
/// backends, and asserts the results are bit-identical.
macro_rules! identical {
    ($seed:expr, |$g:ident, $dev:ident| $body:expr) => {{
        let cpu = Cpu::new();
        let cuda = gpu();
        let c = {
            let mut $g = Generator::new($seed);
            let $dev = &cpu;
            $body
        };
        let g = {
            let mut $g = Generator::new($seed);
            let $dev = &cuda;
            $body
        };
        assert_identical(stringify!($body), c, g);
    }};
}

/// Sizes: 0-d, empty, odd, not multiples of 4 or of a block, and many blocks.
const SIZES: &[&[usize]] = &[&[], &[0], &[1], &[3], &[5], &[7, 3], &[4099], &[1 << 20, 3]];

fn floats<T: Float>() {
    for (k, size) in SIZES.iter().enumerate() {
        let s = k as u64;
        identical!(s, |g, d| g.random::<T, _>(size, d).unwrap());
        identical!(s, |g, d| g
            .uniform::<T, _>(T::from_f64(-3.0), T::from_f64(0.5), size, d)
            .unwrap());
        identical!(s, |g, d| g.standard_normal::<T, _>(size, d).unwrap());
        identical!(s, |g, d| g.normal::<T, _>(2.0, 0.25, size, d).unwrap());
        identical!(s, |g, d| g.lognormal::<T, _>(0.5, 1.5, size, d).unwrap());
        identical!(s, |g, d| g.exponential::<T, _>(0.3, size, d).unwrap());
        identical!(s, |g, d| g.gamma::<T, _>(0.25, 2.0, size, d).unwrap());
        identical!(s, |g, d| g.gamma::<T, _>(7.5, 1.0, size, d).unwrap());
        identical!(s, |g, d| g.beta::<T, _>(0.3, 0.4, size, d).unwrap());
        identical!(s, |g, d| g.beta::<T, _>(3.0, 1.5, size, d).unwrap());
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_floats_identical_f32() {
    floats::<f32>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_floats_identical_f64() {
    floats::<f64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_integers_identical() {
    for (k, size) in SIZES.iter().enumerate() {
        let s = 100 + k as u64;
        identical!(s, |g, d| g.integers::<u8, _>(3, 200, size, d).unwrap());
        identical!(s, |g, d| g.integers::<i32, _>(-7, 7, size, d).unwrap());
        identical!(s, |g, d| g
            .integers::<i32, _>(i32::MIN, i32::MAX, size, d)
            .unwrap());
        identical!(s, |g, d| g.integers::<i64, _>(0, 1 << 50, size, d).unwrap());
        identical!(s, |g, d| g
            .integers::<i64, _>(i64::MIN, i64::MAX, size, d)
            .unwrap());
        identical!(s, |g, d| g.poisson(2.5, size, d).unwrap());
        identical!(s, |g, d| g.poisson(55.0, size, d).unwrap());
        identical!(s, |g, d| g.binomial(30, 0.4, size, d).unwrap());
        identical!(s, |g, d| g.binomial(1 << 30, 0.6, size, d).unwrap());
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_permutations_and_choices_identical() {
    for n in [0usize, 1, 5, 4099, 300_001] {
        identical!(n as u64, |g, d| g.permutation(n, d).unwrap());
    }
    identical!(1, |g, d| {
        let mut x = Array::<f64, _>::arange(0.0, 40.0, 1.0, d)
            .unwrap()
            .reshape(&[10, 4])
            .unwrap();
        g.shuffle(&mut x).unwrap();
        x
    });
    let p = [0.05, 0.0, 0.25, 0.3, 0.4];
    identical!(2, |g, d| g
        .choice_index(5, &[1000, 3], true, Some(&p), d)
        .unwrap());
    identical!(3, |g, d| g
        .choice_index(5, &[3], false, Some(&p), d)
        .unwrap());
    identical!(4, |g, d| g
        .choice_index(10_000, &[77], false, None, d)
        .unwrap());
    identical!(5, |g, d| g.choice_index(9, &[4097], true, None, d).unwrap());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_state_and_spawn_identical() {
    identical!(7, |g, d| {
        g.random::<f64, _>(&[13], d).unwrap();
        g.poisson(3.0, &[5], d).unwrap();
        g.gamma::<f32, _>(2.0, 1.0, &[1001], d).unwrap()
    });
    identical!(8, |g, d| {
        let mut kid = g.spawn(3)[2];
        kid.integers::<i64, _>(-5, 5, &[999], d).unwrap()
    });
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn multivariate_normal_agrees_to_rounding() {
    let mean = [1.0, -2.0, 0.5];
    let cov = [4.0, 1.2, 0.0, 1.2, 1.0, -0.3, 0.0, -0.3, 0.5];
    let c = Generator::new(9)
        .multivariate_normal::<f64, _>(&mean, &cov, &[1000, 7], &Cpu::new())
        .unwrap();
    let g = Generator::new(9)
        .multivariate_normal::<f64, _>(&mean, &cov, &[1000, 7], &gpu())
        .unwrap();
    assert_eq!(c.shape(), g.shape());
    let (cv, gv) = (c.to_vec().unwrap(), g.to_vec().unwrap());
    for (i, (a, b)) in cv.iter().zip(&gv).enumerate() {
        assert!(
            (a - b).abs() <= 1e-12 * (1.0 + a.abs()),
            "{i}: cpu {a} vs cuda {b}"
        );
    }
}

fn more_floats<T: Float>() {
    for (k, size) in SIZES.iter().enumerate() {
        let s = 200 + k as u64;
        identical!(s, |g, d| g.standard_exponential::<T, _>(size, d).unwrap());
        identical!(s, |g, d| g.standard_gamma::<T, _>(0.4, size, d).unwrap());
        identical!(s, |g, d| g.standard_cauchy::<T, _>(size, d).unwrap());
        identical!(s, |g, d| g.standard_t::<T, _>(2.5, size, d).unwrap());
        identical!(s, |g, d| g.chisquare::<T, _>(0.8, size, d).unwrap());
        identical!(s, |g, d| g
            .noncentral_chisquare::<T, _>(3.0, 2.0, size, d)
            .unwrap());
        identical!(s, |g, d| g
            .noncentral_chisquare::<T, _>(0.6, 1.0, size, d)
            .unwrap());
        identical!(s, |g, d| g.f::<T, _>(4.0, 9.0, size, d).unwrap());
        identical!(s, |g, d| g
            .noncentral_f::<T, _>(2.0, 6.0, 3.0, size, d)
            .unwrap());
        identical!(s, |g, d| g.laplace::<T, _>(1.0, 0.5, size, d).unwrap());
        identical!(s, |g, d| g.logistic::<T, _>(-2.0, 3.0, size, d).unwrap());
        identical!(s, |g, d| g.gumbel::<T, _>(0.0, 1.5, size, d).unwrap());
        identical!(s, |g, d| g.weibull::<T, _>(0.8, size, d).unwrap());
        identical!(s, |g, d| g.pareto::<T, _>(1.5, size, d).unwrap());
        identical!(s, |g, d| g.rayleigh::<T, _>(2.0, size, d).unwrap());
        identical!(s, |g, d| g.wald::<T, _>(1.5, 0.4, size, d).unwrap());
        identical!(s, |g, d| g
            .triangular::<T, _>(-1.0, 0.3, 2.0, size, d)
            .unwrap());
        identical!(s, |g, d| g.power::<T, _>(0.7, size, d).unwrap());
        identical!(s, |g, d| g.vonmises::<T, _>(2.0, 3.5, size, d).unwrap());
        identical!(s, |g, d| g.vonmises::<T, _>(-1.0, 2e-6, size, d).unwrap());
        identical!(s, |g, d| g.vonmises::<T, _>(3.0, 5e6, size, d).unwrap());
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn more_random_floats_identical_f32() {
    more_floats::<f32>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn more_random_floats_identical_f64() {
    more_floats::<f64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn more_random_discrete_identical() {
    for (k, size) in SIZES.iter().enumerate() {
        let s = 300 + k as u64;
        identical!(s, |g, d| g.geometric(0.45, size, d).unwrap());
        identical!(s, |g, d| g.geometric(0.002, size, d).unwrap());
        identical!(s, |g, d| g.negative_binomial(3.5, 0.25, size, d).unwrap());
        identical!(s, |g, d| g.zipf(1.3, size, d).unwrap());
        identical!(s, |g, d| g.logseries(0.99, size, d).unwrap());
        identical!(s, |g, d| g.hypergeometric(12, 9, 6, size, d).unwrap());
        identical!(s, |g, d| g
            .hypergeometric(50_000, 70_000, 9_000, size, d)
            .unwrap());
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn composed_draws_identical() {
    identical!(10, |g, d| g.dirichlet(&[0.5, 2.0, 1.0], &[999], d).unwrap());
    identical!(11, |g, d| g
        .dirichlet(&[0.01, 0.05, 0.02, 0.0], &[3, 333], d)
        .unwrap());
    identical!(12, |g, d| g
        .multinomial(25, &[0.1, 0.6, 0.3], &[777], d)
        .unwrap());
    identical!(13, |g, d| {
        let x = Array::<f64, _>::arange(0.0, 600.0, 1.0, d)
            .unwrap()
            .reshape(&[20, 30])
            .unwrap();
        g.permuted(&x, Some(1)).unwrap()
    });
    identical!(14, |g, d| {
        let x = Array::<i32, _>::arange(0, 4099, 1, d).unwrap();
        g.permuted(&x, None).unwrap()
    });
}
