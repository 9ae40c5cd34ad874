//! Element-wise primitives of the CPU backend: contiguous operands, and a contiguous
//! operand beside one broadcast value (a 0-d array, a scalar), run as slice loops split
//! over rayon (the compiler vectorises them); any other views run row by row
//! ([`crate::strided`]), never through a zero-filled output.

use crate::buffer::CpuBuffer;
use crate::memory::gather_map;
use crate::par;
use crate::view::{check_views, contiguous, contiguous_mut, view, view_mut};
use crate::Cpu;
use cuprite_core::backend::ElementwiseOps;
use cuprite_core::ops::{with_scalar, BinaryOp, ScalarBody, UnaryOp};
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
        Ok(CpuBuffer::new(gather_map(x.as_slice(), lx, move |v| {
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
        let out = match (flat(sa, la), flat(sb, lb)) {
            // SAFETY (all three): the loops write every one of the n slots (each operand
            // has n elements or is one value: checked).
            (Some((ca, 1)), Some((cb, 1))) => unsafe {
                crate::alloc::written_vec(n, |o| {
                    par::map2_uninit(o, ca, cb, move |&x, &y| op.apply(x, y))
                })
            },
            (Some((_, 1)), Some((cb, 0))) => {
                return self.binary_scalar(op, a, la, cb[0], false);
            }
            (Some((ca, 0)), Some((_, 1))) => {
                return self.binary_scalar(op, b, lb, ca[0], true);
            }
            _ => unsafe {
                crate::alloc::written_vec(n, |o| {
                    crate::strided::map2(o, sa, la, sb, lb, move |x, y| op.apply(x, y))
                })
            },
        }?;
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
        let out = with_scalar(op, s, scalar_first, Gather(a.as_slice(), la))?;
        Ok(CpuBuffer::new(out))
    }

    fn unary_inplace<T: Element, K: UnaryOp<T, Out = T>>(
        &self,
        op: K,
        x: &mut CpuBuffer<T>,
        lx: &Layout,
    ) -> Result<()> {
        check_views(K::NAME, &[(x.len(), lx)])?;
        let d = x.make_mut()?;
        if let Some(c) = contiguous_mut(d, lx) {
            par::update(c, move |v| *v = op.apply(*v));
            return Ok(());
        }
        crate::strided::update2(d, lx, &[()], &one_value(lx), move |x, ()| op.apply(x));
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
        let sb = b.as_slice();
        let d = a.make_mut()?;
        if let (Some(ca), Some(cb)) = (contiguous_mut(d, la), contiguous(sb, lb)) {
            par::update2(ca, cb, move |x, &y| *x = op.apply(*x, y));
            return Ok(());
        }
        // `make_mut` copied `a` if `b` shared its buffer: the two are distinct here.
        crate::strided::update2(d, la, sb, lb, move |x, y| op.apply(x, y));
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
        let d = a.make_mut()?;
        with_scalar(op, s, false, Update(d, la));
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
        if !par::serial(n) {
            z.par_for_each(|o, &c, &x, &y| *o = if c { x } else { y });
        } else {
            z.for_each(|o, &c, &x, &y| *o = if c { x } else { y });
        }
        Ok(CpuBuffer::new(out))
    }
}

/// A view of `l`'s shape that reads the one element of a 1-element buffer everywhere.
/// The loop of `binary_scalar`: `f` of each element of a view into a fresh C-order vector.
struct Gather<'a, T>(&'a [T], &'a Layout);

impl<T: Element, O: Element> ScalarBody<T, O> for Gather<'_, T> {
    type Out = Result<Vec<O>>;
    fn run(self, f: impl Fn(T) -> O + Copy + Send + Sync) -> Result<Vec<O>> {
        gather_map(self.0, self.1, f)
    }
}

/// The loop of `binary_scalar_inplace`: each element of a view replaced by `f` of it.
struct Update<'a, T>(&'a mut [T], &'a Layout);

impl<T: Element> ScalarBody<T, T> for Update<'_, T> {
    type Out = ();
    fn run(self, f: impl Fn(T) -> T + Copy + Send + Sync) {
        let (d, l) = (self.0, self.1);
        if let Some(c) = contiguous_mut(d, l) {
            par::update(c, move |x| *x = f(*x));
            return;
        }
        crate::strided::update2(d, l, &[()], &one_value(l), move |x, ()| f(x));
    }
}

fn one_value(l: &Layout) -> Layout {
    Layout::new(l.shape().to_vec(), vec![0; l.ndim()], 0)
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
