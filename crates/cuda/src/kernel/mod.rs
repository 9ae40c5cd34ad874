//! Kernels of your own, in CUDA C, CuPy-style: [`ElementwiseKernel`] (a body run per element
//! of the broadcast inputs), [`ReductionKernel`] (map, reduce and post-map expressions over
//! any axes), and [`RawKernel`]/[`RawModule`] (whole `__global__` functions launched with an
//! explicit grid, their arguments checked against the parameter lists read from the source).
//!
//! Sources are compiled by NVRTC to a cubin for the device's architecture on first use and
//! cached three ways: per kernel object (a small map from the argument dtypes to the loaded
//! functions, so a repeated call costs a lookup and a launch), per device (the module cache)
//! and on disk (keyed by a hash of the full generated source, the options, the NVRTC version
//! and the architecture), so a later process loads the cubin instead of compiling.
//!
//! Compile errors are [`cuprite_core::Error::InvalidArgument`] with NVRTC's log, each message
//! followed by the line of user code it points at (`body line 2 | z = q + 1;`).
//!
//! ```no_run
//! use cuprite_core::{Array, Axes};
//! use cuprite_cuda::kernel::{ElementwiseKernel, ReductionKernel};
//! use cuprite_cuda::Cuda;
//!
//! let dev = Cuda::new(0)?;
//! let x = Array::<f32, Cuda>::ramp(1000, 0.0, 0.001, &dev)?;
//! let squared_diff = ElementwiseKernel::new("T x, T y", "T z", "z = (x - y) * (x - y)", "sqdiff")?;
//! let d = squared_diff.call1::<f32>(&[(&x).into(), 0.5f32.into()])?;
//! let l2 = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")?;
//! let norm = l2.call1::<f32>(&[(&x).into()], Axes::All, false)?.item()?;
//! # Ok::<(), cuprite_core::Error>(())
//! ```

mod args;
mod compile;
mod elementwise;
mod elementwise_src;
mod launch;
mod limits;
mod params;
mod raw;
mod reduction;
mod reduction_src;
mod resolve;
mod signature;
#[cfg(test)]
mod tests_compile;

pub(crate) use args::DeviceArray;
pub use args::{Arg, CType, DynArray, ScalarArg};
pub use elementwise::ElementwiseKernel;
pub(crate) use launch::{ArgList, RawView};
pub use limits::Dim3;
pub use raw::{RawKernel, RawModule};
pub use reduction::ReductionKernel;
pub use signature::RawParam;
