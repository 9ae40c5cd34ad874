//! NaN-ignoring scans and NumPy's names and call forms on every backend: `nancumsum` /
//! `nancumprod` (float, complex, int, unsigned and bool inputs, every axis, views),
//! `argmin_axes`/`argmax_axes` (several axes, keepdims, NaN, ties, views), `norm_with`
//! (every vector and matrix order, axes in either order, keepdims, complex),
//! `unique_values`/`unique_counts`/`unique_inverse` (NaN, -0.0, views, int, complex,
//! bool, empty), `ufunc::{add, subtract, multiply, divide, negative}`, `transpose_axes` and
//! `ptp`'s error, `packbits`/`unpackbits` (axes, counts, bit orders, views, bool and
//! integer inputs) and `nan_to_num`/`nan_to_num_with` (defaults and given values,
//! f64/f32/f16/bf16), against NumPy fixtures (`scripts/fixtures/misc_ops.py`), with their
//! error paths.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_allclose, assert_array_equal};
use cuprite::{bf16, f16};

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "misc_ops", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn nan_scans_for<T: Float, B: ArrayBackend>(dev: &B, tol: f64) {
    let a = fx::<T, B>(dev, "a");
    let close = |r: Result<Array<T, B>>, name: &str| {
        assert_allclose(&r.unwrap(), &fx::<T, B>(dev, name), tol, tol);
    };
    for (ax, tag) in [
        (None, "flat"),
        (Some(0), "0"),
        (Some(1), "1"),
        (Some(-1), "m1"),
    ] {
        close(a.nancumsum(ax), &format!("ncs_{tag}"));
        close(a.nancumprod(ax), &format!("ncp_{tag}"));
    }
    close(a.t().nancumsum(Some(1)), "ncs_T");
    close(
        a.slice(&s![..;-1, ..;-2]).unwrap().nancumprod(Some(0)),
        "ncp_rev",
    );
}

fn nan_scans<B: ArrayBackend>(dev: &B) {
    nan_scans_for::<f64, B>(dev, 1e-12);
    nan_scans_for::<f32, B>(dev, 1e-5);
    nan_scans_for::<f16, B>(dev, 1e-2);
    let ac = fx::<c128, B>(dev, "ac");
    assert_allclose(
        &ac.nancumsum(Some(1)).unwrap(),
        &fx::<c128, B>(dev, "ncs_c"),
        1e-12,
        1e-12,
    );
    assert_allclose(
        &ac.nancumprod(Some(0)).unwrap(),
        &fx::<c128, B>(dev, "ncp_c"),
        1e-12,
        1e-12,
    );
    // Integers and bool: their cumsum/cumprod, in i64/u64 (NumPy's result types).
    let ai = fx::<i32, B>(dev, "ai");
    let s: Array<i64, B> = ai.nancumsum(Some(1)).unwrap();
    assert_array_equal(&s, &fx::<i64, B>(dev, "ncs_i"));
    assert_array_equal(
        &ai.nancumprod(Some(0)).unwrap(),
        &fx::<i64, B>(dev, "ncp_i"),
    );
    let ab = fx::<bool, B>(dev, "ab");
    assert_array_equal(&ab.nancumsum(None).unwrap(), &fx::<i64, B>(dev, "ncs_b"));
    let au = fx::<u8, B>(dev, "au");
    let p: Array<u64, B> = au.nancumprod(None).unwrap();
    assert_array_equal(&p, &fx::<u64, B>(dev, "ncp_u"));
    // 0-d (one element, 1-d) and empty inputs.
    let z = Array::<f64, B>::scalar(f64::NAN, dev).unwrap();
    assert_eq!(z.nancumsum(Some(0)).unwrap().to_vec().unwrap(), vec![0.0]);
    assert_eq!(z.nancumprod(None).unwrap().shape(), &[1]);
    let e = Array::<f32, B>::zeros(&[0, 3], dev).unwrap();
    assert_eq!(e.nancumsum(Some(1)).unwrap().shape(), &[0, 3]);
    // Errors name the op.
    let a = fx::<f64, B>(dev, "a");
    let m = err_msg(a.nancumsum(Some(2)));
    assert!(m.starts_with("nancumsum") && m.contains("axis 2"), "{m}");
    assert!(err_msg(a.nancumprod(Some(-3))).starts_with("nancumprod"));
    assert!(err_msg(z.nancumprod(Some(1))).starts_with("nancumprod"));
}

fn arg_axes_for<T: Real, B: ArrayBackend>(dev: &B) {
    let x = fx::<T, B>(dev, "x");
    let eq = |r: Result<Array<i64, B>>, name: &str| {
        assert_array_equal(&r.unwrap(), &fx::<i64, B>(dev, name));
    };
    for (axes, tag) in [
        (vec![0isize, 2], "0_2"),
        (vec![1, 2], "1_2"),
        (vec![0, 1], "0_1"),
        (vec![0, 1, 2], "0_1_2"),
        (vec![2], "2"),
        (vec![-1, 0], "m1_0"),
    ] {
        eq(x.argmax_axes(axes.clone(), false), &format!("argmax_{tag}"));
        eq(x.argmin_axes(axes, false), &format!("argmin_{tag}"));
    }
    eq(x.argmax_axes([0, 2], true), "argmax_0_2_kd");
    eq(x.argmax_axes(Axes::All, false), "argmax_0_1_2");
    eq(
        x.permute_dims(&[2, 0, 1])
            .unwrap()
            .argmin_axes([0, 1], false),
        "argmin_T_0_1",
    );
    eq(
        x.slice(&s![..;-1, .., ..;-2])
            .unwrap()
            .argmax_axes([1, 2], false),
        "argmax_rev_1_2",
    );
}

fn arg_axes<B: ArrayBackend>(dev: &B) {
    arg_axes_for::<f64, B>(dev);
    arg_axes_for::<f32, B>(dev);
    let xi = fx::<i16, B>(dev, "xi");
    let eq = |r: Result<Array<i64, B>>, name: &str| {
        assert_array_equal(&r.unwrap(), &fx::<i64, B>(dev, name));
    };
    eq(xi.argmax_axes([1, 2], false), "argmax_i_1_2");
    eq(xi.argmin_axes([0, 2], false), "argmin_i_0_2");
    // One axis agrees with argmax_axis; an empty axis list is all zeros; 0-d gives 0.
    let x = fx::<f64, B>(dev, "x");
    assert_array_equal(
        &x.argmax_axes(1, false).unwrap(),
        &x.argmax_axis(1, false).unwrap(),
    );
    let none: [isize; 0] = [];
    assert_eq!(
        x.argmin_axes(none, false).unwrap().to_vec().unwrap(),
        vec![0i64; 60]
    );
    let s = Array::<i32, B>::scalar(4, dev).unwrap();
    assert_eq!(s.argmax_axes(Axes::All, false).unwrap().item().unwrap(), 0);
    // bool and complex (first largest; lexicographic order for complex).
    let b = Array::<bool, B>::from_vec(vec![false, true, true, false], &[2, 2], dev).unwrap();
    assert_eq!(b.argmax_axes([0, 1], false).unwrap().item().unwrap(), 1);
    let c = Array::<c64, B>::from_vec(
        vec![c64::new(1.0, 2.0), c64::new(1.0, 3.0), c64::new(0.0, 9.0)],
        &[1, 3],
        dev,
    )
    .unwrap();
    assert_eq!(c.argmax_axes([0, 1], false).unwrap().item().unwrap(), 1);
    // Errors: empty blocks, axes out of range or repeated.
    let e = Array::<f64, B>::zeros(&[2, 0, 3], dev).unwrap();
    let m = err_msg(e.argmax_axes([1, 2], false));
    assert!(m.starts_with("argmax: ") && m.contains("[2, 0, 3]"), "{m}");
    // An empty kept axis with a non-empty block is fine.
    assert_eq!(e.argmin_axes([0, 2], false).unwrap().shape(), &[0]);
    assert!(err_msg(x.argmin_axes([0, 3], false)).starts_with("argmin"));
    assert!(err_msg(x.argmin_axes([1, -2], false)).starts_with("argmin"));
}

fn norms<B: ArrayBackend>(dev: &B) {
    let m = fx::<f64, B>(dev, "m");
    let close = |r: Result<Array<f64, B>>, name: &str| {
        assert_allclose(&r.unwrap(), &fx::<f64, B>(dev, name), 1e-12, 1e-12);
    };
    close(m.norm_with(None, None, false), "norm_default");
    close(m.norm_with(None, None, true), "norm_default_kd");
    let inf = f64::INFINITY;
    for (ord, tag) in [
        (None, "none"),
        (Some(NormOrd::P(1.0)), "1"),
        (Some(NormOrd::P(-1.0)), "m1"),
        (Some(NormOrd::P(2.0)), "2"),
        (Some(NormOrd::P(-2.0)), "m2"),
        (Some(NormOrd::P(inf)), "inf"),
        (Some(NormOrd::P(-inf)), "minf"),
        (Some(NormOrd::Fro), "fro"),
        (Some(NormOrd::Nuc), "nuc"),
    ] {
        close(
            m.norm_with(ord, Some(&[1, 2]), false),
            &format!("norm_mat_{tag}"),
        );
        close(
            m.norm_with(ord, Some(&[2, 0]), true),
            &format!("norm_mat_{tag}_20"),
        );
    }
    for (ord, tag) in [
        (None, "none"),
        (Some(1.0), "1"),
        (Some(0.0), "0"),
        (Some(3.5), "3p5"),
        (Some(inf), "inf"),
        (Some(-inf), "minf"),
        (Some(-1.0), "m1"),
    ] {
        close(
            m.norm_with(ord.map(NormOrd::P), Some(&[1]), false),
            &format!("norm_vec_{tag}"),
        );
    }
    close(
        m.norm_with(Some(NormOrd::P(3.0)), Some(&[-1]), true),
        "norm_vec_kd",
    );
    let m2 = fx::<f64, B>(dev, "m2");
    close(
        m2.norm_with(Some(NormOrd::P(1.0)), None, false),
        "norm_2d_1",
    );
    close(m2.norm_with(Some(NormOrd::Nuc), None, false), "norm_2d_nuc");
    let v = m2.slice(&s![0, ..]).unwrap();
    close(
        v.norm_with(Some(NormOrd::P(inf)), None, false),
        "norm_1d_inf",
    );
    close(v.norm_with(Some(NormOrd::P(0.0)), None, false), "norm_1d_0");
    // The transposed view over axes (1, 0) is the matrix over (0, 1).
    assert_allclose(
        &m2.t()
            .norm_with(Some(NormOrd::P(1.0)), Some(&[1, 0]), false)
            .unwrap(),
        &fx::<f64, B>(dev, "norm_2d_1"),
        1e-12,
        1e-12,
    );
    let mc = fx::<c128, B>(dev, "mc");
    close(mc.norm_with(Some(NormOrd::P(2.0)), None, false), "norm_c_2");
    close(
        mc.norm_with(Some(NormOrd::P(1.0)), Some(&[0]), false),
        "norm_c_vec",
    );
    let m32 = fx::<f32, B>(dev, "m");
    assert_allclose(
        &m32.norm_with(None, Some(&[1, 2]), false).unwrap(),
        &fx::<f32, B>(dev, "norm_mat_none"),
        1e-5,
        1e-5,
    );
    // Errors name norm.
    let msg = err_msg(m.norm_with(Some(NormOrd::P(1.0)), None, false));
    assert!(msg.starts_with("norm: ") && msg.contains("3"), "{msg}");
    let msg = err_msg(m.norm_with(Some(NormOrd::Fro), Some(&[0]), false));
    assert!(
        msg.starts_with("norm: invalid norm order Fro for vectors"),
        "{msg}"
    );
    let msg = err_msg(m.norm_with(Some(NormOrd::P(3.0)), Some(&[0, 1]), false));
    assert!(
        msg.starts_with("norm: invalid norm order 3 for matrices"),
        "{msg}"
    );
    let msg = err_msg(m.norm_with(None, Some(&[0, 1, 2]), false));
    assert!(msg.starts_with("norm: improper number of axes: 3"), "{msg}");
    let msg = err_msg(m.norm_with(None, Some(&[1, -2]), false));
    assert!(msg.starts_with("norm: duplicate axes"), "{msg}");
    assert!(err_msg(m.norm_with(None, Some(&[3]), false)).contains("norm"));
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    let msg = err_msg(e.norm_with(Some(NormOrd::P(-inf)), Some(&[0]), false));
    assert!(msg.starts_with("norm: "), "{msg}");
}

fn uniques<B: ArrayBackend>(dev: &B) {
    let u = fx::<f64, B>(dev, "u");
    assert_array_equal(&u.unique_values().unwrap(), &fx::<f64, B>(dev, "uv"));
    let c = u.unique_counts().unwrap();
    assert_array_equal(&c.values, &fx::<f64, B>(dev, "uc_values"));
    assert_array_equal(&c.counts, &fx::<i64, B>(dev, "uc_counts"));
    let i = u.unique_inverse().unwrap();
    assert_array_equal(&i.values, &fx::<f64, B>(dev, "ui_values"));
    assert_array_equal(&i.inverse, &fx::<i64, B>(dev, "ui_inverse"));
    let ut = u.t().slice(&s![..;-1, ..]).unwrap();
    assert_array_equal(
        &ut.unique_inverse().unwrap().inverse,
        &fx::<i64, B>(dev, "ui_T_inverse"),
    );
    assert_array_equal(
        &ut.unique_counts().unwrap().counts,
        &fx::<i64, B>(dev, "uc_T_counts"),
    );
    let ui = fx::<i64, B>(dev, "uint");
    assert_array_equal(
        &ui.unique_values().unwrap(),
        &fx::<i64, B>(dev, "uint_values"),
    );
    assert_array_equal(
        &ui.unique_counts().unwrap().counts,
        &fx::<i64, B>(dev, "uint_counts"),
    );
    assert_array_equal(
        &ui.unique_inverse().unwrap().inverse,
        &fx::<i64, B>(dev, "uint_inverse"),
    );
    let ucx = fx::<c128, B>(dev, "ucx");
    let c = ucx.unique_counts().unwrap();
    assert_array_equal(&c.values, &fx::<c128, B>(dev, "ucx_values"));
    assert_array_equal(&c.counts, &fx::<i64, B>(dev, "ucx_counts"));
    assert_array_equal(
        &ucx.unique_inverse().unwrap().inverse,
        &fx::<i64, B>(dev, "ucx_inverse"),
    );
    let ub = fx::<bool, B>(dev, "ubool");
    assert_array_equal(
        &ub.unique_counts().unwrap().counts,
        &fx::<i64, B>(dev, "ubool_counts"),
    );
    assert_array_equal(
        &ub.unique_inverse().unwrap().inverse,
        &fx::<i64, B>(dev, "ubool_inverse"),
    );
    // Empty and 0-d inputs.
    let e = Array::<f32, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(e.unique_values().unwrap().shape(), &[0]);
    let c = e.unique_counts().unwrap();
    assert_eq!(
        (c.values.shape(), c.counts.shape()),
        (&[0usize][..], &[0usize][..])
    );
    let i = e.unique_inverse().unwrap();
    assert_eq!(
        (i.values.shape(), i.inverse.shape()),
        (&[0usize][..], &[2usize, 0][..])
    );
    let z = Array::<i32, B>::scalar(5, dev).unwrap();
    let i = z.unique_inverse().unwrap();
    assert_eq!(i.values.to_vec().unwrap(), vec![5]);
    assert_eq!(i.inverse.shape(), &[] as &[usize]);
    assert_eq!(z.unique_counts().unwrap().counts.to_vec().unwrap(), vec![1]);
}

fn ufuncs<B: ArrayBackend>(dev: &B) {
    let (p, q) = (fx::<f64, B>(dev, "p"), fx::<f64, B>(dev, "q"));
    let close = |r: Result<Array<f64, B>>, name: &str| {
        assert_allclose(&r.unwrap(), &fx::<f64, B>(dev, name), 1e-15, 0.0);
    };
    close(ufunc::add(&p, &q), "np_add");
    close(ufunc::subtract(&p, &q), "np_subtract");
    close(ufunc::multiply(&p, &q), "np_multiply");
    close(ufunc::divide(&p, &q), "np_divide");
    close(ufunc::negative(&p), "np_negative");
    // Through a transposed view (the same elements, read in another order).
    close(
        ufunc::add(&p.t().to_contiguous().unwrap().t(), &q),
        "np_add",
    );
    let (pi, qi) = (fx::<i32, B>(dev, "pi"), fx::<i32, B>(dev, "qi"));
    let eq = |r: Result<Array<i32, B>>, name: &str| {
        assert_array_equal(&r.unwrap(), &fx::<i32, B>(dev, name));
    };
    eq(ufunc::add(&pi, &qi), "np_add_i");
    eq(ufunc::subtract(&pi, &qi), "np_subtract_i");
    eq(ufunc::multiply(&pi, &qi), "np_multiply_i");
    eq(ufunc::negative(&pi), "np_negative_i");
    let d: Array<f64, B> = ufunc::divide(&pi, &qi).unwrap();
    assert_allclose(&d, &fx::<f64, B>(dev, "np_divide_i"), 1e-15, 0.0);
    let z = Array::<c64, B>::from_vec(vec![c64::new(1.0, -2.0)], &[], dev).unwrap();
    assert_eq!(
        ufunc::negative(&z).unwrap().item().unwrap(),
        c64::new(-1.0, 2.0)
    );
    let m = err_msg(ufunc::add(&p, &p.slice(&s![.., ..3]).unwrap()));
    assert!(
        m.starts_with("add: ") && m.contains("[3, 4]") && m.contains("[3, 3]"),
        "{m}"
    );
    let m = err_msg(ufunc::divide(&pi, &pi.slice(&s![..2, ..]).unwrap()));
    assert!(
        m.starts_with("true_divide: ") && m.contains("[2, 4]"),
        "{m}"
    );
}

fn transposes_and_ptp<B: ArrayBackend>(dev: &B) {
    let a = Array::<i64, B>::ramp(24, 0, 1, dev)
        .unwrap()
        .reshape(&[2, 3, 4])
        .unwrap();
    let t = a.transpose_axes(&[1, -1, 0]).unwrap();
    assert_eq!(t.shape(), &[3, 4, 2]);
    assert_array_equal(&t, &a.permute_dims(&[1, 2, 0]).unwrap());
    assert_eq!(
        a.transpose_axes(&[2, 1, 0]).unwrap().to_vec().unwrap(),
        a.t().to_vec().unwrap()
    );
    let m = err_msg(a.transpose_axes(&[0, 0, 1]));
    assert!(m.starts_with("transpose"), "{m}");
    assert!(err_msg(a.transpose_axes(&[0, 1])).starts_with("transpose"));
    assert!(err_msg(a.transpose_axes(&[0, 1, 3])).starts_with("transpose"));
    // ptp names itself.
    let e = Array::<f64, B>::zeros(&[0, 3], dev).unwrap();
    let m = err_msg(e.ptp_axes(0, false));
    assert!(m.starts_with("ptp: ") && !m.contains("max:"), "{m}");
    let m = err_msg(e.ptp());
    assert!(m.starts_with("ptp: ") && m.contains("[0, 3]"), "{m}");
}

fn bits<B: ArrayBackend>(dev: &B) {
    let eq = |r: Result<Array<u8, B>>, name: &str| {
        assert_array_equal(&r.unwrap(), &fx::<u8, B>(dev, name));
    };
    let bb = fx::<bool, B>(dev, "bb");
    eq(bb.packbits(None, BitOrder::Big), "pack_flat");
    eq(bb.packbits(Some(0), BitOrder::Big), "pack_0");
    eq(bb.packbits(Some(2), BitOrder::default()), "pack_2");
    eq(bb.packbits(Some(-2), BitOrder::Little), "pack_m2_little");
    eq(
        bb.permute_dims(&[2, 0, 1])
            .unwrap()
            .packbits(Some(1), BitOrder::Big),
        "pack_T_1",
    );
    eq(
        bb.slice(&s![..;-1, .., ..;-3])
            .unwrap()
            .packbits(Some(2), BitOrder::Little),
        "pack_rev_2",
    );
    // Integers pack their truth; the same bits from i32, i64 and u8.
    eq(
        fx::<i32, B>(dev, "bi").packbits(Some(1), BitOrder::Big),
        "pack_i_1",
    );
    eq(
        fx::<i64, B>(dev, "bi").packbits(Some(1), BitOrder::Big),
        "pack_i_1",
    );
    let by = fx::<u8, B>(dev, "by");
    eq(by.unpackbits(None, None, BitOrder::Big), "unpack_flat");
    eq(by.unpackbits(Some(0), None, BitOrder::Big), "unpack_0");
    eq(
        by.unpackbits(Some(1), None, BitOrder::Little),
        "unpack_1_little",
    );
    eq(
        by.unpackbits(Some(1), Some(5), BitOrder::Big),
        "unpack_1_c5",
    );
    eq(
        by.unpackbits(Some(-1), Some(40), BitOrder::Big),
        "unpack_1_c40",
    );
    eq(
        by.unpackbits(Some(0), Some(-7), BitOrder::Little),
        "unpack_0_cm7",
    );
    eq(
        by.t().unpackbits(Some(0), None, BitOrder::Big),
        "unpack_T_0",
    );
    let rev = by.slice(&s![..;-1, ..;-2]).unwrap();
    eq(
        rev.unpackbits(None, Some(0), BitOrder::Big),
        "unpack_rev_flat_c0",
    );
    eq(rev.unpackbits(Some(1), None, BitOrder::Big), "unpack_rev_1");
    // Round trip, empty and 0-d inputs.
    let back = by
        .unpackbits(Some(0), None, BitOrder::Little)
        .unwrap()
        .packbits(Some(0), BitOrder::Little)
        .unwrap();
    assert_array_equal(&back, &by);
    let e = Array::<bool, B>::zeros(&[2, 0], dev).unwrap();
    assert_eq!(e.packbits(Some(1), BitOrder::Big).unwrap().shape(), &[2, 0]);
    let e8 = Array::<u8, B>::zeros(&[0, 2], dev).unwrap();
    assert_eq!(
        e8.unpackbits(Some(0), None, BitOrder::Big).unwrap().shape(),
        &[0, 2]
    );
    let t = Array::<bool, B>::scalar(true, dev).unwrap();
    assert_eq!(
        t.packbits(None, BitOrder::Big).unwrap().to_vec().unwrap(),
        vec![128]
    );
    assert_eq!(
        t.packbits(Some(0), BitOrder::Little)
            .unwrap()
            .to_vec()
            .unwrap(),
        vec![1]
    );
    let s3 = Array::<u8, B>::scalar(3, dev).unwrap();
    assert_eq!(
        s3.unpackbits(None, None, BitOrder::Big)
            .unwrap()
            .to_vec()
            .unwrap(),
        vec![0, 0, 0, 0, 0, 0, 1, 1]
    );
    // Errors name the op.
    let f = Array::<f64, B>::ones(&[3], dev).unwrap();
    let m = err_msg(f.packbits(None, BitOrder::Big));
    assert!(m.starts_with("packbits: ") && m.contains("float64"), "{m}");
    assert!(err_msg(bb.packbits(Some(3), BitOrder::Big)).starts_with("packbits"));
    assert!(err_msg(by.unpackbits(Some(2), None, BitOrder::Big)).starts_with("unpackbits"));
    let m = err_msg(by.unpackbits(Some(1), Some(-33), BitOrder::Big));
    assert!(
        m.starts_with("unpackbits: -count larger") && m.contains("32 bits"),
        "{m}"
    );
}

fn nan_to_nums<B: ArrayBackend>(dev: &B) {
    let close64 = |r: Result<Array<f64, B>>, name: &str| {
        assert_array_equal(&r.unwrap(), &fx::<f64, B>(dev, name));
    };
    let f = fx::<f64, B>(dev, "fn");
    close64(f.nan_to_num(), "ntn_f64");
    close64(f.nan_to_num_with(0.0, None, None), "ntn_f64");
    close64(f.nan_to_num_with(-1.0, Some(7.0), Some(-8.0)), "ntn_args");
    close64(
        f.slice(&s![..;-2])
            .unwrap()
            .nan_to_num_with(0.0, Some(1e300), None),
        "ntn_rev",
    );
    let f32s = fx::<f32, B>(dev, "fn");
    assert_array_equal(&f32s.nan_to_num().unwrap(), &fx::<f32, B>(dev, "ntn_f32"));
    assert_array_equal(
        &f32s.nan_to_num_with(0.0, None, None).unwrap(),
        &fx::<f32, B>(dev, "ntn_f32"),
    );
    assert_array_equal(
        &f32s
            .nan_to_num_with(0.0, Some(1e300), Some(-1e300))
            .unwrap(),
        &fx::<f32, B>(dev, "ntn_f32_big"),
    );
    let f16s = fx::<f16, B>(dev, "fn");
    assert_array_equal(&f16s.nan_to_num().unwrap(), &fx::<f16, B>(dev, "ntn_f16"));
    assert_array_equal(
        &f16s.nan_to_num_with(0.0, None, None).unwrap(),
        &fx::<f16, B>(dev, "ntn_f16"),
    );
    let b = fx::<bf16, B>(dev, "fn");
    for got in [b.nan_to_num(), b.nan_to_num_with(0.0, None, None)] {
        let v = got.unwrap().to_vec().unwrap();
        assert_eq!((v[0], v[1], v[2]), (bf16::ZERO, bf16::MAX, bf16::MIN));
    }
    // -0.0 keeps its sign; empty and 0-d inputs.
    for z in [f.nan_to_num(), f.nan_to_num_with(0.0, None, None)] {
        let z = z.unwrap().to_vec().unwrap();
        assert!(z[3] == 0.0 && z[3].is_sign_negative());
    }
    let e = Array::<f32, B>::zeros(&[0, 2], dev).unwrap();
    assert_eq!(e.nan_to_num_with(0.0, None, None).unwrap().shape(), &[0, 2]);
    assert_eq!(e.nan_to_num().unwrap().shape(), &[0, 2]);
    let s = Array::<f64, B>::scalar(f64::NAN, dev).unwrap();
    assert_eq!(
        s.nan_to_num_with(5.0, None, None).unwrap().item().unwrap(),
        5.0
    );
    assert_eq!(s.nan_to_num().unwrap().item().unwrap(), 0.0);
}

cuprite::test_backends!(
    nan_scans,
    arg_axes,
    norms,
    uniques,
    ufuncs,
    transposes_and_ptp,
    bits,
    nan_to_nums
);
