//! The reduction family: reductions over any axes (sum, prod, mean, min/max and their NaN
//! variants, all/any, count_nonzero, nanmean, var's last step, sum of squared magnitudes),
//! arg-reductions (argmin/argmax) and scans (cumsum/cumprod).
//!
//! One program per (op, element type): [`OPS`] (the ops' device functors, named after the
//! ops' `NAME`s: [`reduce_functor`] `red_<name>`, [`scan_functor`] `scan_<name>`) and
//! [`SOURCE`] (the kernels) after `#define`s of `T` (element type), `OUT` (output type), `OP`
//! (the op's functor) and one of [`REDUCE_SECTION`] or [`SCAN_SECTION`].
//!
//! ```
//! use cuprite_kernels::{program, reduce};
//! let op = reduce::reduce_functor("sum");
//! let src = program(
//!     &[reduce::OPS, reduce::SOURCE],
//!     &[(reduce::REDUCE_SECTION, "1"), ("T", "double"), ("OUT", "double"), ("OP", &op)],
//! );
//! assert!(src.contains("red_rows_256") && src.contains("struct red_sum "));
//! ```

/// The kernels (CUDA C).
pub const SOURCE: &str = include_str!("reduce.cu");

/// The device functors of the reductions, arg-reductions and scans (CUDA C, placed before
/// [`SOURCE`]).
pub const OPS: &str = include_str!("reduce_ops.cuh");

/// The `#define` that selects the reduction and arg-reduction kernels (`red_*`).
pub const REDUCE_SECTION: &str = "CUPRITE_REDUCE";

/// The `#define` that selects the scan kernels (`scan_*`).
pub const SCAN_SECTION: &str = "CUPRITE_SCAN";

/// Bytes of one accumulator slot in a buffer of partial results (`ACC_MAX_BYTES` in the
/// source, which checks every accumulator fits).
pub const ACC_MAX_BYTES: usize = 32;

/// The functor of the reduction or arg-reduction `name` (its `NAME`): `red_<name>`.
pub fn reduce_functor(name: &str) -> String {
    format!("red_{name}")
}

/// The functor of the scan `name` (its `NAME`): `scan_<name>`.
pub fn scan_functor(name: &str) -> String {
    format!("scan_{name}")
}

/// The functors defined in [`OPS`] (`template <class E> struct red_...` or `scan_...` at the
/// start of a line), in source order: `red_sum`, ..., `scan_cumsum`, ...
pub fn functors() -> Vec<&'static str> {
    OPS.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("template <class E> struct ")?;
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let name = &rest[..end];
            (name.starts_with("red_") || name.starts_with("scan_")).then_some(name)
        })
        .collect()
}

/// The kernels of [`SOURCE`] (`extern "C" __global__` functions), in source order.
pub fn kernels() -> Vec<&'static str> {
    SOURCE
        .split("extern \"C\" __global__ void __launch_bounds__(256) ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slot_size_matches_the_source() {
        let line = format!("#define ACC_MAX_BYTES {}", ACC_MAX_BYTES);
        assert!(SOURCE.contains(&line));
    }

    #[test]
    fn functors_and_kernels_are_read_from_the_sources() {
        let f = functors();
        for name in ["red_sum", "red_var", "red_argmax", "scan_cumprod"] {
            assert!(f.contains(&name), "{name}");
        }
        assert!(!f.iter().any(|n| n.starts_with("red_rows")));
        let k = kernels();
        for name in [
            "red_rows_1",
            "red_cols",
            "red_fill",
            "scan_thread",
            "scan_carry",
        ] {
            assert!(k.contains(&name), "{name}");
        }
        // A functor named like a kernel would not compile: the names stay apart.
        assert!(!f.iter().any(|n| k.contains(n)));
        assert_eq!(reduce_functor("nanmean"), "red_nanmean");
        assert_eq!(scan_functor("cumsum"), "scan_cumsum");
    }
}
