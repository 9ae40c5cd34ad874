//! Differential tests of `cuprite::fft`: the same deterministic inputs through `Cpu`
//! (rustfft) and `Cuda` (cuFFT), compared element by element at a tolerance scaled to the
//! precision and `log2(n)`, and errors compared by message. Lengths are 1, primes, powers of
//! two and large odd ones; views are transposed, strided with negative steps and broadcast;
//! every plan arrangement of the CUDA backend is reached (lanes along the last axis, along a
//! middle axis with few or many outer indices). Every test needs a GPU and is `#[ignore]`d:
//! run with `--ignored` on a GPU host.
#![cfg(all(feature = "cpu", feature = "cuda"))]
// `same!` calls one closure per backend so `?` works inside the compared expression.
#![allow(clippy::redundant_closure_call)]

use cuprite::fft::{self, Norm};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;

use crate::diff_support::{on_both, outcomes, Rng};

fn arr<T: Element, B: ArrayBackend>(shape: &[usize], seed: u64, dev: &B) -> Array<T, B> {
    let n = shape.iter().product();
    Array::from_vec(Rng::new(seed).uniform(n, 2.0), shape, dev).unwrap()
}

/// Tolerance for results of type `T` from transforms of length up to `n`.
fn tol<T: Element>(n: usize) -> f64 {
    let log = (n.max(2) as f64).log2();
    match T::DTYPE {
        DType::F32 | DType::C64 => 2e-6 * log,
        _ => 1e-13 * log,
    }
}

/// Both errors with the same message, or the same shape and values within `rtol` (with an
/// absolute floor of `rtol` times the largest magnitude, as FFT errors are).
#[track_caller]
fn compare<T: Element>(what: &str, c: Result<Array<T, Cpu>>, g: Result<Array<T, Cuda>>, rtol: f64) {
    if let Some((c, g)) = outcomes(what, c, g) {
        let (cv, gv) = (c.to_vec().unwrap(), g.to_vec().unwrap());
        let big = cv
            .iter()
            .map(|x| {
                let (re, im) = match x.to_scalar() {
                    cuprite::Scalar::C64(z) => (z.re as f64, z.im as f64),
                    cuprite::Scalar::C128(z) => (z.re, z.im),
                    cuprite::Scalar::F32(v) => (v as f64, 0.0),
                    cuprite::Scalar::F64(v) => (v, 0.0),
                    _ => (0.0, 0.0),
                };
                re.hypot(im)
            })
            .fold(1.0, f64::max);
        if let Err(m) = check_allclose_slices(&gv, &cv, c.shape(), rtol, rtol * big) {
            panic!("{what} ({}): cuda vs cpu: {m}", T::DTYPE.name());
        }
    }
}

/// Runs `$body` (returning `Result<Array<_, _>>`, with `$dev` bound to the backend) on both
/// backends and compares the results at tolerance `$tol`.
macro_rules! same {
    ($tol:expr, |$dev:ident| $body:expr) => {{
        let (c, g) = on_both!(|$dev| $body);
        compare(stringify!($body), c, g, $tol)
    }};
}

const LENGTHS: [usize; 13] = [1, 2, 3, 5, 7, 16, 17, 97, 128, 1000, 4097, 65536, 65537];

fn one_d<C>()
where
    C: fft::FftComplex + fft::FftInput<Complex = C>,
    C::RealFloat: fft::FftInput<Complex = C>,
{
    let bw = Norm::Backward;
    for n in LENGTHS {
        let t = tol::<C>(n);
        same!(t, |d| fft::fft(&arr::<C, _>(&[n], 1, d), None, 0, bw));
        same!(t, |d| fft::ifft(
            &arr::<C, _>(&[n], 2, d),
            None,
            0,
            Norm::Ortho
        ));
        same!(t, |d| fft::rfft(
            &arr::<C::RealFloat, _>(&[n], 3, d),
            None,
            0,
            Norm::Forward
        ));
        same!(t, |d| fft::irfft(&arr::<C, _>(&[n], 4, d), Some(n), 0, bw));
        same!(t, |d| fft::hfft(&arr::<C, _>(&[n], 5, d), Some(n), 0, bw));
        same!(t, |d| fft::ihfft(
            &arr::<C::RealFloat, _>(&[n], 6, d),
            None,
            0,
            bw
        ));
        same!(t, |d| fft::fft(
            &arr::<C::RealFloat, _>(&[n], 7, d),
            Some(n + 3),
            0,
            bw
        ));
        same!(t, |d| fft::rfft(
            &arr::<C::RealFloat, _>(&[n], 8, d),
            Some(n / 2 + 1),
            0,
            bw
        ));
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn fft_one_d_f32() {
    one_d::<c64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn fft_one_d_f64() {
    one_d::<c128>();
}

/// Every axis of 3-d arrays whose lanes reach each CUDA plan arrangement, through views.
fn axes_and_views<C>()
where
    C: fft::FftComplex + fft::FftInput<Complex = C>,
    C::RealFloat: fft::FftInput<Complex = C>,
{
    let bw = Norm::Backward;
    for shape in [
        [3usize, 17, 40],
        [40, 17, 3],
        [1, 97, 1],
        [6, 1, 5],
        [2, 0, 5],
    ] {
        let t = tol::<C>(97);
        for ax in [0isize, 1, 2, -1, -2] {
            same!(t, |d| fft::fft(&arr::<C, _>(&shape, 9, d), None, ax, bw));
            same!(t, |d| fft::rfft(
                &arr::<C::RealFloat, _>(&shape, 10, d),
                None,
                ax,
                bw
            ));
            same!(t, |d| fft::irfft(&arr::<C, _>(&shape, 11, d), None, ax, bw));
        }
        same!(t, |d| fft::fftn(
            &arr::<C, _>(&shape, 12, d),
            None,
            None,
            bw
        ));
        same!(t, |d| fft::rfftn(
            &arr::<C::RealFloat, _>(&shape, 13, d),
            None,
            None,
            Norm::Ortho
        ));
        same!(t, |d| fft::irfftn(
            &arr::<C, _>(&shape, 14, d),
            None,
            None,
            bw
        ));
    }
    let t = tol::<C>(64);
    same!(t, |d| fft::fft(
        &arr::<C, _>(&[5, 6, 7], 15, d).permute_dims(&[2, 0, 1])?,
        None,
        1,
        bw
    ));
    same!(t, |d| fft::rfft(
        &arr::<C::RealFloat, _>(&[9, 8, 7], 16, d).slice(&s![..;-2, 1..;3, ..])?,
        Some(11),
        0,
        bw
    ));
    same!(t, |d| fft::fft2(
        &arr::<C::RealFloat, _>(&[1, 8, 7], 17, d).broadcast_to(&[4, 8, 7])?,
        Some(&[5, 9]),
        None,
        Norm::Forward
    ));
    same!(t, |d| fft::irfft2(
        &arr::<C, _>(&[4, 6, 8], 18, d).t(),
        Some(&[6, 7]),
        Some(&[0, 1]),
        bw
    ));
    same!(0.0, |d| fft::fftshift(
        &arr::<C::RealFloat, _>(&[5, 6, 7], 19, d),
        [0, 2]
    ));
    same!(0.0, |d| fft::ifftshift(
        &arr::<C::RealFloat, _>(&[5, 6, 7], 19, d).t(),
        Axes::All
    ));
    same!(0.0, |d| fft::rfftfreq::<C::RealFloat, _>(
        9,
        Numeric::from_f64(0.5),
        d
    ));
    // Errors agree.
    same!(0.0, |d| fft::fft(
        &arr::<C::RealFloat, _>(&[3, 0], 20, d),
        None,
        -1,
        bw
    ));
    same!(0.0, |d| fft::irfft(&arr::<C, _>(&[1], 21, d), None, 0, bw));
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn fft_axes_and_views_f32() {
    axes_and_views::<c64>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn fft_axes_and_views_f64() {
    axes_and_views::<c128>();
}

#[test]
#[ignore = "needs an NVIDIA GPU: run with --ignored on a GPU host"]
fn fft_many_rows_and_repeated_plans() {
    // Many rows along the last axis and along axis 0, twice (the second time from the plan
    // cache), and more distinct lengths than the cache keeps.
    let bw = Norm::Backward;
    for _ in 0..2 {
        same!(tol::<f64>(257), |d| fft::rfft(
            &arr::<f64, _>(&[4000, 257], 22, d),
            None,
            -1,
            bw
        ));
        same!(tol::<f32>(4000), |d| fft::fft(
            &arr::<c64, _>(&[4000, 33], 23, d),
            None,
            0,
            bw
        ));
    }
    for n in 1..=80usize {
        same!(tol::<f64>(n), |d| fft::ifft(
            &arr::<c128, _>(&[3, n], 24, d),
            None,
            -1,
            bw
        ));
    }
}
