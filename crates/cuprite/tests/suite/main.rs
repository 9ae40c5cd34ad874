//! The integration tests of cuprite, one module per area, in one test binary (one link of the
//! library instead of one per file). Generic test bodies run on every compiled backend through
//! [`cuprite::test_backends!`]; the `differential` modules send the same random inputs through
//! the CPU and CUDA backends and compare. CUDA tests are `#[ignore]`d without a GPU.
//!
//! Tests that change or read device-wide state (memory counters, the TF32 mode) are in
//! `tests/device_state.rs`, a binary of their own, so that no test here runs beside them.

mod common;
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod diff_support;
mod random_support;

mod apply;
mod backend_bounds;
mod bad_input_alloc;
mod bad_input_shapes;
mod basics;
mod counting;
mod creation;
mod differences;
mod differential;
mod differential_linalg;
mod display;
mod dlpack;
mod dynarray;
mod edges;
mod elementwise;
mod fft;
mod fft_differential;
mod fusion;
mod gradient;
mod half_types;
mod index;
mod index_helpers;
mod index_put;
mod int_types;
mod linalg;
mod manip;
mod mask;
mod misc_ops;
mod ndarray_views;
mod new_math;
mod npy;
mod pad;
mod polynomial;
mod products;
mod products_fast;
mod products_vec;
mod promotion;
mod random;
mod random_differential;
mod random_more;
mod rearrange;
mod reduce;
mod reduce_accuracy;
mod rust_kernel;
mod selection;
mod sets;
mod shape_extra;
mod signal;
mod sort;
mod special;
mod statistics;
#[cfg(feature = "cuda")]
mod streams;
mod text;
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod user_kernels;
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod user_kernels_raw;
#[cfg(all(feature = "cpu", feature = "cuda"))]
mod user_kernels_reduce;
