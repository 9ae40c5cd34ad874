//! The parameter structs of the integer matrix-product kernels (kernels/src/matmul.cu),
//! mirrored field for field by the `.cu` source.

use crate::launch::Strided;

kernel_params! {
    /// Arguments of `gather32` and `gather64`.
    pub(crate) struct GatherArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        src: u64,
        s: Strided,
        n: i64,
    }
}

kernel_params! {
    /// Arguments of `gemm_int_tiled` and `gemm_int_dot`.
    pub(crate) struct GemmIntArgs {
        /// `T*`
        c: u64,
        /// `ACC*`
        ws: u64,
        /// `const T*`
        a: u64,
        /// `const T*`
        b: u64,
        m: i64,
        n: i64,
        k: i64,
        a_rs: i64,
        a_cs: i64,
        b_rs: i64,
        b_cs: i64,
        ab: Strided,
        bb: Strided,
        batch: i64,
        splits: i64,
        kchunk: i64,
    }
}

kernel_params! {
    /// Arguments of `gemm_int_reduce`.
    pub(crate) struct GemmIntReduceArgs {
        /// `T*`
        c: u64,
        /// `const ACC*`
        ws: u64,
        outputs: i64,
        splits: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::matmul::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<GatherArgs>(SOURCE, &["gather32", "gather64"]);
        assert_mirrors::<GemmIntArgs>(SOURCE, &["gemm_int_tiled", "gemm_int_dot"]);
        assert_mirrors::<GemmIntReduceArgs>(SOURCE, &["gemm_int_reduce"]);
    }
}
