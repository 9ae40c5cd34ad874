//! The parameter structs of the memory kernels (fills, conversions, arange;
//! kernels/src/memory.cu), mirrored field for field by the `.cu` source.

use crate::elementwise::ArgBytes;
use crate::launch::Strided;

kernel_params! {
    /// Arguments of `fill_contig`.
    pub(crate) struct FillContigArgs {
        /// `T*`
        out: u64,
        n: i64,
        value: ArgBytes,
    }
}

kernel_params! {
    /// Arguments of `fill_strided32` and `fill_strided64`.
    pub(crate) struct FillStridedArgs {
        /// `T*`
        out: u64,
        s: Strided,
        n: i64,
        value: ArgBytes,
    }
}

kernel_params! {
    /// Arguments of `conv_contig`.
    pub(crate) struct ConvContigArgs {
        /// `OUT*`
        out: u64,
        /// `const IN*`
        src: u64,
        n: i64,
    }
}

kernel_params! {
    /// Arguments of `conv_gather32` and `conv_gather64`.
    pub(crate) struct ConvGatherArgs {
        /// `OUT*`
        out: u64,
        /// `const IN*`
        src: u64,
        s: Strided,
        n: i64,
    }
}

kernel_params! {
    /// Arguments of `conv_scatter32` and `conv_scatter64`.
    pub(crate) struct ConvScatterArgs {
        /// `OUT*`
        out: u64,
        d: Strided,
        /// `const IN*`
        src: u64,
        s: Strided,
        n: i64,
    }
}

kernel_params! {
    /// Arguments of `conv_tile`.
    pub(crate) struct ConvTileArgs {
        /// `OUT*`
        out: u64,
        d: Strided,
        /// `const IN*`
        src: u64,
        s: Strided,
        k: i32,
        l: i32,
        tiles_k: i64,
        tiles_l: i64,
        ntiles: i64,
    }
}

kernel_params! {
    /// Arguments of `arange`.
    pub(crate) struct ArangeArgs {
        /// `T*`
        out: u64,
        n: i64,
        start: ArgBytes,
        step: ArgBytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::memory::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<FillContigArgs>(SOURCE, &["fill_contig"]);
        assert_mirrors::<FillStridedArgs>(SOURCE, &["fill_strided32", "fill_strided64"]);
        assert_mirrors::<ConvContigArgs>(SOURCE, &["conv_contig"]);
        assert_mirrors::<ConvGatherArgs>(SOURCE, &["conv_gather32", "conv_gather64"]);
        assert_mirrors::<ConvScatterArgs>(SOURCE, &["conv_scatter32", "conv_scatter64"]);
        assert_mirrors::<ConvTileArgs>(SOURCE, &["conv_tile"]);
        assert_mirrors::<ArangeArgs>(SOURCE, &["arange"]);
    }
}
