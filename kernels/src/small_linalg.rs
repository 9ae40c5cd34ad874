//! The small-matrix linear-algebra family: LU with partial pivoting, its solve (and the
//! inverse) and Cholesky of whole batches of matrices of order `n <= 32` in one launch each,
//! a matrix per segment of `W` lanes of a warp and a row per lane, in registers (see the
//! source's header). cuSOLVER's dense routines take one matrix per call, so a batch of
//! 100 000 4 x 4 matrices would be 100 000 calls.
//!
//! ```
//! let src = cuprite_kernels::small_linalg::program("double");
//! assert!(src.contains("#define T double"));
//! assert!(src.contains("small_lu_32") && src.contains("small_cholesky_4"));
//! ```

/// The CUDA C source.
pub const SOURCE: &str = include_str!("small_linalg.cu");

/// The largest matrix order the family handles (one lane per row, 32 lanes a warp).
pub const MAX_N: usize = 32;

/// The segment width of matrices of order `n` (`1..=MAX_N`): the suffix of the entry names
/// (`small_lu_4`, `small_solve_8`, `small_cholesky_16`, ...).
pub fn width(n: usize) -> Option<u32> {
    match n {
        1..=4 => Some(4),
        5..=8 => Some(8),
        9..=16 => Some(16),
        17..=MAX_N => Some(32),
        _ => None,
    }
}

/// The program for element type `t` (`float`, `double`, `c64` or `c128`), with the entries
/// `small_lu_W(SmallLuArgs)`, `small_solve_W(SmallSolveArgs)` and
/// `small_cholesky_W(SmallCholeskyArgs)` for `W` in 4, 8, 16, 32.
pub fn program(t: &str) -> String {
    crate::program(&[SOURCE], &[("T", t)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_cover_every_order_up_to_32() {
        assert_eq!(width(0), None);
        assert_eq!(width(1), Some(4));
        assert_eq!(width(4), Some(4));
        assert_eq!(width(5), Some(8));
        assert_eq!(width(16), Some(16));
        assert_eq!(width(17), Some(32));
        assert_eq!(width(32), Some(32));
        assert_eq!(width(33), None);
        for w in [4, 8, 16, 32] {
            for k in ["small_lu", "small_solve", "small_cholesky"] {
                assert!(SOURCE.contains(&format!("void {k}_{w}(")), "{k}_{w}");
            }
        }
    }
}
