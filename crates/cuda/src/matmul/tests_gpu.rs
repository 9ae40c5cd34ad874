//! The batched GEMM on a GPU, checked against the CPU backend on the same data and views
//! (every element type; contiguous, transposed, sliced, reversed, broadcast and doubly
//! strided operands; collapsible, looped and gathered batches; split-K integer products), plus
//! a GEMM rate report. Ignored by default (they need a CUDA device, cuBLAS and NVRTC); without
//! a device they print why and pass.

use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::backend::MatmulOps;
use cuprite_core::{c128, DType, Layout, Numeric, Scalar};
use cuprite_cpu::{Cpu, CpuBuffer};
use std::time::Instant;

/// `n` pseudo-random elements: any 64-bit pattern for integers (products wrap), small
/// integers for floats (every partial sum stays exact, so any summation order agrees).
fn data<T: Numeric>(n: usize, seed: u64) -> Vec<T> {
    let mut s = seed.wrapping_mul(0x9e3779b97f4a7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            match T::DTYPE {
                DType::U8 | DType::I32 | DType::I64 => T::from_scalar(Scalar::I64(s as i64)),
                _ => T::from_scalar(Scalar::C128(c128::new(
                    (s % 9) as f64 - 4.0,
                    ((s >> 8) % 9) as f64 - 4.0,
                ))),
            }
        })
        .collect()
}

/// Buffer length a layout needs.
fn span(l: &Layout) -> usize {
    l.offset_range().map_or(l.offset() + 1, |(_, hi)| hi)
}

fn c(shape: &[usize]) -> Layout {
    Layout::contiguous(shape)
}

fn t(shape: &[usize]) -> Layout {
    Layout::contiguous(shape).transposed()
}

fn l(shape: &[usize], strides: &[isize], offset: usize) -> Layout {
    Layout::new(shape.to_vec(), strides.to_vec(), offset)
}

/// Views exercising every path of the planner: (name, la, lb).
fn cases() -> Vec<(&'static str, Layout, Layout)> {
    let (m, k, n) = (37, 29, 41);
    let mk = (m * k) as isize;
    let mut v = vec![
        ("1x1x1", c(&[1, 1]), c(&[1, 1])),
        ("3x5x7", c(&[3, 5]), c(&[5, 7])),
        ("tile edges", c(&[67, 130]), c(&[130, 65])),
        ("A^T", t(&[k, m]), c(&[k, n])),
        ("B^T", c(&[m, k]), t(&[n, k])),
        ("A^T B^T", t(&[k, m]), t(&[n, k])),
        ("row slice", l(&[m, k], &[k as isize + 3, 1], 2), c(&[k, n])),
        (
            "col major ld",
            l(&[m, k], &[1, m as isize + 5], 1),
            l(&[k, n], &[1, k as isize + 2], 3),
        ),
        (
            "rows reversed",
            l(&[m, k], &[-(k as isize), 1], (m - 1) * k),
            c(&[k, n]),
        ),
        (
            "cols reversed",
            c(&[m, k]),
            l(&[k, n], &[n as isize, -1], n - 1),
        ),
        (
            "broadcast row/col",
            l(&[m, k], &[0, 1], 0),
            l(&[k, n], &[1, 0], 0),
        ),
        (
            "doubly strided",
            l(&[m, k], &[4 * k as isize, 2], 0),
            l(&[k, n], &[3 * n as isize, 3], 1),
        ),
        ("overlapping", l(&[m, k], &[1, 1], 0), c(&[k, n])),
        ("matvec", c(&[300, 200]), c(&[200, 1])),
        ("matvec T", t(&[200, 300]), l(&[200, 1], &[3, 7], 0)),
        ("vecmat", c(&[1, 200]), c(&[200, 300])),
        ("vecmat spaced", l(&[1, 200], &[0, 3], 1), t(&[300, 200])),
        ("dot", c(&[1, 1000]), c(&[1000, 1])),
        ("outer", c(&[m, 1]), c(&[1, n])),
        ("offset", l(&[m, k], &[k as isize, 1], 5), c(&[k, n])),
        ("batch contiguous", c(&[4, m, k]), c(&[4, k, n])),
        (
            "batch broadcast A",
            l(&[4, m, k], &[0, k as isize, 1], 0),
            c(&[4, k, n]),
        ),
        (
            "batch transposed",
            t(&[k, m])
                .insert_axis(0)
                .broadcast_to("t", &[3, m, k])
                .unwrap(),
            c(&[3, k, n]),
        ),
        (
            "batch inner broadcast",
            l(&[2, 3, m, k], &[mk, 0, k as isize, 1], 0),
            c(&[2, 3, k, n]),
        ),
        (
            "batch reversed",
            l(&[4, m, k], &[-mk, k as isize, 1], 3 * m * k),
            c(&[4, k, n]),
        ),
        (
            "batch many calls",
            l(&[20, 5, m, k], &[mk, 0, k as isize, 1], 0),
            c(&[20, 5, k, n]),
        ),
        (
            "batch permuted",
            c(&[2, 3, m, k]),
            l(
                &[2, 3, k, n],
                &[(k * n) as isize, 2 * (k * n) as isize, n as isize, 1],
                0,
            ),
        ),
        ("k = 0", c(&[3, 0]), c(&[0, 4])),
        ("m = 0", c(&[0, 3]), c(&[3, 4])),
        ("n = 0", c(&[2, 3]), c(&[3, 0])),
        ("batch = 0", c(&[0, 2, 3]), c(&[0, 3, 4])),
    ];
    // Nine batch axes that never merge (broadcast every other one): host loops and gathers
    // split past the kernels' eight dimensions.
    let (bm, bk, bn) = (3usize, 4usize, 5usize);
    let mut shape_a = vec![2usize; 9];
    shape_a.extend([bm, bk]);
    let mut strides_a: Vec<isize> = (0..9)
        .map(|d| if d % 2 == 0 { 0 } else { (bm * bk) << (d / 2) } as isize)
        .collect();
    strides_a.extend([bk as isize, 1]);
    let mut shape_b = vec![2usize; 9];
    shape_b.extend([bk, bn]);
    v.push((
        "nine batch axes",
        Layout::new(shape_a, strides_a, 0),
        c(&shape_b),
    ));
    v
}

/// Integer-heavy shapes: split-K, both kernels, long inner dimensions.
fn long_cases() -> Vec<(&'static str, Layout, Layout)> {
    vec![
        ("long dot", c(&[1, 300_000]), c(&[300_000, 1])),
        (
            "long dot spaced",
            l(&[1, 100_000], &[0, 2], 0),
            l(&[100_000, 1], &[-1, 0], 99_999),
        ),
        ("64x64 long k", c(&[64, 20_000]), c(&[20_000, 64])),
        (
            "thin batched long k",
            c(&[2, 5, 5000]),
            l(&[2, 5000, 70], &[70 * 5000, 1, 5000], 0),
        ),
        ("matvec 1000x3000", c(&[1000, 3000]), c(&[3000, 1])),
        ("square 200x300x150", c(&[200, 300]), t(&[150, 300])),
    ]
}

fn check<T: Numeric>(dev: &Cuda, name: &str, la: &Layout, lb: &Layout) {
    let (da, db) = (data::<T>(span(la), 1), data::<T>(span(lb), 2));
    let want = Cpu
        .matmul(
            &CpuBuffer::new(da.clone()),
            la,
            &CpuBuffer::new(db.clone()),
            lb,
        )
        .unwrap();
    let (ga, gb) = (dev.upload(&da).unwrap(), dev.upload(&db).unwrap());
    let got = dev
        .matmul(&ga, la, &gb, lb)
        .unwrap_or_else(|e| panic!("{name} {:?}: {e}", T::DTYPE));
    let got = dev.download(&got).unwrap();
    assert!(
        got == want.as_slice(),
        "{name} {:?}: differs from the CPU backend",
        T::DTYPE
    );
}

fn all_types(dev: &Cuda, name: &str, la: &Layout, lb: &Layout) {
    check::<f32>(dev, name, la, lb);
    check::<f64>(dev, name, la, lb);
    check::<cuprite_core::c64>(dev, name, la, lb);
    check::<c128>(dev, name, la, lb);
    check::<u8>(dev, name, la, lb);
    check::<i32>(dev, name, la, lb);
    check::<i64>(dev, name, la, lb);
}

#[test]
#[ignore = "needs a CUDA device"]
fn every_view_and_type_matches_the_cpu_backend() {
    let Some(dev) = gpu() else { return };
    for (name, la, lb) in cases().iter().chain(&long_cases()) {
        all_types(&dev, name, la, lb);
    }
}

#[test]
#[ignore = "needs a CUDA device"]
fn errors_are_reported() {
    let Some(dev) = gpu() else { return };
    let buf = dev.upload(&[1.0f64; 6]).unwrap();
    let l23 = c(&[2, 3]);
    assert!(dev.matmul(&buf, &l23, &buf, &l23).is_err());
    assert!(dev
        .matmul(&buf, &l23, &buf, &l(&[3, 2], &[2, 1], 1))
        .is_err());
}

fn rate<T: Numeric>(dev: &Cuda, what: &str, la: &Layout, lb: &Layout, reps: usize) {
    let (da, db) = (data::<T>(span(la), 3), data::<T>(span(lb), 4));
    let (ga, gb) = (dev.upload(&da).unwrap(), dev.upload(&db).unwrap());
    drop((da, db));
    let r = la.ndim();
    let (m, k, n) = (la.shape()[r - 2], la.shape()[r - 1], lb.shape()[r - 1]);
    let count: usize = la.shape()[..r - 2].iter().product();
    drop(dev.matmul(&ga, la, &gb, lb).unwrap());
    dev.synchronize_device().unwrap();
    let t0 = Instant::now();
    for _ in 0..reps {
        drop(dev.matmul(&ga, la, &gb, lb).unwrap());
    }
    dev.synchronize_device().unwrap();
    let s = t0.elapsed().as_secs_f64() / reps as f64;
    let flops = 2.0 * (count * m * n * k) as f64;
    eprintln!(
        "{what} {:?}: {:.3} ms, {:.1} TFLOP/s ({:.1} GOP/s)",
        T::DTYPE,
        s * 1e3,
        flops / s / 1e12,
        flops / s / 1e9
    );
}

#[test]
#[ignore = "needs a CUDA device"]
fn gemm_rates() {
    let Some(dev) = gpu() else { return };
    let big = 10_000;
    rate::<f64>(&dev, "10000^3", &c(&[big, big]), &c(&[big, big]), 3);
    rate::<f32>(&dev, "10000^3", &c(&[big, big]), &c(&[big, big]), 3);
    rate::<f64>(&dev, "10000^3 A^T B^T", &t(&[big, big]), &t(&[big, big]), 3);
    rate::<f32>(&dev, "10000^3 A^T", &t(&[big, big]), &c(&[big, big]), 3);
    rate::<c128>(&dev, "4096^3", &c(&[4096, 4096]), &c(&[4096, 4096]), 3);
    rate::<f32>(
        &dev,
        "batch 1000 x 64^3",
        &c(&[1000, 64, 64]),
        &c(&[1000, 64, 64]),
        10,
    );
    rate::<i32>(&dev, "4096^3", &c(&[4096, 4096]), &c(&[4096, 4096]), 3);
    rate::<i64>(&dev, "4096^3", &c(&[4096, 4096]), &c(&[4096, 4096]), 3);
    rate::<u8>(&dev, "4096^3", &c(&[4096, 4096]), &c(&[4096, 4096]), 3);
    rate::<i64>(
        &dev,
        "dot 1e8",
        &c(&[1, 100_000_000]),
        &c(&[100_000_000, 1]),
        5,
    );
    rate::<i32>(
        &dev,
        "matvec 10000^2",
        &c(&[10_000, 10_000]),
        &c(&[10_000, 1]),
        5,
    );
    rate::<i32>(
        &dev,
        "vecmat 10000^2",
        &c(&[1, 10_000]),
        &c(&[10_000, 10_000]),
        5,
    );
}
