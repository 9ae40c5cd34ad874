//! Reference distribution functions and test statistics for the random tests: CDFs
//! (normal, gamma, beta through the regularised incomplete functions of Numerical Recipes,
//! accurate to about 1e-7, far below the test thresholds), sample moments, the
//! Kolmogorov–Smirnov statistic and a chi-square statistic over frequency bins; the error-message check both random test files use.

#![allow(dead_code)]

/// Sample mean and (population) variance and fourth central moment.
pub fn moments(x: &[f64]) -> (f64, f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n;
    let m4 = x.iter().map(|v| (v - m).powi(4)).sum::<f64>() / n;
    (m, v, m4)
}

/// Asserts the sample mean and variance are within `z` standard errors of `mean` and `var`.
#[track_caller]
pub fn check_moments(what: &str, x: &[f64], mean: f64, var: f64, z: f64) {
    let n = x.len() as f64;
    let (m, v, m4) = moments(x);
    let se_m = (var / n).sqrt();
    assert!(
        (m - mean).abs() <= z * se_m,
        "{what}: mean {m}, expected {mean} (standard error {se_m})"
    );
    let se_v = ((m4 - v * v) / n).sqrt();
    assert!(
        (v - var).abs() <= z * se_v,
        "{what}: variance {v}, expected {var} (standard error {se_v})"
    );
}

/// The Kolmogorov–Smirnov statistic of the sample against `cdf`.
pub fn ks(x: &[f64], cdf: impl Fn(f64) -> f64) -> f64 {
    let mut s = x.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    s.iter()
        .enumerate()
        .map(|(i, &v)| {
            let f = cdf(v);
            (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
        })
        .fold(0.0, f64::max)
}

/// Asserts the KS statistic is below the 0.1% critical value, 1.95 / sqrt(n).
#[track_caller]
pub fn check_ks(what: &str, x: &[f64], cdf: impl Fn(f64) -> f64) {
    let d = ks(x, cdf);
    let crit = 1.95 / (x.len() as f64).sqrt();
    assert!(d <= crit, "{what}: KS statistic {d} above {crit}");
}

/// Asserts a chi-square statistic of observed counts against expected probabilities (bins
/// with an expected count below 5 are merged into their neighbour) is below
/// `df + 6 sqrt(2 df)`, far in the upper tail.
#[track_caller]
pub fn check_chi2(what: &str, counts: &[u64], probs: &[f64]) {
    let n: u64 = counts.iter().sum();
    let n = n as f64;
    let (mut bins, mut o, mut e) = (Vec::new(), 0.0, 0.0);
    for (c, p) in counts.iter().zip(probs) {
        o += *c as f64;
        e += p * n;
        if e >= 5.0 {
            bins.push((o, e));
            o = 0.0;
            e = 0.0;
        }
    }
    if let Some(last) = bins.last_mut() {
        last.0 += o;
        last.1 += e;
    }
    let chi2: f64 = bins.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let df = (bins.len() - 1) as f64;
    let crit = df + 6.0 * (2.0 * df).sqrt();
    assert!(
        chi2 <= crit,
        "{what}: chi-square {chi2} with {df} degrees of freedom"
    );
}

/// erfc (Numerical Recipes `erfcc`, fractional error below 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The standard normal CDF.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// ln Γ(x), x > 0 (Lanczos, Numerical Recipes `gammln`).
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 6] = [
        76.18009172947146,
        -86.50532032941677,
        24.01409824083091,
        -1.231739572450155,
        0.1208650973866179e-2,
        -0.5395239384953e-5,
    ];
    let mut y = x;
    let tmp = x + 5.5;
    let tmp = tmp - (x + 0.5) * tmp.ln();
    let mut ser = 1.000000000190015;
    for c in C {
        y += 1.0;
        ser += c / y;
    }
    -tmp + (2.5066282746310005 * ser / x).ln()
}

/// The regularised lower incomplete gamma function P(a, x).
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let gln = ln_gamma(a);
    if x < a + 1.0 {
        let (mut ap, mut sum) = (a, 1.0 / a);
        let mut del = sum;
        for _ in 0..10_000 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        sum * (-x + a * x.ln() - gln).exp()
    } else {
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / 1e-300;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < 1e-300 {
                d = 1e-300;
            }
            c = b + an / c;
            if c.abs() < 1e-300 {
                c = 1e-300;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        1.0 - (-x + a * x.ln() - gln).exp() * h
    }
}

fn betacf(a: f64, b: f64, x: f64) -> f64 {
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < 1e-300 {
        d = 1e-300;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..10_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < 1e-300 {
            d = 1e-300;
        }
        c = 1.0 + aa / c;
        if c.abs() < 1e-300 {
            c = 1e-300;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < 1e-300 {
            d = 1e-300;
        }
        c = 1.0 + aa / c;
        if c.abs() < 1e-300 {
            c = 1e-300;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b).
pub fn beta_i(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let bt = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        bt * betacf(a, b, x) / a
    } else {
        1.0 - bt * betacf(b, a, 1.0 - x) / b
    }
}

/// Poisson probabilities of 0..len (the last bin holds the upper tail).
pub fn poisson_pmf(lam: f64, len: usize) -> Vec<f64> {
    let mut p: Vec<f64> = (0..len)
        .map(|k| (k as f64 * lam.ln() - lam - ln_gamma(k as f64 + 1.0)).exp())
        .collect();
    let s: f64 = p[..len - 1].iter().sum();
    p[len - 1] = 1.0 - s;
    p
}

/// Binomial probabilities of 0..=n.
pub fn binomial_pmf(n: u64, p: f64) -> Vec<f64> {
    (0..=n)
        .map(|k| {
            let lc = ln_gamma(n as f64 + 1.0)
                - ln_gamma(k as f64 + 1.0)
                - ln_gamma((n - k) as f64 + 1.0);
            (lc + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp()
        })
        .collect()
}

/// Counts of each value in `0..len` (values outside fail the test).
#[track_caller]
pub fn counts(x: &[i64], len: usize) -> Vec<u64> {
    let mut c = vec![0u64; len];
    for &v in x {
        assert!(v >= 0 && (v as usize) < len, "value {v} outside 0..{len}");
        c[v as usize] += 1;
    }
    c
}

#[test]
fn reference_functions_are_right() {
    assert!((phi(1.0) - 0.841344746).abs() < 1e-7);
    assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-9);
    // P(1, x) = 1 - exp(-x); I_x(1, 1) = x; I_x(2, 1) = x^2.
    assert!((gamma_p(1.0, 0.7) - (1.0 - (-0.7f64).exp())).abs() < 1e-10);
    assert!((gamma_p(3.0, 5.0) - 0.875347980).abs() < 1e-8);
    assert!((beta_i(1.0, 1.0, 0.3) - 0.3).abs() < 1e-10);
    assert!((beta_i(2.0, 1.0, 0.3) - 0.09).abs() < 1e-10);
    let s: f64 = binomial_pmf(10, 0.3).iter().sum();
    assert!((s - 1.0).abs() < 1e-10);
}

/// Asserts that `r` is an error whose message starts with `op: ` and mentions each needle.
#[track_caller]
pub fn expect_err<V: std::fmt::Debug>(r: cuprite::Result<V>, op: &str, needles: &[&str]) {
    let e = r.expect_err("an error").to_string();
    assert!(e.starts_with(&format!("{op}: ")), "{e}");
    for n in needles {
        assert!(e.contains(n), "{e} should mention {n}");
    }
}
