//! A fused expression written into a view of an array on the CPU
//! ([`FusionBackend::eval_into`](cuprite_core::fusion::FusionBackend::eval_into)):
//! `a[1:-1, 1:-1] = 0.2 * (...)` or `a[:, j] -= u * v` in one pass over the view, block by
//! block as [`crate::fused`] evaluates into fresh memory, each block written into the view
//! positions it was computed for, with no evaluated temporary in memory and no second
//! pass to copy it in. An expression that does not read the view is evaluated straight
//! into the view's memory, run by run, where the view's rows are contiguous.
//!
//! The expression reads the written view itself (an update `x op= rhs` reads `x`) through
//! [`ViewCells`], a leaf that reads and writes the buffer through one raw pointer: blocks
//! running in parallel read and write disjoint positions (the view holds no element twice),
//! and no reference to the buffer's memory exists while they do, so writes to one position
//! never overlap a borrow of another.

use crate::buffer::CpuBuffer;
use crate::fused::BLOCK;
use crate::par;
use cuprite_core::fusion::expr::{
    eval_runs, grown, row_pieces, shorter_row, view_runs, Expr, Node, Runs, Scratch, MIN_ROW,
};
use cuprite_core::fusion::lower::Program;
use cuprite_core::{Element, Layout, Result};
use rayon::prelude::*;
use std::ptr::NonNull;
use std::sync::Arc;

/// The view `layout` of the buffer at `ptr`, read and written by position (row runs).
pub(crate) struct ViewCells<T> {
    ptr: NonNull<T>,
    layout: Layout,
    /// The layout's runs.
    runs: Runs,
}

// SAFETY: the cells are a `&mut [T]` handed out position by position: `eval_into` writes
// each position from the one block that read it, after reading it, and no two blocks share
// a position (see the module docs); `T: Send + Sync` makes moving elements across threads
// sound.
unsafe impl<T: Send + Sync> Send for ViewCells<T> {}
// SAFETY: as for `Send` above.
unsafe impl<T: Send + Sync> Sync for ViewCells<T> {}

impl<T: Element> ViewCells<T> {
    /// Writes `vals` at the positions `start..start + vals.len()` of the view.
    ///
    /// # Safety
    /// No other thread reads or writes these positions meanwhile.
    unsafe fn write(&self, start: usize, vals: &[T]) {
        let p = self.ptr.as_ptr();
        view_runs(&self.layout, start, vals.len(), |k, at, len, step| {
            let src = &vals[k..k + len];
            // SAFETY: every offset of the view lies in the buffer (checked by `eval_into`),
            // the caller owns these positions, and `vals` is not the buffer's memory.
            unsafe {
                if step == 1 {
                    std::ptr::copy_nonoverlapping(src.as_ptr(), p.add(at), len);
                } else {
                    for (j, &v) in src.iter().enumerate() {
                        p.offset(at as isize + j as isize * step).write(v);
                    }
                }
            }
        });
    }
}

impl<T: Element> ViewCells<T> {
    /// The positions `start..start + len` as a slice of the buffer to write, when the view
    /// holds them contiguously.
    ///
    /// # Safety
    /// No other thread reads or writes these positions while the slice lives, and nothing
    /// else reads them through the cells meanwhile.
    #[allow(clippy::mut_from_ref)]
    unsafe fn run_mut(&self, start: usize, len: usize) -> Option<&mut [T]> {
        let at = self.runs.offset(&self.layout, start, len)?;
        // SAFETY: the view's offsets lie in the buffer (checked by `eval_into`); the caller
        // owns these positions exclusively.
        Some(unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr().add(at), len) })
    }
}

impl<T: Element> Node<T> for ViewCells<T> {
    fn slice(&self, start: usize, len: usize) -> Option<&[T]> {
        let at = self.runs.offset(&self.layout, start, len)?;
        // SAFETY: the view's offsets lie in the buffer (checked by `eval_into`); the block
        // evaluating these positions is the only one touching them, and it writes them
        // only after its evaluation (and this borrow) is over.
        Some(unsafe { std::slice::from_raw_parts(self.ptr.as_ptr().add(at), len) })
    }

    fn row(&self) -> usize {
        self.runs.row
    }

    fn eval(&self, start: usize, out: &mut [T], _: &mut Scratch) -> Result<()> {
        let p = self.ptr.as_ptr();
        // SAFETY: every offset of the view lies in the buffer (checked by `eval_into`); the
        // block evaluating these positions is the only one touching them, and reads them
        // before it writes them.
        view_runs(&self.layout, start, out.len(), |k, at, len, step| {
            let dst = &mut out[k..k + len];
            // (`out` is a block temporary, not the buffer's memory.)
            unsafe {
                if step == 1 {
                    std::ptr::copy_nonoverlapping(p.add(at), dst.as_mut_ptr(), len);
                } else {
                    for (j, o) in dst.iter_mut().enumerate() {
                        *o = p.offset(at as isize + j as isize * step).read();
                    }
                }
            }
        });
        Ok(())
    }

    fn ops(&self) -> usize {
        0
    }

    fn reads(&self, addr: usize) -> bool {
        self.ptr.as_ptr() as usize == addr
    }

    fn over(&self, addr: usize) -> bool {
        self.reads(addr)
    }

    /// The block already holds the view's elements at these positions: nothing to do.
    fn eval_over(&self, _: usize, _: usize, _: &mut [T], _: &mut Scratch) -> Result<()> {
        Ok(())
    }

    fn lower<'a>(&'a self, p: &mut Program<'a>) -> usize {
        // The CPU evaluates on the host and never lowers; a leaf of these cells is what the
        // expression reads.
        p.leaf::<T>(self, &self.layout)
    }
}

/// [`FusionBackend::eval_into`](cuprite_core::fusion::FusionBackend::eval_into) of the
/// CPU: `false` with nothing written when the view is empty, holds an element twice, or
/// `dst` cannot be written in place (shared, or borrowed read-only).
pub(crate) fn eval_into<T: Element>(
    dst: &mut CpuBuffer<T>,
    layout: &Layout,
    build: impl FnOnce(Expr<T>) -> Expr<T>,
) -> Result<bool> {
    crate::view::check_views("fusion", &[(dst.len(), layout)])?;
    if layout.size() == 0 || !layout.is_writeable_without_overlap() {
        return Ok(false);
    }
    let Some(ptr) = dst.unique_mut_ptr() else {
        return Ok(false);
    };
    let cells = Arc::new(ViewCells {
        ptr,
        layout: layout.clone(),
        runs: Runs::of(layout),
    });
    let expr = build(cells.clone());
    let n = layout.size();
    let addr = ptr.as_ptr() as usize;
    // An expression that does not read the view is evaluated straight into it, run by
    // run, where the view holds runs of at least `MIN_ROW` positions contiguously (its
    // runs and the leaves' are products of trailing axes: the shorter divides the other).
    // An update's chain that reads the view only as its ops' first operands is evaluated
    // over those runs in place ([`cuprite_core::fusion::over`]).
    let dst = cells.runs;
    let dst_row = if dst.contiguous { n } else { dst.row };
    let row = shorter_row(expr.row(), dst_row);
    let runs = row >= MIN_ROW && dst_row != 0;
    let over = expr.over(addr);
    let direct = runs && !expr.reads(addr);
    // Every block reads the same leaves, so an evaluation that fails (a leaf outside host
    // memory) fails on the first block (and run) each thread evaluates, before any write.
    let one = |b: usize, tmp: &mut Vec<T>, scratch: &mut Scratch| -> Result<()> {
        let start = b * BLOCK;
        let len = BLOCK.min(n - start);
        if runs && (direct || over) {
            for (at, k) in row_pieces(start, len, row) {
                // SAFETY: block `b` alone owns these positions, and the expression does
                // not read the view (`direct`), or reads it only as the block it
                // rewrites (`over`: the cells' `eval_over` reads nothing).
                match unsafe { cells.run_mut(at, k) } {
                    Some(out) if over => expr.eval_over(addr, at, out, scratch)?,
                    Some(out) => expr.eval(at, out, scratch)?,
                    None => {
                        // (Not reached: the run lies in one of the view's runs.)
                        let tmp = grown(tmp, k);
                        expr.eval(at, tmp, scratch)?;
                        // SAFETY: as above.
                        unsafe { cells.write(at, tmp) };
                    }
                }
            }
            return Ok(());
        }
        let tmp = grown(tmp, len);
        if over {
            // The view's elements into the block, rewritten there.
            cells.eval(start, tmp, scratch)?;
            expr.eval_over(addr, start, tmp, scratch)?;
        } else {
            eval_runs(&*expr, start, tmp, scratch)?;
        }
        // SAFETY: block `b` alone owns positions start..start + len.
        unsafe { cells.write(start, tmp) };
        Ok(())
    };
    let blocks = n.div_ceil(BLOCK);
    if par::serial(n) {
        crate::fused::with_scratch(|tmp, scratch| {
            (0..blocks).try_for_each(|b| one(b, tmp, scratch))
        })?;
    } else {
        (0..blocks).into_par_iter().try_for_each_init(
            || (Vec::new(), Scratch::new()),
            |(tmp, scratch), b| one(b, tmp, scratch),
        )?;
    }
    // The expression (and the cells' pointer in it) is dropped before `dst` is used again.
    drop(expr);
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::eval_into;
    use crate::Cpu;
    use cuprite_core::fusion::expr::{Binary, BinaryScalar, Expr};
    use cuprite_core::fusion::over;
    use cuprite_core::ops::{Add, Mul};
    use cuprite_core::{BackendBase, Layout};
    use std::sync::Arc;

    /// An update's chain whose second operand also reads the updated view (`(x * 5) + x`)
    /// is not evaluated over the view's blocks (that operand would read elements already
    /// rewritten): the values of the definition, on a whole array and on a view with rows.
    #[test]
    fn a_chain_reading_its_target_twice_is_not_rewritten_in_place() {
        let dev = Cpu::new();
        let n = 3 * 4096 + 77;
        let v: Vec<f64> = (0..n).map(|i| (i % 101) as f64 - 50.0).collect();
        let build = |x: Expr<f64>| -> Expr<f64> {
            let five: Expr<f64> = Arc::new(BinaryScalar {
                over: Some(over::scalar::<Cpu, f64, Mul>),
                ..BinaryScalar::new(Mul, x.clone(), 5.0, false)
            });
            Arc::new(Binary {
                over: Some(over::binary::<Cpu, f64, Add>),
                ..Binary::new(Add, five, x)
            })
        };
        for layout in [
            Layout::contiguous(&[n]),
            Layout::new(vec![7, 1000], vec![1500, 1], 3),
        ] {
            let mut buf = dev.from_vec(v.clone()).unwrap();
            assert!(eval_into(&mut buf, &layout, build).unwrap());
            let mut want = v.clone();
            let mut at = vec![];
            cuprite_core::fusion::expr::view_runs(&layout, 0, layout.size(), |_, p, len, _| {
                at.extend(p..p + len)
            });
            for p in at {
                want[p] = v[p] * 5.0 + v[p];
            }
            assert_eq!(buf.as_slice(), &want[..]);
        }
    }
}
