//! The backend trait family. A backend is a device handle (`Cpu`, `Cuda`) implementing a small
//! set of primitives on flat buffers plus [`Layout`]s, grouped by kind: memory
//! ([`BackendBase`]), element-wise ([`ElementwiseOps`]), reductions ([`ReduceOps`]), sorting
//! ([`SortOps`]), indexing ([`IndexOps`], [`MaskOps`]), products ([`MatmulOps`]),
//! decompositions ([`LinalgOps`]), Fourier transforms ([`FftOps`]), random numbers
//! ([`RandomOps`]) and timing ([`DeviceTimer`]). Core resolves shapes, broadcasting, dtypes and
//! errors before calling a primitive, so a primitive receives layouts that already agree.
//! [`ArrayBackend`] is the sum of them all: the bound user code writes.
//!
//! [`Layout`]: crate::Layout

mod elementwise;
mod fft;
mod index;
mod kernel;
mod linalg;
mod mask;
mod matmul;
mod memory;
mod random;
mod reduce;
mod select;
mod sort;
mod timer;

pub use elementwise::ElementwiseOps;
pub use fft::{FftLanes, FftOps};
pub use index::{IndexOps, UniformBins};
pub use kernel::KernelOps;
pub use linalg::{ComplexOf, EigFactors, EighFactors, LinalgOps, SvdFactors};
pub use mask::MaskOps;
pub use matmul::{MatmulOperand, MatmulOps, MatmulPlan};
pub use memory::{BackendBase, HostMemory, check_host_alloc, host_out_of_memory, host_vec};
pub use random::RandomOps;
pub use reduce::{ArgKind, ReduceOps, min_max_by_reductions};
pub use select::SelectOps;
pub use sort::SortOps;
pub use timer::DeviceTimer;

/// The buffer type of backend `B` for element type `T`.
pub type Buf<B, T> = <B as BackendBase>::Buffer<T>;

/// Everything an array backend provides. Write user code generic over `B: ArrayBackend`.
pub trait ArrayBackend:
    BackendBase
    + ElementwiseOps
    + ReduceOps
    + SortOps
    + SelectOps
    + IndexOps
    + MaskOps
    + MatmulOps
    + RandomOps
    + LinalgOps
    + FftOps
    + KernelOps
    + DeviceTimer
{
}

impl<B> ArrayBackend for B where
    B: BackendBase
        + ElementwiseOps
        + ReduceOps
        + SortOps
        + SelectOps
        + IndexOps
        + MaskOps
        + MatmulOps
        + RandomOps
        + LinalgOps
        + FftOps
        + KernelOps
        + DeviceTimer
{
}
