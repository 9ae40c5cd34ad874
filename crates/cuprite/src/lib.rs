//! cuprite: NumPy/CuPy-style n-dimensional arrays for Rust, on the CPU or on NVIDIA GPUs.
//!
//! Write one function generic over `B: ArrayBackend` and run it on any backend the cargo
//! features compile in: [`Cpu`] (feature `cpu`, the default) or `Cuda` (feature `cuda`).
//!
//! ```
//! use cuprite::prelude::*;
//!
//! fn normalise<B: ArrayBackend>(m: &Array<f64, B>) -> Result<Array<f64, B>> {
//!     let centred = m - &m.mean_axes(0, true)?;
//!     Ok(&centred / &m.std_axes(0, 0.0, true)?)
//! }
//!
//! let dev = DefaultBackend::default();
//! let m = Array::<f64, _>::from_vec(vec![1.0, 2.0, 3.0, 6.0], &[2, 2], &dev)?;
//! let z = normalise(&m)?;
//! assert_eq!(z.to_vec()?, vec![-1.0, -1.0, 1.0, 1.0]);
//! # Ok::<(), cuprite::Error>(())
//! ```

pub use cuprite_core::*;
pub use cuprite_macros::{elementwise, kernel};

#[cfg(feature = "cpu")]
pub use cuprite_cpu::Cpu;

/// The CPU backend's own items: the host memory pool ([`cpu::pool`]: its figures, its
/// limit, `free_all_blocks`).
#[cfg(feature = "cpu")]
pub mod cpu {
    pub use cuprite_cpu::{pool, Cpu, CpuBuffer};
}

#[cfg(feature = "cuda")]
pub use cuprite_cuda::Cuda;

/// The CUDA backend's own items: the device handle, its buffer type, streams and events,
/// page-locked host buffers and the asynchronous transfers through them, the NVRTC compiler
/// with its disk cache, DLPack on the GPU ([`cuda::dlpack`]: `Array<T, Cuda>` to and
/// from `kDLCUDA` tensors without copying, with the stream handshake), and more than one GPU
/// ([`cuda::dist`]: NCCL communicators and collectives; [`cuda::with_device`]).
#[cfg(feature = "cuda")]
pub mod cuda {
    pub use cuprite_cuda::{
        dist, dlpack, kernel, nvrtc, with_device, Cuda, CudaBuffer, CudaEvent, Graph, PinnedBuffer,
        PinnedExt, Stream, StreamExt,
    };
}

/// DLPack on the CPU: `Array<T, Cpu>` to and from DLPack managed tensors without copying
/// ([`DlpackExt`](dlpack::DlpackExt)), the C structs ([`dlpack::sys`]) and the owned
/// [`ManagedTensor`](dlpack::ManagedTensor), shared with `cuda::dlpack` (the
/// `Cuda` backend's `DlpackExt`).
#[cfg(feature = "cpu")]
pub mod dlpack {
    pub use cuprite_cpu::dlpack::*;
}

/// The Python bridge (feature `python`): any object with `__dlpack__` (NumPy, PyTorch,
/// CuPy) as a cuprite array, and cuprite arrays as Python objects those libraries take, all
/// without copying. See the `cuprite-python` crate.
#[cfg(feature = "python")]
pub use cuprite_python as python;

mod interop;
mod test_macro;

#[cfg(feature = "cpu")]
pub use interop::NdarrayCpuExt;
pub use interop::NdarrayExt;

/// Memory-mapped `.npy` loads on the CPU: `load_npy_mmap` for `Array<T, Cpu>` and
/// `DynArray<Cpu>` (see [`cuprite_cpu::mmap`]).
#[cfg(feature = "cpu")]
pub use cuprite_cpu::mmap::NpyMmapExt;

/// The backend the enabled features select: [`Cpu`] with the default features.
#[cfg(feature = "cpu")]
pub type DefaultBackend = Cpu;

/// The backend the enabled features select: [`Cuda`] when `cpu` is off and `cuda` is on.
#[cfg(all(feature = "cuda", not(feature = "cpu")))]
pub type DefaultBackend = Cuda;

/// Everything a user needs: `Array` and `DynArray`, the backend traits, element traits, `s!`
/// and `SliceArg`, errors, `.npz` files (`load_npz`, `save_npz`), memory-mapped `.npy` loads
/// on the CPU (`NpyMmapExt`), the random
/// [`Generator`](crate::random::Generator).
pub mod prelude {
    pub use crate::interop::NdarrayExt;
    pub use cuprite_core::array::*;
    pub use cuprite_core::{
        bf16, c128, c64, f16, load_npz, s, save_npz, Array, ArrayBackend, Axes, BackendBase,
        Bitwise, ComplexElement, DType, DeviceTimer, DynArray, Element, Error, Float, Inexact,
        Integer, Numeric, Real, Result, SliceArg, ELLIPSIS, NEW_AXIS,
    };

    pub use cuprite_core::random::Generator;

    #[cfg(feature = "cpu")]
    pub use crate::dlpack::DlpackExt;
    #[cfg(feature = "cpu")]
    pub use crate::interop::NdarrayCpuExt;
    #[cfg(feature = "cpu")]
    pub use crate::Cpu;
    #[cfg(feature = "cuda")]
    pub use crate::Cuda;
    #[cfg(any(feature = "cpu", feature = "cuda"))]
    pub use crate::DefaultBackend;
    #[cfg(feature = "cpu")]
    pub use crate::NpyMmapExt;
    #[cfg(feature = "cuda")]
    pub use cuprite_cuda::dlpack::DlpackExt as CudaDlpackExt;
}

/// The README's example, compiled and run as a doc test so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The examples of the guide for NumPy users, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide.md")]
pub struct GuideDoctests;
