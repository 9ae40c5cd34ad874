//! Launch configurations of raw kernels: [`Dim3`] and the checks that keep a bad
//! configuration an error instead of a failed launch: block dimensions and their product
//! against the device's and the function's limits, grid dimensions, and shared memory
//! (static plus dynamic) against the device's opt-in limit, raising the function's dynamic
//! shared memory limit when more than the default 48 KiB is asked for.

use crate::device::Cuda;
use crate::driver;
use crate::modules::Func;
use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cuprite_core::{Error, Result};

/// Grid or block dimensions: a number (`256`), or a tuple of two or three numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub(crate) fn tuple(self) -> (u32, u32, u32) {
        (self.x, self.y, self.z)
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3 { x, y, z: 1 }
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3 { x, y, z }
    }
}

/// Shared memory a block may use without opting in.
const DEFAULT_SHARED: u32 = 48 * 1024;

/// Checks the configuration against fixed limits (every CUDA device of compute capability
/// 7.0 or newer): block at most 1024 x 1024 x 64 and 1024 threads, grid at most
/// (2^31 - 1) x 65535 x 65535, no zero dimension.
pub(crate) fn check_dims(op: &'static str, grid: Dim3, block: Dim3) -> Result<()> {
    let bad = |what: String| Err(Error::invalid(op, what));
    if [grid.x, grid.y, grid.z, block.x, block.y, block.z].contains(&0) {
        return bad(format!(
            "grid {grid:?} and block {block:?} must have no zero dimension"
        ));
    }
    if block.x > 1024 || block.y > 1024 || block.z > 64 {
        return bad(format!(
            "block {block:?} exceeds the per-dimension limits 1024 x 1024 x 64"
        ));
    }
    let threads = block.x as u64 * block.y as u64 * block.z as u64;
    if threads > 1024 {
        return bad(format!(
            "block {block:?} has {threads} threads; at most 1024"
        ));
    }
    if grid.x > i32::MAX as u32 || grid.y > 65535 || grid.z > 65535 {
        return bad(format!(
            "grid {grid:?} exceeds the limits (2^31 - 1) x 65535 x 65535"
        ));
    }
    Ok(())
}

/// Checks the configuration against the device and the function, and allows the function
/// the dynamic shared memory asked for.
pub(crate) fn check_launch(
    op: &'static str,
    dev: &Cuda,
    f: Func,
    grid: Dim3,
    block: Dim3,
    shared: u32,
) -> Result<()> {
    check_dims(op, grid, block)?;
    dev.bind()?;
    let fattr = |a: CUfunction_attribute| driver::func_attr(f.0, a);
    let max_threads = fattr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
    let threads = block.x * block.y * block.z;
    if threads > max_threads {
        return Err(Error::invalid(
            op,
            format!(
                "block {block:?} has {threads} threads; this kernel can run at most {max_threads} \
                 per block (its register use limits it)"
            ),
        ));
    }
    let static_shared = fattr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?;
    let optin = driver::device_attr(
        dev.inner.dev,
        CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
    )?;
    let total = static_shared as u64 + shared as u64;
    if total > optin.max(DEFAULT_SHARED as u64) {
        return Err(Error::invalid(
            op,
            format!(
                "{shared} bytes of dynamic shared memory plus {static_shared} static exceed the \
                 device's limit of {optin} bytes per block"
            ),
        ));
    }
    if total > DEFAULT_SHARED as u64 {
        let allowed = fattr(CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)?;
        if shared > allowed {
            driver::set_func_attr(
                f.0,
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared as i32,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_dimensions_are_checked() {
        let ok = |g: Dim3, b: Dim3| check_dims("k", g, b);
        assert!(ok(1.into(), 1024.into()).is_ok());
        assert!(ok((65535, 65535, 65535).into(), (32, 32).into()).is_ok());
        let e = ok(1.into(), 1025.into()).unwrap_err().to_string();
        assert!(e.contains("exceeds the per-dimension limits"), "{e}");
        let e = ok(1.into(), (64, 32).into()).unwrap_err().to_string();
        assert!(e.contains("2048 threads; at most 1024"), "{e}");
        let e = ok(1.into(), (1, 1, 65).into()).unwrap_err().to_string();
        assert!(e.contains("per-dimension"), "{e}");
        assert!(ok(0.into(), 1.into())
            .unwrap_err()
            .to_string()
            .contains("zero"));
        assert!(ok((1, 65536).into(), 1.into()).is_err());
        assert!(ok(u32::MAX.into(), 1.into()).is_err());
    }
}
