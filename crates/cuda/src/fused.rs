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
use crate::reduce::{ContiguousPlan, FusedKernel, PartArgs};
use codegen::{key, reduce_key, reduce_source, slot_count, source, Access, Reduction, Shape};
use cuprite_core::fusion::expr::{Expr, Leaf};
use cuprite_core::fusion::lower::{lower, Instr, LeafRef};
use cuprite_core::fusion::FusionBackend;
use cuprite_core::ops::ReduceOp;
use cuprite_core::{with_dtype, BackendBase, DType, Element, Error, Layout, Result, Scalar};
use std::any::Any;
use std::ffi::c_void;
use std::sync::Arc;

/// NVRTC options of every fused program: no contraction of one op's product with the next
/// op's sum into an FMA (the unfused kernels round each op's result on its own).
const OPTIONS: [&str; 1] = ["--fmad=false"];

/// The largest argument struct a kernel takes (CUDA 12.1 and later, compute capability 7.0
/// and later).
const MAX_ARG_BYTES: usize = 32764;

/// The buffer of leaf `l` as the `CudaBuffer<T>` it is.
fn leaf_buffer<'a, T: Element>(l: &LeafRef<'a>) -> Result<&'a CudaBuffer<T>> {
    l.buf
        .downcast_ref::<CudaBuffer<T>>()
        .ok_or_else(|| Error::Backend {
            op: "fusion",
            msg: format!("a {} leaf that is not a cuda buffer of its type", T::DTYPE),
        })
}

/// The buffer address of a leaf (advanced to its view's offset) after checking that it is a
/// buffer of this device holding the view.
fn leaf_address(dev: &Cuda, l: &LeafRef) -> Result<u64> {
    with_dtype!(l.dtype, T => {
        let buf = leaf_buffer::<T>(l)?;
        check_view(dev, "fusion", buf, l.layout)?;
        Ok(dev.ptr(buf)? + (l.layout.offset() * std::mem::size_of::<T>()) as u64)
    })
}

/// A C-contiguous copy of the view of leaf `l`: its address, and the buffer (to keep until
/// the kernel reading it is queued).
fn contiguous_copy(dev: &Cuda, l: &LeafRef) -> Result<(u64, Box<dyn Any>)> {
    with_dtype!(l.dtype, T => {
        let copy = dev.copy(leaf_buffer::<T>(l)?, l.layout)?;
        Ok((dev.ptr(&copy)?, Box::new(copy) as Box<dyn Any>))
    })
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

/// What a fused program computes.
enum Mode<'a> {
    /// The expression's elements, written C-contiguous or at the offsets of `out_view`.
    Map { out_view: Option<&'a Layout> },
    /// The reduction `r` of the elements as `plan` reduces the evaluated array (its chunks'
    /// partials at `part`), finished with `param` as the plain reduction finishes.
    Reduce {
        r: &'a Reduction<'a>,
        plan: &'a ContiguousPlan,
        part: u64,
        param: f64,
    },
}

/// A fused program ready to launch: its module key, how its parameters are read, and its
/// argument struct.
struct Launch {
    key: String,
    leaf_param: Vec<usize>,
    access: Vec<Access>,
    param_t: Vec<DType>,
    out_strided: bool,
    nd: usize,
    vw: usize,
    args: ArgBlob,
    /// Contiguous copies of leaves the launch reads (freed in stream order after it).
    _keep: Vec<Box<dyn Any>>,
}

impl Launch {
    /// Plans the launch of `instrs` over `leaves` into `out` (`n > 0` elements of `out_t`,
    /// at `out_view`'s offsets from `out` when it is not C-contiguous).
    fn new(
        dev: &Cuda,
        instrs: &[Instr],
        leaves: &[LeafRef],
        out: u64,
        mode: &Mode,
        out_t: DType,
        n: usize,
    ) -> Result<Launch> {
        let out_view = match mode {
            Mode::Map { out_view } => out_view.filter(|l| !l.is_c_contiguous()),
            Mode::Reduce { .. } => None,
        };
        // Distinct leaves: one parameter per (address, view).
        let mut addr: Vec<u64> = Vec::new();
        let mut views: Vec<Layout> = Vec::new();
        let mut param_t: Vec<DType> = Vec::new();
        let mut first_leaf: Vec<usize> = Vec::new();
        let mut leaf_param = Vec::with_capacity(leaves.len());
        for (i, l) in leaves.iter().enumerate() {
            let a = leaf_address(dev, l)?;
            let same = (0..addr.len()).find(|&q| {
                addr[q] == a && param_t[q] == l.dtype && views[q].strides() == l.layout.strides()
            });
            leaf_param.push(match same {
                Some(q) => q,
                None => {
                    addr.push(a);
                    views.push(l.layout.clone());
                    param_t.push(l.dtype);
                    first_leaf.push(i);
                    addr.len() - 1
                }
            });
        }
        let mut access: Vec<Access> = views.iter().map(access_of).collect();
        // The strided views share one shape, the output view's or else the first strided
        // leaf's (a pending value read through a reshape keeps its own shape): another
        // shape is reshaped to it where the strides allow, else read from a contiguous copy.
        let mut keep = Vec::new();
        let target = out_view.map(|l| l.shape().to_vec()).or_else(|| {
            (0..views.len())
                .find(|&q| access[q] == Access::Strided(0))
                .map(|q| views[q].shape().to_vec())
        });
        if let Some(target) = target {
            for q in 0..views.len() {
                if access[q] != Access::Strided(0) || views[q].shape() == target.as_slice() {
                    continue;
                }
                match views[q].reshaped(&target) {
                    Some(r) => {
                        views[q] = r;
                        access[q] = access_of(&views[q]);
                    }
                    None => {
                        let (a, buf) = contiguous_copy(dev, &leaves[first_leaf[q]])?;
                        addr[q] = a;
                        views[q] = Layout::contiguous(&target);
                        access[q] = Access::Contig;
                        keep.push(buf);
                    }
                }
            }
        }
        // The strided views, the output's first.
        let strided: Vec<&Layout> = out_view
            .into_iter()
            .chain(
                views
                    .iter()
                    .zip(&access)
                    .filter(|(_, a)| matches!(a, Access::Strided(_)))
                    .map(|(l, _)| l),
            )
            .collect();
        let coalesced = if strided.is_empty() {
            Vec::new()
        } else {
            coalesce("fusion", &strided)?
        };
        let out_strided = out_view.is_some();
        let mut j = out_strided as usize;
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
        let vw = match mode {
            Mode::Map { .. } if strided.is_empty() && aligned && n >= 16 / widest => 16 / widest,
            Mode::Map { .. } => 1,
            // The reduction's 16-byte vectors of the reduced type, read as one word from
            // each contiguous leaf of that size where all are aligned.
            Mode::Reduce { .. } => {
                let same = access
                    .iter()
                    .zip(&param_t)
                    .all(|(a, t)| *a != Access::Contig || t.size_of() == out_t.size_of());
                if same && aligned {
                    16 / out_t.size_of()
                } else {
                    1
                }
            }
        };
        let shape = Shape {
            instrs,
            leaf_param: &leaf_param,
            access: &access,
            param_t: &param_t,
            out_strided,
            nd,
            vw,
        };
        let key = match mode {
            Mode::Map { .. } => key(&shape),
            Mode::Reduce { r, .. } => reduce_key(&shape, r),
        };
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
        if let Mode::Reduce {
            part, plan, param, ..
        } = mode
        {
            // REDUCE_FIELDS of codegen, `Strided` as common.cuh lays it out.
            args.put(&part.to_ne_bytes());
            args.put(&(plan.split.chunk as i64).to_ne_bytes());
            args.put(&(plan.split.n_chunks as i64).to_ne_bytes());
            args.put(&(plan.rsize as i64).to_ne_bytes());
            args.put(&param.to_ne_bytes());
            let k = &plan.kept;
            for v in k.shape.iter().chain(&k.strides) {
                args.put(&v.to_ne_bytes());
            }
            args.put(&k.ndim.to_ne_bytes());
            args.align(8);
            args.put(&k.offset.to_ne_bytes());
            args.put(&(plan.n_out as i64).to_ne_bytes());
            args.put(&(plan.rsize as i64).to_ne_bytes());
            args.put(&plan.rstride.to_ne_bytes());
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
            let shape = &coalesced[0].shape[..nd];
            let magic: Vec<(u32, u32)> = shape.iter().map(|&d| div_magic(d)).collect();
            for &(mg, _) in &magic {
                args.put(&mg.to_ne_bytes());
            }
            for &(_, sh) in &magic {
                args.put(&sh.to_ne_bytes());
            }
            let w32 = n <= i32::MAX as usize
                && shape.iter().all(|&d| d <= i32::MAX as i64)
                && coalesced.iter().all(|s| {
                    let span: i128 = shape
                        .iter()
                        .zip(&s.strides[..nd])
                        .map(|(&d, &st)| (d as i128 - 1) * (st as i128).abs())
                        .sum();
                    span <= i32::MAX as i128
                });
            args.put(&(w32 as i32).to_ne_bytes());
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
            out_strided,
            nd,
            vw,
            args,
            _keep: keep,
        })
    }
}

/// The magic number and shift that divide a 32-bit index `r < 2^31` by `d` on the device
/// (`fused.cuh`'s `fz_div`: `(umulhi(r, magic) + r) >> shift`, Granlund and Montgomery's
/// round-up method); `(0, 0)` for a `d` outside `1..2^31` (whose views take the 64-bit path).
fn div_magic(d: i64) -> (u32, u32) {
    if !(1..=i32::MAX as i64).contains(&d) {
        return (0, 0);
    }
    let d = d as u64;
    // The smallest shift with 2^shift >= d.
    let shift = if d == 1 {
        0
    } else {
        64 - (d - 1).leading_zeros()
    };
    let magic = ((1u64 << 32) * ((1u64 << shift) - d)) / d + 1;
    (magic as u32, shift)
}

impl Cuda {
    /// Launches the program of `expr` writing its `n > 0` elements at `out` (C-contiguous),
    /// or at the offsets of `out_view` from `out`.
    fn launch_expr<T: Element>(
        &self,
        expr: &Expr<T>,
        out: u64,
        out_view: Option<&Layout>,
        n: usize,
    ) -> Result<()> {
        let p = lower(expr);
        let mode = Mode::Map { out_view };
        let mut l = Launch::new(self, &p.instrs, &p.leaves, out, &mode, T::DTYPE, n)?;
        let f = self.function_with(&l.key, "fused", &OPTIONS, || {
            source(&Shape {
                instrs: &p.instrs,
                leaf_param: &l.leaf_param,
                access: &l.access,
                param_t: &l.param_t,
                out_strided: l.out_strided,
                nd: l.nd,
                vw: l.vw,
            })
        })?;
        self.bind()?;
        let mut args = [l.args.0.as_mut_ptr() as *mut c_void];
        // SAFETY: the kernel `fused` takes one `FusedArgs` by value, which `l.args` lays out
        // field for field (the generated struct and the blob come from one walk of the same
        // instructions and leaves); the driver copies it before the call returns. Every
        // address in it is this device's: the output (a fresh buffer of `n` elements, or a
        // view checked by the caller to lie in its buffer and to hold no element twice),
        // and leaves checked (`check_view`) to hold every element of their views, which the
        // kernel reads at the offsets of those views only.
        unsafe {
            driver::launch(
                f.0,
                (self.grid_for(n, l.vw), 1, 1),
                (BLOCK, 1, 1),
                0,
                self.stream(),
                &mut args,
            )?;
        }
        Ok(())
    }
}

impl FusionBackend for Cuda {
    const WRITES_VIEWS: bool = true;
    const FUSES_AXIS_REDUCTIONS: bool = true;

    fn eval_expr<T: Element>(&self, expr: &Expr<T>, len: usize) -> Result<CudaBuffer<T>> {
        let out = self.alloc::<T>(len)?;
        if len > 0 {
            self.launch_expr(expr, self.ptr(&out)?, None, len)?;
        }
        Ok(out)
    }

    /// One pass: the plain reduction's plan and kernel over the evaluated array (the flat
    /// row kernels or the column kernel, their chunks and partial combines), with loaders
    /// that compute each element where that kernel reads it, so the bits are the plain
    /// reduction's. Not fused: ops whose folds multiply and add (a contraction into an FMA
    /// would differ between the two programs), and plans whose kernel has no fused twin
    /// (tiny rows, rows that are not one run, columns over several dimensions).
    fn reduce_expr<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        expr: &Expr<T>,
        shape: &[usize],
        axes: &[usize],
    ) -> Result<Option<CudaBuffer<K::Out>>> {
        let exact = matches!(
            K::NAME,
            "sum"
                | "nansum"
                | "mean"
                | "nanmean"
                | "min"
                | "max"
                | "nanmin"
                | "nanmax"
                | "all"
                | "any"
                | "count_nonzero"
                | "var"
        ) || (matches!(K::NAME, "prod" | "nanprod") && !T::DTYPE.is_complex());
        if !exact {
            return Ok(None);
        }
        let Some(plan) = crate::reduce::contiguous_plan(self, shape, axes)? else {
            return Ok(None);
        };
        let (split, n_out) = (plan.split, plan.n_out);
        let p = lower(expr);
        let out = self.alloc::<K::Out>(n_out)?;
        let tasks = n_out * split.n_chunks;
        let part = if split.n_chunks > 1 {
            Some(self.alloc::<u8>(tasks * cuprite_kernels::reduce::ACC_MAX_BYTES)?)
        } else {
            None
        };
        let functor = cuprite_kernels::reduce::reduce_functor(K::NAME);
        let r = Reduction {
            functor: &functor,
            out: K::Out::DTYPE,
            kernel: plan.kernel,
        };
        let param = crate::reduce::finish_param(&op);
        let mode = Mode::Reduce {
            r: &r,
            plan: &plan,
            part: part.as_ref().map_or(Ok(0), |b| self.ptr(b))?,
            param,
        };
        let out_ptr = self.ptr(&out)?;
        let len: usize = shape.iter().product();
        let mut l = Launch::new(self, &p.instrs, &p.leaves, out_ptr, &mode, T::DTYPE, len)?;
        let src = || {
            reduce_source(
                &Shape {
                    instrs: &p.instrs,
                    leaf_param: &l.leaf_param,
                    access: &l.access,
                    param_t: &l.param_t,
                    out_strided: false,
                    nd: l.nd,
                    vw: l.vw,
                },
                &r,
            )
        };
        let f = self.function_with(&l.key, "fused_red", &OPTIONS, src)?;
        let group = match plan.kernel {
            FusedKernel::Rows(g) => g,
            FusedKernel::Cols => 1,
        };
        self.bind()?;
        let mut args = [l.args.0.as_mut_ptr() as *mut c_void];
        // SAFETY: `fused_red` takes one `FusedArgs` by value, laid out by `l.args` (the
        // expression's fields, then the plan's in `REDUCE_FIELDS` order, then the strided
        // leaves' shape and strides). It reads the leaves (checked views of this device's
        // buffers) at the offsets of their views for positions below `len`, and writes the
        // `n_out` outputs of `out` or, with several chunks, one partial slot per task of
        // `part` (n_out * n_chunks slots of ACC_MAX_BYTES).
        unsafe {
            driver::launch(
                f.0,
                (crate::reduce::blocks(tasks, group), 1, 1),
                (BLOCK, 1, 1),
                0,
                self.stream(),
                &mut args,
            )?;
        }
        if let Some(part) = &part {
            let key = l.key.clone();
            self.combine_partials(
                |name| self.kernel_with::<PartArgs>(&key, name, &OPTIONS, src),
                self.ptr(part)?,
                out_ptr,
                n_out,
                &split,
                plan.rsize as i64,
                param,
            )?;
        }
        Ok(Some(out))
    }

    /// One kernel writing the view: a thread reads each position of `dst`'s view (through
    /// `view`) before writing it, and no other leaf reads `dst` (it shares its memory with
    /// nothing when `view` is made).
    fn eval_into<T: Element>(
        &self,
        dst: &mut CudaBuffer<T>,
        layout: &Layout,
        build: impl FnOnce(Expr<T>) -> Expr<T>,
    ) -> Result<bool> {
        check_view(self, "fusion", dst, layout)?;
        if layout.size() == 0 || !dst.is_unique() || !layout.is_writeable_without_overlap() {
            return Ok(false);
        }
        let out = self.ptr(dst)? + (layout.offset() * std::mem::size_of::<T>()) as u64;
        let view: Expr<T> = Arc::new(Leaf::new(self.clone(), dst.clone(), layout.clone()));
        // A contiguous view (a whole array updated in place: `x *= 5; x *= x`) is written
        // as a fresh output is, with the vector loop where the addresses allow.
        let out_view = (!layout.is_c_contiguous()).then_some(layout);
        self.launch_expr(&build(view), out, out_view, layout.size())?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::div_magic;

    /// `fz_div` of fused.cuh, on the host.
    fn fz_div(r: u32, (mg, sh): (u32, u32)) -> u32 {
        let hi = ((r as u64 * mg as u64) >> 32) as u32;
        (hi + r) >> sh
    }

    #[test]
    fn magic_numbers_divide_every_31_bit_index_exactly() {
        let mut divisors: Vec<i64> = (1..=1100).collect();
        for k in 1..31 {
            let p = 1i64 << k;
            divisors.extend([p - 1, p, p + 1]);
        }
        divisors.extend([3 * 7 * 11 * 13 * 1021, 65_536 + 7, i32::MAX as i64]);
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for &d in &divisors {
            let m = div_magic(d);
            let check = |r: u32| assert_eq!(fz_div(r, m), r / d as u32, "{r} / {d}");
            for r in (0..2000).chain([i32::MAX as u32 - 1, i32::MAX as u32]) {
                check(r);
            }
            for q in [1u32, 2, 1000, (i32::MAX as u32) / d as u32] {
                for e in [-1i64, 0, 1] {
                    let r = (q as i64 * d + e).clamp(0, i32::MAX as i64) as u32;
                    check(r);
                }
            }
            for _ in 0..200 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                check((s >> 33) as u32);
            }
        }
        assert_eq!(div_magic(0), (0, 0));
        assert_eq!(div_magic(1 << 31), (0, 0));
    }
}
