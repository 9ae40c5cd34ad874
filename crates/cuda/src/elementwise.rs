//! [`ElementwiseOps`] for [`Cuda`]: element-wise maps as NVRTC-compiled kernels of the
//! `elementwise` family (kernels/src/elementwise.cu), one program per (variant, op, element
//! type), the op's code being the functor `op_<NAME>` of kernels/src/ops.cuh.
//!
//! Every method picks one of two kernels of its program:
//! - `ew_contig` when every operand is one contiguous run (in-place updates first reorder
//!   their axes by the destination's memory order, so transposed and reversed destinations
//!   count): grid-stride over 16-byte vectors from an aligned head, the rest one by one;
//! - `ew_strided` otherwise: operands as jointly coalesced [`Strided`] views (broadcast axes
//!   have stride 0), the out-of-place result C-contiguous, 32-bit index math below 2^31.
//!
//! Empty views launch nothing. Op parameters (`params()`) travel as kernel arguments
//! ([`plan::OpArgs`]), so one compiled program serves every parameter value.

mod plan;
#[cfg(test)]
mod probe;
#[cfg(test)]
mod tests_compile;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::ctype::cty;
use crate::device::Cuda;
use crate::launch::{arg, coalesce, BLOCK};
use crate::modules::Func;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::{BinaryOp, UnaryOp};
use cuprite_core::{Element, Error, Layout, Result};
use cuprite_kernels::elementwise::{self as kern, Variant};
use plan::{check_view, inplace_order, ptr_at, vec_width, vector_head, OpArgs};
use std::ffi::c_void;
use std::mem::size_of;

/// Entry point of the contiguous kernel of every program.
const CONTIG: &str = "ew_contig";
/// Entry point of the strided kernel of every program.
const STRIDED: &str = "ew_strided";

/// The module key of a program: `elementwise|<variant>|<NAME>|<T>|<Out>`.
fn key<T: Element, O: Element>(variant: Variant, name: &str) -> String {
    format!(
        "elementwise|{}|{name}|{}|{}",
        variant.name(),
        cty::<T>(),
        cty::<O>()
    )
}

/// The error for an op the CUDA kernels have no functor for.
fn unknown_op<T: Element>(name: &'static str) -> Error {
    Error::UnsupportedDType {
        op: name,
        dtype: T::DTYPE,
    }
}

impl Cuda {
    /// The kernel `kernel` of the program of `variant` for op `name` (`None`: where), element
    /// type `T` and result type `O`.
    fn ew_func<T: Element, O: Element>(
        &self,
        variant: Variant,
        name: Option<&str>,
        kernel: &str,
    ) -> Result<Func> {
        let k = key::<T, O>(variant, name.unwrap_or("where"));
        self.function(&k, kernel, || {
            kern::source(variant, name, cty::<T>(), cty::<O>())
        })
    }

    /// Launches an element-wise kernel over `n > 0` items of `per_thread` each.
    ///
    /// # Safety
    /// As [`Cuda::launch`]: `args` match the kernel and every pointer covers what it touches.
    unsafe fn ew_launch(
        &self,
        f: Func,
        n: usize,
        per_thread: usize,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        let grid = self.grid_for(n, per_thread);
        // SAFETY: forwarded from the caller.
        unsafe { self.launch(f, (grid, 1, 1), (BLOCK, 1, 1), 0, args) }
    }

    /// Checks an operand: on this device and every element of the view inside the buffer.
    fn ew_check<T: Element>(&self, op: &'static str, b: &CudaBuffer<T>, l: &Layout) -> Result<()> {
        self.check_buffer(b, op)?;
        check_view(op, b.len(), l)
    }

    /// `out = op(a, s)` or `op(s, a)` (`variant` Scalar or RScalar) into a new buffer.
    fn ew_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        variant: Variant,
        op: K,
        a: &CudaBuffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<CudaBuffer<K::Out>> {
        if !const { kern::has_binary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, a, la)?;
        let n = la.size();
        let out = self.alloc::<K::Out>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let o = out.device_ptr();
        let n64 = n as i64;
        if let Some(off) = la.contiguous_offset() {
            let f = self.ew_func::<T, K::Out>(variant, Some(K::NAME), CONTIG)?;
            let ap = ptr_at(a, off);
            let vw = vec_width(size_of::<T>(), size_of::<K::Out>());
            let head = vector_head(&[(ap, size_of::<T>()), (o, size_of::<K::Out>())], n, vw) as i64;
            // SAFETY: (out, a, s, n, head, params) as ew_contig of EW_SCALAR/EW_RSCALAR; `a`
            // holds n elements from `off` (checked), `out` n.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&o),
                        arg(&ap),
                        arg(&s),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, K::Out>(variant, Some(K::NAME), STRIDED)?;
            let sa = coalesce(K::NAME, &[la])?.remove(0);
            let ap = a.device_ptr();
            // SAFETY: (out, a, s, sa, n, params) as ew_strided of EW_SCALAR/EW_RSCALAR; the
            // view lies inside `a` (checked).
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&o),
                        arg(&ap),
                        arg(&s),
                        arg(&sa),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(out)
    }
}

impl ElementwiseOps for Cuda {
    fn unary<T: Element, K: UnaryOp<T>>(
        &self,
        op: K,
        x: &CudaBuffer<T>,
        lx: &Layout,
    ) -> Result<CudaBuffer<K::Out>> {
        if !const { kern::has_unary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, x, lx)?;
        let n = lx.size();
        let out = self.alloc::<K::Out>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let o = out.device_ptr();
        let n64 = n as i64;
        if let Some(off) = lx.contiguous_offset() {
            let f = self.ew_func::<T, K::Out>(Variant::Unary, Some(K::NAME), CONTIG)?;
            let xp = ptr_at(x, off);
            let vw = vec_width(size_of::<T>(), size_of::<K::Out>());
            let head = vector_head(&[(xp, size_of::<T>()), (o, size_of::<K::Out>())], n, vw) as i64;
            // SAFETY: (out, x, n, head, params) as ew_contig of EW_UNARY; `x` holds n
            // elements from `off` (checked), `out` n.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&o),
                        arg(&xp),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, K::Out>(Variant::Unary, Some(K::NAME), STRIDED)?;
            let sx = coalesce(K::NAME, &[lx])?.remove(0);
            let xp = x.device_ptr();
            // SAFETY: (out, x, sx, n, params) as ew_strided of EW_UNARY; the view lies inside
            // `x` (checked), `out` holds n elements.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&o),
                        arg(&xp),
                        arg(&sx),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(out)
    }

    fn binary<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
    ) -> Result<CudaBuffer<K::Out>> {
        if !const { kern::has_binary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, a, la)?;
        self.ew_check(K::NAME, b, lb)?;
        let n = la.size();
        let out = self.alloc::<K::Out>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let o = out.device_ptr();
        let n64 = n as i64;
        if let (Some(oa), Some(ob)) = (la.contiguous_offset(), lb.contiguous_offset()) {
            let f = self.ew_func::<T, K::Out>(Variant::Binary, Some(K::NAME), CONTIG)?;
            let (ap, bp) = (ptr_at(a, oa), ptr_at(b, ob));
            let vw = vec_width(size_of::<T>(), size_of::<K::Out>());
            let (st, so) = (size_of::<T>(), size_of::<K::Out>());
            let head = vector_head(&[(ap, st), (bp, st), (o, so)], n, vw) as i64;
            // SAFETY: (out, a, b, n, head, params) as ew_contig of EW_BINARY; `a` and `b`
            // hold n elements from their offsets (checked), `out` n.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&o),
                        arg(&ap),
                        arg(&bp),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, K::Out>(Variant::Binary, Some(K::NAME), STRIDED)?;
            let s = coalesce(K::NAME, &[la, lb])?;
            let (ap, bp) = (a.device_ptr(), b.device_ptr());
            // SAFETY: (out, a, b, sa, sb, n, params) as ew_strided of EW_BINARY; both views
            // lie inside their buffers (checked), `out` holds n elements.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&o),
                        arg(&ap),
                        arg(&bp),
                        arg(&s[0]),
                        arg(&s[1]),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(out)
    }

    fn binary_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &CudaBuffer<T>,
        la: &Layout,
        s: T,
        scalar_first: bool,
    ) -> Result<CudaBuffer<K::Out>> {
        let variant = if scalar_first {
            Variant::RScalar
        } else {
            Variant::Scalar
        };
        self.ew_scalar(variant, op, a, la, s)
    }

    fn unary_inplace<T: Element, K: UnaryOp<T, Out = T>>(
        &self,
        op: K,
        x: &mut CudaBuffer<T>,
        lx: &Layout,
    ) -> Result<()> {
        if !const { kern::has_unary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, x, lx)?;
        let n = lx.size();
        if n == 0 {
            return Ok(());
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let n64 = n as i64;
        let ordered;
        let lx = if lx.is_c_contiguous() {
            lx
        } else {
            ordered = inplace_order(&[lx]);
            &ordered[0]
        };
        if let Some(off) = lx.contiguous_offset() {
            let f = self.ew_func::<T, T>(Variant::UnaryInplace, Some(K::NAME), CONTIG)?;
            let xp = ptr_at(x, off);
            let vw = vec_width(size_of::<T>(), size_of::<T>());
            let head = vector_head(&[(xp, size_of::<T>())], n, vw) as i64;
            // SAFETY: (x, n, head, params) as ew_contig of EW_UNARY_INPLACE; `x` holds n
            // elements from `off` (checked) and is written by this launch only.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&xp),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, T>(Variant::UnaryInplace, Some(K::NAME), STRIDED)?;
            let sx = coalesce(K::NAME, &[lx])?.remove(0);
            let xp = x.device_ptr();
            // SAFETY: (x, sx, n, params) as ew_strided of EW_UNARY_INPLACE; the view lies
            // inside `x` (checked) and has no overlapping elements (the trait's contract).
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&xp),
                        arg(&sx),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(())
    }

    fn binary_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
    ) -> Result<()> {
        if !const { kern::has_binary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, a, la)?;
        self.ew_check(K::NAME, b, lb)?;
        let n = la.size();
        if n == 0 {
            return Ok(());
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let n64 = n as i64;
        let ordered;
        let (la, lb) = if la.is_c_contiguous() {
            (la, lb)
        } else {
            ordered = inplace_order(&[la, lb]);
            (&ordered[0], &ordered[1])
        };
        if let (Some(oa), Some(ob)) = (la.contiguous_offset(), lb.contiguous_offset()) {
            let f = self.ew_func::<T, T>(Variant::BinaryInplace, Some(K::NAME), CONTIG)?;
            let (ap, bp) = (ptr_at(a, oa), ptr_at(b, ob));
            let vw = vec_width(size_of::<T>(), size_of::<T>());
            let head = vector_head(&[(ap, size_of::<T>()), (bp, size_of::<T>())], n, vw) as i64;
            // SAFETY: (a, b, n, head, params) as ew_contig of EW_BINARY_INPLACE; both hold n
            // elements from their offsets (checked); `a` is unique, so `b` is other memory.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&ap),
                        arg(&bp),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, T>(Variant::BinaryInplace, Some(K::NAME), STRIDED)?;
            let s = coalesce(K::NAME, &[la, lb])?;
            let (ap, bp) = (a.device_ptr(), b.device_ptr());
            // SAFETY: (a, b, sa, sb, n, params) as ew_strided of EW_BINARY_INPLACE; both
            // views lie inside their buffers (checked), `a`'s elements do not overlap.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&ap),
                        arg(&bp),
                        arg(&s[0]),
                        arg(&s[1]),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(())
    }

    fn binary_scalar_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CudaBuffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<()> {
        if !const { kern::has_binary(K::NAME) } {
            return Err(unknown_op::<T>(K::NAME));
        }
        self.ew_check(K::NAME, a, la)?;
        let n = la.size();
        if n == 0 {
            return Ok(());
        }
        let p = OpArgs::<T>::new(K::NAME, &op.params())?;
        let n64 = n as i64;
        let ordered;
        let la = if la.is_c_contiguous() {
            la
        } else {
            ordered = inplace_order(&[la]);
            &ordered[0]
        };
        if let Some(off) = la.contiguous_offset() {
            let f = self.ew_func::<T, T>(Variant::ScalarInplace, Some(K::NAME), CONTIG)?;
            let ap = ptr_at(a, off);
            let vw = vec_width(size_of::<T>(), size_of::<T>());
            let head = vector_head(&[(ap, size_of::<T>())], n, vw) as i64;
            // SAFETY: (a, s, n, head, params) as ew_contig of EW_SCALAR_INPLACE; `a` holds n
            // elements from `off` (checked).
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [
                        arg(&ap),
                        arg(&s),
                        arg(&n64),
                        arg(&head),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        } else {
            let f = self.ew_func::<T, T>(Variant::ScalarInplace, Some(K::NAME), STRIDED)?;
            let sa = coalesce(K::NAME, &[la])?.remove(0);
            let ap = a.device_ptr();
            // SAFETY: (a, s, sa, n, params) as ew_strided of EW_SCALAR_INPLACE; the view lies
            // inside `a` (checked) and has no overlapping elements.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&ap),
                        arg(&s),
                        arg(&sa),
                        arg(&n64),
                        arg(&p.t[0]),
                        arg(&p.t[1]),
                        arg(&p.d[0]),
                        arg(&p.d[1]),
                        arg(&p.k),
                    ],
                )?;
            }
        }
        Ok(())
    }

    fn where_<T: Element>(
        &self,
        cond: &CudaBuffer<bool>,
        lc: &Layout,
        a: &CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
    ) -> Result<CudaBuffer<T>> {
        const OP: &str = "where";
        self.ew_check(OP, cond, lc)?;
        self.ew_check(OP, a, la)?;
        self.ew_check(OP, b, lb)?;
        let n = la.size();
        let out = self.alloc::<T>(n)?;
        if n == 0 {
            return Ok(out);
        }
        let o = out.device_ptr();
        let n64 = n as i64;
        let contig = (
            lc.contiguous_offset(),
            la.contiguous_offset(),
            lb.contiguous_offset(),
        );
        if let (Some(oc), Some(oa), Some(ob)) = contig {
            let f = self.ew_func::<T, T>(Variant::Where, None, CONTIG)?;
            let (cp, ap, bp) = (ptr_at(cond, oc), ptr_at(a, oa), ptr_at(b, ob));
            let vw = vec_width(size_of::<T>(), size_of::<T>());
            let st = size_of::<T>();
            let head = vector_head(&[(o, st), (cp, 1), (ap, st), (bp, st)], n, vw) as i64;
            // SAFETY: (out, c, a, b, n, head) as ew_contig of EW_WHERE; every operand holds n
            // elements from its offset (checked), `out` n.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    vw,
                    &mut [arg(&o), arg(&cp), arg(&ap), arg(&bp), arg(&n64), arg(&head)],
                )?;
            }
        } else {
            let f = self.ew_func::<T, T>(Variant::Where, None, STRIDED)?;
            let s = coalesce(OP, &[lc, la, lb])?;
            let (cp, ap, bp) = (cond.device_ptr(), a.device_ptr(), b.device_ptr());
            // SAFETY: (out, c, a, b, sc, sa, sb, n) as ew_strided of EW_WHERE; every view lies
            // inside its buffer (checked), `out` holds n elements.
            unsafe {
                self.ew_launch(
                    f,
                    n,
                    1,
                    &mut [
                        arg(&o),
                        arg(&cp),
                        arg(&ap),
                        arg(&bp),
                        arg(&s[0]),
                        arg(&s[1]),
                        arg(&s[2]),
                        arg(&n64),
                    ],
                )?;
            }
        }
        Ok(out)
    }
}
