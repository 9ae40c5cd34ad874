//! Fourier-transform primitives: batched one-dimensional FFTs along the middle axis of a
//! C-contiguous `[outer, len, inner]` buffer, complex-to-complex, real-to-complex and
//! complex-to-real, each with a scale factor. Core resolves `n`, axes and normalisation,
//! zero-pads or truncates, and composes multi-axis transforms from these.

use super::memory::BackendBase;
use crate::dtype::Float;
use crate::error::Result;

/// The lanes of a batched transform: the input buffer is read as a C-contiguous array of
/// shape `[outer, len, inner]` starting at element 0 (it may be longer); each of the
/// `outer * inner` lanes runs along the middle axis, element `k` of lane `(o, i)` at
/// `(o * len + k) * inner + i`. Outputs use the same arrangement with the output length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FftLanes {
    /// Product of the axes before the transformed one.
    pub outer: usize,
    /// Length of the transform `n` (at least 1).
    pub n: usize,
    /// Product of the axes after the transformed one (the lane stride).
    pub inner: usize,
}

impl FftLanes {
    /// Number of lanes (`outer * inner`).
    pub fn count(&self) -> usize {
        self.outer * self.inner
    }
    /// Length of the half spectrum of a real transform of length `n`: `n / 2 + 1`.
    pub fn half(&self) -> usize {
        self.n / 2 + 1
    }
}

/// Batched FFTs. `F` is the real type (f32 or f64); `F::Complex` the matching complex type.
/// Transforms are unnormalised (`X[k] = sum_j x[j] exp(-+2 pi i jk / n)`, `-` forward, `+`
/// inverse) and every output element is then multiplied by `scale`. Core guarantees
/// `lanes.n >= 1` and a buffer holding at least the elements the lanes reach; `count() == 0`
/// must give an empty output.
pub trait FftOps: BackendBase {
    /// Complex-to-complex transform of every lane (`inverse` picks the `+` sign). Input and
    /// output are `[outer, n, inner]`; the output is a new C-contiguous buffer.
    fn fft_c2c<F: Float>(
        &self,
        x: &Self::Buffer<F::Complex>,
        lanes: FftLanes,
        inverse: bool,
        scale: F,
    ) -> Result<Self::Buffer<F::Complex>>;

    /// Forward transform of real lanes `[outer, n, inner]`, keeping the `n / 2 + 1`
    /// non-negative frequencies: output `[outer, n / 2 + 1, inner]`.
    fn fft_r2c<F: Float>(
        &self,
        x: &Self::Buffer<F>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<Self::Buffer<F::Complex>>;

    /// Inverse of [`FftOps::fft_r2c`]: Hermitian half spectra `[outer, n / 2 + 1, inner]` to
    /// real lanes `[outer, n, inner]`. Core passes zero imaginary parts at frequency 0 and,
    /// for even `n`, at frequency `n / 2` (NumPy's `irfft` ignores them; core zeroes them).
    /// The input buffer is consumed: a backend may use it as scratch (copying it first when
    /// another array shares it).
    fn fft_c2r<F: Float>(
        &self,
        x: Self::Buffer<F::Complex>,
        lanes: FftLanes,
        scale: F,
    ) -> Result<Self::Buffer<F>>;
}
