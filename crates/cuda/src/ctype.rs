//! The CUDA C name of each element type, as `common.cuh` declares it.

use cuprite_core::{DType, Element};

/// The CUDA C type of a dtype (`bool`, `i8` ... `u64`, `f16`, `bf16`, `float`, `double`, `c64`, `c128`).
pub(crate) fn ctype(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::I8 => "i8",
        DType::U8 => "u8",
        DType::I16 => "i16",
        DType::U16 => "u16",
        DType::I32 => "i32",
        DType::U32 => "u32",
        DType::I64 => "i64",
        DType::U64 => "u64",
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::C64 => "c64",
        DType::C128 => "c128",
    }
}

/// The CUDA C type of `T`.
pub(crate) fn cty<T: Element>() -> &'static str {
    ctype(T::DTYPE)
}
