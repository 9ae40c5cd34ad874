//! The parameter structs of the sorting kernels (kernels/src/sort.cu), mirrored field for field
//! by the `.cu` source.

use crate::launch::Strided;

kernel_params! {
    /// Arguments of `sort_hist`.
    pub(crate) struct SortHistArgs {
        /// `const T*`
        src: u64,
        n: i64,
        /// `u32*`
        hist: u64,
    }
}

kernel_params! {
    /// Arguments of `sort_offsets`.
    pub(crate) struct SortOffsetsArgs {
        /// `const u32*`
        hist: u64,
        /// `u32*`
        offsets: u64,
        lanes: i64,
        len: u32,
    }
}

kernel_params! {
    /// Arguments of `sort_key_iota`.
    pub(crate) struct SortKeyIotaArgs {
        /// `const T*`
        src: u64,
        n: i64,
        /// `K*`
        keys: u64,
        /// `u32*`
        perm: u64,
    }
}

kernel_params! {
    /// Arguments of `sort_searchsorted`.
    pub(crate) struct SortSearchsortedArgs {
        /// `long long*`
        out: u64,
        /// `const T*`
        sorted: u64,
        len: i64,
        stride: i64,
        /// `const T*`
        vals: u64,
        vs: Strided,
        nv: i64,
        right: i32,
    }
}

kernel_params! {
    /// Arguments of `sort_merge_cuts` and `sort_merge_pair`.
    pub(crate) struct SortMergePairArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        a: u64,
        na: i64,
        /// `const T*`
        b: u64,
        nb: i64,
        /// `long long*`: where each tile starts in `a`
        cuts: u64,
    }
}

kernel_params! {
    /// Arguments of `sort_uq_count`.
    pub(crate) struct SortUqCountArgs {
        /// `const K*`
        keys: u64,
        n: i64,
        /// `u32*`
        counts: u64,
    }
}

kernel_params! {
    /// Arguments of `sort_select`.
    pub(crate) struct SortSelectArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        sorted: u64,
        lanes: i64,
        len: i64,
        /// `const long long*`
        kth: u64,
        m: i64,
    }
}

kernel_params! {
    /// Arguments of `sort_iota_mod`.
    pub(crate) struct SortIotaModArgs {
        /// `long long*`
        out: u64,
        n: i64,
        len: i64,
    }
}

kernel_params! {
    /// Arguments of `sort_uq_scan`.
    pub(crate) struct SortUqScanArgs {
        /// `u32*`
        counts: u64,
        nb: i64,
        /// `u32*`
        total: u64,
    }
}

kernel_params! {
    /// Arguments of `sort_uq_counts`.
    pub(crate) struct SortUqCountsArgs {
        /// `long long*`
        counts: u64,
        /// `const u32*`
        starts: u64,
        k: i64,
        n: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use crate::sort::lanes::BlockArgs;
    use crate::sort::radix::PassArgs;
    use crate::sort::unique::UniqueArgs;
    use cuprite_kernels::sort::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<PassArgs>(SOURCE, &["sort_onesweep_keys", "sort_onesweep_pairs"]);
        assert_mirrors::<BlockArgs>(SOURCE, &["sort_block"]);
        assert_mirrors::<UniqueArgs>(SOURCE, &["sort_uq_write"]);
        assert_mirrors::<SortHistArgs>(SOURCE, &["sort_hist"]);
        assert_mirrors::<SortOffsetsArgs>(SOURCE, &["sort_offsets"]);
        assert_mirrors::<SortKeyIotaArgs>(SOURCE, &["sort_key_iota"]);
        assert_mirrors::<SortSearchsortedArgs>(SOURCE, &["sort_searchsorted"]);
        assert_mirrors::<SortMergePairArgs>(SOURCE, &["sort_merge_cuts", "sort_merge_pair"]);
        assert_mirrors::<SortUqCountArgs>(SOURCE, &["sort_uq_count"]);
        assert_mirrors::<SortSelectArgs>(SOURCE, &["sort_select"]);
        assert_mirrors::<SortIotaModArgs>(SOURCE, &["sort_iota_mod"]);
        assert_mirrors::<SortUqScanArgs>(SOURCE, &["sort_uq_scan"]);
        assert_mirrors::<SortUqCountsArgs>(SOURCE, &["sort_uq_counts"]);
    }
}
