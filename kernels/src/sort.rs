//! The sort kernel family: order-preserving keys of every element type, a stable LSD radix
//! sort with 8-bit digits (one histogram read, then one "onesweep" pass per digit with a
//! decoupled look-back across tiles), a shared-memory bitonic sort of (key, index) pairs for
//! short lanes, binary search, run-head compaction for `unique`, and small helpers. The
//! source has one section per kind, each compiled on its own with the `#define`s its program
//! function sets; every program sets `T`, the element type.
//!
//! ```
//! let src = cuprite_kernels::sort::radix_program("float");
//! assert!(src.contains("#define SORT_RADIX 1") && src.contains("#define T float"));
//! assert!(src.contains("sort_onesweep_pairs"));
//! ```

/// The CUDA C source (all sections).
pub const SOURCE: &str = include_str!("sort.cu");

/// Threads per block of every sort kernel that works on tiles (`SORT_THREADS`).
pub const THREADS: u32 = 256;
/// Buckets of an 8-bit digit (`RADIX`).
pub const RADIX: usize = 256;
/// Elements per block of `sort_uq_count` / `sort_uq_write` (`UQ_TILE`).
pub const UNIQUE_TILE: usize = 256 * 16;
/// Threads per block of `sort_merge_pair` (`MERGE_THREADS`).
pub const MERGE_THREADS: u32 = 128;
/// Outputs per block of `sort_merge_pair` (`MERGE_TILE`): a block per tile.
pub const MERGE_TILE: usize = 128 * 8;

/// Write-mask bit of a radix pass: keys to `keys_out`.
pub const W_KEYS: i32 = 1;
/// Write-mask bit: values (`u32`) to `vals_out`.
pub const W_VALS: i32 = 2;
/// Write-mask bit: the decoded keys (`T`) to `raw_out`.
pub const W_DECODE: i32 = 4;
/// Write-mask bit: `raw_in[value]` (`T`) to `raw_out`.
pub const W_GATHER: i32 = 8;
/// Write-mask bit: `value % len` (`i64`) to `idx_out`.
pub const W_IDX: i32 = 16;

/// The radix section for element type `t` (CUDA C name): `sort_hist`, `sort_onesweep_keys`,
/// `sort_onesweep_pairs`, `sort_key_iota`, `sort_block`.
pub fn radix_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("SORT_RADIX", "1"), ("T", t)])
}

/// The search section for element type `t`: `sort_searchsorted`, `sort_merge_pair`.
pub fn search_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("SORT_SEARCH", "1"), ("T", t)])
}

/// The unique section for element type `t`: `sort_uq_count`, `sort_uq_write`.
pub fn unique_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("SORT_UNIQUE", "1"), ("T", t)])
}

/// The helper section for element type `t`: `sort_select` (of `t`), and the type-free
/// `sort_iota_mod`, `sort_uq_scan`, `sort_uq_counts`.
pub fn util_program(t: &str) -> String {
    crate::program(&[SOURCE], &[("SORT_UTIL", "1"), ("T", t)])
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_program_enables_one_section() {
        let r = super::radix_program("c128");
        assert!(r.contains("#define SORT_RADIX 1") && !r.contains("#define SORT_UTIL"));
        let u = super::util_program("i64");
        assert!(u.contains("#define SORT_UTIL 1") && u.contains("#define T i64"));
        assert!(super::search_program("u8").contains("#define SORT_SEARCH 1"));
        assert!(super::unique_program("bool").contains("#define SORT_UNIQUE 1"));
    }

    #[test]
    fn write_bits_match_the_source() {
        for (name, v) in [
            ("W_KEYS", super::W_KEYS),
            ("W_VALS", super::W_VALS),
            ("W_DECODE", super::W_DECODE),
            ("W_GATHER", super::W_GATHER),
            ("W_IDX", super::W_IDX),
        ] {
            assert!(
                super::SOURCE.contains(&format!("#define {name} {v}\n")),
                "{name}"
            );
        }
        assert!(super::SOURCE.contains("#define SORT_THREADS 256\n"));
        assert!(super::SOURCE.contains("#define UQ_TILE (SORT_THREADS * UQ_ITEMS)\n"));
        assert!(super::SOURCE.contains("#define UQ_ITEMS 16\n"));
        assert!(super::SOURCE.contains("#define MERGE_THREADS 128\n"));
        assert!(super::SOURCE.contains("#define MERGE_ITEMS 8\n"));
        assert!(super::SOURCE.contains("#define MERGE_TILE (MERGE_THREADS * MERGE_ITEMS)\n"));
    }
}
