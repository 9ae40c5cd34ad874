//! The foreign-function layer of the crate: every raw call into the CUDA libraries lives
//! in this module, each wrapped in a thin function that returns cuprite's `Result` and
//! states its safety contract. The rest of the crate calls these wrappers.
//!
//! - [`driver`]: the CUDA driver (contexts, streams, events, memory, modules).
//! - [`blas`]: cuBLAS handles, products and scaling.
//! - [`blaslt`]: cuBLASLt products of the 16-bit floats.
//! - [`solver`]: cuSOLVER handles and workspaces, and one wrapper per routine the crate
//!   calls (LU, Cholesky, QR, SVD, eigen-decompositions).
//! - [`fft`]: cuFFT plans and transforms.
//! - [`host`]: page-locked host memory and the asynchronous copies from and into it.
//! - [`nvrtc`]: NVRTC programs (the compile cache on top is [`crate::nvrtc`]).
//! - [`launch`]: kernel launches through typed [`launch::Kernel`] handles whose parameters
//!   are one `#[repr(C)]` struct passed by value, declared once with [`kernel_params!`],
//!   which also writes the struct's C declaration for a test against the `.cu` source; user
//!   kernels launch through [`launch::UserArgs`], an argument list built from checked arrays,
//!   views and scalars.

pub(crate) mod blas;
pub(crate) mod blaslt;
pub(crate) mod driver;
pub(crate) mod fft;
pub(crate) mod host;
#[macro_use]
pub(crate) mod launch;
pub(crate) mod nvrtc;
pub(crate) mod solver;

use cuprite_core::Element;

/// The bytes of an element value, as a kernel parameter or a fill pattern takes them.
pub(crate) fn element_bytes<T: Element>(value: &T) -> &[u8] {
    // SAFETY: every element type (bool, u8, i32, i64, f32, f64 and complex pairs of f32 or
    // f64) is plain data without padding, so all `size_of::<T>()` bytes are initialised and
    // live as long as `value`.
    unsafe { std::slice::from_raw_parts(value as *const T as *const u8, std::mem::size_of::<T>()) }
}
