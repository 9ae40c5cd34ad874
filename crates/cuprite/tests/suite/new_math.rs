//! `logaddexp`, `logaddexp2`, `signbit`, `deg2rad`/`radians`, `rad2deg`/`degrees`,
//! `heaviside`, `nextafter` and the NaN statistics `nanprod`, `nanvar`, `nanstd`,
//! `nanargmin`, `nanargmax` on every backend, against NumPy fixtures
//! (`scripts/fixtures/new_math.py`).
//!
//! Float inputs and element-wise results are stored as bit patterns, so the exact functions
//! (signbit, the angle conversions, heaviside, nextafter) are compared bit for bit (any NaN
//! equal to any NaN); `logaddexp`/`logaddexp2` go through `exp`/`log1p` of the platform's
//! libm and are compared within 4 ULP. Reductions: exact for integers, `2e-5` (f32, c64) and
//! `1e-12` (f64, c128) relative otherwise (summation order differs from NumPy's pairwise sum).

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;

const TOPIC: &str = "new_math";

/// f32 and f64 from and to the integer bit patterns of the fixtures.
trait Bits: Float {
    fn from_bits_i64(b: i64) -> Self;
    fn ulp_tol() -> f64;
}
impl Bits for f64 {
    fn from_bits_i64(b: i64) -> Self {
        f64::from_bits(b as u64)
    }
    fn ulp_tol() -> f64 {
        4.0 * f64::EPSILON
    }
}
impl Bits for f32 {
    fn from_bits_i64(b: i64) -> Self {
        f32::from_bits(b as i32 as u32)
    }
    fn ulp_tol() -> f64 {
        4.0 * f32::EPSILON as f64
    }
}

/// Fixture case `name` (bit patterns) as floats, with its shape.
fn floats<T: Bits>(name: &str) -> (Vec<T>, Vec<usize>) {
    let (b, shape) = fixture_vec::<i64>(TOPIC, name);
    (b.into_iter().map(T::from_bits_i64).collect(), shape)
}

/// Compares with fixture `name` (bit patterns): bit for bit when `exact`, else within
/// [`Bits::ulp_tol`]; NaN matches NaN.
#[track_caller]
fn check_bits<T: Bits, B: ArrayBackend>(got: Result<Array<T, B>>, name: &str, exact: bool) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = floats::<T>(name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    for (i, (g, w)) in got.to_vec().unwrap().iter().zip(&want).enumerate() {
        let (gf, wf) = (g.to_f64().unwrap(), w.to_f64().unwrap());
        let ok = (gf.is_nan() && wf.is_nan())
            || (if exact {
                g.to_f64().map(f64::to_bits) == w.to_f64().map(f64::to_bits)
            } else {
                gf == wf || (gf - wf).abs() <= T::ulp_tol() * gf.abs().max(wf.abs())
            });
        assert!(ok, "{name}: at flat index {i}: got {g:?}, NumPy {w:?}");
    }
}

fn float_elementwise<T: Bits, B: ArrayBackend>(dev: &B, tag: &str) {
    let (x, _) = floats::<T>(&format!("bits/{tag}/x"));
    let n = x.len();
    let a = Array::<T, B>::from_vec(x.clone(), &[n], dev).unwrap();
    let col = a.reshape(&[n as isize, 1]).unwrap();
    let row = a.reshape(&[1, n as isize]).unwrap();
    let name = |op: &str| format!("bits/{tag}/{op}");
    check_bits(col.logaddexp(&row), &name("logaddexp"), false);
    check_bits(col.logaddexp2(&row), &name("logaddexp2"), false);
    check_bits(col.heaviside(&row), &name("heaviside"), true);
    check_bits(col.nextafter(&row), &name("nextafter"), true);
    check_bits(a.deg2rad(), &name("deg2rad"), true);
    check_bits(a.radians(), &name("radians"), true);
    check_bits(a.rad2deg(), &name("rad2deg"), true);
    check_bits(a.degrees(), &name("degrees"), true);
    let (want, _) = fixture_vec::<bool>(TOPIC, &format!("{tag}/signbit"));
    assert_eq!(
        a.signbit().unwrap().to_vec().unwrap(),
        want,
        "{tag}/signbit"
    );
    // A reversed view against a contiguous one.
    let (av, _) = floats::<T>(&name("a"));
    let (bv, _) = floats::<T>(&name("b"));
    let m = av.len();
    let av = Array::<T, B>::from_vec(av, &[m], dev).unwrap();
    let bv = Array::<T, B>::from_vec(bv, &[m], dev).unwrap();
    let rev = av.slice(&s![..;-1]).unwrap();
    check_bits(rev.logaddexp(&bv), &name("logaddexp_rev"), false);
    check_bits(rev.logaddexp2(&bv), &name("logaddexp2_rev"), false);
}

fn float64_elementwise<B: ArrayBackend>(dev: &B) {
    float_elementwise::<f64, B>(dev, "f64");
}

fn float32_elementwise<B: ArrayBackend>(dev: &B) {
    float_elementwise::<f32, B>(dev, "f32");
}

fn signbit_of_integers<B: ArrayBackend>(dev: &B) {
    fn one<T: Real, B: ArrayBackend>(dev: &B, tag: &str) {
        let x = fixture::<T, B>(dev, TOPIC, &format!("{tag}/x"));
        let (want, _) = fixture_vec::<bool>(TOPIC, &format!("{tag}/signbit"));
        assert_eq!(
            x.signbit().unwrap().to_vec().unwrap(),
            want,
            "{tag}/signbit"
        );
        // Strided: every other element, backwards.
        let v = x.slice(&s![..;-2]).unwrap();
        let w: Vec<bool> = want.iter().rev().step_by(2).copied().collect();
        assert_eq!(
            v.signbit().unwrap().to_vec().unwrap(),
            w,
            "{tag}/signbit strided"
        );
    }
    one::<i32, B>(dev, "i32");
    one::<i64, B>(dev, "i64");
    one::<u8, B>(dev, "u8");
}

/// Relative tolerance of a reduction result of type `U`.
fn rtol<U: Element>() -> f64 {
    match U::DTYPE {
        DType::F32 | DType::C64 => 2e-5,
        DType::F64 | DType::C128 => 1e-12,
        _ => 0.0,
    }
}

#[track_caller]
fn chk<U: Element, B: ArrayBackend>(got: Result<Array<U, B>>, name: &str) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<U>(TOPIC, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    let v = got.to_vec().unwrap();
    if let Err(m) = check_allclose_slices(&v, &want, &shape, rtol::<U>(), 0.0) {
        panic!("{name}: {m}");
    }
}

const AXES: [(&str, Option<&[isize]>); 5] = [
    ("all", None),
    ("0", Some(&[0])),
    ("2", Some(&[2])),
    ("02", Some(&[0, 2])),
    ("1", Some(&[1])),
];

fn axes(a: Option<&[isize]>) -> Axes {
    a.map_or(Axes::All, |v| v.to_vec().into())
}

fn nan_stats<T: Element, B: ArrayBackend>(dev: &B, tag: &str) {
    let x = fixture::<T, B>(dev, TOPIC, &format!("red/{tag}/x"));
    let xa = fixture::<T, B>(dev, TOPIC, &format!("red/{tag}/xa"));
    let v = x
        .slice(&s![.., ..;-2, 1..])
        .unwrap()
        .permute_dims(&[2, 0, 1])
        .unwrap();
    assert!(!v.is_contiguous());
    for (src, a) in [("x", &x), ("xa", &xa), ("v", &v)] {
        for (an, ax) in AXES {
            for keep in [false, true] {
                let k = if keep { "/k" } else { "" };
                let p = format!("red/{tag}/nanprod/{src}/{an}{k}");
                chk(a.nanprod_axes(axes(ax), keep), &p);
                for ddof in [0, 1] {
                    let p = format!("red/{tag}/nanvar/{src}/{an}{k}/{ddof}");
                    chk(a.nanvar_axes(axes(ax), ddof as f64, keep), &p);
                }
                let p = format!("red/{tag}/nanstd/{src}/{an}{k}/1");
                chk(a.nanstd_axes(axes(ax), 1.0, keep), &p);
            }
        }
        if src == "xa" {
            continue;
        }
        chk(a.nanargmin(), &format!("red/{tag}/nanargmin/{src}/all"));
        chk(a.nanargmax(), &format!("red/{tag}/nanargmax/{src}/all"));
        for axis in 0..3isize {
            for keep in [false, true] {
                let k = if keep { "/k" } else { "" };
                let p = format!("red/{tag}/nanargmin/{src}/{axis}{k}");
                chk(a.nanargmin_axis(axis, keep), &p);
                let p = format!("red/{tag}/nanargmax/{src}/{axis}{k}");
                chk(a.nanargmax_axis(axis, keep), &p);
            }
        }
    }
    // Too few degrees of freedom give NaN; a negative ddof adds degrees.
    chk(
        x.nanvar_axes(2, 5.0, false),
        &format!("red/{tag}/nanvar/x/2/5"),
    );
    chk(
        x.nanvar_axes(2, -1.5, false),
        &format!("red/{tag}/nanvar/x/2/-1.5"),
    );
    // Empty and 0-d inputs.
    let e = Array::<T, B>::zeros(&[0, 3], dev).unwrap();
    chk(
        e.nanvar_axes(0, 0.0, false),
        &format!("red/{tag}/nanvar/empty/0"),
    );
    chk(
        e.nanvar_axes(1, 0.0, false),
        &format!("red/{tag}/nanvar/empty/1"),
    );
    chk(e.nanprod(), &format!("red/{tag}/nanprod/empty/all"));
    chk(
        e.nanprod_axes(1, false),
        &format!("red/{tag}/nanprod/empty/1"),
    );
    let z = fixture::<T, B>(dev, TOPIC, &format!("red/{tag}/z"));
    assert_eq!(z.ndim(), 0);
    chk(z.nanvar(0.0), &format!("red/{tag}/nanvar/z"));
    chk(z.nanprod(), &format!("red/{tag}/nanprod/z"));
    chk(z.nanargmax(), &format!("red/{tag}/nanargmax/z"));
    // Errors name the op: empty input, all-NaN lanes (floats and complex only).
    let err = e.nanargmin().unwrap_err().to_string();
    assert!(err.contains("nanargmin") && err.contains("empty"), "{err}");
    let err = e.nanargmax_axis(0, false).unwrap_err().to_string();
    assert!(err.contains("nanargmax") && err.contains("[0, 3]"), "{err}");
    assert!(x.nanargmin_axis(3, false).is_err());
    if T::DTYPE.is_float() || T::DTYPE.is_complex() {
        let err = xa.nanargmin_axis(1, false).unwrap_err().to_string();
        assert!(
            err.contains("nanargmin") && err.contains("All-NaN slice encountered"),
            "{err}"
        );
        let err = xa.nanargmax_axis(-2, true).unwrap_err().to_string();
        assert!(
            err.contains("nanargmax") && err.contains("[4, 6, 5]"),
            "{err}"
        );
        // Other axes of the same array have a non-NaN element in every lane.
        assert!(xa.nanargmin_axis(0, false).is_ok());
        let nan = T::from_scalar(cuprite::Scalar::F64(f64::NAN));
        let all = Array::<T, B>::full(&[2, 2], nan, dev).unwrap();
        assert!(all.nanargmax().is_err());
    } else {
        assert!(xa.nanargmin_axis(1, false).is_ok());
    }
}

fn nan_stats_bool<B: ArrayBackend>(dev: &B) {
    nan_stats::<bool, B>(dev, "bool");
}
fn nan_stats_u8<B: ArrayBackend>(dev: &B) {
    nan_stats::<u8, B>(dev, "u8");
}
fn nan_stats_i32<B: ArrayBackend>(dev: &B) {
    nan_stats::<i32, B>(dev, "i32");
}
fn nan_stats_i64<B: ArrayBackend>(dev: &B) {
    nan_stats::<i64, B>(dev, "i64");
}
fn nan_stats_f32<B: ArrayBackend>(dev: &B) {
    nan_stats::<f32, B>(dev, "f32");
}
fn nan_stats_f64<B: ArrayBackend>(dev: &B) {
    nan_stats::<f64, B>(dev, "f64");
}
fn nan_stats_c64<B: ArrayBackend>(dev: &B) {
    nan_stats::<c64, B>(dev, "c64");
}
fn nan_stats_c128<B: ArrayBackend>(dev: &B) {
    nan_stats::<c128, B>(dev, "c128");
}

/// Analytic identities on larger inputs (the parallel paths): `nanvar` of data with NaN
/// spliced in equals `var` of the data without it; `nanprod` of ones and NaN is one;
/// `deg2rad(rad2deg(x))` is within an ULP of `x`; `logaddexp(x, x) == x + ln 2`.
fn identities_on_large_inputs<B: ArrayBackend>(dev: &B) {
    let n = 100_000usize;
    let clean: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 / 100.0).collect();
    let mut dirty = Vec::with_capacity(n + n / 10);
    for (i, &v) in clean.iter().enumerate() {
        dirty.push(v);
        if i % 10 == 0 {
            dirty.push(f64::NAN);
        }
    }
    let c = Array::<f64, B>::from_vec(clean, &[n], dev).unwrap();
    let d = Array::<f64, B>::from_vec(dirty.clone(), &[dirty.len()], dev).unwrap();
    let (want, got) = (
        c.var(1.0).unwrap().item().unwrap(),
        d.nanvar(1.0).unwrap().item().unwrap(),
    );
    assert!((want - got).abs() <= 1e-12 * want, "{want} vs {got}");
    let ones: Vec<f32> = (0..n)
        .map(|i| if i % 3 == 0 { f32::NAN } else { 1.0 })
        .collect();
    let o = Array::<f32, B>::from_vec(ones, &[1000, 100], dev).unwrap();
    assert_eq!(o.nanprod().unwrap().item().unwrap(), 1.0);
    let cols = o.nanprod_axes(0, false).unwrap().to_vec().unwrap();
    assert!(cols.iter().all(|&v| v == 1.0));
    let back = c.rad2deg().unwrap().deg2rad().unwrap().to_vec().unwrap();
    let orig = c.to_vec().unwrap();
    assert!(back
        .iter()
        .zip(&orig)
        .all(|(b, o)| (b - o).abs() <= 2.0 * f64::EPSILON * o.abs()));
    let l = c.logaddexp(&c).unwrap().to_vec().unwrap();
    assert!(l
        .iter()
        .zip(&orig)
        .all(|(l, o)| *l == o + std::f64::consts::LN_2));
    assert_eq!(d.nanargmax().unwrap().item().unwrap(), {
        let first_max = orig.iter().cloned().fold(f64::MIN, f64::max);
        let i = orig.iter().position(|&v| v == first_max).unwrap();
        (i + i.div_ceil(10)) as i64
    });
}

cuprite::test_backends!(
    float64_elementwise,
    float32_elementwise,
    signbit_of_integers,
    nan_stats_bool,
    nan_stats_u8,
    nan_stats_i32,
    nan_stats_i64,
    nan_stats_f32,
    nan_stats_f64,
    nan_stats_c64,
    nan_stats_c128,
    identities_on_large_inputs,
);
