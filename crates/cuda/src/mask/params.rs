//! The parameter structs of the boolean-mask kernels (kernels/src/mask.cu), mirrored field for
//! field by the `.cu` source.

use crate::launch::Strided;

kernel_params! {
    /// Arguments of `count_truthy` and `count_mask`.
    pub(crate) struct CountArgs {
        /// `const T*` (count_truthy) or `const bool*` (count_mask)
        flags: u64,
        s: Strided,
        n: i64,
        /// `unsigned*`
        counts: u64,
    }
}

kernel_params! {
    /// Arguments of `scan_tiles`.
    pub(crate) struct ScanTilesArgs {
        /// `const unsigned*`
        counts: u64,
        ntiles: i64,
        /// `u64*`
        offsets: u64,
    }
}

kernel_params! {
    /// Arguments of `select_scatter`.
    pub(crate) struct SelectScatterArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        x: u64,
        /// `const bool*`
        m: u64,
        sx: Strided,
        sm: Strided,
        n: i64,
        /// `const u64*`
        offsets: u64,
    }
}

kernel_params! {
    /// Arguments of `nonzero_scatter`.
    pub(crate) struct NonzeroScatterArgs {
        /// `i64*`
        out: u64,
        /// `const T*`
        x: u64,
        sx: Strided,
        n: i64,
        /// `const u64*`
        offsets: u64,
        /// `const i64*`
        shape: u64,
        ndim: i32,
    }
}

kernel_params! {
    /// Arguments of `assign_scatter`.
    pub(crate) struct AssignScatterArgs {
        /// `T*`
        dst: u64,
        /// `const bool*`
        m: u64,
        /// `const T*`
        v: u64,
        sd: Strided,
        sm: Strided,
        sv: Strided,
        n: i64,
        /// `const u64*`
        offsets: u64,
    }
}

kernel_params! {
    /// Arguments of `assign_fill`.
    pub(crate) struct AssignFillArgs {
        /// `T*`
        dst: u64,
        /// `const bool*`
        m: u64,
        /// `const T*`
        v: u64,
        voff: i64,
        sd: Strided,
        sm: Strided,
        n: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::index::MASK as SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<CountArgs>(SOURCE, &["count_truthy", "count_mask"]);
        assert_mirrors::<ScanTilesArgs>(SOURCE, &["scan_tiles"]);
        assert_mirrors::<SelectScatterArgs>(SOURCE, &["select_scatter"]);
        assert_mirrors::<NonzeroScatterArgs>(SOURCE, &["nonzero_scatter"]);
        assert_mirrors::<AssignScatterArgs>(SOURCE, &["assign_scatter"]);
        assert_mirrors::<AssignFillArgs>(SOURCE, &["assign_fill"]);
    }
}
