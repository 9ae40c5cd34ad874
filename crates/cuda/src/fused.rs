//! [`FusionBackend`] for [`Cuda`]: a pending expression of `Fused<Cuda>` becomes one kernel,
//! generated from the registry's functors ([`codegen`]), compiled by NVRTC on first sight of
//! its structure and cached like every program (per device in memory, on disk across
//! processes), then launched with this call's addresses, strides and values as its one
//! argument struct: one pass over memory for the whole chain.
//!
//! Programs are compiled with `--fmad=false`: a product of one op and a sum of the next round
//! twice, as they do in two kernels. Leaves that read the same view of the same buffer (`x * y + x - y` reads `x` twice) are one
//! kernel parameter, read once per element. Each element applies the ops of the unfused
//! kernels in the same order, so results have their bits.

mod codegen;
#[cfg(test)]
mod tests_compile;

use crate::buffer::CudaBuffer;
use crate::device::Cuda;
use crate::driver;
use crate::elementwise::{ArgBytes, OpArgs};
use crate::launch::{check_view, coalesce, BLOCK};
use codegen::{key, slot_count, source, Access, Shape};
use cuprite_core::fusion::expr::Expr;
use cuprite_core::fusion::lower::{lower, Instr, LeafRef};
use cuprite_core::fusion::FusionBackend;
use cuprite_core::{bf16, c128, c64, f16, DType, Element, Error, Layout, Result, Scalar};
use std::ffi::c_void;

/// NVRTC options of every fused program: no contraction of one op's product with the next
/// op's sum into an FMA (the unfused kernels round each op's result on its own).
const OPTIONS: [&str; 1] = ["--fmad=false"];

/// The largest argument struct a kernel takes (CUDA 12.1 and later, compute capability 7.0
/// and later).
const MAX_ARG_BYTES: usize = 32764;

/// The buffer address of a leaf (advanced to its view's offset) after checking that it is a
/// buffer of this device holding the view.
fn leaf_address(dev: &Cuda, l: &LeafRef) -> Result<u64> {
    fn of<T: Element>(dev: &Cuda, l: &LeafRef) -> Result<u64> {
        let buf = l
            .buf
            .downcast_ref::<CudaBuffer<T>>()
            .ok_or_else(|| Error::Backend {
                op: "fusion",
                msg: format!("a {} leaf that is not a cuda buffer of its type", T::DTYPE),
            })?;
        check_view(dev, "fusion", buf, l.layout)?;
        Ok(dev.ptr(buf)? + (l.layout.offset() * std::mem::size_of::<T>()) as u64)
    }
    match l.dtype {
        DType::Bool => of::<bool>(dev, l),
        DType::I8 => of::<i8>(dev, l),
        DType::U8 => of::<u8>(dev, l),
        DType::I16 => of::<i16>(dev, l),
        DType::U16 => of::<u16>(dev, l),
        DType::I32 => of::<i32>(dev, l),
        DType::U32 => of::<u32>(dev, l),
        DType::I64 => of::<i64>(dev, l),
        DType::U64 => of::<u64>(dev, l),
        DType::F16 => of::<f16>(dev, l),
        DType::BF16 => of::<bf16>(dev, l),
        DType::F32 => of::<f32>(dev, l),
        DType::F64 => of::<f64>(dev, l),
        DType::C64 => of::<c64>(dev, l),
        DType::C128 => of::<c128>(dev, l),
    }
}

/// How a view is read: every element at one place (uniform), C-contiguous, or strided.
fn access_of(l: &Layout) -> Access {
    let uniform = l
        .shape()
        .iter()
        .zip(l.strides())
        .all(|(&n, &s)| n <= 1 || s == 0);
    if uniform {
        Access::Uniform
    } else if l.is_c_contiguous() {
        Access::Contig
    } else {
        Access::Strided(0)
    }
}

/// Appends the five parameter slots (t0, t1, d0, d1, k) of an op that has parameters.
fn push_params(v: &mut Vec<ArgBytes>, op: &'static str, t: DType, p: &[Scalar]) -> Result<()> {
    if !p.is_empty() {
        let a = OpArgs::of(op, t, p)?;
        v.extend([
            a.t[0],
            a.t[1],
            ArgBytes::of(a.d[0]),
            ArgBytes::of(a.d[1]),
            ArgBytes::of(a.k),
        ]);
    }
    Ok(())
}

/// The `Bytes16` slots of the instructions, in [`slot_count`]'s order: a scalar operand,
/// then an op's five parameter slots.
fn slots(instrs: &[Instr]) -> Result<Vec<ArgBytes>> {
    let mut v = Vec::with_capacity(slot_count(instrs));
    for i in instrs {
        match i {
            Instr::Scalar(s) => v.push(ArgBytes::of_scalar(*s)),
            Instr::BinaryScalar {
                op, t, params, s, ..
            } => {
                v.push(ArgBytes::of_scalar(*s));
                push_params(&mut v, op, *t, params)?;
            }
            Instr::Unary { op, t, params, .. } | Instr::Binary { op, t, params, .. } => {
                push_params(&mut v, op, *t, params)?
            }
            Instr::Leaf { .. } | Instr::Cast { .. } | Instr::Where { .. } => {}
        }
    }
    Ok(v)
}

/// The argument struct of a launch, as `FusedArgs` of the generated program lays it out:
/// 8-byte fields, the `Bytes16` array at a 16-byte boundary, the size a multiple of 16.
#[derive(Default)]
struct ArgBlob(Vec<u8>);

impl ArgBlob {
    fn put(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    fn align(&mut self, to: usize) {
        let n = self.0.len().next_multiple_of(to);
        self.0.resize(n, 0);
    }
}

/// A fused program ready to launch: its module key, how its parameters are read, and its
/// argument struct.
struct Launch {
    key: String,
    leaf_param: Vec<usize>,
    access: Vec<Access>,
    param_t: Vec<DType>,
    nd: usize,
    vw: usize,
    args: ArgBlob,
}

impl Launch {
    /// Plans the launch of `instrs` over `leaves` into `out` (`n > 0` elements of `out_t`).
    fn new(
        dev: &Cuda,
        instrs: &[Instr],
        leaves: &[LeafRef],
        out: u64,
        out_t: DType,
        n: usize,
    ) -> Result<Launch> {
        // Distinct leaves: one parameter per (address, view).
        let mut addr: Vec<u64> = Vec::new();
        let mut views: Vec<&Layout> = Vec::new();
        let mut param_t: Vec<DType> = Vec::new();
        let mut leaf_param = Vec::with_capacity(leaves.len());
        for l in leaves {
            let a = leaf_address(dev, l)?;
            let same = (0..addr.len()).find(|&q| {
                addr[q] == a && param_t[q] == l.dtype && views[q].strides() == l.layout.strides()
            });
            leaf_param.push(match same {
                Some(q) => q,
                None => {
                    addr.push(a);
                    views.push(l.layout);
                    param_t.push(l.dtype);
                    addr.len() - 1
                }
            });
        }
        let mut access: Vec<Access> = views.iter().map(|l| access_of(l)).collect();
        let strided: Vec<&Layout> = views
            .iter()
            .zip(&access)
            .filter(|(_, a)| matches!(a, Access::Strided(_)))
            .map(|(l, _)| *l)
            .collect();
        let coalesced = if strided.is_empty() {
            Vec::new()
        } else {
            coalesce("fusion", &strided)?
        };
        let mut j = 0;
        for a in access.iter_mut() {
            if let Access::Strided(k) = a {
                *k = j;
                j += 1;
            }
        }
        let nd = coalesced.first().map_or(0, |s| s.ndim as usize);
        // The vector loop: every leaf contiguous or uniform, every address 16-byte aligned.
        let widest = access
            .iter()
            .zip(&param_t)
            .filter(|(a, _)| **a == Access::Contig)
            .map(|(_, t)| t.size_of())
            .fold(out_t.size_of(), usize::max);
        let aligned = out.is_multiple_of(16)
            && access
                .iter()
                .zip(&addr)
                .all(|(a, &p)| *a != Access::Contig || p.is_multiple_of(16));
        let vw = if strided.is_empty() && aligned && n >= 16 / widest {
            16 / widest
        } else {
            1
        };
        let key = key(&Shape {
            instrs,
            leaf_param: &leaf_param,
            access: &access,
            param_t: &param_t,
            nd,
            vw,
        });
        let mut args = ArgBlob::default();
        args.put(&out.to_ne_bytes());
        args.put(&(n as i64).to_ne_bytes());
        for p in &addr {
            args.put(&p.to_ne_bytes());
        }
        let slots = slots(instrs)?;
        if !slots.is_empty() {
            args.align(16);
            for s in &slots {
                args.put(s.bytes());
            }
        }
        if nd > 0 {
            for &n in &coalesced[0].shape[..nd] {
                args.put(&n.to_ne_bytes());
            }
            for s in &coalesced {
                // Offsets are folded into the leaves' addresses.
                for &st in &s.strides[..nd] {
                    args.put(&st.to_ne_bytes());
                }
            }
        }
        args.align(16);
        if args.0.len() > MAX_ARG_BYTES {
            return Err(Error::invalid(
                "fusion",
                format!(
                    "a fused kernel of {} instructions needs {} bytes of arguments (at most {MAX_ARG_BYTES})",
                    instrs.len(),
                    args.0.len()
                ),
            ));
        }
        Ok(Launch {
            key,
            leaf_param,
            access,
            param_t,
            nd,
            vw,
            args,
        })
    }
}

impl FusionBackend for Cuda {
    fn eval_expr<T: Element>(&self, expr: &Expr<T>, len: usize) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(len)?;
        if len == 0 {
            return Ok(out);
        }
        let p = lower(expr);
        let mut l = Launch::new(self, &p.instrs, &p.leaves, self.ptr(&out)?, T::DTYPE, len)?;
        let f = self.function_with(&l.key, "fused", &OPTIONS, || {
            source(&Shape {
                instrs: &p.instrs,
                leaf_param: &l.leaf_param,
                access: &l.access,
                param_t: &l.param_t,
                nd: l.nd,
                vw: l.vw,
            })
        })?;
        self.bind()?;
        let mut args = [l.args.0.as_mut_ptr() as *mut c_void];
        // SAFETY: the kernel `fused` takes one `FusedArgs` by value, which `l.args` lays out
        // field for field (the generated struct and the blob come from one walk of the same
        // instructions and leaves); the driver copies it before the call returns. Every
        // address in it is this device's: the fresh result of `len` elements, and leaves
        // checked (`check_view`) to hold every element of their views, which the kernel
        // reads at the offsets of those views only.
        unsafe {
            driver::launch(
                f.0,
                (self.grid_for(len, l.vw), 1, 1),
                (BLOCK, 1, 1),
                0,
                self.stream(),
                &mut args,
            )?;
        }
        Ok(out)
    }
}
