//! Device-side support for the kernels users write in CUDA C (`cuprite_cuda::kernel`):
//! `RawArray<T>` for `raw` parameters, `_Ind` for `_ind.size()`, the block reduction of
//! `ReductionKernel`, and `INFINITY`/`NAN` (NVRTC compiles without system headers).
//!
//! ```
//! let src = cuprite_kernels::program(&[cuprite_kernels::user::HEADER], &[]);
//! assert!(src.contains("struct RawArray") && src.contains("struct Strided"));
//! ```

/// The header placed after `common.cuh` in every generated user kernel.
pub const HEADER: &str = include_str!("user.cuh");
