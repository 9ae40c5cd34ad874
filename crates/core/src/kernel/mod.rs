//! Kernels written in Rust: the values the `elementwise!` macro and the `#[kernel]`
//! attribute of the `cuprite` crate expand to, and the runtime that calls them on arrays.
//!
//! A kernel is a function of 1 to 4 element values (`bool`, `i8`, `u8`, `i16`, `u16`,
//! `i32`, `u32`, `i64`, `u64`, `f16`, `bf16`, `f32`, `f64`; not the complex types) returning
//! one, written in a subset of Rust. The macros check the subset and translate it twice: to
//! Rust for the CPU (a plain function, run in a parallel loop) and to CUDA C for the GPU (a
//! device function, compiled by NVRTC at the first call and cached). Both translations
//! carry the same semantics:
//!
//! - integers of every width and signedness: `+ - *`, unary `-` (on unsigned types too:
//!   `0 - x`, as NumPy's `negative`), `<< >>` (shift amounts taken modulo the bit width) and
//!   `abs` wrap (`abs` of an unsigned value is the value); integer `/` and `%` by zero give 0
//!   (as NumPy does) and `MIN / -1` wraps to `MIN` (`MIN % -1` is 0): a kernel never panics.
//!   Both operands of an operator have one type, as in Rust (an unsuffixed literal takes the
//!   other operand's type; other conversions are written with `as`);
//! - f32 and f64 follow IEEE 754 as Rust does: `+ - * /`, `%` (fmod), `sqrt`, comparisons,
//!   casts, `mul_add`, `floor`/`ceil`/`round`/`trunc`, `abs`, `min`/`max`, `copysign` agree
//!   bit for bit between the backends (CUDA code is compiled without FMA contraction); the
//!   transcendental functions agree within a few ulps;
//! - f16 and bf16 compute every operation in f32 and round its result once to the type, to
//!   nearest, ties to even (as NumPy computes float16): each `+ - * / %` and each math method
//!   rounds (an expression of several operations rounds after each one), comparisons are
//!   exact; negation, `abs` and the predicates (`is_nan`, ...) work on the bits. So
//!   arithmetic, `sqrt`, the rounding functions, `min`/`max`, `copysign` agree bit for bit
//!   between the backends, and transcendental functions agree within a few f32 ulps before
//!   the final rounding (so mostly exactly, at most a unit of the half type apart).
//!   `mul_add` of 16-bit floats is f32's fused multiply-add rounded once more to the type:
//!   two roundings, not the correctly rounded half-precision FMA. A float literal in a
//!   16-bit context is its value rounded once to the type (f16: from the literal's f64
//!   value; bf16: from its f32 value, `bf16::from_f32(lit as f32)`); overflow gives
//!   infinity, results below the smallest subnormal give a signed zero;
//! - `as` casts are Rust's between the primitive types (float to integer truncates toward
//!   zero, saturates and gives 0 for NaN; integer to integer wraps or truncates; `bool` to
//!   integer is 0 or 1; numbers do not cast to `bool`, nor `bool` to floats). A 16-bit
//!   float casts to anything through its exact f32 value (to an integer: truncating,
//!   saturating, NaN to 0); to f16 every value rounds once from its exact value (an f64 too,
//!   see [`scalar::f16_from_f64`]); to bf16 through f32 (`bf16::from_f32(x as f32)`).
//!
//! [`MapKernel1`] ... [`MapKernel4`] apply a kernel to arrays broadcast together (NumPy
//! rules), on any backend, for views of any layout; the result is a new C-contiguous array.

mod map;
pub mod scalar;

pub use map::{MapKernel1, MapKernel2, MapKernel3, MapKernel4};

use crate::dtype::{Element, bf16, f16};

mod sealed {
    pub trait Sealed {}
}

/// The element types a kernel takes and returns: `bool`, `i8`, `u8`, `i16`, `u16`, `i32`,
/// `u32`, `i64`, `u64`, [`f16`], [`bf16`], `f32`, `f64`.
pub trait KernelElement: Element + sealed::Sealed {}

macro_rules! kernel_elements {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl KernelElement for $t {}
    )*};
}
kernel_elements!(
    bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64
);

/// What a backend needs to know of a kernel besides its CPU function: its name (for error
/// messages and the GPU module cache) and its CUDA translation with a hash of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelSpec {
    name: &'static str,
    cuda: &'static str,
    hash: u64,
}

/// FNV-1a of `s`, at compile time.
const fn fnv1a(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut h: u64 = 0xcbf29ce484222325;
    let mut i = 0;
    while i < b.len() {
        h ^= b[i] as u64;
        h = h.wrapping_mul(0x100000001b3);
        i += 1;
    }
    h
}

impl KernelSpec {
    /// A spec named `name` whose CUDA translation is the device function `cuda`
    /// (`__device__ OUT rk_body(A0 a, ...)`, as the macros emit it).
    pub const fn new(name: &'static str, cuda: &'static str) -> Self {
        KernelSpec {
            name,
            cuda,
            hash: fnv1a(cuda),
        }
    }

    /// The kernel's name: the function's for `#[kernel]`, `elementwise` for `elementwise!`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The CUDA C device function `rk_body` the kernel was translated to.
    pub fn cuda_source(&self) -> &'static str {
        self.cuda
    }

    /// A 64-bit hash of [`KernelSpec::cuda_source`] (part of the GPU module key).
    pub fn source_hash(&self) -> u64 {
        self.hash
    }

    /// The same spec under another name.
    pub const fn with_name(self, name: &'static str) -> Self {
        KernelSpec { name, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_of_the_source() {
        // FNV-1a test vectors.
        assert_eq!(fnv1a(""), 0xcbf29ce484222325);
        assert_eq!(fnv1a("a"), 0xaf63dc4c8601ec8c);
        let s = KernelSpec::new("k", "a");
        assert_eq!(s.source_hash(), 0xaf63dc4c8601ec8c);
        assert_eq!(s.with_name("j").name(), "j");
        assert_ne!(KernelSpec::new("k", "b").source_hash(), s.source_hash());
    }
}
