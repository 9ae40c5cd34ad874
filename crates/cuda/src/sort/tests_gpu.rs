//! The sort kernels compiled by NVRTC for every instantiation (no GPU needed), and the sort,
//! selection and uniqueness primitives on a GPU checked against the CPU backend on the same
//! data and views (bit for bit where the CPU result is determined: sorts, argsorts, unique
//! values and indices), plus a timing report. GPU tests are ignored by default; without a
//! device they print why and pass.

use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::backend::{SelectOps, SortOps};
use cuprite_core::{c128, c64, BackendBase, DType, Element, Layout, Scalar};
use cuprite_cpu::Cpu;
use std::cmp::Ordering;

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_sort_program_compiles() {
    use crate::nvrtc::compile_check::assert_compiles;
    use cuprite_kernels::sort as ks;
    for t in DType::ALL.map(crate::ctype::ctype) {
        assert_compiles("sort.cu", &ks::radix_program(t));
        assert_compiles("sort.cu", &ks::search_program(t));
        assert_compiles("sort.cu", &ks::unique_program(t));
        assert_compiles("sort.cu", &ks::util_program(t));
    }
}

/// Bitwise equality (floats by their bits, so signed zeros and NaN payloads count).
fn bits_eq<T: Element>(a: T, b: T) -> bool {
    match (a.to_scalar(), b.to_scalar()) {
        (Scalar::F32(x), Scalar::F32(y)) => x.to_bits() == y.to_bits(),
        (Scalar::F64(x), Scalar::F64(y)) => x.to_bits() == y.to_bits(),
        (Scalar::F16(x), Scalar::F16(y)) => x.to_bits() == y.to_bits(),
        (Scalar::BF16(x), Scalar::BF16(y)) => x.to_bits() == y.to_bits(),
        (Scalar::C64(x), Scalar::C64(y)) => {
            x.re.to_bits() == y.re.to_bits() && x.im.to_bits() == y.im.to_bits()
        }
        (Scalar::C128(x), Scalar::C128(y)) => {
            x.re.to_bits() == y.re.to_bits() && x.im.to_bits() == y.im.to_bits()
        }
        _ => a == b,
    }
}

#[track_caller]
fn assert_bits<T: Element>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what} ({}): length", T::DTYPE);
    if let Some(i) = (0..got.len()).find(|&i| !bits_eq(got[i], want[i])) {
        panic!(
            "{what} ({}): first difference at {i} of {}: {:?} vs CPU {:?}",
            T::DTYPE,
            got.len(),
            got[i],
            want[i]
        );
    }
}

#[track_caller]
fn assert_equiv<T: Element>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what} ({}): length", T::DTYPE);
    if let Some(i) = (0..got.len()).find(|&i| got[i].sort_cmp(&want[i]) != Ordering::Equal) {
        panic!(
            "{what} ({}): first difference at {i}: {:?} vs CPU {:?}",
            T::DTYPE,
            got[i],
            want[i]
        );
    }
}

/// xorshift64*.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Values with many ties; floats include NaNs (two payloads, both signs), signed zeros and
/// infinities; `spread` bounds the number of distinct finite values.
fn data<T: Element>(n: usize, seed: u64, spread: u64) -> Vec<T> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..n)
        .map(|_| {
            let u = r.next();
            let v = (u >> 8) % spread.max(1);
            let f = v as f64 * 0.75 - spread as f64 * 0.3;
            let special = (u & 0xff) as u8;
            let fl = match special {
                0 => f64::NAN,
                1 => -f64::NAN,
                2 => -0.0,
                3 => 0.0,
                4 => f64::INFINITY,
                5 => f64::NEG_INFINITY,
                6 => f64::from_bits(0x7ff0_0000_0000_0123),
                _ => f,
            };
            match T::DTYPE {
                DType::Bool => T::from_scalar(Scalar::Bool(v % 2 == 1)),
                DType::U8 => T::from_scalar(Scalar::U8(v as u8)),
                DType::I8 => T::from_scalar(Scalar::I8((u as i8) >> (v % 7))),
                DType::I16 => T::from_scalar(Scalar::I16((u as i16) >> (v % 15))),
                DType::U16 => T::from_scalar(Scalar::U16((u as u16) >> (v % 15))),
                DType::I32 => T::from_scalar(Scalar::I32((u as i32) >> (v % 31))),
                DType::U32 => T::from_scalar(Scalar::U32((u as u32) >> (v % 31))),
                DType::I64 => T::from_scalar(Scalar::I64((u as i64) >> (v % 63))),
                DType::U64 => T::from_scalar(Scalar::U64(u >> (v % 63))),
                // Spread over f16's range (bf16's is f32's); NaNs keep their signs.
                DType::F16 => T::from_scalar(Scalar::F16(cuprite_core::f16::from_f64(fl * 16.0))),
                DType::BF16 => T::from_scalar(Scalar::BF16(cuprite_core::bf16::from_f64(fl))),
                DType::F32 => T::from_scalar(Scalar::F32(fl as f32)),
                DType::F64 => T::from_scalar(Scalar::F64(fl)),
                DType::C64 => T::from_scalar(Scalar::C64(c64::new(
                    (v % 7) as f32 - 3.0,
                    if special < 4 {
                        fl as f32
                    } else {
                        (v % 5) as f32
                    },
                ))),
                DType::C128 => T::from_scalar(Scalar::C128(c128::new(
                    if special == 9 {
                        -0.0
                    } else {
                        (v % 7) as f64 - 3.0
                    },
                    if special < 4 { fl } else { (v % 5) as f64 },
                ))),
            }
        })
        .collect()
}

/// Views to test over a buffer of `buf_len` elements: (layout, axis).
fn views() -> Vec<(Layout, usize)> {
    let mut v = vec![
        (Layout::contiguous(&[1]), 0),
        (Layout::contiguous(&[2]), 0),
        (Layout::contiguous(&[37]), 0),
        (Layout::contiguous(&[4096]), 0),
        (Layout::contiguous(&[4097]), 0),
        (Layout::contiguous(&[70_001]), 0),
        (Layout::contiguous(&[5, 7]), 0),
        (Layout::contiguous(&[5, 7]), 1),
        (Layout::contiguous(&[3, 5000]), 1),
        (Layout::contiguous(&[3, 5000]), 0),
        (Layout::contiguous(&[300, 1]), 0),
        (Layout::contiguous(&[300, 1]), 1),
        (Layout::contiguous(&[2, 3, 4]), 1),
        (Layout::contiguous(&[0, 4]), 1),
        (Layout::contiguous(&[4, 0]), 1),
        // A transposed view, lanes along either axis.
        (Layout::contiguous(&[40, 900]).transposed(), 0),
        (Layout::contiguous(&[40, 900]).transposed(), 1),
        // Lanes longer than a block sort handles, strided.
        (Layout::contiguous(&[5000, 6]).transposed(), 1),
        // 600 lanes of 300 (several lane passes would be needed for > 256 lanes if long).
        (Layout::contiguous(&[600, 300]), 1),
        // 300 lanes of 5000: lane digits in the radix sort.
        (Layout::contiguous(&[300, 5000]), 1),
    ];
    // Negative stride with an offset.
    v.push((Layout::new(vec![9000], vec![-1], 8999), 0));
    // Contiguous at an odd offset (used in place, not 16-byte aligned).
    v.push((Layout::new(vec![70_001], vec![1], 3), 0));
    v.push((Layout::new(vec![3, 5000], vec![5000, 1], 1), 1));
    // Broadcast rows.
    v.push((Layout::new(vec![4, 6000], vec![0, 1], 0), 1));
    v.push((Layout::new(vec![4, 600], vec![0, 1], 0), 0));
    v
}

fn check_sorts<T: Element>(dev: &Cuda, seed: u64) {
    let cpu = Cpu;
    for (i, (l, axis)) in views().into_iter().enumerate() {
        let buf_len = l.offset_range().map_or(0, |r| r.1);
        let spread = if i % 2 == 0 { 13 } else { 1 << 40 };
        let xs: Vec<T> = data(buf_len, seed + i as u64, spread);
        let xc = cpu.from_vec(xs.clone()).unwrap();
        let xg = dev.from_vec(xs).unwrap();
        let what = format!("{:?} strides {:?} axis {axis}", l.shape(), l.strides());
        let n = l.size();
        let c = Layout::contiguous(l.shape());
        let want = cpu.to_vec(&cpu.sort(&xc, &l, axis).unwrap(), &c).unwrap();
        let got = dev.to_vec(&dev.sort(&xg, &l, axis).unwrap(), &c).unwrap();
        assert_bits(&got, &want, &format!("sort {what}"));
        let want = cpu
            .to_vec(&cpu.argsort(&xc, &l, axis).unwrap(), &c)
            .unwrap();
        let got = dev
            .to_vec(&dev.argsort(&xg, &l, axis).unwrap(), &c)
            .unwrap();
        assert_bits(&got, &want, &format!("argsort {what}"));
        let len = l.shape()[axis];
        if n > 0 {
            // Partition: a sort (compare against the CPU's sort).
            let want = cpu.to_vec(&cpu.sort(&xc, &l, axis).unwrap(), &c).unwrap();
            let got = dev.partition(&xg, &l, axis, len / 2).unwrap();
            assert_bits(
                &dev.to_vec(&got, &c).unwrap(),
                &want,
                &format!("partition {what}"),
            );
            let got = dev.argpartition(&xg, &l, axis, len / 2).unwrap();
            let want = cpu
                .to_vec(&cpu.argsort(&xc, &l, axis).unwrap(), &c)
                .unwrap();
            assert_bits(
                &dev.to_vec(&got, &c).unwrap(),
                &want,
                &format!("argpartition {what}"),
            );
            // Order statistics.
            let kth: Vec<usize> = [0, len / 3, len / 2, len - 1]
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let m = kth.len();
            let oc = Layout::contiguous(&[m * n / len]);
            let want = cpu
                .to_vec(&cpu.select_kth(&xc, &l, axis, &kth).unwrap(), &oc)
                .unwrap();
            let got = dev
                .to_vec(&dev.select_kth(&xg, &l, axis, &kth).unwrap(), &oc)
                .unwrap();
            assert_equiv(&got, &want, &format!("select_kth {kth:?} {what}"));
        }
        // Unique over the whole view.
        let (vc, kc) = cpu.unique(&xc, &l).unwrap();
        let (vg, kg) = dev.unique(&xg, &l).unwrap();
        assert_eq!(kg, kc, "unique count {what}");
        let k1 = Layout::contiguous(&[kc]);
        assert_bits(
            &dev.to_vec(&vg, &k1).unwrap(),
            &cpu.to_vec(&vc, &k1).unwrap(),
            &format!("unique {what}"),
        );
        let (vc, ic, invc, cc, kc) = cpu.unique_all(&xc, &l).unwrap();
        let (vg, ig, invg, cg, kg) = dev.unique_all(&xg, &l).unwrap();
        assert_eq!(kg, kc, "unique_all count {what}");
        let k1 = Layout::contiguous(&[kc]);
        assert_bits(
            &dev.to_vec(&vg, &k1).unwrap(),
            &cpu.to_vec(&vc, &k1).unwrap(),
            &format!("unique_all values {what}"),
        );
        assert_bits(
            &dev.to_vec(&ig, &k1).unwrap(),
            &cpu.to_vec(&ic, &k1).unwrap(),
            &format!("unique_all indices {what}"),
        );
        assert_bits(
            &dev.to_vec(&cg, &k1).unwrap(),
            &cpu.to_vec(&cc, &k1).unwrap(),
            &format!("unique_all counts {what}"),
        );
        assert_bits(
            &dev.to_vec(&invg, &c).unwrap(),
            &cpu.to_vec(&invc, &c).unwrap(),
            &format!("unique_all inverse {what}"),
        );
    }
}

fn check_search<T: Element>(dev: &Cuda, seed: u64) {
    let cpu = Cpu;
    for (ns, nv) in [(0usize, 5usize), (1, 7), (1000, 3001), (5, 0)] {
        let mut s: Vec<T> = data(ns, seed, 50);
        s.sort_by(T::sort_cmp);
        let v: Vec<T> = data(2 * nv, seed + 1, 60);
        let (sc, sg) = (cpu.from_vec(s.clone()).unwrap(), dev.from_vec(s).unwrap());
        let (vc, vg) = (cpu.from_vec(v.clone()).unwrap(), dev.from_vec(v).unwrap());
        let ls = Layout::contiguous(&[ns]);
        // Values through a strided view (every other element, reversed).
        let lv = if nv == 0 {
            Layout::contiguous(&[0])
        } else {
            Layout::new(vec![nv], vec![-2], 2 * nv - 1)
        };
        let lo = Layout::contiguous(&[nv]);
        for right in [false, true] {
            let want = cpu
                .to_vec(&cpu.searchsorted(&sc, &ls, &vc, &lv, right).unwrap(), &lo)
                .unwrap();
            let got = dev
                .to_vec(&dev.searchsorted(&sg, &ls, &vg, &lv, right).unwrap(), &lo)
                .unwrap();
            assert_bits(
                &got,
                &want,
                &format!("searchsorted {ns}/{nv} right={right}"),
            );
        }
        // A reversed view of a reversed buffer is the sorted run again.
        if ns > 0 {
            let mut rev: Vec<T> = cpu.to_vec(&sc, &ls).unwrap();
            rev.reverse();
            let rg = dev.from_vec(rev).unwrap();
            let lr = Layout::new(vec![ns], vec![-1], ns - 1);
            let want = cpu
                .to_vec(&cpu.searchsorted(&sc, &ls, &vc, &lv, true).unwrap(), &lo)
                .unwrap();
            let got = dev
                .to_vec(&dev.searchsorted(&rg, &lr, &vg, &lv, true).unwrap(), &lo)
                .unwrap();
            assert_bits(&got, &want, "searchsorted through a reversed sorted view");
        }
    }
}

/// `merge_runs` of sorted runs of these lengths equals the stable sort of the whole, bit
/// for bit (ties between runs keep the runs' order: -0.0 before 0.0 or after, as they came).
fn check_merge<T: Element>(dev: &Cuda, seed: u64) {
    use cuprite_core::Array;
    for (k, lens) in [
        vec![3usize, 0, 7, 1],
        vec![1000, 3001],
        vec![0, 0],
        vec![257, 0, 1, 4099, 0],
        vec![1500, 700, 0, 2049, 1024, 3, 999, 4097],
        vec![5],
        vec![],
    ]
    .into_iter()
    .enumerate()
    {
        let mut all: Vec<T> = Vec::new();
        let mut bounds = vec![0usize];
        for (r, &len) in lens.iter().enumerate() {
            let mut run: Vec<T> = data(len, seed + (10 * k + r) as u64, 40);
            run.sort_by(T::sort_cmp);
            all.extend(run);
            bounds.push(all.len());
        }
        let mut want = all.clone();
        want.sort_by(T::sort_cmp);
        let runs = Array::<T, Cuda>::from_vec(all.clone(), &[all.len()], dev).unwrap();
        if lens.is_empty() {
            assert!(super::merge::merge_runs(&runs, &bounds).is_err());
            continue;
        }
        let got = super::merge::merge_runs(&runs, &bounds).unwrap();
        assert_bits(
            &got.to_vec().unwrap(),
            &want,
            &format!("merge_runs {lens:?}"),
        );
        // The runs read through a view (every element of a longer buffer, offset).
        if !all.is_empty() {
            let mut padded = vec![all[0]];
            padded.extend(all.iter().copied());
            let p = Array::<T, Cuda>::from_vec(padded, &[all.len() + 1], dev).unwrap();
            let view = p.slice(&cuprite_core::s![1..]).unwrap();
            let got = super::merge::merge_runs(&view, &bounds).unwrap();
            assert_bits(&got.to_vec().unwrap(), &want, "merge_runs of a view");
        }
    }
    // Offsets that do not tile the array, and an array of two axes, are refused.
    let a = Array::<T, Cuda>::from_vec(data(6, seed, 5), &[6], dev).unwrap();
    for bad in [vec![0, 3, 5], vec![0, 4, 3, 6], vec![1, 6], vec![0]] {
        let e = super::merge::merge_runs(&a, &bad).unwrap_err().to_string();
        assert!(e.contains("merge_runs"), "{e}");
    }
    let m = a.reshape(&[2, 3]).unwrap();
    assert!(super::merge::merge_runs(&m, &[0, 6]).is_err());
}

macro_rules! each_type {
    ($f:ident, $dev:expr, $seed:expr) => {
        $f::<bool>($dev, $seed);
        $f::<u8>($dev, $seed);
        $f::<i32>($dev, $seed);
        $f::<i64>($dev, $seed);
        $f::<i8>($dev, $seed);
        $f::<u16>($dev, $seed);
        $f::<u64>($dev, $seed);
        $f::<cuprite_core::f16>($dev, $seed);
        $f::<cuprite_core::bf16>($dev, $seed);
        $f::<f32>($dev, $seed);
        $f::<f64>($dev, $seed);
        $f::<c64>($dev, $seed);
        $f::<c128>($dev, $seed);
    };
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn sorts_match_the_cpu() {
    let Some(dev) = gpu() else { return };
    each_type!(check_sorts, &dev, 1);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn searchsorted_matches_the_cpu() {
    let Some(dev) = gpu() else { return };
    each_type!(check_search, &dev, 7);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn merged_runs_are_the_stable_sort() {
    let Some(dev) = gpu() else { return };
    each_type!(check_merge, &dev, 11);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn large_sorts_match_the_cpu() {
    let Some(dev) = gpu() else { return };
    let cpu = Cpu;
    // Sizes past one tile, with many tiles and many lanes; random bits (every digit varies).
    for (shape, axis) in [
        (vec![3_000_017usize], 0usize),
        (vec![1000, 4099], 1),
        (vec![4099, 1000], 0),
    ] {
        let l = Layout::contiguous(&shape);
        let n = l.size();
        let mut r = Rng(42);
        let xf: Vec<f32> = (0..n)
            .map(|_| (r.next() >> 40) as f32 * 1e-3 - 8000.0)
            .collect();
        let xd: Vec<f64> = (0..n)
            .map(|_| f64::from_bits(r.next() >> 2) - 1.0)
            .collect();
        let xi: Vec<i64> = (0..n).map(|_| r.next() as i64).collect();
        macro_rules! cmp {
            ($xs:expr) => {{
                let xs = $xs;
                let (xc, xg) = (cpu.from_vec(xs.clone()).unwrap(), dev.from_vec(xs).unwrap());
                let want = cpu
                    .to_vec(&cpu.argsort(&xc, &l, axis).unwrap(), &l)
                    .unwrap();
                let got = dev
                    .to_vec(&dev.argsort(&xg, &l, axis).unwrap(), &l)
                    .unwrap();
                assert_bits(&got, &want, &format!("argsort {shape:?} axis {axis}"));
                let want = cpu.to_vec(&cpu.sort(&xc, &l, axis).unwrap(), &l).unwrap();
                let got = dev.to_vec(&dev.sort(&xg, &l, axis).unwrap(), &l).unwrap();
                assert_bits(&got, &want, &format!("sort {shape:?} axis {axis}"));
            }};
        }
        cmp!(xf);
        cmp!(xd);
        cmp!(xi);
    }
}

/// Median time of `reps` runs of `f` in milliseconds (after one warm-up), synchronised.
fn time_ms(dev: &Cuda, reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    dev.synchronize_device().unwrap();
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = std::time::Instant::now();
            f();
            dev.synchronize_device().unwrap();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored --nocapture on a GPU host"]
fn sort_timings() {
    let Some(dev) = gpu() else { return };
    let n = 50_000_000usize;
    let l = Layout::contiguous(&[n]);
    let mut r = Rng(7);
    let xf: Vec<f32> = (0..n)
        .map(|_| (r.next() >> 40) as f32 / (1u64 << 24) as f32)
        .collect();
    let xd: Vec<f64> = (0..n)
        .map(|_| (r.next() >> 11) as f64 / (1u64 << 53) as f64)
        .collect();
    let (gf, gd) = (dev.from_vec(xf).unwrap(), dev.from_vec(xd).unwrap());
    let reps = 20;
    let t = time_ms(&dev, reps, || drop(dev.sort(&gf, &l, 0).unwrap()));
    println!("cuda_sort_f32_5e7 {t:.3} ms");
    let t = time_ms(&dev, reps, || drop(dev.sort(&gd, &l, 0).unwrap()));
    println!("cuda_sort_f64_5e7 {t:.3} ms");
    // The same values as two sorted halves, merged.
    let halves = {
        let a = cuprite_core::Array::from_raw_parts(gd.clone(), l.clone(), dev.clone()).unwrap();
        let h = n / 2;
        let lo = a.slice(&cuprite_core::s![..h]).unwrap().sort(0).unwrap();
        let hi = a.slice(&cuprite_core::s![h..]).unwrap().sort(0).unwrap();
        cuprite_core::Array::concatenate(&[&lo, &hi], 0).unwrap()
    };
    let t = time_ms(&dev, reps, || {
        drop(super::merge::merge_runs(&halves, &[0, n / 2, n]).unwrap())
    });
    println!("cuda_merge_2_runs_f64_5e7 {t:.3} ms");
    let t = time_ms(&dev, reps, || drop(dev.argsort(&gf, &l, 0).unwrap()));
    println!("cuda_argsort_f32_5e7 {t:.3} ms");
    let t = time_ms(&dev, reps, || drop(dev.unique(&gf, &l).unwrap()));
    println!("cuda_unique_f32_5e7 {t:.3} ms");
    let l2 = Layout::contiguous(&[50_000, 1000]);
    let t = time_ms(&dev, reps, || drop(dev.sort(&gf, &l2, 1).unwrap()));
    println!("cuda_sort_f32_50000x1000_axis1 {t:.3} ms");
    let l3 = Layout::contiguous(&[1000, 50_000]);
    let t = time_ms(&dev, reps, || drop(dev.sort(&gf, &l3, 1).unwrap()));
    println!("cuda_sort_f32_1000x50000_axis1 {t:.3} ms");
    let t = time_ms(&dev, reps, || {
        drop(dev.select_kth(&gd, &l, 0, &[n / 2]).unwrap())
    });
    println!("cuda_median_f64_5e7 {t:.3} ms");
}
