//! cuprite-kernels: the CUDA C sources of cuprite's GPU kernels. They are plain text here
//! (`include_str!`), compiled at run time by NVRTC for the device's own architecture by the
//! CUDA backend, which instantiates each family for concrete element types with `#define`s
//! placed after [`COMMON`] (see [`program`]).
//!
//! ```
//! let src = cuprite_kernels::program(&[cuprite_kernels::memory::SOURCE], &[("T", "double")]);
//! assert!(src.contains("#define T double"));
//! assert!(src.contains("struct Strided"));
//! ```

pub mod elementwise;
pub mod fused;
pub mod index;
pub mod linalg;
pub mod matmul;
pub mod memory;
pub mod random;
pub mod reduce;
pub mod small_linalg;
pub mod sort;
pub mod user;

/// Types, complex arithmetic, casts and the strided-view struct shared by every kernel.
pub const COMMON: &str = include_str!("common.cuh");

/// A complete program: [`COMMON`], then `#define NAME VALUE` for each pair, then `parts`.
pub fn program(parts: &[&str], defines: &[(&str, &str)]) -> String {
    let len = COMMON.len() + parts.iter().map(|p| p.len() + 1).sum::<usize>() + 64;
    let mut s = String::with_capacity(len);
    s.push_str(COMMON);
    s.push('\n');
    for (k, v) in defines {
        s.push_str(&format!("#define {k} {v}\n"));
    }
    for p in parts {
        s.push_str(p);
        s.push('\n');
    }
    s
}
