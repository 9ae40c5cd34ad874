//! Mathematical element-wise ops of two values: `power`, `arctan2`, `hypot`, `copysign`,
//! `fmod`, and `clip` with scalar bounds. Integer arithmetic wraps and never panics;
//! complex `power` follows NumPy's `npy_cpow` (exact small integer powers, `0 ** w` rules);
//! real `power` takes the half-integer exponents of distance formulas from `sqrt`
//! ([`real_pow`]).

use super::{Atan2, BinaryOp, Copysign, Fmod, Hypot, Maximum, Minimum, Pow, UnaryOp};
use crate::dtype::{Element, Float, Numeric, Real, Scalar};
use num_complex::Complex;

/// `base ** exp` with wrapping multiplication, as NumPy's integer power; a negative
/// exponent gives 1 for base 1, ±1 for base -1 and 0 otherwise (NumPy raises instead).
#[inline(always)]
fn int_pow<I: num_traits::PrimInt + num_traits::WrappingMul>(base: I, exp: I) -> I {
    if exp < I::zero() {
        let minus_one = I::zero().checked_sub(&I::one());
        return if base == I::one() {
            I::one()
        } else if Some(base) == minus_one {
            if exp % (I::one() + I::one()) == I::zero() {
                I::one()
            } else {
                base
            }
        } else {
            I::zero()
        };
    }
    let (mut acc, mut b, mut e) = (I::one(), base, exp);
    while e > I::zero() {
        if e & I::one() == I::one() {
            acc = acc.wrapping_mul(&b);
        }
        e = e >> 1;
        if e > I::zero() {
            b = b.wrapping_mul(&b);
        }
    }
    acc
}

/// NumPy's complex power (`npy_cpow`).
#[inline(always)]
fn complex_pow<F: Float>(a: Complex<F>, b: Complex<F>) -> Complex<F> {
    let (zero, one) = (F::zero(), F::one());
    if b.re == zero && b.im == zero {
        return Complex::new(one, zero);
    }
    if a.re == zero && a.im == zero {
        return if b.re > zero {
            Complex::new(zero, zero)
        } else {
            Complex::new(F::nan(), F::nan())
        };
    }
    if b.im == zero
        && b.re == num_traits::Float::trunc(b.re)
        && num_traits::Float::abs(b.re) < F::from_f64(100.0)
    {
        let n = b.re.to_i32().unwrap_or(0);
        let mut mask = 1u32;
        let mut aa = Complex::new(one, zero);
        let mut p = a;
        let m = n.unsigned_abs();
        loop {
            if m & mask != 0 {
                aa = aa * p;
            }
            mask <<= 1;
            if m < mask || mask == 0 {
                break;
            }
            p = p * p;
        }
        return if n < 0 {
            Complex::new(one, zero) / aa
        } else {
            aa
        };
    }
    a.powc(b)
}

/// `x ** y` of real floats: the platform's `pow`, except for the exponents of distance and
/// normalisation formulas (`r**-1.5` in gravity and Coulomb sums, `r**1.5`, `r**-0.5`,
/// `r**0.5`), taken from `sqrt` ([`sqrt_power`]): a tenth of `pow`'s cost (`pow` is most
/// of an n-body step).
#[inline(always)]
pub(crate) fn real_pow<F: num_traits::Float>(x: F, y: F) -> F {
    match half_units(y) {
        Some(1) => sqrt_power::<F, 1>(x),
        Some(-1) => sqrt_power::<F, -1>(x),
        Some(3) => sqrt_power::<F, 3>(x),
        Some(-3) => sqrt_power::<F, -3>(x),
        _ => x.powf(y),
    }
}

/// `2y` for the exponents [`sqrt_power`] computes (±0.5, ±1.5), `None` for any other.
#[inline(always)]
fn half_units<F: num_traits::Float>(y: F) -> Option<i8> {
    let h = F::from(0.5).unwrap_or_else(F::zero);
    let t = F::from(1.5).unwrap_or_else(F::zero);
    if y == h {
        Some(1)
    } else if y == -h {
        Some(-1)
    } else if y == t {
        Some(3)
    } else if y == -t {
        Some(-3)
    } else {
        None
    }
}

/// `x ** (E / 2)` for `E` in {1, -1, 3, -3}: `sqrt(x)`, `1 / sqrt(x)`, `x * sqrt(x)` and
/// `(1 / x) / sqrt(x)`. `sqrt` is correctly rounded; the others round two or three times:
/// at most 2 ulp from `pow` over 800 000 inputs spanning every binade (the tests below;
/// 1 ulp but near overflow). Zeros, infinities, negative values and NaN keep `pow`'s
/// rules: the formulas read `|x|` (`pow(-0, 0.5)` is `+0`, `pow(-inf, -1.5)` is `+0`), and
/// a finite negative `x` gives NaN. No library call and no branch: a loop of it vectorises.
#[inline(always)]
pub(crate) fn sqrt_power<F: num_traits::Float, const E: i8>(x: F) -> F {
    let a = x.abs();
    let s = a.sqrt();
    let r = match E {
        1 => s,
        -1 => F::one() / s,
        3 => a * s,
        _ => (F::one() / a) / s,
    };
    if x < F::zero() && x > F::neg_infinity() {
        F::nan()
    } else {
        r
    }
}

/// [`sqrt_power`] of an element of a real float type (any other is returned unchanged:
/// [`with_scalar`] calls it for those types only).
#[inline(always)]
fn sqrt_power_of<T: Element, const E: i8>(x: T) -> T {
    match x.to_scalar() {
        Scalar::F32(v) => T::from_scalar(Scalar::F32(sqrt_power::<f32, E>(v))),
        Scalar::F64(v) => T::from_scalar(Scalar::F64(sqrt_power::<f64, E>(v))),
        _ => x,
    }
}

/// A loop over the elements of one operand, given the function to apply to each: what
/// [`with_scalar`] hands `x -> op(x, s)` to.
pub trait ScalarBody<T, O> {
    /// What the loop returns.
    type Out;
    /// Runs the loop with `f`.
    fn run(self, f: impl Fn(T) -> O + Copy + Send + Sync) -> Self::Out;
}

/// Runs `body` with `x -> op(x, s)` (`op(s, x)` when `scalar_first`), for backends whose
/// loops run on the host. A real float `power` with the exponent ±0.5 or ±1.5 gets that
/// exponent's [`sqrt_power`] (the values `apply` gives, but with no test of the exponent
/// and no library call in the loop, so that the loop vectorises: `x ** -1.5` of 4M f64
/// took 15 ms through `apply`); any other op or scalar gets `apply`.
#[inline(always)]
pub fn with_scalar<T: Element, K: BinaryOp<T>, L: ScalarBody<T, K::Out>>(
    op: K,
    s: T,
    scalar_first: bool,
    body: L,
) -> L::Out {
    if const { super::registry::str_eq(K::NAME, "power") } && !scalar_first {
        // `power` of a real float returns its own type: the conversion is the identity.
        let own = |v: T| K::Out::from_scalar(v.to_scalar());
        let e = match s.to_scalar() {
            Scalar::F32(y) => half_units(y),
            Scalar::F64(y) => half_units(y),
            _ => None,
        };
        match e {
            Some(1) => return body.run(move |x| own(sqrt_power_of::<T, 1>(x))),
            Some(-1) => return body.run(move |x| own(sqrt_power_of::<T, -1>(x))),
            Some(3) => return body.run(move |x| own(sqrt_power_of::<T, 3>(x))),
            Some(-3) => return body.run(move |x| own(sqrt_power_of::<T, -3>(x))),
            _ => {}
        }
    }
    if scalar_first {
        body.run(move |x| op.apply(s, x))
    } else {
        body.run(move |x| op.apply(x, s))
    }
}

impl<T: Numeric> BinaryOp<T> for Pow {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        let s = match (a.to_scalar().widen_half(), b.to_scalar().widen_half()) {
            (Scalar::I8(x), Scalar::I8(n)) => Scalar::I8(int_pow(x, n)),
            (Scalar::U8(x), Scalar::U8(n)) => Scalar::U8(int_pow(x, n)),
            (Scalar::I16(x), Scalar::I16(n)) => Scalar::I16(int_pow(x, n)),
            (Scalar::U16(x), Scalar::U16(n)) => Scalar::U16(int_pow(x, n)),
            (Scalar::I32(x), Scalar::I32(n)) => Scalar::I32(int_pow(x, n)),
            (Scalar::U32(x), Scalar::U32(n)) => Scalar::U32(int_pow(x, n)),
            (Scalar::I64(x), Scalar::I64(n)) => Scalar::I64(int_pow(x, n)),
            (Scalar::U64(x), Scalar::U64(n)) => Scalar::U64(int_pow(x, n)),
            (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(real_pow(x, y)),
            (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(real_pow(x, y)),
            (Scalar::C64(x), Scalar::C64(y)) => Scalar::C64(complex_pow(x, y)),
            (Scalar::C128(x), Scalar::C128(y)) => Scalar::C128(complex_pow(x, y)),
            // Both operands have the type `T`, so the arms above are exhaustive.
            (other, _) => other,
        };
        T::from_scalar(s)
    }
}

/// Defines binary ops of two real floats returning the same type.
macro_rules! float_binary {
    ($($name:ident, |$a:ident, $b:ident| $body:expr;)*) => {$(
        impl<T: Float> BinaryOp<T> for $name {
            type Out = T;
            #[inline(always)]
            fn apply(&self, $a: T, $b: T) -> T {
                $body
            }
        }
    )*};
}

float_binary! {
    Atan2, |a, b| num_traits::Float::atan2(a, b);
    Hypot, |a, b| num_traits::Float::hypot(a, b);
    Copysign, |a, b| num_traits::Float::copysign(a, b);
}

impl<T: Real> BinaryOp<T> for Fmod {
    type Out = T;
    #[inline(always)]
    fn apply(&self, a: T, b: T) -> T {
        let s = match (a.to_scalar().widen_half(), b.to_scalar().widen_half()) {
            // C's `%`: by zero gives 0 (as NumPy), MIN % -1 gives 0 (no overflow).
            (Scalar::I8(x), Scalar::I8(y)) => Scalar::I8(x.checked_rem(y).unwrap_or(0)),
            (Scalar::U8(x), Scalar::U8(y)) => Scalar::U8(x.checked_rem(y).unwrap_or(0)),
            (Scalar::I16(x), Scalar::I16(y)) => Scalar::I16(x.checked_rem(y).unwrap_or(0)),
            (Scalar::U16(x), Scalar::U16(y)) => Scalar::U16(x.checked_rem(y).unwrap_or(0)),
            (Scalar::I32(x), Scalar::I32(y)) => Scalar::I32(x.checked_rem(y).unwrap_or(0)),
            (Scalar::U32(x), Scalar::U32(y)) => Scalar::U32(x.checked_rem(y).unwrap_or(0)),
            (Scalar::I64(x), Scalar::I64(y)) => Scalar::I64(x.checked_rem(y).unwrap_or(0)),
            (Scalar::U64(x), Scalar::U64(y)) => Scalar::U64(x.checked_rem(y).unwrap_or(0)),
            (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(x % y),
            (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(x % y),
            // Both operands have the type `T`, so the arms above are exhaustive.
            (other, _) => other,
        };
        T::from_scalar(s)
    }
}

/// `minimum(maximum(x, lo), hi)` with scalar bounds, as NumPy's `clip`: a NaN in `x` or in
/// a bound propagates; when `lo > hi` every element becomes `hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clip<T> {
    /// Lower bound.
    pub lo: T,
    /// Upper bound.
    pub hi: T,
}

impl<T: Element> Clip<T> {
    /// Bounds worth testing (the registry's examples): ordinary, crossed (`lo > hi`) and a
    /// NaN bound.
    pub(crate) fn parameter_examples() -> Vec<Self> {
        let v = super::registry::example_value::<T>;
        vec![
            Clip {
                lo: v(-1.5),
                hi: v(7.0),
            },
            Clip {
                lo: v(5.0),
                hi: v(2.0),
            },
            Clip {
                lo: v(f64::NAN),
                hi: v(100.0),
            },
        ]
    }
}

impl<T: Real> UnaryOp<T> for Clip<T> {
    type Out = T;
    #[inline(always)]
    fn apply(&self, x: T) -> T {
        Minimum.apply(Maximum.apply(x, self.lo), self.hi)
    }
    fn params(&self) -> Vec<Scalar> {
        vec![self.lo.to_scalar(), self.hi.to_scalar()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::c128;
    use crate::ops::vmath::tests::ulps_f64;

    #[test]
    fn half_integer_powers_from_sqrt_are_within_two_ulp_of_pow() {
        // 400 000 bit patterns spread evenly over the positive finite f64 (every binade,
        // the subnormals included), and their neighbours.
        let mut worst = [0.0f64; 4];
        let step = f64::MAX.to_bits() / 400_000;
        for k in 1..=400_000u64 {
            for bits in [k * step, k * step + 1] {
                let x = f64::from_bits(bits);
                for (i, y) in [0.5, -0.5, 1.5, -1.5].into_iter().enumerate() {
                    let (got, want) = (real_pow(x, y), x.powf(y));
                    let u = ulps_f64(got, want);
                    assert!(u <= 2.0, "{x:e} ** {y}: {got:e}, pow {want:e} ({u} ulp)");
                    worst[i] = worst[i].max(u);
                }
            }
        }
        // sqrt is correctly rounded; pow is within an ulp (it differs from sqrt at one of
        // these inputs), and the others round two or three times.
        assert!(
            worst[0] <= 1.0 && worst.iter().all(|&u| u <= 2.0),
            "{worst:?}"
        );
        // f32 keeps its own precision.
        for x in [1e-40f32, 1e-30, 0.3, 1.0, 2.0, 7.5, 1e20, 3e38] {
            for y in [0.5f32, -0.5, 1.5, -1.5] {
                let want = (x as f64).powf(y as f64);
                let got = real_pow(x, y) as f64;
                assert!(
                    (got - want).abs() <= 2.5e-7 * want.abs() || (want as f32) == real_pow(x, y),
                    "{x} ** {y}: {got}, exact {want}"
                );
            }
        }
    }

    #[test]
    fn half_integer_powers_keep_pow_rules_at_the_edges() {
        for y in [0.5, -0.5, 1.5, -1.5] {
            for x in [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, -2.0, f64::NAN] {
                let (got, want) = (real_pow(x, y), x.powf(y));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{x} ** {y}: {got}, pow {want}"
                );
            }
        }
        // Other exponents are pow's.
        assert_eq!(real_pow(3.0f64, 2.5), 3.0f64.powf(2.5));
        assert_eq!(Pow.apply(4.0f64, -1.5), 0.125);
        assert_eq!(Pow.apply(4.0f32, 1.5), 8.0);
    }

    /// Collects `f` of each input: the loop a host backend hands to `with_scalar`.
    struct Collect<'a, T>(&'a [T]);

    impl<T: Element, O: Element> ScalarBody<T, O> for Collect<'_, T> {
        type Out = Vec<O>;
        fn run(self, f: impl Fn(T) -> O + Copy + Send + Sync) -> Vec<O> {
            self.0.iter().map(|&x| f(x)).collect()
        }
    }

    /// `with_scalar` of `power` gives `apply`'s bits for every exponent, on either side.
    fn with_scalar_is_apply<T: Float>(xs: &[T], ys: &[T]) {
        for &y in ys {
            for first in [false, true] {
                let got: Vec<T> = with_scalar(Pow, y, first, Collect(xs));
                for (&x, g) in xs.iter().zip(got) {
                    let want = if first {
                        Pow.apply(y, x)
                    } else {
                        Pow.apply(x, y)
                    };
                    assert!(
                        g.to_scalar() == want.to_scalar()
                            || (g.is_nan_value() && want.is_nan_value()),
                        "{x:?} ** {y:?} (scalar first: {first}): {g:?}, apply {want:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn power_by_a_scalar_has_the_bits_of_apply() {
        let xs: Vec<f64> = [0.0, -0.0, 1.0, 2.0, 0.3, 1e-310, 1e300, -2.0]
            .into_iter()
            .chain([
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                f64::MIN_POSITIVE,
            ])
            .chain((1..200).map(|i| i as f64 * 0.731))
            .collect();
        let ys = [0.5, -0.5, 1.5, -1.5, 2.0, 0.25, -1.0, 2.5];
        with_scalar_is_apply(&xs, &ys);
        let xs32: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        let ys32: Vec<f32> = ys.iter().map(|&y| y as f32).collect();
        with_scalar_is_apply(&xs32, &ys32);
        // Other ops and types take `apply`.
        let got: Vec<i64> = with_scalar(Pow, 3i64, false, Collect(&[2i64, -3, 0]));
        assert_eq!(got, vec![8, -27, 0]);
        let got: Vec<f64> = with_scalar(Hypot, 4.0, true, Collect(&[3.0f64]));
        assert_eq!(got, vec![5.0]);
    }

    #[test]
    fn integer_power_wraps_and_truncates() {
        assert_eq!(Pow.apply(3i32, 4), 81);
        assert_eq!(Pow.apply(2i32, 31), i32::MIN);
        assert_eq!(Pow.apply(2u8, 8), 0);
        assert_eq!(Pow.apply(0i64, 0), 1);
        assert_eq!(Pow.apply(-1i64, -3), -1);
        assert_eq!(Pow.apply(-1i64, -4), 1);
        assert_eq!(Pow.apply(1i32, -7), 1);
        assert_eq!(Pow.apply(5i32, -1), 0);
        assert_eq!(Pow.apply(3i64, 40), 3i64.wrapping_pow(40));
    }

    #[test]
    fn complex_power_special_cases() {
        let z = |r, i| c128::new(r, i);
        assert_eq!(Pow.apply(z(0.0, 0.0), z(2.0, 0.0)), z(0.0, 0.0));
        assert!(Pow.apply(z(0.0, 0.0), z(-1.0, 0.0)).re.is_nan());
        assert_eq!(Pow.apply(z(1.0, 1.0), z(2.0, 0.0)), z(0.0, 2.0));
        assert_eq!(Pow.apply(z(0.0, 2.0), z(-1.0, 0.0)), z(0.0, -0.5));
        assert_eq!(Pow.apply(z(f64::NAN, 1.0), z(0.0, 0.0)), z(1.0, 0.0));
    }

    #[test]
    fn fmod_and_clip() {
        assert_eq!(Fmod.apply(-7i32, 2), -1);
        assert_eq!(Fmod.apply(i32::MIN, -1), 0);
        assert_eq!(Fmod.apply(7u8, 0), 0);
        assert!(Fmod.apply(1.0f64, 0.0).is_nan());
        let c = Clip {
            lo: 0.0f64,
            hi: 1.0,
        };
        assert_eq!(c.apply(2.0), 1.0);
        assert!(c.apply(f64::NAN).is_nan());
        assert!(
            Clip {
                lo: f64::NAN,
                hi: 1.0
            }
            .apply(0.5)
            .is_nan()
        );
        assert_eq!(Clip { lo: 3, hi: 1 }.apply(2i32), 1);
    }
}
