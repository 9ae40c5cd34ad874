//! The random module on every backend: statistical checks of every distribution (mean and
//! variance within a few standard errors, a Kolmogorov–Smirnov test against the CDF for the
//! continuous ones, a chi-square test of frequencies for the discrete ones), with fixed seeds
//! so every run draws the same numbers and a pass is permanent; the documented counter layout
//! checked against Philox4x32-10 itself; shapes (0-d, empty, sizes that are not multiples of
//! 4 or of a block); determinism and state advance; and every parameter error.

use crate::random_support;

use cuprite::prelude::*;
use cuprite::random::{philox4x32_10, Generator};
use random_support::*;

const N: usize = 200_003;

fn f64s<T: Float, B: ArrayBackend>(a: &Array<T, B>) -> Vec<f64> {
    a.to_vec()
        .unwrap()
        .iter()
        .map(|v| v.to_f64_lossy())
        .collect()
}

fn uniform_and_random<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(11);
    let u = f64s(&g.random::<f64, B>(&[N], dev).unwrap());
    assert!(u.iter().all(|&x| (0.0..1.0).contains(&x)));
    check_moments("random f64", &u, 0.5, 1.0 / 12.0, 5.0);
    check_ks("random f64", &u, |x| x.clamp(0.0, 1.0));
    let u = f64s(&g.uniform::<f32, B>(-2.0, 3.0, &[N], dev).unwrap());
    assert!(u.iter().all(|&x| (-2.0..3.0).contains(&x)));
    check_moments("uniform f32", &u, 0.5, 25.0 / 12.0, 5.0);
    check_ks("uniform f32", &u, |x| ((x + 2.0) / 5.0).clamp(0.0, 1.0));
}

/// The first outputs follow the documented layout: the block stream of call 0 under key
/// (seed_lo, seed_hi); f64 from words (0, 1) and (2, 3), f32 from each word.
fn counter_layout<B: ArrayBackend>(dev: &B) {
    let seed = 0x0123_4567_89ab_cdefu64;
    let key = [seed as u32, (seed >> 32) as u32];
    let w0 = philox4x32_10([0, 0, 0, 0], key);
    let w1 = philox4x32_10([1, 0, 0, 0], key);
    let want: Vec<f64> = [(w0[0], w0[1]), (w0[2], w0[3]), (w1[0], w1[1])]
        .iter()
        .map(|&(lo, hi)| ((((hi as u64) << 32) | lo as u64) >> 11) as f64 / (1u64 << 53) as f64)
        .collect();
    let got = Generator::new(seed).random::<f64, B>(&[3], dev).unwrap();
    assert_eq!(got.to_vec().unwrap(), want);
    let want: Vec<f32> = w0
        .iter()
        .chain(&w1[..1])
        .map(|&w| (w >> 8) as f32 / 16_777_216.0)
        .collect();
    let got = Generator::new(seed).random::<f32, B>(&[5], dev).unwrap();
    assert_eq!(got.to_vec().unwrap(), want);
    // A second draw uses call number 2 (the first reserved 0 and 1).
    let mut g = Generator::new(seed);
    g.random::<f32, B>(&[1], dev).unwrap();
    let w = philox4x32_10([0, 0, 2, 0], key);
    let got = g.random::<f32, B>(&[1], dev).unwrap();
    assert_eq!(
        got.to_vec().unwrap(),
        vec![(w[0] >> 8) as f32 / 16_777_216.0]
    );
}

fn normal_family<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(12);
    let z = f64s(&g.standard_normal::<f64, B>(&[N], dev).unwrap());
    check_moments("standard_normal", &z, 0.0, 1.0, 5.0);
    check_ks("standard_normal", &z, phi);
    let x = f64s(&g.normal::<f32, B>(3.0, 2.0, &[N], dev).unwrap());
    check_moments("normal f32", &x, 3.0, 4.0, 5.0);
    check_ks("normal f32", &x, |v| phi((v - 3.0) / 2.0));
    let (mu, s) = (0.2f64, 0.5f64);
    let x = f64s(&g.lognormal::<f64, B>(mu, s, &[N], dev).unwrap());
    let mean = (mu + s * s / 2.0).exp();
    let var = ((s * s).exp() - 1.0) * (2.0 * mu + s * s).exp();
    check_moments("lognormal", &x, mean, var, 5.0);
    check_ks("lognormal", &x, |v| {
        if v <= 0.0 {
            0.0
        } else {
            phi((v.ln() - mu) / s)
        }
    });
}

fn exponential_gamma_beta<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(13);
    let x = f64s(&g.exponential::<f64, B>(2.0, &[N], dev).unwrap());
    assert!(x.iter().all(|&v| v >= 0.0 && v.is_sign_positive()));
    check_moments("exponential", &x, 2.0, 4.0, 5.0);
    check_ks("exponential", &x, |v| 1.0 - (-v.max(0.0) / 2.0).exp());
    for (k, scale) in [(0.4, 1.0), (1.0, 2.0), (3.5, 0.5), (60.0, 1.0)] {
        let x = f64s(&g.gamma::<f64, B>(k, scale, &[N], dev).unwrap());
        let what = format!("gamma({k}, {scale})");
        check_moments(&what, &x, k * scale, k * scale * scale, 5.0);
        check_ks(&what, &x, |v| gamma_p(k, v / scale));
    }
    let x = f64s(&g.gamma::<f32, B>(2.0, 1.0, &[N], dev).unwrap());
    check_ks("gamma f32", &x, |v| gamma_p(2.0, v));
    assert!(f64s(&g.gamma::<f64, B>(0.0, 1.0, &[10], dev).unwrap())
        .iter()
        .all(|&v| v == 0.0));
    for (a, b) in [(0.5, 0.5), (0.3, 0.9), (2.0, 5.0), (1.0, 3.0)] {
        let x = f64s(&g.beta::<f64, B>(a, b, &[N], dev).unwrap());
        assert!(x.iter().all(|&v| (0.0..=1.0).contains(&v)));
        let what = format!("beta({a}, {b})");
        let var = a * b / ((a + b) * (a + b) * (a + b + 1.0));
        check_moments(&what, &x, a / (a + b), var, 5.0);
        check_ks(&what, &x, |v| beta_i(a, b, v));
    }
    let x = f64s(&g.beta::<f32, B>(2.0, 2.0, &[N], dev).unwrap());
    check_ks("beta f32", &x, |v| beta_i(2.0, 2.0, v));
}

fn integers_uniform<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(14);
    let x = g
        .integers::<i32, B>(-3, 7, &[N], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let c = counts(&x.iter().map(|&v| v as i64 + 3).collect::<Vec<_>>(), 10);
    check_chi2("integers i32", &c, &[0.1; 10]);
    let x = g
        .integers::<i64, B>(5, 18, &[N], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let c = counts(&x.iter().map(|&v| v - 5).collect::<Vec<_>>(), 13);
    check_chi2("integers i64", &c, &[1.0 / 13.0; 13]);
    let x = g
        .integers::<u8, B>(0, 255, &[N], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let c = counts(&x.iter().map(|&v| v as i64).collect::<Vec<_>>(), 255);
    check_chi2("integers u8", &c, &[1.0 / 255.0; 255]);
    // Ranges that need the 64-bit path, and the whole i64 and i32 ranges: the top bits are
    // uniform (frequencies of the top 3 bits).
    for (lo, hi) in [(i64::MIN, i64::MAX), (-(1 << 40), 1 << 40)] {
        let x = g
            .integers::<i64, B>(lo, hi, &[N], dev)
            .unwrap()
            .to_vec()
            .unwrap();
        let span = (hi as i128 - lo as i128) as f64;
        let bins: Vec<i64> = x
            .iter()
            .map(|&v| (((v as i128 - lo as i128) as f64 / span) * 8.0) as i64)
            .collect();
        check_chi2(
            &format!("integers [{lo}, {hi})"),
            &counts(&bins, 8),
            &[0.125; 8],
        );
    }
    let x = g
        .integers::<i32, B>(i32::MIN, i32::MAX, &[N], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let bins: Vec<i64> = x
        .iter()
        .map(|&v| (v as i64 - i32::MIN as i64) >> 29)
        .collect();
    check_chi2("integers full i32", &counts(&bins, 8), &[0.125; 8]);
    let c = g
        .integers::<i64, B>(4, 5, &[100], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(c.iter().all(|&v| v == 4));
}

fn poisson_binomial<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(15);
    for lam in [0.5, 4.0, 9.99, 10.0, 37.5, 400.0] {
        let x = g.poisson(lam, &[N], dev).unwrap().to_vec().unwrap();
        let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        let what = format!("poisson({lam})");
        check_moments(&what, &xf, lam, lam, 5.0);
        let len = (lam + 12.0 * lam.sqrt() + 12.0) as usize;
        let c = counts(
            &x.iter().map(|&v| v.min(len as i64 - 1)).collect::<Vec<_>>(),
            len,
        );
        check_chi2(&what, &c, &poisson_pmf(lam, len));
    }
    assert!(g
        .poisson(0.0, &[5], dev)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|&v| v == 0));
    let x = g.poisson(1e12, &[2000], dev).unwrap().to_vec().unwrap();
    let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    check_moments("poisson(1e12)", &xf, 1e12, 1e12, 5.0);
    for (n, p) in [
        (10u64, 0.3),
        (50, 0.9),
        (200, 0.25),
        (1000, 0.5),
        (5000, 0.02),
    ] {
        let x = g
            .binomial(n as i64, p, &[N], dev)
            .unwrap()
            .to_vec()
            .unwrap();
        let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        let what = format!("binomial({n}, {p})");
        check_moments(&what, &xf, n as f64 * p, n as f64 * p * (1.0 - p), 5.0);
        check_chi2(&what, &counts(&x, n as usize + 1), &binomial_pmf(n, p));
    }
    let (n, p) = (1i64 << 40, 0.3);
    let x = g.binomial(n, p, &[20_000], dev).unwrap().to_vec().unwrap();
    let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    check_moments(
        "binomial(2^40, 0.3)",
        &xf,
        n as f64 * p,
        n as f64 * p * 0.7,
        5.0,
    );
    let edge = g.binomial(7, 1.0, &[3], dev).unwrap().to_vec().unwrap();
    assert_eq!(edge, vec![7, 7, 7]);
}

fn permutations_and_shuffles<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(16);
    let n = 100_001usize;
    let p = g.permutation(n, dev).unwrap().to_vec().unwrap();
    let mut s = p.clone();
    s.sort();
    assert_eq!(s, (0..n as i64).collect::<Vec<_>>());
    // Ascents of a uniform permutation: mean (n-1)/2, variance (n+1)/12.
    let asc = p.windows(2).filter(|w| w[0] < w[1]).count() as f64;
    let sd = ((n + 1) as f64 / 12.0).sqrt();
    assert!(
        (asc - (n - 1) as f64 / 2.0).abs() < 5.0 * sd,
        "ascents {asc}"
    );
    // Position of element 0 over many small shuffles is uniform.
    let mut pos = vec![0u64; 5];
    for _ in 0..4000 {
        let mut x = Array::<i32, B>::from_vec(vec![0, 1, 2, 3, 4], &[5], dev).unwrap();
        g.shuffle(&mut x).unwrap();
        let v = x.to_vec().unwrap();
        pos[v.iter().position(|&e| e == 0).unwrap()] += 1;
    }
    check_chi2("shuffle position", &pos, &[0.2; 5]);
    // Rows move whole; the input of `shuffled` is untouched.
    let a = Array::<f64, B>::arange(0.0, 12.0, 1.0, dev)
        .unwrap()
        .reshape(&[4, 3])
        .unwrap();
    let b = g.shuffled(&a).unwrap();
    assert_eq!(
        a.to_vec().unwrap(),
        (0..12).map(|v| v as f64).collect::<Vec<_>>()
    );
    let rows: Vec<Vec<f64>> = b.to_vec().unwrap().chunks(3).map(|r| r.to_vec()).collect();
    assert!(rows
        .iter()
        .all(|r| r[1] == r[0] + 1.0 && r[2] == r[0] + 2.0 && r[0] % 3.0 == 0.0));
    assert_eq!(g.permutation(0, dev).unwrap().shape(), &[0]);
    let mut e = Array::<f64, B>::zeros(&[0, 2], dev).unwrap();
    g.shuffle(&mut e).unwrap();
    assert_eq!(e.shape(), &[0, 2]);
}

fn choices<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(17);
    let p = [0.1, 0.0, 0.2, 0.3, 0.4];
    let x = g
        .choice_index(5, &[N], true, Some(&p), dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let c = counts(&x, 5);
    assert_eq!(c[1], 0);
    check_chi2("choice with p", &c, &p);
    let x = g
        .choice_index(7, &[N], true, None, dev)
        .unwrap()
        .to_vec()
        .unwrap();
    check_chi2("choice uniform", &counts(&x, 7), &[1.0 / 7.0; 7]);
    // Without replacement: distinct; the first pick follows p.
    let x = g.choice_index(1000, &[10, 50], false, None, dev).unwrap();
    assert_eq!(x.shape(), &[10, 50]);
    let mut v = x.to_vec().unwrap();
    v.sort();
    v.dedup();
    assert_eq!(v.len(), 500);
    assert!(v.iter().all(|&i| (0..1000).contains(&i)));
    let mut first = vec![0u64; 5];
    for _ in 0..3000 {
        let s = g
            .choice_index(5, &[3], false, Some(&p), dev)
            .unwrap()
            .to_vec()
            .unwrap();
        let mut d = s.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 3);
        assert!(!s.contains(&1), "zero-probability index drawn: {s:?}");
        first[s[0] as usize] += 1;
    }
    check_chi2("choice without replacement, first pick", &first, &p);
    let a = Array::<f32, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2], dev).unwrap();
    let c = g.choice(&a, &[4], true, None).unwrap();
    assert_eq!(c.shape(), &[4, 2]);
    let cv = c.to_vec().unwrap();
    assert!(cv
        .chunks(2)
        .all(|r| r[1] == r[0] + 1.0 && r[0] % 2.0 == 1.0));
    assert_eq!(g.choice(&a, &[], true, None).unwrap().shape(), &[2]);
    assert_eq!(
        g.choice_index(0, &[0], false, None, dev).unwrap().shape(),
        &[0]
    );
}

fn multivariate<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(18);
    let mean = [1.0, -2.0, 0.5];
    let cov = [4.0, 1.2, 0.0, 1.2, 1.0, -0.3, 0.0, -0.3, 0.5];
    let m = 100_000;
    let x = g
        .multivariate_normal::<f64, B>(&mean, &cov, &[m], dev)
        .unwrap();
    assert_eq!(x.shape(), &[m, 3]);
    let v = x.to_vec().unwrap();
    for i in 0..3 {
        let xi: Vec<f64> = v.chunks(3).map(|r| r[i]).collect();
        check_moments(
            &format!("mvn component {i}"),
            &xi,
            mean[i],
            cov[i * 3 + i],
            5.0,
        );
        check_ks(&format!("mvn component {i}"), &xi, |t| {
            phi((t - mean[i]) / cov[i * 3 + i].sqrt())
        });
        for j in 0..i {
            let c: f64 = v
                .chunks(3)
                .map(|r| (r[i] - mean[i]) * (r[j] - mean[j]))
                .sum::<f64>()
                / m as f64;
            let se = ((cov[i * 3 + i] * cov[j * 3 + j] + cov[i * 3 + j].powi(2)) / m as f64).sqrt();
            assert!((c - cov[i * 3 + j]).abs() < 5.0 * se, "cov[{i}][{j}] = {c}");
        }
    }
    // Semi-definite: the second component is twice the first.
    let x = g
        .multivariate_normal::<f32, B>(&[0.0, 0.0], &[1.0, 2.0, 2.0, 4.0], &[2, 5], dev)
        .unwrap();
    assert_eq!(x.shape(), &[2, 5, 2]);
    assert!(x
        .to_vec()
        .unwrap()
        .chunks(2)
        .all(|r| (r[1] - 2.0 * r[0]).abs() < 1e-5));
    let one = g
        .multivariate_normal::<f64, B>(&[5.0], &[0.0], &[], dev)
        .unwrap();
    assert_eq!(one.to_vec().unwrap(), vec![5.0]);
}

fn shapes<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(19);
    for size in [
        &[][..],
        &[0],
        &[3, 0],
        &[1],
        &[5],
        &[7],
        &[2, 3],
        &[4099],
        &[3, 257],
    ] {
        let n: usize = size.iter().product();
        let check = |shape: &[usize], len: usize| {
            assert_eq!(shape, size);
            assert_eq!(len, n);
        };
        let a = g.random::<f32, B>(size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.random::<f64, B>(size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.normal::<f64, B>(0.0, 1.0, size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.gamma::<f32, B>(2.0, 1.0, size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.integers::<i32, B>(0, 3, size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.binomial(5, 0.5, size, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
        let a = g.choice_index(4, size, true, None, dev).unwrap();
        check(a.shape(), a.to_vec().unwrap().len());
    }
    // A size that is not a multiple of 4: the tail agrees with a longer draw's prefix.
    let long = Generator::new(5)
        .random::<f32, B>(&[8], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let short = Generator::new(5)
        .random::<f32, B>(&[7], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert_eq!(short[..], long[..7]);
    let long = Generator::new(5)
        .random::<f64, B>(&[4], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let short = Generator::new(5)
        .random::<f64, B>(&[3], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert_eq!(short[..], long[..3]);
}

fn determinism_and_streams<B: ArrayBackend>(dev: &B) {
    let draw = |g: &mut Generator| {
        (
            g.normal::<f64, B>(0.0, 1.0, &[1000], dev)
                .unwrap()
                .to_vec()
                .unwrap(),
            g.poisson(20.0, &[1000], dev).unwrap().to_vec().unwrap(),
        )
    };
    let (mut a, mut b) = (Generator::new(99), Generator::new(99));
    let (x1, y1) = draw(&mut a);
    let (x2, y2) = draw(&mut b);
    assert_eq!(x1, x2);
    assert_eq!(y1, y2);
    let (x3, _) = draw(&mut a);
    assert_ne!(x1, x3, "the state advances between draws");
    let (x4, _) = draw(&mut Generator::new(100));
    assert_ne!(x1, x4);
    let kids = Generator::new(99).spawn(2);
    let (k0, _) = draw(&mut kids[0].clone());
    let (k1, _) = draw(&mut kids[1].clone());
    assert_ne!(k0, k1);
    assert_ne!(k0, x1);
    // Independent streams: children's normals are uncorrelated.
    let c: f64 = k0.iter().zip(&k1).map(|(a, b)| a * b).sum::<f64>() / 1000.0;
    assert!(c.abs() < 5.0 / 1000f64.sqrt(), "correlation {c}");
}

fn errors<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(20);
    let s = &[4][..];
    expect_err(
        g.uniform::<f64, B>(1.0, 1.0, s, dev),
        "uniform",
        &["low=1", "high=1"],
    );
    expect_err(
        g.uniform::<f32, B>(2.0, -1.0, s, dev),
        "uniform",
        &["low=2"],
    );
    expect_err(
        g.uniform::<f64, B>(0.0, f64::INFINITY, s, dev),
        "uniform",
        &["inf"],
    );
    expect_err(
        g.normal::<f64, B>(0.0, -1.0, s, dev),
        "normal",
        &["scale=-1"],
    );
    expect_err(
        g.normal::<f32, B>(f64::NAN, 1.0, s, dev),
        "normal",
        &["loc=NaN"],
    );
    expect_err(
        g.lognormal::<f64, B>(0.0, -0.5, s, dev),
        "lognormal",
        &["sigma=-0.5"],
    );
    expect_err(
        g.exponential::<f64, B>(-2.0, s, dev),
        "exponential",
        &["scale=-2"],
    );
    expect_err(g.gamma::<f64, B>(-1.0, 1.0, s, dev), "gamma", &["shape=-1"]);
    expect_err(g.gamma::<f64, B>(1.0, -3.0, s, dev), "gamma", &["scale=-3"]);
    expect_err(g.beta::<f64, B>(0.0, 1.0, s, dev), "beta", &["a=0"]);
    expect_err(g.beta::<f32, B>(1.0, -1.0, s, dev), "beta", &["b=-1"]);
    expect_err(
        g.integers::<i32, B>(5, 5, s, dev),
        "integers",
        &["low=5", "high=5"],
    );
    expect_err(
        g.integers::<i64, B>(9, 2, s, dev),
        "integers",
        &["low=9", "high=2"],
    );
    expect_err(g.poisson(-1.0, s, dev), "poisson", &["lam=-1"]);
    expect_err(
        g.poisson(1e19, s, dev),
        "poisson",
        &["lam=10000000000000000000"],
    );
    expect_err(g.poisson(f64::NAN, s, dev), "poisson", &["lam=NaN"]);
    expect_err(g.binomial(-1, 0.5, s, dev), "binomial", &["n=-1"]);
    expect_err(g.binomial(3, 1.5, s, dev), "binomial", &["p=1.5"]);
    let p = [0.5, 0.6];
    expect_err(
        g.choice_index(2, s, true, Some(&p), dev),
        "choice",
        &["sum(p)=1.1"],
    );
    expect_err(
        g.choice_index(3, s, true, Some(&[0.5, 0.5]), dev),
        "choice",
        &["2 entries", "3"],
    );
    expect_err(
        g.choice_index(2, s, true, Some(&[1.5, -0.5]), dev),
        "choice",
        &["-0.5"],
    );
    expect_err(
        g.choice_index(3, s, false, None, dev),
        "choice",
        &["4 elements", "population of 3"],
    );
    let p = [0.5, 0.5, 0.0, 0.0];
    expect_err(
        g.choice_index(4, &[3], false, Some(&p), dev),
        "choice",
        &["only 2"],
    );
    expect_err(
        g.choice_index(0, s, true, None, dev),
        "choice",
        &["empty population"],
    );
    let z = Array::<f64, B>::scalar(1.0, dev).unwrap();
    expect_err(g.choice(&z, s, true, None), "choice", &["1-d"]);
    let mut z2 = z.clone();
    expect_err(g.shuffle(&mut z2), "shuffle", &["0-d"]);
    expect_err(
        g.multivariate_normal::<f64, B>(&[0.0, 0.0], &[1.0, 2.0, 2.0, 1.0], s, dev),
        "multivariate_normal",
        &["positive semi-definite"],
    );
    expect_err(
        g.multivariate_normal::<f64, B>(&[0.0, 0.0], &[1.0, 0.0, 0.0], s, dev),
        "multivariate_normal",
        &["2 x 2", "got 3"],
    );
    expect_err(
        g.multivariate_normal::<f64, B>(&[0.0, 0.0], &[1.0, 0.5, 0.0, 1.0], s, dev),
        "multivariate_normal",
        &["symmetric"],
    );
    expect_err(
        g.random::<f64, B>(&[usize::MAX, 2], dev),
        "random",
        &["too many"],
    );
}

cuprite::test_backends!(
    uniform_and_random,
    counter_layout,
    normal_family,
    exponential_gamma_beta,
    integers_uniform,
    poisson_binomial,
    permutations_and_shuffles,
    choices,
    multivariate,
    shapes,
    determinism_and_streams,
    errors,
);
