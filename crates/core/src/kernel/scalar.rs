//! The scalar operations the CPU translation of a kernel calls where Rust has no operator
//! with the kernels' semantics:
//!
//! - integer division and remainder, which Rust's operators would panic on: by zero they give
//!   0, `MIN / -1` wraps to `MIN` and `MIN % -1` is 0 (the CUDA prelude has the same
//!   definitions, `rk_div` and `rk_rem`);
//! - [`f16_from_f64`], the f16 nearest to an f64 (one rounding, as CUDA's `f16(double)`
//!   rounds; `f16::from_f64` of the `half` crate rounds twice, through f32, where the CPU has
//!   F16C);
//! - [`asinh`] and [`acosh`] of f32 and f64 without the overflow of std's above half the
//!   type's largest value (`f32::MAX.asinh()` is infinite; CUDA's `asinhf` is not): above
//!   2^28 they are `ln(|x|) + ln 2`, as cuprite's `arcsinh` and `arccosh` compute.
//!
//! ```
//! use cuprite_core::kernel::scalar::{div, f16_from_f64, rem};
//! assert_eq!(div(7i32, 0), 0);
//! assert_eq!(div(i32::MIN, -1), i32::MIN);
//! assert_eq!(rem(-7i64, 3), -1);
//! assert_eq!(rem(5u8, 0), 0);
//! assert_eq!(div(u64::MAX, 2), u64::MAX / 2);
//! assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11) + 2f64.powi(-40)).to_bits(), 0x3c01);
//! ```

use crate::dtype::f16;

/// The integer element types of kernels.
pub trait KernelInt: Copy + sealed::Sealed {
    /// `self / rhs`, 0 for a zero divisor, wrapping for `MIN / -1`.
    fn kernel_div(self, rhs: Self) -> Self;
    /// `self % rhs`, 0 for a zero divisor and for `MIN % -1`.
    fn kernel_rem(self, rhs: Self) -> Self;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! kernel_int {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl KernelInt for $t {
            #[inline(always)]
            fn kernel_div(self, rhs: Self) -> Self {
                if rhs == 0 { 0 } else { self.wrapping_div(rhs) }
            }
            #[inline(always)]
            fn kernel_rem(self, rhs: Self) -> Self {
                if rhs == 0 { 0 } else { self.wrapping_rem(rhs) }
            }
        }
    )*};
}
kernel_int!(i8, u8, i16, u16, i32, u32, i64, u64);

/// The float types of kernels' `asinh` and `acosh` on the CPU.
pub trait KernelFloat: Copy + sealed::Sealed {
    /// `asinh(self)`, finite for every finite `self`.
    fn kernel_asinh(self) -> Self;
    /// `acosh(self)`, finite for every finite `self >= 1`.
    fn kernel_acosh(self) -> Self;
}

macro_rules! kernel_float {
    ($($t:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl KernelFloat for $t {
            #[inline]
            fn kernel_asinh(self) -> Self {
                let a = self.abs();
                if a > BIG as $t && a.is_finite() {
                    (a.ln() + core::$t::consts::LN_2).copysign(self)
                } else {
                    self.asinh()
                }
            }
            #[inline]
            fn kernel_acosh(self) -> Self {
                if self > BIG as $t && self.is_finite() {
                    self.ln() + core::$t::consts::LN_2
                } else {
                    self.acosh()
                }
            }
        }
    )*};
}

/// 2^28: above it `sqrt(x^2 + 1)` is `|x|` to the last bit of an f64, so
/// `asinh(x) = ln(2|x|)` and `acosh(x) = ln(2x)`.
const BIG: f64 = 268_435_456.0;

kernel_float!(f32, f64);

/// Inverse hyperbolic sine as kernels compute it on the CPU (see the module documentation).
#[inline]
pub fn asinh<T: KernelFloat>(x: T) -> T {
    x.kernel_asinh()
}

/// Inverse hyperbolic cosine as kernels compute it on the CPU (see the module documentation).
#[inline]
pub fn acosh<T: KernelFloat>(x: T) -> T {
    x.kernel_acosh()
}

/// Integer division as kernels define it (see the module documentation).
#[inline(always)]
pub fn div<T: KernelInt>(a: T, b: T) -> T {
    a.kernel_div(b)
}

/// Integer remainder as kernels define it (see the module documentation).
#[inline(always)]
pub fn rem<T: KernelInt>(a: T, b: T) -> T {
    a.kernel_rem(b)
}

/// The f16 nearest to `x` (ties to even; NaN stays NaN), rounded once: `x` is first
/// rounded to f32 toward zero with a sticky last bit (round to odd), which f32's 13 bits
/// more than f16's make exact for the second rounding.
#[inline]
pub fn f16_from_f64(x: f64) -> f16 {
    let mut t = x as f32;
    if t.is_nan() {
        return f16::from_f32(t);
    }
    if (t as f64).abs() > x.abs() {
        // One step toward zero (the bits of a float's magnitude are ordered).
        t = f32::from_bits(t.to_bits() - 1);
    }
    if t as f64 != x {
        t = f32::from_bits(t.to_bits() | 1);
    }
    f16::from_f32(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_never_panics() {
        assert_eq!(div(i64::MIN, -1), i64::MIN);
        assert_eq!(rem(i64::MIN, -1), 0);
        assert_eq!(div(-7i32, 2), -3);
        assert_eq!(rem(-7i32, 2), -1);
        assert_eq!(div(200u8, 7), 28);
        assert_eq!(div(9u8, 0), 0);
        assert_eq!(rem(i32::MAX, 0), 0);
        assert_eq!(div(i8::MIN, -1), i8::MIN);
        assert_eq!(rem(i8::MIN, -1), 0);
        assert_eq!(div(i16::MIN, -1), i16::MIN);
        assert_eq!(div(-7i16, 0), 0);
        assert_eq!(div(u16::MAX, 3), 21845);
        assert_eq!(rem(u32::MAX, 0), 0);
        assert_eq!(div(u64::MAX, u64::MAX), 1);
        assert_eq!(rem(u64::MAX, 1 << 63), (1 << 63) - 1);
    }

    #[test]
    fn inverse_hyperbolic_functions_do_not_overflow() {
        // std's overflow here: f32::MAX.asinh() is infinite.
        let want = |x: f64| x.ln() + std::f64::consts::LN_2;
        for x in [3e38f32, f32::MAX, 2f32.powi(29)] {
            assert!((asinh(x) as f64 - want(x as f64)).abs() < 1e-5 * want(x as f64));
            assert_eq!(asinh(-x), -asinh(x));
            assert_eq!(acosh(x), asinh(x));
        }
        assert!((asinh(f64::MAX) - want(f64::MAX)).abs() < 1e-13);
        assert!(asinh(f32::INFINITY).is_infinite() && asinh(f64::NAN).is_nan());
        assert!(acosh(0.5f64).is_nan() && acosh(f32::INFINITY).is_infinite());
        // Below 2^28 they are std's.
        for x in [0.5f64, 3.0, 1e8, -1e8] {
            assert_eq!(asinh(x), x.asinh());
            assert_eq!(
                acosh(x.abs() + 1.0).to_bits(),
                (x.abs() + 1.0).acosh().to_bits()
            );
        }
    }

    #[test]
    fn f16_from_f64_rounds_once() {
        // 1 + 2^-11 + 2^-40: through f32 it is the tie 1 + 2^-11, which goes to even (1.0);
        // the value itself is above the tie.
        assert_eq!(
            f16_from_f64(1.0 + 2f64.powi(-11) + 2f64.powi(-40)).to_bits(),
            0x3c01
        );
        assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11)).to_bits(), 0x3c00);
        assert_eq!(
            f16_from_f64(-(1.0 + 2f64.powi(-11) + 2f64.powi(-40))).to_bits(),
            0xbc01
        );
        assert_eq!(f16_from_f64(65519.99).to_bits(), f16::MAX.to_bits());
        assert!(f16_from_f64(65520.0).is_infinite());
        assert!(f16_from_f64(1e300).is_infinite() && f16_from_f64(-1e300).is_sign_negative());
        assert_eq!(f16_from_f64(-0.0).to_bits(), 0x8000);
        assert_eq!(f16_from_f64(1e-300).to_bits(), 0);
        // 2^-25 ties to 0; a little more rounds to the smallest subnormal.
        assert_eq!(f16_from_f64(2f64.powi(-25)).to_bits(), 0);
        assert_eq!(f16_from_f64(2f64.powi(-25) * (1.0 + 1e-12)).to_bits(), 1);
        assert!(f16_from_f64(f64::NAN).is_nan());
        assert_eq!(f16_from_f64(f64::INFINITY), f16::INFINITY);
        // Exactly representable values stay.
        for b in (0u16..0x7c00).step_by(7) {
            let h = f16::from_bits(b);
            assert_eq!(f16_from_f64(h.to_f64()).to_bits(), b);
        }
    }
}
