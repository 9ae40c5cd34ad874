//! The integer GEMM (u8, i32, i64) on the kernels of `kernels/src/matmul.cu`: operands are
//! read in place with any strides (the kernels take each operand's row and column strides and
//! its collapsed batch axes as a `Strided`), arithmetic wraps, and [`plan::int_plan`] picks
//! the tiled or the warp-per-output kernel and the split-K factor. Batches whose axes do not
//! collapse to [`MAX_DIMS`] loop over the outer axes on the host.

use super::params::{GemmIntArgs, GemmIntReduceArgs};
use super::plan::{self, IntKernel};
use super::{addr, strided};
use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::launch::{BLOCK, MAX_DIMS};
use cuprite_core::{Layout, Numeric, Result};

impl Cuda {
    /// `a @ b` for integer element types; sizes are non-zero.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mm_int<T: Numeric>(
        &self,
        a: &CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
        batch: &[usize],
        (m, k, n): (usize, usize, usize),
    ) -> Result<CudaBuffer<T>> {
        let r = la.ndim();
        let (sa, sb) = (la.strides(), lb.strides());
        let axes = plan::collapse(batch, [&sa[..r - 2], &sb[..r - 2]]);
        let (outer, inner) = plan::split(axes, MAX_DIMS);
        let items = plan::count(&inner);
        let p = plan::int_plan(items, m, n, k, self.inner.sm_count as usize);
        let key = format!("matmul|int|{}", cty::<T>());
        let source = || cuprite_kernels::matmul::int_program(cty::<T>());
        let name = match p.kernel {
            IntKernel::Tiled => "gemm_int_tiled",
            IntKernel::Dot => "gemm_int_dot",
        };
        let f = self.kernel(&key, name, source)?;
        let outputs = items * m * n;
        // The split-K partial sums, in the unsigned accumulator type (4 or 8 bytes).
        let acc_bytes = if std::mem::size_of::<T>() == 8 { 8 } else { 4 };
        let ws = if p.splits > 1 {
            Some(self.alloc::<i64>((outputs * p.splits * acc_bytes).div_ceil(8))?)
        } else {
            None
        };
        let reduce = match ws {
            Some(_) => Some(self.kernel(&key, "gemm_int_reduce", source)?),
            None => None,
        };
        let ws_ptr = ws.as_ref().map_or(0, |w| w.device_ptr());
        let c = self.alloc::<T>(plan::count(&outer) * outputs)?;
        let (m64, n64, k64) = (m as i64, n as i64, k as i64);
        let [a_rs, a_cs, b_rs, b_cs] =
            [sa[r - 2], sa[r - 1], sb[r - 2], sb[r - 1]].map(|s| s as i64);
        let (items64, splits, kchunk) = (items as i64, p.splits as i64, p.kchunk as i64);
        let (pa, pb) = (self.ptr(a)?, self.ptr(b)?);
        for (i, [off_a, off_b]) in plan::offsets(&outer).enumerate() {
            let ab = strided(&inner, 0, la.offset() as isize + off_a);
            let bb = strided(&inner, 1, lb.offset() as isize + off_b);
            let pc = addr(&c, (i * outputs) as isize);
            // The kernel's parameters are `(T* c, ACC* ws, const T* a, const T* b,
            // i64 m, i64 n, i64 k, i64 a_rs, i64 a_cs, i64 b_rs, i64 b_cs, Strided ab,
            // Strided bb, i64 batch, i64 splits, i64 kchunk)`. Every element it reads,
            // `offset(ab, z) + i*a_rs + p*a_cs` for z < batch, i < m, p < k (likewise B), is an
            // element of the checked view; it writes `outputs` elements of C from `pc` (chunk
            // `i` of the new buffer) or `outputs * splits` accumulators of `ws`.
            f.launch(
                p.grid,
                (cuprite_kernels::matmul::THREADS, 1, 1),
                0,
                &GemmIntArgs {
                    c: pc,
                    ws: ws_ptr,
                    a: pa,
                    b: pb,
                    m: m64,
                    n: n64,
                    k: k64,
                    a_rs,
                    a_cs,
                    b_rs,
                    b_cs,
                    ab,
                    bb,
                    batch: items64,
                    splits,
                    kchunk,
                },
            )?;
            if let Some(reduce) = reduce {
                let outputs64 = outputs as i64;
                // `gemm_int_reduce(T* c, const ACC* ws, i64 outputs, i64 splits)`:
                // reads the `outputs * splits` accumulators just written (same stream),
                // writes `outputs` elements of C from `pc`.
                reduce.launch(
                    (self.grid_for(outputs, 1), 1, 1),
                    (BLOCK, 1, 1),
                    0,
                    &GemmIntReduceArgs {
                        c: pc,
                        ws: ws_ptr,
                        outputs: outputs64,
                        splits,
                    },
                )?;
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn integer_gemm_kernels_compile() {
        for t in ["u8", "i32", "i64"] {
            let src = cuprite_kernels::matmul::int_program(t);
            crate::nvrtc::compile_check::assert_compiles(&format!("matmul_int_{t}.cu"), &src);
        }
    }
}
