//! The memory primitives on a GPU, checked against the CPU backend on the same data and
//! views, plus a bandwidth report. Ignored by default (they need a CUDA device and NVRTC);
//! without a device they print why and pass.

use crate::test_support::{assert_same, gpu, vals};
use crate::Cuda;
use cuprite_core::{c128, c64, BackendBase, Element, Layout, Numeric, Result, Scalar};
use cuprite_cpu::Cpu;

const BASE: usize = 24000;

/// Views of a buffer of `BASE` elements covering every path: runs, 0-d, empty, transposes
/// (2-D, batched, partial tiles, reversed), strided slices, broadcasts, thin transposes.
fn views() -> Vec<Layout> {
    let c3 = Layout::contiguous(&[6, 50, 70]);
    let t2 = Layout::new(vec![157, 150], vec![1, 157], 11);
    vec![
        Layout::contiguous(&[BASE]),
        Layout::new(vec![7, 13], vec![13, 1], 5),
        Layout::new(vec![], vec![], 17),
        Layout::new(vec![0, 5], vec![5, 1], 0),
        Layout::new(vec![3, 0], vec![1, 3], 4),
        Layout::contiguous(&[120, 200]).transposed(),
        t2.clone(),
        t2.slice_axis(0, 156, 157, -1),
        c3.permute("t", &[0, 2, 1]).unwrap(),
        c3.permute("t", &[2, 1, 0]).unwrap(),
        c3.permute("t", &[1, 2, 0]).unwrap(),
        c3.permute("t", &[2, 0, 1]).unwrap(),
        Layout::contiguous(&[4, 5, 6, 7])
            .permute("t", &[3, 1, 0, 2])
            .unwrap(),
        Layout::contiguous(&[100, 200]).slice_axis(1, 3, 60, 3),
        Layout::contiguous(&[1, 200])
            .broadcast_to("t", &[50, 200])
            .unwrap(),
        Layout::contiguous(&[200, 1])
            .broadcast_to("t", &[200, 50])
            .unwrap(),
        Layout::contiguous(&[3000, 4]).transposed(),
        Layout::contiguous(&[5, 7]).transposed(),
    ]
}

fn check_copies<T: Element>(dev: &Cuda) -> Result<()> {
    let data = vals::<T>(BASE, 0);
    let g = dev.from_vec(data.clone())?;
    let c = Cpu::new().from_vec(data)?;
    for l in views() {
        let want = Cpu::new().to_vec(&c, &l)?;
        let out = dev.copy(&g, &l)?;
        assert_eq!(out.len(), l.size());
        let got = dev.to_vec(&out, &Layout::contiguous(l.shape()))?;
        assert_same(&got, &want, &format!("copy of {l:?}"));
        assert_same(&dev.to_vec(&g, &l)?, &want, &format!("to_vec of {l:?}"));
    }
    Ok(())
}

macro_rules! each_type {
    ($f:ident, $($a:expr),*) => {{
        $f::<bool>($($a),*)?;
        $f::<u8>($($a),*)?;
        $f::<i32>($($a),*)?;
        $f::<i64>($($a),*)?;
        $f::<f32>($($a),*)?;
        $f::<f64>($($a),*)?;
        $f::<c64>($($a),*)?;
        $f::<c128>($($a),*)?;
    }};
}

#[test]
#[ignore = "needs a CUDA device"]
fn copies_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_copies, &dev);
    Ok(())
}

/// (destination view, source view) pairs of one shape over `BASE`-element buffers.
fn assign_pairs() -> Vec<(Layout, Layout)> {
    let c = Layout::contiguous(&[120, 200]);
    let t = Layout::contiguous(&[200, 120]).transposed();
    let c3 = Layout::contiguous(&[6, 50, 70]);
    vec![
        (c.clone(), t.clone()),
        (t.clone(), c.clone()),
        (
            Layout::contiguous(&[100, 200]).slice_axis(1, 3, 60, 3),
            Layout::new(vec![100, 60], vec![60, 1], 7),
        ),
        (
            Layout::new(vec![50, 200], vec![200, 1], 9),
            Layout::contiguous(&[1, 200])
                .broadcast_to("t", &[50, 200])
                .unwrap(),
        ),
        (
            c3.permute("t", &[1, 0, 2]).unwrap(),
            Layout::contiguous(&[50, 70, 6])
                .permute("t", &[0, 2, 1])
                .unwrap(),
        ),
        (
            Layout::new(vec![], vec![], 3),
            Layout::new(vec![], vec![], 9),
        ),
        (
            Layout::new(vec![4, 0], vec![1, 4], 0),
            Layout::new(vec![4, 0], vec![0, 1], 0),
        ),
        (
            Layout::new(vec![1000], vec![1], 13),
            Layout::new(vec![1000], vec![1], 2),
        ),
    ]
}

fn check_assigns<T: Element>(dev: &Cuda) -> Result<()> {
    let cpu = Cpu::new();
    let (d0, s0) = (vals::<T>(BASE, 0), vals::<T>(BASE, 5));
    let src = dev.from_vec(s0.clone())?;
    let csrc = cpu.from_vec(s0)?;
    for (dl, sl) in assign_pairs() {
        let mut dst = dev.from_vec(d0.clone())?;
        let shared = dst.clone();
        let mut cdst = cpu.from_vec(d0.clone())?;
        dev.assign(&mut dst, &dl, &src, &sl)?;
        cpu.assign(&mut cdst, &dl, &csrc, &sl)?;
        let all = Layout::contiguous(&[BASE]);
        let what = format!("assign {sl:?} to {dl:?}");
        assert_same(&dev.to_vec(&dst, &all)?, &cpu.to_vec(&cdst, &all)?, &what);
        assert_same(&dev.to_vec(&shared, &all)?, &d0, "copy-on-write");
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn assigns_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_assigns, &dev);
    let mut a = dev.from_vec(vec![1.0f64; 10])?;
    let e = dev
        .assign(
            &mut a,
            &Layout::contiguous(&[10]),
            &dev.from_vec(vec![2.0f64; 5])?,
            &Layout::contiguous(&[10]),
        )
        .unwrap_err();
    assert!(e.to_string().contains("assign"), "{e}");
    Ok(())
}

fn check_fills<T: Element>(dev: &Cuda) -> Result<()> {
    let cpu = Cpu::new();
    let d0 = vals::<T>(BASE, 0);
    let all = Layout::contiguous(&[BASE]);
    let mut fill_views: Vec<Layout> = views()
        .into_iter()
        .filter(Layout::is_writeable_without_overlap)
        .collect();
    for off in 0..17 {
        for len in [0, 1, 2, 3, 5, 15, 16, 17, 31, 33, 1000, 4099] {
            fill_views.push(Layout::new(vec![len], vec![1], off));
        }
    }
    for v in [T::ZERO, T::ONE, vals::<T>(3, 7)[1]] {
        for l in &fill_views {
            let mut g = dev.from_vec(d0.clone())?;
            let mut c = cpu.from_vec(d0.clone())?;
            dev.fill(&mut g, l, v)?;
            cpu.fill(&mut c, l, v)?;
            let what = format!("fill {v:?} into {l:?}");
            assert_same(&dev.to_vec(&g, &all)?, &cpu.to_vec(&c, &all)?, &what);
        }
        for len in [0, 1, 3, 17, 1000, (1 << 20) + 5] {
            let b = dev.full(len, v)?;
            let got = dev.to_vec(&b, &Layout::contiguous(&[len]))?;
            assert_same(&got, &vec![v; len], &format!("full({len}, {v:?})"));
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn fills_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_type!(check_fills, &dev);
    for v in [-0.0f64, f64::NAN, f64::INFINITY] {
        let got = dev.to_vec(&dev.full(37, v)?, &Layout::contiguous(&[37]))?;
        assert!(got.iter().all(|x| x.to_bits() == v.to_bits()), "{v}");
    }
    let got = dev.to_vec(&dev.full(9, -0.0f32)?, &Layout::contiguous(&[9]))?;
    assert!(got.iter().all(|x| x.to_bits() == (-0.0f32).to_bits()));
    Ok(())
}

/// Values that probe every conversion rule: fractions, saturation limits, infinities, NaN,
/// wrapping integers, complex numbers with imaginary parts.
fn cast_sources<T: Element>() -> Vec<T> {
    let floats = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.7,
        2.5,
        127.9,
        255.0,
        255.9,
        256.0,
        300.7,
        -300.7,
        2147483647.0,
        2147483647.5,
        2147483648.0,
        -2147483648.9,
        -2147483649.0,
        9.3e18,
        -9.3e18,
        1e30,
        -1e30,
        1e300,
        1e-40,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let ints = [
        0i64,
        1,
        -1,
        127,
        128,
        255,
        256,
        300,
        -300,
        i32::MAX as i64,
        i32::MIN as i64,
        i32::MAX as i64 + 1,
        i64::MAX,
        i64::MIN,
        (1 << 53) + 1,
        (1 << 24) + 1,
    ];
    let mut v: Vec<T> = floats
        .iter()
        .map(|&x| T::from_scalar(Scalar::F64(x)))
        .collect();
    v.extend(floats.iter().map(|&x| {
        T::from_scalar(Scalar::C128(c128::new(
            x,
            if x.is_nan() { 1.0 } else { -x },
        )))
    }));
    v.extend(
        floats
            .iter()
            .map(|&x| T::from_scalar(Scalar::C64(c64::new(0.0, x as f32)))),
    );
    v.extend(ints.iter().map(|&x| T::from_scalar(Scalar::I64(x))));
    v.extend([true, false].map(|b| T::from_scalar(Scalar::Bool(b))));
    v
}

fn check_cast<T: Element, U: Element>(dev: &Cuda) -> Result<()> {
    let cpu = Cpu::new();
    let src = cast_sources::<T>();
    let n = src.len();
    // An n x n matrix whose rows are rotations of the sources, read as is, reversed and
    // transposed (the gather and the tiled paths).
    let data: Vec<T> = (0..n * n).map(|i| src[(i / n + i % n) % n]).collect();
    let g = dev.from_vec(data.clone())?;
    let c = cpu.from_vec(data)?;
    let sq = Layout::contiguous(&[n, n]);
    for l in [
        Layout::contiguous(&[n * n]),
        sq.slice_axis(1, n - 1, n, -1),
        sq.transposed(),
        Layout::new(vec![], vec![], 3),
    ] {
        let want = cpu.cast::<T, U>(&c, &l)?;
        let got = dev.cast::<T, U>(&g, &l)?;
        let out = Layout::contiguous(l.shape());
        let what = format!("cast {} -> {} of {l:?}", T::DTYPE, U::DTYPE);
        assert_same(&dev.to_vec(&got, &out)?, &cpu.to_vec(&want, &out)?, &what);
    }
    Ok(())
}

macro_rules! each_target {
    ($f:ident, $t:ty, $dev:expr) => {{
        $f::<$t, bool>($dev)?;
        $f::<$t, u8>($dev)?;
        $f::<$t, i32>($dev)?;
        $f::<$t, i64>($dev)?;
        $f::<$t, f32>($dev)?;
        $f::<$t, f64>($dev)?;
        $f::<$t, c64>($dev)?;
        $f::<$t, c128>($dev)?;
    }};
}

#[test]
#[ignore = "needs a CUDA device"]
fn casts_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    each_target!(check_cast, bool, &dev);
    each_target!(check_cast, u8, &dev);
    each_target!(check_cast, i32, &dev);
    each_target!(check_cast, i64, &dev);
    each_target!(check_cast, f32, &dev);
    each_target!(check_cast, f64, &dev);
    each_target!(check_cast, c64, &dev);
    each_target!(check_cast, c128, &dev);
    Ok(())
}

fn check_ramp<T: Numeric>(dev: &Cuda, start: Scalar, step: Scalar) -> Result<()> {
    let (a, s) = (T::from_scalar(start), T::from_scalar(step));
    for n in [0, 1, 1000, 100_003] {
        let got = dev.to_vec(&dev.arange(n, a, s)?, &Layout::contiguous(&[n]))?;
        let c = Cpu::new().arange(n, a, s)?;
        let want = Cpu::new().to_vec(&c, &Layout::contiguous(&[n]))?;
        assert_same(&got, &want, &format!("arange({n}, {a:?}, {s:?})"));
    }
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn ramps_match_the_cpu() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    use Scalar::{C128, F64, I64};
    check_ramp::<u8>(&dev, I64(250), I64(3))?;
    check_ramp::<i32>(&dev, I64(i32::MAX as i64 - 5), I64(7))?;
    check_ramp::<i32>(&dev, I64(-5), I64(-100_000))?;
    check_ramp::<i64>(&dev, I64(-5), I64(i64::MAX / 3))?;
    for (a, s) in [(0.0, 1.0), (0.1, 0.1), (1e8, 1e-3), (-2.5, 1.0 / 3.0)] {
        check_ramp::<f32>(&dev, F64(a), F64(s))?;
        check_ramp::<f64>(&dev, F64(a), F64(s))?;
    }
    let (a, s) = (C128(c128::new(1.0, 2.0)), C128(c128::new(0.3, -0.1)));
    check_ramp::<c64>(&dev, a, s)?;
    check_ramp::<c128>(&dev, a, s)?;
    let inf = C128(c128::new(0.5, f64::INFINITY));
    check_ramp::<c128>(&dev, a, inf)?;
    check_ramp::<c64>(&dev, a, inf)?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA device"]
fn sharing_bad_views_and_labels() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    assert_eq!(dev.label(), format!("cuda:{}", dev.ordinal()));
    let mut a = dev.from_vec(vec![1i32, 2, 3])?;
    let b = a.clone();
    dev.make_unique(&mut a)?;
    assert_ne!(a.device_ptr(), b.device_ptr());
    let p = a.device_ptr();
    dev.make_unique(&mut a)?;
    assert_eq!(a.device_ptr(), p, "a unique buffer is kept");
    dev.fill(&mut a, &Layout::contiguous(&[3]), 9)?;
    assert_eq!(dev.to_vec(&b, &Layout::contiguous(&[3]))?, vec![1, 2, 3]);
    assert_eq!(dev.buffer_len(&a), 3);
    let e = dev.to_vec(&a, &Layout::contiguous(&[4])).unwrap_err();
    assert!(e.to_string().contains("to_vec"), "{e}");
    let deep = Layout::new(vec![2; 9], (0..9).map(|i| 3isize.pow(i)).collect(), 0);
    let big = dev.full(3usize.pow(9), 1u8)?;
    assert!(dev.copy(&big, &deep).is_err());
    let e: Vec<u8> = dev.to_vec(&dev.from_vec(Vec::new())?, &Layout::contiguous(&[0]))?;
    assert!(e.is_empty());
    dev.synchronize()
}

/// Seconds per call of `f`, after a warm-up, over `reps` calls queued back to back.
fn time<R>(dev: &Cuda, reps: usize, mut f: impl FnMut() -> Result<R>) -> Result<f64> {
    f()?;
    dev.synchronize()?;
    let t = std::time::Instant::now();
    for _ in 0..reps {
        f()?;
    }
    dev.synchronize()?;
    Ok(t.elapsed().as_secs_f64() / reps as f64)
}

#[test]
#[ignore = "needs a CUDA device"]
fn bandwidth_report() -> Result<()> {
    let Some(dev) = gpu() else { return Ok(()) };
    let report = |what: &str, bytes: f64, s: f64| {
        println!(
            "{what:<48} {:>9.3} ms {:>7.0} GB/s",
            s * 1e3,
            bytes / s / 1e9
        );
    };
    let n = 250_000_000;
    let gb2 = (n * 8) as f64;
    let mut x = dev.full(n, 0.5f64)?;
    let all = Layout::contiguous(&[n]);
    report(
        "memset 2 GB (full 0.0)",
        gb2,
        time(&dev, 10, || dev.full(n, 0.0f64))?,
    );
    report(
        "ones 2 GB f64 (full 1.0)",
        gb2,
        time(&dev, 10, || dev.full(n, 1.0f64))?,
    );
    report(
        "fill 2 GB f64 in place",
        gb2,
        time(&dev, 10, || dev.fill(&mut x, &all, 2.0))?,
    );
    let xs = Layout::new(vec![n / 2], vec![2], 1);
    report(
        "fill every 2nd f64 (1 GB written)",
        gb2 / 2.0,
        time(&dev, 10, || dev.fill(&mut x, &xs, 3.0))?,
    );
    let x = dev.arange(n, 0.0f64, 1.0)?;
    report(
        "arange 2 GB f64",
        gb2,
        time(&dev, 10, || dev.arange(n, 0.0f64, 1.0))?,
    );
    report(
        "copy 2 GB f64 (dtod)",
        2.0 * gb2,
        time(&dev, 10, || dev.copy(&x, &all))?,
    );
    report(
        "cast 2 GB f64 -> f32",
        1.5 * gb2,
        time(&dev, 10, || dev.cast::<f64, f32>(&x, &all))?,
    );
    let xs = Layout::new(vec![n / 2], vec![2], 0);
    report(
        "gather every 2nd f64 (1 GB out)",
        gb2,
        time(&dev, 10, || dev.copy(&x, &xs))?,
    );
    let (r, c) = (5000, 10000);
    let mb400 = (r * c * 8) as f64;
    let t = Layout::contiguous(&[r, c]).transposed();
    let m = Layout::contiguous(&[r * c]);
    report(
        "copy 5000x10000 f64 contiguous",
        2.0 * mb400,
        time(&dev, 20, || dev.copy(&x, &m))?,
    );
    report(
        "copy 5000x10000 f64 transposed (tiled)",
        2.0 * mb400,
        time(&dev, 20, || dev.copy(&x, &t))?,
    );
    let b = Layout::contiguous(&[100, 500, 1000]).permute("t", &[0, 2, 1])?;
    report(
        "copy (100,500,1000) f64 permuted (0,2,1)",
        2.0 * mb400,
        time(&dev, 20, || dev.copy(&x, &b))?,
    );
    let mut y = dev.full(r * c, 0.0f64)?;
    let yl = Layout::contiguous(&[c, r]);
    report(
        "assign transposed into 10000x5000 f64",
        2.0 * mb400,
        time(&dev, 20, || dev.assign(&mut y, &yl, &x, &t))?,
    );
    let xf = dev.cast::<f64, f32>(&x, &Layout::contiguous(&[r * c * 2]))?;
    let tf = Layout::contiguous(&[10000, 10000]).transposed();
    report(
        "copy 10000x10000 f32 transposed (tiled)",
        mb400 * 2.0,
        time(&dev, 20, || dev.copy(&xf, &tf))?,
    );
    report(
        "cast 5000x10000 f64 transposed -> f32",
        mb400 * 1.5,
        time(&dev, 20, || dev.cast::<f64, f32>(&x, &t))?,
    );
    let xz = dev.cast::<f64, c128>(&x, &Layout::contiguous(&[5000 * 5000]))?;
    let tz = Layout::contiguous(&[5000, 5000]).transposed();
    report(
        "copy 5000x5000 c128 transposed (tiled)",
        2.0 * mb400,
        time(&dev, 20, || dev.copy(&xz, &tz))?,
    );
    let xb = dev.cast::<f64, u8>(&x, &Layout::contiguous(&[20000 * 10000]))?;
    let tb = Layout::contiguous(&[20000, 10000]).transposed();
    report(
        "copy 20000x10000 u8 transposed (tiled)",
        mb400,
        time(&dev, 20, || dev.copy(&xb, &tb))?,
    );
    let t1 = Layout::contiguous(&[n / 4, 4]).transposed();
    report(
        "copy (62.5M, 4) f64 transposed (gather)",
        gb2 * 2.0,
        time(&dev, 10, || dev.copy(&x, &t1))?,
    );
    Ok(())
}
