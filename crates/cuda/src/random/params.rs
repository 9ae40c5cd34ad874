//! The parameter structs of the random-number kernels (kernels/src/random.cu), mirrored field
//! for field by the `.cu` source.

use crate::elementwise::ArgBytes;

kernel_params! {
    /// Arguments of `random_uniform`.
    pub(crate) struct RandomUniformArgs {
        /// `T*`
        out: u64,
        n: i64,
        k0: u32,
        k1: u32,
        base: u64,
        /// the draw's index of element 0
        first: u64,
        low: ArgBytes,
        high: ArgBytes,
    }
}

kernel_params! {
    /// Arguments of `random_float`.
    pub(crate) struct RandomFloatArgs {
        /// `T*`
        out: u64,
        n: i64,
        k0: u32,
        k1: u32,
        base: u64,
        /// the draw's index of element 0
        first: u64,
        dist: i32,
        a: f64,
        b: f64,
        c: f64,
    }
}

kernel_params! {
    /// Arguments of `random_int`.
    pub(crate) struct RandomIntArgs {
        /// `T*`
        out: u64,
        n: i64,
        k0: u32,
        k1: u32,
        base: u64,
        /// the draw's index of element 0
        first: u64,
        dist: i32,
        low: i64,
        range: u64,
        a: f64,
        b: f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::launch::assert_mirrors;
    use cuprite_kernels::random::SOURCE;

    #[test]
    fn params_mirror_the_cu_declarations() {
        assert_mirrors::<RandomUniformArgs>(SOURCE, &["random_uniform"]);
        assert_mirrors::<RandomFloatArgs>(SOURCE, &["random_float"]);
        assert_mirrors::<RandomIntArgs>(SOURCE, &["random_int"]);
    }
}
