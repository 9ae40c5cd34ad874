//! Kernels written in Rust: the values the `elementwise!` macro and the `#[kernel]`
//! attribute of the `cuprite` crate expand to, and the runtime that calls them on arrays.
//!
//! A kernel is a function of 1 to 4 element values (`bool`, `u8`, `i32`, `i64`, `f32`,
//! `f64`) returning one, written in a subset of Rust. The macros check the subset and
//! translate it twice: to Rust for the CPU (a plain function, run in a parallel loop) and to
//! CUDA C for the GPU (a device function, compiled by NVRTC at the first call and cached).
//! Both translations carry the same semantics:
//!
//! - integer `+ - *`, unary `-`, `<< >>` (shift amounts taken modulo the bit width) and
//!   `abs` wrap; integer `/` and `%` by zero give 0 (as NumPy does) and `MIN / -1` wraps to
//!   `MIN` (`MIN % -1` is 0): a kernel never panics;
//! - floats follow IEEE 754 as Rust does: `+ - * /`, `%` (fmod), `sqrt`, comparisons, casts,
//!   `mul_add`, `floor`/`ceil`/`round`/`trunc`, `abs`, `min`/`max`, `copysign` agree bit for
//!   bit between the backends (CUDA code is compiled without FMA contraction); the
//!   transcendental functions agree within a few ulps;
//! - `as` casts are Rust's: float to integer saturates and NaN gives 0.
//!
//! [`MapKernel1`] ... [`MapKernel4`] apply a kernel to arrays broadcast together (NumPy
//! rules), on any backend, for views of any layout; the result is a new C-contiguous array.

mod map;
pub mod scalar;

pub use map::{MapKernel1, MapKernel2, MapKernel3, MapKernel4};

use crate::dtype::Element;

mod sealed {
    pub trait Sealed {}
}

/// The element types a kernel takes and returns: `bool`, `u8`, `i32`, `i64`, `f32`, `f64`.
pub trait KernelElement: Element + sealed::Sealed {}

macro_rules! kernel_elements {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl KernelElement for $t {}
    )*};
}
kernel_elements!(bool, u8, i32, i64, f32, f64);

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
