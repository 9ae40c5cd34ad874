//! Scalar kernels behind the inexact ops where `num_complex` or `std` disagree with the C99
//! functions NumPy calls: complex `log` accurate near `|z| = 1`, `log2`/`log10` scaled as
//! NumPy scales them, inverse trigonometric and hyperbolic functions by Kahan's formulas
//! ("Branch Cuts for Complex Elementary Functions", 1987: accurate near 0 and 1, and the
//! sign of a zero picks the side of a branch cut as C99 Annex G), and real `asinh`/`acosh`
//! that do not overflow for huge arguments.

use num_complex::Complex;
use num_traits::{Float, FloatConst};

/// `2^28`, above which `asinh(x) = ln(2x)` to the last bit (glibc's threshold).
fn big<F: Float + FloatConst>() -> F {
    F::from(268_435_456.0).unwrap_or_else(F::max_value)
}

/// `a / b` as NumPy divides complex values (Smith's algorithm): the divisor's smaller part
/// over its larger one, so that no `|b|^2` is formed (it overflows for parts beyond the
/// square root of the largest float); a zero divisor divides each part of `a` by `+0`
/// (`inf`s and NaNs), NaN parts give NaN. Every product is a plain multiplication, no FMA,
/// as the CUDA kernel's `np_cdiv`.
#[inline(always)]
pub(crate) fn c_div<F: Float>(a: Complex<F>, b: Complex<F>) -> Complex<F> {
    let (br, bi) = (b.re.abs(), b.im.abs());
    if br >= bi {
        // (`bi <= br`: both parts are zero.)
        if br == F::zero() {
            return Complex::new(a.re / br, a.im / br);
        }
        let rat = b.im / b.re;
        let scl = F::one() / (b.re + b.im * rat);
        Complex::new((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl)
    } else {
        let rat = b.re / b.im;
        let scl = F::one() / (b.im + b.re * rat);
        Complex::new((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl)
    }
}

/// Real inverse hyperbolic sine without overflow for huge `|x|`.
#[inline(always)]
pub(crate) fn real_asinh<F: Float + FloatConst>(x: F) -> F {
    let a = x.abs();
    if a > big() && a.is_finite() {
        (a.ln() + F::from(std::f64::consts::LN_2).unwrap_or_else(F::zero)).copysign(x)
    } else {
        x.asinh()
    }
}

/// Real inverse hyperbolic cosine without overflow for huge `x`.
#[inline(always)]
pub(crate) fn real_acosh<F: Float + FloatConst>(x: F) -> F {
    if x > big() && x.is_finite() {
        x.ln() + F::from(std::f64::consts::LN_2).unwrap_or_else(F::zero)
    } else {
        x.acosh()
    }
}

/// Complex natural logarithm; the real part uses `log1p` when `|z|` is near 1.
#[inline(always)]
pub(crate) fn c_ln<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let (a, b) = (z.re.abs(), z.im.abs());
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    let half = F::from(0.5).unwrap_or_else(F::zero);
    let two = F::one() + F::one();
    let re = if hi > half && hi < two {
        half * ((hi - F::one()) * (hi + F::one()) + lo * lo).ln_1p()
    } else {
        a.hypot(b).ln()
    };
    Complex::new(re, z.im.atan2(z.re))
}

/// Complex base-2 logarithm, `ln(z) * log2(e)` as NumPy computes it.
#[inline(always)]
pub(crate) fn c_log2<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    c_ln(z) * F::from(std::f64::consts::LOG2_E).unwrap_or_else(F::zero)
}

/// Complex base-10 logarithm, `ln(z) * log10(e)` as NumPy computes it.
#[inline(always)]
pub(crate) fn c_log10<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    c_ln(z) * F::from(std::f64::consts::LOG10_E).unwrap_or_else(F::zero)
}

/// `(1 - z, 1 + z)` with exact imaginary parts (signed zeros kept).
#[inline(always)]
fn one_pm<F: Float + FloatConst>(z: Complex<F>) -> (Complex<F>, Complex<F>) {
    (
        Complex::new(F::one() - z.re, -z.im),
        Complex::new(F::one() + z.re, z.im),
    )
}

/// Complex inverse sine, Kahan's formula (accurate near 0, C99 branch cuts).
#[inline(always)]
pub(crate) fn c_asin<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let (m, p) = one_pm(z);
    let (sm, sp) = (m.sqrt(), p.sqrt());
    let re = z.re.atan2((sm * sp).re);
    let im = real_asinh((sm.conj() * sp).im);
    Complex::new(re, im)
}

/// Complex inverse cosine, Kahan's formula.
#[inline(always)]
pub(crate) fn c_acos<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let (m, p) = one_pm(z);
    let (sm, sp) = (m.sqrt(), p.sqrt());
    let two = F::one() + F::one();
    let re = two * sm.re.atan2(sp.re);
    let im = real_asinh((sp.conj() * sm).im);
    Complex::new(re, im)
}

/// Complex inverse hyperbolic cosine, Kahan's formula.
#[inline(always)]
pub(crate) fn c_acosh<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let sm = Complex::new(z.re - F::one(), z.im).sqrt();
    let sp = Complex::new(z.re + F::one(), z.im).sqrt();
    let two = F::one() + F::one();
    let re = real_asinh((sm.conj() * sp).re);
    let im = two * sm.im.atan2(sp.re);
    Complex::new(re, im)
}

/// Complex inverse hyperbolic tangent:
/// `Re = sign(x) log1p(4|x| / ((1-|x|)^2 + y^2)) / 4`, `Im = atan2(2y, (1-x)(1+x) - y^2) / 2`.
#[inline(always)]
pub(crate) fn c_atanh<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let (x, y) = (z.re, z.im);
    let one = F::one();
    let two = one + one;
    let four = two + two;
    // The real part is odd in x: evaluate it at |x| so that log1p never meets -1.
    let ax = x.abs();
    let d = (one - ax) * (one - ax) + y * y;
    let re = ((four * ax / d).ln_1p() / four).copysign(x);
    let im = (two * y).atan2((one - x) * (one + x) - y * y) / two;
    Complex::new(re, im)
}

/// Complex inverse hyperbolic sine: `-i asin(i z)`.
#[inline(always)]
pub(crate) fn c_asinh<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let w = c_asin(Complex::new(-z.im, z.re));
    Complex::new(w.im, -w.re)
}

/// Complex inverse tangent: `-i atanh(i z)`.
#[inline(always)]
pub(crate) fn c_atan<F: Float + FloatConst>(z: Complex<F>) -> Complex<F> {
    let w = c_atanh(Complex::new(-z.im, z.re));
    Complex::new(w.im, -w.re)
}
