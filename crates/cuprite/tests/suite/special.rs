//! The special functions at their edges and the compositions of
//! `crates/core/src/array/special.rs` (`divmod`, `modf`, `frexp`, `ldexp`, `iscomplex`, `isreal`,
//! `real_if_close`, `logsumexp`, `softmax`, `log_softmax`) on every backend, against
//! scipy/NumPy fixtures (`scripts/fixtures/special.py`) and exact values.
//!
//! The registry's `declared_ops` (elementwise.rs) already compares every declared op on the
//! generic inputs; here the inputs are the points where the functions are special: zeros of
//! either sign, infinities, NaN, gamma's poles and overflow, `±1` and their neighbours for
//! `erfinv`, `0`, `2` and subnormals for `erfcinv`, beta's non-positive integers. Tolerances
//! are elementwise.rs's: `1e-13` (f64) and `2e-6` (f32) relative, the smallest normal number
//! absolute; the sign of a zero result must match; exact results use 0.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;
use cuprite::Scalar;

const TOPIC: &str = "special";

fn fx<T: Element, B: ArrayBackend>(dev: &B, name: &str) -> Array<T, B> {
    fixture(dev, TOPIC, name)
}

/// The relative tolerance of approximate results of `T`.
fn rtol<T: Element>() -> f64 {
    if T::DTYPE == DType::F64 {
        1e-13
    } else {
        2e-6
    }
}

/// Compares with fixture `name` within `rtol` (absolute: the smallest normal number when
/// `rtol > 0`), NaN equal to NaN, zeros' signs told apart.
#[track_caller]
fn check<T: Element, B: ArrayBackend>(got: Result<Array<T, B>>, name: &str, rtol: f64) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<T>(TOPIC, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    let g = got.to_vec().unwrap();
    let atol = match T::DTYPE {
        DType::F32 if rtol > 0.0 => f32::MIN_POSITIVE as f64,
        DType::F64 if rtol > 0.0 => f64::MIN_POSITIVE,
        _ => 0.0,
    };
    if let Err(m) = check_allclose_slices(&g, &want, &shape, rtol, atol) {
        panic!("{name}: {m}");
    }
    for (i, (a, b)) in g.iter().zip(&want).enumerate() {
        let (a, b) = (a.to_scalar(), b.to_scalar());
        let sign = |s: Scalar| match s {
            Scalar::F32(v) if v == 0.0 => Some(v.is_sign_negative()),
            Scalar::F64(v) if v == 0.0 => Some(v.is_sign_negative()),
            _ => None,
        };
        if let (Some(x), Some(y)) = (sign(a), sign(b)) {
            assert_eq!(x, y, "{name}: sign of zero at {i}: {a:?} vs {b:?}");
        }
    }
}

type Un<T, B> = fn(&Array<T, B>) -> Result<Array<T, B>>;
type Bin<T, B> = fn(&Array<T, B>, &Array<T, B>) -> Result<Array<T, B>>;

fn edges<T: Float, B: ArrayBackend>(dev: &B, tag: &str) {
    let x = fx::<T, B>(dev, &format!("{tag}/edges"));
    let unary: [(&str, Un<T, B>); 11] = [
        ("erf", |x| x.erf()),
        ("erfc", |x| x.erfc()),
        ("erfinv", |x| x.erfinv()),
        ("erfcinv", |x| x.erfcinv()),
        ("gamma", |x| x.gamma()),
        ("gammaln", |x| x.gammaln()),
        ("digamma", |x| x.digamma()),
        ("expit", |x| x.expit()),
        ("logit", |x| x.logit()),
        ("log_expit", |x| x.log_expit()),
        ("entr", |x| x.entr()),
    ];
    for (name, f) in unary {
        check(f(&x), &format!("{tag}/{name}"), rtol::<T>());
    }
    let a = fx::<T, B>(dev, &format!("{tag}/pa"));
    let b = fx::<T, B>(dev, &format!("{tag}/pb"));
    let binary: [(&str, Bin<T, B>); 4] = [
        ("xlogy", |a, b| a.xlogy(b)),
        ("xlog1py", |a, b| a.xlog1py(b)),
        ("beta", |a, b| a.beta(b)),
        ("betaln", |a, b| a.betaln(b)),
    ];
    for (name, f) in binary {
        // Beyond gamma's range beta is the exponential of a difference of lgammas of
        // magnitude ~1e3: the few ulps of those the GPU's lgamma is allowed (CUDA: 4) are
        // ~1e-13 absolute in the exponent, so relative in the result.
        let tol = if name == "beta" { 10.0 } else { 1.0 } * rtol::<T>();
        check(f(&a, &b), &format!("{tag}/{name}_pairs"), tol);
    }
    // Two-result ufuncs.
    let (frac, int) = x.modf().unwrap();
    check(Ok(frac), &format!("{tag}/modf_frac"), 0.0);
    check(Ok(int), &format!("{tag}/modf_int"), 0.0);
    let (m, e) = x.frexp().unwrap();
    check(Ok(m), &format!("{tag}/frexp_m"), 0.0);
    check(Ok(e), &format!("{tag}/frexp_e"), 0.0);
    // ldexp: the edges as a column times 2^n for a row of i64 exponents; the same through
    // i32 exponents and a transposed, negatively strided view.
    let n = fx::<i64, B>(dev, &format!("{tag}/ldexp_n"));
    let col = x.reshape(&[-1, 1]).unwrap();
    check(col.ldexp(&n), &format!("{tag}/ldexp"), 0.0);
    let n32 = n
        .clip(i32::MIN as i64, i32::MAX as i64)
        .unwrap()
        .astype::<i32>()
        .unwrap();
    let view = n32.reshape(&[-1, 1]).unwrap().flip(0).unwrap().transpose();
    let want = col.ldexp(&n).unwrap().flip(1).unwrap();
    let got = col.ldexp(&view).unwrap();
    assert_eq!(
        bits(&got),
        bits(&want),
        "{tag}: ldexp by a transposed, flipped view"
    );
    let eight = Array::<u8, B>::from_vec(vec![3], &[], dev).unwrap();
    let times8 = x.ldexp(&eight).unwrap();
    assert_eq!(
        bits(&times8),
        bits(&x.scalar_op(cuprite::ops::Mul, T::from_f64(8.0)).unwrap())
    );
    let da = fx::<T, B>(dev, &format!("{tag}/da"));
    let db = fx::<T, B>(dev, &format!("{tag}/db"));
    let (q, r) = da.divmod(&db).unwrap();
    check(Ok(q), &format!("{tag}/divmod_q"), 0.0);
    check(Ok(r), &format!("{tag}/divmod_r"), 0.0);
}

/// The bits of every element (every NaN the same), for exact comparisons that tell zeros'
/// signs apart.
fn bits<T: Float, B: ArrayBackend>(a: &Array<T, B>) -> Vec<u64> {
    let v = a.to_vec().unwrap();
    let one = |x: f64| if x.is_nan() { u64::MAX } else { x.to_bits() };
    v.iter().map(|x| one(x.to_f64_lossy())).collect()
}

fn special_edges_f64<B: ArrayBackend>(dev: &B) {
    edges::<f64, B>(dev, "f64");
}

fn special_edges_f32<B: ArrayBackend>(dev: &B) {
    edges::<f32, B>(dev, "f32");
}

/// The 16-bit floats compute in f32 and round once: the f32 results rounded.
fn special_halfs<B: ArrayBackend>(dev: &B) {
    let x = fx::<f32, B>(dev, "f32/edges");
    let h = x.astype::<f16>().unwrap();
    let back = h.astype::<f32>().unwrap();
    let pairs: [(Un<f32, B>, Un<f16, B>); 4] = [
        (|x| x.erf(), |x| x.erf()),
        (|x| x.gammaln(), |x| x.gammaln()),
        (|x| x.digamma(), |x| x.digamma()),
        (|x| x.erfinv(), |x| x.erfinv()),
    ];
    for (f32_fn, half_fn) in pairs {
        let want = f32_fn(&back)
            .unwrap()
            .astype::<f16>()
            .unwrap()
            .to_vec()
            .unwrap();
        let got = half_fn(&h).unwrap().to_vec().unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                "f16 at {i}: {g} vs {w}"
            );
        }
    }
    // ldexp of float16: NumPy's loop computes in float32 and rounds once; bf16 the same way
    // (the f32 results rounded).
    let hx = fx::<f16, B>(dev, "f16/ldexp_x");
    let hn = fx::<i64, B>(dev, "f16/ldexp_n");
    check(hx.ldexp(&hn), "f16/ldexp", 0.0);
    let bx = hx.astype::<f32>().unwrap().astype::<bf16>().unwrap();
    let bn = Array::<i64, B>::from_vec(vec![0, 1, -133, -134, 127, 128, 300, -300], &[1, 8], dev)
        .unwrap();
    let want = bx
        .astype::<f32>()
        .unwrap()
        .ldexp(&bn)
        .unwrap()
        .astype::<bf16>()
        .unwrap()
        .to_vec()
        .unwrap();
    let got = bx.ldexp(&bn).unwrap().to_vec().unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "bf16 ldexp at {i}: {g} vs {w}"
        );
    }
    // spacing steps in the type's own bits.
    let one = Array::<bf16, B>::from_vec(vec![bf16::from_f32(1.0)], &[1], dev).unwrap();
    let s = one.spacing().unwrap().to_vec().unwrap();
    assert_eq!(s[0].to_f32(), 2f32.powi(-7));
}

fn shifted_reductions<T: Float, B: ArrayBackend>(dev: &B, tag: &str) {
    let m = fx::<T, B>(dev, &format!("{tag}/m"));
    let mf = fx::<T, B>(dev, &format!("{tag}/mf"));
    let r = rtol::<T>();
    check(m.logsumexp(1, false), &format!("{tag}/logsumexp_1"), r);
    check(m.logsumexp(-1, false), &format!("{tag}/logsumexp_1"), r);
    check(m.logsumexp(0, true), &format!("{tag}/logsumexp_0_keep"), r);
    check(
        m.logsumexp(Axes::All, false),
        &format!("{tag}/logsumexp_all"),
        r,
    );
    check(
        mf.logsumexp([0, 1], false),
        &format!("{tag}/logsumexp_mf_01"),
        r,
    );
    // Weights (scipy's b=): per column, broadcast; per element with a negative and a
    // zero lane sum; a strided (reversed) weight view gives the reversed weights' answer.
    let wb = fx::<T, B>(dev, &format!("{tag}/wb"));
    let wm = fx::<T, B>(dev, &format!("{tag}/wm"));
    check(
        m.logsumexp_b(1, false, &wb),
        &format!("{tag}/logsumexp_b_1"),
        r,
    );
    check(
        mf.logsumexp_b(1, false, &wm),
        &format!("{tag}/logsumexp_b_mf_1"),
        r,
    );
    let wc = fx::<T, B>(dev, &format!("{tag}/wc"));
    check(
        mf.logsumexp_b(0, true, &wc),
        &format!("{tag}/logsumexp_b_mf_0_keep"),
        r,
    );
    let rev = |a: &Array<T, B>| a.slice(&s![..;-1]).unwrap();
    let both = m
        .slice(&s![.., ..;-1])
        .unwrap()
        .logsumexp_b(1, false, &rev(&wb));
    check(both, &format!("{tag}/logsumexp_b_1"), r);
    let bad = Array::<T, B>::zeros(&[4], dev).unwrap();
    let err = m.logsumexp_b(1, false, &bad).unwrap_err().to_string();
    assert!(err.contains("logsumexp") && err.contains("[6, 5]"), "{err}");
    check(m.softmax(1), &format!("{tag}/softmax_1"), r);
    check(mf.softmax(0), &format!("{tag}/softmax_mf_0"), r);
    // x - logsumexp(x) cancels where x is near the lane's logsumexp: an ulp of the
    // logsumexp (the GPU's exp/log differ from the host's by ulps) is then several ulps of
    // the result.
    check(m.log_softmax(1), &format!("{tag}/log_softmax_1"), 5.0 * r);
    check(
        mf.log_softmax(Axes::All),
        &format!("{tag}/log_softmax_mf_all"),
        r,
    );
    // Through a transposed view: the same lanes.
    check(m.t().logsumexp(0, false), &format!("{tag}/logsumexp_1"), r);
    // Empty lanes: the sum of no terms.
    let e = Array::<T, B>::zeros(&[0, 3], dev).unwrap();
    let l = e.logsumexp(0, false).unwrap();
    assert_eq!(l.shape(), &[3]);
    assert!(l
        .to_vec()
        .unwrap()
        .iter()
        .all(|v| v.to_f64_lossy() == f64::NEG_INFINITY));
    assert_eq!(e.softmax(0).unwrap().shape(), &[0, 3]);
    assert_eq!(e.log_softmax(1).unwrap().shape(), &[0, 3]);
    assert_eq!(e.logsumexp(1, true).unwrap().shape(), &[0, 1]);
}

fn shifted_reductions_f64<B: ArrayBackend>(dev: &B) {
    shifted_reductions::<f64, B>(dev, "f64");
}

fn shifted_reductions_f32<B: ArrayBackend>(dev: &B) {
    shifted_reductions::<f32, B>(dev, "f32");
}

fn integer_divmod_and_complex_parts<B: ArrayBackend>(dev: &B) {
    let a = fx::<i32, B>(dev, "i32/da");
    let b = fx::<i32, B>(dev, "i32/db");
    let (q, r) = a.divmod(&b).unwrap();
    check(Ok(q), "i32/divmod_q", 0.0);
    check(Ok(r), "i32/divmod_r", 0.0);
    let z = fx::<c128, B>(dev, "c128/z");
    check(z.iscomplex(), "c128/iscomplex", 0.0);
    check(z.isreal(), "c128/isreal", 0.0);
    // In c64 the imaginary part 1e-300 underflows to zero: real there.
    let zc = z.astype::<c64>().unwrap();
    let mut want = fixture_vec::<bool>(TOPIC, "c128/iscomplex").0;
    want[2] = false;
    assert_eq!(zc.iscomplex().unwrap().to_vec().unwrap(), want);
    let x = Array::<f32, B>::from_vec(vec![f32::NAN, 1.0], &[2], dev).unwrap();
    assert_eq!(x.iscomplex().unwrap().to_vec().unwrap(), vec![false, false]);
    assert_eq!(x.isreal().unwrap().to_vec().unwrap(), vec![true, true]);
    let w = Array::<c64, B>::from_vec(vec![c64::new(1.0, 1e-6), c64::new(-2.0, 0.0)], &[2], dev)
        .unwrap();
    // 100 epsilons of f32 is 1.19e-5: 1e-6 is close; an absolute 1e-7 is not.
    let re = w.real_if_close(100.0).unwrap().expect("close");
    assert_eq!(re.to_vec().unwrap(), vec![1.0f32, -2.0]);
    assert!(w.real_if_close(1e-7).unwrap().is_none());
    let msg = w.real_if_close(f64::NAN).unwrap_err().to_string();
    assert!(msg.starts_with("real_if_close: tol must be"), "{msg}");
}

fn errors_name_the_op<B: ArrayBackend>(dev: &B) {
    let x = Array::<f64, B>::zeros(&[2, 3], dev).unwrap();
    let y = Array::<f64, B>::zeros(&[4], dev).unwrap();
    let msg = |e: Error| e.to_string();
    let tail = "operands could not be broadcast together with shapes [2, 3] and [4]";
    assert_eq!(msg(x.beta(&y).unwrap_err()), format!("beta: {tail}"));
    assert_eq!(msg(x.xlogy(&y).unwrap_err()), format!("xlogy: {tail}"));
    assert_eq!(
        msg(x.divmod(&y).unwrap_err()),
        format!("floor_divide: {tail}")
    );
    let n = Array::<i32, B>::zeros(&[4], dev).unwrap();
    assert_eq!(msg(x.ldexp(&n).unwrap_err()), format!("ldexp: {tail}"));
    let i = Array::<i64, B>::zeros(&[3], dev).unwrap();
    let j = Array::<i64, B>::zeros(&[2], dev).unwrap();
    assert!(msg(i.gcd(&j).unwrap_err()).starts_with("gcd: operands could not"));
    for e in [
        x.logsumexp(2, false).unwrap_err(),
        x.softmax(-3).unwrap_err(),
        x.log_softmax([0, 0]).unwrap_err(),
    ] {
        let m = msg(e);
        assert!(
            m.starts_with("logsumexp:")
                || m.starts_with("softmax:")
                || m.starts_with("log_softmax:"),
            "{m}"
        );
    }
    assert!(msg(x.logsumexp(2, false).unwrap_err()).contains("axis 2 is out of bounds"));
}

cuprite::test_backends!(
    special_edges_f64,
    special_edges_f32,
    special_halfs,
    shifted_reductions_f64,
    shifted_reductions_f32,
    integer_divmod_and_complex_parts,
    errors_name_the_op,
);
