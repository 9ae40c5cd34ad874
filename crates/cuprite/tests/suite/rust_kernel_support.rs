//! Helpers of the `rust_kernel` tests: element comparison (exact, or within a number of
//! ulps for floats, NaN equal to NaN), value lists with the special values of every type,
//! a small deterministic generator of random inputs, and harnesses that run a kernel on the
//! same values laid out many ways (contiguous, transposed, stepped with a negative step,
//! broadcast, 0-d, empty, sizes not divisible by 256) and compare with a plain Rust
//! reference computed from the host data by index.

use cuprite::prelude::*;

/// An element the tests compare.
pub trait Val: Element {
    /// True when `a` and `b` agree: equal bits for integers and bool, at most `ulps` apart
    /// for floats (0: the same bits; NaN matches NaN).
    fn same(a: Self, b: Self, ulps: u64) -> bool;
}

macro_rules! exact {
    ($($t:ty),*) => {$(
        impl Val for $t {
            fn same(a: Self, b: Self, _ulps: u64) -> bool {
                a == b
            }
        }
    )*};
}
exact!(bool, i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! float {
    ($($t:ty, $i:ty);*) => {$(
        impl Val for $t {
            fn same(a: Self, b: Self, ulps: u64) -> bool {
                if a.is_nan() || b.is_nan() {
                    return a.is_nan() && b.is_nan();
                }
                // Ordered integer images of the bit patterns: their distance counts ulps.
                let ord = |x: $t| {
                    let i = x.to_bits() as $i;
                    if i < 0 { <$i>::MIN.wrapping_sub(i) } else { i }
                };
                (ord(a) as i128 - ord(b) as i128).unsigned_abs() <= ulps as u128
            }
        }
    )*};
}
float!(f32, i32; f64, i64; f16, i16; bf16, i16);

/// Special and ordinary values of each type.
pub fn f32s() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        2.5,
        3.0,
        1e-3,
        -7.25,
        0.1,
        1e30,
        -1e30,
        3.5e9,
        -3.5e9,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        123_456.79,
        -300.5,
    ]
}
pub fn f64s() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        2.5,
        3.0,
        1e-3,
        -7.25,
        0.1,
        1e300,
        -1e300,
        3.5e9,
        -1e19,
        1e19,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        123_456.789,
        -300.5,
    ]
}
pub fn i32s() -> Vec<i32> {
    vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        -7,
        31,
        33,
        i32::MAX,
        i32::MIN,
        65_536,
        -65_536,
        123_456_789,
    ]
}
pub fn i64s() -> Vec<i64> {
    vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        -7,
        63,
        65,
        i64::MAX,
        i64::MIN,
        1 << 40,
        -(1 << 40),
        1_234_567_890_123,
    ]
}
pub fn u8s() -> Vec<u8> {
    vec![0, 1, 2, 3, 7, 9, 100, 127, 128, 200, 255]
}
pub fn i8s() -> Vec<i8> {
    vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        -7,
        9,
        100,
        -100,
        64,
        -64,
        i8::MAX,
        i8::MIN,
    ]
}
pub fn i16s() -> Vec<i16> {
    vec![
        0,
        1,
        -1,
        3,
        -3,
        15,
        17,
        255,
        -256,
        1000,
        0x4000,
        -12345,
        i16::MAX,
        i16::MIN,
    ]
}
pub fn u16s() -> Vec<u16> {
    vec![
        0,
        1,
        2,
        3,
        15,
        16,
        17,
        255,
        256,
        1000,
        0x8000,
        0xfffe,
        u16::MAX,
    ]
}
pub fn u32s() -> Vec<u32> {
    vec![
        0,
        1,
        2,
        3,
        31,
        33,
        65_536,
        0x7fff_ffff,
        0x8000_0000,
        3_000_000_000,
        u32::MAX - 1,
        u32::MAX,
    ]
}
/// With values above `i64::MAX`, where a signed reading would go wrong.
pub fn u64s() -> Vec<u64> {
    vec![
        0,
        1,
        2,
        3,
        63,
        65,
        1 << 40,
        i64::MAX as u64,
        1 << 63,
        (1 << 63) + 12_345,
        18_000_000_000_000_000_000,
        u64::MAX - 1,
        u64::MAX,
    ]
}
/// f16 values: signed zeros, the largest finite values (whose sums and products overflow
/// to infinity), the smallest normal, subnormals (the smallest, 2^-24), infinities, NaN.
pub fn f16s() -> Vec<f16> {
    let mut v: Vec<f16> = [
        0.0f32, -0.0, 1.0, -1.5, 2.5, 3.0, 0.1, -7.25, 1e-3, 300.0, -300.5, 60000.0, 2049.0,
    ]
    .iter()
    .map(|&x| f16::from_f32(x))
    .collect();
    v.extend([
        f16::MAX,
        f16::MIN,
        f16::MIN_POSITIVE,
        f16::from_bits(0x0001),
        f16::from_bits(0x8123),
        f16::INFINITY,
        f16::NEG_INFINITY,
        f16::NAN,
    ]);
    v
}
/// bf16 values: as [`f16s`], over bf16's range (f32's exponents, 8 significant bits).
pub fn bf16s() -> Vec<bf16> {
    let mut v: Vec<bf16> = [
        0.0f32, -0.0, 1.0, -1.5, 2.5, 3.0, 0.1, -7.25, 1e-3, 1e30, -1e30, 3e38, 123_456.0,
    ]
    .iter()
    .map(|&x| bf16::from_f32(x))
    .collect();
    v.extend([
        bf16::MAX,
        bf16::MIN,
        bf16::MIN_POSITIVE,
        bf16::from_bits(0x0001),
        bf16::from_bits(0x8040),
        bf16::INFINITY,
        bf16::NEG_INFINITY,
        bf16::NAN,
    ]);
    v
}

pub fn bools() -> Vec<bool> {
    vec![false, true]
}

/// A small deterministic generator (xorshift64*) of random inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `n` values made from random 64-bit words by `f`.
    pub fn values<T>(&mut self, n: usize, f: impl Fn(u64) -> T) -> Vec<T> {
        (0..n).map(|_| f(self.next())).collect()
    }
}

/// A 0-d array holding `x` (built from a vector, so -0.0 stays -0.0).
fn zero_d<T: Element, D: ArrayBackend>(x: T, dev: &D) -> Array<T, D> {
    Array::from_vec(vec![x], &[], dev).unwrap()
}

/// `n` values cycling through `v`, every `step`-th one (so two lists give all pairs).
fn cycle<T: Copy>(v: &[T], n: usize, every: usize) -> Vec<T> {
    (0..n).map(|i| v[(i / every) % v.len()]).collect()
}

#[track_caller]
fn compare<R: Val>(what: &str, case: &str, got: &[R], want: &[R], ulps: u64) {
    assert_eq!(got.len(), want.len(), "{what} ({case}): lengths differ");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            R::same(*g, *w, ulps),
            "{what} ({case}): element {i}: got {g:?}, want {w:?}"
        );
    }
}

/// Runs a kernel of one input on `v` laid out every way and compares with `f` by index.
#[track_caller]
pub fn check1<A: Val, R: Val, D: ArrayBackend>(
    dev: &D,
    what: &str,
    call: impl Fn(&Array<A, D>) -> Result<Array<R, D>>,
    f: impl Fn(A) -> R,
    v: &[A],
    ulps: u64,
) {
    let run = |case: &str, a: Array<A, D>, want: Vec<R>, shape: &[usize]| {
        let z = call(&a).unwrap_or_else(|e| panic!("{what} ({case}): {e}"));
        assert_eq!(z.shape(), shape, "{what} ({case}): shape");
        compare(what, case, &z.to_vec().unwrap(), &want, ulps);
    };
    // Contiguous, 1000 elements (not a multiple of 256).
    let d = cycle(v, 1000, 1);
    let want: Vec<R> = d.iter().map(|&x| f(x)).collect();
    run(
        "contiguous",
        Array::from_vec(d, &[1000], dev).unwrap(),
        want,
        &[1000],
    );
    // Transposed: element (i, j) of the view is d[j * 37 + i].
    let d = cycle(v, 29 * 37, 1);
    let mut want = Vec::new();
    for i in 0..37 {
        for j in 0..29 {
            want.push(f(d[j * 37 + i]));
        }
    }
    let a = Array::from_vec(d, &[29, 37], dev).unwrap().t();
    run("transposed", a, want, &[37, 29]);
    // Every second element, backwards: element i is d[600 - 2 i].
    let d = cycle(v, 601, 1);
    let want: Vec<R> = (0..301).map(|i| f(d[600 - 2 * i])).collect();
    let a = Array::from_vec(d, &[601], dev)
        .unwrap()
        .slice(&s![..;-2])
        .unwrap();
    run("negative step", a, want, &[301]);
    // 0-d and empty.
    run("0-d", zero_d(v[1], dev), vec![f(v[1])], &[]);
    run(
        "empty",
        Array::from_vec(vec![], &[0, 3], dev).unwrap(),
        vec![],
        &[0, 3],
    );
}

/// Runs a kernel of two inputs on every pair of `va` x `vb` laid out every way (including
/// broadcasting) and compares with `f` by index.
#[track_caller]
pub fn check2<A: Val, B2: Val, R: Val, D: ArrayBackend>(
    dev: &D,
    what: &str,
    call: impl Fn(&Array<A, D>, &Array<B2, D>) -> Result<Array<R, D>>,
    f: impl Fn(A, B2) -> R,
    va: &[A],
    vb: &[B2],
    ulps: u64,
) {
    let run = |case: &str, a: Array<A, D>, b: Array<B2, D>, want: Vec<R>, shape: &[usize]| {
        let z = call(&a, &b).unwrap_or_else(|e| panic!("{what} ({case}): {e}"));
        assert_eq!(z.shape(), shape, "{what} ({case}): shape");
        compare(what, case, &z.to_vec().unwrap(), &want, ulps);
    };
    let n = (va.len() * vb.len()).max(1000) + 3;
    // Contiguous: every pair (a[i], b[i]) of the cross product, cycled.
    let (da, db) = (cycle(va, n, 1), cycle(vb, n, va.len()));
    let want: Vec<R> = da.iter().zip(&db).map(|(&x, &y)| f(x, y)).collect();
    let (a, b) = (
        Array::from_vec(da, &[n], dev).unwrap(),
        Array::from_vec(db, &[n], dev).unwrap(),
    );
    run("contiguous", a, b, want, &[n]);
    // A transposed view with a contiguous operand.
    let (da, db) = (cycle(va, 29 * 37, 1), cycle(vb, 37 * 29, 3));
    let mut want = Vec::new();
    for i in 0..37 {
        for j in 0..29 {
            want.push(f(da[j * 37 + i], db[i * 29 + j]));
        }
    }
    let a = Array::from_vec(da, &[29, 37], dev).unwrap().t();
    let b = Array::from_vec(db, &[37, 29], dev).unwrap();
    run("transposed", a, b, want, &[37, 29]);
    // Stepped views: every third element forwards and every second one backwards.
    let (da, db) = (cycle(va, 900, 1), cycle(vb, 601, 2));
    let want: Vec<R> = (0..300).map(|i| f(da[3 * i], db[600 - 2 * i])).collect();
    let a = Array::from_vec(da, &[900], dev)
        .unwrap()
        .slice(&s![..;3])
        .unwrap();
    let b = Array::from_vec(db, &[601], dev)
        .unwrap()
        .slice(&s![..;-2])
        .unwrap();
    let b = b.slice(&s![..300]).unwrap();
    run("stepped", a, b, want, &[300]);
    // Broadcast (17, 1) with (23,).
    let (da, db) = (cycle(va, 17, 1), cycle(vb, 23, 1));
    let mut want = Vec::new();
    for &x in &da {
        for &y in &db {
            want.push(f(x, y));
        }
    }
    let a = Array::from_vec(da, &[17, 1], dev).unwrap();
    let b = Array::from_vec(db, &[23], dev).unwrap();
    run("broadcast", a, b, want, &[17, 23]);
    // A 0-d operand on either side, and both.
    let da = cycle(va, 257, 1);
    let want: Vec<R> = da.iter().map(|&x| f(x, vb[0])).collect();
    let a = Array::from_vec(da, &[257], dev).unwrap();
    run("0-d right", a, zero_d(vb[0], dev), want, &[257]);
    let db = cycle(vb, 257, 1);
    let want: Vec<R> = db.iter().map(|&y| f(va[0], y)).collect();
    let b = Array::from_vec(db, &[257], dev).unwrap();
    run("0-d left", zero_d(va[0], dev), b, want, &[257]);
    let (a, b) = (zero_d(va[1 % va.len()], dev), zero_d(vb[0], dev));
    run("both 0-d", a, b, vec![f(va[1 % va.len()], vb[0])], &[]);
    // Empty, broadcast against a non-empty row.
    let a = Array::from_vec(vec![], &[0, 5], dev).unwrap();
    let b = Array::from_vec(cycle(vb, 5, 1), &[5], dev).unwrap();
    run("empty", a, b, vec![], &[0, 5]);
}
