//! The deferred primitives of [`Fused`]: element-wise maps, `where` and casts record a node
//! of a pending expression; in-place maps over a whole array extend the array's own
//! expression; those over a part of it with a pending right-hand side are one pass writing
//! that part where the backend can ([`FusionBackend::eval_into`]), else written through `B`.

use super::expr::{Binary, BinaryScalar, Cast, Expr, Unary, Where};
use super::over::{self, BinaryOverFn, ScalarOverFn, UnaryOverFn};
use super::{Build, Fused, FusedBuf, FusionBackend, reads_whole};
use crate::backend::ElementwiseOps;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::{BinaryOp, UnaryOp};
use std::marker::PhantomData;
use std::sync::Arc;

impl<B: FusionBackend> Fused<B> {
    /// Whether a primitive over the view `l` is deferred: fusing, and `l` holds at least
    /// [`Fused::defer_min`] elements (smaller ones run at once on `B`).
    fn defers(&self, l: &Layout) -> bool {
        self.fusing() && l.size() >= self.defer_min()
    }

    /// `op(x)` with `B`'s loop.
    fn unary_node<T: Element, K: UnaryOp<T>>(op: K, x: Expr<T>) -> Unary<T, K> {
        Unary {
            op,
            x,
            run: B::unary_loop::<T, K>(),
            over: None,
        }
    }

    /// `op(a, b)` with `B`'s loop.
    fn binary_node<T: Element, K: BinaryOp<T>>(op: K, a: Expr<T>, b: Expr<T>) -> Binary<T, K> {
        Binary {
            op,
            a,
            b,
            run: B::binary_loop::<T, K>(),
            scalar_run: B::scalar_loop::<T, K>(),
            over: None,
        }
    }

    /// `op(x, s)` (or `op(s, x)`) with `B`'s loop.
    fn scalar_node<T: Element, K: BinaryOp<T>>(
        op: K,
        x: Expr<T>,
        s: T,
        scalar_first: bool,
    ) -> BinaryScalar<T, K> {
        BinaryScalar {
            op,
            x,
            s,
            scalar_first,
            run: B::scalar_loop::<T, K>(),
            over: None,
        }
    }

    /// `op(x)` of an in-place op: evaluated over the updated array's memory where it can be
    /// ([`super::over`]).
    fn unary_update<T: Element, K: UnaryOp<T, Out = T>>(op: K, x: Expr<T>) -> Expr<T> {
        let over: UnaryOverFn<T, K> = over::unary::<B, T, K>;
        Arc::new(Unary {
            over: Some(over),
            ..Self::unary_node(op, x)
        })
    }

    /// `op(a, b)` of an in-place op (`a` the updated array's value): as
    /// [`unary_update`](Self::unary_update).
    fn binary_update<T: Element, K: BinaryOp<T, Out = T>>(
        op: K,
        a: Expr<T>,
        b: Expr<T>,
    ) -> Expr<T> {
        let over: BinaryOverFn<T, K> = over::binary::<B, T, K>;
        Arc::new(Binary {
            over: Some(over),
            ..Self::binary_node(op, a, b)
        })
    }

    /// `op(x, s)` of an in-place op: as [`unary_update`](Self::unary_update).
    fn scalar_update<T: Element, K: BinaryOp<T, Out = T>>(op: K, x: Expr<T>, s: T) -> Expr<T> {
        let over: ScalarOverFn<T, K> = over::scalar::<B, T, K>;
        Arc::new(BinaryScalar {
            over: Some(over),
            ..Self::scalar_node(op, x, s, false)
        })
    }

    /// A new pending buffer holding `expr` over the shape of `l`.
    fn node<T: Element>(&self, expr: Expr<T>, l: &Layout) -> Result<FusedBuf<B, T>> {
        self.defer(expr, l.size())
    }

    /// `a = build(a)` for an in-place op through `la`: the whole buffer takes the
    /// expression as its new pending value (an update of its own memory where nothing else
    /// holds it: [`Fused::update_in_place`]); a part of it is written through `B` with
    /// `write`.
    fn update<T: Element>(
        &self,
        a: &mut FusedBuf<B, T>,
        la: &Layout,
        op: &'static str,
        build: Build<T>,
        write: impl FnOnce(&B, &mut B::Buffer<T>) -> Result<()>,
    ) -> Result<()> {
        let len = self.buffer_len_of(a);
        if self.defers(la) && reads_whole(la, len) {
            if self.update_in_place(a, len, build.clone())? {
                return Ok(());
            }
            let new = build(self.operand(a, la, op)?);
            *a = self.defer(new, len)?;
            return Ok(());
        }
        self.with_mut(a, |buf| write(&self.inner, buf))
    }
}

impl<B: FusionBackend> ElementwiseOps for Fused<B> {
    fn unary<T: Element, K: UnaryOp<T>>(
        &self,
        op: K,
        x: &FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<FusedBuf<B, K::Out>> {
        if !self.defers(lx) {
            return Ok(FusedBuf::ready(self.inner.unary(
                op,
                &*self.ready(x)?,
                lx,
            )?));
        }
        let x = self.operand(x, lx, K::NAME)?;
        self.node(Arc::new(Self::unary_node(op, x)), lx)
    }

    fn binary<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &FusedBuf<B, T>,
        la: &Layout,
        b: &FusedBuf<B, T>,
        lb: &Layout,
    ) -> Result<FusedBuf<B, K::Out>> {
        if !self.defers(la) {
            let (a, b) = (self.ready(a)?, self.ready(b)?);
            return Ok(FusedBuf::ready(self.inner.binary(op, &a, la, &b, lb)?));
        }
        let (a, b) = (self.operand(a, la, K::NAME)?, self.operand(b, lb, K::NAME)?);
        self.node(Arc::new(Self::binary_node(op, a, b)), la)
    }

    fn binary_scalar<T: Element, K: BinaryOp<T>>(
        &self,
        op: K,
        a: &FusedBuf<B, T>,
        la: &Layout,
        s: T,
        scalar_first: bool,
    ) -> Result<FusedBuf<B, K::Out>> {
        if !self.defers(la) {
            let a = self.ready(a)?;
            let out = self.inner.binary_scalar(op, &a, la, s, scalar_first)?;
            return Ok(FusedBuf::ready(out));
        }
        let x = self.operand(a, la, K::NAME)?;
        self.node(Arc::new(Self::scalar_node(op, x, s, scalar_first)), la)
    }

    fn unary_inplace<T: Element, K: UnaryOp<T, Out = T>>(
        &self,
        op: K,
        x: &mut FusedBuf<B, T>,
        lx: &Layout,
    ) -> Result<()> {
        self.update(
            x,
            lx,
            K::NAME,
            Arc::new(move |x| Self::unary_update(op, x)),
            |dev, buf| dev.unary_inplace(op, buf, lx),
        )
    }

    fn binary_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut FusedBuf<B, T>,
        la: &Layout,
        b: &FusedBuf<B, T>,
        lb: &Layout,
    ) -> Result<()> {
        let len = self.buffer_len_of(a);
        if self.defers(la) && reads_whole(la, len) {
            // The right-hand side first: it may be a clone of `a` itself.
            let rhs = self.operand(b, lb, K::NAME)?;
            let build = move |a| Self::binary_update(op, a, rhs.clone());
            return self.update(a, la, K::NAME, Arc::new(build), |_, _| Ok(()));
        }
        // A pending right-hand side: `a[view] op= rhs` is one pass writing the view.
        if let Some(rhs) = self.pending_whole(b, lb)
            && self.write_into(a, la, |x| Self::binary_update(op, x, rhs))?
        {
            return Ok(());
        }
        let b = self.ready(b)?;
        self.with_mut(a, |buf| self.inner.binary_inplace(op, buf, la, &b, lb))
    }

    fn binary_scalar_inplace<T: Element, K: BinaryOp<T, Out = T>>(
        &self,
        op: K,
        a: &mut FusedBuf<B, T>,
        la: &Layout,
        s: T,
    ) -> Result<()> {
        let build = move |x| Self::scalar_update(op, x, s);
        self.update(a, la, K::NAME, Arc::new(build), |dev, buf| {
            dev.binary_scalar_inplace(op, buf, la, s)
        })
    }

    fn where_<T: Element>(
        &self,
        cond: &FusedBuf<B, bool>,
        lc: &Layout,
        a: &FusedBuf<B, T>,
        la: &Layout,
        b: &FusedBuf<B, T>,
        lb: &Layout,
    ) -> Result<FusedBuf<B, T>> {
        if !self.defers(lc) {
            let (c, x, y) = (self.ready(cond)?, self.ready(a)?, self.ready(b)?);
            return Ok(FusedBuf::ready(self.inner.where_(&c, lc, &x, la, &y, lb)?));
        }
        let (cond, a, b) = (
            self.operand(cond, lc, "where")?,
            self.operand(a, la, "where")?,
            self.operand(b, lb, "where")?,
        );
        self.node(Arc::new(Where { cond, a, b }), lc)
    }
}

impl<B: FusionBackend> Fused<B> {
    /// `buf` read through `layout` and converted to `U`: deferred like the maps.
    pub(crate) fn cast_deferred<T: Element, U: Element>(
        &self,
        buf: &FusedBuf<B, T>,
        layout: &Layout,
    ) -> Result<FusedBuf<B, U>> {
        if !self.defers(layout) {
            return Ok(FusedBuf::ready(
                self.inner.cast(&*self.ready(buf)?, layout)?,
            ));
        }
        let x = self.operand(buf, layout, "cast")?;
        let cast: Cast<T, U> = Cast { x, to: PhantomData };
        self.node(Arc::new(cast), layout)
    }
}
