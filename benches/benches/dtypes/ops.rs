//! The u16 image pipeline of the `dtypes` bench as cuprite users write it, generic over the
//! backend (the GPU row times it on `Cuda`; the self-tests run it on `Cpu` against the host
//! computation). `scripts/bench_dtypes.py` writes the same eight kernels in CuPy.

use cuprite::ops::Div;
use cuprite::{Array, ArrayBackend, Result};

/// `y = x.astype(f32); lo = y.min(); hi = y.max();
/// out = ((y - lo) * (65535 / (hi - lo))).astype(u16)`: the image stretched to the whole
/// u16 range, every step in f32, the bounds kept on the device as 0-d arrays (no transfer).
pub fn normalise_u16<B: ArrayBackend>(x: &Array<u16, B>) -> Result<Array<u16, B>> {
    let y = x.astype::<f32>()?;
    let lo = y.min()?;
    let hi = y.max()?;
    let scale = hi.try_sub(&lo)?.scalar_op_rev(Div, 65535.0)?;
    y.try_sub(&lo)?.try_mul(&scale)?.astype::<u16>()
}
