//! Counting and binning on every backend, against NumPy fixtures
//! (`scripts/fixtures/counting.py`): `add_at`/`minimum_at`/`maximum_at` (repeated and
//! negative indices, rows of a 2-d destination, broadcast values, transposed destinations,
//! NaN, unsigned wrap-around, every real dtype), `bincount` (minlength, weights),
//! `digitize` (increasing and decreasing bins, right edges, NaN, n-d input), `histogram`
//! (counts, ranges, weights, density, given edges, every bin rule, f32/int/constant/empty
//! data, views), `histogramdd`/`histogram2d`, and every error path. The GPU's atomic
//! scatter is also compared with the CPU on large random duplicate-heavy input.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::{bf16, f16, BinRule, Bins};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "counting", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

/// `add_at`, `minimum_at` and `maximum_at` for one type (every input is a small integer,
/// so every result is exact in each type tested).
fn at_for<T: Real, B: ArrayBackend>(dev: &B) {
    let idx = fx::<i64, B>(dev, "at_idx");
    let base = fx::<T, B>(dev, "at_base");
    let vals = fx::<T, B>(dev, "at_vals");
    let row = vals.slice(&s![0, ..]).unwrap();
    #[allow(clippy::type_complexity)]
    let ops: [(
        &str,
        fn(&mut Array<T, B>, &Array<i64, B>, &Array<T, B>) -> Result<()>,
    ); 3] = [
        ("add", |a, i, v| a.add_at(i, v)),
        ("minimum", |a, i, v| a.minimum_at(i, v)),
        ("maximum", |a, i, v| a.maximum_at(i, v)),
    ];
    for (name, at) in ops {
        let mut a = base.copy().unwrap();
        at(&mut a, &idx, &vals).unwrap();
        assert_array_equal(&a, &fx::<T, B>(dev, &format!("at_{name}_rows")));
        let mut a = base.copy().unwrap();
        at(&mut a, &idx, &row).unwrap();
        assert_array_equal(&a, &fx::<T, B>(dev, &format!("at_{name}_bcast")));
        // A transposed (non-contiguous) destination.
        let mut a = base.t().to_contiguous().unwrap().t();
        at(&mut a, &idx, &vals).unwrap();
        assert_array_equal(&a, &fx::<T, B>(dev, &format!("at_{name}_rows")));
        // 1-d, indices as a 2-d array, values reversed through a negative-step view.
        let mut f = fx::<T, B>(dev, "at_flat_base");
        let i2 = idx.reshape(&[2, 4]).unwrap();
        let fv = fx::<T, B>(dev, "at_flat_vals");
        let fv_rev = fv.slice(&s![..;-1]).unwrap().copy().unwrap();
        let fv2 = fv_rev.slice(&s![..;-1]).unwrap().reshape(&[2, 4]).unwrap();
        at(&mut f, &i2, &fv2).unwrap();
        assert_array_equal(&f, &fx::<T, B>(dev, &format!("at_{name}_flat")));
    }
    // Indices of another integer type.
    let mut a = base.copy().unwrap();
    a.add_at(&idx.astype::<i32>().unwrap(), &vals).unwrap();
    assert_array_equal(&a, &fx::<T, B>(dev, "at_add_rows"));
    // No indices: nothing changes.
    let mut a = base.copy().unwrap();
    let none = Array::<i64, B>::zeros(&[0], dev).unwrap();
    a.add_at(&none, &row).unwrap();
    assert_array_equal(&a, &base);
}

fn at_every_dtype<B: ArrayBackend>(dev: &B) {
    at_for::<f64, B>(dev);
    at_for::<f32, B>(dev);
    at_for::<f16, B>(dev);
    at_for::<bf16, B>(dev);
    at_for::<i64, B>(dev);
    at_for::<i32, B>(dev);
    at_for::<i16, B>(dev);
    at_for::<i8, B>(dev);
    // Complex sums.
    let idx = fx::<i64, B>(dev, "at_idx");
    let mut z = fx::<c128, B>(dev, "at_base");
    z.add_at(&idx, &fx::<c128, B>(dev, "at_vals")).unwrap();
    assert_array_equal(&z, &fx::<c128, B>(dev, "at_add_rows"));
    let mut z = fx::<c64, B>(dev, "at_base");
    z.add_at(&idx, &fx::<c64, B>(dev, "at_vals")).unwrap();
    assert_array_equal(&z, &fx::<c64, B>(dev, "at_add_rows"));
    // NaN wins in minimum/maximum; inf and NaN propagate through sums.
    let ni = fx::<i64, B>(dev, "at_nan_idx");
    let nv = fx::<f64, B>(dev, "at_nan_vals");
    for name in ["minimum", "maximum", "add"] {
        let mut a = fx::<f64, B>(dev, "at_nan_base");
        match name {
            "minimum" => a.minimum_at(&ni, &nv),
            "maximum" => a.maximum_at(&ni, &nv),
            _ => a.add_at(&ni, &nv),
        }
        .unwrap();
        assert_allclose(&a, &fx::<f64, B>(dev, &format!("at_nan_{name}")), 0.0, 0.0);
    }
    // Unsigned sums wrap, as NumPy's.
    let mut u = fx::<u8, B>(dev, "at_u8_base");
    u.add_at(
        &fx::<i64, B>(dev, "at_u8_idx"),
        &fx::<u8, B>(dev, "at_u8_vals"),
    )
    .unwrap();
    assert_array_equal(&u, &fx::<u8, B>(dev, "at_u8_add"));
    // The generic form with another op.
    let mut m = Array::<i32, B>::full(&[3], 2, dev).unwrap();
    let i = Array::<i64, B>::from_vec(vec![0, 0, 2], &[3], dev).unwrap();
    m.ufunc_at(cuprite::ops::Mul, &i, &Array::scalar(3, dev).unwrap())
        .unwrap();
    assert_eq!(m.to_vec().unwrap(), vec![18, 2, 6]);
}

fn at_errors<B: ArrayBackend>(dev: &B) {
    let base = fx::<f64, B>(dev, "at_base");
    let v = Array::<f64, B>::scalar(1.0, dev).unwrap();
    for bad in [4i64, -5] {
        let mut a = base.copy().unwrap();
        let i = Array::<i64, B>::from_vec(vec![0, bad, 1], &[3], dev).unwrap();
        let e = err_msg(a.add_at(&i, &v));
        assert!(e.contains("add") && e.contains(&bad.to_string()), "{e}");
        // Nothing was written.
        assert_array_equal(&a, &base);
        let mut f = base.slice(&s![.., 0]).unwrap().copy().unwrap();
        let before = f.copy().unwrap();
        let e = err_msg(f.maximum_at(&i, &v));
        assert!(e.contains("maximum") && e.contains(&bad.to_string()), "{e}");
        assert_array_equal(&f, &before);
    }
    let mut z = Array::<f64, B>::scalar(1.0, dev).unwrap();
    let i0 = Array::<i64, B>::from_vec(vec![0], &[1], dev).unwrap();
    assert!(err_msg(z.add_at(&i0, &v)).contains("0-d"));
    let mut a = base.copy().unwrap();
    let wrong = Array::<f64, B>::zeros(&[2], dev).unwrap();
    assert_eq!(
        err_msg(a.add_at(&i0, &wrong)),
        "add: shape mismatch: [2] vs [1, 3]"
    );
    let mut ro = Array::<f64, B>::zeros(&[3], dev)
        .unwrap()
        .broadcast_to(&[4, 3])
        .unwrap();
    assert!(err_msg(ro.add_at(&i0, &v)).contains("add"));
}

fn bincounts<B: ArrayBackend>(dev: &B) {
    fn each<I: Integer, B: ArrayBackend>(dev: &B) {
        let x = fx::<I, B>(dev, "bc_x");
        assert_array_equal(&x.bincount(0).unwrap(), &fx::<i64, B>(dev, "bc"));
        assert_array_equal(&x.bincount(15).unwrap(), &fx::<i64, B>(dev, "bc_min"));
        let w = fx::<f64, B>(dev, "bc_w");
        let tol = 1e-12;
        assert_allclose(
            &x.bincount_weighted(&w, 0).unwrap(),
            &fx::<f64, B>(dev, "bc_weighted"),
            tol,
            tol,
        );
        assert_allclose(
            &x.bincount_weighted(&w, 12).unwrap(),
            &fx::<f64, B>(dev, "bc_weighted_min"),
            tol,
            tol,
        );
        // A reversed view counts the same.
        let r = x.slice(&s![..;-1]).unwrap();
        assert_array_equal(&r.bincount(0).unwrap(), &fx::<i64, B>(dev, "bc"));
    }
    each::<i64, B>(dev);
    each::<i32, B>(dev);
    each::<u8, B>(dev);
    each::<u16, B>(dev);
    each::<i8, B>(dev);
    each::<u64, B>(dev);
    let x = fx::<i64, B>(dev, "bc_x");
    let w32 = fx::<f32, B>(dev, "bc_w");
    assert_allclose(
        &x.bincount_weighted(&w32, 0).unwrap(),
        &fx::<f32, B>(dev, "bc_weighted"),
        1e-5,
        1e-5,
    );
    let e = Array::<i32, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.bincount(0).unwrap().shape(), &[0]);
    assert_eq!(e.bincount(3).unwrap().to_vec().unwrap(), vec![0, 0, 0]);
    // Errors: negative values, 2-d input, weights of another shape.
    let neg = Array::<i32, B>::from_vec(vec![1, -3, 2], &[3], dev).unwrap();
    assert_eq!(
        err_msg(neg.bincount(0)),
        "bincount: the input must be non-negative, found -3"
    );
    let m = Array::<i64, B>::zeros(&[2, 2], dev).unwrap();
    assert!(err_msg(m.bincount(0)).starts_with("bincount: the input must be 1-d"));
    let w = Array::<f64, B>::zeros(&[3], dev).unwrap();
    assert_eq!(
        err_msg(x.bincount_weighted(&w, 0)),
        "bincount: shape mismatch: [40] vs [3]"
    );
}

fn digitizes<B: ArrayBackend>(dev: &B) {
    fn each<T: Real, B: ArrayBackend>(dev: &B) {
        let x = fx::<T, B>(dev, "dg_x");
        let bins = fx::<T, B>(dev, "dg_bins");
        let rev = bins.slice(&s![..;-1]).unwrap();
        let eq = |got: Result<Array<i64, B>>, name: &str| {
            assert_array_equal(&got.unwrap(), &fx::<i64, B>(dev, name));
        };
        eq(x.digitize(&bins, false), "dg_inc");
        eq(x.digitize(&bins, true), "dg_inc_right");
        eq(x.digitize(&rev, false), "dg_dec");
        eq(x.digitize(&rev, true), "dg_dec_right");
        // The transposed input gives the transposed indices.
        let t = x.t().digitize(&bins, false).unwrap();
        assert_array_equal(&t, &fx::<i64, B>(dev, "dg_inc").t());
    }
    each::<f64, B>(dev);
    each::<f32, B>(dev);
    let ix = fx::<i32, B>(dev, "dg_ix");
    assert_array_equal(
        &ix.digitize(&fx::<i32, B>(dev, "dg_ibins"), false).unwrap(),
        &fx::<i64, B>(dev, "dg_int"),
    );
    let x = fx::<f64, B>(dev, "dg_x");
    let zig = Array::<f64, B>::from_vec(vec![0.0, 2.0, 1.0], &[3], dev).unwrap();
    assert_eq!(
        err_msg(x.digitize(&zig, false)),
        "digitize: bins must be monotonically increasing or decreasing"
    );
    let flat = Array::<f64, B>::zeros(&[2, 2], dev).unwrap();
    assert!(err_msg(x.digitize(&flat, false)).starts_with("digitize: bins must be 1-d"));
    // One bin edge, and none.
    let one = Array::<f64, B>::from_vec(vec![0.5], &[1], dev).unwrap();
    let got = x.digitize(&one, false).unwrap().to_vec().unwrap();
    assert_eq!(&got[..4], &[0, 0, 0, 0]);
    let none = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert!(x
        .digitize(&none, false)
        .unwrap()
        .to_vec()
        .unwrap()
        .iter()
        .all(|&i| i == 0));
}

fn histograms<B: ArrayBackend>(dev: &B) {
    let h = fx::<f64, B>(dev, "h");
    let tol = 1e-12;
    let counts = |got: (Array<i64, B>, Array<f64, B>), name: &str| {
        assert_array_equal(&got.0, &fx::<i64, B>(dev, name));
        assert_allclose(
            &got.1,
            &fx::<f64, B>(dev, &format!("{name}_edges")),
            tol,
            tol,
        );
    };
    for nb in [1usize, 7, 10] {
        counts(h.histogram(nb, None).unwrap(), &format!("h_{nb}"));
    }
    counts(h.histogram(8, Some((-2.0, 2.0))).unwrap(), "h_range");
    // A reversed view and a transposed 2-d view of the same values count the same.
    let rev = h.slice(&s![..;-1]).unwrap();
    assert_array_equal(
        &rev.histogram(10, None).unwrap().0,
        &fx::<i64, B>(dev, "h_10"),
    );
    let m = h.reshape(&[20, 25]).unwrap().t();
    assert_array_equal(
        &m.histogram(10, None).unwrap().0,
        &fx::<i64, B>(dev, "h_10"),
    );
    let hw = fx::<f64, B>(dev, "hw");
    let (w, _) = h.histogram_weighted(8, Some((-2.0, 2.0)), &hw).unwrap();
    assert_allclose(&w, &fx::<f64, B>(dev, "h_weighted"), tol, tol);
    let (d, _) = h.histogram_density(8, Some((-2.0, 2.0)), None).unwrap();
    assert_allclose(&d, &fx::<f64, B>(dev, "h_density"), tol, tol);
    let (d, _) = h
        .histogram_density(8, Some((-2.0, 2.0)), Some(&hw))
        .unwrap();
    assert_allclose(&d, &fx::<f64, B>(dev, "h_density_w"), tol, tol);
    let e = fx::<f64, B>(dev, "h_e");
    assert_array_equal(
        &h.histogram(&e, None).unwrap().0,
        &fx::<i64, B>(dev, "h_edges"),
    );
    let (w, _) = h.histogram_weighted(&e, None, &hw).unwrap();
    assert_allclose(&w, &fx::<f64, B>(dev, "h_edges_w"), tol, tol);
    for rule in [
        BinRule::Auto,
        BinRule::Fd,
        BinRule::Doane,
        BinRule::Scott,
        BinRule::Stone,
        BinRule::Rice,
        BinRule::Sturges,
        BinRule::Sqrt,
    ] {
        let name = format!("h_rule_{}", rule.name());
        assert_allclose(
            &h.histogram_bin_edges(rule, None).unwrap(),
            &fx::<f64, B>(dev, &name),
            tol,
            tol,
        );
        assert_allclose(
            &h.histogram_bin_edges(rule, Some((-1.0, 3.0))).unwrap(),
            &fx::<f64, B>(dev, &format!("{name}_range")),
            tol,
            tol,
        );
        assert_eq!(rule.name().parse::<BinRule>().unwrap(), rule);
    }
    // float32 data: f32 edges; integer data: f64 edges.
    let h32 = fx::<f32, B>(dev, "h32");
    let (c, ed) = h32.histogram(9, None).unwrap();
    assert_array_equal(&c, &fx::<i64, B>(dev, "h32_9"));
    assert_allclose(&ed, &fx::<f32, B>(dev, "h32_9_edges"), 0.0, 0.0);
    let (c, ed) = h32.histogram(6, Some((-2.5, 4.0))).unwrap();
    assert_array_equal(&c, &fx::<i64, B>(dev, "h32_range"));
    assert_allclose(&ed, &fx::<f32, B>(dev, "h32_range_edges"), 0.0, 0.0);
    for ty in ["i64", "i16"] {
        let (c, ed) = match ty {
            "i64" => fx::<i64, B>(dev, "hi").histogram(12, None).unwrap(),
            _ => fx::<i16, B>(dev, "hi").histogram(12, None).unwrap(),
        };
        assert_array_equal(&c, &fx::<i64, B>(dev, "hi_12"));
        assert_allclose(&ed, &fx::<f64, B>(dev, "hi_12_edges"), tol, tol);
    }
    let hi = fx::<i32, B>(dev, "hi");
    for rule in [BinRule::Auto, BinRule::Sqrt] {
        assert_allclose(
            &hi.histogram_bin_edges(rule, None).unwrap(),
            &fx::<f64, B>(dev, &format!("hi_rule_{}", rule.name())),
            tol,
            tol,
        );
    }
    let k = Array::<f64, B>::full(&[5], 3.0, dev).unwrap();
    counts(k.histogram(4, None).unwrap(), "h_const");
    let z = Array::<f64, B>::zeros(&[0], dev).unwrap();
    counts(z.histogram(3, None).unwrap(), "h_empty");
    assert_eq!(
        z.histogram_bin_edges(BinRule::Auto, None).unwrap().size(),
        2
    );
}

fn histogram_errors<B: ArrayBackend>(dev: &B) {
    let h = fx::<f64, B>(dev, "h");
    assert_eq!(
        err_msg(h.histogram(0, None)),
        "histogram: the number of bins must be positive"
    );
    assert!(err_msg(h.histogram(3, Some((1.0, 0.0)))).contains("max must be larger than min"));
    assert!(err_msg(h.histogram(3, Some((0.0, f64::INFINITY)))).contains("not finite"));
    let nan = Array::<f64, B>::from_vec(vec![1.0, f64::NAN], &[2], dev).unwrap();
    assert!(err_msg(nan.histogram(3, None)).contains("autodetected range"));
    // With a range, NaN is simply not counted.
    assert_eq!(
        nan.histogram(2, Some((0.0, 2.0)))
            .unwrap()
            .0
            .to_vec()
            .unwrap(),
        vec![0, 1]
    );
    let dec = Array::<f64, B>::from_vec(vec![1.0, 0.0], &[2], dev).unwrap();
    assert_eq!(
        err_msg(h.histogram(&dec, None)),
        "histogram: bins must increase monotonically"
    );
    let w = Array::<f64, B>::zeros(&[3], dev).unwrap();
    assert_eq!(
        err_msg(h.histogram_weighted(3, None, &w)),
        "histogram: shape mismatch: [500] vs [3]"
    );
    let hw = fx::<f64, B>(dev, "hw");
    assert!(err_msg(h.histogram_weighted(BinRule::Auto, None, &hw)).contains("weighted"));
    let tiny = Array::<f64, B>::from_vec(vec![1.0, 1.0 + 1e-15], &[2], dev).unwrap();
    assert!(err_msg(tiny.histogram(100, None)).contains("too many bins"));
    assert!("nope".parse::<BinRule>().is_err());
}

fn histograms_dd<B: ArrayBackend>(dev: &B) {
    let s = fx::<f64, B>(dev, "dd_s");
    let tol = 1e-12;
    let bins = [Bins::Count(3), Bins::Count(4), Bins::Count(5)];
    let (h, edges) = s.histogramdd(&bins, None, None, false).unwrap();
    assert_allclose(&h, &fx::<f64, B>(dev, "dd"), 0.0, 0.0);
    for (i, e) in edges.iter().enumerate() {
        assert_allclose(e, &fx::<f64, B>(dev, &format!("dd_edges{i}")), tol, tol);
    }
    // The same sample as f32 transposed twice (a non-contiguous view).
    let st = s.t().to_contiguous().unwrap().t();
    let (h2, _) = st.histogramdd(&bins, None, None, false).unwrap();
    assert_allclose(&h2, &fx::<f64, B>(dev, "dd"), 0.0, 0.0);
    let w = fx::<f64, B>(dev, "dd_w");
    let ranges = [(-1.0, 1.0), (-2.0, 2.0), (0.0, 3.0)];
    let (d, _) = s
        .histogramdd(&[Bins::Count(4)], Some(&ranges), Some(&w), true)
        .unwrap();
    assert_allclose(&d, &fx::<f64, B>(dev, "dd_density_w"), tol, tol);
    let ge: Vec<Array<f64, B>> = (0..3)
        .map(|i| fx::<f64, B>(dev, &format!("dd_ge{i}")))
        .collect();
    let given: Vec<Bins<f64, B>> = ge.iter().map(Bins::Edges).collect();
    let (g, _) = s.histogramdd(&given, None, None, false).unwrap();
    assert_allclose(&g, &fx::<f64, B>(dev, "dd_given"), 0.0, 0.0);
    let x = s.slice(&s![.., 0]).unwrap();
    let y = s.slice(&s![.., 1]).unwrap();
    let (h, xe, ye) = x
        .histogram2d(&y, [Bins::Count(5), Bins::Count(3)], None, None, false)
        .unwrap();
    assert_allclose(&h, &fx::<f64, B>(dev, "h2d"), 0.0, 0.0);
    assert_allclose(&xe, &fx::<f64, B>(dev, "h2d_xe"), tol, tol);
    assert_allclose(&ye, &fx::<f64, B>(dev, "h2d_ye"), tol, tol);
    let r2 = [(-1.0, 1.0), (-1.0, 1.0)];
    let (h, _, _) = x
        .histogram2d(
            &y,
            [Bins::Count(4), Bins::Count(4)],
            Some(r2),
            Some(&w),
            false,
        )
        .unwrap();
    assert_allclose(&h, &fx::<f64, B>(dev, "h2d_w"), tol, tol);
    // Errors.
    let cube = Array::<f64, B>::zeros(&[2, 2, 2], dev).unwrap();
    assert!(
        err_msg(cube.histogramdd(&[Bins::Count(2)], None, None, false))
            .starts_with("histogramdd: the sample must be (N, D)")
    );
    assert_eq!(
        err_msg(s.histogramdd(&[Bins::Count(2), Bins::Count(2)], None, None, false)),
        "histogramdd: 2 bin specifications for 3 dimensions"
    );
    assert_eq!(
        err_msg(s.histogramdd(&[Bins::Count(2)], Some(&ranges[..2]), None, false)),
        "histogramdd: 2 ranges for 3 dimensions"
    );
    let short = Array::<f64, B>::zeros(&[3], dev).unwrap();
    assert!(
        err_msg(s.histogramdd(&[Bins::Count(2)], None, Some(&short), false))
            .starts_with("histogramdd: shape mismatch")
    );
    assert!(
        err_msg(s.histogramdd(&[Bins::Rule(BinRule::Auto)], None, None, false))
            .contains("1-d histograms only")
    );
    assert!(err_msg(s.histogramdd(&[Bins::Count(0)], None, None, false)).contains("positive"));
    assert!(
        err_msg(x.histogram2d(&short, [Bins::Count(2), Bins::Count(2)], None, None, false))
            .starts_with("histogram2d: shape mismatch")
    );
}

cuprite::test_backends!(
    at_every_dtype,
    at_errors,
    bincounts,
    digitizes,
    histograms,
    histogram_errors,
    histograms_dd
);

/// The GPU's atomic scatter (shared-memory copies for few bins, global atomics for many,
/// compare-and-swap loops for 8/16-bit types and for minimum/maximum) against the CPU on
/// large random duplicate-heavy input.
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod gpu_vs_cpu {
    use crate::diff_support::{gpu, Rng};
    use cuprite::prelude::*;
    use cuprite::testing::{assert_allclose, assert_array_equal};
    use cuprite::{f16, Scalar};

    fn indices(rng: &mut Rng, m: usize, bins: usize) -> Vec<i64> {
        (0..m)
            .map(|_| {
                let k = (rng.next() % bins as u64) as i64;
                if rng.next().is_multiple_of(5) {
                    k - bins as i64
                } else {
                    k
                }
            })
            .collect()
    }

    fn values<T: Element>(rng: &mut Rng, m: usize) -> Vec<T> {
        (0..m)
            .map(|_| T::from_scalar(Scalar::F64(((rng.next() % 17) as f64) - 8.0)))
            .collect()
    }

    /// `add_at`, `minimum_at`, `maximum_at` of `m` indices into `bins` elements.
    fn compare<T: Real>(m: usize, bins: usize, exact: bool) {
        let (cpu, cuda) = (Cpu::new(), gpu());
        let mut rng = Rng::new((m * 31 + bins) as u64);
        let idx = indices(&mut rng, m, bins);
        let vals = values::<T>(&mut rng, m);
        let base = values::<T>(&mut rng, bins);
        for op in ["add", "minimum", "maximum"] {
            let run = |dev_c: bool| -> Vec<T> {
                macro_rules! go {
                    ($dev:expr) => {{
                        let i = Array::from_vec(idx.clone(), &[m], $dev).unwrap();
                        let v = Array::from_vec(vals.clone(), &[m], $dev).unwrap();
                        let mut a = Array::from_vec(base.clone(), &[bins], $dev).unwrap();
                        match op {
                            "add" => a.add_at(&i, &v),
                            "minimum" => a.minimum_at(&i, &v),
                            _ => a.maximum_at(&i, &v),
                        }
                        .unwrap();
                        a.to_vec().unwrap()
                    }};
                }
                if dev_c {
                    go!(&cpu)
                } else {
                    go!(&cuda)
                }
            };
            let (c, g) = (run(true), run(false));
            let (c, g) = (
                Array::from_vec(c, &[bins], &cpu).unwrap(),
                Array::from_vec(g, &[bins], &cpu).unwrap(),
            );
            if exact || op != "add" {
                assert_array_equal(&g, &c);
            } else {
                assert_allclose(&g, &c, 1e-3, 1e-3);
            }
        }
    }

    #[test]
    #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
    fn scatter_reduce_matches_the_cpu() {
        // Few bins (shared-memory copies), many bins (global atomics), odd sizes.
        for (m, bins) in [(1 << 20, 10), (1_000_003, 100_003), (4099, 7)] {
            compare::<i64>(m, bins, true);
            compare::<i32>(m, bins, true);
            compare::<u64>(m, bins, true);
            compare::<i8>(m, bins, true);
            compare::<u16>(m, bins, true);
            compare::<f64>(m, bins, true);
            compare::<f32>(m, bins, true);
        }
        // Halfs: a CAS loop rounding after every addition; integers up to 8 * 2^20 / 10 are
        // not exact in f16, so compare the order-independent minimum/maximum exactly and
        // sums of few values.
        compare::<f16>(4099, 1000, false);
    }

    #[test]
    #[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
    fn histogram_and_bincount_match_the_cpu() {
        let (cpu, cuda) = (Cpu::new(), gpu());
        let mut rng = Rng::new(99);
        let n = 3_000_017;
        let x: Vec<f64> = (0..n).map(|_| rng.unit() * 3.0).collect();
        let k: Vec<i64> = (0..n).map(|_| (rng.next() % 1000) as i64).collect();
        let xc = Array::from_vec(x.clone(), &[n], &cpu).unwrap();
        let xg = Array::from_vec(x, &[n], &cuda).unwrap();
        for bins in [1usize, 10, 256, 5000] {
            let (hc, ec) = xc.histogram(bins, None).unwrap();
            let (hg, eg) = xg.histogram(bins, None).unwrap();
            assert_eq!(hc.to_vec().unwrap(), hg.to_vec().unwrap(), "{bins} bins");
            assert_eq!(ec.to_vec().unwrap(), eg.to_vec().unwrap(), "{bins} edges");
        }
        let kc = Array::from_vec(k.clone(), &[n], &cpu).unwrap();
        let kg = Array::from_vec(k, &[n], &cuda).unwrap();
        assert_eq!(
            kc.bincount(0).unwrap().to_vec().unwrap(),
            kg.bincount(0).unwrap().to_vec().unwrap()
        );
        let w: Vec<f32> = (0..n).map(|_| rng.unit() as f32).collect();
        let wc = Array::from_vec(w.clone(), &[n], &cpu).unwrap();
        let wg = Array::from_vec(w, &[n], &cuda).unwrap();
        let bc = kc.bincount_weighted(&wc, 0).unwrap();
        let bg = kg.bincount_weighted(&wg, 0).unwrap();
        let bg = Array::from_vec(bg.to_vec().unwrap(), &[bc.size()], &cpu).unwrap();
        assert_allclose(&bg, &bc, 1e-4, 1e-4);
    }
}
