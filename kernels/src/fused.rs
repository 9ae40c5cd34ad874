//! The helpers of fused element-wise programs ([`SOURCE`]): the CUDA backend generates one
//! program per pending expression of `Fused<Cuda>` from the op functors of
//! [`elementwise::OPS`](crate::elementwise::OPS) and appends it after these.
//!
//! ```
//! let src = cuprite_kernels::program(
//!     &[cuprite_kernels::elementwise::OPS, cuprite_kernels::fused::SOURCE],
//!     &[],
//! );
//! assert!(src.contains("fz_params") && src.contains("CUPRITE_BINARY(add,"));
//! ```

/// Vector loads, op parameters from argument slots, the grid-stride indices.
pub const SOURCE: &str = include_str!("fused.cuh");
