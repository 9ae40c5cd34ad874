//! The parameter structs of the indexing kernels (kernels/src/index.cu), mirrored field for
//! field by the `.cu` source.

use crate::launch::Strided;

kernel_params! {
    /// Arguments of `index_check`.
    pub(crate) struct IndexCheckArgs {
        /// `const i64*`
        idx: u64,
        si: Strided,
        total: i64,
        n: i64,
        /// `u64*`
        first: u64,
    }
}

kernel_params! {
    /// Arguments of `take`.
    pub(crate) struct TakeArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        x: u64,
        /// `const i64*`
        idx: u64,
        pre: Strided,
        post: Strided,
        si: Strided,
        sax: i64,
        n: i64,
        m: i64,
        q: i64,
        total: i64,
        /// `u64*`: the smallest position of an index out of range (all ones: none).
        first: u64,
    }
}

kernel_params! {
    /// Arguments of `take_along`.
    pub(crate) struct TakeAlongArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        x: u64,
        /// `const i64*`
        idx: u64,
        sx: Strided,
        si: Strided,
        sax: i64,
        n: i64,
        total: i64,
        /// `u64*`: the smallest position of an index out of range (all ones: none).
        first: u64,
    }
}

kernel_params! {
    /// Arguments of `scatter_lanes`.
    pub(crate) struct ScatterLanesArgs {
        /// `T*`
        dst: u64,
        /// `const i64*`
        idx: u64,
        /// `const T*`
        v: u64,
        sd: Strided,
        si: Strided,
        sv: Strided,
        dax: i64,
        iax: i64,
        vax: i64,
        n: i64,
        m: i64,
        q: i64,
        lanes: i64,
    }
}

kernel_params! {
    /// Arguments of `scatter_mark32` and `scatter_mark64`.
    pub(crate) struct ScatterMarkArgs {
        /// `unsigned*`
        win: u64,
        /// `const i64*`
        idx: u64,
        si: Strided,
        n: i64,
        m: i64,
        q: i64,
        total: i64,
    }
}

kernel_params! {
    /// Arguments of `scatter_write32` and `scatter_write64`.
    pub(crate) struct ScatterWriteArgs {
        /// `T*`
        dst: u64,
        /// `const unsigned*`
        win: u64,
        /// `const i64*`
        idx: u64,
        /// `const T*`
        v: u64,
        sd: Strided,
        si: Strided,
        sv: Strided,
        dax: i64,
        n: i64,
        m: i64,
        q: i64,
        total: i64,
    }
}

kernel_params! {
    /// Arguments of `scatter_reduce` and `scatter_reduce_private`.
    pub(crate) struct ScatterReduceArgs {
        /// `T*`
        dst: u64,
        /// `const i64*`
        idx: u64,
        /// `const T*`
        v: u64,
        si: Strided,
        sv: Strided,
        doff: i64,
        dstride: i64,
        n: i64,
        total: i64,
    }
}

kernel_params! {
    /// Arguments of `bin_add_global` and `bin_add_private`.
    pub(crate) struct BinArgs {
        /// `const BX*`
        x: u64,
        /// `const BE*`
        edges: u64,
        /// `const T*` (unused without weights)
        w: u64,
        /// `T*`
        out: u64,
        sx: Strided,
        sw: Strided,
        nb: i64,
        total: i64,
        first: f64,
        last: f64,
        denom: f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::index::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<IndexCheckArgs>(SOURCE, &["index_check"]);
        assert_mirrors::<TakeArgs>(SOURCE, &["take"]);
        assert_mirrors::<TakeAlongArgs>(SOURCE, &["take_along"]);
        assert_mirrors::<ScatterLanesArgs>(SOURCE, &["scatter_lanes"]);
        assert_mirrors::<ScatterMarkArgs>(SOURCE, &["scatter_mark32", "scatter_mark64"]);
        assert_mirrors::<ScatterWriteArgs>(SOURCE, &["scatter_write32", "scatter_write64"]);
        assert_mirrors::<ScatterReduceArgs>(
            cuprite_kernels::index::SCATTER_REDUCE,
            &["scatter_reduce", "scatter_reduce_private"],
        );
        assert_mirrors::<BinArgs>(
            cuprite_kernels::index::BINS,
            &["bin_add_global", "bin_add_private"],
        );
    }
}
