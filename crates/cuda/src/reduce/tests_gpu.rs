//! The reduction family on a GPU, checked against the CPU backend on the same data and views
//! (every op and element type, every kernel variant), plus a bandwidth report. Ignored by
//! default (they need a CUDA device and NVRTC); without a device they print why and pass.

use crate::test_support::gpu;
use crate::{Cuda, CudaBuffer};
use cuprite_core::backend::{BackendBase, DeviceTimer, ReduceOps};
use cuprite_core::ops::*;
use cuprite_core::{
    bf16, c128, c64, f16, ArgKind, DType, Element, Float, Inexact, Layout, Real, Scalar,
};
use cuprite_cpu::Cpu;

fn fclose(x: f64, y: f64, tol: f64) -> bool {
    (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * x.abs().max(y.abs())
}

/// Equal for integers and bools; within rounding for floats (both NaN counts as equal).
fn close<T: Element>(a: T, b: T) -> bool {
    match (a.to_scalar(), b.to_scalar()) {
        // Two units in the last place of the 16-bit floats.
        (Scalar::F16(x), Scalar::F16(y)) => fclose(x.to_f64(), y.to_f64(), 2e-3),
        (Scalar::BF16(x), Scalar::BF16(y)) => fclose(x.to_f64(), y.to_f64(), 1.6e-2),
        (Scalar::F32(x), Scalar::F32(y)) => fclose(x as f64, y as f64, 1e-5),
        (Scalar::F64(x), Scalar::F64(y)) => fclose(x, y, 1e-11),
        (Scalar::C64(x), Scalar::C64(y)) => {
            fclose(x.re as f64, y.re as f64, 1e-5) && fclose(x.im as f64, y.im as f64, 1e-5)
        }
        (Scalar::C128(x), Scalar::C128(y)) => {
            fclose(x.re, y.re, 1e-11) && fclose(x.im, y.im, 1e-11)
        }
        _ => a == b,
    }
}

#[track_caller]
fn assert_close<T: Element>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    if let Some(i) = got.iter().zip(want).position(|(a, b)| !close(*a, *b)) {
        panic!(
            "{what} ({}): first difference at {i} of {}: gpu {:?} vs cpu {:?}",
            T::DTYPE,
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// Small integer-valued data (exact sums in any order), NaN every `nan_every` elements.
fn vals<T: Element>(n: usize, seed: usize, nan_every: usize) -> Vec<T> {
    (0..n)
        .map(|i| {
            let k = ((i + seed) * 37 % 11) as i64 - 5;
            let v = match T::DTYPE {
                DType::Bool => Scalar::Bool(k > 0),
                DType::U8 => Scalar::I64(k + 5),
                d if d.is_integer() => Scalar::I64(k),
                DType::C64 | DType::C128 => {
                    Scalar::C128(c128::new(k as f64, ((i * 7) % 5) as f64 - 2.0))
                }
                _ => Scalar::F64(k as f64),
            };
            let x = T::from_scalar(v);
            if nan_every > 0 && i % nan_every == nan_every / 2 && T::DTYPE.is_float() {
                T::from_scalar(Scalar::F64(f64::NAN))
            } else if nan_every > 0 && i % nan_every == nan_every / 2 && T::DTYPE.is_complex() {
                T::from_scalar(Scalar::C128(c128::new(1.0, f64::NAN)))
            } else {
                x
            }
        })
        .collect()
}

/// The same data on both backends, and views of it to reduce.
struct Case<T: Element> {
    g: CudaBuffer<T>,
    c: <Cpu as BackendBase>::Buffer<T>,
    views: Vec<(&'static str, Layout)>,
}

const SHAPE: [usize; 4] = [2, 3, 50, 70];

fn case<T: Element>(dev: &Cuda, cpu: &Cpu, data: Vec<T>) -> Case<T> {
    let base = Layout::contiguous(&SHAPE);
    let views = vec![
        ("contiguous", base.clone()),
        ("permuted", base.permute("t", &[3, 1, 0, 2]).unwrap()),
        ("reversed step 2", base.slice_axis(3, 69, 35, -2)),
        (
            "offset slice",
            base.slice_axis(2, 1, 40, 1).slice_axis(3, 3, 61, 1),
        ),
        (
            "broadcast",
            Layout::contiguous(&[3, 1, 70])
                .broadcast_to("t", &SHAPE)
                .unwrap(),
        ),
        (
            "one element kept",
            base.slice_axis(0, 1, 1, 1).slice_axis(1, 2, 1, 1),
        ),
    ];
    Case {
        g: dev.from_vec(data.clone()).unwrap(),
        c: cpu.from_vec(data).unwrap(),
        views,
    }
}

const AXES: [&[usize]; 9] = [
    &[],
    &[0],
    &[1],
    &[3],
    &[0, 2],
    &[1, 3],
    &[2, 3],
    &[0, 1, 2],
    &[0, 1, 2, 3],
];

fn cpu_vec<T: Element>(cpu: &Cpu, b: &<Cpu as BackendBase>::Buffer<T>) -> Vec<T> {
    let n = cpu.buffer_len(b);
    cpu.to_vec(b, &Layout::contiguous(&[n])).unwrap()
}

fn check_reduce<T: Element, K: ReduceOp<T>>(dev: &Cuda, cpu: &Cpu, k: &Case<T>, op: K) {
    for (name, l) in &k.views {
        for axes in AXES {
            let got = dev.reduce(op, &k.g, l, axes).unwrap();
            let want = cpu.reduce(op, &k.c, l, axes).unwrap();
            let what = format!("{} over {axes:?} of {name}", K::NAME);
            assert_close(&dev.download(&got).unwrap(), &cpu_vec(cpu, &want), &what);
        }
    }
}

fn check_args_and_scans<T: Element>(dev: &Cuda, cpu: &Cpu, k: &Case<T>) {
    for (name, l) in &k.views {
        for axis in 0..l.ndim() {
            for kind in [ArgKind::Min, ArgKind::Max] {
                if l.shape()[axis] == 0 {
                    continue;
                }
                let got = dev.arg_reduce(kind, &k.g, l, axis).unwrap();
                let want = cpu.arg_reduce(kind, &k.c, l, axis).unwrap();
                let what = format!("{kind:?} along {axis} of {name}");
                assert_close(&dev.download(&got).unwrap(), &cpu_vec(cpu, &want), &what);
            }
            let got = dev.scan(CumSum, &k.g, l, axis).unwrap();
            let want = cpu.scan(CumSum, &k.c, l, axis).unwrap();
            let what = format!("cumsum along {axis} of {name}");
            assert_close(&dev.download(&got).unwrap(), &cpu_vec(cpu, &want), &what);
        }
    }
}

fn every_type_ops<T: Element>(dev: &Cuda, cpu: &Cpu, k: &Case<T>) {
    check_reduce(dev, cpu, k, Sum);
    check_reduce(dev, cpu, k, NanSum);
    check_reduce(dev, cpu, k, Mean);
    check_reduce(dev, cpu, k, All);
    check_reduce(dev, cpu, k, Any);
    check_reduce(dev, cpu, k, CountNonzero);
    check_reduce(dev, cpu, k, NanMean);
    check_args_and_scans(dev, cpu, k);
}

fn real_ops<T: Real>(dev: &Cuda, cpu: &Cpu, k: &Case<T>) {
    check_reduce(dev, cpu, k, Min);
    check_reduce(dev, cpu, k, Max);
    check_reduce(dev, cpu, k, NanMin);
    check_reduce(dev, cpu, k, NanMax);
}

fn float_ops<T: Float>(dev: &Cuda, cpu: &Cpu, k: &Case<T>) {
    check_reduce(dev, cpu, k, DdofMean { ddof: 1.0 });
    check_reduce(dev, cpu, k, DdofMean { ddof: 200.0 });
}

fn inexact_ops<T: Inexact>(dev: &Cuda, cpu: &Cpu, k: &Case<T>) {
    check_reduce(dev, cpu, k, SumAbsSq);
}

/// Products and cumulative products on short lanes (long float products leave the range).
fn prod_ops<T: Element>(dev: &Cuda, cpu: &Cpu) {
    let data: Vec<T> = vals(4 * 6 * 5, 3, 0);
    let (g, c) = (
        dev.from_vec(data.clone()).unwrap(),
        cpu.from_vec(data).unwrap(),
    );
    let l = Layout::contiguous(&[4, 6, 5]);
    for v in [l.clone(), l.permute("t", &[2, 0, 1]).unwrap()] {
        for axes in [&[][..], &[0], &[1], &[2], &[0, 2], &[0, 1, 2]] {
            let got = dev.reduce(Prod, &g, &v, axes).unwrap();
            let want = cpu.reduce(Prod, &c, &v, axes).unwrap();
            assert_close(&dev.download(&got).unwrap(), &cpu_vec(cpu, &want), "prod");
        }
        for axis in 0..3 {
            let got = dev.scan(CumProd, &g, &v, axis).unwrap();
            let want = cpu.scan(CumProd, &c, &v, axis).unwrap();
            assert_close(
                &dev.download(&got).unwrap(),
                &cpu_vec(cpu, &want),
                "cumprod",
            );
        }
    }
}

macro_rules! for_types {
    ($dev:expr, $cpu:expr, $nan:expr, [$($t:ty),*], $f:ident) => {$(
        let k = case::<$t>($dev, $cpu, vals(SHAPE.iter().product(), 1, $nan));
        $f($dev, $cpu, &k);
    )*};
}

#[test]
#[ignore = "needs a CUDA device"]
fn every_op_and_type_matches_the_cpu_on_every_view() {
    let Some(dev) = gpu() else { return };
    let cpu = Cpu::new();
    for nan in [0usize, 97] {
        for_types!(
            &dev,
            &cpu,
            nan,
            [bool, u8, i8, u16, u32, u64, i32, i64, f16, bf16, f32, f64, c64, c128],
            every_type_ops
        );
        for_types!(
            &dev,
            &cpu,
            nan,
            [u8, i8, u16, u32, u64, i32, i64, f16, bf16, f32, f64],
            real_ops
        );
        for_types!(&dev, &cpu, nan, [f16, bf16, f32, f64], float_ops);
        for_types!(
            &dev,
            &cpu,
            nan,
            [f16, bf16, f32, f64, c64, c128],
            inexact_ops
        );
    }
    prod_ops::<bool>(&dev, &cpu);
    prod_ops::<u8>(&dev, &cpu);
    prod_ops::<i32>(&dev, &cpu);
    prod_ops::<i64>(&dev, &cpu);
    prod_ops::<f32>(&dev, &cpu);
    prod_ops::<f64>(&dev, &cpu);
    prod_ops::<c64>(&dev, &cpu);
    prod_ops::<c128>(&dev, &cpu);
}

#[test]
#[ignore = "needs a CUDA device"]
fn empty_and_zero_dimensional_views() {
    let Some(dev) = gpu() else { return };
    let cpu = Cpu::new();
    let data: Vec<f64> = vals(12, 0, 0);
    let (g, c) = (
        dev.from_vec(data.clone()).unwrap(),
        cpu.from_vec(data.clone()).unwrap(),
    );
    let e = Layout::contiguous(&[3, 0, 4]);
    for axes in [&[][..], &[0], &[1], &[0, 1], &[1, 2], &[0, 1, 2]] {
        for (got, want) in [
            (
                dev.reduce(Sum, &g, &e, axes).unwrap(),
                cpu.reduce(Sum, &c, &e, axes).unwrap(),
            ),
            (
                dev.reduce(Mean, &g, &e, axes).unwrap(),
                cpu.reduce(Mean, &c, &e, axes).unwrap(),
            ),
            (
                dev.reduce(DdofMean { ddof: 1.0 }, &g, &e, axes).unwrap(),
                cpu.reduce(DdofMean { ddof: 1.0 }, &c, &e, axes).unwrap(),
            ),
            (
                dev.reduce(Min, &g, &e, axes).unwrap(),
                cpu.reduce(Min, &c, &e, axes).unwrap(),
            ),
            (
                dev.reduce(NanMax, &g, &e, axes).unwrap(),
                cpu.reduce(NanMax, &c, &e, axes).unwrap(),
            ),
        ] {
            assert_close(&dev.download(&got).unwrap(), &cpu_vec(&cpu, &want), "empty");
        }
        let got = dev.reduce(All, &g, &e, axes).unwrap();
        let want = cpu.reduce(All, &c, &e, axes).unwrap();
        assert_close(
            &dev.download(&got).unwrap(),
            &cpu_vec(&cpu, &want),
            "all of empty",
        );
    }
    for axis in 0..3 {
        assert_eq!(dev.scan(CumSum, &g, &e, axis).unwrap().len(), 0);
    }
    let z = Layout::new(vec![], vec![], 5);
    let s = dev.reduce(Sum, &g, &z, &[]).unwrap();
    assert_eq!(dev.download(&s).unwrap(), vec![data[5]]);
    let m = dev.reduce(Max, &g, &z, &[]).unwrap();
    assert_eq!(dev.download(&m).unwrap(), vec![data[5]]);
    let c = dev.scan(CumProd, &g, &z, 0);
    assert!(c.is_err(), "a 0-d view has no axis 0");
}

/// Large views that take the chunked, block and vector paths, against the CPU.
#[test]
#[ignore = "needs a CUDA device"]
fn large_views_take_every_kernel_path() {
    let Some(dev) = gpu() else { return };
    let cpu = Cpu::new();
    let n = 3_000 * 2_001;
    let data: Vec<f64> = vals(n + 7, 5, 0);
    let (g, c) = (
        dev.from_vec(data.clone()).unwrap(),
        cpu.from_vec(data).unwrap(),
    );
    let shapes: [(&[usize], usize); 4] = [
        (&[3000, 2001], 1),
        (&[3, 2_000_667], 3),
        (&[2_000_667, 3], 5),
        (&[n], 7),
    ];
    for (shape, off) in shapes {
        let l = Layout::new(
            shape.to_vec(),
            Layout::contiguous(shape).strides().to_vec(),
            off,
        );
        let all: Vec<usize> = (0..shape.len()).collect();
        let mut sets: Vec<Vec<usize>> = (0..shape.len()).map(|a| vec![a]).collect();
        sets.push(all);
        for axes in &sets {
            for (got, want) in [
                (
                    dev.reduce(Sum, &g, &l, axes).unwrap(),
                    cpu.reduce(Sum, &c, &l, axes).unwrap(),
                ),
                (
                    dev.reduce(Max, &g, &l, axes).unwrap(),
                    cpu.reduce(Max, &c, &l, axes).unwrap(),
                ),
            ] {
                let what = format!("{shape:?} at {off} over {axes:?}");
                assert_close(&dev.download(&got).unwrap(), &cpu_vec(&cpu, &want), &what);
            }
            let got = dev.reduce(NanMean, &g, &l, axes).unwrap();
            let want = cpu.reduce(NanMean, &c, &l, axes).unwrap();
            assert_close(
                &dev.download(&got).unwrap(),
                &cpu_vec(&cpu, &want),
                "nanmean",
            );
        }
        for axis in 0..shape.len() {
            let got = dev.arg_reduce(ArgKind::Max, &g, &l, axis).unwrap();
            let want = cpu.arg_reduce(ArgKind::Max, &c, &l, axis).unwrap();
            assert_close(
                &dev.download(&got).unwrap(),
                &cpu_vec(&cpu, &want),
                "argmax",
            );
            let got = dev.scan(CumSum, &g, &l, axis).unwrap();
            let want = cpu.scan(CumSum, &c, &l, axis).unwrap();
            assert_close(
                &dev.download(&got).unwrap(),
                &cpu_vec(&cpu, &want),
                "cumsum",
            );
        }
    }
    // Integer scans wrap like the CPU's; NaN and ties in a long arg-reduction.
    let ints: Vec<i64> = (0..1_000_003)
        .map(|i| (i as i64).wrapping_mul(0x5851_f42d_4c95_7f2d))
        .collect();
    let (gi, ci) = (
        dev.from_vec(ints.clone()).unwrap(),
        cpu.from_vec(ints).unwrap(),
    );
    let l = Layout::contiguous(&[1_000_003]);
    let got = dev.scan(CumSum, &gi, &l, 0).unwrap();
    let want = cpu.scan(CumSum, &ci, &l, 0).unwrap();
    assert_close(
        &dev.download(&got).unwrap(),
        &cpu_vec(&cpu, &want),
        "wrapping cumsum",
    );
    let got = dev.reduce(Prod, &gi, &l, &[0]).unwrap();
    let want = cpu.reduce(Prod, &ci, &l, &[0]).unwrap();
    assert_close(
        &dev.download(&got).unwrap(),
        &cpu_vec(&cpu, &want),
        "wrapping prod",
    );
    let mut f = vec![1.0f64; 5_000_000];
    f[4_000_000] = 3.0;
    f[1_234_567] = 3.0;
    let gf = dev.from_vec(f.clone()).unwrap();
    let l = Layout::contiguous(&[5_000_000]);
    let a = dev.arg_reduce(ArgKind::Max, &gf, &l, 0).unwrap();
    assert_eq!(dev.download(&a).unwrap(), vec![1_234_567]);
    f[3_000_000] = f64::NAN;
    f[4_500_000] = f64::NAN;
    let gf = dev.from_vec(f).unwrap();
    let a = dev.arg_reduce(ArgKind::Min, &gf, &l, 0).unwrap();
    assert_eq!(dev.download(&a).unwrap(), vec![3_000_000]);
    let m = dev.reduce(Max, &gf, &l, &[0]).unwrap();
    assert!(dev.download(&m).unwrap()[0].is_nan());
    let m = dev.reduce(NanMax, &gf, &l, &[0]).unwrap();
    assert_eq!(dev.download(&m).unwrap(), vec![3.0]);
}

/// Device time of `f` (best of a few runs after a warm-up), in seconds.
fn time(dev: &Cuda, mut f: impl FnMut()) -> f64 {
    f();
    dev.synchronize().unwrap();
    let mut best = f64::INFINITY;
    for _ in 0..10 {
        let mut a = dev.create_event().unwrap();
        let mut b = dev.create_event().unwrap();
        dev.record_event(&mut a).unwrap();
        f();
        dev.record_event(&mut b).unwrap();
        best = best.min(dev.elapsed_secs(&a, &b).unwrap());
    }
    best
}

#[test]
#[ignore = "needs a CUDA device"]
fn bandwidth_report() {
    let Some(dev) = gpu() else { return };
    let (r, c) = (5000usize, 10000usize);
    let data: Vec<f64> = (0..r * c).map(|i| (i % 1000) as f64 * 0.001).collect();
    let x = dev.from_vec(data).unwrap();
    let l = Layout::contiguous(&[r, c]);
    let bytes = (r * c * 8) as f64;
    let report = |name: &str, secs: f64, moved: f64| {
        println!(
            "{name:<24} {:>9.1} us  {:>7.0} GB/s",
            secs * 1e6,
            moved / secs / 1e9
        );
    };
    for (name, axes) in [
        ("sum", &[0usize, 1][..]),
        ("sum(axis=0)", &[0]),
        ("sum(axis=1)", &[1]),
    ] {
        let t = time(&dev, || drop(dev.reduce(Sum, &x, &l, axes).unwrap()));
        report(name, t, bytes);
    }
    let t = time(&dev, || {
        drop(dev.reduce(SumAbsSq, &x, &l, &[0, 1]).unwrap())
    });
    report("sum_abs_sq", t, bytes);
    let t = time(&dev, || drop(dev.reduce(Max, &x, &l, &[0, 1]).unwrap()));
    report("max", t, bytes);
    let t = time(&dev, || drop(dev.reduce(Mean, &x, &l, &[0]).unwrap()));
    report("mean(axis=0)", t, bytes);
    let t = time(&dev, || {
        drop(dev.arg_reduce(ArgKind::Max, &x, &l, 1).unwrap())
    });
    report("argmax(axis=1)", t, bytes);
    let t = time(&dev, || {
        drop(dev.arg_reduce(ArgKind::Max, &x, &l, 0).unwrap())
    });
    report("argmax(axis=0)", t, bytes);
    let flat = Layout::contiguous(&[r * c]);
    let t = time(&dev, || {
        drop(dev.arg_reduce(ArgKind::Max, &x, &flat, 0).unwrap())
    });
    report("argmax", t, bytes);
    let t = time(&dev, || drop(dev.scan(CumSum, &x, &flat, 0).unwrap()));
    report("cumsum (read+write)", t, 2.0 * bytes);
    let t = time(&dev, || drop(dev.scan(CumSum, &x, &l, 0).unwrap()));
    report("cumsum(axis=0)", t, 2.0 * bytes);
    let t = time(&dev, || drop(dev.scan(CumSum, &x, &l, 1).unwrap()));
    report("cumsum(axis=1)", t, 2.0 * bytes);
    let xf: CudaBuffer<f32> = dev.from_vec(vec![1.5f32; r * c]).unwrap();
    let t = time(&dev, || drop(dev.reduce(Sum, &xf, &l, &[0, 1]).unwrap()));
    report("sum f32", t, bytes / 2.0);
    let t = time(&dev, || drop(dev.reduce(Sum, &xf, &l, &[0]).unwrap()));
    report("sum(axis=0) f32", t, bytes / 2.0);
}
