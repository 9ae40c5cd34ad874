//! Reductions and scans on every backend, against NumPy-computed fixtures
//! (`scripts/fixtures/reduce.py`) and analytic identities on sizes that hit the parallel
//! paths.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose_vec, assert_array_equal_vec, check_allclose_slices};

const TOPIC: &str = "reduce";

/// Compares a result with fixture `name` (shape and values). Exact comparisons of floats use
/// rtol 1e-15: the JSON parser may round the last bit of a decimal.
#[track_caller]
fn chk<U: Element, B: ArrayBackend>(got: Result<Array<U, B>>, name: &str, rtol: f64) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<U>(TOPIC, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    let v = got.to_vec().unwrap();
    if let Err(m) = check_allclose_slices(&v, &want, &shape, rtol, 1e-300) {
        panic!("{name}: {m}");
    }
}

/// The three views of the fixtures: `x`, `x.transpose(2, 0, 1)`, `x[:, ::-2, 1::2]`.
fn views<B: ArrayBackend>(dev: &B) -> Vec<(&'static str, Array<f64, B>)> {
    let x = fixture::<f64, B>(dev, TOPIC, "in_x");
    let v1 = x.permute_dims(&[2, 0, 1]).unwrap();
    let v2 = x.slice(&s![.., ..;-2, 1..;2]).unwrap();
    assert!(!v1.is_contiguous() && !v2.is_contiguous());
    vec![("x", x), ("v1", v1), ("v2", v2)]
}

/// The axis sets of the fixtures.
fn axes_sets() -> Vec<(&'static str, Axes)> {
    vec![
        ("all", Axes::All),
        ("0", 0.into()),
        ("1", 1.into()),
        ("m1", (-1).into()),
        ("02", [0, 2].into()),
        ("01", [0, 1].into()),
    ]
}

fn f64_reductions_on_views<B: ArrayBackend>(dev: &B) {
    for (vn, v) in views(dev) {
        for (an, ax) in axes_sets() {
            let ax = || ax.clone();
            let n = |op: &str| format!("{vn}_{op}_{an}");
            chk(v.sum_axes(ax(), false), &n("sum"), 1e-12);
            let shifted = &(&v / 10.0) + 1.0;
            chk(shifted.prod_axes(ax(), false), &n("prod"), 1e-12);
            chk(v.mean_axes(ax(), false), &n("mean"), 1e-12);
            chk(v.var_axes(ax(), 0.0, false), &n("var0"), 1e-12);
            chk(v.std_axes(ax(), 1.0, false), &n("std1"), 1e-12);
            chk(v.min_axes(ax(), false), &n("min"), 1e-15);
            chk(v.max_axes(ax(), false), &n("max"), 1e-15);
            chk(v.ptp_axes(ax(), false), &n("ptp"), 1e-15);
        }
        chk(v.sum(), &format!("{vn}_sum_all"), 1e-12);
        chk(v.var(0.0), &format!("{vn}_var0_all"), 1e-12);
        chk(v.max(), &format!("{vn}_max_all"), 1e-15);
    }
}

fn f64_order_statistics_on_views<B: ArrayBackend>(dev: &B) {
    for (vn, v) in views(dev) {
        for (an, ax) in axes_sets() {
            let n = |op: &str| format!("{vn}_{op}_{an}");
            chk(v.median_axes(ax.clone(), false), &n("median"), 1e-14);
            chk(v.quantile_axes(0.3, ax.clone(), false), &n("q30"), 1e-14);
            chk(v.percentile_axes(85.0, ax, false), &n("p85"), 1e-14);
        }
        chk(v.median(), &format!("{vn}_median_all"), 1e-14);
        let qs = [0.0, 0.25, 0.5, 0.9, 1.0];
        chk(
            v.quantiles_axes(&qs, 1, false),
            &format!("{vn}_qs_1"),
            1e-14,
        );
    }
}

fn arg_reductions_and_scans_on_views<B: ArrayBackend>(dev: &B) {
    for (vn, v) in views(dev) {
        for ax in 0..3isize {
            chk(v.argmax_axis(ax, false), &format!("{vn}_argmax_{ax}"), 0.0);
            chk(v.argmin_axis(ax, false), &format!("{vn}_argmin_{ax}"), 0.0);
            chk(v.cumsum(Some(ax)), &format!("{vn}_cumsum_{ax}"), 1e-12);
            let scaled = &v / 10.0;
            chk(
                scaled.cumprod(Some(ax)),
                &format!("{vn}_cumprod_{ax}"),
                1e-12,
            );
        }
        chk(v.argmax(), &format!("{vn}_argmax_flat"), 0.0);
        chk(v.argmin(), &format!("{vn}_argmin_flat"), 0.0);
        chk(v.cumsum(None), &format!("{vn}_cumsum_none"), 1e-12);
        let k = v.argmax_axis(-1, true).unwrap();
        assert_eq!(k.ndim(), 3);
        assert_eq!(k.shape()[2], 1);
    }
}

fn nan_and_inf<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f64, B>(dev, TOPIC, "in_xn");
    for (an, ax) in axes_sets() {
        let ax = || ax.clone();
        let n = |op: &str| format!("xn_{op}_{an}");
        chk(x.sum_axes(ax(), false), &n("sum"), 1e-12);
        chk(x.max_axes(ax(), false), &n("max"), 0.0);
        chk(x.min_axes(ax(), false), &n("min"), 0.0);
        chk(x.nansum_axes(ax(), false), &n("nansum"), 1e-12);
        chk(x.nanmean_axes(ax(), false), &n("nanmean"), 1e-12);
        chk(x.nanmax_axes(ax(), false), &n("nanmax"), 0.0);
        chk(x.nanmin_axes(ax(), false), &n("nanmin"), 0.0);
    }
    for ax in 0..3isize {
        chk(x.argmax_axis(ax, false), &format!("xn_argmax_{ax}"), 0.0);
        chk(x.argmin_axis(ax, false), &format!("xn_argmin_{ax}"), 0.0);
        chk(x.cumsum(Some(ax)), &format!("xn_cumsum_{ax}"), 1e-12);
    }
    chk(x.argmax(), "xn_argmax_flat", 0.0);
    chk(x.argmin(), "xn_argmin_flat", 0.0);
    assert!(x.max().unwrap().item().unwrap().is_nan());
    assert_eq!(x.nanmax().unwrap().item().unwrap(), f64::INFINITY);
    let all_nan = Array::<f32, B>::full(&[3], f32::NAN, dev).unwrap();
    assert!(all_nan.nanmax().unwrap().item().unwrap().is_nan());
    assert!(all_nan.nanmin().unwrap().item().unwrap().is_nan());
    assert!(all_nan.nanmean().unwrap().item().unwrap().is_nan());
    assert_eq!(all_nan.nansum().unwrap().item().unwrap(), 0.0);
}

fn nan_and_inf_order_statistics<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f64, B>(dev, TOPIC, "in_xn");
    for (an, ax) in axes_sets() {
        chk(
            x.median_axes(ax.clone(), false),
            &format!("xn_median_{an}"),
            1e-14,
        );
        chk(
            x.quantile_axes(0.3, ax, false),
            &format!("xn_q30_{an}"),
            1e-14,
        );
    }
    // NumPy's 'linear' rule interpolates inf with itself to NaN; we follow it exactly.
    let q = fixture::<f64, B>(dev, TOPIC, "in_inf_q");
    let got: Vec<f64> = [0.0, 0.4, 0.5, 1.0]
        .iter()
        .map(|&p| q.quantile(p).unwrap().item().unwrap())
        .collect();
    let (want, _) = fixture_vec::<f64>(TOPIC, "inf_q_quirk");
    check_allclose_slices(&got, &want, &[4], 1e-14, 0.0).unwrap();
    chk(q.median(), "inf_median", 0.0);
}

fn integer_reductions<B: ArrayBackend>(dev: &B) {
    let x = fixture::<i32, B>(dev, TOPIC, "in_xi");
    for (an, ax) in axes_sets() {
        let ax = || ax.clone();
        let n = |op: &str| format!("xi_{op}_{an}");
        chk(x.sum_axes(ax(), false), &n("sum"), 0.0);
        chk(x.prod_axes(ax(), false), &n("prod"), 0.0);
        chk(x.mean_axes(ax(), false), &n("mean"), 1e-14);
        chk(x.var_axes(ax(), 1.0, false), &n("var1"), 1e-13);
        chk(x.min_axes(ax(), false), &n("min"), 0.0);
        chk(x.max_axes(ax(), false), &n("max"), 0.0);
        chk(x.count_nonzero_axes(ax(), false), &n("count"), 0.0);
        chk(x.median_axes(ax(), false), &n("median"), 1e-14);
        chk(x.quantile_axes(0.3, ax(), false), &n("q30"), 1e-14);
    }
    for ax in 0..3isize {
        chk(x.argmax_axis(ax, false), &format!("xi_argmax_{ax}"), 0.0);
        chk(x.cumsum(Some(ax)), &format!("xi_cumsum_{ax}"), 0.0);
        chk(x.cumprod(Some(ax)), &format!("xi_cumprod_{ax}"), 0.0);
    }
    chk(x.argmax(), "xi_argmax_flat", 0.0);
    let u = fixture::<u8, B>(dev, TOPIC, "in_xu");
    chk(u.sum(), "xu_sum_all", 0.0);
    chk(u.sum_axes(0, false), "xu_sum_0", 0.0);
    chk(u.ptp_axes(1, false), "xu_ptp_1", 0.0);
    chk(u.cumsum(Some(1)), "xu_cumsum_1", 0.0);
    chk(u.median_axes(0, false), "xu_median_0", 1e-14);
    // i64 sums wrap as NumPy's.
    let big = Array::<i64, B>::from_vec(vec![i64::MAX, 1], &[2], dev).unwrap();
    assert_eq!(big.sum().unwrap().item().unwrap(), i64::MIN);
}

fn bool_reductions<B: ArrayBackend>(dev: &B) {
    let x = fixture::<bool, B>(dev, TOPIC, "in_xb");
    for (an, ax) in [("all", Axes::All), ("0", 0.into()), ("1", 1.into())] {
        let n = |op: &str| format!("xb_{op}_{an}");
        chk(x.sum_axes(ax.clone(), false), &n("sum"), 0.0);
        chk(x.all_axes(ax.clone(), false), &n("all"), 0.0);
        chk(x.any_axes(ax.clone(), false), &n("any"), 0.0);
        chk(x.count_nonzero_axes(ax.clone(), false), &n("count"), 0.0);
        chk(x.mean_axes(ax, false), &n("mean"), 1e-14);
    }
    assert!(!x.all().unwrap().item().unwrap());
    assert!(x.any().unwrap().item().unwrap());
    let t = x.t();
    chk(t.all_axes(1, false), "xb_all_0", 0.0);
    chk(t.count_nonzero_axes(0, false), "xb_count_1", 0.0);
}

fn complex_reductions<B: ArrayBackend>(dev: &B) {
    let x = fixture::<c128, B>(dev, TOPIC, "in_xc");
    for (an, ax) in [("all", Axes::All), ("0", 0.into()), ("1", 1.into())] {
        let n = |op: &str| format!("xc_{op}_{an}");
        chk(x.sum_axes(ax.clone(), false), &n("sum"), 1e-13);
        chk(x.prod_axes(ax.clone(), false), &n("prod"), 1e-13);
        chk(x.mean_axes(ax.clone(), false), &n("mean"), 1e-13);
        chk(x.var_axes(ax.clone(), 0.0, false), &n("var"), 1e-13);
        chk(x.std_axes(ax, 1.0, false), &n("std1"), 1e-13);
    }
    chk(x.cumsum(Some(1)), "xc_cumsum_1", 1e-13);
    chk(x.cumprod(Some(0)), "xc_cumprod_0", 1e-13);
    chk(x.argmax_axis(1, false), "xc_argmax_1", 0.0);
    let x64 = x.astype::<c64>().unwrap();
    let v: Array<f32, B> = x64.var(0.0).unwrap();
    let (want, _) = fixture_vec::<f32>(TOPIC, "xc_var_all");
    assert_allclose_vec(&v, &want, &[], 1e-5, 0.0);
}

fn float32_reductions<B: ArrayBackend>(dev: &B) {
    let x = fixture::<f32, B>(dev, TOPIC, "in_xf");
    for (an, ax) in [("all", Axes::All), ("0", 0.into()), ("1", 1.into())] {
        let n = |op: &str| format!("xf_{op}_{an}");
        chk(x.sum_axes(ax.clone(), false), &n("sum"), 2e-5);
        chk(x.mean_axes(ax.clone(), false), &n("mean"), 2e-5);
        chk(x.var_axes(ax.clone(), 0.0, false), &n("var0"), 2e-5);
        chk(x.max_axes(ax.clone(), false), &n("max"), 0.0);
        chk(x.median_axes(ax.clone(), false), &n("median"), 1e-6);
        chk(x.quantile_axes(0.3, ax, false), &n("q30"), 1e-6);
    }
}

fn keepdims_empty_and_zero_d<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::ramp(24, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[2, 3, 4])
        .unwrap();
    assert_eq!(a.sum_axes([0, 2], true).unwrap().shape(), &[1, 3, 1]);
    assert_eq!(a.mean_axes(Axes::All, true).unwrap().shape(), &[1, 1, 1]);
    assert_eq!(a.median_axes(1, true).unwrap().shape(), &[2, 1, 4]);
    assert_eq!(
        a.quantiles_axes(&[0.1, 0.9], -1, true).unwrap().shape(),
        &[2, 2, 3, 1]
    );
    assert_eq!(a.sum().unwrap().shape(), &[] as &[usize]);
    assert_array_equal_vec(
        &a.sum_axes(Vec::<isize>::new(), false).unwrap(),
        &a.to_vec().unwrap(),
        &[2, 3, 4],
    );
    // 0-d input.
    let s = Array::<i32, B>::scalar(-7, dev).unwrap();
    assert_eq!(s.sum().unwrap().item().unwrap(), -7);
    assert_eq!(s.max().unwrap().item().unwrap(), -7);
    assert_eq!(s.argmax().unwrap().item().unwrap(), 0);
    assert_eq!(s.median().unwrap().item().unwrap(), -7.0);
    assert_eq!(s.cumsum(None).unwrap().to_vec().unwrap(), vec![-7i64]);
    assert_eq!(s.var(0.0).unwrap().item().unwrap(), 0.0);
    // NumPy's ufunc reductions take axis 0 or -1 of a 0-d array (the one element); another
    // axis is still out of range.
    for axis in [0isize, -1] {
        let sum = s.sum_axes(axis, false).unwrap();
        assert_eq!((sum.shape(), sum.item().unwrap()), (&[] as &[usize], -7i64));
        assert_eq!(s.sum_axes(axis, true).unwrap().shape(), &[] as &[usize]);
        assert_eq!(s.max_axes(axis, false).unwrap().item().unwrap(), -7);
        assert_eq!(s.min_axes(axis, false).unwrap().item().unwrap(), -7);
        assert_eq!(s.prod_axes(axis, false).unwrap().item().unwrap(), -7i64);
        assert!(s.any_axes(axis, false).unwrap().item().unwrap());
        assert_eq!(s.argmax_axis(axis, false).unwrap().item().unwrap(), 0);
        assert_eq!(s.argmin_axes(axis, false).unwrap().item().unwrap(), 0);
        let order = s.argsort(axis).unwrap();
        assert_eq!(
            (order.shape(), order.to_vec().unwrap()),
            (&[1usize] as &[usize], vec![0i64])
        );
    }
    assert!(s.sum_axes(1, false).is_err());
    assert!(s.argmax_axis(-2, false).is_err());
    assert!(s.argsort(1).is_err());
    // Empty input.
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.sum().unwrap().item().unwrap(), 0.0);
    assert_eq!(e.prod().unwrap().item().unwrap(), 1.0);
    assert!(e.mean().unwrap().item().unwrap().is_nan());
    assert!(e.all().unwrap().item().unwrap());
    assert!(!e.any().unwrap().item().unwrap());
    assert_eq!(
        e.sum_axes(0, false).unwrap().to_vec().unwrap(),
        vec![0.0; 3]
    );
    assert_eq!(e.max_axes(1, false).unwrap().shape(), &[0]);
    assert_eq!(e.argmax_axis(1, false).unwrap().shape(), &[0]);
    assert_eq!(e.cumsum(None).unwrap().shape(), &[0]);
    assert_eq!(e.cumsum(Some(0)).unwrap().shape(), &[0, 3]);
    let m = e.median_axes(0, false).unwrap().to_vec().unwrap();
    assert!(m.len() == 3 && m.iter().all(|v| v.is_nan()));
    let err = e.max().unwrap_err().to_string();
    assert!(
        err.starts_with(
            "max: zero-size array to reduction operation maximum which has no identity"
        ),
        "{err}"
    );
    let err = e.min_axes(0, false).unwrap_err().to_string();
    assert!(err.contains("reduction operation minimum"), "{err}");
    assert!(e.nanmax_axes(0, true).is_err());
    assert!(e.ptp().is_err());
    let err = e.argmax().unwrap_err().to_string();
    assert!(
        err.starts_with("argmax: attempt to get argmax of an empty sequence"),
        "{err}"
    );
    assert!(e.argmin_axis(0, false).is_err());
    let err = e.quantile(0.5).unwrap_err().to_string();
    assert!(err.starts_with("quantile:"), "{err}");
}

fn bad_arguments<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::ones(&[2, 3], dev).unwrap();
    let err = a.sum_axes(2, false).unwrap_err();
    assert_eq!(
        err,
        Error::AxisOutOfRange {
            op: "sum",
            axis: 2,
            ndim: 2
        }
    );
    assert_eq!(
        a.mean_axes(-3, false).unwrap_err().to_string(),
        "mean: axis -3 is out of bounds for an array of dimension 2"
    );
    let err = a.max_axes([1, -1], false).unwrap_err().to_string();
    assert!(err.starts_with("max: repeated axis"), "{err}");
    assert!(a
        .var_axes(5, 0.0, false)
        .unwrap_err()
        .to_string()
        .starts_with("var: axis 5"));
    assert!(matches!(
        a.argmax_axis(2, false),
        Err(Error::AxisOutOfRange { op: "argmax", .. })
    ));
    assert!(matches!(
        a.cumsum(Some(-3)),
        Err(Error::AxisOutOfRange { op: "cumsum", .. })
    ));
    let err = a.quantile(1.5).unwrap_err().to_string();
    assert_eq!(
        err,
        "quantile: Quantiles must be in the range [0, 1], got 1.5"
    );
    assert!(a.quantile(f64::NAN).is_err());
    assert!(a.quantile(-0.1).is_err());
    let err = a.percentile(101.0).unwrap_err().to_string();
    assert_eq!(
        err,
        "percentile: Percentiles must be in the range [0, 100], got 101"
    );
    assert!(a.quantiles_axes(&[0.5, 2.0], 0, false).is_err());
    assert!(a.median_axes(7, false).is_err());
    // Degrees of freedom <= 0 give inf/NaN, not an error.
    assert!(a.var(6.0).unwrap().item().unwrap().is_nan());
}

fn large_inputs_take_the_parallel_paths<B: ArrayBackend>(dev: &B) {
    let n = 100_003usize;
    let nf = n as f64;
    let r = Array::<f64, B>::ramp(n, 0.0, 1.0, dev).unwrap();
    assert_eq!(r.sum().unwrap().item().unwrap(), nf * (nf - 1.0) / 2.0);
    assert_eq!(r.mean().unwrap().item().unwrap(), (nf - 1.0) / 2.0);
    let v = r.var(0.0).unwrap().item().unwrap();
    assert!((v / ((nf * nf - 1.0) / 12.0) - 1.0).abs() < 1e-12, "{v}");
    assert_eq!(r.max().unwrap().item().unwrap(), nf - 1.0);
    assert_eq!(r.argmax().unwrap().item().unwrap(), n as i64 - 1);
    let rev = r.slice(&s![..;-1]).unwrap();
    assert_eq!(rev.argmin().unwrap().item().unwrap(), n as i64 - 1);
    assert_eq!(rev.min().unwrap().item().unwrap(), 0.0);
    let c = r.cumsum(None).unwrap().to_vec().unwrap();
    assert_eq!(c[n - 1], nf * (nf - 1.0) / 2.0);
    assert_eq!(c[50_000], 50_000.0 * 50_001.0 / 2.0);
    // A NaN beyond the first parallel chunk, and a tie for the maximum.
    let mut data: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
    assert_eq!(
        Array::<f64, B>::from_vec(data.clone(), &[n], dev)
            .unwrap()
            .argmax()
            .unwrap()
            .item()
            .unwrap(),
        999
    );
    data[70_001] = f64::NAN;
    data[90_000] = f64::NAN;
    let d = Array::<f64, B>::from_vec(data, &[n], dev).unwrap();
    assert!(d.max().unwrap().item().unwrap().is_nan());
    assert_eq!(d.nanmax().unwrap().item().unwrap(), 999.0);
    assert_eq!(d.argmax().unwrap().item().unwrap(), 70_001);
    assert_eq!(d.argmin().unwrap().item().unwrap(), 70_001);
    // f32 ones: exact sums below 2^24.
    let o = Array::<f32, B>::ones(&[n], dev).unwrap();
    assert_eq!(o.sum().unwrap().item().unwrap(), nf as f32);
    assert_eq!(o.cumsum(None).unwrap().to_vec().unwrap()[n - 1], nf as f32);
    // 2-d ramps: rows, columns, transposes, strided and broadcast views.
    let (rows, cols) = (513usize, 700usize);
    let m = Array::<i64, B>::ramp(rows * cols, 0, 1, dev)
        .unwrap()
        .reshape(&[rows as isize, cols as isize])
        .unwrap();
    let (ri, ci) = (rows as i64, cols as i64);
    let col_sums: Vec<i64> = (0..ci).map(|j| ci * ri * (ri - 1) / 2 + ri * j).collect();
    let row_sums: Vec<i64> = (0..ri).map(|i| ci * ci * i + ci * (ci - 1) / 2).collect();
    assert_array_equal_vec(&m.sum_axes(0, false).unwrap(), &col_sums, &[cols]);
    assert_array_equal_vec(&m.sum_axes(1, false).unwrap(), &row_sums, &[rows]);
    assert_array_equal_vec(&m.t().sum_axes(1, false).unwrap(), &col_sums, &[cols]);
    assert_array_equal_vec(&m.t().sum_axes(0, false).unwrap(), &row_sums, &[rows]);
    let mf = m.astype::<f64>().unwrap();
    let cf: Vec<f64> = col_sums.iter().map(|&v| v as f64).collect();
    assert_allclose_vec(&mf.sum_axes(0, true).unwrap(), &cf, &[1, cols], 0.0, 0.0);
    assert_allclose_vec(&mf.t().sum_axes(1, false).unwrap(), &cf, &[cols], 0.0, 0.0);
    let sub = m.slice(&s![..;2, ..;3]).unwrap();
    let sub_rows: Vec<i64> = (0..ri)
        .step_by(2)
        .map(|i| (0..ci).step_by(3).map(|j| i * ci + j).sum())
        .collect();
    assert_array_equal_vec(
        &sub.sum_axes(1, false).unwrap(),
        &sub_rows,
        &[sub_rows.len()],
    );
    assert_eq!(
        sub.sum().unwrap().item().unwrap(),
        sub_rows.iter().sum::<i64>()
    );
    let maxes: Vec<i64> = (0..ci).map(|j| (ri - 1) * ci + j).collect();
    assert_array_equal_vec(&m.max_axes(0, false).unwrap(), &maxes, &[cols]);
    assert_array_equal_vec(
        &m.argmax_axis(0, false).unwrap(),
        &vec![ri - 1; cols],
        &[cols],
    );
    assert_array_equal_vec(&m.argmin_axis(1, false).unwrap(), &vec![0; rows], &[rows]);
    assert_array_equal_vec(
        &m.t().argmax_axis(1, false).unwrap(),
        &vec![ri - 1; cols],
        &[cols],
    );
    let cs = m.cumsum(Some(0)).unwrap();
    assert_array_equal_vec(&cs.slice(&s![-1, ..]).unwrap(), &col_sums, &[cols]);
    let cs1 = m.cumsum(Some(1)).unwrap();
    assert_array_equal_vec(&cs1.slice(&s![.., -1]).unwrap(), &row_sums, &[rows]);
    let ones = Array::<f64, B>::ones(&[1, cols], dev)
        .unwrap()
        .broadcast_to(&[rows, cols])
        .unwrap();
    assert_eq!(ones.sum().unwrap().item().unwrap(), (rows * cols) as f64);
    assert_allclose_vec(
        &ones.sum_axes(0, false).unwrap(),
        &vec![rows as f64; cols],
        &[cols],
        0.0,
        0.0,
    );
    let bools = Array::<bool, B>::ones(&[n], dev).unwrap();
    assert_eq!(bools.count_nonzero().unwrap().item().unwrap(), n as i64);
    assert!(bools.all().unwrap().item().unwrap());
    assert_eq!(
        bools.cumsum(None).unwrap().to_vec().unwrap()[n - 1],
        n as i64
    );
}

fn large_order_statistics<B: ArrayBackend>(dev: &B) {
    let n = 100_003usize;
    let r = Array::<i32, B>::ramp(n, 0, 1, dev).unwrap();
    let rev = r.slice(&s![..;-1]).unwrap();
    assert_eq!(
        rev.median().unwrap().item().unwrap(),
        (n as f64 - 1.0) / 2.0
    );
    assert_eq!(
        rev.quantile(0.25).unwrap().item().unwrap(),
        0.25 * (n as f64 - 1.0)
    );
    assert_eq!(
        rev.percentile(100.0).unwrap().item().unwrap(),
        n as f64 - 1.0
    );
}

/// The fused sum of squared magnitudes against host loops, on a strided view large enough
/// for the parallel paths, on complex input, and along an axis.
fn sum_abs_sq<B: ArrayBackend>(dev: &B) {
    let n = 400_006;
    let host: Vec<f64> = (0..n).map(|i| ((i as f64) * 0.37).sin()).collect();
    let x = Array::<f64, B>::from_vec(host.clone(), &[n], dev).unwrap();
    let strided = x.slice(&s![1..;2]).unwrap();
    let want: f64 = host.iter().skip(1).step_by(2).map(|v| v * v).sum();
    let got = strided
        .reduce_op(cuprite::ops::SumAbsSq, Axes::All, false)
        .unwrap();
    assert_allclose_vec(&got, &[want], &[], 1e-12, 0.0);
    let z = Array::<c128, B>::from_vec(vec![c128::new(3.0, 4.0), c128::new(-1.0, 2.0)], &[2], dev)
        .unwrap();
    let got = z
        .reduce_op(cuprite::ops::SumAbsSq, Axes::All, false)
        .unwrap();
    assert_allclose_vec(&got, &[30.0], &[], 0.0, 0.0);
    let m = x.slice(&s![..6]).unwrap().reshape(&[2, 3]).unwrap();
    let rows: Vec<f64> = (0..2)
        .map(|r| (0..3).map(|c| host[r * 3 + c].powi(2)).sum())
        .collect();
    let got = m.reduce_op(cuprite::ops::SumAbsSq, 1, true).unwrap();
    assert_allclose_vec(&got, &rows, &[2, 1], 1e-14, 0.0);
}

cuprite::test_backends!(
    sum_abs_sq,
    f64_reductions_on_views,
    f64_order_statistics_on_views,
    arg_reductions_and_scans_on_views,
    nan_and_inf,
    nan_and_inf_order_statistics,
    integer_reductions,
    bool_reductions,
    complex_reductions,
    float32_reductions,
    keepdims_empty_and_zero_d,
    bad_arguments,
    large_inputs_take_the_parallel_paths,
    large_order_statistics,
);
