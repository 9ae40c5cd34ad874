//! The eight integer element types (i8, u8, i16, u16, i32, u32, i64, u64) on every backend,
//! against NumPy fixtures (`scripts/fixtures/ints.py`): wrapping arithmetic, NumPy's division
//! and shift rules, bitwise ops, comparisons, casts between every pair and from floats,
//! reductions with NumPy's accumulator types, stable sorts, `unique`, products, and the
//! promotion table of `np.result_type`. Every comparison is exact.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::prelude::*;
use cuprite::{result_type, DType};

const TOPIC: &str = "ints";

/// Checks `got` against fixture `name`: same shape, same values.
#[track_caller]
fn check<T: Element, B: ArrayBackend>(got: Result<Array<T, B>>, name: &str) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<T>(TOPIC, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    let got = got.to_vec().unwrap();
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{name}: at flat index {i}: got {:?}, NumPy {:?}",
            got[i], want[i]
        );
    }
}

/// Checks f64 results against fixture `name` within 4 ULP: a mean of 64-bit integers rounds
/// its sum, and the order of the sum is the backend's (exact for the narrower types).
#[track_caller]
fn check_close<B: ArrayBackend>(got: Result<Array<f64, B>>, name: &str) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<f64>(TOPIC, name);
    assert_eq!(got.shape(), &shape[..], "{name}: shape");
    for (i, (g, w)) in got.to_vec().unwrap().iter().zip(&want).enumerate() {
        let ok = g == w || (g - w).abs() <= 4.0 * f64::EPSILON * w.abs();
        assert!(ok, "{name}: at flat index {i}: got {g:?}, NumPy {w:?}");
    }
}

/// Every op of the fixtures on element type `T` (fixture tag `tag`).
fn ops<T: Integer, B: ArrayBackend>(dev: &B, tag: &str) {
    let f = |n: &str| fixture::<T, B>(dev, TOPIC, &format!("{tag}/{n}"));
    let name = |op: &str| format!("{tag}/{op}");
    let x = f("x");
    let n = x.size() as isize;
    let col = x.reshape(&[n, 1]).unwrap();
    let row = |a: Array<T, B>| {
        let m = a.size() as isize;
        a.reshape(&[1, m]).unwrap()
    };
    let (y, s, p) = (row(f("y")), row(f("s")), row(f("p")));
    check(col.try_add(&y), &name("add"));
    check(col.try_sub(&y), &name("subtract"));
    check(col.try_mul(&y), &name("multiply"));
    check(col.floor_divide(&y), &name("floor_divide"));
    check(col.remainder(&y), &name("remainder"));
    check(col.fmod(&y), &name("fmod"));
    check(col.bitwise_and(&y), &name("bitwise_and"));
    check(col.bitwise_or(&y), &name("bitwise_or"));
    check(col.bitwise_xor(&y), &name("bitwise_xor"));
    check(col.maximum(&y), &name("maximum"));
    check(col.minimum(&y), &name("minimum"));
    check(col.lt(&y), &name("less"));
    check(col.eq(&y), &name("equal"));
    check(col.ge(&y), &name("greater_equal"));
    check(col.power(&p), &name("power"));
    check(col.left_shift(&s), &name("left_shift"));
    check(col.right_shift(&s), &name("right_shift"));
    check(x.try_neg(), &name("negative"));
    check(x.absolute(), &name("absolute"));
    check(x.sign(), &name("sign"));
    check(x.invert(), &name("invert"));
    check(x.square(), &name("square"));
    check(x.astype::<i8>(), &name("astype/i8"));
    check(x.astype::<u8>(), &name("astype/u8"));
    check(x.astype::<i16>(), &name("astype/i16"));
    check(x.astype::<u16>(), &name("astype/u16"));
    check(x.astype::<i32>(), &name("astype/i32"));
    check(x.astype::<u32>(), &name("astype/u32"));
    check(x.astype::<i64>(), &name("astype/i64"));
    check(x.astype::<u64>(), &name("astype/u64"));
    check(x.astype::<f64>(), &name("astype/f64"));
    check(x.astype::<f32>(), &name("astype/f32"));
    check(x.astype::<bool>(), &name("astype/bool"));
    let floats = fixture::<f64, B>(dev, TOPIC, &name("from_f64/x"));
    check(floats.astype::<T>(), &name("from_f64"));
    // Strided and reversed views of the same data give the same results.
    let rev = x.slice(&s![..;-1]).unwrap();
    let twice = rev.slice(&s![..;-1]).unwrap();
    check(twice.try_neg(), &name("negative"));
}

/// Reductions (NumPy's accumulator types), scans, sorts and products of `T`.
fn reductions<T: Integer<Mean = f64>, B: ArrayBackend>(dev: &B, tag: &str) {
    let f = |n: &str| fixture::<T, B>(dev, TOPIC, &format!("{tag}/{n}"));
    let name = |op: &str| format!("{tag}/{op}");
    let x = f("x");
    let m = x.reshape(&[4, 6]).unwrap();
    check(m.sum(), &name("sum"));
    check(m.sum_axes(0, false), &name("sum0"));
    check(m.sum_axes(1, false), &name("sum1"));
    check(m.prod_axes(1, false), &name("prod1"));
    check(m.min_axes(0, false), &name("min0"));
    check(m.max_axes(1, false), &name("max1"));
    check(m.argmin_axis(1, false), &name("argmin1"));
    check(m.argmax_axis(0, false), &name("argmax0"));
    check_close(m.mean_axes(1, false), &name("mean1"));
    check(x.cumsum(None), &name("cumsum"));
    check(x.sort(-1), &name("sort"));
    check(x.argsort(-1), &name("argsort"));
    check(x.unique(), &name("unique"));
    let big = f("big");
    check(big.sort(-1), &name("big_sort"));
    check(big.argsort(-1), &name("big_argsort"));
    // A transposed operand reads the same matrix.
    let (a, b) = (f("mm_a"), f("mm_b"));
    check(a.matmul(&b), &name("mm"));
    check(a.t().copy().unwrap().t().matmul(&b), &name("mm"));
}

/// Draws fall in `[low, high)` for the type's whole range, u64 beyond i64::MAX included.
fn draws<T: Integer, B: ArrayBackend>(dev: &B, low: T, high: T) {
    let mut rng = Generator::new(3);
    let a = rng
        .integers(low, high, &[4000], dev)
        .unwrap()
        .to_vec()
        .unwrap();
    assert!(a.iter().all(|&v| v >= low && v < high), "{:?}", T::DTYPE);
    // Both halves of the range are hit.
    let (lo, hi) = (low.to_f64_lossy(), high.to_f64_lossy());
    let mid = lo + (hi - lo) / 2.0;
    assert!(a.iter().any(|v| v.to_f64_lossy() < mid) && a.iter().any(|v| v.to_f64_lossy() > mid));
}

macro_rules! per_type {
    ($($t:ty => $tag:literal, $ops:ident, $red:ident, $draw:ident);* $(;)?) => {$(
        fn $ops<B: ArrayBackend>(dev: &B) {
            ops::<$t, B>(dev, $tag);
        }
        fn $red<B: ArrayBackend>(dev: &B) {
            reductions::<$t, B>(dev, $tag);
        }
        fn $draw<B: ArrayBackend>(dev: &B) {
            draws::<$t, B>(dev, <$t>::MIN, <$t>::MAX);
        }
    )*};
}

per_type! {
    i8 => "i8", ops_i8, reductions_i8, draws_i8;
    u8 => "u8", ops_u8, reductions_u8, draws_u8;
    i16 => "i16", ops_i16, reductions_i16, draws_i16;
    u16 => "u16", ops_u16, reductions_u16, draws_u16;
    i32 => "i32", ops_i32, reductions_i32, draws_i32;
    u32 => "u32", ops_u32, reductions_u32, draws_u32;
    i64 => "i64", ops_i64, reductions_i64, draws_i64;
    u64 => "u64", ops_u64, reductions_u64, draws_u64;
}

/// The accumulator types NumPy uses: signed sums in int64, unsigned in uint64.
fn accumulators<B: ArrayBackend>(dev: &B) {
    let u = Array::<u16, B>::from_vec(vec![65535, 65535], &[2], dev).unwrap();
    assert_eq!(u.sum().unwrap().item().unwrap(), 131070u64);
    let i = Array::<i8, B>::from_vec(vec![-128, -128], &[2], dev).unwrap();
    assert_eq!(i.sum().unwrap().item().unwrap(), -256i64);
    let w = Array::<u64, B>::from_vec(vec![u64::MAX, 2], &[2], dev).unwrap();
    assert_eq!(
        w.sum().unwrap().item().unwrap(),
        1,
        "u64 sums wrap as NumPy's do"
    );
    assert_eq!(u.mean().unwrap().item().unwrap(), 65535.0);
}

/// Printing as NumPy's repr.
fn printing<B: ArrayBackend>(dev: &B) {
    let a = Array::<i8, B>::from_vec(vec![-128, 0, 127], &[3], dev).unwrap();
    assert_eq!(format!("{a:?}"), "array([-128,    0,  127], dtype=int8)");
    let b = Array::<u64, B>::from_vec(vec![u64::MAX, 1], &[2], dev).unwrap();
    assert_eq!(
        format!("{b:?}"),
        "array([18446744073709551615,                    1], dtype=uint64)"
    );
    assert_eq!(b.to_string(), "[18446744073709551615                    1]");
}

/// `result_type` is NumPy's table for every pair of dtypes, in `DType::ALL` order; bfloat16,
/// which NumPy lacks, follows ml_dtypes' and JAX's rule (float16's row of NumPy, but float16
/// with bfloat16 is float32), written into the table by `ints.py`.
#[test]
fn promotion_is_numpys() {
    let (table, shape) = fixture_vec::<i64>(TOPIC, "promote");
    let n = DType::ALL.len();
    assert_eq!(shape, [n, n], "regenerate ints.json for DType::ALL");
    for (i, &a) in DType::ALL.iter().enumerate() {
        for (j, &b) in DType::ALL.iter().enumerate() {
            let want = DType::ALL[table[i * n + j] as usize];
            assert_eq!(result_type(a, b), want, "{a} with {b}");
        }
    }
}

cuprite::test_backends!(
    ops_i8,
    ops_u8,
    ops_i16,
    ops_u16,
    ops_i32,
    ops_u32,
    ops_i64,
    ops_u64,
    reductions_i8,
    reductions_u8,
    reductions_i16,
    reductions_u16,
    reductions_i32,
    reductions_u32,
    reductions_i64,
    reductions_u64,
    draws_i8,
    draws_u8,
    draws_i16,
    draws_u16,
    draws_i32,
    draws_u32,
    draws_i64,
    draws_u64,
    accumulators,
    printing,
);
