//! The parameter structs of the reduction family's kernels (kernels/src/reduce.cu),
//! mirrored field for field by the `.cu` source.

use crate::launch::Strided;

kernel_params! {
    /// Arguments of the `red_rows_*` and `red_cols` kernels.
    pub(crate) struct RedArgs {
        /// The input (`const T*`, the view's buffer).
        x: u64,
        /// The outputs (`OUT*`, `n_out` of them).
        out: u64,
        /// Chunk partials (`Acc*`, `n_out * n_chunks` slots; 0 with one chunk).
        part: u64,
        /// Positions of the outputs in `x` (offset: the view's base).
        kept: Strided,
        /// Reduced positions, relative to an output's first element.
        red: Strided,
        n_out: i64,
        rsize: i64,
        chunk: i64,
        n_chunks: i64,
        /// The count passed to the op's `finish`.
        count: i64,
        /// The parameter passed to the op's `finish`.
        param: f64,
        /// The reduced positions are one contiguous run.
        contig: i32,
    }
}

kernel_params! {
    /// Arguments of the `red_partials_*` kernels: chunk partials into outputs.
    pub(crate) struct PartArgs {
        /// The partials (`const Acc*`).
        part: u64,
        /// The outputs (`OUT*`).
        out: u64,
        n_out: i64,
        n_chunks: i64,
        o_stride: i64,
        c_stride: i64,
        count: i64,
        param: f64,
    }
}

kernel_params! {
    /// Arguments of `red_fill`: the result of reducing nothing, `n` times.
    pub(crate) struct FillArgs {
        /// The outputs (`OUT*`).
        out: u64,
        n: i64,
        count: i64,
        param: f64,
    }
}

kernel_params! {
    /// Arguments of the `scan_*` kernels (one pass of an inclusive scan).
    pub(crate) struct ScanArgs {
        /// The input (`const T*`, the view's buffer).
        x: u64,
        /// The C-contiguous result (`OUT*`).
        out: u64,
        /// Chunk totals (`OUT*`; 0 with one chunk).
        tot: u64,
        /// The lanes' first positions in `x`.
        lanes: Strided,
        n_lanes: i64,
        /// Elements per lane.
        n: i64,
        /// The scanned axis' stride in `x`.
        s: i64,
        /// Product of the result's dimensions after the scanned axis.
        inner: i64,
        chunk: i64,
        n_chunks: i64,
        /// 0: chunk totals; 1: the scan from the carried prefixes.
        pass: i32,
    }
}

kernel_params! {
    /// Arguments of `scan_carry`: chunk totals into exclusive prefixes, in place.
    pub(crate) struct CarryArgs {
        /// The totals (`OUT*`).
        tot: u64,
        n_lanes: i64,
        n_chunks: i64,
        l_stride: i64,
        c_stride: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::reduce::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        let rows = [
            "red_rows_1",
            "red_rows_32",
            "red_rows_256",
            "red_rows_32_flat",
            "red_rows_256_flat",
            "red_cols",
        ];
        assert_mirrors::<RedArgs>(SOURCE, &rows);
        let parts = ["red_partials_1", "red_partials_32", "red_partials_256"];
        assert_mirrors::<PartArgs>(SOURCE, &parts);
        assert_mirrors::<FillArgs>(SOURCE, &["red_fill"]);
        let scans = ["scan_thread", "scan_coop_32", "scan_coop_256"];
        assert_mirrors::<ScanArgs>(SOURCE, &scans);
        assert_mirrors::<CarryArgs>(SOURCE, &["scan_carry"]);
    }
}
