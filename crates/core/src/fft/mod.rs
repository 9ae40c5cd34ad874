//! Discrete Fourier transforms, NumPy's `numpy.fft`: [`fft`]/[`ifft`], the real transforms
//! [`rfft`]/[`irfft`], the Hermitian ones [`hfft`]/[`ihfft`], their two- and n-dimensional
//! forms, the sample frequencies [`fftfreq`]/[`rfftfreq`] and [`fftshift`]/[`ifftshift`].
//!
//! Every transform takes NumPy's arguments in NumPy's order: the length `n` (zero-padding
//! or truncating the input, default: the axis length), the axis (negative counts from the
//! end) or `s`/`axes` for the n-dimensional forms, and a [`Norm`]. Real input keeps its
//! precision: f32 transforms to [`c64`], f64 to [`c128`]. Inputs may
//! be any view (transposed, strided, broadcast); results are new C-contiguous arrays.
//!
//! Core resolves `n`, the axes and the normalisation and pads or truncates; the backend's
//! [`FftOps`](crate::backend::FftOps) runs batched one-dimensional transforms. Transforms
//! over several axes apply one axis after the other, in NumPy's order.
//!
//! ```
//! use cuprite_core::fft::{self, Norm};
//! # use cuprite_core::*;
//! # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
//! let x = Array::<f64, B>::from_vec(vec![1.0, 2.0, 3.0, 4.0], &[4], dev)?;
//! let f = fft::fft(&x, None, -1, Norm::Backward)?;
//! assert_eq!(f.to_vec()?[0], c128::new(10.0, 0.0));
//! let back = fft::ifft(&f, None, -1, Norm::Backward)?.real()?;
//! assert!(back.allclose(&x, 1e-12, 1e-12, false)?.item()?);
//! # Ok(()) }
//! # demo(&cuprite_cpu::Cpu::new()).unwrap();
//! ```

mod axis;
mod complex;
mod helper;
mod real;

pub use complex::{fft, fft2, fftn, ifft, ifft2, ifftn};
pub use helper::{fftfreq, fftshift, ifftshift, rfftfreq};
pub use real::{hfft, ihfft, irfft, irfft2, irfftn, rfft, rfft2, rfftn};

use crate::array::Array;
use crate::backend::ArrayBackend;
use crate::dtype::{ComplexElement, Float, Inexact, c64, c128};
use crate::error::Result;

/// Which direction is scaled, NumPy's `norm` argument.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Norm {
    /// No scaling forward, `1/n` on the inverse (NumPy's default, `norm="backward"`).
    #[default]
    Backward,
    /// `1/sqrt(n)` both ways: the transforms are unitary (`norm="ortho"`).
    Ortho,
    /// `1/n` forward, no scaling on the inverse (`norm="forward"`).
    Forward,
}

impl Norm {
    /// The factor a transform of length `n` applies in this mode.
    pub(crate) fn scale<F: Float>(self, n: usize, inverse: bool) -> F {
        let n = n as f64;
        let s = match (self, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
            (Norm::Ortho, _) => 1.0 / n.sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / n,
        };
        F::from_f64(s)
    }

    /// The mode of the opposite direction (`hfft` is an `irfft` with the roles swapped).
    pub(crate) fn swap(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }
}

/// The complex types transforms compute in: [`c64`] (real part f32) and [`c128`] (f64).
pub trait FftComplex: ComplexElement {
    /// The real type of the same precision.
    type RealFloat: Float<Complex = Self>;
}

impl FftComplex for c64 {
    type RealFloat = f32;
}
impl FftComplex for c128 {
    type RealFloat = f64;
}

/// Element types a complex transform accepts: f32 and [`c64`] compute in [`c64`], f64 and
/// [`c128`] in [`c128`] (integers and bool are rejected at compile time).
pub trait FftInput: Inexact {
    /// The complex type of the same precision.
    type Complex: FftComplex;
    /// The array as complex numbers (the array itself when it already is complex).
    fn to_complex<B: ArrayBackend>(a: &Array<Self, B>) -> Result<Array<Self::Complex, B>>;
}

macro_rules! real_input {
    ($t:ty, $c:ty) => {
        impl FftInput for $t {
            type Complex = $c;
            fn to_complex<B: ArrayBackend>(a: &Array<$t, B>) -> Result<Array<$c, B>> {
                a.astype::<$c>()
            }
        }
    };
}
macro_rules! complex_input {
    ($c:ty) => {
        impl FftInput for $c {
            type Complex = $c;
            fn to_complex<B: ArrayBackend>(a: &Array<$c, B>) -> Result<Array<$c, B>> {
                Ok(a.clone())
            }
        }
    };
}
real_input!(f32, c64);
real_input!(f64, c128);
complex_input!(c64);
complex_input!(c128);
