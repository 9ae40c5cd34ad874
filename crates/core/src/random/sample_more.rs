//! The samplers behind NumPy's remaining `Generator` distributions, built like those of
//! [`sample`](super::sample) (and mirrored operation for operation in `kernels/src/random.cu`):
//! f64 arithmetic with cuprite's own `log`, `exp`, `log1p`, `expm1` and `loggam`
//! ([`math`](super::math)) and IEEE `sqrt`, so both backends give the same bits.
//!
//! Algorithms follow NumPy's `distributions.c`: Cauchy as a ratio of normals; Student's t,
//! chi-square and F from gammas; the noncentral chi-square by a shifted normal (`df > 1`) or a
//! Poisson mixture; Laplace, logistic, Gumbel, Weibull, Pareto, Rayleigh and power by
//! inversion; Wald by Michael, Schucany and Haas; the triangular by inversion; von Mises by
//! Best and Fisher (its `cos(pi U)` from a point of the unit disk, its `acos` cuprite's own); geometric by
//! search (`p >= 1/3`) or inversion; negative binomial as a gamma-mixed Poisson; Zipf by
//! Devroye's rejection; the logarithmic series by Kemp's method; the hypergeometric by urn
//! simulation or, for samples of 10 or more, Stadlober's ratio of uniforms (HRUA).

use super::math::{acos, exp, expm1, log, log1p, loggam};
use super::philox::Stream;
use super::sample::{bounded, exponential, gamma, normal, poisson};

/// 2^63, the f64 nearest `i64::MAX`.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Standard Cauchy: the ratio of two normals.
pub fn standard_cauchy(s: &mut Stream) -> f64 {
    let n = normal(s);
    let d = normal(s);
    n / d
}

/// Student's t with `df > 0` degrees of freedom.
pub fn standard_t(s: &mut Stream, df: f64) -> f64 {
    let num = normal(s);
    let denom = gamma(s, df / 2.0);
    (df / 2.0).sqrt() * num / denom.sqrt()
}

/// Chi-square with `df > 0` degrees of freedom.
pub fn chisquare(s: &mut Stream, df: f64) -> f64 {
    2.0 * gamma(s, df / 2.0)
}

/// Noncentral chi-square, `df > 0`, `nonc >= 0`.
pub fn noncentral_chisquare(s: &mut Stream, df: f64, nonc: f64) -> f64 {
    if nonc == 0.0 {
        return chisquare(s, df);
    }
    if 1.0 < df {
        let chi2 = chisquare(s, df - 1.0);
        let n = normal(s) + nonc.sqrt();
        return chi2 + n * n;
    }
    let i = poisson(s, nonc / 2.0);
    chisquare(s, df + 2.0 * i as f64)
}

/// F with `dfnum, dfden > 0`.
pub fn f(s: &mut Stream, dfnum: f64, dfden: f64) -> f64 {
    let num = chisquare(s, dfnum) * dfden;
    let den = chisquare(s, dfden) * dfnum;
    num / den
}

/// Noncentral F, `dfnum, dfden > 0`, `nonc >= 0`.
pub fn noncentral_f(s: &mut Stream, dfnum: f64, dfden: f64, nonc: f64) -> f64 {
    let t = noncentral_chisquare(s, dfnum, nonc) * dfden;
    t / (chisquare(s, dfden) * dfnum)
}

/// Laplace by inversion (a uniform of 0 is drawn again).
pub fn laplace(s: &mut Stream, loc: f64, scale: f64) -> f64 {
    loop {
        let u = s.next_f64();
        if u >= 0.5 {
            return loc - scale * log(2.0 - u - u);
        }
        if u > 0.0 {
            return loc + scale * log(u + u);
        }
    }
}

/// Logistic by inversion (a uniform of 0 is drawn again).
pub fn logistic(s: &mut Stream, loc: f64, scale: f64) -> f64 {
    loop {
        let u = s.next_f64();
        if u > 0.0 {
            return loc + scale * log(u / (1.0 - u));
        }
    }
}

/// Gumbel by inversion (a uniform of 1 is drawn again).
pub fn gumbel(s: &mut Stream, loc: f64, scale: f64) -> f64 {
    loop {
        let u = 1.0 - s.next_f64();
        if u < 1.0 {
            return loc - scale * log(0.0 - log(u));
        }
    }
}

/// Weibull with shape `a >= 0`: `E^(1/a)`.
pub fn weibull(s: &mut Stream, a: f64) -> f64 {
    if a == 0.0 {
        return 0.0;
    }
    exp(log(exponential(s)) / a)
}

/// Pareto II (Lomax) with shape `a > 0`: `exp(E / a) - 1`.
pub fn pareto(s: &mut Stream, a: f64) -> f64 {
    expm1(exponential(s) / a)
}

/// Rayleigh with scale `scale >= 0`.
pub fn rayleigh(s: &mut Stream, scale: f64) -> f64 {
    scale * (2.0 * exponential(s)).sqrt()
}

/// Wald (inverse Gaussian), `mean, scale > 0`.
pub fn wald(s: &mut Stream, mean: f64, scale: f64) -> f64 {
    let mu_2l = mean / (2.0 * scale);
    let mut y = normal(s);
    y = mean * y * y;
    let x = mean + mu_2l * (y - (4.0 * scale * y + y * y).sqrt());
    let u = s.next_f64();
    if u <= mean / (mean + x) {
        x
    } else {
        mean * mean / x
    }
}

/// Triangular on `[left, right]` with mode `mode`, `left <= mode <= right`, `left < right`.
pub fn triangular(s: &mut Stream, left: f64, mode: f64, right: f64) -> f64 {
    let base = right - left;
    let leftbase = mode - left;
    let ratio = leftbase / base;
    let leftprod = leftbase * base;
    let rightprod = (right - mode) * base;
    let u = s.next_f64();
    if u <= ratio {
        left + (u * leftprod).sqrt()
    } else {
        right - ((1.0 - u) * rightprod).sqrt()
    }
}

/// Power function distribution with exponent `a > 0`: `U^(1/a)`, `U` in `(0, 1]`.
pub fn power(s: &mut Stream, a: f64) -> f64 {
    exp(log(s.next_f64_open()) / a)
}

/// The cosine of a uniform angle: `(x^2 - y^2) / (x^2 + y^2)` for `(x, y)` uniform in the
/// unit disk (by rejection), distributed as NumPy's `cos(pi U)` without a cosine.
fn circle_cos(s: &mut Stream) -> f64 {
    loop {
        let x = 2.0 * s.next_f64() - 1.0;
        let y = 2.0 * s.next_f64() - 1.0;
        let r2 = x * x + y * y;
        if r2 < 1.0 && r2 > 0.0 {
            return (x * x - y * y) / r2;
        }
    }
}

/// pi (`f64::consts::PI`, by its bits as random.cu spells it).
const PI: f64 = f64::from_bits(0x4009_21FB_5444_2D18);

/// Von Mises on `[-pi, pi]` with mode `mu` and concentration `kappa >= 0` (Best and
/// Fisher's rejection, as NumPy: uniform below `kappa = 1e-8`, wrapped normal above 1e6).
pub fn vonmises(s: &mut Stream, mu: f64, kappa: f64) -> f64 {
    if kappa < 1e-8 {
        return PI * (2.0 * s.next_f64() - 1.0);
    }
    if kappa > 1e6 {
        let mut r = mu + (1.0 / kappa).sqrt() * normal(s);
        if r < 0.0 - PI {
            r += 2.0 * PI;
        }
        if r > PI {
            r -= 2.0 * PI;
        }
        return r;
    }
    let sp = if kappa < 1e-5 {
        1.0 / kappa + kappa
    } else {
        let r = 1.0 + (1.0 + 4.0 * kappa * kappa).sqrt();
        let rho = (r - (2.0 * r).sqrt()) / (2.0 * kappa);
        (1.0 + rho * rho) / (2.0 * rho)
    };
    let mut w;
    loop {
        let z = circle_cos(s);
        w = (1.0 + sp * z) / (sp + z);
        let y = kappa * (sp - w);
        let v = s.next_f64();
        if y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0 {
            break;
        }
    }
    // Rounding may leave |w| an ulp above 1.
    w = w.clamp(-1.0, 1.0);
    let u = s.next_f64();
    let mut result = acos(w);
    if u < 0.5 {
        result = -result;
    }
    result += mu;
    let neg = result < 0.0;
    let m = (result.abs() + PI) % (2.0 * PI) - PI;
    if neg { -m } else { m }
}

/// Geometric (trials to the first success, so at least 1), `0 < p <= 1`.
pub fn geometric(s: &mut Stream, p: f64) -> i64 {
    if p >= 0.333_333_333_333_333_3 {
        let mut x: i64 = 1;
        let (mut sum, mut prod) = (p, p);
        let q = 1.0 - p;
        let u = s.next_f64();
        while u > sum {
            prod *= q;
            sum += prod;
            x += 1;
        }
        return x;
    }
    let z = (0.0 - exponential(s) / log1p(0.0 - p)).ceil();
    if z >= TWO_63 {
        i64::MAX
    } else if z < 1.0 {
        1
    } else {
        z as i64
    }
}

/// Negative binomial: failures before the `n`-th success, `n > 0`, `0 < p <= 1`.
pub fn negative_binomial(s: &mut Stream, n: f64, p: f64) -> i64 {
    let y = gamma(s, n) * ((1.0 - p) / p);
    poisson(s, y)
}

/// Zipf with exponent `a > 1`.
pub fn zipf(s: &mut Stream, a: f64) -> i64 {
    if a >= 1025.0 {
        return 1;
    }
    let am1 = a - 1.0;
    let b = exp(am1 * log(2.0));
    loop {
        let u = 1.0 - s.next_f64();
        let v = s.next_f64();
        let x = exp(log(u) * (-1.0 / am1)).floor();
        // 2^63 (i64::MAX rounded), as NumPy; two comparisons, as random.cu's mirror.
        #[allow(clippy::manual_range_contains)]
        if x > TWO_63 || x < 1.0 {
            continue;
        }
        let t = exp(am1 * log(1.0 + 1.0 / x));
        if v * x * (t - 1.0) / (b - 1.0) <= t / b {
            return x as i64;
        }
    }
}

/// Logarithmic series, `0 <= p < 1`.
pub fn logseries(s: &mut Stream, p: f64) -> i64 {
    let r = log1p(0.0 - p);
    loop {
        let v = s.next_f64();
        if v >= p {
            return 1;
        }
        let u = s.next_f64();
        let q = 0.0 - expm1(r * u);
        if v <= q * q {
            let result = (1.0 + log(v) / log(q)).floor();
            if result < 1.0 || v == 0.0 {
                continue;
            }
            return result as i64;
        }
        if v >= q {
            return 1;
        }
        return 2;
    }
}

/// Hypergeometric: good items among `sample` drawn without replacement from `good + bad`
/// (all non-negative, `sample <= good + bad`).
pub fn hypergeometric(s: &mut Stream, good: i64, bad: i64, sample: i64) -> i64 {
    if sample >= 10 && sample <= good + bad - 10 {
        hypergeometric_hrua(s, good, bad, sample)
    } else {
        hypergeometric_urn(s, good, bad, sample)
    }
}

/// Drawing the smaller of `sample` and `total - sample` items one at a time.
fn hypergeometric_urn(s: &mut Stream, good: i64, bad: i64, sample: i64) -> i64 {
    let total = good + bad;
    let flip = sample > total / 2;
    let mut left = if flip { total - sample } else { sample };
    let (mut rest, mut rest_good) = (total, good);
    while left > 0 && rest_good > 0 && rest > rest_good {
        rest -= 1;
        // Uniform in 0..=rest.
        if (bounded(s, rest as u64 + 1) as i64) < rest_good {
            rest_good -= 1;
        }
        left -= 1;
    }
    if rest == rest_good {
        rest_good -= left;
    }
    if flip { rest_good } else { good - rest_good }
}

/// `ln k!`.
fn logfactorial(k: i64) -> f64 {
    loggam(k as f64 + 1.0)
}

/// Stadlober's ratio-of-uniforms method (NumPy's `hypergeometric_hrua`).
#[allow(clippy::excessive_precision)]
fn hypergeometric_hrua(s: &mut Stream, good: i64, bad: i64, sample: i64) -> i64 {
    const D1: f64 = 1.715_527_769_921_413_5;
    const D2: f64 = 0.898_916_162_058_898_8;
    let popsize = good + bad;
    let m_s = sample.min(popsize - sample);
    let mingb = good.min(bad);
    let maxgb = good.max(bad);
    let p = mingb as f64 / popsize as f64;
    let q = maxgb as f64 / popsize as f64;
    let mu = m_s as f64 * p;
    let a = mu + 0.5;
    let var = (popsize - m_s) as f64 * m_s as f64 * p * q / (popsize - 1) as f64;
    let c = (var + 0.5).sqrt();
    let h = D1 * c + D2;
    let m = ((m_s + 1) as f64 * (mingb + 1) as f64 / (popsize + 2) as f64).floor() as i64;
    let g = logfactorial(m)
        + logfactorial(mingb - m)
        + logfactorial(m_s - m)
        + logfactorial(maxgb - m_s + m);
    let bf = (a + 16.0 * c).floor();
    let b0 = (m_s.min(mingb) + 1) as f64;
    let b = if b0 < bf { b0 } else { bf };
    let mut k;
    loop {
        let u = s.next_f64();
        let v = s.next_f64();
        let x = a + h * (v - 0.5) / u;
        if x < 0.0 || x >= b {
            continue;
        }
        k = x.floor() as i64;
        let gp = logfactorial(k)
            + logfactorial(mingb - k)
            + logfactorial(m_s - k)
            + logfactorial(maxgb - m_s + k);
        let t = g - gp;
        if u * (4.0 - u) - 3.0 <= t {
            break;
        }
        if u * (u - t) >= 1.0 {
            continue;
        }
        if 2.0 * log(u) <= t {
            break;
        }
    }
    if good > bad {
        k = m_s - k;
    }
    if m_s < sample {
        k = good - k;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Draw;

    #[test]
    fn discrete_samplers_stay_in_their_support() {
        let d = Draw::new([3, 4], 0);
        for i in 0..3000 {
            let mut s = d.element(i);
            assert!(geometric(&mut s, 0.7) >= 1);
            assert!(geometric(&mut s, 1e-3) >= 1);
            assert_eq!(geometric(&mut s, 1.0), 1);
            assert!(negative_binomial(&mut s, 2.5, 0.3) >= 0);
            assert_eq!(negative_binomial(&mut s, 2.5, 1.0), 0);
            assert!(zipf(&mut s, 1.5) >= 1);
            assert!(logseries(&mut s, 0.9) >= 1);
            assert_eq!(logseries(&mut s, 0.0), 1);
            for (g, b, n) in [(5, 7, 4), (100, 200, 50), (30, 3, 25), (1000, 10, 500)] {
                let k = hypergeometric(&mut s, g, b, n);
                assert!(k >= (n - b).max(0) && k <= n.min(g), "{g} {b} {n}: {k}");
            }
            assert!((0.0..=1.0).contains(&power(&mut s, 0.4)));
            let t = triangular(&mut s, -1.0, 0.5, 2.0);
            assert!((-1.0..=2.0).contains(&t));
        }
    }
}
