//! The scalar integer operations that Rust's operators would panic on, with the semantics
//! of cuprite kernels: division and remainder by zero give 0, `MIN / -1` wraps to `MIN` and
//! `MIN % -1` is 0. The CPU translation of a kernel calls these; the CUDA prelude has the same
//! definitions (`rk_div`, `rk_rem`).
//!
//! ```
//! use cuprite_core::kernel::scalar::{div, rem};
//! assert_eq!(div(7i32, 0), 0);
//! assert_eq!(div(i32::MIN, -1), i32::MIN);
//! assert_eq!(rem(-7i64, 3), -1);
//! assert_eq!(rem(5u8, 0), 0);
//! ```

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
kernel_int!(u8, i32, i64);

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
    }
}
