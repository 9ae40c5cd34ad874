//! cuprite-dlpack: the backend-independent half of DLPack for cuprite, shared by the `Cpu`
//! and `Cuda` backends (each adds its `DlpackExt` on its own arrays).
//!
//! - [`sys`]: the C structs of `dlpack.h` 1.1 as `#[repr(C)]` types (`DLTensor`,
//!   `DLManagedTensor`, `DLManagedTensorVersioned`, ...).
//! - [`ManagedTensor`]: an owned managed tensor, legacy or versioned, that calls its deleter
//!   once; [`ManagedTensor::from_raw`] takes one from C, [`ManagedTensor::into_raw`] gives one.
//! - [`dtype_to_dl`] / [`dtype_from_dl`]: cuprite's element types in DLPack's terms.
//! - [`export()`]: a managed tensor over memory a backend keeps alive through an *owner*
//!   (a clone of its buffer), with the shape and strides of a core
//!   [`Layout`](cuprite_core::Layout), on the device the backend names; versioned or legacy,
//!   flagged `READ_ONLY` or not.
//! - [`import()`]: the checks every backend makes before it views a tensor's memory
//!   (dtype, device type and id, rank and extents, strides and byte offset within the
//!   address space, alignment), giving the core `Layout` of the view and the span of memory
//!   it reaches.
//!
//! The conventions are NumPy's, PyTorch's and CuPy's: `data` points at the element at index
//! 0 with `byte_offset` 0 (NULL for size 0); strides are in elements and may be anything a
//! cuprite view has (negative, zero, transposed); a consumer writes the memory of a
//! versioned tensor only when it is flagged `IS_COPIED` and not `READ_ONLY`.
//!
//! `cuprite-core` forbids `unsafe`; the raw pointers of DLPack live here and in the
//! backends' `dlpack` modules.

pub mod export;
pub mod import;
mod managed;
pub mod sys;

pub use export::{export, Form};
pub use import::{import, Accept, ImportPlan, Span};
pub use managed::{ManagedTensor, RawTensor};

use cuprite_core::DType;
use sys::{DLDataType, DLDataTypeCode};

/// DLPack's description of a cuprite element type (one lane).
///
/// ```
/// use cuprite_core::DType;
/// use cuprite_dlpack::{dtype_from_dl, dtype_to_dl};
/// let dl = dtype_to_dl(DType::C64);
/// assert_eq!(dl.to_string(), "kDLComplex 64");
/// assert_eq!(dtype_from_dl(dl), Some(DType::C64));
/// assert_eq!(dtype_to_dl(DType::BF16).to_string(), "kDLBfloat 16");
/// assert_eq!(dtype_to_dl(DType::F16).to_string(), "kDLFloat 16");
/// for d in DType::ALL {
///     assert_eq!(dtype_from_dl(dtype_to_dl(d)), Some(d));
/// }
/// ```
pub fn dtype_to_dl(dtype: DType) -> DLDataType {
    let (code, bits) = match dtype {
        DType::Bool => (DLDataTypeCode::BOOL, 8),
        DType::I8 => (DLDataTypeCode::INT, 8),
        DType::U8 => (DLDataTypeCode::UINT, 8),
        DType::I16 => (DLDataTypeCode::INT, 16),
        DType::U16 => (DLDataTypeCode::UINT, 16),
        DType::I32 => (DLDataTypeCode::INT, 32),
        DType::U32 => (DLDataTypeCode::UINT, 32),
        DType::I64 => (DLDataTypeCode::INT, 64),
        DType::U64 => (DLDataTypeCode::UINT, 64),
        DType::F16 => (DLDataTypeCode::FLOAT, 16),
        DType::BF16 => (DLDataTypeCode::BFLOAT, 16),
        DType::F32 => (DLDataTypeCode::FLOAT, 32),
        DType::F64 => (DLDataTypeCode::FLOAT, 64),
        DType::C64 => (DLDataTypeCode::COMPLEX, 64),
        DType::C128 => (DLDataTypeCode::COMPLEX, 128),
    };
    DLDataType {
        code,
        bits,
        lanes: 1,
    }
}

/// The cuprite element type DLPack's `dtype` describes, `None` for one cuprite has no type
/// for (another width, float8, vector lanes, ...).
pub fn dtype_from_dl(dtype: DLDataType) -> Option<DType> {
    DType::ALL.into_iter().find(|&d| dtype_to_dl(d) == dtype)
}

#[cfg(test)]
mod tests;
