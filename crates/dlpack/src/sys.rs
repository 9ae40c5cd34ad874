//! The C structs of DLPack 1.1 (`include/dlpack/dlpack.h` of dmlc/dlpack) as `#[repr(C)]`
//! Rust types, field for field, with the header's names. The C enums are
//! `#[repr(transparent)]` integers with associated constants, so a value this header does
//! not know (a newer device or type code from another library) is a value, not undefined
//! behaviour. The layout tests at the end pin sizes and field offsets to the C ABI's.

use std::ffi::c_void;
use std::fmt;

/// `DLPACK_MAJOR_VERSION`: a tensor of another major version has another layout past
/// `version`, `manager_ctx` and `deleter`.
pub const DLPACK_MAJOR_VERSION: u32 = 1;
/// `DLPACK_MINOR_VERSION`: minor versions only add enumeration values.
pub const DLPACK_MINOR_VERSION: u32 = 1;

/// `DLPACK_FLAG_BITMASK_READ_ONLY`: the consumer must not write the tensor's memory.
pub const DLPACK_FLAG_BITMASK_READ_ONLY: u64 = 1 << 0;
/// `DLPACK_FLAG_BITMASK_IS_COPIED`: the producer made a copy that the consumer owns alone
/// until it calls the deleter.
pub const DLPACK_FLAG_BITMASK_IS_COPIED: u64 = 1 << 1;
/// `DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED`: a sub-byte type is padded, not packed.
pub const DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED: u64 = 1 << 2;

/// `DLPackVersion`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DLPackVersion {
    /// Major version: a change means another ABI.
    pub major: u32,
    /// Minor version: a change means new enumeration values, the same ABI.
    pub minor: u32,
}

impl DLPackVersion {
    /// The version these structs follow (1.1).
    pub const CURRENT: DLPackVersion = DLPackVersion {
        major: DLPACK_MAJOR_VERSION,
        minor: DLPACK_MINOR_VERSION,
    };
}

/// `DLDeviceType` (a C enum of `int32_t`).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DLDeviceType(pub i32);

impl DLDeviceType {
    /// `kDLCPU`: host memory.
    pub const CPU: Self = Self(1);
    /// `kDLCUDA`: CUDA device memory.
    pub const CUDA: Self = Self(2);
    /// `kDLCUDAHost`: pinned host memory from `cudaMallocHost`.
    pub const CUDA_HOST: Self = Self(3);
    /// `kDLOpenCL`.
    pub const OPENCL: Self = Self(4);
    /// `kDLVulkan`.
    pub const VULKAN: Self = Self(7);
    /// `kDLMetal`.
    pub const METAL: Self = Self(8);
    /// `kDLVPI`.
    pub const VPI: Self = Self(9);
    /// `kDLROCM`: ROCm device memory.
    pub const ROCM: Self = Self(10);
    /// `kDLROCMHost`: pinned host memory from `hipMallocHost`.
    pub const ROCM_HOST: Self = Self(11);
    /// `kDLExtDev`.
    pub const EXT_DEV: Self = Self(12);
    /// `kDLCUDAManaged`: unified memory from `cudaMallocManaged`.
    pub const CUDA_MANAGED: Self = Self(13);
    /// `kDLOneAPI`.
    pub const ONE_API: Self = Self(14);
    /// `kDLWebGPU`.
    pub const WEB_GPU: Self = Self(15);
    /// `kDLHexagon`.
    pub const HEXAGON: Self = Self(16);
    /// `kDLMAIA`.
    pub const MAIA: Self = Self(17);
    /// `kDLTrn`.
    pub const TRN: Self = Self(18);

    /// The header's name (`"kDLCPU"`), or `None` for a value it does not define.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "kDLCPU",
            2 => "kDLCUDA",
            3 => "kDLCUDAHost",
            4 => "kDLOpenCL",
            7 => "kDLVulkan",
            8 => "kDLMetal",
            9 => "kDLVPI",
            10 => "kDLROCM",
            11 => "kDLROCMHost",
            12 => "kDLExtDev",
            13 => "kDLCUDAManaged",
            14 => "kDLOneAPI",
            15 => "kDLWebGPU",
            16 => "kDLHexagon",
            17 => "kDLMAIA",
            18 => "kDLTrn",
            _ => return None,
        })
    }
}

impl fmt::Debug for DLDeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "DLDeviceType({})", self.0),
        }
    }
}

/// `DLDevice`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DLDevice {
    /// The kind of device.
    pub device_type: DLDeviceType,
    /// The device's index (0 for host, pinned and managed memory).
    pub device_id: i32,
}

/// `DLDataTypeCode` (stored as `uint8_t` in [`DLDataType`]).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DLDataTypeCode(pub u8);

impl DLDataTypeCode {
    /// `kDLInt`: signed integer.
    pub const INT: Self = Self(0);
    /// `kDLUInt`: unsigned integer.
    pub const UINT: Self = Self(1);
    /// `kDLFloat`: IEEE floating point.
    pub const FLOAT: Self = Self(2);
    /// `kDLOpaqueHandle`.
    pub const OPAQUE_HANDLE: Self = Self(3);
    /// `kDLBfloat`: bfloat16.
    pub const BFLOAT: Self = Self(4);
    /// `kDLComplex`: a pair of floats (real, imaginary), `bits` for both.
    pub const COMPLEX: Self = Self(5);
    /// `kDLBool`: one byte, 0 or 1.
    pub const BOOL: Self = Self(6);

    /// The header's name (`"kDLFloat"`), or `None` for a value it does not define.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "kDLInt",
            1 => "kDLUInt",
            2 => "kDLFloat",
            3 => "kDLOpaqueHandle",
            4 => "kDLBfloat",
            5 => "kDLComplex",
            6 => "kDLBool",
            7 => "kDLFloat8_e3m4",
            8 => "kDLFloat8_e4m3",
            9 => "kDLFloat8_e4m3b11fnuz",
            10 => "kDLFloat8_e4m3fn",
            11 => "kDLFloat8_e4m3fnuz",
            12 => "kDLFloat8_e5m2",
            13 => "kDLFloat8_e5m2fnuz",
            14 => "kDLFloat8_e8m0fnu",
            15 => "kDLFloat6_e2m3fn",
            16 => "kDLFloat6_e3m2fn",
            17 => "kDLFloat4_e2m1fn",
            _ => return None,
        })
    }
}

impl fmt::Debug for DLDataTypeCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "DLDataTypeCode({})", self.0),
        }
    }
}

/// `DLDataType`: a type code, its width in bits and the number of vector lanes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DLDataType {
    /// The kind of number.
    pub code: DLDataTypeCode,
    /// Bits of one lane (8, 16, 32, 64; 64 for a pair of f32).
    pub bits: u8,
    /// Lanes of a vector type (1 for scalars).
    pub lanes: u16,
}

impl fmt::Display for DLDataType {
    /// `kDLFloat 64` (with `x4` for four lanes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}", self.code, self.bits)?;
        if self.lanes != 1 {
            write!(f, "x{}", self.lanes)?;
        }
        Ok(())
    }
}

/// `DLTensor`: a plain view of memory, which it does not manage.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLTensor {
    /// The allocation (the element at index 0 is at `data + byte_offset`; NULL may stand for
    /// a tensor of size 0).
    pub data: *mut c_void,
    /// Where the memory lives.
    pub device: DLDevice,
    /// Number of dimensions.
    pub ndim: i32,
    /// Element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements (not bytes), or NULL for a C-contiguous tensor.
    pub strides: *mut i64,
    /// Offset in bytes from `data` to the element at index 0.
    pub byte_offset: u64,
}

/// `DLManagedTensor`, the legacy (pre-1.0) managed tensor: no version, no flags.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// The producer's context (may be NULL).
    pub manager_ctx: *mut c_void,
    /// Releases the tensor (itself included); called once by the consumer. May be NULL.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// `DLManagedTensorVersioned`, the managed tensor of DLPack 1.x.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// The ABI version; check `major` before reading anything past `deleter`.
    pub version: DLPackVersion,
    /// The producer's context (may be NULL).
    pub manager_ctx: *mut c_void,
    /// Releases the tensor (itself included); called once by the consumer. May be NULL.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `DLPACK_FLAG_BITMASK_*` bits.
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// Sizes and offsets a C compiler gives `dlpack.h` on a 64-bit target.
    #[test]
    fn layouts_match_the_c_header() {
        assert_eq!(
            (size_of::<DLPackVersion>(), align_of::<DLPackVersion>()),
            (8, 4)
        );
        assert_eq!((size_of::<DLDevice>(), align_of::<DLDevice>()), (8, 4));
        assert_eq!((size_of::<DLDataType>(), align_of::<DLDataType>()), (4, 2));
        assert_eq!(offset_of!(DLDataType, bits), 1);
        assert_eq!(offset_of!(DLDataType, lanes), 2);

        assert_eq!(size_of::<DLTensor>(), 48);
        assert_eq!(offset_of!(DLTensor, data), 0);
        assert_eq!(offset_of!(DLTensor, device), 8);
        assert_eq!(offset_of!(DLTensor, ndim), 16);
        assert_eq!(offset_of!(DLTensor, dtype), 20);
        assert_eq!(offset_of!(DLTensor, shape), 24);
        assert_eq!(offset_of!(DLTensor, strides), 32);
        assert_eq!(offset_of!(DLTensor, byte_offset), 40);

        assert_eq!(size_of::<DLManagedTensor>(), 64);
        assert_eq!(offset_of!(DLManagedTensor, manager_ctx), 48);
        assert_eq!(offset_of!(DLManagedTensor, deleter), 56);

        assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
        assert_eq!(offset_of!(DLManagedTensorVersioned, version), 0);
        assert_eq!(offset_of!(DLManagedTensorVersioned, manager_ctx), 8);
        assert_eq!(offset_of!(DLManagedTensorVersioned, deleter), 16);
        assert_eq!(offset_of!(DLManagedTensorVersioned, flags), 24);
        assert_eq!(offset_of!(DLManagedTensorVersioned, dl_tensor), 32);
        // A null function pointer is `None`: the deleter slot is one pointer wide.
        assert_eq!(
            size_of::<Option<unsafe extern "C" fn(*mut DLManagedTensor)>>(),
            8
        );
    }

    #[test]
    fn names_and_unknown_values() {
        assert_eq!(format!("{:?}", DLDeviceType::CUDA_HOST), "kDLCUDAHost");
        assert_eq!(format!("{:?}", DLDeviceType(99)), "DLDeviceType(99)");
        let c64 = DLDataType {
            code: DLDataTypeCode::COMPLEX,
            bits: 64,
            lanes: 1,
        };
        assert_eq!(c64.to_string(), "kDLComplex 64");
        let v = DLDataType {
            code: DLDataTypeCode(40),
            bits: 8,
            lanes: 4,
        };
        assert_eq!(v.to_string(), "DLDataTypeCode(40) 8x4");
    }
}
