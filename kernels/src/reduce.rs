//! The reduction family: reductions over any axes (sum, prod, mean, min/max and their NaN
//! variants, all/any, count_nonzero, nanmean, var's last step, sum of squared magnitudes),
//! arg-reductions (argmin/argmax) and scans (cumsum/cumprod).
//!
//! One program per (op, element type): [`SOURCE`] after `#define`s of `T` (element type),
//! `OUT` (output type), `OP` (the op's template, e.g. `OpSum`, `OpArgMax`, `ScanSum`) and
//! one of [`REDUCE_SECTION`] or [`SCAN_SECTION`].
//!
//! ```
//! use cuprite_kernels::{program, reduce};
//! let src = program(
//!     &[reduce::SOURCE],
//!     &[(reduce::REDUCE_SECTION, "1"), ("T", "double"), ("OUT", "double"), ("OP", "OpSum")],
//! );
//! assert!(src.contains("red_rows_256"));
//! ```

/// The CUDA C source.
pub const SOURCE: &str = include_str!("reduce.cu");

/// The `#define` that selects the reduction and arg-reduction kernels (`red_*`).
pub const REDUCE_SECTION: &str = "CUPRITE_REDUCE";

/// The `#define` that selects the scan kernels (`scan_*`).
pub const SCAN_SECTION: &str = "CUPRITE_SCAN";

/// Bytes of one accumulator slot in a buffer of partial results (`ACC_MAX_BYTES` in the
/// source, which checks every accumulator fits).
pub const ACC_MAX_BYTES: usize = 32;

#[cfg(test)]
mod tests {
    #[test]
    fn the_slot_size_matches_the_source() {
        let line = format!("#define ACC_MAX_BYTES {}", super::ACC_MAX_BYTES);
        assert!(super::SOURCE.contains(&line));
    }
}
