//! Element-wise primitives of the CPU backend: contiguous operands run as slice loops split
//! over rayon (the compiler vectorises them); anything else runs through ndarray's `Zip` on
//! strided views, in parallel above the size threshold.

use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par;
use crate::view::{check_views, contiguous, contiguous_mut, view, view_mut};
use crate::Cpu;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::{BinaryOp, UnaryOp};
use cuprite_core::{Element, Layout, Result};
use ndarray::Zip;

impl ElementwiseOps for Cpu {
    fn unary<T: Element, K: UnaryOp<T>>(
        &self,
        op: K,
        x: &CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<CpuBuffer<K::Out>> {
        check_views(K::NAME, &[(x.len(), lx)])?;
        Ok(CpuBuffer::new(gather_map(x.as_slice(), lx, |v| {
            op.apply(v)
        })?))
    }

    fn binary<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &CpuBuffer<T>,
        la: &Layout,
        b: &CpuBuffer<T>,
        lb: &Layout,
    ) -> Result<CpuBuffer<K::Out>> {
        check_views(K::NAME, &[(a.len(), la), (b.len(), lb)])?;
        let n = la.size();
        let (sa, sb) = (a.as_slice(), b.as_slice());
        if let (Some(ca), Some(cb)) = (contiguous(sa, la), contiguous(sb, lb)) {
            // SAFETY: map2_uninit writes every one of the n slots (both operands have n
            // elements: checked).
            let out = unsafe {
                crate::alloc::written_vec(n, |o| {
                    par::map2_uninit(o, ca, cb, |&x, &y| op.apply(x, y))
                })
            }?;
            return Ok(CpuBuffer::new(out));
        }
        let mut out = crate::alloc::zeroed_vec::<K::Out>(n)?;
        {
            let mut ov = view_mut(&mut out, &Layout::contiguous(la.shape()));
            let z = Zip::from(&mut ov).and(view(sa, la)).and(view(sb, lb));
            if n >= par::PAR_MIN {
                z.par_for_each(|o, &x, &y| *o = op.apply(x, y));
            } else {
                z.for_each(|o, &x, &y| *o = op.apply(x, y));
            }
        }
        Ok(CpuBuffer::new(out))
    }

    fn binary_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &CpuBuffer<T>,
        la: &Layout,
        s: T,
        scalar_first: bool,
    ) -> Result<CpuBuffer<K::Out>> {
        check_views(K::NAME, &[(a.len(), la)])?;
        let out = if scalar_first {
            gather_map(a.as_slice(), la, |x| op.apply(s, x))?
        } else {
            gather_map(a.as_slice(), la, |x| op.apply(x, s))?
        };
        Ok(CpuBuffer::new(out))
    }

    fn unary_inplace<T: Element, K: UnaryOp<T, Out = T>>(
        &self,
        op: K,
        x: &mut CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<()> {
        check_views(K::NAME, &[(x.len(), lx)])?;
        let n = lx.size();
        let d = x.make_mut()?;
        if let Some(c) = contiguous_mut(d, lx) {
            par::update(c, |v| *v = op.apply(*v));
            return Ok(());
        }
        let mut v = view_mut(d, lx);
        if n >= par::PAR_MIN {
            v.par_map_inplace(|e| *e = op.apply(*e));
        } else {
            v.map_inplace(|e| *e = op.apply(*e));
        }
        Ok(())
    }

    fn binary_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CpuBuffer<T>,
        la: &Layout,
        b: &CpuBuffer<T>,
        lb: &Layout,
    ) -> Result<()> {
        check_views(K::NAME, &[(a.len(), la), (b.len(), lb)])?;
        let n = la.size();
        let sb = b.as_slice();
        let d = a.make_mut()?;
        if let (Some(ca), Some(cb)) = (contiguous_mut(d, la), contiguous(sb, lb)) {
            par::update2(ca, cb, |x, &y| *x = op.apply(*x, y));
            return Ok(());
        }
        let mut av = view_mut(d, la);
        let z = Zip::from(&mut av).and(view(sb, lb));
        if n >= par::PAR_MIN {
            z.par_for_each(|x, &y| *x = op.apply(*x, y));
        } else {
            z.for_each(|x, &y| *x = op.apply(*x, y));
        }
        Ok(())
    }

    fn binary_scalar_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut CpuBuffer<T>,
        la: &Layout,
        s: T,
    ) -> Result<()> {
        check_views(K::NAME, &[(a.len(), la)])?;
        let n = la.size();
        let d = a.make_mut()?;
        if let Some(c) = contiguous_mut(d, la) {
            par::update(c, |x| *x = op.apply(*x, s));
            return Ok(());
        }
        let mut v = view_mut(d, la);
        if n >= par::PAR_MIN {
            v.par_map_inplace(|x| *x = op.apply(*x, s));
        } else {
            v.map_inplace(|x| *x = op.apply(*x, s));
        }
        Ok(())
    }

    fn where_<T: Element>(
        &self,
        cond: &CpuBuffer<bool>,
        lc: &Layout,
        a: &CpuBuffer<T>,
        la: &Layout,
        b: &CpuBuffer<T>,
        lb: &Layout,
    ) -> Result<CpuBuffer<T>> {
        check_views("where", &[(cond.len(), lc), (a.len(), la), (b.len(), lb)])?;
        let n = la.size();
        let (cs, xs, ys) = (cond.as_slice(), a.as_slice(), b.as_slice());
        if let (Some(c), Some(x), Some(y)) = (flat(cs, lc), flat(xs, la), flat(ys, lb)) {
            // Contiguous operands and 0-d ones broadcast: one pass into fresh memory.
            let at = |i: usize| {
                if c.0[i * c.1] {
                    x.0[i * x.1]
                } else {
                    y.0[i * y.1]
                }
            };
            // SAFETY: generate_uninit writes every one of the n slots.
            let out = unsafe { crate::alloc::written_vec(n, |o| par::generate_uninit(o, at)) }?;
            return Ok(CpuBuffer::new(out));
        }
        let mut out = crate::alloc::zeroed_vec::<T>(n)?;
        let mut ov = view_mut(&mut out, &Layout::contiguous(la.shape()));
        let z = Zip::from(&mut ov)
            .and(view(cond.as_slice(), lc))
            .and(view(a.as_slice(), la))
            .and(view(b.as_slice(), lb));
        if n >= par::PAR_MIN {
            z.par_for_each(|o, &c, &x, &y| *o = if c { x } else { y });
        } else {
            z.for_each(|o, &c, &x, &y| *o = if c { x } else { y });
        }
        Ok(CpuBuffer::new(out))
    }
}

/// A view read as `(s, step)` with element `i` at `s[i * step]`: a contiguous view
/// (`step` 1) or one value broadcast to every position (`step` 0).
fn flat<'a, T>(data: &'a [T], l: &Layout) -> Option<(&'a [T], usize)> {
    if let Some(c) = contiguous(data, l) {
        return Some((c, 1));
    }
    let one_value = l
        .strides()
        .iter()
        .zip(l.shape())
        .all(|(&s, &d)| s == 0 || d == 1);
    (one_value && l.size() > 0).then(|| (&data[l.offset()..], 0))
}
