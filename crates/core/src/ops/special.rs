//! The f64 mathematics behind the special functions of the [registry](super::registry)
//! (scipy.special's `erf`, `erfc`, `erfinv`, `erfcinv`, `gamma`, `gammaln`, `digamma`,
//! `expit`, `logit`, `log_expit`, `entr`, `xlogy`, `xlog1py`, `beta`, `betaln`), with
//! scipy's values at the edges (zeros of either sign, infinities, NaN, the poles of gamma).
//!
//! Every float type computes them in f64 and rounds once, as scipy's float32 loops do (they
//! call the double routines); the 16-bit floats come through the registry as f32. The CUDA
//! functors of `kernels/src/ops.cuh` compute the same way: `erf`, `erfc`, `tgamma`,
//! `lgamma`, `erfinv` and `erfcinv` from CUDA's math library (the host takes the first four
//! from the `libm` crate and computes the inverses by Halley's iteration on `erf`/`erfc`),
//! so those ops are declared `Approx`; `digamma`, `beta` and `betaln` are the algorithms
//! below, written identically in both places (cephes' `psi` with Boost's rational
//! approximation on `[1, 2]`, cephes' `beta`/`lbeta`).

use std::f64::consts::{FRAC_2_SQRT_PI, PI};

/// `sqrt(pi)`.
const SQRT_PI: f64 = 1.772_453_850_905_516;

/// The error function.
#[inline]
pub(super) fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// The complementary error function `1 - erf(x)`, accurate where `erf(x)` is near 1.
#[inline]
pub(super) fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}

/// Gamma: `±inf` at `±0`, NaN at the negative integers and at `-inf` (C's `tgamma`, scipy's
/// `gamma`).
#[inline]
pub(super) fn gamma(x: f64) -> f64 {
    libm::tgamma(x)
}

/// `ln|gamma(x)|`: `+inf` at the poles, `-inf` at `-inf` (scipy's `gammaln`; C's `lgamma`
/// gives `+inf` there).
#[inline]
pub(super) fn gammaln(x: f64) -> f64 {
    if x == f64::NEG_INFINITY {
        return x;
    }
    libm::lgamma(x)
}

/// Giles' single-precision approximation of `erfinv(x)` from `w = -ln((1 - x)(1 + x))`
/// (the starting point of the iterations; relative error about 1e-7 for `w < 5`).
#[inline]
fn erfinv_guess(x: f64, w: f64) -> f64 {
    let w = w - 2.5;
    let mut p = 2.810_226_36e-08;
    p = 3.432_739_39e-07 + p * w;
    p = -3.523_387_7e-06 + p * w;
    p = -4.391_506_54e-06 + p * w;
    p = 0.000_218_580_87 + p * w;
    p = -0.001_253_725_03 + p * w;
    p = -0.004_177_681_64 + p * w;
    p = 0.246_640_727 + p * w;
    p = 1.501_409_41 + p * w;
    p * x
}

/// `erfinv(x)` for `0 < |x| <= 0.5`: Halley's iteration on `erf(y) - x` (cubic convergence
/// from the 1e-7 guess; `erf` is accurate to the last bit relatively there).
fn erfinv_central(x: f64) -> f64 {
    let mut y = erfinv_guess(x, -libm::log1p(-x * x));
    for _ in 0..3 {
        let t = (erf(y) - x) / (FRAC_2_SQRT_PI * libm::exp(-y * y));
        let next = y - t / (1.0 + y * t);
        if next == y || next.is_nan() {
            break;
        }
        y = next;
    }
    y
}

/// `erfcx(y) = exp(y^2) erfc(y)` for `y >= 25` from its asymptotic series (seven terms:
/// relative error below 1e-16 there).
fn erfcx_large(y: f64) -> f64 {
    let z = 1.0 / (2.0 * y * y);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..7 {
        term *= -((2 * k - 1) as f64) * z;
        sum += term;
    }
    sum / (y * SQRT_PI)
}

/// `erfcinv(q)` for `0 < q <= 0.5` (results from 0.4769 up): Halley's iteration on
/// `erfc(y) - q`, and for `q < 1e-280` (where `erfc` of the iterates leaves the normal
/// range) Newton's on `ln erfc(y) - ln q` with `ln erfc(y) = -y^2 + ln erfcx(y)`.
fn erfcinv_tail(q: f64) -> f64 {
    // ln(q) = ln(erfc(y)) ~ -y^2 - ln(y sqrt(pi)): two fixed-point steps from sqrt(-ln q).
    let lq = libm::log(q);
    let asymptotic = || {
        let y = (-lq).sqrt();
        (-lq - libm::log(y * SQRT_PI)).sqrt()
    };
    if q < 1e-280 {
        let mut y = asymptotic();
        for _ in 0..6 {
            let e = erfcx_large(y);
            let g = -y * y + libm::log(e) - lq;
            let next = y + g * e / FRAC_2_SQRT_PI;
            if next == y {
                break;
            }
            y = next;
        }
        return y;
    }
    let w = -libm::log(q * (2.0 - q));
    let mut y = if w < 5.0 {
        erfinv_guess(1.0 - q, w)
    } else {
        asymptotic()
    };
    for _ in 0..8 {
        let t = (erfc(y) - q) / (-FRAC_2_SQRT_PI * libm::exp(-y * y));
        let next = y - t / (1.0 + y * t);
        if next == y || next.is_nan() {
            break;
        }
        y = next;
    }
    y
}

/// The inverse error function on `[-1, 1]`: `±inf` at `±1`, NaN outside, `+0.0` for either
/// zero (scipy's `erfinv`, Boost's `erf_inv`).
pub(super) fn erfinv(x: f64) -> f64 {
    let a = x.abs();
    if x.is_nan() || a > 1.0 {
        return f64::NAN;
    }
    if a == 1.0 {
        return f64::INFINITY.copysign(x);
    }
    if x == 0.0 {
        return 0.0;
    }
    if a <= 0.5 {
        erfinv_central(x)
    } else {
        // 1 - |x| is exact for |x| in [0.5, 1].
        erfcinv_tail(1.0 - a).copysign(x)
    }
}

/// The inverse complementary error function on `[0, 2]`: `+inf` at 0, `-inf` at 2, NaN
/// outside, `-0.0` at 1 (scipy's `erfcinv`, `-ndtri(q / 2) / sqrt(2)`).
pub(super) fn erfcinv(q: f64) -> f64 {
    if q.is_nan() || !(0.0..=2.0).contains(&q) {
        return f64::NAN;
    }
    if q == 0.0 {
        return f64::INFINITY;
    }
    if q == 2.0 {
        return f64::NEG_INFINITY;
    }
    if q == 1.0 {
        return -0.0;
    }
    if q < 0.5 {
        erfcinv_tail(q)
    } else if q > 1.5 {
        // 2 - q is exact for q in [1, 2].
        -erfcinv_tail(2.0 - q)
    } else {
        // q - 1 is exact for q in [0.5, 2].
        -erfinv_central(q - 1.0)
    }
}

/// `x` evaluated as a polynomial with coefficients from the highest power (cephes' `polevl`).
#[inline]
fn polevl(x: f64, coef: &[f64]) -> f64 {
    coef.iter().fold(0.0, |acc, &c| acc * x + c)
}

/// Digamma on `[1, 2]`: `(x - root) * (Y + P(x - 1) / Q(x - 1))`, the root of digamma in
/// three parts (Boost's rational approximation, as scipy's cephes `psi` uses it).
fn digamma_1_2(x: f64) -> f64 {
    const ROOT1: f64 = 1_569_415_565.0 / 1_073_741_824.0;
    const ROOT2: f64 = (381_566_830.0 / 1_073_741_824.0) / 1_073_741_824.0;
    const ROOT3: f64 = 0.901_631_209_325_869_6e-19;
    const Y: f64 = 0.995_581_626_892_089_8;
    const P: [f64; 6] = [
        -0.002_071_332_116_774_595,
        -0.045_251_321_448_739_06,
        -0.289_191_264_447_747_84,
        -0.650_318_537_708_965_1,
        -0.325_550_311_868_044_9,
        0.254_798_510_611_315_51,
    ];
    const Q: [f64; 7] = [
        -5.578_984_132_167_551e-7,
        0.002_128_498_701_782_114_4,
        0.054_151_797_245_674_225,
        0.435_935_296_926_659_69,
        1.460_624_290_976_351_5,
        2.076_711_702_373_047,
        1.0,
    ];
    let g = x - ROOT1 - ROOT2 - ROOT3;
    let r = polevl(x - 1.0, &P) / polevl(x - 1.0, &Q);
    g * Y + g * r
}

/// Digamma for `x >= 10` from its asymptotic series in `1 / x^2`.
fn digamma_asymptotic(x: f64) -> f64 {
    const A: [f64; 7] = [
        8.333_333_333_333_333e-2,
        -2.109_279_609_279_609e-2,
        7.575_757_575_757_576e-3,
        -4.166_666_666_666_667e-3,
        3.968_253_968_253_968e-3,
        -8.333_333_333_333_333e-3,
        8.333_333_333_333_333e-2,
    ];
    let y = if x < 1e17 {
        let z = 1.0 / (x * x);
        z * polevl(z, &A)
    } else {
        0.0
    };
    libm::log(x) - 0.5 / x - y
}

/// Digamma (`psi`), scipy's `digamma`: `-inf` at `+0`, `+inf` at `-0`, NaN at the negative
/// integers and `-inf`; negative arguments by the reflection `psi(1 - x) - pi / tan(pi x)`,
/// others moved to `[1, 2]` (or above 10, for the asymptotic series) by the recurrence.
pub(super) fn digamma(x: f64) -> f64 {
    const EULER: f64 = 0.577_215_664_901_532_9;
    let mut x = x;
    let mut y = 0.0;
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(-x);
    }
    if x < 0.0 {
        let r = x - x.trunc();
        if r == 0.0 {
            return f64::NAN;
        }
        y = -PI / (PI * r).tan();
        x = 1.0 - x;
    }
    if x <= 10.0 && x == x.floor() {
        let n = x as i32;
        for i in 1..n {
            y += 1.0 / i as f64;
        }
        return y - EULER;
    }
    if x < 1.0 {
        y -= 1.0 / x;
        x += 1.0;
    } else if x < 10.0 {
        while x > 2.0 {
            x -= 1.0;
            y += 1.0 / x;
        }
    }
    if (1.0..=2.0).contains(&x) {
        return y + digamma_1_2(x);
    }
    y + digamma_asymptotic(x)
}

/// The logistic sigmoid `1 / (1 + exp(-x))`.
#[inline]
pub(super) fn expit(x: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-x))
}

/// The log-odds `ln(x / (1 - x))`, as `log1p(s) - log1p(-s)` with `s = 2x - 1` near 0.5
/// (scipy's `logit`).
#[inline]
pub(super) fn logit(x: f64) -> f64 {
    if !(0.3..=0.65).contains(&x) {
        libm::log(x / (1.0 - x))
    } else {
        let s = 2.0 * (x - 0.5);
        libm::log1p(s) - libm::log1p(-s)
    }
}

/// `ln(expit(x))` without overflow or cancellation (scipy's `log_expit`).
#[inline]
pub(super) fn log_expit(x: f64) -> f64 {
    if x < 0.0 {
        x - libm::log1p(libm::exp(x))
    } else {
        -libm::log1p(libm::exp(-x))
    }
}

/// The entropy term `-x ln x`: 0 at either zero, `-inf` below 0 (scipy's `entr`).
#[inline]
pub(super) fn entr(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x > 0.0 {
        -x * libm::log(x)
    } else if x == 0.0 {
        0.0
    } else {
        f64::NEG_INFINITY
    }
}

/// `x ln y`, 0 where `x` is 0 and `y` is not NaN (scipy's `xlogy`).
#[inline]
pub(super) fn xlogy(x: f64, y: f64) -> f64 {
    if x == 0.0 && !y.is_nan() {
        0.0
    } else {
        x * libm::log(y)
    }
}

/// `x ln(1 + y)`, 0 where `x` is 0 and `y` is not NaN (scipy's `xlog1py`).
#[inline]
pub(super) fn xlog1py(x: f64, y: f64) -> f64 {
    if x == 0.0 && !y.is_nan() {
        0.0
    } else {
        x * libm::log1p(y)
    }
}

/// cephes' `MAXGAM`: gamma overflows above it.
const MAXGAM: f64 = 171.624_376_956_302_7;
/// cephes' `MAXLOG`: `ln(f64::MAX)`.
const MAXLOG: f64 = 709.782_712_893_384;
/// cephes' `ASYMP_FACTOR` of `beta`.
const ASYMP_FACTOR: f64 = 1e6;

/// The sign of `gamma(x)` as cephes' `lgam_sgn` reports it: -1 for negative non-integers
/// with an odd floor, 1 everywhere else (poles included).
#[inline]
fn gamma_sign(x: f64) -> f64 {
    if x < 0.0 {
        let f = x.floor();
        if f != x && (f * 0.5).floor() != f * 0.5 {
            return -1.0;
        }
    }
    1.0
}

/// `1 / gamma(x)`: 0 at the poles, `x` itself where gamma overflows near 0.
#[inline]
fn rgamma(x: f64) -> f64 {
    if x <= 0.0 && x == x.floor() {
        0.0
    } else if x.abs() < 1e-300 {
        x
    } else {
        1.0 / gamma(x)
    }
}

/// `x` as C's `(int)x` converts it on the hardware cephes runs on: truncated, out of range
/// (and infinities) giving `i32::MIN`, as Rust's saturating `as` does below the range.
#[inline]
fn c_int(x: f64) -> i32 {
    if x.abs() < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// `ln|beta(a, b)|` for `a > ASYMP_FACTOR * |b|` with its sign (cephes' `lbeta_asymp`).
fn lbeta_asymp(a: f64, b: f64) -> (f64, f64) {
    let mut r = gammaln(b);
    r -= b * libm::log(a);
    r += b * (1.0 - b) / (2.0 * a);
    r += b * (1.0 - b) * (1.0 - 2.0 * b) / (12.0 * a * a);
    r += -b * b * (1.0 - b) * (1.0 - b) / (12.0 * a * a * a);
    (r, gamma_sign(b))
}

/// `beta` (`log` false) or `betaln` (true) for `a` and `b` that are not non-positive
/// integers: cephes' `beta`/`lbeta` after their pole checks (the larger magnitude first; the
/// asymptotic series when it dwarfs the other; logarithms beyond gamma's range; else the
/// product of gammas in the order that keeps the intermediate nearest 1).
fn beta_regular(a: f64, b: f64, log: bool) -> f64 {
    let (a, b) = if a.abs() < b.abs() { (b, a) } else { (a, b) };
    if a.abs() > ASYMP_FACTOR * b.abs() && a > ASYMP_FACTOR {
        let (r, sign) = lbeta_asymp(a, b);
        return if log { r } else { sign * libm::exp(r) };
    }
    let y = a + b;
    if y.abs() > MAXGAM || a.abs() > MAXGAM || b.abs() > MAXGAM {
        let sign = gamma_sign(y) * gamma_sign(b) * gamma_sign(a);
        // Both beyond 2^52 (the larger is `a`): Stirling's terms of the three lgammas
        // combined by hand, so nothing cancels (lgamma(a) + lgamma(b) - lgamma(a + b) near
        // 1e303 loses 1e-13 of a result near 1e300).
        let r = if b >= 4_503_599_627_370_496.0 && y.is_finite() {
            -a * libm::log1p(b / a) - b * libm::log1p(a / b)
                + 0.5 * libm::log(y / a / b)
                + 0.918_938_533_204_672_7
        } else {
            gammaln(a) + (gammaln(b) - gammaln(y))
        };
        return if log {
            r
        } else if r > MAXLOG {
            sign * f64::INFINITY
        } else {
            sign * libm::exp(r)
        };
    }
    let y = rgamma(y);
    let (ga, gb) = (gamma(a), gamma(b));
    if y.is_infinite() {
        return f64::INFINITY;
    }
    let p = if ((ga * y).abs() - 1.0).abs() > ((gb * y).abs() - 1.0).abs() {
        gb * y * ga
    } else {
        ga * y * gb
    };
    if log { libm::log(p.abs()) } else { p }
}

/// `beta`/`betaln` with the non-positive integer `a` (cephes' `beta_negint`/`lbeta_negint`):
/// `±beta(1 - a - b, b)` for an integer `b` with `1 - a - b > 0`, else `inf`. Cephes recurses
/// into `beta`; with `b <= 0` that call meets its own pole check and gives `inf`, which is
/// written out here (the CUDA functor cannot recurse).
fn beta_negint(a: i32, b: f64, log: bool) -> f64 {
    if b == c_int(b) as f64 && 1.0 - a as f64 - b > 0.0 {
        let c = 1.0 - a as f64 - b;
        let r = if b <= 0.0 {
            f64::INFINITY
        } else {
            beta_regular(c, b, log)
        };
        if log || c_int(b) % 2 == 0 { r } else { -r }
    } else {
        f64::INFINITY
    }
}

/// `beta` (`log` false) or `betaln` (true), cephes' algorithm.
fn beta_any(a: f64, b: f64, log: bool) -> f64 {
    if a <= 0.0 && a == a.floor() {
        return if a == c_int(a) as f64 {
            beta_negint(c_int(a), b, log)
        } else {
            f64::INFINITY
        };
    }
    if b <= 0.0 && b == b.floor() {
        return if b == c_int(b) as f64 {
            beta_negint(c_int(b), a, log)
        } else {
            f64::INFINITY
        };
    }
    beta_regular(a, b, log)
}

/// The beta function `gamma(a) gamma(b) / gamma(a + b)` (scipy's `beta`, cephes' algorithm:
/// the poles of the non-positive integers, an asymptotic series when one argument dwarfs
/// the other, logarithms beyond gamma's range).
pub(super) fn beta(a: f64, b: f64) -> f64 {
    beta_any(a, b, false)
}

/// `ln|beta(a, b)|` (scipy's `betaln`, cephes' `lbeta`).
pub(super) fn betaln(a: f64, b: f64) -> f64 {
    beta_any(a, b, true)
}
