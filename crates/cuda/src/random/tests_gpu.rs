//! The random kernels compiled by NVRTC for every instantiation (no GPU needed), the `dist`
//! codes of core checked against the source, and on a GPU every primitive compared bit for
//! bit with the CPU backend for the same draw, plus a timing report. GPU tests are ignored by
//! default; without a device they print why and pass.

use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::backend::RandomOps;
use cuprite_core::random::{Draw, FloatDist, IntDist};
use cuprite_core::{BackendBase, DeviceTimer, Element, Float, Integer, Layout, Scalar};
use cuprite_cpu::Cpu;
use cuprite_kernels::random as kr;

#[test]
#[ignore = "needs libnvrtc: run with --ignored where it is installed"]
fn every_random_program_compiles() {
    use crate::nvrtc::compile_check::assert_compiles_with;
    for t in kr::FLOAT_TYPES.iter().chain(&kr::INT_TYPES) {
        assert_compiles_with("random.cu", &kr::program(t), &kr::OPTIONS);
    }
}

#[test]
fn core_dist_codes_match_the_source() {
    let floats = [
        (
            FloatDist::Normal {
                loc: 0.0,
                scale: 1.0,
            },
            "RD_NORMAL",
        ),
        (
            FloatDist::LogNormal {
                mean: 0.0,
                sigma: 1.0,
            },
            "RD_LOGNORMAL",
        ),
        (FloatDist::Exponential { scale: 1.0 }, "RD_EXPONENTIAL"),
        (
            FloatDist::Gamma {
                shape: 1.0,
                scale: 1.0,
            },
            "RD_GAMMA",
        ),
        (FloatDist::Beta { a: 1.0, b: 1.0 }, "RD_BETA"),
    ];
    let floats = floats
        .into_iter()
        .chain(more_float_dists().into_iter().zip([
            "RD_STANDARD_CAUCHY",
            "RD_STANDARD_T",
            "RD_CHISQUARE",
            "RD_NONCENTRAL_CHISQUARE",
            "RD_NONCENTRAL_CHISQUARE",
            "RD_F",
            "RD_NONCENTRAL_F",
            "RD_LAPLACE",
            "RD_LOGISTIC",
            "RD_GUMBEL",
            "RD_WEIBULL",
            "RD_PARETO",
            "RD_RAYLEIGH",
            "RD_WALD",
            "RD_TRIANGULAR",
            "RD_POWER",
            "RD_VONMISES",
        ]));
    for (d, name) in floats {
        let line = format!("#define {name} {}\n", d.code().0);
        assert!(kr::SOURCE.contains(&line), "{line}");
    }
    let ints = [
        (IntDist::Integers { low: 0, range: 1 }, "RI_INTEGERS"),
        (IntDist::Poisson { lam: 1.0 }, "RI_POISSON"),
        (IntDist::Binomial { n: 1, p: 0.5 }, "RI_BINOMIAL"),
        (IntDist::Bits, "RI_BITS"),
    ];
    let ints = ints.into_iter().chain(more_int_dists().into_iter().zip([
        "RI_GEOMETRIC",
        "RI_GEOMETRIC",
        "RI_NEGATIVE_BINOMIAL",
        "RI_ZIPF",
        "RI_LOGSERIES",
        "RI_HYPERGEOMETRIC",
        "RI_HYPERGEOMETRIC",
    ]));
    for (d, name) in ints {
        let line = format!("#define {name} {}\n", d.code().0);
        assert!(kr::SOURCE.contains(&line), "{line}");
    }
}

/// One instance of each distribution added after the first five, in code order (the
/// noncentral chi-square twice: both of its branches).
fn more_float_dists() -> Vec<FloatDist> {
    use FloatDist as D;
    vec![
        D::StandardCauchy,
        D::StandardT { df: 3.5 },
        D::ChiSquare { df: 0.7 },
        D::NoncentralChiSquare { df: 4.0, nonc: 1.5 },
        D::NoncentralChiSquare { df: 0.5, nonc: 2.0 },
        D::F {
            dfnum: 3.0,
            dfden: 8.0,
        },
        D::NoncentralF {
            dfnum: 2.0,
            dfden: 5.0,
            nonc: 0.7,
        },
        D::Laplace {
            loc: 1.0,
            scale: 2.0,
        },
        D::Logistic {
            loc: -1.0,
            scale: 0.5,
        },
        D::Gumbel {
            loc: 0.5,
            scale: 3.0,
        },
        D::Weibull { a: 1.7 },
        D::Pareto { a: 2.5 },
        D::Rayleigh { scale: 1.5 },
        D::Wald {
            mean: 2.0,
            scale: 0.7,
        },
        D::Triangular {
            left: -1.0,
            mode: 0.25,
            right: 3.0,
        },
        D::Power { a: 0.6 },
        D::VonMises {
            mu: 0.5,
            kappa: 2.0,
        },
    ]
}

/// One instance of each integer distribution added after the first four, in code order
/// (both branches of the geometric and the hypergeometric).
fn more_int_dists() -> Vec<IntDist> {
    vec![
        IntDist::Geometric { p: 0.6 },
        IntDist::Geometric { p: 0.01 },
        IntDist::NegativeBinomial { n: 2.5, p: 0.3 },
        IntDist::Zipf { a: 1.7 },
        IntDist::Logseries { p: 0.95 },
        IntDist::Hypergeometric {
            ngood: 7,
            nbad: 12,
            nsample: 5,
        },
        IntDist::Hypergeometric {
            ngood: 400,
            nbad: 900,
            nsample: 300,
        },
    ]
}

/// Bits of an element, for exact comparison (floats by their bit patterns).
fn bits<T: Element>(x: T) -> u64 {
    match x.to_scalar() {
        Scalar::F32(v) => v.to_bits() as u64,
        Scalar::F64(v) => v.to_bits(),
        Scalar::U8(v) => v as u64,
        Scalar::I32(v) => v as u32 as u64,
        Scalar::I64(v) => v as u64,
        s => panic!("unexpected {s:?}"),
    }
}

#[track_caller]
fn assert_bits<T: Element>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = (0..got.len()).find(|&i| bits(got[i]) != bits(want[i])) {
        panic!(
            "{what} ({}): first difference at {i} of {}: cuda {:?} vs cpu {:?}",
            T::DTYPE,
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// Sizes: empty, below and across one Philox block, odd, past a block of threads, and
/// large enough for many grid-stride steps.
const SIZES: [usize; 8] = [0, 1, 3, 5, 7, 1000, 4099, (1 << 20) + 3];

fn draw(base: u64) -> Draw {
    Draw::new([0x1234_5678, 0x9abc_def0], base)
}

fn check_floats<T: Float>(dev: &Cuda) {
    let cpu = Cpu;
    let dists = [
        FloatDist::Normal {
            loc: 1.5,
            scale: 2.0,
        },
        FloatDist::LogNormal {
            mean: 0.1,
            sigma: 0.7,
        },
        FloatDist::Exponential { scale: 3.0 },
        FloatDist::Gamma {
            shape: 0.3,
            scale: 1.0,
        },
        FloatDist::Gamma {
            shape: 4.5,
            scale: 2.0,
        },
        FloatDist::Beta { a: 0.4, b: 0.6 },
        FloatDist::Beta { a: 2.0, b: 5.0 },
    ];
    let dists: Vec<FloatDist> = dists.into_iter().chain(more_float_dists()).collect();
    for (k, &n) in SIZES.iter().enumerate() {
        let l = Layout::contiguous(&[n]);
        // Parts of draws too: starting at every residue of a Philox block.
        let d = draw(k as u64 * 7).starting_at((k as u64 * 5) % 11);
        let (lo, hi) = (T::from_f64(-2.5), T::from_f64(4.0));
        let want = cpu.random_uniform(n, &d, lo, hi).unwrap();
        let got = dev.random_uniform(n, &d, lo, hi).unwrap();
        assert_bits(
            &dev.to_vec(&got, &l).unwrap(),
            &cpu.to_vec(&want, &l).unwrap(),
            &format!("uniform n={n}"),
        );
        for &dist in &dists {
            let want = cpu.random_float::<T>(n, &d, dist).unwrap();
            let got = dev.random_float::<T>(n, &d, dist).unwrap();
            assert_bits(
                &dev.to_vec(&got, &l).unwrap(),
                &cpu.to_vec(&want, &l).unwrap(),
                &format!("{dist:?} n={n}"),
            );
        }
    }
}

fn check_ints<T: Integer>(dev: &Cuda, dists: &[IntDist]) {
    let cpu = Cpu;
    for (k, &n) in SIZES.iter().enumerate() {
        let l = Layout::contiguous(&[n]);
        // Parts of draws too, one of them crossing element 2^32 (the next element-stream
        // group).
        let first = if k == 6 { (1 << 32) - 100 } else { k as u64 };
        let d = draw(1000 + k as u64).starting_at(first);
        for &dist in dists {
            let want = cpu.random_int::<T>(n, &d, dist).unwrap();
            let got = dev.random_int::<T>(n, &d, dist).unwrap();
            assert_bits(
                &dev.to_vec(&got, &l).unwrap(),
                &cpu.to_vec(&want, &l).unwrap(),
                &format!("{dist:?} n={n}"),
            );
        }
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_floats_match_the_cpu_bit_for_bit() {
    let Some(dev) = gpu() else { return };
    check_floats::<f32>(&dev);
    check_floats::<f64>(&dev);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn random_ints_match_the_cpu_bit_for_bit() {
    let Some(dev) = gpu() else { return };
    let small = [
        IntDist::Integers { low: -3, range: 10 },
        IntDist::Integers { low: 0, range: 3 },
        IntDist::Bits,
    ];
    check_ints::<u8>(&dev, &small);
    check_ints::<i32>(&dev, &small);
    check_ints::<i32>(
        &dev,
        &[IntDist::Integers {
            low: i32::MIN as i64,
            range: u32::MAX as u64,
        }],
    );
    check_ints::<i64>(
        &dev,
        &[
            IntDist::Integers {
                low: -5,
                range: 1 << 40,
            },
            IntDist::Integers {
                low: i64::MIN,
                range: u64::MAX,
            },
            IntDist::Integers {
                low: 7,
                range: 1000,
            },
            IntDist::Poisson { lam: 3.5 },
            IntDist::Poisson { lam: 1234.5 },
            IntDist::Binomial { n: 20, p: 0.3 },
            IntDist::Binomial { n: 100_000, p: 0.7 },
            IntDist::Bits,
        ],
    );
    check_ints::<i64>(&dev, &more_int_dists());
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored --nocapture on a GPU host"]
fn random_timings() {
    let Some(dev) = gpu() else { return };
    let n = 50_000_000usize;
    let mut base = 0u64;
    let mut time = |name: &str, f: &mut dyn FnMut(&Draw)| {
        let (mut e0, mut e1) = (dev.create_event().unwrap(), dev.create_event().unwrap());
        f(&draw(base)); // warm-up (compiles the module)
        let mut t: Vec<f64> = (0..20)
            .map(|_| {
                base += 2;
                let d = draw(base);
                dev.record_event(&mut e0).unwrap();
                f(&d);
                dev.record_event(&mut e1).unwrap();
                dev.elapsed_secs(&e0, &e1).unwrap() * 1e3
            })
            .collect();
        t.sort_by(f64::total_cmp);
        println!("{name} {:.3} ms", t[10]);
    };
    time("cuda_random_f64_5e7", &mut |d| {
        drop(dev.random_uniform::<f64>(n, d, 0.0, 1.0).unwrap())
    });
    time("cuda_random_f32_5e7", &mut |d| {
        drop(dev.random_uniform::<f32>(n, d, 0.0, 1.0).unwrap())
    });
    let normal = FloatDist::Normal {
        loc: 0.0,
        scale: 1.0,
    };
    time("cuda_standard_normal_f64_5e7", &mut |d| {
        drop(dev.random_float::<f64>(n, d, normal).unwrap())
    });
    let ints = IntDist::Integers {
        low: 0,
        range: 1000,
    };
    time("cuda_integers_i64_5e7", &mut |d| {
        drop(dev.random_int::<i64>(n, d, ints).unwrap())
    });
}
