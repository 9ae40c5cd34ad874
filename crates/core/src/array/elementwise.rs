//! The plumbing of element-wise ops: broadcasting two operands, scalar operands, in-place
//! updates. Named math methods (`sin`, `maximum`, ...) are thin calls into these.

use super::Array;
use super::Operand;
use crate::backend::ArrayBackend;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::layout::broadcast_shapes;
use crate::ops::{BinaryOp, UnaryOp};

impl<T: Element, B: ArrayBackend> Array<T, B> {
    /// Applies a unary op to every element (a new C-contiguous array).
    pub fn map_op<K: UnaryOp<T>>(&self, op: K) -> Result<Array<K::Out, B>> {
        let buf = self.device.unary(op, &self.buf, &self.layout)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// Applies a binary op to `self` and `other` broadcast together (NumPy rules).
    pub fn zip_op<K: BinaryOp<T>>(&self, op: K, other: &Array<T, B>) -> Result<Array<K::Out, B>> {
        self.check_device(other, K::NAME)?;
        let shape = broadcast_shapes(K::NAME, self.shape(), other.shape())?;
        let la = self.layout.broadcast_to(K::NAME, &shape)?;
        let lb = other.layout.broadcast_to(K::NAME, &shape)?;
        let buf = self.device.binary(op, &self.buf, &la, &other.buf, &lb)?;
        Ok(Array::from_contiguous(buf, &shape, &self.device))
    }

    /// Applies a binary op to every element and the scalar `s` (`op(x, s)`).
    pub fn scalar_op<K: BinaryOp<T>>(&self, op: K, s: T) -> Result<Array<K::Out, B>> {
        let buf = self
            .device
            .binary_scalar(op, &self.buf, &self.layout, s, false)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// Applies a binary op to the scalar `s` and every element (`op(s, x)`).
    pub fn scalar_op_rev<K: BinaryOp<T>>(&self, op: K, s: T) -> Result<Array<K::Out, B>> {
        let buf = self
            .device
            .binary_scalar(op, &self.buf, &self.layout, s, true)?;
        Ok(Array::from_contiguous(buf, self.shape(), &self.device))
    }

    /// `self = op(self)` in place.
    pub fn map_op_inplace<K: UnaryOp<T, Out = T>>(&mut self, op: K) -> Result<()> {
        let dev = self.device.clone();
        let (buf, layout) = self.writable(K::NAME)?;
        dev.unary_inplace(op, buf, layout)
    }

    /// `self = op(self, other)` in place, `other` broadcast to `self`'s shape. `other` is
    /// given by reference or by value ([`Operand`]): a view of `self`'s own buffer given by
    /// value is copied alone (not the whole of `self`) before the write.
    pub fn zip_op_inplace<'o, K: BinaryOp<T, Out = T>>(
        &mut self,
        op: K,
        other: impl Into<Operand<'o, T, B>>,
    ) -> Result<()> {
        let other = self.detach(other.into())?;
        let other = other.get();
        self.check_device(other, K::NAME)?;
        let lb = other
            .layout
            .broadcast_to(K::NAME, self.shape())
            .map_err(|_| {
                Error::invalid(
                    K::NAME,
                    format!(
                        "non-broadcastable operand with shape {:?} doesn't match the \
                         in-place destination shape {:?}",
                        other.shape(),
                        self.shape()
                    ),
                )
            })?;
        let dev = self.device.clone();
        let (buf, la) = self.writable(K::NAME)?;
        dev.binary_inplace(op, buf, la, &other.buf, &lb)
    }

    /// `self = op(self, s)` in place.
    pub fn scalar_op_inplace<K: BinaryOp<T, Out = T>>(&mut self, op: K, s: T) -> Result<()> {
        let dev = self.device.clone();
        let (buf, layout) = self.writable(K::NAME)?;
        dev.binary_scalar_inplace(op, buf, layout, s)
    }

    /// Writes `src` (broadcast to `self`'s shape) into `self`; `src` by reference or by
    /// value, as in [`Array::zip_op_inplace`].
    pub fn assign<'o>(&mut self, src: impl Into<Operand<'o, T, B>>) -> Result<()> {
        let src = self.detach(src.into())?;
        let src = src.get();
        self.check_device(src, "assign")?;
        let ls = src.layout.broadcast_to("assign", self.shape())?;
        let dev = self.device.clone();
        let (buf, ld) = self.writable("assign")?;
        dev.assign(buf, ld, &src.buf, &ls)
    }

    /// Sets every element to `value`.
    pub fn fill(&mut self, value: T) -> Result<()> {
        let dev = self.device.clone();
        let (buf, layout) = self.writable("fill")?;
        dev.fill(buf, layout, value)
    }

    /// NumPy's `where(cond, a, b)`: elements of `a` where `cond` is true, else of `b`, all
    /// three broadcast together.
    pub fn where_(cond: &Array<bool, B>, a: &Array<T, B>, b: &Array<T, B>) -> Result<Self> {
        const OP: &str = "where";
        a.check_device(b, OP)?;
        cond.check_device(a, OP)?;
        let shape = broadcast_shapes(OP, cond.shape(), a.shape())?;
        let shape = broadcast_shapes(OP, &shape, b.shape())?;
        let lc = cond.layout.broadcast_to(OP, &shape)?;
        let la = a.layout.broadcast_to(OP, &shape)?;
        let lb = b.layout.broadcast_to(OP, &shape)?;
        let buf = a.device.where_(&cond.buf, &lc, &a.buf, &la, &b.buf, &lb)?;
        Ok(Array::from_contiguous(buf, &shape, &a.device))
    }
}
