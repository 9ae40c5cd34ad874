//! Bad input around shapes on every backend: shapes whose size overflows (creation functions,
//! tile, repeat, pad, concatenate, stack, broadcasts, outer, meshgrid, reshape), raw layouts
//! that reach outside their buffer, slices with steps and bounds at the ends of `isize`
//! (expected values computed with NumPy 2.4: `np.arange(10)[::sys.maxsize]` and so on), and
//! a user op that panics inside a mutable view. Each case asserts the `Err` variant or
//! NumPy's value. Cases that would allocate an impossible amount if a check slipped run in a
//! child copy of this test binary, so that an abort fails the test instead of the whole run.

// Reversed ranges such as `3..isize::MIN` with a negative step are NumPy slices here, not
// empty Rust ranges.
#![allow(clippy::reversed_empty_ranges)]

use cuprite::ops::UnaryOp;
use cuprite::prelude::*;
use cuprite::{Layout, SliceArg};
use std::panic::{catch_unwind, AssertUnwindSafe};

const MAX: isize = isize::MAX;
const MIN: isize = isize::MIN;

/// The environment variable that makes a child process run one case of this file.
const CASE_VAR: &str = "CUPRITE_BAD_INPUT_CASE";

/// Runs `case` in a child process (this test binary, re-run on this very test with
/// [`CASE_VAR`] set), so that an abort or a crash in it fails this test and nothing else.
/// In the child, runs `case` directly.
fn in_child<B: ArrayBackend>(dev: &B, name: &str, case: impl FnOnce()) {
    if std::env::var(CASE_VAR).as_deref() == Ok(name) {
        case();
        return;
    }
    let backend = if dev.label().starts_with("cuda") {
        "cuda"
    } else {
        "cpu"
    };
    let test = format!("bad_input_shapes::{backend}::{name}");
    let out = std::process::Command::new(std::env::current_exe().expect("test binary path"))
        .args([&test, "--exact", "--include-ignored", "--test-threads=1"])
        .env(CASE_VAR, name)
        .output()
        .expect("re-running the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "case {name} failed in its child process ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[track_caller]
fn assert_too_big<V: std::fmt::Debug>(r: Result<V>, op: &str) {
    match r {
        Err(Error::TooBig { op: got, .. }) if got == op => {}
        other => panic!("expected Error::TooBig from {op}, got {other:?}"),
    }
}

#[track_caller]
fn assert_invalid<V: std::fmt::Debug>(r: Result<V>, contains: &str) {
    match r {
        Err(e @ Error::InvalidArgument { .. }) if e.to_string().contains(contains) => {}
        other => panic!("expected Error::InvalidArgument with {contains:?}, got {other:?}"),
    }
}

/// A large read-only view of `n` bytes that allocates one (a zero-stride broadcast).
fn wide_u8<B: ArrayBackend>(dev: &B, n: usize) -> Array<u8, B> {
    Array::<u8, B>::ones(&[1], dev)
        .unwrap()
        .broadcast_to(&[n])
        .unwrap()
}

/// Every creation function with a shape whose bytes exceed `isize::MAX`, and the reported
/// reproductions (`zeros(&[1 << 62])`, `full(&[usize::MAX, 2])`, `eye(1 << 32)`).
fn creation_with_too_big_shapes<B: ArrayBackend>(dev: &B) {
    in_child(dev, "creation_with_too_big_shapes", || {
        let huge = [1usize << 32, 1 << 32];
        assert_too_big(Array::<f64, B>::zeros(&huge, dev), "zeros");
        assert_too_big(Array::<f64, B>::zeros(&[1 << 62], dev), "zeros");
        assert_too_big(Array::<u8, B>::zeros(&[1 << 63], dev), "zeros");
        assert_too_big(Array::<f64, B>::zeros(&[1 << 60], dev), "zeros");
        assert_too_big(Array::<i32, B>::ones(&huge, dev), "ones");
        assert_too_big(Array::<bool, B>::empty(&[usize::MAX], dev), "empty");
        assert_too_big(Array::<f32, B>::full(&[usize::MAX, 2], 1.0, dev), "full");
        assert_too_big(
            Array::<c128, B>::full(&[1 << 59], c128::new(0.0, 0.0), dev),
            "full",
        );
        // A zero does not excuse the other dimensions (NumPy checks the non-zero ones).
        assert_too_big(Array::<f64, B>::zeros(&[0, 1 << 62, 1 << 62], dev), "zeros");
        assert_eq!(
            Array::<f64, B>::zeros(&[0, 1 << 40], dev).unwrap().shape(),
            &[0, 1 << 40]
        );
        // from_vec: the product used to wrap to the length of the data.
        assert_too_big(
            Array::<f64, B>::from_vec(vec![], &[1 << 63, 2], dev),
            "from_vec",
        );
        assert_too_big(
            Array::<f64, B>::from_vec(vec![1.0], &[1 << 32, 1 << 32], dev),
            "from_vec",
        );
        assert_too_big(Array::<f64, B>::eye(1 << 32, None, 0, dev), "eye");
        assert_too_big(Array::<f64, B>::eye(3, Some(usize::MAX), 1, dev), "eye");
        assert_too_big(Array::<f32, B>::identity(1 << 32, dev), "eye");
        assert_too_big(Array::<f64, B>::tri(1 << 32, None, 0, dev), "tri");
        assert_too_big(Array::<i64, B>::ramp(1 << 62, 0, 1, dev), "ramp");
        assert_too_big(Array::<f64, B>::arange(0.0, 1e300, 1.0, dev), "arange");
        assert_too_big(
            Array::<i64, B>::arange(i64::MIN, i64::MAX, 1, dev),
            "arange",
        );
        assert_too_big(
            Array::<f64, B>::linspace(0.0, 1.0, 1 << 62, true, dev),
            "linspace",
        );
        let v = Array::<f64, B>::ones(&[2], dev).unwrap();
        assert_too_big(Array::diag(&v, MAX), "diag");
        let x = wide_u8(dev, 1 << 32);
        assert_too_big(Array::meshgrid(&[&x, &x], Indexing::Xy), "meshgrid");
    });
}

/// The rank limit of NumPy 2 (64 dimensions), with its wording.
fn too_many_dimensions<B: ArrayBackend>(dev: &B) {
    let r = Array::<f64, B>::zeros(&[1; 65], dev);
    assert_invalid(
        r,
        "maximum supported dimension for an ndarray is currently 64, found 65",
    );
    assert_eq!(Array::<f64, B>::zeros(&[1; 64], dev).unwrap().ndim(), 64);
    let a = Array::<f64, B>::zeros(&[1; 60], dev).unwrap();
    assert_invalid(a.expand_dims([0, 1, 2, 3, 4]), "found 65");
    assert_invalid(a.tile(&[1; 65]), "found 65");
}

/// broadcast_to and the ops that broadcast: the count used to wrap (`sum()` of a broadcast
/// of `[1 << 32, 1 << 32]` gave 0.0).
fn broadcasts_to_too_big_shapes<B: ArrayBackend>(dev: &B) {
    let one = Array::<f64, B>::ones(&[1], dev).unwrap();
    assert_too_big(one.broadcast_to(&[1 << 32, 1 << 32]), "broadcast_to");
    // 2^61 f64 are 2^64 bytes; 2^60 - 1 of them fit.
    assert_too_big(one.broadcast_to(&[1 << 61]), "broadcast_to");
    let fits = one.broadcast_to(&[(1 << 60) - 1]).unwrap();
    assert_eq!(fits.size(), (1 << 60) - 1);
    let col = wide_u8(dev, 1 << 32).reshape(&[-1, 1]).unwrap();
    let row = wide_u8(dev, 1 << 32).reshape(&[1, -1]).unwrap();
    assert!(matches!(
        Array::broadcast_arrays(&[&col, &row]),
        Err(Error::TooBig { .. })
    ));
    assert!(matches!(col.try_add(&row), Err(Error::TooBig { .. })));
}

/// tile, repeat, pad, concatenate, stack and outer with results too big to exist; each used
/// to wrap its shape (`tile(&[1 << 63])` of `[2]` gave `[0]`) or panic.
fn shape_building_ops_overflow<B: ArrayBackend>(dev: &B) {
    in_child(dev, "shape_building_ops_overflow", || {
        let a = Array::<f64, B>::from_vec(vec![1.0, 2.0], &[2], dev).unwrap();
        assert_too_big(a.tile(&[1 << 63]), "tile");
        assert_too_big(a.tile(&[usize::MAX, usize::MAX]), "tile");
        assert_too_big(a.tile(&[1 << 62]), "tile");
        assert_too_big(a.repeat(1 << 63, None), "repeat");
        assert_too_big(a.repeat(usize::MAX, Some(0)), "repeat");
        assert_too_big(a.repeat(vec![usize::MAX, 1], Some(0)), "repeat");
        assert_too_big(a.repeat(vec![1 << 62, 1 << 62], Some(0)), "repeat");
        assert_too_big(a.pad_constant(&[(0, usize::MAX)], 0.0), "pad");
        assert_too_big(a.pad_constant(&[(usize::MAX, usize::MAX)], 0.0), "pad");
        assert_too_big(a.pad_constant(&[(1 << 61, 0)], 0.0), "pad");
        // Views of 2^62 bytes each: two make 2^63 (too big), four used to wrap to 0.
        let w = wide_u8(dev, 1 << 62);
        assert_too_big(Array::concatenate(&[&w, &w], 0), "concatenate");
        assert_too_big(Array::concatenate(&[&w, &w, &w, &w], 0), "concatenate");
        assert_too_big(Array::stack(&[&w, &w], 0), "concatenate");
        let x = wide_u8(dev, 1 << 32);
        assert_too_big(x.outer(&x), "outer");
        // Their sizes were fine before and still are.
        assert_eq!(a.tile(&[2, 3]).unwrap().shape(), &[2, 6]);
        assert_eq!(a.pad_constant(&[(1, 2)], 0.0).unwrap().shape(), &[5]);
    });
}

/// reshape with shapes whose product overflows: never a match, never a wrap.
fn reshape_with_overflowing_shapes<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::ramp(3, 0.0, 1.0, dev).unwrap();
    assert_invalid(a.reshape(&[-1, 1 << 62]), "cannot reshape array of size 3");
    assert_invalid(a.reshape(&[1 << 62, 1 << 62, 3]), "cannot reshape");
    // 2^62 * 4 wraps to 0 in usize: an empty array must not take that shape.
    let e = Array::<f64, B>::zeros(&[0], dev).unwrap();
    assert_invalid(e.reshape(&[1 << 62, 4]), "cannot reshape");
    assert_too_big(e.reshape(&[1 << 62, 1 << 62, 0]), "reshape");
    assert_eq!(e.reshape(&[1 << 40, 0]).unwrap().shape(), &[1 << 40, 0]);
}

/// from_raw_parts with layouts that reach outside the buffer, including the reproduction
/// whose check wrapped (a stride of `2^62 + 2^40`) and one that starts before element 0.
fn raw_layouts_outside_the_buffer<B: ArrayBackend>(dev: &B) {
    let a = Array::<f64, B>::zeros(&[4], dev).unwrap();
    let raw = |l: Layout| Array::from_raw_parts(a.buffer().clone(), l, dev.clone());
    let wrapped = Layout::new(vec![3], vec![(1 << 62) + (1 << 40)], 0);
    assert_invalid(raw(wrapped), "outside a buffer of 4 elements");
    assert_invalid(raw(Layout::new(vec![3], vec![-1], 0)), "outside a buffer");
    assert_invalid(raw(Layout::new(vec![2, 2], vec![MAX, 1], 0)), "outside");
    assert_invalid(raw(Layout::new(vec![2], vec![MIN], 3)), "outside");
    assert_invalid(raw(Layout::new(vec![1], vec![1], 4)), "outside");
    assert_too_big(
        raw(Layout::new(vec![usize::MAX], vec![1], 0)),
        "from_raw_parts",
    );
    assert_too_big(
        raw(Layout::new(vec![1 << 32, 1 << 32], vec![0, 0], 0)),
        "from_raw_parts",
    );
    // Valid ones: reversed, broadcast, empty with any offset.
    let rev = raw(Layout::new(vec![4], vec![-1], 3)).unwrap();
    assert_eq!(rev.to_vec().unwrap(), vec![0.0; 4]);
    assert_eq!(
        raw(Layout::new(vec![5, 4], vec![0, 1], 0)).unwrap().size(),
        20
    );
    assert_eq!(
        raw(Layout::new(vec![0], vec![MAX], 1 << 40))
            .unwrap()
            .size(),
        0
    );
}

/// Slices with steps and bounds at the ends of `isize`, against NumPy's values
/// (`np.arange(10)[::sys.maxsize]` is `[0]`, `[::-sys.maxsize-1]` is `[9]`, ...).
fn slices_with_extreme_steps<B: ArrayBackend>(dev: &B) {
    let a = Array::<i64, B>::ramp(10, 0, 1, dev).unwrap();
    let got = |args: &[SliceArg]| a.slice(args).unwrap().to_vec().unwrap();
    assert_eq!(got(&s![..;MAX]), vec![0]);
    assert_eq!(got(&s![..;MIN]), vec![9]);
    assert_eq!(got(&s![..;-MAX]), vec![9]);
    assert_eq!(got(&s![MIN..;MAX]), vec![0]);
    assert_eq!(got(&s![MAX..;MIN]), vec![9]);
    assert_eq!(got(&s![-MAX..;MAX]), vec![0]);
    assert_eq!(got(&s![3..MIN;MIN]), vec![3]);
    assert_eq!(got(&s![..MIN;MIN]), vec![9]);
    assert_eq!(got(&s![MIN..MAX]), (0..10).collect::<Vec<i64>>());
    assert_eq!(got(&s![MAX..MIN;-1]), (0..10).rev().collect::<Vec<i64>>());
    assert_eq!(got(&s![MIN..;-1]), Vec::<i64>::new());
    assert_eq!(got(&s![..MAX;-1]), Vec::<i64>::new());
    assert_eq!(got(&s![MAX..]), Vec::<i64>::new());
    assert_eq!(
        a.slice(&s![..MAX]).unwrap().sum().unwrap().item().unwrap(),
        45
    );
    // On a 3-element array the length used to come out as usize::MAX (and `sum` spun).
    let b = Array::<f64, B>::ramp(3, 0.0, 1.0, dev).unwrap();
    for (args, want) in [
        (s![..;MIN], vec![2.0]),
        (s![..;MAX], vec![0.0]),
        (s![1..;MAX], vec![1.0]),
        (s![5..;MIN], vec![2.0]),
    ] {
        let v = b.slice(&args).unwrap();
        assert_eq!(v.shape(), &[1]);
        assert_eq!(v.to_vec().unwrap(), want);
        assert_eq!(v.sum().unwrap().item().unwrap(), want[0]);
    }
    // Two axes (np.arange(12.).reshape(3, 4)).
    let m = Array::<f64, B>::ramp(12, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    let g = |args: &[SliceArg]| {
        let v = m.slice(args).unwrap();
        (v.shape().to_vec(), v.to_vec().unwrap())
    };
    assert_eq!(g(&s![MIN..MAX;MAX, ..;MIN]), (vec![1, 1], vec![3.0]));
    assert_eq!(g(&s![..;-MAX, 1..;MAX]), (vec![1, 1], vec![9.0]));
    assert_eq!(g(&s![MAX..;MIN, MIN..;-1]), (vec![1, 0], vec![]));
    assert_eq!(g(&s![..;2, ..;MAX]), (vec![2, 1], vec![0.0, 8.0]));
    assert_eq!(
        g(&s![-1..MIN;MIN]),
        (vec![1, 4], vec![8.0, 9.0, 10.0, 11.0])
    );
    assert_eq!(
        g(&s![MAX..MIN;-2, ..;-3]),
        (vec![2, 2], vec![11.0, 8.0, 3.0, 0.0])
    );
    // Indices past the end are errors, huge ones included (never a wrap to -1).
    assert!(matches!(
        a.slice(&s![usize::MAX]),
        Err(Error::IndexOutOfRange { .. })
    ));
    assert!(matches!(
        a.slice(&s![MIN]),
        Err(Error::IndexOutOfRange { .. })
    ));
    assert_eq!(a.slice(&s![..=MAX]).unwrap().size(), 10);
}

/// A user op that panics on 3.0: stops an in-place op midway through a mutable view.
#[derive(Clone, Copy)]
struct PanicAt(f64);

impl cuprite::ops::Declared for PanicAt {
    const DECL: cuprite::ops::registry::OpDecl = cuprite::ops::registry::OpDecl {
        name: "panic_at",
        kind: cuprite::ops::registry::OpKind::Unary,
        tolerance: cuprite::ops::registry::Tolerance::Exact,
        rust: "PanicAt",
    };
    fn examples() -> Vec<Self> {
        vec![PanicAt(3.0)]
    }
}

impl UnaryOp<f64> for PanicAt {
    type Out = f64;
    const NAME: &'static str = "panic_at";
    fn apply(&self, x: f64) -> f64 {
        if x == self.0 {
            panic!("user op panics on {x}");
        }
        x + 100.0
    }
}

/// A panic inside a `slice_mut` op leaves the base with its own shape, strides and offset,
/// and nothing outside the view written (partly written values inside it are allowed).
fn panicking_op_in_mutable_view<B: ArrayBackend>(dev: &B) {
    let mut a = Array::<f64, B>::ramp(12, 0.0, 1.0, dev)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    let layout = a.layout().clone();
    let r = catch_unwind(AssertUnwindSafe(|| {
        a.slice_mut(&s![0..2, ..;-2])
            .unwrap()
            .map_op_inplace(PanicAt(3.0))
    }));
    // The CPU runs the op on the host and panics; a GPU backend cannot run a host closure
    // and returns an error or runs it elsewhere. The base must be intact either way.
    assert_eq!(a.layout(), &layout);
    assert_eq!(a.shape(), &[3, 4]);
    assert_eq!(a.strides(), &[4, 1]);
    let v = a.to_vec().unwrap();
    let in_view = |i: usize| i / 4 < 2 && i % 4 % 2 == 1;
    for (i, &x) in v.iter().enumerate() {
        let old = i as f64;
        if in_view(i) {
            assert!(x == old || x == old + 100.0, "element {i}: {x}");
        } else {
            assert_eq!(x, old, "element {i} outside the view was written");
        }
    }
    if dev.label() == "cpu" {
        assert!(r.is_err(), "the op should have panicked on the CPU");
    }
    // The array keeps working, through views too.
    a.slice_mut(&s![.., 0]).unwrap().fill(-1.0).unwrap();
    assert_eq!(
        a.slice(&s![.., 0]).unwrap().to_vec().unwrap(),
        vec![-1.0; 3]
    );
    // A panic in a nested view restores the base too.
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut outer = a.slice_mut(&s![1.., ..]).unwrap();
        outer
            .slice_mut(&s![.., 3..])
            .unwrap()
            .map_op_inplace(PanicAt(11.0))
    }));
    assert_eq!(a.layout(), &layout);
    if dev.label() == "cpu" {
        assert!(r.is_err());
    }
}

cuprite::test_backends!(
    creation_with_too_big_shapes,
    too_many_dimensions,
    broadcasts_to_too_big_shapes,
    shape_building_ops_overflow,
    reshape_with_overflowing_shapes,
    raw_layouts_outside_the_buffer,
    slices_with_extreme_steps,
    panicking_op_in_mutable_view,
);
