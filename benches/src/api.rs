//! The array operations the benchmarks time, in one place: reductions, sorting and matrix
//! products as the `Array` methods users call. Every bench and every comparison case goes
//! through these functions, so a change of a method's signature is one edit here.

use cuprite::ops::{Mul, Sqrt, Square};
use cuprite::{Array, ArrayBackend, Axes, Float, Numeric, Result};

/// `x.sum()`: the sum of every element, a 0-d array.
pub fn sum<B: ArrayBackend>(x: &Array<f64, B>) -> Result<Array<f64, B>> {
    x.sum()
}

/// `x.sum_axes(axis, keepdims)`.
pub fn sum_axis<B: ArrayBackend>(
    x: &Array<f64, B>,
    axis: isize,
    keepdims: bool,
) -> Result<Array<f64, B>> {
    x.sum_axes(axis, keepdims)
}

/// `x.mean_axes(axis, keepdims)`.
pub fn mean_axis<B: ArrayBackend>(
    x: &Array<f64, B>,
    axis: isize,
    keepdims: bool,
) -> Result<Array<f64, B>> {
    x.mean_axes(axis, keepdims)
}

/// `x.std_axes(axis, ddof, keepdims)`.
pub fn std_axis<B: ArrayBackend>(
    x: &Array<f64, B>,
    axis: isize,
    ddof: f64,
    keepdims: bool,
) -> Result<Array<f64, B>> {
    x.std_axes(axis, ddof, keepdims)
}

/// `sqrt(sum(|x|^2))`, the 2-norm as a 0-d array: one fused reduction pass, then a sqrt.
pub fn norm<B: ArrayBackend>(x: &Array<f64, B>) -> Result<Array<f64, B>> {
    x.reduce_op(cuprite::ops::SumAbsSq, Axes::All, false)?
        .map_op(Sqrt)
}

/// `x.sort(axis)`: a sorted copy along `axis`.
pub fn sort<T: Float, B: ArrayBackend>(x: &Array<T, B>, axis: isize) -> Result<Array<T, B>> {
    x.sort(axis)
}

/// `a.matmul(b)`: the matrix product.
pub fn matmul<T: Numeric, B: ArrayBackend>(
    a: &Array<T, B>,
    b: &Array<T, B>,
) -> Result<Array<T, B>> {
    a.matmul(b)
}

/// NumPy's `x *= 5`: an in-place scalar multiply.
pub fn mul_scalar_inplace<B: ArrayBackend>(x: &mut Array<f64, B>, s: f64) -> Result<()> {
    x.scalar_op_inplace(Mul, s)
}

/// NumPy's `x *= 5; x *= x; x += x`, in place. `x *= x` is the in-place square (a borrowed
/// `&x` cannot alias the `&mut x` being written); `x += x` is `x *= 2`, which gives the same
/// bits (doubling is exact) with the same memory traffic, where `x += &x.clone()` would first
/// copy `x` (copy-on-write of the shared buffer).
pub fn chain_inplace<B: ArrayBackend>(x: &mut Array<f64, B>) -> Result<()> {
    x.scalar_op_inplace(Mul, 5.0)?;
    x.map_op_inplace(Square)?;
    x.scalar_op_inplace(Mul, 2.0)
}

/// The pipeline of the anchor notebooks: `m = sort(x).reshape(-1, cols)`,
/// `(m - m.mean(axis=0)) / m.std(axis=0)`.
pub fn pipeline<B: ArrayBackend>(x: &Array<f64, B>, cols: usize) -> Result<Array<f64, B>> {
    let m = sort(x, -1)?.reshape(&[-1, cols as isize])?;
    let centred = m.try_sub(&mean_axis(&m, 0, true)?)?;
    centred.try_div(&std_axis(&m, 0, 0.0, true)?)
}
