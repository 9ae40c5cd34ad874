//! NumPy's statistics on every backend, against NumPy fixtures
//! (`scripts/fixtures/statistics.py`): `quantile`/`percentile` with every
//! [`QuantileMethod`] (all axes, several axes with keepdims, transposed/reversed/strided
//! views, NaN lanes, 0-d input), `nanquantile`/`nanpercentile`/`nanmedian` (all-NaN lanes,
//! lanes of one number, empty and 0-d inputs), `average` (full-shape, per-axis and negative
//! weights, `returned`), `cov` (y, rowvar, bias, ddof, fweights, aweights, no observations,
//! no degrees of freedom) and `corrcoef` (clipping, constant rows) for every dtype family
//! each accepts: f64, f32, f16, bf16, integers, bool, complex; and every error path.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::{bf16, f16};

/// The quantiles of the fixtures: any value (f64) and dyadic values (every float type).
const QS: [f64; 9] = [0.0, 0.1, 0.25, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0];
const QD: [f64; 7] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.75, 1.0];

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "statistics", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// Asserts that `got` is close to fixture `name` (read as `T`).
#[track_caller]
fn close<T: Element, B: ArrayBackend>(dev: &B, got: Result<Array<T, B>>, name: &str, tol: f64) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = fx::<T, B>(dev, name);
    assert_eq!(got.shape(), want.shape(), "{name}");
    assert_allclose(&got, &want, tol, tol);
}

/// The view `x.transpose(2, 0, 1)[::-1, :, ::2]` of the fixtures.
fn view<T: Element, B: ArrayBackend>(x: &Array<T, B>) -> Array<T, B> {
    x.permute_dims(&[2, 0, 1])
        .unwrap()
        .slice(&s![..;-1, .., ..;2])
        .unwrap()
}

fn quantiles_f64<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "xq");
    let xs = fx::<f64, B>(dev, "xs");
    let pct: Vec<f64> = QS.iter().map(|q| q * 100.0).collect();
    for m in QuantileMethod::ALL {
        let n = m.name();
        let t = 1e-13;
        close(
            dev,
            x.quantiles_with(&QS, Axes::All, false, m),
            &format!("q_{n}_all"),
            t,
        );
        close(
            dev,
            x.quantiles_with(&QS, 1, false, m),
            &format!("q_{n}_ax1"),
            t,
        );
        close(
            dev,
            x.quantile_with(0.37, [0, 2], true, m),
            &format!("q_{n}_ax02k"),
            t,
        );
        close(
            dev,
            x.percentiles_with(&pct, -1, false, m),
            &format!("p_{n}_ax2"),
            t,
        );
        close(
            dev,
            view(&x).quantiles_with(&QS, 2, false, m),
            &format!("q_{n}_view"),
            t,
        );
        // A NaN anywhere in a lane gives NaN, for the discrete methods too.
        close(
            dev,
            xs.quantile_with(0.3, 2, false, m),
            &format!("q_{n}_nanlanes"),
            t,
        );
        // One quantile equals the same row of the stacked result.
        let one = x.quantile_with(0.25, 1, false, m).unwrap();
        let row = x.quantiles_with(&QS, 1, false, m).unwrap();
        assert_array_equal(
            &one,
            &row.slice(&s![2, .., ..]).unwrap().to_contiguous().unwrap(),
        );
        let p = x.percentile_with(25.0, 1, false, m).unwrap();
        assert_array_equal(&p, &one);
        // A 0-d array is its own quantile.
        let s = Array::<f64, B>::from_vec(vec![2.5], &[], dev).unwrap();
        assert_eq!(
            s.quantile_with(0.3, Axes::All, false, m)
                .unwrap()
                .item()
                .unwrap(),
            2.5
        );
    }
    // The default method is the existing 'linear' quantile.
    let lin = x.quantiles_axes(&QS, 1, false).unwrap();
    assert_array_equal(
        &lin,
        &x.quantiles_with(&QS, 1, false, QuantileMethod::default())
            .unwrap(),
    );
    // No quantile asked: an empty first axis.
    let none = x
        .quantiles_with(&[], 1, false, QuantileMethod::Hazen)
        .unwrap();
    assert_eq!(none.shape(), &[0, 3, 5]);
}

/// Every method on the dyadic quantiles of `xq` as `T` (exact in `T`), along axis 1.
fn quantiles_float<T: Float, B: ArrayBackend>(dev: &B, tol: f64) {
    let x = fx::<T, B>(dev, "xq");
    for m in QuantileMethod::ALL {
        let n = m.name();
        close(
            dev,
            x.quantiles_with(&QD, 1, false, m),
            &format!("qd_{n}_ax1"),
            tol,
        );
        close(
            dev,
            x.nanquantiles_with(&QD, 1, false, m),
            &format!("qd_{n}_ax1"),
            tol,
        );
        let xn = fx::<T, B>(dev, "xn");
        close(
            dev,
            xn.nanquantiles_with(&QD, 1, false, m),
            &format!("nqd_{n}_ax1"),
            tol,
        );
    }
}

/// Every method on the integers `xi` as `T` along axis 2 (`f64` results).
fn quantiles_int<T: Real + Element<Mean = f64>, B: ArrayBackend>(dev: &B) {
    let x = fx::<T, B>(dev, "xi");
    for m in QuantileMethod::ALL {
        let n = m.name();
        close(
            dev,
            x.quantiles_with(&QS, 2, false, m),
            &format!("qi_{n}_ax2"),
            1e-13,
        );
        close(
            dev,
            x.nanquantiles_with(&QS, 2, false, m),
            &format!("nqi_{n}_ax2"),
            1e-13,
        );
    }
    close(dev, x.nanmedian_axes(1, false), "nmedi_1", 1e-13);
}

fn quantiles_every_dtype<B: ArrayBackend>(dev: &B) {
    quantiles_float::<f64, B>(dev, 1e-13);
    // Gammas that are not dyadic (1/3, 3/8) round to the type: about |b - a| ulp.
    quantiles_float::<f32, B>(dev, 1e-5);
    quantiles_float::<f16, B>(dev, 2e-2);
    quantiles_float::<bf16, B>(dev, 8e-2);
    quantiles_int::<i64, B>(dev);
    quantiles_int::<i32, B>(dev);
    quantiles_int::<i16, B>(dev);
    quantiles_int::<u8, B>(dev);
    quantiles_int::<u32, B>(dev);
}

fn nan_quantiles_f64<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "xn");
    let pct: Vec<f64> = QS.iter().map(|q| q * 100.0).collect();
    for m in QuantileMethod::ALL {
        let n = m.name();
        let t = 1e-13;
        close(
            dev,
            x.nanquantiles_with(&QS, 1, false, m),
            &format!("nq_{n}_ax1"),
            t,
        );
        close(
            dev,
            x.nanquantiles_with(&QS, -1, false, m),
            &format!("nq_{n}_ax2"),
            t,
        );
        close(
            dev,
            x.nanquantiles_with(&QS, Axes::All, false, m),
            &format!("nq_{n}_all"),
            t,
        );
        close(
            dev,
            view(&x).nanquantile_with(0.3, [0, 2], true, m),
            &format!("nq_{n}_view"),
            t,
        );
        close(
            dev,
            x.nanpercentiles_with(&pct, 0, false, m),
            &format!("np_{n}_ax0"),
            t,
        );
        // Without NaN, the NaN-ignoring quantile is the quantile.
        let xq = fx::<f64, B>(dev, "xq");
        close(
            dev,
            xq.nanquantiles_with(&QS, 1, false, m),
            &format!("q_{n}_ax1"),
            t,
        );
        let one = x.nanquantile_with(0.6, 2, false, m).unwrap();
        let p = x.nanpercentile_with(60.0, 2, false, m).unwrap();
        assert_array_equal(&one, &p);
    }
    close(dev, x.nanquantile(0.3), "nq_linear_03", 1e-13);
    close(dev, x.nanpercentile(70.0), "np_linear_70", 1e-13);
    let none = x
        .nanpercentiles_with(&[], 2, true, QuantileMethod::Lower)
        .unwrap();
    assert_eq!(none.shape(), &[0, 3, 4, 1]);
}

fn nanmedians<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "xn");
    close(dev, x.nanmedian(), "nmed_all", 1e-13);
    close(dev, x.nanmedian_axes(0, false), "nmed_0", 1e-13);
    close(dev, x.nanmedian_axes(1, false), "nmed_1", 1e-13);
    close(dev, x.nanmedian_axes(-1, false), "nmed_2", 1e-13);
    close(dev, x.nanmedian_axes([2, 0], false), "nmed_02", 1e-13);
    close(dev, x.nanmedian_axes([1, 2], true), "nmed_12k", 1e-13);
    close(dev, view(&x).nanmedian_axes(1, false), "nmed_view", 1e-13);
    let x32 = fx::<f32, B>(dev, "xn");
    close(dev, x32.nanmedian_axes(1, false), "nmed_1", 1e-6);
    let x16 = fx::<f16, B>(dev, "xn");
    close(dev, x16.nanmedian_axes(1, false), "nmed_1", 4e-3);
    let xb = fx::<bf16, B>(dev, "xn");
    close(dev, xb.nanmedian_axes(1, false), "nmed_1", 3e-2);
    // Empty arrays and lanes give NaN (NumPy's nanmean of them), not an error.
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    let nan3 = |r: Result<Array<f64, B>>, shape: &[usize]| {
        let r = r.unwrap();
        assert_eq!(r.shape(), shape);
        assert!(r.to_vec().unwrap().iter().all(|v| v.is_nan()));
    };
    nan3(e.nanmedian_axes(0, false), &[3]);
    nan3(e.nanmedian(), &[]);
    nan3(
        e.t()
            .nanquantile_with(0.5, 1, true, QuantileMethod::Nearest),
        &[3, 1],
    );
    nan3(
        e.nanquantiles_with(&[0.1, 0.2], 0, false, QuantileMethod::Linear),
        &[2, 3],
    );
    assert_eq!(e.nanmedian_axes(1, false).unwrap().shape(), &[0]);
    let ei = Array::<i32, B>::zeros(&[0], dev).unwrap();
    assert!(ei.nanmedian().unwrap().item().unwrap().is_nan());
    assert!(ei.nanpercentile(5.0).unwrap().item().unwrap().is_nan());
    // All NaN; 0-d.
    let all = Array::<f32, B>::full(&[2, 2], f32::NAN, dev).unwrap();
    nan3(all.nanmedian().map(|a| a.astype::<f64>().unwrap()), &[]);
    assert!(all.nanquantile(0.5).unwrap().item().unwrap().is_nan());
    let s = Array::<f64, B>::from_vec(vec![-3.5], &[], dev).unwrap();
    assert_eq!(s.nanmedian().unwrap().item().unwrap(), -3.5);
    let q = s.nanquantile_with(0.9, Axes::All, true, QuantileMethod::MedianUnbiased);
    assert_eq!(q.unwrap().item().unwrap(), -3.5);
    let sn = Array::<f64, B>::from_vec(vec![f64::NAN], &[], dev).unwrap();
    assert!(sn.nanmedian().unwrap().item().unwrap().is_nan());
    // Infinities are numbers: the median of [-inf, inf] is NaN (their mean), of [inf, inf]
    // is inf.
    let inf = f64::INFINITY;
    let v = Array::<f64, B>::from_vec(vec![-inf, inf, f64::NAN, inf, inf, f64::NAN], &[2, 3], dev)
        .unwrap();
    let m = v.nanmedian_axes(1, false).unwrap().to_vec().unwrap();
    assert!(m[0].is_nan() && m[1] == inf, "{m:?}");
}

fn quantile_errors<B: ArrayBackend>(dev: &B) {
    let x = fx::<f64, B>(dev, "xn");
    let l = QuantileMethod::Linear;
    assert_eq!(
        err_msg(x.nanquantile(1.5)),
        "nanquantile: Quantiles must be in the range [0, 1], got 1.5"
    );
    assert!(err_msg(x.nanquantile(f64::NAN)).starts_with("nanquantile: "));
    assert!(err_msg(x.nanquantiles_with(&[0.5, -0.1], 0, false, l)).starts_with("nanquantile: "));
    assert_eq!(
        err_msg(x.nanpercentile(-1.0)),
        "nanpercentile: Percentiles must be in the range [0, 100], got -1"
    );
    assert!(err_msg(x.nanpercentiles_with(&[101.0], 0, false, l)).starts_with("nanpercentile: "));
    assert!(err_msg(x.nanpercentile_with(50.0, 3, false, l)).contains("nanpercentile"));
    assert!(err_msg(x.nanquantile_with(0.5, [0, 0], false, l)).contains("nanquantile"));
    assert!(err_msg(x.nanmedian_axes(-4, false)).contains("nanmedian"));
    let xi = fx::<i64, B>(dev, "xi");
    assert!(err_msg(xi.nanmedian_axes(5, false)).contains("nanmedian"));
    assert!(err_msg(xi.nanquantile_with(2.0, 0, false, l)).starts_with("nanquantile: "));
    for m in QuantileMethod::ALL {
        assert!(err_msg(x.quantile_with(1.01, 0, false, m)).starts_with("quantile: "));
        assert!(err_msg(x.percentile_with(-5.0, 0, false, m)).starts_with("percentile: "));
        assert!(err_msg(x.quantiles_with(&[0.2, 7.0], 0, false, m)).starts_with("quantile: "));
        assert!(err_msg(x.percentiles_with(&[f64::NAN], 0, false, m)).starts_with("percentile"));
        assert!(err_msg(x.quantile_with(0.5, 3, false, m)).contains("quantile"));
        // An empty reduction has no quantile (NumPy: an IndexError).
        let e = Array::<f32, B>::zeros(&[0, 2], dev).unwrap();
        assert!(err_msg(e.quantile_with(0.5, 0, false, m)).starts_with("quantile: "));
        assert_eq!(QuantileMethod::from_name(m.name()).unwrap(), m);
    }
    let bad = err_msg(QuantileMethod::from_name("cubic"));
    assert!(bad.starts_with("quantile: \"cubic\" is not a valid method") && bad.contains("hazen"));
}

/// `average` of `a3` as `T` with weights of `T::Mean`, every weighting, against the float64
/// fixtures (the quarter-step inputs are exact in every float type).
fn averages_float<T: Float, B: ArrayBackend>(dev: &B, tol: f64) {
    let a = fx::<T, B>(dev, "a3");
    let (wf, w1, w20) = (
        fx::<T, B>(dev, "wf"),
        fx::<T, B>(dev, "w1"),
        fx::<T, B>(dev, "w20"),
    );
    close(dev, a.average(None, Axes::All, false), "avg_all", tol);
    close(dev, a.average(None, 1, false), "avg_ax1", tol);
    let (avg, n) = a.average_returned(None, [0, 2], true).unwrap();
    close(dev, Ok(avg), "avg_02k", tol);
    close(dev, Ok(n), "avg_02k_sum", tol);
    close(dev, a.average(Some(&wf), Axes::All, false), "avgw_all", tol);
    close(dev, a.average(Some(&wf), [0, 2], false), "avgw_02", tol);
    let (avg, sum) = a.average_returned(Some(&w1), 1, true).unwrap();
    close(dev, Ok(avg), "avgw1_1k", tol);
    close(dev, Ok(sum), "avgw1_1k_sum", tol);
    // Weights over two axes given in the order (2, 0).
    let (avg, sum) = a.average_returned(Some(&w20), [2, 0], false).unwrap();
    close(dev, Ok(avg), "avgw20", tol);
    close(dev, Ok(sum), "avgw20_sum", tol);
    close(
        dev,
        a.average(Some(&fx::<T, B>(dev, "wneg")), 1, false),
        "avgwneg",
        tol,
    );
    let w5 = w20.slice(&s![.., 0]).unwrap();
    close(dev, view(&a).average(Some(&w5), 0, false), "avg_view", tol);
}

fn averages_every_dtype<B: ArrayBackend>(dev: &B) {
    averages_float::<f64, B>(dev, 1e-13);
    averages_float::<f32, B>(dev, 1e-6);
    averages_float::<f16, B>(dev, 1e-2);
    averages_float::<bf16, B>(dev, 4e-2);
    for_ints::<i64, B>(dev);
    for_ints::<i32, B>(dev);
    for_ints::<i8, B>(dev);
    fn for_ints<T: Real + Element<Mean = f64>, B: ArrayBackend>(dev: &B) {
        let ai = fx::<T, B>(dev, "ai");
        let wi = fx::<f64, B>(dev, "wi");
        close(dev, ai.average(Some(&wi), 0, false), "avgi_0", 1e-13);
        close(dev, ai.average(None, Axes::All, false), "avgi_all", 1e-13);
    }
    let ab = fx::<bool, B>(dev, "ab");
    close(dev, ab.average(None, 1, false), "avgb_1", 1e-13);
    let ac = fx::<c128, B>(dev, "ac");
    let wc = fx::<c128, B>(dev, "wc");
    let (avg, sum) = ac.average_returned(Some(&wc), 0, false).unwrap();
    close(dev, Ok(avg), "avgc_0", 1e-13);
    close(dev, Ok(sum), "avgc_0_sum", 1e-13);
    close(dev, ac.average(None, Axes::All, false), "avgc_all", 1e-13);
    let ac64 = fx::<c64, B>(dev, "ac");
    let (avg, sum) = ac64
        .average_returned(Some(&fx::<c64, B>(dev, "wc")), 0, false)
        .unwrap();
    close(dev, Ok(avg), "avgc_0", 1e-5);
    close(dev, Ok(sum), "avgc_0_sum", 1e-6);
    // An empty lane: NaN, and a count of 0; a 0-d array averages to itself.
    let e = Array::<f64, B>::zeros(&[3, 0], dev).unwrap();
    let (avg, n) = e.average_returned(None, 1, false).unwrap();
    assert!(avg.to_vec().unwrap().iter().all(|v| v.is_nan()));
    assert_eq!(n.to_vec().unwrap(), vec![0.0; 3]);
    let s = Array::<f32, B>::from_vec(vec![1.5], &[], dev).unwrap();
    let w = Array::<f32, B>::from_vec(vec![4.0], &[], dev).unwrap();
    let (avg, sum) = s.average_returned(Some(&w), Axes::All, false).unwrap();
    assert_eq!((avg.item().unwrap(), sum.item().unwrap()), (1.5, 4.0));
    // NaN in the data or the weights propagates.
    let a = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev).unwrap();
    assert!(a.average(None, 0, false).unwrap().item().unwrap().is_nan());
    let wn = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev).unwrap();
    let b = Array::<f64, B>::ones(&[2], dev).unwrap();
    assert!(b
        .average(Some(&wn), 0, false)
        .unwrap()
        .item()
        .unwrap()
        .is_nan());
}

fn average_errors<B: ArrayBackend>(dev: &B) {
    let a = fx::<f64, B>(dev, "a3");
    let w1 = fx::<f64, B>(dev, "w1");
    // Weights summing to zero in one lane (NumPy's ZeroDivisionError).
    let z = Array::<f64, B>::from_vec(vec![1.0, -1.0, 2.0, -2.0], &[4], dev).unwrap();
    let msg = err_msg(a.average(Some(&z), 1, false));
    assert!(msg.starts_with("average: weights sum to zero"), "{msg}");
    let mut wf = fx::<f64, B>(dev, "wf");
    wf.slice_mut(&s![1, 2, ..]).unwrap().fill(0.0).unwrap();
    assert!(err_msg(a.average(Some(&wf), 2, false)).contains("weights sum to zero"));
    assert!(err_msg(a.average_returned(Some(&wf), -1, true)).contains("weights sum to zero"));
    // Shapes: weights along the wrong axis, no axis with other-shaped weights.
    let msg = err_msg(a.average(Some(&w1), 2, false));
    assert!(
        msg.starts_with("average: the shape of weights [4]") && msg.contains("[5]"),
        "{msg}"
    );
    let msg = err_msg(a.average(Some(&w1), Axes::All, false));
    assert!(msg.starts_with("average: axis must be specified"), "{msg}");
    let w20 = fx::<f64, B>(dev, "w20");
    assert!(err_msg(a.average(Some(&w20), [0, 2], false)).starts_with("average: "));
    assert!(err_msg(a.average(Some(&w1), 3, false)).contains("average"));
    assert!(err_msg(a.average(None, [1, -2], false)).contains("average"));
    // An unweighted average into an empty result divides by zero in NumPy.
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert!(err_msg(e.average(None, 1, false)).starts_with("average: division by zero"));
}

/// `cov`/`corrcoef` of the quarter-step fixtures as `T`: the results are computed in `f64`
/// from exact inputs, so every type matches the float64 fixtures closely.
fn covs_real<T: CovElement<Cov = f64>, B: ArrayBackend>(dev: &B) {
    let t = 1e-12;
    let (m, y) = (fx::<T, B>(dev, "m"), fx::<T, B>(dev, "y"));
    let fw = fx::<i64, B>(dev, "fw");
    let aw = fx::<f64, B>(dev, "aw");
    let d = CovOptions::default();
    close(dev, m.cov(None, &d), "cov_m", t);
    close(dev, m.cov(Some(&y), &d), "cov_m_y", t);
    let cols = CovOptions { rowvar: false, ..d };
    close(dev, m.t().cov(None, &cols), "cov_cols", t);
    close(dev, m.t().cov(Some(&y.t()), &cols), "cov_cols_y", t);
    close(
        dev,
        m.cov(None, &CovOptions { bias: true, ..d }),
        "cov_bias",
        t,
    );
    // ddof wins over bias.
    let o = CovOptions {
        bias: true,
        ddof: Some(3),
        ..d
    };
    close(dev, m.cov(None, &o), "cov_ddof3", t);
    close(
        dev,
        m.cov(
            None,
            &CovOptions {
                fweights: Some(&fw),
                ..d
            },
        ),
        "cov_fw",
        t,
    );
    close(
        dev,
        m.cov(
            None,
            &CovOptions {
                aweights: Some(&aw),
                ..d
            },
        ),
        "cov_aw",
        t,
    );
    let both = CovOptions {
        fweights: Some(&fw),
        aweights: Some(&aw),
        ..d
    };
    close(dev, m.cov(None, &both), "cov_fw_aw", t);
    close(
        dev,
        m.cov(None, &CovOptions { bias: true, ..both }),
        "cov_fw_aw_bias",
        t,
    );
    close(
        dev,
        m.cov(
            None,
            &CovOptions {
                ddof: Some(2),
                ..both
            },
        ),
        "cov_fw_aw_ddof2",
        t,
    );
    let o = CovOptions {
        aweights: Some(&aw),
        ddof: Some(1),
        ..d
    };
    close(dev, m.cov(None, &o), "cov_aw_ddof1", t);
    let (m0, m1) = (m.slice(&s![0, ..]).unwrap(), m.slice(&s![1, ..]).unwrap());
    close(dev, m0.cov(None, &d), "cov_1d", t);
    close(dev, m0.cov(Some(&m1), &d), "cov_1d_y", t);
    close(dev, m0.cov(Some(&y.t()), &cols), "cov_1d_cols", t);
    close(
        dev,
        m.t().slice(&s![..;-2, ..]).unwrap().cov(None, &cols),
        "cov_view",
        t,
    );
    // One observation: N - ddof = 0 gives NaN.
    close(
        dev,
        m.slice(&s![.., ..1]).unwrap().cov(None, &d),
        "cov_dof0",
        t,
    );
    close(dev, m.corrcoef(None, true), "cc_m", t);
    close(dev, m.corrcoef(Some(&y), true), "cc_m_y", t);
    close(dev, m.t().corrcoef(None, false), "cc_cols", t);
    close(dev, m0.corrcoef(None, true), "cc_1d", t);
}

fn covs_every_dtype<B: ArrayBackend>(dev: &B) {
    covs_real::<f64, B>(dev);
    covs_real::<f32, B>(dev);
    covs_real::<f16, B>(dev);
    covs_real::<bf16, B>(dev);
    let t = 1e-12;
    let d = CovOptions::default();
    let mi = fx::<i32, B>(dev, "mi");
    close(dev, mi.cov(None, &d), "cov_i", t);
    close(dev, mi.corrcoef(None, true), "cc_i", t);
    close(dev, fx::<i64, B>(dev, "mi").cov(None, &d), "cov_i", t);
    close(dev, fx::<i8, B>(dev, "mi").cov(None, &d), "cov_i", t);
    close(dev, fx::<bool, B>(dev, "mb").cov(None, &d), "cov_b", t);
    // Complex: c128 results (from c64 too, whose quarter-step inputs are exact).
    let fw = fx::<i64, B>(dev, "fw").slice(&s![..5]).unwrap();
    let aw = fx::<f64, B>(dev, "aw").slice(&s![..5]).unwrap();
    let wo = CovOptions {
        fweights: Some(&fw),
        aweights: Some(&aw),
        ..d
    };
    let mc = fx::<c128, B>(dev, "mc");
    close(dev, mc.cov(None, &d), "cov_c", t);
    close(dev, mc.cov(None, &wo), "cov_c_aw", t);
    close(
        dev,
        mc.slice(&s![0, ..]).unwrap().cov(None, &d),
        "cov_c_1d",
        t,
    );
    close(dev, mc.corrcoef(None, true), "cc_c", t);
    let mc64 = fx::<c64, B>(dev, "mc");
    close(dev, mc64.cov(None, &wo), "cov_c_aw", t);
    close(dev, mc64.corrcoef(None, true), "cc_c", t);
    // Empty inputs: no variable, no observation, a 0-d variable.
    let e = Array::<f64, B>::zeros(&[0, 4], dev).unwrap();
    assert_eq!(e.cov(None, &d).unwrap().shape(), &[0, 0]);
    assert_eq!(e.corrcoef(None, true).unwrap().shape(), &[0, 0]);
    let no_obs = Array::<f64, B>::zeros(&[2, 0], dev).unwrap();
    close(dev, no_obs.cov(None, &d), "cov_nobs", t);
    close(
        dev,
        Array::<f64, B>::full(&[], 3.0, dev).unwrap().cov(None, &d),
        "cov_0d",
        t,
    );
    let flat = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert!(flat.cov(None, &d).unwrap().item().unwrap().is_nan());
}

fn corrcoef_clip_and_nan<B: ArrayBackend>(dev: &B) {
    // Perfectly correlated rows: clipped to [-1, 1] (NumPy's unclipped ratio exceeds 1).
    let m = fx::<f64, B>(dev, "mlin");
    let cc = m.corrcoef(None, true).unwrap();
    close(dev, Ok(cc.clone()), "cc_lin", 1e-15);
    assert!(cc.to_vec().unwrap().iter().all(|v| v.abs() <= 1.0));
    // A constant row has no correlation: NaN in its row and column.
    close(
        dev,
        fx::<f64, B>(dev, "mconst").corrcoef(None, true),
        "cc_const",
        1e-12,
    );
    let c = Array::<f64, B>::full(&[4], 2.0, dev).unwrap();
    assert!(c.corrcoef(None, true).unwrap().item().unwrap().is_nan());
    // Complex parts are clipped separately; NaN stays in its part.
    let z = Array::<c128, B>::from_vec(
        vec![
            c128::new(1.0, 0.0),
            c128::new(2.0, 1.0),
            c128::new(0.0, -1.0),
        ],
        &[1, 3],
        dev,
    )
    .unwrap();
    let zz = Array::concatenate(&[&z, &z.map_op(cuprite::ops::Conj).unwrap()], 0).unwrap();
    for v in zz.corrcoef(None, true).unwrap().to_vec().unwrap() {
        assert!(v.re.abs() <= 1.0 && v.im.abs() <= 1.0, "{v}");
    }
}

fn cov_errors<B: ArrayBackend>(dev: &B) {
    let m = fx::<f64, B>(dev, "m");
    let d = CovOptions::default();
    let cube = Array::<f64, B>::zeros(&[2, 2, 2], dev).unwrap();
    assert_eq!(
        err_msg(cube.cov(None, &d)),
        "cov: m has more than 2 dimensions (shape [2, 2, 2])"
    );
    assert!(err_msg(m.cov(Some(&cube), &d)).starts_with("cov: y has more than 2 dimensions"));
    assert!(err_msg(cube.corrcoef(None, true)).starts_with("corrcoef: m has more"));
    let y5 = Array::<f64, B>::zeros(&[2, 5], dev).unwrap();
    let msg = err_msg(m.cov(Some(&y5), &d));
    assert!(
        msg.starts_with("cov: m and y must have the same number of observations"),
        "{msg}"
    );
    assert!(err_msg(m.corrcoef(Some(&y5), false)).starts_with("corrcoef: m and y"));
    let fw = fx::<i64, B>(dev, "fw");
    let aw = fx::<f64, B>(dev, "aw");
    let fw2 = fw.reshape(&[2, 3]).unwrap();
    let msg = err_msg(m.cov(
        None,
        &CovOptions {
            fweights: Some(&fw2),
            ..d
        },
    ));
    assert_eq!(
        msg,
        "cov: cannot handle multidimensional fweights (shape [2, 3])"
    );
    let aw5 = aw.slice(&s![..5]).unwrap();
    let msg = err_msg(m.cov(
        None,
        &CovOptions {
            aweights: Some(&aw5),
            ..d
        },
    ));
    assert!(
        msg.starts_with("cov: incompatible numbers of samples and aweights"),
        "{msg}"
    );
    let a0 = Array::<f64, B>::full(&[], 1.0, dev).unwrap();
    assert!(err_msg(m.cov(
        None,
        &CovOptions {
            aweights: Some(&a0),
            ..d
        }
    ))
    .contains("1-d"));
    let neg = Array::<i64, B>::from_vec(vec![1, 2, -1, 1, 1, 1], &[6], dev).unwrap();
    let o = CovOptions {
        fweights: Some(&neg),
        aweights: Some(&aw),
        ..d
    };
    assert_eq!(err_msg(m.cov(None, &o)), "cov: fweights cannot be negative");
    let aneg = aw.scalar_op(cuprite::ops::Sub, 2.5).unwrap();
    let o = CovOptions {
        fweights: Some(&fw),
        aweights: Some(&aneg),
        ..d
    };
    assert_eq!(err_msg(m.cov(None, &o)), "cov: aweights cannot be negative");
    let zero = Array::<i64, B>::zeros(&[6], dev).unwrap();
    let msg = err_msg(m.cov(
        None,
        &CovOptions {
            fweights: Some(&zero),
            ..d
        },
    ));
    assert!(msg.starts_with("cov: weights sum to zero"), "{msg}");
}

cuprite::test_backends!(
    quantiles_f64,
    quantiles_every_dtype,
    nan_quantiles_f64,
    nanmedians,
    quantile_errors,
    averages_every_dtype,
    average_errors,
    covs_every_dtype,
    corrcoef_clip_and_nan,
    cov_errors
);
