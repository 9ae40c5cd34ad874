//! The memory kernel family: fills (contiguous with 16-byte stores, strided), conversions
//! (contiguous, gather to contiguous, strided to strided, and a shared-memory tiled transpose;
//! a copy is the conversion of a type to itself) and ramps. The source has one section per
//! kind, each compiled on its own with the `#define`s its program function sets.
//!
//! ```
//! let src = cuprite_kernels::memory::conv_program("double", "float");
//! assert!(src.contains("#define IN double") && src.contains("#define OUT float"));
//! assert!(src.contains("conv_tile"));
//! ```

/// The CUDA C source (all sections).
pub const SOURCE: &str = include_str!("memory.cu");

/// Size in bytes of an element type named as `common.cuh` names it (0 for an unknown name).
fn ctype_size(name: &str) -> usize {
    match name {
        "bool" | "u8" => 1,
        "i32" | "float" => 4,
        "i64" | "double" | "c64" => 8,
        "c128" => 16,
        _ => 0,
    }
}

/// The tiles `conv_tile` moves from `input` to `output` (CUDA C names): `(edge, rows)`, square
/// tiles of `edge` elements a side moved by blocks of `32 x rows` threads. 64 x 64 tiles for
/// elements of up to 8 bytes (with 512 threads, 256 for one-byte types), 32 x 32 with 256
/// threads for complex128 (a 64-wide tile would need 66 KB of shared memory). These were the
/// fastest shapes tried on an H100 for transposed copies of 400 MB of f64, f32, c128 and u8.
///
/// ```
/// use cuprite_kernels::memory::tile_shape;
/// assert_eq!(tile_shape("double", "double"), (64, 16));
/// assert_eq!(tile_shape("c128", "float"), (32, 8));
/// assert_eq!(tile_shape("u8", "bool"), (64, 8));
/// ```
pub fn tile_shape(input: &str, output: &str) -> (u32, u32) {
    match ctype_size(input).max(ctype_size(output)) {
        0 | 1 => (64, 8),
        2..=8 => (64, 16),
        _ => (32, 8),
    }
}

/// The fill section for element type `t` (CUDA C name): `fill_contig(T* out, i64 n, T value)`,
/// `fill_strided32/64(T* out, Strided s, i64 n, T value)`.
/// Each kernel takes these as the fields of one struct passed by value (pointers as `u64`),
/// declared above it in the source; so do the conversion kernels, with `in` named `src`.
pub fn fill_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("MEM_FILL", "1"), ("T", t)])
}

/// The conversion section from `input` to `output` (CUDA C names):
/// `conv_contig(OUT* out, const IN* in, i64 n)`,
/// `conv_gather32/64(OUT* out, const IN* in, Strided s, i64 n)`,
/// `conv_scatter32/64(OUT* out, Strided d, const IN* in, Strided s, i64 n)`,
/// `conv_tile(OUT* out, Strided d, const IN* in, Strided s, int k, int l, i64 tiles_k,
/// i64 tiles_l, i64 ntiles)`.
pub fn conv_program(input: &str, output: &str) -> String {
    let tile = tile_shape(input, output);
    crate::program(
        &[SOURCE],
        &[
            ("MEM_CONV", "1"),
            ("IN", input),
            ("OUT", output),
            ("MEM_TILE", &tile.0.to_string()),
            ("MEM_TILE_ROWS", &tile.1.to_string()),
        ],
    )
}

/// The ramp section for element type `t` (a numeric type: not bool):
/// `arange(T* out, i64 n, T start, T step)`.
pub fn arange_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("MEM_ARANGE", "1"), ("T", t)])
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_program_enables_one_section() {
        let f = super::fill_program("u8");
        assert!(f.contains("#define MEM_FILL 1") && !f.contains("#define MEM_CONV"));
        let a = super::arange_program("c64");
        assert!(a.contains("#define MEM_ARANGE 1") && a.contains("#define T c64"));
    }
}
