//! [`ReduceOps`] for [`Cuda`]: reductions over any set of axes, arg-reductions and scans,
//! with the semantics of the CPU backend (accumulation types, NaN handling, wrapping integer
//! arithmetic, first occurrence for arg-reductions).
//!
//! - `reduce` splits the view into kept and reduced dimensions and picks a kernel
//!   ([`plan`]): a group (thread, warp or block) per output reading contiguous runs with
//!   16-byte vector loads and four accumulators per thread, or a thread per output when the
//!   outputs are the fastest dimension in memory (`sum(axis=0)`). Outputs too few to fill
//!   the device are cut into chunks whose accumulators a second kernel combines in a fixed
//!   order, so results are deterministic. An empty reduction writes `finish(init, count)`.
//! - `arg_reduce` runs the same kernels with a (value, position) accumulator; its selection
//!   (NaN first, then the extremum, then the smallest position) is order-independent.
//! - `scan` walks lanes along the axis: a thread per lane when lanes are neighbours in
//!   memory or short, else a warp or block scanning tiles; long lanes are cut into chunks
//!   (chunk totals, a carry pass, then the scan from each chunk's prefix).
//!
//! The CUDA source is `kernels/src/reduce.cu`, one program per (op, element type), after
//! the op's device functor of `kernels/src/reduce_ops.cuh`: `red_<NAME>` for a reduction
//! and an arg-reduction, `scan_<NAME>` for a scan, named after the op's declaration in core's
//! op registry (a test, no GPU needed, checks that every declared op has its functor).

mod params;
mod plan;
mod run;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_gpu;

use crate::buffer::CudaBuffer;
use crate::ctype::ctype;
use crate::device::Cuda;
use crate::ffi::launch::{Kernel, KernelParams};
use crate::launch::{check_view, Strided};
use crate::modules::FuncId;
use cuprite_core::backend::ReduceOps;
use cuprite_core::ops::{registry, ReduceOp, ScanOp};
use cuprite_core::{ArgKind, DType, Element, Layout, Result};
use cuprite_kernels::reduce as kern;
use plan::ToStrided;

pub(crate) use params::PartArgs;
pub(crate) use plan::Split;

/// The kernel of a fused reduction (`fused::codegen::reduce_source`): the twin of a plain
/// kernel, with the plain kernel's tasks and folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FusedKernel {
    /// `red_rows_32_flat` / `red_rows_256_flat`: a group of this many threads per output and
    /// chunk of one contiguous run of positions.
    Rows(u32),
    /// `red_cols` over one reduced dimension: a thread per output and chunk.
    Cols,
}

/// The plan of the plain reduction over `axes` of a C-contiguous array of `shape`, where
/// it runs a kernel with a fused twin ([`FusedKernel`]; `None` for the others).
pub(crate) struct ContiguousPlan {
    pub kernel: FusedKernel,
    pub split: Split,
    /// The first element of each output's positions (the outputs in C order).
    pub kept: Strided,
    /// The stride of the reduced positions (1 for the rows kernels).
    pub rstride: i64,
    pub n_out: usize,
    pub rsize: usize,
}

/// The plan of the plain reduction over `axes` of a C-contiguous array of `shape` (at least
/// one element) when its kernel has a fused twin; `None` for the one-thread rows kernel
/// of tiny sizes, rows that are not one contiguous run, and columns over several reduced
/// dimensions.
pub(crate) fn contiguous_plan(
    dev: &Cuda,
    shape: &[usize],
    axes: &[usize],
) -> Result<Option<ContiguousPlan>> {
    let (kept, red, base) = plan::split(&Layout::contiguous(shape), axes, true);
    let (n_out, rsize) = (kept.size(), red.size());
    if n_out == 0 || rsize == 0 {
        return Ok(None);
    }
    let split = plan::choose(&kept, &red, dev.inner.sm_count as usize);
    let flat = red.shape.len() == 1 && red.strides[0] == 1;
    let (name, group, _) = run::row_kernel(split.kernel, flat);
    let kernel = match split.kernel {
        plan::Kernel::Cols if red.shape.len() <= 1 => FusedKernel::Cols,
        plan::Kernel::Rows { .. } if name.ends_with("_flat") => FusedKernel::Rows(group),
        _ => return Ok(None),
    };
    Ok(Some(ContiguousPlan {
        kernel,
        split,
        kept: kept.to_strided("fusion", base)?,
        rstride: red.strides.first().map_or(0, |&s| s as i64),
        n_out,
        rsize,
    }))
}

/// The reduction kernels' grid for `tasks` tasks of `group` threads.
pub(crate) fn blocks(tasks: usize, group: u32) -> u32 {
    plan::blocks(tasks, group)
}

/// The value an op passes to its `finish` (its first parameter, as f64; 0 without one: the
/// `ddof` of var).
pub(crate) fn finish_param<T: Element, K: ReduceOp<T>>(op: &K) -> f64 {
    op.params()
        .first()
        .map_or(0.0, |&s| <f64 as Element>::from_scalar(s))
}

/// The name of an arg-reduction (its functor is `red_<name>`).
fn arg_name(kind: ArgKind) -> &'static str {
    registry::arg_reduction_name(kind)
}

/// A program of the family: the op and its types, from which its module key and its source
/// are made (`scan` selects the scan kernels over the reduction ones, the functor is the
/// op's device functor of reduce_ops.cuh, named after the op's `NAME`).
pub(super) struct Program {
    name: &'static str,
    scan: bool,
    t: DType,
    out: DType,
}

impl Program {
    /// The program of the reduction or arg-reduction called `name`.
    fn reduce<T: Element, O: Element>(name: &'static str) -> Self {
        Program {
            name,
            scan: false,
            t: T::DTYPE,
            out: O::DTYPE,
        }
    }

    /// The program of the scan called `name`.
    fn scan<T: Element, O: Element>(name: &'static str) -> Self {
        Program {
            name,
            scan: true,
            t: T::DTYPE,
            out: O::DTYPE,
        }
    }

    /// The op's device functor.
    fn functor(&self) -> String {
        if self.scan {
            kern::scan_functor(self.name)
        } else {
            kern::reduce_functor(self.name)
        }
    }

    /// The module key: `reduce|<functor>|<T>|<Out>`.
    fn key(&self) -> String {
        format!(
            "reduce|{}|{}|{}",
            self.functor(),
            ctype(self.t),
            ctype(self.out)
        )
    }

    /// The full CUDA C source.
    fn source(&self) -> String {
        let section = if self.scan {
            kern::SCAN_SECTION
        } else {
            kern::REDUCE_SECTION
        };
        cuprite_kernels::program(
            &[kern::OPS, kern::SOURCE],
            &[
                (section, "1"),
                ("T", ctype(self.t)),
                ("OUT", ctype(self.out)),
                ("OP", &self.functor()),
            ],
        )
    }
}

impl Cuda {
    /// The kernel `entry` of program `prog`.
    pub(super) fn prog_kernel<P: KernelParams>(
        &self,
        prog: &Program,
        entry: &'static str,
    ) -> Result<Kernel<'_, P>> {
        let id = FuncId {
            family: "reduce",
            op: prog.name,
            t: prog.t,
            out: prog.out,
            variant: prog.scan as u8,
            entry,
        };
        self.kernel_by_id(id, || prog.key(), || prog.source())
    }
}

/// Checks the buffer's device, that `axes` are in range, and that the view lies inside the
/// buffer (a view past its end would read foreign memory).
fn check_input<T: Element>(
    dev: &Cuda,
    op: &'static str,
    x: &CudaBuffer<T>,
    lx: &Layout,
    axes: &[usize],
) -> Result<()> {
    axes.iter().try_for_each(|&a| lx.check_axis(op, a))?;
    check_view(dev, op, x, lx)
}

impl ReduceOps for Cuda {
    fn reduce<T: Element, K: ReduceOp<T>>(
        &self,
        op: K,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axes: &[usize],
    ) -> Result<CudaBuffer<K::Out>> {
        check_input(self, K::NAME, x, lx, axes)?;
        let prog = Program::reduce::<T, K::Out>(K::NAME);
        let param = finish_param(&op);
        let count: usize = axes.iter().map(|&a| lx.shape()[a]).product();
        let (kept, red, base) = plan::split(lx, axes, true);
        let n_out: usize = (0..lx.ndim())
            .filter(|a| !axes.contains(a))
            .map(|a| lx.shape()[a])
            .product();
        if n_out == 0 {
            return self.alloc(0);
        }
        if count == 0 {
            return self.reduce_nothing(&prog, n_out, param);
        }
        let job = run::Job {
            split: plan::choose(&kept, &red, self.inner.sm_count as usize),
            kept: kept.to_strided(K::NAME, base)?,
            red: red.to_strided(K::NAME, 0)?,
            n_out,
            rsize: red.size(),
            count,
            param,
        };
        self.run_reduction(&prog, x, &job)
    }

    fn arg_reduce<T: Element>(
        &self,
        kind: ArgKind,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<i64>> {
        let name = arg_name(kind);
        check_input(self, name, x, lx, &[axis])?;
        let n = lx.shape()[axis];
        let n_out: usize = (0..lx.ndim())
            .filter(|&a| a != axis)
            .map(|a| lx.shape()[a])
            .product();
        if n_out == 0 {
            return self.alloc(0);
        }
        if n == 0 {
            // No position to report (core rejects this; the CPU backend gives zeros).
            return self.alloc_zeroed(n_out);
        }
        let (kept, red, base) = plan::split(lx, &[axis], false);
        let job = run::Job {
            split: plan::choose(&kept, &red, self.inner.sm_count as usize),
            kept: kept.to_strided(name, base)?,
            red: red.to_strided(name, 0)?,
            n_out,
            rsize: red.size(),
            count: n,
            param: 0.0,
        };
        self.run_reduction(&Program::reduce::<T, i64>(name), x, &job)
    }

    fn scan<T: Element, K: ScanOp<T>>(
        &self,
        _op: K,
        x: &CudaBuffer<T>,
        lx: &Layout,
        axis: usize,
    ) -> Result<CudaBuffer<K::Out>> {
        check_input(self, K::NAME, x, lx, &[axis])?;
        let prog = Program::scan::<T, K::Out>(K::NAME);
        self.run_scan(K::NAME, &prog, x, lx, axis)
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use cuprite_core::ops::registry::OpKind;

    /// Runs without a GPU: a reduction declared without its device functor (or a functor
    /// left behind by a removed op) fails here, never in a user's program.
    #[test]
    fn every_declared_reduction_has_a_device_functor_and_back() {
        let defined = kern::functors();
        let mut declared: Vec<String> = registry::REDUCTIONS
            .iter()
            .map(|d| match d.kind {
                OpKind::Scan => kern::scan_functor(d.name),
                _ => kern::reduce_functor(d.name),
            })
            .collect();
        declared.extend(registry::ARG_REDUCTIONS.iter().map(|&(kind, _)| {
            let p = Program::reduce::<f64, i64>(arg_name(kind));
            p.functor()
        }));
        for f in &declared {
            assert!(
                defined.contains(&f.as_str()),
                "{f}: the op is declared in crates/core/src/ops/registry.rs, but \
                 kernels/src/reduce_ops.cuh defines no `template <class E> struct {f}`"
            );
        }
        for f in &defined {
            assert!(
                declared.contains(&f.to_string()),
                "{f} in kernels/src/reduce_ops.cuh belongs to no op of the registry"
            );
        }
    }
}
