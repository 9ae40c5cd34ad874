//! The parameter structs of the element-wise kernels (`ew_contig`, `ew_strided` of every
//! program of kernels/src/elementwise.cu), mirrored field for field by the `.cu` source.

use super::plan::ArgBytes;
use crate::launch::Strided;

kernel_params! {
    /// Arguments of `ew_contig`: every operand one contiguous run.
    pub(crate) struct EwContig {
        /// The result (`OUT*`, C-contiguous; 0 in place).
        out: u64,
        /// The operands in order, advanced to their first element (unused slots 0).
        x: [u64; 3],
        /// The scalar operand of the scalar variants.
        s: ArgBytes,
        /// The op's parameters of the element type.
        t0: ArgBytes,
        t1: ArgBytes,
        /// The op's f64 parameters.
        d0: f64,
        d1: f64,
        /// The op's integer parameter.
        k: i64,
        /// Elements.
        n: i64,
        /// Elements before the first aligned vector (`n`: no vectors).
        head: i64,
    }
}

kernel_params! {
    /// Arguments of `ew_strided`: operands as jointly coalesced views of their buffers.
    pub(crate) struct EwStrided {
        /// The result (`OUT*`, C-contiguous; 0 in place).
        out: u64,
        /// The operands' buffers in order (unused slots 0).
        x: [u64; 3],
        /// The scalar operand of the scalar variants.
        s: ArgBytes,
        /// The op's parameters of the element type.
        t0: ArgBytes,
        t1: ArgBytes,
        /// The op's f64 parameters.
        d0: f64,
        d1: f64,
        /// The op's integer parameter.
        k: i64,
        /// Elements.
        n: i64,
        /// The operands' views, in the order of `x`.
        v: [Strided; 3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::elementwise::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<EwContig>(SOURCE, &["ew_contig"]);
        assert_mirrors::<EwStrided>(SOURCE, &["ew_strided", "ew_tiled"]);
    }
}
