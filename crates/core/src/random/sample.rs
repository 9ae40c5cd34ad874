//! The per-element samplers: each output element is a pure function of its [`Draw`] and its
//! index, reading its own element stream ([`Stream`]). These functions are the CPU backend's
//! implementation and the reference that `kernels/src/random.cu` mirrors operation for
//! operation (the same f64 arithmetic in the same order, [`math`](super::math) for `log` and
//! `exp`), so every distribution is bit-identical across backends.
//!
//! Algorithms: normal by Marsaglia's polar method; exponential by inversion; gamma by
//! Marsaglia and Tsang (shape < 1 through `gamma(shape + 1) * U^(1/shape)`); beta from two
//! gammas, or Jöhnk's method when both parameters are at most 1 (as NumPy); Poisson by
//! multiplication below 10 and Hörmann's PTRS above (as NumPy); binomial by Knuth's splitting
//! on beta-distributed order statistics down to a mean of at most 30, then inversion (as
//! NumPy's inversion branch); integers by Lemire's unbiased multiply-and-reject. The other
//! distributions' samplers are in [`sample_more`](super::sample_more).

use super::math::{exp, log, loggam};
use super::philox::{Draw, Stream};
use super::sample_more as m;

/// A real distribution and its parameters (all f64; f32 outputs are the f64 value rounded).
/// The codes are the `dist` argument of the `random_float` kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FloatDist {
    /// `loc + scale * N(0, 1)`.
    Normal { loc: f64, scale: f64 },
    /// `exp(mean + sigma * N(0, 1))`.
    LogNormal { mean: f64, sigma: f64 },
    /// `scale * Exp(1)`.
    Exponential { scale: f64 },
    /// `scale * Gamma(shape)`.
    Gamma { shape: f64, scale: f64 },
    /// `Beta(a, b)`.
    Beta { a: f64, b: f64 },
    /// Standard Cauchy.
    StandardCauchy,
    /// Student's t with `df` degrees of freedom.
    StandardT { df: f64 },
    /// Chi-square with `df` degrees of freedom.
    ChiSquare { df: f64 },
    /// Noncentral chi-square.
    NoncentralChiSquare { df: f64, nonc: f64 },
    /// F (Fisher–Snedecor).
    F { dfnum: f64, dfden: f64 },
    /// Noncentral F.
    NoncentralF { dfnum: f64, dfden: f64, nonc: f64 },
    /// Laplace (double exponential).
    Laplace { loc: f64, scale: f64 },
    /// Logistic.
    Logistic { loc: f64, scale: f64 },
    /// Gumbel (type I extreme value).
    Gumbel { loc: f64, scale: f64 },
    /// Weibull with shape `a`, scale 1.
    Weibull { a: f64 },
    /// Pareto II (Lomax) with shape `a`.
    Pareto { a: f64 },
    /// Rayleigh.
    Rayleigh { scale: f64 },
    /// Wald (inverse Gaussian).
    Wald { mean: f64, scale: f64 },
    /// Triangular on `[left, right]` with mode `mode`.
    Triangular { left: f64, mode: f64, right: f64 },
    /// Power function with exponent `a`.
    Power { a: f64 },
    /// Von Mises with mode `mu` and concentration `kappa`.
    VonMises { mu: f64, kappa: f64 },
}

impl FloatDist {
    /// `(code, a, b, c)` as the kernel takes them.
    pub fn code(&self) -> (i32, f64, f64, f64) {
        use FloatDist as D;
        match *self {
            D::Normal { loc, scale } => (0, loc, scale, 0.0),
            D::LogNormal { mean, sigma } => (1, mean, sigma, 0.0),
            D::Exponential { scale } => (2, scale, 0.0, 0.0),
            D::Gamma { shape, scale } => (3, shape, scale, 0.0),
            D::Beta { a, b } => (4, a, b, 0.0),
            D::StandardCauchy => (5, 0.0, 0.0, 0.0),
            D::StandardT { df } => (6, df, 0.0, 0.0),
            D::ChiSquare { df } => (7, df, 0.0, 0.0),
            D::NoncentralChiSquare { df, nonc } => (8, df, nonc, 0.0),
            D::F { dfnum, dfden } => (9, dfnum, dfden, 0.0),
            D::NoncentralF { dfnum, dfden, nonc } => (10, dfnum, dfden, nonc),
            D::Laplace { loc, scale } => (11, loc, scale, 0.0),
            D::Logistic { loc, scale } => (12, loc, scale, 0.0),
            D::Gumbel { loc, scale } => (13, loc, scale, 0.0),
            D::Weibull { a } => (14, a, 0.0, 0.0),
            D::Pareto { a } => (15, a, 0.0, 0.0),
            D::Rayleigh { scale } => (16, scale, 0.0, 0.0),
            D::Wald { mean, scale } => (17, mean, scale, 0.0),
            D::Triangular { left, mode, right } => (18, left, mode, right),
            D::Power { a } => (19, a, 0.0, 0.0),
            D::VonMises { mu, kappa } => (20, mu, kappa, 0.0),
        }
    }

    /// The value of element `i` of draw `d`.
    pub fn sample(&self, d: &Draw, i: u64) -> f64 {
        let mut s = d.element(i);
        match *self {
            FloatDist::Normal { loc, scale } => loc + scale * normal(&mut s),
            FloatDist::LogNormal { mean, sigma } => exp(mean + sigma * normal(&mut s)),
            FloatDist::Exponential { scale } => scale * exponential(&mut s),
            FloatDist::Gamma { shape, scale } => scale * gamma(&mut s, shape),
            FloatDist::Beta { a, b } => beta(&mut s, a, b),
            FloatDist::StandardCauchy => m::standard_cauchy(&mut s),
            FloatDist::StandardT { df } => m::standard_t(&mut s, df),
            FloatDist::ChiSquare { df } => m::chisquare(&mut s, df),
            FloatDist::NoncentralChiSquare { df, nonc } => {
                m::noncentral_chisquare(&mut s, df, nonc)
            }
            FloatDist::F { dfnum, dfden } => m::f(&mut s, dfnum, dfden),
            FloatDist::NoncentralF { dfnum, dfden, nonc } => {
                m::noncentral_f(&mut s, dfnum, dfden, nonc)
            }
            FloatDist::Laplace { loc, scale } => m::laplace(&mut s, loc, scale),
            FloatDist::Logistic { loc, scale } => m::logistic(&mut s, loc, scale),
            FloatDist::Gumbel { loc, scale } => m::gumbel(&mut s, loc, scale),
            FloatDist::Weibull { a } => m::weibull(&mut s, a),
            FloatDist::Pareto { a } => m::pareto(&mut s, a),
            FloatDist::Rayleigh { scale } => m::rayleigh(&mut s, scale),
            FloatDist::Wald { mean, scale } => m::wald(&mut s, mean, scale),
            FloatDist::Triangular { left, mode, right } => m::triangular(&mut s, left, mode, right),
            FloatDist::Power { a } => m::power(&mut s, a),
            FloatDist::VonMises { mu, kappa } => m::vonmises(&mut s, mu, kappa),
        }
    }
}

/// An integer distribution and its parameters. The codes are the `dist` argument of the
/// `random_int` kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntDist {
    /// `low + k` with `k` uniform in `0..range` (`range >= 1`).
    Integers { low: i64, range: u64 },
    /// Poisson with mean `lam`.
    Poisson { lam: f64 },
    /// Binomial with `n` trials of probability `p`.
    Binomial { n: i64, p: f64 },
    /// 64 uniform random bits (reinterpreted as i64, truncated for narrower types).
    Bits,
    /// Geometric (trials to the first success) with success probability `p`.
    Geometric { p: f64 },
    /// Negative binomial: failures before the `n`-th success (real `n > 0`).
    NegativeBinomial { n: f64, p: f64 },
    /// Zipf with exponent `a`.
    Zipf { a: f64 },
    /// Logarithmic series with parameter `p`.
    Logseries { p: f64 },
    /// Hypergeometric: good items among `nsample` drawn from `ngood + nbad`.
    Hypergeometric { ngood: i64, nbad: i64, nsample: i64 },
}

impl IntDist {
    /// `(code, low, range, a, b)` as the kernel takes them (the hypergeometric passes
    /// `ngood` in `low`, `nbad` in `range` and `nsample` in `a`, exact below 2^53).
    pub fn code(&self) -> (i32, i64, u64, f64, f64) {
        match *self {
            IntDist::Integers { low, range } => (0, low, range, 0.0, 0.0),
            IntDist::Poisson { lam } => (1, 0, 0, lam, 0.0),
            IntDist::Binomial { n, p } => (2, n, 0, p, 0.0),
            IntDist::Bits => (3, 0, 0, 0.0, 0.0),
            IntDist::Geometric { p } => (4, 0, 0, p, 0.0),
            IntDist::NegativeBinomial { n, p } => (5, 0, 0, n, p),
            IntDist::Zipf { a } => (6, 0, 0, a, 0.0),
            IntDist::Logseries { p } => (7, 0, 0, p, 0.0),
            IntDist::Hypergeometric {
                ngood,
                nbad,
                nsample,
            } => (8, ngood, nbad as u64, nsample as f64, 0.0),
        }
    }

    /// The value of element `i` of draw `d` (as i64; narrower types take the low bits).
    pub fn sample(&self, d: &Draw, i: u64) -> i64 {
        let mut s = d.element(i);
        match *self {
            IntDist::Integers { low, range } => low.wrapping_add(bounded(&mut s, range) as i64),
            IntDist::Poisson { lam } => poisson(&mut s, lam),
            IntDist::Binomial { n, p } => binomial(&mut s, n, p),
            IntDist::Bits => s.next_u64() as i64,
            IntDist::Geometric { p } => m::geometric(&mut s, p),
            IntDist::NegativeBinomial { n, p } => m::negative_binomial(&mut s, n, p),
            IntDist::Zipf { a } => m::zipf(&mut s, a),
            IntDist::Logseries { p } => m::logseries(&mut s, p),
            IntDist::Hypergeometric {
                ngood,
                nbad,
                nsample,
            } => m::hypergeometric(&mut s, ngood, nbad, nsample),
        }
    }
}

/// Uniform in `0..range` (`range >= 1`) by Lemire's method: 32-bit when the range fits.
pub fn bounded(s: &mut Stream, range: u64) -> u64 {
    if range <= u32::MAX as u64 {
        let r = range as u32;
        let mut m = s.next_u32() as u64 * r as u64;
        if (m as u32) < r {
            let t = r.wrapping_neg() % r;
            while (m as u32) < t {
                m = s.next_u32() as u64 * r as u64;
            }
        }
        m >> 32
    } else {
        let mut m = s.next_u64() as u128 * range as u128;
        if (m as u64) < range {
            let t = range.wrapping_neg() % range;
            while (m as u64) < t {
                m = s.next_u64() as u128 * range as u128;
            }
        }
        (m >> 64) as u64
    }
}

/// N(0, 1) by the polar method (the first of the pair).
pub fn normal(s: &mut Stream) -> f64 {
    loop {
        let x = 2.0 * s.next_f64() - 1.0;
        let y = 2.0 * s.next_f64() - 1.0;
        let r2 = x * x + y * y;
        if r2 < 1.0 && r2 > 0.0 {
            return x * (-2.0 * log(r2) / r2).sqrt();
        }
    }
}

/// Exp(1) by inversion of a uniform in (0, 1] (so never infinite; `0 - log` keeps +0.0).
pub fn exponential(s: &mut Stream) -> f64 {
    0.0 - log(s.next_f64_open())
}

/// Gamma(shape), shape >= 0.
pub fn gamma(s: &mut Stream, shape: f64) -> f64 {
    if shape == 0.0 {
        return 0.0;
    }
    if shape < 1.0 {
        let g = gamma(s, shape + 1.0);
        let u = s.next_f64_open();
        return g * exp(log(u) / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let mut x;
        let mut v;
        loop {
            x = normal(s);
            v = 1.0 + c * x;
            if v > 0.0 {
                break;
            }
        }
        v = v * v * v;
        let u = s.next_f64();
        let x2 = x * x;
        if u < 1.0 - 0.0331 * (x2 * x2) {
            return d * v;
        }
        if log(u) < 0.5 * x2 + d * (1.0 - v + log(v)) {
            return d * v;
        }
    }
}

/// Beta(a, b), a, b > 0.
pub fn beta(s: &mut Stream, a: f64, b: f64) -> f64 {
    if a <= 1.0 && b <= 1.0 {
        // Jöhnk's algorithm, in log space when both powers underflow (as NumPy).
        loop {
            let u = s.next_f64();
            let v = s.next_f64();
            let x = exp(log(u) / a);
            let y = exp(log(v) / b);
            let xy = x + y;
            if xy <= 1.0 && u + v > 0.0 {
                if xy > 0.0 {
                    return x / xy;
                }
                let mut lx = log(u) / a;
                let mut ly = log(v) / b;
                let lm = if lx > ly { lx } else { ly };
                lx -= lm;
                ly -= lm;
                return exp(lx - log(exp(lx) + exp(ly)));
            }
        }
    }
    let x = gamma(s, a);
    let y = gamma(s, b);
    x / (x + y)
}

/// Poisson(lam), 0 <= lam <= [`POISSON_LAM_MAX`].
pub fn poisson(s: &mut Stream, lam: f64) -> i64 {
    if lam == 0.0 {
        return 0;
    }
    if lam < 10.0 {
        let enlam = exp(0.0 - lam);
        let mut k: i64 = 0;
        let mut prod = 1.0;
        loop {
            prod *= s.next_f64();
            if prod > enlam {
                k += 1;
            } else {
                return k;
            }
        }
    }
    let slam = lam.sqrt();
    let loglam = log(lam);
    let b = 0.931 + 2.53 * slam;
    let a = -0.059 + 0.02483 * b;
    let invalpha = 1.1239 + 1.1328 / (b - 3.4);
    let vr = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let u = s.next_f64() - 0.5;
        let v = s.next_f64();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + lam + 0.43).floor() as i64;
        if us >= 0.07 && v <= vr {
            return k;
        }
        if k < 0 || (us < 0.013 && v > us) {
            continue;
        }
        if log(v) + log(invalpha) - log(a / (us * us) + b)
            <= 0.0 - lam + k as f64 * loglam - loggam(k as f64 + 1.0)
        {
            return k;
        }
    }
}

/// The largest Poisson mean accepted (NumPy's `POISSON_LAM_MAX`).
pub const POISSON_LAM_MAX: f64 = 9.223_372_006_484_771e18;

/// Binomial(n, p), n >= 0, 0 <= p <= 1.
pub fn binomial(s: &mut Stream, n: i64, p: f64) -> i64 {
    if n == 0 || p == 0.0 {
        return 0;
    }
    if p == 1.0 {
        return n;
    }
    let (mut n, mut p, mut k) = (n, p, 0i64);
    // Split on the a-th smallest of n uniforms, Beta(a, n + 1 - a), until the rest is small.
    while n as f64 * (if p < 0.5 { p } else { 1.0 - p }) > 30.0 {
        let a = 1 + n / 2;
        let b = n + 1 - a;
        let x = beta(s, a as f64, b as f64);
        if x >= p {
            n = a - 1;
            p /= x;
        } else {
            k += a;
            n = b - 1;
            p = (p - x) / (1.0 - x);
        }
    }
    k + binomial_inversion(s, n, p)
}

/// Binomial by inversion (NumPy's `random_binomial_inversion`, on `min(p, 1 - p)`).
fn binomial_inversion(s: &mut Stream, n: i64, p: f64) -> i64 {
    if n == 0 || p <= 0.0 {
        return 0;
    }
    let flip = p > 0.5;
    let p = if flip { 1.0 - p } else { p };
    let q = 1.0 - p;
    let qn = exp(n as f64 * log(q));
    let np = n as f64 * p;
    let bound_f = np + 10.0 * (np * q + 1.0).sqrt();
    let bound = if (n as f64) < bound_f {
        n as f64
    } else {
        bound_f
    };
    let mut x: i64 = 0;
    let mut px = qn;
    let mut u = s.next_f64();
    while u > px {
        x += 1;
        if x as f64 > bound {
            x = 0;
            px = qn;
            u = s.next_f64();
        } else {
            u -= px;
            px = ((n - x + 1) as f64 * p * px) / (x as f64 * q);
        }
    }
    if flip { n - x } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw() -> Draw {
        Draw::new([7, 9], 0)
    }

    #[test]
    fn lemire_stays_in_range_and_covers_it() {
        let d = draw();
        for range in [1u64, 2, 3, 7, 1000, u32::MAX as u64, 1 << 33, u64::MAX] {
            let mut seen_low = false;
            for i in 0..2000 {
                let v = bounded(&mut d.element(i), range);
                assert!(v < range, "{v} >= {range}");
                seen_low |= v < range / 2 + 1;
            }
            assert!(seen_low);
        }
    }

    #[test]
    fn samplers_are_pure_functions_of_the_index() {
        let d = draw();
        let g = FloatDist::Gamma {
            shape: 0.5,
            scale: 2.0,
        };
        assert_eq!(g.sample(&d, 5).to_bits(), g.sample(&d, 5).to_bits());
        assert_ne!(g.sample(&d, 5), g.sample(&d, 6));
        let b = IntDist::Binomial { n: 1000, p: 0.3 };
        assert_eq!(b.sample(&d, 11), b.sample(&d, 11));
    }

    #[test]
    fn binomial_edges() {
        let d = draw();
        for i in 0..100 {
            let mut s = d.element(i);
            assert_eq!(binomial(&mut s, 10, 1.0), 10);
            assert_eq!(binomial(&mut s, 0, 0.5), 0);
            let v = binomial(&mut s, 1 << 40, 0.999);
            assert!((0..=1 << 40).contains(&v));
            let v = binomial(&mut s, 50, 0.9);
            assert!((0..=50).contains(&v));
        }
    }
}
