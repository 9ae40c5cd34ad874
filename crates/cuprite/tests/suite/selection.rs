//! Selection by index arrays and conditions on every backend: `choose` (modes raise, wrap
//! and clip, broadcast choices, index dtypes, views, a 0-d index), `compress` (axes,
//! flattened, short conditions, transposed and reversed views), `extract`, `place` (cycled
//! values, through a transposed view), `trim_zeros` (front, back, both, 1-d and n-d, views,
//! all zeros, 0-d, signed zeros, NaN, complex), `select_by_conditions` (NumPy's `np.select`)
//! and `piecewise` (closures and constants, the "otherwise" piece, overlapping conditions),
//! against NumPy fixtures (`scripts/fixtures/selection.py`) for every dtype family, with
//! every error path.

use crate::common;

use common::fixture;
use cuprite::prelude::*;
use cuprite::testing::{assert_array_equal, assert_array_equal_vec};
use cuprite::Scalar;

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, "selection", name)
}

fn err_msg<V: std::fmt::Debug>(r: Result<V>) -> String {
    r.expect_err("expected an error").to_string()
}

fn val<T: Element>(v: i64) -> T {
    T::from_scalar(Scalar::I64(v))
}

/// Runs `$body::<T, B>(dev)` for every element type the type-agnostic ops are tested with.
macro_rules! every_dtype {
    ($body:ident, $dev:expr) => {
        $body::<f64, B>($dev);
        $body::<f32, B>($dev);
        $body::<f16, B>($dev);
        $body::<i64, B>($dev);
        $body::<i32, B>($dev);
        $body::<u8, B>($dev);
        $body::<u64, B>($dev);
        $body::<bool, B>($dev);
        $body::<c64, B>($dev);
        $body::<c128, B>($dev);
    };
}

fn choose_for<T: Element, B: ArrayBackend>(dev: &B) {
    let (c0, c1, c2) = (
        fx::<T, B>(dev, "c0"),
        fx::<T, B>(dev, "c1"),
        fx::<T, B>(dev, "c2"),
    );
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    let idx = fx::<i64, B>(dev, "ch_idx");
    let wild = fx::<i64, B>(dev, "ch_wild");
    let all = [&c0, &c1, &c2];
    eq(Array::choose(&idx, &all, IndexMode::Raise), "choose_raise");
    eq(
        Array::choose(&fx::<u8, B>(dev, "ch_idx"), &all, IndexMode::Raise),
        "choose_raise",
    );
    eq(Array::choose(&wild, &all, IndexMode::Wrap), "choose_wrap");
    eq(
        Array::choose(&fx::<i32, B>(dev, "ch_wild"), &all, IndexMode::Clip),
        "choose_clip",
    );
    let iv = idx.t().slice(&s![..;-1]).unwrap();
    let c0v = c0.t().slice(&s![..;-1]).unwrap();
    eq(
        Array::choose(&iv, &[&c0v, &c2.t()], IndexMode::Clip),
        "choose_view",
    );
    let one = Array::<i64, B>::scalar(1, dev).unwrap();
    eq(
        Array::choose(
            &one,
            &[&c1, &c1.slice(&s![..;-1]).unwrap()],
            IndexMode::Raise,
        ),
        "choose_0d",
    );
    // A single choice, empty index arrays.
    assert_array_equal(&Array::choose(&one, &[&c1], IndexMode::Wrap).unwrap(), &c1);
    let e = Array::<i64, B>::zeros(&[0, 4], dev).unwrap();
    assert_eq!(
        Array::choose(&e, &[&c1, &c1], IndexMode::Raise)
            .unwrap()
            .shape(),
        &[0, 4]
    );
}

fn choose_every_dtype<B: ArrayBackend>(dev: &B) {
    every_dtype!(choose_for, dev);
}

fn choose_errors<B: ArrayBackend>(dev: &B) {
    let c = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev).unwrap();
    let d = Array::<f64, B>::from_vec(vec![3.0, 4.0], &[2], dev).unwrap();
    let i = |v: Vec<i64>| Array::<i64, B>::from_vec(v, &[2], dev).unwrap();
    assert_eq!(
        err_msg(Array::choose(&i(vec![0, 2]), &[&c, &d], IndexMode::Raise)),
        "choose: index 2 is out of bounds for axis 0 with size 2"
    );
    assert_eq!(
        err_msg(Array::choose(&i(vec![-1, 0]), &[&c, &d], IndexMode::Raise)),
        "choose: index -1 is out of bounds for axis 0 with size 2"
    );
    assert!(err_msg(Array::choose(
        &fx::<i64, B>(dev, "ch_wild"),
        &[&c, &d],
        IndexMode::Raise
    ))
    .starts_with("choose: operands could not be broadcast"));
    let all = [
        &fx::<f64, B>(dev, "c0"),
        &fx::<f64, B>(dev, "c1"),
        &fx::<f64, B>(dev, "c2"),
    ];
    assert!(err_msg(Array::choose(
        &fx::<i64, B>(dev, "ch_wild"),
        &all,
        IndexMode::Raise
    ))
    .starts_with("choose: index "));
    assert_eq!(
        err_msg(Array::<f64, B>::choose(
            &i(vec![0, 0]),
            &[],
            IndexMode::Clip
        )),
        "choose: choices is a 0-length sequence"
    );
}

fn compress_extract_for<T: Element, B: ArrayBackend>(dev: &B) {
    let a = fx::<T, B>(dev, "a");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    let cond = |name: &str| fx::<bool, B>(dev, name);
    eq(a.compress(&cond("cond4"), Some(1)), "compress_ax1");
    eq(a.compress(&cond("cond2"), Some(-1)), "compress_axm1_short");
    eq(a.compress(&cond("cond7"), None), "compress_flat");
    let av = a
        .permute_dims(&[1, 2, 0])
        .unwrap()
        .slice(&s![..;-1])
        .unwrap();
    eq(av.compress(&cond("cond4"), Some(0)), "compress_T_ax0");
    let none = Array::<bool, B>::zeros(&[3], dev).unwrap();
    eq(a.compress(&none, Some(0)), "compress_none");
    let s = Array::<T, B>::scalar(val(5), dev).unwrap();
    let t = Array::<bool, B>::ones(&[1], dev).unwrap();
    assert_array_equal_vec(&s.compress(&t, None).unwrap(), &[val(5)], &[1]);
    // extract: the same shape, another shape, views.
    let a0 = a.slice(&s![0]).unwrap();
    eq(Array::extract(&cond("ex_cond"), &a0), "extract_same");
    eq(Array::extract(&cond("cond7"), &a), "extract_other");
    let a0v = a0.t().slice(&s![..;-1]).unwrap();
    eq(Array::extract(&cond("ex_cond").t(), &a0v), "extract_view");
    assert_eq!(Array::extract(&none, &a).unwrap().shape(), &[0]);
}

fn compress_extract_every_dtype<B: ArrayBackend>(dev: &B) {
    every_dtype!(compress_extract_for, dev);
}

fn compress_extract_errors<B: ArrayBackend>(dev: &B) {
    let a = fx::<i32, B>(dev, "a");
    let c2 = Array::<bool, B>::ones(&[2, 2], dev).unwrap();
    assert_eq!(
        err_msg(a.compress(&c2, Some(0))),
        "compress: condition must be a 1-d array, got shape [2, 2]"
    );
    let c7 = fx::<bool, B>(dev, "cond7");
    assert!(err_msg(a.compress(&c7, Some(1))).starts_with("compress: index 4 is out of bounds"));
    assert_eq!(
        err_msg(a.compress(&c7, Some(3))),
        "compress: axis 3 is out of bounds for an array of dimension 3"
    );
    let s = Array::<i32, B>::scalar(1, dev).unwrap();
    assert!(err_msg(s.compress(&c7, Some(0))).starts_with("compress: axis 0 is out of bounds"));
    let long = Array::<bool, B>::ones(&[30], dev).unwrap();
    let a0 = a.slice(&s![0]).unwrap();
    assert!(err_msg(Array::extract(&long, &a0)).starts_with("extract: index 20 is out of bounds"));
}

fn place_for<T: Element, B: ArrayBackend>(dev: &B) {
    let (mask, vals) = (fx::<bool, B>(dev, "pl_mask"), fx::<T, B>(dev, "pl_vals"));
    let mut p = fx::<T, B>(dev, "pl");
    p.place(&mask, &vals).unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "place"));
    // Through a transposed view, two values cycled; the source array is unchanged.
    let src = fx::<T, B>(dev, "pl");
    let mut v = src.t();
    v.place(&mask.t(), &vals.slice(&s![..2]).unwrap()).unwrap();
    assert_array_equal(&v, &fx::<T, B>(dev, "place_T"));
    assert_array_equal(&src, &fx::<T, B>(dev, "pl"));
    // One value everywhere; a mask of another shape but the same size.
    let mut p = fx::<T, B>(dev, "pl");
    let five = Array::<T, B>::from_vec(vec![val(5)], &[1], dev).unwrap();
    p.place(&mask.reshape(&[20]).unwrap(), &five).unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "place_one"));
    // Nothing to place: any values, even none.
    let mut p = fx::<T, B>(dev, "pl");
    let none = Array::<bool, B>::zeros(&[4, 5], dev).unwrap();
    p.place(&none, &Array::zeros(&[0], dev).unwrap()).unwrap();
    assert_array_equal(&p, &fx::<T, B>(dev, "pl"));
}

fn place_every_dtype<B: ArrayBackend>(dev: &B) {
    every_dtype!(place_for, dev);
}

fn place_errors<B: ArrayBackend>(dev: &B) {
    let mask = fx::<bool, B>(dev, "pl_mask");
    let vals = fx::<i64, B>(dev, "pl_vals");
    let mut p = fx::<i64, B>(dev, "pl");
    let short = mask.slice(&s![..3]).unwrap();
    assert_eq!(
        err_msg(p.place(&short, &vals)),
        "place: mask and data must be the same size (mask shape [3, 5], array shape [4, 5])"
    );
    assert!(err_msg(p.place(&mask, &Array::zeros(&[0], dev).unwrap()))
        .starts_with("place: cannot insert from an empty array"));
    assert_array_equal(&p, &fx::<i64, B>(dev, "pl"));
    let mut b = Array::<i64, B>::zeros(&[1, 5], dev)
        .unwrap()
        .broadcast_to(&[4, 5])
        .unwrap();
    assert!(err_msg(b.place(&mask, &vals)).starts_with("place: destination"));
}

fn trim_for<T: Element, B: ArrayBackend>(dev: &B) {
    let tz = fx::<T, B>(dev, "tz");
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    eq(tz.trim_zeros(Trim::Both, Axes::All), "tz_fb");
    eq(tz.trim_zeros(Trim::Front, 0), "tz_f");
    eq(tz.trim_zeros(Trim::Back, -1), "tz_b");
    eq(
        tz.slice(&s![..;-1])
            .unwrap()
            .trim_zeros(Trim::Front, Axes::All),
        "tz_rev_f",
    );
    eq(
        tz.slice(&s![..;2]).unwrap().trim_zeros(Trim::default(), 0),
        "tz_strided_fb",
    );
    let tz2 = fx::<T, B>(dev, "tz2");
    eq(tz2.trim_zeros(Trim::Both, Axes::All), "tz2_all");
    eq(tz2.trim_zeros(Trim::Front, 1), "tz2_ax1_f");
    eq(tz2.trim_zeros(Trim::Back, 0), "tz2_ax0_b");
    eq(
        tz2.t()
            .slice(&s![..;-1])
            .unwrap()
            .trim_zeros(Trim::Both, [0, 1]),
        "tz2_T_all",
    );
    // All zeros trim to nothing along the trimmed axes; a 0-d array is returned as is.
    let z = Array::<T, B>::zeros(&[2, 3], dev).unwrap();
    assert_eq!(
        z.trim_zeros(Trim::Both, Axes::All).unwrap().shape(),
        &[0, 0]
    );
    assert_eq!(z.trim_zeros(Trim::Front, 0).unwrap().shape(), &[0, 3]);
    let e = Array::<T, B>::zeros(&[0], dev).unwrap();
    assert_eq!(e.trim_zeros(Trim::Both, Axes::All).unwrap().shape(), &[0]);
    for v in [0, 3] {
        let s = Array::<T, B>::scalar(val(v), dev).unwrap();
        assert_array_equal(&s.trim_zeros(Trim::Both, Axes::All).unwrap(), &s);
    }
}

fn trim_zeros_every_dtype<B: ArrayBackend>(dev: &B) {
    every_dtype!(trim_for, dev);
    // Signed zeros are zeros, NaN is not; a complex zero has both parts zero.
    let x = Array::<f64, B>::from_vec(vec![-0.0, f64::NAN, 0.0, -0.0], &[4], dev).unwrap();
    let t = x
        .trim_zeros(Trim::Both, Axes::All)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(t.len() == 1 && t[0].is_nan(), "{t:?}");
    let z = Array::<c64, B>::from_vec(
        vec![c64::new(0.0, 0.0), c64::new(0.0, 1.0), c64::new(-0.0, 0.0)],
        &[3],
        dev,
    )
    .unwrap();
    assert_array_equal_vec(
        &z.trim_zeros(Trim::Both, Axes::All).unwrap(),
        &[c64::new(0.0, 1.0)],
        &[1],
    );
    // Errors: an axis out of range (also on a 0-d array).
    let tz2 = fx::<i32, B>(dev, "tz2");
    assert_eq!(
        err_msg(tz2.trim_zeros(Trim::Both, 2)),
        "trim_zeros: axis 2 is out of bounds for an array of dimension 2"
    );
    let s = Array::<i32, B>::scalar(0, dev).unwrap();
    assert!(err_msg(s.trim_zeros(Trim::Both, 0)).starts_with("trim_zeros: axis 0"));
}

fn select_for<T: Element, B: ArrayBackend>(dev: &B) {
    let x = fx::<T, B>(dev, "x");
    let row = fx::<T, B>(dev, "ch_row");
    let (c1, c2) = (fx::<bool, B>(dev, "s_c1"), fx::<bool, B>(dev, "s_c2"));
    let seven = Array::<T, B>::scalar(val(7), dev).unwrap();
    assert_array_equal(
        &Array::select_by_conditions(&[&c1, &c2], &[&x, &row], &seven).unwrap(),
        &fx::<T, B>(dev, "select"),
    );
    let c2v = c2.t().slice(&s![..;-1]).unwrap();
    let col = row.reshape(&[4, 1]).unwrap();
    let one = Array::<T, B>::scalar(val(1), dev).unwrap();
    assert_array_equal(
        &Array::select_by_conditions(&[&c1.t(), &c2v], &[&x.t(), &col], &one).unwrap(),
        &fx::<T, B>(dev, "select_T"),
    );
    // A condition false everywhere gives the default, broadcast.
    let f = Array::<bool, B>::zeros(&[3, 4], dev).unwrap();
    assert_array_equal(
        &Array::select_by_conditions(&[&f], &[&x], &seven).unwrap(),
        &seven.broadcast_to(&[3, 4]).unwrap(),
    );
}

fn select_by_conditions_every_dtype<B: ArrayBackend>(dev: &B) {
    every_dtype!(select_for, dev);
    let x = fx::<i64, B>(dev, "x");
    let c1 = fx::<bool, B>(dev, "s_c1");
    let d = Array::<i64, B>::scalar(0, dev).unwrap();
    assert_eq!(
        err_msg(Array::select_by_conditions(&[], &[], &d)),
        "select_by_conditions: select with an empty condition list is not possible"
    );
    assert_eq!(
        err_msg(Array::select_by_conditions(&[&c1], &[&x, &x], &d)),
        "select_by_conditions: list of cases must be same length as list of conditions \
         (1 conditions, 2 choices)"
    );
    let c3 = Array::<bool, B>::ones(&[3], dev).unwrap();
    assert_eq!(
        err_msg(Array::select_by_conditions(&[&c3], &[&x], &d)),
        "select_by_conditions: operands could not be broadcast together with shapes [3] and \
         [3, 4]"
    );
}

/// `piecewise` with closures, for a numeric type.
fn piecewise_for<T: Numeric, B: ArrayBackend>(dev: &B) {
    let pw = fx::<T, B>(dev, "pw");
    let (c1, c2) = (fx::<bool, B>(dev, "pw_c1"), fx::<bool, B>(dev, "pw_c2"));
    let double = |v: &Array<T, B>| v.try_add(v);
    let square = |v: &Array<T, B>| v.try_mul(v);
    let eq = |got: Result<Array<T, B>>, name: &str| {
        assert_array_equal(&got.unwrap(), &fx::<T, B>(dev, name));
    };
    eq(
        pw.piecewise(&[&c1, &c2], &[Piece::Func(&double), Piece::Value(val(1))]),
        "piecewise",
    );
    eq(
        pw.piecewise(
            &[&c1, &c2],
            &[
                Piece::Func(&square),
                Piece::Value(val(1)),
                Piece::Value(val(5)),
            ],
        ),
        "piecewise_else",
    );
    let lt4 = fx::<bool, B>(dev, "pw_lt4");
    eq(
        pw.piecewise(&[&c1, &lt4], &[Piece::Value(val(3)), Piece::Func(&double)]),
        "piecewise_overlap",
    );
    let v = pw.t().slice(&s![..;-1]).unwrap();
    let cv = c2.t().slice(&s![..;-1]).unwrap();
    eq(
        v.piecewise(&[&cv], &[Piece::Func(&square), Piece::Value(val(2))]),
        "piecewise_T",
    );
    // A function returning one value; a 0-d input.
    let one = |v: &Array<T, B>| Array::scalar(val(4), v.device());
    let got = pw.piecewise(&[&c1], &[Piece::Func(&one)]).unwrap();
    assert_array_equal(
        &got,
        &Array::where_(
            &c1,
            &pw.full_like(val(4)).unwrap(),
            &pw.zeros_like().unwrap(),
        )
        .unwrap(),
    );
    let s = Array::<T, B>::scalar(val(2), dev).unwrap();
    let t = Array::<bool, B>::scalar(true, dev).unwrap();
    assert_array_equal_vec(
        &s.piecewise(&[&t], &[Piece::Func(&double)]).unwrap(),
        &[val(4)],
        &[],
    );
}

/// `piecewise` with constants, for any type (bool included).
fn piecewise_const_for<T: Element, B: ArrayBackend>(dev: &B) {
    let pw = fx::<T, B>(dev, "pw");
    let (c1, c2) = (fx::<bool, B>(dev, "pw_c1"), fx::<bool, B>(dev, "pw_c2"));
    assert_array_equal(
        &pw.piecewise(&[&c1, &c2], &[Piece::Value(val(3)), Piece::Value(val(1))])
            .unwrap(),
        &fx::<T, B>(dev, "piecewise_const"),
    );
    // No conditions and one piece: the "otherwise" piece holds everywhere.
    assert_array_equal(
        &pw.piecewise(&[], &[Piece::Value(val(1))]).unwrap(),
        &pw.full_like(val(1)).unwrap(),
    );
}

fn piecewise_every_dtype<B: ArrayBackend>(dev: &B) {
    piecewise_for::<f64, B>(dev);
    piecewise_for::<f32, B>(dev);
    piecewise_for::<f16, B>(dev);
    piecewise_for::<i64, B>(dev);
    piecewise_for::<i32, B>(dev);
    piecewise_for::<u8, B>(dev);
    piecewise_for::<u64, B>(dev);
    piecewise_for::<c64, B>(dev);
    piecewise_for::<c128, B>(dev);
    every_dtype!(piecewise_const_for, dev);
}

fn piecewise_errors<B: ArrayBackend>(dev: &B) {
    let pw = fx::<f64, B>(dev, "pw");
    let (c1, c2) = (fx::<bool, B>(dev, "pw_c1"), fx::<bool, B>(dev, "pw_c2"));
    assert_eq!(
        err_msg(pw.piecewise(&[&c1, &c2], &[Piece::Value(1.0)])),
        "piecewise: with 2 condition(s), either 2 or 3 functions are expected, got 1"
    );
    let short = c1.slice(&s![.., ..2]).unwrap();
    assert_eq!(
        err_msg(pw.piecewise(&[&short], &[Piece::Value(1.0)])),
        "piecewise: shape mismatch: [3, 5] vs [3, 2]"
    );
    // A function returning the wrong number of values, or failing.
    let two = |v: &Array<f64, B>| Array::zeros(&[2], v.device());
    let n = c1.count_nonzero().unwrap().item().unwrap();
    assert!(n > 2, "the fixture selects more than two elements");
    assert!(err_msg(pw.piecewise(&[&c1], &[Piece::Func(&two)])).starts_with("piecewise: "));
    let fail = |v: &Array<f64, B>| v.reshape(&[-1, 7]);
    assert!(err_msg(pw.piecewise(&[&c1], &[Piece::Func(&fail)])).starts_with("reshape"));
    // ... which is never called on an empty selection.
    let none = Array::<bool, B>::zeros(&[3, 5], dev).unwrap();
    assert_array_equal(
        &pw.piecewise(&[&none], &[Piece::Func(&fail)]).unwrap(),
        &pw.zeros_like().unwrap(),
    );
}

cuprite::test_backends!(
    choose_every_dtype,
    choose_errors,
    compress_extract_every_dtype,
    compress_extract_errors,
    place_every_dtype,
    place_errors,
    trim_zeros_every_dtype,
    select_by_conditions_every_dtype,
    piecewise_every_dtype,
    piecewise_errors
);
