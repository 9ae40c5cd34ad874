//! cuprite-cpu: the [`Cpu`] backend of cuprite. Buffers are reference-counted vectors (or
//! memory borrowed from another library through [`dlpack`]); the primitives run contiguous
//! fast paths on slices split over rayon above a size threshold, and a general strided path
//! on ndarray views. Matrix products use matrixmultiply (faer's GEMM for large ones),
//! decompositions faer, Fourier transforms rustfft and realfft.

mod alloc;
mod buffer;
pub mod dlpack;
mod elementwise;
mod fft;
mod fused;
mod fused_into;
mod index;
mod kernel;
mod linalg;
mod mask;
mod matmul;
mod memory;
pub mod mmap;
mod par;
pub mod pool;
mod random;
mod reduce;
mod select;
mod simd;
mod sort;
mod strided;
mod timer;
mod transpose;
mod view;

pub use buffer::CpuBuffer;

/// The CPU device handle. Every `Cpu` names the same device (the host), so arrays made
/// with different handles mix freely.
///
/// ```
/// use cuprite_core::Array;
/// use cuprite_cpu::Cpu;
/// let dev = Cpu::new();
/// let a = Array::<f64, Cpu>::ones(&[2, 3], &dev).unwrap();
/// assert_eq!((&a + 1.0).to_vec().unwrap(), vec![2.0; 6]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cpu;

impl Cpu {
    /// The host device.
    pub fn new() -> Self {
        Cpu
    }
}
