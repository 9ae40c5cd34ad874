//! GPU tests of the element-wise ops (ignored: they need a CUDA device). Every (op, element
//! type) pair that core's bounds allow ([`super::probe`]) runs on special values (signed
//! zeros, infinities, NaN, integer extremes) through every kernel path — contiguous with and
//! without an aligned vector head, strided, broadcast, reversed, transposed, 0-d, empty, in
//! place — and is compared with the host's `apply`: bit for bit (any NaN equals any NaN),
//! except for ops of the tolerance class `Approx` in core's op registry (results of
//! transcendental functions, which may differ by a few ulps between CUDA's math library and
//! the host's).

use super::probe::{all_cases, Runner};
use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::registry::Tolerance;
use cuprite_core::{bf16, c128, c64, f16, Element, Layout, Result};
use std::fmt::Debug;

/// Element types with test values and a comparison.
pub(crate) trait TestElem: Element + Debug {
    /// Values worth testing, special values included.
    fn values() -> Vec<Self>;
    /// `got` is `want` (bit for bit, any NaN equal to any NaN), or within `rtol` of it
    /// relative to its magnitude when `rtol > 0`.
    fn close(got: Self, want: Self, rtol: f64) -> bool;
    /// The relative tolerance of transcendental results (0 for exact types).
    const RTOL: f64;
}

macro_rules! int_elem {
    ($t:ty, [$($v:expr),*]) => {
        impl TestElem for $t {
            fn values() -> Vec<Self> {
                vec![$($v),*]
            }
            fn close(got: Self, want: Self, _rtol: f64) -> bool {
                got == want
            }
            const RTOL: f64 = 0.0;
        }
    };
}
int_elem!(bool, [false, true]);
int_elem!(
    u8,
    [0, 1, 2, 3, 5, 7, 8, 9, 10, 15, 25, 64, 100, 127, 128, 200, 250, 255]
);
int_elem!(
    i32,
    [
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        7,
        -7,
        8,
        10,
        15,
        25,
        -25,
        31,
        32,
        33,
        100,
        -150,
        12345,
        -99999,
        i32::MAX,
        i32::MIN,
        i32::MAX - 1,
        i32::MIN + 1
    ]
);
int_elem!(
    i64,
    [
        0,
        1,
        -1,
        2,
        -2,
        3,
        -7,
        10,
        25,
        -25,
        63,
        64,
        65,
        100,
        -150,
        1 << 40,
        3 - (1 << 50),
        9_007_199_254_740_993,
        5_000_000_000_000_000_000,
        i64::MAX,
        i64::MIN,
        i64::MAX - 1,
        i64::MIN + 1
    ]
);

fn real_close(got: f64, want: f64, rtol: f64, scale: f64) -> bool {
    (got.is_nan() && want.is_nan())
        || got.to_bits() == want.to_bits()
        || (rtol > 0.0 && (got == want || (got - want).abs() <= rtol * scale))
}

const F64_VALUES: [f64; 26] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    3.0,
    0.1,
    -7.25,
    1e-3,
    123.456,
    0.75,
    2.0,
    10.0,
    -1e10,
    3e8,
    1e300,
    -1e300,
    1e-310,
    5e-324,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];
const PARTS: [f64; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.0,
    1e-3,
    1e200,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

impl TestElem for f64 {
    fn values() -> Vec<Self> {
        F64_VALUES.to_vec()
    }
    fn close(got: Self, want: Self, rtol: f64) -> bool {
        real_close(got, want, rtol, want.abs())
    }
    const RTOL: f64 = 1e-11;
}
impl TestElem for f32 {
    fn values() -> Vec<Self> {
        let big = |v: f64| match v {
            1e300 => 1e30,
            -1e300 => -1e30,
            1e-310 => 1e-40,
            5e-324 => 1e-45,
            v => v,
        };
        F64_VALUES.iter().map(|&v| big(v) as f32).collect()
    }
    fn close(got: Self, want: Self, rtol: f64) -> bool {
        (got.is_nan() && want.is_nan())
            || got.to_bits() == want.to_bits()
            || real_close(got as f64, want as f64, rtol, want.abs() as f64)
    }
    const RTOL: f64 = 1e-4;
}
/// The 16-bit floats: f32's values rounded to the type, with its largest value, smallest
/// normal and subnormals; transcendental results within two units in the last place (the
/// f32 results of two math libraries, each rounded once).
macro_rules! half_elem {
    ($t:ty, $rtol:expr) => {
        impl TestElem for $t {
            fn values() -> Vec<Self> {
                let mut v: Vec<$t> = f32::values().into_iter().map(<$t>::from_f32).collect();
                v.extend([
                    <$t>::MAX,
                    <$t>::MIN_POSITIVE,
                    <$t>::from_bits(1),
                    <$t>::from_bits(0x8001),
                ]);
                v
            }
            fn close(got: Self, want: Self, rtol: f64) -> bool {
                (got.is_nan() && want.is_nan())
                    || got.to_bits() == want.to_bits()
                    || real_close(got.to_f64(), want.to_f64(), rtol, want.to_f64().abs())
            }
            const RTOL: f64 = $rtol;
        }
    };
}
half_elem!(f16, 2e-3);
half_elem!(bf16, 1.6e-2);

impl TestElem for c128 {
    fn values() -> Vec<Self> {
        PARTS
            .iter()
            .flat_map(|&re| PARTS.iter().map(move |&im| c128::new(re, im)))
            .collect()
    }
    fn close(got: Self, want: Self, rtol: f64) -> bool {
        let scale = want.re.abs().max(want.im.abs());
        real_close(got.re, want.re, rtol, scale) && real_close(got.im, want.im, rtol, scale)
    }
    const RTOL: f64 = 1e-11;
}
impl TestElem for c64 {
    fn values() -> Vec<Self> {
        c128::values()
            .into_iter()
            .map(|z| {
                let f = |v: f64| if v == 1e200 { 1e30f32 } else { v as f32 };
                c64::new(f(z.re), f(z.im))
            })
            .collect()
    }
    fn close(got: Self, want: Self, rtol: f64) -> bool {
        let g = c128::new(got.re as f64, got.im as f64);
        let w = c128::new(want.re as f64, want.im as f64);
        let exact = |a: f32, b: f32| (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits();
        (exact(got.re, want.re) && exact(got.im, want.im))
            || (rtol > 0.0 && c128::close(g, w, rtol))
    }
    const RTOL: f64 = 1e-4;
}

/// The relative tolerance of results of the tolerance class `tol` (the op's registry
/// declaration): 0 (bit for bit) for exact ops, the type's for ops whose results come from
/// CUDA's math library (or depend on it).
fn rtol<O: TestElem>(tol: Tolerance) -> f64 {
    match tol {
        Tolerance::Exact => 0.0,
        Tolerance::Approx => O::RTOL,
    }
}

/// Buffer offsets of a view's elements in C order.
fn offsets(l: &Layout) -> Vec<usize> {
    let n = l.size();
    (0..n)
        .map(|mut i| {
            let mut off = l.offset() as isize;
            for (&d, &s) in l.shape().iter().zip(l.strides()).rev() {
                off += (i % d) as isize * s;
                i /= d;
            }
            off as usize
        })
        .collect()
}

fn gather<T: Copy>(data: &[T], l: &Layout) -> Vec<T> {
    offsets(l).into_iter().map(|o| data[o]).collect()
}

/// `vals` repeated to at least `n` elements.
fn tiled<T: Copy>(vals: &[T], n: usize) -> Vec<T> {
    vals.iter()
        .copied()
        .cycle()
        .take(n.max(vals.len()))
        .collect()
}

/// Views to read through, over a buffer of `n >= 1100` elements.
fn read_views(n: usize) -> Vec<(&'static str, Layout)> {
    vec![
        ("contiguous", Layout::contiguous(&[n])),
        ("offset 1", Layout::new(vec![n - 1], vec![1], 1)),
        (
            "offset 3, 2-d",
            Layout::new(vec![2, (n - 3) / 2], vec![((n - 3) / 2) as isize, 1], 3),
        ),
        ("reversed", Layout::new(vec![n], vec![-1], n - 1)),
        ("transposed", Layout::contiguous(&[20, n / 20]).transposed()),
        // Two axes of at least 32, one a partial tile: the tiled kernel.
        (
            "transposed, tiles",
            Layout::new(vec![33, 33], vec![1, 33], 5),
        ),
        (
            "reversed transposed, tiles",
            Layout::new(vec![34, 32], vec![-1, 34], 33),
        ),
        (
            "stepped 3-d",
            Layout::new(vec![3, 4, 5], vec![100, -20, 3], 80),
        ),
        ("broadcast", Layout::new(vec![4, n / 4], vec![0, 1], 0)),
        ("0-d", Layout::new(vec![], vec![], 7)),
        ("empty", Layout::contiguous(&[0])),
        ("empty 2-d", Layout::contiguous(&[3, 0])),
    ]
}

/// Views to write through (no element twice), over a buffer of `n >= 300` elements.
fn write_views(n: usize) -> Vec<(&'static str, Layout)> {
    vec![
        ("contiguous", Layout::contiguous(&[n])),
        ("offset 1", Layout::new(vec![n - 1], vec![1], 1)),
        ("offset 3", Layout::new(vec![n - 5], vec![1], 3)),
        ("reversed", Layout::new(vec![n], vec![-1], n - 1)),
        ("transposed", Layout::contiguous(&[20, n / 20]).transposed()),
        ("stepped", Layout::new(vec![n / 2 - 1], vec![2], 1)),
        (
            "stepped 3-d",
            Layout::new(vec![3, 4, 5], vec![100, -20, 3], 80),
        ),
        ("0-d", Layout::new(vec![], vec![], 7)),
        ("empty", Layout::contiguous(&[0])),
    ]
}

/// Records mismatches between `got` and `want` (a few per call).
fn compare<I: Debug, O: TestElem>(
    fails: &mut Vec<String>,
    what: &str,
    inputs: &dyn Fn(usize) -> I,
    got: Result<Vec<O>>,
    want: &[O],
    rtol: f64,
) {
    let got = match got {
        Ok(g) => g,
        Err(e) => return fails.push(format!("{what}: error {e}")),
    };
    if got.len() != want.len() {
        return fails.push(format!(
            "{what}: {} results, want {}",
            got.len(),
            want.len()
        ));
    }
    let bad: Vec<usize> = (0..want.len())
        .filter(|&i| !O::close(got[i], want[i], rtol))
        .collect();
    for &i in bad.iter().take(4) {
        fails.push(format!(
            "{what}: at {i} input {:?} gave {:?}, want {:?}",
            inputs(i),
            got[i],
            want[i]
        ));
    }
    if bad.len() > 4 {
        fails.push(format!("{what}: {} mismatches in all", bad.len()));
    }
}

/// `unary` of one op on the GPU.
pub(super) type UnaryFn<'a, T, O> = dyn Fn(&CudaBuffer<T>, &Layout) -> Result<CudaBuffer<O>> + 'a;
/// `binary_scalar_inplace` of one op on the GPU.
pub(super) type ScalarInplaceFn<'a, T> = dyn Fn(&mut CudaBuffer<T>, &Layout, T) -> Result<()> + 'a;
/// `binary` of one op on the GPU.
pub(super) type BinaryFn<'a, T, O> =
    dyn Fn(&CudaBuffer<T>, &Layout, &CudaBuffer<T>, &Layout) -> Result<CudaBuffer<O>> + 'a;
/// `binary_scalar` of one op on the GPU (the flag: scalar first).
pub(super) type ScalarFn<'a, T, O> =
    dyn Fn(&CudaBuffer<T>, &Layout, T, bool) -> Result<CudaBuffer<O>> + 'a;
/// `binary_inplace` of one op on the GPU.
pub(super) type BinaryInplaceFn<'a, T> =
    dyn Fn(&mut CudaBuffer<T>, &Layout, &CudaBuffer<T>, &Layout) -> Result<()> + 'a;

fn upload<T: Element>(dev: &Cuda, data: &[T]) -> CudaBuffer<T> {
    dev.upload(data).expect("upload")
}

/// Checks `unary` through every read view.
pub(super) fn check_unary<T: TestElem, O: TestElem>(
    dev: &Cuda,
    tol: Tolerance,
    host: &dyn Fn(T) -> O,
    gpu: &UnaryFn<'_, T, O>,
) -> Vec<String> {
    let mut fails = Vec::new();
    let data = tiled(&T::values(), 1100);
    let buf = upload(dev, &data);
    let rt = rtol::<O>(tol);
    for (what, l) in read_views(data.len()) {
        let x = gather(&data, &l);
        let want: Vec<O> = x.iter().map(|&v| host(v)).collect();
        let got = gpu(&buf, &l).and_then(|o| dev.download(&o));
        compare(&mut fails, what, &|i| x[i], got, &want, rt);
    }
    fails
}

/// Checks `unary_inplace` through every write view (elements outside stay unchanged).
pub(super) fn check_unary_inplace<T: TestElem>(
    dev: &Cuda,
    tol: Tolerance,
    host: &dyn Fn(T) -> T,
    gpu: &dyn Fn(&mut CudaBuffer<T>, &Layout) -> Result<()>,
) -> Vec<String> {
    let mut fails = Vec::new();
    let data = tiled(&T::values(), 1100);
    let rt = rtol::<T>(tol);
    for (what, l) in write_views(data.len()) {
        let mut want = data.clone();
        for o in offsets(&l) {
            want[o] = host(data[o]);
        }
        let mut buf = upload(dev, &data);
        let got = gpu(&mut buf, &l).and_then(|()| dev.download(&buf));
        compare(&mut fails, what, &|i| data[i], got, &want, rt);
    }
    fails
}

/// Every pair of test values: `(a, b)` with `a` varying slowest.
fn pairs<T: TestElem>() -> (Vec<T>, Vec<T>, Vec<T>) {
    let v = T::values();
    let a = v.iter().flat_map(|&x| v.iter().map(move |_| x)).collect();
    let b = v.iter().flat_map(|_| v.iter().copied()).collect();
    (v, a, b)
}

/// Checks `binary` (contiguous, offsets, broadcast, reversed, 0-d, empty, transposed in tiles) and
/// `binary_scalar` in both orders.
pub(super) fn check_binary<T: TestElem, O: TestElem>(
    dev: &Cuda,
    tol: Tolerance,
    host: &dyn Fn(T, T) -> O,
    gpu: &BinaryFn<'_, T, O>,
    gpu_scalar: &ScalarFn<'_, T, O>,
) -> Vec<String> {
    let mut fails = Vec::new();
    let rt = rtol::<O>(tol);
    let (v, a, b) = pairs::<T>();
    let (m, n) = (v.len(), a.len());
    let padded = |x: &[T], pad: usize| {
        let mut p = vec![T::ZERO; pad];
        p.extend_from_slice(x);
        upload(dev, &p)
    };
    let (vb, ab) = (upload(dev, &v), upload(dev, &a));
    type Case<T> = (&'static str, CudaBuffer<T>, Layout, CudaBuffer<T>, Layout);
    let cases: Vec<Case<T>> = vec![
        (
            "contiguous",
            ab.clone(),
            Layout::contiguous(&[n]),
            upload(dev, &b),
            Layout::contiguous(&[n]),
        ),
        (
            "offsets 1, 1",
            padded(&a, 1),
            Layout::new(vec![n], vec![1], 1),
            padded(&b, 1),
            Layout::new(vec![n], vec![1], 1),
        ),
        (
            "offsets 1, 2",
            padded(&a, 1),
            Layout::new(vec![n], vec![1], 1),
            padded(&b, 2),
            Layout::new(vec![n], vec![1], 2),
        ),
        (
            "offsets 3, 3 (2-d)",
            padded(&a, 3),
            Layout::new(vec![m, m], vec![m as isize, 1], 3),
            padded(&b, 3),
            Layout::new(vec![m, m], vec![m as isize, 1], 3),
        ),
        (
            "broadcast",
            vb.clone(),
            Layout::new(vec![m, m], vec![1, 0], 0),
            vb.clone(),
            Layout::new(vec![m, m], vec![0, 1], 0),
        ),
        (
            "reversed b",
            ab.clone(),
            Layout::contiguous(&[n]),
            upload(dev, &b.iter().rev().copied().collect::<Vec<_>>()),
            Layout::new(vec![n], vec![-1], n - 1),
        ),
        (
            "0-d",
            vb.clone(),
            Layout::new(vec![], vec![], m / 2),
            vb.clone(),
            Layout::new(vec![], vec![], m - 1),
        ),
        (
            "empty",
            vb.clone(),
            Layout::contiguous(&[0]),
            vb.clone(),
            Layout::contiguous(&[0]),
        ),
    ];
    // Two axes of at least 32 with partial tiles and a transposed operand: the tiled kernel.
    let (ta, tb) = (upload(dev, &tiled(&a, 3100)), upload(dev, &tiled(&b, 3100)));
    let tiles: Vec<Case<T>> = vec![
        (
            "b transposed (tiles)",
            ta.clone(),
            Layout::contiguous(&[67, 45]),
            tb.clone(),
            Layout::new(vec![67, 45], vec![1, 67], 7),
        ),
        (
            "a reversed and transposed, b a broadcast column (tiles)",
            ta.clone(),
            Layout::new(vec![67, 45], vec![-1, 67], 66),
            tb.clone(),
            Layout::new(vec![67, 45], vec![1, 0], 0),
        ),
        (
            "both transposed (tiles)",
            ta,
            Layout::new(vec![40, 50], vec![1, 40], 0),
            tb,
            Layout::new(vec![40, 50], vec![1, 41], 3),
        ),
    ];
    for (what, ba, la, bb, lb) in cases.into_iter().chain(tiles) {
        let (ha, hb) = (
            dev.download(&ba).expect("download"),
            dev.download(&bb).expect("download"),
        );
        let (xa, xb) = (gather(&ha, &la), gather(&hb, &lb));
        let want: Vec<O> = xa.iter().zip(&xb).map(|(&x, &y)| host(x, y)).collect();
        let got = gpu(&ba, &la, &bb, &lb).and_then(|o| dev.download(&o));
        compare(&mut fails, what, &|i| (xa[i], xb[i]), got, &want, rt);
    }
    let data = tiled(&v, 1100);
    let buf = upload(dev, &data);
    for s in v.iter().step_by((m / 6).max(1)).copied() {
        for (what, l) in [
            ("scalar, contiguous", Layout::contiguous(&[data.len()])),
            (
                "scalar, offset 1",
                Layout::new(vec![data.len() - 1], vec![1], 1),
            ),
            (
                "scalar, reversed",
                Layout::new(vec![data.len()], vec![-1], data.len() - 1),
            ),
        ] {
            let x = gather(&data, &l);
            for first in [false, true] {
                let want: Vec<O> = x
                    .iter()
                    .map(|&e| if first { host(s, e) } else { host(e, s) })
                    .collect();
                let got = gpu_scalar(&buf, &l, s, first).and_then(|o| dev.download(&o));
                let what = format!("{what}, s = {s:?}, scalar first: {first}");
                compare(&mut fails, &what, &|i| x[i], got, &want, rt);
            }
        }
    }
    fails
}

/// Checks `binary_inplace` and `binary_scalar_inplace` through write views, with `b`
/// contiguous, broadcast or strided.
pub(super) fn check_binary_inplace<T: TestElem>(
    dev: &Cuda,
    tol: Tolerance,
    host: &dyn Fn(T, T) -> T,
    gpu: &BinaryInplaceFn<'_, T>,
    gpu_scalar: &ScalarInplaceFn<'_, T>,
) -> Vec<String> {
    let mut fails = Vec::new();
    let rt = rtol::<T>(tol);
    let (v, a, b) = pairs::<T>();
    let (m, n) = (v.len(), a.len());
    let vb = upload(dev, &v);
    let bb = upload(dev, &b);
    // (what, destination view over `a`, operand buffer and view)
    let mut cases: Vec<(&str, Layout, &CudaBuffer<T>, Layout)> = vec![
        (
            "contiguous",
            Layout::contiguous(&[n]),
            &bb,
            Layout::contiguous(&[n]),
        ),
        (
            "offsets 1, 1",
            Layout::new(vec![n - 1], vec![1], 1),
            &bb,
            Layout::new(vec![n - 1], vec![1], 1),
        ),
        (
            "offsets 1, 0",
            Layout::new(vec![n - 1], vec![1], 1),
            &bb,
            Layout::contiguous(&[n - 1]),
        ),
        (
            "transposed, broadcast row",
            Layout::contiguous(&[m, m]).transposed(),
            &vb,
            Layout::new(vec![m, m], vec![0, 1], 0),
        ),
        (
            "contiguous, broadcast column",
            Layout::contiguous(&[m, m]),
            &vb,
            Layout::new(vec![m, m], vec![1, 0], 0),
        ),
        (
            "reversed, reversed",
            Layout::new(vec![n], vec![-1], n - 1),
            &bb,
            Layout::new(vec![n], vec![-1], n - 1),
        ),
        (
            "0-d",
            Layout::new(vec![], vec![], n - 1),
            &vb,
            Layout::new(vec![], vec![], 1),
        ),
        (
            "empty",
            Layout::contiguous(&[0]),
            &vb,
            Layout::contiguous(&[0]),
        ),
    ];
    if n >= 4 {
        let half = n / 2 - 1;
        cases.push((
            "stepped",
            Layout::new(vec![half], vec![2], 1),
            &bb,
            Layout::new(vec![half], vec![1], 3),
        ));
    }
    for (what, la, bbuf, lb) in cases {
        let hb = dev.download(bbuf).expect("download");
        let xb = gather(&hb, &lb);
        let mut want = a.clone();
        for (i, o) in offsets(&la).into_iter().enumerate() {
            want[o] = host(a[o], xb[i]);
        }
        let mut buf = upload(dev, &a);
        let got = gpu(&mut buf, &la, bbuf, &lb).and_then(|()| dev.download(&buf));
        compare(&mut fails, what, &|i| a[i], got, &want, rt);
    }
    let data = tiled(&v, 1100);
    for s in v.iter().step_by((m / 6).max(1)).copied() {
        for (what, l) in write_views(data.len()) {
            let mut want = data.clone();
            for o in offsets(&l) {
                want[o] = host(data[o], s);
            }
            let mut buf = upload(dev, &data);
            let got = gpu_scalar(&mut buf, &l, s).and_then(|()| dev.download(&buf));
            let what = format!("scalar {what}, s = {s:?}");
            compare(&mut fails, &what, &|i| data[i], got, &want, rt);
        }
    }
    fails
}

/// Runs `where_` for one element type through contiguous, offset and broadcast views.
fn check_where<T: TestElem>(dev: &Cuda) -> Vec<String> {
    let mut fails = Vec::new();
    let v = T::values();
    let n = 1003;
    let a = tiled(&v, n);
    let b: Vec<T> = tiled(&v, n + 7)[7..].to_vec();
    let c: Vec<bool> = (0..n).map(|i| (i * 7 + i / 3) % 5 < 2).collect();
    let (ab, bb, cb) = (upload(dev, &a), upload(dev, &b), upload(dev, &c));
    let k = 17;
    let rows = (n - 3) / k;
    let cases = [
        (
            "contiguous",
            Layout::contiguous(&[n]),
            Layout::contiguous(&[n]),
            Layout::contiguous(&[n]),
        ),
        (
            "offset 1",
            Layout::new(vec![n - 1], vec![1], 1),
            Layout::new(vec![n - 1], vec![1], 1),
            Layout::new(vec![n - 1], vec![1], 1),
        ),
        (
            "offsets 3, 1, 2",
            Layout::new(vec![n - 3], vec![1], 3),
            Layout::new(vec![n - 3], vec![1], 1),
            Layout::new(vec![n - 3], vec![1], 2),
        ),
        (
            "broadcast",
            Layout::new(vec![rows, k], vec![0, 1], 0),
            Layout::new(vec![rows, k], vec![k as isize, 1], 2),
            Layout::new(vec![rows, k], vec![1, 0], 0),
        ),
        (
            "reversed",
            Layout::new(vec![n], vec![-1], n - 1),
            Layout::contiguous(&[n]),
            Layout::new(vec![n], vec![-1], n - 1),
        ),
        (
            "0-d",
            Layout::new(vec![], vec![], 3),
            Layout::new(vec![], vec![], 4),
            Layout::new(vec![], vec![], 5),
        ),
        (
            "empty",
            Layout::contiguous(&[0]),
            Layout::contiguous(&[0]),
            Layout::contiguous(&[0]),
        ),
    ];
    for (what, lc, la, lb) in cases {
        let (xc, xa, xb) = (gather(&c, &lc), gather(&a, &la), gather(&b, &lb));
        let want: Vec<T> = (0..xc.len())
            .map(|i| if xc[i] { xa[i] } else { xb[i] })
            .collect();
        let got = dev
            .where_(&cb, &lc, &ab, &la, &bb, &lb)
            .and_then(|o| dev.download(&o));
        let what = format!("where {} {what}", T::DTYPE);
        compare(
            &mut fails,
            &what,
            &|i| (xc[i], xa[i], xb[i]),
            got,
            &want,
            0.0,
        );
    }
    fails
}

/// Runs `jobs` on `threads` threads, returning their failures in job order.
fn run_parallel(dev: &Cuda, jobs: &[(String, Runner)]) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let mut out: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((label, job)) = jobs.get(i) else {
                            break;
                        };
                        let run = std::panic::AssertUnwindSafe(|| job(dev));
                        let f = std::panic::catch_unwind(run)
                            .unwrap_or_else(|_| vec!["panicked (message above)".to_string()]);
                        let f = f.into_iter().map(|m| format!("{label}: {m}")).collect();
                        mine.push((i, f));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("test thread"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().flat_map(|(_, f)| f).collect()
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn every_op_and_dtype_matches_the_host_on_the_gpu() {
    let dev = Cuda::new(0).expect("a CUDA device");
    let jobs = all_cases().runs;
    let fails = run_parallel(&dev, &jobs);
    for f in &fails {
        println!("FAIL {f}");
    }
    println!("{} op/dtype checks, {} failures", jobs.len(), fails.len());
    assert!(fails.is_empty(), "{} failures (listed above)", fails.len());
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn where_selects_for_every_dtype_on_the_gpu() {
    let dev = Cuda::new(0).expect("a CUDA device");
    let mut fails = check_where::<bool>(&dev);
    fails.extend(check_where::<u8>(&dev));
    fails.extend(check_where::<i32>(&dev));
    fails.extend(check_where::<i64>(&dev));
    fails.extend(check_where::<f32>(&dev));
    fails.extend(check_where::<f64>(&dev));
    fails.extend(check_where::<c64>(&dev));
    fails.extend(check_where::<c128>(&dev));
    assert!(fails.is_empty(), "{fails:#?}");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn grid_stride_loops_cover_large_arrays_on_the_gpu() {
    use cuprite_core::ops::{Add, Mul};
    let dev = Cuda::new(0).expect("a CUDA device");
    // More elements than one pass of the largest grid covers, with an unaligned offset.
    let n = (1 << 24) + 5;
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let (ab, bb) = (upload(&dev, &a), upload(&dev, &b));
    let l = Layout::new(vec![n - 1], vec![1], 1);
    let sum = dev
        .binary(Add, &ab, &l, &bb, &l)
        .and_then(|o| dev.download(&o))
        .unwrap();
    assert!((0..n - 1).all(|i| sum[i] == a[i + 1] + b[i + 1]));
    let bytes: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
    let mut xb = upload(&dev, &bytes);
    dev.binary_scalar_inplace(Mul, &mut xb, &Layout::new(vec![n - 3], vec![1], 3), 3u8)
        .unwrap();
    let got = dev.download(&xb).unwrap();
    assert!((0..n).all(|i| got[i]
        == if i < 3 {
            bytes[i]
        } else {
            bytes[i].wrapping_mul(3)
        }));
    // A strided view of more than 2^31 elements would need 16 GiB of u8 plus the
    // output; the 64-bit strided path is covered by `strided_loop` sharing its body.
}

/// Seconds per call of `f`, over `reps` calls after one warm-up, synchronised.
fn time(dev: &Cuda, reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    dev.synchronize_device().unwrap();
    let t = std::time::Instant::now();
    for _ in 0..reps {
        f();
    }
    dev.synchronize_device().unwrap();
    t.elapsed().as_secs_f64() / reps as f64
}

#[test]
#[ignore = "needs a CUDA GPU; prints bandwidths"]
fn bandwidth_of_large_maps_on_the_gpu() {
    use cuprite_core::ops::{Add, Mul};
    let dev = Cuda::new(0).expect("a CUDA device");
    let n = 1usize << 28; // 2 GiB of f64
    let gb = (n * 8) as f64 / 1e9;
    let host: Vec<f64> = (0..n).map(|i| (i % 1_000_003) as f64 * 1e-3).collect();
    let a = upload(&dev, &host);
    let b = upload(&dev, &host);
    let mut x = upload(&dev, &host);
    drop(host);
    let dst = dev.alloc::<f64>(n).unwrap();
    let l = Layout::contiguous(&[n]);
    let copy = time(&dev, 10, || dev.copy_elems(&dst, 0, &a, 0, n).unwrap());
    let scal = time(&dev, 10, || {
        dev.binary_scalar_inplace(Mul, &mut x, &l, 1.0000001)
            .unwrap()
    });
    let add = time(&dev, 10, || {
        dev.binary(Add, &a, &l, &b, &l).unwrap();
    });
    let addi = time(&dev, 10, || {
        dev.binary_inplace(Add, &mut x, &l, &b, &l).unwrap()
    });
    let side = 1usize << 14;
    let lm = Layout::contiguous(&[side, side]);
    let row = Layout::new(vec![side, side], vec![0, 1], 0);
    let bcast = time(&dev, 10, || {
        dev.binary(Add, &a, &lm, &b, &row).unwrap();
    });
    let copy_bw = 2.0 * gb / copy;
    for (what, secs, moved) in [
        ("copy (dtod)", copy, 2.0),
        ("x *= c in place", scal, 2.0),
        ("a + b", add, 3.0),
        ("x += b in place", addi, 3.0),
        ("a + row (broadcast, strided)", bcast, 2.0),
    ] {
        let bw = moved * gb / secs;
        println!(
            "{what:32} {:8.3} ms {:7.0} GB/s {:5.1}% of copy",
            secs * 1e3,
            bw,
            100.0 * bw / copy_bw
        );
    }
    // Host overhead of small ops (queued, not waited for one by one).
    let small = upload(&dev, &vec![1.0f32; 1000]);
    let ls = Layout::contiguous(&[1000]);
    let per = time(&dev, 20000, || {
        dev.binary_scalar(Add, &small, &ls, 1.0f32, false).unwrap();
    });
    let mut sm = small.clone();
    let per_in = time(&dev, 20000, || {
        dev.binary_scalar_inplace(Add, &mut sm, &ls, 1.0f32)
            .unwrap()
    });
    println!(
        "small op (1000 f32): {:.2} us out of place, {:.2} us in place",
        per * 1e6,
        per_in * 1e6
    );
}
