//! Matrix products of the CUDA backend: the batched GEMM primitive ([`MatmulOps`]).
//!
//! - f32, f64, c64, c128 go to cuBLAS ([`cublas`]). cuBLAS is column-major, so the row-major
//!   `C = A B` is computed as `C^T = B^T A^T`: a row-major operand is a column-major matrix
//!   read with op N, a column-major one (a transposed view) is read with op T, both in place
//!   with the view's row or column stride as leading dimension ([`plan::blas_operand`]). Only
//!   operands without such a unit stride (reversed, broadcast or doubly strided matrices) are
//!   first gathered to a contiguous buffer by the `gather` kernel of `kernels/src/matmul.cu`.
//!   Batch axes collapse to one strided-batched call whenever the strides allow, broadcast
//!   operands included (stride 0); otherwise the host loops over the outer batch axes, or,
//!   when that would mean many tiny calls, gathers the operands whose batch does not collapse.
//! - u8, i32, i64 run the integer GEMM kernels of `kernels/src/matmul.cu` ([`int`]), which
//!   read any strides and wrap on overflow as NumPy does.
//!
//! The result is a new C-contiguous `[batch.., m, n]` buffer; `k == 0` gives zeros and an
//! empty output no launch at all.

mod int;
pub(crate) mod params;
mod plan;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
pub(crate) use crate::ffi::blas as cublas;
use crate::launch::{Strided, BLOCK, MAX_DIMS};
use cuprite_core::backend::{MatmulOps, MatmulPlan};
use cuprite_core::{DType, Element, Error, Layout, Numeric, Result};
use params::GatherArgs;
use plan::Axis;
pub(crate) use plan::Trans;

fn backend_err(msg: String) -> Error {
    Error::Backend { op: "matmul", msg }
}

/// The kernel view of `axes` (at most [`MAX_DIMS`]) for operand `which`, starting at `offset`.
fn strided<const N: usize>(axes: &[Axis<N>], which: usize, offset: isize) -> Strided {
    debug_assert!(axes.len() <= MAX_DIMS);
    let mut s = Strided {
        ndim: axes.len() as i32,
        offset: offset as i64,
        ..Default::default()
    };
    for (d, ax) in axes.iter().enumerate() {
        s.shape[d] = ax.len as i64;
        s.strides[d] = ax.strides[which] as i64;
    }
    s
}

/// Device address of element `index` of `buf`.
fn addr<T>(buf: &CudaBuffer<T>, index: isize) -> u64
where
    T: Element,
{
    buf.device_ptr()
        .wrapping_add((index as i64 * std::mem::size_of::<T>() as i64) as u64)
}

impl Cuda {
    /// A new C-contiguous buffer with the elements of the view `l` of `buf` (the `gather`
    /// kernel; views needing more than [`MAX_DIMS`] axes loop over the outer ones).
    fn mm_gather<T: Element>(&self, buf: &CudaBuffer<T>, l: &Layout) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(l.size())?;
        if l.size() == 0 {
            return Ok(out);
        }
        let (outer, inner) = plan::split(plan::collapse(l.shape(), [l.strides()]), MAX_DIMS);
        let n = plan::count(&inner);
        let name = if n < (1 << 31) {
            "gather32"
        } else {
            "gather64"
        };
        let f = self.kernel(&format!("matmul|gather|{}", cty::<T>()), name, || {
            cuprite_kernels::matmul::gather_program(cty::<T>())
        })?;
        let grid = (self.grid_for(n, 1), 1, 1);
        let (src, n64) = (self.ptr(buf)?, n as i64);
        for (i, [off]) in plan::offsets(&outer).enumerate() {
            let s = strided(&inner, 0, l.offset() as isize + off);
            let dst = addr(&out, (i * n) as isize);
            // `gather(T* out, const T* in, Strided s, i64 n)`; `out` holds `n`
            // elements from `dst` (chunk `i` of the contiguous copy) and every offset of `s`
            // is an element of the view, inside `buf` (checked against its length).
            f.launch(
                grid,
                (BLOCK, 1, 1),
                0,
                &GatherArgs {
                    out: dst,
                    src,
                    s,
                    n: n64,
                },
            )?;
        }
        Ok(out)
    }

    /// Copies an operand to a contiguous buffer (broadcast batch axes kept when
    /// `keep_broadcast`); returns the copy and its layout.
    fn mm_gather_operand<T: Element>(
        &self,
        buf: &CudaBuffer<T>,
        l: &Layout,
        keep_broadcast: bool,
    ) -> Result<(CudaBuffer<T>, Layout)> {
        let (src, dst) = plan::gathered_layout(l, keep_broadcast);
        Ok((self.mm_gather(buf, &src)?, dst))
    }

    /// `a @ b` through cuBLAS (f16, bf16, f32, f64, c64, c128); sizes are non-zero.
    #[allow(clippy::too_many_arguments)]
    fn mm_blas<T: Numeric>(
        &self,
        a: &CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
        batch: &[usize],
        (m, k, n): (usize, usize, usize),
    ) -> Result<CudaBuffer<T>> {
        let r = la.ndim();
        let operand = |l: &Layout, rows, cols| {
            plan::blas_operand(rows, cols, l.strides()[r - 2], l.strides()[r - 1])
        };
        let (mut a, mut la) = (a.clone(), la.clone());
        let (mut b, mut lb) = (b.clone(), lb.clone());
        if operand(&la, m, k).is_none() {
            (a, la) = self.mm_gather_operand(&a, &la, true)?;
        }
        if operand(&lb, k, n).is_none() {
            (b, lb) = self.mm_gather_operand(&b, &lb, true)?;
        }
        let nb = r - 2;
        let mut pl = plan::blas_batch(batch, &la.strides()[..nb], &lb.strides()[..nb], m * n);
        if plan::prefer_gather(pl.calls(), m * n * k * pl.inner.len) {
            if !plan::batch_collapses(batch, &la.strides()[..nb], m * n) {
                (a, la) = self.mm_gather_operand(&a, &la, false)?;
            }
            if !plan::batch_collapses(batch, &lb.strides()[..nb], m * n) {
                (b, lb) = self.mm_gather_operand(&b, &lb, false)?;
            }
            pl = plan::blas_batch(batch, &la.strides()[..nb], &lb.strides()[..nb], m * n);
        }
        let (oa, ob) = match (operand(&la, m, k), operand(&lb, k, n)) {
            (Some(oa), Some(ob)) => (oa, ob),
            _ => return Err(backend_err("a gathered operand is not contiguous".into())),
        };
        let count: usize = batch.iter().product();
        let c = self.alloc::<T>(count * m * n)?;
        let h = cublas::handle(self)?;
        let inner = pl.inner;
        for [off_a, off_b, off_c] in plan::offsets(&pl.outer) {
            // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS's A is our B.
            let g = cublas::Gemm {
                transa: ob.trans,
                transb: oa.trans,
                m: n as i64,
                n: m as i64,
                k: k as i64,
                a: addr(&b, lb.offset() as isize + off_b),
                lda: ob.ld,
                stride_a: inner.strides[1] as i64,
                b: addr(&a, la.offset() as isize + off_a),
                ldb: oa.ld,
                stride_b: inner.strides[0] as i64,
                c: addr(&c, off_c),
                ldc: n as i64,
                stride_c: inner.strides[2] as i64,
                batch: inner.len as i64,
            };
            // `blas_operand` checked each operand's strides against its op and
            // leading dimension, the batch strides come from the operands' layouts (every
            // element inside its buffer, checked), stride 0 only for the inputs; C is the new
            // contiguous `[count, m, n]` buffer, written once per element (`ldc = n`).
            cublas::gemm(self, h, T::DTYPE, &g)?;
        }
        Ok(c)
    }
}

impl MatmulOps for Cuda {
    fn matmul<T: Numeric>(
        &self,
        a: &CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
    ) -> Result<CudaBuffer<T>> {
        self.check_buffer(a, "matmul")?;
        self.check_buffer(b, "matmul")?;
        let p = MatmulPlan::check(la, lb, a.len(), b.len())?;
        let (batch, m, k, n) = (p.batch, p.m, p.k, p.n);
        let total = p.count * m * n;
        if total == 0 {
            return self.alloc::<T>(0);
        }
        if k == 0 {
            return self.alloc_zeroed::<T>(total);
        }
        match T::DTYPE {
            DType::F16 | DType::BF16 | DType::F32 | DType::F64 | DType::C64 | DType::C128 => {
                self.mm_blas(a, la, b, lb, &batch, (m, k, n))
            }
            d if d.is_integer() => self.mm_int(a, la, b, lb, &batch, (m, k, n)),
            dtype => Err(Error::UnsupportedDType {
                op: "matmul",
                dtype,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_views_carry_one_operands_strides() {
        let axes = [
            Axis {
                len: 2,
                strides: [10, 0],
            },
            Axis {
                len: 3,
                strides: [1, 5],
            },
        ];
        let s = strided(&axes, 1, 7);
        assert_eq!((s.ndim, s.offset), (2, 7));
        assert_eq!(
            (&s.shape[..2], &s.strides[..2]),
            (&[2i64, 3][..], &[0i64, 5][..])
        );
        assert_eq!(strided::<1>(&[], 0, 4).ndim, 0);
    }

    #[test]
    #[ignore = "needs libnvrtc: run with --ignored where it is installed"]
    fn gather_kernels_compile() {
        for t in [
            DType::Bool,
            DType::U8,
            DType::I32,
            DType::I64,
            DType::F32,
            DType::F64,
            DType::C64,
            DType::C128,
        ] {
            let name = format!("matmul_gather_{}.cu", crate::ctype::ctype(t));
            let src = cuprite_kernels::matmul::gather_program(crate::ctype::ctype(t));
            crate::nvrtc::compile_check::assert_compiles(&name, &src);
        }
    }
}
