//! NumPy's remaining `Generator` distributions on every backend, against SciPy references
//! (`scripts/fixtures/random_dists.py`): for each continuous case the empirical CDF at 100
//! SciPy quantiles, for each discrete case a chi-square test of frequencies against the SciPy
//! pmf, and where the fourth moment is finite the sample mean and variance within 5 standard
//! errors. Seeds are fixed, so every run draws the same numbers and a pass is permanent.
//!
//! False-failure rates of the thresholds (the chance a correct sampler fails a case with a
//! fresh seed): the CDF check bounds `|F_n(q) - F(q)|` by the Kolmogorov–Smirnov 0.1%
//! critical value `1.95 / sqrt(n)` at a subset of points, so it fails at most as often as the
//! KS test itself, 0.1% per case; the chi-square bound `df + 6 sqrt(2 df)` is exceeded with
//! probability below 1e-4 for the bin counts used (2 to 200); a mean or variance more than 5
//! standard errors off happens with probability about 6e-7 per moment. Also: parameter edge
//! values with exact results, the composed draws (dirichlet, multinomial, permuted, bytes),
//! 0-d and empty sizes, and every parameter error.

use crate::common::fixture_vec;
use crate::random_support::*;

use cuprite::prelude::*;
use cuprite::random::Generator;

const N: usize = 200_003;
const TOPIC: &str = "random_dists";

fn f64s<T: Float, B: ArrayBackend>(a: &Array<T, B>) -> Vec<f64> {
    a.to_vec()
        .unwrap()
        .iter()
        .map(|v| v.to_f64_lossy())
        .collect()
}

fn reference(name: &str, what: &str) -> Vec<f64> {
    fixture_vec::<f64>(TOPIC, &format!("{name}/{what}")).0
}

/// The sample mean and variance against the reference when its fourth moment is finite.
#[track_caller]
fn check_reference_moments(name: &str, x: &[f64]) {
    let m = reference(name, "moments");
    if m[2] == 1.0 {
        check_moments(name, x, m[0], m[1], 5.0);
    }
}

/// The empirical CDF at each SciPy quantile within the KS 0.1% critical value of its level,
/// and the moments.
#[track_caller]
fn check_continuous(name: &str, x: &[f64]) {
    let probs = reference(name, "probs");
    let quantiles = reference(name, "quantiles");
    let mut s = x.to_vec();
    assert!(s.iter().all(|v| !v.is_nan()), "{name}: NaN drawn");
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    let crit = 1.95 / n.sqrt();
    // Draws that round to a quantile (a heavy end of the support, such as Beta(0.05, 0.1)
    // drawing 1.0 exactly about 1% of the time) make the empirical CDF jump there: the level
    // must lie within the critical distance of the jump [F(q-), F(q)], which for draws
    // without ties is the single value F(q).
    for (p, q) in probs.iter().zip(&quantiles) {
        let below = s.partition_point(|&v| v < *q) as f64 / n;
        let f = s.partition_point(|&v| v <= *q) as f64 / n;
        assert!(
            *p >= below - crit && *p <= f + crit,
            "{name}: empirical CDF [{below}, {f}] at the {p} quantile {q} (critical distance {crit})"
        );
    }
    check_reference_moments(name, x);
}

/// A chi-square test of the frequencies against the SciPy pmf (values past its end count in
/// its last bin, which holds the tail), and the moments.
#[track_caller]
fn check_discrete(name: &str, x: &[i64]) {
    let pmf = reference(name, "pmf");
    let start = fixture_vec::<i64>(TOPIC, &format!("{name}/start")).0[0];
    let mut counts = vec![0u64; pmf.len()];
    for &v in x {
        assert!(v >= start, "{name}: {v} below the support's start {start}");
        counts[((v - start) as usize).min(pmf.len() - 1)] += 1;
    }
    check_chi2(name, &counts, &pmf);
    let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    check_reference_moments(name, &xf);
}

/// Draws case `name` (f64, or f32 where `f32`).
fn draw_continuous<B: ArrayBackend>(g: &mut Generator, name: &str, f32: bool, dev: &B) -> Vec<f64> {
    macro_rules! d {
        ($m:ident($($p:expr),*)) => {
            if f32 {
                f64s(&g.$m::<f32, B>($($p,)* &[N], dev).unwrap())
            } else {
                f64s(&g.$m::<f64, B>($($p,)* &[N], dev).unwrap())
            }
        };
    }
    match name {
        "standard_exponential" => d!(standard_exponential()),
        "standard_gamma_0.5" => d!(standard_gamma(0.5)),
        "standard_gamma_3" => d!(standard_gamma(3.0)),
        "standard_cauchy" => d!(standard_cauchy()),
        "standard_t_3.5" => d!(standard_t(3.5)),
        "standard_t_10" => d!(standard_t(10.0)),
        "chisquare_0.7" => d!(chisquare(0.7)),
        "chisquare_6" => d!(chisquare(6.0)),
        "noncentral_chisquare_4_1.5" => d!(noncentral_chisquare(4.0, 1.5)),
        "noncentral_chisquare_0.5_2" => d!(noncentral_chisquare(0.5, 2.0)),
        "f_3_8" => d!(f(3.0, 8.0)),
        "f_5_20" => d!(f(5.0, 20.0)),
        "noncentral_f_2_12_0.7" => d!(noncentral_f(2.0, 12.0, 0.7)),
        "laplace_1_2" => d!(laplace(1.0, 2.0)),
        "logistic_-1_0.5" => d!(logistic(-1.0, 0.5)),
        "gumbel_0.5_3" => d!(gumbel(0.5, 3.0)),
        "weibull_0.7" => d!(weibull(0.7)),
        "weibull_2" => d!(weibull(2.0)),
        "pareto_2.5" => d!(pareto(2.5)),
        "pareto_6" => d!(pareto(6.0)),
        "rayleigh_1.5" => d!(rayleigh(1.5)),
        "wald_2_0.7" => d!(wald(2.0, 0.7)),
        "wald_1_5" => d!(wald(1.0, 5.0)),
        "triangular_-1_0.25_3" => d!(triangular(-1.0, 0.25, 3.0)),
        "triangular_0_0_1" => d!(triangular(0.0, 0.0, 1.0)),
        "power_0.6" => d!(power(0.6)),
        "power_3" => d!(power(3.0)),
        "vonmises_0_2" => d!(vonmises(0.0, 2.0)),
        "vonmises_0_0.3" => d!(vonmises(0.0, 0.3)),
        "vonmises_0_3e-06" => d!(vonmises(0.0, 3e-6)),
        "vonmises_0_1e-09" => d!(vonmises(0.0, 1e-9)),
        "vonmises_0_1e+07" => d!(vonmises(0.0, 1e7)),
        _ => panic!("no case {name}"),
    }
}

const CONTINUOUS: [&str; 32] = [
    "standard_exponential",
    "standard_gamma_0.5",
    "standard_gamma_3",
    "standard_cauchy",
    "standard_t_3.5",
    "standard_t_10",
    "chisquare_0.7",
    "chisquare_6",
    "noncentral_chisquare_4_1.5",
    "noncentral_chisquare_0.5_2",
    "f_3_8",
    "f_5_20",
    "noncentral_f_2_12_0.7",
    "laplace_1_2",
    "logistic_-1_0.5",
    "gumbel_0.5_3",
    "weibull_0.7",
    "weibull_2",
    "pareto_2.5",
    "pareto_6",
    "rayleigh_1.5",
    "wald_2_0.7",
    "wald_1_5",
    "triangular_-1_0.25_3",
    "triangular_0_0_1",
    "power_0.6",
    "power_3",
    "vonmises_0_2",
    "vonmises_0_0.3",
    "vonmises_0_3e-06",
    "vonmises_0_1e-09",
    "vonmises_0_1e+07",
];

fn continuous<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(31);
    for name in CONTINUOUS {
        check_continuous(name, &draw_continuous(&mut g, name, false, dev));
    }
    // f32 outputs are the f64 values rounded: the same distribution at f32 resolution.
    for name in [
        "standard_t_10",
        "laplace_1_2",
        "gumbel_0.5_3",
        "wald_1_5",
        "power_3",
    ] {
        let x = draw_continuous(&mut g, name, true, dev);
        check_continuous(name, &x);
    }
    // von Mises about mu: the draws minus mu, wrapped into [-pi, pi], follow the mu = 0
    // reference; every draw lies in [-pi, pi].
    let pi = std::f64::consts::PI;
    for (mu, kappa, name) in [(2.5, 2.0, "vonmises_0_2"), (-3.0, 1e7, "vonmises_0_1e+07")] {
        let x = f64s(&g.vonmises::<f64, B>(mu, kappa, &[N], dev).unwrap());
        assert!(
            x.iter().all(|v| (-pi..=pi).contains(v)),
            "vonmises({mu}, {kappa})"
        );
        let centred: Vec<f64> = x
            .iter()
            .map(|&v| {
                let d = v - mu;
                if d > pi {
                    d - 2.0 * pi
                } else if d < -pi {
                    d + 2.0 * pi
                } else {
                    d
                }
            })
            .collect();
        check_continuous(name, &centred);
    }
}

fn discrete<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(32);
    let s = &[N][..];
    let cases: [(&str, Array<i64, B>); 12] = [
        ("geometric_0.6", g.geometric(0.6, s, dev).unwrap()),
        ("geometric_0.05", g.geometric(0.05, s, dev).unwrap()),
        (
            "negative_binomial_2.5_0.3",
            g.negative_binomial(2.5, 0.3, s, dev).unwrap(),
        ),
        (
            "negative_binomial_40_0.8",
            g.negative_binomial(40.0, 0.8, s, dev).unwrap(),
        ),
        ("zipf_1.7", g.zipf(1.7, s, dev).unwrap()),
        ("zipf_3", g.zipf(3.0, s, dev).unwrap()),
        ("logseries_0.6", g.logseries(0.6, s, dev).unwrap()),
        ("logseries_0.97", g.logseries(0.97, s, dev).unwrap()),
        (
            "hypergeometric_7_12_5",
            g.hypergeometric(7, 12, 5, s, dev).unwrap(),
        ),
        (
            "hypergeometric_30_3_25",
            g.hypergeometric(30, 3, 25, s, dev).unwrap(),
        ),
        (
            "hypergeometric_400_900_300",
            g.hypergeometric(400, 900, 300, s, dev).unwrap(),
        ),
        (
            "hypergeometric_1000_10_500",
            g.hypergeometric(1000, 10, 500, s, dev).unwrap(),
        ),
    ];
    for (name, x) in cases {
        assert_eq!(x.shape(), s);
        check_discrete(name, &x.to_vec().unwrap());
    }
}

/// Parameter values whose draws are exact.
fn exact_edges<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(33);
    let s = &[257][..];
    let all = |v: Vec<f64>, want: f64| v.iter().all(|&x| x == want);
    assert!(all(
        f64s(&g.laplace::<f64, B>(2.5, 0.0, s, dev).unwrap()),
        2.5
    ));
    assert!(all(
        f64s(&g.logistic::<f32, B>(-1.0, 0.0, s, dev).unwrap()),
        -1.0
    ));
    assert!(all(
        f64s(&g.gumbel::<f64, B>(4.0, 0.0, s, dev).unwrap()),
        4.0
    ));
    assert!(all(f64s(&g.weibull::<f64, B>(0.0, s, dev).unwrap()), 0.0));
    assert!(all(f64s(&g.rayleigh::<f64, B>(0.0, s, dev).unwrap()), 0.0));
    assert!(all(
        f64s(&g.standard_gamma::<f64, B>(0.0, s, dev).unwrap()),
        0.0
    ));
    let ones = |v: Vec<i64>| v.iter().all(|&k| k == 1);
    assert!(ones(g.geometric(1.0, s, dev).unwrap().to_vec().unwrap()));
    assert!(ones(g.logseries(0.0, s, dev).unwrap().to_vec().unwrap()));
    assert!(ones(g.zipf(2000.0, s, dev).unwrap().to_vec().unwrap()));
    let nb = g
        .negative_binomial(3.0, 1.0, s, dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(nb.iter().all(|&k| k == 0));
    let h = g.hypergeometric(5, 0, 3, s, dev).unwrap().to_vec().unwrap();
    assert!(h.iter().all(|&k| k == 3));
    let h = g.hypergeometric(0, 5, 3, s, dev).unwrap().to_vec().unwrap();
    assert!(h.iter().all(|&k| k == 0));
    let h = g
        .hypergeometric(6, 4, 10, s, dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(h.iter().all(|&k| k == 6));
    let t = f64s(&g.triangular::<f64, B>(1.0, 3.0, 3.0, s, dev).unwrap());
    assert!(t.iter().all(|&v| (1.0..=3.0).contains(&v)));
    // Heavy tails stay finite where NumPy's do.
    let p = f64s(&g.pareto::<f64, B>(0.05, s, dev).unwrap());
    assert!(p.iter().all(|&v| v >= 0.0 && !v.is_nan()));
    let p = f64s(&g.power::<f64, B>(1e-3, s, dev).unwrap());
    assert!(p.iter().all(|&v| (0.0..=1.0).contains(&v)));
}

fn composed<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(34);
    for (alpha, name) in [
        (&[1.0, 2.0, 3.0][..], "dirichlet_1_2_3"),
        (&[0.05, 0.02, 0.08][..], "dirichlet_0.05_0.02_0.08"),
    ] {
        let x = g.dirichlet(alpha, &[N], dev).unwrap();
        assert_eq!(x.shape(), &[N, 3]);
        let v = x.to_vec().unwrap();
        for row in v.chunks(3) {
            assert!(row.iter().all(|&c| (0.0..=1.0).contains(&c)), "{row:?}");
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{row:?}");
        }
        let first: Vec<f64> = v.chunks(3).map(|r| r[0]).collect();
        check_continuous(name, &first);
    }
    let x = g.dirichlet(&[0.0, 2.0, 0.0], &[5], dev).unwrap();
    assert_eq!(
        x.to_vec().unwrap(),
        [0.0, 1.0, 0.0].repeat(5),
        "zero concentrations"
    );
    let x = g.dirichlet(&[0.0, 0.05, 0.0], &[5], dev).unwrap();
    assert_eq!(x.to_vec().unwrap(), [0.0, 1.0, 0.0].repeat(5));
    let x = g.dirichlet(&[0.0, 0.0], &[2, 2], dev).unwrap();
    assert_eq!(
        (x.shape(), x.to_vec().unwrap()),
        (&[2, 2, 2][..], vec![0.0; 8])
    );

    let x = g.multinomial(20, &[0.2, 0.3, 0.5], &[N], dev).unwrap();
    assert_eq!(x.shape(), &[N, 3]);
    let v = x.to_vec().unwrap();
    assert!(v.chunks(3).all(|r| r.iter().sum::<i64>() == 20));
    let second: Vec<i64> = v.chunks(3).map(|r| r[1]).collect();
    check_discrete("multinomial_20_0.2_0.3_0.5", &second);
    // The last category takes the rest, whatever its own entry says.
    let x = g.multinomial(7, &[0.0, 0.0, 0.25], &[3], dev).unwrap();
    assert_eq!(x.to_vec().unwrap(), [0, 0, 7].repeat(3));
    let x = g.multinomial(0, &[0.5, 0.5], &[2], dev).unwrap();
    assert_eq!(x.to_vec().unwrap(), vec![0; 4]);
    let x = g.multinomial(4, &[1.0], &[], dev).unwrap();
    assert_eq!((x.shape(), x.to_vec().unwrap()), (&[1][..], vec![4]));

    // permuted: every lane along the axis is a permutation of itself, lanes independent.
    let x = Array::<i64, B>::arange(0, 3 * 50, 1, dev)
        .unwrap()
        .reshape(&[3, 50])
        .unwrap();
    let y = g.permuted(&x, Some(-1)).unwrap();
    assert_eq!(y.shape(), &[3, 50]);
    let v = y.to_vec().unwrap();
    for (r, row) in v.chunks(50).enumerate() {
        let mut s = row.to_vec();
        s.sort();
        assert_eq!(s, (50 * r as i64..50 * (r as i64 + 1)).collect::<Vec<_>>());
        assert_ne!(row, &s[..], "row {r} left in order");
    }
    let shift: Vec<i64> = v[50..100].iter().map(|&k| k - 50).collect();
    assert_ne!(shift, v[..50], "rows shuffled alike");
    let y = g.permuted(&x, Some(0)).unwrap().to_vec().unwrap();
    for c in 0..50 {
        let mut col: Vec<i64> = (0..3).map(|r| y[r * 50 + c]).collect();
        col.sort();
        assert_eq!(col, vec![c as i64, 50 + c as i64, 100 + c as i64]);
    }
    let t = x.transpose();
    let y = g.permuted(&t, None).unwrap();
    assert_eq!(y.shape(), &[50, 3]);
    let mut all = y.to_vec().unwrap();
    all.sort();
    assert_eq!(all, (0..150).collect::<Vec<_>>());
    let f = Array::<f32, B>::from_vec(vec![1.5, -0.0, f32::NAN], &[3], dev).unwrap();
    let mut p = g.permuted(&f, Some(0)).unwrap().to_vec().unwrap();
    assert_eq!(p.iter().filter(|v| v.is_nan()).count(), 1);
    p.retain(|v| !v.is_nan());
    p.sort_by(f32::total_cmp);
    assert_eq!((p[0].to_bits(), p[1]), ((-0.0f32).to_bits(), 1.5));

    let b = Generator::new(9).bytes(13).unwrap();
    assert_eq!(b.len(), 13);
    assert_eq!(b[..8], Generator::new(9).bytes(8).unwrap()[..]);
    let many = Generator::new(9).bytes(80_000).unwrap();
    let mut counts = vec![0u64; 256];
    many.iter().for_each(|&v| counts[v as usize] += 1);
    check_chi2("bytes", &counts, &[1.0 / 256.0; 256]);
    assert!(Generator::new(9).bytes(0).unwrap().is_empty());
}

/// 0-d and empty sizes for every method, and the stream advancing past each draw.
fn shapes<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(35);
    for size in [&[][..], &[0], &[4, 0], &[5]] {
        let n: usize = size.iter().product();
        let floats: Vec<Array<f64, B>> = vec![
            g.standard_exponential(size, dev).unwrap(),
            g.standard_gamma(1.5, size, dev).unwrap(),
            g.standard_cauchy(size, dev).unwrap(),
            g.standard_t(3.0, size, dev).unwrap(),
            g.chisquare(2.0, size, dev).unwrap(),
            g.noncentral_chisquare(2.0, 1.0, size, dev).unwrap(),
            g.f(2.0, 3.0, size, dev).unwrap(),
            g.noncentral_f(2.0, 3.0, 1.0, size, dev).unwrap(),
            g.laplace(0.0, 1.0, size, dev).unwrap(),
            g.logistic(0.0, 1.0, size, dev).unwrap(),
            g.gumbel(0.0, 1.0, size, dev).unwrap(),
            g.weibull(1.0, size, dev).unwrap(),
            g.pareto(1.0, size, dev).unwrap(),
            g.rayleigh(1.0, size, dev).unwrap(),
            g.wald(1.0, 1.0, size, dev).unwrap(),
            g.triangular(0.0, 0.5, 1.0, size, dev).unwrap(),
            g.power(1.0, size, dev).unwrap(),
            g.vonmises(1.0, 1.0, size, dev).unwrap(),
        ];
        for a in floats {
            assert_eq!((a.shape(), a.to_vec().unwrap().len()), (size, n));
        }
        let ints: Vec<Array<i64, B>> = vec![
            g.geometric(0.5, size, dev).unwrap(),
            g.negative_binomial(1.0, 0.5, size, dev).unwrap(),
            g.zipf(2.0, size, dev).unwrap(),
            g.logseries(0.5, size, dev).unwrap(),
            g.hypergeometric(3, 4, 2, size, dev).unwrap(),
        ];
        for a in ints {
            assert_eq!((a.shape(), a.to_vec().unwrap().len()), (size, n));
        }
        let mut last = size.to_vec();
        last.push(3);
        let d = g.dirichlet(&[1.0, 1.0, 1.0], size, dev).unwrap();
        assert_eq!((d.shape(), d.to_vec().unwrap().len()), (&last[..], 3 * n));
        let m = g.multinomial(5, &[0.3, 0.3, 0.4], size, dev).unwrap();
        assert_eq!((m.shape(), m.to_vec().unwrap().len()), (&last[..], 3 * n));
    }
    let z = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(g.permuted(&z, Some(1)).unwrap().shape(), &[0, 3]);
    assert_eq!(g.permuted(&z, None).unwrap().shape(), &[0, 3]);
    let s = Array::<f64, B>::scalar(2.0, dev).unwrap();
    let p = g.permuted(&s, None).unwrap();
    assert_eq!((p.shape(), p.to_vec().unwrap()), (&[][..], vec![2.0]));
    // Consecutive draws differ; the same seed repeats them.
    let a = g
        .wald::<f64, B>(1.0, 1.0, &[8], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    let b = g
        .wald::<f64, B>(1.0, 1.0, &[8], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert_ne!(a, b);
    let mut h = Generator::new(35);
    let again = h.zipf(2.0, &[16], dev).unwrap().to_vec().unwrap();
    let mut k = Generator::new(35);
    assert_eq!(again, k.zipf(2.0, &[16], dev).unwrap().to_vec().unwrap());
}

fn errors<B: ArrayBackend>(dev: &B) {
    let mut g = Generator::new(36);
    let s = &[4][..];
    let nan = f64::NAN;
    expect_err(
        g.standard_gamma::<f64, B>(-1.0, s, dev),
        "standard_gamma",
        &["shape=-1"],
    );
    expect_err(g.standard_t::<f64, B>(0.0, s, dev), "standard_t", &["df=0"]);
    expect_err(g.chisquare::<f32, B>(nan, s, dev), "chisquare", &["df=NaN"]);
    expect_err(
        g.noncentral_chisquare::<f64, B>(0.0, 1.0, s, dev),
        "noncentral_chisquare",
        &["df=0"],
    );
    expect_err(
        g.noncentral_chisquare::<f64, B>(1.0, -1.0, s, dev),
        "noncentral_chisquare",
        &["nonc=-1"],
    );
    expect_err(g.f::<f64, B>(0.0, 1.0, s, dev), "f", &["dfnum=0"]);
    expect_err(g.f::<f64, B>(1.0, -2.0, s, dev), "f", &["dfden=-2"]);
    expect_err(
        g.noncentral_f::<f64, B>(1.0, 1.0, -1.0, s, dev),
        "noncentral_f",
        &["nonc=-1"],
    );
    expect_err(
        g.noncentral_f::<f64, B>(1.0, f64::INFINITY, 1.0, s, dev),
        "noncentral_f",
        &["dfden=inf"],
    );
    expect_err(
        g.laplace::<f64, B>(0.0, -1.0, s, dev),
        "laplace",
        &["scale=-1"],
    );
    expect_err(
        g.logistic::<f64, B>(nan, 1.0, s, dev),
        "logistic",
        &["loc=NaN"],
    );
    expect_err(
        g.gumbel::<f32, B>(0.0, -0.5, s, dev),
        "gumbel",
        &["scale=-0.5"],
    );
    expect_err(g.weibull::<f64, B>(-1.0, s, dev), "weibull", &["a=-1"]);
    expect_err(g.pareto::<f64, B>(0.0, s, dev), "pareto", &["a=0"]);
    expect_err(
        g.rayleigh::<f64, B>(-1.0, s, dev),
        "rayleigh",
        &["scale=-1"],
    );
    expect_err(g.wald::<f64, B>(0.0, 1.0, s, dev), "wald", &["mean=0"]);
    expect_err(g.wald::<f64, B>(1.0, 0.0, s, dev), "wald", &["scale=0"]);
    expect_err(
        g.triangular::<f64, B>(1.0, 0.0, 2.0, s, dev),
        "triangular",
        &["left=1", "mode=0", "right=2"],
    );
    expect_err(
        g.triangular::<f64, B>(1.0, 1.0, 1.0, s, dev),
        "triangular",
        &["left < right"],
    );
    expect_err(
        g.triangular::<f64, B>(0.0, 2.0, 1.0, s, dev),
        "triangular",
        &["mode=2"],
    );
    expect_err(g.power::<f64, B>(0.0, s, dev), "power", &["a=0"]);
    expect_err(
        g.vonmises::<f64, B>(0.0, -1.0, s, dev),
        "vonmises",
        &["kappa=-1"],
    );
    expect_err(
        g.vonmises::<f32, B>(nan, 1.0, s, dev),
        "vonmises",
        &["mu=NaN"],
    );
    expect_err(g.geometric(0.0, s, dev), "geometric", &["p=0"]);
    expect_err(g.geometric(1.5, s, dev), "geometric", &["p=1.5"]);
    expect_err(g.geometric(nan, s, dev), "geometric", &["p=NaN"]);
    expect_err(
        g.negative_binomial(0.0, 0.5, s, dev),
        "negative_binomial",
        &["n=0"],
    );
    expect_err(
        g.negative_binomial(1.0, 0.0, s, dev),
        "negative_binomial",
        &["p=0"],
    );
    expect_err(
        g.negative_binomial(1.0, 1e-300, s, dev),
        "negative_binomial",
        &["p too small"],
    );
    expect_err(g.zipf(1.0, s, dev), "zipf", &["a=1"]);
    expect_err(g.zipf(nan, s, dev), "zipf", &["a=NaN"]);
    expect_err(g.logseries(1.0, s, dev), "logseries", &["p=1"]);
    expect_err(g.logseries(-0.1, s, dev), "logseries", &["p=-0.1"]);
    expect_err(
        g.hypergeometric(-1, 1, 1, s, dev),
        "hypergeometric",
        &["ngood=-1"],
    );
    expect_err(
        g.hypergeometric(1, 1, 3, s, dev),
        "hypergeometric",
        &["nsample <= ngood + nbad", "nsample=3"],
    );
    expect_err(
        g.hypergeometric(1_000_000_000, 1, 3, s, dev),
        "hypergeometric",
        &["less than 1000000000"],
    );
    expect_err(g.dirichlet(&[1.0, -1.0], s, dev), "dirichlet", &["-1"]);
    expect_err(g.dirichlet(&[nan], s, dev), "dirichlet", &["NaN"]);
    expect_err(
        g.dirichlet(&[1.0, 1.0], &[usize::MAX, 2], dev),
        "dirichlet",
        &["too many"],
    );
    expect_err(
        g.multinomial(-1, &[0.5, 0.5], s, dev),
        "multinomial",
        &["n=-1"],
    );
    expect_err(
        g.multinomial(3, &[0.5, 0.5, -0.1], s, dev),
        "multinomial",
        &["-0.1"],
    );
    expect_err(
        g.multinomial(3, &[0.7, 0.6, 0.1], s, dev),
        "multinomial",
        &["sum(pvals[:-1])"],
    );
    expect_err(g.multinomial(3, &[], s, dev), "multinomial", &["empty"]);
    let x = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    expect_err(
        g.permuted(&x, Some(2)),
        "permuted",
        &["axis 2", "dimension 2"],
    );
    expect_err(g.permuted(&x, Some(-3)), "permuted", &["axis -3"]);
}

cuprite::test_backends!(continuous, discrete, exact_edges, composed, shapes, errors,);
