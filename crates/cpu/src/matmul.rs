//! Matrix products of the CPU backend: the batched GEMM primitive.
//!
//! Large f32/f64/c64/c128 products (from `FAER_MIN` multiply-adds) run through faer's GEMM,
//! which uses every core; the others through matrixmultiply's `sgemm`/`dgemm` and c64/c128 through its
//! `cgemm`/`zgemm` (crate feature `cgemm`), which take arbitrary row and column strides, so
//! transposed, sliced, reversed (negative strides) and broadcast (zero strides) operands are
//! read in place, without a copy. Integers (all eight) use the blocked, rayon-parallel
//! wrapping kernel of `gemm_int.rs`. Tiny products skip the packing machinery and run a
//! direct loop; products with a vector operand (`m == 1` or `n == 1`) run the dot and
//! matrix-vector kernels of `gemv.rs` instead of packing. Batch axes along which `b` is
//! broadcast are first folded into the rows of `a` (`MatmulPlan::fold_broadcast_rows`); a
//! batch whose operands are both broadcast computes its one product once and copies it.
//! The other batches loop over the batch index, in parallel over rayon when each product
//! is too small for the GEMM to split it across threads.

#[path = "gemm_int.rs"]
mod gemm_int;
#[path = "gemv.rs"]
mod gemv;
#[path = "gemv_fma.rs"]
mod gemv_fma;

use crate::buffer::CpuBuffer;
use crate::view::check_views;
use crate::Cpu;
use cuprite_core::backend::{MatmulOps, MatmulPlan};
use cuprite_core::{c128, c64, DType, Error, Layout, Numeric, Result, Scalar};
use rayon::prelude::*;
use std::any::Any;

/// Below this many multiply-adds (`m * n * k`) a product runs the direct loop.
const TINY: usize = 4 * 4 * 4;

/// Below this `m*k + k*n`, matrixmultiply runs a product on one thread (its own heuristic,
/// `1 << 14` per extra thread), so batches of such products are spread over rayon instead.
const SMALL: usize = 1 << 15;

/// One matrix operand: element `[i, j]` lives at `data[off + i * rs + j * cs]`.
#[derive(Clone, Copy)]
pub(crate) struct Mat<'a, T> {
    pub(crate) data: &'a [T],
    pub(crate) off: usize,
    pub(crate) rs: isize,
    pub(crate) cs: isize,
}

impl<T: Copy> Mat<'_, T> {
    #[inline(always)]
    pub(crate) fn at(&self, i: usize, j: usize) -> T {
        self.data[(self.off as isize + i as isize * self.rs + j as isize * self.cs) as usize]
    }
}

/// Reinterprets a buffer of `T` as a buffer of `U` when they are the same type.
fn same<T: 'static, U: 'static>(x: &CpuBuffer<T>) -> Result<&CpuBuffer<U>> {
    (x as &dyn Any)
        .downcast_ref::<CpuBuffer<U>>()
        .ok_or_else(|| backend_err("element type dispatch failed"))
}

fn backend_err(msg: &str) -> Error {
    Error::Backend {
        op: "matmul",
        msg: msg.to_string(),
    }
}

/// Direct loop `c = a @ b` for tiny products (every product computed: NaN and inf propagate).
fn gemm_direct<T: Numeric>(m: usize, k: usize, n: usize, a: Mat<T>, b: Mat<T>, c: &mut [T]) {
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        row.iter_mut().for_each(|x| *x = T::ZERO);
        for p in 0..k {
            let aip = a.at(i, p);
            for (j, cij) in row.iter_mut().enumerate() {
                *cij = cij.add(aip.mul(b.at(p, j)));
            }
        }
    }
}

/// A GEMM kernel writing the row-major `m x n` block `c`.
trait Kernel<T>: Fn(usize, usize, usize, Mat<T>, Mat<T>, &mut [T]) + Sync {}
impl<T, F: Fn(usize, usize, usize, Mat<T>, Mat<T>, &mut [T]) + Sync> Kernel<T> for F {}

macro_rules! mm_kernel {
    ($name:ident, $t:ty, $raw:ty, $call:expr) => {
        /// matrixmultiply on one product (any strides of `a` and `b`).
        fn $name(m: usize, k: usize, n: usize, a: Mat<$t>, b: Mat<$t>, c: &mut [$t]) {
            debug_assert_eq!(c.len(), m * n);
            // SAFETY: core's layout (checked against the buffer length in `matmul`) keeps
            // every element `off + i*rs + p*cs` (i < m, p < k) of `a`, and likewise of `b`,
            // inside its slice; `c` holds exactly `m * n` elements written with strides
            // (n, 1), which never alias. matrixmultiply accepts any (also negative or zero)
            // strides for `a` and `b`, and `beta = 0` means `c` is not read.
            unsafe {
                let pa = a.data.as_ptr().add(a.off) as *const $raw;
                let pb = b.data.as_ptr().add(b.off) as *const $raw;
                let pc = c.as_mut_ptr() as *mut $raw;
                $call(m, k, n, pa, a.rs, a.cs, pb, b.rs, b.cs, pc, n as isize, 1);
            }
        }
    };
}

mm_kernel!(
    kernel_f32,
    f32,
    f32,
    |m, k, n, a, rsa, csa, b, rsb, csb, c, rsc, csc| {
        matrixmultiply::sgemm(m, k, n, 1.0, a, rsa, csa, b, rsb, csb, 0.0, c, rsc, csc)
    }
);
mm_kernel!(
    kernel_f64,
    f64,
    f64,
    |m, k, n, a, rsa, csa, b, rsb, csb, c, rsc, csc| {
        matrixmultiply::dgemm(m, k, n, 1.0, a, rsa, csa, b, rsb, csb, 0.0, c, rsc, csc)
    }
);
// num_complex::Complex<F> is #[repr(C)] { re, im }: the same layout as matrixmultiply's [F; 2].
mm_kernel!(
    kernel_c64,
    c64,
    [f32; 2],
    |m, k, n, a, rsa, csa, b, rsb, csb, c, rsc, csc| {
        use matrixmultiply::CGemmOption::Standard;
        matrixmultiply::cgemm(
            Standard,
            Standard,
            m,
            k,
            n,
            [1.0, 0.0],
            a,
            rsa,
            csa,
            b,
            rsb,
            csb,
            [0.0, 0.0],
            c,
            rsc,
            csc,
        )
    }
);
mm_kernel!(
    kernel_c128,
    c128,
    [f64; 2],
    |m, k, n, a, rsa, csa, b, rsb, csb, c, rsc, csc| {
        use matrixmultiply::CGemmOption::Standard;
        matrixmultiply::zgemm(
            Standard,
            Standard,
            m,
            k,
            n,
            [1.0, 0.0],
            a,
            rsa,
            csa,
            b,
            rsb,
            csb,
            [0.0, 0.0],
            c,
            rsc,
            csc,
        )
    }
);

/// From this many multiply-adds on, f32/f64/c64/c128 products run through faer's GEMM, which
/// keeps every core busy on large products (matrixmultiply splits one product over few
/// threads); below it matrixmultiply's lower setup cost wins.
const FAER_MIN: usize = 1 << 21;

macro_rules! faer_kernel {
    ($name:ident, $t:ty, $mm:ident) => {
        /// faer's GEMM on one large product, matrixmultiply's on the others (any strides).
        fn $name(m: usize, k: usize, n: usize, a: Mat<$t>, b: Mat<$t>, c: &mut [$t]) {
            if m * k * n < FAER_MIN {
                return $mm(m, k, n, a, b, c);
            }
            // SAFETY: as for matrixmultiply above: every element `off + i*rs + p*cs`
            // (i < m, p < k) of `a` and likewise of `b` lies inside its slice, the views
            // are only read, and `c` is a distinct, exactly `m * n` row-major block.
            let (fa, fb) = unsafe {
                (
                    faer::MatRef::from_raw_parts(a.data.as_ptr().add(a.off), m, k, a.rs, a.cs),
                    faer::MatRef::from_raw_parts(b.data.as_ptr().add(b.off), k, n, b.rs, b.cs),
                )
            };
            let fc = faer::MatMut::from_row_major_slice_mut(c, m, n);
            faer::linalg::matmul::matmul(
                fc,
                faer::Accum::Replace,
                fa,
                fb,
                <$t as num_traits::One>::one(),
                faer::Par::rayon(0),
            );
        }
    };
}
faer_kernel!(large_f32, f32, kernel_f32);
faer_kernel!(large_f64, f64, kernel_f64);
faer_kernel!(large_c64, c64, kernel_c64);
faer_kernel!(large_c128, c128, kernel_c128);

/// Runs `kernel` over every batch item of `a @ b`, writing the C-contiguous output; the
/// vector products through `gemv` with `L` accumulators.
fn batched<T: Numeric, const L: usize>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    kernel: impl Kernel<T>,
) -> Result<Vec<T>> {
    let p = MatmulPlan::check(la, lb, a.len(), b.len())?.fold_broadcast_rows();
    let (m, k, n) = (p.m, p.k, p.n);
    let mut out = crate::alloc::zeroed_vec(p.out_size())?;
    if out.is_empty() || k == 0 {
        return Ok(out);
    }
    // Both operands broadcast along every batch axis: one product, copied.
    let all_zero = |s: &[isize]| s.iter().all(|&x| x == 0);
    let count = if all_zero(&p.a.batch_strides) && all_zero(&p.b.batch_strides) {
        1
    } else {
        p.count
    };
    let run = |idx: usize, c: &mut [T]| {
        let ma = Mat {
            data: a,
            off: p.a.offset_at(&p.batch, idx),
            rs: p.a.rs,
            cs: p.a.cs,
        };
        let mb = Mat {
            data: b,
            off: p.b.offset_at(&p.batch, idx),
            rs: p.b.rs,
            cs: p.b.cs,
        };
        if (m == 1 || n == 1) && gemv::try_gemv::<T, L>(m, k, n, ma, mb, c) {
            return;
        }
        if m * n * k <= TINY {
            gemm_direct(m, k, n, ma, mb, c);
        } else {
            kernel(m, k, n, ma, mb, c);
        }
    };
    if count < p.count {
        let (first, rest) = out.split_at_mut(m * n);
        run(0, first);
        rest.chunks_mut(m * n)
            .for_each(|c| c.copy_from_slice(first));
    } else if count > 1 && m * k + k * n < SMALL {
        out.par_chunks_mut(m * n)
            .enumerate()
            .for_each(|(i, c)| run(i, c));
    } else {
        out.chunks_mut(m * n)
            .enumerate()
            .for_each(|(i, c)| run(i, c));
    }
    Ok(out)
}

/// Runs [`batched`] for the concrete type `U` (equal to `T`) and returns a `CpuBuffer<T>`.
fn typed<T: Numeric, U: Numeric, const L: usize>(
    a: &CpuBuffer<T>,
    la: &Layout,
    b: &CpuBuffer<T>,
    lb: &Layout,
    kernel: impl Kernel<U>,
) -> Result<CpuBuffer<T>> {
    let (a, b) = (same::<T, U>(a)?, same::<T, U>(b)?);
    let out = batched::<U, L>(a.as_slice(), la, b.as_slice(), lb, kernel)?;
    let boxed: Box<dyn Any> = Box::new(CpuBuffer::new(out));
    boxed
        .downcast::<CpuBuffer<T>>()
        .map(|b| *b)
        .map_err(|_| backend_err("element type dispatch failed"))
}

/// `a @ b` of a 16-bit float type (`f16`, `bf16`) through an f32 product: the operands
/// widened (exactly), one f32 product accumulated in f32, each result rounded once.
fn via_f32<T: Numeric>(
    a: &CpuBuffer<T>,
    la: &Layout,
    b: &CpuBuffer<T>,
    lb: &Layout,
) -> Result<CpuBuffer<T>> {
    let widen = |x: &[T]| -> Result<Vec<f32>> {
        let mut w = crate::alloc::zeroed_vec::<f32>(x.len())?;
        w.par_iter_mut()
            .zip(x.par_iter())
            .with_min_len(CONVERT_GRAIN)
            .for_each(|(w, &x)| *w = x.cast());
        Ok(w)
    };
    let product = batched::<f32, 16>(
        &widen(a.as_slice())?,
        la,
        &widen(b.as_slice())?,
        lb,
        large_f32,
    )?;
    let mut out = crate::alloc::zeroed_vec::<T>(product.len())?;
    out.par_iter_mut()
        .zip(product.par_iter())
        .with_min_len(CONVERT_GRAIN)
        .for_each(|(o, &p)| *o = T::from_scalar(Scalar::F32(p)));
    Ok(CpuBuffer::new(out))
}

/// Elements converted per rayon task by [`via_f32`].
const CONVERT_GRAIN: usize = 1 << 16;

impl MatmulOps for Cpu {
    fn matmul<T: Numeric>(
        &self,
        a: &CpuBuffer<T>,
        la: &Layout,
        b: &CpuBuffer<T>,
        lb: &Layout,
    ) -> Result<CpuBuffer<T>> {
        check_views("matmul", &[(a.len(), la), (b.len(), lb)])?;
        match T::DTYPE {
            DType::F32 => typed::<T, f32, 16>(a, la, b, lb, large_f32),
            DType::F64 => typed::<T, f64, 8>(a, la, b, lb, large_f64),
            DType::C64 => typed::<T, c64, 4>(a, la, b, lb, large_c64),
            DType::C128 => typed::<T, c128, 2>(a, la, b, lb, large_c128),
            DType::F16 | DType::BF16 => via_f32(a, la, b, lb),
            DType::I8 => typed::<T, i8, 32>(a, la, b, lb, gemm_int::gemm::<i8, 4, 32>),
            DType::U8 => typed::<T, u8, 32>(a, la, b, lb, gemm_int::gemm::<u8, 4, 32>),
            DType::I16 => typed::<T, i16, 32>(a, la, b, lb, gemm_int::gemm::<i16, 4, 32>),
            DType::U16 => typed::<T, u16, 32>(a, la, b, lb, gemm_int::gemm::<u16, 4, 32>),
            DType::I32 => typed::<T, i32, 16>(a, la, b, lb, gemm_int::gemm::<i32, 4, 16>),
            DType::U32 => typed::<T, u32, 16>(a, la, b, lb, gemm_int::gemm::<u32, 4, 16>),
            DType::I64 => typed::<T, i64, 8>(a, la, b, lb, gemm_int::gemm::<i64, 4, 8>),
            DType::U64 => typed::<T, u64, 8>(a, la, b, lb, gemm_int::gemm::<u64, 4, 8>),
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
    fn contract_violations_are_errors() {
        let buf = CpuBuffer::new(vec![1.0f64; 6]);
        let l23 = Layout::contiguous(&[2, 3]);
        assert!(Cpu.matmul(&buf, &l23, &buf, &l23).is_err());
        let too_far = Layout::new(vec![3, 2], vec![2, 1], 1);
        assert!(Cpu.matmul(&buf, &l23, &buf, &too_far).is_err());
        let c = Cpu
            .matmul(&buf, &l23, &buf, &Layout::contiguous(&[3, 2]))
            .unwrap();
        assert_eq!(c.as_slice(), &[3.0; 4]);
    }

    #[test]
    fn zero_and_negative_strides_are_read_in_place() {
        let data: Vec<f32> = (0..6).map(|x| x as f32).collect();
        let buf = CpuBuffer::new(data);
        // a = [[5, 4, 3], [5, 4, 3]] (broadcast row, reversed), b = [[0], [1], [2]].
        let la = Layout::new(vec![2, 3], vec![0, -1], 5);
        let lb = Layout::new(vec![3, 1], vec![1, 1], 0);
        let c = Cpu.matmul(&buf, &la, &buf, &lb).unwrap();
        assert_eq!(c.as_slice(), &[10.0, 10.0]);
    }

    /// faer's path (large products) against a direct loop, on transposed, reversed and
    /// broadcast operands, with small integers so every result is exact.
    #[test]
    fn large_products_read_any_strides() {
        let (m, k, n) = (160, 150, 140);
        assert!(m * k * n >= FAER_MIN);
        let data: Vec<f64> = (0..m * k + k * n)
            .map(|i| ((i * 7) % 11) as f64 - 5.0)
            .collect();
        let cases = [
            // a row-major, b column-major (a transposed view)
            (
                Layout::new(vec![m, k], vec![k as isize, 1], 0),
                Layout::new(vec![k, n], vec![1, k as isize], m * k),
            ),
            // a with reversed rows, b broadcast along its rows (stride 0)
            (
                Layout::new(vec![m, k], vec![-(k as isize), 1], (m - 1) * k),
                Layout::new(vec![k, n], vec![0, 1], m * k),
            ),
        ];
        let buf = CpuBuffer::new(data.clone());
        for (la, lb) in cases {
            let got = Cpu.matmul(&buf, &la, &buf, &lb).unwrap();
            let at = |l: &Layout, i: usize, j: usize| {
                data[(l.offset() as isize
                    + i as isize * l.strides()[0]
                    + j as isize * l.strides()[1]) as usize]
            };
            for i in (0..m).step_by(13) {
                for j in (0..n).step_by(7) {
                    let want: f64 = (0..k).map(|p| at(&la, i, p) * at(&lb, p, j)).sum();
                    assert_eq!(got.as_slice()[i * n + j], want, "[{i}, {j}]");
                }
            }
        }
    }
}
