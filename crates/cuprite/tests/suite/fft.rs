//! `cuprite::fft` on every backend: against NumPy fixtures (`scripts/fixtures/fft.py`: every
//! transform at lengths 1 to 4097, every normalisation, `n` shorter and longer than the axis,
//! every axis of a 3-d array, transposed, strided and broadcast views, the n-dimensional
//! forms with `s`, repeated and negative axes, a batch of 300 rows, the helpers), against
//! analytic identities (round trips, Parseval, a cosine's spectrum, at up to 2^16 points) and
//! NumPy's errors. Tolerances scale with the precision, `log2(n)` and the largest value.

use crate::common;

use common::{fixture, fixture_vec};
use cuprite::fft::{self, FftComplex, FftInput, Norm};
use cuprite::prelude::*;
use cuprite::testing::check_allclose_slices;

const T: &str = "fft";
const LENGTHS: [usize; 11] = [1, 2, 3, 5, 7, 16, 17, 97, 128, 1000, 4097];

/// The relative error allowed per `log2(n)` for element type `E`.
fn eps<E: Element>() -> f64 {
    match E::DTYPE {
        DType::F32 | DType::C64 => 1e-5,
        _ => 1e-12,
    }
}

fn max_abs<E: Element>(v: &[E]) -> f64 {
    v.iter()
        .map(|x| match x.to_scalar() {
            cuprite::Scalar::F32(a) => a.abs() as f64,
            cuprite::Scalar::F64(a) => a.abs(),
            cuprite::Scalar::C64(a) => a.norm() as f64,
            cuprite::Scalar::C128(a) => a.norm(),
            _ => 0.0,
        })
        .fold(0.0, f64::max)
}

/// Asserts shape and values (within `eps * log2(n) * max|want|`) against data `want`.
#[track_caller]
fn close_to<E: Element, B: ArrayBackend>(
    got: &Array<E, B>,
    want: &[E],
    shape: &[usize],
    n: usize,
    what: &str,
) {
    assert_eq!(got.shape(), shape, "{what}: shape");
    let tol = eps::<E>() * (n.max(2) as f64).log2();
    let atol = tol * max_abs(want).max(1.0);
    let g = got.to_vec().unwrap();
    if let Err(m) = check_allclose_slices(&g, want, shape, tol, atol) {
        panic!("{what} ({}): {m}", E::DTYPE);
    }
}

/// Asserts `got` against fixture `name` for a transform of length `n`.
#[track_caller]
fn check<E: Element, B: ArrayBackend>(got: Result<Array<E, B>>, name: &str, n: usize) {
    let got = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let (want, shape) = fixture_vec::<E>(T, name);
    close_to(&got, &want, &shape, n, name);
}

/// Every 1-d transform at every length, in the precision of `C`.
fn one_d<C, B>(dev: &B)
where
    C: FftComplex + FftInput<Complex = C>,
    C::RealFloat: FftInput<Complex = C>,
    B: ArrayBackend,
{
    let bw = Norm::Backward;
    for n in LENGTHS {
        let c = fixture::<C, B>(dev, T, &format!("c{n}_x"));
        let r = fixture::<C::RealFloat, B>(dev, T, &format!("r{n}_x"));
        check(fft::fft(&c, None, -1, bw), &format!("c{n}_fft"), n);
        check(fft::ifft(&c, None, 0, bw), &format!("c{n}_ifft"), n);
        check(fft::fft(&r, None, -1, bw), &format!("r{n}_fft"), n);
        check(fft::rfft(&r, None, -1, bw), &format!("r{n}_rfft"), n);
        check(fft::ihfft(&r, None, -1, bw), &format!("r{n}_ihfft"), n);
        check(fft::irfft(&c, Some(n), -1, bw), &format!("c{n}_irfft"), n);
        check(fft::hfft(&c, Some(n), -1, bw), &format!("c{n}_hfft"), n);
        if n > 1 {
            let m = 2 * (n - 1);
            check(
                fft::irfft(&c, None, -1, bw),
                &format!("c{n}_irfft_default"),
                m,
            );
            check(
                fft::hfft(&c, None, -1, bw),
                &format!("c{n}_hfft_default"),
                m,
            );
        }
    }
}

fn one_d_every_length<B: ArrayBackend>(dev: &B) {
    one_d::<c128, B>(dev);
    one_d::<c64, B>(dev);
}

fn norms_and_lengths_of<C, B>(dev: &B)
where
    C: FftComplex + FftInput<Complex = C>,
    C::RealFloat: FftInput<Complex = C>,
    B: ArrayBackend,
{
    for n in [16usize, 17] {
        let c = fixture::<C, B>(dev, T, &format!("c{n}_x"));
        let r = fixture::<C::RealFloat, B>(dev, T, &format!("r{n}_x"));
        for (norm, name) in [
            (Norm::Backward, "backward"),
            (Norm::Ortho, "ortho"),
            (Norm::Forward, "forward"),
        ] {
            check(fft::fft(&c, None, -1, norm), &format!("c{n}_fft_{name}"), n);
            check(
                fft::ifft(&c, None, -1, norm),
                &format!("c{n}_ifft_{name}"),
                n,
            );
            check(
                fft::rfft(&r, None, -1, norm),
                &format!("r{n}_rfft_{name}"),
                n,
            );
            check(
                fft::irfft(&c, Some(n), -1, norm),
                &format!("c{n}_irfft_{name}"),
                n,
            );
            check(
                fft::hfft(&c, Some(n), -1, norm),
                &format!("c{n}_hfft_{name}"),
                n,
            );
            check(
                fft::ihfft(&r, None, -1, norm),
                &format!("r{n}_ihfft_{name}"),
                n,
            );
        }
        for m in [1usize, 8, 9, 32, 41] {
            let bw = Norm::Backward;
            check(fft::fft(&c, Some(m), 0, bw), &format!("c{n}_fft_n{m}"), m);
            check(fft::ifft(&c, Some(m), 0, bw), &format!("c{n}_ifft_n{m}"), m);
            check(fft::rfft(&r, Some(m), 0, bw), &format!("r{n}_rfft_n{m}"), m);
            check(
                fft::irfft(&c, Some(m), 0, bw),
                &format!("c{n}_irfft_n{m}"),
                m,
            );
            check(fft::hfft(&c, Some(m), 0, bw), &format!("c{n}_hfft_n{m}"), m);
            check(
                fft::ihfft(&r, Some(m), 0, bw),
                &format!("r{n}_ihfft_n{m}"),
                m,
            );
        }
    }
}

fn norms_and_lengths<B: ArrayBackend>(dev: &B) {
    norms_and_lengths_of::<c128, B>(dev);
    norms_and_lengths_of::<c64, B>(dev);
}

fn axes_and_views<B: ArrayBackend>(dev: &B) {
    let bw = Norm::Backward;
    let xc = fixture::<c128, B>(dev, T, "x3c");
    let xr = fixture::<f64, B>(dev, T, "x3r");
    for ax in [0isize, 1, 2, -1, -2, -3] {
        let n = xc.shape()[ax.rem_euclid(3) as usize];
        check(fft::fft(&xc, None, ax, bw), &format!("x3c_fft_ax{ax}"), n);
        check(
            fft::ifft(&xc, None, ax, Norm::Ortho),
            &format!("x3c_ifft_ax{ax}"),
            n,
        );
        check(fft::rfft(&xr, None, ax, bw), &format!("x3r_rfft_ax{ax}"), n);
        check(
            fft::irfft(&xc, None, ax, bw),
            &format!("x3c_irfft_ax{ax}"),
            2 * n,
        );
        check(
            fft::hfft(&xc, None, ax, bw),
            &format!("x3c_hfft_ax{ax}"),
            2 * n,
        );
        check(
            fft::ihfft(&xr, None, ax, bw),
            &format!("x3r_ihfft_ax{ax}"),
            n,
        );
    }
    let t = xc.permute_dims(&[2, 0, 1]).unwrap();
    assert!(!t.is_contiguous());
    check(fft::fft(&t, Some(7), 1, bw), "x3c_T_fft_ax1_n7", 7);
    let t = xr.permute_dims(&[2, 0, 1]).unwrap();
    check(fft::rfft(&t, Some(3), 1, bw), "x3r_T_rfft_ax1_n3", 3);
    let v = xc.slice(&s![..;-2, 1..;2, ..;3]).unwrap();
    check(fft::fft(&v, None, 0, bw), "x3c_S_fft_ax0", 2);
    let v = xr.slice(&s![..;-2, 1..;2, ..;3]).unwrap();
    check(fft::rfft(&v, None, 2, bw), "x3r_S_rfft_ax2", 2);
    let b = xr
        .slice(&s![0..1, .., ..])
        .unwrap()
        .broadcast_to(&[4, 5, 6])
        .unwrap();
    check(fft::rfft(&b, None, 0, bw), "x3r_B_rfft_ax0", 4);
    // The same view in single precision.
    let v = fixture::<c64, B>(dev, T, "x3c")
        .slice(&s![..;-2, 1..;2, ..;3])
        .unwrap();
    check(fft::fft(&v, None, 0, bw), "x3c_S_fft_ax0", 2);
}

fn n_dimensional<B: ArrayBackend>(dev: &B) {
    let bw = Norm::Backward;
    let xc = fixture::<c128, B>(dev, T, "x3c");
    let xr = fixture::<f64, B>(dev, T, "x3r");
    check(fft::fftn(&xc, None, None, bw), "x3c_fftn", 120);
    check(fft::ifftn(&xc, None, None, bw), "x3c_ifftn", 120);
    check(
        fft::fftn(&xc, Some(&[7, 3]), Some(&[2, 0]), bw),
        "x3c_fftn_s_axes",
        21,
    );
    check(fft::fftn(&xc, None, Some(&[1, 1]), bw), "x3c_fftn_rep", 25);
    check(
        fft::fftn(&xc, Some(&[-1, 8]), Some(&[0, -1]), bw),
        "x3c_fftn_neg1",
        32,
    );
    check(
        fft::ifftn(&xc, None, Some(&[0, 2]), Norm::Ortho),
        "x3c_ifftn_ortho",
        24,
    );
    check(fft::fft2(&xc, None, None, bw), "x3c_fft2", 30);
    check(fft::ifft2(&xc, None, None, bw), "x3c_ifft2", 30);
    check(
        fft::fft2(&xc, Some(&[3, 9]), Some(&[0, 1]), Norm::Forward),
        "x3c_fft2_s",
        27,
    );
    check(fft::rfftn(&xr, None, None, bw), "x3r_rfftn", 120);
    check(
        fft::rfftn(&xr, Some(&[3, 9]), Some(&[2, 0]), bw),
        "x3r_rfftn_axes",
        27,
    );
    check(fft::rfft2(&xr, None, None, bw), "x3r_rfft2", 30);
    check(
        fft::rfft2(&xr, None, None, Norm::Ortho),
        "x3r_rfft2_ortho",
        30,
    );
    check(fft::irfftn(&xc, None, None, bw), "x3c_irfftn", 200);
    check(
        fft::irfftn(&xc, Some(&[4, 5, 11]), None, bw),
        "x3c_irfftn_s",
        220,
    );
    check(
        fft::irfftn(&xc, Some(&[6, 3]), Some(&[2, 0]), bw),
        "x3c_irfftn_axes",
        18,
    );
    check(fft::irfft2(&xc, None, None, bw), "x3c_irfft2", 50);
    check(
        fft::irfft2(&xc, Some(&[5, 7]), None, Norm::Forward),
        "x3c_irfft2_s",
        35,
    );
    check(
        fft::irfftn(&xc, None, Some(&[1, 1]), bw),
        "x3c_irfftn_rep",
        64,
    );
    // No axes: the input as complex numbers.
    let same = fft::fftn(&xr, None, Some(&[]), bw).unwrap();
    close_to(
        &same.real().unwrap(),
        &xr.to_vec().unwrap(),
        &[4, 5, 6],
        2,
        "fftn axes=()",
    );
}

fn many_rows<B: ArrayBackend>(dev: &B) {
    let bw = Norm::Backward;
    let x = fixture::<f64, B>(dev, T, "xb");
    check(fft::rfft(&x, None, -1, bw), "xb_rfft", 17);
    check(fft::fft(&x, None, 0, bw), "xb_fft_ax0", 300);
    let spec = fft::rfft(&x, None, 0, bw).unwrap();
    check(fft::irfft(&spec, Some(300), 0, bw), "xb_irfft_ax0", 300);
    let x32 = fixture::<f32, B>(dev, T, "xb");
    check(fft::rfft(&x32, None, -1, bw), "xb_rfft", 17);
    check(fft::fft(&x32, None, 0, bw), "xb_fft_ax0", 300);
}

fn helpers<B: ArrayBackend>(dev: &B) {
    for n in [1usize, 2, 7, 8] {
        check(
            fft::fftfreq::<f64, B>(n, 0.1, dev),
            &format!("fftfreq_{n}"),
            2,
        );
        check(
            fft::rfftfreq::<f64, B>(n, 0.1, dev),
            &format!("rfftfreq_{n}"),
            2,
        );
        check(
            fft::fftfreq::<f32, B>(n, 0.1, dev),
            &format!("fftfreq_{n}"),
            2,
        );
    }
    let x = fixture::<f64, B>(dev, T, "xs");
    check(fft::fftshift(&x, Axes::All), "xs_fftshift", 2);
    check(fft::ifftshift(&x, Axes::All), "xs_ifftshift", 2);
    check(fft::fftshift(&x, 0), "xs_fftshift_0", 2);
    check(fft::ifftshift(&x, [-1]), "xs_ifftshift_m1", 2);
    // ifftshift undoes fftshift for odd and even lengths, on a transposed view too.
    let xi = Array::<i64, B>::ramp(35, 0, 1, dev)
        .unwrap()
        .reshape(&[5, 7])
        .unwrap()
        .t();
    let back = fft::ifftshift(&fft::fftshift(&xi, Axes::All).unwrap(), Axes::All).unwrap();
    assert_eq!(back.to_vec().unwrap(), xi.to_vec().unwrap());
    assert!(fft::fftshift(&xi, 2).is_err());
}

/// Round trips, Parseval and a cosine's spectrum at lengths up to 2^16, precision of `C`.
fn identities_of<C, B>(dev: &B)
where
    C: FftComplex + FftInput<Complex = C>,
    C::RealFloat: FftInput<Complex = C>,
    B: ArrayBackend,
{
    let real = |n: usize| -> Array<C::RealFloat, B> {
        let v = (0..n)
            .map(|i| <C::RealFloat as Numeric>::from_f64(((i * 7919) % 1009) as f64 / 504.5 - 1.0))
            .collect();
        Array::from_vec(v, &[n], dev).unwrap()
    };
    for n in [1usize, 2, 3, 16, 17, 97, 1000, 4097, 1 << 16] {
        let x = real(n);
        let xv = x.to_vec().unwrap();
        let xc = fft::fft(&x, None, 0, Norm::Backward).unwrap();
        let back = fft::ifft(&xc, None, 0, Norm::Backward)
            .unwrap()
            .real()
            .and_then(|r| r.astype::<C::RealFloat>())
            .unwrap();
        close_to(&back, &xv, &[n], n, &format!("ifft(fft(x)) n={n}"));
        let half = fft::rfft(&x, None, 0, Norm::Backward).unwrap();
        let back = fft::irfft(&half, Some(n), 0, Norm::Backward).unwrap();
        close_to(&back, &xv, &[n], n, &format!("irfft(rfft(x), n) n={n}"));
        // Parseval: the unitary transform keeps the energy.
        let u = fft::fft(&x, None, 0, Norm::Ortho).unwrap();
        let e_x: f64 = xv.iter().map(|v| v.to_f64_lossy().powi(2)).sum();
        let e_u: f64 = u
            .abs()
            .unwrap()
            .to_vec()
            .unwrap()
            .iter()
            .map(|v| v.to_f64_lossy().powi(2))
            .sum();
        let tol = eps::<C>() * (n.max(2) as f64).log2() * e_x.max(1.0);
        assert!((e_x - e_u).abs() <= tol, "Parseval n={n}: {e_x} vs {e_u}");
    }
    // cos(2 pi k j / n) has n/2 at frequencies k and n - k and zero elsewhere.
    let (n, k) = (1usize << 16, 1234usize);
    let v = (0..n)
        .map(|j| {
            let t = 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
            <C::RealFloat as Numeric>::from_f64(t.cos())
        })
        .collect();
    let x = Array::<C::RealFloat, B>::from_vec(v, &[n], dev).unwrap();
    let mut want = vec![C::from_real(Numeric::from_f64(0.0)); n];
    want[k] = C::from_real(Numeric::from_f64(n as f64 / 2.0));
    want[n - k] = want[k];
    close_to(
        &fft::fft(&x, None, 0, Norm::Backward).unwrap(),
        &want,
        &[n],
        n,
        "cosine spectrum",
    );
}

fn identities<B: ArrayBackend>(dev: &B) {
    identities_of::<c128, B>(dev);
    identities_of::<c64, B>(dev);
}

/// The message of an error result.
fn err<V>(r: Result<V>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

fn errors_and_empty<B: ArrayBackend>(dev: &B) {
    let bw = Norm::Backward;
    let x = Array::<f64, B>::ones(&[3, 4], dev).unwrap();
    let zero = "Invalid number of FFT data points (0) specified";
    assert_eq!(err(fft::fft(&x, Some(0), -1, bw)), format!("fft: {zero}"));
    assert_eq!(err(fft::rfft(&x, Some(0), 0, bw)), format!("rfft: {zero}"));
    let empty_axis = Array::<c64, B>::zeros(&[3, 0], dev).unwrap();
    assert_eq!(
        err(fft::ifft(&empty_axis, None, 1, bw)),
        format!("ifft: {zero}")
    );
    assert_eq!(
        err(fft::irfft(&empty_axis, None, 1, bw)),
        format!("irfft: {zero}")
    );
    let one = Array::<c128, B>::ones(&[1], dev).unwrap();
    assert_eq!(err(fft::irfft(&one, None, 0, bw)), format!("irfft: {zero}"));
    assert_eq!(err(fft::hfft(&one, None, 0, bw)), format!("hfft: {zero}"));
    assert_eq!(
        fft::irfft(&one, Some(1), 0, bw).unwrap().to_vec().unwrap(),
        vec![1.0]
    );
    // 0-d input has no axis; neither has axis 2 of a 2-d array.
    let s = Array::<f64, B>::scalar(1.0, dev).unwrap();
    assert!(matches!(
        fft::fft(&s, None, -1, bw),
        Err(Error::AxisOutOfRange { .. })
    ));
    assert!(matches!(
        fft::rfft(&x, None, 2, bw),
        Err(Error::AxisOutOfRange { .. })
    ));
    assert!(matches!(
        fft::fft2(&one, None, None, bw),
        Err(Error::AxisOutOfRange { .. })
    ));
    let e = err(fft::fftn(&x, Some(&[4]), Some(&[0, 1]), bw));
    assert!(e.contains("Shape and axes have different lengths"), "{e}");
    assert_eq!(
        err(fft::fftn(&x, Some(&[4, -2]), None, bw)),
        "fftn: Invalid number of FFT data points (-2) specified"
    );
    assert!(fft::rfftn(&x, None, Some(&[]), bw).is_err());
    assert!(fft::irfftn(&x.astype::<c128>().unwrap(), None, Some(&[]), bw).is_err());
    assert!(fft::fftfreq::<f64, B>(0, 1.0, dev).is_err());
    // An empty batch dimension is fine, as in NumPy.
    let e = Array::<f64, B>::zeros(&[0, 5], dev).unwrap();
    assert_eq!(fft::fft(&e, None, -1, bw).unwrap().shape(), &[0, 5]);
    assert_eq!(fft::rfft(&e, None, -1, bw).unwrap().shape(), &[0, 3]);
    assert_eq!(fft::rfft(&e, Some(8), -1, bw).unwrap().shape(), &[0, 5]);
    let ec = Array::<c64, B>::zeros(&[2, 0, 3], dev).unwrap();
    assert_eq!(
        fft::irfft(&ec, Some(4), -1, bw).unwrap().shape(),
        &[2, 0, 4]
    );
    assert_eq!(
        fft::fftn(&ec, None, Some(&[0, 2]), bw).unwrap().shape(),
        &[2, 0, 3]
    );
}

cuprite::test_backends!(
    one_d_every_length,
    norms_and_lengths,
    axes_and_views,
    n_dimensional,
    many_rows,
    helpers,
    identities,
    errors_and_empty,
);
