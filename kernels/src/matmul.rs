//! The matmul kernel family: what the batched matrix product needs beyond cuBLAS. A strided
//! gather (operands cuBLAS cannot read in place are copied to a contiguous buffer first) and
//! the integer GEMM (every integer type; no BLAS covers them) with wrapping arithmetic: a
//! shared-memory tiled kernel, a warp-per-output kernel for thin products, and the second pass
//! of their split-K mode. The source has one section per kind, each compiled on its own with
//! the `#define`s its program function sets.
//!
//! ```
//! let src = cuprite_kernels::matmul::int_program("i32");
//! assert!(src.contains("#define T i32") && src.contains("#define ACC u32"));
//! assert!(src.contains("gemm_int_tiled"));
//! ```

/// The CUDA C source (all sections).
pub const SOURCE: &str = include_str!("matmul.cu");

/// Rows and columns of the output tile of one `gemm_int_tiled` block.
pub const TILE: u32 = 64;
/// Inner-dimension step of `gemm_int_tiled` (the depth of its shared-memory tiles).
pub const TILE_K: u32 = 16;
/// Threads per block of `gemm_int_tiled` and `gemm_int_dot` (16 x 16 for the tiled kernel).
pub const THREADS: u32 = 256;

/// The gather section for element type `t` (CUDA C name):
/// `gather32/64(T* out, const T* in, Strided s, i64 n)`.
/// Each kernel takes these as the fields of one struct passed by value (pointers as `u64`,
/// `in` named `src`), declared above it in the source.
pub fn gather_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("MM_GATHER", "1"), ("T", t)])
}

/// The unsigned accumulator type of the integer GEMM for element type `t` (`u32` for the
/// integers up to 32 bits, `u64` for `i64` and `u64`), or `None` for a type the integer GEMM does not handle.
pub fn int_accumulator(t: &str) -> Option<&'static str> {
    match t {
        "i8" | "u8" | "i16" | "u16" | "i32" | "u32" => Some("u32"),
        "i64" | "u64" => Some("u64"),
        _ => None,
    }
}

/// The integer GEMM section for element type `t` (an integer type; any other name gives a
/// program without an accumulator type, which does not compile):
/// `gemm_int_tiled` and `gemm_int_dot` `(T* c, ACC* ws, const T* a, const T* b, i64 m, i64 n,
/// i64 k, i64 a_rs, i64 a_cs, i64 b_rs, i64 b_cs, Strided ab, Strided bb, i64 batch,
/// i64 splits, i64 kchunk)`, `gemm_int_reduce(T* c, const ACC* ws, i64 outputs, i64 splits)`.
/// Each kernel takes these as the fields of one struct passed by value (pointers as `u64`),
/// declared above it in the source.
pub fn int_program(t: &str) -> String {
    let acc = int_accumulator(t).unwrap_or("void");
    let (tile, tile_k, threads) = (TILE.to_string(), TILE_K.to_string(), THREADS.to_string());
    crate::program(
        &[SOURCE],
        &[
            ("MM_INT", "1"),
            ("T", t),
            ("ACC", acc),
            ("MM_TILE", &tile),
            ("MM_TILE_K", &tile_k),
            ("MM_THREADS", &threads),
        ],
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_program_enables_one_section() {
        let g = super::gather_program("c128");
        assert!(g.contains("#define MM_GATHER 1") && !g.contains("#define MM_INT"));
        let i = super::int_program("i64");
        assert!(i.contains("#define MM_INT 1") && i.contains("#define ACC u64"));
        assert!(i.contains("#define MM_TILE 64") && i.contains("#define MM_TILE_K 16"));
        assert_eq!(super::int_accumulator("float"), None);
    }
}
