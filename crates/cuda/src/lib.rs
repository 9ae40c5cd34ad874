//! cuprite-cuda: the [`Cuda`] backend of cuprite, on NVIDIA GPUs through cudarc.
//!
//! - [`Cuda`] is a device handle; every op queues on its stream, asynchronously.
//! - Memory comes from the device's stream-ordered pool with its release threshold raised,
//!   and freed blocks of small arrays are kept on the host for the next allocations of their
//!   size ([`Cuda::memory_in_use`], [`Cuda::memory_cached`], [`Cuda::free_cached`],
//!   [`Cuda::set_memory_limit`]); out-of-memory frees the caches, retries once, then returns
//!   [`cuprite_core::Error::OutOfMemory`].
//! - [`Cuda::capture`] records the work of generic code into a CUDA graph ([`Graph`]) that
//!   [`Graph::replay`] runs again with one launch.
//! - Kernels are the CUDA C sources of `cuprite-kernels`, instantiated per element type,
//!   compiled by NVRTC to a cubin for the device's architecture and cached in memory and on
//!   disk ([`nvrtc`]).
//! - Matrix products of floats go to cuBLAS, dense decompositions (`linalg`) to cuSOLVER,
//!   Fourier transforms to cuFFT.
//! - Users add kernels of their own in CUDA C ([`kernel`]: `ElementwiseKernel`,
//!   `ReductionKernel`, `RawKernel`, `RawModule`), compiled and cached the same way, and
//!   queue work on streams of their own ([`Stream`], [`Cuda::with_stream`], [`CudaEvent`]).
//! - Page-locked host memory ([`PinnedBuffer`]) makes uploads and downloads asynchronous
//!   ([`PinnedExt`]), so transfers overlap with kernels of other streams.
//! - Several GPUs: `to_device` between two GPUs copies device to device, and [`dist`] holds
//!   NCCL communicators, their collectives on arrays, and the rendezvous of a job of one
//!   process per GPU.
//!
//! The crate builds on machines without CUDA (the driver is loaded at run time); there
//! [`Cuda::new`] returns [`cuprite_core::Error::BackendUnavailable`] saying why.

#[macro_use]
mod ffi;

mod block_cache;
mod buffer;
mod ctype;
mod device;
pub mod dist;
pub mod dlpack;
mod elementwise;
mod fft;
mod fused;
mod graph;
mod index;
pub mod kernel;
mod launch;
mod linalg;
mod map_kernel;
mod mask;
mod matmul;
mod memory;
mod modules;
pub mod nvrtc;
mod peer;
mod pinned;
mod random;
mod reduce;
mod select;
mod sort;
mod stream;
#[cfg(test)]
mod test_support;
mod timer;

use ffi::driver;

pub use buffer::CudaBuffer;
pub use device::Cuda;
pub use graph::Graph;
pub use peer::with_device;
pub use pinned::{PinnedBuffer, PinnedExt};
pub use stream::{Stream, StreamExt};
pub use timer::CudaEvent;
