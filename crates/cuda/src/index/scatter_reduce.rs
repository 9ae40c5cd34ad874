//! `scatter_reduce` on the GPU (NumPy's `ufunc.at`) with the kernels of
//! `cuprite_kernels::index::SCATTER_REDUCE`: the indices are checked first (one number read
//! back, as every index op of this backend), then one thread per index element updates its
//! destination element atomically. A sum of many indices into a destination that fits in
//! shared memory goes through one private copy per block (`scatter_reduce_private`), which
//! is what makes `bincount` and `histogram` of few bins fast.

use super::product;
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::launch::{check_view, coalesce};
use cuprite_core::ops::BinaryOp;
use cuprite_core::{DType, Element, Error, Layout, Result};
use cuprite_kernels::index::{SCATTER_REDUCE, SCATTER_REDUCE_BLOCK};

use super::params::ScatterReduceArgs;

const OP: &str = "scatter_reduce";

/// Bytes of shared memory a block's private copy of the destination may take.
const PRIVATE_BYTES: usize = 32 * 1024;

/// Index elements per destination element above which the private copies pay for their
/// initialisation and merge.
const PRIVATE_DENSITY: usize = 8;

/// The `AT_KIND` of an op: 1 add, 2 minimum, 3 maximum, 0 any other (a compare-and-swap
/// loop around the op's functor).
fn at_kind(name: &str) -> u32 {
    match name {
        "add" => 1,
        "minimum" => 2,
        "maximum" => 3,
        _ => 0,
    }
}

/// True when `dtype` has a native atomic add in shared memory (the `native_at` of the
/// kernel source for `AT_KIND` 1).
pub(super) fn native_add(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::F32 | DType::F64 | DType::I32 | DType::U32 | DType::I64 | DType::U64
    ) || dtype.is_complex()
}

/// Whether the sum goes through per-block private copies: a native shared-memory atomic,
/// a destination that fits, and enough indices per destination element.
fn use_private(kind: u32, dtype: DType, n: usize, total: usize) -> bool {
    kind == 1
        && native_add(dtype)
        && n.saturating_mul(dtype.size_of()) <= PRIVATE_BYTES
        && total >= n.saturating_mul(PRIVATE_DENSITY)
}

impl Cuda {
    /// See [`cuprite_core::backend::IndexOps::scatter_reduce`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scatter_reduce_impl<T: Element, O: BinaryOp<T, Out = T>>(
        &self,
        dst: &mut CudaBuffer<T>,
        ld: &Layout,
        idx: &CudaBuffer<i64>,
        li: &Layout,
        values: &CudaBuffer<T>,
        lv: &Layout,
        op: O,
    ) -> Result<()> {
        if ld.ndim() != 1 {
            return Err(Error::invalid(
                OP,
                format!("the destination must be 1-d, got shape {:?}", ld.shape()),
            ));
        }
        if li.shape() != lv.shape() {
            return Err(Error::ShapeMismatch {
                op: OP,
                lhs: li.shape().to_vec(),
                rhs: lv.shape().to_vec(),
            });
        }
        if !op.params().is_empty() {
            return Err(Error::invalid(
                OP,
                format!("`{}` takes parameters; ufunc.at takes ops without", O::NAME),
            ));
        }
        let dtype = T::DTYPE;
        let kind = at_kind(O::NAME);
        if dtype.size_of() > 8 && kind != 1 {
            return Err(Error::invalid(
                O::NAME,
                format!(
                    "`{}.at` of {dtype} is not supported on cuda (only `add.at`)",
                    O::NAME
                ),
            ));
        }
        check_view(self, O::NAME, dst, ld)?;
        check_view(self, O::NAME, idx, li)?;
        check_view(self, O::NAME, values, lv)?;
        let n = ld.shape()[0];
        self.check_indices::<T>(O::NAME, idx, li, 0, n)?;
        let total = li.size();
        if total == 0 {
            return Ok(());
        }
        product(O::NAME, &[total, dtype.size_of()])?;
        let views = coalesce(O::NAME, &[li, lv])?;
        let ct = cty::<T>();
        let functor = cuprite_kernels::elementwise::functor(O::NAME);
        let key = format!("scatter_reduce|{ct}|{}", O::NAME);
        let kind_s = kind.to_string();
        let private = use_private(kind, dtype, n, total);
        let name = if private {
            "scatter_reduce_private"
        } else {
            "scatter_reduce"
        };
        let f = self.kernel::<ScatterReduceArgs>(&key, name, || {
            cuprite_kernels::program(
                &[cuprite_kernels::elementwise::OPS, SCATTER_REDUCE],
                &[("T", ct), ("OP", &functor), ("AT_KIND", &kind_s)],
            )
        })?;
        let args = ScatterReduceArgs {
            dst: self.ptr(dst)?,
            idx: self.ptr(idx)?,
            v: self.ptr(values)?,
            si: views[0],
            sv: views[1],
            doff: ld.offset() as i64,
            dstride: ld.strides()[0] as i64,
            n: n as i64,
            total: total as i64,
        };
        let (grid, shared) = if private {
            // Two blocks per SM: enough to saturate the shared atomics, few copies to merge.
            let g = (self.multiprocessor_count() as usize * 2)
                .min(total.div_ceil(SCATTER_REDUCE_BLOCK as usize));
            (g.max(1) as u32, (n * dtype.size_of()) as u32)
        } else {
            (self.grid_for(total, 4), 0)
        };
        // The parameters mirror `scatter_reduce{,_private}(ScatterReduceArgs)`: `dst` is a
        // 1-d view of n elements inside its buffer, the index and value views lie in theirs
        // (checked above), every index is in -n..n, and the private kernel gets n elements
        // of shared memory (at most PRIVATE_BYTES).
        f.launch((grid, 1, 1), (SCATTER_REDUCE_BLOCK, 1, 1), shared, &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_private_copies() {
        assert_eq!(at_kind("add"), 1);
        assert_eq!(at_kind("minimum"), 2);
        assert_eq!(at_kind("maximum"), 3);
        assert_eq!(at_kind("multiply"), 0);
        // 10 bins of 50M counts: private copies; 1M bins of 1M indices: global atomics.
        assert!(use_private(1, DType::I64, 10, 50_000_000));
        assert!(!use_private(1, DType::I64, 1 << 20, 1 << 20));
        // 4096 doubles fit in 32 KiB, 4097 do not.
        assert!(use_private(1, DType::F64, 4096, 1 << 20));
        assert!(!use_private(1, DType::F64, 4097, 1 << 20));
        // No shared atomics for halfs or 8-bit integers, and none for minimum.
        assert!(!use_private(1, DType::F16, 10, 1 << 20));
        assert!(!use_private(1, DType::U8, 10, 1 << 20));
        assert!(!use_private(2, DType::I32, 10, 1 << 20));
    }
}
