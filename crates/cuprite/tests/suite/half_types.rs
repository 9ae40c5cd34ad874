//! The 16-bit floats f16 and bf16 on every backend, against NumPy fixtures
//! (`scripts/fixtures/halfs.py`: NumPy's own float16 results, bfloat16 ones computed in
//! float32 and rounded with ml_dtypes): arithmetic and NumPy's division rules, comparisons,
//! `nextafter` in the type's own bits, rounding, casts from and to every type (ties,
//! overflow to infinity, subnormals, bfloat16's rounding through float32, saturating casts
//! to integers), reductions summed in f32, `cumsum` rounded at every step, NaN-aware
//! `min`/`max`/`argmin`/`argmax`, stable sorts with NaN last, matrix products, the promotion
//! rules, printing as NumPy prints, and the refusals of linear algebra and FFTs.
//!
//! Comparisons are bit for bit (any NaN equal to any NaN), except: transcendental functions
//! within one half-ULP (libms differ), sums, means, products and var/std within a few
//! (the backend's summation order is not NumPy's), and -0.0 equal to 0.0 where IEEE leaves
//! the zero's sign open (`maximum`/`minimum` of two zeros, sorted zeros).

use crate::common;

use common::{fixture, fixture_path, fixture_vec};
use cuprite::fft::{ihfft, rfft, rfftn, Norm};
use cuprite::prelude::*;
use cuprite::result_type;
use serde_json::Value;

const TOPIC: &str = "halfs";

/// A 16-bit float: its fixture tag and its bits.
trait Half: Float + TrueDivide {
    const TAG: &'static str;
    /// The largest finite value.
    const MAX: f64;
    fn bits(self) -> u16;
}

impl Half for f16 {
    const TAG: &'static str = "f16";
    const MAX: f64 = 65504.0;
    fn bits(self) -> u16 {
        self.to_bits()
    }
}

impl Half for bf16 {
    const TAG: &'static str = "bf16";
    const MAX: f64 = 3.3895313892515355e38;
    fn bits(self) -> u16 {
        self.to_bits()
    }
}

/// How a half result is compared with the fixture.
#[derive(Clone, Copy, Debug)]
enum Tol {
    /// Bit for bit (any NaN equals any NaN).
    Bits,
    /// Equal values: -0.0 equals 0.0.
    Equal,
    /// Within this many steps of the type's ordered bit patterns (half-ULPs).
    Ulps(u32),
}
use Tol::*;

/// The place of bit pattern `b` on the ordered line of the type's values (both zeros at 0).
fn ordered(b: u16) -> i32 {
    let mag = (b & 0x7fff) as i32;
    if b & 0x8000 != 0 {
        -mag
    } else {
        mag
    }
}

fn same<T: Half>(g: T, w: T, tol: Tol) -> bool {
    if g.is_nan_value() || w.is_nan_value() {
        return g.is_nan_value() && w.is_nan_value();
    }
    match tol {
        Bits => g.bits() == w.bits(),
        Equal => g == w,
        Ulps(n) => (ordered(g.bits()) - ordered(w.bits())).unsigned_abs() <= n,
    }
}

/// Fixture name `<tag>/<what>` of the type `T`.
fn name<T: Half>(what: &str) -> String {
    format!("{}/{what}", T::TAG)
}

std::thread_local! {
    /// The mismatches found so far by the running test (each test runs on its own thread).
    static FAILS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn fail(msg: String) {
    FAILS.with(|f| f.borrow_mut().push(msg));
}

/// Panics with every mismatch the checks of `family` found, if any.
fn finish(family: &str) {
    let fails = FAILS.with(|f| std::mem::take(&mut *f.borrow_mut()));
    assert!(
        fails.is_empty(),
        "{family}: {} cases differ from NumPy:\n{}",
        fails.len(),
        fails.join("\n")
    );
}

/// Compares `got` with fixture `case` by `same`, recording the first mismatches (with their
/// row and column for a 2-d result).
fn compare<U: Element, B: ArrayBackend>(
    got: Result<Array<U, B>>,
    case: &str,
    what: &str,
    same: impl Fn(U, U) -> bool,
) {
    let got = match got {
        Ok(a) => a,
        Err(e) => return fail(format!("{case}: error {e}")),
    };
    let (want, shape) = fixture_vec::<U>(TOPIC, case);
    if got.shape() != &shape[..] {
        return fail(format!("{case}: shape {:?}, want {shape:?}", got.shape()));
    }
    let got = got.to_vec().unwrap();
    let at = |i: usize| match shape[..] {
        [_, n] => format!("[{i}] (row {}, col {})", i / n, i % n),
        _ => format!("[{i}]"),
    };
    let bad: Vec<String> = (0..want.len())
        .filter(|&i| !same(got[i], want[i]))
        .map(|i| format!("{} got {:?}, want {:?}", at(i), got[i], want[i]))
        .collect();
    if !bad.is_empty() {
        fail(format!(
            "{case} ({what}): {} of {} differ: {}",
            bad.len(),
            want.len(),
            bad[..bad.len().min(6)].join("; ")
        ));
    }
}

/// Checks a half result against fixture `case` of `T`: shape, then values by `tol`.
fn check<T: Half, B: ArrayBackend>(got: Result<Array<T, B>>, case: &str, tol: Tol) {
    compare(got, &name::<T>(case), &format!("{tol:?}"), |g, w| {
        same(g, w, tol)
    });
}

/// Checks a result of another type (bool, integers, f32, f64) against fixture `case` of
/// `T`: same values, the sign of zero included (NaN equals NaN).
fn check_exact<T: Half, U: Element, B: ArrayBackend>(got: Result<Array<U, B>>, case: &str) {
    compare(got, &name::<T>(case), "exact", |g: U, w: U| {
        (g.is_nan_value() && w.is_nan_value()) || (g == w && format!("{g:?}") == format!("{w:?}"))
    });
}

/// Fixture `what` of `T` as a half array.
fn input<T: Half, B: ArrayBackend>(dev: &B, what: &str) -> Array<T, B> {
    fixture::<T, B>(dev, TOPIC, &name::<T>(what))
}

fn halfs<T: Half, B: ArrayBackend>(v: &[f64], shape: &[usize], dev: &B) -> Array<T, B> {
    let data = v.iter().map(|&x| T::from_f64(x)).collect();
    Array::from_vec(data, shape, dev).unwrap()
}

/// Binary ops on the grid `x[:, None] op y[None, :]`, as NumPy computes them for float16.
fn binary<T: Half, B: ArrayBackend>(dev: &B) {
    let x = input::<T, B>(dev, "x");
    let y = input::<T, B>(dev, "y");
    let col = x.reshape(&[x.size() as isize, 1]).unwrap();
    let row = y.reshape(&[1, y.size() as isize]).unwrap();
    check(col.try_add(&row), "add", Bits);
    check(col.try_sub(&row), "subtract", Bits);
    check(col.try_mul(&row), "multiply", Bits);
    check(col.try_div(&row), "true_divide", Bits);
    check(col.floor_divide(&row), "floor_divide", Bits);
    check(col.remainder(&row), "remainder", Bits);
    check(col.fmod(&row), "fmod", Bits);
    check(col.maximum(&row), "maximum", Equal);
    check(col.minimum(&row), "minimum", Equal);
    check(col.nextafter(&row), "nextafter", Bits);
    check(col.power(&row), "power", Ulps(1));
    check(col.arctan2(&row), "arctan2", Ulps(1));
    check(col.hypot(&row), "hypot", Ulps(1));
    check_exact::<T, _, B>(col.lt(&row), "less");
    check_exact::<T, _, B>(col.eq(&row), "equal");
    check_exact::<T, _, B>(col.ge(&row), "greater_equal");
    // The transposed grid of views reads the same values.
    let t = row.t().try_add(&col.t()).unwrap().t();
    check(Ok(t), "add", Bits);
    finish("binary ops");
}

/// Element-wise functions of `x`, contiguous and through a reversed view.
fn unary<T: Half, B: ArrayBackend>(dev: &B) {
    let x = input::<T, B>(dev, "x");
    check(x.try_neg(), "negative", Bits);
    check(x.absolute(), "absolute", Bits);
    check(x.sign(), "sign", Bits);
    check(x.sqrt(), "sqrt", Bits);
    check(x.exp(), "exp", Ulps(1));
    check(x.log(), "log", Ulps(1));
    check(x.sin(), "sin", Ulps(1));
    check(x.cos(), "cos", Ulps(1));
    check(x.tanh(), "tanh", Ulps(1));
    check(x.floor(), "floor", Bits);
    check(x.ceil(), "ceil", Bits);
    check(x.rint(), "rint", Bits);
    check(x.round_decimals(1), "round1", Bits);
    check(x.round_decimals(-1), "round-1", Bits);
    check(x.square(), "square", Bits);
    check(x.reciprocal(), "reciprocal", Bits);
    check_exact::<T, _, B>(x.isnan(), "isnan");
    check_exact::<T, _, B>(x.isinf(), "isinf");
    check_exact::<T, _, B>(x.isfinite(), "isfinite");
    check_exact::<T, _, B>(x.signbit(), "signbit");
    let twice = x.slice(&s![..;-1]).unwrap().slice(&s![..;-1]).unwrap();
    check(twice.sqrt(), "sqrt", Bits);
    check(twice.round_decimals(1), "round1", Bits);
    finish("unary ops");
}

/// `x.astype::<$int>()` on the inputs NumPy defines, for every integer type.
macro_rules! to_ints {
    ($dev:expr, $T:ty, $B:ty; $($int:ty => $tag:literal),*) => {$(
        let xi = input::<$T, $B>($dev, concat!("astype/", $tag, "/x"));
        check_exact::<$T, _, $B>(xi.astype::<$int>(), concat!("astype/", $tag));
    )*};
}

/// Every integer type's fixture inputs cast to the half type.
macro_rules! from_ints {
    ($dev:expr, $T:ty, $B:ty; $($int:ty => $tag:literal),*) => {$(
        let v = fixture::<$int, $B>($dev, TOPIC, &name::<$T>(concat!("from/", $tag, "/x")));
        check(v.astype::<$T>(), concat!("from/", $tag), Bits);
    )*};
}

/// Half to integer beyond what NumPy defines: truncation toward zero, saturation at the
/// type's bounds, NaN to 0 (Rust's `as`, the reference here).
macro_rules! saturating {
    ($a:expr, $vals:expr; $($int:ty),*) => {$(
        let want: Vec<$int> = $vals.iter().map(|&v| v as $int).collect();
        let got = $a.astype::<$int>().unwrap().to_vec().unwrap();
        if got != want {
            fail(format!("saturating cast to {}: got {got:?}, want {want:?}", stringify!($int)));
        }
    )*};
}

/// Casts out of and into the half type.
fn casts<T: Half, B: ArrayBackend>(dev: &B) {
    let x = input::<T, B>(dev, "x");
    check_exact::<T, _, B>(x.astype::<f32>(), "astype/f32");
    check_exact::<T, _, B>(x.astype::<f64>(), "astype/f64");
    check_exact::<T, _, B>(x.astype::<bool>(), "astype/bool");
    to_ints!(dev, T, B; i8 => "i8", u8 => "u8", i16 => "i16", u16 => "u16", i32 => "i32",
             u32 => "u32", i64 => "i64", u64 => "u64");
    let f64s = fixture::<f64, B>(dev, TOPIC, &name::<T>("from_f64/x"));
    check(f64s.astype::<T>(), "from_f64", Bits);
    let f32s = fixture::<f32, B>(dev, TOPIC, &name::<T>("from_f32/x"));
    check(f32s.astype::<T>(), "from_f32", Bits);
    from_ints!(dev, T, B; i8 => "i8", u8 => "u8", i16 => "i16", u16 => "u16", i32 => "i32",
               u32 => "u32", i64 => "i64", u64 => "u64");
    let flags = Array::<bool, B>::from_vec(vec![false, true], &[2], dev).unwrap();
    check(flags.astype::<T>(), "from/bool", Bits);
    // A half cast to its own type and through f32 is unchanged.
    check(x.astype::<T>(), "x", Bits);
    check(x.astype::<f32>().unwrap().astype::<T>(), "x", Bits);

    let vals = [
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        T::MAX,
        -T::MAX,
        10240.0,
        -10240.0,
        2.5,
        -2.5,
        -0.0,
        0.75,
    ];
    let a = halfs::<T, B>(&vals, &[vals.len()], dev);
    saturating!(a, vals; i8, u8, i16, u16, i32, u32, i64, u64);
    finish("casts");
}

/// Sums, means, products, var/std (in f32, rounded once), cumulative sums (rounded at each
/// step), NaN-aware selections.
fn reductions<T: Half, B: ArrayBackend>(dev: &B) {
    let r = input::<T, B>(dev, "r");
    check(r.sum(), "sum", Ulps(2));
    check(r.sum_axes(0, false), "sum0", Ulps(2));
    check(r.sum_axes(1, false), "sum1", Ulps(2));
    check(r.mean(), "mean", Ulps(2));
    check(r.mean_axes(0, false), "mean0", Ulps(2));
    check(r.mean_axes(1, false), "mean1", Ulps(2));
    check(r.var(0.0), "var", Ulps(3));
    check(r.var_axes(1, 1.0, false), "var1", Ulps(3));
    check(r.std_axes(0, 0.0, false), "std0", Ulps(3));
    check(r.cumsum(None), "cumsum", Bits);
    let p = input::<T, B>(dev, "p");
    check(p.prod(), "prod", Ulps(2));
    check(p.prod_axes(1, false), "prod1", Ulps(2));
    let big = input::<T, B>(dev, "big");
    check(big.sum(), "big_sum", Bits);
    check(big.mean(), "big_mean", Bits);
    check(big.cumsum(None), "big_cumsum", Bits);

    let n = input::<T, B>(dev, "n");
    check(n.min(), "min", Bits);
    check(n.min_axes(0, false), "min0", Bits);
    check(n.min_axes(1, false), "min1", Bits);
    check(n.max(), "max", Bits);
    check(n.max_axes(0, false), "max0", Bits);
    check(n.max_axes(1, false), "max1", Bits);
    check_exact::<T, _, B>(n.argmin(), "argmin");
    check_exact::<T, _, B>(n.argmin_axis(0, false), "argmin0");
    check_exact::<T, _, B>(n.argmin_axis(1, false), "argmin1");
    check_exact::<T, _, B>(n.argmax(), "argmax");
    check_exact::<T, _, B>(n.argmax_axis(0, false), "argmax0");
    check_exact::<T, _, B>(n.argmax_axis(1, false), "argmax1");
    check(n.nanmax_axes(1, false), "nanmax1", Bits);
    check(n.nanmin_axes(0, false), "nanmin0", Bits);
    check(n.nansum_axes(1, false), "nansum1", Ulps(2));
    finish("reductions");
}

/// Stable sorts with NaN last and the zeros tied, `unique`.
fn sorting<T: Half, B: ArrayBackend>(dev: &B) {
    let s = input::<T, B>(dev, "s");
    check(s.sort(-1), "sort", Equal);
    check_exact::<T, _, B>(s.argsort(-1), "argsort");
    check(s.unique(), "unique", Equal);
    let m = s.reshape(&[4, 8]).unwrap();
    check(m.sort(1), "sort1", Equal);
    check_exact::<T, _, B>(m.argsort(0), "argsort0");
    // A reversed view sorts to the same values.
    check(s.slice(&s![..;-1]).unwrap().sort(-1), "sort", Equal);
    finish("sorting");
}

/// Matrix products: the f32 product rounded once.
fn products<T: Half, B: ArrayBackend>(dev: &B) {
    let (a, b) = (input::<T, B>(dev, "mm_a"), input::<T, B>(dev, "mm_b"));
    check(a.matmul(&b), "mm", Bits);
    check(a.t().copy().unwrap().t().matmul(&b), "mm", Bits);
    let (a, b) = (input::<T, B>(dev, "mmr_a"), input::<T, B>(dev, "mmr_b"));
    check(a.matmul(&b), "mmr", Ulps(1));
    finish("products");
}

/// `r` is `Err(UnsupportedDType)` whose message starts with the op `op` the user called and
/// names the dtype of `T`.
fn refused<T: Half, R>(r: Result<R>, op: &str) {
    let Err(e) = r else {
        return fail(format!("{op} of {} succeeded", T::DTYPE));
    };
    let msg = e.to_string();
    let dtype_named = msg.contains(T::DTYPE.name());
    let kind = matches!(e, Error::UnsupportedDType { dtype, .. } if dtype == T::DTYPE);
    if !(kind && dtype_named && msg.starts_with(&format!("{op}: "))) {
        fail(format!("{op}: got the error {e:?} ({msg:?})"));
    }
}

/// Linear algebra and FFTs refuse the 16-bit floats with an error naming the op and the
/// dtype.
fn refusals<T: Half, B: ArrayBackend>(dev: &B) {
    assert!(matches!(T::DTYPE.name(), "float16" | "bfloat16"));
    let a = halfs::<T, B>(&[4.0, 1.0, 1.0, 3.0], &[2, 2], dev);
    let b = halfs::<T, B>(&[1.0, 2.0], &[2], dev);
    refused::<T, _>(a.inv(), "inv");
    refused::<T, _>(a.solve(&b), "solve");
    refused::<T, _>(a.det(), "det");
    refused::<T, _>(a.cholesky(), "cholesky");
    refused::<T, _>(a.qr(QrMode::Reduced), "qr");
    refused::<T, _>(a.svd(false), "svd");
    refused::<T, _>(a.eigh(), "eigh");
    refused::<T, _>(a.pinv(None), "pinv");
    refused::<T, _>(a.lstsq(&b, None), "lstsq");
    refused::<T, _>(rfft(&b, None, -1, Norm::Backward), "rfft");
    refused::<T, _>(rfftn(&a, None, None, Norm::Backward), "rfftn");
    refused::<T, _>(ihfft(&b, None, -1, Norm::Backward), "ihfft");
    // The inputs are intact, and the same data in f32 is accepted.
    assert_eq!(
        a.astype::<f32>().unwrap().det().unwrap().item().unwrap(),
        11.0
    );
    finish("refusals");
}

/// A value of `halfs_print.json` (a number or "nan", "inf", "-inf").
fn print_value(v: &Value) -> f64 {
    match v {
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("halfs_print.json: {other:?}"),
        },
        other => other.as_f64().expect("halfs_print.json: a number"),
    }
}

fn prints<T: Half, B: ArrayBackend>(dev: &B, case: &str, v: &Value) {
    let data: Vec<f64> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(print_value)
        .collect();
    let shape: Vec<usize> = v["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    let a = halfs::<T, B>(&data, &shape, dev);
    for (which, got) in [("str", format!("{a}")), ("repr", format!("{a:?}"))] {
        let want = v[which].as_str().unwrap();
        if got != want {
            fail(format!("{which} of {case}: got {got:?}, NumPy {want:?}"));
        }
    }
}

/// `Display` and `Debug` as NumPy's `str()` and `repr()` (float16: NumPy's own strings;
/// bfloat16: NumPy's layout with the type's own shortest digits).
fn printing<B: ArrayBackend>(dev: &B) {
    let path = fixture_path("halfs_print.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Value = serde_json::from_str(&text).unwrap();
    let cases = cases.as_object().unwrap();
    assert!(cases.len() >= 20, "{} printing cases", cases.len());
    for (case, v) in cases {
        match v["dtype"].as_str().unwrap() {
            "float16" => prints::<f16, B>(dev, case, v),
            "bfloat16" => prints::<bf16, B>(dev, case, v),
            other => panic!("{case}: dtype {other}"),
        }
    }
    finish("printing");
}

/// `result_type` with float16 is NumPy's; with bfloat16 the rule of ml_dtypes and JAX:
/// bool and 8-bit integers give bfloat16, 16-bit integers float32, wider ones float64,
/// float16 with bfloat16 float32, the wider floats and the complex types themselves.
#[test]
fn promotion_with_halfs() {
    use DType::*;
    let (row, _) = fixture_vec::<i64>(TOPIC, "promote_f16");
    let numpy: Vec<DType> = DType::ALL.into_iter().filter(|&d| d != BF16).collect();
    assert_eq!(row.len(), numpy.len());
    for (&d, &w) in numpy.iter().zip(&row) {
        let want = DType::ALL[w as usize];
        assert_eq!(result_type(F16, d), want, "float16 with {d}");
        assert_eq!(result_type(d, F16), want, "{d} with float16");
    }
    let bf16_row = [
        (Bool, BF16),
        (I8, BF16),
        (U8, BF16),
        (I16, F32),
        (U16, F32),
        (I32, F64),
        (U32, F64),
        (I64, F64),
        (U64, F64),
        (F16, F32),
        (BF16, BF16),
        (F32, F32),
        (F64, F64),
        (C64, C64),
        (C128, C128),
    ];
    assert_eq!(bf16_row.len(), DType::ALL.len());
    for (d, want) in bf16_row {
        assert_eq!(result_type(BF16, d), want, "bfloat16 with {d}");
        assert_eq!(result_type(d, BF16), want, "{d} with bfloat16");
    }
    assert_eq!(F16.size_of(), 2);
    assert_eq!(BF16.name(), "bfloat16");
    assert!(F16.is_float() && BF16.is_half() && !F32.is_half());
}

macro_rules! per_type {
    ($($t:ty => $($body:ident as $f:ident),*);* $(;)?) => {$($(
        fn $f<B: ArrayBackend>(dev: &B) {
            $body::<$t, B>(dev);
        }
    )*)*};
}

per_type! {
    f16 => binary as binary_f16, unary as unary_f16, casts as casts_f16,
        reductions as reductions_f16, sorting as sorting_f16, products as products_f16,
        refusals as refusals_f16;
    bf16 => binary as binary_bf16, unary as unary_bf16, casts as casts_bf16,
        reductions as reductions_bf16, sorting as sorting_bf16, products as products_bf16,
        refusals as refusals_bf16;
}

cuprite::test_backends!(
    binary_f16,
    binary_bf16,
    unary_f16,
    unary_bf16,
    casts_f16,
    casts_bf16,
    reductions_f16,
    reductions_bf16,
    sorting_f16,
    sorting_bf16,
    products_f16,
    products_bf16,
    refusals_f16,
    refusals_bf16,
    printing,
);
