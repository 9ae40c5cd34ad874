//! The cuFFT-backed transforms on a GPU against the CPU backend (rustfft) on the same
//! buffers: every lane arrangement the launcher distinguishes (contiguous lanes, one plan per
//! outer index, one plan per inner index, empty batches), both precisions, all three kinds,
//! scaling, and a shared complex-to-real input left untouched. GPU tests are ignored by
//! default; without a device they print why and pass.

use crate::test_support::gpu;
use crate::Cuda;
use cuprite_core::backend::{FftLanes, FftOps};
use cuprite_core::testing::check_allclose_slices;
use cuprite_core::{c128, c64, BackendBase, ComplexElement, Element, Float};
use cuprite_cpu::Cpu;

/// Lane arrangements: `inner == 1`, `outer <= inner`, `outer > inner`, prime and power-of-two
/// lengths, length 1 and an empty batch.
const CASES: &[(usize, usize, usize)] = &[
    (7, 16, 1),
    (1, 97, 1),
    (3, 5, 8),
    (9, 12, 2),
    (4, 1, 3),
    (2, 4097, 3),
    (0, 8, 4),
];

fn values<T: Element>(n: usize, seed: u64) -> Vec<T> {
    (0..n)
        .map(|i| {
            let v = ((i as u64 * 2654435761 + seed) % 1000) as f64 / 250.0 - 2.0;
            let w = ((i as u64 * 40503 + seed * 7) % 997) as f64 / 250.0 - 2.0;
            T::from_scalar(cuprite_core::Scalar::C128(c128::new(v, w)))
        })
        .collect()
}

fn tol<F: Float>(n: usize) -> f64 {
    let log = (n.max(2) as f64).log2();
    if F::DTYPE == cuprite_core::DType::F32 {
        2e-5 * log
    } else {
        1e-12 * log
    }
}

#[track_caller]
fn close<T: Element>(got: &[T], want: &[T], rtol: f64, what: &str) {
    if let Err(m) = check_allclose_slices(got, want, &[want.len()], rtol, rtol * 4.0) {
        panic!("{what} ({}): cuda vs cpu: {m}", T::DTYPE);
    }
}

fn kinds<F: Float>(dev: &Cuda) {
    for &(outer, n, inner) in CASES {
        let lanes = FftLanes { outer, n, inner };
        let what = format!("lanes [{outer}, {n}, {inner}]");
        let z = values::<F::Complex>(lanes.count() * n, 3);
        for inverse in [false, true] {
            let c = Cpu
                .fft_c2c::<F>(&Cpu.from_vec(z.clone()).unwrap(), lanes, inverse, F::one())
                .unwrap();
            let g = dev
                .fft_c2c::<F>(&dev.from_vec(z.clone()).unwrap(), lanes, inverse, F::one())
                .unwrap();
            let l = cuprite_core::Layout::contiguous(&[c.len()]);
            close(
                &dev.to_vec(&g, &l).unwrap(),
                &Cpu.to_vec(&c, &l).unwrap(),
                tol::<F>(n),
                &format!("c2c inverse={inverse} {what}"),
            );
        }
        let r = values::<F>(lanes.count() * n, 5);
        let scale = F::from_f64(0.25);
        let c = Cpu
            .fft_r2c::<F>(&Cpu.from_vec(r.clone()).unwrap(), lanes, scale)
            .unwrap();
        let g = dev
            .fft_r2c::<F>(&dev.from_vec(r.clone()).unwrap(), lanes, scale)
            .unwrap();
        let l = cuprite_core::Layout::contiguous(&[c.len()]);
        let spec = Cpu.to_vec(&c, &l).unwrap();
        close(
            &dev.to_vec(&g, &l).unwrap(),
            &spec,
            tol::<F>(n),
            &format!("r2c {what}"),
        );
        // Back to real (the input is a valid spectrum: zero imaginary parts at the edges).
        let scale = F::from_f64(4.0 / n as f64);
        let c = Cpu
            .fft_c2r::<F>(Cpu.from_vec(spec.clone()).unwrap(), lanes, scale)
            .unwrap();
        let shared = dev.from_vec(spec.clone()).unwrap();
        let g = dev.fft_c2r::<F>(shared.clone(), lanes, scale).unwrap();
        let l = cuprite_core::Layout::contiguous(&[c.len()]);
        let (gv, cv) = (dev.to_vec(&g, &l).unwrap(), Cpu.to_vec(&c, &l).unwrap());
        close(&gv, &cv, tol::<F>(n), &format!("c2r {what}"));
        close(&cv, &r, tol::<F>(n), &format!("c2r(r2c) round trip {what}"));
        let ls = cuprite_core::Layout::contiguous(&[spec.len()]);
        assert_eq!(
            dev.to_vec(&shared, &ls).unwrap(),
            spec,
            "c2r wrote into a shared input ({what})"
        );
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn transforms_match_the_cpu_f32() {
    let Some(dev) = gpu() else { return };
    kinds::<f32>(&dev);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn transforms_match_the_cpu_f64() {
    let Some(dev) = gpu() else { return };
    kinds::<f64>(&dev);
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn an_impulse_gives_a_flat_spectrum_on_long_batches() {
    let Some(dev) = gpu() else { return };
    // 300 lanes of 2^16 + 1 points: the big-batch plan path and more than one cached plan.
    let lanes = FftLanes {
        outer: 300,
        n: 65537,
        inner: 1,
    };
    let mut x = vec![c64::new(0.0, 0.0); lanes.count() * lanes.n];
    for l in 0..lanes.count() {
        x[l * lanes.n] = c64::from_parts(1.0, 0.0);
    }
    let g = dev
        .fft_c2c::<f32>(&dev.from_vec(x).unwrap(), lanes, false, 0.5)
        .unwrap();
    let v = dev
        .to_vec(&g, &cuprite_core::Layout::contiguous(&[g.len()]))
        .unwrap();
    assert!(v
        .iter()
        .all(|z| (z.re - 0.5).abs() < 1e-6 && z.im.abs() < 1e-6));
}
