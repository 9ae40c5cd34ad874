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

    /// NumPy's `ufunc.outer(self, other)` for any binary op: `op(self[i...], other[j...])`
    /// for every pair of elements, of shape `self.shape + other.shape` (`np.add.outer(a,
    /// b)` is `a.outer_op(ops::Add, &b)`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let a = Array::<i64, B>::from_vec(vec![1, 2], &[2], dev)?;
    /// let b = Array::<i64, B>::from_vec(vec![10, 20, 30], &[3], dev)?;
    /// let s = a.outer_op(ops::Add, &b)?;
    /// assert_eq!(s.shape(), &[2, 3]);
    /// assert_eq!(s.to_vec()?, vec![11, 21, 31, 12, 22, 32]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn outer_op<K: BinaryOp<T>>(&self, op: K, other: &Array<T, B>) -> Result<Array<K::Out, B>> {
        let mut shape: Vec<isize> = self.shape().iter().map(|&n| n as isize).collect();
        shape.extend(std::iter::repeat_n(1, other.ndim()));
        self.reshape(&shape)?.zip_op(op, other)
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
    /// three broadcast together. Each branch is an array (`&a`) or a scalar of the element
    /// type (NumPy's `np.where(x > 0, x, 0.0)`).
    ///
    /// ```
    /// # use cuprite_core::*;
    /// # fn demo<B: ArrayBackend>(dev: &B) -> Result<()> {
    /// let x = Array::<f64, B>::from_vec(vec![-1.0, 2.0, -3.0], &[3], dev)?;
    /// let relu = Array::where_(&x.gt_scalar(0.0)?, &x, 0.0)?;
    /// assert_eq!(relu.to_vec()?, vec![0.0, 2.0, 0.0]);
    /// let sign = Array::<f64, B>::where_(&x.lt_scalar(0.0)?, -1.0, 1.0)?;
    /// assert_eq!(sign.to_vec()?, vec![-1.0, 1.0, -1.0]);
    /// # Ok(()) }
    /// # demo(&cuprite_cpu::Cpu::new()).unwrap();
    /// ```
    pub fn where_<'a, 'b>(
        cond: &Array<bool, B>,
        a: impl Into<Branch<'a, T, B>>,
        b: impl Into<Branch<'b, T, B>>,
    ) -> Result<Self> {
        let (a, b) = (a.into().on(cond)?, b.into().on(cond)?);
        Self::where_arrays(cond, &a, &b)
    }

    /// [`Array::where_`] of three arrays.
    fn where_arrays(cond: &Array<bool, B>, a: &Array<T, B>, b: &Array<T, B>) -> Result<Self> {
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

/// A branch of [`Array::where_`]: an array (`&a`) or a scalar of the element type.
pub enum Branch<'a, T: Element, B: ArrayBackend> {
    /// An array, broadcast with the condition and the other branch.
    Array(&'a Array<T, B>),
    /// One value everywhere.
    Scalar(T),
}

impl<'a, T: Element, B: ArrayBackend> From<&'a Array<T, B>> for Branch<'a, T, B> {
    fn from(a: &'a Array<T, B>) -> Self {
        Branch::Array(a)
    }
}

impl<'a, T: Element, B: ArrayBackend> From<&'a mut Array<T, B>> for Branch<'a, T, B> {
    fn from(a: &'a mut Array<T, B>) -> Self {
        Branch::Array(a)
    }
}

macro_rules! branch_from_scalar {
    ($($t:ty),*) => {$(
        impl<B: ArrayBackend> From<$t> for Branch<'_, $t, B> {
            fn from(v: $t) -> Self {
                Branch::Scalar(v)
            }
        }
    )*};
}
branch_from_scalar!(
    bool,
    i8,
    u8,
    i16,
    u16,
    i32,
    u32,
    i64,
    u64,
    crate::dtype::f16,
    crate::dtype::bf16,
    f32,
    f64,
    crate::dtype::c64,
    crate::dtype::c128
);

impl<'a, T: Element, B: ArrayBackend> Branch<'a, T, B> {
    /// The branch as an array on `cond`'s device (a scalar becomes a 0-d array, filled on
    /// the device: no host-to-device copy).
    fn on(self, cond: &Array<bool, B>) -> Result<std::borrow::Cow<'a, Array<T, B>>> {
        Ok(match self {
            Branch::Array(a) => std::borrow::Cow::Borrowed(a),
            Branch::Scalar(v) => std::borrow::Cow::Owned(Array::full(&[], v, &cond.device)?),
        })
    }
}
