//! [`ElementwiseOps`] for [`Cuda`]: element-wise maps as NVRTC-compiled kernels of the
//! `elementwise` family (kernels/src/elementwise.cu), one program per (variant, op, element
//! type), the op's code being the functor `op_<NAME>` of kernels/src/ops.cuh. Every op is
//! declared in core's op registry and a test (`elementwise/probe.rs`, no GPU needed) checks
//! that every declared op has its functor, so no op reaches a program that lacks one.
//!
//! Every method picks one of two kernels of its program:
//! - `ew_contig` when every operand is one contiguous run (in-place updates first reorder
//!   their axes by the destination's memory order, so transposed and reversed destinations
//!   count): grid-stride over 16-byte vectors from an aligned head, the rest one by one;
//! - `ew_strided` otherwise: operands as jointly coalesced [`Strided`] views (broadcast axes
//!   have stride 0), the out-of-place result C-contiguous, 32-bit index math below 2^31;
//! - `ew_tiled` instead, for unary and binary maps into a new array whose views are two axes
//!   of at least 32 with an operand walking axis 0 faster than axis 1 (`a + b.T`): 32 x 32
//!   tiles through shared memory, so that operand is read in runs too ([`plan::tiled_pays`]).
//!
//! Empty views launch nothing. Op parameters (`params()`) travel as kernel arguments
//! ([`plan::OpArgs`]), so one compiled program serves every parameter value.

mod params;
mod plan;
#[cfg(test)]
mod probe;
#[cfg(test)]
mod tests_compile;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::ctype::ctype;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::{coalesce, Strided, BLOCK};
use crate::modules::FuncId;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::{BinaryOp, UnaryOp};
use cuprite_core::{DType, Element, Layout, Result};
use cuprite_kernels::elementwise::{self as kern, Variant};
use params::{EwContig, EwStrided};
use plan::{inplace_order, tiled_pays, vec_width, vector_head};
pub(crate) use plan::{ArgBytes, OpArgs};

/// Entry point of the contiguous kernel of every program.
const CONTIG: &str = "ew_contig";
/// Entry point of the strided kernel of every program.
const STRIDED: &str = "ew_strided";
/// Entry point of the tiled kernel of the unary and binary programs.
const TILED: &str = "ew_tiled";

/// The module key of a program: `elementwise|<variant>|<NAME>|<T>|<Out>`.
fn key(variant: Variant, name: &str, t: DType, out: DType) -> String {
    format!(
        "elementwise|{}|{name}|{}|{}",
        variant.name(),
        ctype(t),
        ctype(out)
    )
}

/// One operand of a launch: its buffer's address, its element size and the view.
#[derive(Clone, Copy)]
struct Operand<'a> {
    base: u64,
    size: usize,
    layout: &'a Layout,
}

impl<'a> Operand<'a> {
    fn of<T: Element>(dev: &Cuda, buf: &CudaBuffer<T>, layout: &'a Layout) -> Result<Self> {
        Ok(Operand {
            base: dev.ptr(buf)?,
            size: std::mem::size_of::<T>(),
            layout,
        })
    }
}

/// A launch of one element-wise program, apart from its operands.
struct Launch<'a> {
    variant: Variant,
    /// The op (`None` for where).
    name: Option<&'static str>,
    t: DType,
    out: DType,
    /// The new C-contiguous result (`None` in place: the first operand is written).
    out_ptr: Option<u64>,
    /// The scalar operand of the scalar variants.
    scalar: Option<ArgBytes>,
    /// The op's parameters (`None` for where).
    params: Option<&'a OpArgs>,
}

impl Cuda {
    /// The kernel `kernel` of the program of `variant` for op `name` (`None`: where), element
    /// type `t` and result type `out`.
    fn ew_kernel<P: KernelParams>(
        &self,
        variant: Variant,
        name: Option<&'static str>,
        t: DType,
        out: DType,
        kernel: &'static str,
    ) -> Result<Kernel<'_, P>> {
        let op = name.unwrap_or("where");
        let id = FuncId {
            family: "elementwise",
            op,
            t,
            out,
            variant: variant as u8,
            entry: kernel,
        };
        self.kernel_by_id(
            id,
            || key(variant, op, t, out),
            || kern::source(variant, name, ctype(t), ctype(out)),
        )
    }

    /// Checks an operand: on this device and every element of the view inside the buffer.
    fn ew_check<T: Element>(&self, op: &'static str, b: &CudaBuffer<T>, l: &Layout) -> Result<()> {
        crate::launch::check_view(self, op, b, l)
    }

    /// Runs one element-wise launch over operands of one shape (checked by the caller: on
    /// this device, views inside their buffers; the result, if any, holds every element).
    /// Nothing is launched for an empty shape.
    fn ew_run(&self, l: &Launch, operands: &[Operand]) -> Result<()> {
        let op = l.name.unwrap_or("where");
        let k = operands.len();
        let n = operands[0].layout.size();
        if n == 0 {
            return Ok(());
        }
        // In place, any order of the elements will do: take the destination's memory order.
        let ordered: Vec<Layout>;
        let mut layouts: [&Layout; 3] = [operands[0].layout; 3];
        for (d, o) in layouts.iter_mut().zip(operands) {
            *d = o.layout;
        }
        if l.out_ptr.is_none() && !layouts[0].is_c_contiguous() {
            ordered = inplace_order(&layouts[..k]);
            for (d, o) in layouts.iter_mut().zip(&ordered) {
                *d = o;
            }
        }
        let out_size = l.out.size_of();
        let vw = vec_width(l.t.size_of(), out_size);
        let mut offsets = [0usize; 3];
        let contiguous = layouts[..k]
            .iter()
            .zip(&mut offsets)
            .all(|(l, o)| l.contiguous_offset().map(|off| *o = off).is_some());
        let out_ptr = l.out_ptr.unwrap_or(0);
        let n64 = n as i64;
        let mut x = [0u64; 3];
        let s = l.scalar.unwrap_or(ArgBytes::of(0u8));
        let (t, d, kp) = match l.params {
            Some(p) => (p.t, p.d, p.k),
            None => ([ArgBytes::of(0u8); 2], [0.0; 2], 0),
        };
        // Every view lies inside its buffer (checked by the callers), the result holds n
        // elements, and an in-place destination has no overlapping elements and shares no
        // memory with the other operands (unique).
        if contiguous {
            let mut aligned = [(out_ptr, out_size); 4];
            for (i, o) in operands.iter().enumerate() {
                x[i] = o.base + (offsets[i] * o.size) as u64;
                aligned[i + 1] = (x[i], o.size);
            }
            let first = if l.out_ptr.is_some() { 0 } else { 1 };
            let head = vector_head(&aligned[first..k + 1], n, vw) as i64;
            let p = EwContig {
                out: out_ptr,
                x,
                s,
                t0: t[0],
                t1: t[1],
                d0: d[0],
                d1: d[1],
                k: kp,
                n: n64,
                head,
            };
            let f = self.ew_kernel(l.variant, l.name, l.t, l.out, CONTIG)?;
            f.launch((self.grid_for(n, vw), 1, 1), (BLOCK, 1, 1), 0, &p)
        } else {
            let strided = coalesce(op, &layouts[..k])?;
            let mut v = [Strided::default(); 3];
            for (i, o) in operands.iter().enumerate() {
                x[i] = o.base;
                v[i] = strided[i];
            }
            let p = EwStrided {
                out: out_ptr,
                x,
                s,
                t0: t[0],
                t1: t[1],
                d0: d[0],
                d1: d[1],
                k: kp,
                n: n64,
                v,
            };
            let tiled = l.out_ptr.is_some()
                && matches!(l.variant, Variant::Unary | Variant::Binary)
                && tiled_pays(&strided[..k]);
            if tiled {
                // One 32 x 32 tile per 32 x 8 block and step.
                let f = self.ew_kernel(l.variant, l.name, l.t, l.out, TILED)?;
                f.launch((self.grid_for(n, 4), 1, 1), (32, BLOCK / 32, 1), 0, &p)
            } else {
                let f = self.ew_kernel(l.variant, l.name, l.t, l.out, STRIDED)?;
                f.launch((self.grid_for(n, 1), 1, 1), (BLOCK, 1, 1), 0, &p)
            }
        }
    }

    /// `op(a, s)` or `op(s, a)` into a new buffer.
    fn ew_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        variant: Variant,
        op: K,
        a: &CudaBuffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<CudaBuffer<K::Out>> {
        self.ew_check(K::NAME, a, la)?;
        let out = self.alloc::<K::Out>(la.size())?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: K::Out::DTYPE,
            out_ptr: Some(self.ptr(&out)?),
            scalar: Some(ArgBytes::of(s)),
            params: Some(&p),
        };
        self.ew_run(&launch, &[Operand::of(self, a, la)?])?;
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
        self.ew_check(K::NAME, x, lx)?;
        let out = self.alloc::<K::Out>(lx.size())?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant: Variant::Unary,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: K::Out::DTYPE,
            out_ptr: Some(self.ptr(&out)?),
            scalar: None,
            params: Some(&p),
        };
        self.ew_run(&launch, &[Operand::of(self, x, lx)?])?;
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
        self.ew_check(K::NAME, a, la)?;
        self.ew_check(K::NAME, b, lb)?;
        let out = self.alloc::<K::Out>(la.size())?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant: Variant::Binary,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: K::Out::DTYPE,
            out_ptr: Some(self.ptr(&out)?),
            scalar: None,
            params: Some(&p),
        };
        self.ew_run(
            &launch,
            &[Operand::of(self, a, la)?, Operand::of(self, b, lb)?],
        )?;
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
        self.ew_check(K::NAME, x, lx)?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant: Variant::UnaryInplace,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: T::DTYPE,
            out_ptr: None,
            scalar: None,
            params: Some(&p),
        };
        self.ew_run(&launch, &[Operand::of(self, x, lx)?])
    }

    fn binary_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CudaBuffer<T>,
        la: &Layout,
        b: &CudaBuffer<T>,
        lb: &Layout,
    ) -> Result<()> {
        self.ew_check(K::NAME, a, la)?;
        self.ew_check(K::NAME, b, lb)?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant: Variant::BinaryInplace,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: T::DTYPE,
            out_ptr: None,
            scalar: None,
            params: Some(&p),
        };
        self.ew_run(
            &launch,
            &[Operand::of(self, a, la)?, Operand::of(self, b, lb)?],
        )
    }

    fn binary_scalar_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CudaBuffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<()> {
        self.ew_check(K::NAME, a, la)?;
        let p = OpArgs::new::<T>(K::NAME, &op.params())?;
        let launch = Launch {
            variant: Variant::ScalarInplace,
            name: Some(K::NAME),
            t: T::DTYPE,
            out: T::DTYPE,
            out_ptr: None,
            scalar: Some(ArgBytes::of(s)),
            params: Some(&p),
        };
        self.ew_run(&launch, &[Operand::of(self, a, la)?])
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
        let out = self.alloc::<T>(la.size())?;
        let launch = Launch {
            variant: Variant::Where,
            name: None,
            t: T::DTYPE,
            out: T::DTYPE,
            out_ptr: Some(self.ptr(&out)?),
            scalar: None,
            params: None,
        };
        let operands = [
            Operand::of(self, cond, lc)?,
            Operand::of(self, a, la)?,
            Operand::of(self, b, lb)?,
        ];
        self.ew_run(&launch, &operands)?;
        Ok(out)
    }
}
