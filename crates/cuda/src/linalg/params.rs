//! The parameter structs of the linear-algebra kernels (kernels/src/linalg.cu, the helpers
//! around cuSOLVER, and kernels/src/small_linalg.cu, the batched small-matrix routines),
//! mirrored field for field by the `.cu` sources.

kernel_params! {
    /// Arguments of `tri_copy`.
    pub(crate) struct TriCopyArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        src: u64,
        rows_out: i64,
        rows_in: i64,
        cols: i64,
        batch: i64,
        upper: i32,
    }
}

kernel_params! {
    /// Arguments of `conj_transpose`.
    pub(crate) struct ConjTransposeArgs {
        /// `T*`
        out: u64,
        /// `const T*`
        src: u64,
        rows: i64,
        cols: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `identity`.
    pub(crate) struct IdentityArgs {
        /// `T*`
        out: u64,
        rows: i64,
        cols: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `eig_values_real`.
    pub(crate) struct EigValuesRealArgs {
        /// `CT*`
        w: u64,
        /// `const R*`
        wri: u64,
        n: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `eig_vectors_real`.
    pub(crate) struct EigVectorsRealArgs {
        /// `CT*`
        v: u64,
        /// `const R*`
        vr: u64,
        /// `const R*`
        wri: u64,
        n: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `eig_normalise`.
    pub(crate) struct EigNormaliseArgs {
        /// `CT*`
        v: u64,
        n: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `small_lu_W`.
    pub(crate) struct SmallLuArgs {
        /// `const T*`
        a: u64,
        /// `T*`
        lu: u64,
        /// `int*`
        ipiv: u64,
        n: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `small_solve_W`.
    pub(crate) struct SmallSolveArgs {
        /// `const T*`
        lu: u64,
        /// `const int*`
        ipiv: u64,
        /// `const T*`, 0 for the identity
        b: u64,
        /// `T*`
        x: u64,
        n: i64,
        nrhs: i64,
        batch: i64,
    }
}

kernel_params! {
    /// Arguments of `small_cholesky_W`.
    pub(crate) struct SmallCholeskyArgs {
        /// `const T*`
        a: u64,
        /// `T*`
        l: u64,
        /// `int*`
        info: u64,
        n: i64,
        batch: i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::linalg::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<TriCopyArgs>(SOURCE, &["tri_copy"]);
        assert_mirrors::<ConjTransposeArgs>(SOURCE, &["conj_transpose"]);
        assert_mirrors::<IdentityArgs>(SOURCE, &["identity"]);
        assert_mirrors::<EigValuesRealArgs>(SOURCE, &["eig_values_real"]);
        assert_mirrors::<EigVectorsRealArgs>(SOURCE, &["eig_vectors_real"]);
        assert_mirrors::<EigNormaliseArgs>(SOURCE, &["eig_normalise"]);
        let small = cuprite_kernels::small_linalg::SOURCE;
        for w in [4, 8, 16, 32] {
            assert_mirrors::<SmallLuArgs>(small, &[&format!("small_lu_{w}")]);
            assert_mirrors::<SmallSolveArgs>(small, &[&format!("small_solve_{w}")]);
            assert_mirrors::<SmallCholeskyArgs>(small, &[&format!("small_cholesky_{w}")]);
        }
    }
}
