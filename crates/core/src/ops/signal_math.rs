//! The scalar mathematics of the signal-processing element-wise ops declared in the
//! [registry](super::registry): NumPy's `nan_to_num` defaults (a complex value part by
//! part), NumPy's normalised `sinc` (real and complex) and `i0`, the modified Bessel
//! function of the first kind of order 0 by the Chebyshev expansions of Cephes that NumPy's
//! `np.i0` evaluates (Clenshaw's recurrence, [0, 8] and (8, inf)). Both are computed in f64
//! (every float type rounds the f64 result once, as the special functions do).

use crate::dtype::{Float, Inexact, Scalar, c64, c128};

/// NumPy's normalised `sinc(x) = sin(pi x) / (pi x)`, with NumPy's guard at 0 (it divides at
/// `1e-20` instead: `sinc(±0) == 1`); NaN at `±inf` and NaN.
#[inline(always)]
pub(super) fn sinc(x: f64) -> f64 {
    let y = std::f64::consts::PI * if x == 0.0 { 1.0e-20 } else { x };
    y.sin() / y
}

/// NumPy's normalised sinc of any inexact type: real types through [`sinc`] in f64, complex
/// ones as `sin(pi z) / (pi z)` in c128 (num-complex's `sin` and division; `1e-20` for a
/// zero `z`, as NumPy), each rounded once to the element type.
#[inline(always)]
pub(super) fn sinc_any<T: Inexact>(x: T) -> T {
    match x.to_scalar() {
        Scalar::C64(z) => T::from_scalar(Scalar::C128(sinc_complex(c128::new(
            z.re as f64,
            z.im as f64,
        )))),
        Scalar::C128(z) => T::from_scalar(Scalar::C128(sinc_complex(z))),
        _ => T::from_real(super::math_extra::via_f64(x.re(), sinc)),
    }
}

/// `sin(pi z) / (pi z)`, divided at `1e-20` where `z` is zero.
#[inline(always)]
fn sinc_complex(z: c128) -> c128 {
    let z = if z == c128::new(0.0, 0.0) {
        c128::new(1.0e-20, 0.0)
    } else {
        z
    };
    let y = z * std::f64::consts::PI;
    y.sin() / y
}

/// NumPy's `nan_to_num` with its defaults: NaN to 0, the infinities to the type's largest
/// and most negative finite values; a complex value part by part.
#[inline(always)]
pub(super) fn nan_to_num<T: Inexact>(x: T) -> T {
    match x.to_scalar() {
        Scalar::C64(z) => T::from_scalar(Scalar::C64(c64::new(
            nan_to_num_real(z.re),
            nan_to_num_real(z.im),
        ))),
        Scalar::C128(z) => T::from_scalar(Scalar::C128(c128::new(
            nan_to_num_real(z.re),
            nan_to_num_real(z.im),
        ))),
        _ => T::from_real(nan_to_num_real(x.re())),
    }
}

/// [`nan_to_num`] of one real value (a 16-bit float keeps its own largest value).
#[inline(always)]
fn nan_to_num_real<R: Float>(x: R) -> R {
    use num_traits::Float as F;
    if F::is_nan(x) {
        R::ZERO
    } else if x == F::infinity() {
        F::max_value()
    } else if x == F::neg_infinity() {
        F::min_value()
    } else {
        x
    }
}

/// Cephes' Chebyshev coefficients of `exp(-x) i0(x)` on [0, 8] (NumPy's `_i0A`).
const I0_A: [f64; 30] = [
    -4.4153416464793395e-18,
    3.3307945188222384e-17,
    -2.431279846547955e-16,
    1.715391285555133e-15,
    -1.1685332877993451e-14,
    7.676185498604936e-14,
    -4.856446783111929e-13,
    2.95505266312964e-12,
    -1.726826291441556e-11,
    9.675809035373237e-11,
    -5.189795601635263e-10,
    2.6598237246823866e-09,
    -1.300025009986248e-08,
    6.046995022541919e-08,
    -2.670793853940612e-07,
    1.1173875391201037e-06,
    -4.4167383584587505e-06,
    1.6448448070728896e-05,
    -5.754195010082104e-05,
    0.00018850288509584165,
    -0.0005763755745385824,
    0.0016394756169413357,
    -0.004324309995050576,
    0.010546460394594998,
    -0.02373741480589947,
    0.04930528423967071,
    -0.09490109704804764,
    0.17162090152220877,
    -0.3046826723431984,
    0.6767952744094761,
];

/// Cephes' Chebyshev coefficients of `exp(-x) sqrt(x) i0(x)` in `8 / x` on (8, inf)
/// (NumPy's `_i0B`).
const I0_B: [f64; 25] = [
    -7.233180487874754e-18,
    -4.830504485944182e-18,
    4.46562142029676e-17,
    3.461222867697461e-17,
    -2.8276239805165836e-16,
    -3.425485619677219e-16,
    1.7725601330565263e-15,
    3.8116806693526224e-15,
    -9.554846698828307e-15,
    -4.150569347287222e-14,
    1.54008621752141e-14,
    3.8527783827421426e-13,
    7.180124451383666e-13,
    -1.7941785315068062e-12,
    -1.3215811840447713e-11,
    -3.1499165279632416e-11,
    1.1889147107846439e-11,
    4.94060238822497e-10,
    3.3962320257083865e-09,
    2.266668990498178e-08,
    2.0489185894690638e-07,
    2.8913705208347567e-06,
    6.889758346916825e-05,
    0.0033691164782556943,
    0.8044904110141088,
];

/// Clenshaw's recurrence for a Chebyshev series, as NumPy's `_chbevl`.
#[inline(always)]
fn chbevl(x: f64, c: &[f64]) -> f64 {
    let (mut b0, mut b1, mut b2) = (c[0], 0.0, 0.0);
    for &ci in &c[1..] {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + ci;
    }
    0.5 * (b0 - b2)
}

/// NumPy's `i0`: `exp(|x|) chbevl(|x| / 2 - 2, A)` for `|x| <= 8`, else
/// `exp(|x|) chbevl(32 / |x| - 2, B) / sqrt(|x|)` (so `inf` once `exp` overflows, at 709.8,
/// and NaN at `±inf` and NaN, as NumPy's).
#[inline(always)]
pub(super) fn i0(x: f64) -> f64 {
    let x = x.abs();
    if x <= 8.0 {
        x.exp() * chbevl(x / 2.0 - 2.0, &I0_A)
    } else {
        x.exp() * chbevl(32.0 / x - 2.0, &I0_B) / x.sqrt()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn values() {
        // scipy.special.i0 and np.sinc.
        assert!((super::i0(1.0) - 1.266_065_877_752_008_4).abs() < 1e-15);
        assert!((super::i0(-10.0) / 2_815.716_628_466_254_4 - 1.0).abs() < 1e-15);
        assert_eq!(super::sinc(0.0), 1.0);
        assert!(super::sinc(0.5) - 2.0 / std::f64::consts::PI < 1e-16);
        assert!(super::i0(f64::INFINITY).is_nan() && super::sinc(f64::NAN).is_nan());
    }
}
