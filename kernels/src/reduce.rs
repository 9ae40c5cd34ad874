//! The reduce kernel family (filled in by its implementation).

/// The CUDA C source.
pub const SOURCE: &str = include_str!("reduce.cu");
